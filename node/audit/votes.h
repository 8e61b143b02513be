/* zbc-audit's check of a ledger's finality records (docs/audit.md §2,
 * docs/protocol-chain.md §8.8): every stored vote set decodes and verifies
 * against the genesis and names the block stored at its height, and the
 * stored "final" block is one the stored votes make final, recomputed
 * from the genesis with consensus/vote.h. */
#ifndef ZBC_AUDIT_VOTES_H
#define ZBC_AUDIT_VOTES_H

#include <stdint.h>

#include "consensus/genesis.h"
#include "crypto/err.h"
#include "node/audit/report.h"
#include "node/zbcd/store.h"

/* Heights 1..tip of the snapshot t (already replayed: the blocks chain).
 * Divergences go to r as ZBC_AUDIT_VOTES; 0 only when the ledger cannot
 * be read or memory runs out. */
ZBC_WUR int zbc_audit_check_votes(struct zbc_store_txn *t,
                                  const struct zbc_genesis *g, uint32_t tip,
                                  struct zbc_audit_report *r,
                                  struct zbc_err *err);

#endif
