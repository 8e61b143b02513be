/* A sync batch (node/zbcd/chain.h zbc_chain_batch_begin, node/zbcd/store.h
 * zbc_store_batch_begin; docs/p2p.md §5): the blocks of a sync answer
 * applied in one LMDB write transaction.
 *   - the result is the one of applying the blocks one by one: same tip,
 *     same state root, same blocks, undo records and transaction index,
 *     and it survives a reopen;
 *   - reads inside the batch see its writes;
 *   - a block refused in the middle: the blocks before it are committed
 *     and valid, the ones after are refused (orphans) as without a batch;
 *   - a process that ends before the batch is committed (kill -9) reopens
 *     at the last commit, consistent (the chain's start-up checks);
 *   - paused between slices: a write from elsewhere (a gossiped block)
 *     commits the batch so far first, then alone; the batch goes on;
 *   - store level: a write that fails inside a batch is undone alone; the
 *     map grows inside a batch (the writes so far are committed first);
 *     writes inside a read in a batch are refused. */
#include "node/zbcd/log.h"
#include "node/zbcd/store.h"
#include "test_reorg_fixture.h"

#define N_BLOCKS 6

/* a produces N_BLOCKS blocks, a transfer in every other one */
static void make_chain(struct net *n, struct zbc_chain *a)
{
    for (int i = 0; i < N_BLOCKS; i++) {
        uint8_t h[32];
        if (i % 2 == 0)
            CHECK(submit(a, n, 1000 + (uint64_t)i, h));
        CHECK(produce(a, 0));
    }
    CHECK_EQ_INT(zbc_chain_tip(a)->height, N_BLOCKS);
}

static int give_block(struct zbc_chain *from, struct zbc_chain *to,
                      uint32_t height, bool flip, struct zbc_recv_result *r)
{
    uint8_t *bytes = NULL;
    size_t len = 0;
    bool found = false;
    struct zbc_err err = {{0}};
    CHECK(zbc_chain_block(from, height, &bytes, &len, &found, &err) && found);
    if (!found)
        return 0;
    if (flip)
        bytes[300] ^= 1; /* the producer's signature */
    int ok = zbc_chain_receive_block(to, bytes, len, LATE_MS, NULL, r, &err);
    free(bytes);
    return ok;
}

static void same_tip(struct zbc_chain *x, struct zbc_chain *y)
{
    uint8_t rx[32], ry[32];
    CHECK_EQ_INT(zbc_chain_tip(x)->height, zbc_chain_tip(y)->height);
    CHECK_EQ_MEM(zbc_chain_tip(x)->hash, zbc_chain_tip(y)->hash, 32);
    zbc_chain_tip_state_root(x, rx);
    zbc_chain_tip_state_root(y, ry);
    CHECK_EQ_MEM(rx, ry, 32);
}

struct undo_get {
    uint32_t height;
    uint8_t *bytes;
    size_t len;
    bool found;
};

static int undo_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct undo_get *u = arg;
    return zbc_store_txn_undo(t, u->height, &u->bytes, &u->len, &u->found,
                              err);
}

/* the stored blocks, undo records and events of every height are the
 * same */
static void same_records(struct zbc_chain *x, struct zbc_chain *y)
{
    struct zbc_err err = {{0}};
    for (uint32_t h = 1; h <= zbc_chain_tip(x)->height; h++) {
        uint8_t *a = NULL, *b = NULL;
        size_t al = 0, bl = 0;
        bool fa = false, fb = false;
        CHECK(zbc_chain_block(x, h, &a, &al, &fa, &err) && fa);
        CHECK(zbc_chain_block(y, h, &b, &bl, &fb, &err) && fb);
        CHECK(al == bl && a != NULL && b != NULL && memcmp(a, b, al) == 0);
        free(a);
        free(b);
        a = b = NULL;
        CHECK(zbc_store_events(zbc_chain_store(x), h, &a, &al, &fa, &err));
        CHECK(zbc_store_events(zbc_chain_store(y), h, &b, &bl, &fb, &err));
        CHECK(fa && fb && al == bl && memcmp(a, b, al) == 0);
        free(a);
        free(b);
        struct undo_get ux = {h, NULL, 0, false}, uy = {h, NULL, 0, false};
        CHECK(zbc_store_read(zbc_chain_store(x), undo_fn, &ux, &err));
        CHECK(zbc_store_read(zbc_chain_store(y), undo_fn, &uy, &err));
        CHECK(ux.found && uy.found && ux.len == uy.len &&
              memcmp(ux.bytes, uy.bytes, ux.len) == 0);
        free(ux.bytes);
        free(uy.bytes);
    }
}

