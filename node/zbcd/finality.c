#include "node/zbcd/finality.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "consensus/block.h"
#include "crypto/bytes.h"
#include "crypto/hex.h"
#include "node/zbcd/log.h"
#include "node/zbcd/producer_loop.h"

struct zbc_finality {
    struct zbc_chain *chain;
    const struct zbc_genesis *g;
    struct zbc_store *store;
    bool voting;                 /* a validator's key */
    uint8_t sk[64];
    char voter_path[ZBC_DATADIR_PATH_MAX];
    struct zbc_voter voter;
    struct zbc_ffg ffg;
    struct zbc_vote_pending *pending;
    struct zbc_checkpoint last_tip;
    bool alarm;                  /* conflicting finality seen: no more votes */
    struct zbc_checkpoint final; /* the final block */
    struct zbc_checkpoint stored_final; /* the ledger's "final" record */
    bool reload;                 /* the view is full: rebuild it at on_tip */
    zbc_finality_gossip_fn gossip;
    void *gossip_arg;
    uint64_t (*now_ms)(void);
    bool in_tip;                 /* on_tip is running (no re-entry) */
};

static void hex8(char out[17], const uint8_t h[32])
{
    zbc_hex_encode(out, h, 8);
}

/* ---- the voter file ---- */

static int voter_load(struct zbc_finality *f, struct zbc_err *err)
{
    zbc_voter_init(&f->voter, f->g->hash);
    FILE *fp = fopen(f->voter_path, "rb");
    if (fp == NULL) {
        if (errno == ENOENT)
            return 1; /* never voted */
        return zbc_fail(err, "cannot read %s: %s", f->voter_path,
                        strerror(errno));
    }
    uint8_t b[ZBC_FINALITY_VOTER_LEN + 1];
    size_t n = fread(b, 1, sizeof b, fp);
    fclose(fp);
    if (n != ZBC_FINALITY_VOTER_LEN)
        return zbc_fail(err, "%s has %zu bytes, not %d", f->voter_path, n,
                        ZBC_FINALITY_VOTER_LEN);
    if (b[0] != 1)
        return zbc_fail(err, "%s: version %u is not 1", f->voter_path, b[0]);
    f->voter.last_target_height = zbc_get_le32(b + 1);
    f->voter.lock.height = zbc_get_le32(b + 5);
    memcpy(f->voter.lock.hash, b + 9, 32);
    if (f->voter.lock.height >= f->voter.last_target_height &&
        f->voter.last_target_height != 0)
        return zbc_fail(err, "%s: lock height %u is not below the last vote's "
                             "height %u", f->voter_path,
                        f->voter.lock.height, f->voter.last_target_height);
    return 1;
}

/* Written to a temporary file, fsync'ed, renamed over the old one and the
 * directory fsync'ed: after a crash the file holds the old or the new
 * state, never a mix. */
