/* zbc_tx_parse and the builder on bad input: truncation at every length,
 * trailing bytes, oversized lengths, unknown account types, escrow block
 * variants, signature lengths by sender type, size limit. */
#include <stdlib.h>

#include "consensus/tx.h"
#include "crypto/bytes.h"
#include "crypto/hex.h"
#include "testlib.h"

/* send-zbc/escrow-and-message from tests/vectors/zoobc/transactions.json:
 * every optional part of the envelope present. */
static const char *full_hex =
    "010000000104f1536500000000000000005e8eb28dccaa94a992f7169fa67966207d96aa55df7d24d2d6ec1f538c9f215200000000d04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737404b4c00000000000800000080b2e60e00000000000000005e8eb28dccaa94a992f7169fa67966207d96aa55df7d24d2d6ec1f538c9f2152881300000000000000d2496b000000000a00000073686970206669727374000a000000696e766f696365203432bbda32ba34aedf8c8692c888776b6cce723ba008d7766aea6b7672aa28a711fd3709c2b73afa346bf5cd3bd874533ef43fc6dc94b64de57b173f2094da926005";

/* Offsets in that transaction (docs/protocol-tx.md §1). */
#define OFF_SENDER 13
#define OFF_BODYLEN (13 + 36 + 36 + 8)
#define OFF_ESCROW (OFF_BODYLEN + 4 + 8)
#define OFF_INSTRLEN (OFF_ESCROW + 36 + 8 + 8)
#define OFF_MULTI (OFF_INSTRLEN + 4 + 10)
#define OFF_MSGLEN (OFF_MULTI + 1)

static uint8_t full[512];
static size_t full_n;

static void load(void)
{
    CHECK(zbc_hex_decode(full, sizeof full, &full_n, full_hex, strlen(full_hex)));
    CHECK_EQ_INT(full_n, OFF_MSGLEN + 4 + 10 + 64);
}

static void test_full_parses(void)
{
    struct zbc_tx tx;
    struct zbc_err err;
    CHECK(zbc_tx_parse(&tx, full, full_n, &err));
    CHECK(tx.has_escrow);
    CHECK_EQ_INT(tx.escrow.commission, 5000);
    CHECK_EQ_INT(tx.escrow.timeout, 1800000000);
    CHECK_EQ_INT(tx.escrow.instruction_len, 10);
    CHECK(memcmp(tx.escrow.instruction, "ship first", 10) == 0);
    CHECK_EQ_INT(tx.message_len, 10);
    CHECK(memcmp(tx.message, "invoice 42", 10) == 0);
    CHECK_EQ_INT(tx.fee, 5000000);
    CHECK_EQ_INT(tx.timestamp, 1700000004);
    CHECK_EQ_INT(tx.body_len, 8);
}

static void test_truncated_at_every_length(void)
{
    int rejected = 0;
    for (size_t n = 0; n < full_n; n++) {
        struct zbc_tx tx;
        struct zbc_err err = {{0}};
        uint8_t *copy = malloc(n ? n : 1); /* exact size: ASan sees overreads */
        memcpy(copy, full, n);
        memset(&tx, 0xa5, sizeof tx);
        if (!zbc_tx_parse(&tx, copy, n, &err)) {
            rejected++;
            /* nothing escapes a failed parse */
            CHECK(((uint8_t *)&tx)[0] == 0xa5 && tx.raw_len == (size_t)0xa5a5a5a5a5a5a5a5ull);
            CHECK(err.msg[0] != 0);
        }
        free(copy);
    }
    CHECK_EQ_INT(rejected, full_n);
    struct zbc_err err;
    struct zbc_tx tx;
    CHECK(!zbc_tx_parse(&tx, full, full_n - 1, &err));
    CHECK(strstr(err.msg, "truncated transaction: signature") != NULL);
    CHECK(!zbc_tx_parse(&tx, full, 3, &err));
    CHECK(strstr(err.msg, "transaction type") != NULL);
}

static void test_trailing_bytes(void)
{
    uint8_t buf[600];
    struct zbc_tx tx;
    struct zbc_err err;
    memcpy(buf, full, full_n);
    buf[full_n] = 0;
    CHECK(!zbc_tx_parse(&tx, buf, full_n + 1, &err));
    CHECK_EQ_STR(err.msg, "1 trailing bytes after the signature");
}

static void test_oversized_lengths(void)
{
    uint8_t buf[600];
    struct zbc_tx tx;
    struct zbc_err err;
    static const struct {
        size_t off;
        const char *what;
    } fields[] = {
        {OFF_BODYLEN, "body length"},
        {OFF_INSTRLEN, "escrow instruction length"},
        {OFF_MSGLEN, "message length"},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        memcpy(buf, full, full_n);
        zbc_put_le32(buf + fields[i].off, 0xffffffffu);
        CHECK(!zbc_tx_parse(&tx, buf, full_n, &err));
        CHECK(strstr(err.msg, fields[i].what) != NULL);
        CHECK(strstr(err.msg, "exceeds") != NULL);
    }
    /* a message length one too long eats into the signature: 63 left */
    memcpy(buf, full, full_n);
    zbc_put_le32(buf + OFF_MSGLEN, 11);
    CHECK(!zbc_tx_parse(&tx, buf, full_n, &err));
    CHECK(strstr(err.msg, "signature") != NULL);
}

