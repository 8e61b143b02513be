/* zbc-load's pure parts (node/bench/load_stats.h, load_work.h;
 * docs/load.md): the open-loop schedule, percentiles, refusal classes,
 * option values, and the workload's transactions, which must parse, pass
 * consensus/tx_valid.h for the chain and pay exactly the minimum fee. */
#include <string.h>

#include "apps/fair.h"
#include "consensus/tx.h"
#include "consensus/tx_body.h"
#include "consensus/tx_valid.h"
#include "node/bench/load_stats.h"
#include "node/bench/load_work.h"
#include "testlib.h"

static void test_schedule(void)
{
    struct zbc_load_sched s;
    zbc_load_sched_init(&s, 100, 10.0, 50);
    CHECK_EQ_INT(zbc_load_sched_take(&s, 9.99), 0); /* before the start */
    CHECK_EQ_INT(zbc_load_sched_take(&s, 10.0), 1); /* send 0 at start */
    CHECK_EQ_INT(zbc_load_sched_take(&s, 10.0), 0);
    CHECK_EQ_INT(zbc_load_sched_take(&s, 10.0099), 0);
    CHECK_EQ_INT(zbc_load_sched_take(&s, 10.1), 10); /* sends 1..10 */
    CHECK_EQ_INT(s.issued, 11);
    /* late: everything due at once, never more than the total */
    CHECK_EQ_INT(zbc_load_sched_take(&s, 100.0), 39);
    CHECK_EQ_INT(zbc_load_sched_take(&s, 200.0), 0);
    CHECK(zbc_load_sched_due_at(&s, 0) == 10.0);
    CHECK(zbc_load_sched_due_at(&s, 25) == 10.25);
    /* a fractional rate: 0.5/s is one send every 2 s */
    zbc_load_sched_init(&s, 0.5, 0, 10);
    CHECK_EQ_INT(zbc_load_sched_take(&s, 1.9), 1);
    CHECK_EQ_INT(zbc_load_sched_take(&s, 2.0), 1);
    CHECK_EQ_INT(zbc_load_sched_take(&s, 5.9), 1);
}

static void test_percentiles(void)
{
    double v[100];
    for (int i = 0; i < 100; i++)
        v[i] = (double)(100 - i); /* 100 .. 1 */
    zbc_load_sort(v, 100);
    CHECK(v[0] == 1 && v[99] == 100);
    CHECK(zbc_load_percentile(v, 100, 50) == 50);
    CHECK(zbc_load_percentile(v, 100, 99) == 99);
    CHECK(zbc_load_percentile(v, 100, 100) == 100);
    CHECK(zbc_load_percentile(v, 100, 1) == 1);
    CHECK(zbc_load_percentile(v, 100, 99.5) == 100);
    double one = 7;
    CHECK(zbc_load_percentile(&one, 1, 50) == 7);
    CHECK(zbc_load_percentile(&one, 1, 99) == 7);
    CHECK(zbc_load_percentile(NULL, 0, 50) == 0);
    double three[3] = {3, 1, 2};
    zbc_load_sort(three, 3);
    CHECK(zbc_load_percentile(three, 3, 50) == 2); /* rank ceil(1.5) = 2 */
    CHECK(zbc_load_percentile(three, 3, 34) == 2);
    CHECK(zbc_load_percentile(three, 3, 33) == 1);
}

/* A run sending 100/s from t = 10 to 40: blocks a second apart from 11,
 * the first ones filling up while the pipeline does. */
