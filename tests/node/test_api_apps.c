/* The app endpoints and event streams of the HTTP API against a real
 * evhttp server (127.0.0.1, port 0) on a one-validator chain: a CreateApp
 * signed here and produced into block 1, then the list and full views, the
 * account and app SSE streams, and every bad-input answer; plus the pure
 * helpers (event ids, SSE message bytes, list filters). */
#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <jansson.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "chain_fixture.h"
#include "crypto/hash.h"
#include "node/zbcd/api.h"
#include "node/zbcd/chain.h"
#include "node/zbcd/chain_apps.h"
#include "node/zbcd/log.h"
#include "node/zbcd/sse.h"
#include "testlib.h"

#define FEE 20000
#define STAKE 12345

static struct fixture fx;
static struct event_base *base;
static struct zbc_chain *chain;
static struct zbc_api *api;
static uint16_t port;
static uint64_t clock_ms;
static uint64_t app_id;
static char app_text[24];

static uint64_t test_clock(void)
{
    return clock_ms;
}

struct response {
    int status;
    char *body;
    json_t *json;
    char stream[8192]; /* event-stream bytes received so far */
    size_t stream_len;
    const char *stop_at; /* leave the loop once this text arrived */
    bool done;           /* on_response ran */
};

static void on_response(struct evhttp_request *req, void *arg)
{
    struct response *r = arg;
    r->done = true;
    if (req == NULL || evhttp_request_get_response_code(req) == 0) {
        r->status = -1;
    } else {
        r->status = evhttp_request_get_response_code(req);
        struct evbuffer *in = evhttp_request_get_input_buffer(req);
        size_t n = evbuffer_get_length(in);
        r->body = malloc(n + 1);
        evbuffer_remove(in, r->body, n);
        r->body[n] = '\0';
        r->json = json_loads(r->body, 0, NULL);
    }
    event_base_loopexit(base, NULL);
}

static void on_chunk(struct evhttp_request *req, void *arg)
{
    struct response *r = arg;
    r->status = evhttp_request_get_response_code(req);
    struct evbuffer *in = evhttp_request_get_input_buffer(req);
    size_t n = evbuffer_get_length(in);
    if (n > sizeof r->stream - 1 - r->stream_len)
        n = sizeof r->stream - 1 - r->stream_len;
    evbuffer_remove(in, r->stream + r->stream_len, n);
    r->stream_len += n;
    r->stream[r->stream_len] = '\0';
    evbuffer_drain(in, evbuffer_get_length(in));
    if (r->stop_at != NULL && strstr(r->stream, r->stop_at) != NULL)
        event_base_loopexit(base, NULL);
}

static void call(struct response *r, const char *path, const char *hname,
                 const char *hvalue)
{
    memset(r, 0, sizeof *r);
    struct evhttp_connection *conn =
        evhttp_connection_base_new(base, NULL, "127.0.0.1", port);
    struct evhttp_request *req = evhttp_request_new(on_response, r);
    evhttp_add_header(evhttp_request_get_output_headers(req), "Host", "x");
    if (hname != NULL)
        evhttp_add_header(evhttp_request_get_output_headers(req), hname,
                          hvalue);
    evhttp_make_request(conn, req, EVHTTP_REQ_GET, path);
    /* until the answer: a timed exit left over from run_for_ms (its
     * loop ended early on another callback's loopexit) may end a dispatch
     * first — seen under load as a status 0 */
    for (int i = 0; i < 50 && !r->done; i++)
        event_base_dispatch(base);
    evhttp_connection_free(conn);
}

static void get(struct response *r, const char *path)
{
    call(r, path, NULL, NULL);
}

static void response_free(struct response *r)
{
    free(r->body);
    json_decref(r->json);
}

static void check_error(const char *path, int status, const char *want)
{
    struct response r;
    get(&r, path);
    CHECK_EQ_INT(r.status, status);
    const char *e = json_string_value(json_object_get(r.json, "error"));
    CHECK(json_is_false(json_object_get(r.json, "success")));
    CHECK(e != NULL && strstr(e, want) != NULL);
    if (e == NULL || strstr(e, want) == NULL)
        fprintf(stderr, "  %s: error was %s (wanted %s)\n", path,
                e ? e : r.body, want);
    response_free(&r);
}

