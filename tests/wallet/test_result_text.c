/* The wallet's words for results, rolls, bets and clocks
 * (node/wallet/result_text.h, docs/wallet.md "Playing"), from JSON
 * fixtures shaped as docs/api.md §10 (app record version 2's result) and
 * as nodes before it, and from hostile shapes. */
#include <jansson.h>
#include <string.h>

#include "apps/fair.h"
#include "crypto/hex.h"
#include "node/wallet/app_view.h"
#include "node/wallet/result_text.h"
#include "testlib.h"

static json_t *load(const char *text)
{
    json_error_t e;
    json_t *j = json_loads(text, 0, &e);
    if (j == NULL)
        fprintf(stderr, "fixture: %s at %d\n", e.text, e.position);
    CHECK(j != NULL);
    return j;
}

#define PLAYERS3                                                                         \
    "\"players\":[{\"seat\":0,\"address\":\"ZBC_A\"},{\"seat\":1,\"address\":\"ZBC_B\"}," \
    "{\"seat\":2,\"address\":\"ZBC_C\"}]"

static void check_result(const char *fixture, const char *want, int winner)
{
    json_t *app = load(fixture);
    char out[512];
    int n = zbc_result_text(app, out, sizeof out);
    if (n < 0 || strcmp(out, want) != 0)
        fprintf(stderr, "got '%s'\nwant '%s'\n", out, want);
    CHECK(n == (int)strlen(want));
    CHECK_EQ_STR(out, want);
    CHECK_EQ_INT(zbc_result_winner(app), winner);
    json_decref(app);
}

static void test_results(void)
{
    /* 2 seats, stake 1 ZBC, rake 1 %: seat 0 resigned, seat 1 takes 1.98 */
    check_result("{\"seats\":2," PLAYERS3 ",\"result\":{\"outcome\":\"resign\",\"ending\":"
                 "\"resign\",\"winner\":1,\"winner_address\":\"ZBC_B\",\"winners\":[1],"
                 "\"resigned\":0,\"resigned_address\":\"ZBC_A\",\"timed_out\":null,\"out\":[],"
                 "\"rake\":2000000,\"ended\":40,\"paid\":[{\"seat\":0,\"address\":\"ZBC_A\","
                 "\"amount\":0},{\"seat\":1,\"address\":\"ZBC_B\",\"amount\":198000000}]}}",
                 "seat 1 (ZBC_B) won 1.98 ZBC: seat 0 resigned (rake 0.02 ZBC)", 1);
    /* 3 seats, stake 1 ZBC: seat 0 timed out, seats 1 and 2 share 2.97 */
    check_result("{\"seats\":3," PLAYERS3 ",\"result\":{\"outcome\":\"timeout\",\"ending\":"
                 "\"timeout\",\"winner\":null,\"winners\":[1,2],\"resigned\":null,"
                 "\"timed_out\":0,\"out\":[],\"rake\":3000000,\"ended\":40,\"paid\":["
                 "{\"seat\":0,\"amount\":0},{\"seat\":1,\"amount\":148500000},"
                 "{\"seat\":2,\"amount\":148500000}]}}",
                 "seats 1 and 2 share 2.97 ZBC: seat 0 timed out (rake 0.03 ZBC)", -1);
    /* 4 seats: seat 3 wins 3.96 ZBC, seat 2 was bankrupt */
    check_result("{\"seats\":4,\"players\":[{\"seat\":3,\"address\":\"ZBC_D\"}],\"result\":{"
                 "\"outcome\":\"win\",\"winner\":3,\"winners\":[3],\"out\":[2],\"rake\":4000000,"
                 "\"paid\":[{\"seat\":0,\"amount\":0},{\"seat\":1,\"amount\":0},{\"seat\":2,"
                 "\"amount\":0},{\"seat\":3,\"amount\":396000000}]}}",
                 "seat 3 (ZBC_D) won 3.96 ZBC; out of play: seat 2 (rake 0.04 ZBC)", 3);
    check_result("{\"seats\":2," PLAYERS3 ",\"result\":{\"outcome\":\"draw\",\"winner\":null,"
                 "\"winners\":[],\"rake\":0,\"paid\":[{\"seat\":0,\"amount\":100000000},"
                 "{\"seat\":1,\"amount\":100000000}]}}",
                 "draw: stakes returned", -1);
    check_result("{\"seats\":2," PLAYERS3 ",\"result\":{\"outcome\":\"expired\",\"winner\":null,"
                 "\"winners\":[],\"rake\":0,\"paid\":[{\"seat\":0,\"amount\":100000000}]}}",
                 "expired: not every seat was filled in time, stakes refunded", -1);
    check_result("{\"seats\":2," PLAYERS3 ",\"result\":{\"outcome\":\"abandoned\",\"winner\":"
                 "null,\"winners\":[],\"resigned\":0,\"rake\":0,\"paid\":[]}}",
                 "abandoned: seat 0 resigned, stakes refunded", -1);
    /* 4 seats, seat 1 resigned: three seats share 2.97 */
    check_result("{\"seats\":4," PLAYERS3 ",\"result\":{\"outcome\":\"resign\",\"winner\":null,"
                 "\"winners\":[0,2,3],\"resigned\":1,\"rake\":3000000,\"paid\":[{\"seat\":0,"
                 "\"amount\":99000000},{\"seat\":2,\"amount\":99000000},{\"seat\":3,\"amount\":"
                 "99000000}]}}",
                 "seats 0, 2 and 3 share 2.97 ZBC: seat 1 resigned (rake 0.03 ZBC)", -1);
}

