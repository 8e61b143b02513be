/* Race, snakes and ladders (type 34, 2-4 seats, dice): docs/games.md,
 * section "Race — snakes and ladders (type 34)".
 *
 * Squares 1-49; every token starts off the board at 0.  A move rolls one
 * d6 and advances the mover's token; a roll that would pass 49 leaves the
 * token where it is; a token ending on a ladder's foot climbs, on a
 * snake's head slides down.  Exact landing on 49 wins. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "apps/engine.h"
#include "apps/notation.h"

/* The descriptor at the end of this file (the shared steps take it). */
extern const struct zbc_engine zbc_engine_race;

#define RACE_END 49
#define RACE_NONE 0xFF

struct race_state {
    uint8_t seats;
    uint8_t to_move;  /* the winner once the game is over */
    uint8_t winner;   /* RACE_NONE while the game goes on */
    uint8_t pos[ZBC_SEATS_MAX]; /* 0 = off the board, 1-49 */
    uint8_t last_seat; /* RACE_NONE before the first move */
    uint8_t last_die;  /* 1-6 */
    uint8_t last_from; /* square of the mover before the last roll */
};

_Static_assert(sizeof(struct race_state) <= ZBC_GAME_STATE_MAX,
               "race state fits the state buffer");

/* Ladders climb, snakes slide: from -> to. */
static const uint8_t JUMPS[8][2] = {
    {2, 15}, {7, 28}, {21, 33}, {36, 44},  /* ladders */
    {16, 6}, {31, 14}, {39, 19}, {47, 26}, /* snakes */
};

static const struct race_state *crace(const struct zbc_game_state *st)
{
    return (const struct race_state *)(const void *)st->b;
}

static struct race_state *race(struct zbc_game_state *st)
{
    return (struct race_state *)(void *)st->b;
}

/* Where a token that lands on `sq` ends up. */
static uint8_t jump(uint8_t sq)
{
    for (size_t i = 0; i < 8; i++)
        if (JUMPS[i][0] == sq)
            return JUMPS[i][1];
    return sq;
}

/* Where a token on `from` ends after rolling `die`. */
static uint8_t advance(uint8_t from, uint8_t die)
{
    unsigned to = (unsigned)from + die;
    if (to > RACE_END)
        return from;
    return jump((uint8_t)to);
}

/* A square a token can rest on: 0, or 1-49 except a ladder foot or snake
 * head. */
static bool resting_square(uint8_t sq)
{
    return sq <= RACE_END && jump(sq) == sq;
}

static uint8_t next_seat(const struct race_state *r, uint8_t s)
{
    return (uint8_t)((s + 1) % r->seats);
}

static int race_check_params(uint8_t seats, const uint8_t *params, size_t len,
                             struct zbc_err *err)
{
    (void)params;
    if (!zbc_engine_check_seats(&zbc_engine_race, seats, err))
        return 0;
    if (len != 0)
        return zbc_fail(err, "race takes no params (got %zu bytes)", len);
    return 1;
}

static int race_init(struct zbc_game_state *st, uint8_t seats,
                     const uint8_t *params, size_t len, uint8_t first,
                     struct zbc_roll *rolls, struct zbc_err *err)
{
    (void)rolls;
    if (!race_check_params(seats, params, len, err))
        return 0;
    if (first >= seats)
        return zbc_fail(err, "first seat %u out of range 0-%u",
                        (unsigned)first, (unsigned)(seats - 1));
    struct race_state r;
    memset(&r, 0, sizeof r);
    r.seats = seats;
    r.to_move = first;
    r.winner = RACE_NONE;
    r.last_seat = RACE_NONE;
    *race(st) = r;
    return 1;
}

static int race_turn(const struct zbc_game_state *st)
{
    const struct race_state *r = crace(st);
    return r->winner == RACE_NONE ? r->to_move : ZBC_NOBODY;
}

