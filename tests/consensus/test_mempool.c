/* Mempool: admission errors, duplicates, ordering, pending spends,
 * expiry, capacity, removal on inclusion and re-check after a block. */
#include "chain_fixture.h"
#include "consensus/mempool.h"
#include "crypto/hash.h"
#include "testlib.h"

static uint64_t now_ms(const struct fx *f)
{
    return f->tip.timestamp_ms + 1000;
}

static int add(struct zbc_mempool *mp, struct fx *f, const uint8_t *raw,
               size_t len, uint64_t t, bool *dup, struct zbc_err *err)
{
    uint8_t h[32];
    return zbc_mempool_add(mp, &f->s, &f->g, raw, len, t, h, dup, err);
}

static void expect_refused(struct zbc_mempool *mp, struct fx *f,
                           const uint8_t *raw, size_t len, uint64_t t,
                           const char *needle)
{
    bool dup;
    struct zbc_err err = {{0}};
    size_t n = zbc_mempool_count(mp);
    int ok = add(mp, f, raw, len, t, &dup, &err);
    CHECK(!ok);
    if (ok || strstr(err.msg, needle) == NULL) {
        fprintf(stderr, "  err: %s\n  want: %s\n", err.msg, needle);
        test_failures++;
    }
    CHECK_EQ_INT(zbc_mempool_count(mp), n);
}

static void test_admission(void)
{
    struct fx f;
    fx_init(&f);
    struct zbc_mempool *mp = zbc_mempool_new(100, 1 << 20);
    uint64_t t = now_ms(&f);
    int64_t s = (int64_t)(t / 1000);
    uint8_t tx[512];
    size_t n;
    bool dup;
    struct zbc_err err;

    n = fx_send(tx, &f, &f.a, &f.b.addr, 10, 150, s);
    expect_refused(mp, &f, tx, n, t, "fee too low");
    n = fx_send(tx, &f, &f.b, &f.c.addr, 10, 500, s);
    expect_refused(mp, &f, tx, n, t, "insufficient balance");
    n = fx_send(tx, &f, &f.a, &f.c.addr, 10, FX_FEE, s - 3601);
    expect_refused(mp, &f, tx, n, t, "before the block time");
    n = fx_send(tx, &f, &f.a, &f.c.addr, 10, FX_FEE, s + 11);
    expect_refused(mp, &f, tx, n, t, "after the block time");
    uint8_t body[8] = {1, 0, 0, 0, 0, 0, 0, 0};
    n = fx_tx(tx, sizeof tx, &f.a, ZBC_TX_APP_CLAIM, NULL, body, 8, FX_FEE, s,
              f.g.hash);
    expect_refused(mp, &f, tx, n, t, "unknown app 1");
    n = fx_send(tx, &f, &f.a, &f.c.addr, 10, FX_FEE, s);
    tx[n - 1] ^= 1;
    expect_refused(mp, &f, tx, n, t, "invalid signature");
    expect_refused(mp, &f, tx, 10, t, "");

    /* admitted once, then a duplicate */
    n = fx_send(tx, &f, &f.a, &f.c.addr, 10, FX_FEE, s);
    uint8_t h1[32], h2[32];
    CHECK(zbc_mempool_add(mp, &f.s, &f.g, tx, n, t, h1, &dup, &err));
    CHECK(!dup);
    CHECK(zbc_mempool_add(mp, &f.s, &f.g, tx, n, t, h2, &dup, &err));
    CHECK(dup);
    CHECK_EQ_MEM(h1, h2, 32);
    CHECK_EQ_INT(zbc_mempool_count(mp), 1);
    CHECK_EQ_INT(zbc_mempool_bytes(mp), n);
    size_t pos, len;
    const uint8_t *raw;
    CHECK(zbc_mempool_find(mp, h1, &pos, &raw, &len));
    CHECK_EQ_INT(pos, 0);
    CHECK_EQ_INT(len, n);
    CHECK_EQ_MEM(raw, tx, n);

    /* already in the chain: include it, then offer it again */
    struct zbc_tx_ref r = {tx, (uint32_t)n};
    struct zbc_block b;
    struct zbc_undo u;
    struct zbc_events ev;
    CHECK(zbc_block_build(&b, &f.s, &f.g, &f.tip, &r, 1, t, f.val.sk, &u, &ev,
                          &err));
    zbc_parent_from_header(&f.tip, &b.header);
    CHECK(zbc_mempool_after_block(mp, &f.s, &f.g, &b, t + 1, &err));
    CHECK_EQ_INT(zbc_mempool_count(mp), 0);
    CHECK(!zbc_mempool_find(mp, h1, NULL, NULL, NULL));
    expect_refused(mp, &f, tx, n, t + 1, "duplicate transaction");
    zbc_block_free(&b);
    zbc_undo_free(&u);
    zbc_events_free(&ev);
    zbc_mempool_free(mp);
    fx_free(&f);
}