/* A node before app record version 2: "winner" of a resign/timeout is the
 * seat that resigned or timed out; the wallet never calls it the winner. */
static void test_results_old_node(void)
{
    check_result("{\"seats\":2," PLAYERS3 ",\"result\":{\"ending\":\"resign\",\"winner\":0,"
                 "\"winner_address\":\"ZBC_A\",\"rake\":2000000,\"payouts\":[{\"seat\":1,"
                 "\"address\":\"ZBC_B\",\"amount\":198000000,\"reason\":\"resign\"},{\"seat\":"
                 "null,\"amount\":2000000,\"reason\":\"rake\"}]}}",
                 "seat 1 (ZBC_B) won 1.98 ZBC: seat 0 resigned (rake 0.02 ZBC)", 1);
    check_result("{\"seats\":3," PLAYERS3 ",\"result\":{\"ending\":\"timeout\",\"winner\":0,"
                 "\"rake\":0,\"payouts\":[{\"seat\":1,\"amount\":150000000},{\"seat\":2,"
                 "\"amount\":150000000}]}}",
                 "seats 1 and 2 share 3 ZBC: seat 0 timed out", -1);
    check_result("{\"seats\":2," PLAYERS3 ",\"result\":{\"ending\":\"win\",\"winner\":0,"
                 "\"rake\":0,\"payouts\":[{\"seat\":0,\"amount\":200000000}]}}",
                 "seat 0 (ZBC_A) won 2 ZBC", 0);
}

static void test_results_hostile(void)
{
    char out[512];
    json_t *app = load("{\"result\":null}");
    CHECK_EQ_INT(zbc_result_text(app, out, sizeof out), -1);
    CHECK_EQ_STR(out, "");
    CHECK_EQ_INT(zbc_result_winner(app), -1);
    json_decref(app);
    /* wrong types everywhere: words, never a crash */
    app = load("{\"seats\":\"x\",\"players\":7,\"result\":{\"outcome\":\"resign\",\"winner\":"
               "\"1\",\"winners\":{\"a\":1},\"resigned\":-4,\"out\":[\"z\",999],\"rake\":-5,"
               "\"paid\":[{\"seat\":1,\"amount\":-3},7]}}");
    CHECK(zbc_result_text(app, out, sizeof out) > 0);
    CHECK_EQ_STR(out, "resign: no seat was paid");
    json_decref(app);
    app = load("{\"result\":{\"outcome\":7}}");
    CHECK(zbc_result_text(app, out, sizeof out) > 0);
    CHECK_EQ_STR(out, "unknown: no seat was paid");
    json_decref(app);
    /* too small a buffer */
    app = load("{\"seats\":2," PLAYERS3 ",\"result\":{\"outcome\":\"draw\"}}");
    CHECK_EQ_INT(zbc_result_text(app, out, 8), -1);
    CHECK_EQ_STR(out, "");
    json_decref(app);
}

/* The app view of a pig app with one history entry: has want, not never. */
static void check_view_entry(const char *entry, const char *want, const char *never)
{
    char text[1024];
    snprintf(text, sizeof text, "{\"id\":\"5\",\"type\":33,\"game\":\"pig\",\"status\":"
             "\"active\",\"players\":[],\"height\":12,\"history\":[%s]}", entry);
    json_t *app = load(text);
    char *t = zbc_app_view_text(app, "", 1000, NULL);
    CHECK(t != NULL);
    CHECK(t != NULL && strstr(t, want) != NULL);
    CHECK(t != NULL && strstr(t, never) == NULL);
    free(t);
    json_decref(app);
}

