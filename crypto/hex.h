#ifndef ZBC_HEX_H
#define ZBC_HEX_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"

/* Writes 2*len lower-case hex characters and a NUL: out needs 2*len+1. */
void zbc_hex_encode(char *out, const uint8_t *in, size_t len);

/* Decodes hex of either case.  Fails on odd length, a non-hex character or
 * more than cap bytes.  *outlen receives the decoded length. */
ZBC_WUR int zbc_hex_decode(uint8_t *out, size_t cap, size_t *outlen,
                           const char *hex, size_t hexlen);

/* Decodes exactly len bytes (hex must be 2*len characters). */
ZBC_WUR int zbc_hex_decode_exact(uint8_t *out, size_t len, const char *hex);

#endif
