/* Mempool policy (node-local, not consensus; docs/api.md "Mempool
 * policy"): one AppMove / ResignApp / ClaimAppTimeout per (sender, app)
 * while one is pooled, and the record of dropped transactions with their
 * reasons (expired, invalid after a block), bounded in count and time. */
#include "apps_fixture.h"
#include "consensus/mempool.h"
#include "crypto/hex.h"

static uint64_t now_ms(const struct fx *f)
{
    return f->tip.timestamp_ms + 1000;
}

static int offer(struct zbc_mempool *mp, struct fx *f, uint32_t slot,
                 uint64_t t, struct zbc_err *why)
{
    uint8_t h[32];
    bool dup;
    return zbc_mempool_add(mp, &f->s, &f->g, ax_buf[slot], ax_refs[slot].len,
                           t, h, &dup, why);
}

static void expect_once_refusal(struct zbc_mempool *mp, struct fx *f,
                                uint32_t slot, uint64_t id,
                                const uint8_t first[32])
{
    char hex[65], want[ZBC_ERR_MAX];
    zbc_hex_encode(hex, first, 32);
    snprintf(want, sizeof want,
             "a transaction of yours for app %llu is already waiting in the "
             "mempool (tx %s): send the next one after it is in a block",
             (unsigned long long)id, hex);
    struct zbc_err why = {{0}};
    size_t n = zbc_mempool_count(mp);
    CHECK(!offer(mp, f, slot, now_ms(f), &why));
    CHECK_EQ_STR(why.msg, want);
    CHECK_EQ_INT(zbc_mempool_count(mp), n);
}

static void test_one_app_tx_per_sender(void)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    struct zbc_events ev = {0};
    uint64_t id = ax_create(&f, &f.a, 1, 5000, 2, NULL, 0, NULL, FX_FEE);
    uint64_t id2 = ax_create(&f, &f.a, 1, 5000, 2, NULL, 0, NULL, FX_FEE);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    struct zbc_mempool *mp = zbc_mempool_new(100, 1 << 20);
    struct zbc_err why = {{0}};
    uint32_t r1 = ax_ref(&f, &f.a, ZBC_TX_APP_RESIGN, id);
    CHECK(offer(mp, &f, r1, now_ms(&f), &why));
    uint8_t h1[32];
    ax_hash(h1, r1);
    /* a second resign, a move and a claim of the same sender and app */
    expect_once_refusal(mp, &f, ax_ref(&f, &f.a, ZBC_TX_APP_RESIGN, id), id,
                        h1);
    uint32_t mv = ax_move1(&f, &f.a, id, 4);
    expect_once_refusal(mp, &f, mv, id, h1);
    uint32_t keep = ax_move(&f, &f.a, id, NULL, 0); /* a keep-alive */
    expect_once_refusal(mp, &f, keep, id, h1);
    expect_once_refusal(mp, &f, ax_ref(&f, &f.a, ZBC_TX_APP_CLAIM, id), id,
                        h1);
    /* another app, another sender, another type: not concerned */
    CHECK(offer(mp, &f, ax_ref(&f, &f.a, ZBC_TX_APP_RESIGN, id2), now_ms(&f),
                &why));
    CHECK(offer(mp, &f, ax_ref(&f, &f.b, ZBC_TX_APP_JOIN, id), now_ms(&f),
                &why));
    CHECK_EQ_INT(zbc_mempool_count(mp), 3);
    /* once the first one left the pool (in a block), the next one goes */
    zbc_mempool_remove(mp, h1);
    uint32_t r2 = ax_ref(&f, &f.a, ZBC_TX_APP_RESIGN, id);
    CHECK(offer(mp, &f, r2, now_ms(&f), &why));
    CHECK_EQ_INT(zbc_mempool_count(mp), 3);
    ax_n = 0;
    zbc_mempool_free(mp);
    fx_free(&f);
}

/* A join admitted, then a block fills the app: dropped with the block's
 * height and the rule's text; an included transaction is no drop. */