static void check_end(const char *entry, const char *want)
{
    json_t *e = load(entry);
    char out[128];
    CHECK_EQ_INT(zbc_end_event_text(e, out, sizeof out), (int)strlen(want));
    CHECK_EQ_STR(out, want);
    json_decref(e);
}

static void test_end_events(void)
{
    check_end("{\"kind\":\"app_end\",\"seat\":1,\"outcome\":\"resign\",\"winner\":0,"
              "\"resigned\":1,\"timed_out\":null,\"reason\":\"resign\"}",
              "resign: seat 1 resigned, seat 0 won");
    check_end("{\"kind\":\"app_end\",\"outcome\":\"timeout\",\"winner\":null,\"timed_out\":2}",
              "timeout: seat 2 timed out");
    check_end("{\"kind\":\"app_end\",\"outcome\":\"draw\",\"winner\":null}", "draw");
    /* an older node: the seat of a resign is the seat that resigned */
    check_end("{\"kind\":\"app_end\",\"seat\":1,\"reason\":\"resign\"}", "resign");
    check_end("{\"kind\":\"app_end\",\"seat\":1}", "ended");
    check_end("{\"kind\":\"app_end\",\"outcome\":\"win\",\"winner\":\"0\",\"resigned\":[]}",
              "win");
    /* the app view never prints the bare seat of an app_end */
    check_view_entry("{\"seq\":9,\"height\":11,\"kind\":\"app_end\",\"seat\":1,\"amount\":0,"
                     "\"reason\":\"resign\"}",
                     "app_end   resign\n", "seat 1");
}

static void check_roll(const char *entry, bool d6, const char *want)
{
    json_t *e = load(entry);
    char out[128];
    int n = zbc_roll_text(e, d6, out, sizeof out);
    if (want == NULL) {
        CHECK_EQ_INT(n, -1);
        CHECK_EQ_STR(out, "");
    } else {
        CHECK_EQ_STR(out, want);
        CHECK_EQ_INT(n, (int)strlen(want));
    }
    json_decref(e);
}

static void test_rolls(void)
{
    /* 253 is rejected (>= 252), 3 -> 3 % 6 + 1 = 4 */
    check_roll("{\"rolls_hex\":\"fd03\",\"roll_bytes_used\":2}", true, "rolled 4");
    /* monopoly's two dice: 1 -> 2, 2 -> 3 */
    check_roll("{\"rolls_hex\":\"0102\",\"roll_bytes_used\":2}", true, "rolled 2 and 3");
    check_roll("{\"rolls_hex\":\"05fb0b\",\"roll_bytes_used\":3}", true, "rolled 6, 6 and 6");
    /* only the used bytes count */
    check_roll("{\"rolls_hex\":\"0001\",\"roll_bytes_used\":1}", true, "rolled 1");
    /* lines: colour and cell draws, not dice */
    check_roll("{\"rolls_hex\":\"0001020304\",\"roll_bytes_used\":5}", false,
               "drew 5 random bytes");
    check_roll("{\"rolls_hex\":\"\",\"roll_bytes_used\":0}", true, NULL);
    check_roll("{\"kind\":\"app_move\"}", true, NULL);
    check_roll("{\"rolls_hex\":\"zz\",\"roll_bytes_used\":1}", true, NULL);
    check_roll("{\"rolls_hex\":\"fcfd\",\"roll_bytes_used\":2}", true, NULL);
    check_roll("{\"rolls_hex\":7,\"roll_bytes_used\":\"1\"}", true, NULL);
    json_t *app = load("{\"type\":33}");
    CHECK(zbc_app_rolls_d6(app)); /* pig */
    json_decref(app);
    app = load("{\"type\":10}");
    CHECK(!zbc_app_rolls_d6(app)); /* lines */
    json_decref(app);
    app = load("{\"type\":2}");
    CHECK(!zbc_app_rolls_d6(app)); /* chess has no dice */
    json_decref(app);
}

/* A bet app view: type, params from the bet, one bet_settle entry. */
static json_t *bet_app(const struct zbc_bet *b, unsigned value, bool win, unsigned long long paid)
{
    uint8_t params[128];
    char hex[257], text[1024];
    size_t n = zbc_bet_encode(b, params, sizeof params);
    zbc_hex_encode(hex, params, n);
    snprintf(text, sizeof text,
             "{\"type\":%d,\"params_hex\":\"%s\",\"seats\":1,\"history\":[{\"kind\":\"app_create\"},"
             "{\"kind\":\"bet_settle\",\"u\":12345,\"value\":%u,\"win\":%s,\"amount\":%llu}],"
             "\"result\":{\"outcome\":\"bet\",\"ending\":\"bet\",\"winner\":null}}",
             (int)b->game, hex, value, win ? "true" : "false", paid);
    return load(text);
}

