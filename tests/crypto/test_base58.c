/* Base58 vectors from the IETF draft draft-msporny-base58 and a
 * base58check address from tests/vectors/zoobc/addresses.json. */
#include "crypto/base58.h"
#include "crypto/hex.h"
#include "testlib.h"

static void roundtrip(const uint8_t *in, size_t len, const char *want)
{
    char out[200];
    CHECK(zbc_base58_encode(out, sizeof out, in, len));
    CHECK_EQ_STR(out, want);
    uint8_t dec[128];
    size_t dlen = 0;
    struct zbc_err err;
    CHECK(zbc_base58_decode(dec, sizeof dec, &dlen, want, strlen(want), &err));
    CHECK_EQ_INT(dlen, len);
    CHECK_EQ_MEM(dec, in, len);
}

static void test_draft_vectors(void)
{
    roundtrip((const uint8_t *)"Hello World!", 12, "2NEpo7TZRRrLZSi2U");
    const char *fox = "The quick brown fox jumps over the lazy dog.";
    roundtrip((const uint8_t *)fox, strlen(fox),
              "USm3fpXnKG5EUBx2ndxBDMPVciP5hGey2Jh4NDv6gmeo1LkMeiKrLJUUBk6Z");
    static const uint8_t lead[] = {0x00, 0x00, 0x28, 0x7f, 0xb4, 0xcd};
    roundtrip(lead, sizeof lead, "11233QC4");
    roundtrip(lead, 0, "");
}

static void test_check(void)
{
    uint8_t want[21];
    CHECK(zbc_hex_decode_exact(want, 21, "0077bff20c60e522dfaa3350c39b030a5d004e839a"));
    char out[64];
    CHECK(zbc_base58check_encode(out, sizeof out, want, sizeof want));
    CHECK_EQ_STR(out, "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2");
    uint8_t dec[32];
    size_t dlen;
    struct zbc_err err;
    CHECK(zbc_base58check_decode(dec, sizeof dec, &dlen, out, strlen(out), &err));
    CHECK_EQ_INT(dlen, 21);
    CHECK_EQ_MEM(dec, want, 21);
}

static void test_rejects(void)
{
    uint8_t dec[64];
    size_t dlen;
    struct zbc_err err;
    /* 0, O, I, l are not in the alphabet */
    CHECK(!zbc_base58_decode(dec, sizeof dec, &dlen, "1BvB0", 5, &err));
    CHECK(strstr(err.msg, "not base58") != NULL);
    CHECK(!zbc_base58_decode(dec, sizeof dec, &dlen, "abcl", 4, &err));
    char longtext[ZBC_BASE58_TEXT_MAX + 2];
    memset(longtext, 'z', sizeof longtext - 1);
    longtext[sizeof longtext - 1] = '\0';
    CHECK(!zbc_base58_decode(dec, sizeof dec, &dlen, longtext, strlen(longtext), &err));
    CHECK(strstr(err.msg, "longer than") != NULL);
    CHECK(!zbc_base58_decode(dec, 3, &dlen, "2NEpo7TZRRrLZSi2U", 17, &err));
    CHECK(strstr(err.msg, "more than") != NULL);
    /* last character changed: checksum fails */
    const char *bad = "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3";
    CHECK(!zbc_base58check_decode(dec, sizeof dec, &dlen, bad, strlen(bad), &err));
    CHECK(strstr(err.msg, "checksum") != NULL);
    CHECK(!zbc_base58check_decode(dec, sizeof dec, &dlen, "2NEp", 4, &err));
    CHECK(strstr(err.msg, "too short") != NULL);
    const char *good = "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2";
    CHECK(!zbc_base58check_decode(dec, 20, &dlen, good, strlen(good), &err));
    /* encode: output buffer too small */
    char small[5];
    CHECK(!zbc_base58_encode(small, sizeof small, (const uint8_t *)"Hello World!", 12));
    /* more than 90 input bytes */
    uint8_t big[91];
    memset(big, 0xff, sizeof big);
    char out[200];
    CHECK(zbc_base58_encode(out, sizeof out, big, 90));
    CHECK(!zbc_base58_encode(out, sizeof out, big, 91));
    CHECK(zbc_base58check_encode(out, sizeof out, big, 86));
    CHECK(!zbc_base58check_encode(out, sizeof out, big, 87));
}

int main(void)
{
    TEST_RUN(test_draft_vectors);
    TEST_RUN(test_check);
    TEST_RUN(test_rejects);
    return test_summary("test_crypto_base58");
}
