/* zbc-bench: the node's hot paths, timed (docs/benchmarks.md).
 *
 * Every figure is printed as microseconds per operation, operations per
 * second, and `xbase`: the cost in units of the baseline, one SHA3-256 of
 * 1 KiB measured in the same run, so that figures taken on different
 * machines or under different load can be compared.  The parallel
 * precheck is also given as a speed-up over its one-thread run.
 *
 *   zbc-bench [--quick] [--tmp DIR]
 *
 * Writes only under DIR (default $TMPDIR or /tmp): scratch LMDB ledgers,
 * removed at the end.  Exit status 1 when a step fails (the numbers would
 * mean nothing). */
#include <errno.h>
#include <jansson.h>
#include <openssl/evp.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "consensus/apply.h"
#include "consensus/block.h"
#include "consensus/genesis.h"
#include "consensus/ledger.h"
#include "consensus/mem_kv.h"
#include "consensus/mempool.h"
#include "consensus/producer.h"
#include "consensus/state.h"
#include "consensus/state_root.h"
#include "crypto/bytes.h"
#include "crypto/hash.h"
#include "crypto/hex.h"
#include "crypto/sig.h"
#include "node/zbcd/admit.h"
#include "node/zbcd/chain.h"
#include "node/zbcd/log.h"
#include "node/zbcd/seen_set.h"
#include "node/zbcd/sig_cache.h"
#include "node/zbcd/store.h"
#include "node/zbcd/verify_pool.h"

#define N_SENDERS 20
#define BLOCK_TXS 2000
#define GENESIS_MS 1700000000000ULL
#define BLOCK_MS 1000
#define FEE 1000

static double base_us; /* one SHA3-256 of 1 KiB */
static bool quick;

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void die(const char *what, const struct zbc_err *err)
{
    fprintf(stderr, "zbc-bench: %s: %s\n", what, err != NULL ? err->msg : "");
    exit(1);
}

static void report(const char *name, double us_per_op)
{
    printf("%-44s %12.2f %12.0f %10.2f\n", name, us_per_op,
           us_per_op > 0 ? 1e6 / us_per_op : 0.0,
           base_us > 0 ? us_per_op / base_us : 0.0);
    fflush(stdout);
}

/* Runs fn(arg) in rounds of `batch` until min_us has passed; us per call. */
static double time_loop(void (*fn)(void *), void *arg, size_t batch,
                        double min_us)
{
    size_t n = 0;
    double t0 = now_us(), t;
    do {
        for (size_t i = 0; i < batch; i++)
            fn(arg);
        n += batch;
        t = now_us();
    } while (t - t0 < min_us);
    return (t - t0) / (double)n;
}

/* ---- keys, genesis, transactions ---- */

struct key {
    uint8_t seed[32], pk[32], sk[64];
    struct zbc_addr addr;
};

static struct key validator, fund, senders[N_SENDERS], sink;
static struct zbc_genesis genesis;

static void make_key(struct key *k, uint8_t a, uint8_t b)
{
    memset(k->seed, a, 32);
    k->seed[31] = b;
    zbc_ed25519_keypair(k->pk, k->sk, k->seed);
    zbc_addr_from_ed25519(&k->addr, k->pk);
}

static void make_genesis(void)
{
    make_key(&validator, 0x11, 0);
    make_key(&fund, 0x55, 0);
    make_key(&sink, 0x44, 0);
    for (int i = 0; i < N_SENDERS; i++)
        make_key(&senders[i], 0x22, (uint8_t)i);
    static char json[8192];
    char hex[65], fhex[65];
    zbc_hex_encode(hex, validator.pk, 32);
    zbc_hex_encode(fhex, fund.pk, 32);
    int w = snprintf(json, sizeof json,
                     "{\"chain_name\":\"bench\",\"genesis_time\":%llu,"
                     "\"block_time_ms\":%d,\"smith_delay_ms\":1000,"
                     "\"validators\":[\"%s\"],\"fund_account\":\"%s\","
                     "\"fund_balance\":1000000000,\"balances\":[",
                     (unsigned long long)GENESIS_MS, BLOCK_MS, hex, fhex);
    for (int i = 0; i < N_SENDERS; i++) {
        zbc_hex_encode(hex, senders[i].pk, 32);
        w += snprintf(json + w, sizeof json - (size_t)w,
                      "%s{\"address\":\"%s\",\"amount\":1000000000000}",
                      i ? "," : "", hex);
    }
    snprintf(json + w, sizeof json - (size_t)w,
             "],\"min_fee_base\":100,\"min_fee_per_byte\":1}");
    struct zbc_err err;
    if (!zbc_genesis_parse_json(&genesis, json, strlen(json), &err))
        die("genesis", &err);
}

struct txset {
    uint8_t (*raw)[256];
    struct zbc_tx_ref *refs;
    size_t n;
};

/* n distinct SendZBC transactions, senders in turn. */
static void make_txs(struct txset *s, size_t n, uint64_t salt)
{
    s->raw = calloc(n, sizeof *s->raw);
    s->refs = calloc(n, sizeof *s->refs);
    s->n = n;
    if (s->raw == NULL || s->refs == NULL)
        die("out of memory", NULL);
    int64_t ts = (int64_t)((GENESIS_MS + BLOCK_MS) / 1000);
    for (size_t i = 0; i < n; i++) {
        uint64_t amount = 1 + i + salt;
        uint8_t body[8];
        zbc_put_le64(body, amount);
        struct zbc_tx tx;
        memset(&tx, 0, sizeof tx);
        tx.type = ZBC_TX_SEND;
        tx.version = 1;
        tx.timestamp = ts;
        tx.recipient = sink.addr;
        tx.fee = FEE;
        tx.body = body;
        tx.body_len = 8;
        size_t len;
        struct zbc_err err;
        if (!zbc_tx_sign_ed25519(s->raw[i], sizeof s->raw[i], &len, &tx,
                                 senders[i % N_SENDERS].seed, genesis.hash,
                                 &err))
            die("signing", &err);
        s->refs[i].bytes = s->raw[i];
        s->refs[i].len = (uint32_t)len;
    }
}

static void txset_free(struct txset *s)
{
    free(s->raw);
    free(s->refs);
}

/* ---- baseline and signatures ---- */

static uint8_t kib[1024];

