/* The node's finality across a branch switch (node/zbcd/finality.c,
 * docs/protocol-chain.md §8.8): the stored vote set of a height always
 * names the block stored at that height — the check zbc-audit makes.
 *
 * Found by the soak (docs/soak.md §7): a validator produced its own block
 * late and voted for it; the network's heavier block at the same height
 * arrived, the node switched, and a block waiting for it (an orphan, with
 * its votes already buffered) moved finality before the switch reached
 * the finality hook's tip callback: the votes were written along the path
 * of the undone tip, putting the undone block's vote set back at its
 * height. */
#include "node/zbcd/log.h"
#include "test_reorg_fixture.h"
#include "consensus/vote.h"
#include "node/zbcd/finality.h"

static uint64_t clock_ms = LATE_MS;

static uint64_t test_clock(void)
{
    return clock_ms;
}

struct voted {
    const struct zbc_genesis *g;
    uint32_t height;
    bool found;
    int ok;
    uint8_t target[32];
    uint8_t block[32];
    char msg[256];
};

/* The stored vote set at height, decoded, and the best-chain block there. */
static int voted_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    static struct zbc_vote votes[ZBC_VALIDATORS_MAX];
    struct voted *v = arg;
    uint8_t *set = NULL, prev[32];
    size_t len = 0, n = 0;
    struct zbc_checkpoint cp;
    if (!zbc_finality_block_id(t, v->height, &cp, prev, err) ||
        !zbc_store_txn_votes(t, v->height, &set, &len, &v->found, err))
        return 0;
    memcpy(v->block, cp.hash, 32);
    if (!v->found)
        return 1;
    struct zbc_err e = {{0}};
    v->ok = zbc_vote_set_decode(v->g, set, len, votes, &n, &e);
    snprintf(v->msg, sizeof v->msg, "%s", e.msg);
    if (v->ok)
        memcpy(v->target, votes[0].target.hash, 32);
    free(set);
    return 1;
}

/* Every stored vote set from 1 to the tip names the block at its height. */
static void check_stored_sets(struct zbc_chain *c, const struct zbc_genesis *g)
{
    uint32_t tip = zbc_chain_tip(c)->height;
    for (uint32_t h = 1; h <= tip; h++) {
        struct voted v = {.g = g, .height = h};
        struct zbc_err err = {{0}};
        CHECK(zbc_store_read(zbc_chain_store(c), voted_fn, &v, &err));
        if (!v.found)
            continue;
        CHECK(v.ok);
        if (!v.ok)
            fprintf(stderr, "height %u: %s\n", h, v.msg);
        CHECK_EQ_MEM(v.target, v.block, 32);
    }
}

static void checkpoint_of(struct zbc_chain *c, uint32_t height,
                          struct zbc_checkpoint *cp)
{
    uint8_t *bytes = NULL;
    size_t len = 0;
    bool found = false;
    struct zbc_err err = {{0}};
    struct zbc_block_header hdr;
    CHECK(zbc_chain_block(c, height, &bytes, &len, &found, &err) && found);
    CHECK(bytes != NULL && len >= ZBC_BLOCK_HEADER_LEN &&
          zbc_block_header_decode(&hdr, bytes, ZBC_BLOCK_HEADER_LEN, &err));
    free(bytes);
    cp->height = height;
    zbc_block_hash(cp->hash, &hdr);
}

static void give_vote(struct zbc_finality *fin, const struct net *n,
                      const struct zbc_checkpoint *source,
                      const struct zbc_checkpoint *target,
                      const uint8_t sk[64])
{
    struct zbc_vote v;
    struct zbc_err err = {{0}};
    CHECK(zbc_vote_sign(&v, &n->g, source, target, sk, &err));
    uint8_t raw[ZBC_VOTE_LEN];
    zbc_vote_encode(raw, &v);
    CHECK_EQ_INT(zbc_finality_receive(fin, raw, sizeof raw, &err),
                 ZBC_VOTE_RX_NEW);
}

/* The rank of key at height 1 (a fresh chain's next slot). */
static uint32_t rank_at_1(struct net *n, const char *name,
                          const struct zbc_node_key *k)
{
    struct zbc_chain *c = open_node(n, name, k);
    struct zbc_slot slot;
    struct zbc_err err = {{0}};
    CHECK(zbc_chain_next_slot(c, &slot, &err));
    zbc_chain_close(c);
    return slot.rank;
}

struct final_rec {
    uint32_t height;
    uint8_t hash[32];
    bool found;
};

static int final_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct final_rec *f = arg;
    return zbc_store_txn_checkpoint(t, "final", &f->height, f->hash,
                                    &f->found, err);
}

/* and_final: a second waiting block (Y3) brings votes Y2 -> Y3 that make
 * Y2 final inside the same receive, as in the soak's log ("745 ... is
 * final" before "chain switched"). */
