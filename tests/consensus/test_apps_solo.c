/* Multi-step solo games against the apps fund through blocks (docs/protocol-apps.md
 * §13), with mines: the escrow and the 1 % rule at their boundary, reveals pending
 * until the next block and resolved by its seed (the mines recomputed here with the
 * catalogue's event function, itself checked against independent Python vectors in
 * tests/apps/test_fair_events.c), the cash-out amounts, busts, the settlement by the
 * clock at deadline + 1 without a claim, and the refusals (join, resign, claim, the
 * fund playing).  ax_block checks the money invariant and the undo record of every
 * block. */
#include "apps_fixture.h"

#include "apps/fair.h"
#include "apps/fair_pay.h"

#define MINES 28

static uint16_t mines_params(uint8_t *out, uint8_t mines, const char *client)
{
    size_t n = strlen(client);
    out[0] = mines;
    out[1] = (uint8_t)n;
    memcpy(out + 2, client, n);
    return (uint16_t)(2 + n);
}

static uint64_t create_mines(struct fx *f, const struct fx_key *k, uint8_t mines,
                             uint64_t stake, const char *client)
{
    uint8_t p[80];
    uint16_t n = mines_params(p, mines, client);
    return ax_create(f, k, MINES, stake, 1, p, n, NULL, FX_FEE);
}

/* Whether revealing `tile` on a fresh board of `mines` busts under seed(h): the
 * catalogue's mine event over the 25 tiles (docs/games.md, "Mines"). */
static bool is_mine(const uint8_t seed[32], const char *client, uint64_t id,
                    uint8_t mines, uint8_t tile)
{
    char server[65];
    zbc_fair_server_seed(server, seed);
    struct zbc_fair_stream s;
    zbc_fair_stream_init(&s, server, client, id);
    uint8_t pos[25];
    struct zbc_err err;
    CHECK(zbc_fair_mines(&s, 25, mines, pos, &err));
    for (uint8_t i = 0; i < mines; i++)
        if (pos[i] == tile)
            return true;
    return false;
}

/* 1 % of the fund (100,000,000): 24 mines return at most 24.75x, so a stake of
 * 40404 may return 999,999 and 40405 would return 1,000,023. */
static void test_fund_rule(void)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    struct zbc_events ev = {0};
    uint32_t s0 = ax_n;
    create_mines(&f, &f.a, 24, 40405, "x");
    uint32_t s1 = ax_n;
    uint64_t id = create_mines(&f, &f.a, 24, 40404, "x");
    uint32_t s2 = ax_n;
    create_mines(&f, &f.fund, 1, 10, "x");
    uint32_t s3 = ax_n;
    create_mines(&f, &f.b, 24, 10, "x"); /* 1 % of what the escrow left: fits */
    CHECK(ax_block(&f, &ev));
    AX_NOOP(&ev, s0, "game refused: its maximum return 1000023 exceeds 1% of the apps "
                     "fund (100000000)");
    CHECK(ax_ev(&ev, ZBC_EVENT_APP_CREATE, 0)->tx_index == s1);
    AX_NOOP(&ev, s2, "the apps fund cannot play against itself");
    CHECK(ax_ev(&ev, ZBC_EVENT_APP_CREATE, 1)->tx_index == s3);
    const struct zbc_event *e = ax_ev(&ev, ZBC_EVENT_APP_ESCROW, 0);
    CHECK(e != NULL && e->ref == id && e->amount == 999999 - 40404);
    e = ax_ev(&ev, ZBC_EVENT_APP_ESCROW, 1);
    CHECK(e != NULL && e->amount == 247 - 10);
    CHECK_EQ_INT(fx_balance(&f, &f.fund.addr), 100000000 - 959595 - 237);
    struct zbc_app a;
    ax_app(&f, id, &a);
    CHECK_EQ_INT(a.status, ZBC_APP_ACTIVE);
    CHECK_EQ_INT(a.clock, 0);
    CHECK_EQ_INT(a.pot, 999999);
    CHECK_EQ_INT(a.escrow, 959595);
    CHECK_EQ_INT(a.deadline, f.tip.height + f.g.move_deadline);
    zbc_events_free(&ev);
    /* a second game at the exact 1 % of what is left: 98,040,168 / 100 */
    uint64_t fund = fx_balance(&f, &f.fund.addr);
    CHECK_EQ_INT(fund, 99040168);
    uint64_t stake = fund / 100 * 10000 / 247500; /* 40016 -> 990,396 */
    uint32_t s4 = ax_n;
    create_mines(&f, &f.a, 24, stake + 1, "y");
    create_mines(&f, &f.a, 24, stake, "y");
    CHECK(ax_block(&f, &ev));
    AX_NOOP(&ev, s4, "exceeds 1% of the apps fund (99040168)");
    CHECK_EQ_INT(ax_count(&ev, ZBC_EVENT_APP_CREATE), 1);
    zbc_events_free(&ev);
    fx_free(&f);
}

