#include "node/zbcd/producer_loop.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "consensus/apply.h"
#include "crypto/hex.h"
#include "node/zbcd/log.h"

struct zbc_producer_loop {
    struct event *timer;
    struct zbc_chain *chain;
    uint64_t (*now_ms)(void);
    uint64_t produced;
    uint32_t warned_height; /* last height a failure was logged for */
    const char *unsynced_reason; /* last reason logged for producing
                                  * while not synced (once per reason) */
    bool automine;               /* produce only when a block is wanted */
    unsigned (*intake)(void *arg); /* zbc_producer_loop_set_intake */
    void *intake_arg;
    uint8_t seen_tip[32]; /* the tip on_tip_moved last saw */
};

uint64_t zbc_wall_clock_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

struct event_base *zbc_producer_base_new(void)
{
    struct event_config *cfg = event_config_new();
    if (cfg == NULL)
        return NULL;
    struct timeval dispatch = {0, ZBC_LOOP_DISPATCH_MS * 1000};
    struct event_base *base = NULL;
    if (event_config_set_max_dispatch_interval(cfg, &dispatch, -1, 1) == 0)
        base = event_base_new_with_config(cfg);
    event_config_free(cfg);
    if (base != NULL && event_base_priority_init(base, 2) != 0) {
        event_base_free(base);
        base = NULL;
    }
    return base;
}

static void arm(struct zbc_producer_loop *p, uint64_t delay_ms)
{
    if (delay_ms > ZBC_PRODUCER_RECHECK_MS)
        delay_ms = ZBC_PRODUCER_RECHECK_MS;
    if (p->automine && delay_ms > ZBC_PRODUCER_AUTOMINE_POLL_MS)
        delay_ms = ZBC_PRODUCER_AUTOMINE_POLL_MS;
    struct timeval tv = {(time_t)(delay_ms / 1000),
                         (suseconds_t)(delay_ms % 1000) * 1000};
    evtimer_add(p->timer, &tv);
}

/* Produces the next block at time t and logs it. */
static int produce_one(struct zbc_producer_loop *p, uint64_t t,
                       struct zbc_block_info *info, struct zbc_err *err)
{
    if (!zbc_chain_produce(p->chain, t, info, err))
        return 0;
    p->produced++;
    char hash[65];
    zbc_hex_encode(hash, info->hash, 32);
    zbc_log_info("block produced height=%u hash=%s txs=%u rank=%u "
                 "timestamp=%llu mempool=%zu cap=%zu build_ms=%u commit_ms=%u "
                 "loop_ms=%u",
                 info->height, hash, info->n_tx, info->rank,
                 (unsigned long long)info->timestamp_ms,
                 zbc_chain_mempool_count(p->chain), info->cap, info->build_ms,
                 info->commit_ms, info->loop_ms);
    return 1;
}

static void on_timer(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct zbc_producer_loop *p = arg;
    struct zbc_slot slot;
    struct zbc_err err = {{0}};
    if (!zbc_chain_next_slot(p->chain, &slot, &err)) {
        zbc_log_error("cannot compute the producer slot: %s", err.msg);
        arm(p, ZBC_PRODUCER_RECHECK_MS);
        return;
    }
    if (!slot.is_validator) {
        arm(p, ZBC_PRODUCER_RECHECK_MS);
        return;
    }
    /* The network gate (docs/p2p.md §8): while a sync delivers blocks, or
     * right after start, building on a stale tip would only make a branch
     * that loses.  The wait is bounded by the P2P layer, which sets
     * may_produce once it is over even when not synced. */
    struct zbc_net_status net;
    bool synced = zbc_chain_synced(p->chain, &net);
    if (!net.may_produce) {
        arm(p, ZBC_PRODUCER_SYNC_WAIT_MS);
        return;
    }
    if (p->automine) {
        bool wanted;
        if (!zbc_chain_block_wanted(p->chain, &wanted, &err)) {
            zbc_log_ratelimited("producer-wanted", ZBC_LOG_PERIOD_MS,
                                ZBC_LOG_ERROR, "automine: cannot read the "
                                "schedule: %s", err.msg);
            arm(p, ZBC_PRODUCER_RECHECK_MS);
            return;
        }
        if (!wanted) {
            arm(p, ZBC_PRODUCER_AUTOMINE_POLL_MS);
            return;
        }
    }
    uint64_t now = p->now_ms();
    if (now < slot.earliest_ms) {
        arm(p, slot.earliest_ms - now);
        return;
    }
    if (p->intake != NULL) {
        /* a block already here but not read yet (the loop was busy):
         * taken first, and the slot computed again if it moved the tip,
         * rather than publishing a competitor to it */
        uint8_t tip[32];
        memcpy(tip, zbc_chain_tip(p->chain)->hash, 32);
        if (p->intake(p->intake_arg) > 0 &&
            memcmp(tip, zbc_chain_tip(p->chain)->hash, 32) != 0) {
            arm(p, 0);
            return;
        }
        now = p->now_ms();
    }
    struct zbc_block_info info;
    if (!produce_one(p, now, &info, &err)) {
        /* One line per height, not one a second; and one per
         * ZBC_LOG_PERIOD_MS while the condition lasts (a full disk). */
        if (p->warned_height != slot.height)
            zbc_log_ratelimited("producer-not-produced", ZBC_LOG_PERIOD_MS,
                                ZBC_LOG_ERROR, "block %u not produced: %s",
                                slot.height, err.msg);
        p->warned_height = slot.height;
        arm(p, ZBC_PRODUCER_RECHECK_MS);
        return;
    }
    if (!synced && p->unsynced_reason != net.reason)
        zbc_log_warn("producing while not synced (%s): docs/p2p.md §8",
                     net.reason);
    p->unsynced_reason = synced ? NULL : net.reason;
    arm(p, 0);
}

