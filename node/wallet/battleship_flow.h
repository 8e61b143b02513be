/* Battleship in the wallet (docs/wallet.md "Battleship"): the board and
 * salts kept in the wallet's secret file, the moves whose secret parts
 * the wallet writes (reveal, a shot carrying the due reveal, the final
 * open), the drawing of the caller's own fleet, what `app watch
 * --auto-reveal` does next, and what `app join` says comes next.  Used by
 * app_move.c, app_watch.c and cmd_app.c; calls none of them. */
#ifndef ZBC_WALLET_BATTLESHIP_FLOW_H
#define ZBC_WALLET_BATTLESHIP_FLOW_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "apps/games/battleship.h"
#include "node/client/fail.h"
#include "node/wallet/opts.h"

/* A board as the secret file keeps it. */
struct zbc_bs_secret {
    uint8_t is_ship[ZBC_BATTLESHIP_CELLS];
    uint8_t salts[ZBC_BATTLESHIP_CELLS][ZBC_BATTLESHIP_SALT_LEN];
};

/* The secret file's object as a board: 0 when it is not a battleship
 * board ("is_ship" 200 hex of 0/1 bytes, "salts" 6400 hex). */
ZBC_WUR int zbc_bs_secret_parse(struct zbc_bs_secret *s, const json_t *secret);

/* The caller's board of app `id` from the wallet: *found false when the
 * wallet has no secret file for it; fails when the file is unreadable or
 * is not a battleship board. */
ZBC_WUR int zbc_bs_secret_load(struct zbc_bs_secret *s, bool *found, const struct zbc_opts *o,
                               uint64_t id, const char *me, struct zbc_wfail *f);

/* What a person reads about a commit of the board in `secret` (the
 * secret file's object; "" when it is not a board): note (cap bytes). */
void zbc_bs_commit_note(char *note, size_t cap, const json_t *secret);

/* The words of `zbc app move ID WORDS...` for a battleship seat, with the
 * secret parts written in (the commit is app_move.c's): "reveal",
 * "reveal fire C3", "fire C3" while a reveal is due (sent as reveal and
 * fire, one transaction), "open".  Other words are left as they are.  text
 * (cap bytes) is rewritten; note gets what a person reads about the move
 * (empty when the notation says it all). */
ZBC_WUR int zbc_bs_move_text(char *text, size_t cap, char *note, size_t note_cap,
                             const struct zbc_opts *o, uint64_t id, const char *me,
                             const struct zbc_game_state *st, uint8_t seat, int argc,
                             const char *const *argv, struct zbc_wfail *f);

/* A drawing of one's own board: the ship cells as a list and a 10x10 grid
 * (# ship, X ship hit, o water shot at, ? awaiting the reveal, . water).
 * known = what the chain knows of the board (zbc_battleship_board), NULL
 * before the game started.  Writes at most cap bytes (NUL-terminated). */
void zbc_bs_fleet_text(char *out, size_t cap, const uint8_t is_ship[ZBC_BATTLESHIP_CELLS],
                       const uint8_t *known);

/* `app show`: the caller's own fleet of a battleship app from the wallet's
 * secret file (malloc'ed), or NULL (another game, no seat, no file). */
char *zbc_bs_show_own(const struct zbc_opts *o, const json_t *app, const char *me);

/* What `app watch --auto-reveal` does now for `seat`
 * (docs/wallet.md "Battleship"). */
enum zbc_bs_auto {
    ZBC_BS_AUTO_NONE,   /* nothing of ours is due */
    ZBC_BS_AUTO_WAIT,   /* a reveal is due: it goes with the player's next shot */
    ZBC_BS_AUTO_REVEAL, /* send the reveal alone now */
    ZBC_BS_AUTO_OPEN,   /* send the final open now */
};
#define ZBC_BS_REVEAL_MARGIN 3 /* blocks left when a waiting reveal goes alone */
enum zbc_bs_auto zbc_bs_auto_step(const struct zbc_game_state *st, uint8_t seat,
                                  const struct zbc_bs_secret *s, long long blocks_left);

/* `zbc app join ID`: JoinApp as the raw form sends it, then says which
 * seat the caller takes and what comes next (in "_text" and "next"). */
ZBC_WUR int zbc_app_join(const struct zbc_opts *o, const char *id, json_t **result,
                         struct zbc_wfail *f);

#endif
