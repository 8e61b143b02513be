#include "node/zbcd/app_index.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/app.h"
#include "consensus/apps_apply.h"
#include "crypto/bytes.h"
#include "node/zbcd/buf_grow.h"
#include "node/zbcd/log.h"
#include "node/zbcd/tx_index.h"

#define INDEX_DB ZBC_STORE_DB_APP_INDEX
#define MARKER ZBC_APP_INDEX_MARKER
#define MASK_STATUS 1u
#define MASK_TYPE 2u
#define MASK_PLAYER 4u
#define MASKS 8u
#define REVERSE 0xffu
/* mask, status, type, addr_len, address, created, id */
#define KEY_MAX (3 + 1 + ZBC_ADDR_BYTES_MAX + 4 + 8)
#define PROJ_MAX (4 + 3 + ZBC_SEATS_MAX * (1 + ZBC_ADDR_BYTES_MAX))

/* What the index keeps of an app: the fields the list filters on. */
struct proj {
    uint32_t created;
    uint8_t status, type, n;
    struct zbc_addr player[ZBC_SEATS_MAX]; /* distinct seated addresses */
};

static void proj_of(struct proj *p, const struct zbc_app *a)
{
    memset(p, 0, sizeof *p);
    p->created = a->created;
    p->status = a->status;
    p->type = a->type;
    for (unsigned i = 0; i < a->n_seated && i < ZBC_SEATS_MAX; i++) {
        bool dup = false;
        for (unsigned j = 0; j < p->n && !dup; j++)
            dup = zbc_addr_equal(&p->player[j], &a->seat[i]);
        if (!dup)
            p->player[p->n++] = a->seat[i];
    }
}

static size_t proj_encode(const struct proj *p, uint8_t out[PROJ_MAX])
{
    zbc_put_le32(out, p->created);
    out[4] = p->status;
    out[5] = p->type;
    out[6] = p->n;
    size_t n = 7;
    for (unsigned i = 0; i < p->n; i++) {
        size_t w = zbc_addr_write(out + n + 1, &p->player[i]);
        out[n] = (uint8_t)w;
        n += 1 + w;
    }
    return n;
}

static int proj_decode(struct proj *p, const uint8_t *v, size_t len,
                       uint64_t id, struct zbc_err *err)
{
    struct zbc_rd r;
    memset(p, 0, sizeof *p);
    zbc_rd_init(&r, v, len);
    p->created = zbc_rd_le32(&r, "created height");
    p->status = zbc_rd_u8(&r, "status");
    p->type = zbc_rd_u8(&r, "type");
    p->n = zbc_rd_u8(&r, "player count");
    if (p->n > ZBC_SEATS_MAX)
        zbc_rd_fail(&r, "player count");
    for (unsigned i = 0; zbc_rd_ok(&r) && i < p->n; i++) {
        size_t alen = zbc_rd_u8(&r, "address length");
        const uint8_t *ab = zbc_rd_take(&r, alen, "address");
        size_t used = 0;
        if (ab != NULL &&
            (!zbc_addr_read(&p->player[i], ab, alen, &used, err) ||
             used != alen))
            zbc_rd_fail(&r, "address");
    }
    if (!zbc_rd_done(&r)) {
        char what[64];
        snprintf(what, sizeof what, "app index entry of app %llu",
                 (unsigned long long)id);
        return zbc_rd_err(&r, err, what);
    }
    return 1;
}

/* The key range of one filter: mask and the filtered values. */
static size_t key_prefix(uint8_t out[KEY_MAX], unsigned mask, uint8_t status,
                         uint8_t type, const struct zbc_addr *player)
{
    size_t n = 0;
    out[n++] = (uint8_t)mask;
    if (mask & MASK_STATUS)
        out[n++] = status;
    if (mask & MASK_TYPE)
        out[n++] = type;
    if (mask & MASK_PLAYER) {
        size_t w = zbc_addr_write(out + n + 1, player);
        out[n] = (uint8_t)w;
        n += 1 + w;
    }
    return n;
}

static size_t key_tail(uint8_t *out, uint32_t created, uint64_t id)
{
    zbc_put_be32(out, created);
    zbc_put_be64(out + 4, id);
    return 12;
}

/* Whether projection q (NULL: none) has the key of `mask` that p has for
 * player pl (NULL unless mask has MASK_PLAYER). */
