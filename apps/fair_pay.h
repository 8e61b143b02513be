/* Payout tables of the provably-fair catalogue (docs/games.md, "Payout tables"): every
 * multiplier is in ten-thousandths of the stake (ZBC_FAIR_ONE = 1×) and is what a bet
 * returns, stake included; each table's exact RTP is 99 % (tests/apps/test_fair_pay.c). */
#ifndef ZBC_FAIR_PAY_H
#define ZBC_FAIR_PAY_H

#include <stdbool.h>
#include <stdint.h>

#define ZBC_FAIR_ONE 10000u

enum zbc_fair_risk { ZBC_RISK_LOW = 0, ZBC_RISK_MEDIUM = 1, ZBC_RISK_HIGH = 2 };
#define ZBC_PLINKO_RISKS 3
#define ZBC_WHEEL_RISKS 3
#define ZBC_KENO_RISKS 2 /* 0 classic, 1 high */
#define ZBC_KENO_PICKS_MAX 10

/* Plinko: rows 8..16, risk 0..2, slot 0..rows (0 when out of range). */
uint32_t zbc_plinko_multiplier(uint32_t rows, uint32_t risk, uint32_t slot);
/* Keno: risk 0..1, picks 1..10, hits 0..picks (0 when out of range). */
uint32_t zbc_keno_multiplier(uint32_t risk, uint32_t picks, uint32_t hits);
/* Wheel: segments 10, 20, 30, 40 or 50; risk 0..2; segment 0..segments−1. */
bool zbc_wheel_segments_ok(uint32_t segments);
uint32_t zbc_wheel_multiplier(uint32_t segments, uint32_t risk, uint32_t segment);
/* Baccarat: what a winning bet on side (0 player, 1 banker, 2 tie) returns; a player or
 * banker bet gets its stake back (ZBC_FAIR_ONE) on a tie. */
uint32_t zbc_baccarat_multiplier(uint32_t side);
/* Blitz with k cards (2..16): returns when all k differ. */
uint32_t zbc_blitz_multiplier(uint32_t k);
/* Mines: cash-out value after `reveals` safe tiles with `mines` mines on 25 tiles
 * (1 <= mines <= 24, 1 <= reveals <= 25 − mines; 0 outside). */
uint64_t zbc_mines_multiplier(uint32_t mines, uint32_t reveals);
/* Tower: cash-out value after climbing `rows` rows (1..9) of a difficulty (0..4); 0 outside. */
uint64_t zbc_tower_multiplier(uint32_t difficulty, uint32_t rows);
/* Hilo: what a guess that wins with `winning` of `of` equally likely cards multiplies
 * the running value by (1 <= winning <= of). */
uint64_t zbc_hilo_multiplier(uint32_t winning, uint32_t of);

/* Blackjack (docs/games.md, "Payout tables"): what a natural returns, stake included
 * (1.4294 to 1); a won hand returns 2x, a push 1x.  Its exact RTP under the rules there is
 * checked by tests/tools/fair_tables.py --check (rational arithmetic, optimal play). */
#define ZBC_BLACKJACK_NATURAL 24294u

#endif
