/* Final confirmations: validator votes, their tally, finality of a block
 * and its ancestors, and the rule that a node never reorganises past a
 * final block (docs/protocol-chain.md §8 "Finality").  Pure: no clock, no
 * network, no disk; the node passes bytes and its chain's heights in.
 *
 * Vote bytes (ZBC_VOTE_LEN = 133, integers LE):
 *   version u8 = 1 | height u32 | block_hash 32 | validator 32 | signature 64
 * signature = Ed25519(validator node key, vote digest)
 * vote digest = H("ZBC-VOTE-v1" || genesis_hash || height u32 || block_hash)
 *
 * Vote set bytes (what the node stores with a block, what zbc-audit checks):
 *   version u8 = 1 | height u32 | block_hash 32 | count u8 |
 *   count x (validator 32 | signature 64), validators strictly ascending
 *
 * A block is final when distinct validators of the genesis set holding
 * more than two thirds of it voted for it: 3 * count > 2 * n (1 of 1,
 * 2 of 2, 3 of 3, 3 of 4, 5 of 7).  A final block makes its ancestors
 * final. */
#ifndef ZBC_VOTE_H
#define ZBC_VOTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "consensus/fork_choice.h"
#include "consensus/genesis.h"
#include "crypto/err.h"

#define ZBC_VOTE_VERSION 1
#define ZBC_VOTE_LEN 133
#define ZBC_VOTE_SET_VERSION 1
#define ZBC_VOTE_SET_HEADER_LEN 38 /* version | height | block hash | count */
#define ZBC_VOTE_SET_ENTRY_LEN 96  /* validator | signature */
#define ZBC_VOTE_SET_MAX_LEN \
    (ZBC_VOTE_SET_HEADER_LEN + ZBC_VALIDATORS_MAX * ZBC_VOTE_SET_ENTRY_LEN)

struct zbc_vote {
    uint8_t version;        /* ZBC_VOTE_VERSION */
    uint32_t height;        /* of the block voted for, >= 1 */
    uint8_t block_hash[32];
    uint8_t validator[32];  /* Ed25519 node key */
    uint8_t signature[64];
};

/* ---- one vote ---- */

void zbc_vote_encode(uint8_t out[ZBC_VOTE_LEN], const struct zbc_vote *v);
/* Decodes exactly ZBC_VOTE_LEN bytes: length and version are checked;
 * the signature and the signer are zbc_vote_verify's job.  On failure v
 * is zeroed. */
ZBC_WUR int zbc_vote_decode(struct zbc_vote *v, const uint8_t *buf,
                            size_t len, struct zbc_err *err);

/* H("ZBC-VOTE-v1" || genesis_hash || height u32 LE || block_hash): the
 * 32 bytes the node key signs (docs/protocol.md §5: only tagged
 * digests). */
void zbc_vote_digest(uint8_t out[32], const uint8_t genesis_hash[32],
                     uint32_t height, const uint8_t block_hash[32]);

/* Fills v with this node key's vote for the block (height, block_hash) of
 * chain g.  sk is libsodium's 64 bytes (seed || public key); fails when
 * the key is not a validator of g or height is 0 (the genesis is final
 * without votes). */
ZBC_WUR int zbc_vote_sign(struct zbc_vote *v, const struct zbc_genesis *g,
                          uint32_t height, const uint8_t block_hash[32],
                          const uint8_t sk[64], struct zbc_err *err);

/* Checks a vote against chain g: version, height >= 1, the signer is a
 * validator of g, the signature is valid over the vote digest with g's
 * hash.  *index (may be NULL) gets the signer's position in
 * g->validators. */
ZBC_WUR int zbc_vote_verify(const struct zbc_vote *v,
                            const struct zbc_genesis *g, uint32_t *index,
                            struct zbc_err *err);

/* ---- threshold and tally ---- */

/* Whether count distinct validators out of n are more than two thirds:
 * 3 * count > 2 * n, in 64 bits.  n = 0 is never final. */
bool zbc_vote_threshold_met(uint32_t count, uint32_t n);

/* The votes one block has gathered: one bit and one signature per
 * validator of the genesis set (g->validators order; n <= 64). */
struct zbc_vote_tally {
    uint32_t height;
    uint8_t block_hash[32];
    uint64_t voters;   /* bit i: g->validators[i] voted */
    uint32_t count;    /* bits set in voters */
    uint8_t sigs[ZBC_VALIDATORS_MAX][64];
};

void zbc_vote_tally_init(struct zbc_vote_tally *t, uint32_t height,
                         const uint8_t block_hash[32]);
/* Verifies v (zbc_vote_verify) and that it is for this tally's block and
 * height, then counts its signer once: *added is false when that
 * validator was already counted (the first signature is kept).  A vote
 * that fails leaves t unchanged. */
ZBC_WUR int zbc_vote_tally_add(struct zbc_vote_tally *t,
                               const struct zbc_genesis *g,
                               const struct zbc_vote *v, bool *added,
                               struct zbc_err *err);
/* Whether the tally's block is final for chain g. */
bool zbc_vote_tally_final(const struct zbc_vote_tally *t,
                          const struct zbc_genesis *g);
