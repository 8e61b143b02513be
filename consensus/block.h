/* Blocks: header canonical bytes, hashes, producer signature, transactions
 * root and the block body (docs/protocol-chain.md §2).
 *
 * Header bytes (ZBC_BLOCK_HEADER_LEN = 328, integers LE):
 *   version u32 | height u32 | timestamp_ms u64 | prev_hash 32 |
 *   producer 32 | rank u32 | seed 32 | vrf_proof 80 | tx_root 32 |
 *   state_root 32 | tx_count u32 | signature 64
 * signature = Ed25519(producer, H("ZBC-BLOCK" || header[0..264)))
 * block hash = H(all 328 header bytes, signature included)
 * Block bytes = header | body; body = tx_count u32 | (len u32 | tx)*.
 * tx_root: RFC 6962 Merkle tree over the transaction hashes
 *   (leaf = H(0x00 || tx_hash), node = H(0x01 || left || right), split at
 *   the largest power of two below n; empty tree = H("")). */
#ifndef ZBC_BLOCK_H
#define ZBC_BLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"

#define ZBC_BLOCK_VERSION 1
#define ZBC_VRF_PROOF_LEN 80
#define ZBC_BLOCK_SIG_LEN 64
#define ZBC_BLOCK_HEADER_UNSIGNED_LEN 264
#define ZBC_BLOCK_HEADER_LEN (ZBC_BLOCK_HEADER_UNSIGNED_LEN + ZBC_BLOCK_SIG_LEN)
/* Upper bound of an encoded block: header + count + per-tx length words
 * + 2 MiB of transactions (each transaction costs at least 1 byte). */
#define ZBC_BLOCK_MAX_BYTES \
    (ZBC_BLOCK_HEADER_LEN + 4 + 5u * 2u * 1024u * 1024u)

struct zbc_block_header {
    uint32_t version;
    uint32_t height;
    uint64_t timestamp_ms;
    uint8_t prev_hash[32];
    uint8_t producer[32];   /* Ed25519 node key */
    uint32_t rank;
    uint8_t seed[32];
    uint8_t vrf_proof[ZBC_VRF_PROOF_LEN];
    uint8_t tx_root[32];
    uint8_t state_root[32];
    uint32_t tx_count;
    uint8_t signature[ZBC_BLOCK_SIG_LEN];
};

/* A transaction inside a block: points into the decoded buffer (or the
 * producer's candidates); raw = unsigned bytes || signature. */
struct zbc_tx_ref {
    const uint8_t *bytes;
    uint32_t len;
};

struct zbc_block {
    struct zbc_block_header header;
    uint32_t n_tx;            /* == header.tx_count */
    struct zbc_tx_ref *txs;   /* heap array; bytes are borrowed */
    size_t tx_bytes;          /* sum of transaction lengths */
};

void zbc_block_header_encode(uint8_t out[ZBC_BLOCK_HEADER_LEN],
                             const struct zbc_block_header *h);
/* Decodes exactly ZBC_BLOCK_HEADER_LEN bytes (len must match). */
ZBC_WUR int zbc_block_header_decode(struct zbc_block_header *h,
                                    const uint8_t *buf, size_t len,
                                    struct zbc_err *err);
void zbc_block_hash(uint8_t out[32], const struct zbc_block_header *h);
/* H("ZBC-BLOCK" || unsigned header bytes): what the producer signs. */
void zbc_block_signing_digest(uint8_t out[32],
                              const struct zbc_block_header *h);
/* Fills h->signature with the producer's key (sk = libsodium 64 bytes). */
void zbc_block_sign(struct zbc_block_header *h, const uint8_t sk[64]);
ZBC_WUR int zbc_block_verify_signature(const struct zbc_block_header *h,
                                       struct zbc_err *err);

/* tx hash = H(raw transaction bytes) (docs/protocol-tx.md §2: unsigned || signature). */
void zbc_tx_ref_hash(uint8_t out[32], const struct zbc_tx_ref *t);
/* RFC 6962-style Merkle root of n hashes (n = 0 gives H("")). */
void zbc_tx_root(uint8_t out[32], const uint8_t (*hashes)[32], size_t n);

/* Decodes a whole block; tx refs borrow buf, which must outlive b.
 * Checks: header, tx_count equals the body count, each length >= 1, sum
 * of transaction bytes <= ZBC_BLOCK_TX_BYTES_LIMIT, no trailing bytes.
 * (The genesis max_block_bytes and everything semantic is apply's job.)
 * On failure b is left empty (nothing to free). */
ZBC_WUR int zbc_block_decode(struct zbc_block *b, const uint8_t *buf,
                             size_t len, struct zbc_err *err);
/* Encodes header || body into a malloc'ed buffer. */
ZBC_WUR int zbc_block_encode(const struct zbc_block *b, uint8_t **out,
                             size_t *len, struct zbc_err *err);
void zbc_block_free(struct zbc_block *b);

#endif
