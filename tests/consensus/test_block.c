/* Blocks: header bytes round trip and layout, block hash, signature, tx
 * root against values computed independently (Python hashlib, RFC 6962
 * construction in docs/protocol-chain.md), body decode bounds. */
#include <stdlib.h>
#include <string.h>

#include "consensus/block.h"
#include "consensus/genesis.h"
#include "crypto/hash.h"
#include "crypto/hex.h"
#include "crypto/sig.h"
#include "testlib.h"

static void sample_header(struct zbc_block_header *h)
{
    memset(h, 0, sizeof *h);
    h->version = 1;
    h->height = 0x01020304;
    h->timestamp_ms = 0x1122334455667788ULL;
    memset(h->prev_hash, 0xa1, 32);
    memset(h->producer, 0xa2, 32);
    h->rank = 7;
    memset(h->seed, 0xa3, 32);
    memset(h->vrf_proof, 0xa4, 80);
    memset(h->tx_root, 0xa5, 32);
    memset(h->state_root, 0xa6, 32);
    h->tx_count = 0;
    memset(h->signature, 0xa7, 64);
}

static void test_header_layout(void)
{
    struct zbc_block_header h, d;
    struct zbc_err err;
    sample_header(&h);
    uint8_t b[ZBC_BLOCK_HEADER_LEN];
    zbc_block_header_encode(b, &h);
    CHECK_EQ_INT(ZBC_BLOCK_HEADER_LEN, 328);
    /* offsets per docs/protocol-chain.md */
    const uint8_t v[4] = {1, 0, 0, 0}, ht[4] = {4, 3, 2, 1};
    const uint8_t ts[8] = {0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11};
    CHECK_EQ_MEM(b + 0, v, 4);
    CHECK_EQ_MEM(b + 4, ht, 4);
    CHECK_EQ_MEM(b + 8, ts, 8);
    CHECK_EQ_INT(b[16], 0xa1);
    CHECK_EQ_INT(b[48], 0xa2);
    CHECK_EQ_INT(b[80], 7);
    CHECK_EQ_INT(b[84], 0xa3);
    CHECK_EQ_INT(b[116], 0xa4);
    CHECK_EQ_INT(b[196], 0xa5);
    CHECK_EQ_INT(b[228], 0xa6);
    CHECK_EQ_INT(b[260], 0);
    CHECK_EQ_INT(b[264], 0xa7);
    CHECK_EQ_INT(b[327], 0xa7);
    CHECK(zbc_block_header_decode(&d, b, sizeof b, &err));
    uint8_t b2[ZBC_BLOCK_HEADER_LEN];
    zbc_block_header_encode(b2, &d);
    CHECK_EQ_MEM(b, b2, sizeof b);
    /* hash = H(all 328 bytes) */
    uint8_t want[32], got[32];
    zbc_sha3_256(want, b, sizeof b);
    zbc_block_hash(got, &h);
    CHECK_EQ_MEM(got, want, 32);
    /* wrong length, wrong version */
    CHECK(!zbc_block_header_decode(&d, b, sizeof b - 1, &err));
    CHECK(strstr(err.msg, "328") != NULL);
    b[0] = 2;
    CHECK(!zbc_block_header_decode(&d, b, sizeof b, &err));
    CHECK(strstr(err.msg, "version") != NULL);
}

static void test_signature(void)
{
    uint8_t seed[32], pk[32], sk[64];
    memset(seed, 0x11, 32);
    zbc_ed25519_keypair(pk, sk, seed);
    struct zbc_block_header h;
    struct zbc_err err;
    sample_header(&h);
    memcpy(h.producer, pk, 32);
    zbc_block_sign(&h, sk);
    CHECK(zbc_block_verify_signature(&h, &err));
    /* the digest is H("ZBC-BLOCK" || first 264 bytes) */
    uint8_t b[ZBC_BLOCK_HEADER_LEN], m[9 + 264], d[32];
    zbc_block_header_encode(b, &h);
    memcpy(m, "ZBC-BLOCK", 9);
    memcpy(m + 9, b, 264);
    zbc_sha3_256(d, m, sizeof m);
    CHECK(zbc_ed25519_verify(h.signature, pk, d, 32));
    /* any header change breaks it */
    h.rank++;
    CHECK(!zbc_block_verify_signature(&h, &err));
    CHECK(strstr(err.msg, "signature") != NULL);
    h.rank--;
    h.signature[10] ^= 1;
    CHECK(!zbc_block_verify_signature(&h, &err));
}

static void test_tx_root(void)
{
    static const char *want[] = {
        "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a",
        "896c9783c00456e5987c4b4245b47ae02748268f761690996d56f53247bd2c92",
        "cc9b331b47a6edbf5c748f638aecb61239445914c60d14a081534767066807e7",
        "65e6003917224ead6ea65b0a432a965dd6988cea80cf337d70ae6d4b7ed134c4",
        NULL,
        "2d5afbf6367e5ac54c5fb81399e34564bfe4496ef43ab34a246bae41bee9de02",
        NULL,
        NULL,
        "3b77be17807db3e1b5f16e058aff69c8c898ccb9a68780e8de2f722eeec93242",
    };
    uint8_t hashes[8][32];
    for (int i = 0; i < 8; i++) {
        uint8_t b = (uint8_t)i;
        zbc_sha3_256(hashes[i], &b, 1);
    }
    for (size_t n = 0; n <= 8; n++) {
        if (want[n] == NULL)
            continue;
        uint8_t root[32];
        char hex[65];
        zbc_tx_root(root, (const uint8_t(*)[32])hashes, n);
        zbc_hex_encode(hex, root, 32);
        CHECK_EQ_STR(hex, want[n]);
    }
}

