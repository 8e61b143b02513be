/* App results through blocks (docs/protocol-apps.md §2, §3, §5): the
 * exact amounts of draws, resigns and timeouts with 3 and 4 seats, seats
 * out of play (excluded from a split, their resign only leaves play, they
 * cannot claim), Open apps that expire, and the seat order after a middle
 * seat leaves and rejoins (it feeds the first-seat draw and the remainder
 * rule). */
#include "apps_fixture.h"

#define STAKE 1000

static const struct fx_key *key_of(struct fx *f, const struct zbc_addr *a)
{
    const struct fx_key *k[] = {&f->a, &f->b, &f->c, &f->fund};
    for (size_t i = 0; i < 4; i++)
        if (zbc_addr_equal(&k[i]->addr, a))
            return k[i];
    return NULL;
}

/* The four players in order a, b, c, fund. */
static const struct fx_key *player(struct fx *f, unsigned i)
{
    const struct fx_key *k[] = {&f->a, &f->b, &f->c, &f->fund};
    return k[i];
}

/* Creates a `seats`-seat app of `type` by a, joined by the next players,
 * and runs until the first seat is drawn (J + 2). */
static uint64_t full_app(struct fx *f, uint8_t type, uint64_t stake,
                         uint8_t seats, const uint8_t *params, uint16_t plen)
{
    struct zbc_events ev = {0};
    uint64_t id = ax_create(f, &f->a, type, stake, seats, params, plen, NULL,
                            FX_FEE);
    CHECK(ax_block(f, &ev));
    zbc_events_free(&ev);
    for (unsigned i = 1; i < seats; i++)
        ax_ref(f, player(f, i), ZBC_TX_APP_JOIN, id);
    CHECK(ax_block(f, &ev));
    zbc_events_free(&ev);
    ax_until(f, f->tip.height + 2);
    return id;
}

static uint64_t bal(struct fx *f, unsigned i)
{
    return fx_balance(f, &player(f, i)->addr);
}

/* A timeout with `seats` seats of `stake`: the seat after the holder
 * claims; every other seat shares pot - rake, the first receiving seat
 * (in seat order) also gets the remainder.  want[] = expected payouts. */
static void timeout_case(uint8_t seats, uint64_t stake, uint64_t rake,
                         const uint64_t *want_by_offset)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    struct zbc_events ev = {0};
    uint64_t id = full_app(&f, 33 /* pig */, stake, seats, NULL, 0);
    struct zbc_app *a = malloc(sizeof *a);
    ax_app(&f, id, a);
    uint8_t holder = a->clock;
    CHECK(holder < seats);
    uint8_t claimer = (uint8_t)((holder + 1) % seats);
    ax_until(&f, (uint32_t)a->deadline);
    uint64_t before[4], fund0 = fx_balance(&f, &f.fund.addr);
    for (unsigned i = 0; i < 4; i++)
        before[i] = bal(&f, i);
    ax_ref(&f, player(&f, claimer), ZBC_TX_APP_CLAIM, id);
    CHECK(ax_block(&f, &ev));
    const struct zbc_event *e = ax_ev(&ev, ZBC_EVENT_APP_RAKE, 0);
    CHECK(e != NULL && e->amount == rake);
    e = ax_ev(&ev, ZBC_EVENT_APP_END, 0);
    CHECK(e != NULL && strcmp(e->reason, "timeout") == 0);
    /* the one receiving seat is the winner; a shared pot has none */
    uint8_t want_winner = seats == 2 ? claimer : ZBC_APP_NO_SEAT;
    CHECK(e != NULL && e->seat == want_winner);
    CHECK(e != NULL && e->data_len == 1 && e->data[0] == holder);
    zbc_events_free(&ev);
    ax_app(&f, id, a);
    CHECK_EQ_INT(a->end, ZBC_END_TIMEOUT);
    CHECK_EQ_INT(a->loser, holder);
    CHECK_EQ_INT(a->winner, want_winner);
    CHECK_EQ_INT(a->rake, rake);
    /* want_by_offset[k]: the seat k places after the holder; so the
     * first receiving seat in seat order gets the remainder */
    for (unsigned k = 1; k < seats; k++) {
        unsigned s = (holder + k) % seats;
        CHECK_EQ_INT(a->paid[s], want_by_offset[s < holder ? s : s - 1]);
    }
    CHECK_EQ_INT(a->paid[holder], 0);
    for (unsigned s = 0; s < seats; s++) {
        uint64_t fee = s == claimer ? FX_FEE : 0;
        uint64_t gain = a->paid[s] + (s == 3 ? rake : 0);
        CHECK_EQ_INT(bal(&f, s), before[s] - fee + gain);
    }
    if (seats < 4)
        CHECK_EQ_INT(fx_balance(&f, &f.fund.addr), fund0 + rake);
    free(a);
    fx_free(&f);
}

