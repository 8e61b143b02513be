#include "node/zbcd/sse.h"

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "crypto/bytes.h"
#include "node/zbcd/json_util.h"
#include "node/zbcd/log.h"

struct stream {
    struct zbc_sse *sse;
    struct evhttp_request *req;
    struct evhttp_connection *conn;
    struct zbc_sse_filter f;
    char peer[64];        /* the client's address */
    uint32_t next_height; /* next block whose events to send */
    uint32_t from_index;  /* skip events below this index in next_height */
    unsigned idle_ticks;  /* polls since the last write */
    struct stream *next;
};

struct zbc_sse {
    struct event_base *base;
    struct zbc_store *store;
    struct event *timer;
    size_t max, max_per_client, n;
    struct stream *head;
};

bool zbc_sse_match(const struct zbc_sse_filter *f, const struct zbc_event *e)
{
    if (f->is_app)
        return f->app_id != 0 && e->ref == f->app_id &&
               e->kind != ZBC_EVENT_TRANSFER && e->kind != ZBC_EVENT_FEE;
    return zbc_addr_equal(&e->a, &f->account) ||
           zbc_addr_equal(&e->b, &f->account);
}

/* 1 to 10 decimal digits (leading zeros allowed, as always), at most
 * UINT32_MAX; the zeros are skipped before the codec's strict parser. */
static int parse_u32(const char *p, size_t n, uint32_t *out)
{
    if (n == 0 || n > 10)
        return 0;
    size_t z = 0;
    while (z + 1 < n && p[z] == '0')
        z++;
    uint64_t v;
    struct zbc_err err = {{0}};
    if (!zbc_parse_u64n(p + z, n - z, 0, UINT32_MAX, &v, "event id", &err))
        return 0;
    *out = (uint32_t)v;
    return 1;
}

int zbc_sse_parse_id(const char *text, uint32_t *height, uint32_t *index,
                     struct zbc_err *err)
{
    const char *dash = strchr(text, '-');
    if (dash == NULL || !parse_u32(text, (size_t)(dash - text), height) ||
        !parse_u32(dash + 1, strlen(dash + 1), index))
        return zbc_fail(err, "event id '%.40s' must be <height>-<index> in "
                        "decimal", text);
    return 1;
}

int zbc_sse_format(char **out, const struct zbc_event *e, uint32_t height,
                   uint32_t index, struct zbc_err *err)
{
    json_t *j;
    if (!zbc_json_event(&j, e, err))
        return 0;
    if (!zbc_json_set(j, "height", json_integer(height), err) ||
        !zbc_json_set(j, "index", json_integer(index), err)) {
        json_decref(j);
        return 0;
    }
    char *data = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    if (data == NULL)
        return zbc_fail(err, "out of memory formatting an event");
    /* JSON_COMPACT output has no newline, so one data: line suffices */
    size_t cap = strlen(data) + 128;
    char *msg = malloc(cap);
    if (msg == NULL) {
        free(data);
        return zbc_fail(err, "out of memory formatting an event");
    }
    snprintf(msg, cap, "id: %u-%u\nevent: %s\ndata: %s\n\n", height, index,
             zbc_event_kind_name(e->kind), data);
    free(data);
    *out = msg;
    return 1;
}

size_t zbc_sse_count(const struct zbc_sse *s)
{
    return s->n;
}

static void unlink_stream(struct stream *st)
{
    struct zbc_sse *s = st->sse;
    for (struct stream **p = &s->head; *p != NULL; p = &(*p)->next) {
        if (*p == st) {
            *p = st->next;
            s->n--;
            break;
        }
    }
    free(st);
}

/* The connection closed (the API's close callback tells): the client went
 * away.  libevent detaches an unfinished incoming request from a failed
 * connection (req's connection becomes NULL) and leaves it to its owner:
 * free it here.  A request still attached is freed with its connection. */
