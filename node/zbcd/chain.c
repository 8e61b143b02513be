#include "node/zbcd/txseen.h"
#include "node/zbcd/chain.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "consensus/apps_apply.h"
#include "consensus/fork_choice.h"
#include "crypto/hex.h"
#include "node/zbcd/chain_internal.h"
#include "node/zbcd/app_index.h"
#include "node/zbcd/history.h"
#include "node/zbcd/log.h"

/* ---- state over a store transaction ---- */

struct state_call {
    struct zbc_chain *c;
    zbc_chain_state_fn fn;
    void *arg;
};

/* The verify pool as the state root's runner (zbc_lthash_accel). */
static void lthash_run(void *pool, size_t n, void (*fn)(void *ctx, size_t i),
                       void *ctx)
{
    zbc_verify_pool_run(pool, n, fn, ctx);
}

static int state_call_fn(struct zbc_store_txn *t, void *arg,
                         struct zbc_err *err)
{
    struct state_call *sc = arg;
    struct zbc_kv kv;
    struct zbc_state st;
    zbc_store_txn_kv(t, &kv);
    if (!zbc_state_open(&st, kv, err))
        return 0;
    zbc_state_set_accel(&st, &sc->c->accel);
    int ok = sc->fn(sc->c, &st, t, sc->arg, err);
    zbc_state_close(&st);
    return ok;
}

int zbc_chain_state_read(struct zbc_chain *c, zbc_chain_state_fn fn,
                         void *arg, struct zbc_err *err)
{
    struct state_call sc = {c, fn, arg};
    return zbc_store_read(c->store, state_call_fn, &sc, err);
}

int zbc_chain_state_write(struct zbc_chain *c, zbc_chain_state_fn fn,
                          void *arg, struct zbc_err *err)
{
    struct state_call sc = {c, fn, arg};
    return zbc_store_write(c->store, state_call_fn, &sc, err);
}

static void chain_settle(struct zbc_chain *c);
static double mono_us(void);

/* ---- the node-local indexes, written in batches ---- */

/* A flush at least this long is logged at info (ms). */
#define ZBC_CHAIN_INDEX_SLOW_MS 100.0

static void index_free(struct zbc_chain *c)
{
    for (unsigned i = 0; i < c->ix_n; i++)
        if (c->ix_hist != NULL)
            zbc_history_buf_free(c->ix_hist[i]);
    zbc_app_index_buf_free(c->ix_apps[0]);
    zbc_app_index_cycle_free(c->ix_cycle);
    c->ix_cycle = NULL;
    free(c->ix_hist);
    free(c->ix_floor);
}

static int index_alloc(struct zbc_chain *c, unsigned n, struct zbc_err *err)
{
    c->ix_n = n;
    c->ix_hist = calloc(n, sizeof *c->ix_hist);
    c->ix_floor = calloc(n, sizeof *c->ix_floor);
    c->ix_apps[0] = zbc_app_index_buf_new();
    if (c->ix_hist == NULL || c->ix_floor == NULL ||
        c->ix_apps[0] == NULL)
        return zbc_fail(err, "out of memory creating the index buffers");
    for (unsigned i = 0; i < n; i++) {
        c->ix_hist[i] = zbc_history_buf_new();
        if (c->ix_hist[i] == NULL)
            return zbc_fail(err, "out of memory creating the index buffers");
    }
    return 1;
}

static void slice_clear(struct zbc_chain *c, unsigned s)
{
    zbc_history_buf_clear(c->ix_hist[s]);
}

/* The lowest floor: every index is complete in the ledger up to it. */
static uint32_t min_floor(const struct zbc_chain *c)
{
    uint32_t m = c->ix_app_floor < c->tip.height ? c->ix_app_floor
                                                 : c->tip.height;
    for (unsigned i = 0; i < c->ix_n; i++)
        if (c->ix_floor[i] < m)
            m = c->ix_floor[i];
    return m;
}

/* The markers of the indexes written in batches (the transaction index
 * has none: node/zbcd/tx_index.h). */
#define IX_HIST 0
#define IX_APPS 1
#define IX_MARKERS 2
static const char *const ix_markers[IX_MARKERS] = {ZBC_HISTORY_MARKER,
                                                   ZBC_APP_INDEX_MARKER};

/* Where the two markers stand (the tip for one at the tip); *app_gone:
 * the app list index has no usable marker (a crash inside a cycle of
 * its writes: the index is to be rebuilt). */
static int marker_heights(struct zbc_store_txn *t,
                          uint32_t at_out[IX_MARKERS], bool *app_gone,
                          struct zbc_err *err)
{
    *app_gone = false;
    for (unsigned k = 0; k < IX_MARKERS; k++) {
        struct zbc_store_meta m;
        enum zbc_store_marker state;
        uint32_t at;
        if (!zbc_store_txn_marker(t, ix_markers[k], &m, &state, &at, err))
            return 0;
        if (state == ZBC_STORE_MARKER_STALE && k == IX_APPS) {
            *app_gone = true;
            at_out[k] = m.has_tip ? m.tip_height : 0;
            continue;
        }
        if (state == ZBC_STORE_MARKER_STALE)
            return zbc_fail(err, "meta %s names no block of the best chain",
                            ix_markers[k]);
        if (state == ZBC_STORE_MARKER_AT_TIP)
            at = m.has_tip ? m.tip_height : 0;
        at_out[k] = at;
    }
    return 1;
}

struct reload_args {
    uint32_t from, app_from;
    bool app_gone;
};

static int reload_fn(struct zbc_chain *c, struct zbc_state *st,
                     struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct reload_args *ra = arg;
    uint32_t at[IX_MARKERS];
    if (!marker_heights(t, at, &ra->app_gone, err))
        return 0;
    ra->from = at[IX_HIST];
    ra->app_from = at[IX_APPS];
    return zbc_history_catch_up(t, c->ix_hist, c->ix_n, ra->from, err) &&
           (ra->app_gone ||
            zbc_app_index_catch_up(t, st, c->ix_apps, 1, ra->app_from, err));
}

/* A ledger without blocks gets the index markers at the genesis:
 * an absent marker on a ledger with blocks means one made before that
 * index (rebuilt on open), never one whose first write has not come. */
static int mark_fresh_fn(struct zbc_store_txn *t, void *arg,
                         struct zbc_err *err)
{
    struct zbc_chain *c = arg;
    struct zbc_store_meta m;
    if (!zbc_store_txn_meta(t, &m, err))
        return 0;
    for (unsigned k = 0; !m.has_tip && k < IX_MARKERS; k++) {
        uint8_t *v = NULL;
        size_t len = 0;
        bool has;
        if (!zbc_store_txn_get(t, ZBC_STORE_DB_META, ix_markers[k],
                               strlen(ix_markers[k]), &v, &len, &has, err))
            return 0;
        free(v);
        if (!has && !zbc_store_put_checkpoint(t, ix_markers[k], 0, c->g->hash,
                                              err))
            return 0;
    }
    return 1;
}

/* The TXSEEN entries of the last ZBC_TXSEEN_SLICES stored blocks that a
 * crash kept from the ledger (node/zbcd/txseen.h): held again, and
 * written in their slices' turns. */
static int txseen_refill_fn(struct zbc_chain *c, struct zbc_state *st,
                            struct zbc_store_txn *t, void *arg,
                            struct zbc_err *err)
{
    (void)st;
    (void)arg;
    uint32_t tip = c->tip.height;
    uint32_t from = tip >= ZBC_TXSEEN_SLICES ? tip - ZBC_TXSEEN_SLICES + 1
                                             : 1;
    for (uint32_t h = from; h <= tip; h++) {
        uint8_t(*hashes)[32];
        uint32_t n;
        if (!zbc_tx_index_block_hashes(t, h, &hashes, &n, err))
            return 0;
        int ok = 1;
        for (uint32_t i = 0; ok && i < n; i++) {
            uint8_t *v = NULL;
            size_t len = 0;
            bool stored;
            ok = zbc_store_txn_get(t, ZBC_STORE_DB_S_TXSEEN, hashes[i], 32,
                                   &v, &len, &stored, err);
            free(v);
            if (ok && !stored)
                ok = zbc_store_txseen_refill(c->store, hashes[i], h, err);
        }
        free(hashes);
        if (!ok)
            return 0;
    }
    return 1;
}

/* Refills the slices with the blocks above the index markers (the
 * ledger's tip and the chain's are the same): on open, and after a lost
 * batch took the tip back. */
static int index_reload(struct zbc_chain *c, struct zbc_err *err)
{
    c->ix_lost = true;
    for (unsigned i = 0; i < c->ix_n; i++)
        slice_clear(c, i);
    zbc_app_index_buf_clear(c->ix_apps[0]);
    zbc_app_index_cycle_free(c->ix_cycle);
    c->ix_cycle = NULL;
    struct reload_args ra = {0, 0, false};
    if (!zbc_chain_state_read(c, reload_fn, &ra, err))
        return zbc_fail_prefix(err, "catching up the indexes");
    if (ra.app_gone) {
        /* a lost write took the tip back inside a cycle of the app
         * index's writes: rebuilt from the APPS table at the tip */
        bool rebuilt;
        uint64_t apps;
        if (!zbc_app_index_ensure(c->store, &rebuilt, &apps, err))
            return zbc_fail_prefix(err, "catching up the indexes");
        zbc_log_info("ledger: app list index rebuilt from %llu stored apps",
                     (unsigned long long)apps);
    }
    for (unsigned i = 0; i < c->ix_n; i++)
        c->ix_floor[i] = ra.from;
    c->ix_app_floor = ra.app_from;
    /* the tip may have gone back (a lost batch): a slice may be written
     * at the next block again */
    if (c->ix_flushed_at > c->tip.height)
        c->ix_flushed_at = c->tip.height;
    c->ix_lost = false;
    return 1;
}

