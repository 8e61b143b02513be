/* The state-root accumulator: a lattice multiset hash (LtHash).
 *
 * For every state entry (table, key, value) the element vector is
 *   SHAKE256(SHA3-256(table_u8 || klen_u8 || key || vlen_u32 || value), 2048)
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

#endif
