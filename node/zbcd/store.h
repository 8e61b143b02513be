/* The node's ledger on disk: one LMDB environment in <datadir>/ledger.
 *
 * Named databases (layouts in docs/node.md, "Ledger"):
 *   meta          "schema" -> u32 LE, "genesis" -> 32 bytes,
 *                 "tip" -> height u32 LE || block hash 32
 *   blocks        height u32 BE -> encoded block (header || body)
 *   block_hash    block hash 32 -> height u32 LE
 *   block_txs     height u32 BE -> the block's transaction hashes, 32
 *                 bytes each in block order (written and removed with
 *                 the block: a transaction's position, node/zbcd/tx_index.h);
 *                 meta "block_txs_tip" -> height u32 LE || block hash 32
 *   tx_index      empty since 2026-12-06 (an older zbcd's hash -> height
 *                 || index table; meta "tx_index_tip" kept at the genesis
 *                 so such a zbcd rebuilds it, docs/node.md §3)
 *   undo          height u32 BE -> the block's undo record
 *   events        height u32 BE -> the block's event record
 *   votes         height u32 BE -> the vote set of the best-chain block
 *                 (docs/protocol-chain.md §8.8); meta "final" and
 *                 "justified" -> height u32 LE || block hash 32
 *   acct_history  node-local account history index (node/zbcd/history.h,
 *                 not consensus): address key || height BE || event index
 *                 BE -> block timestamp; meta "history_tip"
 *   app_index     node-local app list index (node/zbcd/app_index.h, not
 *                 consensus): filter key || created BE || id BE -> empty,
 *                 0xff || id BE -> the indexed fields; meta "app_index_tip"
 *   s_meta, s_accounts, s_txseen, s_apps, s_pending
 *                 the consensus state tables (consensus/state.h), reached
 *                 only through struct zbc_kv_ops
 *
 * Writes: everything one block changes (block, indexes, state, undo,
 * events, tip) goes through ONE zbc_store_write() call, i.e. one LMDB
 * write transaction (or one child transaction of a batch, below, which
 * commits a slice of synced blocks at once), so a crash at any instant
 * leaves the last committed block intact.  When the map is full the transaction is aborted, the map
 * grows by a step and the whole write function runs again from the start:
 * write functions must therefore touch nothing outside the transaction.
 *
 * Reads: zbc_store_read() runs a function inside a short read transaction;
 * the single-item getters below open and close their own.  Values are
 * copied out, never returned as pointers into the map.
 *
 * Threads and processes: one struct zbc_store per process, used from one
 * thread (the daemon's event loop).  The environment must never be used
 * across fork(); stale reader slots of dead processes are cleared at open
 * (mdb_reader_check).
 *
 * Read-only (zbc-audit): zbc_store_open_readonly() opens a ledger another
 * process may be writing and reads it all in one snapshot transaction. */
#ifndef ZBC_NODE_STORE_H
#define ZBC_NODE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "consensus/state.h"
#include "crypto/err.h"

#define ZBC_STORE_SCHEMA 2
#define ZBC_STORE_MAP_INITIAL ((size_t)256 << 20) /* 256 MiB */
#define ZBC_STORE_MAP_STEP ((size_t)256 << 20)
/* Undo records older than this many blocks below the tip are pruned; the
 * deepest reorg is 1440 blocks (docs/protocol-chain.md §3.3). */
#define ZBC_STORE_UNDO_KEEP 2048u

struct zbc_store;
struct zbc_store_txn;

/* The named databases of the ledger (names: zbc_store_db_name). */
enum zbc_store_db {
    ZBC_STORE_DB_META,
    ZBC_STORE_DB_BLOCKS,
    ZBC_STORE_DB_BLOCK_HASH,
    ZBC_STORE_DB_TX_INDEX,
    ZBC_STORE_DB_UNDO,
    ZBC_STORE_DB_EVENTS,
    ZBC_STORE_DB_S_META,
    ZBC_STORE_DB_S_ACCOUNTS,
    ZBC_STORE_DB_S_TXSEEN,
    ZBC_STORE_DB_S_APPS,
    ZBC_STORE_DB_S_PENDING,
    ZBC_STORE_DB_S_APP_HISTORY,
    ZBC_STORE_DB_VOTES,
    ZBC_STORE_DB_ACCT_HISTORY,
    ZBC_STORE_DB_S_CRASH,
    ZBC_STORE_DB_APP_INDEX,
    ZBC_STORE_DB_APPS_REDO,
    ZBC_STORE_DB_BLOCK_TXS,
    ZBC_STORE_DB_COUNT,
};

