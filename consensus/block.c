#include "consensus/block.h"

#include <stdlib.h>
#include <string.h>

#include "consensus/genesis.h"
#include "crypto/hash.h"
#include "crypto/sig.h"

#define BLOCK_SIGNING_TAG "ZBC-BLOCK"

static void put_uint(uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_uint(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

void zbc_block_header_encode(uint8_t out[ZBC_BLOCK_HEADER_LEN],
                             const struct zbc_block_header *h)
{
    uint8_t *p = out;
    put_uint(p, h->version, 4);
    p += 4;
    put_uint(p, h->height, 4);
    p += 4;
    put_uint(p, h->timestamp_ms, 8);
    p += 8;
    memcpy(p, h->prev_hash, 32);
    p += 32;
    memcpy(p, h->producer, 32);
    p += 32;
    put_uint(p, h->rank, 4);
    p += 4;
    memcpy(p, h->seed, 32);
    p += 32;
    memcpy(p, h->vrf_proof, ZBC_VRF_PROOF_LEN);
    p += ZBC_VRF_PROOF_LEN;
    memcpy(p, h->tx_root, 32);
    p += 32;
    memcpy(p, h->state_root, 32);
    p += 32;
    put_uint(p, h->tx_count, 4);
    p += 4;
    memcpy(p, h->signature, ZBC_BLOCK_SIG_LEN);
}

int zbc_block_header_decode(struct zbc_block_header *h, const uint8_t *buf,
                            size_t len, struct zbc_err *err)
{
    if (len != ZBC_BLOCK_HEADER_LEN)
        return zbc_fail(err, "block header has %zu bytes, not %d", len,
                        ZBC_BLOCK_HEADER_LEN);
    struct zbc_block_header t;
    const uint8_t *p = buf;
    t.version = (uint32_t)get_uint(p, 4);
    p += 4;
    if (t.version != ZBC_BLOCK_VERSION)
        return zbc_fail(err, "block version %u is not %d", t.version,
                        ZBC_BLOCK_VERSION);
    t.height = (uint32_t)get_uint(p, 4);
    p += 4;
    t.timestamp_ms = get_uint(p, 8);
    p += 8;
    memcpy(t.prev_hash, p, 32);
    p += 32;
    memcpy(t.producer, p, 32);
    p += 32;
    t.rank = (uint32_t)get_uint(p, 4);
    p += 4;
    memcpy(t.seed, p, 32);
    p += 32;
    memcpy(t.vrf_proof, p, ZBC_VRF_PROOF_LEN);
    p += ZBC_VRF_PROOF_LEN;
    memcpy(t.tx_root, p, 32);
    p += 32;
    memcpy(t.state_root, p, 32);
    p += 32;
    t.tx_count = (uint32_t)get_uint(p, 4);
    p += 4;
    memcpy(t.signature, p, ZBC_BLOCK_SIG_LEN);
    *h = t;
    return 1;
}

void zbc_block_hash(uint8_t out[32], const struct zbc_block_header *h)
{
    uint8_t b[ZBC_BLOCK_HEADER_LEN];
    zbc_block_header_encode(b, h);
    zbc_sha3_256(out, b, sizeof b);
}

void zbc_block_signing_digest(uint8_t out[32], const struct zbc_block_header *h)
{
    uint8_t b[ZBC_BLOCK_HEADER_LEN];
    zbc_block_header_encode(b, h);
    struct zbc_sha3 s;
    zbc_sha3_init(&s);
    zbc_sha3_update(&s, BLOCK_SIGNING_TAG, strlen(BLOCK_SIGNING_TAG));
    zbc_sha3_update(&s, b, ZBC_BLOCK_HEADER_UNSIGNED_LEN);
    zbc_sha3_final(&s, out);
}

void zbc_block_sign(struct zbc_block_header *h, const uint8_t sk[64])
{
    uint8_t d[32];
    zbc_block_signing_digest(d, h);
    zbc_ed25519_sign(h->signature, sk, d, sizeof d);
}

int zbc_block_verify_signature(const struct zbc_block_header *h,
                               struct zbc_err *err)
{
    uint8_t d[32];
    zbc_block_signing_digest(d, h);
    if (!zbc_ed25519_verify(h->signature, h->producer, d, sizeof d))
        return zbc_fail(err, "block producer signature is invalid");
    return 1;
}

void zbc_tx_ref_hash(uint8_t out[32], const struct zbc_tx_ref *t)
{
    zbc_sha3_256(out, t->bytes, t->len);
}

static void merkle(uint8_t out[32], const uint8_t (*h)[32], size_t n)
{
    uint8_t buf[65];
    if (n == 1) {
        buf[0] = 0x00;
        memcpy(buf + 1, h[0], 32);
        zbc_sha3_256(out, buf, 33);
        return;
    }
    size_t k = 1;
    while (k * 2 < n)
        k *= 2;
    buf[0] = 0x01;
    merkle(buf + 1, h, k);
    merkle(buf + 33, h + k, n - k);
    zbc_sha3_256(out, buf, 65);
}

void zbc_tx_root(uint8_t out[32], const uint8_t (*hashes)[32], size_t n)
{
    if (n == 0) {
        zbc_sha3_256(out, "", 0);
        return;
    }
    merkle(out, hashes, n);
}

static int decode_body(struct zbc_block *b, const uint8_t *p, size_t rem,
                       struct zbc_err *err)
{
    if (rem < 4)
        return zbc_fail(err, "block body is truncated (transaction count)");
    uint32_t n = (uint32_t)get_uint(p, 4);
    p += 4;
    rem -= 4;
    if (n != b->header.tx_count)
        return zbc_fail(err, "block body holds %u transactions but the header "
                             "says %u", n, b->header.tx_count);
    /* every transaction takes at least 5 bytes (length + 1) */
    if (n > rem / 5)
        return zbc_fail(err, "block claims %u transactions in %zu bytes", n,
                        rem);
    b->txs = calloc(n > 0 ? n : 1, sizeof *b->txs);
    if (b->txs == NULL)
        return zbc_fail(err, "out of memory decoding a block");
    size_t total = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (rem < 4)
            return zbc_fail(err, "block transaction %u is truncated (length)",
                            i);
        uint32_t len = (uint32_t)get_uint(p, 4);
        p += 4;
        rem -= 4;
        if (len == 0)
            return zbc_fail(err, "block transaction %u is empty", i);
        if (len > rem)
            return zbc_fail(err, "block transaction %u of %u bytes is "
                                 "truncated (%zu left)", i, len, rem);
        total += len;
        if (total > ZBC_BLOCK_TX_BYTES_LIMIT)
            return zbc_fail(err, "block transactions exceed %u bytes",
                            ZBC_BLOCK_TX_BYTES_LIMIT);
        b->txs[i].bytes = p;
        b->txs[i].len = len;
        p += len;
        rem -= len;
    }
    if (rem != 0)
        return zbc_fail(err, "block has %zu trailing bytes", rem);
    b->n_tx = n;
    b->tx_bytes = total;
    return 1;
}

int zbc_block_decode(struct zbc_block *b, const uint8_t *buf, size_t len,
                     struct zbc_err *err)
{
    memset(b, 0, sizeof *b);
    if (len < ZBC_BLOCK_HEADER_LEN)
        return zbc_fail(err, "block is truncated: %zu bytes, header needs %d",
                        len, ZBC_BLOCK_HEADER_LEN);
    if (len > ZBC_BLOCK_MAX_BYTES)
        return zbc_fail(err, "block of %zu bytes exceeds %u", len,
                        (unsigned)ZBC_BLOCK_MAX_BYTES);
    if (!zbc_block_header_decode(&b->header, buf, ZBC_BLOCK_HEADER_LEN, err) ||
        !decode_body(b, buf + ZBC_BLOCK_HEADER_LEN, len - ZBC_BLOCK_HEADER_LEN,
                     err)) {
        zbc_block_free(b);
        return 0;
    }
    return 1;
}

int zbc_block_encode(const struct zbc_block *b, uint8_t **out, size_t *len,
                     struct zbc_err *err)
{
    if (b->n_tx != b->header.tx_count)
        return zbc_fail(err, "block has %u transactions but the header says %u",
                        b->n_tx, b->header.tx_count);
    size_t total = ZBC_BLOCK_HEADER_LEN + 4;
    for (uint32_t i = 0; i < b->n_tx; i++)
        total += 4 + (size_t)b->txs[i].len;
    uint8_t *o = malloc(total);
    if (o == NULL)
        return zbc_fail(err, "out of memory encoding a block");
    zbc_block_header_encode(o, &b->header);
    uint8_t *p = o + ZBC_BLOCK_HEADER_LEN;
    put_uint(p, b->n_tx, 4);
    p += 4;
    for (uint32_t i = 0; i < b->n_tx; i++) {
        put_uint(p, b->txs[i].len, 4);
        p += 4;
        memcpy(p, b->txs[i].bytes, b->txs[i].len);
        p += b->txs[i].len;
    }
    *out = o;
    *len = total;
    return 1;
}

void zbc_block_free(struct zbc_block *b)
{
    free(b->txs);
    memset(b, 0, sizeof *b);
}
