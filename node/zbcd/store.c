#include "node/zbcd/store.h"

#include <errno.h>
#include <lmdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>

#include "crypto/bytes.h"
#include "node/zbcd/log.h"
#include "node/zbcd/appwb.h"
#include "node/zbcd/txseen.h"

static const char *const db_names[ZBC_STORE_DB_COUNT] = {
    "meta", "blocks", "block_hash", "tx_index", "undo", "events",
    "s_meta", "s_accounts", "s_txseen", "s_apps", "s_pending",
    "s_app_history", "votes", "acct_history", "s_crash", "app_index",
    "apps_redo", "block_txs",
};

/* Write attempts per block before giving up on growing the map. */
#define STORE_WRITE_ATTEMPTS 8

struct zbc_store_txn {
    struct zbc_store *s;
    MDB_txn *txn;
    bool map_full; /* an operation hit MDB_MAP_FULL: grow and retry */
    bool io_failed; /* an LMDB write failed (not the caller's logic) */
    bool rdonly; /* a read run on a batch's write transaction */
    bool put_block; /* zbc_store_put_block ran in it */
    /* TXSEEN write-back (node/zbcd/txseen.h): a write transaction, or a
     * read on a batch's, sees the pending entries; a batch's writes go to
     * the ledger at once */
    bool pending_view;
    bool in_batch;
};

struct zbc_store {
    MDB_env *env;
    MDB_dbi dbi[ZBC_STORE_DB_COUNT];
    bool has[ZBC_STORE_DB_COUNT]; /* false: absent, reads as empty */
    size_t map_size;
    size_t map_step;
    struct zbc_store_txn snap; /* read-only open: txn held until close */
    char write_failure[ZBC_ERR_MAX]; /* "" while writes succeed */
    /* zbc_store_batch_begin: the batch's write transaction (NULL: none
     * yet, or committed by a flush), the child of the write running inside
     * it (NULL: none), and whether a commit inside the batch failed (its
     * writes are lost) */
    MDB_txn *batch;
    MDB_txn *inner;
    bool batch_open;   /* begun, not ended */
    bool batch_paused; /* between two slices (zbc_store_batch_pause) */
    bool batch_lost;
    bool batch_blocks; /* a block was written in the batch */
    char batch_err[ZBC_ERR_MAX];
    struct zbc_txseen *seen; /* NULL for a read-only open */
    /* the app tables' write-back (node/zbcd/appwb.h), and the mark up to
     * which the open transaction's changes are in a redo record or the
     * tables */
    struct zbc_appwb *wb;
    size_t wb_recorded;
    uint32_t last_commit_us;
};

/* Free bytes under which LMDB's EIO (its code for a short write) is taken
 * for what it nearly always is: a full disk. */
#define STORE_DISK_LOW (1u << 20)

/* mdb_strerror, except that EIO on a disk with (almost) no free space is
 * named for what it is (docs/node.md "Disk full"). */
static const char *store_strerror(struct zbc_store *s, int rc, char *buf,
                                  size_t cap)
{
    const char *path = NULL;
    struct statvfs vfs;
    if (rc == EIO && mdb_env_get_path(s->env, &path) == 0 && path != NULL &&
        statvfs(path, &vfs) == 0 &&
        (unsigned long long)vfs.f_bavail * vfs.f_frsize < STORE_DISK_LOW) {
        snprintf(buf, cap, "No space left on device (%llu KiB free; LMDB "
                 "reported %s)",
                 (unsigned long long)vfs.f_bavail * vfs.f_frsize / 1024,
                 mdb_strerror(rc));
        return buf;
    }
    return mdb_strerror(rc);
}

const char *zbc_store_db_name(enum zbc_store_db db)
{
    return db < ZBC_STORE_DB_COUNT ? db_names[db] : "?";
}

int zbc_store_table_db(enum zbc_table t, enum zbc_store_db *db)
{
    switch (t) {
    case ZBC_TABLE_META:
        *db = ZBC_STORE_DB_S_META;
        return 1;
    case ZBC_TABLE_ACCOUNTS:
        *db = ZBC_STORE_DB_S_ACCOUNTS;
        return 1;
    case ZBC_TABLE_TXSEEN:
        *db = ZBC_STORE_DB_S_TXSEEN;
        return 1;
    case ZBC_TABLE_APPS:
        *db = ZBC_STORE_DB_S_APPS;
        return 1;
    case ZBC_TABLE_PENDING:
        *db = ZBC_STORE_DB_S_PENDING;
        return 1;
    case ZBC_TABLE_APP_HISTORY:
        *db = ZBC_STORE_DB_S_APP_HISTORY;
        return 1;
    case ZBC_TABLE_CRASH:
        *db = ZBC_STORE_DB_S_CRASH;
        return 1;
    case ZBC_TABLE_COUNT:
        return 0;
    }
    return 0;
}

void zbc_store_height_key(uint8_t out[4], uint32_t v)
{
    zbc_put_be32(out, v);
}

uint32_t zbc_store_le32(const uint8_t p[4])
{
    return zbc_get_le32(p);
}

/* ---- low-level get/put/del with error mapping ---- */

static int db_get(struct zbc_store_txn *t, enum zbc_store_db db, const void *k,
                  size_t klen, MDB_val *v, bool *found, struct zbc_err *err)
{
    *found = false;
    if (!t->s->has[db])
        return 1;
    MDB_val key = {klen, (void *)k};
    int rc = mdb_get(t->txn, t->s->dbi[db], &key, v);
    if (rc == 0) {
        *found = true;
        return 1;
    }
    if (rc == MDB_NOTFOUND)
        return 1;
    return zbc_fail(err, "ledger read from %s failed: %s", db_names[db],
                    mdb_strerror(rc));
}

/* A write (put, delete, clear) that LMDB refused with rc: marks the
 * transaction for a map growth or as an I/O failure. */
static int write_failed(struct zbc_store_txn *t, enum zbc_store_db db,
                        const char *what, int rc, struct zbc_err *err)
{
    char buf[160];
    if (rc == MDB_MAP_FULL)
        t->map_full = true;
    t->io_failed = true;
    return zbc_fail(err, "ledger %s %s failed: %s", what, db_names[db],
                    store_strerror(t->s, rc, buf, sizeof buf));
}

/* A read inside a batch runs on the batch's write transaction: writing
 * there is refused as LMDB refuses it in a read transaction. */
static int refuse_rdonly(enum zbc_store_db db, struct zbc_err *err)
{
    return zbc_fail(err, "ledger write to %s inside a read", db_names[db]);
}

static int db_put(struct zbc_store_txn *t, enum zbc_store_db db, const void *k,
                  size_t klen, const void *v, size_t vlen, struct zbc_err *err)
{
    if (t->rdonly)
        return refuse_rdonly(db, err);
    MDB_val key = {klen, (void *)k};
    MDB_val val = {vlen, (void *)v};
    int rc = mdb_put(t->txn, t->s->dbi[db], &key, &val, 0);
    return rc == 0 ? 1 : write_failed(t, db, "write to", rc, err);
}

static int db_del(struct zbc_store_txn *t, enum zbc_store_db db, const void *k,
                  size_t klen, struct zbc_err *err)
{
    if (t->rdonly)
        return refuse_rdonly(db, err);
    MDB_val key = {klen, (void *)k};
    int rc = mdb_del(t->txn, t->s->dbi[db], &key, NULL);
    if (rc == 0 || rc == MDB_NOTFOUND)
        return 1;
    return write_failed(t, db, "delete from", rc, err);
}

static int db_get_copy(struct zbc_store_txn *t, enum zbc_store_db db,
                       const void *k, size_t klen, uint8_t **bytes,
                       size_t *len, bool *found, struct zbc_err *err)
{
    MDB_val v;
    if (!db_get(t, db, k, klen, &v, found, err))
        return 0;
    if (!*found)
        return 1;
    uint8_t *copy = malloc(v.mv_size > 0 ? v.mv_size : 1);
    if (copy == NULL) {
        *found = false;
        return zbc_fail(err, "out of memory reading %zu bytes from %s",
                        v.mv_size, db_names[db]);
    }
    memcpy(copy, v.mv_data, v.mv_size);
    *bytes = copy;
    *len = v.mv_size;
    return 1;
}

static int wb_replay(struct zbc_store *s, MDB_txn *txn, struct zbc_err *err);

/* ---- the consensus kv interface ---- */

static int kv_check(enum zbc_table table, size_t klen, enum zbc_store_db *db,
                    struct zbc_err *err)
{
    if (!zbc_store_table_db(table, db))
        return zbc_fail(err, "state table %d does not exist", (int)table);
    if (klen == 0 || klen > ZBC_KV_KEY_MAX)
        return zbc_fail(err, "state key length %zu is outside 1..%d", klen,
                        ZBC_KV_KEY_MAX);
    return 1;
}

