/* Side pool, side branches and reorgs (docs/p2p.md §7). */
#include "node/zbcd/fork.h"

#include <stdlib.h>
#include <string.h>

#include "consensus/apply.h"
#include "consensus/fork_choice.h"
#include "consensus/vote.h"
#include "crypto/hex.h"
#include "node/zbcd/chain_internal.h"
#include "node/zbcd/app_index.h"
#include "node/zbcd/history.h"
#include "node/zbcd/log.h"

/* ---- the side pool ---- */

int zbc_side_init(struct zbc_side_pool *p, const struct zbc_orphan_limits *lim,
                  struct zbc_err *err)
{
    memset(p, 0, sizeof *p);
    p->b = calloc(ZBC_CHAIN_SIDE_MAX, sizeof *p->b);
    if (p->b == NULL)
        return zbc_fail(err, "out of memory for the side pool");
    if (lim != NULL)
        p->lim = *lim;
    if (p->lim.max_count == 0)
        p->lim.max_count = ZBC_CHAIN_ORPHANS_MAX;
    if (p->lim.max_count > ZBC_CHAIN_SIDE_MAX)
        p->lim.max_count = ZBC_CHAIN_SIDE_MAX;
    if (p->lim.max_bytes == 0)
        p->lim.max_bytes = ZBC_CHAIN_ORPHAN_BYTES_MAX;
    if (p->lim.peer_max_count == 0)
        p->lim.peer_max_count = ZBC_CHAIN_PEER_ORPHANS_MAX;
    if (p->lim.peer_max_bytes == 0)
        p->lim.peer_max_bytes = ZBC_CHAIN_PEER_ORPHAN_BYTES_MAX;
    if (p->lim.max_age_ms == 0)
        p->lim.max_age_ms = ZBC_CHAIN_ORPHAN_AGE_MS;
    p->max_bytes = ZBC_CHAIN_SIDE_BYTES_MAX;
    return 1;
}

void zbc_side_free(struct zbc_side_pool *p)
{
    if (p->b != NULL) {
        for (size_t i = 0; i < p->n; i++)
            free(p->b[i].bytes);
    }
    free(p->b);
    memset(p, 0, sizeof *p);
}

struct zbc_side_block *zbc_side_find(struct zbc_side_pool *p,
                                     const uint8_t hash[32])
{
    for (size_t i = 0; i < p->n; i++) {
        if (memcmp(p->b[i].hash, hash, 32) == 0)
            return &p->b[i];
    }
    return NULL;
}

void zbc_side_remove_at(struct zbc_side_pool *p, size_t i)
{
    struct zbc_side_block *s = &p->b[i];
    if (!s->linked) {
        p->n_orphans--;
        p->orphan_bytes -= s->len;
    }
    p->bytes -= s->len;
    free(s->bytes);
    *s = p->b[--p->n];
}

void zbc_side_remove(struct zbc_side_pool *p, const uint8_t hash[32])
{
    struct zbc_side_block *s = zbc_side_find(p, hash);
    if (s != NULL)
        zbc_side_remove_at(p, (size_t)(s - p->b));
}

static bool kept(const struct zbc_side_pool *p, const uint8_t hash[32])
{
    for (size_t i = 0; i < p->n_keep; i++) {
        if (memcmp(p->keep[i], hash, 32) == 0)
            return true;
    }
    return false;
}

/* The block to drop first: an orphan (the oldest), else the lowest side
 * block; never one the reorg in progress keeps.  p->n when none. */
static size_t least_useful(const struct zbc_side_pool *p)
{
    size_t worst = p->n;
    for (size_t i = 0; i < p->n; i++) {
        const struct zbc_side_block *s = &p->b[i];
        if (kept(p, s->hash))
            continue;
        if (worst == p->n) {
            worst = i;
            continue;
        }
        const struct zbc_side_block *w = &p->b[worst];
        bool better;
        if (s->linked != w->linked)
            better = !s->linked;
        else if (!s->linked)
            better = s->seq < w->seq;
        else
            better = s->height < w->height;
        if (better)
            worst = i;
    }
    return worst;
}

/* Drops the least useful blocks until one more block of len bytes fits
 * both the count (ZBC_CHAIN_SIDE_MAX) and the byte budget (max_bytes). */
