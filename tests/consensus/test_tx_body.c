/* Bodies of the six types: parse and write against byte strings laid out
 * by hand from docs/protocol-tx.md §3, exact-length rules, bad input. */
#include "consensus/tx_body.h"
#include "crypto/hex.h"
#include "testlib.h"

static size_t unhex(uint8_t *out, size_t cap, const char *hex)
{
    size_t n = 0;
    CHECK(zbc_hex_decode(out, cap, &n, hex, strlen(hex)));
    return n;
}

static void round_trip(const uint8_t *b, size_t n, uint32_t type)
{
    struct zbc_tx_body body;
    struct zbc_err err;
    uint8_t out[256];
    size_t m;
    CHECK(zbc_tx_body_parse(&body, type, b, n, &err));
    CHECK_EQ_INT(zbc_tx_body_size(&body), n);
    CHECK(zbc_tx_body_write(out, sizeof out, &m, &body, &err));
    CHECK_EQ_INT(m, n);
    CHECK_EQ_MEM(out, b, n);
}

static void test_send(void)
{
    uint8_t b[16];
    struct zbc_tx_body body;
    struct zbc_err err;
    size_t n = unhex(b, sizeof b, "0807060504030201");
    CHECK(zbc_tx_body_parse(&body, 1, b, n, &err));
    CHECK(body.u.send.amount == 0x0102030405060708ull);
    round_trip(b, n, 1);
    CHECK(!zbc_tx_body_parse(&body, 1, b, 7, &err));
    CHECK_EQ_STR(err.msg, "SendZBC body must be 8 bytes, got 7");
    CHECK(!zbc_tx_body_parse(&body, 1, b, 9, &err));
}

static void test_app_refs(void)
{
    uint8_t b[16];
    struct zbc_tx_body body;
    struct zbc_err err;
    size_t n = unhex(b, sizeof b, "ffffffffffffffff");
    static const struct { uint32_t type; const char *name; } t[] = {
        {25, "JoinApp"}, {27, "ResignApp"}, {28, "ClaimAppTimeout"}};
    for (int i = 0; i < 3; i++) {
        CHECK(zbc_tx_body_parse(&body, t[i].type, b, n, &err));
        CHECK(body.u.ref.app_id == UINT64_MAX);
        CHECK_EQ_INT(body.type, t[i].type);
        round_trip(b, n, t[i].type);
        CHECK(!zbc_tx_body_parse(&body, t[i].type, b, 0, &err));
        char want[64];
        snprintf(want, sizeof want, "%s body must be 8 bytes, got 0", t[i].name);
        CHECK_EQ_STR(err.msg, want);
    }
}

static void test_create(void)
{
    uint8_t b[128];
    struct zbc_tx_body body;
    struct zbc_err err;
    /* app_type 2 | stake_token 0 | stake 1000 | seats 2 | params_len 3 |
     * params 0a0b0c | opponent type 0 + 32 bytes of 0x33 */
    size_t n = unhex(b, sizeof b,
        "02" "0000000000000000" "e803000000000000" "02" "0300" "0a0b0c"
        "00000000" "3333333333333333333333333333333333333333333333333333333333333333");
    CHECK_EQ_INT(n, 20 + 3 + 36);
    CHECK(zbc_tx_body_parse(&body, 24, b, n, &err));
    CHECK_EQ_INT(body.u.create.app_type, 2);
    CHECK(body.u.create.stake_token == 0);
    CHECK(body.u.create.stake == 1000);
    CHECK_EQ_INT(body.u.create.seats, 2);
    CHECK_EQ_INT(body.u.create.params_len, 3);
    CHECK(body.u.create.params == b + 20);
    CHECK(body.u.create.has_opponent);
    CHECK_EQ_INT(body.u.create.opponent.type, 0);
    CHECK_EQ_INT(body.u.create.opponent.payload[31], 0x33);
    round_trip(b, n, 24);
    /* without the opponent */
    CHECK(zbc_tx_body_parse(&body, 24, b, 23, &err));
    CHECK(!body.u.create.has_opponent);
    round_trip(b, 23, 24);
    /* vector app-create/example */
    size_t v = unhex(b, sizeof b, "01000000000000000000e1f50500000000020000");
    CHECK(zbc_tx_body_parse(&body, 24, b, v, &err));
    CHECK(body.u.create.stake == 100000000);
    CHECK_EQ_INT(body.u.create.seats, 2);
    CHECK_EQ_INT(body.u.create.params_len, 0);
}