/* The LMDB name of db ("meta", "blocks", ..., "s_app_history"). */
const char *zbc_store_db_name(enum zbc_store_db db);

/* The database holding consensus state table t; 0 when t names no table
 * (ZBC_TABLE_COUNT). */
ZBC_WUR int zbc_store_table_db(enum zbc_table t, enum zbc_store_db *db);

/* Encodings (crypto/bytes.h): a height used as a key is u32 big-endian
 * (key order is height order); heights and indexes inside values are u32
 * little-endian.  zbc_store_le32 is zbc_get_le32, kept for node/audit
 * until it reads values with crypto/bytes.h itself. */
void zbc_store_height_key(uint8_t out[4], uint32_t height);
uint32_t zbc_store_le32(const uint8_t p[4]);

struct zbc_store_options {
    size_t map_initial; /* 0: ZBC_STORE_MAP_INITIAL */
    size_t map_step;    /* 0: ZBC_STORE_MAP_STEP */
};

/* The chain identity and tip, as last committed. */
struct zbc_store_meta {
    bool has_genesis;            /* false on a fresh ledger */
    uint8_t genesis_hash[32];
    bool has_tip;
    uint32_t tip_height;
    uint8_t tip_hash[32];
};

/* Opens (creating if needed) the environment in directory `dir`, which
 * must exist.  Refuses a ledger written with another schema version. */
ZBC_WUR int zbc_store_open(struct zbc_store **out, const char *dir,
                           const struct zbc_store_options *opt,
                           struct zbc_err *err);
void zbc_store_close(struct zbc_store *s);

/* Opens the environment in directory `dir` with MDB_RDONLY and begins ONE
 * read transaction held until zbc_store_close, so the process writing the
 * ledger may go on committing while this reader sees the snapshot taken
 * here.  Nothing is created or written (no schema record, no database
 * handle): a database the ledger lacks reads as empty, but one without
 * meta or blocks is refused as no zbcd ledger.  LMDB still registers the
 * reader in <dir>/lock.mdb, so the caller needs write access to that one
 * file.  Writes through this store fail. */
ZBC_WUR int zbc_store_open_readonly(struct zbc_store **out, const char *dir,
                                    struct zbc_err *err);
/* The snapshot transaction of a store from zbc_store_open_readonly (NULL
 * for one from zbc_store_open); valid until zbc_store_close. */
struct zbc_store_txn *zbc_store_snapshot(struct zbc_store *s);

/* Whether the ledger has database db (a read-only open of a ledger made
 * before it existed has not; reads of it find nothing). */
bool zbc_store_has_db(const struct zbc_store *s, enum zbc_store_db db);

/* Current map size in bytes (grows on MDB_MAP_FULL). */
size_t zbc_store_map_size(const struct zbc_store *s);

ZBC_WUR int zbc_store_get_meta(struct zbc_store *s, struct zbc_store_meta *m,
                               struct zbc_err *err);

/* ---- transactions ---- */

/* Runs fn inside one write transaction and commits it when fn returns 1;
 * fn returning 0 aborts it and nothing is written (err as fn filled it).
 * On MDB_MAP_FULL anywhere inside, the map grows and fn runs again. */
typedef int (*zbc_store_fn)(struct zbc_store_txn *t, void *arg,
                            struct zbc_err *err);
ZBC_WUR int zbc_store_write(struct zbc_store *s, zbc_store_fn fn, void *arg,
                            struct zbc_err *err);

/* A batch (the blocks of a sync answer, node/zbcd/chain.h
 * zbc_chain_batch_begin; docs/p2p.md §5): every zbc_store_write from
 * begin to end joins ONE write transaction, committed (and synced to disk)
 * once at the end.  Each write still runs in a child transaction of its
 * own, so a write whose fn fails is undone alone and the batch's earlier
 * writes stay.  zbc_store_read while a batch is open sees the batch's
 * writes (it runs on the batch's transaction, where writes are refused).
 * A crash before the end loses what the batch wrote since its last commit
 * and leaves the ledger as it was then.
 * Pause / resume: between two slices of the batch the caller returns to
 * the event loop with the batch paused; reads there see the batch, and a
 * write from elsewhere (a gossiped block, a vote set) first commits the
 * batch so far, then commits alone as outside a batch, so nothing but the
 * batch's own writes waits for the batch's end.  When the map is full
 * inside a batch, the writes so far are committed, the map grows and the
 * batch goes on in a new transaction. */
