/* zbc bet dice|coin|roulette|limbo|plinko|keno|wheel|baccarat|blitz ... --stake A
 * [--client-seed S] [--wait]: a solo
 * bet (CreateApp with seats = 1, docs/protocol-apps.md §4) settled by the next block. */
#include <ctype.h>
#include <inttypes.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/fair.h"
#include "apps/fair_pay.h"
#include "crypto/bytes.h"
#include "crypto/hex.h"
#include "node/wallet/amount.h"
#include "node/wallet/app_client.h"
#include "node/wallet/bet.h"
#include "node/wallet/cmds.h"
#include "node/wallet/help.h"
#include "node/wallet/result_text.h"

static const char bet_usage[] =
    "usage: zbc bet GAME ... --stake AMOUNT [--client-seed S] [--wait]; games: dice, coin, "
    "roulette, limbo, plinko, keno, wheel, baccarat, blitz (zbc bet --help)";

static const char *const BET_GAMES[] = {"dice",  "coin", "roulette", "limbo", "plinko",
                                        "keno",  "wheel", "baccarat", "blitz"};
#define N_BET_GAMES (sizeof BET_GAMES / sizeof BET_GAMES[0])

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

/* One word among words[0..n): its index, or a usage error "unknown WHAT 'w' (did you mean
 * x?); WHATs: ..." (-1). */
static int word_of(const char *w, const char *what, const char *const *words, size_t n,
                   struct zbc_wfail *f)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(w, words[i]) == 0)
            return (int)i;
    zbc_fail_unknown(f, what, w, words, n);
    return -1;
}

static const char *const RISKS[] = {"low", "medium", "high"};
static const char *const KENO_RISKS[] = {"classic", "high"};
static const char *const SIDES[] = {"player", "banker", "tie"};

/* "3,17,40" -> ascending squares; each 1-40, at most 10, none twice. */
static int keno_picks(struct zbc_bet *b, const char *list, struct zbc_wfail *f)
{
    const char *p = list;
    unsigned n = 0;
    bool seen[ZBC_KENO_SQUARES + 1] = {false};
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p);
        uint64_t v;
        struct zbc_err err;
        if (len == 0)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "keno picks '%s': an empty square between commas "
                             "(write them like 3,17,40)", list);
        if (!zbc_parse_u64n(p, len, 1, ZBC_KENO_SQUARES, &v, "keno square", &err))
            return zbc_wfail(f, ZBC_EXIT_USAGE, "keno square '%.*s' is not a square 1-%d",
                             (int)(len > 20 ? 20 : len), p, ZBC_KENO_SQUARES);
        if (seen[v])
            return zbc_wfail(f, ZBC_EXIT_USAGE, "keno square %" PRIu64 " is picked twice", v);
        seen[v] = true;
        if (++n > ZBC_KENO_PICKS_MAX) {
            unsigned total = 1;
            for (const char *q = strchr(list, ','); q != NULL; q = strchr(q + 1, ','))
                total++;
            return zbc_wfail(f, ZBC_EXIT_USAGE, "keno takes 1-%d picks, not %u",
                             ZBC_KENO_PICKS_MAX, total);
        }
        if (comma == NULL)
            break;
        p = comma + 1;
    }
    b->n_picks = 0;
    for (unsigned q = 1; q <= ZBC_KENO_SQUARES; q++)
        if (seen[q])
            b->picks[b->n_picks++] = (uint8_t)q;
    return 1;
}

