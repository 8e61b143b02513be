#include "consensus/vote.h"

#include <string.h>

#include "crypto/bytes.h"
#include "crypto/hash.h"
#include "crypto/hex.h"
#include "crypto/sig.h"

#define VOTE_SIGNING_TAG "ZBC-VOTE-v1"

void zbc_vote_encode(uint8_t out[ZBC_VOTE_LEN], const struct zbc_vote *v)
{
    struct zbc_wr w;
    zbc_wr_init(&w, out, ZBC_VOTE_LEN);
    zbc_wr_u8(&w, v->version);
    zbc_wr_le32(&w, v->height);
    zbc_wr_bytes(&w, v->block_hash, 32);
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
    t.height = zbc_rd_le32(&r, "height");
    zbc_rd_copy(&r, t.block_hash, 32, "block hash");
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
                     uint32_t height, const uint8_t block_hash[32])
{
    uint8_t h[4];
    zbc_put_le32(h, height);
    struct zbc_sha3 s;
    zbc_sha3_init(&s);
    zbc_sha3_update(&s, VOTE_SIGNING_TAG, strlen(VOTE_SIGNING_TAG));
    zbc_sha3_update(&s, genesis_hash, 32);
    zbc_sha3_update(&s, h, 4);
    zbc_sha3_update(&s, block_hash, 32);
    zbc_sha3_final(&s, out);
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

int zbc_vote_sign(struct zbc_vote *v, const struct zbc_genesis *g,
                  uint32_t height, const uint8_t block_hash[32],
                  const uint8_t sk[64], struct zbc_err *err)
{
    memset(v, 0, sizeof *v);
    if (height == 0)
        return zbc_fail(err, "no vote for height 0: the genesis is final "
                             "without votes");
    const uint8_t *pk = sk + 32;
    if (validator_index(g, pk) < 0)
        return not_validator(pk, err, "node key");
    v->version = ZBC_VOTE_VERSION;
    v->height = height;
    memcpy(v->block_hash, block_hash, 32);
    memcpy(v->validator, pk, 32);
    uint8_t d[32];
    zbc_vote_digest(d, g->hash, height, block_hash);
    zbc_ed25519_sign(v->signature, sk, d, sizeof d);
    return 1;
}

int zbc_vote_verify(const struct zbc_vote *v, const struct zbc_genesis *g,
                    uint32_t *index, struct zbc_err *err)
{
    if (v->version != ZBC_VOTE_VERSION)
        return zbc_fail(err, "vote version %u is not %d", v->version,
                        ZBC_VOTE_VERSION);
    if (v->height == 0)
        return zbc_fail(err, "vote for height 0: the genesis is final "
                             "without votes");
    int i = validator_index(g, v->validator);
    if (i < 0)
        return not_validator(v->validator, err, "vote signer");
    uint8_t d[32];
    zbc_vote_digest(d, g->hash, v->height, v->block_hash);
    if (!zbc_ed25519_verify(v->signature, v->validator, d, sizeof d))
        return zbc_fail(err, "vote signature is invalid (validator %d, "
                             "height %u)", i, v->height);
    if (index != NULL)
        *index = (uint32_t)i;
    return 1;
}

bool zbc_vote_threshold_met(uint32_t count, uint32_t n)
{
    return n > 0 && 3 * (uint64_t)count > 2 * (uint64_t)n;
}

void zbc_vote_tally_init(struct zbc_vote_tally *t, uint32_t height,
                         const uint8_t block_hash[32])
{
    memset(t, 0, sizeof *t);
    t->height = height;
    memcpy(t->block_hash, block_hash, 32);
}

int zbc_vote_tally_add(struct zbc_vote_tally *t, const struct zbc_genesis *g,
                       const struct zbc_vote *v, bool *added,
                       struct zbc_err *err)
{
    *added = false;
    if (memcmp(v->block_hash, t->block_hash, 32) != 0)
        return zbc_fail(err, "vote is for another block than this tally's");
    if (v->height != t->height)
        return zbc_fail(err, "vote says height %u for a block at height %u",
                        v->height, t->height);
    /* the same bytes as a vote already counted: verified then */
    int known = validator_index(g, v->validator);
    if (known >= 0 && v->version == ZBC_VOTE_VERSION &&
        (t->voters & ((uint64_t)1 << known)) &&
        memcmp(t->sigs[known], v->signature, 64) == 0)
        return 1;
    uint32_t i;
    if (!zbc_vote_verify(v, g, &i, err))
        return 0;
    uint64_t bit = (uint64_t)1 << i;
    if (t->voters & bit)
        return 1;
    t->voters |= bit;
    t->count++;
    memcpy(t->sigs[i], v->signature, 64);
    *added = true;
    return 1;
}

bool zbc_vote_tally_final(const struct zbc_vote_tally *t,
                          const struct zbc_genesis *g)
{
    return zbc_vote_threshold_met(t->count, g->n_validators);
}

int zbc_vote_tally_get(const struct zbc_vote_tally *t,
                       const struct zbc_genesis *g, uint32_t i,
                       struct zbc_vote *v)
{
    memset(v, 0, sizeof *v);
    if (i >= g->n_validators || i >= ZBC_VALIDATORS_MAX ||
        !(t->voters & ((uint64_t)1 << i)))
        return 0;
    v->version = ZBC_VOTE_VERSION;
    v->height = t->height;
    memcpy(v->block_hash, t->block_hash, 32);
    memcpy(v->validator, g->validators[i], 32);
    memcpy(v->signature, t->sigs[i], 64);
    return 1;
}

size_t zbc_vote_set_encode(uint8_t out[ZBC_VOTE_SET_MAX_LEN],
                           const struct zbc_vote_tally *t,
                           const struct zbc_genesis *g)
{
    struct zbc_wr w;
    zbc_wr_init(&w, out, ZBC_VOTE_SET_MAX_LEN);
    zbc_wr_u8(&w, ZBC_VOTE_SET_VERSION);
    zbc_wr_le32(&w, t->height);
    zbc_wr_bytes(&w, t->block_hash, 32);
    zbc_wr_u8(&w, (uint8_t)t->count);
    for (uint32_t i = 0; i < g->n_validators && i < ZBC_VALIDATORS_MAX; i++) {
        if (!(t->voters & ((uint64_t)1 << i)))
            continue;
        zbc_wr_bytes(&w, g->validators[i], 32);
        zbc_wr_bytes(&w, t->sigs[i], 64);
    }
    return w.len;
}

int zbc_vote_set_decode(struct zbc_vote_tally *t, const struct zbc_genesis *g,
                        const uint8_t *buf, size_t len, struct zbc_err *err)
{
    struct zbc_rd r;
    struct zbc_vote v;
    uint8_t hash[32];
    memset(t, 0, sizeof *t);
    zbc_rd_init(&r, buf, len);
    uint8_t version = zbc_rd_u8(&r, "version");
    uint32_t height = zbc_rd_le32(&r, "height");
    zbc_rd_copy(&r, hash, 32, "block hash");
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
    zbc_vote_tally_init(t, height, hash);
    int prev = -1;
    for (unsigned k = 0; k < count; k++) {
        v.version = ZBC_VOTE_VERSION;
        v.height = height;
        memcpy(v.block_hash, hash, 32);
        zbc_rd_copy(&r, v.validator, 32, "validator");
        zbc_rd_copy(&r, v.signature, 64, "signature");
        if (!zbc_rd_ok(&r)) {
            memset(t, 0, sizeof *t);
            return zbc_rd_err(&r, err, "vote set");
        }
        uint32_t i;
        if (!zbc_vote_verify(&v, g, &i, err)) {
            memset(t, 0, sizeof *t);
            return zbc_fail_prefix(err, "vote set: vote %u", k);
        }
        /* g->validators is ascending, so index order is key order */
        if (k > 0 && (int)i <= prev) {
            memset(t, 0, sizeof *t);
            return zbc_fail(err, "vote set: vote %u is not in strictly "
                                 "ascending validator order", k);
        }
        prev = (int)i;
        t->voters |= (uint64_t)1 << i;
        t->count++;
        memcpy(t->sigs[i], v.signature, 64);
    }
    if (!zbc_rd_done(&r)) {
        memset(t, 0, sizeof *t);
        return zbc_rd_err(&r, err, "vote set");
    }
    return 1;
}

void zbc_final_init(struct zbc_final_point *f, const uint8_t genesis_hash[32])
{
    f->height = 0;
    memcpy(f->hash, genesis_hash, 32);
}

bool zbc_final_covers(const struct zbc_final_point *f, uint32_t height)
{
    return height <= f->height;
}

int zbc_final_advance(struct zbc_final_point *f, uint32_t height,
                      const uint8_t hash[32], bool *moved,
                      struct zbc_err *err)
{
    *moved = false;
    if (height < f->height)
        return 1;
    if (height == f->height) {
        if (memcmp(hash, f->hash, 32) != 0)
            return zbc_fail(err, "conflicting final blocks at height %u: more "
                                 "than a third of the validators voted for "
                                 "both", height);
        return 1;
    }
    f->height = height;
    memcpy(f->hash, hash, 32);
    *moved = true;
    return 1;
}

int zbc_final_reorg_allowed(const struct zbc_final_point *f,
                            uint32_t tip_height, uint32_t fork_height,
                            struct zbc_err *err)
{
    if (fork_height > tip_height)
        return zbc_fail(err, "fork point at height %u is above the tip at "
                             "height %u", fork_height, tip_height);
    if (fork_height < f->height)
        return zbc_fail(err, "branch forks at height %u, below the final "
                             "block at height %u", fork_height, f->height);
    if (tip_height - fork_height > ZBC_REORG_MAX_DEPTH)
        return zbc_fail(err, "branch forks %u blocks below the tip, deeper "
                             "than %d", tip_height - fork_height,
                        ZBC_REORG_MAX_DEPTH);
    return 1;
}

int zbc_final_branch_cmp(const struct zbc_tip *a, bool a_final,
                         const struct zbc_tip *b, bool b_final)
{
    if (a_final != b_final)
        return a_final ? 1 : -1;
    return zbc_fork_choice_cmp(a, b);
}

void zbc_vote_pending_init(struct zbc_vote_pending *p)
{
    p->n = 0;
}

static bool votes_equal(const struct zbc_vote *a, const struct zbc_vote *b)
{
    return a->version == b->version && a->height == b->height &&
           memcmp(a->block_hash, b->block_hash, 32) == 0 &&
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
    if (v->height <= final_height)
        return zbc_fail(err, "vote for height %u, at or below the final "
                             "height %u", v->height, final_height);
    if (v->height > tip_height &&
        v->height - tip_height > ZBC_VOTE_PENDING_AHEAD)
        return zbc_fail(err, "vote for height %u, more than %d above the tip "
                             "at height %u", v->height, ZBC_VOTE_PENDING_AHEAD,
                        tip_height);
    /* the same bytes as a vote held: verified then */
    for (size_t i = 0; i < p->n; i++)
        if (votes_equal(&p->votes[i], v))
            return 1;
    if (!zbc_vote_verify(v, g, NULL, err))
        return 0;
    size_t mine = 0, lowest = 0;
    for (size_t i = 0; i < p->n; i++) {
        const struct zbc_vote *h = &p->votes[i];
        if (memcmp(h->validator, v->validator, 32) != 0)
            continue;
        if (memcmp(h->block_hash, v->block_hash, 32) == 0 &&
            h->height == v->height)
            return 1;
        if (mine == 0 || h->height < p->votes[lowest].height)
            lowest = i;
        mine++;
    }
    if (mine >= ZBC_VOTE_PENDING_PER_VALIDATOR) {
        if (v->height <= p->votes[lowest].height)
            return 1;
        pending_remove_at(p, lowest);
    }
    if (p->n >= ZBC_VOTE_PENDING_MAX) /* unreachable: n <= 64 x quota */
        return zbc_fail(err, "pending vote buffer is full");
    p->votes[p->n++] = *v;
    *added = true;
    return 1;
}

uint32_t zbc_vote_pending_take(struct zbc_vote_pending *p,
                               const struct zbc_genesis *g,
                               struct zbc_vote_tally *t)
{
    uint32_t counted = 0;
    for (size_t i = 0; i < p->n;) {
        const struct zbc_vote *h = &p->votes[i];
        if (memcmp(h->block_hash, t->block_hash, 32) != 0) {
            i++;
            continue;
        }
        struct zbc_err err;
        bool added = false;
        if (zbc_vote_tally_add(t, g, h, &added, &err) && added)
            counted++;
        pending_remove_at(p, i);
    }
    return counted;
}

void zbc_vote_pending_prune(struct zbc_vote_pending *p, uint32_t final_height)
{
    for (size_t i = 0; i < p->n;) {
        if (p->votes[i].height <= final_height)
            pending_remove_at(p, i);
        else
            i++;
    }
}
