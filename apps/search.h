/* One game-tree search over every engine (docs/games.md, "Machine
 * opponents"): what `zbc bot` plays and the tests measure.
 *
 * Pure like the engines: no clock, no allocation, no randomness of its
 * own.  The caller gives a workspace (struct zbc_search_ws, about 5 MB:
 * allocate it once), a random source (the "random" level and the tie
 * breaks) and, for a time budget, a stop() callback that reads its own
 * clock (the wallet does; nothing under apps/ does).
 *
 * Two-seat games without dice: minimax with alpha-beta pruning and
 * iterative deepening over gen_moves / apply_move / turn / result, the
 * engine's eval hook at the depth limit (0 without one).  A won position
 * scores ZBC_SEARCH_WIN minus the plies to it (win sooner, lose later).
 * Games of 3-4 seats and dice games: a one-ply policy (the move whose
 * position, or for a dice move its mean over sampled roll streams, has
 * the best eval for the mover; an immediate win first): up to
 * ZBC_SEARCH_DICE_SAMPLES streams a move, fewer when the node budget
 * shared by the moves is smaller (one at least), and a stop() ends the
 * sampling of each move after its first sample. */
#ifndef ZBC_SEARCH_H
#define ZBC_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "apps/engine.h"
#include "crypto/err.h"

#define ZBC_SEARCH_LEVEL_MAX 5
#define ZBC_SEARCH_PLY_MAX 32
#define ZBC_SEARCH_WIN 1000000
#define ZBC_SEARCH_EVAL_MAX 900000 /* an eval is clamped to +-this */
#define ZBC_SEARCH_DICE_SAMPLES 256

/* Uniform value in [0, n), n >= 1 (libsodium randombytes_uniform in the
 * wallet, a seeded generator in tests). */
typedef uint32_t (*zbc_search_uniform_fn)(void *ctx, uint32_t n);

struct zbc_search_limits {
    uint8_t level;          /* 0 random legal move .. ZBC_SEARCH_LEVEL_MAX */
    uint64_t max_nodes;     /* 0: the level's default (zbc_search_level_nodes) */
    bool (*stop)(void *ctx);/* polled every 256 nodes; NULL: never */
    void *stop_ctx;
    zbc_search_uniform_fn uniform; /* required */
    void *rand_ctx;
};

struct zbc_search_ply {
    struct zbc_game_state st;
    struct zbc_move moves[ZBC_MOVES_MAX];
};

/* The caller's workspace (zbc_search_best keeps nothing in it between
 * calls). */
struct zbc_search_ws {
    struct zbc_search_ply ply[ZBC_SEARCH_PLY_MAX + 1];
    struct zbc_move killer[ZBC_SEARCH_PLY_MAX + 1];
    struct zbc_move root_best;
    uint64_t nodes, max_nodes;
    bool stopped, cut;
    const struct zbc_search_limits *lim;
};

struct zbc_search_out {
    struct zbc_move move;
    int32_t score;          /* for the mover: +-ZBC_SEARCH_WIN-ply, eval, 0 draw */
    uint8_t depth;          /* plies of the last completed iteration (1 for a policy) */
    bool proven;            /* the score is exact: the tree was searched to its ends */
    uint64_t nodes;         /* positions visited */
    size_t legal;           /* legal moves at the root */
};

/* Depth limit and default node budget of a level (level 0: 0 and 0). */
uint8_t zbc_search_level_depth(uint8_t level);
uint64_t zbc_search_level_nodes(uint8_t level);

/* The move `seat` should play in st (a game of `seats` seats).  Fails
 * when the game is over, `seat` is not to move, the level is above
 * ZBC_SEARCH_LEVEL_MAX, or gen_moves lists nothing (commit-reveal games
 * while a secret is due).  The move returned passed e->check_move.  Every
 * call answers: a budget or stop() that ends the first iteration early
 * still leaves its best move so far (at worst the first legal one). */
ZBC_WUR int zbc_search_best(const struct zbc_engine *e,
                            const struct zbc_game_state *st, uint8_t seats,
                            uint8_t seat,
                            const struct zbc_search_limits *lim,
                            struct zbc_search_ws *ws,
                            struct zbc_search_out *out, struct zbc_err *err);

#endif
