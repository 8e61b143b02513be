/* zbc app create GAME | move ID NOTATION | show ID | list | claim-timeout
 * ID (docs/wallet.md "Apps").  The raw forms (app create TYPE STAKE SEATS,
 * app move ID HEX with a key argument or --offline, join, resign, claim)
 * stay in cmd_transact.c. */
#include <inttypes.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/games/battleship.h"
#include "apps/games/rps.h"
#include "crypto/hex.h"
#include "node/client/reply.h"
#include "node/wallet/amount.h"
#include "node/wallet/app_client.h"
#include "node/wallet/app_view.h"
#include "node/wallet/client.h"
#include "node/wallet/cmds.h"

#define PARAMS_MAX 8192

/* ---- create ---- */

/* --params: hex bytes, or k=v words (dots: width=, height=; rps, lines:
 * rounds=), as zbc-engine takes them. */
static int game_params(uint8_t *out, size_t cap, size_t *len, const struct zbc_engine *e,
                       const char *text, struct zbc_wfail *f)
{
    *len = 0;
    if (text == NULL)
        return 1;
    if (strchr(text, '=') == NULL) {
        if (!zbc_hex_decode(out, cap, len, text, strlen(text)))
            return zbc_wfail(f, ZBC_EXIT_USAGE, "--params is neither hex nor k=v words");
        return 1;
    }
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    bool dots = strcmp(e->name, "dots") == 0;
    if (dots) {
        out[0] = out[1] = 4;
        *len = 2;
    }
    for (char *save = NULL, *w = strtok_r(buf, ", ", &save); w != NULL;
         w = strtok_r(NULL, ", ", &save)) {
        char *eq = strchr(w, '=');
        char *end;
        unsigned long v = eq != NULL ? strtoul(eq + 1, &end, 10) : 0;
        if (eq == NULL || eq[1] == '\0' || *end != '\0' || v > 255)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "param '%s' is not k=v with v from 0 to 255", w);
        *eq = '\0';
        if (dots && strcmp(w, "width") == 0) {
            out[0] = (uint8_t)v;
        } else if (dots && strcmp(w, "height") == 0) {
            out[1] = (uint8_t)v;
        } else if ((strcmp(e->name, "rps") == 0 || strcmp(e->name, "lines") == 0) &&
                   strcmp(w, "rounds") == 0) {
            out[0] = (uint8_t)v;
            *len = 1;
        } else {
            return zbc_wfail(f, ZBC_EXIT_USAGE, "%s has no param '%s' (give --params as hex)",
                             e->name, w);
        }
    }
    return 1;
}

/* A random legal fleet (libsodium randombytes): ships of 5, 4, 3, 3, 2. */
static void random_fleet(uint8_t is_ship[ZBC_BATTLESHIP_CELLS])
{
    static const unsigned ships[] = {5, 4, 3, 3, 2};
    for (;;) {
        memset(is_ship, 0, ZBC_BATTLESHIP_CELLS);
        bool ok = true;
        for (size_t s = 0; ok && s < sizeof ships / sizeof ships[0]; s++) {
            unsigned len = ships[s];
            bool placed = false;
            for (int tries = 0; !placed && tries < 1000; tries++) {
                bool horiz = randombytes_uniform(2) == 0;
                unsigned r = randombytes_uniform(horiz ? 10 : 11 - len);
                unsigned c = randombytes_uniform(horiz ? 11 - len : 10);
                bool free_run = true;
                for (unsigned k = 0; k < len; k++)
                    free_run = free_run && !is_ship[(r + (horiz ? 0 : k)) * 10 + c + (horiz ? k : 0)];
                if (!free_run)
                    continue;
                for (unsigned k = 0; k < len; k++)
                    is_ship[(r + (horiz ? 0 : k)) * 10 + c + (horiz ? k : 0)] = 1;
                placed = true;
            }
            ok = placed;
        }
        struct zbc_err err;
        if (ok && zbc_battleship_check_fleet(is_ship, &err))
            return;
    }
}

