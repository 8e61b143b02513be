/* Ledger records on top of struct zbc_state (docs/protocol-chain.md
 * "State tables"):
 *
 *   ACCOUNTS  key = typed address bytes (4 + payload)
 *             val = version u8 (=1) | balance u64          (9 bytes)
 *   TXSEEN    key = tx hash (32)        val = height u32
 *   META      "supply" -> u64 genesis supply
 *             "height" -> u32 height of the last applied block
 *             "lthash" -> accumulator (bookkeeping, outside the root)
 *
 * An account whose balance returns to 0 keeps its record (a record is
 * deleted only by undo).  Every balance change is overflow-checked. */
#ifndef ZBC_LEDGER_H
#define ZBC_LEDGER_H

#include <stdbool.h>
#include <stdint.h>

#include "consensus/genesis.h"
#include "consensus/state.h"
#include "crypto/address.h"
#include "crypto/err.h"

#define ZBC_ACCOUNT_VERSION 1
#define ZBC_ACCOUNT_RECORD_LEN 9

struct zbc_account {
    uint64_t balance;
};

/* An account record's value (ZBC_TABLE_ACCOUNTS); fails naming a
 * corrupt one (consensus/money.h's running total reads records with it). */
ZBC_WUR int zbc_ledger_account_decode(struct zbc_account *acc,
                                      const uint8_t *v, size_t vlen,
                                      struct zbc_err *err);
/* *found = false and a zero account when there is no record. */
ZBC_WUR int zbc_ledger_account(struct zbc_state *s, const struct zbc_addr *a,
                               struct zbc_account *acc, bool *found,
                               struct zbc_err *err);
/* Balance, 0 for an unknown account. */
ZBC_WUR int zbc_ledger_balance(struct zbc_state *s, const struct zbc_addr *a,
                               uint64_t *balance, struct zbc_err *err);
/* Adds amount (fails "balance overflow"); creates the record. */
ZBC_WUR int zbc_ledger_credit(struct zbc_state *s, const struct zbc_addr *a,
                              uint64_t amount, struct zbc_err *err);
/* Subtracts amount; fails with "insufficient balance" when short. */
ZBC_WUR int zbc_ledger_debit(struct zbc_state *s, const struct zbc_addr *a,
                             uint64_t amount, struct zbc_err *err);

/* Replay protection: *height = block that included it. */
ZBC_WUR int zbc_ledger_tx_seen(struct zbc_state *s, const uint8_t hash[32],
                               bool *seen, uint32_t *height,
                               struct zbc_err *err);
ZBC_WUR int zbc_ledger_mark_tx(struct zbc_state *s, const uint8_t hash[32],
                               uint32_t height, struct zbc_err *err);

/* Height of the last applied block (0 right after genesis); fails when
 * the state was never initialised. */
ZBC_WUR int zbc_ledger_height(struct zbc_state *s, uint32_t *height,
                              struct zbc_err *err);
ZBC_WUR int zbc_ledger_set_height(struct zbc_state *s, uint32_t height,
                                  struct zbc_err *err);
ZBC_WUR int zbc_ledger_supply(struct zbc_state *s, uint64_t *supply,
                              struct zbc_err *err);

/* Writes the initial state into an empty state: every balance, the fund,
 * supply, height 0; persists the accumulator.  Fails when the state is
 * not empty (meta "supply" present). */
ZBC_WUR int zbc_ledger_init_genesis(struct zbc_state *s,
                                    const struct zbc_genesis *g,
                                    struct zbc_err *err);

/* Sum of all balances by full scan (kv.each; the money invariant,
 * consensus/money.h); fails on a corrupt record or a u64 overflow. */
ZBC_WUR int zbc_ledger_sum_balances(struct zbc_state *s, uint64_t *sum,
                                    struct zbc_err *err);

#endif
