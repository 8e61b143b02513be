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

#include <stdbool.h>

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

#define zbc_log_debug(...) zbc_log(ZBC_LOG_DEBUG, __VA_ARGS__)
#define zbc_log_info(...) zbc_log(ZBC_LOG_INFO, __VA_ARGS__)
#define zbc_log_warn(...) zbc_log(ZBC_LOG_WARN, __VA_ARGS__)
#define zbc_log_error(...) zbc_log(ZBC_LOG_ERROR, __VA_ARGS__)

#endif
