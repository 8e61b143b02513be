/* Race (snakes and ladders) engine: scenarios, bad input, random playouts. */
#include <stdint.h>
#include <string.h>

#include <jansson.h>

#include "apps/engine.h"
#include "testlib.h"

extern const struct zbc_engine zbc_engine_race;
static const struct zbc_engine *E = &zbc_engine_race;

static const uint8_t ROLL[1] = {0};

/* d6 faces come from bytes b < 252 as b % 6 + 1: byte f-1 gives face f. */
static int roll_face(struct zbc_game_state *st, uint8_t seat, uint8_t face,
                     struct zbc_err *err)
{
    struct zbc_roll r;
    uint8_t b = (uint8_t)(face - 1);
    if (!zbc_roll_init_literal(&r, &b, 1))
        return 0;
    return E->apply_move(st, seat, ROLL, 1, &r, err);
}

/* The JSON view parses (jansson), is an object, and its "turn" agrees with
 * turn(); the text view fits a normal buffer. */
static void views_check(const struct zbc_game_state *st)
{
    static char js[16384];
    CHECK(E->render(st, js, sizeof js) > 0);
    CHECK(E->to_json(st, js, sizeof js) > 0);
    json_error_t je;
    json_t *j = json_loads(js, 0, &je);
    CHECK(j != NULL && json_is_object(j));
    if (j == NULL) {
        fprintf(stderr, "bad JSON (%s): %s\n", je.text, js);
        return;
    }
    json_t *t = json_object_get(j, "turn");
    int turn = E->turn(st);
    CHECK(turn == ZBC_NOBODY ? json_is_null(t)
                             : json_is_integer(t) && json_integer_value(t) == turn);
    json_decref(j);
}

static void roundtrip(const struct zbc_game_state *st)
{
    static unsigned calls; /* views on every 16th state and every ending */
    if (calls++ % 16 == 0 || E->turn(st) == ZBC_NOBODY)
        views_check(st);
    uint8_t a[64], b[64];
    struct zbc_game_state copy;
    struct zbc_err err;
    size_t n = E->encode(st, a, sizeof a);
    CHECK(n > 0);
    int ok = E->decode(&copy, a, n, &err);
    CHECK(ok);
    if (!ok)
        fprintf(stderr, "decode: %s\n", err.msg);
    CHECK_EQ_INT(E->encode(&copy, b, sizeof b), n);
    CHECK_EQ_MEM(a, b, n);
}

static void test_ladders_snakes_render(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    char buf[2048];
    CHECK(E->init(&st, 2, NULL, 0, 0, NULL, &err));
    CHECK(roll_face(&st, 0, 2, &err)); /* 0 -> 2, ladder to 15 */
    CHECK(roll_face(&st, 1, 6, &err)); /* 0 -> 6 */
    CHECK(roll_face(&st, 0, 1, &err)); /* 15 -> 16, snake to 6 */
    CHECK(roll_face(&st, 1, 1, &err)); /* 6 -> 7, ladder to 28 */
    CHECK_EQ_INT(E->turn(&st), 0);
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK_EQ_STR(buf,
        "Race to 49: ladders 2>15 7>28 21>33 36>44, snakes 16>6 31>14 39>19 47>26\n"
        "43      44      45      46      47v     48      49\n"
        "42      41      40      39v     38      37      36^\n"
        "29      30      31v     32      33      34      35\n"
        "28 1    27      26      25      24      23      22\n"
        "15      16v     17      18      19      20      21^\n"
        "14      13      12      11      10       9       8\n"
        " 1       2^      3       4       5       6 0     7^\n"
        "seat 0: square 6  <- to move\n"
        "seat 1: square 28\n"
        "last: seat 1 rolled 1: 6 -> 7, ladder to 28\n");
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "\"positions\":[6,28],\"turn\":0,"
                      "\"last\":{\"seat\":1,\"die\":1,\"from\":6,\"to\":28},"
                      "\"result\":\"ongoing\",\"winner\":null}") != NULL);
    CHECK(strstr(buf, "{\"from\":47,\"to\":26,\"kind\":\"snake\"}") != NULL);
    roundtrip(&st);
}

