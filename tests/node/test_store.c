/* LMDB store: the kv ops, one-transaction-per-block atomicity, reopen,
 * map growth, schema and meta records. */
#include <lmdb.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "node/zbcd/log.h"
#include "node/zbcd/store.h"
#include "testlib.h"

static char tmpdir[64];

static void fresh_dir(void)
{
    strcpy(tmpdir, "/tmp/zbc_test_store_XXXXXX");
    if (mkdtemp(tmpdir) == NULL) {
        perror("mkdtemp");
        exit(2);
    }
}

static void remove_dir(void)
{
    char p[128];
    snprintf(p, sizeof p, "%s/data.mdb", tmpdir);
    unlink(p);
    snprintf(p, sizeof p, "%s/lock.mdb", tmpdir);
    unlink(p);
    rmdir(tmpdir);
}

static struct zbc_store *open_store(size_t initial, size_t step)
{
    struct zbc_store *s = NULL;
    struct zbc_err err = {{0}};
    struct zbc_store_options opt = {initial, step};
    if (!zbc_store_open(&s, tmpdir, &opt, &err)) {
        fprintf(stderr, "open: %s\n", err.msg);
        exit(2);
    }
    return s;
}

/* ---- a block-like write: state puts, block, index, undo, events ---- */

struct block_write {
    uint32_t height;
    uint8_t hash[32];
    const uint8_t *body;
    size_t body_len;
    bool fail_at_end; /* simulate an apply that fails after writing */
    int calls;
};

static int write_block_fn(struct zbc_store_txn *t, void *arg,
                          struct zbc_err *err)
{
    struct block_write *b = arg;
    b->calls++;
    struct zbc_kv kv;
    zbc_store_txn_kv(t, &kv);
    uint8_t key[4] = {'a', 'c', 'c', (uint8_t)b->height};
    uint8_t val[8] = {1, 2, 3, 4, 5, 6, 7, (uint8_t)b->height};
    uint8_t txh[8][32];
    memset(txh, 0xA0 + (int)b->height, sizeof txh);
    txh[7][0] = 0x07;
    if (!kv.ops->put(kv.ctx, ZBC_TABLE_ACCOUNTS, key, sizeof key, val,
                     sizeof val, err) ||
        !zbc_store_put_block(t, b->height, b->hash, b->body, b->body_len,
                             err) ||
        !zbc_store_put_block_txs(t, b->height, b->hash,
                                 (const uint8_t(*)[32])txh, 8, err) ||
        !zbc_store_put_undo(t, b->height, (const uint8_t *)"undo", 4, err) ||
        !zbc_store_put_events(t, b->height, (const uint8_t *)"ev", 2, err))
        return 0;
    if (b->fail_at_end)
        return zbc_fail(err, "apply failed on purpose");
    return 1;
}

/* Where block `height`'s transaction list has hash (*idx), or that it
 * has no list (*listed false). */
struct list_find {
    uint32_t height;
    uint8_t hash[32];
    bool listed, found;
    uint32_t idx;
};

static int list_find_fn(struct zbc_store_txn *t, void *arg,
                        struct zbc_err *err)
{
    struct list_find *f = arg;
    uint8_t *v = NULL;
    size_t len = 0;
    if (!zbc_store_txn_block_txs(t, f->height, &v, &len, &f->listed, err))
        return 0;
    free(v);
    return !f->listed || zbc_store_txn_block_tx_find(t, f->height, f->hash,
                                                     &f->idx, &f->found, err);
}

