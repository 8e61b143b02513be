/* Crash rounds on chain (docs/protocol-apps.md §12, docs/games.md "Crash"):
 * app type 36, a shared round against the apps fund.
 *
 * CreateApp (params: apps/crash.h) opens the round at height C with an
 * entry window of W blocks (close = C + W) and, when its stake is not 0,
 * the creator's own entry.  Each AppMove by any account at a height
 * <= close is one entry: stake u64 | target u32 in its move bytes.  At the
 * start of block close + 1 (schedule kind ZBC_SCHED_CRASH) the crash point
 * comes from seed(close + 1) and every entry is settled.
 *
 * Table CRASH (consensus/state.h):
 *   key = app id u64 LE (8)           val = round record (zbc_crash_round)
 *   key = app id u64 LE | i u16 LE (10)
 *                                     val = entry record (zbc_crash_entry)
 * Every write goes through zbc_state_put, so the state root and the block's
 * undo record cover them. */
#ifndef ZBC_APPS_CRASH_H
#define ZBC_APPS_CRASH_H

#include <stdbool.h>
#include <stdint.h>

#include "apps/crash.h"
#include "consensus/apps_apply.h"

#define ZBC_CRASH_ROUND_VERSION 1
#define ZBC_CRASH_ROUND_BYTES 28
#define ZBC_CRASH_ENTRY_RECORD_MAX (4 + 8 + 4 + 32 + ZBC_ADDR_BYTES_MAX)

/* Round record: version u8 = 1 | close u32 | n u16 | settled u8 |
 * point u32 | u u32 | paid u64 | winners u16 | reserved u16 = 0 (28). */
struct zbc_crash_round {
    uint32_t close;     /* last height that takes entries */
    uint16_t n;         /* entries so far (<= ZBC_CRASH_ENTRIES_MAX) */
    bool settled;
    uint32_t point;     /* crash point in hundredths (settled) */
    uint32_t u;         /* u_0 of the stream (settled) */
    uint64_t paid;      /* sum of the returns paid (settled) */
    uint16_t winners;   /* entries that cashed out (settled) */
};

/* Entry record: height u32 | stake u64 | target u32 | tx hash 32 |
 * typed address (4 + payload).  The creator's entry carries the
 * CreateApp's hash. */
struct zbc_crash_entry {
    uint32_t height;
    uint64_t stake;
    uint32_t target;    /* hundredths, >= 101 */
    uint8_t tx_hash[32];
    struct zbc_addr who;
};

size_t zbc_crash_round_encode(const struct zbc_crash_round *r,
                              uint8_t out[ZBC_CRASH_ROUND_BYTES]);
ZBC_WUR int zbc_crash_round_decode(struct zbc_crash_round *r,
                                   const uint8_t *in, size_t len,
                                   struct zbc_err *err);
size_t zbc_crash_entry_encode(const struct zbc_crash_entry *e,
                              uint8_t out[ZBC_CRASH_ENTRY_RECORD_MAX]);
ZBC_WUR int zbc_crash_entry_decode(struct zbc_crash_entry *e,
                                   const uint8_t *in, size_t len,
                                   struct zbc_err *err);

/* ---- hooks of consensus/apps_apply.c ---- */

/* zbc_apps_check for a transaction that concerns a crash round (*mine;
 * when false nothing else is set): *applies, or the no-op reason in err. */
ZBC_WUR int zbc_crash_check(struct zbc_state *s, const struct zbc_genesis *g,
                            const struct zbc_checked_tx *ct, uint32_t height,
                            uint64_t pending, bool *mine, bool *applies,
                            struct zbc_err *err);
/* The stake an AppMove entry spends (0 when the app is not a round). */
ZBC_WUR int zbc_crash_tx_spend(struct zbc_state *s,
                               const struct zbc_checked_tx *ct,
                               uint64_t *stake, struct zbc_err *err);
struct actx;
/* Effects of an applicable transaction on a round (*mine false: not a
 * round's, nothing done). */
ZBC_WUR int zbc_crash_apply_tx(struct actx *c, const struct zbc_checked_tx *ct,
                               bool *mine, struct zbc_err *err);
/* ZBC_SCHED_CRASH at close + 1: c->a is loaded. */
ZBC_WUR int zbc_crash_settle(struct actx *c, const uint8_t seed[32],
                             struct zbc_err *err);

/* ---- readers (node API, wallet, auditor) ---- */

ZBC_WUR int zbc_crash_round_get(struct zbc_state *s, uint64_t id,
                                struct zbc_crash_round *r, bool *found,
                                struct zbc_err *err);
ZBC_WUR int zbc_crash_entry_get(struct zbc_state *s, uint64_t id, uint16_t i,
                                struct zbc_crash_entry *e, bool *found,
                                struct zbc_err *err);

#endif
