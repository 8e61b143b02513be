#include "node/zbcd/history.h"

#include <stdlib.h>
#include <string.h>

#include "consensus/block.h"
#include "node/zbcd/buf_grow.h"
#include "crypto/bytes.h"
#include "node/zbcd/log.h"
#include "node/zbcd/tx_index.h"

#define HISTORY_DB ZBC_STORE_DB_ACCT_HISTORY
#define MARKER ZBC_HISTORY_MARKER
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
    return zbc_store_put_checkpoint(t, MARKER, height, hash, err);
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

int zbc_history_undo_block(struct zbc_store_txn *t, uint32_t height,
                           const struct zbc_events *ev,
                           uint32_t parent_height,
                           const uint8_t parent_hash[32], struct zbc_err *err)
{
    return index_events(t, height, 0, ev, true, err) &&
           put_marker(t, parent_height, parent_hash, err);
}

/* ---- the buffer of entries not yet flushed ---- */

/* One held entry; prev: the position + 1 of the same account's entry
 * before it (0: none), so an account's entries are a chain newest first. */
struct bent {
    struct hkey key;
    uint64_t ts;
    uint32_t prev;
};

/* The entries in arrival order (height, then event index: an account's
 * chain is newest first from its head) and an open-addressing table of
 * each account's newest entry's position + 1, twice the entries or more. */
struct zbc_history_buf {
    struct bent *e;
    size_t n, cap;
    uint32_t *slot;
    size_t slots; /* a power of two */
};

struct zbc_history_buf *zbc_history_buf_new(void)
{
    return calloc(1, sizeof(struct zbc_history_buf));
}

void zbc_history_buf_free(struct zbc_history_buf *b)
{
    if (b == NULL)
        return;
    free(b->e);
    free(b->slot);
    free(b);
}

void zbc_history_buf_clear(struct zbc_history_buf *b)
{
    b->n = 0;
    if (b->slot != NULL)
        memset(b->slot, 0, b->slots * sizeof *b->slot);
}

size_t zbc_history_buf_count(const struct zbc_history_buf *b)
{
    return b->n;
}

/* An account prefix's table slot (FNV-1a of its bytes). */
static uint64_t prefix_hash(const uint8_t *p, size_t plen);

static size_t acct_home(const struct zbc_history_buf *b, const uint8_t *p,
                        size_t plen)
{
    return (size_t)prefix_hash(p, plen) & (b->slots - 1);
}

/* The slot of the account with prefix p: its own, or the empty one it
 * would take. */
static size_t acct_slot(const struct zbc_history_buf *b, const uint8_t *p,
                        size_t plen)
{
    size_t i = acct_home(b, p, plen);
    while (b->slot[i] != 0) {
        const struct hkey *k = &b->e[b->slot[i] - 1].key;
        if ((size_t)k->k[0] + 1 == plen && memcmp(k->k, p, plen) == 0)
            return i;
        i = (i + 1) & (b->slots - 1);
    }
    return i;
}

/* Appends entry e (its prev set here). */
static void link_entry(struct zbc_history_buf *b, size_t pos)
{
    struct bent *e = &b->e[pos];
    size_t i = acct_slot(b, e->key.k, (size_t)e->key.k[0] + 1);
    e->prev = b->slot[i];
    b->slot[i] = (uint32_t)(pos + 1);
}

static int buf_reserve(struct zbc_history_buf *b, size_t more,
                       struct zbc_err *err)
{
    bool rehash;
    void *e = b->e;
    int ok = zbc_buf_grow(&e, sizeof *b->e, &b->cap, 1024, &b->slot,
                          &b->slots, 2048, b->n + more, &rehash,
                          "account history entries", err);
    b->e = e;
    for (size_t i = 0; rehash && i < b->n; i++)
        link_entry(b, i);
    return ok;
}

/* The account prefix's FNV-1a hash. */
static uint64_t prefix_hash(const uint8_t *p, size_t plen)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < plen; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h ^ (h >> 29);
}

unsigned zbc_history_slice(const struct zbc_addr *a, unsigned n)
{
    if (n <= 1)
        return 0;
    uint8_t p[KEY_MAX];
    size_t plen = acct_prefix(p, a);
    return (unsigned)((prefix_hash(p, plen) >> 32) % n);
}

int zbc_history_bufs_add(struct zbc_history_buf *const *bufs, unsigned n,
                         uint32_t height, uint64_t timestamp_ms,
                         const struct zbc_events *ev, struct zbc_err *err)
{
    for (size_t i = 0; i < ev->n; i++) {
        const struct zbc_event *e = &ev->e[i];
        bool has_a = e->a.type != ZBC_ACCT_EMPTY;
        const struct zbc_addr *who[2] = {has_a ? &e->a : NULL, NULL};
        if (e->b.type != ZBC_ACCT_EMPTY &&
            !(has_a && zbc_addr_equal(&e->a, &e->b)))
            who[1] = &e->b;
        for (unsigned w = 0; w < 2; w++) {
            if (who[w] == NULL)
                continue;
            struct zbc_history_buf *b = bufs[zbc_history_slice(who[w], n)];
            if (!buf_reserve(b, 1, err))
                return 0;
            struct bent *be = &b->e[b->n];
            be->key.len = (uint8_t)acct_key(be->key.k, who[w], height,
                                            (uint32_t)i);
            be->ts = timestamp_ms;
            link_entry(b, b->n++);
        }
    }
    return 1;
}

