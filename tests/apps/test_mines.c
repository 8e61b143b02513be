/* Mines (type 28): reveals against the catalogue vectors of
 * tests/vectors/fair_catalogue.json (computed by tests/tools/fair_catalogue.py from
 * docs/games.md, not from the C code), params, moves, values, notation and state bytes
 * (docs/games.md, "Mines (type 28)"). */
#include <jansson.h>

#include "apps/app.h"
#include "apps/engine.h"
#include "apps/fair_pay.h"
#include "crypto/bytes.h"
#include "crypto/hex.h"
#include "testlib.h"
#include "solo_vectors.h"

static const struct zbc_engine *E;
static struct zbc_game_state st;

static void start(uint8_t mines, const char *seed)
{
    uint8_t p[2 + 64];
    size_t n = strlen(seed);
    p[0] = mines;
    p[1] = (uint8_t)n;
    memcpy(p + 2, seed, n);
    struct zbc_err err;
    CHECK(E->init(&st, 1, p, 2 + n, 0, NULL, &err));
}

static int play(const char *text, struct zbc_roll *r, struct zbc_err *err)
{
    uint8_t m[8];
    size_t len;
    if (!E->parse_move(&st, 0, text, m, sizeof m, &len, err))
        return 0;
    return E->apply_move(&st, 0, m, len, r, err);
}

static json_t *state_json(void)
{
    static char buf[4096];
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    json_error_t je;
    return json_loads(buf, 0, &je);
}

/* Every tile of every 25-tile vector: a reveal is a mine exactly when the
 * vector draws it, and a bust shows the vector's mines.  With k tiles
 * revealed (the vectors with fewer tiles) the draw is over the hidden
 * tiles in ascending order. */
static void test_vectors(void)
{
    json_t *root = sv_load();
    int checked = 0;
    for (size_t i = 0; i < sv_count(root); i++) {
        uint8_t seed[32];
        const char *client;
        uint64_t nonce;
        json_t *c = sv_case(root, i, "mines", seed, &client, &nonce);
        if (c == NULL)
            continue;
        json_t *params = json_object_get(c, "params");
        uint8_t m = (uint8_t)json_integer_value(json_object_get(params, "mines"));
        json_t *tj = json_object_get(params, "tiles");
        uint32_t tiles = tj ? (uint32_t)json_integer_value(tj) : 25;
        uint32_t k = 25 - tiles; /* tiles revealed before */
        if (m < 1 || m > 24 || k >= 25u - m)
            continue;
        json_t *want = json_object_get(json_object_get(c, "event"), "mines");
        uint32_t mask = 0;
        for (size_t j = 0; j < json_array_size(want); j++)
            mask |= 1u << (k + (uint32_t)json_integer_value(json_array_get(want, j)));
        for (uint8_t t = (uint8_t)k; t < 25; t++) {
            /* a game with tiles 0..k-1 revealed (state bytes, docs/games.md) */
            uint8_t b[12] = {m, 0, (uint8_t)k, 0xff};
            zbc_put_le32(b + 4, (1u << k) - 1);
            zbc_put_le32(b + 8, 0);
            struct zbc_err err;
            CHECK(E->decode(&st, b, sizeof b, &err));
            struct zbc_roll r;
            zbc_roll_init_fair(&r, seed, client, nonce);
            uint8_t mv[2] = {1, t};
            CHECK(E->apply_move(&st, 0, mv, 2, &r, &err));
            uint8_t enc[12];
            CHECK_EQ_INT(E->encode(&st, enc, sizeof enc), 12);
            if (mask >> t & 1) {
                CHECK_EQ_INT(enc[1], 1); /* bust */
                CHECK_EQ_INT(enc[3], t);
                CHECK_EQ_INT(zbc_get_le32(enc + 8), mask);
                CHECK_EQ_INT(E->solo->value(&st), 0);
            } else {
                CHECK(enc[1] == 0 || enc[1] == 3);
                CHECK_EQ_INT(enc[2], k + 1);
                CHECK_EQ_INT(E->solo->value(&st), zbc_mines_multiplier(m, k + 1));
            }
        }
        checked++;
    }
    json_decref(root);
    printf("mines vectors checked: %d\n", checked);
    CHECK(checked >= 10);
}

