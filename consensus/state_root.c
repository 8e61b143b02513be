#include "consensus/state_root.h"

#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/bytes.h"
#include "crypto/hash.h"

/* The element's expansion is the ChaCha20 keystream (RFC 8439) keyed by the
 * entry's digest: not in crypto/hash.h (only this accumulator needs it), it
 * comes straight from libcrypto like the other primitives there, fetched
 * once (an EVP_chacha20() init looks the algorithm up on every call).
 * Encrypting 2048 zero bytes yields the first 2048 bytes of the stream. */
static EVP_CIPHER *cipher_chacha;
static pthread_once_t cipher_once = PTHREAD_ONCE_INIT;

static void fetch_chacha(void)
{
    cipher_chacha = EVP_CIPHER_fetch(NULL, "ChaCha20", NULL);
}

static void die(const char *what)
{
    fprintf(stderr, "fatal: libcrypto ChaCha20 failed (%s)\n", what);
    abort();
}

static const EVP_CIPHER *chacha(void)
{
    if (pthread_once(&cipher_once, fetch_chacha) != 0 ||
        cipher_chacha == NULL)
        die("no ChaCha20 in the default provider");
    return cipher_chacha;
}

static const uint8_t zeros[ZBC_LTHASH_BYTES];

/* The 2048-byte expansion of a digest, on c (reused by the caller):
 * ChaCha20 with key = digest, block counter 0, nonce 0 (libcrypto's
 * 16-byte IV is the counter u32 LE followed by the 12-byte nonce). */
static void expand(EVP_CIPHER_CTX *c, uint16_t lanes[ZBC_LTHASH_LANES],
                   const uint8_t digest[32])
{
    static const uint8_t iv[16];
    uint8_t bytes[ZBC_LTHASH_BYTES];
    int n = 0;
    if (EVP_EncryptInit_ex2(c, chacha(), digest, iv, NULL) != 1 ||
        EVP_EncryptUpdate(c, bytes, &n, zeros, (int)sizeof zeros) != 1 ||
        n != (int)sizeof bytes)
        die("out of memory?");
    for (size_t i = 0; i < ZBC_LTHASH_LANES; i++)
        lanes[i] = zbc_get_le16(bytes + 2 * i);
}

static EVP_CIPHER_CTX *ctx_new(void)
{
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    if (c == NULL)
        die("out of memory");
    return c;
}

void zbc_lthash_digest(uint8_t digest[32], uint8_t table, const uint8_t *key,
                       size_t klen, const uint8_t *val, size_t vlen)
{
    uint8_t head[2] = {table, (uint8_t)klen};
    uint8_t vl[4];
    zbc_put_le32(vl, (uint32_t)vlen);
    struct zbc_sha3 h;
    zbc_sha3_init(&h);
    zbc_sha3_update(&h, head, 2);
    zbc_sha3_update(&h, key, klen);
    zbc_sha3_update(&h, vl, 4);
    if (vlen > 0)
        zbc_sha3_update(&h, val, vlen);
    zbc_sha3_final(&h, digest);
}

/* Element vector of one entry: the first 2048 bytes of the ChaCha20
 * keystream keyed by H(table || klen || key || vlen || value), as 1024 LE
 * u16 lanes. */
static void element(uint16_t lanes[ZBC_LTHASH_LANES], uint8_t table,
                    const uint8_t *key, size_t klen, const uint8_t *val,
                    size_t vlen)
{
    uint8_t digest[32];
    zbc_lthash_digest(digest, table, key, klen, val, vlen);
    EVP_CIPHER_CTX *c = ctx_new();
    expand(c, lanes, digest);
    EVP_CIPHER_CTX_free(c);
}

void zbc_lthash_zero(struct zbc_lthash *h)
{
    memset(h, 0, sizeof *h);
}

