/* Where zbc-audit reads a chain from: a data directory (LMDB opened
 * read-only, source_datadir.c) or a peer's HTTP API (source_peer.c).
 * A source only hands over bytes and claims; it is trusted for nothing:
 * the replay (replay.c) checks every block and compares every claim. */
#ifndef ZBC_AUDIT_SOURCE_H
#define ZBC_AUDIT_SOURCE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "consensus/block.h"
#include "consensus/genesis.h"
#include "consensus/state.h"
#include "crypto/err.h"
#include "node/audit/report.h"

/* What the source says about the chain it holds. */
struct zbc_audit_tip {
    bool has_genesis;       /* false: a ledger never initialised */
    uint8_t genesis_hash[32];
    uint32_t height;        /* 0: no block yet */
    uint8_t hash[32];       /* tip block hash (height > 0) */
    bool has_state_root;    /* peer: node/info state_root */
    uint8_t state_root[32];
};

/* One height as the source holds it.  Everything is owned (free with
 * zbc_audit_block_free). */
struct zbc_audit_block {
    uint8_t *bytes;         /* encoded block */
    size_t len;
    bool has_events_raw;    /* datadir: the stored event record */
    uint8_t *events_raw;
    size_t events_len;
    json_t *events_json;    /* peer: the served "events" array (or NULL) */
    bool has_undo;          /* datadir: undo record (last 2048 blocks) */
    uint8_t *undo_raw;
    size_t undo_len;
};

void zbc_audit_block_free(struct zbc_audit_block *b);

/* What the replay knows at the end, for the source's final comparison. */
struct zbc_audit_final {
    uint32_t height;
    uint8_t hash[32];           /* last replayed block (genesis hash at 0) */
    uint8_t state_root[32];
    struct zbc_kv replayed;     /* the replayed state tables */
    const struct zbc_genesis *g;
};

struct zbc_audit_source_ops {
    /* The claimed genesis hash and tip.  0: the source cannot be read. */
    int (*tip)(void *ctx, struct zbc_audit_tip *t, struct zbc_err *err);
    /* The block at height (1..tip): 1 with *found (false: the source
     * has no block there), or 0 with err saying why. */
    int (*block)(void *ctx, uint32_t height, struct zbc_audit_block *out,
                 bool *found, struct zbc_err *err);
    /* Optional (NULL): the source's indexes for a replayed block (block
     * hash -> height, each tx hash -> height, index).  Divergences go to
     * r; 0 only when the source cannot be read. */
    int (*check_indexes)(void *ctx, uint32_t height, const uint8_t hash[32],
                         const uint8_t (*tx_hashes)[32], uint32_t n_tx,
                         struct zbc_audit_report *r, struct zbc_err *err);
    /* Optional (NULL): compares what the source holds at the end (stored
     * state tables, tip record) with the replay.  0 only when the source
     * cannot be read. */
    int (*check_final)(void *ctx, const struct zbc_audit_final *f,
                       struct zbc_audit_report *r, struct zbc_err *err);
    void (*close)(void *ctx);
    /* block may run on several threads at once (the peer: one HTTP
     * connection per call); false: one thread (an LMDB read transaction
     * belongs to one thread). */
    bool parallel_block;
};

struct zbc_audit_source {
    const struct zbc_audit_source_ops *ops;
    void *ctx;
    char name[300]; /* "datadir DIR" or "peer URL", for the output */
};

/* Opens <dir>/ledger read-only (MDB_RDONLY) in one read transaction that
 * lasts until close, so a running node's later blocks do not mix in. */
ZBC_WUR int zbc_audit_open_datadir(struct zbc_audit_source *src,
                                   const char *dir, struct zbc_err *err);

/* Reads over http://HOST:PORT (GET /api/v1/node/info, /api/v1/blocks/H,
 * which must carry block_bytes). */
ZBC_WUR int zbc_audit_open_peer(struct zbc_audit_source *src, const char *url,
                                int timeout_s, struct zbc_err *err);

void zbc_audit_source_close(struct zbc_audit_source *src);

#endif
