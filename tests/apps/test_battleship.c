/* Battleship engine and wallet helpers: scenarios, bad input, random
 * playouts with honest players. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <jansson.h>

#include "apps/engine.h"
#include "apps/games/battleship.h"
#include "crypto/hex.h"
#include "testlib.h"
#include "tests/apps/battleship_boards.h"

extern const struct zbc_engine zbc_engine_battleship;
static const struct zbc_engine *E = &zbc_engine_battleship;

static int mv_fire(struct zbc_game_state *st, uint8_t seat, uint8_t cell,
                   struct zbc_err *err)
{
    uint8_t m[2] = {0, cell};
    return E->apply_move(st, seat, m, 2, NULL, err);
}

static void reveal_bytes(uint8_t *m, const struct board *b, uint8_t cell,
                         bool fire, uint8_t target)
{
    m[0] = fire ? 2 : 1;
    m[1] = b->ship[cell];
    memcpy(m + 2, b->salt[cell], 32);
    if (fire)
        m[34] = target;
}

static int mv_reveal(struct zbc_game_state *st, uint8_t seat,
                     const struct board *b, struct zbc_err *err)
{
    int cell = zbc_battleship_pending_cell(st, seat);
    if (cell < 0)
        return 0;
    uint8_t m[35];
    reveal_bytes(m, b, (uint8_t)cell, false, 0);
    return E->apply_move(st, seat, m, 34, NULL, err);
}

static int mv_reveal_fire(struct zbc_game_state *st, uint8_t seat,
                          const struct board *b, uint8_t target,
                          struct zbc_err *err)
{
    int cell = zbc_battleship_pending_cell(st, seat);
    if (cell < 0)
        return 0;
    uint8_t m[35];
    reveal_bytes(m, b, (uint8_t)cell, true, target);
    return E->apply_move(st, seat, m, 35, NULL, err);
}

/* The final open of a whole board: 04 || 100 x (is_ship || salt). */
static void open_bytes(uint8_t m[3301], const struct board *b)
{
    m[0] = 4;
    for (int c = 0; c < 100; c++) {
        m[1 + 33 * c] = b->ship[c];
        memcpy(m + 2 + 33 * c, b->salt[c], 32);
    }
}

static int mv_open(struct zbc_game_state *st, uint8_t seat,
                   const struct board *b, struct zbc_err *err)
{
    static uint8_t m[3301];
    open_bytes(m, b);
    return E->apply_move(st, seat, m, 3301, NULL, err);
}

static int commit(struct zbc_game_state *st, const struct board *b,
                  struct zbc_err *err)
{
    static uint8_t m[3201];
    m[0] = 3;
    memcpy(m + 1, b->commit, 3200);
    return E->apply_move(st, 1, m, 3201, NULL, err);
}

/* The JSON view parses (jansson), is an object, and its "turn" agrees with
 * turn(); the text view fits a normal buffer. */
static void views_check(const struct zbc_game_state *st)
{
    static char js[16384];
    CHECK(E->render(st, js, sizeof js) > 0);
    CHECK(E->to_json(st, js, sizeof js) > 0);
    json_error_t je;
    json_t *j = json_loads(js, 0, &je);
    CHECK(j != NULL && json_is_object(j));
    if (j == NULL) {
        fprintf(stderr, "bad JSON (%s): %s\n", je.text, js);
        return;
    }
    json_t *t = json_object_get(j, "turn");
    int turn = E->turn(st);
    CHECK(turn == ZBC_NOBODY ? json_is_null(t)
                             : json_is_integer(t) && json_integer_value(t) == turn);
    json_decref(j);
}

static void roundtrip(const struct zbc_game_state *st)
{
    static unsigned calls; /* views on every 16th state and every ending */
    if (calls++ % 16 == 0 || E->turn(st) == ZBC_NOBODY)
        views_check(st);
    static uint8_t a[ZBC_GAME_STATE_MAX], b[ZBC_GAME_STATE_MAX];
    static struct zbc_game_state copy;
    struct zbc_err err;
    size_t n = E->encode(st, a, sizeof a);
    CHECK_EQ_INT(n, 4 + 200 + 6400);
    int ok = E->decode(&copy, a, n, &err);
    CHECK(ok);
    if (!ok)
        fprintf(stderr, "decode: %s\n", err.msg);
    CHECK_EQ_INT(E->encode(&copy, b, sizeof b), n);
    CHECK_EQ_MEM(a, b, n);
}

