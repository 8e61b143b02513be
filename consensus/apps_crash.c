/* Crash rounds on chain (apps_crash.h, docs/protocol-apps.md §12). */
#include "consensus/apps_crash.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "consensus/apps_internal.h"
#include "consensus/ledger.h"
#include "crypto/bytes.h"

/* ---- records ---- */

size_t zbc_crash_round_encode(const struct zbc_crash_round *r,
                              uint8_t out[ZBC_CRASH_ROUND_BYTES])
{
    out[0] = ZBC_CRASH_ROUND_VERSION;
    zbc_put_le32(out + 1, r->close);
    zbc_put_le16(out + 5, r->n);
    out[7] = r->settled ? 1 : 0;
    zbc_put_le32(out + 8, r->point);
    zbc_put_le32(out + 12, r->u);
    zbc_put_le64(out + 16, r->paid);
    zbc_put_le16(out + 24, r->winners);
    zbc_put_le16(out + 26, 0);
    return ZBC_CRASH_ROUND_BYTES;
}

int zbc_crash_round_decode(struct zbc_crash_round *r, const uint8_t *in,
                           size_t len, struct zbc_err *err)
{
    memset(r, 0, sizeof *r);
    if (len != ZBC_CRASH_ROUND_BYTES)
        return zbc_fail(err, "crash round record of %zu bytes, must be %d",
                        len, ZBC_CRASH_ROUND_BYTES);
    if (in[0] != ZBC_CRASH_ROUND_VERSION)
        return zbc_fail(err, "crash round record version %u is unknown",
                        in[0]);
    r->close = zbc_get_le32(in + 1);
    r->n = zbc_get_le16(in + 5);
    r->settled = in[7] == 1;
    r->point = zbc_get_le32(in + 8);
    r->u = zbc_get_le32(in + 12);
    r->paid = zbc_get_le64(in + 16);
    r->winners = zbc_get_le16(in + 24);
    if (in[7] > 1)
        return zbc_fail(err, "crash round record settled flag %u is not 0 "
                             "or 1", in[7]);
    if (r->n > ZBC_CRASH_ENTRIES_MAX)
        return zbc_fail(err, "crash round record holds %u entries, at most "
                             "%d", r->n, ZBC_CRASH_ENTRIES_MAX);
    if (r->winners > r->n)
        return zbc_fail(err, "crash round record has %u winners among %u "
                             "entries", r->winners, r->n);
    if (!r->settled && (r->point || r->u || r->paid || r->winners))
        return zbc_fail(err, "crash round record carries a result before "
                             "it is settled");
    if (zbc_get_le16(in + 26) != 0)
        return zbc_fail(err, "crash round record reserved bytes are not 0");
    return 1;
}

size_t zbc_crash_entry_encode(const struct zbc_crash_entry *e,
                              uint8_t out[ZBC_CRASH_ENTRY_RECORD_MAX])
{
    zbc_put_le32(out, e->height);
    zbc_put_le64(out + 4, e->stake);
    zbc_put_le32(out + 12, e->target);
    memcpy(out + 16, e->tx_hash, 32);
    return 48 + zbc_addr_write(out + 48, &e->who);
}

int zbc_crash_entry_decode(struct zbc_crash_entry *e, const uint8_t *in,
                           size_t len, struct zbc_err *err)
{
    memset(e, 0, sizeof *e);
    size_t used;
    if (len < 48)
        return zbc_fail(err, "crash entry record of %zu bytes is truncated",
                        len);
    e->height = zbc_get_le32(in);
    e->stake = zbc_get_le64(in + 4);
    e->target = zbc_get_le32(in + 12);
    memcpy(e->tx_hash, in + 16, 32);
    if (!zbc_addr_read(&e->who, in + 48, len - 48, &used, err))
        return zbc_fail_prefix(err, "crash entry record");
    if (used != len - 48)
        return zbc_fail(err, "crash entry record has %zu trailing bytes",
                        len - 48 - used);
    uint64_t r;
    if (e->stake == 0 || e->target < ZBC_CRASH_TARGET_MIN ||
        !zbc_crash_max_return(e->stake, e->target, &r, err))
        return zbc_fail(err, "crash entry record stake %" PRIu64
                             " / target %" PRIu32 " are not an entry",
                        e->stake, e->target);
    return 1;
}

