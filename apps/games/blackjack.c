/* Blackjack (type 31, one seat against the apps fund): docs/games.md, section
 * "Blackjack (type 31)"; on chain docs/protocol-apps.md §13.
 *
 * The rules whose exact RTP is 99 % (docs/games.md, "Payout tables"): an
 * infinite deck (the game's card k is card k of the catalogue's card event
 * of the block that draws it), the dealer stands on every 17, no hole card
 * before the player stands (a dealer blackjack then takes every stake of
 * the round), double on any two cards, one split of two cards of a rank
 * (split aces take one card each), a natural returns 2.4294x.  Every move
 * draws, so every move is pending until the next block; a double or a
 * split puts one more stake in (zbc_solo_ops.move_stake).
 *
 * The state is the moves and the cards drawn; everything else is replayed
 * from them (decode checks every move was legal where it was played). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "apps/engine.h"
#include "apps/fair_events.h"
#include "apps/fair_pay.h"
#include "apps/games/solo.h"
#include "apps/notation.h"

extern const struct zbc_engine zbc_engine_blackjack;

/* Bounds of one game, from the rules on an infinite deck (docs/games.md,
 * "Blackjack"; until 2026-12-03 they assumed one deck, whose longest hand
 * is 11 cards, and a 13th card that check_move allowed was refused by
 * apply_move).  An exhaustive walk of every sequence of card values
 * (docs/games.md) gives the longest hand: the player's, drawing until 21
 * or more, 20 cards (ten aces, a 2, eight aces, a 2); the dealer's,
 * drawing below 17 with soft 17 standing, 12 cards (six aces, a 6, four
 * aces, a 2).  Cards: two hands of 20 and the dealer's 12.  Moves: deal,
 * split, and for each of two hands at most 18 (every 20-card hand is done,
 * so at most 18 hits from its two cards, or fewer and a stand): 38, held
 * in 40. */
#define BJ_HAND_MAX 20
#define BJ_DEALER_MAX 12
#define BJ_CARDS_MAX (2 * BJ_HAND_MAX + BJ_DEALER_MAX)
#define BJ_MOVES_MAX 40
#define BJ_MAX_VALUE 80000u /* two split hands, both doubled and won: 8x */

enum bj_move { BJ_DEAL = 1, BJ_HIT = 2, BJ_STAND = 3, BJ_DOUBLE = 4, BJ_SPLIT = 5 };
enum bj_status { BJ_WAITING = 0, BJ_PLAYING = 1, BJ_OVER = 2 };

struct bj_hand {
    uint8_t card[BJ_HAND_MAX];
    uint8_t n;
    uint8_t bet;  /* stakes on the hand: 1, or 2 doubled */
    bool done;
};

/* What the moves and cards give (replayed, never stored). */
struct bj {
    uint8_t status;
    uint8_t nh, cur;        /* hands (1 or 2), the hand to play */
    struct bj_hand hand[2];
    uint8_t dealer[BJ_DEALER_MAX];
    uint8_t nd;
    bool natural, dealer_natural;
    uint32_t value;         /* returns when over, ten-thousandths of the stake */
    uint8_t n;              /* cards drawn */
};

struct bj_state {
    uint8_t nm;
    uint8_t move[BJ_MOVES_MAX];
    uint8_t card[BJ_CARDS_MAX];
    struct bj g;
};

_Static_assert(sizeof(struct bj_state) <= ZBC_GAME_STATE_MAX,
               "blackjack state fits the state buffer");

static const struct bj_state *cbs(const struct zbc_game_state *st)
{
    return (const struct bj_state *)(const void *)st->b;
}

static struct bj_state *bs(struct zbc_game_state *st)
{
    return (struct bj_state *)(void *)st->b;
}

/* Where cards come from: the float stream (a move being applied) or the
 * recorded cards (a replay). */
struct source {
    struct zbc_fair_stream *fs;
    uint8_t *card;       /* the game's cards: read (replay) or written */
    uint8_t recorded;    /* cards available to a replay */
};

static int draw(struct bj *g, struct source *src, uint8_t *out,
                struct zbc_err *err)
{
    if (g->n >= BJ_CARDS_MAX)
        return zbc_fail(err, "blackjack: more than %d cards", BJ_CARDS_MAX);
    if (src->fs != NULL)
        zbc_fair_cards(src->fs, g->n, 1, &src->card[g->n]);
    else if (g->n >= src->recorded)
        return zbc_fail(err, "blackjack state: the cards run out");
    *out = src->card[g->n++];
    return 1;
}