static void test_helpers(void)
{
    struct zbc_err err;
    uint8_t h[32], salt[32], want[32];
    memset(salt, 0x11, 32);
    zbc_battleship_cell_hash(h, 1, salt);
    /* SHA3-256(01 || 11*32), computed with Python's hashlib. */
    CHECK(zbc_hex_decode_exact(want, 32,
        "e6785ee8ac7a0e877f336f20d6c923560e4df4958336e0947bf7f8425655f61a"));
    CHECK_EQ_MEM(h, want, 32);
    for (int k = 0; k < 32; k++)
        salt[k] = (uint8_t)k;
    zbc_battleship_cell_hash(h, 0, salt);
    CHECK(zbc_hex_decode_exact(want, 32,
        "e103e8ef6449460b0cf540d1d2b11d0a6069d3481bc559815d53ac876e6c54b1"));
    CHECK_EQ_MEM(h, want, 32);

    struct board b;
    make_board(&b, FLEET0, 17, 0);
    for (int i = 0; i < 100; i += 33) {
        zbc_battleship_cell_hash(h, b.ship[i], b.salt[i]);
        CHECK_EQ_MEM(b.commit + 32 * i, h, 32);
    }
    CHECK(zbc_battleship_check_fleet(b.ship, &err));
    make_board(&b, FLEET1, 17, 0);
    CHECK(zbc_battleship_check_fleet(b.ship, &err));
    /* touching and collinear ships: A1-A5 + A6-A9 + B1-B3 + B4-B6 + B7-B8 */
    const uint8_t touch[17] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14,
                               15, 16, 17};
    make_board(&b, touch, 17, 0);
    CHECK(zbc_battleship_check_fleet(b.ship, &err));
    /* 16 and 18 cells */
    make_board(&b, FLEET0, 16, 0);
    CHECK(!zbc_battleship_check_fleet(b.ship, &err));
    CHECK_EQ_STR(err.msg, "the board has 16 ship cells, the fleet has 17");
    make_board(&b, FLEET0, 17, 0);
    b.ship[99] = 1;
    CHECK(!zbc_battleship_check_fleet(b.ship, &err));
    /* a bent ship: the 2-ship I1-I2 moved to I1, J1 ... made an L with C */
    make_board(&b, FLEET0, 17, 0);
    b.ship[81] = 0;
    b.ship[30] = 1; /* D1 under C1: C1-C4 + D1 is an L of 5 */
    b.ship[80] = 0;
    b.ship[99] = 1; /* J10 alone */
    CHECK(!zbc_battleship_check_fleet(b.ship, &err));
    CHECK_EQ_STR(err.msg, "the ship cells are not the fleet 5, 4, 3, 3, 2 of "
                          "straight, non-overlapping ships");
    /* 5+5+3+2+2 = 17 cells, wrong ships */
    const uint8_t wrong[17] = {0, 1, 2, 3, 4, 20, 21, 22, 23, 24, 40, 41, 42,
                               60, 61, 80, 81};
    make_board(&b, wrong, 17, 0);
    CHECK(!zbc_battleship_check_fleet(b.ship, &err));
    /* a ship wrapping around a row end is not straight */
    const uint8_t wrap[17] = {8, 9, 10, 11, 12, 20, 21, 22, 23, 40, 41, 42,
                              60, 61, 62, 80, 81};
    make_board(&b, wrap, 17, 0);
    CHECK(!zbc_battleship_check_fleet(b.ship, &err));
    make_board(&b, FLEET0, 17, 0);
    b.ship[50] = 2;
    CHECK(!zbc_battleship_check_fleet(b.ship, &err));
    CHECK_EQ_STR(err.msg, "is_ship of cell 50 is 2, want 0 or 1");
    uint8_t out[3200];
    CHECK(!zbc_battleship_commitment(out, b.ship, b.salt, &err));

    uint8_t cell = 0;
    CHECK(zbc_battleship_parse_cell("B7", 2, &cell, &err));
    CHECK_EQ_INT(cell, 16);
    CHECK(zbc_battleship_parse_cell("j10", 3, &cell, &err));
    CHECK_EQ_INT(cell, 99);
    CHECK(zbc_battleship_parse_cell("A1", 2, &cell, &err));
    CHECK_EQ_INT(cell, 0);
    CHECK(!zbc_battleship_parse_cell("K1", 2, &cell, &err));
    CHECK_EQ_STR(err.msg, "cell \"K1\" is not a row A-J and a column 1-10");
    CHECK(!zbc_battleship_parse_cell("A11", 3, &cell, &err));
    CHECK(!zbc_battleship_parse_cell("A0", 2, &cell, &err));
    CHECK(!zbc_battleship_parse_cell("A01", 3, &cell, &err));
    CHECK(!zbc_battleship_parse_cell("A", 1, &cell, &err));
    CHECK(!zbc_battleship_parse_cell("7B", 2, &cell, &err));
    char name[4];
    CHECK(zbc_battleship_format_cell(16, name));
    CHECK_EQ_STR(name, "B7");
    CHECK(zbc_battleship_format_cell(99, name));
    CHECK_EQ_STR(name, "J10");
    CHECK(!zbc_battleship_format_cell(100, name));
}

static const char *EMPTY_ROW = "  . . . . . . . . . .\n";

static void test_win_by_seventeen_hits(void)
{
    struct board b0, b1;
    make_board(&b0, FLEET0, 17, 0);
    make_board(&b1, FLEET1, 17, 100);
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result res;
    static char buf[4096];
    CHECK(E->init(&st, 2, b0.commit, 3200, 0, NULL, &err));
    CHECK_EQ_INT(E->turn(&st), 1); /* the joiner commits first */
    struct zbc_move mv[100];
    CHECK_EQ_INT(E->gen_moves(&st, mv, 100), 0);
    CHECK(commit(&st, &b1, &err));
    CHECK_EQ_INT(E->turn(&st), 0);
    CHECK_EQ_INT(E->gen_moves(&st, mv, 100), 100);
    CHECK(mv_fire(&st, 0, 9, &err)); /* A10: ship */
    CHECK_EQ_INT(E->turn(&st), 1);
    CHECK_EQ_INT(zbc_battleship_pending_cell(&st, 1), 9);
    CHECK_EQ_INT(zbc_battleship_pending_cell(&st, 0), -1);
    CHECK_EQ_INT(E->gen_moves(&st, mv, 100), 0); /* a reveal is secret */
    CHECK(mv_reveal_fire(&st, 1, &b1, 10, &err)); /* B1: water */
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    char want[4096];
    snprintf(want, sizeof want,
             "Battleship (. unshot, ? awaiting reveal, o water, X ship)\n"
             "seat 0 board: 1 shots by seat 1, 0/17 ship cells hit\n"
             "   1 2 3 4 5 6 7 8 9 10\n"
             "A%s"
             "B  ? . . . . . . . . .\n"
             "C%sD%sE%sF%sG%sH%sI%sJ%s"
             "seat 1 board: 1 shots by seat 0, 1/17 ship cells hit\n"
             "   1 2 3 4 5 6 7 8 9 10\n"
             "A  . . . . . . . . . X\n"
             "B%sC%sD%sE%sF%sG%sH%sI%sJ%s"
             "seat 0 to reveal B1, then fire\n",
             EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW,
             EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW,
             EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW, EMPTY_ROW);
    CHECK_EQ_STR(buf, want);
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "{\"game\":\"battleship\",\"phase\":\"play\",\"turn\":0,"
                      "\"awaiting\":\"reveal\",\"pending\":{\"seat\":0,"
                      "\"cell\":10,\"name\":\"B1\"},") == buf);
    CHECK(strstr(buf, "\"shots\":1,\"ship_hits\":1,\"opened\":false}],\"result\":\"ongoing\","
                      "\"winner\":null,\"end\":null,\"reason\":null}") != NULL);
    roundtrip(&st);

    /* seat 0 reveals B1 (water) alone, then fires; seat 1 keeps missing. */
    CHECK(mv_reveal(&st, 0, &b0, &err));
    CHECK_EQ_INT(E->turn(&st), 0);
    CHECK_EQ_INT(E->gen_moves(&st, mv, 100), 99);
    uint8_t miss = 11; /* seat 1 shoots B2, B3, ... skipping seat 0's ships */
    for (int i = 1; i < 17; i++) {
        CHECK(mv_fire(&st, 0, FLEET1[i], &err));
        E->result(&st, &res);
        CHECK_EQ_INT(res.kind, ZBC_RESULT_ONGOING);
        if (i == 16)
            break;
        while (b0.ship[miss])
            miss++;
        CHECK(mv_reveal_fire(&st, 1, &b1, miss++, &err));
        CHECK(mv_reveal(&st, 0, &b0, &err));
        roundtrip(&st);
    }
    /* The 17th hit: a reveal-and-fire whose reveal decides seat 1's board;
     * the fire part (a legal target) is void.  Seat 0 must now open its
     * own board before it is paid (docs/games.md "Final open"). */
    CHECK(mv_reveal_fire(&st, 1, &b1, 99, &err));
    E->result(&st, &res);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_ONGOING);
    CHECK_EQ_INT(E->turn(&st), 0);
    CHECK(zbc_battleship_open_due(&st, 0));
    CHECK(!zbc_battleship_open_due(&st, 1));
    CHECK_EQ_INT(zbc_battleship_pending_cell(&st, 0), -1);
    CHECK_EQ_INT(E->gen_moves(&st, mv, 100), 0); /* the open is secret */
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "\nseat 0 hit 17 ship cells: it must open its whole board (open); "
                      "the standard fleet wins, any other board loses\n") != NULL);
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "\"phase\":\"open\",\"turn\":0,\"awaiting\":\"open\",\"pending\":null,") != NULL);
    roundtrip(&st);
    CHECK(!mv_fire(&st, 0, 50, &err));
    CHECK_EQ_STR(err.msg, "illegal move: seat 0 hit 17 ship cells and must now open its whole board");
    CHECK(!mv_open(&st, 1, &b1, &err));
    CHECK_EQ_STR(err.msg, "not your turn: seat 0 is to move");
    CHECK(mv_open(&st, 0, &b0, &err));
    E->result(&st, &res);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(res.winner, 0);
    CHECK_EQ_INT(res.out_mask, 0);
    CHECK_EQ_INT(E->turn(&st), ZBC_NOBODY);
    CHECK_EQ_INT(E->gen_moves(&st, mv, 100), 0);
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "Battleship (. unshot, ? awaiting reveal, o water, X ship; opened: - water, # ship)\n") == buf);
    CHECK(strstr(buf, "seat 1 board: 17 shots by seat 0, 17/17 ship cells hit\n") != NULL);
    CHECK(strstr(buf, "seat 0 board: 16 shots by seat 1, 0/17 ship cells hit\n") != NULL);
    /* seat 0's unshot ships and water as opened; J10 of seat 1 never shot */
    CHECK(strstr(buf, "\nA  # # # # # - - - - -\n") != NULL);
    CHECK(strstr(buf, "\nJ  - - - - - - - - - -\nseat 1 board") != NULL);
    CHECK(strstr(buf, "\nJ  X X X . . . . . . .\nseat 0 hit 17 ship cells and opened the standard fleet: seat 0 wins\n") != NULL);
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "\"result\":\"win\",\"winner\":0,\"end\":\"sunk\",\"reason\":"
                      "\"seat 0 hit 17 ship cells and opened the standard fleet: seat 0 wins\"}") != NULL);
    CHECK(strstr(buf, "\"ship_hits\":0,\"opened\":true}") != NULL);
    roundtrip(&st);
    CHECK(!mv_fire(&st, 0, 50, &err));
    CHECK_EQ_STR(err.msg, "the game is over");
    CHECK(!mv_open(&st, 0, &b0, &err));
    CHECK_EQ_STR(err.msg, "the game is over");
}

