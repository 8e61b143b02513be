/* HTTP API against a real evhttp server on 127.0.0.1 (port 0), driven by
 * libevent's HTTP client in the same event loop. */
#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <jansson.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "chain_fixture.h"
#include "consensus/tx_payload.h"
#include "crypto/hash.h"
#include "node/zbcd/api.h"
#include "node/zbcd/chain.h"
#include "node/zbcd/datadir.h"
#include "node/zbcd/json_util.h"
#include "node/zbcd/log.h"
#include "testlib.h"

#define FEE 10000

static struct fixture fx;
static struct event_base *base;
static struct zbc_chain *chain;
static struct zbc_api *api;
static uint16_t port;
static uint64_t clock_ms;
static int stop_calls;
static const char *token = "00112233445566778899aabbccddeeff"
                           "00112233445566778899aabbccddeeff";

static uint64_t test_clock(void)
{
    return clock_ms;
}

static void on_stop(void *arg)
{
    (void)arg;
    stop_calls++;
}

struct response {
    int status;
    char *body;
    json_t *json;
    char allow[32];
};

static void on_response(struct evhttp_request *req, void *arg)
{
    struct response *r = arg;
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
        const char *allow = evhttp_find_header(
            evhttp_request_get_input_headers(req), "Allow");
        if (allow != NULL)
            snprintf(r->allow, sizeof r->allow, "%s", allow);
    }
    event_base_loopexit(base, NULL);
}

/* One request; the answer in *r (free with response_free). */
static void call(struct response *r, enum evhttp_cmd_type method,
                 const char *path, const char *body, size_t body_len,
                 const char *hdr_name, const char *hdr_value)
{
    memset(r, 0, sizeof *r);
    struct evhttp_connection *conn =
        evhttp_connection_base_new(base, NULL, "127.0.0.1", port);
    struct evhttp_request *req = evhttp_request_new(on_response, r);
    struct evkeyvalq *h = evhttp_request_get_output_headers(req);
    evhttp_add_header(h, "Host", "127.0.0.1");
    if (hdr_name != NULL)
        evhttp_add_header(h, hdr_name, hdr_value);
    if (body != NULL) {
        evhttp_add_header(h, "Content-Type", "application/json");
        evbuffer_add(evhttp_request_get_output_buffer(req), body, body_len);
    }
    evhttp_make_request(conn, req, method, path);
    event_base_dispatch(base);
    evhttp_connection_free(conn);
}

static void get(struct response *r, const char *path)
{
    call(r, EVHTTP_REQ_GET, path, NULL, 0, NULL, NULL);
}

static void post(struct response *r, const char *path, const char *body)
{
    call(r, EVHTTP_REQ_POST, path, body, strlen(body), NULL, NULL);
}

static void response_free(struct response *r)
{
    free(r->body);
    json_decref(r->json);
}

static const char *jstr(const struct response *r, const char *key)
{
    return json_string_value(json_object_get(r->json, key));
}

static long long jint(const struct response *r, const char *key)
{
    return json_integer_value(json_object_get(r->json, key));
}

/* An error answer: the status, success false, code = status, and the
 * error text containing `want`. */
static void check_error(const struct response *r, int status,
                        const char *want)
{
    CHECK_EQ_INT(r->status, status);
    CHECK(r->json != NULL);
    CHECK(json_is_false(json_object_get(r->json, "success")));
    CHECK_EQ_INT(jint(r, "code"), status);
    const char *e = jstr(r, "error");
    CHECK(e != NULL && strstr(e, want) != NULL);
    if (e == NULL || strstr(e, want) == NULL)
        fprintf(stderr, "  error was: %s (wanted %s)\n", e ? e : r->body,
                want);
}

/* A chain whose mempool holds max_txs (0: the default). */
static void setup_pool(size_t max_txs)
{
    fx_setup(&fx);
    struct zbc_err err = {{0}};
    struct zbc_chain_config cfg = {.ledger_dir = fx.ledger,
                                   .genesis = &fx.g,
                                   .key = &fx.key,
                                   .mempool_max_txs = max_txs};
    if (!zbc_chain_open(&chain, &cfg, &err)) {
        fprintf(stderr, "chain open: %s\n", err.msg);
        exit(2);
    }
    base = event_base_new();
    clock_ms = FX_GENESIS_TIME + FX_BLOCK_TIME;
    struct zbc_api_config acfg = {.host = "127.0.0.1",
                                  .port = 0,
                                  .admin_token = token,
                                  .version = "zbcd/test",
                                  .now_ms = test_clock,
                                  .on_stop = on_stop};
    if (!zbc_api_start(&api, base, chain, &acfg, &err)) {
        fprintf(stderr, "api start: %s\n", err.msg);
        exit(2);
    }
    port = zbc_api_port(api);
}

