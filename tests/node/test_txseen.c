/* The TXSEEN write-back set (node/zbcd/txseen.h, docs/node.md §3): its
 * transactions against a model, the store's use of it (a read sees
 * committed entries only, an aborted write leaves nothing, a batch writes
 * through, close writes everything), and the chain's (an entry of block h
 * is in the ledger from h + ZBC_TXSEEN_SLICES - 1; kill -9 loses nothing:
 * the next open takes the last blocks' entries again; a reorg removes the
 * undone block's entries wherever they are). */
#include <sys/wait.h>
#include <unistd.h>

#include "crypto/bytes.h"
#include "node/zbcd/log.h"
#include "node/zbcd/store.h"
#include "node/zbcd/txseen.h"
#include "test_reorg_fixture.h"

/* ---- the set against a model ---- */

#define KEYS 64

static void key_of(uint8_t h[32], unsigned id)
{
    memset(h, 0, 32);
    h[0] = (uint8_t)(id * 4); /* spread over the slices */
    h[1] = (uint8_t)id;
    h[31] = 0x5A;
}

/* A ledger as LMDB keeps it for the test: committed and in the open
 * transaction, with a child transaction's start kept for its abort. */
struct fake {
    uint32_t committed[KEYS], pending[KEYS], child[KEYS]; /* 0: absent */
};

/* What the store does: the set first, then the ledger. */
static void fake_get(const struct zbc_txseen *o, const struct fake *f,
                     unsigned id, bool pending, uint32_t *h)
{
    uint8_t k[32];
    key_of(k, id);
    bool known, present;
    zbc_txseen_get(o, k, pending, &known, &present, h);
    if (known && !present)
        *h = 0;
    else if (!known)
        *h = pending ? f->pending[id] : f->committed[id];
}

static uint32_t rng_state = 12345;
static uint32_t rnd(uint32_t n)
{
    rng_state = rng_state * 1103515245u + 12345u;
    return (rng_state >> 8) % n;
}

