/* Battleship (type 7, 2 seats, commit-reveal): docs/games.md, section
 * "Battleship (type 7)".
 *
 * Each seat commits to its board as 100 cell hashes H(is_ship || salt):
 * the creator (seat 0) in the CreateApp params, the joiner (seat 1) as its
 * first move.  Then seat 0 fires first.  A shot is pending until the
 * target's owner reveals that cell (checked against its commitment); the
 * owner holds the turn until it has revealed and fired back.  A seat
 * whose shots hit 17 ship cells must then open its whole board (every
 * cell and salt): it wins if the board is the standard fleet, else the
 * other seat wins (docs/games.md "Battleship", "Final open").  A seat
 * whose revealed shots leave room for fewer than 17 ships on the other's
 * board (revealed ships + unrevealed cells < 17) wins at once: the other
 * committed too few ships. */
#include "apps/games/battleship.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "apps/notation.h"
#include "crypto/bytes.h"
#include "crypto/hash.h"
#include "crypto/hex.h"

/* The descriptor at the end of this file (the shared steps take it). */
extern const struct zbc_engine zbc_engine_battleship;

#define N_CELLS ZBC_BATTLESHIP_CELLS
#define SALT_LEN ZBC_BATTLESHIP_SALT_LEN
#define COMMIT_LEN ZBC_BATTLESHIP_COMMIT_LEN
#define FLEET ZBC_BATTLESHIP_FLEET_CELLS
#define NONE 0xFF

#define FIRE_LEN 2
#define REVEAL_LEN (2 + SALT_LEN)
#define REVEAL_FIRE_LEN (3 + SALT_LEN)
#define COMMIT_MOVE_LEN (1 + COMMIT_LEN)
#define OPEN_LEN ZBC_BATTLESHIP_OPEN_LEN /* 3301 */
#define OPEN_CELL (1 + SALT_LEN)        /* is_ship and salt of one cell */

enum bs_phase {
    BS_COMMIT = 0, /* waiting for the joiner's commitment */
    BS_PLAY = 1,
    BS_OVER = 2,
    BS_OPEN = 3, /* the seat to move hit 17 ship cells and must open its board */
};

/* What is known of a cell of a seat's own board (shots come from the other
 * seat). */
enum bs_cell {
    CELL_UNSHOT = 0,
    CELL_PENDING = 1, /* fired at, not yet revealed */
    CELL_WATER = 2,
    CELL_SHIP = 3,
    CELL_OPEN_WATER = 4, /* never fired at; water by the final open */
    CELL_OPEN_SHIP = 5,  /* never fired at; ship by the final open */
};

struct bs_state {
    uint8_t phase;   /* enum bs_phase */
    uint8_t to_move; /* the winner once over; the opener in BS_OPEN */
    uint8_t pending; /* cell of to_move's own board awaiting its reveal */
    uint8_t winner;  /* NONE unless over */
    uint8_t board[2][N_CELLS];          /* enum bs_cell */
    uint8_t commit[2][N_CELLS][SALT_LEN]; /* seat 1's is zero until committed */
};

_Static_assert(sizeof(struct bs_state) <= ZBC_GAME_STATE_MAX,
               "battleship state fits the state buffer");

#define STATE_BYTES (4 + 2 * N_CELLS + 2 * COMMIT_LEN)
_Static_assert(STATE_BYTES <= ZBC_GAME_STATE_MAX, "encoded state fits");

static const struct bs_state *cbs(const struct zbc_game_state *st)
{
    return (const struct bs_state *)(const void *)st->b;
}

static struct bs_state *bs(struct zbc_game_state *st)
{
    return (struct bs_state *)(void *)st->b;
}

/* ---- helpers (battleship.h) ---- */

void zbc_battleship_cell_hash(uint8_t out[32], uint8_t is_ship,
                              const uint8_t salt[SALT_LEN])
{
    uint8_t buf[1 + SALT_LEN];
    buf[0] = is_ship;
    memcpy(buf + 1, salt, SALT_LEN);
    zbc_sha3_256(out, buf, sizeof buf);
}

int zbc_battleship_commitment(uint8_t out[COMMIT_LEN],
                              const uint8_t is_ship[N_CELLS],
                              const uint8_t salts[N_CELLS][SALT_LEN],
                              struct zbc_err *err)
{
    for (size_t i = 0; i < N_CELLS; i++)
        if (is_ship[i] > 1)
            return zbc_fail(err, "is_ship of cell %zu is %u, want 0 or 1", i,
                            (unsigned)is_ship[i]);
    for (size_t i = 0; i < N_CELLS; i++)
        zbc_battleship_cell_hash(out + 32 * i, is_ship[i], salts[i]);
    return 1;
}

/* Covers the lowest uncovered ship cell with one of the remaining ships
 * (lens[k] > 0), horizontally or vertically, and recurses.  The lowest
 * uncovered cell must be the top or left end of its ship. */
static bool fleet_fits(const uint8_t is_ship[N_CELLS], bool used[N_CELLS],
                       uint8_t lens[5])
{
    int c = -1;
    for (int i = 0; i < N_CELLS; i++)
        if (is_ship[i] && !used[i]) {
            c = i;
            break;
        }
    if (c < 0) {
        for (int k = 0; k < 5; k++)
            if (lens[k])
                return false;
        return true;
    }
    for (int k = 0; k < 5; k++) {
        uint8_t len = lens[k];
        if (len == 0)
            continue;
        for (int dir = 0; dir < 2; dir++) {
            int step = dir == 0 ? 1 : 10;
            bool ok = dir == 0 ? c % 10 + len <= 10 : c / 10 + len <= 10;
            for (int j = 0; ok && j < len; j++)
                ok = is_ship[c + j * step] && !used[c + j * step];
            if (!ok)
                continue;
            for (int j = 0; j < len; j++)
                used[c + j * step] = true;
            lens[k] = 0;
            bool done = fleet_fits(is_ship, used, lens);
            lens[k] = len;
            for (int j = 0; j < len; j++)
                used[c + j * step] = false;
            if (done)
                return true;
        }
    }
    return false;
}

