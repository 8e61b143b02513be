/* Signature schemes per sender account type (sig.h, docs/crypto.md). */
#include "crypto/sig.h"

#include <secp256k1.h>
#include <secp256k1_recovery.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/declassify.h"
#include "crypto/hash.h"
#include "crypto/hex.h"
#include "crypto/keccak.h"

int zbc_sig_len_for_type(uint32_t type, size_t *len, int *rest)
{
    /* docs/crypto.md §4, "Signature length" */
    switch (type) {
    case 0: case 3: case 12:
        *len = ZBC_ED25519_SIG_LEN;
        *rest = 0;
        return 1;
    case 4:
        *len = ZBC_RECOVERABLE_SIG_LEN;
        *rest = 0;
        return 1;
    case 13: case 16:
        *len = 98;
        *rest = 0;
        return 1;
    case 1: case 5: case 6: case 7: case 8: case 9:
        *len = 0;
        *rest = 1;
        return 1;
    }
    return 0;
}

/* ---- Ed25519 ---- */

void zbc_ed25519_keypair(uint8_t pk[32], uint8_t sk[64], const uint8_t seed[32])
{
    /* Safe to call repeatedly and from several threads; needed only for
     * libsodium's CPU feature detection, never for randomness here.  It
     * fails only if the system cannot run libsodium at all. */
    if (sodium_init() < 0) {
        fprintf(stderr, "fatal: libsodium cannot initialise\n");
        abort();
    }
    crypto_sign_seed_keypair(pk, sk, seed);
}

void zbc_ed25519_sign(uint8_t sig[64], const uint8_t sk[64],
                      const uint8_t *msg, size_t len)
{
    crypto_sign_detached(sig, NULL, msg, len, sk);
}

int zbc_ed25519_verify(const uint8_t sig[64], const uint8_t pk[32],
                       const uint8_t *msg, size_t len)
{
    return crypto_sign_verify_detached(sig, msg, len, pk) == 0;
}

/* ---- the messages foreign wallets sign ---- */

void zbc_eth_personal_digest(uint8_t out[32], const uint8_t digest[32])
{
    static const char prefix[] = "\x19" "Ethereum Signed Message:\n32";
    uint8_t buf[sizeof prefix - 1 + 32];
    memcpy(buf, prefix, sizeof prefix - 1);
    memcpy(buf + sizeof prefix - 1, digest, 32);
    zbc_keccak256(out, buf, sizeof buf);
}

void zbc_btc_message_digest(uint8_t out[32], const uint8_t digest[32])
{
    /* varstr(magic) || varstr(hex): both lengths are below 253, so each
     * CompactSize length is one byte. */
    static const char magic[] = "Bitcoin Signed Message:\n";
    uint8_t buf[1 + sizeof magic - 1 + 1 + 64];
    size_t n = 0;
    buf[n++] = (uint8_t)(sizeof magic - 1);
    memcpy(buf + n, magic, sizeof magic - 1);
    n += sizeof magic - 1;
    buf[n++] = 64;
    char hex[65];
    zbc_hex_encode(hex, digest, 32);
    memcpy(buf + n, hex, 64);
    n += 64;
    zbc_sha256d(out, buf, n);
}

/* ---- secp256k1 helpers ---- */

/* Parses r||s with a recovery id and refuses a high S (the other S of the
 * same signature would give a second valid encoding, so a second
 * transaction hash, of the same transaction). */
static int parse_low_s(secp256k1_ecdsa_recoverable_signature *rsig,
                       const uint8_t rs[64], int recid, const char *scheme,
                       struct zbc_err *err)
{
    const secp256k1_context *ctx = secp256k1_context_static;
    if (!secp256k1_ecdsa_recoverable_signature_parse_compact(ctx, rsig, rs, recid))
        return zbc_fail(err, "%s signature has r or s out of range", scheme);
    secp256k1_ecdsa_signature plain;
    if (!secp256k1_ecdsa_recoverable_signature_convert(ctx, &plain, rsig))
        return zbc_fail(err, "%s signature cannot be converted", scheme);
    if (secp256k1_ecdsa_signature_normalize(ctx, NULL, &plain))
        return zbc_fail(err, "%s signature has a high S value (only low-S signatures are accepted)",
                        scheme);
    return 1;
}

static int recover(secp256k1_pubkey *pub,
                   const secp256k1_ecdsa_recoverable_signature *rsig,
                   const uint8_t msg32[32], const char *scheme,
                   struct zbc_err *err)
{
    if (!secp256k1_ecdsa_recover(secp256k1_context_static, pub, rsig, msg32))
        return zbc_fail(err, "no public key can be recovered from the %s signature", scheme);
    return 1;
}

