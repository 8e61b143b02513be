/* Rock-paper-scissors engine: scenarios, bad input, random playouts. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <jansson.h>

#include "apps/engine.h"
#include "apps/games/rps.h"
#include "crypto/hex.h"
#include "testlib.h"

extern const struct zbc_engine zbc_engine_rps;
static const struct zbc_engine *E = &zbc_engine_rps;

enum { ROCK = 1, SCISSORS = 2, PAPER = 3 };

static void salt_of(uint8_t salt[32], uint8_t seat, int round)
{
    for (int k = 0; k < 32; k++)
        salt[k] = (uint8_t)(seat * 101 + round * 7 + k);
}

static int do_commit(struct zbc_game_state *st, uint8_t seat, uint8_t choice,
                     int round, struct zbc_err *err)
{
    uint8_t m[33], salt[32];
    salt_of(salt, seat, round);
    m[0] = 0;
    if (!zbc_rps_commitment(m + 1, choice, salt, err))
        return 0;
    return E->apply_move(st, seat, m, 33, NULL, err);
}

static void reveal_bytes(uint8_t m[34], uint8_t seat, uint8_t choice,
                         int round)
{
    m[0] = 1;
    m[1] = choice;
    salt_of(m + 2, seat, round);
}

static int do_reveal(struct zbc_game_state *st, uint8_t seat, uint8_t choice,
                     int round, struct zbc_err *err)
{
    uint8_t m[34];
    reveal_bytes(m, seat, choice, round);
    return E->apply_move(st, seat, m, 34, NULL, err);
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
    uint8_t a[128], b[128];
    struct zbc_game_state copy;
    struct zbc_err err;
    size_t n = E->encode(st, a, sizeof a);
    CHECK_EQ_INT(n, 75);
    int ok = E->decode(&copy, a, n, &err);
    CHECK(ok);
    if (!ok)
        fprintf(stderr, "decode: %s\n", err.msg);
    CHECK_EQ_INT(E->encode(&copy, b, sizeof b), n);
    CHECK_EQ_MEM(a, b, n);
}

static void test_commitment(void)
{
    uint8_t h[32], want[32], salt[32];
    struct zbc_err err;
    memset(salt, 0x11, 32);
    CHECK(zbc_rps_commitment(h, ROCK, salt, &err));
    /* SHA3-256(01 || 11*32), from Python's hashlib */
    CHECK(zbc_hex_decode_exact(want, 32,
        "e6785ee8ac7a0e877f336f20d6c923560e4df4958336e0947bf7f8425655f61a"));
    CHECK_EQ_MEM(h, want, 32);
    for (int k = 0; k < 32; k++)
        salt[k] = (uint8_t)k;
    CHECK(zbc_rps_commitment(h, PAPER, salt, &err));
    CHECK(zbc_hex_decode_exact(want, 32,
        "cf1e2bf770bde9e659c6ee3b7f083abbec96517210e376856c6a0304286e27e7"));
    CHECK_EQ_MEM(h, want, 32);
    CHECK(!zbc_rps_commitment(h, 0, salt, &err));
    CHECK_EQ_STR(err.msg, "choice 0 is not 1 rock, 2 scissors or 3 paper");
    CHECK(!zbc_rps_commitment(h, 4, salt, &err));
}

