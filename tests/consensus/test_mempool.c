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
    /* with the hash given (a peer's transaction, hashed on arrival): the
     * same duplicate, the same key */
    CHECK(zbc_mempool_add_hashed(mp, &f.s, &f.g, tx, n, NULL, t, h1, &dup,
                                 &err));
    CHECK(dup);
    CHECK_EQ_INT(zbc_mempool_count(mp), 1);
    {
        uint8_t tx2[512], want[32];
        size_t n2 = fx_send(tx2, &f, &f.a, &f.c.addr, 11, FX_FEE, s);
        zbc_sha3_256(want, tx2, n2);
        CHECK(zbc_mempool_add_hashed(mp, &f.s, &f.g, tx2, n2, NULL, t, want,
                                     &dup, &err));
        CHECK(!dup);
        CHECK(zbc_mempool_find(mp, want, NULL, NULL, NULL));
        uint8_t h3[32];
        CHECK(zbc_mempool_add(mp, &f.s, &f.g, tx2, n2, t, h3, &dup, &err));
        CHECK(dup);
        CHECK_EQ_MEM(h3, want, 32);
        /* a bad one is refused with its own error, as by zbc_mempool_add */
        tx2[n2 - 1] ^= 1;
        zbc_sha3_256(want, tx2, n2);
        CHECK(!zbc_mempool_add_hashed(mp, &f.s, &f.g, tx2, n2, NULL, t, want,
                                      &dup, &err));
        CHECK(strstr(err.msg, "invalid signature") != NULL);
        tx2[n2 - 1] ^= 1;
        zbc_sha3_256(want, tx2, n2);
        zbc_mempool_remove(mp, want);
    }
    CHECK_EQ_INT(zbc_mempool_count(mp), 1);

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

/* Builds a block of refs on f's tip at t (the builder skips what does not
 * apply) and moves the tip; *u receives its undo record. */
static void build_on_tip(struct fx *f, struct zbc_block *b,
                         const struct zbc_tx_ref *refs, size_t n, uint64_t t,
                         struct zbc_undo *u)
{
    struct zbc_events ev = {0};
    struct zbc_err err;
    memset(u, 0, sizeof *u);
    CHECK(zbc_block_build(b, &f->s, &f->g, &f->tip, refs, n, t, f->val.sk, u,
                          &ev, &err));
    zbc_parent_from_header(&f->tip, &b->header);
    zbc_events_free(&ev);
}

static bool pooled(struct zbc_mempool *mp, const uint8_t *raw, size_t len)
{
    uint8_t h[32];
    struct zbc_tx_ref r = {raw, (uint32_t)len};
    zbc_tx_ref_hash(h, &r);
    return zbc_mempool_find(mp, h, NULL, NULL, NULL);
}

/* The re-check with the block's undo record: a transfer whose sender the
 * block did not touch is checked for its time window only; a touched
 * sender's transactions in full; a block on another parent than the
 * pool's last: everything in full. */
