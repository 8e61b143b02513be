/* Producer order, publish times and block weight
 * (docs/protocol-chain.md §3.2-§3.3).
 *
 * For height h the validators are sorted by H("ZBC-SMITH" || seed(h-1) ||
 * pubkey) ascending (ties impossible in practice; broken by pubkey); the
 * producer of h-1 (if any: none at height 1) is then moved last.  The
 * validator at position k has rank k and may publish at
 *   parent.timestamp + block_time + k * smith_delay
 * or later. */
#ifndef ZBC_PRODUCER_H
#define ZBC_PRODUCER_H

#include <stdbool.h>
#include <stdint.h>

#include "consensus/block.h"
#include "consensus/genesis.h"
#include "crypto/err.h"

/* What a new block needs to know about its parent.  For height 1 the
 * parent is the genesis itself (zbc_parent_genesis). */
struct zbc_parent {
    uint32_t height;         /* 0 for genesis */
    uint8_t hash[32];        /* block hash; genesis_hash for genesis */
    uint64_t timestamp_ms;   /* genesis_time for genesis */
    uint8_t seed[32];        /* seed(height) */
    bool has_producer;       /* false for genesis */
    uint8_t producer[32];
};

void zbc_parent_genesis(struct zbc_parent *p, const struct zbc_genesis *g);
void zbc_parent_from_header(struct zbc_parent *p,
                            const struct zbc_block_header *h);

/* Fills order[0 .. g->n_validators) for the block after `parent`. */
void zbc_producer_order(uint8_t order[][32], const struct zbc_genesis *g,
                        const struct zbc_parent *parent);
/* Rank of pk for the block after parent; fails when pk is no validator. */
ZBC_WUR int zbc_producer_rank(uint32_t *rank, const struct zbc_genesis *g,
                              const struct zbc_parent *parent,
                              const uint8_t pk[32], struct zbc_err *err);
/* parent.timestamp + block_time + rank * smith_delay; fails on overflow. */
ZBC_WUR int zbc_producer_earliest_ms(uint64_t *t, const struct zbc_genesis *g,
                                     const struct zbc_parent *parent,
                                     uint32_t rank, struct zbc_err *err);

/* weight = 1,000,000 / (rank + 1) */
uint64_t zbc_block_weight(uint32_t rank);

#endif