/* Plays seat 0 (board a) against seat 1 (board b): seat 0 fires at b's
 * ships in order, seat 1 at a's water, every reveal honest, until seat 1's
 * board shows 17 hits (seat 0 must open) or the game ends. */
static void sink_seat1(struct zbc_game_state *st, const struct board *a,
                       const struct board *b)
{
    struct zbc_err err;
    CHECK(E->init(st, 2, a->commit, 3200, 0, NULL, &err));
    CHECK(commit(st, b, &err));
    uint8_t miss = 0;
    for (int c = 0; c < 100 && E->turn(st) == 0 && !zbc_battleship_open_due(st, 0); c++) {
        if (!b->ship[c])
            continue;
        CHECK(mv_fire(st, 0, (uint8_t)c, &err));
        while (a->ship[miss])
            miss++;
        if (!mv_reveal_fire(st, 1, b, miss, &err))
            break;
        if (zbc_battleship_open_due(st, 0))
            break;
        miss++;
        CHECK(mv_reveal(st, 0, a, &err));
    }
}

/* A short fleet (16 ship cells) that sinks the other fleet first loses at
 * the open; so does a board of 17 ship cells that are not the fleet's
 * shapes, and one of 18 cells.  The exact amounts each seat gets are the
 * lifecycle's (a win for the other seat: docs/protocol-apps.md §3). */
static void test_bad_fleet_loses_at_open(void)
{
    static struct board b0, b1;
    static struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result res;
    static char buf[4096];
    make_board(&b1, FLEET1, 17, 100);
    /* 16 ship cells: FLEET0 without I2 */
    make_board(&b0, FLEET0, 16, 0);
    sink_seat1(&st, &b0, &b1);
    CHECK(zbc_battleship_open_due(&st, 0));
    roundtrip(&st);
    CHECK(mv_open(&st, 0, &b0, &err));
    E->result(&st, &res);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(res.winner, 1);
    CHECK_EQ_INT(E->turn(&st), ZBC_NOBODY);
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "\nseat 0 hit 17 ship cells but opened a board of 16 ship cells, "
                      "not the fleet of 17: seat 1 wins\n") != NULL);
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "\"winner\":1,\"end\":\"bad_fleet\"") != NULL);
    roundtrip(&st);

    /* 17 cells in the wrong shapes (5+5+3+2+2) */
    const uint8_t wrong[17] = {0, 1, 2, 3, 4, 20, 21, 22, 23, 24, 40, 41, 42,
                               60, 61, 80, 81};
    make_board(&b0, wrong, 17, 0);
    sink_seat1(&st, &b0, &b1);
    CHECK(mv_open(&st, 0, &b0, &err));
    E->result(&st, &res);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(res.winner, 1);
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "\nseat 0 hit 17 ship cells but opened a board whose 17 ship cells are "
                      "not the ships 5, 4, 3, 3, 2: seat 1 wins\n") != NULL);
    roundtrip(&st);

    /* 18 cells: the fleet and one more */
    make_board(&b0, FLEET0, 17, 0);
    b0.ship[99] = 1;
    CHECK(zbc_battleship_commitment(b0.commit, b0.ship, b0.salt, &err));
    sink_seat1(&st, &b0, &b1);
    CHECK(mv_open(&st, 0, &b0, &err));
    E->result(&st, &res);
    CHECK_EQ_INT(res.winner, 1);
    roundtrip(&st);

    /* seat 1 the opener: it sinks seat 0's fleet with a short board */
    make_board(&b0, FLEET0, 17, 0);
    make_board(&b1, FLEET1, 16, 100);
    CHECK(E->init(&st, 2, b0.commit, 3200, 0, NULL, &err));
    CHECK(commit(&st, &b1, &err));
    uint8_t miss = 0;
    for (int i = 0; i < 17; i++) {
        while (b1.ship[miss])
            miss++;
        CHECK(mv_fire(&st, 0, miss++, &err));
        CHECK(mv_reveal_fire(&st, 1, &b1, FLEET0[i], &err));
        CHECK(mv_reveal(&st, 0, &b0, &err) || zbc_battleship_open_due(&st, 1));
        if (zbc_battleship_open_due(&st, 1))
            break;
        E->result(&st, &res);
        CHECK_EQ_INT(res.kind, ZBC_RESULT_ONGOING);
    }
    CHECK(zbc_battleship_open_due(&st, 1));
    roundtrip(&st);
    CHECK(mv_open(&st, 1, &b1, &err));
    E->result(&st, &res);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(res.winner, 0);
    roundtrip(&st);
}