int zbc_battleship_check_fleet(const uint8_t is_ship[N_CELLS],
                               struct zbc_err *err)
{
    unsigned count = 0;
    for (size_t i = 0; i < N_CELLS; i++) {
        if (is_ship[i] > 1)
            return zbc_fail(err, "is_ship of cell %zu is %u, want 0 or 1", i,
                            (unsigned)is_ship[i]);
        count += is_ship[i];
    }
    if (count != FLEET)
        return zbc_fail(err, "the board has %u ship cells, the fleet has %d",
                        count, FLEET);
    bool used[N_CELLS] = {false};
    uint8_t lens[5] = {5, 4, 3, 3, 2};
    if (!fleet_fits(is_ship, used, lens))
        return zbc_fail(err, "the ship cells are not the fleet 5, 4, 3, 3, 2 "
                             "of straight, non-overlapping ships");
    return 1;
}

int zbc_battleship_parse_cell(const char *text, size_t len, uint8_t *cell,
                              struct zbc_err *err)
{
    char r = len > 0 ? (char)toupper((unsigned char)text[0]) : '\0';
    uint64_t col;
    struct zbc_err sub;
    if (len < 2 || len > 3 || r < 'A' || r > 'J' ||
        !zbc_parse_u64n(text + 1, len - 1, 1, 10, &col, "column", &sub))
        return zbc_fail(err, "cell \"%.*s\" is not a row A-J and a column 1-10",
                        (int)(len > 8 ? 8 : len), text);
    *cell = (uint8_t)((r - 'A') * 10 + (int)col - 1);
    return 1;
}

int zbc_battleship_format_cell(uint8_t cell, char out[4])
{
    if (cell >= N_CELLS)
        return 0;
    int col = cell % 10 + 1;
    out[0] = (char)('A' + cell / 10);
    if (col == 10) {
        out[1] = '1';
        out[2] = '0';
        out[3] = '\0';
    } else {
        out[1] = (char)('0' + col);
        out[2] = '\0';
    }
    return 1;
}

int zbc_battleship_parse_fleet(const char *text,
                               uint8_t is_ship[ZBC_BATTLESHIP_CELLS],
                               struct zbc_err *err)
{
    memset(is_ship, 0, ZBC_BATTLESHIP_CELLS);
    for (const char *p = text;;) {
        while (*p == ',' || *p == ' ' || *p == '\t' || *p == '\n')
            p++;
        if (*p == '\0')
            break;
        size_t n = strcspn(p, ", \t\n");
        uint8_t cell;
        if (!zbc_battleship_parse_cell(p, n, &cell, err))
            return 0;
        is_ship[cell] = 1;
        p += n;
    }
    return zbc_battleship_check_fleet(is_ship, err);
}

/* Whether a ship of `len` cells fits at (r, c) going right or down. */
static bool run_free(const uint8_t is_ship[N_CELLS], unsigned r, unsigned c,
                     bool horiz, unsigned len)
{
    for (unsigned k = 0; k < len; k++)
        if (is_ship[(r + (horiz ? 0 : k)) * 10 + c + (horiz ? k : 0)])
            return false;
    return true;
}

void zbc_battleship_random_fleet(uint8_t is_ship[ZBC_BATTLESHIP_CELLS],
                                 uint32_t (*uniform)(void *ctx, uint32_t n),
                                 void *ctx)
{
    static const unsigned ships[] = {5, 4, 3, 3, 2};
    for (;;) {
        memset(is_ship, 0, ZBC_BATTLESHIP_CELLS);
        bool ok = true;
        for (size_t s = 0; ok && s < sizeof ships / sizeof ships[0]; s++) {
            unsigned len = ships[s];
            bool placed = false;
            for (int tries = 0; !placed && tries < 1000; tries++) {
                bool horiz = uniform(ctx, 2) == 0;
                unsigned r = uniform(ctx, horiz ? 10 : 11 - len);
                unsigned c = uniform(ctx, horiz ? 11 - len : 10);
                if (r >= 10 || c >= 10 || (horiz ? c : r) + len > 10 ||
                    !run_free(is_ship, r, c, horiz, len))
                    continue;
                for (unsigned k = 0; k < len; k++)
                    is_ship[(r + (horiz ? 0 : k)) * 10 + c + (horiz ? k : 0)] = 1;
                placed = true;
            }
            ok = placed;
        }
        struct zbc_err err;
        if (ok && zbc_battleship_check_fleet(is_ship, &err))
            return;
    }
}

int zbc_battleship_pending_cell(const struct zbc_game_state *st, uint8_t seat)
{
    const struct bs_state *s = cbs(st);
    if (s->phase != BS_PLAY || s->to_move != seat || s->pending == NONE)
        return -1;
    return s->pending;
}

bool zbc_battleship_open_due(const struct zbc_game_state *st, uint8_t seat)
{
    const struct bs_state *s = cbs(st);
    return s->phase == BS_OPEN && s->to_move == seat;
}

int zbc_battleship_board(const struct zbc_game_state *st, uint8_t seat,
                         uint8_t out[ZBC_BATTLESHIP_CELLS])
{
    const struct bs_state *s = cbs(st);
    if (seat > 1 || s->phase == BS_COMMIT || s->phase > BS_OPEN)
        return 0;
    memcpy(out, s->board[seat], N_CELLS);
    return 1;
}

/* ---- rules ---- */

static unsigned count_cells(const uint8_t board[N_CELLS], uint8_t what)
{
    unsigned n = 0;
    for (size_t i = 0; i < N_CELLS; i++)
        n += board[i] == what;
    return n;
}

