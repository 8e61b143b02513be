/* The catalogue bets in words and pictures (docs/wallet.md "Bets"). */
#include "node/client/bet_pictures.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/fair_pay.h"
#include "apps/notation.h"
#include "crypto/bytes.h"
#include "crypto/hex.h"

static const char *const RISK3[] = {"low", "medium", "high"};
static const char *const KENO_RISK[] = {"classic", "high"};
static const char *const SIDES[] = {"player", "banker", "tie"};

bool zbc_term_utf8(void)
{
    const char *names[] = {"LC_ALL", "LC_CTYPE", "LANG"};
    for (size_t i = 0; i < 3; i++) {
        const char *v = getenv(names[i]);
        if (v == NULL || v[0] == '\0')
            continue;
        /* the codeset after the '.', up to an '@' modifier: "UTF-8", "utf8" */
        const char *dot = strchr(v, '.');
        if (dot == NULL)
            return false;
        char cs[16] = "";
        size_t n = 0;
        for (const char *c = dot + 1; *c != '\0' && *c != '@' && n + 1 < sizeof cs; c++)
            if (*c != '-')
                cs[n++] = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
        cs[n] = '\0';
        return strcmp(cs, "utf8") == 0;
    }
    return false;
}

bool zbc_bet_is_catalogue(enum zbc_bet_game game)
{
    return game == ZBC_BET_PLINKO || game == ZBC_BET_KENO || game == ZBC_BET_WHEEL ||
           game == ZBC_BET_BACCARAT || game == ZBC_BET_BLITZ;
}

void zbc_multiplier_text(char out[24], uint32_t m)
{
    char frac[8];
    snprintf(frac, sizeof frac, "%04u", m % ZBC_FAIR_ONE);
    size_t n = 4;
    while (n > 2 && frac[n - 1] == '0')
        n--;
    frac[n] = '\0';
    snprintf(out, 24, "%u.%sx", m / ZBC_FAIR_ONE, frac);
}

void zbc_card_text(char out[12], uint8_t card, enum zbc_card_suits suits, bool utf8)
{
    if (utf8 || card >= 52) {
        zbc_fair_card_name(out, 12, card, suits);
        return;
    }
    static const char *const RANKS[13] = {"2", "3", "4", "5", "6", "7", "8",
                                          "9", "10", "J", "Q", "K", "A"};
    /* the letters of each game's suit order (apps/fair_events.h) */
    static const char BJ[] = "DHSC", BAC[] = "SHDC", BLZ[] = "SHCD";
    const char *s = suits == ZBC_SUITS_BACCARAT ? BAC : suits == ZBC_SUITS_BLITZ ? BLZ : BJ;
    snprintf(out, 12, "%s%c", RANKS[card / 4], s[card % 4]);
}

int zbc_bet_of_app(const json_t *app, struct zbc_bet *bet, struct zbc_err *err)
{
    const json_t *type = json_object_get(app, "type");
    const char *phex = json_string_value(json_object_get(app, "params_hex"));
    uint8_t params[128];
    size_t plen = 0;
    if (!json_is_integer(type) || json_integer_value(type) < 0 ||
        json_integer_value(type) > 255)
        return zbc_fail(err, "the app has no game type");
    if (phex == NULL || strlen(phex) / 2 > sizeof params ||
        !zbc_hex_decode(params, sizeof params, &plen, phex, strlen(phex)))
        return zbc_fail(err, "the app's params_hex is not the hex of a bet's params");
    return zbc_bet_parse(bet, (uint8_t)json_integer_value(type), params, plen, err);
}

int zbc_bet_recompute(const json_t *app, const uint8_t seed[32], struct zbc_bet *bet,
                      struct zbc_bet_outcome *out, struct zbc_err *err)
{
    uint64_t id, stake;
    const char *ids = json_string_value(json_object_get(app, "id"));
    const json_t *st = json_object_get(app, "stake");
    if (ids == NULL || !zbc_parse_u64(ids, 0, UINT64_MAX, &id, "app id", err))
        return ids == NULL ? zbc_fail(err, "the app has no id") : 0;
    if (!json_is_integer(st) || json_integer_value(st) < 0)
        return zbc_fail(err, "the app has no stake");
    stake = (uint64_t)json_integer_value(st);
    if (!zbc_bet_of_app(app, bet, err))
        return 0;
    char server[65];
    zbc_fair_server_seed(server, seed);
    return zbc_bet_resolve(bet, stake, server, id, out, err);
}