static int voter_save(const struct zbc_finality *f, struct zbc_err *err)
{
    uint8_t b[ZBC_FINALITY_VOTER_LEN];
    b[0] = 1;
    zbc_put_le32(b + 1, f->voter.last_target_height);
    zbc_put_le32(b + 5, f->voter.lock.height);
    memcpy(b + 9, f->voter.lock.hash, 32);
    char tmp[ZBC_DATADIR_PATH_MAX + 8];
    snprintf(tmp, sizeof tmp, "%s.tmp", f->voter_path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        return zbc_fail(err, "cannot write %s: %s", tmp, strerror(errno));
    bool ok = write(fd, b, sizeof b) == (ssize_t)sizeof b && fsync(fd) == 0;
    ok = close(fd) == 0 && ok;
    if (!ok || rename(tmp, f->voter_path) != 0)
        return zbc_fail(err, "cannot write %s: %s", f->voter_path,
                        strerror(errno));
    char dir[ZBC_DATADIR_PATH_MAX];
    snprintf(dir, sizeof dir, "%s", f->voter_path);
    char *slash = strrchr(dir, '/');
    if (slash != NULL) {
        *slash = '\0';
        int dfd = open(dir[0] ? dir : "/", O_RDONLY | O_DIRECTORY);
        if (dfd < 0 || fsync(dfd) != 0) {
            if (dfd >= 0)
                close(dfd);
            return zbc_fail(err, "cannot sync directory %s: %s", dir,
                            strerror(errno));
        }
        close(dfd);
    }
    return 1;
}

/* ---- the ledger ---- */

int zbc_finality_block_id(struct zbc_store_txn *t, uint32_t height,
                          struct zbc_checkpoint *cp, uint8_t prev[32],
                          struct zbc_err *err)
{
    uint8_t head[ZBC_BLOCK_HEADER_LEN];
    size_t len = 0;
    bool found;
    if (!zbc_store_txn_block_head(t, height, head, sizeof head, &len, &found,
                                  err))
        return zbc_fail_prefix(err, "block %u", height);
    if (!found)
        return zbc_fail(err, "block %u is not in the ledger", height);
    struct zbc_block_header hdr;
    if (len < ZBC_BLOCK_HEADER_LEN) {
        zbc_fail(err, "stored block is %zu bytes, shorter than a header", len);
        return zbc_fail_prefix(err, "block %u", height);
    }
    if (!zbc_block_header_decode(&hdr, head, ZBC_BLOCK_HEADER_LEN, err))
        return zbc_fail_prefix(err, "block %u", height);
    cp->height = height;
    zbc_block_hash(cp->hash, &hdr);
    memcpy(prev, hdr.prev_hash, 32);
    return 1;
}

struct load_ctx {
    struct zbc_finality *f;
    struct zbc_checkpoint final;
    uint32_t tip_height;
};

static int load_final_fn(struct zbc_store_txn *t, void *arg,
                         struct zbc_err *err)
{
    struct load_ctx *l = arg;
    bool found;
    if (!zbc_store_txn_checkpoint(t, "final", &l->final.height,
                                  l->final.hash, &found, err))
        return 0;
    if (!found) {
        l->final.height = 0;
        memcpy(l->final.hash, l->f->g->hash, 32);
    }
    return 1;
}

int zbc_finality_fill(struct zbc_ffg *view, struct zbc_store_txn *t,
                      uint32_t from, uint32_t to, zbc_finality_bad_fn bad,
                      void *arg, struct zbc_err *err)
{
    static struct zbc_vote votes[ZBC_VALIDATORS_MAX];
    uint32_t root = view->blocks[0].id.height;
    for (uint32_t h = from; h <= to; h++) {
        uint8_t *set = NULL, prev[32];
        size_t slen = 0, n = 0;
        struct zbc_checkpoint cp;
        bool added;
        if (!zbc_finality_block_id(t, h, &cp, prev, err))
            return 0;
        if (h == from && h > root + 1 ? !zbc_ffg_add_block_after_gap(view, &cp,
                                                                     err)
                                      : !zbc_ffg_add_block(view, &cp, prev,
                                                           &added, err))
            return zbc_fail_prefix(err, "block %u", h);
        bool found;
        if (!zbc_store_txn_votes(t, h, &set, &slen, &found, err))
            return 0;
        if (!found)
            continue;
        struct zbc_err e;
        if (!zbc_vote_set_decode(view->g, set, slen, votes, &n, &e))
            bad(arg, h, e.msg);
        else if (memcmp(votes[0].target.hash, cp.hash, 32) != 0)
            bad(arg, h, "the stored vote set is for another block than the "
                        "one stored at its height");
        else
            for (size_t k = 0; k < n; k++) {
                struct zbc_ffg_added a;
                if (!zbc_ffg_add_vote(view, &votes[k], &a, &e))
                    bad(arg, h, e.msg);
                else if (a.final_moved)
                    zbc_ffg_prune(view);
            }
        free(set);
    }
    return 1;
}

static void log_bad(void *arg, uint32_t height, const char *msg)
{
    (void)arg;
    zbc_log_warn("finality: stored votes of block %u ignored: %s", height,
                 msg);
}

static int load_blocks_fn(struct zbc_store_txn *t, void *arg,
                          struct zbc_err *err)
{
    struct load_ctx *l = arg;
    uint32_t from = l->final.height + 1;
    if (l->tip_height > l->final.height + ZBC_REORG_MAX_DEPTH) {
        from = l->tip_height - ZBC_REORG_MAX_DEPTH;
        zbc_log_warn("finality: the final block %u is more than %d blocks "
                     "below the tip; votes are followed from block %u",
                     l->final.height, ZBC_REORG_MAX_DEPTH, from);
    }
    return zbc_finality_fill(&l->f->ffg, t, from, l->tip_height, log_bad,
                             NULL, err);
}

struct votes_ctx {
    struct zbc_finality *f;
    const size_t *blocks;
    size_t n;
    const struct zbc_checkpoint *final; /* NULL: no checkpoints written */
};

static int write_votes_fn(struct zbc_store_txn *t, void *arg,
                          struct zbc_err *err)
{
    struct votes_ctx *w = arg;
    static uint8_t set[ZBC_VOTE_SET_MAX_LEN];
    for (size_t k = 0; k < w->n; k++) {
        size_t b = w->blocks[k];
        if (w->f->ffg.blocks[b].n_votes == 0)
            continue;
        size_t len = zbc_ffg_vote_set(&w->f->ffg, b, set);
        if (!zbc_store_put_votes(t, w->f->ffg.blocks[b].id.height, set, len,
                                 err))
            return 0;
    }
    if (w->final != NULL) {
        const struct zbc_finality *f = w->f;
        if (!zbc_store_put_checkpoint(t, "final", w->final->height,
                                      w->final->hash, err) ||
            !zbc_store_put_checkpoint(t, "justified", f->ffg.justified.height,
                                      f->ffg.justified.hash, err))
            return 0;
    }
    return 1;
}

static bool store_votes(struct zbc_finality *f, const size_t *blocks,
                        size_t n, const struct zbc_checkpoint *final)
{
    struct votes_ctx w = {f, blocks, n, final};
    struct zbc_err err = {{0}};
    /* a warning: the votes stay in memory and peers give them again with
     * the blocks (a full disk is reported where blocks are stored) */
    if (zbc_store_write(f->store, write_votes_fn, &w, &err))
        return true;
    zbc_log_warn("finality: cannot write votes to the ledger: %s", err.msg);
    return false;
}

struct best_ctx {
    const struct zbc_checkpoint *cp;
    bool on_best;
};

static int best_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct best_ctx *b = arg;
    uint32_t h;
    bool found;
    if (!zbc_store_txn_height_of(t, b->cp->hash, &h, &found, err))
        return 0;
    b->on_best = found && h == b->cp->height;
    return 1;
}