static void test_steady_rate(void)
{
    double ts[34];
    uint32_t ours[34];
    for (int i = 0; i < 34; i++) {
        ts[i] = 11.0 + i;
        ours[i] = 100;
    }
    ours[0] = 20; /* the warm-up: less than the rate */
    ours[1] = 60;
    ours[31] = 100; /* stamped 42, after the sending: left out */
    double span = -1;
    CHECK(zbc_load_warmup_s(30) == 3.0);
    CHECK(zbc_load_warmup_s(90) == 9.0);
    CHECK(zbc_load_warmup_s(5) == ZBC_LOAD_WARMUP_MIN_S);
    /* blocks stamped 13 .. 40: 27 blocks after the first over 27 s */
    CHECK(zbc_load_steady_rate(ts, ours, 34, 13, 40, &span) == 100.0);
    CHECK(span == 27.0);
    /* the warm-up included, it reads under the rate, as the window does */
    double from_start = zbc_load_steady_rate(ts, ours, 34, 10, 40, &span);
    CHECK(from_start < 100.0 && from_start > 90.0);
    /* one block short of a full one in the window: it shows */
    ours[20] = 73;
    CHECK(zbc_load_steady_rate(ts, ours, 34, 13, 40, &span) == 99.0);
    /* a gap with no block: the rate counts time, not blocks */
    double ts2[3] = {20, 21, 25};
    uint32_t o2[3] = {50, 50, 200};
    CHECK(zbc_load_steady_rate(ts2, o2, 3, 20, 25, &span) == 50.0);
    CHECK(span == 5.0);
    /* fewer than two blocks in the window: 0, span 0 */
    CHECK(zbc_load_steady_rate(ts2, o2, 3, 21.5, 24, &span) == 0);
    CHECK(span == 0);
    CHECK(zbc_load_steady_rate(ts2, o2, 3, 24, 30, &span) == 0);
    CHECK(zbc_load_steady_rate(NULL, NULL, 0, 0, 1, &span) == 0);
    /* equal stamps give no time to divide by */
    double ts3[2] = {5, 5};
    CHECK(zbc_load_steady_rate(ts3, o2, 2, 0, 10, &span) == 0);
}

static void test_write_bytes(void)
{
    /* /proc/PID/io as Linux prints it */
    static const char io[] = "rchar: 4521\nwchar: 99120\nsyscr: 12\n"
                             "syscw: 40\nread_bytes: 0\n"
                             "write_bytes: 1589248\n"
                             "cancelled_write_bytes: 4096\n";
    uint64_t v = 0;
    CHECK(zbc_load_parse_write_bytes(io, strlen(io), &v) == 1);
    CHECK(v == 1589248);
    /* cancelled_write_bytes alone is not write_bytes */
    static const char only_cancelled[] = "wchar: 5\ncancelled_write_bytes: 7\n";
    v = 3;
    CHECK(zbc_load_parse_write_bytes(only_cancelled, strlen(only_cancelled),
                                     &v) == 0);
    CHECK(v == 3);
    /* the last line without its newline, and a short read cutting a line */
    static const char last[] = "syscw: 1\nwrite_bytes: 0";
    CHECK(zbc_load_parse_write_bytes(last, strlen(last), &v) == 1);
    CHECK(v == 0);
    CHECK(zbc_load_parse_write_bytes(io, 60, &v) == 0);
    /* not a number, an empty value, a value past 64 bits: refused */
    static const char bad1[] = "write_bytes: 12x\n";
    static const char bad2[] = "write_bytes: \n";
    static const char bad3[] = "write_bytes: 18446744073709551616\n";
    static const char max[] = "write_bytes: 18446744073709551615\n";
    CHECK(zbc_load_parse_write_bytes(bad1, strlen(bad1), &v) == 0);
    CHECK(zbc_load_parse_write_bytes(bad2, strlen(bad2), &v) == 0);
    CHECK(zbc_load_parse_write_bytes(bad3, strlen(bad3), &v) == 0);
    CHECK(zbc_load_parse_write_bytes(max, strlen(max), &v) == 1);
    CHECK(v == UINT64_MAX);
    CHECK(zbc_load_parse_write_bytes("", 0, &v) == 0);
}

