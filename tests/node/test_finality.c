/* The node's finality (node/zbcd/finality.h, docs/protocol-chain.md §8)
 * on a one-validator chain: block h is final once h + 1 is voted, vote
 * sets and the final record are stored and survive a restart, the voter
 * file keeps a restarted validator from voting at a height it already
 * voted at, a damaged voter file refuses to open, bad votes from peers
 * are refused with their reason. */
#include <stdlib.h>
#include <string.h>

#include "chain_fixture.h"
#include "consensus/vote.h"
#include "node/zbcd/chain.h"
#include "node/zbcd/finality.h"
#include "node/zbcd/log.h"
#include "testlib.h"

static uint64_t clock_ms = FX_GENESIS_TIME;

static uint64_t test_clock(void)
{
    return clock_ms;
}

struct node {
    struct zbc_chain *c;
    struct zbc_finality *fin;
};

static int node_open(struct node *n, struct fixture *f, struct zbc_err *err)
{
    memset(n, 0, sizeof *n);
    struct zbc_chain_config cfg = {.ledger_dir = f->ledger, .genesis = &f->g,
                                   .key = &f->key};
    if (!zbc_chain_open(&n->c, &cfg, err))
        return 0;
    struct zbc_finality_config fc = {.chain = n->c, .key = &f->key,
                                     .datadir = f->datadir,
                                     .now_ms = test_clock};
    if (!zbc_finality_open(&n->fin, &fc, err)) {
        zbc_chain_close(n->c);
        n->c = NULL;
        return 0;
    }
    return 1;
}

static void node_close(struct node *n)
{
    zbc_finality_close(n->fin);
    zbc_chain_close(n->c);
}

static void produce(struct node *n)
{
    struct zbc_slot slot;
    struct zbc_block_info info;
    struct zbc_err err = {{0}};
    CHECK(zbc_chain_next_slot(n->c, &slot, &err));
    clock_ms = slot.earliest_ms;
    CHECK(zbc_chain_produce(n->c, clock_ms, &info, &err));
}

static void voter_file(const struct fixture *f, char *path, size_t cap)
{
    snprintf(path, cap, "%s/%s", f->datadir, ZBC_FINALITY_VOTER_FILE);
}

static void write_file(const char *path, const uint8_t *b, size_t n)
{
    FILE *fp = fopen(path, "wb");
    CHECK(fp != NULL);
    if (fp == NULL)
        return;
    CHECK_EQ_INT(fwrite(b, 1, n, fp), n);
    fclose(fp);
}

static size_t read_file(const char *path, uint8_t *b, size_t cap)
{
    FILE *fp = fopen(path, "rb");
    if (fp == NULL)
        return 0;
    size_t n = fread(b, 1, cap, fp);
    fclose(fp);
    return n;
}

struct set_read {
    uint32_t height;
    int rc;
    size_t len;
};

static int set_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct set_read *s = arg;
    uint8_t *b = NULL;
    bool found = false;
    s->rc = zbc_store_txn_votes(t, s->height, &b, &s->len, &found, err) &&
            found;
    free(b);
    return 1;
}

