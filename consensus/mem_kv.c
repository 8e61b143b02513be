#include "consensus/mem_kv.h"

#include <stdlib.h>
#include <string.h>

struct mem_entry {
    uint8_t klen;
    uint8_t key[ZBC_KV_KEY_MAX];
    size_t vlen;
    uint8_t *val;
};

struct mem_table {
    size_t n, cap;
    struct mem_entry *e; /* sorted by (key bytes, length) */
};

struct zbc_mem_kv {
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

/* Index of key, or of the slot where it would go (*hit says which). */
static size_t find(const struct mem_table *t, const uint8_t *key, size_t klen,
                   int *hit)
{
    size_t lo = 0, hi = t->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = key_cmp(t->e[mid].key, t->e[mid].klen, key, klen);
        if (c == 0) {
            *hit = 1;
            return mid;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *hit = 0;
    return lo;
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
    int hit;
    size_t i = find(&m->t[t], key, klen, &hit);
    if (!hit)
        return 1;
    const struct mem_entry *e = &m->t[t].e[i];
    if (e->vlen > cap)
        return zbc_fail(err, "mem_kv: value of %zu bytes exceeds the %zu-byte "
                             "buffer", e->vlen, cap);
    if (e->vlen > 0)
        memcpy(val, e->val, e->vlen);
    *vlen = e->vlen;
    *found = true;
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
    uint8_t *copy = malloc(vlen > 0 ? vlen : 1);
    if (copy == NULL)
        return zbc_fail(err, "mem_kv: out of memory");
    if (vlen > 0)
        memcpy(copy, val, vlen);
    struct mem_table *tb = &m->t[t];
    int hit;
    size_t i = find(tb, key, klen, &hit);
    if (hit) {
        free(tb->e[i].val);
        tb->e[i].val = copy;
        tb->e[i].vlen = vlen;
        return 1;
    }
    if (tb->n == tb->cap) {
        size_t ncap = tb->cap ? tb->cap * 2 : 16;
        struct mem_entry *ne = realloc(tb->e, ncap * sizeof *ne);
        if (ne == NULL) {
            free(copy);
            return zbc_fail(err, "mem_kv: out of memory");
        }
        tb->e = ne;
        tb->cap = ncap;
    }
    memmove(&tb->e[i + 1], &tb->e[i], (tb->n - i) * sizeof tb->e[0]);
    tb->n++;
    struct mem_entry *e = &tb->e[i];
    e->klen = (uint8_t)klen;
    memcpy(e->key, key, klen);
    e->vlen = vlen;
    e->val = copy;
    return 1;
}

static int mem_del(void *ctx, enum zbc_table t, const uint8_t *key,
                   size_t klen, struct zbc_err *err)
{
    struct zbc_mem_kv *m = ctx;
    if (!check_table(t, klen, err))
        return 0;
    struct mem_table *tb = &m->t[t];
    int hit;
    size_t i = find(tb, key, klen, &hit);
    if (!hit)
        return 1;
    free(tb->e[i].val);
    memmove(&tb->e[i], &tb->e[i + 1], (tb->n - i - 1) * sizeof tb->e[0]);
    tb->n--;
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
    const struct mem_table *tb = &m->t[t];
    for (size_t i = 0; i < tb->n; i++)
        if (!fn(arg, tb->e[i].key, tb->e[i].klen, tb->e[i].val, tb->e[i].vlen,
                err))
            return 0;
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
    return calloc(1, sizeof(struct zbc_mem_kv));
}

void zbc_mem_kv_free(struct zbc_mem_kv *m)
{
    if (m == NULL)
        return;
    for (size_t t = 0; t < ZBC_TABLE_COUNT; t++) {
        for (size_t i = 0; i < m->t[t].n; i++)
            free(m->t[t].e[i].val);
        free(m->t[t].e);
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
        for (size_t i = 0; i < src->n; i++)
            if (!mem_put(c, (enum zbc_table)t, src->e[i].key, src->e[i].klen,
                         src->e[i].val, src->e[i].vlen, NULL)) {
                zbc_mem_kv_free(c);
                return NULL;
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
        for (size_t i = 0; i < x->n; i++) {
            if (key_cmp(x->e[i].key, x->e[i].klen, y->e[i].key,
                        y->e[i].klen) != 0 ||
                x->e[i].vlen != y->e[i].vlen ||
                (x->e[i].vlen > 0 &&
                 memcmp(x->e[i].val, y->e[i].val, x->e[i].vlen) != 0))
                return 0;
        }
    }
    return 1;
}