static void test_drop_reasons(void)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    struct zbc_events ev = {0};
    uint64_t id = ax_create(&f, &f.a, 1, 5000, 2, NULL, 0, NULL, FX_FEE);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    struct zbc_mempool *mp = zbc_mempool_new(100, 1 << 20);
    struct zbc_err why = {{0}};
    uint32_t j = ax_ref(&f, &f.b, ZBC_TX_APP_JOIN, id);
    uint64_t t = now_ms(&f);
    CHECK(offer(mp, &f, j, t, &why));
    uint8_t hj[32];
    ax_hash(hj, j);
    ax_n = 0;
    struct zbc_mempool_drop d;
    CHECK(!zbc_mempool_dropped(mp, hj, t, &d));
    ax_ref(&f, &f.c, ZBC_TX_APP_JOIN, id);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    struct zbc_block blk;
    memset(&blk, 0, sizeof blk);
    blk.header.height = f.tip.height;
    CHECK(zbc_mempool_after_block(mp, &f.s, &f.g, &blk, t, &why));
    CHECK_EQ_INT(zbc_mempool_count(mp), 0);
    CHECK(zbc_mempool_dropped(mp, hj, t + 5, &d));
    CHECK_EQ_INT(d.height, f.tip.height);
    char want[64];
    snprintf(want, sizeof want, "invalid after block %u: ", f.tip.height);
    CHECK(strncmp(d.reason, want, strlen(want)) == 0);
    CHECK(strstr(d.reason, "is full") != NULL);
    /* kept ZBC_MEMPOOL_DROPPED_KEEP_MS, then forgotten */
    CHECK(zbc_mempool_dropped(mp, hj, t + ZBC_MEMPOOL_DROPPED_KEEP_MS, &d));
    CHECK(!zbc_mempool_dropped(mp, hj, t + ZBC_MEMPOOL_DROPPED_KEEP_MS + 1,
                               &d));

    zbc_mempool_free(mp);
    fx_free(&f);
}

static void test_expiry_and_inclusion(void)
{
    struct fx f;
    fx_init(&f);
    struct zbc_mempool *mp = zbc_mempool_new(100, 1 << 20);
    uint8_t t1[512], t2[512];
    uint64_t t = now_ms(&f);
    size_t n1 = fx_send(t1, &f, &f.a, &f.b.addr, 10, FX_FEE, fx_now_s(&f));
    size_t n2 = fx_send(t2, &f, &f.a, &f.b.addr, 11, FX_FEE, fx_now_s(&f));
    uint8_t h1[32], h2[32];
    bool dup;
    struct zbc_err err = {{0}};
    CHECK(zbc_mempool_add(mp, &f.s, &f.g, t1, n1, t, h1, &dup, &err));
    CHECK(zbc_mempool_add(mp, &f.s, &f.g, t2, n2, t, h2, &dup, &err));
    /* t1 in a block: no drop record */
    struct zbc_block b;
    struct zbc_undo u = {0};
    struct zbc_events ev = {0};
    struct zbc_tx_ref r = {t1, (uint32_t)n1};
    CHECK(zbc_block_build(&b, &f.s, &f.g, &f.tip, &r, 1, t, f.val.sk, &u, &ev,
                          &err));
    zbc_parent_from_header(&f.tip, &b.header);
    CHECK(zbc_mempool_after_block(mp, &f.s, &f.g, &b, t, &err));
    CHECK_EQ_INT(zbc_mempool_count(mp), 1);
    CHECK(!zbc_mempool_dropped(mp, h1, t, NULL));
    zbc_mempool_expire(mp, t + ZBC_MEMPOOL_TTL_MS + 1);
    CHECK_EQ_INT(zbc_mempool_count(mp), 0);
    struct zbc_mempool_drop d;
    CHECK(zbc_mempool_dropped(mp, h2, t + ZBC_MEMPOOL_TTL_MS + 1, &d));
    CHECK_EQ_STR(d.reason,
                 "expired: no block included it within 1 hour of its arrival");
    CHECK_EQ_INT(d.height, b.header.height);
    zbc_block_free(&b);
    zbc_undo_free(&u);
    zbc_events_free(&ev);
    zbc_mempool_free(mp);
    fx_free(&f);
}

