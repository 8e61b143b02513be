/* The transaction index (node/zbcd/tx_index.h): a transaction's height is
 * its TXSEEN entry, its position the place of its hash in the block's
 * block_txs record, written and removed with the block.  Positions after
 * blocks and a reorg, a ledger of a zbcd from before block_txs (its
 * tx_index table emptied, the lists written on open), and a damaged list
 * (a failure naming the block, repaired on the next open). */
#include "crypto/bytes.h"
#include "node/zbcd/chain_internal.h"
#include "node/zbcd/log.h"
#include "node/zbcd/tx_index.h"
#include "test_reorg_fixture.h"

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

/* tx[j] confirmed in block j + 1, its only transaction, for j < count. */
static void one_per_block(struct zbc_chain *c, const uint8_t (*tx)[32],
                          uint32_t count)
{
    for (uint32_t j = 0; j < count; j++) {
        uint32_t h, i;
        where(c, tx[j], &h, &i);
        CHECK_EQ_INT(h, j + 1);
        CHECK_EQ_INT(i, 0);
    }
}

static enum zbc_tx_status status_of(struct zbc_chain *c, const uint8_t h[32])
{
    struct zbc_tx_lookup l;
    struct zbc_err err = {{0}};
    CHECK(zbc_chain_tx_status(c, h, &l, &err));
    return l.status;
}

struct counts {
    uint64_t lists, legacy;
    bool marker;
    uint32_t marker_height;
    uint32_t lists_at; /* block_txs_tip's height (99999: absent) */
};

static int counts_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct counts *k = arg;
    uint8_t *v = NULL;
    size_t len = 0;
    if (!zbc_store_txn_count(t, ZBC_STORE_DB_BLOCK_TXS, &k->lists, err) ||
        !zbc_store_txn_count(t, ZBC_STORE_DB_TX_INDEX, &k->legacy, err) ||
        !zbc_store_txn_get(t, ZBC_STORE_DB_META, ZBC_TX_INDEX_LEGACY_MARKER,
                           strlen(ZBC_TX_INDEX_LEGACY_MARKER), &v, &len,
                           &k->marker, err))
        return 0;
    k->marker_height = k->marker && len == 36 ? zbc_store_le32(v) : 99999;
    free(v);
    v = NULL;
    bool has;
    if (!zbc_store_txn_get(t, ZBC_STORE_DB_META, ZBC_STORE_BLOCK_TXS_TIP,
                           strlen(ZBC_STORE_BLOCK_TXS_TIP), &v, &len, &has,
                           err))
        return 0;
    k->lists_at = has && len == 36 ? zbc_store_le32(v) : 99999;
    free(v);
    return 1;
}

static struct counts counts_of(struct zbc_store *s)
{
    struct counts k = {0};
    struct zbc_err err = {{0}};
    CHECK(zbc_store_read(s, counts_fn, &k, &err));
    return k;
}

static void test_positions(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    uint8_t tx[4][32], unknown[32];
    CHECK(submit(a, &n, 1000, tx[0]));
    CHECK(produce(a, 0));
    CHECK(produce(a, 0)); /* a block without transactions: an empty list */
    for (int k = 1; k < 4; k++)
        CHECK(submit(a, &n, 1000 + (uint64_t)k, tx[k]));
    CHECK_EQ_INT(status_of(a, tx[1]), ZBC_TX_STATUS_MEMPOOL);
    CHECK(produce(a, 0));
    uint32_t h, i;
    where(a, tx[0], &h, &i);
    CHECK_EQ_INT(h, 1);
    CHECK_EQ_INT(i, 0);
    for (uint32_t k = 1; k < 4; k++) {
        where(a, tx[k], &h, &i);
        CHECK_EQ_INT(h, 3);
        CHECK(i < 3);
    }
    memset(unknown, 0x5c, 32);
    CHECK_EQ_INT(status_of(a, unknown), ZBC_TX_STATUS_NOT_FOUND);
    struct counts k = counts_of(zbc_chain_store(a));
    CHECK_EQ_INT(k.lists, 3);
    CHECK_EQ_INT(k.lists_at, 3);
    CHECK_EQ_INT(k.legacy, 0);
    CHECK(k.marker);
    CHECK_EQ_INT(k.marker_height, 0);
    /* the full lookup reads the transaction's bytes at that place */
    struct zbc_tx_lookup l;
    struct zbc_err err = {{0}};
    CHECK(zbc_chain_find_tx(a, tx[2], &l, &err));
    CHECK_EQ_INT(l.status, ZBC_TX_STATUS_CONFIRMED);
    CHECK(l.raw != NULL && l.len > 0);
    uint8_t again[32];
    struct zbc_tx_ref ref = {l.raw, (uint32_t)l.len};
    zbc_tx_ref_hash(again, &ref);
    CHECK_EQ_MEM(again, tx[2], 32);
    zbc_tx_lookup_free(&l);
    zbc_chain_close(a);
    net_teardown(&n);
}

