/* Multiplayer apps through blocks: tic-tac-toe to a win and a draw, pig
 * (pending dice moves), battleship's opening, resign, timeout claims,
 * keep-alive and every no-op reason.  Every block is checked for the
 * money invariant and for an undo that restores the exact state. */
#include "apps_fixture.h"

#define STAKE 10000

/* Opens a tic-tac-toe game a vs b and reaches J+2; returns the id and
 * the seat that plays X (moves first). */
static uint64_t ttt_start(struct fx *f, uint8_t *first)
{
    struct zbc_events ev = {0};
    uint64_t id = ax_create(f, &f->a, 1, STAKE, 2, NULL, 0, NULL, FX_FEE);
    CHECK(ax_block(f, &ev));
    const struct zbc_event *e = ax_ev(&ev, ZBC_EVENT_APP_CREATE, 0);
    CHECK(e != NULL && e->ref == id && e->amount == STAKE && e->seat == 0);
    zbc_events_free(&ev);
    ax_ref(f, &f->b, ZBC_TX_APP_JOIN, id);
    CHECK(ax_block(f, &ev));
    uint32_t J = f->tip.height;
    e = ax_ev(&ev, ZBC_EVENT_APP_JOIN, 0);
    CHECK(e != NULL && e->seat == 1 && e->amount == STAKE);
    zbc_events_free(&ev);
    struct zbc_app *a = malloc(sizeof *a);
    ax_app(f, id, a);
    CHECK_EQ_INT(a->status, ZBC_APP_ACTIVE);
    CHECK(a->first_pending);
    CHECK_EQ_INT(a->clock, ZBC_APP_NO_CLOCK);
    CHECK_EQ_INT(a->deadline, J + 240);
    CHECK_EQ_INT(a->pot, 2 * STAKE);
    /* J+1: first turn pending, every move is a no-op */
    uint32_t s0 = ax_move1(f, &f->a, id, 4);
    uint32_t s1 = ax_move1(f, &f->b, id, 4);
    uint32_t s2 = ax_ref(f, &f->a, ZBC_TX_APP_CLAIM, id);
    CHECK(ax_block(f, &ev));
    AX_NOOP(&ev, s0, "first turn pending");
    AX_NOOP(&ev, s1, "first turn pending");
    AX_NOOP(&ev, s2, "nobody holds the clock");
    zbc_events_free(&ev);
    /* J+2: the first seat is drawn at the start of the block */
    CHECK(ax_block(f, &ev));
    CHECK_EQ_INT(f->tip.height, J + 2);
    *first = ax_first(f->tip.seed, id, 2);
    e = ax_ev(&ev, ZBC_EVENT_APP_ACTIVATE, 0);
    CHECK(e != NULL && e->seat == *first && e->ref == id &&
          e->tx_index == ZBC_EVENT_NO_TX && e->amount == J + 240);
    zbc_events_free(&ev);
    ax_app(f, id, a);
    CHECK(!a->first_pending);
    CHECK_EQ_INT(a->clock, *first);
    free(a);
    return id;
}

