/* The ZooBC transaction envelope (SPEC §3, reference/zoobc/signing.md).
 *
 * Parsing is zero-copy: body, message and signature point into the
 * caller's buffer, which must outlive the struct.  A parsed transaction is
 * *well-formed*; whether it is *valid* on this chain is tx_valid.h's job. */
#ifndef ZBC_TX_H
#define ZBC_TX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crypto/address.h"
#include "crypto/err.h"

enum zbc_tx_type {
    ZBC_TX_SEND = 1,
    ZBC_TX_APP_CREATE = 24,
    ZBC_TX_APP_JOIN = 25,
    ZBC_TX_APP_MOVE = 26,
    ZBC_TX_APP_RESIGN = 27,
    ZBC_TX_APP_CLAIM = 28,
};

#define ZBC_TX_VERSION 1
#define ZBC_TX_MESSAGE_MAX 1024
#define ZBC_TX_MAX_BYTES (2u * 1024 * 1024) /* one transaction fits a block */
#define ZBC_SIG_MAX 98

struct zbc_escrow {
    struct zbc_addr approver;
    int64_t commission;
    int64_t timeout;
    const uint8_t *instruction;
    uint32_t instruction_len;
    uint8_t multi_party;
};

struct zbc_tx {
    uint32_t type;
    uint8_t version;
    int64_t timestamp;
    struct zbc_addr sender;
    struct zbc_addr recipient;
    int64_t fee;
    const uint8_t *body;
    uint32_t body_len;
    bool has_escrow;
    struct zbc_escrow escrow;
    const uint8_t *message;
    uint32_t message_len;
    const uint8_t *sig;
    size_t sig_len;
    const uint8_t *raw;   /* the whole transaction bytes */
    size_t raw_len;
    size_t unsigned_len;  /* raw[0 .. unsigned_len) are the unsigned bytes */
};

#endif
