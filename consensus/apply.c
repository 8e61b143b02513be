/* Block validation, application and building (docs/protocol-chain.md
 * "Apply"). */
#include "consensus/apply.h"

#include <stdlib.h>
#include <string.h>

#include "consensus/apps_apply.h"
#include "consensus/ledger.h"
#include "consensus/money.h"
#include "consensus/seed.h"
#include "crypto/hash.h"
#include "crypto/hex.h"

/* ---- phase 1: stateless ---- */

static int check_header(const struct zbc_genesis *g,
                        const struct zbc_parent *parent,
                        const struct zbc_block_header *h,
                        uint64_t local_now_ms, struct zbc_err *err)
{
    if (h->version != ZBC_BLOCK_VERSION)
        return zbc_fail(err, "block version %u is not %d", h->version,
                        ZBC_BLOCK_VERSION);
    if (parent->height == UINT32_MAX || h->height != parent->height + 1)
        return zbc_fail(err, "block height %u does not follow parent height %u",
                        h->height, parent->height);
    if (memcmp(h->prev_hash, parent->hash, 32) != 0)
        return zbc_fail(err, "block previous hash is not the parent's hash");
    uint32_t rank;
    if (!zbc_producer_rank(&rank, g, parent, h->producer, err))
        return 0;
    if (h->rank != rank)
        return zbc_fail(err, "block claims rank %u but its producer has rank %u "
                             "at this height", h->rank, rank);
    uint64_t earliest;
    if (!zbc_producer_earliest_ms(&earliest, g, parent, rank, err))
        return 0;
    if (h->timestamp_ms < earliest)
        return zbc_fail(err, "block timestamp %llu ms is before the earliest "
                             "publish time %llu ms for rank %u",
                        (unsigned long long)h->timestamp_ms,
                        (unsigned long long)earliest, rank);
    if (local_now_ms <= UINT64_MAX - ZBC_CLOCK_SKEW_MS &&
        h->timestamp_ms > local_now_ms + ZBC_CLOCK_SKEW_MS)
        return zbc_fail(err, "block timestamp %llu ms is more than 10 s ahead "
                             "of the local clock %llu ms",
                        (unsigned long long)h->timestamp_ms,
                        (unsigned long long)local_now_ms);
    return 1;
}

static int check_crypto(const struct zbc_parent *parent,
                        const struct zbc_block_header *h, struct zbc_err *err)
{
    uint8_t seed[32];
    if (!zbc_seed_verify(seed, h->producer, h->vrf_proof, parent->seed,
                         h->height, err))
        return 0;
    if (memcmp(seed, h->seed, 32) != 0)
        return zbc_fail(err, "block seed does not match its VRF proof");
    return zbc_block_verify_signature(h, err);
}

int zbc_tx_check_stateless_hashed(struct zbc_checked_tx *ct,
                                  const struct zbc_genesis *g,
                                  const uint8_t *raw, size_t len,
                                  const uint8_t hash[32],
                                  const struct zbc_tx_known *known,
                                  struct zbc_err *err)
{
    if (known != NULL && known->known(known->ctx, hash, raw, len)) {
        struct zbc_err ignored;
        memset(ct, 0, sizeof *ct);
        /* a parsed transaction is all of raw: its hash is hash */
        if (zbc_tx_parse(&ct->tx, raw, len, &ignored) &&
            zbc_tx_body_parse(&ct->body, ct->tx.type, ct->tx.body,
                              ct->tx.body_len, &ignored)) {
            memcpy(ct->hash, hash, 32);
            return 1;
        }
    }
    return zbc_tx_check_stateless(ct, g, raw, len, err);
}

int zbc_tx_check_stateless_known(struct zbc_checked_tx *ct,
                                 const struct zbc_genesis *g,
                                 const uint8_t *raw, size_t len,
                                 const struct zbc_tx_known *known,
                                 struct zbc_err *err)
{
    if (known == NULL)
        return zbc_tx_check_stateless(ct, g, raw, len, err);
    uint8_t hash[32]; /* the transaction hash once: the hint's key too */
    zbc_sha3_256(hash, raw, len);
    return zbc_tx_check_stateless_hashed(ct, g, raw, len, hash, known, err);
}

/* The body's checks with the transactions' hashes left in hashes (n_tx
 * entries): each transaction is hashed once for the root and again by
 * nobody (zbc_block_precheck_tx takes it from there). */
