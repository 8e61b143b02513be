/* Pig engine: scenarios, bad input, random playouts. */
#include <stdint.h>
#include <string.h>

#include <jansson.h>

#include "apps/engine.h"
#include "testlib.h"

extern const struct zbc_engine zbc_engine_pig;
static const struct zbc_engine *E = &zbc_engine_pig;

static const uint8_t ROLL[1] = {0}, HOLD[1] = {1};

static void init2(struct zbc_game_state *st, uint8_t seats, uint8_t first)
{
    struct zbc_err err;
    int ok = E->init(st, seats, NULL, 0, first, NULL, &err);
    CHECK(ok);
}

/* One move with a literal roll stream. d6 faces come from bytes b < 252
 * as b % 6 + 1, so byte f-1 gives face f. */
static int play(struct zbc_game_state *st, uint8_t seat, const uint8_t *mv,
                const uint8_t *rb, size_t rn, struct zbc_err *err)
{
    struct zbc_roll r;
    if (!zbc_roll_init_literal(&r, rb, rn))
        return 0;
    return E->apply_move(st, seat, mv, 1, &r, err);
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
    size_t m = E->encode(&copy, b, sizeof b);
    CHECK_EQ_INT(m, n);
    CHECK_EQ_MEM(a, b, n);
}

static void test_turns_and_render(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    char buf[512];
    init2(&st, 2, 0);
    CHECK_EQ_INT(E->turn(&st), 0);
    uint8_t six = 5, one = 0, four = 3;
    CHECK(play(&st, 0, ROLL, &six, 1, &err));
    CHECK_EQ_INT(E->turn(&st), 0);
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK_EQ_STR(buf, "Pig, first to 100\n"
                      "  seat 0:   0  <- to move, turn total 6\n"
                      "  seat 1:   0\n"
                      "last: seat 0 rolled 6\n");
    CHECK(play(&st, 0, ROLL, &one, 1, &err)); /* a 1: turn total lost */
    CHECK_EQ_INT(E->turn(&st), 1);
    CHECK(play(&st, 1, ROLL, &four, 1, &err));
    CHECK(play(&st, 1, HOLD, NULL, 0, &err)); /* hold draws no roll */
    CHECK_EQ_INT(E->turn(&st), 0);
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    CHECK_EQ_STR(buf, "{\"game\":\"pig\",\"seats\":2,\"target\":100,"
                      "\"scores\":[0,4],\"turn_total\":0,\"turn\":0,"
                      "\"last\":{\"seat\":1,\"move\":\"hold\"},"
                      "\"result\":\"ongoing\",\"winner\":null}");
    roundtrip(&st);
}

static void test_rejection_sampling(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    init2(&st, 3, 2);
    /* 252..255 are rejected; 8 % 6 + 1 = 3. */
    const uint8_t rb[3] = {252, 255, 8};
    CHECK(play(&st, 2, ROLL, rb, 3, &err));
    char buf[256];
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "\"turn_total\":3,") != NULL);
    CHECK(strstr(buf, "\"die\":3") != NULL);
}

static void test_win_by_rolling(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result res;
    char buf[512];
    init2(&st, 2, 1);
    uint8_t six = 5;
    for (int i = 0; i < 16; i++) { /* 16 x 6 = 96: not yet */
        CHECK(play(&st, 1, ROLL, &six, 1, &err));
        E->result(&st, &res);
        CHECK_EQ_INT(res.kind, ZBC_RESULT_ONGOING);
    }
    CHECK(play(&st, 1, ROLL, &six, 1, &err)); /* 102 */
    E->result(&st, &res);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(res.winner, 1);
    CHECK_EQ_INT(res.out_mask, 0);
    CHECK_EQ_INT(E->turn(&st), ZBC_NOBODY);
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK_EQ_STR(buf, "Pig, first to 100\n"
                      "  seat 0:   0\n"
                      "  seat 1: 102  WINNER\n"
                      "last: seat 1 rolled 6\n");
    roundtrip(&st);
    struct zbc_move mv[4];
    CHECK_EQ_INT(E->gen_moves(&st, mv, 4), 0);
    CHECK(!E->check_move(&st, 1, ROLL, 1, &err));
    CHECK_EQ_STR(err.msg, "the game is over");
    CHECK(!play(&st, 0, ROLL, &six, 1, &err));
}

