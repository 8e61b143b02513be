#include "node/zbcd/appwb.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/bytes.h"

/* flags of an entry */
#define USED 1u      /* the slot holds an entry */
#define C_HELD 2u    /* committed: the set's view, not the ledger's */
#define C_PRESENT 4u /* committed: present (c_val), else removed */
#define DIRTY 8u     /* changed in the open transaction: p_* is its view */
#define P_PRESENT 16u
#define P_STORED 32u /* pending: the ledger has it as the view says */

struct ent {
    uint8_t table, klen;
    uint8_t key[ZBC_APPWB_KEY_MAX];
    uint8_t flags;
    uint8_t *c_val, *p_val; /* owned */
    size_t c_len, p_len;
};

/* The pending part of an entry before a change (flags without USED: the
 * entry did not exist); its p_val is owned by the record. */
struct undo {
    uint8_t table, klen;
    uint8_t key[ZBC_APPWB_KEY_MAX];
    uint8_t flags;
    uint8_t *p_val;
    size_t p_len;
};

struct zbc_appwb {
    struct ent *slot;
    size_t cap; /* a power of two, or 0 */
    size_t n;
    struct undo *log;
    size_t log_n, log_cap;
    unsigned char hkey[crypto_shorthash_KEYBYTES];
};

bool zbc_appwb_holds(enum zbc_table t, size_t klen)
{
    return (t == ZBC_TABLE_APPS && klen == 8) ||
           (t == ZBC_TABLE_APP_HISTORY && klen == 12);
}

unsigned zbc_appwb_slice_of(const uint8_t *key)
{
    return (unsigned)key[0] * ZBC_APPWB_SLICES / 256u;
}

struct zbc_appwb *zbc_appwb_new(void)
{
    struct zbc_appwb *o = calloc(1, sizeof *o);
    if (o != NULL)
        randombytes_buf(o->hkey, sizeof o->hkey); /* app ids can be ground */
    return o;
}

void zbc_appwb_free(struct zbc_appwb *o)
{
    if (o == NULL)
        return;
    zbc_appwb_rollback(o, 0);
    for (size_t i = 0; i < o->cap; i++)
        if (o->slot[i].flags & USED) {
            free(o->slot[i].c_val);
            free(o->slot[i].p_val);
        }
    free(o->slot);
    free(o->log);
    free(o);
}

size_t zbc_appwb_count(const struct zbc_appwb *o)
{
    return o->n;
}

static size_t home(const struct zbc_appwb *o, uint8_t table,
                   const uint8_t *key, size_t klen)
{
    uint8_t buf[2 + ZBC_APPWB_KEY_MAX];
    buf[0] = table;
    buf[1] = (uint8_t)klen;
    memcpy(buf + 2, key, klen);
    unsigned char h[crypto_shorthash_BYTES];
    crypto_shorthash(h, buf, 2 + klen, o->hkey);
    uint64_t v;
    memcpy(&v, h, sizeof v);
    return (size_t)v & (o->cap - 1);
}

static bool same(const struct ent *e, uint8_t table, const uint8_t *key,
                 size_t klen)
{
    return e->table == table && e->klen == klen &&
           memcmp(e->key, key, klen) == 0;
}

static struct ent *find(const struct zbc_appwb *o, uint8_t table,
                        const uint8_t *key, size_t klen)
{
    if (o->cap == 0)
        return NULL;
    for (size_t i = home(o, table, key, klen);; i = (i + 1) & (o->cap - 1)) {
        struct ent *e = &o->slot[i];
        if (!(e->flags & USED))
            return NULL;
        if (same(e, table, key, klen))
            return e;
    }
}

static void place(struct zbc_appwb *o, const struct ent *e)
{
    size_t i = home(o, e->table, e->key, e->klen);
    while (o->slot[i].flags & USED)
        i = (i + 1) & (o->cap - 1);
    o->slot[i] = *e;
}