/* Reveals pending until the next block, resolved by its seed; a safe tile then a
 * cash-out pays floor(stake x 1.0312) (1 mine) and returns the rest to the fund; a
 * bust returns the whole pot to the fund. */
static void test_reveal_and_cashout(void)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    struct zbc_events ev = {0};
    uint64_t ids[6];
    uint8_t m[6] = {1, 1, 1, 24, 24, 24};
    const struct fx_key *who[6] = {&f.a, &f.b, &f.c, &f.a, &f.b, &f.c};
    for (int i = 0; i < 6; i++)
        ids[i] = create_mines(&f, who[i], m[i], 1000, "c");
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    /* reveals: pending (clock nobody) */
    for (int i = 0; i < 6; i++)
        ax_move(&f, who[i], ids[i], (const uint8_t[]){1, (uint8_t)(7 + i)}, 2);
    /* a second move while one is pending is a no-op */
    uint32_t s = ax_move(&f, who[0], ids[0], (const uint8_t[]){1, 0}, 2);
    CHECK(ax_block(&f, &ev));
    CHECK_EQ_INT(ax_count(&ev, ZBC_EVENT_APP_PENDING), 6);
    AX_NOOP(&ev, s, "a move is already pending in app");
    zbc_events_free(&ev);
    struct zbc_app a;
    ax_app(&f, ids[0], &a);
    CHECK(a.has_pending && a.clock == ZBC_APP_NO_CLOCK);
    uint64_t fund_before = fx_balance(&f, &f.fund.addr);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    /* resolved at the start of that block by its seed */
    int busts = 0, safes = 0;
    uint64_t fund_back = 0;
    for (int i = 0; i < 6; i++) {
        ax_app(&f, ids[i], &a);
        CHECK(!a.has_pending);
        bool mine = is_mine(f.tip.seed, "c", ids[i], m[i], (uint8_t)(7 + i));
        if (mine) {
            busts++;
            CHECK_EQ_INT(a.status, ZBC_APP_FINISHED);
            CHECK_EQ_INT(a.end, ZBC_END_BUST);
            CHECK_EQ_INT(a.paid[0], 0);
            fund_back += 24750; /* the whole pot: 1000 x 24.75 either way */
        } else if (m[i] == 24) {
            /* the one safe tile: cleared at 24.75x, paid at once */
            safes++;
            CHECK_EQ_INT(a.end, ZBC_END_CASHOUT);
            CHECK_EQ_INT(a.paid[0], 24750);
            CHECK_EQ_INT(a.winner, 0);
        } else {
            safes++;
            CHECK_EQ_INT(a.status, ZBC_APP_ACTIVE);
            CHECK_EQ_INT(a.clock, 0);
            CHECK_EQ_INT(a.moves, 1);
            CHECK_EQ_INT(a.deadline, f.tip.height + f.g.move_deadline);
        }
    }
    CHECK(busts > 0 && safes > 0);
    CHECK_EQ_INT(fx_balance(&f, &f.fund.addr), fund_before + fund_back);
    /* cash out every game still running: 1000 x 1.0312 = 1031 */
    for (int i = 0; i < 3; i++) {
        ax_app(&f, ids[i], &a);
        if (a.status != ZBC_APP_ACTIVE)
            continue;
        uint64_t bal = fx_balance(&f, &who[i]->addr);
        uint64_t fund = fx_balance(&f, &f.fund.addr);
        ax_move(&f, who[i], ids[i], (const uint8_t[]){2}, 1);
        CHECK(ax_block(&f, &ev));
        const struct zbc_event *p = ax_ev(&ev, ZBC_EVENT_APP_PAYOUT, 0);
        CHECK(p != NULL && p->amount == 1031 && strcmp(p->reason, "cashout") == 0);
        p = ax_ev(&ev, ZBC_EVENT_APP_PAYOUT, 1);
        CHECK(p != NULL && p->amount == 24750 - 1031 && p->seat == ZBC_EVENT_NO_SEAT);
        const struct zbc_event *end = ax_ev(&ev, ZBC_EVENT_APP_END, 0);
        CHECK(end != NULL && strcmp(end->reason, "cashout") == 0 && end->seat == 0);
        zbc_events_free(&ev);
        CHECK_EQ_INT(fx_balance(&f, &who[i]->addr), bal - FX_FEE + 1031);
        CHECK_EQ_INT(fx_balance(&f, &f.fund.addr), fund + 24750 - 1031);
        ax_app(&f, ids[i], &a);
        CHECK_EQ_INT(a.end, ZBC_END_CASHOUT);
        CHECK_EQ_INT(a.winner, 0);
        CHECK_EQ_INT(a.paid[0], 1031);
        CHECK_EQ_INT(a.pot, 0);
        CHECK_EQ_INT(a.rake, 0);
    }
    fx_free(&f);
}

