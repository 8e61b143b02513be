/* Ludo (type 32, 2-4 seats, dice): docs/games.md, section "Ludo (type 32)".
 *
 * Four tokens per seat.  A token's progress is 0 in the yard, 1-51 on the
 * 52-square track (progress 1 = the seat's start square), 52-56 in its
 * home column and 57 home.  A move names a preference order of the four
 * tokens; the engine rolls one d6 and moves the first token in that order
 * that can legally move.  A 6 enters a yard token and grants another roll;
 * landing on a lone opponent token off a safe square sends it back to its
 * yard; the exact roll is needed to reach home; all four home wins. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "apps/engine.h"
#include "apps/notation.h"

/* The descriptor at the end of this file (the shared steps take it). */
extern const struct zbc_engine zbc_engine_ludo;

#define NONE 0xFF
#define TOKENS 4
#define TRACK 52
#define LAST_TRACK 51 /* highest progress on the track */
#define HOME 57       /* progress of a token that is home */
#define MOVE_LEN 4

struct ludo_state {
    uint8_t seats;
    uint8_t to_move; /* the winner once over */
    uint8_t winner;  /* NONE while the game goes on */
    uint8_t tok[ZBC_SEATS_MAX][TOKENS]; /* progress 0-57 */
    /* the last move (last_seat NONE before the first) */
    uint8_t last_seat, last_die, last_token, last_from;
    uint8_t cap_seat, cap_token; /* token sent to its yard, or NONE NONE */
};

_Static_assert(sizeof(struct ludo_state) <= ZBC_GAME_STATE_MAX,
               "ludo state fits the state buffer");

static const struct ludo_state *cludo(const struct zbc_game_state *st)
{
    return (const struct ludo_state *)(const void *)st->b;
}

static struct ludo_state *ludo(struct zbc_game_state *st)
{
    return (struct ludo_state *)(void *)st->b;
}

/* Start square of a seat: the four colours sit 13 squares apart; with two
 * seats they sit opposite each other (0 and 26). */
static unsigned start_square(uint8_t seats, uint8_t seat)
{
    return seats == 2 ? 26u * seat : 13u * seat;
}

/* Start squares of all four colours and the stars 8 squares after them. */
static bool safe_square(unsigned sq)
{
    return sq % 13 == 0 || sq % 13 == 8;
}

/* Absolute track square of progress p (1-51) of a seat. */
static unsigned track_square(uint8_t seats, uint8_t seat, uint8_t p)
{
    return (start_square(seats, seat) + p - 1u) % TRACK;
}

/* Where a token at progress p goes with die d, or NONE if it cannot. */
static uint8_t target(uint8_t p, uint8_t d)
{
    if (p == 0)
        return d == 6 ? 1 : NONE;
    if (p >= HOME || p + d > HOME)
        return NONE;
    return (uint8_t)(p + d);
}

static uint8_t next_seat(const struct ludo_state *s, uint8_t seat)
{
    return (uint8_t)((seat + 1) % s->seats);
}

/* Tokens of seats other than `seat` on absolute track square sq. */
static unsigned others_on(const struct ludo_state *s, uint8_t seat,
                          unsigned sq)
{
    unsigned n = 0;
    for (uint8_t o = 0; o < s->seats; o++)
        for (int t = 0; o != seat && t < TOKENS; t++)
            if (s->tok[o][t] >= 1 && s->tok[o][t] <= LAST_TRACK &&
                track_square(s->seats, o, s->tok[o][t]) == sq)
                n++;
    return n;
}

static bool all_home(const struct ludo_state *s, uint8_t seat)
{
    for (int t = 0; t < TOKENS; t++)
        if (s->tok[seat][t] != HOME)
            return false;
    return true;
}

static int ludo_check_params(uint8_t seats, const uint8_t *params, size_t len,
                             struct zbc_err *err)
{
    (void)params;
    if (!zbc_engine_check_seats(&zbc_engine_ludo, seats, err))
        return 0;
    if (len != 0)
        return zbc_fail(err, "ludo takes no params (got %zu bytes)", len);
    return 1;
}

