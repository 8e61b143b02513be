/* Hilo (type 30, one seat against the apps fund): docs/games.md, section
 * "Hilo (type 30)"; on chain docs/protocol-apps.md §13.
 *
 * The game's card k is card k of the catalogue's card event of the block
 * that draws it (float k of that block's stream, CARDS rank-major 2..A,
 * suits ♦ ♥ ♠ ♣, drawn with replacement).  `deal` draws the first card;
 * `higher` / `lower` draw the next one and win when its rank is strictly
 * higher / lower (a tie loses; a guess no rank can win is refused); a won
 * guess multiplies the value by zbc_hilo_multiplier(w, 13) (w = the
 * winning ranks), floored, up to the cap of 1000x, which ends the game;
 * `skip` draws the next card without a guess; `cashout` (after a won
 * guess) applies at once.  The 52nd card ends the game at its value. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "apps/engine.h"
#include "apps/fair_events.h"
#include "apps/fair_pay.h"
#include "apps/games/solo.h"
#include "apps/notation.h"
#include "crypto/bytes.h"

extern const struct zbc_engine zbc_engine_hilo;

#define HILO_CARDS 52 /* cards a game can draw */
#define HILO_RANKS 13
#define HILO_CAP 10000000u /* 1000x: the most a game returns */
#define HEAD_BYTES 8

enum hilo_move {
    HILO_DEAL = 1,
    HILO_HIGHER = 2,
    HILO_LOWER = 3,
    HILO_SKIP = 4,
    HILO_CASHOUT = 5,
};

enum hilo_status {
    HILO_WAITING = 0, /* no card yet: deal */
    HILO_PLAYING = 1,
    HILO_BUST = 2,    /* a guess lost: returns 0 */
    HILO_ENDED = 3,   /* cashed out, the cap, or the 52nd card: returns the value */
};

struct hilo_state {
    uint8_t status;
    uint8_t n;                  /* cards drawn */
    uint8_t won;                /* guesses won */
    uint32_t value;             /* ten-thousandths of the stake */
    uint8_t card[HILO_CARDS];   /* card indexes 0..51 */
    uint8_t how[HILO_CARDS];    /* the move that drew each card */
    bool cashed;                /* ENDED by a cash-out */
};

_Static_assert(sizeof(struct hilo_state) <= ZBC_GAME_STATE_MAX,
               "hilo state fits the state buffer");

static const struct hilo_state *chs(const struct zbc_game_state *st)
{
    return (const struct hilo_state *)(const void *)st->b;
}

static struct hilo_state *hs(struct zbc_game_state *st)
{
    return (struct hilo_state *)(void *)st->b;
}

/* Ranks a guess wins with from rank r (0 = "2" .. 12 = A). */
static uint32_t winning(uint8_t how, uint32_t r)
{
    return how == HILO_HIGHER ? HILO_RANKS - 1 - r : r;
}

static int hilo_check_params(uint8_t seats, const uint8_t *params,
                             size_t len, struct zbc_err *err)
{
    struct zbc_solo_params p;
    if (!zbc_engine_check_seats(&zbc_engine_hilo, seats, err))
        return 0;
    return zbc_solo_params(params, len, 0, &p, err);
}

static int hilo_init(struct zbc_game_state *st, uint8_t seats,
                     const uint8_t *params, size_t len, uint8_t first,
                     struct zbc_roll *rolls, struct zbc_err *err)
{
    (void)rolls;
    (void)first;
    if (!hilo_check_params(seats, params, len, err))
        return 0;
    struct hilo_state s;
    memset(&s, 0, sizeof s);
    s.value = ZBC_FAIR_ONE;
    *hs(st) = s;
    return 1;
}

static int hilo_turn(const struct zbc_game_state *st)
{
    return chs(st)->status <= HILO_PLAYING ? 0 : ZBC_NOBODY;
}

static void hilo_result(const struct zbc_game_state *st,
                        struct zbc_result *out)
{
    memset(out, 0, sizeof *out);
    if (chs(st)->status <= HILO_PLAYING)
        out->kind = ZBC_RESULT_ONGOING;
    else if (chs(st)->status == HILO_BUST)
        out->kind = ZBC_RESULT_DRAW; /* nobody won; the value (0) pays */
    else
        out->kind = ZBC_RESULT_WIN;
}

static const char *const RANK[HILO_RANKS] = {"2", "3", "4",  "5", "6", "7", "8",
                                             "9", "10", "J", "Q", "K", "A"};