static unsigned rank(uint8_t c)
{
    return c / 4u; /* 0 = "2" .. 8 = "10", 9 J, 10 Q, 11 K, 12 A */
}

/* The best total (aces 11 while it does not bust) and whether it is soft. */
static unsigned total(const uint8_t *cards, uint8_t n, bool *soft)
{
    unsigned t = 0, aces = 0;
    for (uint8_t i = 0; i < n; i++) {
        unsigned r = rank(cards[i]);
        t += r == 12 ? 1 : r >= 8 ? 10 : r + 2;
        aces += r == 12;
    }
    bool s = aces > 0 && t + 10 <= 21;
    if (soft != NULL)
        *soft = s;
    return s ? t + 10 : t;
}

static int add(struct bj *g, struct bj_hand *h, struct source *src,
               struct zbc_err *err)
{
    if (h->n >= BJ_HAND_MAX)
        return zbc_fail(err, "blackjack: a hand of more than %d cards",
                        BJ_HAND_MAX);
    return draw(g, src, &h->card[h->n++], err);
}

/* Every hand done: the dealer's hole card and draws (unless every hand
 * busted), then the returns. */
static int settle(struct bj *g, struct source *src, struct zbc_err *err)
{
    bool live = false;
    for (uint8_t i = 0; i < g->nh; i++)
        live = live || total(g->hand[i].card, g->hand[i].n, NULL) <= 21;
    g->status = BJ_OVER;
    g->value = 0;
    if (!live)
        return 1;
    if (!draw(g, src, &g->dealer[g->nd++], err))
        return 0;
    if (total(g->dealer, g->nd, NULL) == 21) {
        g->dealer_natural = true; /* takes every stake of the round */
        return 1;
    }
    bool soft;
    while (total(g->dealer, g->nd, &soft) < 17) {
        if (g->nd >= BJ_DEALER_MAX)
            return zbc_fail(err, "blackjack: a dealer hand of more than %d cards",
                            BJ_DEALER_MAX);
        if (!draw(g, src, &g->dealer[g->nd++], err))
            return 0;
    }
    unsigned d = total(g->dealer, g->nd, NULL);
    for (uint8_t i = 0; i < g->nh; i++) {
        const struct bj_hand *h = &g->hand[i];
        unsigned p = total(h->card, h->n, NULL);
        if (p > 21)
            continue;
        if (d > 21 || p > d)
            g->value += 2u * h->bet * ZBC_FAIR_ONE;
        else if (p == d)
            g->value += (uint32_t)h->bet * ZBC_FAIR_ONE;
    }
    return 1;
}

/* The next hand to play after the current one is done, or the dealer. */
static int next_hand(struct bj *g, struct source *src, struct zbc_err *err)
{
    while (g->cur < g->nh && g->hand[g->cur].done)
        g->cur++;
    return g->cur < g->nh ? 1 : settle(g, src, err);
}

/* A hand that reached 21 or more is done. */
static void close_if_full(struct bj_hand *h)
{
    if (total(h->card, h->n, NULL) >= 21)
        h->done = true;
}

/* Whether `m` is legal on g; the reason in err when not. */
static int legal(const struct bj *g, uint8_t m, struct zbc_err *err)
{
    if (g->status == BJ_WAITING)
        return m == BJ_DEAL ? 1
                            : zbc_fail(err, "deal first: no cards are dealt yet");
    const struct bj_hand *h = &g->hand[g->cur];
    switch ((enum bj_move)m) {
    case BJ_DEAL:
        return zbc_fail(err, "the cards are already dealt");
    case BJ_HIT:
    case BJ_STAND:
        return 1;
    case BJ_DOUBLE:
        if (h->n != 2)
            return zbc_fail(err, "double takes a hand of two cards, this one "
                                 "has %u", h->n);
        return 1;
    case BJ_SPLIT:
        if (g->nh != 1)
            return zbc_fail(err, "one split per game: the hand is already split");
        if (h->n != 2 || rank(h->card[0]) != rank(h->card[1]))
            return zbc_fail(err, "split takes two cards of one rank");
        return 1;
    }
    return zbc_fail(err, "unknown blackjack move %u (1 deal, 2 hit, 3 stand, "
                         "4 double, 5 split)", m);
}