static bool has_key(const struct proj *q, unsigned mask, const struct proj *p,
                    const struct zbc_addr *pl)
{
    if (q == NULL || q->created != p->created)
        return false;
    if ((mask & MASK_STATUS) && q->status != p->status)
        return false;
    if ((mask & MASK_TYPE) && q->type != p->type)
        return false;
    if (!(mask & MASK_PLAYER))
        return true;
    for (unsigned j = 0; j < q->n; j++)
        if (zbc_addr_equal(&q->player[j], pl))
            return true;
    return false;
}

/* Puts (del false) or deletes the list keys of mask `mask` of app id with
 * projection p that projection keep (NULL: none) does not have. */
static int write_mask(struct zbc_store_txn *t, uint64_t id, unsigned mask,
                      const struct proj *p, bool del, const struct proj *keep,
                      struct zbc_err *err)
{
    static const uint8_t empty[1];
    uint8_t k[KEY_MAX];
    int ok = 1;
    unsigned reps = (mask & MASK_PLAYER) ? p->n : 1;
    for (unsigned i = 0; ok && i < reps; i++) {
        const struct zbc_addr *pl = (mask & MASK_PLAYER) ? &p->player[i] : NULL;
        if (has_key(keep, mask, p, pl))
            continue;
        size_t n = key_prefix(k, mask, p->status, p->type, pl);
        n += key_tail(k + n, p->created, id);
        ok = del ? zbc_store_txn_del(t, INDEX_DB, k, n, err)
                 : zbc_store_txn_put(t, INDEX_DB, k, n, empty, 0, err);
    }
    return ok;
}

/* Puts app id's reverse entry (p) or deletes it (p NULL). */
static int write_reverse(struct zbc_store_txn *t, uint64_t id,
                         const struct proj *p, struct zbc_err *err)
{
    uint8_t k[9];
    k[0] = REVERSE;
    zbc_put_be64(k + 1, id);
    if (p == NULL)
        return zbc_store_txn_del(t, INDEX_DB, k, 9, err);
    uint8_t v[PROJ_MAX];
    return zbc_store_txn_put(t, INDEX_DB, k, 9, v, proj_encode(p, v), err);
}

/* Puts (del false) or deletes the list keys of app id with projection p
 * that projection keep (NULL: none) does not have, and p's reverse entry.
 * A status change rewrites only the keys that filter on status: the other
 * half of an app's keys stay where they are.  Deleting with keep set
 * leaves the reverse entry for the put of keep that follows. */
static int write_keys(struct zbc_store_txn *t, uint64_t id,
                      const struct proj *p, bool del, const struct proj *keep,
                      struct zbc_err *err)
{
    for (unsigned mask = 0; mask < MASKS; mask++)
        if (!write_mask(t, id, mask, p, del, keep, err))
            return 0;
    if (del)
        return keep != NULL || write_reverse(t, id, NULL, err);
    return write_reverse(t, id, p, err);
}

/* What app id's reverse entry says the index holds for it: *had false
 * when there is none; a reverse entry that does not decode fills *damaged
 * (its message) and *had false. */
static int read_reverse(struct zbc_store_txn *t, uint64_t id, struct proj *p,
                        bool *had, struct zbc_err *damaged,
                        struct zbc_err *err)
{
    uint8_t rk[9];
    rk[0] = REVERSE;
    zbc_put_be64(rk + 1, id);
    uint8_t *old = NULL;
    size_t old_len = 0;
    if (!zbc_store_txn_get(t, INDEX_DB, rk, 9, &old, &old_len, had, err))
        return 0;
    if (*had && !proj_decode(p, old, old_len, id, damaged))
        *had = false;
    free(old);
    return 1;
}

/* Brings app id's keys in step with projection now (NULL: the app has no
 * record, no keys).  A reverse entry that does not decode fills *damaged
 * (its message) and changes nothing: the old keys are unknown. */
