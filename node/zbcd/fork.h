/* Blocks off the best chain and switching to them (docs/p2p.md §7): the
 * side pool (validated side-branch blocks and budgeted orphans, in memory),
 * the fork choice over a side branch, and reorgs through undo records.
 *
 * Part of the chain facade (node/zbcd/chain.h): chain.c receives a block
 * and decides where it goes; this file holds it and reorganises.  The
 * side pool below is plain memory (no ledger, no clock); the zbc_fork_*
 * functions work on the chain's internals (node/zbcd/chain_internal.h).
 * Single-threaded, like the chain. */
#ifndef ZBC_NODE_FORK_H
#define ZBC_NODE_FORK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "consensus/block.h"
#include "consensus/genesis.h"
#include "crypto/err.h"
#include "node/zbcd/chain.h"

/* ---- the side pool ---- */

struct zbc_side_block {
    uint8_t hash[32];
    uint8_t prev[32];
    uint32_t height;
    uint32_t rank;
    uint64_t timestamp_ms;
    bool linked; /* parent known and the block prechecked against it */
    uint8_t *bytes;
    size_t len;
    /* orphans (not linked) only */
    uint8_t peer[32];     /* who sent it (zeros: no peer named) */
    uint64_t received_ms; /* local clock when it arrived */
    uint64_t seq;         /* arrival order */
};

/* What the node's reorgs did since it started (GET /api/v1/node/info
 * "forks", docs/api.md): a branch switch is a reorg that left the node on
 * another tip (a switch back after a refused branch counts too). */
struct zbc_fork_stats {
    uint64_t branch_switches;
    uint64_t blocks_undone;  /* over every switch */
    uint32_t deepest_switch; /* the most blocks one switch undid */
};

struct zbc_side_pool {
    struct zbc_side_block *b; /* ZBC_CHAIN_SIDE_MAX slots */
    size_t n;
    size_t bytes;     /* of all n blocks */
    size_t max_bytes; /* budget for bytes: ZBC_CHAIN_SIDE_BYTES_MAX */
    size_t n_orphans;
    size_t orphan_bytes;
    uint64_t seq;
    struct zbc_orphan_limits lim; /* defaults filled in */
    /* The branch a reorg in progress applies (zbc_fork_reorg_to): never
     * dropped to make room. */
    const uint8_t (*keep)[32];
    size_t n_keep;
    struct zbc_fork_stats stats; /* zbc_fork_reorg_to's */
};

/* lim NULL or zero fields: the ZBC_CHAIN_ORPHAN_* defaults; max_bytes is
 * ZBC_CHAIN_SIDE_BYTES_MAX. */
ZBC_WUR int zbc_side_init(struct zbc_side_pool *p,
                          const struct zbc_orphan_limits *lim,
                          struct zbc_err *err);
void zbc_side_free(struct zbc_side_pool *p);

struct zbc_side_block *zbc_side_find(struct zbc_side_pool *p,
                                     const uint8_t hash[32]);
void zbc_side_remove_at(struct zbc_side_pool *p, size_t i);
void zbc_side_remove(struct zbc_side_pool *p, const uint8_t hash[32]);

/* Holds a validated side-branch block (a copy of bytes).  A pool at
 * ZBC_CHAIN_SIDE_MAX blocks, or that the block would take past max_bytes,
 * first drops orphans (oldest first), then its lowest side blocks, never
 * one of keep.  Fails (nothing held) when that cannot make room. */
ZBC_WUR int zbc_side_add(struct zbc_side_pool *p,
                         const struct zbc_block_header *h,
                         const uint8_t hash[32], const uint8_t *bytes,
                         size_t len, struct zbc_err *err);

/* Holds an orphan from peer (NULL: none named) within the budgets
 * (docs/p2p.md §7): past the peer's count or bytes its own oldest orphans
 * go first; past the global count or bytes, the oldest orphans of the
 * peer holding the most orphan bytes; then the whole pool's limits as in
 * zbc_side_add.  *held: false when the block alone is larger than a byte
 * budget (not stored; success). */
