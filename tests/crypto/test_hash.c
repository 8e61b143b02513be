/* crypto/hash.c wrappers against published vectors (FIPS 180-2 / 202
 * examples, the RIPEMD-160 authors' page, RFC 4231). */
#include "crypto/hash.h"
#include "crypto/hex.h"
#include "testlib.h"

static void check(const uint8_t *got, size_t len, const char *want)
{
    char hex[129];
    zbc_hex_encode(hex, got, len);
    CHECK_EQ_STR(hex, want);
}

static void test_sha3_256(void)
{
    uint8_t out[32];
    zbc_sha3_256(out, "abc", 3);
    check(out, 32, "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532");
    zbc_sha3_256(out, "", 0);
    check(out, 32, "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a");
}

static void test_sha3_incremental(void)
{
    struct zbc_sha3 h;
    uint8_t out[32];
    zbc_sha3_init(&h);
    zbc_sha3_update(&h, "a", 1);
    zbc_sha3_update(&h, "", 0);
    zbc_sha3_update(&h, "bc", 2);
    zbc_sha3_final(&h, out);
    check(out, 32, "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532");
}

static void test_sha256(void)
{
    uint8_t out[32];
    zbc_sha256(out, "abc", 3);
    check(out, 32, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    /* SHA-256 of the 32 bytes above, i.e. Bitcoin's double SHA-256. */
    zbc_sha256d(out, "abc", 3);
    uint8_t once[32], twice[32];
    zbc_sha256(once, "abc", 3);
    zbc_sha256(twice, once, 32);
    CHECK_EQ_MEM(out, twice, 32);
}

static void test_ripemd160(void)
{
    uint8_t out[20];
    zbc_ripemd160(out, "abc", 3);
    check(out, 20, "8eb208f7e05d987a9b044a8e98c6b087f15a0bfc");
    zbc_ripemd160(out, "", 0);
    check(out, 20, "9c1185a5c5e9fc54612808977ee8f548b2258d31");
}

/* hash160 of the compressed public key of private key 1, the payload of
 * the well-known address 1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH. */
static void test_hash160(void)
{
    uint8_t pub[33], out[20];
    CHECK(zbc_hex_decode_exact(pub, 33,
        "0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"));
    zbc_hash160(out, pub, 33);
    check(out, 20, "751e76e8199196d454941c45d1b3a323f1433bd6");
}

static void test_sha512(void)
{
    uint8_t out[64];
    zbc_sha512(out, "abc", 3);
    check(out, 64, "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                   "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f");
}

static void test_hmac_sha256(void)
{
    uint8_t key[20], out[32];
    memset(key, 0x0b, sizeof key);
    zbc_hmac_sha256(out, key, sizeof key, "Hi There", 8);
    check(out, 32, "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
    const char *data = "what do ya want for nothing?";
    zbc_hmac_sha256(out, "Jefe", 4, data, strlen(data));
    check(out, 32, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

static void test_hmac_sha512(void)
{
    uint8_t key[20], out[64];
    memset(key, 0x0b, sizeof key);
    zbc_hmac_sha512(out, key, sizeof key, "Hi There", 8);
    check(out, 64, "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cde"
                   "daa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854");
    const char *data = "what do ya want for nothing?";
    zbc_hmac_sha512(out, "Jefe", 4, data, strlen(data));
    check(out, 64, "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"
                   "9758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737");
}

int main(void)
{
    TEST_RUN(test_sha3_256);
    TEST_RUN(test_sha3_incremental);
    TEST_RUN(test_sha256);
    TEST_RUN(test_ripemd160);
    TEST_RUN(test_hash160);
    TEST_RUN(test_sha512);
    TEST_RUN(test_hmac_sha256);
    TEST_RUN(test_hmac_sha512);
    return test_summary("test_crypto_hash");
}
