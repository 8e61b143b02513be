/* A transaction of a block a reorg undid goes back to the mempool even
 * when the pool is at its bound (consensus/mempool.h zbc_mempool_readmit,
 * node/zbcd/chain.c zbc_chain_readmit_tx; docs/node.md §4).
 *
 * Found reading the code behind the 4-validator load benchmark at 2x and
 * 4x capacity ("accepted but never included"): there every pool sits at
 * its bound (ZBC_CHAIN_POOL_BLOCKS blocks at the block cap), and a
 * validator whose block lost a fork offered that block's transactions to
 * a full pool: each was refused ("mempool is full") and recorded as
 * dropped, "invalid after a reorg", though it was valid, accepted earlier
 * than everything the pool held, and the pool had room below its
 * capacity.  The other nodes that had applied the block dropped them the
 * same way, so the network lost them.
 *
 *   - chain level: A's block 1 holds T; A's pool then fills to its bound;
 *     the heavier block 1 of the other validator makes A switch: T is
 *     pooled again (status mempool), not dropped, and newcomers are still
 *     refused at the bound;
 *   - mempool level: a re-admission passes the bound but not the capacity
 *     (count and bytes), where it displaces only by a better fee per byte
 *     as any newcomer; a duplicate stays a duplicate. */
#include "node/zbcd/log.h"
#include "test_reorg_fixture.h"
#include "consensus/mempool.h"
#include "consensus/state.h"
#include "node/zbcd/chain_internal.h"

#define BUDGET_MS 1 /* the block cap is ZBC_CHAIN_BUILD_MIN_TXS (64) */

static struct zbc_chain *open_budget(struct net *n, const char *name,
                                     const struct zbc_node_key *key)
{
    return open_node_cfg(n, name, key,
                         (struct zbc_chain_config){.block_budget_ms = BUDGET_MS});
}

/* A SendZBC from alice of `amount` (each amount a distinct transaction). */
static size_t make_tx(const struct net *n, uint64_t amount, int64_t fee,
                      uint8_t *raw, size_t cap)
{
    struct fixture f;
    memset(&f, 0, sizeof f);
    memcpy(f.g.hash, n->g.hash, 32);
    return fx_send(raw, cap, &f, n->alice_seed, &n->bob, amount, fee,
                   (int64_t)(FX_GENESIS_TIME / 1000) + 1);
}

static int submit_tx(struct zbc_chain *c, const struct net *n,
                     uint64_t amount, uint8_t hash[32], struct zbc_err *err)
{
    uint8_t raw[512];
    size_t len = make_tx(n, amount, FEE, raw, sizeof raw);
    bool dup = false;
    return zbc_chain_submit(c, raw, len, FX_GENESIS_TIME + 500, hash, &dup,
                            err);
}

static uint32_t rank_at_1(struct net *n, const char *name,
                          const struct zbc_node_key *k)
{
    struct zbc_chain *c = open_budget(n, name, k);
    struct zbc_slot slot;
    struct zbc_err err = {{0}};
    CHECK(zbc_chain_next_slot(c, &slot, &err));
    zbc_chain_close(c);
    return slot.rank;
}

static void test_reorg_into_full_pool(void)
{
    struct net n;
    net_setup(&n);
    /* A is the validator ranked second at height 1: the other one's block
     * 1 is heavier and wins */
    bool k1_first = rank_at_1(&n, "r1", &n.k1) == 0;
    struct zbc_chain *a = open_budget(&n, "a", k1_first ? &n.k2 : &n.k1);
    struct zbc_chain *b = open_budget(&n, "b", k1_first ? &n.k1 : &n.k2);
    struct zbc_err err = {{0}};
    size_t cap = zbc_chain_block_cap(a);
    CHECK_EQ_INT(cap, ZBC_CHAIN_BUILD_MIN_TXS);
    size_t bound = cap * ZBC_CHAIN_POOL_BLOCKS;

    /* A's block 1 holds T */
    uint8_t t[32];
    CHECK(submit_tx(a, &n, 1, t, &err));
    CHECK(produce(a, 0));
    CHECK_EQ_INT(zbc_chain_tip(a)->height, 1);
    CHECK_EQ_INT(tx_status(a, t), ZBC_TX_STATUS_CONFIRMED);

    /* then its pool fills to the bound; one more is refused */
    for (size_t i = 0; i < bound; i++) {
        uint8_t h[32];
        CHECK(submit_tx(a, &n, 100 + i, h, &err));
    }
    CHECK_EQ_INT(zbc_chain_mempool_count(a), bound);
    uint8_t late[32];
    CHECK(!submit_tx(a, &n, 99, late, &err));
    CHECK(strstr(err.msg, "mempool is full") != NULL);

    /* B's heavier block 1, without T: A switches to it */
    CHECK(produce(b, 0));
    struct zbc_recv_result r;
    give(a, b, 1, &r);
    CHECK_EQ_INT(r.undone, 1);
    CHECK_EQ_MEM(zbc_chain_tip(a)->hash, zbc_chain_tip(b)->hash, 32);

    /* T is pooled again, not dropped */
    CHECK_EQ_INT(tx_status(a, t), ZBC_TX_STATUS_MEMPOOL);
    struct zbc_mempool_drop d;
    bool dropped = zbc_chain_dropped(
        a, t, zbc_chain_tip(b)->timestamp_ms + 1000, &d);
    CHECK(!dropped);
    if (dropped)
        fprintf(stderr, "T dropped: %s\n", d.reason);
    CHECK_EQ_INT(zbc_chain_mempool_count(a), bound + 1);
    /* newcomers are still refused until blocks drain the pool */
    CHECK(!submit_tx(a, &n, 98, late, &err));
    CHECK(strstr(err.msg, "mempool is full") != NULL);
    /* re-admitted at the back of its fee class: A's blocks drain the pool
     * (64 a block) and include T with the rest */
    for (uint32_t i = 0; i <= ZBC_CHAIN_POOL_BLOCKS; i++)
        CHECK(produce(a, 0));
    CHECK_EQ_INT(tx_status(a, t), ZBC_TX_STATUS_CONFIRMED);
    CHECK_EQ_INT(zbc_chain_mempool_count(a), 0);

    zbc_chain_close(a);
    zbc_chain_close(b);
    net_teardown(&n);
}

