/* BIP-39 seed and SLIP-10 Ed25519 derivation: the BIP-39 reference vector
 * (Trezor's vectors.json, entropy 00..00, passphrase "TREZOR"), SLIP-10's
 * own Ed25519 test vector 1, and keys.json "wallets". */
#include <jansson.h>

#include "crypto/address.h"
#include "crypto/hd.h"
#include "crypto/hex.h"
#include "crypto/sig.h"
#include "testlib.h"

static const char *const abandon =
    "abandon abandon abandon abandon abandon abandon abandon abandon "
    "abandon abandon abandon about";

static void test_bip39_reference(void)
{
    uint8_t seed[64], want[64];
    struct zbc_err err;
    CHECK(zbc_bip39_seed(seed, abandon, "TREZOR", &err));
    CHECK(zbc_hex_decode_exact(want, 64,
        "c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e5349553"
        "1f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04"));
    CHECK_EQ_MEM(seed, want, 64);
}

static void test_slip10_vector1(void)
{
    uint8_t seed[16];
    CHECK(zbc_hex_decode_exact(seed, 16, "000102030405060708090a0b0c0d0e0f"));
    struct zbc_slip10_node m, c;
    zbc_slip10_master(&m, seed, sizeof seed);
    char hex[65];
    zbc_hex_encode(hex, m.chain, 32);
    CHECK_EQ_STR(hex, "90046a93de5380a72b5e45010748567d5ea02bbf6522f979e05c0d8d8ca9fffb");
    zbc_hex_encode(hex, m.key, 32);
    CHECK_EQ_STR(hex, "2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7");
    struct zbc_err err;
    CHECK(zbc_slip10_child(&c, &m, 0, &err)); /* m/0' */
    zbc_hex_encode(hex, c.chain, 32);
    CHECK_EQ_STR(hex, "8b59aa11380b624e81507a27fedda59fea6d0b779a778918a2fd3590e16e9c69");
    zbc_hex_encode(hex, c.key, 32);
    CHECK_EQ_STR(hex, "68e0fe46dfb67e368c75379acec591dad19df3cde26e63b93a8e704f1dade7a3");
}

static void test_wallets(void)
{
    char *buf = test_read_file(ZBC_VECTORS_DIR "/zoobc/keys.json");
    json_error_t jerr;
    json_t *root = json_loads(buf, 0, &jerr);
    CHECK(root != NULL);
    json_t *wallets = json_object_get(root, "wallets");
    CHECK(json_array_size(wallets) >= 2);
    size_t i, j;
    json_t *w, *acct;
    int n = 0;
    json_array_foreach(wallets, i, w) {
        uint8_t seed[64];
        struct zbc_err err;
        CHECK(zbc_bip39_seed(seed, json_string_value(json_object_get(w, "mnemonic")),
                             json_string_value(json_object_get(w, "passphrase")), &err));
        json_array_foreach(json_object_get(w, "accounts"), j, acct) {
            uint32_t index = (uint32_t)json_integer_value(json_object_get(acct, "index"));
            uint8_t key[32], pk[32], sk[64];
            CHECK(zbc_hd_account_seed(key, seed, index, &err));
            char hex[65];
            zbc_hex_encode(hex, key, 32);
            CHECK_EQ_STR(hex, json_string_value(json_object_get(acct, "seed")));
            zbc_ed25519_keypair(pk, sk, key);
            zbc_hex_encode(hex, pk, 32);
            CHECK_EQ_STR(hex, json_string_value(json_object_get(acct, "public_key")));
            char text[ZBC_ADDR_TEXT_MAX];
            zbc_addr_zbc_text(text, pk, "ZBC");
            CHECK_EQ_STR(text, json_string_value(json_object_get(acct, "address")));
            zbc_addr_zbc_text(text, pk, "ZNK");
            CHECK_EQ_STR(text, json_string_value(json_object_get(acct, "node_address")));
            n++;
        }
    }
    CHECK(n >= 6);
    json_decref(root);
    free(buf);
}

static void test_rejects(void)
{
    uint8_t seed[64], out[32];
    struct zbc_err err;
    CHECK(!zbc_bip39_seed(seed, "", "", &err));
    CHECK_EQ_STR(err.msg, "empty mnemonic");
    char big[ZBC_HD_TEXT_MAX + 2];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    CHECK(!zbc_bip39_seed(seed, big, "", &err));
    CHECK(strstr(err.msg, "mnemonic longer than") != NULL);
    CHECK(!zbc_bip39_seed(seed, abandon, big, &err));
    CHECK(strstr(err.msg, "passphrase longer than") != NULL);
    /* a passphrase changes the seed */
    uint8_t other[64];
    CHECK(zbc_bip39_seed(seed, abandon, "", &err));
    CHECK(zbc_bip39_seed(other, abandon, "x", &err));
    CHECK(memcmp(seed, other, 64) != 0);
    struct zbc_slip10_node m, c;
    zbc_slip10_master(&m, seed, 64);
    CHECK(!zbc_slip10_child(&c, &m, 0x80000000u, &err));
    CHECK(strstr(err.msg, "out of range") != NULL);
    CHECK(!zbc_hd_account_seed(out, seed, 0x80000000u, &err));
}

int main(void)
{
    TEST_RUN(test_bip39_reference);
    TEST_RUN(test_slip10_vector1);
    TEST_RUN(test_wallets);
    TEST_RUN(test_rejects);
    return test_summary("test_crypto_hd");
}
