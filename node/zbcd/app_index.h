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
 * current record alone (zbc_app_index_block): after a block is applied and
 * after it is undone, every app the block's undo record names is brought
 * in step with the state.  meta "app_index_tip" (height u32 LE || block
 * hash 32) names the tip the index is complete for; on open a ledger whose
 * marker is not its tip (made before the index existed) is re-indexed from
 * the APPS table (zbc_app_index_ensure). */
#ifndef ZBC_NODE_APP_INDEX_H
#define ZBC_NODE_APP_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "consensus/state.h"
#include "crypto/address.h"
#include "crypto/err.h"
#include "node/zbcd/store.h"

/* Inside a block's write transaction (apply: height = the block's; undo:
 * height = the parent's, 0 for the genesis): re-indexes every app u names
 * from its record in st and moves the marker to (height, hash).  A reverse
 * entry that does not decode makes it rebuild the whole index from the
 * APPS table in this transaction (logged as a warning). */
ZBC_WUR int zbc_app_index_block(struct zbc_store_txn *t, struct zbc_state *st,
                                const struct zbc_undo *u, uint32_t height,
                                const uint8_t hash[32], struct zbc_err *err);

/* On open: when the marker is not the ledger's tip, empties the index and
 * rebuilds it from the APPS table in one write transaction (*rebuilt true,
 * *apps = apps indexed). */
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
 * newest first, into ids[]; *more when another one follows. */
ZBC_WUR int zbc_app_index_page(struct zbc_store_txn *t,
                               const struct zbc_app_index_query *q,
                               size_t limit, uint64_t *ids, size_t *n,
                               bool *more, struct zbc_err *err);

#endif
