/* The node-local indexes written in batches (docs/node.md §3 "Index
 * flushes"): between two flushes a block's history and app entries are
 * held in memory and every read answers from them (a transaction's
 * position is in the ledger with its block: block_txs); a flush
 * writes them all and moves the markers to the tip; a crash (the process
 * gone without closing) loses only what was held, and the next open
 * catches it up from the stored blocks. */
#include <sys/wait.h>
#include <unistd.h>

#include "node/zbcd/chain_internal.h"
#include "node/zbcd/history.h"
#include "node/zbcd/log.h"
#include "node/zbcd/tx_index.h"
#include "test_reorg_fixture.h"

struct stored_args {
    const uint8_t *h;
    uint32_t *height, *index;
    bool found;
};

static int stored_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct stored_args *a = arg;
    struct zbc_store_meta m;
    if (!zbc_store_txn_meta(t, &m, err))
        return 0;
    for (uint32_t bh = 1; m.has_tip && bh <= m.tip_height && !a->found; bh++)
        if (!zbc_store_txn_block_tx_find(t, bh, a->h, a->index, &a->found,
                                         err))
            return 0;
        else if (a->found)
            *a->height = bh;
    return 1;
}

/* Where the ledger itself (not the chain) lists transaction h: every
 * stored block's block_txs record, read one by one. */
static bool stored(struct zbc_chain *c, const uint8_t h[32], uint32_t *height,
                   uint32_t *index)
{
    struct stored_args a = {h, height, index, false};
    struct zbc_err err = {{0}};
    CHECK(zbc_store_read(zbc_chain_store(c), stored_fn, &a, &err));
    return a.found;
}

static void where(struct zbc_chain *c, const uint8_t h[32], uint32_t *height,
                  uint32_t *index)
{
    struct zbc_tx_lookup l;
    struct zbc_err err = {{0}};
    CHECK(zbc_chain_tx_status(c, h, &l, &err));
    CHECK_EQ_INT(l.status, ZBC_TX_STATUS_CONFIRMED);
    *height = l.height;
    *index = l.index;
}

/* bob's whole history, newest first, as (height, index, kind) triples. */
static size_t bob_history(struct zbc_chain *c, struct net *n, uint32_t *out)
{
    static struct zbc_history_page p;
    struct zbc_err err = {{0}};
    size_t k = 0;
    bool before = false;
    uint32_t bh = 0, bi = 0;
    do { /* two entries a page: the cursor crosses held and stored ones */
        CHECK(zbc_chain_history_page(c, &n->bob, before, bh, bi, 2, &p,
                                     &err));
        for (size_t i = 0; i < p.n && k < 300; i++) {
            out[k++] = p.e[i].height;
            out[k++] = p.e[i].index;
            out[k++] = p.e[i].ev.kind;
        }
        if (p.n > 0) {
            before = true;
            bh = p.e[p.n - 1].height;
            bi = p.e[p.n - 1].index;
        }
    } while (p.more);
    return k;
}

static void test_held_then_flushed(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    CHECK_EQ_INT(zbc_chain_index_held(a), 0);
    uint8_t tx1[32], tx2[32], tx3[32];
    CHECK(submit(a, &n, 1000, tx1));
    CHECK(produce(a, 0));
    CHECK(submit(a, &n, 1001, tx2));
    CHECK(submit(a, &n, 1002, tx3));
    CHECK(produce(a, 0));
    CHECK_EQ_INT(zbc_chain_index_held(a), 2);
    uint32_t h, i, sh, si;
    /* positions are in the ledger with their blocks, never held */
    CHECK(stored(a, tx1, &sh, &si));
    CHECK_EQ_INT(sh, 1);
    CHECK_EQ_INT(si, 0);
    CHECK(stored(a, tx3, &sh, &si));
    CHECK_EQ_INT(sh, 2);
    CHECK_EQ_INT(si, 1);
    where(a, tx1, &h, &i);
    CHECK_EQ_INT(h, 1);
    CHECK_EQ_INT(i, 0);
    where(a, tx3, &h, &i);
    CHECK_EQ_INT(h, 2);
    CHECK_EQ_INT(i, 1);
    uint32_t held_hist[300], flushed_hist[300];
    size_t nh = bob_history(a, &n, held_hist);
    CHECK_EQ_INT(nh, 9); /* three transfers to bob */
    CHECK_EQ_INT(held_hist[0], 2);
    CHECK_EQ_INT(held_hist[6], 1);

    /* the flush writes the history: the same answers */
    struct zbc_err err = {{0}};
    CHECK(zbc_chain_index_flush(a, &err));
    CHECK_EQ_INT(zbc_chain_index_held(a), 0);
    CHECK(stored(a, tx3, &sh, &si));
    CHECK_EQ_INT(sh, 2);
    CHECK_EQ_INT(si, 1);
    where(a, tx3, &h, &i);
    CHECK_EQ_INT(h, 2);
    CHECK_EQ_INT(i, 1);
    CHECK_EQ_INT(bob_history(a, &n, flushed_hist), nh);
    CHECK_EQ_MEM(held_hist, flushed_hist, nh * sizeof held_hist[0]);

    /* one more block held on top of flushed ones: a page crosses both */
    uint8_t tx4[32];
    CHECK(submit(a, &n, 1003, tx4));
    CHECK(produce(a, 0));
    CHECK_EQ_INT(zbc_chain_index_held(a), 1);
    CHECK_EQ_INT(bob_history(a, &n, flushed_hist), nh + 3);
    CHECK_EQ_INT(flushed_hist[0], 3);
    CHECK_EQ_MEM(held_hist, flushed_hist + 3, nh * sizeof held_hist[0]);

    /* closing flushes */
    zbc_chain_close(a);
    a = open_node(&n, "a", &n.k1);
    CHECK_EQ_INT(zbc_chain_index_held(a), 0);
    CHECK(stored(a, tx4, &sh, &si));
    CHECK_EQ_INT(sh, 3);
    zbc_chain_close(a);
    net_teardown(&n);
}

