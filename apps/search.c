/* The generic game-tree search (search.h; docs/games.md, "Machine
 * opponents"). */
#include "apps/search.h"

#include <string.h>

#define INF (ZBC_SEARCH_WIN + 1)

/* Depth limit per level: 1 greedy, 2, 4, 6, then as deep as the budget
 * allows (ZBC_SEARCH_PLY_MAX). */
static const uint8_t LEVEL_DEPTH[ZBC_SEARCH_LEVEL_MAX + 1] = {0, 1, 2, 4, 6, ZBC_SEARCH_PLY_MAX};
static const uint64_t LEVEL_NODES[ZBC_SEARCH_LEVEL_MAX + 1] = {
    0, 10000, 20000, 100000, 500000, 2000000};

uint8_t zbc_search_level_depth(uint8_t level)
{
    return level <= ZBC_SEARCH_LEVEL_MAX ? LEVEL_DEPTH[level] : 0;
}

uint64_t zbc_search_level_nodes(uint8_t level)
{
    return level <= ZBC_SEARCH_LEVEL_MAX ? LEVEL_NODES[level] : 0;
}

static int32_t terminal_score(const struct zbc_result *r, uint8_t me, int ply)
{
    if (r->kind != ZBC_RESULT_WIN)
        return 0;
    return r->winner == me ? ZBC_SEARCH_WIN - ply : -(ZBC_SEARCH_WIN - ply);
}

static int32_t leaf_eval(const struct zbc_engine *e, const struct zbc_game_state *st, uint8_t me)
{
    if (e->eval == NULL)
        return 0;
    int32_t v = e->eval(st, me);
    if (v > ZBC_SEARCH_EVAL_MAX)
        return ZBC_SEARCH_EVAL_MAX;
    if (v < -ZBC_SEARCH_EVAL_MAX)
        return -ZBC_SEARCH_EVAL_MAX;
    return v;
}

static bool same_move(const struct zbc_move *a, const struct zbc_move *b)
{
    return a->len == b->len && a->len > 0 && memcmp(a->b, b->b, a->len) == 0;
}

/* Moves the entry equal to m (if any) to the front. */
static void to_front(struct zbc_move *moves, size_t n, const struct zbc_move *m)
{
    for (size_t i = 1; i < n; i++)
        if (same_move(&moves[i], m)) {
            struct zbc_move t = moves[0];
            moves[0] = moves[i];
            moves[i] = t;
            return;
        }
}

static void shuffle(struct zbc_move *moves, size_t n, const struct zbc_search_limits *lim)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = lim->uniform(lim->rand_ctx, (uint32_t)i);
        if (j >= i)
            j = i - 1; /* a broken source must not take us out of bounds */
        struct zbc_move t = moves[i - 1];
        moves[i - 1] = moves[j];
        moves[j] = t;
    }
}

static bool budget_spent(struct zbc_search_ws *ws)
{
    ws->nodes++;
    if (ws->nodes >= ws->max_nodes)
        ws->stopped = true;
    else if ((ws->nodes & 255) == 0 && ws->lim->stop != NULL && ws->lim->stop(ws->lim->stop_ctx))
        ws->stopped = true;
    return ws->stopped;
}

/* Minimax with alpha-beta from `me`'s side over the position in
 * ws->ply[ply].st, `depth` plies deep.  The seat to move is asked each
 * time (passes and extra turns need no special case). */
static int32_t alphabeta(struct zbc_search_ws *ws, const struct zbc_engine *e, int ply, int depth,
                         int32_t alpha, int32_t beta, uint8_t me)
{
    const struct zbc_game_state *st = &ws->ply[ply].st;
    if (budget_spent(ws))
        return 0;
    int turn = e->turn(st);
    if (turn == ZBC_NOBODY) {
        struct zbc_result r;
        e->result(st, &r);
        return terminal_score(&r, me, ply);
    }
    if (depth <= 0 || ply >= ZBC_SEARCH_PLY_MAX) {
        ws->cut = true;
        return leaf_eval(e, st, me);
    }
    struct zbc_move *moves = ws->ply[ply].moves;
    size_t n = e->gen_moves(st, moves, ZBC_MOVES_MAX);
    if (n == 0) {
        ws->cut = true;
        return leaf_eval(e, st, me);
    }
    to_front(moves, n, &ws->killer[ply]);
    bool maxing = turn == (int)me;
    int32_t best = maxing ? -INF : INF;
    struct zbc_game_state *child = &ws->ply[ply + 1].st;
    for (size_t i = 0; i < n; i++) {
        struct zbc_err err;
        memcpy(child, st, sizeof *child);
        if (!e->apply_move(child, (uint8_t)turn, moves[i].b, moves[i].len, NULL, &err))
            continue; /* gen_moves lists legal moves only; skip rather than trust */
        int32_t v = alphabeta(ws, e, ply + 1, depth - 1, alpha, beta, me);
        if (ws->stopped)
            return 0;
        if (maxing ? v > best : v < best)
            best = v;
        if (maxing && best > alpha)
            alpha = best;
        if (!maxing && best < beta)
            beta = best;
        if (alpha >= beta) {
            ws->killer[ply] = moves[i];
            break;
        }
    }
    if (best == INF || best == -INF)
        return leaf_eval(e, st, me);
    return best;
}

