/* Dev mode (docs/node.md §5 "Automine"): with automine the loop produces
 * only when a block is wanted (a pooled transaction here), never an empty
 * one otherwise; zbc_producer_loop_mine produces N blocks at once, each at
 * the later of the clock and its earliest time, and refuses (nothing
 * produced) when the last would be more than 10 s ahead of the clock,
 * naming how many fit. */
#include <event2/event.h>
#include <stdlib.h>
#include <string.h>

#include "chain_fixture.h"
#include "node/zbcd/chain.h"
#include "node/zbcd/log.h"
#include "node/zbcd/producer_loop.h"
#include "testlib.h"

static uint64_t clock_ms;

static uint64_t test_clock(void)
{
    return clock_ms;
}

static void run_for(struct event_base *base, int ms)
{
    struct timeval tv = {0, ms * 1000};
    event_base_loopexit(base, &tv);
    event_base_dispatch(base);
}

static struct zbc_chain *open_chain(struct fixture *f)
{
    struct zbc_chain *c = NULL;
    struct zbc_err err = {{0}};
    struct zbc_chain_config cfg = {.ledger_dir = f->ledger, .genesis = &f->g,
                                   .key = &f->key};
    if (!zbc_chain_open(&c, &cfg, &err)) {
        fprintf(stderr, "chain open: %s\n", err.msg);
        exit(2);
    }
    return c;
}

static void test_only_when_wanted(void)
{
    struct fixture f;
    fx_setup(&f);
    struct zbc_chain *c = open_chain(&f);
    struct event_base *base = event_base_new();
    struct zbc_producer_loop *p = NULL;
    struct zbc_err err = {{0}};
    bool wanted = true;
    CHECK(zbc_chain_block_wanted(c, &wanted, &err));
    CHECK(!wanted);
    /* long past block 1's earliest time: still nothing without work */
    clock_ms = FX_GENESIS_TIME + 10 * FX_BLOCK_TIME;
    CHECK(zbc_producer_loop_start(&p, base, c, test_clock, &err));
    zbc_producer_loop_set_automine(p, true);
    run_for(base, 200);
    CHECK_EQ_INT(zbc_chain_tip(c)->height, 0);
    /* a transfer: one block with it, then nothing more */
    uint8_t raw[512], h[32];
    size_t len = fx_send(raw, sizeof raw, &f, f.alice_seed, &f.bob, 5, 10000,
                         (int64_t)(clock_ms / 1000));
    bool dup;
    CHECK(zbc_chain_submit(c, raw, len, clock_ms, h, &dup, &err));
    CHECK(zbc_chain_block_wanted(c, &wanted, &err));
    CHECK(wanted);
    run_for(base, 200);
    CHECK_EQ_INT(zbc_chain_tip(c)->height, 1);
    CHECK_EQ_INT(zbc_chain_tip(c)->timestamp_ms, clock_ms);
    clock_ms += 5 * FX_BLOCK_TIME;
    run_for(base, 200);
    CHECK_EQ_INT(zbc_chain_tip(c)->height, 1);
    CHECK_EQ_INT(zbc_producer_loop_produced(p), 1);
    zbc_producer_loop_stop(p);
    event_base_free(base);
    zbc_chain_close(c);
    fx_teardown(&f);
}

static void test_mine(void)
{
    struct fixture f;
    fx_setup(&f);
    struct zbc_chain *c = open_chain(&f);
    struct event_base *base = event_base_new();
    struct zbc_producer_loop *p = NULL;
    struct zbc_err err = {{0}};
    uint32_t mined = 9;
    bool refused = false;
    /* the clock at the genesis: block 1 at +1 s, ..., block 10 at +10 s is
     * the last within 10 s of the clock */
    clock_ms = FX_GENESIS_TIME;
    CHECK(zbc_producer_loop_start(&p, base, c, test_clock, &err));
    zbc_producer_loop_set_automine(p, true);
    CHECK(!zbc_producer_loop_mine(p, 11, &mined, &refused, &err));
    CHECK(refused);
    CHECK_EQ_INT(mined, 0);
    CHECK_EQ_STR(err.msg, "11 blocks of block_time_ms 1000 would run more "
                          "than 10 s ahead of the clock, which no node "
                          "accepts; mine at most 10 now, or use a genesis "
                          "with a smaller block_time_ms");
    CHECK_EQ_INT(zbc_chain_tip(c)->height, 0);
    CHECK(!zbc_producer_loop_mine(p, 0, &mined, &refused, &err));
    CHECK(refused);
    CHECK(!zbc_producer_loop_mine(p, ZBC_PRODUCER_MINE_MAX + 1, &mined,
                                  &refused, &err));
    CHECK(refused);
    CHECK(zbc_producer_loop_mine(p, 10, &mined, &refused, &err));
    CHECK_EQ_INT(mined, 10);
    CHECK_EQ_INT(zbc_chain_tip(c)->height, 10);
    CHECK_EQ_INT(zbc_chain_tip(c)->timestamp_ms,
                 FX_GENESIS_TIME + 10 * FX_BLOCK_TIME);
    /* now 10 s ahead: not one more until the clock moves */
    CHECK(!zbc_producer_loop_mine(p, 1, &mined, &refused, &err));
    CHECK(refused);
    CHECK(strstr(err.msg, "mine at most 0 now") != NULL);
    /* a clock past the tip: the blocks follow the clock */
    clock_ms = FX_GENESIS_TIME + 60 * FX_BLOCK_TIME;
    CHECK(zbc_producer_loop_mine(p, 3, &mined, &refused, &err));
    CHECK_EQ_INT(zbc_chain_tip(c)->height, 13);
    CHECK_EQ_INT(zbc_chain_tip(c)->timestamp_ms, clock_ms + 2 * FX_BLOCK_TIME);
    zbc_producer_loop_stop(p);
    event_base_free(base);
    zbc_chain_close(c);
    fx_teardown(&f);
}

int main(void)
{
    zbc_log_set_level(ZBC_LOG_WARN);
    TEST_RUN(test_only_when_wanted);
    TEST_RUN(test_mine);
    return test_summary("node_automine");
}
