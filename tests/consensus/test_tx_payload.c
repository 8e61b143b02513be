/* Submit payload: foreign sender round trip and bad payloads (the vector
 * round trips are in test_tx.c). */
#include <jansson.h>
#include <sodium.h>
#include <stdlib.h>

#include "consensus/tx.h"
#include "consensus/tx_payload.h"
#include "crypto/hex.h"
#include "testlib.h"

/* send-zbc/plain payload from transactions.json */
static const char *plain =
    "{\"fee\": 5000000,"
    " \"recipient_account_address\": \"5e8eb28dccaa94a992f7169fa67966207d96aa55df7d24d2d6ec1f538c9f2152\","
    " \"sender_account_address\": \"5e8eb28dccaa94a992f7169fa67966207d96aa55df7d24d2d6ec1f538c9f2152\","
    " \"signature\": \"2ba02b283e8c8492cebd0cc59f264a470223bb807b97245f37ccaa8aea9acce09737344044fb7269df3e6c68463a7508af74504e02fe851b73df9d22fb12d704\","
    " \"timestamp\": 1700000000, \"transaction_body_bytes\": \"00e1f50500000000\","
    " \"transaction_type\": 1, \"version\": 1}";

static json_t *load_plain(void)
{
    json_error_t je;
    json_t *j = json_loads(plain, 0, &je);
    CHECK(j != NULL);
    return j;
}

static void expect_fail(json_t *p, const char *needle)
{
    uint8_t *bytes = NULL;
    size_t n = 0;
    struct zbc_err err = {{0}};
    CHECK(!zbc_tx_payload_parse(&bytes, &n, p, &err));
    CHECK(bytes == NULL);
    if (strstr(err.msg, needle) == NULL)
        fprintf(stderr, "want \"%s\" in \"%s\"\n", needle, err.msg);
    CHECK(strstr(err.msg, needle) != NULL);
}

static void test_plain_parses(void)
{
    json_t *p = load_plain();
    uint8_t *bytes = NULL;
    size_t n = 0;
    struct zbc_err err;
    CHECK(zbc_tx_payload_parse(&bytes, &n, p, &err));
    CHECK_EQ_INT(n, 177);
    free(bytes);
    json_decref(p);
}

static void test_missing_and_mistyped_fields(void)
{
    static const char *keys[] = {"version", "timestamp", "transaction_type", "fee",
                                 "sender_account_address", "recipient_account_address",
                                 "transaction_body_bytes", "signature"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        json_t *p = load_plain();
        char want[80];
        json_object_del(p, keys[i]);
        snprintf(want, sizeof want, "payload has no \"%s\"", keys[i]);
        expect_fail(p, want);
        /* wrong JSON type: integers get strings and strings integers */
        int is_int = i < 4;
        json_object_set_new(p, keys[i], is_int ? json_string("1") : json_integer(1));
        snprintf(want, sizeof want, "payload \"%s\" must be %s", keys[i],
                 is_int ? "an integer" : "a string");
        expect_fail(p, want);
        json_decref(p);
    }
    json_t *arr = json_array();
    expect_fail(arr, "must be a JSON object");
    json_decref(arr);
}

static void test_bad_values(void)
{
    json_t *p = load_plain();
    json_object_set_new(p, "version", json_integer(256));
    expect_fail(p, "out of range");
    json_decref(p);

    p = load_plain();
    json_object_set_new(p, "transaction_type", json_integer(-1));
    expect_fail(p, "out of range");
    json_decref(p);

    p = load_plain();
    json_object_set_new(p, "transaction_body_bytes", json_string("00e1f5050000000"));
    expect_fail(p, "not valid hex");
    json_decref(p);

    p = load_plain();
    json_object_set_new(p, "sender_account_address", json_string(""));
    expect_fail(p, "\"sender_account_address\" is empty");
    json_decref(p);

    p = load_plain();
    json_object_set_new(p, "recipient_account_address", json_string("zz"));
    expect_fail(p, "not a hex account address");
    json_decref(p);

    /* typed bytes with an extra byte */
    p = load_plain();
    json_object_set_new(p, "recipient_account_address",
                        json_string("04000000d8da6bf26964af9d7eed9e03e53415d37aa9604500"));
    expect_fail(p, "after the account address");
    json_decref(p);

    /* unknown account type */
    p = load_plain();
    json_object_set_new(p, "recipient_account_address",
                        json_string("63000000d8da6bf26964af9d7eed9e03e53415d37aa96045"));
    expect_fail(p, "unknown account type 99");
    json_decref(p);

    /* a 63-byte signature does not make a well-formed ZooBC transaction */
    p = load_plain();
    json_object_set_new(p, "signature", json_string(
        "2ba02b283e8c8492cebd0cc59f264a470223bb807b97245f37ccaa8aea9acce09737344044fb7269df3e6c68463a7508af74504e02fe851b73df9d22fb12d7"));
    expect_fail(p, "payload does not make a well-formed transaction");
    json_decref(p);

    p = load_plain();
    json_object_set_new(p, "message_hex", json_integer(3));
    expect_fail(p, "\"message_hex\" must be a string");
    json_decref(p);

    p = load_plain();
    json_object_set_new(p, "escrow", json_string("x"));
    expect_fail(p, "\"escrow\" must be an object");
    json_decref(p);

    p = load_plain();
    json_object_set_new(p, "escrow", json_pack("{s:s,s:i}", "approver_address",
        "000000005e8eb28dccaa94a992f7169fa67966207d96aa55df7d24d2d6ec1f538c9f2152",
        "commission", 1));
    expect_fail(p, "payload has no \"timeout\"");
    json_decref(p);

    p = json_pack("{s:s}", "transaction_bytes", "0102");
    expect_fail(p, "payload does not make a well-formed transaction");
    json_decref(p);
    p = json_pack("{s:i}", "transaction_bytes", 1);
    expect_fail(p, "must be a string");
    json_decref(p);
    p = json_pack("{s:s}", "transaction_bytes", "0g");
    expect_fail(p, "not valid hex");
    json_decref(p);
}

