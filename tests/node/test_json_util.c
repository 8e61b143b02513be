/* JSON views and the submit-body decoder. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "chain_fixture.h"
#include "consensus/tx_payload.h"
#include "crypto/hash.h"
#include "node/zbcd/json_util.h"
#include "testlib.h"

static struct fixture fx;

static void check_str(json_t *j, const char *want)
{
    CHECK(json_is_string(j));
    CHECK_EQ_STR(json_string_value(j), want);
    json_decref(j);
}

static void test_scalars(void)
{
    json_t *j = zbc_json_u64(5);
    CHECK(json_is_integer(j));
    CHECK_EQ_INT(json_integer_value(j), 5);
    json_decref(j);
    j = zbc_json_u64((uint64_t)INT64_MAX);
    CHECK(json_is_integer(j));
    json_decref(j);
    check_str(zbc_json_u64((uint64_t)INT64_MAX + 1), "9223372036854775808");
    check_str(zbc_json_u64(UINT64_MAX), "18446744073709551615");
    const uint8_t b[] = {0xab, 0x01, 0xff};
    check_str(zbc_json_hex(b, 3), "ab01ff");
    check_str(zbc_json_hex_upper(b, 3), "AB01FF");
    check_str(zbc_json_hex(b, 0), "");

    struct zbc_addr empty;
    zbc_addr_empty(&empty);
    j = zbc_json_addr_text(&empty);
    CHECK(json_is_null(j));
    json_decref(j);
    char text[ZBC_ADDR_TEXT_MAX];
    zbc_addr_to_text(text, &fx.alice);
    CHECK(strncmp(text, "ZBC_", 4) == 0);
    check_str(zbc_json_addr_text(&fx.alice), text);

    struct zbc_err err = {{0}};
    json_t *o = json_object();
    CHECK(!zbc_json_set(o, "k", NULL, &err));
    CHECK_EQ_STR(err.msg, "cannot build the JSON field k (out of memory)");
    json_decref(o);
}

static void expect_body_error(const char *body, const char *want)
{
    uint8_t *raw = NULL;
    size_t len = 0;
    struct zbc_err err = {{0}};
    CHECK(!zbc_json_submit_body(&raw, &len, body, strlen(body), &err));
    CHECK(raw == NULL);
    CHECK(strstr(err.msg, want) != NULL);
    if (strstr(err.msg, want) == NULL)
        fprintf(stderr, "  body %s: got '%s', want '%s'\n", body, err.msg,
                want);
}

static void test_submit_body_errors(void)
{
    expect_body_error("", "request body is empty");
    expect_body_error("{", "malformed JSON at line 1");
    expect_body_error("{} {}", "malformed JSON");
    expect_body_error("\"x\"", "malformed JSON"); /* jansson: not an array/object */
    expect_body_error("[]", "must be a JSON object");
    expect_body_error("{\"a\":1,\"a\":2}", "malformed JSON");
    expect_body_error("{\"transaction_bytes\":1}", "must be a hex string");
    expect_body_error("{\"transaction_bytes\":\"\"}", "is empty");
    expect_body_error("{\"transaction_bytes\":\"abc\"}", "not valid hex");
    expect_body_error("{\"transaction_bytes\":\"zz\"}", "not valid hex");
    expect_body_error("{\"transaction_bytes\":\"0100\"}",
                      "transaction_bytes: ");
    expect_body_error("{\"transaction_bytes\":\"00\",\"fee\":1}",
                      "no other field");
    expect_body_error("{}", "");
    expect_body_error("{\"version\":\"one\"}", "");

    size_t big = ZBC_API_MAX_BODY + 1;
    char *huge = malloc(big);
    memset(huge, ' ', big);
    uint8_t *raw = NULL;
    size_t len = 0;
    struct zbc_err err = {{0}};
    CHECK(!zbc_json_submit_body(&raw, &len, huge, big, &err));
    CHECK(strstr(err.msg, "exceeds the 4194304 byte limit") != NULL);
    free(huge);
}

static void test_submit_body_forms(void)
{
    uint8_t tx[512];
    size_t n = fx_send(tx, sizeof tx, &fx, fx.alice_seed, &fx.bob, 77, 5000,
                       1700000000);
    struct zbc_err err = {{0}};

    /* transaction_bytes form (upper-case hex accepted) */
    char hex[1100], body[1200];
    zbc_hex_encode(hex, tx, n);
    for (char *p = hex; *p; p++)
        if (*p >= 'a' && *p <= 'f')
            *p = (char)(*p - 'a' + 'A');
    snprintf(body, sizeof body, "{\"transaction_bytes\":\"%s\"}", hex);
    uint8_t *raw = NULL;
    size_t len = 0;
    CHECK(zbc_json_submit_body(&raw, &len, body, strlen(body), &err));
    CHECK_EQ_INT(len, n);
    CHECK(raw != NULL && memcmp(raw, tx, n) == 0);
    free(raw);

    /* payload form, written by hand from the envelope fields (docs/api.md §3) */
    char sender[65], recipient[65], sig[129];
    zbc_hex_encode(sender, fx.alice.payload, 32);
    zbc_hex_encode(recipient, fx.bob.payload, 32);
    zbc_hex_encode(sig, tx + n - 64, 64);
    snprintf(body, sizeof body,
             "{\"version\":1,\"timestamp\":1700000000,\"transaction_type\":1,"
             "\"sender_account_address\":\"%s\","
             "\"recipient_account_address\":\"%s\",\"fee\":5000,"
             "\"transaction_body_bytes\":\"4d00000000000000\","
             "\"signature\":\"%s\"}",
             sender, recipient, sig);
    raw = NULL;
    CHECK(zbc_json_submit_body(&raw, &len, body, strlen(body), &err));
    CHECK_EQ_INT(len, n);
    CHECK(raw != NULL && memcmp(raw, tx, n) == 0);
    free(raw);
}

