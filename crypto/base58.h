/* Base58 (Bitcoin alphabet) and base58check: payload || first 4 bytes of
 * SHA256d(payload).  Inputs are capped at ZBC_BASE58_TEXT_MAX characters so
 * the quadratic conversion stays cheap on hostile input. */
#ifndef ZBC_BASE58_H
#define ZBC_BASE58_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"

#define ZBC_BASE58_TEXT_MAX 128

/* Writes the base58 text and a NUL into out (cap bytes including the NUL).
 * Fails only when out is too small or len exceeds 90 bytes. */
ZBC_WUR int zbc_base58_encode(char *out, size_t cap, const uint8_t *in,
                              size_t len);

/* Decodes base58 text; each leading '1' is one leading zero byte. */
ZBC_WUR int zbc_base58_decode(uint8_t *out, size_t cap, size_t *outlen,
                              const char *text, size_t textlen,
                              struct zbc_err *err);

/* base58check of payload (the version byte is part of payload). */
ZBC_WUR int zbc_base58check_encode(char *out, size_t cap,
                                   const uint8_t *payload, size_t len);

/* Decodes and verifies the 4-byte checksum; out receives the payload
 * (version byte first) without the checksum. */
ZBC_WUR int zbc_base58check_decode(uint8_t *out, size_t cap, size_t *outlen,
                                   const char *text, size_t textlen,
                                   struct zbc_err *err);

#endif
