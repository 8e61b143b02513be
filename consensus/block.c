#include "consensus/block.h"

#include <stdlib.h>
#include <string.h>

#include "consensus/genesis.h"
#include "crypto/bytes.h"
#include "crypto/hash.h"
#include "crypto/sig.h"

#define BLOCK_SIGNING_TAG "ZBC-BLOCK"

void zbc_block_header_encode(uint8_t out[ZBC_BLOCK_HEADER_LEN],
                             const struct zbc_block_header *h)
{
    struct zbc_wr w;
    zbc_wr_init(&w, out, ZBC_BLOCK_HEADER_LEN);
    zbc_wr_le32(&w, h->version);
    zbc_wr_le32(&w, h->height);
    zbc_wr_le64(&w, h->timestamp_ms);
    zbc_wr_bytes(&w, h->prev_hash, 32);
    zbc_wr_bytes(&w, h->producer, 32);
    zbc_wr_le32(&w, h->rank);
    zbc_wr_bytes(&w, h->seed, 32);
    zbc_wr_bytes(&w, h->vrf_proof, ZBC_VRF_PROOF_LEN);
    zbc_wr_bytes(&w, h->tx_root, 32);
    zbc_wr_bytes(&w, h->state_root, 32);
    zbc_wr_le32(&w, h->tx_count);
    zbc_wr_bytes(&w, h->signature, ZBC_BLOCK_SIG_LEN);
}

int zbc_block_header_decode(struct zbc_block_header *h, const uint8_t *buf,
                            size_t len, struct zbc_err *err)
{
    if (len != ZBC_BLOCK_HEADER_LEN)
        return zbc_fail(err, "block header has %zu bytes, not %d", len,
                        ZBC_BLOCK_HEADER_LEN);
    /* exactly the header's length: every read below fits */
    struct zbc_block_header t;
    struct zbc_rd r;
    zbc_rd_init(&r, buf, len);
    t.version = zbc_rd_le32(&r, "version");
    if (t.version != ZBC_BLOCK_VERSION)
        return zbc_fail(err, "block version %u is not %d", t.version,
                        ZBC_BLOCK_VERSION);
    t.height = zbc_rd_le32(&r, "height");
    t.timestamp_ms = zbc_rd_le64(&r, "timestamp");
    zbc_rd_copy(&r, t.prev_hash, 32, "previous hash");
    zbc_rd_copy(&r, t.producer, 32, "producer");
    t.rank = zbc_rd_le32(&r, "rank");
    zbc_rd_copy(&r, t.seed, 32, "seed");
    zbc_rd_copy(&r, t.vrf_proof, ZBC_VRF_PROOF_LEN, "VRF proof");
    zbc_rd_copy(&r, t.tx_root, 32, "transactions root");
    zbc_rd_copy(&r, t.state_root, 32, "state root");
    t.tx_count = zbc_rd_le32(&r, "transaction count");
    zbc_rd_copy(&r, t.signature, ZBC_BLOCK_SIG_LEN, "signature");
    if (!zbc_rd_done(&r))
        return zbc_rd_err(&r, err, "block header");
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
    struct zbc_rd r;
    zbc_rd_init(&r, p, rem);
    uint32_t n = zbc_rd_le32(&r, "transaction count");
    if (!zbc_rd_ok(&r))
        return zbc_fail(err, "block body is truncated (transaction count)");
    if (n != b->header.tx_count)
        return zbc_fail(err, "block body holds %u transactions but the header "
                             "says %u", n, b->header.tx_count);
    /* every transaction takes at least 5 bytes (length + 1) */
    if (n > r.left / 5)
        return zbc_fail(err, "block claims %u transactions in %zu bytes", n,
                        r.left);
    b->txs = calloc(n > 0 ? n : 1, sizeof *b->txs);
    if (b->txs == NULL)
        return zbc_fail(err, "out of memory decoding a block");
    size_t total = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t len = zbc_rd_le32(&r, "transaction length");
        if (!zbc_rd_ok(&r))
            return zbc_fail(err, "block transaction %u is truncated (length)",
                            i);
        if (len == 0)
            return zbc_fail(err, "block transaction %u is empty", i);
        if (len > r.left)
            return zbc_fail(err, "block transaction %u of %u bytes is "
                                 "truncated (%zu left)", i, len, r.left);
        total += len;
        if (total > ZBC_BLOCK_TX_BYTES_LIMIT)
            return zbc_fail(err, "block transactions exceed %u bytes",
                            ZBC_BLOCK_TX_BYTES_LIMIT);
        b->txs[i].bytes = zbc_rd_take(&r, len, "transaction");
        b->txs[i].len = len;
    }
    if (r.left != 0)
        return zbc_fail(err, "block has %zu trailing bytes", r.left);
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
    struct zbc_wr w;
    zbc_wr_init(&w, o + ZBC_BLOCK_HEADER_LEN, total - ZBC_BLOCK_HEADER_LEN);
    zbc_wr_le32(&w, b->n_tx);
    for (uint32_t i = 0; i < b->n_tx; i++) {
        zbc_wr_le32(&w, b->txs[i].len);
        zbc_wr_bytes(&w, b->txs[i].bytes, b->txs[i].len);
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
