/* Test helpers shared by the board-game engine tests (tictactoe, connect4,
 * gomoku, reversi, dots): play a notation move list, check the canonical
 * encoding round trip, count perft, run random playouts with invariant
 * checks.  Include after testlib.h. */
#ifndef ZBC_TEST_PLAY_HELPERS_H
#define ZBC_TEST_PLAY_HELPERS_H

#include <jansson.h>
#include <stdint.h>
#include <string.h>

#include "apps/engine.h"
#include "testlib.h"

/* Deterministic test PRNG (splitmix64). */
static inline uint64_t ph_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* encode -> decode -> encode gives the same bytes; returns 1 if so. */
static inline int ph_roundtrip(const struct zbc_engine *e,
                               const struct zbc_game_state *st)
{
    static uint8_t a[ZBC_GAME_STATE_MAX], b[ZBC_GAME_STATE_MAX];
    static struct zbc_game_state copy;
    struct zbc_err err;
    size_t na = e->encode(st, a, sizeof a);
    if (na == 0)
        return 0;
    if (!e->decode(&copy, a, na, &err)) {
        fprintf(stderr, "decode of own encoding failed: %s\n", err.msg);
        return 0;
    }
    size_t nb = e->encode(&copy, b, sizeof b);
    return na == nb && memcmp(a, b, na) == 0;
}

/* Plays space-separated notation moves, each by the seat turn() names.
 * Returns the 0-based index of the first move that fails (err filled), or
 * -1 when all were applied. */
static inline int ph_play(const struct zbc_engine *e, struct zbc_game_state *st,
                          const char *moves, struct zbc_err *err)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", moves);
    int i = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok != NULL;
         tok = strtok_r(NULL, ",", &save), i++) {
        while (*tok == ' ')
            tok++;
        uint8_t mv[ZBC_MOVE_WIRE_MAX];
        size_t len;
        int seat = e->turn(st);
        if (seat == ZBC_NOBODY) {
            snprintf(err->msg, sizeof err->msg, "the game is over");
            return i;
        }
        if (!e->parse_move(st, (uint8_t)seat, tok, mv, sizeof mv, &len, err))
            return i;
        if (!e->apply_move(st, (uint8_t)seat, mv, len, NULL, err))
            return i;
        CHECK(ph_roundtrip(e, st));
    }
    return -1;
}

static inline uint64_t ph_perft(const struct zbc_engine *e,
                                const struct zbc_game_state *st, int depth)
{
    struct zbc_move moves[ZBC_MOVES_MAX];
    size_t n = e->gen_moves(st, moves, ZBC_MOVES_MAX);
    if (depth == 1)
        return n;
    uint64_t total = 0;
    int seat = e->turn(st);
    for (size_t i = 0; i < n; i++) {
        struct zbc_game_state child = *st;
        struct zbc_err err;
        if (!e->apply_move(&child, (uint8_t)seat, moves[i].b, moves[i].len,
                           NULL, &err))
            return 0;
        total += ph_perft(e, &child, depth - 1);
    }
    return total;
}

/* Checks the invariants of one reachable state. */
static inline void ph_check_state(const struct zbc_engine *e,
                                  const struct zbc_game_state *st,
                                  uint8_t seats, uint64_t *rng)
{
    struct zbc_result r;
    struct zbc_err err;
    e->result(st, &r);
    int turn = e->turn(st);
    CHECK((turn == ZBC_NOBODY) == (r.kind != ZBC_RESULT_ONGOING));
    CHECK(turn == ZBC_NOBODY || (turn >= 0 && turn < seats));
    if (r.kind == ZBC_RESULT_WIN)
        CHECK(r.winner < seats);
    CHECK(ph_roundtrip(e, st));
    static char text[ZBC_GAME_STATE_MAX];
    CHECK(e->to_json(st, text, sizeof text) > 0);
    json_t *view = json_loads(text, 0, NULL);
    CHECK(view != NULL && json_is_object(view));
    json_decref(view);
    CHECK(e->render(st, text, sizeof text) > 0);
    CHECK(e->render(st, text, 8) == -1);
    struct zbc_move moves[ZBC_MOVES_MAX];
    size_t n = e->gen_moves(st, moves, ZBC_MOVES_MAX);
    CHECK((n == 0) == (turn == ZBC_NOBODY));
    for (size_t i = 0; i < n; i++) {
        CHECK(e->check_move(st, (uint8_t)turn, moves[i].b, moves[i].len,
                            &err));
        /* notation round trip */
        char note[64];
        uint8_t back[ZBC_MOVE_WIRE_MAX];
        size_t blen = 0;
        CHECK(e->format_move(st, moves[i].b, moves[i].len, note, sizeof note));
        CHECK(e->parse_move(st, (uint8_t)turn, note, back, sizeof back, &blen,
                            &err));
        CHECK(blen == moves[i].len &&
              memcmp(back, moves[i].b, blen) == 0);
    }
    /* A random short byte string accepted by check_move is in the list. */
    for (int k = 0; k < 4; k++) {
        uint8_t mv[3];
        size_t len = 1 + ph_rand(rng) % 3;
        uint64_t x = ph_rand(rng);
        memcpy(mv, &x, sizeof mv);
        int seat = turn == ZBC_NOBODY ? 0 : turn;
        if (e->check_move(st, (uint8_t)seat, mv, len, &err)) {
            int found = 0;
            for (size_t i = 0; i < n; i++)
                found |= moves[i].len == len && memcmp(moves[i].b, mv, len) == 0;
            CHECK(found);
        }
    }
}

