/* What the multi-step solo games share (mines, ...; docs/games.md,
 * "Multi-step solo games"): their params bytes and words.
 *
 * Params: empty (the game's defaults, empty client seed), or the game's F
 * fixed field bytes, or those fields then client_seed_len u8 ||
 * client_seed (printable ASCII, at most 64 bytes).  Named words: the
 * game's fields and seed=TEXT (at most ZBC_NAMED_PARAMS_MAX - F - 1
 * characters; a longer seed is given as hex params). */
#ifndef ZBC_GAMES_SOLO_H
#define ZBC_GAMES_SOLO_H

#include <stddef.h>
#include <stdint.h>

#include "apps/roll.h"
#include "crypto/err.h"

#define ZBC_SOLO_FIELDS_MAX 4

struct zbc_solo_params {
    uint8_t n_fields; /* 0 (defaults) or F */
    uint8_t field[ZBC_SOLO_FIELDS_MAX];
    uint8_t seed_len;
    char seed[ZBC_ROLL_CLIENT_MAX + 1];
    uint8_t has_seed_byte; /* the params carry the seed length byte */
};

/* Reads params with f fixed fields (f <= ZBC_SOLO_FIELDS_MAX). */
ZBC_WUR int zbc_solo_params(const uint8_t *params, size_t len, uint8_t f,
                            struct zbc_solo_params *p, struct zbc_err *err);

/* params_word for "seed=TEXT" (out holds f field bytes, then the seed). */
ZBC_WUR int zbc_solo_seed_word(const char *key, const char *value,
                               uint8_t *out, uint8_t f, size_t *len,
                               const char *fields_hint, struct zbc_err *err);

/* params_text: "KEY=V[,seed=TEXT]" for one field named key; 0 when the
 * bytes have no word form (no seed length byte, or a seed words cannot
 * carry) or cap is too small. */
int zbc_solo_params_text(const struct zbc_solo_params *p, const char *key,
                         char *out, size_t cap);

/* client_seed hooks for games with 0 and 1 field. */
void zbc_solo_client_seed_0(const uint8_t *params, size_t len,
                            char out[ZBC_ROLL_CLIENT_MAX + 1]);
void zbc_solo_client_seed_1(const uint8_t *params, size_t len,
                            char out[ZBC_ROLL_CLIENT_MAX + 1]);

#endif
