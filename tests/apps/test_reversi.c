/* Reversi engine: perft with forced passes, endings, notation, bad input,
 * playouts.  Game records were checked with an independent Python
 * implementation of the rules. */
#include "apps/engine.h"
#include "apps/games/reversi.h"
#include "testlib.h"
#include "play_helpers.h"

extern const struct zbc_engine zbc_engine_reversi;
static const struct zbc_engine *E = &zbc_engine_reversi;

static void start(struct zbc_game_state *st, uint8_t first)
{
    struct zbc_err err;
    CHECK(E->init(st, 2, NULL, 0, first, NULL, &err));
}

/* Perft where a forced pass is one ply (the side that must pass has the
 * single "move" pass). */
static uint64_t perft(const struct zbc_game_state *st, int depth)
{
    struct zbc_move moves[64];
    size_t n = E->gen_moves(st, moves, 64);
    if (depth == 1)
        return n;
    uint64_t total = 0;
    int seat = E->turn(st);
    for (size_t i = 0; i < n; i++) {
        struct zbc_game_state child = *st;
        struct zbc_err err;
        CHECK(E->apply_move(&child, (uint8_t)seat, moves[i].b, 1, NULL, &err));
        if (zbc_reversi_opponent_passed(&child))
            total += depth == 2 ? 1 : perft(&child, depth - 2);
        else
            total += perft(&child, depth - 1);
    }
    return total;
}

static void test_perft(void)
{
    /* published Othello perft counts from the start position */
    static const uint64_t want[7] = {4, 12, 56, 244, 1396, 8200, 55092};
    struct zbc_game_state st;
    start(&st, 0);
    for (int d = 1; d <= 7; d++)
        CHECK_EQ_INT(perft(&st, d), want[d - 1]);
}

static void test_start_render(void)
{
    struct zbc_game_state st;
    char buf[1024];
    start(&st, 1);
    CHECK_EQ_INT(E->turn(&st), 1);
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK_EQ_STR(buf, "  a b c d e f g h\n"
                      "1 . . . . . . . .\n"
                      "2 . . . . . . . .\n"
                      "3 . . . . . . . .\n"
                      "4 . . . W B . . .\n"
                      "5 . . . B W . . .\n"
                      "6 . . . . . . . .\n"
                      "7 . . . . . . . .\n"
                      "8 . . . . . . . .\n"
                      "B: seat 1, 2 discs; W: seat 0, 2 discs\n"
                      "to move: seat 1 (B)\n");
    struct zbc_move m[64];
    size_t n = E->gen_moves(&st, m, 64);
    CHECK_EQ_INT(n, 4);
    char note[8];
    const char *want[4] = {"d3", "c4", "f5", "e6"};
    for (size_t i = 0; i < n && i < 4; i++) {
        CHECK(E->format_move(&st, m[i].b, 1, note, sizeof note));
        CHECK_EQ_STR(note, want[i]);
    }
}

/* The shortest possible game: black wipes out white in nine moves. */
static void test_wipeout(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result r;
    char buf[1024];
    start(&st, 0);
    CHECK_EQ_INT(ph_play(E, &st, "e6,f4,e3,f6,g5,d6,e7,f5,c5", &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(r.winner, 0);
    CHECK_EQ_INT(E->turn(&st), ZBC_NOBODY);
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK_EQ_STR(buf, "  a b c d e f g h\n"
                      "1 . . . . . . . .\n"
                      "2 . . . . . . . .\n"
                      "3 . . . . B . . .\n"
                      "4 . . . B B B . .\n"
                      "5 . . B B B B B .\n"
                      "6 . . . B B B . .\n"
                      "7 . . . . B . . .\n"
                      "8 . . . . . . . .\n"
                      "B: seat 0, 13 discs; W: seat 1, 0 discs\n"
                      "last move: c5\n"
                      "result: seat 0 (B) wins 13-0\n");
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "\"discs\":{\"black\":13,\"white\":0},\"turn\":null,"
                      "\"to_move\":null,\"last\":\"c5\",\"opponent_passed\":"
                      "false,\"result\":\"win\",\"winner\":0}") != NULL);
    uint8_t mv = 0;
    CHECK(!E->check_move(&st, 0, &mv, 1, &err));
    CHECK_EQ_STR(err.msg, "the game is over");
}

