/* Stateless transaction validity (tx_valid.h). */
#include "consensus/tx_valid.h"

#include <inttypes.h>

#include "crypto/sig.h"

static const char *type_label(uint32_t type)
{
    return type == ZBC_TX_SEND ? "SendZBC" : "app";
}

int zbc_tx_valid_fee(int64_t fee, size_t tx_len, uint64_t min_fee_base,
                     uint64_t min_fee_per_byte, struct zbc_err *err)
{
    uint64_t per, min;
    if (fee < 0)
        return zbc_fail(err, "fee too low: fee %" PRId64 " is negative", fee);
    if (__builtin_mul_overflow(min_fee_per_byte, (uint64_t)tx_len, &per) ||
        __builtin_add_overflow(min_fee_base, per, &min))
        return zbc_fail(err, "fee too low: the minimum fee for %zu bytes overflows",
                        tx_len);
    if ((uint64_t)fee < min)
        return zbc_fail(err, "fee too low: %" PRId64 " < minimum %" PRIu64
                        " (%" PRIu64 " + %" PRIu64 " per byte x %zu bytes)",
                        fee, min, min_fee_base, min_fee_per_byte, tx_len);
    return 1;
}

int zbc_tx_valid_time(int64_t tx_timestamp, uint64_t block_time_ms,
                      struct zbc_err *err)
{
    /* exact in 128 bits: no product or sum below can overflow */
    __int128 ts_ms = (__int128)tx_timestamp * 1000;
    __int128 bt = (__int128)block_time_ms;
    if (ts_ms > bt + (__int128)ZBC_TX_FUTURE_S * 1000)
        return zbc_fail(err, "transaction timestamp %" PRId64
                        " is more than %d s after the block time %" PRIu64 " ms",
                        tx_timestamp, ZBC_TX_FUTURE_S, block_time_ms);
    if (ts_ms < bt - (__int128)ZBC_TX_PAST_S * 1000)
        return zbc_fail(err, "transaction timestamp %" PRId64
                        " is more than %d s before the block time %" PRIu64 " ms",
                        tx_timestamp, ZBC_TX_PAST_S, block_time_ms);
    return 1;
}

static int check_parties(const struct zbc_tx *tx, struct zbc_err *err)
{
    if (!zbc_addr_type_supported(tx->sender.type))
        return zbc_fail(err, "sender account type %u is not supported on this chain",
                        tx->sender.type);
    if (tx->type == ZBC_TX_SEND) {
        if (tx->recipient.type == ZBC_ACCT_EMPTY)
            return zbc_fail(err, "SendZBC needs a recipient");
        if (!zbc_addr_type_supported(tx->recipient.type))
            return zbc_fail(err, "recipient account type %u is not supported on this chain",
                            tx->recipient.type);
    } else if (tx->recipient.type != ZBC_ACCT_EMPTY) {
        return zbc_fail(err, "%s transactions take no recipient",
                        type_label(tx->type));
    }
    return 1;
}

int zbc_tx_valid(const struct zbc_tx *tx, const uint8_t genesis_hash[32],
                 uint64_t min_fee_base, uint64_t min_fee_per_byte,
                 struct zbc_tx_body *body, struct zbc_err *err)
{
    struct zbc_tx_body b;
    uint8_t digest[32];
    if (!zbc_tx_type_known(tx->type))
        return zbc_fail(err, "unknown transaction type %u", tx->type);
    if (tx->version != ZBC_TX_VERSION)
        return zbc_fail(err, "unsupported transaction version %u (must be %d)",
                        tx->version, ZBC_TX_VERSION);
    if (!check_parties(tx, err))
        return 0;
    if (tx->has_escrow)
        return zbc_fail(err, "escrow is not supported on this chain");
    if (tx->message_len > ZBC_TX_MESSAGE_MAX)
        return zbc_fail(err, "message of %u bytes is longer than the %d allowed",
                        tx->message_len, ZBC_TX_MESSAGE_MAX);
    if (!zbc_tx_body_parse(&b, tx->type, tx->body, tx->body_len, err))
        return 0;
    if (!zbc_tx_valid_fee(tx->fee, tx->raw_len, min_fee_base, min_fee_per_byte, err))
        return 0;
    zbc_tx_signing_digest(digest, tx, genesis_hash);
    if (!zbc_sig_verify(&tx->sender, digest, tx->sig, tx->sig_len, err))
        return zbc_fail_prefix(err, "invalid signature");
    if (body)
        *body = b;
    return 1;
}
