/* Blackjack (type 31): card sequences against the catalogue vectors of
 * tests/vectors/fair_catalogue.json (computed by tests/tools/fair_catalogue.py from
 * docs/games.md, not from the C code), the exact returns of every ending (win, push,
 * natural, a dealer blackjack taking doubled and split stakes, split aces, busts), the
 * refusals, notation and state bytes (docs/games.md, "Blackjack (type 31)"). */
#include <jansson.h>

#include "apps/engine.h"
#include "apps/fair_events.h"
#include "apps/fair_pay.h"
#include "testlib.h"
#include "solo_vectors.h"

static const struct zbc_engine *E;
static struct zbc_game_state st;

/* Card of rank r (0 = "2" .. 8 = "10", 9 J, 10 Q, 11 K, 12 A), suit ♦. */
#define C(r) ((uint8_t)(4 * (r)))
#define A 12
#define K 11
#define T 8 /* a ten */

/* Decodes moves + cards; returns whether it replays. */
static int game(const char *moves, const uint8_t *cards, uint8_t n, struct zbc_err *err)
{
    uint8_t b[2 + 64 + 64];
    size_t nm = strlen(moves);
    b[0] = (uint8_t)nm;
    for (size_t i = 0; i < nm; i++)
        b[1 + i] = (uint8_t)(moves[i] - '0');
    b[1 + nm] = n;
    memcpy(b + 2 + nm, cards, n);
    return E->decode(&st, b, 2 + nm + n, err);
}

static void want_value(const char *moves, const uint8_t *cards, uint8_t n, uint64_t v)
{
    struct zbc_err err;
    int ok = game(moves, cards, n, &err);
    if (!ok)
        fprintf(stderr, "moves %s: %s\n", moves, err.msg);
    CHECK(ok);
    CHECK_EQ_INT(E->turn(&st), ZBC_NOBODY);
    if (E->solo->value(&st) != v)
        fprintf(stderr, "moves %s: value %llu\n", moves,
                (unsigned long long)E->solo->value(&st));
    CHECK_EQ_INT(E->solo->value(&st), v);
}

/* deal = player, dealer up, player; then the moves' cards; then the dealer's. */
static void test_returns(void)
{
    /* 1 deal, 2 hit, 3 stand, 4 double, 5 split */
    /* player 10+10 = 20 stands; dealer 9 + 10 = 19: 2x */
    want_value("13", (const uint8_t[]){C(T), C(7), C(K), C(T)}, 4, 20000);
    /* player 10+9=19 stands; dealer 9,10 = 19: push */
    want_value("13", (const uint8_t[]){C(T), C(7), C(7), C(T)}, 4, 10000);
    /* player natural A+K, dealer 9 + 10: 2.4294x */
    want_value("1", (const uint8_t[]){C(A), C(7), C(K), C(T)}, 4, 24294);
    /* player natural, dealer natural (10 then A): push */
    want_value("1", (const uint8_t[]){C(A), C(T), C(K), C(A)}, 4, 10000);
    /* player 10+6 hits a 10: bust, the dealer draws nothing */
    want_value("12", (const uint8_t[]){C(T), C(4), C(4), C(T)}, 4, 0);
    /* double 5+6 takes a 10 (21); dealer 10 + 7 = 17: 4x */
    want_value("14", (const uint8_t[]){C(3), C(T), C(4), C(T), C(5)}, 5, 40000);
    /* double, then a dealer blackjack (10 + A) takes both stakes */
    want_value("14", (const uint8_t[]){C(3), C(T), C(4), C(T), C(A)}, 5, 0);
    /* split 8s: hand 1 8+10 stands, hand 2 8+3 doubles with a 10 (21);
     * dealer 6 + 10 + 10 = 26 busts: 2 + 4 = 6x */
    want_value("1534", (const uint8_t[]){C(6), C(4), C(6), C(T), C(1), C(T), C(T), C(T)}, 8,
               60000);
    /* split aces take one card each and stand: A+K and A+9 (21 and 20, no natural);
     * dealer 9 + 10 = 19: 2 + 2 = 4x */
    want_value("15", (const uint8_t[]){C(A), C(7), C(A), C(K), C(7), C(T)}, 6, 40000);
    /* the same split with a dealer blackjack: both stakes lost */
    want_value("15", (const uint8_t[]){C(A), C(T), C(A), C(K), C(7), C(A)}, 6, 0);
    /* dealer stands on soft 17 (A + 6): player 18 wins 2x */
    want_value("13", (const uint8_t[]){C(T), C(A), C(6), C(4)}, 4, 20000);
    /* dealer draws to hard 17: 10 + 2 + 5 = 17 vs player 17: push */
    want_value("13", (const uint8_t[]){C(T), C(T), C(5), C(0), C(3)}, 5, 10000);
}

