/* Ludo engine: scenarios for every rule, bad input, random playouts. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <jansson.h>

#include "apps/engine.h"
#include "testlib.h"

extern const struct zbc_engine zbc_engine_ludo;
static const struct zbc_engine *E = &zbc_engine_ludo;

static const uint8_t ORDER0123[4] = {0, 1, 2, 3};

/* d6 faces come from bytes b < 252 as b % 6 + 1: byte f-1 gives face f. */
static int roll(struct zbc_game_state *st, uint8_t seat, const uint8_t order[4],
                uint8_t face, struct zbc_err *err)
{
    struct zbc_roll r;
    uint8_t b = (uint8_t)(face - 1);
    if (!zbc_roll_init_literal(&r, &b, 1))
        return 0;
    return E->apply_move(st, seat, order, 4, &r, err);
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

static int decode(struct zbc_game_state *st, const uint8_t *b, size_t n)
{
    struct zbc_err err;
    int ok = E->decode(st, b, n, &err);
    if (!ok)
        fprintf(stderr, "decode: %s\n", err.msg);
    return ok;
}

static void test_enter_and_move(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    char buf[2048];
    CHECK(E->init(&st, 2, NULL, 0, 0, NULL, &err));
    CHECK(roll(&st, 0, ORDER0123, 3, &err)); /* nothing can leave the yard */
    CHECK_EQ_INT(E->turn(&st), 1);
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "last: seat 0 rolled 3: no token could move\n") != NULL);
    CHECK(roll(&st, 1, ORDER0123, 6, &err)); /* token 0 enters on 26 */
    CHECK_EQ_INT(E->turn(&st), 1);           /* a 6 rolls again */
    const uint8_t o1023[4] = {1, 0, 2, 3};
    CHECK(roll(&st, 1, o1023, 4, &err)); /* token 1 in the yard: token 0 */
    CHECK_EQ_INT(E->turn(&st), 0);
    const uint8_t o2013[4] = {2, 0, 1, 3};
    CHECK(roll(&st, 0, o2013, 6, &err)); /* token 2 enters on 0 */
    CHECK_EQ_INT(E->turn(&st), 0);
    CHECK(roll(&st, 0, o2013, 5, &err));
    CHECK_EQ_INT(E->turn(&st), 1);
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    CHECK_EQ_STR(buf, "{\"game\":\"ludo\",\"seats\":2,\"starts\":[0,26],"
                      "\"safe\":[0,8,13,21,26,34,39,47],"
                      "\"progress\":[[0,0,6,0],[5,0,0,0]],"
                      "\"squares\":[[null,null,5,null],[30,null,null,null]],"
                      "\"turn\":1,\"last\":{\"seat\":0,\"die\":5,\"token\":2,"
                      "\"from\":1,\"to\":6,\"captured\":null},"
                      "\"result\":\"ongoing\",\"winner\":null}");
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK_EQ_STR(buf,
        "Ludo: track squares 0-51 (* safe, digit = seat, + = several seats)\n"
        "     0         1         2         3         4         5\n"
        "     0123456789012345678901234567890123456789012345678901\n"
        "     *....0..*....*.......*....*...1...*....*.......*....\n"
        "seat 0 (start  0): 0=yard 1=yard 2=sq 5 3=yard\n"
        "seat 1 (start 26): 0=sq 30 1=yard 2=yard 3=yard  <- to move\n"
        "last: seat 0 rolled 5: token 2 sq 0 -> sq 5\n");
    roundtrip(&st);
}