/* Iterative deepening over the root moves in ws->ply[0].moves[0..n). */
static void deepen(struct zbc_search_ws *ws, const struct zbc_engine *e, size_t n, uint8_t me,
                   uint8_t max_depth, struct zbc_search_out *out)
{
    struct zbc_move *root = ws->ply[0].moves;
    out->move = root[0];
    out->score = 0;
    out->depth = 0;
    for (uint8_t d = 1; d <= max_depth; d++) {
        ws->cut = false;
        int32_t alpha = -INF, best = -INF;
        size_t best_i = n;
        for (size_t i = 0; i < n; i++) {
            struct zbc_err err;
            struct zbc_game_state *child = &ws->ply[1].st;
            memcpy(child, &ws->ply[0].st, sizeof *child);
            if (!e->apply_move(child, me, root[i].b, root[i].len, NULL, &err))
                continue;
            int32_t v = alphabeta(ws, e, 1, d - 1, alpha, INF, me);
            if (ws->stopped)
                break;
            if (v > best) {
                best = v;
                best_i = i;
                alpha = v;
            }
        }
        /* A partial iteration searched the previous best first: a later
         * move that beat it is better at this depth too. */
        if (best_i < n) {
            out->move = root[best_i];
            out->score = best;
            to_front(root, n, &root[best_i]);
        }
        if (ws->stopped)
            return;
        out->depth = d;
        if (!ws->cut || best >= ZBC_SEARCH_WIN - ZBC_SEARCH_PLY_MAX ||
            best <= -(ZBC_SEARCH_WIN - ZBC_SEARCH_PLY_MAX)) {
            out->proven = true;
            return;
        }
    }
}

/* One ply for games of 3-4 seats and dice games: each move's position
 * (dice: the mean over sampled literal roll streams) scored for `me`. */
static int32_t policy_value(struct zbc_search_ws *ws, const struct zbc_engine *e,
                            const struct zbc_move *m, uint8_t me, uint64_t samples)
{
    const struct zbc_search_limits *lim = ws->lim;
    int64_t sum = 0;
    unsigned counted = 0;
    struct zbc_game_state *child = &ws->ply[1].st;
    for (uint64_t k = 0; k < samples; k++) {
        struct zbc_roll roll, *rolls = NULL;
        struct zbc_err err;
        if (e->dice) {
            uint8_t bytes[64];
            for (size_t i = 0; i < sizeof bytes; i += 2) {
                uint32_t v = lim->uniform(lim->rand_ctx, 65536);
                bytes[i] = (uint8_t)v;
                bytes[i + 1] = (uint8_t)(v >> 8);
            }
            if (!zbc_roll_init_literal(&roll, bytes, sizeof bytes))
                return 0;
            rolls = &roll;
        }
        memcpy(child, &ws->ply[0].st, sizeof *child);
        if (counted > 0 && budget_spent(ws))
            break; /* the mean so far (one sample at least) */
        if (!e->apply_move(child, me, m->b, m->len, rolls, &err))
            continue;
        struct zbc_result r;
        e->result(child, &r);
        sum += r.kind == ZBC_RESULT_ONGOING ? leaf_eval(e, child, me) : terminal_score(&r, me, 1);
        counted++;
    }
    return counted == 0 ? -INF : (int32_t)(sum / counted);
}

int zbc_search_best(const struct zbc_engine *e, const struct zbc_game_state *st, uint8_t seats,
                    uint8_t seat, const struct zbc_search_limits *lim, struct zbc_search_ws *ws,
                    struct zbc_search_out *out, struct zbc_err *err)
{
    memset(out, 0, sizeof *out);
    if (lim->level > ZBC_SEARCH_LEVEL_MAX)
        return zbc_fail(err, "level %u is above the strongest, %u", lim->level,
                        ZBC_SEARCH_LEVEL_MAX);
    if (lim->uniform == NULL)
        return zbc_fail(err, "the search needs a random source");
    int turn = e->turn(st);
    if (turn == ZBC_NOBODY)
        return zbc_fail(err, "the game is over");
    if (turn != (int)seat)
        return zbc_fail(err, "not our turn: seat %d is to move", turn);
    memcpy(&ws->ply[0].st, st, sizeof *st);
    memset(ws->killer, 0, sizeof ws->killer);
    ws->lim = lim;
    ws->nodes = 0;
    ws->stopped = false;
    ws->max_nodes = lim->max_nodes != 0 ? lim->max_nodes : zbc_search_level_nodes(lim->level);
    if (ws->max_nodes == 0)
        ws->max_nodes = 1;
    struct zbc_move *root = ws->ply[0].moves;
    size_t n = e->gen_moves(st, root, ZBC_MOVES_MAX);
    if (n == 0)
        return zbc_fail(err, "%s lists no move for seat %u here (a commitment or reveal is due)",
                        e->name, seat);
    out->legal = n;
    shuffle(root, n, lim);
    out->move = root[0];
    if (lim->level == 0) {
        out->depth = 0;
    } else if (seats > 2 || e->dice) {
        /* the budget shared by the moves: at least one sample each */
        uint64_t samples = e->dice ? ZBC_SEARCH_DICE_SAMPLES : 1;
        if (samples * n > ws->max_nodes)
            samples = ws->max_nodes / n > 0 ? ws->max_nodes / n : 1;
        int32_t best = -INF - 1;
        for (size_t i = 0; i < n; i++) {
            int32_t v = policy_value(ws, e, &root[i], seat, samples);
            if (v > best) {
                best = v;
                out->move = root[i];
                out->score = v;
            }
        }
        out->depth = 1;
    } else {
        deepen(ws, e, n, seat, zbc_search_level_depth(lim->level), out);
    }
    out->nodes = ws->nodes;
    if (!e->check_move(st, seat, out->move.b, out->move.len, err))
        return 0; /* gen_moves listed a move check_move refuses: an engine bug */
    return 1;
}
