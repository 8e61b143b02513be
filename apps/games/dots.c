/* Dots and boxes (docs/games.md, "Dots and boxes (type 8)").  2-4 seats on a
 * grid of width x height boxes (params: width u8, height u8, each 2-8; empty
 * params = 4 x 4).  Seats take turns in seat order starting with the drawn
 * first seat, each drawing one undrawn line; a line that completes one or
 * two boxes gives them to its seat, which moves again.  When every line is
 * drawn the most boxes wins; a tie for the most is a draw.
 *
 * Line index (move bytes: u16 LE).  Dots are at rows 0..height and columns
 * 0..width.  Horizontal lines come first: "h R C" joins dot (R, C) to
 * (R, C+1), R 0..height, C 0..width-1, index R * width + C.  Then vertical
 * lines: "v R C" joins dot (R, C) to (R+1, C), R 0..height-1, C 0..width,
 * index (height + 1) * width + R * (width + 1) + C.  Box (R, C) has top
 * h R C, bottom h R+1 C, left v R C, right v R C+1.
 *
 * Canonical state bytes: width u8, height u8, seats u8, to_move u8 (0xFF
 * when the game is over), the line bitmap (ceil(lines / 8) bytes, line i
 * is bit i % 8 of byte i / 8, unused bits zero), owner u8 per box
 * row-major (0xFF unclaimed), last u16 LE (0xFFFF before the first move). */
#include <stdio.h>
#include <string.h>

#include "apps/engine.h"
#include "apps/notation.h"
#include "crypto/bytes.h"

/* The descriptor at the end of this file (the shared steps take it). */
extern const struct zbc_engine zbc_engine_dots;

#define DIM_MIN 2
#define DIM_MAX 8
#define DIM_DEFAULT 4
#define LINES_MAX (2 * DIM_MAX * DIM_MAX + 2 * DIM_MAX)
#define BOXES_MAX (DIM_MAX * DIM_MAX)
#define NOBODY_U8 0xFF
#define NO_LINE 0xFFFF

struct dots {
    uint8_t w, h, seats;
    uint8_t to_move;
    uint8_t line[LINES_MAX];  /* 1 drawn */
    uint8_t owner[BOXES_MAX]; /* seat or NOBODY_U8 */
    uint16_t last;
};
_Static_assert(sizeof(struct dots) <= ZBC_GAME_STATE_MAX, "state too big");

static const struct dots *cst(const struct zbc_game_state *st)
{
    return (const struct dots *)st->b;
}

static struct dots *mst(struct zbc_game_state *st)
{
    return (struct dots *)st->b;
}

static int n_lines(const struct dots *s)
{
    return 2 * s->w * s->h + s->w + s->h;
}

static int h_index(const struct dots *s, int r, int c)
{
    return r * s->w + c;
}

static int v_index(const struct dots *s, int r, int c)
{
    return (s->h + 1) * s->w + r * (s->w + 1) + c;
}

static bool box_closed(const struct dots *s, const uint8_t *line, int r, int c)
{
    return line[h_index(s, r, c)] && line[h_index(s, r + 1, c)] &&
           line[v_index(s, r, c)] && line[v_index(s, r, c + 1)];
}

/* The (up to two) boxes next to line i; returns how many. */
static int boxes_of_line(const struct dots *s, int i, int box[2])
{
    int n = 0;
    int hl = (s->h + 1) * s->w;
    if (i < hl) {
        int r = i / s->w, c = i % s->w;
        if (r > 0)
            box[n++] = (r - 1) * s->w + c;
        if (r < s->h)
            box[n++] = r * s->w + c;
    } else {
        int r = (i - hl) / (s->w + 1), c = (i - hl) % (s->w + 1);
        if (c > 0)
            box[n++] = r * s->w + c - 1;
        if (c < s->w)
            box[n++] = r * s->w + c;
    }
    return n;
}

