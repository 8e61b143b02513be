#include "consensus/state.h"

#include <stdlib.h>
#include <string.h>

static const uint8_t lthash_key[] = ZBC_META_KEY_LTHASH;
#define LTHASH_KEY_LEN (sizeof lthash_key - 1)

static bool is_bookkeeping(enum zbc_table t, const uint8_t *key, size_t klen)
{
    return t == ZBC_TABLE_META && klen == LTHASH_KEY_LEN &&
           memcmp(key, lthash_key, klen) == 0;
}

static int check_key(enum zbc_table t, size_t klen, struct zbc_err *err)
{
    if ((unsigned)t >= ZBC_TABLE_COUNT)
        return zbc_fail(err, "state table %d does not exist", (int)t);
    if (klen == 0 || klen > ZBC_KV_KEY_MAX)
        return zbc_fail(err, "state key length %zu is out of range 1..%d",
                        klen, ZBC_KV_KEY_MAX);
    return 1;
}

/* Raw read through the backend. */
static int kv_get(struct zbc_state *s, enum zbc_table t, const uint8_t *key,
                  size_t klen, uint8_t *val, size_t cap, size_t *vlen,
                  bool *found, struct zbc_err *err)
{
    *found = false;
    if (!s->kv.ops->get(s->kv.ctx, t, key, klen, val, cap, vlen, found, err))
        return 0;
    if (!*found)
        *vlen = 0;
    return 1;
}

int zbc_state_open(struct zbc_state *s, struct zbc_kv kv, struct zbc_err *err)
{
    memset(s, 0, sizeof *s);
    s->kv = kv;
    uint8_t buf[ZBC_LTHASH_BYTES];
    size_t vlen;
    bool found;
    if (!kv_get(s, ZBC_TABLE_META, lthash_key, LTHASH_KEY_LEN, buf,
                sizeof buf, &vlen, &found, err))
        return zbc_fail_prefix(err, "cannot read the state accumulator");
    if (!found) {
        zbc_lthash_zero(&s->acc);
        return 1;
    }
    if (vlen != ZBC_LTHASH_BYTES)
        return zbc_fail(err, "stored state accumulator has %zu bytes, not %d",
                        vlen, ZBC_LTHASH_BYTES);
    zbc_lthash_from_bytes(&s->acc, buf);
    return 1;
}

void zbc_state_close(struct zbc_state *s)
{
    zbc_undo_free(&s->undo);
}

void zbc_state_begin(struct zbc_state *s)
{
    zbc_undo_free(&s->undo);
}

int zbc_state_commit(struct zbc_state *s, struct zbc_err *err)
{
    uint8_t buf[ZBC_LTHASH_BYTES];
    zbc_lthash_to_bytes(buf, &s->acc);
    return s->kv.ops->put(s->kv.ctx, ZBC_TABLE_META, lthash_key,
                          LTHASH_KEY_LEN, buf, sizeof buf, err);
}

size_t zbc_state_mark(const struct zbc_state *s)
{
    return s->undo.n;
}

void zbc_state_take_undo(struct zbc_state *s, struct zbc_undo *out)
{
    *out = s->undo;
    memset(&s->undo, 0, sizeof s->undo);
}

int zbc_state_get(struct zbc_state *s, enum zbc_table t, const uint8_t *key,
                  size_t klen, uint8_t *val, size_t cap, size_t *vlen,
                  bool *found, struct zbc_err *err)
{
    if (!check_key(t, klen, err))
        return 0;
    return kv_get(s, t, key, klen, val, cap, vlen, found, err);
}

static int undo_push(struct zbc_undo *u, enum zbc_table t, const uint8_t *key,
                     size_t klen, bool had, uint8_t *val, size_t vlen,
                     struct zbc_err *err)
{
    if (u->n == u->cap) {
        size_t ncap = u->cap ? u->cap * 2 : 32;
        struct zbc_undo_entry *ne = realloc(u->e, ncap * sizeof *ne);
        if (ne == NULL)
            return zbc_fail(err, "out of memory recording an undo entry");
        u->e = ne;
        u->cap = ncap;
    }
    struct zbc_undo_entry *e = &u->e[u->n++];
    e->table = (uint8_t)t;
    e->klen = (uint8_t)klen;
    memcpy(e->key, key, klen);
    e->had = had;
    e->vlen = (uint32_t)vlen;
    e->val = val;
    return 1;
}

/* Sets (val != NULL) or deletes (val == NULL) one entry, keeping the
 * accumulator in step; with `record` the previous value goes to the undo
 * log. */