static void check_bet(const struct zbc_bet *b, unsigned value, bool win,
                      unsigned long long paid, const char *want)
{
    json_t *app = bet_app(b, value, win, paid);
    char out[256];
    CHECK(zbc_bet_text(app, out, sizeof out) > 0);
    CHECK_EQ_STR(out, want);
    /* the result line of a bet is the same sentence */
    CHECK(zbc_result_text(app, out, sizeof out) > 0);
    CHECK_EQ_STR(out, want);
    json_decref(app);
}

static void test_bets(void)
{
    struct zbc_bet b = {.game = ZBC_BET_DICE, .direction = 0, .target16 = 4950,
                        .client_seed = "s", .client_seed_len = 1};
    check_bet(&b, 271, true, 200000000, "rolled 2.71 (under 49.50): win, paid 2 ZBC");
    b.direction = 1;
    check_bet(&b, 271, false, 0, "rolled 2.71 (over 49.50): loss");
    struct zbc_bet c = {.game = ZBC_BET_COIN, .direction = 0, .client_seed = "s",
                        .client_seed_len = 1};
    check_bet(&c, 1, false, 0, "flipped tails (heads): loss");
    struct zbc_bet r = {.game = ZBC_BET_ROULETTE, .kind = ZBC_ROULETTE_RED, .client_seed = "s",
                        .client_seed_len = 1};
    check_bet(&r, 17, false, 0, "pocket 17 black (red): loss");
    check_bet(&r, 0, false, 0, "pocket 0 green (red): loss");
    r.kind = ZBC_ROULETTE_STRAIGHT;
    r.number = 32;
    check_bet(&r, 32, true, 3600000000ULL, "pocket 32 red (straight 32): win, paid 36 ZBC");
    struct zbc_bet l = {.game = ZBC_BET_LIMBO, .target32 = 200, .client_seed = "s",
                        .client_seed_len = 1};
    check_bet(&l, 193, false, 0, "result 1.93x (target 2.00x): loss");
    /* not settled, bad params, a lying value */
    char out[256];
    json_t *app = load("{\"type\":16,\"params_hex\":\"00\",\"history\":[]}");
    CHECK_EQ_INT(zbc_bet_text(app, out, sizeof out), -1);
    json_decref(app);
    app = load("{\"type\":16,\"params_hex\":\"zz\",\"history\":[{\"kind\":\"bet_settle\","
               "\"value\":1}]}");
    CHECK_EQ_INT(zbc_bet_text(app, out, sizeof out), -1);
    json_decref(app);
    app = load("{\"type\":16,\"params_hex\":\"\",\"history\":[{\"kind\":\"bet_settle\","
               "\"value\":-1}]}");
    CHECK_EQ_INT(zbc_bet_text(app, out, sizeof out), -1);
    json_decref(app);
}

static void test_clock(void)
{
    char out[128];
    /* 15-s blocks */
    CHECK(zbc_clock_text(264, 248, 15000, out, sizeof out) > 0);
    CHECK_EQ_STR(out, "deadline block 264 (in 16 blocks, \xe2\x89\x88 4 min)");
    CHECK(zbc_clock_text(264, 263, 1000, out, sizeof out) > 0);
    CHECK_EQ_STR(out, "deadline block 264 (in 1 block, \xe2\x89\x88 1 s)");
    CHECK(zbc_clock_text(264, 248, 0, out, sizeof out) > 0);
    CHECK_EQ_STR(out, "deadline block 264 (in 16 blocks)");
    CHECK(zbc_clock_text(264, 264, 1000, out, sizeof out) > 0);
    CHECK_EQ_STR(out, "deadline block 264 (reached)");
    CHECK(zbc_clock_text(264, 267, 1000, out, sizeof out) > 0);
    CHECK_EQ_STR(out, "deadline block 264 (passed 3 blocks ago)");
    CHECK_EQ_INT(zbc_clock_text(264, 248, 1000, out, 10), -1);
    CHECK(zbc_clock_text(UINT64_MAX, 0, 1000000, out, sizeof out) > 0); /* no overflow */
    zbc_duration_text(16000, out);
    CHECK_EQ_STR(out, "16 s");
    zbc_duration_text(240000, out);
    CHECK_EQ_STR(out, "4 min");
    zbc_duration_text(4800000, out);
    CHECK_EQ_STR(out, "1 h 20 min");
    zbc_duration_text((2 * 24 + 3) * 3600000ULL, out);
    CHECK_EQ_STR(out, "2 d 3 h");
    /* the app view's clock line */
    json_t *app = load("{\"clock\":1,\"clock_address\":\"ZBC_B\",\"deadline\":264,\"height\":248,"
                       "\"timeout_claimable\":false}");
    CHECK(zbc_app_clock_line(app, "ZBC_B", 15000, out, sizeof out) > 0);
    CHECK_EQ_STR(out, "to move: seat 1 (you), deadline block 264 (in 16 blocks, \xe2\x89\x88 4 min)");
    CHECK(zbc_app_clock_line(app, "ZBC_A", 15000, out, sizeof out) > 0);
    CHECK_EQ_STR(out, "to move: seat 1, deadline block 264 (in 16 blocks, \xe2\x89\x88 4 min)");
    json_decref(app);
    app = load("{\"clock\":null}");
    CHECK_EQ_INT(zbc_app_clock_line(app, "", 1000, out, sizeof out), -1);
    json_decref(app);
}

