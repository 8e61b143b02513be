#include "node/client/http.h"

#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <arpa/inet.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "crypto/bytes.h"

struct call {
    struct event_base *base;
    int done;
    int status;
    int timed_out;
    enum evhttp_request_error error;
    int have_error;
    int have_headers;       /* the status line and headers were read */
    size_t max_body;
    unsigned long long announced; /* a refused Content-Length, else 0 */
    char *body;
    size_t len;
};

static void on_reply(struct evhttp_request *req, void *arg)
{
    struct call *c = arg;
    c->done = 1;
    if (req == NULL || evhttp_request_get_response_code(req) == 0) {
        event_base_loopbreak(c->base);
        return;
    }
    c->status = evhttp_request_get_response_code(req);
    struct evbuffer *in = evhttp_request_get_input_buffer(req);
    size_t n = evbuffer_get_length(in);
    if (n > c->max_body) { /* evhttp enforces the cap; this is a backstop */
        c->status = 0;
        c->have_error = 1;
        c->error = EVREQ_HTTP_DATA_TOO_LONG;
        event_base_loopbreak(c->base);
        return;
    }
    c->body = malloc(n + 1);
    if (c->body != NULL) {
        evbuffer_remove(in, c->body, n);
        c->body[n] = '\0';
        c->len = n;
    }
    event_base_loopbreak(c->base);
}

/* After the headers: a Content-Length above the cap ends the exchange
 * before any of the body is read. */
static int on_headers(struct evhttp_request *req, void *arg)
{
    struct call *c = arg;
    c->have_headers = 1;
    const char *cl = evhttp_find_header(evhttp_request_get_input_headers(req),
                                        "Content-Length");
    if (cl == NULL)
        return 0;
    uint64_t n;
    struct zbc_err err;
    if (!zbc_parse_u64(cl, 0, UINT64_MAX, &n, "Content-Length", &err))
        return 0; /* evhttp refuses a malformed length itself */
    if (n > c->max_body) {
        c->announced = n;
        return -1;
    }
    return 0;
}

static void on_error(enum evhttp_request_error e, void *arg)
{
    struct call *c = arg;
    c->error = e;
    c->have_error = 1;
}

static void on_deadline(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct call *c = arg;
    c->timed_out = 1;
    event_base_loopbreak(c->base);
}

/* The address to connect to: IPv4 first (zbcd listens on 127.0.0.1 by
 * default, and "localhost" may list ::1 first), else IPv6.  evhttp would
 * try only the first address getaddrinfo returns. */
static int resolve(char *out, size_t cap, const char *host)
{
    static const int families[] = {AF_INET, AF_INET6};
    char bare[256];
    size_t n = strlen(host);
    if (n >= 2 && n < sizeof bare && host[0] == '[' && host[n - 1] == ']') {
        memcpy(bare, host + 1, n - 2); /* an IPv6 literal from the URL */
        bare[n - 2] = '\0';
        host = bare;
    }
    for (size_t i = 0; i < 2; i++) {
        struct addrinfo hints, *res = NULL;
        memset(&hints, 0, sizeof hints);
        hints.ai_family = families[i];
        hints.ai_socktype = SOCK_STREAM;
        if (getaddrinfo(host, NULL, &hints, &res) != 0 || res == NULL)
            continue;
        const void *a = res->ai_family == AF_INET
                            ? (const void *)&((struct sockaddr_in *)res->ai_addr)->sin_addr
                            : (const void *)&((struct sockaddr_in6 *)res->ai_addr)->sin6_addr;
        const char *ok = inet_ntop(res->ai_family, a, out, (socklen_t)cap);
        freeaddrinfo(res);
        if (ok != NULL)
            return 1;
    }
    return 0;
}

/* Joins the base URL's path (without a trailing '/') and path into out. */
static int join_path(char *out, size_t cap, const char *prefix, const char *path)
{
    size_t plen = prefix != NULL ? strlen(prefix) : 0;
    while (plen > 0 && prefix[plen - 1] == '/')
        plen--;
    int n = snprintf(out, cap, "%.*s%s", (int)plen, plen ? prefix : "", path);
    return n > 0 && (size_t)n < cap;
}

