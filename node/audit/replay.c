#include "node/audit/replay.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "consensus/apps_apply.h"
#include "consensus/ledger.h"
#include "consensus/money.h"
#include "consensus/tx.h"
#include "crypto/hash.h"
#include "crypto/hex.h"
#include "node/zbcd/json_util.h"
#include "node/zbcd/verify_pool.h"

static void hex32(char out[65], const uint8_t h[32])
{
    zbc_hex_encode(out, h, 32);
}

/* JSON text of one event (for expected/found), or a placeholder. */
static char *event_text(const struct zbc_event *e)
{
    json_t *j;
    struct zbc_err err;
    if (e == NULL)
        return strdup("(no event)");
    if (!zbc_json_event(&j, e, &err))
        return strdup("(event not renderable)");
    char *s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(j);
    return s;
}

static void report_event_pair(struct zbc_audit_report *r, uint32_t height,
                              size_t i, const struct zbc_event *want,
                              const struct zbc_event *got, const char *how)
{
    char *ws = event_text(want), *gs = event_text(got);
    zbc_audit_add(r, height, ZBC_AUDIT_EVENTS, ws != NULL ? ws : "?",
                  gs != NULL ? gs : "?", "%s event %zu differs from the "
                  "replay's", how, i);
    free(ws);
    free(gs);
}

int zbc_audit_compare_events_raw(uint32_t height,
                                 const struct zbc_events *computed,
                                 const uint8_t *stored, size_t len,
                                 struct zbc_audit_report *r,
                                 struct zbc_err *err)
{
    uint8_t *enc;
    size_t elen;
    if (!zbc_events_encode(computed, &enc, &elen, err))
        return 0;
    bool same = elen == len && memcmp(enc, stored, len) == 0;
    free(enc);
    if (same)
        return 1;
    struct zbc_events sev;
    struct zbc_err derr;
    memset(&sev, 0, sizeof sev);
    if (!zbc_events_decode(&sev, stored, len, &derr)) {
        zbc_audit_add(r, height, ZBC_AUDIT_EVENTS, NULL, derr.msg,
                      "the stored event record does not decode");
        return 1;
    }
    size_t n = computed->n > sev.n ? computed->n : sev.n;
    for (size_t i = 0; i < n; i++) {
        const struct zbc_event *a = i < computed->n ? &computed->e[i] : NULL;
        const struct zbc_event *b = i < sev.n ? &sev.e[i] : NULL;
        uint8_t ab[ZBC_EVENT_BYTES_MAX], bb[ZBC_EVENT_BYTES_MAX];
        size_t al = a != NULL ? zbc_event_encode_one(a, ab, sizeof ab) : 0;
        size_t bl = b != NULL ? zbc_event_encode_one(b, bb, sizeof bb) : 0;
        if (al != bl || memcmp(ab, bb, al) != 0) {
            report_event_pair(r, height, i, a, b, "stored");
            zbc_events_free(&sev);
            return 1;
        }
    }
    /* every event equal yet the bytes differ: the list framing */
    zbc_audit_add(r, height, ZBC_AUDIT_EVENTS, NULL, NULL,
                  "the stored event record is not the canonical encoding of "
                  "the replay's events");
    zbc_events_free(&sev);
    return 1;
}

int zbc_audit_compare_events_json(uint32_t height,
                                  const struct zbc_events *computed,
                                  json_t *served, struct zbc_audit_report *r,
                                  struct zbc_err *err)
{
    size_t ns = json_array_size(served);
    size_t n = computed->n > ns ? computed->n : ns;
    for (size_t i = 0; i < n; i++) {
        json_t *mine = NULL;
        if (i < computed->n && !zbc_json_event(&mine, &computed->e[i], err))
            return 0;
        json_t *theirs = json_array_get(served, i);
        if (mine != NULL && theirs != NULL && json_equal(mine, theirs)) {
            json_decref(mine);
            continue;
        }
        char *ws = mine != NULL ? json_dumps(mine, JSON_COMPACT |
                                                       JSON_SORT_KEYS)
                                : strdup("(no event)");
        char *gs = theirs != NULL ? json_dumps(theirs, JSON_COMPACT |
                                                           JSON_SORT_KEYS)
                                  : strdup("(no event)");
        zbc_audit_add(r, height, ZBC_AUDIT_EVENTS, ws != NULL ? ws : "?",
                      gs != NULL ? gs : "?",
                      "served event %zu differs from the replay's (%zu "
                      "replayed, %zu served)", i, computed->n, ns);
        free(ws);
        free(gs);
        json_decref(mine);
        return 1;
    }
    return 1;
}