static void test_recheck_targeted(void)
{
    struct fx f;
    fx_init(&f);
    struct zbc_mempool *mp = zbc_mempool_new(100, 1 << 20);
    uint64_t t = now_ms(&f);
    int64_t s = (int64_t)(t / 1000);
    uint8_t p1[512], p2[512], p3[512], q[512];
    size_t n1, n2, n3, nq;
    bool dup;
    struct zbc_err err;
    size_t checked, skipped;
    struct zbc_block b1, b2, b3;
    struct zbc_undo u1, u2, u3;

    /* the pool's first block: no parent it was checked on, all in full */
    n1 = fx_send(p1, &f, &f.a, &f.c.addr, 10, FX_FEE, s);
    CHECK(add(mp, &f, p1, n1, t, &dup, &err));
    build_on_tip(&f, &b1, NULL, 0, t, &u1);
    CHECK(zbc_mempool_after_block_undo(mp, &f.s, &f.g, &b1, &u1, t, &err));
    zbc_mempool_last_recheck(mp, &checked, &skipped);
    CHECK_EQ_INT(checked, 1);
    CHECK_EQ_INT(skipped, 0);

    /* fund holds 100,000,000: p2 spends 99,990,000 of it; a block
     * includes q (not pooled) of 20,000 from fund: p2 no longer fits and
     * is dropped; a's p1 is only time-checked; p3 (a, timestamp 3,599 s
     * before now) falls out of the window 2 s later: dropped too */
    t += 1000;
    s = (int64_t)(t / 1000);
    n2 = fx_send(p2, &f, &f.fund, &f.c.addr, 99990000 - FX_FEE, FX_FEE, s);
    CHECK(add(mp, &f, p2, n2, t, &dup, &err));
    n3 = fx_send(p3, &f, &f.a, &f.c.addr, 11, FX_FEE, s - 3599);
    CHECK(add(mp, &f, p3, n3, t, &dup, &err));
    CHECK_EQ_INT(zbc_mempool_count(mp), 3);
    nq = fx_send(q, &f, &f.fund, &f.b.addr, 20000 - FX_FEE, FX_FEE, s);
    struct zbc_tx_ref rq = {q, (uint32_t)nq};
    build_on_tip(&f, &b2, &rq, 1, t + 2000, &u2);
    CHECK_EQ_INT(b2.n_tx, 1);
    CHECK(zbc_mempool_after_block_undo(mp, &f.s, &f.g, &b2, &u2, t + 2000,
                                       &err));
    zbc_mempool_last_recheck(mp, &checked, &skipped);
    CHECK_EQ_INT(checked, 1); /* p2 */
    CHECK_EQ_INT(skipped, 2); /* p1, p3 */
    CHECK_EQ_INT(zbc_mempool_count(mp), 1);
    CHECK(pooled(mp, p1, n1));
    struct zbc_mempool_drop d;
    uint8_t h[32];
    struct zbc_tx_ref r2 = {p2, (uint32_t)n2}, r3 = {p3, (uint32_t)n3};
    zbc_tx_ref_hash(h, &r2);
    CHECK(zbc_mempool_dropped(mp, h, t + 2000, &d));
    CHECK(strstr(d.reason, "invalid after block 2: insufficient balance") !=
          NULL);
    zbc_tx_ref_hash(h, &r3);
    CHECK(zbc_mempool_dropped(mp, h, t + 2000, &d));
    CHECK(strstr(d.reason, "invalid after block 2: ") != NULL &&
          strstr(d.reason, "before the block time") != NULL);

    /* a block whose parent is not the pool's last block (as after an
     * undo): everything in full */
    build_on_tip(&f, &b3, NULL, 0, t + 3000, &u3);
    struct zbc_block other = b3;
    memset(other.header.prev_hash, 0xee, 32);
    CHECK(zbc_mempool_after_block_undo(mp, &f.s, &f.g, &other, &u3, t + 3000,
                                       &err));
    zbc_mempool_last_recheck(mp, &checked, &skipped);
    CHECK_EQ_INT(checked, 1);
    CHECK_EQ_INT(skipped, 0);
    /* no undo record known: in full */
    CHECK(zbc_mempool_after_block(mp, &f.s, &f.g, &b3, t + 3000, &err));
    zbc_mempool_last_recheck(mp, &checked, &skipped);
    CHECK_EQ_INT(checked, 1);
    CHECK_EQ_INT(skipped, 0);
    CHECK(pooled(mp, p1, n1));

    zbc_block_free(&b1);
    zbc_block_free(&b2);
    zbc_block_free(&b3);
    zbc_undo_free(&u1);
    zbc_undo_free(&u2);
    zbc_undo_free(&u3);
    zbc_mempool_free(mp);
    fx_free(&f);
}

