/* Fork choice and reorgs in the chain facade (node/chain.h "network"):
 * two validators build competing branches with the real consensus layer
 * on temporary ledgers; observers receive them in various orders.
 *   - the heavier branch wins, whatever the arrival order (orphans held
 *     until their parent arrives);
 *   - after a reorg the state root equals that of a node that only ever
 *     saw the winner, and survives a restart;
 *   - transactions of undone blocks go back to the mempool;
 *   - invalid, future and too-deep blocks are refused;
 *   - a fork point exactly ZBC_REORG_MAX_DEPTH below the tip is still
 *     accepted as a side branch, one block deeper is final. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* the fixture's one-validator setup is not used here */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "chain_fixture.h"
#pragma GCC diagnostic pop
#include "consensus/apply.h"
#include "consensus/fork_choice.h"
#include "consensus/producer.h"
#include "node/chain.h"
#include "node/log.h"
#include "testlib.h"

#define FEE 10000

struct net {
    char base[64];
    struct zbc_node_key k1, k2;
    struct zbc_genesis g;
    uint8_t alice_seed[32], bob_seed[32];
    struct zbc_addr alice, bob;
    int n_dirs;
};

static void load_key(struct net *n, const char *name, struct zbc_node_key *k)
{
    char dir[128];
    struct zbc_err err = {{0}};
    snprintf(dir, sizeof dir, "%s/%s", n->base, name);
    if (!zbc_datadir_init(dir, NULL, k, &err)) {
        fprintf(stderr, "datadir init: %s\n", err.msg);
        exit(2);
    }
}

static void net_setup(struct net *n)
{
    memset(n, 0, sizeof *n);
    strcpy(n->base, "/tmp/zbc_test_reorg_XXXXXX");
    if (mkdtemp(n->base) == NULL) {
        perror("mkdtemp");
        exit(2);
    }
    load_key(n, "k1", &n->k1);
    load_key(n, "k2", &n->k2);
    fx_account(&n->alice, n->alice_seed, 0xA1);
    fx_account(&n->bob, n->bob_seed, 0xB0);
    char v1[65], v2[65], alice[ZBC_ADDR_TEXT_MAX], bob[ZBC_ADDR_TEXT_MAX],
        fund[ZBC_ADDR_TEXT_MAX], json[2048];
    uint8_t fund_pk[32];
    memset(fund_pk, 0xF0, sizeof fund_pk);
    zbc_hex_encode(v1, n->k1.pk, 32);
    zbc_hex_encode(v2, n->k2.pk, 32);
    zbc_addr_to_text(alice, &n->alice);
    zbc_addr_to_text(bob, &n->bob);
    zbc_addr_zbc_text(fund, fund_pk, "ZBC");
    snprintf(json, sizeof json,
             "{\"chain_name\":\"reorg-test\",\"genesis_time\":%llu,"
             "\"block_time_ms\":1000,\"smith_delay_ms\":1000,"
             "\"validators\":[\"%s\",\"%s\"],\"fund_account\":\"%s\","
             "\"fund_balance\":5000000000,"
             "\"balances\":[{\"address\":\"%s\",\"amount\":1000000000},"
             "{\"address\":\"%s\",\"amount\":1000}],"
             "\"min_fee_base\":1000,\"min_fee_per_byte\":10}",
             (unsigned long long)FX_GENESIS_TIME, v1, v2, fund, alice, bob);
    struct zbc_err err = {{0}};
    if (!zbc_genesis_parse_json(&n->g, json, strlen(json), &err)) {
        fprintf(stderr, "genesis: %s\n", err.msg);
        exit(2);
    }
}

static void net_teardown(struct net *n)
{
    zbc_genesis_free(&n->g);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", n->base);
    if (system(cmd) != 0)
        fprintf(stderr, "cleanup of %s failed\n", n->base);
}

