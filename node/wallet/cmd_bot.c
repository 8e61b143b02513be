/* zbc bot (docs/wallet.md "Bot"): a long-running command that holds a key
 * and plays its seats.  Every half second it reads the node: the active
 * apps in which the key holds a seat (it moves where it holds the clock,
 * and claims a timeout the other seat let pass) and the open apps it may
 * join (its games within --max-stake, and challenges naming it as the
 * designated opponent) until it has joined --max-games.  Moves come from
 * the generic search (apps/search.h) within --move-ms; commit-reveal games
 * go through the wallet's secret-move code (app_move.c); every move is
 * checked with the engine before it is sent.  One line per decision;
 * SIGINT/SIGTERM stop it cleanly with a summary. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "apps/games/battleship.h"
#include "apps/games/rps.h"
#include "apps/search.h"
#include "crypto/bytes.h"
#include "crypto/hex.h"
#include "node/client/reply.h"
#include "node/wallet/amount.h"
#include "node/wallet/app_client.h"
#include "node/wallet/app_move.h"
#include "node/wallet/client.h"
#include "node/wallet/cmds.h"
#include "node/wallet/out.h"

#define BOT_GAMES_MAX 32
#define BOT_APPS_MAX 1024
#define BOT_POLL_MS 500
#define BOT_RESEND_BLOCKS 4  /* a sent move not seen after this many blocks is sent again */
#define BOT_ARGS_MAX 64

static const char bot_usage[] =
    "usage: zbc bot --games G1,G2 [--from NAME] [--max-stake A] [--max-games N]\n"
    "               [--level L] [--move-ms MS]\n"
    "  plays the key's seats: joins open apps of the games named (and challenges naming\n"
    "  the key as opponent) with a stake up to --max-stake (default 0: free games only),\n"
    "  at most --max-games of them (default 10), answers every turn with the search at\n"
    "  --level 0 (random) to 5 (strongest, default) within --move-ms (default 2000),\n"
    "  claims timeouts; stops on Ctrl-C.  Needs --passphrase-file, ZBC_PASSPHRASE or\n"
    "  ZBC_KEY (it signs without asking).  docs/wallet.md \"Bot\".\n";

static volatile sig_atomic_t bot_stop;

static void on_signal(int sig)
{
    (void)sig;
    bot_stop = 1;
}

struct bot_app {
    uint64_t id;
    bool joined;       /* joined by this run (counts towards --max-games) */
    bool ended;
    long long moves;   /* the app's "moves" and "deadline" when we last sent */
    long long deadline;
    long long sent_at; /* tip height then; -1: nothing sent */
    char last_move[2 * ZBC_MOVE_MAX + 1]; /* what we sent last and in which second */
    time_t last_sec;
};

struct bot {
    const struct zbc_opts *o;
    const struct zbc_engine *games[BOT_GAMES_MAX];
    size_t ngames;
    uint64_t max_stake;
    uint64_t max_games;
    uint8_t level;
    uint64_t move_ms;
    char me[ZBC_ADDR_TEXT_MAX];
    FILE *log;
    struct zbc_search_ws *ws;
    struct bot_app apps[BOT_APPS_MAX];
    size_t napps;
    uint64_t joined, moves_sent, claims, won, lost, drawn, other;
    long long height;
};

static void say(struct bot *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct bot *b, const char *fmt, ...)
{
    time_t now = time(NULL);
    struct tm tm;
    char ts[16];
    gmtime_r(&now, &tm);
    strftime(ts, sizeof ts, "%H:%M:%S", &tm);
    fprintf(b->log, "%s bot: ", ts);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(b->log, fmt, ap);
    va_end(ap);
    fputc('\n', b->log);
    fflush(b->log);
}

