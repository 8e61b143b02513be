/* Tower (type 29): climbs against the catalogue vectors of
 * tests/vectors/fair_catalogue.json (computed by tests/tools/fair_catalogue.py from
 * docs/games.md, not from the C code), params, moves, values, notation and state bytes
 * (docs/games.md, "Tower (type 29)"). */
#include <jansson.h>

#include "apps/engine.h"
#include "apps/fair_events.h"
#include "apps/fair_pay.h"
#include "crypto/hex.h"
#include "testlib.h"
#include "solo_vectors.h"

static const struct zbc_engine *E;
static struct zbc_game_state st;

static void start(uint8_t difficulty)
{
    uint8_t p[3] = {difficulty, 1, 't'};
    struct zbc_err err;
    CHECK(E->init(&st, 1, p, 3, 0, NULL, &err));
}

static uint8_t difficulty_of(const char *name)
{
    for (uint8_t d = 0; d < ZBC_TOWER_DIFFICULTIES; d++) {
        uint32_t c, s;
        const char *n;
        if (zbc_tower_shape(d, &c, &s, &n) && strcmp(n, name) == 0)
            return d;
    }
    return 99;
}

/* Every row and column of every vector: a climb of row r is safe exactly when the
 * vector's row r holds the column. */
static void test_vectors(void)
{
    json_t *root = sv_load();
    int checked = 0;
    for (size_t i = 0; i < sv_count(root); i++) {
        uint8_t seed[32];
        const char *client;
        uint64_t nonce;
        json_t *c = sv_case(root, i, "tower", seed, &client, &nonce);
        if (c == NULL)
            continue;
        uint8_t d = difficulty_of(json_string_value(
            json_object_get(json_object_get(c, "params"), "difficulty")));
        uint32_t cols, safe;
        const char *name;
        if (!zbc_tower_shape(d, &cols, &safe, &name))
            continue;
        json_t *rows = json_object_get(json_object_get(c, "event"), "rows");
        for (uint8_t r = 0; r < ZBC_TOWER_ROWS; r++) {
            uint8_t mask = 0;
            json_t *row = json_array_get(rows, r);
            for (size_t j = 0; j < json_array_size(row); j++)
                mask |= (uint8_t)(1u << json_integer_value(json_array_get(row, j)));
            for (uint8_t col = 0; col < cols; col++) {
                uint8_t b[14] = {d, 0, r, 0xff, 0};
                struct zbc_err err;
                CHECK(E->decode(&st, b, sizeof b, &err));
                struct zbc_roll roll;
                zbc_roll_init_fair(&roll, seed, client, nonce);
                uint8_t mv[2] = {1, col};
                CHECK(E->apply_move(&st, 0, mv, 2, &roll, &err));
                uint8_t enc[14];
                CHECK_EQ_INT(E->encode(&st, enc, sizeof enc), 14);
                if (mask >> col & 1) {
                    CHECK_EQ_INT(enc[2], r + 1);
                    CHECK_EQ_INT(E->solo->value(&st), zbc_tower_multiplier(d, r + 1u));
                } else {
                    CHECK_EQ_INT(enc[1], 1);
                    CHECK_EQ_INT(enc[4], mask);
                    CHECK_EQ_INT(E->solo->value(&st), 0);
                }
            }
        }
        checked++;
    }
    json_decref(root);
    printf("tower vectors checked: %d\n", checked);
    CHECK(checked >= 5);
}