static int check_body_hashes(const struct zbc_genesis *g,
                             const struct zbc_block *b, uint8_t (*hashes)[32],
                             struct zbc_err *err)
{
    const struct zbc_block_header *h = &b->header;
    if (b->n_tx != h->tx_count)
        return zbc_fail(err, "block holds %u transactions but its header says "
                             "%u", b->n_tx, h->tx_count);
    size_t total = 0;
    for (uint32_t i = 0; i < b->n_tx; i++)
        total += b->txs[i].len;
    if (total > g->max_block_bytes)
        return zbc_fail(err, "block transactions take %zu bytes, more than "
                             "max_block_bytes %u", total, g->max_block_bytes);
    for (uint32_t i = 0; i < b->n_tx; i++)
        zbc_tx_ref_hash(hashes[i], &b->txs[i]);
    uint8_t root[32];
    zbc_tx_root(root, (const uint8_t(*)[32])hashes, b->n_tx);
    if (memcmp(root, h->tx_root, 32) != 0)
        return zbc_fail(err, "block transactions root does not match its "
                             "transactions");
    return 1;
}

int zbc_block_check_body(const struct zbc_genesis *g, const struct zbc_block *b,
                         struct zbc_err *err)
{
    uint8_t(*hashes)[32] = malloc((b->n_tx > 0 ? b->n_tx : 1) * 32);
    if (hashes == NULL)
        return zbc_fail(err, "out of memory checking a block");
    int ok = check_body_hashes(g, b, hashes, err);
    free(hashes);
    return ok;
}

/* Everything but the transactions' own checks (zbc_block_precheck_begin). */
static int precheck_head(struct zbc_checked_block *cb,
                         const struct zbc_genesis *g,
                         const struct zbc_parent *parent,
                         const struct zbc_block *b, uint64_t local_now_ms,
                         struct zbc_err *err)
{
    const struct zbc_block_header *h = &b->header;
    if (!check_header(g, parent, h, local_now_ms, err))
        return 0;
    size_t n = b->n_tx > 0 ? b->n_tx : 1;
    uint8_t(*hashes)[32] = malloc(n * 32);
    cb->txs = calloc(n, sizeof *cb->txs);
    if (hashes == NULL || cb->txs == NULL) {
        free(hashes);
        return zbc_fail(err, "out of memory checking a block");
    }
    int ok = check_body_hashes(g, b, hashes, err);
    for (uint32_t i = 0; ok && i < b->n_tx; i++)
        memcpy(cb->txs[i].hash, hashes[i], 32);
    free(hashes);
    if (!ok || !check_crypto(parent, h, err))
        return 0;
    zbc_block_hash(cb->hash, h);
    return 1;
}

int zbc_block_precheck_tx(struct zbc_checked_block *cb,
                          const struct zbc_genesis *g, uint32_t i,
                          const struct zbc_tx_known *known,
                          struct zbc_err *err)
{
    const struct zbc_tx_ref *t = &cb->block->txs[i];
    uint8_t hash[32]; /* set by zbc_block_precheck_begin */
    memcpy(hash, cb->txs[i].hash, 32);
    return zbc_tx_check_stateless_hashed(&cb->txs[i], g, t->bytes, t->len,
                                         hash, known, err);
}

int zbc_block_precheck_begin(struct zbc_checked_block *cb,
                             const struct zbc_genesis *g,
                             const struct zbc_parent *parent,
                             const struct zbc_block *b, uint64_t local_now_ms,
                             struct zbc_err *err)
{
    memset(cb, 0, sizeof *cb);
    cb->block = b;
    if (!precheck_head(cb, g, parent, b, local_now_ms, err)) {
        zbc_checked_block_free(cb);
        return 0;
    }
    return 1;
}

int zbc_block_precheck_known(struct zbc_checked_block *cb,
                             const struct zbc_genesis *g,
                             const struct zbc_parent *parent,
                             const struct zbc_block *b, uint64_t local_now_ms,
                             const struct zbc_tx_known *known,
                             struct zbc_err *err)
{
    if (!zbc_block_precheck_begin(cb, g, parent, b, local_now_ms, err))
        return 0;
    for (uint32_t i = 0; i < b->n_tx; i++) {
        if (!zbc_block_precheck_tx(cb, g, i, known, err)) {
            zbc_checked_block_free(cb);
            return zbc_fail_prefix(err, "block transaction %u", i);
        }
    }
    return 1;
}

int zbc_block_precheck(struct zbc_checked_block *cb,
                       const struct zbc_genesis *g,
                       const struct zbc_parent *parent,
                       const struct zbc_block *b, uint64_t local_now_ms,
                       struct zbc_err *err)
{
    return zbc_block_precheck_known(cb, g, parent, b, local_now_ms, NULL, err);
}

