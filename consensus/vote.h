/* Final confirmations: Casper FFG votes with every height a checkpoint
 * (docs/protocol-chain.md §8 "Finality").  Pure: no clock, no network, no
 * disk; the node passes blocks, votes and heights in.
 *
 * Vote bytes (ZBC_VOTE_LEN = 169, integers LE):
 *   version u8 = 1 | source height u32 | source hash 32 |
 *   target height u32 | target hash 32 | validator 32 | signature 64
 * signature = Ed25519(validator node key, vote digest)
 * vote digest = H("ZBC-VOTE-v1" || genesis_hash || source height u32 ||
 *                 source hash || target height u32 || target hash)
 *
 * target = the block voted for; source = the voter's lock, the highest
 * justified block it knows, below the target and an ancestor of it.
 * Justified: the genesis; a block T when validators holding more than two
 * thirds of the set (3c > 2n) voted for T from justified ancestors of T.
 * Final: a justified block X when more than two thirds voted with source
 * X for one and the same child of X; every ancestor of a final block is
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
#define ZBC_VOTE_LEN 169

/* A block named by height and hash. */
struct zbc_checkpoint {
    uint32_t height;
    uint8_t hash[32];
};

struct zbc_vote {
    uint8_t version;               /* ZBC_VOTE_VERSION */
    struct zbc_checkpoint source;  /* justified, source.height < target's */
    struct zbc_checkpoint target;  /* the block voted for, height >= 1 */
    uint8_t validator[32];         /* Ed25519 node key */
    uint8_t signature[64];
};

/* ---- one vote ---- */

void zbc_vote_encode(uint8_t out[ZBC_VOTE_LEN], const struct zbc_vote *v);
/* Decodes exactly ZBC_VOTE_LEN bytes: length and version are checked;
 * heights, signer and signature are zbc_vote_verify's job.  On failure v
 * is zeroed. */
ZBC_WUR int zbc_vote_decode(struct zbc_vote *v, const uint8_t *buf,
                            size_t len, struct zbc_err *err);

/* The 32 bytes the node key signs (docs/protocol.md §5: only tagged
 * digests). */
void zbc_vote_digest(uint8_t out[32], const uint8_t genesis_hash[32],
                     const struct zbc_checkpoint *source,
                     const struct zbc_checkpoint *target);

/* Fills v with this node key's vote (source -> target) on chain g.  sk is
 * libsodium's 64 bytes (seed || public key).  Fails when the key is not a
 * validator of g or source.height >= target.height.  Whether the target
 * descends from the source and the honest-validator rules are
 * zbc_ffg_make_vote's job. */
ZBC_WUR int zbc_vote_sign(struct zbc_vote *v, const struct zbc_genesis *g,
                          const struct zbc_checkpoint *source,
                          const struct zbc_checkpoint *target,
                          const uint8_t sk[64], struct zbc_err *err);

/* Checks a vote in isolation against chain g: version, source height <
 * target height (so target height >= 1), the signer is a validator of g,
 * the signature is valid over the digest with g's hash.  *index (may be
 * NULL) gets the signer's position in g->validators. */
ZBC_WUR int zbc_vote_verify(const struct zbc_vote *v,
                            const struct zbc_genesis *g, uint32_t *index,
                            struct zbc_err *err);

/* Whether two votes are evidence against their signer (both must have
 * been verified first): one validator, different (source, target), and
 * either one target height (a double vote, honest rule 1) or one vote's
 * span strictly inside the other's (a surround vote). */
enum zbc_slash {
    ZBC_SLASH_NONE = 0,
    ZBC_SLASH_DOUBLE,
    ZBC_SLASH_SURROUND,
};
enum zbc_slash zbc_vote_slashable(const struct zbc_vote *a,
                                  const struct zbc_vote *b);

/* Whether count distinct validators out of n are more than two thirds:
 * 3 * count > 2 * n, in 64 bits.  n = 0 never is. */
bool zbc_vote_threshold_met(uint32_t count, uint32_t n);

/* ---- the node's view: blocks, votes, justified and final ---- */

/* One validator's vote for a block, as the block keeps it. */
struct zbc_ffg_vote {
    struct zbc_checkpoint source;
    uint8_t signature[64];
};

struct zbc_ffg_block {
    struct zbc_checkpoint id;
    long parent;            /* index in blocks, -1 for the root */
    bool justified;
    uint64_t voters;        /* bit i: g->validators[i]'s vote is kept */
    uint32_t n_votes;       /* bits set in voters */
    struct zbc_ffg_vote *votes; /* g->n_validators entries */
};