static void sha3_once(void *arg)
{
    uint8_t out[32];
    (void)arg;
    zbc_sha3_256(out, kib, sizeof kib);
    kib[0] ^= out[0]; /* keeps the work live */
}

/* A transaction-sized SHA3-256 the way crypto/hash.c did it before it
 * fetched the digest once: EVP_sha3_256() looked up again in each call. */
static uint8_t short_in[160];

static void sha3_short_fetch_each(void *arg)
{
    uint8_t out[32];
    (void)arg;
    if (EVP_Digest(short_in, sizeof short_in, out, NULL, EVP_sha3_256(),
                   NULL) != 1)
        die("EVP_Digest", NULL);
    short_in[0] ^= out[0];
}

static void sha3_short(void *arg)
{
    uint8_t out[32];
    (void)arg;
    zbc_sha3_256(out, short_in, sizeof short_in);
    short_in[0] ^= out[0];
}

static void bench_hash_fetch(double min_us)
{
    double each = time_loop(sha3_short_fetch_each, NULL, 1024, min_us);
    double once = time_loop(sha3_short, NULL, 1024, min_us);
    report("SHA3-256 of 160 B, digest looked up per call", each);
    report("SHA3-256 of 160 B, fetched once (zbc_sha3_256)", once);
    printf("  fetched once: %.2fx the per-call lookup's speed\n", each / once);
}

struct sig_case {
    struct zbc_addr addr;
    uint8_t digest[32];
    uint8_t sig[65];
    size_t sig_len;
};

static void verify_once(void *arg)
{
    struct sig_case *c = arg;
    struct zbc_err err;
    if (!zbc_sig_verify(&c->addr, c->digest, c->sig, c->sig_len, &err))
        die("signature verify", &err);
}

static void bench_signatures(double min_us)
{
    struct sig_case c;
    memset(&c, 0, sizeof c);
    zbc_sha3_256(c.digest, "bench", 5);
    c.addr = senders[0].addr;
    zbc_ed25519_sign(c.sig, senders[0].sk, c.digest, 32);
    c.sig_len = 64;
    report("verify Ed25519 (type 0)", time_loop(verify_once, &c, 64, min_us));

    uint8_t sec[32];
    memset(sec, 0x77, 32);
    if (!zbc_eth_address(&c.addr, sec) || !zbc_eth_sign(c.sig, sec, c.digest))
        die("ethereum key", NULL);
    c.sig_len = 65;
    report("verify Ethereum personal_sign (type 4)",
           time_loop(verify_once, &c, 64, min_us));

    if (!zbc_btc_address(&c.addr, sec) || !zbc_btc_sign(c.sig, sec, c.digest))
        die("bitcoin key", NULL);
    report("verify Bitcoin signmessage (type 5)",
           time_loop(verify_once, &c, 64, min_us));
}

/* ---- a block of BLOCK_TXS SendZBC ---- */

struct mem_chain {
    struct zbc_mem_kv *m;
    struct zbc_state s;
};

static void mem_open(struct mem_chain *mc)
{
    struct zbc_err err;
    mc->m = zbc_mem_kv_new();
    if (mc->m == NULL || !zbc_state_open(&mc->s, zbc_mem_kv(mc->m), &err) ||
        !zbc_ledger_init_genesis(&mc->s, &genesis, &err))
        die("memory state", &err);
}

static void mem_close(struct mem_chain *mc)
{
    zbc_state_close(&mc->s);
    zbc_mem_kv_free(mc->m);
}

static struct zbc_parent parent0;
static struct zbc_block block;        /* built; txs borrow the txset */
static uint8_t *block_bytes;
static size_t block_len;
static uint64_t block_ms;

static void build_block(const struct txset *txs)
{
    struct mem_chain mc;
    mem_open(&mc);
    zbc_parent_genesis(&parent0, &genesis);
    block_ms = GENESIS_MS + BLOCK_MS;
    struct zbc_undo u;
    struct zbc_events ev;
    struct zbc_err err;
    if (!zbc_block_build(&block, &mc.s, &genesis, &parent0, txs->refs, txs->n,
                         block_ms, validator.sk, &u, &ev, &err))
        die("building the block", &err);
    if (block.n_tx != txs->n)
        die("the block left transactions out", NULL);
    if (!zbc_block_encode(&block, &block_bytes, &block_len, &err))
        die("encoding the block", &err);
    zbc_undo_free(&u);
    zbc_events_free(&ev);
    mem_close(&mc);
}

/* best of `reps` runs of one precheck */
static double precheck_us(struct zbc_verify_pool *p,
                          const struct zbc_tx_known *known, int reps)
{
    double best = 0;
    for (int r = 0; r < reps; r++) {
        struct zbc_checked_block cb;
        struct zbc_err err;
        double t0 = now_us();
        if (!zbc_verify_pool_precheck(p, &cb, &genesis, &parent0, &block,
                                      block_ms, known, &err))
            die("precheck", &err);
        double t = now_us() - t0;
        zbc_checked_block_free(&cb);
        if (r == 0 || t < best)
            best = t;
    }
    return best;
}

static void bench_precheck(int reps)
{
    struct zbc_verify_pool *one = zbc_verify_pool_new(1);
    struct zbc_verify_pool *all = zbc_verify_pool_new(0);
    if (one == NULL || all == NULL)
        die("verify pool", NULL);
    char name[80];
    double t1 = precheck_us(one, NULL, reps);
    snprintf(name, sizeof name, "precheck %d SendZBC, 1 thread", BLOCK_TXS);
    report(name, t1);
    double tn = precheck_us(all, NULL, reps);
    snprintf(name, sizeof name, "precheck %d SendZBC, %u threads", BLOCK_TXS,
             zbc_verify_pool_threads(all));
    report(name, tn);
    printf("%-44s %12.2f\n", "  parallel speed-up (1 thread / all)",
           tn > 0 ? t1 / tn : 0.0);

    struct zbc_sig_cache *c = zbc_sig_cache_new(2 * BLOCK_TXS, 16u << 20);
    if (c == NULL)
        die("signature cache", NULL);
    for (uint32_t i = 0; i < block.n_tx; i++)
        zbc_sig_cache_add(c, block.txs[i].bytes, block.txs[i].len);
    struct zbc_tx_known known = zbc_sig_cache_known(c);
    snprintf(name, sizeof name, "precheck %d SendZBC, all cached, 1 thr",
             BLOCK_TXS);
    double tc = precheck_us(one, &known, reps);
    report(name, tc);
    printf("%-44s %12.2f\n", "  cache speed-up (1 thread)",
           tc > 0 ? t1 / tc : 0.0);
    zbc_sig_cache_free(c);
    zbc_verify_pool_free(one);
    zbc_verify_pool_free(all);
}

