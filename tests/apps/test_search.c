/* The generic search (apps/search.h; docs/games.md, "Machine opponents"):
 *   - tic-tac-toe at the strongest level never loses, over every line the
 *     opponent can play, as X and as O;
 *   - connect-4 at the strongest level beats a uniformly random player in
 *     100 of 100 games (seeded; 5000 nodes a move);
 *   - chess at level 3 (3000 nodes a move) beats a random player in at
 *     least 19 of 20 games (seeded);
 *   - over random positions of every engine, every level returns a move
 *     gen_moves lists and check_move accepts;
 *   - wins sooner, loses later; pig holds from a turn total of 20;
 *   - battleship fires next to a hit (hunt and target);
 *   - the refusals (level, turn, game over, nothing listable) and a stop()
 *     that fires at once still answer a legal move;
 *   - eval is antisymmetric in 2-seat games. */
#include <stdlib.h>

#include "apps/engine.h"
#include "apps/games/battleship.h"
#include "apps/search.h"
#include "play_helpers.h"
#include "testlib.h"

static struct zbc_search_ws *ws;
static uint64_t seed = 0x5eed;

static uint32_t uniform(void *ctx, uint32_t n)
{
    return (uint32_t)(ph_rand((uint64_t *)ctx) % n);
}

static struct zbc_search_limits limits(uint8_t level, uint64_t nodes)
{
    struct zbc_search_limits l = {.level = level, .max_nodes = nodes, .uniform = uniform,
                                  .rand_ctx = &seed};
    return l;
}

static int bot_move(const struct zbc_engine *e, struct zbc_game_state *st, uint8_t seats,
                    uint8_t level, uint64_t nodes, struct zbc_search_out *out)
{
    struct zbc_search_limits l = limits(level, nodes);
    struct zbc_err err;
    int seat = e->turn(st);
    if (!zbc_search_best(e, st, seats, (uint8_t)seat, &l, ws, out, &err)) {
        fprintf(stderr, "search failed: %s\n", err.msg);
        return 0;
    }
    return e->apply_move(st, (uint8_t)seat, out->move.b, out->move.len, NULL, &err);
}

static int random_move(const struct zbc_engine *e, struct zbc_game_state *st, uint64_t *rng)
{
    static struct zbc_move moves[ZBC_MOVES_MAX];
    struct zbc_err err;
    size_t n = e->gen_moves(st, moves, ZBC_MOVES_MAX);
    if (n == 0)
        return 0;
    const struct zbc_move *m = &moves[ph_rand(rng) % n];
    return e->apply_move(st, (uint8_t)e->turn(st), m->b, m->len, NULL, &err);
}

/* ---- tic-tac-toe: never loses ---- */

static long ttt_lines, ttt_losses, ttt_wins;

static void ttt_walk(const struct zbc_engine *e, const struct zbc_game_state *st, uint8_t bot)
{
    int turn = e->turn(st);
    if (turn == ZBC_NOBODY) {
        struct zbc_result r;
        e->result(st, &r);
        ttt_lines++;
        if (r.kind == ZBC_RESULT_WIN)
            *(r.winner == bot ? &ttt_wins : &ttt_losses) += 1;
        return;
    }
    struct zbc_game_state *next = malloc(sizeof *next);
    if (next == NULL)
        abort();
    if (turn == bot) {
        memcpy(next, st, sizeof *next);
        struct zbc_search_out out;
        CHECK(bot_move(e, next, 2, ZBC_SEARCH_LEVEL_MAX, 0, &out));
        CHECK(out.proven);
        ttt_walk(e, next, bot);
    } else {
        struct zbc_move moves[9];
        size_t n = e->gen_moves(st, moves, 9);
        for (size_t i = 0; i < n; i++) {
            struct zbc_err err;
            memcpy(next, st, sizeof *next);
            CHECK(e->apply_move(next, (uint8_t)turn, moves[i].b, 1, NULL, &err));
            ttt_walk(e, next, bot);
        }
    }
    free(next);
}