static bool all_drawn(const struct dots *s)
{
    for (int i = 0; i < n_lines(s); i++)
        if (!s->line[i])
            return false;
    return true;
}

static void scores(const struct dots *s, int score[ZBC_SEATS_MAX])
{
    memset(score, 0, sizeof(int) * ZBC_SEATS_MAX);
    for (int b = 0; b < s->w * s->h; b++)
        if (s->owner[b] != NOBODY_U8)
            score[s->owner[b]]++;
}

static int dots_check_params(uint8_t seats, const uint8_t *params, size_t len,
                             struct zbc_err *err)
{
    if (!zbc_engine_check_seats(&zbc_engine_dots, seats, err))
        return 0;
    if (len == 0)
        return 1;
    if (len != 2)
        return zbc_fail(err, "dots and boxes params are width u8, height u8 "
                        "(2 bytes) or empty, got %zu bytes", len);
    if (params[0] < DIM_MIN || params[0] > DIM_MAX)
        return zbc_fail(err, "width %u out of range 2-8", params[0]);
    if (params[1] < DIM_MIN || params[1] > DIM_MAX)
        return zbc_fail(err, "height %u out of range 2-8", params[1]);
    return 1;
}

static int dots_init(struct zbc_game_state *st, uint8_t seats,
                     const uint8_t *params, size_t len, uint8_t first,
                     struct zbc_roll *rolls, struct zbc_err *err)
{
    if (!dots_check_params(seats, params, len, err))
        return 0;
    if (first >= seats)
        return zbc_fail(err, "first seat %u out of range 0-%u", first,
                        seats - 1);
    struct dots *s = mst(st);
    memset(s, 0, sizeof *s);
    s->w = len == 2 ? params[0] : DIM_DEFAULT;
    s->h = len == 2 ? params[1] : DIM_DEFAULT;
    s->seats = seats;
    s->to_move = first;
    memset(s->owner, NOBODY_U8, sizeof s->owner);
    s->last = NO_LINE;
    return 1;
}

static int dots_turn(const struct zbc_game_state *st)
{
    const struct dots *s = cst(st);
    return s->to_move == NOBODY_U8 ? ZBC_NOBODY : s->to_move;
}

static void dots_result(const struct zbc_game_state *st,
                        struct zbc_result *out)
{
    const struct dots *s = cst(st);
    int score[ZBC_SEATS_MAX];
    out->out_mask = 0;
    out->winner = 0;
    if (s->to_move != NOBODY_U8) {
        out->kind = ZBC_RESULT_ONGOING;
        return;
    }
    scores(s, score);
    int best = 0, leaders = 0;
    for (int i = 0; i < s->seats; i++) {
        if (score[i] > score[best])
            best = i;
    }
    for (int i = 0; i < s->seats; i++)
        leaders += score[i] == score[best];
    if (leaders > 1) {
        out->kind = ZBC_RESULT_DRAW;
    } else {
        out->kind = ZBC_RESULT_WIN;
        out->winner = (uint8_t)best;
    }
}

static int format_line(const struct dots *s, int i, char *out, size_t cap)
{
    int hl = (s->h + 1) * s->w, n;
    if (i < hl)
        n = snprintf(out, cap, "h %d %d", i / s->w, i % s->w);
    else
        n = snprintf(out, cap, "v %d %d", (i - hl) / (s->w + 1),
                     (i - hl) % (s->w + 1));
    return n > 0 && (size_t)n < cap;
}

static int dots_check_move(const struct zbc_game_state *st, uint8_t seat,
                           const uint8_t *move, size_t len,
                           struct zbc_err *err)
{
    const struct dots *s = cst(st);
    int turn = dots_turn(st);
    if (!zbc_engine_move_entry(&zbc_engine_dots, turn, seat, len, err))
        return 0;
    if (len != 2)
        return zbc_fail(err, "a dots and boxes move is a u16 line index "
                        "(2 bytes), got %zu", len);
    int i = zbc_get_le16(move);
    if (i >= n_lines(s))
        return zbc_fail(err, "line %d out of range 0-%d", i, n_lines(s) - 1);
    if (s->line[i]) {
        char name[16];
        if (!format_line(s, i, name, sizeof name))
            name[0] = '\0';
        return zbc_fail(err, "illegal move: line %s is already drawn", name);
    }
    return 1;
}