/* Room for one more entry at half load or less. */
static int reserve(struct zbc_appwb *o, struct zbc_err *err)
{
    if ((o->n + 1) * 2 <= o->cap)
        return 1;
    size_t cap = o->cap ? o->cap * 2 : 4096;
    struct ent *old = o->slot;
    size_t old_cap = o->cap;
    o->slot = calloc(cap, sizeof *o->slot);
    if (o->slot == NULL) {
        o->slot = old;
        return zbc_fail(err, "out of memory holding %zu app table entries",
                        o->n + 1);
    }
    o->cap = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].flags & USED)
            place(o, &old[i]);
    free(old);
    return 1;
}

/* Removes e, freeing its values (backward-shift deletion). */
static void remove_ent(struct zbc_appwb *o, struct ent *e)
{
    size_t i = (size_t)(e - o->slot), mask = o->cap - 1;
    free(e->c_val);
    free(e->p_val);
    memset(e, 0, sizeof *e);
    o->n--;
    for (size_t j = (i + 1) & mask; o->slot[j].flags & USED;
         j = (j + 1) & mask) {
        const struct ent *m = &o->slot[j];
        size_t h = home(o, m->table, m->key, m->klen);
        bool movable = i <= j ? (h <= i || h > j) : (h <= i && h > j);
        if (movable) {
            o->slot[i] = o->slot[j];
            memset(&o->slot[j], 0, sizeof o->slot[j]);
            i = j;
        }
    }
}

static struct ent *add(struct zbc_appwb *o, uint8_t table, const uint8_t *key,
                       size_t klen, struct zbc_err *err)
{
    if (!reserve(o, err))
        return NULL;
    struct ent fresh = {.table = table, .klen = (uint8_t)klen, .flags = USED};
    memcpy(fresh.key, key, klen);
    place(o, &fresh);
    o->n++;
    return find(o, table, key, klen);
}

static int check_key(enum zbc_table t, size_t klen, struct zbc_err *err)
{
    if (!zbc_appwb_holds(t, klen))
        return zbc_fail(err, "app write-back does not hold table %d keys of "
                        "%zu bytes", (int)t, klen);
    return 1;
}

/* The entry's view: pending (when dirty and asked) or committed; *held
 * false: the set does not know the key in that view. */
static void view(const struct ent *e, bool pending, bool *held,
                 bool *present, bool *stored, const uint8_t **val,
                 size_t *vlen)
{
    *held = *present = *stored = false;
    *val = NULL;
    *vlen = 0;
    if (pending && (e->flags & DIRTY)) {
        *held = true;
        *present = (e->flags & P_PRESENT) != 0;
        *stored = (e->flags & P_STORED) != 0;
        if (*present) {
            *val = e->p_val;
            *vlen = e->p_len;
        }
    } else if (e->flags & C_HELD) {
        *held = true;
        *present = (e->flags & C_PRESENT) != 0;
        if (*present) {
            *val = e->c_val;
            *vlen = e->c_len;
        }
    }
}

void zbc_appwb_get(const struct zbc_appwb *o, enum zbc_table t,
                   const uint8_t *key, size_t klen, bool pending, bool *known,
                   bool *present, const uint8_t **val, size_t *vlen)
{
    const struct ent *e = find(o, (uint8_t)t, key, klen);
    bool stored;
    *known = *present = false;
    *val = NULL;
    *vlen = 0;
    if (e != NULL)
        view(e, pending, known, present, &stored, val, vlen);
}

static uint8_t *dup_bytes(const uint8_t *v, size_t n)
{
    uint8_t *c = malloc(n > 0 ? n : 1);
    if (c != NULL && n > 0)
        memcpy(c, v, n);
    return c;
}

static int log_push(struct zbc_appwb *o, struct zbc_err *err)
{
    if (o->log_n < o->log_cap)
        return 1;
    size_t cap = o->log_cap ? o->log_cap * 2 : 4096;
    struct undo *l = realloc(o->log, cap * sizeof *l);
    if (l == NULL)
        return zbc_fail(err, "out of memory logging app table changes");
    o->log = l;
    o->log_cap = cap;
    return 1;
}