static void test_vectors(void)
{
    json_t *root = sv_load();
    int checked = 0;
    for (size_t i = 0; i < sv_count(root); i++) {
        uint8_t seed[32];
        const char *client;
        uint64_t nonce;
        json_t *c = sv_case(root, i, "blackjack", seed, &client, &nonce);
        if (c == NULL)
            continue;
        json_t *cards = json_object_get(json_object_get(c, "event"), "cards");
        struct zbc_err err;
        CHECK(E->init(&st, 1, NULL, 0, 0, NULL, &err));
        /* deal, then stand (or hit) until over, every draw with this seed */
        for (int k = 0; k < 12 && E->turn(&st) == 0; k++) {
            struct zbc_roll r;
            zbc_roll_init_fair(&r, seed, client, nonce);
            uint8_t m = k == 0 ? 1 : k % 2 ? 2 : 3;
            if (!E->check_move(&st, 0, &m, 1, &err))
                m = 3;
            CHECK(E->apply_move(&st, 0, &m, 1, &r, &err));
        }
        uint8_t enc[2 + 32 + 48];
        size_t n = E->encode(&st, enc, sizeof enc);
        uint8_t nm = enc[0], nc = enc[1 + nm];
        CHECK(n == 2u + nm + nc && nc <= json_array_size(cards));
        for (uint8_t k = 0; k < nc && k < json_array_size(cards); k++)
            CHECK_EQ_INT(enc[2 + nm + k], json_integer_value(json_array_get(cards, k)));
        checked++;
    }
    json_decref(root);
    printf("blackjack vectors checked: %d\n", checked);
    CHECK(checked >= 3);
}

/* Hits to a hand holding 2 + A: seven aces (a soft 20 at nine
 * cards), a 2 (hard 12), eight aces (hard 20 at eighteen cards), an ace
 * (21: the hand is done at nineteen) — seventeen hits. */
static uint8_t long_hits(uint8_t *cards, uint8_t n, char *moves)
{
    for (int i = 0; i < 17; i++) {
        cards[n++] = i == 7 ? C(0) : C(A);
        strcat(moves, "2");
    }
    return n;
}

/* An infinite deck lets a hand grow past the 11 cards one deck allows (to
 * 20 for the player, 12 for the dealer: the longest of each, below, and
 * docs/games.md).  Every such hit is legal and applies
 * (fuzz_engine_blackjack found check_move allowing a 13th card that
 * apply_move refused, and the move cap of 32 refused the 33rd move of a
 * long split game). */
static void test_long_hands(void)
{
    /* deal 2 (player), 5 (dealer up), A; 17 hits: 21 at 19 cards; the
     * dealer's hole card 10 and a 2: 17; 21 wins 2x */
    uint8_t cards[64];
    uint8_t n = 0;
    cards[n++] = C(0);
    cards[n++] = C(3);
    cards[n++] = C(A);
    char moves[64] = "1";
    n = long_hits(cards, n, moves);
    cards[n++] = C(T);
    cards[n++] = C(0);
    want_value(moves, cards, n, 20000);

    /* a split of twos, each hand 2 + A and 17 hits (36 moves, 40 cards),
     * the dealer 10 + 7: both win, 4x */
    n = 0;
    cards[n++] = C(0);
    cards[n++] = C(T);
    cards[n++] = C(0);
    strcpy(moves, "15");
    cards[n++] = C(A); /* hand 1's second card */
    cards[n++] = C(A); /* hand 2's second card */
    n = long_hits(cards, n, moves);
    n = long_hits(cards, n, moves);
    cards[n++] = C(5);
    want_value(moves, cards, n, 40000);

    /* the longest hands: the player's 20 cards (ten aces: soft 20; a 2:
     * hard 12; eight aces: 20; a 2: busted, 22), the dealer's hole card
     * not drawn (every hand busted): 0; then a player 10 + 9 standing against the
     * dealer's 12 cards (six aces, a 6, four aces, a 2: 18): 19 wins */
    n = 0;
    cards[n++] = C(A);
    cards[n++] = C(3);
    cards[n++] = C(A);
    strcpy(moves, "1");
    for (int i = 0; i < 18; i++) {
        cards[n++] = i == 8 || i == 17 ? C(0) : C(A);
        strcat(moves, "2");
    }
    want_value(moves, cards, n, 0);
    n = 0;
    cards[n++] = C(T);
    cards[n++] = C(A);
    cards[n++] = C(7);
    strcpy(moves, "13");
    static const uint8_t dealer[] = {A, A, A, A, A, 4, A, A, A, A, 0};
    for (size_t i = 0; i < sizeof dealer; i++)
        cards[n++] = C(dealer[i]);
    want_value(moves, cards, n, 20000);
}

