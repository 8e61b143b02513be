/* The app tables' write-back (node/zbcd/appwb.h, docs/node.md §3): random
 * writes, blocks, plain writes, aborts, batches and redo records against
 * a model, through kill -9 (the next open replays the records) and clean
 * stops (everything written, no record left); a damaged record refused
 * with its height; and the chain: app creates in blocks, kill -9, a
 * reopen that rescans every table against the state root, and a reorg
 * that undoes held apps. */
#include <sys/wait.h>
#include <unistd.h>

#include "crypto/bytes.h"
#include "crypto/hash.h"
#include "node/zbcd/appwb.h"
#include "node/zbcd/log.h"
#include "node/zbcd/store.h"
#include "test_reorg_fixture.h"

/* ---- the store against a model ---- */

#define KEYS 48
#define VAL_MAX 40

static uint32_t rng_state = 777;
static uint32_t rnd(uint32_t n)
{
    rng_state = rng_state * 1103515245u + 12345u;
    return (rng_state >> 8) % n;
}

/* Key id: even ids in APPS (8 bytes), odd in APP_HISTORY (12); the first
 * byte spreads them over the slices. */
static enum zbc_table table_of(unsigned id)
{
    return id % 2 ? ZBC_TABLE_APP_HISTORY : ZBC_TABLE_APPS;
}

static size_t key_of(uint8_t k[12], unsigned id)
{
    memset(k, 0, 12);
    k[0] = (uint8_t)(id * 37u);
    k[1] = (uint8_t)id;
    k[7] = 0xA5;
    return table_of(id) == ZBC_TABLE_APPS ? 8 : 12;
}

struct model {
    bool present[KEYS];
    uint8_t val[KEYS][VAL_MAX];
    size_t len[KEYS];
};

/* One write transaction's plan, drawn before it runs. */
struct round {
    unsigned n_ops;
    unsigned id[8];
    bool del[8];
    uint8_t val[8][VAL_MAX];
    size_t len[8];
    int kind; /* 0 a block, 1 a plain write, 2 fails */
    uint32_t height;
};

static void draw(struct round *r, uint32_t *height)
{
    memset(r, 0, sizeof *r);
    r->n_ops = 1 + rnd(8);
    for (unsigned i = 0; i < r->n_ops; i++) {
        r->id[i] = rnd(KEYS);
        r->del[i] = rnd(5) == 0;
        r->len[i] = rnd(VAL_MAX + 1);
        for (size_t j = 0; j < r->len[i]; j++)
            r->val[i][j] = (uint8_t)rnd(256);
    }
    unsigned k = rnd(20);
    r->kind = k < 15 ? 0 : k < 18 ? 1 : 2;
    if (r->kind == 0)
        r->height = ++*height;
}

static void model_apply(struct model *m, const struct round *r)
{
    if (r->kind == 2)
        return;
    for (unsigned i = 0; i < r->n_ops; i++) {
        unsigned id = r->id[i];
        m->present[id] = !r->del[i];
        m->len[id] = r->del[i] ? 0 : r->len[i];
        memcpy(m->val[id], r->val[i], m->len[id]);
    }
}

static int round_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    const struct round *r = arg;
    struct zbc_kv kv;
    zbc_store_txn_kv(t, &kv);
    for (unsigned i = 0; i < r->n_ops; i++) {
        uint8_t k[12];
        size_t klen = key_of(k, r->id[i]);
        int ok = r->del[i] ? kv.ops->del(kv.ctx, table_of(r->id[i]), k, klen,
                                         err)
                           : kv.ops->put(kv.ctx, table_of(r->id[i]), k, klen,
                                         r->val[i], r->len[i], err);
        if (!ok)
            return 0;
    }
    if (r->kind == 2)
        return zbc_fail(err, "this write fails");
    return r->kind == 1 || zbc_store_txn_apps_flush(t, r->height, err);
}

struct check_ctx {
    const struct model *m;
    int bad;
    unsigned seen[KEYS];
    enum zbc_table t;
};

static int each_fn(void *arg, const uint8_t *key, size_t klen,
                   const uint8_t *val, size_t vlen, struct zbc_err *err)
{
    (void)err;
    struct check_ctx *c = arg;
    for (unsigned id = 0; id < KEYS; id++) {
        uint8_t k[12];
        if (table_of(id) != c->t || key_of(k, id) != klen ||
            memcmp(k, key, klen) != 0)
            continue;
        c->seen[id]++;
        if (!c->m->present[id] || c->m->len[id] != vlen ||
            (vlen > 0 && memcmp(c->m->val[id], val, vlen) != 0))
            c->bad++;
        return 1;
    }
    c->bad++; /* a key the test never wrote */
    return 1;
}