/* kill -9 with entries held: the next open (with another interval)
 * catches them up. */
static void test_crash_catch_up(void)
{
    struct net n;
    net_setup(&n);
    uint8_t tx[3][32];
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) { /* the node that dies, writing a slice a block */
        struct zbc_chain_config cfg = {.index_flush_blocks = 2};
        struct zbc_chain *a = open_node_cfg(&n, "a", &n.k1, cfg);
        int ok = 1;
        for (int k = 0; ok && k < 3; k++) {
            ok = submit(a, &n, 1000 + (uint64_t)k, tx[k]) && produce(a, 0);
            zbc_chain_index_maintain(a);
        }
        /* slices written at 2 and 3: markers at 2, block 3 half stored */
        ok = ok && zbc_chain_index_held(a) == 1;
        _exit(ok ? 0 : 1); /* no close: what was held is lost */
    }
    int status = 0;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    /* the same transactions, made again here for their hashes */
    struct zbc_chain *b = open_node(&n, "b", &n.k1);
    CHECK(submit(b, &n, 1000, tx[0]) && submit(b, &n, 1001, tx[1]) &&
          submit(b, &n, 1002, tx[2]));
    zbc_chain_close(b);

    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    CHECK_EQ_INT(zbc_chain_tip(a)->height, 3);
    /* caught up on open and written: the ledger has every entry */
    CHECK_EQ_INT(zbc_chain_index_held(a), 0);
    for (uint32_t k = 0; k < 3; k++) {
        uint32_t h = 0, i = 9;
        CHECK(stored(a, tx[k], &h, &i));
        CHECK_EQ_INT(h, k + 1);
        CHECK_EQ_INT(i, 0);
    }
    uint32_t hist[300];
    CHECK_EQ_INT(bob_history(a, &n, hist), 9);
    zbc_chain_close(a);
    net_teardown(&n);
}

/* Slices: with an interval of 2, the event loop's maintenance writes one
 * slice a block, each once it holds 2 blocks; reads are right whatever
 * each slice's floor; without the loop the chain writes them all itself
 * at three intervals. */
static void test_slices(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain_config cfg = {.index_flush_blocks = 2};
    struct zbc_chain *a = open_node_cfg(&n, "a", &n.k1, cfg);
    uint8_t tx[6][32];
    uint32_t hist[300], h, i;
    for (int k = 0; k < 2; k++) {
        CHECK(submit(a, &n, 1000 + (uint64_t)k, tx[k]));
        CHECK(produce(a, 0));
        zbc_chain_index_maintain(a);
    }
    /* block 2 made one slice due: written; the other waits */
    CHECK_EQ_INT(a->ix_floor[0] + a->ix_floor[1], 2);
    CHECK_EQ_INT(zbc_chain_index_held(a), 2);
    zbc_chain_index_maintain(a); /* one a block: nothing more at this tip */
    CHECK_EQ_INT(a->ix_floor[0] + a->ix_floor[1], 2);
    for (int k = 2; k < 4; k++) {
        CHECK(submit(a, &n, 1000 + (uint64_t)k, tx[k]));
        CHECK(produce(a, 0));
        zbc_chain_index_maintain(a);
        CHECK(zbc_chain_index_held(a) <= 2);
    }
    CHECK_EQ_INT(a->ix_floor[0] + a->ix_floor[1], 7); /* 3 and 4 */
    for (int k = 0; k < 4; k++) {
        where(a, tx[k], &h, &i);
        CHECK_EQ_INT(h, (uint32_t)k + 1);
    }
    CHECK_EQ_INT(bob_history(a, &n, hist), 12);

    /* refilled from the lowest marker (3): block 4's entries are held
     * while one slice also has them stored; every answer counts them
     * once */
    a->ix_lost = true;
    struct zbc_err err = {{0}};
    CHECK(zbc_chain_index_ready(a, &err));
    CHECK_EQ_INT(zbc_chain_index_held(a), 1);
    CHECK_EQ_INT(bob_history(a, &n, hist), 12);
    CHECK_EQ_INT(hist[0], 4);
    CHECK_EQ_INT(hist[3], 3);
    where(a, tx[3], &h, &i);
    CHECK_EQ_INT(h, 4);

    /* no loop: the chain writes everything at 3 intervals held */
    for (int k = 4; k < 6; k++) {
        CHECK(submit(a, &n, 1000 + (uint64_t)k, tx[k]));
        CHECK(produce(a, 0));
    }
    CHECK_EQ_INT(zbc_chain_index_held(a), 3);
    CHECK(produce(a, 0) && produce(a, 0));
    CHECK_EQ_INT(zbc_chain_index_held(a), 5);
    CHECK(produce(a, 0));
    CHECK_EQ_INT(zbc_chain_index_held(a), 0);
    uint32_t sh, si;
    CHECK(stored(a, tx[5], &sh, &si));
    CHECK_EQ_INT(sh, 6);
    CHECK_EQ_INT(bob_history(a, &n, hist), 18);
    zbc_chain_close(a);

    /* above the most: refused with the reason */
    struct zbc_chain *c = NULL;
    char dir[256];
    snprintf(dir, sizeof dir, "%s/a", n.base);
    struct zbc_chain_config big = {.ledger_dir = dir, .genesis = &n.g,
                                   .index_flush_blocks =
                                       ZBC_CHAIN_INDEX_FLUSH_MAX + 1};
    CHECK(!zbc_chain_open(&c, &big, &err));
    CHECK(strstr(err.msg, "index flush interval 257 is above 256") != NULL);
    net_teardown(&n);
}