/* The chain's tip now.  Not f->last_tip: that is the tip on_tip last saw,
 * and finality can move inside a branch switch (a block waiting for the
 * new branch brings votes) before on_tip runs — the old tip may be a block
 * the switch just undid (docs/protocol-chain.md §8.8). */
static struct zbc_checkpoint chain_tip(const struct zbc_finality *f)
{
    const struct zbc_parent *p = zbc_chain_tip(f->chain);
    struct zbc_checkpoint tip = {.height = p->height};
    memcpy(tip.hash, p->hash, 32);
    return tip;
}

static bool on_best_chain(struct zbc_finality *f,
                          const struct zbc_checkpoint *cp)
{
    struct best_ctx b = {cp, false};
    struct zbc_err err = {{0}};
    return zbc_store_read(f->store, best_fn, &b, &err) && b.on_best;
}

/* ---- reacting to changes ---- */

/* The highest final block of the best chain: the final block when the
 * best chain holds it, else the last block the best chain shares with it
 * (a node can learn that a block is final before it switches to its
 * branch), else the genesis.  The chain refuses reorgs below it, the API
 * calls blocks at or below it final, the ledger's "final" names it. */
static struct zbc_checkpoint best_final(struct zbc_finality *f)
{
    struct zbc_checkpoint out = {.height = 0};
    memcpy(out.hash, f->g->hash, 32);
    if (f->final.height == 0 || on_best_chain(f, &f->final))
        return f->final;
    struct zbc_checkpoint tip = chain_tip(f);
    long a = zbc_ffg_find(&f->ffg, &f->final);
    long b = zbc_ffg_find(&f->ffg, &tip);
    while (a >= 0 && b >= 0 && a != b) {
        if (f->ffg.blocks[a].id.height >= f->ffg.blocks[b].id.height)
            a = f->ffg.blocks[a].parent;
        else
            b = f->ffg.blocks[b].parent;
    }
    if (a >= 0 && a == b)
        out = f->ffg.blocks[a].id;
    return out;
}

/* Stores the vote sets of the best-chain blocks of the view (from the tip
 * down to the root, or the given ones) with the "final" and "justified"
 * records in one write transaction, so the stored final block is always
 * supported by stored votes (zbc-audit checks it), and tells the chain. */