/* Nobody claims a solo game: the node settles it at the start of block deadline + 1
 * at its cash-out value (the stake back before any reveal).  A keep-alive moves the
 * deadline and with it the settlement. */
static void test_clock(void)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    struct zbc_events ev = {0};
    uint64_t id = create_mines(&f, &f.b, 3, 100, "");
    uint64_t id2 = create_mines(&f, &f.a, 3, 100, "");
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    struct zbc_app a;
    ax_app(&f, id, &a);
    uint64_t deadline = a.deadline;
    /* refusals: join, resign, claim */
    uint32_t j = ax_ref(&f, &f.c, ZBC_TX_APP_JOIN, id);
    uint32_t r = ax_ref(&f, &f.b, ZBC_TX_APP_RESIGN, id);
    uint32_t c = ax_ref(&f, &f.b, ZBC_TX_APP_CLAIM, id);
    uint32_t k = ax_move(&f, &f.a, id2, NULL, 0); /* keep-alive of the second */
    CHECK(ax_block(&f, &ev));
    AX_NOOP(&ev, j, "is full");
    AX_NOOP(&ev, r, "is a solo game against the apps fund: it cannot be resigned");
    AX_NOOP(&ev, c, "the claimer holds the clock");
    CHECK(ax_ev(&ev, ZBC_EVENT_APP_KEEPALIVE, 0)->tx_index == k);
    zbc_events_free(&ev);
    ax_until(&f, (uint32_t)deadline);
    ax_app(&f, id, &a);
    CHECK_EQ_INT(a.status, ZBC_APP_ACTIVE);
    uint64_t bal = fx_balance(&f, &f.b.addr), fund = fx_balance(&f, &f.fund.addr);
    ax_n = 0;
    CHECK(ax_block(&f, &ev)); /* deadline + 1 */
    const struct zbc_event *e = ax_ev(&ev, ZBC_EVENT_APP_CLAIM, 0);
    CHECK(e != NULL && e->ref == id && strcmp(e->reason, "clock") == 0 &&
          e->amount == deadline && e->tx_index == ZBC_EVENT_NO_TX);
    e = ax_ev(&ev, ZBC_EVENT_APP_END, 0);
    CHECK(e != NULL && strcmp(e->reason, "clock") == 0 && e->seat == ZBC_APP_NO_SEAT);
    CHECK_EQ_INT(ax_count(&ev, ZBC_EVENT_APP_END), 1); /* not the kept-alive one */
    zbc_events_free(&ev);
    ax_app(&f, id, &a);
    CHECK_EQ_INT(a.status, ZBC_APP_FINISHED);
    CHECK_EQ_INT(a.end, ZBC_END_CASHOUT);
    CHECK_EQ_INT(a.paid[0], 100);
    CHECK_EQ_INT(fx_balance(&f, &f.b.addr), bal + 100);
    /* 3 mines: max 2277x -> pot 227,700; 227,600 back to the fund */
    CHECK_EQ_INT(fx_balance(&f, &f.fund.addr), fund + 227600);
    /* the kept-alive game settles one block later than its first deadline */
    ax_app(&f, id2, &a);
    CHECK_EQ_INT(a.status, ZBC_APP_ACTIVE);
    CHECK_EQ_INT(a.deadline, deadline + 1);
    /* a move after the settlement is a no-op */
    uint32_t late = ax_move(&f, &f.b, id, (const uint8_t[]){1, 3}, 2);
    CHECK(ax_block(&f, &ev));
    AX_NOOP(&ev, late, "is finished");
    zbc_events_free(&ev);
    ax_app(&f, id2, &a);
    CHECK_EQ_INT(a.status, ZBC_APP_FINISHED);
    CHECK_EQ_INT(a.ended, deadline + 2);
    fx_free(&f);
}