/* The open must match every commitment: a wrong salt or a flipped cell is
 * refused with the cell named, and the state stays as it was; the seat
 * can only open honestly or let its clock run out (then the lifecycle's
 * timeout pays the other seat: tests/consensus/test_battleship_open.c). */
static void test_open_refusals(void)
{
    static struct board b0, b1;
    static struct zbc_game_state st, before;
    static uint8_t m[3302];
    struct zbc_err err;
    make_board(&b0, FLEET0, 17, 0);
    make_board(&b1, FLEET1, 17, 100);
    /* in play: nothing to open */
    CHECK(E->init(&st, 2, b0.commit, 3200, 0, NULL, &err));
    open_bytes(m, &b1);
    CHECK(!E->check_move(&st, 1, m, 3301, &err));
    CHECK_EQ_STR(err.msg, "illegal move: seat 1 must first commit its board");
    CHECK(commit(&st, &b1, &err));
    open_bytes(m, &b0);
    CHECK(!E->check_move(&st, 0, m, 3301, &err));
    CHECK_EQ_STR(err.msg, "illegal move: nothing to open: a seat opens its board after its shots hit 17 ship cells");

    sink_seat1(&st, &b0, &b1);
    CHECK(zbc_battleship_open_due(&st, 0));
    before = st;
    open_bytes(m, &b0);
    m[2 + 33 * 16 + 5] ^= 1; /* wrong salt of B7 */
    CHECK(!E->apply_move(&st, 0, m, 3301, NULL, &err));
    CHECK_EQ_STR(err.msg, "illegal move: the opening of B7 as water does not match the commitment");
    open_bytes(m, &b0);
    m[1 + 33 * 99] = 1; /* J10 claimed a ship */
    CHECK(!E->apply_move(&st, 0, m, 3301, NULL, &err));
    CHECK_EQ_STR(err.msg, "illegal move: the opening of J10 as ship does not match the commitment");
    open_bytes(m, &b0);
    m[1] = 0; /* A1 is a ship */
    CHECK(!E->apply_move(&st, 0, m, 3301, NULL, &err));
    CHECK_EQ_STR(err.msg, "illegal move: the opening of A1 as water does not match the commitment");
    open_bytes(m, &b0);
    m[1 + 33 * 50] = 2;
    CHECK(!E->apply_move(&st, 0, m, 3301, NULL, &err));
    CHECK_EQ_STR(err.msg, "illegal move: the opening of F1 says is_ship 2, want 0 or 1");
    open_bytes(m, &b0);
    CHECK(!E->apply_move(&st, 0, m, 3300, NULL, &err));
    CHECK_EQ_STR(err.msg, "an open move is 3301 bytes (tag 4 and 100 cells of is_ship and salt), got 3300");
    CHECK(!E->apply_move(&st, 0, m, 3302, NULL, &err));
    CHECK(!E->apply_move(&st, 0, m, 1, NULL, &err));
    /* another seat's board (a valid open of seat 1's) is not seat 0's */
    open_bytes(m, &b1);
    CHECK(!E->apply_move(&st, 0, m, 3301, NULL, &err));
    CHECK_EQ_STR(err.msg, "illegal move: the opening of A1 as water does not match the commitment");
    uint8_t r[35];
    reveal_bytes(r, &b0, 0, false, 0);
    CHECK(!E->apply_move(&st, 0, r, 34, NULL, &err));
    CHECK_EQ_STR(err.msg, "illegal move: seat 0 hit 17 ship cells and must now open its whole board");
    uint8_t t5[2] = {5, 0};
    CHECK(!E->apply_move(&st, 0, t5, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "unknown battleship move tag 5 (0 fire, 1 reveal, 2 reveal and fire, 3 commit, 4 open)");
    CHECK_EQ_MEM(&st, &before, sizeof st);
    open_bytes(m, &b0);
    CHECK(E->check_move(&st, 0, m, 3301, &err));
    CHECK_EQ_MEM(&st, &before, sizeof st);
}

/* Seat 1 commits 16 ship cells only: its board cannot be told from an
 * honest one before the last cell, so seat 0 shoots all 100 and wins. */
static void test_cheater_with_few_ships(void)
{
    struct board b0, b1;
    make_board(&b0, FLEET0, 17, 0);
    make_board(&b1, FLEET1, 16, 100);
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result res;
    CHECK(E->init(&st, 2, b0.commit, 3200, 1, NULL, &err));
    CHECK(commit(&st, &b1, &err));
    /* seat 1 shoots seat 0's water first, then its ships. */
    uint8_t order[100];
    size_t k = 0;
    for (int c = 0; c < 100; c++)
        if (!b0.ship[c])
            order[k++] = (uint8_t)c;
    for (int c = 0; c < 100; c++)
        if (b0.ship[c])
            order[k++] = (uint8_t)c;
    for (int c = 0; c < 100; c++) {
        CHECK(mv_fire(&st, 0, (uint8_t)c, &err));
        if (c == 99) {
            CHECK(mv_reveal(&st, 1, &b1, &err)); /* the 100th shot revealed */
            break;
        }
        CHECK(mv_reveal_fire(&st, 1, &b1, order[c], &err));
        CHECK(mv_reveal(&st, 0, &b0, &err));
        E->result(&st, &res);
        CHECK_EQ_INT(res.kind, ZBC_RESULT_ONGOING);
    }
    E->result(&st, &res);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(res.winner, 0);
    static char buf[4096];
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "seat 1 board: 100 shots by seat 0, 16/17 ship cells hit\n") != NULL);
    CHECK(strstr(buf, "seat 0 board: 99 shots by seat 1, 16/17 ship cells hit\n") != NULL);
    roundtrip(&st);
}

/* A board whose revealed ships plus unshot cells are fewer than 17 can no
 * longer hold the fleet: its owner committed too few ships and loses at
 * once.  Otherwise a cheater committing no ships at all could never be
 * hit, and would win whenever it sank the honest fleet within its first
 * 99 shots. */