static int compare_undo(uint32_t height, struct zbc_undo *u,
                        const uint8_t *stored, size_t len,
                        struct zbc_audit_report *r, struct zbc_err *err)
{
    uint8_t *enc;
    size_t elen;
    if (!zbc_undo_encode(u, &enc, &elen, err))
        return 0;
    if (elen != len || memcmp(enc, stored, len) != 0) {
        char want[64], got[64];
        snprintf(want, sizeof want, "%zu bytes, %zu entries", elen, u->n);
        snprintf(got, sizeof got, "%zu bytes", len);
        size_t i = 0;
        while (i < elen && i < len && enc[i] == stored[i])
            i++;
        zbc_audit_add(r, height, ZBC_AUDIT_UNDO, want, got,
                      "the stored undo record differs from the replay's "
                      "from byte %zu", i);
    }
    free(enc);
    return 1;
}

static void count_txs(struct zbc_audit_stats *st,
                      const struct zbc_checked_block *cb)
{
    for (uint32_t i = 0; i < cb->block->n_tx; i++) {
        uint32_t t = cb->txs[i].tx.type;
        st->txs++;
        if (t >= ZBC_TX_APP_CREATE && t <= ZBC_TX_APP_CLAIM)
            st->app_txs++;
        if (t != ZBC_TX_APP_CREATE)
            continue;
        /* grows at powers of two; a failed growth drops the list only */
        uint64_t n = st->apps_created++;
        if (st->app_ids_dropped)
            continue;
        if ((n & (n - 1)) == 0) {
            uint64_t *ids = realloc(st->app_ids,
                                    (size_t)(n > 0 ? 2 * n : 1) * sizeof *ids);
            if (ids == NULL) {
                free(st->app_ids);
                st->app_ids = NULL;
                st->app_ids_dropped = true;
                continue;
            }
            st->app_ids = ids;
        }
        st->app_ids[n] = zbc_apps_tx_app_id(&cb->txs[i]);
    }
}

/* The money invariant after the block at height: the running total at
 * every height; with full, also a full scan of the state, and the total
 * against that scan. */
static void check_money(struct zbc_audit_replay *rp, uint32_t height,
                        bool full, struct zbc_audit_report *r)
{
    struct zbc_err merr;
    if (!zbc_money_tally_check(&rp->money, &rp->st, &merr)) {
        zbc_audit_add(r, height, ZBC_AUDIT_MONEY, NULL, NULL,
                      "money invariant fails after the block: %s", merr.msg);
        return; /* the scan would say the same */
    }
    if (!full)
        return;
    if (!zbc_money_check(&rp->st, &merr))
        zbc_audit_add(r, height, ZBC_AUDIT_MONEY, NULL, NULL,
                      "money invariant fails after the block: %s", merr.msg);
    else if (!zbc_money_tally_rescan(&rp->money, &merr))
        zbc_audit_add(r, height, ZBC_AUDIT_MONEY, NULL, NULL, "%s",
                      merr.msg);
}

/* Outcome of one height. */
enum step {
    STEP_OK,      /* replayed; go on */
    STEP_STOP,    /* a divergence the replay cannot continue past */
    STEP_ERROR,   /* the audit itself failed: err filled */
};

/* The root the replayed state has after the block's effects, for the
 * report when zbc_block_apply refuses the header's root (its message
 * names no value).  Runs the same public steps as zbc_block_apply
 * (scheduled app work, every transaction, height) and rolls them back. */