static void test_params(void)
{
    struct zbc_err err;
    uint8_t p[80];
    size_t n;
    CHECK(E->check_params(1, NULL, 0, &err)); /* 3 mines, empty client seed */
    CHECK(!E->check_params(2, NULL, 0, &err));
    CHECK_EQ_STR(err.msg, "mines takes 1 to 1 seats, not 2");
    p[0] = 0;
    CHECK(!E->check_params(1, p, 1, &err));
    CHECK_EQ_STR(err.msg, "mines takes 1 to 24 mines, not 0");
    p[0] = 25;
    CHECK(!E->check_params(1, p, 1, &err));
    CHECK_EQ_STR(err.msg, "mines takes 1 to 24 mines, not 25");
    p[0] = 24;
    CHECK(E->check_params(1, p, 1, &err));
    p[1] = 3;
    memcpy(p + 2, "ab", 2);
    CHECK(!E->check_params(1, p, 4, &err));
    CHECK_EQ_STR(err.msg, "client seed length says 3 bytes but 2 follow");
    p[1] = 2;
    p[3] = 0x07;
    CHECK(!E->check_params(1, p, 4, &err));
    CHECK_EQ_STR(err.msg, "client seed must be printable ASCII (byte 1 is 0x07)");
    p[1] = 65;
    CHECK(!E->check_params(1, p, 67, &err));
    CHECK_EQ_STR(err.msg, "client seed is 65 bytes, at most 64 allowed");
    /* words */
    CHECK(zbc_engine_params_from_text(E, "mines=5,seed=lucky", p, sizeof p, &n, &err));
    CHECK_EQ_INT(n, 7);
    CHECK(p[0] == 5 && p[1] == 5 && memcmp(p + 2, "lucky", 5) == 0);
    char text[64];
    CHECK(zbc_engine_params_to_text(E, p, n, text, sizeof text));
    CHECK_EQ_STR(text, "mines=5,seed=lucky");
    CHECK(zbc_engine_params_from_text(E, "seed=x", p, sizeof p, &n, &err));
    CHECK(n == 3 && p[0] == 3);
    CHECK(!zbc_engine_params_from_text(E, "depth=3", p, sizeof p, &n, &err));
    CHECK_EQ_STR(err.msg, "no param 'depth' (the params are mines=N and seed=TEXT)");
    CHECK(!zbc_engine_params_from_text(E, "seed=abcdefghijklmnop", p, sizeof p, &n, &err));
    CHECK_EQ_STR(err.msg, "seed=abcdefghijklmnop... is 16 characters: at most 14 as a "
                          "word (give longer seeds as hex params)");
    /* the maximum: every safe tile revealed */
    p[0] = 3;
    CHECK_EQ_INT(E->solo->max_multiplier(p, 1), zbc_mines_multiplier(3, 22));
    CHECK_EQ_INT(E->solo->max_multiplier(p, 1), 22770000); /* 0.99 x C(25,3) = 2277x */
    p[0] = 24;
    CHECK_EQ_INT(E->solo->max_multiplier(p, 1), 247500); /* 24.75x */
}

