/* Gomoku (docs/games.md, "Gomoku (type 6)").  15x15 board, players
 * alternately place a stone on any empty cell; five or more in a row
 * (horizontal, vertical or diagonal) wins; a full board without such a line
 * is a draw.  The seat drawn first plays black (X), the other white (O).  No
 * opening or overline restrictions (free-style gomoku).
 *
 * Cells: cell = row * 15 + column, 0-224; notation a1-o15 (apps/notation.h:
 * file letter = column, rank = row + 1; rank 1 is drawn at the bottom).
 * Canonical state bytes (227): x_seat u8, cell[225] u8 (0 empty, 1 X,
 * 2 O), last u8 (cell of the last stone, 0xFF before the first move). */
#include <string.h>

#include "apps/engine.h"
#include "apps/games/inrow.h"
#include "apps/notation.h"

/* The descriptor at the end of this file (the shared steps take it). */
extern const struct zbc_engine zbc_engine_gomoku;

#define N 15
#define K 5
#define CELLS (N * N)
#define NONE 0xFF
#define STATE_BYTES (2 + CELLS)

enum mark { EMPTY = 0, X = 1, O = 2 };

struct gomoku {
    uint8_t x_seat;
    uint8_t cell[CELLS];
    uint8_t last;
    uint8_t stones; /* derived: stones on the board */
};
_Static_assert(sizeof(struct gomoku) <= ZBC_GAME_STATE_MAX, "state too big");

static const char MARK_CHAR[] = {'.', 'X', 'O'};

static const struct gomoku *cst(const struct zbc_game_state *st)
{
    return (const struct gomoku *)st->b;
}

static struct gomoku *mst(struct zbc_game_state *st)
{
    return (struct gomoku *)st->b;
}

/* Only the last stone can have made a line (decode() guarantees it). */
static enum mark winner_mark(const struct gomoku *s)
{
    if (s->last == NONE || zbc_inrow_run(s->cell, N, N, s->last) < K)
        return EMPTY;
    return (enum mark)s->cell[s->last];
}

static uint8_t seat_of(const struct gomoku *s, enum mark m)
{
    return m == X ? s->x_seat : (uint8_t)(1 - s->x_seat);
}

static enum mark mark_to_move(const struct gomoku *s)
{
    return s->stones % 2 == 0 ? X : O;
}

static int gm_turn(const struct zbc_game_state *st)
{
    const struct gomoku *s = cst(st);
    if (s->stones == CELLS || winner_mark(s) != EMPTY)
        return ZBC_NOBODY;
    return seat_of(s, mark_to_move(s));
}

static void gm_result(const struct zbc_game_state *st, struct zbc_result *out)
{
    const struct gomoku *s = cst(st);
    enum mark w = winner_mark(s);
    out->out_mask = 0;
    out->winner = 0;
    if (w != EMPTY) {
        out->kind = ZBC_RESULT_WIN;
        out->winner = seat_of(s, w);
    } else if (s->stones == CELLS) {
        out->kind = ZBC_RESULT_DRAW;
    } else {
        out->kind = ZBC_RESULT_ONGOING;
    }
}

static int gm_check_params(uint8_t seats, const uint8_t *params, size_t len,
                           struct zbc_err *err)
{
    if (!zbc_engine_check_seats(&zbc_engine_gomoku, seats, err))
        return 0;
    if (len != 0)
        return zbc_fail(err, "gomoku takes no params, got %zu bytes", len);
    return 1;
}

static int gm_init(struct zbc_game_state *st, uint8_t seats,
                   const uint8_t *params, size_t len, uint8_t first,
                   struct zbc_roll *rolls, struct zbc_err *err)
{
    if (!gm_check_params(seats, params, len, err))
        return 0;
    if (first > 1)
        return zbc_fail(err, "first seat %u out of range 0-1", first);
    struct gomoku *s = mst(st);
    memset(s, 0, sizeof *s);
    s->x_seat = first;
    s->last = NONE;
    return 1;
}

static int gm_check_move(const struct zbc_game_state *st, uint8_t seat,
                         const uint8_t *move, size_t len, struct zbc_err *err)
{
    const struct gomoku *s = cst(st);
    int turn = gm_turn(st);
    char sq[8];
    if (!zbc_engine_move_entry(&zbc_engine_gomoku, turn, seat, len, err))
        return 0;
    if (len != 1)
        return zbc_fail(err, "a gomoku move is 1 byte (cell 0-224), got %zu",
                        len);
    if (move[0] >= CELLS)
        return zbc_fail(err, "cell %u out of range 0-224", move[0]);
    if (s->cell[move[0]] != EMPTY) {
        if (!zbc_notation_format_square(move[0], N, sq, sizeof sq))
            sq[0] = '\0';
        return zbc_fail(err, "illegal move: %s is taken by %c", sq,
                        MARK_CHAR[s->cell[move[0]]]);
    }
    return 1;
}