static void test_batch_equals_one_by_one(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    struct zbc_chain *one = open_node(&n, "one", NULL);
    struct zbc_chain *bat = open_node(&n, "bat", NULL);
    make_chain(&n, a);
    struct zbc_recv_result r;
    struct zbc_err err = {{0}};
    for (uint32_t h = 1; h <= N_BLOCKS; h++) {
        CHECK(give_block(a, one, h, false, &r));
        CHECK_EQ_INT(r.kind, ZBC_RECV_EXTENDED);
    }
    CHECK(zbc_chain_batch_begin(bat, &err));
    CHECK(zbc_store_in_batch(zbc_chain_store(bat)));
    for (uint32_t h = 1; h <= N_BLOCKS; h++) {
        CHECK(give_block(a, bat, h, false, &r));
        CHECK_EQ_INT(r.kind, ZBC_RECV_EXTENDED);
        /* a read inside the batch sees the block just applied */
        CHECK(zbc_chain_knows_block(bat, r.hash));
    }
    /* a second batch cannot open inside the first */
    CHECK(!zbc_chain_batch_begin(bat, &err));
    CHECK(zbc_chain_batch_end(bat, &err));
    CHECK(!zbc_store_in_batch(zbc_chain_store(bat)));
    same_tip(a, bat);
    same_tip(one, bat);
    same_records(one, bat);
    /* durable: the reopened ledger has it all */
    zbc_chain_close(bat);
    bat = open_node(&n, "bat", NULL);
    same_tip(one, bat);
    same_records(one, bat);
    zbc_chain_close(a);
    zbc_chain_close(one);
    zbc_chain_close(bat);
    net_teardown(&n);
}

