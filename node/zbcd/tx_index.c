#include "node/zbcd/tx_index.h"

#include <stdlib.h>
#include <string.h>

#include "consensus/block.h"
#include "node/zbcd/buf_grow.h"
#include "crypto/bytes.h"

#define MARKER ZBC_TX_INDEX_MARKER

struct entry {
    uint8_t hash[32];
    uint32_t height, index;
};

/* The entries in arrival order, and an open-addressing table of their
 * positions + 1 (0: empty slot), twice their count or more. */
struct zbc_tx_index_buf {
    struct entry *e;
    size_t n, cap;
    uint32_t *slot;
    size_t slots; /* a power of two */
};

struct zbc_tx_index_buf *zbc_tx_index_buf_new(void)
{
    return calloc(1, sizeof(struct zbc_tx_index_buf));
}

void zbc_tx_index_buf_free(struct zbc_tx_index_buf *b)
{
    if (b == NULL)
        return;
    free(b->e);
    free(b->slot);
    free(b);
}

void zbc_tx_index_buf_clear(struct zbc_tx_index_buf *b)
{
    b->n = 0;
    if (b->slot != NULL)
        memset(b->slot, 0, b->slots * sizeof *b->slot);
}

size_t zbc_tx_index_buf_count(const struct zbc_tx_index_buf *b)
{
    return b->n;
}

/* Transaction hashes are uniform: their first bytes are the hash. */
static size_t home(const struct zbc_tx_index_buf *b, const uint8_t hash[32])
{
    return (size_t)zbc_get_le64(hash) & (b->slots - 1);
}

static void place(struct zbc_tx_index_buf *b, size_t pos)
{
    size_t i = home(b, b->e[pos].hash);
    while (b->slot[i] != 0)
        i = (i + 1) & (b->slots - 1);
    b->slot[i] = (uint32_t)(pos + 1);
}

static int reserve(struct zbc_tx_index_buf *b, size_t more,
                   struct zbc_err *err)
{
    bool rehash;
    void *e = b->e;
    int ok = zbc_buf_grow(&e, sizeof *b->e, &b->cap, 1024, &b->slot,
                          &b->slots, 2048, b->n + more, &rehash,
                          "transaction index entries", err);
    b->e = e;
    for (size_t i = 0; rehash && i < b->n; i++)
        place(b, i);
    return ok;
}

unsigned zbc_tx_index_slice(const uint8_t hash[32], unsigned n)
{
    return n > 1 ? (unsigned)(zbc_get_le32(hash + 8) % n) : 0;
}

int zbc_tx_index_bufs_add(struct zbc_tx_index_buf *const *bufs,
                          unsigned n_bufs, uint32_t height,
                          const uint8_t (*hashes)[32], uint32_t n,
                          struct zbc_err *err)
{
    for (uint32_t i = 0; i < n; i++) {
        struct zbc_tx_index_buf *b = bufs[zbc_tx_index_slice(hashes[i],
                                                             n_bufs)];
        if (!reserve(b, 1, err))
            return 0;
        struct entry *e = &b->e[b->n];
        memcpy(e->hash, hashes[i], 32);
        e->height = height;
        e->index = i;
        place(b, b->n++);
    }
    return 1;
}

bool zbc_tx_index_buf_find(const struct zbc_tx_index_buf *b,
                           const uint8_t hash[32], uint32_t *height,
                           uint32_t *index)
{
    if (b->n == 0)
        return false;
    /* a hash twice in the buffer (not possible on one chain: TXSEEN) would
     * be found at its first place */
    for (size_t i = home(b, hash); b->slot[i] != 0;
         i = (i + 1) & (b->slots - 1)) {
        const struct entry *e = &b->e[b->slot[i] - 1];
        if (memcmp(e->hash, hash, 32) == 0) {
            *height = e->height;
            *index = e->index;
            return true;
        }
    }
    return false;
}

static int entry_cmp(const void *x, const void *y)
{
    return memcmp(((const struct entry *)x)->hash,
                  ((const struct entry *)y)->hash, 32);
}

int zbc_tx_index_flush(struct zbc_store_txn *t,
                       const struct zbc_tx_index_buf *b, struct zbc_err *err)
{
    struct entry *sorted = NULL;
    if (b->n > 0) {
        sorted = malloc(b->n * sizeof *sorted);
        if (sorted == NULL)
            return zbc_fail(err, "out of memory flushing %zu transaction "
                            "index entries", b->n);
        memcpy(sorted, b->e, b->n * sizeof *sorted);
        qsort(sorted, b->n, sizeof *sorted, entry_cmp);
    }
    int ok = 1;
    for (size_t i = 0; ok && i < b->n; i++)
        ok = zbc_store_put_tx_index(t, sorted[i].hash, sorted[i].height,
                                    sorted[i].index, err);
    free(sorted);
    return ok;
}

int zbc_tx_index_undo_block(struct zbc_store_txn *t,
                            const uint8_t (*hashes)[32], uint32_t n,
                            uint32_t parent_height,
                            const uint8_t parent_hash[32],
                            struct zbc_err *err)
{
    for (uint32_t i = 0; i < n; i++)
        if (!zbc_store_del_tx_index(t, hashes[i], err))
            return 0;
    return zbc_store_put_checkpoint(t, MARKER, parent_height, parent_hash,
                                    err);
}

/* The transaction hashes of the stored block at height (*hashes NULL when
 * it has none; the caller frees it). */
