/* Review edge cases of apps on chain: every block built by the producer
 * path is replayed by a second node (zbc_block_validate_apply) and must
 * give the same state byte for byte; seat renumbering in Open apps; the
 * first turn's deadline; several bets from one sender in one block. */
#include "apps_fixture.h"

#include "consensus/mempool.h"

#define STAKE 10000

static void until_both(struct fx *f, struct ax_mirror *mi, uint32_t height)
{
    while (f->tip.height < height) {
        struct zbc_events ev = {0};
        ax_n = 0;
        (void)ax_build_replay(f, mi, &ev);
        zbc_events_free(&ev);
    }
}

static uint16_t bet_params(uint8_t *out, const uint8_t *fields, size_t n,
                           const char *client)
{
    memcpy(out, fields, n);
    size_t cl = strlen(client);
    out[n] = (uint8_t)cl;
    memcpy(out + n + 1, client, cl);
    return (uint16_t)(n + 1 + cl);
}

static const struct fx_key *key_of(struct fx *f, const struct zbc_app *a,
                                   uint8_t seat)
{
    const struct fx_key *ks[] = {&f->a, &f->b, &f->c, &f->fund};
    for (size_t i = 0; i < 4; i++)
        if (zbc_addr_equal(&a->seat[seat], &ks[i]->addr))
            return ks[i];
    return NULL;
}

/* Pig, a 3-seat race, tic-tac-toe and bets: every block built by the
 * producer is accepted by a second node with the same state, events and
 * undo record. */
static void test_builder_and_replay_agree(void)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    struct ax_mirror mi;
    ax_mirror_init(&mi, &f);
    struct zbc_events ev = {0};
    uint64_t pig = ax_create(&f, &f.a, 33, STAKE, 2, NULL, 0, NULL, FX_FEE);
    uint64_t race = ax_create(&f, &f.b, 34, 777, 3, NULL, 0, NULL, FX_FEE);
    uint8_t params[80], heads[1] = {0}, dice[3] = {1, 0x10, 0x27 - 1};
    uint16_t pl = bet_params(params, heads, 1, "rc");
    ax_create(&f, &f.c, 17, 1000, 1, params, pl, NULL, FX_FEE);
    uint8_t p2[80];
    uint16_t pl2 = bet_params(p2, dice, 3, "x");
    ax_create(&f, &f.c, 16, 5, 1, p2, pl2, NULL, FX_FEE);
    CHECK_EQ_INT(ax_build_replay(&f, &mi, &ev), 4);
    zbc_events_free(&ev);
    ax_ref(&f, &f.b, ZBC_TX_APP_JOIN, pig);
    ax_ref(&f, &f.a, ZBC_TX_APP_JOIN, race);
    ax_ref(&f, &f.c, ZBC_TX_APP_JOIN, race);
    CHECK_EQ_INT(ax_build_replay(&f, &mi, &ev), 3);
    CHECK_EQ_INT(ax_count(&ev, ZBC_EVENT_BET_SETTLE), 2);
    zbc_events_free(&ev);
    until_both(&f, &mi, f.tip.height + 2);
    /* play both dice games for a while through the builder */
    struct zbc_app *a = malloc(sizeof *a);
    for (int round = 0; round < 40; round++) {
        uint64_t ids[2] = {pig, race};
        for (int g = 0; g < 2; g++) {
            ax_app(&f, ids[g], a);
            if (a->status != ZBC_APP_ACTIVE || a->clock == ZBC_APP_NO_CLOCK)
                continue;
            const struct fx_key *k = key_of(&f, a, a->clock);
            CHECK(k != NULL);
            ax_move1(&f, k, ids[g], (uint8_t)(g == 0 && round % 3 == 2));
        }
        if (round == 20) {
            ax_app(&f, race, a);
            if (a->status == ZBC_APP_ACTIVE)
                ax_ref(&f, key_of(&f, a, 1), ZBC_TX_APP_RESIGN, race);
        }
        (void)ax_build_replay(&f, &mi, &ev);
        zbc_events_free(&ev);
    }
    ax_app(&f, race, a);
    CHECK_EQ_INT(a->status, ZBC_APP_FINISHED);
    free(a);
    ax_mirror_free(&mi);
    fx_free(&f);
}

