/* RFC 4648 §10 base32 vectors (without the padding). */
#include "crypto/base32.h"
#include "testlib.h"

static const struct {
    const char *plain, *enc;
} rfc4648[] = {
    {"", ""},           {"f", "MY"},          {"fo", "MZXQ"},
    {"foo", "MZXW6"},   {"foob", "MZXW6YQ"},  {"fooba", "MZXW6YTB"},
    {"foobar", "MZXW6YTBOI"},
};

static void test_rfc4648(void)
{
    for (size_t i = 0; i < sizeof rfc4648 / sizeof rfc4648[0]; i++) {
        const char *p = rfc4648[i].plain;
        char out[32];
        size_t n = zbc_base32_encode(out, (const uint8_t *)p, strlen(p));
        CHECK_EQ_STR(out, rfc4648[i].enc);
        CHECK_EQ_INT(n, ZBC_BASE32_LEN(strlen(p)));
        uint8_t dec[16];
        size_t dlen = 99;
        struct zbc_err err;
        CHECK(zbc_base32_decode(dec, sizeof dec, &dlen, rfc4648[i].enc,
                                strlen(rfc4648[i].enc), &err));
        CHECK_EQ_INT(dlen, strlen(p));
        CHECK_EQ_MEM(dec, p, strlen(p));
    }
}

static void test_lower_case(void)
{
    uint8_t dec[16];
    size_t dlen;
    struct zbc_err err;
    CHECK(zbc_base32_decode(dec, sizeof dec, &dlen, "mzxw6ytboi", 10, &err));
    CHECK_EQ_INT(dlen, 6);
    CHECK_EQ_MEM(dec, "foobar", 6);
}

static void test_rejects(void)
{
    uint8_t dec[16];
    size_t dlen;
    struct zbc_err err;
    /* '1', '8', '=' are not in the alphabet */
    CHECK(!zbc_base32_decode(dec, sizeof dec, &dlen, "MZXW1", 5, &err));
    CHECK(strstr(err.msg, "not base32") != NULL);
    CHECK(!zbc_base32_decode(dec, sizeof dec, &dlen, "MY======", 8, &err));
    /* lengths 1, 3, 6 mod 8 encode no byte count */
    CHECK(!zbc_base32_decode(dec, sizeof dec, &dlen, "M", 1, &err));
    CHECK(strstr(err.msg, "whole number") != NULL);
    CHECK(!zbc_base32_decode(dec, sizeof dec, &dlen, "MZX", 3, &err));
    CHECK(!zbc_base32_decode(dec, sizeof dec, &dlen, "MZXW6Y", 6, &err));
    /* "MZ": the two unused bits are 01 */
    CHECK(!zbc_base32_decode(dec, sizeof dec, &dlen, "MZ", 2, &err));
    CHECK(strstr(err.msg, "trailing bits") != NULL);
    /* more than cap */
    CHECK(!zbc_base32_decode(dec, 5, &dlen, "MZXW6YTBOI", 10, &err));
    CHECK(strstr(err.msg, "more than") != NULL);
}

int main(void)
{
    TEST_RUN(test_rfc4648);
    TEST_RUN(test_lower_case);
    TEST_RUN(test_rejects);
    return test_summary("test_crypto_base32");
}
