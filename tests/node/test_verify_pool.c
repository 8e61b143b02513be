/* Verify pool and verified-signature cache: the parallel precheck gives
 * the sequential zbc_block_precheck's verdict and error text for any
 * thread count (valid blocks, blocks with bad transactions at several
 * places, a bad header); the cache hits only on identical bytes, stays
 * within its bounds, and a near-copy of a cached transaction is still
 * refused. */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "consensus/chain_fixture.h"
#include "crypto/hash.h"
#include "node/zbcd/sig_cache.h"
#include "node/zbcd/verify_pool.h"
#include "testlib.h"

#define N_TX 300
#define TX_CAP 256

static uint8_t txs[N_TX][TX_CAP];
static struct zbc_tx_ref refs[N_TX];

/* N_TX distinct SendZBC from the fund, all valid. */
static void make_txs(struct fx *f)
{
    for (uint32_t i = 0; i < N_TX; i++) {
        size_t n = fx_send(txs[i], f, &f->fund, &f->c.addr, 1 + i, FX_FEE,
                           fx_now_s(f));
        refs[i].bytes = txs[i];
        refs[i].len = (uint32_t)n;
    }
}

/* precheck sequentially and with 1, 2, 3 and 8 threads: same verdict, same
 * text, same checked transactions */
static void check_same(struct fx *f, const struct zbc_block *b,
                       const struct zbc_tx_known *known, bool want_ok,
                       const char *want_text)
{
    struct zbc_checked_block seq;
    struct zbc_err serr = {{0}};
    int sok = zbc_block_precheck(&seq, &f->g, &f->tip, b,
                                 b->header.timestamp_ms, &serr);
    CHECK_EQ_INT(sok, want_ok);
    if (!want_ok && strstr(serr.msg, want_text) == NULL) {
        fprintf(stderr, "  sequential: %s\n  want: %s\n", serr.msg, want_text);
        test_failures++;
    }
    static const unsigned counts[] = {1, 2, 3, 8};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
        struct zbc_verify_pool *p = zbc_verify_pool_new(counts[k]);
        CHECK(p != NULL);
        CHECK_EQ_INT(zbc_verify_pool_threads(p), counts[k]);
        struct zbc_checked_block cb;
        struct zbc_err perr = {{0}};
        int pok = zbc_verify_pool_precheck(p, &cb, &f->g, &f->tip, b,
                                           b->header.timestamp_ms, known,
                                           &perr);
        CHECK_EQ_INT(pok, sok);
        if (!pok) {
            CHECK_EQ_STR(perr.msg, serr.msg);
        } else {
            CHECK_EQ_MEM(cb.hash, seq.hash, 32);
            size_t diff = 0;
            for (uint32_t i = 0; i < b->n_tx; i++)
                if (memcmp(cb.txs[i].hash, seq.txs[i].hash, 32) != 0 ||
                    cb.txs[i].tx.fee != seq.txs[i].tx.fee ||
                    cb.txs[i].body.type != seq.txs[i].body.type ||
                    cb.txs[i].body.u.send.amount !=
                        seq.txs[i].body.u.send.amount)
                    diff++;
            CHECK_EQ_INT(diff, 0);
            zbc_checked_block_free(&cb);
        }
        zbc_verify_pool_free(p);
    }
    if (sok)
        zbc_checked_block_free(&seq);
}

static void test_valid_block(void)
{
    struct fx f;
    fx_init(&f);
    make_txs(&f);
    struct zbc_block b;
    uint8_t root[32] = {0};
    fx_hand_block(&b, refs, &f, &f.val, N_TX, f.tip.timestamp_ms + 1000, root);
    check_same(&f, &b, NULL, true, NULL);
    /* empty block */
    fx_hand_block(&b, refs, &f, &f.val, 0, f.tip.timestamp_ms + 1000, root);
    check_same(&f, &b, NULL, true, NULL);
    fx_free(&f);
}