static void test_tictactoe_win(void)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    uint64_t a0 = fx_balance(&f, &f.a.addr), b0 = fx_balance(&f, &f.b.addr);
    uint64_t fund0 = fx_balance(&f, &f.fund.addr);
    uint8_t x;
    uint64_t id = ttt_start(&f, &x);
    uint8_t o = (uint8_t)(1 - x);
    const struct fx_key *X = ax_seat_key(&f, x), *O = ax_seat_key(&f, o);
    struct zbc_events ev = {0};
    /* O before X: not your turn; X plays 0; an occupied cell is illegal */
    uint32_t s0 = ax_move1(&f, O, id, 4);
    uint32_t s1 = ax_move1(&f, X, id, 0);
    uint32_t s2 = ax_move1(&f, O, id, 0);
    uint32_t s3 = ax_ref(&f, X, ZBC_TX_APP_CLAIM, id);
    CHECK(ax_block(&f, &ev));
    AX_NOOP(&ev, s0, "not your turn");
    const struct zbc_event *e = ax_ev(&ev, ZBC_EVENT_APP_MOVE, 0);
    CHECK(e != NULL && e->tx_index == s1 && e->seat == x &&
          e->amount == f.tip.height + 240);
    AX_NOOP(&ev, s2, "illegal move: square 1 is taken by X");
    for (size_t k = 0; k < ev.n; k++)
        if (ev.e[k].tx_index == s2)
            CHECK(strstr(ev.e[k].reason, "illegal move: illegal") == NULL);
    AX_NOOP(&ev, s3, "deadline not passed");
    zbc_events_free(&ev);
    /* O 3, X 1, O 4, X 2: X wins */
    const uint8_t seq[4] = {3, 1, 4, 2};
    for (int i = 0; i < 4; i++) {
        ax_move1(&f, i % 2 ? X : O, id, seq[i]);
        CHECK(ax_block(&f, &ev));
        CHECK_EQ_INT(ax_count(&ev, ZBC_EVENT_APP_MOVE), 1);
        if (i < 3)
            zbc_events_free(&ev);
    }
    /* pot 20000: rake 200 to the fund, 19800 to the winner */
    e = ax_ev(&ev, ZBC_EVENT_APP_RAKE, 0);
    CHECK(e != NULL && e->amount == 200 && zbc_addr_equal(&e->b, &f.fund.addr));
    e = ax_ev(&ev, ZBC_EVENT_APP_PAYOUT, 0);
    CHECK(e != NULL && e->amount == 19800 && e->seat == x &&
          strcmp(e->reason, "win") == 0);
    e = ax_ev(&ev, ZBC_EVENT_APP_END, 0);
    CHECK(e != NULL && e->seat == x && strcmp(e->reason, "win") == 0);
    zbc_events_free(&ev);
    struct zbc_app *a = malloc(sizeof *a);
    ax_app(&f, id, a);
    CHECK_EQ_INT(a->status, ZBC_APP_FINISHED);
    CHECK_EQ_INT(a->end, ZBC_END_WIN);
    CHECK_EQ_INT(a->winner, x);
    CHECK_EQ_INT(a->pot, 0);
    CHECK_EQ_INT(a->moves, 5);
    /* fees: a paid create + moves; no-ops cost nothing */
    uint64_t fees_x = (uint64_t)3 * FX_FEE, fees_o = (uint64_t)2 * FX_FEE;
    uint64_t fees_a = FX_FEE + (x == 0 ? fees_x : fees_o);
    uint64_t fees_b = FX_FEE + (x == 1 ? fees_x : fees_o);
    CHECK_EQ_INT(fx_balance(&f, &f.a.addr),
                 a0 - fees_a - STAKE + (x == 0 ? 19800 : 0));
    CHECK_EQ_INT(fx_balance(&f, &f.b.addr),
                 b0 - fees_b - STAKE + (x == 1 ? 19800 : 0));
    CHECK_EQ_INT(fx_balance(&f, &f.fund.addr), fund0 + 200);
    /* history: create, join, activate, 5 moves, rake, payout, end */
    CHECK_EQ_INT(a->history_n, 11);
    struct zbc_app_history *h = malloc(sizeof *h);
    bool found;
    struct zbc_err err;
    CHECK(zbc_apps_history(&f.s, id, 3, h, &found, &err));
    CHECK(found);
    CHECK_EQ_INT(h->ev.kind, ZBC_EVENT_APP_MOVE);
    CHECK_EQ_INT(h->move_len, 1);
    CHECK_EQ_INT(h->move[0], 0);
    CHECK(zbc_apps_history(&f.s, id, 10, h, &found, &err));
    CHECK(found && h->ev.kind == ZBC_EVENT_APP_END);
    CHECK(zbc_apps_history(&f.s, id, 11, h, &found, &err));
    CHECK(!found);
    /* finished: every transaction is a no-op */
    uint32_t n0 = ax_move1(&f, O, id, 8);
    uint32_t n1 = ax_ref(&f, &f.c, ZBC_TX_APP_JOIN, id);
    uint32_t n2 = ax_ref(&f, X, ZBC_TX_APP_RESIGN, id);
    CHECK(ax_block(&f, &ev));
    AX_NOOP(&ev, n0, "is finished");
    AX_NOOP(&ev, n1, "is finished");
    AX_NOOP(&ev, n2, "is finished");
    CHECK_EQ_INT(ax_count(&ev, ZBC_EVENT_FEE), 0);
    zbc_events_free(&ev);
    free(h);
    free(a);
    fx_free(&f);
}

