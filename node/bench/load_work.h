/* zbc-load's workload (docs/load.md "Workload"): sender keys derived from
 * a seed text, and the transactions it sends, built with consensus/tx.h,
 * consensus/tx_body.h and apps/fair.h and signed for the chain's genesis
 * hash.  Pure: the caller passes the timestamp in. */
#ifndef ZBC_LOAD_WORK_H
#define ZBC_LOAD_WORK_H

#include <stdint.h>

#include "consensus/tx.h"
#include "consensus/tx_body.h"
#include "crypto/address.h"
#include "crypto/err.h"

/* What a sender is funded with in the genesis `zbc-load accounts` prints
 * (units; 1 ZBC = 100 000 000): enough fees for ~300 000 transfers. */
#define ZBC_LOAD_FUNDING (1000ull * 100000000ull)
/* Stake of a bet and of each seat of a game. */
#define ZBC_LOAD_STAKE 100000ull
#define ZBC_LOAD_SENDERS_MAX 100000u

enum zbc_load_kind {
    ZBC_LOAD_SEND = 0, /* SendZBC to the next sender */
    ZBC_LOAD_BET,      /* a dice bet (CreateApp type 16, one seat) */
    ZBC_LOAD_CREATE,   /* a two-seat game, tic-tac-toe or connect-4 */
    ZBC_LOAD_JOIN,     /* the second seat of a game, by the next sender */
    ZBC_LOAD_MOVE,     /* a legal move of a game */
    ZBC_LOAD_KINDS
};

const char *zbc_load_kind_name(enum zbc_load_kind k);

struct zbc_load_key {
    uint8_t pk[32];
    uint8_t sk[64];
    struct zbc_addr addr;
};

/* Sender `index` of the workload named `seed`:
 * seed32 = SHA3-256("zbc-load sender" || 0 || seed || 0 || index u32 LE). */
void zbc_load_key_derive(struct zbc_load_key *k, const char *seed,
                         uint32_t index);

struct zbc_load_chain {
    uint8_t genesis[32];    /* signing version 2 */
    uint64_t fee_base;      /* node/info min_fee_base */
    uint64_t fee_per_byte;  /* node/info min_fee_per_byte */
};

struct zbc_load_tx {
    uint8_t *bytes; /* owned (malloc): unsigned bytes || signature */
    uint32_t len;
    uint8_t hash[32];
    uint8_t kind;   /* enum zbc_load_kind */
    uint32_t sender;
    uint64_t app_id; /* CREATE: the new app's id (= the tx id); JOIN, MOVE: the app */
};

/* Builds and signs one transaction of type `type` with body `body`
 * (recipient: SendZBC only, else NULL), at the minimum fee, with an
 * optional message (NULL/0), timestamp ts (Unix seconds). */
ZBC_WUR int zbc_load_sign(struct zbc_load_tx *out,
                          const struct zbc_load_chain *c,
                          const struct zbc_load_key *k, uint32_t sender,
                          const struct zbc_addr *recipient,
                          const struct zbc_tx_body *body,
                          const uint8_t *message, uint32_t message_len,
                          int64_t ts, struct zbc_err *err);

/* The workload's mix in percent (send + bet + game = 100). */
struct zbc_load_mix {
    unsigned send, bet, game;
};

/* The kind of pre-signed transaction k under mix: k % 100 below send is a
 * transfer, then bets, then game creates (interleaved evenly). */
enum zbc_load_kind zbc_load_kind_of(const struct zbc_load_mix *mix,
                                    uint64_t k);

/* Pre-signed transaction k of the workload: sender k % n_keys; a transfer
 * of 1 + k / n_keys units to sender k+1 (unique per k); a dice bet whose
 * client seed names k; a game create (even k / 100: tic-tac-toe, odd:
 * connect-4) with k as its 8-byte message.  For a create, *join gets the
 * JoinApp by sender (k + 1) % n_keys, pre-signed (join may be NULL for
 * other kinds; join->bytes is NULL when k is no create). */
ZBC_WUR int zbc_load_gen(struct zbc_load_tx *out, struct zbc_load_tx *join,
                         uint64_t k, const struct zbc_load_mix *mix,
                         const struct zbc_load_key *keys, uint32_t n_keys,
                         const struct zbc_load_chain *c, int64_t ts,
                         struct zbc_err *err);

/* An AppMove of app_id with move bytes by sender. */
ZBC_WUR int zbc_load_move(struct zbc_load_tx *out,
                          const struct zbc_load_chain *c,
                          const struct zbc_load_key *k, uint32_t sender,
                          uint64_t app_id, const uint8_t *move, uint16_t len,
                          int64_t ts, struct zbc_err *err);

void zbc_load_tx_free(struct zbc_load_tx *t);

#endif
