/* Live event streams of the HTTP API (docs/api.md "Event streams"):
 * server-sent events (text/event-stream over an evhttp chunked reply)
 * carrying every block event that touches one app or one account, as
 * blocks commit.
 *
 * Decoupled from the chain: a timer polls the store's committed tip every
 * ZBC_SSE_POLL_MS and sends the events of each new block, read from the
 * store's per-block event records.  Each message is
 *
 *   id: <height>-<index>        (index = position in the block's events)
 *   event: <kind name>
 *   data: <the event as JSON, plus height, index>
 *
 * and a comment line ": keep-alive" goes out every ZBC_SSE_KEEPALIVE_S
 * seconds.  A client resumes with the Last-Event-ID header (events after
 * that id) or ?from_height=H (events of blocks H and later).  A stream
 * ends when the client disconnects or the server stops; at most
 * max_streams run at once, at most max_per_client of them for one client
 * address.  Everything runs on the daemon's event loop. */
#ifndef ZBC_NODE_SSE_H
#define ZBC_NODE_SSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <event2/event.h>
#include <event2/http.h>

#include "consensus/events.h"
#include "crypto/address.h"
#include "crypto/err.h"
#include "node/zbcd/store.h"

#define ZBC_SSE_POLL_MS 200
#define ZBC_SSE_KEEPALIVE_S 15
#define ZBC_SSE_MAX_STREAMS 64
/* Streams one client address may hold open at once. */
#define ZBC_SSE_MAX_PER_CLIENT 8
/* Blocks one stream catches up per poll (the rest on the next polls). */
#define ZBC_SSE_BLOCKS_PER_POLL 64
/* A stream whose client does not read pauses once this many bytes wait in
 * its connection's output buffer, and resumes from where it was (events
 * are read from the ledger, so nothing is lost) when the client drains it:
 * a client that never reads holds at most this much of the node's memory. */
#define ZBC_SSE_MAX_QUEUED ((size_t)256 << 10)
/* The kernel's send buffer of a stream's socket (SO_SNDBUF, which Linux
 * doubles): without it the kernel grows it up to net.ipv4.tcp_wmem's
 * maximum (4 MiB) for a client that does not read, outside that bound. */
#define ZBC_SSE_SNDBUF (64 << 10)

struct zbc_sse;

/* What a stream carries: events of one app (ref = app id) or events with
 * the account as from or to. */
struct zbc_sse_filter {
    bool is_app;
    uint64_t app_id;
    struct zbc_addr account;
};

bool zbc_sse_match(const struct zbc_sse_filter *f, const struct zbc_event *e);

/* Parses a Last-Event-ID value "<height>-<index>". */
ZBC_WUR int zbc_sse_parse_id(const char *text, uint32_t *height,
                             uint32_t *index, struct zbc_err *err);

/* Formats one SSE message for event e at (height, index) into a new
 * malloc'ed string. */
ZBC_WUR int zbc_sse_format(char **out, const struct zbc_event *e,
                           uint32_t height, uint32_t index,
                           struct zbc_err *err);

ZBC_WUR int zbc_sse_start(struct zbc_sse **out, struct event_base *base,
                          struct zbc_store *store, size_t max_streams,
                          size_t max_per_client, struct zbc_err *err);
/* Ends every stream and frees the server (before evhttp_free). */
void zbc_sse_stop(struct zbc_sse *s);
size_t zbc_sse_count(const struct zbc_sse *s);
/* The most bytes any open stream has waiting for its client to read
 * (bounded by ZBC_SSE_MAX_QUEUED plus one block's events). */
size_t zbc_sse_queued_max(const struct zbc_sse *s);

/* Takes over req (from the client address peer) as a stream starting
 * with the events of block from_height at index >= from_index.  Returns 0
 * (req untouched, err filled, *status the HTTP status to answer) when
 * max_streams run already (503) or peer holds max_per_client (429). */
ZBC_WUR int zbc_sse_open(struct zbc_sse *s, struct evhttp_request *req,
                         const char *peer, const struct zbc_sse_filter *f,
                         uint32_t from_height, uint32_t from_index,
                         int *status, struct zbc_err *err);

/* The API's close callback of every connection calls this: a stream on
 * conn ends (its client went away).  NULL s is allowed. */
void zbc_sse_conn_closed(struct zbc_sse *s, struct evhttp_connection *conn);

#endif
