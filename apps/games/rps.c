/* Rock-paper-scissors (type 9, 2 seats, commit-reveal): docs/games.md,
 * section "Rock-paper-scissors (type 9)".
 *
 * Every round: the first seat commits H(choice || salt), then the other;
 * then the first seat reveals choice || salt, then the other.  Rock beats
 * scissors, scissors beats paper, paper beats rock; a tied round is
 * replayed.  The first seat to win N rounds (param, 1-5) wins. */
#include "apps/games/rps.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "apps/engine.h"
#include "apps/notation.h"
#include "crypto/hash.h"
#include "crypto/hex.h"

/* The descriptor at the end of this file (the shared steps take it). */
extern const struct zbc_engine zbc_engine_rps;

#define NONE 0xFF
#define SALT_LEN ZBC_RPS_SALT_LEN
#define TAG_COMMIT 0
#define TAG_REVEAL 1
#define COMMIT_LEN 33
#define REVEAL_LEN (2 + SALT_LEN)
#define N_DEFAULT 1
#define N_MAX 5

enum rps_phase {
    RPS_COMMIT = 0,
    RPS_REVEAL = 1,
    RPS_OVER = 2,
};

struct rps_state {
    uint8_t target;  /* N: round wins needed */
    uint8_t first;   /* the seat that commits and reveals first each round */
    uint8_t phase;   /* enum rps_phase */
    uint8_t to_move; /* the winner once over */
    uint8_t winner;  /* NONE unless over */
    uint8_t wins[2];
    uint8_t choice[2]; /* revealed this round, 0 = not yet */
    uint8_t last[2];   /* choices of the last decided or tied round, 0 = none */
    uint8_t commit[2][32]; /* this round's commitments, zero = not yet */
};

_Static_assert(sizeof(struct rps_state) <= ZBC_GAME_STATE_MAX,
               "rps state fits the state buffer");

#define STATE_BYTES (11 + 64)

static const struct rps_state *crps(const struct zbc_game_state *st)
{
    return (const struct rps_state *)(const void *)st->b;
}

static struct rps_state *rps(struct zbc_game_state *st)
{
    return (struct rps_state *)(void *)st->b;
}

static const char *choice_name(uint8_t c)
{
    switch (c) {
    case ZBC_RPS_ROCK:
        return "rock";
    case ZBC_RPS_SCISSORS:
        return "scissors";
    case ZBC_RPS_PAPER:
        return "paper";
    default:
        return NULL;
    }
}

/* Seat that wins a round with choices a (seat 0) and b (seat 1), or NONE
 * for a tie.  a beats b when b == a % 3 + 1 (rock 1 > scissors 2 > paper 3
 * > rock 1). */
static uint8_t round_winner(uint8_t a, uint8_t b)
{
    if (a == b)
        return NONE;
    return b == a % 3 + 1 ? 0 : 1;
}

static bool is_zero(const uint8_t *p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc |= p[i];
    return acc == 0;
}

int zbc_rps_commitment(uint8_t out[32], uint8_t choice,
                       const uint8_t salt[SALT_LEN], struct zbc_err *err)
{
    if (choice_name(choice) == NULL)
        return zbc_fail(err, "choice %u is not 1 rock, 2 scissors or 3 paper",
                        (unsigned)choice);
    uint8_t buf[1 + SALT_LEN];
    buf[0] = choice;
    memcpy(buf + 1, salt, SALT_LEN);
    zbc_sha3_256(out, buf, sizeof buf);
    return 1;
}

static int rps_check_params(uint8_t seats, const uint8_t *params, size_t len,
                            struct zbc_err *err)
{
    if (!zbc_engine_check_seats(&zbc_engine_rps, seats, err))
        return 0;
    if (len > 1)
        return zbc_fail(err, "rock-paper-scissors params are one byte (rounds to win), got %zu bytes",
                        len);
    if (len == 1 && (params[0] < 1 || params[0] > N_MAX))
        return zbc_fail(err, "rounds to win %u out of range 1-5",
                        (unsigned)params[0]);
    return 1;
}

