/* Properties every engine must have, checked over random playouts of every
 * registered game with every seat count:
 *   - turn() is a seat while the result is ongoing, ZBC_NOBODY once it is
 *     not, and every game ends within a generous ply bound;
 *   - every move gen_moves lists passes check_move for the seat to move and
 *     applies; no other seat may move;
 *   - a random byte string accepted by check_move is one gen_moves listed
 *     (unless the game's moves carry secrets);
 *   - a failed apply leaves the state bytes unchanged;
 *   - every listed move formats to notation that parses back to it;
 *   - encode/decode round-trips at every step, and equal states give equal
 *     bytes (decode(encode(s)) re-encodes identically);
 *   - the shared entry step (zbc_engine_move_entry) answers first, in one
 *     wording for every game: over, not your turn, empty move.
 * Named params text <-> bytes (zbc_engine_params_from_text / _to_text) are
 * checked for every engine too.
 * Games that need private data to start (battleship's commitment params)
 * are covered by their own test programs; the skip is printed. */
#include "apps/engine.h"
#include "crypto/hash.h"
#include "testlib.h"

#define MAX_PLIES 30000

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static struct zbc_game_state st, st2;
static struct zbc_move moves[ZBC_MOVES_MAX];
static uint8_t enc1[ZBC_GAME_STATE_MAX], enc2[ZBC_GAME_STATE_MAX];

static void roll_for(struct zbc_roll *r, uint64_t game, uint64_t ply)
{
    uint8_t seed[32], tag[16];
    memset(seed, 0, sizeof seed);
    memcpy(seed, &game, sizeof game);
    memcpy(tag, &ply, 8);
    memcpy(tag + 8, &game, 8);
    zbc_roll_init(r, seed, tag, sizeof tag);
}

static int in_list(const uint8_t *m, size_t len, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (moves[i].len == len && memcmp(moves[i].b, m, len) == 0)
            return 1;
    return 0;
}

static int roundtrip(const struct zbc_engine *e)
{
    size_t n1 = e->encode(&st, enc1, sizeof enc1);
    if (n1 == 0)
        return 0;
    struct zbc_err err;
    if (!e->decode(&st2, enc1, n1, &err)) {
        fprintf(stderr, "%s: decode of own encoding failed: %s\n", e->name, err.msg);
        return 0;
    }
    size_t n2 = e->encode(&st2, enc2, sizeof enc2);
    return n1 == n2 && memcmp(enc1, enc2, n1) == 0;
}

/* The bytes of st past the engine's state_size still hold TAIL_BYTE: the
 * engine wrote nothing outside its own struct (the fuzz targets copy and
 * compare only state_size bytes). */
#define TAIL_BYTE 0xa5
static int tail_intact(const struct zbc_engine *e)
{
    for (size_t i = e->state_size; i < sizeof st.b; i++)
        if (st.b[i] != TAIL_BYTE)
            return 0;
    return 1;
}

/* Plays one random game; returns the number of plies, or -1 on a failure
 * (already reported through CHECK). */