static void eth_address_of(uint8_t out[20], const secp256k1_pubkey *pub)
{
    uint8_t ser[65];
    size_t n = sizeof ser;
    (void)secp256k1_ec_pubkey_serialize(secp256k1_context_static, ser, &n, pub,
                                        SECP256K1_EC_UNCOMPRESSED);
    uint8_t h[32];
    zbc_keccak256(h, ser + 1, 64);
    memcpy(out, h + 12, 20);
}

static void btc_hash160_of(uint8_t out[20], const secp256k1_pubkey *pub,
                           int compressed)
{
    uint8_t ser[65];
    size_t n = sizeof ser;
    (void)secp256k1_ec_pubkey_serialize(
        secp256k1_context_static, ser, &n, pub,
        compressed ? SECP256K1_EC_COMPRESSED : SECP256K1_EC_UNCOMPRESSED);
    zbc_hash160(out, ser, n);
}

/* ---- verification per account type ---- */

static int verify_ed25519(const struct zbc_addr *sender, const uint8_t digest[32],
                          const uint8_t *sig, size_t sig_len, struct zbc_err *err)
{
    if (sig_len != ZBC_ED25519_SIG_LEN)
        return zbc_fail(err, "ZooBC signature must be 64 bytes, got %zu", sig_len);
    if (!zbc_ed25519_verify(sig, sender->payload, digest, 32))
        return zbc_fail(err, "Ed25519 signature does not verify for the sender's key");
    return 1;
}

static int verify_eth(const struct zbc_addr *sender, const uint8_t digest[32],
                      const uint8_t *sig, size_t sig_len, struct zbc_err *err)
{
    if (sig_len != ZBC_RECOVERABLE_SIG_LEN)
        return zbc_fail(err, "Ethereum signature must be 65 bytes (r||s||v), got %zu", sig_len);
    int recid;
    uint8_t v = sig[64];
    /* Only the personal_sign form 27/28: also accepting 0/1 would give every
     * signature a second valid encoding, hence a second transaction hash
     * that a third party could replay (docs/crypto.md, Malleability). */
    if (v == 27 || v == 28)
        recid = v - 27;
    else
        return zbc_fail(err, "Ethereum signature has v = %u (want 27 or 28)", v);
    secp256k1_ecdsa_recoverable_signature rsig;
    if (!parse_low_s(&rsig, sig, recid, "Ethereum", err))
        return 0;
    uint8_t msg[32];
    zbc_eth_personal_digest(msg, digest);
    secp256k1_pubkey pub;
    if (!recover(&pub, &rsig, msg, "Ethereum", err))
        return 0;
    uint8_t addr[20];
    eth_address_of(addr, &pub);
    if (memcmp(addr, sender->payload, 20) != 0)
        return zbc_fail(err, "Ethereum signature was made by another key than the sender's address");
    return 1;
}

static int verify_btc(const struct zbc_addr *sender, const uint8_t digest[32],
                      const uint8_t *sig, size_t sig_len, struct zbc_err *err)
{
    if (sig_len != ZBC_RECOVERABLE_SIG_LEN)
        return zbc_fail(err, "Bitcoin signature must be 65 bytes (header||r||s), got %zu", sig_len);
    uint8_t h = sig[0];
    if (h < 27 || h > 34)
        return zbc_fail(err, "Bitcoin signature has header byte %u (want 27 to 34)", h);
    int compressed = h >= 31;
    int recid = (h - 27) & 3;
    secp256k1_ecdsa_recoverable_signature rsig;
    if (!parse_low_s(&rsig, sig + 1, recid, "Bitcoin", err))
        return 0;
    uint8_t msg[32];
    zbc_btc_message_digest(msg, digest);
    secp256k1_pubkey pub;
    if (!recover(&pub, &rsig, msg, "Bitcoin", err))
        return 0;
    uint8_t h160[20];
    btc_hash160_of(h160, &pub, compressed);
    if (memcmp(h160, sender->payload, 20) != 0)
        return zbc_fail(err, "Bitcoin signature was made by another key than the sender's address");
    return 1;
}

