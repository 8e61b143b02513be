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

/* Standard algebraic notation of a legal move of the side to move (for
 * PGN and tests): piece letter (none for a pawn), the from-file, -rank or
 * both when another piece of that kind could also go there, "x" for a
 * capture (a pawn's capture starts with its file), the square, "=Q" for a
 * promotion, "+" for check or "#" for checkmate.  The engine's
 * parse_move reads it back (docs/games.md "Chess", "Notation"); its
 * format_move stays the coordinate form.  Returns the length, or -1 for a
 * move that is not legal here or a cap too small. */
int zbc_chess_san(const struct zbc_game_state *st, const uint8_t *move, size_t len, char *out,
                  size_t cap);

#endif
