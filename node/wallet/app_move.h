/* Moves of the wallet's app commands (app_move.c): `zbc app move ID
 * NOTATION...` and the battleship board commitment that `app create
 * battleship` and `app move ID commit` send (battleship's other secret
 * moves: battleship_flow.h).  Used by the dispatcher
 * (cmd_app.c) and the watcher (app_watch.c); calls neither. */
#ifndef ZBC_WALLET_APP_MOVE_H
#define ZBC_WALLET_APP_MOVE_H

#include <jansson.h>

#include "node/client/fail.h"
#include "node/wallet/opts.h"

/* Plays words (1..32, e.g. {"fire", "B7"} or {"reveal"}) in app app_id
 * (decimal) for the caller's seat: parses them with the game's engine
 * (secret parts of battleship/rps filled in), signs and submits the
 * AppMove.  "keep-alive" alone is the empty move.  *result as zbc app
 * move prints it. */
ZBC_WUR int zbc_app_move(const struct zbc_opts *o, const char *app_id, int nwords,
                         const char *const *words, json_t **result, struct zbc_wfail *f);

/* A battleship board (--board, else a random legal fleet) and 100 random
 * salts: *commit_hex the commitment (6400 hex characters, caller frees)
 * and *secret the secret file's object (docs/wallet.md "Apps"). */
ZBC_WUR int zbc_app_battleship_secret(char **commit_hex, json_t **secret,
                                      const struct zbc_opts *o, struct zbc_wfail *f);

#endif