void zbc_lthash_add(struct zbc_lthash *h, uint8_t table, const uint8_t *key,
                    size_t klen, const uint8_t *val, size_t vlen)
{
    uint16_t e[ZBC_LTHASH_LANES];
    element(e, table, key, klen, val, vlen);
    for (size_t i = 0; i < ZBC_LTHASH_LANES; i++)
        h->lane[i] = (uint16_t)(h->lane[i] + e[i]);
}

void zbc_lthash_sub(struct zbc_lthash *h, uint8_t table, const uint8_t *key,
                    size_t klen, const uint8_t *val, size_t vlen)
{
    uint16_t e[ZBC_LTHASH_LANES];
    element(e, table, key, klen, val, vlen);
    for (size_t i = 0; i < ZBC_LTHASH_LANES; i++)
        h->lane[i] = (uint16_t)(h->lane[i] - e[i]);
}

void zbc_lthash_to_bytes(uint8_t out[ZBC_LTHASH_BYTES],
                         const struct zbc_lthash *h)
{
    for (size_t i = 0; i < ZBC_LTHASH_LANES; i++)
        zbc_put_le16(out + 2 * i, h->lane[i]);
}

void zbc_lthash_from_bytes(struct zbc_lthash *h,
                           const uint8_t in[ZBC_LTHASH_BYTES])
{
    for (size_t i = 0; i < ZBC_LTHASH_LANES; i++)
        h->lane[i] = zbc_get_le16(in + 2 * i);
}

void zbc_lthash_root(uint8_t root[32], const struct zbc_lthash *h)
{
    uint8_t b[ZBC_LTHASH_BYTES];
    zbc_lthash_to_bytes(b, h);
    zbc_sha3_256(root, b, sizeof b);
}

/* ---- many updates at once ---- */

struct cache_slot {
    uint8_t digest[32];
    uint64_t stamp; /* 0: empty; else the insertion's number */
    uint16_t lanes[ZBC_LTHASH_LANES];
};

/* Two-way set-associative by the digest's first bytes (uniform: it is a
 * hash); an insertion replaces the older of the two. */
struct zbc_lthash_cache {
    pthread_mutex_t mu;
    size_t mask; /* slots - 1, slots a power of two >= 2 */
    struct cache_slot *slot;
    uint64_t next_stamp, hits, misses;
};

struct zbc_lthash_cache *zbc_lthash_cache_new(size_t entries)
{
    size_t n = 2;
    while (n < entries && n < ((size_t)1 << 30))
        n <<= 1;
    struct zbc_lthash_cache *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    /* calloc: the pages are touched only as slots fill */
    c->slot = calloc(n, sizeof *c->slot);
    if (c->slot == NULL || pthread_mutex_init(&c->mu, NULL) != 0) {
        free(c->slot);
        free(c);
        return NULL;
    }
    c->mask = n - 1;
    c->next_stamp = 1;
    return c;
}

void zbc_lthash_cache_free(struct zbc_lthash_cache *c)
{
    if (c == NULL)
        return;
    pthread_mutex_destroy(&c->mu);
    free(c->slot);
    free(c);
}

void zbc_lthash_cache_stats(const struct zbc_lthash_cache *c, uint64_t *hits,
                            uint64_t *misses)
{
    struct zbc_lthash_cache *m = (struct zbc_lthash_cache *)c;
    pthread_mutex_lock(&m->mu);
    *hits = m->hits;
    *misses = m->misses;
    pthread_mutex_unlock(&m->mu);
}

static size_t set_of(const struct zbc_lthash_cache *c, const uint8_t d[32])
{
    uint64_t x;
    memcpy(&x, d, sizeof x);
    return (size_t)x & c->mask & ~(size_t)1;
}

static bool cache_get(struct zbc_lthash_cache *c, const uint8_t d[32],
                      uint16_t lanes[ZBC_LTHASH_LANES])
{
    size_t i = set_of(c, d);
    bool hit = false;
    pthread_mutex_lock(&c->mu);
    for (size_t k = i; k < i + 2 && !hit; k++)
        if (c->slot[k].stamp != 0 && memcmp(c->slot[k].digest, d, 32) == 0) {
            memcpy(lanes, c->slot[k].lanes, sizeof c->slot[k].lanes);
            hit = true;
        }
    if (hit)
        c->hits++;
    else
        c->misses++;
    pthread_mutex_unlock(&c->mu);
    return hit;
}

