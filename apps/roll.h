/* The roll stream: where dice games get their randomness (docs/games.md, "The roll stream").
 *
 * A stream is a sequence of bytes.  On chain the bytes are
 *   H("ZBC-DICE" || seed || tag || counter_u32)  for counter = 0, 1, ...
 * concatenated (tag = the move's transaction hash, or the app id as 8 LE
 * bytes for a start position).  For tests and `zbc-engine play --rolls`
 * the bytes can be given literally; a literal stream that runs out makes
 * the draw fail (the move is refused with "roll stream exhausted").
 *
 * Uniform draws use rejection sampling, one byte per draw for n <= 256:
 * a byte b is accepted when b < 256 - (256 % n) and yields b % n; larger
 * n take 4 bytes LE, accepted when v < 2^32 - (2^32 % n).  Engines never
 * see the seed.
 *
 * The float mode (multi-step solo games, docs/protocol-apps.md §13): the
 * provably-fair float stream of apps/fair_events.h with server_seed = the
 * lower-case hex of the seed, the client seed of the game's params and
 * nonce = the app id.  Engines reach it through zbc_roll_fair; a hash
 * stream (tools, property tests) answers there with server_seed = hex of
 * its seed, client_seed = hex of its tag and nonce 0; a literal stream has
 * no float stream. */
#ifndef ZBC_ROLL_H
#define ZBC_ROLL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "apps/fair_events.h"
#include "crypto/err.h"

#define ZBC_ROLL_LITERAL_MAX 512
#define ZBC_ROLL_CLIENT_MAX 64 /* = ZBC_CLIENT_SEED_MAX of apps/fair.h */

struct zbc_roll {
    bool literal;
    uint8_t seed[32];
    uint8_t tag[32];
    size_t tag_len;
    uint32_t counter;       /* next block to derive */
    uint8_t block[32];      /* current derived block */
    size_t pos;             /* position inside block / literal bytes */
    uint8_t lit[ZBC_ROLL_LITERAL_MAX];
    size_t lit_len;
    uint64_t used;          /* bytes consumed so far (for audits) */
    bool fair;              /* float mode (zbc_roll_init_fair) */
    char fair_server[65];   /* float stream: server seed, client seed, nonce */
    char fair_client[2 * 32 + 1];
    uint64_t fair_nonce;
    struct zbc_fair_stream fs;
};

/* Hash-derived stream; tag_len <= 32. */
void zbc_roll_init(struct zbc_roll *r, const uint8_t seed[32],
                   const uint8_t *tag, size_t tag_len);
/* Literal stream for tests and tools; fails when len > ZBC_ROLL_LITERAL_MAX. */
ZBC_WUR int zbc_roll_init_literal(struct zbc_roll *r, const uint8_t *bytes,
                                  size_t len);

/* Float mode: server_seed = hex(seed), client_seed (printable ASCII,
 * at most ZBC_ROLL_CLIENT_MAX characters; longer is cut), nonce. */
void zbc_roll_init_fair(struct zbc_roll *r, const uint8_t seed[32],
                        const char *client_seed, uint64_t nonce);
/* The float stream of r (the stream's floats 0, 1, ... are read with
 * zbc_fair_stream_u32); NULL for a literal stream.  The pointer is valid
 * until r is moved. */
struct zbc_fair_stream *zbc_roll_fair(struct zbc_roll *r);

ZBC_WUR int zbc_roll_byte(struct zbc_roll *r, uint8_t *out);
/* Uniform value in [0, n), n >= 1. */
ZBC_WUR int zbc_roll_uniform(struct zbc_roll *r, uint32_t n, uint32_t *out);
/* A die face 1..6. */
ZBC_WUR int zbc_roll_d6(struct zbc_roll *r, uint8_t *out);

#endif
