/* Reversi extras other code needs (the engine is zbc_engine_reversi). */
#ifndef ZBC_GAMES_REVERSI_H
#define ZBC_GAMES_REVERSI_H

#include <stdbool.h>

#include "apps/engine.h"

/* True when the opponent of the seat that made the last move had no legal
 * move and was skipped, so the last mover is to move again.  Passes are
 * automatic and never wire moves; perft counts such a forced pass as one
 * ply (node/engine/perft.c; docs/games.md, section "Reversi (type 5)"). */
bool zbc_reversi_opponent_passed(const struct zbc_game_state *st);

#endif