static void test_moves(void)
{
    struct zbc_err err;
    struct zbc_roll r;
    start(3, "s");
    uint8_t mv[3] = {2};
    CHECK(!E->check_move(&st, 0, mv, 1, &err));
    CHECK_EQ_STR(err.msg, "nothing to cash out: reveal a tile first");
    CHECK_EQ_INT(E->solo->value(&st), ZBC_FAIR_ONE); /* the clock returns the stake */
    mv[0] = 1;
    mv[1] = 25;
    CHECK(!E->check_move(&st, 0, mv, 2, &err));
    CHECK_EQ_STR(err.msg, "mines tile 25 is off the board (0-24)");
    CHECK(!E->check_move(&st, 0, mv, 3, &err));
    CHECK_EQ_STR(err.msg, "a mines reveal is two bytes, got 3");
    mv[0] = 9;
    CHECK(!E->check_move(&st, 0, mv, 1, &err));
    CHECK_EQ_STR(err.msg, "unknown mines move 9 (1 reveal, 2 cash out)");
    CHECK(!play("reveal C3", NULL, &err));
    CHECK_EQ_STR(err.msg, "a mines reveal needs the float stream");
    CHECK(zbc_roll_init_literal(&r, (const uint8_t *)"abcd", 4));
    CHECK(!play("reveal C3", &r, &err));
    CHECK_EQ_STR(err.msg, "a mines reveal needs the float stream");
    /* find a safe C3 over seeds, then the refusals of a revealed tile */
    uint8_t seed[32] = {0};
    for (int i = 0; i < 100; i++) {
        start(3, "s");
        seed[0] = (uint8_t)i;
        zbc_roll_init_fair(&r, seed, "s", 42);
        CHECK(play("C3", &r, &err));
        if (E->turn(&st) == 0)
            break;
    }
    CHECK_EQ_INT(E->turn(&st), 0);
    CHECK_EQ_INT(E->solo->value(&st), zbc_mines_multiplier(3, 1));
    CHECK_EQ_INT(E->solo->value(&st), 11250); /* 0.99 x 25/22 */
    CHECK(!play("reveal c3", &r, &err));
    CHECK_EQ_STR(err.msg, "tile C3 is already revealed");
    static char buf[1024];
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "  3 · · o · ·\n") != NULL);
    CHECK(strstr(buf, "cash-out value 1.1250x") != NULL);
    CHECK(play("cashout", NULL, &err));
    CHECK_EQ_INT(E->turn(&st), ZBC_NOBODY);
    CHECK_EQ_INT(E->solo->value(&st), 11250);
    CHECK(!play("cashout", NULL, &err));
    CHECK_EQ_STR(err.msg, "the game is over");
    json_t *j = state_json();
    CHECK_EQ_STR(json_string_value(json_object_get(j, "status")), "cashout");
    CHECK_EQ_STR(json_string_value(json_object_get(j, "multiplier")), "1.1250");
    json_decref(j);
}

/* 24 mines: the one safe tile ends the game at 24.75x; any other busts. */
static void test_bust_and_clear(void)
{
    struct zbc_err err;
    struct zbc_roll r;
    uint8_t seed[32] = {7};
    int busts = 0, clears = 0;
    for (uint8_t t = 0; t < 25; t++) {
        start(24, "");
        zbc_roll_init_fair(&r, seed, "", 9);
        uint8_t mv[2] = {1, t};
        CHECK(E->apply_move(&st, 0, mv, 2, &r, &err));
        CHECK_EQ_INT(E->turn(&st), ZBC_NOBODY);
        if (E->solo->value(&st) == 0) {
            busts++;
            static char buf[1024];
            CHECK(E->render(&st, buf, sizeof buf) > 0);
            CHECK(strstr(buf, "X") != NULL && strstr(buf, "hit a mine: returns 0") != NULL);
        } else {
            clears++;
            CHECK_EQ_INT(E->solo->value(&st), 247500);
        }
    }
    CHECK_EQ_INT(busts, 24);
    CHECK_EQ_INT(clears, 1);
}

static void test_notation(void)
{
    struct zbc_err err;
    uint8_t m[4];
    size_t n;
    char out[32];
    start(3, "");
    CHECK(E->parse_move(&st, 0, "reveal A1", m, sizeof m, &n, &err) && n == 2 && m[1] == 0);
    CHECK(E->parse_move(&st, 0, "e5", m, sizeof m, &n, &err) && n == 2 && m[1] == 24);
    CHECK(E->format_move(&st, m, n, out, sizeof out) && strcmp(out, "reveal E5") == 0);
    CHECK(!E->parse_move(&st, 0, "reveal F1", m, sizeof m, &n, &err));
    CHECK_EQ_STR(err.msg, "mines moves are \"reveal C3\" (columns A-E, rows 1-5) or "
                          "\"cashout\", not \"reveal F1\"");
    CHECK(!E->parse_move(&st, 0, "hit", m, sizeof m, &n, &err));
    uint8_t bad[2] = {1, 30};
    CHECK(!E->format_move(&st, bad, 2, out, sizeof out));
}

