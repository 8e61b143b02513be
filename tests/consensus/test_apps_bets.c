/* Solo bets through blocks: each game settled at N+1 from seed(N+1), the
 * float recomputed here with HMAC-SHA256 directly (the catalogue games'
 * whole events by zbc_bet_resolve, checked against independent vectors in
 * tests/apps/test_fair_events.c); escrow from the apps fund at inclusion;
 * the 1 % fund rule; any account type may bet. */
#include "apps_fixture.h"

#include "apps/fair.h"
#include "crypto/hex.h"

/* params: the game's fields then client_seed_len u8 || client_seed */
static uint16_t bet_params(uint8_t *out, const uint8_t *fields, size_t n,
                           const char *client)
{
    memcpy(out, fields, n);
    size_t cl = strlen(client);
    out[n] = (uint8_t)cl;
    memcpy(out + n + 1, client, cl);
    return (uint16_t)(n + 1 + cl);
}

/* u of the first float, from the published verifier's definition. */
static uint32_t first_u(const uint8_t seed[32], const char *client,
                        uint64_t nonce)
{
    char server[65], msg[128];
    zbc_hex_encode(server, seed, 32);
    snprintf(msg, sizeof msg, "%s:%llu:0", client, (unsigned long long)nonce);
    uint8_t mac[32];
    zbc_hmac_sha256(mac, server, 64, msg, strlen(msg));
    return (uint32_t)mac[0] << 24 | (uint32_t)mac[1] << 16 |
           (uint32_t)mac[2] << 8 | mac[3];
}

struct bet_case {
    uint8_t type;
    uint8_t fields[12];
    size_t n;
    uint64_t stake;
    const char *client;
};

static unsigned bets_won, bets_lost;