static uint64_t rnd(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* Two pools given the same transactions and blocks, one re-checked with
 * each block's undo record, the other in full, hold the same
 * transactions in the same order after every block: random transfers
 * among 32 senders near their balances, blocks of pooled and unpooled
 * transfers (overspending the pool's view), timestamps that leave the
 * window. */
static void test_recheck_same_as_full(void)
{
    struct fx f;
    fx_init(&f);
    enum { NK = 32, ROUNDS = 40, PER_ROUND = 30 };
    struct fx_key k[NK];
    for (int i = 0; i < NK; i++)
        fx_key(&k[i], (uint8_t)(0x60 + i));
    uint64_t x = 0x9e3779b97f4a7c15ull;
    uint64_t t = now_ms(&f);
    int64_t s = (int64_t)(t / 1000);
    struct zbc_err err;
    static uint8_t fund_tx[NK][512];
    struct zbc_tx_ref fr[NK];
    for (int i = 0; i < NK; i++) {
        size_t n = fx_send(fund_tx[i], &f, &f.fund, &k[i].addr,
                           20000 + rnd(&x) % 40000, FX_FEE, s);
        fr[i].bytes = fund_tx[i];
        fr[i].len = (uint32_t)n;
    }
    struct zbc_block b;
    struct zbc_undo u;
    build_on_tip(&f, &b, fr, NK, t, &u);
    CHECK_EQ_INT(b.n_tx, NK);
    zbc_block_free(&b);
    zbc_undo_free(&u);

    struct zbc_mempool *full = zbc_mempool_new(100000, 1 << 26);
    struct zbc_mempool *tgt = zbc_mempool_new(100000, 1 << 26);
    static uint8_t txs[ROUNDS * PER_ROUND * 2][512];
    size_t n_txs = 0;
    size_t skipped_all = 0, dropped_all = 0;
    for (int round = 0; round < ROUNDS; round++) {
        t += 1000;
        s = (int64_t)(t / 1000);
        for (int j = 0; j < PER_ROUND; j++) {
            const struct fx_key *from = &k[rnd(&x) % NK];
            const struct fx_key *to = &k[rnd(&x) % NK];
            /* one in 8 near the window's old end: gone 5 - 20 s later */
            int64_t ts = s;
            if (rnd(&x) % 8 == 0)
                ts = s - 3595 + (int64_t)(rnd(&x) % 15);
            /* one call per statement: the same draws with any compiler */
            uint64_t amount = rnd(&x) % 8000;
            int64_t fee = FX_FEE + (int64_t)(rnd(&x) % 300);
            uint8_t *tx = txs[n_txs++];
            size_t n = fx_send(tx, &f, from, &to->addr, amount, fee, ts);
            uint8_t h1[32], h2[32];
            struct zbc_err e1 = {{0}}, e2 = {{0}};
            bool d1, d2;
            int ok1 = zbc_mempool_add(full, &f.s, &f.g, tx, n, t, h1, &d1, &e1);
            int ok2 = zbc_mempool_add(tgt, &f.s, &f.g, tx, n, t, h2, &d2, &e2);
            CHECK_EQ_INT(ok1, ok2);
            CHECK_EQ_STR(e1.msg, e2.msg);
        }
        /* the block: every fourth pooled transaction in priority order,
         * behind a few unpooled transfers that spend the senders' money */
        size_t np = zbc_mempool_count(full);
        struct zbc_tx_ref *sel = calloc(np + 8, sizeof *sel);
        struct zbc_tx_ref *refs = calloc(np + 8, sizeof *refs);
        size_t nr = 0;
        for (int j = 0; j < 3; j++) {
            const struct fx_key *from = &k[rnd(&x) % NK];
            uint64_t amount = 5000 + rnd(&x) % 10000;
            uint8_t *tx = txs[n_txs++];
            size_t n = fx_send(tx, &f, from, &f.c.addr, amount, FX_FEE, s);
            refs[nr].bytes = tx;
            refs[nr++].len = (uint32_t)n;
        }
        np = zbc_mempool_select(full, sel, np);
        /* copies: the pools free their bytes as the block leaves them */
        static uint8_t copies[PER_ROUND * ROUNDS][512];
        for (size_t j = 0; j < np; j += 4) {
            memcpy(copies[nr], sel[j].bytes, sel[j].len);
            refs[nr].bytes = copies[nr];
            refs[nr++].len = sel[j].len;
        }
        uint64_t bt = t + 500;
        build_on_tip(&f, &b, refs, nr, bt, &u);
        size_t before = zbc_mempool_count(full), in_block = 0;
        for (uint32_t j = 0; j < b.n_tx; j++)
            in_block += pooled(full, b.txs[j].bytes, b.txs[j].len);
        CHECK(zbc_mempool_after_block(full, &f.s, &f.g, &b, bt, &err));
        CHECK(zbc_mempool_after_block_undo(tgt, &f.s, &f.g, &b, &u, bt,
                                           &err));
        size_t checked, skipped;
        zbc_mempool_last_recheck(tgt, &checked, &skipped);
        skipped_all += skipped;
        dropped_all += before - in_block - zbc_mempool_count(full);
        CHECK_EQ_INT(zbc_mempool_count(full), zbc_mempool_count(tgt));
        size_t n1 = zbc_mempool_select(full, sel, np + 8);
        struct zbc_tx_ref *sel2 = calloc(np + 8, sizeof *sel2);
        size_t n2 = zbc_mempool_select(tgt, sel2, np + 8);
        CHECK_EQ_INT(n1, n2);
        for (size_t j = 0; j < n1 && j < n2; j++)
            CHECK(sel[j].len == sel2[j].len &&
                  memcmp(sel[j].bytes, sel2[j].bytes, sel[j].len) == 0);
        free(sel2);
        free(sel);
        free(refs);
        zbc_block_free(&b);
        zbc_undo_free(&u);
    }
    /* the run exercised both paths and dropped transactions */
    CHECK(skipped_all > 0);
    CHECK(dropped_all > 0);
    printf("  same as full: %zu time-only checks, %zu drops\n", skipped_all,
           dropped_all);
    zbc_mempool_free(full);
    zbc_mempool_free(tgt);
    fx_free(&f);
}

/* zbc_mempool_after_block_hashed: with the block's transactions as a
 * precheck left them, their hashes are taken as given (not computed
 * again: the point of it); with NULL, the same result as
 * zbc_mempool_after_block. */
static void test_after_block_hashed(void)
{
    struct fx f;
    fx_init(&f);
    uint64_t t = now_ms(&f);
    int64_t s = (int64_t)(t / 1000);
    uint8_t tx[3][512], h[3][32];
    size_t n[3];
    for (int i = 0; i < 3; i++) {
        n[i] = fx_send(tx[i], &f, &f.a, &f.c.addr, 10 + (uint64_t)i, FX_FEE,
                       s);
        zbc_sha3_256(h[i], tx[i], n[i]);
    }
    /* three pools of the three, then the block of the first two */
    struct zbc_mempool *mp[3];
    struct zbc_err err;
    for (int m = 0; m < 3; m++) {
        mp[m] = zbc_mempool_new(100, 1 << 20);
        for (int i = 0; i < 3; i++) {
            uint8_t got[32];
            bool dup;
            CHECK(zbc_mempool_add(mp[m], &f.s, &f.g, tx[i], n[i], t, got,
                                  &dup, &err));
        }
    }
    struct zbc_tx_ref r[2] = {{tx[0], (uint32_t)n[0]}, {tx[1], (uint32_t)n[1]}};
    struct zbc_block b;
    struct zbc_undo u;
    struct zbc_events ev;
    CHECK(zbc_block_build(&b, &f.s, &f.g, &f.tip, r, 2, t, f.val.sk, &u, &ev,
                          &err));
    CHECK_EQ_INT(b.n_tx, 2);
    struct zbc_checked_tx ct[2];
    memset(ct, 0, sizeof ct);
    for (int mode = 0; mode < 3; mode++) {
        /* 0: the right hashes; 1: none (hashed inside); 2: t3's hash in
         * t1's place - taken as given: t3 leaves as if included (no drop
         * recorded), and t1, still pooled, is dropped by the re-check as
         * the duplicate it now is */
        memcpy(ct[0].hash, mode == 2 ? h[2] : h[0], 32);
        memcpy(ct[1].hash, h[1], 32);
        CHECK(zbc_mempool_after_block_hashed(mp[mode], &f.s, &f.g, &b,
                                             mode == 1 ? NULL : ct, &u,
                                             t + 1, &err));
        struct zbc_mempool_drop d;
        CHECK(!zbc_mempool_find(mp[mode], h[1], NULL, NULL, NULL));
        CHECK(!zbc_mempool_dropped(mp[mode], h[1], t + 1, &d));
        if (mode < 2) {
            CHECK_EQ_INT(zbc_mempool_count(mp[mode]), 1);
            CHECK(zbc_mempool_find(mp[mode], h[2], NULL, NULL, NULL));
            CHECK(!zbc_mempool_dropped(mp[mode], h[0], t + 1, &d));
        } else {
            CHECK_EQ_INT(zbc_mempool_count(mp[mode]), 0);
            CHECK(!zbc_mempool_dropped(mp[mode], h[2], t + 1, &d));
            CHECK(zbc_mempool_dropped(mp[mode], h[0], t + 1, &d) &&
                  strstr(d.reason, "already included") != NULL);
        }
        zbc_mempool_free(mp[mode]);
    }
    zbc_block_free(&b);
    zbc_undo_free(&u);
    zbc_events_free(&ev);
    fx_free(&f);
}

int main(void)
{
    TEST_RUN(test_admission);
    TEST_RUN(test_order_pending_expiry);
    TEST_RUN(test_capacity);
    TEST_RUN(test_full_displaces_cheapest);
    TEST_RUN(test_bound);
    TEST_RUN(test_recheck_targeted);
    TEST_RUN(test_recheck_same_as_full);
    TEST_RUN(test_after_block_hashed);
    return test_summary("consensus_mempool");
}