static void test_order_pending_expiry(void)
{
    struct fx f;
    fx_init(&f);
    struct zbc_mempool *mp = zbc_mempool_new(100, 1 << 20);
    uint64_t t = now_ms(&f);
    int64_t s = (int64_t)(t / 1000);
    uint8_t t1[512], t2[512], t3[512], t4[512];
    size_t n1, n2, n3, n4;
    bool dup;
    struct zbc_err err;
    /* same size: the higher fee goes first; equal fee: arrival order */
    n1 = fx_send(t1, &f, &f.a, &f.c.addr, 1, FX_FEE, s);
    n2 = fx_send(t2, &f, &f.a, &f.c.addr, 2, FX_FEE * 2, s);
    n3 = fx_send(t3, &f, &f.a, &f.c.addr, 3, FX_FEE, s);
    CHECK(add(mp, &f, t1, n1, t, &dup, &err));
    CHECK(add(mp, &f, t2, n2, t + 1, &dup, &err));
    CHECK(add(mp, &f, t3, n3, t + 2, &dup, &err));
    struct zbc_tx_ref sel[8];
    CHECK_EQ_INT(zbc_mempool_select(mp, sel, 8), 3);
    CHECK(memcmp(sel[0].bytes, t2, n2) == 0);
    CHECK(memcmp(sel[1].bytes, t1, n1) == 0);
    CHECK(memcmp(sel[2].bytes, t3, n3) == 0);
    CHECK_EQ_INT(zbc_mempool_select(mp, sel, 2), 2);

    /* B holds 500: two spends that fit alone but not together */
    zbc_mempool_free(mp);
    mp = zbc_mempool_new(100, 1 << 20);
    struct zbc_tx_ref r;
    /* fund B first */
    n4 = fx_send(t4, &f, &f.a, &f.b.addr, 2500, FX_FEE, s);
    r.bytes = t4;
    r.len = (uint32_t)n4;
    struct zbc_block b;
    struct zbc_undo u;
    struct zbc_events ev;
    CHECK(zbc_block_build(&b, &f.s, &f.g, &f.tip, &r, 1, t, f.val.sk, &u, &ev,
                          &err));
    zbc_parent_from_header(&f.tip, &b.header);
    zbc_block_free(&b);
    zbc_undo_free(&u);
    zbc_events_free(&ev);
    t = now_ms(&f);
    s = (int64_t)(t / 1000);
    n1 = fx_send(t1, &f, &f.b, &f.c.addr, 1000, FX_FEE, s); /* 2000 of 3000 */
    n2 = fx_send(t2, &f, &f.b, &f.c.addr, 1001, FX_FEE, s); /* 2001 more */
    n3 = fx_send(t3, &f, &f.b, &f.c.addr, 999, FX_FEE, s);  /* 1999: fits */
    CHECK(add(mp, &f, t1, n1, t, &dup, &err));
    expect_refused(mp, &f, t2, n2, t, "insufficient balance");
    CHECK(!add(mp, &f, t2, n2, t, &dup, &err));
    CHECK(strstr(err.msg, "pending") != NULL);
    CHECK(!add(mp, &f, t3, n3, t, &dup, &err)); /* 2000 + 1999 > 3000 */
    n3 = fx_send(t3, &f, &f.b, &f.c.addr, 0, FX_FEE, s); /* 1000: fits */
    CHECK(add(mp, &f, t3, n3, t, &dup, &err));
    CHECK_EQ_INT(zbc_mempool_count(mp), 2);

    /* a block spends B's money elsewhere (B keeps 1500): re-check drops
     * t1 (2000) and keeps t3 (1000) */
    n4 = fx_send(t4, &f, &f.b, &f.a.addr, 500, FX_FEE, s);
    r.bytes = t4;
    r.len = (uint32_t)n4;
    CHECK(zbc_block_build(&b, &f.s, &f.g, &f.tip, &r, 1, t, f.val.sk, &u, &ev,
                          &err));
    zbc_parent_from_header(&f.tip, &b.header);
    CHECK(zbc_mempool_after_block(mp, &f.s, &f.g, &b, t, &err));
    CHECK_EQ_INT(zbc_mempool_count(mp), 1);
    uint8_t h[32];
    struct zbc_tx_ref one = {t3, (uint32_t)n3};
    zbc_tx_ref_hash(h, &one);
    CHECK(zbc_mempool_find(mp, h, NULL, NULL, NULL));
    zbc_block_free(&b);
    zbc_undo_free(&u);
    zbc_events_free(&ev);

    /* expiry one hour after arrival */
    zbc_mempool_expire(mp, t + 3600 * 1000);
    CHECK_EQ_INT(zbc_mempool_count(mp), 1);
    zbc_mempool_expire(mp, t + 3600 * 1000 + 1);
    CHECK_EQ_INT(zbc_mempool_count(mp), 0);
    CHECK_EQ_INT(zbc_mempool_bytes(mp), 0);

    /* remove */
    CHECK(add(mp, &f, t3, n3, t, &dup, &err));
    zbc_mempool_remove(mp, h);
    CHECK_EQ_INT(zbc_mempool_count(mp), 0);
    zbc_mempool_free(mp);
    fx_free(&f);
}

