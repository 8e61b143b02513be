/* The game-engine interface (docs/games.md, "What every engine provides").
 *
 * Every game is one file in apps/games/ exporting one `const struct
 * zbc_engine zbc_engine_<name>` and one entry in apps/registry.c (the
 * recipe: docs/architecture.md, "Adding a game").  All game knowledge sits
 * behind this interface: tools and the wallet never compare game names.  An
 * engine is pure: no allocation, I/O, clock, randomness of its own or
 * global mutable state.  All state lives in a caller-provided, fixed-size,
 * suitably aligned buffer (struct zbc_game_state) that the engine casts to
 * its own struct (checked with _Static_assert against ZBC_GAME_STATE_MAX).
 *
 * Seats are numbered 0..seats-1 in joining order (creator = 0).  The app
 * lifecycle (apps/app.c) draws which seat moves first and passes it to
 * init(); engines that fix their own opening (battleship: the joiner
 * commits first) set `draws_first = false` and ignore it.
 *
 * Moves are compact bytes (docs/games.md, each game's "Move bytes").  An
 * empty move is the lifecycle's keep-alive and never reaches an engine.
 * Every function that reads untrusted bytes (params, moves, encoded state)
 * validates them fully and reports the reason in err; none may crash on
 * any input.
 *
 * Return convention: 1 = success / legal, 0 = failure with err filled. */
#ifndef ZBC_ENGINE_H
#define ZBC_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "apps/roll.h"
#include "crypto/err.h"

#define ZBC_GAME_STATE_MAX 16384 /* in-memory state and encoded bytes */
#define ZBC_MOVE_MAX 64          /* a generated move; wire moves may be longer */
#define ZBC_MOVE_WIRE_MAX 4096   /* the longest move any engine accepts (battleship commit: 3201) */
#define ZBC_MOVES_MAX 2048       /* most moves gen_moves can return (lines: b*(81-b)) */
#define ZBC_SEATS_MAX 4
#define ZBC_NOBODY (-1)
#define ZBC_NAMED_PARAMS_MAX 16  /* params bytes named words can build */

struct zbc_game_state {
    _Alignas(16) unsigned char b[ZBC_GAME_STATE_MAX];
};

struct zbc_move {
    uint8_t len;
    uint8_t b[ZBC_MOVE_MAX];
};

enum zbc_result_kind {
    ZBC_RESULT_ONGOING = 0,
    ZBC_RESULT_WIN = 1,
    ZBC_RESULT_DRAW = 2,
};

struct zbc_result {
    enum zbc_result_kind kind;
    uint8_t winner;   /* valid when kind == ZBC_RESULT_WIN */
    uint8_t out_mask; /* bit s set: seat s is out (bankrupt, board full, ...) */
};

/* Multi-step solo games against the apps fund (mines, ...;
 * docs/protocol-apps.md §13).  Amounts are multipliers in ten-thousandths
 * of the stake (ZBC_FAIR_ONE of apps/fair_pay.h); a game returns
 * floor(stake x value / 10000).  Such an engine has min_seats = max_seats
 * = 1, `dice` set, and draws from zbc_roll_fair of the stream it is given
 * (on chain: the float stream of the seed of the block resolving the
 * step, the client seed of the params and nonce = the app id). */
struct zbc_solo_ops {
    /* The most a game with these (checked) params can return: escrowed
     * from the apps fund at creation. */
    uint64_t (*max_multiplier)(const uint8_t *params, size_t len);
    /* What the game returns now: the cash-out value while it goes on (what
     * the clock settles at), the final value once it is over. */
    uint64_t (*value)(const struct zbc_game_state *st);
    /* Whether a (legal) move is resolved by the next block's seed (a
     * pending move) or applied in its own block (a cash-out). */
    bool (*move_draws)(const uint8_t *move, size_t len);
    /* The client seed of the (checked) params, NUL-terminated. */
    void (*client_seed)(const uint8_t *params, size_t len,
                        char out[ZBC_ROLL_CLIENT_MAX + 1]);
    /* Optional: stakes a (legal) move adds to the pot, paid by the player
     * when the move is included (blackjack's double and split); NULL for
     * none. */
    uint32_t (*move_stake)(const uint8_t *move, size_t len);
    /* Optional: the one-byte move the clock plays until the game is over
     * (blackjack: stand), drawing from the settling block's stream; 0 for
     * none (the clock pays the value as it is). */
    uint8_t clock_move;
};