/* A chain on its own ledger <base>/<name>; key NULL: an observer. */
static struct zbc_chain *open_node(struct net *n, const char *name,
                                   const struct zbc_node_key *key)
{
    char dir[160];
    snprintf(dir, sizeof dir, "%s/%s", n->base, name);
    mkdir(dir, 0700);
    struct zbc_chain *c = NULL;
    struct zbc_err err = {{0}};
    struct zbc_chain_config cfg = {.ledger_dir = dir, .genesis = &n->g,
                                   .key = key};
    if (!zbc_chain_open(&c, &cfg, &err)) {
        fprintf(stderr, "chain open %s: %s\n", name, err.msg);
        exit(2);
    }
    return c;
}

/* Produces the next block at this key's earliest time + extra_ms. */
static int produce(struct zbc_chain *c, uint64_t extra_ms)
{
    struct zbc_slot slot;
    struct zbc_block_info info;
    struct zbc_err err = {{0}};
    if (!zbc_chain_next_slot(c, &slot, &err) || !slot.is_validator)
        return 0;
    if (!zbc_chain_produce(c, slot.earliest_ms + extra_ms, &info, &err)) {
        fprintf(stderr, "produce: %s\n", err.msg);
        return 0;
    }
    return 1;
}

static int submit(struct zbc_chain *c, struct net *n, uint64_t amount,
                  uint8_t hash[32])
{
    struct fixture f; /* fx_send needs the genesis hash only */
    memset(&f, 0, sizeof f);
    memcpy(f.g.hash, n->g.hash, 32);
    uint8_t raw[512];
    size_t len = fx_send(raw, sizeof raw, &f, n->alice_seed, &n->bob, amount,
                         FEE, (int64_t)(FX_GENESIS_TIME / 1000) + 1);
    bool dup;
    struct zbc_err err = {{0}};
    if (!zbc_chain_submit(c, raw, len, FX_GENESIS_TIME + 500, hash, &dup,
                          &err)) {
        fprintf(stderr, "submit: %s\n", err.msg);
        return 0;
    }
    return 1;
}

/* Far enough after every block here that no block is "in the future". */
#define LATE_MS (FX_GENESIS_TIME + 100000000ull)

static enum zbc_recv_kind give(struct zbc_chain *dst, struct zbc_chain *src,
                               uint32_t height, struct zbc_recv_result *out)
{
    uint8_t *bytes = NULL;
    size_t len = 0;
    struct zbc_err err = {{0}};
    struct zbc_recv_result r;
    if (zbc_chain_block(src, height, &bytes, &len, &err) != ZBC_KV_FOUND) {
        fprintf(stderr, "no block %u: %s\n", height, err.msg);
        exit(2);
    }
    /* the receiver's clock: just after the sender's tip */
    uint64_t now = zbc_chain_tip(src)->timestamp_ms + 1000;
    if (!zbc_chain_receive_block(dst, bytes, len, now, &r, &err) &&
        r.kind != ZBC_RECV_INVALID)
        fprintf(stderr, "receive: %s\n", err.msg);
    free(bytes);
    if (out != NULL)
        *out = r;
    return r.kind;
}

static void state_root(struct zbc_chain *c, uint8_t root[32])
{
    zbc_chain_tip_state_root(c, root);
}

static enum zbc_tx_status tx_status(struct zbc_chain *c, const uint8_t h[32])
{
    struct zbc_tx_lookup l;
    struct zbc_err err = {{0}};
    if (!zbc_chain_find_tx(c, h, &l, &err))
        return ZBC_TX_STATUS_NOT_FOUND;
    enum zbc_tx_status s = l.status;
    zbc_tx_lookup_free(&l);
    return s;
}