static void test_tictactoe_draw(void)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    uint64_t fund0 = fx_balance(&f, &f.fund.addr);
    uint8_t x;
    uint64_t id = ttt_start(&f, &x);
    uint64_t a0 = fx_balance(&f, &f.a.addr), b0 = fx_balance(&f, &f.b.addr);
    const struct fx_key *X = ax_seat_key(&f, x), *O = ax_seat_key(&f, 1 - x);
    const uint8_t seq[9] = {0, 1, 2, 4, 3, 5, 7, 6, 8};
    struct zbc_events ev = {0};
    for (int i = 0; i < 9; i++) {
        ax_move1(&f, i % 2 ? O : X, id, seq[i]);
        CHECK(ax_block(&f, &ev));
        if (i < 8)
            zbc_events_free(&ev);
    }
    CHECK_EQ_INT(ax_count(&ev, ZBC_EVENT_APP_RAKE), 0);
    CHECK_EQ_INT(ax_count(&ev, ZBC_EVENT_APP_PAYOUT), 2);
    const struct zbc_event *e = ax_ev(&ev, ZBC_EVENT_APP_END, 0);
    CHECK(e != NULL && strcmp(e->reason, "draw") == 0);
    zbc_events_free(&ev);
    uint64_t xa = x == 0 ? 5 : 4, xb = x == 0 ? 4 : 5;
    CHECK_EQ_INT(fx_balance(&f, &f.a.addr), a0 - xa * FX_FEE + STAKE);
    CHECK_EQ_INT(fx_balance(&f, &f.b.addr), b0 - xb * FX_FEE + STAKE);
    CHECK_EQ_INT(fx_balance(&f, &f.fund.addr), fund0);
    struct zbc_app *a = malloc(sizeof *a);
    ax_app(&f, id, a);
    CHECK_EQ_INT(a->end, ZBC_END_DRAW);
    free(a);
    fx_free(&f);
}

/* The roll bytes of a dice move by the formula, with SHA3 directly. */
static void dice_block(uint8_t out[32], const uint8_t seed[32],
                       const uint8_t tx_hash[32], uint32_t counter)
{
    uint8_t buf[8 + 32 + 32 + 4];
    memcpy(buf, "ZBC-DICE", 8);
    memcpy(buf + 8, seed, 32);
    memcpy(buf + 40, tx_hash, 32);
    zbc_put_le32(buf + 72, counter);
    zbc_sha3_256(out, buf, sizeof buf);
}

