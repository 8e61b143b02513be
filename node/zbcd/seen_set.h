/* The gossip de-duplication set (docs/p2p.md "Gossip"): the hashes of the
 * transactions and blocks this node saw last, so a message that comes
 * back from another peer is dropped before any work.
 *
 * A FIFO of `cap` hashes (the oldest goes when a new one arrives and the
 * set is full) indexed by an open-addressing hash table of 2 × cap slots
 * or more: look-up, insertion and removal are O(1), memory is fixed at
 * creation.  Slots are chosen by SipHash-2-4 of the hash under a random
 * key, so peers cannot choose hashes that pile up in one place of the
 * table. */
#ifndef ZBC_SEEN_SET_H
#define ZBC_SEEN_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The hash index under the set (also node/zbcd/tx_fetch.c): 32-byte keys
 * the caller keeps at keys + pos * stride (pos < cap) found by key in
 * O(1).  The caller writes a key before inserting its position and
 * removes it before overwriting it. */
struct zbc_hidx {
    uint64_t *table;     /* the key's tag (32 bits of its SipHash, whose
                          * low bits are its home slot) << 32 | pos + 1;
                          * 0 = empty (linear probing): a probe reads a
                          * key only when the tags match, and a removal
                          * moves entries without hashing their keys */
    size_t mask;         /* table size - 1, at least 2 x cap */
    const uint8_t *keys;
    size_t stride;
    uint8_t key[16];     /* SipHash-2-4 key (crypto_shorthash) */
};
/* 0 on allocation failure or cap 0. */
int zbc_hidx_init(struct zbc_hidx *x, size_t cap, const uint8_t *keys,
                  size_t stride);
void zbc_hidx_free(struct zbc_hidx *x);
/* The position holding h, SIZE_MAX when none. */
size_t zbc_hidx_find(const struct zbc_hidx *x, const uint8_t h[32]);
/* Indexes the key at pos (no-op when that key is indexed already). */
void zbc_hidx_insert(struct zbc_hidx *x, size_t pos);
/* Unindexes h (no-op when absent). */
void zbc_hidx_remove(struct zbc_hidx *x, const uint8_t h[32]);

struct zbc_seen;

/* cap > 0 (rounded to at least 1); NULL on allocation failure. */
struct zbc_seen *zbc_seen_new(size_t cap);
void zbc_seen_free(struct zbc_seen *s);

bool zbc_seen_has(const struct zbc_seen *s, const uint8_t h[32]);
/* Adds h unless present (its place in the FIFO then stays); when full,
 * the oldest entry is forgotten first. */
void zbc_seen_add(struct zbc_seen *s, const uint8_t h[32]);
/* Removes h (no-op when absent); its FIFO place stays used until its turn
 * to be replaced, as if it had been evicted early. */
void zbc_seen_forget(struct zbc_seen *s, const uint8_t h[32]);
/* Hashes held. */
size_t zbc_seen_count(const struct zbc_seen *s);

#endif
