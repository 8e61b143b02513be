/* Exact RTP of every payout table (apps/fair_pay.h, docs/games.md "Payout tables"), in
 * integers: each table returns 99 % ± 0.01 % of the stake under the exact probability of
 * every event of its event function (ideal floats; the 2^32 quantisation moves no
 * probability by more than n / 2^32). */
#include "apps/fair_events.h"
#include "apps/fair_pay.h"
#include "testlib.h"

typedef unsigned __int128 u128;

/* |sum / (10000 × total) − 0.99| <= 0.0001, with sum = Σ weight × multiplier. */
static int rtp_ok(u128 sum, u128 total)
{
    u128 target = 9900 * total;
    u128 diff = sum > target ? sum - target : target - sum;
    return diff <= total;
}

/* RTP in millionths, for the failure message. */
static unsigned long long ppm(u128 sum, u128 total)
{
    return (unsigned long long)(sum * 100 / total);
}

#define CHECK_RTP(sum, total, ...)                                                \
    do {                                                                          \
        if (!rtp_ok(sum, total)) {                                                \
            fprintf(stderr, __VA_ARGS__);                                         \
            fprintf(stderr, ": RTP %llu ppm\n", ppm(sum, total));                 \
        }                                                                         \
        CHECK(rtp_ok(sum, total));                                                \
    } while (0)

static u128 binom(uint32_t n, uint32_t k)
{
    if (k > n)
        return 0;
    u128 r = 1;
    for (uint32_t i = 1; i <= k; i++)
        r = r * (n - k + i) / i;
    return r;
}

/* Plinko: slot s has probability C(R, s) / 2^R (each direction floor(f × 2) is 0 or 1
 * for exactly 2^31 values of u). */
static void test_plinko(void)
{
    for (uint32_t risk = 0; risk < ZBC_PLINKO_RISKS; risk++) {
        for (uint32_t rows = ZBC_PLINKO_ROWS_MIN; rows <= ZBC_PLINKO_ROWS_MAX; rows++) {
            u128 sum = 0;
            for (uint32_t s = 0; s <= rows; s++) {
                uint32_t m = zbc_plinko_multiplier(rows, risk, s);
                CHECK(m > 0);
                CHECK_EQ_INT(m, zbc_plinko_multiplier(rows, risk, rows - s)); /* symmetric */
                if (s > 0 && s <= rows / 2)
                    CHECK(m <= zbc_plinko_multiplier(rows, risk, s - 1)); /* edges pay most */
                sum += binom(rows, s) * m;
            }
            CHECK_RTP(sum, (u128)1 << rows, "plinko rows %u risk %u", rows, risk);
        }
    }
    CHECK_EQ_INT(zbc_plinko_multiplier(8, 0, 4), 5982);
    CHECK_EQ_INT(zbc_plinko_multiplier(16, 2, 0), 958500);
    CHECK_EQ_INT(zbc_plinko_multiplier(7, 0, 0), 0);
    CHECK_EQ_INT(zbc_plinko_multiplier(8, 3, 0), 0);
    CHECK_EQ_INT(zbc_plinko_multiplier(8, 0, 9), 0);
}

/* Keno: h hits of n picks among 10 drawn of 40, hypergeometric C(n,h) C(40−n,10−h) / C(40,10). */
static void test_keno(void)
{
    u128 total = binom(40, 10);
    for (uint32_t risk = 0; risk < ZBC_KENO_RISKS; risk++) {
        for (uint32_t n = 1; n <= ZBC_KENO_PICKS_MAX; n++) {
            u128 sum = 0, weights = 0;
            for (uint32_t h = 0; h <= n; h++) {
                u128 w = binom(n, h) * binom(40 - n, 10 - h);
                weights += w;
                sum += w * zbc_keno_multiplier(risk, n, h);
                if (h > 0)
                    CHECK(zbc_keno_multiplier(risk, n, h) >= zbc_keno_multiplier(risk, n, h - 1));
            }
            CHECK(weights == total);
            CHECK_RTP(sum, total, "keno risk %u picks %u", risk, n);
        }
    }
    CHECK_EQ_INT(zbc_keno_multiplier(0, 1, 1), 39600); /* 1 of 1: 0.99 × 4 */
    CHECK_EQ_INT(zbc_keno_multiplier(0, 10, 10), 10000000);
    CHECK_EQ_INT(zbc_keno_multiplier(1, 10, 10), 100000000);
    CHECK_EQ_INT(zbc_keno_multiplier(2, 1, 1), 0);
    CHECK_EQ_INT(zbc_keno_multiplier(0, 11, 1), 0);
    CHECK_EQ_INT(zbc_keno_multiplier(0, 3, 4), 0);
}