/* Cells fired at (pending or revealed); opened cells were never shot. */
static unsigned shots_on(const uint8_t board[N_CELLS])
{
    return count_cells(board, CELL_PENDING) + count_cells(board, CELL_WATER) +
           count_cells(board, CELL_SHIP);
}

static unsigned opened_on(const uint8_t board[N_CELLS])
{
    return count_cells(board, CELL_OPEN_WATER) +
           count_cells(board, CELL_OPEN_SHIP);
}

static int bs_check_params(uint8_t seats, const uint8_t *params, size_t len,
                           struct zbc_err *err)
{
    (void)params;
    if (!zbc_engine_check_seats(&zbc_engine_battleship, seats, err))
        return 0;
    if (len != COMMIT_LEN)
        return zbc_fail(err, "battleship params are the creator's %d-byte board commitment, got %zu bytes",
                        COMMIT_LEN, len);
    return 1;
}

static int bs_init(struct zbc_game_state *st, uint8_t seats,
                   const uint8_t *params, size_t len, uint8_t first,
                   struct zbc_roll *rolls, struct zbc_err *err)
{
    (void)first; /* the joiner always commits first */
    (void)rolls;
    if (!bs_check_params(seats, params, len, err))
        return 0;
    struct bs_state *s = bs(st);
    memset(s, 0, sizeof *s);
    s->phase = BS_COMMIT;
    s->to_move = 1;
    s->pending = NONE;
    s->winner = NONE;
    memcpy(s->commit[0], params, COMMIT_LEN);
    return 1;
}

static int bs_turn(const struct zbc_game_state *st)
{
    const struct bs_state *s = cbs(st);
    return s->phase == BS_OVER ? ZBC_NOBODY : s->to_move;
}

static void bs_result(const struct zbc_game_state *st, struct zbc_result *out)
{
    const struct bs_state *s = cbs(st);
    memset(out, 0, sizeof *out);
    if (s->phase == BS_OVER) {
        out->kind = ZBC_RESULT_WIN;
        out->winner = s->winner;
    } else {
        out->kind = ZBC_RESULT_ONGOING;
    }
}

/* Whether a board's reveals leave room for fewer than 17 ship cells
 * (revealed ships plus cells not yet revealed): its owner committed too
 * few ships and its shooter wins at once.  This includes "all 100 shots
 * and fewer than 17 ships" and catches a short fleet as soon as it is
 * certain: an honest board always keeps ships + unrevealed >= 17. */
static bool board_short(const uint8_t board[N_CELLS])
{
    unsigned ships = count_cells(board, CELL_SHIP);
    unsigned open = count_cells(board, CELL_UNSHOT) +
                    count_cells(board, CELL_PENDING);
    return ships + open < FLEET;
}

/* Whether a board's reveals decide the game: 17 ship cells hit (its
 * shooter must open its own board: open_board) or a short board. */
static bool board_decided(const uint8_t board[N_CELLS])
{
    return count_cells(board, CELL_SHIP) >= FLEET || board_short(board);
}

/* Fires `seat` at `cell` of the other seat's board. */
static int fire(struct bs_state *s, uint8_t seat, uint8_t cell,
                struct zbc_err *err)
{
    uint8_t opp = (uint8_t)(1 - seat);
    char name[4];
    if (cell >= N_CELLS)
        return zbc_fail(err, "cell %u out of range 0-99", (unsigned)cell);
    if (!zbc_battleship_format_cell(cell, name))
        return zbc_fail(err, "cell %u out of range 0-99", (unsigned)cell);
    if (s->board[opp][cell] != CELL_UNSHOT)
        return zbc_fail(err, "illegal move: %s was already fired at", name);
    s->board[opp][cell] = CELL_PENDING;
    s->pending = cell;
    s->to_move = opp;
    return 1;
}

/* Reveals `seat`'s pending cell.  The 17th ship cell hit gives the turn to
 * the shooter, which must open its board (BS_OPEN); a board that can no
 * longer hold the fleet ends the game for the shooter. */
static int reveal(struct bs_state *s, uint8_t seat, uint8_t is_ship,
                  const uint8_t salt[SALT_LEN], struct zbc_err *err)
{
    char name[4];
    uint8_t h[32];
    if (s->pending == NONE)
        return zbc_fail(err, "illegal move: nothing to reveal");
    if (!zbc_battleship_format_cell(s->pending, name))
        return zbc_fail(err, "pending cell out of range");
    if (is_ship > 1)
        return zbc_fail(err, "is_ship must be 0 or 1, got %u",
                        (unsigned)is_ship);
    zbc_battleship_cell_hash(h, is_ship, salt);
    if (memcmp(h, s->commit[seat][s->pending], 32) != 0)
        return zbc_fail(err, "illegal move: the reveal of %s as %s does not match the commitment",
                        name, is_ship ? "ship" : "water");
    s->board[seat][s->pending] = is_ship ? CELL_SHIP : CELL_WATER;
    s->pending = NONE;
    uint8_t shooter = (uint8_t)(1 - seat);
    if (count_cells(s->board[seat], CELL_SHIP) >= FLEET) {
        s->phase = BS_OPEN;
        s->to_move = shooter;
    } else if (board_short(s->board[seat])) {
        s->phase = BS_OVER;
        s->winner = shooter;
        s->to_move = shooter;
    }
    return 1;
}

/* The final open (docs/games.md "Battleship", "Final open"): `seat`, whose
 * shots hit 17 ship cells, opens every cell of its own board.  Every cell
 * must match its commitment (an earlier reveal of the same cell matched
 * the same hash, so an honest open never contradicts it).  The opener wins
 * when the board is the standard fleet (zbc_battleship_check_fleet), else
 * the other seat wins. */
