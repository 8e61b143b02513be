/* Mines (type 28, one seat against the apps fund): docs/games.md, section
 * "Mines (type 28)"; on chain docs/protocol-apps.md §13.
 *
 * 25 tiles (5 x 5, columns A-E, rows 1-5), m mines (1-24).  A reveal is a
 * pending move resolved by the next block's float stream: with k tiles
 * already revealed safe, the mine event of apps/fair_events.h is drawn with
 * T = 25 - k tiles over the hidden tiles in ascending order and m mines;
 * the tile is a mine when its index among the hidden tiles is drawn.  A
 * cash-out (after at least one safe reveal) applies at once.  Revealing
 * every safe tile ends the game at the top multiplier.  Multipliers:
 * zbc_mines_multiplier (apps/fair_pay.h). */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "apps/engine.h"
#include "apps/fair_events.h"
#include "apps/fair_pay.h"
#include "apps/games/solo.h"
#include "apps/notation.h"
#include "crypto/bytes.h"

extern const struct zbc_engine zbc_engine_mines;

#define MINES_DEFAULT 3
#define MINES_SIDE 5
#define MINES_ALL ((1u << ZBC_MINES_TILES) - 1)
#define MINES_NONE 0xFF
#define MOVE_REVEAL 1
#define MOVE_CASHOUT 2
#define STATE_BYTES 12

/* status: enum zbc_solo_status (a bust: a revealed tile was a mine;
 * the top: every safe tile revealed) */
#define MINES_PLAYING ZBC_SOLO_PLAYING
#define MINES_BUST ZBC_SOLO_BUST
#define MINES_CASHOUT ZBC_SOLO_CASHOUT
#define MINES_CLEARED ZBC_SOLO_TOP

struct mines_state {
    uint8_t mines;      /* 1..24 */
    uint8_t status;     /* enum zbc_solo_status */
    uint8_t revealed_n; /* safe tiles revealed */
    uint8_t hit;        /* the mine revealed (bust), else MINES_NONE */
    uint32_t revealed;  /* bit t: tile t revealed safe */
    uint32_t mine_mask; /* bust: the mines of the losing draw, else 0 */
};

_Static_assert(sizeof(struct mines_state) <= ZBC_GAME_STATE_MAX,
               "mines state fits the state buffer");

static const struct mines_state *cms(const struct zbc_game_state *st)
{
    return (const struct mines_state *)(const void *)st->b;
}

static struct mines_state *ms(struct zbc_game_state *st)
{
    return (struct mines_state *)(void *)st->b;
}

static int mines_read_params(const uint8_t *params, size_t len,
                             uint8_t *mines, struct zbc_err *err)
{
    if (!zbc_solo_field1(params, len, MINES_DEFAULT, mines, err))
        return 0;
    if (*mines < 1 || *mines > ZBC_MINES_TILES - 1)
        return zbc_fail(err, "mines takes 1 to 24 mines, not %u", *mines);
    return 1;
}

static int mines_check_params(uint8_t seats, const uint8_t *params,
                              size_t len, struct zbc_err *err)
{
    uint8_t m;
    if (!zbc_engine_check_seats(&zbc_engine_mines, seats, err))
        return 0;
    return mines_read_params(params, len, &m, err);
}

static int mines_init(struct zbc_game_state *st, uint8_t seats,
                      const uint8_t *params, size_t len, uint8_t first,
                      struct zbc_roll *rolls, struct zbc_err *err)
{
    (void)rolls;
    (void)first;
    struct mines_state s;
    memset(&s, 0, sizeof s);
    if (!mines_check_params(seats, params, len, err) ||
        !mines_read_params(params, len, &s.mines, err))
        return 0;
    s.hit = MINES_NONE;
    *ms(st) = s;
    return 1;
}

static int mines_turn(const struct zbc_game_state *st)
{
    return zbc_solo_turn(cms(st)->status);
}

static void mines_result(const struct zbc_game_state *st,
                         struct zbc_result *out)
{
    zbc_solo_result(cms(st)->status, out);
}

