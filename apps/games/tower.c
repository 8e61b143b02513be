/* Tower (type 29, one seat against the apps fund): docs/games.md, section
 * "Tower (type 29)"; on chain docs/protocol-apps.md §13.
 *
 * Nine rows of C columns of which S are safe (the five difficulties of
 * apps/fair_events.h).  Climbing row r (picking a column) is a pending move
 * resolved by the next block's float stream: row r of the tower event of
 * that seed (floats r*S .. r*S+S-1) gives the safe columns; a pick among
 * them climbs, any other busts.  A cash-out (after at least one row)
 * applies at once; climbing the ninth row ends the game at the top
 * multiplier.  Multipliers: zbc_tower_multiplier (apps/fair_pay.h). */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "apps/engine.h"
#include "apps/fair_events.h"
#include "apps/fair_pay.h"
#include "apps/games/solo.h"
#include "apps/notation.h"
#include "crypto/bytes.h"

extern const struct zbc_engine zbc_engine_tower;

#define TOWER_DEFAULT ZBC_TOWER_EASY
#define TOWER_NONE 0xFF
#define MOVE_CLIMB 1
#define MOVE_CASHOUT 2
#define STATE_BYTES (5 + ZBC_TOWER_ROWS)

/* status: enum zbc_solo_status (a bust: a pick off the safe columns; the
 * top: all nine rows climbed) */
#define TOWER_PLAYING ZBC_SOLO_PLAYING
#define TOWER_BUST ZBC_SOLO_BUST
#define TOWER_CASHOUT ZBC_SOLO_CASHOUT
#define TOWER_CLEARED ZBC_SOLO_TOP

struct tower_state {
    uint8_t difficulty;               /* 0 easy .. 4 master */
    uint8_t status;                   /* enum zbc_solo_status */
    uint8_t rows;                     /* rows climbed */
    uint8_t hit;                      /* bust: the column picked, else TOWER_NONE */
    uint8_t safe_mask;                /* bust: the safe columns of that row, else 0 */
    uint8_t pick[ZBC_TOWER_ROWS];     /* the column climbed in each row (0 above) */
};

_Static_assert(sizeof(struct tower_state) <= ZBC_GAME_STATE_MAX,
               "tower state fits the state buffer");

static const struct tower_state *cts(const struct zbc_game_state *st)
{
    return (const struct tower_state *)(const void *)st->b;
}

static struct tower_state *ts(struct zbc_game_state *st)
{
    return (struct tower_state *)(void *)st->b;
}

static void shape(uint8_t difficulty, uint32_t *cols, uint32_t *safe,
                  const char **name)
{
    if (!zbc_tower_shape(difficulty, cols, safe, name)) {
        *cols = *safe = 0;
        *name = "?";
    }
}

static int tower_read_params(const uint8_t *params, size_t len,
                             uint8_t *difficulty, struct zbc_err *err)
{
    if (!zbc_solo_field1(params, len, TOWER_DEFAULT, difficulty, err))
        return 0;
    if (*difficulty >= ZBC_TOWER_DIFFICULTIES)
        return zbc_fail(err, "tower difficulty %u is unknown (0 easy, 1 medium, "
                             "2 hard, 3 expert, 4 master)", *difficulty);
    return 1;
}

static int tower_check_params(uint8_t seats, const uint8_t *params,
                              size_t len, struct zbc_err *err)
{
    uint8_t d;
    if (!zbc_engine_check_seats(&zbc_engine_tower, seats, err))
        return 0;
    return tower_read_params(params, len, &d, err);
}

static int tower_init(struct zbc_game_state *st, uint8_t seats,
                      const uint8_t *params, size_t len, uint8_t first,
                      struct zbc_roll *rolls, struct zbc_err *err)
{
    (void)rolls;
    (void)first;
    struct tower_state s;
    memset(&s, 0, sizeof s);
    if (!tower_check_params(seats, params, len, err) ||
        !tower_read_params(params, len, &s.difficulty, err))
        return 0;
    s.hit = TOWER_NONE;
    *ts(st) = s;
    return 1;
}

static int tower_turn(const struct zbc_game_state *st)
{
    return zbc_solo_turn(cts(st)->status);
}

static void tower_result(const struct zbc_game_state *st,
                         struct zbc_result *out)
{
    zbc_solo_result(cts(st)->status, out);
}