/* Every key read and both tables scanned equal the model. */
static int check_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct check_ctx *c = arg;
    struct zbc_kv kv;
    zbc_store_txn_kv(t, &kv);
    for (unsigned id = 0; id < KEYS; id++) {
        uint8_t k[12], v[VAL_MAX];
        size_t klen = key_of(k, id), vlen = 0;
        bool found;
        if (!kv.ops->get(kv.ctx, table_of(id), k, klen, v, sizeof v, &vlen,
                         &found, err))
            return 0;
        if (found != c->m->present[id] ||
            (found && (vlen != c->m->len[id] ||
                       (vlen > 0 && memcmp(v, c->m->val[id], vlen) != 0))))
            c->bad++;
    }
    c->t = ZBC_TABLE_APPS;
    if (!kv.ops->each(kv.ctx, ZBC_TABLE_APPS, each_fn, c, err))
        return 0;
    c->t = ZBC_TABLE_APP_HISTORY;
    if (!kv.ops->each(kv.ctx, ZBC_TABLE_APP_HISTORY, each_fn, c, err))
        return 0;
    for (unsigned id = 0; id < KEYS; id++)
        if (c->seen[id] != (c->m->present[id] ? 1u : 0u))
            c->bad++;
    return 1;
}

static int check_store(struct zbc_store *s, const struct model *m,
                       bool write)
{
    struct check_ctx c = {.m = m};
    struct zbc_err err = {{0}};
    struct zbc_store_txn *snap = zbc_store_snapshot(s); /* read-only */
    int ok = snap != NULL ? check_fn(snap, &c, &err)
             : write      ? zbc_store_write(s, check_fn, &c, &err)
                          : zbc_store_read(s, check_fn, &c, &err);
    if (!ok)
        fprintf(stderr, "check: %s\n", err.msg);
    return ok && c.bad == 0;
}

/* Keys whose table entry (under the set) differs from the model. */
struct raw_ctx {
    const struct model *m;
    unsigned differ;
};

static int raw_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct raw_ctx *r = arg;
    for (unsigned id = 0; id < KEYS; id++) {
        uint8_t k[12], *v = NULL;
        size_t klen = key_of(k, id), vlen = 0;
        bool found;
        if (!zbc_store_txn_get(t, table_of(id) == ZBC_TABLE_APPS
                                      ? ZBC_STORE_DB_S_APPS
                                      : ZBC_STORE_DB_S_APP_HISTORY,
                               k, klen, &v, &vlen, &found, err))
            return 0;
        if (found != r->m->present[id] ||
            (found && (vlen != r->m->len[id] ||
                       (vlen > 0 && memcmp(v, r->m->val[id], vlen) != 0))))
            r->differ++;
        free(v);
    }
    return 1;
}

static unsigned raw_differ(struct zbc_store *s, const struct model *m)
{
    struct raw_ctx r = {m, 0};
    struct zbc_err err = {{0}};
    CHECK(zbc_store_read(s, raw_fn, &r, &err));
    return r.differ;
}

static int count_one(void *arg, const uint8_t *key, size_t klen,
                     const uint8_t *val, size_t vlen, bool *stop,
                     struct zbc_err *err)
{
    (void)key, (void)klen, (void)val, (void)vlen, (void)stop, (void)err;
    (*(size_t *)arg)++;
    return 1;
}

static int count_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    static const uint8_t top[5] = {0xff, 0xff, 0xff, 0xff, 0xff};
    return zbc_store_txn_scan_back(t, ZBC_STORE_DB_APPS_REDO, NULL, 0, top,
                                   sizeof top, count_one, arg, err);
}

static size_t redo_records(struct zbc_store *s)
{
    size_t n = 0;
    struct zbc_err err = {{0}};
    CHECK(zbc_store_read(s, count_fn, &n, &err));
    return n;
}

#define EPOCHS 8
#define ROUNDS 120

/* Each epoch runs in a child that checks every round and ends by kill -9
 * (even epochs) or a clean close (odd); the parent draws the same rounds
 * into its model, reopens and checks what a restart sees. */