static int mines_check_move(const struct zbc_game_state *st, uint8_t seat,
                            const uint8_t *move, size_t len,
                            struct zbc_err *err)
{
    const struct mines_state *s = cms(st);
    if (!zbc_engine_move_entry(&zbc_engine_mines, mines_turn(st), seat, len,
                               err))
        return 0;
    if (move[0] == MOVE_CASHOUT) {
        if (len != 1)
            return zbc_fail(err, "a mines cash-out is one byte, got %zu",
                            len);
        if (s->revealed_n == 0)
            return zbc_fail(err, "nothing to cash out: reveal a tile first");
        return 1;
    }
    if (move[0] != MOVE_REVEAL)
        return zbc_fail(err, "unknown mines move %u (1 reveal, 2 cash out)",
                        move[0]);
    if (len != 2)
        return zbc_fail(err, "a mines reveal is two bytes, got %zu", len);
    if (move[1] >= ZBC_MINES_TILES)
        return zbc_fail(err, "mines tile %u is off the board (0-24)",
                        move[1]);
    if (s->revealed >> move[1] & 1)
        return zbc_fail(err, "tile %c%u is already revealed",
                        'A' + move[1] % MINES_SIDE, move[1] / MINES_SIDE + 1);
    return 1;
}

/* The hidden tiles in ascending order. */
static uint32_t hidden_tiles(const struct mines_state *s,
                             uint8_t out[ZBC_MINES_TILES])
{
    uint32_t n = 0;
    for (uint8_t t = 0; t < ZBC_MINES_TILES; t++)
        if (!(s->revealed >> t & 1))
            out[n++] = t;
    return n;
}

static int mines_apply_move(struct zbc_game_state *st, uint8_t seat,
                            const uint8_t *move, size_t len,
                            struct zbc_roll *rolls, struct zbc_err *err)
{
    if (!mines_check_move(st, seat, move, len, err))
        return 0;
    struct mines_state s = *cms(st);
    if (move[0] == MOVE_CASHOUT) {
        s.status = MINES_CASHOUT;
        *ms(st) = s;
        return 1;
    }
    struct zbc_fair_stream *fs = rolls != NULL ? zbc_roll_fair(rolls) : NULL;
    if (fs == NULL)
        return zbc_fail(err, "a mines reveal needs the float stream");
    uint8_t hidden[ZBC_MINES_TILES], drawn[ZBC_MINES_TILES];
    uint32_t t = hidden_tiles(&s, hidden);
    if (!zbc_fair_mines(fs, t, s.mines, drawn, err))
        return 0;
    uint32_t mask = 0;
    for (uint32_t i = 0; i < s.mines; i++)
        mask |= 1u << hidden[drawn[i]];
    if (mask >> move[1] & 1) {
        s.status = MINES_BUST;
        s.hit = move[1];
        s.mine_mask = mask;
    } else {
        s.revealed |= 1u << move[1];
        s.revealed_n++;
        if (s.revealed_n == ZBC_MINES_TILES - s.mines)
            s.status = MINES_CLEARED;
    }
    *ms(st) = s;
    return 1;
}

static size_t mines_gen_moves(const struct zbc_game_state *st,
                              struct zbc_move *out, size_t cap)
{
    const struct mines_state *s = cms(st);
    size_t n = 0;
    if (s->status != MINES_PLAYING)
        return 0;
    for (uint8_t t = 0; t < ZBC_MINES_TILES && n < cap; t++) {
        if (s->revealed >> t & 1)
            continue;
        out[n].len = 2;
        out[n].b[0] = MOVE_REVEAL;
        out[n].b[1] = t;
        n++;
    }
    if (s->revealed_n > 0 && n < cap) {
        out[n].len = 1;
        out[n].b[0] = MOVE_CASHOUT;
        n++;
    }
    return n;
}

/* mines u8 | status u8 | revealed_n u8 | hit u8 | revealed u32 LE |
 * mine_mask u32 LE */
static size_t mines_encode(const struct zbc_game_state *st, uint8_t *out,
                           size_t cap)
{
    const struct mines_state *s = cms(st);
    if (cap < STATE_BYTES)
        return 0;
    out[0] = s->mines;
    out[1] = s->status;
    out[2] = s->revealed_n;
    out[3] = s->hit;
    zbc_put_le32(out + 4, s->revealed);
    zbc_put_le32(out + 8, s->mine_mask);
    return STATE_BYTES;
}