static int kv_ops_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    (void)arg;
    struct zbc_kv kv;
    zbc_store_txn_kv(t, &kv);
    const uint8_t k[] = {9, 9};
    uint8_t v[16];
    size_t vlen = 0;
    bool found = false;
    CHECK(kv.ops->get(kv.ctx, ZBC_TABLE_APPS, k, 2, v, sizeof v, &vlen,
                             &found, err) && !found);
    CHECK(kv.ops->put(kv.ctx, ZBC_TABLE_APPS, k, 2, (const uint8_t *)"hello",
                      5, err));
    CHECK(kv.ops->get(kv.ctx, ZBC_TABLE_APPS, k, 2, v, sizeof v, &vlen,
                             &found, err) && found);
    CHECK_EQ_INT(vlen, 5);
    CHECK_EQ_MEM(v, "hello", 5);
    /* the same key in another table is another entry */
    CHECK(kv.ops->get(kv.ctx, ZBC_TABLE_PENDING, k, 2, v, sizeof v,
                             &vlen, &found, err) && !found);
    /* a value larger than the caller's buffer is an error, not a cut */
    struct zbc_err e2 = {{0}};
    CHECK(!kv.ops->get(kv.ctx, ZBC_TABLE_APPS, k, 2, v, 3, &vlen, &found, &e2));
    CHECK(strstr(e2.msg, "more than the 3") != NULL);
    /* bad table, empty key, oversized key */
    e2.msg[0] = '\0';
    CHECK(!kv.ops->put(kv.ctx, ZBC_TABLE_COUNT, k, 2, v, 1, &e2));
    CHECK(strstr(e2.msg, "does not exist") != NULL);
    e2.msg[0] = '\0';
    CHECK(!kv.ops->put(kv.ctx, ZBC_TABLE_APPS, k, 0, v, 1, &e2));
    CHECK(strstr(e2.msg, "outside 1..64") != NULL);
    uint8_t big[ZBC_KV_KEY_MAX + 1] = {0};
    e2.msg[0] = '\0';
    CHECK(!kv.ops->get(kv.ctx, ZBC_TABLE_APPS, big, sizeof big, v,
                             sizeof v, &vlen, &found, &e2));
    CHECK(strstr(e2.msg, "outside 1..64") != NULL);
    e2.msg[0] = '\0';
    CHECK(!kv.ops->del(kv.ctx, ZBC_TABLE_APPS, big, sizeof big, &e2));
    static uint8_t huge[ZBC_KV_VAL_MAX + 1];
    e2.msg[0] = '\0';
    CHECK(!kv.ops->put(kv.ctx, ZBC_TABLE_APPS, k, 2, huge, sizeof huge, &e2));
    CHECK(strstr(e2.msg, "exceeds") != NULL);
    /* overwrite then delete; deleting an absent key is fine */
    CHECK(kv.ops->put(kv.ctx, ZBC_TABLE_APPS, k, 2, (const uint8_t *)"x", 1,
                      err));
    CHECK(kv.ops->get(kv.ctx, ZBC_TABLE_APPS, k, 2, v, sizeof v, &vlen,
                             &found, err) && found);
    CHECK_EQ_INT(vlen, 1);
    CHECK(kv.ops->del(kv.ctx, ZBC_TABLE_APPS, k, 2, err));
    CHECK(kv.ops->get(kv.ctx, ZBC_TABLE_APPS, k, 2, v, sizeof v, &vlen,
                             &found, err) && !found);
    CHECK(kv.ops->del(kv.ctx, ZBC_TABLE_APPS, k, 2, err));
    /* leave one entry for the read-only check */
    return kv.ops->put(kv.ctx, ZBC_TABLE_META, k, 2, (const uint8_t *)"m", 1,
                       err);
}

static int ro_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    (void)arg;
    struct zbc_kv kv;
    zbc_store_txn_kv(t, &kv);
    const uint8_t k[] = {9, 9};
    uint8_t v[4];
    size_t vlen = 0;
    bool found = false;
    CHECK(kv.ops->get(kv.ctx, ZBC_TABLE_META, k, 2, v, sizeof v, &vlen,
                             &found, err) && found);
    struct zbc_err e2 = {{0}};
    CHECK(!kv.ops->put(kv.ctx, ZBC_TABLE_META, k, 2, v, 1, &e2));
    CHECK(strstr(e2.msg, "ledger write to s_meta failed") != NULL);
    return 1;
}

static void test_kv_ops(void)
{
    fresh_dir();
    struct zbc_store *s = open_store(0, 0);
    struct zbc_err err = {{0}};
    CHECK(zbc_store_write(s, kv_ops_fn, NULL, &err));
    CHECK(zbc_store_read(s, ro_fn, NULL, &err));
    zbc_store_close(s);
    remove_dir();
}