int zbc_http_request(struct zbc_http_reply *r, const char *base_url,
                     const char *path, const char *body, int timeout_s,
                     size_t max_body, struct zbc_wfail *f)
{
    memset(r, 0, sizeof *r);
    struct evhttp_uri *uri = evhttp_uri_parse(base_url);
    if (uri == NULL)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "the API URL '%s' is not a valid URL", base_url);
    const char *scheme = evhttp_uri_get_scheme(uri);
    const char *host = evhttp_uri_get_host(uri);
    if (scheme == NULL || strcmp(scheme, "http") != 0 || host == NULL || host[0] == '\0') {
        evhttp_uri_free(uri);
        return zbc_wfail(f, ZBC_EXIT_USAGE,
                         "the API URL '%s' must be http://host[:port][/prefix] (https is not supported)",
                         base_url);
    }
    int port = evhttp_uri_get_port(uri);
    if (port < 0)
        port = 80;
    char full[2048];
    if (!join_path(full, sizeof full, evhttp_uri_get_path(uri), path)) {
        evhttp_uri_free(uri);
        return zbc_wfail(f, ZBC_EXIT_USAGE, "the request path is too long");
    }
    char hosthdr[300];
    snprintf(hosthdr, sizeof hosthdr, "%s:%d", host, port);

    struct call c;
    memset(&c, 0, sizeof c);
    c.max_body = max_body;
    c.base = event_base_new();
    if (c.base == NULL) {
        evhttp_uri_free(uri);
        return zbc_wfail(f, ZBC_EXIT_INTERNAL, "cannot create an event loop");
    }
    char ip[INET6_ADDRSTRLEN];
    struct evhttp_connection *conn = NULL;
    struct evhttp_request *req = NULL;
    struct event *deadline = NULL;
    int ok = 0;
    if (!resolve(ip, sizeof ip, host)) {
        zbc_wfail(f, ZBC_EXIT_NODE_UNREACHABLE, "cannot resolve the node's host name '%s'", host);
        goto out;
    }
    conn = evhttp_connection_base_new(c.base, NULL, ip, (unsigned short)port);
    if (conn == NULL) {
        zbc_wfail(f, ZBC_EXIT_NODE_UNREACHABLE, "cannot resolve or reach %s", hosthdr);
        goto out;
    }
    evhttp_connection_set_timeout(conn, timeout_s);
    evhttp_connection_set_retries(conn, 0);
    evhttp_connection_set_max_headers_size(conn, (ev_ssize_t)ZBC_HTTP_HEADERS_MAX);
    evhttp_connection_set_max_body_size(conn, (ev_ssize_t)max_body);
    req = evhttp_request_new(on_reply, &c);
    if (req == NULL) {
        zbc_wfail(f, ZBC_EXIT_INTERNAL, "cannot create an HTTP request");
        goto out;
    }
    evhttp_request_set_error_cb(req, on_error);
    evhttp_request_set_header_cb(req, on_headers);
    struct evkeyvalq *h = evhttp_request_get_output_headers(req);
    evhttp_add_header(h, "Host", hosthdr);
    evhttp_add_header(h, "Accept", "application/json");
    evhttp_add_header(h, "User-Agent", "zbc-cli/1.0");
    evhttp_add_header(h, "Connection", "close");
    if (body != NULL) {
        evhttp_add_header(h, "Content-Type", "application/json");
        evbuffer_add(evhttp_request_get_output_buffer(req), body, strlen(body));
    }
    /* The request belongs to the connection once made, even on failure. */
    if (evhttp_make_request(conn, req, body != NULL ? EVHTTP_REQ_POST : EVHTTP_REQ_GET,
                            full) != 0) {
        req = NULL;
        zbc_wfail(f, ZBC_EXIT_NODE_UNREACHABLE, "cannot send a request to %s", hosthdr);
        goto out;
    }
    req = NULL;
    /* One deadline over the whole exchange: evhttp's own timeout restarts
     * with every read, so a node that drips a byte a second would never
     * hit it. */
    deadline = evtimer_new(c.base, on_deadline, &c);
    struct timeval tv = {.tv_sec = timeout_s, .tv_usec = 0};
    if (deadline == NULL || evtimer_add(deadline, &tv) != 0) {
        zbc_wfail(f, ZBC_EXIT_INTERNAL, "cannot arm the request deadline");
        goto out;
    }
    event_base_dispatch(c.base);

    if (c.status != 0) {
        r->status = c.status;
        r->body = c.body != NULL ? c.body : strdup("");
        r->len = c.body != NULL ? c.len : 0;
        c.body = NULL;
        if (r->body == NULL) {
            zbc_wfail(f, ZBC_EXIT_INTERNAL, "out of memory reading the reply");
            goto out;
        }
        ok = 1;
    } else if (c.announced != 0) {
        zbc_wfail(f, ZBC_EXIT_NODE_UNREACHABLE,
                  "the node at %s announced a reply of %llu bytes for %s, above the "
                  "%zu-byte limit: refused unread", hosthdr, c.announced, full, max_body);
    } else if (c.timed_out || (c.have_error && c.error == EVREQ_HTTP_TIMEOUT)) {
        zbc_wfail(f, ZBC_EXIT_TIMEOUT, "the node at %s did not %s within %d s", hosthdr,
                  c.have_headers ? "finish its reply" : "answer", timeout_s);
    } else if (c.have_error && c.error == EVREQ_HTTP_DATA_TOO_LONG) {
        zbc_wfail(f, ZBC_EXIT_NODE_UNREACHABLE,
                  "the node at %s sent a reply to %s longer than the %zu-byte limit: cut off",
                  hosthdr, full, max_body);
    } else if (c.have_headers) {
        zbc_wfail(f, ZBC_EXIT_NODE_UNREACHABLE,
                  "the node at %s broke off or garbled its reply to %s", hosthdr, full);
    } else if (c.have_error && c.error == EVREQ_HTTP_INVALID_HEADER) {
        /* evhttp reports headers over the cap as invalid too */
        zbc_wfail(f, ZBC_EXIT_NODE_UNREACHABLE,
                  "the node at %s sent a malformed HTTP status line or header, or headers "
                  "longer than %zu bytes", hosthdr, ZBC_HTTP_HEADERS_MAX);
    } else {
        zbc_wfail(f, ZBC_EXIT_NODE_UNREACHABLE, "cannot connect to the node at %s", hosthdr);
    }
out:
    free(c.body);
    if (deadline != NULL)
        event_free(deadline);
    if (req != NULL)
        evhttp_request_free(req);
    if (conn != NULL)
        evhttp_connection_free(conn);
    event_base_free(c.base);
    evhttp_uri_free(uri);
    return ok;
}

void zbc_http_reply_free(struct zbc_http_reply *r)
{
    free(r->body);
    r->body = NULL;
    r->len = 0;
}
