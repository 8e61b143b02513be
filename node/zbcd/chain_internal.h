/* The chain facade's insides, shared by its two files only: chain.c
 * (open, submit, produce, apply, receive, queries) and fork.c (side pool,
 * side branches, reorgs), and by white-box tests.  Other modules use
 * node/zbcd/chain.h. */
#ifndef ZBC_NODE_CHAIN_INTERNAL_H
#define ZBC_NODE_CHAIN_INTERNAL_H

#include "consensus/apply.h"
#include "consensus/mempool.h"
#include "consensus/state.h"
#include "node/zbcd/chain.h"
#include "node/zbcd/app_index.h"
#include "node/zbcd/fork.h"
#include "node/zbcd/history.h"
#include "node/zbcd/sig_cache.h"
#include "node/zbcd/tx_index.h"
#include "node/zbcd/verify_pool.h"

struct zbc_chain {
    struct zbc_store *store;
    const struct zbc_genesis *g;
    bool has_key;
    struct zbc_node_key key;
    struct zbc_mempool *mp;
    /* signature work: blocks' transactions checked on every core, and
     * those verified once (mempool, side blocks) not verified again */
    struct zbc_verify_pool *pool;
    struct zbc_lthash_cache *lthash; /* elements of rewritten keys */
    struct zbc_lthash_accel accel;   /* that cache and the pool's threads,
                                      * for every state the chain opens */
    struct zbc_sig_cache *sigs;
    struct zbc_tx_known known;
    struct zbc_parent tip;
    uint8_t tip_state_root[32];
    /* blocks off the best chain (node/zbcd/fork.h) */
    struct zbc_side_pool side;
    struct zbc_chain_listener listener;
    bool has_listener;
    uint32_t peers;
    struct zbc_net_status net; /* zbc_chain_set_net_status */
    /* finality (node/zbcd/finality.h) */
    struct zbc_chain_finality_hook fin;
    void (*tip_fn)(void *arg); /* zbc_chain_set_tip_hook */
    void *tip_arg;
    uint32_t final_height;
    struct zbc_checkpoint justified;
    /* the block build's budget (chain.h ZBC_CHAIN_BUDGET_DIV) */
    uint32_t budget_ms;
    double build_us_per_tx; /* measured, smoothed */
    double loop_share;      /* of the budget, for taking transactions in */
    uint32_t own_builds;    /* blocks measured in note_build_time */
    /* the sync batch (zbc_chain_batch_begin): open until its owner ends
     * it or hears at its resume that it was lost; batch_gone: lost while
     * paused and already settled (the tip back at the ledger's), with
     * the failure in batch_gone_err */
    bool batch_open, batch_gone;
    struct zbc_err batch_gone_err;
    /* the node-local indexes' entries not yet written (docs/node.md §3
     * "Index flushes"): history in ix_n slices by key,
     * slice s holding those of the blocks above ix_floor[s] (written up to
     * it); one slice is written per block (ix_flushed_at: the tip the last one was written at), each
     * every ix_n blocks; ix_lost: a block's entries could not be held, the
     * slices are refilled from the ledger before anything else */
    unsigned ix_n;
    struct zbc_history_buf **ix_hist;
    uint32_t *ix_floor;
    /* the app list index is not sliced (an app's keys are spread over its
     * players): its buffer holds the apps changed in the blocks above
     * ix_app_floor; every ix_n blocks they are frozen into ix_cycle and
     * written a part a block (a filter mask's keys), the floor moving to
     * the cycle's tip with its last part */
    struct zbc_app_index_buf *ix_apps[1];
    struct zbc_app_index_cycle *ix_cycle;
    uint32_t ix_app_floor;
    uint32_t ix_app_early; /* the next apps write comes this many early */
    uint32_t ix_flushed_at;
    bool ix_lost;
};

/* Inside a write transaction at the tip: writes the held index entries and
 * moves the index markers to the tip.  zbc_chain_index_flushed empties
 * the buffers once that transaction is committed. */
ZBC_WUR int zbc_chain_index_flush_txn(struct zbc_chain *c,
                                      struct zbc_store_txn *t,
                                      struct zbc_err *err);
void zbc_chain_index_flushed(struct zbc_chain *c);
/* Before a read of the indexes: the buffers complete again (refilled from
 * the ledger when a block's entries could not be held). */
ZBC_WUR int zbc_chain_index_ready(struct zbc_chain *c, struct zbc_err *err);

/* fn runs with the state over one store transaction (read-only, or one
 * write transaction that runs again from the start when the map grows,
 * node/zbcd/store.h). */
typedef int (*zbc_chain_state_fn)(struct zbc_chain *c, struct zbc_state *st,
                                  struct zbc_store_txn *t, void *arg,
                                  struct zbc_err *err);
ZBC_WUR int zbc_chain_state_read(struct zbc_chain *c, zbc_chain_state_fn fn,
                                 void *arg, struct zbc_err *err);
ZBC_WUR int zbc_chain_state_write(struct zbc_chain *c, zbc_chain_state_fn fn,
                                  void *arg, struct zbc_err *err);

/* Whether hash is a best-chain block (*found) and at which height (the
 * genesis hash is height 0).  0 only when the ledger cannot be read. */
ZBC_WUR int zbc_chain_main_height_of(struct zbc_chain *c,
                                     const uint8_t hash[32], uint32_t *height,
                                     bool *found, struct zbc_err *err);
/* Header of the best-chain block at height >= 1. */
ZBC_WUR int zbc_chain_main_header(struct zbc_chain *c, uint32_t height,
                                  struct zbc_block_header *h,
                                  struct zbc_err *err);
/* The best-chain block at height as a parent (height 0: the genesis). */
ZBC_WUR int zbc_chain_main_parent(struct zbc_chain *c, uint32_t height,
                                  struct zbc_parent *p, struct zbc_err *err);

/* Validates b on top of the tip and commits it in one write transaction.
 * *invalid (may be NULL) tells a block that broke a rule from a ledger
 * that could not store it (a full disk is not the sender's fault). */
ZBC_WUR int zbc_chain_apply_on_tip(struct zbc_chain *c,
                                   const struct zbc_block *b, uint64_t now_ms,
                                   struct zbc_block_info *info, bool *invalid,
                                   struct zbc_err *err);

/* Offers a transaction of an undone block to the mempool again (quietly:
 * one that no longer passes is left out). */
void zbc_chain_readmit_tx(struct zbc_chain *c, const uint8_t *raw,
                          size_t len, uint64_t now_ms);

#endif
