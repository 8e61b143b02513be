/* The catalogue's event functions (apps/fair_events.h) against the vectors of
 * tests/vectors/fair_catalogue.json, computed by tests/tools/fair_catalogue.py, a Python
 * implementation written from docs/games.md (not from the C code). */
#include <jansson.h>

#include "apps/fair.h"
#include "apps/fair_events.h"
#include "testlib.h"

static json_t *get(json_t *o, const char *k)
{
    return json_object_get(o, k);
}

static long long ival(json_t *o, const char *k)
{
    return (long long)json_integer_value(get(o, k));
}

/* want (a JSON array of integers) == got[0..n) */
static void check_list(json_t *want, const uint8_t *got, size_t n, const char *what,
                       size_t index)
{
    int ok = json_is_array(want) && json_array_size(want) == n;
    for (size_t i = 0; ok && i < n; i++)
        ok = json_integer_value(json_array_get(want, i)) == got[i];
    if (!ok)
        fprintf(stderr, "case %zu: %s differs\n", index, what);
    CHECK(ok);
}

static void check_names(json_t *want, const uint8_t *cards, size_t n,
                        enum zbc_card_suits suits, size_t index)
{
    CHECK_EQ_INT(json_array_size(want), n);
    for (size_t i = 0; i < n && i < json_array_size(want); i++) {
        char name[16];
        zbc_fair_card_name(name, sizeof name, cards[i], suits);
        CHECK_EQ_STR(name, json_string_value(json_array_get(want, i)));
    }
    (void)index;
}

static uint32_t tower_difficulty(const char *name)
{
    for (uint32_t d = 0; d < ZBC_TOWER_DIFFICULTIES; d++) {
        uint32_t cols, safe;
        const char *n;
        if (zbc_tower_shape(d, &cols, &safe, &n) && strcmp(n, name) == 0)
            return d;
    }
    return 99;
}

static int counts[16];