static int kv_get(void *ctx, enum zbc_table table, const uint8_t *key,
                  size_t klen, uint8_t *val, size_t cap, size_t *vlen,
                  bool *found, struct zbc_err *err)
{
    struct zbc_store_txn *t = ctx;
    enum zbc_store_db db = ZBC_STORE_DB_COUNT;
    *found = false;
    if (!kv_check(table, klen, &db, err))
        return 0;
    if (table == ZBC_TABLE_TXSEEN && klen == 32 && t->s->seen != NULL) {
        bool known, present;
        uint32_t h;
        zbc_txseen_get(t->s->seen, key, t->pending_view, &known, &present,
                       &h);
        if (known) {
            if (present && cap < 4)
                return zbc_fail(err, "state value in %s is 4 bytes, more "
                                "than the %zu the caller can hold",
                                db_names[db], cap);
            if (present) {
                zbc_put_le32(val, h);
                *vlen = 4;
            }
            *found = present;
            return 1;
        }
    }
    if (t->s->wb != NULL && zbc_appwb_holds(table, klen)) {
        bool known, present;
        const uint8_t *hv;
        size_t hlen;
        zbc_appwb_get(t->s->wb, table, key, klen, t->pending_view, &known,
                      &present, &hv, &hlen);
        if (known) {
            if (present && hlen > cap)
                return zbc_fail(err, "state value in %s is %zu bytes, more "
                                "than the %zu the caller can hold",
                                db_names[db], hlen, cap);
            if (present) {
                if (hlen > 0)
                    memcpy(val, hv, hlen);
                *vlen = hlen;
            }
            *found = present;
            return 1;
        }
    }
    MDB_val v;
    bool there;
    if (!db_get(t, db, key, klen, &v, &there, err))
        return 0;
    if (!there)
        return 1;
    if (v.mv_size > cap)
        return zbc_fail(err, "state value in %s is %zu bytes, more than the "
                             "%zu the caller can hold", db_names[db],
                        v.mv_size, cap);
    memcpy(val, v.mv_data, v.mv_size);
    *vlen = v.mv_size;
    *found = true;
    return 1;
}

static int kv_put(void *ctx, enum zbc_table table, const uint8_t *key,
                  size_t klen, const uint8_t *val, size_t vlen,
                  struct zbc_err *err)
{
    struct zbc_store_txn *t = ctx;
    enum zbc_store_db db = ZBC_STORE_DB_COUNT;
    if (!kv_check(table, klen, &db, err))
        return 0;
    if (vlen > ZBC_KV_VAL_MAX)
        return zbc_fail(err, "state value of %zu bytes exceeds %d", vlen,
                        ZBC_KV_VAL_MAX);
    if (table == ZBC_TABLE_TXSEEN && klen == 32 && vlen == 4 &&
        t->s->seen != NULL && !t->rdonly) {
        if (!t->in_batch)
            return zbc_txseen_put(t->s->seen, key, zbc_get_le32(val), err);
        /* a batch shares one commit: straight to the ledger */
        return db_put(t, db, key, klen, val, vlen, err) &&
               zbc_txseen_put_written(t->s->seen, key, zbc_get_le32(val),
                                      err);
    }
    if (t->s->wb != NULL && zbc_appwb_holds(table, klen)) {
        if (t->rdonly)
            return refuse_rdonly(db, err);
        return zbc_appwb_put(t->s->wb, table, key, klen, val, vlen, err);
    }
    return db_put(t, db, key, klen, val, vlen, err);
}

static int kv_del(void *ctx, enum zbc_table table, const uint8_t *key,
                  size_t klen, struct zbc_err *err)
{
    struct zbc_store_txn *t = ctx;
    enum zbc_store_db db = ZBC_STORE_DB_COUNT;
    if (!kv_check(table, klen, &db, err))
        return 0;
    if (table == ZBC_TABLE_TXSEEN && klen == 32 && t->s->seen != NULL &&
        !t->rdonly && !zbc_txseen_del(t->s->seen, key, err))
        return 0;
    if (t->s->wb != NULL && zbc_appwb_holds(table, klen)) {
        if (t->rdonly)
            return refuse_rdonly(db, err);
        return zbc_appwb_del(t->s->wb, table, key, klen, err);
    }
    return db_del(t, db, key, klen, err);
}

/* A cursor over db for a scan; *cur stays NULL when the ledger lacks db
 * (a read-only open of an older ledger: it reads as empty). */
static int scan_cursor(struct zbc_store_txn *t, enum zbc_store_db db,
                       MDB_cursor **cur, struct zbc_err *err)
{
    *cur = NULL;
    if (!t->s->has[db])
        return 1;
    int rc = mdb_cursor_open(t->txn, t->s->dbi[db], cur);
    if (rc != 0) {
        *cur = NULL;
        return zbc_fail(err, "cannot scan %s: %s", db_names[db],
                        mdb_strerror(rc));
    }
    return 1;
}

/* An entry a write-back set holds for a scanned table. */
struct held_item {
    uint8_t key[32];
    size_t klen;
    bool present;
    const uint8_t *val; /* into the set, or small */
    size_t vlen;
    uint8_t small[4];
};

/* A held item against a ledger key, in LMDB's order (memcmp, then the
 * shorter first). */
static int held_cmp(const struct held_item *it, const void *key, size_t klen)
{
    size_t m = it->klen < klen ? it->klen : klen;
    int c = memcmp(it->key, key, m);
    if (c != 0)
        return c;
    return it->klen < klen ? -1 : it->klen > klen;
}

/* What the write-back sets hold of table in t's view, in key order
 * (*items malloc'd; *wb_items too, which the app items point into). */
static int held_items(struct zbc_store_txn *t, enum zbc_table table,
                      struct held_item **items, size_t *n,
                      struct zbc_appwb_item **wb_items, struct zbc_err *err)
{
    *items = NULL;
    *n = 0;
    *wb_items = NULL;
    if (table == ZBC_TABLE_TXSEEN && t->s->seen != NULL) {
        uint8_t(*hashes)[32];
        uint32_t *heights;
        bool *present;
        size_t k;
        if (!zbc_txseen_view(t->s->seen, t->pending_view, &hashes, &heights,
                             &present, &k, err))
            return 0;
        struct held_item *v = calloc(k ? k : 1, sizeof *v);
        if (v != NULL)
            for (size_t i = 0; i < k; i++) {
                memcpy(v[i].key, hashes[i], 32);
                v[i].klen = 32;
                v[i].present = present[i];
                zbc_put_le32(v[i].small, heights[i]);
                v[i].val = v[i].small;
                v[i].vlen = 4;
            }
        free(hashes);
        free(heights);
        free(present);
        if (v == NULL)
            return zbc_fail(err, "out of memory scanning TXSEEN");
        *items = v;
        *n = k;
        return 1;
    }
    if ((table != ZBC_TABLE_APPS && table != ZBC_TABLE_APP_HISTORY) ||
        t->s->wb == NULL)
        return 1;
    struct zbc_appwb_item *w;
    size_t k;
    if (!zbc_appwb_items(t->s->wb, ZBC_APPWB_TABLE, (unsigned)table,
                         t->pending_view, &w, &k, err))
        return 0;
    struct held_item *v = calloc(k ? k : 1, sizeof *v);
    if (v == NULL) {
        free(w);
        return zbc_fail(err, "out of memory scanning %s",
                        table == ZBC_TABLE_APPS ? "APPS" : "APP_HISTORY");
    }
    for (size_t i = 0; i < k; i++) {
        memcpy(v[i].key, w[i].key, w[i].klen);
        v[i].klen = w[i].klen;
        v[i].present = w[i].present;
        v[i].val = w[i].val;
        v[i].vlen = w[i].vlen;
    }
    *items = v;
    *n = k;
    *wb_items = w;
    return 1;
}

/* A scan of a state table: the ledger's entries merged, in key order,
 * with what the write-back sets hold (a held view replaces the
 * ledger's). */