static void test_cheater_caught_early(void)
{
    struct board b0, b1;
    make_board(&b0, FLEET0, 17, 0);
    make_board(&b1, FLEET1, 0, 100); /* no ships at all */
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result res;
    CHECK(E->init(&st, 2, b0.commit, 3200, 1, NULL, &err));
    CHECK(commit(&st, &b1, &err));
    /* seat 1 shoots seat 0's water first, then its ships */
    uint8_t order[100];
    size_t k = 0;
    for (int i = 0; i < 100; i++)
        if (!b0.ship[i])
            order[k++] = (uint8_t)i;
    for (int i = 0; i < 100; i++)
        if (b0.ship[i])
            order[k++] = (uint8_t)i;
    int c;
    for (c = 0; c < 100; c++) {
        CHECK(mv_fire(&st, 0, (uint8_t)c, &err));
        CHECK(mv_reveal(&st, 1, &b1, &err));
        E->result(&st, &res);
        if (res.kind != ZBC_RESULT_ONGOING)
            break;
        CHECK(mv_fire(&st, 1, order[c], &err));
        CHECK(mv_reveal(&st, 0, &b0, &err));
    }
    /* after 84 revealed water cells only 16 are left unshot */
    CHECK_EQ_INT(c, 83);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(res.winner, 0);
    CHECK_EQ_INT(E->turn(&st), ZBC_NOBODY);
    roundtrip(&st);
    /* one ship revealed among 83 shots: 1 + 17 unshot = 18, play goes on */
    uint8_t one[1] = {50};
    make_board(&b1, one, 1, 100);
    CHECK(E->init(&st, 2, b0.commit, 3200, 1, NULL, &err));
    CHECK(commit(&st, &b1, &err));
    for (c = 0; c < 84; c++) {
        CHECK(mv_fire(&st, 0, (uint8_t)c, &err));
        CHECK(mv_reveal(&st, 1, &b1, &err));
        E->result(&st, &res);
        if (res.kind != ZBC_RESULT_ONGOING)
            break;
        CHECK(mv_fire(&st, 1, order[c], &err));
        CHECK(mv_reveal(&st, 0, &b0, &err));
    }
    /* 84 shots, one of them a ship: 1 + 16 = 17, not yet decided */
    CHECK_EQ_INT(c, 84);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_ONGOING);
    roundtrip(&st);
    CHECK(mv_fire(&st, 0, 84, &err));
    CHECK(mv_reveal(&st, 1, &b1, &err));
    E->result(&st, &res);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(res.winner, 0);
    roundtrip(&st);
}

static void test_bad_moves(void)
{
    struct board b0, b1;
    make_board(&b0, FLEET0, 17, 0);
    make_board(&b1, FLEET1, 17, 100);
    static struct zbc_game_state st, before;
    struct zbc_err err;
    CHECK(!E->check_params(3, b0.commit, 3200, &err));
    CHECK_EQ_STR(err.msg, "battleship takes 2 to 2 seats, not 3");
    CHECK(!E->check_params(2, b0.commit, 3199, &err));
    CHECK_EQ_STR(err.msg, "battleship params are the creator's 3200-byte board commitment, got 3199 bytes");
    CHECK(!E->init(&st, 2, b0.commit, 0, 0, NULL, &err));
    CHECK(E->init(&st, 2, b0.commit, 3200, 0, NULL, &err));

    static uint8_t m[3300];
    m[0] = 3;
    memcpy(m + 1, b1.commit, 3200);
    CHECK(!E->check_move(&st, 0, m, 3201, &err));
    CHECK_EQ_STR(err.msg, "not your turn: seat 1 is to move");
    CHECK(!E->check_move(&st, 1, m, 3200, &err));
    CHECK_EQ_STR(err.msg, "a commit move is 3201 bytes (tag 3 and 100 hashes), got 3200");
    CHECK(!E->check_move(&st, 1, m, 3202, &err));
    CHECK(!E->check_move(&st, 1, m, 0, &err));
    CHECK_EQ_STR(err.msg, "empty battleship move");
    uint8_t f[2] = {0, 5};
    CHECK(!E->check_move(&st, 1, f, 2, &err));
    CHECK_EQ_STR(err.msg, "illegal move: seat 1 must first commit its board");
    uint8_t t5[2] = {5, 0};
    CHECK(!E->check_move(&st, 1, t5, 2, &err));
    CHECK_EQ_STR(err.msg, "unknown battleship move tag 5 (0 fire, 1 reveal, 2 reveal and fire, 3 commit, 4 open)");
    CHECK(commit(&st, &b1, &err));
    CHECK(!E->check_move(&st, 1, m, 3201, &err));
    CHECK_EQ_STR(err.msg, "not your turn: seat 0 is to move");
    CHECK(!E->check_move(&st, 0, m, 3201, &err));
    CHECK_EQ_STR(err.msg, "illegal move: the boards are already committed");

    uint8_t f100[2] = {0, 100}, f3[3] = {0, 1, 2};
    CHECK(!E->check_move(&st, 0, f100, 2, &err));
    CHECK_EQ_STR(err.msg, "cell 100 out of range 0-99");
    CHECK(!E->check_move(&st, 0, f3, 3, &err));
    CHECK_EQ_STR(err.msg, "a fire move is 2 bytes, got 3");
    uint8_t r[35];
    reveal_bytes(r, &b0, 0, false, 0);
    CHECK(!E->check_move(&st, 0, r, 34, &err));
    CHECK_EQ_STR(err.msg, "illegal move: nothing to reveal");

    CHECK(mv_fire(&st, 0, 9, &err)); /* A10, a ship of seat 1 */
    CHECK(!mv_fire(&st, 0, 8, &err));
    CHECK_EQ_STR(err.msg, "not your turn: seat 1 is to move");
    CHECK(!mv_fire(&st, 1, 0, &err));
    CHECK_EQ_STR(err.msg, "illegal move: reveal A10 before firing");

    before = st;
    reveal_bytes(r, &b1, 9, false, 0);
    r[1] = 0; /* lie: water */
    CHECK(!E->apply_move(&st, 1, r, 34, NULL, &err));
    CHECK_EQ_STR(err.msg, "illegal move: the reveal of A10 as water does not match the commitment");
    reveal_bytes(r, &b1, 9, false, 0);
    r[5] ^= 1; /* wrong salt */
    CHECK(!E->apply_move(&st, 1, r, 34, NULL, &err));
    CHECK_EQ_STR(err.msg, "illegal move: the reveal of A10 as ship does not match the commitment");
    reveal_bytes(r, &b1, 9, false, 0);
    r[1] = 2;
    CHECK(!E->apply_move(&st, 1, r, 34, NULL, &err));
    CHECK_EQ_STR(err.msg, "is_ship must be 0 or 1, got 2");
    reveal_bytes(r, &b1, 9, false, 0);
    CHECK(!E->apply_move(&st, 1, r, 35, NULL, &err));
    CHECK_EQ_STR(err.msg, "a reveal move is 34 bytes, got 35");
    reveal_bytes(r, &b1, 9, true, 100);
    CHECK(!E->apply_move(&st, 1, r, 35, NULL, &err));
    CHECK_EQ_STR(err.msg, "cell 100 out of range 0-99");
    CHECK(!E->apply_move(&st, 1, r, 34, NULL, &err));
    CHECK_EQ_STR(err.msg, "a reveal-and-fire move is 35 bytes, got 34");
    CHECK_EQ_MEM(&st, &before, sizeof st);

    CHECK(mv_reveal_fire(&st, 1, &b1, 0, &err)); /* A1: a ship of seat 0 */
    CHECK(mv_reveal(&st, 0, &b0, &err));
    CHECK(!mv_fire(&st, 0, 9, &err));
    CHECK_EQ_STR(err.msg, "illegal move: A10 was already fired at");
    CHECK(mv_fire(&st, 0, 19, &err));
    /* reveal-and-fire at a cell already fired at */
    reveal_bytes(r, &b1, 19, true, 0);
    CHECK(!E->apply_move(&st, 1, r, 35, NULL, &err));
    CHECK_EQ_STR(err.msg, "illegal move: A1 was already fired at");
    roundtrip(&st);
}