/* Blocks above the final block, at most this many (side branches
 * included); see docs/protocol-chain.md §8.9. */
#define ZBC_FFG_MAX_BLOCKS 8192

/* The blocks a node holds from its final block up (the root: justified
 * and final), each with the votes that name it as target, and the
 * justified and final blocks they make.  Every block descends from the
 * root. */
struct zbc_ffg {
    const struct zbc_genesis *g;
    struct zbc_ffg_block *blocks; /* blocks[0] is the root */
    size_t n, cap;
    struct zbc_checkpoint justified; /* highest justified (first seen) */
    struct zbc_checkpoint final;     /* highest final */
};

/* Starts with root (the genesis, or the final block a node stored) as its
 * only block, justified and final.  0 on allocation failure. */
ZBC_WUR int zbc_ffg_init(struct zbc_ffg *f, const struct zbc_genesis *g,
                         const struct zbc_checkpoint *root,
                         struct zbc_err *err);
void zbc_ffg_free(struct zbc_ffg *f);

/* Index of the block, or -1. */
long zbc_ffg_find(const struct zbc_ffg *f, const struct zbc_checkpoint *c);
/* Whether block a is b or an ancestor of b (both indexes). */
bool zbc_ffg_is_ancestor(const struct zbc_ffg *f, size_t a, size_t b);
/* Whether the block is final: the final block or one of its ancestors
 * (blocks below the root were final before it). */
bool zbc_ffg_is_final(const struct zbc_ffg *f, const struct zbc_checkpoint *c);

/* Adds a block whose parent is known (the root or a block added before).
 * A block already held is a success with *added false.  Refused: parent
 * unknown, height not parent's + 1, ZBC_FFG_MAX_BLOCKS reached. */
ZBC_WUR int zbc_ffg_add_block(struct zbc_ffg *f,
                              const struct zbc_checkpoint *block,
                              const uint8_t parent_hash[32], bool *added,
                              struct zbc_err *err);

/* Adds, as the first block above the root, a block at least two heights
 * above it whose ancestors in between are not held: a node whose final
 * block is far below its tip (finality stalled) follows votes from there
 * (docs/protocol-chain.md §8.10).  The root counts as its ancestor; it is
 * not the root's child for finality; votes whose source lies in the gap
 * are not counted.  Refused when the view holds more than the root or
 * there is no gap. */
ZBC_WUR int zbc_ffg_add_block_after_gap(struct zbc_ffg *f,
                                        const struct zbc_checkpoint *block,
                                        struct zbc_err *err);

/* What zbc_ffg_add_vote did. */
struct zbc_ffg_added {
    bool added;             /* kept as its signer's vote for the target */
    bool slashable;         /* the signer's kept vote for this target
                               differs: evidence[0] is the kept vote,
                               evidence[1] this one */
    struct zbc_vote evidence[2];
    bool justified_moved;   /* f->justified changed */
    bool final_moved;       /* f->final changed */
    bool conflict;          /* the call failed on conflicting finality */
};

/* Verifies v (zbc_vote_verify) and keeps it as its signer's vote for its
 * target block, which f must hold (else refused: "target not held"; the
 * caller buffers it, struct zbc_vote_pending).  A validator's first vote
 * for a target is kept; a later different one is not, and both are
 * returned as evidence (out->slashable).  Then justification and finality are brought
 * up to date.  Fails on conflicting finality (two final blocks neither of
 * which descends from the other): more than a third of the validators
 * broke the rules (out->conflict), the node must stop and alarm. */
ZBC_WUR int zbc_ffg_add_vote(struct zbc_ffg *f, const struct zbc_vote *v,
                             struct zbc_ffg_added *out, struct zbc_err *err);

/* The i-th validator's kept vote for block b (index); 0 when none. */
ZBC_WUR int zbc_ffg_get_vote(const struct zbc_ffg *f, size_t b, uint32_t i,
                             struct zbc_vote *v);

/* Drops every block that is not the final block or one of its
 * descendants; the final block becomes the root. */
void zbc_ffg_prune(struct zbc_ffg *f);

/* ---- an honest validator ---- */

/* What a validator must remember across restarts (docs/protocol-chain.md
 * §8.5): the target height of its last vote and its lock (the source of
 * its last vote). */
struct zbc_voter {
    uint32_t last_target_height;
    struct zbc_checkpoint lock;
};

void zbc_voter_init(struct zbc_voter *s, const uint8_t genesis_hash[32]);