int zbc_sig_verify(const struct zbc_addr *sender, const uint8_t digest[32],
                   const uint8_t *sig, size_t sig_len, struct zbc_err *err)
{
    size_t plen;
    if (!zbc_addr_payload_len(sender->type, &plen) || plen != sender->len)
        return zbc_fail(err, "sender address of type %u has a %u-byte payload",
                        sender->type, sender->len);
    if (sender->type == ZBC_ACCT_ZBC)
        return verify_ed25519(sender, digest, sig, sig_len, err);
    if (sender->type == ZBC_ACCT_ETH)
        return verify_eth(sender, digest, sig, sig_len, err);
    if (sender->type == ZBC_ACCT_BTC_LEGACY || sender->type == ZBC_ACCT_BTC_P2PKH)
        return verify_btc(sender, digest, sig, sig_len, err);
    return zbc_fail(err, "account type %u cannot sign on this chain "
                         "(supported: 0 ZooBC, 1 and 5 Bitcoin, 4 Ethereum)",
                    sender->type);
}

/* ---- signing with a secp256k1 key (tests and tools) ---- */

/* The constant-time check (tests/ctime) runs libsecp256k1 with its own
 * declassification on: it then marks as public what it deems public
 * (whether a nonce was valid, whether signing succeeded).  No effect
 * elsewhere (libsecp256k1 ignores the flag unless built for valgrind and
 * running on it). */
#ifdef ZBC_CTIME_CHECKS
#define SECP_FLAGS SECP256K1_CONTEXT_DECLASSIFY
#else
#define SECP_FLAGS SECP256K1_CONTEXT_NONE
#endif

/* RFC 6979 deterministic nonce; libsecp256k1 always produces low S. */
static int sign_recoverable(uint8_t rs[64], int *recid,
                            const uint8_t seckey[32], const uint8_t msg32[32])
{
    secp256k1_context *ctx = secp256k1_context_create(SECP_FLAGS);
    if (ctx == NULL)
        return 0;
    secp256k1_ecdsa_recoverable_signature rsig;
    /* Whether the key is valid (0 < key < n) is reported to the caller
     * anyway: public, so the code may branch on it. */
    int ok = secp256k1_ec_seckey_verify(ctx, seckey);
    zbc_declassify(&ok, sizeof ok);
    if (ok) {
        ok = secp256k1_ecdsa_sign_recoverable(ctx, &rsig, msg32, seckey, NULL, NULL);
        zbc_declassify(&ok, sizeof ok);
    }
    if (ok) {
        /* the signature is the output, public */
        zbc_declassify(&rsig, sizeof rsig);
        ok = secp256k1_ecdsa_recoverable_signature_serialize_compact(ctx, rs, recid, &rsig);
    }
    secp256k1_context_destroy(ctx);
    return ok;
}

static int pubkey_of(secp256k1_pubkey *pub, const uint8_t seckey[32])
{
    secp256k1_context *ctx = secp256k1_context_create(SECP_FLAGS);
    if (ctx == NULL)
        return 0;
    int ok = secp256k1_ec_pubkey_create(ctx, pub, seckey);
    secp256k1_context_destroy(ctx);
    /* the public key, and whether the secret key was valid: public */
    zbc_declassify(&ok, sizeof ok);
    zbc_declassify(pub, sizeof *pub);
    return ok;
}

int zbc_eth_sign(uint8_t sig[65], const uint8_t seckey[32], const uint8_t digest[32])
{
    uint8_t msg[32];
    int recid;
    zbc_eth_personal_digest(msg, digest);
    if (!sign_recoverable(sig, &recid, seckey, msg))
        return 0;
    sig[64] = (uint8_t)(27 + recid);
    return 1;
}

int zbc_btc_sign(uint8_t sig[65], const uint8_t seckey[32], const uint8_t digest[32])
{
    uint8_t msg[32];
    int recid;
    zbc_btc_message_digest(msg, digest);
    if (!sign_recoverable(sig + 1, &recid, seckey, msg))
        return 0;
    sig[0] = (uint8_t)(31 + recid); /* compressed key */
    return 1;
}

int zbc_eth_address(struct zbc_addr *a, const uint8_t seckey[32])
{
    secp256k1_pubkey pub;
    if (!pubkey_of(&pub, seckey))
        return 0;
    memset(a, 0, sizeof *a);
    a->type = ZBC_ACCT_ETH;
    a->len = 20;
    eth_address_of(a->payload, &pub);
    return 1;
}

int zbc_btc_address(struct zbc_addr *a, const uint8_t seckey[32])
{
    secp256k1_pubkey pub;
    if (!pubkey_of(&pub, seckey))
        return 0;
    memset(a, 0, sizeof *a);
    a->type = ZBC_ACCT_BTC_P2PKH;
    a->len = 20;
    btc_hash160_of(a->payload, &pub, 1);
    return 1;
}