/* want[] lists the receivers' payouts in seat order. */
static void test_timeout_3_4_seats(void)
{
    /* 2 seats, stake 1000: pot 2000, rake 20, 1980 to the other seat */
    const uint64_t two[] = {1980};
    timeout_case(2, 1000, 20, two);
    /* 3 seats, stake 1001: pot 3003, rake 30, 2973 = 1487 + 1486 */
    const uint64_t three[] = {1487, 1486};
    timeout_case(3, 1001, 30, three);
    /* 4 seats, stake 1001: pot 4004, rake 40, 3964 = 1322 + 1321 + 1321 */
    const uint64_t four[] = {1322, 1321, 1321};
    timeout_case(4, 1001, 40, four);
}

/* Lines with one round each: nobody completes a line in one move, so the
 * game ends drawn and every seat gets its stake back, no rake. */
static void draw_case(uint8_t seats)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    struct zbc_events ev = {0};
    const uint8_t rounds = 1;
    uint64_t id = full_app(&f, 10 /* lines */, 1234, seats, &rounds, 1);
    struct zbc_app *a = malloc(sizeof *a);
    struct zbc_game_state *st = malloc(sizeof *st);
    struct zbc_move *mv = malloc(ZBC_MOVES_MAX * sizeof *mv);
    struct zbc_err err;
    uint64_t before[4], fund0;
    ax_app(&f, id, a);
    const struct zbc_engine *eng = zbc_app_engine(a);
    CHECK(eng != NULL && eng->dice);
    for (unsigned turn = 0; turn < seats; turn++) {
        ax_app(&f, id, a);
        CHECK_EQ_INT(a->status, ZBC_APP_ACTIVE);
        CHECK(a->clock < seats);
        CHECK(eng->decode(st, a->state, a->state_len, &err));
        size_t n = eng->gen_moves(st, mv, ZBC_MOVES_MAX);
        CHECK(n > 0);
        ax_move(&f, key_of(&f, &a->seat[a->clock]), id, mv[0].b, mv[0].len);
        CHECK(ax_block(&f, &ev)); /* pending */
        zbc_events_free(&ev);
        if (turn + 1 == seats) {
            for (unsigned i = 0; i < 4; i++)
                before[i] = bal(&f, i);
            fund0 = fx_balance(&f, &f.fund.addr);
        }
        CHECK(ax_block(&f, &ev)); /* rolled at the next block */
        if (turn + 1 == seats) {
            const struct zbc_event *e = ax_ev(&ev, ZBC_EVENT_APP_END, 0);
            CHECK(e != NULL && strcmp(e->reason, "draw") == 0);
            CHECK_EQ_INT(ax_count(&ev, ZBC_EVENT_APP_RAKE), 0);
            CHECK_EQ_INT(ax_count(&ev, ZBC_EVENT_APP_PAYOUT), seats);
        }
        zbc_events_free(&ev);
    }
    ax_app(&f, id, a);
    CHECK_EQ_INT(a->end, ZBC_END_DRAW);
    CHECK_EQ_INT(a->winner, ZBC_APP_NO_SEAT);
    CHECK_EQ_INT(a->loser, ZBC_APP_NO_SEAT);
    CHECK_EQ_INT(a->rake, 0);
    for (unsigned s = 0; s < seats; s++)
        CHECK_EQ_INT(a->paid[s], 1234);
    /* every seat got exactly 1234 back in the block that rolled the last
     * move (its fee was paid a block earlier) */
    for (unsigned s = 0; s < seats; s++)
        CHECK_EQ_INT(bal(&f, s), before[s] + 1234);
    if (seats < 4)
        CHECK_EQ_INT(fx_balance(&f, &f.fund.addr), fund0);
    free(mv);
    free(st);
    free(a);
    fx_free(&f);
}