static void test_pig_pending(void)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    struct zbc_events ev = {0};
    uint8_t first;
    uint64_t id = ax_two_seat_started(&f, 33, STAKE, &first);
    const struct fx_key *P = ax_seat_key(&f, first), *Q = ax_seat_key(&f, 1 - first);
    struct zbc_app *a = malloc(sizeof *a);
    ax_app(&f, id, a);
    CHECK_EQ_INT(a->clock, first);
    /* keep-alive by the holder: deadline = height + 240 at once */
    uint32_t k = ax_move(&f, P, id, NULL, 0);
    uint32_t k2 = ax_move(&f, Q, id, NULL, 0);
    uint32_t k3 = ax_move1(&f, P, id, 1); /* hold with nothing to bank */
    uint32_t k4 = ax_move1(&f, P, id, 7);
    static uint8_t longmove[4097];
    uint32_t k5 = ax_move(&f, P, id, longmove, sizeof longmove);
    CHECK(ax_block(&f, &ev));
    AX_NOOP(&ev, k5, "longer than the 4096");
    AX_NOOP(&ev, k3, "illegal move: ");
    AX_NOOP(&ev, k4, "illegal move: ");
    const struct zbc_event *e = ax_ev(&ev, ZBC_EVENT_APP_KEEPALIVE, 0);
    CHECK(e != NULL && e->tx_index == k && e->amount == f.tip.height + 240);
    AX_NOOP(&ev, k2, "not your turn");
    zbc_events_free(&ev);
    ax_app(&f, id, a);
    CHECK_EQ_INT(a->deadline, f.tip.height + 240);
    /* roll at N: pending; a second move in the same block is a no-op */
    uint32_t r = ax_move1(&f, P, id, 0);
    uint32_t r2 = ax_move1(&f, P, id, 1);
    uint32_t r3 = ax_move1(&f, Q, id, 0);
    /* nobody holds the clock: claims and keep-alives are no-ops */
    uint32_t c1 = ax_ref(&f, Q, ZBC_TX_APP_CLAIM, id);
    uint32_t c2 = ax_move(&f, P, id, NULL, 0);
    uint8_t rh[32];
    ax_hash(rh, r);
    CHECK(ax_block(&f, &ev));
    uint32_t N = f.tip.height;
    e = ax_ev(&ev, ZBC_EVENT_APP_PENDING, 0);
    CHECK(e != NULL && e->tx_index == r && e->seat == first);
    AX_NOOP(&ev, r2, "already pending");
    AX_NOOP(&ev, r3, "already pending");
    AX_NOOP(&ev, c1, "nobody holds the clock");
    AX_NOOP(&ev, c2, "not your turn");
    zbc_events_free(&ev);
    ax_app(&f, id, a);
    CHECK(a->has_pending);
    CHECK_EQ_INT(a->clock, ZBC_APP_NO_CLOCK);
    /* N+1: applied at the start of the block with the formula's rolls */
    CHECK(ax_block(&f, &ev));
    CHECK_EQ_INT(f.tip.height, N + 1);
    e = ax_ev(&ev, ZBC_EVENT_APP_MOVE, 0);
    CHECK(e != NULL && e->tx_index == ZBC_EVENT_NO_TX && e->seat == first);
    CHECK(e != NULL && memcmp(e->tx_hash, rh, 32) == 0);
    CHECK(e != NULL && e->amount == N + 1 + 240);
    uint8_t blk[32];
    dice_block(blk, f.tip.seed, rh, 0);
    /* pig draws a d6 by rejection sampling from one byte */
    size_t used = 0;
    while (blk[used] >= 252)
        used++;
    uint8_t die = (uint8_t)(blk[used] % 6 + 1);
    used++;
    CHECK(e != NULL && e->data_len == 4 + used);
    CHECK(e != NULL && zbc_get_le64((const uint8_t[8]){e->data[0], e->data[1],
                                                  e->data[2], e->data[3], 0,
                                                  0, 0, 0}) == used);
    CHECK(e != NULL && memcmp(e->data + 4, blk, used) == 0);
    zbc_events_free(&ev);
    ax_app(&f, id, a);
    CHECK(!a->has_pending);
    CHECK_EQ_INT(a->deadline, N + 1 + 240);
    /* the engine saw that die */
    const struct zbc_engine *eng = zbc_engine_by_type(33);
    static struct zbc_game_state st;
    struct zbc_err err;
    CHECK(eng->decode(&st, a->state, a->state_len, &err));
    char json[512], want[32];
    CHECK(eng->to_json(&st, json, sizeof json) > 0);
    snprintf(want, sizeof want, "\"die\":%u", die);
    CHECK(strstr(json, want) != NULL);
    CHECK_EQ_INT(a->clock, die == 1 ? 1 - first : first);
    /* a pending move discarded by a resignation */
    const struct fx_key *H = a->clock == first ? P : Q;
    const struct fx_key *W = a->clock == first ? Q : P;
    ax_move1(&f, H, id, 0);
    ax_ref(&f, W, ZBC_TX_APP_RESIGN, id);
    CHECK(ax_block(&f, &ev));
    e = ax_ev(&ev, ZBC_EVENT_APP_DISCARD, 0);
    CHECK(e != NULL && strstr(e->reason, "resigned") != NULL);
    e = ax_ev(&ev, ZBC_EVENT_APP_PAYOUT, 0);
    CHECK(e != NULL && zbc_addr_equal(&e->b, &H->addr) && e->amount == 19800);
    zbc_events_free(&ev);
    /* the next block finds the schedule item stale: nothing happens */
    CHECK(ax_block(&f, &ev));
    CHECK_EQ_INT(ev.n, 0);
    zbc_events_free(&ev);
    free(a);
    fx_free(&f);
}

static void test_battleship_opening(void)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    static uint8_t commit[3200], mv[3201];
    memset(commit, 0x5a, sizeof commit);
    struct zbc_events ev = {0};
    uint64_t id = ax_create(&f, &f.a, 7, STAKE, 2, commit, 3200, NULL, 6000);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    ax_ref(&f, &f.b, ZBC_TX_APP_JOIN, id);
    CHECK(ax_block(&f, &ev));
    /* no draw: the joiner holds the clock at once */
    const struct zbc_event *e = ax_ev(&ev, ZBC_EVENT_APP_ACTIVATE, 0);
    CHECK(e != NULL && e->seat == 1);
    zbc_events_free(&ev);
    struct zbc_app *a = malloc(sizeof *a);
    ax_app(&f, id, a);
    CHECK(!a->first_pending);
    CHECK_EQ_INT(a->clock, 1);
    /* the creator cannot fire before the joiner's commitment */
    uint8_t fire[2] = {0, 0};
    uint32_t s0 = ax_move(&f, &f.a, id, fire, 2);
    mv[0] = 3;
    memset(mv + 1, 0x6b, 3200);
    uint32_t s1 = ax_move(&f, &f.b, id, mv, 3201);
    CHECK(ax_block(&f, &ev));
    AX_NOOP(&ev, s0, "not your turn");
    e = ax_ev(&ev, ZBC_EVENT_APP_MOVE, 0);
    CHECK(e != NULL && e->tx_index == s1);
    zbc_events_free(&ev);
    ax_app(&f, id, a);
    CHECK_EQ_INT(a->clock, 0);
    /* history keeps the whole commitment */
    struct zbc_app_history *h = malloc(sizeof *h);
    bool found;
    struct zbc_err err;
    CHECK(zbc_apps_history(&f.s, id, a->history_n - 1, h, &found, &err));
    CHECK(found && h->move_len == 3201 && memcmp(h->move, mv, 3201) == 0);
    free(h);
    free(a);
    fx_free(&f);
}

