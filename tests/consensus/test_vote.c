/* Final confirmations (consensus/vote.h, docs/protocol-chain.md §8): vote
 * bytes and digest pinned against values computed independently (Python
 * hashlib SHA3-256 and the OpenSSL Ed25519 of the `cryptography` package),
 * sign/verify, wrong chain, non-validators, every tampered byte, the
 * threshold for 1..7 and 64 validators, distinct-validator tallies, vote
 * set bytes, finality of ancestors and the reorg rule. */
#include <stdlib.h>
#include <string.h>

#include "consensus/fork_choice.h"
#include "consensus/vote.h"
#include "crypto/hex.h"
#include "crypto/sig.h"
#include "testlib.h"

/* A chain with n validators whose node-key seeds are 0x01.., 0x02.., ...;
 * sks[i] is the secret key of g->validators[i] (sorted, as a genesis
 * holds them).  Only the fields votes read are set. */
struct chain {
    struct zbc_genesis g;
    uint8_t sks[ZBC_VALIDATORS_MAX][64];
};

static int cmp_sk(const void *a, const void *b)
{
    return memcmp((const uint8_t *)a + 32, (const uint8_t *)b + 32, 32);
}

static void make_chain(struct chain *c, uint32_t n, uint8_t genesis_byte)
{
    memset(c, 0, sizeof *c);
    for (uint32_t i = 0; i < n; i++) {
        uint8_t seed[32], pk[32];
        memset(seed, (int)(i + 1), 32);
        zbc_ed25519_keypair(pk, c->sks[i], seed);
    }
    qsort(c->sks, n, 64, cmp_sk);
    for (uint32_t i = 0; i < n; i++)
        memcpy(c->g.validators[i], c->sks[i] + 32, 32);
    c->g.n_validators = n;
    memset(c->g.hash, genesis_byte, 32);
}

static void hex32(char out[65], const uint8_t b[32])
{
    zbc_hex_encode(out, b, 32);
}

/* Seed 0x11 x 32, genesis hash 0x5a x 32, height 7, block 0xb1 x 32. */
static const char PIN_PK[] =
    "d04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737";
static const char PIN_DIGEST[] =
    "45142e8597ebc1c0d050abd063b5bc6b143915b5ba50c5635f5ffedb0ac584e2";
static const char PIN_VOTE[] =
    "0107000000"
    "b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1"
    "d04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737"
    "87753ee8abb3ea0059917e2953647344b1b6dac7e5cdc0dc48aca2258e06bdb6"
    "2cda00fd6261ac5f0cb32165b52dbcee8dd0b1f3a57ebe2eee149e1df7a92307";
static const char PIN_SET[] =
    "0107000000"
    "b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1"
    "01"
    "d04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737"
    "87753ee8abb3ea0059917e2953647344b1b6dac7e5cdc0dc48aca2258e06bdb6"
    "2cda00fd6261ac5f0cb32165b52dbcee8dd0b1f3a57ebe2eee149e1df7a92307";

static void pinned_chain(struct chain *c)
{
    memset(c, 0, sizeof *c);
    uint8_t seed[32], pk[32];
    memset(seed, 0x11, 32);
    zbc_ed25519_keypair(pk, c->sks[0], seed);
    memcpy(c->g.validators[0], pk, 32);
    c->g.n_validators = 1;
    memset(c->g.hash, 0x5a, 32);
}