static int make_room(struct zbc_side_pool *p, size_t len, struct zbc_err *err)
{
    if (len > p->max_bytes)
        return zbc_fail(err, "a %zu-byte block is larger than the side "
                        "pool's %zu-byte budget", len, p->max_bytes);
    while (p->n >= ZBC_CHAIN_SIDE_MAX || p->bytes + len > p->max_bytes) {
        size_t worst = least_useful(p);
        if (worst == p->n)
            return zbc_fail(err, "the side pool is full (%zu blocks, %zu "
                            "bytes) of blocks the reorg in progress needs",
                            p->n, p->bytes);
        zbc_side_remove_at(p, worst);
    }
    return 1;
}

static int hold(struct zbc_side_pool *p, const struct zbc_block_header *h,
                const uint8_t hash[32], const uint8_t *bytes, size_t len,
                bool linked, struct zbc_err *err)
{
    if (!make_room(p, len, err))
        return 0;
    uint8_t *copy = malloc(len > 0 ? len : 1);
    if (copy == NULL)
        return zbc_fail(err, "out of memory holding a %zu-byte block", len);
    memcpy(copy, bytes, len);
    struct zbc_side_block *s = &p->b[p->n];
    memset(s, 0, sizeof *s);
    s->bytes = copy;
    s->len = len;
    memcpy(s->hash, hash, 32);
    memcpy(s->prev, h->prev_hash, 32);
    s->height = h->height;
    s->rank = h->rank;
    s->timestamp_ms = h->timestamp_ms;
    s->linked = linked;
    s->seq = ++p->seq;
    p->n++;
    p->bytes += len;
    if (!linked) {
        p->n_orphans++;
        p->orphan_bytes += len;
    }
    return 1;
}

int zbc_side_add(struct zbc_side_pool *p, const struct zbc_block_header *h,
                 const uint8_t hash[32], const uint8_t *bytes, size_t len,
                 struct zbc_err *err)
{
    return hold(p, h, hash, bytes, len, true, err);
}

static const uint8_t no_peer[32];

static bool same_peer(const struct zbc_side_block *s, const uint8_t *peer)
{
    return memcmp(s->peer, peer != NULL ? peer : no_peer, 32) == 0;
}

void zbc_side_orphan_usage(const struct zbc_side_pool *p, const uint8_t *peer,
                           size_t *count, size_t *bytes)
{
    if (peer == NULL) {
        *count = p->n_orphans;
        *bytes = p->orphan_bytes;
        return;
    }
    *count = 0;
    *bytes = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (!p->b[i].linked && same_peer(&p->b[i], peer)) {
            (*count)++;
            *bytes += p->b[i].len;
        }
    }
}

/* The oldest orphan of peer (NULL: no peer named), p->n when none. */
static size_t oldest_orphan_of(const struct zbc_side_pool *p,
                               const uint8_t *peer)
{
    size_t best = p->n;
    for (size_t i = 0; i < p->n; i++) {
        const struct zbc_side_block *s = &p->b[i];
        if (!s->linked && same_peer(s, peer) &&
            (best == p->n || s->seq < p->b[best].seq))
            best = i;
    }
    return best;
}

/* The peer holding the most orphan bytes (ties: the one whose oldest
 * orphan is oldest); its key in out.  false when there are no orphans.
 * O(orphans^2) over the orphans only, not the whole pool. */
static bool heaviest_peer(const struct zbc_side_pool *p, uint8_t out[32])
{
    size_t k = 0;
    size_t *idx = malloc((p->n_orphans > 0 ? p->n_orphans : 1) * sizeof *idx);
    if (idx == NULL) { /* no memory to weigh: the oldest orphan's sender */
        size_t i = p->n;
        for (size_t j = 0; j < p->n; j++) {
            if (!p->b[j].linked && (i == p->n || p->b[j].seq < p->b[i].seq))
                i = j;
        }
        if (i == p->n)
            return false;
        memcpy(out, p->b[i].peer, 32);
        return true;
    }
    for (size_t i = 0; i < p->n && k < p->n_orphans; i++) {
        if (!p->b[i].linked)
            idx[k++] = i;
    }
    size_t best = p->n, best_bytes = 0;
    for (size_t a = 0; a < k; a++) {
        const struct zbc_side_block *s = &p->b[idx[a]];
        size_t bytes = 0;
        for (size_t b = 0; b < k; b++) {
            if (memcmp(p->b[idx[b]].peer, s->peer, 32) == 0)
                bytes += p->b[idx[b]].len;
        }
        if (best == p->n || bytes > best_bytes ||
            (bytes == best_bytes && s->seq < p->b[best].seq)) {
            best = idx[a];
            best_bytes = bytes;
        }
    }
    free(idx);
    if (best == p->n)
        return false;
    memcpy(out, p->b[best].peer, 32);
    return true;
}

