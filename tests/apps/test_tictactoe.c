/* Tic-tac-toe engine: perft, endings, notation, bad input, playouts. */
#include "apps/engine.h"
#include "testlib.h"
#include "play_helpers.h"

extern const struct zbc_engine zbc_engine_tictactoe;
static const struct zbc_engine *E = &zbc_engine_tictactoe;

static void start(struct zbc_game_state *st, uint8_t first)
{
    struct zbc_err err;
    CHECK(E->init(st, 2, NULL, 0, first, NULL, &err));
}

/* Published counts of tic-tac-toe move sequences that stop at a win. */
static void test_perft(void)
{
    static const uint64_t want[9] = {9, 72, 504, 3024, 15120, 54720, 148176,
                                     200448, 127872};
    struct zbc_game_state st;
    start(&st, 0);
    for (int d = 1; d <= 9; d++)
        CHECK_EQ_INT(ph_perft(E, &st, d), want[d - 1]);
}

static void test_x_wins(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result r;
    start(&st, 1); /* seat 1 plays X */
    CHECK_EQ_INT(E->turn(&st), 1);
    CHECK_EQ_INT(ph_play(E, &st, "5,1,a3,c3,3", &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(r.winner, 1);
    CHECK_EQ_INT(r.out_mask, 0);
    CHECK_EQ_INT(E->turn(&st), ZBC_NOBODY);
    char buf[512];
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK_EQ_STR(buf,
                 "    a   b   c\n"
                 "1  O | 2 | X \n"
                 "  ---+---+---\n"
                 "2  4 | X | 6 \n"
                 "  ---+---+---\n"
                 "3  X | 8 | O \n"
                 "X: seat 1, O: seat 0\n"
                 "last move: 3\n"
                 "result: seat 1 (X) wins\n");
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    CHECK_EQ_STR(buf, "{\"game\":\"tictactoe\",\"x_seat\":1,\"o_seat\":0,"
                      "\"rows\":[\"O.X\",\".X.\",\"X.O\"],\"turn\":null,"
                      "\"last\":\"3\",\"result\":\"win\",\"winner\":1}");
    /* moves after the end are refused */
    uint8_t mv = 1;
    CHECK(!E->apply_move(&st, 0, &mv, 1, NULL, &err));
    CHECK_EQ_STR(err.msg, "the game is over");
    CHECK_EQ_INT(E->gen_moves(&st, NULL, 0), 0);
}

static void test_o_wins(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result r;
    start(&st, 0);
    CHECK_EQ_INT(ph_play(E, &st, "1,4,2,5,9,6", &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(r.winner, 1);
}

static void test_draw(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result r;
    start(&st, 0);
    /* X O X / X O O / O X X */
    CHECK_EQ_INT(ph_play(E, &st, "1,2,3,5,4,6,8,7,9", &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_DRAW);
    CHECK_EQ_INT(E->turn(&st), ZBC_NOBODY);
    char buf[512];
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "result: draw\n") != NULL);
    CHECK(strstr(buf, "1  X | O | X \n") != NULL);
}

static void test_win_on_last_square(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result r;
    start(&st, 0);
    /* X fills the ninth square completing a diagonal: a win, not a draw */
    CHECK_EQ_INT(ph_play(E, &st, "1,2,3,6,4,7,5,8,9", &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(r.winner, 0);
}

static void test_bad_moves(void)
{
    struct zbc_game_state st, before;
    struct zbc_err err;
    start(&st, 0);
    CHECK_EQ_INT(ph_play(E, &st, "5", &err), -1);
    before = st;
    uint8_t mv[2] = {4, 0};
    CHECK(!E->apply_move(&st, 1, mv, 1, NULL, &err));
    CHECK_EQ_STR(err.msg, "illegal move: square 5 is taken by X");
    mv[0] = 9;
    CHECK(!E->apply_move(&st, 1, mv, 1, NULL, &err));
    CHECK_EQ_STR(err.msg, "cell 9 out of range 0-8");
    mv[0] = 0;
    CHECK(!E->apply_move(&st, 0, mv, 1, NULL, &err));
    CHECK_EQ_STR(err.msg, "not your turn: seat 1 is to move");
    CHECK(!E->apply_move(&st, 1, mv, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "a tic-tac-toe move is 1 byte (cell 0-8), got 2");
    CHECK(!E->apply_move(&st, 1, mv, 0, NULL, &err));
    CHECK(memcmp(&st, &before, sizeof st) == 0);
    size_t len;
    CHECK(!E->parse_move(&st, 1, "0", mv, sizeof mv, &len, &err));
    CHECK_EQ_STR(err.msg, "tic-tac-toe square (1-9 or a1-c3): 0 is out of "
                          "range 1-9");
    CHECK(!E->parse_move(&st, 1, "d1", mv, sizeof mv, &len, &err));
    CHECK(!E->parse_move(&st, 1, "10", mv, sizeof mv, &len, &err));
    CHECK(!E->parse_move(&st, 1, "", mv, sizeof mv, &len, &err));
    CHECK(E->parse_move(&st, 1, "c3", mv, sizeof mv, &len, &err));
    CHECK_EQ_INT(mv[0], 8);
    CHECK(E->parse_move(&st, 1, "b1", mv, sizeof mv, &len, &err));
    CHECK_EQ_INT(mv[0], 1);
    char out[4];
    CHECK(!E->format_move(&st, mv, 2, out, sizeof out));
    mv[0] = 9;
    CHECK(!E->format_move(&st, mv, 1, out, sizeof out));
}

static void test_bad_params(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    uint8_t p = 0;
    CHECK(!E->check_params(3, NULL, 0, &err));
    CHECK_EQ_STR(err.msg, "tictactoe takes 2 to 2 seats, not 3");
    CHECK(!E->check_params(2, &p, 1, &err));
    CHECK_EQ_STR(err.msg, "tic-tac-toe takes no params, got 1 bytes");
    CHECK(!E->init(&st, 2, NULL, 0, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "first seat 2 out of range 0-1");
}

static void test_decode_bad(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    /* x_seat, 9 cells, last */
    uint8_t ok[11] = {0, 1, 2, 0, 0, 1, 0, 0, 0, 0, 4};
    CHECK(E->decode(&st, ok, sizeof ok, &err));
    CHECK_EQ_INT(E->turn(&st), 1);
    uint8_t b[11];
    memcpy(b, ok, 11);
    b[0] = 2;
    CHECK(!E->decode(&st, b, 11, &err));
    CHECK_EQ_STR(err.msg, "X seat 2 out of range 0-1");
    memcpy(b, ok, 11);
    b[3] = 3;
    CHECK(!E->decode(&st, b, 11, &err));
    CHECK_EQ_STR(err.msg, "cell 2 holds 3, not 0-2");
    memcpy(b, ok, 11);
    b[3] = 1; /* 3 X, 1 O */
    CHECK(!E->decode(&st, b, 11, &err));
    CHECK_EQ_STR(err.msg, "3 X and 1 O cannot happen (X moves first)");
    memcpy(b, ok, 11);
    b[10] = 1; /* cell 1 holds O, but X moved last */
    CHECK(!E->decode(&st, b, 11, &err));
    CHECK_EQ_STR(err.msg, "last move 1 is not a cell holding X");
    uint8_t empty[11] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3};
    CHECK(!E->decode(&st, empty, 11, &err));
    CHECK_EQ_STR(err.msg, "last move 3 on an empty board");
    /* X has the top row and the left column: fine when cell 0 made both */
    uint8_t two[11] = {0, 1, 1, 1, 1, 2, 2, 1, 2, 2, 0};
    CHECK(E->decode(&st, two, 11, &err));
    two[10] = 2; /* last = cell 2: left column already complete */
    CHECK(!E->decode(&st, two, 11, &err));
    CHECK_EQ_STR(err.msg, "cell 0 is on a line made before the last move");
    /* O line while X wins */
    uint8_t both[11] = {0, 1, 1, 1, 2, 2, 2, 0, 0, 0, 2};
    CHECK(!E->decode(&st, both, 11, &err));
    CHECK(!E->decode(&st, ok, 10, &err));
    CHECK_EQ_STR(err.msg, "tic-tac-toe state is 11 bytes, got 10");
    ph_decode_garbage(E, &st, 7);
}

static void test_random_games(void)
{
    int counts[3];
    ph_random_games(E, 2, NULL, 0, 3000, 9, 1, counts);
    CHECK_EQ_INT(counts[0], 0);
    CHECK(counts[1] > 0 && counts[2] > 0);
}

int main(void)
{
    TEST_RUN(test_perft);
    TEST_RUN(test_x_wins);
    TEST_RUN(test_o_wins);
    TEST_RUN(test_draw);
    TEST_RUN(test_win_on_last_square);
    TEST_RUN(test_bad_moves);
    TEST_RUN(test_bad_params);
    TEST_RUN(test_decode_bad);
    TEST_RUN(test_random_games);
    return test_summary("tictactoe");
}
