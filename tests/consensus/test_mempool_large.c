/* Mempool at scale: 50,000 transactions from two senders admitted with
 * the pending-spend rule, selected in priority order, found at their
 * positions, and re-checked after blocks.  The expected results are
 * computed here from the rules (fee per byte descending, then arrival;
 * a sender's pooled costs never exceed its balance), not from the pool. */
#include "chain_fixture.h"
#include "consensus/mempool.h"
#include "crypto/hash.h"
#include "testlib.h"

#define N_TX 50000
#define TX_CAP 256

struct item {
    uint8_t raw[TX_CAP];
    size_t len;
    uint64_t fee, cost;
    bool from_a;
    bool admitted;
    size_t arrival;
};

static struct item *items;

static int by_priority(const void *pa, const void *pb)
{
    const struct item *a = *(const struct item *const *)pa;
    const struct item *b = *(const struct item *const *)pb;
    /* fee per byte descending, cross-multiplied; then arrival */
    unsigned __int128 fa = (unsigned __int128)a->fee * b->len;
    unsigned __int128 fb = (unsigned __int128)b->fee * a->len;
    if (fa != fb)
        return fa > fb ? -1 : 1;
    return a->arrival < b->arrival ? -1 : a->arrival > b->arrival;
}

/* Admitted items in expected select order; returns the count. */
static size_t expected_order(struct item **out)
{
    size_t n = 0;
    for (size_t i = 0; i < N_TX; i++)
        if (items[i].admitted)
            out[n++] = &items[i];
    qsort(out, n, sizeof *out, by_priority);
    return n;
}

static void check_pool_matches(struct zbc_mempool *mp, struct item **exp,
                               size_t n)
{
    CHECK_EQ_INT(zbc_mempool_count(mp), n);
    size_t bytes = 0;
    for (size_t i = 0; i < n; i++)
        bytes += exp[i]->len;
    CHECK_EQ_INT(zbc_mempool_bytes(mp), bytes);
    struct zbc_tx_ref *refs = calloc(n + 1, sizeof *refs);
    CHECK_EQ_INT(zbc_mempool_select(mp, refs, n + 1), n);
    size_t wrong = 0, misplaced = 0;
    for (size_t i = 0; i < n; i++) {
        if (refs[i].len != exp[i]->len ||
            memcmp(refs[i].bytes, exp[i]->raw, exp[i]->len) != 0)
            wrong++;
        uint8_t h[32];
        size_t pos = SIZE_MAX;
        zbc_sha3_256(h, exp[i]->raw, exp[i]->len);
        if (!zbc_mempool_find(mp, h, &pos, NULL, NULL) || pos != i)
            misplaced++;
    }
    CHECK_EQ_INT(wrong, 0);
    CHECK_EQ_INT(misplaced, 0);
    free(refs);
}