static struct bot_app *track(struct bot *b, uint64_t id)
{
    for (size_t i = 0; i < b->napps; i++)
        if (b->apps[i].id == id)
            return &b->apps[i];
    if (b->napps == BOT_APPS_MAX)
        return NULL;
    struct bot_app *a = &b->apps[b->napps++];
    memset(a, 0, sizeof *a);
    a->id = id;
    a->sent_at = -1;
    return a;
}

/* ---- options ---- */

static int bot_games(struct bot *b, const char *text, struct zbc_wfail *f)
{
    char buf[512];
    if (strlen(text) >= sizeof buf)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "--games is too long");
    memcpy(buf, text, strlen(text) + 1);
    for (char *save = NULL, *w = strtok_r(buf, ",", &save); w != NULL;
         w = strtok_r(NULL, ",", &save)) {
        const struct zbc_engine *e = zbc_engine_by_name(w);
        if (e == NULL)
            return zbc_wfail(f, ZBC_EXIT_USAGE,
                             "--games: unknown game '%.40s' (zbc-engine list names them)", w);
        if (b->ngames == BOT_GAMES_MAX)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "--games names more than %d games",
                             BOT_GAMES_MAX);
        b->games[b->ngames++] = e;
    }
    if (b->ngames == 0)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "--games names no game (e.g. --games tictactoe,connect4)");
    return 1;
}

static int bot_number(uint64_t *out, const char *opt, const char *v, uint64_t min, uint64_t max,
                      struct zbc_wfail *f)
{
    struct zbc_err err;
    if (!zbc_parse_u64(v, min, max, out, opt, &err))
        return zbc_wfail(f, ZBC_EXIT_USAGE, "%s must be a whole number from %" PRIu64
                         " to %" PRIu64 ", not '%.40s'", opt, min, max, v);
    return 1;
}

/* Takes the bot's own options out of argv (into vals[]) and leaves the
 * wallet's options for zbc_opts_parse. */
static const char *const BOT_OPTS[] = {"--games", "--max-stake", "--max-games", "--level",
                                       "--move-ms"};
#define BOT_NOPTS (sizeof BOT_OPTS / sizeof BOT_OPTS[0])

static int split_args(int argc, char **argv, char **rest, int *nrest, const char *vals[BOT_NOPTS],
                      struct zbc_wfail *f)
{
    if (argc > BOT_ARGS_MAX)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "too many arguments");
    *nrest = 0;
    for (int i = 0; i < argc; i++) {
        size_t k = 0;
        const char *v = NULL;
        for (; k < BOT_NOPTS; k++) {
            size_t n = strlen(BOT_OPTS[k]);
            if (strcmp(argv[i], BOT_OPTS[k]) == 0) {
                if (i + 1 >= argc)
                    return zbc_wfail(f, ZBC_EXIT_USAGE, "%s needs a value", BOT_OPTS[k]);
                v = argv[++i];
                break;
            }
            if (strncmp(argv[i], BOT_OPTS[k], n) == 0 && argv[i][n] == '=') {
                v = argv[i] + n + 1;
                break;
            }
        }
        if (k < BOT_NOPTS)
            vals[k] = v;
        else
            rest[(*nrest)++] = argv[i];
    }
    return 1;
}

static int bot_config(struct bot *b, const char *vals[BOT_NOPTS], struct zbc_wfail *f)
{
    if (vals[0] == NULL)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "zbc bot needs --games G1,G2 (e.g. --games tictactoe)");
    if (!bot_games(b, vals[0], f))
        return 0;
    struct zbc_err err;
    if (vals[1] != NULL && !zbc_amount_parse(&b->max_stake, vals[1], &err))
        return zbc_wfail_err(f, ZBC_EXIT_USAGE, &err, "--max-stake");
    uint64_t v;
    b->max_games = 10;
    if (vals[2] != NULL && !bot_number(&b->max_games, "--max-games", vals[2], 1, 1000000, f))
        return 0;
    b->level = ZBC_SEARCH_LEVEL_MAX;
    if (vals[3] != NULL) {
        if (!bot_number(&v, "--level", vals[3], 0, ZBC_SEARCH_LEVEL_MAX, f))
            return 0;
        b->level = (uint8_t)v;
    }
    b->move_ms = 2000;
    if (vals[4] != NULL && !bot_number(&b->move_ms, "--move-ms", vals[4], 10, 600000, f))
        return 0;
    return 1;
}