static void test_pinned_bytes(void)
{
    struct chain c;
    struct zbc_err err;
    pinned_chain(&c);
    char hex[2 * ZBC_VOTE_SET_MAX_LEN + 1];
    hex32(hex, c.g.validators[0]);
    CHECK_EQ_STR(hex, PIN_PK);

    uint8_t block[32], d[32];
    memset(block, 0xb1, 32);
    zbc_vote_digest(d, c.g.hash, 7, block);
    hex32(hex, d);
    CHECK_EQ_STR(hex, PIN_DIGEST);

    struct zbc_vote v;
    CHECK(zbc_vote_sign(&v, &c.g, 7, block, c.sks[0], &err));
    uint8_t b[ZBC_VOTE_LEN];
    zbc_vote_encode(b, &v);
    zbc_hex_encode(hex, b, sizeof b);
    CHECK_EQ_STR(hex, PIN_VOTE);
    CHECK_EQ_INT(ZBC_VOTE_LEN, 133);

    struct zbc_vote_tally t;
    bool added;
    zbc_vote_tally_init(&t, 7, block);
    CHECK(zbc_vote_tally_add(&t, &c.g, &v, &added, &err));
    uint8_t set[ZBC_VOTE_SET_MAX_LEN];
    size_t n = zbc_vote_set_encode(set, &t, &c.g);
    CHECK_EQ_INT(n, 134);
    zbc_hex_encode(hex, set, n);
    CHECK_EQ_STR(hex, PIN_SET);
}

static void test_sign_verify_roundtrip(void)
{
    struct chain c;
    struct zbc_err err;
    make_chain(&c, 4, 0x5a);
    uint8_t block[32];
    memset(block, 0xc3, 32);
    for (uint32_t i = 0; i < 4; i++) {
        struct zbc_vote v, d;
        uint32_t idx = 99;
        CHECK(zbc_vote_sign(&v, &c.g, 12, block, c.sks[i], &err));
        CHECK(zbc_vote_verify(&v, &c.g, &idx, &err));
        CHECK_EQ_INT(idx, i);
        uint8_t b[ZBC_VOTE_LEN];
        zbc_vote_encode(b, &v);
        CHECK(zbc_vote_decode(&d, b, sizeof b, &err));
        CHECK_EQ_INT(d.version, 1);
        CHECK_EQ_INT(d.height, 12);
        CHECK_EQ_MEM(d.block_hash, v.block_hash, 32);
        CHECK_EQ_MEM(d.validator, v.validator, 32);
        CHECK_EQ_MEM(d.signature, v.signature, 64);
        CHECK(zbc_vote_verify(&d, &c.g, NULL, &err));
    }
}

static void test_wrong_genesis(void)
{
    struct chain a, b;
    struct zbc_err err;
    make_chain(&a, 3, 0x5a);
    make_chain(&b, 3, 0x5b); /* same validators, another chain */
    uint8_t block[32];
    memset(block, 0x01, 32);
    struct zbc_vote v;
    CHECK(zbc_vote_sign(&v, &a.g, 3, block, a.sks[1], &err));
    CHECK(zbc_vote_verify(&v, &a.g, NULL, &err));
    CHECK(!zbc_vote_verify(&v, &b.g, NULL, &err));
    CHECK(strstr(err.msg, "vote signature is invalid") != NULL);
}

static void test_non_validator(void)
{
    struct chain c, other;
    struct zbc_err err;
    make_chain(&c, 3, 0x5a);
    make_chain(&other, 5, 0x5a); /* seeds 4 and 5 are outside c */
    uint8_t outsider[64];
    int found = 0;
    for (uint32_t i = 0; i < 5 && !found; i++)
        if (!zbc_genesis_is_validator(&c.g, other.sks[i] + 32)) {
            memcpy(outsider, other.sks[i], 64);
            found = 1;
        }
    CHECK(found);
    uint8_t block[32];
    memset(block, 0x02, 32);
    struct zbc_vote v;
    CHECK(!zbc_vote_sign(&v, &c.g, 3, block, outsider, &err));
    CHECK(strstr(err.msg, "node key") != NULL);
    CHECK(strstr(err.msg, "is not a validator of this chain") != NULL);
    /* a well-signed vote by the outsider, checked against c */
    CHECK(zbc_vote_sign(&v, &other.g, 3, block, outsider, &err));
    memcpy(other.g.hash, c.g.hash, 32);
    CHECK(!zbc_vote_verify(&v, &c.g, NULL, &err));
    CHECK(strstr(err.msg, "vote signer") != NULL);
    CHECK(strstr(err.msg, "is not a validator of this chain") != NULL);
    /* height 0 */
    CHECK(!zbc_vote_sign(&v, &c.g, 0, block, c.sks[0], &err));
    CHECK(strstr(err.msg, "height 0") != NULL);
    CHECK(zbc_vote_sign(&v, &c.g, 1, block, c.sks[0], &err));
    v.height = 0;
    CHECK(!zbc_vote_verify(&v, &c.g, NULL, &err));
    CHECK(strstr(err.msg, "height 0") != NULL);
}

