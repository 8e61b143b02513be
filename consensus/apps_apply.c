/* Apps on chain: applicability, effects, the start-of-block work and the
 * readers (apps_apply.h, docs/protocol-apps.md). */
#include "consensus/apps_apply.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/fair.h"
#include "crypto/bytes.h"
#include "consensus/apps_crash.h"
#include "consensus/apps_internal.h"
#include "consensus/ledger.h"

uint64_t zbc_apps_tx_app_id(const struct zbc_checked_tx *ct)
{
    switch (ct->body.type) {
    case ZBC_TX_APP_CREATE:
        return zbc_get_le64(ct->hash); /* the transaction id */
    case ZBC_TX_APP_JOIN:
    case ZBC_TX_APP_RESIGN:
    case ZBC_TX_APP_CLAIM:
        return ct->body.u.ref.app_id;
    case ZBC_TX_APP_MOVE:
        return ct->body.u.move.app_id;
    case ZBC_TX_SEND:
        break;
    }
    return 0;
}

/* ---- records ---- */

int zbc_apps_get(struct zbc_state *s, uint64_t id, struct zbc_app *a,
                 bool *found, struct zbc_err *err)
{
    uint8_t key[8];
    size_t vlen;
    zbc_put_le64(key, id);
    uint8_t *buf = malloc(ZBC_APP_RECORD_MAX);
    if (buf == NULL)
        return zbc_fail(err, "out of memory reading an app");
    int ok = zbc_state_get(s, ZBC_TABLE_APPS, key, 8, buf, ZBC_APP_RECORD_MAX,
                           &vlen, found, err);
    if (ok && *found) {
        ok = zbc_app_decode(a, buf, vlen, err);
        a->id = id; /* the key, not stored in the record */
    }
    free(buf);
    return ok;
}

static int app_put(struct zbc_state *s, const struct zbc_app *a,
                   struct zbc_err *err)
{
    uint8_t key[8];
    zbc_put_le64(key, a->id);
    uint8_t *buf = malloc(ZBC_APP_RECORD_MAX);
    if (buf == NULL)
        return zbc_fail(err, "out of memory writing an app");
    size_t n = zbc_app_encode(a, buf, ZBC_APP_RECORD_MAX);
    int ok = n > 0 && n <= ZBC_KV_VAL_MAX
                 ? zbc_state_put(s, ZBC_TABLE_APPS, key, 8, buf, n, err)
                 : zbc_fail(err, "app %" PRIu64 " record does not encode",
                            a->id);
    free(buf);
    return ok;
}

/* ---- schedule (PENDING table) ---- */

static int sched_count(struct zbc_state *s, uint32_t height, uint32_t *n,
                       struct zbc_err *err)
{
    uint8_t key[4], v[8];
    size_t vlen;
    bool found;
    zbc_put_le32(key, height);
    if (!zbc_state_get(s, ZBC_TABLE_PENDING, key, 4, v, sizeof v, &vlen,
                       &found, err))
        return 0;
    *n = 0;
    if (!found)
        return 1;
    if (vlen != 4)
        return zbc_fail(err, "schedule count record is corrupt");
    *n = zbc_get_le32(v);
    return 1;
}

static int sched_add(struct zbc_state *s, uint32_t height, uint8_t kind,
                     uint64_t id, struct zbc_err *err)
{
    uint32_t n;
    if (!sched_count(s, height, &n, err))
        return 0;
    if (n == UINT32_MAX)
        return zbc_fail(err, "schedule for height %u is full", height);
    uint8_t key[8], v[9];
    zbc_put_le32(key, height);
    zbc_put_le32(key + 4, n);
    v[0] = kind;
    zbc_put_le64(v + 1, id);
    if (!zbc_state_put(s, ZBC_TABLE_PENDING, key, 8, v, 9, err))
        return 0;
    zbc_put_le32(v, n + 1);
    return zbc_state_put(s, ZBC_TABLE_PENDING, key, 4, v, 4, err);
}

static int sched_item(struct zbc_state *s, uint32_t height, uint32_t i,
                      struct zbc_sched_item *it, struct zbc_err *err)
{
    uint8_t key[8], v[16];
    size_t vlen;
    bool found;
    zbc_put_le32(key, height);
    zbc_put_le32(key + 4, i);
    if (!zbc_state_get(s, ZBC_TABLE_PENDING, key, 8, v, sizeof v, &vlen,
                       &found, err))
        return 0;
    if (!found || vlen != 9 || v[0] < ZBC_SCHED_ACTIVATE ||
        v[0] > ZBC_SCHED_CRASH)
        return zbc_fail(err, "schedule item %u of height %u is missing or "
                             "corrupt", i, height);
    it->kind = v[0];
    it->app_id = zbc_get_le64(v + 1);
    return 1;
}

int zbc_apps_schedule(struct zbc_state *s, uint32_t height,
                      struct zbc_sched_item *out, size_t cap, uint32_t *n,
                      struct zbc_err *err)
{
    if (!sched_count(s, height, n, err))
        return 0;
    for (uint32_t i = 0; i < *n && i < cap; i++)
        if (!sched_item(s, height, i, &out[i], err))
            return 0;
    return 1;
}

/* ---- history and events ---- */

static void ev_init(struct zbc_event *e, enum zbc_event_kind kind,
                    const struct actx *c)
{
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->tx_index = c->index;
    if (c->tx_hash != NULL)
        memcpy(e->tx_hash, c->tx_hash, 32);
    zbc_addr_empty(&e->a);
    zbc_addr_empty(&e->b);
    e->ref = c->a->id;
    e->seat = ZBC_EVENT_NO_SEAT;
}

/* Pushes the event and appends it (with the move bytes) to the app's
 * history. */
static int emit(struct actx *c, const struct zbc_event *e,
                const uint8_t *move, size_t move_len, struct zbc_err *err)
{
    if (!zbc_events_push(c->ev, e, err))
        return 0;
    if (c->a->history_n == UINT32_MAX)
        return zbc_fail(err, "app %" PRIu64 " history is full", c->a->id);
    uint8_t key[12];
    zbc_put_le64(key, c->a->id);
    zbc_put_le32(key + 8, c->a->history_n);
    size_t cap = 4 + ZBC_EVENT_BYTES_MAX + 2 + ZBC_MOVE_WIRE_MAX;
    uint8_t *v = malloc(cap);
    if (v == NULL)
        return zbc_fail(err, "out of memory writing app history");
    size_t p = 0;
    zbc_put_le32(v, c->height);
    p += 4;
    p += zbc_event_encode_one(e, v + p, cap - p);
    if (move_len > ZBC_MOVE_WIRE_MAX)
        move_len = 0;
    zbc_put_le16(v + p, move_len);
    p += 2;
    if (move_len > 0)
        memcpy(v + p, move, move_len);
    p += move_len;
    int ok = zbc_state_put(c->s, ZBC_TABLE_APP_HISTORY, key, 12, v, p, err);
    free(v);
    if (ok)
        c->a->history_n++;
    return ok;
}

