/* The node's chain facade: the ledger on disk (node/store.h), the
 * consensus state transition (consensus/apply.h) and the in-memory
 * mempool (consensus/mempool.h) behind one object the daemon, the API and
 * (later) P2P call.
 *
 * Open: a fresh ledger is initialised with the genesis state (height 0);
 * an existing one must carry the same genesis hash, its tip block must
 * decode and match the tip record, and the stored state (its incremental
 * root, recomputed by full scan, and its height) must equal the tip
 * header's state root and height.  Any mismatch refuses to open with a
 * message saying what differs: the node does not run on a ledger it
 * cannot vouch for.
 *
 * Every block (produced here or received) is applied and stored in ONE
 * LMDB write transaction: block, hash index, transaction index, state,
 * undo record, events, tip (node/store.h).
 *
 * The mempool lives in memory only: a restarted node starts with an empty
 * pool, as ZooBC nodes do; clients resubmit.
 *
 * Single-threaded: every call comes from the daemon's event loop.  The
 * caller passes the wall clock (now_ms); nothing here reads it. */
#ifndef ZBC_NODE_CHAIN_H
#define ZBC_NODE_CHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "consensus/block.h"
#include "consensus/events.h"
#include "consensus/genesis.h"
#include "consensus/ledger.h"
#include "consensus/producer.h"
#include "crypto/address.h"
#include "crypto/err.h"
#include "node/datadir.h"
#include "node/store.h"

#define ZBC_CHAIN_MEMPOOL_TXS 50000
#define ZBC_CHAIN_MEMPOOL_BYTES ((size_t)64 << 20)

struct zbc_chain;

struct zbc_chain_config {
    const char *ledger_dir;              /* <datadir>/ledger, must exist */
    const struct zbc_genesis *genesis;   /* borrowed; outlives the chain */
    const struct zbc_node_key *key;      /* NULL: this node never produces */
    struct zbc_store_options store;      /* zeros: defaults */
    size_t mempool_max_txs;              /* 0: ZBC_CHAIN_MEMPOOL_TXS */
    size_t mempool_max_bytes;            /* 0: ZBC_CHAIN_MEMPOOL_BYTES */
};

ZBC_WUR int zbc_chain_open(struct zbc_chain **out,
                           const struct zbc_chain_config *cfg,
                           struct zbc_err *err);
void zbc_chain_close(struct zbc_chain *c);

const struct zbc_genesis *zbc_chain_genesis(const struct zbc_chain *c);
/* The node's public key, NULL when it runs without one. */
const uint8_t *zbc_chain_node_key(const struct zbc_chain *c);
/* The tip as the parent of the next block (height 0: the genesis). */
const struct zbc_parent *zbc_chain_tip(const struct zbc_chain *c);
/* The tip block's state root (height 0: the genesis state's root). */
void zbc_chain_tip_state_root(const struct zbc_chain *c, uint8_t root[32]);
size_t zbc_chain_mempool_count(const struct zbc_chain *c);
size_t zbc_chain_mempool_bytes(const struct zbc_chain *c);

/* ---- transactions ---- */

/* Admits raw transaction bytes to the mempool (stateless validity, then
 * the stateful checks against the tip state at now_ms).  hash receives
 * the transaction hash whenever it could be computed; *duplicate is set
 * when the pool already held it (success).  Failures carry the consensus
 * error text ("fee too low", "insufficient balance", "already included",
 * "mempool is full", ...). */
ZBC_WUR int zbc_chain_submit(struct zbc_chain *c, const uint8_t *raw,
                             size_t len, uint64_t now_ms, uint8_t hash[32],
                             bool *duplicate, struct zbc_err *err);

enum zbc_tx_status {
    ZBC_TX_STATUS_NOT_FOUND = 0,
    ZBC_TX_STATUS_MEMPOOL = 1,
    ZBC_TX_STATUS_CONFIRMED = 2,
};

struct zbc_tx_lookup {
    enum zbc_tx_status status;
    uint32_t height;      /* confirmed */
    uint32_t index;       /* confirmed: position in the block */
    size_t position;      /* mempool: index in selection order */
    size_t pool_size;     /* mempool */
    uint8_t *raw;         /* malloc'ed transaction bytes (not NOT_FOUND) */
    size_t len;
};

/* Finds a transaction in the mempool or the chain.  NOT_FOUND is a
 * success; 0 only on a ledger failure. */
ZBC_WUR int zbc_chain_find_tx(struct zbc_chain *c, const uint8_t hash[32],
                              struct zbc_tx_lookup *out, struct zbc_err *err);
void zbc_tx_lookup_free(struct zbc_tx_lookup *l);

/* ---- blocks ---- */

/* Whether this node's key may produce the next block, and when. */
struct zbc_slot {
    bool is_validator;
    uint32_t height;       /* of the next block */
    uint32_t rank;
    uint64_t earliest_ms;  /* earliest publish time for that rank */
};
ZBC_WUR int zbc_chain_next_slot(struct zbc_chain *c, struct zbc_slot *slot,
                                struct zbc_err *err);

/* What a new tip is, for logs and callers. */
struct zbc_block_info {
    uint32_t height;
    uint8_t hash[32];
    uint64_t timestamp_ms;
    uint32_t n_tx;
    uint32_t rank;
};

/* Builds a block from the mempool at time now_ms (the block timestamp),
 * applies and stores it in one write transaction, then drops its
 * transactions from the pool and re-checks the rest.  Empty blocks too.
 * Fails (nothing stored) when this node is not the producer or now_ms is
 * before its earliest publish time. */
ZBC_WUR int zbc_chain_produce(struct zbc_chain *c, uint64_t now_ms,
                              struct zbc_block_info *info,
                              struct zbc_err *err);

/* Validates an encoded block on top of the tip (local clock now_ms) and
 * applies and stores it in one write transaction.  An invalid block
 * leaves nothing behind. */
ZBC_WUR int zbc_chain_apply_block(struct zbc_chain *c, const uint8_t *bytes,
                                  size_t len, uint64_t now_ms,
                                  struct zbc_block_info *info,
                                  struct zbc_err *err);

/* Encoded block at height (malloc'ed): enum zbc_kv_rc.  Height 0 has no
 * block (NOTFOUND). */
int zbc_chain_block(struct zbc_chain *c, uint32_t height, uint8_t **bytes,
                    size_t *len, struct zbc_err *err);
/* Events of the block at height (ev empty on entry): enum zbc_kv_rc. */
int zbc_chain_events(struct zbc_chain *c, uint32_t height,
                     struct zbc_events *ev, struct zbc_err *err);

/* ---- state reads (at the tip) ---- */

/* enum zbc_kv_rc: NOTFOUND when the account has no record. */
int zbc_chain_account(struct zbc_chain *c, const struct zbc_addr *a,
                      struct zbc_account *acc, struct zbc_err *err);

#endif
