/* Every game engine played on chain at once, as players would: one app of
 * each engine (a new one as soon as the last ended), with 1 to 4 seats
 * among four accounts, moves picked from the engine's own legal moves
 * (rock-paper-scissors: commitments and their reveals) and sometimes garbage, resignations, and seats that stall until another
 * claims the timeout (move_deadline 4).  Every block is built by the
 * producer path and replayed by a second node through the wire format
 * (ax_build_replay: the same store, events and undo record, the money
 * invariant, the state root rescanned).  Every game
 * that ends is checked to pay out exactly what was staked: the seats'
 * payouts plus the rake equal the stakes (multi-seat), and a solo game
 * returns floor(stake x value / 10000) and its pot's rest to the fund.
 *
 * The engines' own consistency is fuzzed (tests/fuzz/fuzz_engine.c);
 * this is the same games through consensus: pending dice moves, the first
 * seat's draw, clocks, claims, solo escrows, settlement. */
#define AX_SLOTS 64
#include "apps_fixture.h"

#include "apps/engine.h"
#include "apps/games/rps.h"

#define STAKE 1000
#define PLAYERS 4

#ifdef ZBC_PLAYOUTS_REFUSING
/* Built a second time (test_consensus_apps_playouts_refusing) linked with
 * -Wl,--wrap=zbc_engine_by_type: every engine the consensus code looks up
 * refuses in apply_move one move in eight that check_move accepts,
 * chosen by a hash of the state and the move — an inconsistent engine,
 * deterministic as consensus needs.  The chain must go on as before:
 * refused pending moves discarded (with a solo step's stake refunded),
 * refused moves in transactions left out of blocks, the clock's refused
 * move ending its loop (docs/protocol-apps.md §5, §13). */
const struct zbc_engine *__real_zbc_engine_by_type(uint8_t type);
const struct zbc_engine *__wrap_zbc_engine_by_type(uint8_t type);

static struct zbc_engine refusing[256];
static const struct zbc_engine *looked_up; /* zbc_app_play's engine */

static int refuse_some(struct zbc_game_state *st, uint8_t seat,
                       const uint8_t *move, size_t len,
                       struct zbc_roll *rolls, struct zbc_err *err)
{
    const struct zbc_engine *e = looked_up;
    uint8_t h[32];
    zbc_sha3_256(h, st->b, e->state_size);
    for (size_t i = 0; i < len; i++)
        h[i % 32] ^= move[i];
    zbc_sha3_256(h, h, 32);
    if (h[0] % 8 == 0 && e->check_move(st, seat, move, len, err))
        return zbc_fail(err, "this engine refuses one move in eight (test)");
    return e->apply_move(st, seat, move, len, rolls, err);
}

const struct zbc_engine *__wrap_zbc_engine_by_type(uint8_t type)
{
    const struct zbc_engine *e = __real_zbc_engine_by_type(type);
    if (e == NULL)
        return NULL;
    looked_up = e;
    refusing[type] = *e;
    refusing[type].apply_move = refuse_some;
    return &refusing[type];
}
#endif

static uint64_t rs;
static uint32_t rnd(uint32_t n)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return (uint32_t)(rs % n);
}

struct game {
    const struct zbc_engine *e;
    uint64_t id;
    unsigned first_player; /* the creator; joiners follow in order */
    uint32_t stall_until;  /* the seat to move sends nothing until then */
    /* rps: each seat's last committed choice and salt, as a wallet keeps */
    uint8_t choice[2], salt[2][ZBC_RPS_SALT_LEN];
};

/* Rock-paper-scissors, whose moves gen_moves cannot list: the seat reveals
 * what it committed when that is legal, else commits a new choice. */
static void rps_move(struct fx *f, struct game *g, const struct zbc_app *a,
                     const struct fx_key *k, uint8_t seat)
{
    uint8_t mv[2 + ZBC_RPS_SALT_LEN];
    struct zbc_err err;
    mv[0] = 1;
    mv[1] = g->choice[seat];
    memcpy(mv + 2, g->salt[seat], ZBC_RPS_SALT_LEN);
    if (zbc_app_check_move(a, seat, mv, sizeof mv, &err)) {
        ax_move(f, k, a->id, mv, sizeof mv);
        return;
    }
    g->choice[seat] = (uint8_t)(ZBC_RPS_ROCK + rnd(3));
    for (size_t i = 0; i < ZBC_RPS_SALT_LEN; i++)
        g->salt[seat][i] = (uint8_t)rnd(256);
    mv[0] = 0;
    CHECK(zbc_rps_commitment(mv + 1, g->choice[seat], g->salt[seat], &err));
    ax_move(f, k, a->id, mv, 33);
}