static int play(struct bj *g, uint8_t m, struct source *src,
                struct zbc_err *err)
{
    if (!legal(g, m, err))
        return 0;
    struct bj_hand *h = &g->hand[g->cur];
    switch ((enum bj_move)m) {
    case BJ_DEAL:
        g->status = BJ_PLAYING;
        g->nh = 1;
        h->bet = 1;
        if (!add(g, h, src, err) || !draw(g, src, &g->dealer[g->nd++], err) ||
            !add(g, h, src, err))
            return 0;
        if (total(h->card, 2, NULL) == 21) {
            /* a natural: the dealer's second card decides push or 2.4294x */
            g->natural = true;
            g->status = BJ_OVER;
            if (!draw(g, src, &g->dealer[g->nd++], err))
                return 0;
            g->dealer_natural = total(g->dealer, 2, NULL) == 21;
            g->value = g->dealer_natural ? ZBC_FAIR_ONE : ZBC_BLACKJACK_NATURAL;
        }
        return 1;
    case BJ_HIT:
        if (!add(g, h, src, err))
            return 0;
        close_if_full(h);
        return next_hand(g, src, err);
    case BJ_STAND:
        h->done = true;
        return next_hand(g, src, err);
    case BJ_DOUBLE:
        h->bet = 2;
        if (!add(g, h, src, err))
            return 0;
        h->done = true;
        return next_hand(g, src, err);
    case BJ_SPLIT: {
        struct bj_hand *h2 = &g->hand[1];
        bool aces = rank(h->card[0]) == 12;
        g->nh = 2;
        h2->card[0] = h->card[1];
        h2->n = 1;
        h2->bet = 1;
        h->n = 1;
        if (!add(g, h, src, err) || !add(g, h2, src, err))
            return 0;
        /* split aces take one card each */
        h->done = h2->done = aces;
        close_if_full(h);
        close_if_full(h2);
        return next_hand(g, src, err);
    }
    }
    return 0;
}

static int bj_check_params(uint8_t seats, const uint8_t *params, size_t len,
                           struct zbc_err *err)
{
    struct zbc_solo_params p;
    if (!zbc_engine_check_seats(&zbc_engine_blackjack, seats, err))
        return 0;
    return zbc_solo_params(params, len, 0, &p, err);
}

static int bj_init(struct zbc_game_state *st, uint8_t seats,
                   const uint8_t *params, size_t len, uint8_t first,
                   struct zbc_roll *rolls, struct zbc_err *err)
{
    (void)rolls;
    (void)first;
    if (!bj_check_params(seats, params, len, err))
        return 0;
    memset(bs(st), 0, sizeof(struct bj_state));
    return 1;
}

static int bj_turn(const struct zbc_game_state *st)
{
    return cbs(st)->g.status == BJ_OVER ? ZBC_NOBODY : 0;
}

static void bj_result(const struct zbc_game_state *st, struct zbc_result *out)
{
    zbc_solo_result(cbs(st)->g.status != BJ_OVER ? ZBC_SOLO_PLAYING
                    : cbs(st)->g.value == 0     ? ZBC_SOLO_BUST
                                                : ZBC_SOLO_TOP,
                    out);
}

static int bj_check_move(const struct zbc_game_state *st, uint8_t seat,
                         const uint8_t *move, size_t len, struct zbc_err *err)
{
    if (!zbc_engine_move_entry(&zbc_engine_blackjack, bj_turn(st), seat, len,
                               err))
        return 0;
    if (len != 1)
        return zbc_fail(err, "a blackjack move is one byte, got %zu", len);
    if (cbs(st)->nm >= BJ_MOVES_MAX)
        return zbc_fail(err, "blackjack: more than %d moves", BJ_MOVES_MAX);
    return legal(&cbs(st)->g, move[0], err);
}

static int bj_apply_move(struct zbc_game_state *st, uint8_t seat,
                         const uint8_t *move, size_t len,
                         struct zbc_roll *rolls, struct zbc_err *err)
{
    if (!bj_check_move(st, seat, move, len, err))
        return 0;
    struct zbc_fair_stream *fs = rolls != NULL ? zbc_roll_fair(rolls) : NULL;
    if (fs == NULL)
        return zbc_fail(err, "a blackjack move needs the float stream");
    struct bj_state s = *cbs(st);
    struct source src = {fs, s.card, 0};
    if (!play(&s.g, move[0], &src, err))
        return 0;
    s.move[s.nm++] = move[0];
    *bs(st) = s;
    return 1;
}

static size_t bj_gen_moves(const struct zbc_game_state *st,
                           struct zbc_move *out, size_t cap)
{
    return zbc_solo_gen_bytes(&zbc_engine_blackjack, st, BJ_DEAL, BJ_SPLIT, out, cap);
}

