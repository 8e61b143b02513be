/* The state transition: validate and apply a block, and build one
 * (docs/protocol-chain.md "Apply").
 *
 * Validation is split in two so signature work can run once, early and
 * in parallel later:
 *   1. zbc_block_precheck: everything that needs no state: header against
 *      parent (version, height, prev hash, producer of that rank,
 *      timestamp >= earliest publish time for the rank and <= local clock
 *      + 10 s), VRF proof and seed, producer signature, tx root, size
 *      limit (genesis max_block_bytes), and every transaction's stateless
 *      validity (parse, type, version, signature over the chain's digest,
 *      minimum fee).
 *   2. zbc_block_apply: the stateful part, transaction by transaction in
 *      block order, then the state root must equal the header's.
 * zbc_block_validate_apply does both.
 *
 * Per-transaction rules (zbc_tx_apply, shared with the mempool and the
 * block builder):
 *   - timestamp window (zbc_tx_valid_time): tx.timestamp*1000 <= block
 *     time + 10 s and >= block time - 3600 s;
 *   - hash never included before (TXSEEN);
 *   - sender can pay fee + amount / stake ("insufficient balance");
 *   - SendZBC: amount moves sender -> recipient; the fee goes to the block
 *     producer's account (type 0 ZooBC account whose key is the node key);
 *   - App transactions (24..28, docs/protocol-apps.md): CreateApp's app
 *     rules are part of stateless validity; a valid app transaction that
 *     is not applicable (zbc_apps_check) is a no-op in a block: event
 *     "noop" with the reason, hash marked used, no fee.
 * A transaction failing any other rule makes the whole block invalid.
 * Before the first transaction, zbc_apps_begin_block runs the work
 * scheduled for the block's height (activations, dice moves, bets). */
#ifndef ZBC_APPLY_H
#define ZBC_APPLY_H

#include <stdbool.h>
#include <stdint.h>

#include "consensus/block.h"
#include "consensus/checked_tx.h"
#include "consensus/events.h"
#include "consensus/genesis.h"
#include "consensus/producer.h"
#include "consensus/state.h"
#include "consensus/tx.h"
#include "consensus/tx_body.h"
#include "crypto/err.h"

#define ZBC_CLOCK_SKEW_MS 10000 /* block: <= local clock + 10 s */

/* Result of zbc_block_precheck; borrows the block (and its buffer). */
struct zbc_checked_block {
    const struct zbc_block *block;
    uint8_t hash[32];
    struct zbc_checked_tx *txs; /* heap, block->n_tx entries */
};

/* Stateless validity of one transaction's bytes on this chain: parse
 * (zbc_tx_parse) then zbc_tx_valid (type, version, parties, escrow refused,
 * message size, body, minimum fee, signature).  Fills ct. */
ZBC_WUR int zbc_tx_check_stateless(struct zbc_checked_tx *ct,
                                   const struct zbc_genesis *g,
                                   const uint8_t *raw, size_t len,
                                   struct zbc_err *err);

/* Transactions already known to pass zbc_tx_check_stateless on this
 * chain (a verified-signature cache, node/zbcd/sig_cache.h).  known(ctx,
 * hash, raw, len), with hash = SHA3-256(raw) (the transaction hash, computed
 * once by the caller), may return true only for exactly these bytes having
 * passed zbc_tx_check_stateless with the same genesis before; it may be
 * called from several threads at once.  A performance hint only: every
 * result is the same as without it. */
struct zbc_tx_known {
    bool (*known)(void *ctx, const uint8_t hash[32], const uint8_t *raw,
                  size_t len);
    void *ctx;
};

/* zbc_tx_check_stateless, but for bytes `known` vouches for (known may be
 * NULL) the transaction is only parsed again (no signature verification):
 * stateless validity is a function of the bytes and the genesis alone.
 * Bytes that do not parse fall back to the full check. */
ZBC_WUR int zbc_tx_check_stateless_known(struct zbc_checked_tx *ct,
                                         const struct zbc_genesis *g,
                                         const uint8_t *raw, size_t len,
                                         const struct zbc_tx_known *known,
                                         struct zbc_err *err);
