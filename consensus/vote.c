#include "consensus/vote.h"

#include <stdlib.h>
#include <string.h>

#include "crypto/bytes.h"
#include "crypto/hash.h"
#include "crypto/hex.h"
#include "crypto/sig.h"

#define VOTE_SIGNING_TAG "ZBC-VOTE-v1"

static bool cp_eq(const struct zbc_checkpoint *a,
                  const struct zbc_checkpoint *b)
{
    return a->height == b->height && memcmp(a->hash, b->hash, 32) == 0;
}

static void wr_cp(struct zbc_wr *w, const struct zbc_checkpoint *c)
{
    zbc_wr_le32(w, c->height);
    zbc_wr_bytes(w, c->hash, 32);
}

static void rd_cp(struct zbc_rd *r, struct zbc_checkpoint *c,
                  const char *what_height, const char *what_hash)
{
    c->height = zbc_rd_le32(r, what_height);
    zbc_rd_copy(r, c->hash, 32, what_hash);
}

void zbc_vote_encode(uint8_t out[ZBC_VOTE_LEN], const struct zbc_vote *v)
{
    struct zbc_wr w;
    zbc_wr_init(&w, out, ZBC_VOTE_LEN);
    zbc_wr_u8(&w, v->version);
    wr_cp(&w, &v->source);
    wr_cp(&w, &v->target);
    zbc_wr_bytes(&w, v->validator, 32);
    zbc_wr_bytes(&w, v->signature, 64);
}

int zbc_vote_decode(struct zbc_vote *v, const uint8_t *buf, size_t len,
                    struct zbc_err *err)
{
    memset(v, 0, sizeof *v);
    if (len != ZBC_VOTE_LEN)
        return zbc_fail(err, "vote has %zu bytes, not %d", len, ZBC_VOTE_LEN);
    struct zbc_rd r;
    struct zbc_vote t;
    zbc_rd_init(&r, buf, len);
    t.version = zbc_rd_u8(&r, "version");
    rd_cp(&r, &t.source, "source height", "source hash");
    rd_cp(&r, &t.target, "target height", "target hash");
    zbc_rd_copy(&r, t.validator, 32, "validator");
    zbc_rd_copy(&r, t.signature, 64, "signature");
    if (!zbc_rd_done(&r))
        return zbc_rd_err(&r, err, "vote");
    if (t.version != ZBC_VOTE_VERSION)
        return zbc_fail(err, "vote version %u is not %d", t.version,
                        ZBC_VOTE_VERSION);
    *v = t;
    return 1;
}

void zbc_vote_digest(uint8_t out[32], const uint8_t genesis_hash[32],
                     const struct zbc_checkpoint *source,
                     const struct zbc_checkpoint *target)
{
    uint8_t b[sizeof VOTE_SIGNING_TAG - 1 + 32 + 2 * 36];
    struct zbc_wr w;
    zbc_wr_init(&w, b, sizeof b);
    zbc_wr_bytes(&w, VOTE_SIGNING_TAG, sizeof VOTE_SIGNING_TAG - 1);
    zbc_wr_bytes(&w, genesis_hash, 32);
    wr_cp(&w, source);
    wr_cp(&w, target);
    zbc_sha3_256(out, b, sizeof b);
}

/* Position of pk in g->validators, or -1. */
static int validator_index(const struct zbc_genesis *g, const uint8_t pk[32])
{
    for (uint32_t i = 0; i < g->n_validators && i < ZBC_VALIDATORS_MAX; i++)
        if (memcmp(g->validators[i], pk, 32) == 0)
            return (int)i;
    return -1;
}

static int not_validator(const uint8_t pk[32], struct zbc_err *err,
                         const char *who)
{
    char hex[65];
    zbc_hex_encode(hex, pk, 32);
    return zbc_fail(err, "%s %s is not a validator of this chain", who, hex);
}

static int heights_ok(uint32_t source, uint32_t target, struct zbc_err *err)
{
    if (source >= target)
        return zbc_fail(err, "vote source height %u is not below its target "
                             "height %u", source, target);
    return 1;
}