static void persist(struct zbc_finality *f, const size_t *blocks, size_t n)
{
    struct zbc_checkpoint bf = best_final(f);
    zbc_chain_set_final_height(f->chain, bf.height);
    size_t *path = NULL;
    /* a new final record: every best-chain set of the view goes with it */
    if (bf.height != f->stored_final.height ||
        memcmp(bf.hash, f->stored_final.hash, 32) != 0)
        blocks = NULL;
    if (blocks == NULL) {
        path = malloc((f->ffg.n ? f->ffg.n : 1) * sizeof *path);
        if (path == NULL) {
            zbc_log_warn("finality: out of memory storing votes");
            return;
        }
        n = 0;
        struct zbc_checkpoint tip = chain_tip(f);
        for (long i = zbc_ffg_find(&f->ffg, &tip); i >= 0;
             i = f->ffg.blocks[i].parent)
            path[n++] = (size_t)i;
        blocks = path;
    }
    if (store_votes(f, blocks, n, &bf))
        f->stored_final = bf;
    free(path);
}

static void conflict(struct zbc_finality *f, const struct zbc_err *err)
{
    if (!f->alarm)
        zbc_log_error("finality: ALARM: %s; this node stops voting",
                      err->msg);
    f->alarm = true;
}

/* After the view moved: store the checkpoints, tell the chain, prune. */
static void moved(struct zbc_finality *f, const struct zbc_ffg_added *a)
{
    if (!a->justified_moved && !a->final_moved)
        return;
    if (a->final_moved)
        f->final = f->ffg.final;
    persist(f, NULL, 0);
    zbc_chain_set_justified(f->chain, &f->ffg.justified);
    if (!a->final_moved)
        return;
    char h[17];
    hex8(h, f->ffg.final.hash);
    zbc_log_info("finality: block %u %s... is final (justified: %u)",
                 f->ffg.final.height, h, f->ffg.justified.height);
    zbc_ffg_prune(&f->ffg);
    zbc_vote_pending_prune(f->pending, f->ffg.final.height);
}

static void gossip(struct zbc_finality *f, const struct zbc_vote *v)
{
    if (f->gossip == NULL)
        return;
    uint8_t b[ZBC_VOTE_LEN];
    zbc_vote_encode(b, v);
    f->gossip(f->gossip_arg, b);
}

static void on_block(void *arg, const struct zbc_block_header *h,
                     const uint8_t hash[32])
{
    struct zbc_finality *f = arg;
    struct zbc_checkpoint cp = {.height = h->height};
    memcpy(cp.hash, hash, 32);
    bool added;
    struct zbc_err err = {{0}};
    if (!zbc_ffg_add_block(&f->ffg, &cp, h->prev_hash, &added, &err)) {
        zbc_log_debug("finality: block %u not followed: %s", h->height,
                      err.msg);
        f->reload = f->ffg.n >= ZBC_FFG_MAX_BLOCKS;
        return;
    }
    uint32_t kept;
    struct zbc_ffg_added a;
    if (!zbc_vote_pending_take(f->pending, &f->ffg, &kept, &a, &err))
        conflict(f, &err);
    moved(f, &a);
}

/* This validator's vote for its new tip, when the rules allow. */
static void vote_for_tip(struct zbc_finality *f, long tip)
{
    struct zbc_vote v;
    struct zbc_err err = {{0}};
    if (!zbc_ffg_make_vote(&f->ffg, &f->voter, &f->last_tip, f->sk, &v,
                           &err)) {
        zbc_log_debug("finality: no vote for block %u: %s",
                      f->last_tip.height, err.msg);
        return;
    }
    if (!voter_save(f, &err)) {
        /* not sent: the old state on disk stays true, and the new one in
         * memory keeps this process from signing at that height again */
        zbc_log_ratelimited("finality-vote-not-saved", ZBC_LOG_PERIOD_MS,
                            ZBC_LOG_ERROR,
                            "finality: vote for block %u not sent: %s",
                            f->last_tip.height, err.msg);
        return;
    }
    struct zbc_ffg_added a;
    if (!zbc_ffg_add_vote(&f->ffg, &v, &a, &err)) {
        if (a.conflict)
            conflict(f, &err);
        else
            zbc_log_error("finality: own vote refused: %s", err.msg);
        return;
    }
    size_t b = (size_t)tip;
    store_votes(f, &b, 1, NULL);
    moved(f, &a);
    gossip(f, &v);
}

/* A node follows the branch holding the highest justified block
 * (docs/protocol-chain.md §8.5), even a lighter one nobody extends yet. */