static int ludo_init(struct zbc_game_state *st, uint8_t seats,
                     const uint8_t *params, size_t len, uint8_t first,
                     struct zbc_roll *rolls, struct zbc_err *err)
{
    (void)rolls;
    if (!ludo_check_params(seats, params, len, err))
        return 0;
    if (first >= seats)
        return zbc_fail(err, "first seat %u out of range 0-%u",
                        (unsigned)first, (unsigned)(seats - 1));
    struct ludo_state s;
    memset(&s, 0, sizeof s);
    s.seats = seats;
    s.to_move = first;
    s.winner = NONE;
    s.last_seat = NONE;
    s.last_token = NONE;
    s.cap_seat = NONE;
    s.cap_token = NONE;
    *ludo(st) = s;
    return 1;
}

static int ludo_turn(const struct zbc_game_state *st)
{
    const struct ludo_state *s = cludo(st);
    return s->winner == NONE ? s->to_move : ZBC_NOBODY;
}

static void ludo_result(const struct zbc_game_state *st,
                        struct zbc_result *out)
{
    const struct ludo_state *s = cludo(st);
    memset(out, 0, sizeof *out);
    if (s->winner == NONE) {
        out->kind = ZBC_RESULT_ONGOING;
    } else {
        out->kind = ZBC_RESULT_WIN;
        out->winner = s->winner;
    }
}

static int ludo_check_move(const struct zbc_game_state *st, uint8_t seat,
                           const uint8_t *move, size_t len,
                           struct zbc_err *err)
{
    if (!zbc_engine_move_entry(&zbc_engine_ludo, ludo_turn(st), seat, len, err))
        return 0;
    if (len != MOVE_LEN)
        return zbc_fail(err, "a ludo move is 4 bytes (token order), got %zu",
                        len);
    unsigned seen = 0;
    for (int i = 0; i < MOVE_LEN; i++) {
        if (move[i] >= TOKENS || (seen & (1u << move[i])))
            return zbc_fail(err, "the token order %u %u %u %u is not a permutation of 0-3",
                            (unsigned)move[0], (unsigned)move[1],
                            (unsigned)move[2], (unsigned)move[3]);
        seen |= 1u << move[i];
    }
    return 1;
}

static int ludo_apply_move(struct zbc_game_state *st, uint8_t seat,
                           const uint8_t *move, size_t len,
                           struct zbc_roll *rolls, struct zbc_err *err)
{
    if (!ludo_check_move(st, seat, move, len, err))
        return 0;
    if (rolls == NULL)
        return zbc_fail(err, "ludo moves need a roll stream");
    uint8_t d;
    if (!zbc_roll_d6(rolls, &d))
        return zbc_fail(err, "roll stream exhausted");
    struct ludo_state s = *cludo(st);
    s.last_seat = seat;
    s.last_die = d;
    s.last_token = NONE;
    s.last_from = 0;
    s.cap_seat = NONE;
    s.cap_token = NONE;
    for (int i = 0; i < MOVE_LEN; i++) {
        uint8_t t = move[i];
        uint8_t to = target(s.tok[seat][t], d);
        if (to == NONE)
            continue;
        s.last_token = t;
        s.last_from = s.tok[seat][t];
        s.tok[seat][t] = to;
        if (to <= LAST_TRACK) {
            unsigned sq = track_square(s.seats, seat, to);
            if (!safe_square(sq) && others_on(&s, seat, sq) == 1) {
                for (uint8_t o = 0; o < s.seats; o++)
                    for (uint8_t k = 0; o != seat && k < TOKENS; k++)
                        if (s.tok[o][k] >= 1 && s.tok[o][k] <= LAST_TRACK &&
                            track_square(s.seats, o, s.tok[o][k]) == sq) {
                            s.tok[o][k] = 0;
                            s.cap_seat = o;
                            s.cap_token = k;
                        }
            }
        }
        break;
    }
    if (all_home(&s, seat))
        s.winner = seat;
    else if (d != 6)
        s.to_move = next_seat(&s, seat);
    *ludo(st) = s;
    return 1;
}