/* Lines draws its start position with the first seat: the activation
 * consumes H("ZBC-DICE" || seed(J+2) || app_id LE8 || counter). */
static void test_lines_start_rolls(void)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    struct zbc_events ev = {0};
    uint8_t rounds = 5;
    uint64_t id = ax_create(&f, &f.a, 10, STAKE, 2, &rounds, 1, NULL, FX_FEE);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    ax_ref(&f, &f.b, ZBC_TX_APP_JOIN, id);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    CHECK(ax_block(&f, &ev));
    const struct zbc_event *e = ax_ev(&ev, ZBC_EVENT_APP_ACTIVATE, 0);
    CHECK(e != NULL && e->seat == ax_first(f.tip.seed, id, 2));
    CHECK(e != NULL && e->data_len > 4);
    if (e != NULL && e->data_len > 4) {
        uint8_t buf[8 + 32 + 8 + 4], blk[32];
        size_t have = (size_t)e->data_len - 4;
        for (uint32_t ctr = 0; ctr * 32 < have; ctr++) {
            memcpy(buf, "ZBC-DICE", 8);
            memcpy(buf + 8, f.tip.seed, 32);
            zbc_put_le64(buf + 40, id);
            zbc_put_le32(buf + 48, ctr);
            zbc_sha3_256(blk, buf, sizeof buf);
            size_t n = have - ctr * 32 < 32 ? have - ctr * 32 : 32;
            CHECK_EQ_MEM(e->data + 4 + ctr * 32, blk, n);
        }
    }
    zbc_events_free(&ev);
    /* the start position is the engine's init with those rolls */
    struct zbc_app *a = malloc(sizeof *a);
    ax_app(&f, id, a);
    static struct zbc_app b;
    b = *a;
    uint8_t tag[8];
    zbc_put_le64(tag, id);
    struct zbc_roll r;
    zbc_roll_init(&r, f.tip.seed, tag, 8);
    struct zbc_err err;
    CHECK(zbc_app_start(&b, ax_first(f.tip.seed, id, 2), &r, &err));
    CHECK_EQ_INT(b.state_len, a->state_len);
    CHECK_EQ_MEM(b.state, a->state, a->state_len);
    free(a);
    fx_free(&f);
}

