/* Stateless validity: each rule of docs/protocol-tx.md §4 with its error text, for
 * transactions signed here (Ed25519 from a seed, Ethereum and Bitcoin with
 * secp256k1 keys) over the chain-bound digest. */
#include <sodium.h>

#include "consensus/tx.h"
#include "consensus/tx_body.h"
#include "consensus/tx_valid.h"
#include "crypto/hex.h"
#include "crypto/sig.h"
#include "testlib.h"

static uint8_t genesis[32], seed[32];
static uint8_t buf[4096];
static struct zbc_tx tx;

static const uint8_t amount_body[8] = {0x00, 0xe1, 0xf5, 0x05, 0, 0, 0, 0};
static const uint8_t app_id_body[8] = {5, 0, 0, 0, 0, 0, 0, 0};

static void base(struct zbc_tx *b, uint32_t type)
{
    memset(b, 0, sizeof *b);
    b->type = type;
    b->version = 1;
    b->timestamp = 1700000000;
    b->fee = 5000000;
    zbc_addr_empty(&b->recipient);
    if (type == ZBC_TX_SEND) {
        uint8_t pk[32];
        memset(pk, 0x42, 32);
        zbc_addr_from_ed25519(&b->recipient, pk);
        b->body = amount_body;
        b->body_len = 8;
    } else {
        b->body = app_id_body;
        b->body_len = 8;
    }
}

/* Signs b with the Ed25519 seed for `genesis` and parses into tx. */
static void sign_parse(struct zbc_tx *b)
{
    size_t n;
    struct zbc_err err;
    CHECK(zbc_tx_sign_ed25519(buf, sizeof buf, &n, b, seed, genesis, &err));
    CHECK(zbc_tx_parse(&tx, buf, n, &err));
}

static int valid(uint64_t base_fee, uint64_t per_byte, struct zbc_err *err)
{
    return zbc_tx_valid(&tx, genesis, base_fee, per_byte, NULL, err);
}

static void setup(void)
{
    CHECK(zbc_hex_decode_exact(genesis, 32,
        "cf30b4a8c165da3bc004b3a397b18c68986271b0395f9df0e984552fb455cf1d"));
    CHECK(zbc_hex_decode_exact(seed, 32,
        "51bae95d58f32304a5c9d894819989a4fb04da6115d9a43612a026e7a5dd5d96"));
}

static void test_valid_baseline_every_type(void)
{
    static const uint8_t create[20] = {1, 0, 0, 0, 0, 0, 0, 0, 0,
                                       0x00, 0xe1, 0xf5, 0x05, 0, 0, 0, 0, 2, 0, 0};
    static const uint8_t move[11] = {5, 0, 0, 0, 0, 0, 0, 0, 1, 0, 4};
    uint32_t types[] = {1, 24, 25, 26, 27, 28};
    for (size_t i = 0; i < 6; i++) {
        struct zbc_tx b;
        struct zbc_tx_body body;
        struct zbc_err err;
        base(&b, types[i]);
        if (types[i] == 24) {
            b.body = create;
            b.body_len = sizeof create;
        } else if (types[i] == 26) {
            b.body = move;
            b.body_len = sizeof move;
        }
        sign_parse(&b);
        if (!zbc_tx_valid(&tx, genesis, 0, 0, &body, &err))
            fprintf(stderr, "type %u: %s\n", types[i], err.msg);
        CHECK(zbc_tx_valid(&tx, genesis, 0, 0, &body, &err));
        CHECK_EQ_INT(body.type, types[i]);
    }
}

static void test_unknown_type(void)
{
    struct zbc_tx b;
    struct zbc_err err;
    uint32_t bad[] = {0, 2, 4, 23, 29, 770};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        base(&b, ZBC_TX_APP_JOIN);
        b.type = bad[i];
        sign_parse(&b);
        CHECK(!valid(0, 0, &err));
        char want[64];
        snprintf(want, sizeof want, "unknown transaction type %u", bad[i]);
        CHECK_EQ_STR(err.msg, want);
    }
}

