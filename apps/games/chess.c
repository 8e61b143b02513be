/* Chess (type 2), the simplified rules of docs/games.md,
 * section "Chess (type 2)":
 * no castling, no en passant, a pawn reaching the last rank always becomes
 * a queen.  Checkmate wins; stalemate, insufficient material, the 75-move
 * rule (150 plies without capture or pawn move) and fivefold repetition
 * draw at once.
 *
 * The state keeps the position after the last irreversible move (capture
 * or pawn move) plus the reversible moves played since; the current board
 * and a hash per position are derived from them.  That is what the
 * canonical encoding holds, so decode() checks the history by replaying it
 * and the repetition count can never be forged. */
#include "apps/games/chess.h"

#include <string.h>

#include "apps/notation.h"
#include "crypto/bytes.h"

/* The descriptor at the end of this file (the shared steps take it). */
extern const struct zbc_engine zbc_engine_chess;

#define HIST_MAX 150  /* plies without capture or pawn move that draw */
#define FULLMOVE_MAX 9999
#define NO_SQ 0xFF

enum piece { EMPTY = 0, PAWN = 1, KNIGHT, BISHOP, ROOK, QUEEN, KING };
enum color { WHITE = 0, BLACK = 1 };

/* Board codes: 0 empty, 1-6 white P N B R Q K, 7-12 black P N B R Q K. */
#define CODE(c, t) ((uint8_t)((c) == BLACK ? (t) + 6 : (t)))
static int ptype(uint8_t p) { return p > 6 ? p - 6 : p; }
static int pcolor(uint8_t p) { return p > 6 ? BLACK : WHITE; }

enum status {
    ST_ONGOING = 0,
    ST_CHECKMATE,
    ST_STALEMATE,
    ST_INSUFFICIENT,
    ST_SEVENTY_FIVE,
    ST_FIVEFOLD,
};

struct chess {
    uint8_t board[64];          /* current position, a1 = 0 ... h8 = 63 */
    uint8_t base[64];           /* position after the last irreversible move */
    uint8_t moves[HIST_MAX][2]; /* reversible moves since base */
    uint64_t hash[HIST_MAX + 1];/* hash[i]: position after i of them */
    uint16_t base_ply;          /* plies played before base; parity = side */
    uint8_t base_half;          /* halfmove clock at base */
    uint8_t base_last[2];       /* move that produced base, NO_SQ if none */
    uint8_t n;                  /* moves[] used */
    uint8_t white_seat;
    uint8_t ksq[2];
    uint8_t status;             /* enum status, derived */
};
_Static_assert(sizeof(struct chess) <= ZBC_GAME_STATE_MAX, "chess state");

#define ENC_HEAD 71

static struct chess *ms(struct zbc_game_state *st)
{
    return (struct chess *)(void *)st->b;
}
static const struct chess *cs(const struct zbc_game_state *st)
{
    return (const struct chess *)(const void *)st->b;
}

static int stm(const struct chess *s) { return (s->base_ply + s->n) & 1; }
static unsigned halfmove(const struct chess *s) { return s->base_half + s->n; }

static const char PIECE_CHAR[] = ".PNBRQKpnbrqk";
static const char *const PIECE_NAME[7] = {
    "", "pawn", "knight", "bishop", "rook", "queen", "king",
};
static const char *const COLOR_NAME[2] = {"white", "black"};

