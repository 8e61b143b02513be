/* A game engine that refuses, at the start of a block, a move its own
 * check_move accepted (an inconsistent engine, as blackjack was before
 * 0f8b727: a hit on a 12-card hand) must not make that block invalid:
 * every candidate block at that height would fail and the chain would
 * halt.  The move is discarded instead (docs/protocol-apps.md §5, §13).
 *
 * The inconsistency is made here, not in an engine: this program is
 * linked with -Wl,--wrap=zbc_engine_by_type, and the wrapper hands the
 * consensus code a copy of the real engine whose apply_move refuses while
 * `refuse_type` names its type.  Nothing in the node changes for it. */
#include "apps_fixture.h"

#include "apps/engine.h"

#define STAKE 10000
#define PIG 33
#define BLACKJACK 31

const struct zbc_engine *__real_zbc_engine_by_type(uint8_t type);
const struct zbc_engine *__wrap_zbc_engine_by_type(uint8_t type);

static int refuse_type = -1;
static struct zbc_engine faulty;

static int refuse_apply(struct zbc_game_state *st, uint8_t seat,
                        const uint8_t *move, size_t len,
                        struct zbc_roll *rolls, struct zbc_err *err)
{
    (void)st, (void)seat, (void)move, (void)len, (void)rolls;
    return zbc_fail(err, "this engine refuses every move (test)");
}

const struct zbc_engine *__wrap_zbc_engine_by_type(uint8_t type)
{
    const struct zbc_engine *e = __real_zbc_engine_by_type(type);
    if (e == NULL || (int)type != refuse_type)
        return e;
    faulty = *e;
    faulty.apply_move = refuse_apply;
    return &faulty;
}

/* Pig: a roll admitted at N, refused by apply_move at N + 1.  The block
 * applies; the roll is discarded; the roller keeps the turn with a new
 * deadline, and rolls again once the engine applies moves. */
static void test_dice_move_refused(void)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    struct zbc_events ev = {0};
    uint8_t first;
    uint64_t id = ax_two_seat_started(&f, PIG, STAKE, &first);
    const struct fx_key *P = ax_seat_key(&f, first);
    struct zbc_app a;
    ax_app(&f, id, &a);
    CHECK_EQ_INT(a.clock, first);
    uint8_t state0[ZBC_GAME_STATE_MAX];
    uint16_t state0_len = a.state_len;
    memcpy(state0, a.state, a.state_len);

    uint32_t r = ax_move1(&f, P, id, 0); /* roll */
    uint8_t rh[32];
    ax_hash(rh, r);
    CHECK(ax_block(&f, &ev));
    CHECK(ax_ev(&ev, ZBC_EVENT_APP_PENDING, 0) != NULL);
    zbc_events_free(&ev);
    uint64_t a_bal = fx_balance(&f, &f.a.addr), b_bal = fx_balance(&f, &f.b.addr);

    refuse_type = PIG;
    CHECK(ax_block(&f, &ev)); /* before the fix: this block was invalid */
    refuse_type = -1;
    const struct zbc_event *e = ax_ev(&ev, ZBC_EVENT_APP_DISCARD, 0);
    CHECK(e != NULL && memcmp(e->tx_hash, rh, 32) == 0 && e->seat == first);
    CHECK(e != NULL &&
          strstr(e->reason, "the engine refused the move when it was "
                            "resolved: this engine refuses every move") ==
              e->reason);
    CHECK(ax_ev(&ev, ZBC_EVENT_APP_MOVE, 0) == NULL);
    CHECK(ax_ev(&ev, ZBC_EVENT_APP_PAYOUT, 0) == NULL);
    zbc_events_free(&ev);
    ax_app(&f, id, &a);
    CHECK_EQ_INT(a.status, ZBC_APP_ACTIVE);
    CHECK(!a.has_pending);
    CHECK_EQ_INT(a.moves, 0);
    CHECK_EQ_INT(a.clock, first);
    CHECK_EQ_INT(a.deadline, f.tip.height + f.g.move_deadline);
    CHECK_EQ_INT(a.pot, 2 * STAKE);
    CHECK(a.state_len == state0_len && memcmp(a.state, state0, state0_len) == 0);
    CHECK_EQ_INT(fx_balance(&f, &f.a.addr), a_bal);
    CHECK_EQ_INT(fx_balance(&f, &f.b.addr), b_bal);

    /* the game goes on: the same roll, sent again, is applied */
    ax_move1(&f, P, id, 0);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    CHECK(ax_block(&f, &ev));
    CHECK(ax_ev(&ev, ZBC_EVENT_APP_MOVE, 0) != NULL);
    CHECK(ax_ev(&ev, ZBC_EVENT_APP_DISCARD, 0) == NULL);
    zbc_events_free(&ev);
    ax_app(&f, id, &a);
    CHECK_EQ_INT(a.moves, 1);
    fx_free(&f);
}

