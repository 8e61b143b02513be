/* The money invariant (docs/protocol-chain.md §4.4, docs/protocol-apps.md
 * §9): every unit of the genesis supply is either in an account balance
 * or in an app pot (stakes and solo-bet escrows).  Its own file so the
 * ledger (balances) and the apps (pots) do not depend on each other. */
#ifndef ZBC_MONEY_H
#define ZBC_MONEY_H

#include "apps/app.h"
#include "consensus/state.h"
#include "crypto/err.h"

/* Σ balances (zbc_ledger_sum_balances) + Σ pots (zbc_apps_sum_pots) ==
 * META supply, by full scan.  Fails naming both sums and the supply. */
ZBC_WUR int zbc_money_check(struct zbc_state *s, struct zbc_err *err);

/* ---- the same invariant kept as a running total (zbc-audit) ----
 *
 * A struct zbc_kv in front of another backend: every operation passes
 * through, and each put or delete of an account or app record first reads
 * the record it replaces, so Σ balances and Σ pots of what the backend
 * holds are known after every write at the cost of one get
 * (docs/audit.md "Money invariant").  A record that does not decode is
 * counted apart and fails the check (naming the last one seen) while it is
 * held, as the full scan would fail on it. */
struct zbc_money_tally {
    struct zbc_kv inner;
    unsigned __int128 balances, pots; /* of the decodable records */
    uint64_t bad;                     /* records that do not decode */
    struct zbc_err bad_why;           /* the last such record's error */
    struct zbc_app *app;              /* decode space (heap) */
    uint8_t *buf;                     /* ZBC_KV_VAL_MAX: replaced values */
};

/* Binds t to inner and takes its sums by one full scan.  Close with
 * zbc_money_tally_close. */
ZBC_WUR int zbc_money_tally_open(struct zbc_money_tally *t, struct zbc_kv inner,
                                 struct zbc_err *err);
void zbc_money_tally_close(struct zbc_money_tally *t);
/* The backend to give zbc_state_open: inner, with the total kept. */
struct zbc_kv zbc_money_tally_kv(struct zbc_money_tally *t);
/* The running sums against META supply, read through s; fails with
 * zbc_money_check's message (or the undecodable record's).  O(1). */
ZBC_WUR int zbc_money_tally_check(const struct zbc_money_tally *t,
                                  struct zbc_state *s, struct zbc_err *err);
/* The running sums against a full scan of inner (the tally's own
 * consistency): fails naming both pairs of sums. */
ZBC_WUR int zbc_money_tally_rescan(const struct zbc_money_tally *t,
                                   struct zbc_err *err);

#endif
