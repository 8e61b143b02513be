#include "consensus/money.h"

#include <stdlib.h>
#include <string.h>

#include "apps/app.h"
#include "consensus/apps_apply.h"
#include "consensus/ledger.h"

static int invariant(uint64_t balances, uint64_t pots, uint64_t supply,
                     struct zbc_err *err)
{
    if (balances > UINT64_MAX - pots || balances + pots != supply)
        return zbc_fail(err, "money invariant broken: balances sum to %llu "
                             "and app pots to %llu, supply is %llu",
                        (unsigned long long)balances, (unsigned long long)pots,
                        (unsigned long long)supply);
    return 1;
}

int zbc_money_check(struct zbc_state *s, struct zbc_err *err)
{
    if (s->kv.ops->each == NULL)
        return zbc_fail(err, "the state backend cannot scan its tables");
    uint64_t supply;
    if (!zbc_ledger_supply(s, &supply, err))
        return 0;
    uint64_t balances;
    if (!zbc_ledger_sum_balances(s, &balances, err))
        return zbc_fail_prefix(err, "money invariant scan");
    /* pots (stakes and bet escrows) live in the app records */
    uint64_t pots;
    if (!zbc_apps_sum_pots(s, &pots, err))
        return zbc_fail_prefix(err, "money invariant scan");
    return invariant(balances, pots, supply, err);
}

/* ---- running total ---- */

/* The amount a record holds (its balance or pot); 0 with why filled when
 * it does not decode. */
static int record_amount(struct zbc_money_tally *t, enum zbc_table tb,
                         const uint8_t *key, size_t klen, const uint8_t *val,
                         size_t vlen, uint64_t *amount, struct zbc_err *why)
{
    if (tb == ZBC_TABLE_ACCOUNTS) {
        struct zbc_account acc;
        if (!zbc_ledger_account_decode(&acc, val, vlen, why))
            return 0;
        *amount = acc.balance;
        return 1;
    }
    (void)key;
    if (klen != 8)
        return zbc_fail(why, "app key of %zu bytes is not 8", klen);
    if (!zbc_app_decode(t->app, val, vlen, why))
        return 0;
    *amount = t->app->pot;
    return 1;
}

/* Adds (sign +1) or removes (-1) one record from the sums. */
static void count(struct zbc_money_tally *t, enum zbc_table tb,
                  const uint8_t *key, size_t klen, const uint8_t *val,
                  size_t vlen, int sign)
{
    uint64_t amount = 0;
    struct zbc_err why;
    if (!record_amount(t, tb, key, klen, val, vlen, &amount, &why)) {
        if (sign > 0) {
            t->bad++;
            t->bad_why = why;
        } else {
            t->bad--;
        }
        return;
    }
    unsigned __int128 *sum = tb == ZBC_TABLE_ACCOUNTS ? &t->balances
                                                      : &t->pots;
    if (sign > 0)
        *sum += amount;
    else
        *sum -= amount;
}

static bool counted(enum zbc_table tb)
{
    return tb == ZBC_TABLE_ACCOUNTS || tb == ZBC_TABLE_APPS;
}

/* What uncount_old changes (a write that then fails puts it back). */
struct sums {
    unsigned __int128 balances, pots;
    uint64_t bad;
};

static struct sums sums_of(const struct zbc_money_tally *t)
{
    return (struct sums){t->balances, t->pots, t->bad};
}

static void sums_restore(struct zbc_money_tally *t, struct sums x)
{
    t->balances = x.balances;
    t->pots = x.pots;
    t->bad = x.bad;
}

/* Takes the replaced record (if any) out of the sums. */
static int uncount_old(struct zbc_money_tally *t, enum zbc_table tb,
                       const uint8_t *key, size_t klen, struct zbc_err *err)
{
    size_t vlen;
    bool found;
    if (!t->inner.ops->get(t->inner.ctx, tb, key, klen, t->buf,
                           ZBC_KV_VAL_MAX, &vlen, &found, err))
        return 0;
    if (found)
        count(t, tb, key, klen, t->buf, vlen, -1);
    return 1;
}

static int tally_get(void *ctx, enum zbc_table tb, const uint8_t *key,
                     size_t klen, uint8_t *val, size_t cap, size_t *vlen,
                     bool *found, struct zbc_err *err)
{
    struct zbc_money_tally *t = ctx;
    return t->inner.ops->get(t->inner.ctx, tb, key, klen, val, cap, vlen,
                             found, err);
}

static int tally_put(void *ctx, enum zbc_table tb, const uint8_t *key,
                     size_t klen, const uint8_t *val, size_t vlen,
                     struct zbc_err *err)
{
    struct zbc_money_tally *t = ctx;
    if (!counted(tb))
        return t->inner.ops->put(t->inner.ctx, tb, key, klen, val, vlen, err);
    /* the sums change only once the write succeeded: read, write, count */
    struct sums before = sums_of(t);
    if (!uncount_old(t, tb, key, klen, err))
        return 0;
    if (!t->inner.ops->put(t->inner.ctx, tb, key, klen, val, vlen, err)) {
        sums_restore(t, before);
        return 0;
    }
    count(t, tb, key, klen, val, vlen, +1);
    return 1;
}