static void test_pass(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    char buf[1024];
    start(&st, 0);
    /* after white's h1 black has no move: white moves again */
    CHECK_EQ_INT(ph_play(E, &st, "e6,d6,c4,d3,c7,b5,d2,e2,f2,f1,b3,d7,d8,g2,"
                                 "h2,h3,a6", &err), -1);
    CHECK(!zbc_reversi_opponent_passed(&st));
    CHECK_EQ_INT(E->turn(&st), 1);
    /* perft through the pass (independent Python count, pass = one ply) */
    static const uint64_t want[5] = {3, 8, 20, 64, 326};
    for (int d = 1; d <= 5; d++)
        CHECK_EQ_INT(perft(&st, d), want[d - 1]);
    CHECK_EQ_INT(ph_play(E, &st, "h1", &err), -1);
    CHECK(zbc_reversi_opponent_passed(&st));
    CHECK_EQ_INT(E->turn(&st), 1);
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "B: seat 0, 17 discs; W: seat 1, 5 discs\n"
                      "last move: h1 (B passes)\n"
                      "to move: seat 1 (W)\n") != NULL);
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "\"opponent_passed\":true") != NULL);
    /* black may not move */
    uint8_t mv = 0;
    CHECK(!E->check_move(&st, 0, &mv, 1, &err));
    CHECK_EQ_STR(err.msg, "not your turn: seat 1 is to move");
    /* the decoded state knows the pass too */
    CHECK(ph_roundtrip(E, &st));
    CHECK(ph_perft(E, &st, 1) > 0);
}

static void test_draw(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result r;
    start(&st, 1);
    CHECK_EQ_INT(ph_play(E, &st,
        "f5,f6,e6,d6,c5,f4,g5,h6,h5,g6,c7,c6,e3,c4,c3,b6,e7,d8,c8,d2,f7,b8,"
        "g4,d3,c1,d1,h7,h4,a6,e2,e8,h8,f2,g2,f3,b1,f1,b5,c2,b2,a5,g3,h1,f8,"
        "h3,b3,d7,g7,b7,g1,b4,a8,e1,a7,a1,a4,g8,a2,h2,a3", &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_DRAW);
    CHECK_EQ_INT(E->turn(&st), ZBC_NOBODY);
    char buf[1024];
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "1 B B B B B B W B\n") != NULL);
    CHECK(strstr(buf, "result: draw 32-32\n") != NULL);
}