static int hilo_check_move(const struct zbc_game_state *st, uint8_t seat,
                           const uint8_t *move, size_t len,
                           struct zbc_err *err)
{
    const struct hilo_state *s = chs(st);
    if (!zbc_engine_move_entry(&zbc_engine_hilo, hilo_turn(st), seat, len,
                               err))
        return 0;
    if (len != 1 || move[0] < HILO_DEAL || move[0] > HILO_CASHOUT)
        return zbc_fail(err, "a hilo move is one byte (1 deal, 2 higher, "
                             "3 lower, 4 skip, 5 cash out)");
    if (s->status == HILO_WAITING)
        return move[0] == HILO_DEAL
                   ? 1
                   : zbc_fail(err, "deal first: the first card is not drawn yet");
    uint32_t r = s->card[s->n - 1] / 4u;
    switch ((enum hilo_move)move[0]) {
    case HILO_DEAL:
        return zbc_fail(err, "the first card is already dealt");
    case HILO_HIGHER:
    case HILO_LOWER:
        if (winning(move[0], r) == 0)
            return zbc_fail(err, "no rank is %s than %s", move[0] == HILO_HIGHER
                                                               ? "higher"
                                                               : "lower",
                            RANK[r]);
        return 1;
    case HILO_SKIP:
        return 1;
    case HILO_CASHOUT:
        if (s->won == 0)
            return zbc_fail(err, "nothing to cash out: win a guess first");
        return 1;
    }
    return 0;
}

/* The value after card i drawn by `how` (a guess from the card before). */
static uint32_t step_value(uint32_t v, uint8_t how, uint32_t from, uint32_t to,
                           bool *lost)
{
    *lost = false;
    if (how != HILO_HIGHER && how != HILO_LOWER)
        return v;
    bool win = how == HILO_HIGHER ? to > from : to < from;
    if (!win) {
        *lost = true;
        return 0;
    }
    uint64_t nv = (uint64_t)v * zbc_hilo_multiplier(winning(how, from),
                                                    HILO_RANKS) / ZBC_FAIR_ONE;
    return nv > HILO_CAP ? HILO_CAP : (uint32_t)nv;
}

static int hilo_apply_move(struct zbc_game_state *st, uint8_t seat,
                           const uint8_t *move, size_t len,
                           struct zbc_roll *rolls, struct zbc_err *err)
{
    if (!hilo_check_move(st, seat, move, len, err))
        return 0;
    struct hilo_state s = *chs(st);
    if (move[0] == HILO_CASHOUT) {
        s.status = HILO_ENDED;
        s.cashed = true;
        *hs(st) = s;
        return 1;
    }
    struct zbc_fair_stream *fs = rolls != NULL ? zbc_roll_fair(rolls) : NULL;
    if (fs == NULL)
        return zbc_fail(err, "a hilo draw needs the float stream");
    uint8_t c;
    zbc_fair_cards(fs, s.n, 1, &c); /* the game's card k = card k of the event */
    s.card[s.n] = c;
    s.how[s.n] = move[0];
    s.n++;
    if (move[0] == HILO_DEAL) {
        s.status = HILO_PLAYING;
    } else {
        bool lost;
        s.value = step_value(s.value, move[0], s.card[s.n - 2] / 4u, c / 4u,
                             &lost);
        if (lost)
            s.status = HILO_BUST;
        else if (move[0] != HILO_SKIP)
            s.won++;
        if (!lost && (s.value == HILO_CAP || s.n == HILO_CARDS))
            s.status = HILO_ENDED;
    }
    *hs(st) = s;
    return 1;
}

static size_t hilo_gen_moves(const struct zbc_game_state *st,
                             struct zbc_move *out, size_t cap)
{
    return zbc_solo_gen_bytes(&zbc_engine_hilo, st, HILO_DEAL, HILO_CASHOUT, out,
                              cap);
}

/* status u8 | n u8 | won u8 | cashed u8 | value u32 LE | n x (card u8,
 * how u8) */
static size_t hilo_encode(const struct zbc_game_state *st, uint8_t *out,
                          size_t cap)
{
    const struct hilo_state *s = chs(st);
    size_t need = HEAD_BYTES + 2u * s->n;
    if (cap < need)
        return 0;
    out[0] = s->status;
    out[1] = s->n;
    out[2] = s->won;
    out[3] = s->cashed ? 1 : 0;
    zbc_put_le32(out + 4, s->value);
    for (unsigned i = 0; i < s->n; i++) {
        out[HEAD_BYTES + 2 * i] = s->card[i];
        out[HEAD_BYTES + 2 * i + 1] = s->how[i];
    }
    return need;
}

