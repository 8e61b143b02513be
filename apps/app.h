/* The app record and the pure rules of the app lifecycle (docs/protocol-apps.md).
 *
 * An app is one game (or one solo bet) on chain.  Its whole state is one
 * struct zbc_app, stored in the APPS table as the bytes of
 * zbc_app_encode.  This module knows nothing of the ledger: it decides
 * and computes (stateless validity of a CreateApp, the first-seat draw,
 * rake and splits, engine start / check / play on the stored engine
 * bytes); consensus/apps_apply.c moves the money and writes the tables.
 *
 * Seats are the currently seated accounts in joining order (creator = 0).
 * While an app is Open a seat that resigns leaves and the later seats
 * move down one place; once Active the seats never change.
 *
 * Return convention: 1 = success, 0 = failure with err filled. */
#ifndef ZBC_APP_H
#define ZBC_APP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "apps/engine.h"
#include "apps/fair.h"
#include "crypto/address.h"
#include "crypto/err.h"

#define ZBC_APP_VERSION 2
#define ZBC_APP_PARAMS_MAX 8192 /* longest CreateApp params (stateless rule) */
#define ZBC_APP_NO_CLOCK 0xff   /* clock byte when nobody holds the clock */
#define ZBC_APP_NO_SEAT 0xff    /* winner / loser byte when no seat is meant */

enum zbc_app_status {
    ZBC_APP_OPEN = 0,      /* waiting for seats */
    ZBC_APP_ACTIVE = 1,    /* every seat taken (first turn pending or play) */
    ZBC_APP_FINISHED = 2,  /* ended and paid out */
    ZBC_APP_ABANDONED = 3, /* every seat left while Open, or it expired */
};

/* How an app ended, its outcome (stored; ZBC_END_NONE while Open or
 * Active).  winner is the one seat that took the pot (never the loser),
 * loser the seat that resigned or timed out (docs/protocol-apps.md §3). */
enum zbc_app_end {
    ZBC_END_NONE = 0,
    ZBC_END_WIN = 1,       /* a move won: winner = the seat */
    ZBC_END_DRAW = 2,      /* a move ended the game drawn */
    ZBC_END_RESIGN = 3,    /* loser = the seat that resigned */
    ZBC_END_TIMEOUT = 4,   /* loser = the seat that held the clock */
    ZBC_END_BET = 5,       /* a solo bet was settled */
    ZBC_END_ABANDONED = 6, /* every seat left an Open app */
    ZBC_END_EXPIRED = 7,   /* an Open app reached its open deadline */
    ZBC_END_CASHOUT = 8,   /* a multi-step solo game paid its value > 0
                              (cash-out, the top step, or the clock):
                              winner = 0 when it returned more than the
                              stake */
    ZBC_END_BUST = 9,      /* a multi-step solo game ended returning 0 */
};

struct zbc_app {
    uint64_t id;               /* = id of the CreateApp transaction */
    uint8_t type;              /* type code (docs/protocol-apps.md) */
    uint8_t status;            /* enum zbc_app_status */
    uint8_t seats;             /* seats the game needs (1 = solo bet) */
    uint8_t n_seated;          /* seats taken now */
    bool first_pending;        /* Active, first seat not drawn yet */
    uint8_t clock;             /* seat holding the clock or ZBC_APP_NO_CLOCK */
    uint64_t stake;            /* per seat */
    uint64_t pot;              /* money held by the app (stakes + escrow) */
    uint64_t escrow;           /* solo bet: part of pot taken from the fund */
    uint32_t created;          /* height of the CreateApp */
    uint32_t joined;           /* J: height of the last join (0 before) */
    uint64_t deadline;         /* last height to move; 0 = no deadline yet */
    uint32_t moves;            /* accepted moves (keep-alives excluded) */
    uint32_t history_n;        /* history entries written (next sequence) */
    uint8_t end;               /* enum zbc_app_end */
    uint8_t winner;            /* the one seat paid the pot, or 0xff */
    uint8_t loser;             /* resigned / timed out seat, or 0xff */
    uint32_t ended;            /* height of the ending, 0 before */
    uint64_t rake;             /* rake taken at the ending */
    uint64_t paid[ZBC_SEATS_MAX]; /* paid to each seat at the ending */
    bool has_opponent;
    struct zbc_addr opponent;  /* designated opponent (type 0) */
    struct zbc_addr seat[ZBC_SEATS_MAX];
    uint16_t params_len;
    uint8_t params[ZBC_APP_PARAMS_MAX];
    uint16_t state_len;        /* encoded engine state; 0 before the start */
    uint8_t state[ZBC_GAME_STATE_MAX];
    bool has_pending;          /* a dice move waits for the next block */
    uint8_t pending_seat;
    uint8_t pending_hash[32];  /* the move's transaction hash (roll tag) */
    uint16_t pending_len;
    uint8_t pending_move[ZBC_MOVE_WIRE_MAX];
};

