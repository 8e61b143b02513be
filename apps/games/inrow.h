/* Shared by the k-in-a-row games (tic-tac-toe, connect-4, gomoku): the
 * longest run of equal marks through a cell, and the check decode() uses
 * that only the last move can have completed a line. */
#ifndef ZBC_GAMES_INROW_H
#define ZBC_GAMES_INROW_H

#include <stdbool.h>
#include <stdint.h>

/* Length of the longest horizontal, vertical or diagonal run of b[c]'s
 * value through cell c of a w x h row-major board. */
static inline int zbc_inrow_run(const uint8_t *b, int w, int h, int c)
{
    static const int DIRS[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
    int best = 0;
    int x0 = c % w, y0 = c / w;
    for (int d = 0; d < 4; d++) {
        int n = 1;
        for (int s = -1; s <= 1; s += 2) {
            int x = x0 + s * DIRS[d][0], y = y0 + s * DIRS[d][1];
            while (x >= 0 && x < w && y >= 0 && y < h && b[y * w + x] == b[c]) {
                n++;
                x += s * DIRS[d][0];
                y += s * DIRS[d][1];
            }
        }
        if (n > best)
            best = n;
    }
    return best;
}

/* The first non-empty (non-zero) cell on a run of at least k, or -1. */
static inline int zbc_inrow_find_line(const uint8_t *b, int w, int h, int k)
{
    for (int c = 0; c < w * h; c++)
        if (b[c] != 0 && zbc_inrow_run(b, w, h, c) >= k)
            return c;
    return -1;
}

/* Eval of the k-in-a-row games (docs/games.md, "Machine opponents"): over
 * every window of k cells in a row, weight[c] for a window holding c marks
 * of `mine` and none of the other mark, minus the same for the other
 * mark (weight has k + 1 entries; weight[k] is never reached in a game
 * that goes on). */
static inline int32_t zbc_inrow_windows(const uint8_t *b, int w, int h, int k, uint8_t mine,
                                        const int32_t *weight)
{
    static const int DIRS[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
    int32_t score = 0;
    for (int d = 0; d < 4; d++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int ex = x + (k - 1) * DIRS[d][0], ey = y + (k - 1) * DIRS[d][1];
                if (ex < 0 || ex >= w || ey < 0 || ey >= h)
                    continue;
                int own = 0, other = 0;
                for (int i = 0; i < k; i++) {
                    uint8_t c = b[(y + i * DIRS[d][1]) * w + x + i * DIRS[d][0]];
                    own += c == mine;
                    other += c != 0 && c != mine;
                }
                if (other == 0)
                    score += weight[own];
                else if (own == 0)
                    score -= weight[other];
            }
    return score;
}

#endif
