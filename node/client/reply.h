/* Shape checks for a node's JSON reply: a client distrusts the node, so
 * every field it uses is checked to exist with the right JSON type and
 * range before it is read (docs/wallet.md "Node replies").  Each check
 * fails with one sentence naming the reply and the field:
 *   "<what> has no \"status\""                    (missing)
 *   "<what>: \"status\" must be a string, not an integer"   (wrong type)
 *   "<what>: \"block_height\" 5000000000 is not in 0..4294967295"
 * what names the reply ("the node's reply to GET /api/v1/...").  o may be
 * any JSON value (a non-object has no field). */
#ifndef ZBC_CLIENT_REPLY_H
#define ZBC_CLIENT_REPLY_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"

/* The JSON type's name ("a string", "an integer", "null", ...). */
const char *zbc_reply_type_name(const json_t *v);

/* A string field. *out borrows o. */
ZBC_WUR int zbc_reply_str(const json_t *o, const char *key, const char *what,
                          const char **out, struct zbc_err *err);

/* A whole number in [min, max]: a JSON integer, or a decimal string (as
 * the node writes a u64 above 2^63-1). */
ZBC_WUR int zbc_reply_u64(const json_t *o, const char *key, uint64_t min,
                          uint64_t max, const char *what, uint64_t *out,
                          struct zbc_err *err);

ZBC_WUR int zbc_reply_bool(const json_t *o, const char *key, const char *what,
                           bool *out, struct zbc_err *err);

/* A hex string of exactly n bytes (either case). */
ZBC_WUR int zbc_reply_hex(const json_t *o, const char *key, size_t n,
                          const char *what, uint8_t *out, struct zbc_err *err);

/* An array / object field. *out borrows o. */
ZBC_WUR int zbc_reply_array(const json_t *o, const char *key,
                            const char *what, json_t **out,
                            struct zbc_err *err);
ZBC_WUR int zbc_reply_object(const json_t *o, const char *key,
                             const char *what, json_t **out,
                             struct zbc_err *err);

/* Whether the field is absent or null (optional fields). */
bool zbc_reply_absent(const json_t *o, const char *key);

#endif