/* The chain's tip hook (zbc_chain_set_tip_hook): a tip that moved moves
 * this validator's slot, so the timer looks at once rather than when it
 * was last set to (up to ZBC_PRODUCER_RECHECK_MS: computed for the old
 * tip, when this validator's rank was a smith delay or more away, it fired
 * up to a second after the new slot; docs/node.md §5). */
static void on_tip_moved(void *arg)
{
    struct zbc_producer_loop *p = arg;
    const uint8_t *tip = zbc_chain_tip(p->chain)->hash;
    if (memcmp(tip, p->seen_tip, 32) == 0)
        return;
    memcpy(p->seen_tip, tip, 32);
    arm(p, 0);
}

void zbc_producer_loop_set_intake(struct zbc_producer_loop *p,
                                  unsigned (*intake)(void *arg), void *arg)
{
    p->intake = intake;
    p->intake_arg = arg;
}

void zbc_producer_loop_set_automine(struct zbc_producer_loop *p, bool on)
{
    p->automine = on;
}

int zbc_producer_loop_mine(struct zbc_producer_loop *p, uint32_t n,
                           uint32_t *mined, bool *refused,
                           struct zbc_err *err)
{
    *mined = 0;
    *refused = true;
    if (n < 1 || n > ZBC_PRODUCER_MINE_MAX)
        return zbc_fail(err, "blocks must be an integer from 1 to %u",
                        ZBC_PRODUCER_MINE_MAX);
    struct zbc_slot slot;
    if (!zbc_chain_next_slot(p->chain, &slot, err))
        return *refused = false;
    if (!slot.is_validator)
        return zbc_fail(err, "this node is not a validator of the chain");
    uint64_t now = p->now_ms();
    uint64_t bt = zbc_chain_genesis(p->chain)->block_time_ms;
    uint64_t first = slot.earliest_ms > now ? slot.earliest_ms : now;
    uint64_t limit = now + ZBC_CLOCK_SKEW_MS;
    if (first + (uint64_t)(n - 1) * bt > limit) {
        uint64_t fit = first > limit ? 0 : (limit - first) / bt + 1;
        return zbc_fail(err, "%u blocks of block_time_ms %llu would run "
                        "more than 10 s ahead of the clock, which no node "
                        "accepts; mine at most %llu now, or use a genesis "
                        "with a smaller block_time_ms", n,
                        (unsigned long long)bt, (unsigned long long)fit);
    }
    *refused = false;
    for (uint32_t i = 0; i < n; i++) {
        if (!zbc_chain_next_slot(p->chain, &slot, err))
            return 0;
        now = p->now_ms();
        struct zbc_block_info info;
        if (!produce_one(p, slot.earliest_ms > now ? slot.earliest_ms : now,
                         &info, err))
            return 0;
        (*mined)++;
    }
    return 1;
}

int zbc_producer_loop_start(struct zbc_producer_loop **out,
                            struct event_base *base, struct zbc_chain *c,
                            uint64_t (*now_ms)(void), struct zbc_err *err)
{
    struct zbc_producer_loop *p = calloc(1, sizeof *p);
    if (p == NULL)
        return zbc_fail(err, "out of memory starting the producer");
    p->chain = c;
    p->now_ms = now_ms != NULL ? now_ms : zbc_wall_clock_ms;
    p->timer = evtimer_new(base, on_timer, p);
    if (p->timer == NULL) {
        free(p);
        return zbc_fail(err, "cannot create the producer timer");
    }
    /* ahead of the loop's other work when the base has priorities
     * (zbcd run gives its base two): a slot is not kept waiting
     * behind a turn of peers' frames and API requests */
    (void)event_priority_set(p->timer, 0);
    memcpy(p->seen_tip, zbc_chain_tip(c)->hash, 32);
    zbc_chain_set_tip_hook(c, on_tip_moved, p);
    arm(p, 0);
    *out = p;
    return 1;
}

void zbc_producer_loop_stop(struct zbc_producer_loop *p)
{
    if (p == NULL)
        return;
    zbc_chain_set_tip_hook(p->chain, NULL, NULL);
    event_free(p->timer);
    free(p);
}

uint64_t zbc_producer_loop_produced(const struct zbc_producer_loop *p)
{
    return p->produced;
}
