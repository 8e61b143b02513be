/* Lines (type 10): start position, moves along free paths, lines of five
 * vanishing and scoring, spawns from the roll stream, full boards, endings,
 * notation and the state encoding. */
#include "apps/engine.h"
#include "crypto/bytes.h"
#include "testlib.h"

#define CELLS 81
#define HDR 8

static const struct zbc_engine *E;

/* Builds state bytes: header then per seat moves, score, board. */
struct spec {
    uint8_t seats, first, rounds, to_move, out_mask, last_seat, last_from, last_to;
    uint8_t moves[4];
    uint16_t score[4];
    uint8_t board[4][CELLS];
};

static size_t spec_bytes(const struct spec *s, uint8_t *out)
{
    size_t p = 0;
    out[p++] = s->seats;
    out[p++] = s->first;
    out[p++] = s->rounds;
    out[p++] = s->to_move;
    out[p++] = s->out_mask;
    out[p++] = s->last_seat;
    out[p++] = s->last_from;
    out[p++] = s->last_to;
    for (int i = 0; i < s->seats; i++) {
        out[p++] = s->moves[i];
        zbc_put_le16(out + p, s->score[i]);
        p += 2;
        memcpy(out + p, s->board[i], CELLS);
        p += CELLS;
    }
    return p;
}

static void fresh_spec(struct spec *s)
{
    memset(s, 0, sizeof *s);
    s->seats = 2;
    s->rounds = 30;
    s->last_seat = s->last_from = s->last_to = 0xff;
}

static int load(struct zbc_game_state *st, const struct spec *s)
{
    uint8_t buf[1024];
    size_t n = spec_bytes(s, buf);
    struct zbc_err err;
    if (!E->decode(st, buf, n, &err)) {
        fprintf(stderr, "decode: %s\n", err.msg);
        return 0;
    }
    return 1;
}

static int mv(struct zbc_game_state *st, uint8_t seat, const char *text,
              struct zbc_roll *r, struct zbc_err *err)
{
    uint8_t m[4];
    size_t len;
    if (!E->parse_move(st, seat, text, m, sizeof m, &len, err))
        return 0;
    return E->apply_move(st, seat, m, len, r, err);
}

static void test_start(void)
{
    static struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_roll r;
    /* literal stream: colour bytes and cell indexes for 5 balls */
    uint8_t lit[] = {0, 0, 1, 0, 2, 0, 3, 0, 4, 0};
    CHECK(zbc_roll_init_literal(&r, lit, sizeof lit));
    CHECK(E->init(&st, 3, NULL, 0, 1, &r, &err));
    CHECK_EQ_INT(E->turn(&st), 1);
    uint8_t buf[1024];
    size_t n = E->encode(&st, buf, sizeof buf);
    CHECK_EQ_INT(n, HDR + 3 * (3 + CELLS));
    /* colours 1..5 on cells 0..4 (each draw picks the first free cell) */
    for (int seat = 0; seat < 3; seat++) {
        const uint8_t *b = buf + HDR + seat * (3 + CELLS) + 3;
        for (int c = 0; c < 5; c++)
            CHECK_EQ_INT(b[c], c + 1);
        for (int c = 5; c < CELLS; c++)
            CHECK_EQ_INT(b[c], 0);
    }
    CHECK_EQ_INT(buf[2], 30); /* default rounds */
    /* too few roll bytes: init fails */
    CHECK(zbc_roll_init_literal(&r, lit, 5));
    CHECK(!E->init(&st, 2, NULL, 0, 0, &r, &err));
    CHECK(strstr(err.msg, "exhausted") != NULL);
    CHECK(!E->init(&st, 2, NULL, 0, 0, NULL, &err));
    uint8_t p = 5;
    CHECK(zbc_roll_init_literal(&r, lit, sizeof lit));
    CHECK(E->init(&st, 2, &p, 1, 0, &r, &err));
    CHECK_EQ_INT(E->encode(&st, buf, sizeof buf) > 2 ? buf[2] : 0, 5);
}

