/* Genesis: JSON parsing, defaults, canonical bytes (expected bytes and
 * hash computed independently with Python's hashlib from the layout in
 * docs/protocol-chain.md), decode round trip, and every error. */
#include <stdlib.h>
#include <string.h>

#include "consensus/genesis.h"
#include "node/client/genesis_file.h"
#include "crypto/bytes.h"
#include "crypto/hex.h"
#include "testlib.h"

/* Validators: the public keys of seeds 0x22.. (PA) and 0x11.. (PB) from
 * keys.json, listed PB then PA; fund = type 0
 * key 0x33 x32, balances: Ethereum 0x55 x20 -> 5, type 0 key 0x44 x32 -> 7 */
#define H32(c) c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c
#define PA "a09aa5f47a6759802ff955f8dc2d2a14a5c99d23be97f864127ff9383455a4f0"
#define PB "d04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737"
#define H20(c) c c c c c c c c c c c c c c c c c c c c
static const char *good_json =
    "{\"chain_name\":\"t\",\"genesis_time\":1700000000000,"
    "\"validators\":[\"" PB "\",\"" PA "\"],"
    "\"fund_account\":\"00000000" H32("33") "\",\"fund_balance\":\"1000\","
    "\"balances\":[{\"address\":\"04000000" H20("55") "\",\"amount\":5},"
    "{\"amount\":7,\"address\":\"00000000" H32("44") "\"}],"
    "\"min_fee_base\":10,\"min_fee_per_byte\":2}";

static const char *good_bytes_hex =
    /* version 2; open_deadline 5760 (80160000) after max_block_bytes */
    "5a42432d47454e455349530201740068e5cf8b010000983a0000102700000a00000000"
    "0000000200000000000000f000000064000000000020008016000002000000a09aa5f4"
    "7a6759802ff955f8dc2d2a14a5c99d23be97f864127ff9383455a4f0d04ab232742bb4"
    "ab3a1368bd4615e4e6d0224ab71a016baf8520a332c977873700000000333333333333"
    "3333333333333333333333333333333333333333333333333333e80300000000000002"
    "0000000000000044444444444444444444444444444444444444444444444444444444"
    "4444444407000000000000000400000055555555555555555555555555555555555555"
    "550500000000000000f403000000000000";
static const char *good_hash_hex =
    "081f20145b945ba4f17ea8d9dff3b06d042b4bae3a851a818457e4247e36cecb";

