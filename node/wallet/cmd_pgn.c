/* zbc app pgn ID [--out FILE] (docs/wallet.md "Playing"): a chess app as
 * PGN.  The moves are replayed from the app history through the chess
 * engine (white = the first seat the lifecycle drew) and written in SAN;
 * the tags name the chain, the date of the first block of play, the
 * seats' addresses and the result. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "apps/games/chess.h"
#include "apps/notation.h"
#include "crypto/hex.h"
#include "node/client/reply.h"
#include "node/wallet/app_client.h"
#include "node/wallet/client.h"
#include "node/wallet/cmds.h"
#include "node/wallet/result_text.h"

extern const struct zbc_engine zbc_engine_chess;

#define PGN_MAX 65536

static const char *seat_address(const json_t *app, int seat)
{
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(app, "players"), i, p) {
        if (json_integer_value(json_object_get(p, "seat")) == seat)
            return json_string_value(json_object_get(p, "address"));
    }
    return "?";
}

/* A GET whose answer we only read one optional field of. */
static json_t *get_quiet(const struct zbc_opts *o, const char *path)
{
    struct zbc_client api = {o->api, o->timeout_s, 0};
    struct zbc_wfail quiet = {0};
    json_t *j = NULL;
    if (!zbc_client_call(&api, path, NULL, &j, &quiet))
        j = NULL;
    zbc_wfail_clear(&quiet);
    return j;
}