static void test_overshoot_and_win(void)
{
    /* seat 0 on 48, seat 1 on 10 (came from 6 with a 4). */
    const uint8_t enc[8] = {2, 0, 0xFF, 48, 10, 1, 4, 6};
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result res;
    char buf[2048];
    CHECK(E->decode(&st, enc, sizeof enc, &err));
    CHECK(roll_face(&st, 0, 2, &err)); /* 50 > 49: stays */
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "last: seat 0 rolled 2: 48 stays (overshoot)\n") != NULL);
    CHECK_EQ_INT(E->turn(&st), 1);
    CHECK(roll_face(&st, 1, 6, &err)); /* 10 -> 16, snake to 6 */
    CHECK(roll_face(&st, 0, 1, &err)); /* 49: win */
    E->result(&st, &res);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(res.winner, 0);
    CHECK_EQ_INT(E->turn(&st), ZBC_NOBODY);
    const uint8_t want[8] = {2, 0, 0, 49, 6, 0, 1, 48};
    uint8_t out[16];
    CHECK_EQ_INT(E->encode(&st, out, sizeof out), 8);
    CHECK_EQ_MEM(out, want, 8);
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "\n43      44      45      46      47v     48      49 0\n") != NULL);
    CHECK(strstr(buf, "seat 0: square 49  WINNER\nseat 1: square 6\n") != NULL);
    CHECK(!E->check_move(&st, 1, ROLL, 1, &err));
    CHECK_EQ_STR(err.msg, "the game is over");
    struct zbc_move mv[2];
    CHECK_EQ_INT(E->gen_moves(&st, mv, 2), 0);
}

static void test_top_snake_four_seats(void)
{
    /* four seats; seat 2 on 43 to move; last: seat 1 from 0 rolled 5. */
    const uint8_t enc[10] = {4, 2, 0xFF, 0, 5, 43, 0, 1, 5, 0};
    struct zbc_game_state st;
    struct zbc_err err;
    CHECK(E->decode(&st, enc, sizeof enc, &err));
    CHECK(roll_face(&st, 2, 4, &err)); /* 47: snake to 26 */
    CHECK_EQ_INT(E->turn(&st), 3);
    char buf[1024];
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "\"positions\":[0,5,26,0],\"turn\":3,") != NULL);
    CHECK(roll_face(&st, 3, 3, &err));
    CHECK_EQ_INT(E->turn(&st), 0); /* wraps around */
    roundtrip(&st);
}

static void test_bad_input(void)
{
    struct zbc_game_state st, before;
    struct zbc_err err;
    uint8_t b1 = 0, mv2[2] = {0, 0}, one = 1;
    CHECK(!E->check_params(1, NULL, 0, &err));
    CHECK_EQ_STR(err.msg, "race takes 2 to 4 seats, not 1");
    CHECK(!E->check_params(5, NULL, 0, &err));
    CHECK(!E->check_params(2, &b1, 1, &err));
    CHECK_EQ_STR(err.msg, "race takes no params (got 1 bytes)");
    CHECK(!E->init(&st, 3, NULL, 0, 3, NULL, &err));

    CHECK(E->init(&st, 3, NULL, 0, 1, NULL, &err));
    CHECK(!E->check_move(&st, 0, ROLL, 1, &err));
    CHECK_EQ_STR(err.msg, "not your turn: seat 1 is to move");
    CHECK(!E->check_move(&st, 1, &one, 1, &err));
    CHECK_EQ_STR(err.msg, "the only race move is the single byte 0 (roll)");
    CHECK(!E->check_move(&st, 1, mv2, 2, &err));
    CHECK(!E->check_move(&st, 1, mv2, 0, &err));
    before = st;
    CHECK(!E->apply_move(&st, 1, ROLL, 1, NULL, &err));
    CHECK_EQ_STR(err.msg, "race moves need a roll stream");
    struct zbc_roll r;
    const uint8_t rej[3] = {252, 253, 255};
    CHECK(zbc_roll_init_literal(&r, rej, 3));
    CHECK(!E->apply_move(&st, 1, ROLL, 1, &r, &err));
    CHECK_EQ_STR(err.msg, "roll stream exhausted");
    CHECK_EQ_MEM(&st, &before, sizeof st);

    const struct {
        uint8_t b[12];
        size_t n;
    } bad[] = {
        {{0}, 0},
        {{2, 0, 0xFF, 0, 0, 0xFF, 0}, 7},             /* truncated */
        {{2, 0, 0xFF, 0, 0, 0xFF, 0, 0, 0}, 9},       /* trailing */
        {{1, 0, 0xFF, 0, 0xFF, 0, 0}, 7},
        {{2, 2, 0xFF, 0, 0, 0xFF, 0, 0}, 8},          /* to_move */
        {{2, 0, 0xFF, 3, 0, 0xFF, 0, 0}, 8},          /* moved, no last */
        {{2, 0, 0xFF, 0, 0, 0xFF, 1, 0}, 8},          /* die, no last */
        {{2, 0, 0xFF, 15, 2, 1, 2, 0}, 8},            /* on a ladder foot */
        {{2, 0, 0xFF, 15, 50, 1, 2, 48}, 8},          /* square 50 */
        {{2, 1, 0xFF, 15, 0, 0, 3, 0}, 8},            /* 0+3 is not 15 */
        {{2, 0, 0xFF, 15, 0, 0, 2, 0}, 8},            /* turn not passed */
        {{2, 1, 0xFF, 15, 0, 0, 7, 8}, 8},            /* die 7 */
        {{2, 1, 0xFF, 49, 0, 0, 1, 48}, 8},           /* 49, no winner */
        {{2, 0, 1, 49, 0, 0, 1, 48}, 8},              /* winner not on 49 */
        {{2, 1, 0, 49, 0, 0, 1, 48}, 8},              /* winner not to move */
        {{2, 0, 0, 49, 0, 1, 1, 48}, 8},              /* not the winner's roll */
        {{2, 0, 2, 49, 0, 0, 1, 48}, 8},              /* winner 2 */
        {{2, 1, 0xFF, 15, 0, 3, 2, 0}, 8},            /* last seat 3 */
        {{2, 1, 0xFF, 15, 0, 0, 2, 2}, 8},            /* from a ladder foot */
    };
    before = st;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int ok = E->decode(&st, bad[i].b, bad[i].n, &err);
        CHECK(!ok);
        if (ok)
            fprintf(stderr, "bad race state %zu decoded\n", i);
        CHECK_EQ_MEM(&st, &before, sizeof st);
    }
    const uint8_t good[8] = {2, 1, 0xFF, 15, 0, 0, 2, 0};
    CHECK(E->decode(&st, good, 8, &err));
    char small[16];
    CHECK_EQ_INT(E->render(&st, small, sizeof small), -1);
    CHECK_EQ_INT(E->to_json(&st, small, sizeof small), -1);
    uint8_t tiny[3];
    CHECK_EQ_INT(E->encode(&st, tiny, sizeof tiny), 0);
}