/* The 24 orders in lexicographic order. */
static size_t ludo_gen_moves(const struct zbc_game_state *st,
                             struct zbc_move *out, size_t cap)
{
    if (cludo(st)->winner != NONE)
        return 0;
    size_t n = 0;
    for (uint8_t a = 0; a < 4; a++)
        for (uint8_t b = 0; b < 4; b++)
            for (uint8_t c = 0; c < 4; c++) {
                if (a == b || a == c || b == c)
                    continue;
                if (n == cap)
                    return n;
                out[n].len = MOVE_LEN;
                out[n].b[0] = a;
                out[n].b[1] = b;
                out[n].b[2] = c;
                out[n].b[3] = (uint8_t)(6 - a - b - c);
                n++;
            }
    return n;
}

/* Bytes: seats, to_move, winner, tok[seats][4], last_seat, last_die,
 * last_token, last_from, cap_seat, cap_token. */
static size_t state_len(uint8_t seats)
{
    return 3u + (size_t)seats * TOKENS + 6u;
}

static size_t ludo_encode(const struct zbc_game_state *st, uint8_t *out,
                          size_t cap)
{
    const struct ludo_state *s = cludo(st);
    size_t need = state_len(s->seats);
    if (cap < need)
        return 0;
    size_t i = 0;
    out[i++] = s->seats;
    out[i++] = s->to_move;
    out[i++] = s->winner;
    for (uint8_t p = 0; p < s->seats; p++)
        for (int t = 0; t < TOKENS; t++)
            out[i++] = s->tok[p][t];
    out[i++] = s->last_seat;
    out[i++] = s->last_die;
    out[i++] = s->last_token;
    out[i++] = s->last_from;
    out[i++] = s->cap_seat;
    out[i++] = s->cap_token;
    return i;
}

static int validate_last(const struct ludo_state *s, struct zbc_err *err)
{
    uint8_t ls = s->last_seat, d = s->last_die;
    if (ls >= s->seats)
        return zbc_fail(err, "ludo state: last seat %u out of range",
                        (unsigned)ls);
    if (d < 1 || d > 6)
        return zbc_fail(err, "ludo state: last die %u out of range 1-6",
                        (unsigned)d);
    if (s->last_token == NONE) {
        if (s->last_from != 0 || s->cap_seat != NONE)
            return zbc_fail(err, "ludo state: no token moved but a start square or capture is set");
        for (int t = 0; t < TOKENS; t++)
            if (target(s->tok[ls][t], d) != NONE)
                return zbc_fail(err, "ludo state: no token moved although token %d could", t);
        return 1;
    }
    if (s->last_token >= TOKENS)
        return zbc_fail(err, "ludo state: last token %u out of range",
                        (unsigned)s->last_token);
    uint8_t to = target(s->last_from, d);
    if (to == NONE || s->tok[ls][s->last_token] != to)
        return zbc_fail(err, "ludo state: the last roll does not take the last token from %u to where it is",
                        (unsigned)s->last_from);
    bool on_open_track = to <= LAST_TRACK &&
                         !safe_square(track_square(s->seats, ls, to));
    unsigned sq = to <= LAST_TRACK ? track_square(s->seats, ls, to) : 0;
    if (s->cap_seat == NONE) {
        if (s->cap_token != NONE)
            return zbc_fail(err, "ludo state: a captured token without a seat");
        if (on_open_track && others_on(s, ls, sq) == 1)
            return zbc_fail(err, "ludo state: a lone token on the last mover's square was not captured");
        return 1;
    }
    if (s->cap_seat >= s->seats || s->cap_seat == ls ||
        s->cap_token >= TOKENS || s->tok[s->cap_seat][s->cap_token] != 0 ||
        !on_open_track || others_on(s, ls, sq) != 0)
        return zbc_fail(err, "ludo state: the capture does not fit the last move");
    return 1;
}