static void test_bad_version(void)
{
    struct zbc_tx b;
    struct zbc_err err;
    base(&b, ZBC_TX_SEND);
    b.version = 2;
    sign_parse(&b);
    CHECK(!valid(0, 0, &err));
    CHECK_EQ_STR(err.msg, "unsupported transaction version 2 (must be 1)");
    b.version = 0;
    sign_parse(&b);
    CHECK(!valid(0, 0, &err));
}

static void test_escrow_refused(void)
{
    struct zbc_tx b;
    struct zbc_err err;
    base(&b, ZBC_TX_SEND);
    b.has_escrow = true;
    b.escrow.approver = b.recipient;
    b.escrow.commission = 1;
    b.escrow.timeout = 2;
    sign_parse(&b);
    CHECK(!valid(0, 0, &err));
    CHECK_EQ_STR(err.msg, "escrow is not supported on this chain");
}

static void test_message_limit(void)
{
    static uint8_t msg[1025];
    struct zbc_tx b;
    struct zbc_err err;
    memset(msg, 'm', sizeof msg);
    base(&b, ZBC_TX_SEND);
    b.message = msg;
    b.message_len = 1024;
    sign_parse(&b);
    CHECK(valid(0, 0, &err));
    b.message_len = 1025;
    sign_parse(&b);
    CHECK(!valid(0, 0, &err));
    CHECK_EQ_STR(err.msg, "message of 1025 bytes is longer than the 1024 allowed");
}

static void test_fee_rule(void)
{
    struct zbc_tx b;
    struct zbc_err err;
    base(&b, ZBC_TX_SEND);
    b.fee = 1000 + 2 * 177; /* 113 unsigned bytes + 64 signature */
    sign_parse(&b);
    CHECK_EQ_INT(tx.raw_len, 177);
    CHECK(valid(1000, 2, &err));
    CHECK(!valid(1001, 2, &err));
    CHECK(strstr(err.msg, "fee too low") != NULL);
    CHECK_EQ_STR(err.msg, "fee too low: 1354 < minimum 1355 (1001 + 2 per byte x 177 bytes)");
    CHECK(!valid(1000, 3, &err));
    CHECK(strstr(err.msg, "fee too low") != NULL);
    /* the product overflows u64 */
    CHECK(!valid(0, UINT64_MAX / 100, &err));
    CHECK_EQ_STR(err.msg, "fee too low: the minimum fee for 177 bytes overflows");
    /* the sum overflows u64 */
    CHECK(!valid(UINT64_MAX, 1, &err));
    CHECK(strstr(err.msg, "overflows") != NULL);
    /* negative fee */
    b.fee = -1;
    sign_parse(&b);
    CHECK(!valid(0, 0, &err));
    CHECK_EQ_STR(err.msg, "fee too low: fee -1 is negative");
    /* fee rule alone */
    CHECK(zbc_tx_valid_fee(INT64_MAX, 10, (uint64_t)INT64_MAX - 10, 1, &err));
    CHECK(!zbc_tx_valid_fee(INT64_MAX, 11, (uint64_t)INT64_MAX - 10, 1, &err));
}