/* The first event of `kind` about app `id`. */
static const struct zbc_event *app_ev(const struct zbc_events *ev, uint64_t id,
                                      enum zbc_event_kind kind)
{
    for (size_t i = 0; i < ev->n; i++)
        if (ev->e[i].kind == kind && ev->e[i].ref == id)
            return &ev->e[i];
    return NULL;
}

/* Blackjack games dealt and still running (no natural), up to `want`. */
static size_t dealt_games(struct fx *f, const struct fx_key *k, uint64_t stake,
                          uint64_t *ids, size_t want)
{
    uint64_t cand[8];
    uint8_t p[1] = {0};
    struct zbc_events ev = {0};
    for (size_t i = 0; i < 8; i++)
        cand[i] = ax_create(f, k, BLACKJACK, stake, 1, p, 1, NULL, FX_FEE);
    CHECK(ax_block(f, &ev));
    zbc_events_free(&ev);
    for (size_t i = 0; i < 8; i++)
        ax_move(f, k, cand[i], (const uint8_t[]){1}, 1); /* deal */
    CHECK(ax_block(f, &ev));
    zbc_events_free(&ev);
    CHECK(ax_block(f, &ev)); /* the deals are resolved */
    zbc_events_free(&ev);
    size_t n = 0;
    struct zbc_app a;
    for (size_t i = 0; i < 8 && n < want; i++) {
        ax_app(f, cand[i], &a);
        if (a.status == ZBC_APP_ACTIVE && a.clock == 0)
            ids[n++] = cand[i];
    }
    return n;
}

/* Blackjack, a solo game: a double (which adds a stake) admitted at N and
 * refused at N + 1 is discarded and its stake goes back to the player,
 * outside what the game pays; a stand refused by the node's clock at
 * deadline + 1 settles the game as it stands. */
