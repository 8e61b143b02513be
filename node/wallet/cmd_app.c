/* zbc app create GAME | move ID NOTATION | show ID | list | claim-timeout
 * ID | watch ID (docs/wallet.md "Apps"): the dispatcher; moves are
 * app_move.c, the watcher app_watch.c.  The raw forms (app create TYPE STAKE SEATS,
 * app move ID HEX with a key argument or --offline, join, resign, claim)
 * stay in cmd_transact.c. */
#include <inttypes.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/games/battleship.h"
#include "apps/games/rps.h"
#include "crypto/bytes.h"
#include "crypto/hex.h"
#include "node/client/reply.h"
#include "node/wallet/amount.h"
#include "node/wallet/app_client.h"
#include "node/wallet/app_move.h"
#include "node/wallet/app_view.h"
#include "node/wallet/client.h"
#include "node/wallet/cmds.h"

#define PARAMS_MAX 8192

/* ---- create ---- */

/* --params: hex bytes, or the game's key=value words, read by the engine
 * (zbc_engine_params_from_text), as zbc-engine takes them. */
static int game_params(uint8_t *out, size_t cap, size_t *len, const struct zbc_engine *e,
                       const char *text, struct zbc_wfail *f)
{
    struct zbc_err err;
    if (!zbc_engine_params_from_text(e, text, out, cap, len, &err))
        return zbc_wfail_err(f, ZBC_EXIT_USAGE, &err, "--params");
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
    uint64_t seats = e->min_seats;
    if (o->seats != NULL) {
        struct zbc_err perr;
        if (!zbc_parse_u64(o->seats, e->min_seats, e->max_seats, &seats, "--seats", &perr))
            return zbc_wfail(f, ZBC_EXIT_USAGE, "%s takes %u to %u seats, not '%s'", e->name,
                             e->min_seats, e->max_seats, o->seats);
    }
    uint8_t params[PARAMS_MAX];
    size_t plen = 0;
    char *phex = NULL;
    json_t *secret = NULL;
    bool battleship = e->secret_params; /* the creator's board commitment */
    struct zbc_addr me;
    char me_text[ZBC_ADDR_TEXT_MAX];
    if (battleship && o->params == NULL && !zbc_app_caller(&me, me_text, o, f))
        return 0;
    if (battleship && o->params == NULL) {
        if (!zbc_app_battleship_secret(&phex, &secret, o, f))
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
    snprintf(se, sizeof se, "%" PRIu64, seats);
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
        snprintf(text, sizeof text, "app %s created: %s, %" PRIu64 " seats, stake %s units\ntx %s\n",
                 json_string_value(json_object_get(*result, "app_id")), e->name, seats, st,
                 json_string_value(json_object_get(*result, "transaction_hash")));
        json_object_set_new(*result, "_text", json_string(text));
    }
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
    char *text = zbc_app_view_text(app, me_text, zbc_app_block_time_ms(o));
    json_t *r = app; /* --json: the API's app object, once (docs/wallet.md "Playing") */
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
        strcmp(sub, "claim-timeout") == 0 || strcmp(sub, "pgn") == 0)
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
        return argc < 3 ? zbc_wfail(f, ZBC_EXIT_USAGE,
                                    "usage: zbc app move ID NOTATION... (e.g. e2e4, fire B7, roll)")
                        : zbc_app_move(o, argv[1], argc - 2, argv + 2, result, f);
    if (strcmp(sub, "show") == 0)
        return app_show(o, argc, argv, result, f);
    if (strcmp(sub, "list") == 0)
        return app_list(o, argc, f, result);
    if (strcmp(sub, "watch") == 0)
        return zbc_app_watch(o, argc, argv, result, f);
    if (strcmp(sub, "pgn") == 0)
        return zbc_cmd_app_pgn(o, argc, argv, result, f);
    if (strcmp(sub, "claim-timeout") == 0) {
        if (argc != 2)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "usage: zbc app claim-timeout ID");
        return zbc_app_send(result, o, "claim", 1, argv + 1, NULL, f);
    }
    return zbc_wfail(f, ZBC_EXIT_USAGE, "unknown app command '%s'", sub);
}
