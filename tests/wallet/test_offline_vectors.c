/* The wallet's builder (txbuild.c) reproduces every send-zbc and app-*
 * vector of tests/vectors/zoobc byte for byte, and refuses bad arguments
 * with a usage error.  (tests/integration/test_offline_vectors.py checks
 * the same through the command line.) */
#include <jansson.h>
#include <string.h>

#include "crypto/hex.h"
#include "node/wallet/txbuild.h"
#include "testlib.h"

static int is_app(const char *cmd)
{
    return strncmp(cmd, "app-", 4) == 0 && strcmp(cmd, "app-settle") != 0;
}

static void hex_eq(const char *name, const char *what, const uint8_t *b, size_t n,
                   json_t *want)
{
    char *got = malloc(2 * n + 1);
    zbc_hex_encode(got, b, n);
    if (!json_is_string(want) || strcmp(got, json_string_value(want)) != 0) {
        fprintf(stderr, "%s: %s differs\n", name, what);
        CHECK(0);
    } else {
        CHECK(1);
    }
    free(got);
}

static void run_vector(json_t *v)
{
    const char *name = json_string_value(json_object_get(v, "name"));
    const char *cmd = json_string_value(json_object_get(v, "command"));
    json_t *p = json_object_get(v, "params");
    json_t *exp = json_object_get(v, "expected");
    struct zbc_opts o;
    memset(&o, 0, sizeof o);
    o.fee = (uint64_t)json_integer_value(json_object_get(v, "fee"));
    o.have_timestamp = 1;
    o.timestamp = json_integer_value(json_object_get(v, "timestamp"));
    if (json_is_string(json_object_get(v, "message")))
        o.message = json_string_value(json_object_get(v, "message"));
    json_t *e = json_object_get(v, "escrow");
    char comm[32], tmo[32];
    if (json_is_object(e)) {
        o.escrow_approver = json_string_value(json_object_get(e, "approver"));
        snprintf(comm, sizeof comm, "%lld", (long long)json_integer_value(json_object_get(e, "commission")));
        snprintf(tmo, sizeof tmo, "%lld", (long long)json_integer_value(json_object_get(e, "timeout")));
        o.escrow_commission = comm;
        o.escrow_timeout = tmo;
        o.escrow_instruction = json_string_value(json_object_get(e, "instruction"));
    }
    const char *args[3];
    int argc;
    const char *sub;
#define P(k) json_string_value(json_object_get(p, k))
    if (strcmp(cmd, "send-zbc") == 0) {
        sub = "send";
        args[0] = P("recipient");
        args[1] = P("amount");
        argc = 2;
    } else if (strcmp(cmd, "app-create") == 0) {
        sub = "create";
        args[0] = P("app_type");
        args[1] = P("stake_amount");
        args[2] = P("seats");
        argc = 3;
        o.stake_token = P("stake_token");
        o.params_hex = P("params_hex");
        o.opponent = P("opponent_hex");
    } else if (strcmp(cmd, "app-move") == 0) {
        sub = "move";
        args[0] = P("app_id");
        args[1] = P("move_hex");
        argc = 2;
    } else {
        sub = cmd + 4;
        args[0] = P("app_id");
        argc = 1;
    }
#undef P
    uint8_t seed[32];
    CHECK(zbc_hex_decode_exact(seed, 32, json_string_value(json_object_get(v, "key"))));
    struct zbc_chain_id chain;
    struct zbc_wfail f = {0};
    CHECK(zbc_chain_id_parse(&chain, json_string_value(json_object_get(v, "genesis")), &f));
    struct zbc_wtx *w = calloc(1, sizeof *w);
    int ok = zbc_wtx_from_args(w, sub, argc, args, &o, 0, &f) && zbc_wtx_sign(w, seed, &chain, &f);
    if (!ok) {
        fprintf(stderr, "%s: %s\n", name, f.err.msg);
        CHECK(0);
        free(w);
        return;
    }
    hex_eq(name, "body", w->tx.body, w->tx.body_len, json_object_get(exp, "body"));
    hex_eq(name, "unsigned_bytes", w->bytes, w->unsigned_len, json_object_get(exp, "unsigned_bytes"));
    hex_eq(name, "digest", w->digest, 32, json_object_get(exp, "digest"));
    hex_eq(name, "signature", w->bytes + w->unsigned_len, w->len - w->unsigned_len,
           json_object_get(exp, "signature"));
    hex_eq(name, "transaction_bytes", w->bytes, w->len, json_object_get(exp, "transaction_bytes"));
    hex_eq(name, "transaction_hash", w->hash, 32, json_object_get(exp, "transaction_hash"));
    json_t *payload;
    CHECK(zbc_wtx_payload(&payload, w, &f));
    CHECK(json_equal(payload, json_object_get(exp, "payload")));
    json_decref(payload);
    CHECK_EQ_INT(w->chain.signing_version, json_integer_value(json_object_get(exp, "signing_version")));
    zbc_wtx_free(w);
    free(w);
}