/* A reorg removes the undone blocks' lists with them: the new branch's
 * lists answer, the undone transaction is no longer confirmed. */
static void test_reorg(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    struct zbc_chain *b = open_node(&n, "b", &n.k2);
    struct zbc_chain *c = open_node(&n, "c", NULL);
    uint8_t tx_b[32], tx_a[4][32];
    CHECK(submit(b, &n, 1000, tx_b));
    CHECK(produce(b, 0) && produce(b, 0));
    /* four blocks against two: the longer branch whatever the ranks */
    CHECK(produce_transfers(a, &n, 2000, tx_a, 4));
    CHECK_EQ_INT(give(c, b, 1, NULL), ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(give(c, b, 2, NULL), ZBC_RECV_EXTENDED);
    uint32_t h, i;
    where(c, tx_b, &h, &i);
    CHECK_EQ_INT(h, 1);
    for (uint32_t k = 1; k <= 4; k++)
        give(c, a, k, NULL);
    CHECK_EQ_MEM(zbc_chain_tip(c)->hash, zbc_chain_tip(a)->hash, 32);
    CHECK(status_of(c, tx_b) != ZBC_TX_STATUS_CONFIRMED);
    one_per_block(c, (const uint8_t(*)[32])tx_a, 4);
    CHECK_EQ_INT(counts_of(zbc_chain_store(c)).lists, 4);
    CHECK_EQ_INT(counts_of(zbc_chain_store(c)).lists_at, 4);
    zbc_chain_close(a);
    zbc_chain_close(b);
    zbc_chain_close(c);
    net_teardown(&n);
}

/* A ledger as a zbcd before block_txs left it: no lists, the positions in
 * tx_index, its marker at the tip. */
struct old_ledger {
    const uint8_t (*tx)[32];
    uint32_t n;
};

static int make_old_fn(struct zbc_store_txn *t, void *arg,
                       struct zbc_err *err)
{
    struct old_ledger *o = arg;
    struct zbc_store_meta m;
    if (!zbc_store_txn_meta(t, &m, err) ||
        !zbc_store_txn_clear(t, ZBC_STORE_DB_BLOCK_TXS, err) ||
        !zbc_store_txn_del(t, ZBC_STORE_DB_META, ZBC_STORE_BLOCK_TXS_TIP,
                           strlen(ZBC_STORE_BLOCK_TXS_TIP), err))
        return 0;
    for (uint32_t k = 0; k < o->n; k++) {
        uint8_t v[8];
        zbc_put_le32(v, k + 1);
        zbc_put_le32(v + 4, 0);
        if (!zbc_store_txn_put(t, ZBC_STORE_DB_TX_INDEX, o->tx[k], 32, v, 8,
                               err))
            return 0;
    }
    return zbc_store_put_checkpoint(t, ZBC_TX_INDEX_LEGACY_MARKER,
                                    m.tip_height, m.tip_hash, err);
}

/* Node a's ledger opened as a store alone (the chain closed). */
static struct zbc_store *store_of(struct net *n)
{
    char dir[160];
    snprintf(dir, sizeof dir, "%s/a", n->base);
    struct zbc_store *s = NULL;
    struct zbc_err err = {{0}};
    CHECK(zbc_store_open(&s, dir, NULL, &err));
    return s;
}

static void test_upgrade(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    uint8_t tx[3][32];
    CHECK(produce_transfers(a, &n, 1000, tx, 3));
    zbc_chain_close(a);
    struct zbc_err err = {{0}};
    struct zbc_store *s = store_of(&n);
    struct old_ledger o = {(const uint8_t(*)[32])tx, 3};
    CHECK(zbc_store_write(s, make_old_fn, &o, &err));
    struct counts k = counts_of(s);
    CHECK_EQ_INT(k.lists, 0);
    CHECK_EQ_INT(k.lists_at, 99999);
    CHECK_EQ_INT(k.legacy, 3);
    CHECK_EQ_INT(k.marker_height, 3);
    zbc_store_close(s);

    /* opened by this zbcd: the lists written from the stored blocks, the
     * old table emptied, its marker at the genesis (an older zbcd
     * rebuilds it from there) */
    a = open_node(&n, "a", &n.k1);
    k = counts_of(zbc_chain_store(a));
    CHECK_EQ_INT(k.lists, 3);
    CHECK_EQ_INT(k.lists_at, 3);
    CHECK_EQ_INT(k.legacy, 0);
    CHECK(k.marker);
    CHECK_EQ_INT(k.marker_height, 0);
    one_per_block(a, (const uint8_t(*)[32])tx, 3);
    zbc_chain_close(a);
    net_teardown(&n);
}

static int drop_list_fn(struct zbc_store_txn *t, void *arg,
                        struct zbc_err *err)
{
    uint8_t key[4];
    zbc_store_height_key(key, *(const uint32_t *)arg);
    return zbc_store_txn_del(t, ZBC_STORE_DB_BLOCK_TXS, key, 4, err);
}

static int bad_list_fn(struct zbc_store_txn *t, void *arg,
                       struct zbc_err *err)
{
    uint8_t key[4];
    zbc_store_height_key(key, *(const uint32_t *)arg);
    return zbc_store_txn_put(t, ZBC_STORE_DB_BLOCK_TXS, key, 4, "short", 5,
                             err);
}

/* A list missing or malformed: the lookup fails naming the block (never
 * "not found", never a crash); the next open writes the lists again. */
static void test_damaged(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    uint8_t tx[2][32];
    CHECK(produce_transfers(a, &n, 1000, tx, 2));
    struct zbc_err err = {{0}};
    uint32_t one = 1, two = 2;
    CHECK(zbc_store_write(zbc_chain_store(a), drop_list_fn, &one, &err));
    CHECK(zbc_store_write(zbc_chain_store(a), bad_list_fn, &two, &err));
    struct zbc_tx_lookup l;
    CHECK(!zbc_chain_tx_status(a, tx[0], &l, &err));
    CHECK(strstr(err.msg, "transaction list of block 1 is missing") != NULL);
    err.msg[0] = '\0';
    CHECK(!zbc_chain_tx_status(a, tx[1], &l, &err));
    CHECK(strstr(err.msg, "block 2 is 5 bytes, not a whole number") != NULL);
    zbc_chain_close(a);
    /* one record short of the blocks: written again from them.  (A list
     * of the right count but wrong bytes is zbc-audit's to find.) */
    a = open_node(&n, "a", &n.k1);
    uint32_t h, i;
    where(a, tx[0], &h, &i);
    CHECK_EQ_INT(h, 1);
    where(a, tx[1], &h, &i);
    CHECK_EQ_INT(h, 2);
    /* a malformed list alone (the right count, the marker at the tip):
     * the start refuses, naming the block (the TXSEEN refill reads the
     * last blocks' lists), and leaves the ledger as it was */
    CHECK(zbc_store_write(zbc_chain_store(a), bad_list_fn, &two, &err));
    zbc_chain_close(a);
    char dir[160];
    snprintf(dir, sizeof dir, "%s/a", n.base);
    struct zbc_chain_config cfg = {.ledger_dir = dir, .genesis = &n.g,
                                   .key = &n.k1};
    err.msg[0] = '\0';
    CHECK(!zbc_chain_open(&a, &cfg, &err));
    CHECK(strstr(err.msg, "block 2 is 5 bytes, not a whole number") != NULL);
    net_teardown(&n);
}

/* What an older zbcd (which knows no lists) leaves after this one: blocks
 * added above the lists' marker, or blocks replaced below it. */
struct older {
    uint32_t marker_height;
    bool bogus_hash; /* the marker names no best-chain block */
    uint32_t drop_from;
    uint32_t drop_to;
    uint32_t bad_list; /* 0: none; else a list of the right size, wrong */
    uint32_t rewritten; /* how many lists the next open writes */
};

static int older_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct older *o = arg;
    uint8_t head[ZBC_BLOCK_HEADER_LEN], hash[32];
    size_t len;
    bool found;
    struct zbc_block_header h;
    if (!zbc_store_txn_block_head(t, o->marker_height, head, sizeof head,
                                  &len, &found, err) ||
        !found || !zbc_block_header_decode(&h, head, len, err))
        return zbc_fail(err, "no block %u", o->marker_height);
    zbc_block_hash(hash, &h);
    if (o->bogus_hash)
        hash[0] ^= 1;
    for (uint32_t bh = o->drop_from; bh != 0 && bh <= o->drop_to; bh++) {
        uint8_t k[4];
        zbc_store_height_key(k, bh);
        if (!zbc_store_txn_del(t, ZBC_STORE_DB_BLOCK_TXS, k, 4, err))
            return 0;
    }
    if (o->bad_list != 0) {
        uint8_t k[4], junk[32];
        memset(junk, 0x77, 32);
        zbc_store_height_key(k, o->bad_list);
        if (!zbc_store_txn_put(t, ZBC_STORE_DB_BLOCK_TXS, k, 4, junk, 32,
                               err))
            return 0;
    }
    return zbc_store_put_checkpoint(t, ZBC_STORE_BLOCK_TXS_TIP,
                                    o->marker_height, hash, err);
}