void zbc_sse_conn_closed(struct zbc_sse *s, struct evhttp_connection *conn)
{
    if (s == NULL)
        return;
    struct stream *st = s->head;
    while (st != NULL && st->conn != conn)
        st = st->next;
    if (st == NULL)
        return;
    zbc_log_ratelimited("api:sse-close", ZBC_LOG_CLIENT_PERIOD_MS, ZBC_LOG_INFO,
                        "api: event stream of %s closed by the client (%zu "
                        "left)", st->peer, s->n - 1);
    if (evhttp_request_get_connection(st->req) == NULL)
        evhttp_request_free(st->req);
    unlink_stream(st);
}

static void send_text(struct stream *st, const char *text)
{
    struct evbuffer *b = evbuffer_new();
    if (b == NULL)
        return;
    evbuffer_add(b, text, strlen(text));
    evhttp_send_reply_chunk(st->req, b);
    evbuffer_free(b);
    st->idle_ticks = 0;
}

/* Sends the matching events of block h (from st->from_index). */
static int send_block(struct stream *st, uint32_t h, struct zbc_err *err)
{
    uint8_t *bytes = NULL;
    size_t len = 0;
    bool found;
    if (!zbc_store_events(st->sse->store, h, &bytes, &len, &found, err))
        return 0;
    if (!found)
        return 1; /* no events recorded for this block */
    struct zbc_events ev = {0};
    int ok = zbc_events_decode(&ev, bytes, len, err);
    free(bytes);
    for (size_t i = st->from_index; ok && i < ev.n; i++) {
        if (!zbc_sse_match(&st->f, &ev.e[i]))
            continue;
        char *msg;
        ok = zbc_sse_format(&msg, &ev.e[i], h, (uint32_t)i, err);
        if (ok) {
            send_text(st, msg);
            free(msg);
        }
    }
    zbc_events_free(&ev);
    return ok;
}

static void end_stream(struct stream *st)
{
    struct evhttp_request *req = st->req;
    unlink_stream(st); /* first: the reply's end may close the connection */
    evhttp_send_reply_end(req);
}

/* Bytes waiting in the stream's connection for the client to read. */
static size_t queued(const struct stream *st)
{
    struct evhttp_connection *conn = evhttp_request_get_connection(st->req);
    struct bufferevent *bev =
        conn != NULL ? evhttp_connection_get_bufferevent(conn) : NULL;
    return bev != NULL ? evbuffer_get_length(bufferevent_get_output(bev)) : 0;
}

size_t zbc_sse_queued_max(const struct zbc_sse *s)
{
    size_t max = 0;
    for (const struct stream *st = s->head; st != NULL; st = st->next) {
        size_t q = queued(st);
        if (q > max)
            max = q;
    }
    return max;
}

static void poll_stream(struct stream *st, uint32_t tip)
{
    struct zbc_err err = {{0}};
    /* back-pressure: a client that does not read is not sent more */
    if (queued(st) > ZBC_SSE_MAX_QUEUED)
        return;
    /* after a reorg to a lower tip, continue from the new tip */
    if (st->next_height > tip + 1) {
        st->next_height = tip + 1;
        st->from_index = 0;
    }
    for (unsigned k = 0; k < ZBC_SSE_BLOCKS_PER_POLL && st->next_height <= tip &&
                         queued(st) <= ZBC_SSE_MAX_QUEUED;
         k++) {
        if (st->next_height > 0 && !send_block(st, st->next_height, &err)) {
            zbc_log_ratelimited("api:sse-block", ZBC_LOG_PERIOD_MS,
                                ZBC_LOG_ERROR,
                                "api: event stream at block %u: %s; closing "
                                "it", st->next_height, err.msg);
            end_stream(st);
            return;
        }
        st->next_height++;
        st->from_index = 0;
    }
    if (++st->idle_ticks >= ZBC_SSE_KEEPALIVE_S * 1000 / ZBC_SSE_POLL_MS)
        send_text(st, ": keep-alive\n\n");
}