static int mines_decode(struct zbc_game_state *st, const uint8_t *in,
                        size_t len, struct zbc_err *err)
{
    if (len != STATE_BYTES)
        return zbc_fail(err, "mines state: %zu bytes, want %d", len,
                        STATE_BYTES);
    struct mines_state s;
    memset(&s, 0, sizeof s);
    s.mines = in[0];
    s.status = in[1];
    s.revealed_n = in[2];
    s.hit = in[3];
    s.revealed = zbc_get_le32(in + 4);
    s.mine_mask = zbc_get_le32(in + 8);
    unsigned safe = ZBC_MINES_TILES - (unsigned)s.mines;
    if (s.mines < 1 || s.mines > ZBC_MINES_TILES - 1)
        return zbc_fail(err, "mines state: %u mines, want 1-24", s.mines);
    if (s.status > MINES_CLEARED)
        return zbc_fail(err, "mines state: status %u is unknown", s.status);
    if ((s.revealed & ~MINES_ALL) != 0 ||
        (unsigned)__builtin_popcount(s.revealed) != s.revealed_n)
        return zbc_fail(err, "mines state: the revealed tiles do not match "
                             "their count %u", s.revealed_n);
    bool cleared = s.revealed_n == safe;
    if (s.revealed_n > safe || cleared != (s.status == MINES_CLEARED))
        return zbc_fail(err, "mines state: %u safe tiles revealed of %u "
                             "does not fit status %u", s.revealed_n, safe,
                        s.status);
    if (s.status == MINES_CASHOUT && s.revealed_n == 0)
        return zbc_fail(err, "mines state: a cash-out without a reveal");
    if (s.status == MINES_BUST) {
        if (s.hit >= ZBC_MINES_TILES || !(s.mine_mask >> s.hit & 1) ||
            (s.mine_mask & ~MINES_ALL) != 0 ||
            (s.mine_mask & s.revealed) != 0 ||
            (unsigned)__builtin_popcount(s.mine_mask) != s.mines)
            return zbc_fail(err, "mines state: the mines of a bust do not "
                                 "fit the board");
    } else if (s.hit != MINES_NONE || s.mine_mask != 0) {
        return zbc_fail(err, "mines state: mines shown without a bust");
    }
    *ms(st) = s;
    return 1;
}

static uint64_t mines_value(const struct zbc_game_state *st)
{
    const struct mines_state *s = cms(st);
    if (s->status == MINES_BUST)
        return 0;
    if (s->revealed_n == 0)
        return ZBC_FAIR_ONE; /* stopped before a reveal: the stake back */
    return zbc_mines_multiplier(s->mines, s->revealed_n);
}

static int mines_to_json(const struct zbc_game_state *st, char *out,
                         size_t cap)
{
    const struct mines_state *s = cms(st);
    struct zbc_text tb;
    zbc_text_init(&tb, out, cap);
    uint64_t v = mines_value(st);
    zbc_text_printf(&tb, "{\"game\":\"mines\",\"mines\":%u,\"status\":\"%s\","
                         "\"revealed\":", s->mines, zbc_solo_status_word(s->status));
    zbc_solo_bits_json(&tb, s->revealed, ZBC_MINES_TILES);
    if (s->hit == MINES_NONE) {
        zbc_text_printf(&tb, ",\"hit\":null,\"mines_at\":null,");
    } else {
        zbc_text_printf(&tb, ",\"hit\":%u,\"mines_at\":", s->hit);
        zbc_solo_bits_json(&tb, s->mine_mask, ZBC_MINES_TILES);
        zbc_text_printf(&tb, ",");
    }
    zbc_solo_json_tail(&tb, v, s->status == MINES_PLAYING);
    return zbc_text_result(&tb);
}

/* The grid, row 1 at the top: '·' hidden, 'o' safe, '*' a mine of the
 * losing draw, 'X' the mine revealed. */
static int mines_render(const struct zbc_game_state *st, char *out,
                        size_t cap)
{
    const struct mines_state *s = cms(st);
    struct zbc_text tb;
    zbc_text_init(&tb, out, cap);
    uint64_t v = mines_value(st);
    zbc_text_printf(&tb, "Mines, %u mine%s on 25 tiles\n", s->mines,
                    s->mines == 1 ? "" : "s");
    zbc_text_printf(&tb, "    A B C D E\n");
    for (unsigned r = 0; r < MINES_SIDE; r++) {
        zbc_text_printf(&tb, "  %u", r + 1);
        for (unsigned c = 0; c < MINES_SIDE; c++) {
            unsigned t = r * MINES_SIDE + c;
            const char *g = "·";
            if (s->revealed >> t & 1)
                g = "o";
            else if (t == s->hit)
                g = "X";
            else if (s->mine_mask >> t & 1)
                g = "*";
            zbc_text_printf(&tb, " %s", g);
        }
        zbc_text_printf(&tb, "\n");
    }
    zbc_text_printf(&tb, "%u safe tile%s revealed; ", s->revealed_n,
                    s->revealed_n == 1 ? "" : "s");
    zbc_solo_status_line(&tb, s->status, v, "hit a mine: returns 0");
    return zbc_text_result(&tb);
}