int zbc_vote_sign(struct zbc_vote *v, const struct zbc_genesis *g,
                  const struct zbc_checkpoint *source,
                  const struct zbc_checkpoint *target, const uint8_t sk[64],
                  struct zbc_err *err)
{
    memset(v, 0, sizeof *v);
    if (!heights_ok(source->height, target->height, err))
        return 0;
    const uint8_t *pk = sk + 32;
    if (validator_index(g, pk) < 0)
        return not_validator(pk, err, "node key");
    v->version = ZBC_VOTE_VERSION;
    v->source = *source;
    v->target = *target;
    memcpy(v->validator, pk, 32);
    uint8_t d[32];
    zbc_vote_digest(d, g->hash, source, target);
    zbc_ed25519_sign(v->signature, sk, d, sizeof d);
    return 1;
}

int zbc_vote_verify(const struct zbc_vote *v, const struct zbc_genesis *g,
                    uint32_t *index, struct zbc_err *err)
{
    if (v->version != ZBC_VOTE_VERSION)
        return zbc_fail(err, "vote version %u is not %d", v->version,
                        ZBC_VOTE_VERSION);
    if (!heights_ok(v->source.height, v->target.height, err))
        return 0;
    int i = validator_index(g, v->validator);
    if (i < 0)
        return not_validator(v->validator, err, "vote signer");
    uint8_t d[32];
    zbc_vote_digest(d, g->hash, &v->source, &v->target);
    if (!zbc_ed25519_verify(v->signature, v->validator, d, sizeof d))
        return zbc_fail(err, "vote signature is invalid (validator %d, "
                             "target height %u)", i, v->target.height);
    if (index != NULL)
        *index = (uint32_t)i;
    return 1;
}

enum zbc_slash zbc_vote_slashable(const struct zbc_vote *a,
                                  const struct zbc_vote *b)
{
    if (memcmp(a->validator, b->validator, 32) != 0)
        return ZBC_SLASH_NONE;
    if (cp_eq(&a->source, &b->source) && cp_eq(&a->target, &b->target))
        return ZBC_SLASH_NONE;
    if (a->target.height == b->target.height)
        return ZBC_SLASH_DOUBLE;
    if ((a->source.height < b->source.height &&
         b->target.height < a->target.height) ||
        (b->source.height < a->source.height &&
         a->target.height < b->target.height))
        return ZBC_SLASH_SURROUND;
    return ZBC_SLASH_NONE;
}

bool zbc_vote_threshold_met(uint32_t count, uint32_t n)
{
    return n > 0 && 3 * (uint64_t)count > 2 * (uint64_t)n;
}

/* ---- the node's view ---- */

static void block_free(struct zbc_ffg_block *b)
{
    free(b->votes);
    b->votes = NULL;
}

static int block_new(struct zbc_ffg *f, const struct zbc_checkpoint *id,
                     long parent, struct zbc_err *err)
{
    if (f->n == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 16;
        struct zbc_ffg_block *nb = realloc(f->blocks, cap * sizeof *nb);
        if (nb == NULL)
            return zbc_fail(err, "out of memory for finality blocks");
        f->blocks = nb;
        f->cap = cap;
    }
    struct zbc_ffg_block *b = &f->blocks[f->n];
    memset(b, 0, sizeof *b);
    b->votes = calloc(f->g->n_validators ? f->g->n_validators : 1,
                      sizeof *b->votes);
    if (b->votes == NULL)
        return zbc_fail(err, "out of memory for finality votes");
    b->id = *id;
    b->parent = parent;
    f->n++;
    return 1;
}

int zbc_ffg_init(struct zbc_ffg *f, const struct zbc_genesis *g,
                 const struct zbc_checkpoint *root, struct zbc_err *err)
{
    memset(f, 0, sizeof *f);
    f->g = g;
    if (!block_new(f, root, -1, err)) {
        zbc_ffg_free(f);
        return 0;
    }
    f->blocks[0].justified = true;
    f->justified = *root;
    f->final = *root;
    return 1;
}

void zbc_ffg_free(struct zbc_ffg *f)
{
    for (size_t i = 0; i < f->n; i++)
        block_free(&f->blocks[i]);
    free(f->blocks);
    f->blocks = NULL;
    f->n = f->cap = 0;
}