static int tower_check_move(const struct zbc_game_state *st, uint8_t seat,
                            const uint8_t *move, size_t len,
                            struct zbc_err *err)
{
    const struct tower_state *s = cts(st);
    uint32_t cols, safe;
    const char *name;
    if (!zbc_engine_move_entry(&zbc_engine_tower, tower_turn(st), seat, len,
                               err))
        return 0;
    shape(s->difficulty, &cols, &safe, &name);
    if (move[0] == MOVE_CASHOUT) {
        if (len != 1)
            return zbc_fail(err, "a tower cash-out is one byte, got %zu", len);
        if (s->rows == 0)
            return zbc_fail(err, "nothing to cash out: climb a row first");
        return 1;
    }
    if (move[0] != MOVE_CLIMB)
        return zbc_fail(err, "unknown tower move %u (1 climb, 2 cash out)",
                        move[0]);
    if (len != 2)
        return zbc_fail(err, "a tower climb is two bytes, got %zu", len);
    if (move[1] >= cols)
        return zbc_fail(err, "tower column %u is off the row (%s has %u "
                             "columns, 0-%u)", move[1], name, cols, cols - 1);
    return 1;
}

static int tower_apply_move(struct zbc_game_state *st, uint8_t seat,
                            const uint8_t *move, size_t len,
                            struct zbc_roll *rolls, struct zbc_err *err)
{
    if (!tower_check_move(st, seat, move, len, err))
        return 0;
    struct tower_state s = *cts(st);
    if (move[0] == MOVE_CASHOUT) {
        s.status = TOWER_CASHOUT;
        *ts(st) = s;
        return 1;
    }
    struct zbc_fair_stream *fs = rolls != NULL ? zbc_roll_fair(rolls) : NULL;
    if (fs == NULL)
        return zbc_fail(err, "a tower climb needs the float stream");
    uint8_t safe[ZBC_TOWER_ROWS][ZBC_TOWER_COLUMNS_MAX];
    uint32_t cols, n;
    const char *name;
    shape(s.difficulty, &cols, &n, &name);
    if (!zbc_fair_tower(fs, s.difficulty, safe, err))
        return 0;
    uint8_t mask = 0;
    for (uint32_t j = 0; j < n; j++)
        mask |= (uint8_t)(1u << safe[s.rows][j]);
    if (mask >> move[1] & 1) {
        s.pick[s.rows++] = move[1];
        if (s.rows == ZBC_TOWER_ROWS)
            s.status = TOWER_CLEARED;
    } else {
        s.status = TOWER_BUST;
        s.hit = move[1];
        s.safe_mask = mask;
    }
    *ts(st) = s;
    return 1;
}

static size_t tower_gen_moves(const struct zbc_game_state *st,
                              struct zbc_move *out, size_t cap)
{
    const struct tower_state *s = cts(st);
    uint32_t cols, safe;
    const char *name;
    size_t n = 0;
    if (s->status != TOWER_PLAYING)
        return 0;
    shape(s->difficulty, &cols, &safe, &name);
    for (uint8_t c = 0; c < cols && n < cap; c++) {
        out[n].len = 2;
        out[n].b[0] = MOVE_CLIMB;
        out[n].b[1] = c;
        n++;
    }
    if (s->rows > 0 && n < cap) {
        out[n].len = 1;
        out[n].b[0] = MOVE_CASHOUT;
        n++;
    }
    return n;
}

/* difficulty u8 | status u8 | rows u8 | hit u8 | safe_mask u8 | pick[9] */
static size_t tower_encode(const struct zbc_game_state *st, uint8_t *out,
                           size_t cap)
{
    const struct tower_state *s = cts(st);
    if (cap < STATE_BYTES)
        return 0;
    out[0] = s->difficulty;
    out[1] = s->status;
    out[2] = s->rows;
    out[3] = s->hit;
    out[4] = s->safe_mask;
    memcpy(out + 5, s->pick, ZBC_TOWER_ROWS);
    return STATE_BYTES;
}