/* "2026.12.01" of a block's timestamp (ms), "????.??.??" when unknown. */
static void pgn_date(const struct zbc_opts *o, long long height, char out[16])
{
    char path[64];
    snprintf(path, sizeof path, "/api/v1/blocks/%lld", height);
    json_t *b = get_quiet(o, path);
    const json_t *ts = json_object_get(b, "timestamp");
    struct tm tm;
    time_t t = json_is_integer(ts) ? (time_t)(json_integer_value(ts) / 1000) : 0;
    if (t > 0 && gmtime_r(&t, &tm) != NULL)
        snprintf(out, 16, "%04d.%02d.%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
    else
        snprintf(out, 16, "????.??.??");
    json_decref(b);
}

/* A PGN tag value: backslash and quote escaped (PGN standard 8.1.1). */
static void tag(struct zbc_text *t, const char *name, const char *value)
{
    zbc_text_printf(t, "[%s \"", name);
    for (const char *p = value; *p != '\0'; p++)
        zbc_text_printf(t, "%s%c", *p == '"' || *p == '\\' ? "\\" : "", *p);
    zbc_text_printf(t, "\"]\n");
}

/* PGN's Termination tag (the standard's values) for an outcome. */
static const char *termination(const char *outcome)
{
    if (outcome == NULL)
        return "unterminated";
    if (strcmp(outcome, "timeout") == 0)
        return "time forfeit";
    if (strcmp(outcome, "abandoned") == 0 || strcmp(outcome, "expired") == 0)
        return "abandoned";
    return "normal";
}

/* The movetext from the history: every app_move replayed.  Lines of at
 * most 79 characters. */
static int movetext(struct zbc_text *t, const json_t *app, uint8_t white, const char *id,
                    struct zbc_wfail *f)
{
    struct zbc_game_state *st = malloc(sizeof *st);
    struct zbc_err err;
    if (st == NULL)
        return zbc_wfail(f, ZBC_EXIT_INTERNAL, "out of memory");
    if (!zbc_engine_chess.init(st, 2, NULL, 0, white, NULL, &err)) {
        free(st);
        return zbc_wfail_err(f, ZBC_EXIT_INTERNAL, &err, "chess start position");
    }
    size_t i, col = 0;
    const json_t *e;
    int ply = 0;
    json_array_foreach(json_object_get(app, "history"), i, e) {
        const char *kind = json_string_value(json_object_get(e, "kind"));
        const char *hex = json_string_value(json_object_get(e, "move_hex"));
        if (kind == NULL || strcmp(kind, "app_move") != 0 || hex == NULL || hex[0] == '\0')
            continue;
        uint8_t mv[2];
        char san[16], word[32];
        int seat = (int)json_integer_value(json_object_get(e, "seat"));
        if (strlen(hex) != 4 || !zbc_hex_decode_exact(mv, 2, hex) || seat < 0 || seat > 1 ||
            zbc_chess_san(st, mv, 2, san, sizeof san) < 0 ||
            !zbc_engine_chess.apply_move(st, (uint8_t)seat, mv, 2, NULL, &err)) {
            free(st);
            return zbc_wfail(f, ZBC_EXIT_INTERNAL,
                             "the node's history of app %s does not replay at move %d (%.8s)", id,
                             ply + 1, hex);
        }
        if (ply % 2 == 0)
            snprintf(word, sizeof word, "%d. %s", ply / 2 + 1, san);
        else
            snprintf(word, sizeof word, "%s", san);
        size_t w = strlen(word);
        if (col > 0 && col + 1 + w > 79) {
            zbc_text_printf(t, "\n");
            col = 0;
        }
        zbc_text_printf(t, "%s%s", col > 0 ? " " : "", word);
        col += (col > 0 ? 1 : 0) + w;
        ply++;
    }
    free(st);
    return 1;
}

int zbc_cmd_app_pgn(const struct zbc_opts *o, int argc, const char *const *argv,
                    json_t **result, struct zbc_wfail *f)
{
    if (argc != 2)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "usage: zbc app pgn ID [--out FILE]");
    const char *id = argv[1];
    json_t *app;
    if (!zbc_app_fetch(&app, o, id, f))
        return 0;
    int ok = 0;
    char *pgn = malloc(PGN_MAX);
    json_int_t type = json_integer_value(json_object_get(app, "type"));
    const json_t *first = json_object_get(app, "history_first");
    const json_t *act = NULL, *e;
    size_t i;
    json_array_foreach(json_object_get(app, "history"), i, e) {
        const char *k = json_string_value(json_object_get(e, "kind"));
        if (act == NULL && k != NULL && strcmp(k, "app_activate") == 0)
            act = e;
    }
    json_int_t white = json_integer_value(json_object_get(act, "seat"));
    if (pgn == NULL) {
        zbc_wfail(f, ZBC_EXIT_INTERNAL, "out of memory");
        goto out;
    }
    if (type != zbc_engine_chess.type) {
        zbc_wfail(f, ZBC_EXIT_USAGE, "app %s is %s, not chess: PGN is for chess games", id,
                  json_string_value(json_object_get(app, "game")));
        goto out;
    }
    if (act == NULL || !json_is_integer(json_object_get(act, "seat")) || white < 0 || white > 1) {
        zbc_wfail(f, ZBC_EXIT_REJECTED, "app %s has not started: white is drawn when it does", id);
        goto out;
    }
    if (json_integer_value(first) > 0) {
        zbc_wfail(f, ZBC_EXIT_REJECTED,
                  "the node keeps only the last part of app %s's history: the game cannot be "
                  "written from its first move", id);
        goto out;
    }
    struct zbc_text t;
    zbc_text_init(&t, pgn, PGN_MAX);
    json_t *info = get_quiet(o, "/api/v1/node/info");
    const char *chain = json_string_value(json_object_get(info, "chain_name"));
    char date[16], event[64], words[512];
    pgn_date(o, json_integer_value(json_object_get(act, "height")), date);
    int w = zbc_result_winner(app);
    const json_t *r = json_object_get(app, "result");
    const char *outcome = json_string_value(json_object_get(r, "outcome"));
    if (outcome == NULL)
        outcome = json_string_value(json_object_get(r, "ending"));
    const char *res = !json_is_object(r)                          ? "*"
                      : outcome != NULL && strcmp(outcome, "draw") == 0 ? "1/2-1/2"
                      : w == white                                 ? "1-0"
                      : w == 1 - white                             ? "0-1"
                                                                   : "*";
    snprintf(event, sizeof event, "ZooBC chess app %s", id);
    tag(&t, "Event", event);
    tag(&t, "Site", chain != NULL ? chain : "?");
    tag(&t, "Date", date);
    tag(&t, "Round", "-");
    tag(&t, "White", seat_address(app, (int)white));
    tag(&t, "Black", seat_address(app, 1 - (int)white));
    tag(&t, "Result", res);
    tag(&t, "ZBCApp", id);
    bool ended = zbc_result_text(app, words, sizeof words) >= 0;
    if (ended)
        tag(&t, "Termination", termination(outcome));
    json_decref(info);
    zbc_text_printf(&t, "\n");
    if (!movetext(&t, app, (uint8_t)white, id, f))
        goto out;
    /* the result in words as a comment; PGN comments cannot hold '}' */
    for (char *p = words; ended && *p != '\0'; p++)
        if (*p == '}')
            *p = ')';
    zbc_text_printf(&t, "%s%s%s%s%s\n", t.len > 0 && t.buf[t.len - 1] != '\n' ? " " : "",
                    ended ? "{" : "", ended ? words : "", ended ? "} " : "", res);
    if (zbc_text_result(&t) < 0) {
        zbc_wfail(f, ZBC_EXIT_INTERNAL, "the PGN of app %s is longer than %d bytes", id, PGN_MAX);
        goto out;
    }
    if (o->out_file != NULL) {
        FILE *fp = fopen(o->out_file, "w");
        bool wrote = fp != NULL && fputs(pgn, fp) >= 0;
        if (fp != NULL && fclose(fp) != 0)
            wrote = false;
        if (!wrote) {
            zbc_wfail(f, ZBC_EXIT_INTERNAL, "cannot write %s", o->out_file);
            goto out;
        }
    }
    json_t *res_j = json_object();
    json_object_set_new(res_j, "app_id", json_string(id));
    json_object_set_new(res_j, "white", json_string(seat_address(app, (int)white)));
    json_object_set_new(res_j, "black", json_string(seat_address(app, 1 - (int)white)));
    json_object_set_new(res_j, "result", json_string(res));
    json_object_set_new(res_j, "pgn", json_string(pgn));
    if (o->out_file != NULL) {
        char text[300];
        snprintf(text, sizeof text, "PGN of app %s written to %s\n", id, o->out_file);
        json_object_set_new(res_j, "file", json_string(o->out_file));
        json_object_set_new(res_j, "_text", json_string(text));
    } else {
        json_object_set_new(res_j, "_text", json_string(pgn));
    }
    *result = res_j;
    ok = 1;
out:
    free(pgn);
    json_decref(app);
    return ok;
}
