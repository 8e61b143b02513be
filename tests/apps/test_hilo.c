/* Hilo (type 30): card sequences against the catalogue vectors of
 * tests/vectors/fair_catalogue.json (computed by tests/tools/fair_catalogue.py from
 * docs/games.md, not from the C code), guesses and their chained values, the cap,
 * refusals, notation and state bytes (docs/games.md, "Hilo (type 30)"). */
#include <jansson.h>

#include "apps/engine.h"
#include "apps/fair_events.h"
#include "apps/fair_pay.h"
#include "crypto/bytes.h"
#include "crypto/hex.h"
#include "testlib.h"
#include "solo_vectors.h"

static const struct zbc_engine *E;
static struct zbc_game_state st;

static int step(const char *word, const uint8_t seed[32], const char *client,
                uint64_t nonce, struct zbc_err *err)
{
    uint8_t m[4];
    size_t n;
    struct zbc_roll r;
    zbc_roll_init_fair(&r, seed, client, nonce);
    return E->parse_move(&st, 0, word, m, sizeof m, &n, err) &&
           E->apply_move(&st, 0, m, n, &r, err);
}

/* Every hilo vector: dealing then skipping with one seed draws the event's cards in
 * order, named as the vector names them. */
static void test_vectors(void)
{
    json_t *root = sv_load();
    int checked = 0;
    for (size_t i = 0; i < sv_count(root); i++) {
        uint8_t seed[32];
        const char *client;
        uint64_t nonce;
        json_t *c = sv_case(root, i, "hilo", seed, &client, &nonce);
        if (c == NULL)
            continue;
        json_t *ev = json_object_get(c, "event");
        json_t *cards = json_object_get(ev, "cards"), *names = json_object_get(ev, "names");
        struct zbc_err err;
        CHECK(E->init(&st, 1, NULL, 0, 0, NULL, &err));
        for (size_t k = 0; k < json_array_size(cards) && E->turn(&st) == 0; k++)
            CHECK(step(k == 0 ? "deal" : "skip", seed, client, nonce, &err));
        static char buf[8192];
        CHECK(E->to_json(&st, buf, sizeof buf) > 0);
        json_error_t je;
        json_t *view = json_loads(buf, 0, &je);
        json_t *got = json_object_get(view, "cards");
        CHECK_EQ_INT(json_array_size(got), json_array_size(cards));
        for (size_t k = 0; k < json_array_size(got); k++) {
            json_t *g = json_array_get(got, k);
            CHECK_EQ_INT(json_integer_value(json_object_get(g, "index")),
                         json_integer_value(json_array_get(cards, k)));
            CHECK_EQ_STR(json_string_value(json_object_get(g, "card")),
                         json_string_value(json_array_get(names, k)));
        }
        json_decref(view);
        checked++;
    }
    json_decref(root);
    printf("hilo vectors checked: %d\n", checked);
    CHECK(checked >= 3);
}

/* Guesses over many seeds: each value is the previous one times floor(9900 x 13 / w),
 * floored, w = the ranks strictly above / below; a tie or a wrong side busts. */