/* The smallest move_deadline (3): the first seat drawn at J+2 still gets
 * block J+3 (the deadline) to move; a claim at J+3 is a no-op, at J+4 it
 * wins. */
static void test_first_turn_deadline(void)
{
    struct fx f;
    fx_init(&f);
    f.g.move_deadline = 3;
    ax_fund(&f);
    struct zbc_events ev = {0};
    uint64_t id = ax_create(&f, &f.a, 1, STAKE, 2, NULL, 0, NULL, FX_FEE);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    ax_ref(&f, &f.b, ZBC_TX_APP_JOIN, id);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    uint32_t J = f.tip.height;
    ax_until(&f, J + 2);
    uint8_t first = ax_first(f.tip.seed, id, 2);
    const struct fx_key *H = first == 0 ? &f.a : &f.b;
    const struct fx_key *W = first == 0 ? &f.b : &f.a;
    struct zbc_app *a = malloc(sizeof *a);
    ax_app(&f, id, a);
    CHECK_EQ_INT(a->clock, first);
    CHECK_EQ_INT(a->deadline, J + 3);
    /* J+3: the claim comes first in the block and is still too early */
    uint32_t c = ax_ref(&f, W, ZBC_TX_APP_CLAIM, id);
    uint32_t m = ax_move1(&f, H, id, 4);
    CHECK(ax_block(&f, &ev));
    AX_NOOP(&ev, c, "can be claimed from height");
    const struct zbc_event *e = ax_ev(&ev, ZBC_EVENT_APP_MOVE, 0);
    CHECK(e != NULL && e->tx_index == m && e->amount == J + 6);
    zbc_events_free(&ev);
    /* W holds the clock until J+6; H claims at J+7 */
    ax_until(&f, J + 6);
    ax_ref(&f, H, ZBC_TX_APP_CLAIM, id);
    CHECK(ax_block(&f, &ev));
    CHECK(ax_ev(&ev, ZBC_EVENT_APP_CLAIM, 0) != NULL);
    zbc_events_free(&ev);
    ax_app(&f, id, a);
    CHECK_EQ_INT(a->end, ZBC_END_TIMEOUT);
    CHECK_EQ_INT(a->loser, 1 - first); /* W held the clock and timed out */
    CHECK_EQ_INT(a->winner, first);
    free(a);
    fx_free(&f);
}

/* Open apps: leaving renumbers the later seats, a leaver may come back
 * (once), and the payouts of the Active app follow the final seat order. */
