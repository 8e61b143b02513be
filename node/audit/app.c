/* zbc-audit app ID: one app's full history, rebuilt by the auditor from
 * a complete replay (replay.c) and checked step by step with its own
 * derivations (docs/audit.md "zbc-audit app"):
 *   - the first-seat draw: height J + 2, first = LE64(H("ZBC-TURN" ||
 *     seed(J+2) || id LE8)[0..8]) mod seats, computed here with SHA3;
 *   - every dice roll: the bytes H("ZBC-DICE" || seed(N+1) || move tx
 *     hash || counter u32 LE), counter 0, 1, ..., computed here, equal to
 *     the bytes the event says the move used, applied at N + 1;
 *   - every move replayed on the auditor's own engine state (notation by
 *     the engine's format_move), its final state equal to the app record;
 *   - solo bets: server seed = hex(seed(N+1)), client seed, nonce = id,
 *     u = first 4 bytes (big-endian) of HMAC-SHA256(server seed,
 *     "client:nonce:0"), computed here; outcome by the published rule
 *     (zbc_bet_outcome), equal to the settle event; a catalogue bet's
 *     every step (plinko rows, keno draws, cards, wheel segment) from its
 *     floats, one "bet-step" line each, and its event as data;
 *   - multi-step solo games (mines): the escrow = floor(stake x maximum /
 *     10000) - stake; every drawing step replayed on the float stream of
 *     server seed = hex(seed of the block that applied it), the params'
 *     client seed, nonce = id, one block after it was sent; the
 *     settlement: floor(stake x the auditor's value / 10000) to the
 *     player, no rake, the rest of the pot to the fund;
 *   - payouts: rake = floor(pot x rake_bps / 10000) on win / resign /
 *     timeout, none on a draw, a bet or an expiry; payouts + rake = money
 *     paid in; each seat's payout by the rule (win: pot - rake to the
 *     winner; draw and expiry: every seated stake back; resign / timeout:
 *     pot - rake split among the seats other than the loser and the seats
 *     out of play on the auditor's board, remainder to the first); the
 *     end event names the one receiving seat as winner, never the loser.
 *   - crash rounds: each entry's stake and target from its transaction
 *     (the AppMove's bytes, or the CreateApp's stake and params), the
 *     crash point floor(99 x 2^32 / (u + 256)) from seed(close + 1) with
 *     u computed here, each entry's return, the pot back to the fund;
 * Then the node's own view: the stored app record and history (datadir:
 * compared entry by entry with the replayed state) or GET
 * /api/v1/apps/<id> (peer). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "apps/app.h"
#include "apps/crash.h"
#include "apps/engine.h"
#include "apps/fair.h"
#include "consensus/apps_apply.h"
#include "crypto/bytes.h"
#include "crypto/hash.h"
#include "crypto/hex.h"
#include "node/audit/cli.h"
#include "node/client/bet_pictures.h"
#include "node/zbcd/json_util.h"
#include "node/client/http.h"

struct app_tx {
    uint32_t height;
    uint8_t hash[32];
    uint16_t move_len;
    uint8_t move[ZBC_MOVE_WIRE_MAX];
};

struct app_ev {
    uint32_t height;
    struct zbc_event e;
};

struct collect {
    uint64_t id;
    bool created;
    uint32_t create_height;
    uint8_t create_hash[32];
    uint8_t type, seats;
    uint64_t stake;
    uint16_t params_len;
    uint8_t params[ZBC_APP_PARAMS_MAX];
    bool has_opponent;
    struct zbc_addr opponent, creator;
    struct app_tx *tx;   /* AppMove transactions of this app */
    size_t ntx, captx;
    struct app_ev *ev;   /* every event with ref == id */
    size_t nev, capev;
    bool oom;
};

static void on_block(void *arg, uint32_t height, const struct zbc_block *b,
                     const struct zbc_checked_block *cb,
                     const struct zbc_events *ev)
{
    struct collect *c = arg;
    for (uint32_t i = 0; i < b->n_tx; i++) {
        const struct zbc_checked_tx *ct = &cb->txs[i];
        if (ct->body.type < ZBC_TX_APP_CREATE ||
            zbc_apps_tx_app_id(ct) != c->id)
            continue;
        if (ct->body.type == ZBC_TX_APP_CREATE && !c->created) {
            const struct zbc_body_app_create *k = &ct->body.u.create;
            c->created = true;
            c->create_height = height;
            memcpy(c->create_hash, ct->hash, 32);
            c->type = k->app_type;
            c->seats = k->seats;
            c->stake = k->stake;
            c->params_len = k->params_len;
            memcpy(c->params, k->params, k->params_len);
            c->has_opponent = k->has_opponent;
            c->opponent = k->opponent;
            c->creator = ct->tx.sender;
        }
        if (ct->body.type != ZBC_TX_APP_MOVE)
            continue;
        if (c->ntx == c->captx) {
            size_t cap = c->captx ? 2 * c->captx : 16;
            struct app_tx *t = realloc(c->tx, cap * sizeof *t);
            if (t == NULL) {
                c->oom = true;
                return;
            }
            c->tx = t;
            c->captx = cap;
        }
        struct app_tx *t = &c->tx[c->ntx++];
        t->height = height;
        memcpy(t->hash, ct->hash, 32);
        t->move_len = ct->body.u.move.move_len;
        memcpy(t->move, ct->body.u.move.move, t->move_len);
    }
    for (size_t i = 0; i < ev->n; i++) {
        if (ev->e[i].ref != c->id || (ev->e[i].kind < ZBC_EVENT_APP_CREATE &&
                                      ev->e[i].kind != ZBC_EVENT_NOOP))
            continue;
        if (c->nev == c->capev) {
            size_t cap = c->capev ? 2 * c->capev : 32;
            struct app_ev *e = realloc(c->ev, cap * sizeof *e);
            if (e == NULL) {
                c->oom = true;
                return;
            }
            c->ev = e;
            c->capev = cap;
        }
        c->ev[c->nev].height = height;
        c->ev[c->nev].e = ev->e[i];
        c->nev++;
    }
}

/* ---- the auditor's own derivations ---- */

/* H("ZBC-TURN" || seed || id LE8) and the seat it draws. */
static uint8_t first_seat(uint8_t digest[32], const uint8_t seed[32],
                          uint64_t id, uint8_t seats)
{
    uint8_t buf[8 + 32 + 8];
    memcpy(buf, "ZBC-TURN", 8);
    memcpy(buf + 8, seed, 32);
    zbc_put_le64(buf + 40, id);
    zbc_sha3_256(digest, buf, sizeof buf);
    return (uint8_t)(zbc_get_le64(digest) % seats);
}

/* The first n bytes of H("ZBC-DICE" || seed || tag || counter u32 LE). */
static void dice_bytes(uint8_t *out, size_t n, const uint8_t seed[32],
                       const uint8_t *tag, size_t tag_len)
{
    uint8_t buf[8 + 32 + 32 + 4], blk[32];
    for (uint32_t ctr = 0; (size_t)ctr * 32 < n; ctr++) {
        size_t p = 0;
        memcpy(buf, "ZBC-DICE", 8);
        p = 8;
        memcpy(buf + p, seed, 32);
        p += 32;
        memcpy(buf + p, tag, tag_len);
        p += tag_len;
        zbc_put_le32(buf + p, ctr);
        p += 4;
        zbc_sha3_256(blk, buf, p);
        size_t k = n - (size_t)ctr * 32 < 32 ? n - (size_t)ctr * 32 : 32;
        memcpy(out + (size_t)ctr * 32, blk, k);
    }
}