static int kv_each(void *ctx, enum zbc_table table,
                   int (*fn)(void *arg, const uint8_t *key, size_t klen,
                             const uint8_t *val, size_t vlen,
                             struct zbc_err *err),
                   void *arg, struct zbc_err *err)
{
    struct zbc_store_txn *t = ctx;
    enum zbc_store_db db = ZBC_STORE_DB_COUNT;
    if (!zbc_store_table_db(table, &db))
        return zbc_fail(err, "state table %d does not exist", (int)table);
    MDB_cursor *cur = NULL;
    int rc = MDB_NOTFOUND;
    if (!scan_cursor(t, db, &cur, err))
        return 0;
    struct held_item *held;
    struct zbc_appwb_item *wb_items;
    size_t n_held, h = 0;
    if (!held_items(t, table, &held, &n_held, &wb_items, err)) {
        if (cur != NULL)
            mdb_cursor_close(cur);
        return 0;
    }
    MDB_val k, v;
    int ok = 1;
    if (cur != NULL)
        rc = mdb_cursor_get(cur, &k, &v, MDB_FIRST);
    for (; ok && rc == 0; rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
        int c = 1;
        while (ok && h < n_held &&
               (c = held_cmp(&held[h], k.mv_data, k.mv_size)) < 0) {
            if (held[h].present)
                ok = fn(arg, held[h].key, held[h].klen, held[h].val,
                        held[h].vlen, err);
            h++;
        }
        if (!ok)
            break;
        if (h < n_held && c == 0) {
            if (held[h].present)
                ok = fn(arg, held[h].key, held[h].klen, held[h].val,
                        held[h].vlen, err);
            h++;
        } else {
            ok = fn(arg, k.mv_data, k.mv_size, v.mv_data, v.mv_size, err);
        }
    }
    if (ok && rc != 0 && rc != MDB_NOTFOUND)
        ok = zbc_fail(err, "scan of %s failed: %s", db_names[db],
                      mdb_strerror(rc));
    for (; ok && h < n_held; h++)
        if (held[h].present)
            ok = fn(arg, held[h].key, held[h].klen, held[h].val, held[h].vlen,
                    err);
    free(held);
    free(wb_items);
    if (cur != NULL)
        mdb_cursor_close(cur);
    return ok;
}

static const struct zbc_kv_ops store_kv_ops = {
    .get = kv_get,
    .put = kv_put,
    .del = kv_del,
    .each = kv_each,
};

void zbc_store_txn_kv(struct zbc_store_txn *t, struct zbc_kv *kv)
{
    kv->ops = &store_kv_ops;
    kv->ctx = t;
}

/* ---- open / close ---- */

static int store_fail_lmdb(struct zbc_err *err, const char *what, int rc)
{
    return zbc_fail(err, "%s: %s", what, mdb_strerror(rc));
}

static int check_schema(struct zbc_store_txn *t, struct zbc_err *err)
{
    MDB_val v;
    bool found;
    if (!db_get(t, ZBC_STORE_DB_META, "schema", 6, &v, &found, err))
        return 0;
    if (!found) {
        uint8_t b[4];
        zbc_put_le32(b, ZBC_STORE_SCHEMA);
        return db_put(t, ZBC_STORE_DB_META, "schema", 6, b, 4, err);
    }
    if (v.mv_size != 4)
        return zbc_fail(err, "ledger schema record is %zu bytes, not 4",
                        v.mv_size);
    uint32_t schema = zbc_get_le32(v.mv_data);
    if (schema != ZBC_STORE_SCHEMA)
        return zbc_fail(err, "ledger schema version is %u but this zbcd "
                        "reads version %u", schema, ZBC_STORE_SCHEMA);
    return 1;
}

/* The data file must hold every page up to the last one its meta page
 * names.  A shorter file (truncated by a full disk, a bad copy or an
 * operator) would be mapped as it is, and the first read of a missing page
 * would kill the process with SIGBUS instead of an error. */
int zbc_store_check_data_file(MDB_env *env, const char *dir, struct zbc_err *err)
{
    MDB_envinfo info;
    MDB_stat st;
    mdb_filehandle_t fd;
    int rc;
    if ((rc = mdb_env_info(env, &info)) != 0 ||
        (rc = mdb_env_stat(env, &st)) != 0 ||
        (rc = mdb_env_get_fd(env, &fd)) != 0)
        return store_fail_lmdb(err, "cannot inspect the ledger", rc);
    struct stat fs;
    if (fstat(fd, &fs) != 0)
        return zbc_fail(err, "cannot stat %s/data.mdb: %s", dir,
                        strerror(errno));
    unsigned long long need =
        ((unsigned long long)info.me_last_pgno + 1) * st.ms_psize;
    if ((unsigned long long)fs.st_size < need)
        return zbc_fail(err, "ledger file %s/data.mdb is truncated: %lld "
                        "bytes, but its last page ends at byte %llu (restore "
                        "the data directory or start a fresh one and sync)",
                        dir, (long long)fs.st_size, need);
    return 1;
}

int zbc_store_open(struct zbc_store **out, const char *dir,
                   const struct zbc_store_options *opt, struct zbc_err *err)
{
    struct zbc_store *s = calloc(1, sizeof *s);
    if (s == NULL)
        return zbc_fail(err, "out of memory opening the ledger");
    s->map_size = opt != NULL && opt->map_initial != 0 ? opt->map_initial
                                                       : ZBC_STORE_MAP_INITIAL;
    s->map_step = opt != NULL && opt->map_step != 0 ? opt->map_step
                                                    : ZBC_STORE_MAP_STEP;
    int rc = mdb_env_create(&s->env);
    if (rc != 0) {
        free(s);
        return store_fail_lmdb(err, "cannot create the LMDB environment", rc);
    }
    if ((rc = mdb_env_set_maxdbs(s->env, ZBC_STORE_DB_COUNT)) != 0) {
        mdb_env_close(s->env);
        free(s);
        return store_fail_lmdb(err, "cannot configure the LMDB environment",
                               rc);
    }
    rc = mdb_env_open(s->env, dir, MDB_NOTLS, 0600);
    if (rc != 0) {
        mdb_env_close(s->env);
        free(s);
        return zbc_fail(err, "cannot open the ledger in %s: %s", dir,
                        mdb_strerror(rc));
    }
    if (!zbc_store_check_data_file(s->env, dir, err)) {
        mdb_env_close(s->env);
        free(s);
        return 0;
    }
    /* Opened without a configured size, LMDB adopts the size recorded in
     * the file, so a ledger that grew in an earlier run keeps its size;
     * a fresh or smaller one is raised to the initial size. */
    MDB_envinfo info;
    rc = mdb_env_info(s->env, &info);
    if (rc == 0 && info.me_mapsize < s->map_size)
        rc = mdb_env_set_mapsize(s->env, s->map_size);
    else if (rc == 0)
        s->map_size = info.me_mapsize;
    if (rc != 0) {
        mdb_env_close(s->env);
        free(s);
        return store_fail_lmdb(err, "cannot size the ledger map", rc);
    }
    int dead = 0;
    rc = mdb_reader_check(s->env, &dead);
    if (rc != 0) {
        mdb_env_close(s->env);
        free(s);
        return store_fail_lmdb(err, "ledger reader check failed", rc);
    }
    if (dead > 0)
        zbc_log_warn("ledger: cleared %d stale reader slot(s) of dead "
                     "processes", dead);

    struct zbc_store_txn t = {.s = s};
    rc = mdb_txn_begin(s->env, NULL, 0, &t.txn);
    if (rc != 0) {
        mdb_env_close(s->env);
        free(s);
        return store_fail_lmdb(err, "cannot begin the ledger open transaction",
                               rc);
    }
    for (int i = 0; i < ZBC_STORE_DB_COUNT; i++) {
        rc = mdb_dbi_open(t.txn, db_names[i], MDB_CREATE, &s->dbi[i]);
        s->has[i] = rc == 0;
        if (rc != 0) {
            mdb_txn_abort(t.txn);
            mdb_env_close(s->env);
            free(s);
            return zbc_fail(err, "cannot open ledger database %s: %s",
                            db_names[i], mdb_strerror(rc));
        }
    }
    if (!check_schema(&t, err)) {
        mdb_txn_abort(t.txn);
        mdb_env_close(s->env);
        free(s);
        return 0;
    }
    rc = mdb_txn_commit(t.txn);
    if (rc != 0) {
        mdb_env_close(s->env);
        free(s);
        return store_fail_lmdb(err, "cannot commit the ledger open transaction",
                               rc);
    }
    s->seen = zbc_txseen_new();
    s->wb = zbc_appwb_new();
    if (s->seen == NULL || s->wb == NULL) {
        zbc_txseen_free(s->seen);
        zbc_appwb_free(s->wb);
        mdb_env_close(s->env);
        free(s);
        return zbc_fail(err, "out of memory opening the ledger");
    }
    /* the app entries the tables lack after a crash */
    MDB_txn *rt = NULL;
    rc = mdb_txn_begin(s->env, NULL, MDB_RDONLY, &rt);
    int ok = rc == 0 ? wb_replay(s, rt, err)
                     : store_fail_lmdb(err, "cannot begin a ledger read", rc);
    if (rt != NULL)
        mdb_txn_abort(rt);
    if (!ok) {
        zbc_txseen_free(s->seen);
        zbc_appwb_free(s->wb);
        mdb_env_close(s->env);
        free(s);
        return 0;
    }
    *out = s;
    return 1;
}