static int dots_apply_move(struct zbc_game_state *st, uint8_t seat,
                           const uint8_t *move, size_t len,
                           struct zbc_roll *rolls, struct zbc_err *err)
{
    if (!dots_check_move(st, seat, move, len, err))
        return 0;
    struct dots *s = mst(st);
    int i = zbc_get_le16(move), box[2];
    int n = boxes_of_line(s, i, box);
    bool scored = false;
    s->line[i] = 1;
    s->last = (uint16_t)i;
    for (int k = 0; k < n; k++) {
        if (box_closed(s, s->line, box[k] / s->w, box[k] % s->w)) {
            s->owner[box[k]] = seat;
            scored = true;
        }
    }
    if (all_drawn(s))
        s->to_move = NOBODY_U8;
    else if (!scored)
        s->to_move = (uint8_t)((seat + 1) % s->seats);
    return 1;
}

static size_t dots_gen_moves(const struct zbc_game_state *st,
                             struct zbc_move *out, size_t cap)
{
    const struct dots *s = cst(st);
    size_t n = 0;
    if (s->to_move == NOBODY_U8)
        return 0;
    for (int i = 0; i < n_lines(s) && n < cap; i++) {
        if (!s->line[i]) {
            out[n].len = 2;
            zbc_put_le16(out[n].b, (uint16_t)i);
            n++;
        }
    }
    return n;
}

static size_t encoded_len(int w, int h)
{
    int lines = 2 * w * h + w + h;
    return 4 + (size_t)(lines + 7) / 8 + (size_t)(w * h) + 2;
}

static size_t dots_encode(const struct zbc_game_state *st, uint8_t *out,
                          size_t cap)
{
    const struct dots *s = cst(st);
    size_t need = encoded_len(s->w, s->h), p = 0;
    int lines = n_lines(s);
    if (cap < need)
        return 0;
    out[p++] = s->w;
    out[p++] = s->h;
    out[p++] = s->seats;
    out[p++] = s->to_move;
    memset(out + p, 0, (size_t)(lines + 7) / 8);
    for (int i = 0; i < lines; i++)
        out[p + (size_t)i / 8] |= (uint8_t)(s->line[i] << (i % 8));
    p += (size_t)(lines + 7) / 8;
    memcpy(out + p, s->owner, (size_t)(s->w * s->h));
    p += (size_t)(s->w * s->h);
    zbc_put_le16(out + p, s->last);
    p += 2;
    return p;
}