static int write_entry(struct zbc_state *s, enum zbc_table t,
                       const uint8_t *key, size_t klen, const uint8_t *val,
                       size_t vlen, bool record, struct zbc_err *err)
{
    uint8_t *old = malloc(ZBC_KV_VAL_MAX);
    if (old == NULL)
        return zbc_fail(err, "out of memory reading a state entry");
    size_t olen;
    bool had;
    if (!kv_get(s, t, key, klen, old, ZBC_KV_VAL_MAX, &olen, &had, err)) {
        free(old);
        return 0;
    }
    if (!had && val == NULL) {
        free(old);
        return 1;
    }
    int ok = val != NULL
                 ? s->kv.ops->put(s->kv.ctx, t, key, klen, val, vlen, err)
                 : s->kv.ops->del(s->kv.ctx, t, key, klen, err);
    if (!ok) {
        free(old);
        return 0;
    }
    if (had)
        zbc_lthash_sub(&s->acc, (uint8_t)t, key, klen, old, olen);
    if (val != NULL)
        zbc_lthash_add(&s->acc, (uint8_t)t, key, klen, val, vlen);
    if (!record) {
        free(old);
        return 1;
    }
    uint8_t *saved = NULL;
    if (had) {
        saved = realloc(old, olen > 0 ? olen : 1);
        if (saved == NULL)
            saved = old;
    } else {
        free(old);
    }
    if (!undo_push(&s->undo, t, key, klen, had, saved, olen, err)) {
        free(saved);
        return 0;
    }
    return 1;
}

int zbc_state_put(struct zbc_state *s, enum zbc_table t, const uint8_t *key,
                  size_t klen, const uint8_t *val, size_t vlen,
                  struct zbc_err *err)
{
    if (!check_key(t, klen, err))
        return 0;
    if (is_bookkeeping(t, key, klen))
        return zbc_fail(err, "meta key \"%s\" is reserved", ZBC_META_KEY_LTHASH);
    if (vlen > ZBC_KV_VAL_MAX)
        return zbc_fail(err, "state value of %zu bytes exceeds %d", vlen,
                        ZBC_KV_VAL_MAX);
    static const uint8_t empty[1] = {0};
    return write_entry(s, t, key, klen, vlen > 0 ? val : empty, vlen, true,
                       err);
}

int zbc_state_del(struct zbc_state *s, enum zbc_table t, const uint8_t *key,
                  size_t klen, struct zbc_err *err)
{
    if (!check_key(t, klen, err))
        return 0;
    if (is_bookkeeping(t, key, klen))
        return zbc_fail(err, "meta key \"%s\" is reserved", ZBC_META_KEY_LTHASH);
    return write_entry(s, t, key, klen, NULL, 0, true, err);
}

/* Restores entries [from, n) of u in reverse order, without recording. */
static int restore(struct zbc_state *s, const struct zbc_undo *u, size_t from,
                   struct zbc_err *err)
{
    static const uint8_t empty[1] = {0};
    for (size_t i = u->n; i > from; i--) {
        const struct zbc_undo_entry *e = &u->e[i - 1];
        const uint8_t *val = e->had ? (e->vlen > 0 ? e->val : empty) : NULL;
        if (!write_entry(s, (enum zbc_table)e->table, e->key, e->klen, val,
                         e->vlen, false, err))
            return zbc_fail_prefix(err, "undo failed");
    }
    return 1;
}

int zbc_state_rollback_to(struct zbc_state *s, size_t mark,
                          struct zbc_err *err)
{
    if (mark > s->undo.n)
        return zbc_fail(err, "undo mark %zu is past the log end %zu", mark,
                        s->undo.n);
    if (!restore(s, &s->undo, mark, err))
        return 0;
    for (size_t i = mark; i < s->undo.n; i++)
        free(s->undo.e[i].val);
    s->undo.n = mark;
    return 1;
}

void zbc_state_root(const struct zbc_state *s, uint8_t root[32])
{
    zbc_lthash_root(root, &s->acc);
}

struct rescan {
    enum zbc_table t;
    struct zbc_lthash acc;
};

static int rescan_entry(void *arg, const uint8_t *key, size_t klen,
                        const uint8_t *val, size_t vlen, struct zbc_err *err)
{
    struct rescan *r = arg;
    if (is_bookkeeping(r->t, key, klen))
        return 1;
    zbc_lthash_add(&r->acc, (uint8_t)r->t, key, klen, val, vlen);
    return 1;
}

int zbc_state_check_root(struct zbc_state *s, struct zbc_err *err)
{
    if (s->kv.ops->each == NULL)
        return zbc_fail(err, "the state backend cannot scan its tables");
    struct rescan r;
    zbc_lthash_zero(&r.acc);
    for (int t = 0; t < ZBC_TABLE_COUNT; t++) {
        r.t = (enum zbc_table)t;
        if (!s->kv.ops->each(s->kv.ctx, r.t, rescan_entry, &r, err))
            return zbc_fail_prefix(err, "state scan failed");
    }
    if (memcmp(&r.acc, &s->acc, sizeof r.acc) != 0)
        return zbc_fail(err, "the state accumulator does not match a full "
                             "scan of the state");
    return 1;
}

int zbc_state_undo_block(struct zbc_state *s, const struct zbc_undo *u,
                         struct zbc_err *err)
{
    if (!restore(s, u, 0, err))
        return 0;
    return zbc_state_commit(s, err);
}