static void test_one_validator(void)
{
    struct fixture f;
    fx_setup(&f);
    struct node n;
    struct zbc_err err = {{0}};
    CHECK(node_open(&n, &f, &err));
    if (n.c == NULL) {
        fx_teardown(&f);
        return;
    }
    CHECK_EQ_INT(zbc_chain_final_height(n.c), 0);
    for (int i = 0; i < 5; i++)
        produce(&n);
    /* one validator: each block is final as soon as it is voted
     * (docs/protocol-chain.md §8.3) */
    CHECK_EQ_INT(zbc_finality_final(n.fin)->height, 5);
    CHECK_EQ_INT(zbc_finality_justified(n.fin)->height, 5);
    CHECK_EQ_INT(zbc_chain_final_height(n.c), 5);
    char path[256];
    voter_file(&f, path, sizeof path);
    uint8_t vf[64];
    CHECK_EQ_INT(read_file(path, vf, sizeof vf), ZBC_FINALITY_VOTER_LEN);
    CHECK_EQ_INT(vf[0], 1);
    CHECK_EQ_INT(vf[1], 5); /* last target height 5 */
    CHECK_EQ_INT(vf[5], 4); /* lock: block 4 */
    for (uint32_t h = 1; h <= 5; h++) {
        struct set_read s = {.height = h};
        CHECK(zbc_store_read(zbc_chain_store(n.c), set_fn, &s, &err));
        CHECK_EQ_INT(s.rc, 1);
        CHECK_EQ_INT(s.len, ZBC_VOTE_SET_HEADER_LEN + ZBC_VOTE_SET_ENTRY_LEN);
    }

    /* bad votes from a peer: refused with the reason */
    uint8_t junk[ZBC_VOTE_LEN + 1];
    memset(junk, 0, sizeof junk);
    CHECK_EQ_INT(zbc_finality_receive(n.fin, junk, 12, &err),
                 ZBC_VOTE_RX_BAD);
    CHECK_EQ_STR(err.msg, "vote has 12 bytes, not 169");
    junk[0] = 1;
    junk[5 + 32] = 9; /* target height 9, source 0 */
    CHECK_EQ_INT(zbc_finality_receive(n.fin, junk, ZBC_VOTE_LEN, &err),
                 ZBC_VOTE_RX_BAD);
    CHECK(strstr(err.msg, "is not a validator of this chain") != NULL);
    /* a valid vote of this validator for a block far ahead: not kept */
    struct zbc_vote v;
    struct zbc_checkpoint s0 = {.height = 0}, far = {.height = 500};
    memcpy(s0.hash, f.g.hash, 32);
    memset(far.hash, 7, 32);
    CHECK(zbc_vote_sign(&v, &f.g, &s0, &far, f.key.sk, &err));
    uint8_t raw[ZBC_VOTE_LEN];
    zbc_vote_encode(raw, &v);
    CHECK_EQ_INT(zbc_finality_receive(n.fin, raw, sizeof raw, &err),
                 ZBC_VOTE_RX_IGNORED);
    CHECK(strstr(err.msg, "more than 64 above the tip") != NULL);
    node_close(&n);

    /* restarted: the view comes back from the ledger */
    CHECK(node_open(&n, &f, &err));
    CHECK_EQ_INT(zbc_finality_final(n.fin)->height, 5);
    CHECK_EQ_INT(zbc_finality_justified(n.fin)->height, 5);
    CHECK_EQ_INT(zbc_chain_final_height(n.c), 5);
    produce(&n);
    CHECK_EQ_INT(zbc_finality_final(n.fin)->height, 6);
    node_close(&n);

    /* a voter file saying it voted up to height 8: no vote at 7 or 8
     * (rule 1), then it votes again, from its lock or higher */
    uint8_t claim[ZBC_FINALITY_VOTER_LEN];
    CHECK_EQ_INT(read_file(path, claim, sizeof claim), sizeof claim);
    claim[1] = 8;
    write_file(path, claim, sizeof claim);
    CHECK(node_open(&n, &f, &err));
    produce(&n); /* 7 */
    produce(&n); /* 8 */
    CHECK_EQ_INT(zbc_finality_final(n.fin)->height, 6);
    CHECK_EQ_INT(zbc_finality_justified(n.fin)->height, 6);
    produce(&n); /* 9: voted from 6: justified, and (one validator) final */
    CHECK_EQ_INT(zbc_finality_justified(n.fin)->height, 9);
    CHECK_EQ_INT(zbc_finality_final(n.fin)->height, 9);
    produce(&n); /* 10: voted from 9: final */
    CHECK_EQ_INT(zbc_finality_final(n.fin)->height, 10);
    node_close(&n);

    /* a damaged voter file: finality refuses to open, naming it */
    write_file(path, claim, 40);
    CHECK(!node_open(&n, &f, &err));
    CHECK(strstr(err.msg, "finality-voter has 40 bytes, not 41") != NULL);
    claim[0] = 2;
    write_file(path, claim, sizeof claim);
    CHECK(!node_open(&n, &f, &err));
    CHECK(strstr(err.msg, "version 2 is not 1") != NULL);
    fx_teardown(&f);
}

/* A ledger with more than 1440 blocks and no final one (made before
 * finality, or while it stalled): the view starts 1440 below the tip,
 * the final height stays what was stored until votes move it. */
static void test_long_ledger_without_votes(void)
{
    struct fixture f;
    fx_setup(&f);
    struct zbc_chain_config cfg = {.ledger_dir = f.ledger, .genesis = &f.g,
                                   .key = &f.key};
    struct node n;
    struct zbc_err err = {{0}};
    memset(&n, 0, sizeof n);
    CHECK(zbc_chain_open(&n.c, &cfg, &err));
    if (n.c == NULL) {
        fx_teardown(&f);
        return;
    }
    for (int i = 0; i < ZBC_REORG_MAX_DEPTH + 5; i++)
        produce(&n);
    zbc_chain_close(n.c);
    CHECK(node_open(&n, &f, &err));
    CHECK_EQ_INT(zbc_finality_final(n.fin)->height, 0);
    CHECK_EQ_INT(zbc_chain_final_height(n.c), 0);
    produce(&n); /* 1446, voted from the view's root 5: final at once */
    produce(&n); /* 1447, voted from 1446: final */
    CHECK_EQ_INT(zbc_finality_final(n.fin)->height, ZBC_REORG_MAX_DEPTH + 7);
    CHECK_EQ_INT(zbc_chain_final_height(n.c), ZBC_REORG_MAX_DEPTH + 7);
    node_close(&n);
    fx_teardown(&f);
}

int main(void)
{
    zbc_log_to_stderr(false);
    TEST_RUN(test_one_validator);
    TEST_RUN(test_long_ledger_without_votes);
    return test_summary("node_finality");
}
