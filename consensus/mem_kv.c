/* In-memory struct zbc_kv backend (docs/audit.md "The replay's memory").
 *
 * Each table is a slab of entries (stable slot ids, a free list) found
 * through an open-addressing hash index (linear probing, backward-shift
 * deletion, load at most 1/2) keyed by SipHash-2-4 with a random key per
 * map, so get/put/del are O(1) expected whatever keys a peer chooses.
 * The key-ordered walk `each` promises is kept as a cached sorted list of
 * slot references: inserts since the last walk are sorted alone and
 * merged in (O(n + k log k)); a reference whose slot was freed or reused
 * since (its generation moved on) is dropped by the merge. */
#include "consensus/mem_kv.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

struct mem_entry {
    uint32_t hash;
    uint32_t gen;    /* bumped each time the slot is taken */
    uint32_t vlen;
    uint8_t klen;    /* 0: free slot */
    uint8_t key[ZBC_KV_KEY_MAX];
    uint8_t *val;
};

/* A slot as the sorted list saw it. */
struct mem_ref {
    uint32_t id, gen;
};

struct ref_list {
    size_t n, cap;
    struct mem_ref *r;
};

struct mem_table {
    struct mem_entry *e;   /* slab: slots 0..used-1 */
    size_t used, cap;
    uint32_t *free_ids;    /* free slots below used */
    size_t n_free, free_cap;
    size_t n;              /* live entries */
    uint32_t *idx;         /* hash index: slot id + 1, 0 empty */
    size_t idx_cap;        /* power of two (0 before the first insert) */
    struct ref_list sorted; /* every live entry in key order, as of the
                             * last walk, plus stale references */
    struct ref_list fresh;  /* slots taken since the last walk */
};

struct zbc_mem_kv {
    unsigned char sip[crypto_shorthash_KEYBYTES];
    struct mem_table t[ZBC_TABLE_COUNT];
};

static int key_cmp(const uint8_t *a, size_t alen, const uint8_t *b,
                   size_t blen)
{
    size_t n = alen < blen ? alen : blen;
    int c = memcmp(a, b, n);
    if (c != 0)
        return c;
    return (alen > blen) - (alen < blen);
}

static uint32_t key_hash(const struct zbc_mem_kv *m, const uint8_t *key,
                         size_t klen)
{
    unsigned char h[crypto_shorthash_BYTES];
    crypto_shorthash(h, key, klen, m->sip);
    uint32_t v;
    memcpy(&v, h, sizeof v);
    return v;
}

/* Position in idx of key (*hit), or of the empty cell ending its probe. */
static size_t probe(const struct mem_table *tb, uint32_t hash,
                    const uint8_t *key, size_t klen, bool *hit)
{
    size_t mask = tb->idx_cap - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        uint32_t s = tb->idx[i];
        if (s == 0) {
            *hit = false;
            return i;
        }
        const struct mem_entry *e = &tb->e[s - 1];
        if (e->hash == hash && e->klen == klen &&
            memcmp(e->key, key, klen) == 0) {
            *hit = true;
            return i;
        }
    }
}

static int grow_index(struct mem_table *tb)
{
    size_t ncap = tb->idx_cap ? 2 * tb->idx_cap : 64;
    uint32_t *ni = calloc(ncap, sizeof *ni);
    if (ni == NULL)
        return 0;
    size_t mask = ncap - 1;
    for (size_t j = 0; j < tb->idx_cap; j++) {
        uint32_t s = tb->idx[j];
        if (s == 0)
            continue;
        size_t i = tb->e[s - 1].hash & mask;
        while (ni[i] != 0)
            i = (i + 1) & mask;
        ni[i] = s;
    }
    free(tb->idx);
    tb->idx = ni;
    tb->idx_cap = ncap;
    return 1;
}

static int refs_push(struct ref_list *l, struct mem_ref r)
{
    if (l->n == l->cap) {
        size_t ncap = l->cap ? 2 * l->cap : 16;
        struct mem_ref *nr = realloc(l->r, ncap * sizeof *nr);
        if (nr == NULL)
            return 0;
        l->r = nr;
        l->cap = ncap;
    }
    l->r[l->n++] = r;
    return 1;
}

