#include "consensus/state_root.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/bytes.h"
#include "crypto/hash.h"

/* SHAKE256 is not in crypto/hash.h (only this accumulator needs it); it
 * comes straight from libcrypto like the other hashes there. */
static void shake256(uint8_t *out, size_t outlen, const uint8_t *in,
                     size_t inlen)
{
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    if (c == NULL || EVP_DigestInit_ex(c, EVP_shake256(), NULL) != 1 ||
        EVP_DigestUpdate(c, in, inlen) != 1 ||
        EVP_DigestFinalXOF(c, out, outlen) != 1) {
        fprintf(stderr, "fatal: libcrypto SHAKE256 failed (out of memory?)\n");
        abort();
    }
    EVP_MD_CTX_free(c);
}

/* Element vector of one entry: SHAKE256(H(table || klen || key || vlen ||
 * value), 2048 bytes) as 1024 LE u16 lanes. */
static void element(uint16_t lanes[ZBC_LTHASH_LANES], uint8_t table,
                    const uint8_t *key, size_t klen, const uint8_t *val,
                    size_t vlen)
{
    uint8_t head[2] = {table, (uint8_t)klen};
    uint8_t vl[4];
    zbc_put_le32(vl, (uint32_t)vlen);
    uint8_t digest[32];
    struct zbc_sha3 h;
    zbc_sha3_init(&h);
    zbc_sha3_update(&h, head, 2);
    zbc_sha3_update(&h, key, klen);
    zbc_sha3_update(&h, vl, 4);
    if (vlen > 0)
        zbc_sha3_update(&h, val, vlen);
    zbc_sha3_final(&h, digest);

    uint8_t bytes[ZBC_LTHASH_BYTES];
    shake256(bytes, sizeof bytes, digest, sizeof digest);
    for (size_t i = 0; i < ZBC_LTHASH_LANES; i++)
        lanes[i] = zbc_get_le16(bytes + 2 * i);
}

void zbc_lthash_zero(struct zbc_lthash *h)
{
    memset(h, 0, sizeof *h);
}

void zbc_lthash_add(struct zbc_lthash *h, uint8_t table, const uint8_t *key,
                    size_t klen, const uint8_t *val, size_t vlen)
{
    uint16_t e[ZBC_LTHASH_LANES];
    element(e, table, key, klen, val, vlen);
    for (size_t i = 0; i < ZBC_LTHASH_LANES; i++)
        h->lane[i] = (uint16_t)(h->lane[i] + e[i]);
}

void zbc_lthash_sub(struct zbc_lthash *h, uint8_t table, const uint8_t *key,
                    size_t klen, const uint8_t *val, size_t vlen)
{
    uint16_t e[ZBC_LTHASH_LANES];
    element(e, table, key, klen, val, vlen);
    for (size_t i = 0; i < ZBC_LTHASH_LANES; i++)
        h->lane[i] = (uint16_t)(h->lane[i] - e[i]);
}

void zbc_lthash_to_bytes(uint8_t out[ZBC_LTHASH_BYTES],
                         const struct zbc_lthash *h)
{
    for (size_t i = 0; i < ZBC_LTHASH_LANES; i++)
        zbc_put_le16(out + 2 * i, h->lane[i]);
}

void zbc_lthash_from_bytes(struct zbc_lthash *h,
                           const uint8_t in[ZBC_LTHASH_BYTES])
{
    for (size_t i = 0; i < ZBC_LTHASH_LANES; i++)
        h->lane[i] = zbc_get_le16(in + 2 * i);
}

void zbc_lthash_root(uint8_t root[32], const struct zbc_lthash *h)
{
    uint8_t b[ZBC_LTHASH_BYTES];
    zbc_lthash_to_bytes(b, h);
    zbc_sha3_256(root, b, sizeof b);
}