static void settle_one(const struct bet_case *bc, bool eth_sender)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    uint8_t sk[32];
    struct zbc_addr eth;
    memset(sk, 0x07, 32);
    CHECK(zbc_eth_address(&eth, sk));
    struct zbc_events ev = {0};
    if (eth_sender) {
        uint32_t i = ax_n++;
        ax_refs[i].bytes = ax_buf[i];
        ax_refs[i].len = (uint32_t)fx_send(ax_buf[i], &f, &f.a, &eth, 300000,
                                           FX_FEE, fx_now_s(&f));
        CHECK(ax_block(&f, &ev));
        zbc_events_free(&ev);
    }
    const struct zbc_addr *who = eth_sender ? &eth : &f.a.addr;
    uint8_t params[80];
    uint16_t plen = bet_params(params, bc->fields, bc->n, bc->client);
    uint64_t fund0 = fx_balance(&f, &f.fund.addr), p0 = fx_balance(&f, who);
    struct zbc_bet bet;
    struct zbc_err err;
    uint64_t max_ret;
    CHECK(zbc_bet_parse(&bet, bc->type, params, plen, &err));
    CHECK(zbc_bet_max_return(&bet, bc->stake, &max_ret, &err));
    uint64_t id;
    if (eth_sender) {
        uint8_t body[20 + 80];
        body[0] = bc->type;
        zbc_put_le64(body + 1, 0);
        zbc_put_le64(body + 9, bc->stake);
        body[17] = 1;
        zbc_put_le16(body + 18, plen);
        memcpy(body + 20, params, plen);
        uint32_t s = eth_tx(&f, sk, ZBC_TX_APP_CREATE, body, 20u + plen);
        uint8_t h[32];
        ax_hash(h, s);
        id = zbc_get_le64(h);
    } else {
        id = ax_create(&f, &f.a, bc->type, bc->stake, 1, params, plen, NULL,
                       FX_FEE);
    }
    CHECK(ax_block(&f, &ev));
    /* inclusion: stake and escrow in the pot */
    const struct zbc_event *e = ax_ev(&ev, ZBC_EVENT_APP_ESCROW, 0);
    uint64_t escrow = max_ret > bc->stake ? max_ret - bc->stake : 0;
    CHECK(e != NULL && e->amount == escrow && e->ref == id);
    zbc_events_free(&ev);
    CHECK_EQ_INT(fx_balance(&f, &f.fund.addr), fund0 - escrow);
    struct zbc_app *a = malloc(sizeof *a);
    ax_app(&f, id, a);
    CHECK_EQ_INT(a->pot, bc->stake + escrow);
    CHECK_EQ_INT(a->status, ZBC_APP_ACTIVE);
    /* N+1: settled at the start of the block */
    CHECK(ax_block(&f, &ev));
    uint32_t u = first_u(f.tip.seed, bc->client, id);
    struct zbc_bet_outcome out;
    if (zbc_bet_first_float_only(bet.game)) {
        CHECK(zbc_bet_outcome(&bet, bc->stake, u, &out, &err));
    } else {
        char server[65];
        zbc_hex_encode(server, f.tip.seed, 32);
        CHECK(zbc_bet_resolve(&bet, bc->stake, server, id, &out, &err));
        CHECK_EQ_INT(out.u, u);
        CHECK(out.returns <= max_ret);
    }
    if (out.win)
        bets_won++;
    else
        bets_lost++;
    e = ax_ev(&ev, ZBC_EVENT_BET_SETTLE, 0);
    CHECK(e != NULL && e->data_len == 9);
    if (e != NULL) {
        uint32_t eu = zbc_get_le32(e->data);
        uint32_t ev_val = zbc_get_le32(e->data + 4);
        CHECK_EQ_INT(eu, u);
        CHECK_EQ_INT(ev_val, out.value);
        CHECK_EQ_INT(e->data[8], out.win);
        CHECK_EQ_INT(e->amount, out.returns);
        CHECK(zbc_addr_equal(&e->a, who));
    }
    zbc_events_free(&ev);
    uint64_t fee = FX_FEE;
    CHECK_EQ_INT(fx_balance(&f, who), p0 - fee - bc->stake + out.returns);
    CHECK_EQ_INT(fx_balance(&f, &f.fund.addr),
                 fund0 + bc->stake - out.returns);
    ax_app(&f, id, a);
    CHECK_EQ_INT(a->status, ZBC_APP_FINISHED);
    CHECK_EQ_INT(a->end, ZBC_END_BET);
    CHECK_EQ_INT(a->pot, 0);
    /* a bet takes no join, move, resign or claim */
    uint32_t s0 = ax_ref(&f, &f.b, ZBC_TX_APP_JOIN, id);
    uint32_t s1 = ax_ref(&f, &f.a, ZBC_TX_APP_RESIGN, id);
    CHECK(ax_block(&f, &ev));
    AX_NOOP(&ev, s0, "solo bet");
    AX_NOOP(&ev, s1, "solo bet");
    zbc_events_free(&ev);
    free(a);
    fx_free(&f);
}

static void test_each_game(void)
{
    /* several client seeds per game so wins and losses both occur */
    static const char *clients[] = {"alpha", "b", "", "zz-top", "42"};
    unsigned total = 0;
    for (size_t c = 0; c < 5; c++) {
        struct bet_case cases[] = {
            {16, {0, 0x88, 0x13}, 3, 1000, clients[c]},  /* dice under 50.00 */
            {16, {1, 0x10, 0x26}, 3, 777, clients[c]},   /* over 97.44 */
            {17, {1}, 1, 5001, clients[c]},              /* coin tails */
            {18, {0, 17}, 2, 1000, clients[c]},          /* straight 17 */
            {18, {1, 0}, 2, 2345, clients[c]},           /* red */
            {18, {8, 3}, 2, 999, clients[c]},            /* column 3 */
            {22, {0xc8, 0, 0, 0}, 4, 3000, clients[c]},  /* limbo 2.00x */
            {23, {16, 2}, 2, 1000, clients[c]},          /* plinko 16 high */
            {24, {0, 5, 2, 9, 17, 30, 40}, 7, 1234, clients[c]}, /* keno 5 */
            {25, {30, 1}, 2, 999, clients[c]},           /* wheel 30 medium */
            {26, {1}, 1, 4321, clients[c]},              /* baccarat banker */
            {27, {4}, 1, 2000, clients[c]},              /* blitz 4 cards */
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            settle_one(&cases[i], c == 1 && i == 2);
            total++;
        }
    }
    CHECK_EQ_INT(total, 60);
    /* both settlement paths ran */
    CHECK(bets_won > 0 && bets_lost > 0);
}