/* Every single flipped bit, in every byte, is refused by decode or
 * verify. */
static void test_tampered(void)
{
    struct chain c;
    struct zbc_err err;
    make_chain(&c, 4, 0x5a);
    uint8_t block[32];
    memset(block, 0x77, 32);
    struct zbc_vote v;
    CHECK(zbc_vote_sign(&v, &c.g, 99, block, c.sks[2], &err));
    uint8_t b[ZBC_VOTE_LEN];
    zbc_vote_encode(b, &v);
    int refused = 0;
    for (size_t i = 0; i < sizeof b; i++) {
        for (int bit = 0; bit < 8; bit++) {
            uint8_t t[ZBC_VOTE_LEN];
            memcpy(t, b, sizeof t);
            t[i] ^= (uint8_t)(1u << bit);
            struct zbc_vote d;
            if (!zbc_vote_decode(&d, t, sizeof t, &err) ||
                !zbc_vote_verify(&d, &c.g, NULL, &err))
                refused++;
        }
    }
    CHECK_EQ_INT(refused, 8 * ZBC_VOTE_LEN);
    /* one case each with its exact error */
    b[0] = 2;
    CHECK(!zbc_vote_decode(&v, b, sizeof b, &err));
    CHECK_EQ_STR(err.msg, "vote version 2 is not 1");
    b[0] = 1;
    b[100] ^= 1; /* inside the signature (bytes 69..132) */
    CHECK(zbc_vote_decode(&v, b, sizeof b, &err));
    CHECK(!zbc_vote_verify(&v, &c.g, NULL, &err));
    CHECK(strstr(err.msg, "vote signature is invalid") != NULL);
}

static void test_decode_lengths(void)
{
    struct zbc_vote v;
    struct zbc_err err;
    uint8_t b[ZBC_VOTE_LEN + 1];
    memset(b, 0, sizeof b);
    b[0] = 1;
    CHECK(zbc_vote_decode(&v, b, ZBC_VOTE_LEN, &err));
    CHECK(!zbc_vote_decode(&v, b, ZBC_VOTE_LEN - 1, &err));
    CHECK_EQ_STR(err.msg, "vote has 132 bytes, not 133");
    CHECK(!zbc_vote_decode(&v, b, ZBC_VOTE_LEN + 1, &err));
    CHECK_EQ_STR(err.msg, "vote has 134 bytes, not 133");
    CHECK(!zbc_vote_decode(&v, NULL, 0, &err));
    CHECK_EQ_STR(err.msg, "vote has 0 bytes, not 133");
}

static void test_threshold(void)
{
    /* the smallest count that is final for n validators: 3c > 2n */
    static const struct { uint32_t n, need; } rows[] = {
        {1, 1}, {2, 2}, {3, 3}, {4, 3}, {5, 4}, {6, 5}, {7, 5}, {64, 43},
    };
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        CHECK(!zbc_vote_threshold_met(rows[r].need - 1, rows[r].n));
        CHECK(zbc_vote_threshold_met(rows[r].need, rows[r].n));
        CHECK(zbc_vote_threshold_met(rows[r].n, rows[r].n));
    }
    CHECK(!zbc_vote_threshold_met(0, 0));
    CHECK(!zbc_vote_threshold_met(1, 0));
    /* no overflow near the top of u32 */
    CHECK(!zbc_vote_threshold_met(0xaaaaaaaau, 0xffffffffu));
    CHECK(zbc_vote_threshold_met(0xaaaaaaabu, 0xffffffffu));
}

/* Adds the votes of validators 0, 1, ... one at a time; the block turns
 * final exactly at `need`; every vote sent twice counts once. */
