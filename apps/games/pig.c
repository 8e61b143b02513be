/* Pig (type 33, 2-4 seats, dice): docs/games.md, section "Pig (type 33)".
 *
 * The seat to move rolls a d6 as often as it likes: a 1 loses the turn
 * total and passes the turn; 2-6 add to the turn total.  Hold banks the
 * turn total and passes.  The game is won the moment banked score plus
 * turn total reaches 100 (a roll that gets there banks it at once). */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "apps/engine.h"
#include "apps/notation.h"

/* The descriptor at the end of this file (the shared steps take it). */
extern const struct zbc_engine zbc_engine_pig;

#define PIG_TARGET 100
#define PIG_NONE 0xFF
#define PIG_ROLL 0
#define PIG_HOLD 1

struct pig_state {
    uint8_t seats;
    uint8_t to_move;    /* the seat to act; the winner once the game is over */
    uint8_t winner;     /* PIG_NONE while the game goes on */
    uint8_t turn_total; /* points rolled this turn, not yet banked */
    uint8_t score[ZBC_SEATS_MAX];
    uint8_t last_seat;  /* PIG_NONE before the first move */
    uint8_t last_move;  /* PIG_ROLL or PIG_HOLD */
    uint8_t last_die;   /* 1-6 after a roll, 0 after a hold */
};

_Static_assert(sizeof(struct pig_state) <= ZBC_GAME_STATE_MAX,
               "pig state fits the state buffer");

static const struct pig_state *cpig(const struct zbc_game_state *st)
{
    return (const struct pig_state *)(const void *)st->b;
}

static struct pig_state *pig(struct zbc_game_state *st)
{
    return (struct pig_state *)(void *)st->b;
}

static uint8_t next_seat(const struct pig_state *p, uint8_t s)
{
    return (uint8_t)((s + 1) % p->seats);
}

static int pig_check_params(uint8_t seats, const uint8_t *params, size_t len,
                            struct zbc_err *err)
{
    (void)params;
    if (!zbc_engine_check_seats(&zbc_engine_pig, seats, err))
        return 0;
    if (len != 0)
        return zbc_fail(err, "pig takes no params (got %zu bytes)", len);
    return 1;
}

static int pig_init(struct zbc_game_state *st, uint8_t seats,
                    const uint8_t *params, size_t len, uint8_t first,
                    struct zbc_roll *rolls, struct zbc_err *err)
{
    (void)rolls;
    if (!pig_check_params(seats, params, len, err))
        return 0;
    if (first >= seats)
        return zbc_fail(err, "first seat %u out of range 0-%u",
                        (unsigned)first, (unsigned)(seats - 1));
    struct pig_state p;
    memset(&p, 0, sizeof p);
    p.seats = seats;
    p.to_move = first;
    p.winner = PIG_NONE;
    p.last_seat = PIG_NONE;
    *pig(st) = p;
    return 1;
}

static int pig_turn(const struct zbc_game_state *st)
{
    const struct pig_state *p = cpig(st);
    return p->winner == PIG_NONE ? p->to_move : ZBC_NOBODY;
}

static void pig_result(const struct zbc_game_state *st, struct zbc_result *out)
{
    const struct pig_state *p = cpig(st);
    memset(out, 0, sizeof *out);
    if (p->winner == PIG_NONE) {
        out->kind = ZBC_RESULT_ONGOING;
    } else {
        out->kind = ZBC_RESULT_WIN;
        out->winner = p->winner;
    }
}

static int pig_check_move(const struct zbc_game_state *st, uint8_t seat,
                          const uint8_t *move, size_t len, struct zbc_err *err)
{
    const struct pig_state *p = cpig(st);
    if (!zbc_engine_move_entry(&zbc_engine_pig, pig_turn(st), seat, len, err))
        return 0;
    if (len != 1)
        return zbc_fail(err, "a pig move is one byte (0 roll, 1 hold), got %zu",
                        len);
    if (move[0] == PIG_ROLL)
        return 1;
    if (move[0] == PIG_HOLD) {
        if (p->turn_total == 0)
            return zbc_fail(err, "illegal move: nothing to hold (turn total is 0)");
        return 1;
    }
    return zbc_fail(err, "unknown pig move %u (0 roll, 1 hold)",
                    (unsigned)move[0]);
}