static void follow_justified(struct zbc_finality *f)
{
    const struct zbc_checkpoint *j = &f->ffg.justified;
    if (j->height == 0 || on_best_chain(f, j))
        return;
    bool switched;
    struct zbc_err err = {{0}};
    if (!zbc_chain_switch_to(f->chain, j->hash, f->now_ms(), &switched, &err))
        zbc_log_warn("finality: cannot follow the justified block %u: %s",
                     j->height, err.msg);
}

/* The view from the ledger: the best-chain blocks from the stored final
 * block up (or from 1440 below the tip) with their stored vote sets. */
static int load_view(struct zbc_finality *f, struct zbc_err *err)
{
    struct load_ctx l = {.f = f};
    l.tip_height = zbc_chain_tip(f->chain)->height;
    if (!zbc_store_read(f->store, load_final_fn, &l, err) ||
        !zbc_ffg_init(&f->ffg, f->g, &l.final, err))
        return 0;
    if (!zbc_store_read(f->store, load_blocks_fn, &l, err)) {
        zbc_ffg_free(&f->ffg);
        return 0;
    }
    f->stored_final = l.final;
    f->final = f->ffg.final; /* the stored votes may have moved it */
    return 1;
}

/* The view again from the ledger (side branches and unstored votes are
 * forgotten; the sync answers and peers bring the votes again). */
static void reload_view(struct zbc_finality *f)
{
    struct zbc_err err = {{0}};
    zbc_ffg_free(&f->ffg);
    f->reload = false;
    if (!load_view(f, &err)) {
        zbc_log_error("finality: cannot rebuild the view: %s; this node "
                      "stops voting", err.msg);
        f->alarm = true;
        if (!zbc_ffg_init(&f->ffg, f->g, &f->final, &err))
            zbc_log_error("finality: %s", err.msg);
    }
}

/* The chain's tip went back to the ledger's after a failed commit: the
 * view, the final and justified blocks the chain is told, and the last
 * tip all come from the ledger again; nothing is written. */
static void on_lost(void *arg)
{
    struct zbc_finality *f = arg;
    uint32_t was = f->final.height;
    reload_view(f);
    const struct zbc_parent *p = zbc_chain_tip(f->chain);
    f->last_tip.height = p->height;
    memcpy(f->last_tip.hash, p->hash, 32);
    zbc_chain_set_final_height(f->chain, best_final(f).height);
    zbc_chain_set_justified(f->chain, &f->ffg.justified);
    if (f->final.height != was)
        zbc_log_warn("finality: final block back at %u (the ledger's) after "
                     "a failed commit", f->final.height);
}

static void on_tip(void *arg)
{
    struct zbc_finality *f = arg;
    if (f->in_tip)
        return;
    if (f->reload)
        /* more blocks above the final one than a view holds: start again
         * from the ledger */
        reload_view(f);
    f->in_tip = true;
    follow_justified(f);
    f->in_tip = false;
    const struct zbc_parent *p = zbc_chain_tip(f->chain);
    struct zbc_checkpoint tip = {.height = p->height};
    memcpy(tip.hash, p->hash, 32);
    if (tip.height == f->last_tip.height &&
        memcmp(tip.hash, f->last_tip.hash, 32) == 0)
        return;
    long ti = zbc_ffg_find(&f->ffg, &tip);
    long li = zbc_ffg_find(&f->ffg, &f->last_tip);
    f->last_tip = tip;
    if (ti < 0) {
        persist(f, NULL, 0); /* off the view: only the records move */
        return;
    }
    /* the blocks that joined the best chain: their kept votes go to disk */
    size_t *path = malloc(f->ffg.n * sizeof *path), n = 0;
    if (path != NULL) {
        for (long i = ti; i >= 0; i = f->ffg.blocks[i].parent) {
            if (li >= 0 && zbc_ffg_is_ancestor(&f->ffg, (size_t)i,
                                               (size_t)li))
                break;
            path[n++] = (size_t)i;
        }
        persist(f, path, n);
        free(path);
    }
    if (f->voting && !f->alarm)
        vote_for_tip(f, ti);
}

/* ---- the interface ---- */