static void test_good(void)
{
    struct zbc_genesis g;
    struct zbc_err err = {{0}};
    CHECK(zbc_genesis_parse_json(&g, good_json, strlen(good_json), &err));
    if (err.msg[0])
        fprintf(stderr, "%s\n", err.msg);
    CHECK_EQ_STR(g.chain_name, "t");
    CHECK_EQ_INT(g.genesis_time_ms, 1700000000000LL);
    CHECK_EQ_INT(g.block_time_ms, 15000);
    CHECK_EQ_INT(g.smith_delay_ms, 10000);
    CHECK_EQ_INT(g.move_deadline, 240);
    CHECK_EQ_INT(g.rake_bps, 100);
    CHECK_EQ_INT(g.max_block_bytes, 2097152);
    CHECK_EQ_INT(g.open_deadline, 5760); /* the default */
    CHECK_EQ_INT(g.n_validators, 2);
    CHECK_EQ_INT(g.validators[0][0], 0xa0); /* sorted */
    CHECK_EQ_INT(g.n_balances, 2);
    CHECK_EQ_INT(g.balances[0].amount, 7); /* type 0 sorts first */
    CHECK_EQ_INT(g.total_supply, 1012);
    uint8_t *bytes;
    size_t len;
    CHECK(zbc_genesis_encode(&g, &bytes, &len, &err));
    char hex[1024];
    CHECK(len * 2 < sizeof hex);
    zbc_hex_encode(hex, bytes, len);
    CHECK_EQ_STR(hex, good_bytes_hex);
    zbc_hex_encode(hex, g.hash, 32);
    CHECK_EQ_STR(hex, good_hash_hex);
    uint8_t pk[32];
    CHECK(zbc_hex_decode_exact(pk, 32, PB));
    CHECK(zbc_genesis_is_validator(&g, pk));
    memset(pk, 0x33, 32);
    CHECK(!zbc_genesis_is_validator(&g, pk));

    /* decode round trip */
    struct zbc_genesis d;
    CHECK(zbc_genesis_decode(&d, bytes, len, &err));
    CHECK_EQ_MEM(d.hash, g.hash, 32);
    CHECK_EQ_INT(d.total_supply, 1012);
    CHECK_EQ_STR(d.chain_name, "t");
    zbc_genesis_free(&d);

    /* every truncation and a trailing byte fail */
    for (size_t n = 0; n < len; n++) {
        CHECK(!zbc_genesis_decode(&d, bytes, n, &err));
        CHECK(d.balances == NULL);
    }
    uint8_t *longer = malloc(len + 1);
    memcpy(longer, bytes, len);
    longer[len] = 0;
    CHECK(!zbc_genesis_decode(&d, longer, len + 1, &err));
    CHECK(strstr(err.msg, "trailing") != NULL);
    /* supply mismatch */
    memcpy(longer, bytes, len);
    longer[len - 8] ^= 1;
    CHECK(!zbc_genesis_decode(&d, longer, len, &err));
    CHECK(strstr(err.msg, "supply") != NULL);
    /* validators out of order (swap A and B) */
    memcpy(longer, bytes, len);
    size_t voff = 11 + 1 + 1 + 1 + 8 + 4 + 4 + 8 + 8 + 4 + 4 + 4 + 4 + 4;
    memcpy(longer + voff, bytes + voff + 32, 32);
    memcpy(longer + voff + 32, bytes + voff, 32);
    CHECK(!zbc_genesis_decode(&d, longer, len, &err));
    CHECK(strstr(err.msg, "ascending") != NULL);
    /* a validator that is not a curve point */
    memcpy(longer, bytes, len);
    memset(longer + voff, 0x11, 32);
    CHECK(!zbc_genesis_decode(&d, longer, len, &err));
    CHECK(strstr(err.msg, "not a valid Ed25519") != NULL);
    /* bad magic, bad version */
    memcpy(longer, bytes, len);
    longer[0] = 'X';
    CHECK(!zbc_genesis_decode(&d, longer, len, &err));
    memcpy(longer, bytes, len);
    longer[11] = 1; /* version 1 had no open_deadline */
    CHECK(!zbc_genesis_decode(&d, longer, len, &err));
    CHECK(strstr(err.msg, "version") != NULL);
    /* open_deadline 0 is out of range */
    size_t odoff = voff - 8;
    memcpy(longer, bytes, len);
    CHECK_EQ_INT(zbc_get_le32(longer + odoff), 5760);
    memset(longer + odoff, 0, 4);
    CHECK(!zbc_genesis_decode(&d, longer, len, &err));
    CHECK(strstr(err.msg, "open_deadline") != NULL);
    free(longer);
    free(bytes);
    zbc_genesis_free(&g);
}

/* ZNK_ validator text and ZBC_ / 0x / base58 balances (keys.json and
 * addresses.json vectors), all parameters set, amount as a big string. */