/* --board "A1,A2,...": the 17 ship cells of a standard fleet. */
static int board_cells(uint8_t is_ship[ZBC_BATTLESHIP_CELLS], const char *text,
                       struct zbc_wfail *f)
{
    char buf[512];
    struct zbc_err err;
    memset(is_ship, 0, ZBC_BATTLESHIP_CELLS);
    snprintf(buf, sizeof buf, "%s", text);
    for (char *save = NULL, *w = strtok_r(buf, ", ", &save); w != NULL;
         w = strtok_r(NULL, ", ", &save)) {
        uint8_t cell;
        if (!zbc_battleship_parse_cell(w, strlen(w), &cell, &err))
            return zbc_wfail_err(f, ZBC_EXIT_USAGE, &err, "--board");
        is_ship[cell] = 1;
    }
    if (!zbc_battleship_check_fleet(is_ship, &err))
        return zbc_wfail_err(f, ZBC_EXIT_USAGE, &err, "--board");
    return 1;
}

/* A battleship board and its salts: the commitment (hex, 6400 chars) and
 * the secret to keep. */
static int battleship_secret(char **commit_hex, json_t **secret, const struct zbc_opts *o,
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

static int app_create(const struct zbc_opts *o, int argc, const char *const *argv,
                      json_t **result, struct zbc_wfail *f)
{
    if (argc != 2)
        return zbc_wfail(f, ZBC_EXIT_USAGE,
                         "usage: zbc app create GAME [--stake AMOUNT] [--seats N] [--params k=v|HEX] "
                         "[--opponent ADDR] [--board CELLS]");
    const struct zbc_engine *e = zbc_engine_by_name(argv[1]);
    if (e == NULL)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "unknown game '%s' (solo bets: zbc bet)", argv[1]);
    uint64_t stake = 0;
    struct zbc_err err;
    if (o->stake != NULL && !zbc_amount_parse(&stake, o->stake, &err))
        return zbc_wfail_err(f, ZBC_EXIT_USAGE, &err, "--stake");
    unsigned long seats = e->min_seats;
    if (o->seats != NULL) {
        char *end;
        seats = strtoul(o->seats, &end, 10);
        if (*end != '\0' || seats < e->min_seats || seats > e->max_seats)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "%s takes %u to %u seats, not '%s'", e->name,
                             e->min_seats, e->max_seats, o->seats);
    }
    uint8_t params[PARAMS_MAX];
    size_t plen = 0;
    char *phex = NULL;
    json_t *secret = NULL;
    bool battleship = strcmp(e->name, "battleship") == 0;
    struct zbc_addr me;
    char me_text[ZBC_ADDR_TEXT_MAX];
    if (battleship && o->params == NULL && !zbc_app_caller(&me, me_text, o, f))
        return 0;
    if (battleship && o->params == NULL) {
        if (!battleship_secret(&phex, &secret, o, f))
            return 0;
    } else {
        if (!game_params(params, sizeof params, &plen, e, o->params, f))
            return 0;
        phex = malloc(2 * plen + 1);
        if (phex == NULL)
            return zbc_wfail(f, ZBC_EXIT_INTERNAL, "out of memory");
        zbc_hex_encode(phex, params, plen);
    }
    char type[8], st[24], se[8];
    snprintf(type, sizeof type, "%u", e->type);
    snprintf(st, sizeof st, "%" PRIu64, stake);
    snprintf(se, sizeof se, "%lu", seats);
    const char *args[] = {type, st, se};
    int ok = zbc_app_send(result, o, "create", 3, args, phex, f);
    free(phex);
    if (ok && secret != NULL) {
        uint64_t id;
        const char *ids = json_string_value(json_object_get(*result, "app_id"));
        ok = ids != NULL && zbc_app_parse_id(&id, ids) &&
             zbc_app_secret_save(o, id, me_text, secret, f);
        if (!ok && f->code == ZBC_EXIT_OK)
            zbc_wfail(f, ZBC_EXIT_INTERNAL, "the node gave no app id to keep the board under");
    }
    json_decref(secret);
    if (ok) {
        json_object_set_new(*result, "game", json_string(e->name));
        char text[256];
        snprintf(text, sizeof text, "app %s created: %s, %lu seats, stake %s units\ntx %s\n",
                 json_string_value(json_object_get(*result, "app_id")), e->name, seats, st,
                 json_string_value(json_object_get(*result, "transaction_hash")));
        json_object_set_new(*result, "_text", json_string(text));
    }
    return ok;
}