static void test_capacity(void)
{
    struct fx f;
    fx_init(&f);
    uint64_t t = now_ms(&f);
    int64_t s = (int64_t)(t / 1000);
    uint8_t t1[512], t2[512];
    size_t n1 = fx_send(t1, &f, &f.a, &f.c.addr, 1, FX_FEE, s);
    size_t n2 = fx_send(t2, &f, &f.a, &f.c.addr, 2, FX_FEE, s);
    bool dup;
    struct zbc_err err;
    struct zbc_mempool *mp = zbc_mempool_new(1, 1 << 20);
    CHECK(add(mp, &f, t1, n1, t, &dup, &err));
    expect_refused(mp, &f, t2, n2, t, "mempool is full");
    zbc_mempool_free(mp);
    mp = zbc_mempool_new(10, n1 + n2 - 1);
    CHECK(add(mp, &f, t1, n1, t, &dup, &err));
    expect_refused(mp, &f, t2, n2, t, "mempool is full");
    zbc_mempool_free(mp);
    fx_free(&f);
}

/* A full pool: a newcomer paying more per byte than the cheapest
 * displaces it (recorded as a drop); one that does not is refused with
 * the exact fee that would. */
static void test_full_displaces_cheapest(void)
{
    struct fx f;
    fx_init(&f);
    uint64_t t = now_ms(&f);
    int64_t s = (int64_t)(t / 1000);
    uint8_t lo[512], mid[512], hi[512], eq[512], up[512], bad[512];
    size_t nlo = fx_send(lo, &f, &f.a, &f.c.addr, 1, FX_FEE, s);
    size_t nmid = fx_send(mid, &f, &f.a, &f.c.addr, 2, FX_FEE + 50, s);
    size_t nhi = fx_send(hi, &f, &f.a, &f.c.addr, 3, FX_FEE + 100, s);
    size_t neq = fx_send(eq, &f, &f.a, &f.c.addr, 4, FX_FEE, s);
    size_t nup = fx_send(up, &f, &f.a, &f.c.addr, 5, FX_FEE + 1, s);
    size_t nbad = fx_send(bad, &f, &f.a, &f.c.addr, 6, FX_FEE + 500, s);
    bad[nbad - 1] ^= 1;
    /* all SendZBC of one sender: the same length */
    CHECK(nlo == nmid && nmid == nhi && nhi == neq && neq == nup);
    bool dup;
    struct zbc_err err;
    struct zbc_mempool *mp = zbc_mempool_new(3, 1 << 20);
    CHECK(add(mp, &f, mid, nmid, t, &dup, &err));
    CHECK(add(mp, &f, lo, nlo, t, &dup, &err));
    CHECK(add(mp, &f, hi, nhi, t, &dup, &err));
    /* the same fee per byte as the cheapest: refused, 1 more would do */
    char want[160];
    snprintf(want, sizeof want,
             "mempool is full (3 transactions, %zu bytes): a fee of at least "
             "%d for these %zu bytes displaces its cheapest",
             3 * nlo, FX_FEE + 1, neq);
    expect_refused(mp, &f, eq, neq, t, want);
    /* a forged signature displaces nothing */
    expect_refused(mp, &f, bad, nbad, t, "signature");
    CHECK_EQ_INT(zbc_mempool_count(mp), 3);
    /* one more: the cheapest goes, and its status says why */
    uint8_t h[32];
    CHECK(zbc_mempool_add(mp, &f.s, &f.g, up, nup, t, h, &dup, &err));
    CHECK_EQ_INT(zbc_mempool_count(mp), 3);
    uint8_t hlo[32];
    zbc_sha3_256(hlo, lo, nlo);
    CHECK(!zbc_mempool_find(mp, hlo, NULL, NULL, NULL));
    struct zbc_mempool_drop d;
    CHECK(zbc_mempool_dropped(mp, hlo, t, &d));
    CHECK(strstr(d.reason, "evicted: the mempool was full") != NULL);
    size_t pos = 9;
    CHECK(zbc_mempool_find(mp, h, &pos, NULL, NULL));
    CHECK_EQ_INT(pos, 2); /* after hi and mid */
    /* now the cheapest pays FX_FEE + 1 */
    snprintf(want, sizeof want, "a fee of at least %d for these %zu bytes",
             FX_FEE + 2, neq);
    expect_refused(mp, &f, eq, neq, t, want);
    zbc_mempool_free(mp);

    /* full by bytes: room for two, a third that pays more displaces the
     * cheapest only */
    mp = zbc_mempool_new(10, 2 * nlo);
    CHECK(add(mp, &f, lo, nlo, t, &dup, &err));
    CHECK(add(mp, &f, mid, nmid, t, &dup, &err));
    CHECK(add(mp, &f, hi, nhi, t, &dup, &err));
    CHECK_EQ_INT(zbc_mempool_count(mp), 2);
    CHECK_EQ_INT(zbc_mempool_bytes(mp), 2 * nlo);
    CHECK(!zbc_mempool_find(mp, hlo, NULL, NULL, NULL));
    zbc_mempool_free(mp);

    /* larger than the whole pool */
    mp = zbc_mempool_new(10, nlo - 1);
    expect_refused(mp, &f, lo, nlo, t, "larger than the whole mempool");
    zbc_mempool_free(mp);
    fx_free(&f);
}

