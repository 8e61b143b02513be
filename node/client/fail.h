/* How a zbc command fails: an exit code from the ZooBC CLI contract
 * (docs/wallet.md "Exit codes"), one sentence for a human, and the
 * node's reply when there was one. */
#ifndef ZBC_WALLET_FAIL_H
#define ZBC_WALLET_FAIL_H

#include <jansson.h>

#include "crypto/err.h"

enum zbc_exit {
    ZBC_EXIT_OK = 0,
    ZBC_EXIT_INTERNAL = 1,
    ZBC_EXIT_USAGE = 2,
    ZBC_EXIT_NODE_UNREACHABLE = 3,
    ZBC_EXIT_INSUFFICIENT_BALANCE = 4,
    ZBC_EXIT_FEE_TOO_LOW = 5,
    ZBC_EXIT_REJECTED = 6,
    ZBC_EXIT_NOT_FOUND = 7,
    ZBC_EXIT_TIMEOUT = 8,
    ZBC_EXIT_NODE_BUSY = 9,
    ZBC_EXIT_VERIFY_FAILED = 10,
};

struct zbc_wfail {
    enum zbc_exit code;
    struct zbc_err err;
    int http_code;          /* 0 when the node gave no status */
    json_t *api_response;   /* owned; NULL when there was no reply */
};

/* The error_class name of an exit code ("usage", "not_found", ...). */
const char *zbc_exit_class(enum zbc_exit code);

/* Sets code and message; returns 0 so callers can `return zbc_wfail(...)`. */
int zbc_wfail(struct zbc_wfail *f, enum zbc_exit code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Takes a library error (struct zbc_err) as the message, with a prefix. */
int zbc_wfail_err(struct zbc_wfail *f, enum zbc_exit code,
                  const struct zbc_err *err, const char *prefix);

void zbc_wfail_clear(struct zbc_wfail *f);

#endif