/* ---- mempool level ---- */

/* A pool of its own, checked against the fixture's genesis state read
 * through a chain's ledger. */
struct add_ctx {
    struct zbc_mempool *mp;
    const struct zbc_genesis *g;
    const uint8_t *raw;
    size_t len;
    bool readmit;
    bool dup;
    uint8_t hash[32];
};

static int add_fn(struct zbc_chain *c, struct zbc_state *st,
                  struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    (void)c;
    (void)t;
    struct add_ctx *a = arg;
    return a->readmit
               ? zbc_mempool_readmit(a->mp, st, a->g, a->raw, a->len, NULL,
                                     FX_GENESIS_TIME + 500, a->hash, &a->dup,
                                     err)
               : zbc_mempool_add(a->mp, st, a->g, a->raw, a->len,
                                 FX_GENESIS_TIME + 500, a->hash, &a->dup,
                                 err);
}

static int pool_add(struct zbc_chain *c, struct zbc_mempool *mp,
                    const struct net *n, uint64_t amount, int64_t fee,
                    bool readmit, struct zbc_err *err)
{
    uint8_t raw[512];
    struct add_ctx a = {.mp = mp, .g = &n->g, .raw = raw,
                        .readmit = readmit};
    a.len = make_tx(n, amount, fee, raw, sizeof raw);
    return zbc_chain_state_read(c, add_fn, &a, err) && !a.dup;
}

static void test_mempool_readmit(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *c = open_budget(&n, "c", NULL);
    struct zbc_err err = {{0}};

    /* capacity 6, bound 3 */
    struct zbc_mempool *mp = zbc_mempool_new(6, 1 << 20);
    CHECK(mp != NULL);
    if (mp == NULL)
        return;
    zbc_mempool_set_bound(mp, 3);
    for (uint64_t i = 0; i < 3; i++)
        CHECK(pool_add(c, mp, &n, 10 + i, FEE, false, &err));
    CHECK(!pool_add(c, mp, &n, 20, FEE, false, &err));
    CHECK(strstr(err.msg, "mempool is full") != NULL);
    /* re-admissions pass the bound, up to the capacity */
    for (uint64_t i = 0; i < 3; i++)
        CHECK(pool_add(c, mp, &n, 30 + i, FEE, true, &err));
    CHECK_EQ_INT(zbc_mempool_count(mp), 6);
    /* a duplicate is a duplicate, full or not */
    CHECK(!pool_add(c, mp, &n, 30, FEE, true, &err));
    CHECK_EQ_INT(zbc_mempool_count(mp), 6);
    /* at the capacity the same fee does not get in, a better one
     * displaces the cheapest (the last to arrive of the same fee) */
    CHECK(!pool_add(c, mp, &n, 40, FEE, true, &err));
    CHECK(strstr(err.msg, "mempool is full (6 transactions") != NULL);
    CHECK(pool_add(c, mp, &n, 41, 2 * FEE, true, &err));
    CHECK_EQ_INT(zbc_mempool_count(mp), 6);
    /* newcomers: still refused at the bound */
    CHECK(!pool_add(c, mp, &n, 50, FEE, false, &err));
    zbc_mempool_free(mp);

    /* the byte capacity holds for re-admissions too */
    uint8_t raw[512];
    size_t len = make_tx(&n, 1, FEE, raw, sizeof raw);
    mp = zbc_mempool_new(100, 2 * len);
    CHECK(mp != NULL);
    if (mp != NULL) {
        zbc_mempool_set_bound(mp, 1);
        CHECK(pool_add(c, mp, &n, 1, FEE, false, &err));
        CHECK(pool_add(c, mp, &n, 2, FEE, true, &err));
        CHECK(!pool_add(c, mp, &n, 3, FEE, true, &err));
        CHECK(strstr(err.msg, "mempool is full") != NULL);
        CHECK_EQ_INT(zbc_mempool_count(mp), 2);
        zbc_mempool_free(mp);
    }
    zbc_chain_close(c);
    net_teardown(&n);
}

int main(void)
{
    zbc_log_set_level(ZBC_LOG_ERROR);
    zbc_log_to_stderr(false);
    TEST_RUN(test_reorg_into_full_pool);
    TEST_RUN(test_mempool_readmit);
    return test_summary("node_reorg_readmit");
}
