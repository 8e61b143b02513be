/* Tic-tac-toe (docs/games.md, "Tic-tac-toe (type 1)").  3x3, three in a row
 * wins, full board without a line is a draw.  The seat drawn first plays X.
 *
 * Cells 0-8 row-major from the top-left; notation "1"-"9" (cell + 1, laid
 * out like a phone keypad) or "a1"-"c3" (file = column, rank 1 = top row).
 * Canonical state bytes (11): x_seat u8, cell[9] u8 (0 empty, 1 X, 2 O),
 * last u8 (cell of the last move, 0xFF before the first move). */
#include <string.h>

#include "apps/engine.h"
#include "apps/games/inrow.h"
#include "apps/notation.h"
#include "crypto/bytes.h"

/* The descriptor at the end of this file (the shared steps take it). */
extern const struct zbc_engine zbc_engine_tictactoe;

#define N 3
#define CELLS 9
#define NONE 0xFF
#define STATE_BYTES (2 + CELLS)

enum mark { EMPTY = 0, X = 1, O = 2 };

struct ttt {
    uint8_t x_seat;
    uint8_t cell[CELLS];
    uint8_t last;
};
_Static_assert(sizeof(struct ttt) <= ZBC_GAME_STATE_MAX, "state too big");

static const char MARK_CHAR[] = {'.', 'X', 'O'};

static const struct ttt *cst(const struct zbc_game_state *st)
{
    return (const struct ttt *)st->b;
}

static struct ttt *mst(struct zbc_game_state *st)
{
    return (struct ttt *)st->b;
}

static int line_through(const uint8_t *b, int c)
{
    return zbc_inrow_run(b, N, N, c);
}

static int count(const struct ttt *s, enum mark m)
{
    int n = 0;
    for (int i = 0; i < CELLS; i++)
        n += s->cell[i] == m;
    return n;
}

/* The mark that has three in a row (EMPTY if none).  Only the last move can
 * have made a line, which decode() guarantees for stored states. */
static enum mark winner_mark(const struct ttt *s)
{
    if (s->last == NONE)
        return EMPTY;
    return line_through(s->cell, s->last) >= N ? (enum mark)s->cell[s->last]
                                                : EMPTY;
}

static uint8_t seat_of(const struct ttt *s, enum mark m)
{
    return m == X ? s->x_seat : (uint8_t)(1 - s->x_seat);
}

static int ttt_turn(const struct zbc_game_state *st)
{
    const struct ttt *s = cst(st);
    int nx = count(s, X), no = count(s, O);
    if (winner_mark(s) != EMPTY || nx + no == CELLS)
        return ZBC_NOBODY;
    return seat_of(s, nx == no ? X : O);
}

static void ttt_result(const struct zbc_game_state *st, struct zbc_result *out)
{
    const struct ttt *s = cst(st);
    enum mark w = winner_mark(s);
    out->out_mask = 0;
    out->winner = 0;
    if (w != EMPTY) {
        out->kind = ZBC_RESULT_WIN;
        out->winner = seat_of(s, w);
    } else if (count(s, X) + count(s, O) == CELLS) {
        out->kind = ZBC_RESULT_DRAW;
    } else {
        out->kind = ZBC_RESULT_ONGOING;
    }
}

static int ttt_check_params(uint8_t seats, const uint8_t *params, size_t len,
                            struct zbc_err *err)
{
    if (!zbc_engine_check_seats(&zbc_engine_tictactoe, seats, err))
        return 0;
    if (len != 0)
        return zbc_fail(err, "tic-tac-toe takes no params, got %zu bytes", len);
    return 1;
}

static int ttt_init(struct zbc_game_state *st, uint8_t seats,
                    const uint8_t *params, size_t len, uint8_t first,
                    struct zbc_roll *rolls, struct zbc_err *err)
{
    if (!ttt_check_params(seats, params, len, err))
        return 0;
    if (first > 1)
        return zbc_fail(err, "first seat %u out of range 0-1", first);
    struct ttt *s = mst(st);
    memset(s, 0, sizeof *s);
    s->x_seat = first;
    s->last = NONE;
    return 1;
}