static void test_capture_and_safe_squares(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    char buf[2048];
    /* seat 0 token 0 at progress 28 (square 27); seat 1 token 0 at
     * progress 5 (square 30), which it reached from 1 with a 4. */
    const uint8_t enc[17] = {2, 0, 0xFF, 28, 0, 0, 0, 5, 0, 0, 0,
                             1, 4, 0, 1, 0xFF, 0xFF};
    CHECK(decode(&st, enc, sizeof enc));
    CHECK(roll(&st, 0, ORDER0123, 3, &err)); /* 27 + 3 = 30: capture */
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "last: seat 0 rolled 3: token 0 sq 27 -> sq 30, sent seat 1 token 0 to its yard\n") != NULL);
    CHECK(strstr(buf, "seat 1 (start 26): 0=yard 1=yard 2=yard 3=yard  <- to move\n") != NULL);
    roundtrip(&st);

    /* a star square (34) is safe: seat 1 token at progress 9 = square 34;
     * seat 0 token from progress 32 (square 31) rolls 3 to square 34. */
    const uint8_t safe[17] = {2, 0, 0xFF, 32, 0, 0, 0, 9, 0, 0, 0,
                              1, 4, 0, 5, 0xFF, 0xFF};
    CHECK(decode(&st, safe, sizeof safe));
    CHECK(roll(&st, 0, ORDER0123, 3, &err));
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "\"progress\":[[35,0,0,0],[9,0,0,0]],"
                      "\"squares\":[[34,null,null,null],[34,null,null,null]]") != NULL);
    CHECK(strstr(buf, "\"captured\":null") != NULL);
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "\n     *.......*....*.......*....*.......+....*.......*....\n") != NULL);
    roundtrip(&st);

    /* two opponent tokens on one square are not captured */
    const uint8_t two[17] = {2, 0, 0xFF, 28, 0, 0, 0, 5, 5, 0, 0,
                             1, 4, 1, 1, 0xFF, 0xFF};
    CHECK(decode(&st, two, sizeof two));
    CHECK(roll(&st, 0, ORDER0123, 3, &err));
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "\"progress\":[[31,0,0,0],[5,5,0,0]]") != NULL);
    roundtrip(&st);

    /* a start square is safe too: seat 1 enters on 26 where seat 0 sits */
    const uint8_t start[17] = {2, 1, 0xFF, 27, 0, 0, 0, 0, 0, 0, 0,
                               0, 1, 0, 26, 0xFF, 0xFF};
    CHECK(decode(&st, start, sizeof start));
    CHECK(roll(&st, 1, ORDER0123, 6, &err));
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "\"progress\":[[27,0,0,0],[1,0,0,0]]") != NULL);
    CHECK_EQ_INT(E->turn(&st), 1);
}

static void test_order_and_sixes(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    char buf[2048];
    /* seat 0: tokens at 10 and 20, two in the yard; seat 1 rolled a 2
     * with nothing to move. */
    const uint8_t enc[17] = {2, 0, 0xFF, 10, 20, 0, 0, 0, 0, 0, 0,
                             1, 2, 0xFF, 0, 0xFF, 0xFF};
    CHECK(decode(&st, enc, sizeof enc));
    const uint8_t o2301[4] = {2, 3, 0, 1};
    CHECK(roll(&st, 0, o2301, 6, &err)); /* token 2 enters */
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "\"progress\":[[10,20,1,0],") != NULL);
    CHECK_EQ_INT(E->turn(&st), 0);
    CHECK(roll(&st, 0, ORDER0123, 6, &err)); /* token 0: 10 -> 16 */
    CHECK(roll(&st, 0, o2301, 2, &err));     /* token 2: 1 -> 3 */
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "\"progress\":[[16,20,3,0],") != NULL);
    CHECK_EQ_INT(E->turn(&st), 1);

    /* a 6 with no token able to move still rolls again */
    const uint8_t stuck[17] = {2, 0, 0xFF, 54, 57, 57, 57, 0, 0, 0, 0,
                               1, 2, 0xFF, 0, 0xFF, 0xFF};
    CHECK(decode(&st, stuck, sizeof stuck));
    CHECK(roll(&st, 0, ORDER0123, 6, &err));
    CHECK_EQ_INT(E->turn(&st), 0);
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "last: seat 0 rolled 6: no token could move (rolls again)\n") != NULL);
    roundtrip(&st);
}

