#include "consensus/mempool.h"

#include <stdlib.h>
#include <string.h>

#include "consensus/apply.h"
#include "consensus/apps_apply.h"
#include "crypto/hash.h"

struct pool_entry {
    uint8_t *raw;                /* owned copy; ct borrows it */
    size_t len;
    struct zbc_checked_tx ct;
    uint64_t cost;               /* fee + amount or stake (a join's too) */
    uint64_t arrival_ms;
    uint64_t seq;                /* arrival order */
};

/* Entries are kept sorted by priority; lookups are linear (pools here are
 * small; documented in docs/protocol-chain.md "Mempool"). */
struct zbc_mempool {
    size_t n, cap;
    struct pool_entry *e;
    size_t bytes;
    size_t max_txs, max_bytes;
    uint64_t next_seq;
};

struct zbc_mempool *zbc_mempool_new(size_t max_txs, size_t max_bytes)
{
    struct zbc_mempool *mp = calloc(1, sizeof *mp);
    if (mp == NULL)
        return NULL;
    mp->max_txs = max_txs;
    mp->max_bytes = max_bytes;
    return mp;
}

void zbc_mempool_free(struct zbc_mempool *mp)
{
    if (mp == NULL)
        return;
    for (size_t i = 0; i < mp->n; i++)
        free(mp->e[i].raw);
    free(mp->e);
    free(mp);
}

size_t zbc_mempool_count(const struct zbc_mempool *mp)
{
    return mp->n;
}

size_t zbc_mempool_bytes(const struct zbc_mempool *mp)
{
    return mp->bytes;
}

/* a before b: higher fee per byte, then earlier arrival. */
static bool before(const struct pool_entry *a, const struct pool_entry *b)
{
    unsigned __int128 fa = (unsigned __int128)(uint64_t)a->ct.tx.fee * b->len;
    unsigned __int128 fb = (unsigned __int128)(uint64_t)b->ct.tx.fee * a->len;
    if (fa != fb)
        return fa > fb;
    return a->seq < b->seq;
}

static size_t index_of(const struct zbc_mempool *mp, const uint8_t hash[32])
{
    for (size_t i = 0; i < mp->n; i++)
        if (memcmp(mp->e[i].ct.hash, hash, 32) == 0)
            return i;
    return SIZE_MAX;
}

static void remove_at(struct zbc_mempool *mp, size_t i)
{
    mp->bytes -= mp->e[i].len;
    free(mp->e[i].raw);
    memmove(&mp->e[i], &mp->e[i + 1], (mp->n - i - 1) * sizeof mp->e[0]);
    mp->n--;
}

bool zbc_mempool_find(const struct zbc_mempool *mp, const uint8_t hash[32],
                      size_t *position, const uint8_t **raw, size_t *len)
{
    size_t i = index_of(mp, hash);
    if (i == SIZE_MAX)
        return false;
    if (position != NULL)
        *position = i;
    if (raw != NULL)
        *raw = mp->e[i].raw;
    if (len != NULL)
        *len = mp->e[i].len;
    return true;
}

size_t zbc_mempool_select(const struct zbc_mempool *mp, struct zbc_tx_ref *out,
                          size_t cap)
{
    size_t n = mp->n < cap ? mp->n : cap;
    for (size_t i = 0; i < n; i++) {
        out[i].bytes = mp->e[i].raw;
        out[i].len = (uint32_t)mp->e[i].len;
    }
    return n;
}

void zbc_mempool_remove(struct zbc_mempool *mp, const uint8_t hash[32])
{
    size_t i = index_of(mp, hash);
    if (i != SIZE_MAX)
        remove_at(mp, i);
}

void zbc_mempool_expire(struct zbc_mempool *mp, uint64_t now_ms)
{
    for (size_t i = mp->n; i > 0; i--) {
        const struct pool_entry *e = &mp->e[i - 1];
        if (now_ms > e->arrival_ms && now_ms - e->arrival_ms > ZBC_MEMPOOL_TTL_MS)
            remove_at(mp, i - 1);
    }
}

/* Sum of costs of pooled transactions from sender among entries [0, upto)
 * (skipping `skip`). */
