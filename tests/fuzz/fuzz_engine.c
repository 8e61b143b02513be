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
 *              game's moves carry secrets), and the state round-trips. */
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

static struct zbc_game_state st, st2;
static struct zbc_move moves[ZBC_MOVES_MAX];
static uint8_t enc1[ZBC_GAME_STATE_MAX], enc2[ZBC_GAME_STATE_MAX];
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

static void check_roundtrip(const struct zbc_engine *e)
{
    struct zbc_err err;
    size_t n = e->encode(&st, enc1, sizeof enc1);
    ASSERT(n > 0);
    ASSERT(e->decode(&st2, enc1, n, &err));
    ASSERT(e->encode(&st2, enc2, sizeof enc2) == n);
    ASSERT(memcmp(enc1, enc2, n) == 0);
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
            size_t n = e->encode(&st, enc1, sizeof enc1);
            ASSERT(n == size - 1 && memcmp(enc1, data + 1, n) == 0);
            ASSERT(e->to_json(&st, text, sizeof text) > 0);
            ASSERT(e->render(&st, text, sizeof text) > 0);
            (void)e->turn(&st);
            struct zbc_result r;
            e->result(&st, &r);
            (void)e->gen_moves(&st, moves, ZBC_MOVES_MAX);
        }
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
    if (!e->init(&st, seats, params, plen, (uint8_t)(first % seats),
                 e->start_rolls ? &rolls : NULL, &err))
        return 0;
    check_roundtrip(e);
    uint32_t ply = 0;
    while (p + 3 <= size) {
        uint8_t seat = data[p];
        size_t len = zbc_get_le16(data + p + 1);
        p += 3;
        if (p + len > size)
            break;
        const uint8_t *mv = data + p;
        p += len;
        int legal = e->check_move(&st, seat, mv, len, &err);
        size_t n = e->gen_moves(&st, moves, ZBC_MOVES_MAX);
        if (legal) {
            ASSERT(e->turn(&st) == seat);
            if (!e->secret_moves) {
                int listed = 0;
                for (size_t i = 0; i < n && !listed; i++)
                    listed = moves[i].len == len && memcmp(moves[i].b, mv, len) == 0;
                ASSERT(listed);
            }
        }
        size_t nb = e->encode(&st, enc1, sizeof enc1);
        struct zbc_roll r;
        zbc_roll_init(&r, seed, (const uint8_t *)&ply, sizeof ply);
        ply++;
        int ok = e->apply_move(&st, seat, mv, len, e->dice ? &r : NULL, &err);
        ASSERT(ok == legal);
        if (!ok) {
            ASSERT(e->encode(&st, enc2, sizeof enc2) == nb);
            ASSERT(memcmp(enc1, enc2, nb) == 0);
        }
        check_roundtrip(e);
        ASSERT(e->to_json(&st, text, sizeof text) > 0);
        ASSERT(e->render(&st, text, sizeof text) > 0);
        struct zbc_result res;
        e->result(&st, &res);
        ASSERT((e->turn(&st) == ZBC_NOBODY) == (res.kind != ZBC_RESULT_ONGOING));
    }
    return 0;
}
