/* Checkers engine: perft from the start (published counts for English
 * draughts, a multi-jump = one move), mandatory and multi-jump captures,
 * crowning ends a move, every ending, bad input, random playouts. */
#include <jansson.h>

#include "apps/engine.h"
#include "play_helpers.h"
#include "testlib.h"

static const struct zbc_engine *E;

static void start(struct zbc_game_state *st, uint8_t first)
{
    struct zbc_err err;
    CHECK(E->init(st, 2, NULL, 0, first, NULL, &err));
}

/* Builds a position: pieces like "b11 B5 w21 W30" (b/w man, B/W king on a
 * square 1-32), side to move 'b' or 'w', the quiet ply count.  Black is
 * seat 0.  The recorded last move is a dummy one ending on a piece of the
 * side that just moved. */
static void setup(struct zbc_game_state *st, const char *pieces, char side,
                  unsigned quiet)
{
    uint32_t men[2] = {0, 0}, kings = 0;
    uint8_t enc[32];
    struct zbc_err err;
    const char *p = pieces;
    int stm = side == 'w';
    uint8_t any_of_mover = 0;
    while (*p) {
        char c = *p++;
        unsigned sq = (unsigned)strtoul(p, (char **)&p, 10);
        int white = c == 'w' || c == 'W';
        men[white] |= 1u << (sq - 1);
        if (c == 'B' || c == 'W')
            kings |= 1u << (sq - 1);
        if (white != stm)
            any_of_mover = (uint8_t)sq;
        while (*p == ' ')
            p++;
    }
    enc[0] = 0;
    enc[1] = (uint8_t)stm;
    enc[2] = (uint8_t)quiet;
    for (int i = 0; i < 4; i++) {
        enc[3 + i] = (uint8_t)(men[0] >> (8 * i));
        enc[7 + i] = (uint8_t)(men[1] >> (8 * i));
        enc[11 + i] = (uint8_t)(kings >> (8 * i));
    }
    enc[15] = 2;
    enc[16] = any_of_mover;
    enc[17] = any_of_mover;
    if (!E->decode(st, enc, 18, &err)) {
        fprintf(stderr, "setup %s: %s\n", pieces, err.msg);
        CHECK(0);
    }
}

/* The legal moves in notation, space separated, in generation order. */
static void moves_text(const struct zbc_game_state *st, char *out, size_t cap)
{
    struct zbc_move moves[ZBC_MOVES_MAX];
    size_t n = E->gen_moves(st, moves, ZBC_MOVES_MAX), used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        char m[64];
        CHECK(E->format_move(st, moves[i].b, moves[i].len, m, sizeof m));
        used += (size_t)snprintf(out + used, cap - used, "%s%s", i ? " " : "",
                                 m);
    }
}

static uint64_t perft(const struct zbc_game_state *st, int depth)
{
    struct zbc_move moves[ZBC_MOVES_MAX];
    size_t n = E->gen_moves(st, moves, ZBC_MOVES_MAX);
    if (depth == 1)
        return n;
    uint64_t total = 0;
    int seat = E->turn(st);
    for (size_t i = 0; i < n; i++) {
        struct zbc_game_state child = *st;
        struct zbc_err err;
        if (!E->apply_move(&child, (uint8_t)seat, moves[i].b, moves[i].len,
                           NULL, &err)) {
            CHECK(0);
            return 0;
        }
        total += perft(&child, depth - 1);
    }
    return total;
}

static void test_perft(void)
{
    /* English draughts perft from the start position (published counts). */
    static const uint64_t want[9] = {0, 7, 49, 302, 1469, 7361, 36768,
                                     179740, 845931};
    struct zbc_game_state st;
    start(&st, 0);
    for (int d = 1; d <= (ZBC_TEST_SANITIZED ? 6 : 8); d++) {
        uint64_t got = perft(&st, d);
        if (got != want[d])
            fprintf(stderr, "perft %d: %llu, want %llu\n", d,
                    (unsigned long long)got, (unsigned long long)want[d]);
        CHECK(got == want[d]);
    }
}

