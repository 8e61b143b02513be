/* Constant-time checks, after libsecp256k1's ctime_tests: every secret
 * input is marked undefined with valgrind's client requests, the secret-
 * handling operations run, and valgrind memcheck reports any branch or
 * memory index that depends on the secret ("Conditional jump or move
 * depends on uninitialised value(s)", "Use of uninitialised value").
 * Outputs are marked defined again before they are checked against
 * vectors, so the program still verifies the results.
 *
 * Run under valgrind only (meson test -C build --suite ctime): outside it
 * the marks do nothing and the program refuses to run.  The crypto sources
 * are compiled into this program with ZBC_CTIME_CHECKS, which turns
 * zbc_declassify (crypto/declassify.h) on; keyfile.c is included below to
 * reach its secretbox step.  Suppressions: tests/ctime/valgrind.supp.
 * Not checked, and why: docs/crypto.md "Constant time". */
#include <valgrind/memcheck.h>

#include <secp256k1.h>
#include <sodium.h>

#include "crypto/ecvrf.h"
#include "crypto/hd.h"
#include "crypto/hex.h"
#include "crypto/msg.h"
#include "crypto/sig.h"
#include "testlib.h"

#include "crypto/keyfile.c"

#define SECRET(p, n) ((void)VALGRIND_MAKE_MEM_UNDEFINED((p), (n)))
#define PUBLIC(p, n) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (n)))

static void unhex(uint8_t *out, size_t n, const char *hex)
{
    if (!zbc_hex_decode_exact(out, n, hex)) {
        fprintf(stderr, "bad hex constant %s\n", hex);
        exit(1);
    }
}

/* RFC 8032 §7.1 TEST 1 (also RFC 9381 B.3 example 16). */
static const char *const rfc8032_seed =
    "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
static const char *const rfc8032_pk =
    "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
static const char *const rfc8032_sig =
    "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b";

static void test_ed25519(void)
{
    uint8_t seed[32], pk[32], sk[64], sig[64], want_pk[32], want_sig[64];
    unhex(seed, 32, rfc8032_seed);
    unhex(want_pk, 32, rfc8032_pk);
    unhex(want_sig, 64, rfc8032_sig);
    SECRET(seed, 32);
    zbc_ed25519_keypair(pk, sk, seed);
    PUBLIC(pk, 32);
    zbc_ed25519_sign(sig, sk, (const uint8_t *)"", 0);
    PUBLIC(sig, 64);
    CHECK_EQ_MEM(pk, want_pk, 32);
    CHECK_EQ_MEM(sig, want_sig, 64);
}

static void test_msg(void)
{
    static const uint8_t text[] = "I own this account";
    uint8_t seed[32], pk[32], sig[64];
    struct zbc_err err;
    unhex(seed, 32, rfc8032_seed);
    unhex(pk, 32, rfc8032_pk);
    SECRET(seed, 32);
    zbc_msg_sign(sig, seed, text, sizeof text - 1);
    PUBLIC(sig, 64);
    CHECK(zbc_msg_verify(pk, text, sizeof text - 1, sig, 64, &err));
    sig[0] ^= 1;
    CHECK(!zbc_msg_verify(pk, text, sizeof text - 1, sig, 64, &err));
}