static void test_line_scores_without_spawn(void)
{
    static struct zbc_game_state st;
    struct spec s;
    struct zbc_err err;
    struct zbc_roll none;
    fresh_spec(&s);
    /* seat 0: four colour-3 balls on a1..d1 (cells 0-3) and one on e5 */
    for (int c = 0; c < 4; c++)
        s.board[0][c] = 3;
    s.board[0][4 * 9 + 4] = 3;
    s.board[0][80] = 2;
    s.board[1][40] = 1;
    CHECK(load(&st, &s));
    CHECK(zbc_roll_init_literal(&none, NULL, 0));
    /* e5 -> e1 completes a row of five: they vanish, no roll is needed */
    int ok = mv(&st, 0, "e5 e1", &none, &err);
    if (!ok)
        fprintf(stderr, "e5 e1: %s\n", err.msg);
    CHECK(ok);
    char json[4096];
    CHECK(E->to_json(&st, json, sizeof json) > 0);
    CHECK(strstr(json, "\"seat\":0,\"score\":5,\"moves_made\":1") != NULL);
    CHECK_EQ_INT(E->turn(&st), 1);
    /* only the unrelated ball on i9 is left on seat 0's board */
    uint8_t buf[1024];
    E->encode(&st, buf, sizeof buf);
    for (int c = 0; c < CELLS; c++)
        CHECK_EQ_INT(buf[HDR + 3 + c], c == 80 ? 2 : 0);
    /* a move that clears the last ball refills the board with three */
    struct spec s2;
    fresh_spec(&s2);
    for (int c = 0; c < 4; c++)
        s2.board[0][c] = 5;
    s2.board[0][40] = 5;
    s2.board[1][40] = 1;
    CHECK(load(&st, &s2));
    CHECK(!mv(&st, 0, "e5 e1", &none, &err));
    CHECK(strstr(err.msg, "exhausted") != NULL);
    uint8_t lit[] = {0, 0, 0, 0, 0, 0};
    struct zbc_roll r;
    CHECK(zbc_roll_init_literal(&r, lit, sizeof lit));
    CHECK(mv(&st, 0, "e5 e1", &r, &err));
    E->encode(&st, buf, sizeof buf);
    for (int c = 0; c < CELLS; c++)
        CHECK_EQ_INT(buf[HDR + 3 + c], c < 3 ? 1 : 0);
}

static void test_no_line_spawns(void)
{
    static struct zbc_game_state st;
    struct spec s;
    struct zbc_err err;
    struct zbc_roll r;
    fresh_spec(&s);
    s.board[0][0] = 1;
    s.board[1][0] = 1;
    CHECK(load(&st, &s));
    /* three spawns: (colour byte, cell index byte) each; 252+ is rejected */
    uint8_t lit[] = {253, 6, 0, 1, 0, 0, 0};
    CHECK(zbc_roll_init_literal(&r, lit, sizeof lit));
    CHECK(mv(&st, 0, "a1 i9", &r, &err));
    uint8_t buf[1024];
    E->encode(&st, buf, sizeof buf);
    const uint8_t *b = buf + HDR + 3;
    CHECK_EQ_INT(b[80], 1);
    CHECK_EQ_INT(b[0], 7); /* 253 rejected, 6 -> colour 7 on free cell #0 */
    CHECK_EQ_INT(b[1], 2); /* colour 2 on free cell #0 (cell 1) */
    CHECK_EQ_INT(b[2], 1); /* colour 1 on free cell #0 (cell 2) */
    /* an exhausted stream refuses the move and changes nothing */
    uint8_t before[1024], after[1024];
    size_t nb = E->encode(&st, before, sizeof before);
    CHECK(zbc_roll_init_literal(&r, lit, 2));
    CHECK(!mv(&st, 1, "a1 a2", &r, &err));
    CHECK(strstr(err.msg, "exhausted") != NULL);
    CHECK_EQ_INT(E->encode(&st, after, sizeof after), nb);
    CHECK_EQ_MEM(before, after, nb);
}