int zbc_history_flush(struct zbc_store_txn *t,
                      const struct zbc_history_buf *b, struct zbc_err *err)
{
    struct bent *sorted = NULL;
    if (b->n > 0) {
        sorted = malloc(b->n * sizeof *sorted);
        if (sorted == NULL)
            return zbc_fail(err, "out of memory flushing %zu account history "
                            "entries", b->n);
        memcpy(sorted, b->e, b->n * sizeof *sorted);
        /* struct bent starts with its hkey */
        qsort(sorted, b->n, sizeof *sorted, hkey_cmp);
    }
    int ok = 1;
    for (size_t i = 0; ok && i < b->n; i++) {
        uint8_t ts[8];
        zbc_put_le64(ts, sorted[i].ts);
        ok = zbc_store_txn_put(t, HISTORY_DB, sorted[i].key.k,
                               sorted[i].key.len, ts, 8, err);
    }
    free(sorted);
    return ok;
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

/* The marker stays when it is at the tip or a best-chain block at most
 * ZBC_INDEX_CATCHUP_MAX below it (zbc_history_catch_up takes the rest);
 * otherwise the index is rebuilt from every stored block. */
static int ensure_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct ensure_ctx *c = arg;
    struct zbc_store_meta m;
    enum zbc_store_marker state;
    uint32_t at;
    if (!zbc_store_txn_marker(t, MARKER, &m, &state, &at, err))
        return 0;
    uint32_t tip = m.has_tip ? m.tip_height : 0;
    c->stale = !zbc_index_marker_usable(&m, state, at);
    c->blocks = 0;
    if (c->check_only || !c->stale)
        return 1;
    if (!zbc_store_txn_clear(t, HISTORY_DB, err))
        return 0;
    for (uint32_t h = 1; h <= tip; h++) {
        struct zbc_block_header hdr;
        struct zbc_events ev = {0};
        int ok = stored_block(t, h, &hdr, &ev, err) &&
                 index_events(t, h, hdr.timestamp_ms, &ev, false, err);
        zbc_events_free(&ev);
        if (!ok)
            return zbc_fail_prefix(err, "indexing block %u", h);
        c->blocks++;
    }
    return put_marker(t, tip, m.tip_hash, err);
}

int zbc_history_catch_up(struct zbc_store_txn *t,
                         struct zbc_history_buf *const *bufs, unsigned n,
                         uint32_t from, struct zbc_err *err)
{
    struct zbc_store_meta m;
    if (!zbc_store_txn_meta(t, &m, err))
        return 0;
    for (uint32_t h = from + 1; m.has_tip && h <= m.tip_height; h++) {
        struct zbc_block_header hdr;
        struct zbc_events ev = {0};
        int ok = stored_block(t, h, &hdr, &ev, err) &&
                 zbc_history_bufs_add(bufs, n, h, hdr.timestamp_ms, &ev, err);
        zbc_events_free(&ev);
        if (!ok)
            return zbc_fail_prefix(err, "catching up the account history at "
                                   "block %u", h);
    }
    return 1;
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
    const struct zbc_history_buf *b;
    uint32_t stored_to;
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
    /* the stored entries from here down: those above stored_to are held */
    uint8_t sbelow[KEY_MAX];
    size_t sblen = blen;
    memcpy(sbelow, below, blen);
    if (pa->stored_to < UINT32_MAX &&
        (!pa->has_before || pa->before_height > pa->stored_to))
        sblen = acct_key(sbelow, pa->a, pa->stored_to + 1, 0);
    struct page_ctx c = {.p = pa->p, .limit = pa->limit, .plen = plen,
                         .t = t};
    /* the held entries first: every one is newer than the stored ones */
    bool stop = false;
    int ok = 1;
    const struct zbc_history_buf *b = pa->b;
    if (b != NULL && b->n > 0) {
        size_t i = acct_slot(b, prefix, plen);
        for (uint32_t pos = b->slot[i]; ok && !stop && pos != 0;
             pos = b->e[pos - 1].prev) {
            const struct bent *e = &b->e[pos - 1];
            if (e->key.len != blen || memcmp(e->key.k, below, blen) >= 0)
                continue; /* not older than the cursor */
            uint8_t ts[8];
            zbc_put_le64(ts, e->ts);
            ok = page_entry(&c, e->key.k, e->key.len, ts, 8, &stop, err);
        }
    }
    if (ok && !stop)
        ok = zbc_store_txn_scan_back(t, HISTORY_DB, prefix, plen, sbelow,
                                     sblen, page_entry, &c, err);
    zbc_events_free(&c.ev);
    return ok;
}

int zbc_history_page(struct zbc_store *s, const struct zbc_history_buf *b,
                     uint32_t stored_to, const struct zbc_addr *a,
                     bool has_before, uint32_t before_height,
                     uint32_t before_index, size_t limit,
                     struct zbc_history_page *p, struct zbc_err *err)
{
    if (limit < 1 || limit > ZBC_HISTORY_PAGE_MAX)
        return zbc_fail(err, "limit must be from 1 to %u",
                        ZBC_HISTORY_PAGE_MAX);
    struct page_args pa = {b, stored_to, a, has_before, before_height,
                           before_index, limit, p};
    return zbc_store_read(s, page_fn, &pa, err);
}
