/* Seeds, producer order, publish times, weights and fork choice.
 * Expected hashes computed independently with Python's hashlib. */
#include <string.h>

#include "consensus/fork_choice.h"
#include "consensus/producer.h"
#include "consensus/seed.h"
#include "crypto/ecvrf.h"
#include "crypto/hex.h"
#include "crypto/sig.h"
#include "testlib.h"

static void test_seed0(void)
{
    uint8_t gh[32], s0[32];
    char hex[65];
    memset(gh, 0xab, 32);
    zbc_seed_genesis(s0, gh);
    zbc_hex_encode(hex, s0, 32);
    CHECK_EQ_STR(hex,
        "c15d0a0704d02f889811dcd1a49a6b12c9e3c06a3e7a703e2891f3a8bcaed3aa");
    uint8_t alpha[ZBC_SEED_ALPHA_LEN], prev[32];
    memset(prev, 5, 32);
    zbc_seed_alpha(alpha, prev, 0x0a0b0c0d);
    CHECK_EQ_MEM(alpha, "ZBC-SEED", 8);
    CHECK_EQ_MEM(alpha + 8, prev, 32);
    CHECK_EQ_INT(alpha[40], 0x0d);
    CHECK_EQ_INT(alpha[43], 0x0a);
}

static void test_seed_vrf(void)
{
    uint8_t seed[32], pk[32], sk[64], prev[32];
    struct zbc_err err;
    memset(seed, 0x11, 32);
    memset(prev, 0x42, 32);
    zbc_ed25519_keypair(pk, sk, seed);
    uint8_t proof[80], s1[32], s2[32];
    CHECK(zbc_seed_prove(proof, s1, sk, prev, 7, &err));
    CHECK(zbc_seed_verify(s2, pk, proof, prev, 7, &err));
    CHECK_EQ_MEM(s1, s2, 32);
    /* seed = first 32 bytes of ECVRF output over alpha, checked directly */
    uint8_t alpha[ZBC_SEED_ALPHA_LEN], beta[64];
    zbc_seed_alpha(alpha, prev, 7);
    CHECK(zbc_vrf_verify(beta, pk, proof, alpha, sizeof alpha, &err));
    CHECK_EQ_MEM(s1, beta, 32);
    /* wrong height, wrong previous seed, wrong key, flipped proof */
    CHECK(!zbc_seed_verify(s2, pk, proof, prev, 8, &err));
    CHECK(strstr(err.msg, "VRF") != NULL);
    prev[0] ^= 1;
    CHECK(!zbc_seed_verify(s2, pk, proof, prev, 7, &err));
    prev[0] ^= 1;
    uint8_t pk2[32], sk2[64];
    memset(seed, 0x22, 32);
    zbc_ed25519_keypair(pk2, sk2, seed);
    CHECK(!zbc_seed_verify(s2, pk2, proof, prev, 7, &err));
    proof[40] ^= 1;
    CHECK(!zbc_seed_verify(s2, pk, proof, prev, 7, &err));
}

static void test_order(void)
{
    struct zbc_genesis g;
    struct zbc_err err;
    memset(&g, 0, sizeof g);
    g.n_validators = 3;
    memset(g.validators[0], 0x11, 32);
    memset(g.validators[1], 0x22, 32);
    memset(g.validators[2], 0x33, 32);
    g.block_time_ms = 1000;
    g.smith_delay_ms = 500;
    struct zbc_parent p;
    memset(&p, 0, sizeof p);
    memset(p.seed, 1, 32);
    p.timestamp_ms = 10000;
    uint8_t order[3][32];
    /* by H("ZBC-SMITH" || seed || pk): 0x11, 0x33, 0x22 */
    zbc_producer_order(order, &g, &p);
    CHECK_EQ_INT(order[0][0], 0x11);
    CHECK_EQ_INT(order[1][0], 0x33);
    CHECK_EQ_INT(order[2][0], 0x22);
    /* the parent's producer moves last */
    p.has_producer = true;
    memset(p.producer, 0x11, 32);
    zbc_producer_order(order, &g, &p);
    CHECK_EQ_INT(order[0][0], 0x33);
    CHECK_EQ_INT(order[1][0], 0x22);
    CHECK_EQ_INT(order[2][0], 0x11);
    uint32_t rank;
    CHECK(zbc_producer_rank(&rank, &g, &p, g.validators[1], &err));
    CHECK_EQ_INT(rank, 1);
    uint8_t stranger[32];
    memset(stranger, 0x44, 32);
    CHECK(!zbc_producer_rank(&rank, &g, &p, stranger, &err));
    CHECK(strstr(err.msg, "not a validator") != NULL);
    uint64_t t;
    CHECK(zbc_producer_earliest_ms(&t, &g, &p, 0, &err));
    CHECK_EQ_INT(t, 11000);
    CHECK(zbc_producer_earliest_ms(&t, &g, &p, 2, &err));
    CHECK_EQ_INT(t, 12000);
    p.timestamp_ms = UINT64_MAX - 1500;
    CHECK(zbc_producer_earliest_ms(&t, &g, &p, 1, &err));
    CHECK(t == UINT64_MAX);
    CHECK(!zbc_producer_earliest_ms(&t, &g, &p, 2, &err));
    CHECK(strstr(err.msg, "overflows") != NULL);
    p.timestamp_ms = UINT64_MAX;
    CHECK(!zbc_producer_earliest_ms(&t, &g, &p, 0, &err));
}