/* The catalogue games' words (argv[0] the game). */
static int catalogue_fields(struct zbc_bet *b, int argc, const char *const *argv, const char *risk,
                            struct zbc_wfail *f)
{
    const char *g = argv[0];
    uint64_t v;
    struct zbc_err err;
    int k;
    if (risk != NULL && strcmp(g, "keno") != 0)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "--risk is keno's; %s takes its risk as a word "
                         "(zbc bet %s --help)", g, g);
    if (strcmp(g, "plinko") == 0) {
        if (argc != 3)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "usage: zbc bet plinko ROWS low|medium|high "
                             "(rows 8-16), e.g. zbc bet plinko 12 medium --stake 1ZBC");
        b->game = ZBC_BET_PLINKO;
        if (!zbc_parse_u64(argv[1], ZBC_PLINKO_ROWS_MIN, ZBC_PLINKO_ROWS_MAX, &v, "rows", &err))
            return zbc_wfail(f, ZBC_EXIT_USAGE, "plinko rows must be %d-%d, not '%s'",
                             ZBC_PLINKO_ROWS_MIN, ZBC_PLINKO_ROWS_MAX, argv[1]);
        b->rows = (uint8_t)v;
        if ((k = word_of(argv[2], "plinko risk", RISKS, 3, f)) < 0)
            return 0;
        b->risk = (uint8_t)k;
        return 1;
    }
    if (strcmp(g, "keno") == 0) {
        if (argc != 2)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "usage: zbc bet keno N1,N2,... [--risk "
                             "classic|high] (1-10 squares of 1-40, commas, no spaces), e.g. zbc "
                             "bet keno 3,17,40 --stake 1ZBC");
        b->game = ZBC_BET_KENO;
        if (risk != NULL && (k = word_of(risk, "keno risk", KENO_RISKS, 2, f)) < 0)
            return 0;
        b->risk = risk != NULL ? (uint8_t)k : 0;
        return keno_picks(b, argv[1], f);
    }
    if (strcmp(g, "wheel") == 0) {
        if (argc != 3)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "usage: zbc bet wheel SEGMENTS low|medium|high "
                             "(segments 10, 20, 30, 40 or 50), e.g. zbc bet wheel 20 high "
                             "--stake 1ZBC");
        b->game = ZBC_BET_WHEEL;
        if (!zbc_parse_u64(argv[1], 1, 255, &v, "segments", &err) ||
            !zbc_wheel_segments_ok((uint32_t)v))
            return zbc_wfail(f, ZBC_EXIT_USAGE, "wheel segments must be 10, 20, 30, 40 or 50, "
                             "not '%s'", argv[1]);
        b->segments = (uint8_t)v;
        if ((k = word_of(argv[2], "wheel risk", RISKS, 3, f)) < 0)
            return 0;
        b->risk = (uint8_t)k;
        return 1;
    }
    if (strcmp(g, "baccarat") == 0) {
        if (argc != 2)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "usage: zbc bet baccarat player|banker|tie, e.g. "
                             "zbc bet baccarat banker --stake 1ZBC");
        b->game = ZBC_BET_BACCARAT;
        if ((k = word_of(argv[1], "baccarat side", SIDES, 3, f)) < 0)
            return 0;
        b->side = (uint8_t)k;
        return 1;
    }
    if (strcmp(g, "blitz") == 0) {
        if (argc != 2)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "usage: zbc bet blitz K (cards 2-16), e.g. zbc "
                             "bet blitz 5 --stake 1ZBC");
        b->game = ZBC_BET_BLITZ;
        if (!zbc_parse_u64(argv[1], ZBC_BLITZ_CARDS_MIN, ZBC_BLITZ_CARDS_MAX, &v, "cards", &err))
            return zbc_wfail(f, ZBC_EXIT_USAGE, "blitz cards must be %d-%d, not '%s'",
                             ZBC_BLITZ_CARDS_MIN, ZBC_BLITZ_CARDS_MAX, argv[1]);
        b->cards = (uint8_t)v;
        return 1;
    }
    return zbc_fail_unknown(f, "bet", g, BET_GAMES, N_BET_GAMES);
}

int zbc_bet_args(struct zbc_bet *b, int argc, const char *const *argv, const char *risk,
                 struct zbc_wfail *f)
{
    uint64_t v;
    memset(b, 0, sizeof *b);
    if (argc < 1)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "%s", bet_usage);
    const char *g = argv[0];
    bool old = strcmp(g, "dice") == 0 || strcmp(g, "coin") == 0 || strcmp(g, "roulette") == 0 ||
               strcmp(g, "limbo") == 0;
    if (!old)
        return catalogue_fields(b, argc, argv, risk, f);
    if (risk != NULL)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "--risk is keno's; %s has no risk", g);
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
    return zbc_wfail(f, ZBC_EXIT_USAGE, "usage: zbc bet %s %s --stake AMOUNT (zbc bet %s --help)",
                     g, strcmp(g, "dice") == 0 ? "under|over PERCENT" : strcmp(g, "coin") == 0 ?
                     "heads|tails" : strcmp(g, "roulette") == 0 ? "KIND [N]" : "MULTIPLIER", g);
}