static void test_bad_moves(void)
{
    static struct zbc_game_state st;
    struct spec s;
    struct zbc_err err;
    struct zbc_roll r;
    fresh_spec(&s);
    /* a ball at a1 walled in by balls at a2 and b1 */
    s.board[0][0] = 1;
    s.board[0][1] = 2;
    s.board[0][9] = 2;
    s.board[1][0] = 1;
    CHECK(load(&st, &s));
    uint8_t lit[64] = {0};
    CHECK(zbc_roll_init_literal(&r, lit, sizeof lit));
    CHECK(!mv(&st, 0, "a1 e5", &r, &err));
    CHECK(strstr(err.msg, "no free path") != NULL);
    CHECK(!mv(&st, 0, "c3 e5", &r, &err));
    CHECK(strstr(err.msg, "no ball") != NULL);
    CHECK(!mv(&st, 0, "b1 a2", &r, &err));
    CHECK(strstr(err.msg, "not empty") != NULL);
    CHECK(!mv(&st, 1, "a1 e5", &r, &err));
    CHECK(strstr(err.msg, "turn") != NULL);
    uint8_t m[3] = {0, 1, 2};
    CHECK(!E->check_move(&st, 0, m, 3, &err));
    m[0] = 81;
    CHECK(!E->check_move(&st, 0, m, 2, &err));
    CHECK(!E->apply_move(&st, 0, (const uint8_t[]){1, 40}, 2, NULL, &err));
    size_t len;
    uint8_t out[4];
    CHECK(!E->parse_move(&st, 0, "a1", out, sizeof out, &len, &err));
    CHECK(!E->parse_move(&st, 0, "a1 j1", out, sizeof out, &len, &err));
    CHECK(!E->parse_move(&st, 0, "a0 b1", out, sizeof out, &len, &err));
    CHECK(E->parse_move(&st, 0, "c3 g7", out, sizeof out, &len, &err));
    CHECK_EQ_INT(len, 2);
    CHECK_EQ_INT(out[0], 2 * 9 + 2);
    CHECK_EQ_INT(out[1], 6 * 9 + 6);
    char text[16];
    CHECK(E->format_move(&st, out, len, text, sizeof text));
    CHECK_EQ_STR(text, "c3 g7");
}

static void test_full_board_and_endings(void)
{
    static struct zbc_game_state st;
    struct spec s;
    struct zbc_err err;
    struct zbc_roll r;
    fresh_spec(&s);
    s.rounds = 2;
    /* seat 0: 77 balls in a pattern with no five in a row, 4 empty cells */
    for (int c = 0; c < CELLS; c++)
        s.board[0][c] = (uint8_t)(1 + (c % 9 + 2 * (c / 9)) % 7);
    s.board[0][80] = 0;
    s.board[0][79] = 0;
    s.board[0][78] = 0;
    s.board[1][0] = 1;
    s.score[1] = 3;
    CHECK(load(&st, &s));
    /* seat 0 moves a ball (i8 -> i9 is 71 -> 80) and three spawns fill the
     * board: seat 0 is out */
    uint8_t lit[] = {6, 0, 6, 0, 6, 0, 0, 0, 0, 0, 0, 0};
    CHECK(zbc_roll_init_literal(&r, lit, sizeof lit));
    int rc = mv(&st, 0, "i8 i9", &r, &err);
    if (!rc)
        fprintf(stderr, "%s\n", err.msg);
    CHECK(rc);
    struct zbc_result res;
    E->result(&st, &res);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_ONGOING);
    CHECK_EQ_INT(res.out_mask, 1);
    CHECK_EQ_INT(E->turn(&st), 1);
    char board[8192];
    CHECK(E->render(&st, board, sizeof board) > 0);
    CHECK(strstr(board, "out (board full)") != NULL);
    /* seat 1 plays its two moves; seat 0 is skipped */
    CHECK(zbc_roll_init_literal(&r, lit + 6, 6));
    CHECK(mv(&st, 1, "a1 a2", &r, &err));
    CHECK_EQ_INT(E->turn(&st), 1);
    CHECK(zbc_roll_init_literal(&r, lit + 6, 6));
    CHECK(mv(&st, 1, "a2 i9", &r, &err));
    CHECK_EQ_INT(E->turn(&st), ZBC_NOBODY);
    E->result(&st, &res);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(res.winner, 1); /* 3 points against 0 */
    CHECK(E->render(&st, board, sizeof board) > 0);
    CHECK(strstr(board, "game over: seat 1 wins") != NULL);
    CHECK(!mv(&st, 1, "a1 a3", &r, &err));
    CHECK(strstr(err.msg, "over") != NULL);

    /* equal highest scores draw */
    fresh_spec(&s);
    s.rounds = 1;
    s.seats = 3;
    s.moves[0] = 1;
    s.moves[1] = 1;
    s.score[0] = 5;
    s.score[1] = 5;
    s.score[2] = 0;
    s.to_move = 2;
    s.last_seat = 1;
    s.last_from = 10;
    s.last_to = 11;
    s.board[2][0] = 4;
    CHECK(load(&st, &s));
    uint8_t lit2[] = {0, 0, 0, 0, 0, 0};
    CHECK(zbc_roll_init_literal(&r, lit2, sizeof lit2));
    CHECK(mv(&st, 2, "a1 b1", &r, &err));
    E->result(&st, &res);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_DRAW);
}

