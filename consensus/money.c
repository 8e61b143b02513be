#include "consensus/money.h"

#include "consensus/apps_apply.h"
#include "consensus/ledger.h"

int zbc_money_check(struct zbc_state *s, struct zbc_err *err)
{
    if (s->kv.ops->each == NULL)
        return zbc_fail(err, "the state backend cannot scan its tables");
    uint64_t supply;
    if (!zbc_ledger_supply(s, &supply, err))
        return 0;
    uint64_t balances;
    if (!zbc_ledger_sum_balances(s, &balances, err))
        return zbc_fail_prefix(err, "money invariant scan");
    /* pots (stakes and bet escrows) live in the app records */
    uint64_t pots;
    if (!zbc_apps_sum_pots(s, &pots, err))
        return zbc_fail_prefix(err, "money invariant scan");
    if (balances > UINT64_MAX - pots || balances + pots != supply)
        return zbc_fail(err, "money invariant broken: balances sum to %llu "
                             "and app pots to %llu, supply is %llu",
                        (unsigned long long)balances, (unsigned long long)pots,
                        (unsigned long long)supply);
    return 1;
}
