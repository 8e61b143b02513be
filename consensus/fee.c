#include "consensus/fee.h"

#include "consensus/tx_valid.h"

int zbc_fee_min(uint64_t *min, const struct zbc_genesis *g, size_t tx_len,
                struct zbc_err *err)
{
    if (g->min_fee_per_byte != 0 &&
        (uint64_t)tx_len > UINT64_MAX / g->min_fee_per_byte)
        return zbc_fail(err, "minimum fee overflows");
    uint64_t per = (uint64_t)tx_len * g->min_fee_per_byte;
    if (per > UINT64_MAX - g->min_fee_base)
        return zbc_fail(err, "minimum fee overflows");
    *min = g->min_fee_base + per;
    return 1;
}

int zbc_fee_check(const struct zbc_genesis *g, int64_t fee, size_t tx_len,
                  struct zbc_err *err)
{
    /* The rule itself lives with the other validity rules (tx_valid.c). */
    return zbc_tx_valid_fee(fee, tx_len, g->min_fee_base, g->min_fee_per_byte,
                            err);
}
