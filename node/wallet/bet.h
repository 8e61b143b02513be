/* The wallet's bet commands (cmd_bet.c) that app show and the tests share;
 * the pictures and steps themselves are node/client/bet_pictures.h. */
#ifndef ZBC_WALLET_BET_H
#define ZBC_WALLET_BET_H

#include <jansson.h>

#include "node/client/bet_pictures.h"

struct zbc_opts;

/* The words of `zbc bet GAME ...` (argv[0] the game) as a bet, the client seed left empty;
 * risk is --risk (keno only, else NULL).  0 with f a usage error naming the bad word
 * (cmd_bet.c). */
ZBC_WUR int zbc_bet_args(struct zbc_bet *b, int argc, const char *const *argv, const char *risk,
                         struct zbc_wfail *f);

/* `zbc app show` of a settled catalogue bet (cmd_bet.c): fetches the seed of block
 * created + 1, recomputes the bet and returns its picture (malloc'ed; a line saying why
 * when the seed cannot be had or the node's settlement differs), and sets "event" in app.
 * NULL for anything else. */
char *zbc_bet_show(const struct zbc_opts *o, json_t *app);

#endif