static struct zbc_checked_block checked;

static void bench_apply_mem(int reps)
{
    double best = 0;
    for (int r = 0; r < reps; r++) {
        struct mem_chain mc;
        mem_open(&mc);
        struct zbc_undo u;
        struct zbc_events ev;
        struct zbc_err err;
        double t0 = now_us();
        if (!zbc_block_apply(&mc.s, &genesis, &parent0, &checked, &u, &ev,
                             &err))
            die("apply in memory", &err);
        double t = now_us() - t0;
        if (r == 0 || t < best)
            best = t;
        zbc_undo_free(&u);
        zbc_events_free(&ev);
        mem_close(&mc);
    }
    char name[80];
    snprintf(name, sizeof name, "apply %d SendZBC, memory state", BLOCK_TXS);
    report(name, best);
    report("  per transaction", best / BLOCK_TXS);
}

/* The producer's side: zbc_block_build_known of the same 2000
 * transactions, every one in the signature cache (they came through the
 * mempool), best of `reps`; and how many such transactions fit the
 * node's default build budget for 1-s blocks (chain.h: 250 ms). */
static void bench_build(const struct txset *txs, int reps)
{
    struct zbc_sig_cache *sc = zbc_sig_cache_new(2 * txs->n, (size_t)1 << 30);
    if (sc == NULL)
        die("signature cache", NULL);
    for (size_t i = 0; i < txs->n; i++)
        zbc_sig_cache_add(sc, txs->refs[i].bytes, txs->refs[i].len);
    struct zbc_tx_known known = zbc_sig_cache_known(sc);
    double best = 0;
    for (int r = 0; r < reps; r++) {
        struct mem_chain mc;
        mem_open(&mc);
        struct zbc_block b;
        struct zbc_undo u;
        struct zbc_events ev;
        struct zbc_err err;
        double t0 = now_us();
        if (!zbc_block_build_known(&b, &mc.s, &genesis, &parent0, txs->refs,
                                   txs->n, block_ms, validator.sk, &known,
                                   NULL, &u, &ev, &err) ||
            b.n_tx != txs->n)
            die("build", &err);
        double t = now_us() - t0;
        if (r == 0 || t < best)
            best = t;
        zbc_block_free(&b);
        zbc_undo_free(&u);
        zbc_events_free(&ev);
        mem_close(&mc);
    }
    char name[80];
    snprintf(name, sizeof name, "build %zu SendZBC, all cached, memory",
             txs->n);
    report(name, best);
    report("  per transaction", best / (double)txs->n);
    printf("%-44s %12.0f\n", "  transactions in a 250-ms build budget",
           250000.0 / (best / (double)txs->n));
    zbc_sig_cache_free(sc);
}

/* ---- LMDB ---- */

static char tmp_root[512];

static void rm_tree(const char *dir)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "zbc-bench: could not remove %s\n", dir);
}

static void fresh_dir(char *out, size_t cap, const char *name, int r)
{
    snprintf(out, cap, "%s/%s-%d", tmp_root, name, r);
    rm_tree(out);
    if (mkdir(out, 0700) != 0) {
        fprintf(stderr, "zbc-bench: mkdir %s: %s\n", out, strerror(errno));
        exit(1);
    }
}

/* A node's chain on a fresh ledger directory (named in dir) of the bench
 * genesis. */
static struct zbc_chain *bench_chain(char *dir, size_t cap, const char *name,
                                     int r)
{
    fresh_dir(dir, cap, name, r);
    struct zbc_chain_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.ledger_dir = dir;
    cfg.genesis = &genesis;
    struct zbc_chain *c;
    struct zbc_err err;
    if (!zbc_chain_open(&c, &cfg, &err))
        die("chain", &err);
    return c;
}

static int genesis_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    (void)arg;
    struct zbc_kv kv;
    struct zbc_state st;
    zbc_store_txn_kv(t, &kv);
    if (!zbc_state_open(&st, kv, err))
        return 0;
    int ok = zbc_ledger_init_genesis(&st, &genesis, err);
    zbc_state_close(&st);
    return ok;
}

static int apply_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    (void)arg;
    struct zbc_kv kv;
    struct zbc_state st;
    zbc_store_txn_kv(t, &kv);
    if (!zbc_state_open(&st, kv, err))
        return 0;
    struct zbc_undo u;
    struct zbc_events ev;
    int ok = zbc_block_apply(&st, &genesis, &parent0, &checked, &u, &ev, err);
    if (ok) {
        zbc_undo_free(&u);
        zbc_events_free(&ev);
    }
    zbc_state_close(&st);
    return ok;
}

static void bench_apply_lmdb(int reps)
{
    double best = 0;
    for (int r = 0; r < reps; r++) {
        char dir[600];
        fresh_dir(dir, sizeof dir, "store", r);
        struct zbc_store *s;
        struct zbc_store_options opt;
        memset(&opt, 0, sizeof opt);
        struct zbc_err err;
        if (!zbc_store_open(&s, dir, &opt, &err) ||
            !zbc_store_write(s, genesis_fn, NULL, &err))
            die("LMDB store", &err);
        double t0 = now_us();
        if (!zbc_store_write(s, apply_fn, NULL, &err))
            die("apply on LMDB", &err);
        double t = now_us() - t0;
        if (r == 0 || t < best)
            best = t;
        zbc_store_close(s);
        rm_tree(dir);
    }
    char name[80];
    snprintf(name, sizeof name, "apply %d SendZBC, LMDB + commit", BLOCK_TXS);
    report(name, best);

    /* the node's whole path for a block from a peer: decode, precheck on
     * every core, apply, block/undo/event/index records, commit */
    best = 0;
    for (int r = 0; r < reps; r++) {
        char dir[600];
        struct zbc_chain *c = bench_chain(dir, sizeof dir, "chain", r);
        struct zbc_err err;
        struct zbc_block_info info;
        double t0 = now_us();
        if (!zbc_chain_apply_block(c, block_bytes, block_len, block_ms, &info,
                                   &err))
            die("chain apply", &err);
        double t = now_us() - t0;
        if (r == 0 || t < best)
            best = t;
        zbc_chain_close(c);
        rm_tree(dir);
    }
    snprintf(name, sizeof name, "node: peer block %d SendZBC (all steps)",
             BLOCK_TXS);
    report(name, best);
}