static void test_resign_open_and_active(void)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    uint64_t a0 = fx_balance(&f, &f.a.addr), b0 = fx_balance(&f, &f.b.addr);
    struct zbc_events ev = {0};
    /* Open: b joins then leaves, a leaves: abandoned, full refunds */
    uint64_t id = ax_create(&f, &f.a, 33, STAKE, 3, NULL, 0, NULL, FX_FEE);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    ax_ref(&f, &f.b, ZBC_TX_APP_JOIN, id);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    uint32_t m = ax_move1(&f, &f.a, id, 0);
    ax_ref(&f, &f.a, ZBC_TX_APP_RESIGN, id);
    CHECK(ax_block(&f, &ev));
    AX_NOOP(&ev, m, "has not started");
    const struct zbc_event *e = ax_ev(&ev, ZBC_EVENT_APP_LEAVE, 0);
    CHECK(e != NULL && e->seat == 0 && e->amount == STAKE);
    zbc_events_free(&ev);
    struct zbc_app *a = malloc(sizeof *a);
    ax_app(&f, id, a);
    CHECK_EQ_INT(a->n_seated, 1); /* b moved down to seat 0 */
    CHECK(zbc_addr_equal(&a->seat[0], &f.b.addr));
    CHECK_EQ_INT(a->status, ZBC_APP_OPEN);
    ax_ref(&f, &f.b, ZBC_TX_APP_RESIGN, id);
    CHECK(ax_block(&f, &ev));
    e = ax_ev(&ev, ZBC_EVENT_APP_END, 0);
    CHECK(e != NULL && strcmp(e->reason, "abandoned") == 0);
    zbc_events_free(&ev);
    ax_app(&f, id, a);
    CHECK_EQ_INT(a->status, ZBC_APP_ABANDONED);
    CHECK_EQ_INT(a->pot, 0);
    CHECK_EQ_INT(fx_balance(&f, &f.a.addr), a0 - 2 * FX_FEE);
    CHECK_EQ_INT(fx_balance(&f, &f.b.addr), b0 - 2 * FX_FEE);
    uint32_t j = ax_ref(&f, &f.c, ZBC_TX_APP_JOIN, id);
    CHECK(ax_block(&f, &ev));
    AX_NOOP(&ev, j, "was abandoned");
    zbc_events_free(&ev);

    /* Active, 3 seats, stake 667: pot 2001, rake 20, 1981 to two seats:
     * 991 to the first of them, 990 to the other */
    uint64_t fund0 = fx_balance(&f, &f.fund.addr);
    uint64_t c0 = fx_balance(&f, &f.c.addr);
    a0 = fx_balance(&f, &f.a.addr);
    id = ax_create(&f, &f.a, 33, 667, 3, NULL, 0, NULL, FX_FEE);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    ax_ref(&f, &f.b, ZBC_TX_APP_JOIN, id);
    ax_ref(&f, &f.c, ZBC_TX_APP_JOIN, id);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    b0 = fx_balance(&f, &f.b.addr);
    ax_ref(&f, &f.b, ZBC_TX_APP_RESIGN, id); /* first turn still pending */
    CHECK(ax_block(&f, &ev));
    e = ax_ev(&ev, ZBC_EVENT_APP_RAKE, 0);
    CHECK(e != NULL && e->amount == 20);
    e = ax_ev(&ev, ZBC_EVENT_APP_PAYOUT, 0);
    CHECK(e != NULL && e->seat == 0 && e->amount == 991);
    e = ax_ev(&ev, ZBC_EVENT_APP_PAYOUT, 1);
    CHECK(e != NULL && e->seat == 2 && e->amount == 990);
    zbc_events_free(&ev);
    CHECK_EQ_INT(fx_balance(&f, &f.a.addr), a0 - FX_FEE - 667 + 991);
    CHECK_EQ_INT(fx_balance(&f, &f.b.addr), b0 - FX_FEE);
    CHECK_EQ_INT(fx_balance(&f, &f.c.addr), c0 - FX_FEE - 667 + 990);
    CHECK_EQ_INT(fx_balance(&f, &f.fund.addr), fund0 + 20);
    ax_app(&f, id, a);
    CHECK_EQ_INT(a->end, ZBC_END_RESIGN);
    CHECK_EQ_INT(a->loser, 1); /* b resigned: never named the winner */
    CHECK_EQ_INT(a->winner, ZBC_APP_NO_SEAT); /* two seats share */
    CHECK_EQ_INT(a->rake, 20);
    CHECK_EQ_INT(a->paid[0], 991);
    CHECK_EQ_INT(a->paid[1], 0);
    CHECK_EQ_INT(a->paid[2], 990);
    /* the activation scheduled for J+2 finds the app finished */
    CHECK(ax_block(&f, &ev));
    CHECK_EQ_INT(ax_count(&ev, ZBC_EVENT_APP_ACTIVATE), 0);
    zbc_events_free(&ev);
    free(a);
    fx_free(&f);
}

