/* zbc-audit source: a node's data directory, read-only.
 *
 * The ledger is opened with MDB_RDONLY (nothing is ever written, not even
 * the database handles the node creates: a database the ledger lacks
 * counts as empty) and read in ONE read transaction held until close, so
 * a running node may go on committing blocks while the audit sees a
 * consistent snapshot.  Layouts: docs/node.md "Ledger" (node/store.h). */
#include <lmdb.h>
#include <stdlib.h>
#include <string.h>

#include "consensus/ledger.h"
#include "crypto/address.h"
#include "crypto/hex.h"
#include "node/audit/source.h"
#include "node/store.h"

enum dd_db {
    DD_META,
    DD_BLOCKS,
    DD_BLOCK_HASH,
    DD_TX_INDEX,
    DD_UNDO,
    DD_EVENTS,
    DD_S_META,
    DD_S_ACCOUNTS,
    DD_S_TXSEEN,
    DD_S_APPS,
    DD_S_PENDING,
    DD_S_APP_HISTORY,
    DD_COUNT,
};

static const char *const dd_names[DD_COUNT] = {
    "meta", "blocks", "block_hash", "tx_index", "undo", "events",
    "s_meta", "s_accounts", "s_txseen", "s_apps", "s_pending",
    "s_app_history",
};

struct datadir {
    MDB_env *env;
    MDB_txn *txn;
    MDB_dbi dbi[DD_COUNT];
    bool has[DD_COUNT];
};

static int state_db(enum zbc_table t, enum dd_db *db)
{
    switch (t) {
    case ZBC_TABLE_META:
        *db = DD_S_META;
        return 1;
    case ZBC_TABLE_ACCOUNTS:
        *db = DD_S_ACCOUNTS;
        return 1;
    case ZBC_TABLE_TXSEEN:
        *db = DD_S_TXSEEN;
        return 1;
    case ZBC_TABLE_APPS:
        *db = DD_S_APPS;
        return 1;
    case ZBC_TABLE_PENDING:
        *db = DD_S_PENDING;
        return 1;
    case ZBC_TABLE_APP_HISTORY:
        *db = DD_S_APP_HISTORY;
        return 1;
    case ZBC_TABLE_COUNT:
        return 0;
    }
    return 0;
}

static void be32(uint8_t out[4], uint32_t v)
{
    out[0] = (uint8_t)(v >> 24);
    out[1] = (uint8_t)(v >> 16);
    out[2] = (uint8_t)(v >> 8);
    out[3] = (uint8_t)v;
}

static uint32_t rd_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

/* enum zbc_kv_rc; a database the ledger lacks holds nothing. */
static int dd_get(struct datadir *d, enum dd_db db, const void *k, size_t klen,
                  MDB_val *v, struct zbc_err *err)
{
    if (!d->has[db])
        return ZBC_KV_NOTFOUND;
    MDB_val key = {klen, (void *)k};
    int rc = mdb_get(d->txn, d->dbi[db], &key, v);
    if (rc == 0)
        return ZBC_KV_FOUND;
    if (rc == MDB_NOTFOUND)
        return ZBC_KV_NOTFOUND;
    zbc_fail(err, "ledger read from %s failed: %s", dd_names[db],
             mdb_strerror(rc));
    return ZBC_KV_ERROR;
}

static int dd_copy(const MDB_val *v, uint8_t **out, size_t *len,
                   struct zbc_err *err)
{
    *out = malloc(v->mv_size > 0 ? v->mv_size : 1);
    if (*out == NULL)
        return zbc_fail(err, "out of memory copying %zu ledger bytes",
                        v->mv_size);
    memcpy(*out, v->mv_data, v->mv_size);
    *len = v->mv_size;
    return 1;
}

static int dd_tip(void *ctx, struct zbc_audit_tip *t, struct zbc_err *err)
{
    struct datadir *d = ctx;
    memset(t, 0, sizeof *t);
    MDB_val v;
    int rc = dd_get(d, DD_META, "genesis", 7, &v, err);
    if (rc == ZBC_KV_ERROR)
        return 0;
    if (rc == ZBC_KV_FOUND) {
        if (v.mv_size != 32)
            return zbc_fail(err, "the ledger's genesis record is %zu bytes, "
                            "not 32", v.mv_size);
        t->has_genesis = true;
        memcpy(t->genesis_hash, v.mv_data, 32);
    }
    rc = dd_get(d, DD_META, "tip", 3, &v, err);
    if (rc == ZBC_KV_ERROR)
        return 0;
    if (rc == ZBC_KV_FOUND) {
        if (v.mv_size != 36)
            return zbc_fail(err, "the ledger's tip record is %zu bytes, not "
                            "36", v.mv_size);
        t->height = rd_le32(v.mv_data);
        memcpy(t->hash, (const uint8_t *)v.mv_data + 4, 32);
    }
    return 1;
}