static void test_best_of_three_with_tie(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result res;
    char buf[1024];
    const uint8_t n2 = 2;
    CHECK(E->init(&st, 2, &n2, 1, 1, NULL, &err));
    CHECK_EQ_INT(E->turn(&st), 1);
    /* round 1: seat 1 rock, seat 0 scissors: seat 1 wins it */
    CHECK(do_commit(&st, 1, ROCK, 1, &err));
    CHECK_EQ_INT(E->turn(&st), 0);
    CHECK(do_commit(&st, 0, SCISSORS, 1, &err));
    CHECK_EQ_INT(E->turn(&st), 1);
    CHECK(do_reveal(&st, 1, ROCK, 1, &err));
    CHECK_EQ_INT(E->turn(&st), 0);
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK_EQ_STR(buf, "Rock-paper-scissors, first to 2 round wins\n"
                      "  seat 0: 0  committed  <- to reveal\n"
                      "  seat 1: 0  revealed rock\n");
    roundtrip(&st);
    CHECK(do_reveal(&st, 0, SCISSORS, 1, &err));
    CHECK_EQ_INT(E->turn(&st), 1); /* the first seat starts every round */
    /* round 2: paper against paper is replayed */
    CHECK(do_commit(&st, 1, PAPER, 2, &err));
    CHECK(do_commit(&st, 0, PAPER, 2, &err));
    CHECK(do_reveal(&st, 1, PAPER, 2, &err));
    CHECK(do_reveal(&st, 0, PAPER, 2, &err));
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK_EQ_STR(buf, "Rock-paper-scissors, first to 2 round wins\n"
                      "  seat 0: 0\n"
                      "  seat 1: 1  <- to commit\n"
                      "last round: paper vs paper, tied (replayed)\n");
    /* round 3: seat 1 paper, seat 0 scissors: seat 0 */
    CHECK(do_commit(&st, 1, PAPER, 3, &err));
    CHECK(do_commit(&st, 0, SCISSORS, 3, &err));
    CHECK(do_reveal(&st, 1, PAPER, 3, &err));
    CHECK(do_reveal(&st, 0, SCISSORS, 3, &err));
    E->result(&st, &res);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_ONGOING);
    /* round 4: seat 1 rock, seat 0 paper: seat 0 wins the game 2-1 */
    CHECK(do_commit(&st, 1, ROCK, 4, &err));
    CHECK(do_commit(&st, 0, PAPER, 4, &err));
    CHECK(do_reveal(&st, 1, ROCK, 4, &err));
    CHECK(do_reveal(&st, 0, PAPER, 4, &err));
    E->result(&st, &res);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(res.winner, 0);
    CHECK_EQ_INT(res.out_mask, 0);
    CHECK_EQ_INT(E->turn(&st), ZBC_NOBODY);
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK_EQ_STR(buf, "Rock-paper-scissors, first to 2 round wins\n"
                      "  seat 0: 2  WINNER\n"
                      "  seat 1: 1\n"
                      "last round: paper vs rock, seat 0 won it\n");
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    CHECK_EQ_STR(buf, "{\"game\":\"rps\",\"target\":2,\"first\":1,"
                      "\"wins\":[2,1],\"phase\":\"over\",\"turn\":null,"
                      "\"committed\":[false,false],\"revealed\":[null,null],"
                      "\"last_round\":{\"choices\":[\"paper\",\"rock\"],"
                      "\"winner\":0},\"result\":\"win\",\"winner\":0}");
    roundtrip(&st);
    CHECK(!do_commit(&st, 1, ROCK, 5, &err));
    CHECK_EQ_STR(err.msg, "the game is over");
    struct zbc_move mv[4];
    CHECK_EQ_INT(E->gen_moves(&st, mv, 4), 0);
}

static void test_default_single_round(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result res;
    CHECK(E->init(&st, 2, NULL, 0, 0, NULL, &err));
    CHECK(do_commit(&st, 0, SCISSORS, 1, &err));
    CHECK(do_commit(&st, 1, PAPER, 1, &err));
    CHECK(do_reveal(&st, 0, SCISSORS, 1, &err));
    CHECK(do_reveal(&st, 1, PAPER, 1, &err));
    E->result(&st, &res);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(res.winner, 0); /* scissors cut paper */
    CHECK(E->init(&st, 2, NULL, 0, 0, NULL, &err));
    CHECK(do_commit(&st, 0, ROCK, 1, &err));
    CHECK(do_commit(&st, 1, PAPER, 1, &err));
    CHECK(do_reveal(&st, 0, ROCK, 1, &err));
    CHECK(do_reveal(&st, 1, PAPER, 1, &err));
    E->result(&st, &res);
    CHECK_EQ_INT(res.winner, 1); /* paper covers rock */
}