/* "reveal C3", "C3" or "cashout". */
static int mines_parse_move(const struct zbc_game_state *st, uint8_t seat,
                            const char *text, uint8_t *move, size_t cap,
                            size_t *len, struct zbc_err *err)
{
    (void)st;
    (void)seat;
    struct zbc_tokens tk;
    if (cap < 2)
        return zbc_fail(err, "move buffer too small");
    if (!zbc_notation_tokens(&tk, text, err))
        return 0;
    if (tk.count == 1 && strcmp(tk.tok[0], "cashout") == 0) {
        move[0] = MOVE_CASHOUT;
        *len = 1;
        return 1;
    }
    const char *sq = NULL;
    if (tk.count == 2 && strcmp(tk.tok[0], "reveal") == 0)
        sq = tk.tok[1];
    else if (tk.count == 1)
        sq = tk.tok[0];
    unsigned cell;
    if (sq == NULL ||
        !zbc_notation_parse_square(sq, MINES_SIDE, MINES_SIDE, &cell, err))
        return zbc_fail(err, "mines moves are \"reveal C3\" (columns A-E, "
                             "rows 1-5) or \"cashout\", not \"%.40s\"", text);
    move[0] = MOVE_REVEAL;
    move[1] = (uint8_t)cell;
    *len = 2;
    return 1;
}

static int mines_format_move(const struct zbc_game_state *st,
                             const uint8_t *move, size_t len, char *out,
                             size_t cap)
{
    (void)st;
    struct zbc_text tb;
    zbc_text_init(&tb, out, cap);
    if (len == 1 && move[0] == MOVE_CASHOUT)
        zbc_text_printf(&tb, "cashout");
    else if (len == 2 && move[0] == MOVE_REVEAL && move[1] < ZBC_MINES_TILES)
        zbc_text_printf(&tb, "reveal %c%u", 'A' + move[1] % MINES_SIDE,
                        move[1] / MINES_SIDE + 1);
    else
        return 0;
    return zbc_text_result(&tb) >= 0;
}

static int mines_params_word(const char *key, const char *value,
                             uint8_t *out, size_t *len, struct zbc_err *err)
{
    if (*len == 0) {
        out[0] = MINES_DEFAULT;
        out[1] = 0;
        *len = 2;
    }
    if (strcmp(key, "mines") == 0)
        return zbc_engine_param_u8(key, value, &out[0], err);
    return zbc_solo_seed_word(key, value, out, 1, len, "mines=N", err);
}

static int mines_params_text(const uint8_t *params, size_t len, char *out,
                             size_t cap)
{
    struct zbc_solo_params p;
    struct zbc_err err;
    if (!zbc_solo_params(params, len, 1, &p, &err) || p.n_fields == 0)
        return 0;
    return zbc_solo_params_text(&p, "mines", out, cap);
}

static uint64_t mines_max_multiplier(const uint8_t *params, size_t len)
{
    uint8_t m;
    struct zbc_err err;
    if (!mines_read_params(params, len, &m, &err))
        return 0;
    return zbc_mines_multiplier(m, ZBC_MINES_TILES - m);
}

static bool mines_move_draws(const uint8_t *move, size_t len)
{
    return len >= 1 && move[0] == MOVE_REVEAL;
}

static const struct zbc_solo_ops MINES_SOLO = {
    .max_multiplier = mines_max_multiplier,
    .value = mines_value,
    .move_draws = mines_move_draws,
    .client_seed = zbc_solo_client_seed_1,
};

const struct zbc_engine zbc_engine_mines = {
    .state_size = sizeof(struct mines_state),
    .type = 28,
    .name = "mines",
    .min_seats = 1,
    .max_seats = 1,
    .dice = true,
    .draws_first = false,
    .start_rolls = false,
    .check_params = mines_check_params,
    .init = mines_init,
    .turn = mines_turn,
    .result = mines_result,
    .check_move = mines_check_move,
    .apply_move = mines_apply_move,
    .gen_moves = mines_gen_moves,
    .encode = mines_encode,
    .decode = mines_decode,
    .to_json = mines_to_json,
    .render = mines_render,
    .parse_move = mines_parse_move,
    .format_move = mines_format_move,
    .params_word = mines_params_word,
    .params_text = mines_params_text,
    .solo = &MINES_SOLO,
};
