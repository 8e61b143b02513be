/* Minimum fee (SPEC §3): min_fee_base + min_fee_per_byte * tx_length,
 * tx_length = the whole transaction bytes (unsigned || signature). */
#ifndef ZBC_FEE_H
#define ZBC_FEE_H

#include <stddef.h>
#include <stdint.h>

#include "consensus/genesis.h"
#include "crypto/err.h"

/* Fails ("minimum fee overflows") when the formula exceeds u64. */
ZBC_WUR int zbc_fee_min(uint64_t *min, const struct zbc_genesis *g,
                        size_t tx_len, struct zbc_err *err);
/* Fails with "fee too low: ..." when fee < the minimum (fee < 0 too). */
ZBC_WUR int zbc_fee_check(const struct zbc_genesis *g, int64_t fee,
                          size_t tx_len, struct zbc_err *err);

#endif