static void test_invalid_blocks(void)
{
    struct fx f;
    fx_init(&f);
    make_txs(&f);
    struct zbc_block b;
    uint8_t root[32] = {0};
    uint64_t ts = f.tip.timestamp_ms + 1000;

    /* bad signatures at 37 and 200, a fee too low at 150: the first is
     * reported */
    uint8_t keep37[TX_CAP], keep200[TX_CAP], keep150[TX_CAP];
    uint32_t len150 = refs[150].len;
    memcpy(keep37, txs[37], TX_CAP);
    memcpy(keep200, txs[200], TX_CAP);
    memcpy(keep150, txs[150], TX_CAP);
    txs[37][refs[37].len - 1] ^= 1;
    txs[200][refs[200].len - 1] ^= 1;
    refs[150].len = (uint32_t)fx_send(txs[150], &f, &f.fund, &f.c.addr, 7, 101,
                                      fx_now_s(&f));
    fx_hand_block(&b, refs, &f, &f.val, N_TX, ts, root);
    check_same(&f, &b, NULL, false, "block transaction 37: invalid signature");

    /* with 37 repaired, 150's fee is first */
    memcpy(txs[37], keep37, TX_CAP);
    fx_hand_block(&b, refs, &f, &f.val, N_TX, ts, root);
    check_same(&f, &b, NULL, false, "block transaction 150: fee too low");

    /* only the last one bad */
    memcpy(txs[150], keep150, TX_CAP);
    refs[150].len = len150;
    memcpy(txs[200], keep200, TX_CAP);
    txs[N_TX - 1][refs[N_TX - 1].len - 1] ^= 1;
    fx_hand_block(&b, refs, &f, &f.val, N_TX, ts, root);
    check_same(&f, &b, NULL, false, "block transaction 299: invalid signature");
    /* bytes that do not parse */
    uint32_t keep_len = refs[5].len;
    refs[5].len = 10;
    fx_hand_block(&b, refs, &f, &f.val, N_TX, ts, root);
    check_same(&f, &b, NULL, false, "block transaction 5: ");
    refs[5].len = keep_len;
    txs[N_TX - 1][refs[N_TX - 1].len - 1] ^= 1;

    /* header failures come before any transaction: wrong producer
     * signature, wrong tx count */
    fx_hand_block(&b, refs, &f, &f.val, N_TX, ts, root);
    b.header.signature[0] ^= 1;
    check_same(&f, &b, NULL, false, "signature");
    fx_hand_block(&b, refs, &f, &f.val, N_TX, ts, root);
    b.n_tx = N_TX - 1;
    check_same(&f, &b, NULL, false, "holds 299 transactions");
    fx_free(&f);
}

