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
 * removes the block's transactions and re-checks the rest. */
#ifndef ZBC_MEMPOOL_H
#define ZBC_MEMPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "consensus/block.h"
#include "consensus/genesis.h"
#include "consensus/state.h"
#include "crypto/err.h"

#define ZBC_MEMPOOL_TTL_MS (3600u * 1000u)

struct zbc_mempool;

/* max_txs, max_bytes: capacity (a full pool refuses "mempool is full").
 * NULL on allocation failure. */
struct zbc_mempool *zbc_mempool_new(size_t max_txs, size_t max_bytes);
void zbc_mempool_free(struct zbc_mempool *mp);

/* Copies raw into the pool when admitted.  hash receives the tx hash
 * (also on duplicate and when the hash could be computed on failure). */
ZBC_WUR int zbc_mempool_add(struct zbc_mempool *mp, struct zbc_state *tip,
                            const struct zbc_genesis *g, const uint8_t *raw,
                            size_t len, uint64_t now_ms, uint8_t hash[32],
                            bool *duplicate, struct zbc_err *err);

size_t zbc_mempool_count(const struct zbc_mempool *mp);
size_t zbc_mempool_bytes(const struct zbc_mempool *mp);

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

/* After a new tip: removes b's transactions, expires, and re-checks every
 * remaining transaction against the new tip state in priority order
 * (dropping those that no longer pass, a backend read error included:
 * the transaction can be offered again).  Returns 1. */
ZBC_WUR int zbc_mempool_after_block(struct zbc_mempool *mp,
                                    struct zbc_state *tip,
                                    const struct zbc_genesis *g,
                                    const struct zbc_block *b,
                                    uint64_t now_ms, struct zbc_err *err);

#endif