static int tally_del(void *ctx, enum zbc_table tb, const uint8_t *key,
                     size_t klen, struct zbc_err *err)
{
    struct zbc_money_tally *t = ctx;
    if (!counted(tb))
        return t->inner.ops->del(t->inner.ctx, tb, key, klen, err);
    struct sums before = sums_of(t);
    if (!uncount_old(t, tb, key, klen, err))
        return 0;
    if (!t->inner.ops->del(t->inner.ctx, tb, key, klen, err)) {
        sums_restore(t, before);
        return 0;
    }
    return 1;
}

static int tally_each(void *ctx, enum zbc_table tb,
                      int (*fn)(void *arg, const uint8_t *key, size_t klen,
                                const uint8_t *val, size_t vlen,
                                struct zbc_err *err),
                      void *arg, struct zbc_err *err)
{
    struct zbc_money_tally *t = ctx;
    if (t->inner.ops->each == NULL)
        return zbc_fail(err, "the state backend cannot scan its tables");
    return t->inner.ops->each(t->inner.ctx, tb, fn, arg, err);
}

static const struct zbc_kv_ops tally_ops = {
    .get = tally_get,
    .put = tally_put,
    .del = tally_del,
    .each = tally_each,
};

struct tally_scan {
    struct zbc_money_tally *t;
    enum zbc_table tb;
};

static int scan_one(void *arg, const uint8_t *key, size_t klen,
                    const uint8_t *val, size_t vlen, struct zbc_err *err)
{
    struct tally_scan *c = arg;
    (void)err;
    count(c->t, c->tb, key, klen, val, vlen, +1);
    return 1;
}

int zbc_money_tally_open(struct zbc_money_tally *t, struct zbc_kv inner,
                         struct zbc_err *err)
{
    memset(t, 0, sizeof *t);
    t->inner = inner;
    if (inner.ops->each == NULL)
        return zbc_fail(err, "the state backend cannot scan its tables");
    t->app = malloc(sizeof *t->app);
    t->buf = malloc(ZBC_KV_VAL_MAX);
    if (t->app == NULL || t->buf == NULL) {
        zbc_money_tally_close(t);
        return zbc_fail(err, "out of memory for the money total");
    }
    struct tally_scan c = {t, ZBC_TABLE_ACCOUNTS};
    if (!inner.ops->each(inner.ctx, c.tb, scan_one, &c, err)) {
        zbc_money_tally_close(t);
        return zbc_fail_prefix(err, "money total");
    }
    c.tb = ZBC_TABLE_APPS;
    if (!inner.ops->each(inner.ctx, c.tb, scan_one, &c, err)) {
        zbc_money_tally_close(t);
        return zbc_fail_prefix(err, "money total");
    }
    return 1;
}

void zbc_money_tally_close(struct zbc_money_tally *t)
{
    free(t->app);
    free(t->buf);
    t->app = NULL;
    t->buf = NULL;
}

struct zbc_kv zbc_money_tally_kv(struct zbc_money_tally *t)
{
    struct zbc_kv kv = {&tally_ops, t};
    return kv;
}

int zbc_money_tally_check(const struct zbc_money_tally *t,
                          struct zbc_state *s, struct zbc_err *err)
{
    if (t->bad > 0) {
        *err = t->bad_why;
        return zbc_fail_prefix(err, "money invariant scan");
    }
    if (t->balances > UINT64_MAX)
        return zbc_fail(err, "money invariant scan: money invariant: "
                             "balances overflow u64");
    if (t->pots > UINT64_MAX)
        return zbc_fail(err, "money invariant scan: app pots overflow u64");
    uint64_t supply;
    if (!zbc_ledger_supply(s, &supply, err))
        return 0;
    return invariant((uint64_t)t->balances, (uint64_t)t->pots, supply, err);
}

int zbc_money_tally_rescan(const struct zbc_money_tally *t,
                           struct zbc_err *err)
{
    struct zbc_money_tally fresh;
    if (!zbc_money_tally_open(&fresh, t->inner, err))
        return 0;
    bool same = fresh.balances == t->balances && fresh.pots == t->pots &&
                fresh.bad == t->bad;
    zbc_money_tally_close(&fresh);
    if (same)
        return 1;
    return zbc_fail(err, "the running money total (balances %llu, pots "
                         "%llu) differs from a full scan (balances %llu, "
                         "pots %llu)",
                    (unsigned long long)t->balances,
                    (unsigned long long)t->pots,
                    (unsigned long long)fresh.balances,
                    (unsigned long long)fresh.pots);
}