static int pig_apply_move(struct zbc_game_state *st, uint8_t seat,
                          const uint8_t *move, size_t len,
                          struct zbc_roll *rolls, struct zbc_err *err)
{
    if (!pig_check_move(st, seat, move, len, err))
        return 0;
    if (rolls == NULL)
        return zbc_fail(err, "pig moves need a roll stream");
    struct pig_state p = *cpig(st);
    p.last_seat = seat;
    p.last_move = move[0];
    if (move[0] == PIG_HOLD) {
        /* score + turn_total < 100 while the game goes on: no overflow. */
        p.score[seat] = (uint8_t)(p.score[seat] + p.turn_total);
        p.turn_total = 0;
        p.last_die = 0;
        p.to_move = next_seat(&p, seat);
    } else {
        uint8_t d;
        if (!zbc_roll_d6(rolls, &d))
            return zbc_fail(err, "roll stream exhausted");
        p.last_die = d;
        if (d == 1) {
            p.turn_total = 0;
            p.to_move = next_seat(&p, seat);
        } else if (p.score[seat] + p.turn_total + d >= PIG_TARGET) {
            p.score[seat] = (uint8_t)(p.score[seat] + p.turn_total + d);
            p.turn_total = 0;
            p.winner = seat;
        } else {
            p.turn_total = (uint8_t)(p.turn_total + d);
        }
    }
    *pig(st) = p;
    return 1;
}

static size_t pig_gen_moves(const struct zbc_game_state *st,
                            struct zbc_move *out, size_t cap)
{
    const struct pig_state *p = cpig(st);
    size_t n = 0;
    if (p->winner != PIG_NONE)
        return 0;
    if (n < cap) {
        out[n].len = 1;
        out[n].b[0] = PIG_ROLL;
        n++;
    }
    if (p->turn_total > 0 && n < cap) {
        out[n].len = 1;
        out[n].b[0] = PIG_HOLD;
        n++;
    }
    return n;
}

/* Bytes: seats, to_move, winner, turn_total, score[seats], last_seat,
 * last_move, last_die. */
static size_t pig_encode(const struct zbc_game_state *st, uint8_t *out,
                         size_t cap)
{
    const struct pig_state *p = cpig(st);
    size_t need = 4u + p->seats + 3u;
    if (cap < need)
        return 0;
    size_t i = 0;
    out[i++] = p->seats;
    out[i++] = p->to_move;
    out[i++] = p->winner;
    out[i++] = p->turn_total;
    for (uint8_t s = 0; s < p->seats; s++)
        out[i++] = p->score[s];
    out[i++] = p->last_seat;
    out[i++] = p->last_move;
    out[i++] = p->last_die;
    return i;
}

/* The consistency rules a reachable state obeys (docs/games.md, section
 * "Pig (type 33)"). */