int zbc_store_open_readonly(struct zbc_store **out, const char *dir,
                            struct zbc_err *err)
{
    struct zbc_store *s = calloc(1, sizeof *s);
    if (s == NULL)
        return zbc_fail(err, "out of memory opening the ledger");
    s->snap.s = s;
    int rc = mdb_env_create(&s->env);
    if (rc == 0)
        rc = mdb_env_set_maxdbs(s->env, ZBC_STORE_DB_COUNT);
    if (rc == 0)
        rc = mdb_env_open(s->env, dir, MDB_RDONLY | MDB_NOTLS, 0600);
    if (rc != 0) {
        zbc_store_close(s);
        return zbc_fail(err, "cannot open the ledger in %s read-only: %s",
                        dir, mdb_strerror(rc));
    }
    if (!zbc_store_check_data_file(s->env, dir, err)) {
        zbc_store_close(s);
        return 0;
    }
    rc = mdb_txn_begin(s->env, NULL, MDB_RDONLY, &s->snap.txn);
    if (rc != 0) {
        zbc_store_close(s);
        return zbc_fail(err, "cannot begin a read transaction on %s: %s",
                        dir, mdb_strerror(rc));
    }
    for (int i = 0; i < ZBC_STORE_DB_COUNT; i++) {
        rc = mdb_dbi_open(s->snap.txn, db_names[i], 0, &s->dbi[i]);
        s->has[i] = rc == 0;
        if (rc != 0 && rc != MDB_NOTFOUND) {
            zbc_store_close(s);
            return zbc_fail(err, "cannot open ledger database %s: %s",
                            db_names[i], mdb_strerror(rc));
        }
    }
    if (!s->has[ZBC_STORE_DB_META] || !s->has[ZBC_STORE_DB_BLOCKS]) {
        zbc_store_close(s);
        return zbc_fail(err, "%s is not a zbcd ledger (no meta or blocks "
                        "database)", dir);
    }
    /* the app entries of the last blocks the tables may not have yet */
    if ((s->wb = zbc_appwb_new()) == NULL) {
        zbc_store_close(s);
        return zbc_fail(err, "out of memory opening the ledger");
    }
    if (!wb_replay(s, s->snap.txn, err)) {
        zbc_store_close(s);
        return 0;
    }
    *out = s;
    return 1;
}

struct zbc_store_txn *zbc_store_snapshot(struct zbc_store *s)
{
    return s->snap.txn != NULL ? &s->snap : NULL;
}

static int flush_all_fn(struct zbc_store_txn *t, void *arg,
                        struct zbc_err *err);
struct held_mark;
static void held_rollback(struct zbc_store *s, const struct held_mark *m);
static int wb_write_through(struct zbc_store_txn *t, struct zbc_err *err);

void zbc_store_close(struct zbc_store *s)
{
    if (s == NULL)
        return;
    if (s->batch != NULL) {
        mdb_txn_abort(s->batch); /* not ended: as if killed before it */
        s->batch = NULL;
        held_rollback(s, NULL);
    }
    s->batch_open = s->batch_paused = s->batch_lost = false;
    if (s->snap.txn == NULL &&
        ((s->seen != NULL && zbc_txseen_count(s->seen) > 0) ||
         (s->wb != NULL && zbc_appwb_count(s->wb) > 0))) {
        struct zbc_err e = {{0}};
        if (!zbc_store_write(s, flush_all_fn, NULL, &e))
            zbc_log_warn("ledger: held TXSEEN and app entries not written at "
                         "close (the next open takes them from the last "
                         "blocks and the redo records): %s", e.msg);
    }
    zbc_txseen_free(s->seen);
    zbc_appwb_free(s->wb);
    if (s->snap.txn != NULL)
        mdb_txn_abort(s->snap.txn); /* read-only: nothing to sync */
    else if (s->env != NULL)
        mdb_env_sync(s->env, 1);
    if (s->env != NULL)
        mdb_env_close(s->env);
    free(s);
}

size_t zbc_store_map_size(const struct zbc_store *s)
{
    return s->map_size;
}

static int store_grow(struct zbc_store *s, struct zbc_err *err)
{
    if (s->map_size > SIZE_MAX - s->map_step)
        return zbc_fail(err, "ledger map cannot grow beyond %zu bytes",
                        s->map_size);
    size_t next = s->map_size + s->map_step;
    int rc = mdb_env_set_mapsize(s->env, next);
    if (rc != 0)
        return zbc_fail(err, "cannot grow the ledger map to %zu bytes: %s",
                        next, mdb_strerror(rc));
    zbc_log_info("ledger: map grown from %zu to %zu MiB", s->map_size >> 20,
                 next >> 20);
    s->map_size = next;
    return 1;
}

/* Grows ahead of need when the used pages pass 80 % of the map, so most
 * blocks never hit MDB_MAP_FULL at all. */
static int store_grow_if_near_full(struct zbc_store *s, struct zbc_err *err)
{
    MDB_envinfo info;
    MDB_stat st;
    if (mdb_env_info(s->env, &info) != 0 || mdb_env_stat(s->env, &st) != 0)
        return 1;
    size_t used = ((size_t)info.me_last_pgno + 1) * st.ms_psize;
    if (used / 4 >= s->map_size / 5)
        return store_grow(s, err);
    return 1;
}

/* ---- TXSEEN write-back (node/zbcd/txseen.h) ---- */

/* Where a write transaction began, for the held sets. */
struct held_mark {
    size_t seen, wb, wb_recorded;
};

static struct held_mark held_mark(const struct zbc_store *s)
{
    struct held_mark m = {0, 0, 0};
    if (s->seen != NULL)
        m.seen = zbc_txseen_mark(s->seen);
    if (s->wb != NULL)
        m.wb = zbc_appwb_mark(s->wb);
    m.wb_recorded = s->wb_recorded;
    return m;
}

static void held_commit(struct zbc_store *s)
{
    if (s->seen != NULL)
        zbc_txseen_commit(s->seen);
    if (s->wb != NULL)
        zbc_appwb_commit(s->wb);
    s->wb_recorded = 0;
}

/* Back to m (NULL: every pending change). */
static void held_rollback(struct zbc_store *s, const struct held_mark *m)
{
    if (s->seen != NULL)
        zbc_txseen_rollback(s->seen, m != NULL ? m->seen : 0);
    if (s->wb != NULL)
        zbc_appwb_rollback(s->wb, m != NULL ? m->wb : 0);
    s->wb_recorded = m != NULL ? m->wb_recorded : 0;
}

static int seen_write(struct zbc_store_txn *t, unsigned slice, bool all,
                      struct zbc_err *err)
{
    uint8_t(*hashes)[32];
    uint32_t *heights;
    size_t n;
    if (!zbc_txseen_unwritten(t->s->seen, slice, all, &hashes, &heights, &n,
                              err))
        return 0;
    int ok = 1;
    for (size_t i = 0; ok && i < n; i++) {
        uint8_t v[4];
        zbc_put_le32(v, heights[i]);
        ok = db_put(t, ZBC_STORE_DB_S_TXSEEN, hashes[i], 32, v, 4, err);
    }
    ok = ok && zbc_txseen_written(t->s->seen, (const uint8_t(*)[32])hashes,
                                  n, err);
    free(hashes);
    free(heights);
    return ok;
}

int zbc_store_txn_txseen_flush(struct zbc_store_txn *t, uint32_t height,
                               struct zbc_err *err)
{
    if (t->s->seen == NULL || t->rdonly)
        return 1;
    /* inside a batch every held entry goes at once (the batch's own go
     * straight to the ledger): the tip may pass many slices' turns; and
     * so does everything held past the bound */
    return seen_write(t, height % ZBC_TXSEEN_SLICES,
                      t->in_batch ||
                          zbc_txseen_count(t->s->seen) > ZBC_TXSEEN_HOLD_MAX,
                      err);
}

static int flush_all_fn(struct zbc_store_txn *t, void *arg,
                        struct zbc_err *err)
{
    (void)arg;
    return seen_write(t, 0, true, err) &&
           (t->s->wb == NULL || wb_write_through(t, err));
}

int zbc_store_txseen_refill(struct zbc_store *s, const uint8_t hash[32],
                            uint32_t height, struct zbc_err *err)
{
    if (s->seen == NULL)
        return 1;
    if (zbc_txseen_mark(s->seen) != 0 || s->batch != NULL)
        return zbc_fail(err, "TXSEEN refill inside a write");
    return zbc_txseen_refill(s->seen, hash, height, err);
}

size_t zbc_store_txseen_held(const struct zbc_store *s)
{
    return s->seen != NULL ? zbc_txseen_count(s->seen) : 0;
}

/* ---- the app tables' write-back (node/zbcd/appwb.h) ---- */

static int wb_write_items(struct zbc_store_txn *t,
                          const struct zbc_appwb_item *items, size_t n,
                          struct zbc_err *err)
{
    for (size_t i = 0; i < n; i++) {
        const struct zbc_appwb_item *it = &items[i];
        enum zbc_store_db db = it->table == ZBC_TABLE_APPS
                                   ? ZBC_STORE_DB_S_APPS
                                   : ZBC_STORE_DB_S_APP_HISTORY;
        if (!(it->present
                  ? db_put(t, db, it->key, it->klen, it->val, it->vlen, err)
                  : db_del(t, db, it->key, it->klen, err)))
            return 0;
    }
    return zbc_appwb_written(t->s->wb, items, n, err);
}

