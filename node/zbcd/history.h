/* The account history index: node-local, not consensus (docs/node.md §3,
 * "acct_history"; docs/api.md §12).  For every block event touching an
 * account (as `a` or `b`: sender, recipient, payer, payee, mover, ...):
 *
 *   key   addr_len u8 || typed address bytes (zbc_addr_write) ||
 *         height u32 BE || event index u32 BE
 *   value block timestamp ms u64 LE
 *
 * so one account's events are one key range in block order and the
 * newest-first page is one cursor walk backwards.  Entries are written in
 * batches (docs/node.md §3 "Index flushes"): a block's wait in a struct
 * zbc_history_buf, which pages read before the database, until a flush
 * writes all of them in key order (one run of pages per account for many
 * blocks, not one per block) and moves meta "history_tip" (height u32 LE
 * || block hash 32) to the tip; the undo of a block flushes first and
 * removes the block's entries in the same write transaction
 * (zbc_history_undo_block).  After a crash the marker is behind the tip
 * and the blocks above it are caught up from their stored events
 * (zbc_history_catch_up); a ledger without a marker (made before the index
 * existed) or whose marker names no best-chain block is re-indexed from
 * its stored events on open (zbc_history_ensure). */
#ifndef ZBC_NODE_HISTORY_H
#define ZBC_NODE_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "consensus/events.h"
#include "crypto/address.h"
#include "crypto/err.h"
#include "node/zbcd/store.h"

#define ZBC_HISTORY_PAGE_MAX 100u
#define ZBC_HISTORY_MARKER "history_tip"

struct zbc_history_buf;

struct zbc_history_buf *zbc_history_buf_new(void);
void zbc_history_buf_free(struct zbc_history_buf *b);
void zbc_history_buf_clear(struct zbc_history_buf *b);
size_t zbc_history_buf_count(const struct zbc_history_buf *b);
/* Which of n buffers (slices) holds account a's entries. */
unsigned zbc_history_slice(const struct zbc_addr *a, unsigned n);
/* Holds the entries of the block at height (its events, timestamp), each
 * account's in its slice of bufs[0..n).  0 only when out of memory. */
ZBC_WUR int zbc_history_bufs_add(struct zbc_history_buf *const *bufs,
                                 unsigned n, uint32_t height,
                                 uint64_t timestamp_ms,
                                 const struct zbc_events *ev,
                                 struct zbc_err *err);
/* Inside a write transaction: puts every entry b holds, in key order.  The
 * caller clears the buffer once the transaction is committed, and moves
 * the marker. */
ZBC_WUR int zbc_history_flush(struct zbc_store_txn *t,
                              const struct zbc_history_buf *b,
                              struct zbc_err *err);
/* Inside a read transaction: fills the (empty) slices with the stored
 * blocks' events from height `from` + 1 to the tip. */
ZBC_WUR int zbc_history_catch_up(struct zbc_store_txn *t,
                                 struct zbc_history_buf *const *bufs,
                                 unsigned n, uint32_t from,
                                 struct zbc_err *err);
/* Inside the undo's write transaction, the buffer flushed: remove the
 * events of block `height` and move the marker to its parent. */
ZBC_WUR int zbc_history_undo_block(struct zbc_store_txn *t, uint32_t height,
                                   const struct zbc_events *ev,
                                   uint32_t parent_height,
                                   const uint8_t parent_hash[32],
                                   struct zbc_err *err);

/* On open: when the marker is stale (zbc_store_txn_marker) or lags more
 * than ZBC_INDEX_CATCHUP_MAX blocks, empties the index and rebuilds it
 * from every stored block's events in one write transaction (*rebuilt
 * true, *blocks = heights indexed); a fresh ledger gets its marker. */
ZBC_WUR int zbc_history_ensure(struct zbc_store *s, bool *rebuilt,
                               uint32_t *blocks, struct zbc_err *err);

struct zbc_history_entry {
    uint32_t height;
    uint32_t index;          /* position in the block's event list */
    uint64_t timestamp_ms;   /* the block's */
    struct zbc_event ev;
};

struct zbc_history_page {
    size_t n;
    bool more;               /* older entries remain */
    uint32_t tip;            /* the tip height the page was read at */
    struct zbc_history_entry e[ZBC_HISTORY_PAGE_MAX];
};

/* Newest first, at most limit (1..ZBC_HISTORY_PAGE_MAX) entries of
 * account a, strictly older than (before_height, before_index) when
 * has_before; all in one read transaction: the entries b holds (a's
 * slice, may be NULL: none), which are those of the blocks above
 * `stored_to`, then the stored ones up to block `stored_to` (the stored
 * entries above it, if any, are the same as held ones). */
ZBC_WUR int zbc_history_page(struct zbc_store *s,
                             const struct zbc_history_buf *b,
                             uint32_t stored_to, const struct zbc_addr *a,
                             bool has_before, uint32_t before_height,
                             uint32_t before_index, size_t limit,
                             struct zbc_history_page *p, struct zbc_err *err);

#endif
