/* JSON views of chain objects for the HTTP API (docs/api.md), and the
 * decoding of a submit request body.  Pure functions over jansson: no
 * HTTP, no ledger, so they are unit-tested and fuzzed on their own.
 *
 * Conventions of every view:
 *   - hashes, keys, proofs, roots and raw bytes are lower-case hex, except
 *     node/info's genesis_hash, which is upper case as ZooBC nodes send it;
 *   - amounts are JSON integers; an amount above 2^63-1 (possible only for
 *     a supply that large) is written as a decimal string instead;
 *   - addresses are given both as text (ZBC_..., 0x..., 1...) and as the
 *     submit payload's hex form. */
#ifndef ZBC_NODE_JSON_UTIL_H
#define ZBC_NODE_JSON_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "consensus/block.h"
#include "consensus/events.h"
#include "crypto/address.h"
#include "crypto/err.h"
#include "node/client/json.h"

/* Largest accepted submit body (also the HTTP body limit). */
#define ZBC_API_MAX_BODY ((size_t)4 << 20)

/* zbc_json_u64, zbc_json_hex, zbc_json_hex_upper: node/client/json.h.
 * New reference; NULL only when out of memory.  Text form of an address; JSON null for the empty address (type 2). */
json_t *zbc_json_addr_text(const struct zbc_addr *a);

/* Sets obj[key] = val (stealing val); fails when val is NULL. */
ZBC_WUR int zbc_json_set(json_t *obj, const char *key, json_t *val,
                         struct zbc_err *err);

/* Decodes a POST /api/v1/transactions body: one JSON object, either the
 * ZooBC submit payload (consensus/tx_payload.h) or exactly
 * {"transaction_bytes": "<hex>"}.  Duplicate keys, trailing data, other
 * JSON types and bad hex are refused with a sentence saying which.
 * *raw is malloc'ed on success only. */
ZBC_WUR int zbc_json_submit_body(uint8_t **raw, size_t *len, const char *body,
                                 size_t body_len, struct zbc_err *err);
/* The same for one parsed value (a batch's element, docs/api.md §3):
 * reads obj only, so threads may decode elements of one array at once. */
ZBC_WUR int zbc_json_submit_value(uint8_t **raw, size_t *len,
                                  const json_t *obj, struct zbc_err *err);

/* A transaction's view: the submit payload fields (transaction_hash,
 * version, timestamp, transaction_type, sender_account_address,
 * recipient_account_address, fee, transaction_body_bytes, signature,
 * message_hex, escrow) plus transaction_bytes, transaction_id (decimal
 * string), transaction_type_name, sender, recipient (text forms) and the
 * decoded body fields (amount; app_id, app_type, stake, seats, params_hex,
 * opponent, move_hex).  raw must parse. */
ZBC_WUR int zbc_json_tx(json_t **out, const uint8_t *raw, size_t len,
                        struct zbc_err *err);

/* One event: kind (name), tx_index (null for block-level), tx_hash (null
 * for a block-level event that names no transaction),
 * from/to (text or null), amount, ref, reason; app kinds also seat (null
 * for none) and data (hex). */
ZBC_WUR int zbc_json_event(json_t **out, const struct zbc_event *e,
                           struct zbc_err *err);

/* A block's view: height, block_hash, hash (the same, for gateway
 * clients), version, timestamp (ms), previous_block_hash, producer (hex),
 * producer_address (ZNK_), rank, weight, seed, vrf_proof,
 * transactions_root, state_root, tx_count, signature, transactions (hash
 * list) and events (ev NULL: no "events" key, the view asked without
 * them). */
ZBC_WUR int zbc_json_block(json_t **out, const struct zbc_block *b,
                           const struct zbc_events *ev, struct zbc_err *err);

#endif