/* nm u8 | moves[nm] | n u8 | cards[n] */
static size_t bj_encode(const struct zbc_game_state *st, uint8_t *out,
                        size_t cap)
{
    const struct bj_state *s = cbs(st);
    size_t need = 2u + s->nm + s->g.n;
    if (cap < need)
        return 0;
    out[0] = s->nm;
    memcpy(out + 1, s->move, s->nm);
    out[1 + s->nm] = s->g.n;
    memcpy(out + 2 + s->nm, s->card, s->g.n);
    return need;
}

static int bj_decode(struct zbc_game_state *st, const uint8_t *in, size_t len,
                     struct zbc_err *err)
{
    if (len < 2 || in[0] > BJ_MOVES_MAX || len < 2u + in[0] ||
        in[1 + in[0]] > BJ_CARDS_MAX || len != 2u + in[0] + in[1 + in[0]])
        return zbc_fail(err, "blackjack state: %zu bytes do not fit its move "
                             "and card counts", len);
    struct bj_state s;
    memset(&s, 0, sizeof s);
    s.nm = in[0];
    memcpy(s.move, in + 1, s.nm);
    uint8_t n = in[1 + s.nm];
    memcpy(s.card, in + 2 + s.nm, n);
    for (uint8_t i = 0; i < n; i++)
        if (s.card[i] >= 52)
            return zbc_fail(err, "blackjack state: card %u is %u, not 0-51",
                            i + 1, s.card[i]);
    struct source src = {NULL, s.card, n};
    for (uint8_t i = 0; i < s.nm; i++) {
        struct zbc_err why;
        if (s.g.status == BJ_OVER)
            return zbc_fail(err, "blackjack state: move %u comes after the end",
                            i + 1);
        if (!play(&s.g, s.move[i], &src, &why))
            return zbc_fail(err, "blackjack state: move %u does not replay (%s)",
                            i + 1, why.msg);
    }
    if (s.g.n != n)
        return zbc_fail(err, "blackjack state: %u cards recorded, the moves draw %u",
                        n, s.g.n);
    *bs(st) = s;
    return 1;
}

static uint64_t bj_value(const struct zbc_game_state *st)
{
    const struct bj *g = &cbs(st)->g;
    if (g->status == BJ_WAITING)
        return ZBC_FAIR_ONE; /* stopped before the deal: the stake back */
    return g->status == BJ_OVER ? g->value : 0;
}

static void hand_text(struct zbc_text *tb, const uint8_t *cards, uint8_t n)
{
    char name[16];
    for (uint8_t i = 0; i < n; i++) {
        zbc_fair_card_name(name, sizeof name, cards[i], ZBC_SUITS_BLACKJACK);
        zbc_text_printf(tb, "%s[%s]", i ? " " : "", name);
    }
    zbc_text_printf(tb, " = %u", total(cards, n, NULL));
}

static void hand_json(struct zbc_text *tb, const uint8_t *cards, uint8_t n)
{
    char name[16];
    zbc_text_printf(tb, "{\"cards\":[");
    for (uint8_t i = 0; i < n; i++) {
        zbc_fair_card_name(name, sizeof name, cards[i], ZBC_SUITS_BLACKJACK);
        zbc_text_printf(tb, "%s\"%s\"", i ? "," : "", name);
    }
    zbc_text_printf(tb, "],\"total\":%u", total(cards, n, NULL));
}

static int bj_to_json(const struct zbc_game_state *st, char *out, size_t cap)
{
    const struct bj *g = &cbs(st)->g;
    static const char *const W[] = {"waiting", "playing", "over"};
    struct zbc_text tb;
    zbc_text_init(&tb, out, cap);
    zbc_text_printf(&tb, "{\"game\":\"blackjack\",\"status\":\"%s\",\"hands\":[",
                    W[g->status <= BJ_OVER ? g->status : 0]);
    for (uint8_t i = 0; i < g->nh; i++) {
        zbc_text_printf(&tb, "%s", i ? "," : "");
        hand_json(&tb, g->hand[i].card, g->hand[i].n);
        zbc_text_printf(&tb, ",\"bet\":%u,\"done\":%s}", g->hand[i].bet,
                        g->hand[i].done ? "true" : "false");
    }
    zbc_text_printf(&tb, "],\"hand\":%u,\"dealer\":", g->cur);
    hand_json(&tb, g->dealer, g->nd);
    zbc_text_printf(&tb, "},\"natural\":%s,\"dealer_natural\":%s,",
                    g->natural ? "true" : "false",
                    g->dealer_natural ? "true" : "false");
    zbc_solo_json_tail(&tb, bj_value(st), g->status != BJ_OVER);
    return zbc_text_result(&tb);
}

