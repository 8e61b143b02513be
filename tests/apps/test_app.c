/* The app record bytes and the pure lifecycle rules (apps/app.h). */
#include "apps/app.h"

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
    /* fixed 61 + 3 seats of 36 + params len 2 + state len 2 + 5 + pending
     * 1 + 32 + 2 + 1 */
    CHECK_EQ_INT(n, 61 + 3 * 36 + 2 + 2 + 5 + 35 + 1);
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
    save = buf[0], buf[0] = 2;
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
    save = buf[55], buf[55] = 6;
    CHECK(!zbc_app_decode(&b, buf, n, &err));
    CHECK(strstr(err.msg, "ending") != NULL);
    buf[55] = save;
    a.escrow = a.pot + 1;
    n = zbc_app_encode(&a, buf, sizeof buf);
    CHECK(!zbc_app_decode(&b, buf, n, &err));
    CHECK(strstr(err.msg, "escrow") != NULL);
    CHECK_EQ_INT(zbc_app_encode(&a, buf, 100), 0);
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
    TEST_RUN(test_check_create);
    TEST_RUN(test_rules);
    TEST_RUN(test_engine_glue);
    return test_summary("apps_app");
}