static void test_open_renumbering(void)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    struct ax_mirror mi;
    ax_mirror_init(&mi, &f);
    struct zbc_events ev = {0};
    uint64_t id = ax_create(&f, &f.a, 33, 1001, 4, NULL, 0, NULL, FX_FEE);
    CHECK_EQ_INT(ax_build_replay(&f, &mi, &ev), 1);
    zbc_events_free(&ev);
    ax_ref(&f, &f.b, ZBC_TX_APP_JOIN, id);
    ax_ref(&f, &f.c, ZBC_TX_APP_JOIN, id);
    CHECK_EQ_INT(ax_build_replay(&f, &mi, &ev), 2);
    zbc_events_free(&ev);
    /* b leaves (c moves down to seat 1), then joins again: seat 2; its
     * second join in the same block is a no-op (a's move, a no-op while
     * Open, keeps b's join bytes apart from its first join's) */
    uint32_t mv = ax_move1(&f, &f.a, id, 0);
    uint32_t l = ax_ref(&f, &f.b, ZBC_TX_APP_RESIGN, id);
    uint32_t j1 = ax_ref(&f, &f.b, ZBC_TX_APP_JOIN, id);
    uint32_t j2 = ax_ref(&f, &f.b, ZBC_TX_APP_JOIN, id);
    CHECK(ax_block(&f, &ev));
    ax_mirror_free(&mi);
    ax_mirror_init(&mi, &f);
    AX_NOOP(&ev, mv, "has not started");
    const struct zbc_event *e = ax_ev(&ev, ZBC_EVENT_APP_LEAVE, 0);
    CHECK(e != NULL && e->tx_index == l && e->seat == 1 && e->amount == 1001);
    e = ax_ev(&ev, ZBC_EVENT_APP_JOIN, 0);
    CHECK(e != NULL && e->tx_index == j1 && e->seat == 2);
    AX_NOOP(&ev, j2, "already seated");
    zbc_events_free(&ev);
    struct zbc_app *a = malloc(sizeof *a);
    ax_app(&f, id, a);
    CHECK_EQ_INT(a->n_seated, 3);
    CHECK(zbc_addr_equal(&a->seat[0], &f.a.addr));
    CHECK(zbc_addr_equal(&a->seat[1], &f.c.addr));
    CHECK(zbc_addr_equal(&a->seat[2], &f.b.addr));
    CHECK_EQ_INT(a->pot, 3 * 1001);
    /* the fund account fills seat 3: Active */
    ax_ref(&f, &f.fund, ZBC_TX_APP_JOIN, id);
    CHECK_EQ_INT(ax_build_replay(&f, &mi, &ev), 1);
    zbc_events_free(&ev);
    ax_app(&f, id, a);
    CHECK_EQ_INT(a->status, ZBC_APP_ACTIVE);
    CHECK_EQ_INT(a->pot, 4004);
    /* c (seat 1) resigns: rake 40, 3964 split among seats 0, 2, 3:
     * 1322 to seat 0 (remainder 2), 1321 to seats 2 and 3 */
    uint64_t a0 = fx_balance(&f, &f.a.addr), b0 = fx_balance(&f, &f.b.addr);
    uint64_t u0 = fx_balance(&f, &f.fund.addr), c0 = fx_balance(&f, &f.c.addr);
    ax_ref(&f, &f.c, ZBC_TX_APP_RESIGN, id);
    CHECK_EQ_INT(ax_build_replay(&f, &mi, &ev), 1);
    zbc_events_free(&ev);
    CHECK_EQ_INT(fx_balance(&f, &f.a.addr), a0 + 1322);
    CHECK_EQ_INT(fx_balance(&f, &f.b.addr), b0 + 1321);
    CHECK_EQ_INT(fx_balance(&f, &f.fund.addr), u0 + 1321 + 40);
    CHECK_EQ_INT(fx_balance(&f, &f.c.addr), c0 - FX_FEE);
    ax_app(&f, id, a);
    CHECK_EQ_INT(a->end, ZBC_END_RESIGN);
    CHECK_EQ_INT(a->loser, 1);
    CHECK_EQ_INT(a->winner, ZBC_APP_NO_SEAT);
    CHECK_EQ_INT(a->rake, 40);
    CHECK_EQ_INT(a->paid[0], 1322);
    CHECK_EQ_INT(a->paid[1], 0);
    CHECK_EQ_INT(a->paid[2], 1321);
    CHECK_EQ_INT(a->paid[3], 1321);
    CHECK_EQ_INT(a->pot, 0);
    free(a);
    ax_mirror_free(&mi);
    fx_free(&f);
}

/* A challenge (designated opponent): only that account may join; when the
 * creator leaves the app is abandoned and the challenge is void; a
 * challenge to oneself can never fill and is left by resigning. */
static void test_designated_opponent(void)
{
    struct fx f;
    fx_init(&f);
    ax_fund(&f);
    struct zbc_events ev = {0};
    uint64_t a0 = fx_balance(&f, &f.a.addr);
    uint64_t id = ax_create(&f, &f.a, 3, STAKE, 2, NULL, 0, &f.b.addr, FX_FEE);
    uint64_t self = ax_create(&f, &f.c, 3, STAKE, 2, NULL, 0, &f.c.addr,
                              FX_FEE);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    uint32_t r = ax_ref(&f, &f.a, ZBC_TX_APP_RESIGN, id);
    uint32_t j = ax_ref(&f, &f.b, ZBC_TX_APP_JOIN, id);
    uint32_t s1 = ax_ref(&f, &f.b, ZBC_TX_APP_JOIN, self);
    uint32_t s2 = ax_ref(&f, &f.c, ZBC_TX_APP_JOIN, self);
    CHECK(ax_block(&f, &ev));
    CHECK(ax_ev(&ev, ZBC_EVENT_APP_LEAVE, 0)->tx_index == r);
    AX_NOOP(&ev, j, "was abandoned");
    AX_NOOP(&ev, s1, "reserved for its designated opponent");
    AX_NOOP(&ev, s2, "already seated");
    zbc_events_free(&ev);
    CHECK_EQ_INT(fx_balance(&f, &f.a.addr), a0 - 2 * FX_FEE);
    uint64_t c0 = fx_balance(&f, &f.c.addr);
    ax_ref(&f, &f.c, ZBC_TX_APP_RESIGN, self);
    CHECK(ax_block(&f, &ev));
    zbc_events_free(&ev);
    CHECK_EQ_INT(fx_balance(&f, &f.c.addr), c0 - FX_FEE + STAKE);
    struct zbc_app *a = malloc(sizeof *a);
    ax_app(&f, self, a);
    CHECK_EQ_INT(a->status, ZBC_APP_ABANDONED);
    free(a);
    fx_free(&f);
}