/* A stream opened on path; returns once stop_at arrived or after 5 s. */
static void stream(struct response *r, const char *path, const char *stop_at,
                   const char *last_id)
{
    memset(r, 0, sizeof *r);
    r->stop_at = stop_at;
    struct evhttp_connection *conn =
        evhttp_connection_base_new(base, NULL, "127.0.0.1", port);
    struct evhttp_request *req = evhttp_request_new(on_response, r);
    evhttp_request_set_chunked_cb(req, on_chunk);
    evhttp_add_header(evhttp_request_get_output_headers(req), "Host", "x");
    if (last_id != NULL)
        evhttp_add_header(evhttp_request_get_output_headers(req),
                          "Last-Event-ID", last_id);
    evhttp_make_request(conn, req, EVHTTP_REQ_GET, path);
    struct timeval tv = {5, 0};
    event_base_loopexit(base, &tv);
    event_base_dispatch(base);
    /* the client hangs up; the server must drop the stream */
    evhttp_connection_free(conn);
    struct timeval t2 = {0, 300000};
    event_base_loopexit(base, &t2);
    event_base_dispatch(base);
}

static void setup(void)
{
    fx_setup(&fx);
    struct zbc_err err = {{0}};
    struct zbc_chain_config cfg = {.ledger_dir = fx.ledger,
                                   .genesis = &fx.g,
                                   .key = &fx.key};
    if (!zbc_chain_open(&chain, &cfg, &err)) {
        fprintf(stderr, "chain open: %s\n", err.msg);
        exit(2);
    }
    base = event_base_new();
    clock_ms = FX_GENESIS_TIME + FX_BLOCK_TIME;
    struct zbc_api_config acfg = {.host = "127.0.0.1", .version = "t",
                                  .now_ms = test_clock};
    if (!zbc_api_start(&api, base, chain, &acfg, &err)) {
        fprintf(stderr, "api start: %s\n", err.msg);
        exit(2);
    }
    port = zbc_api_port(api);
}

/* Alice opens a tic-tac-toe app (stake STAKE); block 1 includes it. */
static void create_app(void)
{
    uint8_t body[21], raw[512];
    memset(body, 0, sizeof body);
    body[0] = 1; /* tic-tac-toe */
    for (int i = 0; i < 8; i++)
        body[9 + i] = (uint8_t)((uint64_t)STAKE >> (8 * i));
    body[17] = 2; /* seats */
    struct zbc_tx tx;
    memset(&tx, 0, sizeof tx);
    tx.type = ZBC_TX_APP_CREATE;
    tx.version = ZBC_TX_VERSION;
    tx.timestamp = (int64_t)(clock_ms / 1000);
    zbc_addr_empty(&tx.recipient);
    tx.fee = FEE;
    tx.body = body;
    tx.body_len = 20; /* ... params_len u16 = 0, no opponent */
    size_t n = 0;
    struct zbc_err err = {{0}};
    if (!zbc_tx_sign_ed25519(raw, sizeof raw, &n, &tx, fx.alice_seed,
                             fx.g.hash, &err)) {
        fprintf(stderr, "sign: %s\n", err.msg);
        exit(2);
    }
    uint8_t hash[32];
    zbc_sha3_256(hash, raw, n); /* H(unsigned bytes || signature) */
    app_id = 0;
    for (int i = 7; i >= 0; i--)
        app_id = app_id << 8 | hash[i];
    snprintf(app_text, sizeof app_text, "%llu", (unsigned long long)app_id);
    bool dup = false;
    uint8_t got[32];
    int ok = zbc_chain_submit(chain, raw, n, clock_ms, got, &dup, &err);
    CHECK(ok);
    if (!ok)
        fprintf(stderr, "  submit: %s\n", err.msg);
    CHECK_EQ_MEM(got, hash, 32);
    struct zbc_block_info info;
    ok = zbc_chain_produce(chain, clock_ms, &info, &err);
    CHECK(ok);
    if (!ok)
        fprintf(stderr, "  produce: %s\n", err.msg);
    CHECK_EQ_INT(info.n_tx, 1);
}