/* The state is the cards and moves: everything else is recomputed and must
 * agree (docs/games.md, "Hilo (type 30)", state bytes). */
static int hilo_decode(struct zbc_game_state *st, const uint8_t *in,
                       size_t len, struct zbc_err *err)
{
    if (len < HEAD_BYTES || in[1] > HILO_CARDS ||
        len != HEAD_BYTES + 2u * in[1])
        return zbc_fail(err, "hilo state: %zu bytes do not fit its card count",
                        len);
    struct hilo_state s;
    memset(&s, 0, sizeof s);
    s.n = in[1];
    s.value = ZBC_FAIR_ONE;
    uint8_t status = s.n == 0 ? HILO_WAITING : HILO_PLAYING;
    for (unsigned i = 0; i < s.n; i++) {
        s.card[i] = in[HEAD_BYTES + 2 * i];
        s.how[i] = in[HEAD_BYTES + 2 * i + 1];
        if (s.card[i] >= HILO_CARDS || (i == 0) != (s.how[i] == HILO_DEAL) ||
            s.how[i] < HILO_DEAL || s.how[i] > HILO_SKIP)
            return zbc_fail(err, "hilo state: card %u or its move is not "
                                 "possible", i + 1);
        if (status != HILO_PLAYING)
            return zbc_fail(err, "hilo state: a card after the end");
        if (i == 0)
            continue;
        uint32_t from = s.card[i - 1] / 4u;
        if ((s.how[i] == HILO_HIGHER || s.how[i] == HILO_LOWER) &&
            winning(s.how[i], from) == 0)
            return zbc_fail(err, "hilo state: card %u answers a guess no rank "
                                 "wins", i + 1);
        bool lost;
        s.value = step_value(s.value, s.how[i], from, s.card[i] / 4u, &lost);
        if (lost)
            status = HILO_BUST;
        else if (s.how[i] != HILO_SKIP)
            s.won++;
        if (!lost && (s.value == HILO_CAP || i + 1 == HILO_CARDS))
            status = HILO_ENDED;
    }
    bool cashed = in[3] == 1;
    if (in[3] > 1 || (cashed && (status != HILO_PLAYING || s.won == 0)))
        return zbc_fail(err, "hilo state: a cash-out that could not happen");
    if (cashed)
        status = HILO_ENDED;
    if (in[0] != status || in[2] != s.won || zbc_get_le32(in + 4) != s.value)
        return zbc_fail(err, "hilo state: status, guesses won or value do not "
                             "follow from the cards");
    s.status = status;
    s.cashed = cashed;
    *hs(st) = s;
    return 1;
}

static uint64_t hilo_value(const struct zbc_game_state *st)
{
    return chs(st)->status == HILO_BUST ? 0 : chs(st)->value;
}

static void card_name(char out[16], uint8_t c)
{
    zbc_fair_card_name(out, 16, c, ZBC_SUITS_BLACKJACK);
}

static const char *how_word(uint8_t how)
{
    static const char *const W[] = {"?", "deal", "higher", "lower", "skip"};
    return how <= HILO_SKIP ? W[how] : "?";
}

static const char *status_word(uint8_t status)
{
    static const char *const W[] = {"waiting", "playing", "bust", "ended"};
    return status <= HILO_ENDED ? W[status] : "unknown";
}

static int hilo_to_json(const struct zbc_game_state *st, char *out,
                        size_t cap)
{
    const struct hilo_state *s = chs(st);
    struct zbc_text tb;
    zbc_text_init(&tb, out, cap);
    char name[16];
    zbc_text_printf(&tb, "{\"game\":\"hilo\",\"status\":\"%s\",\"cards\":[",
                    status_word(s->status));
    for (unsigned i = 0; i < s->n; i++) {
        card_name(name, s->card[i]);
        zbc_text_printf(&tb, "%s{\"card\":\"%s\",\"index\":%u,\"move\":\"%s\"}",
                        i ? "," : "", name, s->card[i], how_word(s->how[i]));
    }
    zbc_text_printf(&tb, "],\"won\":%u,", s->won);
    zbc_solo_json_tail(&tb, hilo_value(st), s->status <= HILO_PLAYING);
    return zbc_text_result(&tb);
}

/* The cards in order with the move that drew each, the current card, the
 * odds of the next guess and the value. */