static int wb_write_pick(struct zbc_store_txn *t, enum zbc_appwb_pick pick,
                         unsigned arg, struct zbc_err *err)
{
    struct zbc_appwb_item *items;
    size_t n;
    if (!zbc_appwb_items(t->s->wb, pick, arg, true, &items, &n, err))
        return 0;
    int ok = wb_write_items(t, items, n, err);
    free(items);
    return ok;
}

/* Deletes the redo records of the heights below `below`. */
static int wb_drop_records(struct zbc_store_txn *t, uint64_t below,
                           struct zbc_err *err)
{
    MDB_cursor *cur;
    if (!scan_cursor(t, ZBC_STORE_DB_APPS_REDO, &cur, err))
        return 0;
    if (cur == NULL)
        return 1;
    MDB_val k, v;
    int ok = 1, rc;
    while ((rc = mdb_cursor_get(cur, &k, &v, MDB_FIRST)) == 0) {
        if (k.mv_size != 4) {
            ok = zbc_fail(err, "ledger apps_redo has a %zu-byte key, not a "
                          "height", k.mv_size);
            break;
        }
        if (zbc_get_be32(k.mv_data) >= below)
            break;
        if ((rc = mdb_cursor_del(cur, 0)) != 0) {
            ok = write_failed(t, ZBC_STORE_DB_APPS_REDO, "delete from", rc,
                              err);
            break;
        }
    }
    if (ok && rc != 0 && rc != MDB_NOTFOUND)
        ok = zbc_fail(err, "scan of apps_redo failed: %s", mdb_strerror(rc));
    mdb_cursor_close(cur);
    return ok;
}

/* Every held entry to the tables and every redo record gone: the tables
 * are whole again (a transaction that is not one block's). */
static int wb_write_through(struct zbc_store_txn *t, struct zbc_err *err)
{
    if (!wb_write_pick(t, ZBC_APPWB_ALL, 0, err) ||
        !wb_drop_records(t, UINT64_MAX, err))
        return 0;
    t->s->wb_recorded = zbc_appwb_mark(t->s->wb);
    return 1;
}

/* Before a commit: changes no redo record holds go to the tables. */
static int wb_before_commit(struct zbc_store_txn *t, struct zbc_err *err)
{
    if (t->s->wb == NULL || t->rdonly ||
        zbc_appwb_mark(t->s->wb) <= t->s->wb_recorded)
        return 1;
    return wb_write_through(t, err);
}

int zbc_store_txn_apps_flush(struct zbc_store_txn *t, uint32_t height,
                             struct zbc_err *err)
{
    struct zbc_appwb *wb = t->s->wb;
    if (wb == NULL || t->rdonly)
        return 1;
    if (t->in_batch) /* a batch shares one commit: straight to the tables */
        return wb_write_through(t, err);
    struct zbc_appwb_item *items;
    size_t n;
    if (!zbc_appwb_items(wb, ZBC_APPWB_CHANGED, (unsigned)t->s->wb_recorded,
                         true, &items, &n, err))
        return 0;
    int ok = 1;
    if (n > 0) {
        uint8_t *rec = NULL, key[4];
        size_t len = 0;
        zbc_put_be32(key, height);
        ok = zbc_appwb_record_encode(items, n, &rec, &len, err) &&
             db_put(t, ZBC_STORE_DB_APPS_REDO, key, 4, rec, len, err);
        free(rec);
    }
    free(items);
    /* the records of the last ZBC_APPWB_SLICES heights stay: every entry
     * older than they are is in the tables */
    /* more held than the bound (blocks far above the workloads measured):
     * everything is written now, so memory stays bounded; the records
     * stay, replaying what the tables then hold */
    bool all = zbc_appwb_count(wb) > ZBC_APPWB_HOLD_MAX;
    ok = ok && wb_drop_records(t, height >= ZBC_APPWB_SLICES
                                      ? (uint64_t)height -
                                            (ZBC_APPWB_SLICES - 1)
                                      : 0,
                               err) &&
         wb_write_pick(t, all ? ZBC_APPWB_ALL : ZBC_APPWB_SLICE,
                       height % ZBC_APPWB_SLICES, err);
    if (ok)
        t->s->wb_recorded = zbc_appwb_mark(wb);
    return ok;
}

/* The redo records of txn, replayed in height order into wb. */
static int wb_replay(struct zbc_store *s, MDB_txn *txn, struct zbc_err *err)
{
    if (!s->has[ZBC_STORE_DB_APPS_REDO])
        return 1;
    MDB_cursor *cur;
    int rc = mdb_cursor_open(txn, s->dbi[ZBC_STORE_DB_APPS_REDO], &cur);
    if (rc != 0)
        return zbc_fail(err, "cannot scan apps_redo: %s", mdb_strerror(rc));
    MDB_val k, v;
    int ok = 1;
    for (rc = mdb_cursor_get(cur, &k, &v, MDB_FIRST); ok && rc == 0;
         rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
        if (k.mv_size != 4) {
            ok = zbc_fail(err, "ledger apps_redo has a %zu-byte key, not a "
                          "height", k.mv_size);
            break;
        }
        if (!zbc_appwb_record_replay(s->wb, v.mv_data, v.mv_size, err)) {
            ok = zbc_fail_prefix(err, "ledger apps_redo record of height %u",
                                 zbc_get_be32(k.mv_data));
            break;
        }
    }
    if (ok && rc != 0 && rc != MDB_NOTFOUND)
        ok = zbc_fail(err, "scan of apps_redo failed: %s", mdb_strerror(rc));
    mdb_cursor_close(cur);
    return ok;
}

uint32_t zbc_store_last_commit_us(const struct zbc_store *s)
{
    return s->last_commit_us;
}

size_t zbc_store_apps_held(const struct zbc_store *s)
{
    return s->wb != NULL ? zbc_appwb_count(s->wb) : 0;
}

/* *io is set when the failure is the ledger's (LMDB), not fn's logic;
 * *block when the committed write stored a block. */
static int store_write(struct zbc_store *s, zbc_store_fn fn, void *arg,
                       bool *io, bool *block, struct zbc_err *err)
{
    char buf[160];
    *io = true;
    if (!store_grow_if_near_full(s, err))
        return 0;
    for (int attempt = 0; attempt < STORE_WRITE_ATTEMPTS; attempt++) {
        struct zbc_store_txn t = {.s = s, .pending_view = true};
        int rc = mdb_txn_begin(s->env, NULL, 0, &t.txn);
        if (rc != 0)
            return zbc_fail(err, "cannot begin a ledger write: %s",
                            store_strerror(s, rc, buf, sizeof buf));
        struct held_mark mark = held_mark(s);
        int ok = fn(&t, arg, err) && wb_before_commit(&t, err);
        if (!ok) {
            mdb_txn_abort(t.txn);
            held_rollback(s, &mark);
            *io = t.io_failed;
            if (!t.map_full)
                return 0;
            *io = true;
            if (!store_grow(s, err))
                return 0;
            continue;
        }
        struct timespec c0, c1;
        clock_gettime(CLOCK_MONOTONIC, &c0);
        rc = mdb_txn_commit(t.txn);
        clock_gettime(CLOCK_MONOTONIC, &c1);
        int64_t us = (int64_t)(c1.tv_sec - c0.tv_sec) * 1000000 +
                     (c1.tv_nsec - c0.tv_nsec) / 1000;
        s->last_commit_us = us < 0 ? 0 : us > UINT32_MAX ? UINT32_MAX
                                                        : (uint32_t)us;
        if (rc == 0) {
            held_commit(s);
            *block = t.put_block;
            return 1;
        }
        held_rollback(s, &mark);
        if (rc != MDB_MAP_FULL)
            return zbc_fail(err, "ledger commit failed: %s",
                            store_strerror(s, rc, buf, sizeof buf));
        if (!store_grow(s, err))
            return 0;
    }
    return zbc_fail(err, "ledger write still does not fit after growing the "
                    "map %d times", STORE_WRITE_ATTEMPTS);
}

/* Inside a batch: a commit failed and the batch's writes are lost (the
 * caller learns it at zbc_store_batch_resume or _end); until then every
 * write fails with it: the ledger is behind what the caller holds. */
static int batch_lose(struct zbc_store *s, const char *what, int rc,
                      struct zbc_err *err)
{
    char buf[160];
    s->batch = NULL;
    s->batch_lost = true;
    held_rollback(s, NULL);
    snprintf(s->batch_err, sizeof s->batch_err, "%s: %s", what,
             store_strerror(s, rc, buf, sizeof buf));
    return zbc_fail(err, "%s", s->batch_err);
}

