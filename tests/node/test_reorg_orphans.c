/* Orphans (blocks whose parent is unknown) in the chain facade
 * (docs/p2p.md §7): checked before they are held, held within per-peer
 * and global budgets of count and bytes, dropped when stale.
 *   - a bad orphan (producer signature, transactions root, a timestamp no
 *     chain reaches at its height, a height-1 block off the genesis, a
 *     producer outside the validator set) is INVALID and not held;
 *   - past its count or byte budget a peer's own oldest orphans go, the
 *     newest are kept and connect when the gap is filled;
 *   - past the global budget the heaviest peer's oldest orphan goes;
 *   - an orphan older than max_age_ms is dropped. */
#include <sodium.h>

#include "node/zbcd/log.h"
#include "test_reorg_fixture.h"

static struct zbc_chain *open_limited(struct net *n, const char *name,
                                      const struct zbc_orphan_limits *lim)
{
    return open_node_limited(n, name, NULL, lim);
}

static uint8_t *block_of(struct zbc_chain *src, uint32_t height, size_t *len)
{
    uint8_t *bytes = NULL;
    struct zbc_err err = {{0}};
    bool found;
    if (!zbc_chain_block(src, height, &bytes, len, &found, &err) || !found) {
        fprintf(stderr, "no block %u: %s\n", height, err.msg);
        exit(2);
    }
    return bytes;
}

/* Block `height` of src to dst from peer at local clock now. */
static enum zbc_recv_kind offer(struct zbc_chain *dst, struct zbc_chain *src,
                                uint32_t height, const uint8_t *peer,
                                uint64_t now)
{
    size_t len;
    uint8_t *bytes = block_of(src, height, &len);
    struct zbc_recv_result r;
    struct zbc_err err = {{0}};
    if (!zbc_chain_receive_block(dst, bytes, len, now, peer, &r, &err))
        fprintf(stderr, "receive %u: %s\n", height, err.msg);
    free(bytes);
    return r.kind;
}

static size_t orphans(struct zbc_chain *c, const uint8_t *peer)
{
    size_t n, bytes;
    zbc_chain_orphans(c, peer, &n, &bytes);
    return n;
}

static size_t orphan_bytes(struct zbc_chain *c, const uint8_t *peer)
{
    size_t n, bytes;
    zbc_chain_orphans(c, peer, &n, &bytes);
    return bytes;
}

/* A copy of block bytes whose header is changed by edit, then signed
 * with sk. */
static uint8_t *resigned(const uint8_t *bytes, size_t len,
                         void (*edit)(struct zbc_block_header *),
                         const uint8_t sk[64])
{
    struct zbc_block_header h;
    struct zbc_err err = {{0}};
    if (!zbc_block_header_decode(&h, bytes, ZBC_BLOCK_HEADER_LEN, &err)) {
        fprintf(stderr, "header: %s\n", err.msg);
        exit(2);
    }
    edit(&h);
    zbc_block_sign(&h, sk);
    uint8_t *out = malloc(len);
    if (out == NULL)
        exit(2);
    memcpy(out, bytes, len);
    zbc_block_header_encode(out, &h);
    return out;
}

static void edit_early(struct zbc_block_header *h)
{
    h->timestamp_ms = FX_GENESIS_TIME + 1; /* height 3 needs >= +3 s */
}

static void edit_prev(struct zbc_block_header *h)
{
    memset(h->prev_hash, 0x5A, 32);
}

static uint8_t outsider_pk[32];

static void edit_producer(struct zbc_block_header *h)
{
    memcpy(h->producer, outsider_pk, 32);
}

static void expect_refused(struct zbc_chain *c, const uint8_t *bytes,
                           size_t len, uint64_t now, const char *why)
{
    struct zbc_recv_result r;
    struct zbc_err err = {{0}};
    static const uint8_t peer[32] = {7};
    CHECK(!zbc_chain_receive_block(c, bytes, len, now, peer, &r, &err));
    CHECK_EQ_INT(r.kind, ZBC_RECV_INVALID);
    if (strstr(err.msg, why) == NULL) {
        fprintf(stderr, "error \"%s\" does not say \"%s\"\n", err.msg, why);
        CHECK(0);
    }
    CHECK_EQ_INT(orphans(c, NULL), 0);
    CHECK_EQ_INT(orphans(c, peer), 0);
}