static void setup(void)
{
    setup_pool(0);
}

static void teardown(void)
{
    zbc_api_stop(api);
    event_base_free(base);
    zbc_chain_close(chain);
    fx_teardown(&fx);
}

static void hex_of(char *out, const uint8_t *p, size_t n)
{
    zbc_hex_encode(out, p, n);
}

/* ---- cases (run in order: they share one chain) ---- */

static void test_node_info(void)
{
    struct response r;
    get(&r, "/api/v1/node/info");
    CHECK_EQ_INT(r.status, 200);
    char want[65];
    hex_of(want, fx.g.hash, 32);
    for (char *p = want; *p; p++)
        if (*p >= 'a' && *p <= 'f')
            *p = (char)(*p - 'a' + 'A');
    CHECK_EQ_STR(jstr(&r, "genesis_hash"), want);
    CHECK_EQ_INT(jint(&r, "signing_version"), 2);
    CHECK_EQ_STR(jstr(&r, "signing_tag"), "ZBC-TX");
    CHECK_EQ_STR(jstr(&r, "chain_name"), "node-test");
    CHECK_EQ_INT(jint(&r, "height"), 0);
    CHECK_EQ_INT(jint(&r, "blockchain_height"), 0);
    CHECK_EQ_INT(jint(&r, "block_time_ms"), FX_BLOCK_TIME);
    CHECK_EQ_INT(jint(&r, "min_fee_base"), FX_FEE_BASE);
    CHECK_EQ_INT(jint(&r, "min_fee_per_byte"), FX_FEE_PER_BYTE);
    char pk[65];
    hex_of(pk, fx.key.pk, 32);
    CHECK_EQ_STR(jstr(&r, "node_id"), pk);
    CHECK(json_is_true(json_object_get(r.json, "is_validator")));
    response_free(&r);
}

static void test_genesis_block_view(void)
{
    struct response r;
    char want[65];
    hex_of(want, fx.g.hash, 32);
    get(&r, "/api/v1/blocks/latest");
    CHECK_EQ_INT(r.status, 200);
    CHECK_EQ_INT(jint(&r, "height"), 0);
    CHECK_EQ_STR(jstr(&r, "block_hash"), want);
    response_free(&r);
    get(&r, "/api/v1/blocks/0");
    CHECK_EQ_INT(r.status, 200);
    CHECK_EQ_STR(jstr(&r, "hash"), want);
    response_free(&r);
}

static uint8_t tx1[512];
static size_t tx1_len;
static char tx1_hash[65];

static void test_submit_payload(void)
{
    tx1_len = fx_send(tx1, sizeof tx1, &fx, fx.alice_seed, &fx.bob, 4242, FEE,
                      (int64_t)(clock_ms / 1000));
    /* expected hash computed here, independently of the node */
    uint8_t h[32];
    zbc_sha3_256(h, tx1, tx1_len);
    hex_of(tx1_hash, h, 32);

    struct zbc_tx tx;
    struct zbc_err err = {{0}};
    CHECK(zbc_tx_parse(&tx, tx1, tx1_len, &err));
    json_t *payload = NULL;
    CHECK(zbc_tx_payload_build(&payload, &tx, &err));
    char *body = json_dumps(payload, JSON_COMPACT);
    json_decref(payload);

    struct response r;
    post(&r, "/api/v1/transactions", body);
    CHECK_EQ_INT(r.status, 202);
    CHECK_EQ_STR(jstr(&r, "status"), "success");
    CHECK(json_is_false(json_object_get(r.json, "duplicate")));
    CHECK_EQ_STR(jstr(&r, "message"), "Transaction submitted successfully");
    CHECK_EQ_STR(jstr(&r, "transaction_hash"), tx1_hash);
    response_free(&r);

    post(&r, "/api/v1/transactions", body);
    CHECK_EQ_INT(r.status, 202);
    CHECK(json_is_true(json_object_get(r.json, "duplicate")));
    CHECK_EQ_STR(jstr(&r, "transaction_hash"), tx1_hash);
    response_free(&r);
    free(body);
}

static char tx2_hash[65];