static void test_app_view(void)
{
    create_app();
    char path[128], alice[ZBC_ADDR_TEXT_MAX];
    zbc_addr_to_text(alice, &fx.alice);
    snprintf(path, sizeof path, "/api/v1/apps/%s", app_text);
    struct response r;
    get(&r, path);
    CHECK_EQ_INT(r.status, 200);
    json_t *j = r.json;
    CHECK_EQ_STR(json_string_value(json_object_get(j, "id")), app_text);
    CHECK_EQ_STR(json_string_value(json_object_get(j, "game")), "tictactoe");
    CHECK_EQ_STR(json_string_value(json_object_get(j, "status")), "open");
    CHECK_EQ_INT(json_integer_value(json_object_get(j, "type")), 1);
    CHECK_EQ_INT(json_integer_value(json_object_get(j, "seats")), 2);
    CHECK_EQ_INT(json_integer_value(json_object_get(j, "seated")), 1);
    CHECK_EQ_INT(json_integer_value(json_object_get(j, "stake")), STAKE);
    CHECK_EQ_INT(json_integer_value(json_object_get(j, "pot")), STAKE);
    CHECK_EQ_INT(json_integer_value(json_object_get(j, "created")), 1);
    CHECK(json_is_null(json_object_get(j, "clock")));
    CHECK(json_is_null(json_object_get(j, "deadline")));
    CHECK(json_is_null(json_object_get(j, "pending")));
    CHECK(json_is_null(json_object_get(j, "result")));
    CHECK(json_is_null(json_object_get(j, "view"))); /* not started */
    CHECK_EQ_STR(json_string_value(json_object_get(j, "state_hex")), "");
    json_t *p0 = json_array_get(json_object_get(j, "players"), 0);
    CHECK_EQ_STR(json_string_value(json_object_get(p0, "address")), alice);
    CHECK_EQ_INT(json_integer_value(json_object_get(p0, "seat")), 0);
    json_t *h = json_object_get(j, "history");
    CHECK_EQ_INT((long long)json_array_size(h), 1);
    json_t *h0 = json_array_get(h, 0);
    CHECK_EQ_STR(json_string_value(json_object_get(h0, "kind")), "app_create");
    CHECK_EQ_INT(json_integer_value(json_object_get(h0, "amount")), STAKE);
    CHECK_EQ_INT(json_integer_value(json_object_get(h0, "height")), 1);
    CHECK_EQ_INT(json_integer_value(json_object_get(h0, "seat")), 0);
    response_free(&r);

    /* lists and filters */
    get(&r, "/api/v1/apps");
    CHECK_EQ_INT(r.status, 200);
    CHECK_EQ_INT(json_integer_value(json_object_get(r.json, "count")), 1);
    CHECK(json_is_null(json_object_get(r.json, "next_cursor")));
    response_free(&r);
    snprintf(path, sizeof path, "/api/v1/apps?status=open&type=tictactoe&seat=%s",
             alice);
    get(&r, path);
    CHECK_EQ_INT(json_integer_value(json_object_get(r.json, "count")), 1);
    response_free(&r);
    get(&r, "/api/v1/apps?type=2");
    CHECK_EQ_INT(json_integer_value(json_object_get(r.json, "count")), 0);
    response_free(&r);
    get(&r, "/api/v1/apps?status=finished");
    CHECK_EQ_INT(json_integer_value(json_object_get(r.json, "count")), 0);
    response_free(&r);
    snprintf(path, sizeof path, "/api/v1/apps?cursor=1-%s", app_text);
    get(&r, path); /* the cursor is exclusive */
    CHECK_EQ_INT(json_integer_value(json_object_get(r.json, "count")), 0);
    response_free(&r);
}

static void test_streams(void)
{
    char path[160], alice[ZBC_ADDR_TEXT_MAX], want[64];
    zbc_addr_to_text(alice, &fx.alice);
    struct response r;
    snprintf(path, sizeof path, "/api/v1/apps/%s/events?from_height=0",
             app_text);
    stream(&r, path, "event: app_create", NULL);
    CHECK_EQ_INT(r.status, 200);
    CHECK(strstr(r.stream, "event: app_create\n") != NULL);
    /* amounts and refs above 2^63-1 are written as decimal strings */
    snprintf(want, sizeof want, app_id > INT64_MAX ? "\"ref\":\"%s\""
                                                   : "\"ref\":%s", app_text);
    CHECK(strstr(r.stream, want) != NULL);
    CHECK(strstr(r.stream, "event: fee") == NULL); /* not this app's */
    /* the account stream also carries alice's fee */
    snprintf(path, sizeof path, "/api/v1/accounts/%s/events?from_height=1",
             alice);
    stream(&r, path, "event: fee", NULL);
    CHECK(strstr(r.stream, "event: app_create") != NULL);
    CHECK(strstr(r.stream, "event: fee") != NULL);
    /* resuming after the last event of block 1 sends nothing old */
    snprintf(path, sizeof path, "/api/v1/accounts/%s/events", alice);
    stream(&r, path, "never", "1-999");
    CHECK_EQ_INT(r.status, 200);
    CHECK(strstr(r.stream, "id: 1-") == NULL);
    CHECK(strstr(r.stream, ": zbc event stream") != NULL);
}