int zbc_side_add_orphan(struct zbc_side_pool *p,
                        const struct zbc_block_header *h,
                        const uint8_t hash[32], const uint8_t *bytes,
                        size_t len, const uint8_t *peer, uint64_t now_ms,
                        bool *held, struct zbc_err *err)
{
    *held = false;
    if (len > p->lim.peer_max_bytes || len > p->lim.max_bytes)
        return 1;
    const uint8_t *who = peer != NULL ? peer : no_peer;
    for (;;) {
        size_t n, used;
        zbc_side_orphan_usage(p, who, &n, &used);
        if (n < p->lim.peer_max_count && used + len <= p->lim.peer_max_bytes)
            break;
        size_t old = oldest_orphan_of(p, who);
        if (old == p->n)
            break;
        zbc_side_remove_at(p, old);
    }
    while (p->n_orphans >= p->lim.max_count ||
           p->orphan_bytes + len > p->lim.max_bytes) {
        uint8_t heavy[32];
        if (!heaviest_peer(p, heavy))
            break;
        zbc_side_remove_at(p, oldest_orphan_of(p, heavy));
    }
    if (!hold(p, h, hash, bytes, len, false, err))
        return 0;
    struct zbc_side_block *s = &p->b[p->n - 1];
    memcpy(s->peer, who, 32);
    s->received_ms = now_ms;
    *held = true;
    return 1;
}

bool zbc_side_take_orphan(struct zbc_side_pool *p, const uint8_t parent[32],
                          uint8_t **bytes, size_t *len, uint8_t peer[32])
{
    for (size_t i = 0; i < p->n; i++) {
        struct zbc_side_block *s = &p->b[i];
        if (s->linked || memcmp(s->prev, parent, 32) != 0)
            continue;
        *bytes = s->bytes;
        *len = s->len;
        memcpy(peer, s->peer, 32);
        s->bytes = NULL;
        zbc_side_remove_at(p, i);
        return true;
    }
    return false;
}

void zbc_side_prune(struct zbc_side_pool *p, uint32_t final_height,
                    uint64_t now_ms)
{
    for (size_t i = 0; i < p->n;) {
        const struct zbc_side_block *s = &p->b[i];
        bool stale = !s->linked && now_ms > s->received_ms &&
                     now_ms - s->received_ms > p->lim.max_age_ms;
        if (s->height <= final_height || stale)
            zbc_side_remove_at(p, i);
        else
            i++;
    }
}

void zbc_side_drop_subtree(struct zbc_side_pool *p, const uint8_t hash[32])
{
    size_t cap = p->n + 1, n = 0;
    uint8_t (*bad)[32] = malloc(cap * 32);
    if (bad == NULL) {
        zbc_side_remove(p, hash);
        return;
    }
    memcpy(bad[n++], hash, 32);
    zbc_side_remove(p, hash);
    for (size_t k = 0; k < n; k++) {
        for (size_t i = 0; i < p->n;) {
            if (memcmp(p->b[i].prev, bad[k], 32) == 0 && n < cap) {
                memcpy(bad[n++], p->b[i].hash, 32);
                zbc_side_remove_at(p, i);
            } else {
                i++;
            }
        }
    }
    free(bad);
}

/* ---- orphans ---- */