static void test_block_atomic_and_reopen(void)
{
    bool found;
    fresh_dir();
    struct zbc_store *s = open_store(0, 0);
    struct zbc_err err = {{0}};
    struct zbc_store_meta m;
    CHECK(zbc_store_get_meta(s, &m, &err));
    CHECK(!m.has_genesis);
    CHECK(!m.has_tip);

    struct block_write b1 = {.height = 1, .body = (const uint8_t *)"block1",
                             .body_len = 6};
    memset(b1.hash, 0x11, 32);
    CHECK(zbc_store_write(s, write_block_fn, &b1, &err));
    CHECK_EQ_INT(b1.calls, 1);

    /* a block whose apply fails after writing leaves nothing at all */
    struct block_write b2 = {.height = 2, .body = (const uint8_t *)"block2",
                             .body_len = 6, .fail_at_end = true};
    memset(b2.hash, 0x22, 32);
    err.msg[0] = '\0';
    CHECK(!zbc_store_write(s, write_block_fn, &b2, &err));
    CHECK_EQ_STR(err.msg, "apply failed on purpose");

    uint8_t *bytes = NULL;
    size_t len = 0;
    CHECK(zbc_store_block(s, 2, &bytes, &len, &found, &err) && !found);
    CHECK(zbc_store_events(s, 2, &bytes, &len, &found, &err) && !found);
    struct list_find lf = {.height = 2};
    CHECK(zbc_store_read(s, list_find_fn, &lf, &err) && !lf.listed);
    CHECK(zbc_store_get_meta(s, &m, &err));
    CHECK(m.has_tip);
    CHECK_EQ_INT(m.tip_height, 1);
    CHECK_EQ_MEM(m.tip_hash, b1.hash, 32);

    /* genesis record */
    uint8_t g[32];
    memset(g, 0x6e, 32);
    CHECK(zbc_store_get_meta(s, &m, &err));
    CHECK(!m.has_genesis);
    zbc_store_close(s);

    /* reopen: block 1, its index, events and state survive */
    s = open_store(0, 0);
    CHECK(zbc_store_block(s, 1, &bytes, &len, &found, &err) && found);
    CHECK_EQ_INT(len, 6);
    CHECK_EQ_MEM(bytes, "block1", 6);
    free(bytes);
    CHECK(zbc_store_events(s, 1, &bytes, &len, &found, &err) && found);
    CHECK_EQ_INT(len, 2);
    free(bytes);
    lf = (struct list_find){.height = 1};
    memset(lf.hash, 0xA1, 32);
    lf.hash[0] = 0x07;
    CHECK(zbc_store_read(s, list_find_fn, &lf, &err) && lf.listed &&
          lf.found);
    CHECK_EQ_INT(lf.idx, 7);
    lf.hash[0] = 0x08; /* not in the list */
    CHECK(zbc_store_read(s, list_find_fn, &lf, &err) && lf.listed &&
          !lf.found);
    CHECK(zbc_store_get_meta(s, &m, &err));
    CHECK_EQ_INT(m.tip_height, 1);
    zbc_store_close(s);
    remove_dir();
}

struct genesis_write {
    uint8_t hash[32];
};

static int genesis_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct genesis_write *g = arg;
    return zbc_store_put_genesis(t, g->hash, err);
}

struct hash_lookup {
    uint8_t hash[32];
    uint32_t height;
    bool found;
};

static int hash_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct hash_lookup *l = arg;
    return zbc_store_txn_height_of(t, l->hash, &l->height, &l->found, err);
}

static void test_meta_and_hash_index(void)
{
    fresh_dir();
    struct zbc_store *s = open_store(0, 0);
    struct zbc_err err = {{0}};
    struct genesis_write g;
    memset(g.hash, 0x6e, 32);
    CHECK(zbc_store_write(s, genesis_fn, &g, &err));
    struct block_write b = {.height = 5, .body = (const uint8_t *)"b",
                            .body_len = 1};
    memset(b.hash, 0x55, 32);
    CHECK(zbc_store_write(s, write_block_fn, &b, &err));
    zbc_store_close(s);
    s = open_store(0, 0);
    struct zbc_store_meta m;
    CHECK(zbc_store_get_meta(s, &m, &err));
    CHECK(m.has_genesis);
    CHECK_EQ_MEM(m.genesis_hash, g.hash, 32);
    struct hash_lookup l;
    memset(l.hash, 0x55, 32);
    CHECK(zbc_store_read(s, hash_fn, &l, &err));
    CHECK(l.found);
    CHECK_EQ_INT(l.height, 5);
    memset(l.hash, 0x56, 32);
    CHECK(zbc_store_read(s, hash_fn, &l, &err));
    CHECK(!l.found);
    zbc_store_close(s);
    remove_dir();
}

/* One write far larger than the map: MAP_FULL, grow, run again. */
struct big_write {
    size_t count;
    int calls;
};