static void test_too_big(void)
{
    size_t n = ZBC_TX_MAX_BYTES + 1;
    uint8_t *b = calloc(1, n);
    struct zbc_tx tx;
    struct zbc_err err;
    CHECK(!zbc_tx_parse(&tx, b, n, &err));
    CHECK(strstr(err.msg, "more than the") != NULL);
    free(b);
}

static void test_bad_account_types(void)
{
    uint8_t buf[600];
    struct zbc_tx tx;
    struct zbc_err err;
    memcpy(buf, full, full_n);
    zbc_put_le32(buf + OFF_SENDER, 99);
    CHECK(!zbc_tx_parse(&tx, buf, full_n, &err));
    CHECK(strstr(err.msg, "sender") != NULL && strstr(err.msg, "99") != NULL);
    /* recipient of an unknown type */
    memcpy(buf, full, full_n);
    zbc_put_le32(buf + OFF_SENDER + 36, 17);
    CHECK(!zbc_tx_parse(&tx, buf, full_n, &err));
    CHECK(strstr(err.msg, "recipient") != NULL);
    /* approver of an unknown type */
    memcpy(buf, full, full_n);
    zbc_put_le32(buf + OFF_ESCROW, 1000);
    CHECK(!zbc_tx_parse(&tx, buf, full_n, &err));
    CHECK(strstr(err.msg, "escrow") != NULL);
    /* type 10 (DataSet object) has a 32-byte payload but no signature
     * format: parses up to the signature, then fails */
    memcpy(buf, full, full_n);
    zbc_put_le32(buf + OFF_SENDER, 10);
    CHECK(!zbc_tx_parse(&tx, buf, full_n, &err));
    CHECK_EQ_STR(err.msg, "no signature format is known for sender account type 10");
}

static void test_multi_party_flag(void)
{
    uint8_t buf[600];
    struct zbc_tx tx;
    struct zbc_err err;
    memcpy(buf, full, full_n);
    buf[OFF_MULTI] = 2;
    CHECK(!zbc_tx_parse(&tx, buf, full_n, &err));
    CHECK_EQ_STR(err.msg, "escrow multi_party flag is 2, must be 0 or 1");
    /* flag 1 needs the co-signer signature and request id */
    memcpy(buf, full, full_n);
    buf[OFF_MULTI] = 1;
    CHECK(!zbc_tx_parse(&tx, buf, full_n, &err));
}

/* A multi-party escrow built by hand (docs/protocol-tx.md §1) parses field by field
 * and re-serializes identically. */
static void test_multi_party_round_trip(void)
{
    uint8_t buf[700], out[700];
    size_t n = 0, m;
    struct zbc_tx tx;
    struct zbc_err err;
    static const uint8_t cosig[5] = {1, 2, 3, 4, 5};
    memcpy(buf, full, OFF_MULTI);
    n = OFF_MULTI;
    buf[n++] = 1;
    zbc_put_le32(buf + n, 5);
    n += 4;
    memcpy(buf + n, cosig, 5);
    n += 5;
    for (int i = 0; i < 8; i++)
        buf[n++] = (uint8_t)(0xf0 + i); /* request id, LE, negative */
    memcpy(buf + n, full + OFF_MSGLEN, full_n - OFF_MSGLEN);
    n += full_n - OFF_MSGLEN;
    CHECK(zbc_tx_parse(&tx, buf, n, &err));
    CHECK_EQ_INT(tx.escrow.multi_party, 1);
    CHECK_EQ_INT(tx.escrow.cosigner_sig_len, 5);
    CHECK_EQ_MEM(tx.escrow.cosigner_sig, cosig, 5);
    CHECK(tx.escrow.request_id == (int64_t)0xf7f6f5f4f3f2f1f0ull);
    CHECK_EQ_INT(tx.message_len, 10);
    CHECK(zbc_tx_write(out, sizeof out, &m, &tx, &err));
    CHECK_EQ_INT(m, n);
    CHECK_EQ_MEM(out, buf, n);
}

