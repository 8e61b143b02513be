/* Gomoku engine: endings (five, overline, draw), notation, bad input,
 * playouts. */
#include "apps/engine.h"
#include "testlib.h"
#include "play_helpers.h"

extern const struct zbc_engine zbc_engine_gomoku;
static const struct zbc_engine *E = &zbc_engine_gomoku;

static void start(struct zbc_game_state *st, uint8_t first)
{
    struct zbc_err err;
    CHECK(E->init(st, 2, NULL, 0, first, NULL, &err));
}

static void test_perft(void)
{
    struct zbc_game_state st;
    start(&st, 0);
    CHECK_EQ_INT(ph_perft(E, &st, 1), 225);
    CHECK_EQ_INT(ph_perft(E, &st, 2), 225 * 224);
}

static void test_five_wins(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result r;
    start(&st, 1);
    CHECK_EQ_INT(ph_play(E, &st, "h8,a1,i8,a2,j8,a3,k8,a4", &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_ONGOING);
    CHECK_EQ_INT(E->turn(&st), 1);
    CHECK_EQ_INT(ph_play(E, &st, "l8", &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(r.winner, 1);
    CHECK_EQ_INT(E->turn(&st), ZBC_NOBODY);
    char buf[1024];
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, " 8 . . . . . . . X X X X X . . .\n") != NULL);
    CHECK(strstr(buf, " 1 O . . . . . . . . . . . . . .\n"
                      "   a b c d e f g h i j k l m n o\n"
                      "X: seat 1, O: seat 0\n"
                      "last move: l8\n"
                      "result: seat 1 (X) wins\n") != NULL);
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "\"turn\":null,\"last\":\"l8\",\"result\":\"win\","
                      "\"winner\":1}") != NULL);
    CHECK(strstr(buf, "\".......XXXXX...\"") != NULL);
    uint8_t mv = 100;
    CHECK(!E->apply_move(&st, 0, &mv, 1, NULL, &err));
    CHECK_EQ_STR(err.msg, "the game is over");
}