static int gm_apply_move(struct zbc_game_state *st, uint8_t seat,
                         const uint8_t *move, size_t len,
                         struct zbc_roll *rolls, struct zbc_err *err)
{
    if (!gm_check_move(st, seat, move, len, err))
        return 0;
    struct gomoku *s = mst(st);
    s->cell[move[0]] = (uint8_t)mark_to_move(s);
    s->last = move[0];
    s->stones++;
    return 1;
}

static size_t gm_gen_moves(const struct zbc_game_state *st,
                           struct zbc_move *out, size_t cap)
{
    const struct gomoku *s = cst(st);
    size_t n = 0;
    if (gm_turn(st) == ZBC_NOBODY)
        return 0;
    for (int c = 0; c < CELLS && n < cap; c++) {
        if (s->cell[c] == EMPTY) {
            out[n].len = 1;
            out[n].b[0] = (uint8_t)c;
            n++;
        }
    }
    return n;
}

static size_t gm_encode(const struct zbc_game_state *st, uint8_t *out,
                        size_t cap)
{
    const struct gomoku *s = cst(st);
    if (cap < STATE_BYTES)
        return 0;
    out[0] = s->x_seat;
    memcpy(out + 1, s->cell, CELLS);
    out[1 + CELLS] = s->last;
    return STATE_BYTES;
}

static int gm_decode(struct zbc_game_state *st, const uint8_t *in, size_t len,
                     struct zbc_err *err)
{
    struct gomoku s;
    if (len != STATE_BYTES)
        return zbc_fail(err, "gomoku state is %d bytes, got %zu", STATE_BYTES,
                        len);
    s.x_seat = in[0];
    memcpy(s.cell, in + 1, CELLS);
    s.last = in[1 + CELLS];
    if (s.x_seat > 1)
        return zbc_fail(err, "X seat %u out of range 0-1", s.x_seat);
    int nx = 0, no = 0;
    for (int i = 0; i < CELLS; i++) {
        if (s.cell[i] > O)
            return zbc_fail(err, "cell %d holds %u, not 0-2", i, s.cell[i]);
        nx += s.cell[i] == X;
        no += s.cell[i] == O;
    }
    if (nx != no && nx != no + 1)
        return zbc_fail(err, "%d X and %d O cannot happen (X moves first)", nx,
                        no);
    s.stones = (uint8_t)(nx + no);
    uint8_t before[CELLS];
    memcpy(before, s.cell, CELLS);
    if (s.stones == 0) {
        if (s.last != NONE)
            return zbc_fail(err, "last move %u on an empty board", s.last);
    } else {
        enum mark mover = nx > no ? X : O;
        if (s.last >= CELLS || s.cell[s.last] != mover)
            return zbc_fail(err, "last move %u is not a cell holding %c",
                            s.last, MARK_CHAR[mover]);
        before[s.last] = EMPTY;
    }
    /* Without the last stone there is no five, or the game ended earlier. */
    int line = zbc_inrow_find_line(before, N, N, K);
    if (line >= 0)
        return zbc_fail(err, "cell %d is on a line made before the last move",
                        line);
    *mst(st) = s;
    return 1;
}

static void last_square(const struct gomoku *s, char sq[8])
{
    if (!zbc_notation_format_square(s->last, N, sq, 8))
        sq[0] = '\0';
}