static void check_case(json_t *c, size_t index)
{
    const char *game = json_string_value(get(c, "game"));
    const char *ss = json_string_value(get(c, "server_seed"));
    const char *cs = json_string_value(get(c, "client_seed"));
    uint64_t nonce = (uint64_t)ival(c, "nonce");
    json_t *params = get(c, "params"), *ev = get(c, "event");
    struct zbc_fair_stream s;
    struct zbc_err err;
    uint8_t buf[ZBC_FAIR_CARDS_MAX];
    zbc_fair_stream_init(&s, ss, cs, nonce);
    /* the floats the case used, through the stream and through zbc_fair_u32 */
    json_t *floats = get(c, "floats_u32");
    for (size_t k = 0; k < json_array_size(floats); k++) {
        CHECK_EQ_INT(zbc_fair_stream_u32(&s, (uint32_t)k),
                     json_integer_value(json_array_get(floats, k)));
        CHECK_EQ_INT(zbc_fair_u32(ss, cs, nonce, (uint32_t)k),
                     json_integer_value(json_array_get(floats, k)));
    }
    zbc_fair_stream_init(&s, ss, cs, nonce);
    if (strcmp(game, "plinko") == 0) {
        uint32_t slot, rows = (uint32_t)ival(params, "rows");
        CHECK(zbc_fair_plinko(&s, rows, buf, &slot, &err));
        check_list(get(ev, "path"), buf, rows, "plinko path", index);
        CHECK_EQ_INT(slot, ival(ev, "slot"));
        counts[0]++;
    } else if (strcmp(game, "keno") == 0) {
        zbc_fair_keno(&s, buf);
        check_list(get(ev, "squares"), buf, ZBC_KENO_DRAWN, "keno squares", index);
        /* the hits of a keno bet on the case's picks */
        struct zbc_bet bet = {.game = ZBC_BET_KENO};
        json_t *picks = get(params, "picks");
        bet.n_picks = (uint8_t)json_array_size(picks);
        for (size_t i = 0; i < bet.n_picks; i++)
            bet.picks[i] = (uint8_t)json_integer_value(json_array_get(picks, i));
        bet.client_seed_len = (uint8_t)strlen(cs);
        memcpy(bet.client_seed, cs, bet.client_seed_len + 1);
        struct zbc_bet_outcome out;
        CHECK(zbc_bet_resolve(&bet, 1000, ss, nonce, &out, &err));
        CHECK_EQ_INT(out.value, ival(ev, "hits"));
        CHECK_EQ_MEM(out.squares, buf, ZBC_KENO_DRAWN);
        counts[1]++;
    } else if (strcmp(game, "mines") == 0) {
        uint32_t m = (uint32_t)ival(params, "mines");
        uint32_t t = get(params, "tiles") ? (uint32_t)ival(params, "tiles") : 25;
        CHECK(zbc_fair_mines(&s, t, m, buf, &err));
        check_list(get(ev, "mines"), buf, m, "mine positions", index);
        counts[2]++;
    } else if (strcmp(game, "tower") == 0) {
        uint8_t safe[ZBC_TOWER_ROWS][ZBC_TOWER_COLUMNS_MAX];
        uint32_t d = tower_difficulty(json_string_value(get(params, "difficulty")));
        uint32_t cols, n;
        const char *name;
        CHECK(zbc_tower_shape(d, &cols, &n, &name));
        CHECK(zbc_fair_tower(&s, d, safe, &err));
        json_t *rows = get(ev, "rows");
        CHECK_EQ_INT(json_array_size(rows), ZBC_TOWER_ROWS);
        for (uint32_t r = 0; r < ZBC_TOWER_ROWS; r++)
            check_list(json_array_get(rows, r), safe[r], n, "tower row", index);
        counts[3 + d]++;
    } else if (strcmp(game, "wheel") == 0) {
        CHECK_EQ_INT(zbc_fair_wheel(&s, (uint32_t)ival(params, "segments")),
                     ival(ev, "segment"));
        counts[8]++;
    } else if (strcmp(game, "blackjack") == 0 || strcmp(game, "hilo") == 0) {
        uint32_t n = (uint32_t)ival(params, "cards");
        zbc_fair_cards(&s, 0, n, buf);
        check_list(get(ev, "cards"), buf, n, "cards", index);
        check_names(get(ev, "names"), buf, n, ZBC_SUITS_BLACKJACK, index);
        counts[9]++;
    } else if (strcmp(game, "baccarat") == 0) {
        struct zbc_baccarat_hand h;
        zbc_fair_baccarat(&s, &h);
        check_list(get(ev, "player"), h.player, h.n_player, "baccarat player", index);
        check_list(get(ev, "banker"), h.banker, h.n_banker, "baccarat banker", index);
        check_names(get(ev, "player_names"), h.player, h.n_player, ZBC_SUITS_BACCARAT, index);
        check_names(get(ev, "banker_names"), h.banker, h.n_banker, ZBC_SUITS_BACCARAT, index);
        CHECK_EQ_INT(h.player_total, ival(ev, "player_total"));
        CHECK_EQ_INT(h.banker_total, ival(ev, "banker_total"));
        static const char *const WIN[] = {"player", "banker", "tie"};
        CHECK_EQ_STR(WIN[zbc_baccarat_winner(&h)], json_string_value(get(ev, "winner")));
        bool pd = json_is_true(get(ev, "player_drew")), bd = json_is_true(get(ev, "banker_drew"));
        CHECK_EQ_INT(h.n_player == 3, pd);
        CHECK_EQ_INT(h.n_banker == 3, bd);
        counts[10 + 2 * pd + bd]++;
    } else if (strcmp(game, "blitz") == 0) {
        uint32_t k = (uint32_t)ival(params, "cards");
        bool differ;
        CHECK(zbc_fair_blitz(&s, k, buf, &differ, &err));
        check_list(get(ev, "cards"), buf, k, "blitz cards", index);
        check_names(get(ev, "names"), buf, k, ZBC_SUITS_BLITZ, index);
        CHECK_EQ_INT(differ, json_is_true(get(ev, "all_differ")));
        counts[14] += differ ? 0 : 1;
    } else if (strcmp(game, "crash") == 0) {
        CHECK_EQ_INT(zbc_fair_crash(&s), ival(ev, "crash"));
        counts[15]++;
    } else {
        fprintf(stderr, "case %zu: unknown game %s\n", index, game);
        CHECK(0);
    }
}

static void test_vectors(void)
{
    char *text = test_read_file(ZBC_VECTORS_DIR "/fair_catalogue.json");
    json_error_t jerr;
    json_t *root = json_loads(text, 0, &jerr);
    CHECK(root != NULL);
    json_t *cases = get(root, "cases");
    CHECK(json_array_size(cases) >= 200);
    size_t i;
    json_t *c;
    json_array_foreach(cases, i, c)
        check_case(c, i);
    /* every game and every edge the vectors promise is there */
    for (int k = 0; k < 16; k++) {
        if (counts[k] == 0)
            fprintf(stderr, "no vector of kind %d\n", k);
        CHECK(counts[k] > 0);
    }
    json_decref(root);
    free(text);
}

