#include "node/zbcd/chain.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "consensus/apply.h"
#include "consensus/fork_choice.h"
#include "consensus/mempool.h"
#include "consensus/state.h"
#include "crypto/hex.h"
#include "node/zbcd/log.h"
#include "node/zbcd/sig_cache.h"
#include "node/zbcd/verify_pool.h"

struct side_block {
    uint8_t hash[32];
    uint8_t prev[32];
    uint32_t height;
    uint32_t rank;
    uint64_t timestamp_ms;
    bool linked; /* parent known and the block prechecked against it */
    uint8_t *bytes;
    size_t len;
};

struct zbc_chain {
    struct zbc_store *store;
    const struct zbc_genesis *g;
    bool has_key;
    struct zbc_node_key key;
    struct zbc_mempool *mp;
    /* signature work: blocks' transactions checked on every core, and
     * those verified once (mempool, side blocks) not verified again */
    struct zbc_verify_pool *pool;
    struct zbc_sig_cache *sigs;
    struct zbc_tx_known known;
    struct zbc_parent tip;
    uint8_t tip_state_root[32];
    /* blocks off the best chain (node/zbcd/chain.h "network") */
    struct side_block *side;
    size_t n_side;
    struct zbc_chain_listener listener;
    bool has_listener;
    uint32_t peers;
    bool synced;
    /* finality (node/zbcd/finality.h) */
    struct zbc_chain_finality_hook fin;
    uint32_t final_height;
    struct zbc_checkpoint justified;
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
    c->synced = true;
    c->side = calloc(ZBC_CHAIN_SIDE_MAX, sizeof *c->side);
    if (c->side == NULL) {
        free(c);
        return zbc_fail(err, "out of memory opening the chain");
    }
    if (cfg->key != NULL) {
        c->has_key = true;
        c->key = *cfg->key;
    }
    if (!zbc_store_open(&c->store, cfg->ledger_dir, &cfg->store, err)) {
        free(c->side);
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
    /* twice the pool's count: room for side-branch blocks' transactions
     * next to a full mempool; at most the pool's bytes again */
    c->pool = zbc_verify_pool_new(0);
    c->sigs = zbc_sig_cache_new(2 * max_txs, max_bytes);
    if (c->pool == NULL || c->sigs == NULL) {
        zbc_fail(err, "out of memory creating the verification pool");
        goto fail;
    }
    c->known = zbc_sig_cache_known(c->sigs);
    if (c->has_key && !zbc_genesis_is_validator(c->g, c->key.pk))
        zbc_log_warn("this node's key is not a validator of chain %s: it "
                     "will follow the chain but never produce",
                     c->g->chain_name);
    *out = c;
    return 1;
fail:
    zbc_mempool_free(c->mp);
    zbc_verify_pool_free(c->pool);
    zbc_sig_cache_free(c->sigs);
    zbc_store_close(c->store);
    free(c->side);
    free(c);
    return 0;
}

void zbc_chain_close(struct zbc_chain *c)
{
    if (c == NULL)
        return;
    zbc_mempool_free(c->mp);
    zbc_verify_pool_free(c->pool);
    zbc_sig_cache_free(c->sigs);
    for (size_t i = 0; i < c->n_side; i++)
        free(c->side[i].bytes);
    free(c->side);
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
    if (!zbc_mempool_add(c->mp, st, c->g, s->raw, s->len, s->now_ms, s->hash,
                         s->duplicate, err))
        return 0;
    if (!*s->duplicate) /* passed zbc_tx_check_stateless */
        zbc_sig_cache_add(c->sigs, s->raw, s->len);
    return 1;
}

int zbc_chain_submit(struct zbc_chain *c, const uint8_t *raw, size_t len,
                     uint64_t now_ms, uint8_t hash[32], bool *duplicate,
                     struct zbc_err *err)
{
    struct submit_ctx s = {raw, len, now_ms, hash, duplicate};
    *duplicate = false;
    if (!with_state_read(c, submit_fn, &s, err))
        return 0;
    if (!*duplicate && c->has_listener && c->listener.on_tx != NULL)
        c->listener.on_tx(c->listener.arg, raw, len, hash);
    return 1;
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
    const struct zbc_checked_block *checked; /* received, prechecked */
    bool invalid; /* the block broke a rule (else the ledger failed) */
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

/* Runs again from the start when the map grows (node/zbcd/store.h): nothing
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
    if (!zbc_block_build_known(&bc->built, st, c->g, &c->tip, bc->cands,
                               bc->n_cands, bc->now_ms, c->key.sk, &c->known,
                               &undo, &ev, err))
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
    bc->invalid = false;
    if (!zbc_block_apply(st, c->g, &c->tip, bc->checked, &undo, &ev, err)) {
        bc->invalid = true;
        return 0;
    }
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

static void notify_block(struct zbc_chain *c, const struct zbc_block *b,
                         const uint8_t hash[32])
{
    if (c->fin.on_block != NULL)
        c->fin.on_block(c->fin.arg, &b->header, hash);
    if (!c->has_listener || c->listener.on_block == NULL)
        return;
    uint8_t *enc = NULL;
    size_t len = 0;
    struct zbc_err err = {{0}};
    if (!zbc_block_encode(b, &enc, &len, &err)) {
        zbc_log_warn("block %u not announced: %s", b->header.height, err.msg);
        return;
    }
    c->listener.on_block(c->listener.arg, enc, len, hash,
                         b->header.timestamp_ms);
    free(enc);
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
    if (ok) {
        /* before new_tip: the built block borrows the pooled transactions'
         * bytes, which the mempool clean-up frees */
        notify_block(c, &bc.built, bc.hash);
        new_tip(c, &bc, &bc.built, info);
        if (c->fin.on_tip != NULL)
            c->fin.on_tip(c->fin.arg);
    }
    if (bc.has_built)
        zbc_block_free(&bc.built);
    free(cands);
    return ok;
}

