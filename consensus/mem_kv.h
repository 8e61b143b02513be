/* An in-memory struct zbc_kv backend (unit tests, zbc-audit replays).
 * Per table a hash index over a slab of entries: get, put and delete in
 * O(1) expected (SipHash with a per-map random key, so no choice of keys
 * degrades it); `each` walks in key order (bytes, then length) from a
 * sorted list kept between walks, so a walk after k inserts costs
 * O(n + k log k).  Every operation is exact and bounds-checked
 * (docs/audit.md §6). */
#ifndef ZBC_MEM_KV_H
#define ZBC_MEM_KV_H

#include <stddef.h>

#include "consensus/state.h"

struct zbc_mem_kv;

/* NULL on allocation failure. */
struct zbc_mem_kv *zbc_mem_kv_new(void);
void zbc_mem_kv_free(struct zbc_mem_kv *m);
struct zbc_kv zbc_mem_kv(struct zbc_mem_kv *m);
/* Entries in table t (tests). */
size_t zbc_mem_kv_count(const struct zbc_mem_kv *m, enum zbc_table t);
/* Deep copy (for comparing states in tests); NULL on failure. */
struct zbc_mem_kv *zbc_mem_kv_clone(const struct zbc_mem_kv *m);
/* 1 when both hold exactly the same entries. */
int zbc_mem_kv_equal(const struct zbc_mem_kv *a, const struct zbc_mem_kv *b);

#endif
