#include "node/chain.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "consensus/apply.h"
#include "consensus/mempool.h"
#include "consensus/state.h"
#include "crypto/hex.h"
#include "node/log.h"

struct zbc_chain {
    struct zbc_store *store;
    const struct zbc_genesis *g;
    bool has_key;
    struct zbc_node_key key;
    struct zbc_mempool *mp;
    struct zbc_parent tip;
    uint8_t tip_state_root[32];
};

/* ---- state over a store transaction ---- */

typedef int (*state_fn)(struct zbc_chain *c, struct zbc_state *st,
                        struct zbc_store_txn *t, void *arg,
                        struct zbc_err *err);

struct state_call {
    struct zbc_chain *c;
    state_fn fn;
    void *arg;
};

static int state_call_fn(struct zbc_store_txn *t, void *arg,
                         struct zbc_err *err)
{
    struct state_call *sc = arg;
    struct zbc_kv kv;
    struct zbc_state st;
    zbc_store_txn_kv(t, &kv);
    if (!zbc_state_open(&st, kv, err))
        return 0;
    int ok = sc->fn(sc->c, &st, t, sc->arg, err);
    zbc_state_close(&st);
    return ok;
}

static int with_state_read(struct zbc_chain *c, state_fn fn, void *arg,
                           struct zbc_err *err)
{
    struct state_call sc = {c, fn, arg};
    return zbc_store_read(c->store, state_call_fn, &sc, err);
}

static int with_state_write(struct zbc_chain *c, state_fn fn, void *arg,
                            struct zbc_err *err)
{
    struct state_call sc = {c, fn, arg};
    return zbc_store_write(c->store, state_call_fn, &sc, err);
}

static void hex32(char out[65], const uint8_t b[32])
{
    zbc_hex_encode(out, b, 32);
}

/* ---- open ---- */

static int init_genesis_fn(struct zbc_chain *c, struct zbc_state *st,
                           struct zbc_store_txn *t, void *arg,
                           struct zbc_err *err)
{
    (void)arg;
    if (!zbc_ledger_init_genesis(st, c->g, err))
        return zbc_fail_prefix(err, "cannot write the genesis state");
    return zbc_store_put_genesis(t, c->g->hash, err);
}

struct verify_ctx {
    uint32_t height;
    const uint8_t *want_root; /* NULL at height 0 */
    uint8_t root[32];
};

/* The stored state must be the tip's: same height, an accumulator that a
 * full scan reproduces, and (above genesis) the tip header's root. */
static int verify_state_fn(struct zbc_chain *c, struct zbc_state *st,
                           struct zbc_store_txn *t, void *arg,
                           struct zbc_err *err)
{
    (void)c;
    (void)t;
    struct verify_ctx *v = arg;
    uint32_t height;
    if (!zbc_ledger_height(st, &height, err))
        return zbc_fail_prefix(err, "cannot read the state height");
    if (height != v->height)
        return zbc_fail(err, "the ledger state is at height %u but the tip "
                        "block is at height %u", height, v->height);
    if (!zbc_state_check_root(st, err))
        return zbc_fail_prefix(err, "ledger state is damaged");
    zbc_state_root(st, v->root);
    if (v->want_root != NULL && memcmp(v->root, v->want_root, 32) != 0) {
        char have[65], want[65];
        hex32(have, v->root);
        hex32(want, v->want_root);
        zbc_log_error("ledger state root %s, tip block %u state root %s",
                      have, v->height, want);
        return zbc_fail(err, "the ledger state root %.16s... does not equal "
                        "the state root %.16s... of tip block %u", have, want,
                        v->height);
    }
    return 1;
}