static void test_model(void)
{
    struct zbc_txseen *o = zbc_txseen_new();
    CHECK(o != NULL);
    struct fake f;
    memset(&f, 0, sizeof f);
    /* the model: what a read sees, committed and pending */
    uint32_t m_c[KEYS] = {0}, m_p[KEYS] = {0}, m_child[KEYS];
    bool child = false;
    size_t child_mark = 0;
    struct zbc_err err = {{0}};
    for (int step = 0; step < 40000; step++) {
        unsigned id = rnd(KEYS);
        uint8_t k[32];
        key_of(k, id);
        switch (rnd(12)) {
        case 0: case 1: case 2: case 3: { /* a block marks a transaction */
            uint32_t h = 1 + rnd(1000);
            CHECK(zbc_txseen_put(o, k, h, &err));
            m_p[id] = h;
            break;
        }
        case 4: /* an undo removes it */
            CHECK(zbc_txseen_del(o, k, &err));
            f.pending[id] = 0;
            m_p[id] = 0;
            break;
        case 5: case 6: { /* a block's slice, or all (in a batch) */
            uint8_t(*hs)[32];
            uint32_t *hts;
            size_t n;
            unsigned s = rnd(ZBC_TXSEEN_SLICES);
            bool all = rnd(4) == 0;
            CHECK(zbc_txseen_unwritten(o, s, all, &hs, &hts, &n, &err));
            for (size_t i = 0; i < n; i++) {
                CHECK(all || zbc_txseen_slice_of(hs[i]) == s);
                CHECK(i == 0 || memcmp(hs[i - 1], hs[i], 32) < 0);
                unsigned kid = hs[i][1];
                CHECK_EQ_INT(hts[i], m_p[kid]);
                f.pending[kid] = hts[i];
            }
            CHECK(zbc_txseen_written(o, (const uint8_t(*)[32])hs, n, &err));
            free(hs);
            free(hts);
            break;
        }
        case 7: /* a batch's write goes to the ledger at once */
            if (child) {
                uint32_t h = 1 + rnd(1000);
                f.pending[id] = h;
                CHECK(zbc_txseen_put_written(o, k, h, &err));
                m_p[id] = h;
            }
            break;
        case 8: /* a child transaction starts, or ends */
            if (!child) {
                child = true;
                child_mark = zbc_txseen_mark(o);
                memcpy(f.child, f.pending, sizeof f.child);
                memcpy(m_child, m_p, sizeof m_child);
            } else if (rnd(2) == 0) {
                child = false; /* committed into the parent */
            } else {
                child = false;
                zbc_txseen_rollback(o, child_mark);
                memcpy(f.pending, f.child, sizeof f.pending);
                memcpy(m_p, m_child, sizeof m_p);
            }
            break;
        case 9: /* the transaction commits */
            if (!child) {
                zbc_txseen_commit(o);
                memcpy(f.committed, f.pending, sizeof f.committed);
                memcpy(m_c, m_p, sizeof m_c);
                CHECK_EQ_INT(zbc_txseen_mark(o), 0);
            }
            break;
        case 10: /* ... or aborts */
            if (!child) {
                zbc_txseen_rollback(o, 0);
                memcpy(f.pending, f.committed, sizeof f.pending);
                memcpy(m_p, m_c, sizeof m_p);
            }
            break;
        default:
            break;
        }
        for (unsigned i = 0; i < KEYS; i++) {
            uint32_t h;
            fake_get(o, &f, i, true, &h);
            CHECK_EQ_INT(h, m_p[i]);
            fake_get(o, &f, i, false, &h);
            CHECK_EQ_INT(h, m_c[i]);
        }
    }
    /* committed: what the set holds is exactly what the ledger lacks */
    child = false;
    zbc_txseen_commit(o);
    memcpy(f.committed, f.pending, sizeof f.committed);
    memcpy(m_c, m_p, sizeof m_c);
    size_t lacking = 0;
    for (unsigned i = 0; i < KEYS; i++)
        lacking += m_c[i] != 0 && f.committed[i] != m_c[i];
    CHECK_EQ_INT(zbc_txseen_count(o), lacking);
    /* a refill keeps what is held, adds what is not */
    uint8_t k[32];
    key_of(k, 7);
    CHECK(zbc_txseen_refill(o, k, 4242, &err));
    uint32_t h;
    fake_get(o, &f, 7, false, &h);
    CHECK_EQ_INT(h, m_c[7] != 0 && f.committed[7] != m_c[7] ? m_c[7] : 4242);
    zbc_txseen_free(o);
}

/* Many entries: the table grows and removes without losing one. */
static void test_many(void)
{
    struct zbc_txseen *o = zbc_txseen_new();
    struct zbc_err err = {{0}};
    enum { N = 50000 };
    uint8_t k[32];
    for (uint32_t i = 0; i < N; i++) {
        memset(k, 0, 32);
        zbc_put_le32(k, i * 2654435761u);
        zbc_put_le32(k + 4, i);
        CHECK(zbc_txseen_put(o, k, i + 1, &err));
    }
    zbc_txseen_commit(o);
    CHECK_EQ_INT(zbc_txseen_count(o), N);
    size_t left = N;
    for (unsigned s = 0; s < ZBC_TXSEEN_SLICES; s += 2) {
        uint8_t(*hs)[32];
        uint32_t *hts;
        size_t n;
        CHECK(zbc_txseen_unwritten(o, s, false, &hs, &hts, &n, &err));
        CHECK(zbc_txseen_written(o, (const uint8_t(*)[32])hs, n, &err));
        free(hs);
        free(hts);
        left -= n;
    }
    zbc_txseen_commit(o);
    CHECK_EQ_INT(zbc_txseen_count(o), left);
    for (uint32_t i = 0; i < N; i++) {
        memset(k, 0, 32);
        zbc_put_le32(k, i * 2654435761u);
        zbc_put_le32(k + 4, i);
        bool known, present;
        uint32_t h;
        zbc_txseen_get(o, k, false, &known, &present, &h);
        CHECK_EQ_INT(known, zbc_txseen_slice_of(k) % 2 == 1);
        if (known)
            CHECK_EQ_INT(h, i + 1);
    }
    zbc_txseen_free(o);
}

/* ---- the store ---- */

struct kv_op {
    const uint8_t *key;
    uint32_t height;
    int what; /* 0 put, 1 get, 2 flush slice of height, 3 fail */
    bool found;
    uint32_t got;
};