static int ludo_validate(const struct ludo_state *s, struct zbc_err *err)
{
    if (s->seats < 2 || s->seats > 4)
        return zbc_fail(err, "ludo state: seats %u out of range 2-4",
                        (unsigned)s->seats);
    if (s->to_move >= s->seats)
        return zbc_fail(err, "ludo state: seat to move %u out of range",
                        (unsigned)s->to_move);
    for (uint8_t p = 0; p < s->seats; p++)
        for (int t = 0; t < TOKENS; t++)
            if (s->tok[p][t] > HOME)
                return zbc_fail(err, "ludo state: seat %u token %d progress %u above 57",
                                (unsigned)p, t, (unsigned)s->tok[p][t]);
    bool over = s->winner != NONE;
    if (over && s->winner >= s->seats)
        return zbc_fail(err, "ludo state: winner %u out of range",
                        (unsigned)s->winner);
    for (uint8_t p = 0; p < s->seats; p++)
        if (all_home(s, p) != (over && p == s->winner))
            return zbc_fail(err, "ludo state: exactly the winner has all four tokens home");
    if (s->last_seat == NONE) {
        if (s->last_die != 0 || s->last_token != NONE || s->last_from != 0 ||
            s->cap_seat != NONE || s->cap_token != NONE)
            return zbc_fail(err, "ludo state: last-move fields set before the first move");
        for (uint8_t p = 0; p < s->seats; p++)
            for (int t = 0; t < TOKENS; t++)
                if (s->tok[p][t] != 0)
                    return zbc_fail(err, "ludo state: a token left its yard before the first move");
        return 1;
    }
    if (!validate_last(s, err))
        return 0;
    if (over) {
        if (s->to_move != s->winner || s->last_seat != s->winner ||
            s->last_token == NONE)
            return zbc_fail(err, "ludo state: the winner must have made the last move and be to move");
    } else if (s->to_move != (s->last_die == 6 ? s->last_seat
                                                : next_seat(s, s->last_seat))) {
        return zbc_fail(err, "ludo state: the turn does not follow the last roll");
    }
    return 1;
}

static int ludo_decode(struct zbc_game_state *st, const uint8_t *in,
                       size_t len, struct zbc_err *err)
{
    if (len < 1)
        return zbc_fail(err, "ludo state: empty");
    struct ludo_state s;
    memset(&s, 0, sizeof s);
    s.seats = in[0];
    if (s.seats < 2 || s.seats > 4)
        return zbc_fail(err, "ludo state: seats %u out of range 2-4",
                        (unsigned)s.seats);
    if (len != state_len(s.seats))
        return zbc_fail(err, "ludo state: %zu bytes, want %zu for %u seats",
                        len, state_len(s.seats), (unsigned)s.seats);
    size_t i = 1;
    s.to_move = in[i++];
    s.winner = in[i++];
    for (uint8_t p = 0; p < s.seats; p++)
        for (int t = 0; t < TOKENS; t++)
            s.tok[p][t] = in[i++];
    s.last_seat = in[i++];
    s.last_die = in[i++];
    s.last_token = in[i++];
    s.last_from = in[i++];
    s.cap_seat = in[i++];
    s.cap_token = in[i++];
    if (!ludo_validate(&s, err))
        return 0;
    *ludo(st) = s;
    return 1;
}

