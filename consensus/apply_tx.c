/* Per-transaction rules: stateless check, cost, stateful check and the
 * per-type effects (docs/protocol-chain.md "Apply"). */
#include "consensus/apply.h"

#include <stdio.h>
#include <string.h>

#include "apps/app.h"
#include "consensus/apps_apply.h"
#include "consensus/ledger.h"
#include "consensus/tx_valid.h"
#include "crypto/hex.h"

int zbc_tx_check_stateless(struct zbc_checked_tx *ct,
                           const struct zbc_genesis *g, const uint8_t *raw,
                           size_t len, struct zbc_err *err)
{
    memset(ct, 0, sizeof *ct);
    if (!zbc_tx_parse(&ct->tx, raw, len, err))
        return 0;
    if (!zbc_tx_valid(&ct->tx, g->hash, g->min_fee_base, g->min_fee_per_byte,
                      &ct->body, err))
        return 0;
    if (ct->body.type == ZBC_TX_APP_CREATE) {
        const struct zbc_body_app_create *c = &ct->body.u.create;
        if (!zbc_app_check_create(c->app_type, c->stake_token, c->seats,
                                  c->params, c->params_len, c->has_opponent,
                                  err))
            return 0;
    }
    zbc_tx_hash(ct->hash, &ct->tx);
    return 1;
}

int zbc_tx_cost(uint64_t *cost, const struct zbc_checked_tx *ct,
                struct zbc_err *err)
{
    if (ct->tx.fee < 0)
        return zbc_fail(err, "fee too low: fee is negative");
    uint64_t fee = (uint64_t)ct->tx.fee, extra = 0;
    switch (ct->body.type) {
    case ZBC_TX_SEND:
        extra = ct->body.u.send.amount;
        break;
    case ZBC_TX_APP_CREATE:
        extra = ct->body.u.create.stake;
        break;
    case ZBC_TX_APP_JOIN:
    case ZBC_TX_APP_MOVE:
    case ZBC_TX_APP_RESIGN:
    case ZBC_TX_APP_CLAIM:
        break;
    }
    if (fee > UINT64_MAX - extra)
        return zbc_fail(err, "insufficient balance: fee plus amount overflows");
    *cost = fee + extra;
    return 1;
}

static bool is_app_tx(const struct zbc_checked_tx *ct)
{
    return ct->body.type != ZBC_TX_SEND;
}

/* The stateful validity rules (a block with a failing transaction is
 * invalid): time window, hash not seen, sender holds cost + pending. */
static int check_valid_state(struct zbc_state *s,
                             const struct zbc_checked_tx *ct, uint64_t time_ms,
                             uint64_t pending, struct zbc_err *err)
{
    if (!zbc_tx_valid_time(ct->tx.timestamp, time_ms, err))
        return 0;
    bool seen;
    uint32_t at = 0;
    if (!zbc_ledger_tx_seen(s, ct->hash, &seen, &at, err))
        return 0;
    if (seen)
        return zbc_fail(err, "duplicate transaction: already included at "
                             "height %u", at);
    uint64_t cost, balance;
    if (!zbc_tx_cost(&cost, ct, err) ||
        !zbc_ledger_balance(s, &ct->tx.sender, &balance, err))
        return 0;
    if (cost > UINT64_MAX - pending || balance < cost + pending) {
        if (pending > 0)
            return zbc_fail(err, "insufficient balance: %llu held, %llu "
                                 "needed plus %llu pending",
                            (unsigned long long)balance,
                            (unsigned long long)cost,
                            (unsigned long long)pending);
        return zbc_fail(err, "insufficient balance: %llu held, %llu needed",
                        (unsigned long long)balance, (unsigned long long)cost);
    }
    return 1;
}

int zbc_tx_check_state(struct zbc_state *s, const struct zbc_genesis *g,
                       const struct zbc_checked_tx *ct, uint64_t time_ms,
                       uint64_t pending, struct zbc_err *err)
{
    if (!check_valid_state(s, ct, time_ms, pending, err))
        return 0;
    if (!is_app_tx(ct))
        return 1;
    /* applicability in the next block: the state's height + 1 */
    uint32_t height;
    if (!zbc_ledger_height(s, &height, err))
        return 0;
    if (height == UINT32_MAX)
        return zbc_fail(err, "the chain is at its last height");
    bool applies;
    if (!zbc_apps_check(s, g, ct, height + 1, pending, &applies, err))
        return 0;
    return applies; /* not applicable: err holds the no-op reason */
}