/* Sets the pending view of (table, key): its old pending part goes to the
 * undo log. */
static int set_pending(struct zbc_appwb *o, uint8_t table, const uint8_t *key,
                       size_t klen, bool present, bool stored,
                       const uint8_t *val, size_t vlen, struct zbc_err *err)
{
    uint8_t *copy = NULL;
    if (present && (copy = dup_bytes(val, vlen)) == NULL)
        return zbc_fail(err, "out of memory holding an app table value of "
                        "%zu bytes", vlen);
    if (!log_push(o, err)) {
        free(copy);
        return 0;
    }
    struct ent *e = find(o, table, key, klen);
    bool fresh = e == NULL;
    if (fresh && (e = add(o, table, key, klen, err)) == NULL) {
        free(copy);
        return 0;
    }
    struct undo *u = &o->log[o->log_n++];
    u->table = table;
    u->klen = (uint8_t)klen;
    memcpy(u->key, key, klen);
    u->flags = fresh ? 0 : e->flags;
    u->p_val = e->p_val;
    u->p_len = e->p_len;
    e->flags = (uint8_t)((e->flags & (USED | C_HELD | C_PRESENT)) | DIRTY |
                         (present ? P_PRESENT : 0) |
                         (stored ? P_STORED : 0));
    e->p_val = copy;
    e->p_len = present ? vlen : 0;
    return 1;
}

int zbc_appwb_put(struct zbc_appwb *o, enum zbc_table t, const uint8_t *key,
                  size_t klen, const uint8_t *val, size_t vlen,
                  struct zbc_err *err)
{
    if (!check_key(t, klen, err))
        return 0;
    return set_pending(o, (uint8_t)t, key, klen, true, false, val, vlen, err);
}

int zbc_appwb_del(struct zbc_appwb *o, enum zbc_table t, const uint8_t *key,
                  size_t klen, struct zbc_err *err)
{
    if (!check_key(t, klen, err))
        return 0;
    return set_pending(o, (uint8_t)t, key, klen, false, false, NULL, 0, err);
}

static int item_cmp(const void *x, const void *y)
{
    const struct zbc_appwb_item *a = x, *b = y;
    if (a->table != b->table)
        return a->table < b->table ? -1 : 1;
    size_t m = a->klen < b->klen ? a->klen : b->klen;
    int c = memcmp(a->key, b->key, m);
    if (c != 0)
        return c;
    return a->klen < b->klen ? -1 : a->klen > b->klen;
}

static void item_of(struct zbc_appwb_item *it, const struct ent *e,
                    bool present, const uint8_t *val, size_t vlen)
{
    it->table = e->table;
    it->klen = e->klen;
    memcpy(it->key, e->key, e->klen);
    it->present = present;
    it->val = val;
    it->vlen = vlen;
}

