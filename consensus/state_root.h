/* The state-root accumulator: a lattice multiset hash (LtHash).
 *
 * For every state entry (table, key, value) the element vector is
 *   ChaCha20(key = SHA3-256(table_u8 || klen_u8 || key || vlen_u32 || value),
 *            nonce = 0, counter from 0), its first 2048 keystream bytes
 * read as 1024 little-endian u16 lanes.  The accumulator is the lane-wise
 * sum mod 2^16 of the vectors of all entries; adding an entry adds its
 * vector, removing subtracts it, so a block costs O(changes), and the
 * result does not depend on the order of writes.
 * state_root = SHA3-256(accumulator as 2048 bytes, lanes LE).
 * Byte-for-byte description: docs/protocol-chain.md, "State root". */
#ifndef ZBC_STATE_ROOT_H
#define ZBC_STATE_ROOT_H

#include <stddef.h>
#include <stdint.h>

#define ZBC_LTHASH_LANES 1024
#define ZBC_LTHASH_BYTES (2 * ZBC_LTHASH_LANES)

struct zbc_lthash {
    uint16_t lane[ZBC_LTHASH_LANES];
};

void zbc_lthash_zero(struct zbc_lthash *h);
/* Adds / subtracts the element vector of one entry. */
void zbc_lthash_add(struct zbc_lthash *h, uint8_t table, const uint8_t *key,
                    size_t klen, const uint8_t *val, size_t vlen);
void zbc_lthash_sub(struct zbc_lthash *h, uint8_t table, const uint8_t *key,
                    size_t klen, const uint8_t *val, size_t vlen);
/* Serialized form (lanes LE) and back. */
void zbc_lthash_to_bytes(uint8_t out[ZBC_LTHASH_BYTES],
                         const struct zbc_lthash *h);
void zbc_lthash_from_bytes(struct zbc_lthash *h,
                           const uint8_t in[ZBC_LTHASH_BYTES]);
/* SHA3-256 of the serialized accumulator. */
void zbc_lthash_root(uint8_t root[32], const struct zbc_lthash *h);

/* ---- many updates at once (consensus/state.c's fold) ----
 *
 * An entry's element costs one ChaCha20 expansion to 2048 bytes, most of
 * the state root's cost.  zbc_lthash_apply adds and subtracts the elements
 * of many entries, each given by its digest (the SHA3-256 above, computed
 * by the caller while the value is at hand), optionally:
 *   - with a cache of elements by digest: a key written in one block and
 *     again in a later one subtracts the element its earlier value added
 *     (the same digest), so the cached copy spares the expansion; only
 *     elements marked `keep` are stored (the caller's guess of which will
 *     be subtracted later), and a full cache replaces older entries;
 *   - on several threads (a runner such as the node's verify pool).
 * The result is the same with or without either: each term is a pure
 * function of its digest and the sum mod 2^16 does not depend on order. */
struct zbc_lthash_op {
    uint8_t digest[32];
    uint8_t sub;  /* 1: subtract, 0: add */
    uint8_t keep; /* store the element in the cache */
};

/* The digest of one entry, as zbc_lthash_add hashes it. */
void zbc_lthash_digest(uint8_t digest[32], uint8_t table, const uint8_t *key,
                       size_t klen, const uint8_t *val, size_t vlen);

struct zbc_lthash_cache;
/* entries: the cache's size (rounded up to a power of two, each entry
 * 2 KiB + 40 bytes); NULL when out of memory. */
struct zbc_lthash_cache *zbc_lthash_cache_new(size_t entries);
void zbc_lthash_cache_free(struct zbc_lthash_cache *c);
/* Look-ups that found the element / did not (since creation). */
void zbc_lthash_cache_stats(const struct zbc_lthash_cache *c, uint64_t *hits,
                            uint64_t *misses);

/* run(pool, n, fn, ctx): calls fn(ctx, i) once for each i < n, possibly
 * on several threads at once, and returns when all are done
 * (zbc_verify_pool_run). */
typedef void (*zbc_lthash_runner)(void *pool, size_t n,
                                  void (*fn)(void *ctx, size_t i), void *ctx);
struct zbc_lthash_accel {
    struct zbc_lthash_cache *cache; /* NULL: none */
    zbc_lthash_runner run;          /* NULL: this thread only */
    void *pool;
};

/* h += the signed elements of ops[0..n).  a may be NULL.  Cannot fail:
 * without memory for the parallel sums it works on this thread alone. */
void zbc_lthash_apply(struct zbc_lthash *h, const struct zbc_lthash_op *ops,
                      size_t n, const struct zbc_lthash_accel *a);

#endif