/* Plays `games` random games; every game must end within max_plies moves.
 * Returns a histogram of results in counts[3] (ongoing never, win, draw). */
static inline void ph_random_games(const struct zbc_engine *e, uint8_t seats,
                                   const uint8_t *params, size_t plen,
                                   int games, int max_plies, uint64_t seed,
                                   int counts[3])
{
    uint64_t rng = seed;
    counts[0] = counts[1] = counts[2] = 0;
    for (int g = 0; g < games; g++) {
        struct zbc_game_state st;
        struct zbc_err err;
        uint8_t first = (uint8_t)(ph_rand(&rng) % seats);
        if (!e->init(&st, seats, params, plen, first, NULL, &err)) {
            CHECK(0);
            return;
        }
        CHECK_EQ_INT(e->turn(&st), first);
        int plies = 0;
        for (;;) {
            ph_check_state(e, &st, seats, &rng);
            int turn = e->turn(&st);
            if (turn == ZBC_NOBODY)
                break;
            if (plies == max_plies) {
                CHECK(0); /* game longer than the rules allow */
                break;
            }
            struct zbc_move moves[ZBC_MOVES_MAX];
            size_t n = e->gen_moves(&st, moves, ZBC_MOVES_MAX);
            size_t k = (size_t)(ph_rand(&rng) % n);
            /* A wrong seat is refused and leaves the state unchanged. */
            if (seats > 1) {
                struct zbc_game_state before = st;
                uint8_t other = (uint8_t)((turn + 1) % seats);
                CHECK(!e->apply_move(&st, other, moves[k].b, moves[k].len,
                                     NULL, &err));
                CHECK(memcmp(&before, &st, sizeof st) == 0);
            }
            CHECK(e->apply_move(&st, (uint8_t)turn, moves[k].b, moves[k].len,
                                NULL, &err));
            plies++;
        }
        struct zbc_result r;
        e->result(&st, &r);
        counts[r.kind]++;
    }
}

/* Decoding every truncation of a valid encoding fails, and so does any
 * single-byte change that decode accepts without round-tripping. */
static inline void ph_decode_garbage(const struct zbc_engine *e,
                                     const struct zbc_game_state *st,
                                     uint64_t seed)
{
    uint8_t enc[ZBC_GAME_STATE_MAX];
    struct zbc_game_state tmp;
    struct zbc_err err;
    size_t n = e->encode(st, enc, sizeof enc);
    CHECK(n > 0);
    for (size_t cut = 0; cut < n; cut++)
        CHECK(!e->decode(&tmp, enc, cut, &err));
    uint8_t longer[ZBC_GAME_STATE_MAX];
    memcpy(longer, enc, n);
    longer[n] = 0;
    CHECK(!e->decode(&tmp, longer, n + 1, &err));
    uint64_t rng = seed;
    for (int k = 0; k < 2000; k++) {
        uint8_t bad[ZBC_GAME_STATE_MAX];
        memcpy(bad, enc, n);
        size_t pos = (size_t)(ph_rand(&rng) % n);
        bad[pos] = (uint8_t)ph_rand(&rng);
        if (e->decode(&tmp, bad, n, &err)) {
            uint8_t again[ZBC_GAME_STATE_MAX];
            size_t m = e->encode(&tmp, again, sizeof again);
            CHECK(m == n && memcmp(again, bad, n) == 0);
        }
    }
}

#endif
