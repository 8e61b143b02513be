/* The app record bytes and the pure lifecycle rules (apps/app.h). */
#include "apps/app.h"

#include "crypto/bytes.h"
#include "crypto/hash.h"
#include "testlib.h"

static void sample(struct zbc_app *a)
{
    memset(a, 0, sizeof *a);
    a->id = 77;
    a->type = 33; /* pig */
    a->status = ZBC_APP_ACTIVE;
    a->seats = 3;
    a->n_seated = 3;
    a->clock = 1;
    a->stake = 1000;
    a->pot = 3000;
    a->created = 5;
    a->joined = 9;
    a->deadline = 249;
    a->moves = 4;
    a->history_n = 11;
    a->winner = ZBC_APP_NO_SEAT;
    a->loser = ZBC_APP_NO_SEAT;
    a->has_opponent = false;
    for (int i = 0; i < 3; i++) {
        uint8_t pk[32];
        memset(pk, 0x10 + i, 32);
        zbc_addr_from_ed25519(&a->seat[i], pk);
    }
    a->state_len = 5;
    memcpy(a->state, "\x01\x02\x03\x04\x05", 5);
    a->has_pending = true;
    a->pending_seat = 2;
    memset(a->pending_hash, 0xab, 32);
    a->pending_len = 1;
    a->pending_move[0] = 0;
}

static void test_record_roundtrip(void)
{
    static struct zbc_app a, b;
    static uint8_t buf[ZBC_APP_RECORD_MAX], buf2[ZBC_APP_RECORD_MAX];
    struct zbc_err err;
    sample(&a);
    size_t n = zbc_app_encode(&a, buf, sizeof buf);
    /* fixed 70 + 3 paid u64 + 3 seats of 36 + params len 2 + state len 2
     * + 5 + pending 1 + 32 + 2 + 1 */
    CHECK_EQ_INT(n, 70 + 3 * 8 + 3 * 36 + 2 + 2 + 5 + 35 + 1);
    CHECK_EQ_INT(buf[0], ZBC_APP_VERSION);
    CHECK_EQ_INT(buf[5], 4); /* flags: pending only */
    CHECK(zbc_app_decode(&b, buf, n, &err));
    b.id = a.id; /* the id is the key, not in the record */
    size_t n2 = zbc_app_encode(&b, buf2, sizeof buf2);
    CHECK_EQ_INT(n2, n);
    CHECK_EQ_MEM(buf, buf2, n);
    CHECK_EQ_INT(b.pot, 3000);
    CHECK_EQ_INT(b.deadline, 249);
    CHECK(zbc_addr_equal(&b.seat[2], &a.seat[2]));
    CHECK_EQ_INT(b.pending_seat, 2);
    /* every truncation fails, a trailing byte fails */
    for (size_t k = 0; k < n; k++)
        CHECK(!zbc_app_decode(&b, buf, k, &err));
    buf[n] = 0;
    CHECK(!zbc_app_decode(&b, buf, n + 1, &err));
    CHECK(strstr(err.msg, "trailing") != NULL);
    /* bad fields */
    uint8_t save;
    save = buf[0], buf[0] = 1; /* version 1 had no outcome fields */
    CHECK(!zbc_app_decode(&b, buf, n, &err));
    CHECK(strstr(err.msg, "version") != NULL);
    buf[0] = save;
    save = buf[2], buf[2] = 4;
    CHECK(!zbc_app_decode(&b, buf, n, &err));
    CHECK(strstr(err.msg, "status") != NULL);
    buf[2] = save;
    save = buf[4], buf[4] = 4;
    CHECK(!zbc_app_decode(&b, buf, n, &err));
    CHECK(strstr(err.msg, "seats") != NULL);
    buf[4] = save;
    save = buf[5], buf[5] = 0x80;
    CHECK(!zbc_app_decode(&b, buf, n, &err));
    CHECK(strstr(err.msg, "flags") != NULL);
    buf[5] = save;
    save = buf[6], buf[6] = 3;
    CHECK(!zbc_app_decode(&b, buf, n, &err));
    CHECK(strstr(err.msg, "clock") != NULL);
    buf[6] = save;
    save = buf[55], buf[55] = 10;
    CHECK(!zbc_app_decode(&b, buf, n, &err));
    CHECK(strstr(err.msg, "ending 10 is unknown") != NULL);
    buf[55] = save;
    /* an Active app carries no outcome */
    save = buf[56], buf[56] = 1;
    CHECK(!zbc_app_decode(&b, buf, n, &err));
    CHECK(strstr(err.msg, "active app carries an outcome") != NULL);
    buf[56] = save;
    save = buf[62], buf[62] = 1; /* rake */
    CHECK(!zbc_app_decode(&b, buf, n, &err));
    CHECK(strstr(err.msg, "carries an outcome") != NULL);
    buf[62] = save;
    save = buf[70], buf[70] = 1; /* paid[0] */
    CHECK(!zbc_app_decode(&b, buf, n, &err));
    CHECK(strstr(err.msg, "carries an outcome") != NULL);
    buf[70] = save;
    save = buf[57], buf[57] = 3; /* loser past the seats */
    CHECK(!zbc_app_decode(&b, buf, n, &err));
    CHECK(strstr(err.msg, "loser seat 3 is out of range") != NULL);
    buf[57] = save;
    a.escrow = a.pot + 1;
    n = zbc_app_encode(&a, buf, sizeof buf);
    CHECK(!zbc_app_decode(&b, buf, n, &err));
    CHECK(strstr(err.msg, "escrow") != NULL);
    CHECK_EQ_INT(zbc_app_encode(&a, buf, 100), 0);
}