static void test_start(void)
{
    struct zbc_game_state st;
    char buf[2048];
    start(&st, 1);
    CHECK_EQ_INT(E->turn(&st), 1);
    moves_text(&st, buf, sizeof buf);
    CHECK_EQ_STR(buf, "9-13 9-14 10-14 10-15 11-15 11-16 12-16");
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK_EQ_STR(buf,
                 "+------------------------+\n"
                 "|    b     b     b     b |\n"
                 "| b     b     b     b    |\n"
                 "|    b     b     b     b |\n"
                 "|13    14    15    16    |\n"
                 "|   17    18    19    20 |\n"
                 "| w     w     w     w    |\n"
                 "|    w     w     w     w |\n"
                 "| w     w     w     w    |\n"
                 "+------------------------+\n"
                 "black b/B: seat 1, white w/W: seat 0 (B, W kings)\n"
                 "black to move (seat 1), 0 quiet plies\n");
    uint8_t enc[64];
    size_t n = E->encode(&st, enc, sizeof enc);
    static const uint8_t want[16] = {1,    0,    0,    0xFF, 0x0F, 0,
                                     0,    0,    0,    0xF0, 0xFF, 0,
                                     0,    0,    0,    0};
    CHECK_EQ_INT(n, 16);
    CHECK_EQ_MEM(enc, want, 16);
}

static void test_mandatory_capture(void)
{
    struct zbc_game_state st, before;
    struct zbc_err err;
    char buf[2048];
    start(&st, 0);
    CHECK_EQ_INT(ph_play(E, &st, "11-15,22-18", &err), -1);
    moves_text(&st, buf, sizeof buf);
    CHECK_EQ_STR(buf, "15x22");
    before = st;
    uint8_t mv[2] = {9, 13};
    CHECK(!E->apply_move(&st, 0, mv, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "illegal move: 9-13 is not a capture and a capture "
                          "is mandatory");
    CHECK(memcmp(&st, &before, sizeof st) == 0);
    CHECK_EQ_INT(ph_play(E, &st, "15x22", &err), -1);
    moves_text(&st, buf, sizeof buf);
    CHECK_EQ_STR(buf, "25x18 26x17");
    CHECK_EQ_INT(ph_play(E, &st, "26x17", &err), -1);
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    json_error_t jerr;
    json_t *j = json_loads(buf, 0, &jerr);
    CHECK(j != NULL);
    CHECK_EQ_STR(json_string_value(json_object_get(j, "squares")),
                 "bbbbbbbbbb.b....w...w.www.wwwwww");
    CHECK_EQ_STR(json_string_value(json_object_get(j, "last_move")), "26x17");
    CHECK_EQ_STR(json_string_value(json_object_get(j, "to_move")), "black");
    CHECK_EQ_INT(json_integer_value(json_object_get(j, "turn")), 0);
    CHECK_EQ_STR(json_string_value(json_array_get(json_object_get(j, "board"),
                                                  4)), " w . . .");
    json_decref(j);
}

static void test_multi_jump_and_win(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result r;
    char buf[2048];
    setup(&st, "b6 b1 w10 w19", 'b', 0);
    moves_text(&st, buf, sizeof buf);
    CHECK_EQ_STR(buf, "6x15x24");
    uint8_t part[2] = {6, 15};
    CHECK(!E->check_move(&st, 0, part, 2, &err));
    CHECK_EQ_STR(err.msg, "illegal move: the capture 6x15 must continue from "
                          "15");
    CHECK_EQ_INT(ph_play(E, &st, "6x15x24", &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(r.winner, 0);
    CHECK_EQ_INT(E->turn(&st), ZBC_NOBODY);
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "last move: 6x15x24\nresult: black wins, white has no "
                      "legal move (seat 0 wins)\n") != NULL);
    CHECK(strstr(buf, "|    b     2     3     4 |\n") != NULL);
    uint8_t mv[2] = {24, 28};
    CHECK(!E->check_move(&st, 1, mv, 2, &err));
    CHECK_EQ_STR(err.msg, "the game is over");
    /* two routes: any may be chosen, each is one move */
    setup(&st, "b6 w9 w10 w19 w18 W32", 'b', 0);
    moves_text(&st, buf, sizeof buf);
    CHECK_EQ_STR(buf, "6x13 6x15x22 6x15x24");
}

static void test_crowning_ends_move(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    char buf[2048];
    setup(&st, "b22 b1 w26 w27", 'b', 5);
    moves_text(&st, buf, sizeof buf);
    CHECK_EQ_STR(buf, "22x31");
    uint8_t longer[3] = {22, 31, 24};
    CHECK(!E->check_move(&st, 0, longer, 3, &err));
    CHECK_EQ_STR(err.msg, "illegal move: 22x31x24 is not a legal man move");
    CHECK_EQ_INT(ph_play(E, &st, "22x31", &err), -1);
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "\"squares\":\"b.........................w...B.\"") !=
          NULL);
    CHECK(strstr(buf, "\"quiet_plies\":0") != NULL);
    /* the new king moves backwards too */
    CHECK_EQ_INT(ph_play(E, &st, "27-24", &err), -1);
    CHECK_EQ_INT(ph_play(E, &st, "31-27", &err), -1);
    moves_text(&st, buf, sizeof buf);
    CHECK_EQ_STR(buf, "24-19 24-20");
    CHECK_EQ_INT(ph_play(E, &st, "24-20", &err), -1);
    moves_text(&st, buf, sizeof buf);
    CHECK_EQ_STR(buf, "1-5 1-6 27-31 27-32 27-23 27-24");
}