static void test_create_bad(void)
{
    uint8_t b[128];
    struct zbc_tx_body body;
    struct zbc_err err;
    size_t n = unhex(b, sizeof b,
        "02" "0000000000000000" "e803000000000000" "02" "0300" "0a0b0c"
        "00000000" "3333333333333333333333333333333333333333333333333333333333333333");
    CHECK(!zbc_tx_body_parse(&body, 24, b, 19, &err));
    CHECK_EQ_STR(err.msg, "CreateApp body must be at least 20 bytes, got 19");
    CHECK(!zbc_tx_body_parse(&body, 24, b, 22, &err));
    CHECK_EQ_STR(err.msg, "CreateApp params length 3 exceeds the 2 bytes left");
    CHECK(!zbc_tx_body_parse(&body, 24, b, 24, &err));
    CHECK(strstr(err.msg, "only a 36-byte opponent") != NULL);
    CHECK(!zbc_tx_body_parse(&body, 24, b, n - 1, &err));
    b[23] = 4; /* opponent of type 4 with 32 bytes: a wrong-type 36 bytes */
    CHECK(!zbc_tx_body_parse(&body, 24, b, n, &err));
    b[23] = 3; /* type 3 is 36 bytes too, but not a ZooBC account */
    CHECK(!zbc_tx_body_parse(&body, 24, b, n, &err));
    CHECK_EQ_STR(err.msg, "CreateApp opponent must be a ZooBC (type 0) account, got type 3");
    /* writing an opponent of another type is refused */
    b[23] = 0;
    CHECK(zbc_tx_body_parse(&body, 24, b, n, &err));
    body.u.create.opponent.type = 4;
    body.u.create.opponent.len = 20;
    uint8_t out[128];
    size_t m;
    CHECK(!zbc_tx_body_write(out, sizeof out, &m, &body, &err));
    CHECK(strstr(err.msg, "opponent") != NULL);
}

static void test_move(void)
{
    uint8_t b[64];
    struct zbc_tx_body body;
    struct zbc_err err;
    size_t n = unhex(b, sizeof b, "0500000000000000" "0200" "0c1c");
    CHECK(zbc_tx_body_parse(&body, 26, b, n, &err));
    CHECK(body.u.move.app_id == 5);
    CHECK_EQ_INT(body.u.move.move_len, 2);
    CHECK(body.u.move.move == b + 10);
    round_trip(b, n, 26);
    /* keep-alive: an empty move */
    n = unhex(b, sizeof b, "0500000000000000" "0000");
    CHECK(zbc_tx_body_parse(&body, 26, b, n, &err));
    CHECK_EQ_INT(body.u.move.move_len, 0);
    round_trip(b, n, 26);
    CHECK(!zbc_tx_body_parse(&body, 26, b, 9, &err));
    CHECK_EQ_STR(err.msg, "AppMove body must be at least 10 bytes, got 9");
    n = unhex(b, sizeof b, "0500000000000000" "0300" "0c1c");
    CHECK(!zbc_tx_body_parse(&body, 26, b, n, &err));
    CHECK_EQ_STR(err.msg, "AppMove move length 3 does not match the 2 bytes that follow");
    n = unhex(b, sizeof b, "0500000000000000" "0100" "0c1c");
    CHECK(!zbc_tx_body_parse(&body, 26, b, n, &err));
}

static void test_unknown_type_and_small_buffer(void)
{
    uint8_t b[8] = {0}, out[4];
    struct zbc_tx_body body;
    struct zbc_err err;
    size_t m;
    CHECK(!zbc_tx_body_parse(&body, 2, b, 8, &err));
    CHECK_EQ_STR(err.msg, "unknown transaction type 2");
    CHECK(!zbc_tx_body_parse(&body, 29, b, 8, &err));
    CHECK(zbc_tx_body_parse(&body, 25, b, 8, &err));
    CHECK(!zbc_tx_body_write(out, sizeof out, &m, &body, &err));
    CHECK(strstr(err.msg, "too small") != NULL);
    CHECK(zbc_tx_type_known(1) && zbc_tx_type_known(24) && zbc_tx_type_known(28));
    CHECK(!zbc_tx_type_known(0) && !zbc_tx_type_known(23) && !zbc_tx_type_known(29));
}

int main(void)
{
    TEST_RUN(test_send);
    TEST_RUN(test_app_refs);
    TEST_RUN(test_create);
    TEST_RUN(test_create_bad);
    TEST_RUN(test_move);
    TEST_RUN(test_unknown_type_and_small_buffer);
    return test_summary("consensus_tx_body");
}
