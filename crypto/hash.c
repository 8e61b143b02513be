#include "crypto/hash.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>

static void die(const char *what)
{
    fprintf(stderr, "fatal: libcrypto %s failed (out of memory?)\n", what);
    abort();
}

static void evp_digest(const EVP_MD *md, uint8_t *out, const void *data,
                       size_t len)
{
    if (EVP_Digest(data, len, out, NULL, md, NULL) != 1)
        die("EVP_Digest");
}

static const EVP_MD *ripemd160_md(void)
{
    /* OpenSSL 3 moved RIPEMD-160 to the legacy provider in some builds;
     * fetch it explicitly from whichever provider offers it. */
    static EVP_MD *md;
    if (md == NULL) {
        md = EVP_MD_fetch(NULL, "RIPEMD160", NULL);
        if (md == NULL)
            md = (EVP_MD *)EVP_ripemd160();
        if (md == NULL)
            die("RIPEMD160 fetch");
    }
    return md;
}

/* SHA3-256 and SHA-256 fetched from the provider once, not by name on
 * every call: OpenSSL 3 looks an EVP_sha3_256()-style digest up again in
 * each EVP_Digest (an implicit fetch with its locks): zbc-bench's
 * "SHA3-256 of 160 B" rows time both (docs/benchmarks.md).
 * pthread_once makes the first call safe from any thread. */
static EVP_MD *md_sha3_256, *md_sha256;
static pthread_once_t md_once = PTHREAD_ONCE_INIT;

static void fetch_mds(void)
{
    md_sha3_256 = EVP_MD_fetch(NULL, "SHA3-256", NULL);
    md_sha256 = EVP_MD_fetch(NULL, "SHA256", NULL);
    if (md_sha3_256 == NULL || md_sha256 == NULL)
        die("SHA3-256/SHA-256 fetch");
}

static const EVP_MD *sha3_256_md(void)
{
    if (pthread_once(&md_once, fetch_mds) != 0)
        die("pthread_once");
    return md_sha3_256;
}

static const EVP_MD *sha256_md(void)
{
    if (pthread_once(&md_once, fetch_mds) != 0)
        die("pthread_once");
    return md_sha256;
}

void zbc_sha3_256(uint8_t out[32], const void *data, size_t len)
{
    evp_digest(sha3_256_md(), out, data, len);
}

void zbc_sha256(uint8_t out[32], const void *data, size_t len)
{
    evp_digest(sha256_md(), out, data, len);
}

void zbc_sha256d(uint8_t out[32], const void *data, size_t len)
{
    uint8_t t[32];
    zbc_sha256(t, data, len);
    zbc_sha256(out, t, sizeof t);
}

void zbc_ripemd160(uint8_t out[20], const void *data, size_t len)
{
    evp_digest(ripemd160_md(), out, data, len);
}

void zbc_hash160(uint8_t out[20], const void *data, size_t len)
{
    uint8_t t[32];
    zbc_sha256(t, data, len);
    zbc_ripemd160(out, t, sizeof t);
}

void zbc_sha512(uint8_t out[64], const void *data, size_t len)
{
    crypto_hash_sha512(out, data, len);
}

void zbc_hmac_sha256(uint8_t out[32], const void *key, size_t keylen,
                     const void *msg, size_t msglen)
{
    unsigned int outlen = 32;
    if (HMAC(EVP_sha256(), key, (int)keylen, msg, msglen, out, &outlen) ==
            NULL ||
        outlen != 32)
        die("HMAC");
}

void zbc_hmac_sha512(uint8_t out[64], const void *key, size_t keylen,
                     const void *msg, size_t msglen)
{
    unsigned int outlen = 64;
    if (HMAC(EVP_sha512(), key, (int)keylen, msg, msglen, out, &outlen) ==
            NULL ||
        outlen != 64)
        die("HMAC");
}

void zbc_sha3_init(struct zbc_sha3 *h)
{
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (ctx == NULL || EVP_DigestInit_ex(ctx, sha3_256_md(), NULL) != 1)
        die("SHA3 init");
    h->ctx = ctx;
}

void zbc_sha3_update(struct zbc_sha3 *h, const void *data, size_t len)
{
    if (EVP_DigestUpdate(h->ctx, data, len) != 1)
        die("SHA3 update");
}

void zbc_sha3_final(struct zbc_sha3 *h, uint8_t out[32])
{
    unsigned int n = 32;
    if (EVP_DigestFinal_ex(h->ctx, out, &n) != 1 || n != 32)
        die("SHA3 final");
    EVP_MD_CTX_free(h->ctx);
    h->ctx = NULL;
}