/* Encodes a, decodes it; returns the decode verdict with err. */
static int reencode(const struct zbc_app *a, struct zbc_err *err)
{
    static uint8_t buf[ZBC_APP_RECORD_MAX];
    static struct zbc_app b;
    size_t n = zbc_app_encode(a, buf, sizeof buf);
    CHECK(n > 0);
    return zbc_app_decode(&b, buf, n, err);
}

/* The outcome fields of ended records: what decode accepts and refuses
 * (docs/protocol-apps.md §7). */
static void test_record_outcomes(void)
{
    static struct zbc_app a;
    struct zbc_err err;
    sample(&a);
    a.has_pending = false;
    a.status = ZBC_APP_FINISHED;
    a.pot = 0;
    a.clock = ZBC_APP_NO_CLOCK;
    a.ended = 30;
    /* resign by seat 0 in 3 seats, rake 30: seats 1 and 2 share 2970 */
    a.end = ZBC_END_RESIGN;
    a.loser = 0;
    a.winner = ZBC_APP_NO_SEAT;
    a.rake = 30;
    a.paid[1] = 1485;
    a.paid[2] = 1485;
    CHECK(reencode(&a, &err));
    {
        static uint8_t buf[ZBC_APP_RECORD_MAX];
        static struct zbc_app b;
        size_t n = zbc_app_encode(&a, buf, sizeof buf);
        CHECK_EQ_INT(buf[0], 2);
        CHECK_EQ_INT(buf[55], ZBC_END_RESIGN);
        CHECK_EQ_INT(buf[56], 0xff);
        CHECK_EQ_INT(buf[57], 0);
        CHECK_EQ_INT(zbc_get_le64(buf + 62), 30);
        CHECK_EQ_INT(zbc_get_le64(buf + 78), 1485);
        CHECK(zbc_app_decode(&b, buf, n, &err));
        CHECK_EQ_INT(b.loser, 0);
        CHECK_EQ_INT(b.rake, 30);
        CHECK_EQ_INT(b.paid[2], 1485);
    }
    /* the loser is never the winner */
    a.winner = 0;
    CHECK(!reencode(&a, &err));
    CHECK(strstr(err.msg, "winner seat 0 does not fit ending resign") != NULL);
    a.winner = 1; /* one receiving seat: it is the winner */
    CHECK(reencode(&a, &err));
    /* a resign names its loser */
    a.loser = ZBC_APP_NO_SEAT;
    CHECK(!reencode(&a, &err));
    CHECK(strstr(err.msg, "does not fit ending resign") != NULL);
    /* a win names a winner and no loser */
    a.end = ZBC_END_WIN;
    a.winner = ZBC_APP_NO_SEAT;
    CHECK(!reencode(&a, &err));
    CHECK(strstr(err.msg, "names no winner") != NULL);
    a.winner = 2;
    a.loser = 1;
    CHECK(!reencode(&a, &err));
    CHECK(strstr(err.msg, "loser seat 1 does not fit ending win") != NULL);
    a.loser = ZBC_APP_NO_SEAT;
    CHECK(reencode(&a, &err));
    /* a draw takes no rake and has no winner */
    a.end = ZBC_END_DRAW;
    CHECK(!reencode(&a, &err));
    a.winner = ZBC_APP_NO_SEAT;
    CHECK(!reencode(&a, &err));
    CHECK(strstr(err.msg, "takes no rake") != NULL);
    a.rake = 0;
    CHECK(reencode(&a, &err));
    /* an ended app holds nothing */
    a.pot = 1;
    CHECK(!reencode(&a, &err));
    CHECK(strstr(err.msg, "holds a pot") != NULL);
    a.pot = 0;
    /* endings and statuses go together */
    a.end = ZBC_END_EXPIRED;
    CHECK(!reencode(&a, &err));
    CHECK(strstr(err.msg, "does not fit status finished") != NULL);
    a.status = ZBC_APP_ABANDONED;
    CHECK(reencode(&a, &err));
    a.end = ZBC_END_TIMEOUT;
    a.loser = 1;
    CHECK(!reencode(&a, &err));
    CHECK(strstr(err.msg, "does not fit status abandoned") != NULL);
    /* an empty seat is paid nothing */
    a.status = ZBC_APP_ABANDONED;
    a.end = ZBC_END_EXPIRED;
    a.loser = ZBC_APP_NO_SEAT;
    a.n_seated = 2;
    CHECK(!reencode(&a, &err));
    CHECK(strstr(err.msg, "pays empty seat 2") != NULL);
    a.paid[2] = 0;
    CHECK(reencode(&a, &err));
    /* payouts that overflow u64 */
    a.paid[0] = UINT64_MAX;
    a.paid[1] = 1;
    CHECK(!reencode(&a, &err));
    CHECK(strstr(err.msg, "overflow") != NULL);
}