/* A fresh ledger whose first blocks are held, none written yet, refilled
 * from the ledger (as after a sync batch lost to a full disk: the soak's
 * seed 2669146497 found "meta history_tip names no block of the best
 * chain" there): the markers exist from the start, at the genesis. */
static void test_refill_before_first_write(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    uint8_t tx[32];
    CHECK(submit(a, &n, 1000, tx));
    CHECK(produce(a, 0) && produce(a, 0));
    CHECK_EQ_INT(zbc_chain_index_held(a), 2);
    a->ix_lost = true;
    struct zbc_err err = {{0}};
    CHECK(zbc_chain_index_ready(a, &err));
    if (err.msg[0] != 0)
        fprintf(stderr, "  %s\n", err.msg);
    CHECK_EQ_INT(zbc_chain_index_held(a), 2);
    uint32_t h = 0, i = 9, hist[300];
    where(a, tx, &h, &i);
    CHECK_EQ_INT(h, 1);
    CHECK_EQ_INT(bob_history(a, &n, hist), 3);
    zbc_chain_close(a);
    net_teardown(&n);
}

/* A reorg undoes held blocks: the slices' floors go back to the new tip,
 * not the undone one (the soak's seed 2669146497: a slice written after
 * a reorg moved the markers past the new branch's first block, whose
 * other entries a kill -9 then lost from the index of the time). */
static void test_reorg_then_refill(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    struct zbc_chain *b = open_node(&n, "b", &n.k2);
    struct zbc_chain_config two = {.index_flush_blocks = 2};
    struct zbc_chain *c = open_node_cfg(&n, "c", NULL, two);
    uint8_t tx_b[32], tx_a[4][32];
    CHECK(submit(b, &n, 1000, tx_b));
    CHECK(produce(b, 0) && produce(b, 0));
    for (int k = 0; k < 4; k++) {
        CHECK(submit(a, &n, 2000 + (uint64_t)k, tx_a[k]));
        CHECK(produce(a, 0));
    }
    CHECK_EQ_INT(give(c, b, 1, NULL), ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(give(c, b, 2, NULL), ZBC_RECV_EXTENDED);
    for (uint32_t h = 1; h <= 4; h++)
        give(c, a, h, NULL);
    CHECK_EQ_MEM(zbc_chain_tip(c)->hash, zbc_chain_tip(a)->hash, 32);
    /* every block of the new branch is held, none written; one slice is
     * written, then the held entries are lost and refilled from the
     * markers (as after kill -9 and a restart) */
    CHECK_EQ_INT(zbc_chain_index_held(c), 4);
    zbc_chain_index_maintain(c);
    CHECK_EQ_INT(c->ix_floor[0] + c->ix_floor[1], 4);
    c->ix_lost = true;
    struct zbc_err err = {{0}};
    CHECK(zbc_chain_index_ready(c, &err));
    uint32_t h, i;
    for (int k = 0; k < 4; k++) {
        where(c, tx_a[k], &h, &i);
        CHECK_EQ_INT(h, (uint32_t)k + 1);
    }
    uint32_t hist[300];
    CHECK_EQ_INT(bob_history(c, &n, hist), 12); /* A's four transfers */
    zbc_chain_close(a);
    zbc_chain_close(b);
    zbc_chain_close(c);
    net_teardown(&n);
}

int main(void)
{
    zbc_log_set_level(ZBC_LOG_WARN);
    TEST_RUN(test_held_then_flushed);
    TEST_RUN(test_crash_catch_up);
    TEST_RUN(test_slices);
    TEST_RUN(test_refill_before_first_write);
    TEST_RUN(test_reorg_then_refill);
    return test_summary("node_index_flush");
}
