/* The genesis file: chain identity and consensus parameters
 * (docs/protocol-chain.md §1).
 *
 * Input is a JSON object (parsed strictly: unknown keys, duplicate keys,
 * wrong types, bad addresses, duplicate accounts and a supply that
 * overflows u64 are errors).  Keys:
 *
 *   chain_name        string, 1..64 printable ASCII            (required)
 *   genesis_time      Unix ms, integer >= 0                    (required)
 *   block_time_ms     integer 1..3600000, default 15000
 *   smith_delay_ms    integer 1..3600000, default 10000
 *   validators        array of node keys, ZNK_ text or 64 hex,
 *                     1..ZBC_VALIDATORS_MAX, no repeats        (required)
 *   fund_account      address text (any supported form)        (required)
 *   fund_balance      amount                                   (required)
 *   balances          array of {"address": text, "amount": amount}
 *   min_fee_base      amount, default 0
 *   min_fee_per_byte  amount, default 0
 *   move_deadline     blocks, integer 1..1000000, default 240
 *   rake_bps          integer 0..10000, default 100
 *   max_block_bytes   integer 1024..2097152, default 2097152
 *   open_deadline     blocks, integer 1..1000000, default 5760: an Open
 *                     app nobody fills expires that many blocks after
 *                     its creation (docs/protocol-apps.md §2)
 *
 * An amount is a JSON integer >= 0 or a decimal string (for values past
 * 2^63).  The canonical bytes (docs/protocol-chain.md "Genesis") are
 * versioned, fixed-order, LE; genesis_hash = SHA3-256(canonical bytes) is
 * the chain identity used in every signing digest. */
#ifndef ZBC_GENESIS_H
#define ZBC_GENESIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crypto/address.h"
#include "crypto/err.h"

#define ZBC_GENESIS_VERSION 2
#define ZBC_OPEN_DEADLINE_DEFAULT 5760 /* one day of 15-s blocks */
#define ZBC_CHAIN_NAME_MAX 64
#define ZBC_VALIDATORS_MAX 64
#define ZBC_GENESIS_BALANCES_MAX 100000
#define ZBC_BLOCK_TX_BYTES_LIMIT (2u * 1024 * 1024) /* docs/protocol-chain.md §2.2 */

struct zbc_genesis_balance {
    struct zbc_addr addr;
    uint64_t amount;
};

struct zbc_genesis {
    char chain_name[ZBC_CHAIN_NAME_MAX + 1];
    uint64_t genesis_time_ms;
    uint32_t block_time_ms;
    uint32_t smith_delay_ms;
    uint32_t n_validators;
    uint8_t validators[ZBC_VALIDATORS_MAX][32]; /* sorted ascending */
    struct zbc_addr fund_account;
    uint64_t fund_balance;
    uint32_t n_balances;
    struct zbc_genesis_balance *balances; /* heap, sorted by address bytes */
    uint64_t min_fee_base;
    uint64_t min_fee_per_byte;
    uint32_t move_deadline;
    uint32_t rake_bps;
    uint32_t max_block_bytes;
    uint32_t open_deadline;
    /* derived */
    uint64_t total_supply; /* fund_balance + sum of balances */
    uint8_t hash[32];      /* genesis_hash */
};

/* Parses a genesis JSON text (len bytes, need not be NUL-terminated) and
 * fills every field including total_supply and hash.  On failure g is
 * left zeroed (nothing to free). */
ZBC_WUR int zbc_genesis_parse_json(struct zbc_genesis *g, const char *json,
                                   size_t len, struct zbc_err *err);
/* Reading the file is the node's job: node/client/genesis_file.h. */
void zbc_genesis_free(struct zbc_genesis *g);

/* Canonical bytes: *out is malloc'ed. */
ZBC_WUR int zbc_genesis_encode(const struct zbc_genesis *g, uint8_t **out,
                               size_t *len, struct zbc_err *err);
/* Decodes canonical bytes (e.g. received from a peer), checking every
 * constraint the JSON parser checks and that the bytes are canonical
 * (sorted, no repeats); computes total_supply and hash. */
ZBC_WUR int zbc_genesis_decode(struct zbc_genesis *g, const uint8_t *buf,
                               size_t len, struct zbc_err *err);

/* Whether pk is one of the validators. */
bool zbc_genesis_is_validator(const struct zbc_genesis *g,
                              const uint8_t pk[32]);

#endif