/* Validates b on top of the tip and commits it in one write transaction. */
/* *invalid (may be NULL) tells a block that broke a rule from a ledger
 * that could not store it (a full disk is not the sender's fault). */
static int apply_on_tip(struct zbc_chain *c, const struct zbc_block *b,
                        uint64_t now_ms, struct zbc_block_info *info,
                        bool *invalid, struct zbc_err *err)
{
    /* the stateless half first, on every core and outside the write
     * transaction (it needs no state) */
    struct zbc_checked_block cb;
    if (!zbc_verify_pool_precheck(c->pool, &cb, c->g, &c->tip, b, now_ms,
                                  &c->known, err)) {
        if (invalid != NULL)
            *invalid = true;
        return 0;
    }
    struct block_ctx bc = {.now_ms = now_ms, .received = b, .checked = &cb};
    int ok = with_state_write(c, apply_fn, &bc, err);
    zbc_checked_block_free(&cb);
    if (invalid != NULL)
        *invalid = !ok && bc.invalid;
    if (!ok)
        return 0;
    new_tip(c, &bc, b, info);
    return 1;
}

int zbc_chain_apply_block(struct zbc_chain *c, const uint8_t *bytes,
                          size_t len, uint64_t now_ms,
                          struct zbc_block_info *info, struct zbc_err *err)
{
    struct zbc_block b;
    if (!zbc_block_decode(&b, bytes, len, err))
        return 0;
    int ok = apply_on_tip(c, &b, now_ms, info, NULL, err);
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

/* ---- network: side pool, fork choice, reorg (node/zbcd/chain.h) ---- */

#define SIDE_ORPHANS_MAX 256u

void zbc_chain_set_listener(struct zbc_chain *c,
                            const struct zbc_chain_listener *l)
{
    c->has_listener = l != NULL;
    if (l != NULL)
        c->listener = *l;
}

void zbc_chain_set_finality(struct zbc_chain *c,
                            const struct zbc_chain_finality_hook *h)
{
    memset(&c->fin, 0, sizeof c->fin);
    if (h != NULL)
        c->fin = *h;
}

void zbc_chain_set_final_height(struct zbc_chain *c, uint32_t height)
{
    c->final_height = height;
}

uint32_t zbc_chain_final_height(const struct zbc_chain *c)
{
    return c->final_height;
}

void zbc_chain_set_justified(struct zbc_chain *c,
                             const struct zbc_checkpoint *j)
{
    c->justified = *j;
}

void zbc_chain_set_net_status(struct zbc_chain *c, uint32_t peers,
                              bool synced)
{
    c->peers = peers;
    c->synced = synced;
}

uint32_t zbc_chain_peer_count(const struct zbc_chain *c)
{
    return c->peers;
}

bool zbc_chain_synced(const struct zbc_chain *c)
{
    return c->synced;
}

static struct side_block *side_find(struct zbc_chain *c,
                                    const uint8_t hash[32])
{
    for (size_t i = 0; i < c->n_side; i++) {
        if (memcmp(c->side[i].hash, hash, 32) == 0)
            return &c->side[i];
    }
    return NULL;
}

static void side_remove_at(struct zbc_chain *c, size_t i)
{
    free(c->side[i].bytes);
    c->side[i] = c->side[--c->n_side];
}

static void side_remove(struct zbc_chain *c, const uint8_t hash[32])
{
    struct side_block *s = side_find(c, hash);
    if (s != NULL)
        side_remove_at(c, (size_t)(s - c->side));
}

static size_t side_orphans(const struct zbc_chain *c)
{
    size_t n = 0;
    for (size_t i = 0; i < c->n_side; i++)
        n += !c->side[i].linked;
    return n;
}

/* Makes room for one more: drops an orphan when there are too many or the
 * pool is full, else the lowest side block. */
static void side_make_room(struct zbc_chain *c, bool linked)
{
    bool orphans_full = !linked && side_orphans(c) >= SIDE_ORPHANS_MAX;
    if (c->n_side < ZBC_CHAIN_SIDE_MAX && !orphans_full)
        return;
    size_t worst = c->n_side;
    for (size_t i = 0; i < c->n_side; i++) {
        const struct side_block *s = &c->side[i];
        if (worst == c->n_side) {
            if (!orphans_full || !s->linked)
                worst = i;
            continue;
        }
        const struct side_block *w = &c->side[worst];
        bool better;
        if (orphans_full)
            better = !s->linked && s->height < w->height;
        else
            better = (!s->linked && w->linked) ||
                     (s->linked == w->linked && s->height < w->height);
        if (better)
            worst = i;
    }
    if (worst < c->n_side)
        side_remove_at(c, worst);
}

static int side_add(struct zbc_chain *c, const struct zbc_block_header *h,
                    const uint8_t hash[32], const uint8_t *bytes, size_t len,
                    bool linked, struct zbc_err *err)
{
    side_make_room(c, linked);
    struct side_block *s = &c->side[c->n_side];
    memset(s, 0, sizeof *s);
    if (!copy_bytes(&s->bytes, bytes, len, err))
        return 0;
    s->len = len;
    memcpy(s->hash, hash, 32);
    memcpy(s->prev, h->prev_hash, 32);
    s->height = h->height;
    s->rank = h->rank;
    s->timestamp_ms = h->timestamp_ms;
    s->linked = linked;
    c->n_side++;
    return 1;
}

/* Side blocks at or below the finality depth can never be chosen. */
static void side_prune(struct zbc_chain *c)
{
    if (c->tip.height <= ZBC_REORG_MAX_DEPTH)
        return;
    uint32_t final = c->tip.height - ZBC_REORG_MAX_DEPTH;
    for (size_t i = 0; i < c->n_side;) {
        if (c->side[i].height <= final)
            side_remove_at(c, i);
        else
            i++;
    }
}

/* Drops `hash` and every side block that descends from it. */
static void side_drop_subtree(struct zbc_chain *c, const uint8_t hash[32])
{
    size_t cap = c->n_side + 1, n = 0;
    uint8_t (*bad)[32] = malloc(cap * 32);
    if (bad == NULL) {
        side_remove(c, hash);
        return;
    }
    memcpy(bad[n++], hash, 32);
    side_remove(c, hash);
    for (size_t k = 0; k < n; k++) {
        for (size_t i = 0; i < c->n_side;) {
            if (memcmp(c->side[i].prev, bad[k], 32) == 0 && n < cap) {
                memcpy(bad[n++], c->side[i].hash, 32);
                side_remove_at(c, i);
            } else {
                i++;
            }
        }
    }
    free(bad);
}

/* ---- the best chain on disk ---- */

struct height_of_ctx {
    const uint8_t *hash;
    uint32_t height;
    int rc;
};

static int height_of_fn(struct zbc_store_txn *t, void *arg,
                        struct zbc_err *err)
{
    struct height_of_ctx *h = arg;
    h->rc = zbc_store_txn_height_of(t, h->hash, &h->height, err);
    return h->rc != ZBC_KV_ERROR;
}

/* enum zbc_kv_rc: whether hash is a best-chain block (the genesis hash is
 * height 0). */
static int main_height_of(struct zbc_chain *c, const uint8_t hash[32],
                          uint32_t *height, struct zbc_err *err)
{
    if (memcmp(hash, c->g->hash, 32) == 0) {
        *height = 0;
        return ZBC_KV_FOUND;
    }
    struct height_of_ctx h = {hash, 0, ZBC_KV_ERROR};
    if (!zbc_store_read(c->store, height_of_fn, &h, err))
        return ZBC_KV_ERROR;
    *height = h.height;
    return h.rc;
}

/* Header of the best-chain block at height >= 1. */
static int main_header(struct zbc_chain *c, uint32_t height,
                       struct zbc_block_header *h, struct zbc_err *err)
{
    uint8_t *bytes = NULL;
    size_t len = 0;
    int rc = zbc_store_block(c->store, height, &bytes, &len, err);
    if (rc == ZBC_KV_ERROR)
        return 0;
    if (rc == ZBC_KV_NOTFOUND)
        return zbc_fail(err, "block %u of the best chain is missing", height);
    int ok = len >= ZBC_BLOCK_HEADER_LEN &&
             zbc_block_header_decode(h, bytes, ZBC_BLOCK_HEADER_LEN, err);
    free(bytes);
    if (!ok)
        return zbc_fail_prefix(err, "stored block %u does not decode", height);
    return 1;
}

/* The best-chain block at height as a parent (height 0: the genesis). */
static int main_parent(struct zbc_chain *c, uint32_t height,
                       struct zbc_parent *p, struct zbc_err *err)
{
    if (height == 0) {
        zbc_parent_genesis(p, c->g);
        return 1;
    }
    struct zbc_block_header h;
    if (!main_header(c, height, &h, err))
        return 0;
    zbc_parent_from_header(p, &h);
    return 1;
}

bool zbc_chain_knows_block(struct zbc_chain *c, const uint8_t hash[32])
{
    const struct side_block *s = side_find(c, hash);
    if (s != NULL)
        return s->linked;
    uint32_t h;
    struct zbc_err err = {{0}};
    return main_height_of(c, hash, &h, &err) == ZBC_KV_FOUND;
}

size_t zbc_chain_locator(struct zbc_chain *c, uint8_t (*out)[32], size_t cap,
                         struct zbc_err *err)
{
    size_t n = 0;
    uint32_t h = c->tip.height, step = 1;
    while (h > 0 && n + 1 < cap) {
        struct zbc_block_header hdr;
        if (!main_header(c, h, &hdr, err))
            return 0;
        zbc_block_hash(out[n++], &hdr);
        if (n >= 10)
            step *= 2;
        h = h > step ? h - step : 0;
    }
    memcpy(out[n++], c->g->hash, 32);
    return n;
}

int zbc_chain_locate(struct zbc_chain *c, const uint8_t (*loc)[32], size_t n,
                     uint32_t *height, struct zbc_err *err)
{
    *height = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t h;
        int rc = main_height_of(c, loc[i], &h, err);
        if (rc == ZBC_KV_ERROR)
            return 0;
        if (rc == ZBC_KV_FOUND) {
            *height = h;
            return 1;
        }
    }
    return 1;
}

