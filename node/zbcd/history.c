#include "node/zbcd/history.h"

#include <stdlib.h>
#include <string.h>

#include "consensus/block.h"
#include "crypto/bytes.h"
#include "node/zbcd/log.h"

#define HISTORY_DB ZBC_STORE_DB_ACCT_HISTORY
#define MARKER "history_tip"
#define KEY_MAX (1 + ZBC_ADDR_BYTES_MAX + 8)

/* The account's prefix: addr_len u8 || typed bytes; returns its length. */
static size_t acct_prefix(uint8_t out[KEY_MAX], const struct zbc_addr *a)
{
    size_t n = zbc_addr_write(out + 1, a);
    out[0] = (uint8_t)n;
    return 1 + n;
}

static size_t acct_key(uint8_t out[KEY_MAX], const struct zbc_addr *a,
                       uint32_t height, uint32_t index)
{
    size_t n = acct_prefix(out, a);
    zbc_put_be32(out + n, height);
    zbc_put_be32(out + n + 4, index);
    return n + 8;
}

static int put_marker(struct zbc_store_txn *t, uint32_t height,
                      const uint8_t hash[32], struct zbc_err *err)
{
    uint8_t v[36];
    zbc_put_le32(v, height);
    memcpy(v + 4, hash, 32);
    return zbc_store_txn_put(t, ZBC_STORE_DB_META, MARKER, strlen(MARKER), v,
                             sizeof v, err);
}

/* One index key: its bytes and length. */
struct hkey {
    uint8_t len;
    uint8_t k[KEY_MAX];
};

static int hkey_cmp(const void *x, const void *y)
{
    const struct hkey *a = x, *b = y;
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->k, b->k, n);
    return c != 0 ? c : (int)a->len - (int)b->len;
}

static void push_key(struct hkey *keys, size_t *n, const struct zbc_addr *a,
                     uint32_t height, uint32_t index)
{
    keys[*n].len = (uint8_t)acct_key(keys[*n].k, a, height, index);
    (*n)++;
}

/* Puts (or deletes) the entries of a block's events in key order: each
 * account's B-tree pages are then touched in one run, not once per event
 * (docs/node.md §3, "Cost"). */
static int index_events(struct zbc_store_txn *t, uint32_t height,
                        uint64_t timestamp_ms, const struct zbc_events *ev,
                        bool del, struct zbc_err *err)
{
    if (ev->n == 0)
        return 1;
    struct hkey *keys = calloc(2 * ev->n, sizeof *keys);
    if (keys == NULL)
        return zbc_fail(err, "out of memory indexing block %u", height);
    size_t n = 0;
    for (size_t i = 0; i < ev->n; i++) {
        const struct zbc_event *e = &ev->e[i];
        bool has_a = e->a.type != ZBC_ACCT_EMPTY;
        if (has_a)
            push_key(keys, &n, &e->a, height, (uint32_t)i);
        if (e->b.type != ZBC_ACCT_EMPTY &&
            !(has_a && zbc_addr_equal(&e->a, &e->b)))
            push_key(keys, &n, &e->b, height, (uint32_t)i);
    }
    qsort(keys, n, sizeof *keys, hkey_cmp);
    uint8_t ts[8];
    zbc_put_le64(ts, timestamp_ms);
    int ok = 1;
    for (size_t i = 0; ok && i < n; i++)
        ok = del ? zbc_store_txn_del(t, HISTORY_DB, keys[i].k, keys[i].len,
                                     err)
                 : zbc_store_txn_put(t, HISTORY_DB, keys[i].k, keys[i].len,
                                     ts, 8, err);
    free(keys);
    return ok;
}

int zbc_history_add_block(struct zbc_store_txn *t, uint32_t height,
                          const uint8_t hash[32], uint64_t timestamp_ms,
                          const struct zbc_events *ev, struct zbc_err *err)
{
    return index_events(t, height, timestamp_ms, ev, false, err) &&
           put_marker(t, height, hash, err);
}

int zbc_history_undo_block(struct zbc_store_txn *t, uint32_t height,
                           const struct zbc_events *ev,
                           uint32_t parent_height,
                           const uint8_t parent_hash[32], struct zbc_err *err)
{
    if (!index_events(t, height, 0, ev, true, err))
        return 0;
    if (parent_height == 0)
        return zbc_store_txn_del(t, ZBC_STORE_DB_META, MARKER, strlen(MARKER),
                                 err);
    return put_marker(t, parent_height, parent_hash, err);
}

/* ---- open: rebuild when the marker is not the tip ---- */

struct ensure_ctx {
    bool check_only;
    bool stale;
    uint32_t blocks;
};

/* The events and header of the stored block at height. */
static int stored_block(struct zbc_store_txn *t, uint32_t height,
                        struct zbc_block_header *h, struct zbc_events *ev,
                        struct zbc_err *err)
{
    uint8_t *bytes = NULL;
    size_t len = 0;
    bool found;
    if (!zbc_store_txn_block(t, height, &bytes, &len, &found, err))
        return 0;
    if (!found)
        return zbc_fail(err, "block %u is missing", height);
    int ok = len >= ZBC_BLOCK_HEADER_LEN &&
             zbc_block_header_decode(h, bytes, ZBC_BLOCK_HEADER_LEN, err);
    free(bytes);
    if (!ok)
        return zbc_fail_prefix(err, "stored block %u does not decode", height);
    if (!zbc_store_txn_events(t, height, &bytes, &len, &found, err))
        return 0;
    if (!found)
        return 1; /* no event record: nothing to index */
    ok = zbc_events_decode(ev, bytes, len, err);
    free(bytes);
    return ok;
}