static int sync_to(struct zbc_store_txn *t, uint64_t id,
                   const struct proj *now, struct zbc_err *damaged,
                   struct zbc_err *err)
{
    uint8_t rk[9];
    rk[0] = REVERSE;
    zbc_put_be64(rk + 1, id);
    uint8_t *old = NULL;
    size_t old_len = 0;
    bool had;
    if (!zbc_store_txn_get(t, INDEX_DB, rk, 9, &old, &old_len, &had, err))
        return 0;
    struct proj before;
    if (now != NULL && had) {
        uint8_t enc[PROJ_MAX];
        size_t enc_len = proj_encode(now, enc);
        if (old_len == enc_len && memcmp(old, enc, enc_len) == 0) {
            free(old); /* status, type and players unchanged */
            return 1;
        }
    }
    if (had && !proj_decode(&before, old, old_len, id, damaged)) {
        free(old); /* the caller rebuilds the whole index */
        return 1;
    }
    free(old);
    return (!had || write_keys(t, id, &before, true, now, err)) &&
           (now == NULL ||
            write_keys(t, id, now, false, had ? &before : NULL, err));
}

/* Brings app id's keys in step with its record in st. */
static int sync_app(struct zbc_store_txn *t, struct zbc_state *st,
                    struct zbc_app *scratch, uint64_t id,
                    struct zbc_err *damaged, struct zbc_err *err)
{
    bool found;
    if (!zbc_apps_get(st, id, scratch, &found, err))
        return 0;
    struct proj now;
    if (found)
        proj_of(&now, scratch);
    return sync_to(t, id, found ? &now : NULL, damaged, err);
}

static int put_marker(struct zbc_store_txn *t, uint32_t height,
                      const uint8_t hash[32], struct zbc_err *err)
{
    return zbc_store_put_checkpoint(t, MARKER, height, hash, err);
}

/* ---- open: rebuild when the marker is not the tip ---- */

struct ensure_ctx {
    bool check_only;
    bool stale;
    uint64_t apps;
    struct zbc_store_txn *t;
    struct zbc_app *scratch;
};

static int index_one(void *arg, const uint8_t *key, size_t klen,
                     const uint8_t *val, size_t vlen, struct zbc_err *err)
{
    struct ensure_ctx *c = arg;
    if (klen != 8)
        return zbc_fail(err, "an APPS key is %zu bytes, not 8", klen);
    uint64_t id = zbc_get_le64(key);
    if (!zbc_app_decode(c->scratch, val, vlen, err))
        return zbc_fail_prefix(err, "app %llu", (unsigned long long)id);
    struct proj p;
    proj_of(&p, c->scratch);
    c->apps++;
    return write_keys(c->t, id, &p, false, NULL, err);
}

/* Empties the index and indexes every app of the APPS table. */
static int rebuild(struct zbc_store_txn *t, struct ensure_ctx *c,
                   struct zbc_err *err)
{
    struct zbc_kv kv;
    zbc_store_txn_kv(t, &kv);
    c->t = t;
    c->apps = 0;
    return zbc_store_txn_clear(t, INDEX_DB, err) &&
           kv.ops->each(kv.ctx, ZBC_TABLE_APPS, index_one, c, err);
}

/* The marker stays when it is at the tip or a best-chain block at most
 * ZBC_INDEX_CATCHUP_MAX below it (zbc_app_index_catch_up takes the rest);
 * otherwise the index is rebuilt from the APPS table. */
static int ensure_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct ensure_ctx *c = arg;
    struct zbc_store_meta m;
    enum zbc_store_marker state;
    uint32_t at;
    if (!zbc_store_txn_marker(t, MARKER, &m, &state, &at, err))
        return 0;
    c->stale = !zbc_index_marker_usable(&m, state, at);
    c->apps = 0;
    if (c->check_only || !c->stale)
        return 1;
    if (!rebuild(t, c, err))
        return 0;
    return put_marker(t, m.has_tip ? m.tip_height : 0, m.tip_hash, err);
}

int zbc_app_index_ensure(struct zbc_store *s, bool *rebuilt, uint64_t *apps,
                         struct zbc_err *err)
{
    struct ensure_ctx c = {.check_only = true};
    *rebuilt = false;
    *apps = 0;
    if (!zbc_store_read(s, ensure_fn, &c, err))
        return 0;
    if (!c.stale)
        return 1;
    c.check_only = false;
    c.scratch = malloc(sizeof *c.scratch);
    if (c.scratch == NULL)
        return zbc_fail(err, "out of memory building the app index");
    int ok = zbc_store_write(s, ensure_fn, &c, err);
    free(c.scratch);
    if (!ok)
        return zbc_fail_prefix(err, "cannot build the app index");
    *rebuilt = true;
    *apps = c.apps;
    return 1;
}

/* ---- blocks ---- */

