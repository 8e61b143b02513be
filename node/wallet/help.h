/* zbc's help (docs/wallet.md "Help"): `zbc help [COMMAND [SUB]]`,
 * `zbc COMMAND [SUB] --help`, `zbc --version`, and the "did you mean"
 * suggestions of unknown commands, sub-commands and games. */
#ifndef ZBC_WALLET_HELP_H
#define ZBC_WALLET_HELP_H

#include <stddef.h>
#include <stdio.h>

#include "node/client/fail.h"

/* Edit distance: insert, delete, substitute and swap two neighbours cost
 * 1 each (optimal string alignment: "lsit" is 1 from "list"); words
 * longer than 64 bytes are compared on their first 64. */
size_t zbc_edit_distance(const char *a, const char *b);

/* The word of words[0..n) closest to w when it is close enough to be a
 * typo (distance <= 1 for words up to 4 letters, else <= 2, or w a prefix
 * of exactly one word), else NULL. */
const char *zbc_suggest(const char *w, const char *const *words, size_t n);

/* " (did you mean X?)" or "" (out: cap bytes). */
void zbc_suggest_text(char *out, size_t cap, const char *w,
                      const char *const *words, size_t n);

/* Prints the help of the topic (topic[0..n): e.g. {"app", "create"}; n 0:
 * the summary) on fp.  Returns 1, or 0 with f a usage error naming the
 * unknown topic word with a suggestion. */
ZBC_WUR int zbc_help_print(FILE *fp, int n, const char *const *topic,
                           struct zbc_wfail *f);

/* `zbc app create --help`: every game of the engine registry with its
 * seats, params words and a notation example, then the solo bets.
 * Returns a malloc'ed text (NULL when out of memory). */
char *zbc_help_games(void);

/* `zbc bet --help` (game NULL): every solo bet with its words, maximum multiplier and an
 * example; `zbc bet GAME --help`: that game's words, what they mean, its maximum
 * multiplier and an example (NULL also for an unknown game's list).  malloc'ed text, NULL
 * when out of memory. */
char *zbc_help_bets(const char *game);

/* The notation example of a game name (the wallet's table in help.c; a
 * unit test checks every registered engine has one), or NULL. */
const char *zbc_help_game_example(const char *game);

/* "zbc 0.1.0 (wallet of the ZooBC-compatible game chain)". */
const char *zbc_version_text(void);

/* Usage error for an unknown word among known ones:
 * "unknown <what> 'w' (did you mean x?); <what>s: a, b, c". */
int zbc_fail_unknown(struct zbc_wfail *f, const char *what, const char *w,
                     const char *const *words, size_t n);

#endif
