/* Private to consensus/apps_*.c: the context of one app's work and the
 * helpers of consensus/apps_apply.c that the round modules
 * (consensus/apps_crash.c, consensus/apps_solo.c) share — events with the
 * app's history, the ending, the schedule and the record write
 * (docs/protocol-apps.md). */
#ifndef ZBC_APPS_INTERNAL_H
#define ZBC_APPS_INTERNAL_H

#include "consensus/apps_apply.h"

struct actx {
    struct zbc_state *s;
    const struct zbc_genesis *g;
    struct zbc_events *ev;
    struct zbc_app *a;
    uint32_t height;
    uint32_t index;         /* tx index or ZBC_EVENT_NO_TX */
    const uint8_t *tx_hash; /* NULL for block-level work */
};

/* An event of the app c->a named by c's transaction (or block work). */
void zbc_apps_ev_init(struct zbc_event *e, enum zbc_event_kind kind,
                      const struct actx *c);
/* Pushes the event and appends it (and the move bytes) to the history. */
ZBC_WUR int zbc_apps_emit(struct actx *c, const struct zbc_event *e,
                          const uint8_t *move, size_t move_len,
                          struct zbc_err *err);
/* Ends c->a (its pot must be 0) with the outcome; event app_end. */
ZBC_WUR int zbc_apps_finish(struct actx *c, enum zbc_app_end how,
                            uint8_t winner, uint8_t loser, const char *reason,
                            struct zbc_err *err);
/* Pays `amount` of the pot to `to` (seat 0xff: not a seat); app_payout. */
ZBC_WUR int zbc_apps_pay(struct actx *c, uint8_t seat,
                         const struct zbc_addr *to, uint64_t amount,
                         const char *why, struct zbc_err *err);
/* Schedules (kind, id) for the start of block `height`. */
ZBC_WUR int zbc_apps_sched_add(struct zbc_state *s, uint32_t height,
                               uint8_t kind, uint64_t id, struct zbc_err *err);
/* Writes the app record. */
ZBC_WUR int zbc_apps_put(struct zbc_state *s, const struct zbc_app *a,
                         struct zbc_err *err);

/* Drops the pending move (event app_discard with reason). */
ZBC_WUR int zbc_apps_discard_pending(struct actx *c, const char *reason,
                                     struct zbc_err *err);

/* ---- consensus/apps_solo.c (docs/protocol-apps.md §13) ---- */

/* CreateApp of a multi-step solo game: the fund and 1 % rules.  1 with
 * *applies (false: err = the no-op reason), 0 on a backend failure. */
ZBC_WUR int zbc_apps_solo_check_create(struct zbc_state *s,
                                       const struct zbc_genesis *g,
                                       const struct zbc_checked_tx *ct,
                                       bool *applies, struct zbc_err *err);
/* After app_create: escrow, Active, the engine started, the clock. */
ZBC_WUR int zbc_apps_solo_start(struct actx *c, struct zbc_err *err);
/* A non-empty AppMove by the player: pending (draws) or applied now. */
ZBC_WUR int zbc_apps_solo_move(struct actx *c, const struct zbc_checked_tx *ct,
                               struct zbc_err *err);
/* A valid AppMove of a multi-step solo game whose move adds a stake
 * (blackjack's double and split): applicable when the sender holds the fee,
 * that stake and `pending`; 1 with *applies (false: err = the no-op
 * reason), 0 on a backend failure. */
ZBC_WUR int zbc_apps_solo_check_stake(struct zbc_state *s,
                                      const struct zbc_checked_tx *ct,
                                      const struct zbc_app *a, uint64_t pending,
                                      bool *applies, struct zbc_err *err);
/* The stake an AppMove adds to app a (0 for the others). */
uint64_t zbc_apps_solo_move_stake(const struct zbc_app *a,
                                  const struct zbc_checked_tx *ct);
/* After a keep-alive moved the deadline: the clock item for it. */
ZBC_WUR int zbc_apps_solo_arm(struct actx *c, struct zbc_err *err);
/* Start of block: the pending step resolved by seed(h) (ZBC_SCHED_MOVE). */
ZBC_WUR int zbc_apps_solo_resolve(struct actx *c, const uint8_t seed[32],
                                  struct zbc_err *err);
/* Start of block: settlement at the cash-out value when the deadline
 * passed (ZBC_SCHED_SOLO_CLOCK; a stale item does nothing). */
ZBC_WUR int zbc_apps_solo_clock(struct actx *c, const uint8_t seed[32],
                                struct zbc_err *err);

#endif