int zbc_finality_open(struct zbc_finality **out,
                      const struct zbc_finality_config *cfg,
                      struct zbc_err *err)
{
    *out = NULL;
    struct zbc_finality *f = calloc(1, sizeof *f);
    if (f == NULL)
        return zbc_fail(err, "out of memory for finality");
    f->chain = cfg->chain;
    f->now_ms = cfg->now_ms != NULL ? cfg->now_ms : zbc_wall_clock_ms;
    f->g = zbc_chain_genesis(cfg->chain);
    f->store = zbc_chain_store(cfg->chain);
    f->pending = malloc(sizeof *f->pending);
    if (f->pending == NULL) {
        free(f);
        return zbc_fail(err, "out of memory for finality");
    }
    zbc_vote_pending_init(f->pending);
    if (!load_view(f, err)) {
        zbc_fail_prefix(err, "finality");
        free(f->pending);
        free(f);
        return 0;
    }
    const struct zbc_parent *p = zbc_chain_tip(cfg->chain);
    f->last_tip.height = p->height;
    memcpy(f->last_tip.hash, p->hash, 32);
    if (cfg->key != NULL && zbc_genesis_is_validator(f->g, cfg->key->pk)) {
        f->voting = true;
        memcpy(f->sk, cfg->key->sk, 64);
        if (!zbc_datadir_path(f->voter_path, sizeof f->voter_path,
                              cfg->datadir, ZBC_FINALITY_VOTER_FILE, err) ||
            !voter_load(f, err))
            goto fail;
    }
    zbc_chain_set_final_height(f->chain, best_final(f).height);
    zbc_chain_set_justified(f->chain, &f->ffg.justified);
    struct zbc_chain_finality_hook h = {on_block, on_tip, on_lost, f};
    zbc_chain_set_finality(f->chain, &h);
    zbc_log_info("finality: final block %u, justified %u, %zu blocks above "
                 "it%s", f->final.height, f->ffg.justified.height,
                 f->ffg.n - 1, f->voting ? ", voting" : "");
    *out = f;
    return 1;
fail:
    zbc_fail_prefix(err, "finality");
    zbc_ffg_free(&f->ffg);
    free(f->pending);
    sodium_memzero(f->sk, sizeof f->sk);
    free(f);
    return 0;
}

void zbc_finality_close(struct zbc_finality *f)
{
    if (f == NULL)
        return;
    zbc_chain_set_finality(f->chain, NULL);
    zbc_ffg_free(&f->ffg);
    free(f->pending);
    sodium_memzero(f->sk, sizeof f->sk);
    free(f);
}

void zbc_finality_set_gossip(struct zbc_finality *f, zbc_finality_gossip_fn fn,
                             void *arg)
{
    f->gossip = fn;
    f->gossip_arg = arg;
}

static enum zbc_vote_rx take_vote(struct zbc_finality *f,
                                  const struct zbc_vote *vp,
                                  struct zbc_err *err)
{
    const struct zbc_vote v = *vp;
    if (!zbc_vote_verify(&v, f->g, NULL, err))
        return ZBC_VOTE_RX_BAD;
    long t = zbc_ffg_find(&f->ffg, &v.target);
    if (t < 0) {
        bool added;
        if (!zbc_vote_pending_add(f->pending, f->g, &v, f->ffg.final.height,
                                  zbc_chain_tip(f->chain)->height, &added,
                                  err))
            return ZBC_VOTE_RX_IGNORED; /* verified above: only the window */
        return added ? ZBC_VOTE_RX_NEW : ZBC_VOTE_RX_KNOWN;
    }
    struct zbc_ffg_added a;
    if (!zbc_ffg_add_vote(&f->ffg, &v, &a, err)) {
        if (!a.conflict)
            return ZBC_VOTE_RX_BAD;
        conflict(f, err);
        return ZBC_VOTE_RX_NEW;
    }
    if (a.slashable) {
        char k[17];
        hex8(k, v.validator);
        zbc_log_warn("finality: validator %s... signed two votes for block "
                     "%u (sources %u and %u): slashable evidence", k,
                     v.target.height, a.evidence[0].source.height,
                     a.evidence[1].source.height);
    }
    if (!a.added)
        return ZBC_VOTE_RX_KNOWN;
    if (on_best_chain(f, &v.target)) {
        size_t b = (size_t)t;
        store_votes(f, &b, 1, NULL);
    }
    moved(f, &a);
    if (a.justified_moved)
        on_tip(f); /* outside the chain: may switch branch, then vote */
    return ZBC_VOTE_RX_NEW;
}

enum zbc_vote_rx zbc_finality_receive(struct zbc_finality *f,
                                      const uint8_t *bytes, size_t len,
                                      struct zbc_err *err)
{
    struct zbc_vote v;
    if (!zbc_vote_decode(&v, bytes, len, err))
        return ZBC_VOTE_RX_BAD;
    return take_vote(f, &v, err);
}

