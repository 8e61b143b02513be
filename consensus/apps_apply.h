/* Apps on chain: the state side of the app lifecycle
 * (docs/protocol-apps.md).
 *
 * Tables (consensus/state.h):
 *   APPS         key = app id u64 LE (8)        val = zbc_app_encode bytes
 *   PENDING      key = height u32 LE (4)        val = count u32 LE
 *                key = height u32 LE | i u32 LE (8)
 *                                               val = kind u8 | app id u64 LE
 *                (work scheduled for the start of block `height`, i in
 *                scheduling order; deleted when processed)
 *   APP_HISTORY  key = app id u64 LE | seq u32 LE (12)
 *                val = height u32 LE | event (zbc_event_encode_one) |
 *                      move_len u16 LE | move
 *
 * A valid app transaction is either applicable (fee charged, effects) or a
 * no-op (recorded, no fee, hash marked used): zbc_apps_check decides with
 * the exact reason text, the same function for the mempool (against the
 * tip state, height = tip + 1), the block builder and block apply. */
#ifndef ZBC_APPS_APPLY_H
#define ZBC_APPS_APPLY_H

#include <stdbool.h>
#include <stdint.h>

#include "apps/app.h"
#include "consensus/checked_tx.h"
#include "consensus/events.h"
#include "consensus/genesis.h"
#include "consensus/state.h"
#include "crypto/err.h"

/* Kinds of scheduled work (PENDING items). */
enum zbc_sched_kind {
    ZBC_SCHED_ACTIVATE = 1, /* draw the first seat (J + 2) */
    ZBC_SCHED_MOVE = 2,     /* roll and apply the pending dice move (N + 1) */
    ZBC_SCHED_BET = 3,      /* settle a solo bet (N + 1) */
    ZBC_SCHED_EXPIRE = 4,   /* refund an Open app nobody filled
                               (created + genesis open_deadline) */
    ZBC_SCHED_SOLO_CLOCK = 5, /* settle a multi-step solo game whose
                                 deadline passed (deadline + 1) */
    ZBC_SCHED_CRASH = 6,    /* settle a crash round (close + 1,
                               consensus/apps_crash.h) */
};

/* Whether a stateless-valid app transaction (types 24..28) applies in a
 * block at `height` on state s.  pending = what the sender's other
 * mempool transactions already spend (0 in a block); the balance rules
 * here count it.  Returns 1 with *applies (when false, err holds the
 * no-op reason), or 0 with err filled on a backend failure or a corrupt
 * record. */
ZBC_WUR int zbc_apps_check(struct zbc_state *s, const struct zbc_genesis *g,
                           const struct zbc_checked_tx *ct, uint32_t height,
                           uint64_t pending, bool *applies,
                           struct zbc_err *err);

/* What an app transaction spends beyond fee and zbc_tx_cost: the stake
 * a JoinApp pays, or the stake a solo game's AppMove adds (blackjack's
 * double and split); 0 for other types or an unknown app.  The mempool
 * adds it to the sender's pending spends. */
ZBC_WUR int zbc_apps_tx_spend(struct zbc_state *s,
                              const struct zbc_checked_tx *ct,
                              uint64_t *stake, struct zbc_err *err);

/* The app a transaction concerns: the CreateApp's own id (first 8 bytes
 * of its hash, LE) or the app id in the body; 0 for SendZBC. */
uint64_t zbc_apps_tx_app_id(const struct zbc_checked_tx *ct);

/* Effects of an applicable app transaction (zbc_apps_check said
 * *applies; the fee is already paid): stakes, seats, moves,
 * payouts, schedule, history and events (tx_index = index).  Fails only
 * on backend errors and broken invariants. */
ZBC_WUR int zbc_apps_apply_tx(struct zbc_state *s, const struct zbc_genesis *g,
                              const struct zbc_checked_tx *ct, uint32_t index,
                              uint32_t height, struct zbc_events *ev,
                              struct zbc_err *err);

/* Start of block `height` whose seed is `seed`, before its transactions:
 * processes every item scheduled for `height` in scheduling order
 * (activations, pending dice moves, solo bets) and deletes the schedule.
 * Both zbc_block_apply and zbc_block_build run it. */
ZBC_WUR int zbc_apps_begin_block(struct zbc_state *s,
                                 const struct zbc_genesis *g, uint32_t height,
                                 const uint8_t seed[32], struct zbc_events *ev,
                                 struct zbc_err *err);

/* ---- readers for the node API, wallet and auditor ---- */

/* Loads app `id`; *found = false when there is none. */
ZBC_WUR int zbc_apps_get(struct zbc_state *s, uint64_t id, struct zbc_app *a,
                         bool *found, struct zbc_err *err);

/* One history entry of an app: seq 0 .. app.history_n - 1. */
struct zbc_app_history {
    uint32_t height;             /* block it happened in */
    struct zbc_event ev;         /* what happened (ev.ref = app id) */
    uint16_t move_len;           /* the move bytes for move kinds */
    uint8_t move[ZBC_MOVE_WIRE_MAX];
};

ZBC_WUR int zbc_apps_history(struct zbc_state *s, uint64_t id, uint32_t seq,
                             struct zbc_app_history *h, bool *found,
                             struct zbc_err *err);

/* Items scheduled for the start of block `height`: fills up to cap
 * (kind, app id) pairs, *n = the total count. */
struct zbc_sched_item {
    uint8_t kind;   /* enum zbc_sched_kind */
    uint64_t app_id;
};
ZBC_WUR int zbc_apps_schedule(struct zbc_state *s, uint32_t height,
                              struct zbc_sched_item *out, size_t cap,
                              uint32_t *n, struct zbc_err *err);

/* Sum of all app pots by full scan (the money invariant). */
ZBC_WUR int zbc_apps_sum_pots(struct zbc_state *s, uint64_t *sum,
                              struct zbc_err *err);

#endif
