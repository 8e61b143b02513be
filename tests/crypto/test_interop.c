/* Signatures made by stock wallet libraries (ethers, bitcoinjs-message)
 * and Keccak-256 values from an independent implementation:
 * tests/vectors/interop/interop.json (see make-interop.js beside it). */
#include <jansson.h>

#include "crypto/hex.h"
#include "crypto/keccak.h"
#include "crypto/sig.h"
#include "testlib.h"

static json_t *root;

static const char *str(json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s != NULL ? s : "";
}

static void test_keccak(void)
{
    json_t *arr = json_object_get(root, "keccak256");
    CHECK(json_array_size(arr) >= 8);
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v) {
        size_t n = (size_t)json_integer_value(json_object_get(v, "len"));
        uint8_t *data = malloc(n + 1);
        for (size_t j = 0; j < n; j++)
            data[j] = (uint8_t)j;
        uint8_t out[32];
        char hex[65];
        zbc_keccak256(out, data, n);
        zbc_hex_encode(hex, out, 32);
        CHECK_EQ_STR(hex, str(v, "hash"));
        free(data);
    }
}

static void test_ethereum(void)
{
    json_t *arr = json_object_get(root, "ethereum");
    CHECK(json_array_size(arr) >= 12);
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v) {
        uint8_t sk[32], digest[32], sig[65], mine[65];
        CHECK(zbc_hex_decode_exact(sk, 32, str(v, "seckey")));
        CHECK(zbc_hex_decode_exact(digest, 32, str(v, "digest")));
        CHECK(zbc_hex_decode_exact(sig, 65, str(v, "signature")));
        struct zbc_addr sender, derived;
        struct zbc_err err;
        CHECK(zbc_addr_parse_text(&sender, str(v, "address"), &err));
        CHECK(zbc_eth_address(&derived, sk));
        CHECK(zbc_addr_equal(&sender, &derived));
        char text[ZBC_ADDR_TEXT_MAX];
        zbc_addr_to_text(text, &derived);
        CHECK_EQ_STR(text, str(v, "address"));
        int ok = zbc_sig_verify(&sender, digest, sig, 65, &err);
        CHECK(ok);
        if (!ok)
            fprintf(stderr, "  ethereum vector %zu: %s\n", i, err.msg);
        /* both sides use RFC 6979 nonces, so the bytes agree */
        CHECK(zbc_eth_sign(mine, sk, digest));
        CHECK_EQ_MEM(mine, sig, 65);
        digest[5] ^= 4;
        CHECK(!zbc_sig_verify(&sender, digest, sig, 65, &err));
    }
}

static void test_bitcoin(void)
{
    json_t *arr = json_object_get(root, "bitcoin");
    CHECK(json_array_size(arr) >= 24);
    size_t i;
    json_t *v;
    int compressed_seen = 0, uncompressed_seen = 0;
    json_array_foreach(arr, i, v) {
        uint8_t sk[32], digest[32], sig[65], mine[65];
        CHECK(zbc_hex_decode_exact(sk, 32, str(v, "seckey")));
        CHECK(zbc_hex_decode_exact(digest, 32, str(v, "digest")));
        CHECK(zbc_hex_decode_exact(sig, 65, str(v, "signature")));
        struct zbc_addr sender;
        memset(&sender, 0, sizeof sender);
        sender.type = ZBC_ACCT_BTC_P2PKH;
        sender.len = 20;
        CHECK(zbc_hex_decode_exact(sender.payload, 20, str(v, "hash160")));
        struct zbc_err err;
        int ok = zbc_sig_verify(&sender, digest, sig, 65, &err);
        CHECK(ok);
        if (!ok)
            fprintf(stderr, "  bitcoin vector %zu: %s\n", i, err.msg);
        if (json_is_true(json_object_get(v, "compressed"))) {
            compressed_seen++;
            CHECK(sig[0] >= 31 && sig[0] <= 34);
            struct zbc_addr derived;
            CHECK(zbc_btc_address(&derived, sk));
            CHECK(zbc_addr_equal(&sender, &derived));
            CHECK(zbc_btc_sign(mine, sk, digest));
            CHECK_EQ_MEM(mine, sig, 65);
        } else {
            uncompressed_seen++;
            CHECK(sig[0] >= 27 && sig[0] <= 30);
        }
        digest[9] ^= 1;
        CHECK(!zbc_sig_verify(&sender, digest, sig, 65, &err));
    }
    CHECK(compressed_seen > 0 && uncompressed_seen > 0);
}

int main(void)
{
    char *buf = test_read_file(ZBC_VECTORS_DIR "/interop/interop.json");
    json_error_t jerr;
    root = json_loads(buf, 0, &jerr);
    if (root == NULL) {
        fprintf(stderr, "interop.json: %s\n", jerr.text);
        return 2;
    }
    TEST_RUN(test_keccak);
    TEST_RUN(test_ethereum);
    TEST_RUN(test_bitcoin);
    json_decref(root);
    free(buf);
    return test_summary("test_crypto_interop");
}
