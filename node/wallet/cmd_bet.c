/* zbc bet dice|coin|roulette|limbo ... --stake A [--client-seed S]: a solo
 * bet (CreateApp with seats = 1, docs/protocol-apps.md §4) settled by the next block. */
#include <ctype.h>
#include <inttypes.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/fair.h"
#include "crypto/bytes.h"
#include "crypto/hex.h"
#include "node/wallet/amount.h"
#include "node/wallet/app_client.h"
#include "node/wallet/cmds.h"
#include "node/wallet/result_text.h"

static const char bet_usage[] =
    "usage: zbc bet dice under|over PERCENT | coin heads|tails | roulette "
    "red|black|odd|even|low|high|straight N|dozen N|column N | limbo MULTIPLIER "
    "--stake AMOUNT [--client-seed S]";

/* "49.5" -> 4950: a decimal with at most two decimals, in hundredths; the
 * whole part by the codec's strict parser (".5" is 0.5). */
static int hundredths(uint64_t *out, const char *text)
{
    const char *dot = strchr(text, '.');
    size_t ilen = dot != NULL ? (size_t)(dot - text) : strlen(text);
    uint64_t whole = 0, frac = 0;
    struct zbc_err err;
    if ((dot == NULL || ilen > 0) &&
        !zbc_parse_u64n(text, ilen, 0, UINT32_MAX, &whole, "number", &err))
        return 0;
    if (dot != NULL) {
        size_t flen = strlen(dot + 1);
        if (flen < 1 || flen > 2)
            return 0;
        for (size_t i = 0; i < flen; i++) {
            if (!isdigit((unsigned char)dot[1 + i]))
                return 0;
            frac = frac * 10 + (uint64_t)(dot[1 + i] - '0');
        }
        if (flen == 1)
            frac *= 10;
    }
    *out = whole * 100 + frac;
    return 1;
}

int zbc_client_seed_pick(char *out, uint8_t *len, const struct zbc_opts *o,
                         struct zbc_wfail *f)
{
    if (o->client_seed != NULL) {
        size_t n = strlen(o->client_seed);
        if (n > ZBC_CLIENT_SEED_MAX)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "--client-seed is at most %d characters",
                             ZBC_CLIENT_SEED_MAX);
        memcpy(out, o->client_seed, n + 1);
        *len = (uint8_t)n;
        return 1;
    }
    uint8_t r[8];
    randombytes_buf(r, sizeof r);
    zbc_hex_encode(out, r, sizeof r);
    *len = 16;
    return 1;
}

int zbc_hundredths_parse(uint64_t *out, const char *text)
{
    return hundredths(out, text);
}

static int roulette_kind(const char *w)
{
    static const char *names[] = {"straight", "red", "black", "odd", "even",
                                  "low", "high", "dozen", "column"};
    for (int i = 0; i < 9; i++)
        if (strcmp(w, names[i]) == 0)
            return i;
    return -1;
}

/* The bet's fields from the words after the game name. */
static int bet_fields(struct zbc_bet *b, int argc, const char *const *argv, struct zbc_wfail *f)
{
    const char *g = argv[0];
    uint64_t v;
    memset(b, 0, sizeof *b);
    if (strcmp(g, "dice") == 0 && argc == 3) {
        b->game = ZBC_BET_DICE;
        if (strcmp(argv[1], "under") != 0 && strcmp(argv[1], "over") != 0)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "dice bets are 'under' or 'over', not '%s'", argv[1]);
        b->direction = strcmp(argv[1], "over") == 0;
        if (!hundredths(&v, argv[2]) || v < 1 || v > 9999)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "dice target must be from 0.01 to 99.99, not '%s'",
                             argv[2]);
        b->target16 = (uint16_t)v;
        return 1;
    }
    if (strcmp(g, "coin") == 0 && argc == 2) {
        b->game = ZBC_BET_COIN;
        if (strcmp(argv[1], "heads") != 0 && strcmp(argv[1], "tails") != 0)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "coin bets are 'heads' or 'tails', not '%s'", argv[1]);
        b->direction = strcmp(argv[1], "tails") == 0;
        return 1;
    }
    if (strcmp(g, "roulette") == 0 && (argc == 2 || argc == 3)) {
        b->game = ZBC_BET_ROULETTE;
        int k = roulette_kind(argv[1]);
        bool numbered = k == ZBC_ROULETTE_STRAIGHT || k == ZBC_ROULETTE_DOZEN ||
                        k == ZBC_ROULETTE_COLUMN;
        if (k < 0 || numbered != (argc == 3))
            return zbc_wfail(f, ZBC_EXIT_USAGE,
                             "roulette bets: red, black, odd, even, low, high, straight N, dozen N "
                             "or column N");
        b->kind = (uint8_t)k;
        if (numbered) {
            uint64_t n;
            struct zbc_err perr;
            if (!zbc_parse_u64(argv[2], 0, 36, &n, "roulette number", &perr))
                return zbc_wfail(f, ZBC_EXIT_USAGE, "roulette number '%s' is not 0-36", argv[2]);
            b->number = (uint8_t)n;
        }
        return 1;
    }
    if (strcmp(g, "limbo") == 0 && argc == 2) {
        b->game = ZBC_BET_LIMBO;
        if (!hundredths(&v, argv[1]) || v < 101 || v > UINT32_MAX)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "limbo target must be a multiplier of at least 1.01, "
                             "not '%s'", argv[1]);
        b->target32 = (uint32_t)v;
        return 1;
    }
    return zbc_wfail(f, ZBC_EXIT_USAGE, "%s", bet_usage);
}

