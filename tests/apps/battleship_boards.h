/* Battleship boards the tests share (tests/apps, tests/consensus): two
 * standard fleets and a board with its salts and commitment. */
#ifndef ZBC_TEST_BATTLESHIP_BOARDS_H
#define ZBC_TEST_BATTLESHIP_BOARDS_H

#include <stdint.h>
#include <string.h>

#include "apps/games/battleship.h"
#include "testlib.h"

struct board {
    uint8_t ship[100];
    uint8_t salt[100][32];
    uint8_t commit[3200];
};

/* Seat 0: A1-A5, C1-C4, E1-E3, G1-G3, I1-I2 (the first 16 leave I2 out). */
static const uint8_t FLEET0[17] = {0, 1, 2, 3, 4, 20, 21, 22, 23, 40, 41, 42,
                                   60, 61, 62, 80, 81};
/* Seat 1: A10-E10, A8-D8, J1-J3, H5-H7, F2-G2 (vertical and horizontal). */
static const uint8_t FLEET1[17] = {9, 19, 29, 39, 49, 7, 17, 27, 37, 90, 91,
                                   92, 74, 75, 76, 51, 61};

/* The first n cells of `cells` are ships; salts from salt_base. */
static inline void make_board(struct board *b, const uint8_t *cells, size_t n,
                              uint8_t salt_base)
{
    memset(b->ship, 0, sizeof b->ship);
    for (size_t i = 0; i < n; i++)
        b->ship[cells[i]] = 1;
    for (int i = 0; i < 100; i++)
        for (int k = 0; k < 32; k++)
            b->salt[i][k] = (uint8_t)(salt_base + i * 3 + k);
    struct zbc_err err;
    CHECK(zbc_battleship_commitment(b->commit, b->ship,
                                    (const uint8_t(*)[32])b->salt, &err));
}

#endif