struct zbc_engine {
    uint8_t type;        /* type code (docs/protocol-apps.md) */
    const char *name;    /* "chess", "tictactoe", ... (CLI and JSON name) */
    uint8_t min_seats, max_seats;
    bool dice;           /* moves are pending until the next block's seed */
    bool draws_first;    /* lifecycle draws the first seat at J+2 */
    bool start_rolls;    /* init() consumes a roll stream (lines) */
    bool secret_moves;   /* some legal moves carry commitments or reveals
                            that gen_moves cannot list (battleship, rps) */
    bool secret_params;  /* CreateApp params commit to a secret the creator
                            keeps (battleship's board): the wallet builds
                            them with the game's own helpers */
    size_t state_size;   /* the bytes of struct zbc_game_state the engine
                            uses (sizeof its own struct, at most
                            ZBC_GAME_STATE_MAX): it reads and writes no
                            other (the fuzz targets check it) */

    /* Checks CreateApp params for `seats` seats without building a state. */
    int (*check_params)(uint8_t seats, const uint8_t *params, size_t len,
                        struct zbc_err *err);

    /* Builds the start position.  `first` is the seat that moves first;
     * `rolls` is non-NULL only for engines with start_rolls. */
    int (*init)(struct zbc_game_state *st, uint8_t seats,
                const uint8_t *params, size_t len, uint8_t first,
                struct zbc_roll *rolls, struct zbc_err *err);

    /* Seat that must act next, or ZBC_NOBODY when the game is over. */
    int (*turn)(const struct zbc_game_state *st);

    void (*result)(const struct zbc_game_state *st, struct zbc_result *out);

    /* Whether `seat` may play `move` now.  For dice games this is checked
     * both when the move is included and again when it is applied. */
    int (*check_move)(const struct zbc_game_state *st, uint8_t seat,
                      const uint8_t *move, size_t len, struct zbc_err *err);

    /* Applies a move (checking it first).  Dice games draw from `rolls`
     * (non-NULL for them); on failure the state is unchanged. */
    int (*apply_move)(struct zbc_game_state *st, uint8_t seat,
                      const uint8_t *move, size_t len, struct zbc_roll *rolls,
                      struct zbc_err *err);

    /* Every legal move of the seat to move that can be written without
     * private data (commit/reveal games list none while a secret is
     * needed).  Returns the count (<= cap). */
    size_t (*gen_moves)(const struct zbc_game_state *st, struct zbc_move *out,
                        size_t cap);

    /* Canonical bytes: equal states <=> equal bytes.  Returns the length,
     * 0 if cap is too small. decode() validates everything it reads. */
    size_t (*encode)(const struct zbc_game_state *st, uint8_t *out, size_t cap);
    int (*decode)(struct zbc_game_state *st, const uint8_t *in, size_t len,
                  struct zbc_err *err);

    /* JSON object text for clients / text board for terminals.  Return the
     * length written (NUL-terminated), or -1 if cap is too small. */
    int (*to_json)(const struct zbc_game_state *st, char *out, size_t cap);
    int (*render)(const struct zbc_game_state *st, char *out, size_t cap);

    /* Human notation (docs/games.md, each game's "Notation": e2e4,
     * 11x18x25, d3, fire B7, roll...).
     * parse: text -> move bytes for `seat` (st may be NULL where the game
     * needs no context); 1, or 0 with err filled.  format: move bytes ->
     * NUL-terminated text; 1, or 0 when the bytes are no move of this
     * game or cap is too small. */
    int (*parse_move)(const struct zbc_game_state *st, uint8_t seat,
                      const char *text, uint8_t *move, size_t cap,
                      size_t *len, struct zbc_err *err);
    int (*format_move)(const struct zbc_game_state *st, const uint8_t *move,
                       size_t len, char *out, size_t cap);