static int id_cmp(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* An app u names: its id and its first entry (the record before the
 * block). */
struct named {
    uint64_t id;
    size_t first;
};

static int named_cmp(const void *x, const void *y)
{
    const struct named *a = x, *b = y;
    if (a->id != b->id)
        return a->id < b->id ? -1 : 1;
    return a->first < b->first ? -1 : a->first > b->first;
}

/* The distinct apps u names, by id (*v NULL when none). */
static int undo_apps(const struct zbc_undo *u, struct named **v, size_t *n,
                     struct zbc_err *err)
{
    size_t k = 0;
    *v = NULL;
    *n = 0;
    for (size_t i = 0; i < u->n; i++)
        k += u->e[i].table == ZBC_TABLE_APPS && u->e[i].klen == 8;
    if (k == 0)
        return 1;
    struct named *a = malloc(k * sizeof *a);
    if (a == NULL)
        return zbc_fail(err, "out of memory listing %zu changed apps", k);
    k = 0;
    for (size_t i = 0; i < u->n; i++)
        if (u->e[i].table == ZBC_TABLE_APPS && u->e[i].klen == 8)
            a[k++] = (struct named){zbc_get_le64(u->e[i].key), i};
    qsort(a, k, sizeof *a, named_cmp);
    size_t d = 0;
    for (size_t i = 0; i < k; i++)
        if (d == 0 || a[i].id != a[d - 1].id)
            a[d++] = a[i];
    *v = a;
    *n = d;
    return 1;
}

int zbc_app_index_block(struct zbc_store_txn *t, struct zbc_state *st,
                        const struct zbc_undo *u, uint32_t height,
                        const uint8_t hash[32], struct zbc_err *err)
{
    struct named *ids;
    size_t n;
    if (!undo_apps(u, &ids, &n, err))
        return zbc_fail_prefix(err, "indexing the apps of block %u", height);
    struct zbc_app *scratch = n > 0 ? malloc(sizeof *scratch) : NULL;
    int ok = n == 0 || scratch != NULL ||
             zbc_fail(err, "out of memory indexing the apps of block %u",
                      height);
    struct zbc_err damaged = {{0}};
    for (size_t i = 0; ok && damaged.msg[0] == 0 && i < n; i++)
        ok = sync_app(t, st, scratch, ids[i].id, &damaged, err);
    if (ok && damaged.msg[0] != 0) {
        /* the index is a function of the APPS table, already at this
         * block's state: rebuild it here rather than refuse the block */
        zbc_log_warn("app list index damaged (%s): rebuilding it from the "
                     "APPS table at height %u", damaged.msg, height);
        struct ensure_ctx c = {.scratch = scratch};
        ok = rebuild(t, &c, err);
    }
    free(scratch);
    free(ids);
    return ok && put_marker(t, height, hash, err);
}

/* ---- the buffer of apps changed since the last flush ---- */

/* An app changed since the last flush, with what the index would hold for
 * it at the tip (present false: it has no record). */
struct aent {
    uint64_t id;
    bool present;
    uint32_t gen; /* the buffer's generation when last noted */
    struct proj p;
};

/* The apps in arrival order and an open-addressing table of their
 * positions + 1 by id, twice their count or more. */
struct zbc_app_index_buf {
    struct aent *e;
    size_t n, cap;
    uint32_t *slot;
    size_t slots; /* a power of two */
    uint32_t gen; /* generation of the notes now (zbc_app_index_freeze) */
};

struct zbc_app_index_buf *zbc_app_index_buf_new(void)
{
    return calloc(1, sizeof(struct zbc_app_index_buf));
}

void zbc_app_index_buf_free(struct zbc_app_index_buf *b)
{
    if (b == NULL)
        return;
    free(b->e);
    free(b->slot);
    free(b);
}

void zbc_app_index_buf_clear(struct zbc_app_index_buf *b)
{
    b->n = 0;
    if (b->slot != NULL)
        memset(b->slot, 0, b->slots * sizeof *b->slot);
}

size_t zbc_app_index_buf_count(const struct zbc_app_index_buf *b)
{
    return b->n;
}

static size_t id_home(const struct zbc_app_index_buf *b, uint64_t id)
{
    return (size_t)((id * 0x9e3779b97f4a7c15ull) >> 20) & (b->slots - 1);
}

/* The slot holding id, or the empty one it would take. */
static size_t id_slot(const struct zbc_app_index_buf *b, uint64_t id)
{
    size_t i = id_home(b, id);
    while (b->slot[i] != 0 && b->e[b->slot[i] - 1].id != id)
        i = (i + 1) & (b->slots - 1);
    return i;
}

static const struct aent *buf_find(const struct zbc_app_index_buf *b,
                                   uint64_t id)
{
    if (b == NULL || b->n == 0)
        return NULL;
    size_t i = id_slot(b, id);
    return b->slot[i] != 0 ? &b->e[b->slot[i] - 1] : NULL;
}

static int buf_reserve(struct zbc_app_index_buf *b, size_t more,
                       struct zbc_err *err)
{
    bool rehash;
    void *e = b->e;
    int ok = zbc_buf_grow(&e, sizeof *b->e, &b->cap, 256, &b->slot,
                          &b->slots, 512, b->n + more, &rehash,
                          "changed apps", err);
    b->e = e;
    for (size_t i = 0; rehash && i < b->n; i++)
        b->slot[id_slot(b, b->e[i].id)] = (uint32_t)(i + 1);
    return ok;
}

/* Whether the block whose first undo entry for app id is e left the
 * app's index fields as they were (after it: found, now).  A record that
 * does not decode counts as changed: the flush then compares with the
 * index itself. */
static bool unchanged(const struct zbc_undo_entry *e, uint64_t id,
                      bool found, const struct proj *now,
                      struct zbc_app *scratch)
{
    if (!e->had || !found)
        return !e->had && !found;
    struct zbc_err ignored = {{0}};
    if (!zbc_app_decode(scratch, e->val, e->vlen, &ignored))
        return false;
    scratch->id = id;
    struct proj before;
    proj_of(&before, scratch);
    uint8_t x[PROJ_MAX], y[PROJ_MAX];
    size_t xl = proj_encode(&before, x), yl = proj_encode(now, y);
    return xl == yl && memcmp(x, y, xl) == 0;
}

int zbc_app_index_bufs_note(struct zbc_app_index_buf *const *bufs,
                            unsigned n_bufs, struct zbc_state *st,
                            const struct zbc_undo *u, bool all,
                            struct zbc_err *err)
{
    struct named *ids;
    size_t n;
    if (!undo_apps(u, &ids, &n, err))
        return 0;
    if (n == 0)
        return 1;
    struct zbc_app *scratch = malloc(sizeof *scratch);
    int ok = scratch != NULL ||
             zbc_fail(err, "out of memory indexing %zu changed apps", n);
    for (size_t i = 0; ok && i < n; i++) {
        struct zbc_app_index_buf *b = bufs[ids[i].id % n_bufs];
        bool found;
        ok = buf_reserve(b, 1, err) &&
             zbc_apps_get(st, ids[i].id, scratch, &found, err);
        if (!ok)
            break;
        struct proj now;
        if (found)
            proj_of(&now, scratch);
        else
            memset(&now, 0, sizeof now);
        size_t s = id_slot(b, ids[i].id);
        struct aent *e;
        if (b->slot[s] != 0) {
            e = &b->e[b->slot[s] - 1];
        } else {
            /* not held: the index has the app as the block found it */
            if (!all && unchanged(&u->e[ids[i].first], ids[i].id, found,
                                  &now, scratch))
                continue;
            e = &b->e[b->n];
            e->id = ids[i].id;
            b->slot[s] = (uint32_t)++b->n;
        }
        e->present = found;
        e->gen = b->gen;
        e->p = now;
    }
    free(scratch);
    free(ids);
    return ok;
}

static int aent_cmp(const void *x, const void *y)
{
    return id_cmp(&((const struct aent *)x)->id, &((const struct aent *)y)->id);
}

int zbc_app_index_flush(struct zbc_store_txn *t,
                        const struct zbc_app_index_buf *b, uint32_t tip,
                        struct zbc_err *err)
{
    struct aent *sorted = NULL;
    if (b->n > 0) {
        sorted = malloc(b->n * sizeof *sorted);
        if (sorted == NULL)
            return zbc_fail(err, "out of memory flushing %zu apps", b->n);
        memcpy(sorted, b->e, b->n * sizeof *sorted);
        qsort(sorted, b->n, sizeof *sorted, aent_cmp);
    }
    struct zbc_err damaged = {{0}};
    int ok = 1;
    for (size_t i = 0; ok && damaged.msg[0] == 0 && i < b->n; i++)
        ok = sync_to(t, sorted[i].id, sorted[i].present ? &sorted[i].p : NULL,
                     &damaged, err);
    free(sorted);
    if (ok && damaged.msg[0] != 0) {
        /* the index is a function of the APPS table, at the tip in this
         * transaction: rebuild it from there */
        zbc_log_warn("app list index damaged (%s): rebuilding it from the "
                     "APPS table at height %u", damaged.msg, tip);
        struct ensure_ctx c = {.scratch = malloc(sizeof(struct zbc_app))};
        ok = c.scratch != NULL
                 ? rebuild(t, &c, err)
                 : zbc_fail(err, "out of memory rebuilding the app index");
        free(c.scratch);
    }
    return ok;
}

/* ---- a cycle: the held apps written a part a block ---- */

/* An app of the cycle: what the index holds for it (old, had) and what
 * it will hold (now, present). */
struct cent {
    uint64_t id;
    bool had, present;
    struct proj old, now;
};

struct zbc_app_index_cycle {
    struct cent *e; /* by id */
    size_t n;
    unsigned done;  /* parts committed */
    uint32_t gen;   /* the generation frozen */
    uint32_t height;
    uint8_t hash[32];
};

static int cent_cmp(const void *x, const void *y)
{
    return id_cmp(&((const struct cent *)x)->id,
                  &((const struct cent *)y)->id);
}

int zbc_app_index_freeze(struct zbc_app_index_buf *b, uint32_t height,
                         const uint8_t hash[32],
                         struct zbc_app_index_cycle **out,
                         struct zbc_err *err)
{
    struct zbc_app_index_cycle *cy = calloc(1, sizeof *cy);
    if (cy == NULL || (b->n > 0 && (cy->e = calloc(b->n, sizeof *cy->e)) ==
                                       NULL)) {
        free(cy);
        return zbc_fail(err, "out of memory writing %zu changed apps", b->n);
    }
    for (size_t i = 0; i < b->n; i++)
        cy->e[cy->n++] = (struct cent){.id = b->e[i].id,
                                       .present = b->e[i].present,
                                       .now = b->e[i].p};
    if (cy->n > 0) /* qsort's base may not be NULL */
        qsort(cy->e, cy->n, sizeof *cy->e, cent_cmp);
    cy->gen = b->gen++;
    cy->height = height;
    memcpy(cy->hash, hash, 32);
    *out = cy;
    return 1;
}

void zbc_app_index_cycle_free(struct zbc_app_index_cycle *cy)
{
    if (cy == NULL)
        return;
    free(cy->e);
    free(cy);
}

size_t zbc_app_index_cycle_count(const struct zbc_app_index_cycle *cy)
{
    return cy == NULL ? 0 : cy->n;
}

unsigned zbc_app_index_cycle_done(const struct zbc_app_index_cycle *cy)
{
    return cy->done;
}

uint32_t zbc_app_index_cycle_height(const struct zbc_app_index_cycle *cy)
{
    return cy->height;
}

uint32_t zbc_app_index_cycle_gen(const struct zbc_app_index_cycle *cy)
{
    return cy->gen;
}

/* Part 0: what the index holds for each app (its reverse entry), and the
 * marker goes until the last part: a crash in between leaves the index
 * half written, and the next open rebuilds it. */
static int cycle_read(struct zbc_store_txn *t, struct zbc_app_index_cycle *cy,
                      struct zbc_err *damaged, struct zbc_err *err)
{
    for (size_t i = 0; i < cy->n && damaged->msg[0] == 0; i++)
        if (!read_reverse(t, cy->e[i].id, &cy->e[i].old, &cy->e[i].had,
                          damaged, err))
            return 0;
    return zbc_store_txn_del(t, ZBC_STORE_DB_META, MARKER, strlen(MARKER),
                             err);
}

/* Part `part` < MASKS: every app's keys of that mask; part MASKS: the
 * reverse entries and the marker. */
static int cycle_part(struct zbc_store_txn *t,
                      const struct zbc_app_index_cycle *cy, unsigned part,
                      struct zbc_err *err)
{
    for (size_t i = 0; i < cy->n; i++) {
        const struct cent *e = &cy->e[i];
        int ok;
        if (part == MASKS)
            ok = e->present ? write_reverse(t, e->id, &e->now, err)
                            : !e->had || write_reverse(t, e->id, NULL, err);
        else
            ok = (!e->had ||
                  write_mask(t, e->id, part, &e->old, true,
                             e->present ? &e->now : NULL, err)) &&
                 (!e->present ||
                  write_mask(t, e->id, part, &e->now, false,
                             e->had ? &e->old : NULL, err));
        if (!ok)
            return 0;
    }
    return part < MASKS || put_marker(t, cy->height, cy->hash, err);
}

int zbc_app_index_cycle_write(struct zbc_store_txn *t,
                              struct zbc_app_index_cycle *cy, unsigned parts,
                              uint32_t tip, const uint8_t tip_hash[32],
                              bool *rebuilt, struct zbc_err *err)
{
    *rebuilt = false;
    unsigned from = cy->done;
    unsigned to = parts < ZBC_APP_INDEX_PARTS - from ? from + parts
                                                     : ZBC_APP_INDEX_PARTS;
    struct zbc_err damaged = {{0}};
    if (from == 0 && !cycle_read(t, cy, &damaged, err))
        return 0;
    if (damaged.msg[0] != 0) {
        /* the index is a function of the APPS table, at the tip in this
         * transaction: rebuild it from there */
        zbc_log_warn("app list index damaged (%s): rebuilding it from the "
                     "APPS table at height %u", damaged.msg, tip);
        struct ensure_ctx c = {.scratch = malloc(sizeof(struct zbc_app))};
        int ok = c.scratch != NULL
                     ? rebuild(t, &c, err)
                     : zbc_fail(err, "out of memory rebuilding the app index");
        free(c.scratch);
        *rebuilt = ok;
        return ok && put_marker(t, tip, tip_hash, err);
    }
    for (unsigned p = from; p < to; p++)
        if (!cycle_part(t, cy, p, err))
            return 0;
    return 1;
}

void zbc_app_index_cycle_committed(struct zbc_app_index_cycle *cy,
                                   unsigned parts)
{
    cy->done = parts < ZBC_APP_INDEX_PARTS - cy->done ? cy->done + parts
                                                      : ZBC_APP_INDEX_PARTS;
}

void zbc_app_index_buf_drop(struct zbc_app_index_buf *b, uint32_t gen)
{
    size_t k = 0;
    for (size_t i = 0; i < b->n; i++)
        if (b->e[i].gen > gen)
            b->e[k++] = b->e[i];
    b->n = k;
    if (b->slot == NULL)
        return;
    memset(b->slot, 0, b->slots * sizeof *b->slot);
    for (size_t i = 0; i < b->n; i++)
        b->slot[id_slot(b, b->e[i].id)] = (uint32_t)(i + 1);
}

int zbc_app_index_catch_up(struct zbc_store_txn *t, struct zbc_state *st,
                           struct zbc_app_index_buf *const *bufs, unsigned n,
                           uint32_t from, struct zbc_err *err)
{
    struct zbc_store_meta m;
    if (!zbc_store_txn_meta(t, &m, err))
        return 0;
    for (uint32_t h = from + 1; m.has_tip && h <= m.tip_height; h++) {
        uint8_t *bytes = NULL;
        size_t len = 0;
        bool found;
        if (!zbc_store_txn_undo(t, h, &bytes, &len, &found, err))
            return 0;
        if (!found)
            return zbc_fail(err, "catching up the app index: the undo record "
                            "of block %u is missing", h);
        struct zbc_undo u = {0};
        int ok = zbc_undo_decode(&u, bytes, len, err) &&
                 zbc_app_index_bufs_note(bufs, n, st, &u, true, err);
        free(bytes);
        zbc_undo_free(&u);
        if (!ok)
            return zbc_fail_prefix(err, "catching up the app index at block "
                                   "%u", h);
    }
    return 1;
}

/* ---- pages ---- */

/* A held app that matches the page's filter, by its list position. */
struct cand {
    uint32_t created;
    uint64_t id;
};

static int cand_cmp_desc(const void *x, const void *y)
{
    const struct cand *a = x, *b = y;
    if (a->created != b->created)
        return a->created < b->created ? 1 : -1;
    return a->id < b->id ? 1 : a->id > b->id ? -1 : 0;
}

struct page_ctx {
    size_t plen, limit, n;
    uint64_t *ids;
    bool more;
    const struct zbc_app_index_buf *const *bufs;
    unsigned n_bufs;
    struct cand *cand; /* held apps matching, newest first */
    size_t n_cand, next;
};

/* Takes one app for the page; *stop once the page is full and one more
 * is known to follow. */
static void take(struct page_ctx *c, uint64_t id, bool *stop)
{
    if (c->n == c->limit) {
        c->more = true;
        *stop = true;
        return;
    }
    c->ids[c->n++] = id;
}

static int page_entry(void *arg, const uint8_t *key, size_t klen,
                      const uint8_t *val, size_t vlen, bool *stop,
                      struct zbc_err *err)
{
    struct page_ctx *c = arg;
    (void)val;
    if (klen != c->plen + 12 || vlen != 0)
        return zbc_fail(err, "app index entry of %zu+%zu bytes, not %zu+0",
                        klen, vlen, c->plen + 12);
    uint32_t created = zbc_get_be32(key + c->plen);
    uint64_t id = zbc_get_be64(key + c->plen + 4);
    if (c->n_bufs > 0 && buf_find(c->bufs[id % c->n_bufs], id) != NULL)
        return 1; /* changed since the flush: its held form counts */
    struct cand here = {created, id};
    while (!*stop && c->next < c->n_cand &&
           cand_cmp_desc(&c->cand[c->next], &here) < 0)
        take(c, c->cand[c->next++].id, stop);
    if (!*stop)
        take(c, id, stop);
    return 1;
}

static bool held_matches(const struct aent *e,
                         const struct zbc_app_index_query *q)
{
    if (!e->present || (q->has_status && e->p.status != q->status) ||
        (q->has_type && e->p.type != q->type))
        return false;
    if (q->has_before &&
        (e->p.created > q->before_height ||
         (e->p.created == q->before_height && e->id >= q->before_id)))
        return false;
    if (!q->has_player)
        return true;
    for (unsigned j = 0; j < e->p.n; j++)
        if (zbc_addr_equal(&e->p.player[j], &q->player))
            return true;
    return false;
}

int zbc_app_index_page(struct zbc_store_txn *t,
                       const struct zbc_app_index_buf *const *bufs,
                       unsigned n_bufs, const struct zbc_app_index_query *q,
                       size_t limit,
                       uint64_t *ids, size_t *n, bool *more,
                       struct zbc_err *err)
{
    unsigned mask = (q->has_status ? MASK_STATUS : 0) |
                    (q->has_type ? MASK_TYPE : 0) |
                    (q->has_player ? MASK_PLAYER : 0);
    uint8_t prefix[KEY_MAX], below[KEY_MAX + 1];
    size_t plen = key_prefix(prefix, mask, q->status, q->type,
                             q->has_player ? &q->player : NULL);
    memcpy(below, prefix, plen);
    size_t blen = plen;
    if (q->has_before) {
        blen += key_tail(below + plen, q->before_height, q->before_id);
    } else { /* above every key of the range */
        memset(below + plen, 0xff, 13);
        blen += 13;
    }
    struct page_ctx c = {.plen = plen, .limit = limit, .ids = ids,
                         .bufs = bufs, .n_bufs = n_bufs};
    *n = 0;
    *more = false;
    size_t held = 0;
    for (unsigned s = 0; s < n_bufs; s++)
        held += bufs[s]->n;
    if (held > 0) {
        c.cand = malloc(held * sizeof *c.cand);
        if (c.cand == NULL)
            return zbc_fail(err, "out of memory listing %zu changed apps",
                            held);
        for (unsigned s = 0; s < n_bufs; s++)
            for (size_t i = 0; i < bufs[s]->n; i++)
                if (held_matches(&bufs[s]->e[i], q))
                    c.cand[c.n_cand++] = (struct cand){
                        bufs[s]->e[i].p.created, bufs[s]->e[i].id};
        qsort(c.cand, c.n_cand, sizeof *c.cand, cand_cmp_desc);
    }
    int ok = zbc_store_txn_scan_back(t, INDEX_DB, prefix, plen, below, blen,
                                     page_entry, &c, err);
    bool stop = c.more;
    while (ok && !stop && c.next < c.n_cand)
        take(&c, c.cand[c.next++].id, &stop);
    free(c.cand);
    *n = c.n;
    *more = c.more;
    return ok;
}