static void on_tick(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct zbc_sse *s = arg;
    if (s->head == NULL)
        return;
    struct zbc_store_meta m;
    struct zbc_err err = {{0}};
    if (!zbc_store_get_meta(s->store, &m, &err)) {
        zbc_log_ratelimited("api:sse-tip", ZBC_LOG_PERIOD_MS, ZBC_LOG_ERROR,
                            "api: event streams cannot read the tip: %s",
                            err.msg);
        return;
    }
    uint32_t tip = m.has_tip ? m.tip_height : 0;
    struct stream *st = s->head;
    while (st != NULL) {
        struct stream *next = st->next; /* st may end inside */
        poll_stream(st, tip);
        st = next;
    }
}

int zbc_sse_start(struct zbc_sse **out, struct event_base *base,
                  struct zbc_store *store, size_t max_streams,
                  size_t max_per_client, struct zbc_err *err)
{
    struct zbc_sse *s = calloc(1, sizeof *s);
    if (s == NULL)
        return zbc_fail(err, "out of memory starting event streams");
    s->base = base;
    s->store = store;
    s->max = max_streams;
    s->max_per_client = max_per_client;
    s->timer = event_new(base, -1, EV_PERSIST, on_tick, s);
    struct timeval tv = {0, ZBC_SSE_POLL_MS * 1000};
    if (s->timer == NULL || event_add(s->timer, &tv) != 0) {
        if (s->timer != NULL)
            event_free(s->timer);
        free(s);
        return zbc_fail(err, "cannot start the event stream timer");
    }
    *out = s;
    return 1;
}

void zbc_sse_stop(struct zbc_sse *s)
{
    if (s == NULL)
        return;
    while (s->head != NULL)
        end_stream(s->head);
    event_free(s->timer);
    free(s);
}

int zbc_sse_open(struct zbc_sse *s, struct evhttp_request *req,
                 const char *peer, const struct zbc_sse_filter *f,
                 uint32_t from_height, uint32_t from_index, int *status,
                 struct zbc_err *err)
{
    *status = 503;
    if (s->n >= s->max)
        return zbc_fail(err, "too many event streams are open (%zu); try "
                        "again later", s->max);
    size_t mine = 0;
    for (const struct stream *o = s->head; o != NULL; o = o->next)
        mine += strcmp(o->peer, peer) == 0;
    if (mine >= s->max_per_client) {
        *status = 429;
        return zbc_fail(err, "too many event streams from %s (%zu open, the "
                        "limit per client); close one first", peer, mine);
    }
    struct stream *st = calloc(1, sizeof *st);
    if (st == NULL)
        return zbc_fail(err, "out of memory opening an event stream");
    st->sse = s;
    st->req = req;
    st->conn = evhttp_request_get_connection(req);
    st->f = *f;
    snprintf(st->peer, sizeof st->peer, "%s", peer);
    st->next_height = from_height;
    st->from_index = from_index;
    st->next = s->head;
    s->head = st;
    s->n++;
    struct evkeyvalq *h = evhttp_request_get_output_headers(req);
    evhttp_add_header(h, "Content-Type", "text/event-stream");
    evhttp_add_header(h, "Cache-Control", "no-store");
    evhttp_add_header(h, "X-Accel-Buffering", "no");
    /* a stream is idle between events: no read/write timeout on it */
    evhttp_connection_set_timeout(st->conn, 24 * 3600);
    /* what the kernel holds for a client that does not read: bounded too
     * (a failure leaves the kernel's default, still within tcp_wmem) */
    struct bufferevent *bev =
        st->conn != NULL ? evhttp_connection_get_bufferevent(st->conn) : NULL;
    evutil_socket_t fd = bev != NULL ? bufferevent_getfd(bev) : -1;
    int sndbuf = ZBC_SSE_SNDBUF;
    if (fd >= 0 &&
        setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf) != 0)
        zbc_log_debug("api: event stream send buffer not set");
    evhttp_send_reply_start(req, 200, "OK");
    send_text(st, ": zbc event stream\nretry: 1000\n\n");
    return 1;
}