static void test_submit_bytes(void)
{
    uint8_t tx[512];
    size_t n = fx_send(tx, sizeof tx, &fx, fx.alice_seed, &fx.bob, 1, FEE,
                       (int64_t)(clock_ms / 1000) - 1);
    char hex[1100];
    hex_of(hex, tx, n);
    uint8_t h[32];
    zbc_sha3_256(h, tx, n);
    hex_of(tx2_hash, h, 32);
    char body[1200];
    snprintf(body, sizeof body, "{\"transaction_bytes\":\"%s\"}", hex);
    struct response r;
    post(&r, "/api/v1/transactions", body);
    CHECK_EQ_INT(r.status, 202);
    CHECK_EQ_STR(jstr(&r, "transaction_hash"), tx2_hash);
    response_free(&r);
}

static void test_submit_rejections(void)
{
    struct response r;
    uint8_t tx[512];
    char hex[1100], body[1200];
    int64_t ts = (int64_t)(clock_ms / 1000);

    size_t n = fx_send(tx, sizeof tx, &fx, fx.bob_seed, &fx.alice, 999999,
                       FEE, ts);
    hex_of(hex, tx, n);
    snprintf(body, sizeof body, "{\"transaction_bytes\":\"%s\"}", hex);
    post(&r, "/api/v1/transactions", body);
    check_error(&r, 400, "insufficient balance");
    response_free(&r);

    n = fx_send(tx, sizeof tx, &fx, fx.alice_seed, &fx.bob, 1, 5, ts);
    hex_of(hex, tx, n);
    snprintf(body, sizeof body, "{\"transaction_bytes\":\"%s\"}", hex);
    post(&r, "/api/v1/transactions", body);
    check_error(&r, 400, "fee too low");
    response_free(&r);

    post(&r, "/api/v1/transactions", "{\"version\": 1,");
    check_error(&r, 400, "malformed JSON");
    response_free(&r);
    /* an array is a batch (docs/api.md §3): one answer per element */
    post(&r, "/api/v1/transactions", "[1,2]");
    CHECK_EQ_INT(r.status, 200);
    CHECK(json_is_array(r.json) && json_array_size(r.json) == 2);
    const json_t *second = json_array_get(r.json, 1);
    CHECK_EQ_INT(json_integer_value(json_object_get(second, "code")), 400);
    const char *why = json_string_value(json_object_get(second, "error"));
    CHECK(why != NULL && strstr(why, "must be a JSON object") != NULL);
    response_free(&r);
    post(&r, "/api/v1/transactions", "{\"transaction_bytes\":\"0g\"}");
    check_error(&r, 400, "not valid hex");
    response_free(&r);
    post(&r, "/api/v1/transactions", "{\"transaction_bytes\":\"00\"}");
    check_error(&r, 400, "transaction_bytes");
    response_free(&r);
    post(&r, "/api/v1/transactions",
         "{\"transaction_bytes\":\"00\",\"transaction_bytes\":\"00\"}");
    check_error(&r, 400, "malformed JSON");
    response_free(&r);
    post(&r, "/api/v1/transactions", "{\"transaction_bytes\":\"00\",\"x\":1}");
    check_error(&r, 400, "no other field");
    response_free(&r);
    post(&r, "/api/v1/transactions", "{\"version\":1}");
    CHECK_EQ_INT(r.status, 400);
    response_free(&r);
    call(&r, EVHTTP_REQ_POST, "/api/v1/transactions", "", 0, NULL, NULL);
    check_error(&r, 400, "body is empty");
    response_free(&r);

    /* a body over the limit is refused by the HTTP layer */
    size_t big = ZBC_API_MAX_BODY + 1024;
    char *huge = malloc(big);
    memset(huge, ' ', big);
    call(&r, EVHTTP_REQ_POST, "/api/v1/transactions", huge, big, NULL, NULL);
    CHECK_EQ_INT(r.status, 413);
    response_free(&r);
    free(huge);
    CHECK_EQ_INT(zbc_chain_mempool_count(chain), 2);
}

static void test_routes_and_methods(void)
{
    struct response r;
    get(&r, "/api/v1/nothing/here");
    check_error(&r, 404, "unknown endpoint: GET /api/v1/nothing/here");
    response_free(&r);
    get(&r, "/");
    check_error(&r, 404, "unknown endpoint");
    response_free(&r);
    get(&r, "/api/v1//node");
    check_error(&r, 404, "unknown endpoint");
    response_free(&r);
    call(&r, EVHTTP_REQ_DELETE, "/api/v1/node/info", NULL, 0, NULL, NULL);
    check_error(&r, 405, "method DELETE is not allowed");
    CHECK_EQ_STR(r.allow, "GET");
    response_free(&r);
    get(&r, "/api/v1/transactions");
    check_error(&r, 405, "use POST");
    response_free(&r);
    post(&r, "/api/v1/blocks/latest", "{}");
    check_error(&r, 405, "use GET");
    response_free(&r);
    /* a trailing slash is the same route */
    get(&r, "/api/v1/node/info/");
    CHECK_EQ_INT(r.status, 200);
    response_free(&r);
}