static void test_bad_states(void)
{
    struct board b0, b1;
    make_board(&b0, FLEET0, 17, 0);
    make_board(&b1, FLEET1, 17, 100);
    static struct zbc_game_state st, before;
    static uint8_t good[6604], bad[6604];
    struct zbc_err err;
    CHECK(E->init(&st, 2, b0.commit, 3200, 0, NULL, &err));
    size_t n = E->encode(&st, good, sizeof good);
    CHECK_EQ_INT(n, 6604);
    CHECK(E->encode(&st, bad, 6603) == 0);
    before = st;
#define TRY_BAD(mutate)                                                    \
    do {                                                                   \
        memcpy(bad, good, n);                                              \
        mutate;                                                            \
        CHECK(!E->decode(&st, bad, n, &err));                              \
        CHECK_EQ_MEM(&st, &before, sizeof st);                             \
    } while (0)
    CHECK(!E->decode(&st, good, n - 1, &err));
    CHECK(!E->decode(&st, good, 0, &err));
    TRY_BAD(bad[0] = 4);               /* phase */
    TRY_BAD(bad[0] = 3);               /* an open due before the commit */
    TRY_BAD(bad[1] = 0);               /* commit phase, seat 0 to move */
    TRY_BAD(bad[2] = 5);               /* pending in commit phase */
    TRY_BAD(bad[3] = 0);               /* winner in commit phase */
    TRY_BAD(bad[4 + 200 + 3200] = 1);  /* seat 1 hash before its commit */
    TRY_BAD(bad[4 + 7] = 2);           /* a shot before the commit */

    CHECK(commit(&st, &b1, &err));
    CHECK(mv_fire(&st, 0, 9, &err));
    before = st;
    n = E->encode(&st, good, sizeof good);
    /* state: play, seat 1 to move, pending 9 on board 1 */
    CHECK_EQ_INT(good[0], 1);
    CHECK_EQ_INT(good[1], 1);
    CHECK_EQ_INT(good[2], 9);
    CHECK_EQ_INT(good[4 + 100 + 9], 1);
    TRY_BAD(bad[2] = 8);                            /* pending elsewhere */
    TRY_BAD(bad[2] = 0xFF);                         /* pending not named */
    TRY_BAD(bad[2] = 100);
    TRY_BAD(bad[1] = 0);                            /* wrong seat to move */
    TRY_BAD(bad[3] = 1);                            /* winner in play */
    TRY_BAD(bad[4 + 100 + 10] = 2);                 /* extra shot by seat 0 */
    TRY_BAD(bad[4 + 100 + 10] = 4);                 /* cell value 4 */
    TRY_BAD(bad[4 + 5] = 1);                        /* a second pending */
    TRY_BAD(bad[4 + 5] = 2);                        /* shot count by seat 1 */
    TRY_BAD({ bad[0] = 2; bad[2] = 0xFF; bad[3] = 1; bad[4 + 109] = 3; });
    /* seat 1's board with 17 revealed ships while in play */
    TRY_BAD({
        bad[1] = 0;
        bad[2] = 0xFF;
        for (int i = 0; i < 17; i++)
            bad[4 + 100 + FLEET1[i]] = 3;
        for (int i = 0; i < 17; i++)
            bad[4 + 50 + i] = 2;
    });
    /* seat 1's board with 84 revealed water cells (room for 16 ships
     * only) while in play; seat 0's board undecided (16 ships, 68 water) */
    TRY_BAD({
        bad[1] = 0;
        bad[2] = 0xFF;
        for (int i = 0; i < 84; i++) {
            bad[4 + 100 + i] = 2;
            bad[4 + i] = i < 16 ? 3 : 2;
        }
    });
    /* the same boards as an open due from seat 0 decode */
    memcpy(bad, good, n);
    bad[0] = 3;
    bad[1] = 0;
    bad[2] = 0xFF;
    bad[3] = 0xFF;
    for (int i = 0; i < 17; i++)
        bad[4 + 100 + FLEET1[i]] = 3;
    for (int i = 0; i < 16; i++) /* seat 1 missed: A6-B10 and C5 */
        bad[4 + (i < 15 ? 5 + i : 24)] = 2;
    CHECK(E->decode(&st, bad, n, &err));
    struct zbc_result res;
    E->result(&st, &res);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_ONGOING);
    CHECK(zbc_battleship_open_due(&st, 0));
    static uint8_t open_ok[6604];
    memcpy(open_ok, bad, n);
    /* ... but not with the shot counts of seat 1 opening, a winner, a
     * pending cell, 16 hits, or an opened cell before the end */
    bad[1] = 1;
    CHECK(!E->decode(&st, bad, n, &err));
    memcpy(bad, open_ok, n);
    bad[3] = 0;
    CHECK(!E->decode(&st, bad, n, &err));
    memcpy(bad, open_ok, n);
    bad[2] = 50;
    CHECK(!E->decode(&st, bad, n, &err));
    memcpy(bad, open_ok, n);
    bad[4 + 100 + FLEET1[0]] = 2;
    CHECK(!E->decode(&st, bad, n, &err));
    memcpy(bad, open_ok, n);
    bad[4 + 99] = 4;
    CHECK(!E->decode(&st, bad, n, &err));
    CHECK_EQ_STR(err.msg, "battleship state: opened cells before the game is over");
    /* seat 0 opened FLEET0 (a standard fleet: seat 0 wins) */
    memcpy(bad, open_ok, n);
    bad[0] = 2;
    bad[3] = 0;
    for (int c = 0; c < 100; c++)
        if (bad[4 + c] == 0)
            bad[4 + c] = 4;
    for (int i = 0; i < 17; i++)
        bad[4 + FLEET0[i]] = 5;
    CHECK(E->decode(&st, bad, n, &err));
    E->result(&st, &res);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(res.winner, 0);
    static uint8_t over_ok[6604];
    memcpy(over_ok, bad, n);
    bad[1] = 1;
    bad[3] = 1; /* the standard fleet opened: seat 1 cannot be the winner */
    CHECK(!E->decode(&st, bad, n, &err));
    CHECK_EQ_STR(err.msg, "battleship state: seat 0 opened its board, so seat 0 wins, not seat 1");
    memcpy(bad, over_ok, n);
    bad[4 + 99] = 0; /* an opened board with an unshot cell */
    CHECK(!E->decode(&st, bad, n, &err));
    memcpy(bad, over_ok, n);
    bad[4 + 100 + 99] = 4; /* both boards opened */
    CHECK(!E->decode(&st, bad, n, &err));
    memcpy(bad, over_ok, n);
    bad[4 + 100 + 99] = 6; /* cell value 6 */
    CHECK(!E->decode(&st, bad, n, &err));
    /* the opened board short of a ship: seat 1 must be the winner */
    memcpy(bad, over_ok, n);
    bad[4 + FLEET0[16]] = 4;
    CHECK(!E->decode(&st, bad, n, &err));
    bad[1] = 1;
    bad[3] = 1;
    CHECK(E->decode(&st, bad, n, &err));
    E->result(&st, &res);
    CHECK_EQ_INT(res.winner, 1);
    /* a finished game with 17 hits and no opened board is not a state */
    memcpy(bad, open_ok, n);
    bad[0] = 2;
    bad[3] = 0;
    CHECK(!E->decode(&st, bad, n, &err));
