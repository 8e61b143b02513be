/* Connect-4 (docs/games.md, "Connect-4 (type 3)").  7 columns x 6 rows, a
 * disc drops to the lowest free row of its column; four in a row
 * (horizontal, vertical or diagonal) wins; a full board without a line is a
 * draw.  The seat drawn first plays X, the other O.
 *
 * Cells: cell = row * 7 + column, row 0 is the bottom row.  Move bytes:
 * column u8 0-6.  Notation: the column number "1"-"7".
 * Canonical state bytes (44): x_seat u8, cell[42] u8 (0 empty, 1 X, 2 O),
 * last u8 (cell of the last disc, 0xFF before the first move). */
#include <string.h>

#include "apps/engine.h"
#include "apps/games/inrow.h"
#include "apps/notation.h"
#include "crypto/bytes.h"

/* The descriptor at the end of this file (the shared steps take it). */
extern const struct zbc_engine zbc_engine_connect4;

#define W 7
#define H 6
#define K 4
#define CELLS (W * H)
#define NONE 0xFF
#define STATE_BYTES (2 + CELLS)

enum mark { EMPTY = 0, X = 1, O = 2 };

struct c4 {
    uint8_t x_seat;
    uint8_t cell[CELLS];
    uint8_t last;
};
_Static_assert(sizeof(struct c4) <= ZBC_GAME_STATE_MAX, "state too big");

static const char MARK_CHAR[] = {'.', 'X', 'O'};

static const struct c4 *cst(const struct zbc_game_state *st)
{
    return (const struct c4 *)st->b;
}

static struct c4 *mst(struct zbc_game_state *st)
{
    return (struct c4 *)st->b;
}

static int count(const struct c4 *s, enum mark m)
{
    int n = 0;
    for (int i = 0; i < CELLS; i++)
        n += s->cell[i] == m;
    return n;
}

/* Lowest free row of column col, H when the column is full. */
static int free_row(const struct c4 *s, int col)
{
    int r = 0;
    while (r < H && s->cell[r * W + col] != EMPTY)
        r++;
    return r;
}

/* Only the last disc can have made a line (decode() guarantees it). */
static enum mark winner_mark(const struct c4 *s)
{
    if (s->last == NONE || zbc_inrow_run(s->cell, W, H, s->last) < K)
        return EMPTY;
    return (enum mark)s->cell[s->last];
}

static uint8_t seat_of(const struct c4 *s, enum mark m)
{
    return m == X ? s->x_seat : (uint8_t)(1 - s->x_seat);
}

static enum mark mark_to_move(const struct c4 *s)
{
    return count(s, X) == count(s, O) ? X : O;
}

static int c4_turn(const struct zbc_game_state *st)
{
    const struct c4 *s = cst(st);
    if (winner_mark(s) != EMPTY || count(s, EMPTY) == 0)
        return ZBC_NOBODY;
    return seat_of(s, mark_to_move(s));
}

static void c4_result(const struct zbc_game_state *st, struct zbc_result *out)
{
    const struct c4 *s = cst(st);
    enum mark w = winner_mark(s);
    out->out_mask = 0;
    out->winner = 0;
    if (w != EMPTY) {
        out->kind = ZBC_RESULT_WIN;
        out->winner = seat_of(s, w);
    } else if (count(s, EMPTY) == 0) {
        out->kind = ZBC_RESULT_DRAW;
    } else {
        out->kind = ZBC_RESULT_ONGOING;
    }
}

static int c4_check_params(uint8_t seats, const uint8_t *params, size_t len,
                           struct zbc_err *err)
{
    if (!zbc_engine_check_seats(&zbc_engine_connect4, seats, err))
        return 0;
    if (len != 0)
        return zbc_fail(err, "connect-4 takes no params, got %zu bytes", len);
    return 1;
}

static int c4_init(struct zbc_game_state *st, uint8_t seats,
                   const uint8_t *params, size_t len, uint8_t first,
                   struct zbc_roll *rolls, struct zbc_err *err)
{
    if (!c4_check_params(seats, params, len, err))
        return 0;
    if (first > 1)
        return zbc_fail(err, "first seat %u out of range 0-1", first);
    struct c4 *s = mst(st);
    memset(s, 0, sizeof *s);
    s->x_seat = first;
    s->last = NONE;
    return 1;
}