static int gm_to_json(const struct zbc_game_state *st, char *out, size_t cap)
{
    const struct gomoku *s = cst(st);
    struct zbc_text t;
    struct zbc_result r;
    char sq[8];
    zbc_text_init(&t, out, cap);
    /* rows listed from the top (rank 15) down to rank 1 */
    zbc_text_printf(&t, "{\"game\":\"gomoku\",\"x_seat\":%u,\"o_seat\":%u,"
                    "\"rows\":[", s->x_seat, 1 - s->x_seat);
    for (int y = N - 1; y >= 0; y--) {
        zbc_text_printf(&t, "%s\"", y < N - 1 ? "," : "");
        for (int x = 0; x < N; x++)
            zbc_text_printf(&t, "%c", MARK_CHAR[s->cell[y * N + x]]);
        zbc_text_printf(&t, "\"");
    }
    zbc_text_printf(&t, "],");
    int turn = gm_turn(st);
    if (turn == ZBC_NOBODY)
        zbc_text_printf(&t, "\"turn\":null,");
    else
        zbc_text_printf(&t, "\"turn\":%d,", turn);
    if (s->last == NONE) {
        zbc_text_printf(&t, "\"last\":null,");
    } else {
        last_square(s, sq);
        zbc_text_printf(&t, "\"last\":\"%s\",", sq);
    }
    gm_result(st, &r);
    switch (r.kind) {
    case ZBC_RESULT_ONGOING:
        zbc_text_printf(&t, "\"result\":\"ongoing\",\"winner\":null}");
        break;
    case ZBC_RESULT_WIN:
        zbc_text_printf(&t, "\"result\":\"win\",\"winner\":%u}", r.winner);
        break;
    case ZBC_RESULT_DRAW:
        zbc_text_printf(&t, "\"result\":\"draw\",\"winner\":null}");
        break;
    }
    return zbc_text_result(&t);
}

static int gm_render(const struct zbc_game_state *st, char *out, size_t cap)
{
    const struct gomoku *s = cst(st);
    struct zbc_text t;
    struct zbc_result r;
    char sq[8];
    zbc_text_init(&t, out, cap);
    for (int y = N - 1; y >= 0; y--) {
        zbc_text_printf(&t, "%2d", y + 1);
        for (int x = 0; x < N; x++)
            zbc_text_printf(&t, " %c", MARK_CHAR[s->cell[y * N + x]]);
        zbc_text_printf(&t, "\n");
    }
    zbc_text_printf(&t, "   a b c d e f g h i j k l m n o\n");
    zbc_text_printf(&t, "X: seat %u, O: seat %u\n", s->x_seat,
                    1 - s->x_seat);
    if (s->last != NONE) {
        last_square(s, sq);
        zbc_text_printf(&t, "last move: %s\n", sq);
    }
    gm_result(st, &r);
    switch (r.kind) {
    case ZBC_RESULT_ONGOING:
        zbc_text_printf(&t, "to move: seat %d (%c)\n", gm_turn(st),
                        MARK_CHAR[mark_to_move(s)]);
        break;
    case ZBC_RESULT_WIN:
        zbc_text_printf(&t, "result: seat %u (%c) wins\n", r.winner,
                        MARK_CHAR[s->cell[s->last]]);
        break;
    case ZBC_RESULT_DRAW:
        zbc_text_printf(&t, "result: draw\n");
        break;
    }
    return zbc_text_result(&t);
}

static int gm_parse_move(const struct zbc_game_state *st, uint8_t seat,
                         const char *text, uint8_t *move, size_t cap,
                         size_t *len, struct zbc_err *err)
{
    unsigned cell;
    if (cap < 1)
        return zbc_fail(err, "move buffer too small");
    if (!zbc_notation_parse_square(text, N, N, &cell, err))
        return zbc_fail_prefix(err, "gomoku square (a1-o15)");
    move[0] = (uint8_t)cell;
    *len = 1;
    return 1;
}

static int gm_format_move(const struct zbc_game_state *st, const uint8_t *move,
                          size_t len, char *out, size_t cap)
{
    if (len != 1 || move[0] >= CELLS)
        return 0;
    return zbc_notation_format_square(move[0], N, out, cap);
}

/* Eval (docs/games.md, "Machine opponents"): open windows of five (1, 6,
 * 40, 300 for one to four stones of one side), for `seat` minus for the
 * other. */
static int32_t gm_eval(const struct zbc_game_state *st, uint8_t seat)
{
    static const int32_t WEIGHT[K + 1] = {0, 1, 6, 40, 300, 0};
    const struct gomoku *s = cst(st);
    uint8_t mine = seat == s->x_seat ? X : O;
    return zbc_inrow_windows(s->cell, N, N, K, mine, WEIGHT);
}

const struct zbc_engine zbc_engine_gomoku = {
    .state_size = sizeof(struct gomoku),
    .type = 6,
    .name = "gomoku",
    .min_seats = 2,
    .max_seats = 2,
    .dice = false,
    .draws_first = true,
    .start_rolls = false,
    .check_params = gm_check_params,
    .init = gm_init,
    .turn = gm_turn,
    .result = gm_result,
    .check_move = gm_check_move,
    .apply_move = gm_apply_move,
    .gen_moves = gm_gen_moves,
    .encode = gm_encode,
    .decode = gm_decode,
    .to_json = gm_to_json,
    .render = gm_render,
    .parse_move = gm_parse_move,
    .format_move = gm_format_move,
    .eval = gm_eval,
};