long zbc_ffg_find(const struct zbc_ffg *f, const struct zbc_checkpoint *c)
{
    for (size_t i = 0; i < f->n; i++)
        if (cp_eq(&f->blocks[i].id, c))
            return (long)i;
    return -1;
}

bool zbc_ffg_is_ancestor(const struct zbc_ffg *f, size_t a, size_t b)
{
    uint32_t h = f->blocks[a].id.height;
    long i = (long)b;
    while (i >= 0 && f->blocks[i].id.height > h)
        i = f->blocks[i].parent;
    return i == (long)a;
}

bool zbc_ffg_is_final(const struct zbc_ffg *f, const struct zbc_checkpoint *c)
{
    long i = zbc_ffg_find(f, c), fi = zbc_ffg_find(f, &f->final);
    return i >= 0 && fi >= 0 && zbc_ffg_is_ancestor(f, (size_t)i, (size_t)fi);
}

int zbc_ffg_add_block(struct zbc_ffg *f, const struct zbc_checkpoint *block,
                      const uint8_t parent_hash[32], bool *added,
                      struct zbc_err *err)
{
    *added = false;
    if (zbc_ffg_find(f, block) >= 0)
        return 1;
    if (block->height == 0)
        return zbc_fail(err, "block at height 0 is not the root");
    struct zbc_checkpoint pc = {.height = block->height - 1};
    memcpy(pc.hash, parent_hash, 32);
    long p = zbc_ffg_find(f, &pc);
    if (p < 0)
        return zbc_fail(err, "parent of block %u is not held (not above the "
                             "final block, or not added yet)", block->height);
    if (f->n >= ZBC_FFG_MAX_BLOCKS)
        return zbc_fail(err, "finality holds %d blocks above the final one "
                             "already", ZBC_FFG_MAX_BLOCKS);
    if (!block_new(f, block, p, err))
        return 0;
    *added = true;
    return 1;
}

int zbc_ffg_add_block_after_gap(struct zbc_ffg *f,
                                const struct zbc_checkpoint *block,
                                struct zbc_err *err)
{
    if (f->n != 1)
        return zbc_fail(err, "a block after a gap must be the first one "
                             "above the root");
    if (block->height <= f->blocks[0].id.height + 1)
        return zbc_fail(err, "block %u leaves no gap above the root at %u",
                        block->height, f->blocks[0].id.height);
    return block_new(f, block, 0, err);
}

/* Whether validators holding more than two thirds voted for block b from
 * justified ancestors of b; marks it and moves f->justified. */
static bool justify_check(struct zbc_ffg *f, size_t b, bool *moved)
{
    struct zbc_ffg_block *t = &f->blocks[b];
    if (t->justified)
        return false;
    uint32_t count = 0;
    for (uint32_t i = 0; i < f->g->n_validators; i++) {
        if (!(t->voters & ((uint64_t)1 << i)))
            continue;
        long s = zbc_ffg_find(f, &t->votes[i].source);
        if (s >= 0 && (size_t)s != b && f->blocks[s].justified &&
            zbc_ffg_is_ancestor(f, (size_t)s, b))
            count++;
    }
    if (!zbc_vote_threshold_met(count, f->g->n_validators))
        return false;
    t->justified = true;
    if (t->id.height > f->justified.height) {
        f->justified = t->id;
        *moved = true;
    }
    return true;
}

static int finalize(struct zbc_ffg *f, size_t x, struct zbc_ffg_added *out,
                    struct zbc_err *err)
{
    long fi = zbc_ffg_find(f, &f->final);
    if (fi >= 0 && zbc_ffg_is_ancestor(f, x, (size_t)fi))
        return 1;
    if (fi < 0 || !zbc_ffg_is_ancestor(f, (size_t)fi, x)) {
        char a[65], b[65];
        zbc_hex_encode(a, f->blocks[x].id.hash, 32);
        zbc_hex_encode(b, f->final.hash, 32);
        out->conflict = true;
        return zbc_fail(err, "conflicting final blocks: %u %s and %u %s; more "
                             "than a third of the validators broke the "
                             "voting rules", f->blocks[x].id.height, a,
                        f->final.height, b);
    }
    f->final = f->blocks[x].id;
    out->final_moved = true;
    return 1;
}

