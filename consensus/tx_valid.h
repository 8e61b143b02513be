/* Stateless validity of a transaction on this chain
 * (docs/protocol-tx.md §4).  The mempool and block validation call
 * the same function, so both refuse exactly the same transactions with the
 * same error text.  Stateful rules (balance, duplicate hash, timestamp
 * window against the block) belong to consensus/apply.h; the window rule
 * itself is zbc_tx_valid_time below. */
#ifndef ZBC_TX_VALID_H
#define ZBC_TX_VALID_H

#include <stddef.h>
#include <stdint.h>

#include "consensus/tx.h"
#include "consensus/tx_body.h"
#include "crypto/err.h"

#define ZBC_TX_FUTURE_S 10   /* timestamp <= block time + 10 s */
#define ZBC_TX_PAST_S 3600   /* timestamp >= block time - 3600 s */

/* Checks, in this order (the first failing one is reported):
 *   known type (1, 24-28); version 1; sender type supported (0, 1, 4, 5);
 *   recipient: SendZBC needs one of a supported type, app transactions
 *   take none (02000000); no escrow; message <= 1024 bytes; body
 *   well-formed for the type; fee >= min_fee_base + min_fee_per_byte *
 *   tx->raw_len (overflow-checked); signature valid for the sender type
 *   over the v2 digest with genesis_hash.
 * tx must come from zbc_tx_parse.  body (may be NULL) receives the parsed
 * body on success. */
ZBC_WUR int zbc_tx_valid(const struct zbc_tx *tx, const uint8_t genesis_hash[32],
                         uint64_t min_fee_base, uint64_t min_fee_per_byte,
                         struct zbc_tx_body *body, struct zbc_err *err);

/* The fee rule alone; error text contains "fee too low". */
ZBC_WUR int zbc_tx_valid_fee(int64_t fee, size_t tx_len, uint64_t min_fee_base,
                             uint64_t min_fee_per_byte, struct zbc_err *err);

/* The timestamp window: tx_timestamp (Unix s) * 1000 must lie in
 * [block_time_ms - 3600000, block_time_ms + 10000]. */
ZBC_WUR int zbc_tx_valid_time(int64_t tx_timestamp, uint64_t block_time_ms,
                              struct zbc_err *err);

#endif