static void tally_case(uint32_t n, uint32_t need)
{
    struct chain c;
    struct zbc_err err;
    make_chain(&c, n, 0x5a);
    uint8_t block[32];
    memset(block, (int)(0x40 + n), 32);
    struct zbc_vote_tally t;
    zbc_vote_tally_init(&t, 50, block);
    CHECK(!zbc_vote_tally_final(&t, &c.g));
    for (uint32_t i = 0; i < n; i++) {
        struct zbc_vote v;
        bool added;
        CHECK(zbc_vote_sign(&v, &c.g, 50, block, c.sks[i], &err));
        CHECK(zbc_vote_tally_add(&t, &c.g, &v, &added, &err));
        CHECK(added);
        CHECK(zbc_vote_tally_add(&t, &c.g, &v, &added, &err));
        CHECK(!added);
        /* a copy with a broken signature is still checked, and refused */
        struct zbc_vote bad = v;
        bad.signature[10] ^= 4;
        CHECK(!zbc_vote_tally_add(&t, &c.g, &bad, &added, &err));
        CHECK(strstr(err.msg, "vote signature is invalid") != NULL);
        CHECK_EQ_INT(t.count, i + 1);
        CHECK_EQ_INT(zbc_vote_tally_final(&t, &c.g), i + 1 >= need);
    }
}

static void test_tally_thresholds(void)
{
    tally_case(1, 1);
    tally_case(2, 2);
    tally_case(3, 3);
    tally_case(4, 3);
    tally_case(7, 5);
}

static void test_tally_refusals(void)
{
    struct chain c;
    struct zbc_err err;
    make_chain(&c, 4, 0x5a);
    uint8_t block[32], other[32];
    memset(block, 0x10, 32);
    memset(other, 0x20, 32);
    struct zbc_vote_tally t, before;
    zbc_vote_tally_init(&t, 8, block);
    struct zbc_vote v;
    bool added = true;
    CHECK(zbc_vote_sign(&v, &c.g, 8, other, c.sks[0], &err));
    CHECK(!zbc_vote_tally_add(&t, &c.g, &v, &added, &err));
    CHECK(!added);
    CHECK_EQ_STR(err.msg, "vote is for another block than this tally's");
    CHECK(zbc_vote_sign(&v, &c.g, 9, block, c.sks[0], &err));
    CHECK(!zbc_vote_tally_add(&t, &c.g, &v, &added, &err));
    CHECK_EQ_STR(err.msg, "vote says height 9 for a block at height 8");
    /* a bad signature leaves the tally as it was */
    CHECK(zbc_vote_sign(&v, &c.g, 8, block, c.sks[1], &err));
    v.signature[5] ^= 0x40;
    before = t;
    CHECK(!zbc_vote_tally_add(&t, &c.g, &v, &added, &err));
    CHECK(memcmp(&before, &t, sizeof t) == 0);
    CHECK_EQ_INT(t.count, 0);
    /* a signature of one validator relabelled as another's */
    CHECK(zbc_vote_sign(&v, &c.g, 8, block, c.sks[1], &err));
    memcpy(v.validator, c.g.validators[2], 32);
    CHECK(!zbc_vote_tally_add(&t, &c.g, &v, &added, &err));
    CHECK_EQ_INT(t.count, 0);
}

static void test_tally_get(void)
{
    struct chain c;
    struct zbc_err err;
    make_chain(&c, 4, 0x5a);
    uint8_t block[32];
    memset(block, 0x31, 32);
    struct zbc_vote_tally t;
    zbc_vote_tally_init(&t, 4, block);
    struct zbc_vote v, got;
    bool added;
    CHECK(zbc_vote_sign(&v, &c.g, 4, block, c.sks[2], &err));
    CHECK(zbc_vote_tally_add(&t, &c.g, &v, &added, &err));
    CHECK(!zbc_vote_tally_get(&t, &c.g, 0, &got));
    CHECK(!zbc_vote_tally_get(&t, &c.g, 4, &got));
    CHECK(!zbc_vote_tally_get(&t, &c.g, 63, &got));
    CHECK(zbc_vote_tally_get(&t, &c.g, 2, &got));
    uint8_t a[ZBC_VOTE_LEN], b[ZBC_VOTE_LEN];
    zbc_vote_encode(a, &v);
    zbc_vote_encode(b, &got);
    CHECK_EQ_MEM(a, b, sizeof a);
}

