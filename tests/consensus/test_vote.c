/* Final confirmations, Casper FFG with every height a checkpoint
 * (consensus/vote.h, docs/protocol-chain.md §8): vote bytes and digest
 * pinned against values computed independently (Python hashlib SHA3-256
 * and the OpenSSL Ed25519 of the `cryptography` package), sign/verify,
 * wrong chain, non-validators, every tampered byte, the threshold,
 * slashable pairs, justification and finality, the honest-validator rules,
 * the conflicting-finality scenario of §8.10 replayed with the rules, vote
 * set bytes, the reorg rule, fork choice, the pending buffer. */
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

/* A block id: hash = tag, height, zeros. */
static struct zbc_checkpoint cp(uint32_t height, uint8_t tag)
{
    struct zbc_checkpoint c;
    memset(&c, 0, sizeof c);
    c.height = height;
    c.hash[0] = tag;
    c.hash[1] = (uint8_t)height;
    c.hash[2] = (uint8_t)(height >> 8);
    return c;
}

static struct zbc_checkpoint root_of(const struct chain *c)
{
    struct zbc_checkpoint r = {.height = 0};
    memcpy(r.hash, c->g.hash, 32);
    return r;
}

static void add_block(struct zbc_ffg *f, struct zbc_checkpoint b,
                      struct zbc_checkpoint parent)
{
    struct zbc_err err;
    bool added;
    CHECK(zbc_ffg_add_block(f, &b, parent.hash, &added, &err));
    CHECK(added);
}

/* Validator i's vote source -> target, signed without the honest checks
 * (for building states and misbehaving validators). */
static struct zbc_vote vote(const struct chain *c, uint32_t i,
                            struct zbc_checkpoint source,
                            struct zbc_checkpoint target)
{
    struct zbc_vote v;
    struct zbc_err err;
    CHECK(zbc_vote_sign(&v, &c->g, &source, &target, c->sks[i], &err));
    return v;
}

static void add_vote(struct zbc_ffg *f, const struct zbc_vote *v)
{
    struct zbc_ffg_added a;
    struct zbc_err err;
    CHECK(zbc_ffg_add_vote(f, v, &a, &err));
    CHECK(a.added);
    CHECK(!a.conflict);
}

static bool justified(const struct zbc_ffg *f, struct zbc_checkpoint b)
{
    long i = zbc_ffg_find(f, &b);
    return i >= 0 && f->blocks[i].justified;
}

static bool cp_same(struct zbc_checkpoint a, struct zbc_checkpoint b)
{
    return a.height == b.height && memcmp(a.hash, b.hash, 32) == 0;
}

/* Seed 0x11 x 32, genesis hash 0x5a x 32, source (6, 0xa6 x 32), target
 * (7, 0xb1 x 32). */
static const char PIN_PK[] =
    "d04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737";
static const char PIN_DIGEST[] =
    "d455e44efa74843d9979a89d86b44cc1bdd7ca62fe9111f67ecc750360781e2e";
static const char PIN_VOTE[] =
    "01"
    "06000000"
    "a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6"
    "07000000"
    "b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1"
    "d04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737"
    "ab076bc19eb184bb53904d4ca966f4413333ef2c89cbc48ad3b255159a78612a"
    "db769206f56e8d0583efac08119acba19897e8bf103ab2f2390211c50980be09";
static const char PIN_SET[] =
    "01"
    "07000000"
    "b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1"
    "01"
    "06000000"
    "a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6a6"
    "d04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737"
    "ab076bc19eb184bb53904d4ca966f4413333ef2c89cbc48ad3b255159a78612a"
    "db769206f56e8d0583efac08119acba19897e8bf103ab2f2390211c50980be09";

static void test_pinned_bytes(void)
{
    struct chain c;
    struct zbc_err err;
    memset(&c, 0, sizeof c);
    uint8_t seed[32], pk[32];
    memset(seed, 0x11, 32);
    zbc_ed25519_keypair(pk, c.sks[0], seed);
    memcpy(c.g.validators[0], pk, 32);
    c.g.n_validators = 1;
    memset(c.g.hash, 0x5a, 32);
    char hex[2 * ZBC_VOTE_SET_MAX_LEN + 1];
    hex32(hex, c.g.validators[0]);
    CHECK_EQ_STR(hex, PIN_PK);

    struct zbc_checkpoint s = {.height = 6}, t = {.height = 7};
    memset(s.hash, 0xa6, 32);
    memset(t.hash, 0xb1, 32);
    uint8_t d[32];
    zbc_vote_digest(d, c.g.hash, &s, &t);
    hex32(hex, d);
    CHECK_EQ_STR(hex, PIN_DIGEST);

    struct zbc_vote v = vote(&c, 0, s, t);
    uint8_t b[ZBC_VOTE_LEN];
    zbc_vote_encode(b, &v);
    zbc_hex_encode(hex, b, sizeof b);
    CHECK_EQ_STR(hex, PIN_VOTE);
    CHECK_EQ_INT(ZBC_VOTE_LEN, 169);

    /* the vote set of block 7 holding that vote, in a view rooted at 6 */
    struct zbc_ffg f;
    CHECK(zbc_ffg_init(&f, &c.g, &s, &err));
    add_block(&f, t, s);
    add_vote(&f, &v);
    uint8_t set[ZBC_VOTE_SET_MAX_LEN];
    size_t n = zbc_ffg_vote_set(&f, 1, set);
    CHECK_EQ_INT(n, 170);
    zbc_hex_encode(hex, set, n);
    CHECK_EQ_STR(hex, PIN_SET);
    zbc_ffg_free(&f);
}