static void test_bad_input(void)
{
    struct zbc_game_state st, before;
    struct zbc_err err;
    uint8_t p[2] = {0, 0};
    CHECK(!E->check_params(3, NULL, 0, &err));
    CHECK_EQ_STR(err.msg, "rps takes 2 to 2 seats, not 3");
    CHECK(!E->check_params(2, p, 2, &err));
    CHECK(!E->check_params(2, p, 1, &err));
    CHECK_EQ_STR(err.msg, "rounds to win 0 out of range 1-5");
    p[0] = 6;
    CHECK(!E->check_params(2, p, 1, &err));
    p[0] = 5;
    CHECK(E->check_params(2, p, 1, &err));
    CHECK(!E->init(&st, 2, NULL, 0, 2, NULL, &err));

    CHECK(E->init(&st, 2, NULL, 0, 0, NULL, &err));
    before = st;
    CHECK(!do_commit(&st, 1, ROCK, 1, &err));
    CHECK_EQ_STR(err.msg, "not your turn: seat 0 is to move");
    CHECK(!do_reveal(&st, 0, ROCK, 1, &err));
    CHECK_EQ_STR(err.msg, "illegal move: commit your choice first (move [0, hash32])");
    uint8_t m[40] = {0};
    CHECK(!E->apply_move(&st, 0, m, 33, NULL, &err));
    CHECK_EQ_STR(err.msg, "illegal move: an all-zero commitment");
    m[5] = 1;
    CHECK(!E->apply_move(&st, 0, m, 32, NULL, &err));
    CHECK_EQ_STR(err.msg, "a commit move is 33 bytes, got 32");
    CHECK(!E->apply_move(&st, 0, m, 0, NULL, &err));
    CHECK_EQ_MEM(&st, &before, sizeof st);

    CHECK(do_commit(&st, 0, ROCK, 1, &err));
    CHECK(!do_commit(&st, 0, ROCK, 1, &err)); /* twice */
    CHECK_EQ_STR(err.msg, "not your turn: seat 1 is to move");
    CHECK(do_commit(&st, 1, SCISSORS, 1, &err));
    CHECK(!do_commit(&st, 0, ROCK, 1, &err));
    CHECK_EQ_STR(err.msg, "illegal move: reveal your choice now (move [1, choice, salt32])");
    before = st;
    CHECK(!do_reveal(&st, 0, PAPER, 1, &err)); /* not what was committed */
    CHECK_EQ_STR(err.msg, "illegal move: revealing paper does not match your commitment");
    reveal_bytes(m, 0, ROCK, 2); /* wrong salt */
    CHECK(!E->apply_move(&st, 0, m, 34, NULL, &err));
    reveal_bytes(m, 0, 4, 1);
    CHECK(!E->apply_move(&st, 0, m, 34, NULL, &err));
    CHECK_EQ_STR(err.msg, "choice 4 is not 1 rock, 2 scissors or 3 paper");
    reveal_bytes(m, 0, ROCK, 1);
    CHECK(!E->apply_move(&st, 0, m, 35, NULL, &err));
    CHECK_EQ_STR(err.msg, "a reveal move is 34 bytes, got 35");
    CHECK(!E->apply_move(&st, 1, m, 34, NULL, &err));
    CHECK_EQ_MEM(&st, &before, sizeof st);
    CHECK(E->check_move(&st, 0, m, 34, &err));

    /* decode */
    uint8_t good[75], bad[75];
    CHECK_EQ_INT(E->encode(&st, good, sizeof good), 75);
    CHECK_EQ_INT(E->encode(&st, bad, 74), 0);
    CHECK(!E->decode(&st, good, 74, &err));
    CHECK(!E->decode(&st, good, 0, &err));
#define TRY_BAD(mutate)                                                    \
    do {                                                                   \
        memcpy(bad, good, sizeof bad);                                     \
        mutate;                                                            \
        CHECK(!E->decode(&st, bad, sizeof bad, &err));                     \
        CHECK_EQ_MEM(&st, &before, sizeof st);                             \
    } while (0)
    TRY_BAD(bad[0] = 0);          /* N */
    TRY_BAD(bad[0] = 6);
    TRY_BAD(bad[1] = 2);          /* first */
    TRY_BAD(bad[2] = 3);          /* phase */
    TRY_BAD(bad[3] = 2);          /* to_move */
    TRY_BAD(bad[4] = 0);          /* winner in play */
    TRY_BAD(bad[5] = 1);          /* a win with no last round */
    TRY_BAD(bad[7] = 1);          /* choice before the first reveal */
    TRY_BAD(memset(bad + 11, 0, 32)); /* missing commitment */
    TRY_BAD(memcpy(bad + 43, bad + 11, 32)); /* equal commitments */
    TRY_BAD(bad[9] = 4);          /* last round choice */
    TRY_BAD({ bad[9] = 1; bad[10] = 2; }); /* seat 0 won a round, 0 wins */
    TRY_BAD(bad[2] = 2);          /* over without a winner */
    TRY_BAD({ bad[2] = 0; bad[3] = 1; }); /* commit phase, seat 1 to commit, seat 1 already committed */
#undef TRY_BAD
    /* a finished game decodes */
    const uint8_t fin[11] = {1, 0, 2, 1, 1, 0, 1, 0, 0, 2, 1};
    memset(bad, 0, sizeof bad);
    memcpy(bad, fin, 11);
    CHECK(E->decode(&st, bad, sizeof bad, &err));
    bad[10] = 3; /* last round scissors vs paper: seat 0 won it, not 1 */
    CHECK(!E->decode(&st, bad, sizeof bad, &err));
    char small[10];
    CHECK_EQ_INT(E->render(&st, small, sizeof small), -1);
    CHECK_EQ_INT(E->to_json(&st, small, sizeof small), -1);
}