/* ---- state root ---- */

struct root_case {
    struct zbc_lthash h;
    uint8_t key[34], old[48], val[48];
};

static void root_entry(void *arg)
{
    struct root_case *c = arg;
    /* one changed entry: its old element out, its new one in */
    zbc_lthash_sub(&c->h, ZBC_TABLE_ACCOUNTS, c->key, sizeof c->key, c->old,
                   sizeof c->old);
    zbc_lthash_add(&c->h, ZBC_TABLE_ACCOUNTS, c->key, sizeof c->key, c->val,
                   sizeof c->val);
    c->val[0]++;
}

static void bench_state_root(double min_us)
{
    struct root_case c;
    memset(&c, 0x5a, sizeof c);
    zbc_lthash_zero(&c.h);
    report("state root: one changed entry (sub + add)",
           time_loop(root_entry, &c, 256, min_us));
    uint8_t root[32];
    double t0 = now_us();
    for (int i = 0; i < 1000; i++)
        zbc_lthash_root(root, &c.h);
    report("state root: hash of the accumulator", (now_us() - t0) / 1000);
}

/* ---- mempool ---- */

static void bench_mempool(size_t n)
{
    struct txset txs;
    make_txs(&txs, n, 1000000);
    struct mem_chain mc;
    mem_open(&mc);
    struct zbc_mempool *mp = zbc_mempool_new(n, (size_t)1 << 30);
    if (mp == NULL)
        die("mempool", NULL);
    uint64_t t_ms = GENESIS_MS + BLOCK_MS;
    size_t tenth = n / 10;
    double first = 0, last = 0, t0 = now_us(), start = t0;
    for (size_t i = 0; i < n; i++) {
        uint8_t h[32];
        bool dup;
        struct zbc_err err;
        if (!zbc_mempool_add(mp, &mc.s, &genesis, txs.refs[i].bytes,
                             txs.refs[i].len, t_ms, h, &dup, &err) || dup)
            die("mempool admission", &err);
        if (i + 1 == tenth)
            first = now_us() - t0;
        if (i + 1 == n - tenth)
            t0 = now_us();
    }
    last = now_us() - t0;
    double total = now_us() - start;
    char name[80];
    snprintf(name, sizeof name, "mempool admission (%zu txs)", n);
    report(name, total / (double)n);
    snprintf(name, sizeof name, "  first %zu (pool nearly empty)", tenth);
    report(name, first / (double)tenth);
    snprintf(name, sizeof name, "  last %zu (pool of %zu)", tenth, n - tenth);
    report(name, last / (double)tenth);

    /* the pool is full (capacity n): a newcomer of the same fee per byte
     * is refused with the fee that would get it in, before any verify */
    struct txset more;
    make_txs(&more, tenth, 3000000);
    double tr = now_us();
    for (size_t i = 0; i < tenth; i++) {
        uint8_t h[32];
        bool dup;
        struct zbc_err err;
        if (zbc_mempool_add(mp, &mc.s, &genesis, more.refs[i].bytes,
                            more.refs[i].len, t_ms, h, &dup, &err) ||
            strstr(err.msg, "a fee of at least") == NULL)
            die("mempool full refusal", &err);
    }
    double refusal = (now_us() - tr) / (double)tenth;
    report("mempool full: refusal naming the fee", refusal);
    printf("%-44s %12.2f\n", "  admission / refusal", (total / (double)n) /
                                                         refusal);
    txset_free(&more);

    struct zbc_tx_ref *out = calloc(n, sizeof *out);
    double ts = now_us();
    size_t got = zbc_mempool_select(mp, out, n);
    report("mempool select, per transaction", (now_us() - ts) / (double)got);
    ts = now_us();
    size_t found = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t h[32];
        size_t pos;
        zbc_sha3_256(h, txs.refs[i].bytes, txs.refs[i].len);
        found += zbc_mempool_find(mp, h, &pos, NULL, NULL);
    }
    if (found != n)
        die("mempool lookup", NULL);
    report("mempool find with position (incl. hash)",
           (now_us() - ts) / (double)n);
    /* the re-check after a block (an empty one: nothing leaves, every
     * pooled transaction is checked again against the state) */
    struct zbc_block empty;
    memset(&empty, 0, sizeof empty);
    struct zbc_err err;
    ts = now_us();
    if (!zbc_mempool_after_block(mp, &mc.s, &genesis, &empty, t_ms, &err) ||
        zbc_mempool_count(mp) != n)
        die("mempool re-check", &err);
    double re = now_us() - ts;
    snprintf(name, sizeof name, "mempool re-check after a block (%zu txs)", n);
    report(name, re);
    report("  per pooled transaction", re / (double)n);
    /* the next block on it, its undo record naming no pooled sender:
     * each transfer is checked for its time window only */
    struct zbc_block next;
    memset(&next, 0, sizeof next);
    next.header.height = 1;
    zbc_block_hash(next.header.prev_hash, &empty.header);
    struct zbc_undo none = {0};
    ts = now_us();
    size_t full_n, skipped;
    if (!zbc_mempool_after_block_undo(mp, &mc.s, &genesis, &next, &none, t_ms,
                                      &err) ||
        zbc_mempool_count(mp) != n)
        die("mempool targeted re-check", &err);
    double tre = now_us() - ts;
    zbc_mempool_last_recheck(mp, &full_n, &skipped);
    if (skipped != n || full_n != 0)
        die("mempool targeted re-check: not all time-only", NULL);
    snprintf(name, sizeof name,
             "mempool re-check, block touching no sender (%zu txs)", n);
    report(name, tre);
    printf("%-44s %12.2f\n", "  full / targeted", re / tre);
    free(out);
    zbc_mempool_free(mp);
    mem_close(&mc);
    txset_free(&txs);
}

/* ---- one signature check per transaction per node ---- */

/* A transaction gossiped by a peer and then admitted: the stateless check
 * and the mempool admission verified the signature each (before), or
 * share the node's signature cache (now: zbc_sig_cache_check, then
 * zbc_mempool_add_known).  Both over the same n transactions, in one run. */