/* Whether more than two thirds voted with source x for one child of x;
 * x must be justified. */
static int final_check(struct zbc_ffg *f, size_t x,
                       struct zbc_ffg_added *out, struct zbc_err *err)
{
    const struct zbc_ffg_block *xb = &f->blocks[x];
    if (!xb->justified)
        return 1;
    /* one validator: its vote is the whole set, so a justified block is
     * final at once; two conflicting final blocks would need that
     * validator to break the voting rules, as with any n
     * (docs/protocol-chain.md §8.3) */
    if (f->g->n_validators == 1 && x > 0)
        return finalize(f, x, out, err);
    for (size_t c = 0; c < f->n; c++) {
        const struct zbc_ffg_block *cb = &f->blocks[c];
        /* a direct child: not the block after a gap */
        if (cb->parent != (long)x || cb->id.height != xb->id.height + 1)
            continue;
        uint32_t count = 0;
        for (uint32_t i = 0; i < f->g->n_validators; i++)
            if ((cb->voters & ((uint64_t)1 << i)) &&
                cp_eq(&cb->votes[i].source, &xb->id))
                count++;
        if (zbc_vote_threshold_met(count, f->g->n_validators))
            return finalize(f, x, out, err);
    }
    return 1;
}

static bool has_vote_from(const struct zbc_ffg *f, size_t b,
                          const struct zbc_checkpoint *source)
{
    const struct zbc_ffg_block *t = &f->blocks[b];
    for (uint32_t i = 0; i < f->g->n_validators; i++)
        if ((t->voters & ((uint64_t)1 << i)) &&
            cp_eq(&t->votes[i].source, source))
            return true;
    return false;
}

/* Brings justification and finality up to date after a vote for block t:
 * a block that turns justified can justify the blocks voted for from it,
 * and be finalised by its children's votes. */
static int update(struct zbc_ffg *f, size_t t, struct zbc_ffg_added *out,
                  struct zbc_err *err)
{
    long p = f->blocks[t].parent;
    if (p >= 0 && !final_check(f, (size_t)p, out, err))
        return 0;
    if (!justify_check(f, t, &out->justified_moved))
        return 1;
    size_t *queue = malloc(f->n * sizeof *queue), head = 0, tail = 0;
    if (queue == NULL)
        return zbc_fail(err, "out of memory for finality");
    queue[tail++] = t;
    int ok = 1;
    while (ok && head < tail) {
        size_t j = queue[head++];
        ok = final_check(f, j, out, err);
        for (size_t b = 0; ok && b < f->n; b++)
            if (!f->blocks[b].justified &&
                has_vote_from(f, b, &f->blocks[j].id) &&
                justify_check(f, b, &out->justified_moved))
                queue[tail++] = b; /* each block turns justified once */
    }
    free(queue);
    return ok;
}

/* Validator i's vote kept by block b, as a vote. */
static void kept_vote(const struct zbc_ffg *f, size_t b, uint32_t i,
                      struct zbc_vote *v)
{
    v->version = ZBC_VOTE_VERSION;
    v->source = f->blocks[b].votes[i].source;
    v->target = f->blocks[b].id;
    memcpy(v->validator, f->g->validators[i], 32);
    memcpy(v->signature, f->blocks[b].votes[i].signature, 64);
}