/* Commits the batch's transaction so far (whole writes only); the batch
 * stays open and goes on in a new transaction at its next write. */
static int batch_flush(struct zbc_store *s, struct zbc_err *err)
{
    if (s->batch == NULL)
        return 1;
    int rc = mdb_txn_commit(s->batch);
    if (rc != 0)
        return batch_lose(s, "ledger commit failed", rc, err);
    s->batch = NULL;
    held_commit(s);
    return 1;
}

static int batch_txn_begin(struct zbc_store *s, struct zbc_err *err)
{
    if (!store_grow_if_near_full(s, err))
        return 0;
    int rc = mdb_txn_begin(s->env, NULL, 0, &s->batch);
    if (rc != 0) {
        s->batch = NULL;
        return store_fail_lmdb(err, "cannot begin a ledger write", rc);
    }
    return 1;
}

/* store_write inside a running batch: fn runs in a child transaction,
 * which commits into the batch (no disk write) or aborts alone, so a
 * failing write leaves the batch's earlier writes as they were.  The map
 * cannot grow with a transaction open: on MDB_MAP_FULL the batch so far is
 * committed, the map grows and fn runs again in a new batch transaction. */
static int batch_write(struct zbc_store *s, zbc_store_fn fn, void *arg,
                       bool *io, bool *block, struct zbc_err *err)
{
    *io = true;
    for (int attempt = 0; attempt < STORE_WRITE_ATTEMPTS; attempt++) {
        if (s->batch == NULL && !batch_txn_begin(s, err))
            return 0;
        struct zbc_store_txn t = {.s = s, .pending_view = true,
                                  .in_batch = true};
        int rc = mdb_txn_begin(s->env, s->batch, 0, &t.txn);
        if (rc != 0)
            return store_fail_lmdb(err, "cannot begin a ledger write", rc);
        struct held_mark mark = held_mark(s);
        s->inner = t.txn;
        int ok = fn(&t, arg, err) && wb_before_commit(&t, err);
        s->inner = NULL;
        if (!ok) {
            mdb_txn_abort(t.txn);
            held_rollback(s, &mark);
            *io = t.io_failed;
            if (!t.map_full)
                return 0;
            *io = true;
        } else {
            rc = mdb_txn_commit(t.txn);
            if (rc == 0) {
                s->batch_blocks = s->batch_blocks || t.put_block;
                *block = t.put_block;
                return 1;
            }
            held_rollback(s, &mark);
            if (rc != MDB_MAP_FULL)
                return store_fail_lmdb(err, "ledger commit failed", rc);
        }
        if (!batch_flush(s, err) || !store_grow(s, err))
            return 0;
    }
    return zbc_fail(err, "ledger write still does not fit after growing the "
                    "map %d times", STORE_WRITE_ATTEMPTS);
}

int zbc_store_batch_begin(struct zbc_store *s, struct zbc_err *err)
{
    if (s->batch_open)
        return zbc_fail(err, "a ledger batch is already open");
    if (s->snap.txn != NULL)
        return zbc_fail(err, "the ledger is open read-only");
    if (!batch_txn_begin(s, err))
        return 0;
    s->batch_open = true;
    s->batch_paused = false;
    return 1;
}

void zbc_store_batch_pause(struct zbc_store *s)
{
    s->batch_paused = s->batch_open;
}

int zbc_store_batch_resume(struct zbc_store *s, struct zbc_err *err)
{
    if (!s->batch_open)
        return zbc_fail(err, "no ledger batch is open");
    s->batch_paused = false;
    if (s->batch_lost)
        return zbc_fail(err, "%s", s->batch_err);
    return 1;
}

static void note_write(struct zbc_store *s, int ok, bool io, bool block,
                       const struct zbc_err *err);

int zbc_store_batch_end(struct zbc_store *s, struct zbc_err *err)
{
    if (!s->batch_open)
        return zbc_fail(err, "no ledger batch is open");
    int ok = s->batch_lost ? zbc_fail(err, "%s", s->batch_err)
                           : batch_flush(s, err);
    note_write(s, ok, true, s->batch_blocks, err);
    s->batch = NULL;
    s->batch_open = s->batch_paused = s->batch_lost = false;
    s->batch_blocks = false;
    return ok;
}

bool zbc_store_in_batch(const struct zbc_store *s)
{
    return s->batch_open;
}

bool zbc_store_batch_lost_paused(const struct zbc_store *s)
{
    return s->batch_open && s->batch_paused && s->batch_lost;
}

/* One ERROR when writes start failing, one INFO when they work again:
 * the callers' own lines may repeat per attempt (docs/node.md "Disk
 * full"). */
int zbc_store_write(struct zbc_store *s, zbc_store_fn fn, void *arg,
                    struct zbc_err *err)
{
    bool io = false, block = false;
    int ok;
    if (s->batch_open && s->batch_paused && !s->batch_lost) {
        /* a write from elsewhere between two slices of a batch: the
         * batch so far is committed first, this write commits alone */
        if (!batch_flush(s, err)) {
            note_write(s, 0, true, false, err);
            return 0;
        }
    }
    if (s->batch_lost)
        ok = zbc_fail(err, "%s", s->batch_err);
    else if (s->batch_open && !s->batch_paused)
        ok = batch_write(s, fn, arg, &io, &block, err);
    else
        ok = store_write(s, fn, arg, &io, &block, err);
    /* inside a running batch nothing is on disk yet */
    if (!ok || !s->batch_open || s->batch_paused)
        note_write(s, ok, io, block, err);
    return ok;
}

/* The failure is over when a block is stored again: a small write (a vote
 * set, a checkpoint) may fit where blocks do not. */
static void note_write(struct zbc_store *s, int ok, bool io, bool block,
                       const struct zbc_err *err)
{
    if (ok && block && s->write_failure[0] != '\0') {
        zbc_log_info("ledger: writes succeed again (after: %s)",
                     s->write_failure);
        s->write_failure[0] = '\0';
    } else if (!ok && io) {
        if (s->write_failure[0] == '\0')
            zbc_log_error("ledger: cannot store: %s (node/info reports "
                          "synced false until a write succeeds)", err->msg);
        snprintf(s->write_failure, sizeof s->write_failure, "%s", err->msg);
    }
}

const char *zbc_store_write_failure(const struct zbc_store *s)
{
    return s->write_failure[0] != '\0' ? s->write_failure : NULL;
}

int zbc_store_read(struct zbc_store *s, zbc_store_fn fn, void *arg,
                   struct zbc_err *err)
{
    if (s->batch != NULL) {
        /* what the batch wrote so far, as the chain in memory has it */
        struct zbc_store_txn bt = {
            .s = s, .txn = s->inner != NULL ? s->inner : s->batch,
            .rdonly = true, .pending_view = true};
        return fn(&bt, arg, err);
    }
    struct zbc_store_txn t = {.s = s};
    int rc = mdb_txn_begin(s->env, NULL, MDB_RDONLY, &t.txn);
    if (rc == MDB_MAP_RESIZED) {
        /* Another process grew the map: adopt its size. */
        if ((rc = mdb_env_set_mapsize(s->env, 0)) == 0)
            rc = mdb_txn_begin(s->env, NULL, MDB_RDONLY, &t.txn);
    }
    if (rc != 0)
        return store_fail_lmdb(err, "cannot begin a ledger read", rc);
    int ok = fn(&t, arg, err);
    mdb_txn_abort(t.txn);
    return ok;
}

/* ---- meta ---- */

int zbc_store_txn_meta(struct zbc_store_txn *t, struct zbc_store_meta *m,
                       struct zbc_err *err)
{
    memset(m, 0, sizeof *m);
    MDB_val v;
    bool found;
    if (!db_get(t, ZBC_STORE_DB_META, "genesis", 7, &v, &found, err))
        return 0;
    if (found) {
        if (v.mv_size != 32)
            return zbc_fail(err, "ledger genesis record is %zu bytes, not 32",
                            v.mv_size);
        memcpy(m->genesis_hash, v.mv_data, 32);
        m->has_genesis = true;
    }
    if (!db_get(t, ZBC_STORE_DB_META, "tip", 3, &v, &found, err))
        return 0;
    if (found) {
        if (v.mv_size != 36)
            return zbc_fail(err, "ledger tip record is %zu bytes, not 36",
                            v.mv_size);
        m->tip_height = zbc_get_le32(v.mv_data);
        memcpy(m->tip_hash, (const uint8_t *)v.mv_data + 4, 32);
        m->has_tip = true;
    }
    return 1;
}