static int tower_decode(struct zbc_game_state *st, const uint8_t *in,
                        size_t len, struct zbc_err *err)
{
    if (len != STATE_BYTES)
        return zbc_fail(err, "tower state: %zu bytes, want %d", len,
                        STATE_BYTES);
    struct tower_state s;
    memset(&s, 0, sizeof s);
    s.difficulty = in[0];
    s.status = in[1];
    s.rows = in[2];
    s.hit = in[3];
    s.safe_mask = in[4];
    memcpy(s.pick, in + 5, ZBC_TOWER_ROWS);
    uint32_t cols, safe;
    const char *name;
    if (!zbc_tower_shape(s.difficulty, &cols, &safe, &name))
        return zbc_fail(err, "tower state: difficulty %u is unknown",
                        s.difficulty);
    if (s.status > TOWER_CLEARED)
        return zbc_fail(err, "tower state: status %u is unknown", s.status);
    if (s.rows > ZBC_TOWER_ROWS ||
        (s.rows == ZBC_TOWER_ROWS) != (s.status == TOWER_CLEARED) ||
        (s.status == TOWER_CASHOUT && s.rows == 0))
        return zbc_fail(err, "tower state: %u rows climbed does not fit "
                             "status %u", s.rows, s.status);
    for (unsigned r = 0; r < ZBC_TOWER_ROWS; r++)
        if ((r < s.rows && s.pick[r] >= cols) || (r >= s.rows && s.pick[r]))
            return zbc_fail(err, "tower state: the pick of row %u does not "
                                 "fit", r + 1);
    if (s.status == TOWER_BUST) {
        if (s.hit >= cols || (s.safe_mask >> s.hit & 1) ||
            (s.safe_mask >> cols) != 0 ||
            (unsigned)__builtin_popcount(s.safe_mask) != safe)
            return zbc_fail(err, "tower state: the safe columns of a bust do "
                                 "not fit the row");
    } else if (s.hit != TOWER_NONE || s.safe_mask != 0) {
        return zbc_fail(err, "tower state: a losing row without a bust");
    }
    *ts(st) = s;
    return 1;
}

static uint64_t tower_value(const struct zbc_game_state *st)
{
    const struct tower_state *s = cts(st);
    if (s->status == TOWER_BUST)
        return 0;
    if (s->rows == 0)
        return ZBC_FAIR_ONE; /* stopped before a climb: the stake back */
    return zbc_tower_multiplier(s->difficulty, s->rows);
}

static int tower_to_json(const struct zbc_game_state *st, char *out,
                         size_t cap)
{
    const struct tower_state *s = cts(st);
    uint32_t cols, safe;
    const char *name;
    shape(s->difficulty, &cols, &safe, &name);
    struct zbc_text tb;
    zbc_text_init(&tb, out, cap);
    uint64_t v = tower_value(st);
    zbc_text_printf(&tb, "{\"game\":\"tower\",\"difficulty\":\"%s\",\"columns\":%u,"
                         "\"safe\":%u,\"status\":\"%s\",\"picks\":[", name, cols,
                    safe, zbc_solo_status_word(s->status));
    for (unsigned r = 0; r < s->rows; r++)
        zbc_text_printf(&tb, "%s%u", r ? "," : "", s->pick[r]);
    zbc_text_printf(&tb, "],\"hit\":");
    if (s->hit == TOWER_NONE) {
        zbc_text_printf(&tb, "null,\"safe_columns\":null,");
    } else {
        zbc_text_printf(&tb, "%u,\"safe_columns\":", s->hit);
        zbc_solo_bits_json(&tb, s->safe_mask, cols);
        zbc_text_printf(&tb, ",");
    }
    zbc_solo_json_tail(&tb, v, s->status == TOWER_PLAYING);
    return zbc_text_result(&tb);
}

/* Row 9 at the top: 'o' the column climbed, 'X' a losing pick, 's' the
 * safe columns of that row, '·' the rest; '<' marks the row to climb. */
static int tower_render(const struct zbc_game_state *st, char *out,
                        size_t cap)
{
    const struct tower_state *s = cts(st);
    uint32_t cols, safe;
    const char *name;
    shape(s->difficulty, &cols, &safe, &name);
    struct zbc_text tb;
    zbc_text_init(&tb, out, cap);
    uint64_t v = tower_value(st);
    zbc_text_printf(&tb, "Tower, %s (%u of %u columns safe)\n    ", name, safe,
                    cols);
    for (unsigned c = 0; c < cols; c++)
        zbc_text_printf(&tb, " %u", c + 1);
    zbc_text_printf(&tb, "\n");
    for (unsigned r = ZBC_TOWER_ROWS; r-- > 0;) {
        zbc_text_printf(&tb, "  %u ", r + 1);
        for (unsigned c = 0; c < cols; c++) {
            const char *g = "·";
            if (r < s->rows && s->pick[r] == c)
                g = "o";
            else if (r == s->rows && s->status == TOWER_BUST)
                g = c == s->hit ? "X" : (s->safe_mask >> c & 1) ? "s" : "·";
            zbc_text_printf(&tb, " %s", g);
        }
        zbc_text_printf(&tb, "%s\n", r == s->rows && s->status == TOWER_PLAYING
                                         ? "  <"
                                         : "");
    }
    zbc_text_printf(&tb, "%u row%s climbed; ", s->rows, s->rows == 1 ? "" : "s");
    zbc_solo_status_line(&tb, s->status, v, "a losing pick: returns 0");
    return zbc_text_result(&tb);
}