static int kv_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct kv_op *op = arg;
    struct zbc_kv kv;
    zbc_store_txn_kv(t, &kv);
    uint8_t v[4];
    size_t vlen = 0;
    switch (op->what) {
    case 0:
        zbc_put_le32(v, op->height);
        return kv.ops->put(kv.ctx, ZBC_TABLE_TXSEEN, op->key, 32, v, 4, err);
    case 1:
        op->got = 0;
        if (!kv.ops->get(kv.ctx, ZBC_TABLE_TXSEEN, op->key, 32, v, sizeof v,
                         &vlen, &op->found, err))
            return 0;
        if (op->found)
            op->got = zbc_get_le32(v);
        return 1;
    case 2:
        return zbc_store_txn_txseen_flush(t, op->height, err);
    default:
        zbc_put_le32(v, op->height);
        (void)!kv.ops->put(kv.ctx, ZBC_TABLE_TXSEEN, op->key, 32, v, 4, err);
        return zbc_fail(err, "this write fails");
    }
}

/* More than ZBC_TXSEEN_HOLD_MAX entries held: the block writes them all. */
struct many_ctx {
    uint32_t n, from;
};

static int many_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    const struct many_ctx *m = arg;
    struct zbc_kv kv;
    zbc_store_txn_kv(t, &kv);
    for (uint32_t i = m->from; i < m->from + m->n; i++) {
        uint8_t k[32] = {0}, v[4];
        zbc_put_le64(k, (uint64_t)i * 0x9E3779B97F4A7C15ull);
        zbc_put_le32(k + 8, i);
        zbc_put_le32(v, 1);
        if (!kv.ops->put(kv.ctx, ZBC_TABLE_TXSEEN, k, 32, v, 4, err))
            return 0;
    }
    return zbc_store_txn_txseen_flush(t, 1, err);
}

static void test_hold_bound(void)
{
    char dir[] = "/tmp/zbc_test_txseen_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    struct zbc_store *s;
    struct zbc_err err = {{0}};
    CHECK(zbc_store_open(&s, dir, NULL, &err));
    struct many_ctx m = {ZBC_TXSEEN_HOLD_MAX / 2, 0};
    CHECK(zbc_store_write(s, many_fn, &m, &err));
    size_t held = zbc_store_txseen_held(s);
    CHECK(held > 0 && held < m.n); /* one slice written */
    m.from = m.n;
    m.n = ZBC_TXSEEN_HOLD_MAX / 2 + ZBC_TXSEEN_HOLD_MAX / 64; /* past it */
    CHECK(zbc_store_write(s, many_fn, &m, &err));
    CHECK_EQ_INT(zbc_store_txseen_held(s), 0);
    zbc_store_close(s);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
}

struct raw_ctx {
    const uint8_t *key;
    bool found;
};

static int raw_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct raw_ctx *r = arg;
    uint8_t *v = NULL;
    size_t len = 0;
    int ok = zbc_store_txn_get(t, ZBC_STORE_DB_S_TXSEEN, r->key, 32, &v, &len,
                               &r->found, err);
    free(v);
    return ok;
}

/* The table itself, under the set. */
static bool in_ledger(struct zbc_store *s, const uint8_t key[32])
{
    struct raw_ctx r = {key, false};
    struct zbc_err err = {{0}};
    CHECK(zbc_store_read(s, raw_fn, &r, &err));
    return r.found;
}

static uint32_t read_seen(struct zbc_store *s, const uint8_t key[32],
                          bool write)
{
    struct kv_op op = {.key = key, .what = 1};
    struct zbc_err err = {{0}};
    if (write)
        CHECK(zbc_store_write(s, kv_fn, &op, &err));
    else
        CHECK(zbc_store_read(s, kv_fn, &op, &err));
    return op.found ? op.got : 0;
}