static int c4_check_move(const struct zbc_game_state *st, uint8_t seat,
                         const uint8_t *move, size_t len, struct zbc_err *err)
{
    const struct c4 *s = cst(st);
    int turn = c4_turn(st);
    if (!zbc_engine_move_entry(&zbc_engine_connect4, turn, seat, len, err))
        return 0;
    if (len != 1)
        return zbc_fail(err, "a connect-4 move is 1 byte (column 0-6), got %zu",
                        len);
    if (move[0] >= W)
        return zbc_fail(err, "column %u out of range 0-6", move[0]);
    if (free_row(s, move[0]) == H)
        return zbc_fail(err, "illegal move: column %u is full", move[0] + 1);
    return 1;
}

static int c4_apply_move(struct zbc_game_state *st, uint8_t seat,
                         const uint8_t *move, size_t len,
                         struct zbc_roll *rolls, struct zbc_err *err)
{
    if (!c4_check_move(st, seat, move, len, err))
        return 0;
    struct c4 *s = mst(st);
    int c = free_row(s, move[0]) * W + move[0];
    s->cell[c] = (uint8_t)mark_to_move(s);
    s->last = (uint8_t)c;
    return 1;
}

static size_t c4_gen_moves(const struct zbc_game_state *st,
                           struct zbc_move *out, size_t cap)
{
    const struct c4 *s = cst(st);
    size_t n = 0;
    if (c4_turn(st) == ZBC_NOBODY)
        return 0;
    for (uint8_t col = 0; col < W && n < cap; col++) {
        if (free_row(s, col) < H) {
            out[n].len = 1;
            out[n].b[0] = col;
            n++;
        }
    }
    return n;
}

static size_t c4_encode(const struct zbc_game_state *st, uint8_t *out,
                        size_t cap)
{
    const struct c4 *s = cst(st);
    if (cap < STATE_BYTES)
        return 0;
    out[0] = s->x_seat;
    memcpy(out + 1, s->cell, CELLS);
    out[1 + CELLS] = s->last;
    return STATE_BYTES;
}

static int c4_decode(struct zbc_game_state *st, const uint8_t *in, size_t len,
                     struct zbc_err *err)
{
    struct c4 s;
    if (len != STATE_BYTES)
        return zbc_fail(err, "connect-4 state is %d bytes, got %zu",
                        STATE_BYTES, len);
    s.x_seat = in[0];
    memcpy(s.cell, in + 1, CELLS);
    s.last = in[1 + CELLS];
    if (s.x_seat > 1)
        return zbc_fail(err, "X seat %u out of range 0-1", s.x_seat);
    for (int i = 0; i < CELLS; i++) {
        if (s.cell[i] > O)
            return zbc_fail(err, "cell %d holds %u, not 0-2", i, s.cell[i]);
        if (s.cell[i] != EMPTY && i >= W && s.cell[i - W] == EMPTY)
            return zbc_fail(err, "disc in cell %d floats over an empty cell",
                            i);
    }
    int nx = count(&s, X), no = count(&s, O);
    if (nx != no && nx != no + 1)
        return zbc_fail(err, "%d X and %d O cannot happen (X moves first)", nx,
                        no);
    uint8_t before[CELLS];
    memcpy(before, s.cell, CELLS);
    if (nx + no == 0) {
        if (s.last != NONE)
            return zbc_fail(err, "last move %u on an empty board", s.last);
    } else {
        enum mark mover = nx > no ? X : O;
        if (s.last >= CELLS || s.cell[s.last] != mover)
            return zbc_fail(err, "last move %u is not a cell holding %c",
                            s.last, MARK_CHAR[mover]);
        if (s.last + W < CELLS && s.cell[s.last + W] != EMPTY)
            return zbc_fail(err, "last move %u is not the top disc of its "
                            "column", s.last);
        before[s.last] = EMPTY;
    }
    /* Without the last disc there is no line, or the game ended earlier. */
    int line = zbc_inrow_find_line(before, W, H, K);
    if (line >= 0)
        return zbc_fail(err, "cell %d is on a line made before the last move",
                        line);
    *mst(st) = s;
    return 1;
}

static void status_json(const struct zbc_game_state *st, struct zbc_text *t)
{
    const struct c4 *s = cst(st);
    struct zbc_result r;
    c4_result(st, &r);
    int turn = c4_turn(st);
    if (turn == ZBC_NOBODY)
        zbc_text_printf(t, "\"turn\":null,");
    else
        zbc_text_printf(t, "\"turn\":%d,", turn);
    if (s->last == NONE)
        zbc_text_printf(t, "\"last\":null,");
    else
        zbc_text_printf(t, "\"last\":\"%u\",", s->last % W + 1);
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
}

