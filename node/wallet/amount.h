/* Amount syntax of the wallet: a plain integer is atomic units; a number
 * with a decimal point or a "ZBC" suffix (any case, optional space) is ZBC,
 * at most 8 decimals (1 ZBC = 100,000,000 units).  "1.5ZBC", "1.5", "2 zbc"
 * and "150000000" are the same amount. */
#ifndef ZBC_WALLET_AMOUNT_H
#define ZBC_WALLET_AMOUNT_H

#include <stdint.h>

#include "crypto/err.h"

#define ZBC_UNITS_PER_ZBC 100000000ULL

ZBC_WUR int zbc_amount_parse(uint64_t *out, const char *text, struct zbc_err *err);

/* "1.5 ZBC" style text, trailing zeros dropped; out needs 32 bytes. */
void zbc_amount_format(char *out, uint64_t units);

#endif
