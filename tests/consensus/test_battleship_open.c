/* Battleship's final open through blocks (docs/games.md "Final open"):
 * the seat whose shots hit 17 ship cells holds the clock until it opens
 * its whole board; the standard fleet is paid the pot - rake, a short
 * fleet (16 ship cells) loses the pot to the other seat, a dishonest open
 * is a no-op naming the cell, and an open that never comes is a timeout
 * claimed by the other seat.  Exact amounts for the 2 seats battleship
 * has (pot 20000, rake 1% = 200). */
#include "apps_fixture.h"

#include "apps/games/battleship.h"
#include "tests/apps/battleship_boards.h"

#define STAKE 10000
#define POT (2 * STAKE)
#define RAKE (POT * 100 / 10000)
#define MD 240 /* the fixture genesis' move_deadline */

static void one_block(struct fx *f)
{
    struct zbc_events ev = {0};
    CHECK(ax_block(f, &ev));
    CHECK_EQ_INT(ax_count(&ev, ZBC_EVENT_NOOP), 0);
    zbc_events_free(&ev);
}

static void reveal(struct fx *f, const struct fx_key *k, uint64_t id,
                   const struct board *b, uint8_t cell, int target)
{
    uint8_t m[35];
    m[0] = target < 0 ? 1 : 2;
    m[1] = b->ship[cell];
    memcpy(m + 2, b->salt[cell], 32);
    m[34] = (uint8_t)(target < 0 ? 0 : target);
    ax_move(f, k, id, m, target < 0 ? 34 : 35);
    one_block(f);
}

static void open_move(uint8_t m[3301], const struct board *b)
{
    m[0] = 4;
    for (int c = 0; c < 100; c++) {
        m[1 + 33 * c] = b->ship[c];
        memcpy(m + 2 + 33 * c, b->salt[c], 32);
    }
}

/* a (seat 0, board b0) against b (seat 1, FLEET1): seat 0 fires at seat
 * 1's ships, seat 1 answers with reveal-and-fire at seat 0's water, until
 * seat 1's 17th ship cell is revealed.  Returns the app id. */
static uint64_t sink(struct fx *f, const struct board *b0,
                     const struct board *b1)
{
    uint64_t id = ax_create(f, &f->a, 7, STAKE, 2, b0->commit, 3200, NULL, 6000);
    one_block(f);
    ax_ref(f, &f->b, ZBC_TX_APP_JOIN, id);
    one_block(f);
    static uint8_t cm[3201];
    cm[0] = 3;
    memcpy(cm + 1, b1->commit, 3200);
    ax_move(f, &f->b, id, cm, 3201);
    one_block(f);
    uint8_t miss = 0;
    for (int i = 0; i < 17; i++) {
        uint8_t fire[2] = {0, FLEET1[i]};
        ax_move(f, &f->a, id, fire, 2);
        one_block(f);
        while (b0->ship[miss])
            miss++;
        reveal(f, &f->b, id, b1, FLEET1[i], i < 16 ? miss : -1);
        if (i < 16)
            reveal(f, &f->a, id, b0, miss++, -1);
    }
    return id;
}

static void app_of(struct fx *f, uint64_t id, struct zbc_app *a)
{
    ax_app(f, id, a);
}

/* A funded chain and boards: seat 0 with the first n0 cells of FLEET0,
 * seat 1 with FLEET1. */
static void setup(struct fx *f, struct board *b0, struct board *b1, size_t n0)
{
    fx_init(f);
    ax_fund(f);
    make_board(b0, FLEET0, n0, 0);
    make_board(b1, FLEET1, 17, 100);
}

/* The honest opener is paid pot - rake; the opened board is in the state. */
static void test_open_wins(void)
{
    struct fx f;
    static struct board b0, b1;
    setup(&f, &b0, &b1, 17);
    uint64_t a0 = fx_balance(&f, &f.a.addr), b_0 = fx_balance(&f, &f.b.addr);
    uint64_t fund0 = fx_balance(&f, &f.fund.addr);
    uint64_t id = sink(&f, &b0, &b1);
    struct zbc_app *a = malloc(sizeof *a);
    app_of(&f, id, a);
    CHECK_EQ_INT(a->status, ZBC_APP_ACTIVE);
    CHECK_EQ_INT(a->clock, 0); /* the would-be winner holds the clock */
    CHECK_EQ_INT(a->deadline, f.tip.height + MD);
    CHECK_EQ_INT(a->pot, POT);
    static uint8_t m[3301];
    open_move(m, &b0);
    ax_move(&f, &f.a, id, m, 3301);
    struct zbc_events ev = {0};
    CHECK(ax_block(&f, &ev));
    const struct zbc_event *e = ax_ev(&ev, ZBC_EVENT_APP_PAYOUT, 0);
    CHECK(e != NULL && e->seat == 0 && e->amount == POT - RAKE &&
          strcmp(e->reason, "win") == 0);
    e = ax_ev(&ev, ZBC_EVENT_APP_RAKE, 0);
    CHECK(e != NULL && e->amount == RAKE);
    zbc_events_free(&ev);
    app_of(&f, id, a);
    CHECK_EQ_INT(a->status, ZBC_APP_FINISHED);
    CHECK_EQ_INT(a->pot, 0);
    /* moves: a create-time commit is params; b's commit, 17 fires, 17
     * reveals of seat 1, 16 of seat 0, the open */
    uint64_t fees_a = 6000 + 17 * FX_FEE + 16 * FX_FEE + 6000;
    uint64_t fees_b = FX_FEE + 6000 + 17 * FX_FEE;
    CHECK_EQ_INT(fx_balance(&f, &f.a.addr), a0 - fees_a - STAKE + POT - RAKE);
    CHECK_EQ_INT(fx_balance(&f, &f.b.addr), b_0 - fees_b - STAKE);
    CHECK_EQ_INT(fx_balance(&f, &f.fund.addr), fund0 + RAKE);
    free(a);
    fx_free(&f);
}