static void test_sign_verify_roundtrip(void)
{
    struct chain c;
    struct zbc_err err;
    make_chain(&c, 4, 0x5a);
    for (uint32_t i = 0; i < 4; i++) {
        struct zbc_vote v = vote(&c, i, cp(3, 1), cp(12, 2)), d;
        uint32_t idx = 99;
        CHECK(zbc_vote_verify(&v, &c.g, &idx, &err));
        CHECK_EQ_INT(idx, i);
        uint8_t b[ZBC_VOTE_LEN];
        zbc_vote_encode(b, &v);
        CHECK(zbc_vote_decode(&d, b, sizeof b, &err));
        CHECK_EQ_INT(d.version, 1);
        CHECK(cp_same(d.source, v.source));
        CHECK(cp_same(d.target, v.target));
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
    struct zbc_vote v = vote(&a, 1, cp(0, 0), cp(3, 1));
    CHECK(zbc_vote_verify(&v, &a.g, NULL, &err));
    CHECK(!zbc_vote_verify(&v, &b.g, NULL, &err));
    CHECK(strstr(err.msg, "vote signature is invalid") != NULL);
}

static void test_non_validator_and_heights(void)
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
    struct zbc_checkpoint s = cp(0, 0), t = cp(3, 2);
    struct zbc_vote v;
    CHECK(!zbc_vote_sign(&v, &c.g, &s, &t, outsider, &err));
    CHECK(strstr(err.msg, "node key") != NULL);
    CHECK(strstr(err.msg, "is not a validator of this chain") != NULL);
    /* a well-signed vote by the outsider, checked against c */
    CHECK(zbc_vote_sign(&v, &other.g, &s, &t, outsider, &err));
    CHECK(!zbc_vote_verify(&v, &c.g, NULL, &err));
    CHECK(strstr(err.msg, "vote signer") != NULL);
    CHECK(strstr(err.msg, "is not a validator of this chain") != NULL);
    /* the source must be below the target (so the target is >= 1) */
    struct zbc_checkpoint g0 = cp(0, 0), t3 = cp(3, 1);
    CHECK(!zbc_vote_sign(&v, &c.g, &t3, &t3, c.sks[0], &err));
    CHECK_EQ_STR(err.msg, "vote source height 3 is not below its target "
                          "height 3");
    CHECK(!zbc_vote_sign(&v, &c.g, &g0, &g0, c.sks[0], &err));
    CHECK_EQ_STR(err.msg, "vote source height 0 is not below its target "
                          "height 0");
    v = vote(&c, 0, cp(2, 1), cp(3, 1));
    v.source.height = 4; /* verification checks the heights first */
    CHECK(!zbc_vote_verify(&v, &c.g, NULL, &err));
    CHECK_EQ_STR(err.msg, "vote source height 4 is not below its target "
                          "height 3");
}

/* Every single flipped bit, in every byte, is refused by decode or
 * verify. */
static void test_tampered(void)
{
    struct chain c;
    struct zbc_err err;
    make_chain(&c, 4, 0x5a);
    struct zbc_vote v = vote(&c, 2, cp(98, 7), cp(99, 7));
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
    b[0] = 2;
    CHECK(!zbc_vote_decode(&v, b, sizeof b, &err));
    CHECK_EQ_STR(err.msg, "vote version 2 is not 1");
    b[0] = 1;
    b[120] ^= 1; /* inside the signature (bytes 105..168) */
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
    CHECK_EQ_STR(err.msg, "vote has 168 bytes, not 169");
    CHECK(!zbc_vote_decode(&v, b, ZBC_VOTE_LEN + 1, &err));
    CHECK_EQ_STR(err.msg, "vote has 170 bytes, not 169");
    CHECK(!zbc_vote_decode(&v, NULL, 0, &err));
    CHECK_EQ_STR(err.msg, "vote has 0 bytes, not 169");
}

