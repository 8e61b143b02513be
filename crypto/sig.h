/* Signatures of every sender account type (docs/crypto.md §4).
 *
 *   type 0 (ZooBC):      Ed25519 (libsodium), 64 bytes, over the digest.
 *   type 4 (Ethereum):   65 bytes r||s||v, EIP-191 personal_sign of the 32
 *                        digest bytes: keccak256("\x19Ethereum Signed
 *                        Message:\n32" || digest); public key recovered with
 *                        libsecp256k1; keccak256(pubkey64)[12..32] must equal
 *                        the address.  Low-S only.  v must be 27/28 (0/1
 *                        would be a second encoding, see docs/crypto.md).
 *   type 1, 5 (Bitcoin): 65-byte compact recoverable signature in Bitcoin
 *                        Core's signmessage format over the 64-character
 *                        lower-case hex of the digest: header byte 27..34
 *                        (27-30 uncompressed key, 31-34 compressed), r, s;
 *                        the recovered key, serialized as the header says
 *                        and hash160'd, must equal the address.  Low-S only.
 * Exact bytes: docs/crypto.md.
 */
#ifndef ZBC_SIG_H
#define ZBC_SIG_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/address.h"
#include "crypto/err.h"

#define ZBC_ED25519_SIG_LEN 64
#define ZBC_RECOVERABLE_SIG_LEN 65

/* Length of the signature that follows the unsigned bytes for a sender of
 * this type (docs/crypto.md §4, "Signature length").  Returns 0 for types with no fixed length
 * (Bitcoin types take the rest of the bytes: *len = 0 and *rest = 1). */
ZBC_WUR int zbc_sig_len_for_type(uint32_t type, size_t *len, int *rest);

/* Ed25519 from the 32-byte seed the ZooBC tools use as the private key. */
void zbc_ed25519_keypair(uint8_t pk[32], uint8_t sk[64], const uint8_t seed[32]);
void zbc_ed25519_sign(uint8_t sig[64], const uint8_t sk[64],
                      const uint8_t *msg, size_t len);
ZBC_WUR int zbc_ed25519_verify(const uint8_t sig[64], const uint8_t pk[32],
                               const uint8_t *msg, size_t len);

/* Verifies `sig` by `sender` over the 32-byte signing digest, dispatching
 * on the sender's account type.  err names the failure. */
ZBC_WUR int zbc_sig_verify(const struct zbc_addr *sender,
                           const uint8_t digest[32], const uint8_t *sig,
                           size_t sig_len, struct zbc_err *err);

/* The messages the foreign wallets sign, exposed for tools and tests. */
void zbc_eth_personal_digest(uint8_t out[32], const uint8_t digest[32]);
void zbc_btc_message_digest(uint8_t out[32], const uint8_t digest[32]);

/* Signing with a secp256k1 key (tests, tools, the interop harness; the
 * wallet itself keeps only Ed25519 keys). */
ZBC_WUR int zbc_eth_sign(uint8_t sig[65], const uint8_t seckey[32],
                         const uint8_t digest[32]);
ZBC_WUR int zbc_btc_sign(uint8_t sig[65], const uint8_t seckey[32],
                         const uint8_t digest[32]);
/* Addresses of a secp256k1 key: Ethereum (type 4) and P2PKH (type 5). */
ZBC_WUR int zbc_eth_address(struct zbc_addr *a, const uint8_t seckey[32]);
ZBC_WUR int zbc_btc_address(struct zbc_addr *a, const uint8_t seckey[32]);

#endif