/* An Ethereum sender: the payload carries the full typed bytes, and the
 * node rebuilds identical bytes from it. */
static void test_foreign_sender_round_trip(void)
{
    struct zbc_tx b, t;
    uint8_t buf[512], sig[65];
    size_t n;
    struct zbc_err err;
    json_t *p = NULL;
    uint8_t *back = NULL;
    size_t back_n;
    memset(&b, 0, sizeof b);
    b.type = 1;
    b.version = 1;
    b.timestamp = 1700000000;
    b.fee = 10;
    b.sender.type = 4;
    b.sender.len = 20;
    memset(b.sender.payload, 0xab, 20);
    zbc_addr_from_ed25519(&b.recipient, (const uint8_t[32]){9});
    b.body = (const uint8_t *)"\1\0\0\0\0\0\0\0";
    b.body_len = 8;
    b.message = (const uint8_t *)"hi";
    b.message_len = 2;
    memset(sig, 0x5c, sizeof sig);
    b.sig = sig;
    b.sig_len = 65;
    CHECK(zbc_tx_write(buf, sizeof buf, &n, &b, &err));
    CHECK(zbc_tx_parse(&t, buf, n, &err));
    CHECK(zbc_tx_payload_build(&p, &t, &err));
    CHECK_EQ_STR(json_string_value(json_object_get(p, "sender_account_address")),
                 "04000000abababababababababababababababababababab");
    CHECK_EQ_STR(json_string_value(json_object_get(p, "message_hex")), "6869");
    CHECK(json_object_get(p, "escrow") == NULL);
    CHECK(zbc_tx_payload_parse(&back, &back_n, p, &err));
    CHECK_EQ_INT(back_n, n);
    if (back)
        CHECK_EQ_MEM(back, buf, n);
    free(back);
    json_decref(p);
}

static void test_build_refusals(void)
{
    struct zbc_tx b;
    struct zbc_err err;
    json_t *p = NULL;
    uint8_t sig[64] = {0};
    memset(&b, 0, sizeof b);
    b.type = 1;
    b.version = 1;
    zbc_addr_from_ed25519(&b.sender, (const uint8_t[32]){1});
    zbc_addr_empty(&b.recipient);
    b.sig = sig;
    b.sig_len = 64;
    b.has_escrow = true;
    b.escrow.approver = b.sender;
    b.escrow.multi_party = 1;
    CHECK(!zbc_tx_payload_build(&p, &b, &err));
    CHECK_EQ_STR(err.msg, "a multi-party escrow has no submit payload form");
    b.escrow.multi_party = 0;
    b.escrow.instruction = (const uint8_t *)"\xff\xfe";
    b.escrow.instruction_len = 2;
    CHECK(!zbc_tx_payload_build(&p, &b, &err));
    CHECK_EQ_STR(err.msg, "escrow instruction is not valid UTF-8");
    b.escrow.instruction = (const uint8_t *)"ok";
    /* Cardano (type 13): 4 + 28 = 32 typed bytes would read back as a
     * bare ZooBC key */
    b.recipient.type = 13;
    b.recipient.len = 28;
    CHECK(!zbc_tx_payload_build(&p, &b, &err));
    CHECK(strstr(err.msg, "recipient of account type 13 has no payload form") != NULL);
    zbc_addr_empty(&b.recipient);
    b.escrow.approver = b.recipient;
    b.escrow.approver.type = 13;
    b.escrow.approver.len = 28;
    CHECK(!zbc_tx_payload_build(&p, &b, &err));
    CHECK(strstr(err.msg, "escrow approver of account type 13") != NULL);
    b.escrow.approver = b.sender;
    CHECK(zbc_tx_payload_build(&p, &b, &err));
    CHECK_EQ_STR(json_string_value(json_object_get(p, "recipient_account_address")), "");
    CHECK_EQ_STR(json_string_value(json_object_get(json_object_get(p, "escrow"), "instruction")), "ok");
    json_decref(p);
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    TEST_RUN(test_plain_parses);
    TEST_RUN(test_missing_and_mistyped_fields);
    TEST_RUN(test_bad_values);
    TEST_RUN(test_foreign_sender_round_trip);
    TEST_RUN(test_build_refusals);
    return test_summary("consensus_tx_payload");
}