static void test_win_from_decoded_state(void)
{
    /* seats 2, seat 0 to move with 95 banked, seat 1 held last. */
    const uint8_t enc[9] = {2, 0, 0xFF, 0, 95, 10, 1, 1, 0};
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result res;
    CHECK(E->decode(&st, enc, sizeof enc, &err));
    uint8_t four = 3;
    CHECK(play(&st, 0, ROLL, &four, 1, &err)); /* 99: not yet */
    E->result(&st, &res);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_ONGOING);
    CHECK(play(&st, 0, HOLD, NULL, 0, &err));
    CHECK_EQ_INT(E->turn(&st), 1);
    uint8_t out[16];
    const uint8_t want[9] = {2, 1, 0xFF, 0, 99, 10, 0, 1, 0};
    CHECK_EQ_INT(E->encode(&st, out, sizeof out), 9);
    CHECK_EQ_MEM(out, want, 9);
    const uint8_t enc2[9] = {2, 0, 0xFF, 0, 99, 10, 1, 1, 0};
    CHECK(E->decode(&st, enc2, sizeof enc2, &err));
    uint8_t two = 1;
    CHECK(play(&st, 0, ROLL, &two, 1, &err));
    E->result(&st, &res);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(res.winner, 0);
    const uint8_t want2[9] = {2, 0, 0, 0, 101, 10, 0, 0, 2};
    CHECK_EQ_INT(E->encode(&st, out, sizeof out), 9);
    CHECK_EQ_MEM(out, want2, 9);
}

static void test_bad_input(void)
{
    struct zbc_game_state st, before;
    struct zbc_err err;
    uint8_t p1 = 0;
    CHECK(!E->check_params(1, NULL, 0, &err));
    CHECK_EQ_STR(err.msg, "pig takes 2 to 4 seats, not 1");
    CHECK(!E->check_params(5, NULL, 0, &err));
    CHECK(!E->check_params(2, &p1, 1, &err));
    CHECK_EQ_STR(err.msg, "pig takes no params (got 1 bytes)");
    CHECK(!E->init(&st, 2, NULL, 0, 2, NULL, &err));
    CHECK(E->check_params(4, NULL, 0, &err));

    init2(&st, 2, 0);
    uint8_t two[2] = {0, 0}, bad = 2;
    CHECK(!E->check_move(&st, 1, ROLL, 1, &err));
    CHECK_EQ_STR(err.msg, "not your turn: seat 0 is to move");
    CHECK(!E->check_move(&st, 0, two, 2, &err));
    CHECK(!E->check_move(&st, 0, two, 0, &err));
    CHECK(!E->check_move(&st, 0, &bad, 1, &err));
    CHECK_EQ_STR(err.msg, "unknown pig move 2 (0 roll, 1 hold)");
    CHECK(!E->check_move(&st, 0, HOLD, 1, &err));
    CHECK_EQ_STR(err.msg, "illegal move: nothing to hold (turn total is 0)");
    before = st;
    CHECK(!E->apply_move(&st, 0, ROLL, 1, NULL, &err));
    CHECK_EQ_STR(err.msg, "pig moves need a roll stream");
    /* exhausted stream: only rejected bytes. */
    const uint8_t rej[2] = {253, 254};
    CHECK(!play(&st, 0, ROLL, rej, 2, &err));
    CHECK_EQ_STR(err.msg, "roll stream exhausted");
    CHECK_EQ_MEM(&st, &before, sizeof st);
    CHECK(!play(&st, 0, ROLL, NULL, 0, &err));
    CHECK_EQ_MEM(&st, &before, sizeof st);

    /* decode: garbage and inconsistent states. */
    const struct {
        uint8_t b[12];
        size_t n;
    } bad_states[] = {
        {{0}, 0},
        {{2, 0, 0xFF, 0, 0, 0, 0xFF, 0}, 8},          /* truncated */
        {{2, 0, 0xFF, 0, 0, 0, 0xFF, 0, 0, 0}, 10},   /* trailing byte */
        {{1, 0, 0xFF, 0, 0, 0xFF, 0, 0}, 8},          /* 1 seat */
        {{5, 0, 0xFF, 0, 0, 0, 0, 0, 0, 0xFF, 0, 0}, 12}, /* 5 seats */
        {{2, 2, 0xFF, 0, 0, 0, 0xFF, 0, 0}, 9},       /* to_move 2 */
        {{2, 0, 0xFF, 0, 5, 0, 0xFF, 0, 0}, 9},       /* score, no move */
        {{2, 0, 0xFF, 1, 0, 0, 0, 0, 1}, 9},          /* turn total 1 */
        {{2, 0, 0xFF, 0, 100, 0, 1, 0, 3}, 9},        /* 100, no winner */
        {{2, 0, 0xFF, 10, 90, 0, 0, 0, 6}, 9},        /* 100 with tt */
        {{2, 0, 0, 0, 106, 0, 0, 0, 6}, 9},           /* winner > 105 */
        {{2, 1, 0, 0, 100, 0, 0, 0, 6}, 9},           /* winner not to move */
        {{2, 0, 0, 0, 100, 0, 0, 1, 0}, 9},           /* won by a hold */
        {{2, 0, 3, 0, 100, 0, 0, 0, 6}, 9},           /* winner 3 */
        {{2, 0, 0xFF, 0, 0, 0, 1, 0, 6}, 9},          /* roll 6, turn passed */
        {{2, 1, 0xFF, 4, 0, 0, 1, 0, 6}, 9},          /* tt < die */
        {{2, 0, 0xFF, 0, 0, 0, 1, 0, 7}, 9},          /* die 7 */
        {{2, 0, 0xFF, 0, 0, 0, 1, 2, 0}, 9},          /* move 2 */
        {{2, 0, 0xFF, 0, 0, 0, 0, 1, 0}, 9},          /* hold, same seat */
        {{2, 0, 0xFF, 0, 0, 0, 4, 1, 0}, 9},          /* last seat 4 */
    };
    init2(&st, 2, 0);
    before = st;
    for (size_t i = 0; i < sizeof bad_states / sizeof bad_states[0]; i++) {
        int ok = E->decode(&st, bad_states[i].b, bad_states[i].n, &err);
        CHECK(!ok);
        if (ok)
            fprintf(stderr, "bad state %zu decoded\n", i);
        CHECK_EQ_MEM(&st, &before, sizeof st);
    }
    const uint8_t good[9] = {2, 1, 0xFF, 0, 0, 0, 0, 0, 1};
    CHECK(E->decode(&st, good, 9, &err));

    char small[8];
    CHECK_EQ_INT(E->render(&st, small, sizeof small), -1);
    CHECK_EQ_INT(E->to_json(&st, small, sizeof small), -1);
    uint8_t tiny[4];
    CHECK_EQ_INT(E->encode(&st, tiny, sizeof tiny), 0);
}