void zbc_checked_block_free(struct zbc_checked_block *cb)
{
    free(cb->txs);
    memset(cb, 0, sizeof *cb);
}

/* ---- phase 2: stateful ---- */

static int check_state_height(struct zbc_state *s,
                              const struct zbc_parent *parent,
                              struct zbc_err *err)
{
    uint32_t height;
    if (!zbc_ledger_height(s, &height, err))
        return 0;
    if (height != parent->height)
        return zbc_fail(err, "state is at height %u but the block's parent is "
                             "at height %u", height, parent->height);
    return 1;
}

/* Height, debug invariant, accumulator: the common end of apply and
 * build.  The state root must already have been taken by the caller. */
static int finish_block(struct zbc_state *s, uint32_t height,
                        struct zbc_err *err)
{
#ifdef ZBC_DEBUG_CHECKS
    if (!zbc_money_check(s, err))
        return 0;
#endif
    (void)height;
    return zbc_state_commit(s, err);
}

static int apply_txs(struct zbc_state *s, const struct zbc_genesis *g,
                     const struct zbc_checked_block *cb, struct zbc_events *ev,
                     struct zbc_err *err)
{
    const struct zbc_block_header *h = &cb->block->header;
    if (!zbc_apps_begin_block(s, g, h->height, h->seed, ev, err))
        return zbc_fail_prefix(err, "start of block %u", h->height);
    for (uint32_t i = 0; i < cb->block->n_tx; i++) {
        if (!zbc_tx_apply(s, g, &cb->txs[i], i, h->height, h->timestamp_ms,
                          h->producer, ev, err)) {
            char hex[17];
            zbc_hex_encode(hex, cb->txs[i].hash, 8);
            return zbc_fail_prefix(err, "block transaction %u (%s...)", i, hex);
        }
    }
    if (!zbc_ledger_set_height(s, h->height, err))
        return 0;
    uint8_t root[32];
    zbc_state_root(s, root);
    if (memcmp(root, h->state_root, 32) != 0)
        return zbc_fail(err, "block state root does not match the state after "
                             "applying it");
    return finish_block(s, h->height, err);
}

static int abandon(struct zbc_state *s, struct zbc_events *ev,
                   struct zbc_err *err)
{
    zbc_events_free(ev);
    struct zbc_err rerr;
    if (!zbc_state_rollback_to(s, 0, &rerr) && err != NULL) {
        char first[ZBC_ERR_MAX];
        memcpy(first, err->msg, sizeof first);
        zbc_fail(err, "%.90s (and the rollback failed: %.90s)", first,
                 rerr.msg);
    }
    zbc_state_begin(s);
    return 0;
}

int zbc_block_apply(struct zbc_state *s, const struct zbc_genesis *g,
                    const struct zbc_parent *parent,
                    const struct zbc_checked_block *cb, struct zbc_undo *undo,
                    struct zbc_events *ev, struct zbc_err *err)
{
    memset(undo, 0, sizeof *undo);
    memset(ev, 0, sizeof *ev);
    if (cb->block == NULL)
        return zbc_fail(err, "block was not prechecked");
    if (!check_state_height(s, parent, err))
        return 0;
    zbc_state_begin(s);
    if (!apply_txs(s, g, cb, ev, err))
        return abandon(s, ev, err);
    zbc_state_take_undo(s, undo);
    return 1;
}

int zbc_block_validate_apply(struct zbc_state *s, const struct zbc_genesis *g,
                             const struct zbc_parent *parent,
                             const struct zbc_block *b, uint64_t local_now_ms,
                             struct zbc_undo *undo, struct zbc_events *ev,
                             struct zbc_err *err)
{
    struct zbc_checked_block cb;
    memset(undo, 0, sizeof *undo);
    memset(ev, 0, sizeof *ev);
    if (!zbc_block_precheck(&cb, g, parent, b, local_now_ms, err))
        return 0;
    int ok = zbc_block_apply(s, g, parent, &cb, undo, ev, err);
    zbc_checked_block_free(&cb);
    return ok;
}

/* ---- the producer's path ---- */