static long play_one(const struct zbc_engine *e, uint8_t seats, uint64_t game)
{
    struct zbc_err err;
    struct zbc_roll rolls;
    uint8_t first = (uint8_t)(game % seats);
    roll_for(&rolls, game, UINT64_MAX);
    memset(st.b + e->state_size, TAIL_BYTE, sizeof st.b - e->state_size);
    if (!e->init(&st, seats, NULL, 0, first, e->start_rolls ? &rolls : NULL, &err)) {
        fprintf(stderr, "%s: init with %u seats failed: %s\n", e->name, seats, err.msg);
        CHECK(0);
        return -1;
    }
    for (long ply = 0; ply < MAX_PLIES; ply++) {
        CHECK(roundtrip(e));
        struct zbc_result res;
        e->result(&st, &res);
        int t = e->turn(&st);
        if (t == ZBC_NOBODY) {
            CHECK(res.kind != ZBC_RESULT_ONGOING);
            if (res.kind == ZBC_RESULT_WIN)
                CHECK(res.winner < seats);
            CHECK(e->gen_moves(&st, moves, ZBC_MOVES_MAX) == 0);
            uint8_t any = 0;
            CHECK(!e->check_move(&st, 0, &any, 1, &err));
            CHECK_EQ_STR(err.msg, "the game is over");
            CHECK(tail_intact(e));
            return ply;
        }
        CHECK(res.kind == ZBC_RESULT_ONGOING);
        CHECK(t >= 0 && t < seats);
        if (t < 0 || t >= seats)
            return -1;
        size_t n = e->gen_moves(&st, moves, ZBC_MOVES_MAX);
        if (n == 0) {
            /* only a game waiting for a secret (commit/reveal) may list none */
            CHECK(e->secret_moves);
            return ply;
        }
        /* a random short byte string: accepted => listed */
        uint8_t junk[4];
        size_t jl = 1 + rnd() % 3;
        for (size_t i = 0; i < jl; i++)
            junk[i] = (uint8_t)rnd();
        if (!e->secret_moves && e->check_move(&st, (uint8_t)t, junk, jl, &err))
            CHECK(in_list(junk, jl, n));
        char want[64];
        CHECK(!e->check_move(&st, (uint8_t)t, moves[0].b, 0, &err));
        snprintf(want, sizeof want, "empty %s move", e->name);
        CHECK_EQ_STR(err.msg, want);
        struct zbc_roll r2;
        /* another seat may not move (a one-seat game has none: the
         * seat count itself, one past the last seat, is tried) */
        uint8_t other = seats < 2 ? seats
                                  : (uint8_t)((t + 1 + rnd() % (seats - 1)) % seats);
        CHECK(!e->check_move(&st, other, moves[0].b, moves[0].len, &err));
        snprintf(want, sizeof want, "not your turn: seat %d is to move", t);
        CHECK_EQ_STR(err.msg, want);
        /* a failed apply leaves the state unchanged */
        size_t nb = e->encode(&st, enc1, sizeof enc1);
        roll_for(&r2, game, (uint64_t)ply);
        if (!e->apply_move(&st, other, moves[0].b, moves[0].len, e->dice ? &r2 : NULL, &err)) {
            CHECK_EQ_INT(e->encode(&st, enc2, sizeof enc2), nb);
            CHECK(memcmp(enc1, enc2, nb) == 0);
        } else {
            CHECK(0);
        }
        const struct zbc_move *m = &moves[rnd() % n];
        /* notation round trip: format, then parse back to the same bytes */
        char txt[256];
        uint8_t back[ZBC_MOVE_MAX];
        size_t blen = 0;
        CHECK_EQ_INT(e->format_move(&st, m->b, m->len, txt, sizeof txt), 1);
        if (!e->parse_move(&st, (uint8_t)t, txt, back, sizeof back, &blen, &err)) {
            fprintf(stderr, "%s: cannot parse its own notation '%s': %s\n", e->name, txt, err.msg);
            CHECK(0);
        } else {
            CHECK(blen == m->len && memcmp(back, m->b, blen) == 0);
        }
        if (!e->check_move(&st, (uint8_t)t, m->b, m->len, &err)) {
            fprintf(stderr, "%s: listed move rejected by check_move: %s\n", e->name, err.msg);
            CHECK(0);
            return -1;
        }
        roll_for(&r2, game, (uint64_t)ply);
        if (!e->apply_move(&st, (uint8_t)t, m->b, m->len, e->dice ? &r2 : NULL, &err)) {
            fprintf(stderr, "%s: listed move failed to apply: %s\n", e->name, err.msg);
            CHECK(0);
            return -1;
        }
        /* text views never fail on a normal buffer */
        static char buf[65536];
        CHECK(e->to_json(&st, buf, sizeof buf) > 0);
        CHECK(e->render(&st, buf, sizeof buf) > 0);
    }
    fprintf(stderr, "%s: game %llu did not end within %d plies\n", e->name,
            (unsigned long long)game, MAX_PLIES);
    CHECK(0);
    return -1;
}