static int c4_to_json(const struct zbc_game_state *st, char *out, size_t cap)
{
    const struct c4 *s = cst(st);
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    /* rows listed from the top (row 6) down to the bottom (row 1) */
    zbc_text_printf(&t, "{\"game\":\"connect4\",\"x_seat\":%u,\"o_seat\":%u,"
                    "\"rows\":[", s->x_seat, 1 - s->x_seat);
    for (int y = H - 1; y >= 0; y--) {
        zbc_text_printf(&t, "%s\"", y < H - 1 ? "," : "");
        for (int x = 0; x < W; x++)
            zbc_text_printf(&t, "%c", MARK_CHAR[s->cell[y * W + x]]);
        zbc_text_printf(&t, "\"");
    }
    zbc_text_printf(&t, "],");
    status_json(st, &t);
    return zbc_text_result(&t);
}

static int c4_render(const struct zbc_game_state *st, char *out, size_t cap)
{
    const struct c4 *s = cst(st);
    struct zbc_text t;
    struct zbc_result r;
    zbc_text_init(&t, out, cap);
    for (int y = H - 1; y >= 0; y--) {
        zbc_text_printf(&t, "|");
        for (int x = 0; x < W; x++)
            zbc_text_printf(&t, " %c", MARK_CHAR[s->cell[y * W + x]]);
        zbc_text_printf(&t, " |\n");
    }
    zbc_text_printf(&t, "+---------------+\n  1 2 3 4 5 6 7\n");
    zbc_text_printf(&t, "X: seat %u, O: seat %u\n", s->x_seat,
                    1 - s->x_seat);
    if (s->last != NONE)
        zbc_text_printf(&t, "last move: %u\n", s->last % W + 1);
    c4_result(st, &r);
    switch (r.kind) {
    case ZBC_RESULT_ONGOING:
        zbc_text_printf(&t, "to move: seat %d (%c)\n", c4_turn(st),
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

static int c4_parse_move(const struct zbc_game_state *st, uint8_t seat,
                         const char *text, uint8_t *move, size_t cap,
                         size_t *len, struct zbc_err *err)
{
    uint64_t v;
    if (cap < 1)
        return zbc_fail(err, "move buffer too small");
    if (!zbc_parse_u64(text, 1, W, &v, "connect-4 column (1-7)", err))
        return 0;
    move[0] = (uint8_t)(v - 1);
    *len = 1;
    return 1;
}

static int c4_format_move(const struct zbc_game_state *st, const uint8_t *move,
                          size_t len, char *out, size_t cap)
{
    if (len != 1 || move[0] >= W || cap < 2)
        return 0;
    out[0] = (char)('1' + move[0]);
    out[1] = '\0';
    return 1;
}

/* Eval (docs/games.md, "Machine opponents"): open windows of four (1, 8,
 * 40 for one, two, three discs of one side) and 4 per disc in the centre
 * column, for `seat` minus for the other. */
static int32_t c4_eval(const struct zbc_game_state *st, uint8_t seat)
{
    static const int32_t WEIGHT[K + 1] = {0, 1, 8, 40, 0};
    const struct c4 *s = cst(st);
    uint8_t mine = seat == s->x_seat ? X : O;
    int32_t v = zbc_inrow_windows(s->cell, W, H, K, mine, WEIGHT);
    for (int r = 0; r < H; r++) {
        uint8_t c = s->cell[r * W + W / 2];
        v += c == EMPTY ? 0 : c == mine ? 4 : -4;
    }
    return v;
}

const struct zbc_engine zbc_engine_connect4 = {
    .state_size = sizeof(struct c4),
    .type = 3,
    .name = "connect4",
    .min_seats = 2,
    .max_seats = 2,
    .dice = false,
    .draws_first = true,
    .start_rolls = false,
    .check_params = c4_check_params,
    .init = c4_init,
    .turn = c4_turn,
    .result = c4_result,
    .check_move = c4_check_move,
    .apply_move = c4_apply_move,
    .gen_moves = c4_gen_moves,
    .encode = c4_encode,
    .decode = c4_decode,
    .to_json = c4_to_json,
    .render = c4_render,
    .parse_move = c4_parse_move,
    .format_move = c4_format_move,
    .eval = c4_eval,
};