static uint8_t tx_a[3] = {1, 2, 3};
static uint8_t tx_b[5] = {9, 8, 7, 6, 5};

static void sample_block(struct zbc_block *b, struct zbc_tx_ref refs[2])
{
    memset(b, 0, sizeof *b);
    sample_header(&b->header);
    refs[0].bytes = tx_a;
    refs[0].len = sizeof tx_a;
    refs[1].bytes = tx_b;
    refs[1].len = sizeof tx_b;
    b->txs = refs;
    b->n_tx = 2;
    b->header.tx_count = 2;
}

static void test_block_round_trip(void)
{
    struct zbc_block b, d;
    struct zbc_tx_ref refs[2];
    struct zbc_err err;
    sample_block(&b, refs);
    uint8_t *enc;
    size_t len;
    CHECK(zbc_block_encode(&b, &enc, &len, &err));
    CHECK_EQ_INT(len, 328 + 4 + 4 + 3 + 4 + 5);
    CHECK(zbc_block_decode(&d, enc, len, &err));
    CHECK_EQ_INT(d.n_tx, 2);
    CHECK_EQ_INT(d.tx_bytes, 8);
    CHECK_EQ_INT(d.txs[1].len, 5);
    CHECK_EQ_MEM(d.txs[1].bytes, tx_b, 5);
    uint8_t *enc2;
    size_t len2;
    CHECK(zbc_block_encode(&d, &enc2, &len2, &err));
    CHECK_EQ_INT(len2, len);
    CHECK_EQ_MEM(enc2, enc, len);
    free(enc2);
    zbc_block_free(&d);
    /* every truncation and one extra byte fail, leaving d empty */
    for (size_t n = 0; n < len; n++) {
        CHECK(!zbc_block_decode(&d, enc, n, &err));
        CHECK(d.txs == NULL);
    }
    /* the sentences of the truncations (docs/protocol-chain.md §2.2) */
    static const struct {
        size_t n;
        const char *want;
    } cut[] = {
        {100, "block is truncated: 100 bytes, header needs 328"},
        {328, "block body is truncated (transaction count)"},
        {341, "block claims 2 transactions in 9 bytes"},
        {342, "block transaction 1 is truncated (length)"},
        {347, "block transaction 1 of 5 bytes is truncated (4 left)"},
    };
    for (size_t i = 0; i < sizeof cut / sizeof cut[0]; i++) {
        CHECK(!zbc_block_decode(&d, enc, cut[i].n, &err));
        CHECK_EQ_STR(err.msg, cut[i].want);
    }
    uint8_t *longer = malloc(len + 1);
    memcpy(longer, enc, len);
    longer[len] = 0;
    CHECK(!zbc_block_decode(&d, longer, len + 1, &err));
    CHECK_EQ_STR(err.msg, "block has 1 trailing bytes");
    /* count in body differs from header */
    memcpy(longer, enc, len);
    longer[328] = 3;
    CHECK(!zbc_block_decode(&d, longer, len, &err));
    CHECK(strstr(err.msg, "header says") != NULL);
    /* zero-length transaction */
    memcpy(longer, enc, len);
    memset(longer + 332, 0, 4);
    CHECK(!zbc_block_decode(&d, longer, len, &err));
    CHECK(strstr(err.msg, "empty") != NULL);
    /* huge count with few bytes */
    memcpy(longer, enc, len);
    longer[260] = 0xff;
    longer[261] = 0xff;
    longer[328] = 0xff;
    longer[329] = 0xff;
    CHECK(!zbc_block_decode(&d, longer, len, &err));
    CHECK(strstr(err.msg, "claims") != NULL);
    free(longer);
    free(enc);
    /* encode refuses a count mismatch */
    b.header.tx_count = 1;
    CHECK(!zbc_block_encode(&b, &enc, &len, &err));
}

static void test_block_size_limit(void)
{
    /* two transactions of 1 MiB + 1 byte: over the 2 MiB limit */
    size_t big = 1024 * 1024 + 1;
    uint8_t *tx = calloc(1, big);
    struct zbc_tx_ref refs[2] = {{tx, (uint32_t)big}, {tx, (uint32_t)big}};
    struct zbc_block b;
    struct zbc_err err;
    memset(&b, 0, sizeof b);
    sample_header(&b.header);
    b.header.tx_count = 2;
    b.n_tx = 2;
    b.txs = refs;
    uint8_t *enc;
    size_t len;
    CHECK(zbc_block_encode(&b, &enc, &len, &err));
    struct zbc_block d;
    CHECK(!zbc_block_decode(&d, enc, len, &err));
    CHECK(strstr(err.msg, "exceed") != NULL);
    free(enc);
    /* exactly 2 MiB is fine */
    refs[1].len = (uint32_t)(2 * 1024 * 1024 - big);
    CHECK(zbc_block_encode(&b, &enc, &len, &err));
    CHECK(zbc_block_decode(&d, enc, len, &err));
    CHECK_EQ_INT(d.tx_bytes, 2 * 1024 * 1024);
    zbc_block_free(&d);
    free(enc);
    free(tx);
}

int main(void)
{
    TEST_RUN(test_header_layout);
    TEST_RUN(test_signature);
    TEST_RUN(test_tx_root);
    TEST_RUN(test_block_round_trip);
    TEST_RUN(test_block_size_limit);
    return test_summary("consensus_block");
}