int zbc_ffg_add_vote(struct zbc_ffg *f, const struct zbc_vote *v,
                     struct zbc_ffg_added *out, struct zbc_err *err)
{
    memset(out, 0, sizeof *out);
    long t = zbc_ffg_find(f, &v->target);
    if (t < 0)
        return zbc_fail(err, "vote target %u is not held", v->target.height);
    struct zbc_ffg_block *b = &f->blocks[t];
    int known = validator_index(f->g, v->validator);
    if (known >= 0 && (b->voters & ((uint64_t)1 << known))) {
        const struct zbc_ffg_vote *kept = &b->votes[known];
        /* the same bytes as the vote kept: verified then */
        if (v->version == ZBC_VOTE_VERSION &&
            cp_eq(&kept->source, &v->source) &&
            memcmp(kept->signature, v->signature, 64) == 0)
            return 1;
    }
    uint32_t i;
    if (!zbc_vote_verify(v, f->g, &i, err))
        return 0;
    uint64_t bit = (uint64_t)1 << i;
    if (b->voters & bit) {
        if (!cp_eq(&b->votes[i].source, &v->source)) {
            out->slashable = true;
            kept_vote(f, (size_t)t, i, &out->evidence[0]);
            out->evidence[1] = *v;
        }
        return 1;
    }
    b->voters |= bit;
    b->n_votes++;
    b->votes[i].source = v->source;
    memcpy(b->votes[i].signature, v->signature, 64);
    out->added = true;
    return update(f, (size_t)t, out, err);
}

int zbc_ffg_get_vote(const struct zbc_ffg *f, size_t b, uint32_t i,
                     struct zbc_vote *v)
{
    memset(v, 0, sizeof *v);
    if (b >= f->n || i >= f->g->n_validators ||
        !(f->blocks[b].voters & ((uint64_t)1 << i)))
        return 0;
    kept_vote(f, b, i, v);
    return 1;
}

void zbc_ffg_prune(struct zbc_ffg *f)
{
    long fi = zbc_ffg_find(f, &f->final);
    if (fi < 0)
        return;
    /* parents come before children, so the final block is the first kept
     * and a kept block's parent is kept before it; which blocks stay is
     * decided before any moves */
    long *map = malloc(f->n * sizeof *map);
    if (map == NULL)
        return; /* nothing dropped: still correct, only larger */
    for (size_t i = 0; i < f->n; i++) {
        long p = f->blocks[i].parent;
        map[i] = (long)i == fi || (p >= 0 && map[p] >= 0) ? 0 : -1;
    }
    size_t k = 0;
    for (size_t i = 0; i < f->n; i++) {
        if (map[i] < 0) {
            block_free(&f->blocks[i]);
            continue;
        }
        long p = f->blocks[i].parent;
        map[i] = (long)k;
        f->blocks[k] = f->blocks[i];
        f->blocks[k].parent = (long)i == fi ? -1 : map[p];
        k++;
    }
    f->n = k;
    free(map);
}

/* ---- an honest validator ---- */

void zbc_voter_init(struct zbc_voter *s, const uint8_t genesis_hash[32])
{
    s->last_target_height = 0;
    s->lock.height = 0;
    memcpy(s->lock.hash, genesis_hash, 32);
}

int zbc_ffg_make_vote(const struct zbc_ffg *f, struct zbc_voter *s,
                      const struct zbc_checkpoint *target,
                      const uint8_t sk[64], struct zbc_vote *v,
                      struct zbc_err *err)
{
    memset(v, 0, sizeof *v);
    if (target->height <= s->last_target_height)
        return zbc_fail(err, "rule 1: this validator already voted at height "
                             "%u, not above it at %u", s->last_target_height,
                        target->height);
    const struct zbc_checkpoint *src = &f->justified;
    if (src->height < s->lock.height ||
        (src->height == s->lock.height && !cp_eq(src, &s->lock)))
        return zbc_fail(err, "rule 2: the highest justified block known "
                             "(height %u) is not this validator's lock "
                             "(height %u) or above it", src->height,
                        s->lock.height);
    long t = zbc_ffg_find(f, target), si = zbc_ffg_find(f, src);
    if (t < 0)
        return zbc_fail(err, "target %u is not held", target->height);
    if (si < 0 || t == si || !zbc_ffg_is_ancestor(f, (size_t)si, (size_t)t))
        return zbc_fail(err, "rule 3: block %u does not descend from the "
                             "highest justified block (height %u)",
                        target->height, src->height);
    if (!zbc_vote_sign(v, f->g, src, target, sk, err))
        return 0;
    s->last_target_height = target->height;
    s->lock = *src;
    return 1;
}

/* ---- vote sets ---- */