static int dd_block(void *ctx, uint32_t height, struct zbc_audit_block *out,
                    struct zbc_err *err)
{
    struct datadir *d = ctx;
    memset(out, 0, sizeof *out);
    uint8_t k[4];
    be32(k, height);
    MDB_val v;
    int rc = dd_get(d, DD_BLOCKS, k, 4, &v, err);
    if (rc != ZBC_KV_FOUND)
        return rc;
    if (!dd_copy(&v, &out->bytes, &out->len, err))
        return ZBC_KV_ERROR;
    rc = dd_get(d, DD_EVENTS, k, 4, &v, err);
    if (rc == ZBC_KV_FOUND) {
        if (!dd_copy(&v, &out->events_raw, &out->events_len, err))
            rc = ZBC_KV_ERROR;
        else
            out->has_events_raw = true;
    }
    if (rc != ZBC_KV_ERROR) {
        rc = dd_get(d, DD_UNDO, k, 4, &v, err);
        if (rc == ZBC_KV_FOUND) {
            if (!dd_copy(&v, &out->undo_raw, &out->undo_len, err))
                rc = ZBC_KV_ERROR;
            else
                out->has_undo = true;
        }
    }
    if (rc == ZBC_KV_ERROR) {
        zbc_audit_block_free(out);
        return ZBC_KV_ERROR;
    }
    return ZBC_KV_FOUND;
}

static int dd_check_indexes(void *ctx, uint32_t height, const uint8_t hash[32],
                            const uint8_t (*tx_hashes)[32], uint32_t n_tx,
                            struct zbc_audit_report *r, struct zbc_err *err)
{
    struct datadir *d = ctx;
    char hx[65], want[40], got[40];
    MDB_val v;
    int rc = dd_get(d, DD_BLOCK_HASH, hash, 32, &v, err);
    if (rc == ZBC_KV_ERROR)
        return 0;
    snprintf(want, sizeof want, "height %u", height);
    zbc_hex_encode(hx, hash, 32);
    if (rc == ZBC_KV_NOTFOUND)
        zbc_audit_add(r, height, ZBC_AUDIT_INDEX, want, "absent",
                      "block hash %s is not in the block_hash index", hx);
    else if (v.mv_size != 4 || rd_le32(v.mv_data) != height) {
        snprintf(got, sizeof got, v.mv_size == 4 ? "height %u" : "%u bytes",
                 v.mv_size == 4 ? rd_le32(v.mv_data) : (unsigned)v.mv_size);
        zbc_audit_add(r, height, ZBC_AUDIT_INDEX, want, got,
                      "block_hash index entry of block %s is wrong", hx);
    }
    for (uint32_t i = 0; i < n_tx; i++) {
        rc = dd_get(d, DD_TX_INDEX, tx_hashes[i], 32, &v, err);
        if (rc == ZBC_KV_ERROR)
            return 0;
        zbc_hex_encode(hx, tx_hashes[i], 32);
        snprintf(want, sizeof want, "height %u index %u", height, i);
        if (rc == ZBC_KV_NOTFOUND) {
            zbc_audit_add(r, height, ZBC_AUDIT_INDEX, want, "absent",
                          "transaction %s is not in the tx_index", hx);
            continue;
        }
        const uint8_t *p = v.mv_data;
        if (v.mv_size != 8 || rd_le32(p) != height || rd_le32(p + 4) != i) {
            if (v.mv_size == 8)
                snprintf(got, sizeof got, "height %u index %u", rd_le32(p),
                         rd_le32(p + 4));
            else
                snprintf(got, sizeof got, "%zu bytes", v.mv_size);
            zbc_audit_add(r, height, ZBC_AUDIT_INDEX, want, got,
                          "tx_index entry of transaction %s is wrong", hx);
        }
    }
    return 1;
}

/* ---- the stored state against the replayed one ---- */

static const char *table_name(enum zbc_table t)
{
    enum dd_db db;
    return state_db(t, &db) ? dd_names[db] : "?";
}

