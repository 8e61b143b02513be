/* The node's data directory (docs/node.md, "Data directory"):
 *
 *   <datadir>/node.key      Ed25519 node key: the 32-byte seed as 64 lower-case
 *                           hex characters and a newline, mode 0600
 *   <datadir>/api.token     admin API token: 64 hex characters, mode 0600
 *   <datadir>/genesis.json  copy of the genesis file given to `zbcd init`
 *   <datadir>/ledger/       the LMDB environment (node/zbcd/store.h)
 *   <datadir>/ledger.created  written after the first successful start (a missing
 *                           ledger is then refused instead of restarting the chain)
 * The running zbcd holds an exclusive flock on the directory itself: one node
 * per data directory (docs/node.md, "Crash safety").
 *
 * The directory is created mode 0700. */
#ifndef ZBC_NODE_DATADIR_H
#define ZBC_NODE_DATADIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"

#define ZBC_DATADIR_PATH_MAX 4096
#define ZBC_DATADIR_KEY "node.key"
#define ZBC_DATADIR_TOKEN "api.token"
#define ZBC_DATADIR_GENESIS "genesis.json"
#define ZBC_DATADIR_LEDGER "ledger"
#define ZBC_API_TOKEN_HEX 64

struct zbc_node_key {
    uint8_t seed[32];
    uint8_t pk[32];
    uint8_t sk[64]; /* libsodium secret key (seed || pk) */
};

/* "<dir>/<name>" into out; fails when it does not fit. */
ZBC_WUR int zbc_datadir_path(char *out, size_t cap, const char *dir,
                             const char *name, struct zbc_err *err);

/* Creates the directory (and parents) if missing, a fresh node key, an API
 * token and the ledger directory; copies genesis_path to genesis.json when
 * it is not NULL.  Refuses a directory that already holds a node.key. */
ZBC_WUR int zbc_datadir_init(const char *dir, const char *genesis_path,
                             struct zbc_node_key *key, struct zbc_err *err);

/* Reads node.key; refuses a file readable by group or others. */
ZBC_WUR int zbc_datadir_load_key(const char *dir, struct zbc_node_key *key,
                                 struct zbc_err *err);

/* Whether the directory's mode lets group or others in (it is created
 * 0700; a 0755 one exposes the ledger and the file names): writes the
 * warning to print into msg and returns true, false when the mode is
 * private.  A directory that cannot be examined is a warning too. */
bool zbc_datadir_mode_warning(const char *dir, char *msg, size_t cap);

/* Reads api.token (64 hex characters) into token (65 bytes with NUL). */
ZBC_WUR int zbc_datadir_load_token(const char *dir,
                                   char token[ZBC_API_TOKEN_HEX + 1],
                                   struct zbc_err *err);

/* Takes an exclusive lock on the directory <dir> itself; *fd keeps it until
 * closed.
 * Fails when another zbcd holds it. */
ZBC_WUR int zbc_datadir_lock(const char *dir, int *fd, struct zbc_err *err);

/* Reads a whole small file (at most max bytes) into a NUL-terminated
 * malloc'ed buffer. */
ZBC_WUR int zbc_read_file(const char *path, size_t max, char **out,
                          size_t *len, struct zbc_err *err);

/* Writes a file atomically (temp file, fsync, rename) with `mode`. */
ZBC_WUR int zbc_write_file(const char *path, const void *data, size_t len,
                           unsigned mode, struct zbc_err *err);

#endif