/* ---- words ---- */

/* The bet's counts, bounded by the arrays they index (a bet from zbc_bet_parse is within
 * them already; nothing here trusts that). */
static unsigned lim(unsigned n, unsigned max)
{
    return n < max ? n : max;
}


static int finish(struct zbc_text *t, char *out, size_t cap)
{
    int n = zbc_text_result(t);
    if (n < 0 && cap > 0)
        out[0] = '\0';
    return n;
}

static void cards_words(struct zbc_text *t, const uint8_t *c, unsigned n,
                        enum zbc_card_suits suits, bool utf8)
{
    char name[12];
    for (unsigned i = 0; i < n && i < ZBC_BLITZ_CARDS_MAX; i++) {
        zbc_card_text(name, c[i], suits, utf8);
        zbc_text_printf(t, "%s%s", i ? " " : "", name);
    }
}

static bool keno_picked(const struct zbc_bet *b, unsigned sq)
{
    for (unsigned i = 0; i < b->n_picks && i < ZBC_KENO_DRAWN; i++)
        if (b->picks[i] == sq)
            return true;
    return false;
}

static bool keno_drawn(const struct zbc_bet_outcome *o, unsigned sq)
{
    for (unsigned i = 0; i < ZBC_KENO_DRAWN; i++)
        if (o->squares[i] == sq)
            return true;
    return false;
}

/* Cards of a blitz hand that equal an earlier one. */
static unsigned blitz_different(const struct zbc_bet *b, const struct zbc_bet_outcome *o)
{
    unsigned n = 0;
    for (unsigned i = 0; i < b->cards && i < ZBC_BLITZ_CARDS_MAX; i++) {
        bool seen = false;
        for (unsigned j = 0; j < i; j++)
            seen = seen || o->cards[j] == o->cards[i];
        n += !seen;
    }
    return n;
}

static const char *bac_winner(const struct zbc_bet_outcome *o)
{
    enum zbc_baccarat_side w = zbc_baccarat_winner(&o->hand);
    return w == ZBC_BACCARAT_PLAYER ? "player wins" : w == ZBC_BACCARAT_BANKER ? "banker wins"
                                                                             : "tie";
}

int zbc_bet_event_words(const struct zbc_bet *b, const struct zbc_bet_outcome *o, bool utf8,
                        char *out, size_t cap)
{
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    char m[24];
    zbc_multiplier_text(m, o->multiplier);
    switch (b->game) {
    case ZBC_BET_PLINKO:
        zbc_text_printf(&t, "path");
        for (unsigned i = 0; i < b->rows && i < ZBC_PLINKO_ROWS_MAX; i++)
            zbc_text_printf(&t, " %c", o->path[i] ? 'R' : 'L');
        zbc_text_printf(&t, ", slot %u (0-%u): %s", o->value & 0xffu, b->rows, m);
        break;
    case ZBC_BET_KENO: {
        zbc_text_printf(&t, "hits");
        unsigned hits = 0;
        for (unsigned i = 0; i < b->n_picks && i < ZBC_KENO_DRAWN; i++)
            if (keno_drawn(o, b->picks[i])) {
                zbc_text_printf(&t, " %u", b->picks[i]);
                hits++;
            }
        if (hits == 0)
            zbc_text_printf(&t, " none");
        zbc_text_printf(&t, " (%u of %u picks): %s", hits, b->n_picks, m);
        break;
    }
    case ZBC_BET_WHEEL:
        zbc_text_printf(&t, "segment %u of %u: %s", o->value, b->segments, m);
        break;
    case ZBC_BET_BACCARAT:
        zbc_text_printf(&t, "player ");
        cards_words(&t, o->hand.player, lim(o->hand.n_player, 3), ZBC_SUITS_BACCARAT, utf8);
        zbc_text_printf(&t, " = %u, banker ", o->hand.player_total);
        cards_words(&t, o->hand.banker, lim(o->hand.n_banker, 3), ZBC_SUITS_BACCARAT, utf8);
        zbc_text_printf(&t, " = %u: %s (bet on %s): %s", o->hand.banker_total, bac_winner(o),
                        b->side < 3 ? SIDES[b->side] : "?", m);
        break;
    case ZBC_BET_BLITZ:
        cards_words(&t, o->cards, b->cards, ZBC_SUITS_BLITZ, utf8);
        zbc_text_printf(&t, ": %u different of %u: %s", blitz_different(b, o), b->cards, m);
        break;
    default:
        if (cap > 0)
            out[0] = '\0';
        return -1;
    }
    return finish(&t, out, cap);
}