int zbc_store_txn_marker(struct zbc_store_txn *t, const char *key,
                         struct zbc_store_meta *m,
                         enum zbc_store_marker *state, uint32_t *height,
                         struct zbc_err *err)
{
    uint8_t *mv = NULL;
    size_t mlen = 0;
    bool has_marker;
    *state = ZBC_STORE_MARKER_STALE;
    *height = 0;
    if (!zbc_store_txn_meta(t, m, err) ||
        !zbc_store_txn_get(t, ZBC_STORE_DB_META, key, strlen(key), &mv, &mlen,
                           &has_marker, err))
        return 0;
    uint32_t tip = m->has_tip ? m->tip_height : 0;
    int ok = 1;
    if (!has_marker) {
        if (!m->has_tip)
            *state = ZBC_STORE_MARKER_AT_TIP;
    } else if (mlen == 36) {
        uint32_t h = zbc_get_le32(mv);
        uint32_t at = 0;
        bool found = false;
        if (h == tip && (h == 0 || memcmp(mv + 4, m->tip_hash, 32) == 0))
            *state = ZBC_STORE_MARKER_AT_TIP;
        else if (h == 0 && tip > 0)
            *state = ZBC_STORE_MARKER_BEHIND;
        else if (h < tip &&
                 (ok = zbc_store_txn_height_of(t, mv + 4, &at, &found,
                                               err)) &&
                 found && at == h)
            *state = ZBC_STORE_MARKER_BEHIND;
        if (*state != ZBC_STORE_MARKER_STALE)
            *height = h;
    }
    free(mv);
    return ok;
}

static int meta_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    return zbc_store_txn_meta(t, arg, err);
}

int zbc_store_get_meta(struct zbc_store *s, struct zbc_store_meta *m,
                       struct zbc_err *err)
{
    return zbc_store_read(s, meta_fn, m, err);
}

/* ---- writes ---- */

int zbc_store_put_genesis(struct zbc_store_txn *t,
                          const uint8_t genesis_hash[32], struct zbc_err *err)
{
    return db_put(t, ZBC_STORE_DB_META, "genesis", 7, genesis_hash, 32, err);
}

int zbc_store_put_block(struct zbc_store_txn *t, uint32_t height,
                        const uint8_t hash[32], const uint8_t *bytes,
                        size_t len, struct zbc_err *err)
{
    uint8_t hk[4], hl[4], tip[36];
    zbc_store_height_key(hk, height);
    zbc_put_le32(hl, height);
    zbc_put_le32(tip, height);
    memcpy(tip + 4, hash, 32);
    if (!db_put(t, ZBC_STORE_DB_BLOCKS, hk, 4, bytes, len, err) ||
        !db_put(t, ZBC_STORE_DB_BLOCK_HASH, hash, 32, hl, 4, err) ||
        !db_put(t, ZBC_STORE_DB_META, "tip", 3, tip, sizeof tip, err))
        return 0;
    t->put_block = true;
    return 1;
}

bool zbc_store_has_db(const struct zbc_store *s, enum zbc_store_db db)
{
    return db < ZBC_STORE_DB_COUNT && s->has[db];
}

int zbc_store_put_block_txs(struct zbc_store_txn *t, uint32_t height,
                            const uint8_t hash[32],
                            const uint8_t (*hashes)[32], uint32_t n,
                            struct zbc_err *err)
{
    uint8_t k[4];
    zbc_store_height_key(k, height);
    static const uint8_t none[1];
    return db_put(t, ZBC_STORE_DB_BLOCK_TXS, k, 4,
                  n > 0 ? (const void *)hashes : none, (size_t)n * 32,
                  err) &&
           zbc_store_put_checkpoint(t, ZBC_STORE_BLOCK_TXS_TIP, height, hash,
                                    err);
}

int zbc_store_put_undo(struct zbc_store_txn *t, uint32_t height,
                       const uint8_t *bytes, size_t len, struct zbc_err *err)
{
    uint8_t k[4];
    zbc_store_height_key(k, height);
    if (!db_put(t, ZBC_STORE_DB_UNDO, k, 4, bytes, len, err))
        return 0;
    if (height >= ZBC_STORE_UNDO_KEEP) {
        zbc_store_height_key(k, height - ZBC_STORE_UNDO_KEEP);
        return db_del(t, ZBC_STORE_DB_UNDO, k, 4, err);
    }
    return 1;
}

int zbc_store_put_events(struct zbc_store_txn *t, uint32_t height,
                         const uint8_t *bytes, size_t len, struct zbc_err *err)
{
    uint8_t k[4];
    zbc_store_height_key(k, height);
    return db_put(t, ZBC_STORE_DB_EVENTS, k, 4, bytes, len, err);
}

int zbc_store_pop_block(struct zbc_store_txn *t, uint32_t height,
                        const uint8_t hash[32], uint32_t parent_height,
                        const uint8_t parent_hash[32], struct zbc_err *err)
{
    uint8_t k[4];
    zbc_store_height_key(k, height);
    if (!db_del(t, ZBC_STORE_DB_BLOCKS, k, 4, err) ||
        !db_del(t, ZBC_STORE_DB_BLOCK_HASH, hash, 32, err) ||
        !db_del(t, ZBC_STORE_DB_BLOCK_TXS, k, 4, err) ||
        !db_del(t, ZBC_STORE_DB_UNDO, k, 4, err) ||
        !db_del(t, ZBC_STORE_DB_EVENTS, k, 4, err) ||
        !db_del(t, ZBC_STORE_DB_VOTES, k, 4, err))
        return 0;
    /* the lists' marker goes back with the tip (when it named this block:
     * one written by an older zbcd stays behind, found on open) */
    uint8_t *mv = NULL;
    size_t mlen = 0;
    bool has;
    if (!zbc_store_txn_get(t, ZBC_STORE_DB_META, ZBC_STORE_BLOCK_TXS_TIP,
                           strlen(ZBC_STORE_BLOCK_TXS_TIP), &mv, &mlen, &has,
                           err))
        return 0;
    bool at_this = has && mlen == 36 && zbc_get_le32(mv) == height &&
                   memcmp(mv + 4, hash, 32) == 0;
    free(mv);
    if (at_this &&
        !zbc_store_put_checkpoint(t, ZBC_STORE_BLOCK_TXS_TIP, parent_height,
                                  parent_hash, err))
        return 0;
    if (parent_height == 0)
        return db_del(t, ZBC_STORE_DB_META, "tip", 3, err);
    uint8_t tip[36];
    zbc_put_le32(tip, parent_height);
    memcpy(tip + 4, parent_hash, 32);
    return db_put(t, ZBC_STORE_DB_META, "tip", 3, tip, sizeof tip, err);
}

int zbc_store_put_votes(struct zbc_store_txn *t, uint32_t height,
                        const uint8_t *bytes, size_t len, struct zbc_err *err)
{
    uint8_t k[4];
    zbc_store_height_key(k, height);
    return db_put(t, ZBC_STORE_DB_VOTES, k, 4, bytes, len, err);
}

int zbc_store_put_checkpoint(struct zbc_store_txn *t, const char *name,
                             uint32_t height, const uint8_t hash[32],
                             struct zbc_err *err)
{
    uint8_t v[36];
    zbc_put_le32(v, height);
    memcpy(v + 4, hash, 32);
    return db_put(t, ZBC_STORE_DB_META, name, strlen(name), v, sizeof v, err);
}

int zbc_store_txn_put(struct zbc_store_txn *t, enum zbc_store_db db,
                      const void *key, size_t klen, const void *val,
                      size_t vlen, struct zbc_err *err)
{
    if (db >= ZBC_STORE_DB_COUNT)
        return zbc_fail(err, "ledger database %d does not exist", (int)db);
    return db_put(t, db, key, klen, val, vlen, err);
}

int zbc_store_txn_del(struct zbc_store_txn *t, enum zbc_store_db db,
                      const void *key, size_t klen, struct zbc_err *err)
{
    if (db >= ZBC_STORE_DB_COUNT)
        return zbc_fail(err, "ledger database %d does not exist", (int)db);
    return db_del(t, db, key, klen, err);
}

int zbc_store_txn_clear(struct zbc_store_txn *t, enum zbc_store_db db,
                        struct zbc_err *err)
{
    if (db >= ZBC_STORE_DB_COUNT)
        return zbc_fail(err, "ledger database %d does not exist", (int)db);
    if (t->rdonly)
        return refuse_rdonly(db, err);
    int rc = mdb_drop(t->txn, t->s->dbi[db], 0);
    return rc == 0 ? 1 : write_failed(t, db, "clear of", rc, err);
}