/* ---- random play: hand-made and built blocks, replayed ---- */

static uint64_t rs = 0x2545f4914f6cdd1dull;
static uint32_t rnd(uint32_t n)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return (uint32_t)(rs % n);
}

static uint32_t fee_seq;

/* A transaction with a fee unique to it, so equal bodies never repeat. */
static uint32_t rtx(struct fx *f, const struct fx_key *k, uint32_t type,
                    const uint8_t *body, uint32_t len)
{
    return ax_tx(f, k, type, body, len, 600 + (int64_t)(fee_seq++ % 5000));
}

#define RAPPS 24
#ifndef RBLOCKS
#define RBLOCKS 60
#endif

/* Random app transactions (many of them no-ops) from four accounts over
 * tic-tac-toe, pig, race and the four bets, with move_deadline 3 so that
 * claims happen; odd blocks are hand-made (no-ops included) and checked
 * by ax_block, even blocks are built and replayed on a second node.  The
 * money invariant, the state root rescan and the undo record are checked
 * after every block. */
static void test_random_play(void)
{
    struct fx f;
    fx_init(&f);
    f.g.move_deadline = 3;
    ax_fund(&f);
    const struct fx_key *ks[4] = {&f.a, &f.b, &f.c, &f.fund};
    uint64_t ids[RAPPS];
    uint32_t n_ids = 0;
    struct ax_mirror mi;
    struct zbc_events ev = {0};
    struct zbc_err err;
    unsigned ends = 0, noops = 0, claims = 0, bets = 0;
    for (int blk = 0; blk < RBLOCKS; blk++) {
        bool hand = blk % 2 == 1;
        if (!hand)
            ax_mirror_init(&mi, &f);
        uint32_t want = 4 + rnd(9);
        uint8_t body[64];
        /* keep the players funded from the fund account */
        {
            uint32_t i = ax_n++;
            ax_refs[i].bytes = ax_buf[i];
            ax_refs[i].len = (uint32_t)fx_send(ax_buf[i], &f, &f.fund,
                                               &ks[rnd(3)]->addr, 30000,
                                               700 + fee_seq++ % 5000,
                                               fx_now_s(&f) - (int64_t)i);
        }
        while (ax_n < want) {
            const struct fx_key *k = ks[rnd(4)];
            uint32_t kind = rnd(10);
            uint64_t id = n_ids ? ids[rnd(n_ids)] : 1;
            if (rnd(20) == 0)
                id = rnd(1000);
            if (kind == 0 && n_ids < RAPPS) {
                static const uint8_t types[3] = {1, 33, 34};
                uint8_t t = types[rnd(3)];
                uint8_t seats = t == 1 ? 2 : (uint8_t)(2 + rnd(3));
                body[0] = t;
                zbc_put_le64(body + 1, 0);
                zbc_put_le64(body + 9, rnd(3000));
                body[17] = seats;
                zbc_put_le16(body + 18, 0);
                uint32_t slot = rtx(&f, k, ZBC_TX_APP_CREATE, body, 20);
                uint8_t h[32];
                ax_hash(h, slot);
                ids[n_ids++] = zbc_get_le64(h);
            } else if (kind == 1) {
                uint8_t t = (uint8_t[]){16, 17, 18, 22, 23, 24, 25, 26,
                                        27}[rnd(9)];
                uint8_t fl[12] = {0};
                uint32_t fn = 0;
                switch (t) {
                case 16:
                    fl[0] = (uint8_t)rnd(2);
                    zbc_put_le16(fl + 1, 1 + rnd(9999));
                    fn = 3;
                    break;
                case 17:
                    fl[0] = (uint8_t)rnd(2);
                    fn = 1;
                    break;
                case 18:
                    fl[0] = (uint8_t)rnd(9);
                    fl[1] = fl[0] == 0 ? (uint8_t)rnd(37)
                            : fl[0] >= 7 ? (uint8_t)(1 + rnd(3)) : 0;
                    fn = 2;
                    break;
                case 22:
                    zbc_put_le32(fl, 101 + rnd(100000));
                    fn = 4;
                    break;
                case 23: /* plinko: rows, risk */
                case 25: /* wheel: segments, risk */
                    fl[0] = (uint8_t)(t == 23 ? 8 + rnd(9) : 10 * (1 + rnd(5)));
                    fl[1] = (uint8_t)rnd(3);
                    fn = 2;
                    break;
                case 24: /* keno: risk, n, n ascending squares */
                    fl[0] = (uint8_t)rnd(2);
                    fl[1] = (uint8_t)(1 + rnd(10));
                    for (uint32_t q = 0; q < fl[1]; q++)
                        fl[2 + q] = (uint8_t)(1 + 4 * q + rnd(4));
                    fn = 2u + fl[1];
                    break;
                default: /* baccarat side, blitz cards */
                    fl[0] = (uint8_t)(t == 26 ? rnd(3) : 2 + rnd(15));
                    fn = 1;
                }
                uint8_t params[24];
                uint16_t pl = bet_params(params, fl, fn, "r");
                body[0] = t;
                zbc_put_le64(body + 1, 0);
                zbc_put_le64(body + 9, rnd(5000));
                body[17] = 1;
                zbc_put_le16(body + 18, pl);
                memcpy(body + 20, params, pl);
                rtx(&f, k, ZBC_TX_APP_CREATE, body, 20u + pl);
                bets++;
            } else if (kind <= 3) {
                zbc_put_le64(body, id);
                rtx(&f, k, ZBC_TX_APP_JOIN, body, 8);
            } else if (kind <= 7) {
                zbc_put_le64(body, id);
                uint16_t len = rnd(8) == 0 ? 0 : 1;
                zbc_put_le16(body + 8, len);
                body[10] = (uint8_t)rnd(9);
                rtx(&f, k, ZBC_TX_APP_MOVE, body, 10u + len);
            } else if (kind == 8) {
                zbc_put_le64(body, id);
                rtx(&f, k, rnd(3) == 0 ? ZBC_TX_APP_RESIGN : ZBC_TX_APP_CLAIM,
                    body, 8);
            } else {
                zbc_put_le64(body, id);
                rtx(&f, k, ZBC_TX_APP_CLAIM, body, 8);
            }
        }
        if (hand) {
            CHECK(ax_block(&f, &ev));
        } else {
            (void)ax_build_replay(&f, &mi, &ev);
            ax_mirror_free(&mi);
        }
        CHECK(zbc_state_check_root(&f.s, &err));
        noops += ax_count(&ev, ZBC_EVENT_NOOP);
        ends += ax_count(&ev, ZBC_EVENT_APP_END);
        claims += ax_count(&ev, ZBC_EVENT_APP_CLAIM);
        zbc_events_free(&ev);
    }
    fprintf(stderr, "random play: %u no-ops, %u endings, %u claims, %u bets\n", noops, ends, claims, bets);
    /* the run reached the paths it is meant to cover */
    CHECK(noops > 50);
    CHECK(ends > 5);
    CHECK(claims > 0);
    CHECK(bets > 5);
    fx_free(&f);
}

int main(void)
{
    TEST_RUN(test_builder_and_replay_agree);
    TEST_RUN(test_first_turn_deadline);
    TEST_RUN(test_open_renumbering);
    TEST_RUN(test_designated_opponent);
    TEST_RUN(test_random_play);
    return test_summary("consensus_apps_edges");
}