static int build(struct zbc_block *out, struct zbc_state *s,
                 const struct zbc_genesis *g, const struct zbc_parent *parent,
                 const struct zbc_tx_ref *cands, size_t n_cands,
                 uint64_t time_ms, const uint8_t sk[64],
                 const struct zbc_tx_known *known,
                 const struct zbc_build_stop *stop, struct zbc_events *ev,
                 struct zbc_err *err)
{
    struct zbc_block_header *h = &out->header;
    const uint8_t *pk = sk + 32;
    uint32_t rank;
    uint64_t earliest;
    if (parent->height == UINT32_MAX)
        return zbc_fail(err, "the chain is at its last height");
    if (!zbc_producer_rank(&rank, g, parent, pk, err) ||
        !zbc_producer_earliest_ms(&earliest, g, parent, rank, err))
        return 0;
    if (time_ms < earliest)
        return zbc_fail(err, "too early for rank %u: may publish at %llu ms, "
                             "not %llu ms", rank, (unsigned long long)earliest,
                        (unsigned long long)time_ms);
    h->version = ZBC_BLOCK_VERSION;
    h->height = parent->height + 1;
    h->timestamp_ms = time_ms;
    memcpy(h->prev_hash, parent->hash, 32);
    memcpy(h->producer, pk, 32);
    h->rank = rank;
    if (!zbc_seed_prove(h->vrf_proof, h->seed, sk, parent->seed, h->height,
                        err))
        return 0;
    if (!zbc_apps_begin_block(s, g, h->height, h->seed, ev, err))
        return zbc_fail_prefix(err, "start of block %u", h->height);

    out->txs = calloc(n_cands > 0 ? n_cands : 1, sizeof *out->txs);
    uint8_t(*hashes)[32] = malloc((n_cands > 0 ? n_cands : 1) * 32);
    if (out->txs == NULL || hashes == NULL) {
        free(hashes);
        return zbc_fail(err, "out of memory building a block");
    }
    size_t bytes = 0;
    uint32_t n = 0;
    for (size_t i = 0; i < n_cands && n < UINT32_MAX; i++) {
        struct zbc_checked_tx ct;
        struct zbc_err skip;
        if (stop != NULL && i % ZBC_BUILD_STOP_EVERY == 0 && i > 0 &&
            stop->fn(stop->arg, n, false))
            break;
        if (cands[i].len > g->max_block_bytes - bytes)
            continue;
        /* a candidate that would be a no-op is left out, like an invalid
         * one: the check runs on the state of this block so far */
        if (!zbc_tx_check_stateless_known(&ct, g, cands[i].bytes,
                                          cands[i].len, known, &skip) ||
            !zbc_tx_check_state(s, g, &ct, time_ms, 0, &skip) ||
            !zbc_tx_apply(s, g, &ct, n, h->height, time_ms, pk, ev, &skip))
            continue;
        out->txs[n] = cands[i];
        memcpy(hashes[n], ct.hash, 32);
        bytes += cands[i].len;
        n++;
    }
    if (stop != NULL)
        (void)stop->fn(stop->arg, n, true);
    out->n_tx = n;
    out->tx_bytes = bytes;
    h->tx_count = n;
    zbc_tx_root(h->tx_root, (const uint8_t(*)[32])hashes, n);
    free(hashes);
    if (!zbc_ledger_set_height(s, h->height, err))
        return 0;
    zbc_state_root(s, h->state_root);
    zbc_block_sign(h, sk);
    return finish_block(s, h->height, err);
}

int zbc_block_build(struct zbc_block *out, struct zbc_state *s,
                    const struct zbc_genesis *g,
                    const struct zbc_parent *parent,
                    const struct zbc_tx_ref *cands, size_t n_cands,
                    uint64_t time_ms, const uint8_t sk[64],
                    struct zbc_undo *undo, struct zbc_events *ev,
                    struct zbc_err *err)
{
    return zbc_block_build_known(out, s, g, parent, cands, n_cands, time_ms,
                                 sk, NULL, NULL, undo, ev, err);
}

int zbc_block_build_known(struct zbc_block *out, struct zbc_state *s,
                          const struct zbc_genesis *g,
                          const struct zbc_parent *parent,
                          const struct zbc_tx_ref *cands, size_t n_cands,
                          uint64_t time_ms, const uint8_t sk[64],
                          const struct zbc_tx_known *known,
                          const struct zbc_build_stop *stop,
                          struct zbc_undo *undo, struct zbc_events *ev,
                          struct zbc_err *err)
{
    memset(out, 0, sizeof *out);
    memset(undo, 0, sizeof *undo);
    memset(ev, 0, sizeof *ev);
    if (!check_state_height(s, parent, err))
        return 0;
    zbc_state_begin(s);
    if (!build(out, s, g, parent, cands, n_cands, time_ms, sk, known, stop,
               ev, err)) {
        zbc_block_free(out);
        return abandon(s, ev, err);
    }
    zbc_state_take_undo(s, undo);
    return 1;
}