static void test_solo_moves_refused(void)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    struct zbc_events ev = {0};
    uint64_t ids[2];
    CHECK_EQ_INT(dealt_games(&f, &f.c, STAKE, ids, 2), 2);

    /* the double: pending, its stake in the pot */
    struct zbc_app a;
    ax_app(&f, ids[0], &a);
    uint64_t pot0 = a.pot;
    uint8_t dbl = 4;
    struct zbc_err why;
    CHECK(zbc_app_check_move(&a, 0, &dbl, 1, &why)); /* two cards */
    uint32_t d = ax_move(&f, &f.c, ids[0], &dbl, 1);
    uint8_t dh[32];
    ax_hash(dh, d);
    uint64_t bal = fx_balance(&f, &f.c.addr);
    CHECK(ax_block(&f, &ev));
    const struct zbc_event *e = ax_ev(&ev, ZBC_EVENT_APP_PENDING, 0);
    CHECK(e != NULL && e->amount == STAKE);
    zbc_events_free(&ev);
    CHECK_EQ_INT(fx_balance(&f, &f.c.addr), bal - FX_FEE - STAKE);
    ax_app(&f, ids[0], &a);
    CHECK_EQ_INT(a.pot, pot0 + STAKE);

    refuse_type = BLACKJACK;
    CHECK(ax_block(&f, &ev)); /* before the fix: this block was invalid */
    refuse_type = -1;
    e = ax_ev(&ev, ZBC_EVENT_APP_DISCARD, 0);
    CHECK(e != NULL && memcmp(e->tx_hash, dh, 32) == 0 && e->seat == 0);
    CHECK(e != NULL && strstr(e->reason, "the engine refused the move when "
                                         "it was resolved") == e->reason);
    e = ax_ev(&ev, ZBC_EVENT_APP_PAYOUT, 0);
    CHECK(e != NULL && e->amount == STAKE && e->seat == ZBC_EVENT_NO_SEAT &&
          zbc_addr_equal(&e->b, &f.c.addr) && strcmp(e->reason, "refund") == 0);
    CHECK(ax_ev(&ev, ZBC_EVENT_APP_MOVE, 0) == NULL);
    zbc_events_free(&ev);
    CHECK_EQ_INT(fx_balance(&f, &f.c.addr), bal - FX_FEE);
    ax_app(&f, ids[0], &a);
    CHECK_EQ_INT(a.status, ZBC_APP_ACTIVE);
    CHECK(!a.has_pending);
    CHECK_EQ_INT(a.clock, 0);
    CHECK_EQ_INT(a.pot, pot0);
    CHECK_EQ_INT(a.paid[0], 0);
    CHECK_EQ_INT(a.deadline, f.tip.height + f.g.move_deadline);

    /* the game goes on: a stand now settles it, paid by its value alone */
    uint64_t fund = fx_balance(&f, &f.fund.addr);
    ax_move(&f, &f.c, ids[0], (const uint8_t[]){3}, 1);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    ax_app(&f, ids[0], &a);
    CHECK_EQ_INT(a.status, ZBC_APP_FINISHED);
    static struct zbc_game_state st;
    const struct zbc_engine *eng = zbc_app_engine(&a);
    CHECK(eng->decode(&st, a.state, a.state_len, &why));
    uint64_t ret = STAKE * eng->solo->value(&st) / 10000;
    CHECK_EQ_INT(a.paid[0], ret);
    CHECK_EQ_INT(fx_balance(&f, &f.c.addr), bal - 2 * FX_FEE + ret);
    CHECK_EQ_INT(fx_balance(&f, &f.fund.addr), fund + pot0 - ret);

    /* the clock's stand refused at deadline + 1: settled as it stands
     * (blackjack's value before the end is 0), the block applies */
    ax_app(&f, ids[1], &a);
    pot0 = a.pot;
    bal = fx_balance(&f, &f.c.addr);
    fund = fx_balance(&f, &f.fund.addr);
    ax_until(&f, (uint32_t)a.deadline);
    refuse_type = BLACKJACK;
    CHECK(ax_block(&f, &ev)); /* before the fix: this block was invalid */
    refuse_type = -1;
    /* (c's other running games, dealt in the same block, end here too) */
    CHECK(app_ev(&ev, ids[1], ZBC_EVENT_APP_CLAIM) != NULL);
    CHECK(app_ev(&ev, ids[1], ZBC_EVENT_APP_MOVE) == NULL);
    e = app_ev(&ev, ids[1], ZBC_EVENT_APP_DISCARD);
    CHECK(e != NULL && e->seat == 0 && zbc_addr_equal(&e->a, &f.c.addr));
    CHECK(e != NULL && strstr(e->reason, "the engine refused the clock's "
                                         "move: ") == e->reason);
    e = app_ev(&ev, ids[1], ZBC_EVENT_APP_END);
    CHECK(e != NULL && strcmp(e->reason, "bust") == 0);
    uint64_t to_fund = 0;
    for (size_t i = 0; i < ev.n; i++)
        if (ev.e[i].kind == ZBC_EVENT_APP_PAYOUT && ev.e[i].ref == ids[1]) {
            CHECK(zbc_addr_equal(&ev.e[i].b, &f.fund.addr));
            to_fund += ev.e[i].amount;
        }
    CHECK_EQ_INT(to_fund, pot0);
    zbc_events_free(&ev);
    ax_app(&f, ids[1], &a);
    CHECK_EQ_INT(a.status, ZBC_APP_FINISHED);
    CHECK_EQ_INT(a.paid[0], 0);
    CHECK_EQ_INT(a.pot, 0);
    CHECK_EQ_INT(fx_balance(&f, &f.c.addr), bal);
    CHECK(fx_balance(&f, &f.fund.addr) >= fund + pot0);
    fx_free(&f);
}

int main(void)
{
    TEST_RUN(test_dice_move_refused);
    TEST_RUN(test_solo_moves_refused);
    return test_summary("consensus_apps_refused");
}