static int big_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct big_write *b = arg;
    b->calls++;
    struct zbc_kv kv;
    zbc_store_txn_kv(t, &kv);
    static uint8_t val[60000];
    for (size_t i = 0; i < b->count; i++) {
        uint8_t key[8];
        memcpy(key, &i, sizeof key);
        memset(val, (int)(i & 0xff), sizeof val);
        if (!kv.ops->put(kv.ctx, ZBC_TABLE_PENDING, key, sizeof key, val,
                         sizeof val, err))
            return 0;
    }
    return 1;
}

struct big_check {
    size_t count;
    size_t good;
};

static int big_check_fn(struct zbc_store_txn *t, void *arg,
                        struct zbc_err *err)
{
    struct big_check *c = arg;
    struct zbc_kv kv;
    zbc_store_txn_kv(t, &kv);
    static uint8_t val[ZBC_KV_VAL_MAX];
    for (size_t i = 0; i < c->count; i++) {
        uint8_t key[8];
        size_t vlen = 0;
        memcpy(key, &i, sizeof key);
        bool found = false;
        if (kv.ops->get(kv.ctx, ZBC_TABLE_PENDING, key, sizeof key, val,
                        sizeof val, &vlen, &found, err) && found &&
            vlen == 60000 && val[0] == (uint8_t)(i & 0xff) &&
            val[59999] == (uint8_t)(i & 0xff))
            c->good++;
    }
    return 1;
}

struct scan {
    size_t n;
    size_t bytes;
    size_t stop_after;
};

static int scan_fn(void *arg, const uint8_t *key, size_t klen,
                   const uint8_t *val, size_t vlen, struct zbc_err *err)
{
    struct scan *s = arg;
    (void)key;
    (void)val;
    s->n++;
    s->bytes += klen + vlen;
    if (s->stop_after != 0 && s->n == s->stop_after)
        return zbc_fail(err, "stopped by the visitor");
    return 1;
}

static int each_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    (void)arg;
    struct zbc_kv kv;
    zbc_store_txn_kv(t, &kv);
    for (uint8_t i = 1; i <= 3; i++) {
        uint8_t k[2] = {7, i};
        if (!kv.ops->put(kv.ctx, ZBC_TABLE_TXSEEN, k, 2, &i, 1, err))
            return 0;
    }
    struct scan s = {0};
    CHECK(kv.ops->each(kv.ctx, ZBC_TABLE_TXSEEN, scan_fn, &s, err));
    CHECK_EQ_INT(s.n, 3);
    CHECK_EQ_INT(s.bytes, 9);
    struct scan empty = {0};
    CHECK(kv.ops->each(kv.ctx, ZBC_TABLE_APPS, scan_fn, &empty, err));
    CHECK_EQ_INT(empty.n, 0);
    struct scan stop = {.stop_after = 2};
    struct zbc_err e2 = {{0}};
    CHECK(!kv.ops->each(kv.ctx, ZBC_TABLE_TXSEEN, scan_fn, &stop, &e2));
    CHECK_EQ_INT(stop.n, 2);
    CHECK_EQ_STR(e2.msg, "stopped by the visitor");
    e2.msg[0] = '\0';
    CHECK(!kv.ops->each(kv.ctx, ZBC_TABLE_COUNT, scan_fn, &s, &e2));
    CHECK(strstr(e2.msg, "does not exist") != NULL);
    return 1;
}

static void test_each(void)
{
    fresh_dir();
    struct zbc_store *s = open_store(0, 0);
    struct zbc_err err = {{0}};
    CHECK(zbc_store_write(s, each_fn, NULL, &err));
    zbc_store_close(s);
    remove_dir();
}

static void test_map_growth(void)
{
    fresh_dir();
    const size_t mib = (size_t)1 << 20;
    struct zbc_store *s = open_store(mib, mib);
    struct zbc_err err = {{0}};
    CHECK_EQ_INT(zbc_store_map_size(s), mib);
    /* ~3 MiB in one transaction into a 1 MiB map */
    struct big_write b = {.count = 50};
    CHECK(zbc_store_write(s, big_fn, &b, &err));
    CHECK(b.calls >= 2); /* it really hit MDB_MAP_FULL and ran again */
    CHECK(zbc_store_map_size(s) >= 3 * mib);
    size_t grown = zbc_store_map_size(s);
    zbc_store_close(s);

    /* reopened with the small default, it keeps the grown size and data */
    s = open_store(mib, mib);
    CHECK(zbc_store_map_size(s) >= grown);
    struct big_check c = {.count = 50};
    CHECK(zbc_store_read(s, big_check_fn, &c, &err));
    CHECK_EQ_INT(c.good, 50);
    zbc_store_close(s);
    remove_dir();
}