size_t zbc_ffg_vote_set(const struct zbc_ffg *f, size_t b,
                        uint8_t out[ZBC_VOTE_SET_MAX_LEN])
{
    const struct zbc_ffg_block *t = &f->blocks[b];
    struct zbc_wr w;
    zbc_wr_init(&w, out, ZBC_VOTE_SET_MAX_LEN);
    zbc_wr_u8(&w, ZBC_VOTE_SET_VERSION);
    wr_cp(&w, &t->id);
    zbc_wr_u8(&w, (uint8_t)t->n_votes);
    for (uint32_t i = 0; i < f->g->n_validators; i++) {
        if (!(t->voters & ((uint64_t)1 << i)))
            continue;
        wr_cp(&w, &t->votes[i].source);
        zbc_wr_bytes(&w, f->g->validators[i], 32);
        zbc_wr_bytes(&w, t->votes[i].signature, 64);
    }
    return w.len;
}

int zbc_vote_set_decode(const struct zbc_genesis *g, const uint8_t *buf,
                        size_t len, struct zbc_vote votes[ZBC_VALIDATORS_MAX],
                        size_t *n, struct zbc_err *err)
{
    struct zbc_rd r;
    struct zbc_checkpoint target;
    *n = 0;
    zbc_rd_init(&r, buf, len);
    uint8_t version = zbc_rd_u8(&r, "version");
    rd_cp(&r, &target, "target height", "target hash");
    uint8_t count = zbc_rd_u8(&r, "count");
    if (!zbc_rd_ok(&r))
        return zbc_rd_err(&r, err, "vote set");
    if (version != ZBC_VOTE_SET_VERSION)
        return zbc_fail(err, "vote set version %u is not %d", version,
                        ZBC_VOTE_SET_VERSION);
    if (count == 0)
        return zbc_fail(err, "vote set holds no vote");
    if (count > g->n_validators)
        return zbc_fail(err, "vote set holds %u votes but the chain has %u "
                             "validators", count, g->n_validators);
    /* the length is checked before any signature is */
    if (r.left != (size_t)count * ZBC_VOTE_SET_ENTRY_LEN)
        return zbc_fail(err, "vote set of %u votes needs %u bytes after its "
                             "header, not %zu", count,
                        count * ZBC_VOTE_SET_ENTRY_LEN, r.left);
    int prev = -1;
    for (unsigned k = 0; k < count; k++) {
        struct zbc_vote *v = &votes[k];
        v->version = ZBC_VOTE_VERSION;
        v->target = target;
        rd_cp(&r, &v->source, "source height", "source hash");
        zbc_rd_copy(&r, v->validator, 32, "validator");
        zbc_rd_copy(&r, v->signature, 64, "signature");
        uint32_t i;
        if (!zbc_rd_ok(&r))
            return zbc_rd_err(&r, err, "vote set");
        if (!zbc_vote_verify(v, g, &i, err))
            return zbc_fail_prefix(err, "vote set: vote %u", k);
        /* g->validators is ascending, so index order is key order */
        if ((int)i <= prev)
            return zbc_fail(err, "vote set: vote %u is not in strictly "
                                 "ascending validator order", k);
        prev = (int)i;
    }
    if (!zbc_rd_done(&r))
        return zbc_rd_err(&r, err, "vote set");
    *n = count;
    return 1;
}

/* ---- fork choice and the reorg rule ---- */

int zbc_final_reorg_allowed(const struct zbc_checkpoint *final,
                            uint32_t tip_height, uint32_t fork_height,
                            struct zbc_err *err)
{
    if (fork_height > tip_height)
        return zbc_fail(err, "fork point at height %u is above the tip at "
                             "height %u", fork_height, tip_height);
    if (fork_height < final->height)
        return zbc_fail(err, "branch forks at height %u, below the final "
                             "block at height %u", fork_height, final->height);
    if (tip_height - fork_height > ZBC_REORG_MAX_DEPTH)
        return zbc_fail(err, "branch forks %u blocks below the tip, deeper "
                             "than %d", tip_height - fork_height,
                        ZBC_REORG_MAX_DEPTH);
    return 1;
}

