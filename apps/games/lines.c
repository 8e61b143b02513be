/* Lines (type 10): a Color Lines duel for 2-4 seats (docs/games.md,
 * section "Lines (type 10)").
 *
 * Every seat has its own 9x9 board; all boards start from the same five
 * balls, drawn once at activation from the start roll stream.  A move takes
 * one of the mover's balls along a free 4-neighbour path to an empty cell.
 * Five or more balls of one colour in a row (row, column or diagonal) that
 * include the moved ball vanish and score one point per ball; otherwise
 * three balls of random colours appear on random empty cells, and lines
 * through the new balls vanish and score the same way.  A board that is
 * empty after a move also receives three balls, and so does one that the
 * spawned balls' lines emptied.  A seat whose board is
 * full is out of moves.  Seats move in turn (from the drawn first seat)
 * until each has made `rounds` moves or is out; the highest score wins and
 * an equal highest score is a draw. */
#include <string.h>

#include "apps/engine.h"
#include "apps/notation.h"
#include "crypto/bytes.h"

/* The descriptor at the end of this file (the shared steps take it). */
extern const struct zbc_engine zbc_engine_lines;

#define SIDE 9
#define CELLS (SIDE * SIDE)
#define COLOURS 7
#define START_BALLS 5
#define SPAWN_BALLS 3
#define LINE_MIN 5
#define ROUNDS_DEFAULT 30
#define ROUNDS_MAX 100
#define NONE 0xff

struct lines_state {
    uint8_t seats;
    uint8_t first;
    uint8_t rounds;
    uint8_t to_move;  /* seat, or NONE when the game is over */
    uint8_t out_mask; /* seats whose board filled */
    uint8_t moves_made[ZBC_SEATS_MAX];
    uint16_t score[ZBC_SEATS_MAX];
    uint8_t board[ZBC_SEATS_MAX][CELLS]; /* 0 empty, 1..7 colour */
    uint8_t last_seat, last_from, last_to; /* NONE before the first move */
};

_Static_assert(sizeof(struct lines_state) <= ZBC_GAME_STATE_MAX,
               "lines state fits the engine buffer");

static const struct lines_state *cst(const struct zbc_game_state *g)
{
    return (const struct lines_state *)g->b;
}

static int check_params(uint8_t seats, const uint8_t *params, size_t len,
                        struct zbc_err *err)
{
    if (!zbc_engine_check_seats(&zbc_engine_lines, seats, err))
        return 0;
    if (len > 1)
        return zbc_fail(err, "lines params: at most one byte (rounds), got %zu", len);
    if (len == 1 && (params[0] < 1 || params[0] > ROUNDS_MAX))
        return zbc_fail(err, "lines params: rounds %u out of range 1-%d", params[0],
                        ROUNDS_MAX);
    return 1;
}

static unsigned count_balls(const uint8_t *b)
{
    unsigned n = 0;
    for (unsigned i = 0; i < CELLS; i++)
        n += b[i] != 0;
    return n;
}

/* Places `n` random balls: for each, colour = 1 + uniform(7), then the
 * uniform(free)-th empty cell in cell order.  Stops early when the board
 * is full.  Records the cells placed in `placed`. */
static int spawn(uint8_t *b, unsigned n, struct zbc_roll *r, uint8_t *placed,
                 unsigned *nplaced, struct zbc_err *err)
{
    *nplaced = 0;
    for (unsigned k = 0; k < n; k++) {
        unsigned free_cells = CELLS - count_balls(b);
        if (free_cells == 0)
            break;
        uint32_t colour, idx;
        if (!zbc_roll_uniform(r, COLOURS, &colour) ||
            !zbc_roll_uniform(r, free_cells, &idx))
            return zbc_fail(err, "roll stream exhausted");
        for (unsigned c = 0; c < CELLS; c++) {
            if (b[c] != 0)
                continue;
            if (idx-- == 0) {
                b[c] = (uint8_t)(colour + 1);
                placed[(*nplaced)++] = (uint8_t)c;
                break;
            }
        }
    }
    return 1;
}