static void test_map_growth_limit(void)
{
    /* A write that can never fit: growth is bounded, clear error. */
    fresh_dir();
    const size_t mib = (size_t)1 << 20;
    struct zbc_store *s = open_store(mib, 64 * 1024);
    struct zbc_err err = {{0}};
    struct big_write b = {.count = 400}; /* ~24 MiB */
    CHECK(!zbc_store_write(s, big_fn, &b, &err));
    CHECK(strstr(err.msg, "does not fit after growing") != NULL);
    zbc_store_close(s);
    remove_dir();
}

static int undo_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    uint32_t *h = arg;
    return zbc_store_put_undo(t, *h, (const uint8_t *)"u", 1, err);
}

struct undo_probe {
    uint32_t height;
    bool found;
};

static int undo_probe_fn(struct zbc_store_txn *t, void *arg,
                         struct zbc_err *err)
{
    struct undo_probe *p = arg;
    uint8_t *bytes = NULL;
    size_t len = 0;
    int ok = zbc_store_txn_undo(t, p->height, &bytes, &len, &p->found, err);
    free(bytes);
    return ok;
}

static void test_undo_window(void)
{
    fresh_dir();
    struct zbc_store *s = open_store(0, 0);
    struct zbc_err err = {{0}};
    uint32_t heights[] = {1, 2, ZBC_STORE_UNDO_KEEP + 1,
                          ZBC_STORE_UNDO_KEEP + 2};
    for (size_t i = 0; i < 4; i++)
        CHECK(zbc_store_write(s, undo_fn, &heights[i], &err));
    struct undo_probe p = {.height = 1};
    CHECK(zbc_store_read(s, undo_probe_fn, &p, &err));
    CHECK(!p.found); /* pruned by KEEP+1 */
    p.height = 2;
    CHECK(zbc_store_read(s, undo_probe_fn, &p, &err));
    CHECK(!p.found); /* pruned by KEEP+2 */
    p.height = ZBC_STORE_UNDO_KEEP + 1;
    CHECK(zbc_store_read(s, undo_probe_fn, &p, &err));
    CHECK(p.found);
    zbc_store_close(s);
    remove_dir();
}

static void test_schema_mismatch(void)
{
    fresh_dir();
    struct zbc_store *s = open_store(0, 0);
    zbc_store_close(s);
    /* rewrite the schema record behind the store's back */
    MDB_env *env;
    MDB_txn *txn;
    MDB_dbi dbi;
    CHECK_EQ_INT(mdb_env_create(&env), 0);
    CHECK_EQ_INT(mdb_env_set_maxdbs(env, 16), 0);
    CHECK_EQ_INT(mdb_env_open(env, tmpdir, 0, 0600), 0);
    CHECK_EQ_INT(mdb_txn_begin(env, NULL, 0, &txn), 0);
    CHECK_EQ_INT(mdb_dbi_open(txn, "meta", 0, &dbi), 0);
    uint8_t nine[4] = {9, 0, 0, 0};
    MDB_val k = {6, "schema"}, v = {4, nine};
    CHECK_EQ_INT(mdb_put(txn, dbi, &k, &v, 0), 0);
    CHECK_EQ_INT(mdb_txn_commit(txn), 0);
    mdb_env_close(env);

    struct zbc_store *s2 = NULL;
    struct zbc_err err = {{0}};
    CHECK(!zbc_store_open(&s2, tmpdir, NULL, &err));
    CHECK_EQ_STR(err.msg, "ledger schema version is 9 but this zbcd reads "
                          "version 2");
    remove_dir();
}

static void test_open_missing_dir(void)
{
    struct zbc_store *s = NULL;
    struct zbc_err err = {{0}};
    CHECK(!zbc_store_open(&s, "/nonexistent/zbc/ledger", NULL, &err));
    CHECK(strstr(err.msg, "cannot open the ledger in /nonexistent/zbc/ledger")
          != NULL);
}

int main(void)
{
    zbc_log_to_stderr(false);
    TEST_RUN(test_kv_ops);
    TEST_RUN(test_block_atomic_and_reopen);
    TEST_RUN(test_meta_and_hash_index);
    TEST_RUN(test_each);
    TEST_RUN(test_map_growth);
    TEST_RUN(test_map_growth_limit);
    TEST_RUN(test_undo_window);
    TEST_RUN(test_schema_mismatch);
    TEST_RUN(test_open_missing_dir);
    return test_summary("node_store");
}