ZBC_WUR int zbc_store_batch_begin(struct zbc_store *s, struct zbc_err *err);
void zbc_store_batch_pause(struct zbc_store *s);
/* 0 when a commit of the batch failed meanwhile (its writes are lost; the
 * caller ends the batch, which reports the same). */
ZBC_WUR int zbc_store_batch_resume(struct zbc_store *s, struct zbc_err *err);
/* Commits the batch.  0 when its commit, or one inside it (a flush, a map
 * growth), failed: then writes since the last commit that succeeded are
 * lost, and the caller, which took them as done, reloads what it keeps in
 * memory.  Until the end, writes after such a failure fail with it. */
ZBC_WUR int zbc_store_batch_end(struct zbc_store *s, struct zbc_err *err);
bool zbc_store_in_batch(const struct zbc_store *s);
/* Whether the open batch is paused between two slices and has lost its
 * writes (a write from elsewhere could not commit it first): the caller
 * holds more than the ledger does until it ends the batch. */
bool zbc_store_batch_lost_paused(const struct zbc_store *s);

/* The error of the last zbc_store_write that failed in the ledger itself
 * (a full disk, an I/O error; not a refused block), or NULL once a write
 * storing a block (zbc_store_put_block) was committed again.  node/info reports it as sync_reason. */
const char *zbc_store_write_failure(const struct zbc_store *s);

/* Runs fn inside one read transaction (writes inside fail). */
ZBC_WUR int zbc_store_read(struct zbc_store *s, zbc_store_fn fn, void *arg,
                           struct zbc_err *err);

/* The consensus state tables over this transaction.  The struct is valid
 * until the transaction ends. */
void zbc_store_txn_kv(struct zbc_store_txn *t, struct zbc_kv *kv);

/* TXSEEN write-back (node/zbcd/txseen.h, docs/node.md §3): a block's
 * write at `height` writes the held entries of slice height %
 * ZBC_TXSEEN_SLICES (inside a batch: all of them; a read-only open or a
 * read: nothing).  Every block's write transaction calls it once, after
 * the block's state transition, so an entry of block h is in the ledger
 * once the chain is at h + ZBC_TXSEEN_SLICES - 1. */
ZBC_WUR int zbc_store_txn_txseen_flush(struct zbc_store_txn *t,
                                       uint32_t height, struct zbc_err *err);
/* On open, outside any write: an entry of one of the last
 * ZBC_TXSEEN_SLICES stored blocks, which may not be in the ledger yet. */
ZBC_WUR int zbc_store_txseen_refill(struct zbc_store *s,
                                    const uint8_t hash[32], uint32_t height,
                                    struct zbc_err *err);
/* Entries held in memory. */
size_t zbc_store_txseen_held(const struct zbc_store *s);

/* The app tables' write-back (node/zbcd/appwb.h, docs/node.md §3): the
 * block at height, in its own transaction (after its state writes),
 * writes the redo record of its app table changes, deletes the record
 * ZBC_APPWB_SLICES heights below and writes the held entries of slice
 * height % ZBC_APPWB_SLICES (inside a batch: every held entry). */
ZBC_WUR int zbc_store_txn_apps_flush(struct zbc_store_txn *t,
                                     uint32_t height, struct zbc_err *err);
/* The wall time of the last write transaction's commit (mdb_txn_commit:
 * its page writes and fsyncs), in microseconds. */
uint32_t zbc_store_last_commit_us(const struct zbc_store *s);
/* App table entries held in memory (committed or pending). */
size_t zbc_store_apps_held(const struct zbc_store *s);

/* ---- inside a write transaction ---- */

ZBC_WUR int zbc_store_put_genesis(struct zbc_store_txn *t,
                                  const uint8_t genesis_hash[32],
                                  struct zbc_err *err);
/* Stores the block and its hash index and makes it the tip. */
ZBC_WUR int zbc_store_put_block(struct zbc_store_txn *t, uint32_t height,
                                const uint8_t hash[32], const uint8_t *bytes,
                                size_t len, struct zbc_err *err);
/* The transaction hashes of the block at `height` (hash: the block's), in
 * block order (n 0: an empty record, which a block without transactions
 * has too), and meta ZBC_STORE_BLOCK_TXS_TIP at that block: the lists are
 * complete up to it.  zbc_store_pop_block moves the marker back with the
 * tip, so it names the tip unless a writer that knows no lists (a zbcd
 * before them) moved the tip. */