static void test_check_create(void)
{
    struct zbc_err err;
    CHECK(zbc_app_check_create(1, 0, 2, NULL, 0, false, &err));
    CHECK(zbc_app_check_create(1, 0, 2, NULL, 0, true, &err));
    CHECK(!zbc_app_check_create(1, 5, 2, NULL, 0, false, &err));
    CHECK(strstr(err.msg, "stake_token must be 0") != NULL);
    CHECK(!zbc_app_check_create(1, 0, 3, NULL, 0, false, &err));
    CHECK(strstr(err.msg, "seats") != NULL);
    CHECK(!zbc_app_check_create(1, 0, 1, NULL, 0, false, &err));
    CHECK(!zbc_app_check_create(99, 0, 2, NULL, 0, false, &err));
    CHECK(strstr(err.msg, "unknown app type 99") != NULL);
    uint8_t p[1] = {0};
    CHECK(!zbc_app_check_create(1, 0, 2, p, 1, false, &err));
    CHECK(strstr(err.msg, "CreateApp params") != NULL);
    /* pig takes 2-4; an opponent only with 2 */
    CHECK(zbc_app_check_create(33, 0, 4, NULL, 0, false, &err));
    CHECK(!zbc_app_check_create(33, 0, 3, NULL, 0, true, &err));
    CHECK(strstr(err.msg, "designated opponent") != NULL);
    /* solo: seats 1 only, params parsed, no opponent */
    uint8_t coin[3] = {1, 1, 'x'};
    CHECK(zbc_app_check_create(17, 0, 1, coin, 3, false, &err));
    CHECK(!zbc_app_check_create(17, 0, 2, coin, 3, false, &err));
    CHECK(strstr(err.msg, "seats = 1") != NULL);
    CHECK(!zbc_app_check_create(17, 0, 1, coin, 3, true, &err));
    CHECK(strstr(err.msg, "no opponent") != NULL);
    coin[0] = 2;
    CHECK(!zbc_app_check_create(17, 0, 1, coin, 3, false, &err));
    CHECK(!zbc_app_check_create(33, 0, 1, NULL, 0, false, &err));
    static uint8_t big[ZBC_APP_PARAMS_MAX + 1];
    CHECK(!zbc_app_check_create(7, 0, 2, big, sizeof big, false, &err));
    CHECK(strstr(err.msg, "exceed") != NULL);
}