static int replayed_root(struct zbc_state *s, const struct zbc_genesis *g,
                         const struct zbc_checked_block *cb, uint8_t root[32])
{
    const struct zbc_block_header *h = &cb->block->header;
    struct zbc_events ev;
    struct zbc_err e;
    memset(&ev, 0, sizeof ev);
    zbc_state_begin(s);
    int ok = zbc_apps_begin_block(s, g, h->height, h->seed, &ev, &e);
    for (uint32_t i = 0; ok && i < cb->block->n_tx; i++)
        ok = zbc_tx_apply(s, g, &cb->txs[i], i, h->height, h->timestamp_ms,
                          h->producer, &ev, &e);
    ok = ok && zbc_ledger_set_height(s, h->height, &e);
    if (ok)
        zbc_state_root(s, root);
    zbc_events_free(&ev);
    if (!zbc_state_rollback_to(s, 0, &e))
        ok = 0;
    zbc_state_begin(s);
    return ok;
}

/* A block the replay refused: which header claim is wrong, with values
 * where the rule has them. */
static void explain_refusal(uint32_t h, const struct zbc_block *b,
                            const struct zbc_err *cerr, const char *root,
                            struct zbc_audit_report *r)
{
    char found[65];
    if (strstr(cerr->msg, "state root") != NULL) {
        hex32(found, b->header.state_root);
        zbc_audit_add(r, h, ZBC_AUDIT_STATE_ROOT,
                      root != NULL ? root : "(not computable)", found, "%s",
                      cerr->msg);
        return;
    }
    zbc_audit_add(r, h, ZBC_AUDIT_BLOCK_INVALID, NULL, NULL,
                  "the block breaks a consensus rule: %s", cerr->msg);
}

/* One height fetched, decoded and prechecked ahead of its apply: the
 * stateless checks (signatures, VRF proof, transactions root) of a batch
 * run on every core while the apply stays sequential. */
struct staged {
    uint32_t h;
    bool fetched;                  /* the fetch did not fail */
    bool found;                    /* the source has the block */
    struct zbc_err ferr;           /* fetch or decode error */
    struct zbc_audit_block ab;
    bool decoded;
    struct zbc_block b;
    bool has_parent;               /* the previous height decoded */
    struct zbc_parent parent;      /* its header as the parent */
    bool prechecked;
    bool pre_ok;
    struct zbc_checked_block cb;
    struct zbc_err perr;
};

#define STAGE_BATCH 32u
#define STAGE_THREADS_MAX 4

static uint32_t batch_last_height(uint32_t first, size_t n)
{
    return first + (uint32_t)(n - 1);
}

struct stage_ctx {
    struct staged *s;
    struct zbc_audit_source *src;
    const struct zbc_genesis *g;
    uint64_t now_ms;
};

static void fetch_one(struct staged *x, struct zbc_audit_source *src)
{
    x->fetched = src->ops->block(src->ctx, x->h, &x->ab, &x->found,
                                 &x->ferr) != 0;
    if (x->fetched && x->found)
        x->decoded = zbc_block_decode(&x->b, x->ab.bytes, x->ab.len,
                                      &x->ferr) != 0;
}

static void fetch_at(void *arg, size_t i)
{
    struct stage_ctx *c = arg;
    fetch_one(&c->s[i], c->src);
}

static void precheck_at(void *arg, size_t i)
{
    struct stage_ctx *c = arg;
    struct staged *x = &c->s[i];
    if (!x->decoded || !x->has_parent)
        return;
    x->prechecked = true;
    x->pre_ok = zbc_block_precheck(&x->cb, c->g, &x->parent, &x->b,
                                   c->now_ms, &x->perr) != 0;
}

static unsigned stage_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        return 1;
    return n > STAGE_THREADS_MAX ? STAGE_THREADS_MAX : (unsigned)n;
}

/* Runs fn over the batch on up to stage_threads() threads, this one
 * included (node/zbcd/verify_pool.h); out of memory for the pool: here alone. */
static void run_parallel(void (*fn)(void *, size_t), struct staged *s,
                         size_t n, struct zbc_audit_source *src,
                         const struct zbc_genesis *g, uint64_t now_ms)
{
    struct stage_ctx c = {s, src, g, now_ms};
    struct zbc_verify_pool *p = zbc_verify_pool_new(stage_threads());
    if (p == NULL) {
        for (size_t i = 0; i < n; i++)
            fn(&c, i);
        return;
    }
    zbc_verify_pool_run(p, n, fn, &c);
    zbc_verify_pool_free(p);
}