static void test_draw_3_4_seats(void)
{
    draw_case(2);
    draw_case(3);
    draw_case(4);
}

/* Resign with 3 and 4 seats and no seat out: the others share. */
static void test_resign_4_seats(void)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    struct zbc_events ev = {0};
    uint64_t id = full_app(&f, 33, 1000, 4, NULL, 0);
    uint64_t before[4];
    for (unsigned i = 0; i < 4; i++)
        before[i] = bal(&f, i);
    /* seat 0 resigns: rake 40, 3960 = 3 x 1320 to seats 1, 2, 3 */
    ax_ref(&f, &f.a, ZBC_TX_APP_RESIGN, id);
    CHECK(ax_block(&f, &ev));
    const struct zbc_event *e = ax_ev(&ev, ZBC_EVENT_APP_END, 0);
    CHECK(e != NULL && e->seat == ZBC_EVENT_NO_SEAT && e->data[0] == 0);
    zbc_events_free(&ev);
    struct zbc_app *a = malloc(sizeof *a);
    ax_app(&f, id, a);
    CHECK_EQ_INT(a->loser, 0);
    CHECK_EQ_INT(a->winner, ZBC_APP_NO_SEAT);
    CHECK_EQ_INT(a->paid[0], 0);
    CHECK_EQ_INT(a->paid[1], 1320);
    CHECK_EQ_INT(a->paid[2], 1320);
    CHECK_EQ_INT(a->paid[3], 1320);
    CHECK_EQ_INT(bal(&f, 0), before[0] - FX_FEE);
    CHECK_EQ_INT(bal(&f, 1), before[1] + 1320);
    CHECK_EQ_INT(bal(&f, 2), before[2] + 1320);
    CHECK_EQ_INT(bal(&f, 3), before[3] + 1320 + 40);
    free(a);
    fx_free(&f);
}

/* Plants a monopoly position in which `out` is bankrupt: every seat has
 * made one move, the last mover is the seat before `to_move`; cash 1500
 * for the seats in play, 0 for the out seat, nothing owned. */
static void plant_bankrupt(struct fx *f, uint64_t id, uint8_t seats,
                           uint8_t out, uint8_t to_move)
{
    struct zbc_app *a = malloc(sizeof *a);
    static uint8_t rec[ZBC_APP_RECORD_MAX];
    struct zbc_err err;
    ax_app(f, id, a);
    CHECK_EQ_INT(a->status, ZBC_APP_ACTIVE);
    CHECK(!a->first_pending);
    uint8_t *s = a->state;
    size_t p = 0;
    uint8_t last = (uint8_t)((to_move + seats - 1) % seats);
    if (last == out)
        last = (uint8_t)((last + seats - 1) % seats);
    s[p++] = seats;
    s[p++] = 0;       /* first */
    s[p++] = to_move; /* to_move */
    s[p++] = (uint8_t)(1u << out);
    s[p++] = last;
    s[p++] = 1;
    s[p++] = 1;
    for (unsigned i = 0; i < seats; i++) {
        zbc_put_le32(s + p, i == out ? 0 : 1500);
        p += 4;
        s[p++] = 2;
        s[p++] = 1;
    }
    memset(s + p, 0xff, 24);
    p += 24;
    a->state_len = (uint16_t)p;
    a->clock = to_move;
    int turn;
    CHECK(zbc_app_turn(a, &turn, &err));
    CHECK_EQ_INT(turn, to_move);
    uint8_t mask;
    CHECK(zbc_app_out_mask(a, &mask, &err));
    CHECK_EQ_INT(mask, 1u << out);
    size_t n = zbc_app_encode(a, rec, sizeof rec);
    uint8_t key[8];
    zbc_put_le64(key, id);
    CHECK(zbc_state_put(&f->s, ZBC_TABLE_APPS, key, 8, rec, n, &err));
    CHECK(zbc_state_commit(&f->s, &err));
    free(a);
}

