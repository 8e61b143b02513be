/* keys.json "seeds": seed -> Ed25519 public key -> ZBC_ and ZNK_ text. */
#include <jansson.h>

#include "crypto/address.h"
#include "crypto/hex.h"
#include "crypto/sig.h"
#include "testlib.h"

static void test_seeds(void)
{
    char *buf = test_read_file(ZBC_VECTORS_DIR "/zoobc/keys.json");
    json_error_t jerr;
    json_t *root = json_loads(buf, 0, &jerr);
    CHECK(root != NULL);
    json_t *arr = json_object_get(root, "seeds");
    CHECK(json_array_size(arr) >= 6);
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v) {
        uint8_t seed[32], pk[32], sk[64];
        CHECK(zbc_hex_decode_exact(seed, 32, json_string_value(json_object_get(v, "seed"))));
        zbc_ed25519_keypair(pk, sk, seed);
        char hex[65];
        zbc_hex_encode(hex, pk, 32);
        CHECK_EQ_STR(hex, json_string_value(json_object_get(v, "public_key")));
        char text[ZBC_ADDR_TEXT_MAX];
        zbc_addr_zbc_text(text, pk, "ZBC");
        CHECK_EQ_STR(text, json_string_value(json_object_get(v, "address")));
        zbc_addr_zbc_text(text, pk, "ZNK");
        CHECK_EQ_STR(text, json_string_value(json_object_get(v, "node_address")));
        /* and back */
        uint8_t back[32];
        char prefix[4];
        struct zbc_err err;
        CHECK(zbc_addr_zbc_parse(back, prefix, json_string_value(json_object_get(v, "node_address")), &err));
        CHECK_EQ_STR(prefix, "ZNK");
        CHECK_EQ_MEM(back, pk, 32);
        struct zbc_addr a;
        CHECK(zbc_addr_parse_text(&a, json_string_value(json_object_get(v, "address")), &err));
        CHECK_EQ_INT(a.type, 0);
        CHECK_EQ_MEM(a.payload, pk, 32);
    }
    json_decref(root);
    free(buf);
}

int main(void)
{
    TEST_RUN(test_seeds);
    return test_summary("test_crypto_keys");
}