static void test_notation(void)
{
    struct zbc_err err;
    uint8_t mv[64], h[32], salt[32];
    size_t n;
    char txt[200], text[200];
    const char *salthex = "abababababababababababababababababababababababababababababababab";
    memset(salt, 0xab, 32);
    snprintf(text, sizeof text, "commit scissors %s", salthex);
    CHECK(E->parse_move(NULL, 0, text, mv, sizeof mv, &n, &err));
    CHECK_EQ_INT(n, 33);
    CHECK_EQ_INT(mv[0], 0);
    CHECK(zbc_hex_decode_exact(h, 32,
        "f4f3b5eb10248a87464f6d60990bece4b3b3516038275c4a67d40987052ab35c"));
    CHECK_EQ_MEM(mv + 1, h, 32); /* SHA3-256(02 || ab*32), Python hashlib */
    CHECK_EQ_INT(E->format_move(NULL, mv, n, txt, sizeof txt), 1);
    CHECK_EQ_INT(strlen(txt), 71);
    CHECK_EQ_STR(txt, "commit f4f3b5eb10248a87464f6d60990bece4b3b3516038275c4a67d40987052ab35c");
    CHECK(E->parse_move(NULL, 0, txt, mv, sizeof mv, &n, &err));
    CHECK_EQ_INT(n, 33);
    CHECK_EQ_MEM(mv + 1, h, 32);
    snprintf(text, sizeof text, "reveal paper %s", salthex);
    CHECK(E->parse_move(NULL, 0, text, mv, sizeof mv, &n, &err));
    CHECK_EQ_INT(n, 34);
    CHECK_EQ_INT(mv[0], 1);
    CHECK_EQ_INT(mv[1], 3);
    CHECK_EQ_MEM(mv + 2, salt, 32);
    CHECK(E->format_move(NULL, mv, n, txt, sizeof txt) > 0);
    CHECK_EQ_STR(txt, text);
    CHECK(!E->parse_move(NULL, 0, "commit abc", mv, sizeof mv, &n, &err));
    CHECK_EQ_STR(err.msg, "a commitment hash is 64 hex characters");
    snprintf(text, sizeof text, "reveal lizard %s", salthex);
    CHECK(!E->parse_move(NULL, 0, text, mv, sizeof mv, &n, &err));
    CHECK_EQ_STR(err.msg, "choose rock, paper or scissors, not \"lizard\"");
    CHECK(!E->parse_move(NULL, 0, "reveal rock zz", mv, sizeof mv, &n, &err));
    CHECK(!E->parse_move(NULL, 0, "throw rock", mv, sizeof mv, &n, &err));
    CHECK(!E->parse_move(NULL, 0, "", mv, sizeof mv, &n, &err));
    mv[0] = 1;
    mv[1] = 0;
    CHECK_EQ_INT(E->format_move(NULL, mv, 34, txt, sizeof txt), 0);
    CHECK_EQ_INT(E->format_move(NULL, mv, 3, txt, sizeof txt), 0);
}

