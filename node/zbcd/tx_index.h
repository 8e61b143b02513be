/* The transaction index: tx hash 32 -> height u32 LE || index u32 LE in the
 * ledger's tx_index database (node-local, not consensus; docs/node.md §3).
 *
 * Written in batches, not with each block (docs/node.md §3 "Index
 * flushes"): the hashes of the blocks since the last flush wait in a
 * struct zbc_tx_index_buf, which lookups consult before the database, and
 * a flush writes them all in key order and moves meta "tx_index_tip"
 * (height u32 LE || block hash 32) to the tip.  One random key per
 * transaction costs a B-tree page per transaction once the table
 * outgrows a block; a flush of many blocks' keys shares the pages.
 *
 * After a crash the marker is behind the tip, and zbc_tx_index_catch_up
 * refills the buffer from the stored blocks above it.  A ledger of a zbcd
 * that wrote the index with each block has no marker: its index is
 * complete, and zbc_tx_index_ensure sets the marker at its tip. */
#ifndef ZBC_NODE_TX_INDEX_H
#define ZBC_NODE_TX_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"
#include "node/zbcd/store.h"

#define ZBC_TX_INDEX_MARKER "tx_index_tip"

struct zbc_tx_index_buf;

struct zbc_tx_index_buf *zbc_tx_index_buf_new(void);
void zbc_tx_index_buf_free(struct zbc_tx_index_buf *b);
void zbc_tx_index_buf_clear(struct zbc_tx_index_buf *b);
size_t zbc_tx_index_buf_count(const struct zbc_tx_index_buf *b);

/* Which of n buffers (slices, docs/node.md §3 "Index flushes") holds
 * hash. */
unsigned zbc_tx_index_slice(const uint8_t hash[32], unsigned n);
/* Holds the n transaction hashes of the block at height (in block order),
 * each in its slice of bufs[0..n_bufs).  0 only when out of memory. */
ZBC_WUR int zbc_tx_index_bufs_add(struct zbc_tx_index_buf *const *bufs,
                                  unsigned n_bufs, uint32_t height,
                                  const uint8_t (*hashes)[32], uint32_t n,
                                  struct zbc_err *err);
/* Whether the buffer holds hash, and where. */
bool zbc_tx_index_buf_find(const struct zbc_tx_index_buf *b,
                           const uint8_t hash[32], uint32_t *height,
                           uint32_t *index);

/* Inside a write transaction: puts every entry b holds, in key order.  The
 * buffer is left as it is: the caller clears it once the transaction is
 * committed, and moves the marker. */
ZBC_WUR int zbc_tx_index_flush(struct zbc_store_txn *t,
                               const struct zbc_tx_index_buf *b,
                               struct zbc_err *err);
/* Inside the write transaction undoing the tip block (the buffer flushed
 * before): deletes the entries of its n transactions and moves the marker
 * to its parent. */
ZBC_WUR int zbc_tx_index_undo_block(struct zbc_store_txn *t,
                                    const uint8_t (*hashes)[32], uint32_t n,
                                    uint32_t parent_height,
                                    const uint8_t parent_hash[32],
                                    struct zbc_err *err);

/* On open: a ledger without a marker (an older zbcd's, whose index is
 * complete) gets one at its tip; one whose marker names no best-chain
 * block, or lags more than ZBC_INDEX_CATCHUP_MAX blocks, is re-indexed
 * from every stored block (*rebuilt, *blocks). */
ZBC_WUR int zbc_tx_index_ensure(struct zbc_store *s, bool *rebuilt,
                                uint32_t *blocks, struct zbc_err *err);
/* The hashes of the stored block at height (*hashes malloc'd, *n of
 * them; NULL and 0 for a block without transactions). */
ZBC_WUR int zbc_tx_index_block_hashes(struct zbc_store_txn *t, uint32_t height,
                                      uint8_t (**hashes)[32], uint32_t *n,
                                      struct zbc_err *err);
/* Inside a read transaction: fills the (empty) slices with the stored
 * blocks from height `from` + 1 to the tip. */
ZBC_WUR int zbc_tx_index_catch_up(struct zbc_store_txn *t,
                                  struct zbc_tx_index_buf *const *bufs,
                                  unsigned n_bufs, uint32_t from,
                                  struct zbc_err *err);

/* The buffer, then the database. */
ZBC_WUR int zbc_tx_index_lookup(struct zbc_store *s,
                                const struct zbc_tx_index_buf *b,
                                const uint8_t hash[32], uint32_t *height,
                                uint32_t *index, bool *found,
                                struct zbc_err *err);

/* The most blocks an index marker may lag for the blocks above it to be
 * caught up from the stored blocks (their undo records must still be
 * there: ZBC_STORE_UNDO_KEEP); beyond it the index is rebuilt. */
#define ZBC_INDEX_CATCHUP_MAX 1024u

/* Whether an index marker (zbc_store_txn_marker: state, at) needs no
 * rebuild on open: at the tip, or on the best chain at most
 * ZBC_INDEX_CATCHUP_MAX blocks below it.  Shared by the three indexes. */
bool zbc_index_marker_usable(const struct zbc_store_meta *m,
                             enum zbc_store_marker state, uint32_t at);

#endif
