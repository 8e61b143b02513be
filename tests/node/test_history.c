/* The account history index (node/zbcd/history.h): written with each
 * block, undone with each block a reorg undoes (the history of an account
 * after a reorg equals that of a node that only saw the winning branch),
 * and rebuilt on open for a ledger made without it (or with a stale one). */
#include "node/zbcd/history.h"
#include "node/zbcd/log.h"
#include "test_reorg_fixture.h"

/* The account's whole history, newest first: (height, index, kind,
 * amount) packed for comparison. */
struct hist {
    size_t n;
    uint64_t v[4 * ZBC_HISTORY_PAGE_MAX];
};

static void history_of(struct zbc_chain *c, const struct zbc_addr *a,
                       struct hist *h)
{
    static struct zbc_history_page p;
    struct zbc_err err = {{0}};
    memset(h, 0, sizeof *h);
    CHECK(zbc_chain_history_page(c, a, false, 0, 0,
                           ZBC_HISTORY_PAGE_MAX, &p, &err));
    CHECK(!p.more);
    for (size_t i = 0; i < p.n; i++) {
        h->v[h->n++] = p.e[i].height;
        h->v[h->n++] = p.e[i].index;
        h->v[h->n++] = p.e[i].ev.kind;
        h->v[h->n++] = p.e[i].ev.amount;
    }
}

static void test_reorg_undoes_history(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    struct zbc_chain *b = open_node(&n, "b", &n.k2);
    struct zbc_chain *c = open_node(&n, "c", NULL);
    struct zbc_chain *d = open_node(&n, "d", NULL);
    uint8_t tx_b[32], tx_b2[32], tx_a[32];
    /* B's block 1 has two transfers, A's one: B's second leaves entries
     * no block of A overwrites */
    CHECK(submit(b, &n, 1000, tx_b));
    CHECK(submit(b, &n, 1500, tx_b2));
    CHECK(produce(b, 0) && produce(b, 0));
    CHECK(submit(a, &n, 2000, tx_a));
    CHECK(produce(a, 0) && produce(a, 0) && produce(a, 0) && produce(a, 0));
    CHECK_EQ_INT(give(c, b, 1, NULL), ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(give(c, b, 2, NULL), ZBC_RECV_EXTENDED);
    struct hist hc, hd;
    history_of(c, &n.bob, &hc);
    CHECK_EQ_INT(hc.n, 8);
    CHECK_EQ_INT(hc.v[0], 1);
    CHECK_EQ_INT(hc.v[2], ZBC_EVENT_TRANSFER);
    for (uint32_t h = 1; h <= 4; h++) {
        give(c, a, h, NULL);
        CHECK_EQ_INT(give(d, a, h, NULL), ZBC_RECV_EXTENDED);
    }
    CHECK_EQ_MEM(zbc_chain_tip(c)->hash, zbc_chain_tip(a)->hash, 32);
    history_of(c, &n.bob, &hc);
    history_of(d, &n.bob, &hd);
    CHECK_EQ_INT(hc.n, 4);
    CHECK_EQ_INT(hc.v[3], 2000); /* B's transfer of 1000 is gone */
    CHECK_EQ_INT(hc.n, hd.n);
    CHECK_EQ_MEM(hc.v, hd.v, hc.n * sizeof hc.v[0]);
    history_of(c, &n.alice, &hc);
    history_of(d, &n.alice, &hd);
    CHECK_EQ_INT(hc.n, 8); /* the transfer and its fee */
    CHECK_EQ_MEM(hc.v, hd.v, hc.n * sizeof hc.v[0]);
    zbc_chain_close(a);
    zbc_chain_close(b);
    zbc_chain_close(c);
    zbc_chain_close(d);
    net_teardown(&n);
}

/* What a ledger of the previous zbcd looks like: no index, no marker
 * (clear), or an index a zbcd without it left behind (stale marker). */
static int clear_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    (void)arg;
    return zbc_store_txn_clear(t, ZBC_STORE_DB_ACCT_HISTORY, err) &&
           zbc_store_txn_del(t, ZBC_STORE_DB_META, "history_tip", 11, err);
}

static int stale_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    (void)arg;
    uint8_t v[36] = {1};
    uint8_t k[64];
    size_t n = 0;
    k[n++] = 36;
    n += zbc_addr_write(k + n, (const struct zbc_addr *)arg);
    memset(k + n, 0, 8);
    k[n + 3] = 9; /* a bogus entry at height 9 */
    return zbc_store_txn_put(t, ZBC_STORE_DB_META, "history_tip", 11, v, 36,
                             err) &&
           zbc_store_txn_put(t, ZBC_STORE_DB_ACCT_HISTORY, k, n + 8, v, 8,
                             err);
}

static void damage(struct net *n, const char *name, zbc_store_fn fn, void *arg)
{
    char dir[160];
    snprintf(dir, sizeof dir, "%s/%s", n->base, name);
    struct zbc_store *s = NULL;
    struct zbc_err err = {{0}};
    CHECK(zbc_store_open(&s, dir, NULL, &err));
    CHECK(zbc_store_write(s, fn, arg, &err));
    zbc_store_close(s);
}

static void test_rebuilt_on_open(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    uint8_t h[32];
    CHECK(submit(a, &n, 1000, h));
    CHECK(produce(a, 0) && produce(a, 0));
    struct hist before, after;
    history_of(a, &n.bob, &before);
    CHECK_EQ_INT(before.n, 4);
    zbc_chain_close(a);

    damage(&n, "a", clear_fn, NULL);
    a = open_node(&n, "a", &n.k1);
    history_of(a, &n.bob, &after);
    CHECK_EQ_INT(after.n, before.n);
    CHECK_EQ_MEM(after.v, before.v, before.n * sizeof before.v[0]);
    zbc_chain_close(a);

    damage(&n, "a", stale_fn, &n.bob);
    a = open_node(&n, "a", &n.k1);
    history_of(a, &n.bob, &after);
    CHECK_EQ_INT(after.n, before.n);
    CHECK_EQ_MEM(after.v, before.v, before.n * sizeof before.v[0]);
    /* a complete index is kept as it is */
    bool rebuilt = true;
    uint32_t blocks = 9;
    struct zbc_err err = {{0}};
    CHECK(zbc_history_ensure(zbc_chain_store(a), &rebuilt, &blocks, &err));
    CHECK(!rebuilt);
    CHECK_EQ_INT(blocks, 0);
    /* pages: newest first, strictly before the cursor */
    static struct zbc_history_page p;
    CHECK(zbc_chain_history_page(a, &n.alice, false, 0, 0, 1, &p,
                           &err));
    CHECK_EQ_INT(p.n, 1);
    CHECK(p.more);
    uint32_t ch = p.e[0].height, ci = p.e[0].index;
    CHECK(zbc_chain_history_page(a, &n.alice, true, ch, ci, 100,
                           &p, &err));
    CHECK_EQ_INT(p.n, 1);
    CHECK(!p.more);
    CHECK(p.e[0].height < ch || (p.e[0].height == ch && p.e[0].index < ci));
    CHECK(!zbc_chain_history_page(a, &n.alice, false, 0, 0, 0, &p,
                            &err));
    CHECK(!zbc_chain_history_page(a, &n.alice, false, 0, 0, 101,
                            &p, &err));
    zbc_chain_close(a);
    net_teardown(&n);
}

int main(void)
{
    zbc_log_set_level(ZBC_LOG_WARN);
    TEST_RUN(test_reorg_undoes_history);
    TEST_RUN(test_rebuilt_on_open);
    return test_summary("node_history");
}
