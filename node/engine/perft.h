/* Generic perft over the engine interface: the number of move sequences
 * of each length 1..depth from a position (gen_moves / apply_move), the
 * standard move-generator check.  Reversi passes are automatic and never
 * wire moves; perft counts a forced pass as one ply, like published
 * Othello perft tables (docs/zbc-engine.md). */
#ifndef ZBC_ENGINE_PERFT_H
#define ZBC_ENGINE_PERFT_H

#include <stdint.h>

#include "apps/engine.h"

#define ZBC_PERFT_DEPTH_MAX 32

/* count[d] (1 <= d <= depth) receives the sequences of length d; count[0]
 * is 1.  Fails when depth is out of range, the game uses dice, or an
 * engine refuses one of its own generated moves (an engine bug). */
ZBC_WUR int zbc_perft(const struct zbc_engine *e,
                      const struct zbc_game_state *st, unsigned depth,
                      uint64_t count[ZBC_PERFT_DEPTH_MAX + 1],
                      struct zbc_err *err);

#endif
