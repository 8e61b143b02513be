/* The transaction index (node-local, not consensus; docs/node.md §3):
 * where a transaction of the best chain is.
 *
 * Its height is the consensus state's TXSEEN entry (the height that
 * included it, consensus/ledger.h), which the node holds anyway; its
 * position is found in the ledger's block_txs record of that height: the
 * block's transaction hashes in block order, 32 bytes each, written in the
 * block's own write transaction and removed with it (node/zbcd/store.h).
 * So the index is never behind the tip and needs no catch-up after a
 * crash, and a block writes one record at the end of a table keyed by
 * height instead of one random key per transaction.
 *
 * Until 2026-12-06 a table tx_index (hash -> height || index) held the
 * same, written in batches.  zbc_tx_index_ensure empties it and keeps its
 * marker meta "tx_index_tip" at the genesis, so a zbcd from before then
 * rebuilds it from the blocks when it opens this ledger. */
#ifndef ZBC_NODE_TX_INDEX_H
#define ZBC_NODE_TX_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "consensus/block.h"
#include "consensus/state.h"
#include "crypto/err.h"
#include "node/zbcd/store.h"

/* The marker of the emptied table (see above). */
#define ZBC_TX_INDEX_LEGACY_MARKER "tx_index_tip"

/* The n transaction hashes of a decoded block, in block order (*hashes
 * malloc'd; NULL for a block without transactions). */
ZBC_WUR int zbc_tx_index_hash_block(const struct zbc_block *b,
                                    uint8_t (**hashes)[32],
                                    struct zbc_err *err);

/* The hashes of the stored block at height, from its block_txs record
 * (*hashes malloc'd, *n of them; NULL and 0 for a block without
 * transactions); a missing or malformed record is a failure. */
ZBC_WUR int zbc_tx_index_block_hashes(struct zbc_store_txn *t, uint32_t height,
                                      uint8_t (**hashes)[32], uint32_t *n,
                                      struct zbc_err *err);

/* Inside a transaction whose state st is the ledger's at the tip: whether
 * the best chain holds hash, at which height and position (index NULL:
 * the height only, no list read).  A TXSEEN entry whose block does not
 * list the hash is a failure (a damaged ledger), not "not found". */
ZBC_WUR int zbc_tx_index_find(struct zbc_state *st, struct zbc_store_txn *t,
                              const uint8_t hash[32], uint32_t *height,
                              uint32_t *index, bool *found,
                              struct zbc_err *err);

/* On open: a ledger whose block_txs does not hold one record for every
 * stored block (made by a zbcd before the table) gets them all written
 * from the stored blocks (*built, *blocks); the old tx_index table is
 * emptied and its marker put at the genesis (*emptied).  Needs the
 * genesis written. */
ZBC_WUR int zbc_tx_index_ensure(struct zbc_store *s, bool *built,
                                uint32_t *blocks, bool *emptied,
                                struct zbc_err *err);

/* The most blocks an index marker may lag for the blocks above it to be
 * caught up from the stored blocks (their undo records must still be
 * there: ZBC_STORE_UNDO_KEEP); beyond it the index is rebuilt. */
#define ZBC_INDEX_CATCHUP_MAX 1024u

/* Whether an index marker (zbc_store_txn_marker: state, at) needs no
 * rebuild on open: at the tip, or on the best chain at most
 * ZBC_INDEX_CATCHUP_MAX blocks below it.  Shared by the account history
 * and app list indexes. */
bool zbc_index_marker_usable(const struct zbc_store_meta *m,
                             enum zbc_store_marker state, uint32_t at);

#endif