static void test_cache(void)
{
    struct fx f;
    fx_init(&f);
    make_txs(&f);
    struct zbc_sig_cache *c = zbc_sig_cache_new(1 << 16, 1 << 20);
    CHECK(c != NULL);
    for (uint32_t i = 0; i < N_TX; i++)
        zbc_sig_cache_add(c, refs[i].bytes, refs[i].len);
    zbc_sig_cache_add(c, refs[0].bytes, refs[0].len); /* again: one entry */
    struct zbc_sig_cache_stats st;
    zbc_sig_cache_stats(c, &st);
    CHECK_EQ_INT(st.entries, N_TX);
    CHECK(zbc_sig_cache_has(c, refs[9].bytes, refs[9].len));

    /* one flipped bit anywhere, or one byte fewer: a miss */
    uint8_t t[TX_CAP];
    size_t misses = 0;
    for (uint32_t at = 0; at < refs[9].len; at++) {
        memcpy(t, refs[9].bytes, refs[9].len);
        t[at] ^= 0x10;
        misses += !zbc_sig_cache_has(c, t, refs[9].len);
    }
    CHECK_EQ_INT(misses, refs[9].len);
    CHECK(!zbc_sig_cache_has(c, refs[9].bytes, refs[9].len - 1));

    /* a block with cached transactions passes with the hint; one whose
     * signature was altered after caching is still refused with the
     * sequential text */
    struct zbc_tx_known known = zbc_sig_cache_known(c);
    struct zbc_block b;
    uint8_t root[32] = {0};
    uint64_t ts = f.tip.timestamp_ms + 1000;
    fx_hand_block(&b, refs, &f, &f.val, N_TX, ts, root);
    check_same(&f, &b, &known, true, NULL);
    zbc_sig_cache_stats(c, &st);
    CHECK(st.hits >= 4 * N_TX);
    txs[77][refs[77].len - 1] ^= 1;
    fx_hand_block(&b, refs, &f, &f.val, N_TX, ts, root);
    check_same(&f, &b, &known, false, "block transaction 77: invalid signature");
    txs[77][refs[77].len - 1] ^= 1;
    zbc_sig_cache_free(c);

    /* zbc_sig_cache_check: a miss is checked in full and recorded under
     * its transaction hash, the next check of the same bytes hits and
     * gives the same hash; bytes that fail are refused, not recorded */
    c = zbc_sig_cache_new(64, 1 << 20);
    struct zbc_checked_tx ct1, ct2;
    struct zbc_err err = {{0}};
    uint8_t want[32];
    zbc_sha3_256(want, refs[5].bytes, refs[5].len);
    CHECK(zbc_sig_cache_check(c, &ct1, &f.g, refs[5].bytes, refs[5].len,
                              &err));
    zbc_sig_cache_stats(c, &st);
    CHECK_EQ_INT(st.misses, 1);
    CHECK_EQ_INT(st.hits, 0);
    CHECK_EQ_INT(st.entries, 1);
    CHECK_EQ_MEM(ct1.hash, want, 32);
    CHECK(zbc_sig_cache_check(c, &ct2, &f.g, refs[5].bytes, refs[5].len,
                              &err));
    zbc_sig_cache_stats(c, &st);
    CHECK_EQ_INT(st.hits, 1);
    CHECK_EQ_MEM(ct2.hash, want, 32);
    CHECK_EQ_INT(ct2.tx.fee, ct1.tx.fee);
    memcpy(t, refs[6].bytes, refs[6].len);
    t[refs[6].len - 1] ^= 1;
    CHECK(!zbc_sig_cache_check(c, &ct1, &f.g, t, refs[6].len, &err));
    CHECK(strstr(err.msg, "invalid signature") != NULL);
    zbc_sig_cache_stats(c, &st);
    CHECK_EQ_INT(st.entries, 1);
    zbc_sig_cache_free(c);

    /* bounds: 4 entries (one set), then a byte budget of one transaction */
    c = zbc_sig_cache_new(1, 1 << 20);
    for (uint32_t i = 0; i < 10; i++)
        zbc_sig_cache_add(c, refs[i].bytes, refs[i].len);
    zbc_sig_cache_stats(c, &st);
    CHECK_EQ_INT(st.entries, 4);
    CHECK(zbc_sig_cache_has(c, refs[9].bytes, refs[9].len)); /* newest kept */
    CHECK(!zbc_sig_cache_has(c, refs[0].bytes, refs[0].len)); /* oldest gone */
    zbc_sig_cache_free(c);
    c = zbc_sig_cache_new(64, refs[0].len + 10);
    for (uint32_t i = 0; i < 10; i++)
        zbc_sig_cache_add(c, refs[i].bytes, refs[i].len);
    zbc_sig_cache_stats(c, &st);
    CHECK(st.entries <= 1 && st.bytes <= refs[0].len + 10);
    zbc_sig_cache_free(c);
    fx_free(&f);
}

static atomic_int seen[5000];

static void count_one(void *ctx, size_t i)
{
    (void)ctx;
    atomic_fetch_add(&seen[i], 1);
}

static void test_run_covers_each_once(void)
{
    struct zbc_verify_pool *p = zbc_verify_pool_new(0);
    CHECK(p != NULL && zbc_verify_pool_threads(p) >= 1);
    zbc_verify_pool_free(p);
    static const size_t ns[] = {0, 1, 3, 4, 5, 4999};
    for (unsigned t = 1; t <= 5; t += 2) {
        p = zbc_verify_pool_new(t);
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
            for (size_t i = 0; i < 5000; i++)
                atomic_store(&seen[i], 0);
            zbc_verify_pool_run(p, ns[k], count_one, NULL);
            size_t wrong = 0;
            for (size_t i = 0; i < 5000; i++)
                wrong += atomic_load(&seen[i]) != (i < ns[k] ? 1 : 0);
            CHECK_EQ_INT(wrong, 0);
        }
        zbc_verify_pool_free(p);
    }
    p = zbc_verify_pool_new(1000); /* capped */
    CHECK_EQ_INT(zbc_verify_pool_threads(p), ZBC_VERIFY_POOL_MAX);
    zbc_verify_pool_free(p);
}

