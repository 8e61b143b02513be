/* The app tables' write-back set: the APPS and APP_HISTORY entries the
 * last blocks wrote, held in memory and written to the ledger a slice a
 * block (docs/node.md §3 "App tables write-back").
 *
 * Both tables are keyed by the app id (LE64 first), which is a
 * transaction id: uniformly random.  Written at once, every app a block
 * touched dirtied a page of its own in each table at every commit.  Here
 * an entry waits until the block whose height is its slice's turn:
 * slice = the key's first byte * ZBC_APPWB_SLICES / 256 (a contiguous
 * key range), written by block h when h % ZBC_APPWB_SLICES is the slice.
 *
 * Unlike TXSEEN's, these values cannot be taken again from the blocks: a
 * block's transaction also writes, in the same LMDB transaction, a redo
 * record (ledger database apps_redo, key height BE32) of every entry it
 * changed, with its value or its removal, and deletes the record 32
 * heights below.  After a crash the records left, replayed in height
 * order, hold again every entry the tables lack (zbc_store_open).  A
 * write transaction that is not one block's (the undo of a reorg, a
 * sync's batch, the genesis, a clean stop) writes every held entry and
 * deletes every record instead: the tables are then whole again.
 *
 * It follows the ledger's transactions as node/zbcd/txseen.h does:
 * changes are pending until the LMDB transaction commits
 * (zbc_appwb_commit), undone when it aborts (zbc_appwb_rollback), and a
 * read transaction sees the committed view only.  Not thread-safe: the
 * store's thread only. */
#ifndef ZBC_NODE_APPWB_H
#define ZBC_NODE_APPWB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "consensus/state.h"
#include "crypto/err.h"

#define ZBC_APPWB_SLICES 32u
#define ZBC_APPWB_KEY_MAX 12u
/* Entries held above which a block writes every slice (memory: ~300
 * bytes an entry; the mixed workload of docs/load.md holds ~120,000). */
#define ZBC_APPWB_HOLD_MAX (1u << 18)

struct zbc_appwb;

struct zbc_appwb *zbc_appwb_new(void);
void zbc_appwb_free(struct zbc_appwb *o);

/* Whether the set holds the table's entries of key length klen. */
bool zbc_appwb_holds(enum zbc_table t, size_t klen);

unsigned zbc_appwb_slice_of(const uint8_t *key);

/* What the set knows of (t, key): *known false means ask the ledger;
 * *present false with *known: removed (whatever the ledger has).  *val
 * points into the set until its next change. */
void zbc_appwb_get(const struct zbc_appwb *o, enum zbc_table t,
                   const uint8_t *key, size_t klen, bool pending, bool *known,
                   bool *present, const uint8_t **val, size_t *vlen);

/* Pending changes (not in the ledger yet). */
ZBC_WUR int zbc_appwb_put(struct zbc_appwb *o, enum zbc_table t,
                          const uint8_t *key, size_t klen, const uint8_t *val,
                          size_t vlen, struct zbc_err *err);
ZBC_WUR int zbc_appwb_del(struct zbc_appwb *o, enum zbc_table t,
                          const uint8_t *key, size_t klen,
                          struct zbc_err *err);

/* One entry's view, for writing or recording. */
struct zbc_appwb_item {
    uint8_t table;
    uint8_t klen;
    uint8_t key[ZBC_APPWB_KEY_MAX];
    bool present;
    const uint8_t *val; /* into the set: valid until commit or rollback */
    size_t vlen;
};

enum zbc_appwb_pick {
    ZBC_APPWB_SLICE,     /* the unwritten entries of one slice */
    ZBC_APPWB_ALL,       /* every unwritten entry */
    ZBC_APPWB_CHANGED,   /* every entry changed since a mark, written or not */
    ZBC_APPWB_TABLE,     /* every entry of one table (the view asked) */
};

/* The pick's entries in (table, key) order in the pending view (TABLE:
 * the view `pending` says), *items malloc'd. */
ZBC_WUR int zbc_appwb_items(const struct zbc_appwb *o,
                            enum zbc_appwb_pick pick, unsigned arg,
                            bool pending, struct zbc_appwb_item **items,
                            size_t *n, struct zbc_err *err);
/* The caller wrote the items to the ledger in the open transaction. */
ZBC_WUR int zbc_appwb_written(struct zbc_appwb *o,
                              const struct zbc_appwb_item *items, size_t n,
                              struct zbc_err *err);

/* Transaction boundaries, as node/zbcd/txseen.h. */
size_t zbc_appwb_mark(const struct zbc_appwb *o);
void zbc_appwb_commit(struct zbc_appwb *o);
void zbc_appwb_rollback(struct zbc_appwb *o, size_t mark);

/* A committed entry not in the ledger (the replay of the redo records
 * after a restart): replaces what the set holds for the key. */
ZBC_WUR int zbc_appwb_refill(struct zbc_appwb *o, enum zbc_table t,
                             const uint8_t *key, size_t klen, bool present,
                             const uint8_t *val, size_t vlen,
                             struct zbc_err *err);

size_t zbc_appwb_count(const struct zbc_appwb *o);

/* A redo record: the items encoded (*out malloc'd), and its replay into
 * the set (a record that does not decode is an error naming what). */
ZBC_WUR int zbc_appwb_record_encode(const struct zbc_appwb_item *items,
                                    size_t n, uint8_t **out, size_t *len,
                                    struct zbc_err *err);
ZBC_WUR int zbc_appwb_record_replay(struct zbc_appwb *o, const uint8_t *rec,
                                    size_t len, struct zbc_err *err);

#endif