/* A bankrupt monopoly seat: it cannot claim a timeout, its resign only
 * leaves play (fee, event, no money, the game goes on), and a later
 * resign or timeout does not pay it. */
static void test_out_seats(void)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    struct zbc_events ev = {0};
    /* 3 seats, stake 1000; seat 2 bankrupt; seat 0 to move */
    uint64_t id = full_app(&f, 35 /* monopoly */, 1000, 3, NULL, 0);
    plant_bankrupt(&f, id, 3, 2, 0);
    struct zbc_app *a = malloc(sizeof *a);
    ax_app(&f, id, a);
    ax_until(&f, (uint32_t)a->deadline);
    uint64_t c0 = bal(&f, 2);
    uint32_t cl = ax_ref(&f, &f.c, ZBC_TX_APP_CLAIM, id);
    CHECK(ax_block(&f, &ev));
    AX_NOOP(&ev, cl, "seat 2 is out of app");
    AX_NOOP(&ev, cl, "it cannot claim a timeout");
    zbc_events_free(&ev);
    CHECK_EQ_INT(bal(&f, 2), c0); /* a no-op costs nothing */
    /* its resign: the fee, an app_resign event, nothing else */
    uint32_t r = ax_ref(&f, &f.c, ZBC_TX_APP_RESIGN, id);
    CHECK(ax_block(&f, &ev));
    const struct zbc_event *e = ax_ev(&ev, ZBC_EVENT_APP_RESIGN, 0);
    CHECK(e != NULL && e->tx_index == r && e->seat == 2);
    CHECK(e != NULL && strstr(e->reason, "left") != NULL);
    CHECK_EQ_INT(ax_count(&ev, ZBC_EVENT_APP_PAYOUT), 0);
    CHECK_EQ_INT(ax_count(&ev, ZBC_EVENT_APP_END), 0);
    zbc_events_free(&ev);
    CHECK_EQ_INT(bal(&f, 2), c0 - FX_FEE);
    ax_app(&f, id, a);
    CHECK_EQ_INT(a->status, ZBC_APP_ACTIVE);
    CHECK_EQ_INT(a->pot, 3000);
    /* seat 1 resigns: seat 0 alone takes 3000 - 30 (seat 2 is out) */
    uint64_t a0 = bal(&f, 0), b0 = bal(&f, 1);
    c0 = bal(&f, 2);
    ax_ref(&f, &f.b, ZBC_TX_APP_RESIGN, id);
    CHECK(ax_block(&f, &ev));
    e = ax_ev(&ev, ZBC_EVENT_APP_END, 0);
    CHECK(e != NULL && e->seat == 0 && e->data[0] == 1);
    CHECK_EQ_INT(ax_count(&ev, ZBC_EVENT_APP_PAYOUT), 1);
    zbc_events_free(&ev);
    ax_app(&f, id, a);
    CHECK_EQ_INT(a->end, ZBC_END_RESIGN);
    CHECK_EQ_INT(a->loser, 1);
    CHECK_EQ_INT(a->winner, 0);
    CHECK_EQ_INT(a->rake, 30);
    CHECK_EQ_INT(a->paid[0], 2970);
    CHECK_EQ_INT(a->paid[1], 0);
    CHECK_EQ_INT(a->paid[2], 0);
    CHECK_EQ_INT(bal(&f, 0), a0 + 2970);
    CHECK_EQ_INT(bal(&f, 1), b0 - FX_FEE);
    CHECK_EQ_INT(bal(&f, 2), c0);
    fx_free(&f);

    /* 4 seats, stake 1001; seat 3 bankrupt; seat 0 holds the clock and
     * times out; seat 1 claims: seats 1 and 2 share 4004 - 40 = 3964,
     * 1982 each; seat 3 gets nothing */
    fx_init(&f);
    ax_fund(&f);
    id = full_app(&f, 35, 1001, 4, NULL, 0);
    plant_bankrupt(&f, id, 4, 3, 0);
    ax_app(&f, id, a);
    ax_until(&f, (uint32_t)a->deadline);
    uint64_t before[4];
    for (unsigned i = 0; i < 4; i++)
        before[i] = bal(&f, i);
    ax_ref(&f, &f.b, ZBC_TX_APP_CLAIM, id);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    ax_app(&f, id, a);
    CHECK_EQ_INT(a->end, ZBC_END_TIMEOUT);
    CHECK_EQ_INT(a->loser, 0);
    CHECK_EQ_INT(a->winner, ZBC_APP_NO_SEAT);
    CHECK_EQ_INT(a->rake, 40);
    CHECK_EQ_INT(a->paid[1], 1982);
    CHECK_EQ_INT(a->paid[2], 1982);
    CHECK_EQ_INT(a->paid[3], 0);
    CHECK_EQ_INT(bal(&f, 0), before[0]);
    CHECK_EQ_INT(bal(&f, 1), before[1] - FX_FEE + 1982);
    CHECK_EQ_INT(bal(&f, 2), before[2] + 1982);
    CHECK_EQ_INT(bal(&f, 3), before[3] + 40); /* the rake: it is the fund */
    free(a);
    fx_free(&f);
}