static void test_text_forms(void)
{
    const char *json =
        "{\"chain_name\":\"devnet 1\",\"genesis_time\":0,"
        "\"block_time_ms\":1000,\"smith_delay_ms\":500,"
        "\"validators\":[\"ZNK_2BFLEMTU_FO2KWOQT_NC6UMFPE_43ICESVX_DIAWXL4F_"
        "ECRTFSLX_Q43WTXZ7\"],"
        "\"fund_account\":\"ZBC_UCNKL5D2_M5MYAL7Z_KX4NYLJK_CSS4THJD_X2L7QZAS_"
        "P74TQNCV_UTYAGL5D\",\"fund_balance\":0,"
        "\"balances\":[{\"address\":\"ZBC_L2HLFDOM_VKKKTEXX_C2P2M6LG_EB6ZNKSV_"
        "356SJUWW_5QPVHDE7_EFJA3PEX\",\"amount\":\"18446744073709551615\"}],"
        "\"min_fee_base\":0,\"min_fee_per_byte\":0,\"move_deadline\":5,"
        "\"rake_bps\":0,\"max_block_bytes\":1024,\"open_deadline\":1}";
    struct zbc_genesis g;
    struct zbc_err err = {{0}};
    CHECK(zbc_genesis_parse_json(&g, json, strlen(json), &err));
    if (err.msg[0])
        fprintf(stderr, "%s\n", err.msg);
    uint8_t pk[32];
    CHECK(zbc_hex_decode_exact(pk,
        32, "d04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737"));
    CHECK_EQ_MEM(g.validators[0], pk, 32);
    CHECK(zbc_hex_decode_exact(pk,
        32, "a09aa5f47a6759802ff955f8dc2d2a14a5c99d23be97f864127ff9383455a4f0"));
    CHECK_EQ_INT(g.fund_account.type, 0);
    CHECK_EQ_MEM(g.fund_account.payload, pk, 32);
    CHECK(g.total_supply == UINT64_MAX);
    CHECK_EQ_INT(g.block_time_ms, 1000);
    CHECK_EQ_INT(g.smith_delay_ms, 500);
    CHECK_EQ_INT(g.move_deadline, 5);
    CHECK_EQ_INT(g.rake_bps, 0);
    CHECK_EQ_INT(g.max_block_bytes, 1024);
    CHECK_EQ_INT(g.open_deadline, 1);
    zbc_genesis_free(&g);
}

/* Replaces the first occurrence of `from` in good_json by `to`. */
static char *variant(const char *from, const char *to)
{
    const char *at = strstr(good_json, from);
    if (at == NULL) {
        fprintf(stderr, "variant: %s not found\n", from);
        exit(2);
    }
    size_t n = strlen(good_json) - strlen(from) + strlen(to);
    char *s = malloc(n + 1);
    size_t pre = (size_t)(at - good_json);
    memcpy(s, good_json, pre);
    strcpy(s + pre, to);
    strcat(s, at + strlen(from));
    return s;
}

static void expect_bad(const char *json, const char *needle)
{
    struct zbc_genesis g;
    struct zbc_err err = {{0}};
    int ok = zbc_genesis_parse_json(&g, json, strlen(json), &err);
    CHECK(!ok);
    CHECK(g.balances == NULL);
    if (ok || strstr(err.msg, needle) == NULL) {
        fprintf(stderr, "  json: %.160s\n  err: %s\n  want: %s\n", json,
                err.msg, needle);
        test_failures++;
    }
    if (ok)
        zbc_genesis_free(&g);
}

static void expect_bad_variant(const char *from, const char *to,
                               const char *needle)
{
    char *s = variant(from, to);
    expect_bad(s, needle);
    free(s);
}