static void race_result(const struct zbc_game_state *st,
                        struct zbc_result *out)
{
    const struct race_state *r = crace(st);
    memset(out, 0, sizeof *out);
    if (r->winner == RACE_NONE) {
        out->kind = ZBC_RESULT_ONGOING;
    } else {
        out->kind = ZBC_RESULT_WIN;
        out->winner = r->winner;
    }
}

static int race_check_move(const struct zbc_game_state *st, uint8_t seat,
                           const uint8_t *move, size_t len,
                           struct zbc_err *err)
{
    if (!zbc_engine_move_entry(&zbc_engine_race, race_turn(st), seat, len, err))
        return 0;
    if (len != 1 || move[0] != 0)
        return zbc_fail(err, "the only race move is the single byte 0 (roll)");
    return 1;
}

static int race_apply_move(struct zbc_game_state *st, uint8_t seat,
                           const uint8_t *move, size_t len,
                           struct zbc_roll *rolls, struct zbc_err *err)
{
    if (!race_check_move(st, seat, move, len, err))
        return 0;
    if (rolls == NULL)
        return zbc_fail(err, "race moves need a roll stream");
    uint8_t d;
    if (!zbc_roll_d6(rolls, &d))
        return zbc_fail(err, "roll stream exhausted");
    struct race_state r = *crace(st);
    r.last_seat = seat;
    r.last_die = d;
    r.last_from = r.pos[seat];
    r.pos[seat] = advance(r.pos[seat], d);
    if (r.pos[seat] == RACE_END)
        r.winner = seat;
    else
        r.to_move = next_seat(&r, seat);
    *race(st) = r;
    return 1;
}

static size_t race_gen_moves(const struct zbc_game_state *st,
                             struct zbc_move *out, size_t cap)
{
    if (crace(st)->winner != RACE_NONE || cap == 0)
        return 0;
    out[0].len = 1;
    out[0].b[0] = 0;
    return 1;
}

/* Bytes: seats, to_move, winner, pos[seats], last_seat, last_die,
 * last_from. */
static size_t race_encode(const struct zbc_game_state *st, uint8_t *out,
                          size_t cap)
{
    const struct race_state *r = crace(st);
    size_t need = 3u + r->seats + 3u;
    if (cap < need)
        return 0;
    size_t i = 0;
    out[i++] = r->seats;
    out[i++] = r->to_move;
    out[i++] = r->winner;
    for (uint8_t s = 0; s < r->seats; s++)
        out[i++] = r->pos[s];
    out[i++] = r->last_seat;
    out[i++] = r->last_die;
    out[i++] = r->last_from;
    return i;
}

static int race_validate(const struct race_state *r, struct zbc_err *err)
{
    if (r->seats < 2 || r->seats > 4)
        return zbc_fail(err, "race state: seats %u out of range 2-4",
                        (unsigned)r->seats);
    if (r->to_move >= r->seats)
        return zbc_fail(err, "race state: seat to move %u out of range",
                        (unsigned)r->to_move);
    bool over = r->winner != RACE_NONE;
    if (over && r->winner >= r->seats)
        return zbc_fail(err, "race state: winner %u out of range",
                        (unsigned)r->winner);
    for (uint8_t s = 0; s < r->seats; s++) {
        if (!resting_square(r->pos[s]))
            return zbc_fail(err, "race state: seat %u on square %u, where no token can rest",
                            (unsigned)s, (unsigned)r->pos[s]);
        if ((r->pos[s] == RACE_END) != (over && s == r->winner))
            return zbc_fail(err, "race state: square 49 must hold exactly the winner");
    }
    if (r->last_seat == RACE_NONE) {
        if (over || r->last_die != 0 || r->last_from != 0)
            return zbc_fail(err, "race state: no last move but last-move fields set");
        for (uint8_t s = 0; s < r->seats; s++)
            if (r->pos[s] != 0)
                return zbc_fail(err, "race state: tokens moved before the first move");
        return 1;
    }
    if (r->last_seat >= r->seats)
        return zbc_fail(err, "race state: last seat %u out of range",
                        (unsigned)r->last_seat);
    if (r->last_die < 1 || r->last_die > 6)
        return zbc_fail(err, "race state: last die %u out of range 1-6",
                        (unsigned)r->last_die);
    if (!resting_square(r->last_from) || r->last_from == RACE_END ||
        advance(r->last_from, r->last_die) != r->pos[r->last_seat])
        return zbc_fail(err, "race state: the last roll does not lead to the mover's square");
    if (over ? (r->last_seat != r->winner || r->to_move != r->winner)
             : r->to_move != next_seat(r, r->last_seat))
        return zbc_fail(err, "race state: the turn does not follow the last move");
    return 1;
}

