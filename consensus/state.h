/* The ledger state as a set of key-value tables.
 *
 * Consensus code reads and writes state only through struct zbc_kv_ops, so
 * the same state transition runs over an LMDB write transaction in the
 * node (node/zbcd/store.c), over memory in unit tests, and in zbc-audit.
 *
 * struct zbc_state (consensus/state.c) wraps a kv backend and, for every
 * write made while applying a block:
 *   - records an undo entry (table, key, previous value or "absent"), so a
 *     block can be rolled back exactly (reorgs, docs/protocol-chain.md §4.2);
 *   - updates the state-root accumulator incrementally (docs/protocol.md,
 *     "State root").
 * Tables are fixed here; their key and value layouts are documented in
 * docs/protocol.md. */
#ifndef ZBC_STATE_H
#define ZBC_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "consensus/state_root.h"
#include "crypto/err.h"

enum zbc_table {
    ZBC_TABLE_META = 0,     /* chain metadata inside state (supply, ...) */
    ZBC_TABLE_ACCOUNTS = 1, /* typed address bytes -> account record */
    ZBC_TABLE_TXSEEN = 2,   /* tx hash -> height (replay protection) */
    ZBC_TABLE_APPS = 3,     /* app id LE -> app record */
    ZBC_TABLE_PENDING = 4,  /* work scheduled per height (apps_apply.h) */
    ZBC_TABLE_APP_HISTORY = 5, /* app id | seq -> history entry */
    ZBC_TABLE_CRASH = 6,    /* crash rounds and entries (apps_crash.h) */
    ZBC_TABLE_COUNT = 7,
};

#define ZBC_KV_KEY_MAX 64
#define ZBC_KV_VAL_MAX (64 * 1024)

struct zbc_kv_ops {
    /* Copies the value into val (cap bytes) and sets *found; a key that is
     * not there is *found = false and success.  A value larger than cap
     * is an error.  Returns 1, or 0 with err filled (backend failure:
     * abort the block). */
    int (*get)(void *ctx, enum zbc_table t, const uint8_t *key, size_t klen,
               uint8_t *val, size_t cap, size_t *vlen, bool *found,
               struct zbc_err *err);
    int (*put)(void *ctx, enum zbc_table t, const uint8_t *key, size_t klen,
               const uint8_t *val, size_t vlen, struct zbc_err *err);
    int (*del)(void *ctx, enum zbc_table t, const uint8_t *key, size_t klen,
               struct zbc_err *err);
    /* Full scan of one table in any order (the money-invariant check and
     * zbc-audit).  Calls fn for every entry; fn returns 1 to go on, 0 to
     * stop with err filled (each then returns 0).  Returns 1 when every
     * entry was visited.  The scan must not be mixed with writes. */
    int (*each)(void *ctx, enum zbc_table t,
                int (*fn)(void *arg, const uint8_t *key, size_t klen,
                          const uint8_t *val, size_t vlen,
                          struct zbc_err *err),
                void *arg, struct zbc_err *err);
};

struct zbc_kv {
    const struct zbc_kv_ops *ops;
    void *ctx;
};

/* ---- struct zbc_state: the kv backend + undo log + state-root ---- */

/* Bookkeeping kept out of the state root: the persisted accumulator lives
 * in ZBC_TABLE_META under this key (docs/protocol-chain.md). */
#define ZBC_META_KEY_LTHASH "lthash"

/* One recorded write: the entry's value before the write. */
struct zbc_undo_entry {
    uint8_t table;           /* enum zbc_table */
    uint8_t klen;
    uint8_t key[ZBC_KV_KEY_MAX];
    bool had;                /* false: the key was absent */
    uint32_t vlen;
    uint8_t *val;            /* heap, vlen bytes (NULL when !had) */
};

/* A block's undo record: entries in write order; rolling back applies them
 * in reverse.  Serialized by zbc_undo_encode for the node to store. */
struct zbc_undo {
    size_t n, cap;
    struct zbc_undo_entry *e;
};

/* The value a recorded write left (kept until the accumulator is
 * brought up to date: consensus/state.c "fold"). */
struct zbc_state_written {
    uint8_t *val;            /* heap, vlen bytes; NULL: deleted */
    uint32_t vlen;
};