static void test_bad(void)
{
    expect_bad("", "not valid JSON");
    expect_bad("[1]", "must be a JSON object");
    expect_bad("{\"chain_name\":\"a\",\"chain_name\":\"b\"}", "not valid JSON");
    expect_bad_variant("\"chain_name\"", "\"bogus\":1,\"chain_name\"",
                       "unknown key \"bogus\"");
    expect_bad_variant("\"chain_name\":\"t\",", "", "missing required key "
                                                    "\"chain_name\"");
    expect_bad_variant("\"genesis_time\":1700000000000,", "",
                       "\"genesis_time\"");
    expect_bad_variant("\"fund_balance\":\"1000\",", "", "\"fund_balance\"");
    expect_bad_variant("\"chain_name\":\"t\"", "\"chain_name\":\"\"",
                       "chain_name must have");
    expect_bad_variant("\"chain_name\":\"t\"",
                       "\"chain_name\":\"" H32("ab") "x\"",
                       "chain_name must have");
    expect_bad_variant("\"chain_name\":\"t\"", "\"chain_name\":\"a\\nb\"",
                       "printable ASCII");
    expect_bad_variant("\"chain_name\":\"t\"", "\"chain_name\":5",
                       "chain_name must be a string");
    expect_bad_variant("1700000000000", "-1", "genesis_time must not be "
                                              "negative");
    expect_bad_variant("1700000000000", "\"1\"", "genesis_time must be an "
                                                 "integer");
    expect_bad_variant("\"min_fee_base\":10", "\"block_time_ms\":0",
                       "block_time_ms 0 is out of range");
    expect_bad_variant("\"min_fee_base\":10", "\"smith_delay_ms\":3600001",
                       "smith_delay_ms");
    expect_bad_variant("\"min_fee_base\":10", "\"move_deadline\":0",
                       "move_deadline");
    /* the first seat is drawn at J+2 with the deadline J+move_deadline:
     * below 3 the first mover could be claimed before it can move */
    expect_bad_variant("\"min_fee_base\":10", "\"move_deadline\":2",
                       "move_deadline 2 is out of range");
    expect_bad_variant("\"min_fee_base\":10", "\"open_deadline\":0",
                       "open_deadline 0 is out of range");
    expect_bad_variant("\"min_fee_base\":10", "\"open_deadline\":1000001",
                       "open_deadline 1000001 is out of range");
    expect_bad_variant("\"min_fee_base\":10", "\"open_deadline\":\"5\"",
                       "open_deadline");
    expect_bad_variant("\"min_fee_base\":10", "\"rake_bps\":10001",
                       "rake_bps 10001 is out of range");
    expect_bad_variant("\"min_fee_base\":10", "\"max_block_bytes\":2097153",
                       "max_block_bytes");
    expect_bad_variant("\"min_fee_base\":10", "\"max_block_bytes\":1023",
                       "max_block_bytes");
    expect_bad_variant("\"min_fee_base\":10", "\"min_fee_base\":1.5",
                       "min_fee_base must be");
    expect_bad_variant("\"min_fee_per_byte\":2",
                       "\"min_fee_per_byte\":\"18446744073709551616\"",
                       "overflows u64");
    expect_bad_variant("\"min_fee_per_byte\":2", "\"min_fee_per_byte\":\"1x\"",
                       "decimal amount");
    /* validators */
    expect_bad_variant("[\"" PB "\",\"" PA "\"]", "[]",
                       "1..64 validators");
    expect_bad_variant("[\"" PB "\",\"" PA "\"]", "\"x\"",
                       "validators must be an array");
    expect_bad_variant("\"" PB "\",", "5,", "validator 0 must be a "
                                                   "string");
    expect_bad_variant("\"" PB "\",", "\"" H32("zz") "\",",
                       "validator 0 is not 64 hex digits");
    expect_bad_variant("\"" PB "\",", "\"" PA "\",", "listed twice");
    expect_bad_variant("\"" PB "\",", "\"" H32("11") "\",",
                       "validator 0 is not a valid Ed25519 public key");
    /* a small-order point (the identity) */
    expect_bad_variant("\"" PB "\",",
                       "\"0100000000000000000000000000000000000000000000000000000000000000\",",
                       "is not a valid Ed25519 public key");
    expect_bad_variant("\"" PB "\",", "\"12ab\",",
                       "validator 0 is not 64 hex digits");
    expect_bad_variant("\"" PB "\",",
                       "\"ZBC_2BFLEMTU_FO2KWOQT_NC6UMFPE_43ICESVX_DIAWXL4F_"
                       "ECRTFSLX_Q43UIV2I\",",
                       "not a ZBC_ address");
    expect_bad_variant("\"" PB "\",",
                       "\"ZNK_2BFLEMTU_FO2KWOQT_NC6UMFPE_43ICESVX_DIAWXL4F_"
                       "ECRTFSLX_Q43WTXZ8\",",
                       "validator 0");
    {
        char list[64 * 70 + 16] = "[";
        for (int i = 0; i < 65; i++)
            snprintf(list + strlen(list), sizeof list - strlen(list),
                     "%s\"%064x\"", i ? "," : "", i);
        strcat(list, "]");
        expect_bad_variant("[\"" PB "\",\"" PA "\"]", list,
                           "1..64 validators");
    }
    /* fund */
    expect_bad_variant("\"00000000" H32("33") "\"", "\"ZBC_nonsense\"",
                       "fund_account");
    expect_bad_variant("\"00000000" H32("33") "\"", "7",
                       "fund_account must be an address string");
    expect_bad_variant("\"00000000" H32("33") "\"",
                       "\"03000000" H32("33") "\"", "fund_account");
    expect_bad_variant("\"fund_balance\":\"1000\"", "\"fund_balance\":-5",
                       "fund_balance must not be negative");
    /* balances */
    expect_bad("{\"chain_name\":\"t\",\"genesis_time\":1,\"validators\":[\""
               PA "\"],\"fund_account\":\"00000000" H32("33")
               "\",\"fund_balance\":1,\"balances\":{}}",
               "balances must be an array");
    expect_bad_variant("{\"address\":\"04000000", "[{\"address\":\"04000000",
                       "not valid JSON");
    expect_bad_variant("{\"address\":\"04000000", "5,{\"address\":\"04000000",
                       "balance 0 must be an object");
    expect_bad_variant("\"amount\":5}", "\"amount\":5,\"memo\":1}",
                       "unknown key \"memo\"");
    expect_bad_variant("\"amount\":5}", "\"amt\":5}", "unknown key \"amt\"");
    expect_bad_variant(",\"amount\":5}", "}", "needs address and amount");
    expect_bad_variant("\"amount\":5}", "\"amount\":-5}", "must not be "
                                                          "negative");
    expect_bad_variant("\"04000000" H20("55") "\"", "\"00000000" H32("44") "\"",
                       "listed twice");
    expect_bad_variant("\"04000000" H20("55") "\"", "\"00000000" H32("33") "\"",
                       "repeats the fund account");
    expect_bad_variant("\"04000000" H20("55") "\"", "\"bad address\"",
                       "balance 0");
    expect_bad_variant("\"amount\":5}", "\"amount\":\"18446744073709551000\"}",
                       "total supply overflows");
}