static int pig_validate(const struct pig_state *p, struct zbc_err *err)
{
    if (p->seats < 2 || p->seats > 4)
        return zbc_fail(err, "pig state: seats %u out of range 2-4",
                        (unsigned)p->seats);
    if (p->to_move >= p->seats)
        return zbc_fail(err, "pig state: seat to move %u out of range",
                        (unsigned)p->to_move);
    bool over = p->winner != PIG_NONE;
    if (over && p->winner >= p->seats)
        return zbc_fail(err, "pig state: winner %u out of range",
                        (unsigned)p->winner);
    for (uint8_t s = 0; s < p->seats; s++) {
        if (over && s == p->winner) {
            if (p->score[s] < PIG_TARGET || p->score[s] > PIG_TARGET + 5)
                return zbc_fail(err, "pig state: winner's score %u out of range 100-105",
                                (unsigned)p->score[s]);
        } else if (p->score[s] >= PIG_TARGET) {
            return zbc_fail(err, "pig state: seat %u has %u points but did not win",
                            (unsigned)s, (unsigned)p->score[s]);
        }
    }
    if (over) {
        if (p->to_move != p->winner || p->turn_total != 0)
            return zbc_fail(err, "pig state: a finished game has the winner to move and no turn total");
        if (p->last_seat != p->winner || p->last_move != PIG_ROLL ||
            p->last_die < 2 || p->last_die > 6)
            return zbc_fail(err, "pig state: a game is won only by the winner's roll of 2-6");
        return 1;
    }
    if (p->score[p->to_move] + p->turn_total >= PIG_TARGET)
        return zbc_fail(err, "pig state: banked score plus turn total reaches 100 but nobody won");
    if (p->turn_total == 1)
        return zbc_fail(err, "pig state: a turn total of 1 cannot be rolled");
    if (p->last_seat == PIG_NONE) {
        if (p->last_move != 0 || p->last_die != 0 || p->turn_total != 0)
            return zbc_fail(err, "pig state: no last move but a turn total or last-move fields set");
        for (uint8_t s = 0; s < p->seats; s++)
            if (p->score[s] != 0)
                return zbc_fail(err, "pig state: scores before the first move must be 0");
        return 1;
    }
    if (p->last_seat >= p->seats)
        return zbc_fail(err, "pig state: last seat %u out of range",
                        (unsigned)p->last_seat);
    switch (p->last_move) {
    case PIG_HOLD:
        if (p->last_die != 0 || p->turn_total != 0 ||
            p->to_move != next_seat(p, p->last_seat))
            return zbc_fail(err, "pig state: after a hold the next seat moves with no turn total");
        return 1;
    case PIG_ROLL:
        if (p->last_die < 1 || p->last_die > 6)
            return zbc_fail(err, "pig state: last die %u out of range 1-6",
                            (unsigned)p->last_die);
        if (p->last_die == 1) {
            if (p->turn_total != 0 || p->to_move != next_seat(p, p->last_seat))
                return zbc_fail(err, "pig state: after a 1 the next seat moves with no turn total");
        } else if (p->to_move != p->last_seat || p->turn_total < p->last_die) {
            return zbc_fail(err, "pig state: after a roll of 2-6 the roller keeps the turn with at least that total");
        }
        return 1;
    default:
        return zbc_fail(err, "pig state: last move %u is not roll or hold",
                        (unsigned)p->last_move);
    }
}

static int pig_decode(struct zbc_game_state *st, const uint8_t *in, size_t len,
                      struct zbc_err *err)
{
    if (len < 1)
        return zbc_fail(err, "pig state: empty");
    struct pig_state p;
    memset(&p, 0, sizeof p);
    p.seats = in[0];
    if (p.seats < 2 || p.seats > 4)
        return zbc_fail(err, "pig state: seats %u out of range 2-4",
                        (unsigned)p.seats);
    size_t need = 4u + p.seats + 3u;
    if (len != need)
        return zbc_fail(err, "pig state: %zu bytes, want %zu for %u seats",
                        len, need, (unsigned)p.seats);
    size_t i = 1;
    p.to_move = in[i++];
    p.winner = in[i++];
    p.turn_total = in[i++];
    for (uint8_t s = 0; s < p.seats; s++)
        p.score[s] = in[i++];
    p.last_seat = in[i++];
    p.last_move = in[i++];
    p.last_die = in[i++];
    if (!pig_validate(&p, err))
        return 0;
    *pig(st) = p;
    return 1;
}

static int pig_to_json(const struct zbc_game_state *st, char *out, size_t cap)
{
    const struct pig_state *p = cpig(st);
    struct zbc_text tb;
    zbc_text_init(&tb, out, cap);
    zbc_text_printf(&tb, "{\"game\":\"pig\",\"seats\":%u,\"target\":%d,\"scores\":[",
               (unsigned)p->seats, PIG_TARGET);
    for (uint8_t s = 0; s < p->seats; s++)
        zbc_text_printf(&tb, "%s%u", s ? "," : "", (unsigned)p->score[s]);
    zbc_text_printf(&tb, "],\"turn_total\":%u,", (unsigned)p->turn_total);
    if (p->winner == PIG_NONE)
        zbc_text_printf(&tb, "\"turn\":%u,", (unsigned)p->to_move);
    else
        zbc_text_printf(&tb, "\"turn\":null,");
    if (p->last_seat == PIG_NONE)
        zbc_text_printf(&tb, "\"last\":null,");
    else if (p->last_move == PIG_ROLL)
        zbc_text_printf(&tb, "\"last\":{\"seat\":%u,\"move\":\"roll\",\"die\":%u},",
                   (unsigned)p->last_seat, (unsigned)p->last_die);
    else
        zbc_text_printf(&tb, "\"last\":{\"seat\":%u,\"move\":\"hold\"},",
                   (unsigned)p->last_seat);
    if (p->winner == PIG_NONE)
        zbc_text_printf(&tb, "\"result\":\"ongoing\",\"winner\":null}");
    else
        zbc_text_printf(&tb, "\"result\":\"win\",\"winner\":%u}",
                   (unsigned)p->winner);
    return zbc_text_result(&tb);
}

