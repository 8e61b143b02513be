/* The API's crash view (node/zbcd/json_app.c:crash_fields, docs/api.md §10
 * "crash"): a hand-made snapshot of a settled round with two entries (one
 * cashed out, one crashed), an open round, and hostile records: params
 * that do not parse are an error naming them; a settle event naming an
 * entry that is not there changes nothing. */
#include <stdlib.h>
#include <string.h>

#include "apps/crash.h"
#include "consensus/events.h"
#include "crypto/bytes.h"
#include "node/zbcd/json_app.h"
#include "testlib.h"

static void ev(struct zbc_app_history *h, uint32_t height,
               enum zbc_event_kind kind, uint64_t amount)
{
    memset(h, 0, sizeof *h);
    h->height = height;
    h->ev.kind = kind;
    h->ev.ref = 77;
    h->ev.amount = amount;
    h->ev.seat = ZBC_EVENT_NO_SEAT;
    h->ev.tx_index = ZBC_EVENT_NO_TX;
    zbc_addr_empty(&h->ev.a);
    zbc_addr_empty(&h->ev.b);
}

static void join(struct zbc_app_history *h, uint16_t i, uint64_t stake,
                 uint32_t target)
{
    ev(h, 3, ZBC_EVENT_APP_JOIN, stake);
    zbc_put_le16(h->ev.data, i);
    zbc_put_le32(h->ev.data + 2, target);
    zbc_put_le64(h->ev.data + 6, stake * target / 100);
    h->ev.data_len = 14;
}

static void settle(struct zbc_app_history *h, uint16_t i, uint32_t target,
                   uint64_t ret)
{
    ev(h, 5, ZBC_EVENT_BET_SETTLE, ret);
    zbc_put_le32(h->ev.data, 1234);
    zbc_put_le32(h->ev.data + 4, 250); /* the point: 2.50x */
    h->ev.data[8] = ret > 0;
    zbc_put_le16(h->ev.data + 9, i);
    zbc_put_le32(h->ev.data + 11, target);
    h->ev.data_len = 15;
}

static struct zbc_app_snapshot *round_snapshot(bool settled)
{
    struct zbc_app_snapshot *s = calloc(1, sizeof *s);
    struct zbc_crash_params p = {.window = 2, .client_seed_len = 2};
    memcpy(p.client_seed, "cs", 3);
    s->app.id = 77;
    s->app.type = ZBC_CRASH_TYPE;
    s->app.seats = 1;
    s->app.n_seated = 1;
    s->app.status = settled ? ZBC_APP_FINISHED : ZBC_APP_ACTIVE;
    s->app.end = settled ? ZBC_END_BET : ZBC_END_NONE;
    s->app.winner = s->app.loser = ZBC_APP_NO_SEAT;
    s->app.clock = ZBC_APP_NO_CLOCK;
    s->app.created = 2;
    s->app.deadline = 4;
    s->app.ended = settled ? 5 : 0;
    s->app.params_len = (uint16_t)zbc_crash_encode(&p, s->app.params, 80);
    s->tip = settled ? 5 : 3;
    s->hist = calloc(8, sizeof *s->hist);
    join(&s->hist[0], 0, 1000, 200);
    join(&s->hist[1], 1, 500, 300);
    s->n_hist = 2;
    if (settled) {
        settle(&s->hist[2], 0, 200, 2000);
        settle(&s->hist[3], 1, 300, 0);
        settle(&s->hist[4], 9, 300, 0); /* names no entry: ignored */
        s->n_hist = 5;
    }
    return s;
}

static void free_snapshot(struct zbc_app_snapshot *s)
{
    free(s->hist);
    free(s);
}

static void test_settled(void)
{
    struct zbc_app_snapshot *s = round_snapshot(true);
    json_t *o;
    struct zbc_err err;
    CHECK(zbc_json_app(&o, s, &err));
    CHECK_EQ_STR(json_string_value(json_object_get(o, "game")), "crash");
    json_t *c = json_object_get(o, "crash");
    CHECK_EQ_INT(json_integer_value(json_object_get(c, "window")), 2);
    CHECK_EQ_INT(json_integer_value(json_object_get(c, "close")), 4);
    CHECK_EQ_INT(json_integer_value(json_object_get(c, "seed_height")), 5);
    CHECK(json_is_false(json_object_get(c, "open")));
    CHECK_EQ_STR(json_string_value(json_object_get(c, "client_seed")), "cs");
    CHECK_EQ_STR(json_string_value(json_object_get(c, "nonce")), "77");
    CHECK_EQ_INT(json_integer_value(json_object_get(c, "crash_point")), 250);
    CHECK_EQ_INT(json_integer_value(json_object_get(c, "u")), 1234);
    json_t *es = json_object_get(c, "entries");
    CHECK_EQ_INT((long long)json_array_size(es), 2);
    json_t *e0 = json_array_get(es, 0), *e1 = json_array_get(es, 1);
    CHECK_EQ_INT(json_integer_value(json_object_get(e0, "stake")), 1000);
    CHECK_EQ_INT(json_integer_value(json_object_get(e0, "target")), 200);
    CHECK_EQ_INT(json_integer_value(json_object_get(e0, "max_return")), 2000);
    CHECK(json_is_true(json_object_get(e0, "cashed_out")));
    CHECK_EQ_INT(json_integer_value(json_object_get(e0, "returns")), 2000);
    CHECK(json_is_false(json_object_get(e1, "cashed_out")));
    CHECK_EQ_INT(json_integer_value(json_object_get(e1, "returns")), 0);
    /* the history's settle entries carry u, the point as value, entry */
    json_t *h2 = json_array_get(json_object_get(o, "history"), 2);
    CHECK_EQ_INT(json_integer_value(json_object_get(h2, "u")), 1234);
    CHECK_EQ_INT(json_integer_value(json_object_get(h2, "value")), 250);
    CHECK_EQ_INT(json_integer_value(json_object_get(h2, "entry")), 0);
    CHECK_EQ_INT(json_integer_value(json_object_get(h2, "target")), 200);
    json_decref(o);
    free_snapshot(s);
}

static void test_open_and_bad(void)
{
    struct zbc_app_snapshot *s = round_snapshot(false);
    json_t *o;
    struct zbc_err err;
    CHECK(zbc_json_app(&o, s, &err));
    json_t *c = json_object_get(o, "crash");
    CHECK(json_is_true(json_object_get(c, "open"))); /* tip 3 < close 4 */
    CHECK(json_is_null(json_object_get(c, "crash_point")));
    json_t *e0 = json_array_get(json_object_get(c, "entries"), 0);
    CHECK(json_is_null(json_object_get(e0, "cashed_out")));
    CHECK(json_is_null(json_object_get(e0, "returns")));
    json_decref(o);
    /* another app: "crash" is null */
    s->app.type = 22;
    s->app.params_len = 5;
    memcpy(s->app.params, "\xc8\x00\x00\x00\x00", 5);
    s->n_hist = 0;
    CHECK(zbc_json_app(&o, s, &err));
    CHECK(json_is_null(json_object_get(o, "crash")));
    json_decref(o);
    /* a stored round whose params do not parse */
    s->app.type = ZBC_CRASH_TYPE;
    s->app.params_len = 3;
    CHECK(!zbc_json_app(&o, s, &err));
    CHECK(strstr(err.msg, "stored crash round 77 has bad params") != NULL);
    free_snapshot(s);
}

int main(void)
{
    TEST_RUN(test_settled);
    TEST_RUN(test_open_and_bad);
    return test_summary("node_json_crash");
}