int zbc_bet_value_words(const char *game, uint32_t v, char *out, size_t cap)
{
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    if (game == NULL) {
        if (cap > 0)
            out[0] = '\0';
        return -1;
    }
    if (strcmp(game, "plinko") == 0)
        zbc_text_printf(&t, "slot %u", v & 0xffu);
    else if (strcmp(game, "keno") == 0)
        zbc_text_printf(&t, "%u hit%s", v, v == 1 ? "" : "s");
    else if (strcmp(game, "wheel") == 0)
        zbc_text_printf(&t, "segment %u", v);
    else if (strcmp(game, "baccarat") == 0)
        zbc_text_printf(&t, "player %u, banker %u", v & 0xffu, (v >> 8) & 0xffu);
    else if (strcmp(game, "blitz") == 0)
        zbc_text_printf(&t, "%u different cards", v);
    else {
        if (cap > 0)
            out[0] = '\0';
        return -1;
    }
    return finish(&t, out, cap);
}

/* ---- pictures ---- */

static void plinko_picture(struct zbc_text *t, const struct zbc_bet *b,
                           const struct zbc_bet_outcome *o)
{
    unsigned rows = lim(b->rows, ZBC_PLINKO_ROWS_MAX), pos = 0;
    zbc_text_printf(t, "plinko, %u rows, %s risk: the ball falls (o), L/R at each row\n", rows,
                    b->risk < 3 ? RISK3[b->risk] : "?");
    for (unsigned i = 0; i <= rows; i++) {
        zbc_text_printf(t, "  %*s", (int)(rows - i), "");
        for (unsigned p = 0; p <= i; p++)
            zbc_text_printf(t, "%s%c", p ? " " : "", p == pos ? 'o' : i == rows ? '_' : '.');
        if (i < rows) {
            zbc_text_printf(t, "%*s  %c\n", (int)(rows - i), "", o->path[i] ? 'R' : 'L');
            pos += o->path[i] ? 1u : 0u;
        } else {
            zbc_text_printf(t, "\n");
        }
    }
    char m[24], edge[24];
    zbc_multiplier_text(m, o->multiplier);
    zbc_multiplier_text(edge, zbc_plinko_multiplier(rows, b->risk, 0));
    zbc_text_printf(t, "  slot %u of 0-%u: %s (the edge slots pay %s)\n", pos, rows, m, edge);
}

static void keno_picture(struct zbc_text *t, const struct zbc_bet *b,
                         const struct zbc_bet_outcome *o)
{
    zbc_text_printf(t, "keno, %u picks, %s risk: [n] hit, (n) picked, *n* drawn\n", b->n_picks,
                    b->risk < 2 ? KENO_RISK[b->risk] : "?");
    for (unsigned r = 0; r < 5; r++) {
        zbc_text_printf(t, " ");
        for (unsigned c = 0; c < 8; c++) {
            unsigned sq = r * 8 + c + 1;
            bool p = keno_picked(b, sq), d = keno_drawn(o, sq);
            char l = p && d ? '[' : p ? '(' : d ? '*' : ' ';
            char rr = p && d ? ']' : p ? ')' : d ? '*' : ' ';
            zbc_text_printf(t, " %c%2u%c", l, sq, rr);
        }
        zbc_text_printf(t, "\n");
    }
    zbc_text_printf(t, "  drawn in order:");
    for (unsigned i = 0; i < ZBC_KENO_DRAWN; i++)
        zbc_text_printf(t, " %u", o->squares[i]);
    char m[24];
    zbc_multiplier_text(m, o->multiplier);
    zbc_text_printf(t, "\n  %u hit%s of %u picks: %s\n", o->value, o->value == 1 ? "" : "s",
                    b->n_picks, m);
}