static bool ref_live(const struct mem_table *tb, struct mem_ref r)
{
    const struct mem_entry *e = &tb->e[r.id];
    return e->klen != 0 && e->gen == r.gen;
}

static int check_table(enum zbc_table t, size_t klen, struct zbc_err *err)
{
    if ((unsigned)t >= ZBC_TABLE_COUNT)
        return zbc_fail(err, "mem_kv: table %d does not exist", (int)t);
    if (klen == 0 || klen > ZBC_KV_KEY_MAX)
        return zbc_fail(err, "mem_kv: key length %zu is out of range", klen);
    return 1;
}

static int mem_get(void *ctx, enum zbc_table t, const uint8_t *key,
                   size_t klen, uint8_t *val, size_t cap, size_t *vlen,
                   bool *found, struct zbc_err *err)
{
    struct zbc_mem_kv *m = ctx;
    *found = false;
    if (!check_table(t, klen, err))
        return 0;
    const struct mem_table *tb = &m->t[t];
    if (tb->n == 0)
        return 1;
    bool hit;
    size_t i = probe(tb, key_hash(m, key, klen), key, klen, &hit);
    if (!hit)
        return 1;
    const struct mem_entry *e = &tb->e[tb->idx[i] - 1];
    if (e->vlen > cap)
        return zbc_fail(err, "mem_kv: value of %u bytes exceeds the %zu-byte "
                             "buffer", e->vlen, cap);
    if (e->vlen > 0)
        memcpy(val, e->val, e->vlen);
    *vlen = e->vlen;
    *found = true;
    return 1;
}

/* A free slot id for a new entry (the slab grows when none is free). */
static int take_slot(struct mem_table *tb, uint32_t *id)
{
    if (tb->n_free > 0) {
        *id = tb->free_ids[--tb->n_free];
        return 1;
    }
    if (tb->used >= UINT32_MAX - 1)
        return 0;
    if (tb->used == tb->cap) {
        size_t ncap = tb->cap ? 2 * tb->cap : 16;
        struct mem_entry *ne = realloc(tb->e, ncap * sizeof *ne);
        if (ne == NULL)
            return 0;
        tb->e = ne;
        tb->cap = ncap;
    }
    tb->e[tb->used].gen = 0;
    tb->e[tb->used].klen = 0;
    *id = (uint32_t)tb->used++;
    return 1;
}

static int mem_put(void *ctx, enum zbc_table t, const uint8_t *key,
                   size_t klen, const uint8_t *val, size_t vlen,
                   struct zbc_err *err)
{
    struct zbc_mem_kv *m = ctx;
    if (!check_table(t, klen, err))
        return 0;
    if (vlen > ZBC_KV_VAL_MAX)
        return zbc_fail(err, "mem_kv: value of %zu bytes is too large", vlen);
    struct mem_table *tb = &m->t[t];
    /* room first, so that nothing below fails half way */
    if ((tb->n + 1) * 2 > tb->idx_cap && !grow_index(tb))
        return zbc_fail(err, "mem_kv: out of memory");
    if (tb->free_cap < tb->used + 1) {
        size_t ncap = tb->free_cap ? 2 * tb->free_cap : 16;
        while (ncap < tb->used + 1)
            ncap *= 2;
        uint32_t *nf = realloc(tb->free_ids, ncap * sizeof *nf);
        if (nf == NULL)
            return zbc_fail(err, "mem_kv: out of memory");
        tb->free_ids = nf;
        tb->free_cap = ncap;
    }
    uint8_t *copy = malloc(vlen > 0 ? vlen : 1);
    if (copy == NULL)
        return zbc_fail(err, "mem_kv: out of memory");
    if (vlen > 0)
        memcpy(copy, val, vlen);
    uint32_t hash = key_hash(m, key, klen);
    bool hit;
    size_t i = probe(tb, hash, key, klen, &hit);
    if (hit) {
        struct mem_entry *e = &tb->e[tb->idx[i] - 1];
        free(e->val);
        e->val = copy;
        e->vlen = (uint32_t)vlen;
        return 1;
    }
    uint32_t id;
    if (!take_slot(tb, &id)) {
        free(copy);
        return zbc_fail(err, "mem_kv: out of memory");
    }
    struct mem_entry *e = &tb->e[id];
    e->gen++;
    /* inserts and deletes between walks leave dead references: drop them
     * before they outnumber the live entries (amortised O(1)) */
    if (tb->fresh.n >= 2 * tb->n + 64) {
        size_t k = 0;
        for (size_t j = 0; j < tb->fresh.n; j++)
            if (ref_live(tb, tb->fresh.r[j]))
                tb->fresh.r[k++] = tb->fresh.r[j];
        tb->fresh.n = k;
    }
    if (!refs_push(&tb->fresh, (struct mem_ref){id, e->gen})) {
        tb->free_ids[tb->n_free++] = id;
        free(copy);
        return zbc_fail(err, "mem_kv: out of memory");
    }
    e->hash = hash;
    e->klen = (uint8_t)klen;
    memcpy(e->key, key, klen);
    e->vlen = (uint32_t)vlen;
    e->val = copy;
    tb->idx[i] = id + 1;
    tb->n++;
    return 1;
}

