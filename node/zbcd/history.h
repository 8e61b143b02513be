/* The account history index: node-local, not consensus (docs/node.md §3,
 * "acct_history"; docs/api.md §12).  For every block event touching an
 * account (as `a` or `b`: sender, recipient, payer, payee, mover, ...):
 *
 *   key   addr_len u8 || typed address bytes (zbc_addr_write) ||
 *         height u32 BE || event index u32 BE
 *   value block timestamp ms u64 LE
 *
 * so one account's events are one key range in block order and the
 * newest-first page is one cursor walk backwards.  The index is written in
 * the block's own write transaction (zbc_history_add_block) and undone in
 * the undo's (zbc_history_undo_block); meta "history_tip" (height u32 LE
 * || block hash 32) names the tip it is complete for.  A ledger whose
 * marker is not its tip (made before the index existed, or written by
 * such a zbcd since) is re-indexed from its stored events on open
 * (zbc_history_ensure). */
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

/* Inside the block's write transaction: index its events and move the
 * marker to (height, hash). */
ZBC_WUR int zbc_history_add_block(struct zbc_store_txn *t, uint32_t height,
                                  const uint8_t hash[32],
                                  uint64_t timestamp_ms,
                                  const struct zbc_events *ev,
                                  struct zbc_err *err);
/* Inside the undo's write transaction: remove the events of block `height`
 * and move the marker to its parent (parent_height 0: no marker). */
ZBC_WUR int zbc_history_undo_block(struct zbc_store_txn *t, uint32_t height,
                                   const struct zbc_events *ev,
                                   uint32_t parent_height,
                                   const uint8_t parent_hash[32],
                                   struct zbc_err *err);

/* On open: when the marker is not the ledger's tip, empties the index and
 * rebuilds it from every stored block's events in one write transaction
 * (*rebuilt true, *blocks = heights indexed). */
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
 * has_before; all in one read transaction. */
ZBC_WUR int zbc_history_page(struct zbc_store *s, const struct zbc_addr *a,
                             bool has_before, uint32_t before_height,
                             uint32_t before_index, size_t limit,
                             struct zbc_history_page *p, struct zbc_err *err);

#endif
