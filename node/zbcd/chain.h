/* The node's chain facade: the ledger on disk (node/zbcd/store.h), the
 * consensus state transition (consensus/apply.h) and the in-memory
 * mempool (consensus/mempool.h) behind one object the daemon, the API and
 * P2P call.  Blocks off the best chain, side branches and reorgs:
 * node/zbcd/fork.h.
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
 * undo record, events, tip (node/zbcd/store.h).
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
#include "consensus/mempool.h"
#include "consensus/producer.h"
#include "consensus/vote.h"
#include "crypto/address.h"
#include "crypto/err.h"
#include "node/zbcd/datadir.h"
#include "node/zbcd/store.h"

struct zbc_verify_pool;

#define ZBC_CHAIN_MEMPOOL_TXS 50000
/* The block build's budget (docs/p2p.md §8 "Bounded blocks"): a block
 * takes at most as many transactions as this node builds in
 * min(block time, smith delay) / ZBC_CHAIN_BUDGET_DIV, at its measured
 * cost per transaction (first guess ZBC_CHAIN_BUILD_GUESS_US), and never
 * fewer than ZBC_CHAIN_BUILD_MIN_TXS. */
#define ZBC_CHAIN_BUDGET_DIV 4u
#define ZBC_CHAIN_BUDGET_DIV_ALONE 2u /* the genesis' only validator */
#define ZBC_CHAIN_BUILD_GUESS_US 100.0
#define ZBC_CHAIN_BUILD_MIN_TXS 64u
/* ... and stops taking transactions in when this share of the budget
 * has gone (the rest is the state root, the block's records and the
 * commit): the share its own recent blocks of at least half the cap spent
 * on taking them in, smoothed, first guess ZBC_CHAIN_LOOP_SHARE_GUESS,
 * kept within [MIN, MAX]. */
#define ZBC_CHAIN_LOOP_SHARE_GUESS 0.6
#define ZBC_CHAIN_LOOP_SHARE_MIN 0.25
#define ZBC_CHAIN_LOOP_SHARE_MAX 0.95
/* A block's cost per transaction counts at most this many times the
 * current figure: one block the shared cores slowed (or cut by the time
 * budget to a few transactions that carry its fixed costs) raises the
 * figure by at most 0.3 x (this - 1), a cap 23 % lower, where it once cut
 * it fifteenfold (docs/p2p.md §8 "Bounded blocks"). */
#define ZBC_CHAIN_COST_RISE_MAX 2.0
/* Until it has built this many blocks, a node also lowers its figure by
 * the peers' blocks it applies (docs/p2p.md §8 "Bounded blocks"). */
#define ZBC_CHAIN_BUILD_LEARN_OWN 2u
/* The mempool takes at most this many blocks' worth of transactions at the
 * block cap above (and never more than its capacity): past it, admission
 * refuses with the fee that would displace one, before any signature work,
 * so an overloaded node spends its loop on blocks, and what it accepts is
 * included within about this many blocks (docs/p2p.md §8 "Bounded blocks"). */
#define ZBC_CHAIN_POOL_BLOCKS 4u
/* Element vectors of the state root kept for keys written again (2 KiB
 * each, pages touched as it fills: ~17 MiB at most; consensus/state_root.h
 * zbc_lthash_apply). */
#define ZBC_CHAIN_LTHASH_CACHE 8192u
#define ZBC_CHAIN_MEMPOOL_BYTES ((size_t)64 << 20)

struct zbc_chain;

/* Budgets of blocks whose parent is unknown (orphans), docs/p2p.md §7.
 * Zero fields: the defaults below. */
struct zbc_orphan_limits {
    size_t max_count;       /* all peers: ZBC_CHAIN_ORPHANS_MAX */
    size_t max_bytes;       /* all peers: ZBC_CHAIN_ORPHAN_BYTES_MAX */
    size_t peer_max_count;  /* one peer: ZBC_CHAIN_PEER_ORPHANS_MAX */
    size_t peer_max_bytes;  /* one peer: ZBC_CHAIN_PEER_ORPHAN_BYTES_MAX */
    uint64_t max_age_ms;    /* held at most: ZBC_CHAIN_ORPHAN_AGE_MS */
};