static void test_tictactoe_never_loses(void)
{
    seed = 0x5eed; /* the figures in docs/games.md do not depend on the other cases */
    const struct zbc_engine *e = zbc_engine_by_name("tictactoe");
    static struct zbc_game_state st;
    struct zbc_err err;
    for (uint8_t first = 0; first < 2; first++) {
        ttt_lines = ttt_losses = ttt_wins = 0;
        CHECK(e->init(&st, 2, NULL, 0, first, NULL, &err));
        ttt_walk(e, &st, 0);
        printf("tic-tac-toe, bot %s: %ld opponent lines, %ld won, %ld lost\n",
               first == 0 ? "X" : "O", ttt_lines, ttt_wins, ttt_losses);
        CHECK_EQ_INT(ttt_losses, 0);
        CHECK(ttt_lines > (first == 0 ? 20 : 100));
        CHECK(ttt_wins > 0);
    }
}

/* ---- connect-4 and chess against a random player ---- */

static int play_vs_random(const struct zbc_engine *e, uint8_t bot_first, uint8_t level,
                          uint64_t nodes, uint64_t *rng, int *plies)
{
    static struct zbc_game_state st;
    struct zbc_err err;
    if (!e->init(&st, 2, NULL, 0, bot_first ? 0 : 1, NULL, &err))
        return -1;
    *plies = 0;
    for (int turn; (turn = e->turn(&st)) != ZBC_NOBODY; (*plies)++) {
        struct zbc_search_out out;
        if (turn == 0 ? !bot_move(e, &st, 2, level, nodes, &out) : !random_move(e, &st, rng))
            return -1;
    }
    struct zbc_result r;
    e->result(&st, &r);
    return r.kind == ZBC_RESULT_WIN ? (r.winner == 0 ? 1 : 0) : 2;
}

static void test_connect4_beats_random(void)
{
    seed = 0x5eed; /* the figures in docs/games.md do not depend on the other cases */
    const struct zbc_engine *e = zbc_engine_by_name("connect4");
    uint64_t rng = 42;
    int wins = 0, plies = 0, total = 0, games = test_scaled(100);
    for (int g = 0; g < games; g++) {
        int r = play_vs_random(e, (uint8_t)(g & 1), ZBC_SEARCH_LEVEL_MAX, 5000, &rng, &plies);
        CHECK(r >= 0);
        wins += r == 1;
        total += plies;
    }
    printf("connect-4, strongest level, 5000 nodes a move: %d of %d won against random "
           "(%d plies)\n", wins, games, total);
    CHECK_EQ_INT(wins, games);
}

static void test_chess_beats_random(void)
{
    seed = 0x5eed; /* the figures in docs/games.md do not depend on the other cases */
    const struct zbc_engine *e = zbc_engine_by_name("chess");
    uint64_t rng = 7;
    int wins = 0, draws = 0, plies = 0, total = 0, games = test_scaled(20);
    for (int g = 0; g < games; g++) {
        int r = play_vs_random(e, (uint8_t)(g & 1), 3, 3000, &rng, &plies);
        CHECK(r >= 0);
        wins += r == 1;
        draws += r == 2;
        total += plies;
    }
    printf("chess, level 3, 3000 nodes a move: %d won, %d drawn of %d against random "
           "(%d plies)\n", wins, draws, games, total);
    CHECK(wins >= games - 1);
}

/* ---- every engine: the move returned is legal ---- */

static void roll_for(struct zbc_roll *r, uint64_t a, uint64_t b)
{
    uint8_t s[32] = {0}, tag[16];
    memcpy(s, &a, 8);
    memcpy(tag, &a, 8);
    memcpy(tag + 8, &b, 8);
    zbc_roll_init(r, s, tag, sizeof tag);
}

static bool listed(const struct zbc_engine *e, const struct zbc_game_state *st,
                   const struct zbc_move *m)
{
    static struct zbc_move moves[ZBC_MOVES_MAX];
    size_t n = e->gen_moves(st, moves, ZBC_MOVES_MAX);
    for (size_t i = 0; i < n; i++)
        if (moves[i].len == m->len && memcmp(moves[i].b, m->b, m->len) == 0)
            return true;
    return false;
}