/* The same when the caller has hash = SHA3-256(raw) already (it must be
 * that: on a hint's hit it becomes ct->hash). */
ZBC_WUR int zbc_tx_check_stateless_hashed(struct zbc_checked_tx *ct,
                                          const struct zbc_genesis *g,
                                          const uint8_t *raw, size_t len,
                                          const uint8_t hash[32],
                                          const struct zbc_tx_known *known,
                                          struct zbc_err *err);

/* What the sender must hold for this transaction: fee + amount (SendZBC)
 * or fee + stake (CreateApp) or fee; overflow fails. */
ZBC_WUR int zbc_tx_cost(uint64_t *cost, const struct zbc_checked_tx *ct,
                        struct zbc_err *err);

/* Stateful checks only (no writes): time window against time_ms, hash
 * not seen, sender holds cost + pending (the mempool's sum of that
 * sender's other pending transactions; 0 in a block), and for app
 * transactions applicability in the block after the state's height
 * (zbc_apps_check; the failure text is the no-op reason).  The mempool
 * and the block builder use it; zbc_tx_apply runs the same checks. */
ZBC_WUR int zbc_tx_check_state(struct zbc_state *s, const struct zbc_genesis *g,
                               const struct zbc_checked_tx *ct,
                               uint64_t time_ms, uint64_t pending,
                               struct zbc_err *err);

/* Stateful checks and effects of one transaction in a block at `height`
 * with time `time_ms` produced by `producer`.  On failure nothing of the
 * transaction remains in s (rolled back to its mark) and no event is
 * left in ev. */
ZBC_WUR int zbc_tx_apply(struct zbc_state *s, const struct zbc_genesis *g,
                         const struct zbc_checked_tx *ct, uint32_t index,
                         uint32_t height, uint64_t time_ms,
                         const uint8_t producer[32], struct zbc_events *ev,
                         struct zbc_err *err);

ZBC_WUR int zbc_block_precheck(struct zbc_checked_block *cb,
                               const struct zbc_genesis *g,
                               const struct zbc_parent *parent,
                               const struct zbc_block *b,
                               uint64_t local_now_ms, struct zbc_err *err);
void zbc_checked_block_free(struct zbc_checked_block *cb);
/* zbc_block_precheck with `known` (may be NULL) for the transactions. */
ZBC_WUR int zbc_block_precheck_known(struct zbc_checked_block *cb,
                                     const struct zbc_genesis *g,
                                     const struct zbc_parent *parent,
                                     const struct zbc_block *b,
                                     uint64_t local_now_ms,
                                     const struct zbc_tx_known *known,
                                     struct zbc_err *err);

/* The block's body against its header, no parent needed: transaction
 * count = header tx_count, total transaction bytes <= max_block_bytes,
 * transactions root (the checks zbc_block_precheck makes, same texts). */
ZBC_WUR int zbc_block_check_body(const struct zbc_genesis *g,
                                 const struct zbc_block *b,
                                 struct zbc_err *err);

/* The part of zbc_block_precheck before the transactions' own checks, so
 * these can run in parallel (node/zbcd/verify_pool.h): header against parent,
 * tx count, size, tx root, VRF proof and seed, producer signature; fills
 * cb->block and cb->hash and allocates cb->txs (block->n_tx entries,
 * zeroed but for each one's hash: the transaction's SHA3-256, computed
 * once for the transactions root).  The caller then fills cb->txs[i] with
 * zbc_block_precheck_tx for every i; when some fail, the block
 * fails with the error of the lowest failing i prefixed
 * "block transaction <i>: " (zbc_fail_prefix), exactly as
 * zbc_block_precheck reports it.  Failure here: cb is freed. */
ZBC_WUR int zbc_block_precheck_begin(struct zbc_checked_block *cb,
                                     const struct zbc_genesis *g,
                                     const struct zbc_parent *parent,
                                     const struct zbc_block *b,
                                     uint64_t local_now_ms,
                                     struct zbc_err *err);