static int mem_del(void *ctx, enum zbc_table t, const uint8_t *key,
                   size_t klen, struct zbc_err *err)
{
    struct zbc_mem_kv *m = ctx;
    if (!check_table(t, klen, err))
        return 0;
    struct mem_table *tb = &m->t[t];
    if (tb->n == 0)
        return 1;
    bool hit;
    size_t i = probe(tb, key_hash(m, key, klen), key, klen, &hit);
    if (!hit)
        return 1;
    uint32_t id = tb->idx[i] - 1;
    struct mem_entry *e = &tb->e[id];
    free(e->val);
    e->val = NULL;
    e->klen = 0;
    tb->free_ids[tb->n_free++] = id; /* free_cap >= used (mem_put) */
    tb->n--;
    /* backward-shift deletion: every entry of the probe run after i that
     * may move to the hole does, so lookups never need tombstones */
    size_t mask = tb->idx_cap - 1, hole = i;
    for (size_t j = (i + 1) & mask; tb->idx[j] != 0; j = (j + 1) & mask) {
        size_t home = tb->e[tb->idx[j] - 1].hash & mask;
        /* j's entry can fill the hole when its home is not in (hole, j] */
        if (((j - home) & mask) >= ((j - hole) & mask)) {
            tb->idx[hole] = tb->idx[j];
            hole = j;
        }
    }
    tb->idx[hole] = 0;
    return 1;
}

static int entry_cmp(const void *a, const void *b)
{
    const struct mem_entry *x = *(const struct mem_entry *const *)a;
    const struct mem_entry *y = *(const struct mem_entry *const *)b;
    return key_cmp(x->key, x->klen, y->key, y->klen);
}

/* Brings tb->sorted up to date: exactly the live entries, in key order. */
static int sort_table(struct mem_table *tb)
{
    size_t k = 0;
    const struct mem_entry **nw = NULL;
    if (tb->fresh.n > 0) {
        nw = malloc(tb->fresh.n * sizeof *nw);
        if (nw == NULL)
            return 0;
        for (size_t i = 0; i < tb->fresh.n; i++)
            if (ref_live(tb, tb->fresh.r[i]))
                nw[k++] = &tb->e[tb->fresh.r[i].id];
        qsort(nw, k, sizeof *nw, entry_cmp);
    }
    struct mem_ref *out = malloc((tb->n > 0 ? tb->n : 1) * sizeof *out);
    if (out == NULL) {
        free(nw);
        return 0;
    }
    size_t a = 0, b = 0, o = 0;
    while (o < tb->n) {
        while (a < tb->sorted.n && !ref_live(tb, tb->sorted.r[a]))
            a++;
        const struct mem_entry *x = a < tb->sorted.n
                                        ? &tb->e[tb->sorted.r[a].id]
                                        : NULL;
        const struct mem_entry *y = b < k ? nw[b] : NULL;
        if (x == NULL && y == NULL)
            break; /* cannot happen: n counts exactly these */
        if (y == NULL || (x != NULL && key_cmp(x->key, x->klen, y->key,
                                               y->klen) < 0)) {
            out[o++] = tb->sorted.r[a++];
        } else {
            uint32_t id = (uint32_t)(y - tb->e);
            out[o++] = (struct mem_ref){id, y->gen};
            b++;
        }
    }
    free(nw);
    free(tb->sorted.r);
    tb->sorted.r = out;
    tb->sorted.n = o;
    tb->sorted.cap = tb->n > 0 ? tb->n : 1;
    tb->fresh.n = 0;
    return 1;
}

