/* The ledger state as a set of key-value tables.
 *
 * Consensus code reads and writes state only through struct zbc_kv_ops, so
 * the same state transition runs over an LMDB write transaction in the
 * node (node/store.c), over memory in unit tests, and in zbc-audit.
 *
 * struct zbc_state (consensus/state.c) wraps a kv backend and, for every
 * write made while applying a block:
 *   - records an undo entry (table, key, previous value or "absent"), so a
 *     block can be rolled back exactly (reorgs, SPEC §7);
 *   - updates the state-root accumulator incrementally (docs/protocol.md,
 *     "State root").
 * Tables are fixed here; their key and value layouts are documented in
 * docs/protocol.md. */
#ifndef ZBC_STATE_H
#define ZBC_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"

enum zbc_table {
    ZBC_TABLE_META = 0,     /* chain metadata inside state (supply, ...) */
    ZBC_TABLE_ACCOUNTS = 1, /* typed address bytes -> account record */
    ZBC_TABLE_TXSEEN = 2,   /* tx hash -> height (replay protection) */
    ZBC_TABLE_APPS = 3,     /* app id LE -> app record */
    ZBC_TABLE_PENDING = 4,  /* pending dice moves / bets */
    ZBC_TABLE_COUNT = 5,
};

#define ZBC_KV_KEY_MAX 64
#define ZBC_KV_VAL_MAX (64 * 1024)

enum zbc_kv_rc {
    ZBC_KV_ERROR = -1,   /* backend failure: err filled, abort the block */
    ZBC_KV_NOTFOUND = 0,
    ZBC_KV_FOUND = 1,
};

struct zbc_kv_ops {
    /* Copies the value into val (cap bytes); a value larger than cap is an
     * error.  Returns enum zbc_kv_rc. */
    int (*get)(void *ctx, enum zbc_table t, const uint8_t *key, size_t klen,
               uint8_t *val, size_t cap, size_t *vlen, struct zbc_err *err);
    int (*put)(void *ctx, enum zbc_table t, const uint8_t *key, size_t klen,
               const uint8_t *val, size_t vlen, struct zbc_err *err);
    int (*del)(void *ctx, enum zbc_table t, const uint8_t *key, size_t klen,
               struct zbc_err *err);
};

struct zbc_kv {
    const struct zbc_kv_ops *ops;
    void *ctx;
};

#endif
