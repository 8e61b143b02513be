/* Block production timer (libevent).  When this node's key is the
 * producer of the next height at some rank, the loop waits until the
 * rank's earliest publish time (parent.timestamp + block_time +
 * rank * smith_delay, consensus/producer.h), then builds, applies and
 * commits a block from the mempool at the current wall-clock time.  Empty
 * blocks too, so heights advance and every height has a seed.
 *
 * The wall clock is read here (the node layer), never in consensus.  The
 * timer re-checks at least once a second, so a clock step or a tip that
 * changed under it (a block from a peer) is picked up.  With several
 * validators each node produces at its own rank's slot on its best tip;
 * if rank 0 is silent, rank 1 publishes smith_delay later, and so on. */
#ifndef ZBC_NODE_PRODUCER_LOOP_H
#define ZBC_NODE_PRODUCER_LOOP_H

#include <stdbool.h>
#include <stdint.h>

#include <event2/event.h>

#include "crypto/err.h"
#include "node/zbcd/chain.h"

/* The longest the timer sleeps before looking again. */
#define ZBC_PRODUCER_RECHECK_MS 1000u
/* zbc_producer_base_new's loop looks for due timers (the producer's
 * first, at priority 0) again after this many milliseconds of other
 * callbacks (docs/p2p.md §6 "Loop turns"). */
#define ZBC_LOOP_DISPATCH_MS 5
/* While the network gate is closed (zbc_chain_synced: may_produce false,
 * docs/p2p.md §8), the loop does not produce and looks again after this
 * long. */
#define ZBC_PRODUCER_SYNC_WAIT_MS 100u

/* Milliseconds since the Unix epoch (CLOCK_REALTIME). */
uint64_t zbc_wall_clock_ms(void);

struct zbc_producer_loop;

/* The event base zbcd runs on, NULL on failure: two priorities, 0 for the
 * producer's timer and 1 (every other event's default) for the rest, and
 * after ZBC_LOOP_DISPATCH_MS of priority-1 callbacks the loop looks for
 * due timers before running more of them.  libevent otherwise runs every
 * active callback of a turn before it looks again, whatever the
 * priorities: a loaded node's turn of peers' frames and API requests took
 * up to 0.7 s, and its block started that late (docs/benchmarks.md
 * 2026-12-04 "the loop's turn"). */
struct event_base *zbc_producer_base_new(void);

/* now_ms: the clock to use (NULL: zbc_wall_clock_ms); tests pass their
 * own.  The first check runs at once. */
ZBC_WUR int zbc_producer_loop_start(struct zbc_producer_loop **out,
                                    struct event_base *base,
                                    struct zbc_chain *c,
                                    uint64_t (*now_ms)(void),
                                    struct zbc_err *err);

/* Called before each block is built (NULL: none): takes in the blocks
 * that reached the node but wait unread behind the event loop's other
 * work (zbcd: zbc_p2p_take_blocks).  When the tip moved, the slot is
 * computed again on the new tip instead of producing
 * (docs/p2p.md §8 "Blocks in hand before a slot"). */
void zbc_producer_loop_set_intake(struct zbc_producer_loop *p,
                                  unsigned (*intake)(void *arg), void *arg);

/* Dev mode (zbcd run --automine, docs/node.md §5): the loop produces a
 * block only when one is wanted (zbc_chain_block_wanted: a pooled
 * transaction, or app work scheduled for one of the next two heights),
 * looking every ZBC_PRODUCER_AUTOMINE_POLL_MS, and never an empty block
 * otherwise.  zbc_producer_loop_mine then produces blocks on request. */
#define ZBC_PRODUCER_AUTOMINE_POLL_MS 50u
#define ZBC_PRODUCER_MINE_MAX 1000u
void zbc_producer_loop_set_automine(struct zbc_producer_loop *p, bool on);

/* Produces n blocks now (1..ZBC_PRODUCER_MINE_MAX; empty ones when
 * nothing is pending), each at max(clock, its earliest publish time).
 * Refused (*refused true, nothing produced) when n is out of range, the
 * node is no validator, or the last block's timestamp would be more than
 * ZBC_CLOCK_SKEW_MS (10 s) ahead of the clock (no node would accept it,
 * docs/protocol-chain.md §3): the sentence names the limit and how many
 * fit now.  Otherwise a failure is the ledger's (*refused false, *mined =
 * blocks produced before it). */
ZBC_WUR int zbc_producer_loop_mine(struct zbc_producer_loop *p, uint32_t n,
                                   uint32_t *mined, bool *refused,
                                   struct zbc_err *err);
void zbc_producer_loop_stop(struct zbc_producer_loop *p);

/* Blocks this loop has produced since it started. */
uint64_t zbc_producer_loop_produced(const struct zbc_producer_loop *p);

#endif