/* The clock after a safe reveal settles at the cash-out value: 1 mine, 1 reveal,
 * stake 1000 -> 1031. */
static void test_clock_after_reveal(void)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    struct zbc_events ev = {0};
    uint64_t ids[3];
    for (int i = 0; i < 3; i++)
        ids[i] = create_mines(&f, &f.a, 1, 1000, i == 0 ? "a" : i == 1 ? "b" : "c");
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    for (int i = 0; i < 3; i++)
        ax_move(&f, &f.a, ids[i], (const uint8_t[]){1, 12}, 2);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    CHECK(ax_block(&f, &ev)); /* resolved here */
    zbc_events_free(&ev);
    int settled = 0;
    for (int i = 0; i < 3; i++) {
        struct zbc_app a;
        ax_app(&f, ids[i], &a);
        if (a.status != ZBC_APP_ACTIVE)
            continue;
        ax_until(&f, (uint32_t)a.deadline + 1);
        ax_app(&f, ids[i], &a);
        CHECK_EQ_INT(a.end, ZBC_END_CASHOUT);
        CHECK_EQ_INT(a.paid[0], 1031);
        CHECK_EQ_INT(a.winner, 0);
        settled++;
    }
    CHECK(settled > 0);
    fx_free(&f);
}

/* Every solo game played to its end through blocks with legal moves from its engine
 * (cash-outs, draws pending to the next block, the clock for the ones left alone):
 * ax_block checks the money invariant and the undo record of every block; each game
 * ends paying floor(stake x value / 10000) of its final position, the rest to the
 * fund, and the player's and the fund's balances move by exactly that. */
