/* Rock-paper-scissors helpers for the wallet (docs/games.md, section
 * "Rock-paper-scissors (type 9)"). */
#ifndef ZBC_GAMES_RPS_H
#define ZBC_GAMES_RPS_H

#include <stdint.h>

#include "apps/engine.h"
#include "crypto/err.h"

#define ZBC_RPS_ROCK 1
#define ZBC_RPS_SCISSORS 2
#define ZBC_RPS_PAPER 3
#define ZBC_RPS_SALT_LEN 32

/* The commitment H(choice || salt) (SHA3-256 of 33 bytes) a player sends
 * in its commit move [0, hash32].  Fails when choice is not 1-3. */
ZBC_WUR int zbc_rps_commitment(uint8_t out[32], uint8_t choice,
                               const uint8_t salt[ZBC_RPS_SALT_LEN],
                               struct zbc_err *err);

/* The engine itself, for tools that drive its secrets (the wallet). */
extern const struct zbc_engine zbc_engine_rps;

#endif
