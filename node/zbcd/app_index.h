/* The app list index: node-local, not consensus (docs/api.md §10 "Index";
 * docs/node.md §3, "app_index").  It is a function of the APPS table at
 * the tip: for every app and every subset of the filters {status, type,
 * seated player} one key
 *
 *   mask u8 (bit 0 status, bit 1 type, bit 2 player) ||
 *   [status u8] || [type u8] || [addr_len u8 || typed address bytes] ||
 *   created height u32 BE || app id u64 BE          -> empty value
 *
 * (one key per distinct seated address for the masks with bit 2), so every
 * filter of GET /api/v1/apps is one key range in (created, id) order and a
 * newest-first page is one backward cursor walk of limit + 1 keys: a page
 * costs O(limit · log n), whatever the number of apps.  Beside them the
 * reverse entry
 *
 *   0xff || app id u64 BE -> created u32 LE || status u8 || type u8 ||
 *                            n u8 || n × (addr_len u8 || address bytes)
 *
 * remembers which keys an app has, so an app is re-indexed from its
 * current record alone.  Changes are written in batches (docs/node.md §3
 * "Index flushes"): the apps a block changes wait in a struct
 * zbc_app_index_buf with what the index would hold for them at the tip
 * (zbc_app_index_bufs_note), which pages read besides the database, until
 * a cycle writes them a part a block (zbc_app_index_freeze, below) and
 * moves meta "app_index_tip" (height u32 LE || block hash 32) to the tip
 * it was frozen at, or a flush writes them all (zbc_app_index_flush).  The undo of a block
 * flushes first and re-indexes the apps it names in the same write
 * transaction (zbc_app_index_block).  After a crash the apps named by the
 * undo records above the marker are caught up (zbc_app_index_catch_up); a
 * ledger without a marker (made before the index existed) or whose marker
 * names no best-chain block is re-indexed from the APPS table on open
 * (zbc_app_index_ensure). */
#ifndef ZBC_NODE_APP_INDEX_H
#define ZBC_NODE_APP_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "consensus/state.h"
#include "crypto/address.h"
#include "crypto/err.h"
#include "node/zbcd/store.h"

/* Inside the write transaction undoing a block (height = the parent's,
 * the buffer flushed before): re-indexes every app u names from its
 * record in st and moves the marker to (height, hash).  A reverse entry
 * that does not decode makes it rebuild the whole index from the APPS
 * table in this transaction (logged as a warning). */
ZBC_WUR int zbc_app_index_block(struct zbc_store_txn *t, struct zbc_state *st,
                                const struct zbc_undo *u, uint32_t height,
                                const uint8_t hash[32], struct zbc_err *err);

#define ZBC_APP_INDEX_MARKER "app_index_tip"

struct zbc_app_index_buf;

struct zbc_app_index_buf *zbc_app_index_buf_new(void);
void zbc_app_index_buf_free(struct zbc_app_index_buf *b);
void zbc_app_index_buf_clear(struct zbc_app_index_buf *b);
size_t zbc_app_index_buf_count(const struct zbc_app_index_buf *b);
/* After a block is applied (st: the state it left): holds the index
 * fields of every app u names, app id in bufs[id % n].  Without `all`, an
 * app not held whose status, type, created height and players the block
 * left as they were is skipped: the index already has it so (most moves
 * change none of them).  `all` when the index may be behind the blocks
 * before this one (catching up).  0 when out of memory or the state
 * cannot be read. */
ZBC_WUR int zbc_app_index_bufs_note(struct zbc_app_index_buf *const *bufs,
                                    unsigned n, struct zbc_state *st,
                                    const struct zbc_undo *u, bool all,
                                    struct zbc_err *err);
/* Inside a write transaction (at the tip): brings the keys of every app b
 * holds in step.  The caller clears the buffer once the transaction is
 * committed, and moves the marker. */
ZBC_WUR int zbc_app_index_flush(struct zbc_store_txn *t,
                                const struct zbc_app_index_buf *b,
                                uint32_t tip, struct zbc_err *err);