static void test_every_engine_legal(void)
{
    static struct zbc_game_state st;
    static struct zbc_move moves[ZBC_MOVES_MAX];
    uint64_t rng = 99;
    for (const struct zbc_engine *const *ep = zbc_engines(); *ep != NULL; ep++) {
        const struct zbc_engine *e = *ep;
        int searched = 0;
        for (uint8_t seats = e->min_seats; seats <= e->max_seats; seats++)
            for (int game = 0; game < 3; game++) {
                struct zbc_err err;
                struct zbc_roll roll;
                roll_for(&roll, (uint64_t)game, 1000);
                if (!e->init(&st, seats, NULL, 0, 0, e->start_rolls ? &roll : NULL, &err))
                    break; /* battleship: its params are a commitment */
                for (int ply = 0; ply < 400 && e->turn(&st) != ZBC_NOBODY; ply++) {
                    uint8_t seat = (uint8_t)e->turn(&st);
                    size_t n = e->gen_moves(&st, moves, ZBC_MOVES_MAX);
                    if (n == 0)
                        break; /* a commitment is due (rps) */
                    if (ph_rand(&rng) % 7 == 0) {
                        uint8_t level = (uint8_t)(ph_rand(&rng) % (ZBC_SEARCH_LEVEL_MAX + 1));
                        struct zbc_search_limits l = limits(level, 300);
                        struct zbc_search_out out;
                        CHECK(zbc_search_best(e, &st, seats, seat, &l, ws, &out, &err));
                        CHECK(e->check_move(&st, seat, out.move.b, out.move.len, &err));
                        CHECK(listed(e, &st, &out.move));
                        CHECK(out.legal == n);
                        searched++;
                    }
                    const struct zbc_move *m = &moves[ph_rand(&rng) % n];
                    roll_for(&roll, (uint64_t)game, (uint64_t)ply);
                    CHECK(e->apply_move(&st, seat, m->b, m->len, e->dice ? &roll : NULL, &err));
                }
            }
        printf("%-10s %d searches\n", e->name, searched);
        /* battleship and rps list no move while a secret is due; a solo
         * game against the fund (blackjack: deal, then often over at once)
         * may end before a search is drawn: it has no opponent to play */
        if (!e->secret_moves && e->solo == NULL)
            CHECK(searched > 0);
    }
}

/* ---- scores, policies, refusals ---- */

static void test_win_sooner(void)
{
    const struct zbc_engine *e = zbc_engine_by_name("tictactoe");
    static struct zbc_game_state st;
    struct zbc_err err;
    CHECK(e->init(&st, 2, NULL, 0, 0, NULL, &err));
    /* X on 1 2 4, O on 6 7 8, X (seat 0) to move: 3 is the one immediate
     * win (anything else lets O complete 7-8-9). */
    CHECK_EQ_INT(ph_play(e, &st, "1, 7, 2, 8, 4, 6", &err), -1);
    for (int i = 0; i < 20; i++) {
        struct zbc_search_limits l = limits(ZBC_SEARCH_LEVEL_MAX, 0);
        struct zbc_search_out out;
        CHECK(zbc_search_best(e, &st, 2, 0, &l, ws, &out, &err));
        CHECK_EQ_INT(out.move.b[0], 2);
        CHECK_EQ_INT(out.score, ZBC_SEARCH_WIN - 1);
    }
    /* X on 1 and 5, O on 2, O (seat 1) to move: O is lost (after 9, X
     * forks with 4 or 7), but it blocks 9 and loses at ply 4 rather than
     * at ply 2. */
    CHECK(e->init(&st, 2, NULL, 0, 0, NULL, &err));
    CHECK_EQ_INT(ph_play(e, &st, "1, 2, 5", &err), -1);
    struct zbc_search_limits l = limits(ZBC_SEARCH_LEVEL_MAX, 0);
    struct zbc_search_out out;
    CHECK(zbc_search_best(e, &st, 2, 1, &l, ws, &out, &err));
    CHECK_EQ_INT(out.move.b[0], 8); /* the only square that stops 1-5-9 */
    CHECK(out.proven);
    CHECK(out.score <= -(ZBC_SEARCH_WIN - 10));
    CHECK(out.score < 0 && out.score > -(ZBC_SEARCH_WIN - 2));
}

