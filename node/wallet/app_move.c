/* zbc app move ID NOTATION... (docs/wallet.md "Apps"): a move in the
 * game's notation for the caller's seat, with the secret parts of
 * commit-reveal games (battleship, rps) filled in from the wallet's secret
 * files, signed and sent as an AppMove. */
#include "node/wallet/app_move.h"

#include <inttypes.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/games/battleship.h"
#include "apps/games/rps.h"
#include "crypto/hex.h"
#include "node/wallet/app_client.h"
#include "node/wallet/app_view.h"
#include "node/wallet/battleship_flow.h"
#include "node/wallet/result_text.h"

#define NOTE_MAX 4096 /* what a person reads about a move (a drawn board fits) */

static uint32_t sodium_uniform(void *ctx, uint32_t n)
{
    (void)ctx;
    return randombytes_uniform(n);
}

/* A random legal fleet (libsodium randombytes). */
static void random_fleet(uint8_t is_ship[ZBC_BATTLESHIP_CELLS])
{
    zbc_battleship_random_fleet(is_ship, sodium_uniform, NULL);
}

/* --board "A1,A2,...": the 17 ship cells of a standard fleet. */
static int board_cells(uint8_t is_ship[ZBC_BATTLESHIP_CELLS], const char *text,
                       struct zbc_wfail *f)
{
    struct zbc_err err;
    if (!zbc_battleship_parse_fleet(text, is_ship, &err))
        return zbc_wfail_err(f, ZBC_EXIT_USAGE, &err, "--board");
    return 1;
}

int zbc_app_battleship_secret(char **commit_hex, json_t **secret, const struct zbc_opts *o,
                             struct zbc_wfail *f)
{
    uint8_t is_ship[ZBC_BATTLESHIP_CELLS];
    uint8_t salts[ZBC_BATTLESHIP_CELLS][ZBC_BATTLESHIP_SALT_LEN];
    uint8_t commit[ZBC_BATTLESHIP_COMMIT_LEN];
    struct zbc_err err;
    if (o->board != NULL) {
        if (!board_cells(is_ship, o->board, f))
            return 0;
    } else {
        random_fleet(is_ship);
    }
    randombytes_buf(salts, sizeof salts);
    if (!zbc_battleship_commitment(commit, is_ship, (const uint8_t(*)[32])salts, &err))
        return zbc_wfail_err(f, ZBC_EXIT_INTERNAL, &err, "battleship commitment");
    char *hex = malloc(2 * sizeof commit + 1);
    char *shex = malloc(2 * sizeof salts + 1);
    char ships[2 * ZBC_BATTLESHIP_CELLS + 1];
    if (hex == NULL || shex == NULL) {
        free(hex);
        free(shex);
        return zbc_wfail(f, ZBC_EXIT_INTERNAL, "out of memory");
    }
    zbc_hex_encode(hex, commit, sizeof commit);
    zbc_hex_encode(shex, &salts[0][0], sizeof salts);
    zbc_hex_encode(ships, is_ship, sizeof is_ship);
    *secret = json_pack("{s:s, s:s, s:s}", "game", "battleship", "is_ship", ships, "salts", shex);
    sodium_memzero(salts, sizeof salts);
    sodium_memzero(shex, strlen(shex));
    free(shex);
    *commit_hex = hex;
    return 1;
}

static const char *rps_choice_name(uint8_t c)
{
    return c == ZBC_RPS_ROCK ? "rock" : c == ZBC_RPS_PAPER ? "paper" : "scissors";
}

static int rps_choice(const char *w)
{
    return strcmp(w, "rock") == 0       ? ZBC_RPS_ROCK
           : strcmp(w, "paper") == 0    ? ZBC_RPS_PAPER
           : strcmp(w, "scissors") == 0 ? ZBC_RPS_SCISSORS
                                        : 0;
}

/* Fills in the secret parts of a move text: battleship (battleship_flow.c),
 * rps commit CHOICE / reveal.  text is rewritten in place (cap bytes);
 * note gets what a person reads about the move ("" when the notation says
 * it all). */