static void test_rules(void)
{
    /* first seat recomputed from the formula with SHA3 directly */
    uint8_t seed[32], buf[48], h[32];
    for (int i = 0; i < 32; i++)
        seed[i] = (uint8_t)(i * 7 + 1);
    for (uint64_t id = 1; id < 200; id += 13) {
        memcpy(buf, "ZBC-TURN", 8);
        memcpy(buf + 8, seed, 32);
        for (int i = 0; i < 8; i++)
            buf[40 + i] = (uint8_t)(id >> (8 * i));
        zbc_sha3_256(h, buf, 48);
        uint64_t v = 0;
        for (int i = 7; i >= 0; i--)
            v = v << 8 | h[i];
        for (uint8_t seats = 2; seats <= 4; seats++)
            CHECK_EQ_INT(zbc_app_first_seat(seed, id, seats), v % seats);
    }
    CHECK_EQ_INT(zbc_app_rake(2001, 100), 20);
    CHECK_EQ_INT(zbc_app_rake(99, 100), 0);
    CHECK_EQ_INT(zbc_app_rake(UINT64_MAX, 10000), UINT64_MAX);
    CHECK_EQ_INT(zbc_app_rake(UINT64_MAX, 100), UINT64_MAX / 100);
    uint64_t each, extra;
    zbc_app_split(1981, 3, &each, &extra);
    CHECK_EQ_INT(each, 660);
    CHECK_EQ_INT(extra, 1);
    zbc_app_split(5, 1, &each, &extra);
    CHECK_EQ_INT(each, 5);
    CHECK_EQ_INT(extra, 0);
    CHECK_EQ_STR(zbc_app_status_name(ZBC_APP_ABANDONED), "abandoned");
    CHECK_EQ_STR(zbc_app_end_name(ZBC_END_TIMEOUT), "timeout");
    CHECK_EQ_STR(zbc_app_end_name(ZBC_END_ABANDONED), "abandoned");
    CHECK_EQ_STR(zbc_app_end_name(ZBC_END_EXPIRED), "expired");
}

/* Who shares a resign / timeout pot (zbc_app_split_seats): every seat
 * but the loser and the seats out of play; when that is nobody, every
 * seat but the loser.  Amounts pinned for 2, 3 and 4 seats with stake
 * 1000 and rake 100 bps (docs/protocol-apps.md §3). */
static void test_split_seats(void)
{
    /* 2 seats: seat 0 resigns, seat 1 takes 2000 - 20 */
    CHECK_EQ_INT(zbc_app_split_seats(2, 0, 0), 0x2);
    CHECK_EQ_INT(zbc_app_split_seats(2, 1, 0), 0x1);
    /* 3 seats: seat 1 times out; seats 0 and 2 share */
    CHECK_EQ_INT(zbc_app_split_seats(3, 1, 0), 0x5);
    /* seat 2 is out: seat 0 alone */
    CHECK_EQ_INT(zbc_app_split_seats(3, 1, 0x4), 0x1);
    /* 4 seats: seat 3 resigns, seat 1 out: seats 0 and 2 */
    CHECK_EQ_INT(zbc_app_split_seats(4, 3, 0x2), 0x5);
    CHECK_EQ_INT(zbc_app_split_seats(4, 0, 0), 0xe);
    /* nobody else in play: every seat but the loser */
    CHECK_EQ_INT(zbc_app_split_seats(3, 0, 0x6), 0x6);
    CHECK_EQ_INT(zbc_app_split_seats(2, 0, 0x2), 0x2);
    /* loser out of range (none): everyone in play */
    CHECK_EQ_INT(zbc_app_split_seats(4, ZBC_APP_NO_SEAT, 0x8), 0x7);

    uint64_t each, extra;
    /* 2 seats: pot 2000, rake 20, one receiver gets 1980 */
    CHECK_EQ_INT(zbc_app_rake(2000, 100), 20);
    zbc_app_split(1980, 1, &each, &extra);
    CHECK_EQ_INT(each + extra, 1980);
    /* 3 seats: pot 3000, rake 30, two receivers 1485 each */
    CHECK_EQ_INT(zbc_app_rake(3000, 100), 30);
    zbc_app_split(2970, 2, &each, &extra);
    CHECK_EQ_INT(each, 1485);
    CHECK_EQ_INT(extra, 0);
    /* 4 seats: pot 4000, rake 40, three receivers: 1320 each */
    CHECK_EQ_INT(zbc_app_rake(4000, 100), 40);
    zbc_app_split(3960, 3, &each, &extra);
    CHECK_EQ_INT(each, 1320);
    CHECK_EQ_INT(extra, 0);
    /* 4 seats of stake 1001: pot 4004, rake 40, 3964 = 3 x 1321 + 1 */
    CHECK_EQ_INT(zbc_app_rake(4004, 100), 40);
    zbc_app_split(3964, 3, &each, &extra);
    CHECK_EQ_INT(each, 1321);
    CHECK_EQ_INT(extra, 1);
}

