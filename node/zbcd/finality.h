/* The node's finality bookkeeping (docs/protocol-chain.md §8): the view
 * of blocks and votes (consensus/vote.h struct zbc_ffg) fed by the chain's
 * finality hook, the pending buffer for votes ahead of their block, the
 * stored vote sets and "final"/"justified" checkpoints (node/zbcd/store.h),
 * and, for a validator, its vote when a block becomes its tip — the
 * voter's last target height and lock persisted in an fsync'ed file before
 * the vote leaves the node, so a restart never double-votes.
 *
 * Single-threaded: every call comes from the daemon's event loop. */
#ifndef ZBC_NODE_FINALITY_H
#define ZBC_NODE_FINALITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "consensus/vote.h"
#include "crypto/err.h"
#include "node/zbcd/chain.h"
#include "node/zbcd/datadir.h"

/* File in the data directory holding the voter state: version u8 = 1 ||
 * last target height u32 LE || lock height u32 LE || lock hash 32. */
#define ZBC_FINALITY_VOTER_FILE "finality-voter"
#define ZBC_FINALITY_VOTER_LEN 41

struct zbc_finality;

struct zbc_finality_config {
    struct zbc_chain *chain;             /* borrowed; outlives finality */
    const struct zbc_node_key *key;      /* NULL: never votes */
    const char *datadir;                 /* for the voter file */
    uint64_t (*now_ms)(void);            /* NULL: zbc_wall_clock_ms */
};

/* Rebuilds the view from the stored "final" block up (best-chain blocks
 * and their stored vote sets), loads the voter file (a validator's key
 * only) and attaches to the chain's finality hook.  Refuses a voter file
 * that does not decode: voting from a forgotten lock could sign a
 * slashable pair. */
ZBC_WUR int zbc_finality_open(struct zbc_finality **out,
                              const struct zbc_finality_config *cfg,
                              struct zbc_err *err);
void zbc_finality_close(struct zbc_finality *f);

/* Where this node's own votes and the votes it relays go (P2P). */
typedef void (*zbc_finality_gossip_fn)(void *arg,
                                       const uint8_t vote[ZBC_VOTE_LEN]);
void zbc_finality_set_gossip(struct zbc_finality *f, zbc_finality_gossip_fn fn,
                             void *arg);

enum zbc_vote_rx {
    ZBC_VOTE_RX_NEW = 0,   /* kept (view or pending buffer): relay it */
    ZBC_VOTE_RX_KNOWN,     /* already held */
    ZBC_VOTE_RX_IGNORED,   /* valid but outside the window kept */
    ZBC_VOTE_RX_BAD,       /* malformed or invalid: the sender misbehaved */
};

/* Takes one vote from a peer.  err says why for IGNORED and BAD. */
enum zbc_vote_rx zbc_finality_receive(struct zbc_finality *f,
                                      const uint8_t *bytes, size_t len,
                                      struct zbc_err *err);

/* Takes the vote set (docs/protocol-chain.md §8.3) a sync answer carries
 * with a block: BAD when it does not decode and verify, NEW when one of
 * its votes was new. */
enum zbc_vote_rx zbc_finality_receive_set(struct zbc_finality *f,
                                          const uint8_t *bytes, size_t len,
                                          struct zbc_err *err);
/* The stored vote set of the best-chain block at height (malloc'ed; NULL
 * and 0 when there is none), for sync answers. */
void zbc_finality_stored_set(struct zbc_finality *f, uint32_t height,
                             uint8_t **bytes, size_t *len);
/* Calls fn with every vote of the blocks at most ZBC_VOTE_PENDING_AHEAD
 * (64) below the tip, for a peer that just connected: those the view
 * keeps, and below the view's root (the final block) the stored vote sets
 * of the best chain, which a peer that already holds those blocks gets
 * from no sync answer (older ones travel with the blocks in sync
 * answers). */
void zbc_finality_each_vote(const struct zbc_finality *f,
                            zbc_finality_gossip_fn fn, void *arg);

/* The block at height of the best chain in the store transaction t, and
 * its parent's hash (for zbc-audit too). */
ZBC_WUR int zbc_finality_block_id(struct zbc_store_txn *t, uint32_t height,
                                  struct zbc_checkpoint *cp, uint8_t prev[32],
                                  struct zbc_err *err);

/* Adds the best-chain blocks from..to of t to view (initialised at its
 * root; from > root + 1 leaves a gap: zbc_ffg_add_block_after_gap) and
 * their stored vote sets; a set or vote that does not verify goes to bad
 * and is skipped.  0 when the ledger cannot be read or a block not added
 * (err). */
typedef void (*zbc_finality_bad_fn)(void *arg, uint32_t height,
                                    const char *msg);
ZBC_WUR int zbc_finality_fill(struct zbc_ffg *view, struct zbc_store_txn *t,
                              uint32_t from, uint32_t to,
                              zbc_finality_bad_fn bad, void *arg,
                              struct zbc_err *err);

const struct zbc_checkpoint *zbc_finality_final(const struct zbc_finality *f);
const struct zbc_checkpoint *
zbc_finality_justified(const struct zbc_finality *f);

#endif