/* A string amount is 1..20 decimal digits, leading zeros allowed
 * (docs/protocol-chain.md §1.1): "0001000" is 1000, twenty digits up to
 * 2^64 - 1 parse, twenty-one digits or 2^64 do not. */
static void test_string_amounts(void)
{
    static const struct {
        const char *text;
        int ok;
        uint64_t value;
    } cases[] = {
        {"\"0001000\"", 1, 1000},
        {"\"0\"", 1, 0},
        {"\"00000000000000000000\"", 1, 0},
        {"\"18446744073709551615\"", 1, UINT64_MAX},
        {"\"00018446744073709551\"", 1, 18446744073709551ull},
        {"\"000000000000000000001\"", 0, 0},
        {"\"18446744073709551616\"", 0, 0},
        {"\"\"", 0, 0},
        {"\"+1\"", 0, 0},
        {"\" 1\"", 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char to[64];
        snprintf(to, sizeof to, "\"min_fee_per_byte\":%s", cases[i].text);
        char *json = variant("\"min_fee_per_byte\":2", to);
        struct zbc_genesis g;
        struct zbc_err err = {{0}};
        int ok = zbc_genesis_parse_json(&g, json, strlen(json), &err);
        CHECK_EQ_INT(ok, cases[i].ok);
        if (ok) {
            CHECK(g.min_fee_per_byte == cases[i].value);
            zbc_genesis_free(&g);
        } else {
            CHECK(strstr(err.msg, "genesis min_fee_per_byte") != NULL);
        }
        free(json);
    }
}

static void test_load_file(void)
{
    struct zbc_genesis g;
    struct zbc_err err = {{0}};
    CHECK(!zbc_genesis_load_file(&g, "/nonexistent/genesis.json", &err));
    CHECK(strstr(err.msg, "cannot open genesis file") != NULL);
    char path[] = "/tmp/zbc_genesis_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(good_json, f);
    fclose(f);
    CHECK(zbc_genesis_load_file(&g, path, &err));
    CHECK_EQ_INT(g.total_supply, 1012);
    zbc_genesis_free(&g);
    remove(path);
}

int main(void)
{
    TEST_RUN(test_good);
    TEST_RUN(test_text_forms);
    TEST_RUN(test_bad);
    TEST_RUN(test_string_amounts);
    TEST_RUN(test_load_file);
    return test_summary("consensus_genesis");
}