/* The out seats of a stored state are the engine's out_mask. */
static void test_out_mask(void)
{
    static struct zbc_app a;
    struct zbc_err err;
    uint8_t out = 0xaa;
    memset(&a, 0, sizeof a);
    a.id = 4;
    a.type = 1; /* tic-tac-toe: nobody is ever out */
    a.seats = 2;
    a.n_seated = 2;
    CHECK(zbc_app_out_mask(&a, &out, &err));
    CHECK_EQ_INT(out, 0); /* not started */
    CHECK(zbc_app_start(&a, 0, NULL, &err));
    out = 0xaa;
    CHECK(zbc_app_out_mask(&a, &out, &err));
    CHECK_EQ_INT(out, 0);
    a.state[0] ^= 0xff;
    a.state_len = 1;
    CHECK(!zbc_app_out_mask(&a, &out, &err));
    CHECK(strstr(err.msg, "engine state") != NULL);
}

static void test_engine_glue(void)
{
    static struct zbc_app a;
    struct zbc_err err;
    memset(&a, 0, sizeof a);
    a.id = 3;
    a.type = 1;
    a.seats = 2;
    a.n_seated = 2;
    CHECK(!zbc_app_check_move(&a, 0, (const uint8_t *)"\x04", 1, &err));
    CHECK(strstr(err.msg, "not started") != NULL);
    CHECK(zbc_app_start(&a, 1, NULL, &err));
    int seat;
    CHECK(zbc_app_turn(&a, &seat, &err));
    CHECK_EQ_INT(seat, 1); /* the first seat is X and moves first */
    CHECK(!zbc_app_check_move(&a, 0, (const uint8_t *)"\x04", 1, &err));
    CHECK(zbc_app_check_move(&a, 1, (const uint8_t *)"\x04", 1, &err));
    struct zbc_result res;
    int next;
    CHECK(zbc_app_play(&a, 1, (const uint8_t *)"\x04", 1, NULL, &res, &next,
                       &err));
    CHECK_EQ_INT(next, 0);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_ONGOING);
    uint16_t len = a.state_len;
    CHECK(!zbc_app_play(&a, 0, (const uint8_t *)"\x04", 1, NULL, &res, &next,
                        &err));
    CHECK_EQ_INT(a.state_len, len);
    a.state[0] ^= 0xff;
    a.state_len = 1;
    CHECK(!zbc_app_turn(&a, &seat, &err));
    CHECK(strstr(err.msg, "engine state") != NULL);
    a.type = 17;
    CHECK(zbc_app_engine(&a) == NULL);
    CHECK(!zbc_app_start(&a, 0, NULL, &err));
    CHECK(strstr(err.msg, "no game engine") != NULL);
}

int main(void)
{
    TEST_RUN(test_record_roundtrip);
    TEST_RUN(test_record_outcomes);
    TEST_RUN(test_split_seats);
    TEST_RUN(test_out_mask);
    TEST_RUN(test_check_create);
    TEST_RUN(test_rules);
    TEST_RUN(test_engine_glue);
    return test_summary("apps_app");
}
