/* libFuzzer target for one engine (FUZZ_GAME, set by tests/fuzz/meson.build).
 *
 * Input: [mode u8] then
 *   mode even: decode arbitrary state bytes; if accepted, encode must give
 *              the same bytes back, and every view must work.  The same
 *              bytes as params text (zbc_engine_params_from_text): if
 *              accepted, params_to_text must read back to the same bytes.
 *   mode odd:  [seats u8][first u8][params_len u16 LE][params][roll seed 8]
 *              then moves as [seat u8][len u16 LE][bytes]... (16-bit
 *              lengths so battleship's 3200-byte commitments fit); checks that
 *              check_move and apply_move agree, a failed apply changes
 *              nothing, an accepted move is one gen_moves lists (unless the
 *              game's moves carry secrets), and the state round-trips.
 *
 * Every check runs on every state an input reaches: after the start
 * position and after every move that changes the state's bytes, the state
 * round-trips, renders, serializes to JSON and its result agrees with its
 * turn; gen_moves runs once per such state.  A move that changes no byte of
 * the state (a refused move, asserted unchanged) is not followed by those
 * checks again: the engine is pure (apps/engine.h), so they would compute
 * the same results from the same bytes.  Most moves of a long input are
 * refused ones, and rendering after each was most of the target's time. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "apps/engine.h"
#include "crypto/bytes.h"

#define STR2(x) #x
#define STR(x) STR2(x)

static const struct zbc_engine *engine(void)
{
    static const struct zbc_engine *e;
    if (e == NULL) {
        e = zbc_engine_by_name(STR(FUZZ_GAME));
        if (e == NULL)
            abort();
    }
    return e;
}

static struct zbc_game_state st, st2, before;
static struct zbc_move moves[ZBC_MOVES_MAX];
/* cur: the encoding of st as last checked (cur_len bytes) */
static uint8_t cur[ZBC_GAME_STATE_MAX], enc2[ZBC_GAME_STATE_MAX];
static size_t cur_len;
static char text[65536];

#define ASSERT(c) do { if (!(c)) abort(); } while (0)

static void check_params_text(const struct zbc_engine *e, const uint8_t *in,
                              size_t n)
{
    static char t[512], back_text[2 * 512 + 1];
    uint8_t p[512], back[512];
    size_t len, blen;
    struct zbc_err err;
    if (n >= sizeof t)
        n = sizeof t - 1;
    memcpy(t, in, n);
    t[n] = '\0';
    if (!zbc_engine_params_from_text(e, t, p, sizeof p, &len, &err))
        return;
    ASSERT(zbc_engine_params_to_text(e, p, len, back_text, sizeof back_text));
    ASSERT(zbc_engine_params_from_text(e, back_text, back, sizeof back, &blen,
                                       &err));
    ASSERT(blen == len && memcmp(back, p, len) == 0);
}

/* The game being played: what consensus holds a result to. */
static uint8_t play_seats;
static const uint8_t *play_params;
static size_t play_plen;

/* Every check of a state st has reached; leaves its encoding in cur. */
static void check_state(const struct zbc_engine *e)
{
    struct zbc_err err;
    cur_len = e->encode(&st, cur, sizeof cur);
    ASSERT(cur_len > 0);
    ASSERT(e->decode(&st2, cur, cur_len, &err));
    ASSERT(e->encode(&st2, enc2, sizeof enc2) == cur_len);
    ASSERT(memcmp(cur, enc2, cur_len) == 0);
    ASSERT(e->to_json(&st, text, sizeof text) > 0);
    ASSERT(e->render(&st, text, sizeof text) > 0);
    struct zbc_result res;
    e->result(&st, &res);
    ASSERT((e->turn(&st) == ZBC_NOBODY) == (res.kind != ZBC_RESULT_ONGOING));
    /* a winner that is no seat, or a solo value above the maximum the fund
     * escrowed, would fail the block that settles it (consensus/apps_*.c) */
    if (res.kind == ZBC_RESULT_WIN)
        ASSERT(res.winner < play_seats);
    if (e->solo != NULL)
        ASSERT(e->solo->value(&st) <=
               e->solo->max_multiplier(play_params, play_plen));
}

/* The engine wrote nothing past its state_size in the states it was given
 * (zero since the program started): what lets the loop below copy and
 * compare state_size bytes around each move instead of all 16 KiB. */
