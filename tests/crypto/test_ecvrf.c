/* ECVRF-EDWARDS25519-SHA512-TAI against RFC 9381 Appendix B.3. */
#include <jansson.h>
#include <sodium.h>

#include "crypto/ecvrf.h"
#include "crypto/hex.h"
#include "testlib.h"

struct vec {
    uint8_t sk[32], pk[32], pi[80], beta[64], alpha[64];
    size_t alpha_len;
};

static struct vec vecs[8];
static size_t nvecs;

static void load(void)
{
    json_error_t je;
    json_t *root = json_load_file(ZBC_VECTORS_DIR "/ecvrf-edwards25519-sha512-tai.json", 0, &je);
    CHECK(root != NULL);
    if (!root)
        exit(1);
    json_t *arr = json_object_get(root, "vectors"), *v;
    size_t i;
    json_array_foreach(arr, i, v) {
        struct vec *x = &vecs[nvecs++];
        const char *alpha = json_string_value(json_object_get(v, "alpha"));
        CHECK(zbc_hex_decode_exact(x->sk, 32, json_string_value(json_object_get(v, "sk"))));
        CHECK(zbc_hex_decode_exact(x->pk, 32, json_string_value(json_object_get(v, "pk"))));
        CHECK(zbc_hex_decode_exact(x->pi, 80, json_string_value(json_object_get(v, "pi"))));
        CHECK(zbc_hex_decode_exact(x->beta, 64, json_string_value(json_object_get(v, "beta"))));
        CHECK(zbc_hex_decode(x->alpha, sizeof x->alpha, &x->alpha_len, alpha, strlen(alpha)));
    }
    CHECK_EQ_INT(nvecs, 3);
    json_decref(root);
}

static void test_prove_vectors(void)
{
    for (size_t i = 0; i < nvecs; i++) {
        struct vec *x = &vecs[i];
        uint8_t pk[32], pi[80], beta[64];
        struct zbc_err err;
        zbc_vrf_public_key(pk, x->sk);
        CHECK_EQ_MEM(pk, x->pk, 32);
        CHECK(zbc_vrf_prove(pi, x->sk, x->alpha, x->alpha_len, &err));
        CHECK_EQ_MEM(pi, x->pi, 80);
        CHECK(zbc_vrf_proof_to_hash(beta, pi, &err));
        CHECK_EQ_MEM(beta, x->beta, 64);
    }
}

static void test_verify_vectors(void)
{
    for (size_t i = 0; i < nvecs; i++) {
        struct vec *x = &vecs[i];
        uint8_t beta[64];
        struct zbc_err err;
        memset(beta, 0, sizeof beta);
        CHECK(zbc_vrf_verify(beta, x->pk, x->pi, x->alpha, x->alpha_len, &err));
        CHECK_EQ_MEM(beta, x->beta, 64);
    }
}

