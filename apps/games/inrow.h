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

#endif
