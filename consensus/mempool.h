/* The mempool: valid transactions not yet in a block (pure data
 * structure; the caller passes the tip state and the time).
 *
 * Admission (zbc_mempool_add): stateless validity (zbc_tx_check_stateless:
 * "fee too low", bad signature, ...), then zbc_tx_check_state against the
 * tip state at now_ms with the sender's pending spends already in the pool
 * counted ("insufficient balance"), so two transactions cannot together
 * overspend.  A transaction already in the pool is reported as a
 * duplicate (success, *duplicate = true, as the ZooBC API does); one
 * already in the chain fails ("already included").
 * Order (zbc_mempool_select): fee per byte descending, then arrival.
 * A transaction that stays more than ZBC_MEMPOOL_TTL_MS after its arrival
 * is dropped (docs/protocol-chain.md §6); after each block zbc_mempool_after_block
 * removes the block's transactions and re-checks the rest.
 *
 * Node-local policy, not consensus (docs/api.md "Mempool policy"):
 *   - one AppMove, ResignApp or ClaimAppTimeout per (sender, app) at a
 *     time: a second one is refused while the first is pooled ("a
 *     transaction of yours for app N is already waiting in the mempool
 *     (tx HASH): send the next one after it is in a block"), since it was
 *     checked against a state the first one is about to change;
 *   - every transaction the pool drops after admitting it (expired,
 *     invalid after a block, not re-admitted after a reorg) is remembered
 *     with the reason and the tip height: the last ZBC_MEMPOOL_DROPPED_MAX
 *     drops, each for ZBC_MEMPOOL_DROPPED_KEEP_MS (zbc_mempool_dropped).
 *   - a full pool (count or bytes) admits a newcomer that pays more per
 *     byte than each of the cheapest transactions that must go to make
 *     room: those are dropped ("evicted: the mempool was full ...").  Any
 *     other newcomer is refused before its signature is checked: "mempool
 *     is full (N transactions, B bytes): a fee of at least F for these L
 *     bytes displaces its cheapest" (F: the least fee whose fee per byte
 *     beats theirs, at least the genesis minimum).  The pool never
 *     replaces a transaction by another of the same sender (no
 *     replace-by-fee). */
#ifndef ZBC_MEMPOOL_H
#define ZBC_MEMPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "consensus/block.h"
#include "consensus/checked_tx.h"
#include "consensus/genesis.h"
#include "consensus/state.h"
#include "crypto/err.h"

struct zbc_tx_known; /* consensus/apply.h */

#define ZBC_MEMPOOL_TTL_MS (3600u * 1000u)
#define ZBC_MEMPOOL_DROPPED_MAX 65536u
#define ZBC_MEMPOOL_DROPPED_KEEP_MS (3600u * 1000u)
#define ZBC_MEMPOOL_REASON_MAX 256

struct zbc_mempool;

/* max_txs, max_bytes: capacity (a full pool: see "mempool is full" above).
 * NULL on allocation failure. */
struct zbc_mempool *zbc_mempool_new(size_t max_txs, size_t max_bytes);
void zbc_mempool_free(struct zbc_mempool *mp);

/* Copies raw into the pool when admitted.  hash receives the tx hash
 * (also on duplicate and when the hash could be computed on failure). */
ZBC_WUR int zbc_mempool_add(struct zbc_mempool *mp, struct zbc_state *tip,
                            const struct zbc_genesis *g, const uint8_t *raw,
                            size_t len, uint64_t now_ms, uint8_t hash[32],
                            bool *duplicate, struct zbc_err *err);
/* zbc_mempool_add with the stateless check through `known`
 * (zbc_tx_check_stateless_known, consensus/apply.h; NULL: none): bytes a
 * verified-signature cache vouches for are not verified again. */
ZBC_WUR int zbc_mempool_add_known(struct zbc_mempool *mp,
                                  struct zbc_state *tip,
                                  const struct zbc_genesis *g,
                                  const uint8_t *raw, size_t len,
                                  const struct zbc_tx_known *known,
                                  uint64_t now_ms, uint8_t hash[32],
                                  bool *duplicate, struct zbc_err *err);

/* zbc_mempool_add_known when the caller has the transaction hash,
 * SHA3-256(raw), already (a peer's transaction: the gossip hashed it on
 * arrival): hash must be it; not computed again. */
ZBC_WUR int zbc_mempool_add_hashed(struct zbc_mempool *mp,
                                   struct zbc_state *tip,
                                   const struct zbc_genesis *g,
                                   const uint8_t *raw, size_t len,
                                   const struct zbc_tx_known *known,
                                   uint64_t now_ms, const uint8_t hash[32],
                                   bool *duplicate, struct zbc_err *err);

/* zbc_mempool_add_known for a transaction of a block a reorg undid: it
 * was admitted once (here or by the block's producer), so the bound
 * (zbc_mempool_set_bound) does not refuse it, only the capacity (max_txs,
 * max_bytes), where it displaces by fee per byte as any newcomer.  It
 * arrives now (behind the pooled ones of its fee per byte).  The pool may
 * then hold more than its bound: newcomers are refused until blocks drain
 * it. */
ZBC_WUR int zbc_mempool_readmit(struct zbc_mempool *mp, struct zbc_state *tip,
                                const struct zbc_genesis *g,
                                const uint8_t *raw, size_t len,
                                const struct zbc_tx_known *known,
                                uint64_t now_ms, uint8_t hash[32],
                                bool *duplicate, struct zbc_err *err);

