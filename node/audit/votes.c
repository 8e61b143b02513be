#include "node/audit/votes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "consensus/vote.h"
#include "crypto/hex.h"
#include "node/zbcd/finality.h"

/* Checks the stored vote set of block cp and adds its votes to f. */
static int check_set(struct zbc_store_txn *t, struct zbc_ffg *f,
                     const struct zbc_checkpoint *cp, bool counted,
                     struct zbc_audit_report *r, struct zbc_err *err)
{
    static struct zbc_vote votes[ZBC_VALIDATORS_MAX];
    uint8_t *set = NULL;
    size_t len = 0, n = 0;
    bool found;
    if (!zbc_store_txn_votes(t, cp->height, &set, &len, &found, err))
        return 0;
    if (!found)
        return 1;
    struct zbc_err e;
    int ok = zbc_vote_set_decode(f->g, set, len, votes, &n, &e);
    free(set);
    if (!ok) {
        zbc_audit_add(r, cp->height, ZBC_AUDIT_VOTES, NULL, NULL,
                      "the stored vote set does not verify: %s", e.msg);
        return 1;
    }
    if (memcmp(votes[0].target.hash, cp->hash, 32) != 0) {
        char want[65], got[65];
        zbc_hex_encode(want, cp->hash, 32);
        zbc_hex_encode(got, votes[0].target.hash, 32);
        zbc_audit_add(r, cp->height, ZBC_AUDIT_VOTES, want, got,
                      "the stored vote set is for another block than the one "
                      "stored at its height");
        return 1;
    }
    for (size_t k = 0; counted && k < n; k++) {
        struct zbc_ffg_added a;
        if (!zbc_ffg_add_vote(f, &votes[k], &a, &e)) {
            zbc_audit_add(r, cp->height, ZBC_AUDIT_VOTES, NULL, NULL,
                          "stored vote %zu: %s", k, e.msg);
            continue;
        }
        if (a.final_moved)
            zbc_ffg_prune(f);
    }
    return 1;
}

/* Sets already reported once are read again when the view is rebuilt. */
static void ignore_bad(void *arg, uint32_t height, const char *msg)
{
    (void)arg;
    (void)height;
    (void)msg;
}

/* Whether the stored vote sets hold the link that made `claim` final: the
 * vote set of the block after it with votes from more than two thirds of
 * the validators with source exactly `claim`; with one validator, its own
 * vote for `claim` (final at once, docs/protocol-chain.md §8.3).  A node
 * that followed a branch it learned late holds that link but not every
 * earlier vote set of the branch, so the recomputation from the genesis
 * cannot reach its final block. */
static bool final_link(struct zbc_store_txn *t, const struct zbc_genesis *g,
                       const struct zbc_checkpoint *claim, uint32_t tip)
{
    static struct zbc_vote votes[ZBC_VALIDATORS_MAX];
    bool one = g->n_validators == 1;
    if (claim->height > tip || (!one && claim->height == tip))
        return false;
    uint32_t at = one ? claim->height : claim->height + 1;
    uint8_t *set = NULL;
    size_t len = 0, n = 0;
    struct zbc_err e;
    bool found;
    if (!zbc_store_txn_votes(t, at, &set, &len, &found, &e) || !found)
        return false;
    bool ok = zbc_vote_set_decode(g, set, len, votes, &n, &e);
    free(set);
    uint32_t count = 0;
    for (size_t k = 0; ok && k < n; k++) {
        const struct zbc_checkpoint *c = one ? &votes[k].target
                                             : &votes[k].source;
        count += c->height == claim->height &&
                 memcmp(c->hash, claim->hash, 32) == 0;
    }
    return ok && zbc_vote_threshold_met(count, g->n_validators);
}

int zbc_audit_check_votes(struct zbc_store_txn *t, const struct zbc_genesis *g,
                          uint32_t tip, struct zbc_audit_report *r,
                          struct zbc_err *err)
{
    struct zbc_checkpoint claim, root = {.height = 0};
    memcpy(root.hash, g->hash, 32);
    bool found;
    if (!zbc_store_txn_checkpoint(t, "final", &claim.height, claim.hash,
                                  &found, err))
        return 0;
    if (!found)
        claim = root;
    struct zbc_ffg f;
    if (!zbc_ffg_init(&f, g, &root, err))
        return 0;
    bool counting = true;       /* the view still follows the chain */
    uint32_t counted_to = 0;
    bool claim_seen = claim.height == 0;
    int ok = 1;
    for (uint32_t h = 1; ok && h <= tip; h++) {
        struct zbc_checkpoint cp;
        uint8_t prev[32];
        bool added;
        struct zbc_err e;
        ok = zbc_finality_block_id(t, h, &cp, prev, err);
        if (!ok)
            break;
        if (h == claim.height) {
            claim_seen = memcmp(cp.hash, claim.hash, 32) == 0;
            if (!claim_seen)
                zbc_audit_add(r, h, ZBC_AUDIT_VOTES, NULL, NULL,
                              "the stored final block is not the block "
                              "stored at its height");
        }
        bool refilled = false;
        if (counting && !zbc_ffg_add_block(&f, &cp, prev, &added, &e)) {
            /* more blocks above the final one than a view holds: as a
             * node does, follow from 1440 below (after a gap) */
            struct zbc_checkpoint fin = f.final;
            zbc_ffg_free(&f);
            uint32_t from = h > fin.height + ZBC_REORG_MAX_DEPTH
                                ? h - ZBC_REORG_MAX_DEPTH
                                : fin.height + 1;
            counting = zbc_ffg_init(&f, g, &fin, &e) &&
                       zbc_finality_fill(&f, t, from, h, ignore_bad, NULL,
                                         &e);
            refilled = true;
        }
        if (counting)
            counted_to = h;
        ok = check_set(t, &f, &cp, counting && !refilled, r, err);
    }
    if (ok && claim.height > tip)
        zbc_audit_add(r, claim.height, ZBC_AUDIT_VOTES, NULL, NULL,
                      "the stored final block is above the tip %u", tip);
    else if (ok && claim_seen && claim.height > f.final.height &&
             !final_link(t, g, &claim, tip)) {
        char want[16], got[16];
        snprintf(want, sizeof want, "%u", f.final.height);
        snprintf(got, sizeof got, "%u", claim.height);
        zbc_audit_add(r, claim.height, ZBC_AUDIT_VOTES, want, got,
                      counting ? "the stored votes do not make the stored "
                                 "final block final"
                               : "the stored final block could not be "
                                 "checked: the votes recomputed up to height "
                                 "%u finalise no later block", counted_to);
    }
    zbc_ffg_free(&f);
    return ok;
}
