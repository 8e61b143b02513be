#include "consensus/ledger.h"

#include <string.h>

#include "crypto/bytes.h"

static const uint8_t key_supply[] = "supply";
static const uint8_t key_height[] = "height";

static int decode_account(struct zbc_account *acc, const uint8_t *v,
                          size_t vlen, struct zbc_err *err)
{
    if (vlen != ZBC_ACCOUNT_RECORD_LEN || v[0] != ZBC_ACCOUNT_VERSION)
        return zbc_fail(err, "account record is corrupt (%zu bytes, version %u)",
                        vlen, vlen > 0 ? v[0] : 0);
    acc->balance = zbc_get_le64(v + 1);
    return 1;
}

int zbc_ledger_account_decode(struct zbc_account *acc, const uint8_t *v,
                              size_t vlen, struct zbc_err *err)
{
    return decode_account(acc, v, vlen, err);
}

int zbc_ledger_account(struct zbc_state *s, const struct zbc_addr *a,
                       struct zbc_account *acc, bool *found,
                       struct zbc_err *err)
{
    uint8_t key[ZBC_ADDR_BYTES_MAX];
    size_t klen = zbc_addr_write(key, a);
    uint8_t v[ZBC_ACCOUNT_RECORD_LEN + 1];
    size_t vlen;
    memset(acc, 0, sizeof *acc);
    if (!zbc_state_get(s, ZBC_TABLE_ACCOUNTS, key, klen, v, sizeof v, &vlen,
                       found, err))
        return 0;
    if (!*found)
        return 1;
    return decode_account(acc, v, vlen, err);
}

int zbc_ledger_balance(struct zbc_state *s, const struct zbc_addr *a,
                       uint64_t *balance, struct zbc_err *err)
{
    struct zbc_account acc;
    bool found;
    if (!zbc_ledger_account(s, a, &acc, &found, err))
        return 0;
    *balance = acc.balance;
    return 1;
}

static int store_account(struct zbc_state *s, const struct zbc_addr *a,
                         const struct zbc_account *acc, struct zbc_err *err)
{
    uint8_t key[ZBC_ADDR_BYTES_MAX];
    size_t klen = zbc_addr_write(key, a);
    uint8_t v[ZBC_ACCOUNT_RECORD_LEN];
    v[0] = ZBC_ACCOUNT_VERSION;
    zbc_put_le64(v + 1, acc->balance);
    return zbc_state_put(s, ZBC_TABLE_ACCOUNTS, key, klen, v, sizeof v, err);
}

int zbc_ledger_credit(struct zbc_state *s, const struct zbc_addr *a,
                      uint64_t amount, struct zbc_err *err)
{
    if (!zbc_addr_type_supported(a->type))
        return zbc_fail(err, "account type %u cannot hold a balance", a->type);
    struct zbc_account acc;
    bool found;
    if (!zbc_ledger_account(s, a, &acc, &found, err))
        return 0;
    if (acc.balance > UINT64_MAX - amount)
        return zbc_fail(err, "balance overflow crediting %llu",
                        (unsigned long long)amount);
    acc.balance += amount;
    return store_account(s, a, &acc, err);
}

int zbc_ledger_debit(struct zbc_state *s, const struct zbc_addr *a,
                     uint64_t amount, struct zbc_err *err)
{
    struct zbc_account acc;
    bool found;
    if (!zbc_ledger_account(s, a, &acc, &found, err))
        return 0;
    if (acc.balance < amount)
        return zbc_fail(err, "insufficient balance: %llu needed, %llu held",
                        (unsigned long long)amount,
                        (unsigned long long)acc.balance);
    acc.balance -= amount;
    return store_account(s, a, &acc, err);
}

int zbc_ledger_tx_seen(struct zbc_state *s, const uint8_t hash[32], bool *seen,
                       uint32_t *height, struct zbc_err *err)
{
    uint8_t v[8] = {0};
    size_t vlen;
    if (!zbc_state_get(s, ZBC_TABLE_TXSEEN, hash, 32, v, sizeof v, &vlen, seen,
                       err))
        return 0;
    if (!*seen)
        return 1;
    if (vlen != 4)
        return zbc_fail(err, "tx-seen record is corrupt (%zu bytes)", vlen);
    if (height != NULL)
        *height = zbc_get_le32(v);
    return 1;
}

