/* Solo bets against vectors computed independently (tests/vectors/fair/
 * gen_fair.py: Python's hmac and the published float construction). */
#include <jansson.h>

#include "apps/fair.h"
#include "testlib.h"

static void build_bet(struct zbc_bet *bet, int game, json_t *params,
                      const char *client_seed)
{
    memset(bet, 0, sizeof *bet);
    bet->game = (enum zbc_bet_game)game;
    switch (game) {
    case ZBC_BET_DICE:
        bet->direction = (uint8_t)json_integer_value(json_object_get(params, "direction"));
        bet->target16 = (uint16_t)json_integer_value(json_object_get(params, "target"));
        break;
    case ZBC_BET_COIN:
        bet->direction = (uint8_t)json_integer_value(json_object_get(params, "side"));
        break;
    case ZBC_BET_ROULETTE:
        bet->kind = (uint8_t)json_integer_value(json_object_get(params, "kind"));
        bet->number = (uint8_t)json_integer_value(json_object_get(params, "number"));
        break;
    case ZBC_BET_LIMBO:
        bet->target32 = (uint32_t)json_integer_value(json_object_get(params, "target"));
        break;
    }
    bet->client_seed_len = (uint8_t)strlen(client_seed);
    memcpy(bet->client_seed, client_seed, bet->client_seed_len + 1);
}

static void test_vectors(void)
{
    char *text = test_read_file(ZBC_VECTORS_DIR "/fair/fair.json");
    json_error_t jerr;
    json_t *root = json_loads(text, 0, &jerr);
    CHECK(root != NULL);
    json_t *vectors = json_object_get(root, "vectors");
    size_t i, wins = 0, losses = 0;
    json_t *v;
    json_array_foreach(vectors, i, v) {
        const char *ss = json_string_value(json_object_get(v, "server_seed"));
        const char *cs = json_string_value(json_object_get(v, "client_seed"));
        uint64_t nonce = strtoull(json_string_value(json_object_get(v, "nonce")), NULL, 10);
        uint64_t stake = (uint64_t)json_integer_value(json_object_get(v, "stake"));
        json_t *us = json_object_get(v, "u");
        for (uint32_t k = 0; k < json_array_size(us); k++)
            CHECK_EQ_INT(zbc_fair_u32(ss, cs, nonce, k),
                         json_integer_value(json_array_get(us, k)));
        uint32_t u = zbc_fair_u32(ss, cs, nonce, 0);
        size_t j;
        json_t *g;
        json_array_foreach(json_object_get(v, "games"), j, g) {
            int game = (int)json_integer_value(json_object_get(g, "game"));
            struct zbc_bet bet, parsed;
            build_bet(&bet, game, json_object_get(g, "params"), cs);
            uint8_t params[128];
            size_t n = zbc_bet_encode(&bet, params, sizeof params);
            CHECK(n > 0);
            struct zbc_err err;
            CHECK(zbc_bet_parse(&parsed, (uint8_t)game, params, n, &err));
            uint8_t again[128];
            CHECK_EQ_INT(zbc_bet_encode(&parsed, again, sizeof again), n);
            CHECK_EQ_MEM(params, again, n);
            struct zbc_bet_outcome out;
            CHECK(zbc_bet_outcome(&parsed, stake, u, &out, &err));
            CHECK_EQ_INT(out.value, json_integer_value(json_object_get(g, "value")));
            CHECK_EQ_INT(out.win, json_is_true(json_object_get(g, "win")));
            CHECK_EQ_INT(out.returns, json_integer_value(json_object_get(g, "returns")));
            if (out.win)
                wins++;
            else
                losses++;
        }
    }
    /* the vectors exercise both outcomes */
    CHECK(wins > 50 && losses > 50);
    json_decref(root);
    free(text);
}

