/* Address text forms: every vector of tests/vectors/zoobc/addresses.json,
 * EIP-55 examples from the EIP itself, and each rejection path. */
#include <ctype.h>
#include <jansson.h>
#include <strings.h>

#include "crypto/address.h"
#include "crypto/hex.h"
#include "testlib.h"

static int skipped_unsupported;
static int skipped_chain_hint;

static void addr_hex(char *out, const struct zbc_addr *a)
{
    uint8_t b[ZBC_ADDR_BYTES_MAX];
    size_t n = zbc_addr_write(b, a);
    zbc_hex_encode(out, b, n);
}

static int has_upper(const char *s)
{
    for (; *s; s++)
        if (isupper((unsigned char)*s))
            return 1;
    return 0;
}

static void check_valid(json_t *v, const char *input)
{
    uint32_t type = (uint32_t)json_integer_value(json_object_get(v, "account_type"));
    const char *bytes = json_string_value(json_object_get(v, "address_bytes"));
    const char *display = json_string_value(json_object_get(v, "display"));
    struct zbc_addr a;
    struct zbc_err err = {{0}};
    if (!zbc_addr_type_supported(type)) {
        int ok = zbc_addr_parse_text(&a, input, &err);
        CHECK(!ok && strstr(err.msg, "not supported") != NULL);
        if (ok || strstr(err.msg, "not supported") == NULL)
            fprintf(stderr, "  input %s: want an 'unsupported' error, got '%s'\n", input,
                    ok ? "(accepted)" : err.msg);
        skipped_unsupported++;
        printf("  unsupported type %2u rejected: %s -> %s\n", type, input, err.msg);
        return;
    }
    if (json_object_get(v, "chain") != NULL && !zbc_addr_parse_text(&a, input, &err)) {
        /* The reference's --chain hint reads bare forms (e.g. 40 hex as
         * Ethereum) that the hint-less parser here refuses. */
        skipped_chain_hint++;
        printf("  --chain %s vector not parsed without the hint: %s -> %s\n",
               json_string_value(json_object_get(v, "chain")), input, err.msg);
        return;
    }
    int ok = zbc_addr_parse_text(&a, input, &err);
    CHECK(ok);
    if (!ok) {
        fprintf(stderr, "  input '%s' rejected: %s\n", input, err.msg);
        return;
    }
    CHECK_EQ_INT(a.type, type);
    char hex[2 * ZBC_ADDR_BYTES_MAX + 1];
    addr_hex(hex, &a);
    CHECK_EQ_STR(hex, bytes);
    char text[ZBC_ADDR_TEXT_MAX];
    zbc_addr_to_text(text, &a);
    if (type == ZBC_ACCT_ETH && !has_upper(display)) {
        /* The reference echoes an all-lower-case Ethereum input; this
         * chain always prints the EIP-55 form of the same address. */
        CHECK(strcasecmp(text, display) == 0);
        CHECK(has_upper(text));
    } else {
        CHECK_EQ_STR(text, display);
    }
    /* and the printed form reads back as the same address */
    struct zbc_addr b;
    CHECK(zbc_addr_parse_text(&b, text, &err));
    CHECK(zbc_addr_equal(&a, &b));
}

static void test_vectors(void)
{
    char *buf = test_read_file(ZBC_VECTORS_DIR "/zoobc/addresses.json");
    json_error_t jerr;
    json_t *root = json_loads(buf, 0, &jerr);
    CHECK(root != NULL);
    json_t *vecs = json_object_get(root, "vectors");
    CHECK(json_array_size(vecs) > 40);
    size_t i;
    json_t *v;
    int valid = 0, invalid = 0;
    json_array_foreach(vecs, i, v) {
        const char *input = json_string_value(json_object_get(v, "input"));
        if (json_is_true(json_object_get(v, "valid"))) {
            check_valid(v, input);
            valid++;
        } else {
            struct zbc_addr a;
            struct zbc_err err = {{0}};
            int ok = zbc_addr_parse_text(&a, input, &err);
            CHECK(!ok);
            if (ok)
                fprintf(stderr, "  invalid input '%s' was accepted\n", input);
            else
                printf("  rejected as expected: '%s' -> %s\n", input, err.msg);
            invalid++;
        }
    }
    printf("addresses.json: %d valid, %d invalid; %d of the valid ones are of "
           "account types this chain does not support (rejected as unsupported), "
           "%d --chain vectors skipped\n",
           valid, invalid, skipped_unsupported, skipped_chain_hint);
    CHECK(skipped_chain_hint <= 1);
    json_decref(root);
    free(buf);
}