/* u = BE32(HMAC-SHA256(server_seed, client ":" nonce ":0")[0..4]). */
static uint32_t bet_u(const char server[65], const char *client, uint64_t id)
{
    char msg[ZBC_CLIENT_SEED_MAX + 48];
    int n = snprintf(msg, sizeof msg, "%s:%" PRIu64 ":0", client, id);
    uint8_t mac[32];
    zbc_hmac_sha256(mac, server, 64, msg, (size_t)n);
    return zbc_get_be32(mac);
}

/* ---- output ---- */

struct out {
    const struct zbc_audit_opts *o;
    json_t *lines;                /* JSON: the history entries */
    struct zbc_audit_report *r;
};

static void hist(struct out *w, uint32_t height, const char *kind,
                 json_t *extra, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void hist(struct out *w, uint32_t height, const char *kind,
                 json_t *extra, const char *fmt, ...)
{
    char text[1600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (!w->o->json) {
        printf("  %8u  %-9s %s\n", height, kind, text);
        json_decref(extra);
        return;
    }
    json_t *e = json_pack("{s:I,s:s,s:s}", "height", (json_int_t)height,
                          "kind", kind, "text", text);
    if (e != NULL && extra != NULL)
        json_object_update(e, extra);
    json_decref(extra);
    if (e != NULL)
        json_array_append_new(w->lines, e);
}

static const char *addr_text(char buf[ZBC_ADDR_TEXT_MAX],
                             const struct zbc_addr *a)
{
    zbc_addr_to_text(buf, a);
    return buf;
}

/* The auditor's game. */
struct game {
    const struct zbc_engine *eng;
    bool started;
    struct zbc_game_state st;
    uint32_t joined;          /* J */
    uint64_t paid_in;         /* stakes + escrow - refunds */
    uint64_t paid_out;        /* payouts + rake */
    uint64_t rake;
    bool raked;
    unsigned seated;                   /* seats taken now */
    uint64_t paid_seat[ZBC_SEATS_MAX]; /* payout events per seat */
    uint64_t added;           /* stakes solo moves added (blackjack) */
    uint32_t pend_height;     /* N of the pending move */
    uint8_t pend_hash[32];
    bool has_pend;
};

static const struct app_tx *find_tx(const struct collect *c,
                                    const uint8_t hash[32])
{
    for (size_t i = 0; i < c->ntx; i++)
        if (memcmp(c->tx[i].hash, hash, 32) == 0)
            return &c->tx[i];
    return NULL;
}

static void notation(const struct game *g, const uint8_t *m, size_t len,
                     char *out, size_t cap)
{
    if (g->eng == NULL || !g->started ||
        !g->eng->format_move(&g->st, m, len, out, cap)) {
        char hx[2 * 64 + 1];
        size_t n = len < 64 ? len : 64;
        zbc_hex_encode(hx, m, n);
        snprintf(out, cap, "bytes %s%s", hx, n < len ? "..." : "");
    }
}

static void do_activate(struct out *w, struct game *g,
                        const struct collect *c, const struct app_ev *x,
                        const uint8_t (*seeds)[32])
{
    const struct zbc_event *e = &x->e;
    struct zbc_err err;
    char hx[65];
    if (g->eng == NULL)
        return;
    if (!g->eng->draws_first) {
        hist(w, x->height, "activate", json_pack("{s:i}", "first", e->seat),
             "all seats taken; %s fixes its own opening (no draw): seat %u "
             "moves first, deadline %" PRIu64, g->eng->name, e->seat,
             e->amount);
        g->started = g->eng->init(&g->st, c->seats, c->params, c->params_len,
                                  0, NULL, &err);
        return;
    }
    uint32_t h = x->height;
    if (h != g->joined + 2)
        zbc_audit_add(w->r, h, ZBC_AUDIT_APP, NULL, NULL,
                      "app %" PRIu64 ": first seat drawn at height %u, not "
                      "J + 2 = %u", c->id, h, g->joined + 2);
    uint8_t digest[32];
    uint8_t first = first_seat(digest, seeds[h], c->id, c->seats);
    char seed_hex[65];
    zbc_hex_encode(seed_hex, seeds[h], 32);
    zbc_hex_encode(hx, digest, 32);
    if (first != e->seat) {
        char want[8], got[8];
        snprintf(want, sizeof want, "%u", first);
        snprintf(got, sizeof got, "%u", e->seat);
        zbc_audit_add(w->r, h, ZBC_AUDIT_APP, want, got,
                      "app %" PRIu64 ": the first seat is not the draw",
                      c->id);
    }
    hist(w, h, "activate",
         json_pack("{s:s,s:s,s:i,s:i}", "seed", seed_hex, "turn_hash", hx,
                   "first", first, "node_first", e->seat),
         "first seat drawn at J+2 = %u: seed(%u) = %s; H(\"ZBC-TURN\" || "
         "seed || id LE8) = %s; LE64 mod %u = seat %u (%s); deadline %"
         PRIu64, h, h, seed_hex, hx, c->seats, first,
         first == e->seat ? "matches" : "DIFFERS from the node", e->amount);
    struct zbc_roll rolls;
    uint8_t tag[8];
    zbc_put_le64(tag, c->id);
    zbc_roll_init(&rolls, seeds[h], tag, 8);
    g->started = g->eng->init(&g->st, c->seats, c->params, c->params_len,
                              first, g->eng->start_rolls ? &rolls : NULL,
                              &err);
    if (!g->started) {
        hist(w, h, "activate", NULL, "the start position does not build: %s",
             err.msg);
        return;
    }
    if (!g->eng->start_rolls)
        return;
    /* the start position's rolls: tag = the app id, 8 LE bytes */
    uint32_t used = e->data_len >= 4 ? zbc_get_le32(e->data) : 0;
    size_t shown = e->data_len >= 4 ? e->data_len - 4u : 0;
    uint8_t mine[ZBC_EVENT_DATA_MAX];
    size_t n = rolls.used < sizeof mine ? (size_t)rolls.used : sizeof mine;
    dice_bytes(mine, n, seeds[h], tag, 8);
    bool same = rolls.used == used && shown <= n &&
                memcmp(mine, e->data + 4, shown) == 0;
    char want[2 * ZBC_EVENT_DATA_MAX + 1], got[2 * ZBC_EVENT_DATA_MAX + 1];
    zbc_hex_encode(want, mine, n);
    zbc_hex_encode(got, e->data + 4, shown);
    if (!same)
        zbc_audit_add(w->r, h, ZBC_AUDIT_APP, want, got,
                      "app %" PRIu64 ": the start position's roll bytes (%"
                      PRIu64 " drawn here, %u by the node) differ", c->id,
                      rolls.used, used);
    hist(w, h, "start",
         json_pack("{s:s,s:I,s:s}", "seed", seed_hex, "roll_bytes_used",
                   (json_int_t)rolls.used, "roll_bytes", want),
         "start position from H(\"ZBC-DICE\" || seed(%u) || id LE8 || "
         "counter); %" PRIu64 " byte(s) drawn: %s (%s)", h, rolls.used, want,
         same ? "matches the node" : "DIFFERS from the node");
}

/* A step of a multi-step solo game: a drawing step one block after it
 * was sent, on the float stream of that block's seed; a cash-out at once. */
static void do_solo_move(struct out *w, struct game *g, const struct collect *c,
                         const struct app_ev *x, const struct app_tx *t,
                         const uint8_t (*seeds)[32], const char *nota)
{
    const struct zbc_event *e = &x->e;
    const struct zbc_solo_ops *so = g->eng->solo;
    uint32_t h = x->height;
    struct app_tx clock; /* a move the node played at the clock */
    if (t == NULL) {
        memset(&clock, 0, sizeof clock);
        clock.height = h;
        clock.move_len = 1;
        clock.move[0] = so->clock_move;
        t = &clock;
        if (so->clock_move == 0 || strcmp(e->reason, "clock") != 0 ||
            e->tx_index != ZBC_EVENT_NO_TX) {
            zbc_audit_add(w->r, h, ZBC_AUDIT_APP, NULL, NULL,
                          "app %" PRIu64 ": a step names no move of this app",
                          c->id);
            return;
        }
    }
    struct zbc_err err;
    char txh[65], seed_hex[65], client[ZBC_ROLL_CLIENT_MAX + 1];
    zbc_hex_encode(txh, e->tx_hash, 32);
    zbc_hex_encode(seed_hex, seeds[h], 32);
    bool draws = so->move_draws(t->move, t->move_len);
    if (t == &clock)
        g->has_pend = true, g->pend_height = h - 1,
        memcpy(g->pend_hash, e->tx_hash, 32); /* the clock draws in its block */
    if (draws && (!g->has_pend || memcmp(g->pend_hash, e->tx_hash, 32) != 0 ||
                  h != g->pend_height + 1))
        zbc_audit_add(w->r, h, ZBC_AUDIT_APP, NULL, NULL,
                      "app %" PRIu64 ": step %.16s... is resolved at height "
                      "%u, not the block after it was included", c->id, txh,
                      h);
    if (!draws && t->height != h)
        zbc_audit_add(w->r, h, ZBC_AUDIT_APP, NULL, NULL,
                      "app %" PRIu64 ": cash-out %.16s... applied at height "
                      "%u, not in its own block %u", c->id, txh, h,
                      t->height);
    g->has_pend = false;
    so->client_seed(c->params, c->params_len, client);
    struct zbc_roll rolls;
    zbc_roll_init_fair(&rolls, seeds[h], client, c->id);
    if (!g->eng->apply_move(&g->st, 0, t->move, t->move_len,
                            draws ? &rolls : NULL, &err))
        zbc_audit_add(w->r, h, ZBC_AUDIT_APP, NULL, NULL,
                      "app %" PRIu64 ": the auditor's engine refuses step "
                      "%s: %s", c->id, nota, err.msg);
    uint64_t v = so->value(&g->st);
    if (draws)
        hist(w, h, "move",
             json_pack("{s:s,s:s,s:s,s:s,s:I}", "move", nota, "tx_hash", txh,
                       "server_seed", seed_hex, "client_seed", client,
                       "nonce", (json_int_t)c->id),
             "step %s resolved with the float stream HMAC_SHA256(server "
             "seed = seed(%u) = %s, \"%s:%" PRIu64 ":round\"): value now "
             "%" PRIu64 ".%04" PRIu64 "x", nota, h, seed_hex, client, c->id,
             v / 10000, v % 10000);
    else
        hist(w, h, "move", json_pack("{s:s,s:s}", "move", nota, "tx_hash",
                                     txh),
             "%s applied at once: value %" PRIu64 ".%04" PRIu64 "x", nota,
             v / 10000, v % 10000);
}

/* The settlement of a multi-step solo game against the auditor's value. */
static void check_solo_end(struct out *w, const struct game *g,
                           const struct collect *c, const struct app_ev *x)
{
    const struct zbc_solo_ops *so = g->eng->solo;
    uint64_t max = so->max_multiplier(c->params, c->params_len);
    unsigned __int128 r = (unsigned __int128)c->stake * max / 10000u;
    uint64_t escrow = r > c->stake ? (uint64_t)r - c->stake : 0;
    uint64_t want = (uint64_t)((unsigned __int128)c->stake *
                               so->value(&g->st) / 10000u);
    char ws[40], gs[40];
    if (g->paid_in != c->stake + escrow + g->added) {
        snprintf(ws, sizeof ws, "%" PRIu64, c->stake + escrow + g->added);
        snprintf(gs, sizeof gs, "%" PRIu64, g->paid_in);
        zbc_audit_add(w->r, x->height, ZBC_AUDIT_APP, ws, gs,
                      "app %" PRIu64 ": the pot is not the stake and the "
                      "escrow of the maximum return", c->id);
    }
    if (g->paid_seat[0] != want) {
        snprintf(ws, sizeof ws, "%" PRIu64, want);
        snprintf(gs, sizeof gs, "%" PRIu64, g->paid_seat[0]);
        zbc_audit_add(w->r, x->height, ZBC_AUDIT_APP, ws, gs,
                      "app %" PRIu64 ": the player was paid other than "
                      "floor(stake x value / 10000)", c->id);
    }
    hist(w, x->height, "settle", json_pack("{s:I,s:I}", "escrow",
                                           (json_int_t)escrow, "player",
                                           (json_int_t)want),
         "escrow %" PRIu64 " = floor(%" PRIu64 " x %" PRIu64 " / 10000) - "
         "stake; the player gets %" PRIu64 ", the fund the rest", escrow,
         c->stake, max, want);
}

static void do_move(struct out *w, struct game *g, const struct collect *c,
                    const struct app_ev *x, const uint8_t (*seeds)[32])
{
    const struct zbc_event *e = &x->e;
    const struct app_tx *t = find_tx(c, e->tx_hash);
    char acc[ZBC_ADDR_TEXT_MAX], txh[65], nota[200];
    zbc_hex_encode(txh, e->tx_hash, 32);
    if (t == NULL && g->eng != NULL && g->eng->solo != NULL && g->started) {
        snprintf(nota, sizeof nota, "(the clock's move)");
        do_solo_move(w, g, c, x, NULL, seeds, nota);
        return;
    }
    if (t == NULL) {
        zbc_audit_add(w->r, x->height, ZBC_AUDIT_APP, NULL, txh,
                      "app %" PRIu64 ": a move event names a transaction "
                      "that is no move of this app", c->id);
        return;
    }
    notation(g, t->move, t->move_len, nota, sizeof nota);
    struct zbc_err err;
    if (g->eng == NULL || !g->started)
        return;
    if (g->eng->solo != NULL) {
        do_solo_move(w, g, c, x, t, seeds, nota);
        return;
    }
    if (!g->eng->dice) {
        if (!g->eng->apply_move(&g->st, e->seat, t->move, t->move_len, NULL,
                                &err))
            zbc_audit_add(w->r, x->height, ZBC_AUDIT_APP, NULL, NULL,
                          "app %" PRIu64 ": the auditor's engine refuses "
                          "move %s: %s", c->id, nota, err.msg);
        hist(w, x->height, "move",
             json_pack("{s:i,s:s,s:s}", "seat", e->seat, "move", nota,
                       "tx_hash", txh),
             "seat %u (%s) plays %s (tx %.16s...); deadline %" PRIu64,
             e->seat, addr_text(acc, &e->a), nota, txh, e->amount);
        return;
    }
    uint32_t h = x->height;
    if (!g->has_pend || memcmp(g->pend_hash, e->tx_hash, 32) != 0 ||
        h != g->pend_height + 1)
        zbc_audit_add(w->r, h, ZBC_AUDIT_APP, NULL, NULL,
                      "app %" PRIu64 ": dice move %.16s... is applied at "
                      "height %u, not the block after it was included",
                      c->id, txh, h);
    g->has_pend = false;
    uint32_t used = e->data_len >= 4 ? zbc_get_le32(e->data) : 0;
    size_t shown = e->data_len >= 4 ? e->data_len - 4u : 0;
    struct zbc_roll rolls;
    zbc_roll_init(&rolls, seeds[h], e->tx_hash, 32);
    if (!g->eng->apply_move(&g->st, e->seat, t->move, t->move_len, &rolls,
                            &err))
        zbc_audit_add(w->r, h, ZBC_AUDIT_APP, NULL, NULL,
                      "app %" PRIu64 ": the auditor's engine refuses move "
                      "%s: %s", c->id, nota, err.msg);
    uint8_t mine[ZBC_EVENT_DATA_MAX];
    size_t n = rolls.used < sizeof mine ? (size_t)rolls.used : sizeof mine;
    dice_bytes(mine, n, seeds[h], e->tx_hash, 32);
    char want[2 * ZBC_EVENT_DATA_MAX + 1], got[2 * ZBC_EVENT_DATA_MAX + 1];
    zbc_hex_encode(want, mine, n < shown ? n : shown);
    zbc_hex_encode(got, e->data + 4, shown);
    if (rolls.used != used || shown > n ||
        memcmp(mine, e->data + 4, shown) != 0)
        zbc_audit_add(w->r, h, ZBC_AUDIT_APP, want, got,
                      "app %" PRIu64 ": the roll bytes of move %.16s... "
                      "(%" PRIu64 " drawn here, %u by the node) differ",
                      c->id, txh, rolls.used, used);
    char seed_hex[65];
    zbc_hex_encode(seed_hex, seeds[h], 32);
    zbc_hex_encode(want, mine, n);
    hist(w, h, "move",
         json_pack("{s:i,s:s,s:s,s:s,s:I,s:s}", "seat", e->seat, "move",
                   nota, "tx_hash", txh, "seed", seed_hex, "roll_bytes_used",
                   (json_int_t)rolls.used, "roll_bytes", want),
         "pending move of seat %u applied: %s; rolls = H(\"ZBC-DICE\" || "
         "seed(%u) = %s || tx %s || counter 0..%u); %" PRIu64 " byte(s) "
         "drawn: %s (%s); deadline %" PRIu64, e->seat, nota, h, seed_hex,
         txh, rolls.used > 0 ? (unsigned)((rolls.used - 1) / 32) : 0,
         rolls.used, want,
         rolls.used == used && memcmp(mine, e->data + 4, shown) == 0
             ? "matches the node"
             : "DIFFERS from the node",
         e->amount);
}

/* One step of a catalogue bet's event, as its own history line "bet-step". */
struct bet_steps {
    struct out *w;
    uint32_t height;
    unsigned n;
};

static void bet_step(void *ctx, const char *line)
{
    struct bet_steps *s = ctx;
    hist(s->w, s->height, "bet-step", json_pack("{s:I}", "step", (json_int_t)s->n++), "%s",
         line);
}

static void do_bet(struct out *w, const struct collect *c,
                   const struct app_ev *x, const uint8_t (*seeds)[32])
{
    const struct zbc_event *e = &x->e;
    uint32_t h = x->height;
    struct zbc_bet bet;
    struct zbc_bet_outcome out;
    struct zbc_err err;
    if (h != c->create_height + 1)
        zbc_audit_add(w->r, h, ZBC_AUDIT_APP, NULL, NULL,
                      "app %" PRIu64 ": bet settled at height %u, not N + 1 "
                      "= %u", c->id, h, c->create_height + 1);
    if (!zbc_bet_parse(&bet, c->type, c->params, c->params_len, &err)) {
        zbc_audit_add(w->r, h, ZBC_AUDIT_APP, NULL, NULL,
                      "app %" PRIu64 ": bet params do not parse: %s", c->id,
                      err.msg);
        return;
    }
    char server[65];
    zbc_hex_encode(server, seeds[h], 32);
    uint32_t u = bet_u(server, bet.client_seed, c->id);
    if (!zbc_bet_resolve(&bet, c->stake, server, c->id, &out, &err)) {
        zbc_audit_add(w->r, h, ZBC_AUDIT_APP, NULL, NULL,
                      "app %" PRIu64 ": bet outcome fails: %s", c->id,
                      err.msg);
        return;
    }
    uint32_t nu = e->data_len >= 9 ? zbc_get_le32(e->data) : 0;
    uint32_t nv = e->data_len >= 9 ? zbc_get_le32(e->data + 4) : 0;
    bool nwin = e->data_len >= 9 && e->data[8] != 0;
    char want[120], got[120];
    snprintf(want, sizeof want, "u %u value %u %s returns %" PRIu64, out.u,
             out.value, out.win ? "win" : "loss", out.returns);
    snprintf(got, sizeof got, "u %u value %u %s returns %" PRIu64, nu, nv,
             nwin ? "win" : "loss", e->amount);
    bool same = strcmp(want, got) == 0;
    if (!same)
        zbc_audit_add(w->r, h, ZBC_AUDIT_APP, want, got,
                      "app %" PRIu64 ": the bet outcome differs from the "
                      "provably-fair computation", c->id);
    char fl[32];
    snprintf(fl, sizeof fl, "%.10f", (double)u / 4294967296.0);
    json_t *extra = json_pack("{s:s,s:s,s:I,s:i,s:I,s:s,s:I,s:b,s:I}", "server_seed",
                              server, "client_seed", bet.client_seed, "nonce",
                              (json_int_t)c->id, "round", 0, "u", (json_int_t)u,
                              "float", fl, "value", (json_int_t)out.value, "win",
                              out.win, "returns", (json_int_t)out.returns);
    json_t *event = zbc_bet_event_json(&bet, &out); /* NULL: dice … limbo */
    if (extra != NULL && event != NULL)
        json_object_set_new(extra, "event", event);
    else
        json_decref(event);
    hist(w, h, "bet", extra,
         "settled at N+1 = %u: server_seed = seed(%u) = %s, client_seed "
         "\"%s\", nonce %" PRIu64 ", round 0: u = %u, float %s; value %u: "
         "%s, returns %" PRIu64 " (%s)", h, h, server, bet.client_seed, c->id,
         u, fl, out.value, out.win ? "WIN" : "loss", out.returns,
         same ? "matches the node" : "DIFFERS from the node");
    /* a catalogue bet: every step of its event from the floats (docs/audit.md) */
    struct bet_steps st = {w, h, 0};
    zbc_bet_steps(&bet, &out, c->stake, server, c->id, zbc_term_utf8(), bet_step, &st);
}

/* The index-th entry of a crash round from the chain: its app_join
 * event names the transaction (the CreateApp for the creator's entry). */
static bool crash_entry(const struct collect *c, uint16_t index,
                        uint64_t *stake, uint32_t *target)
{
    struct zbc_crash_params p;
    struct zbc_err err;
    unsigned n = 0;
    if (!zbc_crash_parse(&p, c->params, c->params_len, &err))
        return false;
    for (size_t i = 0; i < c->nev; i++) {
        const struct zbc_event *e = &c->ev[i].e;
        if (e->kind != ZBC_EVENT_APP_JOIN || n++ != index)
            continue;
        if (memcmp(e->tx_hash, c->create_hash, 32) == 0) {
            *stake = c->stake;
            *target = p.target;
            return c->stake > 0;
        }
        const struct app_tx *t = find_tx(c, e->tx_hash);
        return t != NULL && zbc_crash_parse_entry(t->move, t->move_len, stake,
                                                  target, &err);
    }
    return false;
}

/* One entry of a crash round settled at close + 1. */
static void do_crash(struct out *w, const struct collect *c,
                     const struct app_ev *x, const uint8_t (*seeds)[32])
{
    const struct zbc_event *e = &x->e;
    uint32_t h = x->height;
    struct zbc_crash_params p;
    struct zbc_err err;
    uint64_t stake = 0, ret = 0;
    uint32_t target = 0;
    uint16_t index = e->data_len == 15 ? zbc_get_le16(e->data + 9) : 0;
    if (!zbc_crash_parse(&p, c->params, c->params_len, &err) ||
        e->data_len != 15 || !crash_entry(c, index, &stake, &target) ||
        !zbc_crash_max_return(stake, target, &ret, &err)) {
        zbc_audit_add(w->r, h, ZBC_AUDIT_APP, NULL, NULL,
                      "app %" PRIu64 ": crash settlement of entry %u does not "
                      "name an entry of the chain", c->id, index);
        return;
    }
    if (h != c->create_height + p.window + 1u)
        zbc_audit_add(w->r, h, ZBC_AUDIT_APP, NULL, NULL,
                      "app %" PRIu64 ": crash round settled at height %u, not "
                      "close + 1 = %u", c->id, h,
                      c->create_height + p.window + 1u);
    char server[65];
    zbc_hex_encode(server, seeds[h], 32);
    uint32_t u = bet_u(server, p.client_seed, c->id);
    uint32_t point = (uint32_t)((99ull << 32) / ((uint64_t)u + 256));
    bool win = target <= point;
    char want[120], got[120];
    snprintf(want, sizeof want, "u %u point %u %s returns %" PRIu64, u, point,
             win ? "win" : "loss", win ? ret : 0);
    snprintf(got, sizeof got, "u %u point %u %s returns %" PRIu64,
             zbc_get_le32(e->data), zbc_get_le32(e->data + 4),
             e->data[8] ? "win" : "loss", e->amount);
    bool same = strcmp(want, got) == 0;
    if (!same)
        zbc_audit_add(w->r, h, ZBC_AUDIT_APP, want, got,
                      "app %" PRIu64 ": crash entry %u differs from the "
                      "provably-fair computation", c->id, index);
    hist(w, h, "crash",
         json_pack("{s:s,s:s,s:I,s:I,s:I,s:i,s:I,s:I,s:b,s:I}", "server_seed",
                   server, "client_seed", p.client_seed, "nonce",
                   (json_int_t)c->id, "u", (json_int_t)u, "point",
                   (json_int_t)point, "entry", index, "stake",
                   (json_int_t)stake, "target", (json_int_t)target, "win", win,
                   "returns", (json_int_t)(win ? ret : 0)),
         "entry %u: %" PRIu64 " at %u.%02ux; seed(%u) = %s, u = %u, crash point "
         "%u.%02ux: %s, returns %" PRIu64 " (%s)", index, stake, target / 100,
         target % 100, h, server, u, point / 100, point % 100,
         win ? "CASHED OUT" : "crashed", win ? ret : 0,
         same ? "matches the node" : "DIFFERS from the node");
}

bool zbc_audit_app_payouts(const char *reason, uint8_t loser, unsigned seats,
                           unsigned seated, uint64_t stake, uint8_t out_mask,
                           uint8_t win_seat, uint64_t net,
                           uint64_t want[ZBC_SEATS_MAX], uint8_t *winner)
{
    memset(want, 0, ZBC_SEATS_MAX * sizeof want[0]);
    *winner = ZBC_EVENT_NO_SEAT;
    if (seats > ZBC_SEATS_MAX)
        seats = ZBC_SEATS_MAX;
    if (strcmp(reason, "win") == 0) {
        if (win_seat >= seats)
            return false; /* reported by the win check */
        want[win_seat] = net;
        *winner = win_seat;
        return true;
    }
    if (strcmp(reason, "draw") == 0 || strcmp(reason, "expired") == 0) {
        for (unsigned i = 0; i < seated && i < seats; i++)
            want[i] = stake;
        return true;
    }
    if (strcmp(reason, "resign") != 0 && strcmp(reason, "timeout") != 0)
        return false; /* abandoned (refunds are leave events), bets */
    uint8_t recv = zbc_app_split_seats((uint8_t)seats, loser, out_mask);
    unsigned k = (unsigned)__builtin_popcount(recv);
    uint64_t each, extra;
    zbc_app_split(net, k, &each, &extra);
    bool first = true;
    for (unsigned i = 0; i < seats; i++)
        if (recv >> i & 1) {
            want[i] = each + (first ? extra : 0);
            first = false;
            if (k == 1)
                *winner = (uint8_t)i;
        }
    return true;
}

/* Each seat's payout by the rule of the ending, from the auditor's own
 * board for the seats out of play, against the payout events. */
static void check_seat_payouts(struct out *w, const struct game *g,
                               const struct collect *c,
                               const struct app_ev *x, uint64_t net)
{
    const struct zbc_event *e = &x->e;
    uint64_t want[ZBC_SEATS_MAX];
    uint8_t winner;
    unsigned seats = c->seats < ZBC_SEATS_MAX ? c->seats : ZBC_SEATS_MAX;
    uint8_t loser = e->data_len >= 1 ? e->data[0] : ZBC_EVENT_NO_SEAT;
    struct zbc_result res = {0};
    if (g->eng != NULL && g->started)
        g->eng->result(&g->st, &res);
    if (!zbc_audit_app_payouts(e->reason, loser, seats, g->seated, c->stake,
                               res.out_mask, e->seat, net, want, &winner))
        return;
    bool splits = strcmp(e->reason, "resign") == 0 ||
                  strcmp(e->reason, "timeout") == 0;
    if (splits && (loser >= seats || e->seat != winner))
        zbc_audit_add(w->r, x->height, ZBC_AUDIT_APP, NULL, NULL,
                      "app %" PRIu64 ": the end event names winner %u and "
                      "loser %u; the %s rule gives winner %u", c->id,
                      e->seat, loser, e->reason, winner);
    for (unsigned i = 0; i < seats; i++) {
        if (g->paid_seat[i] == want[i])
            continue;
        char ws[40], gs[40];
        snprintf(ws, sizeof ws, "%" PRIu64, want[i]);
        snprintf(gs, sizeof gs, "%" PRIu64, g->paid_seat[i]);
        zbc_audit_add(w->r, x->height, ZBC_AUDIT_APP, ws, gs,
                      "app %" PRIu64 ": seat %u was paid other than the %s "
                      "rule gives", c->id, i, e->reason);
    }
}

static void do_end(struct out *w, struct game *g, const struct collect *c,
                   const struct app_ev *x, uint32_t rake_bps)
{
    const struct zbc_event *e = &x->e;
    uint32_t h = x->height;
    char who[40] = "";
    if (e->seat != ZBC_EVENT_NO_SEAT)
        snprintf(who, sizeof who, " (seat %u)", e->seat);
    hist(w, h, "end", json_pack("{s:s,s:i}", "how", e->reason, "seat",
                                e->seat == ZBC_EVENT_NO_SEAT ? -1 : e->seat),
         "app ended: %s%s", e->reason, who);
    if (g->eng != NULL && g->started && strcmp(e->reason, "win") == 0) {
        struct zbc_result res;
        g->eng->result(&g->st, &res);
        if (res.kind != ZBC_RESULT_WIN || res.winner != e->seat)
            zbc_audit_add(w->r, h, ZBC_AUDIT_APP, NULL, NULL,
                          "app %" PRIu64 ": the node says seat %u won; the "
                          "auditor's engine position is not that win",
                          c->id, e->seat);
    }
    bool raking = strcmp(e->reason, "win") == 0 ||
                  strcmp(e->reason, "resign") == 0 ||
                  strcmp(e->reason, "timeout") == 0;
    uint64_t want_rake = raking ? zbc_app_rake(g->paid_in, rake_bps) : 0;
    if (g->rake != want_rake || g->paid_out != g->paid_in) {
        char want[80], got[80];
        snprintf(want, sizeof want, "rake %" PRIu64 ", paid out %" PRIu64,
                 want_rake, g->paid_in);
        snprintf(got, sizeof got, "rake %" PRIu64 ", paid out %" PRIu64,
                 g->rake, g->paid_out);
        zbc_audit_add(w->r, h, ZBC_AUDIT_APP, want, got,
                      "app %" PRIu64 ": payouts do not settle the pot",
                      c->id);
    }
    if (g->eng != NULL && g->eng->solo != NULL && g->started)
        check_solo_end(w, g, c, x);
    else
        check_seat_payouts(w, g, c, x, g->paid_in - want_rake);
}

/* Walks the collected events, printing and checking each. */
static void walk(struct out *w, struct game *g, const struct collect *c,
                 const uint8_t (*seeds)[32], uint32_t rake_bps)
{
    memset(g, 0, sizeof *g);
    g->eng = zbc_engine_by_type(c->type);
    char acc[ZBC_ADDR_TEXT_MAX], txh[65], nota[200];
    for (size_t i = 0; i < c->nev; i++) {
        const struct app_ev *x = &c->ev[i];
        const struct zbc_event *e = &x->e;
        uint32_t h = x->height;
        switch (e->kind) {
        case ZBC_EVENT_APP_CREATE: {
            char params[2 * 64 + 1];
            size_t n = c->params_len < 64 ? c->params_len : 64;
            zbc_hex_encode(params, c->params, n);
            if (n == 0)
                snprintf(params, sizeof params, "(none)");
            zbc_hex_encode(txh, c->create_hash, 32);
            g->paid_in += e->amount;
            g->seated = 1;
            hist(w, h, "create",
                 json_pack("{s:s,s:i,s:i,s:I,s:s}", "account",
                           addr_text(acc, &e->a), "type", c->type, "seats",
                           c->seats, "stake", (json_int_t)c->stake, "tx_hash",
                           txh),
                 "CreateApp by %s: type %u (%s), %u seat(s), stake %" PRIu64
                 ", params %s%s%s (tx %s)", acc, c->type,
                 g->eng != NULL ? g->eng->name
                               : zbc_bet_is_solo(c->type) ? "solo bet"
                 : c->type == ZBC_CRASH_TYPE ? "crash round" : "?",
                 c->seats, c->stake, params, n < c->params_len ? "..." : "",
                 c->has_opponent ? ", designated opponent" : "", txh);
            break;
        }
        case ZBC_EVENT_APP_JOIN:
            /* the creator's crash entry is the CreateApp's stake, counted
             * at app_create */
            if (c->type != ZBC_CRASH_TYPE ||
                memcmp(e->tx_hash, c->create_hash, 32) != 0)
                g->paid_in += e->amount;
            g->seated++;
            g->joined = h;
            hist(w, h, "join", json_pack("{s:s,s:i}", "account",
                                         addr_text(acc, &e->a), "seat",
                                         e->seat),
                 "%s joins as seat %u, stake %" PRIu64, acc, e->seat,
                 e->amount);
            break;
        case ZBC_EVENT_APP_LEAVE:
            g->paid_in -= e->amount < g->paid_in ? e->amount : g->paid_in;
            g->seated -= g->seated > 0;
            hist(w, h, "leave", NULL, "%s (seat %u) leaves the open app, "
                 "refund %" PRIu64, addr_text(acc, &e->a), e->seat,
                 e->amount);
            break;
        case ZBC_EVENT_APP_ESCROW:
            g->paid_in += e->amount;
            hist(w, h, "escrow", NULL, "the apps fund escrows %" PRIu64
                 " into the pot", e->amount);
            break;
        case ZBC_EVENT_APP_ACTIVATE:
            do_activate(w, g, c, x, seeds);
            break;
        case ZBC_EVENT_APP_PENDING: {
            const struct app_tx *t = find_tx(c, e->tx_hash);
            zbc_hex_encode(txh, e->tx_hash, 32);
            if (t != NULL)
                notation(g, t->move, t->move_len, nota, sizeof nota);
            else
                snprintf(nota, sizeof nota, "?");
            g->has_pend = true;
            g->pend_height = h;
            memcpy(g->pend_hash, e->tx_hash, 32);
            g->paid_in += e->amount; /* a stake the move added (blackjack) */
            g->added += e->amount;
            hist(w, h, "pending", json_pack("{s:i,s:s,s:s}", "seat", e->seat,
                                            "move", nota, "tx_hash", txh),
                 "seat %u sends %s (tx %.16s...): pending, rolled with "
                 "seed(%u)", e->seat, nota, txh, h + 1);
            break;
        }
        case ZBC_EVENT_APP_MOVE:
            do_move(w, g, c, x, seeds);
            break;
        case ZBC_EVENT_APP_DISCARD:
            g->has_pend = false;
            hist(w, h, "discard", NULL, "pending move discarded: %s",
                 e->reason);
            break;
        case ZBC_EVENT_APP_KEEPALIVE:
            hist(w, h, "keepalive", NULL, "seat %u keeps the clock: "
                 "deadline %" PRIu64, e->seat, e->amount);
            break;
        case ZBC_EVENT_APP_CLAIM:
            if (e->seat == ZBC_EVENT_NO_SEAT)
                hist(w, h, "claim", NULL, "deadline %" PRIu64 " passed: the "
                     "node settles the game at its cash-out value (%s)",
                     e->amount, e->reason);
            else
                hist(w, h, "claim", NULL, "seat %u claims the timeout "
                     "(deadline %" PRIu64 " passed)", e->seat, e->amount);
            break;
        case ZBC_EVENT_APP_RESIGN:
            hist(w, h, "resign", NULL, "seat %u resigns", e->seat);
            break;
        case ZBC_EVENT_APP_PAYOUT:
            g->paid_out += e->amount;
            if (e->seat < ZBC_SEATS_MAX)
                g->paid_seat[e->seat] += e->amount;
            hist(w, h, "payout",
                 json_pack("{s:s,s:I,s:s}", "account", addr_text(acc, &e->b),
                           "amount", (json_int_t)e->amount, "reason",
                           e->reason),
                 "%" PRIu64 " to %s (%s)", e->amount, acc, e->reason);
            break;
        case ZBC_EVENT_APP_RAKE:
            g->paid_out += e->amount;
            g->rake += e->amount;
            hist(w, h, "rake", json_pack("{s:I}", "amount",
                                         (json_int_t)e->amount),
                 "rake %" PRIu64 " to the apps fund", e->amount);
            break;
        case ZBC_EVENT_APP_END:
            do_end(w, g, c, x, rake_bps);
            break;
        case ZBC_EVENT_BET_SETTLE:
            if (c->type == ZBC_CRASH_TYPE)
                do_crash(w, c, x, seeds);
            else
                do_bet(w, c, x, seeds);
            break;
        case ZBC_EVENT_NOOP:
            zbc_hex_encode(txh, e->tx_hash, 32);
            hist(w, h, "noop", json_pack("{s:s,s:s}", "tx_hash", txh,
                                         "reason", e->reason),
                 "transaction %.16s... by %s was a no-op (no fee): %s", txh,
                 addr_text(acc, &e->a), e->reason);
            break;
        case ZBC_EVENT_TRANSFER:
        case ZBC_EVENT_FEE:
            break;
        }
    }
}

/* ---- the node's own view ---- */

/* peer: GET /api/v1/apps/<id>, compared where it names the same fields. */
static void note_field(char *compared, size_t cap, const char *key)
{
    size_t n = strlen(compared);
    snprintf(compared + n, cap - n, " %s", key);
}

/* A string field of the node's app view, when present. */
static void cmp_str(struct out *w, json_t *j, const char *key,
                    const char *mine, uint64_t id, uint32_t height,
                    char *compared, size_t cap)
{
    json_t *v = json_object_get(j, key);
    if (!json_is_string(v))
        return;
    note_field(compared, cap, key);
    if (strcmp(json_string_value(v), mine) != 0)
        zbc_audit_add(w->r, height, ZBC_AUDIT_APP, mine, json_string_value(v),
                      "the node reports another %s for app %" PRIu64, key,
                      id);
}

/* An integer field (or a decimal string past 2^63) when present. */
static void cmp_u64(struct out *w, json_t *j, const char *key, uint64_t mine,
                    uint64_t id, uint32_t height, char *compared, size_t cap)
{
    json_t *v = json_object_get(j, key);
    char want[24], got[32];
    snprintf(want, sizeof want, "%" PRIu64, mine);
    if (json_is_integer(v))
        snprintf(got, sizeof got, "%" JSON_INTEGER_FORMAT,
                 json_integer_value(v));
    else if (json_is_string(v))
        snprintf(got, sizeof got, "%s", json_string_value(v));
    else
        return;
    note_field(compared, cap, key);
    if (strcmp(want, got) != 0)
        zbc_audit_add(w->r, height, ZBC_AUDIT_APP, want, got,
                      "the node reports another %s for app %" PRIu64, key,
                      id);
}

/* The node's history: one entry per app event the replay emitted (no-ops
 * are block events only), each carrying at least the fields the API's
 * event renderer gives the replayed event, equal, and its height. */
static void cmp_history(struct out *w, json_t *j, const struct collect *c,
                        uint64_t id, uint32_t height, char *compared,
                        size_t cap)
{
    json_t *hist_j = json_object_get(j, "history");
    if (!json_is_array(hist_j))
        return;
    note_field(compared, cap, "history");
    size_t k = 0;
    for (size_t i = 0; i < c->nev; i++) {
        const struct app_ev *x = &c->ev[i];
        if (x->e.kind == ZBC_EVENT_NOOP)
            continue;
        json_t *theirs = json_array_get(hist_j, k++);
        json_t *mine = NULL;
        struct zbc_err err;
        if (!zbc_json_event(&mine, &x->e, &err))
            return;
        json_object_set_new(mine, "height", json_integer(x->height));
        bool same = theirs != NULL;
        const char *key;
        json_t *v;
        json_object_foreach(mine, key, v)
        {
            if (same && !json_equal(v, json_object_get(theirs, key)))
                same = false;
        }
        if (!same) {
            char *ws = json_dumps(mine, JSON_COMPACT | JSON_SORT_KEYS);
            char *gs = theirs != NULL
                           ? json_dumps(theirs, JSON_COMPACT | JSON_SORT_KEYS)
                           : strdup("(no entry)");
            zbc_audit_add(w->r, height, ZBC_AUDIT_APP, ws != NULL ? ws : "?",
                          gs != NULL ? gs : "?",
                          "history entry %zu of app %" PRIu64 " served by "
                          "the node differs from the replay's", k - 1, id);
            free(ws);
            free(gs);
            json_decref(mine);
            return;
        }
        json_decref(mine);
    }
    if (json_array_size(hist_j) != k) {
        char want[24], got[24];
        snprintf(want, sizeof want, "%zu entries", k);
        snprintf(got, sizeof got, "%zu entries", json_array_size(hist_j));
        zbc_audit_add(w->r, height, ZBC_AUDIT_APP, want, got,
                      "the node serves another history length for app %"
                      PRIu64, id);
    }
}

static void node_view_peer(struct out *w, const struct zbc_audit_opts *o,
                           const struct zbc_app *a, const struct collect *c,
                           uint32_t height, char *note, size_t cap)
{
    char path[64];
    snprintf(path, sizeof path, "/api/v1/apps/%" PRIu64, a->id);
    struct zbc_http_reply rep;
    struct zbc_wfail f;
    memset(&f, 0, sizeof f);
    if (!zbc_http_request(&rep, o->peer, path, NULL, o->timeout_s,
                          ZBC_HTTP_REPLY_MAX, &f)) {
        snprintf(note, cap, "GET %s failed (%s): the node's view was not "
                 "compared", path, f.err.msg);
        zbc_wfail_clear(&f);
        return;
    }
    zbc_wfail_clear(&f);
    json_error_t je;
    json_t *j = json_loadb(rep.body, rep.len, 0, &je);
    int status = rep.status;
    zbc_http_reply_free(&rep);
    json_t *errj = json_object_get(j, "error");
    if (status == 404 && json_is_string(errj) &&
        strstr(json_string_value(errj), "unknown endpoint") != NULL) {
        snprintf(note, cap, "the node does not serve GET %s: its view of the "
                 "app was not compared (the replay above does not depend "
                 "on it)", path);
        json_decref(j);
        return;
    }
    if (status != 200 || !json_is_object(j)) {
        zbc_audit_add(w->r, height, ZBC_AUDIT_APP, "HTTP 200", NULL,
                      "GET %s answered HTTP %d for an app the replay knows",
                      path, status);
        snprintf(note, cap, "GET %s answered HTTP %d", path, status);
        json_decref(j);
        return;
    }
    char compared[300] = "";
    const char *mine = zbc_app_status_name((enum zbc_app_status)a->status);
    cmp_str(w, j, "status", mine, a->id, height, compared, sizeof compared);
    cmp_u64(w, j, "pot", a->pot, a->id, height, compared, sizeof compared);
    cmp_u64(w, j, "stake", a->stake, a->id, height, compared,
            sizeof compared);
    cmp_u64(w, j, "escrow", a->escrow, a->id, height, compared,
            sizeof compared);
    cmp_u64(w, j, "seats", a->seats, a->id, height, compared,
            sizeof compared);
    cmp_u64(w, j, "created", a->created, a->id, height, compared,
            sizeof compared);
    cmp_u64(w, j, "moves", a->moves, a->id, height, compared,
            sizeof compared);
    char *state = malloc(2 * (size_t)a->state_len + 1);
    if (state != NULL) {
        zbc_hex_encode(state, a->state, a->state_len);
        cmp_str(w, j, "state_hex", state, a->id, height, compared,
                sizeof compared);
        free(state);
    }
    cmp_history(w, j, c, a->id, height, compared, sizeof compared);
    snprintf(note, cap, "GET %s compared on:%s", path,
             compared[0] ? compared : " nothing (no status or pot field)");
    json_decref(j);
}

int zbc_audit_cmd_app(const struct zbc_audit_opts *o, uint64_t id)
{
    struct zbc_audit_source src;
    struct zbc_genesis g;
    struct zbc_err err;
    memset(&src, 0, sizeof src);
    if (!zbc_audit_open(&src, &g, o, &err))
        return zbc_audit_could_not(o, err.msg);
    struct collect *c = calloc(1, sizeof *c);
    struct zbc_app *a = malloc(sizeof *a);
    struct game *gm = malloc(sizeof *gm);
    struct zbc_audit_report rep;
    struct zbc_audit_replay rp;
    memset(&rep, 0, sizeof rep);
    memset(&rp, 0, sizeof rp);
    int code = ZBC_AUDIT_EXIT_CANNOT;
    if (c == NULL || a == NULL || gm == NULL) {
        code = zbc_audit_could_not(o, "out of memory");
        goto out;
    }
    c->id = id;
    struct zbc_audit_hooks hooks = {.on_block = on_block, .arg = c};
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t now = (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
    if (!zbc_audit_replay(&rp, &src, &g, now, &hooks, &rep, &err)) {
        code = zbc_audit_could_not(o, err.msg);
        goto out;
    }
    if (c->oom) {
        code = zbc_audit_could_not(o, "out of memory collecting the app");
        goto out;
    }
    bool found = false;
    if (!zbc_apps_get(&rp.st, id, a, &found, &err)) {
        code = zbc_audit_could_not(o, err.msg);
        goto out;
    }
    uint32_t h = rp.parent.height;
    if (!found || !c->created) {
        char msg[200];
        snprintf(msg, sizeof msg, "app %" PRIu64 " not found: no CreateApp "
                 "with that id in heights 1..%u", id, h);
        if (o->json) {
            zbc_audit_print_json(json_pack(
                "{s:b,s:s,s:i,s:I,s:o}", "success", 0, "error", msg,
                "exit_code", ZBC_AUDIT_EXIT_NOT_FOUND, "divergence_count",
                (json_int_t)rep.total, "divergences",
                zbc_audit_divergences_json(&rep)));
        } else {
            zbc_audit_print_divergences(stdout, &rep);
            printf("zbc-audit: %s\n", msg);
        }
        code = ZBC_AUDIT_EXIT_NOT_FOUND;
        goto out;
    }
    const struct zbc_engine *eng = zbc_engine_by_type(a->type);
    const char *game = eng != NULL ? eng->name
                       : zbc_bet_is_solo(a->type) ? "solo bet"
                       : a->type == ZBC_CRASH_TYPE ? "crash round" : "?";
    struct out w = {.o = o, .r = &rep, .lines = json_array()};
    if (!o->json)
        printf("zbc-audit app %" PRIu64 ": %s (type %u), %u seat(s), "
               "replayed from genesis over %s (heights 1..%u%s)\n",
               id, game, a->type, a->seats, src.name, h,
               rp.stats.complete ? "" : ", STOPPED early");
    walk(&w, gm, c, (const uint8_t(*)[32])rp.seeds, g.rake_bps);
    /* the auditor's position against the replayed app record */
    if (gm->eng != NULL && gm->started) {
        uint8_t *mine = malloc(ZBC_GAME_STATE_MAX);
        size_t n = mine != NULL ? gm->eng->encode(&gm->st, mine,
                                                  ZBC_GAME_STATE_MAX)
                                : 0;
        if (n == 0 || n != a->state_len || memcmp(mine, a->state, n) != 0)
            zbc_audit_add(&rep, h, ZBC_AUDIT_APP, NULL, NULL,
                          "app %" PRIu64 ": the position the auditor "
                          "rebuilt from the moves and rolls is not the app "
                          "record's", id);
        free(mine);
    }
    char note[400] = "";
    if (o->peer != NULL)
        node_view_peer(&w, o, a, c, h, note, sizeof note);
    else if (rp.stats.complete)
        snprintf(note, sizeof note, "the node's stored app record and "
                 "history were compared entry by entry with the replay "
                 "(any difference is listed as stored_state)");
    else
        snprintf(note, sizeof note, "the replay stopped early: the node's "
                 "stored app was not compared");
    code = zbc_audit_clean(&rep) ? ZBC_AUDIT_EXIT_OK
                                 : ZBC_AUDIT_EXIT_DIVERGENCE;
    const char *status = zbc_app_status_name((enum zbc_app_status)a->status);
    const char *end = zbc_app_end_name((enum zbc_app_end)a->end);
    if (o->json) {
        zbc_audit_print_json(json_pack(
            "{s:b,s:i,s:I,s:i,s:s,s:i,s:s,s:s,s:I,s:I,s:I,s:s,s:I,s:b,s:o,"
            "s:s,s:I,s:o}",
            "success", code == ZBC_AUDIT_EXIT_OK, "exit_code", code, "app_id",
            (json_int_t)id, "type", a->type, "game", game, "seats", a->seats,
            "status", status, "end", end, "pot", (json_int_t)a->pot,
            "created", (json_int_t)a->created, "ended", (json_int_t)a->ended,
            "source", src.name, "heights_checked", (json_int_t)h, "complete",
            rp.stats.complete, "history", w.lines, "node_view", note,
            "divergence_count", (json_int_t)rep.total, "divergences",
            zbc_audit_divergences_json(&rep)));
    } else {
        json_decref(w.lines);
        printf("replayed state: %s, end %s, pot %" PRIu64 "\n", status, end,
               a->pot);
        printf("node's view: %s\n", note);
        zbc_audit_print_divergences(stdout, &rep);
        if (code == ZBC_AUDIT_EXIT_OK)
            printf("result: OK, no divergence\n");
        else
            printf("result: %zu DIVERGENCE(S)\n", rep.total);
    }
out:
    if (c != NULL) {
        free(c->tx);
        free(c->ev);
    }
    free(c);
    free(a);
    free(gm);
    zbc_audit_replay_free(&rp);
    zbc_audit_report_free(&rep);
    zbc_audit_source_close(&src);
    zbc_genesis_free(&g);
    return code;
}
