/* The producer's timer is not kept waiting behind a turn of other
 * callbacks (node/zbcd/producer_loop.c zbc_producer_base_new; docs/p2p.md
 * §6 "Loop turns").
 *
 * Found in the four-validator load benchmark at twice the capacity
 * (docs/benchmarks.md, 2026-12-04): blocks started up to 727 ms after
 * their slot (p90 366 ms), and one such late start let the next-ranked
 * validator publish a competitor.  The timer had the loop's higher
 * priority, but libevent runs every callback active in a turn before it
 * looks for due timers again, so a turn of peers' transaction answers (30
 * - 140 ms each under load) and API batches kept it waiting.  Now the base
 * looks again once ZBC_LOOP_DISPATCH_MS of lower-priority callbacks have
 * run.
 *
 * The check is about order, not time: two lower-priority callbacks are
 * active together, each busy for longer than the dispatch interval, and a
 * priority-0 timer falls due while the first one runs; it must run before
 * the second.  On a plain base (libevent's default) it runs after both;
 * that is checked too, so the test shows what the configuration changes. */
#include <event2/event.h>
#include <string.h>
#include <time.h>

#include "node/zbcd/producer_loop.h"
#include "testlib.h"

struct order {
    char seq[8];
    int n;
    struct event *low1, *low2, *timer;
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void busy(double ms)
{
    double end = now_ms() + ms;
    while (now_ms() < end) {
    }
}

static void note(struct order *o, char c)
{
    if (o->n < (int)sizeof o->seq - 1)
        o->seq[o->n++] = c;
}

static void on_low1(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    note(arg, '1');
    busy(4 * ZBC_LOOP_DISPATCH_MS); /* the timer falls due meanwhile */
}

static void on_low2(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    note(arg, '2');
    busy(4 * ZBC_LOOP_DISPATCH_MS);
}

static void on_timer(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    note(arg, 'T');
}

/* The order the three callbacks ran in on base. */
static void run(struct event_base *base, struct order *o)
{
    memset(o, 0, sizeof *o);
    o->low1 = event_new(base, -1, 0, on_low1, o);
    o->low2 = event_new(base, -1, 0, on_low2, o);
    o->timer = evtimer_new(base, on_timer, o);
    CHECK(o->low1 != NULL && o->low2 != NULL && o->timer != NULL);
    CHECK(event_priority_set(o->timer, 0) == 0);
    struct timeval due = {0, ZBC_LOOP_DISPATCH_MS * 1000}; /* inside low1 */
    CHECK(evtimer_add(o->timer, &due) == 0);
    event_active(o->low1, EV_TIMEOUT, 0);
    event_active(o->low2, EV_TIMEOUT, 0);
    CHECK(event_base_dispatch(base) == 1); /* no events left */
    event_free(o->low1);
    event_free(o->low2);
    event_free(o->timer);
}

static void test_timer_between_callbacks(void)
{
    struct event_base *base = zbc_producer_base_new();
    CHECK(base != NULL);
    CHECK_EQ_INT(event_base_get_npriorities(base), 2);
    struct order o;
    run(base, &o);
    CHECK_EQ_STR(o.seq, "1T2");
    event_base_free(base);
}

static void test_plain_base_waits(void)
{
    struct event_base *base = event_base_new();
    CHECK(base != NULL);
    CHECK(event_base_priority_init(base, 2) == 0);
    struct order o;
    run(base, &o);
    CHECK_EQ_STR(o.seq, "12T");
    event_base_free(base);
}

int main(void)
{
    TEST_RUN(test_timer_between_callbacks);
    TEST_RUN(test_plain_base_waits);
    return test_summary("node_loop_priority");
}