static void test_playouts(void)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    struct zbc_events ev = {0};
    const char *games[] = {"mines", "tower", "hilo", "mines", "tower", "hilo"};
    uint64_t ids[6], stake = 50;
    uint8_t p[8] = {1, 0};
    uint64_t fund0 = fx_balance(&f, &f.fund.addr), bal0 = fx_balance(&f, &f.a.addr);
    for (int i = 0; i < 6; i++) {
        const struct zbc_engine *e = zbc_engine_by_name(games[i]);
        size_t plen = e->type == 30 ? 1 : 2; /* hilo: only the seed length */
        if (e->type == 30)
            p[0] = 0;
        else
            p[0] = e->type == 28 ? 2 : 1, p[1] = 0; /* mines=2, tower medium */
        ids[i] = ax_create(&f, &f.a, e->type, stake, 1, p, (uint16_t)plen, NULL, FX_FEE);
    }
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    uint64_t fees = 6 * FX_FEE, paid = 0;
    uint64_t rng = 7;
    static struct zbc_move moves[ZBC_MOVES_MAX];
    static struct zbc_game_state st;
    for (int round = 0; round < 80; round++) {
        int active = 0;
        for (int i = 0; i < 6; i++) {
            struct zbc_app a;
            ax_app(&f, ids[i], &a);
            if (a.status != ZBC_APP_ACTIVE)
                continue;
            active++;
            if (a.has_pending || (i >= 3 && round > 2))
                continue; /* games 3..5 stop after a step or two: the clock ends them */
            const struct zbc_engine *e = zbc_app_engine(&a);
            struct zbc_err err;
            CHECK(e->decode(&st, a.state, a.state_len, &err));
            size_t n = e->gen_moves(&st, moves, ZBC_MOVES_MAX);
            CHECK(n > 0);
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            const struct zbc_move *m = &moves[(rng >> 33) % n];
            ax_move(&f, &f.a, ids[i], m->b, m->len);
            fees += FX_FEE;
        }
        if (active == 0)
            break;
        CHECK(ax_block(&f, &ev));
        zbc_events_free(&ev);
    }
    ax_until(&f, f.tip.height + f.g.move_deadline + 2);
    for (int i = 0; i < 6; i++) {
        struct zbc_app a;
        ax_app(&f, ids[i], &a);
        CHECK_EQ_INT(a.status, ZBC_APP_FINISHED);
        CHECK(a.end == ZBC_END_CASHOUT || a.end == ZBC_END_BUST);
        CHECK_EQ_INT(a.pot, 0);
        const struct zbc_engine *e = zbc_app_engine(&a);
        struct zbc_err err;
        CHECK(e->decode(&st, a.state, a.state_len, &err));
        uint64_t want = stake * e->solo->value(&st) / 10000;
        CHECK_EQ_INT(a.paid[0], want);
        paid += want;
    }
    CHECK_EQ_INT(fx_balance(&f, &f.a.addr), bal0 - fees - 6 * stake + paid);
    CHECK_EQ_INT(fx_balance(&f, &f.fund.addr), fund0 + 6 * stake - paid);
    fx_free(&f);
}

/* Blackjack: a double puts one more stake into the pot when it is included (refused
 * without the balance for it), the settlement pays floor(stake x value / 10000) of the
 * replayed position, and a game left after the deal is stood by the node at its clock
 * with the settling block's cards. */