static void test_tx_queries_mempool(void)
{
    struct response r;
    char path[200];
    snprintf(path, sizeof path, "/api/v1/transactions/%s", tx1_hash);
    get(&r, path);
    CHECK_EQ_INT(r.status, 200);
    CHECK_EQ_STR(jstr(&r, "status"), "mempool");
    CHECK_EQ_STR(jstr(&r, "transaction_hash"), tx1_hash);
    CHECK_EQ_INT(jint(&r, "amount"), 4242);
    CHECK_EQ_INT(jint(&r, "transaction_type"), 1);
    CHECK(json_object_get(r.json, "block_height") == NULL);
    response_free(&r);

    snprintf(path, sizeof path, "/api/v1/transactions/%s/status", tx1_hash);
    get(&r, path);
    CHECK_EQ_INT(r.status, 200);
    CHECK_EQ_STR(jstr(&r, "status"), "mempool");
    CHECK_EQ_INT(jint(&r, "mempool_size"), 2);
    response_free(&r);

    get(&r, "/api/v1/transactions/"
            "0000000000000000000000000000000000000000000000000000000000000000");
    check_error(&r, 404, "Transaction not found");
    response_free(&r);
    get(&r, "/api/v1/transactions/"
            "0000000000000000000000000000000000000000000000000000000000000000"
            "/status");
    CHECK_EQ_INT(r.status, 404);
    CHECK_EQ_STR(jstr(&r, "status"), "not_found");
    response_free(&r);
    get(&r, "/api/v1/transactions/xyz");
    check_error(&r, 400, "64 hex characters");
    response_free(&r);
}

static void test_after_block(void)
{
    struct zbc_block_info info;
    struct zbc_err err = {{0}};
    CHECK(zbc_chain_produce(chain, clock_ms, &info, &err));
    CHECK_EQ_INT(info.n_tx, 2);

    struct response r;
    char path[200];
    snprintf(path, sizeof path, "/api/v1/transactions/%s", tx1_hash);
    get(&r, path);
    CHECK_EQ_INT(r.status, 200);
    CHECK_EQ_STR(jstr(&r, "status"), "confirmed");
    CHECK_EQ_INT(jint(&r, "block_height"), 1);
    CHECK(json_integer_value(json_object_get(r.json, "transaction_index")) <=
          1);
    CHECK_EQ_INT(jint(&r, "amount"), 4242);
    response_free(&r);
    snprintf(path, sizeof path, "/api/v1/transactions/%s/status", tx2_hash);
    get(&r, path);
    CHECK_EQ_STR(jstr(&r, "status"), "confirmed");
    CHECK_EQ_INT(jint(&r, "block_height"), 1);
    response_free(&r);

    get(&r, "/api/v1/blocks/latest");
    CHECK_EQ_INT(r.status, 200);
    CHECK_EQ_INT(jint(&r, "height"), 1);
    CHECK_EQ_INT(jint(&r, "tx_count"), 2);
    char bh[65];
    hex_of(bh, info.hash, 32);
    CHECK_EQ_STR(jstr(&r, "block_hash"), bh);
    json_t *txs = json_object_get(r.json, "transactions");
    CHECK_EQ_INT(json_array_size(txs), 2);
    bool listed = false;
    for (size_t i = 0; i < json_array_size(txs); i++)
        listed |= strcmp(json_string_value(json_array_get(txs, i)),
                         tx1_hash) == 0;
    CHECK(listed);
    CHECK(json_array_size(json_object_get(r.json, "events")) >= 2);
    response_free(&r);
    get(&r, "/api/v1/blocks/1");
    CHECK_EQ_INT(r.status, 200);
    CHECK_EQ_STR(jstr(&r, "hash"), bh);
    response_free(&r);
    /* without events: the same header and hashes, no "events" key */
    get(&r, "/api/v1/blocks/1?events=false");
    CHECK_EQ_INT(r.status, 200);
    CHECK_EQ_STR(jstr(&r, "hash"), bh);
    CHECK_EQ_INT(jint(&r, "tx_count"), 2);
    CHECK_EQ_INT(json_array_size(json_object_get(r.json, "transactions")), 2);
    CHECK(json_object_get(r.json, "events") == NULL);
    response_free(&r);
    get(&r, "/api/v1/blocks/latest?events=true");
    CHECK(json_array_size(json_object_get(r.json, "events")) >= 2);
    response_free(&r);
    get(&r, "/api/v1/blocks/0?events=false");
    CHECK_EQ_INT(r.status, 200);
    CHECK(json_object_get(r.json, "events") == NULL);
    CHECK(json_object_get(r.json, "transactions") != NULL);
    response_free(&r);
    get(&r, "/api/v1/blocks/1?events=no");
    check_error(&r, 400, "events must be true or false");
    response_free(&r);
    get(&r, "/api/v1/blocks/1?events=");
    check_error(&r, 400, "events must be true or false");
    response_free(&r);
    get(&r, "/api/v1/blocks/2");
    check_error(&r, 404, "Block not found");
    response_free(&r);
    get(&r, "/api/v1/blocks/-1");
    check_error(&r, 400, "decimal number");
    response_free(&r);
    get(&r, "/api/v1/blocks/99999999999");
    check_error(&r, 400, "decimal number");
    response_free(&r);
}