    /* Optional hooks (NULL when the game has none). */

    /* Named CreateApp params (docs/games.md, the game's "Params"): one
     * "key=value" word into params bytes.  Called with *len == 0 and out
     * zeroed (ZBC_NAMED_PARAMS_MAX bytes) for the first word; sets *len.
     * 1, or 0 with err naming the word.  Checking the values is
     * check_params' job. */
    int (*params_word)(const char *key, const char *value, uint8_t *out,
                       size_t *len, struct zbc_err *err);
    /* The inverse: params bytes as words ("rounds=3"); 0 when the bytes
     * have no named form or cap is too small. */
    int (*params_text)(const uint8_t *params, size_t len, char *out,
                       size_t cap);
    /* A position in the game's text notation (chess: FEN), for tools. */
    int (*from_text)(struct zbc_game_state *st, const char *text,
                     struct zbc_err *err);
    /* Whether the last move made the next seat pass automatically (reversi);
     * perft counts such a pass as one ply (docs/zbc-engine.md). */
    bool (*opponent_passed)(const struct zbc_game_state *st);
    /* How good st is for `seat`, for the search at its depth limit
     * (apps/search.h; docs/games.md, "Machine opponents"): positive is
     * good, about 100 per pawn or disc; a finished game is scored by
     * result(), never by eval.  NULL: the search uses results only. */
    int32_t (*eval)(const struct zbc_game_state *st, uint8_t seat);
    /* A multi-step solo game against the apps fund (NULL for the others). */
    const struct zbc_solo_ops *solo;
};

/* ---- steps every engine shares (apps/engine.c) ---- */

/* The entry checks of check_move / apply_move, in this order: the game is
 * over (turn == ZBC_NOBODY), `seat` is not `turn` ("not your turn: seat N
 * is to move", the one wording), an empty move ("empty <name> move").
 * Consensus refuses a move by a seat without the clock and treats an empty
 * move as the keep-alive before calling an engine, and a pending dice move
 * is checked again on the state it was accepted on, so these sentences
 * never reach app history (docs/games.md, "Entry step"). */
ZBC_WUR int zbc_engine_move_entry(const struct zbc_engine *e, int turn,
                                  uint8_t seat, size_t len,
                                  struct zbc_err *err);

/* The seat count, checked first by every check_params and by
 * zbc_app_check_create ("<name> takes MIN to MAX seats, not N").  A stored
 * app's seat count passed zbc_app_check_create, so an engine's refusal of
 * it cannot reach app history. */
ZBC_WUR int zbc_engine_check_seats(const struct zbc_engine *e, uint8_t seats,
                                   struct zbc_err *err);

/* CreateApp params from text: NULL or "" -> no bytes; text without '=' ->
 * hex bytes; else words "key=value" separated by commas or blanks, each
 * given to e->params_word (a game without it takes hex only). */
ZBC_WUR int zbc_engine_params_from_text(const struct zbc_engine *e,
                                        const char *text, uint8_t *out,
                                        size_t cap, size_t *len,
                                        struct zbc_err *err);

/* Params bytes as text: "" when empty, the game's words when it has them,
 * else lower-case hex.  1, or 0 when cap is too small. */
int zbc_engine_params_to_text(const struct zbc_engine *e,
                              const uint8_t *params, size_t len, char *out,
                              size_t cap);

/* params_word / params_text of games whose params are one optional byte
 * "rounds" (rps, lines). */
int zbc_engine_rounds_word(const char *key, const char *value, uint8_t *out,
                           size_t *len, struct zbc_err *err);
int zbc_engine_rounds_text(const uint8_t *params, size_t len, char *out,
                           size_t cap);

/* A decimal value 0-255 of a named param (for params_word hooks). */
ZBC_WUR int zbc_engine_param_u8(const char *key, const char *value,
                                uint8_t *out, struct zbc_err *err);

/* Registry (apps/registry.c). */
const struct zbc_engine *zbc_engine_by_type(uint8_t type);
const struct zbc_engine *zbc_engine_by_name(const char *name);
/* NULL-terminated list of all engines, in type order. */
const struct zbc_engine *const *zbc_engines(void);

#endif