static void test_all_engines(void)
{
    const struct zbc_engine *const *es = zbc_engines();
    int count = 0;
    for (size_t i = 0; es[i] != NULL; i++) {
        const struct zbc_engine *e = es[i];
        count++;
        CHECK(e->min_seats >= 1 && e->min_seats <= e->max_seats &&
              e->max_seats <= ZBC_SEATS_MAX);
        CHECK(zbc_engine_by_type(e->type) == e);
        CHECK(e->state_size > 0 && e->state_size <= ZBC_GAME_STATE_MAX);
        CHECK(zbc_engine_by_name(e->name) == e);
        for (uint8_t seats = e->min_seats; seats <= e->max_seats; seats++) {
            struct zbc_err err;
            if (!e->check_params(seats, NULL, 0, &err)) {
                printf("%-12s %u seats: skipped (needs params: %s)\n", e->name, seats, err.msg);
                continue;
            }
            int games = test_scaled(e->type == 2 ? 60 : 300);
            long total = 0, longest = 0;
            for (int g = 0; g < games; g++) {
                long p = play_one(e, seats, (uint64_t)e->type << 32 | (uint64_t)seats << 24 | (uint64_t)g);
                if (p < 0)
                    break;
                total += p;
                if (p > longest)
                    longest = p;
            }
            printf("%-12s %u seats: %d games, %ld plies, longest %ld\n", e->name, seats,
                   games, total, longest);
        }
        /* seat counts outside the range are refused */
        struct zbc_err err;
        CHECK(!e->check_params((uint8_t)(e->max_seats + 1), NULL, 0, &err));
        if (e->min_seats > 1)
            CHECK(!e->check_params((uint8_t)(e->min_seats - 1), NULL, 0, &err));
    }
    printf("%d engines registered\n", count);
}

/* Garbage state bytes never decode into something that re-encodes
 * differently. */
static void test_decode_garbage(void)
{
    const struct zbc_engine *const *es = zbc_engines();
    for (size_t i = 0; es[i] != NULL; i++) {
        const struct zbc_engine *e = es[i];
        for (int k = 0; k < 2000; k++) {
            size_t len = rnd() % 512;
            for (size_t j = 0; j < len; j++)
                enc1[j] = (uint8_t)rnd();
            struct zbc_err err;
            if (e->decode(&st, enc1, len, &err)) {
                size_t n = e->encode(&st, enc2, sizeof enc2);
                CHECK(n == len && memcmp(enc1, enc2, len) == 0);
            }
        }
        /* truncations of a real state are rejected */
        struct zbc_err err;
        if (e->check_params(e->min_seats, NULL, 0, &err)) {
            struct zbc_roll r;
            roll_for(&r, 1, 1);
            if (e->init(&st, e->min_seats, NULL, 0, 0, e->start_rolls ? &r : NULL, &err)) {
                size_t n = e->encode(&st, enc1, sizeof enc1);
                for (size_t cut = 0; cut < n; cut++)
                    CHECK(!e->decode(&st2, enc1, cut, &err));
            }
        }
    }
}

static int params_ok(const struct zbc_engine *e,
                                      const uint8_t *p, size_t n)
{
    struct zbc_err err;
    return e->check_params(e->min_seats, p, n, &err);
}

/* Params text -> bytes -> text for every engine; named words only where
 * the game has them; bad words are refused with a reason. */
