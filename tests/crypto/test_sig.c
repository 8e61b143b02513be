/* Signature schemes per sender type: round trips and every rejection. */
#include <sodium.h>

#include "crypto/hex.h"
#include "crypto/sig.h"
#include "testlib.h"

/* secp256k1 group order n, big-endian */
static const char *const order_hex =
    "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141";

static void seckey_of(uint8_t sk[32], unsigned last)
{
    memset(sk, 0, 32);
    sk[31] = (uint8_t)last;
}

/* out = n - s (32-byte big-endian), the other S of the same signature */
static void negate_s(uint8_t out[32], const uint8_t s[32])
{
    uint8_t n[32];
    CHECK(zbc_hex_decode_exact(n, 32, order_hex));
    int borrow = 0;
    for (int i = 31; i >= 0; i--) {
        int d = n[i] - s[i] - borrow;
        borrow = d < 0;
        out[i] = (uint8_t)(d + (borrow ? 256 : 0));
    }
}

static void digest_of(uint8_t d[32], uint8_t fill)
{
    for (int i = 0; i < 32; i++)
        d[i] = (uint8_t)(fill + i);
}

static void test_sig_len(void)
{
    size_t len;
    int rest;
    static const struct { uint32_t type; size_t len; int rest; } ok[] = {
        {0, 64, 0}, {3, 64, 0}, {12, 64, 0}, {4, 65, 0}, {13, 98, 0},
        {16, 98, 0}, {1, 0, 1}, {5, 0, 1}, {6, 0, 1}, {7, 0, 1}, {8, 0, 1},
        {9, 0, 1},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        CHECK(zbc_sig_len_for_type(ok[i].type, &len, &rest));
        CHECK_EQ_INT(len, ok[i].len);
        CHECK_EQ_INT(rest, ok[i].rest);
    }
    static const uint32_t none[] = {2, 10, 11, 14, 15, 17, 0xffffffffu};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
        CHECK(!zbc_sig_len_for_type(none[i], &len, &rest));
}