/* A bound below the capacity (zbc_mempool_set_bound): full at the bound,
 * with the same fee rule; lowered below the count it evicts nothing, and
 * a higher fee displaces one for one; 0 gives the capacity back. */
static void test_bound(void)
{
    struct fx f;
    fx_init(&f);
    uint64_t t = now_ms(&f);
    int64_t s = (int64_t)(t / 1000);
    uint8_t tx[6][512];
    size_t n[6];
    for (int i = 0; i < 6; i++)
        n[i] = fx_send(tx[i], &f, &f.a, &f.c.addr, (uint64_t)i + 1,
                       FX_FEE + (i == 5 ? 100 : 0), s);
    bool dup;
    struct zbc_err err;
    struct zbc_mempool *mp = zbc_mempool_new(100, 1 << 20);
    size_t room, room_bytes;
    zbc_mempool_set_bound(mp, 2);
    zbc_mempool_room(mp, &room, &room_bytes);
    CHECK_EQ_INT(room, 2);
    CHECK(add(mp, &f, tx[0], n[0], t, &dup, &err));
    CHECK(add(mp, &f, tx[1], n[1], t, &dup, &err));
    zbc_mempool_room(mp, &room, &room_bytes);
    CHECK_EQ_INT(room, 0);
    expect_refused(mp, &f, tx[2], n[2], t, "mempool is full (2 transactions");
    /* raised: room again */
    zbc_mempool_set_bound(mp, 3);
    CHECK(add(mp, &f, tx[2], n[2], t, &dup, &err));
    CHECK_EQ_INT(zbc_mempool_count(mp), 3);
    /* lowered below the count: nothing evicted, full at its size */
    zbc_mempool_set_bound(mp, 1);
    CHECK_EQ_INT(zbc_mempool_count(mp), 3);
    zbc_mempool_room(mp, &room, &room_bytes);
    CHECK_EQ_INT(room, 0);
    expect_refused(mp, &f, tx[3], n[3], t, "mempool is full (3 transactions");
    /* a higher fee displaces exactly one */
    CHECK(add(mp, &f, tx[5], n[5], t, &dup, &err));
    CHECK_EQ_INT(zbc_mempool_count(mp), 3);
    /* 0: the capacity again */
    zbc_mempool_set_bound(mp, 0);
    CHECK(add(mp, &f, tx[3], n[3], t, &dup, &err));
    CHECK(add(mp, &f, tx[4], n[4], t, &dup, &err));
    CHECK_EQ_INT(zbc_mempool_count(mp), 5);
    zbc_mempool_free(mp);
    fx_free(&f);
}

int main(void)
{
    TEST_RUN(test_admission);
    TEST_RUN(test_order_pending_expiry);
    TEST_RUN(test_capacity);
    TEST_RUN(test_full_displaces_cheapest);
    TEST_RUN(test_bound);
    return test_summary("consensus_mempool");
}
