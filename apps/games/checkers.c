/* Checkers (type 4): English draughts on the 32 dark squares, standard
 * numbering 1-32 (docs/games.md, section "Checkers (type 4)").  Black
 * (the seat that moves first) starts on 1-12 and moves towards 32; white
 * starts on 21-32.
 * Capture is mandatory, a capture sequence is taken to its end (any
 * sequence may be chosen), a man reaching the far row is crowned and its
 * move ends there.  A seat with no legal move loses; 80 plies without a
 * capture or a man move draw.
 *
 * Square i (0-based, number i + 1) lies on row i / 4 counted from black's
 * side; even rows use columns 1, 3, 5, 7 and odd rows 0, 2, 4, 6. */
#include <string.h>

#include "apps/engine.h"
#include "apps/notation.h"
#include "crypto/bytes.h"

/* The descriptor at the end of this file (the shared steps take it). */
extern const struct zbc_engine zbc_engine_checkers;

#define SQUARES 32
#define QUIET_MAX 80    /* plies without capture or man move that draw */
#define PATH_MAX_SQ 16  /* a capture sequence visits at most 13 squares */

enum side { BLACK = 0, WHITE = 1 };

enum status {
    ST_ONGOING = 0,
    ST_WIN,   /* the side to move has no legal move */
    ST_DRAW,  /* QUIET_MAX quiet plies */
};

struct checkers {
    uint32_t men[2];    /* bit i: square i + 1 holds a piece of that side */
    uint32_t kings;     /* subset of men[0] | men[1] */
    uint8_t black_seat;
    uint8_t stm;        /* enum side */
    uint8_t quiet;
    uint8_t status;     /* enum status, derived */
    uint8_t last_len;   /* squares of the last move (0: none yet) */
    uint8_t last[PATH_MAX_SQ];
};
_Static_assert(sizeof(struct checkers) <= ZBC_GAME_STATE_MAX, "checkers");

#define ENC_HEAD 16

static struct checkers *ms(struct zbc_game_state *st)
{
    return (struct checkers *)(void *)st->b;
}
static const struct checkers *cs(const struct zbc_game_state *st)
{
    return (const struct checkers *)(const void *)st->b;
}

static const char *const SIDE_NAME[2] = {"black", "white"};

/* Diagonal neighbour of square i in direction d (0, 1: towards higher
 * numbers, i.e. black's forward; 2, 3: towards lower), or -1. */
static int neighbour(int i, int d)
{
    int r = i >> 2;
    int c = (r & 1) ? 2 * (i & 3) : 2 * (i & 3) + 1;
    r += d < 2 ? 1 : -1;
    c += (d & 1) ? 1 : -1;
    if (r < 0 || r > 7 || c < 0 || c > 7)
        return -1;
    return r * 4 + c / 2;
}