static void check_tails(const struct zbc_engine *e)
{
    static const struct zbc_game_state zero;
    ASSERT(e->state_size > 0 && e->state_size <= ZBC_GAME_STATE_MAX);
    size_t tail = ZBC_GAME_STATE_MAX - e->state_size;
    ASSERT(memcmp(st.b + e->state_size, zero.b, tail) == 0);
    ASSERT(memcmp(st2.b + e->state_size, zero.b, tail) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const struct zbc_engine *e = engine();
    struct zbc_err err;
    if (size < 1)
        return 0;
    if ((data[0] & 1) == 0) {
        check_params_text(e, data + 1, size - 1);
        if (e->decode(&st, data + 1, size - 1, &err)) {
            size_t n = e->encode(&st, enc2, sizeof enc2);
            ASSERT(n == size - 1 && memcmp(enc2, data + 1, n) == 0);
            ASSERT(e->to_json(&st, text, sizeof text) > 0);
            ASSERT(e->render(&st, text, sizeof text) > 0);
            (void)e->turn(&st);
            struct zbc_result r;
            e->result(&st, &r);
            (void)e->gen_moves(&st, moves, ZBC_MOVES_MAX);
        }
        check_tails(e); /* a refused decode too */
        return 0;
    }
    size_t p = 1;
    if (size < p + 4)
        return 0;
    uint8_t seats = data[p++], first = data[p++];
    size_t plen = zbc_get_le16(data + p);
    p += 2;
    if (size < p + plen + 8)
        return 0;
    const uint8_t *params = data + p;
    p += plen;
    uint8_t seed[32] = {0};
    memcpy(seed, data + p, 8);
    p += 8;
    struct zbc_roll rolls;
    zbc_roll_init(&rolls, seed, (const uint8_t *)"init", 4);
    if (!e->check_params(seats, params, plen, &err))
        return 0;
    if (seats == 0)
        abort(); /* check_params must refuse zero seats */
    play_seats = seats;
    play_params = params;
    play_plen = plen;
    if (!e->init(&st, seats, params, plen, (uint8_t)(first % seats),
                 e->start_rolls ? &rolls : NULL, &err)) {
        check_tails(e);
        return 0;
    }
    check_state(e);
    uint32_t ply = 0;
    size_t n = 0;
    int listed_fresh = 0; /* moves[0..n) lists the moves of st */
    while (p + 3 <= size) {
        uint8_t seat = data[p];
        size_t len = zbc_get_le16(data + p + 1);
        p += 3;
        if (p + len > size)
            break;
        const uint8_t *mv = data + p;
        p += len;
        int legal = e->check_move(&st, seat, mv, len, &err);
        if (!listed_fresh) {
            n = e->gen_moves(&st, moves, ZBC_MOVES_MAX);
            ASSERT(n <= ZBC_MOVES_MAX);
            listed_fresh = 1;
            /* what gen_moves lists is legal (bots and the wallet's move
             * lists send it): one listed move per state, in turn */
            if (n > 0) {
                const struct zbc_move *g = &moves[ply % n];
                int t = e->turn(&st);
                ASSERT(t >= 0 && t != ZBC_NOBODY);
                ASSERT(e->check_move(&st, (uint8_t)t, g->b, g->len, &err));
            }
        }
        if (legal) {
            ASSERT(e->turn(&st) == seat);
            if (!e->secret_moves) {
                int listed = 0;
                for (size_t i = 0; i < n && !listed; i++)
                    listed = moves[i].len == len && memcmp(moves[i].b, mv, len) == 0;
                ASSERT(listed);
            }
        }
        struct zbc_roll r;
        zbc_roll_init(&r, seed, (const uint8_t *)&ply, sizeof ply);
        ply++;
        /* the engine's own bytes only (state_size, checked below) */
        memcpy(before.b, st.b, e->state_size);
        int ok = e->apply_move(&st, seat, mv, len, e->dice ? &r : NULL, &err);
        ASSERT(ok == legal);
        if (!ok) {
            /* a failed move changes nothing: cur is st's encoding before */
            ASSERT(e->encode(&st, enc2, sizeof enc2) == cur_len);
            ASSERT(memcmp(cur, enc2, cur_len) == 0);
            if (memcmp(st.b, before.b, e->state_size) == 0)
                continue; /* the same bytes: already checked */
        }
        check_state(e);
        listed_fresh = 0;
    }
    check_tails(e);
    return 0;
}