static void wheel_picture(struct zbc_text *t, const struct zbc_bet *b,
                          const struct zbc_bet_outcome *o)
{
    unsigned n = b->segments, s = o->value;
    zbc_text_printf(t, "wheel, %u segments, %s risk: the pointer stops at segment %u\n", n,
                    b->risk < 3 ? RISK3[b->risk] : "?", s);
    zbc_text_printf(t, " ");
    for (int d = -3; d <= 3 && s < n; d++) { /* s < n: also no division by 0 segments */
        unsigned k = (unsigned)(((int)s + d + 3 * (int)n) % (int)n);
        char m[24];
        zbc_multiplier_text(m, zbc_wheel_multiplier(n, b->risk, k));
        zbc_text_printf(t, d == 0 ? " >%u: %s<" : "  %u: %s ", k, m);
    }
    char m[24];
    zbc_multiplier_text(m, o->multiplier);
    zbc_text_printf(t, "\n  segment %u of %u: %s\n", s, n, m);
}

static void hand_line(struct zbc_text *t, const char *who, const uint8_t *c, unsigned n,
                      unsigned total, bool utf8)
{
    char name[12];
    zbc_text_printf(t, "  %-7s", who);
    for (unsigned i = 0; i < 3; i++) {
        if (i < n)
            zbc_card_text(name, c[i], ZBC_SUITS_BACCARAT, utf8);
        else
            name[0] = '\0';
        /* card names are 2-3 columns wide, a UTF-8 suit 3 bytes for 1 column */
        size_t cols = strlen(name) - (utf8 && name[0] != '\0' ? 2 : 0);
        zbc_text_printf(t, " %s%*s", name, (int)(3 - cols), "");
    }
    zbc_text_printf(t, "  total %u%s\n", total, n == 3 ? " (drew a third card)" : "");
}

static void baccarat_picture(struct zbc_text *t, const struct zbc_bet *b,
                             const struct zbc_bet_outcome *o, bool utf8)
{
    zbc_text_printf(t, "baccarat, bet on %s\n", b->side < 3 ? SIDES[b->side] : "?");
    hand_line(t, "player", o->hand.player, o->hand.n_player, o->hand.player_total, utf8);
    hand_line(t, "banker", o->hand.banker, o->hand.n_banker, o->hand.banker_total, utf8);
    char m[24];
    zbc_multiplier_text(m, o->multiplier);
    zbc_text_printf(t, "  %s: %s\n", bac_winner(o), m);
}

static void blitz_picture(struct zbc_text *t, const struct zbc_bet *b,
                          const struct zbc_bet_outcome *o, bool utf8)
{
    zbc_text_printf(t, "blitz, %u cards: win when all differ\n  ", b->cards);
    cards_words(t, o->cards, b->cards, ZBC_SUITS_BLITZ, utf8);
    zbc_text_printf(t, "\n");
    unsigned k = b->cards < ZBC_BLITZ_CARDS_MAX ? b->cards : ZBC_BLITZ_CARDS_MAX;
    bool any = false;
    for (unsigned i = 0; i < k; i++)
        for (unsigned j = 0; j < i; j++)
            if (o->cards[j] == o->cards[i]) {
                char name[12];
                zbc_card_text(name, o->cards[i], ZBC_SUITS_BLITZ, utf8);
                zbc_text_printf(t, "  %s again: card %u repeats card %u\n", name, i + 1, j + 1);
                any = true;
                break;
            }
    char m[24];
    zbc_multiplier_text(m, o->multiplier);
    zbc_text_printf(t, "  %s: %s\n", any ? "a card repeats" : "all differ", m);
}

int zbc_bet_picture(const struct zbc_bet *b, const struct zbc_bet_outcome *o, bool utf8,
                    char *out, size_t cap)
{
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    switch (b->game) {
    case ZBC_BET_PLINKO:
        plinko_picture(&t, b, o);
        break;
    case ZBC_BET_KENO:
        keno_picture(&t, b, o);
        break;
    case ZBC_BET_WHEEL:
        wheel_picture(&t, b, o);
        break;
    case ZBC_BET_BACCARAT:
        baccarat_picture(&t, b, o, utf8);
        break;
    case ZBC_BET_BLITZ:
        blitz_picture(&t, b, o, utf8);
        break;
    default:
        if (cap > 0)
            out[0] = '\0';
        return -1;
    }
    return finish(&t, out, cap);
}

/* ---- JSON ---- */

static json_t *u8_array(const uint8_t *v, unsigned n)
{
    json_t *a = json_array();
    for (unsigned i = 0; i < n; i++)
        json_array_append_new(a, json_integer(v[i]));
    return a;
}