static int secret_move(char *text, size_t cap, char *note, size_t note_cap,
                       const struct zbc_opts *o, uint64_t id,
                       const char *me, const struct zbc_engine *e, const struct zbc_game_state *st, uint8_t seat,
                       int argc, const char *const *argv, struct zbc_wfail *f)
{
    if (e == &zbc_engine_battleship) {
        if (argc == 1 && (strcmp(argv[0], "commit") == 0 || strcmp(argv[0], "place") == 0)) {
            char *hex;
            json_t *secret;
            if (!zbc_app_battleship_secret(&hex, &secret, o, f))
                return 0;
            int ok = zbc_app_secret_save(o, id, me, secret, f);
            if (ok) {
                snprintf(text, cap, "commit %s", hex);
                zbc_bs_commit_note(note, note_cap, secret);
            }
            json_decref(secret);
            free(hex);
            return ok;
        }
        return zbc_bs_move_text(text, cap, note, note_cap, o, id, me, st, seat, argc, argv, f);
    }
    if (e == &zbc_engine_rps) {
        if (argc == 2 && strcmp(argv[0], "commit") == 0 && rps_choice(argv[1]) != 0) {
            uint8_t salt[ZBC_RPS_SALT_LEN];
            char shex[65];
            randombytes_buf(salt, sizeof salt);
            zbc_hex_encode(shex, salt, sizeof salt);
            json_t *secret = json_pack("{s:s, s:i, s:s}", "game", "rps", "choice",
                                       rps_choice(argv[1]), "salt", shex);
            int ok = zbc_app_secret_save(o, id, me, secret, f);
            json_decref(secret);
            if (ok)
                snprintf(text, cap, "commit %s %s", argv[1], shex);
            return ok;
        }
        if (argc == 1 && strcmp(argv[0], "reveal") == 0) {
            json_t *secret;
            bool found;
            if (!zbc_app_secret_load(o, id, me, &secret, &found, f))
                return 0;
            const char *salt = json_string_value(json_object_get(secret, "salt"));
            int c = (int)json_integer_value(json_object_get(secret, "choice"));
            if (!found || salt == NULL || c < 1 || c > 3) {
                json_decref(secret);
                return zbc_wfail(f, ZBC_EXIT_NOT_FOUND,
                                 "no rock-paper-scissors commitment of app %" PRIu64
                                 " in this wallet", id);
            }
            snprintf(text, cap, "reveal %s %s", rps_choice_name((uint8_t)c), salt);
            json_decref(secret);
        }
    }
    return 1;
}

/* --wait on a dice move: the move is in a block (final); wait for the next
 * block to apply it and add what it rolled and did to the result
 * ("applied_height", "roll_text", "app") and its text (docs/wallet.md
 * "Playing"). */
static int dice_applied(json_t *result, const struct zbc_opts *o, const char *app_id,
                        struct zbc_wfail *f)
{
    const char *tx = json_string_value(json_object_get(result, "transaction_hash"));
    json_t *app = NULL;
    const json_t *entry;
    if (tx == NULL)
        return zbc_wfail(f, ZBC_EXIT_INTERNAL, "the node gave no transaction hash to follow");
    static const char *const kinds[] = {"app_move", "app_discard", NULL};
    if (!zbc_app_wait_entry(&app, &entry, o, app_id, kinds, tx, f))
        return 0;
    const char *kind = json_string_value(json_object_get(entry, "kind"));
    if (strcmp(kind, "app_discard") == 0) {
        /* the move was legal when sent, not when its block applied it, or
         * the engine refused it then (docs/protocol-apps.md §5, MOVE) */
        const char *why = json_string_value(json_object_get(entry, "reason"));
        zbc_wfail(f, ZBC_EXIT_REJECTED, "app %s: the move was discarded in block %lld: %s",
                  app_id, (long long)json_integer_value(json_object_get(entry, "height")),
                  why != NULL ? why : "no reason given");
        json_decref(app);
        return 0;
    }
    char roll[256], line[256];
    if (zbc_roll_text(entry, zbc_app_rolls_d6(app), roll, sizeof roll) < 0)
        snprintf(roll, sizeof roll, "no dice drawn");
    json_int_t h = json_integer_value(json_object_get(entry, "height"));
    const char *board = json_string_value(json_object_get(app, "board"));
    if (zbc_result_text(app, line, sizeof line) >= 0) {
        char words[300];
        snprintf(words, sizeof words, "result: %s", line);
        snprintf(line, sizeof line, "%s", words);
    } else if (zbc_app_clock_line(app, "", zbc_app_block_time_ms(o), line, sizeof line) < 0) {
        line[0] = '\0';
    }
    const char *before = json_string_value(json_object_get(result, "_text"));
    if (before == NULL)
        before = "";
    if (board == NULL)
        board = "";
    size_t cap = strlen(before) + strlen(roll) + strlen(board) + strlen(line) + 64;
    char *text = malloc(cap);
    if (text == NULL) {
        json_decref(app);
        return zbc_wfail(f, ZBC_EXIT_INTERNAL, "out of memory");
    }
    snprintf(text, cap, "%sapplied in block %lld: %s\n%s%s%s%s", before, (long long)h, roll,
             board, board[0] ? "\n" : "", line, line[0] ? "\n" : "");
    json_object_set_new(result, "_text", json_string(text));
    free(text);
    json_object_set_new(result, "applied_height", json_integer(h));
    json_object_set_new(result, "roll_text", json_string(roll));
    json_object_set_new(result, "rolls_hex", json_deep_copy(json_object_get(entry, "rolls_hex")));
    json_object_set_new(result, "app", app);
    return 1;
}