int zbc_fork_orphan_check(const struct zbc_genesis *g,
                          const struct zbc_block *b, struct zbc_err *err)
{
    const struct zbc_block_header *h = &b->header;
    if (h->version != ZBC_BLOCK_VERSION)
        return zbc_fail(err, "block version %u is not %d", h->version,
                        ZBC_BLOCK_VERSION);
    if (h->height < 2)
        return zbc_fail(err, "block at height %u does not build on the "
                        "genesis", h->height);
    if (!zbc_genesis_is_validator(g, h->producer))
        return zbc_fail(err, "block producer is not a validator of this "
                        "chain");
    /* every block is at least block_time_ms after its parent */
    uint64_t span = (uint64_t)h->height * g->block_time_ms; /* < 2^64 */
    if (g->genesis_time_ms > UINT64_MAX - span)
        return zbc_fail(err, "block height %u is beyond any chain's reach",
                        h->height);
    if (h->timestamp_ms < g->genesis_time_ms + span)
        return zbc_fail(err, "block timestamp %llu ms is before any chain "
                        "can reach height %u (%llu ms)",
                        (unsigned long long)h->timestamp_ms, h->height,
                        (unsigned long long)(g->genesis_time_ms + span));
    if (!zbc_block_check_body(g, b, err))
        return 0;
    return zbc_block_verify_signature(h, err);
}

/* ---- fork choice over a side branch ---- */