static void test_store_random(void)
{
    char dir[] = "/tmp/zbc_test_appwb_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    struct model m;
    memset(&m, 0, sizeof m);
    uint32_t height = 0;
    unsigned crash_held = 0;
    for (int epoch = 0; epoch < EPOCHS; epoch++) {
        fflush(NULL);
        pid_t pid = fork();
        CHECK(pid >= 0);
        if (pid == 0) {
            struct zbc_store *s;
            struct zbc_err err = {{0}};
            if (!zbc_store_open(&s, dir, NULL, &err))
                _exit(2);
            bool batch = false;
            for (int i = 0; i < ROUNDS; i++) {
                struct round r;
                draw(&r, &height);
                /* a sync's batch over some rounds */
                if (!batch && i % 40 == 10) {
                    if (!zbc_store_batch_begin(s, &err))
                        _exit(3);
                    batch = true;
                }
                int ok = zbc_store_write(s, round_fn, &r, &err);
                if (ok != (r.kind != 2))
                    _exit(4);
                model_apply(&m, &r);
                if (!check_store(s, &m, i % 2 == 0))
                    _exit(5);
                if (batch && i % 40 == 20) {
                    if (!zbc_store_batch_end(s, &err))
                        _exit(6);
                    batch = false;
                }
            }
            if (batch && !zbc_store_batch_end(s, &err))
                _exit(6);
            if (epoch % 2 == 1)
                zbc_store_close(s);
            _exit(0);
        }
        int status = 0;
        CHECK(waitpid(pid, &status, 0) == pid);
        CHECK(WIFEXITED(status));
        if (WEXITSTATUS(status) != 0)
            fprintf(stderr, "epoch %d: child status %d\n", epoch,
                    WEXITSTATUS(status));
        CHECK_EQ_INT(WEXITSTATUS(status), 0);
        for (int i = 0; i < ROUNDS; i++) { /* the child's rounds */
            struct round r;
            draw(&r, &height);
            model_apply(&m, &r);
        }
        struct zbc_store *ro;
        struct zbc_err err = {{0}};
        CHECK(zbc_store_open_readonly(&ro, dir, &err));
        CHECK(check_store(ro, &m, false));
        zbc_store_close(ro);
        struct zbc_store *s;
        CHECK(zbc_store_open(&s, dir, NULL, &err));
        CHECK(check_store(s, &m, false));
        if (epoch % 2 == 0) {
            /* killed: the tables lack what the records hold */
            crash_held += raw_differ(s, &m) > 0;
            CHECK(zbc_store_apps_held(s) > 0);
        } else {
            CHECK_EQ_INT(raw_differ(s, &m), 0);
            CHECK_EQ_INT(redo_records(s), 0);
        }
        zbc_store_close(s);
        CHECK(zbc_store_open(&s, dir, NULL, &err));
        CHECK_EQ_INT(raw_differ(s, &m), 0); /* a clean close wrote all */
        CHECK_EQ_INT(redo_records(s), 0);
        CHECK_EQ_INT(zbc_store_apps_held(s), 0);
        zbc_store_close(s);
    }
    CHECK(crash_held > 0);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
}

/* A damaged record stops the open with its height. */
struct put_raw {
    uint32_t height;
    const uint8_t *v;
    size_t len;
};

static int put_raw_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    const struct put_raw *p = arg;
    uint8_t k[4];
    zbc_put_be32(k, p->height);
    return zbc_store_txn_put(t, ZBC_STORE_DB_APPS_REDO, k, 4, p->v, p->len,
                             err);
}