static void test_overline_and_diagonal(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result r;
    start(&st, 0);
    /* O gets six on a diagonal by filling the gap */
    CHECK_EQ_INT(ph_play(E, &st, "o15,a1,o14,b2,o13,c3,n15,e5,n14,f6,m1,d4",
                         &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(r.winner, 1);
    /* four is not enough */
    start(&st, 0);
    CHECK_EQ_INT(ph_play(E, &st, "a15,a1,b14,b1,c13,c1,d12,d1", &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_ONGOING);
    CHECK_EQ_INT(ph_play(E, &st, "e11", &err), -1); /* falling diagonal */
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(r.winner, 0);
}

/* A full-board pattern with no run longer than 2 (checked independently):
 * X where (x + 2y) mod 4 < 2.  It holds 113 X and 112 O. */
static void test_draw(void)
{
    uint8_t enc[227];
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result r;
    enc[0] = 0;
    for (int y = 0; y < 15; y++)
        for (int x = 0; x < 15; x++)
            enc[1 + y * 15 + x] = (x + 2 * y) % 4 < 2 ? 1 : 2;
    enc[1 + 0] = 0; /* a1 left for X's last stone */
    enc[226] = 2;   /* O's last stone on c1 */
    CHECK(E->decode(&st, enc, sizeof enc, &err));
    CHECK_EQ_INT(E->turn(&st), 0);
    CHECK_EQ_INT(ph_play(E, &st, "a1", &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_DRAW);
    CHECK_EQ_INT(E->turn(&st), ZBC_NOBODY);
    char buf[1024];
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "result: draw\n") != NULL);
}

static void test_bad_moves(void)
{
    struct zbc_game_state st, before;
    struct zbc_err err;
    start(&st, 0);
    CHECK_EQ_INT(ph_play(E, &st, "h8", &err), -1);
    before = st;
    uint8_t mv[2] = {112, 0};
    CHECK(!E->apply_move(&st, 1, mv, 1, NULL, &err));
    CHECK_EQ_STR(err.msg, "illegal move: h8 is taken by X");
    mv[0] = 225;
    CHECK(!E->apply_move(&st, 1, mv, 1, NULL, &err));
    CHECK_EQ_STR(err.msg, "cell 225 out of range 0-224");
    mv[0] = 0;
    CHECK(!E->apply_move(&st, 0, mv, 1, NULL, &err));
    CHECK_EQ_STR(err.msg, "not your turn: seat 1 is to move");
    CHECK(!E->apply_move(&st, 1, mv, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "a gomoku move is 1 byte (cell 0-224), got 2");
    CHECK(memcmp(&st, &before, sizeof st) == 0);
    size_t len;
    CHECK(!E->parse_move(&st, 1, "p1", mv, sizeof mv, &len, &err));
    CHECK_EQ_STR(err.msg, "gomoku square (a1-o15): 'p1' is not a square: "
                          "file must be a-o");
    CHECK(!E->parse_move(&st, 1, "a16", mv, sizeof mv, &len, &err));
    CHECK(E->parse_move(&st, 1, "o15", mv, sizeof mv, &len, &err));
    CHECK_EQ_INT(mv[0], 224);
    char out[8];
    CHECK(E->format_move(&st, mv, 1, out, sizeof out));
    CHECK_EQ_STR(out, "o15");
    mv[0] = 230;
    CHECK(!E->format_move(&st, mv, 1, out, sizeof out));
}

static void test_bad_params(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    uint8_t p = 0;
    CHECK(!E->check_params(4, NULL, 0, &err));
    CHECK_EQ_STR(err.msg, "gomoku takes 2 to 2 seats, not 4");
    CHECK(!E->check_params(2, &p, 1, &err));
    CHECK_EQ_STR(err.msg, "gomoku takes no params, got 1 bytes");
    CHECK(!E->init(&st, 2, NULL, 0, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "first seat 2 out of range 0-1");
}

static void test_decode_bad(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    uint8_t ok[227] = {0};
    ok[1 + 112] = 1;
    ok[226] = 112;
    CHECK(E->decode(&st, ok, sizeof ok, &err));
    CHECK_EQ_INT(E->turn(&st), 1);
    uint8_t b[227];
    memcpy(b, ok, sizeof b);
    b[226] = 0xFF;
    CHECK(!E->decode(&st, b, sizeof b, &err));
    CHECK_EQ_STR(err.msg, "last move 255 is not a cell holding X");
    memcpy(b, ok, sizeof b);
    b[1 + 3] = 2;
    b[1 + 4] = 2;
    CHECK(!E->decode(&st, b, sizeof b, &err));
    CHECK_EQ_STR(err.msg, "1 X and 2 O cannot happen (X moves first)");
    memcpy(b, ok, sizeof b);
    b[1 + 7] = 9;
    CHECK(!E->decode(&st, b, sizeof b, &err));
    CHECK_EQ_STR(err.msg, "cell 7 holds 9, not 0-2");
    /* X five on row 1 and O moved last */
    uint8_t five[227] = {0};
    for (int i = 0; i < 5; i++)
        five[1 + i] = 1;
    for (int i = 0; i < 5; i++)
        five[1 + 30 + i] = 2;
    five[226] = 30;
    CHECK(!E->decode(&st, five, sizeof five, &err));
    CHECK_EQ_STR(err.msg, "cell 0 is on a line made before the last move");
    CHECK(!E->decode(&st, ok, 226, &err));
    CHECK_EQ_STR(err.msg, "gomoku state is 227 bytes, got 226");
    CHECK(E->decode(&st, ok, sizeof ok, &err));
    ph_decode_garbage(E, &st, 13);
}

static void test_random_games(void)
{
    int counts[3];
    ph_random_games(E, 2, NULL, 0, test_scaled(200), 225, 3, counts);
    CHECK_EQ_INT(counts[0], 0);
    CHECK(counts[1] > 0);
}

int main(void)
{
    TEST_RUN(test_perft);
    TEST_RUN(test_five_wins);
    TEST_RUN(test_overline_and_diagonal);
    TEST_RUN(test_draw);
    TEST_RUN(test_bad_moves);
    TEST_RUN(test_bad_params);
    TEST_RUN(test_decode_bad);
    TEST_RUN(test_random_games);
    return test_summary("gomoku");
}