static void test_params_text(void)
{
    const struct zbc_engine *const *es = zbc_engines();
    uint8_t p[64], back[64];
    size_t n, bn;
    char text[256];
    struct zbc_err err;
    for (size_t i = 0; es[i] != NULL; i++) {
        const struct zbc_engine *e = es[i];
        CHECK(zbc_engine_params_from_text(e, NULL, p, sizeof p, &n, &err) && n == 0);
        CHECK(zbc_engine_params_from_text(e, "", p, sizeof p, &n, &err) && n == 0);
        CHECK(zbc_engine_params_from_text(e, "0a0B", p, sizeof p, &n, &err));
        CHECK(n == 2 && p[0] == 10 && p[1] == 11);
        CHECK(!zbc_engine_params_from_text(e, "zz", p, sizeof p, &n, &err));
        CHECK(!zbc_engine_params_from_text(e, "abc", p, sizeof p, &n, &err));
        CHECK(!zbc_engine_params_from_text(e, "depth=3", p, sizeof p, &n, &err));
        CHECK(strstr(err.msg, "depth") != NULL || strstr(err.msg, "no named") != NULL);
        CHECK(!zbc_engine_params_from_text(e, "=3", p, sizeof p, &n, &err));
        /* every byte string survives bytes -> text -> bytes */
        for (int k = 0; k < 200; k++) {
            size_t len = (size_t)(rnd() % 4);
            for (size_t j = 0; j < len; j++)
                p[j] = (uint8_t)rnd();
            CHECK(zbc_engine_params_to_text(e, p, len, text, sizeof text));
            CHECK(zbc_engine_params_from_text(e, text, back, sizeof back, &bn, &err));
            CHECK(bn == len && memcmp(p, back, len) == 0);
        }
        CHECK(!zbc_engine_params_to_text(e, p, 3, text, 4));
    }
    const struct zbc_engine *dots = zbc_engine_by_name("dots");
    const struct zbc_engine *rps = zbc_engine_by_name("rps");
    const struct zbc_engine *lines = zbc_engine_by_name("lines");
    const struct zbc_engine *chess = zbc_engine_by_name("chess");
    CHECK(zbc_engine_params_from_text(dots, "width=5,height=3", p, sizeof p, &n, &err));
    CHECK(n == 2 && p[0] == 5 && p[1] == 3);
    CHECK(zbc_engine_params_from_text(dots, "height=6", p, sizeof p, &n, &err));
    CHECK(n == 2 && p[0] == 4 && p[1] == 6); /* width keeps its default */
    CHECK(zbc_engine_params_from_text(dots, "size=7x2", p, sizeof p, &n, &err));
    CHECK(n == 2 && p[0] == 7 && p[1] == 2);
    CHECK(params_ok(dots, p, n));
    CHECK(zbc_engine_params_to_text(dots, p, n, text, sizeof text));
    CHECK_EQ_STR(text, "width=7,height=2");
    CHECK(!zbc_engine_params_from_text(dots, "size=7", p, sizeof p, &n, &err));
    CHECK_EQ_STR(err.msg, "size: '7' is not WxH");
    CHECK(!zbc_engine_params_from_text(dots, "depth=3", p, sizeof p, &n, &err));
    CHECK_EQ_STR(err.msg, "no param 'depth' (the params are width=W, height=H, size=WxH)");
    CHECK(!zbc_engine_params_from_text(dots, "size=x7", p, sizeof p, &n, &err));
    CHECK(!zbc_engine_params_from_text(dots, "width=256", p, sizeof p, &n, &err));
    CHECK_EQ_STR(err.msg, "width: 256 is out of range 0-255");
    CHECK(zbc_engine_params_from_text(rps, "rounds=3", p, sizeof p, &n, &err));
    CHECK(n == 1 && p[0] == 3);
    CHECK(zbc_engine_params_to_text(rps, p, n, text, sizeof text));
    CHECK_EQ_STR(text, "rounds=3");
    CHECK(zbc_engine_params_from_text(lines, "rounds=100", p, sizeof p, &n, &err));
    CHECK(n == 1 && p[0] == 100);
    CHECK(!zbc_engine_params_from_text(rps, "rounds=", p, sizeof p, &n, &err));
    CHECK(!zbc_engine_params_from_text(rps, "rounds=07", p, sizeof p, &n, &err));
    CHECK(!zbc_engine_params_from_text(rps, "rounds=-1", p, sizeof p, &n, &err));
    CHECK(!zbc_engine_params_from_text(chess, "rounds=3", p, sizeof p, &n, &err));
    CHECK_EQ_STR(err.msg, "chess has no named params (give them as hex)");
    CHECK(zbc_engine_params_to_text(chess, NULL, 0, text, sizeof text) && text[0] == '\0');
    /* hostile text: too long, too many bytes for the buffer */
    char longtext[400];
    memset(longtext, 'a', sizeof longtext - 1);
    longtext[sizeof longtext - 1] = '\0';
    memcpy(longtext, "rounds=1,", 9);
    CHECK(!zbc_engine_params_from_text(rps, longtext, p, sizeof p, &n, &err));
    CHECK(!zbc_engine_params_from_text(rps, "rounds=1", p, 4, &n, &err));
    CHECK(!zbc_engine_params_from_text(chess, "00112233", p, 2, &n, &err));
}

int main(void)
{
    TEST_RUN(test_all_engines);
    TEST_RUN(test_decode_garbage);
    TEST_RUN(test_params_text);
    return test_summary("apps_engines");
}
