/* The five catalogue solo bets (plinko 23, keno 24, wheel 25, baccarat 26, blitz 27):
 * params bytes, every refusal sentence, the maximum return the 1 % rule uses, and pinned
 * outcomes (docs/games.md, docs/protocol-apps.md §4). */
#include "apps/fair.h"
#include "apps/fair_pay.h"
#include "testlib.h"

#define SEED "d4d96d4dfe4735f4183ed3737bec0888f619f9db81182a55be43e49b35c52eee"

static int parse(struct zbc_bet *bet, uint8_t type, const uint8_t *p, size_t n,
                 struct zbc_err *err)
{
    return zbc_bet_parse(bet, type, p, n, err);
}

static void test_solo_codes(void)
{
    for (int t = 0; t < 256; t++) {
        bool solo = t == 16 || t == 17 || t == 18 || (t >= 22 && t <= 27);
        CHECK_EQ_INT(zbc_bet_is_solo((uint8_t)t), solo);
    }
}

static void test_params_round_trip(void)
{
    static const struct {
        uint8_t type;
        uint8_t bytes[24];
        size_t len;
    } OK[] = {
        {23, {8, 0, 0}, 3},
        {23, {16, 2, 2, 'h', 'i'}, 5},
        {24, {0, 1, 40, 0}, 4},
        {24, {1, 10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 40, 1, 'x'}, 14},
        {25, {10, 0, 0}, 3},
        {25, {50, 2, 0}, 3},
        {26, {0, 0}, 2},
        {26, {2, 0}, 2},
        {27, {2, 0}, 2},
        {27, {16, 0}, 2},
    };
    for (size_t i = 0; i < sizeof OK / sizeof OK[0]; i++) {
        struct zbc_bet bet;
        struct zbc_err err;
        uint8_t again[128];
        CHECK(parse(&bet, OK[i].type, OK[i].bytes, OK[i].len, &err));
        CHECK_EQ_INT(bet.game, OK[i].type);
        size_t n = zbc_bet_encode(&bet, again, sizeof again);
        CHECK_EQ_INT(n, OK[i].len);
        CHECK_EQ_MEM(again, OK[i].bytes, OK[i].len);
        CHECK_EQ_INT(zbc_bet_encode(&bet, again, 12), 0); /* cap too small */
    }
}