/* The hash of the best-chain block at height (the genesis' at 0). */
static int main_hash(struct zbc_chain *c, struct zbc_store_txn *t,
                     uint32_t height, uint8_t hash[32], struct zbc_err *err)
{
    if (height == c->tip.height) {
        memcpy(hash, c->tip.hash, 32);
        return 1;
    }
    if (height == 0) {
        memcpy(hash, c->g->hash, 32);
        return 1;
    }
    uint8_t head[ZBC_BLOCK_HEADER_LEN];
    size_t len = 0;
    bool found;
    struct zbc_block_header h;
    if (!zbc_store_txn_block_head(t, height, head, sizeof head, &len, &found,
                                  err))
        return 0;
    if (!found || len != sizeof head ||
        !zbc_block_header_decode(&h, head, len, err))
        return zbc_fail(err, "the header of block %u cannot be read", height);
    zbc_block_hash(hash, &h);
    return 1;
}

/* What a write does with the app list index: nothing, the next parts of
 * the cycle, or everything held (the cycle's parts left, then every held
 * app, the marker at the tip). */
enum apps_write { APPS_NONE, APPS_PARTS, APPS_ALL };

/* Parts of a cycle written a block: all of them within ix_n blocks. */
static unsigned app_parts(const struct zbc_chain *c)
{
    if (zbc_app_index_cycle_count(c->ix_cycle) == 0)
        return ZBC_APP_INDEX_PARTS; /* nothing to write but the marker */
    return (ZBC_APP_INDEX_PARTS + c->ix_n - 1) / c->ix_n;
}

/* Inside a write transaction at the tip: writes the slices in `which`
 * (NULL: all, and all the apps) and the apps as `apps` says, and moves
 * the markers: history's to the lowest slice floor left,
 * the apps' with the cycle's last part (to its tip) or, writing
 * everything, to the tip.  *rebuilt: the app index was rebuilt whole. */
static int flush_slices_txn(struct zbc_chain *c, struct zbc_store_txn *t,
                            const bool *which, enum apps_write apps,
                            bool *rebuilt, struct zbc_err *err)
{
    *rebuilt = false;
    if (c->ix_lost)
        return zbc_fail(err, "the held index entries are incomplete");
    uint32_t low = c->tip.height;
    for (unsigned i = 0; i < c->ix_n; i++) {
        if (which != NULL && !which[i]) {
            if (c->ix_floor[i] < low)
                low = c->ix_floor[i];
            continue;
        }
        if (!zbc_history_flush(t, c->ix_hist[i], err))
            return 0;
    }
    uint8_t hash[32];
    if (!main_hash(c, t, low, hash, err) ||
        !zbc_store_put_checkpoint(t, ix_markers[IX_HIST], low, hash, err))
        return 0;
    if (which == NULL)
        apps = APPS_ALL;
    if (apps == APPS_NONE)
        return 1;
    if (apps == APPS_PARTS)
        return zbc_app_index_cycle_write(t, c->ix_cycle, app_parts(c),
                                         c->tip.height, c->tip.hash, rebuilt,
                                         err);
    if (c->ix_cycle != NULL &&
        !zbc_app_index_cycle_write(t, c->ix_cycle, ZBC_APP_INDEX_PARTS,
                                   c->tip.height, c->tip.hash, rebuilt, err))
        return 0;
    return zbc_app_index_flush(t, c->ix_apps[0], c->tip.height, err) &&
           zbc_store_put_checkpoint(t, ix_markers[IX_APPS], c->tip.height,
                                    c->tip.hash, err);
}

int zbc_chain_index_flush_txn(struct zbc_chain *c, struct zbc_store_txn *t,
                              struct zbc_err *err)
{
    bool rebuilt;
    return flush_slices_txn(c, t, NULL, APPS_ALL, &rebuilt, err);
}

/* Every held app is in the ledger (the marker at the tip). */
static void apps_written(struct zbc_chain *c)
{
    zbc_app_index_buf_clear(c->ix_apps[0]);
    zbc_app_index_cycle_free(c->ix_cycle);
    c->ix_cycle = NULL;
    c->ix_app_floor = c->tip.height;
    c->ix_app_early = 0;
}

void zbc_chain_index_flushed(struct zbc_chain *c)
{
    for (unsigned i = 0; i < c->ix_n; i++) {
        slice_clear(c, i);
        c->ix_floor[i] = c->tip.height;
    }
    apps_written(c);
    c->ix_flushed_at = c->tip.height;
}

struct flush_args {
    const bool *which;
    enum apps_write apps;
    bool rebuilt;
};

static int flush_fn(struct zbc_chain *c, struct zbc_state *st,
                    struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    (void)st;
    struct flush_args *fa = arg;
    return flush_slices_txn(c, t, fa->which, fa->apps, &fa->rebuilt, err);
}

/* Writes, in a write transaction of its own, everything (one ==
 * c->ix_n), or slice `one` (none when above c->ix_n) and the apps as
 * `apps` says. */
static int flush_slices(struct zbc_chain *c, unsigned one,
                        enum apps_write apps, struct zbc_err *err)
{
    size_t hist = 0;
    bool all = one == c->ix_n;
    bool *which = NULL;
    if (!all) {
        which = calloc(c->ix_n, sizeof *which);
        if (which == NULL)
            return zbc_fail(err, "out of memory writing the indexes");
        if (one < c->ix_n)
            which[one] = true;
    }
    for (unsigned i = 0; i < c->ix_n; i++)
        if (all || which[i])
            hist += zbc_history_buf_count(c->ix_hist[i]);
    if (all)
        apps = APPS_ALL;
    size_t n_apps = apps == APPS_ALL ? zbc_app_index_buf_count(c->ix_apps[0])
                    : apps == APPS_PARTS
                        ? zbc_app_index_cycle_count(c->ix_cycle)
                        : 0;
    unsigned part = apps == APPS_PARTS ? zbc_app_index_cycle_done(c->ix_cycle)
                                       : 0;
    unsigned parts = apps == APPS_PARTS ? app_parts(c) : 0;
    uint32_t held = zbc_chain_index_held(c);
    double t0 = mono_us();
    struct flush_args fa = {which, apps, false};
    int ok = zbc_chain_state_write(c, flush_fn, &fa, err);
    free(which);
    if (!ok)
        return zbc_fail_prefix(err, "writing the indexes of the last %u "
                               "blocks", held);
    if (all) {
        zbc_chain_index_flushed(c);
    } else {
        if (one < c->ix_n) {
            slice_clear(c, one);
            c->ix_floor[one] = c->tip.height;
        }
        if (apps == APPS_PARTS && fa.rebuilt) {
            apps_written(c); /* the whole index, from the tip's APPS */
        } else if (apps == APPS_PARTS) {
            zbc_app_index_cycle_committed(c->ix_cycle, parts);
            if (zbc_app_index_cycle_done(c->ix_cycle) == ZBC_APP_INDEX_PARTS) {
                zbc_app_index_buf_drop(c->ix_apps[0],
                                       zbc_app_index_cycle_gen(c->ix_cycle));
                c->ix_app_floor = zbc_app_index_cycle_height(c->ix_cycle);
                c->ix_app_early = 0;
                zbc_app_index_cycle_free(c->ix_cycle);
                c->ix_cycle = NULL;
            }
        }
        c->ix_flushed_at = c->tip.height;
    }
    double ms = (mono_us() - t0) / 1000.0;
    /* info when it held the loop long enough to matter to a block */
    char what[64] = "";
    if (apps == APPS_PARTS) {
        unsigned last = part + parts < ZBC_APP_INDEX_PARTS
                            ? part + parts
                            : ZBC_APP_INDEX_PARTS;
        if (last == part + 1)
            snprintf(what, sizeof what, ", part %u of %u", last,
                     ZBC_APP_INDEX_PARTS);
        else
            snprintf(what, sizeof what, ", parts %u-%u of %u", part + 1,
                     last, ZBC_APP_INDEX_PARTS);
    }
    zbc_log(ms >= ZBC_CHAIN_INDEX_SLOW_MS ? ZBC_LOG_INFO : ZBC_LOG_DEBUG,
            "ledger: indexes written at height %u (%s: %zu history "
            "entries, %zu apps%s) in %.0f ms", c->tip.height,
            all ? "all" : one < c->ix_n ? "a slice" : "apps", hist,
            n_apps, what, ms);
    return 1;
}

int zbc_chain_index_flush(struct zbc_chain *c, struct zbc_err *err)
{
    chain_settle(c);
    if (c->ix_lost && !index_reload(c, err))
        return 0;
    if (zbc_chain_index_held(c) == 0)
        return 1;
    return flush_slices(c, c->ix_n, APPS_ALL, err);
}

void zbc_chain_index_maintain(struct zbc_chain *c)
{
    struct zbc_err err = {{0}};
    chain_settle(c);
    if (c->ix_lost && !index_reload(c, &err)) {
        zbc_log_ratelimited("chain-index-flush", ZBC_LOG_PERIOD_MS,
                            ZBC_LOG_WARN, "ledger: %s (tried again)",
                            err.msg);
        return;
    }
    /* one slice a block: the one written longest ago, once it holds the
     * interval's blocks */
    if (c->tip.height <= c->ix_flushed_at)
        return;
    unsigned s = 0;
    for (unsigned i = 1; i < c->ix_n; i++)
        if (c->ix_floor[i] < c->ix_floor[s])
            s = i;
    bool slice = c->tip.height - c->ix_floor[s] >= c->ix_n;
    /* the apps: the next parts of the cycle, or a new cycle every ix_n
     * blocks */
    bool apps = c->ix_cycle != NULL ||
                c->tip.height - c->ix_app_floor + c->ix_app_early >= c->ix_n;
    if (!slice && !apps)
        return;
    if (apps && c->ix_cycle == NULL &&
        !zbc_app_index_freeze(c->ix_apps[0], c->tip.height, c->tip.hash,
                              &c->ix_cycle, &err)) {
        zbc_log_ratelimited("chain-index-flush", ZBC_LOG_PERIOD_MS,
                            ZBC_LOG_WARN, "ledger: %s (held until the next "
                            "try)", err.msg);
        return;
    }
    if (!flush_slices(c, slice ? s : c->ix_n + 1,
                      apps ? APPS_PARTS : APPS_NONE, &err))
        zbc_log_ratelimited("chain-index-flush", ZBC_LOG_PERIOD_MS,
                            ZBC_LOG_WARN, "ledger: %s (held until the next "
                            "try)", err.msg);
}