int zbc_apps_history(struct zbc_state *s, uint64_t id, uint32_t seq,
                     struct zbc_app_history *h, bool *found,
                     struct zbc_err *err)
{
    uint8_t key[12];
    zbc_put_le64(key, id);
    zbc_put_le32(key + 8, seq);
    size_t cap = 4 + ZBC_EVENT_BYTES_MAX + 2 + ZBC_MOVE_WIRE_MAX, vlen, used;
    uint8_t *v = malloc(cap);
    if (v == NULL)
        return zbc_fail(err, "out of memory reading app history");
    int ok = zbc_state_get(s, ZBC_TABLE_APP_HISTORY, key, 12, v, cap, &vlen,
                           found, err);
    if (ok && *found) {
        memset(h, 0, sizeof *h);
        if (vlen < 4) {
            ok = zbc_fail(err, "app history entry is truncated");
        } else {
            h->height = zbc_get_le32(v);
            ok = zbc_event_decode_one(&h->ev, v + 4, vlen - 4, &used, err);
            size_t rest = ok ? vlen - 4 - used : 0;
            if (ok && (rest < 2 || rest - 2 != zbc_get_le16(v + 4 + used) ||
                       rest - 2 > ZBC_MOVE_WIRE_MAX))
                ok = zbc_fail(err, "app history entry move does not fit");
            if (ok) {
                h->move_len = (uint16_t)(rest - 2);
                memcpy(h->move, v + 4 + used + 2, h->move_len);
            }
        }
    }
    free(v);
    return ok;
}

/* ---- money ---- */

static uint64_t deadline_from(const struct actx *c)
{
    return (uint64_t)c->height + c->g->move_deadline;
}

static int pay(struct actx *c, uint8_t seat, const struct zbc_addr *to,
               uint64_t amount, const char *why, struct zbc_err *err)
{
    if (amount > c->a->pot)
        return zbc_fail(err, "app %" PRIu64 " pays %" PRIu64 " but holds %"
                             PRIu64, c->a->id, amount, c->a->pot);
    c->a->pot -= amount;
    if (amount > 0 && !zbc_ledger_credit(c->s, to, amount, err))
        return 0;
    if (seat < c->a->seats)
        c->a->paid[seat] += amount; /* the pot bounds the sum */
    struct zbc_event e;
    ev_init(&e, ZBC_EVENT_APP_PAYOUT, c);
    e.b = *to;
    e.seat = seat;
    e.amount = amount;
    snprintf(e.reason, sizeof e.reason, "%s", why);
    return emit(c, &e, NULL, 0, err);
}

static int take_rake(struct actx *c, struct zbc_err *err)
{
    uint64_t rake = zbc_app_rake(c->a->pot, c->g->rake_bps);
    c->a->pot -= rake;
    c->a->rake = rake;
    if (rake > 0 && !zbc_ledger_credit(c->s, &c->g->fund_account, rake, err))
        return 0;
    struct zbc_event e;
    ev_init(&e, ZBC_EVENT_APP_RAKE, c);
    e.b = c->g->fund_account;
    e.amount = rake;
    return emit(c, &e, NULL, 0, err);
}

/* The outcome: winner = the one seat that took the pot (0xff when none
 * or shared), loser = the seat that resigned / timed out (0xff).  Event
 * app_end: seat = winner, data = loser u8 (docs/protocol-apps.md §8). */
static int finish(struct actx *c, enum zbc_app_end how, uint8_t winner,
                  uint8_t loser, const char *reason, struct zbc_err *err)
{
    struct zbc_app *a = c->a;
    if (a->pot != 0)
        return zbc_fail(err, "app %" PRIu64 " ends holding %" PRIu64,
                        a->id, a->pot);
    a->status = how == ZBC_END_ABANDONED || how == ZBC_END_EXPIRED
                    ? ZBC_APP_ABANDONED
                    : ZBC_APP_FINISHED;
    a->end = (uint8_t)how;
    a->winner = winner;
    a->loser = loser;
    a->ended = c->height;
    a->clock = ZBC_APP_NO_CLOCK;
    a->first_pending = false;
    struct zbc_event e;
    ev_init(&e, ZBC_EVENT_APP_END, c);
    e.seat = winner;
    e.data[0] = loser;
    e.data_len = 1;
    snprintf(e.reason, sizeof e.reason, "%s", reason);
    return emit(c, &e, NULL, 0, err);
}

static int end_win(struct actx *c, uint8_t winner, struct zbc_err *err)
{
    return take_rake(c, err) &&
           pay(c, winner, &c->a->seat[winner], c->a->pot, "win", err) &&
           finish(c, ZBC_END_WIN, winner, ZBC_APP_NO_SEAT, "win", err);
}

static int end_draw(struct actx *c, const char *reason, struct zbc_err *err)
{
    for (uint8_t i = 0; i < c->a->n_seated; i++)
        if (!pay(c, i, &c->a->seat[i], c->a->stake, "draw", err))
            return 0;
    return finish(c, ZBC_END_DRAW, ZBC_APP_NO_SEAT, ZBC_APP_NO_SEAT, reason,
                  err);
}

/* pot - rake split among the seats zbc_app_split_seats names (every seat
 * but the loser and the seats out of play), remainder to the first of
 * them in seat order; winner = the receiving seat when there is one. */
