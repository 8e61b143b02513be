/* Shape checks of node replies (docs/wallet.md "Node replies"): a node
 * that answers {} or a field of the wrong type gets an error naming the
 * field, never a success. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "node/client/reply.h"
#include "node/wallet/app_client.h"
#include "node/wallet/client.h"
#include "testlib.h"

static const char H[] = "8a2c0fe3b33b5f3c1dbd2b5c5a3e3c9f2a7d5e6b4c3d2e1f0a9b8c7d6e5f4a3b";

static json_t *js(const char *text)
{
    json_error_t e;
    json_t *j = json_loads(text, JSON_DECODE_ANY, &e);
    CHECK(j != NULL);
    return j;
}

/* The check fails and its message contains want. */
#define BAD_TX(text, want)                                                    \
    do {                                                                      \
        json_t *j_ = js(text);                                                \
        bool c_ = true;                                                       \
        uint32_t h_ = 7;                                                      \
        struct zbc_err e_ = {{0}};                                            \
        CHECK(!zbc_client_check_tx(j_, H, &c_, &h_, &e_));                    \
        CHECK(strstr(e_.msg, want) != NULL);                                  \
        json_decref(j_);                                                      \
    } while (0)

static void test_tx_status(void)
{
    char ok[400];
    bool c = false;
    uint32_t h = 0;
    struct zbc_err err;
    snprintf(ok, sizeof ok, "{\"transaction_hash\":\"%s\",\"status\":\"mempool\"}", H);
    json_t *j = js(ok);
    CHECK(zbc_client_check_tx(j, H, &c, &h, &err));
    CHECK(!c);
    CHECK_EQ_INT(h, 0);
    json_decref(j);
    snprintf(ok, sizeof ok, "{\"transaction_hash\":\"%s\",\"status\":\"confirmed\","
             "\"block_height\":12,\"applied\":true}", H);
    j = js(ok);
    CHECK(zbc_client_check_tx(j, H, &c, &h, &err));
    CHECK(c);
    CHECK_EQ_INT(h, 12);
    json_decref(j);
    /* dropped from the pool: not confirmed, the reason and height read */
    snprintf(ok, sizeof ok, "{\"transaction_hash\":\"%s\",\"status\":\"dropped\","
             "\"reason\":\"insufficient balance: 100000000 held, 205000000 needed\","
             "\"dropped_at\":41}", H);
    j = js(ok);
    CHECK(zbc_client_check_tx(j, H, &c, &h, &err));
    CHECK(!c);
    const char *why;
    uint32_t at;
    CHECK(zbc_client_tx_dropped(j, &why, &at));
    CHECK_EQ_INT(at, 41);
    CHECK(strstr(why, "205000000 needed") != NULL);
    struct zbc_wfail f = {0};
    CHECK(!zbc_client_fail_dropped(&f, j, H)); /* takes j */
    CHECK_EQ_INT(f.code, ZBC_EXIT_INSUFFICIENT_BALANCE);
    CHECK(strstr(f.err.msg, "dropped: insufficient balance: 1 ZBC held, 2.05 ZBC needed") != NULL);
    CHECK(strstr(f.err.msg, "at block 41") != NULL);
    zbc_wfail_clear(&f);

    BAD_TX("{}", "has no \"transaction_hash\"");
    BAD_TX("[]", "has no \"transaction_hash\"");
    BAD_TX("{\"transaction_hash\":\"00\",\"status\":\"mempool\"}", "not 8a2c");
    BAD_TX("{\"transaction_hash\":7,\"status\":\"mempool\"}", "must be a string");
    /* the fields after a matching transaction_hash, and the error */
    static const char *const bad[][2] = {
        {"", "has no \"status\""},
        {",\"status\":1", "\"status\" must be a string, not an integer"},
        {",\"status\":\"done\"", "is not mempool, confirmed or dropped"},
        {",\"status\":\"dropped\"", "has no \"reason\""},
        {",\"status\":\"dropped\",\"reason\":5", "\"reason\" must be a string"},
        {",\"status\":\"dropped\",\"reason\":\"expired\",\"dropped_at\":-2", "is negative"},
        {",\"status\":\"confirmed\"", "has no \"block_height\""},
        {",\"status\":\"confirmed\",\"block_height\":\"x\"", "not a decimal number"},
        {",\"status\":\"confirmed\",\"block_height\":-1", "is negative"},
        {",\"status\":\"confirmed\",\"block_height\":4294967296", "is not in 1..4294967295"},
        {",\"status\":\"confirmed\",\"block_height\":3,\"applied\":\"yes\"",
         "\"applied\" must be a boolean, not a string"},
        {",\"status\":\"confirmed\",\"block_height\":3,\"applied\":false",
         "has no \"noop_reason\""},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char t[400];
        snprintf(t, sizeof t, "{\"transaction_hash\":\"%s\"%s}", H, bad[i][0]);
        BAD_TX(t, bad[i][1]);
    }
}