static void pig_with_total(struct zbc_game_state *st, int sixes)
{
    const struct zbc_engine *e = zbc_engine_by_name("pig");
    struct zbc_err err;
    CHECK(e->init(st, 2, NULL, 0, 0, NULL, &err));
    for (int i = 0; i < sixes; i++) {
        uint8_t six = 5; /* byte 5 -> 5 % 6 + 1 = 6 */
        struct zbc_roll r;
        CHECK(zbc_roll_init_literal(&r, &six, 1));
        uint8_t roll = 0;
        CHECK(e->apply_move(st, 0, &roll, 1, &r, &err));
    }
}

static void test_pig_threshold(void)
{
    const struct zbc_engine *e = zbc_engine_by_name("pig");
    static struct zbc_game_state st;
    struct zbc_err err;
    int rolls_low = 0, holds_high = 0;
    for (int i = 0; i < 10; i++) {
        struct zbc_search_limits l = limits(ZBC_SEARCH_LEVEL_MAX, 0);
        struct zbc_search_out out;
        pig_with_total(&st, 2); /* turn total 12 */
        CHECK(zbc_search_best(e, &st, 2, 0, &l, ws, &out, &err));
        rolls_low += out.move.b[0] == 0;
        pig_with_total(&st, 5); /* turn total 30 */
        CHECK(zbc_search_best(e, &st, 2, 0, &l, ws, &out, &err));
        holds_high += out.move.b[0] == 1;
    }
    CHECK_EQ_INT(rolls_low, 10);
    CHECK_EQ_INT(holds_high, 10);
}

static void test_battleship_targets_a_hit(void)
{
    const struct zbc_engine *e = &zbc_engine_battleship;
    static struct zbc_game_state st;
    static uint8_t commit[2][ZBC_BATTLESHIP_COMMIT_LEN], move[1 + ZBC_BATTLESHIP_COMMIT_LEN];
    static const uint8_t salts[ZBC_BATTLESHIP_CELLS][ZBC_BATTLESHIP_SALT_LEN];
    uint8_t ship[2][ZBC_BATTLESHIP_CELLS];
    struct zbc_err err;
    int adjacent = 0;
    for (int game = 0; game < 10; game++) {
        for (int s = 0; s < 2; s++) {
            zbc_battleship_random_fleet(ship[s], uniform, &seed);
            CHECK(zbc_battleship_commitment(commit[s], ship[s], salts, &err));
        }
        CHECK(e->init(&st, 2, commit[0], sizeof commit[0], 0, NULL, &err));
        move[0] = 3; /* the joiner's commitment */
        memcpy(move + 1, commit[1], sizeof commit[1]);
        CHECK(e->apply_move(&st, 1, move, sizeof move, NULL, &err));
        int hit = 0, water = 0;
        while (!ship[1][hit])
            hit++;
        while (ship[0][water])
            water++;
        uint8_t fire0[2] = {0, (uint8_t)hit}, fire1[2] = {0, (uint8_t)water};
        uint8_t reveal[2 + ZBC_BATTLESHIP_SALT_LEN] = {1, 1};
        CHECK(e->apply_move(&st, 0, fire0, 2, NULL, &err));
        CHECK(e->apply_move(&st, 1, reveal, sizeof reveal, NULL, &err)); /* a ship */
        CHECK(e->apply_move(&st, 1, fire1, 2, NULL, &err));
        reveal[1] = 0;
        CHECK(e->apply_move(&st, 0, reveal, sizeof reveal, NULL, &err)); /* water */
        struct zbc_search_limits l = limits(ZBC_SEARCH_LEVEL_MAX, 0);
        struct zbc_search_out out;
        CHECK(zbc_search_best(e, &st, 2, 0, &l, ws, &out, &err));
        CHECK_EQ_INT(out.move.len, 2);
        int c = out.move.b[1], d = c > hit ? c - hit : hit - c;
        adjacent += (d == 10 || (d == 1 && c / 10 == hit / 10));
    }
    CHECK_EQ_INT(adjacent, 10);
}

static bool stop_now(void *ctx)
{
    (void)ctx;
    return true;
}