struct tally {
    unsigned played;  /* games ended by a move (win, draw, cash-out, bust) */
    unsigned resigns, timeouts, garbage, discards, moves, other;
    unsigned applied[256]; /* app_move events by engine type */
};

static const struct fx_key *player(struct fx *f, unsigned i)
{
    const struct fx_key *k[PLAYERS] = {&f->a, &f->b, &f->c, &f->fund};
    return k[i % PLAYERS];
}

static const struct fx_key *key_of(struct fx *f, const struct zbc_addr *a)
{
    for (unsigned i = 0; i < PLAYERS; i++)
        if (zbc_addr_equal(&player(f, i)->addr, a))
            return player(f, i);
    return NULL;
}

static void create(struct fx *f, struct game *g)
{
    const struct zbc_engine *e = g->e;
    uint8_t seats = (uint8_t)(e->min_seats + rnd(e->max_seats - e->min_seats + 1u));
    /* the apps fund does not play solo games against itself */
    g->first_player = seats == 1 ? rnd(3) : rnd(PLAYERS);
    /* a solo game's largest return must stay within 1 % of the fund
     * (mines' default board returns up to 2,277x) */
    g->id = ax_create(f, player(f, g->first_player), e->type,
                      seats == 1 ? STAKE / 10 : STAKE, seats, NULL, 0, NULL,
                      FX_FEE);
    g->stall_until = 0;
}

/* What an app that ended paid, against what it held. */
static void check_ended(const struct zbc_app *a, struct tally *t)
{
    const struct zbc_engine *e = zbc_app_engine(a);
    CHECK_EQ_INT(a->pot, 0);
    switch (a->end) {
    case ZBC_END_WIN:
    case ZBC_END_DRAW:
    case ZBC_END_CASHOUT:
    case ZBC_END_BUST:
        t->played++;
        break;
    case ZBC_END_RESIGN:
        t->resigns++;
        break;
    case ZBC_END_TIMEOUT:
        t->timeouts++;
        break;
    default:
        t->other++;
    }
    if (a->seats > 1) {
        uint64_t out = a->rake;
        for (uint8_t i = 0; i < a->n_seated; i++)
            out += a->paid[i];
        CHECK_EQ_INT(out, a->stake * a->n_seated);
        return;
    }
    static struct zbc_game_state st;
    struct zbc_err err;
    CHECK(e->decode(&st, a->state, a->state_len, &err));
    CHECK_EQ_INT(a->paid[0], a->stake * e->solo->value(&st) / 10000);
}

/* The next transaction of an app, if any: a move of the seat holding the
 * clock (legal, garbage or none), a join for an open seat, a claim. */
static void act(struct fx *f, struct game *g, const struct zbc_app *a,
                struct tally *t)
{
    static struct zbc_game_state st;
    static struct zbc_move moves[ZBC_MOVES_MAX];
    struct zbc_err err;
    if (a->status == ZBC_APP_OPEN) {
        /* the next player in order joins (a join refused now is a no-op) */
        ax_ref(f, player(f, g->first_player + a->n_seated), ZBC_TX_APP_JOIN,
               a->id);
        return;
    }
    if (a->clock >= a->seats) {
        /* nobody holds the clock (a move pending, the first seat not drawn,
         * a game over): a seat claims now and then, a no-op */
        if (a->seats > 1 && rnd(20) == 0)
            ax_ref(f, key_of(f, &a->seat[rnd(a->n_seated)]),
                   ZBC_TX_APP_CLAIM, a->id);
        return;
    }
    const struct fx_key *k = key_of(f, &a->seat[a->clock]);
    CHECK(k != NULL);
    if (f->tip.height + 1 > a->deadline && a->seats > 1) {
        /* the clock holder stalled past its deadline: another seat claims */
        uint8_t other = (uint8_t)((a->clock + 1 + rnd(a->n_seated - 1u)) %
                                  a->n_seated);
        ax_ref(f, key_of(f, &a->seat[other]), ZBC_TX_APP_CLAIM, a->id);
        return;
    }
    /* now and then the seat to move walks away for longer than its
     * deadline (move_deadline 4): another seat claims, or the node's clock
     * settles a solo game */
    if (rnd(100) < 2)
        g->stall_until = f->tip.height + 6;
    if (f->tip.height < g->stall_until)
        return;
    if (a->seats > 1 && rnd(200) == 0) {
        ax_ref(f, k, ZBC_TX_APP_RESIGN, a->id);
        return;
    }
    if (g->e == &zbc_engine_rps) {
        rps_move(f, g, a, k, a->clock);
        t->moves++;
        return;
    }
    CHECK(zbc_app_engine(a)->decode(&st, a->state, a->state_len, &err));
    size_t n = g->e->gen_moves(&st, moves, ZBC_MOVES_MAX);
    if (n == 0 || rnd(100) < 3) {
        uint8_t junk[3] = {(uint8_t)rnd(256), (uint8_t)rnd(256),
                           (uint8_t)rnd(256)};
        ax_move(f, k, a->id, junk, (uint16_t)(1 + rnd(3)));
        t->garbage++;
        return;
    }
    const struct zbc_move *m = &moves[rnd((uint32_t)n)];
    ax_move(f, k, a->id, m->b, m->len);
    t->moves++;
}

