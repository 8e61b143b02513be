#include "consensus/producer.h"

#include <string.h>

#include "consensus/seed.h"
#include "crypto/hash.h"

#define SMITH_TAG "ZBC-SMITH"

void zbc_parent_genesis(struct zbc_parent *p, const struct zbc_genesis *g)
{
    memset(p, 0, sizeof *p);
    p->height = 0;
    memcpy(p->hash, g->hash, 32);
    p->timestamp_ms = g->genesis_time_ms;
    zbc_seed_genesis(p->seed, g->hash);
    p->has_producer = false;
}

void zbc_parent_from_header(struct zbc_parent *p,
                            const struct zbc_block_header *h)
{
    memset(p, 0, sizeof *p);
    p->height = h->height;
    zbc_block_hash(p->hash, h);
    p->timestamp_ms = h->timestamp_ms;
    memcpy(p->seed, h->seed, 32);
    p->has_producer = true;
    memcpy(p->producer, h->producer, 32);
}

struct keyed {
    uint8_t score[32];
    uint8_t pk[32];
};

static int keyed_cmp(const struct keyed *a, const struct keyed *b)
{
    int c = memcmp(a->score, b->score, 32);
    return c != 0 ? c : memcmp(a->pk, b->pk, 32);
}

void zbc_producer_order(uint8_t order[][32], const struct zbc_genesis *g,
                        const struct zbc_parent *parent)
{
    struct keyed k[ZBC_VALIDATORS_MAX];
    uint32_t n = g->n_validators;
    for (uint32_t i = 0; i < n; i++) {
        uint8_t b[9 + 32 + 32];
        memcpy(b, SMITH_TAG, 9);
        memcpy(b + 9, parent->seed, 32);
        memcpy(b + 41, g->validators[i], 32);
        zbc_sha3_256(k[i].score, b, sizeof b);
        memcpy(k[i].pk, g->validators[i], 32);
    }
    /* insertion sort: n <= ZBC_VALIDATORS_MAX */
    for (uint32_t i = 1; i < n; i++) {
        struct keyed t = k[i];
        uint32_t j = i;
        while (j > 0 && keyed_cmp(&k[j - 1], &t) > 0) {
            k[j] = k[j - 1];
            j--;
        }
        k[j] = t;
    }
    uint32_t out = 0;
    int last = -1;
    for (uint32_t i = 0; i < n; i++) {
        if (parent->has_producer && memcmp(k[i].pk, parent->producer, 32) == 0) {
            last = (int)i;
            continue;
        }
        memcpy(order[out++], k[i].pk, 32);
    }
    if (last >= 0)
        memcpy(order[out], k[last].pk, 32);
}

int zbc_producer_rank(uint32_t *rank, const struct zbc_genesis *g,
                      const struct zbc_parent *parent, const uint8_t pk[32],
                      struct zbc_err *err)
{
    uint8_t order[ZBC_VALIDATORS_MAX][32];
    zbc_producer_order(order, g, parent);
    for (uint32_t i = 0; i < g->n_validators; i++)
        if (memcmp(order[i], pk, 32) == 0) {
            *rank = i;
            return 1;
        }
    return zbc_fail(err, "block producer is not a validator of this chain");
}

int zbc_producer_earliest_ms(uint64_t *t, const struct zbc_genesis *g,
                             const struct zbc_parent *parent, uint32_t rank,
                             struct zbc_err *err)
{
    uint64_t delay = (uint64_t)rank * g->smith_delay_ms; /* < 2^64 */
    uint64_t base = parent->timestamp_ms;
    if (base > UINT64_MAX - g->block_time_ms ||
        base + g->block_time_ms > UINT64_MAX - delay)
        return zbc_fail(err, "earliest publish time overflows");
    *t = base + g->block_time_ms + delay;
    return 1;
}

uint64_t zbc_block_weight(uint32_t rank)
{
    return 1000000u / ((uint64_t)rank + 1);
}
