/* Error reporting shared by every layer: a fixed buffer the callee fills
 * with one human sentence naming what was wrong.  No allocation. */
#ifndef ZBC_ERR_H
#define ZBC_ERR_H

#include <stdarg.h>

#define ZBC_WUR __attribute__((warn_unused_result))

#define ZBC_ERR_MAX 200

struct zbc_err {
    char msg[ZBC_ERR_MAX];
};

/* Sets err->msg (printf format) and returns 0, so a failing path can write
 * `return zbc_fail(err, "...")`.  err may be NULL. */
int zbc_fail(struct zbc_err *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Prefixes an existing message: "context: old message".  Returns 0. */
int zbc_fail_prefix(struct zbc_err *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