/* Fetches and decodes heights first.. (at most STAGE_BATCH, not past
 * last), then prechecks them in parallel.  Sources that allow it are
 * fetched in parallel too; otherwise a fetch that fails or finds nothing
 * ends the batch.  Returns the count staged: the sequential pass reports
 * the first entry that is not a good block. */
static size_t stage_batch(struct staged *s, struct zbc_audit_source *src,
                          const struct zbc_genesis *g,
                          const struct zbc_parent *parent, uint32_t first,
                          uint32_t last, uint64_t now_ms)
{
    size_t n = (size_t)(last - first) + 1;
    if (n > STAGE_BATCH)
        n = STAGE_BATCH;
    for (size_t i = 0; i < n; i++) {
        memset(&s[i], 0, sizeof s[i]);
        s[i].h = first + (uint32_t)i;
    }
    if (src->ops->parallel_block) {
        run_parallel(fetch_at, s, n, src, g, now_ms);
    } else {
        for (size_t i = 0; i < n; i++) {
            fetch_one(&s[i], src);
            if (!s[i].fetched || !s[i].found) {
                n = i + 1;
                break;
            }
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (i == 0) {
            s[i].parent = *parent;
            s[i].has_parent = true;
        } else if (s[i - 1].decoded) {
            zbc_parent_from_header(&s[i].parent, &s[i - 1].b.header);
            s[i].has_parent = true;
        }
    }
    run_parallel(precheck_at, s, n, src, g, now_ms);
    return n;
}

static void staged_free(struct staged *x)
{
    if (x->pre_ok)
        zbc_checked_block_free(&x->cb);
    if (x->decoded)
        zbc_block_free(&x->b);
    zbc_audit_block_free(&x->ab);
    memset(x, 0, sizeof *x);
}

/* The checks of one staged height against the replay, then its apply. */
static enum step replay_one(struct zbc_audit_replay *rp,
                            struct zbc_audit_source *src,
                            const struct zbc_genesis *g, struct staged *x,
                            const struct zbc_audit_hooks *hooks,
                            struct zbc_audit_report *r, struct zbc_err *err)
{
    uint32_t h = x->h;
    if (!x->fetched) {
        *err = x->ferr;
        return STEP_ERROR;
    }
    if (!x->found) {
        zbc_audit_add(r, h, ZBC_AUDIT_BLOCK_MISSING, NULL, NULL,
                      "the source has no block at height %u below its tip "
                      "%u", h, rp->stats.source_height);
        return STEP_STOP;
    }
    if (!x->decoded) {
        zbc_audit_add(r, h, ZBC_AUDIT_BLOCK_DECODE, NULL, NULL,
                      "the block bytes do not decode: %s", x->ferr.msg);
        return STEP_STOP;
    }
    struct zbc_block *b = &x->b;
    struct zbc_audit_block *ab = &x->ab;
    struct zbc_err cerr;
    char want[80], got[80];
    uint8_t hash[32];
    zbc_block_hash(hash, &b->header);
    if (b->header.height != h) {
        snprintf(want, sizeof want, "%u", h);
        snprintf(got, sizeof got, "%u", b->header.height);
        zbc_audit_add(r, h, ZBC_AUDIT_HEIGHT, want, got,
                      "the block stored at height %u says another height", h);
        return STEP_STOP;
    }
    if (memcmp(b->header.prev_hash, rp->parent.hash, 32) != 0) {
        hex32(want, rp->parent.hash);
        hex32(got, b->header.prev_hash);
        zbc_audit_add(r, h, ZBC_AUDIT_HASH_CHAIN, want, got,
                      "the block's previous hash is not the hash of %s %u",
                      h == 1 ? "the genesis" : "block", h - 1);
        return STEP_STOP;
    }
    if (!x->prechecked || !x->pre_ok) {
        if (!x->prechecked)
            zbc_fail(&x->perr, "the block was not prechecked");
        explain_refusal(h, b, &x->perr, NULL, r);
        return STEP_STOP;
    }
    struct zbc_checked_block *cb = &x->cb;
    struct zbc_undo undo;
    struct zbc_events ev;
    if (!zbc_block_apply(&rp->st, g, &rp->parent, cb, &undo, &ev, &cerr)) {
        uint8_t mine[32];
        char mine_hex[65];
        bool have = strstr(cerr.msg, "state root") != NULL &&
                    replayed_root(&rp->st, g, cb, mine);
        if (have)
            hex32(mine_hex, mine);
        explain_refusal(h, b, &cerr, have ? mine_hex : NULL, r);
        return STEP_STOP;
    }
    enum step out = STEP_OK;
    if (hooks != NULL && hooks->on_applied != NULL)
        hooks->on_applied(hooks->arg, h, &rp->st);
    check_money(rp, h, h % ZBC_AUDIT_MONEY_SCAN_EVERY == 0, r);
    if (ab->has_events_raw) {
        rp->stats.events_compared++;
        if (!zbc_audit_compare_events_raw(h, &ev, ab->events_raw,
                                          ab->events_len, r, err))
            out = STEP_ERROR;
    } else if (ab->events_json != NULL) {
        rp->stats.events_compared++;
        if (!zbc_audit_compare_events_json(h, &ev, ab->events_json, r, err))
            out = STEP_ERROR;
    }
    if (out == STEP_OK && ab->has_undo) {
        rp->stats.undo_compared++;
        if (!compare_undo(h, &undo, ab->undo_raw, ab->undo_len, r, err))
            out = STEP_ERROR;
    }
    if (out == STEP_OK && src->ops->check_indexes != NULL) {
        uint8_t(*th)[32] = malloc((b->n_tx > 0 ? b->n_tx : 1) * sizeof *th);
        if (th == NULL) {
            out = STEP_ERROR;
            zbc_fail(err, "out of memory");
        } else {
            for (uint32_t i = 0; i < b->n_tx; i++)
                memcpy(th[i], cb->txs[i].hash, 32);
            if (!src->ops->check_indexes(src->ctx, h, hash,
                                         (const uint8_t(*)[32])th, b->n_tx, r,
                                         err))
                out = STEP_ERROR;
            free(th);
        }
    }
    rp->stats.events += ev.n;
    count_txs(&rp->stats, cb);
    if (hooks != NULL && hooks->on_block != NULL)
        hooks->on_block(hooks->arg, h, b, cb, &ev);
    zbc_parent_from_header(&rp->parent, &b->header);
    if (h >= rp->seeds_cap) {
        size_t cap = 2 * rp->seeds_cap;
        uint8_t(*seeds)[32] = realloc(rp->seeds, cap * 32);
        if (seeds == NULL) {
            zbc_fail(err, "out of memory keeping %u seeds", h + 1);
            out = STEP_ERROR;
        } else {
            rp->seeds = seeds;
            rp->seeds_cap = cap;
        }
    }
    if (h < rp->seeds_cap)
        memcpy(rp->seeds[h], b->header.seed, 32);
    rp->stats.checked = h;
    zbc_events_free(&ev);
    zbc_undo_free(&undo);
    return out;
}

/* After the last block: the source's tip claims and its stored state. */
static int check_end(struct zbc_audit_replay *rp, struct zbc_audit_source *src,
                     const struct zbc_genesis *g,
                     const struct zbc_audit_tip *tip,
                     struct zbc_audit_report *r, struct zbc_err *err)
{
    uint32_t h = rp->parent.height;
    char want[65], got[65];
    uint8_t root[32];
    zbc_state_root(&rp->st, root);
    if (tip->height > 0 && memcmp(tip->hash, rp->parent.hash, 32) != 0) {
        hex32(want, rp->parent.hash);
        hex32(got, tip->hash);
        zbc_audit_add(r, h, ZBC_AUDIT_TIP, want, got,
                      "the source's tip hash is not the hash of the last "
                      "replayed block");
    }
    if (tip->has_state_root && memcmp(tip->state_root, root, 32) != 0) {
        hex32(want, root);
        hex32(got, tip->state_root);
        zbc_audit_add(r, h, ZBC_AUDIT_STATE_ROOT, want, got,
                      "the state root the source reports for its tip is not "
                      "the replayed state's");
    }
    struct zbc_err cerr;
    if (h % ZBC_AUDIT_MONEY_SCAN_EVERY != 0) /* else done at h */
        check_money(rp, h, true, r);
    if (!zbc_state_check_root(&rp->st, &cerr))
        zbc_audit_add(r, h, ZBC_AUDIT_STATE_ROOT, NULL, NULL,
                      "the replayed state's accumulator does not match a "
                      "full rescan: %s", cerr.msg);
    struct zbc_audit_final f = {.height = h, .replayed = rp->st.kv, .g = g};
    memcpy(f.hash, rp->parent.hash, 32);
    memcpy(f.state_root, root, 32);
    return src->ops->check_final == NULL ||
           src->ops->check_final(src->ctx, &f, r, err);
}

int zbc_audit_replay(struct zbc_audit_replay *rp, struct zbc_audit_source *src,
                     const struct zbc_genesis *g, uint64_t now_ms,
                     const struct zbc_audit_hooks *hooks,
                     struct zbc_audit_report *r, struct zbc_err *err)
{
    memset(rp, 0, sizeof *rp);
    /* Before any thread starts: libsodium picks its implementations and
     * the hash module fetches RIPEMD-160 (a lazy static) here, once. */
    if (sodium_init() < 0)
        return zbc_fail(err, "libsodium cannot initialise");
    uint8_t warm[20];
    zbc_ripemd160(warm, "", 0);
    struct zbc_audit_tip tip;
    if (!src->ops->tip(src->ctx, &tip, err))
        return 0;
    rp->stats.source_height = tip.height;
    char want[65], got[65];
    if (!tip.has_genesis) {
        hex32(want, g->hash);
        zbc_audit_add(r, 0, ZBC_AUDIT_GENESIS, want, "none",
                      "the source names no genesis (ledger never "
                      "initialised)");
        return 1;
    }
    if (memcmp(tip.genesis_hash, g->hash, 32) != 0) {
        hex32(want, g->hash);
        hex32(got, tip.genesis_hash);
        zbc_audit_add(r, 0, ZBC_AUDIT_GENESIS, want, got,
                      "the source's chain is not the chain of this genesis "
                      "file");
        return 1;
    }
    /* grown as blocks replay: a source may claim any tip */
    rp->seeds_cap = 1024;
    rp->seeds = malloc(rp->seeds_cap * 32);
    rp->mem = zbc_mem_kv_new();
    if (rp->seeds == NULL || rp->mem == NULL)
        return zbc_fail(err, "out of memory starting a replay");
    if (!zbc_money_tally_open(&rp->money, zbc_mem_kv(rp->mem), err))
        return 0;
    rp->money_open = true;
    if (!zbc_state_open(&rp->st, zbc_money_tally_kv(&rp->money), err))
        return 0;
    rp->state_open = true;
    if (!zbc_ledger_init_genesis(&rp->st, g, err))
        return zbc_fail_prefix(err, "genesis state");
    zbc_parent_genesis(&rp->parent, g);
    memcpy(rp->seeds[0], rp->parent.seed, 32);
    check_money(rp, 0, true, r);
    struct staged *batch = calloc(STAGE_BATCH, sizeof *batch);
    if (batch == NULL)
        return zbc_fail(err, "out of memory for a replay batch");
    enum step s = STEP_OK;
    for (uint32_t h = 1; h <= tip.height && s == STEP_OK;) {
        size_t n = stage_batch(batch, src, g, &rp->parent, h, tip.height,
                               now_ms);
        for (size_t i = 0; i < n; i++) {
            if (s == STEP_OK) {
                s = replay_one(rp, src, g, &batch[i], hooks, r, err);
                if (s == STEP_ERROR)
                    zbc_fail_prefix(err, "height %u", batch[i].h);
            }
            staged_free(&batch[i]);
        }
        if (n == 0 || batch_last_height(h, n) == UINT32_MAX)
            break;
        h += (uint32_t)n;
    }
    free(batch);
    if (s == STEP_ERROR)
        return 0;
    if (s == STEP_STOP)
        return 1;
    rp->stats.complete = true;
    return check_end(rp, src, g, &tip, r, err);
}

void zbc_audit_replay_free(struct zbc_audit_replay *rp)
{
    if (rp->state_open)
        zbc_state_close(&rp->st);
    if (rp->money_open)
        zbc_money_tally_close(&rp->money);
    zbc_mem_kv_free(rp->mem);
    free(rp->seeds);
    free(rp->stats.app_ids);
    memset(rp, 0, sizeof *rp);
}