static void test_bad_state(void)
{
    struct zbc_err err;
    uint8_t b[12] = {3, 0, 0, 0xff};
    CHECK(E->decode(&st, b, 12, &err));
    CHECK(!E->decode(&st, b, 11, &err));
    CHECK_EQ_STR(err.msg, "mines state: 11 bytes, want 12");
    b[0] = 0;
    CHECK(!E->decode(&st, b, 12, &err));
    CHECK_EQ_STR(err.msg, "mines state: 0 mines, want 1-24");
    b[0] = 3;
    b[2] = 1;
    CHECK(!E->decode(&st, b, 12, &err));
    CHECK_EQ_STR(err.msg, "mines state: the revealed tiles do not match their count 1");
    b[2] = 0;
    b[1] = 2;
    CHECK(!E->decode(&st, b, 12, &err));
    CHECK_EQ_STR(err.msg, "mines state: a cash-out without a reveal");
    b[1] = 0;
    b[3] = 4;
    CHECK(!E->decode(&st, b, 12, &err));
    CHECK_EQ_STR(err.msg, "mines state: mines shown without a bust");
    b[3] = 0xff;
    b[1] = 1; /* a bust needs its mines */
    CHECK(!E->decode(&st, b, 12, &err));
    CHECK_EQ_STR(err.msg, "mines state: the mines of a bust do not fit the board");
}

/* The app record's outcomes of a solo game (docs/protocol-apps.md §7): cashout and bust
 * belong to solo types only, take no rake, and a bust pays nothing. */
static void test_record_outcomes(void)
{
    static struct zbc_app a, b;
    static uint8_t buf[ZBC_APP_RECORD_MAX];
    struct zbc_err err;
    memset(&a, 0, sizeof a);
    a.type = 28;
    a.status = ZBC_APP_FINISHED;
    a.seats = a.n_seated = 1;
    a.clock = ZBC_APP_NO_CLOCK;
    a.stake = 100;
    a.end = ZBC_END_CASHOUT;
    a.winner = 0;
    a.loser = ZBC_APP_NO_SEAT;
    a.paid[0] = 112;
    a.ended = 9;
    a.seat[0].type = 0;
    a.seat[0].len = 32;
    memset(a.seat[0].payload, 0x22, 32);
    size_t n = zbc_app_encode(&a, buf, sizeof buf);
    CHECK(n > 0 && zbc_app_decode(&b, buf, n, &err));
    CHECK_EQ_STR(zbc_app_end_name(ZBC_END_CASHOUT), "cashout");
    CHECK_EQ_STR(zbc_app_end_name(ZBC_END_BUST), "bust");
    a.rake = 1;
    n = zbc_app_encode(&a, buf, sizeof buf);
    CHECK(!zbc_app_decode(&b, buf, n, &err));
    CHECK_EQ_STR(err.msg, "app record ending cashout takes no rake");
    a.rake = 0;
    a.end = ZBC_END_BUST;
    n = zbc_app_encode(&a, buf, sizeof buf);
    CHECK(!zbc_app_decode(&b, buf, n, &err));
    CHECK_EQ_STR(err.msg, "app record of a bust names a winner or pays");
    a.winner = ZBC_APP_NO_SEAT;
    a.paid[0] = 0;
    n = zbc_app_encode(&a, buf, sizeof buf);
    CHECK(zbc_app_decode(&b, buf, n, &err));
    a.type = 1; /* tic-tac-toe has no such ending */
    a.seats = 2;
    n = zbc_app_encode(&a, buf, sizeof buf);
    CHECK(!zbc_app_decode(&b, buf, n, &err));
    CHECK_EQ_STR(err.msg, "app record ending bust does not fit app type 1");
    a.type = 28; /* nor a solo game a win */
    a.seats = 1;
    a.end = ZBC_END_WIN;
    a.winner = 0;
    n = zbc_app_encode(&a, buf, sizeof buf);
    CHECK(!zbc_app_decode(&b, buf, n, &err));
    CHECK_EQ_STR(err.msg, "app record ending win does not fit app type 28");
}

int main(void)
{
    E = zbc_engine_by_name("mines");
    CHECK(E != NULL && E->type == 28 && E->solo != NULL);
    if (E == NULL)
        return test_summary("apps_mines");
    TEST_RUN(test_vectors);
    TEST_RUN(test_params);
    TEST_RUN(test_moves);
    TEST_RUN(test_bust_and_clear);
    TEST_RUN(test_notation);
    TEST_RUN(test_bad_state);
    TEST_RUN(test_record_outcomes);
    return test_summary("apps_mines");
}