/* A short fleet (16 ship cells) sinks the honest fleet first, opens, and
 * loses the pot to the other seat; a dishonest open before it is a no-op
 * naming the cell. */
static void test_short_fleet_loses(void)
{
    struct fx f;
    static struct board b0, b1;
    setup(&f, &b0, &b1, 16);
    uint64_t a0 = fx_balance(&f, &f.a.addr), b_0 = fx_balance(&f, &f.b.addr);
    uint64_t id = sink(&f, &b0, &b1);
    static uint8_t m[3301];
    open_move(m, &b0);
    m[1 + 33 * 81] = 1; /* I2 claimed a ship: does not match */
    uint32_t s0 = ax_move(&f, &f.a, id, m, 3301);
    struct zbc_events ev = {0};
    CHECK(ax_block(&f, &ev));
    AX_NOOP(&ev, s0, "illegal move: the opening of I2 as ship does not match the commitment");
    zbc_events_free(&ev);
    open_move(m, &b0);
    ax_move(&f, &f.a, id, m, 3301);
    CHECK(ax_block(&f, &ev));
    const struct zbc_event *e = ax_ev(&ev, ZBC_EVENT_APP_PAYOUT, 0);
    CHECK(e != NULL && e->seat == 1 && e->amount == POT - RAKE &&
          strcmp(e->reason, "win") == 0);
    CHECK_EQ_INT(ax_count(&ev, ZBC_EVENT_APP_PAYOUT), 1);
    zbc_events_free(&ev);
    struct zbc_app *a = malloc(sizeof *a);
    app_of(&f, id, a);
    CHECK_EQ_INT(a->status, ZBC_APP_FINISHED);
    CHECK_EQ_INT(a->end, ZBC_END_WIN);
    CHECK_EQ_INT(a->winner, 1);
    uint64_t fees_a = 6000 + 17 * FX_FEE + 16 * FX_FEE + 6000; /* no-op: no fee */
    uint64_t fees_b = FX_FEE + 6000 + 17 * FX_FEE;
    CHECK_EQ_INT(fx_balance(&f, &f.a.addr), a0 - fees_a - STAKE);
    CHECK_EQ_INT(fx_balance(&f, &f.b.addr), b_0 - fees_b - STAKE + POT - RAKE);
    free(a);
    fx_free(&f);
}

/* No open: the other seat claims the timeout after the deadline and is
 * paid pot - rake. */
static void test_no_open_times_out(void)
{
    struct fx f;
    static struct board b0, b1;
    setup(&f, &b0, &b1, 16);
    uint64_t id = sink(&f, &b0, &b1);
    struct zbc_app *a = malloc(sizeof *a);
    app_of(&f, id, a);
    uint64_t deadline = a->deadline;
    uint64_t b_0 = fx_balance(&f, &f.b.addr);
    struct zbc_events ev = {0};
    /* a fire instead of the open is a no-op; an early claim too */
    uint8_t fire[2] = {0, 50};
    uint32_t s0 = ax_move(&f, &f.a, id, fire, 2);
    uint32_t s1 = ax_ref(&f, &f.b, ZBC_TX_APP_CLAIM, id);
    CHECK(ax_block(&f, &ev));
    AX_NOOP(&ev, s0, "illegal move: seat 0 hit 17 ship cells and must now open its whole board");
    AX_NOOP(&ev, s1, "deadline not passed");
    zbc_events_free(&ev);
    ax_until(&f, (uint32_t)deadline);
    ax_ref(&f, &f.b, ZBC_TX_APP_CLAIM, id);
    CHECK(ax_block(&f, &ev));
    const struct zbc_event *e = ax_ev(&ev, ZBC_EVENT_APP_PAYOUT, 0);
    CHECK(e != NULL && e->seat == 1 && e->amount == POT - RAKE);
    CHECK_EQ_INT(ax_count(&ev, ZBC_EVENT_APP_PAYOUT), 1);
    zbc_events_free(&ev);
    app_of(&f, id, a);
    CHECK_EQ_INT(a->status, ZBC_APP_FINISHED);
    CHECK_EQ_INT(a->end, ZBC_END_TIMEOUT);
    CHECK_EQ_INT(fx_balance(&f, &f.b.addr), b_0 - FX_FEE + POT - RAKE);
    free(a);
    fx_free(&f);
}

int main(void)
{
    TEST_RUN(test_open_wins);
    TEST_RUN(test_short_fleet_loses);
    TEST_RUN(test_no_open_times_out);
    return test_summary("consensus_battleship_open");
}