static int dots_decode(struct zbc_game_state *st, const uint8_t *in,
                       size_t len, struct zbc_err *err)
{
    struct dots s;
    memset(&s, 0, sizeof s);
    if (len < 4)
        return zbc_fail(err, "dots state is truncated (%zu bytes)", len);
    s.w = in[0];
    s.h = in[1];
    s.seats = in[2];
    s.to_move = in[3];
    if (s.w < DIM_MIN || s.w > DIM_MAX || s.h < DIM_MIN || s.h > DIM_MAX)
        return zbc_fail(err, "board %ux%u out of range 2-8", s.w, s.h);
    if (s.seats < 2 || s.seats > 4)
        return zbc_fail(err, "seats %u out of range 2-4", s.seats);
    if (len != encoded_len(s.w, s.h))
        return zbc_fail(err, "dots state for %ux%u is %zu bytes, got %zu",
                        s.w, s.h, encoded_len(s.w, s.h), len);
    int lines = n_lines(&s), boxes = s.w * s.h, drawn = 0;
    const uint8_t *bits = in + 4;
    for (int i = 0; i < lines; i++) {
        s.line[i] = (uint8_t)(bits[i / 8] >> (i % 8) & 1);
        drawn += s.line[i];
    }
    if (lines % 8 != 0 && (bits[lines / 8] >> (lines % 8)) != 0)
        return zbc_fail(err, "unused bits after line %d are set", lines - 1);
    const uint8_t *own = bits + (lines + 7) / 8;
    memset(s.owner, NOBODY_U8, sizeof s.owner);
    memcpy(s.owner, own, (size_t)boxes);
    s.last = zbc_get_le16(own + boxes);
    for (int b = 0; b < boxes; b++) {
        bool closed = box_closed(&s, s.line, b / s.w, b % s.w);
        if (s.owner[b] != NOBODY_U8 && s.owner[b] >= s.seats)
            return zbc_fail(err, "box %d owner %u out of range", b,
                            s.owner[b]);
        if (closed != (s.owner[b] != NOBODY_U8))
            return zbc_fail(err, "box %d is %s but %s", b,
                            closed ? "closed" : "open",
                            closed ? "has no owner" : "has an owner");
    }
    if (drawn == lines) {
        if (s.to_move != NOBODY_U8)
            return zbc_fail(err, "all lines are drawn but seat %u is to move",
                            s.to_move);
    } else if (s.to_move >= s.seats) {
        return zbc_fail(err, "seat to move %u out of range 0-%u", s.to_move,
                        s.seats - 1);
    }
    if (drawn == 0) {
        if (s.last != NO_LINE)
            return zbc_fail(err, "last move %u but no line is drawn", s.last);
    } else {
        if (s.last >= lines || !s.line[s.last])
            return zbc_fail(err, "last move %u is not a drawn line", s.last);
        /* Boxes the last line closed belong to one seat, which moves on. */
        int box[2], n = boxes_of_line(&s, s.last, box), scorer = -1;
        for (int k = 0; k < n; k++) {
            int o = s.owner[box[k]];
            if (o == NOBODY_U8)
                continue;
            if (scorer >= 0 && scorer != o)
                return zbc_fail(err, "the last line closed boxes of two "
                                "seats");
            scorer = o;
        }
        if (scorer >= 0 && s.to_move != NOBODY_U8 && s.to_move != scorer)
            return zbc_fail(err, "seat %d closed a box with the last line "
                            "but seat %u is to move", scorer, s.to_move);
    }
    *mst(st) = s;
    return 1;
}

static void status(const struct zbc_game_state *st, struct zbc_text *t,
                   bool json)
{
    const struct dots *s = cst(st);
    struct zbc_result r;
    int score[ZBC_SEATS_MAX];
    char name[16] = "";
    scores(s, score);
    dots_result(st, &r);
    if (s->last != NO_LINE && !format_line(s, s->last, name, sizeof name))
        name[0] = '\0';
    if (json) {
        zbc_text_printf(t, "\"scores\":[");
        for (int i = 0; i < s->seats; i++)
            zbc_text_printf(t, "%s%d", i ? "," : "", score[i]);
        zbc_text_printf(t, "],");
        if (s->to_move == NOBODY_U8)
            zbc_text_printf(t, "\"turn\":null,");
        else
            zbc_text_printf(t, "\"turn\":%u,", s->to_move);
        if (s->last == NO_LINE)
            zbc_text_printf(t, "\"last\":null,");
        else
            zbc_text_printf(t, "\"last\":\"%s\",", name);
        switch (r.kind) {
        case ZBC_RESULT_ONGOING:
            zbc_text_printf(t, "\"result\":\"ongoing\",\"winner\":null}");
            break;
        case ZBC_RESULT_WIN:
            zbc_text_printf(t, "\"result\":\"win\",\"winner\":%u}", r.winner);
            break;
        case ZBC_RESULT_DRAW:
            zbc_text_printf(t, "\"result\":\"draw\",\"winner\":null}");
            break;
        }
        return;
    }
    zbc_text_printf(t, "boxes:");
    for (int i = 0; i < s->seats; i++)
        zbc_text_printf(t, " seat %d: %d%s", i, score[i],
                        i + 1 < s->seats ? "," : "\n");
    if (s->last != NO_LINE)
        zbc_text_printf(t, "last move: %s\n", name);
    switch (r.kind) {
    case ZBC_RESULT_ONGOING:
        zbc_text_printf(t, "to move: seat %u\n", s->to_move);
        break;
    case ZBC_RESULT_WIN:
        zbc_text_printf(t, "result: seat %u wins\n", r.winner);
        break;
    case ZBC_RESULT_DRAW:
        zbc_text_printf(t, "result: draw\n");
        break;
    }
}

