/* ECVRF-EDWARDS25519-SHA512-TAI, RFC 9381 §5 with the suite of §5.5.
 *
 * libsodium's crypto_scalarmult_ed25519*_noclamp accept only canonical
 * points of the prime-order subgroup, but a VRF must handle any curve
 * point: hash-to-curve candidates, a public key or a proof's Gamma may
 * carry a torsion component.  crypto_core_ed25519_add/sub only require
 * their inputs to decode to points on the curve (ge25519_frombytes +
 * ge25519_is_on_curve in libsodium's core_ed25519.c), so the cofactor is
 * cleared with three doublings, and k*P for an arbitrary P is computed as
 * q*(8P) + r*P with k = 8q + r (8P lies in the prime-order subgroup). */
#include "crypto/ecvrf.h"

#include <string.h>

#include <sodium.h>

#include "crypto/declassify.h"

#define SUITE 0x03
#define PT 32

/* L, the order of the prime-order subgroup, little-endian. */
static const uint8_t order_l[32] = {
    0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7,
    0xa2, 0xde, 0xf9, 0xde, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10,
};

static const uint8_t identity[PT] = {1};

/* a < b for 32-byte little-endian integers (public values only). */
static int lt_le256(const uint8_t a[32], const uint8_t b[32])
{
    for (int i = 31; i >= 0; i--) {
        if (a[i] != b[i])
            return a[i] < b[i];
    }
    return 0;
}

static int is_zero32(const uint8_t a[32])
{
    uint8_t acc = 0;
    for (int i = 0; i < 32; i++)
        acc |= a[i];
    return acc == 0;
}

/* RFC 8032 §5.1.3 decoding: y < p, not (x = 0 and sign bit set), and
 * (x, y) on the curve.  Subgroup membership is not required. */
static int string_to_point(const uint8_t s[PT])
{
    uint8_t y[32], tmp[PT];
    memcpy(y, s, 32);
    y[31] &= 0x7f;
    /* p = 2^255 - 19 = ed ff .. ff 7f (LE) */
    int all_ff = 1;
    for (int i = 1; i < 31; i++)
        all_ff &= y[i] == 0xff;
    if (y[31] == 0x7f && all_ff && y[0] >= 0xed)
        return 0;
    /* x = 0 exactly when y = 1 or y = p - 1; then the sign bit must be 0 */
    if (s[31] & 0x80) {
        int zero_mid = 1;
        for (int i = 1; i < 31; i++)
            zero_mid &= y[i] == 0;
        if (y[0] == 1 && zero_mid && y[31] == 0)
            return 0;
        if (y[0] == 0xec && all_ff && y[31] == 0x7f)
            return 0;
    }
    return crypto_core_ed25519_add(tmp, s, s) == 0;
}

/* out = 8 * p for any point on the curve. */
static int clear_cofactor(uint8_t out[PT], const uint8_t p[PT])
{
    uint8_t a[PT], b[PT];
    if (crypto_core_ed25519_add(a, p, p) != 0 ||
        crypto_core_ed25519_add(b, a, a) != 0 ||
        crypto_core_ed25519_add(out, b, b) != 0)
        return 0;
    return 1;
}

/* out = k * p for any curve point p and any k < L (public k and p). */
static int mul_any(uint8_t out[PT], const uint8_t k[32], const uint8_t p[PT])
{
    uint8_t q[32], p8[PT], a[PT], acc[PT], t[PT];
    for (int i = 0; i < 32; i++)
        q[i] = (uint8_t)((k[i] >> 3) | (i < 31 ? k[i + 1] << 5 : 0));
    unsigned r = k[0] & 7;
    if (!clear_cofactor(p8, p))
        return 0;
    if (is_zero32(q) || memcmp(p8, identity, PT) == 0) {
        memcpy(a, identity, PT);
    } else if (crypto_scalarmult_ed25519_noclamp(a, q, p8) != 0) {
        /* 0 < q < L and p8 != identity: cannot fail */
        return 0;
    }
    memcpy(acc, identity, PT);
    for (unsigned i = 0; i < r; i++) {
        if (crypto_core_ed25519_add(t, acc, p) != 0)
            return 0;
        memcpy(acc, t, PT);
    }
    return crypto_core_ed25519_add(out, a, acc) == 0;
}

/* out = s * B for s < L, the identity for s = 0. */
static int mul_base(uint8_t out[PT], const uint8_t s[32])
{
    if (is_zero32(s)) {
        memcpy(out, identity, PT);
        return 1;
    }
    return crypto_scalarmult_ed25519_base_noclamp(out, s) == 0;
}

/* out = s * h for s < L and h in the prime-order subgroup. */
static int mul_sub(uint8_t out[PT], const uint8_t s[32], const uint8_t h[PT])
{
    if (is_zero32(s)) {
        memcpy(out, identity, PT);
        return 1;
    }
    return crypto_scalarmult_ed25519_noclamp(out, s, h) == 0;
}