static void test_accounts(void)
{
    struct response r;
    char text[ZBC_ADDR_TEXT_MAX], path[200];
    zbc_addr_to_text(text, &fx.bob);
    snprintf(path, sizeof path, "/api/v1/accounts/%s", text);
    get(&r, path);
    CHECK_EQ_INT(r.status, 200);
    CHECK_EQ_STR(jstr(&r, "address"), text);
    CHECK_EQ_INT(jint(&r, "balance"), 1000 + 4242 + 1);
    CHECK_EQ_INT(jint(&r, "spendable_balance"), 1000 + 4242 + 1);
    response_free(&r);

    /* the bare 64-hex key names the same account */
    char hex[65];
    hex_of(hex, fx.bob.payload, 32);
    snprintf(path, sizeof path, "/api/v1/accounts/%s", hex);
    get(&r, path);
    CHECK_EQ_INT(r.status, 200);
    CHECK_EQ_STR(jstr(&r, "address"), text);
    response_free(&r);

    get(&r, "/api/v1/accounts/0x52908400098527886E0F7030069857D2E4169EE7");
    check_error(&r, 404, "Account not found");
    response_free(&r);
    get(&r, "/api/v1/accounts/ZBC_NOPE");
    check_error(&r, 400, "invalid account address");
    response_free(&r);
}

static void test_admin_stop(void)
{
    struct response r;
    call(&r, EVHTTP_REQ_POST, "/api/v1/admin/stop", "{}", 2, NULL, NULL);
    check_error(&r, 403, "api.token");
    response_free(&r);
    call(&r, EVHTTP_REQ_POST, "/api/v1/admin/stop", "{}", 2, "X-ZBC-Token",
         "0000000000000000000000000000000000000000000000000000000000000000");
    check_error(&r, 403, "api.token");
    response_free(&r);
    CHECK_EQ_INT(stop_calls, 0);
    call(&r, EVHTTP_REQ_POST, "/api/v1/admin/reboot", "{}", 2, "X-ZBC-Token",
         token);
    check_error(&r, 404, "unknown endpoint");
    response_free(&r);
    char bearer[80];
    snprintf(bearer, sizeof bearer, "Bearer %s", token);
    call(&r, EVHTTP_REQ_POST, "/api/v1/admin/stop", "{}", 2, "Authorization",
         bearer);
    CHECK_EQ_INT(r.status, 200);
    CHECK_EQ_INT(stop_calls, 1);
    response_free(&r);
}

/* ---- raw connections (what libevent's client would not send) ---- */

static long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A non-blocking TCP connection to 127.0.0.1:p; -1 when socket() fails. */
static int raw_connect(uint16_t p)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(p)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0 &&
        errno != EINPROGRESS) {
        close(fd);
        return -1;
    }
    return fd;
}

struct raw {
    int fd;
    char buf[16384];
    size_t len;
    bool closed; /* the server closed (EOF or reset) */
};