static void test_store(void)
{
    char dir[] = "/tmp/zbc_test_txseen_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    struct zbc_store *s;
    struct zbc_err err = {{0}};
    CHECK(zbc_store_open(&s, dir, NULL, &err));
    uint8_t a[32], b[32], c[32];
    key_of(a, 1);
    key_of(b, 20); /* another slice */
    key_of(c, 21);
    unsigned sa = zbc_txseen_slice_of(a);
    CHECK(zbc_txseen_slice_of(b) != sa);
    struct kv_op put_a = {.key = a, .height = 5, .what = 0};
    CHECK(zbc_store_write(s, kv_fn, &put_a, &err));
    /* held: reads see it, the table has not got it */
    CHECK_EQ_INT(read_seen(s, a, false), 5);
    CHECK_EQ_INT(read_seen(s, a, true), 5);
    CHECK(!in_ledger(s, a));
    CHECK_EQ_INT(zbc_store_txseen_held(s), 1);
    /* a failed write leaves nothing */
    struct kv_op fail_b = {.key = b, .height = 6, .what = 3};
    CHECK(!zbc_store_write(s, kv_fn, &fail_b, &err));
    CHECK_EQ_INT(read_seen(s, b, false), 0);
    CHECK_EQ_INT(zbc_store_txseen_held(s), 1);
    /* another slice's turn writes nothing; a's turn writes a */
    struct kv_op flush = {.height = ZBC_TXSEEN_SLICES + sa + 1, .what = 2};
    CHECK(zbc_store_write(s, kv_fn, &flush, &err));
    CHECK(!in_ledger(s, a));
    flush.height = ZBC_TXSEEN_SLICES + sa;
    CHECK(zbc_store_write(s, kv_fn, &flush, &err));
    CHECK(in_ledger(s, a));
    CHECK_EQ_INT(zbc_store_txseen_held(s), 0);
    CHECK_EQ_INT(read_seen(s, a, false), 5);
    /* a batch writes through, and a lost batch's writes are gone:
     * b held before the batch, c put in it */
    struct kv_op put_b = {.key = b, .height = 7, .what = 0};
    CHECK(zbc_store_write(s, kv_fn, &put_b, &err));
    CHECK(zbc_store_batch_begin(s, &err));
    struct kv_op put_c = {.key = c, .height = 8, .what = 0};
    CHECK(zbc_store_write(s, kv_fn, &put_c, &err));
    CHECK_EQ_INT(read_seen(s, c, false), 8); /* a read sees the batch */
    flush.height = 1; /* any height: all of it inside a batch */
    CHECK(zbc_store_write(s, kv_fn, &flush, &err));
    CHECK_EQ_INT(read_seen(s, b, false), 7);
    CHECK(zbc_store_batch_end(s, &err));
    CHECK(in_ledger(s, b) && in_ledger(s, c));
    CHECK_EQ_INT(zbc_store_txseen_held(s), 0);
    /* close writes what is held */
    uint8_t d[32];
    key_of(d, 40);
    struct kv_op put_d = {.key = d, .height = 9, .what = 0};
    CHECK(zbc_store_write(s, kv_fn, &put_d, &err));
    CHECK(!in_ledger(s, d));
    zbc_store_close(s);
    CHECK(zbc_store_open(&s, dir, NULL, &err));
    CHECK(in_ledger(s, d));
    CHECK_EQ_INT(read_seen(s, d, false), 9);
    zbc_store_close(s);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
}

/* ---- the chain ---- */

static uint32_t chain_seen(struct zbc_chain *c, const uint8_t h[32])
{
    return read_seen(zbc_chain_store(c), h, false);
}

#define BLOCKS ((int)ZBC_TXSEEN_SLICES + 8)

/* kill -9 after BLOCKS blocks of one transaction each: the next open
 * holds the last blocks' entries again; every transaction stays seen. */