/* EIP-55's own examples. */
static void test_eip55(void)
{
    static const char *const examples[] = {
        "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
        "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
        "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
        "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
    };
    for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++) {
        char lower[43];
        for (size_t j = 0; j < 43; j++)
            lower[j] = (char)tolower((unsigned char)examples[i][j]);
        struct zbc_addr a;
        struct zbc_err err;
        CHECK(zbc_addr_parse_text(&a, lower, &err));
        char text[ZBC_ADDR_TEXT_MAX];
        zbc_addr_to_text(text, &a);
        CHECK_EQ_STR(text, examples[i]);
        CHECK(zbc_addr_parse_text(&a, examples[i], &err));
        /* all upper case after 0x carries no checksum and is accepted */
        char upper[43] = "0x";
        for (size_t j = 2; j < 43; j++)
            upper[j] = (char)toupper((unsigned char)examples[i][j]);
        CHECK(zbc_addr_parse_text(&a, upper, &err));
    }
    /* one letter's case flipped */
    struct zbc_addr a;
    struct zbc_err err;
    CHECK(!zbc_addr_parse_text(&a, "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", &err));
    CHECK(strstr(err.msg, "EIP-55") != NULL);
    CHECK(!zbc_addr_parse_text(&a, "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe", &err));
    CHECK(strstr(err.msg, "40 hex") != NULL);
    CHECK(!zbc_addr_parse_text(&a, "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg", &err));
    CHECK(strstr(err.msg, "40 hex") != NULL);
}

static void test_zbc_form(void)
{
    const char *zbc = "ZBC_2BFLEMTU_FO2KWOQT_NC6UMFPE_43ICESVX_DIAWXL4F_ECRTFSLX_Q43UIV2I";
    const char *znk = "ZNK_2BFLEMTU_FO2KWOQT_NC6UMFPE_43ICESVX_DIAWXL4F_ECRTFSLX_Q43WTXZ7";
    uint8_t pk[32], want[32];
    CHECK(zbc_hex_decode_exact(want, 32,
        "d04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737"));
    char prefix[4];
    struct zbc_err err;
    CHECK(zbc_addr_zbc_parse(pk, prefix, zbc, &err));
    CHECK_EQ_MEM(pk, want, 32);
    CHECK_EQ_STR(prefix, "ZBC");
    CHECK(zbc_addr_zbc_parse(pk, prefix, znk, &err));
    CHECK_EQ_STR(prefix, "ZNK");
    CHECK_EQ_MEM(pk, want, 32);
    char text[ZBC_ADDR_TEXT_MAX];
    zbc_addr_zbc_text(text, want, "ZNK");
    CHECK_EQ_STR(text, znk);
    CHECK_EQ_INT(strlen(text), 66);

    /* rejections, each with its own reason */
    CHECK(!zbc_addr_zbc_parse(pk, NULL, "ZBC_2BFLEMTU_FO2KWOQT_NC6UMFPE_43ICESVX_DIAWXL4F_ECRTFSLX_Q43UIV2J", &err));
    CHECK_EQ_STR(err.msg, "bad checksum in ZBC address");
    CHECK(!zbc_addr_zbc_parse(pk, NULL, "ZB", &err));
    CHECK(strstr(err.msg, "too short") != NULL);
    CHECK(!zbc_addr_zbc_parse(pk, NULL, "Z1C_2BFLEMTU_FO2KWOQT_NC6UMFPE_43ICESVX_DIAWXL4F_ECRTFSLX_Q43UIV2I", &err));
    CHECK(strstr(err.msg, "3 letters") != NULL);
    CHECK(!zbc_addr_zbc_parse(pk, NULL, "ZBC_2BFLEMTU_FO2KWOQT_NC6UMFPE_43ICESVX_DIAWXL4F_ECRTFSLX_Q43UIV2", &err));
    CHECK(strstr(err.msg, "must be 56 base32 characters, got 55") != NULL);
    CHECK(!zbc_addr_zbc_parse(pk, NULL, "ZBC_2BFLEMTU_FO2KWOQT_NC6UMFPE_43ICESVX_DIAWXL4F_ECRTFSLX_Q43UIV21", &err));
    CHECK(strstr(err.msg, "not base32") != NULL);

    struct zbc_addr a;
    CHECK(!zbc_addr_parse_text(&a, "ABC_2BFLEMTU_FO2KWOQT_NC6UMFPE_43ICESVX_DIAWXL4F_ECRTFSLX_Q43UIV2I", &err));
    CHECK(strstr(err.msg, "unknown address prefix 'ABC'") != NULL);
    CHECK(!zbc_addr_parse_text(&a, "ZBC_", &err));
    CHECK(strstr(err.msg, "got 0") != NULL);
    /* a valid ZBS_ form (dataset object, type 10) */
    zbc_addr_zbc_text(text, want, "ZBS");
    CHECK(!zbc_addr_parse_text(&a, text, &err));
    CHECK(strstr(err.msg, "not supported") != NULL);
}