static int rps_init(struct zbc_game_state *st, uint8_t seats,
                    const uint8_t *params, size_t len, uint8_t first,
                    struct zbc_roll *rolls, struct zbc_err *err)
{
    (void)rolls;
    if (!rps_check_params(seats, params, len, err))
        return 0;
    if (first > 1)
        return zbc_fail(err, "first seat %u out of range 0-1", (unsigned)first);
    struct rps_state s;
    memset(&s, 0, sizeof s);
    s.target = len == 1 ? params[0] : N_DEFAULT;
    s.first = first;
    s.phase = RPS_COMMIT;
    s.to_move = first;
    s.winner = NONE;
    *rps(st) = s;
    return 1;
}

static int rps_turn(const struct zbc_game_state *st)
{
    const struct rps_state *s = crps(st);
    return s->phase == RPS_OVER ? ZBC_NOBODY : s->to_move;
}

static void rps_result(const struct zbc_game_state *st,
                       struct zbc_result *out)
{
    const struct rps_state *s = crps(st);
    memset(out, 0, sizeof *out);
    if (s->phase == RPS_OVER) {
        out->kind = ZBC_RESULT_WIN;
        out->winner = s->winner;
    } else {
        out->kind = ZBC_RESULT_ONGOING;
    }
}

/* Checks and applies one move to *s (the caller discards it on failure). */
static int step(struct rps_state *s, uint8_t seat, const uint8_t *move,
                size_t len, struct zbc_err *err)
{
    int turn = s->phase == RPS_OVER ? ZBC_NOBODY : s->to_move;
    if (!zbc_engine_move_entry(&zbc_engine_rps, turn, seat, len, err))
        return 0;
    uint8_t other = (uint8_t)(1 - seat);
    switch ((enum rps_phase)s->phase) {
    case RPS_COMMIT:
        if (move[0] != TAG_COMMIT)
            return zbc_fail(err, "illegal move: commit your choice first (move [0, hash32])");
        if (len != COMMIT_LEN)
            return zbc_fail(err, "a commit move is %d bytes, got %zu",
                            COMMIT_LEN, len);
        if (is_zero(move + 1, 32))
            return zbc_fail(err, "illegal move: an all-zero commitment");
        /* The other seat's commitment is public: a copy could only ever
         * be revealed as the same choice, forcing ties for ever. */
        if (memcmp(move + 1, s->commit[other], 32) == 0)
            return zbc_fail(err, "illegal move: the same commitment as the other seat's (pick your own salt)");
        memcpy(s->commit[seat], move + 1, 32);
        if (seat == s->first) {
            s->to_move = other;
        } else {
            s->phase = RPS_REVEAL;
            s->to_move = s->first;
        }
        return 1;
    case RPS_REVEAL: {
        if (move[0] != TAG_REVEAL)
            return zbc_fail(err, "illegal move: reveal your choice now (move [1, choice, salt32])");
        if (len != REVEAL_LEN)
            return zbc_fail(err, "a reveal move is %d bytes, got %zu",
                            REVEAL_LEN, len);
        uint8_t h[32];
        if (!zbc_rps_commitment(h, move[1], move + 2, err))
            return 0;
        if (memcmp(h, s->commit[seat], 32) != 0)
            return zbc_fail(err, "illegal move: revealing %s does not match your commitment",
                            choice_name(move[1]));
        s->choice[seat] = move[1];
        if (seat == s->first) {
            s->to_move = other;
            return 1;
        }
        uint8_t w = round_winner(s->choice[0], s->choice[1]);
        memcpy(s->last, s->choice, 2);
        memset(s->choice, 0, sizeof s->choice);
        memset(s->commit, 0, sizeof s->commit);
        if (w != NONE)
            s->wins[w]++; /* < target <= 5: no overflow */
        if (w != NONE && s->wins[w] == s->target) {
            s->phase = RPS_OVER;
            s->winner = w;
            s->to_move = w;
        } else {
            s->phase = RPS_COMMIT;
            s->to_move = s->first;
        }
        return 1;
    }
    case RPS_OVER:
        return zbc_fail(err, "the game is over");
    }
    return zbc_fail(err, "rps state: phase out of range");
}

static int rps_check_move(const struct zbc_game_state *st, uint8_t seat,
                          const uint8_t *move, size_t len, struct zbc_err *err)
{
    struct rps_state copy = *crps(st);
    return step(&copy, seat, move, len, err);
}

static int rps_apply_move(struct zbc_game_state *st, uint8_t seat,
                          const uint8_t *move, size_t len,
                          struct zbc_roll *rolls, struct zbc_err *err)
{
    (void)rolls;
    struct rps_state copy = *crps(st);
    if (!step(&copy, seat, move, len, err))
        return 0;
    *rps(st) = copy;
    return 1;
}