static void test_balance(void)
{
    uint64_t b = 1;
    struct zbc_err err;
    json_t *j = js("{\"balance\":0}");
    CHECK(zbc_client_check_balance(j, &b, &err));
    CHECK(b == 0);
    json_decref(j);
    j = js("{\"balance\":\"18446744073709551615\",\"spendable_balance\":5}");
    CHECK(zbc_client_check_balance(j, &b, &err));
    CHECK(b == UINT64_MAX);
    json_decref(j);
    static const char *const bad[][2] = {
        {"{}", "has no \"balance\""},
        {"{\"balance\":null}", "must be a whole number, not null"},
        {"{\"balance\":1.5}", "must be a whole number, not a real number"},
        {"{\"balance\":\"1.5\"}", "not a decimal number"},
        {"{\"balance\":\"18446744073709551616\"}", "not a decimal number"},
        {"{\"balance\":-3}", "is negative"},
        {"{\"balance\":3,\"spendable_balance\":[]}", "\"spendable_balance\" must be"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        j = js(bad[i][0]);
        memset(&err, 0, sizeof err);
        CHECK(!zbc_client_check_balance(j, &b, &err));
        CHECK(strstr(err.msg, bad[i][1]) != NULL);
        json_decref(j);
    }
}

static void test_reply_helpers(void)
{
    struct zbc_err err;
    json_t *j = js("{\"h\":\"00ff\",\"a\":[],\"o\":{},\"n\":null,\"b\":true}");
    uint8_t out[2];
    CHECK(zbc_reply_hex(j, "h", 2, "r", out, &err));
    CHECK(out[0] == 0 && out[1] == 0xff);
    CHECK(!zbc_reply_hex(j, "h", 3, "r", out, &err));
    CHECK(strstr(err.msg, "3 bytes as 6 hex") != NULL);
    json_t *v;
    CHECK(zbc_reply_array(j, "a", "r", &v, &err));
    CHECK(!zbc_reply_array(j, "o", "r", &v, &err));
    CHECK_EQ_STR(err.msg, "r: \"o\" must be an array, not an object");
    CHECK(zbc_reply_object(j, "o", "r", &v, &err));
    CHECK(!zbc_reply_object(j, "x", "r", &v, &err));
    CHECK_EQ_STR(err.msg, "r has no \"x\"");
    bool b = false;
    CHECK(zbc_reply_bool(j, "b", "r", &b, &err) && b);
    CHECK(zbc_reply_absent(j, "n") && zbc_reply_absent(j, "x") && !zbc_reply_absent(j, "b"));
    uint64_t u;
    CHECK(!zbc_reply_u64(j, "b", 0, 1, "r", &u, &err));
    CHECK_EQ_STR(err.msg, "r: \"b\" must be a whole number, not a boolean");
    json_decref(j);
}

/* A shape failure is exit internal and keeps the reply verbatim. */
static void test_bad_reply_fail(void)
{
    struct zbc_wfail f = {0};
    struct zbc_err err;
    json_t *j = js("{}");
    CHECK(!zbc_client_check_balance(j, &(uint64_t){0}, &err));
    CHECK(!zbc_client_bad_reply(&f, j, &err));
    CHECK_EQ_INT(f.code, ZBC_EXIT_INTERNAL);
    CHECK_EQ_INT(f.http_code, 200);
    CHECK(f.api_response == j);
    CHECK_EQ_STR(f.err.msg, "the node's account reply has no \"balance\"");
    zbc_wfail_clear(&f);
}

/* A full app view as docs/api.md §10 shows it, with one field replaced. */
static json_t *app_view(const char *field, const char *value)
{
    json_t *j = js("{\"id\":\"42\",\"type\":1,\"game\":\"tictactoe\",\"status\":\"finished\","
                   "\"seats\":2,\"seated\":2,\"stake\":100,\"moves\":1,\"created\":3,"
                   "\"joined\":4,\"params_hex\":\"\",\"state_hex\":\"00\","
                   "\"players\":[{\"seat\":0,\"address\":\"ZBC_A\"},{\"seat\":1,\"address\":\"ZBC_B\"}],"
                   "\"history\":[{\"kind\":\"app_move\",\"seq\":0,\"height\":6,\"seat\":0,"
                   "\"move_hex\":\"04\",\"tx_hash\":\"ab\"},"
                   "{\"kind\":\"bet_settle\",\"seq\":1,\"height\":7,\"u\":5,\"value\":3,"
                   "\"win\":false,\"amount\":0}],"
                   "\"result\":{\"ending\":\"win\",\"winner\":0,\"rake\":2,"
                   "\"payouts\":[{\"seat\":0,\"amount\":198,\"reason\":\"win\"}]}}");
    if (field != NULL) {
        json_t *v = strcmp(value, "DELETE") == 0 ? NULL : js(value);
        json_t *at = j;
        char path[64];
        snprintf(path, sizeof path, "%s", field);
        char *dot;
        char *key = path;
        /* "history.0.seat", "result.payouts.0.amount", "players.1.seat" */
        while ((dot = strchr(key, '.')) != NULL) {
            *dot = '\0';
            at = json_is_array(at) ? json_array_get(at, (size_t)atoi(key)) : json_object_get(at, key);
            key = dot + 1;
        }
        if (strcmp(value, "DELETE") == 0)
            json_object_del(at, key);
        else
            json_object_set(at, key, v);
        json_decref(v);
    }
    return j;
}

static int check_full(const json_t *j, struct zbc_err *err)
{
    return zbc_app_check_view(j, "42", true, err);
}

/* check on the view with each row's field replaced ({field, JSON value or
 * DELETE, a part of the error or NULL when it must pass}). */
static void view_cases(int (*check)(const json_t *, struct zbc_err *),
                       const char *const (*rows)[3], size_t n)
{
    for (size_t i = 0; i < n; i++) {
        json_t *j = app_view(rows[i][0], rows[i][1]);
        struct zbc_err err = {{0}};
        if (rows[i][2] == NULL) {
            CHECK(check(j, &err));
        } else {
            CHECK(!check(j, &err));
            CHECK(strstr(err.msg, rows[i][2]) != NULL);
        }
        json_decref(j);
    }
}

static void test_app_view(void)
{
    struct zbc_err err;
    json_t *j = app_view(NULL, NULL);
    CHECK(zbc_app_check_view(j, "42", true, &err));
    CHECK(zbc_app_check_verify(j, &err));
    CHECK(!zbc_app_check_view(j, "43", true, &err));
    CHECK(strstr(err.msg, "is about app 42, not 43") != NULL);
    json_decref(j);
    j = js("{}");
    CHECK(!zbc_app_check_view(j, "42", true, &err));
    CHECK_EQ_STR(err.msg, "the node's app view has no \"id\"");
    json_decref(j);
    static const char *const view[][3] = {
        {"status", "\"paused\"", "is not open, active, finished or abandoned"},
        {"type", "256", "\"type\" 256 is not in 0..255"},
        {"seats", "0", "\"seats\" 0 is not in 1..255"},
        {"seated", "3", "\"seated\" 3 is not in 0..2"},
        {"players", "{}", "\"players\" must be an array, not an object"},
        {"players.1.seat", "2", "\"seat\" 2 is not in 0..1"},
        {"players.0.address", "null", "\"address\" must be a string, not null"},
        {"state_hex", "DELETE", "has no \"state_hex\""},
        {"history", "null", "\"history\" must be an array, not null"},
        {"result", "[]", "\"result\" must be an object, not an array"},
        {"game", "7", "\"game\" must be a string, not an integer"},
    };
    view_cases(check_full, view, sizeof view / sizeof view[0]);
    static const char *const verify[][3] = {
        {"params_hex", "DELETE", "has no \"params_hex\""},
        {"joined", "\"x\"", "\"joined\" is a string that is not a decimal number"},
        {"history.0.kind", "1", "\"kind\" must be a string"},
        {"history.0.seat", "DELETE", "has no \"seat\""},
        {"history.0.move_hex", "[]", "\"move_hex\" must be a string, not an array"},
        {"history.0.tx_hash", "null", "\"tx_hash\" must be a string, not null"},
        {"history.0.height", "4294967296", "\"height\" 4294967296 is not in 0..4294967295"},
        {"history.1.win", "0", "\"win\" must be a boolean, not an integer"},
        {"history.1.amount", "DELETE", "has no \"amount\""},
        {"result.rake", "DELETE", "has no \"rake\""},
        {"result.winner", "\"0\"", NULL},
        {"result.winner", "-1", "\"winner\" -1 is negative"},
        {"result.payouts.0.seat", "null", NULL},
        {"result.payouts.0.seat", "\"x\"", "\"seat\" is a string that is not a decimal number"},
        {"result.payouts.0.amount", "1.5", "\"amount\" must be a whole number, not a real"},
        {"result.payouts", "{}", "\"payouts\" must be an array"},
    };
    view_cases(zbc_app_check_verify, verify, sizeof verify / sizeof verify[0]);
    /* a move the node played at a solo game's clock has no transaction */
    j = app_view("history.0.tx_hash", "null");
    json_object_set_new(json_array_get(json_object_get(j, "history"), 0), "reason",
                        json_string("clock"));
    struct zbc_err cerr;
    CHECK(zbc_app_check_verify(j, &cerr));
    json_decref(j);
    /* a list entry needs no state_hex, history or result */
    j = app_view("state_hex", "DELETE");
    json_object_del(j, "history");
    CHECK(zbc_app_check_view(j, NULL, false, &err));
    json_decref(j);
}

int main(void)
{
    TEST_RUN(test_app_view);
    TEST_RUN(test_tx_status);
    TEST_RUN(test_balance);
    TEST_RUN(test_reply_helpers);
    TEST_RUN(test_bad_reply_fail);
    return test_summary("wallet_replies");
}