static int pig_render(const struct zbc_game_state *st, char *out, size_t cap)
{
    const struct pig_state *p = cpig(st);
    struct zbc_text tb;
    zbc_text_init(&tb, out, cap);
    zbc_text_printf(&tb, "Pig, first to %d\n", PIG_TARGET);
    for (uint8_t s = 0; s < p->seats; s++) {
        zbc_text_printf(&tb, "  seat %u: %3u", (unsigned)s, (unsigned)p->score[s]);
        if (p->winner == s)
            zbc_text_printf(&tb, "  WINNER");
        else if (p->winner == PIG_NONE && p->to_move == s)
            zbc_text_printf(&tb, "  <- to move, turn total %u",
                       (unsigned)p->turn_total);
        zbc_text_printf(&tb, "\n");
    }
    if (p->last_seat != PIG_NONE) {
        if (p->last_move == PIG_ROLL)
            zbc_text_printf(&tb, "last: seat %u rolled %u\n",
                       (unsigned)p->last_seat, (unsigned)p->last_die);
        else
            zbc_text_printf(&tb, "last: seat %u held\n", (unsigned)p->last_seat);
    }
    return zbc_text_result(&tb);
}

/* Compares text to a word, ignoring surrounding spaces. */
static bool word_is(const char *text, const char *word)
{
    while (*text == ' ' || *text == '\t')
        text++;
    size_t n = strlen(word);
    if (strncmp(text, word, n) != 0)
        return false;
    text += n;
    while (*text == ' ' || *text == '\t' || *text == '\n' || *text == '\r')
        text++;
    return *text == '\0';
}

static int pig_parse_move(const struct zbc_game_state *st, uint8_t seat,
                          const char *text, uint8_t *move, size_t cap,
                          size_t *len, struct zbc_err *err)
{
    (void)st;
    (void)seat;
    if (cap < 1)
        return zbc_fail(err, "move buffer too small");
    if (word_is(text, "roll"))
        move[0] = PIG_ROLL;
    else if (word_is(text, "hold"))
        move[0] = PIG_HOLD;
    else
        return zbc_fail(err, "pig moves are \"roll\" or \"hold\", not \"%.40s\"",
                        text);
    *len = 1;
    return 1;
}

static int pig_format_move(const struct zbc_game_state *st, const uint8_t *move,
                           size_t len, char *out, size_t cap)
{
    (void)st;
    struct zbc_text tb;
    zbc_text_init(&tb, out, cap);
    if (len != 1 || move[0] > PIG_HOLD)
        return 0;
    zbc_text_printf(&tb, "%s", move[0] == PIG_ROLL ? "roll" : "hold");
    return zbc_text_result(&tb) >= 0;
}

/* Eval (docs/games.md, "Machine opponents"): banked points of `seat`
 * minus the best other seat's, counting the turn total for the seat that
 * holds it.  Averaged over rolls one ply ahead, rolling gains 5/6 of 4 and
 * risks 1/6 of the turn total t: the search holds from t = 20 on. */
static int32_t pig_eval(const struct zbc_game_state *st, uint8_t seat)
{
    const struct pig_state *p = cpig(st);
    int32_t other = 0, mine = 0;
    for (uint8_t s = 0; s < p->seats && s < ZBC_SEATS_MAX; s++) {
        int32_t v = p->score[s] + (s == p->to_move ? p->turn_total : 0);
        if (s == seat)
            mine = v;
        else if (v > other)
            other = v;
    }
    return 100 * (mine - other);
}

const struct zbc_engine zbc_engine_pig = {
    .state_size = sizeof(struct pig_state),
    .type = 33,
    .name = "pig",
    .min_seats = 2,
    .max_seats = 4,
    .dice = true,
    .draws_first = true,
    .start_rolls = false,
    .check_params = pig_check_params,
    .init = pig_init,
    .turn = pig_turn,
    .result = pig_result,
    .check_move = pig_check_move,
    .apply_move = pig_apply_move,
    .gen_moves = pig_gen_moves,
    .encode = pig_encode,
    .decode = pig_decode,
    .to_json = pig_to_json,
    .render = pig_render,
    .parse_move = pig_parse_move,
    .format_move = pig_format_move,
    .eval = pig_eval,
};
