/* HD wallets as the ZooBC tools make them (docs/crypto.md §6):
 * BIP-39 mnemonic (+ passphrase) -> 64-byte seed, then SLIP-10 for Ed25519
 * along m/44'/883'/<account>'; the 32-byte key of that node is the
 * account's Ed25519 seed. */
#ifndef ZBC_HD_H
#define ZBC_HD_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"

#define ZBC_BIP39_SEED_LEN 64
#define ZBC_HD_COIN_TYPE 883u
#define ZBC_HD_TEXT_MAX 1024 /* mnemonic and passphrase, bytes each */

/* PBKDF2-HMAC-SHA512(password = mnemonic, salt = "mnemonic" || passphrase,
 * 2048 rounds, 64 bytes).  Both strings are used as the UTF-8 bytes given:
 * BIP-39 asks for NFKD, which the caller must apply to non-ASCII text
 * (ASCII is already NFKD).  The word list and checksum are not checked
 * here.  Fails on an empty mnemonic or a string over ZBC_HD_TEXT_MAX. */
ZBC_WUR int zbc_bip39_seed(uint8_t seed[ZBC_BIP39_SEED_LEN],
                           const char *mnemonic, const char *passphrase,
                           struct zbc_err *err);

/* A SLIP-10 Ed25519 node: private key and chain code. */
struct zbc_slip10_node {
    uint8_t key[32];
    uint8_t chain[32];
};

/* Master node: HMAC-SHA512(key = "ed25519 seed", seed). */
void zbc_slip10_master(struct zbc_slip10_node *out, const uint8_t *seed,
                       size_t len);

/* Hardened child index' (index < 2^31; Ed25519 has no normal children):
 * HMAC-SHA512(key = chain, 0x00 || key || BE32(index + 2^31)). */
ZBC_WUR int zbc_slip10_child(struct zbc_slip10_node *out,
                             const struct zbc_slip10_node *parent,
                             uint32_t index, struct zbc_err *err);

/* Ed25519 seed of ZooBC account `account`: node m/44'/883'/account'. */
ZBC_WUR int zbc_hd_account_seed(uint8_t out[32],
                                const uint8_t seed[ZBC_BIP39_SEED_LEN],
                                uint32_t account, struct zbc_err *err);

#endif