/* Runs return when their items are done, not when their helper threads
 * end (verify_pool.c): many short runs back to back, each counting into
 * its own context on this thread's stack, a helper that starts late must
 * find no work and touch no context — every item of every run counted
 * once, each run complete when zbc_verify_pool_run returns. */
struct short_run {
    atomic_int hits[16];
};

static void count_in_ctx(void *ctx, size_t i)
{
    struct short_run *r = ctx;
    atomic_fetch_add(&r->hits[i], 1);
}

static void test_run_returns_when_done(void)
{
    struct zbc_verify_pool *p = zbc_verify_pool_new(4);
    CHECK(p != NULL);
    size_t wrong = 0;
    for (int k = 0; p != NULL && k < 20000; k++) {
        struct short_run r;
        size_t n = 5 + (size_t)(k % 12);
        for (size_t i = 0; i < 16; i++)
            atomic_init(&r.hits[i], 0);
        zbc_verify_pool_run(p, n, count_in_ctx, &r);
        for (size_t i = 0; i < 16; i++)
            wrong += atomic_load(&r.hits[i]) != (i < n ? 1 : 0);
        memset(&r, 0xA5, sizeof r); /* a late helper would see garbage */
    }
    CHECK_EQ_INT(wrong, 0);
    zbc_verify_pool_free(p);
}

/* Runs from two threads at once on one pool, and runs nested in a work
 * function: the workers serve one run at a time, the others run on their
 * caller's thread; every item counted once either way. */
struct nested {
    struct zbc_verify_pool *p;
    struct short_run inner[8];
};

static void run_inner(void *ctx, size_t i)
{
    struct nested *x = ctx;
    zbc_verify_pool_run(x->p, 16, count_in_ctx, &x->inner[i]);
}

struct caller {
    struct zbc_verify_pool *p;
    size_t wrong;
};

static void *many_runs(void *arg)
{
    struct caller *c = arg;
    for (int k = 0; k < 2000; k++) {
        struct short_run r;
        for (size_t i = 0; i < 16; i++)
            atomic_init(&r.hits[i], 0);
        zbc_verify_pool_run(c->p, 16, count_in_ctx, &r);
        for (size_t i = 0; i < 16; i++)
            c->wrong += atomic_load(&r.hits[i]) != 1;
    }
    return NULL;
}

static void test_concurrent_and_nested(void)
{
    struct zbc_verify_pool *p = zbc_verify_pool_new(3);
    CHECK(p != NULL);
    struct caller a = {p, 0}, b = {p, 0};
    pthread_t th;
    CHECK(pthread_create(&th, NULL, many_runs, &a) == 0);
    many_runs(&b);
    pthread_join(th, NULL);
    CHECK_EQ_INT(a.wrong + b.wrong, 0);
    struct nested x = {.p = p};
    for (size_t j = 0; j < 8; j++)
        for (size_t i = 0; i < 16; i++)
            atomic_init(&x.inner[j].hits[i], 0);
    zbc_verify_pool_run(p, 8, run_inner, &x);
    size_t wrong = 0;
    for (size_t j = 0; j < 8; j++)
        for (size_t i = 0; i < 16; i++)
            wrong += atomic_load(&x.inner[j].hits[i]) != 1;
    CHECK_EQ_INT(wrong, 0);
    zbc_verify_pool_free(p); /* joins its workers */
    /* a pool that never ran starts no thread and frees */
    zbc_verify_pool_free(zbc_verify_pool_new(4));
}

int main(void)
{
    TEST_RUN(test_valid_block);
    TEST_RUN(test_invalid_blocks);
    TEST_RUN(test_cache);
    TEST_RUN(test_run_covers_each_once);
    TEST_RUN(test_run_returns_when_done);
    TEST_RUN(test_concurrent_and_nested);
    return test_summary("node_verify_pool");
}