static void test_refusals(void)
{
    CHECK_EQ_INT(zbc_load_refusal_class(503, "mempool is full"),
                 ZBC_LOAD_REF_MEMPOOL_FULL);
    CHECK_EQ_INT(zbc_load_refusal_class(400, "fee too low: 100 < 200"),
                 ZBC_LOAD_REF_FEE);
    CHECK_EQ_INT(zbc_load_refusal_class(400, "insufficient balance: 1"),
                 ZBC_LOAD_REF_BALANCE);
    CHECK_EQ_INT(zbc_load_refusal_class(404, "unknown app"),
                 ZBC_LOAD_REF_NOT_FOUND);
    CHECK_EQ_INT(zbc_load_refusal_class(
                     400, "a transaction of yours for app 5 is already "
                          "waiting in the mempool (tx ab): send the next "
                          "one after it is in a block"),
                 ZBC_LOAD_REF_APP_WAITING);
    CHECK_EQ_INT(zbc_load_refusal_class(400, "timestamp 5 is outside the "
                                             "window"),
                 ZBC_LOAD_REF_TIME);
    CHECK_EQ_INT(zbc_load_refusal_class(400, "not your turn: seat 1 is to "
                                             "move"),
                 ZBC_LOAD_REF_APP_RULE);
    CHECK_EQ_INT(zbc_load_refusal_class(400, "bad signature"),
                 ZBC_LOAD_REF_OTHER);
    CHECK_EQ_INT(zbc_load_refusal_class(400, NULL), ZBC_LOAD_REF_OTHER);
    CHECK_EQ_STR(zbc_load_refusal_name(ZBC_LOAD_REF_MEMPOOL_FULL),
                 "mempool full");
    /* the API's whole-request refusal while a block is due (503) */
    CHECK_EQ_INT(zbc_load_refusal_class(503, "node busy: its block at "
                                             "height 7 is due in 40 ms"),
                 ZBC_LOAD_REF_BUSY);
    CHECK_EQ_STR(zbc_load_refusal_name(ZBC_LOAD_REF_BUSY), "node busy");
    CHECK_EQ_STR(zbc_load_refusal_name(ZBC_LOAD_REF_COUNT), "other");
}

static void test_option_values(void)
{
    char host[256];
    uint16_t port;
    struct zbc_err err;
    CHECK(zbc_load_parse_url("http://127.0.0.1:8080", host, &port, &err));
    CHECK_EQ_STR(host, "127.0.0.1");
    CHECK_EQ_INT(port, 8080);
    CHECK(zbc_load_parse_url("http://localhost:1/", host, &port, &err));
    CHECK_EQ_STR(host, "localhost");
    CHECK_EQ_INT(port, 1);
    CHECK(!zbc_load_parse_url("https://a:1", host, &port, &err));
    CHECK(strstr(err.msg, "must start with http://") != NULL);
    CHECK(!zbc_load_parse_url("http://a", host, &port, &err));
    CHECK(strstr(err.msg, "needs a host and a port") != NULL);
    CHECK(!zbc_load_parse_url("http://:80", host, &port, &err));
    CHECK(!zbc_load_parse_url("http://a:0", host, &port, &err));
    CHECK(strstr(err.msg, "port") != NULL);
    CHECK(!zbc_load_parse_url("http://a:65536", host, &port, &err));
    CHECK(!zbc_load_parse_url("http://a:80/api", host, &port, &err));
    CHECK(!zbc_load_parse_url("http://u@a:80", host, &port, &err));
    CHECK(strstr(err.msg, "must not contain '@'") != NULL);
    CHECK(!zbc_load_parse_url(NULL, host, &port, &err));

    double v;
    CHECK(zbc_load_parse_number("100", 0.1, 1e6, &v, "--rate", &err));
    CHECK(v == 100);
    CHECK(zbc_load_parse_number("0.5", 0.1, 1e6, &v, "--rate", &err));
    CHECK(v == 0.5);
    CHECK(!zbc_load_parse_number("abc", 0.1, 1e6, &v, "--rate", &err));
    CHECK(strstr(err.msg, "--rate needs a number") != NULL);
    CHECK(!zbc_load_parse_number("1.2.3", 0.1, 1e6, &v, "--rate", &err));
    CHECK(!zbc_load_parse_number("", 0.1, 1e6, &v, "--rate", &err));
    CHECK(!zbc_load_parse_number("-1", 0.1, 1e6, &v, "--rate", &err));
    CHECK(!zbc_load_parse_number("0", 0.1, 1e6, &v, "--rate", &err));
    CHECK(strstr(err.msg, "--rate must be from 0.1 to 1e+06") != NULL);
    CHECK(!zbc_load_parse_number("1e3", 0.1, 1e6, &v, "--rate", &err));
    CHECK(!zbc_load_parse_number(".", 0.1, 1e6, &v, "--rate", &err));
}