static void test_blackjack(void)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    struct zbc_events ev = {0};
    uint64_t stake = 60000, cid[3], id = 0;
    uint8_t p[1] = {0};
    for (int i = 0; i < 3; i++)
        cid[i] = ax_create(&f, &f.c, 31, stake, 1, p, 1, NULL, FX_FEE);
    uint64_t id2 = ax_create(&f, &f.a, 31, 1000, 1, p, 1, NULL, FX_FEE);
    CHECK(ax_block(&f, &ev));
    const struct zbc_event *esc = ax_ev(&ev, ZBC_EVENT_APP_ESCROW, 0);
    CHECK(esc != NULL && esc->amount == 7 * stake); /* the maximum: 8x */
    zbc_events_free(&ev);
    for (int i = 0; i < 3; i++)
        ax_move(&f, &f.c, cid[i], (const uint8_t[]){1}, 1); /* deal */
    ax_move(&f, &f.a, id2, (const uint8_t[]){1}, 1);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    CHECK(ax_block(&f, &ev)); /* the deals are resolved here */
    zbc_events_free(&ev);
    struct zbc_app a;
    for (int i = 0; i < 3 && id == 0; i++) {
        ax_app(&f, cid[i], &a);
        if (a.status == ZBC_APP_ACTIVE)
            id = cid[i]; /* a game the deal did not end (no natural) */
    }
    CHECK(id != 0);
    ax_app(&f, id, &a);
    {
        /* c sends all but a fee and 500 away: without the fee and another 60000 its
         * double is a no-op */
        uint64_t bal = fx_balance(&f, &f.c.addr);
        uint32_t i = ax_n++;
        ax_refs[i].bytes = ax_buf[i];
        ax_refs[i].len = (uint32_t)fx_send(ax_buf[i], &f, &f.c, &f.b.addr,
                                           bal - 2 * FX_FEE - 500, FX_FEE, fx_now_s(&f));
        uint32_t s = ax_move(&f, &f.c, id, (const uint8_t[]){4}, 1);
        CHECK(ax_block(&f, &ev));
        AX_NOOP(&ev, s, "insufficient balance");
        AX_NOOP(&ev, s, "needed for the fee and the stake this move adds to app");
        zbc_events_free(&ev);
    }
    /* a doubles its game when it can (two cards), else stands */
    ax_app(&f, id2, &a);
    uint64_t bal = fx_balance(&f, &f.a.addr), fund = fx_balance(&f, &f.fund.addr);
    uint64_t put = 0;
    if (a.status == ZBC_APP_ACTIVE) {
        struct zbc_err err;
        uint8_t dbl = 4;
        bool can = zbc_app_check_move(&a, 0, &dbl, 1, &err);
        printf("blackjack: a %s\n", can ? "doubles" : "stands");
        ax_move(&f, &f.a, id2, (const uint8_t[]){(uint8_t)(can ? 4 : 3)}, 1);
        CHECK(ax_block(&f, &ev));
        const struct zbc_event *pe = ax_ev(&ev, ZBC_EVENT_APP_PENDING, 0);
        CHECK(pe != NULL && pe->amount == (can ? 1000u : 0u));
        zbc_events_free(&ev);
        put = FX_FEE + (can ? 1000 : 0);
        ax_app(&f, id2, &a);
        CHECK_EQ_INT(a.pot, 8000 + (can ? 1000 : 0));
        CHECK(ax_block(&f, &ev)); /* resolved: the dealer plays */
        zbc_events_free(&ev);
    }
    ax_app(&f, id2, &a);
    CHECK_EQ_INT(a.status, ZBC_APP_FINISHED);
    static struct zbc_game_state st;
    struct zbc_err err;
    const struct zbc_engine *e = zbc_app_engine(&a);
    CHECK(e->decode(&st, a.state, a.state_len, &err));
    uint64_t ret = 1000 * e->solo->value(&st) / 10000;
    CHECK_EQ_INT(a.paid[0], ret);
    CHECK_EQ_INT(fx_balance(&f, &f.a.addr), bal - put + ret);
    /* the fund gets back its escrow (7000), the stakes and what is not paid */
    CHECK_EQ_INT(fx_balance(&f, &f.fund.addr), fund + 7000 + (put > FX_FEE ? 2000 : 1000) - ret);
    /* c's game, left alone, is stood by the node at deadline + 1 */
    ax_app(&f, id, &a);
    CHECK_EQ_INT(a.status, ZBC_APP_ACTIVE);
    {
        uint64_t cb = fx_balance(&f, &f.c.addr);
        ax_until(&f, (uint32_t)a.deadline);
        ax_n = 0;
        CHECK(ax_block(&f, &ev));
        CHECK(ax_ev(&ev, ZBC_EVENT_APP_CLAIM, 0) != NULL);
        const struct zbc_event *mv = ax_ev(&ev, ZBC_EVENT_APP_MOVE, 0);
        CHECK(mv != NULL && strcmp(mv->reason, "clock") == 0);
        zbc_events_free(&ev);
        ax_app(&f, id, &a);
        CHECK_EQ_INT(a.status, ZBC_APP_FINISHED);
        CHECK(e->decode(&st, a.state, a.state_len, &err));
        CHECK_EQ_INT(e->turn(&st), ZBC_NOBODY);
        ret = stake * e->solo->value(&st) / 10000;
        CHECK_EQ_INT(a.paid[0], ret);
        /* c's other games still running ended by the same clock */
        uint64_t all = 0;
        for (int i = 0; i < 3; i++) {
            ax_app(&f, cid[i], &a);
            CHECK_EQ_INT(a.status, ZBC_APP_FINISHED);
            if (a.ended == f.tip.height) {
                CHECK(e->decode(&st, a.state, a.state_len, &err));
                CHECK_EQ_INT(a.paid[0], stake * e->solo->value(&st) / 10000);
                all += a.paid[0];
            }
        }
        CHECK_EQ_INT(fx_balance(&f, &f.c.addr), cb + all);
    }
    fx_free(&f);
}

int main(void)
{
    TEST_RUN(test_fund_rule);
    TEST_RUN(test_reveal_and_cashout);
    TEST_RUN(test_clock);
    TEST_RUN(test_clock_after_reveal);
    TEST_RUN(test_playouts);
    TEST_RUN(test_blackjack);
    return test_summary("consensus_apps_solo");
}
