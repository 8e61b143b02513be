#include "crypto/hd.h"

#include <openssl/evp.h>
#include <sodium.h>
#include <string.h>

#include "crypto/bytes.h"
#include "crypto/hash.h"

#define HARDENED 0x80000000u

int zbc_bip39_seed(uint8_t seed[ZBC_BIP39_SEED_LEN], const char *mnemonic,
                   const char *passphrase, struct zbc_err *err)
{
    static const char salt_prefix[] = "mnemonic";
    size_t mlen = strnlen(mnemonic, ZBC_HD_TEXT_MAX + 1);
    size_t plen = strnlen(passphrase, ZBC_HD_TEXT_MAX + 1);
    if (mlen == 0)
        return zbc_fail(err, "empty mnemonic");
    if (mlen > ZBC_HD_TEXT_MAX)
        return zbc_fail(err, "mnemonic longer than %d bytes", ZBC_HD_TEXT_MAX);
    if (plen > ZBC_HD_TEXT_MAX)
        return zbc_fail(err, "passphrase longer than %d bytes", ZBC_HD_TEXT_MAX);
    unsigned char salt[sizeof salt_prefix - 1 + ZBC_HD_TEXT_MAX];
    memcpy(salt, salt_prefix, sizeof salt_prefix - 1);
    memcpy(salt + sizeof salt_prefix - 1, passphrase, plen);
    int ok = PKCS5_PBKDF2_HMAC(mnemonic, (int)mlen, salt,
                               (int)(sizeof salt_prefix - 1 + plen), 2048,
                               EVP_sha512(), ZBC_BIP39_SEED_LEN, seed);
    sodium_memzero(salt, sizeof salt);
    if (ok != 1)
        return zbc_fail(err, "PBKDF2 failed in libcrypto");
    return 1;
}

static void split(struct zbc_slip10_node *out, uint8_t i[64])
{
    memcpy(out->key, i, 32);
    memcpy(out->chain, i + 32, 32);
    sodium_memzero(i, 64);
}

void zbc_slip10_master(struct zbc_slip10_node *out, const uint8_t *seed,
                       size_t len)
{
    static const char key[] = "ed25519 seed";
    uint8_t i[64];
    zbc_hmac_sha512(i, key, sizeof key - 1, seed, len);
    split(out, i);
}

int zbc_slip10_child(struct zbc_slip10_node *out,
                     const struct zbc_slip10_node *parent, uint32_t index,
                     struct zbc_err *err)
{
    if (index >= HARDENED)
        return zbc_fail(err, "SLIP-10 child index %u is out of range (give it without the hardened bit)",
                        index);
    uint32_t h = index | HARDENED;
    uint8_t data[1 + 32 + 4];
    data[0] = 0x00;
    memcpy(data + 1, parent->key, 32);
    zbc_put_be32(data + 33, h); /* SLIP-10: ser32, big-endian */
    uint8_t i[64];
    zbc_hmac_sha512(i, parent->chain, 32, data, sizeof data);
    sodium_memzero(data, sizeof data);
    split(out, i);
    return 1;
}

int zbc_hd_account_seed(uint8_t out[32], const uint8_t seed[ZBC_BIP39_SEED_LEN],
                        uint32_t account, struct zbc_err *err)
{
    struct zbc_slip10_node n;
    zbc_slip10_master(&n, seed, ZBC_BIP39_SEED_LEN);
    int ok = zbc_slip10_child(&n, &n, 44, err) &&
             zbc_slip10_child(&n, &n, ZBC_HD_COIN_TYPE, err) &&
             zbc_slip10_child(&n, &n, account, err);
    if (ok)
        memcpy(out, n.key, 32);
    sodium_memzero(&n, sizeof n);
    return ok;
}