/* Key text: an address for accounts, hex otherwise (ASCII for meta). */
static void key_text(char *out, size_t cap, enum zbc_table t,
                     const uint8_t *k, size_t klen)
{
    struct zbc_addr a;
    struct zbc_err e;
    size_t used = 0;
    if (t == ZBC_TABLE_ACCOUNTS && zbc_addr_read(&a, k, klen, &used, &e) &&
        used == klen) {
        char txt[ZBC_ADDR_TEXT_MAX];
        zbc_addr_to_text(txt, &a);
        snprintf(out, cap, "account %s", txt);
        return;
    }
    if (t == ZBC_TABLE_META) {
        snprintf(out, cap, "meta \"%.*s\"", (int)klen, (const char *)k);
        return;
    }
    uint64_t id = 0;
    for (size_t i = 0; i < 8 && i < klen; i++)
        id |= (uint64_t)k[i] << (8 * i);
    if (t == ZBC_TABLE_APPS && klen == 8) {
        snprintf(out, cap, "app %llu", (unsigned long long)id);
        return;
    }
    if (t == ZBC_TABLE_APP_HISTORY && klen == 12) {
        snprintf(out, cap, "app %llu history entry %u", (unsigned long long)id,
                 rd_le32(k + 8));
        return;
    }
    char hx[2 * ZBC_KV_KEY_MAX + 1];
    zbc_hex_encode(hx, k, klen);
    snprintf(out, cap, "%s key %s", table_name(t), hx);
}

/* Value text: "balance N" for an account record, else (leading) hex. */
static void val_text(char *out, size_t cap, enum zbc_table t,
                     const uint8_t *v, size_t vlen)
{
    if (t == ZBC_TABLE_ACCOUNTS && vlen == ZBC_ACCOUNT_RECORD_LEN &&
        v[0] == ZBC_ACCOUNT_VERSION) {
        uint64_t b = 0;
        for (int i = 8; i >= 1; i--)
            b = b << 8 | v[i];
        snprintf(out, cap, "balance %llu", (unsigned long long)b);
        return;
    }
    char hx[2 * 48 + 1];
    size_t n = vlen < 48 ? vlen : 48;
    zbc_hex_encode(hx, v, n);
    snprintf(out, cap, "%s%s (%zu bytes)", hx, n < vlen ? "..." : "", vlen);
}

struct cmp_ctx {
    struct datadir *d;
    enum zbc_table t;
    enum dd_db db;
    const struct zbc_audit_final *f;
    struct zbc_audit_report *r;
    uint8_t *buf; /* ZBC_KV_VAL_MAX */
};

/* Every replayed entry must be stored with the same value. */
static int cmp_replayed(void *arg, const uint8_t *key, size_t klen,
                        const uint8_t *val, size_t vlen, struct zbc_err *err)
{
    struct cmp_ctx *c = arg;
    MDB_val v;
    int rc = dd_get(c->d, c->db, key, klen, &v, err);
    if (rc == ZBC_KV_ERROR)
        return 0;
    if (rc == ZBC_KV_FOUND && v.mv_size == vlen &&
        memcmp(v.mv_data, val, vlen) == 0)
        return 1;
    char kt[200], want[200], got[200];
    key_text(kt, sizeof kt, c->t, key, klen);
    val_text(want, sizeof want, c->t, val, vlen);
    if (rc == ZBC_KV_FOUND)
        val_text(got, sizeof got, c->t, v.mv_data, v.mv_size);
    else
        snprintf(got, sizeof got, "absent");
    zbc_audit_add(c->r, c->f->height, ZBC_AUDIT_STORED_STATE, want, got,
                  "stored state entry %s differs from the replay", kt);
    return 1;
}

/* Every stored entry must exist in the replay (values compared above). */
static int cmp_stored(struct cmp_ctx *c, struct zbc_err *err)
{
    if (!c->d->has[c->db])
        return 1;
    MDB_cursor *cur;
    int rc = mdb_cursor_open(c->d->txn, c->d->dbi[c->db], &cur);
    if (rc != 0)
        return zbc_fail(err, "cannot scan %s: %s", dd_names[c->db],
                        mdb_strerror(rc));
    MDB_val k, v;
    int ok = 1;
    for (rc = mdb_cursor_get(cur, &k, &v, MDB_FIRST); rc == 0 && ok;
         rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
        size_t vlen;
        int g = ZBC_KV_NOTFOUND;
        if (k.mv_size >= 1 && k.mv_size <= ZBC_KV_KEY_MAX)
            g = c->f->replayed.ops->get(c->f->replayed.ctx, c->t, k.mv_data,
                                        k.mv_size, c->buf, ZBC_KV_VAL_MAX,
                                        &vlen, err);
        if (g == ZBC_KV_ERROR) {
            ok = 0;
            break;
        }
        if (g == ZBC_KV_FOUND)
            continue;
        char kt[200], got[200];
        key_text(kt, sizeof kt, c->t, k.mv_data,
                 k.mv_size <= ZBC_KV_KEY_MAX ? k.mv_size : ZBC_KV_KEY_MAX);
        val_text(got, sizeof got, c->t, v.mv_data, v.mv_size);
        zbc_audit_add(c->r, c->f->height, ZBC_AUDIT_STORED_STATE, "absent",
                      got, "stored state entry %s does not exist in the "
                      "replay", kt);
    }
    mdb_cursor_close(cur);
    if (ok && rc != 0 && rc != MDB_NOTFOUND)
        return zbc_fail(err, "scan of %s failed: %s", dd_names[c->db],
                        mdb_strerror(rc));
    return ok;
}

