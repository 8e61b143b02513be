#include "node/client/fail.h"

#include <stdarg.h>
#include <stdio.h>

const char *zbc_exit_class(enum zbc_exit code)
{
    switch (code) {
    case ZBC_EXIT_OK: return "ok";
    case ZBC_EXIT_INTERNAL: return "internal";
    case ZBC_EXIT_USAGE: return "usage";
    case ZBC_EXIT_NODE_UNREACHABLE: return "node_unreachable";
    case ZBC_EXIT_INSUFFICIENT_BALANCE: return "insufficient_balance";
    case ZBC_EXIT_FEE_TOO_LOW: return "fee_too_low";
    case ZBC_EXIT_REJECTED: return "rejected";
    case ZBC_EXIT_NOT_FOUND: return "not_found";
    case ZBC_EXIT_TIMEOUT: return "timeout";
    case ZBC_EXIT_NODE_BUSY: return "node_busy";
    case ZBC_EXIT_VERIFY_FAILED: return "verify_failed";
    }
    return "internal";
}

int zbc_wfail(struct zbc_wfail *f, enum zbc_exit code, const char *fmt, ...)
{
    f->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->err.msg, sizeof f->err.msg, fmt, ap);
    va_end(ap);
    return 0;
}

int zbc_wfail_err(struct zbc_wfail *f, enum zbc_exit code,
                  const struct zbc_err *err, const char *prefix)
{
    if (prefix != NULL && prefix[0] != '\0')
        return zbc_wfail(f, code, "%s: %s", prefix, err->msg);
    return zbc_wfail(f, code, "%s", err->msg);
}

void zbc_wfail_clear(struct zbc_wfail *f)
{
    json_decref(f->api_response);
    f->api_response = NULL;
    f->http_code = 0;
    f->code = ZBC_EXIT_OK;
    f->err.msg[0] = '\0';
}