static size_t rps_gen_moves(const struct zbc_game_state *st,
                            struct zbc_move *out, size_t cap)
{
    (void)st;
    (void)out;
    (void)cap;
    return 0; /* every move is a commitment or a reveal: secrets needed */
}

/* Bytes: target, first, phase, to_move, winner, wins[2], choice[2],
 * last[2], commit0[32], commit1[32]. */
static size_t rps_encode(const struct zbc_game_state *st, uint8_t *out,
                         size_t cap)
{
    const struct rps_state *s = crps(st);
    if (cap < STATE_BYTES)
        return 0;
    out[0] = s->target;
    out[1] = s->first;
    out[2] = s->phase;
    out[3] = s->to_move;
    out[4] = s->winner;
    memcpy(out + 5, s->wins, 2);
    memcpy(out + 7, s->choice, 2);
    memcpy(out + 9, s->last, 2);
    memcpy(out + 11, s->commit, 64);
    return STATE_BYTES;
}

static int rps_validate(const struct rps_state *s, struct zbc_err *err)
{
    if (s->target < 1 || s->target > N_MAX)
        return zbc_fail(err, "rps state: rounds to win %u out of range 1-5",
                        (unsigned)s->target);
    if (s->first > 1 || s->to_move > 1)
        return zbc_fail(err, "rps state: seat out of range");
    uint8_t other = (uint8_t)(1 - s->first);
    bool no_last = s->last[0] == 0 && s->last[1] == 0;
    if (!no_last && (choice_name(s->last[0]) == NULL ||
                     choice_name(s->last[1]) == NULL))
        return zbc_fail(err, "rps state: last round choices out of range");
    if (no_last && (s->wins[0] != 0 || s->wins[1] != 0))
        return zbc_fail(err, "rps state: round wins without a last round");
    if (!no_last) {
        uint8_t lw = round_winner(s->last[0], s->last[1]);
        if (lw != NONE && s->wins[lw] == 0)
            return zbc_fail(err, "rps state: the last round's winner has no round win");
    }
    switch ((enum rps_phase)s->phase) {
    case RPS_COMMIT:
    case RPS_REVEAL:
        if (s->winner != NONE || s->wins[0] >= s->target ||
            s->wins[1] >= s->target)
            return zbc_fail(err, "rps state: a game in play has no winner and fewer than %u round wins each",
                            (unsigned)s->target);
        if (s->phase == RPS_COMMIT) {
            bool first_done = s->to_move == other;
            if (s->choice[0] != 0 || s->choice[1] != 0 ||
                !is_zero(s->commit[other], 32) ||
                is_zero(s->commit[s->first], 32) != !first_done)
                return zbc_fail(err, "rps state: commitments do not fit the seat to commit");
        } else {
            bool first_done = s->to_move == other;
            if (is_zero(s->commit[0], 32) || is_zero(s->commit[1], 32) ||
                memcmp(s->commit[0], s->commit[1], 32) == 0 ||
                s->choice[other] != 0 ||
                (first_done ? choice_name(s->choice[s->first]) == NULL
                            : s->choice[s->first] != 0))
                return zbc_fail(err, "rps state: reveals do not fit the seat to reveal");
        }
        return 1;
    case RPS_OVER:
        if (s->winner > 1 || s->to_move != s->winner ||
            s->wins[s->winner] != s->target ||
            s->wins[1 - s->winner] >= s->target ||
            round_winner(s->last[0], s->last[1]) != s->winner ||
            s->choice[0] != 0 || s->choice[1] != 0 ||
            !is_zero((const uint8_t *)s->commit, sizeof s->commit))
            return zbc_fail(err, "rps state: a finished game must show its winner's last round win");
        return 1;
    }
    return zbc_fail(err, "rps state: phase %u out of range 0-2",
                    (unsigned)s->phase);
}

static int rps_decode(struct zbc_game_state *st, const uint8_t *in, size_t len,
                      struct zbc_err *err)
{
    if (len != STATE_BYTES)
        return zbc_fail(err, "rps state: %zu bytes, want %d", len, STATE_BYTES);
    struct rps_state s;
    s.target = in[0];
    s.first = in[1];
    s.phase = in[2];
    s.to_move = in[3];
    s.winner = in[4];
    memcpy(s.wins, in + 5, 2);
    memcpy(s.choice, in + 7, 2);
    memcpy(s.last, in + 9, 2);
    memcpy(s.commit, in + 11, 64);
    if (!rps_validate(&s, err))
        return 0;
    *rps(st) = s;
    return 1;
}