static int race_decode(struct zbc_game_state *st, const uint8_t *in,
                       size_t len, struct zbc_err *err)
{
    if (len < 1)
        return zbc_fail(err, "race state: empty");
    struct race_state r;
    memset(&r, 0, sizeof r);
    r.seats = in[0];
    if (r.seats < 2 || r.seats > 4)
        return zbc_fail(err, "race state: seats %u out of range 2-4",
                        (unsigned)r.seats);
    size_t need = 3u + r.seats + 3u;
    if (len != need)
        return zbc_fail(err, "race state: %zu bytes, want %zu for %u seats",
                        len, need, (unsigned)r.seats);
    size_t i = 1;
    r.to_move = in[i++];
    r.winner = in[i++];
    for (uint8_t s = 0; s < r.seats; s++)
        r.pos[s] = in[i++];
    r.last_seat = in[i++];
    r.last_die = in[i++];
    r.last_from = in[i++];
    if (!race_validate(&r, err))
        return 0;
    *race(st) = r;
    return 1;
}

static int race_to_json(const struct zbc_game_state *st, char *out,
                        size_t cap)
{
    const struct race_state *r = crace(st);
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    zbc_text_printf(&t, "{\"game\":\"race\",\"seats\":%u,\"end\":%d,\"jumps\":[",
                    (unsigned)r->seats, RACE_END);
    for (size_t i = 0; i < 8; i++)
        zbc_text_printf(&t, "%s{\"from\":%u,\"to\":%u,\"kind\":\"%s\"}",
                        i ? "," : "", (unsigned)JUMPS[i][0],
                        (unsigned)JUMPS[i][1], i < 4 ? "ladder" : "snake");
    zbc_text_printf(&t, "],\"positions\":[");
    for (uint8_t s = 0; s < r->seats; s++)
        zbc_text_printf(&t, "%s%u", s ? "," : "", (unsigned)r->pos[s]);
    zbc_text_printf(&t, "],");
    if (r->winner == RACE_NONE)
        zbc_text_printf(&t, "\"turn\":%u,", (unsigned)r->to_move);
    else
        zbc_text_printf(&t, "\"turn\":null,");
    if (r->last_seat == RACE_NONE)
        zbc_text_printf(&t, "\"last\":null,");
    else
        zbc_text_printf(&t, "\"last\":{\"seat\":%u,\"die\":%u,\"from\":%u,\"to\":%u},",
                        (unsigned)r->last_seat, (unsigned)r->last_die,
                        (unsigned)r->last_from,
                        (unsigned)r->pos[r->last_seat]);
    if (r->winner == RACE_NONE)
        zbc_text_printf(&t, "\"result\":\"ongoing\",\"winner\":null}");
    else
        zbc_text_printf(&t, "\"result\":\"win\",\"winner\":%u}",
                        (unsigned)r->winner);
    return zbc_text_result(&t);
}

/* A 7x7 board, square 49 top left, rows snaking down to square 1 bottom
 * left.  A cell is the square number, a mark ('^' ladder foot, 'v' snake
 * head) and the digits of the seats on it. */