static void bench_gossip_admission(size_t n)
{
    struct txset txs;
    make_txs(&txs, n, 2000000);
    uint64_t t_ms = GENESIS_MS + BLOCK_MS;
    double us[2];
    for (int way = 0; way < 2; way++) {
        struct mem_chain mc;
        mem_open(&mc);
        struct zbc_mempool *mp = zbc_mempool_new(n, (size_t)1 << 30);
        struct zbc_sig_cache *sc = zbc_sig_cache_new(2 * n, (size_t)1 << 30);
        if (mp == NULL || sc == NULL)
            die("mempool", NULL);
        struct zbc_tx_known known = zbc_sig_cache_known(sc);
        double t0 = now_us();
        for (size_t i = 0; i < n; i++) {
            const uint8_t *raw = txs.refs[i].bytes;
            size_t len = txs.refs[i].len;
            struct zbc_checked_tx ct;
            uint8_t h[32];
            bool dup;
            struct zbc_err err;
            int ok = way == 0
                         ? zbc_tx_check_stateless(&ct, &genesis, raw, len,
                                                  &err) &&
                               zbc_mempool_add(mp, &mc.s, &genesis, raw, len,
                                               t_ms, h, &dup, &err)
                         : zbc_sig_cache_check(sc, &ct, &genesis, raw, len,
                                               &err) &&
                               zbc_mempool_add_known(mp, &mc.s, &genesis, raw,
                                                     len, &known, t_ms, h,
                                                     &dup, &err);
            if (!ok)
                die("gossip admission", &err);
        }
        us[way] = (now_us() - t0) / (double)n;
        zbc_sig_cache_free(sc);
        zbc_mempool_free(mp);
        mem_close(&mc);
    }
    report("gossiped tx admitted, 2 verifies (before)", us[0]);
    report("gossiped tx admitted, 1 verify (cache)", us[1]);
    printf("%-44s %12.2f\n", "  speed-up (before / cache)", us[0] / us[1]);
    txset_free(&txs);
}

/* ---- batch admission ---- */

static double cpu_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* The API's admission of n SendZBC on a fresh chain (LMDB): one
 * zbc_chain_submit per transaction on this thread (before), or
 * zbc_chain_submit_batch in batches of 100 (stateless checks on every
 * core, one read snapshot per batch: docs/api.md §3 "Batches").  The
 * answers must be the same, or nothing is reported. */
#define SUBMIT_BATCH 100

static void bench_submit_batch(size_t n)
{
    struct txset txs;
    make_txs(&txs, n, 3000000);
    uint64_t t_ms = GENESIS_MS + BLOCK_MS;
    struct zbc_submit *items = calloc(n, sizeof *items);
    uint8_t (*serial_hash)[32] = calloc(n, 32);
    if (items == NULL || serial_hash == NULL)
        die("out of memory", NULL);
    double us[2], cpu[2];
    for (int way = 0; way < 2; way++) {
        char dir[600];
        struct zbc_chain *c = bench_chain(dir, sizeof dir, "submit", way);
        struct zbc_err err;
        for (size_t i = 0; i < n; i++) {
            items[i] = (struct zbc_submit){.raw = txs.refs[i].bytes,
                                           .len = txs.refs[i].len};
        }
        double t0 = now_us(), c0 = cpu_us();
        if (way == 0) {
            for (size_t i = 0; i < n; i++) {
                bool dup;
                if (!zbc_chain_submit(c, items[i].raw, items[i].len, t_ms,
                                      serial_hash[i], &dup, &err) || dup)
                    die("submit", &err);
            }
        } else {
            for (size_t i = 0; i < n; i += SUBMIT_BATCH)
                zbc_chain_submit_batch(c, &items[i],
                                       n - i < SUBMIT_BATCH ? n - i
                                                            : SUBMIT_BATCH,
                                       t_ms);
        }
        us[way] = (now_us() - t0) / (double)n;
        cpu[way] = (cpu_us() - c0) / (double)n;
        if (way == 1)
            for (size_t i = 0; i < n; i++)
                if (items[i].ok != 1 || items[i].duplicate ||
                    memcmp(items[i].hash, serial_hash[i], 32) != 0)
                    die("batch admission differs from one by one",
                        &items[i].err);
        if (zbc_chain_mempool_count(c) != n)
            die("not every transaction admitted", NULL);
        zbc_chain_close(c);
        rm_tree(dir);
    }
    report("API admission, one by one (before)", us[0]);
    report("API admission, batches of 100, all cores", us[1]);
    printf("%-44s %12.2f\n", "  speed-up (one by one / batches)",
           us[0] / us[1]);
    /* CPU of every thread: the work itself, whether or not a second core
     * was free (on a loaded machine the wall-clock speed-up is not) */
    report("  CPU per tx, one by one", cpu[0]);
    report("  CPU per tx, batches (all threads)", cpu[1]);
    printf("%-44s %12.2f\n", "  CPU ratio (one by one / batches)",
           cpu[0] / cpu[1]);
    free(items);
    free(serial_hash);
    txset_free(&txs);
}


/* ---- overload: a batch on a full pool (docs/api.md §3 "Overload") ---- */

#define OVL_BATCH 100

struct ovl {
    struct zbc_chain *c;
    const char *body;
    size_t len;
    uint64_t t_ms;
};

static void die_unless_full(const char *what, const char *msg)
{
    if (strstr(msg, "mempool is full") == NULL) {
        struct zbc_err e;
        snprintf(e.msg, sizeof e.msg, "not a full-pool refusal: %s", msg);
        die(what, &e);
    }
}

/* What api.c's post_batch does for the body, HTTP aside: decode it on the
 * verify pool, admit each element, one answer each, the answer's text. */
static void ovl_ordinary(void *arg)
{
    struct ovl *o = arg;
    struct zbc_admit_batch b;
    struct zbc_err err;
    int status;
    if (!zbc_admit_batch_decode(&b, zbc_chain_verify_pool(o->c), o->body,
                                o->len, &status, &err))
        die("batch decode", &err);
    zbc_chain_submit_batch(o->c, b.items, b.n, o->t_ms);
    json_t *arr = json_array();
    for (size_t i = 0; i < b.n; i++) {
        if (b.items[i].ok)
            die("an element admitted on a full pool", NULL);
        die_unless_full("ordinary refusal", b.items[i].err.msg);
        json_array_append_new(arr, zbc_admit_answer(&b.items[i], NULL, true,
                                                    &status));
    }
    char *text = json_dumps(arr, JSON_COMPACT);
    if (text == NULL)
        die("out of memory", NULL);
    free(text);
    json_decref(arr);
    zbc_admit_batch_free(&b);
}