static void test_exact_roll_home_and_win(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result res;
    char buf[2048];
    const uint8_t enc[17] = {2, 0, 0xFF, 55, 57, 57, 57, 0, 0, 0, 0,
                             1, 3, 0xFF, 0, 0xFF, 0xFF};
    CHECK(decode(&st, enc, sizeof enc));
    CHECK(roll(&st, 0, ORDER0123, 3, &err)); /* 58 > 57: no move */
    CHECK_EQ_INT(E->turn(&st), 1);
    CHECK(roll(&st, 1, ORDER0123, 1, &err));
    CHECK(roll(&st, 0, ORDER0123, 1, &err)); /* 56: home column 5 */
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "seat 0 (start  0): 0=home 5 1=done 2=done 3=done\n") != NULL);
    CHECK(strstr(buf, "last: seat 0 rolled 1: token 0 home 4 -> home 5\n") != NULL);
    CHECK(roll(&st, 1, ORDER0123, 1, &err));
    E->result(&st, &res);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_ONGOING);
    CHECK(roll(&st, 0, ORDER0123, 1, &err)); /* 57: home, all four */
    E->result(&st, &res);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(res.winner, 0);
    CHECK_EQ_INT(res.out_mask, 0);
    CHECK_EQ_INT(E->turn(&st), ZBC_NOBODY);
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "seat 0 (start  0): 0=done 1=done 2=done 3=done  WINNER\n") != NULL);
    roundtrip(&st);
    struct zbc_move mv[24];
    CHECK_EQ_INT(E->gen_moves(&st, mv, 24), 0);
    CHECK(!roll(&st, 1, ORDER0123, 1, &err));
    CHECK_EQ_STR(err.msg, "the game is over");

    /* the first of four seats to finish wins at once (a 6 does not give
     * the winner another roll) */
    const uint8_t four[25] = {4, 2, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0,
                              51, 57, 57, 57, 0, 0, 0, 0,
                              1, 3, 0xFF, 0, 0xFF, 0xFF};
    CHECK(decode(&st, four, sizeof four));
    CHECK(roll(&st, 2, ORDER0123, 6, &err));
    E->result(&st, &res);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(res.winner, 2);
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "\"starts\":[0,13,26,39],") != NULL);
    CHECK(strstr(buf, "\"turn\":null,") != NULL);
}

static void test_three_seats(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    char buf[2048];
    CHECK(E->init(&st, 3, NULL, 0, 2, NULL, &err));
    CHECK(roll(&st, 2, ORDER0123, 6, &err));
    CHECK(roll(&st, 2, ORDER0123, 2, &err));
    CHECK_EQ_INT(E->turn(&st), 0); /* wraps around */
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "\"starts\":[0,13,26],") != NULL);
    CHECK(strstr(buf, "\"squares\":[[null,null,null,null],[null,null,null,null],[28,null,null,null]]") != NULL);
}