static void test_typed_hex(void)
{
    struct zbc_addr a, b;
    struct zbc_err err;
    char text[ZBC_ADDR_TEXT_MAX];
    /* type 1 (legacy Bitcoin) is reachable only as typed hex, and prints
     * as typed hex so it never reads back as type 5 */
    const char *t1 = "0100000077bff20c60e522dfaa3350c39b030a5d004e839a";
    CHECK(zbc_addr_parse_text(&a, t1, &err));
    CHECK_EQ_INT(a.type, 1);
    zbc_addr_to_text(text, &a);
    CHECK_EQ_STR(text, t1);
    CHECK(zbc_addr_parse_text(&b, text, &err));
    CHECK(zbc_addr_equal(&a, &b));
    /* type 5 typed hex prints as base58check */
    CHECK(zbc_addr_parse_text(&a, "0500000077bff20c60e522dfaa3350c39b030a5d004e839a", &err));
    zbc_addr_to_text(text, &a);
    CHECK_EQ_STR(text, "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2");
    /* 72 hex of type 0 */
    CHECK(zbc_addr_parse_text(&a, "00000000d04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737", &err));
    zbc_addr_to_text(text, &a);
    CHECK_EQ_STR(text, "ZBC_2BFLEMTU_FO2KWOQT_NC6UMFPE_43ICESVX_DIAWXL4F_ECRTFSLX_Q43UIV2I");
    /* types that exist but may not act here */
    CHECK(!zbc_addr_parse_text(&a, "080000001863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262", &err));
    CHECK(strstr(err.msg, "not supported") != NULL);
    CHECK(!zbc_addr_parse_text(&a, "07000000751e76e8199196d454941c45d1b3a323f1433bd6", &err));
    CHECK(strstr(err.msg, "not supported") != NULL);
    /* length that does not fit the type */
    CHECK(!zbc_addr_parse_text(&a, "000000005e8eb28dccaa94a992f7169fa67966207d96aa55", &err));
    CHECK(strstr(err.msg, "truncated") != NULL);
    CHECK(!zbc_addr_parse_text(&a, "04000000d8da6bf26964af9d7eed9e03e53415d37aa96045000000000000000000000000", &err));
    CHECK(strstr(err.msg, "takes 24") != NULL);
    CHECK(!zbc_addr_parse_text(&a, "63000000d8da6bf26964af9d7eed9e03e53415d37aa96045", &err));
    CHECK(strstr(err.msg, "unknown account type 99") != NULL);
    /* 40 hex without 0x */
    CHECK(!zbc_addr_parse_text(&a, "d8da6bf26964af9d7eed9e03e53415d37aa96045", &err));
    CHECK(strstr(err.msg, "0x") != NULL);
}

static void test_bitcoin(void)
{
    struct zbc_addr a;
    struct zbc_err err;
    CHECK(!zbc_addr_parse_text(&a, "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3", &err));
    CHECK_EQ_STR(err.msg, "bad checksum in Bitcoin address");
    CHECK(!zbc_addr_parse_text(&a, "1BvBMSEYstWetqTFn5Au4m4GFg7x", &err));
    CHECK(strstr(err.msg, "must decode to 25 bytes") != NULL);
    CHECK(!zbc_addr_parse_text(&a, "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy", &err));
    CHECK(strstr(err.msg, "P2SH") != NULL && strstr(err.msg, "not supported") != NULL);
    CHECK(!zbc_addr_parse_text(&a, "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", &err));
    CHECK(strstr(err.msg, "account type 7,") != NULL);
    CHECK(!zbc_addr_parse_text(&a, "bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3", &err));
    CHECK(strstr(err.msg, "account type 8,") != NULL);
    CHECK(!zbc_addr_parse_text(&a, "bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr", &err));
    CHECK(strstr(err.msg, "account type 9,") != NULL);
}

static void test_misc_rejects(void)
{
    struct zbc_addr a;
    struct zbc_err err;
    CHECK(!zbc_addr_parse_text(&a, "", &err));
    CHECK_EQ_STR(err.msg, "empty address");
    CHECK(!zbc_addr_parse_text(&a, " \t\n", &err));
    CHECK_EQ_STR(err.msg, "empty address");
    CHECK(!zbc_addr_parse_text(&a, "hello", &err));
    CHECK_EQ_STR(err.msg, "not a ZBC, Bitcoin or Ethereum address");
    char big[400];
    memset(big, 'A', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    CHECK(!zbc_addr_parse_text(&a, big, &err));
    CHECK(strstr(err.msg, "longer than") != NULL);
}

/* The empty address and other types print as typed hex. */
static void test_to_text_other_types(void)
{
    struct zbc_addr a;
    char text[ZBC_ADDR_TEXT_MAX];
    zbc_addr_empty(&a);
    zbc_addr_to_text(text, &a);
    CHECK_EQ_STR(text, "02000000");
}

int main(void)
{
    TEST_RUN(test_vectors);
    TEST_RUN(test_eip55);
    TEST_RUN(test_zbc_form);
    TEST_RUN(test_typed_hex);
    TEST_RUN(test_bitcoin);
    TEST_RUN(test_misc_rejects);
    TEST_RUN(test_to_text_other_types);
    return test_summary("test_crypto_address");
}
