/* zbc-audit's findings: every divergence (height, what, expected vs found)
 * and the counters of what was checked, printed for humans or as JSON
 * (docs/audit.md "Output"). */
#ifndef ZBC_AUDIT_REPORT_H
#define ZBC_AUDIT_REPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "crypto/err.h"

/* Divergences kept in full; later ones are only counted. */
#define ZBC_AUDIT_KEEP_MAX 1000

/* The kinds of divergence (docs/audit.md "What is checked"). */
enum zbc_audit_what {
    ZBC_AUDIT_GENESIS = 0,     /* genesis hash differs from the source's */
    ZBC_AUDIT_BLOCK_MISSING,   /* the source has no block at a height */
    ZBC_AUDIT_BLOCK_DECODE,    /* stored/served bytes do not decode */
    ZBC_AUDIT_HEIGHT,          /* header height is not the height asked */
    ZBC_AUDIT_HASH_CHAIN,      /* prev_hash is not the parent's hash */
    ZBC_AUDIT_BLOCK_INVALID,   /* a consensus rule refuses the block */
    ZBC_AUDIT_STATE_ROOT,      /* header state root != replayed state */
    ZBC_AUDIT_MONEY,           /* balances + pots != supply */
    ZBC_AUDIT_EVENTS,          /* stored/served events != replayed */
    ZBC_AUDIT_UNDO,            /* stored undo record != replayed */
    ZBC_AUDIT_INDEX,           /* block-hash or transaction index wrong */
    ZBC_AUDIT_TIP,             /* the source's tip is not the last block */
    ZBC_AUDIT_STORED_STATE,    /* a stored state entry != replayed */
    ZBC_AUDIT_APP,             /* the node's view of an app != replayed */
    ZBC_AUDIT_VOTES,           /* a stored vote set or final record is wrong */
    ZBC_AUDIT_WHAT_COUNT,
};

struct zbc_audit_div {
    uint32_t height;
    enum zbc_audit_what what;
    char *detail;   /* one sentence */
    char *expected; /* what the replay computes ("" when not a value) */
    char *found;    /* what the source holds or claims */
};

struct zbc_audit_report {
    size_t n, cap;
    struct zbc_audit_div *d;
    size_t total;      /* every divergence, kept or not */
    bool oom;          /* a divergence could not be recorded in full */
};

/* Stable name of a kind ("state_root", "events", ...). */
const char *zbc_audit_what_name(enum zbc_audit_what w);

/* Records one divergence; expected/found may be NULL.  Never fails: on
 * allocation failure the divergence is still counted (total) and oom set,
 * so a report is never "clean" by accident. */
void zbc_audit_add(struct zbc_audit_report *r, uint32_t height,
                   enum zbc_audit_what what, const char *expected,
                   const char *found, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* Control bytes (terminal escape sequences a source may send) become '?'
 * in place: every text the auditor prints passes through it. */
void zbc_audit_text_clean(char *s);

/* True when nothing diverged. */
bool zbc_audit_clean(const struct zbc_audit_report *r);

void zbc_audit_report_free(struct zbc_audit_report *r);

/* One line per divergence ("height H: what: detail") with indented
 * expected/found lines. */
void zbc_audit_print_divergences(FILE *out, const struct zbc_audit_report *r);

/* JSON array of {"height","what","detail","expected","found"}; NULL on
 * allocation failure. */
json_t *zbc_audit_divergences_json(const struct zbc_audit_report *r);

#endif
