/* The JSON HTTP API (libevent evhttp + jansson), ZooBC-compatible shapes
 * (reference/zoobc/api.md); every endpoint, answer and error text is in
 * docs/api.md.
 *
 *   GET  /api/v1/node/info
 *   POST /api/v1/transactions
 *   GET  /api/v1/transactions/<hash>
 *   GET  /api/v1/transactions/<hash>/status
 *   GET  /api/v1/accounts/<address>
 *   GET  /api/v1/blocks/latest
 *   GET  /api/v1/blocks/<height>
 *   POST /api/v1/admin/stop          (needs the datadir's api.token)
 *
 * Every answer is one JSON object; errors are
 * {"success": false, "error": "<sentence>", "code": <HTTP status>}.
 * The server runs on the daemon's event loop, like block production, so
 * a request never sees a half-applied block.  State reads are at the tip. */
#ifndef ZBC_NODE_API_H
#define ZBC_NODE_API_H

#include <stdint.h>

#include <event2/event.h>

#include "crypto/err.h"
#include "node/zbcd/chain.h"
#include "node/zbcd/datadir.h"

struct zbc_api;

struct zbc_api_config {
    const char *host;          /* e.g. "127.0.0.1" */
    uint16_t port;             /* 0: any free port (zbc_api_port tells) */
    const char *admin_token;   /* NULL: admin routes answer 403 */
    const char *version;       /* reported by node/info */
    uint64_t (*now_ms)(void);  /* clock for admission; NULL: wall clock */
    void (*on_stop)(void *arg);/* admin/stop; NULL: 403 */
    void *on_stop_arg;
};

ZBC_WUR int zbc_api_start(struct zbc_api **out, struct event_base *base,
                          struct zbc_chain *chain,
                          const struct zbc_api_config *cfg,
                          struct zbc_err *err);
/* The bound port (useful with port 0). */
uint16_t zbc_api_port(const struct zbc_api *a);
void zbc_api_stop(struct zbc_api *a);

/* Parses "HOST:PORT" (IPv4 dotted or a name, port 0..65535) as given to
 * --api; host receives at most host_cap-1 characters. */
ZBC_WUR int zbc_api_parse_listen(char *host, size_t host_cap, uint16_t *port,
                                 const char *text, struct zbc_err *err);

#endif
