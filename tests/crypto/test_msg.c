/* ZBC-MSG-v1: every vector of tests/vectors/zoobc/messages.json. */
#include <jansson.h>

#include "crypto/address.h"
#include "crypto/hex.h"
#include "crypto/msg.h"
#include "crypto/sig.h"
#include "testlib.h"

static json_t *root;

static const char *str(json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s != NULL ? s : "";
}

static void test_vectors(void)
{
    json_t *arr = json_object_get(root, "vectors");
    CHECK(json_array_size(arr) >= 6);
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v) {
        uint8_t seed[32], msg[256], sig[64], want_sig[64], digest[32], want_digest[32];
        size_t len;
        const char *mhex = str(v, "message_hex");
        CHECK(zbc_hex_decode(msg, sizeof msg, &len, mhex, strlen(mhex)));
        if (!json_is_true(json_object_get(v, "hex_input"))) {
            /* the text message is those UTF-8 bytes */
            CHECK_EQ_INT(len, strlen(str(v, "message")));
            CHECK_EQ_MEM(msg, str(v, "message"), len);
        }
        CHECK(zbc_hex_decode_exact(seed, 32, str(v, "seed")));
        CHECK(zbc_hex_decode_exact(want_sig, 64, str(v, "signature")));
        CHECK(zbc_hex_decode_exact(want_digest, 32, str(v, "digest")));
        zbc_msg_digest(digest, msg, len);
        CHECK_EQ_MEM(digest, want_digest, 32);
        zbc_msg_sign(sig, seed, msg, len);
        CHECK_EQ_MEM(sig, want_sig, 64);

        uint8_t pk[32];
        CHECK(zbc_hex_decode_exact(pk, 32, str(v, "public_key")));
        struct zbc_err err;
        CHECK(zbc_msg_verify(pk, msg, len, sig, 64, &err));
        int bad = -1;
        CHECK(zbc_msg_verify_text(str(v, "address"), msg, len, str(v, "signature"), &bad, &err));
        /* one more byte of message */
        msg[len] = 0;
        CHECK(!zbc_msg_verify(pk, msg, len + 1, sig, 64, &err));
    }
}

static void test_invalid(void)
{
    json_t *arr = json_object_get(root, "invalid");
    CHECK(json_array_size(arr) >= 6);
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v) {
        const char *m = str(v, "message");
        int bad = -1;
        struct zbc_err err = {{0}};
        int ok = zbc_msg_verify_text(str(v, "address"), (const uint8_t *)m, strlen(m),
                                     str(v, "signature"), &bad, &err);
        CHECK(!ok);
        int code = (int)json_integer_value(json_object_get(v, "exit_code"));
        /* exit 2: malformed input; exit 10: does not verify */
        CHECK_EQ_INT(bad, code == 2);
        printf("  %s: %s\n", str(v, "case"), err.msg);
    }
}

static void test_tag_separation(void)
{
    /* a message signature is not a signature over the raw message */
    uint8_t seed[32], sig[64], pk[32], sk[64];
    memset(seed, 0x11, 32);
    zbc_msg_sign(sig, seed, (const uint8_t *)"x", 1);
    zbc_ed25519_keypair(pk, sk, seed);
    CHECK(!zbc_ed25519_verify(sig, pk, (const uint8_t *)"x", 1));
    struct zbc_err err;
    CHECK(!zbc_msg_verify(pk, (const uint8_t *)"x", 1, sig, 63, &err));
    CHECK_EQ_STR(err.msg, "message signature must be 64 bytes, got 63");
    int bad = -1;
    CHECK(!zbc_msg_verify_text("hello", (const uint8_t *)"x", 1, "00", &bad, &err));
    CHECK_EQ_INT(bad, 1);
    CHECK(strstr(err.msg, "signer address: ") == err.msg);
}

int main(void)
{
    char *buf = test_read_file(ZBC_VECTORS_DIR "/zoobc/messages.json");
    json_error_t jerr;
    root = json_loads(buf, 0, &jerr);
    if (root == NULL) {
        fprintf(stderr, "messages.json: %s\n", jerr.text);
        return 2;
    }
    TEST_RUN(test_vectors);
    TEST_RUN(test_invalid);
    TEST_RUN(test_tag_separation);
    json_decref(root);
    free(buf);
    return test_summary("test_crypto_msg");
}
