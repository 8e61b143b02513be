/* A small blocking HTTP/1.1 client over libevent's evhttp, bounded by a
 * timeout.  Plain http:// only. */
#ifndef ZBC_WALLET_HTTP_H
#define ZBC_WALLET_HTTP_H

#include <stddef.h>

#include "node/client/fail.h"

struct zbc_http_reply {
    int status;   /* HTTP status code */
    char *body;   /* NUL-terminated, owned (free with zbc_http_reply_free) */
    size_t len;
};

/* Sends one request to base_url + path (a path in base_url is kept, so
 * http://h:1/prefix calls http://h:1/prefix/api/...).  body may be NULL
 * (GET).  Returns 1 when the node answered with any HTTP status, 0 when it
 * did not: f gets node_unreachable (refused, DNS, no route), timeout (no
 * answer within timeout_s seconds) or usage (a malformed or https URL). */
ZBC_WUR int zbc_http_request(struct zbc_http_reply *r, const char *base_url,
                             const char *path, const char *body,
                             int timeout_s, struct zbc_wfail *f);

void zbc_http_reply_free(struct zbc_http_reply *r);

#endif