static int race_render(const struct zbc_game_state *st, char *out, size_t cap)
{
    const struct race_state *r = crace(st);
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    zbc_text_printf(&t, "Race to 49: ladders 2>15 7>28 21>33 36>44, "
                        "snakes 16>6 31>14 39>19 47>26\n");
    for (int row = 6; row >= 0; row--) {
        for (int c = 0; c < 7; c++) {
            int col = row % 2 == 0 ? c : 6 - c;
            uint8_t sq = (uint8_t)(row * 7 + col + 1);
            uint8_t to = jump(sq);
            char mark = to > sq ? '^' : to < sq ? 'v' : ' ';
            char who[ZBC_SEATS_MAX + 1];
            size_t n = 0;
            for (uint8_t s = 0; s < r->seats; s++)
                if (r->pos[s] == sq)
                    who[n++] = (char)('0' + s);
            who[n] = '\0';
            if (c < 6)
                zbc_text_printf(&t, "%2u%c%-4s ", (unsigned)sq, mark, who);
            else if (mark != ' ' || n > 0)
                zbc_text_printf(&t, "%2u%c%s", (unsigned)sq, mark, who);
            else
                zbc_text_printf(&t, "%2u", (unsigned)sq);
        }
        zbc_text_printf(&t, "\n");
    }
    for (uint8_t s = 0; s < r->seats; s++) {
        if (r->pos[s] == 0)
            zbc_text_printf(&t, "seat %u: off the board", (unsigned)s);
        else
            zbc_text_printf(&t, "seat %u: square %u", (unsigned)s,
                            (unsigned)r->pos[s]);
        if (r->winner == s)
            zbc_text_printf(&t, "  WINNER");
        else if (r->winner == RACE_NONE && r->to_move == s)
            zbc_text_printf(&t, "  <- to move");
        zbc_text_printf(&t, "\n");
    }
    if (r->last_seat != RACE_NONE) {
        uint8_t from = r->last_from, d = r->last_die;
        unsigned land = (unsigned)from + d;
        zbc_text_printf(&t, "last: seat %u rolled %u: ", (unsigned)r->last_seat,
                        (unsigned)d);
        if (land > RACE_END)
            zbc_text_printf(&t, "%u stays (overshoot)\n", (unsigned)from);
        else if (jump((uint8_t)land) != land)
            zbc_text_printf(&t, "%u -> %u, %s to %u\n", (unsigned)from, land,
                            jump((uint8_t)land) > land ? "ladder" : "snake",
                            (unsigned)jump((uint8_t)land));
        else
            zbc_text_printf(&t, "%u -> %u\n", (unsigned)from, land);
    }
    return zbc_text_result(&t);
}

static int race_parse_move(const struct zbc_game_state *st, uint8_t seat,
                           const char *text, uint8_t *move, size_t cap,
                           size_t *len, struct zbc_err *err)
{
    (void)st;
    (void)seat;
    struct zbc_tokens tk;
    if (!zbc_notation_tokens(&tk, text, err))
        return 0;
    if (tk.count != 1 || strcmp(tk.tok[0], "roll") != 0)
        return zbc_fail(err, "the race move is \"roll\", not \"%.40s\"", text);
    if (cap < 1)
        return zbc_fail(err, "move buffer too small");
    move[0] = 0;
    *len = 1;
    return 1;
}

static int race_format_move(const struct zbc_game_state *st,
                            const uint8_t *move, size_t len, char *out,
                            size_t cap)
{
    (void)st;
    if (len != 1 || move[0] != 0)
        return 0;
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    zbc_text_printf(&t, "roll");
    return zbc_text_result(&t) >= 0;
}

const struct zbc_engine zbc_engine_race = {
    .state_size = sizeof(struct race_state),
    .type = 34,
    .name = "race",
    .min_seats = 2,
    .max_seats = 4,
    .dice = true,
    .draws_first = true,
    .start_rolls = false,
    .check_params = race_check_params,
    .init = race_init,
    .turn = race_turn,
    .result = race_result,
    .check_move = race_check_move,
    .apply_move = race_apply_move,
    .gen_moves = race_gen_moves,
    .encode = race_encode,
    .decode = race_decode,
    .to_json = race_to_json,
    .render = race_render,
    .parse_move = race_parse_move,
    .format_move = race_format_move,
};