/* "climb 2" or "2" (columns 1-C) or "cashout". */
static int tower_parse_move(const struct zbc_game_state *st, uint8_t seat,
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
    const char *col = tk.count == 2 && strcmp(tk.tok[0], "climb") == 0 ? tk.tok[1]
                      : tk.count == 1                                  ? tk.tok[0]
                                                                       : NULL;
    uint64_t c;
    struct zbc_err why;
    if (col == NULL ||
        !zbc_parse_u64(col, 1, ZBC_TOWER_COLUMNS_MAX, &c, "column", &why))
        return zbc_fail(err, "tower moves are \"climb N\" (the column, 1-4) "
                             "or \"cashout\", not \"%.40s\"", text);
    move[0] = MOVE_CLIMB;
    move[1] = (uint8_t)(c - 1);
    *len = 2;
    return 1;
}

static int tower_format_move(const struct zbc_game_state *st,
                             const uint8_t *move, size_t len, char *out,
                             size_t cap)
{
    (void)st;
    struct zbc_text tb;
    zbc_text_init(&tb, out, cap);
    if (len == 1 && move[0] == MOVE_CASHOUT)
        zbc_text_printf(&tb, "cashout");
    else if (len == 2 && move[0] == MOVE_CLIMB &&
             move[1] < ZBC_TOWER_COLUMNS_MAX)
        zbc_text_printf(&tb, "climb %u", move[1] + 1);
    else
        return 0;
    return zbc_text_result(&tb) >= 0;
}

static int tower_params_word(const char *key, const char *value,
                             uint8_t *out, size_t *len, struct zbc_err *err)
{
    if (*len == 0) {
        out[0] = TOWER_DEFAULT;
        out[1] = 0;
        *len = 2;
    }
    if (strcmp(key, "difficulty") != 0)
        return zbc_solo_seed_word(key, value, out, 1, len,
                                  "difficulty=easy|medium|hard|expert|master",
                                  err);
    for (uint8_t d = 0; d < ZBC_TOWER_DIFFICULTIES; d++) {
        uint32_t cols, safe;
        const char *name;
        if (zbc_tower_shape(d, &cols, &safe, &name) && strcmp(name, value) == 0) {
            out[0] = d;
            return 1;
        }
    }
    return zbc_engine_param_u8(key, value, &out[0], err);
}

static int tower_params_text(const uint8_t *params, size_t len, char *out,
                             size_t cap)
{
    struct zbc_solo_params p;
    struct zbc_err err;
    if (!zbc_solo_params(params, len, 1, &p, &err) || p.n_fields == 0)
        return 0;
    return zbc_solo_params_text(&p, "difficulty", out, cap);
}

static uint64_t tower_max_multiplier(const uint8_t *params, size_t len)
{
    uint8_t d;
    struct zbc_err err;
    if (!tower_read_params(params, len, &d, &err))
        return 0;
    return zbc_tower_multiplier(d, ZBC_TOWER_ROWS);
}

static bool tower_move_draws(const uint8_t *move, size_t len)
{
    return len >= 1 && move[0] == MOVE_CLIMB;
}

static const struct zbc_solo_ops TOWER_SOLO = {
    .max_multiplier = tower_max_multiplier,
    .value = tower_value,
    .move_draws = tower_move_draws,
    .client_seed = zbc_solo_client_seed_1,
};

const struct zbc_engine zbc_engine_tower = {
    .state_size = sizeof(struct tower_state),
    .type = 29,
    .name = "tower",
    .min_seats = 1,
    .max_seats = 1,
    .dice = true,
    .draws_first = false,
    .start_rolls = false,
    .check_params = tower_check_params,
    .init = tower_init,
    .turn = tower_turn,
    .result = tower_result,
    .check_move = tower_check_move,
    .apply_move = tower_apply_move,
    .gen_moves = tower_gen_moves,
    .encode = tower_encode,
    .decode = tower_decode,
    .to_json = tower_to_json,
    .render = tower_render,
    .parse_move = tower_parse_move,
    .format_move = tower_format_move,
    .params_word = tower_params_word,
    .params_text = tower_params_text,
    .solo = &TOWER_SOLO,
};
