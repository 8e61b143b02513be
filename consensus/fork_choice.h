/* Fork choice and the reorg limit (docs/protocol-chain.md §3.3): the
 * better tip has the larger cumulative weight (sum of zbc_block_weight over
 * its blocks since genesis), then the earlier tip timestamp, then the lower
 * tip hash (bytewise); a branch may replace at most ZBC_REORG_MAX_DEPTH
 * blocks of the best chain.  Pure. */
#ifndef ZBC_FORK_CHOICE_H
#define ZBC_FORK_CHOICE_H

#include <stdbool.h>
#include <stdint.h>

#include "crypto/err.h"

#define ZBC_REORG_MAX_DEPTH 1440

struct zbc_tip {
    uint64_t cum_weight;
    uint64_t timestamp_ms;
    uint8_t hash[32];
};

/* > 0 when a is preferred, < 0 when b is, 0 only when equal. */
int zbc_fork_choice_cmp(const struct zbc_tip *a, const struct zbc_tip *b);

/* child->cum_weight = parent cum_weight + weight(rank), overflow-checked. */
ZBC_WUR int zbc_tip_extend(struct zbc_tip *child, const struct zbc_tip *parent,
                           uint32_t rank, uint64_t timestamp_ms,
                           const uint8_t hash[32], struct zbc_err *err);

/* The reorg limit: whether a branch forking from the best-chain block at
 * fork_height may replace the best chain whose tip is at tip_height, i.e.
 * undo at most ZBC_REORG_MAX_DEPTH blocks.  A fork at or above the tip
 * undoes nothing. */
bool zbc_reorg_allowed(uint32_t tip_height, uint32_t fork_height);

/* The final height under a tip at tip_height: a block at or below it can
 * never be replaced (any branch holding another block there forks deeper
 * than the limit).  0 while the chain is shorter than the limit (only the
 * genesis is final). */
uint32_t zbc_reorg_final_height(uint32_t tip_height);

#endif
