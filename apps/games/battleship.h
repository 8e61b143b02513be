/* Battleship helpers for the wallet and clients (docs/games.md, section
 * "Battleship (type 7)").
 *
 * A board is 10x10 cells, cell = row * 10 + column, row 0 = 'A' ... row 9 =
 * 'J', column 0 = '1' ... column 9 = '10' (so "B7" is cell 16).  A player
 * commits to its board with one hash per cell, H(is_ship || salt) (SHA3-256
 * of 33 bytes), the 100 hashes in cell order being the 3200-byte
 * commitment.  The wallet picks the salts (the engine never generates
 * randomness) and keeps them to reveal cells later. */
#ifndef ZBC_GAMES_BATTLESHIP_H
#define ZBC_GAMES_BATTLESHIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "apps/engine.h"
#include "crypto/err.h"

#define ZBC_BATTLESHIP_CELLS 100
#define ZBC_BATTLESHIP_SALT_LEN 32
#define ZBC_BATTLESHIP_COMMIT_LEN 3200 /* 100 x 32-byte hashes */
#define ZBC_BATTLESHIP_FLEET_CELLS 17  /* 5 + 4 + 3 + 3 + 2 */

/* Move tags (first byte of a move). */
#define ZBC_BATTLESHIP_FIRE 0        /* [0, cell] */
#define ZBC_BATTLESHIP_REVEAL 1      /* [1, is_ship, salt32] */
#define ZBC_BATTLESHIP_REVEAL_FIRE 2 /* [2, is_ship, salt32, cell] */
#define ZBC_BATTLESHIP_COMMIT 3      /* [3, commitment3200] (joiner) */
#define ZBC_BATTLESHIP_OPEN 4        /* [4, 100 x (is_ship, salt32)] (final open) */
#define ZBC_BATTLESHIP_OPEN_LEN (1 + ZBC_BATTLESHIP_CELLS * (1 + ZBC_BATTLESHIP_SALT_LEN))

/* What is known of a cell of a seat's own board (zbc_battleship_board). */
#define ZBC_BATTLESHIP_UNSHOT 0
#define ZBC_BATTLESHIP_PENDING 1    /* fired at, awaiting its owner's reveal */
#define ZBC_BATTLESHIP_WATER 2      /* fired at, revealed water */
#define ZBC_BATTLESHIP_SHIP 3       /* fired at, revealed ship */
#define ZBC_BATTLESHIP_OPEN_WATER 4 /* never fired at, water by the final open */
#define ZBC_BATTLESHIP_OPEN_SHIP 5  /* never fired at, ship by the final open */

/* H(is_ship || salt) for one cell. */
void zbc_battleship_cell_hash(uint8_t out[32], uint8_t is_ship,
                              const uint8_t salt[ZBC_BATTLESHIP_SALT_LEN]);

/* The 3200-byte commitment of a board (is_ship[i] 0 or 1 for cell i).
 * Fails when an is_ship byte is not 0 or 1. */
ZBC_WUR int zbc_battleship_commitment(
    uint8_t out[ZBC_BATTLESHIP_COMMIT_LEN],
    const uint8_t is_ship[ZBC_BATTLESHIP_CELLS],
    const uint8_t salts[ZBC_BATTLESHIP_CELLS][ZBC_BATTLESHIP_SALT_LEN],
    struct zbc_err *err);

/* Whether the ship cells form the standard fleet: ships of 5, 4, 3, 3 and 2
 * cells, each a straight horizontal or vertical run, not overlapping
 * (ships may touch).  The chain cannot check this (it only counts revealed
 * hits); the wallet checks its own layout before committing. */
ZBC_WUR int zbc_battleship_check_fleet(
    const uint8_t is_ship[ZBC_BATTLESHIP_CELLS], struct zbc_err *err);

/* "B7" <-> 16 (letters A-J upper or lower case, numbers 1-10). */
ZBC_WUR int zbc_battleship_parse_cell(const char *text, size_t len,
                                      uint8_t *cell, struct zbc_err *err);
/* Writes "B7" (out needs 4 bytes); returns 0 when cell >= 100. */
ZBC_WUR int zbc_battleship_format_cell(uint8_t cell, char out[4]);

/* A fleet as text, its ship cells separated by commas or blanks
 * ("A1,A2,A3,A4,A5,C1,..."): is_ship of those cells, which must form the
 * standard fleet (zbc_battleship_check_fleet). */
ZBC_WUR int zbc_battleship_parse_fleet(const char *text,
                                       uint8_t is_ship[ZBC_BATTLESHIP_CELLS],
                                       struct zbc_err *err);

/* A random standard fleet.  The engine has no randomness of its own:
 * uniform(ctx, n) is the caller's uniform draw from 0..n-1 (the wallet
 * passes libsodium's randombytes_uniform). */
void zbc_battleship_random_fleet(uint8_t is_ship[ZBC_BATTLESHIP_CELLS],
                                 uint32_t (*uniform)(void *ctx, uint32_t n),
                                 void *ctx);

/* The cell of `seat`'s own board that `seat` must reveal now, or -1 (no
 * reveal pending for that seat, or the state is not a battleship game in
 * play).  For the wallet's --auto-reveal. */
int zbc_battleship_pending_cell(const struct zbc_game_state *st, uint8_t seat);

/* Whether `seat` must open its whole board now (its shots hit 17 ship
 * cells: docs/games.md "Battleship", "Final open"). */
bool zbc_battleship_open_due(const struct zbc_game_state *st, uint8_t seat);

/* What is known of each cell of `seat`'s own board (ZBC_BATTLESHIP_UNSHOT
 * ... ZBC_BATTLESHIP_OPEN_SHIP); 0 when the state is not a battleship game
 * past the joiner's commitment. */
ZBC_WUR int zbc_battleship_board(const struct zbc_game_state *st, uint8_t seat,
                                 uint8_t out[ZBC_BATTLESHIP_CELLS]);

/* The engine itself, for tools that drive its secrets (the wallet). */
extern const struct zbc_engine zbc_engine_battleship;

#endif