static void test_threshold(void)
{
    /* the smallest count over two thirds of n: 3c > 2n */
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

static void test_slashable(void)
{
    struct chain c;
    make_chain(&c, 4, 0x5a);
    struct zbc_vote a = vote(&c, 1, cp(2, 1), cp(5, 1));
    /* the same vote again, and another validator's: no evidence */
    CHECK_EQ_INT(zbc_vote_slashable(&a, &a), ZBC_SLASH_NONE);
    struct zbc_vote o = vote(&c, 2, cp(3, 1), cp(5, 2));
    CHECK_EQ_INT(zbc_vote_slashable(&a, &o), ZBC_SLASH_NONE);
    /* double: one target height, another block or another source */
    struct zbc_vote d1 = vote(&c, 1, cp(2, 1), cp(5, 2));
    struct zbc_vote d2 = vote(&c, 1, cp(3, 1), cp(5, 1));
    CHECK_EQ_INT(zbc_vote_slashable(&a, &d1), ZBC_SLASH_DOUBLE);
    CHECK_EQ_INT(zbc_vote_slashable(&d2, &a), ZBC_SLASH_DOUBLE);
    /* surround, either order */
    struct zbc_vote in = vote(&c, 1, cp(3, 1), cp(4, 1));
    struct zbc_vote out = vote(&c, 1, cp(1, 1), cp(6, 1));
    CHECK_EQ_INT(zbc_vote_slashable(&a, &in), ZBC_SLASH_SURROUND);
    CHECK_EQ_INT(zbc_vote_slashable(&in, &a), ZBC_SLASH_SURROUND);
    CHECK_EQ_INT(zbc_vote_slashable(&out, &a), ZBC_SLASH_SURROUND);
    /* touching spans are not a surround: (2,5) and (5,6), (2,4)/(2,5) */
    struct zbc_vote next = vote(&c, 1, cp(5, 1), cp(6, 1));
    struct zbc_vote same_src = vote(&c, 1, cp(2, 1), cp(4, 1));
    struct zbc_vote same_tgt_end = vote(&c, 1, cp(1, 1), cp(5, 1));
    CHECK_EQ_INT(zbc_vote_slashable(&a, &next), ZBC_SLASH_NONE);
    CHECK_EQ_INT(zbc_vote_slashable(&a, &same_src), ZBC_SLASH_NONE);
    CHECK_EQ_INT(zbc_vote_slashable(&a, &same_tgt_end), ZBC_SLASH_DOUBLE);
    /* an honest validator's successive votes never are */
    struct zbc_vote h[] = {
        vote(&c, 3, cp(0, 0), cp(1, 1)), vote(&c, 3, cp(1, 1), cp(2, 1)),
        vote(&c, 3, cp(1, 1), cp(4, 2)), vote(&c, 3, cp(4, 2), cp(5, 2)),
    };
    for (size_t i = 0; i < 4; i++)
        for (size_t j = 0; j < 4; j++)
            CHECK_EQ_INT(zbc_vote_slashable(&h[i], &h[j]), ZBC_SLASH_NONE);
}

/* n validators on one chain G <- 1 <- 2 <- ...: each block justified
 * exactly when `need` of them voted for it from the justified parent,
 * and the parent final when those votes come from it. */
static void chain_case(uint32_t n, uint32_t need)
{
    struct chain c;
    struct zbc_err err;
    make_chain(&c, n, 0x5a);
    struct zbc_ffg f;
    struct zbc_checkpoint r = root_of(&c);
    CHECK(zbc_ffg_init(&f, &c.g, &r, &err));
    struct zbc_checkpoint prev = r;
    for (uint32_t h = 1; h <= 4; h++) {
        struct zbc_checkpoint b = cp(h, 1);
        add_block(&f, b, prev);
        for (uint32_t i = 0; i < n; i++) {
            struct zbc_vote v = vote(&c, i, prev, b);
            add_vote(&f, &v);
            /* sent twice, counted once */
            struct zbc_ffg_added a;
            CHECK(zbc_ffg_add_vote(&f, &v, &a, &err));
            CHECK(!a.added);
            CHECK(!a.slashable);
            /* a copy with a broken signature is checked and refused */
            struct zbc_vote bad = v;
            bad.signature[10] ^= 4;
            CHECK(!zbc_ffg_add_vote(&f, &bad, &a, &err));
            CHECK(strstr(err.msg, "vote signature is invalid") != NULL);
            long bi = zbc_ffg_find(&f, &b);
            CHECK_EQ_INT(f.blocks[bi].n_votes, i + 1);
            CHECK_EQ_INT(justified(&f, b), i + 1 >= need);
            CHECK_EQ_INT(f.justified.height, i + 1 >= need ? h : h - 1);
            /* the parent turns final with the same votes; with one
             * validator the block itself (docs/protocol-chain.md §8.3) */
            if (n == 1)
                CHECK_EQ_INT(f.final.height, i + 1 >= need ? h : h - 1);
            else
                CHECK_EQ_INT(f.final.height, i + 1 >= need ? h - 1
                                             : (h >= 2 ? h - 2 : 0));
        }
        prev = b;
    }
    /* the tip is justified, not final: it needs a child voted from it
     * (one validator: final at once) */
    CHECK(zbc_ffg_is_final(&f, &prev) == (n == 1));
    struct zbc_checkpoint b3 = cp(3, 1);
    CHECK(zbc_ffg_is_final(&f, &b3));
    CHECK(zbc_ffg_is_final(&f, &r));
    zbc_ffg_free(&f);
}

static void test_thresholds_on_a_chain(void)
{
    chain_case(1, 1);
    chain_case(2, 2);
    chain_case(3, 3);
    chain_case(4, 3);
    chain_case(7, 5);
}

/* One validator: its vote is the whole set, so the block it votes for is
 * justified and final at once (docs/protocol-chain.md §8.3). */
static void test_one_validator(void)
{
    struct chain c;
    struct zbc_err err;
    make_chain(&c, 1, 0x5a);
    struct zbc_ffg f;
    struct zbc_checkpoint r = root_of(&c), prev = r;
    CHECK(zbc_ffg_init(&f, &c.g, &r, &err));
    struct zbc_voter s;
    zbc_voter_init(&s, c.g.hash);
    for (uint32_t h = 1; h <= 5; h++) {
        struct zbc_checkpoint b = cp(h, 1);
        add_block(&f, b, prev);
        struct zbc_vote v;
        CHECK(zbc_ffg_make_vote(&f, &s, &b, c.sks[0], &v, &err));
        CHECK(cp_same(v.source, prev));
        add_vote(&f, &v);
        CHECK(cp_same(f.justified, b));
        CHECK(cp_same(f.final, b));
        CHECK(zbc_ffg_is_final(&f, &b));
        prev = b;
    }
    zbc_ffg_free(&f);
}

/* Finality needs votes from X itself for one and the same child. */
static void test_finality_needs_source_and_child(void)
{
    struct chain c;
    struct zbc_err err;
    make_chain(&c, 4, 0x5a);
    struct zbc_ffg f;
    struct zbc_checkpoint g0 = root_of(&c), x = cp(1, 1), c1 = cp(2, 1),
                          c2 = cp(2, 2), gc = cp(3, 1);
    CHECK(zbc_ffg_init(&f, &c.g, &g0, &err));
    add_block(&f, x, g0);
    add_block(&f, c1, x);
    add_block(&f, c2, x);
    add_block(&f, gc, c1);
    for (uint32_t i = 0; i < 3; i++) {
        struct zbc_vote v = vote(&c, i, g0, x);
        add_vote(&f, &v);
    }
    CHECK(justified(&f, x));
    CHECK_EQ_INT(f.final.height, 0);
    /* 2 for each child: neither reaches 3 of 4 */
    for (uint32_t i = 0; i < 4; i++) {
        struct zbc_vote v = vote(&c, i, x, i < 2 ? c1 : c2);
        add_vote(&f, &v);
    }
    CHECK(!justified(&f, c1));
    CHECK(!justified(&f, c2));
    CHECK_EQ_INT(f.final.height, 0);
    /* three votes for x's grandchild from x: justified, x not final (not a
     * direct child) */
    for (uint32_t i = 0; i < 3; i++) {
        struct zbc_vote v = vote(&c, i, x, gc);
        add_vote(&f, &v);
    }
    CHECK(justified(&f, gc));
    CHECK(cp_same(f.justified, gc));
    CHECK_EQ_INT(f.final.height, 0);
    zbc_ffg_free(&f);

    /* three votes for x's child from the genesis: justified, x not final
     * (the source is not x) */
    CHECK(zbc_ffg_init(&f, &c.g, &g0, &err));
    add_block(&f, x, g0);
    add_block(&f, c1, x);
    for (uint32_t i = 0; i < 3; i++) {
        struct zbc_vote v = vote(&c, i, g0, x);
        add_vote(&f, &v);
        v = vote(&c, i, g0, c1);
        add_vote(&f, &v);
    }
    CHECK(justified(&f, c1));
    CHECK_EQ_INT(f.final.height, 0);
    /* the genesis is final now? no: its child x was voted from it by 3,
     * which finalises the genesis, already final */
    CHECK(cp_same(f.final, g0));
    zbc_ffg_free(&f);
}

/* Justification is iterative: votes from a source not yet justified count
 * once it is; votes from a justified block that is not an ancestor of the
 * target never count. */
static void test_justification_chain(void)
{
    struct chain c;
    struct zbc_err err;
    make_chain(&c, 4, 0x5a);
    struct zbc_ffg f;
    struct zbc_checkpoint g0 = root_of(&c), b1 = cp(1, 1), b2 = cp(2, 1),
                          b3 = cp(3, 1), a1 = cp(1, 2), a2 = cp(2, 2);
    CHECK(zbc_ffg_init(&f, &c.g, &g0, &err));
    add_block(&f, b1, g0);
    add_block(&f, b2, b1);
    add_block(&f, b3, b2);
    add_block(&f, a1, g0);
    add_block(&f, a2, a1);
    /* b2 <- b3 votes first, then b1 <- b2, then g <- b1 */
    for (uint32_t i = 0; i < 3; i++) {
        struct zbc_vote v = vote(&c, i, b2, b3);
        add_vote(&f, &v);
        v = vote(&c, i, b1, b2);
        add_vote(&f, &v);
    }
    CHECK(!justified(&f, b1));
    CHECK(!justified(&f, b2));
    CHECK(!justified(&f, b3));
    CHECK_EQ_INT(f.justified.height, 0);
    for (uint32_t i = 0; i < 3; i++) {
        struct zbc_ffg_added a;
        struct zbc_vote v = vote(&c, i, g0, b1);
        CHECK(zbc_ffg_add_vote(&f, &v, &a, &err));
        CHECK_EQ_INT(a.justified_moved, i == 2);
        CHECK_EQ_INT(a.final_moved, i == 2);
    }
    CHECK(justified(&f, b1));
    CHECK(justified(&f, b2));
    CHECK(justified(&f, b3));
    CHECK(cp_same(f.justified, b3));
    CHECK(cp_same(f.final, b2));
    /* votes for a2 from b1 (justified, not an ancestor of a2): never */
    for (uint32_t i = 0; i < 4; i++) {
        struct zbc_vote v = vote(&c, i, b1, a2);
        add_vote(&f, &v);
    }
    CHECK(!justified(&f, a2));
    /* a second, different vote for a target is evidence, not counted */
    struct zbc_ffg_added a;
    struct zbc_vote v = vote(&c, 3, g0, a2);
    CHECK(zbc_ffg_add_vote(&f, &v, &a, &err));
    CHECK(!a.added);
    CHECK(a.slashable);
    CHECK(cp_same(a.evidence[0].source, b1));
    CHECK(cp_same(a.evidence[1].source, g0));
    CHECK_EQ_INT(zbc_vote_slashable(&a.evidence[0], &a.evidence[1]),
                 ZBC_SLASH_DOUBLE);
    /* a vote for a block not held */
    v = vote(&c, 0, b3, cp(4, 1));
    CHECK(!zbc_ffg_add_vote(&f, &v, &a, &err));
    CHECK_EQ_STR(err.msg, "vote target 4 is not held");
    zbc_ffg_free(&f);
}

/* One node of the simulation: its view and its voter state. */
struct node {
    struct zbc_ffg f;
    struct zbc_voter s;
};

static void node_vote(struct node *nd, const struct chain *c, uint32_t i,
                      struct zbc_checkpoint target, struct zbc_vote *v)
{
    struct zbc_err err;
    CHECK(zbc_ffg_make_vote(&nd->f, &nd->s, &target, c->sks[i], v, &err));
}

static void deliver(struct node *nd, const struct zbc_vote *v)
{
    struct zbc_ffg_added a;
    struct zbc_err err;
    CHECK(zbc_ffg_add_vote(&nd->f, v, &a, &err)); /* never conflicting */
    CHECK(!a.conflict);
    CHECK(!a.slashable);
}

/* The §8.10 scenario with the rules: 4 validators on G <- 1 <- 2 <- 3 <- 4
 * (all votes seen).  v0, v1, v2 vote B5; only v2 sees v2's vote.  v0 and
 * v1 switch to the heavier A5 <- A6 with v3 and vote A6.  Under the old
 * rule both B5 and A6 had 3 of 4 votes at tips: two conflicting final
 * blocks.  Now no node finalises conflicting blocks, and after the switch
 * the chain finalises again. */
static void test_fork_and_switch(void)
{
    struct chain c;
    struct zbc_err err;
    make_chain(&c, 4, 0x5a);
    static struct node nd[4];
    struct zbc_checkpoint g0 = root_of(&c);
    for (uint32_t k = 0; k < 4; k++) {
        CHECK(zbc_ffg_init(&nd[k].f, &c.g, &g0, &err));
        zbc_voter_init(&nd[k].s, c.g.hash);
    }
    struct zbc_checkpoint prev = g0;
    for (uint32_t h = 1; h <= 4; h++) {
        struct zbc_checkpoint b = cp(h, 1);
        struct zbc_vote v[4];
        for (uint32_t k = 0; k < 4; k++)
            add_block(&nd[k].f, b, prev);
        for (uint32_t k = 0; k < 4; k++)
            node_vote(&nd[k], &c, k, b, &v[k]);
        for (uint32_t k = 0; k < 4; k++)
            for (uint32_t j = 0; j < 4; j++)
                deliver(&nd[k], &v[j]);
        prev = b;
    }
    struct zbc_checkpoint b4 = cp(4, 1), b5 = cp(5, 1), b6 = cp(6, 1),
                          a5 = cp(5, 2), a6 = cp(6, 2), a7 = cp(7, 2);
    for (uint32_t k = 0; k < 4; k++) {
        CHECK(cp_same(nd[k].f.justified, b4));
        CHECK_EQ_INT(nd[k].f.final.height, 3);
    }
    /* B5 reaches v0, v1, v2; they vote it */
    struct zbc_vote vb5[3];
    for (uint32_t k = 0; k < 3; k++)
        add_block(&nd[k].f, b5, b4);
    for (uint32_t k = 0; k < 3; k++)
        node_vote(&nd[k], &c, k, b5, &vb5[k]);
    for (uint32_t k = 0; k < 3; k++) {
        deliver(&nd[k], &vb5[0]);
        deliver(&nd[k], &vb5[1]);
    }
    deliver(&nd[2], &vb5[2]);
    CHECK(cp_same(nd[2].f.justified, b5)); /* v2 alone knows */
    CHECK(cp_same(nd[2].f.final, b4));
    CHECK(cp_same(nd[0].f.justified, b4));
    /* v2 builds B6 and votes it from B5 */
    struct zbc_vote vb6;
    add_block(&nd[2].f, b6, b5);
    node_vote(&nd[2], &c, 2, b6, &vb6);
    CHECK(cp_same(vb6.source, b5));
    /* the heavier A5 <- A6 reaches v0, v1, v3; they vote A6 from B4 */
    struct zbc_vote va6[4];
    for (uint32_t k = 0; k < 4; k++) {
        if (k == 2)
            continue;
        add_block(&nd[k].f, a5, b4);
        add_block(&nd[k].f, a6, a5);
        node_vote(&nd[k], &c, k, a6, &va6[k]);
        CHECK(cp_same(va6[k].source, b4));
        /* no vote at a height already voted (rule 1) */
        struct zbc_vote no;
        CHECK(!zbc_ffg_make_vote(&nd[k].f, &nd[k].s, &a5, c.sks[k], &no,
                                 &err));
        CHECK(strstr(err.msg, "rule 1") != NULL);
    }
    /* the old rule would call both B5 and A6 final: 3 of 4 each */
    CHECK(zbc_vote_threshold_met(3, 4));
    /* now everything reaches everyone */
    for (uint32_t k = 0; k < 4; k++) {
        bool added;
        CHECK(zbc_ffg_add_block(&nd[k].f, &b5, b4.hash, &added, &err));
        CHECK(zbc_ffg_add_block(&nd[k].f, &b6, b5.hash, &added, &err));
        CHECK(zbc_ffg_add_block(&nd[k].f, &a5, b4.hash, &added, &err));
        CHECK(zbc_ffg_add_block(&nd[k].f, &a6, a5.hash, &added, &err));
        for (uint32_t j = 0; j < 3; j++)
            deliver(&nd[k], &vb5[j]);
        deliver(&nd[k], &vb6);
        for (uint32_t j = 0; j < 4; j++)
            if (j != 2)
                deliver(&nd[k], &va6[j]);
    }
    for (uint32_t k = 0; k < 4; k++) {
        /* B5 and A6 are both justified; only B4 is final, everywhere */
        CHECK(justified(&nd[k].f, b5));
        CHECK(justified(&nd[k].f, a6));
        CHECK(!justified(&nd[k].f, b6));
        CHECK(cp_same(nd[k].f.final, b4));
        CHECK(cp_same(nd[k].f.justified, a6));
        CHECK(!zbc_ffg_is_final(&nd[k].f, &b5));
        CHECK(!zbc_ffg_is_final(&nd[k].f, &a6));
    }
    /* fork choice: v2's B branch may be heavier, A holds the highest
     * justified block */
    struct zbc_tip tb = {.cum_weight = 9000000}, ta = {.cum_weight = 1};
    CHECK(zbc_final_branch_cmp(&ta, 6, &tb, 5) > 0);
    /* v2 cannot vote on B any more (rule 3: B7 does not descend from A6) */
    struct zbc_checkpoint b7 = cp(7, 1);
    struct zbc_vote no;
    add_block(&nd[2].f, b7, b6);
    CHECK(!zbc_ffg_make_vote(&nd[2].f, &nd[2].s, &b7, c.sks[2], &no, &err));
    CHECK_EQ_STR(err.msg, "rule 3: block 7 does not descend from the highest "
                          "justified block (height 6)");
    /* liveness: all follow A, A7 comes, all vote it: A6 is final */
    struct zbc_vote va7[4];
    for (uint32_t k = 0; k < 4; k++)
        add_block(&nd[k].f, a7, a6);
    for (uint32_t k = 0; k < 4; k++) {
        node_vote(&nd[k], &c, k, a7, &va7[k]);
        CHECK(cp_same(va7[k].source, a6));
    }
    for (uint32_t k = 0; k < 4; k++)
        for (uint32_t j = 0; j < 4; j++)
            deliver(&nd[k], &va7[j]);
    for (uint32_t k = 0; k < 4; k++) {
        CHECK(cp_same(nd[k].f.final, a6));
        CHECK(cp_same(nd[k].f.justified, a7));
        CHECK(!zbc_ffg_is_final(&nd[k].f, &b5));
        /* pruning drops the B branch */
        zbc_ffg_prune(&nd[k].f);
        CHECK(cp_same(nd[k].f.blocks[0].id, a6));
        CHECK_EQ_INT(nd[k].f.blocks[0].parent, -1);
        CHECK_EQ_INT(nd[k].f.n, 2);
        CHECK(zbc_ffg_find(&nd[k].f, &b5) < 0);
        CHECK(zbc_ffg_find(&nd[k].f, &a7) == 1);
        CHECK_EQ_INT(nd[k].f.blocks[1].parent, 0);
        zbc_ffg_free(&nd[k].f);
    }
}

/* Two validators of four breaking rule 1 (double votes) make two
 * conflicting blocks final: detected, and the evidence is slashable. */
static void test_conflicting_finality(void)
{
    struct chain c;
    struct zbc_err err;
    make_chain(&c, 4, 0x5a);
    struct zbc_ffg f;
    struct zbc_checkpoint g0 = root_of(&c), b1 = cp(1, 1), b2 = cp(2, 1),
                          a1 = cp(1, 2), a2 = cp(2, 2);
    CHECK(zbc_ffg_init(&f, &c.g, &g0, &err));
    add_block(&f, b1, g0);
    add_block(&f, b2, b1);
    add_block(&f, a1, g0);
    add_block(&f, a2, a1);
    static const uint32_t on_b[] = {0, 1, 2}, on_a[] = {0, 1, 3};
    for (size_t k = 0; k < 3; k++) {
        struct zbc_vote v = vote(&c, on_b[k], g0, b1);
        add_vote(&f, &v);
        v = vote(&c, on_a[k], g0, a1);
        add_vote(&f, &v);
    }
    for (size_t k = 0; k < 3; k++) {
        struct zbc_vote v = vote(&c, on_b[k], b1, b2);
        add_vote(&f, &v);
    }
    CHECK(cp_same(f.final, b1));
    struct zbc_ffg_added a;
    for (size_t k = 0; k < 2; k++) {
        struct zbc_vote v = vote(&c, on_a[k], a1, a2);
        add_vote(&f, &v);
    }
    struct zbc_vote v = vote(&c, on_a[2], a1, a2);
    CHECK(!zbc_ffg_add_vote(&f, &v, &a, &err));
    CHECK(a.conflict);
    CHECK(strstr(err.msg, "conflicting final blocks: 1 ") != NULL);
    CHECK(cp_same(f.final, b1));
    struct zbc_vote e1 = vote(&c, 0, g0, b1), e2 = vote(&c, 0, g0, a1);
    CHECK_EQ_INT(zbc_vote_slashable(&e1, &e2), ZBC_SLASH_DOUBLE);
    zbc_ffg_free(&f);
}

/* The honest rules refuse with the rule they enforce. */
static void test_make_vote_rules(void)
{
    struct chain c;
    struct zbc_err err;
    make_chain(&c, 4, 0x5a);
    struct zbc_ffg f;
    struct zbc_checkpoint g0 = root_of(&c), b1 = cp(1, 1), b2 = cp(2, 1),
                          b3 = cp(3, 1);
    CHECK(zbc_ffg_init(&f, &c.g, &g0, &err));
    add_block(&f, b1, g0);
    add_block(&f, b2, b1);
    struct zbc_voter s;
    zbc_voter_init(&s, c.g.hash);
    struct zbc_vote v;
    /* the target must be held and strictly descend from the source */
    CHECK(!zbc_ffg_make_vote(&f, &s, &b3, c.sks[0], &v, &err));
    CHECK_EQ_STR(err.msg, "target 3 is not held");
    CHECK(zbc_ffg_make_vote(&f, &s, &b2, c.sks[0], &v, &err));
    CHECK_EQ_INT(s.last_target_height, 2);
    CHECK(cp_same(s.lock, g0));
    CHECK(!zbc_ffg_make_vote(&f, &s, &b1, c.sks[0], &v, &err));
    CHECK_EQ_STR(err.msg, "rule 1: this validator already voted at height 2, "
                          "not above it at 1");
    CHECK(!zbc_ffg_make_vote(&f, &s, &b2, c.sks[0], &v, &err));
    CHECK(strstr(err.msg, "rule 1") != NULL);
    /* a lock above what this view knows (a restart that forgot) */
    struct zbc_voter later = {.last_target_height = 1, .lock = b1};
    CHECK(!zbc_ffg_make_vote(&f, &later, &b2, c.sks[0], &v, &err));
    CHECK_EQ_STR(err.msg, "rule 2: the highest justified block known (height "
                          "0) is not this validator's lock (height 1) or "
                          "above it");
    CHECK_EQ_INT(later.last_target_height, 1);
    /* the source itself is not a target */
    struct zbc_voter fresh;
    zbc_voter_init(&fresh, c.g.hash);
    CHECK(!zbc_ffg_make_vote(&f, &fresh, &g0, c.sks[0], &v, &err));
    CHECK(strstr(err.msg, "rule 1") != NULL);
    /* a node key outside the set */
    struct chain o;
    make_chain(&o, 6, 0x5a);
    uint8_t outsider[64];
    for (uint32_t i = 0; i < 6; i++)
        if (!zbc_genesis_is_validator(&c.g, o.sks[i] + 32))
            memcpy(outsider, o.sks[i], 64);
    CHECK(!zbc_ffg_make_vote(&f, &fresh, &b1, outsider, &v, &err));
    CHECK(strstr(err.msg, "is not a validator") != NULL);
    CHECK_EQ_INT(fresh.last_target_height, 0);
    zbc_ffg_free(&f);
}

/* Pruning keeps the final block and all its descendants, with their
 * parents re-linked, whatever the order the branches were added in. */
static void test_prune(void)
{
    struct chain c;
    struct zbc_err err;
    make_chain(&c, 1, 0x5a);
    struct zbc_ffg f;
    struct zbc_checkpoint g0 = root_of(&c);
    CHECK(zbc_ffg_init(&f, &c.g, &g0, &err));
    struct zbc_checkpoint b[8], s[8];
    struct zbc_checkpoint prev_b = g0, prev_s = g0;
    for (uint32_t h = 1; h <= 7; h++) {
        b[h] = cp(h, 1);
        s[h] = cp(h, 2);
        add_block(&f, b[h], prev_b);
        add_block(&f, s[h], prev_s);
        prev_b = b[h];
        prev_s = s[h];
    }
    struct zbc_checkpoint b4x = cp(5, 3); /* a second child of b4 */
    add_block(&f, b4x, b[4]);
    prev_b = g0;
    for (uint32_t h = 1; h <= 3; h++) { /* one validator: final at once */
        struct zbc_vote v = vote(&c, 0, prev_b, b[h]);
        add_vote(&f, &v);
        prev_b = b[h];
    }
    CHECK(cp_same(f.final, b[3]));
    zbc_ffg_prune(&f);
    CHECK_EQ_INT(f.n, 6); /* b3..b7 and b4x */
    CHECK(cp_same(f.blocks[0].id, b[3]));
    for (uint32_t h = 3; h <= 7; h++) {
        long i = zbc_ffg_find(&f, &b[h]);
        CHECK(i >= 0);
        if (h > 3)
            CHECK(cp_same(f.blocks[f.blocks[i].parent].id, b[h - 1]));
        CHECK(zbc_ffg_find(&f, &s[h]) < 0);
    }
    long x = zbc_ffg_find(&f, &b4x);
    CHECK(x >= 0 && cp_same(f.blocks[f.blocks[x].parent].id, b[4]));
    /* the pruned view goes on: a vote for b4 from b3 finalises b4 */
    struct zbc_vote v = vote(&c, 0, b[3], b[4]);
    add_vote(&f, &v);
    CHECK(cp_same(f.final, b[4]));
    bool added;
    struct zbc_checkpoint b8 = cp(8, 1);
    CHECK(zbc_ffg_add_block(&f, &b8, b[7].hash, &added, &err));
    zbc_ffg_free(&f);

    /* one chain, the final block moving up by one: every block above it
     * stays (the node's usual case) */
    CHECK(zbc_ffg_init(&f, &c.g, &g0, &err));
    prev_b = g0;
    for (uint32_t h = 1; h <= 7; h++) {
        add_block(&f, b[h], prev_b);
        prev_b = b[h];
    }
    prev_b = g0;
    for (uint32_t h = 1; h <= 2; h++) {
        v = vote(&c, 0, prev_b, b[h]);
        add_vote(&f, &v);
        prev_b = b[h];
    }
    CHECK(cp_same(f.final, b[2]));
    zbc_ffg_prune(&f);
    CHECK_EQ_INT(f.n, 6);
    for (uint32_t h = 3; h <= 7; h++) {
        long i = zbc_ffg_find(&f, &b[h]);
        CHECK(i >= 0 && cp_same(f.blocks[f.blocks[i].parent].id, b[h - 1]));
    }
    CHECK(zbc_ffg_add_block(&f, &b8, b[7].hash, &added, &err));
    zbc_ffg_free(&f);
}

/* A view whose first block lies after a gap (a node whose final block is
 * far below its tip): the root is its ancestor, not its parent for
 * finality; sources in the gap do not count. */
static void test_gap(void)
{
    struct chain c;
    struct zbc_err err;
    make_chain(&c, 4, 0x5a);
    struct zbc_ffg f;
    struct zbc_checkpoint g0 = root_of(&c), w = cp(10, 1), b11 = cp(11, 1),
                          b12 = cp(12, 1), in_gap = cp(5, 1);
    CHECK(zbc_ffg_init(&f, &c.g, &g0, &err));
    struct zbc_checkpoint one = cp(1, 1);
    CHECK(!zbc_ffg_add_block_after_gap(&f, &one, &err));
    CHECK_EQ_STR(err.msg, "block 1 leaves no gap above the root at 0");
    CHECK(zbc_ffg_add_block_after_gap(&f, &w, &err));
    CHECK(!zbc_ffg_add_block_after_gap(&f, &b12, &err));
    CHECK_EQ_STR(err.msg, "a block after a gap must be the first one above "
                          "the root");
    add_block(&f, b11, w);
    add_block(&f, b12, b11);
    CHECK(zbc_ffg_is_ancestor(&f, 0, 2));
    /* votes from a block in the gap: never counted */
    for (uint32_t i = 0; i < 4; i++) {
        struct zbc_vote v = vote(&c, i, in_gap, b11);
        add_vote(&f, &v);
    }
    CHECK(!justified(&f, b11));
    /* from the root to the block after the gap: justified, the root not
     * finalised again (not a direct child) */
    for (uint32_t i = 0; i < 3; i++) {
        struct zbc_vote v = vote(&c, i, g0, w);
        add_vote(&f, &v);
    }
    CHECK(justified(&f, w));
    CHECK(cp_same(f.final, g0));
    for (uint32_t i = 0; i < 3; i++) {
        struct zbc_vote v = vote(&c, i, w, b12);
        add_vote(&f, &v);
    }
    CHECK(justified(&f, b12));
    CHECK(cp_same(f.final, g0)); /* b12 is not w's child */
    struct zbc_checkpoint b13 = cp(13, 1);
    add_block(&f, b13, b12);
    for (uint32_t i = 0; i < 3; i++) {
        struct zbc_vote v = vote(&c, i, b12, b13);
        add_vote(&f, &v);
    }
    CHECK(cp_same(f.final, b12));
    zbc_ffg_prune(&f);
    CHECK(cp_same(f.blocks[0].id, b12));
    CHECK_EQ_INT(f.n, 2);
    zbc_ffg_free(&f);
}

static void test_add_block_refusals(void)
{
    struct chain c;
    struct zbc_err err;
    make_chain(&c, 4, 0x5a);
    struct zbc_ffg f;
    struct zbc_checkpoint g0 = root_of(&c), b1 = cp(1, 1), b3 = cp(3, 1);
    CHECK(zbc_ffg_init(&f, &c.g, &g0, &err));
    bool added = true;
    CHECK(!zbc_ffg_add_block(&f, &b3, g0.hash, &added, &err));
    CHECK(!added);
    CHECK_EQ_STR(err.msg, "parent of block 3 is not held (not above the final "
                          "block, or not added yet)");
    struct zbc_checkpoint z = cp(0, 9);
    CHECK(!zbc_ffg_add_block(&f, &z, g0.hash, &added, &err));
    CHECK_EQ_STR(err.msg, "block at height 0 is not the root");
    add_block(&f, b1, g0);
    CHECK(zbc_ffg_add_block(&f, &b1, g0.hash, &added, &err));
    CHECK(!added);
    zbc_ffg_free(&f);
}

static void test_vote_set(void)
{
    struct chain c;
    struct zbc_err err;
    make_chain(&c, 7, 0x5a);
    struct zbc_ffg f;
    struct zbc_checkpoint g0 = root_of(&c), b1 = cp(1, 1), b2 = cp(2, 1);
    CHECK(zbc_ffg_init(&f, &c.g, &g0, &err));
    add_block(&f, b1, g0);
    add_block(&f, b2, b1);
    const uint32_t who[] = {6, 1, 4, 0, 3};
    for (size_t k = 0; k < 5; k++) {
        /* sources differ: the set keeps each one */
        struct zbc_vote v = vote(&c, who[k], k % 2 ? g0 : b1, b2);
        add_vote(&f, &v);
    }
    uint8_t set[ZBC_VOTE_SET_MAX_LEN];
    size_t n = zbc_ffg_vote_set(&f, 2, set);
    CHECK_EQ_INT(n, ZBC_VOTE_SET_HEADER_LEN + 5 * ZBC_VOTE_SET_ENTRY_LEN);
    struct zbc_vote got[ZBC_VALIDATORS_MAX];
    size_t m;
    CHECK(zbc_vote_set_decode(&c.g, set, n, got, &m, &err));
    CHECK_EQ_INT(m, 5);
    /* ascending validators, each the vote f kept */
    for (size_t k = 0; k < m; k++) {
        if (k > 0)
            CHECK(memcmp(got[k - 1].validator, got[k].validator, 32) < 0);
        CHECK(cp_same(got[k].target, b2));
        struct zbc_ffg f2;
        CHECK(zbc_ffg_init(&f2, &c.g, &g0, &err));
        add_block(&f2, b1, g0);
        add_block(&f2, b2, b1);
        add_vote(&f2, &got[k]);
        zbc_ffg_free(&f2);
    }
    const size_t E = ZBC_VOTE_SET_ENTRY_LEN, H = ZBC_VOTE_SET_HEADER_LEN;
    uint8_t bad[ZBC_VOTE_SET_MAX_LEN + ZBC_VOTE_SET_ENTRY_LEN];
    /* entries 1 and 2 swapped */
    memcpy(bad, set, n);
    memcpy(bad + H + E, set + H + 2 * E, E);
    memcpy(bad + H + 2 * E, set + H + E, E);
    CHECK(!zbc_vote_set_decode(&c.g, bad, n, got, &m, &err));
    CHECK_EQ_STR(err.msg, "vote set: vote 2 is not in strictly ascending "
                          "validator order");
    CHECK_EQ_INT(m, 0);
    /* entry 1 repeated in place of entry 2 */
    memcpy(bad, set, n);
    memcpy(bad + H + 2 * E, set + H + E, E);
    CHECK(!zbc_vote_set_decode(&c.g, bad, n, got, &m, &err));
    CHECK_EQ_STR(err.msg, "vote set: vote 2 is not in strictly ascending "
                          "validator order");
    /* a bad signature in entry 3 */
    memcpy(bad, set, n);
    bad[H + 3 * E + 80] ^= 1;
    CHECK(!zbc_vote_set_decode(&c.g, bad, n, got, &m, &err));
    CHECK(strncmp(err.msg, "vote set: vote 3: vote signature is invalid",
                  43) == 0);
    /* a source height changed in entry 0 */
    memcpy(bad, set, n);
    bad[H] ^= 1;
    CHECK(!zbc_vote_set_decode(&c.g, bad, n, got, &m, &err));
    CHECK(strstr(err.msg, "vote set: vote 0: vote signature is invalid"));
    /* a source not below the target */
    memcpy(bad, set, n);
    bad[H] = 2;
    CHECK(!zbc_vote_set_decode(&c.g, bad, n, got, &m, &err));
    CHECK_EQ_STR(err.msg, "vote set: vote 0: vote source height 2 is not "
                          "below its target height 2");
    /* the votes were for another target height */
    memcpy(bad, set, n);
    bad[1] ^= 4;
    CHECK(!zbc_vote_set_decode(&c.g, bad, n, got, &m, &err));
    CHECK(strstr(err.msg, "vote set: vote 0: vote signature is invalid"));
    /* counts and lengths */
    memcpy(bad, set, n);
    bad[37] = 0;
    CHECK(!zbc_vote_set_decode(&c.g, bad, 38, got, &m, &err));
    CHECK_EQ_STR(err.msg, "vote set holds no vote");
    bad[37] = 8;
    CHECK(!zbc_vote_set_decode(&c.g, bad, n, got, &m, &err));
    CHECK_EQ_STR(err.msg, "vote set holds 8 votes but the chain has 7 "
                          "validators");
    bad[37] = 5;
    CHECK(!zbc_vote_set_decode(&c.g, bad, n - 1, got, &m, &err));
    CHECK_EQ_STR(err.msg, "vote set of 5 votes needs 660 bytes after its "
                          "header, not 659");
    bad[n] = 0;
    CHECK(!zbc_vote_set_decode(&c.g, bad, n + 1, got, &m, &err));
    CHECK_EQ_STR(err.msg, "vote set of 5 votes needs 660 bytes after its "
                          "header, not 661");
    CHECK(!zbc_vote_set_decode(&c.g, bad, 37, got, &m, &err));
    CHECK_EQ_STR(err.msg, "vote set: count needs 1 bytes, 0 left");
    bad[0] = 2;
    CHECK(!zbc_vote_set_decode(&c.g, bad, n, got, &m, &err));
    CHECK_EQ_STR(err.msg, "vote set version 2 is not 1");
    /* a set decoded against another chain */
    struct chain o;
    make_chain(&o, 7, 0x5b);
    CHECK(!zbc_vote_set_decode(&o.g, set, n, got, &m, &err));
    CHECK(strstr(err.msg, "vote signature is invalid") != NULL);
    zbc_ffg_free(&f);
}

static void test_reorg_rule(void)
{
    struct zbc_checkpoint f = cp(0, 0);
    struct zbc_err err;
    CHECK(zbc_final_reorg_allowed(&f, 20, 0, &err));
    f = cp(12, 1);
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
}

static void test_branch_cmp(void)
{
    struct zbc_tip heavy = {.cum_weight = 3000000, .timestamp_ms = 5},
                   light = {.cum_weight = 1000000, .timestamp_ms = 5};
    memset(heavy.hash, 1, 32);
    memset(light.hash, 2, 32);
    CHECK(zbc_final_branch_cmp(&heavy, 4, &light, 4) > 0);
    CHECK(zbc_final_branch_cmp(&light, 4, &heavy, 4) < 0);
    /* the lighter branch holding a higher justified block wins */
    CHECK(zbc_final_branch_cmp(&light, 5, &heavy, 4) > 0);
    CHECK(zbc_final_branch_cmp(&heavy, 4, &light, 5) < 0);
    CHECK_EQ_INT(zbc_final_branch_cmp(&heavy, 7, &heavy, 7), 0);
}

static void test_pending(void)
{
    static struct zbc_vote_pending p;
    struct chain c;
    struct zbc_err err;
    make_chain(&c, 4, 0x5a);
    zbc_vote_pending_init(&p);
    struct zbc_checkpoint b100 = cp(100, 1), b101 = cp(101, 1),
                          o101 = cp(101, 2);
    bool added;
    /* tip 100, final 90 */
    struct zbc_vote v = vote(&c, 0, b100, b101);
    CHECK(zbc_vote_pending_add(&p, &c.g, &v, 90, 100, &added, &err));
    CHECK(added);
    CHECK(zbc_vote_pending_add(&p, &c.g, &v, 90, 100, &added, &err));
    CHECK(!added);
    CHECK_EQ_INT(p.n, 1);
    v.signature[63] ^= 0x10; /* a copy with a broken signature */
    CHECK(!zbc_vote_pending_add(&p, &c.g, &v, 90, 100, &added, &err));
    CHECK(strstr(err.msg, "vote signature is invalid") != NULL);
    CHECK_EQ_INT(p.n, 1);
    v = vote(&c, 1, cp(80, 1), cp(90, 1));
    CHECK(!zbc_vote_pending_add(&p, &c.g, &v, 90, 100, &added, &err));
    CHECK_EQ_STR(err.msg, "vote for height 90, at or below the final height "
                          "90");
    v = vote(&c, 1, b100, cp(165, 1));
    CHECK(!zbc_vote_pending_add(&p, &c.g, &v, 90, 100, &added, &err));
    CHECK_EQ_STR(err.msg, "vote for height 165, more than 64 above the tip "
                          "at height 100");
    v = vote(&c, 1, b100, cp(164, 1));
    v.signature[0] ^= 1;
    CHECK(!zbc_vote_pending_add(&p, &c.g, &v, 90, 100, &added, &err));
    CHECK(strstr(err.msg, "vote signature is invalid") != NULL);
    CHECK_EQ_INT(p.n, 1);

    /* two more votes for b101 and one for another block at 101 */
    for (uint32_t i = 1; i < 3; i++) {
        v = vote(&c, i, b100, b101);
        CHECK(zbc_vote_pending_add(&p, &c.g, &v, 90, 100, &added, &err));
    }
    v = vote(&c, 3, b100, o101);
    CHECK(zbc_vote_pending_add(&p, &c.g, &v, 90, 100, &added, &err));
    CHECK_EQ_INT(p.n, 4);
    /* b100 (justified) and b101 arrive: the three votes justify b101 and
     * finalise b100; the vote for o101 stays */
    struct zbc_ffg f;
    CHECK(zbc_ffg_init(&f, &c.g, &b100, &err));
    add_block(&f, b101, b100);
    uint32_t kept;
    struct zbc_ffg_added a;
    CHECK(zbc_vote_pending_take(&p, &f, &kept, &a, &err));
    CHECK_EQ_INT(kept, 3);
    CHECK(a.justified_moved);
    CHECK(!a.final_moved); /* b100 is the root: final already */
    CHECK(cp_same(f.justified, b101));
    CHECK_EQ_INT(p.n, 1);
    CHECK(cp_same(p.votes[0].target, o101));
    add_block(&f, o101, b100);
    CHECK(zbc_vote_pending_take(&p, &f, &kept, &a, &err));
    CHECK_EQ_INT(kept, 1);
    CHECK_EQ_INT(p.n, 0);
    zbc_ffg_free(&f);

    /* one validator's quota: its lowest vote makes room for a higher one */
    for (uint32_t k = 0; k < ZBC_VOTE_PENDING_PER_VALIDATOR + 4; k++) {
        v = vote(&c, 2, b100, cp(110 + k, 3));
        CHECK(zbc_vote_pending_add(&p, &c.g, &v, 90, 100, &added, &err));
        CHECK(added);
    }
    CHECK_EQ_INT(p.n, ZBC_VOTE_PENDING_PER_VALIDATOR);
    uint32_t low = 0xffffffffu;
    for (size_t i = 0; i < p.n; i++)
        if (p.votes[i].target.height < low)
            low = p.votes[i].target.height;
    CHECK_EQ_INT(low, 114);
    /* lower than everything it holds: not added */
    v = vote(&c, 2, b100, cp(105, 3));
    CHECK(zbc_vote_pending_add(&p, &c.g, &v, 90, 100, &added, &err));
    CHECK(!added);
    /* another validator is not crowded out */
    v = vote(&c, 3, b100, cp(105, 3));
    CHECK(zbc_vote_pending_add(&p, &c.g, &v, 90, 100, &added, &err));
    CHECK(added);
    CHECK_EQ_INT(p.n, ZBC_VOTE_PENDING_PER_VALIDATOR + 1);
    /* finality at 120 drops the votes at or below it */
    zbc_vote_pending_prune(&p, 120);
    for (size_t i = 0; i < p.n; i++)
        CHECK(p.votes[i].target.height > 120);
    CHECK_EQ_INT(p.n, 9);
}

int main(void)
{
    TEST_RUN(test_pinned_bytes);
    TEST_RUN(test_sign_verify_roundtrip);
    TEST_RUN(test_wrong_genesis);
    TEST_RUN(test_non_validator_and_heights);
    TEST_RUN(test_tampered);
    TEST_RUN(test_decode_lengths);
    TEST_RUN(test_threshold);
    TEST_RUN(test_slashable);
    TEST_RUN(test_thresholds_on_a_chain);
    TEST_RUN(test_one_validator);
    TEST_RUN(test_finality_needs_source_and_child);
    TEST_RUN(test_justification_chain);
    TEST_RUN(test_fork_and_switch);
    TEST_RUN(test_conflicting_finality);
    TEST_RUN(test_make_vote_rules);
    TEST_RUN(test_prune);
    TEST_RUN(test_gap);
    TEST_RUN(test_add_block_refusals);
    TEST_RUN(test_vote_set);
    TEST_RUN(test_reorg_rule);
    TEST_RUN(test_branch_cmp);
    TEST_RUN(test_pending);
    return test_summary("consensus_vote");
}