int zbc_fork_branch(struct zbc_chain *c, const uint8_t hash[32],
                    uint8_t (**out)[32], size_t *n, uint32_t *fork,
                    struct zbc_err *err)
{
    size_t cap = c->side.n, len = 0;
    uint8_t (*br)[32] = malloc((cap > 0 ? cap : 1) * 32);
    if (br == NULL)
        return zbc_fail(err, "out of memory walking a side branch");
    const uint8_t *cur = hash;
    for (;;) {
        const struct zbc_side_block *s = zbc_side_find(&c->side, cur);
        if (s == NULL) {
            bool found;
            int ok = zbc_chain_main_height_of(c, cur, fork, &found, err);
            if (ok && found)
                break;
            free(br);
            if (ok)
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

int zbc_fork_preferred(struct zbc_chain *c, const uint8_t (*br)[32], size_t n,
                       uint32_t fork, bool *better, struct zbc_err *err)
{
    struct zbc_tip side = {0}, best = {0};
    for (size_t i = 0; i < n; i++) {
        const struct zbc_side_block *s = zbc_side_find(&c->side, br[i]);
        if (s == NULL)
            return zbc_fail(err, "side branch block vanished");
        if (!zbc_tip_extend(&side, &side, s->rank, s->timestamp_ms, s->hash,
                            err))
            return 0;
    }
    for (uint32_t h = fork + 1; h <= c->tip.height; h++) {
        struct zbc_block_header hdr;
        uint8_t hash[32];
        if (!zbc_chain_main_header(c, h, &hdr, err))
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
    if (c->justified.height > fork && side_j == 0) {
        bool found;
        if (!zbc_chain_main_height_of(c, c->justified.hash, &jh, &found, err))
            return 0;
        if (found)
            best_j = c->justified.height;
    }
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
    bool found;
    /* the held index entries first: the block's own are then in the
     * ledger, removed below with it */
    if (!zbc_chain_index_flush_txn(c, t, err))
        return zbc_fail_prefix(err, "cannot undo block %u", height);
    if (!zbc_store_txn_block(t, height, &u->bytes, &u->len, &found, err))
        return 0;
    if (!found)
        return zbc_fail(err, "tip block %u is missing", height);
    uint8_t *ubytes = NULL;
    size_t ulen = 0;
    if (!zbc_store_txn_undo(t, height, &ubytes, &ulen, &found, err))
        return 0;
    if (!found)
        return zbc_fail(err, "undo record of block %u is missing", height);
    struct zbc_undo undo = {0};
    int ok = zbc_undo_decode(&undo, ubytes, ulen, err);
    free(ubytes);
    if (ok)
        ok = zbc_state_undo_block(st, &undo, err) &&
             zbc_app_index_block(t, st, &undo, u->parent->height,
                                 u->parent->hash, err);
    zbc_undo_free(&undo);
    if (!ok)
        return zbc_fail_prefix(err, "cannot undo block %u", height);
    /* the account history index, before the events go (the block's
     * transaction list goes with it: zbc_store_pop_block) */
    uint8_t *eb = NULL;
    size_t elen = 0;
    struct zbc_events ev = {0};
    ok = zbc_store_txn_events(t, height, &eb, &elen, &found, err) &&
         (!found || zbc_events_decode(&ev, eb, elen, err)) &&
         zbc_history_undo_block(t, height, &ev, u->parent->height,
                                u->parent->hash, err);
    free(eb);
    zbc_events_free(&ev);
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

int zbc_fork_undo_tip(struct zbc_chain *c, uint8_t **bytes, size_t *len,
                      struct zbc_err *err)
{
    struct zbc_parent parent;
    if (!zbc_chain_main_parent(c, c->tip.height - 1, &parent, err))
        return 0;
    struct undo_ctx u = {.parent = &parent};
    if (!zbc_chain_index_ready(c, err))
        return 0;
    if (!zbc_chain_state_write(c, undo_tip_fn, &u, err)) {
        free(u.bytes);
        return 0;
    }
    struct zbc_block_header h;
    uint8_t hash[32];
    memcpy(hash, c->tip.hash, 32);
    c->tip = parent;
    memcpy(c->tip_state_root, u.root, 32);
    /* written up to the new tip (the markers name it): the buffers empty,
     * every floor at the parent, not at the undone block */
    zbc_chain_index_flushed(c);
    if (!zbc_block_header_decode(&h, u.bytes, ZBC_BLOCK_HEADER_LEN, err) ||
        !zbc_side_add(&c->side, &h, hash, u.bytes, u.len, err))
        zbc_log_warn("undone block %u not kept: %s", parent.height + 1,
                     err->msg);
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
        for (uint32_t k = 0; k < b.n_tx; k++)
            zbc_chain_readmit_tx(c, b.txs[k].bytes, b.txs[k].len, now_ms);
        zbc_block_free(&b);
    }
}

/* Applies the side block `hash` on the tip and takes it out of the pool.
 * *invalid: it failed because it broke a rule (else the ledger failed). */
static int apply_side(struct zbc_chain *c, const uint8_t hash[32],
                      uint64_t now_ms, bool *invalid, struct zbc_err *err)
{
    *invalid = false;
    struct zbc_side_block *s = zbc_side_find(&c->side, hash);
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
        ok = zbc_chain_apply_on_tip(c, &b, now_ms, &info, invalid, err);
        zbc_block_free(&b);
    }
    if (ok)
        zbc_side_remove(&c->side, hash);
    else
        s->bytes = bytes, bytes = NULL;
    free(bytes);
    return ok;
}

int zbc_fork_reorg_to(struct zbc_chain *c, const uint8_t target[32],
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
    if (!zbc_fork_branch(c, target, &br, &n, &fork, err))
        return 0;
    /* the blocks undone below must not push the branch out of the pool */
    const uint8_t (*outer_keep)[32] = c->side.keep;
    size_t outer_n_keep = c->side.n_keep;
    c->side.keep = (const uint8_t (*)[32])br;
    c->side.n_keep = n;
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
        ok = zbc_fork_undo_tip(c, &undone[n_undone], &lens[n_undone], err);
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
    c->side.keep = outer_keep;
    c->side.n_keep = outer_n_keep;
    if (!ok && i > 0) {
        char hex[65];
        zbc_hex_encode(hex, br[i - 1], 32);
        if (bad) {
            zbc_log_warn("reorg: branch block %s refused: %s", hex, err->msg);
            zbc_side_drop_subtree(&c->side, br[i - 1]);
        } else {
            zbc_log_error("reorg: branch block %s not stored: %s", hex,
                          err->msg);
        }
        if (may_return && memcmp(c->tip.hash, old_tip, 32) != 0) {
            struct zbc_err e2 = {{0}};
            if (!zbc_fork_reorg_to(c, old_tip, now_ms, false, r, NULL, &e2))
                zbc_log_error("reorg: cannot switch back: %s", e2.msg);
        }
    }
    if (n_undone > 0 && memcmp(c->tip.hash, old_tip, 32) != 0) {
        struct zbc_fork_stats *st = &c->side.stats;
        st->branch_switches++;
        st->blocks_undone += n_undone;
        if (n_undone > st->deepest_switch)
            st->deepest_switch = (uint32_t)n_undone;
    }
    if (n_undone > 0)
        readmit(c, undone, lens, n_undone, now_ms);
    for (size_t k = 0; k < n_undone; k++)
        free(undone[k]);
    free(undone);
    free(lens);
    free(br);
    zbc_side_prune(&c->side, zbc_reorg_final_height(c->tip.height), now_ms);
    if (invalid != NULL)
        *invalid = bad;
    return ok;
}

void zbc_fork_stats(const struct zbc_chain *c, struct zbc_fork_stats *out)
{
    *out = c->side.stats;
}
