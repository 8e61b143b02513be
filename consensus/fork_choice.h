/* Fork choice (SPEC §7; docs/protocol-chain.md "Fork choice"): the better
 * tip has the larger cumulative weight (sum of zbc_block_weight over its
 * blocks since genesis), then the earlier tip timestamp, then the lower
 * tip hash (bytewise).  Pure. */
#ifndef ZBC_FORK_CHOICE_H
#define ZBC_FORK_CHOICE_H

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

#endif
