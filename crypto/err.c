#include "crypto/err.h"

#include <stdio.h>
#include <string.h>

int zbc_fail(struct zbc_err *err, const char *fmt, ...)
{
    if (err == NULL)
        return 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return 0;
}

int zbc_fail_prefix(struct zbc_err *err, const char *fmt, ...)
{
    if (err == NULL)
        return 0;
    char old[ZBC_ERR_MAX];
    memcpy(old, err->msg, sizeof old);
    old[sizeof old - 1] = '\0';
    char pre[ZBC_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pre, sizeof pre, fmt, ap);
    va_end(ap);
    snprintf(err->msg, sizeof err->msg, "%s: %s", pre, old);
    return 0;
}