static int open_board(struct bs_state *s, uint8_t seat, const uint8_t *move,
                      size_t len, struct zbc_err *err)
{
    if (len != OPEN_LEN)
        return zbc_fail(err, "an open move is %d bytes (tag 4 and 100 cells of is_ship and salt), got %zu",
                        OPEN_LEN, len);
    uint8_t is_ship[N_CELLS], h[32];
    for (uint8_t c = 0; c < N_CELLS; c++) {
        const uint8_t *cell = move + 1 + (size_t)c * OPEN_CELL;
        char name[4];
        if (!zbc_battleship_format_cell(c, name))
            return zbc_fail(err, "cell %u out of range 0-99", (unsigned)c);
        if (cell[0] > 1)
            return zbc_fail(err, "illegal move: the opening of %s says is_ship %u, want 0 or 1",
                            name, (unsigned)cell[0]);
        zbc_battleship_cell_hash(h, cell[0], cell + 1);
        if (memcmp(h, s->commit[seat][c], 32) != 0)
            return zbc_fail(err, "illegal move: the opening of %s as %s does not match the commitment",
                            name, cell[0] ? "ship" : "water");
        is_ship[c] = cell[0];
    }
    for (size_t c = 0; c < N_CELLS; c++)
        if (s->board[seat][c] == CELL_UNSHOT)
            s->board[seat][c] = is_ship[c] ? CELL_OPEN_SHIP : CELL_OPEN_WATER;
    struct zbc_err fleet;
    uint8_t winner = zbc_battleship_check_fleet(is_ship, &fleet)
                         ? seat
                         : (uint8_t)(1 - seat);
    s->phase = BS_OVER;
    s->winner = winner;
    s->to_move = winner;
    return 1;
}

/* Checks and applies one move to *s (which the caller discards on
 * failure). */
static int step(struct bs_state *s, uint8_t seat, const uint8_t *move,
                size_t len, struct zbc_err *err)
{
    int turn = s->phase == BS_OVER ? ZBC_NOBODY : s->to_move;
    if (!zbc_engine_move_entry(&zbc_engine_battleship, turn, seat, len, err))
        return 0;
    uint8_t tag = move[0];
    if (tag > ZBC_BATTLESHIP_OPEN)
        return zbc_fail(err, "unknown battleship move tag %u (0 fire, 1 reveal, 2 reveal and fire, 3 commit, 4 open)",
                        (unsigned)tag);
    if (s->phase == BS_COMMIT) {
        if (tag != ZBC_BATTLESHIP_COMMIT)
            return zbc_fail(err, "illegal move: seat 1 must first commit its board");
        if (len != COMMIT_MOVE_LEN)
            return zbc_fail(err, "a commit move is %d bytes (tag 3 and 100 hashes), got %zu",
                            COMMIT_MOVE_LEN, len);
        memcpy(s->commit[1], move + 1, COMMIT_LEN);
        s->phase = BS_PLAY;
        s->to_move = 0;
        return 1;
    }
    if (s->phase == BS_OPEN) {
        if (tag != ZBC_BATTLESHIP_OPEN)
            return zbc_fail(err, "illegal move: seat %u hit 17 ship cells and must now open its whole board",
                            (unsigned)seat);
        return open_board(s, seat, move, len, err);
    }
    switch (tag) {
    case ZBC_BATTLESHIP_COMMIT:
        return zbc_fail(err, "illegal move: the boards are already committed");
    case ZBC_BATTLESHIP_OPEN:
        return zbc_fail(err, "illegal move: nothing to open: a seat opens its board after its shots hit 17 ship cells");
    case ZBC_BATTLESHIP_FIRE:
        if (len != FIRE_LEN)
            return zbc_fail(err, "a fire move is %d bytes, got %zu", FIRE_LEN,
                            len);
        if (s->pending != NONE) {
            char name[4];
            if (!zbc_battleship_format_cell(s->pending, name))
                return zbc_fail(err, "pending cell out of range");
            return zbc_fail(err, "illegal move: reveal %s before firing", name);
        }
        return fire(s, seat, move[1], err);
    case ZBC_BATTLESHIP_REVEAL:
        if (len != REVEAL_LEN)
            return zbc_fail(err, "a reveal move is %d bytes, got %zu",
                            REVEAL_LEN, len);
        return reveal(s, seat, move[1], move + 2, err);
    case ZBC_BATTLESHIP_REVEAL_FIRE: {
        if (len != REVEAL_FIRE_LEN)
            return zbc_fail(err, "a reveal-and-fire move is %d bytes, got %zu",
                            REVEAL_FIRE_LEN, len);
        uint8_t cell = move[2 + SALT_LEN];
        uint8_t opp = (uint8_t)(1 - seat);
        /* The target is checked even when the reveal ends the game (then
         * the shot is void), so the move's validity never depends on
         * the revealed value. */
        if (cell >= N_CELLS)
            return zbc_fail(err, "cell %u out of range 0-99", (unsigned)cell);
        if (s->board[opp][cell] != CELL_UNSHOT) {
            char name[4];
            if (!zbc_battleship_format_cell(cell, name))
                return zbc_fail(err, "cell %u out of range 0-99", (unsigned)cell);
            return zbc_fail(err, "illegal move: %s was already fired at", name);
        }
        if (!reveal(s, seat, move[1], move + 2, err))
            return 0;
        if (s->phase != BS_PLAY)
            return 1; /* the reveal decided the board: the shot is void */
        return fire(s, seat, cell, err);
    }
    default:
        return zbc_fail(err, "unknown battleship move tag %u", (unsigned)tag);
    }
}

static int bs_check_move(const struct zbc_game_state *st, uint8_t seat,
                         const uint8_t *move, size_t len, struct zbc_err *err)
{
    struct bs_state copy = *cbs(st);
    return step(&copy, seat, move, len, err);
}