static void test_heavier_branch_wins(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    struct zbc_chain *b = open_node(&n, "b", &n.k2);
    struct zbc_chain *c = open_node(&n, "c", NULL);
    struct zbc_chain *d = open_node(&n, "d", NULL);
    uint8_t tx_b[32], tx_a[32];
    /* branch B: 2 blocks with a transfer; branch A: 4 blocks with another */
    CHECK(submit(b, &n, 1000, tx_b));
    CHECK(produce(b, 0) && produce(b, 0));
    CHECK(submit(a, &n, 2000, tx_a));
    CHECK(produce(a, 0) && produce(a, 0) && produce(a, 0) && produce(a, 0));
    CHECK_EQ_INT(zbc_chain_tip(a)->height, 4);
    CHECK_EQ_INT(tx_status(b, tx_b), ZBC_TX_STATUS_CONFIRMED);

    /* c first follows B */
    CHECK_EQ_INT(give(c, b, 1, NULL), ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(give(c, b, 2, NULL), ZBC_RECV_EXTENDED);
    CHECK_EQ_MEM(zbc_chain_tip(c)->hash, zbc_chain_tip(b)->hash, 32);
    CHECK_EQ_INT(tx_status(c, tx_b), ZBC_TX_STATUS_CONFIRMED);

    /* then gets A's blocks newest first: held as orphans until block 1 */
    CHECK_EQ_INT(give(c, a, 4, NULL), ZBC_RECV_ORPHAN);
    CHECK_EQ_INT(give(c, a, 3, NULL), ZBC_RECV_ORPHAN);
    CHECK_EQ_INT(give(c, a, 4, NULL), ZBC_RECV_DUPLICATE);
    CHECK(!zbc_chain_knows_block(c, zbc_chain_tip(a)->hash));
    CHECK_EQ_INT(give(c, a, 2, NULL), ZBC_RECV_ORPHAN);
    struct zbc_recv_result r;
    give(c, a, 1, &r);
    CHECK(r.kind == ZBC_RECV_SIDE || r.kind == ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(r.undone, 2);
    CHECK_EQ_INT(r.applied, 4);
    CHECK_EQ_INT(zbc_chain_tip(c)->height, 4);
    CHECK_EQ_MEM(zbc_chain_tip(c)->hash, zbc_chain_tip(a)->hash, 32);

    /* d only ever saw A: same state */
    for (uint32_t h = 1; h <= 4; h++)
        CHECK_EQ_INT(give(d, a, h, NULL), ZBC_RECV_EXTENDED);
    uint8_t ra[32], rc[32], rd[32];
    state_root(a, ra);
    state_root(c, rc);
    state_root(d, rd);
    CHECK_EQ_MEM(rc, ra, 32);
    CHECK_EQ_MEM(rd, ra, 32);

    /* B's transfer left the chain and is pending again; A's is in */
    CHECK_EQ_INT(tx_status(c, tx_b), ZBC_TX_STATUS_MEMPOOL);
    CHECK_EQ_INT(tx_status(c, tx_a), ZBC_TX_STATUS_CONFIRMED);
    CHECK_EQ_INT(zbc_chain_mempool_count(c), 1);
    /* the undone branch is kept (known, valid) and now lighter */
    CHECK(zbc_chain_knows_block(c, zbc_chain_tip(b)->hash));
    CHECK_EQ_INT(give(c, b, 2, NULL), ZBC_RECV_DUPLICATE);
    /* a lighter branch stays on the side */
    CHECK_EQ_INT(give(d, b, 1, NULL), ZBC_RECV_SIDE);
    CHECK_EQ_INT(give(d, b, 2, NULL), ZBC_RECV_SIDE);
    CHECK_EQ_MEM(zbc_chain_tip(d)->hash, zbc_chain_tip(a)->hash, 32);

    /* B itself reorgs onto A when it hears of it */
    for (uint32_t h = 1; h <= 4; h++)
        give(b, a, h, NULL);
    CHECK_EQ_MEM(zbc_chain_tip(b)->hash, zbc_chain_tip(a)->hash, 32);
    uint8_t rb[32];
    state_root(b, rb);
    CHECK_EQ_MEM(rb, ra, 32);
    CHECK_EQ_INT(tx_status(b, tx_b), ZBC_TX_STATUS_MEMPOOL);

    /* the reorged ledger reopens (tip, state root and height verified) */
    zbc_chain_close(c);
    c = open_node(&n, "c", NULL);
    CHECK_EQ_MEM(zbc_chain_tip(c)->hash, zbc_chain_tip(a)->hash, 32);
    state_root(c, rc);
    CHECK_EQ_MEM(rc, ra, 32);

    /* A's next block extends everyone */
    CHECK(produce(a, 0));
    CHECK_EQ_INT(give(c, a, 5, NULL), ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(give(b, a, 5, NULL), ZBC_RECV_EXTENDED);

    zbc_chain_close(a);
    zbc_chain_close(b);
    zbc_chain_close(c);
    zbc_chain_close(d);
    net_teardown(&n);
}

/* Equal weight: the earlier tip timestamp wins, whichever came first. */
static void test_tie_earlier_timestamp(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    struct zbc_chain *a2 = open_node(&n, "a2", &n.k1);
    struct zbc_chain *c = open_node(&n, "c", NULL);
    struct zbc_chain *d = open_node(&n, "d", NULL);
    /* same producer, same rank, block 1 at two times */
    CHECK(produce(a, 0));
    CHECK(produce(a2, 7));
    CHECK(zbc_chain_tip(a)->timestamp_ms < zbc_chain_tip(a2)->timestamp_ms);
    CHECK_EQ_INT(give(c, a2, 1, NULL), ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(give(c, a, 1, NULL), ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(give(d, a, 1, NULL), ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(give(d, a2, 1, NULL), ZBC_RECV_SIDE);
    CHECK_EQ_MEM(zbc_chain_tip(c)->hash, zbc_chain_tip(a)->hash, 32);
    CHECK_EQ_MEM(zbc_chain_tip(d)->hash, zbc_chain_tip(a)->hash, 32);
    zbc_chain_close(a);
    zbc_chain_close(a2);
    zbc_chain_close(c);
    zbc_chain_close(d);
    net_teardown(&n);
}

static void test_bad_blocks_refused(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    struct zbc_chain *c = open_node(&n, "c", NULL);
    CHECK(produce(a, 0));
    uint8_t *bytes = NULL;
    size_t len = 0;
    struct zbc_err err = {{0}};
    struct zbc_recv_result r;
    CHECK_EQ_INT(zbc_chain_block(a, 1, &bytes, &len, &err), ZBC_KV_FOUND);

    /* garbage */
    static const uint8_t junk[5] = {1, 2, 3, 4, 5};
    CHECK(!zbc_chain_receive_block(c, junk, sizeof junk, LATE_MS, &r, &err));
    CHECK_EQ_INT(r.kind, ZBC_RECV_INVALID);
    /* a flipped signature byte */
    bytes[300] ^= 1;
    CHECK(!zbc_chain_receive_block(c, bytes, len, LATE_MS, &r, &err));
    CHECK_EQ_INT(r.kind, ZBC_RECV_INVALID);
    CHECK(strstr(err.msg, "signature") != NULL);
    bytes[300] ^= 1;
    /* more than 10 s ahead of our clock: dropped, not stored */
    const struct zbc_parent *tip = zbc_chain_tip(a);
    CHECK(zbc_chain_receive_block(c, bytes, len,
                                  tip->timestamp_ms - ZBC_CLOCK_SKEW_MS - 1,
                                  &r, &err));
    CHECK_EQ_INT(r.kind, ZBC_RECV_FUTURE);
    CHECK_EQ_INT(zbc_chain_tip(c)->height, 0);
    CHECK(zbc_chain_receive_block(c, bytes, len, LATE_MS, &r, &err));
    CHECK_EQ_INT(r.kind, ZBC_RECV_EXTENDED);
    /* a side block with a bad signature is refused too */
    struct zbc_chain *b = open_node(&n, "b", &n.k2);
    CHECK(produce(b, 0));
    free(bytes);
    CHECK_EQ_INT(zbc_chain_block(b, 1, &bytes, &len, &err), ZBC_KV_FOUND);
    bytes[300] ^= 1;
    CHECK(!zbc_chain_receive_block(c, bytes, len, LATE_MS, &r, &err));
    CHECK_EQ_INT(r.kind, ZBC_RECV_INVALID);
    bytes[300] ^= 1;
    CHECK(zbc_chain_receive_block(c, bytes, len, LATE_MS, &r, &err));
    CHECK(r.kind == ZBC_RECV_SIDE || r.kind == ZBC_RECV_EXTENDED);
    free(bytes);
    zbc_chain_close(a);
    zbc_chain_close(b);
    zbc_chain_close(c);
    net_teardown(&n);
}

static void test_locator(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    struct zbc_chain *b = open_node(&n, "b", &n.k2);
    for (int i = 0; i < 30; i++)
        CHECK(produce(a, 0));
    uint8_t loc[ZBC_CHAIN_LOCATOR_MAX][32];
    struct zbc_err err = {{0}};
    size_t nl = zbc_chain_locator(a, loc, ZBC_CHAIN_LOCATOR_MAX, &err);
    /* 30..21 one by one, then 19, 15, 7, then the genesis */
    CHECK_EQ_INT(nl, 14);
    CHECK_EQ_MEM(loc[0], zbc_chain_tip(a)->hash, 32);
    CHECK_EQ_MEM(loc[nl - 1], n.g.hash, 32);
    uint32_t h = 99;
    CHECK(zbc_chain_locate(a, (const uint8_t (*)[32])loc, nl, &h, &err));
    CHECK_EQ_INT(h, 30);
    /* b shares only the genesis */
    CHECK(zbc_chain_locate(b, (const uint8_t (*)[32])loc, nl, &h, &err));
    CHECK_EQ_INT(h, 0);
    /* a node holding blocks 1..19: block 19 is the first locator entry
     * it has */
    for (uint32_t k = 1; k <= 19; k++)
        give(b, a, k, NULL);
    CHECK(zbc_chain_locate(b, (const uint8_t (*)[32])loc, nl, &h, &err));
    CHECK_EQ_INT(h, 19);
    zbc_chain_close(a);
    zbc_chain_close(b);
    net_teardown(&n);
}

static void test_reorg_depth_limit(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    struct zbc_chain *b = open_node(&n, "b", &n.k2);
    struct zbc_chain *e = open_node(&n, "e", &n.k2);
    struct zbc_chain *c = open_node(&n, "c", NULL);
    for (uint32_t h = 1; h <= ZBC_REORG_MAX_DEPTH + 1; h++) {
        if (!produce(a, 0)) {
            CHECK(0);
            break;
        }
    }
    for (uint32_t h = 1; h <= ZBC_REORG_MAX_DEPTH; h++)
        give(c, a, h, NULL);
    CHECK_EQ_INT(zbc_chain_tip(c)->height, ZBC_REORG_MAX_DEPTH);
    /* forks at the genesis, exactly 1440 below the tip: still a side */
    CHECK(produce(b, 0));
    CHECK_EQ_INT(give(c, b, 1, NULL), ZBC_RECV_SIDE);
    /* one block more and another fork at the genesis is final */
    CHECK_EQ_INT(give(c, a, ZBC_REORG_MAX_DEPTH + 1, NULL),
                 ZBC_RECV_EXTENDED);
    CHECK(produce(e, 3));
    CHECK_EQ_INT(give(c, e, 1, NULL), ZBC_RECV_TOO_DEEP);
    CHECK(!zbc_chain_knows_block(c, zbc_chain_tip(e)->hash));
    CHECK_EQ_MEM(zbc_chain_tip(c)->hash, zbc_chain_tip(a)->hash, 32);
    zbc_chain_close(a);
    zbc_chain_close(b);
    zbc_chain_close(e);
    zbc_chain_close(c);
    net_teardown(&n);
}

int main(void)
{
    zbc_log_set_level(ZBC_LOG_ERROR);
    TEST_RUN(test_heavier_branch_wins);
    TEST_RUN(test_tie_earlier_timestamp);
    TEST_RUN(test_bad_blocks_refused);
    TEST_RUN(test_locator);
    TEST_RUN(test_reorg_depth_limit);
    return test_summary("node_reorg");
}