static int ttt_check_move(const struct zbc_game_state *st, uint8_t seat,
                          const uint8_t *move, size_t len, struct zbc_err *err)
{
    const struct ttt *s = cst(st);
    int turn = ttt_turn(st);
    if (!zbc_engine_move_entry(&zbc_engine_tictactoe, turn, seat, len, err))
        return 0;
    if (len != 1)
        return zbc_fail(err, "a tic-tac-toe move is 1 byte (cell 0-8), got %zu",
                        len);
    if (move[0] >= CELLS)
        return zbc_fail(err, "cell %u out of range 0-8", move[0]);
    if (s->cell[move[0]] != EMPTY)
        return zbc_fail(err, "illegal move: square %u is taken by %c",
                        move[0] + 1, MARK_CHAR[s->cell[move[0]]]);
    return 1;
}

static int ttt_apply_move(struct zbc_game_state *st, uint8_t seat,
                          const uint8_t *move, size_t len,
                          struct zbc_roll *rolls, struct zbc_err *err)
{
    if (!ttt_check_move(st, seat, move, len, err))
        return 0;
    struct ttt *s = mst(st);
    s->cell[move[0]] = count(s, X) == count(s, O) ? X : O;
    s->last = move[0];
    return 1;
}

static size_t ttt_gen_moves(const struct zbc_game_state *st,
                            struct zbc_move *out, size_t cap)
{
    const struct ttt *s = cst(st);
    size_t n = 0;
    if (ttt_turn(st) == ZBC_NOBODY)
        return 0;
    for (uint8_t c = 0; c < CELLS && n < cap; c++) {
        if (s->cell[c] == EMPTY) {
            out[n].len = 1;
            out[n].b[0] = c;
            n++;
        }
    }
    return n;
}

static size_t ttt_encode(const struct zbc_game_state *st, uint8_t *out,
                         size_t cap)
{
    const struct ttt *s = cst(st);
    if (cap < STATE_BYTES)
        return 0;
    out[0] = s->x_seat;
    memcpy(out + 1, s->cell, CELLS);
    out[1 + CELLS] = s->last;
    return STATE_BYTES;
}

static int ttt_decode(struct zbc_game_state *st, const uint8_t *in, size_t len,
                      struct zbc_err *err)
{
    struct ttt s;
    if (len != STATE_BYTES)
        return zbc_fail(err, "tic-tac-toe state is %d bytes, got %zu",
                        STATE_BYTES, len);
    s.x_seat = in[0];
    memcpy(s.cell, in + 1, CELLS);
    s.last = in[1 + CELLS];
    if (s.x_seat > 1)
        return zbc_fail(err, "X seat %u out of range 0-1", s.x_seat);
    for (int i = 0; i < CELLS; i++)
        if (s.cell[i] > O)
            return zbc_fail(err, "cell %d holds %u, not 0-2", i, s.cell[i]);
    int nx = count(&s, X), no = count(&s, O);
    if (nx != no && nx != no + 1)
        return zbc_fail(err, "%d X and %d O cannot happen (X moves first)", nx,
                        no);
    if (nx + no == 0) {
        if (s.last != NONE)
            return zbc_fail(err, "last move %u on an empty board", s.last);
    } else {
        enum mark mover = nx > no ? X : O;
        if (s.last >= CELLS || s.cell[s.last] != mover)
            return zbc_fail(err, "last move %u is not a cell holding %c",
                            s.last, MARK_CHAR[mover]);
    }
    /* Only the last move may have completed a line: without it the board
     * has none, or the game would have ended earlier. */
    uint8_t before[CELLS];
    memcpy(before, s.cell, CELLS);
    if (s.last != NONE)
        before[s.last] = EMPTY;
    int line = zbc_inrow_find_line(before, N, N, N);
    if (line >= 0)
        return zbc_fail(err, "cell %d is on a line made before the last move",
                        line);
    *mst(st) = s;
    return 1;
}