static int ludo_to_json(const struct zbc_game_state *st, char *out,
                        size_t cap)
{
    const struct ludo_state *s = cludo(st);
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    zbc_text_printf(&t, "{\"game\":\"ludo\",\"seats\":%u,\"starts\":[",
                    (unsigned)s->seats);
    for (uint8_t p = 0; p < s->seats; p++)
        zbc_text_printf(&t, "%s%u", p ? "," : "", start_square(s->seats, p));
    zbc_text_printf(&t, "],\"safe\":[0,8,13,21,26,34,39,47],\"progress\":[");
    for (uint8_t p = 0; p < s->seats; p++) {
        zbc_text_printf(&t, "%s[", p ? "," : "");
        for (int k = 0; k < TOKENS; k++)
            zbc_text_printf(&t, "%s%u", k ? "," : "", (unsigned)s->tok[p][k]);
        zbc_text_printf(&t, "]");
    }
    zbc_text_printf(&t, "],\"squares\":[");
    for (uint8_t p = 0; p < s->seats; p++) {
        zbc_text_printf(&t, "%s[", p ? "," : "");
        for (int k = 0; k < TOKENS; k++) {
            uint8_t v = s->tok[p][k];
            if (v >= 1 && v <= LAST_TRACK)
                zbc_text_printf(&t, "%s%u", k ? "," : "",
                                track_square(s->seats, p, v));
            else
                zbc_text_printf(&t, "%snull", k ? "," : "");
        }
        zbc_text_printf(&t, "]");
    }
    zbc_text_printf(&t, "],");
    if (s->winner == NONE)
        zbc_text_printf(&t, "\"turn\":%u,", (unsigned)s->to_move);
    else
        zbc_text_printf(&t, "\"turn\":null,");
    if (s->last_seat == NONE) {
        zbc_text_printf(&t, "\"last\":null,");
    } else {
        zbc_text_printf(&t, "\"last\":{\"seat\":%u,\"die\":%u,",
                        (unsigned)s->last_seat, (unsigned)s->last_die);
        if (s->last_token == NONE)
            zbc_text_printf(&t, "\"token\":null,\"from\":null,\"to\":null,");
        else
            zbc_text_printf(&t, "\"token\":%u,\"from\":%u,\"to\":%u,",
                            (unsigned)s->last_token, (unsigned)s->last_from,
                            (unsigned)s->tok[s->last_seat][s->last_token]);
        if (s->cap_seat == NONE)
            zbc_text_printf(&t, "\"captured\":null},");
        else
            zbc_text_printf(&t, "\"captured\":{\"seat\":%u,\"token\":%u}},",
                            (unsigned)s->cap_seat, (unsigned)s->cap_token);
    }
    if (s->winner == NONE)
        zbc_text_printf(&t, "\"result\":\"ongoing\",\"winner\":null}");
    else
        zbc_text_printf(&t, "\"result\":\"win\",\"winner\":%u}",
                        (unsigned)s->winner);
    return zbc_text_result(&t);
}

/* Where a token is, in words: "yard", "sq 14", "home 3", "done". */
static void where(struct zbc_text *t, const struct ludo_state *s, uint8_t seat,
                  uint8_t p)
{
    if (p == 0)
        zbc_text_printf(t, "yard");
    else if (p <= LAST_TRACK)
        zbc_text_printf(t, "sq %u", track_square(s->seats, seat, p));
    else if (p < HOME)
        zbc_text_printf(t, "home %u", (unsigned)(p - LAST_TRACK));
    else
        zbc_text_printf(t, "done");
}

static int ludo_render(const struct zbc_game_state *st, char *out, size_t cap)
{
    const struct ludo_state *s = cludo(st);
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    zbc_text_printf(&t, "Ludo: track squares 0-51 (* safe, digit = seat, + = several seats)\n");
    zbc_text_printf(&t, "     ");
    for (unsigned sq = 0; sq <= 50; sq++) /* tens digit of each ten */
        zbc_text_printf(&t, "%c", sq % 10 == 0 ? (char)('0' + sq / 10) : ' ');
    zbc_text_printf(&t, "\n     ");
    for (unsigned sq = 0; sq < TRACK; sq++)
        zbc_text_printf(&t, "%u", sq % 10);
    zbc_text_printf(&t, "\n     ");
    for (unsigned sq = 0; sq < TRACK; sq++) {
        char c = safe_square(sq) ? '*' : '.';
        int who = -1;
        for (uint8_t p = 0; p < s->seats; p++)
            for (int k = 0; k < TOKENS; k++) {
                uint8_t v = s->tok[p][k];
                if (v >= 1 && v <= LAST_TRACK &&
                    track_square(s->seats, p, v) == sq)
                    who = who == -1 || who == p ? p : 9;
            }
        if (who == 9)
            c = '+';
        else if (who >= 0)
            c = (char)('0' + who);
        zbc_text_printf(&t, "%c", c);
    }
    zbc_text_printf(&t, "\n");
    for (uint8_t p = 0; p < s->seats; p++) {
        zbc_text_printf(&t, "seat %u (start %2u):", (unsigned)p,
                        start_square(s->seats, p));
        for (uint8_t k = 0; k < TOKENS; k++) {
            zbc_text_printf(&t, " %u=", (unsigned)k);
            where(&t, s, p, s->tok[p][k]);
        }
        if (s->winner == p)
            zbc_text_printf(&t, "  WINNER");
        else if (s->winner == NONE && s->to_move == p)
            zbc_text_printf(&t, "  <- to move");
        zbc_text_printf(&t, "\n");
    }
    if (s->last_seat != NONE) {
        zbc_text_printf(&t, "last: seat %u rolled %u: ", (unsigned)s->last_seat,
                        (unsigned)s->last_die);
        if (s->last_token == NONE) {
            zbc_text_printf(&t, "no token could move");
        } else {
            zbc_text_printf(&t, "token %u ", (unsigned)s->last_token);
            where(&t, s, s->last_seat, s->last_from);
            zbc_text_printf(&t, " -> ");
            where(&t, s, s->last_seat, s->tok[s->last_seat][s->last_token]);
            if (s->cap_seat != NONE)
                zbc_text_printf(&t, ", sent seat %u token %u to its yard",
                                (unsigned)s->cap_seat, (unsigned)s->cap_token);
        }
        if (s->winner == NONE && s->last_die == 6)
            zbc_text_printf(&t, " (rolls again)");
        zbc_text_printf(&t, "\n");
    }
    return zbc_text_result(&t);
}

