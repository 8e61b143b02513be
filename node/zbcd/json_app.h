/* JSON views of apps for the HTTP API (docs/api.md "Apps"): one app with
 * everything a client needs (seats, money, engine state as hex, the
 * engine's JSON view and text board, the clock, the pending move, the
 * history with move notation and rolls, the result and payouts), and the
 * short form used in lists.  Pure functions over jansson, like
 * node/zbcd/json_util.h. */
#ifndef ZBC_NODE_JSON_APP_H
#define ZBC_NODE_JSON_APP_H

#include <jansson.h>
#include <stdint.h>

#include "apps/app.h"
#include "crypto/err.h"
#include "node/zbcd/chain_apps.h"

/* Game name of an app type: the engine's name, or "dice", "coin",
 * "roulette", "limbo", "plinko", "keno", "wheel", "baccarat", "blitz" for
 * solo bets; NULL for an unknown type. */
const char *zbc_app_game_name(uint8_t type);
/* The type of a game name (as above); 0 when unknown. */
uint8_t zbc_app_type_by_name(const char *name);

/* The short view of one app (list entries) at tip height `tip`. */
ZBC_WUR int zbc_json_app_summary(json_t **out, const struct zbc_app *a,
                                 uint32_t tip, struct zbc_err *err);

/* The full view of one app: the summary plus state_hex, view, board,
 * pending, history and result. */
ZBC_WUR int zbc_json_app(json_t **out, const struct zbc_app_snapshot *s,
                         struct zbc_err *err);

#endif