static void test_men_forward_only(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    setup(&st, "b15 B18 w30", 'b', 0);
    uint8_t back[2] = {15, 11};
    CHECK(!E->check_move(&st, 0, back, 2, &err));
    CHECK_EQ_STR(err.msg, "illegal move: 15-11 is not a legal man move");
    uint8_t kback[2] = {18, 14};
    CHECK(E->check_move(&st, 0, kback, 2, &err));
    uint8_t kfar[2] = {18, 10};
    CHECK(!E->check_move(&st, 0, kfar, 2, &err));
    CHECK_EQ_STR(err.msg, "illegal move: 18x10 is not a legal king move");
    /* a white man captures towards 1 only */
    setup(&st, "b15 b19 w23", 'w', 0);
    char buf[256];
    moves_text(&st, buf, sizeof buf);
    CHECK_EQ_STR(buf, "23x16");
    /* a king captures backwards */
    setup(&st, "B18 b1 w14 w30", 'b', 0);
    moves_text(&st, buf, sizeof buf);
    CHECK_EQ_STR(buf, "18x9");
}

static void test_blocked_loses(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result r;
    setup(&st, "b28 w32 W1", 'w', 0);
    CHECK_EQ_INT(ph_play(E, &st, "1-6", &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(r.winner, 1);
    char buf[1024];
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "\"result\":\"win\",\"winner\":1,\"reason\":\"no legal "
                      "move\"") != NULL);
}

static void test_quiet_draw(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result r;
    setup(&st, "B1 W32 b9", 'b', 78);
    CHECK_EQ_INT(ph_play(E, &st, "1-5", &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_ONGOING);
    CHECK_EQ_INT(ph_play(E, &st, "32-28", &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_DRAW);
    char buf[1024];
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "result: draw after 80 plies without capture or man "
                      "move\n") != NULL);
    /* a man move resets the count */
    setup(&st, "B1 W32 b9", 'b', 79);
    CHECK_EQ_INT(ph_play(E, &st, "9-13,32-28", &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_ONGOING);
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "\"quiet_plies\":1") != NULL);
    /* a win on the 80th ply is a win */
    setup(&st, "b28 w32 W1", 'w', 79);
    CHECK_EQ_INT(ph_play(E, &st, "1-6", &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_WIN);
}