static int ludo_parse_move(const struct zbc_game_state *st, uint8_t seat,
                           const char *text, uint8_t *move, size_t cap,
                           size_t *len, struct zbc_err *err)
{
    (void)st;
    (void)seat;
    struct zbc_tokens tk;
    if (!zbc_notation_tokens(&tk, text, err))
        return 0;
    if (tk.count != 2 || strcmp(tk.tok[0], "order") != 0 ||
        strlen(tk.tok[1]) != MOVE_LEN)
        return zbc_fail(err, "a ludo move is \"order\" and four token numbers 0-3, like \"order 2013\"");
    if (cap < MOVE_LEN)
        return zbc_fail(err, "move buffer too small");
    unsigned seen = 0;
    uint8_t m[MOVE_LEN];
    for (int i = 0; i < MOVE_LEN; i++) {
        char c = tk.tok[1][i];
        if (c < '0' || c > '3' || (seen & (1u << (c - '0'))))
            return zbc_fail(err, "\"%s\" is not an order of the tokens 0-3",
                            tk.tok[1]);
        seen |= 1u << (c - '0');
        m[i] = (uint8_t)(c - '0');
    }
    memcpy(move, m, MOVE_LEN);
    *len = MOVE_LEN;
    return 1;
}

static int ludo_format_move(const struct zbc_game_state *st,
                            const uint8_t *move, size_t len, char *out,
                            size_t cap)
{
    (void)st;
    unsigned seen = 0;
    if (len != MOVE_LEN)
        return 0;
    for (int i = 0; i < MOVE_LEN; i++) {
        if (move[i] >= TOKENS || (seen & (1u << move[i])))
            return 0;
        seen |= 1u << move[i];
    }
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    zbc_text_printf(&t, "order %u%u%u%u", (unsigned)move[0], (unsigned)move[1],
                    (unsigned)move[2], (unsigned)move[3]);
    return zbc_text_result(&t) >= 0;
}

const struct zbc_engine zbc_engine_ludo = {
    .state_size = sizeof(struct ludo_state),
    .type = 32,
    .name = "ludo",
    .min_seats = 2,
    .max_seats = 4,
    .dice = true,
    .draws_first = true,
    .start_rolls = false,
    .check_params = ludo_check_params,
    .init = ludo_init,
    .turn = ludo_turn,
    .result = ludo_result,
    .check_move = ludo_check_move,
    .apply_move = ludo_apply_move,
    .gen_moves = ludo_gen_moves,
    .encode = ludo_encode,
    .decode = ludo_decode,
    .to_json = ludo_to_json,
    .render = ludo_render,
    .parse_move = ludo_parse_move,
    .format_move = ludo_format_move,
};