ZBC_WUR int zbc_side_add_orphan(struct zbc_side_pool *p,
                                const struct zbc_block_header *h,
                                const uint8_t hash[32], const uint8_t *bytes,
                                size_t len, const uint8_t *peer,
                                uint64_t now_ms, bool *held,
                                struct zbc_err *err);

/* Takes out the first orphan whose parent is `parent`: its bytes (the
 * caller frees) and sender.  false when there is none. */
bool zbc_side_take_orphan(struct zbc_side_pool *p, const uint8_t parent[32],
                          uint8_t **bytes, size_t *len, uint8_t peer[32]);

/* Drops every side block at or below final_height (it can never be
 * chosen: zbc_reorg_final_height) and every orphan that arrived more than
 * lim.max_age_ms before now_ms. */
void zbc_side_prune(struct zbc_side_pool *p, uint32_t final_height,
                    uint64_t now_ms);

/* Drops `hash` and every side block that descends from it. */
void zbc_side_drop_subtree(struct zbc_side_pool *p, const uint8_t hash[32]);

/* Orphans held for peer (NULL: all of them). */
void zbc_side_orphan_usage(const struct zbc_side_pool *p, const uint8_t *peer,
                           size_t *count, size_t *bytes);

/* ---- orphans: what can be checked without the parent ---- */

/* A block whose parent is unknown, before it is held: version; height >= 2
 * (a height-1 block's parent is the genesis); producer is a validator of
 * the genesis set; timestamp >= genesis_time + height x block_time_ms (the
 * earliest any chain reaches that height); transaction count, size
 * (max_block_bytes) and transactions root, so the body is the one the
 * header commits to; producer signature over the header.  Rank, publish
 * time, VRF proof and seed need the parent's seed and timestamp: they
 * are checked when the parent arrives (zbc_block_precheck).  The caller
 * has already refused a timestamp beyond its clock + 10 s. */
ZBC_WUR int zbc_fork_orphan_check(const struct zbc_genesis *g,
                                  const struct zbc_block *b,
                                  struct zbc_err *err);

/* ---- side branches and reorgs (on the chain's internals) ---- */

struct zbc_chain;

/* The side branch ending at `hash`, oldest block first (malloc'ed hashes),
 * and the best-chain height it forks from. */
ZBC_WUR int zbc_fork_branch(struct zbc_chain *c, const uint8_t hash[32],
                            uint8_t (**out)[32], size_t *n, uint32_t *fork,
                            struct zbc_err *err);

/* Whether the branch (fork + its blocks) is preferred to the best chain;
 * both are weighed from the fork point (consensus/fork_choice.h). */
ZBC_WUR int zbc_fork_preferred(struct zbc_chain *c, const uint8_t (*br)[32],
                               size_t n, uint32_t fork, bool *better,
                               struct zbc_err *err);

/* Undoes the tip block in one write transaction; the block goes to the
 * side pool (so the node can switch back) and *bytes (caller frees). */
ZBC_WUR int zbc_fork_undo_tip(struct zbc_chain *c, uint8_t **bytes,
                              size_t *len, struct zbc_err *err);

/* Switches the best chain to the side branch ending at target: undo to
 * the fork point, then apply the branch, one write transaction per block;
 * transactions of undone blocks go back to the mempool when they still
 * pass.  When a branch block breaks a rule, it and its descendants are
 * dropped (*invalid, may be NULL, set); when the ledger fails (a full
 * disk) the branch is kept.  Either way (may_return) the node then
 * switches back to the chain it left.  Counts go to r->undone and
 * r->applied. */
ZBC_WUR int zbc_fork_reorg_to(struct zbc_chain *c, const uint8_t target[32],
                              uint64_t now_ms, bool may_return,
                              struct zbc_recv_result *r, bool *invalid,
                              struct zbc_err *err);

/* The branch switches since the node started. */
void zbc_fork_stats(const struct zbc_chain *c, struct zbc_fork_stats *out);

#endif