static void test_fund_rule(void)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    struct zbc_events ev = {0};
    uint8_t params[80];
    uint8_t heads[1] = {0};
    uint16_t plen = bet_params(params, heads, 1, "seed");
    /* fund 100,000,000: 1 % is 1,000,000.  coin returns stake*198/100:
     * 505051 -> 1,000,000 fits, 505052 -> 1,000,002 does not */
    uint64_t fund0 = fx_balance(&f, &f.fund.addr);
    CHECK_EQ_INT(fund0, 100000000);
    uint32_t s0 = ax_n;
    ax_create(&f, &f.a, 17, 505052, 1, params, plen, NULL, FX_FEE);
    uint32_t s1 = ax_n;
    ax_create(&f, &f.a, 17, 505051, 1, params, plen, NULL, FX_FEE);
    uint32_t s2 = ax_n;
    ax_create(&f, &f.b, 17, 1000, 1, params, plen, NULL, FX_FEE - 1);
    /* a limbo bet at 999,999.00x of 1000 may return 999,999: under 1 % of
     * the original fund, over 1 % of what the escrows above left */
    uint32_t s3 = ax_n;
    uint8_t limbo[4];
    zbc_put_le32(limbo, 99999900);
    uint8_t p2[80];
    uint16_t p2len = bet_params(p2, limbo, 4, "x");
    ax_create(&f, &f.c, 22, 1000, 1, p2, p2len, NULL, FX_FEE);
    uint32_t s4 = ax_n;
    ax_create(&f, &f.fund, 17, 10, 1, params, plen, NULL, FX_FEE);
    CHECK(ax_block(&f, &ev));
    AX_NOOP(&ev, s0, "exceeds 1% of the apps fund");
    CHECK(ax_ev(&ev, ZBC_EVENT_APP_CREATE, 0)->tx_index == s1);
    CHECK(ax_ev(&ev, ZBC_EVENT_APP_CREATE, 1)->tx_index == s2);
    AX_NOOP(&ev, s3, "exceeds 1% of the apps fund (99504071)");
    AX_NOOP(&ev, s4, "the apps fund cannot bet against itself");
    zbc_events_free(&ev);
    /* escrows: 1,000,000 - 505,051 and 1,980 - 1,000 */
    CHECK_EQ_INT(fx_balance(&f, &f.fund.addr), 99504071);
    fx_free(&f);
}

/* The 1 % rule on a catalogue bet uses its table's largest multiplier:
 * plinko 16 rows high pays at most 95.85x.  Fund 100,000,000: 1 % is
 * 1,000,000; a stake of 10432 may return 999,907, 10433 would return
 * 1,000,003. */
static void test_fund_rule_catalogue(void)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    struct zbc_events ev = {0};
    uint8_t params[80];
    uint16_t plen = bet_params(params, (const uint8_t[]){16, 2}, 2, "p");
    uint32_t s0 = ax_n;
    ax_create(&f, &f.a, 23, 10433, 1, params, plen, NULL, FX_FEE);
    uint32_t s1 = ax_n;
    uint64_t id = ax_create(&f, &f.b, 23, 10432, 1, params, plen, NULL,
                            FX_FEE);
    CHECK(ax_block(&f, &ev));
    AX_NOOP(&ev, s0, "bet refused: its maximum return 1000003 exceeds 1% of "
                     "the apps fund (100000000)");
    const struct zbc_event *e = ax_ev(&ev, ZBC_EVENT_APP_ESCROW, 0);
    CHECK(e != NULL && e->amount == 999907 - 10432 && e->ref == id);
    CHECK(ax_ev(&ev, ZBC_EVENT_APP_CREATE, 0)->tx_index == s1);
    zbc_events_free(&ev);
    CHECK_EQ_INT(fx_balance(&f, &f.fund.addr), 100000000 - (999907 - 10432));
    fx_free(&f);
}

int main(void)
{
    TEST_RUN(test_each_game);
    TEST_RUN(test_fund_rule);
    TEST_RUN(test_fund_rule_catalogue);
    return test_summary("consensus_apps_bets");
}