static void after_older(const struct older *o)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    uint8_t tx[4][32];
    CHECK(produce_transfers(a, &n, 1000, tx, 4));
    struct zbc_err err = {{0}};
    CHECK(zbc_store_write(zbc_chain_store(a), older_fn, (void *)o, &err));
    zbc_chain_close(a);
    struct zbc_store *s = store_of(&n);
    bool built, emptied;
    uint32_t blocks = 0;
    CHECK(zbc_tx_index_ensure(s, &built, &blocks, &emptied, &err));
    CHECK(built && !emptied);
    CHECK_EQ_INT(blocks, o->rewritten);
    CHECK(zbc_tx_index_ensure(s, &built, &blocks, &emptied, &err));
    CHECK(!built && blocks == 0); /* right now: nothing more */
    zbc_store_close(s);
    a = open_node(&n, "a", &n.k1);
    struct counts k = counts_of(zbc_chain_store(a));
    CHECK_EQ_INT(k.lists, 4);
    CHECK_EQ_INT(k.lists_at, 4);
    one_per_block(a, (const uint8_t(*)[32])tx, 4);
    zbc_chain_close(a);
    net_teardown(&n);
}

static void test_older_zbcd(void)
{
    /* blocks 3 and 4 added without lists: those two written */
    struct older added = {.marker_height = 2, .drop_from = 3, .drop_to = 4,
                          .rewritten = 2};
    after_older(&added);
    /* block 2 replaced below a marker that names no best-chain block: a
     * wrong list of the right size, rewritten with all the others */
    struct older replaced = {.marker_height = 3, .bogus_hash = true,
                             .bad_list = 2, .rewritten = 4};
    after_older(&replaced);
    /* a list missing below a best-chain marker: all written again */
    struct older missing = {.marker_height = 3, .drop_from = 1,
                            .drop_to = 1, .rewritten = 4};
    after_older(&missing);
}

int main(void)
{
    zbc_log_set_level(ZBC_LOG_ERROR);
    TEST_RUN(test_positions);
    TEST_RUN(test_reorg);
    TEST_RUN(test_upgrade);
    TEST_RUN(test_damaged);
    TEST_RUN(test_older_zbcd);
    return test_summary("node_tx_index");
}