static int load_tip(struct zbc_chain *c, const struct zbc_store_meta *m,
                    struct zbc_err *err)
{
    struct verify_ctx v = {0};
    struct zbc_block_header h;
    if (!m->has_tip) {
        zbc_parent_genesis(&c->tip, c->g);
    } else {
        uint8_t *bytes = NULL;
        size_t len = 0;
        int rc = zbc_store_block(c->store, m->tip_height, &bytes, &len, err);
        if (rc == ZBC_KV_ERROR)
            return 0;
        if (rc == ZBC_KV_NOTFOUND)
            return zbc_fail(err, "the ledger's tip block %u is missing",
                            m->tip_height);
        int ok = len >= ZBC_BLOCK_HEADER_LEN &&
                 zbc_block_header_decode(&h, bytes, ZBC_BLOCK_HEADER_LEN, err);
        free(bytes);
        if (!ok)
            return zbc_fail_prefix(err, "the ledger's tip block %u does not "
                                   "decode", m->tip_height);
        uint8_t hash[32];
        zbc_block_hash(hash, &h);
        if (h.height != m->tip_height || memcmp(hash, m->tip_hash, 32) != 0)
            return zbc_fail(err, "the ledger's tip record does not match its "
                            "tip block %u", m->tip_height);
        zbc_parent_from_header(&c->tip, &h);
        v.want_root = h.state_root;
    }
    v.height = c->tip.height;
    if (!with_state_read(c, verify_state_fn, &v, err))
        return zbc_fail_prefix(err, "refusing to start");
    memcpy(c->tip_state_root, v.root, 32);
    return 1;
}

int zbc_chain_open(struct zbc_chain **out, const struct zbc_chain_config *cfg,
                   struct zbc_err *err)
{
    struct zbc_chain *c = calloc(1, sizeof *c);
    if (c == NULL)
        return zbc_fail(err, "out of memory opening the chain");
    c->g = cfg->genesis;
    if (cfg->key != NULL) {
        c->has_key = true;
        c->key = *cfg->key;
    }
    if (!zbc_store_open(&c->store, cfg->ledger_dir, &cfg->store, err)) {
        free(c);
        return 0;
    }
    char want[65];
    hex32(want, c->g->hash);
    struct zbc_store_meta m;
    if (!zbc_store_get_meta(c->store, &m, err))
        goto fail;
    if (!m.has_genesis) {
        if (!with_state_write(c, init_genesis_fn, NULL, err))
            goto fail;
        zbc_log_info("ledger initialised: chain %s genesis %s supply %llu",
                     c->g->chain_name, want,
                     (unsigned long long)c->g->total_supply);
        if (!zbc_store_get_meta(c->store, &m, err))
            goto fail;
    } else if (memcmp(m.genesis_hash, c->g->hash, 32) != 0) {
        char have[65];
        hex32(have, m.genesis_hash);
        zbc_log_error("ledger genesis hash %s, genesis file's hash %s", have,
                      want);
        zbc_fail(err, "the ledger belongs to another chain (genesis %.16s..., "
                 "not %.16s...); use its own genesis file or a fresh data "
                 "directory", have, want);
        goto fail;
    }
    if (!load_tip(c, &m, err))
        goto fail;
    size_t max_txs = cfg->mempool_max_txs != 0 ? cfg->mempool_max_txs
                                               : ZBC_CHAIN_MEMPOOL_TXS;
    size_t max_bytes = cfg->mempool_max_bytes != 0 ? cfg->mempool_max_bytes
                                                   : ZBC_CHAIN_MEMPOOL_BYTES;
    c->mp = zbc_mempool_new(max_txs, max_bytes);
    if (c->mp == NULL) {
        zbc_fail(err, "out of memory creating the mempool");
        goto fail;
    }
    if (c->has_key && !zbc_genesis_is_validator(c->g, c->key.pk))
        zbc_log_warn("this node's key is not a validator of chain %s: it "
                     "will follow the chain but never produce",
                     c->g->chain_name);
    *out = c;
    return 1;
fail:
    zbc_store_close(c->store);
    free(c);
    return 0;
}

void zbc_chain_close(struct zbc_chain *c)
{
    if (c == NULL)
        return;
    zbc_mempool_free(c->mp);
    zbc_store_close(c->store);
    sodium_memzero(&c->key, sizeof c->key);
    free(c);
}

const struct zbc_genesis *zbc_chain_genesis(const struct zbc_chain *c)
{
    return c->g;
}

const uint8_t *zbc_chain_node_key(const struct zbc_chain *c)
{
    return c->has_key ? c->key.pk : NULL;
}

