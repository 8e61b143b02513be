/* zbc-audit source: a node's data directory, read-only.
 *
 * The ledger is opened through zbc_store_open_readonly (node/zbcd/store.h, which
 * owns the layout: docs/node.md "Ledger"): nothing is ever written, a
 * database the ledger lacks counts as empty, and everything is read in ONE
 * read transaction held until close, so a running node may go on
 * committing blocks while the audit sees a consistent snapshot. */
#include <stdlib.h>
#include <string.h>

#include "consensus/ledger.h"
#include "crypto/address.h"
#include "crypto/bytes.h"
#include "crypto/hex.h"
#include "node/audit/source.h"
#include "node/audit/votes.h"
#include "node/zbcd/store.h"
#include "node/zbcd/txseen.h"

struct datadir {
    struct zbc_store *s;
    struct zbc_store_txn *t; /* the snapshot */
    bool lists_absent_told;  /* a ledger without block_txs: said once */
};

static int dd_tip(void *ctx, struct zbc_audit_tip *t, struct zbc_err *err)
{
    struct datadir *d = ctx;
    memset(t, 0, sizeof *t);
    struct zbc_store_meta m;
    if (!zbc_store_txn_meta(d->t, &m, err))
        return 0;
    t->has_genesis = m.has_genesis;
    memcpy(t->genesis_hash, m.genesis_hash, 32);
    if (m.has_tip) {
        t->height = m.tip_height;
        memcpy(t->hash, m.tip_hash, 32);
    }
    return 1;
}

static int dd_block(void *ctx, uint32_t height, struct zbc_audit_block *out,
                    bool *found, struct zbc_err *err)
{
    struct datadir *d = ctx;
    memset(out, 0, sizeof *out);
    if (!zbc_store_txn_block(d->t, height, &out->bytes, &out->len, found,
                             err))
        return 0;
    if (!*found)
        return 1;
    if (!zbc_store_txn_events(d->t, height, &out->events_raw,
                              &out->events_len, &out->has_events_raw, err) ||
        !zbc_store_txn_undo(d->t, height, &out->undo_raw, &out->undo_len,
                            &out->has_undo, err)) {
        zbc_audit_block_free(out);
        *found = false;
        return 0;
    }
    return 1;
}

static int dd_check_indexes(void *ctx, uint32_t height, const uint8_t hash[32],
                            const uint8_t (*tx_hashes)[32], uint32_t n_tx,
                            struct zbc_audit_report *r, struct zbc_err *err)
{
    struct datadir *d = ctx;
    char hx[65], want[40], got[40];
    uint8_t *v = NULL;
    size_t vlen = 0;
    bool found;
    if (!zbc_store_txn_get(d->t, ZBC_STORE_DB_BLOCK_HASH, hash, 32, &v, &vlen,
                           &found, err))
        return 0;
    snprintf(want, sizeof want, "height %u", height);
    zbc_hex_encode(hx, hash, 32);
    if (!found)
        zbc_audit_add(r, height, ZBC_AUDIT_INDEX, want, "absent",
                      "block hash %s is not in the block_hash index", hx);
    else if (vlen != 4 || zbc_store_le32(v) != height) {
        snprintf(got, sizeof got, vlen == 4 ? "height %u" : "%u bytes",
                 vlen == 4 ? zbc_store_le32(v) : (unsigned)vlen);
        zbc_audit_add(r, height, ZBC_AUDIT_INDEX, want, got,
                      "block_hash index entry of block %s is wrong", hx);
    }
    free(v);
    /* block_txs: the block's transaction hashes in block order (where
     * the node finds a transaction's position, node/zbcd/tx_index.h) */
    if (!zbc_store_has_db(d->s, ZBC_STORE_DB_BLOCK_TXS)) {
        if (!d->lists_absent_told)
            zbc_audit_add(r, height, ZBC_AUDIT_INDEX, "a block_txs table",
                          "absent", "the ledger has no block_txs table (a "
                          "zbcd before 2026-12-06 wrote it; start this "
                          "zbcd on it once to write the lists)");
        d->lists_absent_told = true;
        return 1;
    }
    v = NULL;
    if (!zbc_store_txn_block_txs(d->t, height, &v, &vlen, &found, err))
        return 0;
    snprintf(want, sizeof want, "%u hashes", n_tx);
    if (!found)
        zbc_audit_add(r, height, ZBC_AUDIT_INDEX, want, "absent",
                      "the transaction list of block %u is absent", height);
    else if (vlen != (size_t)n_tx * 32)
        zbc_audit_add(r, height, ZBC_AUDIT_INDEX, want,
                      vlen % 32 == 0 ? "a different count" : "not hashes",
                      "the transaction list of block %u is %zu bytes, not "
                      "%u", height, vlen, n_tx * 32);
    else
        for (uint32_t i = 0; i < n_tx; i++)
            if (memcmp(v + 32 * (size_t)i, tx_hashes[i], 32) != 0) {
                zbc_hex_encode(hx, tx_hashes[i], 32);
                snprintf(want, sizeof want, "index %u", i);
                zbc_audit_add(r, height, ZBC_AUDIT_INDEX, want, "another hash",
                              "the transaction list of block %u lacks "
                              "transaction %s at its place", height, hx);
                break;
            }
    free(v);
    return 1;
}

