/* Amount syntax of the wallet: a plain integer is atomic units; a number
 * with a decimal point or a "ZBC" suffix (any case, optional space) is ZBC,
 * at most 8 decimals (1 ZBC = 100,000,000 units).  "1.5ZBC", "1.5", "2 zbc"
 * and "150000000" are the same amount. */
#ifndef ZBC_WALLET_AMOUNT_H
#define ZBC_WALLET_AMOUNT_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"

#define ZBC_UNITS_PER_ZBC 100000000ULL

ZBC_WUR int zbc_amount_parse(uint64_t *out, const char *text, struct zbc_err *err);

/* "1.5 ZBC" style text, trailing zeros dropped; out needs 32 bytes. */
void zbc_amount_format(char *out, uint64_t units);

/* A node's sentence with its atomic-unit amounts written in ZBC, for a
 * person to read (docs/wallet.md "Amounts"): in "insufficient balance: ..."
 * every number followed by " held", " needed" or " pending", and in
 * "fee too low: F < minimum M" both numbers, become "1.5 ZBC" text; the
 * rest (app ids, heights) is kept.  out (cap bytes) always gets a
 * NUL-terminated text, cut at cap. */
void zbc_amount_humanize(char *out, size_t cap, const char *text);

#endif