static void test_every_flipped_bit_rejected(void)
{
    for (size_t i = 0; i < nvecs; i++) {
        struct vec *x = &vecs[i];
        int accepted = 0;
        for (int bit = 0; bit < 640; bit++) {
            uint8_t pi[80], beta[64];
            struct zbc_err err;
            memcpy(pi, x->pi, 80);
            pi[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            if (zbc_vrf_verify(beta, x->pk, pi, x->alpha, x->alpha_len, &err))
                accepted++;
        }
        CHECK_EQ_INT(accepted, 0);
    }
}

static void test_wrong_alpha_and_key(void)
{
    struct zbc_err err;
    uint8_t beta[64];
    /* vector 1 proves alpha "72"; "73" and "" must fail */
    uint8_t alpha = 0x73;
    CHECK(!zbc_vrf_verify(beta, vecs[1].pk, vecs[1].pi, &alpha, 1, &err));
    CHECK(strstr(err.msg, "does not verify") != NULL);
    CHECK(!zbc_vrf_verify(beta, vecs[1].pk, vecs[1].pi, NULL, 0, &err));
    /* another vector's key */
    CHECK(!zbc_vrf_verify(beta, vecs[0].pk, vecs[1].pi, vecs[1].alpha, 1, &err));
}

static void test_bad_public_keys(void)
{
    struct zbc_err err;
    uint8_t beta[64], pk[32];
    /* identity: small order */
    memset(pk, 0, 32);
    pk[0] = 1;
    CHECK(!zbc_vrf_verify(beta, pk, vecs[0].pi, NULL, 0, &err));
    CHECK(strstr(err.msg, "small order") != NULL);
    /* a point of order 8 (y = sqrt(-1)-related torsion point from RFC 8032
     * test lists): 26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05 */
    CHECK(zbc_hex_decode_exact(pk, 32,
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"));
    CHECK(!zbc_vrf_verify(beta, pk, vecs[0].pi, NULL, 0, &err));
    CHECK(strstr(err.msg, "small order") != NULL);
    /* y >= p: not canonical */
    memset(pk, 0xff, 32);
    pk[31] = 0x7f;
    CHECK(!zbc_vrf_verify(beta, pk, vecs[0].pi, NULL, 0, &err));
    CHECK(strstr(err.msg, "not a valid curve point") != NULL);
    /* x = 0 with the sign bit set (y = 1) */
    memset(pk, 0, 32);
    pk[0] = 1;
    pk[31] = 0x80;
    CHECK(!zbc_vrf_verify(beta, pk, vecs[0].pi, NULL, 0, &err));
    CHECK(strstr(err.msg, "not a valid curve point") != NULL);
    /* y = 2 is not on the curve */
    memset(pk, 0, 32);
    pk[0] = 2;
    CHECK(!zbc_vrf_verify(beta, pk, vecs[0].pi, NULL, 0, &err));
    CHECK(strstr(err.msg, "not a valid curve point") != NULL);
}

static void test_bad_proofs(void)
{
    struct zbc_err err;
    uint8_t beta[64], pi[80];
    /* s = L exactly: rejected by decode_proof */
    static const uint8_t order_l[32] = {
        0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7,
        0xa2, 0xde, 0xf9, 0xde, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0x10};
    memcpy(pi, vecs[0].pi, 80);
    memcpy(pi + 48, order_l, 32);
    CHECK(!zbc_vrf_verify(beta, vecs[0].pk, pi, NULL, 0, &err));
    CHECK(strstr(err.msg, "below the group order") != NULL);
    CHECK(!zbc_vrf_proof_to_hash(beta, pi, &err));
    /* Gamma not on the curve */
    memcpy(pi, vecs[0].pi, 80);
    memset(pi, 0, 32);
    pi[0] = 2;
    CHECK(!zbc_vrf_verify(beta, vecs[0].pk, pi, NULL, 0, &err));
    CHECK(strstr(err.msg, "Gamma") != NULL);
    CHECK(!zbc_vrf_proof_to_hash(beta, pi, &err));
}

/* A key whose public point carries a torsion component is still a valid
 * VRF key (validate_key only rejects small order): prove by hand is not
 * possible with such a key, but verify must still run its arithmetic on a
 * non-subgroup point without failing; the proof simply does not match. */
static void test_torsioned_key_runs(void)
{
    struct zbc_err err;
    uint8_t beta[64], t8[32], pk[32];
    CHECK(zbc_hex_decode_exact(t8, 32,
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"));
    CHECK(crypto_core_ed25519_add(pk, vecs[0].pk, t8) == 0);
    CHECK(!zbc_vrf_verify(beta, pk, vecs[0].pi, NULL, 0, &err));
    CHECK(strstr(err.msg, "does not verify") != NULL);
}

static void test_roundtrip_random_inputs(void)
{
    for (int i = 0; i < 20; i++) {
        uint8_t seed[32], pk[32], pi[80], beta1[64], beta2[64], alpha[40];
        struct zbc_err err;
        randombytes_buf(seed, sizeof seed);
        randombytes_buf(alpha, sizeof alpha);
        zbc_vrf_public_key(pk, seed);
        CHECK(zbc_vrf_prove(pi, seed, alpha, (size_t)i, &err));
        CHECK(zbc_vrf_verify(beta1, pk, pi, alpha, (size_t)i, &err));
        CHECK(zbc_vrf_proof_to_hash(beta2, pi, &err));
        CHECK_EQ_MEM(beta1, beta2, 64);
    }
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    load();
    TEST_RUN(test_prove_vectors);
    TEST_RUN(test_verify_vectors);
    TEST_RUN(test_every_flipped_bit_rejected);
    TEST_RUN(test_wrong_alpha_and_key);
    TEST_RUN(test_bad_public_keys);
    TEST_RUN(test_bad_proofs);
    TEST_RUN(test_torsioned_key_runs);
    TEST_RUN(test_roundtrip_random_inputs);
    return test_summary("crypto_ecvrf");
}