static void test_large_pool(void)
{
    struct fx f;
    fx_init(&f);
    uint64_t t = f.tip.timestamp_ms + 1000;
    int64_t s = (int64_t)(t / 1000);
    items = calloc(N_TX, sizeof *items);
    struct item **exp = calloc(N_TX, sizeof *exp);
    struct zbc_mempool *mp = zbc_mempool_new(N_TX, 64u << 20);
    CHECK(items != NULL && exp != NULL && mp != NULL);

    /* every fifth from A (balance 1,000,000: only the first ~1000 fit),
     * the rest from the fund (100,000,000: all fit) */
    uint64_t bal_a = 1000000, bal_fund = 100000000, sum_a = 0, sum_fund = 0;
    size_t refused = 0, wrong_verdict = 0;
    for (size_t i = 0; i < N_TX; i++) {
        struct item *it = &items[i];
        it->from_a = i % 5 == 0;
        it->fee = 400 + (i * 7919) % 1000;
        uint64_t amount = 1 + i % 7 + 7 * (i / 7000); /* all distinct */
        it->len = fx_send(it->raw, &f, it->from_a ? &f.a : &f.fund, &f.c.addr,
                          amount, (int64_t)it->fee, s);
        it->cost = it->fee + amount;
        it->arrival = i;
        uint64_t *sum = it->from_a ? &sum_a : &sum_fund;
        uint64_t bal = it->from_a ? bal_a : bal_fund;
        bool fits = *sum + it->cost <= bal;
        uint8_t h[32];
        bool dup;
        struct zbc_err err = {{0}};
        int ok = zbc_mempool_add(mp, &f.s, &f.g, it->raw, it->len, t, h, &dup,
                                 &err);
        if (ok != fits || dup ||
            (!ok && strstr(err.msg, "insufficient balance") == NULL)) {
            if (wrong_verdict++ == 0)
                fprintf(stderr, "  tx %zu: ok %d, expected %d: %s\n", i, ok,
                        fits, ok ? "" : err.msg);
        }
        if (ok) {
            it->admitted = true;
            *sum += it->cost;
        } else {
            refused++;
        }
    }
    CHECK_EQ_INT(wrong_verdict, 0);
    CHECK(refused > 8000); /* A's tail */
    size_t n = expected_order(exp);
    CHECK_EQ_INT(n, N_TX - refused);
    check_pool_matches(mp, exp, n);

    /* every admitted one again: a duplicate, nothing changes */
    size_t not_dup = 0;
    for (size_t i = 0; i < N_TX; i += 97) {
        uint8_t h[32];
        bool dup = false;
        struct zbc_err err;
        if (items[i].admitted &&
            (!zbc_mempool_add(mp, &f.s, &f.g, items[i].raw, items[i].len, t,
                              h, &dup, &err) || !dup))
            not_dup++;
    }
    CHECK_EQ_INT(not_dup, 0);
    CHECK_EQ_INT(zbc_mempool_count(mp), n);

    /* a block of the first 2000 selected: they leave, the rest stay in
     * order (their senders' remaining sums still fit) */
    struct zbc_tx_ref *refs = calloc(2000, sizeof *refs);
    CHECK_EQ_INT(zbc_mempool_select(mp, refs, 2000), 2000);
    struct zbc_block b;
    struct zbc_undo u;
    struct zbc_events ev;
    struct zbc_err err = {{0}};
    CHECK(zbc_block_build(&b, &f.s, &f.g, &f.tip, refs, 2000, t, f.val.sk, &u,
                          &ev, &err));
    CHECK_EQ_INT(b.n_tx, 2000);
    zbc_parent_from_header(&f.tip, &b.header);
    for (size_t i = 0; i < 2000; i++)
        exp[i]->admitted = false;
    CHECK(zbc_mempool_after_block(mp, &f.s, &f.g, &b, t, &err));
    zbc_block_free(&b);
    zbc_undo_free(&u);
    zbc_events_free(&ev);
    n = expected_order(exp);
    CHECK_EQ_INT(n, N_TX - refused - 2000);
    check_pool_matches(mp, exp, n);

    /* a block spending most of A's balance elsewhere: the re-check keeps
     * A's pooled transactions, in priority order, while their running sum
     * fits the new balance; the fund's all stay */
    uint8_t big[TX_CAP];
    uint64_t a_now = fx_balance(&f, &f.a.addr);
    size_t big_len = fx_send(big, &f, &f.a, &f.b.addr, a_now - 300000, FX_FEE,
                             s);
    struct zbc_tx_ref r = {big, (uint32_t)big_len};
    t += 1000; /* the next slot */
    CHECK(zbc_block_build(&b, &f.s, &f.g, &f.tip, &r, 1, t, f.val.sk, &u, &ev,
                          &err));
    CHECK_EQ_INT(b.n_tx, 1);
    zbc_parent_from_header(&f.tip, &b.header);
    uint64_t a_left = fx_balance(&f, &f.a.addr);
    CHECK_EQ_INT(a_left, 300000 - FX_FEE);
    uint64_t run = 0;
    size_t kept_a = 0;
    for (size_t i = 0; i < n; i++) {
        if (!exp[i]->from_a)
            continue;
        if (run + exp[i]->cost <= a_left) {
            run += exp[i]->cost;
            kept_a++;
        } else {
            exp[i]->admitted = false;
        }
    }
    CHECK(kept_a > 100 && kept_a < 400);
    CHECK(zbc_mempool_after_block(mp, &f.s, &f.g, &b, t, &err));
    zbc_block_free(&b);
    zbc_undo_free(&u);
    zbc_events_free(&ev);
    n = expected_order(exp);
    check_pool_matches(mp, exp, n);

    /* the pending sums follow removals: take A's costliest pooled
     * transaction out, then A can add exactly what is left, not 1 more */
    size_t costliest = SIZE_MAX;
    for (size_t i = 0; i < n; i++)
        if (exp[i]->from_a &&
            (costliest == SIZE_MAX || exp[i]->cost > exp[costliest]->cost))
            costliest = i;
    CHECK(costliest != SIZE_MAX && exp[costliest]->cost > 1300);
    uint8_t h[32];
    zbc_sha3_256(h, exp[costliest]->raw, exp[costliest]->len);
    zbc_mempool_remove(mp, h);
    CHECK(!zbc_mempool_find(mp, h, NULL, NULL, NULL));
    run -= exp[costliest]->cost;
    exp[costliest]->admitted = false;
    uint64_t slack = a_left - run, fee = 400;
    uint8_t more[TX_CAP];
    size_t more_len = fx_send(more, &f, &f.a, &f.c.addr, slack - fee + 1,
                              (int64_t)fee, s);
    bool dup;
    CHECK(!zbc_mempool_add(mp, &f.s, &f.g, more, more_len, t, h, &dup, &err));
    CHECK(strstr(err.msg, "insufficient balance") != NULL);
    more_len = fx_send(more, &f, &f.a, &f.c.addr, slack - fee, (int64_t)fee,
                       s);
    CHECK(zbc_mempool_add(mp, &f.s, &f.g, more, more_len, t, h, &dup, &err));
    n = expected_order(exp);

    /* removal of everything one by one leaves an empty pool */
    for (size_t i = n; i > 0; i--) {
        zbc_sha3_256(h, exp[i - 1]->raw, exp[i - 1]->len);
        zbc_mempool_remove(mp, h);
    }
    CHECK_EQ_INT(zbc_mempool_count(mp), 1);
    zbc_sha3_256(h, more, more_len);
    zbc_mempool_remove(mp, h);
    CHECK_EQ_INT(zbc_mempool_count(mp), 0);
    CHECK_EQ_INT(zbc_mempool_bytes(mp), 0);

    free(refs);
    zbc_mempool_free(mp);
    free(exp);
    free(items);
    fx_free(&f);
}

int main(void)
{
    TEST_RUN(test_large_pool);
    return test_summary("consensus_mempool_large");
}