/* Opens a stream from the local address src (127.0.0.x: every loopback
 * address reaches the server) without waiting for it. */
static struct evhttp_connection *open_stream(struct response *r,
                                             const char *path, const char *src)
{
    memset(r, 0, sizeof *r);
    struct evhttp_connection *conn =
        evhttp_connection_base_new(base, NULL, "127.0.0.1", port);
    evhttp_connection_set_local_address(conn, src);
    struct evhttp_request *req = evhttp_request_new(on_response, r);
    evhttp_request_set_chunked_cb(req, on_chunk);
    evhttp_add_header(evhttp_request_get_output_headers(req), "Host", "x");
    evhttp_make_request(conn, req, EVHTTP_REQ_GET, path);
    return conn;
}

static uint64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void run_for_ms(long ms)
{
    struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
    event_base_loopexit(base, &tv);
    event_base_dispatch(base);
}

/* At most ZBC_SSE_MAX_PER_CLIENT streams from one client address (one
 * more is 429, other addresses unaffected) and ZBC_SSE_MAX_STREAMS in all
 * (one more is 503); a stream whose client left frees its place. */
static void test_stream_limit(void)
{
    static struct response rs[ZBC_SSE_MAX_STREAMS + 1];
    struct evhttp_connection *conns[ZBC_SSE_MAX_STREAMS + 1];
    char path[160], src[32];
    snprintf(path, sizeof path, "/api/v1/apps/%s/events", app_text);
    int n = 0;
    for (int i = 0; i < ZBC_SSE_MAX_PER_CLIENT; i++, n++)
        conns[n] = open_stream(&rs[n], path, "127.0.0.2");
    run_for_ms(500);
    int open = 0;
    for (int i = 0; i < n; i++)
        open += rs[i].status == 200;
    CHECK_EQ_INT(open, ZBC_SSE_MAX_PER_CLIENT);
    /* one more from the same address: refused, with the reason */
    conns[n] = open_stream(&rs[n], path, "127.0.0.2");
    run_for_ms(300);
    CHECK_EQ_INT(rs[n].status, 429);
    /* (the body arrived through the chunk callback) */
    CHECK(strstr(rs[n].stream, "too many event streams from 127.0.0.2 (8 "
                               "open, the limit per client)") != NULL);
    evhttp_connection_free(conns[n]);
    response_free(&rs[n]);
    /* the other addresses fill the server up to its global limit */
    for (int a = 3; n < ZBC_SSE_MAX_STREAMS; a++) {
        snprintf(src, sizeof src, "127.0.0.%d", a);
        for (int i = 0; i < ZBC_SSE_MAX_PER_CLIENT && n < ZBC_SSE_MAX_STREAMS;
             i++, n++)
            conns[n] = open_stream(&rs[n], path, src);
    }
    run_for_ms(700);
    open = 0;
    for (int i = 0; i < n; i++)
        open += rs[i].status == 200;
    CHECK_EQ_INT(open, ZBC_SSE_MAX_STREAMS);
    check_error(path, 503, "too many event streams are open (64)");
    for (int i = 0; i < n; i++)
        evhttp_connection_free(conns[i]);
    run_for_ms(500);
    struct response r;
    stream(&r, path, ": zbc event stream", NULL);
    CHECK_EQ_INT(r.status, 200);
}