#define ZBC_CHAIN_ORPHANS_MAX 256u
#define ZBC_CHAIN_ORPHAN_BYTES_MAX ((size_t)32 << 20)
#define ZBC_CHAIN_PEER_ORPHANS_MAX 32u
#define ZBC_CHAIN_PEER_ORPHAN_BYTES_MAX ((size_t)8 << 20)
#define ZBC_CHAIN_ORPHAN_AGE_MS 120000u

struct zbc_chain_config {
    const char *ledger_dir;              /* <datadir>/ledger, must exist */
    const struct zbc_genesis *genesis;   /* borrowed; outlives the chain */
    const struct zbc_node_key *key;      /* NULL: this node never produces */
    struct zbc_store_options store;      /* zeros: defaults */
    size_t mempool_max_txs;              /* 0: ZBC_CHAIN_MEMPOOL_TXS */
    size_t mempool_max_bytes;            /* 0: ZBC_CHAIN_MEMPOOL_BYTES */
    struct zbc_orphan_limits orphans;    /* zeros: defaults */
    uint32_t block_budget_ms;            /* 0: zbc_chain_block_budget_ms */
    bool verify_state;                   /* open: also rescan every state
                                          * table (zbcd run --verify-state,
                                          * docs/node.md §3) */
    uint32_t index_flush_blocks;         /* 0: ZBC_CHAIN_INDEX_FLUSH_BLOCKS */
    /* the first write of the app list index comes this many blocks early
     * (taken modulo the interval): zbcd draws it at random, so the nodes
     * of one machine (a devnet) do not all write their apps at the same
     * heights (docs/node.md §3 "Index flushes") */
    uint32_t index_app_early;
};

/* The node-local indexes (transactions, account history, app list) hold
 * this many blocks' entries in memory, in as many slices, and write one
 * slice a block (the apps all together every this many blocks;
 * docs/node.md §3 "Index flushes"); the range zbcd run
 * --index-flush-blocks accepts. */
#define ZBC_CHAIN_INDEX_FLUSH_BLOCKS 16u
#define ZBC_CHAIN_INDEX_FLUSH_MAX 256u

/* Writes every held index entry now (a no-op when none are held).
 * zbc_chain_index_maintain writes the slice due, once a block, from the
 * event loop after the block has gone out; the chain writes everything
 * itself on close, before undoing a block, and when three intervals'
 * blocks are held (one inside a sync's batch). */
ZBC_WUR int zbc_chain_index_flush(struct zbc_chain *c, struct zbc_err *err);
void zbc_chain_index_maintain(struct zbc_chain *c);
/* Blocks whose index entries are (at least partly) held, not written. */
uint32_t zbc_chain_index_held(const struct zbc_chain *c);
/* Apps whose list index keys are held, not written: those whose status,
 * type or players a block since the last write changed, or that it
 * created or removed (a move that changes none of them holds nothing). */
size_t zbc_chain_index_apps_held(const struct zbc_chain *c);

struct zbc_history_page;
/* zbc_history_page over the chain's ledger and held entries. */
ZBC_WUR int zbc_chain_history_page(struct zbc_chain *c,
                                   const struct zbc_addr *a, bool has_before,
                                   uint32_t before_height,
                                   uint32_t before_index, size_t limit,
                                   struct zbc_history_page *p,
                                   struct zbc_err *err);

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
/* The build budget in use (ms) and the most transactions the next block
 * may take under it. */
uint32_t zbc_chain_block_budget_ms(const struct zbc_chain *c);
size_t zbc_chain_block_cap(const struct zbc_chain *c);
size_t zbc_chain_mempool_bytes(const struct zbc_chain *c);
/* The mempool's free room (zbc_mempool_room) and its cheapest
 * transaction's fee and length (*has_cheapest false: empty pool), for
 * the API's whole-request refusal (node/zbcd/admit.h). */