static void test_timeout_claim(void)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    struct zbc_events ev = {0};
    uint64_t id = ax_create(&f, &f.a, 1, 2001, 2, NULL, 0, NULL, FX_FEE);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    ax_ref(&f, &f.b, ZBC_TX_APP_JOIN, id);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    uint32_t J = f.tip.height;
    /* the producer path runs the same start-of-block work */
    ax_until(&f, J + 1);
    CHECK(ax_build(&f, &ev) == 0);
    const struct zbc_event *e = ax_ev(&ev, ZBC_EVENT_APP_ACTIVATE, 0);
    uint8_t first = ax_first(f.tip.seed, id, 2);
    CHECK(e != NULL && e->seat == first);
    zbc_events_free(&ev);
    const struct fx_key *H = ax_seat_key(&f, first), *W = ax_seat_key(&f, 1 - first);
    /* keep-alive at K pushes the deadline to K + 240 */
    ax_move(&f, H, id, NULL, 0);
    CHECK(ax_block(&f, &ev));
    uint32_t K = f.tip.height;
    zbc_events_free(&ev);
    ax_until(&f, K + 239);
    /* at height K + 240 (= the deadline): too early; the holder cannot
     * claim either */
    uint32_t s0 = ax_ref(&f, W, ZBC_TX_APP_CLAIM, id);
    uint32_t s1 = ax_ref(&f, H, ZBC_TX_APP_CLAIM, id);
    uint32_t s2 = ax_ref(&f, &f.c, ZBC_TX_APP_CLAIM, id);
    CHECK(ax_block(&f, &ev));
    CHECK_EQ_INT(f.tip.height, K + 240);
    AX_NOOP(&ev, s0, "deadline not passed");
    AX_NOOP(&ev, s1, "the claimer holds the clock");
    AX_NOOP(&ev, s2, "not seated");
    zbc_events_free(&ev);
    /* K + 241: pot 4002 - rake 40 = 3962 to the claimer */
    uint64_t w0 = fx_balance(&f, &W->addr);
    ax_ref(&f, W, ZBC_TX_APP_CLAIM, id);
    CHECK(ax_block(&f, &ev));
    e = ax_ev(&ev, ZBC_EVENT_APP_CLAIM, 0);
    CHECK(e != NULL && e->seat == 1 - first);
    e = ax_ev(&ev, ZBC_EVENT_APP_RAKE, 0);
    CHECK(e != NULL && e->amount == 40);
    e = ax_ev(&ev, ZBC_EVENT_APP_PAYOUT, 0);
    CHECK(e != NULL && e->amount == 3962);
    zbc_events_free(&ev);
    CHECK_EQ_INT(fx_balance(&f, &W->addr), w0 - FX_FEE + 3962);
    struct zbc_app *a = malloc(sizeof *a);
    ax_app(&f, id, a);
    CHECK_EQ_INT(a->end, ZBC_END_TIMEOUT);
    CHECK_EQ_INT(a->loser, first);      /* the holder timed out */
    CHECK_EQ_INT(a->winner, 1 - first); /* the claimer took the pot */
    CHECK_EQ_INT(a->rake, 40);
    CHECK_EQ_INT(a->paid[1 - first], 3962);
    CHECK_EQ_INT(a->paid[first], 0);
    free(a);
    fx_free(&f);
}