static void test_notation(void)
{
    uint8_t mv[4];
    size_t n;
    struct zbc_err err;
    char txt[16];
    CHECK(E->parse_move(NULL, 0, "roll", mv, sizeof mv, &n, &err));
    CHECK_EQ_INT(n, 1);
    CHECK_EQ_INT(mv[0], 0);
    CHECK(E->parse_move(NULL, 0, " hold\n", mv, sizeof mv, &n, &err));
    CHECK_EQ_INT(mv[0], 1);
    CHECK(E->format_move(NULL, mv, n, txt, sizeof txt) == 1 && strlen(txt) == 4);
    CHECK_EQ_STR(txt, "hold");
    mv[0] = 0;
    CHECK(E->format_move(NULL, mv, 1, txt, sizeof txt) == 1 && strlen(txt) == 4);
    CHECK_EQ_STR(txt, "roll");
    CHECK(!E->parse_move(NULL, 0, "rolls", mv, sizeof mv, &n, &err));
    CHECK(!E->parse_move(NULL, 0, "", mv, sizeof mv, &n, &err));
    mv[0] = 7;
    CHECK_EQ_INT(E->format_move(NULL, mv, 1, txt, sizeof txt), 0);
}

static uint64_t rng_state;
static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

static void test_random_playouts(void)
{
    long moves_total = 0;
    for (uint32_t g = 0; g < (uint32_t)test_scaled(3000); g++) {
        rng_state = g;
        uint8_t seats = (uint8_t)(2 + g % 3);
        struct zbc_game_state st;
        struct zbc_err err;
        init2(&st, seats, (uint8_t)(g % seats));
        int steps = 0;
        for (;;) {
            struct zbc_result res;
            E->result(&st, &res);
            int t = E->turn(&st);
            struct zbc_move mv[4];
            size_t n = E->gen_moves(&st, mv, 4);
            if (res.kind != ZBC_RESULT_ONGOING) {
                CHECK_EQ_INT(t, ZBC_NOBODY);
                CHECK_EQ_INT(n, 0);
                CHECK(res.winner < seats);
                break;
            }
            CHECK(t >= 0 && t < seats);
            CHECK(n >= 1);
            /* exactly the generated single-byte moves are accepted (all
             * bytes on every 8th move, to keep the test fast) */
            for (int b = 0; b < (steps % 8 == 0 ? 256 : 3); b++) {
                uint8_t m = (uint8_t)b;
                bool listed = false;
                for (size_t i = 0; i < n; i++)
                    listed |= mv[i].b[0] == m;
                CHECK_EQ_INT(E->check_move(&st, (uint8_t)t, &m, 1, &err),
                             listed);
            }
            /* hold with probability 1/4 when allowed */
            const struct zbc_move *pick = &mv[(n > 1 && rnd() % 4 == 0) ? 1 : 0];
            uint8_t seed[32] = {0};
            memcpy(seed, &g, sizeof g);
            memcpy(seed + 8, &steps, sizeof steps);
            struct zbc_roll r;
            zbc_roll_init(&r, seed, (const uint8_t *)"t", 1);
            CHECK(E->apply_move(&st, (uint8_t)t, pick->b, pick->len, &r, &err));
            roundtrip(&st);
            steps++;
            CHECK(steps < 100000);
            if (steps >= 100000)
                break;
        }
        moves_total += steps;
    }
    printf("pig playouts: %ld moves\n", moves_total);
}

int main(void)
{
    TEST_RUN(test_turns_and_render);
    TEST_RUN(test_rejection_sampling);
    TEST_RUN(test_win_by_rolling);
    TEST_RUN(test_win_from_decoded_state);
    TEST_RUN(test_bad_input);
    TEST_RUN(test_notation);
    TEST_RUN(test_random_playouts);
    return test_summary("apps_pig");
}