static void test_guesses(void)
{
    struct zbc_err err;
    uint8_t seed[32] = {0};
    int busts = 0, wins = 0;
    for (int g = 0; g < 200; g++) {
        CHECK(E->init(&st, 1, NULL, 0, 0, NULL, &err));
        seed[0] = (uint8_t)g;
        CHECK(step("deal", seed, "h", 3, &err));
        uint64_t want = ZBC_FAIR_ONE;
        for (int k = 1; k < 8 && E->turn(&st) == 0; k++) {
            uint8_t enc[8 + 2 * 52];
            size_t n = E->encode(&st, enc, sizeof enc);
            uint32_t from = enc[8 + 2 * (enc[1] - 1)] / 4u;
            const char *guess = from >= 6 ? "lower" : "higher";
            uint32_t w = from >= 6 ? from : 12 - from;
            seed[1] = (uint8_t)k;
            CHECK(step(guess, seed, "h", 3, &err));
            n = E->encode(&st, enc, sizeof enc);
            CHECK(n == 8u + 2u * enc[1]);
            uint32_t to = enc[8 + 2 * (enc[1] - 1)] / 4u;
            bool won = from >= 6 ? to < from : to > from;
            if (!won) {
                CHECK_EQ_INT(enc[0], 2);
                CHECK_EQ_INT(E->solo->value(&st), 0);
                busts++;
                break;
            }
            want = want * (9900u * 13u / w) / 10000u;
            CHECK_EQ_INT(E->solo->value(&st), want);
            wins++;
        }
    }
    CHECK(busts > 0 && wins > 0);
    /* a cash-out after a won guess ends the game at its value */
    for (int g = 0; g < 50; g++) {
        CHECK(E->init(&st, 1, NULL, 0, 0, NULL, &err));
        seed[0] = (uint8_t)(200 + g);
        seed[1] = 0;
        CHECK(step("deal", seed, "", 1, &err));
        seed[1] = 1;
        CHECK(step("skip", seed, "", 1, &err));
        CHECK_EQ_INT(E->solo->value(&st), ZBC_FAIR_ONE);
        uint8_t m = 5;
        CHECK(!E->check_move(&st, 0, &m, 1, &err));
        CHECK_EQ_STR(err.msg, "nothing to cash out: win a guess first");
        seed[1] = 2;
        uint8_t enc[8 + 2 * 52];
        E->encode(&st, enc, sizeof enc);
        uint32_t from = enc[8 + 2] / 4u;
        CHECK(step(from >= 6 ? "lower" : "higher", seed, "", 1, &err));
        if (E->turn(&st) != 0)
            continue;
        uint64_t v = E->solo->value(&st);
        CHECK(E->apply_move(&st, 0, &m, 1, NULL, &err));
        CHECK_EQ_INT(E->turn(&st), ZBC_NOBODY);
        CHECK_EQ_INT(E->solo->value(&st), v);
        static char buf[2048];
        CHECK(E->render(&st, buf, sizeof buf) > 0 && strstr(buf, "cashed out at") != NULL);
        return;
    }
    CHECK(0); /* no seed gave a won guess */
}