/* ---- move ---- */

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

/* Fills in the secret parts of a move text: battleship commit/reveal,
 * rps commit CHOICE / reveal.  text is rewritten in place (cap bytes). */
static int secret_move(char *text, size_t cap, const struct zbc_opts *o, uint64_t id,
                       const char *me, const struct zbc_engine *e, const struct zbc_game_state *st, uint8_t seat,
                       int argc, const char *const *argv, struct zbc_wfail *f)
{
    if (strcmp(e->name, "battleship") == 0) {
        if (argc == 1 && (strcmp(argv[0], "commit") == 0 || strcmp(argv[0], "place") == 0)) {
            char *hex;
            json_t *secret;
            if (!battleship_secret(&hex, &secret, o, f))
                return 0;
            int ok = zbc_app_secret_save(o, id, me, secret, f);
            json_decref(secret);
            if (ok)
                snprintf(text, cap, "commit %s", hex);
            free(hex);
            return ok;
        }
        if (strcmp(argv[0], "reveal") != 0 || (argc != 1 && argc != 3))
            return 1;
        int cell = zbc_battleship_pending_cell(st, seat);
        if (cell < 0)
            return zbc_wfail(f, ZBC_EXIT_REJECTED, "no shot at your board is waiting to be revealed");
        json_t *secret;
        if (!zbc_app_secret_load(o, id, me, &secret, f))
            return 0;
        const char *ships = json_string_value(json_object_get(secret, "is_ship"));
        const char *salts = json_string_value(json_object_get(secret, "salts"));
        if (ships == NULL || salts == NULL || strlen(ships) != 200 || strlen(salts) != 6400) {
            json_decref(secret);
            return zbc_wfail(f, ZBC_EXIT_NOT_FOUND,
                             "no battleship board of app %" PRIu64 " in this wallet", id);
        }
        bool ship = ships[2 * cell + 1] == '1';
        int n = snprintf(text, cap, "reveal %s %.64s", ship ? "ship" : "water", salts + 64 * cell);
        if (argc == 3)
            snprintf(text + n, cap - (size_t)n, " %s %s", argv[1], argv[2]);
        json_decref(secret);
        return 1;
    }
    if (strcmp(e->name, "rps") == 0) {
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
            if (!zbc_app_secret_load(o, id, me, &secret, f))
                return 0;
            const char *salt = json_string_value(json_object_get(secret, "salt"));
            int c = (int)json_integer_value(json_object_get(secret, "choice"));
            if (salt == NULL || c < 1 || c > 3) {
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

static int app_move(const struct zbc_opts *o, int argc, const char *const *argv, json_t **result,
                    struct zbc_wfail *f)
{
    if (argc < 3)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "usage: zbc app move ID NOTATION... (e.g. e2e4, fire B7, roll)");
    uint64_t id;
    if (!zbc_app_parse_id(&id, argv[1]))
        return zbc_wfail(f, ZBC_EXIT_USAGE, "app id '%s' must be a decimal number", argv[1]);
    struct zbc_addr me;
    char me_text[ZBC_ADDR_TEXT_MAX];
    json_t *app;
    if (!zbc_app_caller(&me, me_text, o, f) || !zbc_app_fetch(&app, o, argv[1], f))
        return 0;
    int seat = zbc_app_seat_in(app, me_text);
    struct zbc_game_state *st = malloc(sizeof *st);
    const struct zbc_engine *e = NULL;
    char *text = malloc(8192);
    uint8_t *move = malloc(ZBC_MOVE_WIRE_MAX);
    char *hex = malloc(2 * ZBC_MOVE_WIRE_MAX + 1);
    int ok = 0;
    if (st == NULL || text == NULL || move == NULL || hex == NULL) {
        zbc_wfail(f, ZBC_EXIT_INTERNAL, "out of memory");
        goto out;
    }
    if (seat < 0) {
        zbc_wfail(f, ZBC_EXIT_REJECTED, "%s holds no seat in app %s", me_text, argv[1]);
        goto out;
    }
    if (argc == 3 && strcmp(argv[2], "keep-alive") == 0) {
        /* the empty move: a paid keep-alive by the clock holder (SPEC §4) */
        const char *args[] = {argv[1], ""};
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
    for (int i = 2; i < argc; i++) {
        size_t w = strlen(argv[i]) + 1;
        if (n + w >= 8192) {
            zbc_wfail(f, ZBC_EXIT_USAGE, "the move text is too long");
            goto out;
        }
        n += (size_t)snprintf(text + n, 8192 - n, "%s%s", i > 2 ? " " : "", argv[i]);
    }
    if (!secret_move(text, 8192, o, id, me_text, e, st, (uint8_t)seat, argc - 2, argv + 2, f))
        goto out;
    size_t len = 0;
    struct zbc_err err;
    if (!e->parse_move(st, (uint8_t)seat, text, move, ZBC_MOVE_WIRE_MAX, &len, &err)) {
        zbc_wfail_err(f, ZBC_EXIT_USAGE, &err, "move");
        goto out;
    }
    zbc_hex_encode(hex, move, len);
    const char *args[] = {argv[1], hex};
    ok = zbc_app_send(result, o, "move", 2, args, NULL, f);
    if (ok) {
        char fmt[256] = "";
        if (!e->format_move(st, move, len, fmt, sizeof fmt))
            snprintf(fmt, sizeof fmt, "%zu bytes", len);
        json_object_set_new(*result, "app_id", json_string(argv[1]));
        json_object_set_new(*result, "seat", json_integer(seat));
        json_object_set_new(*result, "move_hex", json_string(hex));
        json_object_set_new(*result, "notation", json_string(fmt));
        char out[512];
        snprintf(out, sizeof out, "app %s: seat %d plays %s%s\ntx %s\n", argv[1], seat, fmt,
                 e->dice ? " (dice: applied in the next block)" : "",
                 json_string_value(json_object_get(*result, "transaction_hash")));
        json_object_set_new(*result, "_text", json_string(out));
    }
out:
    json_decref(app);
    free(st);
    free(text);
    free(move);
    free(hex);
    return ok;
}

/* ---- show, list ---- */

static int app_show(const struct zbc_opts *o, int argc, const char *const *argv, json_t **result,
                    struct zbc_wfail *f)
{
    if (argc != 2)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "usage: zbc app show ID");
    json_t *app;
    if (!zbc_app_fetch(&app, o, argv[1], f))
        return 0;
    struct zbc_addr me;
    char me_text[ZBC_ADDR_TEXT_MAX] = "";
    struct zbc_wfail quiet = {0};
    if (!zbc_app_caller(&me, me_text, o, &quiet))
        me_text[0] = '\0';
    zbc_wfail_clear(&quiet);
    char *text = zbc_app_view_text(app, me_text);
    json_t *r = json_deep_copy(app);
    json_object_set_new(r, "api_response", app);
    if (text != NULL)
        json_object_set_new(r, "_text", json_string(text));
    free(text);
    *result = r;
    return 1;
}

static int app_list(const struct zbc_opts *o, int argc, struct zbc_wfail *f, json_t **result)
{
    if (argc != 1)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "usage: zbc app list [--open] [--game G] [--status S]");
    char path[256];
    int n = snprintf(path, sizeof path, "/api/v1/apps?limit=100");
    const char *status = o->open_only ? "open" : o->status;
    if (status != NULL)
        n += snprintf(path + n, sizeof path - (size_t)n, "&status=%s", status);
    if (o->game != NULL) {
        if (zbc_engine_by_name(o->game) == NULL)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "unknown game '%s'", o->game);
        snprintf(path + n, sizeof path - (size_t)n, "&type=%s", o->game);
    }
    struct zbc_client api = {o->api, o->timeout_s, 0};
    json_t *reply;
    if (!zbc_client_call(&api, path, NULL, &reply, f))
        return 0;
    json_t *apps, *a;
    struct zbc_err err;
    size_t i;
    if (!zbc_reply_array(reply, "apps", "the node's app list", &apps, &err))
        return zbc_client_bad_reply(f, reply, &err);
    json_array_foreach(apps, i, a) {
        if (!zbc_app_check_view(a, NULL, false, &err))
            return zbc_client_bad_reply(f, reply, &err);
    }
    size_t cap = 256 + 200 * json_array_size(apps), len = 0;
    char *text = malloc(cap);
    if (text != NULL) {
        text[0] = '\0';
        if (json_array_size(apps) == 0)
            len += (size_t)snprintf(text + len, cap - len, "no apps\n");
        json_array_foreach(apps, i, a) {
            json_t *stake = json_object_get(a, "stake");
            len += (size_t)snprintf(
                text + len, cap - len, "%-20s %-10s %-9s seats %lld/%lld stake %lld created %lld\n",
                json_string_value(json_object_get(a, "id")),
                json_string_value(json_object_get(a, "game")),
                json_string_value(json_object_get(a, "status")),
                json_integer_value(json_object_get(a, "seated")),
                json_integer_value(json_object_get(a, "seats")), json_integer_value(stake),
                json_integer_value(json_object_get(a, "created")));
        }
    }
    json_t *r = json_object();
    json_object_set(r, "apps", apps);
    json_object_set(r, "count", json_object_get(reply, "count"));
    json_object_set_new(r, "api_response", reply);
    if (text != NULL)
        json_object_set_new(r, "_text", json_string(text));
    free(text);
    *result = r;
    return 1;
}

