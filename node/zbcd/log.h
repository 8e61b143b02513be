/* Node logging: one line per event on stderr (and optionally a file),
 *
 *   2026-11-30T08:54:00.123Z INFO  block produced height=5 hash=ab.. txs=0
 *
 * UTC timestamp with milliseconds, a level word, the message.  The log is
 * process-wide (the daemon has one); messages below the configured level
 * are dropped.  Reading the wall clock here is fine: this is the node
 * layer, never consensus. */
#ifndef ZBC_NODE_LOG_H
#define ZBC_NODE_LOG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "crypto/err.h"

enum zbc_log_level {
    ZBC_LOG_DEBUG = 0,
    ZBC_LOG_INFO = 1,
    ZBC_LOG_WARN = 2,
    ZBC_LOG_ERROR = 3,
};

/* Parses "debug", "info", "warn" or "error". */
ZBC_WUR int zbc_log_level_parse(enum zbc_log_level *out, const char *text,
                                struct zbc_err *err);
const char *zbc_log_level_name(enum zbc_log_level level);

void zbc_log_set_level(enum zbc_log_level level);
enum zbc_log_level zbc_log_get_level(void);

/* Also append every line to this file (created 0600 if missing).  NULL
 * closes a previously opened file. */
ZBC_WUR int zbc_log_open_file(const char *path, struct zbc_err *err);
void zbc_log_close_file(void);

/* Sends lines to stderr (default true); tests turn it off to stay quiet. */
void zbc_log_to_stderr(bool on);

void zbc_log(enum zbc_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Rate-limited logging (docs/node.md "Logs"): a warning that an outsider
 * can repeat (a failing accept, a refused stream, a full disk) must not
 * flood the log.  zbc_log_ratelimited logs the line only when at least
 * period_ms passed since the last line logged under the same key; the
 * lines in between are counted and dropped, and the next line logged
 * under that key ends with " (N similar messages suppressed)".  Keys are
 * compared as strings (at most ZBC_LOG_KEY_MAX - 1 characters are used);
 * up to ZBC_LOG_LIMIT_SLOTS keys are remembered, the least recently used
 * one is forgotten first.  Returns true when the line was logged (or was
 * only below the configured level), false when it was suppressed.
 *
 * Below the configured level every call returns at once: no formatting,
 * no clock, no key look-up, and the limiter's state is left as it was
 * (docs/node.md "Logs": nothing per transaction is logged at INFO, and a
 * line that is off costs one comparison).
 *
 * zbc_log_limited is the same with a caller-owned state instead of a
 * key (a per-object limiter; start it zeroed). */
#define ZBC_LOG_KEY_MAX 48
/* Periods in use: a repeated warning or error (a condition that lasts, a
 * refusal an outsider repeats) at most every 10 s; a per-request INFO line
 * (4xx answers, rejected transactions, streams opened and closed) at most
 * 10 a second. */
#define ZBC_LOG_PERIOD_MS 10000
#define ZBC_LOG_CLIENT_PERIOD_MS 100
#define ZBC_LOG_LIMIT_SLOTS 64

struct zbc_log_limit {
    uint64_t last_ms;    /* monotonic time of the last line logged */
    uint64_t suppressed; /* lines dropped since then */
    bool used;
};

bool zbc_log_limited(struct zbc_log_limit *l, uint32_t period_ms,
                     enum zbc_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
bool zbc_log_ratelimited(const char *key, uint32_t period_ms,
                         enum zbc_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Test hook: the millisecond clock the limiter reads (NULL: the monotonic
 * clock). */
void zbc_log_set_clock(uint64_t (*now_ms)(void));

#define zbc_log_debug(...) zbc_log(ZBC_LOG_DEBUG, __VA_ARGS__)
#define zbc_log_info(...) zbc_log(ZBC_LOG_INFO, __VA_ARGS__)
#define zbc_log_warn(...) zbc_log(ZBC_LOG_WARN, __VA_ARGS__)
#define zbc_log_error(...) zbc_log(ZBC_LOG_ERROR, __VA_ARGS__)

#endif
