/* JSON helpers every program shares (zbcd's API views, the wallet's output,
 * zbc-audit's reports): small constructors over jansson. */
#ifndef ZBC_CLIENT_JSON_H
#define ZBC_CLIENT_JSON_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/* New references; NULL only when out of memory. */
/* A u64 as a JSON integer, or as a decimal string above 2^63-1. */
json_t *zbc_json_u64(uint64_t v);
/* Lower-case hex of the bytes as a JSON string. */
json_t *zbc_json_hex(const uint8_t *p, size_t n);
/* Upper-case hex (node/info's genesis_hash, as ZooBC nodes send it). */
json_t *zbc_json_hex_upper(const uint8_t *p, size_t n);

#endif