/* ---- the stored state against the replayed one ---- */

static const char *table_name(enum zbc_table t)
{
    enum zbc_store_db db;
    return zbc_store_table_db(t, &db) ? zbc_store_db_name(db) : "?";
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
    uint64_t id = klen >= 8 ? zbc_get_le64(k) : 0;
    if (t == ZBC_TABLE_APPS && klen == 8) {
        snprintf(out, cap, "app %llu", (unsigned long long)id);
        return;
    }
    if (t == ZBC_TABLE_APP_HISTORY && klen == 12) {
        snprintf(out, cap, "app %llu history entry %u", (unsigned long long)id,
                 zbc_store_le32(k + 8));
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
        uint64_t b = zbc_get_le64(v + 1);
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
    enum zbc_store_db db;
    const struct zbc_audit_final *f;
    struct zbc_audit_report *r;
    uint8_t *buf; /* ZBC_KV_VAL_MAX */
    uint8_t *sbuf; /* ZBC_KV_VAL_MAX: a stored value */
    struct zbc_kv stored; /* as zbcd reads it: with the held app entries */
};

/* Every replayed entry must be stored with the same value. */
static int cmp_replayed(void *arg, const uint8_t *key, size_t klen,
                        const uint8_t *val, size_t vlen, struct zbc_err *err)
{
    struct cmp_ctx *c = arg;
    uint8_t *v = c->sbuf;
    size_t len = 0;
    bool found;
    if (!c->stored.ops->get(c->stored.ctx, c->t, key, klen, v, ZBC_KV_VAL_MAX,
                            &len, &found, err))
        return 0;
    if (found && len == vlen && memcmp(v, val, vlen) == 0)
        return 1;
    /* TXSEEN write-back (node/zbcd/txseen.h): an entry of block h is in
     * the ledger from h + ZBC_TXSEEN_SLICES - 1 on; a node killed before
     * takes it from the block again when it opens the ledger */
    if (!found && c->t == ZBC_TABLE_TXSEEN && vlen == 4 &&
        (uint64_t)zbc_get_le32(val) + ZBC_TXSEEN_SLICES - 1 > c->f->height)
        return 1;
    char kt[200], want[200], got[200];
    key_text(kt, sizeof kt, c->t, key, klen);
    val_text(want, sizeof want, c->t, val, vlen);
    if (found)
        val_text(got, sizeof got, c->t, v, len);
    else
        snprintf(got, sizeof got, "absent");
    zbc_audit_add(c->r, c->f->height, ZBC_AUDIT_STORED_STATE, want, got,
                  "stored state entry %s differs from the replay", kt);
    return 1;
}

/* Every stored entry must exist in the replay (values compared above). */
static int cmp_stored(void *arg, const uint8_t *key, size_t klen,
                      const uint8_t *val, size_t vlen, struct zbc_err *err)
{
    struct cmp_ctx *c = arg;
    size_t rlen;
    bool found = false;
    if (klen >= 1 && klen <= ZBC_KV_KEY_MAX &&
        !c->f->replayed.ops->get(c->f->replayed.ctx, c->t, key, klen, c->buf,
                                 ZBC_KV_VAL_MAX, &rlen, &found, err))
        return 0;
    if (found)
        return 1;
    char kt[200], got[200];
    key_text(kt, sizeof kt, c->t, key,
             klen <= ZBC_KV_KEY_MAX ? klen : ZBC_KV_KEY_MAX);
    val_text(got, sizeof got, c->t, val, vlen);
    zbc_audit_add(c->r, c->f->height, ZBC_AUDIT_STORED_STATE, "absent", got,
                  "stored state entry %s does not exist in the replay", kt);
    return 1;
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
    c.sbuf = malloc(ZBC_KV_VAL_MAX);
    if (c.buf == NULL || c.sbuf == NULL) {
        free(c.buf);
        free(c.sbuf);
        return zbc_fail(err, "out of memory comparing the stored state");
    }
    zbc_store_txn_kv(d->t, &c.stored);
    struct zbc_kv stored = c.stored;
    int ok = 1;
    for (int t = 0; t < ZBC_TABLE_COUNT && ok; t++) {
        c.t = (enum zbc_table)t;
        if (!zbc_store_table_db(c.t, &c.db))
            continue;
        ok = f->replayed.ops->each(f->replayed.ctx, c.t, cmp_replayed, &c,
                                   err) &&
             stored.ops->each(stored.ctx, c.t, cmp_stored, &c, err);
    }
    free(c.buf);
    free(c.sbuf);
    return ok && zbc_audit_check_votes(d->t, f->g, f->height, r, err);
}

static void dd_close(void *ctx)
{
    struct datadir *d = ctx;
    if (d == NULL)
        return;
    zbc_store_close(d->s);
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
    if (!zbc_store_open_readonly(&d->s, path, err)) {
        free(d);
        return 0;
    }
    d->t = zbc_store_snapshot(d->s);
    src->ops = &datadir_ops;
    src->ctx = d;
    snprintf(src->name, sizeof src->name, "datadir %s", dir);
    return 1;
}