/* Wheel: every segment 1 / N. */
static void test_wheel(void)
{
    for (uint32_t n = 10; n <= 50; n += 10) {
        for (uint32_t risk = 0; risk < ZBC_WHEEL_RISKS; risk++) {
            u128 sum = 0;
            for (uint32_t i = 0; i < n; i++)
                sum += zbc_wheel_multiplier(n, risk, i);
            CHECK_RTP(sum, n, "wheel %u segments risk %u", n, risk);
            CHECK(sum == 9900 * n); /* exactly 99 % */
        }
    }
    CHECK(!zbc_wheel_segments_ok(15));
    CHECK(!zbc_wheel_segments_ok(60));
    CHECK_EQ_INT(zbc_wheel_multiplier(15, 0, 0), 0);
    CHECK_EQ_INT(zbc_wheel_multiplier(10, 3, 0), 0);
    CHECK_EQ_INT(zbc_wheel_multiplier(50, 2, 49), 495000);
    CHECK_EQ_INT(zbc_wheel_multiplier(50, 1, 49), 65000);
}

/* Baccarat over 13^6 equally likely rank draws (every card rank 1/13), by the standard
 * third-card rules written out again here. */
static uint32_t rank_value(uint32_t r)
{
    return r == 12 ? 1 : r >= 8 ? 0 : r + 2;
}

static bool banker_draws(uint32_t b, int t)
{
    if (t < 0)
        return b <= 5;
    return b <= 2 || (b == 3 && t != 8) || (b == 4 && t >= 2 && t <= 7) ||
           (b == 5 && t >= 4 && t <= 7) || (b == 6 && t >= 6 && t <= 7);
}

static void test_baccarat(void)
{
    uint64_t win[3] = {0, 0, 0}, total = 0;
    for (uint32_t i = 0; i < 13 * 13 * 13 * 13; i++) {
        uint32_t p1 = i % 13, b1 = i / 13 % 13, p2 = i / 169 % 13, b2 = i / 2197;
        uint32_t p0 = (rank_value(p1) + rank_value(p2)) % 10;
        uint32_t b0 = (rank_value(b1) + rank_value(b2)) % 10;
        for (uint32_t k = 0; k < 169; k++) { /* the next two ranks (used or not) */
            uint32_t x = k % 13, y = k / 13, p = p0, b = b0;
            if (p < 8 && b < 8) {
                int t = -1;
                if (p <= 5) {
                    t = (int)rank_value(x);
                    p = (p + (uint32_t)t) % 10;
                }
                if (banker_draws(b, t))
                    b = (b + rank_value(t < 0 ? x : y)) % 10;
            }
            win[p > b ? 0 : b > p ? 1 : 2]++;
            total++;
        }
    }
    CHECK(total == 4826809); /* 13^6 */
    CHECK(win[0] == 2153464 && win[1] == 2212744 && win[2] == 460601);
    u128 push = (u128)ZBC_FAIR_ONE * win[2];
    CHECK_RTP((u128)zbc_baccarat_multiplier(0) * win[0] + push, total, "baccarat player");
    CHECK_RTP((u128)zbc_baccarat_multiplier(1) * win[1] + push, total, "baccarat banker");
    CHECK_RTP((u128)zbc_baccarat_multiplier(2) * win[2], total, "baccarat tie");
    CHECK_EQ_INT(zbc_baccarat_multiplier(0), 20051);
    CHECK_EQ_INT(zbc_baccarat_multiplier(1), 19513);
    CHECK_EQ_INT(zbc_baccarat_multiplier(2), 103745);
    CHECK_EQ_INT(zbc_baccarat_multiplier(3), 0);
}