void zbc_chain_mempool_gate(const struct zbc_chain *c, size_t *room_txs,
                            size_t *room_bytes, bool *has_cheapest,
                            int64_t *cheapest_fee, size_t *cheapest_len);
/* zbc_mempool_fee_needed of the chain's mempool and genesis. */
uint64_t zbc_chain_mempool_fee_needed(const struct zbc_chain *c, size_t len);
/* Whether the mempool holds hash; *raw and *len (may be NULL) borrow its
 * bytes until the next change of the mempool (P2P answers GetTxs). */
bool zbc_chain_mempool_tx(const struct zbc_chain *c, const uint8_t hash[32],
                          const uint8_t **raw, size_t *len);

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

/* One transaction of a batch: raw/len in (raw NULL: skipped, the caller
 * has its result), ok/duplicate/hash/err out as zbc_chain_submit gives
 * them.  hashed (in): hash holds SHA3-256(raw) already (a peer's
 * transaction, hashed on arrival): not computed again. */
struct zbc_submit {
    const uint8_t *raw;
    size_t len;
    bool hashed;
    int ok;
    bool duplicate;
    uint8_t hash[32];
    struct zbc_err err;
};

/* zbc_chain_submit of every item in order, with the same results (one
 * read snapshot of the tip for all, the gossip of the admitted ones after
 * them); the stateless checks (Ed25519) of the items the mempool has room
 * for run first on the verify pool's threads (docs/api.md §3 "Batches"). */
void zbc_chain_submit_batch(struct zbc_chain *c, struct zbc_submit *items,
                            size_t n, uint64_t now_ms);

/* The stateless checks of a peer's batch (zbc_chain_check_tx_hashed of
 * every item, all hashed): on the verify pool's threads, each verdict in
 * items[i].ok (1 or 0) and .err; the valid ones recorded in the signature
 * cache, so zbc_chain_submit_batch of them verifies nothing again
 * (docs/p2p.md §4 "Take"). */
void zbc_chain_check_batch(struct zbc_chain *c, struct zbc_submit *items,
                           size_t n);

/* The chain's verify pool (its threads are idle between the loop's calls:
 * the API decodes batches on them). */
struct zbc_verify_pool *zbc_chain_verify_pool(struct zbc_chain *c);

/* The stateless check of a transaction (zbc_tx_check_stateless: fee
 * floor, signature, ...) through the node's verified-signature cache: a
 * transaction this node verified before is not verified again, and one
 * that passes is recorded (a later zbc_chain_submit does not verify it). */
ZBC_WUR int zbc_chain_check_tx(struct zbc_chain *c, const uint8_t *raw,
                               size_t len, struct zbc_err *err);
/* zbc_chain_check_tx with hash = SHA3-256(raw) given. */
ZBC_WUR int zbc_chain_check_tx_hashed(struct zbc_chain *c, const uint8_t *raw,
                                      size_t len, const uint8_t hash[32],
                                      struct zbc_err *err);

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
/* zbc_chain_find_tx without the bytes (out->raw NULL, len 0; the rest
 * filled alike): the pool's hash table and the chain's transaction index,
 * no block read (a confirmed transaction's bytes are in its block, which
 * zbc_chain_find_tx reads and decodes whole). */
ZBC_WUR int zbc_chain_tx_status(struct zbc_chain *c, const uint8_t hash[32],
                                struct zbc_tx_lookup *out,
                                struct zbc_err *err);

/* Whether the mempool admitted hash and later dropped it (expired, invalid
 * after a block, not re-admitted after a reorg), within the bounded record
 * of consensus/mempool.h, seen at now_ms: *d gets the reason and the tip
 * height then.  Ask zbc_chain_find_tx first: a dropped transaction may
 * have been pooled again or included since. */
bool zbc_chain_dropped(const struct zbc_chain *c, const uint8_t hash[32],
                       uint64_t now_ms, struct zbc_mempool_drop *d);

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

