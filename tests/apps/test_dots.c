/* Dots and boxes engine: line numbering, extra moves, endings, notation,
 * bad input, playouts for 2-4 seats. */
#include "apps/engine.h"
#include "testlib.h"
#include "play_helpers.h"

extern const struct zbc_engine zbc_engine_dots;
static const struct zbc_engine *E = &zbc_engine_dots;

static const uint8_t P22[2] = {2, 2};

static void start22(struct zbc_game_state *st, uint8_t seats, uint8_t first)
{
    struct zbc_err err;
    CHECK(E->init(st, seats, P22, 2, first, NULL, &err));
}

static void test_numbering(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    uint8_t mv[2];
    size_t len;
    start22(&st, 2, 0);
    /* horizontal lines first (3 rows of 2), then vertical (2 rows of 3) */
    static const char *names[12] = {"h 0 0", "h 0 1", "h 1 0", "h 1 1",
                                    "h 2 0", "h 2 1", "v 0 0", "v 0 1",
                                    "v 0 2", "v 1 0", "v 1 1", "v 1 2"};
    for (int i = 0; i < 12; i++) {
        CHECK(E->parse_move(&st, 0, names[i], mv, sizeof mv, &len, &err));
        CHECK_EQ_INT(len, 2);
        CHECK_EQ_INT(mv[0] | mv[1] << 8, i);
        char out[16];
        CHECK(E->format_move(&st, mv, 2, out, sizeof out));
        CHECK_EQ_STR(out, names[i]);
    }
    /* 8x8: 9*8 horizontal + 8*9 vertical = 144 lines; last is v 7 8 */
    uint8_t p88[2] = {8, 8};
    CHECK(E->init(&st, 2, p88, 2, 0, NULL, &err));
    CHECK(E->parse_move(&st, 0, "v 7 8", mv, sizeof mv, &len, &err));
    CHECK_EQ_INT(mv[0] | mv[1] << 8, 143);
    CHECK(E->parse_move(&st, 0, "v 0 0", mv, sizeof mv, &len, &err));
    CHECK_EQ_INT(mv[0] | mv[1] << 8, 72);
    struct zbc_move m[ZBC_MOVES_MAX];
    CHECK_EQ_INT(E->gen_moves(&st, m, ZBC_MOVES_MAX), 144);
    /* default params: 4x4 = 40 lines */
    CHECK(E->init(&st, 2, NULL, 0, 1, NULL, &err));
    CHECK_EQ_INT(E->gen_moves(&st, m, ZBC_MOVES_MAX), 40);
    CHECK_EQ_INT(E->turn(&st), 1);
}

static void test_perft(void)
{
    struct zbc_game_state st;
    start22(&st, 2, 0);
    /* nothing ends before all 12 lines are drawn: 12!/(12-d)! */
    CHECK_EQ_INT(ph_perft(E, &st, 1), 12);
    CHECK_EQ_INT(ph_perft(E, &st, 2), 132);
    CHECK_EQ_INT(ph_perft(E, &st, 3), 1320);
    CHECK_EQ_INT(ph_perft(E, &st, 4), 11880);
}

static const char *OPENING = "h 0 0, h 2 0, v 0 0, v 1 2, h 1 0, v 0 1, h 0 1,"
                             " v 0 2, h 1 1, v 1 0";