enum zbc_vote_rx zbc_finality_receive_set(struct zbc_finality *f,
                                          const uint8_t *bytes, size_t len,
                                          struct zbc_err *err)
{
    static struct zbc_vote votes[ZBC_VALIDATORS_MAX];
    size_t n;
    if (!zbc_vote_set_decode(f->g, bytes, len, votes, &n, err))
        return ZBC_VOTE_RX_BAD;
    enum zbc_vote_rx out = ZBC_VOTE_RX_KNOWN;
    for (size_t k = 0; k < n; k++) {
        struct zbc_err e;
        if (take_vote(f, &votes[k], &e) == ZBC_VOTE_RX_NEW)
            out = ZBC_VOTE_RX_NEW;
    }
    return out;
}

struct set_ctx {
    uint32_t height;
    uint8_t **bytes;
    size_t *len;
};

static int set_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct set_ctx *s = arg;
    bool found;
    return zbc_store_txn_votes(t, s->height, s->bytes, s->len, &found, err);
}

void zbc_finality_stored_set(struct zbc_finality *f, uint32_t height,
                             uint8_t **bytes, size_t *len)
{
    *bytes = NULL;
    *len = 0;
    struct set_ctx s = {height, bytes, len};
    struct zbc_err err = {{0}};
    if (!zbc_store_read(f->store, set_fn, &s, &err)) {
        free(*bytes);
        *bytes = NULL;
        *len = 0;
    }
}

/* The stored vote set of height h, each vote given to fn; nothing when
 * none is stored or it cannot be read (a stored set that does not decode
 * was refused when it was written and is logged at start). */
static void each_stored_vote(const struct zbc_finality *f, uint32_t h,
                             zbc_finality_gossip_fn fn, void *arg)
{
    static struct zbc_vote stored[ZBC_VALIDATORS_MAX];
    uint8_t *bytes = NULL;
    size_t len = 0, n = 0;
    struct set_ctx s = {h, &bytes, &len};
    struct zbc_err err = {{0}};
    if (zbc_store_read(f->store, set_fn, &s, &err) && bytes != NULL &&
        zbc_vote_set_decode(f->g, bytes, len, stored, &n, &err)) {
        for (size_t k = 0; k < n; k++) {
            uint8_t raw[ZBC_VOTE_LEN];
            zbc_vote_encode(raw, &stored[k]);
            fn(arg, raw);
        }
    }
    free(bytes);
}

void zbc_finality_each_vote(const struct zbc_finality *f,
                            zbc_finality_gossip_fn fn, void *arg)
{
    uint32_t tip = zbc_chain_tip(f->chain)->height;
    uint32_t lo = tip > ZBC_VOTE_PENDING_AHEAD ? tip - ZBC_VOTE_PENDING_AHEAD
                                               : 1;
    /* Below the view (its root is the final block) the votes are only in
     * the store.  A peer that holds those blocks but never saw them
     * justified (it was killed between a block and its votes) gets them
     * from no sync answer: without them it could never count the later
     * votes, whose sources it does not know justified
     * (docs/protocol-chain.md §8.7). */
    uint32_t root = tip + 1;
    for (size_t b = 0; b < f->ffg.n; b++)
        if (f->ffg.blocks[b].id.height < root)
            root = f->ffg.blocks[b].id.height;
    for (uint32_t h = lo; h < root && h <= tip; h++)
        each_stored_vote(f, h, fn, arg);
    for (size_t b = 0; b < f->ffg.n; b++) {
        /* older votes travel with the blocks (sync answers) */
        if (f->ffg.blocks[b].id.height + ZBC_VOTE_PENDING_AHEAD < tip)
            continue;
        for (uint32_t i = 0; i < f->g->n_validators; i++) {
            struct zbc_vote v;
            if (!zbc_ffg_get_vote(&f->ffg, b, i, &v))
                continue;
            uint8_t raw[ZBC_VOTE_LEN];
            zbc_vote_encode(raw, &v);
            fn(arg, raw);
        }
    }
}

const struct zbc_checkpoint *zbc_finality_final(const struct zbc_finality *f)
{
    return &f->final;
}

const struct zbc_checkpoint *zbc_finality_justified(const struct zbc_finality *f)
{
    return &f->ffg.justified;
}
