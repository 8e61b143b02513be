/* ZBC-MSG-v1 off-chain message signatures (docs/crypto.md §5):
 *
 *   digest    = SHA3-256("ZBC-MSG" || message bytes)
 *   signature = Ed25519(seed, digest), 64 bytes
 *
 * The tag keeps a message signature from ever being valid as a
 * transaction signature (tag "ZBC-TX") and vice versa. */
#ifndef ZBC_MSG_H
#define ZBC_MSG_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"

#define ZBC_MSG_TAG "ZBC-MSG"

void zbc_msg_digest(uint8_t out[32], const uint8_t *msg, size_t len);

/* Signs with the 32-byte seed (the private key as the tools hold it). */
void zbc_msg_sign(uint8_t sig[64], const uint8_t seed[32], const uint8_t *msg,
                  size_t len);

ZBC_WUR int zbc_msg_verify(const uint8_t pk[32], const uint8_t *msg,
                           size_t len, const uint8_t *sig, size_t sig_len,
                           struct zbc_err *err);

/* Verifies from text as a user gives it: the signer's address (ZBC_/ZNK_
 * form or 64 hex, i.e. any text zbc_addr_parse_text reads as type 0) and
 * the signature as 128 hex characters.  On failure *bad_input (may be NULL)
 * is 1 when the address or signature text is malformed (the tools' exit 2)
 * and 0 when the signature simply does not verify (exit 10). */
ZBC_WUR int zbc_msg_verify_text(const char *address, const uint8_t *msg,
                                size_t len, const char *sig_hex,
                                int *bad_input, struct zbc_err *err);

#endif