static void test_params_and_moves(void)
{
    struct zbc_err err;
    uint8_t p[32];
    size_t n;
    CHECK(E->check_params(1, NULL, 0, &err));
    p[0] = 5;
    CHECK(!E->check_params(1, p, 1, &err));
    CHECK_EQ_STR(err.msg, "tower difficulty 5 is unknown (0 easy, 1 medium, 2 hard, 3 expert, "
                          "4 master)");
    CHECK(zbc_engine_params_from_text(E, "difficulty=master,seed=abc", p, sizeof p, &n, &err));
    CHECK(n == 5 && p[0] == 4 && p[1] == 3);
    CHECK(zbc_engine_params_from_text(E, "difficulty=2", p, sizeof p, &n, &err));
    CHECK(n == 2 && p[0] == 2);
    CHECK(!zbc_engine_params_from_text(E, "rows=3", p, sizeof p, &n, &err));
    CHECK_EQ_STR(err.msg, "no param 'rows' (the params are "
                          "difficulty=easy|medium|hard|expert|master and seed=TEXT)");
    /* maxima: 9 rows; easy (4/3)^9 x 0.99, master 4^9 x 0.99 */
    p[0] = 0;
    CHECK_EQ_INT(E->solo->max_multiplier(p, 1), 9900ull * 262144 / 19683);
    p[0] = 4;
    CHECK_EQ_INT(E->solo->max_multiplier(p, 1), 9900ull * 262144);
    start(2); /* hard: 2 columns, 1 safe */
    uint8_t mv[2] = {2};
    CHECK(!E->check_move(&st, 0, mv, 1, &err));
    CHECK_EQ_STR(err.msg, "nothing to cash out: climb a row first");
    mv[0] = 1;
    mv[1] = 2;
    CHECK(!E->check_move(&st, 0, mv, 2, &err));
    CHECK_EQ_STR(err.msg, "tower column 2 is off the row (hard has 2 columns, 0-1)");
    mv[1] = 0;
    CHECK(!E->apply_move(&st, 0, mv, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "a tower climb needs the float stream");
    mv[0] = 7;
    CHECK(!E->check_move(&st, 0, mv, 1, &err));
    CHECK_EQ_STR(err.msg, "unknown tower move 7 (1 climb, 2 cash out)");
    /* climb until a bust or the top over seeds, then the views */
    uint8_t seed[32] = {0};
    int climbed = 0, busts = 0;
    for (int g = 0; g < 40; g++) {
        start(2);
        for (int r = 0; r < 9 && E->turn(&st) == 0; r++) {
            seed[0] = (uint8_t)g;
            seed[1] = (uint8_t)r;
            struct zbc_roll roll;
            zbc_roll_init_fair(&roll, seed, "t", 5);
            mv[0] = 1;
            mv[1] = (uint8_t)(r & 1);
            CHECK(E->apply_move(&st, 0, mv, 2, &roll, &err));
        }
        uint8_t enc[14];
        CHECK(E->encode(&st, enc, sizeof enc) == 14);
        if (enc[1] == 1)
            busts++;
        if (enc[2] > 0)
            climbed++;
        static char buf[2048];
        CHECK(E->render(&st, buf, sizeof buf) > 0);
        CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    }
    CHECK(busts > 0 && climbed > 0);
    /* a cash-out after one row of hard: 1.98x */
    uint8_t b[14] = {2, 0, 1, 0xff, 0, 1};
    CHECK(E->decode(&st, b, 14, &err));
    CHECK_EQ_INT(E->solo->value(&st), 19800);
    mv[0] = 2;
    CHECK(E->apply_move(&st, 0, mv, 1, NULL, &err));
    CHECK_EQ_INT(E->turn(&st), ZBC_NOBODY);
    CHECK_EQ_INT(E->solo->value(&st), 19800);
    static char buf[2048];
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "  1  · o\n") != NULL && strstr(buf, "cashed out at 1.9800x") != NULL);
}

static void test_notation_and_state(void)
{
    struct zbc_err err;
    uint8_t m[4];
    size_t n;
    char out[32];
    start(0);
    CHECK(E->parse_move(&st, 0, "climb 3", m, sizeof m, &n, &err) && n == 2 && m[1] == 2);
    CHECK(E->parse_move(&st, 0, "1", m, sizeof m, &n, &err) && m[1] == 0);
    CHECK(E->format_move(&st, m, n, out, sizeof out) && strcmp(out, "climb 1") == 0);
    CHECK(!E->parse_move(&st, 0, "climb 5", m, sizeof m, &n, &err));
    CHECK_EQ_STR(err.msg, "tower moves are \"climb N\" (the column, 1-4) or \"cashout\", not "
                          "\"climb 5\"");
    uint8_t b[14] = {0, 0, 0, 0xff, 0};
    CHECK(E->decode(&st, b, 14, &err));
    CHECK(!E->decode(&st, b, 13, &err));
    CHECK_EQ_STR(err.msg, "tower state: 13 bytes, want 14");
    b[0] = 5;
    CHECK(!E->decode(&st, b, 14, &err));
    CHECK_EQ_STR(err.msg, "tower state: difficulty 5 is unknown");
    b[0] = 0;
    b[5] = 1; /* a pick above the rows climbed */
    CHECK(!E->decode(&st, b, 14, &err));
    CHECK_EQ_STR(err.msg, "tower state: the pick of row 1 does not fit");
    b[5] = 0;
    b[2] = 9; /* nine rows but still playing */
    CHECK(!E->decode(&st, b, 14, &err));
    CHECK_EQ_STR(err.msg, "tower state: 9 rows climbed does not fit status 0");
    b[2] = 0;
    b[1] = 1;
    b[3] = 0;
    b[4] = 0x1; /* the safe mask holds the hit */
    CHECK(!E->decode(&st, b, 14, &err));
    CHECK_EQ_STR(err.msg, "tower state: the safe columns of a bust do not fit the row");
    b[1] = 0;
    b[3] = 0xff;
    b[4] = 0x2;
    CHECK(!E->decode(&st, b, 14, &err));
    CHECK_EQ_STR(err.msg, "tower state: a losing row without a bust");
}

int main(void)
{
    E = zbc_engine_by_name("tower");
    CHECK(E != NULL && E->type == 29 && E->solo != NULL);
    if (E == NULL)
        return test_summary("apps_tower");
    TEST_RUN(test_vectors);
    TEST_RUN(test_params_and_moves);
    TEST_RUN(test_notation_and_state);
    return test_summary("apps_tower");
}