static void test_wrong_signature_and_genesis(void)
{
    struct zbc_tx b;
    struct zbc_err err;
    uint8_t other[32];
    base(&b, ZBC_TX_SEND);
    sign_parse(&b);
    CHECK(valid(0, 0, &err));
    /* every flipped signature bit is refused */
    int accepted = 0;
    for (size_t bit = 0; bit < 512; bit++) {
        buf[tx.unsigned_len + bit / 8] ^= (uint8_t)(1u << (bit % 8));
        if (valid(0, 0, &err))
            accepted++;
        buf[tx.unsigned_len + bit / 8] ^= (uint8_t)(1u << (bit % 8));
    }
    CHECK_EQ_INT(accepted, 0);
    buf[tx.unsigned_len] ^= 1;
    CHECK(!valid(0, 0, &err));
    CHECK_EQ_STR(err.msg, "invalid signature: Ed25519 signature does not verify for the sender's key");
    buf[tx.unsigned_len] ^= 1;
    /* a changed field under the same signature */
    buf[5] ^= 1; /* timestamp */
    CHECK(!valid(0, 0, &err));
    buf[5] ^= 1;
    memcpy(other, genesis, 32);
    other[31] ^= 0x80;
    CHECK(!zbc_tx_valid(&tx, other, 0, 0, NULL, &err));
    CHECK(strstr(err.msg, "invalid signature") != NULL);
    /* signed with the v1 rule: not valid here */
    size_t n;
    CHECK(zbc_tx_sign_ed25519(buf, sizeof buf, &n, &b, seed, NULL, &err));
    CHECK(zbc_tx_parse(&tx, buf, n, &err));
    CHECK(!valid(0, 0, &err));
    CHECK(strstr(err.msg, "invalid signature") != NULL);
}

/* Builds and parses a transaction with an arbitrary sender and sig. */
static void raw_parse(struct zbc_tx *b, const uint8_t *sig, size_t sig_len)
{
    size_t n;
    struct zbc_err err;
    b->sig = sig;
    b->sig_len = sig_len;
    CHECK(zbc_tx_write(buf, sizeof buf, &n, b, &err));
    CHECK(zbc_tx_parse(&tx, buf, n, &err));
}

static void test_unsupported_sender_types(void)
{
    struct zbc_tx b;
    struct zbc_err err;
    uint8_t sig[98] = {0};
    /* 3 Estonia eID (64-byte sig), 13 Cardano (98), 7 Bitcoin P2WPKH (rest) */
    struct { uint32_t type; uint8_t len; size_t sig; } cases[] = {
        {3, 32, 64}, {13, 28, 98}, {7, 20, 65}, {12, 32, 64}};
    for (size_t i = 0; i < 4; i++) {
        base(&b, ZBC_TX_SEND);
        b.sender.type = cases[i].type;
        b.sender.len = cases[i].len;
        memset(b.sender.payload, 1, cases[i].len);
        raw_parse(&b, sig, cases[i].sig);
        CHECK(!valid(0, 0, &err));
        char want[80];
        snprintf(want, sizeof want,
                 "sender account type %u is not supported on this chain", cases[i].type);
        CHECK_EQ_STR(err.msg, want);
    }
}

static void test_recipient_rules(void)
{
    struct zbc_tx b;
    struct zbc_err err;
    base(&b, ZBC_TX_SEND);
    zbc_addr_empty(&b.recipient);
    sign_parse(&b);
    CHECK(!valid(0, 0, &err));
    CHECK_EQ_STR(err.msg, "SendZBC needs a recipient");
    base(&b, ZBC_TX_SEND);
    b.recipient.type = 11; /* Solana */
    sign_parse(&b);
    CHECK(!valid(0, 0, &err));
    CHECK_EQ_STR(err.msg, "recipient account type 11 is not supported on this chain");
    /* foreign recipients of supported types are fine */
    uint32_t ok_types[] = {1, 4, 5};
    for (size_t i = 0; i < 3; i++) {
        base(&b, ZBC_TX_SEND);
        b.recipient.type = ok_types[i];
        b.recipient.len = 20;
        sign_parse(&b);
        CHECK(valid(0, 0, &err));
    }
    base(&b, ZBC_TX_APP_JOIN);
    zbc_addr_from_ed25519(&b.recipient, seed);
    sign_parse(&b);
    CHECK(!valid(0, 0, &err));
    CHECK_EQ_STR(err.msg, "app transactions take no recipient");
}