static void test_bad_record(void)
{
    static const struct {
        uint8_t v[24];
        size_t len;
        const char *says;
    } bad[] = {
        {{1, 0}, 2, "shorter than its count"},
        {{1, 0, 0, 0, 4, 8}, 6, "table 4"},
        {{1, 0, 0, 0, 3, 8, 1, 2, 3, 4, 5, 6, 7, 8, 2}, 15, "presence byte 2"},
        {{1, 0, 0, 0, 3, 8, 1, 2, 3, 4, 5, 6, 7, 8, 1, 9, 0, 0, 0, 1}, 20,
         "value of 9 bytes"},
        {{0, 0, 0, 0, 7}, 5, "1 bytes after"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char dir[] = "/tmp/zbc_test_appwb_XXXXXX";
        CHECK(mkdtemp(dir) != NULL);
        struct zbc_store *s;
        struct zbc_err err = {{0}};
        CHECK(zbc_store_open(&s, dir, NULL, &err));
        struct put_raw p = {77, bad[i].v, bad[i].len};
        CHECK(zbc_store_write(s, put_raw_fn, &p, &err));
        zbc_store_close(s);
        memset(&err, 0, sizeof err);
        CHECK(!zbc_store_open(&s, dir, NULL, &err));
        CHECK(strstr(err.msg, "apps_redo record of height 77") != NULL);
        if (strstr(err.msg, bad[i].says) == NULL)
            fprintf(stderr, "case %zu: %s\n", i, err.msg);
        CHECK(strstr(err.msg, bad[i].says) != NULL);
        CHECK(!zbc_store_open_readonly(&s, dir, &err));
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        CHECK(system(cmd) == 0);
    }
}

/* More than ZBC_APPWB_HOLD_MAX entries held: the block writes them all,
 * and its record stays (a replay then holds what the tables have). */
struct many_ctx {
    uint32_t n;
};

static int many_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    const struct many_ctx *m = arg;
    struct zbc_kv kv;
    zbc_store_txn_kv(t, &kv);
    for (uint32_t i = 0; i < m->n; i++) {
        uint8_t k[8], v[4];
        zbc_put_le64(k, (uint64_t)i * 0x9E3779B97F4A7C15ull);
        zbc_put_le32(v, i);
        if (!kv.ops->put(kv.ctx, ZBC_TABLE_APPS, k, 8, v, 4, err))
            return 0;
    }
    return zbc_store_txn_apps_flush(t, 1, err);
}

static void test_hold_bound(void)
{
    char dir[] = "/tmp/zbc_test_appwb_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    struct zbc_store *s;
    struct zbc_err err = {{0}};
    CHECK(zbc_store_open(&s, dir, NULL, &err));
    struct many_ctx m = {ZBC_APPWB_HOLD_MAX / 2};
    CHECK(zbc_store_write(s, many_fn, &m, &err));
    size_t held = zbc_store_apps_held(s);
    CHECK(held > 0 && held < m.n); /* one slice of 32 written */
    m.n = ZBC_APPWB_HOLD_MAX + 1;
    CHECK(zbc_store_write(s, many_fn, &m, &err));
    CHECK_EQ_INT(zbc_store_apps_held(s), 0);
    CHECK_EQ_INT(redo_records(s), 1);
    zbc_store_close(s);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
}

/* ---- the chain ---- */

#define STAKE 1000

/* Alice opens a two-seat tic-tac-toe app (stake STAKE + k). */
static int create_app(struct zbc_chain *c, struct net *n, uint64_t k)
{
    uint8_t body[21], raw[512];
    memset(body, 0, sizeof body);
    body[0] = 1; /* tic-tac-toe */
    zbc_put_le64(body + 9, STAKE + k);
    body[17] = 2; /* seats */
    struct zbc_tx tx;
    memset(&tx, 0, sizeof tx);
    tx.type = ZBC_TX_APP_CREATE;
    tx.version = ZBC_TX_VERSION;
    tx.timestamp = (int64_t)(FX_GENESIS_TIME / 1000) + 1;
    zbc_addr_empty(&tx.recipient);
    tx.fee = FEE;
    tx.body = body;
    tx.body_len = 20; /* ... params_len u16 = 0, no opponent */
    size_t len = 0;
    struct zbc_err err = {{0}};
    if (!zbc_tx_sign_ed25519(raw, sizeof raw, &len, &tx, n->alice_seed,
                             n->g.hash, &err))
        return 0;
    uint8_t hash[32];
    bool dup;
    if (!zbc_chain_submit(c, raw, len, FX_GENESIS_TIME + 500, hash, &dup,
                          &err)) {
        fprintf(stderr, "submit: %s\n", err.msg);
        return 0;
    }
    return 1;
}

static struct zbc_chain *open_verified(struct net *n, const char *name,
                                       const struct zbc_node_key *key)
{
    struct zbc_chain_config cfg = {0};
    cfg.verify_state = true; /* every table rescanned against the root */
    return open_node_cfg(n, name, key, cfg);
}

#define BLOCKS ((int)ZBC_APPWB_SLICES + 8)