static int bs_apply_move(struct zbc_game_state *st, uint8_t seat,
                         const uint8_t *move, size_t len,
                         struct zbc_roll *rolls, struct zbc_err *err)
{
    (void)rolls;
    struct bs_state copy = *cbs(st);
    if (!step(&copy, seat, move, len, err))
        return 0;
    *bs(st) = copy;
    return 1;
}

static size_t bs_gen_moves(const struct zbc_game_state *st,
                           struct zbc_move *out, size_t cap)
{
    const struct bs_state *s = cbs(st);
    size_t n = 0;
    if (s->phase != BS_PLAY || s->pending != NONE)
        return 0; /* a commitment or a reveal needs the player's secrets */
    const uint8_t *target = s->board[1 - s->to_move];
    for (uint8_t c = 0; c < N_CELLS && n < cap; c++) {
        if (target[c] != CELL_UNSHOT)
            continue;
        out[n].len = FIRE_LEN;
        out[n].b[0] = ZBC_BATTLESHIP_FIRE;
        out[n].b[1] = c;
        n++;
    }
    return n;
}

/* Bytes: phase, to_move, pending, winner, board0[100], board1[100],
 * commit0[3200], commit1[3200]. */
static size_t bs_encode(const struct zbc_game_state *st, uint8_t *out,
                        size_t cap)
{
    const struct bs_state *s = cbs(st);
    if (cap < STATE_BYTES)
        return 0;
    out[0] = s->phase;
    out[1] = s->to_move;
    out[2] = s->pending;
    out[3] = s->winner;
    memcpy(out + 4, s->board, sizeof s->board);
    memcpy(out + 4 + sizeof s->board, s->commit, sizeof s->commit);
    return STATE_BYTES;
}

static int bs_validate(const struct bs_state *s, struct zbc_err *err)
{
    for (int p = 0; p < 2; p++)
        for (int c = 0; c < N_CELLS; c++)
            if (s->board[p][c] > CELL_OPEN_SHIP)
                return zbc_fail(err, "battleship state: cell %d of seat %d's board has value %u",
                                c, p, (unsigned)s->board[p][c]);
    unsigned pending_cells = count_cells(s->board[0], CELL_PENDING) +
                             count_cells(s->board[1], CELL_PENDING);
    if (s->to_move > 1)
        return zbc_fail(err, "battleship state: seat to move %u out of range",
                        (unsigned)s->to_move);
    if (s->phase != BS_OVER &&
        (opened_on(s->board[0]) != 0 || opened_on(s->board[1]) != 0))
        return zbc_fail(err, "battleship state: opened cells before the game is over");
    unsigned by0 = shots_on(s->board[1]), by1 = shots_on(s->board[0]);
    switch ((enum bs_phase)s->phase) {
    case BS_COMMIT: {
        static const uint8_t zero[COMMIT_LEN];
        if (s->to_move != 1 || s->pending != NONE || s->winner != NONE ||
            by0 != 0 || by1 != 0 ||
            memcmp(s->commit[1], zero, COMMIT_LEN) != 0)
            return zbc_fail(err, "battleship state: before the joiner's commitment seat 1 moves, no shots, no seat 1 hashes");
        return 1;
    }
    case BS_PLAY: {
        if (s->winner != NONE)
            return zbc_fail(err, "battleship state: a winner in a game in play");
        if (s->pending == NONE ? pending_cells != 0
                               : (s->pending >= N_CELLS || pending_cells != 1 ||
                                  s->board[s->to_move][s->pending] != CELL_PENDING))
            return zbc_fail(err, "battleship state: the pending cell must be the one unrevealed shot, on the board of the seat to move");
        if (by0 != by1 + (s->to_move == 1 ? 1u : 0u))
            return zbc_fail(err, "battleship state: %u shots by seat 0 and %u by seat 1 do not fit seat %u to move",
                            by0, by1, (unsigned)s->to_move);
        for (int p = 0; p < 2; p++)
            if (board_decided(s->board[p]))
                return zbc_fail(err, "battleship state: seat %d's board is decided but the game goes on", p);
        return 1;
    }
    case BS_OPEN: {
        /* the opener's shots hit exactly 17 ship cells (the game stops
         * there); its own board is undecided */
        uint8_t o = s->to_move;
        if (s->winner != NONE || s->pending != NONE || pending_cells != 0 ||
            count_cells(s->board[1 - o], CELL_SHIP) != FLEET ||
            board_decided(s->board[o]))
            return zbc_fail(err, "battleship state: an open is due only from a seat whose shots hit 17 ship cells, with no pending shot");
        if (by0 != by1 + (o == 0 ? 1u : 0u))
            return zbc_fail(err, "battleship state: %u shots by seat 0 and %u by seat 1 do not fit seat %u opening",
                            by0, by1, (unsigned)o);
        return 1;
    }
    case BS_OVER: {
        if (s->winner > 1 || s->to_move != s->winner || s->pending != NONE ||
            pending_cells != 0)
            return zbc_fail(err, "battleship state: a finished game has its winner to move and no pending shot");
        uint8_t w = s->winner, l = (uint8_t)(1 - w);
        unsigned op0 = opened_on(s->board[0]), op1 = opened_on(s->board[1]);
        if (op0 == 0 && op1 == 0) {
            /* ended by a short board: the loser's, the winner's undecided */
            if (!board_short(s->board[l]) || board_decided(s->board[w]))
                return zbc_fail(err, "battleship state: the boards do not show seat %u winning", (unsigned)w);
            if (by0 != by1 + (w == 0 ? 1u : 0u))
                return zbc_fail(err, "battleship state: %u shots by seat 0 and %u by seat 1 do not fit seat %u winning",
                                by0, by1, (unsigned)w);
            return 1;
        }
        /* ended by the final open: one board opened in full, the other
         * with exactly 17 ship cells hit; the opener's board was undecided
         * before the open; the opener wins exactly when it is the fleet */
        uint8_t o = op0 != 0 ? 0 : 1;
        const uint8_t *ob = s->board[o];
        if ((op0 != 0 && op1 != 0) || count_cells(ob, CELL_UNSHOT) != 0 ||
            count_cells(s->board[1 - o], CELL_SHIP) != FLEET ||
            count_cells(ob, CELL_SHIP) >= FLEET ||
            count_cells(ob, CELL_SHIP) + opened_on(ob) < FLEET)
            return zbc_fail(err, "battleship state: an opened board must be whole, opened by the seat whose shots hit 17 ship cells");
        uint8_t is_ship[N_CELLS];
        for (size_t c = 0; c < N_CELLS; c++)
            is_ship[c] = ob[c] == CELL_SHIP || ob[c] == CELL_OPEN_SHIP;
        struct zbc_err fleet;
        uint8_t want = zbc_battleship_check_fleet(is_ship, &fleet)
                           ? o
                           : (uint8_t)(1 - o);
        if (w != want)
            return zbc_fail(err, "battleship state: seat %u opened its board, so seat %u wins, not seat %u",
                            (unsigned)o, (unsigned)want, (unsigned)w);
        if (by0 != by1 + (o == 0 ? 1u : 0u))
            return zbc_fail(err, "battleship state: %u shots by seat 0 and %u by seat 1 do not fit seat %u opening",
                            by0, by1, (unsigned)o);
        return 1;
    }
    }
    return zbc_fail(err, "battleship state: phase %u out of range 0-3",
                    (unsigned)s->phase);
}

