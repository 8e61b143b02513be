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
    if (!found)
        return zbc_fail(err, "the transaction list of block %u is missing "
                        "from the ledger", height);
    if (len % 32 != 0) {
        free(bytes);
        return zbc_fail(err, "the transaction list of block %u is %zu "
                        "bytes, not a whole number of hashes", height, len);
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

static int ensure_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct ensure_ctx *c = arg;
    struct zbc_store_meta m;
    uint64_t lists;
    if (!zbc_store_txn_meta(t, &m, err) ||
        !zbc_store_txn_count(t, ZBC_STORE_DB_BLOCK_TXS, &lists, err) ||
        !legacy_state(t, &c->legacy_ok, err))
        return 0;
    uint32_t tip = m.has_tip ? m.tip_height : 0;
    /* one record a block, written and removed with it: as many as blocks
     * means a record for every block */
    c->lists_ok = lists == tip;
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
    if (!zbc_store_txn_clear(t, ZBC_STORE_DB_BLOCK_TXS, err))
        return 0;
    for (uint32_t bh = 1; bh <= tip; bh++) {
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
        uint8_t(*hashes)[32];
        int ok = zbc_tx_index_hash_block(&blk, &hashes, err) &&
                 zbc_store_put_block_txs(t, bh, (const uint8_t(*)[32])hashes,
                                         blk.n_tx, err);
        free(hashes);
        zbc_block_free(&blk);
        free(bytes);
        if (!ok)
            return 0;
        c->blocks++;
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
