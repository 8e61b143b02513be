/* zbc-engine fair: recompute a solo bet (docs/games.md, "Solo bets") from its seeds. */
#include <stdio.h>
#include <string.h>

#include "apps/fair.h"
#include "node/engine/cli.h"

#define FLOATS_SHOWN 4
#define DEFAULT_STAKE 100000000u /* 1 ZBC */

static const char *const ROULETTE_KINDS[] = {
    "straight", "red", "black", "odd", "even", "low", "high", "dozen",
    "column",
};

static int game_code(const char *name, uint8_t *code)
{
    static const struct {
        const char *name;
        uint8_t code;
    } GAMES[] = {{"dice", ZBC_BET_DICE},         {"16", ZBC_BET_DICE},
                 {"coin", ZBC_BET_COIN},         {"17", ZBC_BET_COIN},
                 {"roulette", ZBC_BET_ROULETTE}, {"18", ZBC_BET_ROULETTE},
                 {"limbo", ZBC_BET_LIMBO},       {"22", ZBC_BET_LIMBO}};
    for (size_t i = 0; i < sizeof GAMES / sizeof GAMES[0]; i++) {
        if (strcmp(GAMES[i].name, name) == 0) {
            *code = GAMES[i].code;
            return 1;
        }
    }
    return 0;
}

/* One of `words` (index) or its decimal index. */
static int choice(const struct cli *c, const char *opt, const char *text,
                  const char *const *words, size_t n, uint8_t *out)
{
    uint64_t v;
    if (text == NULL) {
        cli_error(c, CLI_USAGE, "this bet needs %s", opt);
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (strcmp(words[i], text) == 0) {
            *out = (uint8_t)i;
            return 1;
        }
    }
    if (!cli_u64(c, opt, text, 0, n - 1, &v))
        return 0;
    *out = (uint8_t)v;
    return 1;
}

static int need_u64(const struct cli *c, const char *opt, const char *text,
                    uint64_t max, uint64_t *out)
{
    if (text == NULL) {
        cli_error(c, CLI_USAGE, "this bet needs %s", opt);
        return 0;
    }
    return cli_u64(c, opt, text, 0, max, out);
}

static int build_bet(const struct cli *c, uint8_t code, struct zbc_bet *bet)
{
    static const char *const DIRS[] = {"under", "over"};
    static const char *const SIDES[] = {"heads", "tails"};
    uint64_t v;
    memset(bet, 0, sizeof *bet);
    bet->game = (enum zbc_bet_game)code;
    switch ((enum zbc_bet_game)code) {
    case ZBC_BET_DICE:
        if (!choice(c, "--direction", c->direction, DIRS, 2, &bet->direction) ||
            !need_u64(c, "--target", c->target, UINT16_MAX, &v))
            return 0;
        bet->target16 = (uint16_t)v;
        break;
    case ZBC_BET_COIN:
        if (!choice(c, "--side", c->side, SIDES, 2, &bet->direction))
            return 0;
        break;
    case ZBC_BET_ROULETTE:
        if (!choice(c, "--kind", c->kind, ROULETTE_KINDS, 9, &bet->kind))
            return 0;
        if (c->number != NULL) {
            if (!cli_u64(c, "--number", c->number, 0, 255, &v))
                return 0;
            bet->number = (uint8_t)v;
        }
        break;
    case ZBC_BET_LIMBO:
        if (!need_u64(c, "--target", c->target, UINT32_MAX, &v))
            return 0;
        bet->target32 = (uint32_t)v;
        break;
    }
    size_t n = strlen(c->client_seed);
    if (n > ZBC_CLIENT_SEED_MAX) {
        cli_error(c, CLI_USAGE, "--client-seed is longer than %d characters",
                  ZBC_CLIENT_SEED_MAX);
        return 0;
    }
    bet->client_seed_len = (uint8_t)n;
    memcpy(bet->client_seed, c->client_seed, n + 1);
    /* Round-trip through the CreateApp params so the chain's own checks
     * decide what is a valid bet. */
    uint8_t params[128];
    struct zbc_err err;
    size_t plen = zbc_bet_encode(bet, params, sizeof params);
    struct zbc_bet checked;
    if (plen == 0 || !zbc_bet_parse(&checked, code, params, plen, &err)) {
        cli_error(c, CLI_REFUSED, "bad bet: %s", plen ? err.msg : "encoding");
        return 0;
    }
    *bet = checked;
    return 1;
}