static void test_refusals_and_views(void)
{
    struct zbc_err err;
    uint8_t m = 2;
    CHECK(E->init(&st, 1, NULL, 0, 0, NULL, &err));
    CHECK(!E->check_move(&st, 0, &m, 1, &err));
    CHECK_EQ_STR(err.msg, "deal first: no cards are dealt yet");
    CHECK_EQ_INT(E->solo->value(&st), 10000);
    m = 1;
    CHECK(!E->apply_move(&st, 0, &m, 1, NULL, &err));
    CHECK_EQ_STR(err.msg, "a blackjack move needs the float stream");
    CHECK(game("1", (const uint8_t[]){C(T), C(7), C(7)}, 3, &err));
    CHECK(!E->check_move(&st, 0, &m, 1, &err));
    CHECK_EQ_STR(err.msg, "the cards are already dealt");
    m = 5;
    CHECK(!E->check_move(&st, 0, &m, 1, &err));
    CHECK_EQ_STR(err.msg, "split takes two cards of one rank");
    m = 9;
    CHECK(!E->check_move(&st, 0, &m, 1, &err));
    CHECK_EQ_STR(err.msg, "unknown blackjack move 9 (1 deal, 2 hit, 3 stand, 4 double, 5 split)");
    CHECK(game("12", (const uint8_t[]){C(0), C(7), C(1), C(0)}, 4, &err)); /* 2+3+2 */
    m = 4;
    CHECK(!E->check_move(&st, 0, &m, 1, &err));
    CHECK_EQ_STR(err.msg, "double takes a hand of two cards, this one has 3");
    CHECK(game("15", (const uint8_t[]){C(6), C(4), C(6), C(0), C(1)}, 5, &err));
    m = 5;
    CHECK(!E->check_move(&st, 0, &m, 1, &err));
    CHECK_EQ_STR(err.msg, "one split per game: the hand is already split");
    static char buf[2048];
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "hand 1: [8♦] [2♦] = 10  <") != NULL);
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    /* state bytes */
    CHECK(!game("13", (const uint8_t[]){C(T), C(7), C(7)}, 3, &err));
    CHECK_EQ_STR(err.msg, "blackjack state: move 2 does not replay (blackjack state: the cards "
                          "run out)");
    CHECK(!game("13", (const uint8_t[]){C(T), C(7), C(7), C(T), C(1)}, 5, &err));
    CHECK_EQ_STR(err.msg, "blackjack state: 5 cards recorded, the moves draw 4");
    CHECK(!game("133", (const uint8_t[]){C(T), C(7), C(7), C(T)}, 4, &err));
    CHECK_EQ_STR(err.msg, "blackjack state: move 3 comes after the end");
    CHECK(!game("2", (const uint8_t[]){C(T)}, 1, &err));
    CHECK_EQ_STR(err.msg, "blackjack state: move 1 does not replay (deal first: no cards are "
                          "dealt yet)");
    uint8_t bad[4] = {1, 1, 1, 52};
    CHECK(!E->decode(&st, bad, 4, &err));
    CHECK_EQ_STR(err.msg, "blackjack state: card 1 is 52, not 0-51");
    CHECK(!E->decode(&st, bad, 3, &err));
    /* move stakes and the escrowed maximum */
    m = 4;
    CHECK_EQ_INT(E->solo->move_stake(&m, 1), 1);
    m = 5;
    CHECK_EQ_INT(E->solo->move_stake(&m, 1), 1);
    m = 2;
    CHECK_EQ_INT(E->solo->move_stake(&m, 1), 0);
    CHECK_EQ_INT(E->solo->max_multiplier(NULL, 0), 80000);
    CHECK_EQ_INT(E->solo->clock_move, 3);
    uint8_t mv[2];
    size_t n;
    CHECK(E->parse_move(&st, 0, "double", mv, sizeof mv, &n, &err) && n == 1 && mv[0] == 4);
    CHECK(!E->parse_move(&st, 0, "surrender", mv, sizeof mv, &n, &err));
}

int main(void)
{
    E = zbc_engine_by_name("blackjack");
    CHECK(E != NULL && E->type == 31 && E->solo != NULL);
    if (E == NULL)
        return test_summary("apps_blackjack");
    TEST_RUN(test_returns);
    TEST_RUN(test_vectors);
    TEST_RUN(test_long_hands);
    TEST_RUN(test_refusals_and_views);
    return test_summary("apps_blackjack");
}
