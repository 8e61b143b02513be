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

/* Frees the written values of undo entries [from, to). */
static void drop_written(struct zbc_state *s, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        free(s->written[i].val);
        s->written[i].val = NULL;
    }
}

/* Room for one more undo entry. */
static int undo_room(struct zbc_undo *u, struct zbc_err *err)
{
    if (u->n == u->cap) {
        size_t ncap = u->cap ? u->cap * 2 : 32;
        struct zbc_undo_entry *ne = realloc(u->e, ncap * sizeof *ne);
        if (ne == NULL)
            return zbc_fail(err, "out of memory recording an undo entry");
        u->e = ne;
        u->cap = ncap;
    }
    return 1;
}

/* Applies the gathered accumulator updates. */
static void flush_ops(struct zbc_state *s)
{
    zbc_lthash_apply(&s->acc, s->ops, s->n_ops, s->accel);
    s->n_ops = 0;
}

/* One accumulator update, gathered (its digest now, while the value is at
 * hand); cannot fail: without room it applies what is gathered first, and
 * without any buffer it updates at once. */
static void acc_op(struct zbc_state *s, bool sub, bool keep, uint8_t t,
                   const uint8_t *key, size_t klen, const uint8_t *val,
                   size_t vlen)
{
    if (s->n_ops == s->ops_cap) {
        size_t ncap = s->ops_cap ? 2 * s->ops_cap : 256;
        struct zbc_lthash_op *no = realloc(s->ops, ncap * sizeof *no);
        if (no != NULL) {
            s->ops = no;
            s->ops_cap = ncap;
        } else {
            flush_ops(s);
            if (s->ops_cap == 0) {
                if (sub)
                    zbc_lthash_sub(&s->acc, t, key, klen, val, vlen);
                else
                    zbc_lthash_add(&s->acc, t, key, klen, val, vlen);
                return;
            }
        }
    }
    struct zbc_lthash_op *o = &s->ops[s->n_ops++];
    zbc_lthash_digest(o->digest, t, key, klen, val, vlen);
    o->sub = sub;
    o->keep = keep;
}

void zbc_state_set_accel(struct zbc_state *s, const struct zbc_lthash_accel *a)
{
    s->accel = a;
}

struct fold_ref {
    const struct zbc_undo_entry *e;
    size_t i;
};

/* Ensures room for one more recorded write: undo entry, written value and
 * fold space, so that neither recording nor folding can fail after the
 * backend write. */
static int reserve(struct zbc_state *s, struct zbc_err *err)
{
    struct zbc_undo *u = &s->undo;
    if (!undo_room(u, err))
        return 0;
    if (u->n < s->cap)
        return 1;
    size_t ncap = s->cap ? s->cap * 2 : 32;
    struct zbc_state_written *w = realloc(s->written, ncap * sizeof *w);
    if (w == NULL)
        return zbc_fail(err, "out of memory recording a state write");
    memset(w + s->cap, 0, (ncap - s->cap) * sizeof *w);
    s->written = w;
    void *sc = realloc(s->scratch, ncap * sizeof(struct fold_ref));
    if (sc == NULL)
        return zbc_fail(err, "out of memory recording a state write");
    s->scratch = sc;
    s->cap = ncap;
    return 1;
}

static int by_key_then_index(const void *a, const void *b)
{
    const struct fold_ref *p = a, *q = b;
    const struct zbc_undo_entry *x = p->e, *y = q->e;
    if (x->table != y->table)
        return x->table < y->table ? -1 : 1;
    if (x->klen != y->klen)
        return x->klen < y->klen ? -1 : 1;
    int c = memcmp(x->key, y->key, x->klen);
    if (c != 0)
        return c;
    return p->i < q->i ? -1 : p->i > q->i;
}

/* Brings acc up to date with undo entries [folded, n): per key, the value
 * before its first write there leaves the sum and its value after the
 * last one enters it.  Cannot fail (space reserved with each write). */
static void fold(struct zbc_state *s)
{
    size_t m = s->undo.n - s->folded;
    if (m == 0)
        return;
    struct fold_ref *ix = s->scratch;
    for (size_t k = 0; k < m; k++)
        ix[k] = (struct fold_ref){&s->undo.e[s->folded + k], s->folded + k};
    if (m > 1)
        qsort(ix, m, sizeof *ix, by_key_then_index);
    static const uint8_t empty[1] = {0};
    for (size_t k = 0; k < m;) {
        const struct zbc_undo_entry *first = ix[k].e;
        size_t last = k;
        while (last + 1 < m) {
            const struct zbc_undo_entry *e = ix[last + 1].e;
            if (e->table != first->table || e->klen != first->klen ||
                memcmp(e->key, first->key, first->klen) != 0)
                break;
            last++;
        }
        const struct zbc_state_written *now = &s->written[ix[last].i];
        const uint8_t *before = first->vlen > 0 ? first->val : empty;
        const uint8_t *after = now->vlen > 0 ? now->val : empty;
        bool unchanged = first->had && now->val != NULL &&
                         first->vlen == now->vlen &&
                         memcmp(before, after, now->vlen) == 0;
        if (!unchanged) {
            /* a key that existed before is likely written again later:
             * its new element is worth caching for that subtraction */
            if (first->had)
                acc_op(s, true, false, first->table, first->key, first->klen,
                       before, first->vlen);
            if (now->val != NULL)
                acc_op(s, false, first->had, first->table, first->key,
                       first->klen, after, now->vlen);
        }
        k = last + 1;
    }
    flush_ops(s);
    drop_written(s, s->folded, s->undo.n);
    s->folded = s->undo.n;
}

