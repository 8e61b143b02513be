/* zbc-engine fair: recompute a solo bet (docs/games.md, "Solo bets") or print the whole event
 * of a catalogue game (docs/games.md, "Provably-fair catalogue") from its seeds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/fair.h"
#include "apps/fair_events.h"
#include "apps/fair_pay.h"
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

/* --client-seed into the bet (at most 64 characters). */
static int set_client_seed(const struct cli *c, struct zbc_bet *bet)
{
    size_t n = strlen(c->client_seed);
    if (n > ZBC_CLIENT_SEED_MAX) {
        cli_error(c, CLI_USAGE, "--client-seed is longer than %d characters",
                  ZBC_CLIENT_SEED_MAX);
        return 0;
    }
    bet->client_seed_len = (uint8_t)n;
    memcpy(bet->client_seed, c->client_seed, n + 1);
    return 1;
}

/* Round-trip through the CreateApp params so the chain's own checks decide
 * what is a valid bet. */
static int check_bet(const struct cli *c, uint8_t code, struct zbc_bet *bet)
{
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
    default: /* the catalogue games: catalogue_bet */
        return 0;
    }
    return set_client_seed(c, bet) && check_bet(c, code, bet);
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
    default: /* the catalogue games: cmd_catalogue */
        snprintf(out, cap, "value %u", o->value);
        break;
    }
}

static int cmd_catalogue(struct cli *c, const char *game);

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
        return cmd_catalogue(c, c->pos[0]);
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

/* ---- the catalogue games (docs/games.md, "Provably-fair catalogue") ---- */

enum cat_game {
    CAT_PLINKO, CAT_KENO, CAT_WHEEL, CAT_BACCARAT, CAT_BLITZ, CAT_MINES, CAT_TOWER,
    CAT_BLACKJACK, CAT_HILO, CAT_CRASH,
};

static const struct {
    const char *name, *code;
    enum cat_game game;
    uint8_t bet; /* solo bet type code, 0 for an event only */
} CATALOGUE[] = {
    {"plinko", "23", CAT_PLINKO, ZBC_BET_PLINKO},
    {"keno", "24", CAT_KENO, ZBC_BET_KENO},
    {"wheel", "25", CAT_WHEEL, ZBC_BET_WHEEL},
    {"baccarat", "26", CAT_BACCARAT, ZBC_BET_BACCARAT},
    {"blitz", "27", CAT_BLITZ, ZBC_BET_BLITZ},
    {"mines", NULL, CAT_MINES, 0},
    {"tower", NULL, CAT_TOWER, 0},
    {"blackjack", NULL, CAT_BLACKJACK, 0},
    {"hilo", NULL, CAT_HILO, 0},
    {"crash", NULL, CAT_CRASH, 0},
};

static const char *const RISKS[] = {"low", "medium", "high"};
static const char *const KENO_RISKS[] = {"classic", "high"};
static const char *const BAC_SIDES[] = {"player", "banker", "tie"};
static const char *const TOWER_NAMES[] = {"easy", "medium", "hard", "expert", "master"};

/* An optional word option: `def` when absent. */
static int opt_choice(const struct cli *c, const char *opt, const char *text,
                      const char *const *words, size_t n, uint8_t def, uint8_t *out)
{
    if (text == NULL) {
        *out = def;
        return 1;
    }
    return choice(c, opt, text, words, n, out);
}

/* --picks 3,9,14: 1..10 squares 1..40, sorted here (the params want them ascending). */
static int parse_picks(const struct cli *c, struct zbc_bet *bet)
{
    const char *p = c->picks;
    bet->n_picks = 0;
    while (*p != '\0') {
        char num[8];
        size_t n = strcspn(p, ",");
        if (n == 0 || n >= sizeof num || bet->n_picks == ZBC_KENO_DRAWN) {
            cli_error(c, CLI_USAGE, "--picks must be 1 to 10 squares 1-40 separated by commas");
            return 0;
        }
        memcpy(num, p, n);
        num[n] = '\0';
        uint64_t v;
        if (!cli_u64(c, "--picks", num, 1, ZBC_KENO_SQUARES, &v))
            return 0;
        uint32_t i = bet->n_picks++;
        while (i > 0 && bet->picks[i - 1] > v) {
            bet->picks[i] = bet->picks[i - 1];
            i--;
        }
        bet->picks[i] = (uint8_t)v;
        p += n;
        if (*p == ',' && *++p == '\0') {
            cli_error(c, CLI_USAGE, "--picks ends with a comma");
            return 0;
        }
    }
    if (bet->n_picks == 0) {
        cli_error(c, CLI_USAGE, "--picks must be 1 to 10 squares 1-40 separated by commas");
        return 0;
    }
    return 1;
}