static const int KNIGHT_D[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                   {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
static const int KING_D[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                                 {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
/* First four orthogonal (rook), last four diagonal (bishop). */
#define ROOK_DIRS 0
#define BISHOP_DIRS 4
static const int RAY_D[8][2] = {{1, 0}, {-1, 0}, {0, 1},  {0, -1},
                                {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

static int on_board(int f, int r) { return f >= 0 && f < 8 && r >= 0 && r < 8; }

/* Whether square sq is attacked by a piece of colour `by`. */
static int attacked(const uint8_t *b, int sq, int by)
{
    int f = sq & 7, r = sq >> 3;
    int pr = by == WHITE ? r - 1 : r + 1;
    for (int df = -1; df <= 1; df += 2)
        if (on_board(f + df, pr) && b[pr * 8 + f + df] == CODE(by, PAWN))
            return 1;
    for (int i = 0; i < 8; i++) {
        int nf = f + KNIGHT_D[i][0], nr = r + KNIGHT_D[i][1];
        if (on_board(nf, nr) && b[nr * 8 + nf] == CODE(by, KNIGHT))
            return 1;
        nf = f + KING_D[i][0];
        nr = r + KING_D[i][1];
        if (on_board(nf, nr) && b[nr * 8 + nf] == CODE(by, KING))
            return 1;
    }
    for (int i = 0; i < 8; i++) {
        int slider = i < BISHOP_DIRS ? ROOK : BISHOP;
        int nf = f + RAY_D[i][0], nr = r + RAY_D[i][1];
        for (; on_board(nf, nr); nf += RAY_D[i][0], nr += RAY_D[i][1]) {
            uint8_t p = b[nr * 8 + nf];
            if (p == EMPTY)
                continue;
            if (p == CODE(by, slider) || p == CODE(by, QUEEN))
                return 1;
            break;
        }
    }
    return 0;
}

/* Squares the piece on `from` may move to, ignoring the safety of its own
 * king.  Returns the count (at most 27). */
static int targets(const uint8_t *b, int from, uint8_t *to)
{
    uint8_t p = b[from];
    int c = pcolor(p), f = from & 7, r = from >> 3, n = 0;
    switch ((enum piece)ptype(p)) {
    case EMPTY:
        return 0;
    case PAWN: {
        int dir = c == WHITE ? 1 : -1, start = c == WHITE ? 1 : 6;
        int r1 = r + dir;
        if (r1 < 0 || r1 > 7)
            return 0;
        if (b[r1 * 8 + f] == EMPTY) {
            to[n++] = (uint8_t)(r1 * 8 + f);
            if (r == start && b[(r1 + dir) * 8 + f] == EMPTY)
                to[n++] = (uint8_t)((r1 + dir) * 8 + f);
        }
        for (int df = -1; df <= 1; df += 2) {
            if (!on_board(f + df, r1))
                continue;
            uint8_t q = b[r1 * 8 + f + df];
            if (q != EMPTY && pcolor(q) != c)
                to[n++] = (uint8_t)(r1 * 8 + f + df);
        }
        return n;
    }
    case KNIGHT:
    case KING: {
        const int(*d)[2] = ptype(p) == KNIGHT ? KNIGHT_D : KING_D;
        for (int i = 0; i < 8; i++) {
            int nf = f + d[i][0], nr = r + d[i][1];
            if (!on_board(nf, nr))
                continue;
            uint8_t q = b[nr * 8 + nf];
            if (q == EMPTY || pcolor(q) != c)
                to[n++] = (uint8_t)(nr * 8 + nf);
        }
        return n;
    }
    case BISHOP:
    case ROOK:
    case QUEEN: {
        int lo = ptype(p) == BISHOP ? BISHOP_DIRS : ROOK_DIRS;
        int hi = ptype(p) == ROOK ? BISHOP_DIRS : 8;
        for (int i = lo; i < hi; i++) {
            int nf = f + RAY_D[i][0], nr = r + RAY_D[i][1];
            for (; on_board(nf, nr); nf += RAY_D[i][0], nr += RAY_D[i][1]) {
                uint8_t q = b[nr * 8 + nf];
                if (q != EMPTY && pcolor(q) == c)
                    break;
                to[n++] = (uint8_t)(nr * 8 + nf);
                if (q != EMPTY)
                    break;
            }
        }
        return n;
    }
    }
    return 0;
}

/* Whether moving from -> to leaves the mover's king safe. */
static int king_safe_after(const struct chess *s, int from, int to)
{
    uint8_t b[64];
    memcpy(b, s->board, sizeof b);
    int c = pcolor(b[from]);
    int k = ptype(b[from]) == KING ? to : s->ksq[c];
    b[to] = b[from];
    b[from] = EMPTY;
    return !attacked(b, k, !c);
}

static int has_legal_move(const struct chess *s)
{
    int c = stm(s);
    uint8_t to[32];
    for (int from = 0; from < 64; from++) {
        uint8_t p = s->board[from];
        if (p == EMPTY || pcolor(p) != c)
            continue;
        int n = targets(s->board, from, to);
        for (int i = 0; i < n; i++)
            if (king_safe_after(s, from, to[i]))
                return 1;
    }
    return 0;
}

/* K v K, K+minor v K, and K+B v K+B with both bishops on one square colour. */
static int insufficient_material(const uint8_t *b)
{
    int minors = 0, bishops = 0, bishop_color[2] = {-1, -1};
    for (int sq = 0; sq < 64; sq++) {
        uint8_t p = b[sq];
        switch ((enum piece)ptype(p)) {
        case EMPTY:
        case KING:
            break;
        case PAWN:
        case ROOK:
        case QUEEN:
            return 0;
        case KNIGHT:
            minors++;
            break;
        case BISHOP:
            minors++;
            if (bishop_color[pcolor(p)] >= 0)
                return 0; /* two bishops of one side */
            bishop_color[pcolor(p)] = ((sq & 7) + (sq >> 3)) & 1;
            bishops++;
            break;
        }
    }
    if (minors <= 1)
        return 1;
    return minors == 2 && bishops == 2 && bishop_color[0] == bishop_color[1];
}

/* Zobrist-style keys from a fixed mixing function (no table, no state). */
static uint64_t mix(uint64_t x)
{
    x = (x + 1) * 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}
static uint64_t zkey(uint8_t p, int sq) { return mix((uint64_t)p * 64 + (uint64_t)sq + 1); }
#define ZSIDE_BLACK 0x5A3C9E1F27D4B681ull

static uint64_t full_hash(const uint8_t *b, int side)
{
    uint64_t h = side == BLACK ? ZSIDE_BLACK : 0;
    for (int sq = 0; sq < 64; sq++)
        if (b[sq] != EMPTY)
            h ^= zkey(b[sq], sq);
    return h;
}

/* How often the current position (with the same side to move) occurred
 * since base, counting itself.  Hashes pick candidates; when there is more
 * than one, equal boards are confirmed by replaying, so a hash collision
 * never counts. */
static int repetitions(const struct chess *s)
{
    int count = 0;
    for (int i = s->n; i >= 0; i -= 2)
        if (s->hash[i] == s->hash[s->n])
            count++;
    if (count < 2)
        return count;
    uint8_t b[64];
    memcpy(b, s->base, sizeof b);
    count = 0;
    for (int i = 0; i <= s->n; i++) {
        if ((i & 1) == (s->n & 1) && memcmp(b, s->board, sizeof b) == 0)
            count++;
        if (i < s->n) {
            b[s->moves[i][1]] = b[s->moves[i][0]];
            b[s->moves[i][0]] = EMPTY;
        }
    }
    return count;
}

static enum status compute_status(const struct chess *s)
{
    if (!has_legal_move(s))
        return attacked(s->board, s->ksq[stm(s)], !stm(s)) ? ST_CHECKMATE
                                                           : ST_STALEMATE;
    if (insufficient_material(s->board))
        return ST_INSUFFICIENT;
    if (halfmove(s) >= HIST_MAX)
        return ST_SEVENTY_FIVE;
    if (repetitions(s) >= 5)
        return ST_FIVEFOLD;
    return ST_ONGOING;
}

/* Makes the new position base: after an irreversible move or at a start. */
static void set_base(struct chess *s)
{
    memcpy(s->base, s->board, sizeof s->base);
    s->n = 0;
    s->hash[0] = full_hash(s->board, stm(s));
    for (int sq = 0; sq < 64; sq++)
        if (ptype(s->board[sq]) == KING)
            s->ksq[pcolor(s->board[sq])] = (uint8_t)sq;
}

/* Plays a move already checked legal. */
static void do_move(struct chess *s, int from, int to)
{
    uint8_t p = s->board[from], captured = s->board[to];
    int c = pcolor(p);
    int last_rank = c == WHITE ? 7 : 0;
    if (ptype(p) == PAWN || captured != EMPTY) {
        s->board[to] = ptype(p) == PAWN && (to >> 3) == last_rank
                           ? CODE(c, QUEEN) : p;
        s->board[from] = EMPTY;
        s->base_ply = (uint16_t)(s->base_ply + s->n + 1);
        s->base_half = 0;
        s->base_last[0] = (uint8_t)from;
        s->base_last[1] = (uint8_t)to;
        set_base(s);
    } else {
        s->board[to] = p;
        s->board[from] = EMPTY;
        if (ptype(p) == KING)
            s->ksq[c] = (uint8_t)to;
        s->moves[s->n][0] = (uint8_t)from;
        s->moves[s->n][1] = (uint8_t)to;
        s->hash[s->n + 1] = s->hash[s->n] ^ zkey(p, from) ^ zkey(p, to) ^
                            ZSIDE_BLACK;
        s->n++;
    }
    s->status = (uint8_t)compute_status(s);
}

static void square_name(int sq, char out[3])
{
    out[0] = (char)('a' + (sq & 7));
    out[1] = (char)('1' + (sq >> 3));
    out[2] = '\0';
}

/* The legality of from -> to for the side to move, whatever the seat. */
static int check_geometry(const struct chess *s, unsigned from, unsigned to,
                          struct zbc_err *err)
{
    if (from > 63)
        return zbc_fail(err, "from square %u out of range 0-63", from);
    if (to > 63)
        return zbc_fail(err, "to square %u out of range 0-63", to);
    char a[3], b[3];
    square_name((int)from, a);
    square_name((int)to, b);
    uint8_t p = s->board[from];
    if (p == EMPTY)
        return zbc_fail(err, "illegal move: no piece on %s", a);
    if (pcolor(p) != stm(s))
        return zbc_fail(err, "illegal move: the piece on %s is %s's and %s "
                        "is to move", a, COLOR_NAME[pcolor(p)],
                        COLOR_NAME[stm(s)]);
    uint8_t t[32];
    int n = targets(s->board, (int)from, t), found = 0;
    for (int i = 0; i < n; i++)
        found |= t[i] == to;
    if (!found)
        return zbc_fail(err, "illegal move: %s%s is not a legal %s move%s", a,
                        b, PIECE_NAME[ptype(p)],
                        ptype(p) == KING && (from == to + 2 || to == from + 2)
                            ? " (there is no castling)" : "");
    if (!king_safe_after(s, (int)from, (int)to))
        return zbc_fail(err, "illegal move: %s%s leaves the %s king in check",
                        a, b, COLOR_NAME[stm(s)]);
    return 1;
}

static int seat_of(const struct chess *s, int color)
{
    return color == WHITE ? s->white_seat : 1 - s->white_seat;
}

static int chess_turn(const struct zbc_game_state *st)
{
    const struct chess *s = cs(st);
    return s->status == ST_ONGOING ? seat_of(s, stm(s)) : ZBC_NOBODY;
}

static void chess_result(const struct zbc_game_state *st, struct zbc_result *out)
{
    const struct chess *s = cs(st);
    out->winner = 0;
    out->out_mask = 0;
    switch ((enum status)s->status) {
    case ST_ONGOING:
        out->kind = ZBC_RESULT_ONGOING;
        return;
    case ST_CHECKMATE:
        out->kind = ZBC_RESULT_WIN;
        out->winner = (uint8_t)seat_of(s, !stm(s));
        return;
    case ST_STALEMATE:
    case ST_INSUFFICIENT:
    case ST_SEVENTY_FIVE:
    case ST_FIVEFOLD:
        out->kind = ZBC_RESULT_DRAW;
        return;
    }
}

static int chess_check_params(uint8_t seats, const uint8_t *params, size_t len,
                              struct zbc_err *err)
{
    if (!zbc_engine_check_seats(&zbc_engine_chess, seats, err))
        return 0;
    if (len != 0)
        return zbc_fail(err, "chess takes no params (got %zu bytes)", len);
    return 1;
}

static const char START_RANK[8] = {ROOK, KNIGHT, BISHOP, QUEEN,
                                   KING, BISHOP, KNIGHT, ROOK};

static int chess_init(struct zbc_game_state *st, uint8_t seats,
                      const uint8_t *params, size_t len, uint8_t first,
                      struct zbc_roll *rolls, struct zbc_err *err)
{
    if (!chess_check_params(seats, params, len, err))
        return 0;
    if (first > 1)
        return zbc_fail(err, "first seat %u out of range 0-1", first);
    struct chess *s = ms(st);
    memset(s, 0, sizeof *s);
    for (int f = 0; f < 8; f++) {
        s->board[f] = CODE(WHITE, START_RANK[f]);
        s->board[8 + f] = CODE(WHITE, PAWN);
        s->board[48 + f] = CODE(BLACK, PAWN);
        s->board[56 + f] = CODE(BLACK, START_RANK[f]);
    }
    s->white_seat = first;
    s->base_last[0] = s->base_last[1] = NO_SQ;
    set_base(s);
    s->status = ST_ONGOING;
    return 1;
}

static int chess_check_move(const struct zbc_game_state *st, uint8_t seat,
                            const uint8_t *move, size_t len,
                            struct zbc_err *err)
{
    const struct chess *s = cs(st);
    if (!zbc_engine_move_entry(&zbc_engine_chess, chess_turn(st), seat, len, err))
        return 0;
    if (len != 2)
        return zbc_fail(err, "a chess move is 2 bytes (from, to), not %zu",
                        len);
    if (s->base_ply + s->n >= UINT16_MAX)
        return zbc_fail(err, "ply counter would overflow");
    return check_geometry(s, move[0], move[1], err);
}

static int chess_apply_move(struct zbc_game_state *st, uint8_t seat,
                            const uint8_t *move, size_t len,
                            struct zbc_roll *rolls, struct zbc_err *err)
{
    if (!chess_check_move(st, seat, move, len, err))
        return 0;
    do_move(ms(st), move[0], move[1]);
    return 1;
}

static size_t chess_gen_moves(const struct zbc_game_state *st,
                              struct zbc_move *out, size_t cap)
{
    const struct chess *s = cs(st);
    if (s->status != ST_ONGOING)
        return 0;
    int c = stm(s);
    size_t count = 0;
    uint8_t to[32];
    for (int from = 0; from < 64; from++) {
        uint8_t p = s->board[from];
        if (p == EMPTY || pcolor(p) != c)
            continue;
        int n = targets(s->board, from, to);
        for (int i = 0; i < n; i++) {
            if (!king_safe_after(s, from, to[i]))
                continue;
            if (count == cap)
                return count;
            out[count].len = 2;
            out[count].b[0] = (uint8_t)from;
            out[count].b[1] = to[i];
            count++;
        }
    }
    return count;
}

static size_t chess_encode(const struct zbc_game_state *st, uint8_t *out,
                           size_t cap)
{
    const struct chess *s = cs(st);
    size_t need = ENC_HEAD + 2 * (size_t)s->n;
    if (cap < need)
        return 0;
    out[0] = s->white_seat;
    memcpy(out + 1, s->base, 64);
    zbc_put_le16(out + 65, s->base_ply);
    out[67] = s->base_half;
    out[68] = s->base_last[0];
    out[69] = s->base_last[1];
    out[70] = s->n;
    for (size_t i = 0; i < s->n; i++) {
        out[ENC_HEAD + 2 * i] = s->moves[i][0];
        out[ENC_HEAD + 2 * i + 1] = s->moves[i][1];
    }
    return need;
}

/* Checks that a board could come from a game: piece codes, one king each,
 * no pawn on the first or last rank, men counts, the side that just moved
 * not left in check. */
static int check_position(const uint8_t *b, int side, struct zbc_err *err)
{
    int cnt[2][7];
    memset(cnt, 0, sizeof cnt);
    for (int sq = 0; sq < 64; sq++) {
        if (b[sq] > 12)
            return zbc_fail(err, "bad piece code %u on square %d", b[sq], sq);
        if (b[sq] == EMPTY)
            continue;
        cnt[pcolor(b[sq])][ptype(b[sq])]++;
        if (ptype(b[sq]) == PAWN && (sq < 8 || sq >= 56)) {
            char a[3];
            square_name(sq, a);
            return zbc_fail(err, "pawn on %s (first or last rank)", a);
        }
    }
    for (int c = 0; c < 2; c++) {
        if (cnt[c][KING] != 1)
            return zbc_fail(err, "%s has %d kings, needs exactly 1",
                            COLOR_NAME[c], cnt[c][KING]);
        int men = 0;
        for (int t = PAWN; t <= KING; t++)
            men += cnt[c][t];
        if (men > 16)
            return zbc_fail(err, "%s has %d men, at most 16", COLOR_NAME[c],
                            men);
        if (cnt[c][PAWN] > 8)
            return zbc_fail(err, "%s has %d pawns, at most 8", COLOR_NAME[c],
                            cnt[c][PAWN]);
        int extra = 0;
        const int usual[7] = {0, 8, 2, 2, 2, 1, 1};
        for (int t = KNIGHT; t <= QUEEN; t++)
            if (cnt[c][t] > usual[t])
                extra += cnt[c][t] - usual[t];
        if (extra > 8 - cnt[c][PAWN])
            return zbc_fail(err, "%s has more promoted pieces than missing "
                            "pawns", COLOR_NAME[c]);
    }
    int ksq = 0;
    for (int sq = 0; sq < 64; sq++)
        if (b[sq] == CODE(!side, KING))
            ksq = sq;
    if (attacked(b, ksq, side))
        return zbc_fail(err, "%s is to move but the %s king is in check",
                        COLOR_NAME[side], COLOR_NAME[!side]);
    return 1;
}

/* Fills s from a base position and replays `n` reversible moves. */
static int replay(struct chess *s, const uint8_t *moves, size_t n,
                  struct zbc_err *err)
{
    if (!check_position(s->base, s->base_ply & 1, err))
        return 0;
    memcpy(s->board, s->base, sizeof s->board);
    set_base(s);
    s->status = (uint8_t)compute_status(s);
    for (size_t i = 0; i < n; i++) {
        unsigned from = moves[2 * i], to = moves[2 * i + 1];
        if (s->status != ST_ONGOING)
            return zbc_fail(err, "history move %zu follows the end of the "
                            "game", i + 1);
        if (!check_geometry(s, from, to, err))
            return zbc_fail_prefix(err, "history move %zu", i + 1);
        if (ptype(s->board[from]) == PAWN || s->board[to] != EMPTY)
            return zbc_fail(err, "history move %zu is a pawn move or capture",
                            i + 1);
        do_move(s, (int)from, (int)to);
    }
    return 1;
}

static int chess_decode(struct zbc_game_state *st, const uint8_t *in,
                        size_t len, struct zbc_err *err)
{
    struct chess s;
    memset(&s, 0, sizeof s);
    if (len < ENC_HEAD)
        return zbc_fail(err, "chess state is %zu bytes, at least %d needed",
                        len, ENC_HEAD);
    size_t n = in[70];
    if (len != ENC_HEAD + 2 * n)
        return zbc_fail(err, "chess state with %zu history moves must be %zu "
                        "bytes, not %zu", n, ENC_HEAD + 2 * n, len);
    if (in[0] > 1)
        return zbc_fail(err, "white seat %u out of range 0-1", in[0]);
    s.white_seat = in[0];
    memcpy(s.base, in + 1, 64);
    s.base_ply = zbc_get_le16(in + 65);
    s.base_half = in[67];
    if (s.base_half > HIST_MAX)
        return zbc_fail(err, "halfmove clock %u above %d", s.base_half,
                        HIST_MAX);
    if (n > (size_t)(HIST_MAX - s.base_half))
        return zbc_fail(err, "%zu history moves after halfmove clock %u "
                        "exceed %d", n, s.base_half, HIST_MAX);
    if ((size_t)s.base_ply + n > UINT16_MAX)
        return zbc_fail(err, "ply count overflows");
    s.base_last[0] = in[68];
    s.base_last[1] = in[69];
    if (s.base_last[0] != NO_SQ || s.base_last[1] != NO_SQ) {
        unsigned f = s.base_last[0], t = s.base_last[1];
        if (f > 63 || t > 63 || f == t)
            return zbc_fail(err, "bad last irreversible move %u-%u", f, t);
        if (s.base_ply == 0 || s.base_half != 0)
            return zbc_fail(err, "last irreversible move needs ply > 0 and "
                            "halfmove clock 0");
        if (s.base[f] != EMPTY || s.base[t] == EMPTY ||
            pcolor(s.base[t]) == (s.base_ply & 1))
            return zbc_fail(err, "last irreversible move %u-%u does not fit "
                            "the board", f, t);
    }
    if (!replay(&s, in + ENC_HEAD, n, err))
        return 0;
    memcpy(ms(st), &s, sizeof s);
    return 1;
}

static int fen_placement(uint8_t *b, const char *p, const char *end,
                         struct zbc_err *err)
{
    int r = 7, f = 0;
    memset(b, 0, 64);
    for (; p < end; p++) {
        if (*p == '/') {
            if (f != 8 || r == 0)
                return zbc_fail(err, "FEN rank %d does not have 8 squares",
                                r + 1);
            r--;
            f = 0;
        } else if (*p >= '1' && *p <= '8') {
            f += *p - '0';
            if (f > 8)
                return zbc_fail(err, "FEN rank %d has more than 8 squares",
                                r + 1);
        } else {
            const char *c = strchr(PIECE_CHAR + 1, *p);
            if (*p == '\0' || c == NULL)
                return zbc_fail(err, "bad FEN piece letter '%c'", *p);
            if (f >= 8)
                return zbc_fail(err, "FEN rank %d has more than 8 squares",
                                r + 1);
            b[r * 8 + f++] = (uint8_t)(c - PIECE_CHAR);
        }
    }
    if (r != 0 || f != 8)
        return zbc_fail(err, "FEN board must have 8 ranks of 8 squares");
    return 1;
}

int zbc_chess_from_fen(struct zbc_game_state *st, const char *fen,
                       struct zbc_err *err)
{
    const char *field[6];
    size_t flen[6], nf = 0;
    for (const char *p = fen; *p != '\0';) {
        while (*p == ' ')
            p++;
        if (*p == '\0')
            break;
        if (nf == 6)
            return zbc_fail(err, "FEN has more than 6 fields");
        field[nf] = p;
        while (*p != ' ' && *p != '\0')
            p++;
        flen[nf] = (size_t)(p - field[nf]);
        nf++;
    }
    if (nf != 4 && nf != 6)
        return zbc_fail(err, "FEN needs 4 or 6 fields, not %zu", nf);
    struct chess s;
    memset(&s, 0, sizeof s);
    if (!fen_placement(s.base, field[0], field[0] + flen[0], err))
        return 0;
    int side;
    if (flen[1] == 1 && field[1][0] == 'w')
        side = WHITE;
    else if (flen[1] == 1 && field[1][0] == 'b')
        side = BLACK;
    else
        return zbc_fail(err, "FEN side to move must be w or b");
    if (!(flen[2] == 1 && field[2][0] == '-')) {
        if (flen[2] > 4)
            return zbc_fail(err, "bad FEN castling field");
        for (size_t i = 0; i < flen[2]; i++)
            if (strchr("KQkq", field[2][i]) == NULL || field[2][i] == '\0')
                return zbc_fail(err, "bad FEN castling field");
    }
    if (!(flen[3] == 1 && field[3][0] == '-') &&
        !(flen[3] == 2 && field[3][0] >= 'a' && field[3][0] <= 'h' &&
          (field[3][1] == '3' || field[3][1] == '6')))
        return zbc_fail(err, "bad FEN en-passant field");
    uint64_t half = 0, full = 1;
    if (nf == 6) {
        char buf[8];
        if (flen[4] >= sizeof buf || flen[5] >= sizeof buf)
            return zbc_fail(err, "FEN move counters too long");
        memcpy(buf, field[4], flen[4]);
        buf[flen[4]] = '\0';
        if (!zbc_parse_u64(buf, 0, HIST_MAX, &half, "FEN halfmove clock",
                           err))
            return 0;
        memcpy(buf, field[5], flen[5]);
        buf[flen[5]] = '\0';
        if (!zbc_parse_u64(buf, 1, FULLMOVE_MAX, &full, "FEN fullmove number",
                           err))
            return 0;
    }
    s.base_ply = (uint16_t)(2 * (full - 1) + (uint64_t)side);
    s.base_half = (uint8_t)half;
    s.base_last[0] = s.base_last[1] = NO_SQ;
    s.white_seat = 0;
    if (!replay(&s, NULL, 0, err))
        return zbc_fail_prefix(err, "FEN position");
    memcpy(ms(st), &s, sizeof s);
    return 1;
}

static void write_fen(const struct chess *s, struct zbc_text *t)
{
    for (int r = 7; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < 8; f++) {
            uint8_t p = s->board[r * 8 + f];
            if (p == EMPTY) {
                empty++;
                continue;
            }
            if (empty)
                zbc_text_printf(t, "%d", empty);
            empty = 0;
            zbc_text_printf(t, "%c", PIECE_CHAR[p]);
        }
        if (empty)
            zbc_text_printf(t, "%d", empty);
        if (r)
            zbc_text_printf(t, "/");
    }
    zbc_text_printf(t, " %c - - %u %u", stm(s) == WHITE ? 'w' : 'b',
                    halfmove(s), (unsigned)(s->base_ply + s->n) / 2 + 1);
}

int zbc_chess_to_fen(const struct zbc_game_state *st, char *out, size_t cap)
{
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    write_fen(cs(st), &t);
    return zbc_text_result(&t);
}

static const char *const STATUS_REASON[] = {
    [ST_ONGOING] = "",
    [ST_CHECKMATE] = "checkmate",
    [ST_STALEMATE] = "stalemate",
    [ST_INSUFFICIENT] = "insufficient material",
    [ST_SEVENTY_FIVE] = "75-move rule",
    [ST_FIVEFOLD] = "fivefold repetition",
};

/* The last move played, or 0 when none is known. */
static int last_move(const struct chess *s, char out[5])
{
    const uint8_t *m = s->n > 0 ? s->moves[s->n - 1] : s->base_last;
    if (m[0] == NO_SQ)
        return 0;
    square_name(m[0], out);
    square_name(m[1], out + 2);
    return 1;
}

static int chess_to_json(const struct zbc_game_state *st, char *out, size_t cap)
{
    const struct chess *s = cs(st);
    struct zbc_text t;
    char lm[5];
    int side = stm(s);
    zbc_text_init(&t, out, cap);
    zbc_text_printf(&t, "{\"game\":\"chess\",\"white_seat\":%u,"
                    "\"black_seat\":%u,\"board\":[", s->white_seat,
                    1 - s->white_seat);
    for (int r = 7; r >= 0; r--) {
        zbc_text_printf(&t, "%s\"", r < 7 ? "," : "");
        for (int f = 0; f < 8; f++)
            zbc_text_printf(&t, "%c", PIECE_CHAR[s->board[r * 8 + f]]);
        zbc_text_printf(&t, "\"");
    }
    zbc_text_printf(&t, "],\"fen\":\"");
    write_fen(s, &t);
    zbc_text_printf(&t, "\",\"to_move\":\"%s\",", COLOR_NAME[side]);
    if (s->status == ST_ONGOING)
        zbc_text_printf(&t, "\"turn\":%d,", seat_of(s, side));
    else
        zbc_text_printf(&t, "\"turn\":null,");
    zbc_text_printf(&t, "\"check\":%s,",
                    attacked(s->board, s->ksq[side], !side) ? "true" : "false");
    if (last_move(s, lm))
        zbc_text_printf(&t, "\"last_move\":\"%s\",", lm);
    else
        zbc_text_printf(&t, "\"last_move\":null,");
    zbc_text_printf(&t, "\"halfmove_clock\":%u,\"fullmove\":%u,"
                    "\"repetitions\":%d,", halfmove(s),
                    (unsigned)(s->base_ply + s->n) / 2 + 1, repetitions(s));
    switch ((enum status)s->status) {
    case ST_ONGOING:
        zbc_text_printf(&t, "\"result\":\"ongoing\",\"winner\":null,"
                        "\"reason\":null}");
        break;
    case ST_CHECKMATE:
        zbc_text_printf(&t, "\"result\":\"win\",\"winner\":%d,"
                        "\"reason\":\"checkmate\"}", seat_of(s, !side));
        break;
    case ST_STALEMATE:
    case ST_INSUFFICIENT:
    case ST_SEVENTY_FIVE:
    case ST_FIVEFOLD:
        zbc_text_printf(&t, "\"result\":\"draw\",\"winner\":null,"
                        "\"reason\":\"%s\"}", STATUS_REASON[s->status]);
        break;
    }
    return zbc_text_result(&t);
}

static int chess_render(const struct zbc_game_state *st, char *out, size_t cap)
{
    const struct chess *s = cs(st);
    struct zbc_text t;
    char lm[5];
    int side = stm(s);
    zbc_text_init(&t, out, cap);
    zbc_text_printf(&t, "  +-----------------+\n");
    for (int r = 7; r >= 0; r--) {
        zbc_text_printf(&t, "%d |", r + 1);
        for (int f = 0; f < 8; f++)
            zbc_text_printf(&t, " %c", PIECE_CHAR[s->board[r * 8 + f]]);
        zbc_text_printf(&t, " |\n");
    }
    zbc_text_printf(&t, "  +-----------------+\n    a b c d e f g h\n");
    zbc_text_printf(&t, "white (upper case): seat %u, black (lower case): "
                    "seat %u\n", s->white_seat, 1 - s->white_seat);
    if (last_move(s, lm))
        zbc_text_printf(&t, "last move: %s\n", lm);
    switch ((enum status)s->status) {
    case ST_ONGOING:
        zbc_text_printf(&t, "%s to move (seat %d)%s\n", COLOR_NAME[side],
                        seat_of(s, side),
                        attacked(s->board, s->ksq[side], !side) ? ", check"
                                                                : "");
        break;
    case ST_CHECKMATE:
        zbc_text_printf(&t, "result: %s wins by checkmate (seat %d)\n",
                        COLOR_NAME[!side], seat_of(s, !side));
        break;
    case ST_STALEMATE:
    case ST_INSUFFICIENT:
    case ST_SEVENTY_FIVE:
    case ST_FIVEFOLD:
        zbc_text_printf(&t, "result: draw by %s\n", STATUS_REASON[s->status]);
        break;
    }
    return zbc_text_result(&t);
}

static int parse_square(const char *p, unsigned *sq)
{
    char f = (char)(p[0] | 0x20);
    if (f < 'a' || f > 'h' || p[1] < '1' || p[1] > '8')
        return 0;
    *sq = (unsigned)(p[1] - '1') * 8 + (unsigned)(f - 'a');
    return 1;
}

/* ---- SAN (docs/games.md "Chess", "Notation") ---- */

/* Squares from which a piece of type `piece` and the side to move reaches
 * `to`, optionally on file ffile / rank frank (-1: any): pseudo-legal ones
 * in pseudo[], those leaving the own king safe in legal[]. */
static void san_candidates(const struct chess *s, int piece, int to, int ffile, int frank,
                           uint8_t *pseudo, int *npseudo, uint8_t *legal, int *nlegal)
{
    int c = stm(s);
    uint8_t t[32];
    *npseudo = *nlegal = 0;
    for (int from = 0; from < 64; from++) {
        uint8_t p = s->board[from];
        if (p == EMPTY || pcolor(p) != c || ptype(p) != piece ||
            (ffile >= 0 && (from & 7) != ffile) || (frank >= 0 && (from >> 3) != frank))
            continue;
        int n = targets(s->board, from, t);
        for (int i = 0; i < n; i++) {
            if (t[i] != to)
                continue;
            pseudo[(*npseudo)++] = (uint8_t)from;
            if (king_safe_after(s, from, to))
                legal[(*nlegal)++] = (uint8_t)from;
        }
    }
}

int zbc_chess_san(const struct zbc_game_state *st, const uint8_t *move, size_t len, char *out,
                  size_t cap)
{
    const struct chess *s = cs(st);
    struct zbc_err err;
    if (len != 2 || cap == 0 || !check_geometry(s, move[0], move[1], &err))
        return -1;
    int from = move[0], to = move[1];
    int piece = ptype(s->board[from]);
    bool capture = s->board[to] != EMPTY;
    char sq[3];
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    square_name(to, sq);
    if (piece == PAWN) {
        if (capture)
            zbc_text_printf(&t, "%cx", 'a' + (from & 7));
        zbc_text_printf(&t, "%s", sq);
        if ((to >> 3) == (pcolor(s->board[from]) == WHITE ? 7 : 0))
            zbc_text_printf(&t, "=Q");
    } else {
        uint8_t pseudo[64], legal[64];
        int np, nl;
        san_candidates(s, piece, to, -1, -1, pseudo, &np, legal, &nl);
        bool same_file = false, same_rank = false;
        for (int i = 0; i < nl; i++) {
            if (legal[i] == from)
                continue;
            same_file |= (legal[i] & 7) == (from & 7);
            same_rank |= (legal[i] >> 3) == (from >> 3);
        }
        zbc_text_printf(&t, "%c", PIECE_CHAR[piece]);
        if (nl > 1 && (!same_file || same_rank))
            zbc_text_printf(&t, "%c", 'a' + (from & 7));
        if (nl > 1 && same_file)
            zbc_text_printf(&t, "%c", '1' + (from >> 3));
        zbc_text_printf(&t, "%s%s", capture ? "x" : "", sq);
    }
    struct chess after = *s;
    do_move(&after, from, to);
    if (after.status == ST_CHECKMATE)
        zbc_text_printf(&t, "#");
    else if (attacked(after.board, after.ksq[stm(&after)], !stm(&after)))
        zbc_text_printf(&t, "+");
    return zbc_text_result(&t);
}

static const char SAN_SYNTAX[] = "must look like e2e4 (or e7e8q for a promotion) or SAN "
                                 "such as Nf3, exd5, Rad1, e8=Q";

static int parse_san(const struct chess *s, const char *text, uint8_t *move,
                     struct zbc_err *err)
{
    char t[16];
    size_t n = strlen(text);
    if (n == 0 || n >= sizeof t)
        return zbc_fail(err, "chess move '%.16s' %s", text, SAN_SYNTAX);
    memcpy(t, text, n + 1);
    while (n > 0 && strchr("+#!?", t[n - 1]) != NULL)
        t[--n] = '\0';
    if (strcmp(t, "O-O") == 0 || strcmp(t, "O-O-O") == 0 || strcmp(t, "0-0") == 0 ||
        strcmp(t, "0-0-0") == 0)
        return zbc_fail(err, "%s: there is no castling in this chess (a king moves one "
                        "square)", t);
    const char *p = t, *end = t + n;
    int piece = PAWN;
    const char *letter = strchr("NBRQK", *p);
    if (*p != '\0' && letter != NULL) {
        piece = KNIGHT + (int)(letter - "NBRQK");
        p++;
    }
    char promo = 0;
    if (end - p >= 4 && end[-2] == '=') {
        promo = end[-1];
        end -= 2;
    } else if (piece == PAWN && end - p >= 3 && strchr("QRBNqrbn", end[-1]) != NULL &&
               end[-2] >= '1' && end[-2] <= '8') {
        promo = end[-1];
        end--;
    }
    if (end - p < 2 || end[-2] < 'a' || end[-2] > 'h' || end[-1] < '1' || end[-1] > '8')
        return zbc_fail(err, "chess move '%s' %s", text, SAN_SYNTAX);
    int to = (end[-1] - '1') * 8 + (end[-2] - 'a');
    end -= 2;
    bool capture = end > p && (end[-1] == 'x' || end[-1] == ':');
    if (capture)
        end--;
    int ffile = -1, frank = -1;
    if (end > p && *p >= 'a' && *p <= 'h')
        ffile = *p++ - 'a';
    if (end > p && *p >= '1' && *p <= '8')
        frank = *p++ - '1';
    if (p != end || (piece == PAWN && (frank >= 0 || (capture != (ffile >= 0)))))
        return zbc_fail(err, "chess move '%s' %s", text, SAN_SYNTAX);
    char sq[3];
    square_name(to, sq);
    int c = stm(s);
    if (promo != 0) {
        if (promo != 'Q' && promo != 'q')
            return zbc_fail(err, "pawns always promote to a queen: write %s=Q", sq);
        if (piece != PAWN || (to >> 3) != (c == WHITE ? 7 : 0))
            return zbc_fail(err, "%s: only a pawn reaching the last rank promotes", text);
    }
    if (capture && s->board[to] == EMPTY)
        return zbc_fail(err, "illegal move: %s captures nothing on %s%s", text, sq,
                        piece == PAWN ? " (there is no en passant)" : "");
    uint8_t pseudo[64], legal[64];
    int np, nl;
    san_candidates(s, piece, to, ffile, frank, pseudo, &np, legal, &nl);
    if (nl == 0 && np > 0)
        return check_geometry(s, pseudo[0], (unsigned)to, err);
    if (nl == 0)
        return zbc_fail(err, "illegal move: %s: no %s %s can move to %s", text, COLOR_NAME[c],
                        PIECE_NAME[piece], sq);
    if (nl > 1) {
        struct zbc_text w;
        char list[160];
        zbc_text_init(&w, list, sizeof list);
        for (int i = 0; i < nl; i++) {
            char a[3];
            square_name(legal[i], a);
            zbc_text_printf(&w, "%s%s%s", i == 0 ? "" : i == nl - 1 ? " or " : ", ", a, sq);
        }
        if (zbc_text_result(&w) < 0)
            list[0] = '\0';
        return zbc_fail(err, "%s is ambiguous: %s (add the file or rank it comes from)", text,
                        list);
    }
    move[0] = legal[0];
    move[1] = (uint8_t)to;
    return 1;
}

static int chess_parse_move(const struct zbc_game_state *st, uint8_t seat,
                            const char *text, uint8_t *move, size_t cap,
                            size_t *len, struct zbc_err *err)
{
    unsigned from, to;
    size_t n = strlen(text);
    if (cap < 2)
        return zbc_fail(err, "move buffer too small");
    if ((n != 4 && n != 5) || !parse_square(text, &from) ||
        !parse_square(text + 2, &to)) {
        if (st == NULL)
            return zbc_fail(err, "chess move '%.16s' must look like e2e4 (or "
                            "e7e8q for a promotion); SAN needs the position", text);
        if (!parse_san(cs(st), text, move, err))
            return 0;
        *len = 2;
        return 1;
    }
    if (n == 5) {
        if ((text[4] | 0x20) != 'q')
            return zbc_fail(err, "pawns always promote to a queen: write "
                            "%.4s or %.4sq", text, text);
        if (st != NULL) {
            const struct chess *s = cs(st);
            uint8_t p = s->board[from];
            int last = p != EMPTY && pcolor(p) == BLACK ? 0 : 7;
            if (ptype(p) != PAWN || (int)(to >> 3) != last)
                return zbc_fail(err, "%.5s: only a pawn reaching the last "
                                "rank promotes", text);
        }
    }
    move[0] = (uint8_t)from;
    move[1] = (uint8_t)to;
    *len = 2;
    return 1;
}

static int chess_format_move(const struct zbc_game_state *st,
                             const uint8_t *move, size_t len, char *out,
                             size_t cap)
{
    if (len != 2 || move[0] > 63 || move[1] > 63 || cap < 5)
        return 0;
    square_name(move[0], out);
    square_name(move[1], out + 2);
    return 1;
}

/* Eval (docs/games.md, "Machine opponents"): material (100, 320, 330,
 * 500, 900), 4 per square a piece reaches, 5 per rank a pawn has
 * advanced, and for the side ahead by a rook or more the mop-up terms
 * that drive the other king to the edge and its own king towards it; for
 * `seat` minus for the other. */
static int32_t chess_eval(const struct zbc_game_state *st, uint8_t seat)
{
    static const int32_t VALUE[7] = {0, 100, 320, 330, 500, 900, 0};
    const struct chess *s = cs(st);
    int32_t v[2] = {0, 0}, material[2] = {0, 0};
    uint8_t to[32];
    for (int sq = 0; sq < 64; sq++) {
        uint8_t p = s->board[sq];
        if (p == EMPTY)
            continue;
        int c = pcolor(p), t = ptype(p), rank = sq >> 3;
        material[c] += VALUE[t];
        if (t == PAWN)
            v[c] += 5 * (c == WHITE ? rank - 1 : 6 - rank);
        else if (t != KING)
            v[c] += 4 * targets(s->board, sq, to);
    }
    int me = seat_of(s, WHITE) == (int)seat ? WHITE : BLACK;
    int32_t score = v[me] - v[!me] + material[me] - material[!me];
    int ahead = material[me] >= material[!me] + 500 ? me
                : material[!me] >= material[me] + 500 ? !me : -1;
    if (ahead >= 0) {
        int k = s->ksq[!ahead], own = s->ksq[ahead];
        int kf = k & 7, kr = k >> 3;
        int centre = (kf < 4 ? 3 - kf : kf - 4) + (kr < 4 ? 3 - kr : kr - 4);
        int df = (own & 7) - kf, dr = (own >> 3) - kr;
        int dist = (df < 0 ? -df : df) + (dr < 0 ? -dr : dr);
        int32_t mop = 10 * centre + 4 * (14 - dist);
        score += ahead == me ? mop : -mop;
    }
    return score;
}

const struct zbc_engine zbc_engine_chess = {
    .state_size = sizeof(struct chess),
    .type = 2,
    .name = "chess",
    .min_seats = 2,
    .max_seats = 2,
    .dice = false,
    .draws_first = true,
    .start_rolls = false,
    .check_params = chess_check_params,
    .init = chess_init,
    .turn = chess_turn,
    .result = chess_result,
    .check_move = chess_check_move,
    .apply_move = chess_apply_move,
    .gen_moves = chess_gen_moves,
    .encode = chess_encode,
    .decode = chess_decode,
    .to_json = chess_to_json,
    .render = chess_render,
    .parse_move = chess_parse_move,
    .format_move = chess_format_move,
    .from_text = zbc_chess_from_fen,
    .eval = chess_eval,
};