/* out = s * B and out = s * P (P in the prime-order subgroup) for a SECRET
 * scalar s (the key x, the nonce k).  libsodium computes these in constant
 * time, then branches on whether the result is the identity or s is zero
 * (-1 then); for s derived from SHA-512 that has probability about 2^-252
 * and leaks nothing otherwise, so the outcome is declassified.  Kept out of
 * line so that the constant-time check's suppressions
 * (tests/ctime/valgrind.supp) can name exactly these two calls. */
__attribute__((noinline)) static int vrf_mul_secret_base(uint8_t out[PT],
                                                         const uint8_t s[32])
{
    int ok = crypto_scalarmult_ed25519_base_noclamp(out, s) == 0;
    zbc_declassify(&ok, sizeof ok);
    return ok;
}

__attribute__((noinline)) static int vrf_mul_secret(uint8_t out[PT],
                                                    const uint8_t s[32],
                                                    const uint8_t p[PT])
{
    int ok = crypto_scalarmult_ed25519_noclamp(out, s, p) == 0;
    zbc_declassify(&ok, sizeof ok);
    return ok;
}

/* §5.4.1.1 encode_to_curve, try-and-increment, salt = the public key. */
static int encode_to_curve(uint8_t h[PT], const uint8_t pk[PT],
                           const uint8_t *alpha, size_t alpha_len)
{
    static const uint8_t front[2] = {SUITE, 0x01};
    static const uint8_t back = 0x00;
    uint8_t digest[64];
    for (unsigned ctr = 0; ctr < 256; ctr++) {
        crypto_hash_sha512_state st;
        uint8_t c = (uint8_t)ctr;
        crypto_hash_sha512_init(&st);
        crypto_hash_sha512_update(&st, front, sizeof front);
        crypto_hash_sha512_update(&st, pk, PT);
        crypto_hash_sha512_update(&st, alpha, alpha_len);
        crypto_hash_sha512_update(&st, &c, 1);
        crypto_hash_sha512_update(&st, &back, 1);
        crypto_hash_sha512_final(&st, digest);
        if (string_to_point(digest)) {
            if (!clear_cofactor(h, digest))
                return 0;
            return memcmp(h, identity, PT) != 0;
        }
    }
    return 0;
}

/* §5.4.3 challenge_generation, truncated to cLen = 16 bytes. */
static void challenge(uint8_t c[16], const uint8_t y[PT], const uint8_t h[PT],
                      const uint8_t gamma[PT], const uint8_t u[PT],
                      const uint8_t v[PT])
{
    static const uint8_t front[2] = {SUITE, 0x02};
    static const uint8_t back = 0x00;
    crypto_hash_sha512_state st;
    uint8_t digest[64];
    crypto_hash_sha512_init(&st);
    crypto_hash_sha512_update(&st, front, sizeof front);
    crypto_hash_sha512_update(&st, y, PT);
    crypto_hash_sha512_update(&st, h, PT);
    crypto_hash_sha512_update(&st, gamma, PT);
    crypto_hash_sha512_update(&st, u, PT);
    crypto_hash_sha512_update(&st, v, PT);
    crypto_hash_sha512_update(&st, &back, 1);
    crypto_hash_sha512_final(&st, digest);
    memcpy(c, digest, 16);
}

/* RFC 8032 secret scalar x (clamped, reduced mod L) and the hash prefix
 * used by nonce generation (§5.4.2.2). */
static void expand_seed(uint8_t x[32], uint8_t prefix[32],
                        const uint8_t seed[32])
{
    uint8_t hs[64], wide[64] = {0};
    crypto_hash_sha512(hs, seed, 32);
    hs[0] &= 248;
    hs[31] &= 127;
    hs[31] |= 64;
    memcpy(wide, hs, 32);
    crypto_core_ed25519_scalar_reduce(x, wide);
    memcpy(prefix, hs + 32, 32);
    sodium_memzero(hs, sizeof hs);
    sodium_memzero(wide, sizeof wide);
}

void zbc_vrf_public_key(uint8_t pk[ZBC_VRF_PK_LEN],
                        const uint8_t seed[ZBC_VRF_SEED_LEN])
{
    uint8_t sk[64];
    crypto_sign_seed_keypair(pk, sk, seed);
    sodium_memzero(sk, sizeof sk);
}