/* ---- fork choice over a side branch ---- */

/* The side branch ending at `hash`, oldest block first (malloc'ed hashes),
 * and the best-chain height it forks from. */
static int side_branch(struct zbc_chain *c, const uint8_t hash[32],
                       uint8_t (**out)[32], size_t *n, uint32_t *fork,
                       struct zbc_err *err)
{
    size_t cap = c->n_side, len = 0;
    uint8_t (*br)[32] = malloc((cap > 0 ? cap : 1) * 32);
    if (br == NULL)
        return zbc_fail(err, "out of memory walking a side branch");
    const uint8_t *cur = hash;
    for (;;) {
        const struct side_block *s = side_find(c, cur);
        if (s == NULL) {
            int rc = main_height_of(c, cur, fork, err);
            if (rc == ZBC_KV_FOUND)
                break;
            free(br);
            if (rc == ZBC_KV_NOTFOUND)
                zbc_fail(err, "side branch does not reach the best chain");
            return 0;
        }
        if (!s->linked || len == cap) {
            free(br);
            return zbc_fail(err, "side branch has an unvalidated block");
        }
        memcpy(br[len++], s->hash, 32);
        cur = s->prev;
    }
    for (size_t i = 0; i < len / 2; i++) {
        uint8_t tmp[32];
        memcpy(tmp, br[i], 32);
        memcpy(br[i], br[len - 1 - i], 32);
        memcpy(br[len - 1 - i], tmp, 32);
    }
    *out = br;
    *n = len;
    return 1;
}

