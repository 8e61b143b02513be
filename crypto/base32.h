/* RFC 4648 base32 (alphabet A-Z 2-7) without padding, as the ZBC_ address
 * form uses it. */
#ifndef ZBC_BASE32_H
#define ZBC_BASE32_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"

/* Characters needed for len bytes, without the NUL. */
#define ZBC_BASE32_LEN(len) (((len) * 8 + 4) / 5)

/* Writes ZBC_BASE32_LEN(len) upper-case characters and a NUL; returns the
 * character count. */
size_t zbc_base32_encode(char *out, const uint8_t *in, size_t len);

/* Decodes text of either case.  Fails on a character outside the alphabet,
 * on a length no byte count encodes to (1, 3 or 6 mod 8), on non-zero
 * unused trailing bits, or when the result exceeds cap bytes. */
ZBC_WUR int zbc_base32_decode(uint8_t *out, size_t cap, size_t *outlen,
                              const char *text, size_t textlen,
                              struct zbc_err *err);

#endif