/* What api.c's refused_whole does: the gate, one answer, its text. */
static void ovl_whole(void *arg)
{
    struct ovl *o = arg;
    struct zbc_admit_pool p;
    struct zbc_admit_refusal r;
    zbc_admit_pool_of(&p, o->c, o->t_ms, false);
    if (!zbc_admit_gate(&p, o->body, o->len, &r) || r.n_txs != OVL_BATCH)
        die("the gate let a full pool's batch through", NULL);
    die_unless_full("whole refusal", r.msg);
    json_t *j = zbc_admit_refusal_json(&p, &r);
    char *text = j != NULL ? json_dumps(j, JSON_COMPACT) : NULL;
    if (text == NULL)
        die("out of memory", NULL);
    free(text);
    json_decref(j);
}

/* A pool of pool_n SendZBC (its capacity) and a plain-form batch of 100
 * more at the same fee: the node's work per request the ordinary way
 * (every element refused with the fee) against the whole refusal. */
static void bench_overload(size_t pool_n, double min_us)
{
    struct txset txs;
    make_txs(&txs, pool_n + OVL_BATCH, 9000000);
    char dir[600];
    fresh_dir(dir, sizeof dir, "overload", 0);
    struct zbc_chain_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.ledger_dir = dir;
    cfg.genesis = &genesis;
    cfg.mempool_max_txs = pool_n;
    struct zbc_chain *c;
    struct zbc_err err;
    if (!zbc_chain_open(&c, &cfg, &err))
        die("chain", &err);
    uint64_t t_ms = GENESIS_MS + BLOCK_MS;
    struct zbc_submit *items = calloc(pool_n, sizeof *items);
    size_t cap = OVL_BATCH * (2 * 256 + 32) + 8;
    char *body = malloc(cap), *q = body;
    if (items == NULL || body == NULL)
        die("out of memory", NULL);
    for (size_t i = 0; i < pool_n; i++)
        items[i] = (struct zbc_submit){.raw = txs.refs[i].bytes,
                                       .len = txs.refs[i].len};
    for (size_t i = 0; i < pool_n; i += OVL_BATCH)
        zbc_chain_submit_batch(c, &items[i],
                               pool_n - i < OVL_BATCH ? pool_n - i : OVL_BATCH,
                               t_ms);
    if (zbc_chain_mempool_count(c) != pool_n)
        die("the pool did not fill", NULL);
    *q++ = '[';
    for (size_t i = 0; i < OVL_BATCH; i++) {
        const struct zbc_tx_ref *t = &txs.refs[pool_n + i];
        q += sprintf(q, "%s{\"transaction_bytes\":\"", i > 0 ? "," : "");
        zbc_hex_encode(q, t->bytes, t->len);
        q += 2 * t->len;
        q += sprintf(q, "\"}");
    }
    strcpy(q, "]");
    struct ovl o = {c, body, strlen(body), t_ms};
    double ord = time_loop(ovl_ordinary, &o, 4, min_us);
    double whole = time_loop(ovl_whole, &o, 16, min_us);
    if (zbc_chain_mempool_count(c) != pool_n)
        die("the pool changed", NULL);
    report("full pool: batch of 100, answered per element", ord);
    report("full pool: batch of 100, refused whole", whole);
    printf("%-44s %12.2f\n", "  ratio (per element / whole)", ord / whole);
    zbc_chain_close(c);
    rm_tree(dir);
    free(items);
    free(body);
    txset_free(&txs);
}

/* ---- gossip de-duplication ---- */

/* The former seen_has: a scan of the ring. */
static bool ring_has(uint8_t (*ring)[32], size_t n, const uint8_t h[32])
{
    for (size_t i = 0; i < n; i++)
        if (memcmp(ring[i], h, 32) == 0)
            return true;
    return false;
}

/* 8192 hashes held (the node's size); look-ups of held and absent hashes
 * in turn, the ring scan and zbc_seen_has over the same hashes. */
static void bench_seen(double min_us)
{
    enum { CAP = 8192, PROBES = 4096 };
    static uint8_t ring[CAP][32], probe[PROBES][32];
    struct zbc_seen *s = zbc_seen_new(CAP);
    if (s == NULL)
        die("seen set", NULL);
    for (uint32_t i = 0; i < CAP + PROBES / 2; i++) {
        uint8_t b[4];
        zbc_put_le32(b, i);
        uint8_t h[32];
        zbc_sha3_256(h, b, sizeof b);
        if (i < CAP)
            memcpy(ring[i], h, 32);
        zbc_seen_add(s, h);
        if (i >= CAP - PROBES / 2) /* half held (in both), half absent */
            memcpy(probe[i - (CAP - PROBES / 2)], h, 32);
    }
    /* the ring keeps the first CAP, the set the last CAP: align them */
    for (uint32_t i = 0; i < CAP; i++)
        zbc_seen_forget(s, ring[i]);
    for (uint32_t i = 0; i < CAP; i++)
        zbc_seen_add(s, ring[i]);
    double us[2];
    size_t hits[2];
    for (int way = 0; way < 2; way++) {
        size_t n = 0, hit = 0;
        double t0 = now_us(), t;
        do {
            for (size_t i = 0; i < PROBES; i++)
                hit += way == 0 ? ring_has(ring, CAP, probe[i])
                                : zbc_seen_has(s, probe[i]);
            n += PROBES;
            t = now_us();
        } while (t - t0 < min_us);
        us[way] = (t - t0) / (double)n;
        hits[way] = hit * PROBES / n;
    }
    if (hits[0] != hits[1] || hits[0] != PROBES / 2)
        die("seen set answers differ from the ring's", NULL);
    report("gossip seen look-up, ring scan of 8192", us[0]);
    report("gossip seen look-up, hash set of 8192", us[1]);
    printf("%-44s %12.2f\n", "  speed-up (scan / set)", us[0] / us[1]);
    zbc_seen_free(s);

    /* the node's steady state: a full set of 65536 (the node's
     * ZBC_P2P_SEEN_CACHE) where every new hash evicts the oldest */
    enum { BIG = 65536 };
    s = zbc_seen_new(BIG);
    if (s == NULL)
        die("seen set", NULL);
    uint32_t i = 0;
    for (; i < BIG; i++) {
        uint8_t b[4], h[32];
        zbc_put_le32(b, i);
        zbc_sha3_256(h, b, sizeof b);
        zbc_seen_add(s, h);
    }
    /* hashes made before the clock: only the set is timed */
    enum { CHURN = 1 << 14 };
    static uint8_t fresh[CHURN][32];
    size_t n = 0;
    double spent = 0;
    while (spent < min_us || n < CHURN) {
        for (uint32_t k = 0; k < CHURN; k++) {
            uint8_t b[4];
            zbc_put_le32(b, i++);
            zbc_sha3_256(fresh[k], b, sizeof b);
        }
        double t1 = now_us();
        for (uint32_t k = 0; k < CHURN; k++)
            zbc_seen_add(s, fresh[k]);
        spent += now_us() - t1;
        n += CHURN;
    }
    if (zbc_seen_count(s) != BIG || !zbc_seen_has(s, fresh[CHURN - 1]))
        die("seen set churn", NULL);
    report("gossip seen add evicting the oldest, 65536", spent / (double)n);
    /* look-ups in it: the last CHURN added (hits), as many absent */
    size_t hit = 0;
    n = 0;
    spent = 0;
    while (spent < min_us || n < CHURN) {
        double t1 = now_us();
        for (uint32_t k = 0; k < CHURN; k++)
            hit += zbc_seen_has(s, fresh[k]);
        spent += now_us() - t1;
        n += CHURN;
    }
    if (hit != n)
        die("seen set hits", NULL);
    report("gossip seen look-up (hit), set of 65536", spent / (double)n);
    zbc_seen_free(s);
}