static void test_refusals_and_state(void)
{
    struct zbc_err err;
    uint8_t m = 2;
    CHECK(E->init(&st, 1, NULL, 0, 0, NULL, &err));
    CHECK(!E->check_move(&st, 0, &m, 1, &err));
    CHECK_EQ_STR(err.msg, "deal first: the first card is not drawn yet");
    m = 9;
    CHECK(!E->check_move(&st, 0, &m, 1, &err));
    CHECK_EQ_STR(err.msg, "a hilo move is one byte (1 deal, 2 higher, 3 lower, 4 skip, 5 cash out)");
    m = 1;
    CHECK(!E->apply_move(&st, 0, &m, 1, NULL, &err));
    CHECK_EQ_STR(err.msg, "a hilo draw needs the float stream");
    /* an ace on the table: nothing is higher; a 2: nothing lower */
    uint8_t b[10] = {1, 1, 0, 0, 0x10, 0x27, 0, 0, 51, 1};
    CHECK(E->decode(&st, b, 10, &err));
    m = 2;
    CHECK(!E->check_move(&st, 0, &m, 1, &err));
    CHECK_EQ_STR(err.msg, "no rank is higher than A");
    m = 1;
    CHECK(!E->check_move(&st, 0, &m, 1, &err));
    CHECK_EQ_STR(err.msg, "the first card is already dealt");
    b[8] = 0;
    CHECK(E->decode(&st, b, 10, &err));
    m = 3;
    CHECK(!E->check_move(&st, 0, &m, 1, &err));
    CHECK_EQ_STR(err.msg, "no rank is lower than 2");
    /* state bytes that do not follow from the cards */
    CHECK(!E->decode(&st, b, 9, &err));
    CHECK_EQ_STR(err.msg, "hilo state: 9 bytes do not fit its card count");
    b[4] = 0x11;
    CHECK(!E->decode(&st, b, 10, &err));
    CHECK_EQ_STR(err.msg, "hilo state: status, guesses won or value do not follow from the cards");
    b[4] = 0x10;
    b[9] = 2;
    CHECK(!E->decode(&st, b, 10, &err));
    CHECK_EQ_STR(err.msg, "hilo state: card 1 or its move is not possible");
    b[9] = 1;
    b[3] = 1; /* cashed out without a won guess */
    CHECK(!E->decode(&st, b, 10, &err));
    CHECK_EQ_STR(err.msg, "hilo state: a cash-out that could not happen");
    /* a 2 then "higher" won by a K: value 9900 x 13 / 12 = 10725 */
    uint8_t c[12] = {1, 2, 1, 0, 0xe5, 0x29, 0, 0, 0, 1, 44, 2};
    CHECK(E->decode(&st, c, 12, &err));
    CHECK_EQ_INT(E->solo->value(&st), 10725);
    static char buf[2048];
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "[2♦] >[K♦]") != NULL);
    /* params and notation */
    uint8_t p[32];
    size_t n;
    CHECK(zbc_engine_params_from_text(E, "seed=abc", p, sizeof p, &n, &err));
    CHECK(n == 4 && p[0] == 3);
    char text[64];
    CHECK(zbc_engine_params_to_text(E, p, n, text, sizeof text) && strcmp(text, "seed=abc") == 0);
    CHECK(!zbc_engine_params_from_text(E, "cards=3", p, sizeof p, &n, &err));
    CHECK_EQ_STR(err.msg, "no param 'cards' (hilo's one param is seed=TEXT)");
    CHECK_EQ_INT(E->solo->max_multiplier(NULL, 0), 10000000); /* the cap: 1000x */
    uint8_t mv[2];
    CHECK(!E->parse_move(&st, 0, "hi", mv, sizeof mv, &n, &err));
    CHECK_EQ_STR(err.msg, "hilo moves are deal, higher, lower, skip or cashout, not \"hi\"");
}

/* The cap ends the game: a chain of long shots stops at 1000x. */
static void test_cap(void)
{
    struct zbc_err err;
    /* 2 -> higher A (x1.0725) ... alternate A and 2: each "lower" from A wins 12/13,
     * each "higher" from 2 too: never 1000x; build long-shot steps instead: from K
     * (rank 11) "higher" wins only with A: x12.87 each. K, A, then lower 2 ... */
    uint8_t b[8 + 2 * 52];
    memset(b, 0, sizeof b);
    unsigned n = 0;
    uint64_t v = 10000;
    b[8] = 44; /* K♦ */
    b[9] = 1;
    n = 1;
    while (v < 10000000) {
        /* K -> higher (A wins, w = 1) then A -> lower (K, w = 12) */
        b[8 + 2 * n] = 48; /* A♦ */
        b[9 + 2 * n] = 2;
        n++;
        v = v * 128700 / 10000;
        if (v >= 10000000)
            break;
        b[8 + 2 * n] = 44;
        b[9 + 2 * n] = 3;
        n++;
        v = v * (9900u * 13 / 12) / 10000;
    }
    b[0] = 3;
    b[1] = (uint8_t)n;
    b[2] = (uint8_t)(n - 1);
    zbc_put_le32(b + 4, 10000000);
    CHECK(E->decode(&st, b, 8 + 2 * n, &err));
    CHECK_EQ_INT(E->turn(&st), ZBC_NOBODY);
    CHECK_EQ_INT(E->solo->value(&st), 10000000);
}

int main(void)
{
    E = zbc_engine_by_name("hilo");
    CHECK(E != NULL && E->type == 30 && E->solo != NULL);
    if (E == NULL)
        return test_summary("apps_hilo");
    TEST_RUN(test_vectors);
    TEST_RUN(test_guesses);
    TEST_RUN(test_refusals_and_state);
    TEST_RUN(test_cap);
    return test_summary("apps_hilo");
}