static void event_init(struct zbc_event *e, enum zbc_event_kind kind,
                       const struct zbc_checked_tx *ct, uint32_t index)
{
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->tx_index = index;
    memcpy(e->tx_hash, ct->hash, 32);
    zbc_addr_empty(&e->a);
    zbc_addr_empty(&e->b);
    e->seat = ZBC_EVENT_NO_SEAT;
}

static int apply_send(struct zbc_state *s, const struct zbc_checked_tx *ct,
                      uint32_t index, struct zbc_events *ev,
                      struct zbc_err *err)
{
    uint64_t amount = ct->body.u.send.amount;
    if (!zbc_ledger_debit(s, &ct->tx.sender, amount, err) ||
        !zbc_ledger_credit(s, &ct->tx.recipient, amount, err))
        return 0;
    struct zbc_event e;
    event_init(&e, ZBC_EVENT_TRANSFER, ct, index);
    e.a = ct->tx.sender;
    e.b = ct->tx.recipient;
    e.amount = amount;
    return zbc_events_push(ev, &e, err);
}

static int pay_fee(struct zbc_state *s, const struct zbc_checked_tx *ct,
                   uint32_t index, const uint8_t producer[32],
                   struct zbc_events *ev, struct zbc_err *err)
{
    struct zbc_addr to;
    zbc_addr_from_ed25519(&to, producer);
    uint64_t fee = (uint64_t)ct->tx.fee;
    if (!zbc_ledger_debit(s, &ct->tx.sender, fee, err) ||
        !zbc_ledger_credit(s, &to, fee, err))
        return 0;
    struct zbc_event e;
    event_init(&e, ZBC_EVENT_FEE, ct, index);
    e.a = ct->tx.sender;
    e.b = to;
    e.amount = fee;
    return zbc_events_push(ev, &e, err);
}

/* A valid app transaction that does not apply: hash marked, no fee. */
static int record_noop(struct zbc_state *s, const struct zbc_checked_tx *ct,
                       uint32_t index, uint32_t height, const char *reason,
                       struct zbc_events *ev, struct zbc_err *err)
{
    if (!zbc_ledger_mark_tx(s, ct->hash, height, err))
        return 0;
    struct zbc_event e;
    event_init(&e, ZBC_EVENT_NOOP, ct, index);
    e.a = ct->tx.sender;
    e.ref = zbc_apps_tx_app_id(ct);
    snprintf(e.reason, sizeof e.reason, "%s", reason);
    return zbc_events_push(ev, &e, err);
}

static int apply_effects(struct zbc_state *s, const struct zbc_genesis *g,
                         const struct zbc_checked_tx *ct, uint32_t index,
                         uint32_t height, uint64_t time_ms,
                         const uint8_t producer[32], struct zbc_events *ev,
                         struct zbc_err *err)
{
    if (!check_valid_state(s, ct, time_ms, 0, err))
        return 0;
    if (is_app_tx(ct)) {
        struct zbc_err why;
        bool applies;
        if (!zbc_apps_check(s, g, ct, height, 0, &applies, &why))
            return zbc_fail(err, "%s", why.msg);
        if (!applies)
            return record_noop(s, ct, index, height, why.msg, ev, err);
    }
    if (!zbc_ledger_mark_tx(s, ct->hash, height, err))
        return 0;
    if (!pay_fee(s, ct, index, producer, ev, err))
        return 0;
    switch (ct->body.type) {
    case ZBC_TX_SEND:
        return apply_send(s, ct, index, ev, err);
    case ZBC_TX_APP_CREATE:
    case ZBC_TX_APP_JOIN:
    case ZBC_TX_APP_MOVE:
    case ZBC_TX_APP_RESIGN:
    case ZBC_TX_APP_CLAIM:
        return zbc_apps_apply_tx(s, g, ct, index, height, ev, err);
    }
    return zbc_fail(err, "transaction type %u is unknown", ct->tx.type);
}

int zbc_tx_apply(struct zbc_state *s, const struct zbc_genesis *g,
                 const struct zbc_checked_tx *ct, uint32_t index,
                 uint32_t height, uint64_t time_ms, const uint8_t producer[32],
                 struct zbc_events *ev, struct zbc_err *err)
{
    size_t mark = zbc_state_mark(s), evmark = ev->n;
    if (apply_effects(s, g, ct, index, height, time_ms, producer, ev, err))
        return 1;
    zbc_events_truncate(ev, evmark);
    struct zbc_err rerr;
    if (!zbc_state_rollback_to(s, mark, &rerr))
        return zbc_fail(err, "%s", rerr.msg);
    return 0;
}