static void test_bad_input(void)
{
    struct zbc_game_state st, before;
    struct zbc_err err;
    uint8_t b = 0;
    CHECK(!E->check_params(1, NULL, 0, &err));
    CHECK_EQ_STR(err.msg, "ludo takes 2 to 4 seats, not 1");
    CHECK(!E->check_params(5, NULL, 0, &err));
    CHECK(!E->check_params(2, &b, 1, &err));
    CHECK_EQ_STR(err.msg, "ludo takes no params (got 1 bytes)");
    CHECK(!E->init(&st, 2, NULL, 0, 2, NULL, &err));
    CHECK(E->init(&st, 2, NULL, 0, 0, NULL, &err));
    before = st;
    CHECK(!E->check_move(&st, 1, ORDER0123, 4, &err));
    CHECK_EQ_STR(err.msg, "not your turn: seat 0 is to move");
    CHECK(!E->check_move(&st, 0, ORDER0123, 3, &err));
    CHECK_EQ_STR(err.msg, "a ludo move is 4 bytes (token order), got 3");
    const uint8_t dup[4] = {0, 0, 1, 2}, big[4] = {0, 1, 2, 4};
    CHECK(!E->check_move(&st, 0, dup, 4, &err));
    CHECK_EQ_STR(err.msg, "the token order 0 0 1 2 is not a permutation of 0-3");
    CHECK(!E->check_move(&st, 0, big, 4, &err));
    CHECK(!E->apply_move(&st, 0, ORDER0123, 4, NULL, &err));
    CHECK_EQ_STR(err.msg, "ludo moves need a roll stream");
    struct zbc_roll r;
    const uint8_t rej[2] = {252, 255};
    CHECK(zbc_roll_init_literal(&r, rej, 2));
    CHECK(!E->apply_move(&st, 0, ORDER0123, 4, &r, &err));
    CHECK_EQ_STR(err.msg, "roll stream exhausted");
    CHECK_EQ_MEM(&st, &before, sizeof st);

    const struct {
        uint8_t b[17];
        size_t n;
    } bad[] = {
        {{0}, 0},
        {{2, 0, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0, 0xFF, 0, 0xFF}, 16},
        {{1, 0, 0xFF, 0, 0, 0, 0, 0xFF, 0, 0xFF, 0, 0xFF, 0xFF}, 13},
        {{2, 2, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0, 0xFF, 0, 0xFF, 0xFF}, 17},
        {{2, 0, 0xFF, 1, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0, 0xFF, 0, 0xFF, 0xFF}, 17},
        {{2, 0, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 1, 0xFF, 0, 0xFF, 0xFF}, 17},
        /* progress 58 */
        {{2, 0, 0xFF, 58, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0xFF, 0, 0xFF, 0xFF}, 17},
        /* all home, no winner */
        {{2, 1, 0xFF, 57, 57, 57, 57, 0, 0, 0, 0, 0, 1, 0, 56, 0xFF, 0xFF}, 17},
        /* winner not all home */
        {{2, 0, 0, 56, 57, 57, 57, 0, 0, 0, 0, 0, 1, 0, 55, 0xFF, 0xFF}, 17},
        /* the last roll does not lead there: 10 + 2 != 13 */
        {{2, 0, 0xFF, 13, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 10, 0xFF, 0xFF}, 17},
        /* turn after a 6 must stay */
        {{2, 1, 0xFF, 1, 0, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0xFF, 0xFF}, 17},
        /* turn after a 2 must pass */
        {{2, 0, 0xFF, 3, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1, 0xFF, 0xFF}, 17},
        /* no token moved although token 0 could */
        {{2, 1, 0xFF, 3, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0xFF, 0, 0xFF, 0xFF}, 17},
        /* a lone token left standing where the last mover landed (sq 30) */
        {{2, 1, 0xFF, 31, 0, 0, 0, 5, 0, 0, 0, 0, 3, 0, 28, 0xFF, 0xFF}, 17},
        /* a capture of a token not in its yard */
        {{2, 1, 0xFF, 31, 0, 0, 0, 5, 0, 0, 0, 0, 3, 0, 28, 1, 0}, 17},
        /* a capture on a safe square (34) */
        {{2, 1, 0xFF, 35, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 32, 1, 0}, 17},
        /* capturing one's own seat */
        {{2, 1, 0xFF, 31, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 28, 0, 1}, 17},
        /* capture token without seat */
        {{2, 1, 0xFF, 31, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 28, 0xFF, 1}, 17},
        /* last token 4 */
        {{2, 1, 0xFF, 31, 0, 0, 0, 0, 0, 0, 0, 0, 3, 4, 28, 0xFF, 0xFF}, 17},
        /* last die 7 */
        {{2, 1, 0xFF, 31, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0, 24, 0xFF, 0xFF}, 17},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int ok = E->decode(&st, bad[i].b, bad[i].n, &err);
        CHECK(!ok);
        if (ok)
            fprintf(stderr, "bad ludo state %zu decoded\n", i);
        CHECK_EQ_MEM(&st, &before, sizeof st);
    }
    /* the capture state itself decodes */
    const uint8_t cap[17] = {2, 1, 0xFF, 31, 0, 0, 0, 0, 0, 0, 0,
                             0, 3, 0, 28, 1, 0};
    CHECK(decode(&st, cap, sizeof cap));
    char small[16];
    CHECK_EQ_INT(E->render(&st, small, sizeof small), -1);
    CHECK_EQ_INT(E->to_json(&st, small, sizeof small), -1);
    uint8_t tiny[8];
    CHECK_EQ_INT(E->encode(&st, tiny, sizeof tiny), 0);
}