static int bj_render(const struct zbc_game_state *st, char *out, size_t cap)
{
    const struct bj *g = &cbs(st)->g;
    struct zbc_text tb;
    zbc_text_init(&tb, out, cap);
    zbc_text_printf(&tb, "Blackjack\n");
    if (g->status == BJ_WAITING) {
        zbc_text_printf(&tb, "no cards yet: deal\n");
        return zbc_text_result(&tb);
    }
    zbc_text_printf(&tb, "dealer: ");
    hand_text(&tb, g->dealer, g->nd);
    zbc_text_printf(&tb, "%s\n", g->dealer_natural ? " (blackjack)" : "");
    for (uint8_t i = 0; i < g->nh; i++) {
        zbc_text_printf(&tb, "%s", g->nh > 1 ? (i ? "hand 2: " : "hand 1: ") : "you:    ");
        hand_text(&tb, g->hand[i].card, g->hand[i].n);
        zbc_text_printf(&tb, "%s%s%s\n", g->hand[i].bet == 2 ? " (doubled)" : "",
                        g->natural ? " (blackjack)" : "",
                        g->status == BJ_PLAYING && i == g->cur ? "  <" : "");
    }
    char m[32];
    zbc_solo_mult(m, g->value);
    if (g->status == BJ_OVER)
        zbc_text_printf(&tb, "returns %sx the stake\n", m);
    return zbc_text_result(&tb);
}

static const char *const WORDS[] = {NULL, "deal", "hit", "stand", "double", "split"};

static int bj_parse_move(const struct zbc_game_state *st, uint8_t seat,
                         const char *text, uint8_t *move, size_t cap,
                         size_t *len, struct zbc_err *err)
{
    (void)st;
    (void)seat;
    return zbc_solo_parse_word(text, WORDS, BJ_DEAL, BJ_SPLIT, move, cap, len,
                               "blackjack", "deal, hit, stand, double or split", err);
}

static int bj_format_move(const struct zbc_game_state *st, const uint8_t *move,
                          size_t len, char *out, size_t cap)
{
    (void)st;
    return zbc_solo_format_word(move, len, WORDS, BJ_DEAL, BJ_SPLIT, out, cap);
}

static int bj_params_word(const char *key, const char *value, uint8_t *out,
                          size_t *len, struct zbc_err *err)
{
    return zbc_solo_seed_only_word("blackjack", key, value, out, len, err);
}

static int bj_params_text(const uint8_t *params, size_t len, char *out,
                          size_t cap)
{
    return zbc_solo_seed_text(params, len, out, cap);
}

static uint64_t bj_max_multiplier(const uint8_t *params, size_t len)
{
    (void)params;
    (void)len;
    return BJ_MAX_VALUE;
}

static bool bj_move_draws(const uint8_t *move, size_t len)
{
    return len == 1 && move[0] >= BJ_DEAL && move[0] <= BJ_SPLIT;
}

static uint32_t bj_move_stake(const uint8_t *move, size_t len)
{
    return len == 1 && (move[0] == BJ_DOUBLE || move[0] == BJ_SPLIT) ? 1 : 0;
}

static const struct zbc_solo_ops BJ_SOLO = {
    .max_multiplier = bj_max_multiplier,
    .value = bj_value,
    .move_draws = bj_move_draws,
    .client_seed = zbc_solo_client_seed_0,
    .move_stake = bj_move_stake,
    .clock_move = BJ_STAND,
};

const struct zbc_engine zbc_engine_blackjack = {
    .state_size = sizeof(struct bj_state),
    .type = 31,
    .name = "blackjack",
    .min_seats = 1,
    .max_seats = 1,
    .dice = true,
    .draws_first = false,
    .start_rolls = false,
    .check_params = bj_check_params,
    .init = bj_init,
    .turn = bj_turn,
    .result = bj_result,
    .check_move = bj_check_move,
    .apply_move = bj_apply_move,
    .gen_moves = bj_gen_moves,
    .encode = bj_encode,
    .decode = bj_decode,
    .to_json = bj_to_json,
    .render = bj_render,
    .parse_move = bj_parse_move,
    .format_move = bj_format_move,
    .params_word = bj_params_word,
    .params_text = bj_params_text,
    .solo = &BJ_SOLO,
};