static void test_ed25519(void)
{
    uint8_t seed[32], pk[32], sk[64], digest[32], sig[64];
    memset(seed, 0x11, 32);
    zbc_ed25519_keypair(pk, sk, seed);
    uint8_t want_pk[32];
    CHECK(zbc_hex_decode_exact(want_pk, 32,
        "d04ab232742bb4ab3a1368bd4615e4e6d0224ab71a016baf8520a332c9778737"));
    CHECK_EQ_MEM(pk, want_pk, 32);
    digest_of(digest, 7);
    zbc_ed25519_sign(sig, sk, digest, 32);
    CHECK(zbc_ed25519_verify(sig, pk, digest, 32));

    struct zbc_addr sender;
    zbc_addr_from_ed25519(&sender, pk);
    struct zbc_err err;
    CHECK(zbc_sig_verify(&sender, digest, sig, 64, &err));

    for (int bit = 0; bit < 512; bit += 37) {
        sig[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        CHECK(!zbc_sig_verify(&sender, digest, sig, 64, &err));
        sig[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    }
    CHECK(strstr(err.msg, "Ed25519 signature does not verify") != NULL);
    digest[0] ^= 1;
    CHECK(!zbc_sig_verify(&sender, digest, sig, 64, &err));
    digest[0] ^= 1;
    CHECK(!zbc_sig_verify(&sender, digest, sig, 63, &err));
    CHECK_EQ_STR(err.msg, "ZooBC signature must be 64 bytes, got 63");
    CHECK(!zbc_sig_verify(&sender, digest, sig, 65, &err));
}

/* The Ed25519 rules of docs/crypto.md §4 are consensus: pin libsodium's
 * (a build with ED25519_COMPAT or an old release would differ).  Each
 * signature below satisfies the cofactorless equation S*B = R + k*A, so
 * only the canonicality rules refuse it. */
static const uint8_t ed_order_l[32] = {
    0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7,
    0xa2, 0xde, 0xf9, 0xde, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0x10};

/* k = SHA-512(R || A || M) mod L */
static void ed_challenge(uint8_t k[32], const uint8_t r[32], const uint8_t a[32],
                         const uint8_t *m, size_t mlen)
{
    crypto_hash_sha512_state st;
    uint8_t h[64];
    crypto_hash_sha512_init(&st);
    crypto_hash_sha512_update(&st, r, 32);
    crypto_hash_sha512_update(&st, a, 32);
    crypto_hash_sha512_update(&st, m, mlen);
    crypto_hash_sha512_final(&st, h);
    crypto_core_ed25519_scalar_reduce(k, h);
}

static void test_ed25519_canonical_rules(void)
{
    uint8_t seed[32], pk[32], sk[64], digest[32], sig[64], alt[64];
    struct zbc_addr sender;
    struct zbc_err err;
    memset(seed, 0x5a, 32);
    zbc_ed25519_keypair(pk, sk, seed);
    zbc_addr_from_ed25519(&sender, pk);
    digest_of(digest, 3);
    zbc_ed25519_sign(sig, sk, digest, 32);
    CHECK(zbc_sig_verify(&sender, digest, sig, 64, &err));

    /* S + L: the same scalar, a second encoding (third-party malleable) */
    memcpy(alt, sig, 64);
    unsigned carry = 0;
    for (int i = 0; i < 32; i++) {
        carry += (unsigned)alt[32 + i] + ed_order_l[i];
        alt[32 + i] = (uint8_t)carry;
        carry >>= 8;
    }
    CHECK(carry == 0);
    CHECK(!zbc_sig_verify(&sender, digest, alt, 64, &err));

    /* R = identity, S = k*a: S*B = k*A holds, R has small order */
    uint8_t hs[64], a[32], wide[64] = {0}, k[32], sb[32], ka[32];
    crypto_hash_sha512(hs, seed, 32);
    hs[0] &= 248;
    hs[31] &= 127;
    hs[31] |= 64;
    memcpy(wide, hs, 32);
    crypto_core_ed25519_scalar_reduce(a, wide);
    memset(alt, 0, 64);
    alt[0] = 1;
    ed_challenge(k, alt, pk, digest, 32);
    crypto_core_ed25519_scalar_mul(alt + 32, k, a);
    CHECK(crypto_scalarmult_ed25519_base_noclamp(sb, alt + 32) == 0);
    CHECK(crypto_scalarmult_ed25519_noclamp(ka, k, pk) == 0);
    CHECK_EQ_MEM(sb, ka, 32); /* the equation holds */
    CHECK(!zbc_sig_verify(&sender, digest, alt, 64, &err));

    /* A of order 8 and R = r*B, S = r with 8 | k: R + k*A = R */
    uint8_t t8[32], r[32];
    CHECK(zbc_hex_decode_exact(t8, 32,
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"));
    struct zbc_addr weak;
    zbc_addr_from_ed25519(&weak, t8);
    int tries = 0;
    do {
        crypto_core_ed25519_scalar_random(r);
        CHECK(crypto_scalarmult_ed25519_base_noclamp(alt, r) == 0);
        ed_challenge(k, alt, t8, digest, 32);
        tries++;
    } while ((k[0] & 7) != 0 && tries < 1000);
    CHECK((k[0] & 7) == 0);
    memcpy(alt + 32, r, 32);
    CHECK(!zbc_sig_verify(&weak, digest, alt, 64, &err));
    sodium_memzero(hs, sizeof hs);
    sodium_memzero(a, sizeof a);
    sodium_memzero(wide, sizeof wide);
}

static void test_eth(void)
{
    uint8_t sk[32], digest[32], sig[65];
    seckey_of(sk, 1);
    struct zbc_addr sender, other;
    CHECK(zbc_eth_address(&sender, sk));
    char text[ZBC_ADDR_TEXT_MAX];
    zbc_addr_to_text(text, &sender);
    /* the well-known address of private key 1 */
    CHECK_EQ_STR(text, "0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf");
    digest_of(digest, 40);
    CHECK(zbc_eth_sign(sig, sk, digest));
    CHECK(sig[64] == 27 || sig[64] == 28);
    struct zbc_err err;
    CHECK(zbc_sig_verify(&sender, digest, sig, 65, &err));

    /* v as 0/1 is a second encoding of the same signature: refused, so a
     * third party cannot make a second transaction hash from it */
    uint8_t alt[65];
    memcpy(alt, sig, 65);
    alt[64] = (uint8_t)(sig[64] - 27);
    CHECK(!zbc_sig_verify(&sender, digest, alt, 65, &err));
    CHECK(strstr(err.msg, "want 27 or 28") != NULL);
    /* wrong v */
    alt[64] = 29;
    CHECK(!zbc_sig_verify(&sender, digest, alt, 65, &err));
    CHECK_EQ_STR(err.msg, "Ethereum signature has v = 29 (want 27 or 28)");
    alt[64] = 2;
    CHECK(!zbc_sig_verify(&sender, digest, alt, 65, &err));
    /* the other recovery id recovers another key */
    alt[64] = (uint8_t)(sig[64] == 27 ? 28 : 27);
    CHECK(!zbc_sig_verify(&sender, digest, alt, 65, &err));
    CHECK(strstr(err.msg, "another key") != NULL);

    /* high S: (r, n - s) with the other parity recovers the same key, and
     * is refused */
    memcpy(alt, sig, 65);
    negate_s(alt + 32, sig + 32);
    alt[64] = (uint8_t)(sig[64] == 27 ? 28 : 27);
    CHECK(!zbc_sig_verify(&sender, digest, alt, 65, &err));
    CHECK(strstr(err.msg, "high S") != NULL);

    /* r out of range */
    memcpy(alt, sig, 65);
    CHECK(zbc_hex_decode_exact(alt, 32, order_hex));
    CHECK(!zbc_sig_verify(&sender, digest, alt, 65, &err));
    CHECK(strstr(err.msg, "out of range") != NULL);
    /* r = 0: nothing recovers */
    memset(alt, 0, 32);
    CHECK(!zbc_sig_verify(&sender, digest, alt, 65, &err));

    /* another address, another digest, truncated or long signature */
    uint8_t sk2[32];
    seckey_of(sk2, 2);
    CHECK(zbc_eth_address(&other, sk2));
    CHECK(!zbc_sig_verify(&other, digest, sig, 65, &err));
    CHECK_EQ_STR(err.msg, "Ethereum signature was made by another key than the sender's address");
    digest[31] ^= 0x80;
    CHECK(!zbc_sig_verify(&sender, digest, sig, 65, &err));
    digest[31] ^= 0x80;
    CHECK(!zbc_sig_verify(&sender, digest, sig, 64, &err));
    CHECK_EQ_STR(err.msg, "Ethereum signature must be 65 bytes (r||s||v), got 64");
    CHECK(!zbc_sig_verify(&sender, digest, sig, 0, &err));
}

static void test_btc(void)
{
    uint8_t sk[32], digest[32], sig[65];
    seckey_of(sk, 1);
    struct zbc_addr sender, other;
    CHECK(zbc_btc_address(&sender, sk));
    char text[ZBC_ADDR_TEXT_MAX];
    zbc_addr_to_text(text, &sender);
    /* the well-known compressed-key address of private key 1 */
    CHECK_EQ_STR(text, "1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH");
    digest_of(digest, 90);
    CHECK(zbc_btc_sign(sig, sk, digest));
    CHECK(sig[0] >= 31 && sig[0] <= 34);
    struct zbc_err err;
    CHECK(zbc_sig_verify(&sender, digest, sig, 65, &err));
    /* the legacy type 1 with the same hash verifies the same way */
    struct zbc_addr legacy = sender;
    legacy.type = ZBC_ACCT_BTC_LEGACY;
    CHECK(zbc_sig_verify(&legacy, digest, sig, 65, &err));

    uint8_t alt[65];
    memcpy(alt, sig, 65);
    /* the uncompressed header recovers the same point, whose uncompressed
     * hash160 is another address */
    alt[0] = (uint8_t)(sig[0] - 4);
    CHECK(!zbc_sig_verify(&sender, digest, alt, 65, &err));
    CHECK(strstr(err.msg, "another key") != NULL);
    alt[0] = 26;
    CHECK(!zbc_sig_verify(&sender, digest, alt, 65, &err));
    CHECK_EQ_STR(err.msg, "Bitcoin signature has header byte 26 (want 27 to 34)");
    alt[0] = 35;
    CHECK(!zbc_sig_verify(&sender, digest, alt, 65, &err));
    /* high S */
    memcpy(alt, sig, 65);
    negate_s(alt + 33, sig + 33);
    alt[0] = (uint8_t)(31 + ((sig[0] - 31) ^ 1));
    CHECK(!zbc_sig_verify(&sender, digest, alt, 65, &err));
    CHECK(strstr(err.msg, "high S") != NULL);
    /* wrong address, wrong digest, truncated */
    uint8_t sk2[32];
    seckey_of(sk2, 2);
    CHECK(zbc_btc_address(&other, sk2));
    CHECK(!zbc_sig_verify(&other, digest, sig, 65, &err));
    CHECK_EQ_STR(err.msg, "Bitcoin signature was made by another key than the sender's address");
    digest[0] ^= 1;
    CHECK(!zbc_sig_verify(&sender, digest, sig, 65, &err));
    digest[0] ^= 1;
    CHECK(!zbc_sig_verify(&sender, digest, sig, 64, &err));
    CHECK_EQ_STR(err.msg, "Bitcoin signature must be 65 bytes (header||r||s), got 64");
    CHECK(!zbc_sig_verify(&sender, digest, sig, 66, &err));
}

static void test_unsupported_senders(void)
{
    uint8_t digest[32] = {0}, sig[65] = {0};
    struct zbc_addr a;
    struct zbc_err err;
    memset(&a, 0, sizeof a);
    a.type = 6;
    a.len = 20;
    CHECK(!zbc_sig_verify(&a, digest, sig, 65, &err));
    CHECK(strstr(err.msg, "account type 6 cannot sign on this chain") != NULL);
    zbc_addr_empty(&a);
    CHECK(!zbc_sig_verify(&a, digest, sig, 65, &err));
    CHECK(strstr(err.msg, "account type 2 cannot sign") != NULL);
    a.type = 3;
    a.len = 32;
    CHECK(!zbc_sig_verify(&a, digest, sig, 64, &err));
    /* payload length that does not fit the type */
    a.type = 4;
    a.len = 32;
    CHECK(!zbc_sig_verify(&a, digest, sig, 65, &err));
    CHECK(strstr(err.msg, "32-byte payload") != NULL);
    a.type = 99;
    a.len = 20;
    CHECK(!zbc_sig_verify(&a, digest, sig, 65, &err));
}

static void test_bad_seckeys(void)
{
    uint8_t zero[32] = {0}, n[32], sig[65], digest[32] = {0};
    CHECK(zbc_hex_decode_exact(n, 32, order_hex));
    struct zbc_addr a;
    CHECK(!zbc_eth_sign(sig, zero, digest));
    CHECK(!zbc_btc_sign(sig, n, digest));
    CHECK(!zbc_eth_address(&a, n));
    CHECK(!zbc_btc_address(&a, zero));
}

int main(void)
{
    TEST_RUN(test_sig_len);
    TEST_RUN(test_ed25519);
    TEST_RUN(test_ed25519_canonical_rules);
    TEST_RUN(test_eth);
    TEST_RUN(test_btc);
    TEST_RUN(test_unsupported_senders);
    TEST_RUN(test_bad_seckeys);
    return test_summary("test_crypto_sig");
}