int zbc_appwb_items(const struct zbc_appwb *o, enum zbc_appwb_pick pick,
                    unsigned arg, bool pending, struct zbc_appwb_item **items,
                    size_t *n, struct zbc_err *err)
{
    *items = NULL;
    *n = 0;
    size_t cap = pick == ZBC_APPWB_CHANGED ? o->log_n : o->n, k = 0;
    struct zbc_appwb_item *v = malloc((cap ? cap : 1) * sizeof *v);
    if (v == NULL)
        return zbc_fail(err, "out of memory listing app table entries");
    if (pick == ZBC_APPWB_CHANGED) {
        /* every logged key once: sorted, then the duplicates dropped */
        for (size_t i = arg; i < o->log_n; i++) {
            const struct undo *u = &o->log[i];
            const struct ent *e = find(o, u->table, u->key, u->klen);
            bool held, present, stored;
            const uint8_t *val;
            size_t vlen;
            if (e == NULL)
                continue; /* cannot happen: logged entries stay to commit */
            view(e, true, &held, &present, &stored, &val, &vlen);
            if (held)
                item_of(&v[k++], e, present, val, vlen);
        }
        qsort(v, k, sizeof *v, item_cmp);
        size_t w = 0;
        for (size_t i = 0; i < k; i++)
            if (w == 0 || item_cmp(&v[w - 1], &v[i]) != 0)
                v[w++] = v[i];
        k = w;
    } else {
        for (size_t i = 0; i < o->cap; i++) {
            const struct ent *e = &o->slot[i];
            bool held, present, stored;
            const uint8_t *val;
            size_t vlen;
            if (!(e->flags & USED))
                continue;
            if (pick == ZBC_APPWB_SLICE &&
                zbc_appwb_slice_of(e->key) != arg)
                continue;
            if (pick == ZBC_APPWB_TABLE && e->table != arg)
                continue;
            view(e, pick == ZBC_APPWB_TABLE ? pending : true, &held,
                 &present, &stored, &val, &vlen);
            if (!held || (pick != ZBC_APPWB_TABLE && stored))
                continue;
            item_of(&v[k++], e, present, val, vlen);
        }
        qsort(v, k, sizeof *v, item_cmp);
    }
    *items = v;
    *n = k;
    return 1;
}

int zbc_appwb_written(struct zbc_appwb *o, const struct zbc_appwb_item *items,
                      size_t n, struct zbc_err *err)
{
    for (size_t i = 0; i < n; i++) {
        const struct zbc_appwb_item *it = &items[i];
        if (find(o, it->table, it->key, it->klen) == NULL)
            continue;
        /* it->val points into the entry: set_pending copies it first */
        if (!set_pending(o, it->table, it->key, it->klen, it->present, true,
                         it->val, it->vlen, err))
            return 0;
    }
    return 1;
}

size_t zbc_appwb_mark(const struct zbc_appwb *o)
{
    return o->log_n;
}

void zbc_appwb_commit(struct zbc_appwb *o)
{
    for (size_t i = 0; i < o->log_n; i++) {
        struct undo *u = &o->log[i];
        free(u->p_val);
        u->p_val = NULL;
        struct ent *e = find(o, u->table, u->key, u->klen);
        if (e == NULL || !(e->flags & DIRTY))
            continue; /* settled by an earlier record of the same key */
        if (e->flags & P_STORED) {
            remove_ent(o, e); /* the ledger has it */
            continue;
        }
        free(e->c_val);
        e->c_val = e->p_val;
        e->c_len = e->p_len;
        e->p_val = NULL;
        e->p_len = 0;
        e->flags = (uint8_t)(USED | C_HELD |
                             ((e->flags & P_PRESENT) ? C_PRESENT : 0));
    }
    o->log_n = 0;
}

void zbc_appwb_rollback(struct zbc_appwb *o, size_t mark)
{
    while (o->log_n > mark) {
        struct undo *u = &o->log[--o->log_n];
        struct ent *e = find(o, u->table, u->key, u->klen);
        if (e == NULL) {
            free(u->p_val); /* cannot happen: logged entries stay */
            continue;
        }
        free(e->p_val);
        if (!(u->flags & USED)) {
            e->p_val = NULL;
            remove_ent(o, e);
            continue;
        }
        e->flags = u->flags;
        e->p_val = u->p_val;
        e->p_len = u->p_len;
    }
}