/* Whether the branch (fork + its blocks) is preferred to the best chain;
 * both are weighed from the fork point. */
static int branch_preferred(struct zbc_chain *c, const uint8_t (*br)[32],
                            size_t n, uint32_t fork, bool *better,
                            struct zbc_err *err)
{
    struct zbc_tip side = {0}, best = {0};
    for (size_t i = 0; i < n; i++) {
        const struct side_block *s = side_find(c, br[i]);
        if (s == NULL)
            return zbc_fail(err, "side branch block vanished");
        if (!zbc_tip_extend(&side, &side, s->rank, s->timestamp_ms, s->hash,
                            err))
            return 0;
    }
    for (uint32_t h = fork + 1; h <= c->tip.height; h++) {
        struct zbc_block_header hdr;
        uint8_t hash[32];
        if (!main_header(c, h, &hdr, err))
            return 0;
        zbc_block_hash(hash, &hdr);
        if (!zbc_tip_extend(&best, &best, hdr.rank, hdr.timestamp_ms, hash,
                            err))
            return 0;
    }
    if (fork == c->tip.height) {
        best.timestamp_ms = c->tip.timestamp_ms;
        memcpy(best.hash, c->tip.hash, 32);
    }
    /* the branch holding the highest justified block is preferred
     * (docs/protocol-chain.md §8.5), then weight */
    uint32_t side_j = 0, best_j = 0, jh;
    for (size_t i = 0; c->justified.height > fork && i < n; i++)
        if (memcmp(br[i], c->justified.hash, 32) == 0)
            side_j = c->justified.height;
    if (c->justified.height > fork && side_j == 0 &&
        main_height_of(c, c->justified.hash, &jh, err) == ZBC_KV_FOUND)
        best_j = c->justified.height;
    *better = n > 0 && zbc_final_branch_cmp(&side, side_j, &best, best_j) > 0;
    return 1;
}