static int popcount32(uint32_t x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

static int crown_row(int side, int sq)
{
    return side == BLACK ? sq >= 28 : sq < 4;
}

/* Directions a piece may move or jump in: kings all four, men forward. */
static void directions(int side, int king, int *lo, int *hi)
{
    if (king) {
        *lo = 0;
        *hi = 4;
    } else if (side == BLACK) {
        *lo = 0;
        *hi = 2;
    } else {
        *lo = 2;
        *hi = 4;
    }
}

struct movelist {
    struct zbc_move *out;
    size_t cap, n;
};

static void emit(struct movelist *ml, const uint8_t *path, int len)
{
    if (ml->n < ml->cap) {
        ml->out[ml->n].len = (uint8_t)len;
        for (int i = 0; i < len; i++)
            ml->out[ml->n].b[i] = (uint8_t)(path[i] + 1);
    }
    ml->n++;
}

/* Extends a capture sequence from `sq`.  `occ` is every occupied square
 * with the mover lifted off its origin; `taken` the pieces already jumped
 * (they stay on the board until the move ends).  Returns whether any jump
 * was possible; emits complete sequences. */
static int jumps_from(const struct checkers *s, int side, int king, int sq,
                      uint32_t occ, uint32_t taken, uint8_t *path, int len,
                      struct movelist *ml)
{
    int any = 0, lo, hi;
    directions(side, king, &lo, &hi);
    for (int d = lo; d < hi; d++) {
        int mid = neighbour(sq, d);
        if (mid < 0)
            continue;
        int land = neighbour(mid, d);
        if (land < 0 || !(s->men[!side] >> mid & 1) || (taken >> mid & 1) ||
            (occ >> land & 1))
            continue;
        any = 1;
        if (ml == NULL)
            return 1;
        path[len] = (uint8_t)land;
        if ((!king && crown_row(side, land)) ||
            !jumps_from(s, side, king, land, occ, taken | 1u << mid, path,
                        len + 1, ml))
            emit(ml, path, len + 1);
    }
    return any;
}

/* All legal moves of the side to move; with ml NULL, only whether one
 * exists.  Returns the number found (maybe more than ml->cap). */
static size_t generate(const struct checkers *s, struct movelist *ml)
{
    int side = s->stm;
    uint32_t occ = s->men[0] | s->men[1];
    uint8_t path[PATH_MAX_SQ];
    for (int sq = 0; sq < SQUARES; sq++) {
        if (!(s->men[side] >> sq & 1))
            continue;
        path[0] = (uint8_t)sq;
        if (ml == NULL) {
            if (jumps_from(s, side, s->kings >> sq & 1, sq, occ & ~(1u << sq),
                           0, path, 1, NULL))
                return 1;
        } else {
            jumps_from(s, side, s->kings >> sq & 1, sq, occ & ~(1u << sq), 0,
                       path, 1, ml);
        }
    }
    if (ml != NULL && ml->n > 0)
        return ml->n;
    for (int sq = 0; sq < SQUARES; sq++) {
        if (!(s->men[side] >> sq & 1))
            continue;
        int lo, hi;
        directions(side, s->kings >> sq & 1, &lo, &hi);
        for (int d = lo; d < hi; d++) {
            int to = neighbour(sq, d);
            if (to < 0 || (occ >> to & 1))
                continue;
            if (ml == NULL)
                return 1;
            path[0] = (uint8_t)sq;
            path[1] = (uint8_t)to;
            emit(ml, path, 2);
        }
    }
    return ml == NULL ? 0 : ml->n;
}

static int has_legal_move(const struct checkers *s)
{
    return generate(s, NULL) > 0;
}

static enum status compute_status(const struct checkers *s)
{
    if (!has_legal_move(s))
        return ST_WIN;
    if (s->quiet >= QUIET_MAX)
        return ST_DRAW;
    return ST_ONGOING;
}

/* Plays a move already checked legal (squares 1-32 in `move`). */
static void do_move(struct checkers *s, const uint8_t *move, size_t len)
{
    int side = s->stm;
    int from = move[0] - 1, to = move[len - 1] - 1;
    uint32_t captured = 0;
    int king = s->kings >> from & 1;
    for (size_t i = 0; i + 1 < len; i++) {
        int a = move[i] - 1, b = move[i + 1] - 1;
        if ((a >> 2) - (b >> 2) == 2 || (b >> 2) - (a >> 2) == 2) {
            /* the jumped square is the common neighbour */
            for (int d = 0; d < 4; d++) {
                int mid = neighbour(a, d);
                if (mid >= 0 && neighbour(mid, d) == b)
                    captured |= 1u << mid;
            }
        }
    }
    s->men[side] &= ~(1u << from);
    s->kings &= ~(1u << from);
    s->men[side] |= 1u << to;
    if (king || crown_row(side, to))
        s->kings |= 1u << to;
    s->men[!side] &= ~captured;
    s->kings &= ~captured;
    if (captured || !king)
        s->quiet = 0;
    else
        s->quiet++;
    s->last_len = (uint8_t)len;
    memset(s->last, 0, sizeof s->last);
    memcpy(s->last, move, len);
    s->stm = (uint8_t)!side;
    s->status = (uint8_t)compute_status(s);
}

static int seat_of(const struct checkers *s, int side)
{
    return side == BLACK ? s->black_seat : 1 - s->black_seat;
}

static int ck_turn(const struct zbc_game_state *st)
{
    const struct checkers *s = cs(st);
    return s->status == ST_ONGOING ? seat_of(s, s->stm) : ZBC_NOBODY;
}

static void ck_result(const struct zbc_game_state *st, struct zbc_result *out)
{
    const struct checkers *s = cs(st);
    out->winner = 0;
    out->out_mask = 0;
    switch ((enum status)s->status) {
    case ST_ONGOING:
        out->kind = ZBC_RESULT_ONGOING;
        return;
    case ST_WIN:
        out->kind = ZBC_RESULT_WIN;
        out->winner = (uint8_t)seat_of(s, !s->stm);
        return;
    case ST_DRAW:
        out->kind = ZBC_RESULT_DRAW;
        return;
    }
}

static int ck_check_params(uint8_t seats, const uint8_t *params, size_t len,
                           struct zbc_err *err)
{
    if (!zbc_engine_check_seats(&zbc_engine_checkers, seats, err))
        return 0;
    if (len != 0)
        return zbc_fail(err, "checkers takes no params (got %zu bytes)", len);
    return 1;
}

static int ck_init(struct zbc_game_state *st, uint8_t seats,
                   const uint8_t *params, size_t len, uint8_t first,
                   struct zbc_roll *rolls, struct zbc_err *err)
{
    if (!ck_check_params(seats, params, len, err))
        return 0;
    if (first > 1)
        return zbc_fail(err, "first seat %u out of range 0-1", first);
    struct checkers *s = ms(st);
    memset(s, 0, sizeof *s);
    s->men[BLACK] = 0x00000FFFu; /* 1-12 */
    s->men[WHITE] = 0xFFF00000u; /* 21-32 */
    s->black_seat = first;
    s->stm = BLACK;
    s->status = ST_ONGOING;
    return 1;
}

static int format_path(const uint8_t *move, size_t len, char *out, size_t cap)
{
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    int jump = len >= 2 && (((move[0] - 1) >> 2) - ((move[1] - 1) >> 2) == 2 ||
                            ((move[1] - 1) >> 2) - ((move[0] - 1) >> 2) == 2);
    for (size_t i = 0; i < len; i++)
        zbc_text_printf(&t, "%s%u", i ? (jump ? "x" : "-") : "", move[i]);
    return zbc_text_result(&t);
}

static int ck_check_move(const struct zbc_game_state *st, uint8_t seat,
                         const uint8_t *move, size_t len, struct zbc_err *err)
{
    const struct checkers *s = cs(st);
    if (!zbc_engine_move_entry(&zbc_engine_checkers, ck_turn(st), seat, len, err))
        return 0;
    if (len < 2 || len > PATH_MAX_SQ)
        return zbc_fail(err, "a checkers move lists 2-%d squares, not %zu",
                        PATH_MAX_SQ, len);
    for (size_t i = 0; i < len; i++)
        if (move[i] < 1 || move[i] > SQUARES)
            return zbc_fail(err, "square %u out of range 1-32", move[i]);
    if (!(s->men[s->stm] >> (move[0] - 1) & 1))
        return zbc_fail(err, "illegal move: no %s piece on square %u",
                        SIDE_NAME[s->stm], move[0]);
    struct zbc_move moves[ZBC_MOVES_MAX];
    struct movelist ml = {moves, ZBC_MOVES_MAX, 0};
    size_t n = generate(s, &ml);
    if (n > ZBC_MOVES_MAX)
        n = ZBC_MOVES_MAX;
    int is_capture = 0, prefix = 0;
    for (size_t i = 0; i < n; i++) {
        if (moves[i].len == len && memcmp(moves[i].b, move, len) == 0)
            return 1;
        int r0 = (moves[i].b[0] - 1) >> 2, r1 = (moves[i].b[1] - 1) >> 2;
        is_capture |= r0 - r1 == 2 || r1 - r0 == 2;
        prefix |= moves[i].len > len && memcmp(moves[i].b, move, len) == 0;
    }
    char text[64];
    if (format_path(move, len, text, sizeof text) < 0)
        text[0] = '\0';
    if (prefix)
        return zbc_fail(err, "illegal move: the capture %s must continue "
                        "from %u", text, move[len - 1]);
    int r0 = (move[0] - 1) >> 2, r1 = (move[1] - 1) >> 2;
    if (is_capture && r0 - r1 != 2 && r1 - r0 != 2)
        return zbc_fail(err, "illegal move: %s is not a capture and a "
                        "capture is mandatory", text);
    return zbc_fail(err, "illegal move: %s is not a legal %s move", text,
                    (s->kings >> (move[0] - 1) & 1) ? "king" : "man");
}

static int ck_apply_move(struct zbc_game_state *st, uint8_t seat,
                         const uint8_t *move, size_t len,
                         struct zbc_roll *rolls, struct zbc_err *err)
{
    if (!ck_check_move(st, seat, move, len, err))
        return 0;
    do_move(ms(st), move, len);
    return 1;
}

static size_t ck_gen_moves(const struct zbc_game_state *st,
                           struct zbc_move *out, size_t cap)
{
    const struct checkers *s = cs(st);
    if (s->status != ST_ONGOING)
        return 0;
    struct movelist ml = {out, cap, 0};
    size_t n = generate(s, &ml);
    return n < cap ? n : cap;
}

static size_t ck_encode(const struct zbc_game_state *st, uint8_t *out,
                        size_t cap)
{
    const struct checkers *s = cs(st);
    size_t need = ENC_HEAD + (size_t)s->last_len;
    if (cap < need)
        return 0;
    out[0] = s->black_seat;
    out[1] = s->stm;
    out[2] = s->quiet;
    zbc_put_le32(out + 3, s->men[BLACK]);
    zbc_put_le32(out + 7, s->men[WHITE]);
    zbc_put_le32(out + 11, s->kings);
    out[15] = s->last_len;
    memcpy(out + ENC_HEAD, s->last, s->last_len);
    return need;
}

static int ck_decode(struct zbc_game_state *st, const uint8_t *in, size_t len,
                     struct zbc_err *err)
{
    struct checkers s;
    memset(&s, 0, sizeof s);
    if (len < ENC_HEAD)
        return zbc_fail(err, "checkers state is %zu bytes, at least %d "
                        "needed", len, ENC_HEAD);
    if (len != ENC_HEAD + (size_t)in[15])
        return zbc_fail(err, "checkers state with a %u-square last move must "
                        "be %u bytes, not %zu", in[15], ENC_HEAD + in[15],
                        len);
    if (in[0] > 1)
        return zbc_fail(err, "black seat %u out of range 0-1", in[0]);
    if (in[1] > 1)
        return zbc_fail(err, "side to move %u out of range 0-1", in[1]);
    if (in[2] > QUIET_MAX)
        return zbc_fail(err, "quiet ply count %u above %d", in[2], QUIET_MAX);
    s.black_seat = in[0];
    s.stm = in[1];
    s.quiet = in[2];
    s.men[BLACK] = zbc_get_le32(in + 3);
    s.men[WHITE] = zbc_get_le32(in + 7);
    s.kings = zbc_get_le32(in + 11);
    if (s.men[BLACK] & s.men[WHITE])
        return zbc_fail(err, "a square holds both a black and a white piece");
    if (s.kings & ~(s.men[BLACK] | s.men[WHITE]))
        return zbc_fail(err, "a king flag is set on an empty square");
    for (int side = 0; side < 2; side++)
        if (popcount32(s.men[side]) > 12)
            return zbc_fail(err, "%s has %d pieces, at most 12",
                            SIDE_NAME[side], popcount32(s.men[side]));
    if (s.men[BLACK] & ~s.kings & 0xF0000000u)
        return zbc_fail(err, "an uncrowned black man stands on 29-32");
    if (s.men[WHITE] & ~s.kings & 0x0000000Fu)
        return zbc_fail(err, "an uncrowned white man stands on 1-4");
    if (s.men[!s.stm] == 0)
        return zbc_fail(err, "%s just moved but has no pieces",
                        SIDE_NAME[!s.stm]);
    s.last_len = in[15];
    if (s.last_len == 1 || s.last_len > PATH_MAX_SQ)
        return zbc_fail(err, "last move length %u not 0 or 2-%d", s.last_len,
                        PATH_MAX_SQ);
    if (s.last_len > 0) {
        for (int i = 0; i < s.last_len; i++) {
            if (in[ENC_HEAD + i] < 1 || in[ENC_HEAD + i] > SQUARES)
                return zbc_fail(err, "last move square %u out of range 1-32",
                                in[ENC_HEAD + i]);
            s.last[i] = in[ENC_HEAD + i];
        }
        if (!(s.men[!s.stm] >> (s.last[s.last_len - 1] - 1) & 1))
            return zbc_fail(err, "the last move does not end on a %s piece",
                            SIDE_NAME[!s.stm]);
    } else if (s.stm != BLACK || s.quiet != 0) {
        return zbc_fail(err, "only the start of a game has no last move");
    }
    s.status = (uint8_t)compute_status(&s);
    memcpy(ms(st), &s, sizeof s);
    return 1;
}

static char piece_char(const struct checkers *s, int sq)
{
    int king = s->kings >> sq & 1;
    if (s->men[BLACK] >> sq & 1)
        return king ? 'B' : 'b';
    if (s->men[WHITE] >> sq & 1)
        return king ? 'W' : 'w';
    return '.';
}

static int ck_to_json(const struct zbc_game_state *st, char *out, size_t cap)
{
    const struct checkers *s = cs(st);
    struct zbc_text t;
    char lm[64];
    zbc_text_init(&t, out, cap);
    zbc_text_printf(&t, "{\"game\":\"checkers\",\"black_seat\":%u,"
                    "\"white_seat\":%u,\"squares\":\"", s->black_seat,
                    1 - s->black_seat);
    for (int sq = 0; sq < SQUARES; sq++)
        zbc_text_printf(&t, "%c", piece_char(s, sq));
    zbc_text_printf(&t, "\",\"board\":[");
    for (int r = 0; r < 8; r++) {
        zbc_text_printf(&t, "%s\"", r ? "," : "");
        for (int c = 0; c < 8; c++)
            zbc_text_printf(&t, "%c", ((r + c) & 1) ? piece_char(s, r * 4 + c / 2)
                                                    : ' ');
        zbc_text_printf(&t, "\"");
    }
    zbc_text_printf(&t, "],\"to_move\":\"%s\",", SIDE_NAME[s->stm]);
    if (s->status == ST_ONGOING)
        zbc_text_printf(&t, "\"turn\":%d,", seat_of(s, s->stm));
    else
        zbc_text_printf(&t, "\"turn\":null,");
    if (s->last_len > 0 && format_path(s->last, s->last_len, lm, sizeof lm) > 0)
        zbc_text_printf(&t, "\"last_move\":\"%s\",", lm);
    else
        zbc_text_printf(&t, "\"last_move\":null,");
    zbc_text_printf(&t, "\"quiet_plies\":%u,", s->quiet);
    switch ((enum status)s->status) {
    case ST_ONGOING:
        zbc_text_printf(&t, "\"result\":\"ongoing\",\"winner\":null,"
                        "\"reason\":null}");
        break;
    case ST_WIN:
        zbc_text_printf(&t, "\"result\":\"win\",\"winner\":%d,"
                        "\"reason\":\"no legal move\"}",
                        seat_of(s, !s->stm));
        break;
    case ST_DRAW:
        zbc_text_printf(&t, "\"result\":\"draw\",\"winner\":null,"
                        "\"reason\":\"80 quiet plies\"}");
        break;
    }
    return zbc_text_result(&t);
}

static int ck_render(const struct zbc_game_state *st, char *out, size_t cap)
{
    const struct checkers *s = cs(st);
    struct zbc_text t;
    char lm[64];
    zbc_text_init(&t, out, cap);
    /* Dark squares show their number when empty. */
    zbc_text_printf(&t, "+------------------------+\n");
    for (int r = 0; r < 8; r++) {
        zbc_text_printf(&t, "|");
        for (int c = 0; c < 8; c++) {
            int sq = r * 4 + c / 2;
            if (!((r + c) & 1))
                zbc_text_printf(&t, "   ");
            else if (piece_char(s, sq) == '.')
                zbc_text_printf(&t, "%2d ", sq + 1);
            else
                zbc_text_printf(&t, " %c ", piece_char(s, sq));
        }
        zbc_text_printf(&t, "|\n");
    }
    zbc_text_printf(&t, "+------------------------+\n");
    zbc_text_printf(&t, "black b/B: seat %u, white w/W: seat %u (B, W "
                    "kings)\n", s->black_seat, 1 - s->black_seat);
    if (s->last_len > 0 && format_path(s->last, s->last_len, lm, sizeof lm) > 0)
        zbc_text_printf(&t, "last move: %s\n", lm);
    switch ((enum status)s->status) {
    case ST_ONGOING:
        zbc_text_printf(&t, "%s to move (seat %d), %u quiet plies\n",
                        SIDE_NAME[s->stm], seat_of(s, s->stm), s->quiet);
        break;
    case ST_WIN:
        zbc_text_printf(&t, "result: %s wins, %s has no legal move (seat %d "
                        "wins)\n", SIDE_NAME[!s->stm], SIDE_NAME[s->stm],
                        seat_of(s, !s->stm));
        break;
    case ST_DRAW:
        zbc_text_printf(&t, "result: draw after %d plies without capture or "
                        "man move\n", QUIET_MAX);
        break;
    }
    return zbc_text_result(&t);
}

static int ck_parse_move(const struct zbc_game_state *st, uint8_t seat,
                         const char *text, uint8_t *move, size_t cap,
                         size_t *len, struct zbc_err *err)
{
    size_t n = 0;
    const char *p = text;
    char sep = 0;
    for (;;) {
        size_t digits = strspn(p, "0123456789");
        uint64_t v;
        struct zbc_err sub;
        if (digits > 3)
            digits = 3;
        if (digits == 0 || !zbc_parse_u64n(p, digits, 0, 999, &v, "square", &sub))
            return zbc_fail(err, "checkers move '%.40s' must look like 11-15 "
                            "or 11x18x25", text);
        p += digits;
        if (v < 1 || v > SQUARES)
            return zbc_fail(err, "square %u out of range 1-32", (unsigned)v);
        if (n == cap || n == PATH_MAX_SQ)
            return zbc_fail(err, "checkers move '%.40s' is too long", text);
        move[n++] = (uint8_t)v;
        if (*p == '\0')
            break;
        char c = *p == 'X' ? 'x' : *p;
        if ((c != '-' && c != 'x') || (sep != 0 && c != sep) ||
            (c == '-' && n > 1))
            return zbc_fail(err, "checkers move '%.40s' must look like 11-15 "
                            "or 11x18x25", text);
        sep = c;
        p++;
    }
    if (n < 2)
        return zbc_fail(err, "checkers move '%.40s' must look like 11-15 or "
                        "11x18x25", text);
    *len = n;
    return 1;
}

static int ck_format_move(const struct zbc_game_state *st, const uint8_t *move,
                          size_t len, char *out, size_t cap)
{
    if (len < 2 || len > PATH_MAX_SQ)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (move[i] < 1 || move[i] > SQUARES)
            return 0;
    return format_path(move, len, out, cap) > 0;
}

/* Eval (docs/games.md, "Machine opponents"): 100 per man, 150 per king, 3
 * per row a man has advanced, for `seat` minus for the other. */
static int32_t ck_eval(const struct zbc_game_state *st, uint8_t seat)
{
    const struct checkers *s = cs(st);
    int32_t v[2] = {0, 0};
    for (int side = BLACK; side <= WHITE; side++)
        for (int i = 0; i < SQUARES; i++) {
            uint32_t bit = (uint32_t)1 << i;
            if (!(s->men[side] & bit))
                continue;
            int row = i / 4;
            v[side] += (s->kings & bit) ? 150 : 100 + 3 * (side == BLACK ? row : 7 - row);
        }
    int me = seat_of(s, BLACK) == seat ? BLACK : WHITE;
    return v[me] - v[!me];
}

const struct zbc_engine zbc_engine_checkers = {
    .state_size = sizeof(struct checkers),
    .type = 4,
    .name = "checkers",
    .min_seats = 2,
    .max_seats = 2,
    .dice = false,
    .draws_first = true,
    .start_rolls = false,
    .check_params = ck_check_params,
    .init = ck_init,
    .turn = ck_turn,
    .result = ck_result,
    .check_move = ck_check_move,
    .apply_move = ck_apply_move,
    .gen_moves = ck_gen_moves,
    .encode = ck_encode,
    .decode = ck_decode,
    .to_json = ck_to_json,
    .render = ck_render,
    .parse_move = ck_parse_move,
    .format_move = ck_format_move,
    .eval = ck_eval,
};