static void test_bad_moves(void)
{
    struct zbc_game_state st, before;
    struct zbc_err err;
    start(&st, 0);
    before = st;
    uint8_t mv[2] = {27, 0};
    CHECK(!E->apply_move(&st, 0, mv, 1, NULL, &err));
    CHECK_EQ_STR(err.msg, "illegal move: d4 is taken");
    mv[0] = 0;
    CHECK(!E->apply_move(&st, 0, mv, 1, NULL, &err));
    CHECK_EQ_STR(err.msg, "illegal move: a1 flips no disc");
    mv[0] = 20; /* e3: next to black's own e4 */
    CHECK(!E->apply_move(&st, 0, mv, 1, NULL, &err));
    CHECK_EQ_STR(err.msg, "illegal move: e3 flips no disc");
    mv[0] = 64;
    CHECK(!E->apply_move(&st, 0, mv, 1, NULL, &err));
    CHECK_EQ_STR(err.msg, "cell 64 out of range 0-63");
    mv[0] = 19;
    CHECK(!E->apply_move(&st, 1, mv, 1, NULL, &err));
    CHECK_EQ_STR(err.msg, "not your turn: seat 0 is to move");
    CHECK(!E->apply_move(&st, 0, mv, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "a reversi move is 1 byte (cell 0-63), got 2");
    CHECK(memcmp(&st, &before, sizeof st) == 0);
    size_t len;
    CHECK(!E->parse_move(&st, 0, "i1", mv, sizeof mv, &len, &err));
    CHECK_EQ_STR(err.msg, "reversi square (a1-h8): 'i1' is not a square: "
                          "file must be a-h");
    CHECK(!E->parse_move(&st, 0, "pass", mv, sizeof mv, &len, &err));
    CHECK(E->parse_move(&st, 0, "D3", mv, sizeof mv, &len, &err));
    CHECK_EQ_INT(mv[0], 19);
}

static void test_bad_params(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    uint8_t p = 0;
    CHECK(!E->check_params(3, NULL, 0, &err));
    CHECK_EQ_STR(err.msg, "reversi takes 2 to 2 seats, not 3");
    CHECK(!E->check_params(2, &p, 1, &err));
    CHECK_EQ_STR(err.msg, "reversi takes no params, got 1 bytes");
    CHECK(!E->init(&st, 2, NULL, 0, 3, NULL, &err));
    CHECK_EQ_STR(err.msg, "first seat 3 out of range 0-1");
}

static void test_decode_bad(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    uint8_t enc[66], b[66];
    start(&st, 0);
    CHECK_EQ_INT(E->encode(&st, enc, sizeof enc), 66);
    CHECK_EQ_INT(E->encode(&st, enc, 65), 0);
    CHECK(E->decode(&st, enc, 66, &err));
    memcpy(b, enc, 66);
    b[0] = 2;
    CHECK(!E->decode(&st, b, 66, &err));
    CHECK_EQ_STR(err.msg, "black seat 2 out of range 0-1");
    memcpy(b, enc, 66);
    b[1 + 5] = 1;
    CHECK(!E->decode(&st, b, 66, &err));
    CHECK_EQ_STR(err.msg, "no last move but the board is not the start "
                          "position");
    b[65] = 5;
    CHECK(E->decode(&st, b, 66, &err));
    b[65] = 4;
    CHECK(!E->decode(&st, b, 66, &err));
    CHECK_EQ_STR(err.msg, "last move 4 is not an occupied cell");
    b[65] = 27;
    CHECK(!E->decode(&st, b, 66, &err));
    CHECK_EQ_STR(err.msg, "last move 27 is a centre cell");
    memcpy(b, enc, 66);
    b[1 + 35] = 0;
    CHECK(!E->decode(&st, b, 66, &err));
    CHECK_EQ_STR(err.msg, "centre cell 35 is empty");
    memcpy(b, enc, 66);
    b[1 + 9] = 3;
    CHECK(!E->decode(&st, b, 66, &err));
    CHECK_EQ_STR(err.msg, "cell 9 holds 3, not 0-2");
    CHECK(!E->decode(&st, enc, 65, &err));
    CHECK_EQ_STR(err.msg, "reversi state is 66 bytes, got 65");
    start(&st, 0);
    CHECK_EQ_INT(ph_play(E, &st, "d3,c3,c4", &err), -1);
    ph_decode_garbage(E, &st, 5);
}

static void test_random_games(void)
{
    int counts[3];
    /* at most 60 discs are placed */
    ph_random_games(E, 2, NULL, 0, test_scaled(1000), 60, 4, counts);
    CHECK_EQ_INT(counts[0], 0);
    CHECK(counts[1] > 0);
}

int main(void)
{
    TEST_RUN(test_perft);
    TEST_RUN(test_start_render);
    TEST_RUN(test_wipeout);
    TEST_RUN(test_pass);
    TEST_RUN(test_draw);
    TEST_RUN(test_bad_moves);
    TEST_RUN(test_bad_params);
    TEST_RUN(test_decode_bad);
    TEST_RUN(test_random_games);
    return test_summary("reversi");
}