static void test_bad_moves(void)
{
    struct zbc_game_state st, before;
    struct zbc_err err;
    start(&st, 0);
    before = st;
    uint8_t mv[20] = {11, 15};
    CHECK(!E->apply_move(&st, 1, mv, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "not your turn: seat 0 is to move");
    CHECK(!E->apply_move(&st, 0, mv, 1, NULL, &err));
    CHECK_EQ_STR(err.msg, "a checkers move lists 2-16 squares, not 1");
    CHECK(!E->apply_move(&st, 0, mv, 17, NULL, &err));
    mv[1] = 33;
    CHECK(!E->apply_move(&st, 0, mv, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "square 33 out of range 1-32");
    mv[0] = 0;
    CHECK(!E->apply_move(&st, 0, mv, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "square 0 out of range 1-32");
    mv[0] = 22;
    mv[1] = 18;
    CHECK(!E->apply_move(&st, 0, mv, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "illegal move: no black piece on square 22");
    mv[0] = 11;
    mv[1] = 14;
    CHECK(!E->apply_move(&st, 0, mv, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "illegal move: 11-14 is not a legal man move");
    mv[0] = 7;
    mv[1] = 10;
    CHECK(!E->apply_move(&st, 0, mv, 2, NULL, &err));
    CHECK(memcmp(&st, &before, sizeof st) == 0);
    /* notation */
    size_t len;
    uint8_t out[20];
    CHECK(E->parse_move(NULL, 0, "11x18x25", out, sizeof out, &len, &err));
    CHECK(len == 3 && out[0] == 11 && out[1] == 18 && out[2] == 25);
    CHECK(E->parse_move(NULL, 0, "11-15", out, sizeof out, &len, &err));
    CHECK(len == 2 && out[0] == 11 && out[1] == 15);
    CHECK(!E->parse_move(NULL, 0, "11-15-19", out, sizeof out, &len, &err));
    CHECK_EQ_STR(err.msg, "checkers move '11-15-19' must look like 11-15 or "
                          "11x18x25");
    CHECK(!E->parse_move(NULL, 0, "11x18-25", out, sizeof out, &len, &err));
    CHECK(!E->parse_move(NULL, 0, "11", out, sizeof out, &len, &err));
    CHECK(!E->parse_move(NULL, 0, "", out, sizeof out, &len, &err));
    CHECK(!E->parse_move(NULL, 0, "011-15", out, sizeof out, &len, &err));
    CHECK(!E->parse_move(NULL, 0, "11-", out, sizeof out, &len, &err));
    CHECK(!E->parse_move(NULL, 0, "11-33", out, sizeof out, &len, &err));
    CHECK_EQ_STR(err.msg, "square 33 out of range 1-32");
    CHECK(!E->parse_move(NULL, 0, "0-4", out, sizeof out, &len, &err));
    CHECK(!E->parse_move(NULL, 0, "11x18", out, 1, &len, &err));
    CHECK_EQ_STR(err.msg, "checkers move '11x18' is too long");
    CHECK(!E->parse_move(NULL, 0, "1x2x3x4x5x6x7x8x9x10x11x12x13x14x15x16x17",
                         out, sizeof out, &len, &err));
    char text[64];
    out[0] = 11;
    out[1] = 15;
    CHECK(E->format_move(NULL, out, 2, text, sizeof text));
    CHECK_EQ_STR(text, "11-15");
    out[0] = 15;
    out[1] = 22;
    CHECK(E->format_move(NULL, out, 2, text, sizeof text));
    CHECK_EQ_STR(text, "15x22");
    CHECK(!E->format_move(NULL, out, 2, text, 3));
    CHECK(!E->format_move(NULL, out, 1, text, sizeof text));
    out[1] = 33;
    CHECK(!E->format_move(NULL, out, 2, text, sizeof text));
}

static void test_bad_params(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    uint8_t p[1] = {0};
    CHECK(!E->check_params(4, NULL, 0, &err));
    CHECK_EQ_STR(err.msg, "checkers takes 2 to 2 seats, not 4");
    CHECK(!E->check_params(2, p, 1, &err));
    CHECK_EQ_STR(err.msg, "checkers takes no params (got 1 bytes)");
    CHECK(!E->init(&st, 2, NULL, 0, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "first seat 2 out of range 0-1");
}

static void bad_decode(const uint8_t *enc, size_t n, const char *want)
{
    struct zbc_game_state st;
    struct zbc_err err;
    CHECK(!E->decode(&st, enc, n, &err));
    CHECK_EQ_STR(err.msg, want);
}

static void test_decode(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    uint8_t enc[64], bad[64];
    start(&st, 0);
    CHECK_EQ_INT(ph_play(E, &st, "11-15,22-18,15x22,26x17", &err), -1);
    size_t n = E->encode(&st, enc, sizeof enc);
    CHECK_EQ_INT(n, 18);
    ph_decode_garbage(E, &st, 11);
    bad_decode(enc, 3, "checkers state is 3 bytes, at least 16 needed");
    bad_decode(enc, 17, "checkers state with a 2-square last move must be 18 "
                        "bytes, not 17");
#define MUT(i, v, msg)                                                        \
    do {                                                                      \
        memcpy(bad, enc, n);                                                  \
        bad[i] = (uint8_t)(v);                                                \
        bad_decode(bad, n, msg);                                              \
    } while (0)
    MUT(0, 2, "black seat 2 out of range 0-1");
    MUT(1, 2, "side to move 2 out of range 0-1");
    MUT(2, 81, "quiet ply count 81 above 80");
    MUT(7, 0x01, "a square holds both a black and a white piece");
    MUT(16, 33, "last move square 33 out of range 1-32");
    MUT(17, 1, "the last move does not end on a white piece");
    memcpy(bad, enc, n);
    bad[12] = 0x10; /* king on 13: empty */
    bad_decode(bad, n, "a king flag is set on an empty square");
    memcpy(bad, enc, n);
    bad[6] = 0x80; /* black man on 32, white off 29-32 */
    bad[10] = 0;
    bad_decode(bad, n, "an uncrowned black man stands on 29-32");
    memcpy(bad, enc, n);
    bad[7] = 0x01; /* white man on 1 (and black on 1) */
    bad[3] = 0xFE;
    bad_decode(bad, n, "an uncrowned white man stands on 1-4");
    memcpy(bad, enc, n);
    bad[7] = bad[8] = bad[9] = bad[10] = 0;
    bad_decode(bad, n, "white just moved but has no pieces");
    memcpy(bad, enc, n);
    bad[3] = 0xFF;
    bad[4] = 0x3F;
    bad[5] = 0;
    bad_decode(bad, n, "black has 14 pieces, at most 12");
    memcpy(bad, enc, n);
    bad[15] = 1;
    bad_decode(bad, 17, "last move length 1 not 0 or 2-16");
    memcpy(bad, enc, n);
    bad[15] = 0;
    bad[2] = 3;
    bad_decode(bad, 16, "only the start of a game has no last move");
}

static void test_random_playouts(void)
{
    int counts[3], games = test_scaled(1000);
    ph_random_games(E, 2, NULL, 0, games, 20000, 99, counts);
    CHECK_EQ_INT(counts[0], 0);
    CHECK_EQ_INT(counts[1] + counts[2], games);
    /* about 1 game in 100 is drawn: the fifth a sanitized build plays may
     * hold none (test_quiet_draw draws there too) */
    CHECK(counts[1] > 0 && (ZBC_TEST_SANITIZED || counts[2] > 0));
    printf("checkers random games: %d wins, %d draws\n", counts[1], counts[2]);
}

int main(void)
{
    E = zbc_engine_by_name("checkers");
    if (E == NULL || zbc_engine_by_type(4) != E) {
        fprintf(stderr, "checkers engine not registered\n");
        return 1;
    }
    TEST_RUN(test_perft);
    TEST_RUN(test_start);
    TEST_RUN(test_mandatory_capture);
    TEST_RUN(test_multi_jump_and_win);
    TEST_RUN(test_crowning_ends_move);
    TEST_RUN(test_men_forward_only);
    TEST_RUN(test_blocked_loses);
    TEST_RUN(test_quiet_draw);
    TEST_RUN(test_bad_moves);
    TEST_RUN(test_bad_params);
    TEST_RUN(test_decode);
    TEST_RUN(test_random_playouts);
    return test_summary("checkers");
}