static int bs_decode(struct zbc_game_state *st, const uint8_t *in, size_t len,
                     struct zbc_err *err)
{
    if (len != STATE_BYTES)
        return zbc_fail(err, "battleship state: %zu bytes, want %d", len,
                        STATE_BYTES);
    struct bs_state s;
    s.phase = in[0];
    s.to_move = in[1];
    s.pending = in[2];
    s.winner = in[3];
    memcpy(s.board, in + 4, sizeof s.board);
    memcpy(s.commit, in + 4 + sizeof s.board, sizeof s.commit);
    if (!bs_validate(&s, err))
        return 0;
    *bs(st) = s;
    return 1;
}

static char cell_char(uint8_t v)
{
    switch ((enum bs_cell)v) {
    case CELL_UNSHOT:
        return '.';
    case CELL_PENDING:
        return '?';
    case CELL_WATER:
        return 'o';
    case CELL_SHIP:
        return 'X';
    case CELL_OPEN_WATER:
        return '-';
    case CELL_OPEN_SHIP:
        return '#';
    }
    return '!';
}

static const char *phase_name(uint8_t phase)
{
    switch ((enum bs_phase)phase) {
    case BS_COMMIT:
        return "commit";
    case BS_PLAY:
        return "play";
    case BS_OVER:
        return "over";
    case BS_OPEN:
        return "open";
    }
    return "?";
}

/* How a finished game ended: "sunk" (the opener's board is the fleet),
 * "bad_fleet" (it is not), "short_fleet" (the loser's board could no
 * longer hold 17 ship cells), with one sentence in why. */
static const char *end_kind(const struct bs_state *s, char *why, size_t cap)
{
    uint8_t w = s->winner, l = (uint8_t)(1 - w);
    if (opened_on(s->board[0]) == 0 && opened_on(s->board[1]) == 0) {
        snprintf(why, cap, "seat %u's board can no longer hold the 17 ship cells of the fleet: seat %u wins",
                 (unsigned)l, (unsigned)w);
        return "short_fleet";
    }
    uint8_t o = opened_on(s->board[0]) != 0 ? 0 : 1;
    if (o == w) {
        snprintf(why, cap, "seat %u hit 17 ship cells and opened the standard fleet: seat %u wins",
                 (unsigned)w, (unsigned)w);
        return "sunk";
    }
    unsigned ships = count_cells(s->board[o], CELL_SHIP) +
                     count_cells(s->board[o], CELL_OPEN_SHIP);
    if (ships == FLEET)
        snprintf(why, cap, "seat %u hit 17 ship cells but opened a board whose 17 ship cells are not the ships 5, 4, 3, 3, 2: seat %u wins",
                 (unsigned)o, (unsigned)w);
    else
        snprintf(why, cap, "seat %u hit 17 ship cells but opened a board of %u ship cells, not the fleet of 17: seat %u wins",
                 (unsigned)o, ships, (unsigned)w);
    return "bad_fleet";
}

static const char *awaiting(const struct bs_state *s)
{
    return s->phase == BS_COMMIT ? "commit"
           : s->phase == BS_OPEN ? "open"
           : s->pending != NONE  ? "reveal"
                                 : "fire";
}