/* A tally holding votes of validators in `who` (indexes). */
static void tally_of(struct zbc_vote_tally *t, const struct chain *c,
                     uint32_t height, const uint8_t block[32],
                     const uint32_t *who, size_t n)
{
    struct zbc_err err;
    zbc_vote_tally_init(t, height, block);
    for (size_t k = 0; k < n; k++) {
        struct zbc_vote v;
        bool added;
        CHECK(zbc_vote_sign(&v, &c->g, height, block, c->sks[who[k]], &err));
        CHECK(zbc_vote_tally_add(t, &c->g, &v, &added, &err));
    }
}

static void test_vote_set(void)
{
    struct chain c;
    struct zbc_err err;
    make_chain(&c, 7, 0x5a);
    uint8_t block[32];
    memset(block, 0x99, 32);
    const uint32_t who[] = {6, 1, 4, 0, 3};
    struct zbc_vote_tally t, d;
    tally_of(&t, &c, 1234, block, who, 5);
    CHECK(zbc_vote_tally_final(&t, &c.g));
    uint8_t set[ZBC_VOTE_SET_MAX_LEN];
    size_t n = zbc_vote_set_encode(set, &t, &c.g);
    CHECK_EQ_INT(n, ZBC_VOTE_SET_HEADER_LEN + 5 * ZBC_VOTE_SET_ENTRY_LEN);
    CHECK(zbc_vote_set_decode(&d, &c.g, set, n, &err));
    CHECK(memcmp(&d, &t, sizeof d) == 0);
    CHECK(zbc_vote_tally_final(&d, &c.g));
    /* ascending validator order in the bytes */
    for (size_t k = 1; k < 5; k++)
        CHECK(memcmp(set + 38 + (k - 1) * 96, set + 38 + k * 96, 32) < 0);

    uint8_t bad[ZBC_VOTE_SET_MAX_LEN + 96];
    /* entries 1 and 2 swapped */
    memcpy(bad, set, n);
    memcpy(bad + 38 + 96, set + 38 + 2 * 96, 96);
    memcpy(bad + 38 + 2 * 96, set + 38 + 96, 96);
    CHECK(!zbc_vote_set_decode(&d, &c.g, bad, n, &err));
    CHECK_EQ_STR(err.msg, "vote set: vote 2 is not in strictly ascending "
                          "validator order");
    CHECK_EQ_INT(d.count, 0);
    /* entry 1 repeated in place of entry 2 */
    memcpy(bad, set, n);
    memcpy(bad + 38 + 2 * 96, set + 38 + 96, 96);
    CHECK(!zbc_vote_set_decode(&d, &c.g, bad, n, &err));
    CHECK_EQ_STR(err.msg, "vote set: vote 2 is not in strictly ascending "
                          "validator order");
    /* a bad signature in entry 3 */
    memcpy(bad, set, n);
    bad[38 + 3 * 96 + 40] ^= 1;
    CHECK(!zbc_vote_set_decode(&d, &c.g, bad, n, &err));
    CHECK(strncmp(err.msg, "vote set: vote 3: vote signature is invalid",
                  43) == 0);
    /* the votes were for another height */
    memcpy(bad, set, n);
    bad[1] ^= 1;
    CHECK(!zbc_vote_set_decode(&d, &c.g, bad, n, &err));
    CHECK(strstr(err.msg, "vote set: vote 0: vote signature is invalid"));
    /* counts and lengths */
    memcpy(bad, set, n);
    bad[37] = 0;
    CHECK(!zbc_vote_set_decode(&d, &c.g, bad, 38, &err));
    CHECK_EQ_STR(err.msg, "vote set holds no vote");
    bad[37] = 8;
    CHECK(!zbc_vote_set_decode(&d, &c.g, bad, n, &err));
    CHECK_EQ_STR(err.msg, "vote set holds 8 votes but the chain has 7 "
                          "validators");
    bad[37] = 5;
    CHECK(!zbc_vote_set_decode(&d, &c.g, bad, n - 1, &err));
    CHECK_EQ_STR(err.msg, "vote set of 5 votes needs 480 bytes after its "
                          "header, not 479");
    bad[n] = 0;
    CHECK(!zbc_vote_set_decode(&d, &c.g, bad, n + 1, &err));
    CHECK_EQ_STR(err.msg, "vote set of 5 votes needs 480 bytes after its "
                          "header, not 481");
    CHECK(!zbc_vote_set_decode(&d, &c.g, bad, 37, &err));
    CHECK_EQ_STR(err.msg, "vote set: count needs 1 bytes, 0 left");
    bad[0] = 2;
    CHECK(!zbc_vote_set_decode(&d, &c.g, bad, n, &err));
    CHECK_EQ_STR(err.msg, "vote set version 2 is not 1");
    /* a set decoded against another chain */
    struct chain o;
    make_chain(&o, 7, 0x5b);
    CHECK(!zbc_vote_set_decode(&d, &o.g, set, n, &err));
    CHECK(strstr(err.msg, "vote signature is invalid") != NULL);
}

