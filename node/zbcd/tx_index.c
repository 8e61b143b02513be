#include "node/zbcd/tx_index.h"

#include <stdlib.h>
#include <string.h>

#include "consensus/ledger.h"
#include "crypto/bytes.h"

#define LEGACY_MARKER ZBC_TX_INDEX_LEGACY_MARKER

int zbc_tx_index_hash_block(const struct zbc_block *b, uint8_t (**hashes)[32],
                            struct zbc_err *err)
{
    *hashes = NULL;
    if (b->n_tx == 0)
        return 1;
    *hashes = malloc(b->n_tx * sizeof **hashes);
    if (*hashes == NULL)
        return zbc_fail(err, "out of memory hashing block %u",
                        b->header.height);
    for (uint32_t i = 0; i < b->n_tx; i++)
        zbc_tx_ref_hash((*hashes)[i], &b->txs[i]);
    return 1;
}

int zbc_tx_index_block_hashes(struct zbc_store_txn *t, uint32_t height,
                              uint8_t (**hashes)[32], uint32_t *n,
                              struct zbc_err *err)
{
    uint8_t *bytes = NULL;
    size_t len = 0;
    bool found;
    *hashes = NULL;
    *n = 0;
    if (!zbc_store_txn_block_txs(t, height, &bytes, &len, &found, err))
        return 0;
    if (!zbc_store_block_txs_check(height, found, len, err)) {
        free(bytes);
        return 0;
    }
    if (len == 0) {
        free(bytes);
        return 1;
    }
    *hashes = (uint8_t(*)[32])bytes;
    *n = (uint32_t)(len / 32);
    return 1;
}

int zbc_tx_index_find(struct zbc_state *st, struct zbc_store_txn *t,
                      const uint8_t hash[32], uint32_t *height,
                      uint32_t *index, bool *found, struct zbc_err *err)
{
    bool seen;
    *found = false;
    if (!zbc_ledger_tx_seen(st, hash, &seen, height, err))
        return 0;
    if (!seen || index == NULL) {
        *found = seen;
        return 1;
    }
    if (!zbc_store_txn_block_tx_find(t, *height, hash, index, found, err))
        return 0;
    if (!*found)
        return zbc_fail(err, "TXSEEN says block %u included the "
                        "transaction, but its transaction list lacks it",
                        *height);
    return 1;
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
    bool lists_ok;  /* a block_txs record for every stored block */
    bool legacy_ok; /* tx_index empty, its marker at the genesis */
    uint32_t blocks;
};

/* The old table's marker at height 0 (BEHIND for a zbcd that reads it). */
static int legacy_state(struct zbc_store_txn *t, bool *ok,
                        struct zbc_err *err)
{
    uint64_t n;
    uint8_t *v = NULL;
    size_t len = 0;
    bool has;
    if (!zbc_store_txn_count(t, ZBC_STORE_DB_TX_INDEX, &n, err) ||
        !zbc_store_txn_get(t, ZBC_STORE_DB_META, LEGACY_MARKER,
                           strlen(LEGACY_MARKER), &v, &len, &has, err))
        return 0;
    *ok = n == 0 && has && len == 36 && zbc_get_le32(v) == 0;
    free(v);
    return 1;
}

/* The block_txs keys above a height, largest first. */
struct above {
    uint32_t from;
    uint32_t *h;
    size_t n, cap;
};

static int above_fn(void *arg, const uint8_t *key, size_t klen,
                    const uint8_t *val, size_t vlen, bool *stop,
                    struct zbc_err *err)
{
    (void)val;
    (void)vlen;
    struct above *a = arg;
    uint32_t h = klen == 4 ? zbc_get_be32(key) : 0;
    if (klen != 4 || h <= a->from) {
        *stop = klen == 4;
        return klen == 4 ? 1
                         : zbc_fail(err, "a block_txs key is %zu bytes, not 4",
                                    klen);
    }
    if (a->n == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 64;
        uint32_t *g = realloc(a->h, cap * sizeof *g);
        if (g == NULL)
            return zbc_fail(err, "out of memory reading the block lists");
        a->h = g;
        a->cap = cap;
    }
    a->h[a->n++] = h;
    return 1;
}