size_t zbc_chain_index_apps_held(const struct zbc_chain *c)
{
    return zbc_app_index_buf_count(c->ix_apps[0]);
}

uint32_t zbc_chain_index_held(const struct zbc_chain *c)
{
    return c->tip.height - min_floor(c);
}

int zbc_chain_index_ready(struct zbc_chain *c, struct zbc_err *err)
{
    chain_settle(c);
    return !c->ix_lost || index_reload(c, err);
}

int zbc_chain_history_page(struct zbc_chain *c, const struct zbc_addr *a,
                           bool has_before, uint32_t before_height,
                           uint32_t before_index, size_t limit,
                           struct zbc_history_page *p, struct zbc_err *err)
{
    if (!zbc_chain_index_ready(c, err))
        return 0;
    unsigned sl = zbc_history_slice(a, c->ix_n);
    return zbc_history_page(c->store, c->ix_hist[sl], c->ix_floor[sl], a,
                            has_before, before_height, before_index, limit, p,
                            err);
}

/* After a block is committed: its index entries are held (its events;
 * the apps it changed, st the state it left). */
static void index_note_block(struct zbc_chain *c, struct zbc_state *st,
                             const struct zbc_block *b,
                             const struct zbc_events *ev,
                             const struct zbc_undo *undo)
{
    if (c->ix_lost)
        return;
    struct zbc_err err = {{0}};
    uint32_t h = b->header.height;
    int ok = zbc_history_bufs_add(c->ix_hist, c->ix_n, h,
                                  b->header.timestamp_ms, ev, &err) &&
             zbc_app_index_bufs_note(c->ix_apps, 1, st, undo, false, &err);
    if (!ok) {
        /* refilled from the stored blocks before the next read or flush */
        zbc_log_warn("ledger: index entries of block %u not held (%s): "
                     "re-reading them from the ledger", h, err.msg);
        c->ix_lost = true;
    }
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
    bool full;                /* also rescan every table */
    uint8_t root[32];
};

/* The stored state must be the tip's (docs/node.md §3 "Start-up
 * checks"): same height, the genesis supply, and (above genesis) the tip
 * header's root from the persisted accumulator: O(1).  With full, the
 * accumulator must also equal a full rescan of every state table (reads
 * the whole state: a minute at a million accounts). */