static void test_bad_params_and_state(void)
{
    struct zbc_err err;
    uint8_t p0 = 0, p101 = 101, two[2] = {5, 5};
    CHECK(!E->check_params(1, NULL, 0, &err));
    CHECK(!E->check_params(5, NULL, 0, &err));
    CHECK(!E->check_params(2, &p0, 1, &err));
    CHECK(strstr(err.msg, "rounds 0") != NULL);
    CHECK(!E->check_params(2, &p101, 1, &err));
    CHECK(!E->check_params(2, two, 2, &err));
    static struct zbc_game_state st;
    struct spec s;
    fresh_spec(&s);
    s.board[0][3] = 8; /* no colour 8 */
    CHECK(!load(&st, &s));
    fresh_spec(&s);
    s.out_mask = 1; /* out without a full board */
    CHECK(!load(&st, &s));
    fresh_spec(&s);
    s.to_move = 1; /* before any move the first seat moves */
    CHECK(!load(&st, &s));
    fresh_spec(&s);
    s.moves[0] = 31;
    CHECK(!load(&st, &s));
}

/* A spawn whose balls complete a line with every ball left on the board
 * empties it.  A seat with an empty board would have no ball to move and
 * could only lose on time; three more balls spawn instead. */
static void test_spawn_that_empties_the_board(void)
{
    static struct zbc_game_state st;
    struct spec s;
    struct zbc_err err;
    struct zbc_roll r;
    fresh_spec(&s);
    s.board[0][0] = 1; /* a1 */
    s.board[0][1] = 1; /* b1 */
    s.board[1][40] = 2;
    CHECK(load(&st, &s));
    /* b1 -> c1 makes no line; three colour-1 balls spawn on the free cells
     * #0, #0, #0 = b1, d1, e1: a1..e1 vanish (5 points), nothing is left;
     * then three more balls spawn (colour 1 on a1, b1, c1). */
    uint8_t lit[] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    CHECK(zbc_roll_init_literal(&r, lit, sizeof lit));
    CHECK(mv(&st, 0, "b1 c1", &r, &err));
    uint8_t buf[1024];
    E->encode(&st, buf, sizeof buf);
    CHECK_EQ_INT(zbc_get_le16(buf + HDR + 1), 5); /* seat 0 score */
    for (int c = 0; c < CELLS; c++)
        CHECK_EQ_INT(buf[HDR + 3 + c], c < 3 ? 1 : 0);
    CHECK_EQ_INT(E->turn(&st), 1);
    struct zbc_move moves[ZBC_MOVES_MAX];
    CHECK(E->gen_moves(&st, moves, ZBC_MOVES_MAX) > 0);
    CHECK(zbc_roll_init_literal(&r, lit, sizeof lit));
    CHECK(mv(&st, 1, "e5 e6", &r, &err));
    CHECK_EQ_INT(E->turn(&st), 0);
    CHECK(E->gen_moves(&st, moves, ZBC_MOVES_MAX) > 0);
    /* with only six roll bytes the refill cannot be drawn: refused */
    CHECK(load(&st, &s));
    CHECK(zbc_roll_init_literal(&r, lit, 6));
    CHECK(!mv(&st, 0, "b1 c1", &r, &err));
    CHECK(strstr(err.msg, "exhausted") != NULL);
}

int main(void)
{
    E = zbc_engine_by_type(10);
    CHECK(E != NULL);
    if (E == NULL)
        return test_summary("apps_lines");
    TEST_RUN(test_start);
    TEST_RUN(test_line_scores_without_spawn);
    TEST_RUN(test_no_line_spawns);
    TEST_RUN(test_bad_moves);
    TEST_RUN(test_full_board_and_endings);
    TEST_RUN(test_bad_params_and_state);
    TEST_RUN(test_spawn_that_empties_the_board);
    return test_summary("apps_lines");
}
