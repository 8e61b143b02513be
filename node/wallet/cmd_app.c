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
#include "node/wallet/bet.h"
#include "node/wallet/app_move.h"
#include "node/wallet/app_view.h"
#include "node/wallet/battleship_flow.h"
#include "node/wallet/client.h"
#include "node/wallet/cmds.h"
#include "node/wallet/help.h"
#include "node/wallet/names.h"
#include "node/wallet/result_text.h"
#include "node/wallet/textbuf.h"

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

/* "unknown game 'chesss' (did you mean chess?); games: ..." or, for a
 * solo bet's name, where bets are made. */
static int unknown_game(const char *name, struct zbc_wfail *f)
{
    static const char *const bets[] = {"dice",   "coin", "roulette", "limbo",   "plinko",
                                       "keno",   "wheel", "baccarat", "blitz"};
    for (size_t i = 0; i < sizeof bets / sizeof bets[0]; i++)
        if (strcmp(name, bets[i]) == 0)
            return zbc_wfail(f, ZBC_EXIT_USAGE,
                             "%s is a solo bet, not a game: zbc bet %s ... --stake AMOUNT "
                             "(zbc bet --help)", name, name);
    const char *names[64];
    size_t n = 0;
    for (const struct zbc_engine *const *e = zbc_engines(); *e != NULL && n < 64; e++)
        names[n++] = (*e)->name;
    return zbc_fail_unknown(f, "game", name, names, n);
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
        return unknown_game(argv[1], f);
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
    /* battleship: what the params committed (docs/wallet.md "Battleship") */
    char board[1200] = "";
    struct zbc_bs_secret bs;
    if (ok && secret != NULL && zbc_bs_secret_parse(&bs, secret)) {
        int n = snprintf(board, sizeof board, "your board, committed in the params: ");
        zbc_bs_fleet_text(board + n, sizeof board - (size_t)n, bs.is_ship, NULL);
        sodium_memzero(&bs, sizeof bs);
    }
    json_decref(secret);
    if (ok) {
        json_object_set_new(*result, "game", json_string(e->name));
        json_object_set_new(*result, "stake", json_integer((json_int_t)stake));
        char zs[32], text[1600];
        zbc_amount_format(zs, stake);
        json_object_set_new(*result, "stake_zbc", json_string(zs));
        snprintf(text, sizeof text, "app %s created: %s, %" PRIu64 " seats, stake %s\n%stx %s\n",
                 json_string_value(json_object_get(*result, "app_id")), e->name, seats, zs, board,
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
    struct zbc_names nm;
    zbc_names_load(&nm, o);
    /* an Open app's expiry height for the text (the API object stays as is) */
    uint64_t od = 0, block_ms = zbc_app_chain_times(o, &od);
    json_t *view = json_deep_copy(app);
    const char *st = json_string_value(json_object_get(app, "status"));
    if (view != NULL && od != 0 && st != NULL && strcmp(st, "open") == 0 &&
        json_integer_value(json_object_get(app, "seats")) > 1 &&
        json_is_integer(json_object_get(app, "created")))
        json_object_set_new(view, "expires_at",
                            json_integer(json_integer_value(json_object_get(app, "created")) +
                                         (json_int_t)od));
    char *text = zbc_app_view_text(view != NULL ? view : app, me_text, block_ms, &nm);
    json_decref(view);
    zbc_names_free(&nm);
    char *own = zbc_bs_show_own(o, app, me_text); /* battleship: the caller's fleet */
    if (text != NULL && own != NULL) {
        size_t n = strlen(text), m = strlen(own);
        char *both = realloc(text, n + m + 2);
        if (both != NULL) {
            both[n] = '\n';
            memcpy(both + n + 1, own, m + 1);
            text = both;
        }
    }
    free(own);
    char *pic = zbc_bet_show(o, app); /* a catalogue bet: its picture, from the seed */
    if (text != NULL && pic != NULL) {
        size_t n = strlen(text), m = strlen(pic);
        char *both = realloc(text, n + m + 1);
        if (both != NULL) {
            memcpy(both + n, pic, m + 1);
            text = both;
        }
    }
    free(pic);
    json_t *r = app; /* --json: the app object, once */
    if (text != NULL)
        json_object_set_new(r, "_text", json_string(text));
    free(text);
    *result = r;
    return 1;
}

/* A person's short form of an address: "ZBC_L2HLFDOM…EFJA3PEX". */
static void short_addr(char *out, size_t cap, const char *addr)
{
    size_t n = strlen(addr);
    if (n <= 24)
        snprintf(out, cap, "%s", addr);
    else
        snprintf(out, cap, "%.12s…%s", addr, addr + n - 8);
}

/* The outcome of a summary (docs/api.md §10: "outcome" a string, or an
 * object with one; else "ending" once "ended" is set), else "". */
static const char *summary_outcome(const json_t *a)
{
    const json_t *oc = json_object_get(a, "outcome");
    if (json_is_object(oc))
        oc = json_object_get(oc, "outcome");
    const char *s = json_string_value(oc);
    if (s != NULL)
        return s;
    /* a node before the outcome record: its "ending" once the app ended */
    s = json_string_value(json_object_get(a, "ending"));
    return s != NULL && json_is_integer(json_object_get(a, "ended")) ? s : "";
}

/* One app of the list: id, game, state, seats, stake; the players by
 * wallet name where known; the outcome when it ended.  Text from the node
 * is cut to a sane width. */
static void list_entry(struct zbc_textbuf *b, const json_t *a, const char *me,
                       const struct zbc_names *nm)
{
    uint64_t stake = 0;
    struct zbc_err err;
    if (!zbc_reply_u64(a, "stake", 0, UINT64_MAX, "app", &stake, &err))
        stake = 0;
    char zs[32];
    zbc_amount_format(zs, stake);
    const char *oc = summary_outcome(a);
    zbc_textbuf_add(b, "%-20.24s %-10.16s %-9.12s seats %lld/%lld  stake %s  created %lld%s%.40s\n",
                    json_string_value(json_object_get(a, "id")),
                    json_string_value(json_object_get(a, "game")),
                    json_string_value(json_object_get(a, "status")),
                    json_integer_value(json_object_get(a, "seated")),
                    json_integer_value(json_object_get(a, "seats")), zs,
                    json_integer_value(json_object_get(a, "created")),
                    oc[0] ? "  result: " : "", oc);
    json_t *players = json_object_get(a, "players"), *p;
    size_t i;
    if (json_array_size(players) == 0)
        return;
    zbc_textbuf_add(b, "  players:");
    json_array_foreach(players, i, p) {
        const char *addr = json_string_value(json_object_get(p, "address"));
        const char *name = zbc_names_find(nm, addr);
        char sh[48];
        short_addr(sh, sizeof sh, addr);
        zbc_textbuf_add(b, " %s%lld %s%s", i ? "| seat " : "seat ",
                        json_integer_value(json_object_get(p, "seat")), name != NULL ? name : sh,
                        me != NULL && strcmp(addr, me) == 0 ? " (you)" : "");
    }
    zbc_textbuf_add(b, "\n");
}

static int app_list(const struct zbc_opts *o, int argc, struct zbc_wfail *f, json_t **result)
{
    if (argc != 1)
        return zbc_wfail(f, ZBC_EXIT_USAGE,
                         "usage: zbc app list [--mine|--player ADDRESS|NAME] [--open] [--game G] "
                         "[--status S]");
    if (o->mine && o->player != NULL)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "give --mine or --player, not both");
    static const char *const statuses[] = {"open", "active", "finished", "abandoned"};
    const char *status = o->open_only ? "open" : o->status;
    if (status != NULL) {
        bool ok = false;
        for (size_t i = 0; i < 4; i++)
            ok = ok || strcmp(status, statuses[i]) == 0;
        if (!ok)
            return zbc_fail_unknown(f, "status", status, statuses, 4);
    }
    if (o->game != NULL && zbc_engine_by_name(o->game) == NULL)
        return unknown_game(o->game, f);
    /* whose apps: --mine (the signing key), --player ADDRESS|NAME */
    struct zbc_addr who;
    char who_text[ZBC_ADDR_TEXT_MAX] = "", me_text[ZBC_ADDR_TEXT_MAX] = "";
    if (o->mine && !zbc_app_caller(&who, who_text, o, f))
        return 0;
    if (o->player != NULL) {
        if (!zbc_name_resolve(&who, NULL, o, o->player, "--player", f))
            return 0;
        zbc_addr_to_text(who_text, &who);
    }
    struct zbc_addr me;
    struct zbc_wfail quiet = {0};
    if (o->mine)
        snprintf(me_text, sizeof me_text, "%s", who_text);
    else if (!zbc_app_caller(&me, me_text, o, &quiet))
        me_text[0] = '\0';
    zbc_wfail_clear(&quiet);

    char path[400];
    int n = snprintf(path, sizeof path, "/api/v1/apps?limit=100");
    if (status != NULL)
        n += snprintf(path + n, sizeof path - (size_t)n, "&status=%s", status);
    if (o->game != NULL)
        n += snprintf(path + n, sizeof path - (size_t)n, "&type=%s", o->game);
    if (who_text[0] != '\0')
        snprintf(path + n, sizeof path - (size_t)n, "&seat=%s", who_text);
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
    struct zbc_names nm;
    zbc_names_load(&nm, o);
    struct zbc_textbuf b = {0};
    if (json_array_size(apps) == 0)
        /* the filters in the sentence: "no finished chess apps of bob" */
        zbc_textbuf_add(&b, "no%s%s%s%s apps%s%.80s\n", status ? " " : "", status ? status : "",
                        o->game ? " " : "", o->game ? o->game : "",
                        who_text[0] ? " of " : "",
                        who_text[0] ? (o->player ? o->player : "yours") : "");
    json_array_foreach(apps, i, a) {
        list_entry(&b, a, me_text[0] ? me_text : NULL, &nm);
    }
    char *text = zbc_textbuf_take(&b);
    zbc_names_free(&nm);
    /* JSON: the summaries with their stake also in ZBC text */
    json_t *out = json_deep_copy(apps);
    json_array_foreach(out, i, a) {
        uint64_t stake = 0;
        char zs[32];
        if (zbc_reply_u64(a, "stake", 0, UINT64_MAX, "app", &stake, &err)) {
            zbc_amount_format(zs, stake);
            json_object_set_new(a, "stake_zbc", json_string(zs));
        }
    }
    json_t *r = json_object();
    json_object_set_new(r, "apps", out);
    json_object_set(r, "count", json_object_get(reply, "count"));
    if (who_text[0] != '\0')
        json_object_set_new(r, "player", json_string(who_text));
    json_object_set_new(r, "api_response", reply);
    if (text != NULL)
        json_object_set_new(r, "_text", json_string(text));
    free(text);
    *result = r;
    return 1;
}

/* What a resign in a block did, in words (docs/wallet.md "Apps"): from the
 * app after it.  -1 when the app says nothing usable. */
static int resign_text(const json_t *app, const char *id, char *out, size_t cap)
{
    const char *st = json_string_value(json_object_get(app, "status"));
    char stake[32];
    zbc_amount_format(stake, (uint64_t)json_integer_value(json_object_get(app, "stake")));
    int n;
    if (st == NULL)
        return -1;
    if (strcmp(st, "open") == 0)
        n = snprintf(out, cap, "you left app %s: your stake of %s is back; the app stays open "
                     "for the others", id, stake);
    else if (strcmp(st, "abandoned") == 0)
        n = snprintf(out, cap, "you left app %s, the last seat: your stake of %s is back and "
                     "the app is abandoned", id, stake);
    else if (strcmp(st, "active") == 0)
        n = snprintf(out, cap, "you left play in app %s: your seat was already out of play, so "
                     "no money moves and the game goes on", id);
    else {
        char words[512];
        if (zbc_result_text(app, words, sizeof words) < 0)
            return -1;
        n = snprintf(out, cap, "app %s: %s", id, words);
    }
    return n >= 0 && (size_t)n < cap ? n : -1;
}

/* zbc app resign ID: ResignApp; with --wait, what it did (resign_text). */
static int app_resign(const struct zbc_opts *o, const char *id, json_t **result,
                      struct zbc_wfail *f)
{
    const char *args[1] = {id};
    if (!zbc_app_send(result, o, "resign", 1, args, NULL, f))
        return 0;
    json_t *app = NULL;
    struct zbc_wfail quiet = {0};
    char line[700];
    if (o->wait && zbc_app_fetch(&app, o, id, &quiet) &&
        resign_text(app, id, line, sizeof line) >= 0) {
        const char *t = json_string_value(json_object_get(*result, "_text"));
        char text[1200];
        snprintf(text, sizeof text, "%s\n%s", line, t != NULL ? t : "");
        json_object_set_new(*result, "_text", json_string(text));
    }
    json_decref(app);
    zbc_wfail_clear(&quiet);
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
    if (strcmp(sub, "create") == 0) {
        /* raw form: a key argument (seed hex or "-") or a type number */
        if (argc < 2)
            return true;
        const char *w = argv[1];
        bool digits = w[0] != '\0' && strspn(w, "0123456789") == strlen(w);
        return !digits && strcmp(w, "-") != 0 && strlen(w) != 64;
    }
    if (strcmp(sub, "join") == 0 || strcmp(sub, "resign") == 0)
        return argc == 2 && !o->offline; /* the raw form has a key argument */
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
    if (strcmp(sub, "join") == 0)
        return zbc_app_join(o, argv[1], result, f);
    if (strcmp(sub, "resign") == 0)
        return app_resign(o, argv[1], result, f);
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