static int dots_to_json(const struct zbc_game_state *st, char *out, size_t cap)
{
    const struct dots *s = cst(st);
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    zbc_text_printf(&t, "{\"game\":\"dots\",\"width\":%u,\"height\":%u,"
                    "\"seats\":%u,\"h_lines\":[", s->w, s->h, s->seats);
    for (int r = 0; r <= s->h; r++) {
        zbc_text_printf(&t, "%s\"", r ? "," : "");
        for (int c = 0; c < s->w; c++)
            zbc_text_printf(&t, "%d", s->line[h_index(s, r, c)]);
        zbc_text_printf(&t, "\"");
    }
    zbc_text_printf(&t, "],\"v_lines\":[");
    for (int r = 0; r < s->h; r++) {
        zbc_text_printf(&t, "%s\"", r ? "," : "");
        for (int c = 0; c <= s->w; c++)
            zbc_text_printf(&t, "%d", s->line[v_index(s, r, c)]);
        zbc_text_printf(&t, "\"");
    }
    zbc_text_printf(&t, "],\"boxes\":[");
    for (int r = 0; r < s->h; r++) {
        zbc_text_printf(&t, "%s\"", r ? "," : "");
        for (int c = 0; c < s->w; c++) {
            uint8_t o = s->owner[r * s->w + c];
            zbc_text_printf(&t, "%c", o == NOBODY_U8 ? '.' : (char)('0' + o));
        }
        zbc_text_printf(&t, "\"");
    }
    zbc_text_printf(&t, "],");
    status(st, &t, true);
    return zbc_text_result(&t);
}

static int dots_render(const struct zbc_game_state *st, char *out, size_t cap)
{
    const struct dots *s = cst(st);
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    zbc_text_printf(&t, "  ");
    for (int c = 0; c <= s->w; c++)
        zbc_text_printf(&t, "%s%d", c ? "   " : "", c);
    zbc_text_printf(&t, "\n");
    for (int r = 0; r <= s->h; r++) {
        zbc_text_printf(&t, "%d ", r);
        for (int c = 0; c <= s->w; c++) {
            zbc_text_printf(&t, "+");
            if (c < s->w)
                zbc_text_printf(&t, "%s",
                                s->line[h_index(s, r, c)] ? "---" : "   ");
        }
        zbc_text_printf(&t, "\n");
        if (r == s->h)
            break;
        zbc_text_printf(&t, "  ");
        for (int c = 0; c <= s->w; c++) {
            zbc_text_printf(&t, "%c", s->line[v_index(s, r, c)] ? '|' : ' ');
            if (c < s->w) {
                uint8_t o = s->owner[r * s->w + c];
                zbc_text_printf(&t, " %c ",
                                o == NOBODY_U8 ? ' ' : (char)('0' + o));
            }
        }
        zbc_text_printf(&t, "\n");
    }
    status(st, &t, false);
    return zbc_text_result(&t);
}

