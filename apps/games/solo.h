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

#include "apps/engine.h"
#include "apps/notation.h"
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

/* params_text of games whose params are only the client seed:
 * "seed=TEXT"; 0 when the bytes have no word form or cap is too small. */
int zbc_solo_seed_text(const uint8_t *params, size_t len, char *out,
                       size_t cap);

/* Games whose moves are one byte named by a word (hilo, blackjack):
 * words[first..last]. */
ZBC_WUR int zbc_solo_parse_word(const char *text, const char *const *words,
                                uint8_t first, uint8_t last, uint8_t *move,
                                size_t cap, size_t *len, const char *game,
                                const char *list, struct zbc_err *err);
int zbc_solo_format_word(const uint8_t *move, size_t len,
                         const char *const *words, uint8_t first,
                         uint8_t last, char *out, size_t cap);
/* gen_moves of such a game: every byte first..last check_move accepts. */
size_t zbc_solo_gen_bytes(const struct zbc_engine *e,
                          const struct zbc_game_state *st, uint8_t first,
                          uint8_t last, struct zbc_move *out, size_t cap);
/* params_word of games whose one param is seed=TEXT. */
ZBC_WUR int zbc_solo_seed_only_word(const char *game, const char *key,
                                    const char *value, uint8_t *out,
                                    size_t *len, struct zbc_err *err);

/* client_seed hooks for games with 0 and 1 field. */
void zbc_solo_client_seed_0(const uint8_t *params, size_t len,
                            char out[ZBC_ROLL_CLIENT_MAX + 1]);
void zbc_solo_client_seed_1(const uint8_t *params, size_t len,
                            char out[ZBC_ROLL_CLIENT_MAX + 1]);

/* The one-field params of mines and tower: the field (def when the params
 * are empty). */
ZBC_WUR int zbc_solo_field1(const uint8_t *params, size_t len, uint8_t def,
                            uint8_t *field, struct zbc_err *err);

/* The status byte mines and tower share (docs/games.md, their state
 * bytes): playing, bust, cashed out, the top step reached. */
enum zbc_solo_status {
    ZBC_SOLO_PLAYING = 0,
    ZBC_SOLO_BUST = 1,
    ZBC_SOLO_CASHOUT = 2,
    ZBC_SOLO_TOP = 3,
};
/* turn / result of such a status: seat 0 while playing; a bust is a
 * draw (nobody won, the value 0 pays), the other ends a win of seat 0. */
int zbc_solo_turn(uint8_t status);
void zbc_solo_result(uint8_t status, struct zbc_result *out);
/* "playing", "bust", "cashout", "cleared". */
const char *zbc_solo_status_word(uint8_t status);

/* JSON "[i,j,...]" of the set bits of mask below n. */
void zbc_solo_bits_json(struct zbc_text *tb, uint32_t mask, unsigned n);
/* The views' tail: "\"multiplier\":\"X.XXXX\",\"turn\":0|null}". */
void zbc_solo_json_tail(struct zbc_text *tb, uint64_t value, bool playing);
/* The render's last line after "...; ": "cash-out value X.XXXXx",
 * `bust` (a bust), or "cleared|cashed out at X.XXXXx". */
void zbc_solo_status_line(struct zbc_text *tb, uint8_t status, uint64_t value,
                          const char *bust);
/* value in ten-thousandths as "X.XXXX". */
void zbc_solo_mult(char out[32], uint64_t value);

#endif