/* kill -9 after BLOCKS blocks of two app creates each: the reopen's full
 * rescan of every table equals the tip's state root. */
static void test_chain_crash(void)
{
    struct net n;
    net_setup(&n);
    uint8_t root[32];
    fflush(NULL);
    int fds[2];
    CHECK(pipe(fds) == 0);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        struct zbc_chain *a = open_node(&n, "a", &n.k1);
        int ok = 1;
        for (int k = 0; ok && k < BLOCKS; k++)
            ok = create_app(a, &n, 2 * (uint64_t)k) &&
                 create_app(a, &n, 2 * (uint64_t)k + 1) && produce(a, 0);
        ok = ok && zbc_store_apps_held(zbc_chain_store(a)) > 0;
        state_root(a, root);
        ok = ok && write(fds[1], root, 32) == 32;
        _exit(ok ? 0 : 1); /* no close */
    }
    close(fds[1]);
    int status = 0;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    CHECK(read(fds[0], root, 32) == 32);
    close(fds[0]);
    struct zbc_chain *a = open_verified(&n, "a", &n.k1);
    CHECK_EQ_INT(zbc_chain_tip(a)->height, BLOCKS);
    CHECK(zbc_store_apps_held(zbc_chain_store(a)) > 0);
    uint8_t got[32];
    state_root(a, got);
    CHECK_EQ_MEM(got, root, 32);
    /* more blocks on the replayed set, then a clean stop */
    for (int k = 0; k < 4; k++) {
        CHECK(create_app(a, &n, 1000 + (uint64_t)k));
        CHECK(produce(a, 0));
    }
    state_root(a, root);
    zbc_chain_close(a);
    a = open_verified(&n, "a", &n.k1);
    CHECK_EQ_INT(zbc_store_apps_held(zbc_chain_store(a)), 0);
    state_root(a, got);
    CHECK_EQ_MEM(got, root, 32);
    zbc_chain_close(a);
    net_teardown(&n);
}

/* A reorg undoes blocks whose app entries are held: the undo writes the
 * tables whole, the node ends on the winner's state root, and after a
 * kill -9 the reopen's full rescan equals it. */
static void test_reorg(void)
{
    struct net n;
    net_setup(&n);
    int fds[2];
    CHECK(pipe(fds) == 0);
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        struct zbc_chain *a = open_node(&n, "a", &n.k1);
        struct zbc_chain *b = open_node(&n, "b", &n.k2);
        struct zbc_chain *c = open_node(&n, "c", NULL);
        int ok = 1;
        for (int k = 0; ok && k < 2; k++)
            ok = create_app(b, &n, 10 + (uint64_t)k) && produce(b, 0);
        for (int k = 0; ok && k < 4; k++)
            ok = create_app(a, &n, 20 + (uint64_t)k) && produce(a, 0);
        ok = ok && give(c, b, 1, NULL) == ZBC_RECV_EXTENDED &&
             give(c, b, 2, NULL) == ZBC_RECV_EXTENDED &&
             zbc_store_apps_held(zbc_chain_store(c)) > 0;
        for (uint32_t h = 1; ok && h <= 4; h++)
            give(c, a, h, NULL);
        uint8_t ra[32], rc[32];
        state_root(a, ra);
        state_root(c, rc);
        ok = ok && memcmp(zbc_chain_tip(c)->hash, zbc_chain_tip(a)->hash,
                          32) == 0 &&
             memcmp(ra, rc, 32) == 0 && write(fds[1], ra, 32) == 32;
        _exit(ok ? 0 : 1); /* no close */
    }
    close(fds[1]);
    int status = 0;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    uint8_t ra[32], rc[32];
    CHECK(read(fds[0], ra, 32) == 32);
    close(fds[0]);
    struct zbc_chain *c = open_verified(&n, "c", NULL);
    CHECK_EQ_INT(zbc_chain_tip(c)->height, 4);
    state_root(c, rc);
    CHECK_EQ_MEM(rc, ra, 32);
    zbc_chain_close(c);
    net_teardown(&n);
}

int main(void)
{
    zbc_log_set_level(ZBC_LOG_ERROR);
    TEST_RUN(test_store_random);
    TEST_RUN(test_bad_record);
    TEST_RUN(test_hold_bound);
    TEST_RUN(test_chain_crash);
    TEST_RUN(test_reorg);
    return test_summary("node_appwb");
}