static void test_bad_block_in_the_middle(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    struct zbc_chain *ref = open_node(&n, "ref", NULL);
    struct zbc_chain *c = open_node(&n, "c", NULL);
    make_chain(&n, a);
    struct zbc_recv_result r;
    struct zbc_err err = {{0}};
    for (uint32_t h = 1; h <= 3; h++)
        CHECK(give_block(a, ref, h, false, &r));
    CHECK(zbc_chain_batch_begin(c, &err));
    for (uint32_t h = 1; h <= 3; h++) {
        CHECK(give_block(a, c, h, false, &r));
        CHECK_EQ_INT(r.kind, ZBC_RECV_EXTENDED);
    }
    /* block 4 with a broken producer signature: refused, as alone */
    CHECK(!give_block(a, c, 4, true, &r));
    CHECK_EQ_INT(r.kind, ZBC_RECV_INVALID);
    /* the rest does not connect: held as orphans, not applied */
    for (uint32_t h = 5; h <= N_BLOCKS; h++) {
        CHECK(give_block(a, c, h, false, &r));
        CHECK_EQ_INT(r.kind, ZBC_RECV_ORPHAN);
    }
    CHECK(zbc_chain_batch_end(c, &err));
    same_tip(ref, c);
    same_records(ref, c);
    zbc_chain_close(c);
    c = open_node(&n, "c", NULL); /* start-up checks: tip, state, root */
    same_tip(ref, c);
    /* the good block 4 then extends it as usual */
    CHECK(give_block(a, c, 4, false, &r));
    CHECK_EQ_INT(r.kind, ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(zbc_chain_tip(c)->height, 4);
    zbc_chain_close(a);
    zbc_chain_close(ref);
    zbc_chain_close(c);
    net_teardown(&n);
}

/* A process killed inside a batch: nothing of it was committed (closing
 * without zbc_chain_batch_end aborts the transaction, as the kernel does
 * for a killed process), the ledger reopens at the last commit. */
static void test_crash_inside_batch(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    struct zbc_chain *ref = open_node(&n, "ref", NULL);
    struct zbc_chain *c = open_node(&n, "c", NULL);
    make_chain(&n, a);
    struct zbc_recv_result r;
    struct zbc_err err = {{0}};
    for (uint32_t h = 1; h <= 2; h++)
        CHECK(give_block(a, ref, h, false, &r));
    CHECK(zbc_chain_batch_begin(c, &err));
    for (uint32_t h = 1; h <= 2; h++)
        CHECK(give_block(a, c, h, false, &r));
    CHECK(zbc_chain_batch_end(c, &err)); /* committed: heights 1-2 */
    CHECK(zbc_chain_batch_begin(c, &err));
    for (uint32_t h = 3; h <= N_BLOCKS; h++)
        CHECK(give_block(a, c, h, false, &r));
    CHECK_EQ_INT(zbc_chain_tip(c)->height, N_BLOCKS);
    zbc_chain_close(c); /* never ended */
    c = open_node(&n, "c", NULL);
    same_tip(ref, c);
    same_records(ref, c);
    for (uint32_t h = 3; h <= N_BLOCKS; h++) {
        CHECK(give_block(a, c, h, false, &r));
        CHECK_EQ_INT(r.kind, ZBC_RECV_EXTENDED);
    }
    same_tip(a, c);
    zbc_chain_close(a);
    zbc_chain_close(ref);
    zbc_chain_close(c);
    net_teardown(&n);
}

/* Paused between two slices, a block arrives outside the batch (gossip):
 * it commits the batch so far and itself; a kill after more blocks in the
 * resumed batch reopens at that block. */
static void test_pause_and_outside_write(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    struct zbc_chain *ref = open_node(&n, "ref", NULL);
    struct zbc_chain *c = open_node(&n, "c", NULL);
    make_chain(&n, a);
    struct zbc_recv_result r;
    struct zbc_err err = {{0}};
    for (uint32_t h = 1; h <= 3; h++)
        CHECK(give_block(a, ref, h, false, &r));
    CHECK(zbc_chain_batch_begin(c, &err));
    for (uint32_t h = 1; h <= 2; h++)
        CHECK(give_block(a, c, h, false, &r));
    zbc_chain_batch_pause(c);
    CHECK(zbc_chain_in_batch(c));
    /* reads between slices see the batch */
    CHECK(zbc_chain_knows_block(c, r.hash));
    CHECK(give_block(a, c, 3, false, &r)); /* outside the batch */
    CHECK_EQ_INT(r.kind, ZBC_RECV_EXTENDED);
    CHECK(zbc_chain_batch_resume(c, &err));
    for (uint32_t h = 4; h <= 5; h++)
        CHECK(give_block(a, c, h, false, &r));
    CHECK_EQ_INT(zbc_chain_tip(c)->height, 5);
    zbc_chain_close(c); /* killed: the batch never ended */
    c = open_node(&n, "c", NULL);
    same_tip(ref, c);
    same_records(ref, c);
    /* and a batch paused, resumed and ended stores everything */
    CHECK(zbc_chain_batch_begin(c, &err));
    CHECK(give_block(a, c, 4, false, &r));
    zbc_chain_batch_pause(c);
    CHECK(zbc_chain_batch_resume(c, &err));
    for (uint32_t h = 5; h <= N_BLOCKS; h++)
        CHECK(give_block(a, c, h, false, &r));
    CHECK(zbc_chain_batch_end(c, &err));
    CHECK(!zbc_chain_in_batch(c));
    CHECK(!zbc_chain_batch_resume(c, &err)); /* none open */
    zbc_chain_close(c);
    c = open_node(&n, "c", NULL);
    same_tip(a, c);
    zbc_chain_close(a);
    zbc_chain_close(ref);
    zbc_chain_close(c);
    net_teardown(&n);
}

/* ---- store level ---- */

struct put {
    uint32_t key;
    size_t len;
    bool fail; /* write, then fail */
};

static int put_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    const struct put *p = arg;
    static uint8_t val[64 * 1024];
    memset(val, (int)(p->key & 0xff), p->len);
    uint8_t k[4];
    zbc_store_height_key(k, p->key);
    if (!zbc_store_txn_put(t, ZBC_STORE_DB_ACCT_HISTORY, k, 4, val, p->len,
                           err))
        return 0;
    if (p->fail)
        return zbc_fail(err, "refused after writing %u", p->key);
    return 1;
}