static int dots_parse_move(const struct zbc_game_state *st, uint8_t seat,
                           const char *text, uint8_t *move, size_t cap,
                           size_t *len, struct zbc_err *err)
{
    struct zbc_tokens tk;
    uint64_t r, c;
    if (st == NULL)
        return zbc_fail(err, "dots and boxes needs the board to read a move");
    const struct dots *s = cst(st);
    if (cap < 2)
        return zbc_fail(err, "move buffer too small");
    if (!zbc_notation_tokens(&tk, text, err))
        return 0;
    if (tk.count != 3 || (strcmp(tk.tok[0], "h") != 0 &&
                          strcmp(tk.tok[0], "v") != 0))
        return zbc_fail(err, "a dots and boxes move is 'h ROW COL' or "
                        "'v ROW COL', got '%.40s'", text);
    bool horiz = tk.tok[0][0] == 'h';
    unsigned rmax = horiz ? s->h : s->h - 1u, cmax = horiz ? s->w - 1u : s->w;
    if (!zbc_parse_u64(tk.tok[1], 0, rmax, &r,
                       horiz ? "horizontal line row" : "vertical line row",
                       err) ||
        !zbc_parse_u64(tk.tok[2], 0, cmax, &c,
                       horiz ? "horizontal line column"
                             : "vertical line column", err))
        return 0;
    int i = horiz ? h_index(s, (int)r, (int)c) : v_index(s, (int)r, (int)c);
    zbc_put_le16(move, (uint16_t)i);
    *len = 2;
    return 1;
}

static int dots_format_move(const struct zbc_game_state *st,
                            const uint8_t *move, size_t len, char *out,
                            size_t cap)
{
    if (st == NULL || len != 2)
        return 0;
    const struct dots *s = cst(st);
    int i = zbc_get_le16(move);
    if (i >= n_lines(s))
        return 0;
    return format_line(s, i, out, cap);
}

/* Named params: width=W, height=H, size=WxH; the one not given keeps its
 * default of 4. */
static int dots_params_word(const char *key, const char *value, uint8_t *out,
                            size_t *len, struct zbc_err *err)
{
    if (*len == 0) {
        out[0] = out[1] = DIM_DEFAULT;
        *len = 2;
    }
    if (strcmp(key, "width") == 0)
        return zbc_engine_param_u8(key, value, &out[0], err);
    if (strcmp(key, "height") == 0)
        return zbc_engine_param_u8(key, value, &out[1], err);
    if (strcmp(key, "size") == 0) {
        const char *x = strchr(value, 'x');
        char w[8];
        if (x == NULL || (size_t)(x - value) >= sizeof w)
            return zbc_fail(err, "size: '%.24s' is not WxH", value);
        memcpy(w, value, (size_t)(x - value));
        w[x - value] = '\0';
        return zbc_engine_param_u8("size width", w, &out[0], err) &&
               zbc_engine_param_u8("size height", x + 1, &out[1], err);
    }
    return zbc_fail(err, "no param '%.24s' (the params are width=W, "
                    "height=H, size=WxH)", key);
}

static int dots_params_text(const uint8_t *params, size_t len, char *out,
                            size_t cap)
{
    if (len != 2)
        return 0;
    int n = snprintf(out, cap, "width=%u,height=%u", params[0], params[1]);
    return n > 0 && (size_t)n < cap;
}

const struct zbc_engine zbc_engine_dots = {
    .state_size = sizeof(struct dots),
    .type = 8,
    .name = "dots",
    .min_seats = 2,
    .max_seats = 4,
    .dice = false,
    .draws_first = true,
    .start_rolls = false,
    .check_params = dots_check_params,
    .init = dots_init,
    .turn = dots_turn,
    .result = dots_result,
    .check_move = dots_check_move,
    .apply_move = dots_apply_move,
    .gen_moves = dots_gen_moves,
    .encode = dots_encode,
    .decode = dots_decode,
    .to_json = dots_to_json,
    .render = dots_render,
    .parse_move = dots_parse_move,
    .format_move = dots_format_move,
    .params_word = dots_params_word,
    .params_text = dots_params_text,
};