#define ZBC_STORE_BLOCK_TXS_TIP "block_txs_tip"
ZBC_WUR int zbc_store_put_block_txs(struct zbc_store_txn *t, uint32_t height,
                                    const uint8_t hash[32],
                                    const uint8_t (*hashes)[32], uint32_t n,
                                    struct zbc_err *err);
/* Stores the undo record of `height` and prunes the one that fell out of
 * the ZBC_STORE_UNDO_KEEP window. */
ZBC_WUR int zbc_store_put_undo(struct zbc_store_txn *t, uint32_t height,
                               const uint8_t *bytes, size_t len,
                               struct zbc_err *err);
ZBC_WUR int zbc_store_put_events(struct zbc_store_txn *t, uint32_t height,
                                 const uint8_t *bytes, size_t len,
                                 struct zbc_err *err);

/* Removes the tip block at `height` (block, hash index, transaction
 * hashes, undo record, events, votes) and makes its parent the tip
 * (parent_height 0: no tip, the genesis).  The caller undoes the state in
 * the same transaction (reorg, node/zbcd/chain.c). */
ZBC_WUR int zbc_store_pop_block(struct zbc_store_txn *t, uint32_t height,
                                const uint8_t hash[32],
                                uint32_t parent_height,
                                const uint8_t parent_hash[32],
                                struct zbc_err *err);
/* Finality (docs/protocol-chain.md §8.8): the vote set of the best-chain
 * block at height, and the meta checkpoints "final" and "justified"
 * (zbc_store_put_checkpoint also writes the index markers, the same
 * height u32 LE || block hash 32). */
ZBC_WUR int zbc_store_put_votes(struct zbc_store_txn *t, uint32_t height,
                                const uint8_t *bytes, size_t len,
                                struct zbc_err *err);
ZBC_WUR int zbc_store_put_checkpoint(struct zbc_store_txn *t,
                                     const char *name, uint32_t height,
                                     const uint8_t hash[32],
                                     struct zbc_err *err);

/* Raw writes for the node-local indexes (node/zbcd/history.h); the
 * consensus tables go through zbc_store_txn_kv only.  clear empties db. */
ZBC_WUR int zbc_store_txn_put(struct zbc_store_txn *t, enum zbc_store_db db,
                              const void *key, size_t klen, const void *val,
                              size_t vlen, struct zbc_err *err);
ZBC_WUR int zbc_store_txn_del(struct zbc_store_txn *t, enum zbc_store_db db,
                              const void *key, size_t klen,
                              struct zbc_err *err);
ZBC_WUR int zbc_store_txn_clear(struct zbc_store_txn *t, enum zbc_store_db db,
                                struct zbc_err *err);

/* Walks the keys of db that start with prefix, downwards from the largest
 * key below `below` (exclusive), in one cursor: fn gets each key and value
 * (borrowed for the call) and sets *stop to end the walk; fn returning 0
 * ends it with that failure.  plen 0 (prefix may be NULL): every key. */
typedef int (*zbc_store_scan_fn)(void *arg, const uint8_t *key, size_t klen,
                                 const uint8_t *val, size_t vlen, bool *stop,
                                 struct zbc_err *err);
ZBC_WUR int zbc_store_txn_scan_back(struct zbc_store_txn *t,
                                    enum zbc_store_db db,
                                    const uint8_t *prefix, size_t plen,
                                    const uint8_t *below, size_t blen,
                                    zbc_store_scan_fn fn, void *arg,
                                    struct zbc_err *err);

/* ---- reads (inside any transaction) ----
 * Lookups return 1 with *found set (false: nothing stored there, not an
 * error) or 0 with err filled (docs/architecture.md "Conventions").
 * Byte results are malloc'ed copies the caller frees. */

/* Never "not found": m->has_genesis and m->has_tip say what is there. */
ZBC_WUR int zbc_store_txn_meta(struct zbc_store_txn *t,
                               struct zbc_store_meta *m, struct zbc_err *err);
/* Where a node-local index's marker stands (meta `key` = height u32 LE ||
 * block hash 32: every block up to it is in the index, the later ones are
 * held in memory until the next flush, docs/node.md §3 "Index flushes"):
 * AT_TIP names the tip (or a ledger without blocks); BEHIND names a
 * best-chain block below the tip at *height (height 0: the genesis, with
 * no block to check); STALE is absent on a ledger with blocks, malformed,
 * or names no best-chain block: the index is rebuilt. */