/* A cycle: the apps held at one tip, written a part a block (docs/node.md
 * §3 "Index flushes").  zbc_app_index_freeze takes every app b holds, with
 * its held fields, at the tip (height, hash), and starts a new generation
 * of notes in b; the apps stay in b (reads keep answering from it) until
 * zbc_app_index_buf_drop removes those not noted again since.  The parts,
 * each in a write transaction: 0 reads what the index holds for every app
 * (its reverse entry) and deletes the marker; then one part per filter
 * mask writes that mask's keys of every app, all of one mask sharing
 * their pages; the last writes the reverse entries and puts the marker at
 * the cycle's tip.  A crash in between leaves no marker: the next open
 * rebuilds the index from the APPS table (zbc_app_index_ensure). */
#define ZBC_APP_INDEX_PARTS 9u

struct zbc_app_index_cycle;

ZBC_WUR int zbc_app_index_freeze(struct zbc_app_index_buf *b, uint32_t height,
                                 const uint8_t hash[32],
                                 struct zbc_app_index_cycle **out,
                                 struct zbc_err *err);
void zbc_app_index_cycle_free(struct zbc_app_index_cycle *cy);
size_t zbc_app_index_cycle_count(const struct zbc_app_index_cycle *cy);
/* Parts committed, and the tip the cycle was frozen at. */
unsigned zbc_app_index_cycle_done(const struct zbc_app_index_cycle *cy);
uint32_t zbc_app_index_cycle_height(const struct zbc_app_index_cycle *cy);
/* Inside a write transaction at the tip (tip, tip_hash): writes the next
 * `parts` parts (all that are left when fewer).  A reverse entry that
 * does not decode makes it rebuild the whole index from the APPS table
 * in this transaction instead, and put the marker at the tip (*rebuilt:
 * once committed, the caller drops the cycle and every held app).  Once
 * committed, the caller counts the parts with
 * zbc_app_index_cycle_committed. */
ZBC_WUR int zbc_app_index_cycle_write(struct zbc_store_txn *t,
                                      struct zbc_app_index_cycle *cy,
                                      unsigned parts, uint32_t tip,
                                      const uint8_t tip_hash[32],
                                      bool *rebuilt, struct zbc_err *err);
void zbc_app_index_cycle_committed(struct zbc_app_index_cycle *cy,
                                   unsigned parts);
/* Removes from b the apps not noted since generation gen was frozen. */
void zbc_app_index_buf_drop(struct zbc_app_index_buf *b, uint32_t gen);
uint32_t zbc_app_index_cycle_gen(const struct zbc_app_index_cycle *cy);

/* Inside a read transaction (st over it): holds in the (empty) slices the
 * apps named by the undo records of the blocks from `from` + 1 to the
 * tip. */
ZBC_WUR int zbc_app_index_catch_up(struct zbc_store_txn *t,
                                   struct zbc_state *st,
                                   struct zbc_app_index_buf *const *bufs,
                                   unsigned n, uint32_t from,
                                   struct zbc_err *err);

/* On open: when the marker is stale (zbc_store_txn_marker) or lags more
 * than ZBC_INDEX_CATCHUP_MAX blocks, empties the index and rebuilds it
 * from the APPS table in one write transaction (*rebuilt true, *apps =
 * apps indexed). */
ZBC_WUR int zbc_app_index_ensure(struct zbc_store *s, bool *rebuilt,
                                 uint64_t *apps, struct zbc_err *err);

/* A filter of the list: the key range it reads. */
struct zbc_app_index_query {
    bool has_status;
    uint8_t status;
    bool has_type;
    uint8_t type;
    bool has_player;
    struct zbc_addr player;
    bool has_before;          /* exclusive cursor (created, id) */
    uint32_t before_height;
    uint64_t before_id;
};

/* One read transaction's worth: the ids of at most `limit` apps matching q,
 * newest first, into ids[]; *more when another one follows.  The apps
 * held in bufs[0..n_bufs) count in their held form, the database's
 * entries of them not at all. */
ZBC_WUR int zbc_app_index_page(struct zbc_store_txn *t,
                               const struct zbc_app_index_buf *const *bufs,
                               unsigned n_bufs,
                               const struct zbc_app_index_query *q,
                               size_t limit, uint64_t *ids, size_t *n,
                               bool *more, struct zbc_err *err);

#endif
