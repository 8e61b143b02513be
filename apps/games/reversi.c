/* Reversi / Othello (docs/games.md, "Reversi (type 5)").  8x8, standard start
 * (white d4 e5, black d5 e4); the seat drawn first plays black and moves
 * first.  A move places a disc that must flank at least one straight line of
 * opponent discs, which all turn over.  A side with no legal move is skipped
 * automatically (there is no pass move); the game ends when neither side can
 * move.  Most discs wins, equal is a draw.
 *
 * Cells: cell = row * 8 + column, 0-63; notation a1-h8 (apps/notation.h;
 * rank 1 is drawn at the top, as on an Othello board).  Move bytes: cell u8.
 * Canonical state bytes (66): black_seat u8, cell[64] u8 (0 empty, 1 black,
 * 2 white), last u8 (cell of the last disc placed, 0xFF at the start).
 * The side to move is not stored: it follows from the board and the last
 * mover (the opponent if it can move, else the last mover if it can move,
 * else nobody). */
#include "apps/games/reversi.h"

#include <string.h>

#include "apps/notation.h"

/* The descriptor at the end of this file (the shared steps take it). */
extern const struct zbc_engine zbc_engine_reversi;

#define N 8
#define CELLS 64
#define NONE 0xFF
#define STATE_BYTES (2 + CELLS)

enum disc { EMPTY = 0, BLACK = 1, WHITE = 2 };

struct reversi {
    uint8_t black_seat;
    uint8_t cell[CELLS];
    uint8_t last;
    uint8_t to_move; /* derived: enum disc of the side to move, EMPTY at end */
};
_Static_assert(sizeof(struct reversi) <= ZBC_GAME_STATE_MAX, "state too big");