static int pending_of(const struct zbc_mempool *mp, const struct zbc_addr *sender,
                      size_t upto, uint64_t *sum, struct zbc_err *err)
{
    uint64_t s = 0;
    for (size_t i = 0; i < upto; i++) {
        if (!zbc_addr_equal(&mp->e[i].ct.tx.sender, sender))
            continue;
        if (s > UINT64_MAX - mp->e[i].cost)
            return zbc_fail(err, "insufficient balance: pending spends "
                                 "overflow");
        s += mp->e[i].cost;
    }
    *sum = s;
    return 1;
}

int zbc_mempool_add(struct zbc_mempool *mp, struct zbc_state *tip,
                    const struct zbc_genesis *g, const uint8_t *raw,
                    size_t len, uint64_t now_ms, uint8_t hash[32],
                    bool *duplicate, struct zbc_err *err)
{
    *duplicate = false;
    zbc_sha3_256(hash, raw, len); /* = the tx hash when raw parses */
    if (index_of(mp, hash) != SIZE_MAX) {
        *duplicate = true;
        return 1;
    }
    if (mp->n >= mp->max_txs || len > mp->max_bytes - mp->bytes)
        return zbc_fail(err, "mempool is full");

    struct pool_entry e;
    memset(&e, 0, sizeof e);
    e.raw = malloc(len > 0 ? len : 1);
    if (e.raw == NULL)
        return zbc_fail(err, "out of memory admitting a transaction");
    if (len > 0)
        memcpy(e.raw, raw, len);
    e.len = len;
    uint64_t pending;
    if (!zbc_tx_check_stateless(&e.ct, g, e.raw, len, err) ||
        !zbc_tx_cost(&e.cost, &e.ct, err) ||
        !pending_of(mp, &e.ct.tx.sender, mp->n, &pending, err) ||
        !zbc_tx_check_state(tip, g, &e.ct, now_ms, pending, err)) {
        free(e.raw);
        return 0;
    }
    uint64_t stake;
    if (!zbc_apps_tx_spend(tip, &e.ct, &stake, err) ||
        (e.cost > UINT64_MAX - stake &&
         !zbc_fail(err, "insufficient balance: cost overflows"))) {
        free(e.raw);
        return 0;
    }
    e.cost += stake; /* a join's stake counts as a pending spend */
    if (mp->n == mp->cap) {
        size_t ncap = mp->cap ? mp->cap * 2 : 64;
        struct pool_entry *ne = realloc(mp->e, ncap * sizeof *ne);
        if (ne == NULL) {
            free(e.raw);
            return zbc_fail(err, "out of memory admitting a transaction");
        }
        mp->e = ne;
        mp->cap = ncap;
    }
    e.arrival_ms = now_ms;
    e.seq = mp->next_seq++;
    size_t at = mp->n;
    while (at > 0 && before(&e, &mp->e[at - 1]))
        at--;
    memmove(&mp->e[at + 1], &mp->e[at], (mp->n - at) * sizeof mp->e[0]);
    mp->e[at] = e;
    mp->n++;
    mp->bytes += len;
    return 1;
}

int zbc_mempool_after_block(struct zbc_mempool *mp, struct zbc_state *tip,
                            const struct zbc_genesis *g,
                            const struct zbc_block *b, uint64_t now_ms,
                            struct zbc_err *err)
{
    for (uint32_t i = 0; i < b->n_tx; i++) {
        uint8_t h[32];
        zbc_tx_ref_hash(h, &b->txs[i]);
        zbc_mempool_remove(mp, h);
    }
    zbc_mempool_expire(mp, now_ms);
    /* Re-check in priority order, each sender's earlier kept
     * transactions counting as pending. */
    size_t i = 0;
    while (i < mp->n) {
        uint64_t pending;
        struct zbc_err why;
        if (!pending_of(mp, &mp->e[i].ct.tx.sender, i, &pending, &why) ||
            !zbc_tx_check_state(tip, g, &mp->e[i].ct, now_ms, pending, &why)) {
            remove_at(mp, i);
            continue;
        }
        i++;
    }
    (void)err;
    return 1;
}