static int dd_check_final(void *ctx, const struct zbc_audit_final *f,
                          struct zbc_audit_report *r, struct zbc_err *err)
{
    struct datadir *d = ctx;
    struct zbc_audit_tip tip;
    if (!dd_tip(d, &tip, err))
        return 0;
    char want[100], got[100], hx[65];
    if (f->height > 0 && (tip.height != f->height ||
                          memcmp(tip.hash, f->hash, 32) != 0)) {
        zbc_hex_encode(hx, f->hash, 32);
        snprintf(want, sizeof want, "%u %s", f->height, hx);
        zbc_hex_encode(hx, tip.hash, 32);
        snprintf(got, sizeof got, "%u %s", tip.height, hx);
        zbc_audit_add(r, f->height, ZBC_AUDIT_TIP, want, got,
                      "the ledger's tip record is not the last block");
    }
    struct cmp_ctx c = {.d = d, .f = f, .r = r};
    c.buf = malloc(ZBC_KV_VAL_MAX);
    if (c.buf == NULL)
        return zbc_fail(err, "out of memory comparing the stored state");
    int ok = 1;
    for (int t = 0; t < ZBC_TABLE_COUNT && ok; t++) {
        c.t = (enum zbc_table)t;
        if (!state_db(c.t, &c.db))
            continue;
        ok = f->replayed.ops->each(f->replayed.ctx, c.t, cmp_replayed, &c,
                                   err) &&
             cmp_stored(&c, err);
    }
    free(c.buf);
    return ok;
}

static void dd_close(void *ctx)
{
    struct datadir *d = ctx;
    if (d == NULL)
        return;
    if (d->txn != NULL)
        mdb_txn_abort(d->txn);
    if (d->env != NULL)
        mdb_env_close(d->env);
    free(d);
}

static const struct zbc_audit_source_ops datadir_ops = {
    .tip = dd_tip,
    .block = dd_block,
    .check_indexes = dd_check_indexes,
    .check_final = dd_check_final,
    .close = dd_close,
    .parallel_block = false,
};

int zbc_audit_open_datadir(struct zbc_audit_source *src, const char *dir,
                           struct zbc_err *err)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s/ledger", dir) >= (int)sizeof path)
        return zbc_fail(err, "data directory path is too long");
    struct datadir *d = calloc(1, sizeof *d);
    if (d == NULL)
        return zbc_fail(err, "out of memory opening the ledger");
    int rc = mdb_env_create(&d->env);
    if (rc == 0)
        rc = mdb_env_set_maxdbs(d->env, DD_COUNT + 4);
    if (rc == 0)
        rc = mdb_env_open(d->env, path, MDB_RDONLY | MDB_NOTLS, 0600);
    if (rc != 0) {
        dd_close(d);
        return zbc_fail(err, "cannot open the ledger in %s read-only: %s",
                        path, mdb_strerror(rc));
    }
    if (!zbc_store_check_data_file(d->env, path, err)) {
        dd_close(d);
        return 0;
    }
    rc = mdb_txn_begin(d->env, NULL, MDB_RDONLY, &d->txn);
    if (rc != 0) {
        dd_close(d);
        return zbc_fail(err, "cannot begin a read transaction on %s: %s",
                        path, mdb_strerror(rc));
    }
    for (int i = 0; i < DD_COUNT; i++) {
        rc = mdb_dbi_open(d->txn, dd_names[i], 0, &d->dbi[i]);
        if (rc == 0)
            d->has[i] = true;
        else if (rc != MDB_NOTFOUND) {
            dd_close(d);
            return zbc_fail(err, "cannot open ledger database %s: %s",
                            dd_names[i], mdb_strerror(rc));
        }
    }
    if (!d->has[DD_META] || !d->has[DD_BLOCKS]) {
        dd_close(d);
        return zbc_fail(err, "%s is not a zbcd ledger (no meta or blocks "
                        "database)", path);
    }
    src->ops = &datadir_ops;
    src->ctx = d;
    snprintf(src->name, sizeof src->name, "datadir %s", dir);
    return 1;
}