/* Open apps expire at created + open_deadline: every seated stake back,
 * no rake, status abandoned, outcome expired; an app filled or left
 * before then is not touched. */
static void test_expiry(void)
{
    struct fx f;
    fx_init(&f);
    f.g.open_deadline = 5;
    ax_fund(&f);
    struct zbc_events ev = {0};
    uint64_t a0 = bal(&f, 0);
    /* app x: 3 seats, a and b seated; app y: 2 seats, filled; app z: left */
    uint64_t x = ax_create(&f, &f.a, 33, 700, 3, NULL, 0, NULL, FX_FEE);
    uint64_t y = ax_create(&f, &f.c, 33, 500, 2, NULL, 0, NULL, FX_FEE);
    CHECK(ax_block(&f, &ev));
    uint32_t C = f.tip.height;
    zbc_events_free(&ev);
    ax_ref(&f, &f.b, ZBC_TX_APP_JOIN, x);
    ax_ref(&f, &f.a, ZBC_TX_APP_JOIN, y);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    uint64_t b0 = bal(&f, 1);
    a0 = bal(&f, 0);
    uint64_t fund0 = fx_balance(&f, &f.fund.addr);
    ax_until(&f, C + 4);
    struct zbc_app *a = malloc(sizeof *a);
    ax_app(&f, x, a);
    CHECK_EQ_INT(a->status, ZBC_APP_OPEN);
    /* C + 5: x expires at the start of the block (the producer path) */
    CHECK(ax_build(&f, &ev) == 0);
    CHECK_EQ_INT(f.tip.height, C + 5);
    const struct zbc_event *e = ax_ev(&ev, ZBC_EVENT_APP_PAYOUT, 0);
    CHECK(e != NULL && e->ref == x && e->seat == 0 && e->amount == 700 &&
          strcmp(e->reason, "expired") == 0);
    e = ax_ev(&ev, ZBC_EVENT_APP_PAYOUT, 1);
    CHECK(e != NULL && e->seat == 1 && e->amount == 700);
    e = ax_ev(&ev, ZBC_EVENT_APP_END, 0);
    CHECK(e != NULL && e->ref == x && strcmp(e->reason, "expired") == 0 &&
          e->tx_index == ZBC_EVENT_NO_TX);
    CHECK_EQ_INT(ax_count(&ev, ZBC_EVENT_APP_RAKE), 0);
    CHECK_EQ_INT(ax_count(&ev, ZBC_EVENT_APP_END), 1); /* y is Active */
    zbc_events_free(&ev);
    ax_app(&f, x, a);
    CHECK_EQ_INT(a->status, ZBC_APP_ABANDONED);
    CHECK_EQ_INT(a->end, ZBC_END_EXPIRED);
    CHECK_EQ_INT(a->pot, 0);
    CHECK_EQ_INT(a->rake, 0);
    CHECK_EQ_INT(a->paid[0], 700);
    CHECK_EQ_INT(a->paid[1], 700);
    CHECK_EQ_INT(a->ended, C + 5);
    CHECK_EQ_INT(bal(&f, 0), a0 + 700);
    CHECK_EQ_INT(bal(&f, 1), b0 + 700);
    CHECK_EQ_INT(fx_balance(&f, &f.fund.addr), fund0);
    ax_app(&f, y, a);
    CHECK_EQ_INT(a->status, ZBC_APP_ACTIVE);
    CHECK_EQ_INT(a->pot, 1000);
    /* joining an expired app is a no-op */
    uint32_t j = ax_ref(&f, &f.c, ZBC_TX_APP_JOIN, x);
    CHECK(ax_block(&f, &ev));
    AX_NOOP(&ev, j, "expired at height");
    AX_NOOP(&ev, j, "nobody filled its seats in time");
    zbc_events_free(&ev);
    /* z: created, left (abandoned) before its deadline: the expiry finds
     * it abandoned and does nothing */
    uint64_t z = ax_create(&f, &f.b, 33, 300, 2, NULL, 0, NULL, FX_FEE);
    CHECK(ax_block(&f, &ev));
    uint32_t Z = f.tip.height;
    zbc_events_free(&ev);
    ax_ref(&f, &f.b, ZBC_TX_APP_RESIGN, z);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    ax_app(&f, z, a);
    CHECK_EQ_INT(a->end, ZBC_END_ABANDONED);
    ax_until(&f, Z + 4);
    CHECK(ax_build(&f, &ev) == 0);
    CHECK_EQ_INT(ax_count(&ev, ZBC_EVENT_APP_END), 0);
    CHECK_EQ_INT(ax_count(&ev, ZBC_EVENT_APP_PAYOUT), 0);
    zbc_events_free(&ev);
    ax_app(&f, z, a);
    CHECK_EQ_INT(a->end, ZBC_END_ABANDONED);
    CHECK_EQ_INT(a->ended, Z + 1);
    free(a);
    fx_free(&f);
}

