/* Hash functions.  SHA3-256, SHA-256, RIPEMD-160 and HMAC-SHA256 come from
 * OpenSSL's libcrypto, SHA-512 from libsodium; Keccak-256 (crypto/keccak.h)
 * is the one written here.  These cannot fail except by running out of
 * memory inside OpenSSL, which aborts the process. */
#ifndef ZBC_HASH_H
#define ZBC_HASH_H

#include <stddef.h>
#include <stdint.h>

#define ZBC_HASH_LEN 32

void zbc_sha3_256(uint8_t out[32], const void *data, size_t len);
void zbc_sha256(uint8_t out[32], const void *data, size_t len);
void zbc_sha256d(uint8_t out[32], const void *data, size_t len);
void zbc_ripemd160(uint8_t out[20], const void *data, size_t len);
/* RIPEMD-160(SHA-256(data)), Bitcoin's hash160. */
void zbc_hash160(uint8_t out[20], const void *data, size_t len);
void zbc_sha512(uint8_t out[64], const void *data, size_t len);
void zbc_hmac_sha256(uint8_t out[32], const void *key, size_t keylen,
                     const void *msg, size_t msglen);
void zbc_hmac_sha512(uint8_t out[64], const void *key, size_t keylen,
                     const void *msg, size_t msglen);

/* Incremental SHA3-256 for digests over several parts
 * (e.g. H("ZBC-TX" || genesis || unsigned_bytes)). */
struct zbc_sha3 {
    void *ctx; /* EVP_MD_CTX */
};
void zbc_sha3_init(struct zbc_sha3 *h);
void zbc_sha3_update(struct zbc_sha3 *h, const void *data, size_t len);
/* Writes the digest and frees the context. */
void zbc_sha3_final(struct zbc_sha3 *h, uint8_t out[32]);

#endif
