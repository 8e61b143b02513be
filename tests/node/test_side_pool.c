/* The side pool's byte budget (node/zbcd/fork.h, docs/p2p.md §7 and §9):
 * blocks off the best chain are held within ZBC_CHAIN_SIDE_MAX blocks and
 * ZBC_CHAIN_SIDE_BYTES_MAX bytes in all.
 *   - past the byte budget the lowest side blocks go, the pool's byte
 *     count stays equal to what it holds and within the budget, and the
 *     pool keeps working;
 *   - orphans go before side-branch blocks (oldest first);
 *   - a block of the branch a reorg is applying (keep) is never dropped;
 *     when only such blocks are left the new block is refused, nothing
 *     changes;
 *   - a block larger than the whole budget is refused. */
#include <stdbool.h>
#include <stdint.h>

#include "node/zbcd/fork.h"
#include "testlib.h"

#define BIG ((size_t)2 << 20) /* the largest block (max_block_bytes) */

static uint8_t *payload; /* BIG bytes, the body of every test block */

static void hash_of(uint8_t out[32], uint32_t height, uint8_t tag)
{
    memset(out, 0, 32);
    out[0] = tag;
    memcpy(out + 1, &height, sizeof height);
}

static struct zbc_block_header header_at(uint32_t height, uint8_t tag)
{
    struct zbc_block_header h;
    memset(&h, 0, sizeof h);
    h.height = height;
    h.rank = height;
    h.timestamp_ms = 1000u * height;
    hash_of(h.prev_hash, height - 1, tag);
    return h;
}

static int add_side(struct zbc_side_pool *p, uint32_t height, uint8_t tag,
                    size_t len, struct zbc_err *err)
{
    struct zbc_block_header h = header_at(height, tag);
    uint8_t hash[32];
    hash_of(hash, height, tag);
    return zbc_side_add(p, &h, hash, payload, len, err);
}

static bool holds(struct zbc_side_pool *p, uint32_t height, uint8_t tag)
{
    uint8_t hash[32];
    hash_of(hash, height, tag);
    return zbc_side_find(p, hash) != NULL;
}

/* The pool's own count against what it holds. */
static size_t counted_bytes(const struct zbc_side_pool *p)
{
    size_t sum = 0;
    for (size_t i = 0; i < p->n; i++)
        sum += p->b[i].len;
    return sum;
}

static void test_lowest_side_blocks_go_past_the_byte_cap(void)
{
    struct zbc_side_pool p;
    struct zbc_err err = {{0}};
    CHECK(zbc_side_init(&p, NULL, &err));
    CHECK_EQ_INT(p.max_bytes, ZBC_CHAIN_SIDE_BYTES_MAX);
    size_t fit = ZBC_CHAIN_SIDE_BYTES_MAX / BIG; /* 32 */
    for (uint32_t i = 0; i < fit + 8; i++) {
        CHECK(add_side(&p, 100 + i, 1, BIG, &err));
        CHECK(p.bytes <= p.max_bytes);
        CHECK_EQ_INT(p.bytes, counted_bytes(&p));
    }
    CHECK_EQ_INT(p.n, fit);
    CHECK_EQ_INT(p.bytes, fit * BIG);
    for (uint32_t i = 0; i < 8; i++)
        CHECK(!holds(&p, 100 + i, 1));
    for (uint32_t i = 8; i < fit + 8; i++)
        CHECK(holds(&p, 100 + i, 1));
    /* still working: a removal frees its bytes, small blocks fit beside */
    uint8_t hash[32];
    hash_of(hash, 120, 1);
    zbc_side_remove(&p, hash);
    CHECK_EQ_INT(p.bytes, (fit - 1) * BIG);
    CHECK(add_side(&p, 500, 2, 1000, &err));
    CHECK(add_side(&p, 501, 2, 1000, &err));
    CHECK(holds(&p, 500, 2) && holds(&p, 501, 2));
    CHECK_EQ_INT(p.bytes, counted_bytes(&p));
    CHECK(p.bytes <= p.max_bytes);
    /* and a big one again pushes out the lowest */
    CHECK(add_side(&p, 502, 2, BIG, &err));
    CHECK(!holds(&p, 108, 1));
    CHECK(p.bytes <= p.max_bytes);
    CHECK_EQ_INT(p.bytes, counted_bytes(&p));
    zbc_side_free(&p);
    CHECK_EQ_INT(p.bytes, 0);
}

