/* The ZooBC submit payload (docs/protocol-tx.md §5): the JSON object a
 * wallet POSTs to /api/v1/transactions and prints under "payload".
 *
 *   version, timestamp, transaction_type, fee        integers
 *   sender_account_address     hex: a ZooBC (type 0) sender as the bare
 *                              32-byte key, any other type as full typed
 *                              bytes
 *   recipient_account_address  hex, same rule; "" when there is none
 *   transaction_body_bytes     hex
 *   signature                  hex
 *   message_hex                hex, only when there is a message
 *   escrow                     only with an escrow: {approver_address
 *                              (full typed hex), commission, timeout,
 *                              instruction (only when not empty)}
 *
 * The node also accepts {"transaction_bytes": "<hex>"}. */
#ifndef ZBC_TX_PAYLOAD_H
#define ZBC_TX_PAYLOAD_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "consensus/tx.h"
#include "crypto/err.h"

/* Builds the payload object of a transaction (parsed or built; its sig
 * must be set).  *out is a new reference. */
ZBC_WUR int zbc_tx_payload_build(json_t **out, const struct zbc_tx *tx,
                                 struct zbc_err *err);

/* Rebuilds the transaction bytes from a payload object and checks they
 * parse (zbc_tx_parse).  *bytes is malloc'ed (caller frees) and only set
 * on success. */
ZBC_WUR int zbc_tx_payload_parse(uint8_t **bytes, size_t *len,
                                 const json_t *payload, struct zbc_err *err);

#endif
