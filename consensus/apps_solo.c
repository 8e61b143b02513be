/* Multi-step solo games against the apps fund on chain (mines, ...):
 * escrow and the 1 % rule at creation, pending steps resolved by the next
 * block's float stream, cash-outs, the settlement and the clock
 * (docs/protocol-apps.md §13). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/fair_pay.h"
#include "consensus/apps_internal.h"
#include "consensus/ledger.h"
#include "crypto/bytes.h"

static const struct zbc_solo_ops *solo_of(const struct zbc_app *a)
{
    const struct zbc_engine *e = zbc_app_engine(a);
    return e != NULL ? e->solo : NULL;
}

/* floor(stake x mult / 10000); 0 (failure) when it passes u64. */
static int solo_returns(uint64_t stake, uint64_t mult, uint64_t *out)
{
    unsigned __int128 r = (unsigned __int128)stake * mult / ZBC_FAIR_ONE;
    if (r > UINT64_MAX)
        return 0;
    *out = (uint64_t)r;
    return 1;
}

int zbc_apps_solo_check_create(struct zbc_state *s, const struct zbc_genesis *g,
                               const struct zbc_checked_tx *ct, bool *applies,
                               struct zbc_err *err)
{
    const struct zbc_body_app_create *b = &ct->body.u.create;
    const struct zbc_engine *e = zbc_engine_by_type(b->app_type);
    uint64_t max_ret, fund;
    *applies = false;
    if (e == NULL || e->solo == NULL)
        return zbc_fail(err, "app type %u is no solo game", b->app_type);
    if (zbc_addr_equal(&ct->tx.sender, &g->fund_account)) {
        zbc_fail(err, "the apps fund cannot play against itself");
        return 1;
    }
    uint64_t mult = e->solo->max_multiplier(b->params, b->params_len);
    if (!solo_returns(b->stake, mult, &max_ret)) {
        zbc_fail(err, "game refused: its maximum return overflows 64 bits");
        return 1;
    }
    if (!zbc_ledger_balance(s, &g->fund_account, &fund, err))
        return 0;
    if ((unsigned __int128)max_ret * 100 > fund) {
        zbc_fail(err, "game refused: its maximum return %" PRIu64
                      " exceeds 1%% of the apps fund (%" PRIu64 ")",
                 max_ret, fund);
        return 1;
    }
    *applies = true;
    return 1;
}