/* ---- the node ---- */

static int get(struct bot *b, const char *path, json_t **out, struct zbc_wfail *f)
{
    struct zbc_client api = {b->o->api, b->o->timeout_s, 0};
    if (!zbc_client_call(&api, path, NULL, out, f))
        return 0;
    json_t *h = json_object_get(*out, "height");
    if (json_is_integer(h) && json_integer_value(h) > b->height)
        b->height = json_integer_value(h);
    return 1;
}

/* Every page of an app list (path ends with a query); calls fn on each
 * summary that passes the shape check.  At most 10 pages. */
static int each_app(struct bot *b, const char *path, void (*fn)(struct bot *, json_t *),
                    struct zbc_wfail *f)
{
    char url[512], cursor[96] = "";
    for (int page = 0; page < 10 && !bot_stop; page++) {
        snprintf(url, sizeof url, "%s%s%s", path, cursor[0] ? "&cursor=" : "", cursor);
        json_t *reply, *apps, *a;
        if (!get(b, url, &reply, f))
            return 0;
        struct zbc_err err;
        if (!zbc_reply_array(reply, "apps", "the node's app list", &apps, &err))
            return zbc_client_bad_reply(f, reply, &err);
        size_t i;
        json_array_foreach(apps, i, a) {
            if (zbc_app_check_view(a, NULL, false, &err))
                fn(b, a);
            else
                say(b, "skipping an app summary the node sent: %s", err.msg);
        }
        const char *next = json_string_value(json_object_get(reply, "next_cursor"));
        bool more = next != NULL && strlen(next) < sizeof cursor &&
                    strspn(next, "0123456789-") == strlen(next);
        if (more)
            snprintf(cursor, sizeof cursor, "%s", next);
        json_decref(reply);
        if (!more)
            break;
    }
    return 1;
}

static long long int_or(const json_t *o, const char *key, long long dflt)
{
    json_t *v = json_object_get(o, key);
    return json_is_integer(v) ? json_integer_value(v) : dflt;
}

static uint64_t summary_id(const json_t *a)
{
    uint64_t id = 0;
    const char *s = json_string_value(json_object_get(a, "id"));
    if (s == NULL || !zbc_app_parse_id(&id, s))
        return 0;
    return id;
}

/* ---- moves ---- */

struct clock_budget {
    struct timespec end;
};

static bool out_of_time(void *ctx)
{
    const struct clock_budget *c = ctx;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec > c->end.tv_sec ||
           (now.tv_sec == c->end.tv_sec && now.tv_nsec >= c->end.tv_nsec);
}

static uint32_t os_uniform(void *ctx, uint32_t n)
{
    (void)ctx;
    return randombytes_uniform(n);
}

static void record_sent(struct bot *b, struct bot_app *t, const json_t *app)
{
    if (t == NULL)
        return;
    t->moves = int_or(app, "moves", -1);
    t->deadline = int_or(app, "deadline", -1);
    t->sent_at = b->height;
}