static void cache_put(struct zbc_lthash_cache *c, const uint8_t d[32],
                      const uint16_t lanes[ZBC_LTHASH_LANES])
{
    size_t i = set_of(c, d);
    pthread_mutex_lock(&c->mu);
    struct cache_slot *s = &c->slot[i];
    if (memcmp(c->slot[i].digest, d, 32) == 0 && c->slot[i].stamp != 0)
        s = NULL; /* there already */
    else if (c->slot[i + 1].stamp != 0 &&
             memcmp(c->slot[i + 1].digest, d, 32) == 0)
        s = NULL;
    else if (c->slot[i + 1].stamp < c->slot[i].stamp)
        s = &c->slot[i + 1];
    if (s != NULL) {
        memcpy(s->digest, d, 32);
        memcpy(s->lanes, lanes, sizeof s->lanes);
        s->stamp = c->next_stamp++;
    }
    pthread_mutex_unlock(&c->mu);
}

/* The ops in slices, each summed into its own partial accumulator. */
#define SLICES_MAX 64
#define SLICE_MIN 16 /* ops: fewer go on one thread */

struct apply_ctx {
    const struct zbc_lthash_op *ops;
    size_t n, per;
    struct zbc_lthash_cache *cache;
    struct zbc_lthash *part;
};

static void apply_slice(void *arg, size_t k)
{
    struct apply_ctx *a = arg;
    size_t from = k * a->per, to = from + a->per;
    if (to > a->n)
        to = a->n;
    struct zbc_lthash *sum = &a->part[k];
    zbc_lthash_zero(sum);
    EVP_CIPHER_CTX *c = NULL;
    uint16_t e[ZBC_LTHASH_LANES];
    for (size_t i = from; i < to; i++) {
        const struct zbc_lthash_op *op = &a->ops[i];
        if (a->cache == NULL || !cache_get(a->cache, op->digest, e)) {
            if (c == NULL)
                c = ctx_new();
            expand(c, e, op->digest);
            if (a->cache != NULL && op->keep)
                cache_put(a->cache, op->digest, e);
        }
        if (op->sub)
            for (size_t j = 0; j < ZBC_LTHASH_LANES; j++)
                sum->lane[j] = (uint16_t)(sum->lane[j] - e[j]);
        else
            for (size_t j = 0; j < ZBC_LTHASH_LANES; j++)
                sum->lane[j] = (uint16_t)(sum->lane[j] + e[j]);
    }
    EVP_CIPHER_CTX_free(c);
}

void zbc_lthash_apply(struct zbc_lthash *h, const struct zbc_lthash_op *ops,
                      size_t n, const struct zbc_lthash_accel *a)
{
    if (n == 0)
        return;
    struct zbc_lthash one;
    struct apply_ctx ac = {ops, n, n, a != NULL ? a->cache : NULL, &one};
    size_t slices = 1;
    if (a != NULL && a->run != NULL && n >= 2 * SLICE_MIN) {
        slices = n / SLICE_MIN;
        if (slices > SLICES_MAX)
            slices = SLICES_MAX;
        struct zbc_lthash *part = malloc(slices * sizeof *part);
        if (part != NULL) {
            ac.per = (n + slices - 1) / slices;
            slices = (n + ac.per - 1) / ac.per;
            ac.part = part;
        } else {
            slices = 1;
        }
    }
    if (slices == 1)
        apply_slice(&ac, 0);
    else
        a->run(a->pool, slices, apply_slice, &ac);
    for (size_t k = 0; k < slices; k++)
        for (size_t j = 0; j < ZBC_LTHASH_LANES; j++)
            h->lane[j] = (uint16_t)(h->lane[j] + ac.part[k].lane[j]);
    if (ac.part != &one)
        free(ac.part);
}
