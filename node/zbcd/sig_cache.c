/* The verified-signature cache (sig_cache.h). */
#include "node/zbcd/sig_cache.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/hash.h"

#define WAYS 4

struct way {
    uint8_t hash[32];
    uint8_t *bytes; /* NULL: empty */
    size_t len;
    uint64_t stamp; /* insertion order: the lowest is replaced first */
};

struct zbc_sig_cache {
    pthread_mutex_t lock;
    struct way *w;  /* sets * WAYS */
    size_t sets;    /* power of two */
    size_t entries, bytes, max_bytes;
    uint64_t clock, hits, misses;
};

struct zbc_sig_cache *zbc_sig_cache_new(size_t max_entries, size_t max_bytes)
{
    size_t sets = 1;
    while (sets * WAYS < max_entries && sets < (SIZE_MAX / 2) / WAYS)
        sets *= 2;
    struct zbc_sig_cache *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->w = calloc(sets * WAYS, sizeof *c->w);
    if (c->w == NULL || pthread_mutex_init(&c->lock, NULL) != 0) {
        free(c->w);
        free(c);
        return NULL;
    }
    c->sets = sets;
    c->max_bytes = max_bytes;
    return c;
}

void zbc_sig_cache_free(struct zbc_sig_cache *c)
{
    if (c == NULL)
        return;
    for (size_t i = 0; i < c->sets * WAYS; i++)
        free(c->w[i].bytes);
    free(c->w);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

static struct way *set_of(struct zbc_sig_cache *c, const uint8_t hash[32])
{
    uint64_t k;
    memcpy(&k, hash, 8); /* SHA3 output: uniform */
    return &c->w[((size_t)k & (c->sets - 1)) * WAYS];
}

static bool same(const struct way *w, const uint8_t hash[32],
                 const uint8_t *raw, size_t len)
{
    return w->bytes != NULL && w->len == len &&
           memcmp(w->hash, hash, 32) == 0 && memcmp(w->bytes, raw, len) == 0;
}

/* Whether the cache holds raw (hash = SHA3-256(raw)); counted in the
 * hit/miss statistics when count. */
static bool lookup(struct zbc_sig_cache *c, const uint8_t hash[32],
                   const uint8_t *raw, size_t len, bool count)
{
    bool hit = false;
    pthread_mutex_lock(&c->lock);
    struct way *set = set_of(c, hash);
    for (size_t i = 0; i < WAYS && !hit; i++)
        hit = same(&set[i], hash, raw, len);
    if (count && hit)
        c->hits++;
    else if (count)
        c->misses++;
    pthread_mutex_unlock(&c->lock);
    return hit;
}

void zbc_sig_cache_add(struct zbc_sig_cache *c, const uint8_t *raw,
                       size_t len)
{
    uint8_t hash[32];
    zbc_sha3_256(hash, raw, len);
    zbc_sig_cache_add_hashed(c, hash, raw, len);
}

void zbc_sig_cache_add_hashed(struct zbc_sig_cache *c, const uint8_t hash[32],
                              const uint8_t *raw, size_t len)
{
    if (lookup(c, hash, raw, len, false))
        return; /* no copy made for a transaction already recorded */
    uint8_t *copy = malloc(len > 0 ? len : 1);
    if (copy == NULL)
        return;
    if (len > 0)
        memcpy(copy, raw, len);
    pthread_mutex_lock(&c->lock);
    struct way *set = set_of(c, hash), *victim = &set[0];
    for (size_t i = 0; i < WAYS; i++) {
        if (same(&set[i], hash, raw, len)) {
            victim = NULL;
            break;
        }
        if (victim->bytes != NULL &&
            (set[i].bytes == NULL || set[i].stamp < victim->stamp))
            victim = &set[i];
    }
    if (victim != NULL) {
        size_t freed = victim->bytes != NULL ? victim->len : 0;
        if (c->bytes - freed <= c->max_bytes &&
            len <= c->max_bytes - (c->bytes - freed)) {
            if (victim->bytes != NULL) {
                free(victim->bytes);
                c->entries--;
                c->bytes -= freed;
            }
            memcpy(victim->hash, hash, 32);
            victim->bytes = copy;
            victim->len = len;
            victim->stamp = c->clock++;
            c->entries++;
            c->bytes += len;
            copy = NULL;
        }
    }
    pthread_mutex_unlock(&c->lock);
    free(copy);
}

bool zbc_sig_cache_has(struct zbc_sig_cache *c, const uint8_t *raw,
                       size_t len)
{
    uint8_t hash[32];
    zbc_sha3_256(hash, raw, len);
    return lookup(c, hash, raw, len, true);
}

static bool known_fn(void *ctx, const uint8_t hash[32], const uint8_t *raw,
                     size_t len)
{
    return lookup(ctx, hash, raw, len, true);
}

struct probe {
    struct zbc_sig_cache *c;
    bool hit;
};

static bool probe_fn(void *ctx, const uint8_t hash[32], const uint8_t *raw,
                     size_t len)
{
    struct probe *p = ctx;
    p->hit = lookup(p->c, hash, raw, len, true);
    return p->hit;
}

int zbc_sig_cache_check_hashed(struct zbc_sig_cache *c,
                               struct zbc_checked_tx *ct,
                               const struct zbc_genesis *g,
                               const uint8_t *raw, size_t len,
                               const uint8_t hash[32], struct zbc_err *err)
{
    struct probe p = {c, false};
    struct zbc_tx_known k = {probe_fn, &p};
    uint8_t h[32]; /* ct is filled below: hash may be the caller's ct's */
    memcpy(h, hash, 32);
    if (!zbc_tx_check_stateless_hashed(ct, g, raw, len, h, &k, err))
        return 0;
    if (!p.hit) /* valid: its bytes parsed whole, ct->hash = SHA3-256(raw) */
        zbc_sig_cache_add_hashed(c, ct->hash, raw, len);
    return 1;
}

int zbc_sig_cache_check(struct zbc_sig_cache *c, struct zbc_checked_tx *ct,
                        const struct zbc_genesis *g, const uint8_t *raw,
                        size_t len, struct zbc_err *err)
{
    uint8_t hash[32];
    zbc_sha3_256(hash, raw, len);
    return zbc_sig_cache_check_hashed(c, ct, g, raw, len, hash, err);
}

struct zbc_tx_known zbc_sig_cache_known(struct zbc_sig_cache *c)
{
    return (struct zbc_tx_known){known_fn, c};
}

void zbc_sig_cache_stats(struct zbc_sig_cache *c,
                         struct zbc_sig_cache_stats *out)
{
    pthread_mutex_lock(&c->lock);
    out->entries = c->entries;
    out->bytes = c->bytes;
    out->hits = c->hits;
    out->misses = c->misses;
    pthread_mutex_unlock(&c->lock);
}