static int mem_each(void *ctx, enum zbc_table t,
                    int (*fn)(void *arg, const uint8_t *key, size_t klen,
                              const uint8_t *val, size_t vlen,
                              struct zbc_err *err),
                    void *arg, struct zbc_err *err)
{
    struct zbc_mem_kv *m = ctx;
    if ((unsigned)t >= ZBC_TABLE_COUNT)
        return zbc_fail(err, "mem_kv: table %d does not exist", (int)t);
    struct mem_table *tb = &m->t[t];
    if ((tb->fresh.n > 0 || tb->sorted.n != tb->n) && !sort_table(tb))
        return zbc_fail(err, "mem_kv: out of memory sorting %zu entries",
                        tb->n);
    for (size_t i = 0; i < tb->sorted.n; i++) {
        const struct mem_entry *e = &tb->e[tb->sorted.r[i].id];
        if (!fn(arg, e->key, e->klen, e->val, e->vlen, err))
            return 0;
    }
    return 1;
}

static const struct zbc_kv_ops mem_ops = {
    .get = mem_get,
    .put = mem_put,
    .del = mem_del,
    .each = mem_each,
};

struct zbc_mem_kv *zbc_mem_kv_new(void)
{
    if (sodium_init() < 0)
        return NULL;
    struct zbc_mem_kv *m = calloc(1, sizeof(struct zbc_mem_kv));
    if (m != NULL)
        crypto_shorthash_keygen(m->sip);
    return m;
}

void zbc_mem_kv_free(struct zbc_mem_kv *m)
{
    if (m == NULL)
        return;
    for (size_t t = 0; t < ZBC_TABLE_COUNT; t++) {
        struct mem_table *tb = &m->t[t];
        for (size_t i = 0; i < tb->used; i++)
            if (tb->e[i].klen != 0)
                free(tb->e[i].val);
        free(tb->e);
        free(tb->free_ids);
        free(tb->idx);
        free(tb->sorted.r);
        free(tb->fresh.r);
    }
    free(m);
}

struct zbc_kv zbc_mem_kv(struct zbc_mem_kv *m)
{
    struct zbc_kv kv = {&mem_ops, m};
    return kv;
}

size_t zbc_mem_kv_count(const struct zbc_mem_kv *m, enum zbc_table t)
{
    return (unsigned)t < ZBC_TABLE_COUNT ? m->t[t].n : 0;
}

struct zbc_mem_kv *zbc_mem_kv_clone(const struct zbc_mem_kv *m)
{
    struct zbc_mem_kv *c = zbc_mem_kv_new();
    if (c == NULL)
        return NULL;
    for (size_t t = 0; t < ZBC_TABLE_COUNT; t++) {
        const struct mem_table *src = &m->t[t];
        for (size_t i = 0; i < src->used; i++) {
            const struct mem_entry *e = &src->e[i];
            if (e->klen != 0 &&
                !mem_put(c, (enum zbc_table)t, e->key, e->klen, e->val,
                         e->vlen, NULL)) {
                zbc_mem_kv_free(c);
                return NULL;
            }
        }
    }
    return c;
}

int zbc_mem_kv_equal(const struct zbc_mem_kv *a, const struct zbc_mem_kv *b)
{
    for (size_t t = 0; t < ZBC_TABLE_COUNT; t++) {
        const struct mem_table *x = &a->t[t], *y = &b->t[t];
        if (x->n != y->n)
            return 0;
        for (size_t i = 0; i < x->used; i++) {
            const struct mem_entry *e = &x->e[i];
            if (e->klen == 0)
                continue;
            bool hit;
            size_t j = probe(y, key_hash(b, e->key, e->klen), e->key, e->klen,
                             &hit);
            if (!hit)
                return 0;
            const struct mem_entry *f = &y->e[y->idx[j] - 1];
            if (f->vlen != e->vlen ||
                (e->vlen > 0 && memcmp(f->val, e->val, e->vlen) != 0))
                return 0;
        }
    }
    return 1;
}