int zbc_store_txn_scan_back(struct zbc_store_txn *t, enum zbc_store_db db,
                            const uint8_t *prefix, size_t plen,
                            const uint8_t *below, size_t blen,
                            zbc_store_scan_fn fn, void *arg,
                            struct zbc_err *err)
{
    if (db >= ZBC_STORE_DB_COUNT)
        return zbc_fail(err, "ledger database %d does not exist", (int)db);
    MDB_cursor *cur = NULL;
    if (!scan_cursor(t, db, &cur, err))
        return 0;
    if (cur == NULL)
        return 1;
    MDB_val k = {blen, (void *)below}, v;
    int rc = mdb_cursor_get(cur, &k, &v, MDB_SET_RANGE);
    if (rc == MDB_NOTFOUND) /* every key is below `below` */
        rc = mdb_cursor_get(cur, &k, &v, MDB_LAST);
    else if (rc == 0)
        rc = mdb_cursor_get(cur, &k, &v, MDB_PREV);
    int ok = 1;
    bool stop = false;
    while (rc == 0 && !stop) {
        if (k.mv_size < plen ||
            (plen > 0 && memcmp(k.mv_data, prefix, plen) != 0))
            break; /* plen 0: every key (prefix may then be NULL) */
        if (!fn(arg, k.mv_data, k.mv_size, v.mv_data, v.mv_size, &stop,
                err)) {
            ok = 0;
            break;
        }
        if (!stop)
            rc = mdb_cursor_get(cur, &k, &v, MDB_PREV);
    }
    if (ok && rc != 0 && rc != MDB_NOTFOUND)
        ok = zbc_fail(err, "scan of %s failed: %s", db_names[db],
                      mdb_strerror(rc));
    mdb_cursor_close(cur);
    return ok;
}

/* ---- reads ---- */

int zbc_store_txn_get(struct zbc_store_txn *t, enum zbc_store_db db,
                      const void *key, size_t klen, uint8_t **bytes,
                      size_t *len, bool *found, struct zbc_err *err)
{
    *found = false;
    if (db >= ZBC_STORE_DB_COUNT)
        return zbc_fail(err, "ledger database %d does not exist", (int)db);
    return db_get_copy(t, db, key, klen, bytes, len, found, err);
}

/* A copy of the value a per-height database holds at height. */
static int height_get(struct zbc_store_txn *t, enum zbc_store_db db,
                      uint32_t height, uint8_t **bytes, size_t *len,
                      bool *found, struct zbc_err *err)
{
    uint8_t k[4];
    zbc_store_height_key(k, height);
    return db_get_copy(t, db, k, 4, bytes, len, found, err);
}

int zbc_store_txn_block(struct zbc_store_txn *t, uint32_t height,
                        uint8_t **bytes, size_t *len, bool *found,
                        struct zbc_err *err)
{
    return height_get(t, ZBC_STORE_DB_BLOCKS, height, bytes, len, found, err);
}

int zbc_store_txn_block_head(struct zbc_store_txn *t, uint32_t height,
                             uint8_t *out, size_t cap, size_t *len,
                             bool *found, struct zbc_err *err)
{
    uint8_t k[4];
    MDB_val v;
    zbc_store_height_key(k, height);
    if (!db_get(t, ZBC_STORE_DB_BLOCKS, k, 4, &v, found, err))
        return 0;
    if (!*found)
        return 1;
    *len = v.mv_size < cap ? v.mv_size : cap;
    memcpy(out, v.mv_data, *len);
    return 1;
}

int zbc_store_txn_height_of(struct zbc_store_txn *t, const uint8_t hash[32],
                            uint32_t *height, bool *found,
                            struct zbc_err *err)
{
    MDB_val v;
    if (!db_get(t, ZBC_STORE_DB_BLOCK_HASH, hash, 32, &v, found, err))
        return 0;
    if (!*found)
        return 1;
    if (v.mv_size != 4) {
        *found = false;
        return zbc_fail(err, "block hash index entry is %zu bytes, not 4",
                        v.mv_size);
    }
    *height = zbc_get_le32(v.mv_data);
    return 1;
}

int zbc_store_txn_block_txs(struct zbc_store_txn *t, uint32_t height,
                            uint8_t **bytes, size_t *len, bool *found,
                            struct zbc_err *err)
{
    return height_get(t, ZBC_STORE_DB_BLOCK_TXS, height, bytes, len, found,
                      err);
}

int zbc_store_block_txs_check(uint32_t height, bool found, size_t len,
                               struct zbc_err *err)
{
    if (!found)
        return zbc_fail(err, "the transaction list of block %u is missing "
                        "from the ledger", height);
    if (len % 32 != 0)
        return zbc_fail(err, "the transaction list of block %u is %zu "
                        "bytes, not a whole number of hashes", height, len);
    return 1;
}

int zbc_store_txn_block_tx_find(struct zbc_store_txn *t, uint32_t height,
                                const uint8_t tx_hash[32], uint32_t *index,
                                bool *found, struct zbc_err *err)
{
    uint8_t k[4];
    MDB_val v;
    bool has;
    *found = false;
    zbc_store_height_key(k, height);
    if (!db_get(t, ZBC_STORE_DB_BLOCK_TXS, k, 4, &v, &has, err))
        return 0;
    if (!zbc_store_block_txs_check(height, has, v.mv_size, err))
        return 0;
    const uint8_t *p = v.mv_data;
    for (size_t i = 0; i < v.mv_size / 32; i++)
        if (memcmp(p + 32 * i, tx_hash, 32) == 0) {
            *index = (uint32_t)i;
            *found = true;
            return 1;
        }
    return 1;
}

int zbc_store_txn_count(struct zbc_store_txn *t, enum zbc_store_db db,
                        uint64_t *n, struct zbc_err *err)
{
    *n = 0;
    if (db >= ZBC_STORE_DB_COUNT)
        return zbc_fail(err, "ledger database %d does not exist", (int)db);
    if (!t->s->has[db])
        return 1;
    MDB_stat st;
    int rc = mdb_stat(t->txn, t->s->dbi[db], &st);
    if (rc != 0)
        return store_fail_lmdb(err, "cannot count a ledger database", rc);
    *n = st.ms_entries;
    return 1;
}

int zbc_store_txn_undo(struct zbc_store_txn *t, uint32_t height,
                       uint8_t **bytes, size_t *len, bool *found,
                       struct zbc_err *err)
{
    return height_get(t, ZBC_STORE_DB_UNDO, height, bytes, len, found, err);
}

int zbc_store_txn_events(struct zbc_store_txn *t, uint32_t height,
                         uint8_t **bytes, size_t *len, bool *found,
                         struct zbc_err *err)
{
    return height_get(t, ZBC_STORE_DB_EVENTS, height, bytes, len, found, err);
}

int zbc_store_txn_votes(struct zbc_store_txn *t, uint32_t height,
                        uint8_t **bytes, size_t *len, bool *found,
                        struct zbc_err *err)
{
    return height_get(t, ZBC_STORE_DB_VOTES, height, bytes, len, found, err);
}

int zbc_store_txn_checkpoint(struct zbc_store_txn *t, const char *name,
                             uint32_t *height, uint8_t hash[32], bool *found,
                             struct zbc_err *err)
{
    MDB_val v;
    if (!db_get(t, ZBC_STORE_DB_META, name, strlen(name), &v, found, err))
        return 0;
    if (!*found)
        return 1;
    if (v.mv_size != 36) {
        *found = false;
        return zbc_fail(err, "ledger meta \"%s\" has %zu bytes, not 36", name,
                        v.mv_size);
    }
    *height = zbc_get_le32(v.mv_data);
    memcpy(hash, (const uint8_t *)v.mv_data + 4, 32);
    return 1;
}

/* Single-item reads, each in its own short read transaction. */
enum single_kind {
    SINGLE_BLOCK,
    SINGLE_EVENTS,
};

struct single_read {
    enum single_kind kind;
    uint32_t height;
    uint8_t **bytes;
    size_t *len;
    bool *found;
};

static int single_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct single_read *r = arg;
    switch (r->kind) {
    case SINGLE_BLOCK:
        return zbc_store_txn_block(t, r->height, r->bytes, r->len, r->found,
                                   err);
    case SINGLE_EVENTS:
        return zbc_store_txn_events(t, r->height, r->bytes, r->len, r->found,
                                    err);
    }
    return zbc_fail(err, "unknown single ledger read %d", (int)r->kind);
}

static int single_read(struct zbc_store *s, struct single_read *r,
                       struct zbc_err *err)
{
    *r->found = false;
    if (zbc_store_read(s, single_fn, r, err))
        return 1;
    *r->found = false;
    return 0;
}

int zbc_store_block(struct zbc_store *s, uint32_t height, uint8_t **bytes,
                    size_t *len, bool *found, struct zbc_err *err)
{
    struct single_read r = {.kind = SINGLE_BLOCK, .height = height,
                            .bytes = bytes, .len = len, .found = found};
    return single_read(s, &r, err);
}

int zbc_store_events(struct zbc_store *s, uint32_t height, uint8_t **bytes,
                     size_t *len, bool *found, struct zbc_err *err)
{
    struct single_read r = {.kind = SINGLE_EVENTS, .height = height,
                            .bytes = bytes, .len = len, .found = found};
    return single_read(s, &r, err);
}

