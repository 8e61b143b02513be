#include "node/zbcd/txseen.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

/* flags of an entry */
#define USED 1u      /* the slot holds an entry */
#define C_PRESENT 2u /* committed: present at c_height, not in the ledger */
#define DIRTY 4u     /* changed in the open transaction: p_* is its view */
#define P_PRESENT 8u /* pending: present at p_height */
#define P_STORED 16u /* pending: the ledger has it as the view says */

struct ent {
    uint8_t hash[32];
    uint32_t c_height, p_height;
    uint8_t flags;
};

/* An entry as it was before a pending change (flags 0: no entry). */
struct undo {
    struct ent was;
};

struct zbc_txseen {
    struct ent *slot;
    size_t cap; /* a power of two, or 0 */
    size_t n;
    struct undo *log;
    size_t log_n, log_cap;
    unsigned char key[crypto_shorthash_KEYBYTES];
};

struct zbc_txseen *zbc_txseen_new(void)
{
    struct zbc_txseen *o = calloc(1, sizeof *o);
    if (o != NULL)
        randombytes_buf(o->key, sizeof o->key); /* hashes can be ground */
    return o;
}

void zbc_txseen_free(struct zbc_txseen *o)
{
    if (o == NULL)
        return;
    free(o->slot);
    free(o->log);
    free(o);
}

unsigned zbc_txseen_slice_of(const uint8_t hash[32])
{
    return (unsigned)hash[0] * ZBC_TXSEEN_SLICES / 256u;
}

size_t zbc_txseen_count(const struct zbc_txseen *o)
{
    return o->n;
}

static size_t home(const struct zbc_txseen *o, const uint8_t hash[32])
{
    unsigned char h[crypto_shorthash_BYTES];
    crypto_shorthash(h, hash, 32, o->key);
    uint64_t v;
    memcpy(&v, h, sizeof v);
    return (size_t)v & (o->cap - 1);
}

static struct ent *find(const struct zbc_txseen *o, const uint8_t hash[32])
{
    if (o->cap == 0)
        return NULL;
    for (size_t i = home(o, hash);; i = (i + 1) & (o->cap - 1)) {
        struct ent *e = &o->slot[i];
        if (!(e->flags & USED))
            return NULL;
        if (memcmp(e->hash, hash, 32) == 0)
            return e;
    }
}

static void place(struct zbc_txseen *o, const struct ent *e)
{
    size_t i = home(o, e->hash);
    while (o->slot[i].flags & USED)
        i = (i + 1) & (o->cap - 1);
    o->slot[i] = *e;
}

/* Room for one more entry at half load or less. */
static int reserve(struct zbc_txseen *o, struct zbc_err *err)
{
    if ((o->n + 1) * 2 <= o->cap)
        return 1;
    size_t cap = o->cap ? o->cap * 2 : 4096;
    struct ent *old = o->slot;
    size_t old_cap = o->cap;
    o->slot = calloc(cap, sizeof *o->slot);
    if (o->slot == NULL) {
        o->slot = old;
        return zbc_fail(err, "out of memory holding %zu TXSEEN entries",
                        o->n + 1);
    }
    o->cap = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].flags & USED)
            place(o, &old[i]);
    free(old);
    return 1;
}

/* Removes e (backward-shift deletion: no tombstones). */
static void remove_ent(struct zbc_txseen *o, struct ent *e)
{
    size_t i = (size_t)(e - o->slot), mask = o->cap - 1;
    o->slot[i].flags = 0;
    o->n--;
    for (size_t j = (i + 1) & mask; o->slot[j].flags & USED;
         j = (j + 1) & mask) {
        size_t h = home(o, o->slot[j].hash);
        /* j's entry may move to i when i lies cyclically in [h, j) */
        bool movable = i <= j ? (h <= i || h > j) : (h <= i && h > j);
        if (movable) {
            o->slot[i] = o->slot[j];
            o->slot[j].flags = 0;
            i = j;
        }
    }
}

static struct ent *find_or_add(struct zbc_txseen *o, const uint8_t hash[32],
                               struct zbc_err *err)
{
    struct ent *e = find(o, hash);
    if (e != NULL)
        return e;
    if (!reserve(o, err))
        return NULL;
    struct ent fresh = {.flags = USED};
    memcpy(fresh.hash, hash, 32);
    place(o, &fresh);
    o->n++;
    return find(o, hash);
}