static int ensure_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct ensure_ctx *c = arg;
    struct zbc_store_meta m;
    bool same;
    if (!zbc_store_txn_marker_at_tip(t, MARKER, &m, &same, err))
        return 0;
    c->stale = !same;
    c->blocks = 0;
    if (c->check_only || same)
        return 1;
    if (!zbc_store_txn_clear(t, HISTORY_DB, err))
        return 0;
    if (!m.has_tip)
        return zbc_store_txn_del(t, ZBC_STORE_DB_META, MARKER, strlen(MARKER),
                                 err);
    for (uint32_t h = 1; h <= m.tip_height; h++) {
        struct zbc_block_header hdr;
        struct zbc_events ev = {0};
        int ok = stored_block(t, h, &hdr, &ev, err) &&
                 index_events(t, h, hdr.timestamp_ms, &ev, false, err);
        zbc_events_free(&ev);
        if (!ok)
            return zbc_fail_prefix(err, "indexing block %u", h);
        c->blocks++;
    }
    return put_marker(t, m.tip_height, m.tip_hash, err);
}

int zbc_history_ensure(struct zbc_store *s, bool *rebuilt, uint32_t *blocks,
                       struct zbc_err *err)
{
    struct ensure_ctx c = {.check_only = true};
    *rebuilt = false;
    *blocks = 0;
    if (!zbc_store_read(s, ensure_fn, &c, err))
        return 0;
    if (!c.stale)
        return 1;
    c.check_only = false;
    if (!zbc_store_write(s, ensure_fn, &c, err))
        return zbc_fail_prefix(err, "cannot build the account history index");
    *rebuilt = true;
    *blocks = c.blocks;
    return 1;
}

/* ---- pages ---- */

struct page_ctx {
    struct zbc_history_page *p;
    size_t limit;
    size_t plen;
    uint32_t ev_height;       /* the decoded block in ev, 0: none */
    struct zbc_events ev;
    struct zbc_store_txn *t;
};

static int page_entry(void *arg, const uint8_t *key, size_t klen,
                      const uint8_t *val, size_t vlen, bool *stop,
                      struct zbc_err *err)
{
    struct page_ctx *c = arg;
    if (c->p->n == c->limit) {
        c->p->more = true;
        *stop = true;
        return 1;
    }
    if (klen != c->plen + 8 || vlen != 8)
        return zbc_fail(err, "account history entry of %zu+%zu bytes, not "
                        "%zu+8", klen, vlen, c->plen + 8);
    struct zbc_history_entry *e = &c->p->e[c->p->n];
    e->height = zbc_get_be32(key + c->plen);
    e->index = zbc_get_be32(key + c->plen + 4);
    e->timestamp_ms = zbc_get_le64(val);
    if (c->ev_height != e->height) {
        zbc_events_free(&c->ev);
        c->ev_height = 0;
        uint8_t *bytes = NULL;
        size_t len = 0;
        bool found;
        if (!zbc_store_txn_events(c->t, e->height, &bytes, &len, &found, err))
            return 0;
        if (!found)
            return zbc_fail(err, "the events of block %u are missing",
                            e->height);
        int ok = zbc_events_decode(&c->ev, bytes, len, err);
        free(bytes);
        if (!ok)
            return zbc_fail_prefix(err, "events of block %u", e->height);
        c->ev_height = e->height;
    }
    if (e->index >= c->ev.n)
        return zbc_fail(err, "block %u has no event %u", e->height, e->index);
    e->ev = c->ev.e[e->index];
    c->p->n++;
    return 1;
}

struct page_args {
    const struct zbc_addr *a;
    bool has_before;
    uint32_t before_height, before_index;
    size_t limit;
    struct zbc_history_page *p;
};

static int page_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct page_args *pa = arg;
    struct zbc_store_meta m;
    if (!zbc_store_txn_meta(t, &m, err))
        return 0;
    pa->p->n = 0;
    pa->p->more = false;
    pa->p->tip = m.has_tip ? m.tip_height : 0;
    uint8_t prefix[KEY_MAX], below[KEY_MAX];
    size_t plen = acct_prefix(prefix, pa->a);
    size_t blen = acct_key(below, pa->a,
                           pa->has_before ? pa->before_height : UINT32_MAX,
                           pa->has_before ? pa->before_index : UINT32_MAX);
    struct page_ctx c = {.p = pa->p, .limit = pa->limit, .plen = plen,
                         .t = t};
    int ok = zbc_store_txn_scan_back(t, HISTORY_DB, prefix, plen, below, blen,
                                     page_entry, &c, err);
    zbc_events_free(&c.ev);
    return ok;
}

int zbc_history_page(struct zbc_store *s, const struct zbc_addr *a,
                     bool has_before, uint32_t before_height,
                     uint32_t before_index, size_t limit,
                     struct zbc_history_page *p, struct zbc_err *err)
{
    if (limit < 1 || limit > ZBC_HISTORY_PAGE_MAX)
        return zbc_fail(err, "limit must be from 1 to %u",
                        ZBC_HISTORY_PAGE_MAX);
    struct page_args pa = {a, has_before, before_height, before_index, limit,
                           p};
    return zbc_store_read(s, page_fn, &pa, err);
}