/* At most ZBC_MEMPOOL_DROPPED_MAX records: the oldest go first. */
static void test_drop_bound(void)
{
    struct zbc_mempool *mp = zbc_mempool_new(10, 1 << 20);
    uint8_t h[32];
    memset(h, 0, sizeof h);
    for (uint32_t i = 0; i <= ZBC_MEMPOOL_DROPPED_MAX; i++) {
        zbc_put_le32(h, i);
        zbc_mempool_note_drop(mp, h, i, 1000, "invalid after a reorg");
    }
    struct zbc_mempool_drop d;
    zbc_put_le32(h, 0);
    CHECK(!zbc_mempool_dropped(mp, h, 1000, &d));
    zbc_put_le32(h, 1);
    CHECK(zbc_mempool_dropped(mp, h, 1000, &d));
    CHECK_EQ_INT(d.height, 1);
    zbc_put_le32(h, ZBC_MEMPOOL_DROPPED_MAX);
    CHECK(zbc_mempool_dropped(mp, h, 1000, &d));
    CHECK_EQ_STR(d.reason, "invalid after a reorg");
    /* the latest record of a hash dropped twice */
    zbc_mempool_note_drop(mp, h, 7, 2000, "second");
    CHECK(zbc_mempool_dropped(mp, h, 2000, &d));
    CHECK_EQ_STR(d.reason, "second");
    zbc_mempool_free(mp);
}

/* The records' index by hash: hashes that share a bucket (the same first
 * bytes), the ring wrapping over them, the oldest leaving the index
 * exactly, the rest found with their own record. */
static void test_drop_index(void)
{
    struct zbc_mempool *mp = zbc_mempool_new(10, 1 << 20);
    uint8_t h[32];
    memset(h, 0, sizeof h);
    const uint32_t extra = 10, total = ZBC_MEMPOOL_DROPPED_MAX + extra;
    for (uint32_t i = 0; i < total; i++) {
        /* one in 16 in bucket 0 (bytes 0-1 zero), the rest spread */
        memset(h, 0, sizeof h);
        if (i % 16 == 0)
            zbc_put_le32(h + 2, i);
        else
            zbc_put_le32(h, i);
        zbc_mempool_note_drop(mp, h, i, 1000, i % 2 == 0 ? "even" : "odd");
    }
    struct zbc_mempool_drop d;
    int found = 0, wrong = 0;
    for (uint32_t i = 0; i < total; i++) {
        memset(h, 0, sizeof h);
        if (i % 16 == 0)
            zbc_put_le32(h + 2, i);
        else
            zbc_put_le32(h, i);
        bool has = zbc_mempool_dropped(mp, h, 1000, &d);
        if (has != (i >= extra))
            wrong++;
        if (has) {
            found++;
            if (d.height != i ||
                strcmp(d.reason, i % 2 == 0 ? "even" : "odd") != 0)
                wrong++;
        }
    }
    CHECK_EQ_INT(found, ZBC_MEMPOOL_DROPPED_MAX);
    CHECK_EQ_INT(wrong, 0);
    /* a never-dropped hash in the crowded bucket */
    memset(h, 0, sizeof h);
    h[31] = 1;
    CHECK(!zbc_mempool_dropped(mp, h, 1000, NULL));
    zbc_mempool_free(mp);
}

int main(void)
{
    TEST_RUN(test_one_app_tx_per_sender);
    TEST_RUN(test_drop_reasons);
    TEST_RUN(test_expiry_and_inclusion);
    TEST_RUN(test_drop_bound);
    TEST_RUN(test_drop_index);
    return test_summary("consensus_mempool_policy");
}