bool zbc_cmd_app_handles(const struct zbc_opts *o, int argc, const char *const *argv)
{
    if (argc < 1)
        return false;
    const char *sub = argv[0];
    if (strcmp(sub, "show") == 0 || strcmp(sub, "list") == 0 || strcmp(sub, "watch") == 0 ||
        strcmp(sub, "claim-timeout") == 0)
        return true;
    if (strcmp(sub, "create") == 0)
        return argc >= 2 && zbc_engine_by_name(argv[1]) != NULL;
    if (strcmp(sub, "move") == 0) {
        /* raw form: a key argument (seed hex or "-") or --offline */
        bool key = argc >= 2 && (strcmp(argv[1], "-") == 0 || strlen(argv[1]) == 64);
        return !o->offline && !key;
    }
    return false;
}

int zbc_cmd_app(const struct zbc_opts *o, int argc, const char *const *argv, json_t **result,
                struct zbc_wfail *f)
{
    const char *sub = argv[0];
    if (strcmp(sub, "create") == 0)
        return app_create(o, argc, argv, result, f);
    if (strcmp(sub, "move") == 0)
        return app_move(o, argc, argv, result, f);
    if (strcmp(sub, "show") == 0)
        return app_show(o, argc, argv, result, f);
    if (strcmp(sub, "list") == 0)
        return app_list(o, argc, f, result);
    if (strcmp(sub, "watch") == 0)
        return zbc_app_watch(o, argc, argv, result, f);
    if (strcmp(sub, "claim-timeout") == 0) {
        if (argc != 2)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "usage: zbc app claim-timeout ID");
        return zbc_app_send(result, o, "claim", 1, argv + 1, NULL, f);
    }
    return zbc_wfail(f, ZBC_EXIT_USAGE, "unknown app command '%s'", sub);
}