#define KEYS 4

static struct zbc_load_chain chain(void)
{
    struct zbc_load_chain c;
    for (int i = 0; i < 32; i++)
        c.genesis[i] = (uint8_t)(i * 7 + 1);
    c.fee_base = 100000;
    c.fee_per_byte = 1000;
    return c;
}

/* t parses, is valid for the chain c and pays exactly the minimum fee. */
static void check_valid(const struct zbc_load_tx *t,
                        const struct zbc_load_chain *c,
                        struct zbc_tx_body *body)
{
    struct zbc_tx tx;
    struct zbc_err err;
    CHECK(zbc_tx_parse(&tx, t->bytes, t->len, &err));
    if (!zbc_tx_valid(&tx, c->genesis, c->fee_base, c->fee_per_byte, body,
                      &err)) {
        fprintf(stderr, "invalid: %s\n", err.msg);
        CHECK(0);
        return;
    }
    CHECK_EQ_INT(tx.fee, (int64_t)(c->fee_base + c->fee_per_byte * t->len));
    CHECK(!zbc_tx_valid_fee(tx.fee - 1, t->len, c->fee_base, c->fee_per_byte,
                            &err));
    uint8_t h[32];
    zbc_tx_hash(h, &tx);
    CHECK_EQ_MEM(h, t->hash, 32);
    /* another chain's genesis: the signature does not verify */
    uint8_t other[32];
    memcpy(other, c->genesis, 32);
    other[0] ^= 1;
    CHECK(!zbc_tx_valid(&tx, other, c->fee_base, c->fee_per_byte, NULL,
                        &err));
}

static void test_keys(void)
{
    struct zbc_load_key a, b, c, d;
    zbc_load_key_derive(&a, "zbc-load", 0);
    zbc_load_key_derive(&b, "zbc-load", 0);
    zbc_load_key_derive(&c, "zbc-load", 1);
    zbc_load_key_derive(&d, "other", 0);
    CHECK_EQ_MEM(a.pk, b.pk, 32);
    CHECK(memcmp(a.pk, c.pk, 32) != 0);
    CHECK(memcmp(a.pk, d.pk, 32) != 0);
    CHECK_EQ_INT(a.addr.type, 0);
    CHECK_EQ_MEM(a.addr.payload, a.pk, 32);
}

