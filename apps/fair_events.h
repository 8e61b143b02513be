/* The provably-fair catalogue's event functions (docs/games.md, "Provably-fair catalogue:
 * event functions"), in exact integers.  Pure.
 *
 * Float k of a stream is bytes 4(k mod 8) .. 4(k mod 8)+3 of
 * HMAC_SHA256(key = server_seed, msg = client_seed ":" nonce ":" floor(k / 8)) read
 * big-endian as u_k (f_k = u_k / 2^32); floor(f × n) = (u × n) >> 32 and
 * ceil(f × n) = (u × n + 2^32 − 1) >> 32. */
#ifndef ZBC_FAIR_EVENTS_H
#define ZBC_FAIR_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"

#define ZBC_PLINKO_ROWS_MIN 8
#define ZBC_PLINKO_ROWS_MAX 16
#define ZBC_KENO_SQUARES 40
#define ZBC_KENO_DRAWN 10
#define ZBC_MINES_TILES 25
#define ZBC_TOWER_ROWS 9
#define ZBC_TOWER_COLUMNS_MAX 4
#define ZBC_BLITZ_CARDS_MIN 2
#define ZBC_BLITZ_CARDS_MAX 16
#define ZBC_FAIR_CARDS_MAX 64 /* longest card sequence zbc_fair_cards writes */

/* A float stream: one HMAC block is computed per 8 floats and kept. */
struct zbc_fair_stream {
    const char *server_seed;
    const char *client_seed;
    uint64_t nonce;
    uint32_t round; /* the round held in block, when have */
    bool have;
    uint8_t block[32];
};

void zbc_fair_stream_init(struct zbc_fair_stream *s, const char *server_seed,
                          const char *client_seed, uint64_t nonce);
/* u_k, the float k of the stream as u32. */
uint32_t zbc_fair_stream_u32(struct zbc_fair_stream *s, uint32_t k);
/* floor(f × n) and ceil(f × n) for f = u / 2^32. */
uint32_t zbc_fair_floor(uint32_t u, uint32_t n);
uint32_t zbc_fair_ceil(uint32_t u, uint32_t n);

/* Plinko with `rows` rows (8..16): path[i] = floor(f_i × 2) (1 = right), slot = Σ path. */
ZBC_WUR int zbc_fair_plinko(struct zbc_fair_stream *s, uint32_t rows,
                            uint8_t path[ZBC_PLINKO_ROWS_MAX], uint32_t *slot,
                            struct zbc_err *err);
/* Keno: the 10 drawn squares in draw order (1..40; a float of exactly 0 gives 0). */
void zbc_fair_keno(struct zbc_fair_stream *s, uint8_t squares[ZBC_KENO_DRAWN]);
/* Mines: `mines` positions (0..tiles−1) in draw order; 1 <= mines <= tiles <= 25. */
ZBC_WUR int zbc_fair_mines(struct zbc_fair_stream *s, uint32_t tiles, uint32_t mines,
                           uint8_t out[ZBC_MINES_TILES], struct zbc_err *err);

enum zbc_tower_difficulty {
    ZBC_TOWER_EASY = 0,   /* 4 columns, 3 safe */
    ZBC_TOWER_MEDIUM = 1, /* 3 columns, 2 safe */
    ZBC_TOWER_HARD = 2,   /* 2 columns, 1 safe */
    ZBC_TOWER_EXPERT = 3, /* 3 columns, 1 safe */
    ZBC_TOWER_MASTER = 4, /* 4 columns, 1 safe */
};
#define ZBC_TOWER_DIFFICULTIES 5
/* Name ("easy" …) and shape of a difficulty; false when unknown. */
bool zbc_tower_shape(uint32_t difficulty, uint32_t *columns, uint32_t *safe,
                     const char **name);
/* Tower: for each of the 9 rows its safe columns in take-out order (safe[r][0..S−1]). */
ZBC_WUR int zbc_fair_tower(struct zbc_fair_stream *s, uint32_t difficulty,
                           uint8_t safe[ZBC_TOWER_ROWS][ZBC_TOWER_COLUMNS_MAX],
                           struct zbc_err *err);
/* Wheel: floor(f_0 × segments); segments >= 1. */
uint32_t zbc_fair_wheel(struct zbc_fair_stream *s, uint32_t segments);
/* Cards k = first .. first+count−1: floor(f_k × 52) (index = rank × 4 + suit, ranks 2..A). */
void zbc_fair_cards(struct zbc_fair_stream *s, uint32_t first, uint32_t count,
                    uint8_t *out);

enum zbc_card_suits {
    ZBC_SUITS_BLACKJACK = 0, /* blackjack and hilo: ♦ ♥ ♠ ♣ */
    ZBC_SUITS_BACCARAT = 1,  /* ♠ ♥ ♦ ♣ */
    ZBC_SUITS_BLITZ = 2,     /* ♠ ♥ ♣ ♦ */
};
/* "10♦", "A♠" …: the card's rank and its suit's UTF-8 symbol (cap >= 8). */
void zbc_fair_card_name(char *out, size_t cap, uint8_t card, enum zbc_card_suits suits);

struct zbc_baccarat_hand {
    uint8_t player[3], banker[3]; /* card indexes in deal order */
    uint8_t n_player, n_banker;   /* 2 or 3 */
    uint8_t player_total, banker_total;
};
enum zbc_baccarat_side { ZBC_BACCARAT_PLAYER = 0, ZBC_BACCARAT_BANKER = 1, ZBC_BACCARAT_TIE = 2 };
/* Baccarat value of a card: A 1, 2–9 face value, 10 J Q K 0. */
uint32_t zbc_baccarat_value(uint8_t card);
/* The coup: standard third-card rules; banker's third card is float 4 when the player
 * stood, float 5 when the player drew. */
void zbc_fair_baccarat(struct zbc_fair_stream *s, struct zbc_baccarat_hand *h);
/* Which side won (player, banker or tie). */
enum zbc_baccarat_side zbc_baccarat_winner(const struct zbc_baccarat_hand *h);

/* Blitz: cards i < k (2..16) and whether all differ. */
ZBC_WUR int zbc_fair_blitz(struct zbc_fair_stream *s, uint32_t k,
                           uint8_t cards[ZBC_BLITZ_CARDS_MAX], bool *all_differ,
                           struct zbc_err *err);
/* Crash point in hundredths: floor(99 × 2^32 / (u_0 + 256)). */
uint32_t zbc_fair_crash(struct zbc_fair_stream *s);

#endif
