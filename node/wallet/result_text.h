/* The words a player reads about an app (docs/wallet.md "Playing"): the
 * result sentence, dice faces, a solo bet's outcome and the clock in blocks
 * and time.  Pure: JSON of GET /api/v1/apps/<id> (docs/api.md §10) in,
 * text out; no network, no clock.  Every function writes at most cap bytes
 * (NUL included) and returns the length, or -1 when out is too small or
 * there is nothing to say (then out is ""). */
#ifndef ZBC_WALLET_RESULT_TEXT_H
#define ZBC_WALLET_RESULT_TEXT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The result of an ended app in one line, e.g. "seat 1 (ZBC_…) won 1.98
 * ZBC: seat 0 resigned", "draw: stakes returned", "seats 1 and 2 share
 * 2.97 ZBC: seat 0 timed out (rake 0.03 ZBC)", "expired: not every seat was filled in time,
 * stakes refunded", a bet's "rolled 2.71 (under 49.50): win, paid 2 ZBC".
 * Reads the result's "outcome", "winners", "resigned", "timed_out", "out",
 * "paid" and "rake" (docs/api.md §10).  A node without "outcome" (before
 * app record version 2) is read by its documented old meaning: "winner" of
 * a resign or timeout is the seat that resigned or timed out, never the
 * winner.  -1 while "result" is null. */
int zbc_result_text(const json_t *app, char *out, size_t cap);

/* An app_end history or stream entry: "resign: seat 0 resigned, seat 1
 * won" from its "outcome", "winner", "resigned", "timed_out" (app record
 * version 2); from an older node only its reason ("resign"), never its bare
 * seat, which was the seat that resigned or timed out. */
int zbc_end_event_text(const json_t *entry, char *out, size_t cap);

/* The seat that won the whole pot by the result, or -1 (draw, split, no
 * result, a bet, a node that does not say).  PGN's Result tag. */
int zbc_result_winner(const json_t *app);

/* The d6 faces of one history entry's roll bytes: "rolled 4", "rolled 4
 * and 2", "rolled 6, 6 and 3" (every used byte below 252 is a die, face
 * b % 6 + 1: docs/games.md "The roll stream").  For games whose draws are
 * not dice (lines' colours and cells) d6 is false: "drew N random bytes".
 * -1 when the entry has no rolls. */
int zbc_roll_text(const json_t *entry, bool d6, char *out, size_t cap);
/* Whether an app's rolls are dice for zbc_roll_text: a dice engine whose
 * start position is not drawn (every one but lines, whose draws are colours
 * and cells). */
bool zbc_app_rolls_d6(const json_t *app);

/* A settled solo bet (the app view with its "bet_settle" history entry,
 * params read from "params_hex"): "rolled 2.71 (under 49.50): win, paid 2
 * ZBC", "flipped tails (heads): loss", "pocket 17 black (red): loss",
 * "result 1.93x (target 2x): loss"; the catalogue bets from the node's summary
 * value with the table's multiplier: "path LRRLRRLL, slot 4 (0-8): 0.5982x: no
 * profit, returned 0.59 ZBC", "3 hits of 5 picks: 7.9995x: win, paid 7.99 ZBC",
 * "segment 7 of 10: 1.20x: …", "player 7, banker 5: player wins (bet on player): …",
 * "4 different cards of 4: …" (the cards and squares themselves need the seed:
 * bet_pictures.h).  -1 while not settled. */
int zbc_bet_text(const json_t *app, char *out, size_t cap);

/* The clock: "deadline block 264 (in 16 blocks, ≈ 16 s)", "deadline
 * block 264 (passed 3 blocks ago: timeout claimable)".  block_time_ms 0:
 * blocks only. */
int zbc_clock_text(uint64_t deadline, uint64_t tip, uint64_t block_time_ms, char *out,
                   size_t cap);

/* A duration as a person reads it: "16 s", "4 min", "1 h 20 min", "2 d 3 h". */
void zbc_duration_text(uint64_t ms, char out[32]);

#endif