static void test_notation(void)
{
    uint8_t mv[8];
    size_t n;
    struct zbc_err err;
    char txt[16];
    CHECK(E->parse_move(NULL, 0, "order 2013", mv, sizeof mv, &n, &err));
    CHECK_EQ_INT(n, 4);
    const uint8_t want[4] = {2, 0, 1, 3};
    CHECK_EQ_MEM(mv, want, 4);
    CHECK_EQ_INT(E->format_move(NULL, mv, 4, txt, sizeof txt), 1);
    CHECK_EQ_INT(strlen(txt), 10);
    CHECK_EQ_STR(txt, "order 2013");
    CHECK(!E->parse_move(NULL, 0, "order 2213", mv, sizeof mv, &n, &err));
    CHECK_EQ_STR(err.msg, "\"2213\" is not an order of the tokens 0-3");
    CHECK(!E->parse_move(NULL, 0, "order 1234", mv, sizeof mv, &n, &err));
    CHECK(!E->parse_move(NULL, 0, "order 123", mv, sizeof mv, &n, &err));
    CHECK(!E->parse_move(NULL, 0, "2013", mv, sizeof mv, &n, &err));
    CHECK(!E->parse_move(NULL, 0, "order 2013 x", mv, sizeof mv, &n, &err));
    const uint8_t dup[4] = {1, 1, 2, 3};
    CHECK_EQ_INT(E->format_move(NULL, dup, 4, txt, sizeof txt), 0);
    CHECK_EQ_INT(E->format_move(NULL, want, 3, txt, sizeof txt), 0);
}

static uint64_t rng;
static uint32_t rnd(uint32_t n)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((rng >> 33) % n);
}

static bool is_perm(const uint8_t m[4])
{
    unsigned seen = 0;
    for (int i = 0; i < 4; i++) {
        if (m[i] > 3 || (seen & (1u << m[i])))
            return false;
        seen |= 1u << m[i];
    }
    return true;
}

static void test_random_playouts(void)
{
    long total = 0;
    int longest = 0, captures = 0, wins[4] = {0};
    const uint32_t games = (uint32_t)test_scaled(1500);
    for (uint32_t g = 0; g < games; g++) {
        rng = g + 1;
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
            struct zbc_move mv[32];
            size_t n = E->gen_moves(&st, mv, 32);
            if (res.kind != ZBC_RESULT_ONGOING) {
                CHECK_EQ_INT(res.kind, ZBC_RESULT_WIN);
                CHECK_EQ_INT(t, ZBC_NOBODY);
                CHECK_EQ_INT(n, 0);
                wins[res.winner]++;
                break;
            }
            CHECK(t >= 0 && t < seats);
            CHECK_EQ_INT(n, 24);
            for (size_t i = 0; i < n; i++)
                CHECK(is_perm(mv[i].b) && mv[i].len == 4);
            for (int k = 0; k < 4; k++) { /* random 4-byte strings */
                uint8_t m[4];
                for (int i = 0; i < 4; i++)
                    m[i] = (uint8_t)rnd(k < 2 ? 4 : 256);
                CHECK_EQ_INT(E->check_move(&st, (uint8_t)t, m, 4, &err),
                             is_perm(m));
            }
            const struct zbc_move *m = &mv[rnd(24)];
            struct zbc_roll r;
            uint8_t tag[4];
            memcpy(tag, &steps, 4);
            zbc_roll_init(&r, seed, tag, 4);
            CHECK(E->apply_move(&st, (uint8_t)t, m->b, m->len, &r, &err));
            char js[1024];
            CHECK(E->to_json(&st, js, sizeof js) > 0);
            if (strstr(js, "\"captured\":{") != NULL)
                captures++;
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
    CHECK(captures > (int)games * 2 / 3);
    CHECK(wins[0] > 0 && wins[1] > 0 && wins[2] > 0 && wins[3] > 0);
    printf("ludo playouts: %ld moves, longest game %d, %d captures\n", total,
           longest, captures);
}

int main(void)
{
    TEST_RUN(test_enter_and_move);
    TEST_RUN(test_capture_and_safe_squares);
    TEST_RUN(test_order_and_sixes);
    TEST_RUN(test_exact_roll_home_and_win);
    TEST_RUN(test_three_seats);
    TEST_RUN(test_bad_input);
    TEST_RUN(test_notation);
    TEST_RUN(test_random_playouts);
    return test_summary("apps_ludo");
}