static void test_vectors(void)
{
    const char *files[] = {ZBC_VECTORS_DIR "/zoobc/transactions.json",
                           ZBC_VECTORS_DIR "/zoobc/transactions-all.json"};
    int n = 0;
    for (size_t i = 0; i < 2; i++) {
        char *text = test_read_file(files[i]);
        json_error_t jerr;
        json_t *root = json_loads(text, 0, &jerr);
        free(text);
        CHECK(root != NULL);
        size_t k;
        json_t *v;
        json_array_foreach(json_object_get(root, "vectors"), k, v) {
            const char *cmd = json_string_value(json_object_get(v, "command"));
            if (strcmp(cmd, "send-zbc") == 0 || is_app(cmd)) {
                run_vector(v);
                n++;
            }
        }
        json_decref(root);
    }
    CHECK_EQ_INT(n, 18);
}

static void expect_usage(const char *sub, int argc, const char **args, const struct zbc_opts *o)
{
    struct zbc_wtx *w = calloc(1, sizeof *w);
    struct zbc_wfail f = {0};
    CHECK(!zbc_wtx_from_args(w, sub, argc, args, o, 0, &f));
    CHECK_EQ_INT(f.code, ZBC_EXIT_USAGE);
    CHECK(f.err.msg[0] != '\0');
    zbc_wtx_free(w);
    free(w);
}

static void test_bad_args(void)
{
    struct zbc_opts o;
    memset(&o, 0, sizeof o);
    const char *addr = "ZBC_L2HLFDOM_VKKKTEXX_C2P2M6LG_EB6ZNKSV_356SJUWW_5QPVHDE7_EFJA3PEX";
    const char *a1[] = {addr, "1x"};
    expect_usage("send", 2, a1, &o);
    const char *a2[] = {"ZBC_L2HLFDOM", "1"};
    expect_usage("send", 2, a2, &o);
    expect_usage("send", 1, a2, &o);
    expect_usage("fly", 1, a2, &o);
    const char *a3[] = {"256", "1", "2"};
    expect_usage("create", 3, a3, &o);
    const char *a4[] = {"1", "1", "2"};
    struct zbc_opts o2 = o;
    o2.opponent = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
    expect_usage("create", 3, a4, &o2);
    o2 = o;
    o2.params_hex = "123";
    expect_usage("create", 3, a4, &o2);
    o2 = o;
    o2.stake_token = "-1";
    expect_usage("create", 3, a4, &o2);
    const char *a5[] = {"5", "xyz"};
    expect_usage("move", 2, a5, &o);
    const char *a6[] = {"+5"};
    expect_usage("join", 1, a6, &o);
    const char *a7[] = {addr, "1"};
    o2 = o;
    o2.escrow_timeout = "5";
    expect_usage("send", 2, a7, &o2);
    o2.escrow_approver = addr;
    o2.escrow_commission = "9223372036854775808";
    expect_usage("send", 2, a7, &o2);
    char big[ZBC_TX_MESSAGE_MAX + 2];
    memset(big, 'm', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    o2 = o;
    o2.message = big;
    expect_usage("send", 2, a7, &o2);
    struct zbc_chain_id c;
    struct zbc_wfail f = {0};
    CHECK(!zbc_chain_id_parse(&c, "v2", &f));
    CHECK(!zbc_chain_id_parse(&c, "abcd", &f));
    CHECK(zbc_chain_id_parse(&c, "v1", &f));
    CHECK_EQ_INT(c.signing_version, 1);
}

int main(void)
{
    TEST_RUN(test_vectors);
    TEST_RUN(test_bad_args);
    return test_summary("wallet_offline_vectors");
}
