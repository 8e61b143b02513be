/* The verified-signature cache (docs/benchmarks.md "Verification"): the bytes
 * of transactions that passed zbc_tx_check_stateless on this chain, so a
 * transaction verified at mempool admission is not verified again when
 * its block is built or applied.
 *
 * An entry is the transaction's hash (SHA3-256 of its bytes) and a copy of
 * the bytes; a lookup hits only when the hash AND every byte are equal,
 * so no other transaction (another signature, a changed field, a hash
 * collision) can be taken for a verified one.  The cache belongs to one
 * chain (one genesis); the node fills it only after a successful
 * zbc_mempool_add.  Bounded: max_entries in 4-way sets (a full set
 * replaces its oldest entry) and max_bytes of copies (an entry that would
 * pass the budget is not cached).  Thread-safe (one mutex): block
 * prechecks look up from every core. */
#ifndef ZBC_SIG_CACHE_H
#define ZBC_SIG_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "consensus/apply.h"

struct zbc_sig_cache;

/* NULL on allocation failure.  max_entries is rounded up to a power of
 * two (at least 4). */
struct zbc_sig_cache *zbc_sig_cache_new(size_t max_entries, size_t max_bytes);
void zbc_sig_cache_free(struct zbc_sig_cache *c);

/* Records raw: call only with bytes zbc_tx_check_stateless accepted for
 * this chain.  Out of memory or over the byte budget: not recorded. */
void zbc_sig_cache_add(struct zbc_sig_cache *c, const uint8_t *raw,
                       size_t len);
/* zbc_sig_cache_add when the caller has SHA3-256(raw) (the transaction
 * hash) already: hash must be it. */
void zbc_sig_cache_add_hashed(struct zbc_sig_cache *c, const uint8_t hash[32],
                              const uint8_t *raw, size_t len);
bool zbc_sig_cache_has(struct zbc_sig_cache *c, const uint8_t *raw,
                       size_t len);

/* zbc_tx_check_stateless through the cache: bytes it holds are only
 * parsed; others are checked in full and, when valid, recorded. */
ZBC_WUR int zbc_sig_cache_check(struct zbc_sig_cache *c,
                                struct zbc_checked_tx *ct,
                                const struct zbc_genesis *g,
                                const uint8_t *raw, size_t len,
                                struct zbc_err *err);

/* zbc_sig_cache_check when the caller has SHA3-256(raw) already: hash
 * must be it. */
ZBC_WUR int zbc_sig_cache_check_hashed(struct zbc_sig_cache *c,
                                       struct zbc_checked_tx *ct,
                                       const struct zbc_genesis *g,
                                       const uint8_t *raw, size_t len,
                                       const uint8_t hash[32],
                                       struct zbc_err *err);

/* The cache as the consensus functions' hint (apply.h). */
struct zbc_tx_known zbc_sig_cache_known(struct zbc_sig_cache *c);

/* misses: look-ups that found nothing.  Every node path checks a
 * transaction's signature through the cache (zbc_sig_cache_check or the
 * hint), so each miss is one full stateless check: a signature
 * verification. */
struct zbc_sig_cache_stats {
    size_t entries, bytes;
    uint64_t hits, misses;
};
void zbc_sig_cache_stats(struct zbc_sig_cache *c,
                         struct zbc_sig_cache_stats *out);

#endif