/* ---- undoing the tip block ---- */

struct undo_ctx {
    const struct zbc_parent *parent;
    uint8_t root[32];
    uint8_t *bytes; /* the undone block, for the side pool and mempool */
    size_t len;
};

/* Runs again from the start when the map grows. */
static int undo_tip_fn(struct zbc_chain *c, struct zbc_state *st,
                       struct zbc_store_txn *t, void *arg,
                       struct zbc_err *err)
{
    struct undo_ctx *u = arg;
    uint32_t height = c->tip.height;
    free(u->bytes);
    u->bytes = NULL;
    int rc = zbc_store_txn_block(t, height, &u->bytes, &u->len, err);
    if (rc != ZBC_KV_FOUND)
        return rc == ZBC_KV_NOTFOUND
                   ? zbc_fail(err, "tip block %u is missing", height)
                   : 0;
    uint8_t *ubytes = NULL;
    size_t ulen = 0;
    rc = zbc_store_txn_undo(t, height, &ubytes, &ulen, err);
    if (rc != ZBC_KV_FOUND)
        return rc == ZBC_KV_NOTFOUND
                   ? zbc_fail(err, "undo record of block %u is missing",
                              height)
                   : 0;
    struct zbc_undo undo = {0};
    int ok = zbc_undo_decode(&undo, ubytes, ulen, err);
    free(ubytes);
    if (ok)
        ok = zbc_state_undo_block(st, &undo, err);
    zbc_undo_free(&undo);
    if (!ok)
        return zbc_fail_prefix(err, "cannot undo block %u", height);
    struct zbc_block b;
    if (!zbc_block_decode(&b, u->bytes, u->len, err))
        return zbc_fail_prefix(err, "stored block %u does not decode", height);
    for (uint32_t i = 0; ok && i < b.n_tx; i++) {
        uint8_t th[32];
        zbc_tx_ref_hash(th, &b.txs[i]);
        ok = zbc_store_del_tx_index(t, th, err);
    }
    zbc_block_free(&b);
    if (!ok || !zbc_store_pop_block(t, height, c->tip.hash, u->parent->height,
                                    u->parent->hash, err))
        return 0;
    uint32_t sh;
    if (!zbc_ledger_height(st, &sh, err))
        return 0;
    if (sh != u->parent->height)
        return zbc_fail(err, "undoing block %u left the state at height %u",
                        height, sh);
    zbc_state_root(st, u->root);
    return 1;
}

/* Undoes the tip block in one write transaction; the block goes to the
 * side pool (so the node can switch back) and *bytes (caller frees). */
static int undo_tip(struct zbc_chain *c, uint8_t **bytes, size_t *len,
                    struct zbc_err *err)
{
    struct zbc_parent parent;
    if (!main_parent(c, c->tip.height - 1, &parent, err))
        return 0;
    struct undo_ctx u = {.parent = &parent};
    if (!with_state_write(c, undo_tip_fn, &u, err)) {
        free(u.bytes);
        return 0;
    }
    struct zbc_block_header h;
    uint8_t hash[32];
    memcpy(hash, c->tip.hash, 32);
    c->tip = parent;
    memcpy(c->tip_state_root, u.root, 32);
    if (!zbc_block_header_decode(&h, u.bytes, ZBC_BLOCK_HEADER_LEN, err) ||
        !side_add(c, &h, hash, u.bytes, u.len, true, err))
        zbc_log_warn("undone block %u not kept: %s", h.height, err->msg);
    *bytes = u.bytes;
    *len = u.len;
    return 1;
}