static int end_split(struct actx *c, uint8_t loser, enum zbc_app_end how,
                     const char *why, struct zbc_err *err)
{
    struct zbc_app *a = c->a;
    uint8_t out;
    if (!zbc_app_out_mask(a, &out, err) || !take_rake(c, err))
        return 0;
    uint8_t recv = zbc_app_split_seats(a->n_seated, loser, out);
    unsigned k = (unsigned)__builtin_popcount(recv);
    uint64_t each, extra;
    zbc_app_split(a->pot, k, &each, &extra);
    bool first = true;
    uint8_t winner = ZBC_APP_NO_SEAT;
    for (uint8_t i = 0; i < a->n_seated; i++) {
        if (!(recv >> i & 1))
            continue;
        if (!pay(c, i, &a->seat[i], each + (first ? extra : 0), why, err))
            return 0;
        first = false;
        if (k == 1)
            winner = i;
    }
    return finish(c, how, winner, loser, why, err);
}

static int discard_pending(struct actx *c, const char *reason,
                           struct zbc_err *err)
{
    struct zbc_app *a = c->a;
    if (!a->has_pending)
        return 1;
    struct zbc_event e;
    ev_init(&e, ZBC_EVENT_APP_DISCARD, c);
    memcpy(e.tx_hash, a->pending_hash, 32);
    e.a = a->seat[a->pending_seat];
    e.seat = a->pending_seat;
    snprintf(e.reason, sizeof e.reason, "%s", reason);
    a->has_pending = false;
    if (!emit(c, &e, a->pending_move, a->pending_len, err))
        return 0;
    a->pending_len = 0;
    memset(a->pending_hash, 0, 32);
    return 1;
}

/* After an engine result: the clock, or the ending. */
static int after_play(struct actx *c, const struct zbc_result *res, int next,
                      struct zbc_err *err)
{
    struct zbc_app *a = c->a;
    switch (res->kind) {
    case ZBC_RESULT_WIN:
        if (res->winner >= a->n_seated)
            return zbc_fail(err, "app %" PRIu64 " engine names winner %u",
                            a->id, res->winner);
        return end_win(c, res->winner, err);
    case ZBC_RESULT_DRAW:
        return end_draw(c, "draw", err);
    case ZBC_RESULT_ONGOING:
        break;
    }
    a->deadline = deadline_from(c);
    a->clock = next >= 0 && next < a->seats ? (uint8_t)next : ZBC_APP_NO_CLOCK;
    return 1;
}

/* ---- applicability ---- */

/* The outcome of one applicability check, private to this file:
 * zbc_apps_check answers with the 1/0 + bool convention
 * (docs/architecture.md, Conventions). */
enum verdict {
    V_ERROR,  /* backend failure or corrupt record: err filled */
    V_NOOP,   /* valid but not applicable: err = the reason */
    V_APPLY,  /* applicable */
};