/* The stake `move` adds to the pot (blackjack's double and split). */
static uint64_t move_extra(const struct zbc_app *a, const uint8_t *move,
                           size_t len)
{
    const struct zbc_solo_ops *so = solo_of(a);
    if (so == NULL || so->move_stake == NULL)
        return 0;
    /* a legal move's units are 0 or 1; the product is checked by callers */
    unsigned __int128 v = (unsigned __int128)so->move_stake(move, len) *
                          a->stake;
    return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

uint64_t zbc_apps_solo_move_stake(const struct zbc_app *a,
                                  const struct zbc_checked_tx *ct)
{
    return move_extra(a, ct->body.u.move.move, ct->body.u.move.move_len);
}

int zbc_apps_solo_check_stake(struct zbc_state *s,
                              const struct zbc_checked_tx *ct,
                              const struct zbc_app *a, uint64_t pending,
                              bool *applies, struct zbc_err *err)
{
    uint64_t extra = zbc_apps_solo_move_stake(a, ct), bal;
    *applies = false;
    if (extra == 0) {
        *applies = true;
        return 1;
    }
    if (extra > UINT64_MAX - a->pot) {
        zbc_fail(err, "app %" PRIu64 " pot would overflow", a->id);
        return 1;
    }
    if (!zbc_ledger_balance(s, &ct->tx.sender, &bal, err))
        return 0;
    unsigned __int128 need = (unsigned __int128)(uint64_t)ct->tx.fee + extra + pending;
    if (bal < need) {
        zbc_fail(err, "insufficient balance: %" PRIu64 " held, %" PRIu64 " needed "
                      "for the fee and the stake this move adds to app %" PRIu64,
                 bal, (uint64_t)ct->tx.fee + extra, a->id);
        return 1;
    }
    *applies = true;
    return 1;
}

/* Deadline h + md and the clock item at deadline + 1. */
static int arm(struct actx *c, struct zbc_err *err)
{
    struct zbc_app *a = c->a;
    a->deadline = (uint64_t)c->height + c->g->move_deadline;
    if (a->deadline + 1 > UINT32_MAX)
        return 1; /* never settled by the clock, like an Open app's expiry */
    return zbc_apps_sched_add(c->s, (uint32_t)(a->deadline + 1),
                              ZBC_SCHED_SOLO_CLOCK, a->id, err);
}

int zbc_apps_solo_arm(struct actx *c, struct zbc_err *err)
{
    return arm(c, err);
}

int zbc_apps_solo_start(struct actx *c, struct zbc_err *err)
{
    struct zbc_app *a = c->a;
    const struct zbc_solo_ops *so = solo_of(a);
    uint64_t max_ret;
    if (so == NULL ||
        !solo_returns(a->stake, so->max_multiplier(a->params, a->params_len),
                      &max_ret))
        return zbc_fail(err, "app %" PRIu64 " has no solo maximum", a->id);
    a->escrow = max_ret > a->stake ? max_ret - a->stake : 0;
    if (a->escrow > UINT64_MAX - a->pot)
        return zbc_fail(err, "solo game escrow overflows the pot");
    if (a->escrow > 0 &&
        !zbc_ledger_debit(c->s, &c->g->fund_account, a->escrow, err))
        return 0;
    a->pot += a->escrow;
    struct zbc_event e;
    zbc_apps_ev_init(&e, ZBC_EVENT_APP_ESCROW, c);
    e.a = c->g->fund_account;
    e.amount = a->escrow;
    if (!zbc_apps_emit(c, &e, NULL, 0, err))
        return 0;
    a->status = ZBC_APP_ACTIVE;
    a->joined = c->height;
    struct zbc_err why;
    int next;
    if (!zbc_app_start(a, 0, NULL, &why))
        return zbc_fail(err, "app %" PRIu64 " does not start: %s", a->id,
                        why.msg); /* check_params accepted these params */
    if (!zbc_app_turn(a, &next, err))
        return 0;
    a->clock = next == 0 ? 0 : ZBC_APP_NO_CLOCK;
    if (!arm(c, err))
        return 0;
    zbc_apps_ev_init(&e, ZBC_EVENT_APP_ACTIVATE, c);
    e.seat = 0;
    e.amount = a->deadline;
    return zbc_apps_emit(c, &e, NULL, 0, err);
}

/* The game pays its value: the player gets floor(stake x value / 10000),
 * the rest of the pot returns to the fund.  `why` = the app_end reason. */
static int settle(struct actx *c, const char *why, struct zbc_err *err)
{
    struct zbc_app *a = c->a;
    const struct zbc_engine *e = zbc_app_engine(a);
    struct zbc_game_state *st = malloc(sizeof *st);
    if (st == NULL)
        return zbc_fail(err, "out of memory settling a solo game");
    int ok = e->decode(st, a->state, a->state_len, err);
    uint64_t value = ok ? e->solo->value(st) : 0, ret = 0;
    free(st);
    if (!ok)
        return 0;
    if (!solo_returns(a->stake, value, &ret) || ret > a->pot)
        return zbc_fail(err, "solo game %" PRIu64 " returns more than its "
                             "pot", a->id);
    if (ret > 0 && !zbc_apps_pay(c, 0, &a->seat[0], ret, "cashout", err))
        return 0;
    if (!zbc_apps_pay(c, ZBC_EVENT_NO_SEAT, &c->g->fund_account, a->pot,
                      "escrow", err))
        return 0;
    a->escrow = 0;
    a->has_pending = false;
    return zbc_apps_finish(c, ret > 0 ? ZBC_END_CASHOUT : ZBC_END_BUST,
                           ret > a->stake ? 0 : ZBC_APP_NO_SEAT,
                           ZBC_APP_NO_SEAT, ret > 0 ? why : "bust", err);
}

/* Applies the player's step (rolls: the float stream, NULL for a
 * cash-out); event app_move without data (the floats are recomputed from
 * the seed, docs/protocol-apps.md §13). */
static int stepped(struct actx *c, const uint8_t *move, size_t len,
                   const uint8_t *tx_hash, const struct zbc_result *res,
                   int next, struct zbc_err *err)
{
    struct zbc_app *a = c->a;
    a->moves++;
    bool over = res->kind != ZBC_RESULT_ONGOING;
    struct zbc_event ev;
    zbc_apps_ev_init(&ev, ZBC_EVENT_APP_MOVE, c);
    memcpy(ev.tx_hash, tx_hash, 32);
    ev.a = a->seat[0];
    ev.seat = 0;
    ev.amount = over ? 0 : (uint64_t)c->height + c->g->move_deadline;
    if (!zbc_apps_emit(c, &ev, move, len, err))
        return 0;
    if (over)
        return settle(c, "cashout", err);
    a->clock = next == 0 ? 0 : ZBC_APP_NO_CLOCK;
    return arm(c, err);
}

static int step(struct actx *c, const uint8_t *move, size_t len,
                const uint8_t *tx_hash, struct zbc_err *err)
{
    struct zbc_result res;
    int next;
    return zbc_app_play(c->a, 0, move, len, NULL, &res, &next, err) &&
           stepped(c, move, len, tx_hash, &res, next, err);
}

int zbc_apps_solo_move(struct actx *c, const struct zbc_checked_tx *ct,
                       struct zbc_err *err)
{
    const struct zbc_body_app_move *m = &ct->body.u.move;
    struct zbc_app *a = c->a;
    const struct zbc_solo_ops *so = solo_of(a);
    uint64_t extra = zbc_apps_solo_move_stake(a, ct);
    if (extra > 0) {
        /* the stake a double or a split adds goes into the pot now */
        if (extra > UINT64_MAX - a->pot)
            return zbc_fail(err, "app %" PRIu64 " pot would overflow", a->id);
        if (!zbc_ledger_debit(c->s, &ct->tx.sender, extra, err))
            return 0;
        a->pot += extra;
    }
    if (!so->move_draws(m->move, m->move_len))
        return step(c, m->move, m->move_len, ct->hash, err);
    a->has_pending = true;
    a->pending_seat = 0;
    memcpy(a->pending_hash, ct->hash, 32);
    a->pending_len = m->move_len;
    memcpy(a->pending_move, m->move, m->move_len);
    a->clock = ZBC_APP_NO_CLOCK;
    struct zbc_event e;
    zbc_apps_ev_init(&e, ZBC_EVENT_APP_PENDING, c);
    e.a = ct->tx.sender;
    e.seat = 0;
    e.amount = extra; /* the stake the move added (blackjack), else 0 */
    if (!zbc_apps_emit(c, &e, m->move, m->move_len, err))
        return 0;
    if (c->height == UINT32_MAX)
        return zbc_fail(err, "the chain is at its last height");
    return zbc_apps_sched_add(c->s, c->height + 1, ZBC_SCHED_MOVE, a->id, err);
}

int zbc_apps_solo_resolve(struct actx *c, const uint8_t seed[32],
                          struct zbc_err *err)
{
    struct zbc_app *a = c->a;
    const struct zbc_solo_ops *so = solo_of(a);
    uint8_t hash[32], move[ZBC_MOVE_WIRE_MAX];
    uint16_t len = a->pending_len;
    memcpy(hash, a->pending_hash, 32);
    memcpy(move, a->pending_move, len);
    char client[ZBC_ROLL_CLIENT_MAX + 1];
    so->client_seed(a->params, a->params_len, client);
    struct zbc_roll rolls;
    zbc_roll_init_fair(&rolls, seed, client, a->id);
    struct zbc_err why;
    struct zbc_result res;
    int next;
    /* Neither refusal can happen with a consistent engine (nothing changes
     * the game in between); zbc_app_play changes the app only when it
     * applies.  A refused step is discarded and the stake it added goes
     * back, never left to fail the block (docs/protocol-apps.md §13). */
    bool legal = zbc_app_check_move(a, 0, move, len, &why);
    bool applied = legal &&
                   zbc_app_play(a, 0, move, len, &rolls, &res, &next, &why);
    if (legal && !applied)
        zbc_fail_prefix(&why, "the engine refused the move when it was "
                              "resolved");
    if (applied) {
        a->has_pending = false;
        a->pending_len = 0;
        memset(a->pending_hash, 0, 32);
        c->tx_hash = hash; /* the move's hash names the events it causes */
        int ok = stepped(c, move, len, hash, &res, next, err);
        c->tx_hash = NULL;
        return ok && zbc_apps_put(c->s, a, err);
    }
    /* the stake the move added when it was included (its app_pending) */
    uint64_t back = move_extra(a, move, len);
    if (back > a->pot)
        back = a->pot;
    if (!zbc_apps_discard_pending(c, why.msg, err))
        return 0;
    c->tx_hash = hash;
    /* seat 0xff: a refund, not part of what the game paid (paid[0]) */
    int ok = back == 0 || zbc_apps_pay(c, ZBC_EVENT_NO_SEAT, &a->seat[0],
                                       back, "refund", err);
    c->tx_hash = NULL;
    if (!ok)
        return 0;
    a->clock = 0;
    return arm(c, err) && zbc_apps_put(c->s, a, err);
}

int zbc_apps_solo_clock(struct actx *c, const uint8_t seed[32],
                        struct zbc_err *err)
{
    struct zbc_app *a = c->a;
    if (a->status != ZBC_APP_ACTIVE || a->has_pending ||
        a->deadline + 1 != c->height)
        return 1; /* ended, a step pending, or the deadline moved since */
    struct zbc_event e;
    zbc_apps_ev_init(&e, ZBC_EVENT_APP_CLAIM, c);
    e.a = a->seat[0];
    e.seat = ZBC_EVENT_NO_SEAT; /* claimed by the node itself */
    e.amount = a->deadline;
    snprintf(e.reason, sizeof e.reason, "%s", "clock");
    if (!zbc_apps_emit(c, &e, NULL, 0, err))
        return 0;
    /* a game with a clock move (blackjack: stand) plays it until it is over,
     * drawing from this block's stream; one it does not apply to (before
     * the deal) is paid its value as it is */
    const struct zbc_solo_ops *so = solo_of(a);
    uint8_t mv = so->clock_move;
    struct zbc_err why;
    for (int i = 0; mv != 0 && i < ZBC_MOVES_MAX; i++) {
        int turn;
        if (!zbc_app_turn(a, &turn, err))
            return 0;
        if (turn != 0 || !zbc_app_check_move(a, 0, &mv, 1, &why))
            break;
        char client[ZBC_ROLL_CLIENT_MAX + 1];
        so->client_seed(a->params, a->params_len, client);
        struct zbc_roll rolls;
        zbc_roll_init_fair(&rolls, seed, client, a->id);
        struct zbc_result res;
        int next;
        if (!zbc_app_play(a, 0, &mv, 1, &rolls, &res, &next, &why)) {
            /* an inconsistent engine (check_move accepted it): the game is
             * settled as it stands, as when the move does not apply, and
             * never fails the block (docs/protocol-apps.md §13) */
            zbc_apps_ev_init(&e, ZBC_EVENT_APP_DISCARD, c);
            e.a = a->seat[0];
            e.seat = 0;
            snprintf(e.reason, sizeof e.reason,
                     "the engine refused the clock's move: %s", why.msg);
            if (!zbc_apps_emit(c, &e, &mv, 1, err))
                return 0;
            break;
        }
        a->moves++;
        zbc_apps_ev_init(&e, ZBC_EVENT_APP_MOVE, c);
        e.a = a->seat[0];
        e.seat = 0;
        snprintf(e.reason, sizeof e.reason, "%s", "clock");
        if (!zbc_apps_emit(c, &e, &mv, 1, err))
            return 0;
    }
    return settle(c, "clock", err) && zbc_apps_put(c->s, a, err);
}