static void nap(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (!bot_stop && nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* A transaction's timestamp is in seconds: the same move in the same app
 * within one second (pig rolls, keep-alives) would be the same transaction
 * as the one before, which the node refuses as a duplicate.  Waits for the
 * next second then. */
static void not_twice_in_a_second(struct bot_app *t, const char *move)
{
    if (t == NULL)
        return;
    while (!bot_stop && time(NULL) <= t->last_sec && strcmp(t->last_move, move) == 0)
        nap(50);
    t->last_sec = time(NULL);
    snprintf(t->last_move, sizeof t->last_move, "%s", move);
}

/* Words through the wallet's move code (secrets of rps and battleship
 * filled in there). */
static void send_words(struct bot *b, struct bot_app *t, const json_t *app, const char *id,
                       const char *game, int n, const char *const *words, const char *why)
{
    json_t *r = NULL;
    struct zbc_wfail f = {0};
    char key[64];
    snprintf(key, sizeof key, "%s %s", words[0], n > 1 ? words[1] : "");
    not_twice_in_a_second(t, key);
    if (zbc_app_move(b->o, id, n, words, &r, &f)) {
        b->moves_sent++;
        record_sent(b, t, app);
        say(b, "app %s (%s): %s%s%s (%s) tx %s", id, game, words[0], n > 1 ? " " : "",
            n > 1 ? words[1] : "", why, json_string_value(json_object_get(r, "transaction_hash")));
    } else {
        say(b, "app %s (%s): %s refused: %s", id, game, words[0], f.err.msg);
        record_sent(b, t, app); /* decided again after a change or a few blocks */
    }
    json_decref(r);
    zbc_wfail_clear(&f);
}

static void keep_alive(struct bot *b, struct bot_app *t, const json_t *app, const char *id,
                       const char *game, const char *why)
{
    long long left = int_or(app, "blocks_left", 0);
    if (left > 2) {
        say(b, "app %s (%s): no move (%s); %lld blocks left, waiting", id, game, why, left);
        if (t != NULL)
            record_sent(b, t, app); /* not again before the next change or a few blocks */
        return;
    }
    const char *words[] = {"keep-alive"};
    send_words(b, t, app, id, game, 1, words, why);
}

/* A move from the search, checked with the engine, sent as hex. */
static void search_move(struct bot *b, struct bot_app *t, const json_t *app, const char *id,
                        const struct zbc_engine *e, const struct zbc_game_state *st, uint8_t seat)
{
    struct clock_budget cb;
    clock_gettime(CLOCK_MONOTONIC, &cb.end);
    cb.end.tv_sec += (time_t)(b->move_ms / 1000);
    cb.end.tv_nsec += (long)(b->move_ms % 1000) * 1000000L;
    if (cb.end.tv_nsec >= 1000000000L) {
        cb.end.tv_sec++;
        cb.end.tv_nsec -= 1000000000L;
    }
    struct zbc_search_limits lim = {.level = b->level,
                                    .max_nodes = b->level == ZBC_SEARCH_LEVEL_MAX ? UINT64_MAX : 0,
                                    .stop = out_of_time,
                                    .stop_ctx = &cb,
                                    .uniform = os_uniform};
    struct zbc_search_out out;
    struct zbc_err err;
    uint8_t seats = (uint8_t)int_or(app, "seats", 2);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (!zbc_search_best(e, st, seats, seat, &lim, b->ws, &out, &err)) {
        keep_alive(b, t, app, id, e->name, err.msg);
        return;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long ms = (long)(t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
    if (!e->check_move(st, seat, out.move.b, out.move.len, &err)) {
        keep_alive(b, t, app, id, e->name, err.msg); /* never send an illegal move */
        return;
    }
    char hex[2 * ZBC_MOVE_MAX + 1], text[128];
    zbc_hex_encode(hex, out.move.b, out.move.len);
    if (!e->format_move(st, out.move.b, out.move.len, text, sizeof text))
        snprintf(text, sizeof text, "%s", hex);
    const char *args[] = {id, hex};
    json_t *r = NULL;
    struct zbc_wfail f = {0};
    not_twice_in_a_second(t, hex);
    if (zbc_app_send(&r, b->o, "move", 2, args, NULL, &f)) {
        b->moves_sent++;
        record_sent(b, t, app);
        say(b, "app %s (%s) seat %u: plays %s (level %u, depth %u%s, %" PRIu64
            " nodes, score %d, %ld ms) tx %s", id, e->name, seat, text, b->level, out.depth,
            out.proven ? " proven" : "", out.nodes, out.score, ms,
            json_string_value(json_object_get(r, "transaction_hash")));
    } else {
        say(b, "app %s (%s): move %s refused: %s", id, e->name, text, f.err.msg);
        record_sent(b, t, app);
    }
    json_decref(r);
    zbc_wfail_clear(&f);
}

/* Whether the app view's "view" (the engine's JSON) has "phase": phase. */
static bool view_phase(const json_t *app, const char *phase)
{
    const char *p = json_string_value(json_object_get(json_object_get(app, "view"), "phase"));
    return p != NULL && strcmp(p, phase) == 0;
}

static void play_turn(struct bot *b, struct bot_app *t, const json_t *app, const char *id,
                      uint8_t seat)
{
    const struct zbc_engine *e;
    struct zbc_game_state *st = malloc(sizeof *st);
    struct zbc_wfail f = {0};
    if (st == NULL || !zbc_app_state(&e, st, app, &f)) {
        say(b, "app %s: cannot read its state: %s", id, st == NULL ? "out of memory" : f.err.msg);
        record_sent(b, t, app);
        zbc_wfail_clear(&f);
        free(st);
        return;
    }
    if (e == &zbc_engine_rps) {
        static const char *const CHOICE[] = {"rock", "paper", "scissors"};
        if (view_phase(app, "commit")) {
            const char *words[] = {"commit", CHOICE[randombytes_uniform(3)]};
            send_words(b, t, app, id, e->name, 2, words, "choice from the OS random source");
        } else if (view_phase(app, "reveal")) {
            const char *words[] = {"reveal"};
            send_words(b, t, app, id, e->name, 1, words, "our commitment");
        } else {
            keep_alive(b, t, app, id, e->name, "rock-paper-scissors view has no phase");
        }
    } else if (e == &zbc_engine_battleship && view_phase(app, "open")) {
        /* the final open (docs/games.md "Battleship"): our shots hit 17 ship
         * cells, the whole board and its salts go out */
        const char *words[] = {"open"};
        send_words(b, t, app, id, e->name, 1, words, "the final open of our board");
    } else if (e == &zbc_engine_battleship && zbc_battleship_pending_cell(st, seat) >= 0) {
        const char *words[] = {"reveal"};
        send_words(b, t, app, id, e->name, 1, words, "a shot at our board");
    } else if (e == &zbc_engine_battleship &&
               e->gen_moves(st, b->ws->ply[0].moves, ZBC_MOVES_MAX) == 0) {
        const char *words[] = {"commit"};
        send_words(b, t, app, id, e->name, 1, words, "a random fleet");
    } else {
        search_move(b, t, app, id, e, st, seat);
    }
    free(st);
}

/* ---- one pass ---- */

static void on_active(struct bot *b, json_t *summary)
{
    uint64_t idn = summary_id(summary);
    const char *id = json_string_value(json_object_get(summary, "id"));
    int seat = zbc_app_seat_in(summary, b->me);
    if (seat < 0 || idn == 0)
        return;
    struct bot_app *t = track(b, idn);
    json_t *clock = json_object_get(summary, "clock");
    bool mine = json_is_integer(clock) && json_integer_value(clock) == seat;
    bool claim = json_is_integer(clock) && !mine &&
                 json_is_true(json_object_get(summary, "timeout_claimable"));
    if (!mine && !claim)
        return;
    if (t != NULL && t->sent_at >= 0 && t->moves == int_or(summary, "moves", -1) &&
        t->deadline == int_or(summary, "deadline", -1) && b->height < t->sent_at + BOT_RESEND_BLOCKS)
        return; /* ours is on its way */
    if (claim) {
        json_t *r = NULL;
        struct zbc_wfail f = {0};
        const char *args[] = {id};
        if (zbc_app_send(&r, b->o, "claim", 1, args, NULL, &f)) {
            b->claims++;
            record_sent(b, t, summary);
            say(b, "app %s: seat %lld let its deadline pass: timeout claimed, tx %s", id,
                json_integer_value(clock), json_string_value(json_object_get(r, "transaction_hash")));
        } else {
            say(b, "app %s: timeout claim refused: %s", id, f.err.msg);
            record_sent(b, t, summary);
        }
        json_decref(r);
        zbc_wfail_clear(&f);
        return;
    }
    json_t *app;
    struct zbc_wfail f = {0};
    if (!zbc_app_fetch(&app, b->o, id, &f)) {
        say(b, "app %s: cannot read it: %s", id, f.err.msg);
        zbc_wfail_clear(&f);
        return;
    }
    play_turn(b, t, app, id, (uint8_t)seat);
    json_decref(app);
}

static bool plays(const struct bot *b, const struct zbc_engine *e)
{
    for (size_t i = 0; i < b->ngames; i++)
        if (b->games[i] == e)
            return true;
    return false;
}

static void on_open(struct bot *b, json_t *a)
{
    if (b->joined >= b->max_games || bot_stop)
        return;
    uint64_t idn = summary_id(a);
    const char *id = json_string_value(json_object_get(a, "id"));
    const char *game = json_string_value(json_object_get(a, "game"));
    const char *opponent = json_string_value(json_object_get(a, "opponent"));
    bool named = opponent != NULL && strcmp(opponent, b->me) == 0;
    if (idn == 0 || json_is_true(json_object_get(a, "solo")) || zbc_app_seat_in(a, b->me) >= 0)
        return;
    if (opponent != NULL && !named)
        return; /* reserved for someone else */
    const struct zbc_engine *e = zbc_engine_by_name(game != NULL ? game : "");
    if (e == NULL || (!named && !plays(b, e)))
        return;
    struct bot_app *t = track(b, idn);
    if (t == NULL || t->sent_at >= 0)
        return; /* tried already */
    t->sent_at = b->height;
    uint64_t stake;
    struct zbc_err err;
    if (!zbc_reply_u64(a, "stake", 0, UINT64_MAX, "the node's app list", &stake, &err)) {
        say(b, "app %s: %s", id, err.msg);
        return;
    }
    char amount[32];
    zbc_amount_format(amount, stake);
    if (stake > b->max_stake) {
        say(b, "app %s (%s): stake %s is above --max-stake, not joining", id, game, amount);
        return;
    }
    json_t *r = NULL;
    struct zbc_wfail f = {0};
    const char *args[] = {id};
    if (zbc_app_send(&r, b->o, "join", 1, args, NULL, &f)) {
        b->joined++;
        t->joined = true;
        say(b, "app %s (%s): joining%s, stake %s (game %" PRIu64 " of %" PRIu64 ") tx %s", id,
            game, named ? " (a challenge naming us)" : "", amount, b->joined, b->max_games,
            json_string_value(json_object_get(r, "transaction_hash")));
    } else {
        say(b, "app %s (%s): join refused: %s", id, game, f.err.msg);
    }
    json_decref(r);
    zbc_wfail_clear(&f);
}

/* The outcome of a finished app for `seat` (docs/api.md §10 "result"). */
static const char *outcome_for(const json_t *result, int seat)
{
    const char *ending = json_string_value(json_object_get(result, "outcome"));
    bool v2 = ending != NULL;
    if (ending == NULL)
        ending = json_string_value(json_object_get(result, "ending"));
    if (ending == NULL)
        return "ended";
    json_t *w = json_object_get(result, "winner");
    if (strcmp(ending, "draw") == 0)
        return "drawn";
    if (strcmp(ending, "win") == 0)
        return json_is_integer(w) && json_integer_value(w) == seat ? "won" : "lost";
    if (strcmp(ending, "resign") == 0 || strcmp(ending, "timeout") == 0) {
        json_t *loser = v2 ? json_object_get(result, strcmp(ending, "resign") == 0 ? "resigned"
                                                                                    : "timed_out")
                           : w; /* a version-1 record names the loser as "winner" */
        return json_is_integer(loser) && json_integer_value(loser) == seat ? "lost" : "won";
    }
    return ending;
}

/* Apps we tracked that are no longer active: read their end once. */
static void settle_ended(struct bot *b, const uint64_t *active, size_t nactive)
{
    for (size_t i = 0; i < b->napps && !bot_stop; i++) {
        struct bot_app *t = &b->apps[i];
        bool is_active = false;
        for (size_t k = 0; k < nactive; k++)
            is_active |= active[k] == t->id;
        if (t->ended || is_active)
            continue;
        char id[24];
        snprintf(id, sizeof id, "%" PRIu64, t->id);
        json_t *app;
        struct zbc_wfail f = {0};
        if (!zbc_app_fetch(&app, b->o, id, &f)) {
            zbc_wfail_clear(&f);
            continue;
        }
        const char *status = json_string_value(json_object_get(app, "status"));
        int seat = zbc_app_seat_in(app, b->me);
        if (status != NULL && seat >= 0 &&
            (strcmp(status, "finished") == 0 || strcmp(status, "abandoned") == 0)) {
            t->ended = true;
            const char *o = outcome_for(json_object_get(app, "result"), seat);
            if (strcmp(o, "won") == 0)
                b->won++;
            else if (strcmp(o, "lost") == 0)
                b->lost++;
            else if (strcmp(o, "drawn") == 0)
                b->drawn++;
            else
                b->other++;
            say(b, "app %s (%s) is %s: %s", id, json_string_value(json_object_get(app, "game")),
                status, o);
        } else if (status != NULL && strcmp(status, "open") == 0 && !t->joined) {
            t->ended = true; /* someone else's open app we did not join */
        } else if (status != NULL && strcmp(status, "open") != 0 && seat < 0) {
            t->ended = true; /* our join came too late: the seat went to someone else */
            if (t->joined) {
                t->joined = false;
                b->joined--;
                say(b, "app %s: the seat went to someone else", id);
            }
        }
        json_decref(app);
    }
}

static uint64_t active_ids[BOT_APPS_MAX];
static size_t n_active;

static void note_active(struct bot *b, json_t *a)
{
    if (n_active < BOT_APPS_MAX)
        active_ids[n_active++] = summary_id(a);
    on_active(b, a);
}

static int pass(struct bot *b, struct zbc_wfail *f)
{
    char path[256];
    n_active = 0;
    snprintf(path, sizeof path, "/api/v1/apps?seat=%s&status=active&limit=100", b->me);
    if (!each_app(b, path, note_active, f))
        return 0;
    if (b->joined < b->max_games &&
        !each_app(b, "/api/v1/apps?status=open&limit=100", on_open, f))
        return 0;
    settle_ended(b, active_ids, n_active);
    return 1;
}

static bool all_done(const struct bot *b)
{
    if (b->joined < b->max_games || n_active > 0)
        return false;
    for (size_t i = 0; i < b->napps; i++)
        if (b->apps[i].joined && !b->apps[i].ended)
            return false;
    return true;
}

static int run(struct bot *b, json_t **result, struct zbc_wfail *f)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    char stake[32];
    zbc_amount_format(stake, b->max_stake);
    say(b, "%s plays %zu game%s at level %u, %" PRIu64 " ms a move, stakes up to %s, "
        "at most %" PRIu64 " games; Ctrl-C stops", b->me, b->ngames, b->ngames == 1 ? "" : "s",
        b->level, b->move_ms, stake, b->max_games);
    int failures = 0;
    char last[sizeof ((struct zbc_err *)0)->msg] = "";
    while (!bot_stop) {
        struct zbc_wfail pf = {0};
        if (pass(b, &pf)) {
            failures = 0;
            last[0] = '\0';
        } else if (failures++ % 20 == 0 || strcmp(last, pf.err.msg) != 0) {
            say(b, "node: %s (retrying)", pf.err.msg);
            snprintf(last, sizeof last, "%s", pf.err.msg);
        }
        zbc_wfail_clear(&pf);
        if (all_done(b)) {
            say(b, "all %" PRIu64 " games played", b->joined);
            break;
        }
        nap(BOT_POLL_MS);
    }
    if (bot_stop)
        say(b, "stopping (signal)");
    json_t *r = json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "address", b->me, "joined",
                          (json_int_t)b->joined, "moves_sent", (json_int_t)b->moves_sent,
                          "claims", (json_int_t)b->claims, "won", (json_int_t)b->won, "lost",
                          (json_int_t)b->lost, "drawn", (json_int_t)b->drawn, "other_endings",
                          (json_int_t)b->other);
    if (r == NULL)
        return zbc_wfail(f, ZBC_EXIT_INTERNAL, "out of memory");
    char text[256];
    snprintf(text, sizeof text,
             "bot %s: joined %" PRIu64 ", moves %" PRIu64 ", won %" PRIu64 ", lost %" PRIu64
             ", drawn %" PRIu64 "\n", b->me, b->joined, b->moves_sent, b->won, b->lost, b->drawn);
    json_object_set_new(r, "_text", json_string(text));
    *result = r;
    return 1;
}

bool zbc_bot_command(int argc, char **argv, int *code)
{
    char *rest[BOT_ARGS_MAX];
    const char *vals[BOT_NOPTS] = {0};
    int nrest = 0;
    struct zbc_opts o;
    struct zbc_wfail f = {0};
    json_t *result = NULL;
    struct bot *b = NULL;
    memset(&o, 0, sizeof o);
    bool named = false;
    for (int i = 1; i < argc; i++)
        named |= strcmp(argv[i], "bot") == 0;
    if (!named)
        return false;
    if (!split_args(argc, argv, rest, &nrest, vals, &f) || !zbc_opts_parse(&o, nrest, rest, &f))
        goto fail;
    if (o.npos < 1 || strcmp(o.pos[0], "bot") != 0)
        return false; /* "bot" was an option's value */
    if (o.help) {
        fputs(bot_usage, o.json ? stderr : stdout);
        *code = o.json ? zbc_out_success(1, json_object()) : 0;
        return true;
    }
    b = calloc(1, sizeof *b);
    if (b == NULL) {
        zbc_wfail(&f, ZBC_EXIT_INTERNAL, "out of memory");
        goto fail;
    }
    if (o.npos != 1) {
        zbc_wfail(&f, ZBC_EXIT_USAGE, "zbc bot takes no arguments besides its options (zbc bot --help)");
        goto fail;
    }
    b->o = &o;
    b->log = o.json ? stderr : stdout;
    if (!bot_config(b, vals, &f))
        goto fail;
    if (o.passphrase_file == NULL && o.passphrase_env == NULL && (o.from != NULL || o.env_key == NULL)) {
        zbc_wfail(&f, ZBC_EXIT_USAGE, "zbc bot signs without asking: give --passphrase-file FILE "
                  "or ZBC_PASSPHRASE (or ZBC_KEY)");
        goto fail;
    }
    struct zbc_addr me;
    if (!zbc_app_caller(&me, b->me, &o, &f))
        goto fail;
    b->ws = malloc(sizeof *b->ws);
    if (b->ws == NULL || sodium_init() < 0) {
        zbc_wfail(&f, ZBC_EXIT_INTERNAL, "out of memory");
        goto fail;
    }
    if (!run(b, &result, &f))
        goto fail;
    free(b->ws);
    free(b);
    *code = zbc_out_success(o.json, result);
    return true;
fail:
    *code = zbc_out_fail(o.json, &f);
    zbc_wfail_clear(&f);
    if (b != NULL)
        free(b->ws);
    free(b);
    return true;
}