static void test_refusals(void)
{
    static const struct {
        uint8_t type;
        uint8_t bytes[16];
        size_t len;
        const char *msg;
    } BAD[] = {
        {23, {8}, 1, "plinko params: need rows u8 and risk u8"},
        {23, {7, 0, 0}, 3, "plinko params: 7 rows, must be 8-16"},
        {23, {17, 0, 0}, 3, "plinko params: 17 rows, must be 8-16"},
        {23, {8, 3, 0}, 3, "plinko params: risk 3, must be 0 (low), 1 (medium) or 2 (high)"},
        {23, {8, 0}, 2, "bet params: missing client seed length"},
        {24, {0}, 1, "keno params: need risk u8 and picks count u8"},
        {24, {2, 1, 5, 0}, 4, "keno params: risk 2, must be 0 (classic) or 1 (high)"},
        {24, {0, 0, 0}, 3, "keno params: 0 picks, must be 1-10"},
        {24, {0, 11, 0}, 3, "keno params: 11 picks, must be 1-10"},
        {24, {0, 3, 1, 2}, 4, "keno params: 3 picks announced but 2 bytes follow"},
        {24, {0, 1, 0, 0}, 4, "keno params: square 0 out of range 1-40"},
        {24, {0, 1, 41, 0}, 4, "keno params: square 41 out of range 1-40"},
        {24, {0, 2, 5, 5, 0}, 5,
         "keno params: squares must be distinct and in ascending order (5 after 5)"},
        {24, {0, 2, 6, 5, 0}, 5,
         "keno params: squares must be distinct and in ascending order (5 after 6)"},
        {24, {0, 1, 5, 2, 'a'}, 5, "bet params: client seed length says 2 bytes but 1 follow"},
        {25, {10}, 1, "wheel params: need segments u8 and risk u8"},
        {25, {15, 0, 0}, 3, "wheel params: 15 segments, must be 10, 20, 30, 40 or 50"},
        {25, {0, 0, 0}, 3, "wheel params: 0 segments, must be 10, 20, 30, 40 or 50"},
        {25, {60, 0, 0}, 3, "wheel params: 60 segments, must be 10, 20, 30, 40 or 50"},
        {25, {10, 3, 0}, 3, "wheel params: risk 3, must be 0 (low), 1 (medium) or 2 (high)"},
        {26, {0}, 0, "baccarat params: need side u8"},
        {26, {3, 0}, 2, "baccarat params: side must be 0 (player), 1 (banker) or 2 (tie), not 3"},
        {26, {0, 1, 0x7f}, 3, "bet params: client seed must be printable ASCII (byte 0 is 0x7f)"},
        {27, {0}, 0, "blitz params: need cards u8"},
        {27, {1, 0}, 2, "blitz params: 1 cards, must be 2-16"},
        {27, {17, 0}, 2, "blitz params: 17 cards, must be 2-16"},
        {28, {0}, 1, "app type 28 is not a solo bet"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        struct zbc_bet bet;
        struct zbc_err err;
        CHECK(!parse(&bet, BAD[i].type, BAD[i].bytes, BAD[i].len, &err));
        CHECK_EQ_STR(err.msg, BAD[i].msg);
    }
}

static void bet_of(struct zbc_bet *bet, uint8_t type, const uint8_t *p, size_t n)
{
    struct zbc_err err;
    CHECK(parse(bet, type, p, n, &err));
}

/* What the 1 % rule compares with the fund: the largest multiplier of the table. */
static void test_max_return(void)
{
    struct zbc_bet bet;
    struct zbc_err err;
    uint64_t max;
    bet_of(&bet, 23, (const uint8_t[]){16, 2, 0}, 3);
    CHECK(zbc_bet_max_return(&bet, 100000000, &max, &err));
    CHECK_EQ_INT(max, 9585000000ull); /* 95.85x */
    bet_of(&bet, 24, (const uint8_t[]){0, 2, 3, 9, 0}, 5);
    CHECK(zbc_bet_max_return(&bet, 100000000, &max, &err));
    CHECK_EQ_INT(max, 644000000); /* 6.44x for 2 of 2 */
    bet_of(&bet, 25, (const uint8_t[]){30, 1, 0}, 3);
    CHECK(zbc_bet_max_return(&bet, 100000000, &max, &err));
    CHECK_EQ_INT(max, 470000000); /* 0.90 × 3 + 2.00 */
    bet_of(&bet, 26, (const uint8_t[]){2, 0}, 2);
    CHECK(zbc_bet_max_return(&bet, 100000000, &max, &err));
    CHECK_EQ_INT(max, 1037450000);
    bet_of(&bet, 27, (const uint8_t[]){2, 0}, 2);
    CHECK(zbc_bet_max_return(&bet, 100000000, &max, &err));
    CHECK_EQ_INT(max, 100940000);
    CHECK(!zbc_bet_max_return(&bet, UINT64_MAX, &max, &err));
    CHECK_EQ_STR(err.msg, "bet return overflows 64 bits");
}

/* Outcomes pinned for one seed (the events are those of tests/vectors/fair_catalogue.json,
 * server seed 0, client seed "", nonce 1). */
static void test_outcomes(void)
{
    struct zbc_bet bet;
    struct zbc_bet_outcome out;
    struct zbc_err err;
    /* plinko 8 rows low: path R L L R R L L R, slot 4: 0.5982x, a loss that returns part */
    bet_of(&bet, 23, (const uint8_t[]){8, 0, 0}, 3);
    CHECK(zbc_bet_resolve(&bet, 100000000, SEED, 1, &out, &err));
    CHECK_EQ_INT(out.value, 4 | 0x99u << 8);
    CHECK_EQ_INT(out.multiplier, 5982);
    CHECK_EQ_INT(out.returns, 59820000);
    CHECK(!out.win);
    CHECK(!zbc_bet_outcome(&bet, 100, out.u, &out, &err));
    CHECK_EQ_STR(err.msg, "this game's outcome needs the whole float stream, not the first float");
    /* keno: drawn 28 20 5 40 25 15 8 29 22 11; picks 5 8 11 (3 hits of 3) */
    bet_of(&bet, 24, (const uint8_t[]){0, 3, 5, 8, 11, 0}, 6);
    CHECK(zbc_bet_resolve(&bet, 100000000, SEED, 1, &out, &err));
    CHECK_EQ_INT(out.value, 3);
    CHECK_EQ_INT(out.multiplier, zbc_keno_multiplier(0, 3, 3));
    CHECK_EQ_INT(out.returns, 2138000000);
    CHECK(out.win);
    /* wheel 10 low: segment 6 pays 1.20x, the same through the first float alone */
    bet_of(&bet, 25, (const uint8_t[]){10, 0, 0}, 3);
    CHECK(zbc_bet_resolve(&bet, 100000000, SEED, 1, &out, &err));
    CHECK_EQ_INT(out.value, 6);
    CHECK_EQ_INT(out.returns, 120000000);
    CHECK(out.win);
    struct zbc_bet_outcome first;
    CHECK(zbc_bet_outcome(&bet, 100000000, out.u, &first, &err));
    CHECK_EQ_INT(first.returns, out.returns);
    /* baccarat: player 10♣ 3♦ (3), banker 8♥ A♣ (9), banker wins on a natural */
    bet_of(&bet, 26, (const uint8_t[]){1, 0}, 2);
    CHECK(zbc_bet_resolve(&bet, 100000000, SEED, 1, &out, &err));
    CHECK_EQ_INT(out.value, 3 | 9 << 8);
    CHECK_EQ_INT(out.returns, 195130000);
    CHECK(out.win);
    bet_of(&bet, 26, (const uint8_t[]){0, 0}, 2);
    CHECK(zbc_bet_resolve(&bet, 100000000, SEED, 1, &out, &err));
    CHECK_EQ_INT(out.returns, 0);
    CHECK(!out.win);
    /* blitz 8: 10♦ 8♥ 3♣ A♦ 10♠ 7♠ 4♥ 10♣ all differ */
    bet_of(&bet, 27, (const uint8_t[]){8, 0}, 2);
    CHECK(zbc_bet_resolve(&bet, 100000000, SEED, 1, &out, &err));
    CHECK_EQ_INT(out.value, 8);
    CHECK_EQ_INT(out.multiplier, zbc_blitz_multiplier(8));
    CHECK_EQ_INT(out.returns, 174420000);
    CHECK(out.win);
    /* a bet built by hand (not by zbc_bet_parse) with too many picks is refused */
    struct zbc_bet bad = {.game = ZBC_BET_KENO, .n_picks = 11};
    CHECK(!zbc_bet_resolve(&bad, 100, SEED, 1, &out, &err));
    CHECK_EQ_STR(err.msg, "keno: 11 picks, must be 1-10");
    bad = (struct zbc_bet){.game = ZBC_BET_PLINKO, .rows = 20};
    CHECK(!zbc_bet_resolve(&bad, 100, SEED, 1, &out, &err));
    CHECK_EQ_STR(err.msg, "plinko: 20 rows, must be 8-16");
    /* the old games give the same outcome through the stream */
    bet_of(&bet, 16, (const uint8_t[]){0, 0x88, 0x13, 0}, 4);
    CHECK(zbc_bet_resolve(&bet, 1000, SEED, 1, &out, &err));
    CHECK(zbc_bet_outcome(&bet, 1000, out.u, &first, &err));
    CHECK_EQ_INT(first.value, out.value);
    CHECK_EQ_INT(first.returns, out.returns);
}

/* A baccarat tie gives player and banker bets their stake back (a loss that returns the
 * stake); found by scanning nonces. */
static void test_baccarat_push(void)
{
    struct zbc_bet player, tie;
    struct zbc_bet_outcome out;
    struct zbc_err err;
    bet_of(&player, 26, (const uint8_t[]){0, 0}, 2);
    bet_of(&tie, 26, (const uint8_t[]){2, 0}, 2);
    int ties = 0;
    for (uint64_t nonce = 0; nonce < 200; nonce++) {
        CHECK(zbc_bet_resolve(&player, 1000, SEED, nonce, &out, &err));
        if (zbc_baccarat_winner(&out.hand) != ZBC_BACCARAT_TIE)
            continue;
        ties++;
        CHECK_EQ_INT(out.returns, 1000);
        CHECK(!out.win);
        CHECK(zbc_bet_resolve(&tie, 1000, SEED, nonce, &out, &err));
        CHECK_EQ_INT(out.returns, 10374);
        CHECK(out.win);
    }
    CHECK(ties > 0);
}

/* Over many streams no catalogue bet returns more than its maximum (the escrow). */
static void test_returns_within_escrow(void)
{
    static const struct {
        uint8_t type, bytes[14];
        size_t len;
    } BETS[] = {
        {23, {16, 2, 0}, 3},  {23, {8, 1, 0}, 3},
        {24, {1, 10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0}, 13},
        {24, {0, 1, 7, 0}, 4}, {25, {50, 1, 0}, 3}, {25, {20, 0, 0}, 3},
        {26, {1, 0}, 2},      {27, {16, 0}, 2},
    };
    for (size_t i = 0; i < sizeof BETS / sizeof BETS[0]; i++) {
        struct zbc_bet bet;
        struct zbc_bet_outcome out;
        struct zbc_err err;
        uint64_t max;
        bet_of(&bet, BETS[i].type, BETS[i].bytes, BETS[i].len);
        CHECK(zbc_bet_max_return(&bet, 123456789, &max, &err));
        for (uint64_t nonce = 0; nonce < 400; nonce++) {
            CHECK(zbc_bet_resolve(&bet, 123456789, "escrow", nonce, &out, &err));
            CHECK(out.returns <= max);
            CHECK_EQ_INT(out.win, out.returns > 123456789);
        }
    }
}

int main(void)
{
    TEST_RUN(test_solo_codes);
    TEST_RUN(test_params_round_trip);
    TEST_RUN(test_refusals);
    TEST_RUN(test_max_return);
    TEST_RUN(test_outcomes);
    TEST_RUN(test_baccarat_push);
    TEST_RUN(test_returns_within_escrow);
    return test_summary("apps_fair_bets");
}