enum zbc_store_marker {
    ZBC_STORE_MARKER_AT_TIP,
    ZBC_STORE_MARKER_BEHIND,
    ZBC_STORE_MARKER_STALE,
};
ZBC_WUR int zbc_store_txn_marker(struct zbc_store_txn *t, const char *key,
                                 struct zbc_store_meta *m,
                                 enum zbc_store_marker *state,
                                 uint32_t *height, struct zbc_err *err);
/* The raw value stored under key in db, whatever its size. */
ZBC_WUR int zbc_store_txn_get(struct zbc_store_txn *t, enum zbc_store_db db,
                              const void *key, size_t klen, uint8_t **bytes,
                              size_t *len, bool *found, struct zbc_err *err);
ZBC_WUR int zbc_store_txn_block(struct zbc_store_txn *t, uint32_t height,
                                uint8_t **bytes, size_t *len, bool *found,
                                struct zbc_err *err);
/* The first min(cap, stored length) bytes of the block at height into
 * out (*len: how many): a block's header without copying its
 * transactions, nor touching the pages they are on. */
ZBC_WUR int zbc_store_txn_block_head(struct zbc_store_txn *t, uint32_t height,
                                     uint8_t *out, size_t cap, size_t *len,
                                     bool *found, struct zbc_err *err);
ZBC_WUR int zbc_store_txn_height_of(struct zbc_store_txn *t,
                                    const uint8_t hash[32], uint32_t *height,
                                    bool *found, struct zbc_err *err);
/* The block_txs record of height (n x 32 bytes, copied). */
ZBC_WUR int zbc_store_txn_block_txs(struct zbc_store_txn *t, uint32_t height,
                                    uint8_t **bytes, size_t *len, bool *found,
                                    struct zbc_err *err);
/* A block_txs record read (found, len bytes) is one: present and a whole
 * number of hashes; else a failure naming the block. */
ZBC_WUR int zbc_store_block_txs_check(uint32_t height, bool found, size_t len,
                                      struct zbc_err *err);
/* Where tx_hash is in the block_txs record of height, read in place
 * (*found false: not in it); a record absent or not a whole number of
 * hashes is a failure naming the block. */
ZBC_WUR int zbc_store_txn_block_tx_find(struct zbc_store_txn *t,
                                        uint32_t height,
                                        const uint8_t tx_hash[32],
                                        uint32_t *index, bool *found,
                                        struct zbc_err *err);
/* How many entries db holds (LMDB's count: no walk). */
ZBC_WUR int zbc_store_txn_count(struct zbc_store_txn *t, enum zbc_store_db db,
                                uint64_t *n, struct zbc_err *err);
ZBC_WUR int zbc_store_txn_undo(struct zbc_store_txn *t, uint32_t height,
                               uint8_t **bytes, size_t *len, bool *found,
                               struct zbc_err *err);
ZBC_WUR int zbc_store_txn_events(struct zbc_store_txn *t, uint32_t height,
                                 uint8_t **bytes, size_t *len, bool *found,
                                 struct zbc_err *err);

ZBC_WUR int zbc_store_txn_votes(struct zbc_store_txn *t, uint32_t height,
                                uint8_t **bytes, size_t *len, bool *found,
                                struct zbc_err *err);
/* *found false when never written (the genesis). */
ZBC_WUR int zbc_store_txn_checkpoint(struct zbc_store_txn *t, const char *name,
                                     uint32_t *height, uint8_t hash[32],
                                     bool *found, struct zbc_err *err);

/* The same, each in its own short read transaction. */
ZBC_WUR int zbc_store_block(struct zbc_store *s, uint32_t height,
                            uint8_t **bytes, size_t *len, bool *found,
                            struct zbc_err *err);
ZBC_WUR int zbc_store_events(struct zbc_store *s, uint32_t height,
                             uint8_t **bytes, size_t *len, bool *found,
                             struct zbc_err *err);

/* Refuses a data.mdb shorter than the last page its meta page names (a
 * truncated copy or a full disk): mapping it as it is would end the process
 * with SIGBUS at the first read of a missing page.  dir names the ledger in
 * the message.  Also used by zbc-audit's read-only open. */
struct MDB_env;
ZBC_WUR int zbc_store_check_data_file(struct MDB_env *env, const char *dir,
                                      struct zbc_err *err);

#endif
