/* Wallet key files: a secret (the 32-byte Ed25519 seed, or any secret up
 * to ZBC_KEYFILE_SECRET_MAX bytes) encrypted at rest with a passphrase.
 *
 * Argon2id (crypto_pwhash, ALG_ARGON2ID13) derives a 32-byte key from the
 * passphrase and a random 16-byte salt; crypto_secretbox (XSalsa20-
 * Poly1305) encrypts the secret under a random 24-byte nonce.  Format
 * (docs/protocol-tx.md "Wallet key file"), all integers LE:
 *
 *   magic "ZBCKEY" (6) | version 0x01 | kdf 0x01 (Argon2id v1.3) |
 *   opslimit u64 | memlimit u64 | salt (16) | nonce (24) |
 *   secret_len u32 | secretbox ciphertext (16 + secret_len) |
 *   checksum: SHA-256 of every preceding byte (32)
 *
 * The checksum tells a damaged file ("key file is corrupt") apart from a
 * wrong passphrase (the MAC fails on an intact file).  Files are written
 * mode 0600, atomically: temp file in the same directory, fsync, then
 * rename (or link, to refuse overwriting), then fsync of the directory. */
#ifndef ZBC_KEYFILE_H
#define ZBC_KEYFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"

#define ZBC_KEYFILE_SECRET_MAX 1024
#define ZBC_KEYFILE_HEADER_LEN (6 + 1 + 1 + 8 + 8 + 16 + 24 + 4)
#define ZBC_KEYFILE_OVERHEAD (ZBC_KEYFILE_HEADER_LEN + 16 + 32)
#define ZBC_KEYFILE_MAX (ZBC_KEYFILE_OVERHEAD + ZBC_KEYFILE_SECRET_MAX)

struct zbc_kdf_params {
    uint64_t opslimit;
    uint64_t memlimit; /* bytes */
};

/* crypto_pwhash_OPSLIMIT_MODERATE / MEMLIMIT_MODERATE (3 passes, 256 MiB):
 * about a second on a desktop, the wallet's default. */
void zbc_keyfile_default_params(struct zbc_kdf_params *p);

/* Encrypts secret into a new buffer *out (malloc'ed, *out_len bytes).
 * Parameters must lie within libsodium's Argon2id limits, memlimit
 * <= crypto_pwhash_MEMLIMIT_SENSITIVE (1 GiB) and opslimit x memlimit <=
 * OPSLIMIT_SENSITIVE x MEMLIMIT_SENSITIVE (4 passes over 1 GiB); open
 * refuses a file outside these bounds before deriving anything. */
ZBC_WUR int zbc_keyfile_seal(uint8_t **out, size_t *out_len,
                             const uint8_t *secret, size_t secret_len,
                             const char *pass, size_t pass_len,
                             const struct zbc_kdf_params *params,
                             struct zbc_err *err);

/* Decrypts a key file image into secret (cap bytes); *secret_len gets its
 * length.  Errors: truncated, bad magic or version, unknown kdf, limits out
 * of range, corrupt (checksum), wrong passphrase, out of memory. */
ZBC_WUR int zbc_keyfile_open(uint8_t *secret, size_t cap, size_t *secret_len,
                             const uint8_t *file, size_t file_len,
                             const char *pass, size_t pass_len,
                             struct zbc_err *err);

/* seal + atomic write with mode 0600.  With overwrite false an existing
 * path is left alone and the call fails ("already exists"). */
ZBC_WUR int zbc_keyfile_write(const char *path, const uint8_t *secret,
                              size_t secret_len, const char *pass,
                              size_t pass_len,
                              const struct zbc_kdf_params *params,
                              bool overwrite, struct zbc_err *err);

/* Reads path (at most ZBC_KEYFILE_MAX bytes) and opens it. */
ZBC_WUR int zbc_keyfile_read(const char *path, uint8_t *secret, size_t cap,
                             size_t *secret_len, const char *pass,
                             size_t pass_len, struct zbc_err *err);

#endif