static void test_draw_and_extra_moves(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result r;
    start22(&st, 2, 0);
    CHECK_EQ_INT(ph_play(E, &st, "h 0 0, h 2 0, v 0 0, v 1 2, h 1 0", &err),
                 -1);
    CHECK_EQ_INT(E->turn(&st), 1);
    CHECK_EQ_INT(ph_play(E, &st, "v 0 1", &err), -1); /* closes box (0,0) */
    CHECK_EQ_INT(E->turn(&st), 1);                     /* moves again */
    CHECK_EQ_INT(ph_play(E, &st, "h 0 1", &err), -1);
    CHECK_EQ_INT(E->turn(&st), 0);
    CHECK_EQ_INT(ph_play(E, &st, "v 0 2, h 1 1, v 1 0", &err), -1);
    CHECK_EQ_INT(E->turn(&st), 0);
    CHECK_EQ_INT(ph_play(E, &st, "v 1 1", &err), -1); /* closes (1,0) only */
    CHECK_EQ_INT(E->turn(&st), 0);
    char buf[1024];
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK_EQ_STR(buf, "  0   1   2\n"
                      "0 +---+---+\n"
                      "  | 1 | 1 |\n"
                      "1 +---+---+\n"
                      "  | 0 |   |\n"
                      "2 +---+   +\n"
                      "boxes: seat 0: 1, seat 1: 2\n"
                      "last move: v 1 1\n"
                      "to move: seat 0\n");
    CHECK_EQ_INT(ph_play(E, &st, "h 2 1", &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_DRAW);
    CHECK_EQ_INT(E->turn(&st), ZBC_NOBODY);
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "2 +---+---+\nboxes: seat 0: 2, seat 1: 2\n"
                      "last move: h 2 1\nresult: draw\n") != NULL);
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    CHECK_EQ_STR(buf, "{\"game\":\"dots\",\"width\":2,\"height\":2,\"seats\":2,"
                      "\"h_lines\":[\"11\",\"11\",\"11\"],\"v_lines\":[\"111\","
                      "\"111\"],\"boxes\":[\"11\",\"00\"],\"scores\":[2,2],"
                      "\"turn\":null,\"last\":\"h 2 1\",\"result\":\"draw\","
                      "\"winner\":null}");
    uint8_t mv[2] = {0, 0};
    CHECK(!E->apply_move(&st, 0, mv, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "the game is over");
}

static void test_double_box_win(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result r;
    start22(&st, 2, 0);
    CHECK_EQ_INT(ph_play(E, &st, OPENING, &err), -1);
    CHECK_EQ_INT(ph_play(E, &st, "h 2 1", &err), -1); /* seat 0, no box */
    CHECK_EQ_INT(E->turn(&st), 1);
    CHECK_EQ_INT(ph_play(E, &st, "v 1 1", &err), -1); /* two boxes at once */
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(r.winner, 1);
    char buf[1024];
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "boxes: seat 0: 0, seat 1: 4\n"
                      "last move: v 1 1\nresult: seat 1 wins\n") != NULL);
}

static void test_three_seats(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result r;
    start22(&st, 3, 2);
    CHECK_EQ_INT(E->turn(&st), 2);
    CHECK_EQ_INT(ph_play(E, &st, "h 0 0", &err), -1);
    CHECK_EQ_INT(E->turn(&st), 0);
    CHECK_EQ_INT(ph_play(E, &st, "h 1 0", &err), -1);
    CHECK_EQ_INT(E->turn(&st), 1);
    CHECK_EQ_INT(ph_play(E, &st, "v 0 0", &err), -1);
    CHECK_EQ_INT(E->turn(&st), 2);
    CHECK_EQ_INT(ph_play(E, &st, "v 0 1", &err), -1); /* seat 2 scores */
    CHECK_EQ_INT(E->turn(&st), 2);
    /* seat 2 takes everything else in one run of chained boxes? no: play
     * the rest so that seat 2 ends with the most boxes */
    CHECK_EQ_INT(ph_play(E, &st, "h 0 1", &err), -1); /* seat 2, no box */
    CHECK_EQ_INT(E->turn(&st), 0);
    CHECK_EQ_INT(ph_play(E, &st, "h 2 0, h 2 1, h 1 1, v 1 0", &err), -1);
    /* seats 0,1,2,0 drew those; box (1,0) needs v 1 1; seat 1 to move */
    CHECK_EQ_INT(E->turn(&st), 1);
    CHECK_EQ_INT(ph_play(E, &st, "v 0 2", &err), -1); /* closes (0,1) */
    CHECK_EQ_INT(E->turn(&st), 1);
    CHECK_EQ_INT(ph_play(E, &st, "v 1 1", &err), -1); /* closes (1,0) */
    CHECK_EQ_INT(ph_play(E, &st, "v 1 2", &err), -1); /* closes (1,1) */
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(r.winner, 1);
    char buf[1024];
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "boxes: seat 0: 0, seat 1: 3, seat 2: 1\n") != NULL);
}