/* --wait: the bet is in a block; wait for the next block's settlement and
 * say what happened ("settled_height", "win", "value", "paid",
 * "outcome_text"; docs/wallet.md "Playing"). */
static int bet_settled(json_t *result, const struct zbc_opts *o, struct zbc_wfail *f)
{
    const char *id = json_string_value(json_object_get(result, "app_id"));
    json_t *app;
    const json_t *settle;
    if (id == NULL)
        return zbc_wfail(f, ZBC_EXIT_INTERNAL, "the node gave no bet id to follow");
    static const char *const kinds[] = {"bet_settle", NULL};
    if (!zbc_app_wait_entry(&app, &settle, o, id, kinds, NULL, f))
        return 0;
    char words[256], text[1024];
    const char *placed = json_string_value(json_object_get(result, "_text"));
    if (zbc_bet_text(app, words, sizeof words) < 0)
        snprintf(words, sizeof words, "settled (the node's settlement does not read as a bet)");
    json_int_t h = json_integer_value(json_object_get(settle, "height"));
    bool win = json_is_true(json_object_get(settle, "win"));
    json_object_set_new(result, "settled_height", json_integer(h));
    json_object_set_new(result, "win", json_boolean(win));
    json_object_set(result, "value", json_object_get(settle, "value"));
    json_object_set_new(result, "paid",
                        json_integer(win ? json_integer_value(json_object_get(settle, "amount"))
                                         : 0));
    json_object_set_new(result, "outcome_text", json_string(words));
    snprintf(text, sizeof text, "%sbet %s settled in block %lld: %s\n", placed ? placed : "", id,
             (long long)h, words);
    json_object_set_new(result, "_text", json_string(text));
    json_decref(app);
    return 1;
}

int zbc_cmd_bet(const struct zbc_opts *o, int argc, const char *const *argv, json_t **result,
                struct zbc_wfail *f)
{
    struct zbc_bet b;
    if (argc < 1)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "%s", bet_usage);
    if (!bet_fields(&b, argc, argv, f))
        return 0;
    if (o->stake == NULL)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "a bet needs --stake AMOUNT");
    uint64_t stake;
    struct zbc_err err;
    if (!zbc_amount_parse(&stake, o->stake, &err))
        return zbc_wfail_err(f, ZBC_EXIT_USAGE, &err, "--stake");
    if (!zbc_client_seed_pick(b.client_seed, &b.client_seed_len, o, f))
        return 0;
    uint8_t params[128];
    size_t plen = zbc_bet_encode(&b, params, sizeof params);
    struct zbc_bet check;
    if (plen == 0 || !zbc_bet_parse(&check, (uint8_t)b.game, params, plen, &err))
        return zbc_wfail_err(f, ZBC_EXIT_USAGE, &err, "bet");
    char phex[2 * sizeof params + 1], type[8], st[24];
    zbc_hex_encode(phex, params, plen);
    snprintf(type, sizeof type, "%u", (unsigned)b.game);
    snprintf(st, sizeof st, "%" PRIu64, stake);
    const char *args[] = {type, st, "1"};
    if (!zbc_app_send(result, o, "create", 3, args, phex, f))
        return 0;
    uint64_t max_ret = 0;
    if (zbc_bet_max_return(&b, stake, &max_ret, &err))
        json_object_set_new(*result, "max_return", json_integer((json_int_t)max_ret));
    json_object_set_new(*result, "game", json_string(argv[0]));
    json_object_set_new(*result, "client_seed", json_string(b.client_seed));
    struct zbc_addr me;
    char me_text[ZBC_ADDR_TEXT_MAX];
    struct zbc_wfail quiet = {0};
    if (zbc_app_caller(&me, me_text, o, &quiet)) /* the bettor, in text form */
        json_object_set_new(*result, "from", json_string(me_text));
    zbc_wfail_clear(&quiet);
    char text[320], stake_text[32];
    zbc_amount_format(stake_text, stake);
    snprintf(text, sizeof text,
             "bet %s placed: %s, stake %s, client seed %s\n"
             "settled by the next block; then: zbc app show %s / zbc verify %s\n",
             json_string_value(json_object_get(*result, "app_id")), argv[0], stake_text,
             b.client_seed,
             json_string_value(json_object_get(*result, "app_id")),
             json_string_value(json_object_get(*result, "app_id")));
    json_object_set_new(*result, "_text", json_string(text));
    return o->wait ? bet_settled(*result, o, f) : 1;
}