static void test_crash_refill(void)
{
    struct net n;
    net_setup(&n);
    static uint8_t tx[BLOCKS][32];
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        struct zbc_chain *a = open_node(&n, "a", &n.k1);
        int ok = 1;
        for (int k = 0; ok && k < BLOCKS; k++)
            ok = submit(a, &n, 1000 + (uint64_t)k, tx[k]) && produce(a, 0);
        /* the first blocks' entries are written, the last ones' may not */
        ok = ok && zbc_store_txseen_held(zbc_chain_store(a)) > 0 &&
             zbc_store_txseen_held(zbc_chain_store(a)) < (size_t)ZBC_TXSEEN_SLICES;
        _exit(ok ? 0 : 1); /* no close */
    }
    int status = 0;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    struct zbc_chain *b = open_node(&n, "b", &n.k1);
    for (int k = 0; k < BLOCKS; k++)
        CHECK(submit(b, &n, 1000 + (uint64_t)k, tx[k]));
    zbc_chain_close(b);

    /* a full rescan of the state (zbcd run --verify-state) sees the held
     * entries too (it did not until 2026-12-05) */
    struct zbc_chain_config cfg = {0};
    cfg.verify_state = true;
    struct zbc_chain *a = open_node_cfg(&n, "a", &n.k1, cfg);
    CHECK_EQ_INT(zbc_chain_tip(a)->height, BLOCKS);
    size_t missing = 0;
    for (int k = 0; k < BLOCKS; k++) {
        CHECK_EQ_INT(chain_seen(a, tx[k]), (uint32_t)k + 1);
        bool there = in_ledger(zbc_chain_store(a), tx[k]);
        /* in the ledger from h + SLICES - 1 on */
        if (k + (int)ZBC_TXSEEN_SLICES <= BLOCKS)
            CHECK(there);
        missing += !there;
    }
    CHECK(missing > 0);
    CHECK_EQ_INT(zbc_store_txseen_held(zbc_chain_store(a)), missing);
    /* the replay is refused, held or written */
    uint8_t again[32];
    CHECK(!submit(a, &n, 1000, again));
    CHECK(!submit(a, &n, 1000 + BLOCKS - 1, again));
    zbc_chain_close(a);
    a = open_node(&n, "a", &n.k1);
    for (int k = 0; k < BLOCKS; k++)
        CHECK(in_ledger(zbc_chain_store(a), tx[k]));
    zbc_chain_close(a);
    net_teardown(&n);
}

/* A reorg undoes blocks whose entries are held or written: they go. */
static void test_reorg(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    struct zbc_chain *b = open_node(&n, "b", &n.k2);
    struct zbc_chain *c = open_node(&n, "c", NULL);
    uint8_t tx_b[2][32], tx_a[4][32];
    for (int k = 0; k < 2; k++) {
        CHECK(submit(b, &n, 1000 + (uint64_t)k, tx_b[k]));
        CHECK(produce(b, 0));
    }
    for (int k = 0; k < 4; k++) {
        CHECK(submit(a, &n, 2000 + (uint64_t)k, tx_a[k]));
        CHECK(produce(a, 0));
    }
    CHECK_EQ_INT(give(c, b, 1, NULL), ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(give(c, b, 2, NULL), ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(chain_seen(c, tx_b[0]), 1);
    /* block 1's entry is written in its slice's turn: block 1 or 2 */
    unsigned sl = zbc_txseen_slice_of(tx_b[0]);
    CHECK_EQ_INT(in_ledger(zbc_chain_store(c), tx_b[0]), sl == 1 || sl == 2);
    for (uint32_t h = 1; h <= 4; h++)
        give(c, a, h, NULL);
    CHECK_EQ_MEM(zbc_chain_tip(c)->hash, zbc_chain_tip(a)->hash, 32);
    for (int k = 0; k < 2; k++) {
        CHECK_EQ_INT(chain_seen(c, tx_b[k]), 0);
        CHECK(!in_ledger(zbc_chain_store(c), tx_b[k]));
    }
    for (int k = 0; k < 4; k++)
        CHECK_EQ_INT(chain_seen(c, tx_a[k]), (uint32_t)k + 1);
    zbc_chain_close(c);
    c = open_node(&n, "c", NULL);
    for (int k = 0; k < 2; k++)
        CHECK(!in_ledger(zbc_chain_store(c), tx_b[k]));
    for (int k = 0; k < 4; k++)
        CHECK(in_ledger(zbc_chain_store(c), tx_a[k]));
    zbc_chain_close(a);
    zbc_chain_close(b);
    zbc_chain_close(c);
    net_teardown(&n);
}

int main(void)
{
    zbc_log_set_level(ZBC_LOG_ERROR);
    TEST_RUN(test_model);
    TEST_RUN(test_many);
    TEST_RUN(test_store);
    TEST_RUN(test_hold_bound);
    TEST_RUN(test_crash_refill);
    TEST_RUN(test_reorg);
    return test_summary("node_txseen");
}
