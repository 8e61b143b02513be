/* Fork choice and reorgs in the chain facade (node/zbcd/chain.h "network"):
 * two validators build competing branches with the real consensus layer
 * on temporary ledgers; observers receive them in various orders.
 *   - the heavier branch wins, whatever the arrival order (orphans held
 *     until their parent arrives);
 *   - after a reorg the state root equals that of a node that only ever
 *     saw the winner, and survives a restart;
 *   - transactions of undone blocks go back to the mempool;
 *   - invalid, future and too-deep blocks are refused;
 *   - a fork point exactly ZBC_REORG_MAX_DEPTH below the tip is still
 *     accepted as a side branch, one block deeper is final; an orphan at
 *     a final height is dropped.  Orphan checks and budgets:
 *     test_reorg_orphans.c. */
#include "node/zbcd/log.h"
#include "test_reorg_fixture.h"
#include "node/zbcd/fork.h"

static void test_heavier_branch_wins(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    struct zbc_chain *b = open_node(&n, "b", &n.k2);
    struct zbc_chain *c = open_node(&n, "c", NULL);
    struct zbc_chain *d = open_node(&n, "d", NULL);
    uint8_t tx_b[32], tx_a[32];
    /* branch B: 2 blocks with a transfer; branch A: 4 blocks with another */
    CHECK(submit(b, &n, 1000, tx_b));
    CHECK(produce(b, 0) && produce(b, 0));
    CHECK(submit(a, &n, 2000, tx_a));
    CHECK(produce(a, 0) && produce(a, 0) && produce(a, 0) && produce(a, 0));
    CHECK_EQ_INT(zbc_chain_tip(a)->height, 4);
    CHECK_EQ_INT(tx_status(b, tx_b), ZBC_TX_STATUS_CONFIRMED);

    /* c first follows B */
    CHECK_EQ_INT(give(c, b, 1, NULL), ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(give(c, b, 2, NULL), ZBC_RECV_EXTENDED);
    CHECK_EQ_MEM(zbc_chain_tip(c)->hash, zbc_chain_tip(b)->hash, 32);
    CHECK_EQ_INT(tx_status(c, tx_b), ZBC_TX_STATUS_CONFIRMED);

    /* then gets A's blocks newest first: held as orphans until block 1 */
    CHECK_EQ_INT(give(c, a, 4, NULL), ZBC_RECV_ORPHAN);
    CHECK_EQ_INT(give(c, a, 3, NULL), ZBC_RECV_ORPHAN);
    CHECK_EQ_INT(give(c, a, 4, NULL), ZBC_RECV_DUPLICATE);
    CHECK(!zbc_chain_knows_block(c, zbc_chain_tip(a)->hash));
    CHECK_EQ_INT(give(c, a, 2, NULL), ZBC_RECV_ORPHAN);
    struct zbc_recv_result r;
    give(c, a, 1, &r);
    CHECK(r.kind == ZBC_RECV_SIDE || r.kind == ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(r.undone, 2);
    CHECK_EQ_INT(r.applied, 4);
    CHECK_EQ_INT(zbc_chain_tip(c)->height, 4);
    CHECK_EQ_MEM(zbc_chain_tip(c)->hash, zbc_chain_tip(a)->hash, 32);
    /* node/info "forks": one switch that undid B's two blocks */
    struct zbc_fork_stats fs;
    zbc_fork_stats(c, &fs);
    CHECK_EQ_INT(fs.branch_switches, 1);
    CHECK_EQ_INT(fs.blocks_undone, 2);
    CHECK_EQ_INT(fs.deepest_switch, 2);

    /* d only ever saw A: same state */
    for (uint32_t h = 1; h <= 4; h++)
        CHECK_EQ_INT(give(d, a, h, NULL), ZBC_RECV_EXTENDED);
    uint8_t ra[32], rc[32], rd[32];
    state_root(a, ra);
    state_root(c, rc);
    state_root(d, rd);
    CHECK_EQ_MEM(rc, ra, 32);
    CHECK_EQ_MEM(rd, ra, 32);

    /* B's transfer left the chain and is pending again; A's is in */
    CHECK_EQ_INT(tx_status(c, tx_b), ZBC_TX_STATUS_MEMPOOL);
    CHECK_EQ_INT(tx_status(c, tx_a), ZBC_TX_STATUS_CONFIRMED);
    CHECK_EQ_INT(zbc_chain_mempool_count(c), 1);
    /* the undone branch is kept (known, valid) and now lighter */
    CHECK(zbc_chain_knows_block(c, zbc_chain_tip(b)->hash));
    CHECK_EQ_INT(give(c, b, 2, NULL), ZBC_RECV_DUPLICATE);
    /* a lighter branch stays on the side */
    CHECK_EQ_INT(give(d, b, 1, NULL), ZBC_RECV_SIDE);
    CHECK_EQ_INT(give(d, b, 2, NULL), ZBC_RECV_SIDE);
    CHECK_EQ_MEM(zbc_chain_tip(d)->hash, zbc_chain_tip(a)->hash, 32);
    zbc_fork_stats(d, &fs); /* side blocks held, never switched */
    CHECK_EQ_INT(fs.branch_switches, 0);
    CHECK_EQ_INT(fs.blocks_undone, 0);

    /* B itself reorgs onto A when it hears of it */
    for (uint32_t h = 1; h <= 4; h++)
        give(b, a, h, NULL);
    CHECK_EQ_MEM(zbc_chain_tip(b)->hash, zbc_chain_tip(a)->hash, 32);
    uint8_t rb[32];
    state_root(b, rb);
    CHECK_EQ_MEM(rb, ra, 32);
    CHECK_EQ_INT(tx_status(b, tx_b), ZBC_TX_STATUS_MEMPOOL);

    /* the reorged ledger reopens (tip, state root and height verified) */
    zbc_chain_close(c);
    c = open_node(&n, "c", NULL);
    CHECK_EQ_MEM(zbc_chain_tip(c)->hash, zbc_chain_tip(a)->hash, 32);
    state_root(c, rc);
    CHECK_EQ_MEM(rc, ra, 32);

    /* A's next block extends everyone */
    CHECK(produce(a, 0));
    CHECK_EQ_INT(give(c, a, 5, NULL), ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(give(b, a, 5, NULL), ZBC_RECV_EXTENDED);

    zbc_chain_close(a);
    zbc_chain_close(b);
    zbc_chain_close(c);
    zbc_chain_close(d);
    net_teardown(&n);
}

/* Equal weight: the earlier tip timestamp wins, whichever came first. */
static void test_tie_earlier_timestamp(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    struct zbc_chain *a2 = open_node(&n, "a2", &n.k1);
    struct zbc_chain *c = open_node(&n, "c", NULL);
    struct zbc_chain *d = open_node(&n, "d", NULL);
    /* same producer, same rank, block 1 at two times */
    CHECK(produce(a, 0));
    CHECK(produce(a2, 7));
    CHECK(zbc_chain_tip(a)->timestamp_ms < zbc_chain_tip(a2)->timestamp_ms);
    CHECK_EQ_INT(give(c, a2, 1, NULL), ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(give(c, a, 1, NULL), ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(give(d, a, 1, NULL), ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(give(d, a2, 1, NULL), ZBC_RECV_SIDE);
    CHECK_EQ_MEM(zbc_chain_tip(c)->hash, zbc_chain_tip(a)->hash, 32);
    CHECK_EQ_MEM(zbc_chain_tip(d)->hash, zbc_chain_tip(a)->hash, 32);
    zbc_chain_close(a);
    zbc_chain_close(a2);
    zbc_chain_close(c);
    zbc_chain_close(d);
    net_teardown(&n);
}

static void test_bad_blocks_refused(void)
{
    bool found;
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    struct zbc_chain *c = open_node(&n, "c", NULL);
    CHECK(produce(a, 0));
    uint8_t *bytes = NULL;
    size_t len = 0;
    struct zbc_err err = {{0}};
    struct zbc_recv_result r;
    CHECK(zbc_chain_block(a, 1, &bytes, &len, &found, &err) && found);

    /* garbage */
    static const uint8_t junk[5] = {1, 2, 3, 4, 5};
    CHECK(!zbc_chain_receive_block(c, junk, sizeof junk, LATE_MS, NULL, &r, &err));
    CHECK_EQ_INT(r.kind, ZBC_RECV_INVALID);
    /* a flipped signature byte */
    bytes[300] ^= 1;
    CHECK(!zbc_chain_receive_block(c, bytes, len, LATE_MS, NULL, &r, &err));
    CHECK_EQ_INT(r.kind, ZBC_RECV_INVALID);
    CHECK(strstr(err.msg, "signature") != NULL);
    bytes[300] ^= 1;
    /* more than 10 s ahead of our clock: dropped, not stored */
    const struct zbc_parent *tip = zbc_chain_tip(a);
    CHECK(zbc_chain_receive_block(c, bytes, len,
                                  tip->timestamp_ms - ZBC_CLOCK_SKEW_MS - 1,
                                  NULL, &r, &err));
    CHECK_EQ_INT(r.kind, ZBC_RECV_FUTURE);
    CHECK_EQ_INT(zbc_chain_tip(c)->height, 0);
    CHECK(zbc_chain_receive_block(c, bytes, len, LATE_MS, NULL, &r, &err));
    CHECK_EQ_INT(r.kind, ZBC_RECV_EXTENDED);
    /* a side block with a bad signature is refused too */
    struct zbc_chain *b = open_node(&n, "b", &n.k2);
    CHECK(produce(b, 0));
    free(bytes);
    CHECK(zbc_chain_block(b, 1, &bytes, &len, &found, &err) && found);
    bytes[300] ^= 1;
    CHECK(!zbc_chain_receive_block(c, bytes, len, LATE_MS, NULL, &r, &err));
    CHECK_EQ_INT(r.kind, ZBC_RECV_INVALID);
    bytes[300] ^= 1;
    CHECK(zbc_chain_receive_block(c, bytes, len, LATE_MS, NULL, &r, &err));
    CHECK(r.kind == ZBC_RECV_SIDE || r.kind == ZBC_RECV_EXTENDED);
    free(bytes);
    zbc_chain_close(a);
    zbc_chain_close(b);
    zbc_chain_close(c);
    net_teardown(&n);
}

static void test_locator(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    struct zbc_chain *b = open_node(&n, "b", &n.k2);
    for (int i = 0; i < 30; i++)
        CHECK(produce(a, 0));
    uint8_t loc[ZBC_CHAIN_LOCATOR_MAX][32];
    struct zbc_err err = {{0}};
    size_t nl = zbc_chain_locator(a, loc, ZBC_CHAIN_LOCATOR_MAX, &err);
    /* 30..21 one by one, then 19, 15, 7, then the genesis */
    CHECK_EQ_INT(nl, 14);
    CHECK_EQ_MEM(loc[0], zbc_chain_tip(a)->hash, 32);
    CHECK_EQ_MEM(loc[nl - 1], n.g.hash, 32);
    uint32_t h = 99;
    CHECK(zbc_chain_locate(a, (const uint8_t (*)[32])loc, nl, &h, &err));
    CHECK_EQ_INT(h, 30);
    /* b shares only the genesis */
    CHECK(zbc_chain_locate(b, (const uint8_t (*)[32])loc, nl, &h, &err));
    CHECK_EQ_INT(h, 0);
    /* a node holding blocks 1..19: block 19 is the first locator entry
     * it has */
    for (uint32_t k = 1; k <= 19; k++)
        give(b, a, k, NULL);
    CHECK(zbc_chain_locate(b, (const uint8_t (*)[32])loc, nl, &h, &err));
    CHECK_EQ_INT(h, 19);
    zbc_chain_close(a);
    zbc_chain_close(b);
    net_teardown(&n);
}

static void test_reorg_depth_limit(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    struct zbc_chain *b = open_node(&n, "b", &n.k2);
    struct zbc_chain *e = open_node(&n, "e", &n.k2);
    struct zbc_chain *c = open_node(&n, "c", NULL);
    for (uint32_t h = 1; h <= ZBC_REORG_MAX_DEPTH + 1; h++) {
        if (!produce(a, 0)) {
            CHECK(0);
            break;
        }
    }
    for (uint32_t h = 1; h <= ZBC_REORG_MAX_DEPTH; h++)
        give(c, a, h, NULL);
    CHECK_EQ_INT(zbc_chain_tip(c)->height, ZBC_REORG_MAX_DEPTH);
    /* forks at the genesis, exactly 1440 below the tip: still a side */
    CHECK(produce(b, 0));
    CHECK_EQ_INT(give(c, b, 1, NULL), ZBC_RECV_SIDE);
    /* one block more and another fork at the genesis is final */
    CHECK_EQ_INT(give(c, a, ZBC_REORG_MAX_DEPTH + 1, NULL),
                 ZBC_RECV_EXTENDED);
    CHECK(produce(e, 3));
    CHECK_EQ_INT(give(c, e, 1, NULL), ZBC_RECV_TOO_DEEP);
    CHECK(!zbc_chain_knows_block(c, zbc_chain_tip(e)->hash));
    CHECK_EQ_MEM(zbc_chain_tip(c)->hash, zbc_chain_tip(a)->hash, 32);
    /* an orphan at height 2 is held while it may still be chosen, and
     * dropped when the tip moves on and height 2 becomes final */
    size_t n_orphans, orphan_bytes;
    CHECK(produce(e, 0));
    CHECK_EQ_INT(give(c, e, 2, NULL), ZBC_RECV_ORPHAN);
    zbc_chain_orphans(c, NULL, &n_orphans, &orphan_bytes);
    CHECK_EQ_INT(n_orphans, 1);
    CHECK(produce(a, 0));
    CHECK_EQ_INT(give(c, a, ZBC_REORG_MAX_DEPTH + 2, NULL),
                 ZBC_RECV_EXTENDED);
    zbc_chain_orphans(c, NULL, &n_orphans, &orphan_bytes);
    CHECK_EQ_INT(n_orphans, 0);
    CHECK_EQ_INT(orphan_bytes, 0);
    /* and sent again, it is final: refused, not held */
    CHECK_EQ_INT(give(c, e, 2, NULL), ZBC_RECV_TOO_DEEP);
    zbc_chain_orphans(c, NULL, &n_orphans, &orphan_bytes);
    CHECK_EQ_INT(n_orphans, 0);
    zbc_chain_close(a);
    zbc_chain_close(b);
    zbc_chain_close(e);
    zbc_chain_close(c);
    net_teardown(&n);
}

int main(void)
{
    zbc_log_set_level(ZBC_LOG_ERROR);
    TEST_RUN(test_heavier_branch_wins);
    TEST_RUN(test_tie_earlier_timestamp);
    TEST_RUN(test_bad_blocks_refused);
    TEST_RUN(test_locator);
    TEST_RUN(test_reorg_depth_limit);
    return test_summary("node_reorg");
}
