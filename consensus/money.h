/* The money invariant (docs/protocol-chain.md §4.4, docs/protocol-apps.md
 * §9): every unit of the genesis supply is either in an account balance
 * or in an app pot (stakes and solo-bet escrows).  Its own file so the
 * ledger (balances) and the apps (pots) do not depend on each other. */
#ifndef ZBC_MONEY_H
#define ZBC_MONEY_H

#include "consensus/state.h"
#include "crypto/err.h"

/* Σ balances (zbc_ledger_sum_balances) + Σ pots (zbc_apps_sum_pots) ==
 * META supply, by full scan.  Fails naming both sums and the supply. */
ZBC_WUR int zbc_money_check(struct zbc_state *s, struct zbc_err *err);

#endif
