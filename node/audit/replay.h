/* zbc-audit's replay: every block of a source, from genesis, through the
 * full consensus validation onto an in-memory state (consensus/mem_kv.h),
 * with the auditor's own comparisons at every height
 * (docs/audit.md "What is checked, in order"). */
#ifndef ZBC_AUDIT_REPLAY_H
#define ZBC_AUDIT_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "consensus/apply.h"
#include "consensus/block.h"
#include "consensus/events.h"
#include "consensus/genesis.h"
#include "consensus/mem_kv.h"
#include "consensus/money.h"
#include "consensus/producer.h"
#include "consensus/state.h"
#include "crypto/err.h"
#include "node/audit/report.h"
#include "node/audit/source.h"

struct zbc_audit_stats {
    uint32_t source_height;  /* the tip the source claimed */
    uint32_t checked;        /* blocks replayed and checked: 1..checked */
    bool complete;           /* every block up to the claimed tip */
    uint64_t txs;            /* transactions in those blocks */
    uint64_t app_txs;        /* of which app transactions (types 24..28) */
    uint64_t apps_created;   /* CreateApp transactions */
    uint64_t *app_ids;       /* their app ids, in chain order (heap) */
    bool app_ids_dropped;    /* out of memory: the list is not kept */
    uint64_t events;         /* events the replay produced */
    uint32_t events_compared; /* heights whose stored/served events were
                                 compared */
    uint32_t undo_compared;  /* heights whose stored undo was compared */
};

/* on_block: called after each block that replayed and was checked
 * (state already holds it).  on_applied (may be NULL): called right after
 * the block's apply, before the per-height checks, with the replayed
 * state (the unit tests use it to play a consensus bug that creates
 * money: the check must name that height). */
struct zbc_audit_hooks {
    void (*on_block)(void *arg, uint32_t height, const struct zbc_block *b,
                     const struct zbc_checked_block *cb,
                     const struct zbc_events *ev);
    void (*on_applied)(void *arg, uint32_t height, struct zbc_state *st);
    void *arg;
};

/* The money invariant is checked at every height against a running total
 * (consensus/money.h), and by a full scan of the state at genesis, every
 * this many heights, and after the last block (docs/audit.md §2). */
#define ZBC_AUDIT_MONEY_SCAN_EVERY 1000u

/* The replay's result: the state after the last good block, and every
 * seed on the way (the app history needs them). */
struct zbc_audit_replay {
    struct zbc_mem_kv *mem;
    struct zbc_money_tally money; /* in front of mem */
    bool money_open;
    struct zbc_state st;          /* over money */
    bool state_open;
    struct zbc_parent parent;    /* the last good block (genesis at 0) */
    uint8_t (*seeds)[32];        /* seed(0) .. seed(parent.height) */
    size_t seeds_cap;
    struct zbc_audit_stats stats;
};

/* Replays src against the genesis g (whose hash must be the source's).
 * now_ms is the auditor's clock for the "not more than 10 s in the
 * future" rule.  Divergences go to r; the replay stops at the first block
 * the consensus refuses (everything after it would rest on a state the
 * auditor cannot vouch for) and stats.complete tells whether it reached
 * the claimed tip.  Returns 0 only when the audit itself could not run
 * (source unreadable, out of memory): err says why. */
ZBC_WUR int zbc_audit_replay(struct zbc_audit_replay *rp,
                             struct zbc_audit_source *src,
                             const struct zbc_genesis *g, uint64_t now_ms,
                             const struct zbc_audit_hooks *hooks,
                             struct zbc_audit_report *r, struct zbc_err *err);
void zbc_audit_replay_free(struct zbc_audit_replay *rp);

/* The comparisons, exposed for the unit tests.  Stored event record bytes
 * against the replay's events (byte-exact; the first differing event is
 * reported as JSON). */
ZBC_WUR int zbc_audit_compare_events_raw(uint32_t height,
                                         const struct zbc_events *computed,
                                         const uint8_t *stored, size_t len,
                                         struct zbc_audit_report *r,
                                         struct zbc_err *err);
/* Served events (the API's JSON array) against the replay's, rendered by
 * the API's own renderer (zbc_json_event). */
ZBC_WUR int zbc_audit_compare_events_json(uint32_t height,
                                          const struct zbc_events *computed,
                                          json_t *served,
                                          struct zbc_audit_report *r,
                                          struct zbc_err *err);

#endif