static void test_edges(void)
{
    struct zbc_bet bet;
    struct zbc_bet_outcome out;
    struct zbc_err err;
    memset(&bet, 0, sizeof bet);
    /* dice: u = 0 rolls 0, u = max rolls 10000 */
    bet.game = ZBC_BET_DICE;
    bet.direction = 0;
    bet.target16 = 1;
    CHECK(zbc_bet_outcome(&bet, 100, 0, &out, &err));
    CHECK_EQ_INT(out.value, 0);
    CHECK(out.win);
    CHECK_EQ_INT(out.returns, 100 * 99 * 10001 / 100); /* w = 1 */
    CHECK(zbc_bet_outcome(&bet, 100, UINT32_MAX, &out, &err));
    CHECK_EQ_INT(out.value, 10000);
    CHECK(!out.win);
    CHECK_EQ_INT(out.returns, 0);
    /* coin boundary */
    bet.game = ZBC_BET_COIN;
    bet.direction = 0;
    CHECK(zbc_bet_outcome(&bet, 100, 0x7fffffffu, &out, &err));
    CHECK(out.win);
    CHECK(zbc_bet_outcome(&bet, 100, 0x80000000u, &out, &err));
    CHECK(!out.win);
    /* roulette: zero loses every outside bet, pays a straight on 0 */
    bet.game = ZBC_BET_ROULETTE;
    for (uint8_t k = ZBC_ROULETTE_RED; k <= ZBC_ROULETTE_COLUMN; k++) {
        bet.kind = k;
        bet.number = (k == ZBC_ROULETTE_DOZEN || k == ZBC_ROULETTE_COLUMN) ? 1 : 0;
        CHECK(zbc_bet_outcome(&bet, 100, 0, &out, &err));
        CHECK_EQ_INT(out.value, 0);
        CHECK(!out.win);
    }
    bet.kind = ZBC_ROULETTE_STRAIGHT;
    bet.number = 0;
    CHECK(zbc_bet_outcome(&bet, 100, 0, &out, &err));
    CHECK(out.win);
    CHECK_EQ_INT(out.returns, 3600);
    CHECK(zbc_bet_outcome(&bet, 100, UINT32_MAX, &out, &err));
    CHECK_EQ_INT(out.value, 36);
    /* limbo: u = 0 gives the largest result; u = max the smallest (98) */
    bet.game = ZBC_BET_LIMBO;
    bet.target32 = 101;
    CHECK(zbc_bet_outcome(&bet, 100, 0, &out, &err));
    CHECK_EQ_INT(out.value, 99ull << 24);
    CHECK(out.win);
    CHECK(zbc_bet_outcome(&bet, 100, UINT32_MAX, &out, &err));
    CHECK_EQ_INT(out.value, 98);
    CHECK(!out.win);
    /* overflow of the return is an error, not a wrap */
    bet.target32 = UINT32_MAX;
    uint64_t max;
    CHECK(!zbc_bet_max_return(&bet, UINT64_MAX, &max, &err));
    CHECK(strstr(err.msg, "overflow") != NULL);
    CHECK(zbc_bet_max_return(&bet, 100, &max, &err));
    CHECK_EQ_INT(max, UINT32_MAX);
}

static void test_bad_params(void)
{
    struct zbc_bet bet;
    struct zbc_err err;
    static const struct {
        uint8_t game;
        uint8_t len;
        uint8_t bytes[8];
        const char *want;
    } bad[] = {
        {16, 0, {0}, "need direction"},
        {16, 4, {2, 10, 0, 0}, "direction"},
        {16, 4, {0, 0, 0, 0}, "target 0 out of range"},
        {16, 4, {0, 0x10, 0x27, 0}, "target 10000 out of range"},
        {16, 3, {0, 10, 0}, "missing client seed"},
        {16, 5, {0, 10, 0, 2, 'a'}, "says 2 bytes but 1"},
        {16, 6, {0, 10, 0, 2, 'a', 0x07}, "printable ASCII"},
        {17, 2, {2, 0}, "side must be"},
        {18, 3, {9, 0, 0}, "unknown bet kind"},
        {18, 3, {0, 37, 0}, "straight number 37"},
        {18, 3, {7, 4, 0}, "dozen/column number 4"},
        {18, 3, {1, 5, 0}, "number must be 0"},
        {22, 5, {100, 0, 0, 0, 0}, "below the minimum 101"},
        {22, 3, {101, 0, 0}, "need target"},
        {1, 1, {0}, "not a solo bet"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err.msg[0] = '\0';
        CHECK(!zbc_bet_parse(&bet, bad[i].game, bad[i].bytes, bad[i].len, &err));
        if (strstr(err.msg, bad[i].want) == NULL)
            fprintf(stderr, "case %zu: error '%s' lacks '%s'\n", i, err.msg, bad[i].want);
        CHECK(strstr(err.msg, bad[i].want) != NULL);
    }
    uint8_t longseed[2 + 65];
    longseed[0] = 0;
    longseed[1] = 65;
    memset(longseed + 2, 'a', 65);
    CHECK(!zbc_bet_parse(&bet, 17, longseed, sizeof longseed, &err));
    CHECK(strstr(err.msg, "at most 64") != NULL);
}

int main(void)
{
    TEST_RUN(test_vectors);
    TEST_RUN(test_edges);
    TEST_RUN(test_bad_params);
    return test_summary("apps_fair");
}