/* An amount as "name" (integer) and "name_zbc" (text). */
static void set_amount(json_t *r, const char *name, uint64_t v)
{
    char k[48], zs[32];
    zbc_amount_format(zs, v);
    snprintf(k, sizeof k, "%s_zbc", name);
    json_object_set_new(r, name, json_integer((json_int_t)v));
    json_object_set_new(r, k, json_string(zs));
}

/* Whether the node's bet_settle entry (u, value, win, amount) is the recomputed outcome. */
static bool settle_agrees(const json_t *settle, const struct zbc_bet_outcome *out)
{
    const json_t *u = json_object_get(settle, "u"), *v = json_object_get(settle, "value");
    const json_t *a = json_object_get(settle, "amount");
    return json_is_integer(u) && json_integer_value(u) == (json_int_t)out->u &&
           json_is_integer(v) && json_integer_value(v) == (json_int_t)out->value &&
           json_is_boolean(json_object_get(settle, "win")) &&
           json_is_true(json_object_get(settle, "win")) == out->win && json_is_integer(a) &&
           json_integer_value(a) >= 0 && (uint64_t)json_integer_value(a) == out->returns;
}

/* --wait: the bet is in a block; wait for the next block's settlement, recompute the
 * outcome from that block's seed (never the node's summary alone) and say what happened
 * ("settled_height", "win", "value", "paid", "returns", "event", "outcome_text";
 * docs/wallet.md "Bets").  A recomputation that differs from the node's settlement is
 * exit 10 (verify_failed). */
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
    char words[512], picture[2048] = "", text[3072];
    const char *placed = json_string_value(json_object_get(result, "_text"));
    json_int_t h = json_integer_value(json_object_get(settle, "height"));
    bool win = json_is_true(json_object_get(settle, "win"));
    uint64_t back = (uint64_t)json_integer_value(json_object_get(settle, "amount"));
    uint8_t seed[32];
    struct zbc_bet bet;
    struct zbc_bet_outcome out;
    struct zbc_err err;
    uint32_t sh = (uint32_t)json_integer_value(json_object_get(app, "created")) + 1;
    if (!zbc_app_block_seed(seed, o, sh, f)) {
        json_decref(app);
        return 0;
    }
    if (!zbc_bet_recompute(app, seed, &bet, &out, &err)) {
        json_decref(app);
        return zbc_wfail_err(f, ZBC_EXIT_VERIFY_FAILED, &err, "recomputing the bet");
    }
    if (!settle_agrees(settle, &out)) {
        json_decref(app);
        return zbc_wfail(f, ZBC_EXIT_VERIFY_FAILED,
                         "bet %s: the node settled u %lld, value %lld, %s, returned %" PRIu64
                         "; the seed of block %u gives u %u, value %u, %s, returns %" PRIu64
                         " (zbc verify %s)", id,
                         (long long)json_integer_value(json_object_get(settle, "u")),
                         (long long)json_integer_value(json_object_get(settle, "value")),
                         win ? "win" : "loss", back, sh, out.u, out.value,
                         out.win ? "win" : "loss", out.returns, id);
    }
    bool utf8 = zbc_term_utf8();
    if (zbc_bet_is_catalogue(bet.game)) {
        if (zbc_bet_event_words(&bet, &out, utf8, words, sizeof words) < 0)
            words[0] = '\0';
        size_t wl = strlen(words);
        char amt[32];
        zbc_amount_format(amt, out.returns);
        snprintf(words + wl, sizeof words - wl, "%s", out.win ? ": win, paid " : out.returns > 0 ?
                 ": no profit, returned " : ": loss");
        wl = strlen(words);
        if (out.returns > 0)
            snprintf(words + wl, sizeof words - wl, "%s", amt);
        if (zbc_bet_picture(&bet, &out, utf8, picture, sizeof picture) < 0)
            picture[0] = '\0';
        json_object_set_new(result, "event", zbc_bet_event_json(&bet, &out));
    } else if (zbc_bet_text(app, words, sizeof words) < 0) {
        snprintf(words, sizeof words, "settled (the node's settlement does not read as a bet)");
    }
    json_object_set_new(result, "settled_height", json_integer(h));
    json_object_set_new(result, "win", json_boolean(out.win));
    json_object_set_new(result, "value", json_integer(out.value));
    set_amount(result, "returns", out.returns);
    set_amount(result, "paid", out.win ? out.returns : 0);
    json_object_set_new(result, "outcome_text", json_string(words));
    snprintf(text, sizeof text, "%sbet %s settled in block %lld: %s\n%s", placed ? placed : "",
             id, (long long)h, words, picture);
    json_object_set_new(result, "_text", json_string(text));
    json_decref(app);
    return 1;
}

