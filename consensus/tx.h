/* The ZooBC transaction envelope (docs/protocol-tx.md §1-§2).
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
    uint8_t multi_party; /* 0, or 1 with the three fields below */
    const uint8_t *cosigner_sig;
    uint32_t cosigner_sig_len;
    int64_t request_id;
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

/* ---- parsing ---- */

/* Parses a whole transaction, well-formed to the last byte (docs/protocol-tx.md
 * §1): every field present, the escrow block complete, the signature
 * exactly as long as the sender's type fixes (Bitcoin types: the rest,
 * 1..ZBC_SIG_MAX bytes), nothing after it, len <= ZBC_TX_MAX_BYTES.  Any
 * type code, version and message length parse; validity is tx_valid.h's.
 * On failure *tx is untouched. */
ZBC_WUR int zbc_tx_parse(struct zbc_tx *tx, const uint8_t *buf, size_t len,
                         struct zbc_err *err);

/* ---- building (the wallet) ----
 * Fill a struct zbc_tx by hand: type, version, timestamp, sender,
 * recipient (zbc_addr_empty when none), fee, body/body_len, has_escrow and
 * escrow, message/message_len, and sig/sig_len for zbc_tx_write.  raw,
 * raw_len and unsigned_len are ignored. */

/* Length of the unsigned bytes (fields 1-11) of these fields. */
ZBC_WUR int zbc_tx_unsigned_size(const struct zbc_tx *tx, size_t *size,
                                 struct zbc_err *err);

/* Writes the unsigned bytes into out (cap bytes); *written gets the count. */
ZBC_WUR int zbc_tx_write_unsigned(uint8_t *out, size_t cap, size_t *written,
                                  const struct zbc_tx *tx, struct zbc_err *err);

/* Writes the unsigned bytes followed by tx->sig (the transaction bytes). */
ZBC_WUR int zbc_tx_write(uint8_t *out, size_t cap, size_t *written,
                         const struct zbc_tx *tx, struct zbc_err *err);

/* Signs as a ZooBC (type 0) sender with the 32-byte seed: sets
 * tx->sender to the seed's account, writes the unsigned bytes, signs the v2
 * digest for genesis_hash (or the v1 digest when genesis_hash is NULL) and
 * writes the transaction bytes into out.  tx->sig is left NULL: parse out
 * to get a struct pointing into it. */
ZBC_WUR int zbc_tx_sign_ed25519(uint8_t *out, size_t cap, size_t *written,
                                struct zbc_tx *tx, const uint8_t seed[32],
                                const uint8_t *genesis_hash,
                                struct zbc_err *err);

/* ---- digests and identity ---- */

#define ZBC_TX_SIGNING_TAG "ZBC-TX"

/* Signing version 2: H("ZBC-TX" || genesis_hash || unsigned_bytes). */
void zbc_tx_digest_v2(uint8_t out[32], const uint8_t genesis_hash[32],
                      const uint8_t *unsigned_bytes, size_t len);
/* Signing version 1 (legacy, bare): H(unsigned_bytes). */
void zbc_tx_digest_v1(uint8_t out[32], const uint8_t *unsigned_bytes,
                      size_t len);
/* The v2 digest of a parsed transaction. */
void zbc_tx_signing_digest(uint8_t out[32], const struct zbc_tx *tx,
                           const uint8_t genesis_hash[32]);
/* Transaction hash: H(unsigned_bytes || signature) = H(raw). */
void zbc_tx_hash(uint8_t out[32], const struct zbc_tx *tx);
/* Transaction id: the first 8 bytes of the hash as a LE u64. */
uint64_t zbc_tx_id_from_hash(const uint8_t hash[32]);

#endif