int zbc_final_branch_cmp(const struct zbc_tip *a, uint32_t a_justified,
                         const struct zbc_tip *b, uint32_t b_justified)
{
    if (a_justified != b_justified)
        return a_justified > b_justified ? 1 : -1;
    return zbc_fork_choice_cmp(a, b);
}

/* ---- votes before their block ---- */

void zbc_vote_pending_init(struct zbc_vote_pending *p)
{
    p->n = 0;
}

static bool votes_equal(const struct zbc_vote *a, const struct zbc_vote *b)
{
    return a->version == b->version && cp_eq(&a->source, &b->source) &&
           cp_eq(&a->target, &b->target) &&
           memcmp(a->validator, b->validator, 32) == 0 &&
           memcmp(a->signature, b->signature, 64) == 0;
}

static void pending_remove_at(struct zbc_vote_pending *p, size_t i)
{
    p->votes[i] = p->votes[--p->n];
}

int zbc_vote_pending_add(struct zbc_vote_pending *p,
                         const struct zbc_genesis *g, const struct zbc_vote *v,
                         uint32_t final_height, uint32_t tip_height,
                         bool *added, struct zbc_err *err)
{
    *added = false;
    uint32_t h = v->target.height;
    if (h <= final_height)
        return zbc_fail(err, "vote for height %u, at or below the final "
                             "height %u", h, final_height);
    if (h > tip_height && h - tip_height > ZBC_VOTE_PENDING_AHEAD)
        return zbc_fail(err, "vote for height %u, more than %d above the tip "
                             "at height %u", h, ZBC_VOTE_PENDING_AHEAD,
                        tip_height);
    /* the same bytes as a vote held: verified then */
    for (size_t i = 0; i < p->n; i++)
        if (votes_equal(&p->votes[i], v))
            return 1;
    if (!zbc_vote_verify(v, g, NULL, err))
        return 0;
    size_t mine = 0, lowest = 0;
    for (size_t i = 0; i < p->n; i++) {
        const struct zbc_vote *o = &p->votes[i];
        if (memcmp(o->validator, v->validator, 32) != 0)
            continue;
        if (cp_eq(&o->target, &v->target))
            return 1; /* the first vote for a target is the one kept */
        if (mine == 0 || o->target.height < p->votes[lowest].target.height)
            lowest = i;
        mine++;
    }
    if (mine >= ZBC_VOTE_PENDING_PER_VALIDATOR) {
        if (h <= p->votes[lowest].target.height)
            return 1;
        pending_remove_at(p, lowest);
    }
    if (p->n >= ZBC_VOTE_PENDING_MAX) /* unreachable: n <= 64 x quota */
        return zbc_fail(err, "pending vote buffer is full");
    p->votes[p->n++] = *v;
    *added = true;
    return 1;
}

int zbc_vote_pending_take(struct zbc_vote_pending *p, struct zbc_ffg *f,
                          uint32_t *kept, struct zbc_ffg_added *out,
                          struct zbc_err *err)
{
    *kept = 0;
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < p->n;) {
        if (zbc_ffg_find(f, &p->votes[i].target) < 0) {
            i++;
            continue;
        }
        struct zbc_vote v = p->votes[i];
        pending_remove_at(p, i);
        struct zbc_ffg_added a;
        struct zbc_err e;
        if (!zbc_ffg_add_vote(f, &v, &a, &e)) {
            if (a.conflict) {
                out->conflict = true;
                if (err != NULL)
                    *err = e;
                return 0;
            }
            continue; /* a vote that no longer fits is dropped */
        }
        *kept += a.added;
        out->justified_moved |= a.justified_moved;
        out->final_moved |= a.final_moved;
        if (a.slashable && !out->slashable) {
            out->slashable = true;
            memcpy(out->evidence, a.evidence, sizeof a.evidence);
        }
    }
    return 1;
}

void zbc_vote_pending_prune(struct zbc_vote_pending *p, uint32_t final_height)
{
    for (size_t i = 0; i < p->n;) {
        if (p->votes[i].target.height <= final_height)
            pending_remove_at(p, i);
        else
            i++;
    }
}