/* Bounds the pool below its capacity: it takes no more than txs
 * transactions (0 or >= max_txs: only the capacity), refusing more as
 * "mempool is full" with the fee that would displace one.  Lowered below
 * the count, nothing is evicted: the pool is full at its size until
 * blocks drain it (docs/protocol.md §4.10). */
void zbc_mempool_set_bound(struct zbc_mempool *mp, size_t txs);

size_t zbc_mempool_count(const struct zbc_mempool *mp);
size_t zbc_mempool_bytes(const struct zbc_mempool *mp);
/* The free capacity: how many more transactions and bytes the pool takes
 * before it is full (0 when full). */
void zbc_mempool_room(const struct zbc_mempool *mp, size_t *txs,
                      size_t *bytes);
/* The pool's cheapest transaction (last in select order): its fee and
 * length; false when the pool is empty.  A full pool refuses a newcomer
 * of L bytes whose fee is not above fee × L / len (and at least the
 * genesis minimum) whatever else must make room (room_for). */
bool zbc_mempool_cheapest(const struct zbc_mempool *mp, int64_t *fee,
                          size_t *len);
/* The fee a newcomer of len bytes needs to get into the pool: 0 when the
 * pool has room for it, else the least fee whose fee per byte beats each
 * transaction that must leave to make room (at least the genesis
 * minimum: the fee the `mempool is full` refusal names), UINT64_MAX when
 * no fee can (larger than the pool, a pool of no transactions). */
uint64_t zbc_mempool_fee_needed(const struct zbc_mempool *mp,
                                const struct zbc_genesis *g, size_t len);

/* Whether hash is pooled; *position = its index in select order (may be
 * NULL); *raw and *len borrow the bytes until the next change (may be NULL). */
bool zbc_mempool_find(const struct zbc_mempool *mp, const uint8_t hash[32],
                      size_t *position, const uint8_t **raw, size_t *len);

/* Up to cap transactions in priority order; refs borrow pool memory valid
 * until the next change of the pool.  Returns the count. */
size_t zbc_mempool_select(const struct zbc_mempool *mp,
                          struct zbc_tx_ref *out, size_t cap);

void zbc_mempool_remove(struct zbc_mempool *mp, const uint8_t hash[32]);
/* Drops transactions that arrived more than the TTL before now_ms. */
void zbc_mempool_expire(struct zbc_mempool *mp, uint64_t now_ms);

/* A transaction the pool admitted and later dropped. */
struct zbc_mempool_drop {
    uint8_t hash[32];
    uint32_t height;  /* the tip when it was dropped (dropped_at) */
    uint64_t at_ms;
    char reason[ZBC_MEMPOOL_REASON_MAX]; /* "expired: ...",
                                          * "invalid after block N: ..." */
};

/* Records a drop the caller made (a transaction of an undone block that
 * is not re-admitted after a reorg).  Oldest records go first beyond
 * ZBC_MEMPOOL_DROPPED_MAX. */
void zbc_mempool_note_drop(struct zbc_mempool *mp, const uint8_t hash[32],
                           uint32_t height, uint64_t now_ms,
                           const char *reason);
/* The latest drop of hash not older than ZBC_MEMPOOL_DROPPED_KEEP_MS at
 * now_ms (false: none; a transaction pooled again is the pool's, not
 * dropped: ask zbc_mempool_find first). */
bool zbc_mempool_dropped(const struct zbc_mempool *mp, const uint8_t hash[32],
                         uint64_t now_ms, struct zbc_mempool_drop *out);

/* After a new tip: removes b's transactions, expires, and re-checks every
 * remaining transaction against the new tip state in priority order
 * (dropping those that no longer pass, a backend read error included:
 * the transaction can be offered again).  Returns 1. */
ZBC_WUR int zbc_mempool_after_block(struct zbc_mempool *mp,
                                    struct zbc_state *tip,
                                    const struct zbc_genesis *g,
                                    const struct zbc_block *b,
                                    uint64_t now_ms, struct zbc_err *err);
/* zbc_mempool_after_block given u, b's undo record (every state write b
 * made; NULL: none known).  When b's parent is the block of the pool's
 * last after_block (the state the pool was checked against; after an
 * undo the next block's parent is not), a transfer whose sender's
 * account u does not name is checked for its time window only: its
 * other state rules cannot have changed (no sender's pooled costs exceed
 * the balance they were checked against).  App transactions and the
 * rest get the full check.  Same result as zbc_mempool_after_block. */
ZBC_WUR int zbc_mempool_after_block_undo(struct zbc_mempool *mp,
                                         struct zbc_state *tip,
                                         const struct zbc_genesis *g,
                                         const struct zbc_block *b,
                                         const struct zbc_undo *u,
                                         uint64_t now_ms,
                                         struct zbc_err *err);
/* zbc_mempool_after_block_undo with b's transactions as a precheck left
 * them (txs: b->n_tx entries, each one's hash its transaction's SHA3-256,
 * as zbc_block_precheck_begin fills it): their hashes are taken, not
 * computed again (a received block's transactions were hashed for its
 * transactions root).  txs NULL: hashed here.  Same result. */
ZBC_WUR int zbc_mempool_after_block_hashed(struct zbc_mempool *mp,
                                           struct zbc_state *tip,
                                           const struct zbc_genesis *g,
                                           const struct zbc_block *b,
                                           const struct zbc_checked_tx *txs,
                                           const struct zbc_undo *u,
                                           uint64_t now_ms,
                                           struct zbc_err *err);
/* The last after_block's work: transactions it checked against the state
 * in full, and those it checked for their time window only. */
void zbc_mempool_last_recheck(const struct zbc_mempool *mp, size_t *checked,
                              size_t *skipped);

#endif
