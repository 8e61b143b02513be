/* The mempool and the block builder refuse exactly what a block would
 * record as a no-op, with the same reason text. */
#include "apps_fixture.h"
#include "consensus/mempool.h"

/* Offers slot i to the pool; returns 1 when admitted, else fills why. */
static int offer(struct zbc_mempool *mp, struct fx *f, uint32_t i,
                 struct zbc_err *why)
{
    uint8_t h[32];
    bool dup;
    return zbc_mempool_add(mp, &f->s, &f->g, ax_buf[i], ax_refs[i].len,
                           f->tip.timestamp_ms + 1000, h, &dup, why);
}

static void test_same_reasons(void)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    struct zbc_events ev = {0};
    uint8_t sk[32];
    memset(sk, 0x07, 32);
    struct zbc_addr eth;
    CHECK(zbc_eth_address(&eth, sk));
    ax_refs[0].bytes = ax_buf[0];
    ax_refs[0].len = (uint32_t)fx_send(ax_buf[0], &f, &f.a, &eth, 50000,
                                       FX_FEE, fx_now_s(&f));
    ax_n = 1;
    uint64_t id = ax_create(&f, &f.a, 1, 5000, 2, NULL, 0, NULL, FX_FEE);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    ax_ref(&f, &f.b, ZBC_TX_APP_JOIN, id);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);

    uint8_t jb[8];
    zbc_put_le64(jb, id);
    /* limbo at 2,000,000x of 1000 may return 2,000,000 > 1 % of the fund */
    uint8_t limbo[9] = {0, 0, 0, 0, 4, 's', 'e', 'e', 'd'};
    zbc_put_le32(limbo, 200000000);
    const char *want[] = {
        "first turn pending", "is full", "unknown app 999",
        "multiplayer apps require a ZBC account", "nobody holds the clock",
        "exceeds 1% of the apps fund", "already seated",
        "sender is not seated",
    };
    uint32_t n = 0;
    ax_move1(&f, &f.a, id, 4), n++;
    ax_ref(&f, &f.c, ZBC_TX_APP_JOIN, id), n++;
    ax_ref(&f, &f.a, ZBC_TX_APP_JOIN, 999), n++;
    eth_tx(&f, sk, ZBC_TX_APP_JOIN, jb, 8), n++;
    ax_ref(&f, &f.a, ZBC_TX_APP_CLAIM, id), n++;
    ax_create(&f, &f.a, 22, 1000, 1, limbo, 9, NULL, FX_FEE), n++;
    ax_ref(&f, &f.b, ZBC_TX_APP_JOIN, id), n++;
    ax_ref(&f, &f.c, ZBC_TX_APP_RESIGN, id), n++;
    struct zbc_mempool *mp = zbc_mempool_new(100, 1 << 20);
    char texts[8][ZBC_ERR_MAX];
    for (uint32_t i = 0; i < n; i++) {
        struct zbc_err why = {{0}};
        CHECK(!offer(mp, &f, i, &why));
        if (strstr(why.msg, want[i]) == NULL) {
            test_failures++;
            fprintf(stderr, "  slot %u: \"%s\" lacks \"%s\"\n", i, why.msg,
                    want[i]);
        }
        memcpy(texts[i], why.msg, ZBC_ERR_MAX);
    }
    CHECK_EQ_INT(zbc_mempool_count(mp), 0);
    /* in a block anyway (the next one, as the pool assumed): no-ops with
     * the very same texts, no fee */
    uint64_t a0 = fx_balance(&f, &f.a.addr);
    CHECK(ax_block(&f, &ev));
    for (uint32_t i = 0; i < n; i++) {
        const struct zbc_event *e = NULL;
        for (size_t k = 0; k < ev.n; k++)
            if (ev.e[k].tx_index == i)
                e = &ev.e[k];
        CHECK(e != NULL && e->kind == ZBC_EVENT_NOOP);
        if (e != NULL)
            CHECK_EQ_STR(e->reason, texts[i]);
    }
    CHECK_EQ_INT(ax_count(&ev, ZBC_EVENT_FEE), 0);
    zbc_events_free(&ev);
    CHECK_EQ_INT(fx_balance(&f, &f.a.addr), a0);
    /* the producer leaves a no-op out and takes what applies */
    ax_ref(&f, &f.c, ZBC_TX_APP_RESIGN, id);
    ax_ref(&f, &f.b, ZBC_TX_APP_RESIGN, id);
    CHECK_EQ_INT(ax_build(&f, &ev), 1);
    CHECK(ax_ev(&ev, ZBC_EVENT_APP_RESIGN, 0) != NULL);
    zbc_events_free(&ev);
    zbc_mempool_free(mp);
    fx_free(&f);
}

/* An admitted join is dropped after a block fills the app. */
static void test_recheck_after_block(void)
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
    ax_ref(&f, &f.b, ZBC_TX_APP_JOIN, id);
    CHECK(offer(mp, &f, 0, &why));
    ax_n = 0;
    CHECK_EQ_INT(zbc_mempool_count(mp), 1);
    ax_ref(&f, &f.c, ZBC_TX_APP_JOIN, id);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    struct zbc_block empty;
    memset(&empty, 0, sizeof empty);
    CHECK(zbc_mempool_after_block(mp, &f.s, &f.g, &empty,
                                  f.tip.timestamp_ms + 1000, &why));
    CHECK_EQ_INT(zbc_mempool_count(mp), 0);
    /* the pending spend of a join counts for the next one */
    uint64_t id2 = ax_create(&f, &f.a, 33, 150000, 3, NULL, 0, NULL, FX_FEE);
    uint64_t id3 = ax_create(&f, &f.a, 33, 150000, 3, NULL, 0, NULL, FX_FEE);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    uint32_t s0 = ax_ref(&f, &f.c, ZBC_TX_APP_JOIN, id2);
    CHECK(offer(mp, &f, s0, &why));
    uint32_t s1 = ax_ref(&f, &f.c, ZBC_TX_APP_JOIN, id3);
    CHECK(!offer(mp, &f, s1, &why));
    CHECK(strstr(why.msg, "insufficient balance") != NULL);
    ax_n = 0;
    zbc_mempool_free(mp);
    fx_free(&f);
}

int main(void)
{
    TEST_RUN(test_same_reasons);
    TEST_RUN(test_recheck_after_block);
    return test_summary("consensus_apps_mempool");
}