const struct zbc_parent *zbc_chain_tip(const struct zbc_chain *c)
{
    return &c->tip;
}

void zbc_chain_tip_state_root(const struct zbc_chain *c, uint8_t root[32])
{
    memcpy(root, c->tip_state_root, 32);
}

size_t zbc_chain_mempool_count(const struct zbc_chain *c)
{
    return zbc_mempool_count(c->mp);
}

size_t zbc_chain_mempool_bytes(const struct zbc_chain *c)
{
    return zbc_mempool_bytes(c->mp);
}

/* ---- submit ---- */

struct submit_ctx {
    const uint8_t *raw;
    size_t len;
    uint64_t now_ms;
    uint8_t *hash;
    bool *duplicate;
};

static int submit_fn(struct zbc_chain *c, struct zbc_state *st,
                     struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    (void)t;
    struct submit_ctx *s = arg;
    return zbc_mempool_add(c->mp, st, c->g, s->raw, s->len, s->now_ms,
                           s->hash, s->duplicate, err);
}

int zbc_chain_submit(struct zbc_chain *c, const uint8_t *raw, size_t len,
                     uint64_t now_ms, uint8_t hash[32], bool *duplicate,
                     struct zbc_err *err)
{
    struct submit_ctx s = {raw, len, now_ms, hash, duplicate};
    *duplicate = false;
    return with_state_read(c, submit_fn, &s, err);
}

/* ---- transaction lookup ---- */

void zbc_tx_lookup_free(struct zbc_tx_lookup *l)
{
    free(l->raw);
    l->raw = NULL;
    l->len = 0;
}

static int copy_bytes(uint8_t **out, const uint8_t *in, size_t len,
                      struct zbc_err *err)
{
    *out = malloc(len > 0 ? len : 1);
    if (*out == NULL)
        return zbc_fail(err, "out of memory copying %zu bytes", len);
    memcpy(*out, in, len);
    return 1;
}

int zbc_chain_find_tx(struct zbc_chain *c, const uint8_t hash[32],
                      struct zbc_tx_lookup *out, struct zbc_err *err)
{
    memset(out, 0, sizeof *out);
    const uint8_t *raw;
    size_t len;
    if (zbc_mempool_find(c->mp, hash, &out->position, &raw, &len)) {
        out->status = ZBC_TX_STATUS_MEMPOOL;
        out->pool_size = zbc_mempool_count(c->mp);
        out->len = len;
        return copy_bytes(&out->raw, raw, len, err);
    }
    int rc = zbc_store_tx_index(c->store, hash, &out->height, &out->index,
                                err);
    if (rc == ZBC_KV_ERROR)
        return 0;
    if (rc == ZBC_KV_NOTFOUND) {
        out->status = ZBC_TX_STATUS_NOT_FOUND;
        return 1;
    }
    uint8_t *bytes = NULL;
    size_t blen = 0;
    rc = zbc_store_block(c->store, out->height, &bytes, &blen, err);
    if (rc != ZBC_KV_FOUND) {
        if (rc == ZBC_KV_NOTFOUND)
            zbc_fail(err, "block %u of an indexed transaction is missing",
                     out->height);
        return 0;
    }
    struct zbc_block b;
    int ok = zbc_block_decode(&b, bytes, blen, err);
    if (ok && out->index >= b.n_tx)
        ok = zbc_fail(err, "block %u has no transaction %u", out->height,
                      out->index);
    if (ok) {
        out->len = b.txs[out->index].len;
        ok = copy_bytes(&out->raw, b.txs[out->index].bytes, out->len, err);
    }
    if (ok)
        out->status = ZBC_TX_STATUS_CONFIRMED;
    zbc_block_free(&b);
    free(bytes);
    return ok;
}

/* ---- blocks ---- */

int zbc_chain_next_slot(struct zbc_chain *c, struct zbc_slot *slot,
                        struct zbc_err *err)
{
    memset(slot, 0, sizeof *slot);
    slot->height = c->tip.height + 1;
    if (!c->has_key || !zbc_genesis_is_validator(c->g, c->key.pk))
        return 1;
    if (!zbc_producer_rank(&slot->rank, c->g, &c->tip, c->key.pk, err) ||
        !zbc_producer_earliest_ms(&slot->earliest_ms, c->g, &c->tip,
                                  slot->rank, err))
        return 0;
    slot->is_validator = true;
    return 1;
}