static void test_workload(void)
{
    struct zbc_load_chain c = chain();
    struct zbc_load_key keys[KEYS];
    for (uint32_t i = 0; i < KEYS; i++)
        zbc_load_key_derive(&keys[i], "test", i);
    struct zbc_load_mix mix = {60, 20, 20};
    int counts[ZBC_LOAD_KINDS] = {0};
    static uint8_t seen[200][32];
    for (uint64_t k = 0; k < 200; k++) {
        struct zbc_load_tx t, j;
        struct zbc_err err;
        CHECK(zbc_load_gen(&t, &j, k, &mix, keys, KEYS, &c, 1796000000,
                           &err));
        struct zbc_tx_body body;
        check_valid(&t, &c, &body);
        counts[t.kind]++;
        CHECK_EQ_INT(t.kind, zbc_load_kind_of(&mix, k));
        CHECK_EQ_INT(t.sender, k % KEYS);
        for (uint64_t p = 0; p < k; p++)
            CHECK(memcmp(seen[p], t.hash, 32) != 0); /* all distinct */
        memcpy(seen[k], t.hash, 32);
        if (t.kind == ZBC_LOAD_SEND) {
            CHECK_EQ_INT(body.type, ZBC_TX_SEND);
            CHECK_EQ_INT(body.u.send.amount, 1 + k / KEYS);
            CHECK(j.bytes == NULL);
        } else if (t.kind == ZBC_LOAD_BET) {
            CHECK_EQ_INT(body.type, ZBC_TX_APP_CREATE);
            CHECK_EQ_INT(body.u.create.app_type, ZBC_BET_DICE);
            CHECK_EQ_INT(body.u.create.seats, 1);
            CHECK_EQ_INT(body.u.create.stake, ZBC_LOAD_STAKE);
            struct zbc_bet bet;
            CHECK(zbc_bet_parse(&bet, ZBC_BET_DICE, body.u.create.params,
                                body.u.create.params_len, &err));
            CHECK(j.bytes == NULL);
        } else {
            CHECK_EQ_INT(t.kind, ZBC_LOAD_CREATE);
            CHECK_EQ_INT(body.type, ZBC_TX_APP_CREATE);
            CHECK_EQ_INT(body.u.create.app_type, (k / 100) % 2 == 0 ? 1 : 3);
            CHECK_EQ_INT(body.u.create.seats, 2);
            CHECK_EQ_INT(t.app_id, zbc_tx_id_from_hash(t.hash));
            CHECK(j.bytes != NULL);
            if (j.bytes != NULL) {
                struct zbc_tx_body jb;
                check_valid(&j, &c, &jb);
                CHECK_EQ_INT(jb.type, ZBC_TX_APP_JOIN);
                CHECK_EQ_INT(jb.u.ref.app_id, t.app_id);
                CHECK_EQ_INT(j.sender, (k + 1) % KEYS);
                CHECK_EQ_INT(j.kind, ZBC_LOAD_JOIN);
            }
            zbc_load_tx_free(&j);
        }
        zbc_load_tx_free(&t);
    }
    CHECK_EQ_INT(counts[ZBC_LOAD_SEND], 120);
    CHECK_EQ_INT(counts[ZBC_LOAD_BET], 40);
    CHECK_EQ_INT(counts[ZBC_LOAD_CREATE], 40);

    /* a transfer pinned: k = 5 of 4 senders is sender 1 paying 2 units to
     * sender 2 */
    struct zbc_load_mix transfers = {100, 0, 0};
    struct zbc_load_tx t;
    struct zbc_err err;
    CHECK(zbc_load_gen(&t, NULL, 5, &transfers, keys, KEYS, &c, 1796000000,
                       &err));
    struct zbc_tx tx;
    CHECK(zbc_tx_parse(&tx, t.bytes, t.len, &err));
    CHECK(zbc_addr_equal(&tx.sender, &keys[1].addr));
    CHECK(zbc_addr_equal(&tx.recipient, &keys[2].addr));
    CHECK_EQ_INT(tx.timestamp, 1796000000);
    struct zbc_tx_body b;
    CHECK(zbc_tx_body_parse(&b, tx.type, tx.body, tx.body_len, &err));
    CHECK_EQ_INT(b.u.send.amount, 2);
    zbc_load_tx_free(&t);

    /* a move */
    uint8_t mv = 4;
    CHECK(zbc_load_move(&t, &c, &keys[3], 3, 77, &mv, 1, 1796000000, &err));
    struct zbc_tx_body mb;
    check_valid(&t, &c, &mb);
    CHECK_EQ_INT(mb.type, ZBC_TX_APP_MOVE);
    CHECK_EQ_INT(mb.u.move.app_id, 77);
    CHECK_EQ_INT(mb.u.move.move_len, 1);
    CHECK_EQ_INT(mb.u.move.move[0], 4);
    zbc_load_tx_free(&t);

    /* fewer than 2 senders: refused */
    CHECK(!zbc_load_gen(&t, NULL, 0, &mix, keys, 1, &c, 1796000000, &err));
    CHECK(strstr(err.msg, "at least 2 senders") != NULL);
}

int main(void)
{
    TEST_RUN(test_schedule);
    TEST_RUN(test_percentiles);
    TEST_RUN(test_steady_rate);
    TEST_RUN(test_write_bytes);
    TEST_RUN(test_refusals);
    TEST_RUN(test_option_values);
    TEST_RUN(test_keys);
    TEST_RUN(test_workload);
    return test_summary("node_load");
}