static void test_join_noops(void)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    struct zbc_events ev = {0};
    /* a challenge to b; an app of 1 ZBC-seat game by an Ethereum sender */
    uint64_t id = ax_create(&f, &f.a, 3, STAKE, 2, NULL, 0, &f.b.addr, FX_FEE);
    uint64_t big = ax_create(&f, &f.c, 3, 195000, 2, NULL, 0, NULL, FX_FEE);
    CHECK(ax_block(&f, &ev));
    CHECK_EQ_INT(ax_count(&ev, ZBC_EVENT_APP_CREATE), 2);
    zbc_events_free(&ev);
    uint32_t s0 = ax_ref(&f, &f.c, ZBC_TX_APP_JOIN, id);
    uint32_t s1 = ax_ref(&f, &f.a, ZBC_TX_APP_JOIN, id);
    uint32_t s2 = ax_ref(&f, &f.a, ZBC_TX_APP_JOIN, 12345);
    uint32_t s3 = ax_ref(&f, &f.b, ZBC_TX_APP_JOIN, id);
    uint32_t s4 = ax_ref(&f, &f.c, ZBC_TX_APP_JOIN, id);
    uint32_t s5 = ax_ref(&f, &f.b, ZBC_TX_APP_JOIN, big);
    uint32_t s6 = ax_ref(&f, &f.b, ZBC_TX_APP_RESIGN, 12345);
    uint32_t s7 = ax_move1(&f, &f.a, 12345, 0);
    uint32_t s8 = ax_ref(&f, &f.a, ZBC_TX_APP_CLAIM, 12345);
    uint64_t b0 = fx_balance(&f, &f.b.addr);
    struct zbc_err err;
    CHECK(ax_block(&f, &ev));
    AX_NOOP(&ev, s0, "reserved for its designated opponent");
    AX_NOOP(&ev, s1, "already seated");
    AX_NOOP(&ev, s2, "unknown app 12345");
    CHECK(ax_ev(&ev, ZBC_EVENT_APP_JOIN, 0)->tx_index == s3);
    AX_NOOP(&ev, s4, "is full");
    AX_NOOP(&ev, s5, "insufficient balance");
    AX_NOOP(&ev, s6, "unknown app");
    AX_NOOP(&ev, s7, "unknown app");
    AX_NOOP(&ev, s8, "unknown app");
    zbc_events_free(&ev);
    /* an app id that exists already (planted: ids are tx ids, so a real
     * collision needs a hash collision) makes a CreateApp a no-op */
    uint64_t clash = ax_create(&f, &f.b, 1, 1, 2, NULL, 0, NULL, FX_FEE);
    {
        static struct zbc_app p;
        static uint8_t rec[ZBC_APP_RECORD_MAX];
        memset(&p, 0, sizeof p);
        p.type = 1;
        p.status = ZBC_APP_ABANDONED;
        p.end = ZBC_END_ABANDONED;
        p.winner = p.loser = ZBC_APP_NO_SEAT;
        p.seats = 2;
        p.clock = ZBC_APP_NO_CLOCK;
        size_t rl = zbc_app_encode(&p, rec, sizeof rec);
        uint8_t key[8];
        zbc_put_le64(key, clash);
        CHECK(zbc_state_put(&f.s, ZBC_TABLE_APPS, key, 8, rec, rl, &err));
        CHECK(zbc_state_commit(&f.s, &err));
    }
    CHECK(ax_block(&f, &ev));
    AX_NOOP(&ev, 0, "already exists");
    zbc_events_free(&ev);
    /* b paid one fee and one stake; its no-ops cost nothing */
    CHECK_EQ_INT(fx_balance(&f, &f.b.addr), b0 - FX_FEE - STAKE);
    /* a no-op's hash is used: the same bytes again make a block invalid */
    struct zbc_checked_tx ct;
    CHECK(zbc_tx_check_stateless(&ct, &f.g, ax_buf[s2], ax_refs[s2].len,
                                 &err));
    CHECK(!zbc_tx_check_state(&f.s, &f.g, &ct, f.tip.timestamp_ms, 0, &err));
    CHECK(strstr(err.msg, "duplicate transaction") != NULL);
    fx_free(&f);
}

static void test_non_zbc_seat(void)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    uint8_t sk[32];
    memset(sk, 0x07, 32);
    struct zbc_addr eth;
    CHECK(zbc_eth_address(&eth, sk));
    struct zbc_events ev = {0};
    uint32_t i = ax_n++;
    ax_refs[i].bytes = ax_buf[i];
    ax_refs[i].len = (uint32_t)fx_send(ax_buf[i], &f, &f.a, &eth, 100000,
                                       FX_FEE, fx_now_s(&f));
    uint64_t id = ax_create(&f, &f.a, 1, STAKE, 2, NULL, 0, NULL, FX_FEE);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    uint8_t jb[8], cb[20] = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0x10, 0x27, 0, 0,
                             0, 0, 0, 0, 2, 0, 0};
    zbc_put_le64(jb, id);
    uint32_t s0 = eth_tx(&f, sk, ZBC_TX_APP_JOIN, jb, 8);
    uint32_t s1 = eth_tx(&f, sk, ZBC_TX_APP_CREATE, cb, 20);
    uint64_t e0 = fx_balance(&f, &eth);
    CHECK(ax_block(&f, &ev));
    for (size_t k = 0; k < ev.n; k++)
        if (ev.e[k].tx_index == s0 || ev.e[k].tx_index == s1)
            CHECK_EQ_STR(ev.e[k].reason,
                         "multiplayer apps require a ZBC account");
    AX_NOOP(&ev, s0, "multiplayer");
    AX_NOOP(&ev, s1, "multiplayer");
    zbc_events_free(&ev);
    CHECK_EQ_INT(fx_balance(&f, &eth), e0);
    fx_free(&f);
}

int main(void)
{
    TEST_RUN(test_tictactoe_win);
    TEST_RUN(test_tictactoe_draw);
    TEST_RUN(test_pig_pending);
    TEST_RUN(test_battleship_opening);
    TEST_RUN(test_lines_start_rolls);
    TEST_RUN(test_resign_open_and_active);
    TEST_RUN(test_timeout_claim);
    TEST_RUN(test_join_noops);
    TEST_RUN(test_non_zbc_seat);
    return test_summary("consensus_apps");
}