void zbc_state_close(struct zbc_state *s)
{
    drop_written(s, s->folded, s->undo.n);
    zbc_undo_free(&s->undo);
    free(s->written);
    free(s->scratch);
    free(s->ops);
    s->ops = NULL;
    s->n_ops = s->ops_cap = 0;
    s->written = NULL;
    s->scratch = NULL;
    s->cap = 0;
    s->folded = 0;
}

void zbc_state_begin(struct zbc_state *s)
{
    fold(s);
    zbc_undo_free(&s->undo);
    s->folded = 0;
}

int zbc_state_commit(struct zbc_state *s, struct zbc_err *err)
{
    fold(s);
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
    fold(s);
    *out = s->undo;
    memset(&s->undo, 0, sizeof s->undo);
    s->folded = 0;
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
    if (!undo_room(u, err))
        return 0;
    struct zbc_undo_entry *e = &u->e[u->n++];
    e->table = (uint8_t)t;
    e->klen = (uint8_t)klen;
    memcpy(e->key, key, klen);
    e->had = had;
    e->vlen = (uint32_t)vlen;
    e->val = val;
    return 1;
}

/* Sets (val != NULL) or deletes (val == NULL) one entry.  With `record`
 * the previous value goes to the undo log and the new one is kept for the
 * next fold (the accumulator is not touched); without, the accumulator
 * is updated at once (undoing folded writes, docs above fold). */
static int write_entry(struct zbc_state *s, enum zbc_table t,
                       const uint8_t *key, size_t klen, const uint8_t *val,
                       size_t vlen, bool record, struct zbc_err *err)
{
    if (record && !reserve(s, err))
        return 0;
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
    uint8_t *copy = NULL;
    if (record && val != NULL) {
        copy = malloc(vlen > 0 ? vlen : 1);
        if (copy == NULL) {
            free(old);
            return zbc_fail(err, "out of memory recording a state write");
        }
        memcpy(copy, val, vlen);
    }
    int ok = val != NULL
                 ? s->kv.ops->put(s->kv.ctx, t, key, klen, val, vlen, err)
                 : s->kv.ops->del(s->kv.ctx, t, key, klen, err);
    if (!ok) {
        free(copy);
        free(old);
        return 0;
    }
    if (!record) { /* gathered: restore() applies them */
        if (had)
            acc_op(s, true, false, (uint8_t)t, key, klen, old, olen);
        if (val != NULL)
            acc_op(s, false, true, (uint8_t)t, key, klen, val, vlen);
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
    /* cannot fail: reserve() made room */
    (void)undo_push(&s->undo, t, key, klen, had, saved, olen, err);
    s->written[s->undo.n - 1] =
        (struct zbc_state_written){copy, (uint32_t)vlen};
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

/* Restores entries [from, n) of u in reverse order, without recording;
 * `lazy`: the accumulator is left to the next fold (entries not folded
 * yet), else updated with each write. */
static int restore(struct zbc_state *s, const struct zbc_undo *u, size_t from,
                   bool lazy, struct zbc_err *err)
{
    static const uint8_t empty[1] = {0};
    for (size_t i = u->n; i > from; i--) {
        const struct zbc_undo_entry *e = &u->e[i - 1];
        const uint8_t *val = e->had ? (e->vlen > 0 ? e->val : empty) : NULL;
        enum zbc_table t = (enum zbc_table)e->table;
        int ok;
        if (lazy)
            ok = val != NULL ? s->kv.ops->put(s->kv.ctx, t, e->key, e->klen,
                                              val, e->vlen, err)
                             : s->kv.ops->del(s->kv.ctx, t, e->key, e->klen,
                                              err);
        else
            ok = write_entry(s, t, e->key, e->klen, val, e->vlen, false, err);
        if (!ok) {
            flush_ops(s);
            return zbc_fail_prefix(err, "undo failed");
        }
    }
    flush_ops(s);
    return 1;
}

int zbc_state_rollback_to(struct zbc_state *s, size_t mark,
                          struct zbc_err *err)
{
    if (mark > s->undo.n)
        return zbc_fail(err, "undo mark %zu is past the log end %zu", mark,
                        s->undo.n);
    /* entries at or after `folded` are not in acc yet: restoring their
     * keys is enough; folded ones are taken out of acc as they go */
    bool lazy = mark >= s->folded;
    if (!lazy)
        fold(s);
    if (!restore(s, &s->undo, mark, lazy, err))
        return 0;
    drop_written(s, mark, s->undo.n);
    for (size_t i = mark; i < s->undo.n; i++)
        free(s->undo.e[i].val);
    s->undo.n = mark;
    if (s->folded > mark)
        s->folded = mark;
    return 1;
}

void zbc_state_root(struct zbc_state *s, uint8_t root[32])
{
    fold(s);
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
    fold(s);
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
    fold(s);
    if (!restore(s, u, 0, false, err))
        return 0;
    return zbc_state_commit(s, err);
}