static const char *phase_name(uint8_t phase)
{
    switch ((enum rps_phase)phase) {
    case RPS_COMMIT:
        return "commit";
    case RPS_REVEAL:
        return "reveal";
    case RPS_OVER:
        return "over";
    }
    return "?";
}

static void json_choice(struct zbc_text *t, uint8_t c)
{
    if (c == 0)
        zbc_text_printf(t, "null");
    else
        zbc_text_printf(t, "\"%s\"", choice_name(c));
}

static int rps_to_json(const struct zbc_game_state *st, char *out, size_t cap)
{
    const struct rps_state *s = crps(st);
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    zbc_text_printf(&t, "{\"game\":\"rps\",\"target\":%u,\"first\":%u,"
                        "\"wins\":[%u,%u],\"phase\":\"%s\",",
                    (unsigned)s->target, (unsigned)s->first,
                    (unsigned)s->wins[0], (unsigned)s->wins[1],
                    phase_name(s->phase));
    if (s->phase == RPS_OVER)
        zbc_text_printf(&t, "\"turn\":null,");
    else
        zbc_text_printf(&t, "\"turn\":%u,", (unsigned)s->to_move);
    zbc_text_printf(&t, "\"committed\":[%s,%s],\"revealed\":[",
                    is_zero(s->commit[0], 32) ? "false" : "true",
                    is_zero(s->commit[1], 32) ? "false" : "true");
    json_choice(&t, s->choice[0]);
    zbc_text_printf(&t, ",");
    json_choice(&t, s->choice[1]);
    zbc_text_printf(&t, "],\"last_round\":");
    if (s->last[0] == 0) {
        zbc_text_printf(&t, "null,");
    } else {
        uint8_t w = round_winner(s->last[0], s->last[1]);
        zbc_text_printf(&t, "{\"choices\":[\"%s\",\"%s\"],\"winner\":",
                        choice_name(s->last[0]), choice_name(s->last[1]));
        if (w == NONE)
            zbc_text_printf(&t, "null},");
        else
            zbc_text_printf(&t, "%u},", (unsigned)w);
    }
    if (s->phase == RPS_OVER)
        zbc_text_printf(&t, "\"result\":\"win\",\"winner\":%u}",
                        (unsigned)s->winner);
    else
        zbc_text_printf(&t, "\"result\":\"ongoing\",\"winner\":null}");
    return zbc_text_result(&t);
}

static int rps_render(const struct zbc_game_state *st, char *out, size_t cap)
{
    const struct rps_state *s = crps(st);
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    zbc_text_printf(&t, "Rock-paper-scissors, first to %u round win%s\n",
                    (unsigned)s->target, s->target == 1 ? "" : "s");
    for (uint8_t p = 0; p < 2; p++) {
        zbc_text_printf(&t, "  seat %u: %u", (unsigned)p, (unsigned)s->wins[p]);
        if (s->choice[p] != 0)
            zbc_text_printf(&t, "  revealed %s", choice_name(s->choice[p]));
        else if (!is_zero(s->commit[p], 32))
            zbc_text_printf(&t, "  committed");
        if (s->phase == RPS_OVER && s->winner == p)
            zbc_text_printf(&t, "  WINNER");
        else if (s->phase != RPS_OVER && s->to_move == p)
            zbc_text_printf(&t, "  <- to %s", phase_name(s->phase));
        zbc_text_printf(&t, "\n");
    }
    if (s->last[0] != 0) {
        uint8_t w = round_winner(s->last[0], s->last[1]);
        zbc_text_printf(&t, "last round: %s vs %s, ", choice_name(s->last[0]),
                        choice_name(s->last[1]));
        if (w == NONE)
            zbc_text_printf(&t, "tied (replayed)\n");
        else
            zbc_text_printf(&t, "seat %u won it\n", (unsigned)w);
    }
    return zbc_text_result(&t);
}

/* ---- notation ---- */

static size_t next_word(const char **p, const char **start)
{
    const char *q = *p;
    while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r')
        q++;
    *start = q;
    while (*q != '\0' && *q != ' ' && *q != '\t' && *q != '\n' && *q != '\r')
        q++;
    *p = q;
    return (size_t)(q - *start);
}