int zbc_cmd_bet(const struct zbc_opts *o, int argc, const char *const *argv, json_t **result,
                struct zbc_wfail *f)
{
    struct zbc_bet b;
    if (!zbc_bet_args(&b, argc, argv, o->risk, f))
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
        set_amount(*result, "max_return", max_ret);
    set_amount(*result, "stake", stake);
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

char *zbc_bet_show(const struct zbc_opts *o, json_t *app)
{
    struct zbc_bet bet;
    struct zbc_bet_outcome out;
    struct zbc_err err;
    struct zbc_wfail quiet = {0};
    uint8_t seed[32];
    const json_t *e, *settle = NULL;
    size_t i;
    json_array_foreach(json_object_get(app, "history"), i, e) {
        const char *k = json_string_value(json_object_get(e, "kind"));
        if (k != NULL && strcmp(k, "bet_settle") == 0)
            settle = e;
    }
    const json_t *type = json_object_get(app, "type");
    if (settle == NULL || !json_is_integer(type) || json_integer_value(type) < 0 ||
        json_integer_value(type) > 255 || !zbc_bet_is_solo((uint8_t)json_integer_value(type)) ||
        !zbc_bet_of_app(app, &bet, &err) || !zbc_bet_is_catalogue(bet.game))
        return NULL;
    uint32_t sh = (uint32_t)json_integer_value(json_object_get(app, "created")) + 1;
    char *text = malloc(2560);
    if (text == NULL)
        return NULL;
    if (!zbc_app_block_seed(seed, o, sh, &quiet)) {
        snprintf(text, 2560, "(the picture needs the seed of block %u: %s)\n", sh,
                 quiet.err.msg);
        zbc_wfail_clear(&quiet);
        return text;
    }
    if (!zbc_bet_recompute(app, seed, &bet, &out, &err)) {
        snprintf(text, 2560, "(the bet does not recompute: %s)\n", err.msg);
        return text;
    }
    int n = snprintf(text, 2560, "recomputed from the seed of block %u:\n", sh);
    if (zbc_bet_picture(&bet, &out, zbc_term_utf8(), text + n, 2560 - (size_t)n) < 0)
        text[n] = '\0';
    if (!settle_agrees(settle, &out)) {
        size_t l = strlen(text);
        snprintf(text + l, 2560 - l, "THE NODE'S SETTLEMENT DIFFERS (u %lld, value %lld, returned "
                 "%lld): zbc verify %s\n",
                 (long long)json_integer_value(json_object_get(settle, "u")),
                 (long long)json_integer_value(json_object_get(settle, "value")),
                 (long long)json_integer_value(json_object_get(settle, "amount")),
                 json_string_value(json_object_get(app, "id")) ? json_string_value(
                     json_object_get(app, "id")) : "ID");
    }
    json_object_set_new(app, "event", zbc_bet_event_json(&bet, &out));
    return text;
}