/* app show of a dice game: faces in the history, no raw bytes */
static void test_view_rolls(void)
{
    check_view_entry("{\"seq\":4,\"height\":11,\"kind\":\"app_move\",\"seat\":0,\"notation\":"
                     "\"roll\",\"rolls_hex\":\"fd03\",\"roll_bytes_used\":2,\"amount\":0,"
                     "\"reason\":\"\"}",
                     "app_move  seat 0 roll: rolled 4\n", "fd03");
}

/* Multi-step solo games (mines): cashed out, settled by the clock, bust. */
static void test_solo_results(void)
{
    check_result("{\"seats\":1,\"stake\":100000000,\"view\":{\"multiplier\":\"1.1250\","
                 "\"status\":\"cashout\"},"
                 "\"history\":[{\"kind\":\"app_end\",\"reason\":\"cashout\"}],"
                 "\"result\":{\"outcome\":\"cashout\",\"winner\":0,\"winners\":[0],"
                 "\"rake\":0,\"paid\":[{\"seat\":0,\"amount\":112500000}]}}",
                 "cashed out at 1.1250x: paid 1.125 ZBC for a stake of 1 ZBC (won 0.125 ZBC)", 0);
    check_result("{\"seats\":1,\"stake\":100000000,\"view\":{\"multiplier\":\"1.0000\"},"
                 "\"history\":[{\"kind\":\"app_claim\",\"reason\":\"clock\"},"
                 "{\"kind\":\"app_end\",\"reason\":\"clock\"}],"
                 "\"result\":{\"outcome\":\"cashout\",\"winner\":null,\"winners\":[],"
                 "\"rake\":0,\"paid\":[{\"seat\":0,\"amount\":100000000}]}}",
                 "settled by the clock at 1.0000x: paid 1 ZBC for a stake of 1 ZBC (won 0 ZBC)",
                 -1);
    /* blackjack: a doubled hand pushed, 2x back (not a cash-out) */
    check_result("{\"seats\":1,\"stake\":100000000,\"view\":{\"multiplier\":\"2.0000\","
                 "\"status\":\"over\"},\"history\":[{\"kind\":\"app_end\",\"reason\":\"cashout\"}],"
                 "\"result\":{\"outcome\":\"cashout\",\"winner\":0,\"winners\":[0],"
                 "\"rake\":0,\"paid\":[{\"seat\":0,\"amount\":200000000}]}}",
                 "returned 2.0000x: paid 2 ZBC for a stake of 1 ZBC (won 1 ZBC)", 0);
    check_result("{\"seats\":1,\"stake\":100000000,\"view\":{\"multiplier\":\"0.0000\"},"
                 "\"result\":{\"outcome\":\"bust\",\"winner\":null,\"winners\":[],"
                 "\"rake\":0,\"paid\":[{\"seat\":0,\"amount\":0}]}}",
                 "bust: the stake of 1 ZBC went to the apps fund", -1);
}

int main(void)
{
    TEST_RUN(test_results);
    TEST_RUN(test_solo_results);
    TEST_RUN(test_results_old_node);
    TEST_RUN(test_results_hostile);
    TEST_RUN(test_end_events);
    TEST_RUN(test_rolls);
    TEST_RUN(test_bets);
    TEST_RUN(test_clock);
    TEST_RUN(test_view_rolls);
    return test_summary("wallet_result_text");
}