static int need_small(const struct cli *c, const char *opt, const char *text, uint64_t min,
                      uint64_t max, uint32_t *out)
{
    uint64_t v;
    if (text == NULL) {
        cli_error(c, CLI_USAGE, "this game needs %s", opt);
        return 0;
    }
    if (!cli_u64(c, opt, text, min, max, &v))
        return 0;
    *out = (uint32_t)v;
    return 1;
}

/* Builds the solo bet of a catalogue game and checks it through the chain's own parser;
 * *have = false when the bet's own option (keno --picks, baccarat --side) is absent. */
static int catalogue_bet(const struct cli *c, uint8_t code, struct zbc_bet *bet, bool *have)
{
    uint32_t v;
    memset(bet, 0, sizeof *bet);
    bet->game = (enum zbc_bet_game)code;
    *have = true;
    switch ((enum zbc_bet_game)code) {
    case ZBC_BET_PLINKO:
        if (!need_small(c, "--rows", c->rows, ZBC_PLINKO_ROWS_MIN, ZBC_PLINKO_ROWS_MAX, &v) ||
            !opt_choice(c, "--risk", c->risk, RISKS, 3, 0, &bet->risk))
            return 0;
        bet->rows = (uint8_t)v;
        break;
    case ZBC_BET_KENO:
        if (!opt_choice(c, "--risk", c->risk, KENO_RISKS, 2, 0, &bet->risk))
            return 0;
        if (c->picks == NULL)
            *have = false;
        else if (!parse_picks(c, bet))
            return 0;
        break;
    case ZBC_BET_WHEEL:
        if (!need_small(c, "--segments", c->segments, 1, 255, &v) ||
            !opt_choice(c, "--risk", c->risk, RISKS, 3, 0, &bet->risk))
            return 0;
        bet->segments = (uint8_t)v;
        break;
    case ZBC_BET_BACCARAT:
        if (c->side == NULL)
            *have = false;
        else if (!choice(c, "--side", c->side, BAC_SIDES, 3, &bet->side))
            return 0;
        break;
    case ZBC_BET_BLITZ:
        if (!need_small(c, "--cards", c->cards, 0, 255, &v))
            return 0;
        bet->cards = (uint8_t)v;
        break;
    default:
        return 0;
    }
    return set_client_seed(c, bet) && (!*have || check_bet(c, code, bet));
}

static json_t *u8_array(const uint8_t *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, json_integer(v[i]));
    return a;
}

static json_t *card_names(const uint8_t *v, size_t n, enum zbc_card_suits suits)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++) {
        char name[16];
        zbc_fair_card_name(name, sizeof name, v[i], suits);
        json_array_append_new(a, json_string(name));
    }
    return a;
}

static void print_cards(const char *what, const uint8_t *v, size_t n, enum zbc_card_suits suits)
{
    printf("%s:", what);
    for (size_t i = 0; i < n; i++) {
        char name[16];
        zbc_fair_card_name(name, sizeof name, v[i], suits);
        printf(" %s", name);
    }
    printf("\n");
}

static void print_list(const char *what, const uint8_t *v, size_t n)
{
    printf("%s:", what);
    for (size_t i = 0; i < n; i++)
        printf(" %u", v[i]);
    printf("\n");
}

/* The event of one game: JSON (the shape of tests/vectors/fair_catalogue.json) and text;
 * *floats = how many floats it used. */
struct cat_args {
    enum cat_game game;
    uint32_t rows, segments, cards, mines, tiles, difficulty;
    const struct zbc_bet *bet; /* keno picks, when given */
};