static void test_final_point(void)
{
    struct zbc_final_point f;
    struct zbc_err err;
    uint8_t gh[32], a[32], b[32];
    memset(gh, 0x5a, 32);
    memset(a, 0xaa, 32);
    memset(b, 0xbb, 32);
    zbc_final_init(&f, gh);
    CHECK_EQ_INT(f.height, 0);
    CHECK(zbc_final_covers(&f, 0));
    CHECK(!zbc_final_covers(&f, 1));
    bool moved = false;
    CHECK(zbc_final_advance(&f, 10, a, &moved, &err));
    CHECK(moved);
    /* a final block makes its ancestors final */
    for (uint32_t h = 0; h <= 10; h++)
        CHECK(zbc_final_covers(&f, h));
    CHECK(!zbc_final_covers(&f, 11));
    /* an ancestor turning final later changes nothing */
    CHECK(zbc_final_advance(&f, 7, b, &moved, &err));
    CHECK(!moved);
    CHECK_EQ_INT(f.height, 10);
    CHECK_EQ_MEM(f.hash, a, 32);
    CHECK(zbc_final_advance(&f, 10, a, &moved, &err));
    CHECK(!moved);
    CHECK(!zbc_final_advance(&f, 10, b, &moved, &err));
    CHECK_EQ_STR(err.msg, "conflicting final blocks at height 10: more than "
                          "a third of the validators voted for both");
    CHECK_EQ_INT(f.height, 10);
    CHECK_EQ_MEM(f.hash, a, 32);
}

