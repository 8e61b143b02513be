/* Shared helpers for human move notation and text output of game engines.
 *
 * Board coordinates ("d3", "h8", "o15"): a file letter then a rank number.
 * The file letter is 'a' for column 0, 'b' for column 1, ... (upper case is
 * accepted when parsing, lower case is always written); the rank is the
 * decimal row number starting at 1, without leading zeros.  The cell index
 * is (rank - 1) * width + file, so "a1" is cell 0.  Whether rank 1 is drawn
 * at the top (reversi, gomoku, tic-tac-toe) or at the bottom (chess) is up
 * to each game's renderer; the index mapping is the same everywhere.
 *
 * Tokens: move texts like "h 2 3" or "fire B7" are split on ASCII
 * whitespace (space, tab, newline) into at most ZBC_NOTATION_TOKENS tokens
 * of at most ZBC_NOTATION_TOKEN_MAX - 1 characters each.
 *
 * Text output: struct zbc_text appends formatted text into a caller buffer
 * and remembers an overflow, so a to_json()/render() writes everything and
 * checks once at the end (zbc_text_result: the length, or -1 when the
 * buffer was too small, matching the engine interface). */
#ifndef ZBC_NOTATION_H
#define ZBC_NOTATION_H

#include <stdbool.h>
#include <stddef.h>

#include "crypto/err.h"

#define ZBC_NOTATION_TOKENS 8
#define ZBC_NOTATION_TOKEN_MAX 24
#define ZBC_NOTATION_FILES 26 /* widest board the letters can name */

/* Parses a board coordinate for a width x height board (width <= 26).
 * Fails on anything else: empty text, a file or rank off the board, extra
 * characters, leading zeros, signs or spaces. */
ZBC_WUR int zbc_notation_parse_square(const char *text, unsigned width,
                                      unsigned height, unsigned *cell,
                                      struct zbc_err *err);

/* Writes the coordinate of `cell` on a board `width` wide ("d3").  Returns
 * 1, or 0 when width is 0 or above 26, or out is too small (cap >= 5 is
 * always enough for boards up to 26 x 999). */
ZBC_WUR int zbc_notation_format_square(unsigned cell, unsigned width,
                                       char *out, size_t cap);

/* Splits `text` on ASCII whitespace.  Fails when there are more than
 * ZBC_NOTATION_TOKENS tokens or a token is too long. */
struct zbc_tokens {
    size_t count;
    char tok[ZBC_NOTATION_TOKENS][ZBC_NOTATION_TOKEN_MAX];
};
ZBC_WUR int zbc_notation_tokens(struct zbc_tokens *out, const char *text,
                                struct zbc_err *err);

/* Appending text writer. */
struct zbc_text {
    char *buf;
    size_t cap;
    size_t len;
    bool overflow;
};
void zbc_text_init(struct zbc_text *t, char *buf, size_t cap);
void zbc_text_printf(struct zbc_text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The length written (buf NUL-terminated), or -1 after an overflow. */
int zbc_text_result(const struct zbc_text *t);

#endif
