/* Fork choice and the reorg limit (docs/protocol-chain.md §3.3). */
#include "consensus/fork_choice.h"

#include <string.h>

#include "consensus/producer.h"

int zbc_fork_choice_cmp(const struct zbc_tip *a, const struct zbc_tip *b)
{
    if (a->cum_weight != b->cum_weight)
        return a->cum_weight > b->cum_weight ? 1 : -1;
    if (a->timestamp_ms != b->timestamp_ms)
        return a->timestamp_ms < b->timestamp_ms ? 1 : -1;
    int c = memcmp(a->hash, b->hash, 32);
    return c < 0 ? 1 : (c > 0 ? -1 : 0);
}

int zbc_tip_extend(struct zbc_tip *child, const struct zbc_tip *parent,
                   uint32_t rank, uint64_t timestamp_ms,
                   const uint8_t hash[32], struct zbc_err *err)
{
    uint64_t w = zbc_block_weight(rank);
    if (parent->cum_weight > UINT64_MAX - w)
        return zbc_fail(err, "cumulative chain weight overflows");
    child->cum_weight = parent->cum_weight + w;
    child->timestamp_ms = timestamp_ms;
    memcpy(child->hash, hash, 32);
    return 1;
}

bool zbc_reorg_allowed(uint32_t tip_height, uint32_t fork_height)
{
    return fork_height >= tip_height ||
           tip_height - fork_height <= ZBC_REORG_MAX_DEPTH;
}

uint32_t zbc_reorg_final_height(uint32_t tip_height)
{
    return tip_height > ZBC_REORG_MAX_DEPTH ? tip_height - ZBC_REORG_MAX_DEPTH
                                            : 0;
}