/* Transaction i of a block zbc_block_precheck_begin accepted:
 * zbc_tx_check_stateless_hashed of its bytes with the hash the begin left
 * in cb->txs[i] (`known` may be NULL), filling cb->txs[i]. */
ZBC_WUR int zbc_block_precheck_tx(struct zbc_checked_block *cb,
                                  const struct zbc_genesis *g, uint32_t i,
                                  const struct zbc_tx_known *known,
                                  struct zbc_err *err);


/* Applies a prechecked block on the state of its parent.  Success: the
 * state holds the block's effects, the accumulator is persisted, *undo
 * receives the block's undo record and *ev its events (both must be
 * empty on entry; caller frees).  Failure: s is exactly as before, undo
 * and ev stay empty.  With ZBC_DEBUG_CHECKS the money invariant is
 * checked by full scan after the block. */
ZBC_WUR int zbc_block_apply(struct zbc_state *s, const struct zbc_genesis *g,
                            const struct zbc_parent *parent,
                            const struct zbc_checked_block *cb,
                            struct zbc_undo *undo, struct zbc_events *ev,
                            struct zbc_err *err);

/* precheck + apply. */
ZBC_WUR int zbc_block_validate_apply(struct zbc_state *s,
                                     const struct zbc_genesis *g,
                                     const struct zbc_parent *parent,
                                     const struct zbc_block *b,
                                     uint64_t local_now_ms,
                                     struct zbc_undo *undo,
                                     struct zbc_events *ev,
                                     struct zbc_err *err);

/* Producer path: builds, applies and signs the block after `parent` at
 * time_ms with the node key sk (libsodium 64 bytes; the public key is its
 * second half).  Candidates are tried in the given order (the mempool's);
 * each one that is stateless-valid and applicable (zbc_tx_check_state)
 * is included, the rest (no-ops too) are skipped, until max_block_bytes
 * is reached.  Fails when the key is no
 * validator or time_ms is before the key's earliest publish time.
 * Success: *out is the block (tx refs borrow the candidates' bytes; free
 * with zbc_block_free), the state holds its effects as with
 * zbc_block_apply, *undo and *ev are filled.  Failure: s unchanged. */
ZBC_WUR int zbc_block_build(struct zbc_block *out, struct zbc_state *s,
                            const struct zbc_genesis *g,
                            const struct zbc_parent *parent,
                            const struct zbc_tx_ref *cands, size_t n_cands,
                            uint64_t time_ms, const uint8_t sk[64],
                            struct zbc_undo *undo, struct zbc_events *ev,
                            struct zbc_err *err);

/* A producer's own limit on a block it builds: local policy, not a rule
 * (a block of any prefix of the candidates is as valid as another).
 * zbc_block_build_known calls fn before every ZBC_BUILD_STOP_EVERY-th
 * candidate with the transactions included so far and stops taking
 * candidates when it returns true; it calls it once more with done set
 * when it has stopped (for any reason), before the state root, and then
 * ignores what it returns.  fn reads no state: a node's time budget
 * (node/zbcd/chain.c, docs/p2p.md §8 "Bounded blocks"). */
#define ZBC_BUILD_STOP_EVERY 16u
struct zbc_build_stop {
    bool (*fn)(void *arg, uint32_t n_tx, bool done);
    void *arg;
};

/* zbc_block_build with `known` (may be NULL) for the candidates (the
 * mempool's transactions, verified at admission) and a producer's `stop`
 * (may be NULL: none). */
ZBC_WUR int zbc_block_build_known(struct zbc_block *out, struct zbc_state *s,
                                  const struct zbc_genesis *g,
                                  const struct zbc_parent *parent,
                                  const struct zbc_tx_ref *cands,
                                  size_t n_cands, uint64_t time_ms,
                                  const uint8_t sk[64],
                                  const struct zbc_tx_known *known,
                                  const struct zbc_build_stop *stop,
                                  struct zbc_undo *undo, struct zbc_events *ev,
                                  struct zbc_err *err);

#endif