static void round_key(uint8_t key[8], uint64_t id)
{
    zbc_put_le64(key, id);
}

static void entry_key(uint8_t key[10], uint64_t id, uint16_t i)
{
    zbc_put_le64(key, id);
    zbc_put_le16(key + 8, i);
}

int zbc_crash_round_get(struct zbc_state *s, uint64_t id,
                        struct zbc_crash_round *r, bool *found,
                        struct zbc_err *err)
{
    uint8_t key[8], v[ZBC_CRASH_ROUND_BYTES + 1];
    size_t vlen;
    round_key(key, id);
    if (!zbc_state_get(s, ZBC_TABLE_CRASH, key, 8, v, sizeof v, &vlen, found,
                       err))
        return 0;
    return !*found || zbc_crash_round_decode(r, v, vlen, err);
}

int zbc_crash_entry_get(struct zbc_state *s, uint64_t id, uint16_t i,
                        struct zbc_crash_entry *e, bool *found,
                        struct zbc_err *err)
{
    uint8_t key[10], v[ZBC_CRASH_ENTRY_RECORD_MAX];
    size_t vlen;
    entry_key(key, id, i);
    if (!zbc_state_get(s, ZBC_TABLE_CRASH, key, 10, v, sizeof v, &vlen, found,
                       err))
        return 0;
    return !*found || zbc_crash_entry_decode(e, v, vlen, err);
}

static int round_put(struct zbc_state *s, uint64_t id,
                     const struct zbc_crash_round *r, struct zbc_err *err)
{
    uint8_t key[8], v[ZBC_CRASH_ROUND_BYTES];
    round_key(key, id);
    size_t n = zbc_crash_round_encode(r, v);
    return zbc_state_put(s, ZBC_TABLE_CRASH, key, 8, v, n, err);
}

/* ---- applicability ---- */