static void test_parent(void)
{
    struct zbc_genesis g;
    memset(&g, 0, sizeof g);
    memset(g.hash, 0xab, 32);
    g.genesis_time_ms = 77;
    struct zbc_parent p;
    zbc_parent_genesis(&p, &g);
    CHECK_EQ_INT(p.height, 0);
    CHECK_EQ_INT(p.timestamp_ms, 77);
    CHECK(!p.has_producer);
    CHECK_EQ_MEM(p.hash, g.hash, 32);
    char hex[65];
    zbc_hex_encode(hex, p.seed, 32);
    CHECK_EQ_STR(hex,
        "c15d0a0704d02f889811dcd1a49a6b12c9e3c06a3e7a703e2891f3a8bcaed3aa");
    struct zbc_block_header h;
    memset(&h, 0, sizeof h);
    h.version = 1;
    h.height = 9;
    h.timestamp_ms = 99;
    memset(h.seed, 3, 32);
    memset(h.producer, 4, 32);
    zbc_parent_from_header(&p, &h);
    uint8_t bh[32];
    zbc_block_hash(bh, &h);
    CHECK_EQ_MEM(p.hash, bh, 32);
    CHECK_EQ_INT(p.height, 9);
    CHECK(p.has_producer);
    CHECK_EQ_MEM(p.producer, h.producer, 32);
    CHECK_EQ_MEM(p.seed, h.seed, 32);
}

static void test_weight_and_fork_choice(void)
{
    CHECK_EQ_INT(zbc_block_weight(0), 1000000);
    CHECK_EQ_INT(zbc_block_weight(1), 500000);
    CHECK_EQ_INT(zbc_block_weight(2), 333333);
    CHECK_EQ_INT(zbc_block_weight(UINT32_MAX), 0);
    struct zbc_tip a, b, c;
    struct zbc_err err;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.cum_weight = 2000000;
    b.cum_weight = 1999999;
    CHECK(zbc_fork_choice_cmp(&a, &b) > 0);
    CHECK(zbc_fork_choice_cmp(&b, &a) < 0);
    b.cum_weight = a.cum_weight;
    a.timestamp_ms = 10;
    b.timestamp_ms = 11;
    CHECK(zbc_fork_choice_cmp(&a, &b) > 0); /* earlier wins */
    b.timestamp_ms = 10;
    a.hash[0] = 2;
    b.hash[0] = 1;
    CHECK(zbc_fork_choice_cmp(&a, &b) < 0); /* lower hash wins */
    CHECK(zbc_fork_choice_cmp(&b, &b) == 0);
    /* two rank-1 blocks (2 x 500000) tie one rank-0 block + ... */
    struct zbc_tip g0;
    memset(&g0, 0, sizeof g0);
    uint8_t h[32] = {0};
    CHECK(zbc_tip_extend(&a, &g0, 0, 5, h, &err));
    CHECK(zbc_tip_extend(&b, &g0, 1, 4, h, &err));
    CHECK(zbc_tip_extend(&c, &b, 1, 6, h, &err));
    CHECK_EQ_INT(a.cum_weight, 1000000);
    CHECK_EQ_INT(c.cum_weight, 1000000);
    CHECK(zbc_fork_choice_cmp(&a, &c) > 0); /* equal weight, a is earlier */
    CHECK(zbc_fork_choice_cmp(&a, &b) > 0);
    g0.cum_weight = UINT64_MAX - 10;
    CHECK(!zbc_tip_extend(&a, &g0, 0, 5, h, &err));
    CHECK(strstr(err.msg, "overflows") != NULL);
}

static void test_reorg_limit(void)
{
    CHECK(zbc_reorg_allowed(0, 0));
    CHECK(zbc_reorg_allowed(ZBC_REORG_MAX_DEPTH, 0));
    CHECK(!zbc_reorg_allowed(ZBC_REORG_MAX_DEPTH + 1, 0));
    CHECK(zbc_reorg_allowed(5000, 5000 - ZBC_REORG_MAX_DEPTH));
    CHECK(!zbc_reorg_allowed(5000, 5000 - ZBC_REORG_MAX_DEPTH - 1));
    CHECK(zbc_reorg_allowed(10, 12)); /* a fork above the tip undoes nothing */
    CHECK(zbc_reorg_allowed(UINT32_MAX, UINT32_MAX - ZBC_REORG_MAX_DEPTH));
    CHECK(!zbc_reorg_allowed(UINT32_MAX, 0));
    CHECK_EQ_INT(zbc_reorg_final_height(0), 0);
    CHECK_EQ_INT(zbc_reorg_final_height(ZBC_REORG_MAX_DEPTH), 0);
    CHECK_EQ_INT(zbc_reorg_final_height(ZBC_REORG_MAX_DEPTH + 1), 1);
    /* a block at the final height forks too deep: its parent is below it */
    uint32_t tip = 3000, fin = zbc_reorg_final_height(tip);
    CHECK(!zbc_reorg_allowed(tip, fin - 1));
    CHECK(zbc_reorg_allowed(tip, fin));
}

int main(void)
{
    TEST_RUN(test_seed0);
    TEST_RUN(test_seed_vrf);
    TEST_RUN(test_order);
    TEST_RUN(test_parent);
    TEST_RUN(test_weight_and_fork_choice);
    TEST_RUN(test_reorg_limit);
    return test_summary("consensus_producer");
}
