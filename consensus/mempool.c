#include "consensus/mempool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "consensus/apply.h"
#include "consensus/apps_apply.h"
#include "consensus/tx_valid.h"
#include "crypto/bytes.h"
#include "crypto/hash.h"
#include "crypto/hex.h"

struct pool_entry {
    uint8_t *raw;                /* owned copy; ct borrows it */
    size_t len;
    struct zbc_checked_tx ct;
    uint64_t cost;               /* fee + amount or stake (a join's too) */
    uint64_t arrival_ms;
    uint64_t seq;                /* arrival order */
    bool dead;                   /* marked for the next compaction */
    bool app_once;               /* in `app_txs`: a move, resign or claim */
    uint64_t app_id;             /* its app (app_once) */
};

/* One sender's pooled transactions: their count and the sum of their
 * costs (128 bits: a sum above UINT64_MAX is reported as the overflow the
 * admission rule refuses, exactly as a running 64-bit sum would). */
struct sender_sum {
    struct zbc_addr addr;
    size_t count;
    unsigned __int128 sum;
};

/* Open-addressing table (linear probing, backward-shift deletion) of
 * pointers; capacity a power of two, at most half full. */
struct ptab {
    void **slot;
    size_t cap, n;
};

/* Entries are heap objects; `order` holds them sorted by priority (a total
 * order: fee per byte, then arrival), `by_hash` finds one by hash in O(1)
 * and its position by binary search in `order`; `senders` keeps each
 * sender's pending sum.  docs/benchmarks.md "Mempool" gives the costs. */
struct zbc_mempool {
    struct pool_entry **order;
    size_t n, cap;
    struct ptab by_hash;         /* struct pool_entry * */
    struct ptab senders;         /* struct sender_sum * */
    struct ptab app_txs;         /* struct pool_entry * with app_once: one
                                  * per (sender, app) */
    size_t bytes;
    size_t max_txs, max_bytes;
    size_t bound_txs;            /* zbc_mempool_set_bound; 0: none */
    uint64_t next_seq;
    /* the last drops (a ring, allocated at the first one), indexed by
     * hash: a doubly linked list per bucket, newest first; drop_head,
     * drop_next and drop_prev hold slot + 1 (0: none) */
    struct zbc_mempool_drop *drops;
    uint32_t *drop_head, *drop_next, *drop_prev;
    size_t n_drops, next_drop;
    uint32_t height;             /* the tip of the last after_block */
    uint8_t tip[32];             /* its block's hash (has_tip) */
    bool has_tip;
    size_t last_checked, last_skipped; /* zbc_mempool_last_recheck */
};

static void free_drops(struct zbc_mempool *mp);

/* ---- hash tables ---- */

#define FNV_BASIS 1469598103934665603ull