int zbc_appwb_refill(struct zbc_appwb *o, enum zbc_table t,
                     const uint8_t *key, size_t klen, bool present,
                     const uint8_t *val, size_t vlen, struct zbc_err *err)
{
    if (!check_key(t, klen, err))
        return 0;
    if (o->log_n != 0)
        return zbc_fail(err, "app write-back refill inside a write");
    uint8_t *copy = NULL;
    if (present && (copy = dup_bytes(val, vlen)) == NULL)
        return zbc_fail(err, "out of memory holding an app table value of "
                        "%zu bytes", vlen);
    struct ent *e = find(o, (uint8_t)t, key, klen);
    if (e == NULL && (e = add(o, (uint8_t)t, key, klen, err)) == NULL) {
        free(copy);
        return 0;
    }
    free(e->c_val);
    e->c_val = copy;
    e->c_len = present ? vlen : 0;
    e->flags = (uint8_t)(USED | C_HELD | (present ? C_PRESENT : 0));
    return 1;
}

/* ---- redo records ----
 *
 *   count u32 LE, then count times:
 *     table u8 || klen u8 || key || present u8 (0 or 1) ||
 *     [vlen u32 LE || value]                     (when present)
 */

int zbc_appwb_record_encode(const struct zbc_appwb_item *items, size_t n,
                            uint8_t **out, size_t *len, struct zbc_err *err)
{
    size_t total = 4;
    for (size_t i = 0; i < n; i++)
        total += 3 + items[i].klen + (items[i].present ? 4 + items[i].vlen
                                                       : 0);
    uint8_t *b = malloc(total);
    if (b == NULL || n > UINT32_MAX) {
        free(b);
        return zbc_fail(err, "out of memory encoding a redo record of %zu "
                        "entries", n);
    }
    size_t p = 0;
    zbc_put_le32(b, (uint32_t)n);
    p += 4;
    for (size_t i = 0; i < n; i++) {
        const struct zbc_appwb_item *it = &items[i];
        b[p++] = it->table;
        b[p++] = it->klen;
        memcpy(b + p, it->key, it->klen);
        p += it->klen;
        b[p++] = it->present ? 1 : 0;
        if (it->present) {
            zbc_put_le32(b + p, (uint32_t)it->vlen);
            p += 4;
            if (it->vlen > 0)
                memcpy(b + p, it->val, it->vlen);
            p += it->vlen;
        }
    }
    *out = b;
    *len = total;
    return 1;
}

int zbc_appwb_record_replay(struct zbc_appwb *o, const uint8_t *rec,
                            size_t len, struct zbc_err *err)
{
    if (len < 4)
        return zbc_fail(err, "redo record of %zu bytes is shorter than its "
                        "count", len);
    uint32_t count = zbc_get_le32(rec);
    size_t p = 4;
    for (uint32_t i = 0; i < count; i++) {
        if (len - p < 2)
            return zbc_fail(err, "redo record entry %u is truncated", i);
        uint8_t table = rec[p], klen = rec[p + 1];
        p += 2;
        if (!zbc_appwb_holds((enum zbc_table)table, klen))
            return zbc_fail(err, "redo record entry %u names table %u with "
                            "a %u-byte key", i, table, klen);
        if (len - p < (size_t)klen + 1)
            return zbc_fail(err, "redo record entry %u is truncated", i);
        const uint8_t *key = rec + p;
        p += klen;
        uint8_t present = rec[p++];
        if (present > 1)
            return zbc_fail(err, "redo record entry %u has presence byte %u",
                            i, present);
        const uint8_t *val = NULL;
        size_t vlen = 0;
        if (present) {
            if (len - p < 4)
                return zbc_fail(err, "redo record entry %u is truncated", i);
            vlen = zbc_get_le32(rec + p);
            p += 4;
            if (vlen > ZBC_KV_VAL_MAX || len - p < vlen)
                return zbc_fail(err, "redo record entry %u has a value of "
                                "%zu bytes (%zu left)", i, vlen, len - p);
            val = rec + p;
            p += vlen;
        }
        if (!zbc_appwb_refill(o, (enum zbc_table)table, key, klen,
                              present != 0, val, vlen, err))
            return 0;
    }
    if (p != len)
        return zbc_fail(err, "redo record has %zu bytes after its %u entries",
                        len - p, count);
    return 1;
}