/* ---- the replay's in-memory state (consensus/mem_kv.c) ---- */

/* The former mem_kv table: one array kept sorted, an insert moves the
 * tail (O(n) per insert, O(n^2) to build n keys). */
struct sorted_kv {
    size_t n, cap;
    struct {
        uint8_t key[ZBC_KV_KEY_MAX];
        uint8_t klen;
        size_t vlen;
        uint8_t *val;
    } *e;
};

static void sorted_put(struct sorted_kv *t, const uint8_t *key, size_t klen,
                       const uint8_t *val, size_t vlen)
{
    size_t lo = 0, hi = t->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = memcmp(t->e[mid].key, key, klen); /* keys of one length */
        if (c == 0) {
            memcpy(t->e[mid].val, val, vlen);
            return;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 16;
        t->e = realloc(t->e, t->cap * sizeof t->e[0]);
        if (t->e == NULL)
            die("out of memory", NULL);
    }
    memmove(&t->e[lo + 1], &t->e[lo], (t->n - lo) * sizeof t->e[0]);
    t->n++;
    memcpy(t->e[lo].key, key, klen);
    t->e[lo].klen = (uint8_t)klen;
    t->e[lo].vlen = vlen;
    t->e[lo].val = malloc(vlen);
    if (t->e[lo].val == NULL)
        die("out of memory", NULL);
    memcpy(t->e[lo].val, val, vlen);
}

static void sorted_free(struct sorted_kv *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->e[i].val);
    free(t->e);
}

static int walk_count(void *arg, const uint8_t *key, size_t klen,
                      const uint8_t *val, size_t vlen, struct zbc_err *err)
{
    (void)key, (void)klen, (void)val, (void)vlen, (void)err;
    (*(size_t *)arg)++;
    return 1;
}

/* One pass of n inserts into a new map (returned in *out); us per key. */
static double kv_insert_pass(uint8_t (*keys)[32], size_t n,
                             struct zbc_mem_kv **out)
{
    uint8_t rec[9] = {1};
    struct zbc_mem_kv *m = zbc_mem_kv_new();
    if (m == NULL)
        die("out of memory", NULL);
    struct zbc_kv kv = zbc_mem_kv(m);
    struct zbc_err err;
    double t0 = now_us();
    for (size_t i = 0; i < n; i++) {
        zbc_put_le64(rec + 1, i);
        if (!kv.ops->put(kv.ctx, ZBC_TABLE_ACCOUNTS, keys[i], 32, rec,
                         sizeof rec, &err))
            die("mem_kv put", &err);
    }
    *out = m;
    return (now_us() - t0) / (double)n;
}

/* One pass of n look-ups in another order than the inserts'. */
static double kv_lookup_pass(struct zbc_mem_kv *m, uint8_t (*keys)[32],
                             size_t n)
{
    struct zbc_kv kv = zbc_mem_kv(m);
    struct zbc_err err;
    size_t found_n = 0;
    double t0 = now_us();
    for (size_t k = 0; k < n; k++) {
        size_t i = (k * 7919) % n; /* a permutation: 7919 is prime */
        uint8_t v[16];
        size_t vlen;
        bool found;
        if (!kv.ops->get(kv.ctx, ZBC_TABLE_ACCOUNTS, keys[i], 32, v,
                         sizeof v, &vlen, &found, &err))
            die("mem_kv get", &err);
        found_n += found;
    }
    double us = (now_us() - t0) / (double)n;
    if (found_n != n)
        die("mem_kv lost keys", NULL);
    return us;
}

/* One ordered walk; us per key. */
static double kv_walk_pass(struct zbc_mem_kv *m, size_t n)
{
    struct zbc_kv kv = zbc_mem_kv(m);
    struct zbc_err err;
    size_t walked = 0;
    double t0 = now_us();
    if (!kv.ops->each(kv.ctx, ZBC_TABLE_ACCOUNTS, walk_count, &walked, &err))
        die("mem_kv walk", &err);
    double us = (now_us() - t0) / (double)n;
    if (walked != n)
        die("mem_kv walk missed keys", NULL);
    return us;
}

/* n keys like the replay's (32-byte hashes: tx hashes, addresses), a
 * 9-byte account record each: inserts into a new map, look-ups of every
 * key in another order, the first ordered walk after the inserts and one
 * more with nothing changed.  Each figure is the best of passes repeated
 * for at least min_us (a pass preempted on a loaded machine does not
 * count); the per-op cost against the 10,000-key figure shows O(1); at
 * 10,000 keys the former sorted array too. */
