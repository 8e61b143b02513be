/* Solo bets (docs/games.md, "Solo bets"): the provably-fair float generator and the outcome
 * and payout of each solo game, in exact integers.
 *
 *   server_seed = lower-case hex of seed(N+1)            (64 ASCII chars)
 *   client_seed = ASCII string from the bet's params     (<= 64 chars)
 *   nonce       = the app id as an unsigned decimal
 *   block(r)    = HMAC_SHA256(key = server_seed,
 *                             msg = client_seed ":" nonce ":" r)
 *   floats come from the blocks 4 bytes at a time; float i uses bytes
 *   4i..4i+3 of the stream block(0) || block(1) || ...; as an integer,
 *   u = those 4 bytes read big-endian and float = u / 2^32.
 * Dice, coin, roulette, limbo and wheel use the first float only; plinko, keno, baccarat
 * and blitz use the catalogue's event functions (apps/fair_events.h) over the stream. */
#ifndef ZBC_FAIR_H
#define ZBC_FAIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "apps/fair_events.h"
#include "crypto/err.h"

enum zbc_bet_game {
    ZBC_BET_DICE = 16,
    ZBC_BET_COIN = 17,
    ZBC_BET_ROULETTE = 18,
    ZBC_BET_LIMBO = 22,
    ZBC_BET_PLINKO = 23,
    ZBC_BET_KENO = 24,
    ZBC_BET_WHEEL = 25,
    ZBC_BET_BACCARAT = 26,
    ZBC_BET_BLITZ = 27,
};

enum zbc_roulette_kind {
    ZBC_ROULETTE_STRAIGHT = 0,
    ZBC_ROULETTE_RED = 1,
    ZBC_ROULETTE_BLACK = 2,
    ZBC_ROULETTE_ODD = 3,
    ZBC_ROULETTE_EVEN = 4,
    ZBC_ROULETTE_LOW = 5,
    ZBC_ROULETTE_HIGH = 6,
    ZBC_ROULETTE_DOZEN = 7,
    ZBC_ROULETTE_COLUMN = 8,
};

#define ZBC_CLIENT_SEED_MAX 64

struct zbc_bet {
    enum zbc_bet_game game;
    uint8_t direction;  /* dice: 0 under, 1 over; coin: side 0 heads, 1 tails */
    uint16_t target16;  /* dice: target in hundredths, 1..9999 */
    uint8_t kind;       /* roulette: enum zbc_roulette_kind */
    uint8_t number;     /* roulette: straight 0..36, dozen/column 1..3 */
    uint32_t target32;  /* limbo: target multiplier in hundredths, >= 101 */
    uint8_t rows;       /* plinko: 8..16 */
    uint8_t risk;       /* plinko, wheel: 0 low, 1 medium, 2 high; keno: 0 classic, 1 high */
    uint8_t segments;   /* wheel: 10, 20, 30, 40 or 50 */
    uint8_t side;       /* baccarat: 0 player, 1 banker, 2 tie */
    uint8_t cards;      /* blitz: 2..16 */
    uint8_t n_picks;    /* keno: 1..10 */
    uint8_t picks[ZBC_KENO_DRAWN]; /* keno: squares 1..40, strictly ascending */
    uint8_t client_seed_len;
    char client_seed[ZBC_CLIENT_SEED_MAX + 1];
};

struct zbc_bet_outcome {
    uint32_t u;       /* the first float as u32 (float = u / 2^32) */
    uint32_t value;   /* dice roll 0..10000, coin 0 heads / 1 tails,
                         roulette pocket 0..36, limbo result in hundredths,
                         plinko slot | path << 8 (bit i = direction i),
                         keno hits, wheel segment,
                         baccarat player total | banker total << 8 |
                           player drew << 16 | banker drew << 17,
                         blitz number of different cards */
    bool win;         /* the bet made a profit (returns > stake for the
                         catalogue games; returns > 0 for dice … limbo) */
    uint64_t returns; /* paid back, stake included (a plinko slot under 1x or a
                         baccarat push returns part or all of the stake on a
                         loss); 0 when nothing comes back */
    uint32_t multiplier; /* catalogue games: returns = floor(stake x multiplier
                            / 10000) (apps/fair_pay.h); 0 for dice … limbo */
    /* the event, for the catalogue games (apps/fair_events.h) */
    uint8_t path[ZBC_PLINKO_ROWS_MAX];
    uint8_t squares[ZBC_KENO_DRAWN];
    struct zbc_baccarat_hand hand;
    uint8_t cards[ZBC_BLITZ_CARDS_MAX];
};

/* True for the solo game type codes above. */
bool zbc_bet_is_solo(uint8_t app_type);

/* Parses and validates CreateApp params for a solo game: the game's fields,
 * then client_seed_len u8 || client_seed (printable ASCII, <= 64). */
ZBC_WUR int zbc_bet_parse(struct zbc_bet *bet, uint8_t app_type,
                          const uint8_t *params, size_t len,
                          struct zbc_err *err);
/* Writes the params bytes of a bet; returns the length (cap >= 80), 0 when
 * cap is too small. */
size_t zbc_bet_encode(const struct zbc_bet *bet, uint8_t *out, size_t cap);

/* One HMAC block of the float stream.  server_seed is the ASCII hex key. */
void zbc_fair_block(uint8_t out[32], const char *server_seed,
                    const char *client_seed, uint64_t nonce, uint32_t round);
/* Float i (0-based) of the stream as u32. */
uint32_t zbc_fair_u32(const char *server_seed, const char *client_seed,
                      uint64_t nonce, uint32_t index);
/* The server seed text of a 32-byte chain seed (65 bytes incl. NUL). */
void zbc_fair_server_seed(char out[65], const uint8_t seed[32]);

/* The outcome of `bet` with `stake` for the float u, for the games that use
 * the first float only (dice, coin, roulette, limbo, wheel; see
 * zbc_bet_first_float_only).  Fails when the return would overflow u64 or
 * the game needs more floats than u. */
ZBC_WUR int zbc_bet_outcome(const struct zbc_bet *bet, uint64_t stake,
                            uint32_t u, struct zbc_bet_outcome *out,
                            struct zbc_err *err);
/* True when the game's outcome depends on the first float alone. */
bool zbc_bet_first_float_only(enum zbc_bet_game game);
/* The outcome of `bet` from the float stream of (server_seed, the bet's
 * client seed, nonce): every game.  Fails only when the return would
 * overflow u64. */
ZBC_WUR int zbc_bet_resolve(const struct zbc_bet *bet, uint64_t stake,
                            const char *server_seed, uint64_t nonce,
                            struct zbc_bet_outcome *out, struct zbc_err *err);
/* The largest amount this bet can return (what the apps fund must be able
 * to cover: a bet is refused when this exceeds 1 % of the fund). */
ZBC_WUR int zbc_bet_max_return(const struct zbc_bet *bet, uint64_t stake,
                               uint64_t *out, struct zbc_err *err);

/* Red pockets of the European wheel. */
bool zbc_roulette_is_red(uint32_t pocket);

#endif