static void test_bad_body(void)
{
    struct zbc_tx b;
    struct zbc_err err;
    base(&b, ZBC_TX_SEND);
    b.body_len = 7;
    sign_parse(&b);
    CHECK(!valid(0, 0, &err));
    CHECK_EQ_STR(err.msg, "SendZBC body must be 8 bytes, got 7");
    base(&b, ZBC_TX_APP_CLAIM);
    b.body_len = 0;
    sign_parse(&b);
    CHECK(!valid(0, 0, &err));
    CHECK_EQ_STR(err.msg, "ClaimAppTimeout body must be 8 bytes, got 0");
}

static void test_foreign_senders(void)
{
    uint8_t sk[32], digest[32], sig[65];
    struct zbc_tx b;
    struct zbc_err err;
    size_t n;
    memset(sk, 0x07, 32);
    for (int kind = 0; kind < 2; kind++) {
        base(&b, ZBC_TX_SEND);
        if (kind == 0)
            CHECK(zbc_eth_address(&b.sender, sk));
        else
            CHECK(zbc_btc_address(&b.sender, sk));
        CHECK(zbc_tx_write_unsigned(buf, sizeof buf, &n, &b, &err));
        zbc_tx_digest_v2(digest, genesis, buf, n);
        if (kind == 0)
            CHECK(zbc_eth_sign(sig, sk, digest));
        else
            CHECK(zbc_btc_sign(sig, sk, digest));
        raw_parse(&b, sig, 65);
        if (!valid(0, 0, &err))
            fprintf(stderr, "kind %d: %s\n", kind, err.msg);
        CHECK(valid(0, 0, &err));
        sig[10] ^= 1;
        raw_parse(&b, sig, 65);
        CHECK(!valid(0, 0, &err));
        CHECK(strstr(err.msg, "invalid signature") != NULL);
    }
}

static void test_timestamp_window(void)
{
    struct zbc_err err;
    const uint64_t bt = 1700000000000ull;
    CHECK(zbc_tx_valid_time(1700000000, bt, &err));
    CHECK(zbc_tx_valid_time(1700000010, bt, &err));
    CHECK(!zbc_tx_valid_time(1700000011, bt, &err));
    CHECK(strstr(err.msg, "after the block time") != NULL);
    CHECK(zbc_tx_valid_time(1700000000 - 3600, bt, &err));
    CHECK(!zbc_tx_valid_time(1700000000 - 3601, bt, &err));
    CHECK(strstr(err.msg, "before the block time") != NULL);
    /* block time in ms, not a whole second */
    CHECK(zbc_tx_valid_time(1700000010, bt + 1, &err));
    CHECK(!zbc_tx_valid_time(1700000000 - 3600, bt + 1, &err));
    /* extremes do not overflow */
    CHECK(!zbc_tx_valid_time(INT64_MAX, bt, &err));
    CHECK(!zbc_tx_valid_time(INT64_MIN, bt, &err));
    CHECK(!zbc_tx_valid_time(INT64_MAX, UINT64_MAX, &err));
    CHECK(zbc_tx_valid_time((int64_t)(UINT64_MAX / 1000), UINT64_MAX, &err));
    CHECK(zbc_tx_valid_time(-3600, 0, &err));
    CHECK(!zbc_tx_valid_time(-3601, 0, &err));
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    setup();
    TEST_RUN(test_valid_baseline_every_type);
    TEST_RUN(test_unknown_type);
    TEST_RUN(test_bad_version);
    TEST_RUN(test_escrow_refused);
    TEST_RUN(test_message_limit);
    TEST_RUN(test_fee_rule);
    TEST_RUN(test_wrong_signature_and_genesis);
    TEST_RUN(test_unsupported_sender_types);
    TEST_RUN(test_recipient_rules);
    TEST_RUN(test_bad_body);
    TEST_RUN(test_foreign_senders);
    TEST_RUN(test_timestamp_window);
    return test_summary("consensus_tx_valid");
}