/* A no-op: *applies stays false, err = the reason; returns 1. */
static int refuse(struct zbc_err *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int refuse(struct zbc_err *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return 1;
}

/* The 1 % rule against the fund balance at this point of the block. */
static int fund_rule(struct zbc_state *s, const struct zbc_genesis *g,
                     uint64_t max_ret, bool *ok, struct zbc_err *err)
{
    uint64_t fund;
    if (!zbc_ledger_balance(s, &g->fund_account, &fund, err))
        return 0;
    *ok = (unsigned __int128)max_ret * 100 <= fund;
    if (!*ok)
        snprintf(err->msg, sizeof err->msg,
                 "entry refused: its maximum return %" PRIu64
                 " exceeds 1%% of the apps fund (%" PRIu64 ")",
                 max_ret, fund);
    return 1;
}

static int check_create(struct zbc_state *s, const struct zbc_genesis *g,
                        const struct zbc_checked_tx *ct, uint32_t height,
                        bool *applies, struct zbc_err *err)
{
    const struct zbc_body_app_create *b = &ct->body.u.create;
    uint64_t id = zbc_apps_tx_app_id(ct), max_ret = 0;
    struct zbc_crash_params p;
    struct zbc_app *a = malloc(sizeof *a);
    if (a == NULL)
        return zbc_fail(err, "out of memory checking a crash round");
    bool found;
    int ok = zbc_apps_get(s, id, a, &found, err);
    free(a);
    if (!ok)
        return 0;
    if (found)
        return refuse(err, "app id %" PRIu64 " already exists", id);
    if (!zbc_crash_parse(&p, b->params, b->params_len, err))
        return 0; /* stateless rule: cannot happen for a valid tx */
    if ((uint64_t)height + p.window + 1 > UINT32_MAX)
        return refuse(err, "crash round refused: its close would pass the "
                           "last height");
    struct zbc_err why;
    if (!zbc_crash_check_stake(&p, b->stake, &why))
        return refuse(err, "crash round refused: %s", why.msg);
    if (b->stake == 0) {
        *applies = true;
        return 1;
    }
    if (zbc_addr_equal(&ct->tx.sender, &g->fund_account))
        return refuse(err, "the apps fund cannot bet against itself");
    if (!zbc_crash_max_return(b->stake, p.target, &max_ret, err))
        return 0;
    return fund_rule(s, g, max_ret, applies, err);
}

static int check_entry(struct zbc_state *s, const struct zbc_genesis *g,
                       const struct zbc_checked_tx *ct, uint32_t height,
                       uint64_t pending, const struct zbc_app *a,
                       bool *applies, struct zbc_err *err)
{
    const struct zbc_body_app_move *m = &ct->body.u.move;
    uint64_t id = a->id, stake, max_ret, bal;
    uint32_t target;
    struct zbc_crash_round r;
    bool found;
    if (a->status != ZBC_APP_ACTIVE)
        return refuse(err, "crash round %" PRIu64 " is settled", id);
    if (!zbc_crash_round_get(s, id, &r, &found, err))
        return 0;
    if (!found)
        return zbc_fail(err, "crash round %" PRIu64 " has no round record",
                        id);
    if (height > r.close)
        return refuse(err, "crash round %" PRIu64 " closed at height %" PRIu32
                           ": it took entries until then", id, r.close);
    if (r.n >= ZBC_CRASH_ENTRIES_MAX)
        return refuse(err, "crash round %" PRIu64 " is full: %d entries", id,
                      ZBC_CRASH_ENTRIES_MAX);
    if (zbc_addr_equal(&ct->tx.sender, &g->fund_account))
        return refuse(err, "the apps fund cannot bet against itself");
    struct zbc_err why;
    if (!zbc_crash_parse_entry(m->move, m->move_len, &stake, &target, &why))
        return refuse(err, "%s", why.msg);
    if (!zbc_crash_max_return(stake, target, &max_ret, err))
        return 0;
    if (a->pot > UINT64_MAX - max_ret)
        return refuse(err, "crash round %" PRIu64 " pot would overflow", id);
    bool fund_ok;
    if (!fund_rule(s, g, max_ret, &fund_ok, err))
        return 0;
    if (!fund_ok)
        return 1; /* err holds the reason */
    if (!zbc_ledger_balance(s, &ct->tx.sender, &bal, err))
        return 0;
    unsigned __int128 need = (unsigned __int128)(uint64_t)ct->tx.fee + stake +
                             pending;
    if (bal < need)
        return refuse(err, "insufficient balance: %" PRIu64 " held, %" PRIu64
                           " needed for the fee and the stake of crash round %"
                           PRIu64, bal, (uint64_t)ct->tx.fee + stake, id);
    *applies = true;
    return 1;
}

/* Loads the app a transaction names when it is a crash round. */
static int load_round_app(struct zbc_state *s, const struct zbc_checked_tx *ct,
                          struct zbc_app *a, bool *mine, struct zbc_err *err)
{
    bool found;
    *mine = false;
    if (ct->body.type == ZBC_TX_SEND || ct->body.type == ZBC_TX_APP_CREATE)
        return 1;
    if (!zbc_apps_get(s, zbc_apps_tx_app_id(ct), a, &found, err))
        return 0;
    *mine = found && a->type == ZBC_CRASH_TYPE;
    return 1;
}

int zbc_crash_check(struct zbc_state *s, const struct zbc_genesis *g,
                    const struct zbc_checked_tx *ct, uint32_t height,
                    uint64_t pending, bool *mine, bool *applies,
                    struct zbc_err *err)
{
    *applies = false;
    if (ct->body.type == ZBC_TX_APP_CREATE) {
        *mine = ct->body.u.create.app_type == ZBC_CRASH_TYPE;
        return !*mine || check_create(s, g, ct, height, applies, err);
    }
    struct zbc_app *a = malloc(sizeof *a);
    if (a == NULL)
        return zbc_fail(err, "out of memory checking a crash round");
    int ok = load_round_app(s, ct, a, mine, err);
    uint64_t id = zbc_apps_tx_app_id(ct);
    if (ok && *mine) {
        switch (ct->body.type) {
        case ZBC_TX_APP_MOVE:
            ok = check_entry(s, g, ct, height, pending, a, applies, err);
            break;
        case ZBC_TX_APP_JOIN:
            ok = refuse(err, "app %" PRIu64 " is a crash round: enter it with "
                             "an AppMove carrying stake and target (zbc crash "
                             "join)", id);
            break;
        case ZBC_TX_APP_RESIGN:
            ok = refuse(err, "app %" PRIu64 " is a crash round: an entry "
                             "cannot be withdrawn", id);
            break;
        case ZBC_TX_APP_CLAIM:
            ok = refuse(err, "app %" PRIu64 " is a crash round: it has no "
                             "clock", id);
            break;
        case ZBC_TX_APP_CREATE:
        case ZBC_TX_SEND:
            break;
        }
    }
    free(a);
    return ok;
}

int zbc_crash_tx_spend(struct zbc_state *s, const struct zbc_checked_tx *ct,
                       uint64_t *stake, struct zbc_err *err)
{
    *stake = 0;
    struct zbc_app *a = malloc(sizeof *a);
    if (a == NULL)
        return zbc_fail(err, "out of memory reading a crash round");
    bool mine;
    uint32_t target;
    struct zbc_err why;
    int ok = load_round_app(s, ct, a, &mine, err);
    if (ok && mine && ct->body.type == ZBC_TX_APP_MOVE &&
        !zbc_crash_parse_entry(ct->body.u.move.move,
                               ct->body.u.move.move_len, stake, &target,
                               &why))
        *stake = 0; /* not an entry: refused by zbc_crash_check */
    free(a);
    return ok;
}

/* ---- effects ---- */

/* One entry: stake sender -> pot, escrow fund -> pot, the entry record,
 * events app_join (seat 0xff, amount = stake, data = index u16 LE |
 * target u32 LE | maximum return u64 LE) and app_escrow. */
static int add_entry(struct actx *c, struct zbc_crash_round *r,
                     const struct zbc_addr *who, uint64_t stake,
                     uint32_t target, const uint8_t *move, size_t move_len,
                     struct zbc_err *err)
{
    struct zbc_app *a = c->a;
    uint64_t max_ret;
    if (r->n >= ZBC_CRASH_ENTRIES_MAX)
        return zbc_fail(err, "crash round %" PRIu64 " is full", a->id);
    if (!zbc_crash_max_return(stake, target, &max_ret, err))
        return 0;
    uint64_t escrow = max_ret - stake; /* target >= 101: max_ret >= stake */
    if (max_ret < stake || a->pot > UINT64_MAX - max_ret ||
        a->escrow > UINT64_MAX - escrow)
        return zbc_fail(err, "crash round %" PRIu64 " pot overflows", a->id);
    if (!zbc_ledger_debit(c->s, who, stake, err))
        return 0;
    if (escrow > 0 &&
        !zbc_ledger_debit(c->s, &c->g->fund_account, escrow, err))
        return 0;
    a->pot += max_ret;
    a->escrow += escrow;
    struct zbc_crash_entry e = {.height = c->height, .stake = stake,
                                .target = target, .who = *who};
    memcpy(e.tx_hash, c->tx_hash, 32);
    uint8_t key[10], v[ZBC_CRASH_ENTRY_RECORD_MAX];
    entry_key(key, a->id, r->n);
    size_t vlen = zbc_crash_entry_encode(&e, v);
    if (!zbc_state_put(c->s, ZBC_TABLE_CRASH, key, 10, v, vlen, err))
        return 0;
    struct zbc_event ev;
    zbc_apps_ev_init(&ev, ZBC_EVENT_APP_JOIN, c);
    ev.a = *who;
    ev.amount = stake;
    zbc_put_le16(ev.data, r->n);
    zbc_put_le32(ev.data + 2, target);
    zbc_put_le64(ev.data + 6, max_ret);
    ev.data_len = 14;
    r->n++;
    if (!zbc_apps_emit(c, &ev, move, move_len, err))
        return 0;
    zbc_apps_ev_init(&ev, ZBC_EVENT_APP_ESCROW, c);
    ev.a = c->g->fund_account;
    ev.amount = escrow;
    return zbc_apps_emit(c, &ev, NULL, 0, err);
}

static int apply_create(struct actx *c, const struct zbc_checked_tx *ct,
                        struct zbc_err *err)
{
    const struct zbc_body_app_create *b = &ct->body.u.create;
    struct zbc_app *a = c->a;
    struct zbc_crash_params p;
    if (!zbc_crash_parse(&p, b->params, b->params_len, err))
        return 0;
    memset(a, 0, sizeof *a);
    a->id = zbc_apps_tx_app_id(ct);
    a->type = ZBC_CRASH_TYPE;
    a->status = ZBC_APP_ACTIVE;
    a->seats = 1;
    a->n_seated = 1;
    a->seat[0] = ct->tx.sender;
    a->clock = ZBC_APP_NO_CLOCK;
    a->winner = ZBC_APP_NO_SEAT;
    a->loser = ZBC_APP_NO_SEAT;
    a->stake = b->stake;
    a->created = c->height;
    a->joined = c->height;
    a->deadline = (uint64_t)c->height + p.window; /* the close */
    a->params_len = b->params_len;
    memcpy(a->params, b->params, b->params_len);
    struct zbc_crash_round r = {.close = c->height + p.window};
    struct zbc_event ev;
    zbc_apps_ev_init(&ev, ZBC_EVENT_APP_CREATE, c);
    ev.a = ct->tx.sender;
    ev.seat = 0;
    ev.amount = b->stake;
    if (!zbc_apps_emit(c, &ev, NULL, 0, err))
        return 0;
    if (b->stake > 0 && !add_entry(c, &r, &ct->tx.sender, b->stake, p.target,
                                   NULL, 0, err))
        return 0;
    return round_put(c->s, a->id, &r, err) &&
           zbc_apps_sched_add(c->s, r.close + 1, ZBC_SCHED_CRASH, a->id, err);
}

static int apply_entry(struct actx *c, const struct zbc_checked_tx *ct,
                       struct zbc_err *err)
{
    const struct zbc_body_app_move *m = &ct->body.u.move;
    struct zbc_crash_round r;
    uint64_t stake;
    uint32_t target;
    bool found;
    if (!zbc_crash_round_get(c->s, c->a->id, &r, &found, err))
        return 0;
    if (!found)
        return zbc_fail(err, "crash round %" PRIu64 " has no round record",
                        c->a->id);
    return zbc_crash_parse_entry(m->move, m->move_len, &stake, &target,
                                 err) &&
           add_entry(c, &r, &ct->tx.sender, stake, target, m->move,
                     m->move_len, err) &&
           round_put(c->s, c->a->id, &r, err);
}

int zbc_crash_apply_tx(struct actx *c, const struct zbc_checked_tx *ct,
                       bool *mine, struct zbc_err *err)
{
    int ok;
    if (ct->body.type == ZBC_TX_APP_CREATE) {
        *mine = ct->body.u.create.app_type == ZBC_CRASH_TYPE;
        ok = !*mine || apply_create(c, ct, err);
    } else {
        if (!load_round_app(c->s, ct, c->a, mine, err))
            return 0;
        if (!*mine)
            return 1;
        if (ct->body.type != ZBC_TX_APP_MOVE)
            return zbc_fail(err, "crash round %" PRIu64 " takes no "
                                 "transaction type %u", c->a->id,
                            ct->tx.type);
        ok = apply_entry(c, ct, err);
    }
    return ok && (!*mine || zbc_apps_put(c->s, c->a, err));
}

/* Settles one entry: event bet_settle (a = entrant, amount = returns,
 * data = u u32 | point u32 | win u8 | index u16 | target u32, reason
 * win/loss), then the payout (seat 0xff, reason crash, data = index). */
static int settle_entry(struct actx *c, struct zbc_crash_round *r, uint16_t i,
                        struct zbc_err *err)
{
    struct zbc_crash_entry e;
    bool found;
    uint64_t ret = 0;
    if (!zbc_crash_entry_get(c->s, c->a->id, i, &e, &found, err))
        return 0;
    if (!found)
        return zbc_fail(err, "crash round %" PRIu64 " entry %u is missing",
                        c->a->id, i);
    bool win = e.target <= r->point;
    if (win && !zbc_crash_max_return(e.stake, e.target, &ret, err))
        return 0;
    struct zbc_event ev;
    zbc_apps_ev_init(&ev, ZBC_EVENT_BET_SETTLE, c);
    ev.a = e.who;
    ev.amount = ret;
    zbc_put_le32(ev.data, r->u);
    zbc_put_le32(ev.data + 4, r->point);
    ev.data[8] = win ? 1 : 0;
    zbc_put_le16(ev.data + 9, i);
    zbc_put_le32(ev.data + 11, e.target);
    ev.data_len = 15;
    snprintf(ev.reason, sizeof ev.reason, "%s", win ? "win" : "loss");
    if (!zbc_apps_emit(c, &ev, NULL, 0, err))
        return 0;
    if (!win)
        return 1;
    if (ret > c->a->pot)
        return zbc_fail(err, "crash round %" PRIu64 " pays %" PRIu64
                             " but holds %" PRIu64, c->a->id, ret,
                        c->a->pot);
    c->a->pot -= ret;
    r->paid += ret; /* bounded by the pot */
    r->winners++;
    if (!zbc_ledger_credit(c->s, &e.who, ret, err))
        return 0;
    zbc_apps_ev_init(&ev, ZBC_EVENT_APP_PAYOUT, c);
    ev.b = e.who;
    ev.amount = ret;
    zbc_put_le16(ev.data, i);
    ev.data_len = 2;
    snprintf(ev.reason, sizeof ev.reason, "crash");
    return zbc_apps_emit(c, &ev, NULL, 0, err);
}

int zbc_crash_settle(struct actx *c, const uint8_t seed[32],
                     struct zbc_err *err)
{
    struct zbc_app *a = c->a;
    struct zbc_crash_round r;
    struct zbc_crash_params p;
    bool found;
    if (a->type != ZBC_CRASH_TYPE || a->status != ZBC_APP_ACTIVE)
        return 1;
    if (!zbc_crash_round_get(c->s, a->id, &r, &found, err))
        return 0;
    if (!found || r.settled)
        return zbc_fail(err, "crash round %" PRIu64 " has no open round "
                             "record", a->id);
    if (!zbc_crash_parse(&p, a->params, a->params_len, err))
        return 0;
    char server[65];
    zbc_fair_server_seed(server, seed);
    r.point = zbc_crash_point(server, p.client_seed, a->id, &r.u);
    r.settled = true;
    for (uint16_t i = 0; i < r.n; i++)
        if (!settle_entry(c, &r, i, err))
            return 0;
    if (!zbc_apps_pay(c, ZBC_EVENT_NO_SEAT, &c->g->fund_account, a->pot,
                      "escrow", err))
        return 0;
    a->escrow = 0;
    char why[96];
    snprintf(why, sizeof why, "crash at %" PRIu32 ".%02" PRIu32 "x: %u of %u "
             "entries cashed out", r.point / 100, r.point % 100, r.winners,
             r.n);
    return round_put(c->s, a->id, &r, err) &&
           zbc_apps_finish(c, ZBC_END_BET, ZBC_APP_NO_SEAT, ZBC_APP_NO_SEAT,
                           why, err) &&
           zbc_apps_put(c->s, a, err);
}