static int bs_to_json(const struct zbc_game_state *st, char *out, size_t cap)
{
    const struct bs_state *s = cbs(st);
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    zbc_text_printf(&t, "{\"game\":\"battleship\",\"phase\":\"%s\",",
                    phase_name(s->phase));
    if (s->phase == BS_OVER)
        zbc_text_printf(&t, "\"turn\":null,\"awaiting\":null,");
    else
        zbc_text_printf(&t, "\"turn\":%u,\"awaiting\":\"%s\",",
                        (unsigned)s->to_move, awaiting(s));
    char name[4];
    if (s->pending != NONE && zbc_battleship_format_cell(s->pending, name))
        zbc_text_printf(&t, "\"pending\":{\"seat\":%u,\"cell\":%u,\"name\":\"%s\"},",
                        (unsigned)s->to_move, (unsigned)s->pending, name);
    else
        zbc_text_printf(&t, "\"pending\":null,");
    zbc_text_printf(&t, "\"boards\":[");
    for (int p = 0; p < 2; p++) {
        char cells[N_CELLS + 1];
        for (int c = 0; c < N_CELLS; c++)
            cells[c] = cell_char(s->board[p][c]);
        cells[N_CELLS] = '\0';
        zbc_text_printf(&t, "%s{\"seat\":%d,\"cells\":\"%s\",\"shots\":%u,\"ship_hits\":%u,\"opened\":%s}",
                        p ? "," : "", p, cells, shots_on(s->board[p]),
                        count_cells(s->board[p], CELL_SHIP),
                        opened_on(s->board[p]) != 0 ? "true" : "false");
    }
    zbc_text_printf(&t, "],");
    if (s->phase == BS_OVER) {
        char why[200];
        const char *kind = end_kind(s, why, sizeof why);
        zbc_text_printf(&t, "\"result\":\"win\",\"winner\":%u,\"end\":\"%s\",\"reason\":\"%s\"}",
                        (unsigned)s->winner, kind, why);
    } else {
        zbc_text_printf(&t, "\"result\":\"ongoing\",\"winner\":null,\"end\":null,\"reason\":null}");
    }
    return zbc_text_result(&t);
}

static int bs_render(const struct zbc_game_state *st, char *out, size_t cap)
{
    const struct bs_state *s = cbs(st);
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    zbc_text_printf(&t, "Battleship (. unshot, ? awaiting reveal, o water, X ship%s)\n",
                    s->phase == BS_OVER && (opened_on(s->board[0]) != 0 ||
                                            opened_on(s->board[1]) != 0)
                        ? "; opened: - water, # ship"
                        : "");
    for (int p = 0; p < 2; p++) {
        zbc_text_printf(&t, "seat %d board: %u shots by seat %d, %u/%d ship cells hit\n",
                        p, shots_on(s->board[p]), 1 - p,
                        count_cells(s->board[p], CELL_SHIP), FLEET);
        zbc_text_printf(&t, "   1 2 3 4 5 6 7 8 9 10\n");
        for (int r = 0; r < 10; r++) {
            zbc_text_printf(&t, "%c ", 'A' + r);
            for (int c = 0; c < 10; c++)
                zbc_text_printf(&t, " %c", cell_char(s->board[p][r * 10 + c]));
            zbc_text_printf(&t, "\n");
        }
    }
    char name[4], why[200];
    switch ((enum bs_phase)s->phase) {
    case BS_COMMIT:
        zbc_text_printf(&t, "waiting for seat 1 to commit its board\n");
        break;
    case BS_PLAY:
        if (s->pending != NONE && zbc_battleship_format_cell(s->pending, name))
            zbc_text_printf(&t, "seat %u to reveal %s, then fire\n",
                            (unsigned)s->to_move, name);
        else
            zbc_text_printf(&t, "seat %u to fire\n", (unsigned)s->to_move);
        break;
    case BS_OPEN:
        zbc_text_printf(&t, "seat %u hit 17 ship cells: it must open its whole board (open); the standard fleet wins, any other board loses\n",
                        (unsigned)s->to_move);
        break;
    case BS_OVER:
        (void)end_kind(s, why, sizeof why);
        zbc_text_printf(&t, "%s\n", why);
        break;
    }
    return zbc_text_result(&t);
}

/* ---- notation ---- */

/* Next whitespace-separated word of *p: start and length, 0 at the end. */
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

static bool word_eq(const char *w, size_t n, const char *lit)
{
    return strlen(lit) == n && strncmp(w, lit, n) == 0;
}

static int bs_parse_move(const struct zbc_game_state *st, uint8_t seat,
                         const char *text, uint8_t *move, size_t cap,
                         size_t *len, struct zbc_err *err)
{
    (void)st;
    (void)seat;
    const char *p = text, *w[6];
    size_t n[6], count = 0;
    for (;;) {
        const char *ws;
        size_t wl = next_word(&p, &ws);
        if (wl == 0)
            break;
        if (count == 6)
            return zbc_fail(err, "too many words in a battleship move");
        w[count] = ws;
        n[count++] = wl;
    }
    if (count == 2 && word_eq(w[0], n[0], "fire")) {
        if (cap < FIRE_LEN)
            return zbc_fail(err, "move buffer too small");
        if (!zbc_battleship_parse_cell(w[1], n[1], &move[1], err))
            return 0;
        move[0] = ZBC_BATTLESHIP_FIRE;
        *len = FIRE_LEN;
        return 1;
    }
    if (count == 2 && word_eq(w[0], n[0], "commit")) {
        if (cap < COMMIT_MOVE_LEN)
            return zbc_fail(err, "move buffer too small");
        size_t got = 0;
        if (n[1] != 2 * COMMIT_LEN ||
            !zbc_hex_decode(move + 1, COMMIT_LEN, &got, w[1], n[1]) ||
            got != COMMIT_LEN)
            return zbc_fail(err, "commit needs %d hex characters (100 hashes)",
                            2 * COMMIT_LEN);
        move[0] = ZBC_BATTLESHIP_COMMIT;
        *len = COMMIT_MOVE_LEN;
        return 1;
    }
    if (count >= 1 && count <= 2 && word_eq(w[0], n[0], "open")) {
        if (cap < OPEN_LEN)
            return zbc_fail(err, "move buffer too small");
        size_t got = 0;
        if (count != 2 || n[1] != 2 * (OPEN_LEN - 1) ||
            !zbc_hex_decode(move + 1, OPEN_LEN - 1, &got, w[1], n[1]) ||
            got != OPEN_LEN - 1)
            return zbc_fail(err, "open needs the whole board as %d hex characters (is_ship and salt of each of the 100 cells; the wallet fills them in)",
                            2 * (OPEN_LEN - 1));
        move[0] = ZBC_BATTLESHIP_OPEN;
        *len = OPEN_LEN;
        return 1;
    }
    if ((count == 3 || count == 5) && word_eq(w[0], n[0], "reveal")) {
        if (cap < REVEAL_FIRE_LEN)
            return zbc_fail(err, "move buffer too small");
        if (word_eq(w[1], n[1], "ship"))
            move[1] = 1;
        else if (word_eq(w[1], n[1], "water"))
            move[1] = 0;
        else
            return zbc_fail(err, "reveal \"ship\" or \"water\", not \"%.*s\"",
                            (int)(n[1] > 16 ? 16 : n[1]), w[1]);
        size_t got = 0;
        if (n[2] != 2 * SALT_LEN ||
            !zbc_hex_decode(move + 2, SALT_LEN, &got, w[2], n[2]) ||
            got != SALT_LEN)
            return zbc_fail(err, "a salt is %d hex characters", 2 * SALT_LEN);
        if (count == 3) {
            move[0] = ZBC_BATTLESHIP_REVEAL;
            *len = REVEAL_LEN;
            return 1;
        }
        if (!word_eq(w[3], n[3], "fire"))
            return zbc_fail(err, "after the salt write \"fire CELL\"");
        if (!zbc_battleship_parse_cell(w[4], n[4], &move[2 + SALT_LEN], err))
            return 0;
        move[0] = ZBC_BATTLESHIP_REVEAL_FIRE;
        *len = REVEAL_FIRE_LEN;
        return 1;
    }
    return zbc_fail(err, "battleship moves are \"fire B7\", \"reveal ship|water SALTHEX [fire C3]\", \"commit HEX\" or \"open HEX\"");
}