/* Whether a block is wanted now (zbcd run --automine, docs/node.md §5):
 * the mempool holds a transaction, or app work is scheduled for the start
 * of one of the next two heights (a first-seat draw at J + 2 needs the
 * block J + 1 before it). */
ZBC_WUR int zbc_chain_block_wanted(struct zbc_chain *c, bool *wanted,
                                   struct zbc_err *err);

/* What a new tip is, for logs and callers. */
struct zbc_block_info {
    uint32_t height;
    uint8_t hash[32];
    uint64_t timestamp_ms;
    uint32_t n_tx;
    uint32_t rank;
    /* produced here (zbc_chain_produce; 0 otherwise): the transactions
     * the block could take (zbc_chain_block_cap) and what building,
     * applying and storing it took */
    size_t cap;
    uint32_t build_ms;
    uint32_t commit_ms; /* of build_ms: the LMDB commit (writes, fsyncs) */
    uint32_t loop_ms;   /* of build_ms: taking the transactions in */
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

/* Encoded block at height (malloc'ed).  Height 0 has no block (*found
 * false).  Lookups here return 1 with *found set, or 0 with err filled
 * (docs/architecture.md "Conventions"). */
ZBC_WUR int zbc_chain_block(struct zbc_chain *c, uint32_t height,
                            uint8_t **bytes, size_t *len, bool *found,
                            struct zbc_err *err);
/* Events of the block at height (ev empty on entry). */
ZBC_WUR int zbc_chain_events(struct zbc_chain *c, uint32_t height,
                             struct zbc_events *ev, bool *found,
                             struct zbc_err *err);

/* ---- network: received blocks, fork choice, reorgs ----
 *
 * Blocks that are not on the best chain are held in memory (the side
 * pool, node/zbcd/fork.h, at most ZBC_CHAIN_SIDE_MAX blocks and
 * ZBC_CHAIN_SIDE_BYTES_MAX bytes in all): valid
 * side-branch blocks (prechecked against their parent) and orphans
 * (parent unknown: only what needs no parent is checked,
 * zbc_fork_orphan_check; held within per-peer and global budgets of
 * count and bytes, struct zbc_orphan_limits, and dropped when final or
 * older than max_age_ms).  A restarted node forgets them and learns them
 * again from its peers.
 *
 * When a side branch becomes preferred (consensus/fork_choice.h, compared
 * from the common ancestor: the common prefix adds the same weight to
 * both), the node reorganises: it undoes its blocks down to the common
 * ancestor one block per LMDB write transaction (state from the undo
 * record, block, indexes, events, tip), then applies the branch one block
 * per write transaction.  A crash at any instant leaves a committed,
 * consistent tip.  Transactions of undone blocks go back to the mempool
 * when they still pass its checks.  A fork point more than
 * ZBC_REORG_MAX_DEPTH (1440) blocks below the tip (consensus/fork_choice.h
 * zbc_reorg_allowed), or below the final block (zbc_chain_set_final_height),
 * is refused (ZBC_RECV_TOO_DEEP). */

#define ZBC_CHAIN_SIDE_MAX 4096u
/* Bytes of all side-pool blocks together (side-branch blocks and orphans):
 * 32 blocks of the largest size (2 MiB), where the count alone would let
 * a misbehaving validator make the node hold 4096 of them. */
#define ZBC_CHAIN_SIDE_BYTES_MAX ((size_t)64 << 20)

enum zbc_recv_kind {
    ZBC_RECV_EXTENDED = 0, /* the block is on the best chain now */
    ZBC_RECV_SIDE,         /* valid, held on a lighter side branch */
    ZBC_RECV_DUPLICATE,    /* already known (best chain or side pool) */
    ZBC_RECV_ORPHAN,       /* parent unknown: header checked, held within
                              the orphan budgets; sync */
    ZBC_RECV_FUTURE,       /* timestamp > local clock + 10 s: dropped */
    ZBC_RECV_TOO_DEEP,     /* forks below the finality depth: dropped */
    ZBC_RECV_INVALID,      /* fails validation (err says why) */
    ZBC_RECV_LOCAL_ERROR,  /* ledger failure here, not the sender's fault */
};

struct zbc_recv_result {
    enum zbc_recv_kind kind;
    uint8_t hash[32];
    uint32_t height;
    uint32_t undone;   /* blocks undone by a reorg this call made */
    uint32_t applied;  /* blocks applied to the best chain by this call */
};

/* Takes a block from a peer (any height, any branch) at local clock
 * now_ms.  peer names the sender for the orphan budgets (its node key;
 * NULL: none named, all such blocks share one budget).  Returns 1 for
 * EXTENDED, SIDE, DUPLICATE, ORPHAN, FUTURE and TOO_DEEP; 0 for INVALID
 * and LOCAL_ERROR (err filled).  Orphans whose parent this block is are
 * processed right after it. */
ZBC_WUR int zbc_chain_receive_block(struct zbc_chain *c, const uint8_t *bytes,
                                    size_t len, uint64_t now_ms,
                                    const uint8_t *peer,
                                    struct zbc_recv_result *r,
                                    struct zbc_err *err);

/* Orphans held for peer (NULL: for all peers): count and bytes. */
void zbc_chain_orphans(const struct zbc_chain *c, const uint8_t *peer,
                       size_t *count, size_t *bytes);

/* Whether a block hash is on the best chain or a validated side branch
 * (orphans do not count: their ancestry is unknown).  The genesis hash
 * counts. */
bool zbc_chain_knows_block(struct zbc_chain *c, const uint8_t hash[32]);

/* A sync batch (docs/p2p.md §5): the blocks received between begin and
 * end (zbc_chain_receive_block, each validated and applied as alone, with
 * their vote sets and checkpoints) are committed to disk together at the
 * end, in one LMDB transaction (node/zbcd/store.h zbc_store_batch_begin),
 * instead of one each.  A block refused inside the batch is undone alone;
 * the blocks before it stay.  A crash before the end leaves the ledger at
 * the last commit, consistent.  Between slices the caller pauses the
 * batch and returns to the event loop: reads there see the batch; any
 * other write commits the batch so far first (a produced or gossiped block
 * is durable when logged, as outside a batch).  end (and resume) return 0
 * when a commit failed: the chain's tip is then read back from the ledger
 * (the blocks are fetched again) and the batch is over. */
ZBC_WUR int zbc_chain_batch_begin(struct zbc_chain *c, struct zbc_err *err);
void zbc_chain_batch_pause(struct zbc_chain *c);
ZBC_WUR int zbc_chain_batch_resume(struct zbc_chain *c, struct zbc_err *err);
ZBC_WUR int zbc_chain_batch_end(struct zbc_chain *c, struct zbc_err *err);
bool zbc_chain_in_batch(const struct zbc_chain *c);

/* Block locator of the best chain: hashes at tip, tip-1, ... (10), then
 * doubling steps back, always ending with the genesis hash.  Returns the
 * count (at most cap, cap >= 2), 0 on a ledger failure. */
#define ZBC_CHAIN_LOCATOR_MAX 64u
size_t zbc_chain_locator(struct zbc_chain *c, uint8_t (*out)[32], size_t cap,
                         struct zbc_err *err);

/* Height of the first locator hash on the best chain (0 when only the
 * genesis is common). */
ZBC_WUR int zbc_chain_locate(struct zbc_chain *c, const uint8_t (*loc)[32],
                             size_t n, uint32_t *height, struct zbc_err *err);

/* Called by the chain on news other nodes should hear of: a transaction
 * newly admitted to the mempool (any source) and a block that is newly
 * known and valid (produced here, or received and prechecked: best chain
 * or side branch).  Pointers are valid during the call only. */
struct zbc_chain_listener {
    void (*on_tx)(void *arg, const uint8_t *raw, size_t len,
                  const uint8_t hash[32]);
    void (*on_block)(void *arg, const uint8_t *bytes, size_t len,
                     const uint8_t hash[32], uint64_t timestamp_ms);
    void *arg;
};
/* NULL removes it. */
void zbc_chain_set_listener(struct zbc_chain *c,
                            const struct zbc_chain_listener *l);

/* Finality (node/zbcd/finality.h, docs/protocol-chain.md §8): on_block
 * is called for every block newly known and valid (best chain or side
 * branch, the same blocks as the listener's on_block, before it), on_tip
 * after each zbc_chain_produce and zbc_chain_receive_block call (the tip
 * may have moved).  NULL removes it. */
struct zbc_chain_finality_hook {
    void (*on_block)(void *arg, const struct zbc_block_header *h,
                     const uint8_t hash[32]);
    void (*on_tip)(void *arg);
    /* blocks applied in memory were not stored (a sync batch's commit
     * failed) and the tip went back to the ledger's: whatever the hook
     * derived from them goes back too, without writing (may be NULL) */
    void (*on_lost)(void *arg);
    void *arg;
};
void zbc_chain_set_finality(struct zbc_chain *c,
                            const struct zbc_chain_finality_hook *h);
/* fn(arg) after each zbc_chain_produce and zbc_chain_receive_block call,
 * after the finality hook's on_tip (the tip may have moved): the
 * producer's timer looks at its slot again (node/zbcd/producer_loop.c).
 * fn NULL removes it. */
void zbc_chain_set_tip_hook(struct zbc_chain *c, void (*fn)(void *arg),
                            void *arg);
/* The height of the final block of the best chain: a side branch forking
 * below it is refused (ZBC_RECV_TOO_DEEP), like one forking deeper than
 * ZBC_REORG_MAX_DEPTH.  0 until finality sets it. */
void zbc_chain_set_final_height(struct zbc_chain *c, uint32_t height);
uint32_t zbc_chain_final_height(const struct zbc_chain *c);
/* The highest justified block known: when a received block makes a side
 * branch compete, the branch holding it is preferred, then weight
 * (consensus/vote.h zbc_final_branch_cmp). */
void zbc_chain_set_justified(struct zbc_chain *c,
                             const struct zbc_checkpoint *j);

/* Reorganises onto the side-branch block `hash` (the highest justified
 * block: docs/protocol-chain.md §8.5, a node follows the branch holding
 * it even when it is lighter), within the reorg rule (never past the
 * final block, 1440 deep at most).  A block on the best chain or not held
 * is a success with *switched false.  Never call it from inside a chain
 * hook. */
ZBC_WUR int zbc_chain_switch_to(struct zbc_chain *c, const uint8_t hash[32],
                                uint64_t now_ms, bool *switched,
                                struct zbc_err *err);

/* The P2P layer's view (docs/p2p.md §8), for node/info and the producer.
 * Without a P2P layer: no peers, synced, may produce. */
struct zbc_net_status {
    uint32_t peers;      /* distinct node keys past the proven handshake */
    bool synced;         /* node/info "synced" */
    bool may_produce;    /* the producer's gate: synced, or the bounded wait
                          * of docs/p2p.md §8 is over */
    const char *reason;  /* why not synced (static text), "" when synced */
};
void zbc_chain_set_net_status(struct zbc_chain *c,
                              const struct zbc_net_status *s);
uint32_t zbc_chain_peer_count(const struct zbc_chain *c);
/* Returns the synced flag; fills *out (when not NULL) with the status. */
bool zbc_chain_synced(const struct zbc_chain *c, struct zbc_net_status *out);

/* ---- state reads (at the tip) ---- */

/* *found false when the account has no record. */
ZBC_WUR int zbc_chain_account(struct zbc_chain *c, const struct zbc_addr *a,
                              struct zbc_account *acc, bool *found,
                              struct zbc_err *err);

/* The ledger, for read-only queries other node modules make through
 * zbc_store_read (node/zbcd/chain_apps.c, node/zbcd/sse.c).  Writes belong to the
 * chain alone. */
struct zbc_store *zbc_chain_store(struct zbc_chain *c);

#endif