static int catalogue_event(const struct cli *c, struct zbc_fair_stream *s,
                           const struct cat_args *a, json_t *ev, uint32_t *floats)
{
    struct zbc_err err;
    uint8_t buf[ZBC_FAIR_CARDS_MAX];
    switch (a->game) {
    case CAT_PLINKO: {
        uint32_t slot;
        if (!zbc_fair_plinko(s, a->rows, buf, &slot, &err))
            return cli_error(c, CLI_REFUSED, "%s", err.msg), 0;
        *floats = a->rows;
        json_object_set_new(ev, "path", u8_array(buf, a->rows));
        json_object_set_new(ev, "slot", json_integer(slot));
        if (!c->json) {
            printf("path:");
            for (uint32_t i = 0; i < a->rows; i++)
                printf(" %s", buf[i] ? "R" : "L");
            printf("  (R = right)\nslot: %u of 0-%u\n", slot, a->rows);
        }
        return 1;
    }
    case CAT_KENO: {
        zbc_fair_keno(s, buf);
        *floats = ZBC_KENO_DRAWN;
        json_object_set_new(ev, "squares", u8_array(buf, ZBC_KENO_DRAWN));
        if (!c->json)
            print_list("drawn squares", buf, ZBC_KENO_DRAWN);
        if (a->bet != NULL) {
            uint32_t hits = 0;
            for (uint32_t i = 0; i < ZBC_KENO_DRAWN; i++)
                for (uint32_t j = 0; j < a->bet->n_picks; j++)
                    hits += buf[i] == a->bet->picks[j];
            json_object_set_new(ev, "hits", json_integer(hits));
            if (!c->json) {
                print_list("picks", a->bet->picks, a->bet->n_picks);
                printf("hits: %u\n", hits);
            }
        }
        return 1;
    }
    case CAT_WHEEL: {
        uint32_t seg = zbc_fair_wheel(s, a->segments);
        *floats = 1;
        json_object_set_new(ev, "segment", json_integer(seg));
        if (!c->json)
            printf("segment: %u of 0-%u\n", seg, a->segments - 1);
        return 1;
    }
    case CAT_MINES: {
        if (!zbc_fair_mines(s, a->tiles, a->mines, buf, &err))
            return cli_error(c, CLI_USAGE, "%s", err.msg), 0;
        *floats = a->mines;
        json_object_set_new(ev, "mines", u8_array(buf, a->mines));
        if (!c->json) {
            print_list("mine positions", buf, a->mines);
            if (a->tiles == ZBC_MINES_TILES) {
                for (uint32_t r = 0; r < 5; r++) {
                    for (uint32_t col = 0; col < 5; col++) {
                        bool mine = memchr(buf, (int)(r * 5 + col), a->mines) != NULL;
                        printf("%s", mine ? " *" : " .");
                    }
                    printf("\n");
                }
            }
        }
        return 1;
    }
    case CAT_TOWER: {
        uint8_t safe[ZBC_TOWER_ROWS][ZBC_TOWER_COLUMNS_MAX];
        uint32_t cols, n;
        const char *name;
        if (!zbc_fair_tower(s, a->difficulty, safe, &err) ||
            !zbc_tower_shape(a->difficulty, &cols, &n, &name))
            return cli_error(c, CLI_USAGE, "%s", err.msg), 0;
        *floats = ZBC_TOWER_ROWS * n;
        json_t *rows = json_array();
        for (uint32_t r = 0; r < ZBC_TOWER_ROWS; r++)
            json_array_append_new(rows, u8_array(safe[r], n));
        json_object_set_new(ev, "rows", rows);
        if (!c->json) {
            printf("tower %s: %u columns, %u safe per row (safe columns in take-out order)\n",
                   name, cols, n);
            for (uint32_t r = ZBC_TOWER_ROWS; r-- > 0;) {
                char line[16];
                for (uint32_t col = 0; col < cols; col++)
                    line[col] = memchr(safe[r], (int)col, n) != NULL ? 'o' : 'x';
                line[cols] = '\0';
                printf("row %u: %s ", r + 1, line);
                print_list(" safe", safe[r], n);
            }
        }
        return 1;
    }
    case CAT_BLACKJACK:
    case CAT_HILO:
        zbc_fair_cards(s, 0, a->cards, buf);
        *floats = a->cards;
        json_object_set_new(ev, "cards", u8_array(buf, a->cards));
        json_object_set_new(ev, "names", card_names(buf, a->cards, ZBC_SUITS_BLACKJACK));
        if (!c->json)
            print_cards("cards", buf, a->cards, ZBC_SUITS_BLACKJACK);
        return 1;
    case CAT_BACCARAT: {
        struct zbc_baccarat_hand h;
        zbc_fair_baccarat(s, &h);
        *floats = (uint32_t)h.n_player + h.n_banker;
        static const char *const WIN[] = {"player", "banker", "tie"};
        const char *win = WIN[zbc_baccarat_winner(&h)];
        json_object_set_new(ev, "player", u8_array(h.player, h.n_player));
        json_object_set_new(ev, "banker", u8_array(h.banker, h.n_banker));
        json_object_set_new(ev, "player_names",
                            card_names(h.player, h.n_player, ZBC_SUITS_BACCARAT));
        json_object_set_new(ev, "banker_names",
                            card_names(h.banker, h.n_banker, ZBC_SUITS_BACCARAT));
        json_object_set_new(ev, "player_total", json_integer(h.player_total));
        json_object_set_new(ev, "banker_total", json_integer(h.banker_total));
        json_object_set_new(ev, "player_drew", json_boolean(h.n_player == 3));
        json_object_set_new(ev, "banker_drew", json_boolean(h.n_banker == 3));
        json_object_set_new(ev, "winner", json_string(win));
        if (!c->json) {
            print_cards("player", h.player, h.n_player, ZBC_SUITS_BACCARAT);
            print_cards("banker", h.banker, h.n_banker, ZBC_SUITS_BACCARAT);
            printf("totals: player %u, banker %u: %s%s\n", h.player_total, h.banker_total,
                   win, strcmp(win, "tie") == 0 ? "" : " wins");
        }
        return 1;
    }
    case CAT_BLITZ: {
        bool differ;
        if (!zbc_fair_blitz(s, a->cards, buf, &differ, &err))
            return cli_error(c, CLI_USAGE, "%s", err.msg), 0;
        *floats = a->cards;
        json_object_set_new(ev, "cards", u8_array(buf, a->cards));
        json_object_set_new(ev, "names", card_names(buf, a->cards, ZBC_SUITS_BLITZ));
        json_object_set_new(ev, "all_differ", json_boolean(differ));
        if (!c->json) {
            print_cards("cards", buf, a->cards, ZBC_SUITS_BLITZ);
            printf("%s\n", differ ? "all cards differ" : "a card repeats");
        }
        return 1;
    }
    case CAT_CRASH: {
        uint32_t x = zbc_fair_crash(s);
        *floats = 1;
        json_object_set_new(ev, "crash", json_integer(x));
        if (!c->json)
            printf("crash point: %u.%02ux\n", x / 100, x % 100);
        return 1;
    }
    }
    return 0;
}