static void bench_mem_kv(double min_us)
{
    static const size_t sizes[] = {10000, 100000, 1000000};
    size_t n_sizes = quick ? 2 : 3;
    double ins0 = 0, get0 = 0;
    for (size_t si = 0; si < n_sizes; si++) {
        size_t n = sizes[si];
        uint8_t(*keys)[32] = malloc(n * 32);
        if (keys == NULL)
            die("out of memory", NULL);
        for (size_t i = 0; i < n; i++) {
            uint8_t b[8];
            zbc_put_le64(b, i);
            zbc_sha3_256(keys[i], b, sizeof b);
        }
        double ins = 1e30, get = 1e30, walk1 = 1e30, walk2 = 1e30;
        double t_end = now_us() + min_us;
        int passes = 0;
        do {
            struct zbc_mem_kv *m;
            double x = kv_insert_pass(keys, n, &m);
            ins = x < ins ? x : ins;
            x = kv_lookup_pass(m, keys, n);
            get = x < get ? x : get;
            x = kv_walk_pass(m, n);
            walk1 = x < walk1 ? x : walk1;
            x = kv_walk_pass(m, n);
            walk2 = x < walk2 ? x : walk2;
            zbc_mem_kv_free(m);
            passes++;
        } while (passes < 2 || now_us() < t_end);
        if (si == 0) {
            ins0 = ins;
            get0 = get;
        }
        char name[64];
        snprintf(name, sizeof name, "mem_kv insert, %zu keys", n);
        report(name, ins);
        snprintf(name, sizeof name, "mem_kv look-up, %zu keys", n);
        report(name, get);
        snprintf(name, sizeof name, "mem_kv first ordered walk, %zu keys", n);
        report(name, walk1);
        snprintf(name, sizeof name, "mem_kv next ordered walk, %zu keys", n);
        report(name, walk2);
        printf("%-44s %12.2f %12.2f\n",
               "  insert, look-up cost / at 10,000 keys", ins / ins0,
               get / get0);
        if (si == 0) {
            double sins = 1e30;
            t_end = now_us() + min_us;
            passes = 0;
            do {
                struct sorted_kv st = {0};
                double t0 = now_us();
                for (size_t i = 0; i < n; i++)
                    sorted_put(&st, keys[i], 32, keys[i], 9);
                double x = (now_us() - t0) / (double)n;
                sins = x < sins ? x : sins;
                sorted_free(&st);
                passes++;
            } while (passes < 2 || now_us() < t_end);
            report("former sorted array insert, 10000 keys", sins);
            printf("%-44s %12.2f\n", "  speed-up (sorted array / mem_kv)",
                   sins / ins);
        }
        free(keys);
    }
}

/* ---- logging ---- */

static void log_off_once(void *arg)
{
    (void)arg;
    zbc_log_ratelimited("bench:off", ZBC_LOG_CLIENT_PERIOD_MS, ZBC_LOG_DEBUG,
                        "tx admitted hash=%s mempool=%d", "00ff00ff", 1);
}

static void log_on_once(void *arg)
{
    (void)arg;
    zbc_log_info("tx admitted hash=%s mempool=%d", "00ff00ff", 1);
}

/* A per-transaction line at DEBUG with the node at INFO (what it costs
 * now) against the same line written to a log file (what the INFO line
 * cost each admitted transaction before). */
static void bench_log(double min_us)
{
    char path[600];
    snprintf(path, sizeof path, "%s/bench.log", tmp_root);
    struct zbc_err err;
    if (!zbc_log_open_file(path, &err))
        die("log file", &err);
    zbc_log_to_stderr(false);
    zbc_log_set_level(ZBC_LOG_INFO);
    double off = time_loop(log_off_once, NULL, 1024, min_us);
    double on = time_loop(log_on_once, NULL, 256, min_us / 4);
    zbc_log_close_file();
    zbc_log_to_stderr(true);
    report("log line below the level (rate-limited)", off);
    report("log line written to a file", on);
    printf("%-44s %12.0f\n", "  written / below the level", on / off);
}

int main(int argc, char **argv)
{
    const char *tmp = getenv("TMPDIR");
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            quick = true;
        } else if (strcmp(argv[i], "--tmp") == 0 && i + 1 < argc) {
            tmp = argv[++i];
        } else {
            fprintf(stderr, "usage: zbc-bench [--quick] [--tmp DIR]\n");
            return 2;
        }
    }
    snprintf(tmp_root, sizeof tmp_root, "%s/zbc-bench-%ld",
             tmp != NULL ? tmp : "/tmp", (long)getpid());
    if (mkdir(tmp_root, 0700) != 0) {
        fprintf(stderr, "zbc-bench: mkdir %s: %s\n", tmp_root,
                strerror(errno));
        return 1;
    }
    /* starts libsodium and the hash module before any thread */
    struct zbc_verify_pool *warm = zbc_verify_pool_new(1);
    if (warm == NULL)
        die("libsodium", NULL);
    zbc_verify_pool_free(warm);
    double min_us = quick ? 100000 : 400000;
    int reps = quick ? 2 : 5;

    make_genesis();
    printf("%-44s %12s %12s %10s\n", "operation", "us/op", "ops/s", "xbase");
    base_us = time_loop(sha3_once, NULL, 256, min_us);
    report("SHA3-256 of 1 KiB (baseline)", base_us);
    bench_hash_fetch(min_us);
    bench_signatures(min_us);

    struct txset txs;
    make_txs(&txs, BLOCK_TXS, 0);
    build_block(&txs);
    struct zbc_err err;
    if (!zbc_block_precheck(&checked, &genesis, &parent0, &block, block_ms,
                            &err))
        die("precheck", &err);
    bench_precheck(reps);
    bench_apply_mem(reps);
    bench_build(&txs, reps);
    bench_apply_lmdb(quick ? 1 : 3);
    bench_state_root(min_us);
    bench_mempool(quick ? 5000 : 20000);
    bench_gossip_admission(quick ? 1000 : 4000);
    bench_submit_batch(quick ? 2000 : 8000);
    bench_overload(quick ? 2000 : 8000, min_us);
    bench_seen(min_us);
    bench_mem_kv(min_us);
    bench_log(min_us);

    zbc_checked_block_free(&checked);
    zbc_block_free(&block);
    free(block_bytes);
    txset_free(&txs);
    rm_tree(tmp_root);
    zbc_genesis_free(&genesis);
    return 0;
}