static void test_bad_input(void)
{
    check_error("/api/v1/apps/abc", 400, "app id must be a decimal");
    check_error("/api/v1/apps/18446744073709551616", 400, "app id");
    check_error("/api/v1/apps/99", 404, "unknown app");
    check_error("/api/v1/apps?status=bogus", 400, "status must be");
    check_error("/api/v1/apps?type=zzz", 400, "type must be");
    check_error("/api/v1/apps?type=99", 400, "type must be");
    check_error("/api/v1/apps?seat=ZBC_nope", 400, "invalid seat address");
    check_error("/api/v1/apps?limit=0", 400, "limit must be from 1 to 100");
    check_error("/api/v1/apps?limit=101", 400, "limit must be");
    check_error("/api/v1/apps?cursor=12", 400, "cursor must be");
    check_error("/api/v1/apps?cursor=a-1", 400, "cursor must be");
    check_error("/api/v1/apps/99/events", 404, "unknown app");
    check_error("/api/v1/apps/x/events", 400, "app id");
    check_error("/api/v1/accounts/nope/events", 400, "invalid account");
    char path[64];
    snprintf(path, sizeof path, "/api/v1/apps/%s/events?from_height=x",
             app_text);
    check_error(path, 400, "from_height");
    struct response r;
    snprintf(path, sizeof path, "/api/v1/apps/%s/events", app_text);
    call(&r, path, "Last-Event-ID", "garbage");
    CHECK_EQ_INT(r.status, 400);
    response_free(&r);
}

static void test_pure(void)
{
    struct zbc_err err = {{0}};
    uint32_t h = 0, i = 0;
    CHECK(zbc_sse_parse_id("12-3", &h, &i, &err));
    CHECK_EQ_INT(h, 12);
    CHECK_EQ_INT(i, 3);
    CHECK(!zbc_sse_parse_id("12", &h, &i, &err));
    CHECK(strstr(err.msg, "<height>-<index>") != NULL);
    CHECK(!zbc_sse_parse_id("a-1", &h, &i, &err));
    CHECK(!zbc_sse_parse_id("1-", &h, &i, &err));
    CHECK(!zbc_sse_parse_id("4294967296-0", &h, &i, &err));

    struct zbc_event e;
    memset(&e, 0, sizeof e);
    e.kind = ZBC_EVENT_APP_RAKE;
    e.tx_index = ZBC_EVENT_NO_TX;
    zbc_addr_empty(&e.a);
    zbc_addr_empty(&e.b);
    e.amount = 7;
    e.ref = 5;
    e.seat = ZBC_EVENT_NO_SEAT;
    char *msg = NULL;
    CHECK(zbc_sse_format(&msg, &e, 9, 2, &err));
    CHECK_EQ_STR(msg, "id: 9-2\nevent: app_rake\ndata: {\"kind\":\"app_rake\","
                      "\"tx_index\":null,\"tx_hash\":null,\"from\":null,"
                      "\"to\":null,\"amount\":7,\"ref\":5,\"reason\":\"\","
                      "\"seat\":null,\"data\":\"\",\"height\":9,\"index\":2}"
                      "\n\n");
    free(msg);
    struct zbc_sse_filter f = {.is_app = true, .app_id = 5};
    CHECK(zbc_sse_match(&f, &e));
    f.app_id = 6;
    CHECK(!zbc_sse_match(&f, &e));
    f.is_app = false;
    f.account = fx.alice;
    CHECK(!zbc_sse_match(&f, &e));
    e.b = fx.alice;
    CHECK(zbc_sse_match(&f, &e));

    /* list cursor: (created, id) strictly below */
    struct zbc_app *a = calloc(1, sizeof *a);
    a->created = 10;
    a->id = 50;
    struct zbc_app_filter lf = {.has_before = true, .before_height = 10,
                                .before_id = 50};
    CHECK(!zbc_app_filter_match(&lf, a));
    lf.before_id = 51;
    CHECK(zbc_app_filter_match(&lf, a));
    lf.before_height = 10;
    lf.before_id = 0;
    a->created = 9;
    CHECK(zbc_app_filter_match(&lf, a));
    struct zbc_app_list l;
    CHECK(!zbc_chain_app_list(chain, &lf, 0, &l, &err));
    CHECK(strstr(err.msg, "limit") != NULL);
    free(a);
}

/* A stream whose client does not read gets back-pressure: the node queues
 * at most ZBC_SSE_MAX_QUEUED plus one block's events for it, not the whole
 * history; once the client reads, the stream resumes and every event
 * arrives (docs/api.md "event streams"). */