static int catalogue_args(struct cli *c, enum cat_game g, struct cat_args *a)
{
    uint8_t d;
    memset(a, 0, sizeof *a);
    a->game = g;
    a->tiles = ZBC_MINES_TILES;
    a->cards = 12;
    switch (g) {
    case CAT_MINES:
        if ((c->tiles != NULL &&
             !need_small(c, "--tiles", c->tiles, 1, ZBC_MINES_TILES, &a->tiles)) ||
            !need_small(c, "--mines", c->mines, 1, a->tiles, &a->mines))
            return 0;
        return 1;
    case CAT_TOWER:
        if (c->difficulty == NULL) {
            cli_error(c, CLI_USAGE, "this game needs --difficulty");
            return 0;
        }
        if (!choice(c, "--difficulty", c->difficulty, TOWER_NAMES, 5, &d))
            return 0;
        a->difficulty = d;
        return 1;
    case CAT_BLACKJACK:
    case CAT_HILO:
        return c->cards == NULL ||
               need_small(c, "--cards", c->cards, 1, ZBC_FAIR_CARDS_MAX, &a->cards);
    default:
        return 1;
    }
}

static int cmd_catalogue(struct cli *c, const char *game)
{
    size_t i = 0;
    while (i < sizeof CATALOGUE / sizeof CATALOGUE[0] &&
           strcmp(CATALOGUE[i].name, game) != 0 &&
           (CATALOGUE[i].code == NULL || strcmp(CATALOGUE[i].code, game) != 0))
        i++;
    if (i == sizeof CATALOGUE / sizeof CATALOGUE[0])
        return cli_error(c, CLI_USAGE, "'%s' is not a provably-fair game (dice, coin, roulette, "
                         "limbo, plinko, keno, wheel, baccarat, blitz, mines, tower, blackjack, "
                         "hilo, crash)", game);
    uint64_t nonce, stake = DEFAULT_STAKE;
    if (!cli_u64(c, "--nonce", c->nonce, 0, UINT64_MAX, &nonce) ||
        (c->stake != NULL && !cli_u64(c, "--stake", c->stake, 0, UINT64_MAX, &stake)))
        return CLI_USAGE;
    struct cat_args a;
    struct zbc_bet bet;
    bool have_bet = false;
    if (!catalogue_args(c, CATALOGUE[i].game, &a))
        return CLI_USAGE;
    if (CATALOGUE[i].bet != 0) {
        if (!catalogue_bet(c, CATALOGUE[i].bet, &bet, &have_bet))
            return CLI_USAGE;
        a.rows = bet.rows;
        a.segments = bet.segments;
        a.cards = bet.cards;
        a.bet = have_bet ? &bet : NULL;
    } else if (!set_client_seed(c, &bet)) {
        return CLI_USAGE;
    }
    struct zbc_fair_stream s;
    zbc_fair_stream_init(&s, c->server_seed, c->client_seed, nonce);
    json_t *ev = json_object();
    uint32_t nf = 0;
    if (!c->json)
        printf("%s: server seed %s, client seed \"%s\", nonce %llu\n", CATALOGUE[i].name,
               c->server_seed, c->client_seed, (unsigned long long)nonce);
    if (!catalogue_event(c, &s, &a, ev, &nf)) {
        json_decref(ev);
        return CLI_USAGE;
    }
    json_t *floats = json_array();
    for (uint32_t k = 0; k < nf; k++) {
        uint32_t u = zbc_fair_u32(c->server_seed, c->client_seed, nonce, k);
        json_array_append_new(floats, json_integer(u));
        if (!c->json)
            printf("float %u: 0.%09llu (u = %u)\n", k,
                   (unsigned long long)(((uint64_t)u * 1000000000u) >> 32), u);
    }
    json_t *o = json_pack("{s:s, s:s, s:s, s:I, s:o, s:o}", "game", CATALOGUE[i].name,
                          "server_seed", c->server_seed, "client_seed", c->client_seed,
                          "nonce", (json_int_t)nonce, "floats_u32", floats, "event", ev);
    if (have_bet) {
        struct zbc_bet_outcome out;
        struct zbc_err err;
        if (!zbc_bet_resolve(&bet, stake, c->server_seed, nonce, &out, &err)) {
            json_decref(o);
            return cli_error(c, CLI_REFUSED, "%s", err.msg);
        }
        json_object_set_new(o, "type", json_integer(CATALOGUE[i].bet));
        json_object_set_new(o, "stake", json_integer((json_int_t)stake));
        json_object_set_new(o, "value", json_integer(out.value));
        json_object_set_new(o, "multiplier", json_integer(out.multiplier));
        json_object_set_new(o, "win", json_boolean(out.win));
        json_object_set_new(o, "returns", json_integer((json_int_t)out.returns));
        if (!c->json)
            printf("%s: multiplier %u.%04ux, returns %llu of stake %llu\n",
                   out.win ? "win" : "loss", out.multiplier / ZBC_FAIR_ONE,
                   out.multiplier % ZBC_FAIR_ONE, (unsigned long long)out.returns,
                   (unsigned long long)stake);
    }
    if (c->json)
        cli_print_json(o);
    else
        json_decref(o);
    return CLI_OK;
}