static uint8_t parse_choice(const char *w, size_t n)
{
    for (uint8_t c = 1; c <= 3; c++)
        if (strlen(choice_name(c)) == n && strncmp(w, choice_name(c), n) == 0)
            return c;
    return 0;
}

static int parse_hex32(uint8_t out[32], const char *w, size_t n,
                       const char *what, struct zbc_err *err)
{
    size_t got = 0;
    if (n != 64 || !zbc_hex_decode(out, 32, &got, w, n) || got != 32)
        return zbc_fail(err, "%s is 64 hex characters", what);
    return 1;
}

static int rps_parse_move(const struct zbc_game_state *st, uint8_t seat,
                          const char *text, uint8_t *move, size_t cap,
                          size_t *len, struct zbc_err *err)
{
    (void)st;
    (void)seat;
    const char *p = text, *w[4];
    size_t n[4], count = 0;
    for (;;) {
        const char *ws;
        size_t wl = next_word(&p, &ws);
        if (wl == 0)
            break;
        if (count == 4)
            return zbc_fail(err, "too many words in a rock-paper-scissors move");
        w[count] = ws;
        n[count++] = wl;
    }
    if (cap < REVEAL_LEN)
        return zbc_fail(err, "move buffer too small");
    if (count == 2 && strncmp(w[0], "commit", n[0]) == 0 && n[0] == 6) {
        if (!parse_hex32(move + 1, w[1], n[1], "a commitment hash", err))
            return 0;
        move[0] = TAG_COMMIT;
        *len = COMMIT_LEN;
        return 1;
    }
    if (count == 3 && n[0] == 6 &&
        (strncmp(w[0], "commit", 6) == 0 || strncmp(w[0], "reveal", 6) == 0)) {
        uint8_t c = parse_choice(w[1], n[1]);
        uint8_t salt[SALT_LEN];
        if (c == 0)
            return zbc_fail(err, "choose rock, paper or scissors, not \"%.*s\"",
                            (int)(n[1] > 16 ? 16 : n[1]), w[1]);
        if (!parse_hex32(salt, w[2], n[2], "a salt", err))
            return 0;
        if (w[0][0] == 'c') {
            move[0] = TAG_COMMIT;
            if (!zbc_rps_commitment(move + 1, c, salt, err))
                return 0;
            *len = COMMIT_LEN;
        } else {
            move[0] = TAG_REVEAL;
            move[1] = c;
            memcpy(move + 2, salt, SALT_LEN);
            *len = REVEAL_LEN;
        }
        return 1;
    }
    return zbc_fail(err, "rock-paper-scissors moves are \"commit HASHHEX\", \"commit rock SALTHEX\" or \"reveal rock SALTHEX\"");
}

static int rps_format_move(const struct zbc_game_state *st,
                           const uint8_t *move, size_t len, char *out,
                           size_t cap)
{
    (void)st;
    struct zbc_text t;
    char hex[65];
    zbc_text_init(&t, out, cap);
    if (len == COMMIT_LEN && move[0] == TAG_COMMIT) {
        zbc_hex_encode(hex, move + 1, 32);
        zbc_text_printf(&t, "commit %s", hex);
    } else if (len == REVEAL_LEN && move[0] == TAG_REVEAL &&
               choice_name(move[1]) != NULL) {
        zbc_hex_encode(hex, move + 2, 32);
        zbc_text_printf(&t, "reveal %s %s", choice_name(move[1]), hex);
    } else {
        return 0;
    }
    return zbc_text_result(&t) >= 0;
}

const struct zbc_engine zbc_engine_rps = {
    .state_size = sizeof(struct rps_state),
    .type = 9,
    .name = "rps",
    .min_seats = 2,
    .max_seats = 2,
    .dice = false,
    .draws_first = true,
    .start_rolls = false,
    .secret_moves = true,
    .check_params = rps_check_params,
    .init = rps_init,
    .turn = rps_turn,
    .result = rps_result,
    .check_move = rps_check_move,
    .apply_move = rps_apply_move,
    .gen_moves = rps_gen_moves,
    .encode = rps_encode,
    .decode = rps_decode,
    .to_json = rps_to_json,
    .render = rps_render,
    .parse_move = rps_parse_move,
    .format_move = rps_format_move,
    .params_word = zbc_engine_rounds_word,
    .params_text = zbc_engine_rounds_text,
};
