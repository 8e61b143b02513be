/* Bodies of the six transaction types this chain implements
 * (docs/protocol-tx.md §3).
 *
 *   1  SendZBC          amount u64
 *   24 CreateApp        app_type u8 | stake_token u64 | stake u64 | seats u8 |
 *                       params_len u16 | params | [opponent: 36 bytes]
 *   25 JoinApp          app_id u64
 *   26 AppMove          app_id u64 | move_len u16 | move
 *   27 ResignApp        app_id u64
 *   28 ClaimAppTimeout  app_id u64
 *
 * All little-endian.  A body parses only when its length is exact.  The
 * optional opponent is a typed ZooBC address (type 0, 4 + 32 bytes).
 * Parsing is zero-copy: params and move point into the body bytes. */
#ifndef ZBC_TX_BODY_H
#define ZBC_TX_BODY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "consensus/tx.h"
#include "crypto/address.h"
#include "crypto/err.h"

#define ZBC_APP_OPPONENT_LEN 36

struct zbc_body_send {
    uint64_t amount;
};

struct zbc_body_app_create {
    uint8_t app_type;
    uint64_t stake_token;
    uint64_t stake;
    uint8_t seats;
    const uint8_t *params;
    uint16_t params_len;
    bool has_opponent;
    struct zbc_addr opponent;
};

/* JoinApp, ResignApp, ClaimAppTimeout */
struct zbc_body_app_ref {
    uint64_t app_id;
};

struct zbc_body_app_move {
    uint64_t app_id;
    const uint8_t *move;
    uint16_t move_len; /* 0 = keep-alive */
};

struct zbc_tx_body {
    enum zbc_tx_type type;
    union {
        struct zbc_body_send send;
        struct zbc_body_app_create create;
        struct zbc_body_app_ref ref;
        struct zbc_body_app_move move;
    } u;
};

/* True for the type codes this chain implements (1, 24-28). */
bool zbc_tx_type_known(uint32_t type);

/* Parses the body of a transaction of type `type`.  On failure *body is
 * untouched and err names the type and what was wrong. */
ZBC_WUR int zbc_tx_body_parse(struct zbc_tx_body *body, uint32_t type,
                              const uint8_t *buf, size_t len,
                              struct zbc_err *err);

/* Exact encoded size of a body. */
size_t zbc_tx_body_size(const struct zbc_tx_body *body);

/* Writes the body into out (cap bytes); *written gets the count.  Fails on
 * a small buffer or an opponent that is not a ZooBC address. */
ZBC_WUR int zbc_tx_body_write(uint8_t *out, size_t cap, size_t *written,
                              const struct zbc_tx_body *body,
                              struct zbc_err *err);

/* Largest encoded body: CreateApp with 65535 params bytes and an opponent. */
#define ZBC_TX_BODY_MAX (1 + 8 + 8 + 1 + 2 + 65535 + ZBC_APP_OPPONENT_LEN)

#endif