/* The accumulator is brought up to date lazily, once per key: a recorded
 * write only logs the key's previous value (the undo entry) and its new
 * one; zbc_state_root, zbc_state_commit, zbc_state_check_root,
 * zbc_state_take_undo and zbc_state_begin fold every key written since
 * the last fold into `acc` (minus its value before the first of those
 * writes, plus its current value; nothing for a key written back to
 * the value it had).  The result is the accumulator of docs/protocol.md
 * "State root" byte for byte: the sum does not depend on the order or
 * the number of its terms. */
struct zbc_state {
    struct zbc_kv kv;
    struct zbc_lthash acc;   /* accumulator over every state entry, up to
                              * undo entry `folded` */
    struct zbc_undo undo;    /* writes since zbc_state_begin */
    size_t folded;           /* undo entries already in acc */
    struct zbc_state_written *written; /* parallel to undo.e */
    void *scratch;           /* fold's sort space, cap entries */
    size_t cap;              /* of written and scratch */
    /* accumulator updates gathered by a fold or an undo, applied together
     * (zbc_lthash_apply) before either returns */
    struct zbc_lthash_op *ops;
    size_t n_ops, ops_cap;
    const struct zbc_lthash_accel *accel; /* NULL: none */
};

/* Binds s to kv and loads the accumulator from meta (all-zero when the
 * state is empty).  Close with zbc_state_close. */
ZBC_WUR int zbc_state_open(struct zbc_state *s, struct zbc_kv kv,
                           struct zbc_err *err);
void zbc_state_close(struct zbc_state *s);
/* Element cache and threads for the accumulator's updates (the node's;
 * same results without).  a must outlive s's use; NULL: none. */
void zbc_state_set_accel(struct zbc_state *s, const struct zbc_lthash_accel *a);

/* Clears the undo log: what follows is one block. */
void zbc_state_begin(struct zbc_state *s);
/* Persists the accumulator to meta (call once the block is accepted). */
ZBC_WUR int zbc_state_commit(struct zbc_state *s, struct zbc_err *err);
/* Current undo-log length: a mark to roll back a single transaction. */
size_t zbc_state_mark(const struct zbc_state *s);
/* Undoes every write after mark (exactly), dropping those entries. */
ZBC_WUR int zbc_state_rollback_to(struct zbc_state *s, size_t mark,
                                  struct zbc_err *err);
/* Moves the undo log out of s into *out (out must be empty/zeroed). */
void zbc_state_take_undo(struct zbc_state *s, struct zbc_undo *out);

/* Reads: *found tells whether the key exists.  Returns 0 on backend
 * failure or a value larger than cap. */
ZBC_WUR int zbc_state_get(struct zbc_state *s, enum zbc_table t,
                          const uint8_t *key, size_t klen, uint8_t *val,
                          size_t cap, size_t *vlen, bool *found,
                          struct zbc_err *err);
/* Writes record undo and update the accumulator.  Deleting an absent key
 * is a no-op. */
ZBC_WUR int zbc_state_put(struct zbc_state *s, enum zbc_table t,
                          const uint8_t *key, size_t klen, const uint8_t *val,
                          size_t vlen, struct zbc_err *err);
ZBC_WUR int zbc_state_del(struct zbc_state *s, enum zbc_table t,
                          const uint8_t *key, size_t klen,
                          struct zbc_err *err);

/* state_root = SHA3-256(accumulator bytes) (folds pending writes first). */
void zbc_state_root(struct zbc_state *s, uint8_t root[32]);

/* Recomputes the accumulator by a full scan (kv.each) and compares it with
 * the incremental one (zbc-audit, debug checks). */
ZBC_WUR int zbc_state_check_root(struct zbc_state *s, struct zbc_err *err);

/* Rolls back a whole block: applies u in reverse, without recording, then
 * persists the accumulator.  The state is then exactly as before the
 * block (same entries, same root). */
ZBC_WUR int zbc_state_undo_block(struct zbc_state *s, const struct zbc_undo *u,
                                 struct zbc_err *err);

/* Undo record bytes (docs/protocol-chain.md "Undo record").  encode
 * mallocs *out; decode allocates inside u (free with zbc_undo_free) and
 * leaves u empty on failure. */
ZBC_WUR int zbc_undo_encode(const struct zbc_undo *u, uint8_t **out,
                            size_t *len, struct zbc_err *err);
ZBC_WUR int zbc_undo_decode(struct zbc_undo *u, const uint8_t *buf,
                            size_t len, struct zbc_err *err);
void zbc_undo_free(struct zbc_undo *u);

#endif