static void test_bad_moves(void)
{
    struct zbc_game_state st, before;
    struct zbc_err err;
    start22(&st, 2, 0);
    CHECK_EQ_INT(ph_play(E, &st, "v 1 2", &err), -1);
    before = st;
    uint8_t mv[3] = {11, 0, 0};
    CHECK(!E->apply_move(&st, 1, mv, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "illegal move: line v 1 2 is already drawn");
    mv[0] = 12;
    CHECK(!E->apply_move(&st, 1, mv, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "line 12 out of range 0-11");
    mv[0] = 0;
    mv[1] = 1;
    CHECK(!E->apply_move(&st, 1, mv, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "line 256 out of range 0-11");
    mv[1] = 0;
    CHECK(!E->apply_move(&st, 0, mv, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "not your turn: seat 1 is to move");
    CHECK(!E->apply_move(&st, 1, mv, 1, NULL, &err));
    CHECK_EQ_STR(err.msg, "a dots and boxes move is a u16 line index "
                          "(2 bytes), got 1");
    CHECK(!E->apply_move(&st, 1, mv, 3, NULL, &err));
    CHECK(memcmp(&st, &before, sizeof st) == 0);
    size_t len;
    CHECK(!E->parse_move(&st, 1, "h 3 0", mv, sizeof mv, &len, &err));
    CHECK_EQ_STR(err.msg, "horizontal line row: 3 is out of range 0-2");
    CHECK(!E->parse_move(&st, 1, "h 0 2", mv, sizeof mv, &len, &err));
    CHECK_EQ_STR(err.msg, "horizontal line column: 2 is out of range 0-1");
    CHECK(!E->parse_move(&st, 1, "v 2 0", mv, sizeof mv, &len, &err));
    CHECK_EQ_STR(err.msg, "vertical line row: 2 is out of range 0-1");
    CHECK(!E->parse_move(&st, 1, "x 0 0", mv, sizeof mv, &len, &err));
    CHECK_EQ_STR(err.msg, "a dots and boxes move is 'h ROW COL' or "
                          "'v ROW COL', got 'x 0 0'");
    CHECK(!E->parse_move(&st, 1, "h 0", mv, sizeof mv, &len, &err));
    CHECK(!E->parse_move(&st, 1, "h 0 0 0", mv, sizeof mv, &len, &err));
    CHECK(!E->parse_move(NULL, 1, "h 0 0", mv, sizeof mv, &len, &err));
    char out[16];
    mv[0] = 12;
    CHECK(!E->format_move(&st, mv, 2, out, sizeof out));
    CHECK(!E->format_move(&st, mv, 1, out, sizeof out));
}

static void test_bad_params(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    uint8_t p[3] = {4, 4, 0};
    CHECK(E->check_params(4, p, 2, &err));
    CHECK(E->check_params(2, NULL, 0, &err));
    CHECK(!E->check_params(1, p, 2, &err));
    CHECK_EQ_STR(err.msg, "dots takes 2 to 4 seats, not 1");
    CHECK(!E->check_params(5, p, 2, &err));
    CHECK(!E->check_params(2, p, 3, &err));
    CHECK_EQ_STR(err.msg, "dots and boxes params are width u8, height u8 "
                          "(2 bytes) or empty, got 3 bytes");
    CHECK(!E->check_params(2, p, 1, &err));
    p[0] = 9;
    CHECK(!E->check_params(2, p, 2, &err));
    CHECK_EQ_STR(err.msg, "width 9 out of range 2-8");
    p[0] = 2;
    p[1] = 1;
    CHECK(!E->check_params(2, p, 2, &err));
    CHECK_EQ_STR(err.msg, "height 1 out of range 2-8");
    CHECK(!E->init(&st, 3, NULL, 0, 3, NULL, &err));
    CHECK_EQ_STR(err.msg, "first seat 3 out of range 0-2");
}

static void test_decode_bad(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    uint8_t enc[64], b[64];
    start22(&st, 2, 0);
    CHECK_EQ_INT(ph_play(E, &st, "h 0 0, h 1 0, v 0 0, v 0 1", &err), -1);
    /* 4 header + 2 line bytes + 4 owners + 2 last */
    size_t n = E->encode(&st, enc, sizeof enc);
    CHECK_EQ_INT(n, 12);
    static const uint8_t want[12] = {2, 2, 2, 1, 0xC5, 0x00, 1, 0xFF,
                                     0xFF, 0xFF, 7, 0};
    CHECK_EQ_MEM(enc, want, 12);
    CHECK(E->decode(&st, enc, n, &err));
    memcpy(b, enc, n);
    b[0] = 9;
    CHECK(!E->decode(&st, b, n, &err));
    CHECK_EQ_STR(err.msg, "board 9x2 out of range 2-8");
    memcpy(b, enc, n);
    b[2] = 5;
    CHECK(!E->decode(&st, b, n, &err));
    CHECK_EQ_STR(err.msg, "seats 5 out of range 2-4");
    memcpy(b, enc, n);
    b[3] = 2;
    CHECK(!E->decode(&st, b, n, &err));
    CHECK_EQ_STR(err.msg, "seat to move 2 out of range 0-1");
    memcpy(b, enc, n);
    b[5] = 0x10;
    CHECK(!E->decode(&st, b, n, &err));
    CHECK_EQ_STR(err.msg, "unused bits after line 11 are set");
    memcpy(b, enc, n);
    b[6] = 0xFF;
    CHECK(!E->decode(&st, b, n, &err));
    CHECK_EQ_STR(err.msg, "box 0 is closed but has no owner");
    memcpy(b, enc, n);
    b[7] = 0;
    CHECK(!E->decode(&st, b, n, &err));
    CHECK_EQ_STR(err.msg, "box 1 is open but has an owner");
    memcpy(b, enc, n);
    b[6] = 3;
    CHECK(!E->decode(&st, b, n, &err));
    CHECK_EQ_STR(err.msg, "box 0 owner 3 out of range");
    memcpy(b, enc, n);
    b[3] = 0;
    CHECK(!E->decode(&st, b, n, &err));
    CHECK_EQ_STR(err.msg, "seat 1 closed a box with the last line but seat 0 "
                          "is to move");
    memcpy(b, enc, n);
    b[10] = 1;
    CHECK(!E->decode(&st, b, n, &err));
    CHECK_EQ_STR(err.msg, "last move 1 is not a drawn line");
    CHECK(!E->decode(&st, enc, 3, &err));
    CHECK_EQ_STR(err.msg, "dots state is truncated (3 bytes)");
    CHECK(!E->decode(&st, enc, 11, &err));
    CHECK_EQ_STR(err.msg, "dots state for 2x2 is 12 bytes, got 11");
    CHECK(E->decode(&st, enc, n, &err));
    ph_decode_garbage(E, &st, 17);
}

static void test_random_games(void)
{
    int counts[3], draws = 0;
    for (uint8_t seats = 2; seats <= 4; seats++) {
        uint8_t p[2] = {(uint8_t)(seats + 1), 3};
        ph_random_games(E, seats, p, 2, 300, 2 * p[0] * p[1] + p[0] + p[1],
                        seats, counts);
        CHECK_EQ_INT(counts[0], 0);
        CHECK(counts[1] > 0);
        draws += counts[2];
    }
    CHECK(draws > 0);
    ph_random_games(E, 2, NULL, 0, 200, 40, 9, counts);
    CHECK_EQ_INT(counts[0], 0);
    uint8_t big[2] = {8, 8};
    ph_random_games(E, 4, big, 2, 30, 144, 10, counts);
    CHECK_EQ_INT(counts[0], 0);
}

int main(void)
{
    TEST_RUN(test_numbering);
    TEST_RUN(test_perft);
    TEST_RUN(test_draw_and_extra_moves);
    TEST_RUN(test_double_box_win);
    TEST_RUN(test_three_seats);
    TEST_RUN(test_bad_moves);
    TEST_RUN(test_bad_params);
    TEST_RUN(test_decode_bad);
    TEST_RUN(test_random_games);
    return test_summary("dots");
}
