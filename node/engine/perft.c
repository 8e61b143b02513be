#include "node/engine/perft.h"

#include <stdlib.h>
#include <string.h>

struct walk {
    const struct zbc_engine *e;
    unsigned depth;
    uint64_t *count;
    struct zbc_move *moves; /* depth * ZBC_MOVES_MAX scratch */
    struct zbc_err *err;
};

static bool opponent_passed(const struct walk *w,
                            const struct zbc_game_state *st)
{
    return w->e->opponent_passed != NULL && w->e->opponent_passed(st);
}

/* st is a position reached after `ply` plies; counts its descendants. */
static int walk(struct walk *w, const struct zbc_game_state *st, unsigned ply)
{
    struct zbc_move *moves = w->moves + (size_t)ply * ZBC_MOVES_MAX;
    size_t n = w->e->gen_moves(st, moves, ZBC_MOVES_MAX);
    w->count[ply + 1] += n;
    if (ply + 1 == w->depth || n == 0)
        return 1;
    int seat = w->e->turn(st);
    struct zbc_game_state *child = malloc(sizeof *child);
    if (child == NULL)
        return zbc_fail(w->err, "out of memory");
    int ok = 1;
    for (size_t i = 0; i < n && ok; i++) {
        *child = *st;
        if (!w->e->apply_move(child, (uint8_t)seat, moves[i].b, moves[i].len,
                              NULL, w->err)) {
            ok = zbc_fail_prefix(w->err, "engine refused its own move");
            break;
        }
        if (opponent_passed(w, child)) {
            w->count[ply + 2]++;
            if (ply + 2 < w->depth)
                ok = walk(w, child, ply + 2);
        } else {
            ok = walk(w, child, ply + 1);
        }
    }
    free(child);
    return ok;
}

int zbc_perft(const struct zbc_engine *e, const struct zbc_game_state *st,
              unsigned depth, uint64_t count[ZBC_PERFT_DEPTH_MAX + 1],
              struct zbc_err *err)
{
    if (depth < 1 || depth > ZBC_PERFT_DEPTH_MAX)
        return zbc_fail(err, "perft depth %u out of range 1-%d", depth,
                        ZBC_PERFT_DEPTH_MAX);
    if (e->dice || e->start_rolls)
        return zbc_fail(err, "%s uses dice: perft needs a game without rolls",
                        e->name);
    memset(count, 0, sizeof(uint64_t) * (ZBC_PERFT_DEPTH_MAX + 1));
    count[0] = 1;
    /* one spare level: a pass at the last ply writes count[depth + 1] */
    uint64_t tmp[ZBC_PERFT_DEPTH_MAX + 2] = {0};
    struct walk w = {
        .e = e,
        .depth = depth,
        .count = tmp,
        .moves = malloc(sizeof(struct zbc_move) * ZBC_MOVES_MAX * depth),
        .err = err,
    };
    if (w.moves == NULL)
        return zbc_fail(err, "out of memory");
    int ok = walk(&w, st, 0);
    free(w.moves);
    for (unsigned d = 1; d <= depth; d++)
        count[d] = tmp[d];
    return ok;
}
