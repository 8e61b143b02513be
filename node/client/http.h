/* A small blocking HTTP/1.1 client over libevent's evhttp that distrusts
 * the server: the whole exchange has one deadline, the reply's headers and
 * body have hard size caps, and a reply that breaks either is cut off with
 * an error saying which (docs/wallet.md "HTTP").  Plain http:// only. */
#ifndef ZBC_WALLET_HTTP_H
#define ZBC_WALLET_HTTP_H

#include <stddef.h>

#include "node/client/fail.h"

/* The largest reply body accepted from any API call except a block: an
 * app list of 100 apps, an app view with its whole history, a transaction
 * or account view are all far below 1 MiB. */
#define ZBC_HTTP_REPLY_MAX ((size_t)16 << 20)
/* GET /api/v1/blocks/<height>: block_bytes is the hex of a whole block
 * (at most the genesis max_block_bytes, 2 MiB, of transactions plus the
 * header: about 4.2 MiB of hex), "transactions" lists up to ~12 000
 * hashes (0.8 MiB) and "events" about 0.5 KiB per event, a few per
 * transaction plus the block-level ones (app timeouts and settlements):
 * tens of MiB in the worst case.  docs/audit.md "Peer source". */
#define ZBC_HTTP_BLOCK_REPLY_MAX ((size_t)64 << 20)
/* The status line and headers together. */
#define ZBC_HTTP_HEADERS_MAX ((size_t)64 << 10)

struct zbc_http_reply {
    int status;   /* HTTP status code */
    char *body;   /* NUL-terminated, owned (free with zbc_http_reply_free) */
    size_t len;
};

/* Sends one request to base_url + path (a path in base_url is kept, so
 * http://h:1/prefix calls http://h:1/prefix/api/...).  body may be NULL
 * (GET).  Returns 1 when the node answered with any HTTP status and a
 * whole body of at most max_body bytes, all within timeout_s seconds from
 * the call (connect, send, headers and body together).  Otherwise 0, and f
 * gets usage (a malformed or https URL), timeout (the deadline passed,
 * however slowly the node was still sending) or node_unreachable (refused,
 * DNS, no route, a connection closed early, a malformed reply, headers
 * above ZBC_HTTP_HEADERS_MAX, a Content-Length above max_body - refused
 * before any of the body is read - or a chunked or unframed body that
 * grows past max_body, cut off there). */
ZBC_WUR int zbc_http_request(struct zbc_http_reply *r, const char *base_url,
                             const char *path, const char *body,
                             int timeout_s, size_t max_body,
                             struct zbc_wfail *f);

void zbc_http_reply_free(struct zbc_http_reply *r);

#endif