/* Bitcoin senders take the rest of the bytes as the signature (1..98). */
static void test_bitcoin_sender_signature_lengths(void)
{
    uint8_t buf[700], out[700];
    struct zbc_tx tx, b;
    struct zbc_err err;
    size_t n, m;
    memset(&b, 0, sizeof b);
    b.type = 1;
    b.version = 1;
    b.sender.type = ZBC_ACCT_BTC_P2PKH;
    b.sender.len = 20;
    memset(b.sender.payload, 0x11, 20);
    zbc_addr_empty(&b.recipient);
    CHECK(zbc_tx_write_unsigned(buf, sizeof buf, &n, &b, &err));
    CHECK_EQ_INT(n, 4 + 1 + 8 + 24 + 4 + 8 + 4 + 4 + 4);
    memset(buf + n, 0x22, 99);
    CHECK(!zbc_tx_parse(&tx, buf, n, &err));
    CHECK_EQ_STR(err.msg, "truncated transaction: the signature is missing");
    CHECK(zbc_tx_parse(&tx, buf, n + 65, &err));
    CHECK_EQ_INT(tx.sig_len, 65);
    CHECK(zbc_tx_write(out, sizeof out, &m, &tx, &err));
    CHECK_EQ_INT(m, n + 65);
    CHECK_EQ_MEM(out, buf, m);
    CHECK(zbc_tx_parse(&tx, buf, n + 98, &err));
    CHECK(!zbc_tx_parse(&tx, buf, n + 99, &err));
    CHECK(strstr(err.msg, "longer than") != NULL);
    /* Ethereum: exactly 65 */
    b.sender.type = ZBC_ACCT_ETH;
    CHECK(zbc_tx_write_unsigned(buf, sizeof buf, &n, &b, &err));
    CHECK(zbc_tx_parse(&tx, buf, n + 65, &err));
    CHECK(!zbc_tx_parse(&tx, buf, n + 64, &err));
    CHECK(!zbc_tx_parse(&tx, buf, n + 66, &err));
    CHECK(strstr(err.msg, "trailing") != NULL);
}

/* The parser keeps what validity refuses: long messages, any type code,
 * any version byte (so every ZooBC transaction hashes right). */
static void test_parser_is_permissive_where_validity_decides(void)
{
    static uint8_t msg[5000], buf[6000];
    struct zbc_tx tx, b;
    struct zbc_err err;
    size_t n;
    memset(&b, 0, sizeof b);
    b.type = 770;
    b.version = 7;
    zbc_addr_from_ed25519(&b.sender, (const uint8_t[32]){1});
    zbc_addr_empty(&b.recipient);
    b.message = msg;
    b.message_len = sizeof msg;
    CHECK(zbc_tx_write_unsigned(buf, sizeof buf, &n, &b, &err));
    memset(buf + n, 0, 64);
    CHECK(zbc_tx_parse(&tx, buf, n + 64, &err));
    CHECK_EQ_INT(tx.message_len, 5000);
    CHECK_EQ_INT(tx.type, 770);
    CHECK_EQ_INT(tx.version, 7);
}

static void test_builder_errors(void)
{
    uint8_t buf[300];
    struct zbc_tx b;
    struct zbc_err err;
    size_t n;
    memset(&b, 0, sizeof b);
    b.type = 1;
    b.version = 1;
    zbc_addr_from_ed25519(&b.sender, (const uint8_t[32]){1});
    zbc_addr_empty(&b.recipient);
    CHECK(zbc_tx_write_unsigned(buf, sizeof buf, &n, &b, &err));
    CHECK(!zbc_tx_write_unsigned(buf, n - 1, &n, &b, &err));
    CHECK(strstr(err.msg, "too small") != NULL);
    b.sender.len = 20; /* type 0 with a 20-byte payload */
    CHECK(!zbc_tx_write_unsigned(buf, sizeof buf, &n, &b, &err));
    CHECK(strstr(err.msg, "sender") != NULL);
    zbc_addr_from_ed25519(&b.sender, (const uint8_t[32]){1});
    b.has_escrow = true;
    zbc_addr_empty(&b.escrow.approver);
    CHECK(!zbc_tx_write_unsigned(buf, sizeof buf, &n, &b, &err));
    CHECK_EQ_STR(err.msg, "escrow approver must not be the empty address");
    b.escrow.approver = b.sender;
    b.escrow.multi_party = 3;
    CHECK(!zbc_tx_write_unsigned(buf, sizeof buf, &n, &b, &err));
    b.has_escrow = false;
    b.sig_len = ZBC_SIG_MAX + 1;
    CHECK(!zbc_tx_write(buf, sizeof buf, &n, &b, &err));
    b.sig_len = 64;
    b.sig = buf;
    CHECK(!zbc_tx_write(buf + 100, 70, &n, &b, &err));
    b.message_len = ZBC_TX_MAX_BYTES;
    CHECK(!zbc_tx_unsigned_size(&b, &n, &err));
    CHECK(strstr(err.msg, "more than the") != NULL);
}

int main(void)
{
    load();
    TEST_RUN(test_full_parses);
    TEST_RUN(test_truncated_at_every_length);
    TEST_RUN(test_trailing_bytes);
    TEST_RUN(test_oversized_lengths);
    TEST_RUN(test_too_big);
    TEST_RUN(test_bad_account_types);
    TEST_RUN(test_multi_party_flag);
    TEST_RUN(test_multi_party_round_trip);
    TEST_RUN(test_bitcoin_sender_signature_lengths);
    TEST_RUN(test_parser_is_permissive_where_validity_decides);
    TEST_RUN(test_builder_errors);
    return test_summary("consensus_tx_bad");
}