static int get_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct put *p = arg;
    uint8_t k[4], *v = NULL;
    size_t len = 0;
    bool found = false;
    zbc_store_height_key(k, p->key);
    if (!zbc_store_txn_get(t, ZBC_STORE_DB_ACCT_HISTORY, k, 4, &v, &len,
                           &found, err))
        return 0;
    free(v);
    p->len = found ? len : 0;
    return 1;
}

static int write_in_read_fn(struct zbc_store_txn *t, void *arg,
                            struct zbc_err *err)
{
    (void)arg;
    uint8_t k[4] = {9, 9, 9, 9};
    return zbc_store_txn_put(t, ZBC_STORE_DB_ACCT_HISTORY, k, 4, k, 4, err);
}

static size_t stored_len(struct zbc_store *s, uint32_t key)
{
    struct put p = {key, 0, false};
    struct zbc_err err = {{0}};
    CHECK(zbc_store_read(s, get_fn, &p, &err));
    return p.len;
}

static void test_store_batch(void)
{
    char dir[] = "/tmp/zbc_test_sync_batch_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    struct zbc_store_options opt = {.map_initial = (size_t)1 << 20,
                                    .map_step = (size_t)1 << 20};
    struct zbc_store *s = NULL;
    struct zbc_err err = {{0}};
    CHECK(zbc_store_open(&s, dir, &opt, &err));
    if (s == NULL)
        return;
    size_t map0 = zbc_store_map_size(s);
    CHECK(zbc_store_batch_begin(s, &err));
    /* 96 values of 48 KiB (4.5 MiB) in a 1-MiB map: it grows inside */
    for (uint32_t k = 1; k <= 96; k++) {
        struct put p = {k, 48 * 1024, k == 40};
        int ok = zbc_store_write(s, put_fn, &p, &err);
        CHECK(ok == (k != 40));
        if (k == 40)
            CHECK(strstr(err.msg, "refused after writing 40") != NULL);
        CHECK_EQ_INT(stored_len(s, k), k == 40 ? 0 : 48 * 1024);
    }
    CHECK(!zbc_store_read(s, write_in_read_fn, NULL, &err));
    CHECK(strstr(err.msg, "inside a read") != NULL);
    CHECK(zbc_store_batch_end(s, &err));
    CHECK(zbc_store_map_size(s) > map0);
    CHECK(zbc_store_write_failure(s) == NULL);
    zbc_store_close(s);
    s = NULL;
    CHECK(zbc_store_open(&s, dir, &opt, &err));
    if (s == NULL)
        return;
    for (uint32_t k = 1; k <= 96; k++)
        CHECK_EQ_INT(stored_len(s, k), k == 40 ? 0 : 48 * 1024);
    CHECK_EQ_INT(stored_len(s, 0x09090909), 0);
    zbc_store_close(s);
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
}

int main(void)
{
    zbc_log_set_level(ZBC_LOG_ERROR);
    TEST_RUN(test_batch_equals_one_by_one);
    TEST_RUN(test_bad_block_in_the_middle);
    TEST_RUN(test_crash_inside_batch);
    TEST_RUN(test_pause_and_outside_write);
    TEST_RUN(test_store_batch);
    return test_summary("node_sync_batch");
}
