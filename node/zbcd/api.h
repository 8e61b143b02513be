/* The JSON HTTP API (libevent evhttp + jansson), ZooBC-compatible shapes
 * (docs/api.md §1); every endpoint, answer and error text is in
 * docs/api.md.
 *
 *   GET  /api/v1/node/info
 *   POST /api/v1/transactions
 *   GET  /api/v1/transactions/<hash>
 *   GET  /api/v1/transactions/<hash>/status
 *   GET  /api/v1/accounts/<address>
 *   GET  /api/v1/blocks/latest
 *   GET  /api/v1/blocks/<height>
 *   GET  /api/v1/accounts/<address>/history
 *   GET  /api/v1/apps[?status=&type=&seat=|player=&limit=&cursor=]
 *   POST /api/v1/admin/stop          (needs the datadir's api.token)
 *   POST /api/v1/admin/mine          (token, loopback, zbcd run --automine)
 *
 * Every answer is one JSON object; errors are
 * {"success": false, "error": "<sentence>", "code": <HTTP status>}.
 * The server runs on the daemon's event loop, like block production, so
 * a request never sees a half-applied block.  State reads are at the tip. */
#ifndef ZBC_NODE_API_H
#define ZBC_NODE_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <event2/event.h>

#include "crypto/err.h"
#include "node/zbcd/chain.h"
#include "node/zbcd/datadir.h"
#include "node/zbcd/web.h"

/* Limits against an outsider exhausting the server (docs/api.md §8). */
#define ZBC_API_MAX_CONNECTIONS 256  /* open API connections at once */
#define ZBC_API_REQUEST_TIMEOUT_S 30 /* to send a whole request (headers
                                      * and body), to take an answer, and
                                      * idle between keep-alive requests */
#define ZBC_API_ACCEPT_BACKOFF_MS 1000 /* accepting paused after accept()
                                        * failed (e.g. out of descriptors) */

struct zbc_api;

struct zbc_api_config {
    const char *host;          /* e.g. "127.0.0.1" */
    uint16_t port;             /* 0: any free port (zbc_api_port tells) */
    const char *admin_token;   /* NULL: admin routes answer 403 */
    const char *version;       /* reported by node/info */
    uint64_t (*now_ms)(void);  /* clock for admission; NULL: wall clock */
    void (*on_stop)(void *arg);/* admin/stop; NULL: 403 */
    void *on_stop_arg;
    /* admin/mine (zbcd run --automine): produce n blocks now, *mined the
     * count produced, *refused when nothing was tried (a limit: 400, else
     * 500); NULL: 400 "mining on request needs zbcd run --automine"
     * (docs/api.md §9). */
    int (*mine)(void *arg, uint32_t n, uint32_t *mined, bool *refused,
                struct zbc_err *err);
    void *mine_arg;
    /* The browser client's files at every path outside /api/
     * (node/zbcd/web.h, docs/web.md); NULL: none (404 as any unknown
     * endpoint). */
    const struct zbc_web *web;
    /* 0 picks the default of each (ZBC_API_MAX_CONNECTIONS,
     * ZBC_API_REQUEST_TIMEOUT_S, ZBC_SSE_MAX_STREAMS,
     * ZBC_SSE_MAX_PER_CLIENT). */
    unsigned max_connections;
    unsigned request_timeout_s;
    unsigned sse_max_streams;
    unsigned sse_max_per_client;
};

ZBC_WUR int zbc_api_start(struct zbc_api **out, struct event_base *base,
                          struct zbc_chain *chain,
                          const struct zbc_api_config *cfg,
                          struct zbc_err *err);
/* The bound port (useful with port 0). */
uint16_t zbc_api_port(const struct zbc_api *a);
void zbc_api_stop(struct zbc_api *a);
/* API connections open now (accepted, not yet closed). */
size_t zbc_api_connections(const struct zbc_api *a);
/* The API's event streams (node/zbcd/sse.h). */
const struct zbc_sse *zbc_api_sse(const struct zbc_api *a);
/* Whether new connections are being accepted (false at the connection
 * limit and during an accept back-off). */
bool zbc_api_accepting(const struct zbc_api *a);

/* The body of POST /api/v1/admin/mine: exactly {"blocks": N}, N from 1
 * to 1000 (ZBC_PRODUCER_MINE_MAX); anything else is refused with a
 * sentence naming what was wrong (docs/api.md §9).  Fuzzed by
 * tests/fuzz/fuzz_admin_body.c. */
ZBC_WUR int zbc_api_mine_body(uint32_t *n, const char *body, size_t len,
                              struct zbc_err *err);

/* Parses "HOST:PORT" (IPv4 dotted or a name, port 0..65535) as given to
 * --api; host receives at most host_cap-1 characters. */
ZBC_WUR int zbc_api_parse_listen(char *host, size_t host_cap, uint16_t *port,
                                 const char *text, struct zbc_err *err);

#endif
