/* Chess extras beyond the engine interface (docs/games.md, section
 * "Chess (type 2)").
 *
 * FEN is read for tools (zbc-engine perft --fen) and tests.  The castling
 * and en-passant fields are checked for syntax and ignored (this chess has
 * neither); the halfmove clock (0-150) and fullmove number (1-9999) are
 * honoured and may be left out together ("... w - -" means "0 1").  White
 * is seat 0, black seat 1.  The position must look reachable: one king
 * each, no pawn on rank 1 or 8, at most 16 men and 8 pawns a side, no more
 * promoted pieces than missing pawns, and the side not to move not in
 * check. */
#ifndef ZBC_GAMES_CHESS_H
#define ZBC_GAMES_CHESS_H

#include <stddef.h>

#include "apps/engine.h"

ZBC_WUR int zbc_chess_from_fen(struct zbc_game_state *st, const char *fen,
                               struct zbc_err *err);

/* Writes the FEN of the position (castling "-", en passant "-").  Returns
 * the length, or -1 when cap is too small. */
int zbc_chess_to_fen(const struct zbc_game_state *st, char *out, size_t cap);

#endif