/* Offers the transactions of undone blocks to the mempool again; those
 * that no longer pass (included on the new branch, spent, ...) are left
 * out. */
static void readmit(struct zbc_chain *c, uint8_t **blocks, size_t *lens,
                    size_t n, uint64_t now_ms)
{
    for (size_t i = 0; i < n; i++) {
        struct zbc_block b;
        struct zbc_err err = {{0}};
        if (!zbc_block_decode(&b, blocks[i], lens[i], &err))
            continue;
        for (uint32_t k = 0; k < b.n_tx; k++) {
            uint8_t hash[32];
            bool dup = false;
            struct submit_ctx s = {b.txs[k].bytes, b.txs[k].len, now_ms, hash,
                                   &dup};
            if (!with_state_read(c, submit_fn, &s, &err))
                zbc_log_debug("reorg: transaction not re-admitted: %s",
                              err.msg);
        }
        zbc_block_free(&b);
    }
}

static int reorg_to(struct zbc_chain *c, const uint8_t target[32],
                    uint64_t now_ms, bool may_return,
                    struct zbc_recv_result *r, bool *invalid,
                    struct zbc_err *err);

/* Applies the side block `hash` on the tip and takes it out of the pool.
 * *invalid: it failed because it broke a rule (else the ledger failed). */
static int apply_side(struct zbc_chain *c, const uint8_t hash[32],
                      uint64_t now_ms, bool *invalid, struct zbc_err *err)
{
    *invalid = false;
    struct side_block *s = side_find(c, hash);
    if (s == NULL)
        return zbc_fail(err, "side branch block vanished");
    uint8_t *bytes = s->bytes;
    size_t len = s->len;
    s->bytes = NULL;
    struct zbc_block b;
    struct zbc_block_info info;
    int ok = zbc_block_decode(&b, bytes, len, err);
    if (!ok)
        *invalid = true;
    if (ok) {
        ok = apply_on_tip(c, &b, now_ms, &info, invalid, err);
        zbc_block_free(&b);
    }
    if (ok)
        side_remove(c, hash);
    else
        s->bytes = bytes, bytes = NULL;
    free(bytes);
    return ok;
}

/* Switches the best chain to the side branch ending at target: undo to
 * the fork point, then apply the branch, one write transaction per block.
 * When a branch block breaks a rule, it and its descendants are dropped
 * (*invalid, may be NULL, set); when the ledger fails (a full disk) the
 * branch is kept.  Either way (may_return) the node then switches back to
 * the chain it left. */
static int reorg_to(struct zbc_chain *c, const uint8_t target[32],
                    uint64_t now_ms, bool may_return,
                    struct zbc_recv_result *r, bool *invalid,
                    struct zbc_err *err)
{
    bool bad = false;
    if (invalid != NULL)
        *invalid = false;
    uint8_t (*br)[32] = NULL;
    size_t n = 0;
    uint32_t fork;
    if (!side_branch(c, target, &br, &n, &fork, err))
        return 0;
    uint32_t depth = c->tip.height - fork;
    uint8_t old_tip[32];
    memcpy(old_tip, c->tip.hash, 32);
    uint8_t **undone = calloc(depth + 1, sizeof *undone);
    size_t *lens = calloc(depth + 1, sizeof *lens);
    size_t n_undone = 0;
    int ok = undone != NULL && lens != NULL;
    if (!ok)
        zbc_fail(err, "out of memory for a reorg of depth %u", depth);
    while (ok && c->tip.height > fork) {
        ok = undo_tip(c, &undone[n_undone], &lens[n_undone], err);
        if (ok) {
            n_undone++;
            r->undone++;
        }
    }
    size_t i = 0;
    for (; ok && i < n; i++) {
        ok = apply_side(c, br[i], now_ms, &bad, err);
        if (ok)
            r->applied++;
    }
    if (!ok && i > 0) {
        char hex[65];
        hex32(hex, br[i - 1]);
        if (bad) {
            zbc_log_warn("reorg: branch block %s refused: %s", hex, err->msg);
            side_drop_subtree(c, br[i - 1]);
        } else {
            zbc_log_error("reorg: branch block %s not stored: %s", hex,
                          err->msg);
        }
        if (may_return && memcmp(c->tip.hash, old_tip, 32) != 0) {
            struct zbc_err e2 = {{0}};
            if (!reorg_to(c, old_tip, now_ms, false, r, NULL, &e2))
                zbc_log_error("reorg: cannot switch back: %s", e2.msg);
        }
    }
    if (n_undone > 0)
        readmit(c, undone, lens, n_undone, now_ms);
    for (size_t k = 0; k < n_undone; k++)
        free(undone[k]);
    free(undone);
    free(lens);
    free(br);
    side_prune(c);
    if (invalid != NULL)
        *invalid = bad;
    return ok;
}