/* Removes the lists above height `from` (all of them for 0). */
static int drop_above(struct zbc_store_txn *t, uint32_t from,
                      struct zbc_err *err)
{
    if (from == 0)
        return zbc_store_txn_clear(t, ZBC_STORE_DB_BLOCK_TXS, err);
    struct above a = {from, NULL, 0, 0};
    /* above every 4-byte key: the walk starts at the largest */
    static const uint8_t top[5] = {0xff, 0xff, 0xff, 0xff, 0xff};
    int ok = zbc_store_txn_scan_back(t, ZBC_STORE_DB_BLOCK_TXS, NULL, 0, top,
                                     sizeof top, above_fn, &a, err);
    for (size_t i = 0; ok && i < a.n; i++) {
        uint8_t k[4];
        zbc_store_height_key(k, a.h[i]);
        ok = zbc_store_txn_del(t, ZBC_STORE_DB_BLOCK_TXS, k, 4, err);
    }
    free(a.h);
    return ok;
}

/* Writes the lists of the stored blocks from+1 .. tip. */
static int write_lists(struct zbc_store_txn *t, uint32_t from, uint32_t tip,
                       uint32_t *blocks, struct zbc_err *err)
{
    for (uint32_t bh = from + 1; bh <= tip; bh++) {
        uint8_t *bytes = NULL;
        size_t len = 0;
        bool found;
        if (!zbc_store_txn_block(t, bh, &bytes, &len, &found, err))
            return 0;
        if (!found)
            return zbc_fail(err, "block %u is missing", bh);
        struct zbc_block blk;
        if (!zbc_block_decode(&blk, bytes, len, err)) {
            free(bytes);
            return zbc_fail_prefix(err, "stored block %u does not decode",
                                   bh);
        }
        uint8_t hash[32];
        uint8_t(*hashes)[32];
        zbc_block_hash(hash, &blk.header);
        int ok = zbc_tx_index_hash_block(&blk, &hashes, err) &&
                 zbc_store_put_block_txs(t, bh, hash,
                                         (const uint8_t(*)[32])hashes,
                                         blk.n_tx, err);
        free(hashes);
        zbc_block_free(&blk);
        free(bytes);
        if (!ok)
            return 0;
        (*blocks)++;
    }
    return 1;
}

/* The lists are right when their marker names the tip (a ledger without
 * blocks: absent or at the genesis) and there is one a block.  Otherwise
 * those above a best-chain marker are written again (an older zbcd added
 * blocks), or all of them (no marker: a ledger made before the lists; a
 * stale one: an older zbcd replaced blocks below it; one missing: a
 * damaged table). */
static int ensure_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct ensure_ctx *c = arg;
    struct zbc_store_meta m;
    enum zbc_store_marker state;
    uint32_t at;
    uint64_t lists;
    if (!zbc_store_txn_marker(t, ZBC_STORE_BLOCK_TXS_TIP, &m, &state, &at,
                              err) ||
        !zbc_store_txn_count(t, ZBC_STORE_DB_BLOCK_TXS, &lists, err) ||
        !legacy_state(t, &c->legacy_ok, err))
        return 0;
    uint32_t tip = m.has_tip ? m.tip_height : 0;
    c->lists_ok = state == ZBC_STORE_MARKER_AT_TIP && lists == tip;
    c->blocks = 0;
    if (c->check_only)
        return 1;
    if (!c->legacy_ok) {
        if (!m.has_genesis)
            return zbc_fail(err, "the ledger has no genesis");
        if (!zbc_store_txn_clear(t, ZBC_STORE_DB_TX_INDEX, err) ||
            !zbc_store_put_checkpoint(t, LEGACY_MARKER, 0, m.genesis_hash,
                                      err))
            return 0;
    }
    if (c->lists_ok)
        return 1;
    uint32_t from = state == ZBC_STORE_MARKER_BEHIND ? at : 0;
    if (!drop_above(t, from, err) || !write_lists(t, from, tip, &c->blocks,
                                                 err) ||
        !zbc_store_txn_count(t, ZBC_STORE_DB_BLOCK_TXS, &lists, err))
        return 0;
    if (lists != tip) { /* one missing below the marker too: all again */
        c->blocks = 0;
        if (!drop_above(t, 0, err) || !write_lists(t, 0, tip, &c->blocks, err))
            return 0;
    }
    return 1;
}

int zbc_tx_index_ensure(struct zbc_store *s, bool *built, uint32_t *blocks,
                        bool *emptied, struct zbc_err *err)
{
    struct ensure_ctx c = {.check_only = true};
    *built = false;
    *blocks = 0;
    *emptied = false;
    if (!zbc_store_read(s, ensure_fn, &c, err))
        return 0;
    if (c.lists_ok && c.legacy_ok)
        return 1;
    bool build = !c.lists_ok, empty = !c.legacy_ok;
    c.check_only = false;
    if (!zbc_store_write(s, ensure_fn, &c, err))
        return zbc_fail_prefix(err, "cannot build the transaction lists");
    *built = build;
    *blocks = c.blocks;
    *emptied = empty;
    return 1;
}
