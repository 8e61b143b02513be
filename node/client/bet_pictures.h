/* The catalogue bets in words and pictures (docs/wallet.md "Bets"): the plinko path, the
 * keno board, the wheel segment, the baccarat hands and the blitz cards, drawn from an
 * outcome the wallet recomputed itself from the block seed (apps/fair.h zbc_bet_resolve,
 * over the event functions of apps/fair_events.h), never from the node's summary value.
 * Pure: no network, no clock.  Text functions write at most cap bytes (NUL included) and
 * return the length, or -1 when out is too small or the game has no picture (out "").
 *
 * Cards: suits as ♠ ♥ ♦ ♣ when utf8, else the letters S H D C ("10S", "AH"); the wallet
 * decides utf8 from the locale (zbc_term_utf8). */
#ifndef ZBC_WALLET_BET_PICTURES_H
#define ZBC_WALLET_BET_PICTURES_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "apps/fair.h"
#include "node/client/fail.h"


/* True when LC_ALL, else LC_CTYPE, else LANG names a UTF-8 codeset ("en_US.UTF-8",
 * "C.utf8"); unset or "C" / "POSIX": false. */
bool zbc_term_utf8(void);

/* True for plinko, keno, wheel, baccarat and blitz (types 23-27). */
bool zbc_bet_is_catalogue(enum zbc_bet_game game);

/* A multiplier in ten-thousandths as "0.5982x", "1.20x", "1000.00x" (at least two
 * decimals, trailing zeros past them dropped). */
void zbc_multiplier_text(char out[24], uint32_t m);

/* A card: "K♠" / "KS"; suits in the game's order (apps/fair_events.h). */
void zbc_card_text(char out[12], uint8_t card, enum zbc_card_suits suits, bool utf8);

/* The bet of an app view (its "type" and "params_hex"); 0 with err when they do not
 * parse as a solo bet. */
ZBC_WUR int zbc_bet_of_app(const json_t *app, struct zbc_bet *bet, struct zbc_err *err);

/* The outcome of an app's bet recomputed from seed(created + 1): server seed = its hex,
 * nonce = the app's "id", stake = its "stake" (docs/games.md "Solo bets"). */
ZBC_WUR int zbc_bet_recompute(const json_t *app, const uint8_t seed[32], struct zbc_bet *bet,
                              struct zbc_bet_outcome *out, struct zbc_err *err);

/* The event in one line: "path R L R R L L R L, slot 4 (0-8): 0.5982x", "hits 12 33
 * (2 of 5 picks): 1.608x", "segment 7 of 10: 1.20x", "player K♠ 7♥ 3♦ = 0, banker 5♣
 * Q♥ = 5: banker wins (bet on player): 0.00x", "A♠ 3♥ 3♣ 9♦: 3 different of 4: 0.00x".
 * Catalogue games only. */
int zbc_bet_event_words(const struct zbc_bet *bet, const struct zbc_bet_outcome *o, bool utf8,
                        char *out, size_t cap);

/* The picture, several lines each ending in "\n": the ball falling through the plinko
 * rows and the slot it lands in; the keno board of 40 squares ([n] hit, (n) picked and
 * not drawn, *n* drawn and not picked) with the draw in order; the wheel around the
 * segment; the baccarat hands with totals and the winner; the blitz cards with the
 * repeats.  Catalogue games only. */
int zbc_bet_picture(const struct zbc_bet *bet, const struct zbc_bet_outcome *o, bool utf8,
                    char *out, size_t cap);

/* The event as data: plinko {"path": [0|1...], "slot", "rows", "risk"}, keno {"picks",
 * "squares" (draw order), "hits" (the hit squares), "risk"}, wheel {"segment",
 * "segments", "risk"}, baccarat {"player", "banker" (card indexes), "player_cards",
 * "banker_cards" (names with UTF-8 suits), "player_total", "banker_total", "winner",
 * "side"}, blitz {"cards", "names", "all_differ"}; every one with "multiplier"
 * (ten-thousandths) and "multiplier_text".  NULL for other games. */
json_t *zbc_bet_event_json(const struct zbc_bet *bet, const struct zbc_bet_outcome *o);

/* Every step of the event from its floats, one line each to emit (ctx passed through):
 * "row 3: float 2 u = 2718281828, floor(f x 2) = 1: right", "draw 1: float 0 u = …, v =
 * ceil(f x 40) = 17: square 17 (hit)", "float 0 u = … : card floor(f x 52) = 44 = K♠,
 * player 1", the third-card decisions, then "multiplier 1.20x: returns floor(stake x
 * 12000 / 10000) = …".  The floats are recomputed here from (server_seed, the bet's
 * client seed, nonce); the cards, squares and path printed are o's.  Catalogue games
 * only (nothing for the others). */
void zbc_bet_steps(const struct zbc_bet *b, const struct zbc_bet_outcome *o, uint64_t stake,
                   const char *server_seed, uint64_t nonce, bool utf8,
                   void (*emit)(void *ctx, const char *line), void *ctx);

/* The node's summary value of a catalogue bet's bet_settle (docs/games.md, "What
 * bet_settle carries") in words, by the game's name: "slot 4", "3 hits", "segment 7",
 * "player 7, banker 5", "4 different cards"; -1 (out "") for any other game. */
int zbc_bet_value_words(const char *game, uint32_t value, char *out, size_t cap);

#endif