static enum verdict noop(struct zbc_err *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static enum verdict noop(struct zbc_err *err, const char *fmt, ...)
{
    if (err != NULL) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return V_NOOP;
}

#define MULTI_ZBC "multiplayer apps require a ZBC account"
#define ILLEGAL "illegal move: "

/* An engine's refusal as a no-op reason: "illegal move: <sentence>"
 * (engines whose sentence already starts so are not prefixed twice). */
static const char *illegal(struct zbc_err *why)
{
    if (strncmp(why->msg, ILLEGAL, sizeof ILLEGAL - 1) != 0)
        zbc_fail_prefix(why, "illegal move");
    return why->msg;
}

static enum verdict check_create(struct zbc_state *s,
                                 const struct zbc_genesis *g,
                                 const struct zbc_checked_tx *ct, uint64_t id,
                                 struct zbc_app *a, struct zbc_err *err)
{
    const struct zbc_body_app_create *b = &ct->body.u.create;
    bool found;
    if (!zbc_apps_get(s, id, a, &found, err))
        return V_ERROR;
    if (found)
        return noop(err, "app id %" PRIu64 " already exists", id);
    const struct zbc_engine *eng = zbc_engine_by_type(b->app_type);
    if (eng != NULL && eng->solo != NULL) {
        bool applies;
        if (!zbc_apps_solo_check_create(s, g, ct, &applies, err))
            return V_ERROR;
        return applies ? V_APPLY : V_NOOP;
    }
    if (!zbc_bet_is_solo(b->app_type)) {
        if (ct->tx.sender.type != ZBC_ACCT_ZBC)
            return noop(err, MULTI_ZBC);
        return V_APPLY;
    }
    if (zbc_addr_equal(&ct->tx.sender, &g->fund_account))
        return noop(err, "the apps fund cannot bet against itself");
    struct zbc_bet bet;
    uint64_t max_ret, fund;
    if (!zbc_bet_parse(&bet, b->app_type, b->params, b->params_len, err))
        return V_ERROR;
    struct zbc_err why;
    if (!zbc_bet_max_return(&bet, b->stake, &max_ret, &why))
        return noop(err, "bet refused: %s", why.msg); /* not err: no overlap */
    if (!zbc_ledger_balance(s, &g->fund_account, &fund, err))
        return V_ERROR;
    if ((unsigned __int128)max_ret * 100 > fund)
        return noop(err, "bet refused: its maximum return %" PRIu64
                         " exceeds 1%% of the apps fund (%" PRIu64 ")",
                    max_ret, fund);
    return V_APPLY;
}

/* Common checks of the transactions naming an existing app. */
static enum verdict check_ref(struct zbc_state *s, uint64_t id,
                              struct zbc_app *a, const char *solo_msg,
                              struct zbc_err *err)
{
    bool found;
    if (!zbc_apps_get(s, id, a, &found, err))
        return V_ERROR;
    if (!found)
        return noop(err, "unknown app %" PRIu64, id);
    if (zbc_bet_is_solo(a->type))
        return noop(err, "app %" PRIu64 " is a solo bet: %s", id, solo_msg);
    switch ((enum zbc_app_status)a->status) {
    case ZBC_APP_FINISHED:
        return noop(err, "app %" PRIu64 " is finished", id);
    case ZBC_APP_ABANDONED:
        if (a->end == ZBC_END_EXPIRED)
            return noop(err, "app %" PRIu64 " expired at height %" PRIu32
                             ": nobody filled its seats in time", id,
                        a->ended);
        return noop(err, "app %" PRIu64 " was abandoned", id);
    case ZBC_APP_OPEN:
    case ZBC_APP_ACTIVE:
        break;
    }
    return V_APPLY;
}

static enum verdict check_join(struct zbc_state *s,
                               const struct zbc_checked_tx *ct,
                               uint64_t pending, struct zbc_app *a,
                               struct zbc_err *err)
{
    uint64_t id = ct->body.u.ref.app_id, bal, fee = (uint64_t)ct->tx.fee;
    enum verdict rc = check_ref(s, id, a, "nobody can join it", err);
    if (rc != V_APPLY)
        return rc;
    if (ct->tx.sender.type != ZBC_ACCT_ZBC)
        return noop(err, MULTI_ZBC);
    if (zbc_app_seat_of(a, &ct->tx.sender) >= 0)
        return noop(err, "already seated in app %" PRIu64, id);
    if (a->status != ZBC_APP_OPEN)
        return noop(err, "app %" PRIu64 " is full", id);
    if (a->has_opponent && !zbc_addr_equal(&a->opponent, &ct->tx.sender))
        return noop(err, "app %" PRIu64 " is reserved for its designated "
                         "opponent", id);
    if (a->pot > UINT64_MAX - a->stake)
        return noop(err, "app %" PRIu64 " pot would overflow", id);
    if (!zbc_ledger_balance(s, &ct->tx.sender, &bal, err))
        return V_ERROR;
    unsigned __int128 need = (unsigned __int128)fee + a->stake + pending;
    if (bal < need)
        return noop(err, "insufficient balance: %" PRIu64 " held, %" PRIu64
                         " needed for the fee and the stake of app %" PRIu64,
                    bal, fee + a->stake, id);
    return V_APPLY;
}

/* Seat of the sender in an Active app. */
static enum verdict check_seated_active(const struct zbc_checked_tx *ct,
                                        uint64_t id, const struct zbc_app *a,
                                        int *seat, struct zbc_err *err)
{
    *seat = zbc_app_seat_of(a, &ct->tx.sender);
    if (*seat < 0)
        return noop(err, "sender is not seated in app %" PRIu64, id);
    if (a->status == ZBC_APP_OPEN)
        return noop(err, "app %" PRIu64 " has not started: seats are still "
                         "open", id);
    return V_APPLY;
}

static enum verdict check_move(struct zbc_state *s,
                               const struct zbc_checked_tx *ct,
                               uint64_t pending, struct zbc_app *a,
                               struct zbc_err *err)
{
    const struct zbc_body_app_move *m = &ct->body.u.move;
    uint64_t id = m->app_id;
    int seat;
    enum verdict rc = check_ref(s, id, a, "it takes no moves", err);
    if (rc != V_APPLY)
        return rc;
    rc = check_seated_active(ct, id, a, &seat, err);
    if (rc != V_APPLY)
        return rc;
    if (a->first_pending)
        return noop(err, "first turn pending in app %" PRIu64 ": the first "
                         "seat is drawn at height %" PRIu64, id,
                    (uint64_t)a->joined + 2);
    if (a->has_pending)
        return noop(err, "a move is already pending in app %" PRIu64
                         ": not your turn", id);
    if (a->clock != seat)
        return noop(err, "not your turn in app %" PRIu64, id);
    if (m->move_len == 0)
        return V_APPLY;
    if (m->move_len > ZBC_MOVE_WIRE_MAX)
        return noop(err, "illegal move: %u bytes, longer than the %d any "
                         "game accepts", m->move_len, ZBC_MOVE_WIRE_MAX);
    struct zbc_err why;
    if (!zbc_app_check_move(a, (uint8_t)seat, m->move, m->move_len, &why))
        return noop(err, "%s", illegal(&why));
    const struct zbc_engine *eng = zbc_app_engine(a);
    if (eng != NULL && eng->solo != NULL) {
        bool applies; /* a stake the move adds (blackjack) */
        if (!zbc_apps_solo_check_stake(s, ct, a, pending, &applies, err))
            return V_ERROR;
        return applies ? V_APPLY : V_NOOP;
    }
    return V_APPLY;
}

static enum verdict check_resign(struct zbc_state *s,
                                 const struct zbc_checked_tx *ct,
                                 struct zbc_app *a, struct zbc_err *err)
{
    uint64_t id = ct->body.u.ref.app_id;
    enum verdict rc = check_ref(s, id, a, "it cannot be resigned", err);
    if (rc != V_APPLY)
        return rc;
    if (zbc_app_seat_of(a, &ct->tx.sender) < 0)
        return noop(err, "sender is not seated in app %" PRIu64, id);
    const struct zbc_engine *eng = zbc_app_engine(a);
    if (eng != NULL && eng->solo != NULL)
        return noop(err, "app %" PRIu64 " is a solo game against the apps "
                         "fund: it cannot be resigned (cash out, or let its "
                         "clock settle it)", id);
    return V_APPLY;
}

static enum verdict check_claim(struct zbc_state *s,
                                const struct zbc_checked_tx *ct,
                                uint32_t height, struct zbc_app *a,
                                struct zbc_err *err)
{
    uint64_t id = ct->body.u.ref.app_id;
    int seat;
    enum verdict rc = check_ref(s, id, a, "it has no clock", err);
    if (rc != V_APPLY)
        return rc;
    rc = check_seated_active(ct, id, a, &seat, err);
    if (rc != V_APPLY)
        return rc;
    if (a->clock == ZBC_APP_NO_CLOCK)
        return noop(err, "nobody holds the clock in app %" PRIu64, id);
    if (a->clock == seat)
        return noop(err, "the claimer holds the clock in app %" PRIu64, id);
    uint8_t out;
    if (!zbc_app_out_mask(a, &out, err))
        return V_ERROR;
    if (out >> seat & 1)
        return noop(err, "seat %d is out of app %" PRIu64 ": it cannot claim "
                         "a timeout", seat, id);
    if ((uint64_t)height < a->deadline + 1)
        return noop(err, "deadline not passed: app %" PRIu64 " can be "
                         "claimed from height %" PRIu64, id,
                    a->deadline + 1);
    return V_APPLY;
}

static enum verdict check_with(struct zbc_state *s,
                               const struct zbc_genesis *g,
                               const struct zbc_checked_tx *ct,
                               uint32_t height, uint64_t pending,
                               struct zbc_app *a, struct zbc_err *err)
{
    switch (ct->body.type) {
    case ZBC_TX_APP_CREATE:
        return check_create(s, g, ct, zbc_apps_tx_app_id(ct), a, err);
    case ZBC_TX_APP_JOIN:
        return check_join(s, ct, pending, a, err);
    case ZBC_TX_APP_MOVE:
        return check_move(s, ct, pending, a, err);
    case ZBC_TX_APP_RESIGN:
        return check_resign(s, ct, a, err);
    case ZBC_TX_APP_CLAIM:
        return check_claim(s, ct, height, a, err);
    case ZBC_TX_SEND:
        break;
    }
    zbc_fail(err, "transaction type %u is not an app transaction",
             ct->tx.type);
    return V_ERROR;
}

int zbc_apps_check(struct zbc_state *s, const struct zbc_genesis *g,
                   const struct zbc_checked_tx *ct, uint32_t height,
                   uint64_t pending, bool *applies, struct zbc_err *err)
{
    *applies = false;
    bool crash;
    if (!zbc_crash_check(s, g, ct, height, pending, &crash, applies, err))
        return 0;
    if (crash)
        return 1;
    struct zbc_app *a = malloc(sizeof *a);
    if (a == NULL)
        return zbc_fail(err, "out of memory checking an app transaction");
    enum verdict v = check_with(s, g, ct, height, pending, a, err);
    free(a);
    *applies = v == V_APPLY;
    return v != V_ERROR;
}

int zbc_apps_tx_spend(struct zbc_state *s, const struct zbc_checked_tx *ct,
                      uint64_t *stake, struct zbc_err *err)
{
    *stake = 0;
    if (ct->body.type == ZBC_TX_APP_MOVE) { /* a crash entry's stake */
        if (!zbc_crash_tx_spend(s, ct, stake, err))
            return 0;
        if (*stake > 0)
            return 1;
    }
    if (ct->body.type != ZBC_TX_APP_JOIN && ct->body.type != ZBC_TX_APP_MOVE)
        return 1;
    struct zbc_app *a = malloc(sizeof *a);
    if (a == NULL)
        return zbc_fail(err, "out of memory reading an app");
    bool found;
    int ok = zbc_apps_get(s, zbc_apps_tx_app_id(ct), a, &found, err);
    if (ok && found)
        *stake = ct->body.type == ZBC_TX_APP_JOIN ? a->stake
                                                  : zbc_apps_solo_move_stake(a, ct);
    free(a);
    return ok;
}

/* ---- effects ---- */

static int apply_create(struct actx *c, const struct zbc_checked_tx *ct,
                        struct zbc_err *err)
{
    const struct zbc_body_app_create *b = &ct->body.u.create;
    struct zbc_app *a = c->a;
    memset(a, 0, sizeof *a);
    a->id = zbc_apps_tx_app_id(ct);
    a->type = b->app_type;
    a->status = ZBC_APP_OPEN;
    a->seats = b->seats;
    a->clock = ZBC_APP_NO_CLOCK;
    a->winner = ZBC_APP_NO_SEAT;
    a->loser = ZBC_APP_NO_SEAT;
    a->stake = b->stake;
    a->created = c->height;
    a->has_opponent = b->has_opponent;
    if (b->has_opponent)
        a->opponent = b->opponent;
    a->params_len = b->params_len;
    memcpy(a->params, b->params, b->params_len);
    if (!zbc_ledger_debit(c->s, &ct->tx.sender, b->stake, err))
        return 0;
    a->pot = b->stake;
    a->seat[0] = ct->tx.sender;
    a->n_seated = 1;
    struct zbc_event e;
    ev_init(&e, ZBC_EVENT_APP_CREATE, c);
    e.a = ct->tx.sender;
    e.seat = 0;
    e.amount = b->stake;
    if (!emit(c, &e, NULL, 0, err))
        return 0;
    const struct zbc_engine *eng = zbc_app_engine(a);
    if (eng != NULL && eng->solo != NULL)
        return zbc_apps_solo_start(c, err);
    if (!zbc_bet_is_solo(a->type)) {
        /* an Open app nobody fills expires (never when the height would
         * pass u32: docs/protocol-apps.md §2) */
        if (c->height > UINT32_MAX - c->g->open_deadline)
            return 1;
        return sched_add(c->s, c->height + c->g->open_deadline,
                         ZBC_SCHED_EXPIRE, a->id, err);
    }
    /* solo bet: escrow what a win could need beyond the stake */
    struct zbc_bet bet;
    uint64_t max_ret;
    if (!zbc_bet_parse(&bet, a->type, a->params, a->params_len, err) ||
        !zbc_bet_max_return(&bet, a->stake, &max_ret, err))
        return 0;
    a->escrow = max_ret > a->stake ? max_ret - a->stake : 0;
    if (a->escrow > UINT64_MAX - a->pot)
        return zbc_fail(err, "bet escrow overflows the pot");
    if (a->escrow > 0 &&
        !zbc_ledger_debit(c->s, &c->g->fund_account, a->escrow, err))
        return 0;
    a->pot += a->escrow;
    a->status = ZBC_APP_ACTIVE;
    a->joined = c->height;
    ev_init(&e, ZBC_EVENT_APP_ESCROW, c);
    e.a = c->g->fund_account;
    e.amount = a->escrow;
    if (!emit(c, &e, NULL, 0, err))
        return 0;
    if (c->height == UINT32_MAX)
        return zbc_fail(err, "the chain is at its last height");
    return sched_add(c->s, c->height + 1, ZBC_SCHED_BET, a->id, err);
}

static int apply_join(struct actx *c, const struct zbc_checked_tx *ct,
                      struct zbc_err *err)
{
    struct zbc_app *a = c->a;
    if (!zbc_ledger_debit(c->s, &ct->tx.sender, a->stake, err))
        return 0;
    a->pot += a->stake;
    uint8_t seat = a->n_seated++;
    a->seat[seat] = ct->tx.sender;
    struct zbc_event e;
    ev_init(&e, ZBC_EVENT_APP_JOIN, c);
    e.a = ct->tx.sender;
    e.seat = seat;
    e.amount = a->stake;
    if (!emit(c, &e, NULL, 0, err))
        return 0;
    if (a->n_seated < a->seats)
        return 1;
    const struct zbc_engine *eng = zbc_app_engine(a);
    if (eng == NULL)
        return zbc_fail(err, "app %" PRIu64 " has no engine", a->id);
    a->status = ZBC_APP_ACTIVE;
    a->joined = c->height;
    a->deadline = deadline_from(c);
    if (eng->draws_first) {
        a->first_pending = true;
        if (c->height > UINT32_MAX - 2)
            return zbc_fail(err, "the chain is at its last height");
        return sched_add(c->s, c->height + 2, ZBC_SCHED_ACTIVATE, a->id, err);
    }
    /* the engine fixes its own opening (battleship): start now */
    struct zbc_err why;
    int next;
    if (!zbc_app_start(a, 0, NULL, &why))
        return end_draw(c, why.msg, err);
    if (!zbc_app_turn(a, &next, err))
        return 0;
    a->clock = next >= 0 && next < a->seats ? (uint8_t)next : ZBC_APP_NO_CLOCK;
    ev_init(&e, ZBC_EVENT_APP_ACTIVATE, c);
    e.seat = a->clock;
    e.amount = a->deadline;
    return emit(c, &e, NULL, 0, err);
}

/* Event data of a move: rolls used (count u32 LE | the first bytes). */
static void roll_data(struct zbc_event *e, const struct zbc_roll *used)
{
    uint64_t n = used->used > UINT32_MAX ? UINT32_MAX : used->used;
    zbc_put_le32(e->data, n);
    struct zbc_roll again;
    size_t k = 0;
    zbc_roll_init(&again, used->seed, used->tag, used->tag_len);
    while (k < n && k < ZBC_EVENT_DATA_MAX - 4) {
        if (!zbc_roll_byte(&again, &e->data[4 + k]))
            break;
        k++;
    }
    e->data_len = (uint8_t)(4 + k);
}

/* The events and the clock of a move the engine applied (res, next). */
static int played(struct actx *c, uint8_t seat, const uint8_t *move,
                  size_t len, const struct zbc_roll *rolls,
                  const uint8_t *tx_hash, const struct zbc_result *res,
                  int next, struct zbc_err *err)
{
    struct zbc_app *a = c->a;
    a->moves++;
    struct zbc_event e;
    ev_init(&e, ZBC_EVENT_APP_MOVE, c);
    memcpy(e.tx_hash, tx_hash, 32);
    e.a = a->seat[seat];
    e.seat = seat;
    e.amount = res->kind == ZBC_RESULT_ONGOING ? deadline_from(c) : 0;
    if (rolls != NULL)
        roll_data(&e, rolls);
    return emit(c, &e, move, len, err) && after_play(c, res, next, err);
}

static int play(struct actx *c, uint8_t seat, const uint8_t *move,
                size_t len, const uint8_t *tx_hash, struct zbc_err *err)
{
    struct zbc_result res;
    int next;
    return zbc_app_play(c->a, seat, move, len, NULL, &res, &next, err) &&
           played(c, seat, move, len, NULL, tx_hash, &res, next, err);
}

static int apply_move(struct actx *c, const struct zbc_checked_tx *ct,
                      struct zbc_err *err)
{
    const struct zbc_body_app_move *m = &ct->body.u.move;
    struct zbc_app *a = c->a;
    uint8_t seat = (uint8_t)zbc_app_seat_of(a, &ct->tx.sender);
    struct zbc_event e;
    if (m->move_len == 0) {
        a->deadline = deadline_from(c);
        ev_init(&e, ZBC_EVENT_APP_KEEPALIVE, c);
        e.a = ct->tx.sender;
        e.seat = seat;
        e.amount = a->deadline;
        if (!emit(c, &e, NULL, 0, err))
            return 0;
        const struct zbc_engine *se = zbc_app_engine(a);
        return se == NULL || se->solo == NULL || zbc_apps_solo_arm(c, err);
    }
    const struct zbc_engine *eng = zbc_app_engine(a);
    if (eng != NULL && eng->solo != NULL)
        return zbc_apps_solo_move(c, ct, err);
    if (eng != NULL && eng->dice) {
        a->has_pending = true;
        a->pending_seat = seat;
        memcpy(a->pending_hash, ct->hash, 32);
        a->pending_len = m->move_len;
        memcpy(a->pending_move, m->move, m->move_len);
        a->clock = ZBC_APP_NO_CLOCK;
        ev_init(&e, ZBC_EVENT_APP_PENDING, c);
        e.a = ct->tx.sender;
        e.seat = seat;
        if (!emit(c, &e, m->move, m->move_len, err))
            return 0;
        if (c->height == UINT32_MAX)
            return zbc_fail(err, "the chain is at its last height");
        return sched_add(c->s, c->height + 1, ZBC_SCHED_MOVE, a->id, err);
    }
    return play(c, seat, m->move, m->move_len, ct->hash, err);
}

static int apply_resign(struct actx *c, const struct zbc_checked_tx *ct,
                        struct zbc_err *err)
{
    struct zbc_app *a = c->a;
    uint8_t seat = (uint8_t)zbc_app_seat_of(a, &ct->tx.sender);
    struct zbc_event e;
    if (a->status == ZBC_APP_OPEN) {
        /* leave with a full refund; later seats move down */
        a->pot -= a->stake;
        if (!zbc_ledger_credit(c->s, &ct->tx.sender, a->stake, err))
            return 0;
        ev_init(&e, ZBC_EVENT_APP_LEAVE, c);
        e.a = ct->tx.sender;
        e.seat = seat;
        e.amount = a->stake;
        for (uint8_t i = seat; i + 1 < a->n_seated; i++)
            a->seat[i] = a->seat[i + 1];
        a->n_seated--;
        memset(&a->seat[a->n_seated], 0, sizeof a->seat[0]);
        if (!emit(c, &e, NULL, 0, err))
            return 0;
        if (a->n_seated > 0)
            return 1;
        return finish(c, ZBC_END_ABANDONED, ZBC_APP_NO_SEAT, ZBC_APP_NO_SEAT,
                      "abandoned", err);
    }
    uint8_t out;
    if (!zbc_app_out_mask(a, &out, err))
        return 0;
    ev_init(&e, ZBC_EVENT_APP_RESIGN, c);
    e.a = ct->tx.sender;
    e.seat = seat;
    if (out >> seat & 1) {
        /* a seat out of play only leaves it: the game goes on */
        snprintf(e.reason, sizeof e.reason, "%s", "out of play: left");
        return emit(c, &e, NULL, 0, err);
    }
    if (!emit(c, &e, NULL, 0, err) ||
        !discard_pending(c, "the app ended: a seat resigned", err))
        return 0;
    return end_split(c, seat, ZBC_END_RESIGN, "resign", err);
}

static int apply_claim(struct actx *c, const struct zbc_checked_tx *ct,
                       struct zbc_err *err)
{
    struct zbc_app *a = c->a;
    struct zbc_event e;
    ev_init(&e, ZBC_EVENT_APP_CLAIM, c);
    e.a = ct->tx.sender;
    e.seat = (uint8_t)zbc_app_seat_of(a, &ct->tx.sender);
    e.amount = a->deadline;
    if (!emit(c, &e, NULL, 0, err))
        return 0;
    return end_split(c, a->clock, ZBC_END_TIMEOUT, "timeout", err);
}

static int apply_with(struct actx *c, const struct zbc_checked_tx *ct,
                      struct zbc_err *err)
{
    bool found;
    if (ct->body.type != ZBC_TX_APP_CREATE) {
        if (!zbc_apps_get(c->s, zbc_apps_tx_app_id(ct), c->a, &found, err))
            return 0;
        if (!found)
            return zbc_fail(err, "unknown app %" PRIu64, zbc_apps_tx_app_id(ct));
    }
    int ok = 0;
    switch (ct->body.type) {
    case ZBC_TX_APP_CREATE:
        ok = apply_create(c, ct, err);
        break;
    case ZBC_TX_APP_JOIN:
        ok = apply_join(c, ct, err);
        break;
    case ZBC_TX_APP_MOVE:
        ok = apply_move(c, ct, err);
        break;
    case ZBC_TX_APP_RESIGN:
        ok = apply_resign(c, ct, err);
        break;
    case ZBC_TX_APP_CLAIM:
        ok = apply_claim(c, ct, err);
        break;
    case ZBC_TX_SEND:
        return zbc_fail(err, "SendZBC is not an app transaction");
    }
    return ok && app_put(c->s, c->a, err);
}

int zbc_apps_apply_tx(struct zbc_state *s, const struct zbc_genesis *g,
                      const struct zbc_checked_tx *ct, uint32_t index,
                      uint32_t height, struct zbc_events *ev,
                      struct zbc_err *err)
{
    struct actx c = {s, g, ev, NULL, height, index, ct->hash};
    c.a = malloc(sizeof *c.a);
    if (c.a == NULL)
        return zbc_fail(err, "out of memory applying an app transaction");
    bool crash;
    int ok = zbc_crash_apply_tx(&c, ct, &crash, err);
    if (ok && !crash)
        ok = apply_with(&c, ct, err);
    free(c.a);
    return ok;
}

/* ---- start of block ---- */

static int do_activate(struct actx *c, const uint8_t seed[32],
                       struct zbc_err *err)
{
    struct zbc_app *a = c->a;
    if (a->status != ZBC_APP_ACTIVE || !a->first_pending)
        return 1; /* ended meanwhile (resign) */
    uint8_t first = zbc_app_first_seat(seed, a->id, a->seats);
    uint8_t tag[8];
    zbc_put_le64(tag, a->id);
    struct zbc_roll rolls;
    zbc_roll_init(&rolls, seed, tag, 8);
    a->first_pending = false;
    struct zbc_err why;
    int next;
    if (!zbc_app_start(a, first, &rolls, &why))
        return end_draw(c, why.msg, err) && app_put(c->s, a, err);
    if (!zbc_app_turn(a, &next, err))
        return 0;
    a->clock = next >= 0 && next < a->seats ? (uint8_t)next : ZBC_APP_NO_CLOCK;
    struct zbc_event e;
    ev_init(&e, ZBC_EVENT_APP_ACTIVATE, c);
    e.seat = first;
    e.amount = a->deadline;
    if (zbc_app_engine(a)->start_rolls)
        roll_data(&e, &rolls);
    return emit(c, &e, NULL, 0, err) && app_put(c->s, a, err);
}

static int do_move(struct actx *c, const uint8_t seed[32],
                   struct zbc_err *err)
{
    struct zbc_app *a = c->a;
    if (a->status != ZBC_APP_ACTIVE || !a->has_pending)
        return 1; /* discarded when the app ended */
    const struct zbc_engine *eng = zbc_app_engine(a);
    if (eng != NULL && eng->solo != NULL)
        return zbc_apps_solo_resolve(c, seed, err);
    uint8_t seat = a->pending_seat, hash[32], move[ZBC_MOVE_WIRE_MAX];
    uint16_t len = a->pending_len;
    memcpy(hash, a->pending_hash, 32);
    memcpy(move, a->pending_move, len);
    struct zbc_roll rolls;
    zbc_roll_init(&rolls, seed, hash, 32);
    struct zbc_err why;
    struct zbc_result res;
    int next;
    /* zbc_app_play changes the app only when the engine applies the move.
     * An engine that refuses here a move its check_move accepts is
     * inconsistent: the move is discarded like an illegal one, never
     * left to fail the block (docs/protocol-apps.md §5). */
    if (!zbc_app_check_move(a, seat, move, len, &why))
        (void)illegal(&why);
    else if (!zbc_app_play(a, seat, move, len, &rolls, &res, &next, &why))
        zbc_fail_prefix(&why, "the engine refused the move when it was "
                              "resolved");
    else {
        a->has_pending = false;
        a->pending_len = 0;
        memset(a->pending_hash, 0, 32);
        /* the tx hash of the move names the events of its application */
        c->tx_hash = hash;
        int ok = played(c, seat, move, len, &rolls, hash, &res, next, err);
        c->tx_hash = NULL;
        return ok && app_put(c->s, a, err);
    }
    if (!discard_pending(c, why.msg, err) || !zbc_app_turn(a, &next, err))
        return 0;
    a->deadline = deadline_from(c);
    a->clock = next >= 0 && next < a->seats ? (uint8_t)next
                                             : ZBC_APP_NO_CLOCK;
    return app_put(c->s, a, err);
}

static int do_bet(struct actx *c, const uint8_t seed[32], struct zbc_err *err)
{
    struct zbc_app *a = c->a;
    if (a->status != ZBC_APP_ACTIVE)
        return 1;
    struct zbc_bet bet;
    struct zbc_bet_outcome out;
    char server[65];
    zbc_fair_server_seed(server, seed);
    if (!zbc_bet_parse(&bet, a->type, a->params, a->params_len, err))
        return 0;
    if (!zbc_bet_resolve(&bet, a->stake, server, a->id, &out, err))
        return 0;
    struct zbc_event e;
    ev_init(&e, ZBC_EVENT_BET_SETTLE, c);
    e.a = a->seat[0];
    e.seat = 0;
    e.amount = out.returns;
    zbc_put_le32(e.data, out.u);
    zbc_put_le32(e.data + 4, out.value);
    e.data[8] = out.win ? 1 : 0;
    e.data_len = 9;
    snprintf(e.reason, sizeof e.reason, "%s", out.win ? "win" : "loss");
    if (!emit(c, &e, NULL, 0, err))
        return 0;
    if (out.returns > a->pot)
        return zbc_fail(err, "bet %" PRIu64 " returns more than its escrow",
                        a->id);
    if (out.returns > 0 && !pay(c, 0, &a->seat[0], out.returns, "bet", err))
        return 0;
    if (!pay(c, ZBC_EVENT_NO_SEAT, &c->g->fund_account, a->pot, "escrow",
             err))
        return 0;
    a->escrow = 0;
    return finish(c, ZBC_END_BET, out.win ? 0 : ZBC_APP_NO_SEAT,
                  ZBC_APP_NO_SEAT, out.win ? "bet won" : "bet lost", err) &&
           app_put(c->s, a, err);
}

/* An Open app at its open deadline: every seated stake back, no rake. */
static int do_expire(struct actx *c, struct zbc_err *err)
{
    struct zbc_app *a = c->a;
    if (a->status != ZBC_APP_OPEN)
        return 1; /* filled or abandoned meanwhile */
    for (uint8_t i = 0; i < a->n_seated; i++)
        if (!pay(c, i, &a->seat[i], a->stake, "expired", err))
            return 0;
    return finish(c, ZBC_END_EXPIRED, ZBC_APP_NO_SEAT, ZBC_APP_NO_SEAT,
                  "expired", err) &&
           app_put(c->s, a, err);
}

static int begin_item(struct actx *c, const struct zbc_sched_item *it,
                      const uint8_t seed[32], struct zbc_err *err)
{
    bool found;
    if (!zbc_apps_get(c->s, it->app_id, c->a, &found, err))
        return 0;
    if (!found)
        return zbc_fail(err, "scheduled app %" PRIu64 " does not exist",
                        it->app_id);
    switch ((enum zbc_sched_kind)it->kind) {
    case ZBC_SCHED_ACTIVATE:
        return do_activate(c, seed, err);
    case ZBC_SCHED_MOVE:
        return do_move(c, seed, err);
    case ZBC_SCHED_BET:
        return do_bet(c, seed, err);
    case ZBC_SCHED_EXPIRE:
        return do_expire(c, err);
    case ZBC_SCHED_CRASH:
        return zbc_crash_settle(c, seed, err);
    case ZBC_SCHED_SOLO_CLOCK:
        return zbc_apps_solo_clock(c, seed, err);
    }
    return zbc_fail(err, "schedule item kind %u is unknown", it->kind);
}

int zbc_apps_begin_block(struct zbc_state *s, const struct zbc_genesis *g,
                         uint32_t height, const uint8_t seed[32],
                         struct zbc_events *ev, struct zbc_err *err)
{
    uint32_t n;
    if (!sched_count(s, height, &n, err))
        return 0;
    if (n == 0)
        return 1;
    struct actx c = {s, g, ev, NULL, height, ZBC_EVENT_NO_TX, NULL};
    c.a = malloc(sizeof *c.a);
    if (c.a == NULL)
        return zbc_fail(err, "out of memory at the start of a block");
    int ok = 1;
    for (uint32_t i = 0; ok && i < n; i++) {
        struct zbc_sched_item it;
        uint8_t key[8];
        zbc_put_le32(key, height);
        zbc_put_le32(key + 4, i);
        ok = sched_item(s, height, i, &it, err) &&
             zbc_state_del(s, ZBC_TABLE_PENDING, key, 8, err) &&
             begin_item(&c, &it, seed, err);
    }
    free(c.a);
    uint8_t key[4];
    zbc_put_le32(key, height);
    return ok && zbc_state_del(s, ZBC_TABLE_PENDING, key, 4, err);
}

/* ---- money invariant ---- */

struct pot_scan {
    uint64_t sum;
    struct zbc_app *a;
};

static int add_pot(void *arg, const uint8_t *key, size_t klen,
                   const uint8_t *val, size_t vlen, struct zbc_err *err)
{
    struct pot_scan *p = arg;
    (void)key;
    if (klen != 8)
        return zbc_fail(err, "app key of %zu bytes is not 8", klen);
    if (!zbc_app_decode(p->a, val, vlen, err))
        return 0;
    if (p->sum > UINT64_MAX - p->a->pot)
        return zbc_fail(err, "app pots overflow u64");
    p->sum += p->a->pot;
    return 1;
}

int zbc_apps_sum_pots(struct zbc_state *s, uint64_t *sum, struct zbc_err *err)
{
    if (s->kv.ops->each == NULL)
        return zbc_fail(err, "the state backend cannot scan its tables");
    struct pot_scan p = {0, malloc(sizeof(struct zbc_app))};
    if (p.a == NULL)
        return zbc_fail(err, "out of memory scanning apps");
    int ok = s->kv.ops->each(s->kv.ctx, ZBC_TABLE_APPS, add_pot, &p, err);
    free(p.a);
    *sum = p.sum;
    return ok;
}

/* ---- shared with the round modules (consensus/apps_internal.h) ---- */

void zbc_apps_ev_init(struct zbc_event *e, enum zbc_event_kind kind,
                      const struct actx *c)
{
    ev_init(e, kind, c);
}

int zbc_apps_emit(struct actx *c, const struct zbc_event *e,
                  const uint8_t *move, size_t move_len, struct zbc_err *err)
{
    return emit(c, e, move, move_len, err);
}

int zbc_apps_finish(struct actx *c, enum zbc_app_end how, uint8_t winner,
                    uint8_t loser, const char *reason, struct zbc_err *err)
{
    return finish(c, how, winner, loser, reason, err);
}

int zbc_apps_pay(struct actx *c, uint8_t seat, const struct zbc_addr *to,
                 uint64_t amount, const char *why, struct zbc_err *err)
{
    return pay(c, seat, to, amount, why, err);
}

int zbc_apps_sched_add(struct zbc_state *s, uint32_t height, uint8_t kind,
                       uint64_t id, struct zbc_err *err)
{
    return sched_add(s, height, kind, id, err);
}

int zbc_apps_put(struct zbc_state *s, const struct zbc_app *a,
                 struct zbc_err *err)
{
    return app_put(s, a, err);
}

int zbc_apps_discard_pending(struct actx *c, const char *reason,
                             struct zbc_err *err)
{
    return discard_pending(c, reason, err);
}