static void describe(const struct zbc_bet *bet,
                     const struct zbc_bet_outcome *o, char *out, size_t cap)
{
    switch (bet->game) {
    case ZBC_BET_DICE:
        snprintf(out, cap, "roll %u.%02u (%s %u.%02u)", o->value / 100,
                 o->value % 100, bet->direction ? "over" : "under",
                 bet->target16 / 100u, bet->target16 % 100u);
        break;
    case ZBC_BET_COIN:
        snprintf(out, cap, "%s (bet %s)", o->value ? "tails" : "heads",
                 bet->direction ? "tails" : "heads");
        break;
    case ZBC_BET_ROULETTE:
        snprintf(out, cap, "pocket %u%s (bet %s %u)", o->value,
                 o->value == 0 ? " green"
                 : zbc_roulette_is_red(o->value) ? " red" : " black",
                 bet->kind < 9 ? ROULETTE_KINDS[bet->kind] : "?", bet->number);
        break;
    case ZBC_BET_LIMBO:
        snprintf(out, cap, "result %u.%02ux (target %u.%02ux)",
                 o->value / 100, o->value % 100, bet->target32 / 100,
                 bet->target32 % 100);
        break;
    }
}

int cmd_fair(struct cli *c)
{
    uint8_t code;
    uint64_t nonce, stake = DEFAULT_STAKE;
    struct zbc_bet bet;
    struct zbc_bet_outcome o;
    struct zbc_err err;
    if (c->npos != 1 || c->server_seed == NULL || c->client_seed == NULL ||
        c->nonce == NULL)
        return cli_error(c, CLI_USAGE, "fair needs GAME --server-seed S "
                         "--client-seed C --nonce N");
    if (!game_code(c->pos[0], &code))
        return cli_error(c, CLI_USAGE, "'%s' is not a solo bet (dice, coin, "
                         "roulette, limbo)", c->pos[0]);
    if (!cli_u64(c, "--nonce", c->nonce, 0, UINT64_MAX, &nonce) ||
        (c->stake != NULL &&
         !cli_u64(c, "--stake", c->stake, 0, UINT64_MAX, &stake)))
        return CLI_USAGE;
    if (!build_bet(c, code, &bet))
        return CLI_USAGE;
    uint32_t u[FLOATS_SHOWN];
    for (uint32_t i = 0; i < FLOATS_SHOWN; i++)
        u[i] = zbc_fair_u32(c->server_seed, bet.client_seed, nonce, i);
    if (!zbc_bet_outcome(&bet, stake, u[0], &o, &err))
        return cli_error(c, CLI_REFUSED, "%s", err.msg);
    char what[160];
    describe(&bet, &o, what, sizeof what);
    if (c->json) {
        json_t *floats = json_array();
        for (int i = 0; i < FLOATS_SHOWN; i++)
            json_array_append_new(floats, json_integer(u[i]));
        cli_print_json(json_pack(
            "{s:i, s:s, s:s, s:I, s:o, s:I, s:i, s:s, s:b, s:I}", "game",
            code, "server_seed", c->server_seed, "client_seed",
            bet.client_seed, "nonce", (json_int_t)nonce, "floats_u32", floats,
            "stake", (json_int_t)stake, "value", (int)o.value, "outcome", what,
            "win", o.win, "returns", (json_int_t)o.returns));
        return CLI_OK;
    }
    for (int i = 0; i < FLOATS_SHOWN; i++) {
        /* u / 2^32 to 9 decimals, truncated, in integers */
        uint64_t frac = ((uint64_t)u[i] * 1000000000u) >> 32;
        printf("float %d: 0.%09llu (u = %u)\n", i, (unsigned long long)frac,
               u[i]);
    }
    printf("outcome: %s\n", what);
    printf("%s: returns %llu of stake %llu\n", o.win ? "win" : "loss",
           (unsigned long long)o.returns, (unsigned long long)stake);
    return CLI_OK;
}