/* A middle seat leaves an Open app and rejoins later: the seat order is
 * a, c, fund, b; the first-seat draw and the remainder follow it. */
static void test_leave_rejoin_order(void)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    struct zbc_events ev = {0};
    uint64_t id = ax_create(&f, &f.a, 33, 1001, 4, NULL, 0, NULL, FX_FEE);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    ax_ref(&f, &f.b, ZBC_TX_APP_JOIN, id);
    ax_ref(&f, &f.c, ZBC_TX_APP_JOIN, id);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    ax_ref(&f, &f.b, ZBC_TX_APP_RESIGN, id); /* seat 1 leaves */
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    ax_ref(&f, &f.fund, ZBC_TX_APP_JOIN, id);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    ax_ref(&f, &f.b, ZBC_TX_APP_JOIN, id); /* back, last: seat 3 */
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    struct zbc_app *a = malloc(sizeof *a);
    ax_app(&f, id, a);
    const struct fx_key *order[4] = {&f.a, &f.c, &f.fund, &f.b};
    for (unsigned i = 0; i < 4; i++)
        CHECK(zbc_addr_equal(&a->seat[i], &order[i]->addr));
    ax_until(&f, f.tip.height + 2);
    uint8_t first = ax_first(f.tip.seed, id, 4);
    ax_app(&f, id, a);
    CHECK_EQ_INT(a->clock, first); /* pig: the first seat moves first */
    /* the holder times out; the seat after it claims: 3964 to three
     * seats, 1322 to the first receiving seat in the new order */
    ax_until(&f, (uint32_t)a->deadline);
    uint8_t claimer = (uint8_t)((first + 1) % 4);
    ax_ref(&f, order[claimer], ZBC_TX_APP_CLAIM, id);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    ax_app(&f, id, a);
    CHECK_EQ_INT(a->loser, first);
    uint8_t first_recv = first == 0 ? 1 : 0;
    for (unsigned s = 0; s < 4; s++) {
        uint64_t want = s == first ? 0 : s == first_recv ? 1322 : 1321;
        CHECK_EQ_INT(a->paid[s], want);
    }
    free(a);
    fx_free(&f);
}

int main(void)
{
    TEST_RUN(test_timeout_3_4_seats);
    TEST_RUN(test_draw_3_4_seats);
    TEST_RUN(test_resign_4_seats);
    TEST_RUN(test_out_seats);
    TEST_RUN(test_expiry);
    TEST_RUN(test_leave_rejoin_order);
    return test_summary("consensus_apps_results");
}