/* Everything a block leaves in the ledger besides the state: block bytes,
 * hash index, tip, transaction index, undo record, events. */
static int store_block_records(struct zbc_store_txn *t,
                               const struct zbc_block *b, const uint8_t *enc,
                               size_t enc_len, const uint8_t hash[32],
                               const struct zbc_undo *undo,
                               const struct zbc_events *ev,
                               struct zbc_err *err)
{
    uint32_t height = b->header.height;
    if (!zbc_store_put_block(t, height, hash, enc, enc_len, err))
        return 0;
    for (uint32_t i = 0; i < b->n_tx; i++) {
        uint8_t th[32];
        zbc_tx_ref_hash(th, &b->txs[i]);
        if (!zbc_store_put_tx_index(t, th, height, i, err))
            return 0;
    }
    uint8_t *bytes = NULL;
    size_t len = 0;
    if (!zbc_undo_encode(undo, &bytes, &len, err))
        return 0;
    int ok = zbc_store_put_undo(t, height, bytes, len, err);
    free(bytes);
    if (!ok)
        return 0;
    if (!zbc_events_encode(ev, &bytes, &len, err))
        return 0;
    ok = zbc_store_put_events(t, height, bytes, len, err);
    free(bytes);
    return ok;
}

struct block_ctx {
    uint64_t now_ms;
    /* produce */
    const struct zbc_tx_ref *cands;
    size_t n_cands;
    struct zbc_block built;
    bool has_built;
    /* apply */
    const struct zbc_block *received;
    /* result */
    struct zbc_block_header header;
    uint8_t hash[32];
    uint8_t state_root[32];
};

static int finish_block(struct zbc_store_txn *t, struct zbc_state *st,
                        struct block_ctx *bc, const struct zbc_block *b,
                        struct zbc_undo *undo, struct zbc_events *ev,
                        struct zbc_err *err)
{
    uint8_t *enc = NULL;
    size_t enc_len = 0;
    uint8_t hash[32];
    zbc_block_hash(hash, &b->header);
    if (!zbc_block_encode(b, &enc, &enc_len, err))
        return 0;
    int ok = store_block_records(t, b, enc, enc_len, hash, undo, ev, err);
    free(enc);
    if (ok) {
        bc->header = b->header;
        memcpy(bc->hash, hash, 32);
        zbc_state_root(st, bc->state_root);
    }
    return ok;
}

/* Runs again from the start when the map grows (node/store.h): nothing
 * of a previous attempt survives. */
static int produce_fn(struct zbc_chain *c, struct zbc_state *st,
                      struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct block_ctx *bc = arg;
    if (bc->has_built) {
        zbc_block_free(&bc->built);
        bc->has_built = false;
    }
    struct zbc_undo undo = {0};
    struct zbc_events ev = {0};
    if (!zbc_block_build(&bc->built, st, c->g, &c->tip, bc->cands,
                         bc->n_cands, bc->now_ms, c->key.sk, &undo, &ev, err))
        return 0;
    bc->has_built = true;
    int ok = finish_block(t, st, bc, &bc->built, &undo, &ev, err);
    zbc_undo_free(&undo);
    zbc_events_free(&ev);
    return ok;
}

static int apply_fn(struct zbc_chain *c, struct zbc_state *st,
                    struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct block_ctx *bc = arg;
    struct zbc_undo undo = {0};
    struct zbc_events ev = {0};
    if (!zbc_block_validate_apply(st, c->g, &c->tip, bc->received, bc->now_ms,
                                  &undo, &ev, err))
        return 0;
    int ok = finish_block(t, st, bc, bc->received, &undo, &ev, err);
    zbc_undo_free(&undo);
    zbc_events_free(&ev);
    return ok;
}

struct after_ctx {
    const struct zbc_block *b;
    uint64_t now_ms;
};