int zbc_app_move(const struct zbc_opts *o, const char *app_id, int nwords,
                 const char *const *words, json_t **result, struct zbc_wfail *f)
{
    if (nwords < 1)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "usage: zbc app move ID NOTATION... (e.g. e2e4, fire B7, roll)");
    uint64_t id;
    if (!zbc_app_parse_id(&id, app_id))
        return zbc_wfail(f, ZBC_EXIT_USAGE, "app id '%s' must be a decimal number", app_id);
    struct zbc_addr me;
    char me_text[ZBC_ADDR_TEXT_MAX];
    json_t *app;
    if (!zbc_app_caller(&me, me_text, o, f) || !zbc_app_fetch(&app, o, app_id, f))
        return 0;
    int seat = zbc_app_seat_in(app, me_text);
    struct zbc_game_state *st = malloc(sizeof *st);
    const struct zbc_engine *e = NULL;
    char *text = malloc(8192);
    uint8_t *move = malloc(ZBC_MOVE_WIRE_MAX);
    char *hex = malloc(2 * ZBC_MOVE_WIRE_MAX + 1);
    char *note = malloc(NOTE_MAX);
    int ok = 0;
    if (st == NULL || text == NULL || move == NULL || hex == NULL || note == NULL) {
        zbc_wfail(f, ZBC_EXIT_INTERNAL, "out of memory");
        goto out;
    }
    if (seat < 0) {
        zbc_wfail(f, ZBC_EXIT_REJECTED, "%s holds no seat in app %s", me_text, app_id);
        goto out;
    }
    if (nwords == 1 && strcmp(words[0], "keep-alive") == 0) {
        /* the empty move: a paid keep-alive by the clock holder (docs/protocol-apps.md §2) */
        const char *args[] = {app_id, ""};
        ok = zbc_app_send(result, o, "move", 2, args, NULL, f);
        if (ok)
            json_object_set_new(*result, "_text",
                                json_string("keep-alive sent: the deadline moves move_deadline "
                                            "blocks ahead once it is in a block\n"));
        goto out;
    }
    if (!zbc_app_state(&e, st, app, f))
        goto out;
    size_t n = 0;
    text[0] = '\0';
    note[0] = '\0';
    for (int i = 0; i < nwords; i++) {
        size_t w = strlen(words[i]) + 1;
        if (n + w >= 8192) {
            zbc_wfail(f, ZBC_EXIT_USAGE, "the move text is too long");
            goto out;
        }
        n += (size_t)snprintf(text + n, 8192 - n, "%s%s", i > 0 ? " " : "", words[i]);
    }
    if (!secret_move(text, 8192, note, NOTE_MAX, o, id, me_text, e, st, (uint8_t)seat, nwords,
                     words, f))
        goto out;
    size_t len = 0;
    struct zbc_err err;
    if (!e->parse_move(st, (uint8_t)seat, text, move, ZBC_MOVE_WIRE_MAX, &len, &err)) {
        zbc_wfail_err(f, ZBC_EXIT_USAGE, &err, "move");
        goto out;
    }
    zbc_hex_encode(hex, move, len);
    const char *args[] = {app_id, hex};
    ok = zbc_app_send(result, o, "move", 2, args, NULL, f);
    if (ok) {
        char fmt[256] = "";
        if (!e->format_move(st, move, len, fmt, sizeof fmt))
            snprintf(fmt, sizeof fmt, "%s (%zu bytes)", text[0] != '\0' ? strtok(text, " ") : "move",
                     len);
        json_object_set_new(*result, "app_id", json_string(app_id));
        json_object_set_new(*result, "seat", json_integer(seat));
        json_object_set_new(*result, "from", json_string(me_text));
        json_object_set_new(*result, "move_hex", json_string(hex));
        json_object_set_new(*result, "notation", json_string(fmt));
        if (note[0] != '\0')
            json_object_set_new(*result, "note", json_string(note));
        size_t cap = strlen(note) + 512;
        char *out = malloc(cap);
        if (out != NULL) {
            if (note[0] != '\0')
                snprintf(out, cap, "app %s: seat %d %s%stx %s\n", app_id, seat, note,
                         note[strlen(note) - 1] == '\n' ? "" : "\n",
                         json_string_value(json_object_get(*result, "transaction_hash")));
            else
                snprintf(out, cap, "app %s: seat %d plays %s%s\ntx %s\n", app_id, seat, fmt,
                         e->dice ? " (dice: applied in the next block)" : "",
                         json_string_value(json_object_get(*result, "transaction_hash")));
            json_object_set_new(*result, "_text", json_string(out));
            free(out);
        }
        if (o->wait && e->dice)
            ok = dice_applied(*result, o, app_id, f);
    }
out:
    json_decref(app);
    free(st);
    free(text);
    free(move);
    free(hex);
    free(note);
    return ok;
}