static void test_orphan_checked_before_held(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    struct zbc_chain *c = open_node(&n, "c", NULL);
    uint8_t tx[32];
    CHECK(produce(a, 0) && produce(a, 0));
    CHECK(submit(a, &n, 1000, tx));
    CHECK(produce(a, 0));
    uint64_t now = zbc_chain_tip(a)->timestamp_ms + 1000;
    size_t len, len1;
    uint8_t *b3 = block_of(a, 3, &len);
    uint8_t *b1 = block_of(a, 1, &len1);

    /* a flipped producer signature byte */
    b3[ZBC_BLOCK_HEADER_UNSIGNED_LEN + 5] ^= 1;
    expect_refused(c, b3, len, now, "signature");
    b3[ZBC_BLOCK_HEADER_UNSIGNED_LEN + 5] ^= 1;
    /* a transaction byte changed under a good header */
    b3[len - 1] ^= 1;
    expect_refused(c, b3, len, now, "transactions root");
    b3[len - 1] ^= 1;
    /* validly signed, but no chain reaches height 3 that early */
    uint8_t *bad = resigned(b3, len, edit_early, n.k1.sk);
    expect_refused(c, bad, len, now, "before any chain can reach height 3");
    free(bad);
    /* a height-1 block whose parent is not the genesis */
    bad = resigned(b1, len1, edit_prev, n.k1.sk);
    expect_refused(c, bad, len1, now, "does not build on the genesis");
    free(bad);
    /* signed by a key outside the validator set */
    uint8_t osk[64];
    crypto_sign_keypair(outsider_pk, osk);
    bad = resigned(b3, len, edit_producer, osk);
    expect_refused(c, bad, len, now, "not a validator");
    free(bad);

    /* the genuine block is held, then connects when its parents come */
    struct zbc_recv_result r;
    struct zbc_err err = {{0}};
    static const uint8_t peer[32] = {7};
    CHECK(zbc_chain_receive_block(c, b3, len, now, peer, &r, &err));
    CHECK_EQ_INT(r.kind, ZBC_RECV_ORPHAN);
    CHECK_EQ_INT(orphans(c, NULL), 1);
    CHECK_EQ_INT(orphans(c, peer), 1);
    CHECK_EQ_INT(orphan_bytes(c, peer), len);
    CHECK_EQ_INT(offer(c, a, 1, NULL, now), ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(offer(c, a, 2, NULL, now), ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(zbc_chain_tip(c)->height, 3);
    CHECK_EQ_MEM(zbc_chain_tip(c)->hash, zbc_chain_tip(a)->hash, 32);
    CHECK_EQ_INT(tx_status(c, tx), ZBC_TX_STATUS_CONFIRMED);
    CHECK_EQ_INT(orphans(c, NULL), 0);
    CHECK_EQ_INT(orphan_bytes(c, NULL), 0);
    free(b3);
    free(b1);
    zbc_chain_close(a);
    zbc_chain_close(c);
    net_teardown(&n);
}

static void test_orphan_budget_per_peer(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    for (int i = 0; i < 8; i++)
        CHECK(produce(a, 0));
    uint64_t now = zbc_chain_tip(a)->timestamp_ms + 1000;
    static const uint8_t p[32] = {1}, q[32] = {2};

    /* by count: P's orphans 3..8, only its newest three stay */
    struct zbc_orphan_limits lim = {.peer_max_count = 3};
    struct zbc_chain *c = open_limited(&n, "c", &lim);
    for (uint32_t h = 3; h <= 8; h++)
        CHECK_EQ_INT(offer(c, a, h, p, now), ZBC_RECV_ORPHAN);
    CHECK_EQ_INT(orphans(c, p), 3);
    CHECK_EQ_INT(orphans(c, NULL), 3);
    /* another peer has a budget of its own */
    CHECK_EQ_INT(offer(c, a, 3, q, now), ZBC_RECV_ORPHAN);
    CHECK_EQ_INT(offer(c, a, 4, q, now), ZBC_RECV_ORPHAN);
    CHECK_EQ_INT(orphans(c, p), 3);
    CHECK_EQ_INT(orphans(c, q), 2);
    CHECK_EQ_INT(orphans(c, NULL), 5);
    /* filling the gap: 1, 2 come, 3 and 4 were held for Q, 5 is missing;
     * then 5 connects P's 6..8 */
    CHECK_EQ_INT(offer(c, a, 1, NULL, now), ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(offer(c, a, 2, NULL, now), ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(zbc_chain_tip(c)->height, 4);
    CHECK_EQ_INT(orphans(c, q), 0);
    CHECK_EQ_INT(offer(c, a, 5, NULL, now), ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(zbc_chain_tip(c)->height, 8);
    CHECK_EQ_INT(orphans(c, NULL), 0);

    /* by bytes: room for two and a half of these blocks */
    size_t len;
    free(block_of(a, 3, &len));
    struct zbc_orphan_limits blim = {.peer_max_bytes = 2 * len + len / 2};
    struct zbc_chain *d = open_limited(&n, "d", &blim);
    for (uint32_t h = 3; h <= 6; h++)
        CHECK_EQ_INT(offer(d, a, h, p, now), ZBC_RECV_ORPHAN);
    CHECK_EQ_INT(orphans(d, p), 2);
    CHECK(orphan_bytes(d, p) <= blim.peer_max_bytes);
    /* a block larger than the whole budget is not held at all */
    struct zbc_orphan_limits tiny = {.peer_max_bytes = len - 1};
    struct zbc_chain *e = open_limited(&n, "e", &tiny);
    CHECK_EQ_INT(offer(e, a, 3, p, now), ZBC_RECV_ORPHAN);
    CHECK_EQ_INT(orphans(e, NULL), 0);
    zbc_chain_close(a);
    zbc_chain_close(c);
    zbc_chain_close(d);
    zbc_chain_close(e);
    net_teardown(&n);
}

static void test_orphan_global_cap(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    for (int i = 0; i < 10; i++)
        CHECK(produce(a, 0));
    uint64_t now = zbc_chain_tip(a)->timestamp_ms + 1000;
    static const uint8_t p[32] = {1}, q[32] = {2}, s[32] = {3};

    /* by count: 4 in all, 3 per peer */
    struct zbc_orphan_limits lim = {.max_count = 4, .peer_max_count = 3};
    struct zbc_chain *c = open_limited(&n, "c", &lim);
    for (uint32_t h = 3; h <= 5; h++)
        CHECK_EQ_INT(offer(c, a, h, p, now), ZBC_RECV_ORPHAN);
    CHECK_EQ_INT(offer(c, a, 6, q, now), ZBC_RECV_ORPHAN);
    CHECK_EQ_INT(orphans(c, NULL), 4);
    /* full: the heaviest peer (P, 3 blocks) loses its oldest */
    CHECK_EQ_INT(offer(c, a, 7, q, now), ZBC_RECV_ORPHAN);
    CHECK_EQ_INT(orphans(c, NULL), 4);
    CHECK_EQ_INT(orphans(c, p), 2);
    CHECK_EQ_INT(orphans(c, q), 2);
    /* equal shares: the peer whose oldest orphan is oldest (P) */
    CHECK_EQ_INT(offer(c, a, 8, s, now), ZBC_RECV_ORPHAN);
    CHECK_EQ_INT(orphans(c, NULL), 4);
    CHECK_EQ_INT(orphans(c, p), 1);
    CHECK_EQ_INT(orphans(c, q), 2);
    CHECK_EQ_INT(orphans(c, s), 1);
    /* what is left still connects: 1..4 given, 5 (P's newest) was held */
    for (uint32_t h = 1; h <= 4; h++)
        CHECK_EQ_INT(offer(c, a, h, NULL, now), ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(zbc_chain_tip(c)->height, 8);
    CHECK_EQ_INT(orphans(c, NULL), 0);

    /* by bytes: three blocks' worth in all */
    size_t len;
    free(block_of(a, 3, &len));
    struct zbc_orphan_limits blim = {.max_bytes = 3 * len};
    struct zbc_chain *d = open_limited(&n, "d", &blim);
    const uint8_t *from[] = {p, q, s, p, q, s};
    for (uint32_t h = 3; h <= 8; h++)
        CHECK_EQ_INT(offer(d, a, h, from[h - 3], now), ZBC_RECV_ORPHAN);
    CHECK_EQ_INT(orphans(d, NULL), 3);
    CHECK(orphan_bytes(d, NULL) <= blim.max_bytes);
    zbc_chain_close(a);
    zbc_chain_close(c);
    zbc_chain_close(d);
    net_teardown(&n);
}

static void test_orphan_stale(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    struct zbc_chain *c = open_node(&n, "c", NULL);
    for (int i = 0; i < 3; i++)
        CHECK(produce(a, 0));
    uint64_t now = zbc_chain_tip(a)->timestamp_ms + 1000;
    static const uint8_t p[32] = {1};
    CHECK_EQ_INT(offer(c, a, 3, p, now), ZBC_RECV_ORPHAN);
    /* still held at exactly the age limit */
    CHECK_EQ_INT(offer(c, a, 3, p, now + ZBC_CHAIN_ORPHAN_AGE_MS),
                 ZBC_RECV_DUPLICATE);
    CHECK_EQ_INT(orphans(c, NULL), 1);
    /* past it, the next block received drops it */
    CHECK_EQ_INT(offer(c, a, 1, NULL, now + ZBC_CHAIN_ORPHAN_AGE_MS + 1),
                 ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(orphans(c, NULL), 0);
    CHECK_EQ_INT(offer(c, a, 2, NULL, now + ZBC_CHAIN_ORPHAN_AGE_MS + 2),
                 ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(zbc_chain_tip(c)->height, 2);
    /* sent again, it connects */
    CHECK_EQ_INT(offer(c, a, 3, p, now + ZBC_CHAIN_ORPHAN_AGE_MS + 3),
                 ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(zbc_chain_tip(c)->height, 3);
    zbc_chain_close(a);
    zbc_chain_close(c);
    net_teardown(&n);
}

int main(void)
{
    zbc_log_set_level(ZBC_LOG_ERROR);
    if (sodium_init() < 0)
        return 2;
    TEST_RUN(test_orphan_checked_before_held);
    TEST_RUN(test_orphan_budget_per_peer);
    TEST_RUN(test_orphan_global_cap);
    TEST_RUN(test_orphan_stale);
    return test_summary("node_reorg_orphans");
}