/* The vote of the i-th validator of g that the tally counted; 0 when it
 * did not vote (for gossiping a stored block's votes). */
ZBC_WUR int zbc_vote_tally_get(const struct zbc_vote_tally *t,
                               const struct zbc_genesis *g, uint32_t i,
                               struct zbc_vote *v);

/* Vote set bytes of a tally (header comment); returns the length written,
 * at most ZBC_VOTE_SET_MAX_LEN. */
size_t zbc_vote_set_encode(uint8_t out[ZBC_VOTE_SET_MAX_LEN],
                           const struct zbc_vote_tally *t,
                           const struct zbc_genesis *g);
/* Decodes vote set bytes into t, verifying every vote against g: version,
 * count >= 1, validators strictly ascending (so none twice), each one a
 * validator with a valid signature, nothing trailing.  On failure t is
 * zeroed and err names the first bad vote. */
ZBC_WUR int zbc_vote_set_decode(struct zbc_vote_tally *t,
                                const struct zbc_genesis *g,
                                const uint8_t *buf, size_t len,
                                struct zbc_err *err);

/* ---- finality on the node's chain ---- */

/* The highest final block of the node's best chain: the genesis (height
 * 0, genesis hash) until votes make a block final.  Every block of that
 * chain at or below `height` is final (a final block makes its ancestors
 * final). */
struct zbc_final_point {
    uint32_t height;
    uint8_t hash[32];
};

void zbc_final_init(struct zbc_final_point *f, const uint8_t genesis_hash[32]);
/* Whether the block at `height` of the chain holding f is final. */
bool zbc_final_covers(const struct zbc_final_point *f, uint32_t height);
/* Records that the block (height, hash) of the chain holding f became
 * final.  A lower height is already final (*moved false); a higher one
 * moves f (*moved true); the same height with another hash fails: two
 * conflicting blocks final means more than a third of the validators
 * signed both (the caller must stop and alarm, not pick one). */
ZBC_WUR int zbc_final_advance(struct zbc_final_point *f, uint32_t height,
                              const uint8_t hash[32], bool *moved,
                              struct zbc_err *err);
/* The reorg rule: replacing the chain whose tip is at tip_height by a
 * branch whose last block in common with it (the fork point) is at
 * fork_height is allowed only when fork_height >= f->height (never past a
 * final block) and tip_height - fork_height <= ZBC_REORG_MAX_DEPTH (1440,
 * for the blocks not yet final).  err says which rule refused. */
ZBC_WUR int zbc_final_reorg_allowed(const struct zbc_final_point *f,
                                    uint32_t tip_height, uint32_t fork_height,
                                    struct zbc_err *err);
/* Fork choice with finality: a branch holding a block that votes made
 * final above the node's final point is preferred to one that does not;
 * otherwise (neither or both: both is conflicting finality, the caller's
 * alarm) zbc_fork_choice_cmp decides.  > 0 when a is preferred. */
int zbc_final_branch_cmp(const struct zbc_tip *a, bool a_final,
                         const struct zbc_tip *b, bool b_final);

/* ---- votes that arrive before their block ---- */

/* A bounded buffer of verified votes for blocks the node does not hold
 * yet (docs/protocol-chain.md §8.6): at most ZBC_VOTE_PENDING_PER_VALIDATOR
 * per validator, so no validator can crowd out another, and only for
 * heights above the final height and at most ZBC_VOTE_PENDING_AHEAD above
 * the node's tip.  Policy, not consensus. */
#define ZBC_VOTE_PENDING_PER_VALIDATOR 16
#define ZBC_VOTE_PENDING_AHEAD 64
#define ZBC_VOTE_PENDING_MAX \
    (ZBC_VALIDATORS_MAX * ZBC_VOTE_PENDING_PER_VALIDATOR)

struct zbc_vote_pending {
    size_t n;
    struct zbc_vote votes[ZBC_VOTE_PENDING_MAX];
};

void zbc_vote_pending_init(struct zbc_vote_pending *p);
/* Verifies v (zbc_vote_verify) and holds it.  Refused with a reason: a
 * vote that does not verify, height <= final_height (that block is final
 * or conflicts with a final one), height > tip_height +
 * ZBC_VOTE_PENDING_AHEAD.  A vote already held is a success with *added
 * false.  When its validator already has ZBC_VOTE_PENDING_PER_VALIDATOR
 * votes held, the lowest of them (by height) makes room, unless the new
 * vote is lower still (*added false). */
ZBC_WUR int zbc_vote_pending_add(struct zbc_vote_pending *p,
                                 const struct zbc_genesis *g,
                                 const struct zbc_vote *v,
                                 uint32_t final_height, uint32_t tip_height,
                                 bool *added, struct zbc_err *err);
/* Moves every held vote for t's block into t (zbc_vote_tally_add; a held
 * vote whose height differs from t's is dropped) and returns how many
 * validators it added. */
uint32_t zbc_vote_pending_take(struct zbc_vote_pending *p,
                               const struct zbc_genesis *g,
                               struct zbc_vote_tally *t);
/* Drops the held votes at or below final_height. */
void zbc_vote_pending_prune(struct zbc_vote_pending *p,
                            uint32_t final_height);

#endif