/* The honest rules: signs a vote for target only when (1) target's height
 * is above the last vote's, (2) the source is f->justified and not below
 * the lock, (3) the target is a block of f strictly descending from the
 * source.  On success updates s (the caller persists it before sending
 * the vote).  A refusal says which rule. */
ZBC_WUR int zbc_ffg_make_vote(const struct zbc_ffg *f, struct zbc_voter *s,
                              const struct zbc_checkpoint *target,
                              const uint8_t sk[64], struct zbc_vote *v,
                              struct zbc_err *err);

/* ---- vote sets: the votes for one block, as stored ---- */

/* version u8 = 1 | target height u32 | target hash 32 | count u8 |
 * count x (source height u32 | source hash 32 | validator 32 |
 * signature 64), validators strictly ascending */
#define ZBC_VOTE_SET_VERSION 1
#define ZBC_VOTE_SET_HEADER_LEN 38
#define ZBC_VOTE_SET_ENTRY_LEN 132
#define ZBC_VOTE_SET_MAX_LEN \
    (ZBC_VOTE_SET_HEADER_LEN + ZBC_VALIDATORS_MAX * ZBC_VOTE_SET_ENTRY_LEN)

/* The vote set of block b (index; it must hold a vote); returns the
 * length written. */
size_t zbc_ffg_vote_set(const struct zbc_ffg *f, size_t b,
                        uint8_t out[ZBC_VOTE_SET_MAX_LEN]);
/* Decodes vote set bytes into votes[0..*n), verifying each against g:
 * version, count >= 1 and <= the validator count, exact length (checked
 * before any signature), validators strictly ascending, every vote valid.
 * On failure *n is 0 and err names the first bad vote. */
ZBC_WUR int zbc_vote_set_decode(const struct zbc_genesis *g,
                                const uint8_t *buf, size_t len,
                                struct zbc_vote votes[ZBC_VALIDATORS_MAX],
                                size_t *n, struct zbc_err *err);

/* ---- fork choice and the reorg rule ---- */

/* The reorg rule: replacing the chain whose tip is at tip_height by a
 * branch whose last block in common with it (the fork point) is at
 * fork_height is allowed only when fork_height >= final->height (never
 * past a final block) and tip_height - fork_height <= ZBC_REORG_MAX_DEPTH
 * (1440, for the blocks not yet final).  err says which rule refused. */
ZBC_WUR int zbc_final_reorg_allowed(const struct zbc_checkpoint *final,
                                    uint32_t tip_height, uint32_t fork_height,
                                    struct zbc_err *err);
/* Fork choice with finality: the branch whose highest justified block is
 * higher is preferred (a_justified, b_justified: the height of the highest
 * justified block on each branch); equal heights go to
 * zbc_fork_choice_cmp.  > 0 when a is preferred. */
int zbc_final_branch_cmp(const struct zbc_tip *a, uint32_t a_justified,
                         const struct zbc_tip *b, uint32_t b_justified);

/* ---- votes that arrive before their block ---- */

/* A bounded buffer of verified votes for blocks the node does not hold
 * yet (docs/protocol-chain.md §8.7): at most ZBC_VOTE_PENDING_PER_VALIDATOR
 * per validator, so no validator can crowd out another, and only for
 * target heights above the final height and at most
 * ZBC_VOTE_PENDING_AHEAD above the node's tip.  Policy, not consensus. */
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
 * vote that does not verify, target height <= final_height, target height
 * > tip_height + ZBC_VOTE_PENDING_AHEAD.  A vote already held is a success
 * with *added false.  When its validator already has
 * ZBC_VOTE_PENDING_PER_VALIDATOR votes held, the lowest of them (by target
 * height) makes room, unless the new vote is lower still (*added
 * false). */
ZBC_WUR int zbc_vote_pending_add(struct zbc_vote_pending *p,
                                 const struct zbc_genesis *g,
                                 const struct zbc_vote *v,
                                 uint32_t final_height, uint32_t tip_height,
                                 bool *added, struct zbc_err *err);
/* Moves every held vote whose target f now holds into f (zbc_ffg_add_vote)
 * and returns how many f kept; *out gathers what moved (justified_moved,
 * final_moved).  Fails only on conflicting finality. */
ZBC_WUR int zbc_vote_pending_take(struct zbc_vote_pending *p,
                                  struct zbc_ffg *f, uint32_t *kept,
                                  struct zbc_ffg_added *out,
                                  struct zbc_err *err);
/* Drops the held votes whose target is at or below final_height. */
void zbc_vote_pending_prune(struct zbc_vote_pending *p,
                            uint32_t final_height);

#endif