static void play_seed(uint64_t seed, uint32_t blocks, struct tally *t)
{
    rs = seed;
    struct fx f;
    fx_init(&f);
    f.g.move_deadline = 4;
    ax_fund(&f);
    struct ax_mirror mi;
    ax_mirror_init(&mi, &f);
    struct zbc_events ev = {0};
    static struct game games[32];
    size_t n_games = 0;
    const struct zbc_engine *const *es = zbc_engines();
    for (size_t i = 0; es[i] != NULL; i++) {
        if (es[i]->secret_params)
            continue; /* battleship: its params commit to a secret board */
        games[n_games].e = es[i];
        create(&f, &games[n_games++]);
    }
    CHECK(ax_build_replay(&f, &mi, &ev) == n_games);
    zbc_events_free(&ev);
    static struct zbc_app a;
    for (uint32_t b = 0; b < blocks; b++) {
        /* the fund keeps the players' fees and stakes paid */
        if (b % 8 == 0)
            for (unsigned p = 0; p < 3; p++) {
                uint32_t i = ax_n++;
                ax_refs[i].bytes = ax_buf[i];
                ax_refs[i].len = (uint32_t)fx_send(
                    ax_buf[i], &f, &f.fund, &player(&f, p)->addr, 60000,
                    FX_FEE, fx_now_s(&f) - (int64_t)i);
            }
        for (size_t i = 0; i < n_games; i++) {
            struct game *g = &games[i];
            ax_app(&f, g->id, &a);
            if (a.status == ZBC_APP_FINISHED || a.status == ZBC_APP_ABANDONED) {
                check_ended(&a, t);
                create(&f, g);
                continue;
            }
            act(&f, g, &a, t);
        }
        ax_build_replay(&f, &mi, &ev);
        t->discards += (unsigned)ax_count(&ev, ZBC_EVENT_APP_DISCARD);
        for (size_t i = 0; i < ev.n; i++)
            for (size_t j = 0; j < n_games; j++)
                if (ev.e[i].kind == ZBC_EVENT_APP_MOVE &&
                    ev.e[i].ref == games[j].id)
                    t->applied[games[j].e->type]++;
        zbc_events_free(&ev);
        if (test_failures > 0)
            break; /* the first failure says it: not a thousand after it */
    }
    ax_mirror_free(&mi);
    fx_free(&f);
}

static void test_every_engine_on_chain(void)
{
    struct tally t = {0};
    /* the gcc build plays 4 runs of 100 blocks, the sanitizers one */
    int runs = test_scaled(4);
    for (int r = 0; r < runs && test_failures == 0; r++)
        play_seed(0x9E3779B97F4A7C15ull * (uint64_t)(r + 1), 100, &t);
    printf("on chain: %u moves, %u garbage moves, %u games ended by play, %u "
           "by resignation, %u by timeout, %u otherwise; %u pending moves "
           "discarded\n",
           t.moves, t.garbage, t.played, t.resigns, t.timeouts, t.other,
           t.discards);
    /* the run reached what it is meant to cover */
    CHECK(t.played > 20);
    const struct zbc_engine *const *es = zbc_engines();
    for (size_t i = 0; es[i] != NULL; i++) {
        if (es[i]->secret_params)
            continue;
        printf("  %-10s %5u moves applied\n", es[i]->name, t.applied[es[i]->type]);
#ifndef ZBC_PLAYOUTS_REFUSING
        /* (refusing, a game whose one move is refused waits for a claim) */
        CHECK(t.applied[es[i]->type] >= 10);
#endif
    }
    CHECK(t.resigns > 0);
    CHECK(t.timeouts > 0);
#ifdef ZBC_PLAYOUTS_REFUSING
    CHECK(t.discards > 10);
#else
    CHECK_EQ_INT(t.discards, 0); /* consistent engines */
#endif
}

int main(void)
{
    TEST_RUN(test_every_engine_on_chain);
#ifdef ZBC_PLAYOUTS_REFUSING
    return test_summary("consensus_apps_playouts_refusing");
#else
    return test_summary("consensus_apps_playouts");
#endif
}