static void test_reorg_rule(void)
{
    struct zbc_final_point f;
    struct zbc_err err;
    uint8_t gh[32], a[32];
    memset(gh, 0x5a, 32);
    memset(a, 0xaa, 32);
    zbc_final_init(&f, gh);
    bool moved;
    CHECK(zbc_final_reorg_allowed(&f, 20, 0, &err));
    CHECK(zbc_final_advance(&f, 12, a, &moved, &err));
    CHECK(zbc_final_reorg_allowed(&f, 20, 12, &err));
    CHECK(zbc_final_reorg_allowed(&f, 20, 19, &err));
    CHECK(zbc_final_reorg_allowed(&f, 20, 20, &err));
    CHECK(!zbc_final_reorg_allowed(&f, 20, 11, &err));
    CHECK_EQ_STR(err.msg, "branch forks at height 11, below the final block "
                          "at height 12");
    CHECK(!zbc_final_reorg_allowed(&f, 20, 21, &err));
    CHECK_EQ_STR(err.msg, "fork point at height 21 is above the tip at "
                          "height 20");
    /* the 1440 limit stays for blocks not final */
    CHECK(zbc_final_reorg_allowed(&f, 12 + ZBC_REORG_MAX_DEPTH, 12, &err));
    CHECK(!zbc_final_reorg_allowed(&f, 13 + ZBC_REORG_MAX_DEPTH, 12, &err));
    CHECK_EQ_STR(err.msg, "branch forks 1441 blocks below the tip, deeper "
                          "than 1440");

    /* one validator: its own vote makes every block final at once, so no
     * block of its chain can be undone */
    struct chain c;
    make_chain(&c, 1, 0x5a);
    zbc_final_init(&f, c.g.hash);
    for (uint32_t h = 1; h <= 5; h++) {
        uint8_t block[32];
        memset(block, (int)h, 32);
        struct zbc_vote_tally t;
        const uint32_t who[] = {0};
        tally_of(&t, &c, h, block, who, 1);
        CHECK(zbc_vote_tally_final(&t, &c.g));
        CHECK(zbc_final_advance(&f, h, block, &moved, &err));
        CHECK(moved);
        CHECK(zbc_final_reorg_allowed(&f, h, h, &err));
        CHECK(!zbc_final_reorg_allowed(&f, h, h - 1, &err));
    }
}

static void test_branch_cmp(void)
{
    struct zbc_tip heavy = {.cum_weight = 3000000, .timestamp_ms = 5},
                   light = {.cum_weight = 1000000, .timestamp_ms = 5};
    memset(heavy.hash, 1, 32);
    memset(light.hash, 2, 32);
    CHECK(zbc_final_branch_cmp(&heavy, false, &light, false) > 0);
    CHECK(zbc_final_branch_cmp(&light, false, &heavy, false) < 0);
    /* the lighter branch holding a final block wins */
    CHECK(zbc_final_branch_cmp(&light, true, &heavy, false) > 0);
    CHECK(zbc_final_branch_cmp(&heavy, false, &light, true) < 0);
    CHECK(zbc_final_branch_cmp(&heavy, true, &light, true) > 0);
    CHECK_EQ_INT(zbc_final_branch_cmp(&heavy, true, &heavy, true), 0);
}