static void test_refusals_and_stop(void)
{
    const struct zbc_engine *e = zbc_engine_by_name("chess");
    static struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_search_out out;
    CHECK(e->init(&st, 2, NULL, 0, 0, NULL, &err));
    struct zbc_search_limits l = limits(ZBC_SEARCH_LEVEL_MAX + 1, 0);
    CHECK(!zbc_search_best(e, &st, 2, 0, &l, ws, &out, &err));
    CHECK_EQ_STR(err.msg, "level 6 is above the strongest, 5");
    l = limits(1, 0);
    CHECK(!zbc_search_best(e, &st, 2, 1, &l, ws, &out, &err));
    CHECK_EQ_STR(err.msg, "not our turn: seat 0 is to move");
    l.uniform = NULL;
    CHECK(!zbc_search_best(e, &st, 2, 0, &l, ws, &out, &err));
    CHECK_EQ_STR(err.msg, "the search needs a random source");
    /* stop() at once: the first iteration is cut, a legal move remains */
    l = limits(ZBC_SEARCH_LEVEL_MAX, 0);
    l.stop = stop_now;
    CHECK(zbc_search_best(e, &st, 2, 0, &l, ws, &out, &err));
    CHECK(e->check_move(&st, 0, out.move.b, out.move.len, &err));
    CHECK(out.nodes <= 300);
    /* a node budget of 1 too */
    l = limits(ZBC_SEARCH_LEVEL_MAX, 1);
    CHECK(zbc_search_best(e, &st, 2, 0, &l, ws, &out, &err));
    CHECK(e->check_move(&st, 0, out.move.b, out.move.len, &err));

    const struct zbc_engine *t = zbc_engine_by_name("tictactoe");
    CHECK(t->init(&st, 2, NULL, 0, 0, NULL, &err));
    CHECK_EQ_INT(ph_play(t, &st, "1, 4, 2, 5, 3", &err), -1);
    l = limits(1, 0);
    CHECK(!zbc_search_best(t, &st, 2, 1, &l, ws, &out, &err));
    CHECK_EQ_STR(err.msg, "the game is over");

    const struct zbc_engine *r = zbc_engine_by_name("rps");
    CHECK(r->init(&st, 2, NULL, 0, 0, NULL, &err));
    int seat = r->turn(&st);
    CHECK(seat >= 0);
    CHECK(!zbc_search_best(r, &st, 2, (uint8_t)seat, &l, ws, &out, &err));
    CHECK_EQ_STR(err.msg, "rps lists no move for seat 0 here (a commitment or reveal is due)");
}

static void test_eval_antisymmetric(void)
{
    static struct zbc_game_state st;
    uint64_t rng = 5;
    int checked = 0;
    for (const struct zbc_engine *const *ep = zbc_engines(); *ep != NULL; ep++) {
        const struct zbc_engine *e = *ep;
        struct zbc_err err;
        struct zbc_roll roll;
        if (e->eval == NULL || e->min_seats > 2 || !e->init(&st, 2, NULL, 0, 0, NULL, &err))
            continue;
        for (int ply = 0; ply < 60 && e->turn(&st) != ZBC_NOBODY; ply++) {
            CHECK_EQ_INT(e->eval(&st, 0), -e->eval(&st, 1));
            checked++;
            roll_for(&roll, 3, (uint64_t)ply);
            static struct zbc_move moves[ZBC_MOVES_MAX];
            size_t n = e->gen_moves(&st, moves, ZBC_MOVES_MAX);
            const struct zbc_move *m = &moves[ph_rand(&rng) % n];
            CHECK(e->apply_move(&st, (uint8_t)e->turn(&st), m->b, m->len, e->dice ? &roll : NULL,
                                &err));
        }
    }
    CHECK(checked > 200);
}

int main(void)
{
    ws = malloc(sizeof *ws);
    if (ws == NULL)
        return 1;
    TEST_RUN(test_win_sooner);
    TEST_RUN(test_refusals_and_stop);
    TEST_RUN(test_pig_threshold);
    TEST_RUN(test_battleship_targets_a_hit);
    TEST_RUN(test_eval_antisymmetric);
    TEST_RUN(test_every_engine_legal);
    TEST_RUN(test_tictactoe_never_loses);
    TEST_RUN(test_connect4_beats_random);
    TEST_RUN(test_chess_beats_random);
    free(ws);
    return test_summary("search");
}