/* RFC 9381 Appendix B.3, examples 16 and 17. */
static void test_vrf(void)
{
    static const struct {
        const char *sk, *pk, *alpha, *pi, *beta;
    } v[] = {
        {"9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
         "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
         "8657106690b5526245a92b003bb079ccd1a92130477671f6fc01ad16f26f723f26f8a57ccaed74ee1b190bed1f479d9727d2d0f9b005a6e456a35d4fb0daab1268a1b0db10836d9826a528ca76567805",
         "90cf1df3b703cce59e2a35b925d411164068269d7b2d29f3301c03dd757876ff66b71dda49d2de59d03450451af026798e8f81cd2e333de5cdf4f3e140fdd8ae"},
        {"4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
         "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
         "f3141cd382dc42909d19ec5110469e4feae18300e94f304590abdced48aed5933bf0864a62558b3ed7f2fea45c92a465301b3bbf5e3e54ddf2d935be3b67926da3ef39226bbc355bdc9850112c8f4b02",
         "eb4440665d3891d668e7e0fcaf587f1b4bd7fbfe99d0eb2211ccec90496310eb5e33821bc613efb94db5e5b54c70a848a0bef4553a41befc57663b56373a5031"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        uint8_t seed[32], pk[32], want_pk[32], alpha[1], pi[80], want_pi[80];
        uint8_t beta[64], want_beta[64];
        size_t alen = strlen(v[i].alpha) / 2;
        struct zbc_err err;
        unhex(seed, 32, v[i].sk);
        unhex(want_pk, 32, v[i].pk);
        unhex(alpha, alen, v[i].alpha);
        unhex(want_pi, 80, v[i].pi);
        unhex(want_beta, 64, v[i].beta);
        SECRET(seed, 32);
        zbc_vrf_public_key(pk, seed);
        PUBLIC(pk, 32);
        int ok = zbc_vrf_prove(pi, seed, alpha, alen, &err);
        PUBLIC(&ok, sizeof ok);
        PUBLIC(pi, 80);
        CHECK(ok);
        CHECK_EQ_MEM(pk, want_pk, 32);
        CHECK_EQ_MEM(pi, want_pi, 80);
        CHECK(zbc_vrf_verify(beta, pk, pi, alpha, alen, &err));
        CHECK_EQ_MEM(beta, want_beta, 64);
    }
}

/* secp256k1 key 1: its addresses are G's, known independently
 * (Ethereum 0x7e5f4552091a69125d5dfcb7b8c2659029395bdf, Bitcoin
 * compressed P2PKH 1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH). */
static void test_secp256k1(void)
{
    uint8_t key[32] = {0}, digest[32], sig[65], want[20];
    struct zbc_addr eth, btc;
    struct zbc_err err;
    key[31] = 1;
    for (int i = 0; i < 32; i++)
        digest[i] = (uint8_t)(0xa0 + i);

    SECRET(key, 32);
    int ok = zbc_eth_address(&eth, key);
    PUBLIC(&ok, sizeof ok);
    PUBLIC(&eth, sizeof eth);
    CHECK(ok);
    unhex(want, 20, "7e5f4552091a69125d5dfcb7b8c2659029395bdf");
    CHECK_EQ_MEM(eth.payload, want, 20);
    ok = zbc_eth_sign(sig, key, digest);
    PUBLIC(&ok, sizeof ok);
    PUBLIC(sig, 65);
    CHECK(ok);
    CHECK(zbc_sig_verify(&eth, digest, sig, 65, &err));

    ok = zbc_btc_address(&btc, key);
    PUBLIC(&ok, sizeof ok);
    PUBLIC(&btc, sizeof btc);
    CHECK(ok);
    unhex(want, 20, "751e76e8199196d454941c45d1b3a323f1433bd6");
    CHECK_EQ_MEM(btc.payload, want, 20);
    ok = zbc_btc_sign(sig, key, digest);
    PUBLIC(&ok, sizeof ok);
    PUBLIC(sig, 65);
    CHECK(ok);
    CHECK(zbc_sig_verify(&btc, digest, sig, 65, &err));

    /* an invalid key (the group order n) still fails, without a report */
    unhex(key, 32, "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");
    SECRET(key, 32);
    ok = zbc_eth_sign(sig, key, digest);
    PUBLIC(&ok, sizeof ok);
    CHECK(!ok);
}

/* SLIP-10 Ed25519 test vector 1 (m, m/0'), and keys.json's first wallet
 * (BIP-39 "abandon ... about", no passphrase) for m/44'/883'/0'. */
static void test_slip10(void)
{
    uint8_t seed[16], want[32], bip39[64], acct[32];
    struct zbc_slip10_node m, c;
    struct zbc_err err;
    unhex(seed, 16, "000102030405060708090a0b0c0d0e0f");
    SECRET(seed, 16);
    zbc_slip10_master(&m, seed, sizeof seed);
    int ok = zbc_slip10_child(&c, &m, 0, &err);
    PUBLIC(&m, sizeof m);
    PUBLIC(&c, sizeof c);
    CHECK(ok);
    unhex(want, 32, "2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7");
    CHECK_EQ_MEM(m.key, want, 32);
    unhex(want, 32, "90046a93de5380a72b5e45010748567d5ea02bbf6522f979e05c0d8d8ca9fffb");
    CHECK_EQ_MEM(m.chain, want, 32);
    unhex(want, 32, "68e0fe46dfb67e368c75379acec591dad19df3cde26e63b93a8e704f1dade7a3");
    CHECK_EQ_MEM(c.key, want, 32);
    unhex(want, 32, "8b59aa11380b624e81507a27fedda59fea6d0b779a778918a2fd3590e16e9c69");
    CHECK_EQ_MEM(c.chain, want, 32);

    /* the BIP-39 step reads NUL-terminated text: not checked (see docs) */
    CHECK(zbc_bip39_seed(bip39,
        "abandon abandon abandon abandon abandon abandon abandon abandon "
        "abandon abandon abandon about", "", &err));
    SECRET(bip39, 64);
    ok = zbc_hd_account_seed(acct, bip39, 0, &err);
    PUBLIC(&ok, sizeof ok);
    PUBLIC(acct, 32);
    CHECK(ok);
    unhex(want, 32, "51bae95d58f32304a5c9d894819989a4fb04da6115d9a43612a026e7a5dd5d96");
    CHECK_EQ_MEM(acct, want, 32);
}

/* The key file's secretbox step with the Argon2id output and the secret
 * marked secret (Argon2id itself is excluded, docs/crypto.md), then a
 * whole seal with a public passphrase and a secret plaintext. */
static void test_keyfile_box(void)
{
    uint8_t key[32], nonce[NONCE_LEN], secret[32], ct[MAC_LEN + 32],
        back[32];
    for (int i = 0; i < 32; i++) {
        key[i] = (uint8_t)(3 * i + 1);
        secret[i] = (uint8_t)(0x55 ^ i);
    }
    memset(nonce, 0x24, sizeof nonce);
    SECRET(key, 32);
    SECRET(secret, 32);
    box_seal(ct, secret, 32, nonce, key);
    PUBLIC(ct, sizeof ct); /* the ciphertext is written to disk */
    int ok = box_open(back, ct, 32, nonce, key);
    PUBLIC(&ok, sizeof ok);
    PUBLIC(back, 32);
    PUBLIC(secret, 32);
    CHECK(ok);
    CHECK_EQ_MEM(back, secret, 32);
    /* an independent open with libsodium itself agrees */
    PUBLIC(key, 32);
    CHECK(crypto_secretbox_open_easy(back, ct, sizeof ct, nonce, key) == 0);
    CHECK_EQ_MEM(back, secret, 32);
    /* a wrong key: the MAC fails, and says so without a report */
    key[0] ^= 1;
    SECRET(key, 32);
    ok = box_open(back, ct, 32, nonce, key);
    PUBLIC(&ok, sizeof ok);
    CHECK(!ok);

    /* the whole seal: only the plaintext is secret here */
    struct zbc_kdf_params p = {crypto_pwhash_OPSLIMIT_MIN,
                               crypto_pwhash_MEMLIMIT_MIN};
    uint8_t *file = NULL;
    size_t file_len = 0, got = 0;
    struct zbc_err err;
    SECRET(secret, 32);
    ok = zbc_keyfile_seal(&file, &file_len, secret, 32, "pw", 2, &p, &err);
    PUBLIC(&ok, sizeof ok);
    CHECK(ok);
    if (ok) {
        PUBLIC(file, file_len);
        PUBLIC(secret, 32);
        CHECK(zbc_keyfile_open(back, sizeof back, &got, file, file_len, "pw",
                               2, &err));
        CHECK_EQ_INT(got, 32);
        CHECK_EQ_MEM(back, secret, 32);
        free(file);
    }
}

int main(void)
{
    if (!RUNNING_ON_VALGRIND) {
        fprintf(stderr, "ctime_tests checks nothing outside valgrind: run "
                        "`meson test --suite ctime` (or valgrind ./ctime_tests)\n");
        return 1;
    }
    if (sodium_init() < 0) {
        fprintf(stderr, "libsodium cannot initialise\n");
        return 1;
    }
    TEST_RUN(test_ed25519);
    TEST_RUN(test_msg);
    TEST_RUN(test_vrf);
    TEST_RUN(test_secp256k1);
    TEST_RUN(test_slip10);
    TEST_RUN(test_keyfile_box);
    return test_summary("ctime_tests");
}