static int after_block_fn(struct zbc_chain *c, struct zbc_state *st,
                          struct zbc_store_txn *t, void *arg,
                          struct zbc_err *err)
{
    (void)t;
    struct after_ctx *a = arg;
    return zbc_mempool_after_block(c->mp, st, c->g, a->b, a->now_ms, err);
}

/* The block is committed: move the tip and clean the pool. */
static void new_tip(struct zbc_chain *c, const struct block_ctx *bc,
                    const struct zbc_block *b, struct zbc_block_info *info)
{
    zbc_parent_from_header(&c->tip, &bc->header);
    memcpy(c->tip_state_root, bc->state_root, 32);
    info->height = bc->header.height;
    memcpy(info->hash, bc->hash, 32);
    info->timestamp_ms = bc->header.timestamp_ms;
    info->n_tx = bc->header.tx_count;
    info->rank = bc->header.rank;
    struct after_ctx a = {b, bc->now_ms};
    struct zbc_err err = {{0}};
    if (!with_state_read(c, after_block_fn, &a, &err))
        zbc_log_error("mempool re-check after block %u failed: %s",
                      info->height, err.msg);
}

int zbc_chain_produce(struct zbc_chain *c, uint64_t now_ms,
                      struct zbc_block_info *info, struct zbc_err *err)
{
    if (!c->has_key)
        return zbc_fail(err, "this node has no key to produce blocks with");
    size_t n = zbc_mempool_count(c->mp);
    struct zbc_tx_ref *cands = calloc(n > 0 ? n : 1, sizeof *cands);
    if (cands == NULL)
        return zbc_fail(err, "out of memory selecting %zu transactions", n);
    n = zbc_mempool_select(c->mp, cands, n);
    struct block_ctx bc = {.now_ms = now_ms, .cands = cands, .n_cands = n};
    int ok = with_state_write(c, produce_fn, &bc, err);
    if (ok)
        new_tip(c, &bc, &bc.built, info);
    if (bc.has_built)
        zbc_block_free(&bc.built);
    free(cands);
    return ok;
}

int zbc_chain_apply_block(struct zbc_chain *c, const uint8_t *bytes,
                          size_t len, uint64_t now_ms,
                          struct zbc_block_info *info, struct zbc_err *err)
{
    struct zbc_block b;
    if (!zbc_block_decode(&b, bytes, len, err))
        return 0;
    struct block_ctx bc = {.now_ms = now_ms, .received = &b};
    int ok = with_state_write(c, apply_fn, &bc, err);
    if (ok)
        new_tip(c, &bc, &b, info);
    zbc_block_free(&b);
    return ok;
}

int zbc_chain_block(struct zbc_chain *c, uint32_t height, uint8_t **bytes,
                    size_t *len, struct zbc_err *err)
{
    return zbc_store_block(c->store, height, bytes, len, err);
}

int zbc_chain_events(struct zbc_chain *c, uint32_t height,
                     struct zbc_events *ev, struct zbc_err *err)
{
    uint8_t *bytes = NULL;
    size_t len = 0;
    int rc = zbc_store_events(c->store, height, &bytes, &len, err);
    if (rc != ZBC_KV_FOUND)
        return rc;
    if (!zbc_events_decode(ev, bytes, len, err))
        rc = ZBC_KV_ERROR;
    free(bytes);
    return rc;
}

/* ---- state reads ---- */

struct account_ctx {
    const struct zbc_addr *a;
    struct zbc_account *acc;
    bool found;
};

static int account_fn(struct zbc_chain *c, struct zbc_state *st,
                      struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    (void)c;
    (void)t;
    struct account_ctx *a = arg;
    return zbc_ledger_account(st, a->a, a->acc, &a->found, err);
}

int zbc_chain_account(struct zbc_chain *c, const struct zbc_addr *a,
                      struct zbc_account *acc, struct zbc_err *err)
{
    struct account_ctx ac = {a, acc, false};
    if (!with_state_read(c, account_fn, &ac, err))
        return ZBC_KV_ERROR;
    return ac.found ? ZBC_KV_FOUND : ZBC_KV_NOTFOUND;
}