static void test_tx_view(void)
{
    uint8_t tx[512];
    size_t n = fx_send(tx, sizeof tx, &fx, fx.alice_seed, &fx.bob, 77, 5000,
                       1700000000);
    uint8_t h[32];
    char hh[65], bytes[1100], alice[ZBC_ADDR_TEXT_MAX], bob[ZBC_ADDR_TEXT_MAX];
    zbc_sha3_256(h, tx, n);
    zbc_hex_encode(hh, h, 32);
    zbc_hex_encode(bytes, tx, n);
    zbc_addr_to_text(alice, &fx.alice);
    zbc_addr_to_text(bob, &fx.bob);
    /* transaction id = first 8 hash bytes as LE u64 */
    uint64_t id = 0;
    for (int i = 7; i >= 0; i--)
        id = id << 8 | h[i];
    char ids[24];
    snprintf(ids, sizeof ids, "%llu", (unsigned long long)id);

    json_t *o = NULL;
    struct zbc_err err = {{0}};
    CHECK(zbc_json_tx(&o, tx, n, &err));
    if (o == NULL)
        return;
    CHECK_EQ_STR(json_string_value(json_object_get(o, "transaction_hash")),
                 hh);
    CHECK_EQ_STR(json_string_value(json_object_get(o, "transaction_id")), ids);
    CHECK_EQ_STR(json_string_value(json_object_get(o, "transaction_bytes")),
                 bytes);
    CHECK_EQ_STR(json_string_value(json_object_get(o, "transaction_type_name")),
                 "SendZBC");
    CHECK_EQ_STR(json_string_value(json_object_get(o, "sender")), alice);
    CHECK_EQ_STR(json_string_value(json_object_get(o, "recipient")), bob);
    CHECK_EQ_INT(json_integer_value(json_object_get(o, "amount")), 77);
    CHECK_EQ_INT(json_integer_value(json_object_get(o, "fee")), 5000);
    CHECK_EQ_INT(json_integer_value(json_object_get(o, "timestamp")),
                 1700000000);
    CHECK_EQ_STR(json_string_value(json_object_get(o, "message_hex")), "");
    CHECK(json_is_null(json_object_get(o, "escrow")));
    json_decref(o);

    /* a JoinApp: no recipient, app_id decoded */
    uint8_t body[8] = {0x39, 0x30, 0, 0, 0, 0, 0, 0}; /* 12345 */
    struct zbc_tx t;
    memset(&t, 0, sizeof t);
    t.type = ZBC_TX_APP_JOIN;
    t.version = 1;
    t.timestamp = 1700000000;
    zbc_addr_empty(&t.recipient);
    t.fee = 5000;
    t.body = body;
    t.body_len = 8;
    size_t tn = 0;
    CHECK(zbc_tx_sign_ed25519(tx, sizeof tx, &tn, &t, fx.alice_seed,
                              fx.g.hash, &err));
    CHECK(zbc_json_tx(&o, tx, tn, &err));
    if (o != NULL) {
        CHECK_EQ_STR(json_string_value(json_object_get(o,
                                                       "transaction_type_name")),
                     "JoinApp");
        CHECK_EQ_INT(json_integer_value(json_object_get(o, "app_id")), 12345);
        CHECK(json_is_null(json_object_get(o, "recipient")));
        json_decref(o);
    }

    o = NULL;
    CHECK(!zbc_json_tx(&o, tx, 20, &err));
    CHECK(o == NULL);
}

static void test_event_view(void)
{
    struct zbc_event e;
    memset(&e, 0, sizeof e);
    e.kind = ZBC_EVENT_TRANSFER;
    e.tx_index = ZBC_EVENT_NO_TX;
    e.a = fx.alice;
    zbc_addr_empty(&e.b);
    e.amount = UINT64_MAX;
    strcpy(e.reason, "why");
    json_t *o = NULL;
    struct zbc_err err = {{0}};
    CHECK(zbc_json_event(&o, &e, &err));
    if (o == NULL)
        return;
    CHECK(json_is_null(json_object_get(o, "tx_index")));
    CHECK(json_is_null(json_object_get(o, "tx_hash")));
    CHECK(json_is_null(json_object_get(o, "to")));
    CHECK_EQ_STR(json_string_value(json_object_get(o, "amount")),
                 "18446744073709551615");
    CHECK_EQ_STR(json_string_value(json_object_get(o, "reason")), "why");
    CHECK_EQ_STR(json_string_value(json_object_get(o, "kind")),
                 zbc_event_kind_name(ZBC_EVENT_TRANSFER));
    json_decref(o);
    e.tx_index = 3;
    memset(e.tx_hash, 0xcd, 32);
    CHECK(zbc_json_event(&o, &e, &err));
    CHECK_EQ_INT(json_integer_value(json_object_get(o, "tx_index")), 3);
    CHECK(strncmp(json_string_value(json_object_get(o, "tx_hash")), "cdcd", 4)
          == 0);
    json_decref(o);
}

int main(void)
{
    fx_setup(&fx);
    TEST_RUN(test_scalars);
    TEST_RUN(test_submit_body_errors);
    TEST_RUN(test_submit_body_forms);
    TEST_RUN(test_tx_view);
    TEST_RUN(test_event_view);
    fx_teardown(&fx);
    return test_summary("node_json_util");
}