/* Blitz: all k differ with probability 52 × 51 × … × (53 − k) / 52^k. */
static void test_blitz(void)
{
    for (uint32_t k = ZBC_BLITZ_CARDS_MIN; k <= ZBC_BLITZ_CARDS_MAX; k++) {
        u128 good = 1, total = 1;
        for (uint32_t i = 0; i < k; i++) {
            good *= 52 - i;
            total *= 52;
        }
        CHECK_RTP(good * zbc_blitz_multiplier(k), total, "blitz %u cards", k);
    }
    CHECK_EQ_INT(zbc_blitz_multiplier(2), 10094);
    CHECK_EQ_INT(zbc_blitz_multiplier(1), 0);
    CHECK_EQ_INT(zbc_blitz_multiplier(17), 0);
}

/* Mines: k safe reveals with m mines of 25 with probability C(25 − m, k) / C(25, k). */
static void test_mines(void)
{
    for (uint32_t m = 1; m <= 24; m++) {
        for (uint32_t k = 1; k <= 25 - m; k++) {
            u128 total = binom(25, k), safe = binom(25 - m, k);
            CHECK_RTP(safe * zbc_mines_multiplier(m, k), total, "mines %u reveals %u", m, k);
        }
        CHECK_EQ_INT(zbc_mines_multiplier(m, 0), 0);
        CHECK_EQ_INT(zbc_mines_multiplier(m, 26 - m), 0);
    }
    CHECK_EQ_INT(zbc_mines_multiplier(24, 1), 247500);
    CHECK_EQ_INT(zbc_mines_multiplier(1, 1), 10312);
    CHECK_EQ_INT(zbc_mines_multiplier(0, 1), 0);
    CHECK_EQ_INT(zbc_mines_multiplier(25, 0), 0);
}

/* Tower: each row is safe with probability S / C, independently. */
static void test_tower(void)
{
    for (uint32_t d = 0; d < ZBC_TOWER_DIFFICULTIES; d++) {
        uint32_t cols, safe;
        const char *name;
        CHECK(zbc_tower_shape(d, &cols, &safe, &name));
        u128 total = 1, good = 1;
        for (uint32_t r = 1; r <= ZBC_TOWER_ROWS; r++) {
            total *= cols;
            good *= safe;
            CHECK_RTP(good * zbc_tower_multiplier(d, r), total, "tower %s row %u", name, r);
        }
        CHECK_EQ_INT(zbc_tower_multiplier(d, 0), 0);
        CHECK_EQ_INT(zbc_tower_multiplier(d, 10), 0);
    }
    CHECK_EQ_INT(zbc_tower_multiplier(ZBC_TOWER_MASTER, 9), 9900ull * 262144);
    CHECK_EQ_INT(zbc_tower_multiplier(ZBC_TOWER_EASY, 1), 13200);
    CHECK_EQ_INT(zbc_tower_multiplier(5, 1), 0);
}

/* Hilo: a guess that wins with w of 13 equally likely ranks. */
static void test_hilo(void)
{
    for (uint32_t w = 1; w <= 13; w++)
        CHECK_RTP((u128)w * zbc_hilo_multiplier(w, 13), 13, "hilo %u of 13", w);
    for (uint32_t w = 1; w <= 52; w++)
        CHECK_RTP((u128)w * zbc_hilo_multiplier(w, 52), 52, "hilo %u of 52", w);
    CHECK_EQ_INT(zbc_hilo_multiplier(12, 13), 10725);
    CHECK_EQ_INT(zbc_hilo_multiplier(0, 13), 0);
    CHECK_EQ_INT(zbc_hilo_multiplier(14, 13), 0);
}

int main(void)
{
    TEST_RUN(test_plinko);
    TEST_RUN(test_keno);
    TEST_RUN(test_wheel);
    TEST_RUN(test_baccarat);
    TEST_RUN(test_blitz);
    TEST_RUN(test_mines);
    TEST_RUN(test_tower);
    TEST_RUN(test_hilo);
    return test_summary("apps_fair_pay");
}