static uint64_t rng;
static uint32_t rnd(uint32_t n)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((rng >> 33) % n);
}

static void test_random_playouts(void)
{
    int wins[2] = {0, 0};
    for (int g = 0; g < 3000; g++) {
        rng = (uint64_t)g + 1;
        uint8_t target = (uint8_t)(1 + g % 5), first = (uint8_t)(rnd(2));
        struct zbc_game_state st;
        struct zbc_err err;
        CHECK(E->init(&st, 2, &target, 1, first, NULL, &err));
        uint8_t choice[2] = {0, 0};
        int round = 0, score[2] = {0, 0};
        for (int steps = 0;; steps++) {
            struct zbc_result res;
            E->result(&st, &res);
            int t = E->turn(&st);
            struct zbc_move mv[2];
            CHECK_EQ_INT(E->gen_moves(&st, mv, 2), 0);
            roundtrip(&st);
            if (res.kind != ZBC_RESULT_ONGOING) {
                CHECK_EQ_INT(t, ZBC_NOBODY);
                CHECK_EQ_INT(score[res.winner], target);
                CHECK(score[1 - res.winner] < target);
                wins[res.winner]++;
                break;
            }
            CHECK(t == 0 || t == 1);
            uint8_t s = (uint8_t)t;
            /* the other seat may never move now */
            uint8_t junk[34] = {0, 1};
            CHECK(!E->check_move(&st, (uint8_t)(1 - s), junk, 33, &err));
            if (choice[s] == 0) {
                choice[s] = (uint8_t)(1 + rnd(3));
                CHECK(do_commit(&st, s, choice[s], round, &err));
            } else {
                uint8_t wrong = (uint8_t)(choice[s] % 3 + 1);
                CHECK(!do_reveal(&st, s, wrong, round, &err));
                CHECK(do_reveal(&st, s, choice[s], round, &err));
                if (s != first) { /* the round is complete */
                    if (choice[0] != choice[1])
                        score[choice[1] == choice[0] % 3 + 1 ? 0 : 1]++;
                    choice[0] = choice[1] = 0;
                    round++;
                }
            }
            if (steps > 4000) {
                CHECK(0);
                break;
            }
        }
    }
    CHECK(wins[0] > 1000 && wins[1] > 1000);
    printf("rps playouts: seat 0 won %d, seat 1 won %d\n", wins[0], wins[1]);
}

/* The second seat sees the first seat's commitment on chain before it
 * commits.  Copying it would let it reveal the first seat's own reveal
 * (same choice, same salt): every round a tie, for ever, until the first
 * seat gives up and loses on time.  A commitment equal to the other
 * seat's commitment of the round is refused. */
static void test_copied_commitment_refused(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    CHECK(E->init(&st, 2, NULL, 0, 1, NULL, &err));
    uint8_t m[33], salt[32];
    salt_of(salt, 1, 0);
    m[0] = 0;
    CHECK(zbc_rps_commitment(m + 1, ROCK, salt, &err));
    CHECK(E->apply_move(&st, 1, m, 33, NULL, &err));
    /* seat 0 copies seat 1's commitment byte for byte */
    CHECK(!E->check_move(&st, 0, m, 33, &err));
    CHECK(strstr(err.msg, "same commitment") != NULL);
    CHECK(!E->apply_move(&st, 0, m, 33, NULL, &err));
    CHECK_EQ_INT(E->turn(&st), 0);
    /* a commitment of its own is fine */
    CHECK(do_commit(&st, 0, PAPER, 0, &err));
    CHECK(do_reveal(&st, 1, ROCK, 0, &err));
    CHECK(do_reveal(&st, 0, PAPER, 0, &err));
    struct zbc_result res;
    E->result(&st, &res);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(res.winner, 0);
}

int main(void)
{
    TEST_RUN(test_commitment);
    TEST_RUN(test_best_of_three_with_tie);
    TEST_RUN(test_default_single_round);
    TEST_RUN(test_bad_input);
    TEST_RUN(test_notation);
    TEST_RUN(test_random_playouts);
    TEST_RUN(test_copied_commitment_refused);
    return test_summary("apps_rps");
}