/* ---- receiving ---- */

static int recv_fail(struct zbc_recv_result *r, enum zbc_recv_kind kind)
{
    r->kind = kind;
    return 0;
}

static int receive_one(struct zbc_chain *c, const uint8_t *bytes, size_t len,
                       uint64_t now_ms, struct zbc_recv_result *r,
                       struct zbc_err *err)
{
    struct zbc_block b;
    if (!zbc_block_decode(&b, bytes, len, err))
        return recv_fail(r, ZBC_RECV_INVALID);
    const struct zbc_block_header *h = &b.header;
    zbc_block_hash(r->hash, h);
    r->height = h->height;
    int ok = 1;
    uint32_t ph = 0;
    struct zbc_parent parent;
    int rc;
    if (side_find(c, r->hash) != NULL) {
        r->kind = ZBC_RECV_DUPLICATE;
        goto out;
    }
    rc = main_height_of(c, r->hash, &ph, err);
    if (rc != ZBC_KV_NOTFOUND) {
        r->kind = ZBC_RECV_DUPLICATE;
        if (rc == ZBC_KV_ERROR)
            ok = recv_fail(r, ZBC_RECV_LOCAL_ERROR);
        goto out;
    }
    if (h->timestamp_ms > now_ms + ZBC_CLOCK_SKEW_MS) {
        r->kind = ZBC_RECV_FUTURE;
        goto out;
    }
    if (memcmp(h->prev_hash, c->tip.hash, 32) == 0) {
        struct zbc_block_info info;
        bool invalid;
        if (!apply_on_tip(c, &b, now_ms, &info, &invalid, err)) {
            ok = recv_fail(r, invalid ? ZBC_RECV_INVALID
                                      : ZBC_RECV_LOCAL_ERROR);
            goto out;
        }
        r->kind = ZBC_RECV_EXTENDED;
        r->applied++;
        notify_block(c, &b, r->hash);
        side_prune(c);
        goto out;
    }
    rc = main_height_of(c, h->prev_hash, &ph, err);
    if (rc == ZBC_KV_ERROR) {
        ok = recv_fail(r, ZBC_RECV_LOCAL_ERROR);
        goto out;
    }
    if (rc == ZBC_KV_FOUND) {
        if (!main_parent(c, ph, &parent, err)) {
            ok = recv_fail(r, ZBC_RECV_LOCAL_ERROR);
            goto out;
        }
    } else {
        const struct side_block *s = side_find(c, h->prev_hash);
        struct zbc_block_header ph_hdr;
        if (s == NULL || !s->linked) {
            r->kind = ZBC_RECV_ORPHAN;
            if (!side_add(c, h, r->hash, bytes, len, false, err))
                ok = recv_fail(r, ZBC_RECV_LOCAL_ERROR);
            goto out;
        }
        if (!zbc_block_header_decode(&ph_hdr, s->bytes, ZBC_BLOCK_HEADER_LEN,
                                     err)) {
            ok = recv_fail(r, ZBC_RECV_LOCAL_ERROR);
            goto out;
        }
        zbc_parent_from_header(&parent, &ph_hdr);
    }
    struct zbc_checked_block cb;
    if (!zbc_verify_pool_precheck(c->pool, &cb, c->g, &parent, &b, now_ms,
                                  &c->known, err)) {
        ok = recv_fail(r, ZBC_RECV_INVALID);
        goto out;
    }
    zbc_checked_block_free(&cb);
    /* verified: a reorg onto this block does not verify them again */
    for (uint32_t i = 0; i < b.n_tx; i++)
        zbc_sig_cache_add(c->sigs, b.txs[i].bytes, b.txs[i].len);
    if (!side_add(c, h, r->hash, bytes, len, true, err)) {
        ok = recv_fail(r, ZBC_RECV_LOCAL_ERROR);
        goto out;
    }
    uint8_t (*br)[32] = NULL;
    size_t n = 0;
    uint32_t fork = 0;
    bool better = false;
    if (!side_branch(c, r->hash, &br, &n, &fork, err)) {
        side_remove(c, r->hash);
        ok = recv_fail(r, ZBC_RECV_LOCAL_ERROR);
        goto out;
    }
    if (c->tip.height > fork + ZBC_REORG_MAX_DEPTH ||
        fork < c->final_height) { /* never past a final block */
        free(br);
        side_remove(c, r->hash);
        r->kind = ZBC_RECV_TOO_DEEP;
        goto out;
    }
    notify_block(c, &b, r->hash);
    ok = branch_preferred(c, (const uint8_t (*)[32])br, n, fork, &better,
                          err);
    free(br);
    if (!ok) {
        r->kind = ZBC_RECV_LOCAL_ERROR;
        goto out;
    }
    r->kind = ZBC_RECV_SIDE;
    if (better) {
        uint32_t old_height = c->tip.height;
        bool invalid;
        ok = reorg_to(c, r->hash, now_ms, true, r, &invalid, err);
        if (!ok) {
            r->kind = invalid ? ZBC_RECV_INVALID : ZBC_RECV_LOCAL_ERROR;
            goto out;
        }
        char hex[65];
        hex32(hex, r->hash);
        zbc_log_info("reorg: height %u -> %u, fork at %u (undid %u, applied "
                     "%u) new tip %s", old_height, c->tip.height, fork,
                     r->undone, r->applied, hex);
        r->kind = ZBC_RECV_EXTENDED;
    }
out:
    zbc_block_free(&b);
    return ok;
}