static json_t *card_names(const uint8_t *v, unsigned n, enum zbc_card_suits suits)
{
    json_t *a = json_array();
    char name[12];
    for (unsigned i = 0; i < n; i++) {
        zbc_card_text(name, v[i], suits, true);
        json_array_append_new(a, json_string(name));
    }
    return a;
}

json_t *zbc_bet_event_json(const struct zbc_bet *b, const struct zbc_bet_outcome *o)
{
    json_t *j = NULL;
    switch (b->game) {
    case ZBC_BET_PLINKO:
        j = json_pack("{s:o, s:i, s:i, s:s}", "path",
                      u8_array(o->path, lim(b->rows, ZBC_PLINKO_ROWS_MAX)), "slot",
                      (int)(o->value & 0xffu), "rows", b->rows, "risk",
                      b->risk < 3 ? RISK3[b->risk] : "?");
        break;
    case ZBC_BET_KENO: {
        uint8_t hits[ZBC_KENO_DRAWN];
        unsigned n = 0;
        for (unsigned i = 0; i < b->n_picks && i < ZBC_KENO_DRAWN; i++)
            if (keno_drawn(o, b->picks[i]))
                hits[n++] = b->picks[i];
        j = json_pack("{s:o, s:o, s:o, s:s}", "picks",
                      u8_array(b->picks, lim(b->n_picks, ZBC_KENO_DRAWN)), "squares",
                      u8_array(o->squares, ZBC_KENO_DRAWN), "hits", u8_array(hits, n), "risk",
                      b->risk < 2 ? KENO_RISK[b->risk] : "?");
        break;
    }
    case ZBC_BET_WHEEL:
        j = json_pack("{s:i, s:i, s:s}", "segment", (int)o->value, "segments", b->segments,
                      "risk", b->risk < 3 ? RISK3[b->risk] : "?");
        break;
    case ZBC_BET_BACCARAT: {
        enum zbc_baccarat_side w = zbc_baccarat_winner(&o->hand);
        j = json_pack("{s:o, s:o, s:o, s:o, s:i, s:i, s:s, s:s}", "player",
                      u8_array(o->hand.player, lim(o->hand.n_player, 3)), "banker",
                      u8_array(o->hand.banker, lim(o->hand.n_banker, 3)), "player_cards",
                      card_names(o->hand.player, lim(o->hand.n_player, 3), ZBC_SUITS_BACCARAT),
                      "banker_cards",
                      card_names(o->hand.banker, lim(o->hand.n_banker, 3), ZBC_SUITS_BACCARAT),
                      "player_total", o->hand.player_total, "banker_total",
                      o->hand.banker_total, "winner", SIDES[w], "side",
                      b->side < 3 ? SIDES[b->side] : "?");
        break;
    }
    case ZBC_BET_BLITZ:
        j = json_pack("{s:o, s:o, s:b}", "cards",
                      u8_array(o->cards, lim(b->cards, ZBC_BLITZ_CARDS_MAX)), "names",
                      card_names(o->cards, lim(b->cards, ZBC_BLITZ_CARDS_MAX), ZBC_SUITS_BLITZ),
                      "all_differ",
                      blitz_different(b, o) == b->cards);
        break;
    default:
        return NULL;
    }
    if (j == NULL)
        return NULL;
    char m[24];
    zbc_multiplier_text(m, o->multiplier);
    json_object_set_new(j, "multiplier", json_integer(o->multiplier));
    json_object_set_new(j, "multiplier_text", json_string(m));
    return j;
}

/* ---- steps ---- */