static int hilo_render(const struct zbc_game_state *st, char *out,
                       size_t cap)
{
    const struct hilo_state *s = chs(st);
    struct zbc_text tb;
    zbc_text_init(&tb, out, cap);
    char name[16];
    uint64_t v = hilo_value(st);
    zbc_text_printf(&tb, "Hilo\n");
    if (s->n == 0) {
        zbc_text_printf(&tb, "no card yet: deal\n");
        return zbc_text_result(&tb);
    }
    for (unsigned i = 0; i < s->n; i++) {
        card_name(name, s->card[i]);
        zbc_text_printf(&tb, "%s[%s]", i ? (s->how[i] == HILO_HIGHER  ? " >"
                                           : s->how[i] == HILO_LOWER ? " <"
                                                                     : " ~")
                                         : "",
                        name);
    }
    zbc_text_printf(&tb, "\n");
    uint32_t r = s->card[s->n - 1] / 4u;
    char hi[32], lo[32], m[32];
    zbc_solo_mult(hi, zbc_hilo_multiplier(winning(HILO_HIGHER, r), HILO_RANKS));
    zbc_solo_mult(lo, zbc_hilo_multiplier(winning(HILO_LOWER, r), HILO_RANKS));
    zbc_solo_mult(m, v);
    if (s->status == HILO_PLAYING)
        zbc_text_printf(&tb, "higher: %u of 13 ranks (x%s), lower: %u of 13 (x%s)\n"
                             "%u guess%s won; cash-out value %sx\n",
                        winning(HILO_HIGHER, r), hi, winning(HILO_LOWER, r), lo, s->won,
                        s->won == 1 ? "" : "es", m);
    else if (s->status == HILO_BUST)
        zbc_text_printf(&tb, "the guess lost: returns 0\n");
    else
        zbc_text_printf(&tb, "%s at %sx\n", s->cashed ? "cashed out" : "ended", m);
    return zbc_text_result(&tb);
}

static const char *const WORDS[] = {NULL, "deal", "higher", "lower", "skip", "cashout"};

static int hilo_parse_move(const struct zbc_game_state *st, uint8_t seat,
                           const char *text, uint8_t *move, size_t cap,
                           size_t *len, struct zbc_err *err)
{
    (void)st;
    (void)seat;
    return zbc_solo_parse_word(text, WORDS, HILO_DEAL, HILO_CASHOUT, move, cap, len,
                               "hilo", "deal, higher, lower, skip or cashout", err);
}

static int hilo_format_move(const struct zbc_game_state *st,
                            const uint8_t *move, size_t len, char *out,
                            size_t cap)
{
    (void)st;
    return zbc_solo_format_word(move, len, WORDS, HILO_DEAL, HILO_CASHOUT, out, cap);
}

static int hilo_params_word(const char *key, const char *value, uint8_t *out,
                            size_t *len, struct zbc_err *err)
{
    return zbc_solo_seed_only_word("hilo", key, value, out, len, err);
}

static int hilo_params_text(const uint8_t *params, size_t len, char *out,
                            size_t cap)
{
    return zbc_solo_seed_text(params, len, out, cap);
}

static uint64_t hilo_max_multiplier(const uint8_t *params, size_t len)
{
    (void)params;
    (void)len;
    return HILO_CAP;
}

static bool hilo_move_draws(const uint8_t *move, size_t len)
{
    return len == 1 && move[0] >= HILO_DEAL && move[0] <= HILO_SKIP;
}

static const struct zbc_solo_ops HILO_SOLO = {
    .max_multiplier = hilo_max_multiplier,
    .value = hilo_value,
    .move_draws = hilo_move_draws,
    .client_seed = zbc_solo_client_seed_0,
};

const struct zbc_engine zbc_engine_hilo = {
    .state_size = sizeof(struct hilo_state),
    .type = 30,
    .name = "hilo",
    .min_seats = 1,
    .max_seats = 1,
    .dice = true,
    .draws_first = false,
    .start_rolls = false,
    .check_params = hilo_check_params,
    .init = hilo_init,
    .turn = hilo_turn,
    .result = hilo_result,
    .check_move = hilo_check_move,
    .apply_move = hilo_apply_move,
    .gen_moves = hilo_gen_moves,
    .encode = hilo_encode,
    .decode = hilo_decode,
    .to_json = hilo_to_json,
    .render = hilo_render,
    .parse_move = hilo_parse_move,
    .format_move = hilo_format_move,
    .params_word = hilo_params_word,
    .params_text = hilo_params_text,
    .solo = &HILO_SOLO,
};