static void test_orphans_go_first(void)
{
    struct zbc_side_pool p;
    struct zbc_err err = {{0}};
    CHECK(zbc_side_init(&p, NULL, &err));
    /* 4 peers x 4 orphans x 2 MiB = the 32 MiB orphan budget */
    uint8_t peer[32] = {0};
    for (uint32_t i = 0; i < 16; i++) {
        peer[0] = (uint8_t)(1 + i / 4);
        struct zbc_block_header h = header_at(1000 + i, 9);
        uint8_t hash[32];
        hash_of(hash, 1000 + i, 9);
        bool held = false;
        CHECK(zbc_side_add_orphan(&p, &h, hash, payload, BIG, peer, 5000,
                                  &held, &err));
        CHECK(held);
    }
    CHECK_EQ_INT(p.n_orphans, 16);
    for (uint32_t i = 0; i < 16; i++)
        CHECK(add_side(&p, 10 + i, 1, BIG, &err));
    CHECK_EQ_INT(p.bytes, ZBC_CHAIN_SIDE_BYTES_MAX);
    /* two more side blocks: the two oldest orphans go, no side block */
    CHECK(add_side(&p, 26, 1, BIG, &err));
    CHECK(add_side(&p, 27, 1, BIG, &err));
    CHECK_EQ_INT(p.n_orphans, 14);
    CHECK_EQ_INT(p.orphan_bytes, 14 * BIG);
    CHECK(!holds(&p, 1000, 9) && !holds(&p, 1001, 9));
    CHECK(holds(&p, 1002, 9));
    for (uint32_t i = 0; i < 18; i++)
        CHECK(holds(&p, 10 + i, 1));
    CHECK_EQ_INT(p.bytes, counted_bytes(&p));
    CHECK(p.bytes <= p.max_bytes);
    zbc_side_free(&p);
}

static void test_reorg_branch_is_kept(void)
{
    struct zbc_side_pool p;
    struct zbc_err err = {{0}};
    CHECK(zbc_side_init(&p, NULL, &err));
    size_t fit = ZBC_CHAIN_SIDE_BYTES_MAX / BIG;
    for (uint32_t i = 0; i < fit; i++)
        CHECK(add_side(&p, 200 + i, 3, BIG, &err));
    /* a reorg applies the branch 200..203: the lowest blocks */
    uint8_t br[4][32];
    for (uint32_t i = 0; i < 4; i++)
        hash_of(br[i], 200 + i, 3);
    p.keep = (const uint8_t (*)[32])br;
    p.n_keep = 4;
    for (uint32_t i = 0; i < 4; i++)
        CHECK(add_side(&p, 300 + i, 4, BIG, &err)); /* undone blocks */
    for (uint32_t i = 0; i < 4; i++)
        CHECK(holds(&p, 200 + i, 3));
    for (uint32_t i = 4; i < 8; i++)
        CHECK(!holds(&p, 200 + i, 3));
    CHECK_EQ_INT(p.n, fit);
    CHECK_EQ_INT(p.bytes, counted_bytes(&p));
    zbc_side_free(&p);

    /* every block kept: the new one is refused and nothing changes */
    CHECK(zbc_side_init(&p, NULL, &err));
    p.max_bytes = 4 * BIG;
    for (uint32_t i = 0; i < 4; i++)
        CHECK(add_side(&p, 200 + i, 3, BIG, &err));
    p.keep = (const uint8_t (*)[32])br;
    p.n_keep = 4;
    err.msg[0] = '\0';
    CHECK(!add_side(&p, 400, 5, BIG, &err));
    CHECK(strstr(err.msg, "side pool is full") != NULL);
    CHECK_EQ_INT(p.n, 4);
    CHECK_EQ_INT(p.bytes, 4 * BIG);
    CHECK(!holds(&p, 400, 5));
    /* the reorg over, the pool makes room again */
    p.keep = NULL;
    p.n_keep = 0;
    CHECK(add_side(&p, 400, 5, BIG, &err));
    CHECK(holds(&p, 400, 5) && !holds(&p, 200, 3));
    CHECK_EQ_INT(p.bytes, counted_bytes(&p));
    zbc_side_free(&p);
}

static void test_block_larger_than_the_budget(void)
{
    struct zbc_side_pool p;
    struct zbc_err err = {{0}};
    CHECK(zbc_side_init(&p, NULL, &err));
    p.max_bytes = BIG - 1;
    CHECK(add_side(&p, 7, 1, 1000, &err));
    err.msg[0] = '\0';
    CHECK(!add_side(&p, 8, 1, BIG, &err));
    CHECK(strstr(err.msg, "larger than the side pool") != NULL);
    CHECK(holds(&p, 7, 1) && !holds(&p, 8, 1));
    CHECK_EQ_INT(p.bytes, 1000);
    zbc_side_free(&p);
}

int main(void)
{
    payload = calloc(1, BIG);
    if (payload == NULL)
        return 2;
    TEST_RUN(test_lowest_side_blocks_go_past_the_byte_cap);
    TEST_RUN(test_orphans_go_first);
    TEST_RUN(test_reorg_branch_is_kept);
    TEST_RUN(test_block_larger_than_the_budget);
    free(payload);
    return test_summary("node_side_pool");
}