static int verify_state_fn(struct zbc_chain *c, struct zbc_state *st,
                           struct zbc_store_txn *t, void *arg,
                           struct zbc_err *err)
{
    (void)t;
    struct verify_ctx *v = arg;
    uint32_t height;
    if (!zbc_ledger_height(st, &height, err))
        return zbc_fail_prefix(err, "cannot read the state height");
    if (height != v->height)
        return zbc_fail(err, "the ledger state is at height %u but the tip "
                        "block is at height %u", height, v->height);
    uint64_t supply;
    if (!zbc_ledger_supply(st, &supply, err))
        return zbc_fail_prefix(err, "ledger state is damaged");
    if (supply != c->g->total_supply)
        return zbc_fail(err, "ledger state is damaged: its supply %llu is not "
                        "the genesis supply %llu", (unsigned long long)supply,
                        (unsigned long long)c->g->total_supply);
    if (v->full) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        if (!zbc_state_check_root(st, err))
            return zbc_fail_prefix(err, "ledger state is damaged");
        clock_gettime(CLOCK_MONOTONIC, &t1);
        zbc_log_info("ledger: state verified by a full rescan in %.1f s",
                     (double)(t1.tv_sec - t0.tv_sec) +
                         (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    }
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
                    bool full, struct zbc_err *err)
{
    /* at height 0 the rescan reads only the genesis state: always */
    struct verify_ctx v = {.full = full || !m->has_tip};
    struct zbc_block_header h;
    if (!m->has_tip) {
        zbc_parent_genesis(&c->tip, c->g);
    } else {
        uint8_t *bytes = NULL;
        size_t len = 0;
        bool found;
        if (!zbc_store_block(c->store, m->tip_height, &bytes, &len, &found,
                             err))
            return 0;
        if (!found)
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
    /* before the state is read: a full rescan must see the entries a
     * crash kept from the TXSEEN table */
    if (!zbc_chain_state_read(c, txseen_refill_fn, NULL, err))
        return zbc_fail_prefix(err, "taking the last blocks' TXSEEN "
                               "entries");
    if (!zbc_chain_state_read(c, verify_state_fn, &v, err))
        return zbc_fail_prefix(err, "refusing to start");
    memcpy(c->tip_state_root, v.root, 32);
    return 1;
}

static void bound_pool(struct zbc_chain *c);

int zbc_chain_open(struct zbc_chain **out, const struct zbc_chain_config *cfg,
                   struct zbc_err *err)
{
    struct zbc_chain *c = calloc(1, sizeof *c);
    if (c == NULL)
        return zbc_fail(err, "out of memory opening the chain");
    c->g = cfg->genesis;
    c->net = (struct zbc_net_status){0, true, true, ""};
    if (!zbc_side_init(&c->side, &cfg->orphans, err)) {
        free(c);
        return 0;
    }
    if (cfg->key != NULL) {
        c->has_key = true;
        c->key = *cfg->key;
    }
    if (!zbc_store_open(&c->store, cfg->ledger_dir, &cfg->store, err)) {
        zbc_side_free(&c->side);
        free(c);
        return 0;
    }
    char want[65];
    hex32(want, c->g->hash);
    struct zbc_store_meta m;
    if (!zbc_store_get_meta(c->store, &m, err))
        goto fail;
    if (!m.has_genesis) {
        if (!zbc_chain_state_write(c, init_genesis_fn, NULL, err))
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
    /* before the tip is loaded: the TXSEEN refill reads the lists */
    bool rebuilt, emptied;
    uint32_t indexed;
    if (!zbc_tx_index_ensure(c->store, &rebuilt, &indexed, &emptied, err))
        goto fail;
    if (rebuilt)
        zbc_log_info("ledger: transaction lists written for %u stored "
                     "blocks", indexed);
    if (emptied)
        zbc_log_info("ledger: the old transaction index table emptied "
                     "(positions now come from TXSEEN and block_txs)");
    if (!load_tip(c, &m, cfg->verify_state, err))
        goto fail;
    if (!zbc_history_ensure(c->store, &rebuilt, &indexed, err))
        goto fail;
    if (rebuilt)
        zbc_log_info("ledger: account history index built from %u stored "
                     "blocks", indexed);
    uint64_t app_entries;
    if (!zbc_app_index_ensure(c->store, &rebuilt, &app_entries, err))
        goto fail;
    if (rebuilt)
        zbc_log_info("ledger: app list index built from %llu stored apps",
                     (unsigned long long)app_entries);
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
    c->lthash = zbc_lthash_cache_new(ZBC_CHAIN_LTHASH_CACHE);
    if (c->pool == NULL || c->sigs == NULL || c->lthash == NULL) {
        zbc_fail(err, "out of memory creating the verification pool");
        goto fail;
    }
    c->accel = (struct zbc_lthash_accel){c->lthash, lthash_run, c->pool};
    c->known = zbc_sig_cache_known(c->sigs);
    uint32_t pace = c->g->block_time_ms < c->g->smith_delay_ms
                        ? c->g->block_time_ms
                        : c->g->smith_delay_ms;
    /* a lone validator's late block has no competitor to lose to: half
     * the pace, the other half for admission and the API */
    uint32_t div = c->g->n_validators == 1 ? ZBC_CHAIN_BUDGET_DIV_ALONE
                                           : ZBC_CHAIN_BUDGET_DIV;
    c->budget_ms = cfg->block_budget_ms != 0 ? cfg->block_budget_ms
                                             : pace / div;
    if (c->budget_ms == 0)
        c->budget_ms = 1;
    c->build_us_per_tx = ZBC_CHAIN_BUILD_GUESS_US;
    c->loop_share = ZBC_CHAIN_LOOP_SHARE_GUESS;
    bound_pool(c);
    if (c->has_key && !zbc_genesis_is_validator(c->g, c->key.pk))
        zbc_log_warn("this node's key is not a validator of chain %s: it "
                     "will follow the chain but never produce",
                     c->g->chain_name);
    uint32_t every = cfg->index_flush_blocks != 0
                         ? cfg->index_flush_blocks
                         : ZBC_CHAIN_INDEX_FLUSH_BLOCKS;
    if (every > ZBC_CHAIN_INDEX_FLUSH_MAX) {
        zbc_fail(err, "index flush interval %u is above %u blocks", every,
                 ZBC_CHAIN_INDEX_FLUSH_MAX);
        goto fail;
    }
    if (!index_alloc(c, every, err))
        goto fail;
    c->ix_app_early = cfg->index_app_early % every;
    /* after a crash: the blocks above the markers, written now */
    c->ix_flushed_at = c->tip.height;
    if (c->tip.height == 0 && !zbc_store_write(c->store, mark_fresh_fn, c, err))
        goto fail;
    if (!index_reload(c, err) || !zbc_chain_index_flush(c, err))
        goto fail;
    *out = c;
    return 1;
fail:
    index_free(c);
    zbc_mempool_free(c->mp);
    zbc_verify_pool_free(c->pool);
    zbc_lthash_cache_free(c->lthash);
    zbc_sig_cache_free(c->sigs);
    zbc_store_close(c->store);
    zbc_side_free(&c->side);
    free(c);
    return 0;
}

void zbc_chain_close(struct zbc_chain *c)
{
    if (c == NULL)
        return;
    struct zbc_err err = {{0}};
    if (!zbc_chain_index_flush(c, &err))
        zbc_log_warn("ledger: the index entries of the last %u blocks were "
                     "not written (%s): the next start catches them up",
                     zbc_chain_index_held(c), err.msg);
    index_free(c);
    zbc_mempool_free(c->mp);
    zbc_verify_pool_free(c->pool);
    zbc_lthash_cache_free(c->lthash);
    zbc_sig_cache_free(c->sigs);
    zbc_side_free(&c->side);
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

bool zbc_chain_mempool_tx(const struct zbc_chain *c, const uint8_t hash[32],
                         const uint8_t **raw, size_t *len)
{
    return zbc_mempool_find(c->mp, hash, NULL, raw, len);
}

size_t zbc_chain_mempool_bytes(const struct zbc_chain *c)
{
    return zbc_mempool_bytes(c->mp);
}

void zbc_chain_mempool_gate(const struct zbc_chain *c, size_t *room_txs,
                            size_t *room_bytes, bool *has_cheapest,
                            int64_t *cheapest_fee, size_t *cheapest_len)
{
    zbc_mempool_room(c->mp, room_txs, room_bytes);
    *has_cheapest = zbc_mempool_cheapest(c->mp, cheapest_fee, cheapest_len);
}

uint64_t zbc_chain_mempool_fee_needed(const struct zbc_chain *c, size_t len)
{
    return zbc_mempool_fee_needed(c->mp, c->g, len);
}

/* ---- submit ---- */

struct submit_ctx {
    const uint8_t *raw;
    size_t len;
    uint64_t now_ms;
    uint8_t *hash;
    bool *duplicate;
    bool readmit; /* a transaction of an undone block: zbc_mempool_readmit */
    bool hashed;  /* hash holds SHA3-256(raw) already: zbc_mempool_add_hashed */
};

static int submit_fn(struct zbc_chain *c, struct zbc_state *st,
                     struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    (void)t;
    struct submit_ctx *s = arg;
    int ok = s->hashed ? zbc_mempool_add_hashed(c->mp, st, c->g, s->raw,
                                                 s->len, &c->known, s->now_ms,
                                                 s->hash, s->duplicate, err)
                       : (s->readmit ? zbc_mempool_readmit
                                     : zbc_mempool_add_known)(
                             c->mp, st, c->g, s->raw, s->len, &c->known,
                             s->now_ms, s->hash, s->duplicate, err);
    if (!ok)
        return 0;
    if (!*s->duplicate) /* passed zbc_tx_check_stateless; hash = SHA3(raw) */
        zbc_sig_cache_add_hashed(c->sigs, s->hash, s->raw, s->len);
    return 1;
}

int zbc_chain_submit(struct zbc_chain *c, const uint8_t *raw, size_t len,
                     uint64_t now_ms, uint8_t hash[32], bool *duplicate,
                     struct zbc_err *err)
{
    chain_settle(c);
    struct submit_ctx s = {raw, len, now_ms, hash, duplicate, false, false};
    *duplicate = false;
    if (!zbc_chain_state_read(c, submit_fn, &s, err))
        return 0;
    if (!*duplicate && c->has_listener && c->listener.on_tx != NULL)
        c->listener.on_tx(c->listener.arg, raw, len, hash);
    return 1;
}

/* Batch admission (docs/api.md §3 "Batches"): the stateless checks of
 * the items the mempool has room for run on the verify pool's threads and
 * record the valid ones in the signature cache; then every item goes
 * through zbc_chain_submit in order on this thread, where the cached ones
 * are only parsed.  An invalid item is not cached, so its serial
 * submission fails with the very error it gets alone; a full pool refuses
 * the items past its room before verifying them, as it does one by one. */
struct precheck_batch {
    struct zbc_chain *c;
    struct zbc_submit **items;
};

static void precheck_item(void *ctx, size_t i)
{
    struct precheck_batch *pb = ctx;
    const struct zbc_submit *it = pb->items[i];
    struct zbc_checked_tx ct;
    struct zbc_err e;
    /* the verdict is the serial pass's: a valid item is now cached */
    if (!(it->hashed ? zbc_sig_cache_check_hashed(pb->c->sigs, &ct, pb->c->g,
                                                  it->raw, it->len, it->hash,
                                                  &e)
                     : zbc_sig_cache_check(pb->c->sigs, &ct, pb->c->g,
                                           it->raw, it->len, &e)))
        return;
}

struct check_batch {
    struct zbc_chain *c;
    struct zbc_submit *items;
};

static void check_item(void *ctx, size_t i)
{
    struct check_batch *cb = ctx;
    struct zbc_submit *it = &cb->items[i];
    it->err = (struct zbc_err){{0}};
    it->ok = zbc_chain_check_tx_hashed(cb->c, it->raw, it->len, it->hash,
                                       &it->err);
}

void zbc_chain_check_batch(struct zbc_chain *c, struct zbc_submit *items,
                           size_t n)
{
    struct check_batch cb = {c, items};
    if (n >= 2)
        zbc_verify_pool_run(c->pool, n, check_item, &cb);
    else if (n == 1)
        check_item(&cb, 0);
}

struct batch_ctx {
    struct zbc_submit *items;
    size_t n;
    uint64_t now_ms;
};

static int submit_batch_fn(struct zbc_chain *c, struct zbc_state *st,
                           struct zbc_store_txn *t, void *arg,
                           struct zbc_err *err)
{
    (void)err;
    struct batch_ctx *bc = arg;
    for (size_t i = 0; i < bc->n; i++) {
        struct zbc_submit *it = &bc->items[i];
        if (it->raw == NULL)
            continue; /* the caller's decoding failed: its own result */
        struct submit_ctx s = {it->raw, it->len, bc->now_ms, it->hash,
                               &it->duplicate, false, it->hashed};
        it->ok = submit_fn(c, st, t, &s, &it->err);
    }
    return 1;
}

struct zbc_verify_pool *zbc_chain_verify_pool(struct zbc_chain *c)
{
    return c->pool;
}

void zbc_chain_submit_batch(struct zbc_chain *c, struct zbc_submit *items,
                            size_t n, uint64_t now_ms)
{
    chain_settle(c);
    size_t room_txs, room_bytes, k = 0, bytes = 0;
    zbc_mempool_room(c->mp, &room_txs, &room_bytes);
    /* the first k items with a decoded body that fit the room (out of
     * memory for the list: all serially, same results) */
    struct zbc_submit **pre = malloc((n > 0 ? n : 1) * sizeof *pre);
    for (size_t i = 0; pre != NULL && i < n && k < room_txs; i++) {
        if (items[i].raw == NULL)
            continue;
        if (items[i].len > room_bytes - bytes)
            break;
        bytes += items[i].len;
        pre[k++] = &items[i];
    }
    if (k >= 2) {
        struct precheck_batch pb = {c, pre};
        zbc_verify_pool_run(c->pool, k, precheck_item, &pb);
    }
    free(pre);
    /* every item against one read snapshot of the tip (nothing changes
     * the stored state between them on this thread), then the gossip */
    for (size_t i = 0; i < n; i++) {
        if (items[i].raw == NULL)
            continue;
        items[i].ok = -1; /* not reached yet */
        items[i].duplicate = false;
        items[i].err = (struct zbc_err){{0}};
        if (!items[i].hashed)
            memset(items[i].hash, 0, sizeof items[i].hash);
    }
    struct batch_ctx bc = {items, n, now_ms};
    struct zbc_err err = {{0}};
    if (!zbc_chain_state_read(c, submit_batch_fn, &bc, &err))
        for (size_t i = 0; i < n; i++)
            if (items[i].raw != NULL && items[i].ok == -1) {
                items[i].ok = 0;
                items[i].err = err;
            }
    for (size_t i = 0; i < n; i++)
        if (items[i].raw != NULL && items[i].ok == 1 &&
            !items[i].duplicate && c->has_listener &&
            c->listener.on_tx != NULL)
            c->listener.on_tx(c->listener.arg, items[i].raw, items[i].len,
                              items[i].hash);
}

int zbc_chain_check_tx(struct zbc_chain *c, const uint8_t *raw, size_t len,
                       struct zbc_err *err)
{
    struct zbc_checked_tx ct;
    return zbc_sig_cache_check(c->sigs, &ct, c->g, raw, len, err);
}

int zbc_chain_check_tx_hashed(struct zbc_chain *c, const uint8_t *raw,
                              size_t len, const uint8_t hash[32],
                              struct zbc_err *err)
{
    struct zbc_checked_tx ct;
    return zbc_sig_cache_check_hashed(c->sigs, &ct, c->g, raw, len, hash,
                                      err);
}

struct lookup_args {
    const uint8_t *hash;
    uint32_t *height, *index;
    bool *found;
};

static int lookup_fn(struct zbc_chain *c, struct zbc_state *st,
                     struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    (void)c;
    struct lookup_args *a = arg;
    return zbc_tx_index_find(st, t, a->hash, a->height, a->index, a->found,
                             err);
}

/* Where the best chain holds transaction hash (node/zbcd/tx_index.h;
 * index NULL: its height only). */
static int tx_lookup(struct zbc_chain *c, const uint8_t hash[32],
                     uint32_t *height, uint32_t *index, bool *found,
                     struct zbc_err *err)
{
    struct lookup_args a = {hash, height, index, found};
    *found = false;
    return zbc_chain_state_read(c, lookup_fn, &a, err);
}

void zbc_chain_readmit_tx(struct zbc_chain *c, const uint8_t *raw,
                          size_t len, uint64_t now_ms)
{
    uint8_t hash[32];
    bool dup = false;
    struct submit_ctx s = {raw, len, now_ms, hash, &dup, true, false};
    struct zbc_err err = {{0}};
    if (zbc_chain_state_read(c, submit_fn, &s, &err))
        return;
    zbc_log_debug("reorg: transaction not re-admitted: %s", err.msg);
    /* on the new branch too: included, not dropped (its TXSEEN entry:
     * no position needed) */
    uint32_t h;
    bool found = false;
    struct zbc_err e2 = {{0}};
    if (!tx_lookup(c, hash, &h, NULL, &found, &e2) || found)
        return;
    char reason[ZBC_MEMPOOL_REASON_MAX];
    snprintf(reason, sizeof reason, "invalid after a reorg to block %u: %s",
             c->tip.height, err.msg);
    zbc_mempool_note_drop(c->mp, hash, c->tip.height, now_ms, reason);
}

bool zbc_chain_dropped(const struct zbc_chain *c, const uint8_t hash[32],
                       uint64_t now_ms, struct zbc_mempool_drop *d)
{
    return zbc_mempool_dropped(c->mp, hash, now_ms, d);
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

int zbc_chain_tx_status(struct zbc_chain *c, const uint8_t hash[32],
                        struct zbc_tx_lookup *out, struct zbc_err *err)
{
    memset(out, 0, sizeof *out);
    if (zbc_mempool_find(c->mp, hash, &out->position, NULL, NULL)) {
        out->status = ZBC_TX_STATUS_MEMPOOL;
        out->pool_size = zbc_mempool_count(c->mp);
        return 1;
    }
    bool found;
    if (!tx_lookup(c, hash, &out->height, &out->index, &found, err))
        return 0;
    out->status = found ? ZBC_TX_STATUS_CONFIRMED : ZBC_TX_STATUS_NOT_FOUND;
    return 1;
}

int zbc_chain_find_tx(struct zbc_chain *c, const uint8_t hash[32],
                      struct zbc_tx_lookup *out, struct zbc_err *err)
{
    if (!zbc_chain_tx_status(c, hash, out, err))
        return 0;
    if (out->status == ZBC_TX_STATUS_MEMPOOL) {
        const uint8_t *raw;
        size_t len;
        if (!zbc_mempool_find(c->mp, hash, NULL, &raw, &len))
            return zbc_fail(err, "pooled transaction not found again");
        out->len = len;
        return copy_bytes(&out->raw, raw, len, err);
    }
    if (out->status == ZBC_TX_STATUS_NOT_FOUND)
        return 1;
    bool found;
    uint8_t *bytes = NULL;
    size_t blen = 0;
    if (!zbc_store_block(c->store, out->height, &bytes, &blen, &found, err))
        return 0;
    if (!found)
        return zbc_fail(err, "block %u of an indexed transaction is missing",
                        out->height);
    struct zbc_block b;
    int ok = zbc_block_decode(&b, bytes, blen, err);
    if (ok && out->index >= b.n_tx)
        ok = zbc_fail(err, "block %u has no transaction %u", out->height,
                      out->index);
    if (ok) {
        out->len = b.txs[out->index].len;
        ok = copy_bytes(&out->raw, b.txs[out->index].bytes, out->len, err);
    }
    if (!ok)
        out->status = ZBC_TX_STATUS_NOT_FOUND;
    zbc_block_free(&b);
    free(bytes);
    return ok;
}

/* ---- blocks ---- */

int zbc_chain_next_slot(struct zbc_chain *c, struct zbc_slot *slot,
                        struct zbc_err *err)
{
    chain_settle(c);
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

static int wanted_fn(struct zbc_chain *c, struct zbc_state *st,
                     struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    (void)t;
    bool *wanted = arg;
    for (uint32_t k = 1; k <= 2 && !*wanted; k++) {
        uint32_t n = 0;
        if (c->tip.height > UINT32_MAX - k)
            break;
        if (!zbc_apps_schedule(st, c->tip.height + k, NULL, 0, &n, err))
            return 0;
        *wanted = n > 0;
    }
    return 1;
}

int zbc_chain_block_wanted(struct zbc_chain *c, bool *wanted,
                           struct zbc_err *err)
{
    chain_settle(c);
    *wanted = zbc_mempool_count(c->mp) > 0;
    if (*wanted)
        return 1;
    return zbc_chain_state_read(c, wanted_fn, wanted, err);
}

/* Everything a block leaves in the ledger besides the state: block bytes,
 * hash index, transaction hashes (tx_hashes, block order), tip, undo
 * record, events (the node-local history and app indexes are held and
 * written in batches: index_note_block). */
static int store_block_records(struct zbc_store_txn *t,
                               const struct zbc_block *b,
                               const uint8_t *enc, size_t enc_len,
                               const uint8_t hash[32],
                               const uint8_t (*tx_hashes)[32],
                               const struct zbc_undo *undo,
                               const struct zbc_events *ev,
                               struct zbc_err *err)
{
    uint32_t height = b->header.height;
    if (!zbc_store_put_block(t, height, hash, enc, enc_len, err) ||
        !zbc_store_put_block_txs(t, height, hash, tx_hashes, b->n_tx, err))
        return 0;
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
    /* a slice of the TXSEEN entries held (node/zbcd/txseen.h), and the
     * app tables' redo record and slice (node/zbcd/appwb.h) */
    return ok && zbc_store_txn_txseen_flush(t, height, err) &&
           zbc_store_txn_apps_flush(t, height, err);
}

static double mono_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

struct block_ctx {
    uint64_t now_ms;
    /* produce */
    const struct zbc_tx_ref *cands;
    size_t n_cands;
    double t_loop;         /* mono_us() when the build started */
    double loop_budget_us; /* stop taking transactions in after it */
    double loop_us;        /* what taking them in took */
    struct zbc_block built;
    bool has_built;
    /* apply */
    const struct zbc_block *received;
    const struct zbc_checked_block *checked; /* received, prechecked */
    bool invalid; /* the block broke a rule (else the ledger failed) */
    /* result */
    struct zbc_undo undo; /* the block's writes, for the mempool re-check */
    struct zbc_events ev; /* its events, for the history index */
    struct zbc_block_header header;
    uint8_t hash[32];
    uint8_t state_root[32];
};

/* txs: b's transactions prechecked (their hashes), or NULL (hashed
 * here: a block this node built). */
static int finish_block(struct zbc_store_txn *t, struct zbc_state *st,
                        struct block_ctx *bc, const struct zbc_block *b,
                        const struct zbc_checked_tx *txs,
                        struct zbc_undo *undo, struct zbc_events *ev,
                        struct zbc_err *err)
{
    uint8_t *enc = NULL;
    size_t enc_len = 0;
    uint8_t hash[32];
    uint8_t(*tx_hashes)[32] = NULL;
    zbc_block_hash(hash, &b->header);
    if (txs == NULL) {
        if (!zbc_tx_index_hash_block(b, &tx_hashes, err))
            return 0;
    } else if (b->n_tx > 0) {
        tx_hashes = malloc(b->n_tx * sizeof *tx_hashes);
        if (tx_hashes == NULL)
            return zbc_fail(err, "out of memory storing block %u",
                            b->header.height);
        for (uint32_t i = 0; i < b->n_tx; i++)
            memcpy(tx_hashes[i], txs[i].hash, 32);
    }
    int ok = zbc_block_encode(b, &enc, &enc_len, err) &&
             store_block_records(t, b, enc, enc_len, hash,
                                 (const uint8_t(*)[32])tx_hashes, undo, ev,
                                 err);
    free(tx_hashes);
    free(enc);
    if (ok) {
        bc->header = b->header;
        memcpy(bc->hash, hash, 32);
        zbc_state_root(st, bc->state_root);
    }
    return ok;
}

/* The build's time budget (zbc_build_stop): taking transactions in stops
 * when its share of the budget has gone, however many the cap allowed,
 * but not before the block holds ZBC_CHAIN_BUILD_MIN_TXS (the floor the
 * cap keeps too: a loaded node still makes progress). */
static bool build_stop(void *arg, uint32_t n_tx, bool done)
{
    struct block_ctx *bc = arg;
    double spent = mono_us() - bc->t_loop;
    if (done)
        bc->loop_us = spent;
    return n_tx >= ZBC_CHAIN_BUILD_MIN_TXS && spent >= bc->loop_budget_us;
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
    zbc_undo_free(&bc->undo);
    zbc_events_free(&bc->ev);
    struct zbc_build_stop stop = {build_stop, bc};
    bc->t_loop = mono_us();
    bc->loop_us = 0;
    if (!zbc_block_build_known(&bc->built, st, c->g, &c->tip, bc->cands,
                               bc->n_cands, bc->now_ms, c->key.sk, &c->known,
                               &stop, &bc->undo, &bc->ev, err))
        return 0;
    bc->has_built = true;
    return finish_block(t, st, bc, &bc->built, NULL, &bc->undo, &bc->ev,
                        err);
}

static int apply_fn(struct zbc_chain *c, struct zbc_state *st,
                    struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct block_ctx *bc = arg;
    zbc_undo_free(&bc->undo);
    zbc_events_free(&bc->ev);
    bc->invalid = false;
    if (!zbc_block_apply(st, c->g, &c->tip, bc->checked, &bc->undo, &bc->ev,
                         err)) {
        bc->invalid = true;
        return 0;
    }
    return finish_block(t, st, bc, bc->received, bc->checked->txs, &bc->undo,
                        &bc->ev, err);
}

struct after_ctx {
    const struct zbc_block *b;
    const struct zbc_checked_tx *txs; /* b's, prechecked; NULL: not known */
    const struct zbc_undo *undo;
    const struct zbc_events *ev;
    uint64_t now_ms;
    bool noted; /* the index took the block */
};

static int after_block_fn(struct zbc_chain *c, struct zbc_state *st,
                          struct zbc_store_txn *t, void *arg,
                          struct zbc_err *err)
{
    (void)t;
    struct after_ctx *a = arg;
    index_note_block(c, st, a->b, a->ev, a->undo);
    a->noted = true;
    return zbc_mempool_after_block_hashed(c->mp, st, c->g, a->b, a->txs,
                                          a->undo, a->now_ms, err);
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
    info->cap = 0;
    info->build_ms = 0;
    info->commit_ms = 0;
    info->loop_ms = 0;
    struct after_ctx a = {b, bc->checked != NULL ? bc->checked->txs : NULL,
                          &bc->undo, &bc->ev, bc->now_ms, false};
    struct zbc_err err = {{0}};
    if (!zbc_chain_state_read(c, after_block_fn, &a, &err)) {
        zbc_log_error("mempool re-check after block %u failed: %s",
                      info->height, err.msg);
        if (!a.noted) /* the read failed before the index */
            c->ix_lost = true;
    }
    /* a slice a block: zbc_chain_index_maintain from the event loop, once
     * the block has gone out; all of them here inside a sync's batch, or
     * when the loop has not kept up (a test without one) */
    if (zbc_chain_index_held(c) >=
            (c->batch_open ? c->ix_n : 3 * c->ix_n) &&
        !zbc_chain_index_flush(c, &err))
        zbc_log_ratelimited("chain-index-flush", ZBC_LOG_PERIOD_MS,
                            ZBC_LOG_WARN, "ledger: %s (held until the next "
                            "try)", err.msg);
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

/* The mempool's bound: ZBC_CHAIN_POOL_BLOCKS blocks at the block cap. */
static void bound_pool(struct zbc_chain *c)
{
    size_t cap = zbc_chain_block_cap(c);
    size_t bound = cap > SIZE_MAX / ZBC_CHAIN_POOL_BLOCKS
                       ? SIZE_MAX
                       : cap * ZBC_CHAIN_POOL_BLOCKS;
    zbc_mempool_set_bound(c->mp, bound);
}

/* A block of n transactions took us to build, apply and store, loop_us of
 * it taking them in, with a cap of cap: the cost per transaction follows
 * it smoothed (0.7 of the figure, 0.3 of the block's; blocks too small to
 * tell are left out), and so does the share of the budget the build may
 * spend taking transactions in, learnt from the blocks of at least half
 * the cap (a smaller one's fixed costs - the root, the held slices'
 * writes - would read as a smaller share and shrink the next one).
 * Until 2026-12-05 a rise of the cost was taken at once, so one block
 * slowed by the other nodes' work on the shared cores cut the next blocks
 * of this node (one height in n_validators) for ~20 heights and the pool
 * backed up; the time budget (build_stop) keeps a slow block on time by
 * itself (docs/p2p.md §8 "Bounded blocks").  A block's figure counts at
 * most ZBC_CHAIN_COST_RISE_MAX times the current one: smoothed alone, one
 * block of 64 transactions the shared cores slowed to 6 ms each cut the
 * cap fifteenfold (tests/node/test_block_cap.c). */
static void note_build_time(struct zbc_chain *c, uint32_t n, double us,
                            double loop_us, size_t cap)
{
    if (n < ZBC_CHAIN_BUILD_MIN_TXS / 2 || us <= 0)
        return;
    double x = us / n;
    if (x > ZBC_CHAIN_COST_RISE_MAX * c->build_us_per_tx)
        x = ZBC_CHAIN_COST_RISE_MAX * c->build_us_per_tx;
    c->build_us_per_tx = 0.7 * c->build_us_per_tx + 0.3 * x;
    if (loop_us > 0 && (size_t)n * 2 >= cap) {
        double share = loop_us / us;
        share = 0.7 * c->loop_share + 0.3 * share;
        if (share < ZBC_CHAIN_LOOP_SHARE_MIN)
            share = ZBC_CHAIN_LOOP_SHARE_MIN;
        if (share > ZBC_CHAIN_LOOP_SHARE_MAX)
            share = ZBC_CHAIN_LOOP_SHARE_MAX;
        c->loop_share = share;
    }
    if (c->own_builds < UINT32_MAX)
        c->own_builds++;
    bound_pool(c);
}

/* A peer's block of n transactions took us to apply and store on our tip:
 * the same state transition, written and committed the same way.  Until
 * this node has built ZBC_CHAIN_BUILD_LEARN_OWN blocks of its own it may
 * lower the figure (smoothed, as an own block's fall), so a node learns
 * at every height and not one in n_validators from its first guess; it
 * never raises it (all receivers apply a block at once on shared cores,
 * and a mixed block reads up to twice its build's cost there), and
 * afterwards only own blocks count: a figure peers' blocks kept lowering
 * made an overloaded network's blocks late (docs/p2p.md §8 "Bounded
 * blocks"). */
static void note_apply_time(struct zbc_chain *c, uint32_t n, double us)
{
    if (n < ZBC_CHAIN_BUILD_MIN_TXS / 2 || us <= 0)
        return;
    double x = us / n;
    if (c->own_builds >= ZBC_CHAIN_BUILD_LEARN_OWN || x >= c->build_us_per_tx)
        return;
    c->build_us_per_tx = 0.7 * c->build_us_per_tx + 0.3 * x;
    bound_pool(c);
}

uint32_t zbc_chain_block_budget_ms(const struct zbc_chain *c)
{
    return c->budget_ms;
}

size_t zbc_chain_block_cap(const struct zbc_chain *c)
{
    double cap = (double)c->budget_ms * 1000.0 / c->build_us_per_tx;
    if (cap < ZBC_CHAIN_BUILD_MIN_TXS)
        return ZBC_CHAIN_BUILD_MIN_TXS;
    if (cap > (double)SIZE_MAX / 2)
        return SIZE_MAX / 2;
    return (size_t)cap;
}

int zbc_chain_produce(struct zbc_chain *c, uint64_t now_ms,
                      struct zbc_block_info *info, struct zbc_err *err)
{
    chain_settle(c);
    if (!c->has_key)
        return zbc_fail(err, "this node has no key to produce blocks with");
    size_t n = zbc_mempool_count(c->mp), cap = zbc_chain_block_cap(c);
    if (n > cap)
        n = cap; /* the rest waits for the next block: this one is on time */
    struct zbc_tx_ref *cands = calloc(n > 0 ? n : 1, sizeof *cands);
    if (cands == NULL)
        return zbc_fail(err, "out of memory selecting %zu transactions", n);
    n = zbc_mempool_select(c->mp, cands, n);
    struct block_ctx bc = {
        .now_ms = now_ms,
        .cands = cands,
        .n_cands = n,
        .loop_budget_us = (double)c->budget_ms * 1000.0 * c->loop_share};
    double t0 = mono_us();
    int ok = zbc_chain_state_write(c, produce_fn, &bc, err);
    if (ok) {
        double us = mono_us() - t0;
        note_build_time(c, bc.built.n_tx, us, bc.loop_us, cap);
        /* before new_tip: the built block borrows the pooled transactions'
         * bytes, which the mempool clean-up frees */
        notify_block(c, &bc.built, bc.hash);
        new_tip(c, &bc, &bc.built, info);
        info->cap = cap;
        info->build_ms = (uint32_t)(us / 1000.0 + 0.5);
        info->commit_ms = (zbc_store_last_commit_us(c->store) + 500) / 1000;
        info->loop_ms = (uint32_t)(bc.loop_us / 1000.0 + 0.5);
        if (c->fin.on_tip != NULL)
            c->fin.on_tip(c->fin.arg);
        if (c->tip_fn != NULL)
            c->tip_fn(c->tip_arg);
    }
    if (bc.has_built)
        zbc_block_free(&bc.built);
    zbc_undo_free(&bc.undo);
    zbc_events_free(&bc.ev);
    free(cands);
    return ok;
}

int zbc_chain_apply_on_tip(struct zbc_chain *c, const struct zbc_block *b,
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
    double t0 = mono_us();
    int ok = zbc_chain_state_write(c, apply_fn, &bc, err);
    if (ok) {
        /* not inside a sync's batch: its blocks share one commit */
        if (!c->batch_open)
            note_apply_time(c, b->n_tx, mono_us() - t0);
        /* verified: if a reorg undoes b, its transactions go back to the
         * mempool without a second verification (each one's hash from the
         * precheck, which hashed it once for the transactions root) */
        for (uint32_t i = 0; i < b->n_tx; i++)
            zbc_sig_cache_add_hashed(c->sigs, cb.txs[i].hash, b->txs[i].bytes,
                                     b->txs[i].len);
    }
    if (invalid != NULL)
        *invalid = !ok && bc.invalid;
    if (!ok) {
        zbc_checked_block_free(&cb);
        zbc_undo_free(&bc.undo);
        zbc_events_free(&bc.ev);
        return 0;
    }
    /* the pool's clean-up takes the precheck's hashes (bc.checked) */
    new_tip(c, &bc, b, info);
    zbc_checked_block_free(&cb);
    zbc_undo_free(&bc.undo);
    zbc_events_free(&bc.ev);
    return 1;
}

int zbc_chain_apply_block(struct zbc_chain *c, const uint8_t *bytes,
                          size_t len, uint64_t now_ms,
                          struct zbc_block_info *info, struct zbc_err *err)
{
    struct zbc_block b;
    if (!zbc_block_decode(&b, bytes, len, err))
        return 0;
    int ok = zbc_chain_apply_on_tip(c, &b, now_ms, info, NULL, err);
    zbc_block_free(&b);
    return ok;
}

int zbc_chain_block(struct zbc_chain *c, uint32_t height, uint8_t **bytes,
                    size_t *len, bool *found, struct zbc_err *err)
{
    return zbc_store_block(c->store, height, bytes, len, found, err);
}

int zbc_chain_events(struct zbc_chain *c, uint32_t height,
                     struct zbc_events *ev, bool *found, struct zbc_err *err)
{
    uint8_t *bytes = NULL;
    size_t len = 0;
    if (!zbc_store_events(c->store, height, &bytes, &len, found, err))
        return 0;
    if (!*found)
        return 1;
    int ok = zbc_events_decode(ev, bytes, len, err);
    free(bytes);
    return ok;
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
                      struct zbc_account *acc, bool *found,
                      struct zbc_err *err)
{
    struct account_ctx ac = {a, acc, false};
    int ok = zbc_chain_state_read(c, account_fn, &ac, err);
    *found = ok && ac.found;
    return ok;
}

/* ---- network (node/zbcd/chain.h; side pool and reorgs: node/zbcd/fork.c) ---- */

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

void zbc_chain_set_tip_hook(struct zbc_chain *c, void (*fn)(void *arg),
                            void *arg)
{
    c->tip_fn = fn;
    c->tip_arg = fn != NULL ? arg : NULL;
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

void zbc_chain_set_net_status(struct zbc_chain *c,
                              const struct zbc_net_status *s)
{
    c->net = *s;
    if (c->net.reason == NULL)
        c->net.reason = "";
    c->peers = s->peers;
}

uint32_t zbc_chain_peer_count(const struct zbc_chain *c)
{
    return c->peers;
}

bool zbc_chain_synced(const struct zbc_chain *c, struct zbc_net_status *out)
{
    if (out != NULL)
        *out = c->net;
    return c->net.synced;
}

/* ---- the best chain on disk ---- */

struct height_of_ctx {
    const uint8_t *hash;
    uint32_t height;
    bool found;
};

static int height_of_fn(struct zbc_store_txn *t, void *arg,
                        struct zbc_err *err)
{
    struct height_of_ctx *h = arg;
    return zbc_store_txn_height_of(t, h->hash, &h->height, &h->found, err);
}

int zbc_chain_main_height_of(struct zbc_chain *c, const uint8_t hash[32],
                             uint32_t *height, bool *found,
                             struct zbc_err *err)
{
    if (memcmp(hash, c->g->hash, 32) == 0) {
        *height = 0;
        *found = true;
        return 1;
    }
    struct height_of_ctx h = {hash, 0, false};
    int ok = zbc_store_read(c->store, height_of_fn, &h, err);
    *found = ok && h.found;
    *height = h.height;
    return ok;
}

int zbc_chain_main_header(struct zbc_chain *c, uint32_t height,
                          struct zbc_block_header *h, struct zbc_err *err)
{
    uint8_t *bytes = NULL;
    size_t len = 0;
    bool found;
    if (!zbc_store_block(c->store, height, &bytes, &len, &found, err))
        return 0;
    if (!found)
        return zbc_fail(err, "block %u of the best chain is missing", height);
    int ok = len >= ZBC_BLOCK_HEADER_LEN &&
             zbc_block_header_decode(h, bytes, ZBC_BLOCK_HEADER_LEN, err);
    free(bytes);
    if (!ok)
        return zbc_fail_prefix(err, "stored block %u does not decode", height);
    return 1;
}

int zbc_chain_main_parent(struct zbc_chain *c, uint32_t height,
                          struct zbc_parent *p, struct zbc_err *err)
{
    if (height == 0) {
        zbc_parent_genesis(p, c->g);
        return 1;
    }
    struct zbc_block_header h;
    if (!zbc_chain_main_header(c, height, &h, err))
        return 0;
    zbc_parent_from_header(p, &h);
    return 1;
}

bool zbc_chain_knows_block(struct zbc_chain *c, const uint8_t hash[32])
{
    const struct zbc_side_block *s = zbc_side_find(&c->side, hash);
    if (s != NULL)
        return s->linked;
    uint32_t h;
    bool found;
    struct zbc_err err = {{0}};
    return zbc_chain_main_height_of(c, hash, &h, &found, &err) && found;
}

size_t zbc_chain_locator(struct zbc_chain *c, uint8_t (*out)[32], size_t cap,
                         struct zbc_err *err)
{
    chain_settle(c);
    size_t n = 0;
    uint32_t h = c->tip.height, step = 1;
    while (h > 0 && n + 1 < cap) {
        struct zbc_block_header hdr;
        if (!zbc_chain_main_header(c, h, &hdr, err))
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
    chain_settle(c);
    *height = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t h;
        bool found;
        if (!zbc_chain_main_height_of(c, loc[i], &h, &found, err))
            return 0;
        if (found) {
            *height = h;
            return 1;
        }
    }
    return 1;
}

/* ---- receiving ----
 *
 * receive_one takes a block through these steps, each of which either
 * settles it (r->kind) or hands it on:
 *   1. recv_known: already on the best chain or in the side pool;
 *   2. a timestamp beyond the local clock + 10 s: FUTURE;
 *   3. recv_on_tip: its parent is the tip: validate and apply;
 *   4. recv_find_parent: its parent elsewhere on the best chain or a
 *      validated side block; else recv_orphan (header check, budgets);
 *   5. recv_side: precheck against that parent, hold it in the side pool;
 *   6. recv_choose: the reorg limit (zbc_reorg_allowed), then the fork
 *      choice, and a reorg when its branch is preferred. */

static int recv_fail(struct zbc_recv_result *r, enum zbc_recv_kind kind)
{
    r->kind = kind;
    return 0;
}

/* Step 1.  *done: settled (DUPLICATE, or LOCAL_ERROR when 0). */
static int recv_known(struct zbc_chain *c, struct zbc_recv_result *r,
                      bool *done, struct zbc_err *err)
{
    uint32_t height;
    *done = true;
    r->kind = ZBC_RECV_DUPLICATE;
    if (zbc_side_find(&c->side, r->hash) != NULL)
        return 1;
    bool found;
    if (!zbc_chain_main_height_of(c, r->hash, &height, &found, err))
        return recv_fail(r, ZBC_RECV_LOCAL_ERROR);
    *done = found;
    return 1;
}

/* Step 3: b extends the tip. */
static int recv_on_tip(struct zbc_chain *c, const struct zbc_block *b,
                       uint64_t now_ms, struct zbc_recv_result *r,
                       struct zbc_err *err)
{
    struct zbc_block_info info;
    bool invalid;
    if (!zbc_chain_apply_on_tip(c, b, now_ms, &info, &invalid, err))
        return recv_fail(r, invalid ? ZBC_RECV_INVALID : ZBC_RECV_LOCAL_ERROR);
    r->kind = ZBC_RECV_EXTENDED;
    r->applied++;
    notify_block(c, b, r->hash);
    zbc_side_prune(&c->side, zbc_reorg_final_height(c->tip.height), now_ms);
    return 1;
}

/* Step 4: the parent of a block that does not extend the tip, from the
 * best chain or a validated side block.  *found false: unknown (an
 * orphan). */
static int recv_find_parent(struct zbc_chain *c,
                            const struct zbc_block_header *h,
                            struct zbc_parent *parent, bool *found,
                            struct zbc_err *err)
{
    uint32_t ph = 0;
    *found = false;
    bool main;
    if (!zbc_chain_main_height_of(c, h->prev_hash, &ph, &main, err))
        return 0;
    if (main) {
        *found = true;
        return zbc_chain_main_parent(c, ph, parent, err);
    }
    const struct zbc_side_block *s = zbc_side_find(&c->side, h->prev_hash);
    if (s == NULL || !s->linked)
        return 1;
    struct zbc_block_header ph_hdr;
    if (!zbc_block_header_decode(&ph_hdr, s->bytes, ZBC_BLOCK_HEADER_LEN, err))
        return 0;
    zbc_parent_from_header(parent, &ph_hdr);
    *found = true;
    return 1;
}

/* Step 4b: a block whose parent is unknown.  What can be checked without
 * the parent is (zbc_fork_orphan_check: a bad one is INVALID and not
 * held); a final one is TOO_DEEP; else it is held within the orphan
 * budgets (docs/p2p.md §7). */
static int recv_orphan(struct zbc_chain *c, const struct zbc_block *b,
                       const uint8_t *bytes, size_t len, const uint8_t *peer,
                       uint64_t now_ms, struct zbc_recv_result *r,
                       struct zbc_err *err)
{
    if (!zbc_fork_orphan_check(c->g, b, err))
        return recv_fail(r, ZBC_RECV_INVALID);
    if (b->header.height <= zbc_reorg_final_height(c->tip.height)) {
        r->kind = ZBC_RECV_TOO_DEEP;
        return 1;
    }
    bool held;
    if (!zbc_side_add_orphan(&c->side, &b->header, r->hash, bytes, len, peer,
                             now_ms, &held, err))
        return recv_fail(r, ZBC_RECV_LOCAL_ERROR);
    if (!held)
        zbc_log_debug("orphan block %u (%zu bytes) is larger than the orphan "
                      "budget: not held", b->header.height, len);
    r->kind = ZBC_RECV_ORPHAN;
    return 1;
}

/* Step 5: b's parent is known but is not the tip: precheck b against it
 * and hold it in the side pool. */
static int recv_side(struct zbc_chain *c, const struct zbc_block *b,
                     const struct zbc_parent *parent, const uint8_t *bytes,
                     size_t len, uint64_t now_ms, struct zbc_recv_result *r,
                     struct zbc_err *err)
{
    struct zbc_checked_block cb;
    if (!zbc_verify_pool_precheck(c->pool, &cb, c->g, parent, b, now_ms,
                                  &c->known, err))
        return recv_fail(r, ZBC_RECV_INVALID);
    /* verified: a reorg onto this block does not verify them again */
    for (uint32_t i = 0; i < b->n_tx; i++)
        zbc_sig_cache_add_hashed(c->sigs, cb.txs[i].hash, b->txs[i].bytes,
                                 b->txs[i].len);
    zbc_checked_block_free(&cb);
    if (!zbc_side_add(&c->side, &b->header, r->hash, bytes, len, err))
        return recv_fail(r, ZBC_RECV_LOCAL_ERROR);
    return 1;
}

/* Step 6: the side block r->hash is held; its branch within the reorg
 * limit is announced and, when preferred, becomes the best chain. */
static int recv_choose(struct zbc_chain *c, const struct zbc_block *b,
                       uint64_t now_ms, struct zbc_recv_result *r,
                       struct zbc_err *err)
{
    uint8_t (*br)[32] = NULL;
    size_t n = 0;
    uint32_t fork = 0;
    bool better = false;
    if (!zbc_fork_branch(c, r->hash, &br, &n, &fork, err)) {
        zbc_side_remove(&c->side, r->hash);
        return recv_fail(r, ZBC_RECV_LOCAL_ERROR);
    }
    if (!zbc_reorg_allowed(c->tip.height, fork) ||
        fork < c->final_height) { /* never past a final block */
        free(br);
        zbc_side_remove(&c->side, r->hash);
        r->kind = ZBC_RECV_TOO_DEEP;
        return 1;
    }
    notify_block(c, b, r->hash);
    int ok = zbc_fork_preferred(c, (const uint8_t (*)[32])br, n, fork,
                                &better, err);
    free(br);
    if (!ok)
        return recv_fail(r, ZBC_RECV_LOCAL_ERROR);
    r->kind = ZBC_RECV_SIDE;
    if (!better)
        return 1;
    uint32_t old_height = c->tip.height;
    bool invalid;
    if (!zbc_fork_reorg_to(c, r->hash, now_ms, true, r, &invalid, err))
        return recv_fail(r, invalid ? ZBC_RECV_INVALID : ZBC_RECV_LOCAL_ERROR);
    char hex[65];
    hex32(hex, r->hash);
    zbc_log_info("reorg: height %u -> %u, fork at %u (undid %u, applied %u) "
                 "new tip %s", old_height, c->tip.height, fork, r->undone,
                 r->applied, hex);
    r->kind = ZBC_RECV_EXTENDED;
    return 1;
}

static int receive_one(struct zbc_chain *c, const uint8_t *bytes, size_t len,
                       uint64_t now_ms, const uint8_t *peer,
                       struct zbc_recv_result *r, struct zbc_err *err)
{
    struct zbc_block b;
    if (!zbc_block_decode(&b, bytes, len, err))
        return recv_fail(r, ZBC_RECV_INVALID);
    const struct zbc_block_header *h = &b.header;
    zbc_block_hash(r->hash, h);
    r->height = h->height;
    bool done, found;
    struct zbc_parent parent;
    int ok = recv_known(c, r, &done, err);
    if (!ok || done)
        goto out;
    if (now_ms <= UINT64_MAX - ZBC_CLOCK_SKEW_MS &&
        h->timestamp_ms > now_ms + ZBC_CLOCK_SKEW_MS) {
        r->kind = ZBC_RECV_FUTURE;
        goto out;
    }
    if (memcmp(h->prev_hash, c->tip.hash, 32) == 0) {
        ok = recv_on_tip(c, &b, now_ms, r, err);
        goto out;
    }
    if (!recv_find_parent(c, h, &parent, &found, err)) {
        ok = recv_fail(r, ZBC_RECV_LOCAL_ERROR);
        goto out;
    }
    if (!found) {
        ok = recv_orphan(c, &b, bytes, len, peer, now_ms, r, err);
        goto out;
    }
    ok = recv_side(c, &b, &parent, bytes, len, now_ms, r, err) &&
         recv_choose(c, &b, now_ms, r, err);
out:
    zbc_block_free(&b);
    return ok;
}

/* Orphans waiting for the block `hash` (and, in turn, for theirs) go
 * through receive_one again, as if their sender sent them now. */
static void receive_waiting(struct zbc_chain *c, const uint8_t hash[32],
                            uint64_t now_ms, struct zbc_recv_result *r)
{
    size_t cap = 16, n = 0;
    uint8_t (*work)[32] = malloc(cap * 32);
    if (work == NULL)
        return;
    memcpy(work[n++], hash, 32);
    while (n > 0) {
        uint8_t parent[32], peer[32];
        uint8_t *ob;
        size_t olen;
        memcpy(parent, work[--n], 32);
        while (zbc_side_take_orphan(&c->side, parent, &ob, &olen, peer)) {
            struct zbc_recv_result orr;
            struct zbc_err oerr = {{0}};
            memset(&orr, 0, sizeof orr);
            int ok = receive_one(c, ob, olen, now_ms, peer, &orr, &oerr);
            free(ob);
            r->undone += orr.undone;
            r->applied += orr.applied;
            if (!ok) {
                zbc_log_warn("held block at height %u refused: %s",
                             orr.height, oerr.msg);
                continue;
            }
            if (orr.kind != ZBC_RECV_EXTENDED && orr.kind != ZBC_RECV_SIDE)
                continue;
            if (n == cap) {
                uint8_t (*w2)[32] = realloc(work, cap * 2 * 32);
                if (w2 == NULL)
                    break;
                work = w2;
                cap *= 2;
            }
            memcpy(work[n++], orr.hash, 32);
        }
    }
    free(work);
}

static int receive_block(struct zbc_chain *c, const uint8_t *bytes,
                         size_t len, uint64_t now_ms, const uint8_t *peer,
                         struct zbc_recv_result *r, struct zbc_err *err)
{
    memset(r, 0, sizeof *r);
    zbc_side_prune(&c->side, zbc_reorg_final_height(c->tip.height), now_ms);
    if (!receive_one(c, bytes, len, now_ms, peer, r, err))
        return 0;
    if (r->kind == ZBC_RECV_EXTENDED || r->kind == ZBC_RECV_SIDE)
        receive_waiting(c, r->hash, now_ms, r);
    return 1;
}

int zbc_chain_receive_block(struct zbc_chain *c, const uint8_t *bytes,
                            size_t len, uint64_t now_ms, const uint8_t *peer,
                            struct zbc_recv_result *r, struct zbc_err *err)
{
    chain_settle(c);
    int ok = receive_block(c, bytes, len, now_ms, peer, r, err);
    if (c->fin.on_tip != NULL)
        c->fin.on_tip(c->fin.arg);
    if (c->tip_fn != NULL)
        c->tip_fn(c->tip_arg);
    chain_settle(c);
    return ok;
}

int zbc_chain_batch_begin(struct zbc_chain *c, struct zbc_err *err)
{
    if (c->batch_open)
        return zbc_fail(err, "a ledger batch is already open");
    if (!zbc_store_batch_begin(c->store, err))
        return 0;
    c->batch_open = true;
    c->batch_gone = false;
    return 1;
}

/* The blocks applied since the batch's last commit are not in the ledger:
 * the tip goes back to the ledger's, as after a crash (docs/node.md §3). */
static void batch_lost(struct zbc_chain *c, const struct zbc_err *err)
{
    uint32_t was = c->tip.height;
    struct zbc_store_meta m;
    struct zbc_err e2 = {{0}};
    if (!zbc_store_get_meta(c->store, &m, &e2) ||
        !load_tip(c, &m, false, &e2)) {
        zbc_log_error("ledger: the tip cannot be read back after a failed "
                      "commit: %s", e2.msg);
        return;
    }
    struct zbc_err e3 = {{0}};
    if (!index_reload(c, &e3))
        zbc_log_error("ledger: %s (tried again at the next read)", e3.msg);
    if (c->tip.height != was)
        zbc_log_ratelimited("chain-batch-lost", ZBC_LOG_PERIOD_MS,
                            ZBC_LOG_WARN, "ledger: blocks %u to %u were not "
                            "stored (%s): the tip is back at %u",
                            c->tip.height + 1, was, err->msg, c->tip.height);
    /* not on_tip: it would write (votes, checkpoints) over a ledger that
     * has just failed a commit; on_lost only reads the ledger back, so
     * finality never reports final a block this node's ledger does not
     * hold (the next block calls on_tip) */
    if (c->fin.on_lost != NULL)
        c->fin.on_lost(c->fin.arg);
}

/* A batch paused between two slices loses its writes when a write from
 * elsewhere (a produced or gossiped block, a vote set) cannot commit it
 * first.  The chain then holds blocks the ledger does not: it goes back
 * to the ledger's tip at once, before anything reads the best chain from
 * the ledger (a block locator, the state for a block on the tip), and the
 * batch's owner hears of it at its resume or end.  Called where the chain
 * is entered from the event loop, never from inside a slice. */
static void chain_settle(struct zbc_chain *c)
{
    if (!c->batch_open || c->batch_gone ||
        !zbc_store_batch_lost_paused(c->store))
        return;
    struct zbc_err e = {{0}};
    if (zbc_store_batch_end(c->store, &e)) /* fails: the batch is lost */
        return;
    c->batch_gone = true;
    c->batch_gone_err = e;
    batch_lost(c, &e);
}

/* The batch's end or resume after chain_settle: its failure, once. */
static int batch_gone(struct zbc_chain *c, struct zbc_err *err)
{
    *err = c->batch_gone_err;
    c->batch_open = c->batch_gone = false;
    return 0;
}

int zbc_chain_batch_end(struct zbc_chain *c, struct zbc_err *err)
{
    if (c->batch_gone)
        return batch_gone(c, err);
    c->batch_open = false;
    if (zbc_store_batch_end(c->store, err))
        return 1;
    batch_lost(c, err);
    return 0;
}

void zbc_chain_batch_pause(struct zbc_chain *c)
{
    zbc_store_batch_pause(c->store);
}

int zbc_chain_batch_resume(struct zbc_chain *c, struct zbc_err *err)
{
    if (c->batch_gone)
        return batch_gone(c, err);
    if (zbc_store_batch_resume(c->store, err))
        return 1;
    c->batch_open = false;
    struct zbc_err e2 = {{0}};
    if (!zbc_store_batch_end(c->store, &e2)) /* the same failure */
        batch_lost(c, err);
    return 0;
}

bool zbc_chain_in_batch(const struct zbc_chain *c)
{
    return c->batch_open;
}

int zbc_chain_switch_to(struct zbc_chain *c, const uint8_t hash[32],
                        uint64_t now_ms, bool *switched, struct zbc_err *err)
{
    chain_settle(c);
    *switched = false;
    const struct zbc_side_block *s = zbc_side_find(&c->side, hash);
    if (s == NULL || !s->linked)
        return 1;
    uint8_t (*br)[32] = NULL;
    size_t n = 0;
    uint32_t fork = 0;
    if (!zbc_fork_branch(c, hash, &br, &n, &fork, err))
        return 0;
    free(br);
    struct zbc_checkpoint fin = {.height = c->final_height};
    if (!zbc_final_reorg_allowed(&fin, c->tip.height, fork, err))
        return 0;
    struct zbc_recv_result r;
    memset(&r, 0, sizeof r);
    uint32_t old_height = c->tip.height;
    if (!zbc_fork_reorg_to(c, hash, now_ms, true, &r, NULL, err))
        return 0;
    zbc_log_info("reorg: height %u -> %u onto the highest justified block, "
                 "fork at %u (undid %u, applied %u)", old_height,
                 c->tip.height, fork, r.undone, r.applied);
    *switched = memcmp(c->tip.hash, hash, 32) == 0;
    return 1;
}

void zbc_chain_orphans(const struct zbc_chain *c, const uint8_t *peer,
                       size_t *count, size_t *bytes)
{
    zbc_side_orphan_usage(&c->side, peer, count, bytes);
}

struct zbc_store *zbc_chain_store(struct zbc_chain *c)
{
    return c->store;
}
