/* Connect-4 engine: perft, endings, notation, bad input, playouts. */
#include "apps/engine.h"
#include "testlib.h"
#include "play_helpers.h"

extern const struct zbc_engine zbc_engine_connect4;
static const struct zbc_engine *E = &zbc_engine_connect4;

static void start(struct zbc_game_state *st, uint8_t first)
{
    struct zbc_err err;
    CHECK(E->init(st, 2, NULL, 0, first, NULL, &err));
}

static void test_perft(void)
{
    struct zbc_game_state st;
    start(&st, 0);
    /* No line and no full column is possible before ply 7, so every
     * sequence of columns is legal: 7^d.  At depth 7 the only illegal
     * sequences put all seven discs in one column (7 of them). */
    uint64_t p = 1;
    for (int d = 1; d <= 6; d++) {
        p *= 7;
        CHECK_EQ_INT(ph_perft(E, &st, d), p);
    }
    CHECK_EQ_INT(ph_perft(E, &st, 7), 823543 - 7);
}

static void expect_win(const char *moves, uint8_t first, uint8_t winner)
{
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result r;
    start(&st, first);
    CHECK_EQ_INT(ph_play(E, &st, moves, &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(r.winner, winner);
    CHECK_EQ_INT(E->turn(&st), ZBC_NOBODY);
    CHECK_EQ_INT(E->gen_moves(&st, NULL, 0), 0);
    uint8_t mv = 0;
    CHECK(!E->check_move(&st, 0, &mv, 1, &err));
    CHECK_EQ_STR(err.msg, "the game is over");
}

static void test_wins(void)
{
    expect_win("1,2,1,2,1,2,1", 0, 0);          /* vertical */
    expect_win("1,1,2,2,3,3,4", 1, 1);          /* horizontal, seat 1 is X */
    expect_win("1,2,1,2,1,2,3,2", 0, 1);        /* O vertical */
    expect_win("7,6,6,5,5,4,5,4,4,1,4", 0, 0);  /* falling diagonal */
}

static void test_diagonal_render(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result r;
    start(&st, 0);
    /* X: 1,2,3,4 rising diagonal from the bottom-left */
    CHECK_EQ_INT(ph_play(E, &st, "1,2,2,3,3,4,3,4,4,7,4", &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(r.winner, 0);
    char buf[512];
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK_EQ_STR(buf,
                 "| . . . . . . . |\n"
                 "| . . . . . . . |\n"
                 "| . . . X . . . |\n"
                 "| . . X X . . . |\n"
                 "| . X X O . . . |\n"
                 "| X O O O . . O |\n"
                 "+---------------+\n"
                 "  1 2 3 4 5 6 7\n"
                 "X: seat 0, O: seat 1\n"
                 "last move: 4\n"
                 "result: seat 0 (X) wins\n");
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    CHECK_EQ_STR(buf, "{\"game\":\"connect4\",\"x_seat\":0,\"o_seat\":1,"
                      "\"rows\":[\".......\",\".......\",\"...X...\","
                      "\"..XX...\",\".XXO...\",\"XOOO..O\"],\"turn\":null,"
                      "\"last\":\"4\",\"result\":\"win\",\"winner\":0}");
}

static void test_draw(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result r;
    start(&st, 1);
    /* 42 discs without four in a row (found and checked by an independent
     * Python search). */
    CHECK_EQ_INT(ph_play(E, &st,
                         "7,4,6,3,3,6,6,3,7,4,7,3,5,7,4,1,6,6,4,5,7,7,3,6,3,5,"
                         "1,5,2,4,2,1,5,2,2,2,1,2,1,4,5,1", &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_DRAW);
    CHECK_EQ_INT(E->turn(&st), ZBC_NOBODY);
    char buf[512];
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "result: draw\n") != NULL);
}

static void test_bad_moves(void)
{
    struct zbc_game_state st, before;
    struct zbc_err err;
    start(&st, 0);
    CHECK_EQ_INT(ph_play(E, &st, "3,3,3,3,3,3", &err), -1);
    before = st;
    uint8_t mv[2] = {2, 0};
    CHECK(!E->apply_move(&st, 0, mv, 1, NULL, &err));
    CHECK_EQ_STR(err.msg, "illegal move: column 3 is full");
    mv[0] = 7;
    CHECK(!E->apply_move(&st, 0, mv, 1, NULL, &err));
    CHECK_EQ_STR(err.msg, "column 7 out of range 0-6");
    mv[0] = 0;
    CHECK(!E->apply_move(&st, 1, mv, 1, NULL, &err));
    CHECK_EQ_STR(err.msg, "not your turn: seat 0 is to move");
    CHECK(!E->apply_move(&st, 0, mv, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "a connect-4 move is 1 byte (column 0-6), got 2");
    CHECK(memcmp(&st, &before, sizeof st) == 0);
    CHECK_EQ_INT(E->gen_moves(&st, NULL, 0), 0);
    struct zbc_move moves[ZBC_MOVES_MAX];
    CHECK_EQ_INT(E->gen_moves(&st, moves, ZBC_MOVES_MAX), 6);
    size_t len;
    CHECK(!E->parse_move(&st, 0, "8", mv, sizeof mv, &len, &err));
    CHECK_EQ_STR(err.msg, "connect-4 column (1-7): 8 is out of range 1-7");
    CHECK(!E->parse_move(&st, 0, "a", mv, sizeof mv, &len, &err));
    CHECK(!E->parse_move(&st, 0, "0", mv, sizeof mv, &len, &err));
}

static void test_bad_params(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    uint8_t p = 0;
    CHECK(!E->check_params(1, NULL, 0, &err));
    CHECK_EQ_STR(err.msg, "connect4 takes 2 to 2 seats, not 1");
    CHECK(!E->check_params(2, &p, 1, &err));
    CHECK_EQ_STR(err.msg, "connect-4 takes no params, got 1 bytes");
    CHECK(!E->init(&st, 2, NULL, 0, 5, NULL, &err));
    CHECK_EQ_STR(err.msg, "first seat 5 out of range 0-1");
}

static void test_decode_bad(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    uint8_t ok[44] = {0};
    ok[1 + 0] = 1;  /* X a1 */
    ok[1 + 7] = 2;  /* O on top of it */
    ok[43] = 7;
    CHECK(E->decode(&st, ok, sizeof ok, &err));
    CHECK_EQ_INT(E->turn(&st), 0);
    uint8_t b[44];
    memcpy(b, ok, 44);
    b[1 + 7] = 0;
    b[1 + 14] = 2; /* O floats over an empty cell */
    b[43] = 14;
    CHECK(!E->decode(&st, b, 44, &err));
    CHECK_EQ_STR(err.msg, "disc in cell 14 floats over an empty cell");
    memcpy(b, ok, 44);
    b[43] = 0; /* X's disc below is not the last move */
    CHECK(!E->decode(&st, b, 44, &err));
    CHECK_EQ_STR(err.msg, "last move 0 is not a cell holding O");
    memcpy(b, ok, 44);
    b[1 + 1] = 1;
    b[1 + 8] = 2;
    b[43] = 1; /* X b1, not the top of its column */
    b[1 + 2] = 1; /* makes counts 3 X 2 O, X moved last */
    CHECK(!E->decode(&st, b, 44, &err));
    CHECK_EQ_STR(err.msg, "last move 1 is not the top disc of its column");
    /* X has four on the bottom row and O moved last */
    uint8_t four[44] = {0};
    for (int i = 0; i < 4; i++)
        four[1 + i] = 1;
    for (int i = 0; i < 4; i++)
        four[1 + 7 + i] = 2;
    four[43] = 10;
    CHECK(!E->decode(&st, four, 44, &err));
    CHECK_EQ_STR(err.msg, "cell 0 is on a line made before the last move");
    memcpy(b, ok, 44);
    b[0] = 2;
    CHECK(!E->decode(&st, b, 44, &err));
    CHECK_EQ_STR(err.msg, "X seat 2 out of range 0-1");
    memcpy(b, ok, 44);
    b[5] = 3;
    CHECK(!E->decode(&st, b, 44, &err));
    CHECK_EQ_STR(err.msg, "cell 4 holds 3, not 0-2");
    CHECK(!E->decode(&st, ok, 43, &err));
    CHECK_EQ_STR(err.msg, "connect-4 state is 44 bytes, got 43");
    CHECK(E->decode(&st, ok, sizeof ok, &err));
    ph_decode_garbage(E, &st, 11);
}

static void test_random_games(void)
{
    int counts[3];
    ph_random_games(E, 2, NULL, 0, 3000, 42, 2, counts);
    CHECK_EQ_INT(counts[0], 0);
    CHECK(counts[1] > 0);
}

int main(void)
{
    TEST_RUN(test_perft);
    TEST_RUN(test_wins);
    TEST_RUN(test_diagonal_render);
    TEST_RUN(test_draw);
    TEST_RUN(test_bad_moves);
    TEST_RUN(test_bad_params);
    TEST_RUN(test_decode_bad);
    TEST_RUN(test_random_games);
    return test_summary("connect4");
}