static int bs_format_move(const struct zbc_game_state *st, const uint8_t *move,
                          size_t len, char *out, size_t cap)
{
    (void)st;
    struct zbc_text t;
    char name[4], hex[2 * (OPEN_LEN - 1) + 1];
    zbc_text_init(&t, out, cap);
    if (len == 0)
        return 0;
    switch (move[0]) {
    case ZBC_BATTLESHIP_FIRE:
        if (len != FIRE_LEN || !zbc_battleship_format_cell(move[1], name))
            return 0;
        zbc_text_printf(&t, "fire %s", name);
        break;
    case ZBC_BATTLESHIP_REVEAL:
    case ZBC_BATTLESHIP_REVEAL_FIRE:
        if (move[1] > 1 ||
            len != (move[0] == ZBC_BATTLESHIP_REVEAL ? REVEAL_LEN
                                                      : REVEAL_FIRE_LEN))
            return 0;
        zbc_hex_encode(hex, move + 2, SALT_LEN);
        zbc_text_printf(&t, "reveal %s %s", move[1] ? "ship" : "water", hex);
        if (move[0] == ZBC_BATTLESHIP_REVEAL_FIRE) {
            if (!zbc_battleship_format_cell(move[2 + SALT_LEN], name))
                return 0;
            zbc_text_printf(&t, " fire %s", name);
        }
        break;
    case ZBC_BATTLESHIP_COMMIT:
        if (len != COMMIT_MOVE_LEN)
            return 0;
        zbc_hex_encode(hex, move + 1, COMMIT_LEN);
        zbc_text_printf(&t, "commit %s", hex);
        break;
    case ZBC_BATTLESHIP_OPEN:
        if (len != OPEN_LEN)
            return 0;
        for (size_t c = 0; c < N_CELLS; c++)
            if (move[1 + c * OPEN_CELL] > 1)
                return 0;
        zbc_hex_encode(hex, move + 1, OPEN_LEN - 1);
        zbc_text_printf(&t, "open %s", hex);
        break;
    default:
        return 0;
    }
    return zbc_text_result(&t) >= 0;
}

/* Eval (docs/games.md, "Machine opponents"): hunt and target.  For the
 * shots of each seat at the other's board: 100 per ship cell hit, and for
 * a shot not yet revealed 10 per revealed ship cell beside it (finish a
 * ship) plus 1 on the cells of one colour of the checkerboard (the
 * smallest ship covers two cells, so half the board finds every ship);
 * `seat`'s minus the other's. */
static int32_t bs_shots_value(const uint8_t *board)
{
    int32_t v = 0;
    for (int c = 0; c < N_CELLS; c++) {
        if (board[c] == CELL_SHIP)
            v += 100;
        if (board[c] != CELL_PENDING)
            continue;
        int r = c / 10, f = c % 10;
        v += ((r + f) & 1) == 0;
        v += 10 * ((r > 0 && board[c - 10] == CELL_SHIP) + (r < 9 && board[c + 10] == CELL_SHIP) +
                   (f > 0 && board[c - 1] == CELL_SHIP) + (f < 9 && board[c + 1] == CELL_SHIP));
    }
    return v;
}

static int32_t bs_eval(const struct zbc_game_state *st, uint8_t seat)
{
    const struct bs_state *s = cbs(st);
    if (seat > 1)
        return 0;
    /* board[k] is seat k's own board: seat's shots land on board[1 - seat] */
    return bs_shots_value(s->board[1 - seat]) - bs_shots_value(s->board[seat]);
}

const struct zbc_engine zbc_engine_battleship = {
    .state_size = sizeof(struct bs_state),
    .type = 7,
    .name = "battleship",
    .min_seats = 2,
    .max_seats = 2,
    .dice = false,
    .draws_first = false,
    .start_rolls = false,
    .secret_moves = true,
    .check_params = bs_check_params,
    .init = bs_init,
    .turn = bs_turn,
    .result = bs_result,
    .check_move = bs_check_move,
    .apply_move = bs_apply_move,
    .gen_moves = bs_gen_moves,
    .encode = bs_encode,
    .decode = bs_decode,
    .to_json = bs_to_json,
    .render = bs_render,
    .parse_move = bs_parse_move,
    .format_move = bs_format_move,
    .secret_params = true,
    .eval = bs_eval,
};