static void test_pending(void)
{
    static struct zbc_vote_pending p;
    struct chain c;
    struct zbc_err err;
    make_chain(&c, 4, 0x5a);
    zbc_vote_pending_init(&p);
    uint8_t block[32];
    memset(block, 0x61, 32);
    struct zbc_vote v;
    bool added;
    /* tip 100, final 90 */
    CHECK(zbc_vote_sign(&v, &c.g, 101, block, c.sks[0], &err));
    CHECK(zbc_vote_pending_add(&p, &c.g, &v, 90, 100, &added, &err));
    CHECK(added);
    CHECK(zbc_vote_pending_add(&p, &c.g, &v, 90, 100, &added, &err));
    CHECK(!added);
    CHECK_EQ_INT(p.n, 1);
    v.signature[63] ^= 0x10; /* a copy with a broken signature */
    CHECK(!zbc_vote_pending_add(&p, &c.g, &v, 90, 100, &added, &err));
    CHECK(strstr(err.msg, "vote signature is invalid") != NULL);
    CHECK_EQ_INT(p.n, 1);
    CHECK(zbc_vote_sign(&v, &c.g, 90, block, c.sks[1], &err));
    CHECK(!zbc_vote_pending_add(&p, &c.g, &v, 90, 100, &added, &err));
    CHECK_EQ_STR(err.msg, "vote for height 90, at or below the final height "
                          "90");
    CHECK(zbc_vote_sign(&v, &c.g, 165, block, c.sks[1], &err));
    CHECK(!zbc_vote_pending_add(&p, &c.g, &v, 90, 100, &added, &err));
    CHECK_EQ_STR(err.msg, "vote for height 165, more than 64 above the tip "
                          "at height 100");
    CHECK(zbc_vote_sign(&v, &c.g, 164, block, c.sks[1], &err));
    v.signature[0] ^= 1;
    CHECK(!zbc_vote_pending_add(&p, &c.g, &v, 90, 100, &added, &err));
    CHECK(strstr(err.msg, "vote signature is invalid") != NULL);
    CHECK_EQ_INT(p.n, 1);

    /* two more votes for block 101 and one for another block */
    for (uint32_t i = 1; i < 3; i++) {
        CHECK(zbc_vote_sign(&v, &c.g, 101, block, c.sks[i], &err));
        CHECK(zbc_vote_pending_add(&p, &c.g, &v, 90, 100, &added, &err));
    }
    uint8_t other[32];
    memset(other, 0x62, 32);
    CHECK(zbc_vote_sign(&v, &c.g, 101, other, c.sks[3], &err));
    CHECK(zbc_vote_pending_add(&p, &c.g, &v, 90, 100, &added, &err));
    CHECK_EQ_INT(p.n, 4);
    /* the block arrives: its three votes make it final */
    struct zbc_vote_tally t;
    zbc_vote_tally_init(&t, 101, block);
    CHECK_EQ_INT(zbc_vote_pending_take(&p, &c.g, &t), 3);
    CHECK(zbc_vote_tally_final(&t, &c.g));
    CHECK_EQ_INT(p.n, 1);
    CHECK_EQ_MEM(p.votes[0].block_hash, other, 32);
    /* a block whose held votes name another height: dropped, not counted */
    zbc_vote_tally_init(&t, 102, other);
    CHECK_EQ_INT(zbc_vote_pending_take(&p, &c.g, &t), 0);
    CHECK_EQ_INT(p.n, 0);

    /* one validator's quota: its lowest vote makes room for a higher one */
    for (uint32_t k = 0; k < ZBC_VOTE_PENDING_PER_VALIDATOR + 4; k++) {
        uint8_t bh[32];
        memset(bh, (int)k, 32);
        CHECK(zbc_vote_sign(&v, &c.g, 110 + k, bh, c.sks[2], &err));
        CHECK(zbc_vote_pending_add(&p, &c.g, &v, 90, 100, &added, &err));
        CHECK(added);
    }
    CHECK_EQ_INT(p.n, ZBC_VOTE_PENDING_PER_VALIDATOR);
    uint32_t low = 0xffffffffu;
    for (size_t i = 0; i < p.n; i++)
        if (p.votes[i].height < low)
            low = p.votes[i].height;
    CHECK_EQ_INT(low, 114);
    /* lower than everything it holds: not added */
    CHECK(zbc_vote_sign(&v, &c.g, 105, block, c.sks[2], &err));
    CHECK(zbc_vote_pending_add(&p, &c.g, &v, 90, 100, &added, &err));
    CHECK(!added);
    /* another validator is not crowded out */
    CHECK(zbc_vote_sign(&v, &c.g, 105, block, c.sks[3], &err));
    CHECK(zbc_vote_pending_add(&p, &c.g, &v, 90, 100, &added, &err));
    CHECK(added);
    CHECK_EQ_INT(p.n, ZBC_VOTE_PENDING_PER_VALIDATOR + 1);
    /* finality at 120 drops the votes at or below it */
    zbc_vote_pending_prune(&p, 120);
    for (size_t i = 0; i < p.n; i++)
        CHECK(p.votes[i].height > 120);
    CHECK_EQ_INT(p.n, 9);
}

int main(void)
{
    TEST_RUN(test_pinned_bytes);
    TEST_RUN(test_sign_verify_roundtrip);
    TEST_RUN(test_wrong_genesis);
    TEST_RUN(test_non_validator);
    TEST_RUN(test_tampered);
    TEST_RUN(test_decode_lengths);
    TEST_RUN(test_threshold);
    TEST_RUN(test_tally_thresholds);
    TEST_RUN(test_tally_refusals);
    TEST_RUN(test_tally_get);
    TEST_RUN(test_vote_set);
    TEST_RUN(test_final_point);
    TEST_RUN(test_reorg_rule);
    TEST_RUN(test_branch_cmp);
    TEST_RUN(test_pending);
    return test_summary("consensus_vote");
}
