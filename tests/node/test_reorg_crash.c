/* A crash in the middle of a reorg leaves a consistent chain.  This test
 * calls the reorg's steps (node/zbcd/fork.h: one LMDB write transaction
 * per block undone or applied) and "crashes" between them: the chain is
 * closed after some steps, without the rest; everything those steps
 * committed is all that survives, as after kill -9.  On reopening, the
 * start-up checks (tip record, tip block, state height, full-scan state
 * root = tip header's root) must pass, and the node must still converge
 * to the heavier branch once it receives it again. */
#include "node/zbcd/fork.h"
#include "node/zbcd/log.h"
#include "test_reorg_fixture.h"

static void test_crash_between_reorg_steps(void)
{
    bool found;
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    struct zbc_chain *b = open_node(&n, "b", &n.k2);
    struct zbc_chain *c = open_node(&n, "c", NULL);
    struct zbc_chain *e = open_node(&n, "e", NULL);
    uint8_t tx_b[32];
    CHECK(submit(b, &n, 1000, tx_b));
    CHECK(produce(b, 0) && produce(b, 0));
    CHECK(produce(a, 0) && produce(a, 0) && produce(a, 0) && produce(a, 0));
    CHECK_EQ_INT(give(c, b, 1, NULL), ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(give(c, b, 2, NULL), ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(give(e, b, 1, NULL), ZBC_RECV_EXTENDED);
    uint8_t b1_hash[32], root_e[32], root_c[32];
    memcpy(b1_hash, zbc_chain_tip(e)->hash, 32);
    zbc_chain_tip_state_root(e, root_e);

    /* step 1 of the reorg to A: undo B2, then crash */
    struct zbc_err err = {{0}};
    uint8_t *bytes = NULL;
    size_t len = 0;
    CHECK(zbc_fork_undo_tip(c, &bytes, &len, &err));
    free(bytes);
    CHECK_EQ_INT(zbc_chain_tip(c)->height, 1);
    zbc_chain_close(c);
    c = open_node(&n, "c", NULL); /* exits on any start-up refusal */
    CHECK_EQ_INT(zbc_chain_tip(c)->height, 1);
    CHECK_EQ_MEM(zbc_chain_tip(c)->hash, b1_hash, 32);
    zbc_chain_tip_state_root(c, root_c);
    CHECK_EQ_MEM(root_c, root_e, 32);
    CHECK_EQ_INT(tx_status(c, tx_b), ZBC_TX_STATUS_CONFIRMED);
    /* the undone block is gone from the ledger */
    CHECK(zbc_chain_block(c, 2, &bytes, &len, &found, &err) && !found);

    /* step 2: undo B1 (down to the genesis), apply A1, crash */
    CHECK(zbc_fork_undo_tip(c, &bytes, &len, &err));
    free(bytes);
    CHECK_EQ_INT(zbc_chain_tip(c)->height, 0);
    CHECK_EQ_INT(tx_status(c, tx_b), ZBC_TX_STATUS_NOT_FOUND);
    CHECK_EQ_INT(give(c, a, 1, NULL), ZBC_RECV_EXTENDED);
    zbc_chain_close(c);
    c = open_node(&n, "c", NULL);
    CHECK_EQ_INT(zbc_chain_tip(c)->height, 1);
    uint8_t *a1 = NULL;
    size_t a1_len = 0;
    CHECK(zbc_chain_block(a, 1, &a1, &a1_len, &found, &err) && found);
    struct zbc_block_header h;
    CHECK(zbc_block_header_decode(&h, a1, ZBC_BLOCK_HEADER_LEN, &err));
    zbc_chain_tip_state_root(c, root_c);
    CHECK_EQ_MEM(root_c, h.state_root, 32);
    free(a1);
    /* B's transfer is no longer in the chain; the pool died with the crash */
    CHECK_EQ_INT(tx_status(c, tx_b), ZBC_TX_STATUS_NOT_FOUND);

    /* the rest of A arrives: same tip and state as A */
    for (uint32_t k = 2; k <= 4; k++)
        CHECK_EQ_INT(give(c, a, k, NULL), ZBC_RECV_EXTENDED);
    CHECK_EQ_MEM(zbc_chain_tip(c)->hash, zbc_chain_tip(a)->hash, 32);
    uint8_t root_a[32];
    zbc_chain_tip_state_root(a, root_a);
    zbc_chain_tip_state_root(c, root_c);
    CHECK_EQ_MEM(root_c, root_a, 32);
    /* and B's branch, offered again, stays a lighter side branch */
    CHECK_EQ_INT(give(c, b, 1, NULL), ZBC_RECV_SIDE);
    CHECK_EQ_INT(give(c, b, 2, NULL), ZBC_RECV_SIDE);
    CHECK_EQ_MEM(zbc_chain_tip(c)->hash, zbc_chain_tip(a)->hash, 32);

    zbc_chain_close(a);
    zbc_chain_close(b);
    zbc_chain_close(c);
    zbc_chain_close(e);
    net_teardown(&n);
}

int main(void)
{
    zbc_log_set_level(ZBC_LOG_ERROR);
    TEST_RUN(test_crash_between_reorg_steps);
    return test_summary("node_reorg_crash");
}