#undef TRY_BAD
}

static void test_notation(void)
{
    struct zbc_err err;
    static uint8_t mv[4096];
    static char txt[8000];
    size_t n;
    CHECK(E->parse_move(NULL, 0, "fire B7", mv, sizeof mv, &n, &err));
    CHECK_EQ_INT(n, 2);
    CHECK_EQ_INT(mv[0], 0);
    CHECK_EQ_INT(mv[1], 16);
    CHECK_EQ_INT(E->format_move(NULL, mv, n, txt, sizeof txt), 1);
    CHECK_EQ_INT(strlen(txt), 7);
    CHECK_EQ_STR(txt, "fire B7");
    const char *salt = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
    char text[200];
    snprintf(text, sizeof text, "reveal ship %s fire J10", salt);
    CHECK(E->parse_move(NULL, 1, text, mv, sizeof mv, &n, &err));
    CHECK_EQ_INT(n, 35);
    CHECK_EQ_INT(mv[0], 2);
    CHECK_EQ_INT(mv[1], 1);
    CHECK_EQ_INT(mv[2], 0);
    CHECK_EQ_INT(mv[33], 31);
    CHECK_EQ_INT(mv[34], 99);
    CHECK(E->format_move(NULL, mv, n, txt, sizeof txt) > 0);
    CHECK_EQ_STR(txt, text);
    snprintf(text, sizeof text, "reveal water %s", salt);
    CHECK(E->parse_move(NULL, 1, text, mv, sizeof mv, &n, &err));
    CHECK_EQ_INT(n, 34);
    CHECK_EQ_INT(mv[0], 1);
    CHECK_EQ_INT(mv[1], 0);
    CHECK(E->format_move(NULL, mv, n, txt, sizeof txt) > 0);
    CHECK_EQ_STR(txt, text);

    struct board b1;
    make_board(&b1, FLEET1, 17, 100);
    static char ctext[7000];
    strcpy(ctext, "commit ");
    zbc_hex_encode(ctext + 7, b1.commit, 3200);
    CHECK(E->parse_move(NULL, 1, ctext, mv, sizeof mv, &n, &err));
    CHECK_EQ_INT(n, 3201);
    CHECK_EQ_INT(mv[0], 3);
    CHECK_EQ_MEM(mv + 1, b1.commit, 3200);
    CHECK(E->format_move(NULL, mv, n, txt, sizeof txt) == 1);
    CHECK_EQ_INT(strlen(txt), 6407);
    CHECK_EQ_STR(txt, ctext);
    CHECK_EQ_INT(E->format_move(NULL, mv, n, txt, 100), 0);

    /* open HEX: 100 x (is_ship || salt) as 6600 hex characters */
    static uint8_t om[3301];
    static char otext[6700];
    open_bytes(om, &b1);
    strcpy(otext, "open ");
    zbc_hex_encode(otext + 5, om + 1, 3300);
    CHECK(E->parse_move(NULL, 0, otext, mv, sizeof mv, &n, &err));
    CHECK_EQ_INT(n, 3301);
    CHECK_EQ_MEM(mv, om, 3301);
    CHECK(E->format_move(NULL, mv, n, txt, sizeof txt) == 1);
    CHECK_EQ_STR(txt, otext);
    CHECK(!E->parse_move(NULL, 0, otext, mv, 3300, &n, &err));
    CHECK(!E->parse_move(NULL, 0, "open", mv, sizeof mv, &n, &err));
    CHECK_EQ_STR(err.msg, "open needs the whole board as 6600 hex characters (is_ship and salt "
                          "of each of the 100 cells; the wallet fills them in)");
    otext[6604] = '\0';
    CHECK(!E->parse_move(NULL, 0, otext, mv, sizeof mv, &n, &err));
    mv[1] = 2; /* is_ship 2 has no notation */
    CHECK_EQ_INT(E->format_move(NULL, mv, 3301, txt, sizeof txt), 0);
    CHECK_EQ_INT(E->format_move(NULL, om, 3300, txt, sizeof txt), 0);

    CHECK(!E->parse_move(NULL, 0, "fire K1", mv, sizeof mv, &n, &err));
    CHECK(!E->parse_move(NULL, 0, "fire", mv, sizeof mv, &n, &err));
    CHECK(!E->parse_move(NULL, 0, "shoot B7", mv, sizeof mv, &n, &err));
    CHECK(!E->parse_move(NULL, 0, "reveal boat 00", mv, sizeof mv, &n, &err));
    CHECK(!E->parse_move(NULL, 0, "reveal ship 00", mv, sizeof mv, &n, &err));
    CHECK_EQ_STR(err.msg, "a salt is 64 hex characters");
    snprintf(text, sizeof text, "reveal ship %s burn J10", salt);
    CHECK(!E->parse_move(NULL, 0, text, mv, sizeof mv, &n, &err));
    CHECK(!E->parse_move(NULL, 0, "commit abcd", mv, sizeof mv, &n, &err));
    CHECK(!E->parse_move(NULL, 0, ctext, mv, 100, &n, &err));
    uint8_t badm[2] = {0, 100};
    CHECK_EQ_INT(E->format_move(NULL, badm, 2, txt, sizeof txt), 0);
    badm[0] = 9;
    CHECK_EQ_INT(E->format_move(NULL, badm, 2, txt, sizeof txt), 0);
}

static uint64_t rng;
static uint32_t rnd(uint32_t n)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((rng >> 33) % n);
}

static void random_fleet(struct board *b, uint8_t salt_base)
{
    static const int lens[5] = {5, 4, 3, 3, 2};
    uint8_t cells[17];
    size_t k;
    for (;;) {
        bool used[100] = {false};
        k = 0;
        bool ok = true;
        for (int s = 0; s < 5 && ok; s++) {
            int vert = (int)rnd(2), r = (int)rnd(10), c = (int)rnd(10);
            int step = vert ? 10 : 1;
            if ((vert ? r : c) + lens[s] > 10) {
                ok = false;
                break;
            }
            for (int j = 0; j < lens[s]; j++) {
                int cell = r * 10 + c + j * step;
                if (used[cell])
                    ok = false;
                used[cell] = true;
                cells[k++] = (uint8_t)cell;
            }
        }
        if (ok)
            break;
    }
    make_board(b, cells, 17, salt_base);
    for (int i = 0; i < 100; i++)
        b->salt[i][31] = (uint8_t)rnd(256);
    struct zbc_err err;
    CHECK(zbc_battleship_commitment(b->commit, b->ship, b->salt, &err));
    CHECK(zbc_battleship_check_fleet(b->ship, &err));
}