int zbc_ledger_mark_tx(struct zbc_state *s, const uint8_t hash[32],
                       uint32_t height, struct zbc_err *err)
{
    uint8_t v[4];
    zbc_put_le32(v, height);
    return zbc_state_put(s, ZBC_TABLE_TXSEEN, hash, 32, v, 4, err);
}

static int meta_get(struct zbc_state *s, const uint8_t *key, size_t klen,
                    uint8_t *v, size_t want, const char *what,
                    struct zbc_err *err)
{
    uint8_t buf[16];
    size_t vlen;
    bool found;
    if (!zbc_state_get(s, ZBC_TABLE_META, key, klen, buf, sizeof buf, &vlen,
                       &found, err))
        return 0;
    if (!found)
        return zbc_fail(err, "state has no %s: not initialised from a genesis",
                        what);
    if (vlen != want)
        return zbc_fail(err, "state %s record is corrupt (%zu bytes)", what,
                        vlen);
    memcpy(v, buf, want);
    return 1;
}

int zbc_ledger_height(struct zbc_state *s, uint32_t *height,
                      struct zbc_err *err)
{
    uint8_t v[4] = {0};
    if (!meta_get(s, key_height, sizeof key_height - 1, v, 4, "height", err))
        return 0;
    *height = zbc_get_le32(v);
    return 1;
}

int zbc_ledger_set_height(struct zbc_state *s, uint32_t height,
                          struct zbc_err *err)
{
    uint8_t v[4];
    zbc_put_le32(v, height);
    return zbc_state_put(s, ZBC_TABLE_META, key_height, sizeof key_height - 1,
                         v, 4, err);
}

int zbc_ledger_supply(struct zbc_state *s, uint64_t *supply,
                      struct zbc_err *err)
{
    uint8_t v[8] = {0};
    if (!meta_get(s, key_supply, sizeof key_supply - 1, v, 8, "supply", err))
        return 0;
    *supply = zbc_get_le64(v);
    return 1;
}

int zbc_ledger_init_genesis(struct zbc_state *s, const struct zbc_genesis *g,
                            struct zbc_err *err)
{
    uint8_t v[8];
    size_t vlen;
    bool found;
    if (!zbc_state_get(s, ZBC_TABLE_META, key_supply, sizeof key_supply - 1, v,
                       sizeof v, &vlen, &found, err))
        return 0;
    if (found)
        return zbc_fail(err, "state is already initialised");
    zbc_state_begin(s);
    for (uint32_t i = 0; i < g->n_balances; i++)
        if (!zbc_ledger_credit(s, &g->balances[i].addr, g->balances[i].amount,
                               err))
            return zbc_fail_prefix(err, "genesis balance %u", i);
    if (!zbc_ledger_credit(s, &g->fund_account, g->fund_balance, err))
        return zbc_fail_prefix(err, "genesis fund");
    zbc_put_le64(v, g->total_supply);
    if (!zbc_state_put(s, ZBC_TABLE_META, key_supply, sizeof key_supply - 1, v,
                       8, err))
        return 0;
    if (!zbc_ledger_set_height(s, 0, err))
        return 0;
    zbc_state_begin(s); /* genesis is never rolled back */
    return zbc_state_commit(s, err);
}

struct balance_scan {
    uint64_t sum;
};

static int add_balance(void *arg, const uint8_t *key, size_t klen,
                       const uint8_t *val, size_t vlen, struct zbc_err *err)
{
    struct balance_scan *m = arg;
    struct zbc_account acc = {0};
    (void)key;
    (void)klen;
    if (!decode_account(&acc, val, vlen, err))
        return 0;
    if (m->sum > UINT64_MAX - acc.balance)
        return zbc_fail(err, "money invariant: balances overflow u64");
    m->sum += acc.balance;
    return 1;
}

int zbc_ledger_sum_balances(struct zbc_state *s, uint64_t *sum,
                            struct zbc_err *err)
{
    if (s->kv.ops->each == NULL)
        return zbc_fail(err, "the state backend cannot scan its tables");
    struct balance_scan m = {0};
    int ok = s->kv.ops->each(s->kv.ctx, ZBC_TABLE_ACCOUNTS, add_balance, &m,
                             err);
    *sum = m.sum;
    return ok;
}