static int log_was(struct zbc_txseen *o, const struct ent *was,
                   const uint8_t hash[32], struct zbc_err *err)
{
    if (o->log_n == o->log_cap) {
        size_t cap = o->log_cap ? o->log_cap * 2 : 4096;
        struct undo *l = realloc(o->log, cap * sizeof *l);
        if (l == NULL)
            return zbc_fail(err, "out of memory logging TXSEEN changes");
        o->log = l;
        o->log_cap = cap;
    }
    struct undo *u = &o->log[o->log_n++];
    if (was != NULL)
        u->was = *was;
    else {
        memset(&u->was, 0, sizeof u->was);
        memcpy(u->was.hash, hash, 32);
    }
    return 1;
}

void zbc_txseen_get(const struct zbc_txseen *o, const uint8_t hash[32],
                    bool pending, bool *known, bool *present,
                    uint32_t *height)
{
    const struct ent *e = find(o, hash);
    *known = *present = false;
    *height = 0;
    if (e == NULL)
        return;
    if (pending && (e->flags & DIRTY)) {
        *known = true;
        *present = (e->flags & P_PRESENT) != 0;
        *height = e->p_height;
    } else if (e->flags & C_PRESENT) {
        *known = *present = true;
        *height = e->c_height;
    }
}

/* The entry's pending view: present (and at which height), in the
 * ledger. */
static void view(const struct ent *e, bool *present, bool *stored,
                 uint32_t *height)
{
    if (e->flags & DIRTY) {
        *present = (e->flags & P_PRESENT) != 0;
        *stored = (e->flags & P_STORED) != 0;
        *height = e->p_height;
    } else {
        *present = (e->flags & C_PRESENT) != 0;
        *stored = false;
        *height = e->c_height;
    }
}

static int set_pending(struct zbc_txseen *o, const uint8_t hash[32],
                       bool present, bool stored, uint32_t height,
                       struct zbc_err *err)
{
    struct ent *e = find(o, hash);
    if (!log_was(o, e, hash, err))
        return 0;
    if (e == NULL && (e = find_or_add(o, hash, err)) == NULL) {
        o->log_n--;
        return 0;
    }
    e->flags = (uint8_t)((e->flags & (USED | C_PRESENT)) | DIRTY |
                         (present ? P_PRESENT : 0) | (stored ? P_STORED : 0));
    e->p_height = height;
    return 1;
}

int zbc_txseen_put(struct zbc_txseen *o, const uint8_t hash[32],
                   uint32_t height, struct zbc_err *err)
{
    return set_pending(o, hash, true, false, height, err);
}

int zbc_txseen_put_written(struct zbc_txseen *o, const uint8_t hash[32],
                           uint32_t height, struct zbc_err *err)
{
    if (find(o, hash) == NULL)
        return 1; /* the ledger's entry is all there is */
    return set_pending(o, hash, true, true, height, err);
}

int zbc_txseen_del(struct zbc_txseen *o, const uint8_t hash[32],
                   struct zbc_err *err)
{
    if (find(o, hash) == NULL)
        return 1; /* the ledger's delete is all there is */
    return set_pending(o, hash, false, true, 0, err);
}

struct sorted {
    uint8_t hash[32];
    uint32_t height;
};

static int sorted_cmp(const void *a, const void *b)
{
    return memcmp(((const struct sorted *)a)->hash,
                  ((const struct sorted *)b)->hash, 32);
}

int zbc_txseen_unwritten(const struct zbc_txseen *o, unsigned s,
                         bool all_slices, uint8_t (**out)[32],
                         uint32_t **heights, size_t *n, struct zbc_err *err)
{
    *out = NULL;
    *heights = NULL;
    *n = 0;
    size_t k = 0;
    struct sorted *v = malloc((o->n ? o->n : 1) * sizeof *v);
    if (v == NULL)
        return zbc_fail(err, "out of memory writing TXSEEN entries");
    for (size_t i = 0; i < o->cap; i++) {
        const struct ent *e = &o->slot[i];
        bool present, stored;
        uint32_t h;
        if (!(e->flags & USED) ||
            (!all_slices && zbc_txseen_slice_of(e->hash) != s))
            continue;
        view(e, &present, &stored, &h);
        if (!present || stored)
            continue;
        memcpy(v[k].hash, e->hash, 32);
        v[k++].height = h;
    }
    qsort(v, k, sizeof *v, sorted_cmp);
    *out = malloc((k ? k : 1) * 32);
    *heights = malloc((k ? k : 1) * sizeof **heights);
    if (*out == NULL || *heights == NULL) {
        free(*out);
        free(*heights);
        *out = NULL;
        *heights = NULL;
        free(v);
        return zbc_fail(err, "out of memory writing TXSEEN entries");
    }
    for (size_t i = 0; i < k; i++) {
        memcpy((*out)[i], v[i].hash, 32);
        (*heights)[i] = v[i].height;
    }
    free(v);
    *n = k;
    return 1;
}