static void test_stream_backpressure(void)
{
    enum { BLOCKS = 40, PER_BLOCK = 60 };
    struct zbc_err err = {{0}};
    uint8_t raw[512];
    uint32_t amount = 1;
    for (int b = 0; b < BLOCKS; b++) {
        for (int i = 0; i < PER_BLOCK; i++) {
            size_t n = fx_send(raw, sizeof raw, &fx, fx.alice_seed, &fx.bob,
                               amount++, FEE, (int64_t)(clock_ms / 1000));
            uint8_t got[32];
            bool dup = false;
            CHECK(zbc_chain_submit(chain, raw, n, clock_ms, got, &dup, &err));
        }
        clock_ms += FX_BLOCK_TIME;
        struct zbc_block_info info;
        CHECK(zbc_chain_produce(chain, clock_ms, &info, &err));
        CHECK_EQ_INT(info.n_tx, PER_BLOCK);
    }
    /* one block's events as a stream sends them: about 2 events of ~400
     * bytes per transfer */
    const size_t biggest = (size_t)PER_BLOCK * 2 * 1024;

    char alice[ZBC_ADDR_TEXT_MAX], req[256];
    zbc_addr_to_text(alice, &fx.alice);
    snprintf(req, sizeof req,
             "GET /api/v1/accounts/%s/events?from_height=0 HTTP/1.1\r\n"
             "Host: x\r\n\r\n", alice);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    int small = 4096;
    CHECK(setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small) == 0);
    struct sockaddr_in sin = {.sin_family = AF_INET, .sin_port = htons(port),
                              .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    CHECK(connect(fd, (struct sockaddr *)&sin, sizeof sin) == 0);
    CHECK(write(fd, req, strlen(req)) == (ssize_t)strlen(req));
    const struct zbc_sse *sse = zbc_api_sse(api);
    /* at least 2 s of polls, never reading, and on until the node has
     * queued something (a loaded machine may give this process little
     * CPU: the bounds are on bytes, the waits only long enough) */
    size_t peak = 0;
    uint64_t start = mono_ms();
    while (mono_ms() - start < 2000 || (peak == 0 && mono_ms() - start < 60000)) {
        run_for_ms(100);
        size_t q = zbc_sse_queued_max(sse);
        if (q > peak)
            peak = q;
    }
    CHECK(peak > 0);
    CHECK(peak <= ZBC_SSE_MAX_QUEUED + biggest);
    if (peak > ZBC_SSE_MAX_QUEUED + biggest)
        fprintf(stderr, "  queued %zu bytes for a client that does not read\n",
                peak);
    /* the client reads: the stream resumes, every transfer arrives */
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    size_t transfers = 0, total = 0;
    char buf[65536], carry[32] = "";
    /* until every transfer came, or 30 s without a byte */
    for (uint64_t last = mono_ms();
         mono_ms() - last < 30000 && transfers < BLOCKS * PER_BLOCK;) {
        run_for_ms(20);
        ssize_t r = read(fd, buf, sizeof buf - 1);
        if (r <= 0)
            continue;
        last = mono_ms();
        total += (size_t)r;
        buf[r] = '\0';
        /* count "event: transfer" across read boundaries */
        char joined[sizeof carry + sizeof buf];
        snprintf(joined, sizeof joined, "%s%s", carry, buf);
        for (const char *q = joined; (q = strstr(q, "event: transfer\n")); q++)
            transfers++;
        size_t jl = strlen(joined), keep = jl < 15 ? jl : 15;
        memcpy(carry, joined + jl - keep, keep);
        carry[keep] = '\0';
    }
    CHECK_EQ_INT(transfers, BLOCKS * PER_BLOCK);
    CHECK(total > ZBC_SSE_MAX_QUEUED + biggest); /* more than was queued */
    close(fd);
    run_for_ms(300);
}

int main(void)
{
    zbc_log_to_stderr(false);
    signal(SIGPIPE, SIG_IGN);
    setup();
    TEST_RUN(test_app_view);
    TEST_RUN(test_streams);
    TEST_RUN(test_bad_input);
    TEST_RUN(test_stream_limit);
    TEST_RUN(test_stream_backpressure);
    TEST_RUN(test_pure);
    zbc_api_stop(api);
    event_base_free(base);
    zbc_chain_close(chain);
    fx_teardown(&fx);
    return test_summary("node_api_apps");
}