static void test_notation(void)
{
    uint8_t mv[4] = {9};
    size_t n = 0;
    struct zbc_err err;
    char txt[8];
    CHECK(E->parse_move(NULL, 0, " roll ", mv, sizeof mv, &n, &err));
    CHECK_EQ_INT(n, 1);
    CHECK_EQ_INT(mv[0], 0);
    CHECK_EQ_INT(E->format_move(NULL, mv, 1, txt, sizeof txt), 1);
    CHECK_EQ_INT(strlen(txt), 4);
    CHECK_EQ_STR(txt, "roll");
    CHECK(!E->parse_move(NULL, 0, "hold", mv, sizeof mv, &n, &err));
    CHECK(!E->parse_move(NULL, 0, "roll roll", mv, sizeof mv, &n, &err));
    mv[0] = 1;
    CHECK_EQ_INT(E->format_move(NULL, mv, 1, txt, sizeof txt), 0);
}

static void test_random_playouts(void)
{
    long total = 0;
    int longest = 0;
    for (uint32_t g = 0; g < 5000; g++) {
        uint8_t seats = (uint8_t)(2 + g % 3);
        struct zbc_game_state st;
        struct zbc_err err;
        CHECK(E->init(&st, seats, NULL, 0, (uint8_t)(g % seats), NULL, &err));
        uint8_t seed[32] = {0};
        memcpy(seed, &g, sizeof g);
        int steps = 0;
        for (;;) {
            struct zbc_result res;
            E->result(&st, &res);
            int t = E->turn(&st);
            struct zbc_move mv[2];
            size_t n = E->gen_moves(&st, mv, 2);
            if (res.kind != ZBC_RESULT_ONGOING) {
                CHECK_EQ_INT(res.kind, ZBC_RESULT_WIN);
                CHECK_EQ_INT(t, ZBC_NOBODY);
                CHECK_EQ_INT(n, 0);
                break;
            }
            CHECK(t >= 0 && t < seats);
            CHECK_EQ_INT(n, 1);
            for (uint8_t s = 0; s < seats; s++)
                CHECK_EQ_INT(E->check_move(&st, s, ROLL, 1, &err), s == t);
            struct zbc_roll r;
            uint8_t tag[4];
            memcpy(tag, &steps, 4);
            zbc_roll_init(&r, seed, tag, 4);
            CHECK(E->apply_move(&st, (uint8_t)t, mv[0].b, mv[0].len, &r, &err));
            roundtrip(&st);
            if (++steps >= 100000) {
                CHECK(0);
                break;
            }
        }
        total += steps;
        if (steps > longest)
            longest = steps;
    }
    printf("race playouts: %ld moves, longest game %d\n", total, longest);
}

int main(void)
{
    TEST_RUN(test_ladders_snakes_render);
    TEST_RUN(test_overshoot_and_win);
    TEST_RUN(test_top_snake_four_seats);
    TEST_RUN(test_bad_input);
    TEST_RUN(test_notation);
    TEST_RUN(test_random_playouts);
    return test_summary("apps_race");
}