static const char DISC_CHAR[] = {'.', 'B', 'W'};
static const int DIRS[8][2] = {{1, 0}, {-1, 0}, {0, 1},  {0, -1},
                               {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

static const struct reversi *cst(const struct zbc_game_state *st)
{
    return (const struct reversi *)st->b;
}

static struct reversi *mst(struct zbc_game_state *st)
{
    return (struct reversi *)st->b;
}

static enum disc other(enum disc d)
{
    return d == BLACK ? WHITE : BLACK;
}

/* Number of opponent discs `d` at cell c would flip in direction k. */
static int flips_dir(const uint8_t *b, int c, enum disc d, int k)
{
    int x = c % N + DIRS[k][0], y = c / N + DIRS[k][1], n = 0;
    while (x >= 0 && x < N && y >= 0 && y < N && b[y * N + x] == other(d)) {
        n++;
        x += DIRS[k][0];
        y += DIRS[k][1];
    }
    if (n > 0 && x >= 0 && x < N && y >= 0 && y < N && b[y * N + x] == d)
        return n;
    return 0;
}

static bool legal_at(const uint8_t *b, int c, enum disc d)
{
    if (b[c] != EMPTY)
        return false;
    for (int k = 0; k < 8; k++)
        if (flips_dir(b, c, d, k) > 0)
            return true;
    return false;
}

static bool can_move(const uint8_t *b, enum disc d)
{
    for (int c = 0; c < CELLS; c++)
        if (legal_at(b, c, d))
            return true;
    return false;
}

/* Who moves after `mover` played: the opponent, else the mover again,
 * else nobody. */
static enum disc next_to_move(const uint8_t *b, enum disc mover)
{
    if (can_move(b, other(mover)))
        return other(mover);
    if (can_move(b, mover))
        return mover;
    return EMPTY;
}

static uint8_t seat_of(const struct reversi *s, enum disc d)
{
    return d == BLACK ? s->black_seat : (uint8_t)(1 - s->black_seat);
}

static void counts(const struct reversi *s, int *black, int *white)
{
    *black = *white = 0;
    for (int c = 0; c < CELLS; c++) {
        *black += s->cell[c] == BLACK;
        *white += s->cell[c] == WHITE;
    }
}

bool zbc_reversi_opponent_passed(const struct zbc_game_state *st)
{
    const struct reversi *s = cst(st);
    return s->last != NONE && s->to_move != EMPTY &&
           s->to_move == s->cell[s->last];
}

static int rv_turn(const struct zbc_game_state *st)
{
    const struct reversi *s = cst(st);
    if (s->to_move == EMPTY)
        return ZBC_NOBODY;
    return seat_of(s, (enum disc)s->to_move);
}

static void rv_result(const struct zbc_game_state *st, struct zbc_result *out)
{
    const struct reversi *s = cst(st);
    int nb, nw;
    out->out_mask = 0;
    out->winner = 0;
    if (s->to_move != EMPTY) {
        out->kind = ZBC_RESULT_ONGOING;
        return;
    }
    counts(s, &nb, &nw);
    if (nb == nw) {
        out->kind = ZBC_RESULT_DRAW;
    } else {
        out->kind = ZBC_RESULT_WIN;
        out->winner = seat_of(s, nb > nw ? BLACK : WHITE);
    }
}

static int rv_check_params(uint8_t seats, const uint8_t *params, size_t len,
                           struct zbc_err *err)
{
    if (!zbc_engine_check_seats(&zbc_engine_reversi, seats, err))
        return 0;
    if (len != 0)
        return zbc_fail(err, "reversi takes no params, got %zu bytes", len);
    return 1;
}

static void start_position(uint8_t *b)
{
    memset(b, EMPTY, CELLS);
    b[3 * N + 3] = WHITE; /* d4 */
    b[4 * N + 4] = WHITE; /* e5 */
    b[4 * N + 3] = BLACK; /* d5 */
    b[3 * N + 4] = BLACK; /* e4 */
}

static int rv_init(struct zbc_game_state *st, uint8_t seats,
                   const uint8_t *params, size_t len, uint8_t first,
                   struct zbc_roll *rolls, struct zbc_err *err)
{
    if (!rv_check_params(seats, params, len, err))
        return 0;
    if (first > 1)
        return zbc_fail(err, "first seat %u out of range 0-1", first);
    struct reversi *s = mst(st);
    memset(s, 0, sizeof *s);
    s->black_seat = first;
    start_position(s->cell);
    s->last = NONE;
    s->to_move = BLACK;
    return 1;
}

static int rv_check_move(const struct zbc_game_state *st, uint8_t seat,
                         const uint8_t *move, size_t len, struct zbc_err *err)
{
    const struct reversi *s = cst(st);
    int turn = rv_turn(st);
    char sq[8];
    if (!zbc_engine_move_entry(&zbc_engine_reversi, turn, seat, len, err))
        return 0;
    if (len != 1)
        return zbc_fail(err, "a reversi move is 1 byte (cell 0-63), got %zu",
                        len);
    if (move[0] >= CELLS)
        return zbc_fail(err, "cell %u out of range 0-63", move[0]);
    if (!zbc_notation_format_square(move[0], N, sq, sizeof sq))
        sq[0] = '\0';
    if (s->cell[move[0]] != EMPTY)
        return zbc_fail(err, "illegal move: %s is taken", sq);
    if (!legal_at(s->cell, move[0], (enum disc)s->to_move))
        return zbc_fail(err, "illegal move: %s flips no disc", sq);
    return 1;
}

static int rv_apply_move(struct zbc_game_state *st, uint8_t seat,
                         const uint8_t *move, size_t len,
                         struct zbc_roll *rolls, struct zbc_err *err)
{
    if (!rv_check_move(st, seat, move, len, err))
        return 0;
    struct reversi *s = mst(st);
    enum disc d = (enum disc)s->to_move;
    int c = move[0];
    for (int k = 0; k < 8; k++) {
        int n = flips_dir(s->cell, c, d, k);
        for (int i = 1; i <= n; i++)
            s->cell[c + i * (DIRS[k][1] * N + DIRS[k][0])] = (uint8_t)d;
    }
    s->cell[c] = (uint8_t)d;
    s->last = (uint8_t)c;
    s->to_move = (uint8_t)next_to_move(s->cell, d);
    return 1;
}

static size_t rv_gen_moves(const struct zbc_game_state *st,
                           struct zbc_move *out, size_t cap)
{
    const struct reversi *s = cst(st);
    size_t n = 0;
    if (s->to_move == EMPTY)
        return 0;
    for (int c = 0; c < CELLS && n < cap; c++) {
        if (legal_at(s->cell, c, (enum disc)s->to_move)) {
            out[n].len = 1;
            out[n].b[0] = (uint8_t)c;
            n++;
        }
    }
    return n;
}

static size_t rv_encode(const struct zbc_game_state *st, uint8_t *out,
                        size_t cap)
{
    const struct reversi *s = cst(st);
    if (cap < STATE_BYTES)
        return 0;
    out[0] = s->black_seat;
    memcpy(out + 1, s->cell, CELLS);
    out[1 + CELLS] = s->last;
    return STATE_BYTES;
}

static int rv_decode(struct zbc_game_state *st, const uint8_t *in, size_t len,
                     struct zbc_err *err)
{
    static const int CENTRE[4] = {27, 28, 35, 36};
    struct reversi s;
    if (len != STATE_BYTES)
        return zbc_fail(err, "reversi state is %d bytes, got %zu", STATE_BYTES,
                        len);
    s.black_seat = in[0];
    memcpy(s.cell, in + 1, CELLS);
    s.last = in[1 + CELLS];
    if (s.black_seat > 1)
        return zbc_fail(err, "black seat %u out of range 0-1", s.black_seat);
    for (int c = 0; c < CELLS; c++)
        if (s.cell[c] > WHITE)
            return zbc_fail(err, "cell %d holds %u, not 0-2", c, s.cell[c]);
    for (int i = 0; i < 4; i++)
        if (s.cell[CENTRE[i]] == EMPTY)
            return zbc_fail(err, "centre cell %d is empty", CENTRE[i]);
    if (s.last == NONE) {
        uint8_t start[CELLS];
        start_position(start);
        if (memcmp(start, s.cell, CELLS) != 0)
            return zbc_fail(err, "no last move but the board is not the "
                            "start position");
        s.to_move = BLACK;
    } else {
        if (s.last >= CELLS || s.cell[s.last] == EMPTY)
            return zbc_fail(err, "last move %u is not an occupied cell",
                            s.last);
        for (int i = 0; i < 4; i++)
            if (s.last == CENTRE[i])
                return zbc_fail(err, "last move %u is a centre cell", s.last);
        s.to_move = (uint8_t)next_to_move(s.cell, (enum disc)s.cell[s.last]);
    }
    *mst(st) = s;
    return 1;
}

static void status(const struct zbc_game_state *st, struct zbc_text *t,
                   bool json)
{
    const struct reversi *s = cst(st);
    struct zbc_result r;
    char sq[8] = "";
    int nb, nw;
    counts(s, &nb, &nw);
    rv_result(st, &r);
    if (s->last != NONE && !zbc_notation_format_square(s->last, N, sq, 8))
        sq[0] = '\0';
    bool passed = zbc_reversi_opponent_passed(st);
    if (json) {
        zbc_text_printf(t, "\"discs\":{\"black\":%d,\"white\":%d},", nb, nw);
        if (r.kind == ZBC_RESULT_ONGOING)
            zbc_text_printf(t, "\"turn\":%d,\"to_move\":\"%s\",", rv_turn(st),
                            s->to_move == BLACK ? "black" : "white");
        else
            zbc_text_printf(t, "\"turn\":null,\"to_move\":null,");
        if (s->last == NONE)
            zbc_text_printf(t, "\"last\":null,");
        else
            zbc_text_printf(t, "\"last\":\"%s\",", sq);
        zbc_text_printf(t, "\"opponent_passed\":%s,", passed ? "true" : "false");
        switch (r.kind) {
        case ZBC_RESULT_ONGOING:
            zbc_text_printf(t, "\"result\":\"ongoing\",\"winner\":null}");
            break;
        case ZBC_RESULT_WIN:
            zbc_text_printf(t, "\"result\":\"win\",\"winner\":%u}", r.winner);
            break;
        case ZBC_RESULT_DRAW:
            zbc_text_printf(t, "\"result\":\"draw\",\"winner\":null}");
            break;
        }
        return;
    }
    zbc_text_printf(t, "B: seat %u, %d discs; W: seat %u, %d discs\n",
                    s->black_seat, nb, 1 - s->black_seat, nw);
    if (s->last != NONE)
        zbc_text_printf(t, "last move: %s%s\n", sq,
                        passed ? (s->to_move == BLACK ? " (W passes)"
                                                      : " (B passes)")
                               : "");
    switch (r.kind) {
    case ZBC_RESULT_ONGOING:
        zbc_text_printf(t, "to move: seat %d (%c)\n", rv_turn(st),
                        DISC_CHAR[s->to_move]);
        break;
    case ZBC_RESULT_WIN:
        zbc_text_printf(t, "result: seat %u (%c) wins %d-%d\n", r.winner,
                        nb > nw ? 'B' : 'W', nb > nw ? nb : nw,
                        nb > nw ? nw : nb);
        break;
    case ZBC_RESULT_DRAW:
        zbc_text_printf(t, "result: draw %d-%d\n", nb, nw);
        break;
    }
}

static int rv_to_json(const struct zbc_game_state *st, char *out, size_t cap)
{
    const struct reversi *s = cst(st);
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    /* rows from rank 1 (top) to rank 8 */
    zbc_text_printf(&t, "{\"game\":\"reversi\",\"black_seat\":%u,"
                    "\"white_seat\":%u,\"rows\":[", s->black_seat,
                    1 - s->black_seat);
    for (int y = 0; y < N; y++) {
        zbc_text_printf(&t, "%s\"", y ? "," : "");
        for (int x = 0; x < N; x++)
            zbc_text_printf(&t, "%c", DISC_CHAR[s->cell[y * N + x]]);
        zbc_text_printf(&t, "\"");
    }
    zbc_text_printf(&t, "],");
    status(st, &t, true);
    return zbc_text_result(&t);
}

static int rv_render(const struct zbc_game_state *st, char *out, size_t cap)
{
    const struct reversi *s = cst(st);
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    zbc_text_printf(&t, "  a b c d e f g h\n");
    for (int y = 0; y < N; y++) {
        zbc_text_printf(&t, "%d", y + 1);
        for (int x = 0; x < N; x++)
            zbc_text_printf(&t, " %c", DISC_CHAR[s->cell[y * N + x]]);
        zbc_text_printf(&t, "\n");
    }
    status(st, &t, false);
    return zbc_text_result(&t);
}

static int rv_parse_move(const struct zbc_game_state *st, uint8_t seat,
                         const char *text, uint8_t *move, size_t cap,
                         size_t *len, struct zbc_err *err)
{
    unsigned cell;
    if (cap < 1)
        return zbc_fail(err, "move buffer too small");
    if (!zbc_notation_parse_square(text, N, N, &cell, err))
        return zbc_fail_prefix(err, "reversi square (a1-h8)");
    move[0] = (uint8_t)cell;
    *len = 1;
    return 1;
}

static int rv_format_move(const struct zbc_game_state *st, const uint8_t *move,
                          size_t len, char *out, size_t cap)
{
    if (len != 1 || move[0] >= CELLS)
        return 0;
    return zbc_notation_format_square(move[0], N, out, cap);
}

/* Eval (docs/games.md, "Machine opponents"): the classic square weights
 * (corners 100, the squares next to them negative), for `seat` minus for
 * the other. */
static int32_t rv_eval(const struct zbc_game_state *st, uint8_t seat)
{
    static const int8_t WEIGHT[CELLS] = {
        100, -20, 10, 5, 5, 10, -20, 100, -20, -50, -2, -2, -2, -2, -50, -20,
        10,  -2,  1,  1, 1, 1,  -2,  10,  5,   -2,  1,  0,  0,  1,  -2,  5,
        5,   -2,  1,  0, 0, 1,  -2,  5,   10,  -2,  1,  1,  1,  1,  -2,  10,
        -20, -50, -2, -2, -2, -2, -50, -20, 100, -20, 10, 5, 5, 10, -20, 100,
    };
    const struct reversi *s = cst(st);
    uint8_t mine = seat == s->black_seat ? BLACK : WHITE;
    int32_t v = 0;
    for (int c = 0; c < CELLS; c++)
        if (s->cell[c] != EMPTY)
            v += s->cell[c] == mine ? WEIGHT[c] + 1 : -WEIGHT[c] - 1;
    return v;
}

const struct zbc_engine zbc_engine_reversi = {
    .state_size = sizeof(struct reversi),
    .type = 5,
    .name = "reversi",
    .min_seats = 2,
    .max_seats = 2,
    .dice = false,
    .draws_first = true,
    .start_rolls = false,
    .check_params = rv_check_params,
    .init = rv_init,
    .turn = rv_turn,
    .result = rv_result,
    .check_move = rv_check_move,
    .apply_move = rv_apply_move,
    .gen_moves = rv_gen_moves,
    .encode = rv_encode,
    .decode = rv_decode,
    .to_json = rv_to_json,
    .render = rv_render,
    .parse_move = rv_parse_move,
    .format_move = rv_format_move,
    .opponent_passed = zbc_reversi_opponent_passed,
    .eval = rv_eval,
};