/* Runs the server's loop for ms, collecting what each connection gets. */
static void pump(struct raw *rs, int n, long ms)
{
    long end = now_ms() + ms;
    while (now_ms() < end) {
        event_base_loop(base, EVLOOP_NONBLOCK);
        for (int i = 0; i < n; i++) {
            struct raw *r = &rs[i];
            if (r->fd < 0 || r->closed || r->len == sizeof r->buf - 1)
                continue;
            for (;;) {
                ssize_t got = recv(r->fd, r->buf + r->len,
                                   sizeof r->buf - 1 - r->len, MSG_DONTWAIT);
                if (got > 0) {
                    r->len += (size_t)got;
                    r->buf[r->len] = '\0';
                    if (r->len == sizeof r->buf - 1)
                        break;
                    continue;
                }
                if (got == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
                    r->closed = true;
                break;
            }
        }
        poll(NULL, 0, 2);
    }
}

static void raw_send(struct raw *r, const char *text)
{
    /* a few bytes on a fresh loopback connection: never a short write */
    CHECK(send(r->fd, text, strlen(text), MSG_NOSIGNAL) ==
          (ssize_t)strlen(text));
}

static void raw_close(struct raw *rs, int n)
{
    for (int i = 0; i < n; i++) {
        if (rs[i].fd >= 0)
            close(rs[i].fd);
        rs[i].fd = -1;
    }
}

/* CONNECT, TRACE and unknown methods are not for this API: a JSON 405,
 * then the server closes the connection (a CONNECT one used to stay
 * open). */
static void test_connect_closes(void)
{
    const char *reqs[] = {
        "CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n",
        "TRACE /api/v1/node/info HTTP/1.1\r\nHost: x\r\n\r\n",
    };
    for (size_t i = 0; i < 2; i++) {
        struct raw r = {.fd = raw_connect(port)};
        CHECK(r.fd >= 0);
        pump(&r, 1, 50);
        raw_send(&r, reqs[i]);
        pump(&r, 1, 1000);
        CHECK(r.closed);
        CHECK(strncmp(r.buf, "HTTP/1.1 405", 12) == 0);
        CHECK(strstr(r.buf, "\"success\":false") != NULL);
        CHECK(strstr(r.buf, "is not supported by this API") != NULL);
        if (!r.closed || strstr(r.buf, "not supported") == NULL)
            fprintf(stderr, "  got: %s\n", r.buf);
        raw_close(&r, 1);
    }
    /* a method libevent does not know: the same */
    struct raw r = {.fd = raw_connect(port)};
    pump(&r, 1, 50);
    raw_send(&r, "BREW /api/v1/node/info HTTP/1.1\r\nHost: x\r\n\r\n");
    pump(&r, 1, 1000);
    CHECK(r.closed);
    CHECK(strncmp(r.buf, "HTTP/1.1 405", 12) == 0);
    CHECK(strstr(r.buf, "the request's method is not supported by this API")
          != NULL);
    raw_close(&r, 1);
}

/* A second server on the same chain with small limits. */
static struct zbc_api *small_api(unsigned max_conns, unsigned timeout_s)
{
    struct zbc_api *a = NULL;
    struct zbc_err err = {{0}};
    struct zbc_api_config acfg = {.host = "127.0.0.1",
                                  .version = "zbcd/test",
                                  .now_ms = test_clock,
                                  .max_connections = max_conns,
                                  .request_timeout_s = timeout_s};
    CHECK(zbc_api_start(&a, base, chain, &acfg, &err));
    return a;
}

/* At the connection limit the server stops accepting (the kernel holds
 * further connections in its backlog, costing the node no descriptor);
 * connections that never send a request are closed at the deadline, and
 * the waiting connection is then served. */
static void test_connection_limit(void)
{
    struct zbc_api *a = small_api(3, 1);
    uint16_t p = zbc_api_port(a);
    struct raw rs[4];
    memset(rs, 0, sizeof rs);
    for (int i = 0; i < 3; i++)
        rs[i].fd = raw_connect(p);
    pump(rs, 3, 200);
    CHECK_EQ_INT((int)zbc_api_connections(a), 3);
    CHECK(!zbc_api_accepting(a));
    rs[3].fd = raw_connect(p);
    raw_send(&rs[3], "GET /api/v1/node/info HTTP/1.1\r\nHost: x\r\n\r\n");
    pump(rs, 4, 400);
    CHECK_EQ_INT((int)rs[3].len, 0); /* waits in the backlog */
    CHECK_EQ_INT((int)zbc_api_connections(a), 3);
    /* the idle three reach their 1 s deadline; the fourth is served */
    pump(rs, 4, 1500);
    CHECK(rs[0].closed && rs[1].closed && rs[2].closed);
    CHECK(strncmp(rs[3].buf, "HTTP/1.1 200", 12) == 0);
    CHECK(zbc_api_accepting(a));
    raw_close(rs, 4);
    pump(rs, 0, 100);
    CHECK_EQ_INT((int)zbc_api_connections(a), 0);
    zbc_api_stop(a);
}

/* Slowloris: a byte every 250 ms keeps evhttp's per-read timeout from
 * firing, but the whole request must arrive within the deadline (1 s
 * here): the connection is closed at about 1 s, not kept open. */
static void test_slow_request_deadline(void)
{
    struct zbc_api *a = small_api(0, 1);
    struct raw r = {.fd = raw_connect(zbc_api_port(a))};
    const char *text = "GET /api/v1/node/info HTTP/1.1\r\nHost: x\r\n"
                       "X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    long start = now_ms();
    char one[2] = {0, 0};
    for (size_t i = 0; text[i] != '\0' && !r.closed; i++) {
        one[0] = text[i];
        if (send(r.fd, one, 1, MSG_NOSIGNAL) != 1)
            break;
        pump(&r, 1, 250);
    }
    pump(&r, 1, 100);
    long took = now_ms() - start;
    CHECK(r.closed);
    CHECK(took >= 900 && took < 2000);
    if (took < 900 || took >= 2000)
        fprintf(stderr, "  closed after %ld ms\n", took);
    CHECK_EQ_INT((int)r.len, 0); /* no answer to half a request */
    raw_close(&r, 1);
    /* a prompt client on a kept-alive connection is served twice */
    r = (struct raw){.fd = raw_connect(zbc_api_port(a))};
    raw_send(&r, "GET /api/v1/node/info HTTP/1.1\r\nHost: x\r\n\r\n");
    pump(&r, 1, 300);
    raw_send(&r, "GET /api/v1/blocks/latest HTTP/1.1\r\nHost: x\r\n\r\n");
    pump(&r, 1, 300);
    CHECK(!r.closed);
    if (r.closed)
        fprintf(stderr, "  got: %s\n", r.buf);
    CHECK(strstr(r.buf, "HTTP/1.1 200") != NULL &&
          strstr(strstr(r.buf, "HTTP/1.1 200") + 1, "HTTP/1.1 200") != NULL);
    raw_close(&r, 1);
    pump(&r, 0, 50);
    zbc_api_stop(a);
}

/* accept() failing (here: out of file descriptors, by a lowered
 * RLIMIT_NOFILE) pauses accepting instead of spinning, with one log line;
 * accepting resumes by itself once descriptors are free again. */
static void test_accept_backoff(void)
{
    char logpath[] = "/tmp/zbc_test_api_log_XXXXXX";
    int lfd = mkstemp(logpath);
    CHECK(lfd >= 0);
    close(lfd);
    struct zbc_err err = {{0}};
    CHECK(zbc_log_open_file(logpath, &err));
    struct zbc_api *a = small_api(0, 5);
    uint16_t p = zbc_api_port(a);
    struct rlimit old;
    CHECK(getrlimit(RLIMIT_NOFILE, &old) == 0);
    int lowest = dup(0);
    CHECK(lowest >= 0);
    close(lowest);
    struct rlimit low = {(rlim_t)lowest + 2, old.rlim_max};
    CHECK(setrlimit(RLIMIT_NOFILE, &low) == 0);
    struct raw rs[2];
    memset(rs, 0, sizeof rs);
    int n = 0;
    while (n < 2 && (rs[n].fd = raw_connect(p)) >= 0)
        n++;
    CHECK(n >= 1);
    pump(rs, n, 500); /* would spin (and log) without the back-off */
    CHECK(!zbc_api_accepting(a));
    CHECK(setrlimit(RLIMIT_NOFILE, &old) == 0);
    raw_close(rs, n);
    zbc_log_close_file();
    char *text = NULL;
    size_t len = 0;
    CHECK(zbc_read_file(logpath, 1 << 20, &text, &len, &err));
    int lines = 0;
    for (const char *q = text; q != NULL && (q = strstr(q, "cannot accept a "
                                                         "connection: Too "
                                                         "many open files"));
         q++)
        lines++;
    CHECK_EQ_INT(lines, 1);
    free(text);
    unlink(logpath);
    /* the back-off ends; the server answers again */
    pump(rs, 0, 1200);
    CHECK(zbc_api_accepting(a));
    struct raw r = {.fd = raw_connect(p)};
    raw_send(&r, "GET /api/v1/node/info HTTP/1.1\r\nHost: x\r\n"
                 "Connection: close\r\n\r\n");
    pump(&r, 1, 500);
    CHECK(strncmp(r.buf, "HTTP/1.1 200", 12) == 0);
    raw_close(&r, 1);
    pump(&r, 0, 50);
    zbc_api_stop(a);
}

static void test_parse_listen(void)
{
    char host[64];
    uint16_t p = 0;
    struct zbc_err err = {{0}};
    CHECK(zbc_api_parse_listen(host, sizeof host, &p, "127.0.0.1:8080", &err));
    CHECK_EQ_STR(host, "127.0.0.1");
    CHECK_EQ_INT(p, 8080);
    CHECK(zbc_api_parse_listen(host, sizeof host, &p, "[::1]:0", &err));
    CHECK_EQ_STR(host, "::1");
    CHECK_EQ_INT(p, 0);
    CHECK(!zbc_api_parse_listen(host, sizeof host, &p, "8080", &err));
    CHECK(strstr(err.msg, "must be HOST:PORT") != NULL);
    CHECK(!zbc_api_parse_listen(host, sizeof host, &p, "h:65536", &err));
    CHECK(strstr(err.msg, "0 to 65535") != NULL);
    CHECK(!zbc_api_parse_listen(host, sizeof host, &p, "h:8x", &err));
    CHECK(!zbc_api_parse_listen(host, sizeof host, &p, ":80", &err));
    CHECK(!zbc_api_parse_listen(host, 4, &p, "localhost:80", &err));
    CHECK(strstr(err.msg, "too long") != NULL);
}

static void test_bind_conflict(void)
{
    struct zbc_api *a2 = NULL;
    struct zbc_err err = {{0}};
    struct zbc_api_config acfg = {.host = "127.0.0.1", .port = port};
    CHECK(!zbc_api_start(&a2, base, chain, &acfg, &err));
    CHECK(strstr(err.msg, "cannot listen on 127.0.0.1") != NULL);
}

/* A full mempool over the API: 503, the fee that would get in, and that
 * fee getting in (on a chain of its own, a pool of one). */
static void test_mempool_full(void)
{
    teardown();
    setup_pool(1);
    int64_t ts = (int64_t)(clock_ms / 1000);
    uint8_t a[512], b[512], c[512];
    size_t na = fx_send(a, sizeof a, &fx, fx.alice_seed, &fx.bob, 1, FEE, ts);
    size_t nb = fx_send(b, sizeof b, &fx, fx.alice_seed, &fx.bob, 2, FEE, ts);
    size_t nc = fx_send(c, sizeof c, &fx, fx.alice_seed, &fx.bob, 3, FEE + 1,
                        ts);
    CHECK(na == nb && nb == nc);
    char hex[1100], body[1200], want[128];
    struct response r;
    hex_of(hex, a, na);
    snprintf(body, sizeof body, "{\"transaction_bytes\":\"%s\"}", hex);
    post(&r, "/api/v1/transactions", body);
    CHECK_EQ_INT(r.status, 202);
    response_free(&r);
    hex_of(hex, b, nb);
    snprintf(body, sizeof body, "{\"transaction_bytes\":\"%s\"}", hex);
    post(&r, "/api/v1/transactions", body);
    snprintf(want, sizeof want,
             "mempool is full (1 transactions, %zu bytes): a fee of at least "
             "%d for these %zu bytes displaces its cheapest", na, FEE + 1, nb);
    check_error(&r, 503, want);
    response_free(&r);
    hex_of(hex, c, nc);
    snprintf(body, sizeof body, "{\"transaction_bytes\":\"%s\"}", hex);
    post(&r, "/api/v1/transactions", body);
    CHECK_EQ_INT(r.status, 202);
    response_free(&r);
    CHECK_EQ_INT(zbc_chain_mempool_count(chain), 1);
}

int main(void)
{
    zbc_log_to_stderr(false);
    signal(SIGPIPE, SIG_IGN); /* the 413 case: the server closes first */
    setup();
    TEST_RUN(test_node_info);
    TEST_RUN(test_genesis_block_view);
    TEST_RUN(test_submit_payload);
    TEST_RUN(test_submit_bytes);
    TEST_RUN(test_submit_rejections);
    TEST_RUN(test_routes_and_methods);
    TEST_RUN(test_tx_queries_mempool);
    TEST_RUN(test_after_block);
    TEST_RUN(test_accounts);
    TEST_RUN(test_admin_stop);
    TEST_RUN(test_parse_listen);
    TEST_RUN(test_bind_conflict);
    TEST_RUN(test_connect_closes);
    TEST_RUN(test_connection_limit);
    TEST_RUN(test_slow_request_deadline);
    TEST_RUN(test_accept_backoff);
    TEST_RUN(test_mempool_full);
    teardown();
    return test_summary("node_api");
}