static int receive_block(struct zbc_chain *c, const uint8_t *bytes,
                         size_t len, uint64_t now_ms,
                         struct zbc_recv_result *r, struct zbc_err *err)
{
    memset(r, 0, sizeof *r);
    if (!receive_one(c, bytes, len, now_ms, r, err))
        return 0;
    if (r->kind != ZBC_RECV_EXTENDED && r->kind != ZBC_RECV_SIDE)
        return 1;
    /* Orphans waiting for this block (and, in turn, for theirs). */
    size_t cap = 16, n = 0;
    uint8_t (*work)[32] = malloc(cap * 32);
    if (work == NULL)
        return 1;
    memcpy(work[n++], r->hash, 32);
    while (n > 0) {
        uint8_t parent[32];
        memcpy(parent, work[--n], 32);
        for (size_t i = 0; i < c->n_side;) {
            struct side_block *s = &c->side[i];
            if (s->linked || memcmp(s->prev, parent, 32) != 0) {
                i++;
                continue;
            }
            uint8_t *ob = s->bytes;
            size_t olen = s->len;
            s->bytes = NULL;
            side_remove_at(c, i);
            struct zbc_recv_result orr;
            struct zbc_err oerr = {{0}};
            memset(&orr, 0, sizeof orr);
            int ok = receive_one(c, ob, olen, now_ms, &orr, &oerr);
            free(ob);
            r->undone += orr.undone;
            r->applied += orr.applied;
            if (!ok) {
                zbc_log_warn("held block at height %u refused: %s",
                             orr.height, oerr.msg);
                continue;
            }
            if (orr.kind == ZBC_RECV_EXTENDED || orr.kind == ZBC_RECV_SIDE) {
                if (n == cap) {
                    uint8_t (*w2)[32] = realloc(work, cap * 2 * 32);
                    if (w2 == NULL)
                        break;
                    work = w2;
                    cap *= 2;
                }
                memcpy(work[n++], orr.hash, 32);
            }
            i = 0; /* the pool changed under the scan */
        }
    }
    free(work);
    return 1;
}

int zbc_chain_receive_block(struct zbc_chain *c, const uint8_t *bytes,
                            size_t len, uint64_t now_ms,
                            struct zbc_recv_result *r, struct zbc_err *err)
{
    int ok = receive_block(c, bytes, len, now_ms, r, err);
    if (c->fin.on_tip != NULL)
        c->fin.on_tip(c->fin.arg);
    return ok;
}

int zbc_chain_switch_to(struct zbc_chain *c, const uint8_t hash[32],
                        uint64_t now_ms, bool *switched, struct zbc_err *err)
{
    *switched = false;
    const struct side_block *s = side_find(c, hash);
    if (s == NULL || !s->linked)
        return 1;
    uint8_t (*br)[32] = NULL;
    size_t n = 0;
    uint32_t fork = 0;
    if (!side_branch(c, hash, &br, &n, &fork, err))
        return 0;
    free(br);
    struct zbc_checkpoint fin = {.height = c->final_height};
    if (!zbc_final_reorg_allowed(&fin, c->tip.height, fork, err))
        return 0;
    struct zbc_recv_result r;
    memset(&r, 0, sizeof r);
    uint32_t old_height = c->tip.height;
    if (!reorg_to(c, hash, now_ms, true, &r, NULL, err))
        return 0;
    zbc_log_info("reorg: height %u -> %u onto the highest justified block, "
                 "fork at %u (undid %u, applied %u)", old_height,
                 c->tip.height, fork, r.undone, r.applied);
    *switched = memcmp(c->tip.hash, hash, 32) == 0;
    return 1;
}

struct zbc_store *zbc_chain_store(struct zbc_chain *c)
{
    return c->store;
}