int zbc_tx_index_block_hashes(struct zbc_store_txn *t, uint32_t height,
                               uint8_t (**hashes)[32], uint32_t *n,
                               struct zbc_err *err)
{
    uint8_t *bytes = NULL;
    size_t len = 0;
    bool found;
    *hashes = NULL;
    *n = 0;
    if (!zbc_store_txn_block(t, height, &bytes, &len, &found, err))
        return 0;
    if (!found)
        return zbc_fail(err, "block %u is missing", height);
    struct zbc_block blk;
    int ok = zbc_block_decode(&blk, bytes, len, err);
    if (!ok) {
        free(bytes);
        return zbc_fail_prefix(err, "stored block %u does not decode",
                               height);
    }
    if (blk.n_tx > 0) {
        *hashes = malloc(blk.n_tx * sizeof **hashes);
        if (*hashes == NULL)
            ok = zbc_fail(err, "out of memory hashing block %u", height);
        for (uint32_t i = 0; ok && i < blk.n_tx; i++)
            zbc_tx_ref_hash((*hashes)[i], &blk.txs[i]);
        if (ok)
            *n = blk.n_tx;
    }
    zbc_block_free(&blk);
    free(bytes);
    return ok;
}

bool zbc_index_marker_usable(const struct zbc_store_meta *m,
                             enum zbc_store_marker state, uint32_t at)
{
    uint32_t tip = m->has_tip ? m->tip_height : 0;
    return state == ZBC_STORE_MARKER_AT_TIP ||
           (state == ZBC_STORE_MARKER_BEHIND &&
            tip - at <= ZBC_INDEX_CATCHUP_MAX);
}

struct ensure_ctx {
    bool check_only;
    bool has;      /* a marker is stored */
    bool fine;     /* it needs no rebuild */
    uint32_t blocks;
};

/* A marker at the tip, or behind it by at most ZBC_INDEX_CATCHUP_MAX
 * blocks, stays.  No marker: a fresh ledger, or one of a zbcd that indexed
 * every block as it came (complete): the marker goes at the tip.
 * Otherwise the index is rebuilt from every stored block. */
static int ensure_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct ensure_ctx *c = arg;
    struct zbc_store_meta m;
    enum zbc_store_marker state;
    uint32_t h;
    uint8_t *mv = NULL;
    size_t mlen = 0;
    if (!zbc_store_txn_marker(t, MARKER, &m, &state, &h, err) ||
        !zbc_store_txn_get(t, ZBC_STORE_DB_META, MARKER, strlen(MARKER), &mv,
                           &mlen, &c->has, err))
        return 0;
    free(mv);
    uint32_t tip = m.has_tip ? m.tip_height : 0;
    c->fine = zbc_index_marker_usable(&m, state, h);
    c->blocks = 0;
    if (c->check_only || (c->has && c->fine))
        return 1;
    if (!c->has)
        return zbc_store_put_checkpoint(t, MARKER, tip, m.tip_hash, err);
    if (!zbc_store_txn_clear(t, ZBC_STORE_DB_TX_INDEX, err))
        return 0;
    for (uint32_t bh = 1; bh <= tip; bh++) {
        uint8_t(*hashes)[32];
        uint32_t n;
        if (!zbc_tx_index_block_hashes(t, bh, &hashes, &n, err))
            return zbc_fail_prefix(err, "indexing block %u", bh);
        int ok = 1;
        for (uint32_t i = 0; ok && i < n; i++)
            ok = zbc_store_put_tx_index(t, hashes[i], bh, i, err);
        free(hashes);
        if (!ok)
            return 0;
        c->blocks++;
    }
    return zbc_store_put_checkpoint(t, MARKER, tip, m.tip_hash, err);
}

int zbc_tx_index_ensure(struct zbc_store *s, bool *rebuilt, uint32_t *blocks,
                        struct zbc_err *err)
{
    struct ensure_ctx c = {.check_only = true};
    *rebuilt = false;
    *blocks = 0;
    if (!zbc_store_read(s, ensure_fn, &c, err))
        return 0;
    if (c.has && c.fine)
        return 1;
    bool rebuild = c.has;
    c.check_only = false;
    if (!zbc_store_write(s, ensure_fn, &c, err))
        return zbc_fail_prefix(err, "cannot build the transaction index");
    *rebuilt = rebuild;
    *blocks = c.blocks;
    return 1;
}

int zbc_tx_index_catch_up(struct zbc_store_txn *t,
                          struct zbc_tx_index_buf *const *bufs,
                          unsigned n_bufs, uint32_t from, struct zbc_err *err)
{
    struct zbc_store_meta m;
    if (!zbc_store_txn_meta(t, &m, err))
        return 0;
    for (uint32_t h = from + 1; m.has_tip && h <= m.tip_height; h++) {
        uint8_t(*hashes)[32];
        uint32_t n;
        if (!zbc_tx_index_block_hashes(t, h, &hashes, &n, err))
            return zbc_fail_prefix(err, "catching up the transaction index");
        int ok = zbc_tx_index_bufs_add(bufs, n_bufs, h,
                                       (const uint8_t(*)[32])hashes, n, err);
        free(hashes);
        if (!ok)
            return 0;
    }
    return 1;
}

int zbc_tx_index_lookup(struct zbc_store *s, const struct zbc_tx_index_buf *b,
                        const uint8_t hash[32], uint32_t *height,
                        uint32_t *index, bool *found, struct zbc_err *err)
{
    if (b != NULL && zbc_tx_index_buf_find(b, hash, height, index)) {
        *found = true;
        return 1;
    }
    return zbc_store_tx_index(s, hash, height, index, found, err);
}
