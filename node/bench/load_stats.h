/* zbc-load's pure parts (docs/load.md): the open-loop rate schedule,
 * percentiles, the class of a node's refusal sentence, and the parsers of
 * its command-line values.  No clock, socket or file: the caller passes
 * times in. */
#ifndef ZBC_LOAD_STATS_H
#define ZBC_LOAD_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"

/* ---- the schedule: send k (0-based) is due at start + k / rate ---- */

struct zbc_load_sched {
    double rate;     /* sends per second, > 0 */
    double start;    /* seconds, the caller's clock */
    uint64_t total;  /* sends in the whole run */
    uint64_t issued; /* sends handed out so far */
};

void zbc_load_sched_init(struct zbc_load_sched *s, double rate, double start,
                         uint64_t total);
/* How many sends are due at `now` and not issued yet (at most what is left
 * of total); marks them issued.  Sends are due whether or not earlier ones
 * were answered: the open loop. */
uint64_t zbc_load_sched_take(struct zbc_load_sched *s, double now);
/* When send k is due. */
double zbc_load_sched_due_at(const struct zbc_load_sched *s, uint64_t k);

/* ---- percentiles ---- */

/* Sorts v (n values) ascending in place. */
void zbc_load_sort(double *v, size_t n);
/* The nearest-rank percentile p (0 < p <= 100) of sorted v: the smallest
 * value with at least p % of the values at or below it; 0 when n == 0. */
double zbc_load_percentile(const double *sorted, size_t n, double p);

/* ---- the included rate once the pipeline is full ---- */

/* The warm-up left out of the steady rate for a sending time of dur
 * seconds: a tenth of it, at least ZBC_LOAD_WARMUP_MIN_S (a transaction
 * sent at the start is included a block or two later, so the first
 * blocks of a run hold less than the rate). */
#define ZBC_LOAD_WARMUP_MIN_S 3.0
double zbc_load_warmup_s(double dur);

/* The steady included rate: of n blocks (timestamps ts ascending, seconds;
 * ours[i] of the run's transactions in block i), take the first stamped at
 * or after `from` (a) and the last stamped at or before `to` (b); the rate
 * is the transactions of the blocks after a up to b over ts[b] - ts[a]
 * (each block holds what came since the one before it).  *span gets
 * ts[b] - ts[a]; 0 and a span of 0 when fewer than two blocks qualify. */
double zbc_load_steady_rate(const double *ts, const uint32_t *ours, size_t n,
                            double from, double to, double *span);

/* ---- a node's storage writes ---- */

/* The write_bytes field of a /proc/PID/io text (len bytes, not
 * NUL-terminated): what the process caused to be sent to storage, counted
 * when a page is dirtied (its sockets' writes are not in it).  Returns 0
 * when the text has no such line with a decimal value. */
int zbc_load_parse_write_bytes(const char *text, size_t len, uint64_t *out);

/* ---- refusals ---- */

enum zbc_load_refusal {
    ZBC_LOAD_REF_MEMPOOL_FULL = 0, /* "mempool is full" (503) */
    ZBC_LOAD_REF_BUSY,             /* "node busy": its block is due (503) */
    ZBC_LOAD_REF_FEE,              /* "fee too low" */
    ZBC_LOAD_REF_BALANCE,          /* "insufficient balance" */
    ZBC_LOAD_REF_NOT_FOUND,        /* "not found" / "unknown app" */
    ZBC_LOAD_REF_TIME,             /* the timestamp window */
    ZBC_LOAD_REF_SEEN,             /* already included / already in the pool */
    ZBC_LOAD_REF_APP_WAITING,      /* one app action per sender and app */
    ZBC_LOAD_REF_APP_RULE,         /* an app rule (not your turn, full, …) */
    ZBC_LOAD_REF_OTHER,
    ZBC_LOAD_REF_COUNT
};

/* The class of a refusal from its HTTP status and error sentence
 * (docs/api.md §3). */
enum zbc_load_refusal zbc_load_refusal_class(int status, const char *text);
/* Short name of a class, e.g. "mempool full". */
const char *zbc_load_refusal_name(enum zbc_load_refusal c);

/* ---- command-line values ---- */

/* "http://HOST:PORT" (an optional trailing '/'): a host of 1..255
 * characters without '/', '@' or spaces, a port 1..65535.  host needs 256
 * bytes. */
ZBC_WUR int zbc_load_parse_url(const char *text, char *host, uint16_t *port,
                               struct zbc_err *err);
/* A positive decimal number (digits, at most one '.') in [min, max]; what
 * names the option in the error. */
ZBC_WUR int zbc_load_parse_number(const char *text, double min, double max,
                                  double *out, const char *what,
                                  struct zbc_err *err);

#endif