/* FNV-1a of len bytes continued from h */
static uint64_t fnv1a(uint64_t h, const uint8_t *p, size_t len)
{
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

static uint64_t addr_key(const struct zbc_addr *a)
{
    /* over type, length and payload */
    uint8_t head[5];
    memcpy(head, &a->type, 4);
    head[4] = a->len;
    size_t n = a->len < sizeof a->payload ? a->len : sizeof a->payload;
    return fnv1a(fnv1a(FNV_BASIS, head, 5), a->payload, n);
}

static uint64_t entry_key(const void *p)
{
    /* the tx hash is SHA3-256 output: its first bytes are uniform */
    return zbc_get_le64(((const struct pool_entry *)p)->ct.hash);
}

static uint64_t sender_key(const void *p)
{
    return addr_key(&((const struct sender_sum *)p)->addr);
}

static uint64_t app_tx_key_of(const struct zbc_addr *sender, uint64_t app_id)
{
    return addr_key(sender) ^ (app_id * 0x9e3779b97f4a7c15ull);
}

static uint64_t app_tx_key(const void *p)
{
    const struct pool_entry *e = p;
    return app_tx_key_of(&e->ct.tx.sender, e->app_id);
}

static int ptab_grow(struct ptab *t, uint64_t (*key)(const void *))
{
    size_t ncap = t->cap ? t->cap * 2 : 64;
    void **ns = calloc(ncap, sizeof *ns);
    if (ns == NULL)
        return 0;
    for (size_t i = 0; i < t->cap; i++) {
        if (t->slot[i] == NULL)
            continue;
        size_t j = (size_t)key(t->slot[i]) & (ncap - 1);
        while (ns[j] != NULL)
            j = (j + 1) & (ncap - 1);
        ns[j] = t->slot[i];
    }
    free(t->slot);
    t->slot = ns;
    t->cap = ncap;
    return 1;
}

/* Inserts p (not present); 0 on allocation failure. */
static int ptab_put(struct ptab *t, void *p, uint64_t (*key)(const void *))
{
    if ((t->n + 1) * 2 > t->cap && !ptab_grow(t, key))
        return 0;
    size_t j = (size_t)key(p) & (t->cap - 1);
    while (t->slot[j] != NULL)
        j = (j + 1) & (t->cap - 1);
    t->slot[j] = p;
    t->n++;
    return 1;
}

static void ptab_del_at(struct ptab *t, size_t i,
                        uint64_t (*key)(const void *))
{
    size_t mask = t->cap - 1;
    t->slot[i] = NULL;
    t->n--;
    for (size_t j = (i + 1) & mask; t->slot[j] != NULL; j = (j + 1) & mask) {
        size_t home = (size_t)key(t->slot[j]) & mask;
        /* move slot j into the hole when its home is not in (i, j] */
        if (((j - home) & mask) >= ((j - i) & mask)) {
            t->slot[i] = t->slot[j];
            t->slot[j] = NULL;
            i = j;
        }
    }
}

static size_t hash_slot(const struct zbc_mempool *mp, const uint8_t hash[32])
{
    const struct ptab *t = &mp->by_hash;
    if (t->cap == 0)
        return SIZE_MAX;
    for (size_t j = (size_t)zbc_get_le64(hash) & (t->cap - 1); t->slot[j] != NULL;
         j = (j + 1) & (t->cap - 1)) {
        const struct pool_entry *e = t->slot[j];
        if (memcmp(e->ct.hash, hash, 32) == 0)
            return j;
    }
    return SIZE_MAX;
}

static struct pool_entry *by_hash(const struct zbc_mempool *mp,
                                  const uint8_t hash[32])
{
    size_t j = hash_slot(mp, hash);
    return j == SIZE_MAX ? NULL : mp->by_hash.slot[j];
}

static size_t sender_slot(const struct zbc_mempool *mp,
                          const struct zbc_addr *a)
{
    const struct ptab *t = &mp->senders;
    if (t->cap == 0)
        return SIZE_MAX;
    for (size_t j = (size_t)addr_key(a) & (t->cap - 1); t->slot[j] != NULL;
         j = (j + 1) & (t->cap - 1)) {
        const struct sender_sum *s = t->slot[j];
        if (zbc_addr_equal(&s->addr, a))
            return j;
    }
    return SIZE_MAX;
}

/* The pooled move, resign or claim of sender for app_id, if any. */
static size_t app_tx_slot(const struct zbc_mempool *mp,
                          const struct zbc_addr *sender, uint64_t app_id)
{
    const struct ptab *t = &mp->app_txs;
    if (t->cap == 0)
        return SIZE_MAX;
    for (size_t j = (size_t)app_tx_key_of(sender, app_id) & (t->cap - 1);
         t->slot[j] != NULL; j = (j + 1) & (t->cap - 1)) {
        const struct pool_entry *e = t->slot[j];
        if (e->app_id == app_id && zbc_addr_equal(&e->ct.tx.sender, sender))
            return j;
    }
    return SIZE_MAX;
}

static struct sender_sum *sender_of(const struct zbc_mempool *mp,
                                    const struct zbc_addr *a)
{
    size_t j = sender_slot(mp, a);
    return j == SIZE_MAX ? NULL : mp->senders.slot[j];
}

/* The sender's record, created empty when missing; NULL when out of
 * memory. */
static struct sender_sum *sender_get(struct zbc_mempool *mp,
                                     const struct zbc_addr *a)
{
    struct sender_sum *s = sender_of(mp, a);
    if (s != NULL)
        return s;
    s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    s->addr = *a;
    if (!ptab_put(&mp->senders, s, sender_key)) {
        free(s);
        return NULL;
    }
    return s;
}

/* Takes e's cost out of its sender's sum (the record goes with its last
 * transaction). */
static void sender_sub(struct zbc_mempool *mp, const struct pool_entry *e)
{
    size_t j = sender_slot(mp, &e->ct.tx.sender);
    if (j == SIZE_MAX)
        return;
    struct sender_sum *s = mp->senders.slot[j];
    s->sum -= e->cost;
    if (--s->count == 0) {
        ptab_del_at(&mp->senders, j, sender_key);
        free(s);
    }
}

/* ---- the pool ---- */

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
    for (size_t i = 0; i < mp->n; i++) {
        free(mp->order[i]->raw);
        free(mp->order[i]);
    }
    for (size_t i = 0; i < mp->senders.cap; i++)
        free(mp->senders.slot[i]);
    free(mp->senders.slot);
    free(mp->by_hash.slot);
    free(mp->app_txs.slot);
    free_drops(mp);
    free(mp->order);
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

/* The count at which the pool is full now: max_txs, or the bound when
 * lower; a pool already at or above the bound (it was lowered, or
 * re-admissions passed it) is full at its size, so a higher fee displaces
 * one transaction for one and the lowered bound never evicts a crowd at
 * once.  A re-admission (zbc_mempool_readmit) is held to max_txs only. */
static size_t limit_txs(const struct zbc_mempool *mp, bool readmit)
{
    if (readmit || mp->bound_txs == 0 || mp->bound_txs >= mp->max_txs)
        return mp->max_txs;
    return mp->n > mp->bound_txs ? mp->n : mp->bound_txs;
}

void zbc_mempool_set_bound(struct zbc_mempool *mp, size_t txs)
{
    mp->bound_txs = txs;
}

void zbc_mempool_room(const struct zbc_mempool *mp, size_t *txs,
                      size_t *bytes)
{
    size_t lim = limit_txs(mp, false);
    *txs = mp->n < lim ? lim - mp->n : 0;
    *bytes = mp->bytes < mp->max_bytes ? mp->max_bytes - mp->bytes : 0;
}

bool zbc_mempool_cheapest(const struct zbc_mempool *mp, int64_t *fee,
                          size_t *len)
{
    if (mp->n == 0)
        return false;
    const struct pool_entry *e = mp->order[mp->n - 1];
    *fee = e->ct.tx.fee;
    *len = e->len;
    return true;
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

/* Number of entries in order[0, n) that come before e (its insertion
 * point; its index when e is there: seq makes the order total). */
static size_t rank_of(struct pool_entry *const *order, size_t n,
                      const struct pool_entry *e)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (before(order[mid], e))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Drops e from the hash and sender indexes and frees it (not from
 * `order`: the caller compacts or shifts). */
static void drop_entry(struct zbc_mempool *mp, struct pool_entry *e)
{
    size_t j = hash_slot(mp, e->ct.hash);
    if (j != SIZE_MAX)
        ptab_del_at(&mp->by_hash, j, entry_key);
    if (e->app_once) {
        j = app_tx_slot(mp, &e->ct.tx.sender, e->app_id);
        if (j != SIZE_MAX)
            ptab_del_at(&mp->app_txs, j, app_tx_key);
    }
    sender_sub(mp, e);
    mp->bytes -= e->len;
    free(e->raw);
    free(e);
}

/* Removes every entry marked dead in one pass. */
static void compact(struct zbc_mempool *mp)
{
    size_t k = 0;
    for (size_t i = 0; i < mp->n; i++) {
        struct pool_entry *e = mp->order[i];
        if (e->dead)
            drop_entry(mp, e);
        else
            mp->order[k++] = e;
    }
    mp->n = k;
}

bool zbc_mempool_find(const struct zbc_mempool *mp, const uint8_t hash[32],
                      size_t *position, const uint8_t **raw, size_t *len)
{
    const struct pool_entry *e = by_hash(mp, hash);
    if (e == NULL)
        return false;
    if (position != NULL)
        *position = rank_of(mp->order, mp->n, e);
    if (raw != NULL)
        *raw = e->raw;
    if (len != NULL)
        *len = e->len;
    return true;
}

size_t zbc_mempool_select(const struct zbc_mempool *mp, struct zbc_tx_ref *out,
                          size_t cap)
{
    size_t n = mp->n < cap ? mp->n : cap;
    for (size_t i = 0; i < n; i++) {
        out[i].bytes = mp->order[i]->raw;
        out[i].len = (uint32_t)mp->order[i]->len;
    }
    return n;
}

void zbc_mempool_remove(struct zbc_mempool *mp, const uint8_t hash[32])
{
    struct pool_entry *e = by_hash(mp, hash);
    if (e == NULL)
        return;
    size_t i = rank_of(mp->order, mp->n, e);
    memmove(&mp->order[i], &mp->order[i + 1],
            (mp->n - i - 1) * sizeof mp->order[0]);
    mp->n--;
    drop_entry(mp, e);
}

/* ---- drops ---- */

/* Transaction hashes are SHA3 outputs: their first bytes spread them.  A
 * sender grinding hashes into one bucket makes its look-ups as long as
 * the ring (the scan a look-up was before the index), no worse. */
#define DROP_BUCKETS 65536u

static size_t drop_bucket(const uint8_t hash[32])
{
    return ((size_t)hash[0] | (size_t)hash[1] << 8) % DROP_BUCKETS;
}

/* Takes ring slot i out of its bucket's list (the ring wrapped onto it). */
static void drop_unlink(struct zbc_mempool *mp, size_t i)
{
    uint32_t prev = mp->drop_prev[i], next = mp->drop_next[i];
    if (prev != 0)
        mp->drop_next[prev - 1] = next;
    else
        mp->drop_head[drop_bucket(mp->drops[i].hash)] = next;
    if (next != 0)
        mp->drop_prev[next - 1] = prev;
    mp->drop_next[i] = mp->drop_prev[i] = 0;
}

static void free_drops(struct zbc_mempool *mp)
{
    free(mp->drops);
    free(mp->drop_head);
    free(mp->drop_next);
    free(mp->drop_prev);
    mp->drops = NULL;
    mp->drop_head = mp->drop_next = mp->drop_prev = NULL;
}

void zbc_mempool_note_drop(struct zbc_mempool *mp, const uint8_t hash[32],
                           uint32_t height, uint64_t now_ms,
                           const char *reason)
{
    if (mp->drops == NULL) {
        /* calloc: pages of the ring are touched only as drops come */
        mp->drops = calloc(ZBC_MEMPOOL_DROPPED_MAX, sizeof *mp->drops);
        mp->drop_head = calloc(DROP_BUCKETS, sizeof *mp->drop_head);
        mp->drop_next = calloc(ZBC_MEMPOOL_DROPPED_MAX, sizeof *mp->drop_next);
        mp->drop_prev = calloc(ZBC_MEMPOOL_DROPPED_MAX, sizeof *mp->drop_prev);
        if (mp->drops == NULL || mp->drop_head == NULL ||
            mp->drop_next == NULL || mp->drop_prev == NULL) {
            free_drops(mp);
            return; /* out of memory: the status says not_found */
        }
    }
    size_t i = mp->next_drop;
    if (mp->n_drops == ZBC_MEMPOOL_DROPPED_MAX)
        drop_unlink(mp, i); /* the oldest record goes */
    struct zbc_mempool_drop *d = &mp->drops[i];
    memcpy(d->hash, hash, 32);
    d->height = height;
    d->at_ms = now_ms;
    snprintf(d->reason, sizeof d->reason, "%s", reason);
    uint32_t *head = &mp->drop_head[drop_bucket(hash)];
    mp->drop_next[i] = *head;
    mp->drop_prev[i] = 0;
    if (*head != 0)
        mp->drop_prev[*head - 1] = (uint32_t)(i + 1);
    *head = (uint32_t)(i + 1);
    mp->next_drop = (mp->next_drop + 1) % ZBC_MEMPOOL_DROPPED_MAX;
    if (mp->n_drops < ZBC_MEMPOOL_DROPPED_MAX)
        mp->n_drops++;
}

bool zbc_mempool_dropped(const struct zbc_mempool *mp, const uint8_t hash[32],
                         uint64_t now_ms, struct zbc_mempool_drop *out)
{
    if (mp->drops == NULL)
        return false;
    /* newest first: a transaction dropped twice reports the last time */
    for (uint32_t l = mp->drop_head[drop_bucket(hash)]; l != 0;
         l = mp->drop_next[l - 1]) {
        const struct zbc_mempool_drop *d = &mp->drops[l - 1];
        if (memcmp(d->hash, hash, 32) != 0)
            continue;
        if (now_ms > d->at_ms &&
            now_ms - d->at_ms > ZBC_MEMPOOL_DROPPED_KEEP_MS)
            return false;
        if (out != NULL)
            *out = *d;
        return true;
    }
    return false;
}

/* Marks e for the next compaction and records why it goes. */
static void drop_with(struct zbc_mempool *mp, struct pool_entry *e,
                      uint64_t now_ms, const char *reason)
{
    e->dead = true;
    zbc_mempool_note_drop(mp, e->ct.hash, mp->height, now_ms, reason);
}

static bool expired(const struct pool_entry *e, uint64_t now_ms)
{
    return now_ms > e->arrival_ms && now_ms - e->arrival_ms > ZBC_MEMPOOL_TTL_MS;
}

#define EXPIRED_REASON \
    "expired: no block included it within 1 hour of its arrival"

void zbc_mempool_expire(struct zbc_mempool *mp, uint64_t now_ms)
{
    bool any = false;
    for (size_t i = 0; i < mp->n; i++)
        if (expired(mp->order[i], now_ms)) {
            drop_with(mp, mp->order[i], now_ms, EXPIRED_REASON);
            any = true;
        }
    if (any)
        compact(mp);
}

static bool is_app_once(const struct zbc_checked_tx *ct)
{
    return ct->body.type == ZBC_TX_APP_MOVE ||
           ct->body.type == ZBC_TX_APP_RESIGN ||
           ct->body.type == ZBC_TX_APP_CLAIM;
}

/* The pool's policy of one move, resign or claim per (sender, app)
 * (mempool.h). */
static int check_app_once(const struct zbc_mempool *mp,
                          const struct zbc_checked_tx *ct,
                          struct zbc_err *err)
{
    if (!is_app_once(ct))
        return 1;
    uint64_t id = zbc_apps_tx_app_id(ct);
    size_t j = app_tx_slot(mp, &ct->tx.sender, id);
    if (j == SIZE_MAX)
        return 1;
    const struct pool_entry *e = mp->app_txs.slot[j];
    char hex[65];
    zbc_hex_encode(hex, e->ct.hash, 32);
    return zbc_fail(err, "a transaction of yours for app %llu is already "
                    "waiting in the mempool (tx %s): send the next one "
                    "after it is in a block", (unsigned long long)id, hex);
}

/* A pending sum as the admission rule sees it. */
static int pending_value(unsigned __int128 sum, uint64_t *out,
                         struct zbc_err *err)
{
    if (sum > UINT64_MAX)
        return zbc_fail(err, "insufficient balance: pending spends overflow");
    *out = (uint64_t)sum;
    return 1;
}

static void discard(struct pool_entry *e)
{
    free(e->raw);
    free(e);
}

/* ---- a full pool: the cheapest give way to a better fee per byte ---- */

#define EVICTED_REASON                                                  \
    "evicted: the mempool was full and a transaction paying more per " \
    "byte took its place"

/* For a newcomer of len bytes the pool is full for (readmit: held to
 * max_txs only, limit_txs): *k = how many of the cheapest entries must go
 * to make room (0: the pool takes no transactions), *need = the least fee
 * whose fee per byte beats each of them (never below the genesis
 * minimum). */
static void displace_need(const struct zbc_mempool *mp,
                          const struct zbc_genesis *g, size_t len,
                          bool readmit, size_t *k, unsigned __int128 *need)
{
    size_t freed = 0, lim = limit_txs(mp, readmit);
    *k = 0;
    *need = 0;
    while (*k < mp->n && (mp->n - *k >= lim ||
                          len > mp->max_bytes - (mp->bytes - freed))) {
        freed += mp->order[mp->n - 1 - *k]->len;
        (*k)++;
    }
    if (*k == 0)
        return;
    /* order is by fee per byte: the best of the k to go is the first */
    const struct pool_entry *top = mp->order[mp->n - *k];
    *need = (unsigned __int128)(uint64_t)top->ct.tx.fee * len / top->len + 1;
    unsigned __int128 floor = (unsigned __int128)g->min_fee_per_byte * len +
                              g->min_fee_base;
    if (*need < floor)
        *need = floor;
}

uint64_t zbc_mempool_fee_needed(const struct zbc_mempool *mp,
                                const struct zbc_genesis *g, size_t len)
{
    if (mp->n < limit_txs(mp, false) && len <= mp->max_bytes - mp->bytes)
        return 0; /* room: no fee beyond the minimum */
    if (len > mp->max_bytes)
        return UINT64_MAX;
    size_t k;
    unsigned __int128 need;
    displace_need(mp, g, len, false, &k, &need);
    return k == 0 || need > INT64_MAX ? UINT64_MAX : (uint64_t)need;
}

/* The pool is full for a newcomer of len bytes: *evict = how many of the
 * cheapest entries must go to make room, when the newcomer pays more per
 * byte than each of them; else the refusal names the fee that would. */
static int room_for(const struct zbc_mempool *mp, const struct zbc_genesis *g,
                    const uint8_t *raw, size_t len, bool readmit,
                    size_t *evict, struct zbc_err *err)
{
    if (len > mp->max_bytes)
        return zbc_fail(err, "mempool is full: a transaction of %zu bytes "
                        "is larger than the whole mempool (%zu bytes)", len,
                        mp->max_bytes);
    struct zbc_tx tx;
    if (!zbc_tx_parse(&tx, raw, len, err))
        return 0;
    size_t k;
    unsigned __int128 need;
    displace_need(mp, g, len, readmit, &k, &need);
    if (k == 0) /* a pool of no transactions at all */
        return zbc_fail(err, "mempool is full: it takes no transactions");
    unsigned __int128 have =
        (unsigned __int128)(uint64_t)(tx.fee > 0 ? tx.fee : 0);
    if (have < need) {
        if (need > INT64_MAX)
            return zbc_fail(err, "mempool is full: no fee for these %zu "
                            "bytes can displace its cheapest transactions",
                            len);
        return zbc_fail(err, "mempool is full (%zu transactions, %zu bytes): "
                        "a fee of at least %llu for these %zu bytes "
                        "displaces its cheapest", mp->n, mp->bytes,
                        (unsigned long long)need, len);
    }
    *evict = k;
    return 1;
}

/* Drops the last k entries of the order (room_for chose them). */
static void evict_last(struct zbc_mempool *mp, size_t k, uint64_t now_ms)
{
    for (; k > 0; k--) {
        struct pool_entry *e = mp->order[--mp->n];
        zbc_mempool_note_drop(mp, e->ct.hash, mp->height, now_ms,
                              EVICTED_REASON);
        drop_entry(mp, e);
    }
}

int zbc_mempool_add(struct zbc_mempool *mp, struct zbc_state *tip,
                    const struct zbc_genesis *g, const uint8_t *raw,
                    size_t len, uint64_t now_ms, uint8_t hash[32],
                    bool *duplicate, struct zbc_err *err)
{
    return zbc_mempool_add_known(mp, tip, g, raw, len, NULL, now_ms, hash,
                                 duplicate, err);
}

/* given: hash holds SHA3-256(raw) already (the caller's, computed from
 * these bytes); else it is computed here. */
static int add(struct zbc_mempool *mp, struct zbc_state *tip,
               const struct zbc_genesis *g, const uint8_t *raw, size_t len,
               const struct zbc_tx_known *known, bool readmit, bool given,
               uint64_t now_ms, uint8_t hash[32], bool *duplicate,
               struct zbc_err *err)
{
    *duplicate = false;
    if (!given)
        zbc_sha3_256(hash, raw, len); /* = the tx hash when raw parses */
    if (by_hash(mp, hash) != NULL) {
        *duplicate = true;
        return 1;
    }
    size_t evict = 0;
    if ((mp->n >= limit_txs(mp, readmit) || len > mp->max_bytes - mp->bytes) &&
        !room_for(mp, g, raw, len, readmit, &evict, err))
        return 0;

    struct pool_entry *e = calloc(1, sizeof *e);
    if (e == NULL)
        return zbc_fail(err, "out of memory admitting a transaction");
    e->raw = malloc(len > 0 ? len : 1);
    if (e->raw == NULL) {
        free(e);
        return zbc_fail(err, "out of memory admitting a transaction");
    }
    if (len > 0)
        memcpy(e->raw, raw, len);
    e->len = len;
    if (!zbc_tx_check_stateless_hashed(&e->ct, g, e->raw, len, hash, known,
                                       err) ||
        !zbc_tx_cost(&e->cost, &e->ct, err) ||
        !check_app_once(mp, &e->ct, err)) {
        discard(e);
        return 0;
    }
    e->app_once = is_app_once(&e->ct);
    e->app_id = e->app_once ? zbc_apps_tx_app_id(&e->ct) : 0;
    const struct sender_sum *ss = sender_of(mp, &e->ct.tx.sender);
    uint64_t pending = 0;
    if ((ss != NULL && !pending_value(ss->sum, &pending, err)) ||
        !zbc_tx_check_state(tip, g, &e->ct, now_ms, pending, err)) {
        discard(e);
        return 0;
    }
    uint64_t stake;
    if (!zbc_apps_tx_spend(tip, &e->ct, &stake, err) ||
        (e->cost > UINT64_MAX - stake &&
         !zbc_fail(err, "insufficient balance: cost overflows"))) {
        discard(e);
        return 0;
    }
    e->cost += stake; /* a join's stake counts as a pending spend */
    evict_last(mp, evict, now_ms);
    e->arrival_ms = now_ms;
    e->seq = mp->next_seq;
    if (mp->n == mp->cap) {
        size_t ncap = mp->cap ? mp->cap * 2 : 64;
        struct pool_entry **no = realloc(mp->order, ncap * sizeof *no);
        if (no == NULL) {
            discard(e);
            return zbc_fail(err, "out of memory admitting a transaction");
        }
        mp->order = no;
        mp->cap = ncap;
    }
    struct sender_sum *s = sender_get(mp, &e->ct.tx.sender);
    bool hashed = s != NULL && ptab_put(&mp->by_hash, e, entry_key);
    if (!hashed ||
        (e->app_once && !ptab_put(&mp->app_txs, e, app_tx_key))) {
        if (hashed)
            ptab_del_at(&mp->by_hash, hash_slot(mp, e->ct.hash), entry_key);
        if (s != NULL && s->count == 0) {
            ptab_del_at(&mp->senders, sender_slot(mp, &s->addr), sender_key);
            free(s);
        }
        discard(e);
        return zbc_fail(err, "out of memory admitting a transaction");
    }
    s->count++;
    s->sum += e->cost;
    mp->next_seq++;
    size_t at = rank_of(mp->order, mp->n, e);
    memmove(&mp->order[at + 1], &mp->order[at],
            (mp->n - at) * sizeof mp->order[0]);
    mp->order[at] = e;
    mp->n++;
    mp->bytes += len;
    return 1;
}

int zbc_mempool_add_known(struct zbc_mempool *mp, struct zbc_state *tip,
                          const struct zbc_genesis *g, const uint8_t *raw,
                          size_t len, const struct zbc_tx_known *known,
                          uint64_t now_ms, uint8_t hash[32], bool *duplicate,
                          struct zbc_err *err)
{
    return add(mp, tip, g, raw, len, known, false, false, now_ms, hash,
               duplicate, err);
}

int zbc_mempool_add_hashed(struct zbc_mempool *mp, struct zbc_state *tip,
                           const struct zbc_genesis *g, const uint8_t *raw,
                           size_t len, const struct zbc_tx_known *known,
                           uint64_t now_ms, const uint8_t hash[32],
                           bool *duplicate, struct zbc_err *err)
{
    uint8_t h[32];
    memcpy(h, hash, 32);
    return add(mp, tip, g, raw, len, known, false, true, now_ms, h, duplicate,
               err);
}

int zbc_mempool_readmit(struct zbc_mempool *mp, struct zbc_state *tip,
                        const struct zbc_genesis *g, const uint8_t *raw,
                        size_t len, const struct zbc_tx_known *known,
                        uint64_t now_ms, uint8_t hash[32], bool *duplicate,
                        struct zbc_err *err)
{
    return add(mp, tip, g, raw, len, known, true, false, now_ms, hash,
               duplicate, err);
}

/* The accounts an undo record changed, as sorted 64-bit digests of their
 * keys (a collision only re-checks a sender that was not touched). */
struct touched {
    uint64_t *h;
    size_t n;
};

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* false on allocation failure (the caller re-checks everything) */
static bool touched_from(struct touched *t, const struct zbc_undo *u)
{
    t->n = 0;
    t->h = malloc((u->n > 0 ? u->n : 1) * sizeof *t->h);
    if (t->h == NULL)
        return false;
    for (size_t i = 0; i < u->n; i++)
        if (u->e[i].table == ZBC_TABLE_ACCOUNTS)
            t->h[t->n++] = fnv1a(FNV_BASIS, u->e[i].key, u->e[i].klen);
    qsort(t->h, t->n, sizeof *t->h, cmp_u64);
    return true;
}

static bool touched_has(const struct touched *t, const struct zbc_addr *a)
{
    uint8_t key[ZBC_ADDR_BYTES_MAX];
    uint64_t h = fnv1a(FNV_BASIS, key, zbc_addr_write(key, a));
    return bsearch(&h, t->h, t->n, sizeof h, cmp_u64) != NULL;
}

int zbc_mempool_after_block(struct zbc_mempool *mp, struct zbc_state *tip,
                            const struct zbc_genesis *g,
                            const struct zbc_block *b, uint64_t now_ms,
                            struct zbc_err *err)
{
    return zbc_mempool_after_block_undo(mp, tip, g, b, NULL, now_ms, err);
}

int zbc_mempool_after_block_undo(struct zbc_mempool *mp,
                                 struct zbc_state *tip,
                                 const struct zbc_genesis *g,
                                 const struct zbc_block *b,
                                 const struct zbc_undo *u, uint64_t now_ms,
                                 struct zbc_err *err)
{
    return zbc_mempool_after_block_hashed(mp, tip, g, b, NULL, u, now_ms,
                                          err);
}

int zbc_mempool_after_block_hashed(struct zbc_mempool *mp,
                                   struct zbc_state *tip,
                                   const struct zbc_genesis *g,
                                   const struct zbc_block *b,
                                   const struct zbc_checked_tx *txs,
                                   const struct zbc_undo *u, uint64_t now_ms,
                                   struct zbc_err *err)
{
    /* Targeted only on the state the pool was last checked against
     * (the block's parent) changed by exactly u's writes */
    struct touched tw = {NULL, 0};
    bool targeted = u != NULL && mp->has_tip &&
                    memcmp(b->header.prev_hash, mp->tip, 32) == 0 &&
                    touched_from(&tw, u);
    mp->height = b->header.height;
    zbc_block_hash(mp->tip, &b->header);
    mp->has_tip = true;
    mp->last_checked = mp->last_skipped = 0;
    for (uint32_t i = 0; i < b->n_tx; i++) {
        uint8_t own[32];
        const uint8_t *h = own;
        if (txs != NULL)
            h = txs[i].hash;
        else
            zbc_tx_ref_hash(own, &b->txs[i]);
        struct pool_entry *e = by_hash(mp, h);
        if (e != NULL)
            e->dead = true; /* included: not a drop */
    }
    for (size_t i = 0; i < mp->n; i++)
        if (!mp->order[i]->dead && expired(mp->order[i], now_ms))
            drop_with(mp, mp->order[i], now_ms, EXPIRED_REASON);
    compact(mp);
    /* Re-check in priority order, each sender's earlier kept
     * transactions counting as pending: the sums restart from zero and
     * grow with each kept transaction. */
    for (size_t i = 0; i < mp->senders.cap; i++) {
        struct sender_sum *s = mp->senders.slot[i];
        if (s != NULL)
            s->sum = 0;
    }
    bool any = false;
    for (size_t i = 0; i < mp->n; i++) {
        struct pool_entry *e = mp->order[i];
        struct sender_sum *s = sender_of(mp, &e->ct.tx.sender);
        uint64_t pending = 0;
        struct zbc_err why;
        bool ok = pending_value(s->sum, &pending, &why);
        if (ok && targeted && e->ct.body.type == ZBC_TX_SEND &&
            !touched_has(&tw, &e->ct.tx.sender)) {
            /* The block changed neither the sender's balance nor (not
             * being in it) the transaction's hash record, and the
             * sender's pooled costs never exceed the balance they were
             * checked against (admission and every re-check keep that):
             * of the state rules only the time window can have changed
             * (docs/node.md "Mempool re-check"). */
            ok = zbc_tx_valid_time(e->ct.tx.timestamp, now_ms, &why);
            mp->last_skipped++;
        } else if (ok) {
            ok = zbc_tx_check_state(tip, g, &e->ct, now_ms, pending, &why);
            mp->last_checked++;
        }
        if (!ok) {
            char reason[ZBC_MEMPOOL_REASON_MAX];
            snprintf(reason, sizeof reason, "invalid after block %u: %s",
                     mp->height, why.msg);
            drop_with(mp, e, now_ms, reason);
            any = true;
            continue;
        }
        s->sum += e->cost;
    }
    free(tw.h);
    if (any) {
        /* the dead ones' costs were never added back: put them in so
         * drop_entry's subtraction leaves the kept ones' sum */
        for (size_t i = 0; i < mp->n; i++)
            if (mp->order[i]->dead)
                sender_of(mp, &mp->order[i]->ct.tx.sender)->sum +=
                    mp->order[i]->cost;
        compact(mp);
    }
    (void)err;
    return 1;
}

void zbc_mempool_last_recheck(const struct zbc_mempool *mp, size_t *checked,
                              size_t *skipped)
{
    *checked = mp->last_checked;
    *skipped = mp->last_skipped;
}