int zbc_vrf_prove(uint8_t pi[ZBC_VRF_PROOF_LEN],
                  const uint8_t seed[ZBC_VRF_SEED_LEN],
                  const uint8_t *alpha, size_t alpha_len,
                  struct zbc_err *err)
{
    uint8_t x[32], prefix[32], y[PT], h[PT], gamma[PT], k[32], kb[PT], kh[PT];
    uint8_t c[32] = {0}, cx[32], s[32], kwide[64];
    int ok = 0;
    expand_seed(x, prefix, seed);
    if (!vrf_mul_secret_base(y, x)) {
        zbc_fail(err, "VRF secret scalar is zero");
        goto out;
    }
    /* y is the public key: hash-to-curve may branch on it */
    zbc_declassify(y, sizeof y);
    if (!encode_to_curve(h, y, alpha, alpha_len)) {
        zbc_fail(err, "VRF hash-to-curve found no point");
        goto out;
    }
    if (!vrf_mul_secret(gamma, x, h)) {
        zbc_fail(err, "VRF Gamma computation failed");
        goto out;
    }
    {
        crypto_hash_sha512_state st;
        crypto_hash_sha512_init(&st);
        crypto_hash_sha512_update(&st, prefix, 32);
        crypto_hash_sha512_update(&st, h, PT);
        crypto_hash_sha512_final(&st, kwide);
        crypto_core_ed25519_scalar_reduce(k, kwide);
    }
    if (!vrf_mul_secret_base(kb, k) || !vrf_mul_secret(kh, k, h)) {
        zbc_fail(err, "VRF nonce is zero");
        goto out;
    }
    challenge(c, y, h, gamma, kb, kh);
    crypto_core_ed25519_scalar_mul(cx, c, x);
    crypto_core_ed25519_scalar_add(s, k, cx);
    memcpy(pi, gamma, PT);
    memcpy(pi + 32, c, 16);
    memcpy(pi + 48, s, 32);
    ok = 1;
out:
    sodium_memzero(x, sizeof x);
    sodium_memzero(prefix, sizeof prefix);
    sodium_memzero(k, sizeof k);
    sodium_memzero(kwide, sizeof kwide);
    sodium_memzero(cx, sizeof cx);
    return ok;
}

/* §5.4.4 decode_proof: Gamma a valid point, c 16 bytes, s < L. */
static int decode_proof(uint8_t c[32], const uint8_t pi[ZBC_VRF_PROOF_LEN],
                        struct zbc_err *err)
{
    if (!string_to_point(pi))
        return zbc_fail(err, "VRF proof: Gamma is not a valid curve point");
    if (!lt_le256(pi + 48, order_l))
        return zbc_fail(err, "VRF proof: scalar s is not below the group order");
    memset(c, 0, 32);
    memcpy(c, pi + 32, 16);
    return 1;
}

static int gamma_to_hash(uint8_t beta[ZBC_VRF_OUTPUT_LEN],
                         const uint8_t gamma[PT], struct zbc_err *err)
{
    static const uint8_t front[2] = {SUITE, 0x03};
    static const uint8_t back = 0x00;
    uint8_t g8[PT];
    crypto_hash_sha512_state st;
    if (!clear_cofactor(g8, gamma))
        return zbc_fail(err, "VRF proof: Gamma is not a valid curve point");
    crypto_hash_sha512_init(&st);
    crypto_hash_sha512_update(&st, front, sizeof front);
    crypto_hash_sha512_update(&st, g8, PT);
    crypto_hash_sha512_update(&st, &back, 1);
    crypto_hash_sha512_final(&st, beta);
    return 1;
}

int zbc_vrf_proof_to_hash(uint8_t beta[ZBC_VRF_OUTPUT_LEN],
                          const uint8_t pi[ZBC_VRF_PROOF_LEN],
                          struct zbc_err *err)
{
    uint8_t c[32];
    if (!decode_proof(c, pi, err))
        return 0;
    return gamma_to_hash(beta, pi, err);
}

int zbc_vrf_verify(uint8_t beta[ZBC_VRF_OUTPUT_LEN],
                   const uint8_t pk[ZBC_VRF_PK_LEN],
                   const uint8_t pi[ZBC_VRF_PROOF_LEN],
                   const uint8_t *alpha, size_t alpha_len,
                   struct zbc_err *err)
{
    uint8_t y8[PT], c[32], h[PT], sb[PT], cy[PT], u[PT], sh[PT], cg[PT],
        v[PT], c2[16];
    const uint8_t *gamma = pi, *s = pi + 48;
    if (!string_to_point(pk))
        return zbc_fail(err, "VRF public key is not a valid curve point");
    if (!clear_cofactor(y8, pk) || memcmp(y8, identity, PT) == 0)
        return zbc_fail(err, "VRF public key has small order");
    if (!decode_proof(c, pi, err))
        return 0;
    if (!encode_to_curve(h, pk, alpha, alpha_len))
        return zbc_fail(err, "VRF hash-to-curve found no point");
    if (!mul_base(sb, s) || !mul_any(cy, c, pk) ||
        crypto_core_ed25519_sub(u, sb, cy) != 0 || !mul_sub(sh, s, h) ||
        !mul_any(cg, c, gamma) || crypto_core_ed25519_sub(v, sh, cg) != 0)
        return zbc_fail(err, "VRF proof: point arithmetic failed");
    challenge(c2, pk, h, gamma, u, v);
    if (memcmp(c2, c, 16) != 0)
        return zbc_fail(err, "VRF proof does not verify for this key and input");
    return gamma_to_hash(beta, gamma, err);
}
