/* The TXSEEN write-back set: the replay-protection entries of the last
 * blocks, held in memory and written to the ledger a slice a block
 * (docs/node.md §3 "TXSEEN write-back").
 *
 * TXSEEN (consensus table 2: tx hash -> inclusion height) gains one entry
 * per included transaction, at a uniformly random key: written at once,
 * each entry dirtied a page of its own in every block's commit.  Here an
 * entry waits in memory until the block whose height is its slice's turn:
 * slice = the hash's first byte * ZBC_TXSEEN_SLICES / 256 (a contiguous
 * key range), written by block h when h % ZBC_TXSEEN_SLICES is the slice.
 * So every entry of a block at height h is in the ledger once the chain
 * is at h + ZBC_TXSEEN_SLICES - 1, and after a crash the entries of the
 * last ZBC_TXSEEN_SLICES stored blocks are taken again from those blocks
 * (zbc_chain_open).
 *
 * It follows the ledger's transactions: every change is pending until
 * the LMDB transaction it was made in commits (zbc_txseen_commit) and is
 * undone when it aborts (zbc_txseen_rollback to the mark taken at its
 * start); a read transaction sees the committed entries only, as LMDB
 * shows it the committed pages only.  Not thread-safe: the store's
 * thread only. */
#ifndef ZBC_NODE_TXSEEN_H
#define ZBC_NODE_TXSEEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"

#define ZBC_TXSEEN_SLICES 128u
/* Entries held above which a block writes every slice (memory: a table of
 * ~44-byte slots at half load, ~92 MB at this bound; 128 blocks of 8,000
 * transactions stay below it, and full blocks of the smallest
 * transactions, ~14,000 each, would otherwise hold ~180 MB). */
#define ZBC_TXSEEN_HOLD_MAX (1u << 20)

struct zbc_txseen;

struct zbc_txseen *zbc_txseen_new(void);
void zbc_txseen_free(struct zbc_txseen *o);

/* The slice of a transaction hash. */
unsigned zbc_txseen_slice_of(const uint8_t hash[32]);

/* What the set knows of hash: *known false means ask the ledger.  With
 * `pending` (a write transaction, or a read on a batch's) the view
 * includes the uncommitted changes; else the committed one only.  *present
 * false with *known: deleted in the open transaction (the ledger's entry
 * went with it). */
void zbc_txseen_get(const struct zbc_txseen *o, const uint8_t hash[32],
                    bool pending, bool *known, bool *present,
                    uint32_t *height);

/* Pending changes: an entry added at height (not in the ledger yet), an
 * entry removed (the caller removes the ledger's too). */
ZBC_WUR int zbc_txseen_put(struct zbc_txseen *o, const uint8_t hash[32],
                           uint32_t height, struct zbc_err *err);
/* The caller wrote the entry to the ledger itself (inside a batch): an
 * entry held for hash takes that view, none is added. */
ZBC_WUR int zbc_txseen_put_written(struct zbc_txseen *o,
                                   const uint8_t hash[32], uint32_t height,
                                   struct zbc_err *err);
ZBC_WUR int zbc_txseen_del(struct zbc_txseen *o, const uint8_t hash[32],
                           struct zbc_err *err);

/* The pending entries of slice s not in the ledger yet, in key order, for
 * the caller to write in the open transaction: *out (malloc'd, n * 32
 * bytes of hashes) and their heights (*heights, malloc'd); then
 * zbc_txseen_written marks them as in the ledger. */
ZBC_WUR int zbc_txseen_unwritten(const struct zbc_txseen *o, unsigned s,
                                 bool all_slices, uint8_t (**out)[32],
                                 uint32_t **heights, size_t *n,
                                 struct zbc_err *err);
ZBC_WUR int zbc_txseen_written(struct zbc_txseen *o,
                               const uint8_t (*hashes)[32], size_t n,
                               struct zbc_err *err);

/* Every entry the set knows in a view (`pending` as zbc_txseen_get), in
 * hash order: *out (n * 32 bytes of hashes), its heights and whether it
 * is present (false: deleted in the open transaction), all malloc'd: a
 * scan of the table merges them with the ledger's. */
ZBC_WUR int zbc_txseen_view(const struct zbc_txseen *o, bool pending,
                            uint8_t (**out)[32], uint32_t **heights,
                            bool **present, size_t *n, struct zbc_err *err);

/* Transaction boundaries: the mark to roll back to, the commit of every
 * pending change (entries in the ledger leave the set), the undo of the
 * changes since mark. */
size_t zbc_txseen_mark(const struct zbc_txseen *o);
void zbc_txseen_commit(struct zbc_txseen *o);
void zbc_txseen_rollback(struct zbc_txseen *o, size_t mark);

/* A committed entry not in the ledger (the refill after a restart; a
 * second add of the same hash keeps the first). */
ZBC_WUR int zbc_txseen_refill(struct zbc_txseen *o, const uint8_t hash[32],
                              uint32_t height, struct zbc_err *err);

/* Entries held (committed or pending). */
size_t zbc_txseen_count(const struct zbc_txseen *o);

#endif