static void status_text(const struct zbc_game_state *st, struct zbc_text *t,
                        bool json)
{
    const struct ttt *s = cst(st);
    struct zbc_result r;
    ttt_result(st, &r);
    int turn = ttt_turn(st);
    enum mark tm = count(s, X) == count(s, O) ? X : O;
    if (json) {
        if (turn == ZBC_NOBODY)
            zbc_text_printf(t, "\"turn\":null,");
        else
            zbc_text_printf(t, "\"turn\":%d,", turn);
        if (s->last == NONE)
            zbc_text_printf(t, "\"last\":null,");
        else
            zbc_text_printf(t, "\"last\":\"%u\",", s->last + 1);
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
    if (s->last != NONE)
        zbc_text_printf(t, "last move: %u\n", s->last + 1);
    switch (r.kind) {
    case ZBC_RESULT_ONGOING:
        zbc_text_printf(t, "to move: seat %d (%c)\n", turn, MARK_CHAR[tm]);
        break;
    case ZBC_RESULT_WIN:
        zbc_text_printf(t, "result: seat %u (%c) wins\n", r.winner,
                        MARK_CHAR[s->cell[s->last]]);
        break;
    case ZBC_RESULT_DRAW:
        zbc_text_printf(t, "result: draw\n");
        break;
    }
}

static int ttt_to_json(const struct zbc_game_state *st, char *out, size_t cap)
{
    const struct ttt *s = cst(st);
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    zbc_text_printf(&t, "{\"game\":\"tictactoe\",\"x_seat\":%u,\"o_seat\":%u,"
                    "\"rows\":[", s->x_seat, 1 - s->x_seat);
    for (int y = 0; y < N; y++)
        zbc_text_printf(&t, "%s\"%c%c%c\"", y ? "," : "",
                        MARK_CHAR[s->cell[y * N]], MARK_CHAR[s->cell[y * N + 1]],
                        MARK_CHAR[s->cell[y * N + 2]]);
    zbc_text_printf(&t, "],");
    status_text(st, &t, true);
    return zbc_text_result(&t);
}

static int ttt_render(const struct zbc_game_state *st, char *out, size_t cap)
{
    const struct ttt *s = cst(st);
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    /* Empty squares show their keypad number. */
    zbc_text_printf(&t, "    a   b   c\n");
    for (int y = 0; y < N; y++) {
        zbc_text_printf(&t, "%d ", y + 1);
        for (int x = 0; x < N; x++) {
            int c = y * N + x;
            char ch = s->cell[c] == EMPTY ? (char)('1' + c)
                                          : MARK_CHAR[s->cell[c]];
            zbc_text_printf(&t, "%s %c ", x ? "|" : "", ch);
        }
        zbc_text_printf(&t, "\n%s", y < N - 1 ? "  ---+---+---\n" : "");
    }
    zbc_text_printf(&t, "X: seat %u, O: seat %u\n", s->x_seat,
                    1 - s->x_seat);
    status_text(st, &t, false);
    return zbc_text_result(&t);
}

static int ttt_parse_move(const struct zbc_game_state *st, uint8_t seat,
                          const char *text, uint8_t *move, size_t cap,
                          size_t *len, struct zbc_err *err)
{
    uint64_t v;
    unsigned cell;
    if (cap < 1)
        return zbc_fail(err, "move buffer too small");
    if (text[0] >= '0' && text[0] <= '9') {
        if (!zbc_parse_u64(text, 1, CELLS, &v,
                           "tic-tac-toe square (1-9 or a1-c3)", err))
            return 0;
        cell = (unsigned)v - 1;
    } else if (!zbc_notation_parse_square(text, N, N, &cell, err)) {
        return zbc_fail_prefix(err, "tic-tac-toe square (1-9 or a1-c3)");
    }
    move[0] = (uint8_t)cell;
    *len = 1;
    return 1;
}

static int ttt_format_move(const struct zbc_game_state *st,
                           const uint8_t *move, size_t len, char *out,
                           size_t cap)
{
    if (len != 1 || move[0] >= CELLS || cap < 2)
        return 0;
    out[0] = (char)('1' + move[0]);
    out[1] = '\0';
    return 1;
}

const struct zbc_engine zbc_engine_tictactoe = {
    .state_size = sizeof(struct ttt),
    .type = 1,
    .name = "tictactoe",
    .min_seats = 2,
    .max_seats = 2,
    .dice = false,
    .draws_first = true,
    .start_rolls = false,
    .check_params = ttt_check_params,
    .init = ttt_init,
    .turn = ttt_turn,
    .result = ttt_result,
    .check_move = ttt_check_move,
    .apply_move = ttt_apply_move,
    .gen_moves = ttt_gen_moves,
    .encode = ttt_encode,
    .decode = ttt_decode,
    .to_json = ttt_to_json,
    .render = ttt_render,
    .parse_move = ttt_parse_move,
    .format_move = ttt_format_move,
};