/* A deterministic stand-in for the wallet's randombytes_uniform. */
static uint32_t xs_uniform(void *ctx, uint32_t n)
{
    uint64_t *x = ctx;
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return (uint32_t)(*x % n);
}

/* Fleet text and random fleets (the wallet's --board and default board). */
static void test_fleets(void)
{
    uint8_t ship[ZBC_BATTLESHIP_CELLS];
    struct zbc_err err;
    const char *good = "A1,A2,A3,A4,A5,C1,C2,C3,C4,E1,E2,E3,G1,G2,G3,I1,I2";
    CHECK(zbc_battleship_parse_fleet(good, ship, &err));
    CHECK_EQ_INT(ship[0], 1);
    CHECK_EQ_INT(ship[5], 0);
    CHECK_EQ_INT(ship[81], 1);
    CHECK(zbc_battleship_parse_fleet(" a1 a2\ta3,a4,,a5 c1 c2 c3 c4 e1 e2 e3 g1 g2 g3 i1 i2\n",
                                     ship, &err));
    CHECK(!zbc_battleship_parse_fleet("A1,A2", ship, &err));
    CHECK_EQ_STR(err.msg, "the board has 2 ship cells, the fleet has 17");
    CHECK(!zbc_battleship_parse_fleet("A1,Z9", ship, &err));
    CHECK_EQ_STR(err.msg, "cell \"Z9\" is not a row A-J and a column 1-10");
    CHECK(!zbc_battleship_parse_fleet("A01", ship, &err));
    CHECK(!zbc_battleship_parse_fleet("A11", ship, &err));
    CHECK(!zbc_battleship_parse_fleet("A1000000000000000000000", ship, &err));
    CHECK(!zbc_battleship_parse_fleet("", ship, &err));
    /* the same cell twice is one ship cell: 16, not a fleet */
    CHECK(!zbc_battleship_parse_fleet("A1,A1,A2,A3,A4,A5,C1,C2,C3,C4,E1,E2,E3,G1,G2,G3,I1",
                                      ship, &err));
    uint64_t x = 0x2545f4914f6cdd1dull;
    for (int i = 0; i < 300; i++) {
        zbc_battleship_random_fleet(ship, xs_uniform, &x);
        CHECK(zbc_battleship_check_fleet(ship, &err));
    }
}

static void test_random_playouts(void)
{
    static struct board boards[2];
    int wins[2] = {0, 0};
    for (int g = 0; g < 300; g++) {
        rng = (uint64_t)g * 7919u + 1;
        random_fleet(&boards[0], 0);
        random_fleet(&boards[1], 50);
        static struct zbc_game_state st;
        struct zbc_err err;
        CHECK(E->init(&st, 2, boards[0].commit, 3200, 0, NULL, &err));
        CHECK(commit(&st, &boards[1], &err));
        int hits[2] = {0, 0}, shots[2] = {0, 0}, steps = 0;
        for (;;) {
            struct zbc_result res;
            E->result(&st, &res);
            int t = E->turn(&st);
            struct zbc_move mv[128];
            size_t n = E->gen_moves(&st, mv, 128);
            if (res.kind != ZBC_RESULT_ONGOING) {
                CHECK_EQ_INT(t, ZBC_NOBODY);
                CHECK_EQ_INT(n, 0);
                CHECK_EQ_INT(hits[res.winner], 17);
                CHECK(hits[1 - res.winner] < 17);
                wins[res.winner]++;
                break;
            }
            CHECK(t == 0 || t == 1);
            int pend = zbc_battleship_pending_cell(&st, (uint8_t)t);
            if (zbc_battleship_open_due(&st, (uint8_t)t)) {
                /* 17 hits: the honest shooter opens its board and wins */
                CHECK_EQ_INT(n, 0);
                CHECK_EQ_INT(hits[t], 17);
                CHECK(mv_open(&st, (uint8_t)t, &boards[t], &err));
            } else if (pend < 0) {
                /* the fire moves accepted are exactly those listed */
                CHECK_EQ_INT(n, 100 - shots[t]);
                bool listed[100] = {false};
                for (size_t i = 0; i < n; i++)
                    listed[mv[i].b[1]] = true;
                for (int c = 0; c < 100; c++) {
                    uint8_t f[2] = {0, (uint8_t)c};
                    CHECK_EQ_INT(E->check_move(&st, (uint8_t)t, f, 2, &err),
                                 listed[c]);
                }
                const struct zbc_move *m = &mv[rnd((uint32_t)n)];
                CHECK(E->apply_move(&st, (uint8_t)t, m->b, m->len, NULL, &err));
                shots[t]++;
            } else {
                CHECK_EQ_INT(n, 0);
                uint8_t shooter = (uint8_t)(1 - t);
                hits[shooter] += boards[t].ship[pend];
                uint8_t r[35];
                bool both = rnd(2) == 0 && hits[shooter] < 17;
                uint8_t target = 0;
                if (both) { /* an unshot target on the shooter's board */
                    static char js[8192];
                    CHECK(E->to_json(&st, js, sizeof js) > 0);
                    const char *cells = strstr(js, "\"cells\":\"");
                    if (t == 0) /* seat 0 fires at seat 1's board */
                        cells = strstr(cells + 1, "\"cells\":\"");
                    cells += 9;
                    do
                        target = (uint8_t)rnd(100);
                    while (cells[target] != '.');
                    /* firing at a cell already shot is refused */
                    for (int c = 0; c < 100; c++)
                        if (cells[c] != '.') {
                            reveal_bytes(r, &boards[t], (uint8_t)pend, true,
                                         (uint8_t)c);
                            CHECK(!E->check_move(&st, (uint8_t)t, r, 35, &err));
                            break;
                        }
                }
                reveal_bytes(r, &boards[t], (uint8_t)pend, both, target);
                CHECK(E->apply_move(&st, (uint8_t)t, r, both ? 35 : 34, NULL,
                                    &err));
                if (both)
                    shots[t]++;
            }
            roundtrip(&st);
            CHECK(++steps <= 400);
            if (steps > 400)
                break;
        }
    }
    CHECK(wins[0] > 0 && wins[1] > 0);
    printf("battleship playouts: seat 0 won %d, seat 1 won %d\n", wins[0],
           wins[1]);
}

int main(void)
{
    TEST_RUN(test_helpers);
    TEST_RUN(test_win_by_seventeen_hits);
    TEST_RUN(test_cheater_with_few_ships);
    TEST_RUN(test_cheater_caught_early);
    TEST_RUN(test_bad_fleet_loses_at_open);
    TEST_RUN(test_open_refusals);
    TEST_RUN(test_bad_moves);
    TEST_RUN(test_bad_states);
    TEST_RUN(test_notation);
    TEST_RUN(test_fleets);
    TEST_RUN(test_random_playouts);
    return test_summary("apps_battleship");
}