struct viewed {
    uint8_t hash[32]; /* first: sorted_cmp compares it */
    uint32_t height;
    bool present;
};

static int viewed_cmp(const void *a, const void *b)
{
    return memcmp(((const struct viewed *)a)->hash,
                  ((const struct viewed *)b)->hash, 32);
}

int zbc_txseen_view(const struct zbc_txseen *o, bool pending,
                    uint8_t (**out)[32], uint32_t **heights, bool **present,
                    size_t *n, struct zbc_err *err)
{
    *out = NULL;
    *heights = NULL;
    *present = NULL;
    *n = 0;
    size_t k = 0, m = o->n ? o->n : 1;
    struct viewed *v = malloc(m * sizeof *v);
    if (v == NULL)
        return zbc_fail(err, "out of memory listing TXSEEN entries");
    for (size_t i = 0; i < o->cap; i++) {
        const struct ent *e = &o->slot[i];
        bool known;
        if (!(e->flags & USED))
            continue;
        zbc_txseen_get(o, e->hash, pending, &known, &v[k].present,
                       &v[k].height);
        if (!known)
            continue;
        memcpy(v[k++].hash, e->hash, 32);
    }
    qsort(v, k, sizeof *v, viewed_cmp);
    *out = malloc(m * 32);
    *heights = malloc(m * sizeof **heights);
    *present = malloc(m * sizeof **present);
    if (*out == NULL || *heights == NULL || *present == NULL) {
        free(*out);
        free(*heights);
        free(*present);
        *out = NULL;
        *heights = NULL;
        *present = NULL;
        free(v);
        return zbc_fail(err, "out of memory listing TXSEEN entries");
    }
    for (size_t i = 0; i < k; i++) {
        memcpy((*out)[i], v[i].hash, 32);
        (*heights)[i] = v[i].height;
        (*present)[i] = v[i].present;
    }
    free(v);
    *n = k;
    return 1;
}

int zbc_txseen_written(struct zbc_txseen *o, const uint8_t (*hashes)[32],
                       size_t n, struct zbc_err *err)
{
    for (size_t i = 0; i < n; i++) {
        struct ent *e = find(o, hashes[i]);
        bool present, stored;
        uint32_t h;
        if (e == NULL)
            continue;
        view(e, &present, &stored, &h);
        if (!set_pending(o, hashes[i], present, true, h, err))
            return 0;
    }
    return 1;
}

size_t zbc_txseen_mark(const struct zbc_txseen *o)
{
    return o->log_n;
}

void zbc_txseen_commit(struct zbc_txseen *o)
{
    for (size_t i = 0; i < o->log_n; i++) {
        struct ent *e = find(o, o->log[i].was.hash);
        if (e == NULL || !(e->flags & DIRTY))
            continue; /* settled by an earlier record of the same hash */
        if ((e->flags & P_PRESENT) && !(e->flags & P_STORED)) {
            e->c_height = e->p_height;
            e->flags = USED | C_PRESENT;
        } else {
            remove_ent(o, e); /* in the ledger, or gone */
        }
    }
    o->log_n = 0;
}

void zbc_txseen_rollback(struct zbc_txseen *o, size_t mark)
{
    while (o->log_n > mark) {
        const struct ent *was = &o->log[--o->log_n].was;
        struct ent *e = find(o, was->hash);
        if (e == NULL)
            continue; /* cannot happen: a logged entry stays until commit */
        if (!(was->flags & USED))
            remove_ent(o, e);
        else
            *e = *was;
    }
}

int zbc_txseen_refill(struct zbc_txseen *o, const uint8_t hash[32],
                      uint32_t height, struct zbc_err *err)
{
    if (find(o, hash) != NULL)
        return 1;
    struct ent *e = find_or_add(o, hash, err);
    if (e == NULL)
        return 0;
    e->flags = USED | C_PRESENT;
    e->c_height = height;
    return 1;
}