static void switch_under_finality(bool and_final)
{
    struct net n;
    net_setup(&n);
    /* the node under test (A) is the validator ranked second at height 1,
     * the network's block there (by the first-ranked one) is heavier */
    bool k1_first = rank_at_1(&n, "r1", &n.k1) == 0;
    const struct zbc_node_key *ka = k1_first ? &n.k2 : &n.k1;
    const struct zbc_node_key *kn = k1_first ? &n.k1 : &n.k2;
    struct zbc_chain *a = open_node(&n, "a", ka);
    struct zbc_chain *net = open_node(&n, "net", kn);
    char adir[160];
    snprintf(adir, sizeof adir, "%s/a", n.base);
    struct zbc_finality *fin = NULL;
    struct zbc_err err = {{0}};
    struct zbc_finality_config fc = {.chain = a, .key = ka, .datadir = adir,
                                     .now_ms = test_clock};
    CHECK(zbc_finality_open(&fin, &fc, &err));
    if (fin == NULL) {
        zbc_chain_close(a);
        zbc_chain_close(net);
        net_teardown(&n);
        return;
    }

    /* A's own block 1 (X), voted by A: one vote of two, stored */
    CHECK(produce(a, 0));
    struct zbc_checkpoint x;
    checkpoint_of(a, 1, &x);
    struct voted v = {.g = &n.g, .height = 1};
    CHECK(zbc_store_read(zbc_chain_store(a), voted_fn, &v, &err));
    CHECK(v.found && v.ok);
    CHECK_EQ_MEM(v.target, x.hash, 32);

    /* the network's blocks 1 (Y, heavier) and 2 (Y2), and both
     * validators' votes genesis -> Y2, which justify Y2 */
    CHECK(produce(net, 0) && produce(net, 0));
    if (and_final)
        CHECK(produce(net, 0));
    struct zbc_checkpoint g0 = {.height = 0}, y2, y3;
    memcpy(g0.hash, n.g.hash, 32);
    checkpoint_of(net, 2, &y2);
    give_vote(fin, &n, &g0, &y2, n.k1.sk); /* buffered: Y2 not held */
    give_vote(fin, &n, &g0, &y2, n.k2.sk);
    if (and_final) {
        checkpoint_of(net, 3, &y3);
        give_vote(fin, &n, &y2, &y3, n.k1.sk);
        give_vote(fin, &n, &y2, &y3, n.k2.sk);
    }
    CHECK_EQ_INT(zbc_finality_justified(fin)->height, 0);

    /* Y2 (and Y3) first (held as orphans), then Y: A switches to Y, then
     * applies the waiting blocks, whose buffered votes justify Y2 (and
     * make it final) — all inside one receive, before the tip callback */
    uint32_t top = and_final ? 3 : 2;
    for (uint32_t h = top; h >= 2; h--)
        CHECK_EQ_INT(give(a, net, h, NULL), ZBC_RECV_ORPHAN);
    struct zbc_recv_result r;
    give(a, net, 1, &r);
    CHECK_EQ_INT(r.undone, 1);
    CHECK_EQ_INT(zbc_chain_tip(a)->height, top);
    CHECK_EQ_MEM(zbc_chain_tip(a)->hash, zbc_chain_tip(net)->hash, 32);
    CHECK_EQ_INT(zbc_finality_justified(fin)->height, top);
    CHECK_EQ_MEM(zbc_finality_justified(fin)->hash,
                 and_final ? y3.hash : y2.hash, 32);
    struct final_rec fr = {0};
    CHECK(zbc_store_read(zbc_chain_store(a), final_fn, &fr, &err));
    if (and_final) {
        /* Y2 final: the chain, the view and the ledger's record agree */
        CHECK_EQ_INT(zbc_finality_final(fin)->height, 2);
        CHECK_EQ_INT(zbc_chain_final_height(a), 2);
        CHECK(fr.found);
        CHECK_EQ_INT(fr.height, 2);
        CHECK_EQ_MEM(fr.hash, y2.hash, 32);
    } else {
        CHECK_EQ_INT(zbc_chain_final_height(a), 0);
        CHECK(!fr.found || fr.height == 0);
    }

    /* the set at height 1 is Y's (none: Y has no votes), never the undone
     * X's; the one at 2 is Y2's */
    check_stored_sets(a, &n.g);
    v = (struct voted){.g = &n.g, .height = 2};
    CHECK(zbc_store_read(zbc_chain_store(a), voted_fn, &v, &err));
    CHECK(v.found && v.ok);
    CHECK_EQ_MEM(v.target, y2.hash, 32);

    /* after a restart the view built from the ledger agrees */
    zbc_finality_close(fin);
    fin = NULL;
    CHECK(zbc_finality_open(&fin, &fc, &err));
    if (fin != NULL) {
        CHECK_EQ_INT(zbc_finality_justified(fin)->height, top);
        CHECK_EQ_INT(zbc_finality_final(fin)->height, and_final ? 2 : 0);
    }
    zbc_finality_close(fin);
    zbc_chain_close(a);
    zbc_chain_close(net);
    net_teardown(&n);
}

static void test_switch_justifies(void)
{
    switch_under_finality(false);
}

static void test_switch_finalises(void)
{
    switch_under_finality(true);
}

int main(void)
{
    zbc_log_to_stderr(false);
    TEST_RUN(test_switch_justifies);
    TEST_RUN(test_switch_finalises);
    return test_summary("node_finality_reorg");
}