/* Hand-checked edges: the float arithmetic at 0 and 2^32 − 1, the push-past loop and the
 * take-out list on a known stream. */
static void test_arithmetic(void)
{
    CHECK_EQ_INT(zbc_fair_floor(0, 52), 0);
    CHECK_EQ_INT(zbc_fair_floor(UINT32_MAX, 52), 51);
    CHECK_EQ_INT(zbc_fair_floor(0x80000000u, 2), 1);
    CHECK_EQ_INT(zbc_fair_floor(0x7fffffffu, 2), 0);
    CHECK_EQ_INT(zbc_fair_ceil(0, 40), 0);
    CHECK_EQ_INT(zbc_fair_ceil(1, 40), 1);
    CHECK_EQ_INT(zbc_fair_ceil(UINT32_MAX, 40), 40);
    CHECK_EQ_INT(zbc_fair_ceil(0x80000000u, 40), 20);
}

static void test_refusals(void)
{
    struct zbc_fair_stream s;
    struct zbc_err err;
    uint8_t buf[64], safe[ZBC_TOWER_ROWS][ZBC_TOWER_COLUMNS_MAX];
    uint32_t slot;
    bool differ;
    zbc_fair_stream_init(&s, "seed", "", 1);
    CHECK(!zbc_fair_plinko(&s, 7, buf, &slot, &err));
    CHECK_EQ_STR(err.msg, "plinko: 7 rows, must be 8-16");
    CHECK(!zbc_fair_plinko(&s, 17, buf, &slot, &err));
    CHECK(!zbc_fair_mines(&s, 25, 0, buf, &err));
    CHECK_EQ_STR(err.msg, "mines: 0 mines on 25 tiles, must be 1-25");
    CHECK(!zbc_fair_mines(&s, 26, 1, buf, &err));
    CHECK_EQ_STR(err.msg, "mines: 26 tiles, must be 1-25");
    CHECK(!zbc_fair_mines(&s, 3, 4, buf, &err));
    CHECK(zbc_fair_mines(&s, 25, 25, buf, &err)); /* every tile: a permutation */
    uint32_t seen = 0;
    for (int i = 0; i < 25; i++)
        seen |= 1u << buf[i];
    CHECK_EQ_INT(seen, (1u << 25) - 1);
    CHECK(!zbc_fair_tower(&s, 5, safe, &err));
    CHECK_EQ_STR(err.msg, "tower: unknown difficulty 5 (0 easy … 4 master)");
    CHECK(!zbc_fair_blitz(&s, 1, buf, &differ, &err));
    CHECK_EQ_STR(err.msg, "blitz: 1 cards, must be 2-16");
    CHECK(!zbc_fair_blitz(&s, 17, buf, &differ, &err));
    char name[16];
    zbc_fair_card_name(name, sizeof name, 52, ZBC_SUITS_BLITZ);
    CHECK_EQ_STR(name, "?");
    zbc_fair_card_name(name, sizeof name, 0, ZBC_SUITS_BLACKJACK);
    CHECK_EQ_STR(name, "2\xe2\x99\xa6");
    zbc_fair_card_name(name, sizeof name, 51, ZBC_SUITS_BACCARAT);
    CHECK_EQ_STR(name, "A\xe2\x99\xa3");
}

/* Keno draws 10 different squares in 1..40 and mines m different tiles, over many streams. */
static void test_draws_distinct(void)
{
    for (uint64_t nonce = 0; nonce < 300; nonce++) {
        struct zbc_fair_stream s;
        struct zbc_err err;
        uint8_t sq[ZBC_KENO_DRAWN], mines[ZBC_MINES_TILES];
        zbc_fair_stream_init(&s, "distinct", "x", nonce);
        zbc_fair_keno(&s, sq);
        uint64_t seen = 0;
        for (int i = 0; i < ZBC_KENO_DRAWN; i++) {
            CHECK(sq[i] >= 1 && sq[i] <= 40);
            CHECK(!(seen & (1ull << sq[i])));
            seen |= 1ull << sq[i];
        }
        uint32_t m = 1 + (uint32_t)(nonce % 24);
        CHECK(zbc_fair_mines(&s, 25, m, mines, &err));
        seen = 0;
        for (uint32_t i = 0; i < m; i++) {
            CHECK(mines[i] < 25);
            CHECK(!(seen & (1ull << mines[i])));
            seen |= 1ull << mines[i];
        }
    }
}

int main(void)
{
    TEST_RUN(test_vectors);
    TEST_RUN(test_arithmetic);
    TEST_RUN(test_refusals);
    TEST_RUN(test_draws_distinct);
    return test_summary("apps_fair_events");
}