/* Marks in `mark` every ball of a run of LINE_MIN or more through `cell`. */
static void mark_lines(const uint8_t *b, unsigned cell, uint8_t *mark)
{
    static const int dirs[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    uint8_t colour = b[cell];
    if (colour == 0)
        return;
    int r0 = (int)(cell / SIDE), c0 = (int)(cell % SIDE);
    for (int d = 0; d < 4; d++) {
        int dr = dirs[d][0], dc = dirs[d][1];
        int lo = 0, hi = 0;
        while (1) {
            int r = r0 - (lo + 1) * dr, c = c0 - (lo + 1) * dc;
            if (r < 0 || r >= SIDE || c < 0 || c >= SIDE || b[r * SIDE + c] != colour)
                break;
            lo++;
        }
        while (1) {
            int r = r0 + (hi + 1) * dr, c = c0 + (hi + 1) * dc;
            if (r < 0 || r >= SIDE || c < 0 || c >= SIDE || b[r * SIDE + c] != colour)
                break;
            hi++;
        }
        if (lo + hi + 1 >= LINE_MIN)
            for (int k = -lo; k <= hi; k++)
                mark[(r0 + k * dr) * SIDE + (c0 + k * dc)] = 1;
    }
}

/* Removes the lines through the given cells; returns the balls removed. */
static unsigned clear_lines(uint8_t *b, const uint8_t *cells, unsigned n)
{
    uint8_t mark[CELLS];
    memset(mark, 0, sizeof mark);
    for (unsigned i = 0; i < n; i++)
        mark_lines(b, cells[i], mark);
    unsigned removed = 0;
    for (unsigned c = 0; c < CELLS; c++)
        if (mark[c]) {
            b[c] = 0;
            removed++;
        }
    return removed;
}

/* Cells reachable from `from` through empty cells (4-neighbour). */
static void reachable(const uint8_t *b, unsigned from, uint8_t *seen)
{
    uint8_t queue[CELLS];
    unsigned head = 0, tail = 0;
    memset(seen, 0, CELLS);
    queue[tail++] = (uint8_t)from;
    seen[from] = 1;
    while (head < tail) {
        unsigned c = queue[head++], r = c / SIDE, col = c % SIDE;
        unsigned nb[4];
        unsigned k = 0;
        if (r > 0)
            nb[k++] = c - SIDE;
        if (r + 1 < SIDE)
            nb[k++] = c + SIDE;
        if (col > 0)
            nb[k++] = c - 1;
        if (col + 1 < SIDE)
            nb[k++] = c + 1;
        for (unsigned i = 0; i < k; i++)
            if (!seen[nb[i]] && b[nb[i]] == 0) {
                seen[nb[i]] = 1;
                queue[tail++] = (uint8_t)nb[i];
            }
    }
}

static bool may_move(const struct lines_state *s, unsigned seat)
{
    return !(s->out_mask >> seat & 1) && s->moves_made[seat] < s->rounds;
}

/* The next seat after `seat` (cyclic) that may still move, or NONE. */
static uint8_t next_seat(const struct lines_state *s, unsigned seat)
{
    for (unsigned k = 1; k <= s->seats; k++) {
        unsigned t = (seat + k) % s->seats;
        if (may_move(s, t))
            return (uint8_t)t;
    }
    return NONE;
}

static int init(struct zbc_game_state *g, uint8_t seats, const uint8_t *params,
                size_t len, uint8_t first, struct zbc_roll *rolls,
                struct zbc_err *err)
{
    if (!check_params(seats, params, len, err))
        return 0;
    if (first >= seats)
        return zbc_fail(err, "first seat %u out of range for %u seats", first, seats);
    if (rolls == NULL)
        return zbc_fail(err, "lines needs a roll stream to draw the start position");
    struct lines_state s;
    memset(&s, 0, sizeof s);
    s.seats = seats;
    s.first = first;
    s.rounds = len == 1 ? params[0] : ROUNDS_DEFAULT;
    uint8_t placed[START_BALLS];
    unsigned n;
    if (!spawn(s.board[0], START_BALLS, rolls, placed, &n, err))
        return 0;
    for (unsigned i = 1; i < seats; i++)
        memcpy(s.board[i], s.board[0], CELLS);
    s.to_move = first;
    s.last_seat = s.last_from = s.last_to = NONE;
    memset(g->b, 0, sizeof(struct lines_state));
    memcpy(g->b, &s, sizeof s);
    return 1;
}

static int turn(const struct zbc_game_state *g)
{
    const struct lines_state *s = cst(g);
    return s->to_move == NONE ? ZBC_NOBODY : s->to_move;
}

static void result(const struct zbc_game_state *g, struct zbc_result *out)
{
    const struct lines_state *s = cst(g);
    memset(out, 0, sizeof *out);
    out->out_mask = s->out_mask;
    if (s->to_move != NONE) {
        out->kind = ZBC_RESULT_ONGOING;
        return;
    }
    unsigned best = 0, nbest = 0, who = 0;
    for (unsigned i = 0; i < s->seats; i++) {
        if (s->score[i] > best || i == 0) {
            best = s->score[i];
            nbest = 1;
            who = i;
        } else if (s->score[i] == best) {
            nbest++;
        }
    }
    if (nbest == 1) {
        out->kind = ZBC_RESULT_WIN;
        out->winner = (uint8_t)who;
    } else {
        out->kind = ZBC_RESULT_DRAW;
    }
}

static int check_move(const struct zbc_game_state *g, uint8_t seat,
                      const uint8_t *mv, size_t len, struct zbc_err *err)
{
    const struct lines_state *s = cst(g);
    if (!zbc_engine_move_entry(&zbc_engine_lines, turn(g), seat, len, err))
        return 0;
    if (len != 2)
        return zbc_fail(err, "a lines move is 2 bytes (from, to), got %zu", len);
    if (mv[0] >= CELLS || mv[1] >= CELLS)
        return zbc_fail(err, "cell out of range 0-80");
    const uint8_t *b = s->board[seat];
    if (b[mv[0]] == 0)
        return zbc_fail(err, "no ball on the from cell");
    if (b[mv[1]] != 0)
        return zbc_fail(err, "the target cell is not empty");
    uint8_t seen[CELLS];
    reachable(b, mv[0], seen);
    if (!seen[mv[1]])
        return zbc_fail(err, "no free path from the ball to the target cell");
    return 1;
}

static int apply_move(struct zbc_game_state *g, uint8_t seat, const uint8_t *mv,
                      size_t len, struct zbc_roll *rolls, struct zbc_err *err)
{
    if (!check_move(g, seat, mv, len, err))
        return 0;
    if (rolls == NULL)
        return zbc_fail(err, "lines moves need a roll stream");
    struct lines_state s = *cst(g);
    uint8_t *b = s.board[seat];
    b[mv[1]] = b[mv[0]];
    b[mv[0]] = 0;
    unsigned removed = clear_lines(b, &mv[1], 1);
    if (removed == 0 || count_balls(b) == 0) {
        uint8_t placed[SPAWN_BALLS];
        unsigned n;
        if (!spawn(b, SPAWN_BALLS, rolls, placed, &n, err))
            return 0;
        removed += clear_lines(b, placed, n);
        /* The spawned balls may have completed lines with every ball left:
         * an empty board would leave the seat nothing to move, so three
         * more spawn (three balls on an empty board make no line). */
        if (count_balls(b) == 0 &&
            !spawn(b, SPAWN_BALLS, rolls, placed, &n, err))
            return 0;
    }
    if (s.score[seat] > UINT16_MAX - removed)
        return zbc_fail(err, "score overflow");
    s.score[seat] = (uint16_t)(s.score[seat] + removed);
    s.moves_made[seat]++;
    if (count_balls(b) == CELLS)
        s.out_mask |= (uint8_t)(1u << seat);
    s.last_seat = seat;
    s.last_from = mv[0];
    s.last_to = mv[1];
    s.to_move = next_seat(&s, seat);
    memcpy(g->b, &s, sizeof s);
    return 1;
}

static size_t gen_moves(const struct zbc_game_state *g, struct zbc_move *out,
                        size_t cap)
{
    const struct lines_state *s = cst(g);
    if (s->to_move == NONE)
        return 0;
    const uint8_t *b = s->board[s->to_move];
    size_t n = 0;
    uint8_t seen[CELLS];
    for (unsigned from = 0; from < CELLS; from++) {
        if (b[from] == 0)
            continue;
        reachable(b, from, seen);
        for (unsigned to = 0; to < CELLS; to++) {
            if (to == from || !seen[to])
                continue;
            if (n == cap)
                return n;
            out[n].len = 2;
            out[n].b[0] = (uint8_t)from;
            out[n].b[1] = (uint8_t)to;
            n++;
        }
    }
    return n;
}

/* Canonical bytes: seats, first, rounds, to_move, out_mask, last_seat,
 * last_from, last_to, then per seat: moves_made u8, score u16 LE, 81 board
 * bytes. */
static size_t encode(const struct zbc_game_state *g, uint8_t *out, size_t cap)
{
    const struct lines_state *s = cst(g);
    size_t need = 8 + (size_t)s->seats * (3 + CELLS);
    if (cap < need)
        return 0;
    size_t p = 0;
    out[p++] = s->seats;
    out[p++] = s->first;
    out[p++] = s->rounds;
    out[p++] = s->to_move;
    out[p++] = s->out_mask;
    out[p++] = s->last_seat;
    out[p++] = s->last_from;
    out[p++] = s->last_to;
    for (unsigned i = 0; i < s->seats; i++) {
        out[p++] = s->moves_made[i];
        zbc_put_le16(out + p, s->score[i]);
        p += 2;
        memcpy(out + p, s->board[i], CELLS);
        p += CELLS;
    }
    return p;
}

static int decode(struct zbc_game_state *g, const uint8_t *in, size_t len,
                  struct zbc_err *err)
{
    struct lines_state s;
    memset(&s, 0, sizeof s);
    if (len < 8)
        return zbc_fail(err, "lines state: truncated header");
    s.seats = in[0];
    s.first = in[1];
    s.rounds = in[2];
    s.to_move = in[3];
    s.out_mask = in[4];
    s.last_seat = in[5];
    s.last_from = in[6];
    s.last_to = in[7];
    if (s.seats < 2 || s.seats > 4)
        return zbc_fail(err, "lines state: bad seat count %u", s.seats);
    if (len != 8 + (size_t)s.seats * (3 + CELLS))
        return zbc_fail(err, "lines state: %zu bytes, expected %zu", len,
                        8 + (size_t)s.seats * (3 + CELLS));
    if (s.first >= s.seats || s.rounds < 1 || s.rounds > ROUNDS_MAX)
        return zbc_fail(err, "lines state: bad first seat or rounds");
    if (s.out_mask >> s.seats)
        return zbc_fail(err, "lines state: out mask names a missing seat");
    size_t p = 8;
    unsigned total_moves = 0;
    for (unsigned i = 0; i < s.seats; i++) {
        s.moves_made[i] = in[p++];
        s.score[i] = zbc_get_le16(in + p);
        p += 2;
        memcpy(s.board[i], in + p, CELLS);
        p += CELLS;
        if (s.moves_made[i] > s.rounds)
            return zbc_fail(err, "lines state: seat %u made more moves than rounds", i);
        total_moves += s.moves_made[i];
        unsigned balls = 0;
        for (unsigned c = 0; c < CELLS; c++) {
            if (s.board[i][c] > COLOURS)
                return zbc_fail(err, "lines state: bad colour on seat %u's board", i);
            balls += s.board[i][c] != 0;
        }
        if ((s.out_mask >> i & 1) != (balls == CELLS))
            return zbc_fail(err, "lines state: seat %u's out flag disagrees with its board", i);
    }
    if (total_moves == 0) {
        if (s.last_seat != NONE || s.last_from != NONE || s.last_to != NONE)
            return zbc_fail(err, "lines state: a last move before any move");
        if (s.to_move != s.first)
            return zbc_fail(err, "lines state: the first move belongs to the first seat");
    } else {
        if (s.last_seat >= s.seats || s.last_from >= CELLS || s.last_to >= CELLS ||
            s.last_from == s.last_to || s.moves_made[s.last_seat] == 0)
            return zbc_fail(err, "lines state: bad last move");
        if (s.to_move != next_seat(&s, s.last_seat))
            return zbc_fail(err, "lines state: seat to move disagrees with the turn order");
    }
    memset(g->b, 0, sizeof(struct lines_state));
    memcpy(g->b, &s, sizeof s);
    return 1;
}

static int to_json(const struct zbc_game_state *g, char *out, size_t cap)
{
    const struct lines_state *s = cst(g);
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    zbc_text_printf(&t, "{\"game\":\"lines\",\"seats\":%u,\"rounds\":%u,\"first\":%u,",
                    s->seats, s->rounds, s->first);
    if (s->to_move == NONE)
        zbc_text_printf(&t, "\"to_move\":null,");
    else
        zbc_text_printf(&t, "\"to_move\":%u,", s->to_move);
    zbc_text_printf(&t, "\"players\":[");
    for (unsigned i = 0; i < s->seats; i++) {
        zbc_text_printf(&t, "%s{\"seat\":%u,\"score\":%u,\"moves_made\":%u,\"out\":%s,\"board\":\"",
                        i ? "," : "", i, s->score[i], s->moves_made[i],
                        (s->out_mask >> i & 1) ? "true" : "false");
        for (unsigned c = 0; c < CELLS; c++)
            zbc_text_printf(&t, "%c", s->board[i][c] ? (char)('0' + s->board[i][c]) : '.');
        zbc_text_printf(&t, "\"}");
    }
    zbc_text_printf(&t, "],");
    if (s->last_seat == NONE) {
        zbc_text_printf(&t, "\"last_move\":null}");
    } else {
        char a[8], b[8];
        if (!zbc_notation_format_square(s->last_from, SIDE, a, sizeof a) ||
            !zbc_notation_format_square(s->last_to, SIDE, b, sizeof b))
            return -1;
        zbc_text_printf(&t, "\"last_move\":{\"seat\":%u,\"move\":\"%s %s\"}}", s->last_seat, a, b);
    }
    return zbc_text_result(&t);
}

static int render(const struct zbc_game_state *g, char *out, size_t cap)
{
    const struct lines_state *s = cst(g);
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    for (unsigned i = 0; i < s->seats; i++) {
        zbc_text_printf(&t, "seat %u: score %u, moves %u/%u%s%s\n", i, s->score[i],
                        s->moves_made[i], s->rounds,
                        (s->out_mask >> i & 1) ? ", out (board full)" : "",
                        s->to_move == i ? "  <- to move" : "");
        for (int r = 0; r < SIDE; r++) {
            zbc_text_printf(&t, "  %d ", r + 1);
            for (int c = 0; c < SIDE; c++) {
                uint8_t v = s->board[i][r * SIDE + c];
                zbc_text_printf(&t, " %c", v ? (char)('0' + v) : '.');
            }
            zbc_text_printf(&t, "\n");
        }
        zbc_text_printf(&t, "     a b c d e f g h i\n");
    }
    if (s->to_move == NONE) {
        struct zbc_result res;
        result(g, &res);
        if (res.kind == ZBC_RESULT_WIN)
            zbc_text_printf(&t, "game over: seat %u wins\n", res.winner);
        else
            zbc_text_printf(&t, "game over: draw\n");
    }
    return zbc_text_result(&t);
}

static int parse_move(const struct zbc_game_state *g, uint8_t seat,
                      const char *text, uint8_t *mv, size_t cap, size_t *len,
                      struct zbc_err *err)
{
    struct zbc_tokens tk;
    if (!zbc_notation_tokens(&tk, text, err))
        return 0;
    if (tk.count != 2)
        return zbc_fail(err, "a lines move is two squares, e.g. \"c3 g7\"");
    if (cap < 2)
        return zbc_fail(err, "move buffer too small");
    unsigned a, b;
    if (!zbc_notation_parse_square(tk.tok[0], SIDE, SIDE, &a, err) ||
        !zbc_notation_parse_square(tk.tok[1], SIDE, SIDE, &b, err))
        return 0;
    mv[0] = (uint8_t)a;
    mv[1] = (uint8_t)b;
    *len = 2;
    return 1;
}

static int format_move(const struct zbc_game_state *g, const uint8_t *mv,
                       size_t len, char *out, size_t cap)
{
    char a[8], b[8];
    if (len != 2 || mv[0] >= CELLS || mv[1] >= CELLS ||
        !zbc_notation_format_square(mv[0], SIDE, a, sizeof a) ||
        !zbc_notation_format_square(mv[1], SIDE, b, sizeof b))
        return 0;
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    zbc_text_printf(&t, "%s %s", a, b);
    return zbc_text_result(&t) >= 0;
}

const struct zbc_engine zbc_engine_lines = {
    .state_size = sizeof(struct lines_state),
    .type = 10,
    .name = "lines",
    .min_seats = 2,
    .max_seats = 4,
    .dice = true,
    .draws_first = true,
    .start_rolls = true,
    .secret_moves = false,
    .check_params = check_params,
    .init = init,
    .turn = turn,
    .result = result,
    .check_move = check_move,
    .apply_move = apply_move,
    .gen_moves = gen_moves,
    .encode = encode,
    .decode = decode,
    .to_json = to_json,
    .render = render,
    .parse_move = parse_move,
    .format_move = format_move,
    .params_word = zbc_engine_rounds_word,
    .params_text = zbc_engine_rounds_text,
};