/* ---- record bytes (docs/protocol-apps.md "App record") ---- */

/* Upper bound of an encoded record. */
#define ZBC_APP_RECORD_MAX                                                  \
    (64 + 9 + 8 * ZBC_SEATS_MAX + ZBC_ADDR_BYTES_MAX * (ZBC_SEATS_MAX + 1) + 2 +                    \
     ZBC_APP_PARAMS_MAX + 2 + ZBC_GAME_STATE_MAX + 35 + ZBC_MOVE_WIRE_MAX)

/* Writes the record; returns the length (0 when cap is too small). */
size_t zbc_app_encode(const struct zbc_app *a, uint8_t *out, size_t cap);
/* Decodes and validates a record (exact length, known status, seat count,
 * addresses, lengths).  On failure *a is unspecified. */
ZBC_WUR int zbc_app_decode(struct zbc_app *a, const uint8_t *in, size_t len,
                           struct zbc_err *err);

/* ---- stateless validity of a CreateApp (a block with a failing one is
 * invalid) ---- */

/* Known type (an engine in the registry or a solo game), stake_token 0,
 * seats allowed for the game (solo: exactly 1; engines: min..max),
 * params accepted (engine check_params / zbc_bet_parse, at most
 * ZBC_APP_PARAMS_MAX bytes), an opponent only with seats == 2.  (The
 * opponent's type 0 is checked by the body parser.) */
ZBC_WUR int zbc_app_check_create(uint8_t type, uint64_t stake_token,
                                 uint8_t seats, const uint8_t *params,
                                 size_t params_len, bool has_opponent,
                                 struct zbc_err *err);

/* ---- pure rules ---- */

/* first = LE64(H("ZBC-TURN" || seed || app_id LE8)[0..8]) mod seats. */
uint8_t zbc_app_first_seat(const uint8_t seed[32], uint64_t app_id,
                           uint8_t seats);

/* rake = floor(pot * rake_bps / 10000) (exact, rake_bps <= 10000). */
uint64_t zbc_app_rake(uint64_t pot, uint32_t rake_bps);

/* Splits amount among k >= 1 recipients: each gets *each, the first one
 * also gets *extra (the remainder, < k). */
void zbc_app_split(uint64_t amount, unsigned k, uint64_t *each,
                   uint64_t *extra);

/* Seats out of play (engine result out_mask: bankrupt, board full) on
 * the stored state; 0 before the start (docs/protocol-apps.md §3). */
ZBC_WUR int zbc_app_out_mask(const struct zbc_app *a, uint8_t *mask,
                             struct zbc_err *err);

/* Who receives a resign / timeout split (docs/protocol-apps.md §3): every
 * seat except `loser` and the seats in `out`; when that leaves nobody,
 * every seat except `loser`.  Returns the bit mask of receiving seats. */
uint8_t zbc_app_split_seats(uint8_t n_seated, uint8_t loser, uint8_t out);

/* Seat of addr in the app, or -1. */
int zbc_app_seat_of(const struct zbc_app *a, const struct zbc_addr *addr);

/* Engine of a multiplayer app (NULL for solo bets and unknown types). */
const struct zbc_engine *zbc_app_engine(const struct zbc_app *a);

/* Builds the start position with `first` moving first; `rolls` only for
 * engines with start_rolls.  Stores the encoded state in a.  The clock is
 * left to the caller (zbc_app_turn). */
ZBC_WUR int zbc_app_start(struct zbc_app *a, uint8_t first,
                          struct zbc_roll *rolls, struct zbc_err *err);

/* Seat to move per the engine (ZBC_NOBODY when over); 0 when the stored
 * state does not decode. */
ZBC_WUR int zbc_app_turn(const struct zbc_app *a, int *seat,
                         struct zbc_err *err);

/* Engine legality of `move` by `seat` on the stored state. */
ZBC_WUR int zbc_app_check_move(const struct zbc_app *a, uint8_t seat,
                               const uint8_t *move, size_t len,
                               struct zbc_err *err);

/* Applies `move` by `seat` (rolls: dice engines only) and stores the new
 * state; *res receives the engine result and *next the seat to move
 * (ZBC_NOBODY when over).  On failure a is unchanged. */
ZBC_WUR int zbc_app_play(struct zbc_app *a, uint8_t seat, const uint8_t *move,
                         size_t len, struct zbc_roll *rolls,
                         struct zbc_result *res, int *next,
                         struct zbc_err *err);

/* Text names ("open", "active", "finished", "abandoned"; "none", "win",
 * "draw", "resign", "timeout", "bet", "abandoned", "expired", "cashout",
 * "bust") for events,
 * docs and the API. */
const char *zbc_app_status_name(enum zbc_app_status s);
const char *zbc_app_end_name(enum zbc_app_end e);

#endif