static void stepf(void (*emit)(void *, const char *), void *ctx, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void stepf(void (*emit)(void *, const char *), void *ctx, const char *fmt, ...)
{
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    emit(ctx, line);
}

static void card_step(struct zbc_fair_stream *s, uint32_t k, const char *who, uint8_t card,
                      bool utf8, void (*emit)(void *, const char *), void *ctx)
{
    char name[12];
    uint32_t u = zbc_fair_stream_u32(s, k);
    zbc_card_text(name, card, ZBC_SUITS_BACCARAT, utf8);
    stepf(emit, ctx, "float %u u = %u: card floor(f x 52) = %u = %s, %s", k, u,
          zbc_fair_floor(u, 52), name, who);
}

void zbc_bet_steps(const struct zbc_bet *b, const struct zbc_bet_outcome *o, uint64_t stake,
                   const char *server_seed, uint64_t nonce, bool utf8,
                   void (*emit)(void *, const char *), void *ctx)
{
    struct zbc_fair_stream s;
    zbc_fair_stream_init(&s, server_seed, b->client_seed, nonce);
    char name[12];
    switch (b->game) {
    case ZBC_BET_PLINKO:
        for (uint32_t i = 0; i < b->rows && i < ZBC_PLINKO_ROWS_MAX; i++) {
            uint32_t u = zbc_fair_stream_u32(&s, i);
            stepf(emit, ctx, "row %u: float %u u = %u, floor(f x 2) = %u: %s", i + 1, i, u,
                  zbc_fair_floor(u, 2), zbc_fair_floor(u, 2) ? "right" : "left");
        }
        stepf(emit, ctx, "slot = the number of rights = %u of 0-%u", o->value & 0xffu, b->rows);
        break;
    case ZBC_BET_KENO:
        for (uint32_t i = 0; i < ZBC_KENO_DRAWN; i++) {
            uint32_t u = zbc_fair_stream_u32(&s, i);
            stepf(emit, ctx, "draw %u: float %u u = %u, v = ceil(f x %u) = %u: square %u%s",
                  i + 1, i, u, ZBC_KENO_SQUARES - i, zbc_fair_ceil(u, ZBC_KENO_SQUARES - i),
                  o->squares[i], keno_picked(b, o->squares[i]) ? " (hit)" : "");
        }
        stepf(emit, ctx, "%u hits of %u picks", o->value, b->n_picks);
        break;
    case ZBC_BET_WHEEL: {
        uint32_t u = zbc_fair_stream_u32(&s, 0);
        stepf(emit, ctx, "float 0 u = %u: segment floor(f x %u) = %u", u, b->segments,
              zbc_fair_floor(u, b->segments));
        break;
    }
    case ZBC_BET_BACCARAT: {
        const struct zbc_baccarat_hand *h = &o->hand;
        card_step(&s, 0, "player 1", h->player[0], utf8, emit, ctx);
        card_step(&s, 1, "banker 1", h->banker[0], utf8, emit, ctx);
        card_step(&s, 2, "player 2", h->player[1], utf8, emit, ctx);
        card_step(&s, 3, "banker 2", h->banker[1], utf8, emit, ctx);
        uint32_t p2 = (zbc_baccarat_value(h->player[0]) + zbc_baccarat_value(h->player[1])) % 10;
        uint32_t b2 = (zbc_baccarat_value(h->banker[0]) + zbc_baccarat_value(h->banker[1])) % 10;
        stepf(emit, ctx, "two-card totals: player %u, banker %u%s", p2, b2,
              p2 >= 8 || b2 >= 8 ? " (a natural: both stand)" : "");
        if (h->n_player == 3)
            card_step(&s, 4, "player 3 (the player draws on 0-5)", h->player[2], utf8, emit,
                      ctx);
        else if (p2 < 8 && b2 < 8)
            stepf(emit, ctx, "the player stands on %u", p2);
        if (h->n_banker == 3)
            card_step(&s, h->n_player == 3 ? 5 : 4, "banker 3 (the third-card rule)",
                      h->banker[2], utf8, emit, ctx);
        else if (p2 < 8 && b2 < 8)
            stepf(emit, ctx, "the banker stands on %u", b2);
        stepf(emit, ctx, "totals: player %u, banker %u: %s", h->player_total, h->banker_total,
              bac_winner(o));
        break;
    }
    case ZBC_BET_BLITZ:
        for (uint32_t i = 0; i < b->cards && i < ZBC_BLITZ_CARDS_MAX; i++) {
            uint32_t u = zbc_fair_stream_u32(&s, i);
            zbc_card_text(name, o->cards[i], ZBC_SUITS_BLITZ, utf8);
            stepf(emit, ctx, "card %u: float %u u = %u, floor(f x 52) = %u = %s", i + 1, i, u,
                  zbc_fair_floor(u, 52), name);
        }
        stepf(emit, ctx, "%u different of %u: %s", blitz_different(b, o), b->cards,
              blitz_different(b, o) == b->cards ? "all differ" : "a card repeats");
        break;
    default:
        return;
    }
    char m[24];
    zbc_multiplier_text(m, o->multiplier);
    stepf(emit, ctx, "multiplier %s: returns floor(%" PRIu64 " x %u / 10000) = %" PRIu64, m,
          stake, o->multiplier, o->returns);
}
