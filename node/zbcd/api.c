#include "node/zbcd/api.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/http.h>
#include <event2/listener.h>
#include <event2/keyvalq_struct.h>
#include <jansson.h>
#include <netinet/in.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>
#include <sys/socket.h>

#include "consensus/seed.h"
#include "consensus/tx.h"
#include "crypto/bytes.h"
#include "crypto/hex.h"
#include "node/zbcd/admit.h"
#include "node/zbcd/chain_apps.h"
#include "node/zbcd/fork.h"
#include "node/zbcd/history.h"
#include "node/zbcd/json_app.h"
#include "node/zbcd/json_util.h"
#include "node/zbcd/log.h"
#include "node/zbcd/producer_loop.h"
#include "node/zbcd/sse.h"
#include "node/zbcd/web.h"

#define API_MAX_SEGMENTS 8
/* Most single submissions admitted together (docs/api.md §3 "Batches"). */
#define API_PEND_MAX 256
#define API_MAX_HEADERS (64 * 1024)

/* One accepted connection (docs/api.md §8).  Created when evhttp asks for
 * the connection's bufferevent, adopted (close callback, deadline) right
 * after evhttp has set it up, freed by the close callback. */
struct conn {
    struct zbc_api *api;
    struct bufferevent *bev;
    struct evhttp_connection *evcon; /* NULL until adopted */
    struct event *deadline;
    char peer[64];
    bool stop_after_reply; /* admin/stop: stop once the answer went out */
    bool close_after_reply; /* CONNECT, TRACE: close once it went out */
    struct conn *next;
};

/* A single submission waiting for the end of the loop's pass. */
struct pend {
    struct evhttp_request *req;
    uint8_t *raw;
    size_t len;
    struct pend *next;
};

struct zbc_api {
    struct evhttp *http;
    struct evconnlistener *listener;
    struct zbc_chain *chain;
    struct zbc_api_config cfg;
    char token[ZBC_API_TOKEN_HEX + 1];
    bool has_token;
    char version[64];
    uint16_t port;
    struct zbc_sse *sse;
    struct conn *conns;
    size_t n_conns;
    struct event *adopt;   /* activated when a connection was accepted */
    struct event *backoff; /* ends an accept back-off */
    bool backing_off;
    bool listening;        /* the listener is enabled */
    struct zbc_log_limit log_cap, log_accept, log_deadline, log_refused;
    struct event *flush;   /* admits the waiting single submissions */
    struct pend *pend_head, **pend_tail;
    size_t n_pend;
    struct zbc_api *next_api;
};

/* Running servers, to find the server of a listener in its error callback
 * (evhttp makes the listener's argument its own struct evhttp). */
static struct zbc_api *all_apis;

/* One request being answered. */
struct call {
    struct zbc_api *api;
    struct evhttp_request *req;
    const char *method;
    const char *path;
    char *seg[API_MAX_SEGMENTS]; /* decoded path segments after /api/v1 */
    int nseg;
    struct evkeyvalq query;      /* decoded query string */
    struct conn *conn;           /* NULL: not tracked (out of memory) */
    bool streaming;              /* the request became an event stream */
};

/* ---- replies ---- */

static void reply(struct call *c, int status, json_t *body)
{
    struct evbuffer *buf = evbuffer_new();
    char *text = body != NULL ? json_dumps(body, JSON_COMPACT) : NULL;
    json_decref(body);
    if (buf == NULL || text == NULL) {
        free(text);
        if (buf != NULL)
            evbuffer_free(buf);
        zbc_log_ratelimited("api:oom", ZBC_LOG_PERIOD_MS, ZBC_LOG_ERROR,
                            "api: out of memory answering %s %s", c->method,
                            c->path);
        evhttp_send_error(c->req, 500, "out of memory");
        return;
    }
    struct evkeyvalq *h = evhttp_request_get_output_headers(c->req);
    evhttp_add_header(h, "Content-Type", "application/json");
    evhttp_add_header(h, "Cache-Control", "no-store");
    evbuffer_add(buf, text, strlen(text));
    evbuffer_add(buf, "\n", 1);
    free(text);
    evhttp_send_reply(c->req, status, NULL, buf);
    evbuffer_free(buf);
}

static void reply_error(struct call *c, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void reply_error(struct call *c, int status, const char *fmt, ...)
{
    char msg[ZBC_ERR_MAX + 128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (status >= 500)
        zbc_log_ratelimited("api:5xx", ZBC_LOG_PERIOD_MS, ZBC_LOG_ERROR,
                            "api: %s %s -> %d: %s", c->method, c->path,
                            status, msg);
    else
        zbc_log_ratelimited("api:4xx", ZBC_LOG_CLIENT_PERIOD_MS,
                            ZBC_LOG_INFO, "api: %s %s -> %d: %s", c->method,
                            c->path, status, msg);
    json_t *o = json_pack("{s:b, s:s, s:i}", "success", 0, "error", msg,
                          "code", status);
    reply(c, status, o);
}

/* A refusal that an outsider can repeat at will (too many streams): the
 * answer carries the reason, the log gets one INFO line per period. */
static void reply_refused(struct call *c, int status, const char *msg)
{
    zbc_log_limited(&c->api->log_refused, ZBC_LOG_PERIOD_MS, ZBC_LOG_INFO,
                    "api: %s %s from %s -> %d: %s", c->method, c->path,
                    c->conn != NULL ? c->conn->peer : "?", status, msg);
    reply(c, status, json_pack("{s:b, s:s, s:i}", "success", 0, "error", msg,
                               "code", status));
}

static void reply_built(struct call *c, int status, json_t *o, int ok,
                        const struct zbc_err *err)
{
    if (!ok) {
        json_decref(o);
        reply_error(c, 500, "cannot build the answer: %s", err->msg);
        return;
    }
    reply(c, status, o);
}

/* ---- request parsing ---- */

/* Decimal digits only, at most 20 of them, no overflow.  Leading zeros are
 * accepted (as this API always did), so they are skipped before the strict
 * codec parser, which refuses them. */
static int parse_u64(uint64_t *out, const char *text)
{
    size_t n = strlen(text);
    if (n == 0 || n > 20)
        return 0;
    size_t z = 0;
    while (z + 1 < n && text[z] == '0')
        z++;
    struct zbc_err err = {{0}};
    return zbc_parse_u64n(text + z, n - z, 0, UINT64_MAX, out, "number", &err);
}

static int parse_hash(uint8_t out[32], const char *text)
{
    return strlen(text) == 64 && zbc_hex_decode_exact(out, 32, text);
}

/* Decimal digits only, up to 10 of them (leading zeros allowed, as
 * before), value at most UINT32_MAX. */
static int parse_height(uint32_t *out, const char *text)
{
    uint64_t v;
    if (!parse_u64(&v, text) || strlen(text) > 10 || v > UINT32_MAX)
        return 0;
    *out = (uint32_t)v;
    return 1;
}

/* "<height>-<n>": a next_cursor of the app list or the account history;
 * 0 when it is not one. */
static int parse_cursor(const char *v, uint32_t *height, uint64_t *n)
{
    const char *dash = strchr(v, '-');
    char h[16];
    size_t hl = dash != NULL ? (size_t)(dash - v) : 0;
    if (dash == NULL || hl == 0 || hl >= sizeof h)
        return 0;
    memcpy(h, v, hl);
    h[hl] = '\0';
    return parse_height(height, h) && parse_u64(n, dash + 1);
}

/* Parses an account address in any text form; replies 400 and returns 0
 * when it is not one. */
static int address_arg(struct call *c, const char *text, struct zbc_addr *a)
{
    struct zbc_err err = {{0}};
    if (zbc_addr_parse_text(a, text, &err))
        return 1;
    reply_error(c, 400, "invalid account address: %s", err.msg);
    return 0;
}

static const char *method_name(enum evhttp_cmd_type m)
{
    switch (m) {
    case EVHTTP_REQ_GET:
        return "GET";
    case EVHTTP_REQ_POST:
        return "POST";
    case EVHTTP_REQ_HEAD:
        return "HEAD";
    case EVHTTP_REQ_PUT:
        return "PUT";
    case EVHTTP_REQ_DELETE:
        return "DELETE";
    case EVHTTP_REQ_OPTIONS:
        return "OPTIONS";
    case EVHTTP_REQ_TRACE:
        return "TRACE";
    case EVHTTP_REQ_CONNECT:
        return "CONNECT";
    case EVHTTP_REQ_PATCH:
        return "PATCH";
    }
    return "?";
}

static bool wrong_method(struct call *c, const char *want)
{
    if (strcmp(c->method, want) == 0)
        return false;
    evhttp_add_header(evhttp_request_get_output_headers(c->req), "Allow",
                      want);
    reply_error(c, 405, "method %s is not allowed on %s; use %s", c->method,
                c->path, want);
    return true;
}

/* ---- endpoints ---- */

static uint64_t api_now(const struct zbc_api *a)
{
    return a->cfg.now_ms != NULL ? a->cfg.now_ms() : zbc_wall_clock_ms();
}


/* node/info "forks": the branch switches since start (docs/api.md). */
static json_t *forks_json(const struct zbc_chain *c)
{
    struct zbc_fork_stats st;
    zbc_fork_stats(c, &st);
    json_t *o = json_object();
    if (o != NULL &&
        (json_object_set_new(o, "branch_switches", zbc_json_u64(st.branch_switches)) != 0 ||
         json_object_set_new(o, "blocks_undone", zbc_json_u64(st.blocks_undone)) != 0 ||
         json_object_set_new(o, "deepest_switch", json_integer(st.deepest_switch)) != 0)) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static int info_fields(json_t *o, struct zbc_api *a, struct zbc_err *err)
{
    const struct zbc_genesis *g = zbc_chain_genesis(a->chain);
    const struct zbc_parent *tip = zbc_chain_tip(a->chain);
    struct zbc_slot slot;
    uint8_t root[32];
    char znk[ZBC_ADDR_TEXT_MAX], fund[ZBC_ADDR_TEXT_MAX];
    struct zbc_net_status net;
    (void)zbc_chain_synced(a->chain, &net);
    if (!zbc_chain_next_slot(a->chain, &slot, err))
        return 0;
    zbc_chain_tip_state_root(a->chain, root);
    zbc_addr_to_text(fund, &g->fund_account);
    /* not synced while a peer is ahead or the ledger cannot store blocks
     * (docs/api.md "node/info") */
    const char *store_fail = zbc_store_write_failure(zbc_chain_store(a->chain));
    bool synced = net.synced && store_fail == NULL;
    char reason[ZBC_ERR_MAX + 64];
    if (store_fail != NULL)
        snprintf(reason, sizeof reason, "the ledger cannot store blocks: %s",
                 store_fail);
    else
        snprintf(reason, sizeof reason, "%s", net.synced ? "" : net.reason);
    json_t *validators = json_array();
    if (!zbc_json_set(o, "validators", validators, err))
        return 0;
    for (uint32_t i = 0; i < g->n_validators; i++) {
        if (json_array_append_new(validators,
                                  zbc_json_hex(g->validators[i], 32)) != 0)
            return zbc_fail(err, "out of memory listing validators");
    }
    int ok =
        zbc_json_set(o, "version", json_string(a->version), err) &&
        zbc_json_set(o, "height", json_integer(tip->height), err) &&
        zbc_json_set(o, "blockchain_height", json_integer(tip->height), err) &&
        zbc_json_set(o, "finalized_height",
                     json_integer(zbc_chain_final_height(a->chain)), err) &&
        zbc_json_set(o, "peer_count",
                     json_integer(zbc_chain_peer_count(a->chain)), err) &&
        zbc_json_set(o, "synced", json_boolean(synced), err) &&
        zbc_json_set(o, "sync_reason", json_string(reason), err) &&
        zbc_json_set(o, "syncing", json_boolean(!synced), err) &&
        zbc_json_set(o, "p2pAddress", json_string(""), err) &&
        zbc_json_set(o, "archival_node", json_true(), err) &&
        zbc_json_set(o, "public_api_url", json_string(""), err) &&
        zbc_json_set(o, "wedge_reason", json_string(""), err) &&
        zbc_json_set(o, "genesis_hash", zbc_json_hex_upper(g->hash, 32),
                     err) &&
        zbc_json_set(o, "signing_version", json_integer(2), err) &&
        zbc_json_set(o, "signing_tag", json_string(ZBC_TX_SIGNING_TAG), err) &&
        zbc_json_set(o, "chain_name", json_string(g->chain_name), err) &&
        zbc_json_set(o, "genesis_time", zbc_json_u64(g->genesis_time_ms),
                     err) &&
        zbc_json_set(o, "block_time_ms", json_integer(g->block_time_ms),
                     err) &&
        zbc_json_set(o, "smith_delay_ms", json_integer(g->smith_delay_ms),
                     err) &&
        zbc_json_set(o, "min_fee_base", zbc_json_u64(g->min_fee_base), err) &&
        zbc_json_set(o, "min_fee_per_byte", zbc_json_u64(g->min_fee_per_byte),
                     err) &&
        zbc_json_set(o, "move_deadline", json_integer(g->move_deadline),
                     err) &&
        zbc_json_set(o, "rake_bps", json_integer(g->rake_bps), err) &&
        zbc_json_set(o, "open_deadline", json_integer(g->open_deadline),
                     err) &&
        zbc_json_set(o, "max_block_bytes", json_integer(g->max_block_bytes),
                     err) &&
        zbc_json_set(o, "total_supply", zbc_json_u64(g->total_supply), err) &&
        zbc_json_set(o, "fund_account", json_string(fund), err) &&
        zbc_json_set(o, "tip_hash", zbc_json_hex(tip->hash, 32), err) &&
        zbc_json_set(o, "tip_timestamp", zbc_json_u64(tip->timestamp_ms),
                     err) &&
        zbc_json_set(o, "state_root", zbc_json_hex(root, 32), err) &&
        zbc_json_set(o, "mempool_size",
                     json_integer((json_int_t)zbc_chain_mempool_count(a->chain)),
                     err) &&
        zbc_json_set(o, "mempool_bytes",
                     json_integer((json_int_t)zbc_chain_mempool_bytes(a->chain)),
                     err) &&
        zbc_json_set(o, "is_validator", json_boolean(slot.is_validator), err) &&
        zbc_json_set(o, "automine", json_boolean(a->cfg.mine != NULL), err) &&
        zbc_json_set(o, "forks", forks_json(a->chain), err) &&
        zbc_json_set(o, "reads_at", json_string("tip"), err);
    if (!ok)
        return 0;
    const uint8_t *pk = zbc_chain_node_key(a->chain);
    if (pk == NULL)
        return zbc_json_set(o, "node_id", json_string(""), err) &&
               zbc_json_set(o, "node_address", json_string(""), err);
    zbc_addr_zbc_text(znk, pk, "ZNK");
    return zbc_json_set(o, "node_id", zbc_json_hex(pk, 32), err) &&
           zbc_json_set(o, "node_address", json_string(znk), err);
}

static void get_node_info(struct call *c)
{
    if (wrong_method(c, "GET"))
        return;
    struct zbc_err err = {{0}};
    json_t *o = json_object();
    int ok = o != NULL && info_fields(o, c->api, &err);
    reply_built(c, 200, o, ok, &err);
}

static const char *status_name(enum zbc_tx_status s)
{
    switch (s) {
    case ZBC_TX_STATUS_NOT_FOUND:
        return "not_found";
    case ZBC_TX_STATUS_MEMPOOL:
        return "mempool";
    case ZBC_TX_STATUS_CONFIRMED:
        return "confirmed";
    }
    return "not_found";
}

/* The log lines of one submission's outcome (a batch's element too). */
static void log_submit(struct call *c, const struct zbc_submit *it)
{
    char hex[65];
    zbc_hex_encode(hex, it->hash, 32);
    if (!it->ok)
        zbc_log_ratelimited("api:tx-rejected", ZBC_LOG_CLIENT_PERIOD_MS,
                            ZBC_LOG_INFO, "tx rejected hash=%s: %s", hex,
                            it->err.msg);
    else if (it->duplicate) /* free to repeat: rate-limited */
        zbc_log_ratelimited("api:tx-dup", ZBC_LOG_CLIENT_PERIOD_MS,
                            ZBC_LOG_INFO, "tx already pooled hash=%s "
                            "mempool=%zu", hex,
                            zbc_chain_mempool_count(c->api->chain));
    else
        zbc_log_debug("tx admitted hash=%s mempool=%zu", hex,
                      zbc_chain_mempool_count(c->api->chain));
}

/* A JSON array of submit bodies (docs/api.md §3 "Batches"): 200 with one
 * answer per element, in order. */
static void post_batch(struct call *c, const char *body, size_t blen)
{
    struct zbc_admit_batch b;
    struct zbc_err err = {{0}};
    int status;
    if (!zbc_admit_batch_decode(&b, zbc_chain_verify_pool(c->api->chain),
                                body, blen, &status, &err)) {
        reply_error(c, status, "%s", err.msg);
        return;
    }
    zbc_chain_submit_batch(c->api->chain, b.items, b.n, api_now(c->api));
    json_t *arr = json_array();
    for (size_t i = 0; arr != NULL && i < b.n; i++) {
        bool decoded = b.items[i].raw != NULL;
        if (decoded)
            log_submit(c, &b.items[i]);
        json_t *o = zbc_admit_answer(&b.items[i],
                                     decoded ? NULL : &b.decode_err[i], true,
                                     &status);
        if (json_array_append_new(arr, o) != 0) {
            json_decref(arr);
            arr = NULL;
        }
    }
    zbc_admit_batch_free(&b);
    if (arr == NULL) {
        reply_error(c, 500, "out of memory answering a batch");
        return;
    }
    reply(c, 200, arr);
}

/* The answer to a single submission (its log lines first). */
static void answer_single(struct call *c, const struct zbc_submit *it)
{
    log_submit(c, it);
    if (!it->ok) {
        int status = zbc_admit_status(it->err.msg);
        /* a full pool is the client's refusal, not the node's error: an
         * INFO line per period, as for a request refused whole */
        if (status == 503)
            reply_refused(c, status, it->err.msg);
        else
            reply_error(c, status, "%s", it->err.msg);
        return;
    }
    int status;
    reply(c, 202, zbc_admit_answer(it, NULL, false, &status));
}

/* Admits the single submissions read in this pass of the loop together
 * (zbc_chain_submit_batch: their signatures on every core, the rest in
 * arrival order, each answered as if alone; docs/api.md §3 "Batches").
 * A request whose client left meanwhile was detached by evhttp: the reply
 * frees it. */
static void flush_submissions(struct zbc_api *a)
{
    struct pend *list = a->pend_head;
    size_t n = a->n_pend;
    a->pend_head = NULL;
    a->pend_tail = &a->pend_head;
    a->n_pend = 0;
    if (n == 0)
        return;
    struct zbc_submit one, *items = n > 1 ? calloc(n, sizeof *items) : &one;
    uint64_t now = api_now(a);
    size_t i = 0;
    if (items != NULL) {
        memset(items, 0, (n > 1 ? n : 1) * sizeof *items);
        for (struct pend *p = list; p != NULL; p = p->next, i++) {
            items[i].raw = p->raw;
            items[i].len = p->len;
        }
        zbc_chain_submit_batch(a->chain, items, n, now);
        if (n > 1)
            zbc_log_debug("api: %zu single submissions admitted together", n);
    }
    i = 0;
    while (list != NULL) {
        struct pend *p = list;
        list = p->next;
        struct call c = {.api = a, .req = p->req, .method = "POST",
                         .path = "/api/v1/transactions"};
        if (items != NULL) {
            answer_single(&c, &items[i]);
        } else { /* out of memory for the list: one by one */
            struct zbc_submit it = {.raw = p->raw, .len = p->len};
            zbc_chain_submit_batch(a->chain, &it, 1, now);
            answer_single(&c, &it);
        }
        i++;
        free(p->raw);
        free(p);
    }
    if (items != &one)
        free(items);
}

static void on_flush(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    flush_submissions(arg);
}

/* The whole-request refusal under overload (admit.h, docs/api.md §3
 * "Overload"): true when the request was answered 503 with Retry-After
 * before its body was decoded. */
static bool refused_whole(struct call *c, const char *body, size_t blen)
{
    struct zbc_api *a = c->api;
    struct zbc_admit_pool p;
    /* an --automine node makes blocks on request, not at slots */
    zbc_admit_pool_of(&p, a->chain, api_now(a), a->cfg.mine == NULL);
    struct zbc_admit_refusal r;
    if (!zbc_admit_gate(&p, body, blen, &r))
        return false;
    zbc_log_limited(&a->log_refused, ZBC_LOG_PERIOD_MS, ZBC_LOG_INFO,
                    "api: %s %s from %s -> 503: %s", c->method, c->path,
                    c->conn != NULL ? c->conn->peer : "?", r.msg);
    char retry[16];
    snprintf(retry, sizeof retry, "%u", r.retry_after_s);
    evhttp_add_header(evhttp_request_get_output_headers(c->req),
                      "Retry-After", retry);
    json_t *o = zbc_admit_refusal_json(&p, &r);
    if (o == NULL) {
        reply_error(c, 503, "%s", r.msg);
        return true;
    }
    reply(c, 503, o);
    return true;
}

static void post_transaction(struct call *c)
{
    if (wrong_method(c, "POST"))
        return;
    struct evbuffer *in = evhttp_request_get_input_buffer(c->req);
    size_t blen = evbuffer_get_length(in);
    if (blen > ZBC_API_MAX_BODY) {
        reply_error(c, 413, "request body of %zu bytes exceeds the %zu byte "
                    "limit", blen, ZBC_API_MAX_BODY);
        return;
    }
    const char *body = blen > 0 ? (const char *)evbuffer_pullup(in, -1) : "";
    if (body == NULL) {
        reply_error(c, 500, "cannot read the request body (out of memory)");
        return;
    }
    if (refused_whole(c, body, blen))
        return;
    if (zbc_admit_is_batch(body, blen)) {
        post_batch(c, body, blen);
        return;
    }
    uint8_t *raw = NULL;
    size_t len = 0;
    struct zbc_err err = {{0}};
    if (!zbc_json_submit_body(&raw, &len, body, blen, &err)) {
        reply_error(c, 400, "%s", err.msg);
        return;
    }
    /* answered at the end of this pass of the loop, with every other
     * submission read in it (flush_submissions) */
    struct zbc_api *a = c->api;
    struct pend *p = malloc(sizeof *p);
    if (p == NULL) {
        struct zbc_submit it = {.raw = raw, .len = len};
        zbc_chain_submit_batch(a->chain, &it, 1, api_now(a));
        answer_single(c, &it);
        free(raw);
        return;
    }
    *p = (struct pend){c->req, raw, len, NULL};
    *a->pend_tail = p;
    a->pend_tail = &p->next;
    if (++a->n_pend >= API_PEND_MAX)
        flush_submissions(a);
    else if (a->n_pend == 1)
        event_active(a->flush, EV_TIMEOUT, 0);
}

/* Whether a confirmed transaction took effect: "applied", and for a no-op
 * (valid but not applicable when its block was applied: no fee, no
 * effect) "noop_reason" from the block's noop event. */
static int tx_outcome(struct call *c, json_t *o, uint32_t height,
                      uint32_t index, struct zbc_err *err)
{
    struct zbc_events ev = {0};
    bool found;
    if (!zbc_chain_events(c->api->chain, height, &ev, &found, err))
        return 0;
    const char *reason = NULL;
    for (size_t i = 0; i < ev.n && reason == NULL; i++)
        if (ev.e[i].kind == ZBC_EVENT_NOOP && ev.e[i].tx_index == index)
            reason = ev.e[i].reason;
    int ok = zbc_json_set(o, "applied", json_boolean(reason == NULL), err) &&
             (reason == NULL ||
              zbc_json_set(o, "noop_reason", json_string(reason), err));
    zbc_events_free(&ev);
    return ok;
}

/* Where a confirmed transaction is: block height, index, confirmations,
 * whether that block is final (docs/protocol-chain.md §8), and its outcome. */
static int inclusion_fields(struct call *c, json_t *o,
                            const struct zbc_tx_lookup *lk, uint32_t tip,
                            struct zbc_err *err)
{
    uint32_t final = zbc_chain_final_height(c->api->chain);
    return zbc_json_set(o, "block_height", json_integer(lk->height), err) &&
           zbc_json_set(o, "transaction_index", json_integer(lk->index),
                        err) &&
           zbc_json_set(o, "confirmations", json_integer(tip - lk->height + 1),
                        err) &&
           zbc_json_set(o, "final", json_boolean(lk->height <= final), err) &&
           tx_outcome(c, o, lk->height, lk->index, err);
}

static void get_transaction(struct call *c, const char *hash_text,
                            bool status_only)
{
    if (wrong_method(c, "GET"))
        return;
    uint8_t hash[32];
    if (!parse_hash(hash, hash_text)) {
        reply_error(c, 400, "transaction hash must be 64 hex characters");
        return;
    }
    struct zbc_tx_lookup lk;
    struct zbc_err err = {{0}};
    /* the status needs no bytes: no block read (a wallet's --wait polls it) */
    if (!(status_only ? zbc_chain_tx_status : zbc_chain_find_tx)(
            c->api->chain, hash, &lk, &err)) {
        reply_error(c, 500, "cannot look up the transaction: %s", err.msg);
        return;
    }
    json_t *o = NULL;
    int ok = 1;
    uint32_t tip = zbc_chain_tip(c->api->chain)->height;
    if (status_only) {
        char hex[65];
        zbc_hex_encode(hex, hash, 32);
        o = json_object();
        ok = o != NULL &&
             zbc_json_set(o, "transaction_hash", json_string(hex), &err) &&
             zbc_json_set(o, "status", json_string(status_name(lk.status)),
                          &err);
        struct zbc_mempool_drop drop;
        bool dropped = lk.status == ZBC_TX_STATUS_NOT_FOUND &&
                       zbc_chain_dropped(c->api->chain, hash, api_now(c->api),
                                         &drop);
        if (dropped) {
            zbc_tx_lookup_free(&lk);
            char desc[ZBC_MEMPOOL_REASON_MAX + 32];
            snprintf(desc, sizeof desc, "dropped from the mempool: %s",
                     drop.reason);
            ok = ok && zbc_json_set(o, "status", json_string("dropped"),
                                    &err) &&
                 zbc_json_set(o, "description", json_string(desc), &err) &&
                 zbc_json_set(o, "reason", json_string(drop.reason), &err) &&
                 zbc_json_set(o, "dropped_at", json_integer(drop.height),
                              &err);
            reply_built(c, 200, o, ok, &err);
            return;
        }
        switch (lk.status) {
        case ZBC_TX_STATUS_NOT_FOUND:
            ok = ok &&
                 zbc_json_set(o, "description",
                              json_string("unknown to this node"), &err) &&
                 zbc_json_set(o, "success", json_false(), &err) &&
                 zbc_json_set(o, "error", json_string("Transaction not found"),
                              &err) &&
                 zbc_json_set(o, "code", json_integer(404), &err);
            break;
        case ZBC_TX_STATUS_MEMPOOL:
            ok = ok &&
                 zbc_json_set(o, "description",
                              json_string("in the mempool, waiting for a "
                                          "block"), &err) &&
                 zbc_json_set(o, "mempool_position",
                              json_integer((json_int_t)lk.position), &err) &&
                 zbc_json_set(o, "mempool_size",
                              json_integer((json_int_t)lk.pool_size), &err);
            break;
        case ZBC_TX_STATUS_CONFIRMED:
            ok = ok &&
                 zbc_json_set(o, "description",
                              json_string("included in a block"), &err) &&
                 inclusion_fields(c, o, &lk, tip, &err);
            break;
        }
        zbc_tx_lookup_free(&lk);
        if (ok && lk.status == ZBC_TX_STATUS_NOT_FOUND)
            zbc_log_ratelimited("api:4xx", ZBC_LOG_CLIENT_PERIOD_MS,
                                ZBC_LOG_INFO,
                                "api: %s %s -> 404: Transaction not found",
                                c->method, c->path);
        reply_built(c, lk.status == ZBC_TX_STATUS_NOT_FOUND ? 404 : 200, o,
                    ok, &err);
        return;
    }
    if (lk.status == ZBC_TX_STATUS_NOT_FOUND) {
        reply_error(c, 404, "Transaction not found");
        return;
    }
    ok = zbc_json_tx(&o, lk.raw, lk.len, &err);
    if (ok) {
        ok = zbc_json_set(o, "status", json_string(status_name(lk.status)),
                          &err);
        if (ok && lk.status == ZBC_TX_STATUS_CONFIRMED)
            ok = inclusion_fields(c, o, &lk, tip, &err);
    }
    zbc_tx_lookup_free(&lk);
    reply_built(c, 200, o, ok, &err);
}

static void get_account(struct call *c, const char *text)
{
    if (wrong_method(c, "GET"))
        return;
    struct zbc_addr a;
    struct zbc_err err = {{0}};
    if (!address_arg(c, text, &a))
        return;
    struct zbc_account acc;
    bool found;
    if (!zbc_chain_account(c->api->chain, &a, &acc, &found, &err)) {
        reply_error(c, 500, "cannot read the account: %s", err.msg);
        return;
    }
    if (!found) {
        reply_error(c, 404, "Account not found");
        return;
    }
    uint8_t typed[ZBC_ADDR_BYTES_MAX];
    size_t tlen = zbc_addr_write(typed, &a);
    json_t *o = json_object();
    int ok =
        o != NULL &&
        zbc_json_set(o, "address", zbc_json_addr_text(&a), &err) &&
        zbc_json_set(o, "account_address", zbc_json_hex(typed, tlen), &err) &&
        zbc_json_set(o, "account_type", json_integer(a.type), &err) &&
        zbc_json_set(o, "balance", zbc_json_u64(acc.balance), &err) &&
        zbc_json_set(o, "spendable_balance", zbc_json_u64(acc.balance),
                     &err) &&
        zbc_json_set(o, "total_balance", zbc_json_u64(acc.balance), &err) &&
        zbc_json_set(o, "locked_balance", json_integer(0), &err) &&
        zbc_json_set(o, "pop_revenue", json_integer(0), &err) &&
        zbc_json_set(o, "transact_policy", json_integer(0), &err) &&
        zbc_json_set(o, "height",
                     json_integer(zbc_chain_tip(c->api->chain)->height),
                     &err);
    reply_built(c, 200, o, ok, &err);
}

/* Height 0 has no block: its view is the genesis (hash, time, seed(0)),
 * so /blocks/latest answers on a chain that has not moved yet. */
static void reply_genesis_block(struct call *c, bool events)
{
    const struct zbc_genesis *g = zbc_chain_genesis(c->api->chain);
    struct zbc_err err = {{0}};
    uint8_t seed0[32];
    zbc_seed_genesis(seed0, g->hash);
    json_t *o = json_object();
    int ok = o != NULL &&
             zbc_json_set(o, "height", json_integer(0), &err) &&
             zbc_json_set(o, "genesis", json_true(), &err) &&
             zbc_json_set(o, "block_hash", zbc_json_hex(g->hash, 32), &err) &&
             zbc_json_set(o, "hash", zbc_json_hex(g->hash, 32), &err) &&
             zbc_json_set(o, "timestamp", zbc_json_u64(g->genesis_time_ms),
                          &err) &&
             zbc_json_set(o, "seed", zbc_json_hex(seed0, 32), &err) &&
             zbc_json_set(o, "tx_count", json_integer(0), &err) &&
             zbc_json_set(o, "transactions", json_array(), &err) &&
             (!events || zbc_json_set(o, "events", json_array(), &err));
    reply_built(c, 200, o, ok, &err);
}

static void get_block(struct call *c, const char *which)
{
    if (wrong_method(c, "GET"))
        return;
    /* ?events=false: the header and transaction hashes only (a block of
     * transfers is then about a tenth of its full view) */
    bool events = true;
    const char *ev_param = evhttp_find_header(&c->query, "events");
    if (ev_param != NULL) {
        if (strcmp(ev_param, "false") == 0) {
            events = false;
        } else if (strcmp(ev_param, "true") != 0) {
            reply_error(c, 400, "events must be true or false");
            return;
        }
    }
    uint32_t height;
    if (strcmp(which, "latest") == 0) {
        height = zbc_chain_tip(c->api->chain)->height;
    } else if (!parse_height(&height, which)) {
        reply_error(c, 400, "block height must be a decimal number from 0 to "
                    "4294967295, or \"latest\"");
        return;
    }
    if (height == 0) {
        reply_genesis_block(c, events);
        return;
    }
    struct zbc_err err = {{0}};
    uint8_t *bytes = NULL;
    size_t len = 0;
    bool found;
    if (!zbc_chain_block(c->api->chain, height, &bytes, &len, &found, &err)) {
        reply_error(c, 500, "cannot read block %u: %s", height, err.msg);
        return;
    }
    if (!found) {
        reply_error(c, 404, "Block not found");
        return;
    }
    struct zbc_block b;
    struct zbc_events ev = {0};
    json_t *o = NULL;
    int ok = zbc_block_decode(&b, bytes, len, &err);
    if (!ok) {
        free(bytes);
        reply_error(c, 500, "stored block %u does not decode: %s", height,
                    err.msg);
        return;
    }
    ok = (!events ||
          zbc_chain_events(c->api->chain, height, &ev, &found, &err)) &&
         zbc_json_block(&o, &b, events ? &ev : NULL, &err);
    zbc_events_free(&ev);
    zbc_block_free(&b);
    free(bytes);
    reply_built(c, 200, o, ok, &err);
}

/* ---- apps (docs/api.md "Apps") ---- */


static int parse_status(uint8_t *out, const char *text)
{
    static const enum zbc_app_status all[] = {ZBC_APP_OPEN, ZBC_APP_ACTIVE,
                                              ZBC_APP_FINISHED,
                                              ZBC_APP_ABANDONED};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        if (strcmp(text, zbc_app_status_name(all[i])) == 0) {
            *out = (uint8_t)all[i];
            return 1;
        }
    }
    return 0;
}

/* Fills the list filter from ?status=&type=&seat=&cursor=; *limit from
 * ?limit=.  Replies 400 and returns 0 on a bad value. */
static int list_query(struct call *c, struct zbc_app_filter *f, size_t *limit)
{
    const char *v;
    struct zbc_err err = {{0}};
    memset(f, 0, sizeof *f);
    *limit = 20;
    if ((v = evhttp_find_header(&c->query, "status")) != NULL && v[0]) {
        if (!parse_status(&f->status, v)) {
            reply_error(c, 400, "status must be open, active, finished or "
                        "abandoned");
            return 0;
        }
        f->has_status = true;
    }
    if ((v = evhttp_find_header(&c->query, "type")) != NULL && v[0]) {
        uint64_t t;
        f->type = parse_u64(&t, v) && t <= 255 ? (uint8_t)t
                                               : zbc_app_type_by_name(v);
        if (f->type == 0 || zbc_app_game_name(f->type) == NULL) {
            reply_error(c, 400, "type must be a known app type code or game "
                        "name (e.g. 1 or tictactoe)");
            return 0;
        }
        f->has_type = true;
    }
    /* player= is seat= under the name players use (docs/api.md §10) */
    const char *seat = evhttp_find_header(&c->query, "seat");
    const char *player = evhttp_find_header(&c->query, "player");
    if (seat != NULL && seat[0] && player != NULL && player[0]) {
        reply_error(c, 400, "seat and player are the same filter; give one");
        return 0;
    }
    v = seat != NULL && seat[0] ? seat : player;
    if (v != NULL && v[0]) {
        if (!zbc_addr_parse_text(&f->seat, v, &err)) {
            reply_error(c, 400, "invalid %s address: %s",
                        v == seat ? "seat" : "player", err.msg);
            return 0;
        }
        f->has_seat = true;
    }
    if ((v = evhttp_find_header(&c->query, "cursor")) != NULL && v[0]) {
        if (!parse_cursor(v, &f->before_height, &f->before_id)) {
            reply_error(c, 400, "cursor must be the next_cursor of a "
                        "previous answer (<height>-<id>)");
            return 0;
        }
        f->has_before = true;
    }
    if ((v = evhttp_find_header(&c->query, "limit")) != NULL && v[0]) {
        uint64_t n;
        if (!parse_u64(&n, v) || n < 1 || n > ZBC_APP_LIST_MAX) {
            reply_error(c, 400, "limit must be from 1 to %u",
                        ZBC_APP_LIST_MAX);
            return 0;
        }
        *limit = (size_t)n;
    }
    return 1;
}

static void get_apps(struct call *c)
{
    if (wrong_method(c, "GET"))
        return;
    struct zbc_app_filter f;
    size_t limit;
    if (!list_query(c, &f, &limit))
        return;
    struct zbc_app_list l;
    struct zbc_err err = {{0}};
    if (!zbc_chain_app_list(c->api->chain, &f, limit, &l, &err)) {
        reply_error(c, 500, "cannot list apps: %s", err.msg);
        return;
    }
    json_t *o = json_object();
    json_t *arr = json_array();
    int ok = o != NULL && zbc_json_set(o, "apps", arr, &err);
    for (size_t i = 0; ok && i < l.n; i++) {
        json_t *j;
        ok = zbc_json_app_summary(&j, &l.apps[i], l.tip, &err);
        if (ok && json_array_append_new(arr, j) != 0)
            ok = zbc_fail(&err, "out of memory listing apps");
    }
    char cursor[40];
    if (l.more && l.n > 0)
        snprintf(cursor, sizeof cursor, "%u-%llu", l.apps[l.n - 1].created,
                 (unsigned long long)l.apps[l.n - 1].id);
    ok = ok && zbc_json_set(o, "count", json_integer((json_int_t)l.n), &err) &&
         zbc_json_set(o, "height", json_integer(l.tip), &err) &&
         zbc_json_set(o, "next_cursor",
                      l.more && l.n > 0 ? json_string(cursor) : json_null(),
                      &err);
    zbc_app_list_free(&l);
    reply_built(c, 200, o, ok, &err);
}

/* GET /accounts/<address>/history?limit=&cursor= (docs/api.md §12). */
static void get_history(struct call *c, const char *text)
{
    if (wrong_method(c, "GET"))
        return;
    struct zbc_addr a;
    struct zbc_err err = {{0}};
    if (!address_arg(c, text, &a))
        return;
    const char *v;
    size_t limit = 20;
    if ((v = evhttp_find_header(&c->query, "limit")) != NULL) {
        uint64_t n;
        if (!parse_u64(&n, v) || n < 1 || n > ZBC_HISTORY_PAGE_MAX) {
            reply_error(c, 400, "limit must be from 1 to %u",
                        ZBC_HISTORY_PAGE_MAX);
            return;
        }
        limit = (size_t)n;
    }
    bool has_before = false;
    uint32_t bh = 0;
    uint64_t bi = 0;
    if ((v = evhttp_find_header(&c->query, "cursor")) != NULL) {
        if (!parse_cursor(v, &bh, &bi) || bi > UINT32_MAX) {
            reply_error(c, 400, "cursor must be the next_cursor of a "
                        "previous answer (<height>-<index>)");
            return;
        }
        has_before = true;
    }
    struct zbc_history_page *p = malloc(sizeof *p);
    if (p == NULL) {
        reply_error(c, 500, "out of memory reading the history of %s", text);
        return;
    }
    if (!zbc_chain_history_page(c->api->chain, &a, has_before, bh,
                                (uint32_t)bi, limit, p, &err)) {
        free(p);
        reply_error(c, 500, "cannot read the history of %s: %s", text,
                    err.msg);
        return;
    }
    char addr[ZBC_ADDR_TEXT_MAX], cursor[40];
    zbc_addr_to_text(addr, &a);
    json_t *o = json_object();
    json_t *arr = json_array();
    int ok = o != NULL && zbc_json_set(o, "address", json_string(addr), &err) &&
             zbc_json_set(o, "entries", arr, &err);
    for (size_t i = 0; ok && i < p->n; i++) {
        json_t *j = NULL;
        const struct zbc_history_entry *e = &p->e[i];
        ok = zbc_json_event(&j, &e->ev, &err) &&
             zbc_json_set(j, "height", json_integer(e->height), &err) &&
             zbc_json_set(j, "index", json_integer(e->index), &err) &&
             zbc_json_set(j, "timestamp",
                          json_integer((json_int_t)e->timestamp_ms), &err);
        if (ok && json_array_append_new(arr, j) != 0)
            ok = zbc_fail(&err, "out of memory listing the history");
        else if (!ok)
            json_decref(j);
    }
    if (p->more && p->n > 0)
        snprintf(cursor, sizeof cursor, "%u-%u", p->e[p->n - 1].height,
                 p->e[p->n - 1].index);
    ok = ok && zbc_json_set(o, "count", json_integer((json_int_t)p->n), &err) &&
         zbc_json_set(o, "next_cursor",
                      p->more && p->n > 0 ? json_string(cursor) : json_null(),
                      &err) &&
         zbc_json_set(o, "height", json_integer(p->tip), &err);
    free(p);
    reply_built(c, 200, o, ok, &err);
}

/* Parses an app id; replies 400 and returns 0 when it is not one. */
static int app_id_arg(struct call *c, const char *text, uint64_t *id)
{
    if (parse_u64(id, text))
        return 1;
    reply_error(c, 400, "app id must be a decimal number from 0 to "
                "18446744073709551615");
    return 0;
}

static void get_app(struct call *c, const char *text)
{
    if (wrong_method(c, "GET"))
        return;
    uint64_t id;
    if (!app_id_arg(c, text, &id))
        return;
    struct zbc_app_snapshot *s = malloc(sizeof *s);
    struct zbc_err err = {{0}};
    bool found = false;
    if (s == NULL) {
        reply_error(c, 500, "out of memory reading app %s", text);
        return;
    }
    if (!zbc_chain_app_get(zbc_chain_store(c->api->chain), id, s, &found,
                           &err)) {
        free(s);
        reply_error(c, 500, "cannot read app %s: %s", text, err.msg);
        return;
    }
    if (!found) {
        free(s);
        reply_error(c, 404, "unknown app");
        return;
    }
    json_t *o = NULL;
    int ok = zbc_json_app(&o, s, &err);
    zbc_app_snapshot_free(s);
    free(s);
    reply_built(c, 200, o, ok, &err);
}

/* GET /apps/<id>/events and /accounts/<address>/events: a live stream. */
static void get_events(struct call *c, const char *text, bool is_app)
{
    if (wrong_method(c, "GET"))
        return;
    struct zbc_sse_filter f;
    struct zbc_err err = {{0}};
    memset(&f, 0, sizeof f);
    f.is_app = is_app;
    if (is_app) {
        if (!app_id_arg(c, text, &f.app_id))
            return;
        struct zbc_app_snapshot *s = malloc(sizeof *s);
        bool found = false;
        int ok = s != NULL && zbc_chain_app_get(zbc_chain_store(c->api->chain),
                                                f.app_id, s, &found, &err);
        if (s != NULL)
            zbc_app_snapshot_free(s);
        free(s);
        if (!ok) {
            reply_error(c, 500, "cannot read app %s: %s", text, err.msg);
            return;
        }
        if (!found) {
            reply_error(c, 404, "unknown app");
            return;
        }
    } else if (!address_arg(c, text, &f.account)) {
        return;
    }
    uint32_t from = zbc_chain_tip(c->api->chain)->height + 1, index = 0;
    const char *last = evhttp_find_header(
        evhttp_request_get_input_headers(c->req), "Last-Event-ID");
    const char *fh = evhttp_find_header(&c->query, "from_height");
    if (last != NULL && last[0]) {
        if (!zbc_sse_parse_id(last, &from, &index, &err) ||
            index == UINT32_MAX) {
            reply_error(c, 400, "Last-Event-ID: %s", err.msg);
            return;
        }
        index++; /* the events after that one */
    } else if (fh != NULL && !parse_height(&from, fh)) {
        reply_error(c, 400, "from_height must be a decimal block height");
        return;
    }
    int status = 0;
    if (!zbc_sse_open(c->api->sse, c->req,
                      c->conn != NULL ? c->conn->peer : "?", &f, from, index,
                      &status, &err)) {
        reply_refused(c, status, err.msg);
        return;
    }
    c->streaming = true;
    zbc_log_ratelimited("api:sse-open", ZBC_LOG_CLIENT_PERIOD_MS,
                        ZBC_LOG_INFO,
                        "api: event stream opened on %s from block %u (%zu "
                        "open)",
                        c->path, from, zbc_sse_count(c->api->sse));
}

static bool token_ok(struct call *c)
{
    if (!c->api->has_token)
        return false;
    struct evkeyvalq *h = evhttp_request_get_input_headers(c->req);
    const char *v = evhttp_find_header(h, "X-ZBC-Token");
    const char *auth = evhttp_find_header(h, "Authorization");
    if (v == NULL && auth != NULL && strncmp(auth, "Bearer ", 7) == 0)
        v = auth + 7;
    if (v == NULL || strlen(v) != ZBC_API_TOKEN_HEX)
        return false;
    return sodium_memcmp(v, c->api->token, ZBC_API_TOKEN_HEX) == 0;
}

#define TOKEN_REFUSAL \
    "admin calls need the token from the data directory's api.token " \
    "(header X-ZBC-Token)"

static void arm_deadline(struct conn *k);

/* An IPv4 127.0.0.0/8 or IPv6 ::1 address (also v4-mapped), or the name
 * localhost. */
static bool is_loopback(const char *host)
{
    struct in_addr v4;
    struct in6_addr v6;
    if (host == NULL)
        return false;
    if (strcmp(host, "localhost") == 0)
        return true;
    if (inet_pton(AF_INET, host, &v4) == 1)
        return (ntohl(v4.s_addr) >> 24) == 127;
    if (inet_pton(AF_INET6, host, &v6) != 1)
        return false;
    if (IN6_IS_ADDR_LOOPBACK(&v6))
        return true;
    return IN6_IS_ADDR_V4MAPPED(&v6) && v6.s6_addr[12] == 127;
}

int zbc_api_mine_body(uint32_t *n, const char *body, size_t len,
                      struct zbc_err *err)
{
    static const char shape[] = "the body must be {\"blocks\": N} with N "
                                "from 1 to 1000";
    if (len == 0)
        return zbc_fail(err, "request body is empty; %s", shape);
    json_error_t je;
    json_t *o = json_loadb(body, len, JSON_REJECT_DUPLICATES, &je);
    if (o == NULL)
        return zbc_fail(err, "malformed JSON at line %d column %d: %s",
                        je.line, je.column, je.text);
    int ok = 1;
    const char *key;
    json_t *v;
    if (!json_is_object(o))
        ok = zbc_fail(err, "request body must be a JSON object; %s", shape);
    else {
        json_object_foreach(o, key, v) {
            if (strcmp(key, "blocks") != 0) {
                ok = zbc_fail(err, "unknown field '%.40s'; %s", key, shape);
                break;
            }
        }
    }
    v = ok ? json_object_get(o, "blocks") : NULL;
    if (ok && v == NULL)
        ok = zbc_fail(err, "blocks is missing; %s", shape);
    if (ok && (!json_is_integer(v) || json_integer_value(v) < 1 ||
               json_integer_value(v) > ZBC_PRODUCER_MINE_MAX))
        ok = zbc_fail(err, "blocks must be an integer from 1 to %u",
                      ZBC_PRODUCER_MINE_MAX);
    if (ok)
        *n = (uint32_t)json_integer_value(v);
    json_decref(o);
    return ok;
}

static int mine_body(struct call *c, uint32_t *n, struct zbc_err *err)
{
    struct evbuffer *in = evhttp_request_get_input_buffer(c->req);
    size_t blen = evbuffer_get_length(in);
    const char *body = blen > 0 ? (const char *)evbuffer_pullup(in, -1) : "";
    if (body == NULL)
        return zbc_fail(err, "cannot read the request body (out of memory)");
    return zbc_api_mine_body(n, body, blen, err);
}

/* POST /admin/mine (docs/api.md §9): loopback API, loopback client, the
 * token, zbcd run --automine, then the body. */
static void post_admin_mine(struct call *c)
{
    struct zbc_api *a = c->api;
    char *peer = NULL;
    ev_uint16_t port = 0;
    evhttp_connection_get_peer(evhttp_request_get_connection(c->req), &peer,
                               &port);
    const char *host = a->cfg.host != NULL ? a->cfg.host : "127.0.0.1";
    if (!is_loopback(host)) {
        reply_error(c, 403, "admin/mine answers only on a loopback API "
                    "address, and this API listens on %s", host);
        return;
    }
    if (!is_loopback(peer)) {
        reply_error(c, 403, "admin/mine answers only requests from a "
                    "loopback address, not from %s", peer != NULL ? peer
                                                                  : "?");
        return;
    }
    if (!token_ok(c)) {
        reply_error(c, 403, TOKEN_REFUSAL);
        return;
    }
    if (a->cfg.mine == NULL) {
        reply_error(c, 400, "mining on request needs zbcd run --automine");
        return;
    }
    uint32_t n = 0, mined = 0;
    bool refused = false;
    struct zbc_err err = {{0}};
    if (!mine_body(c, &n, &err)) {
        reply_error(c, 400, "%s", err.msg);
        return;
    }
    if (!a->cfg.mine(a->cfg.mine_arg, n, &mined, &refused, &err)) {
        if (refused)
            reply_error(c, 400, "%s", err.msg);
        else
            reply_error(c, 500, "mined %u of %u blocks: %s", mined, n,
                        err.msg);
        return;
    }
    /* the answer gets the whole deadline again, however long mining
     * took (docs/api.md §9) */
    if (c->conn != NULL)
        arm_deadline(c->conn);
    zbc_log_info("api: admin mine: %u blocks, height %u", mined,
                 zbc_chain_tip(a->chain)->height);
    reply(c, 200, json_pack("{s:b, s:I, s:I}", "success", 1, "mined",
                            (json_int_t)mined, "height",
                            (json_int_t)zbc_chain_tip(a->chain)->height));
}

static void post_admin(struct call *c, const char *what)
{
    bool stop = strcmp(what, "stop") == 0;
    if (!stop && strcmp(what, "mine") != 0) {
        reply_error(c, 404, "unknown endpoint: %s %s", c->method, c->path);
        return;
    }
    if (wrong_method(c, "POST"))
        return;
    if (!stop) {
        post_admin_mine(c);
        return;
    }
    if (c->api->cfg.on_stop == NULL || !token_ok(c)) {
        reply_error(c, 403, TOKEN_REFUSAL);
        return;
    }
    zbc_log_info("api: admin stop requested");
    /* Stop once the answer has gone out, not before (reply_sent). */
    if (c->conn != NULL)
        c->conn->stop_after_reply = true;
    else
        c->api->cfg.on_stop(c->api->cfg.on_stop_arg);
    reply(c, 200, json_pack("{s:b, s:s}", "success", 1, "message",
                            "stopping"));
}

static void route(struct call *c)
{
    char **s = c->seg;
    int n = c->nseg;
    if (n == 2 && strcmp(s[0], "node") == 0 && strcmp(s[1], "info") == 0)
        get_node_info(c);
    else if (n == 1 && strcmp(s[0], "transactions") == 0)
        post_transaction(c);
    else if (n == 2 && strcmp(s[0], "transactions") == 0)
        get_transaction(c, s[1], false);
    else if (n == 3 && strcmp(s[0], "transactions") == 0 &&
             strcmp(s[2], "status") == 0)
        get_transaction(c, s[1], true);
    else if (n == 2 && strcmp(s[0], "accounts") == 0)
        get_account(c, s[1]);
    else if (n == 3 && strcmp(s[0], "accounts") == 0 &&
             strcmp(s[2], "events") == 0)
        get_events(c, s[1], false);
    else if (n == 3 && strcmp(s[0], "accounts") == 0 &&
             strcmp(s[2], "history") == 0)
        get_history(c, s[1]);
    else if (n == 1 && strcmp(s[0], "apps") == 0)
        get_apps(c);
    else if (n == 2 && strcmp(s[0], "apps") == 0)
        get_app(c, s[1]);
    else if (n == 3 && strcmp(s[0], "apps") == 0 &&
             strcmp(s[2], "events") == 0)
        get_events(c, s[1], true);
    else if (n == 2 && strcmp(s[0], "blocks") == 0)
        get_block(c, s[1]);
    else if (n == 2 && strcmp(s[0], "admin") == 0)
        post_admin(c, s[1]);
    else
        reply_error(c, 404, "unknown endpoint: %s %s", c->method, c->path);
}

/* Splits the path after "/api/v1/" into decoded segments; 0 when the path
 * is not under /api/v1 or has too many or empty segments. */
static int split_path(struct call *c, char *copy)
{
    static const char prefix[] = "/api/v1/";
    size_t n = strlen(copy);
    while (n > 1 && copy[n - 1] == '/')
        copy[--n] = '\0';
    if (strncmp(copy, prefix, sizeof prefix - 1) != 0)
        return 0;
    char *p = copy + sizeof prefix - 1;
    while (*p != '\0') {
        char *slash = strchr(p, '/');
        if (slash != NULL)
            *slash = '\0';
        if (*p == '\0' || c->nseg == API_MAX_SEGMENTS)
            return 0;
        size_t dlen = 0;
        char *d = evhttp_uridecode(p, 0, &dlen);
        if (d == NULL || strlen(d) != dlen) { /* an encoded NUL */
            free(d);
            return 0;
        }
        c->seg[c->nseg++] = d;
        if (slash == NULL)
            break;
        p = slash + 1;
    }
    return c->nseg > 0;
}

/* ---- connections (docs/api.md §8) ---- */

static struct conn *conn_of(struct zbc_api *a, struct evhttp_connection *evcon)
{
    for (struct conn *k = a->conns; k != NULL; k = k->next)
        if (k->evcon == evcon && evcon != NULL)
            return k;
    return NULL;
}

/* Accepting is on unless the connection limit is reached or an accept
 * back-off runs. */
static void update_listener(struct zbc_api *a)
{
    bool want = !a->backing_off && a->n_conns < a->cfg.max_connections;
    if (a->listener == NULL || want == a->listening)
        return;
    if (want ? evconnlistener_enable(a->listener) == 0
             : evconnlistener_disable(a->listener) == 0)
        a->listening = want;
}

static void arm_deadline(struct conn *k)
{
    struct timeval tv = {(time_t)k->api->cfg.request_timeout_s, 0};
    evtimer_add(k->deadline, &tv);
}

static void on_conn_close(struct evhttp_connection *evcon, void *arg)
{
    struct conn *k = arg;
    struct zbc_api *a = k->api;
    zbc_sse_conn_closed(a->sse, evcon);
    for (struct conn **p = &a->conns; *p != NULL; p = &(*p)->next) {
        if (*p == k) {
            *p = k->next;
            break;
        }
    }
    a->n_conns--;
    event_free(k->deadline);
    free(k);
    update_listener(a);
}

/* A connection that did not send a whole request (or take its answer, or
 * send the next request) in time: closed, one log line per period. */
static void on_deadline(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct conn *k = arg;
    if (k->close_after_reply) {
        evhttp_connection_free(k->evcon);
        return;
    }
    zbc_log_limited(&k->api->log_deadline, ZBC_LOG_PERIOD_MS,
                    ZBC_LOG_INFO,
                    "api: closing the connection from %s: no whole request "
                    "or answer within %u s", k->peer,
                    k->api->cfg.request_timeout_s);
    evhttp_connection_free(k->evcon); /* on_conn_close frees k */
}

/* evhttp has set up the connections accepted since the last run (their
 * bufferevents' callback argument is now the evhttp_connection): take
 * over their close callback and start their request deadline. */
static void on_adopt(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct zbc_api *a = arg;
    struct conn **p = &a->conns;
    while (*p != NULL) {
        struct conn *k = *p;
        if (k->evcon != NULL) {
            p = &k->next;
            continue;
        }
        void *cbarg = NULL;
        bufferevent_getcb(k->bev, NULL, NULL, NULL, &cbarg);
        if (cbarg == NULL) { /* evhttp did not take it */
            *p = k->next;
            a->n_conns--;
            event_free(k->deadline);
            bufferevent_free(k->bev);
            free(k);
            continue;
        }
        k->evcon = cbarg;
        char *host = NULL;
        ev_uint16_t port = 0;
        evhttp_connection_get_peer(k->evcon, &host, &port);
        snprintf(k->peer, sizeof k->peer, "%s", host != NULL ? host : "?");
        evhttp_connection_set_closecb(k->evcon, on_conn_close, k);
        arm_deadline(k);
        p = &k->next;
    }
    update_listener(a);
}

/* evhttp asks for the bufferevent of each connection it accepts: count
 * the connection here, and stop accepting at the limit. */
static struct bufferevent *on_accepted(struct event_base *base, void *arg)
{
    struct zbc_api *a = arg;
    struct conn *k = calloc(1, sizeof *k);
    struct bufferevent *bev =
        k != NULL ? bufferevent_socket_new(base, -1, BEV_OPT_CLOSE_ON_FREE)
                  : NULL;
    struct event *ev = bev != NULL ? evtimer_new(base, on_deadline, k) : NULL;
    if (ev == NULL) {
        if (bev != NULL)
            bufferevent_free(bev);
        free(k);
        zbc_log_ratelimited("api:conn-oom", ZBC_LOG_PERIOD_MS,
                            ZBC_LOG_ERROR, "api: out of memory tracking a "
                            "connection");
        return NULL;
    }
    k->api = a;
    k->bev = bev;
    k->deadline = ev;
    snprintf(k->peer, sizeof k->peer, "?");
    k->next = a->conns;
    a->conns = k;
    a->n_conns++;
    event_active(a->adopt, 0, 0);
    if (a->n_conns >= a->cfg.max_connections) {
        zbc_log_limited(&a->log_cap, ZBC_LOG_PERIOD_MS, ZBC_LOG_WARN,
                        "api: %zu connections open (the limit): not "
                        "accepting more until one closes", a->n_conns);
        update_listener(a); /* the listener's accept loop stops here */
    }
    return bev;
}

static void on_backoff_end(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct zbc_api *a = arg;
    a->backing_off = false;
    update_listener(a);
}

/* accept() failed with something other than "try again" (out of file
 * descriptors, memory, ...): retrying at once would spin, so accepting
 * pauses for ZBC_API_ACCEPT_BACKOFF_MS; one log line per period. */
static void on_accept_error(struct evconnlistener *lev, void *arg)
{
    (void)arg;
    int e = EVUTIL_SOCKET_ERROR();
    struct zbc_api *a = all_apis;
    while (a != NULL && a->listener != lev)
        a = a->next_api;
    if (a == NULL) { /* not ours: cannot happen; still never spin */
        evconnlistener_disable(lev);
        return;
    }
    zbc_log_limited(&a->log_accept, ZBC_LOG_PERIOD_MS, ZBC_LOG_WARN,
                    "api: cannot accept a connection: %s (%zu open); "
                    "accepting paused for %u ms", strerror(e), a->n_conns,
                    ZBC_API_ACCEPT_BACKOFF_MS);
    a->backing_off = true;
    update_listener(a);
    struct timeval tv = {ZBC_API_ACCEPT_BACKOFF_MS / 1000,
                         (ZBC_API_ACCEPT_BACKOFF_MS % 1000) * 1000};
    evtimer_add(a->backoff, &tv);
}

/* The answer has gone out: the connection may send its next request,
 * within the deadline again. */
static void reply_sent(struct evhttp_request *req, void *arg)
{
    (void)req;
    struct conn *k = arg;
    if (k->stop_after_reply) {
        k->stop_after_reply = false;
        k->api->cfg.on_stop(k->api->cfg.on_stop_arg);
    }
    if (k->close_after_reply) {
        /* evhttp keeps a CONNECT connection open whatever the answer
         * says; close it from the loop, not inside evhttp's callback */
        struct timeval now = {0, 0};
        evtimer_add(k->deadline, &now);
        return;
    }
    arm_deadline(k);
}

static bool method_supported(enum evhttp_cmd_type m)
{
    return m == EVHTTP_REQ_GET || m == EVHTTP_REQ_POST ||
           m == EVHTTP_REQ_HEAD || m == EVHTTP_REQ_PUT ||
           m == EVHTTP_REQ_DELETE || m == EVHTTP_REQ_OPTIONS ||
           m == EVHTTP_REQ_PATCH;
}

static void on_request(struct evhttp_request *req, void *arg)
{
    struct call c = {.api = arg, .req = req};
    c.conn = conn_of(c.api, evhttp_request_get_connection(req));
    if (c.conn != NULL) {
        /* the answer must be taken within the deadline too */
        arm_deadline(c.conn);
        evhttp_request_set_on_complete_cb(req, reply_sent, c.conn);
    }
    c.method = method_name(evhttp_request_get_command(req));
    if (!method_supported(evhttp_request_get_command(req))) {
        /* CONNECT (no tunnels here) and TRACE: answered, then closed */
        c.path = evhttp_request_get_uri(req) != NULL
                     ? evhttp_request_get_uri(req)
                     : "";
        evhttp_add_header(evhttp_request_get_output_headers(req),
                          "Connection", "close");
        if (c.conn != NULL)
            c.conn->close_after_reply = true;
        if (strcmp(c.method, "?") == 0)
            reply_error(&c, 405, "the request's method is not supported by "
                        "this API (GET, POST)");
        else
            reply_error(&c, 405, "method %s is not supported by this API",
                        c.method);
        return;
    }
    const struct evhttp_uri *uri = evhttp_request_get_evhttp_uri(req);
    const char *path = uri != NULL ? evhttp_uri_get_path(uri) : NULL;
    c.path = path != NULL ? path : "";
    if (c.api->cfg.web != NULL && path != NULL &&
        strncmp(path, "/api/", 5) != 0 && strcmp(path, "/api") != 0) {
        zbc_web_serve(c.api->cfg.web, req, path); /* docs/web.md §2 */
        return;
    }
    TAILQ_INIT(&c.query);
    char *copy = path != NULL ? strdup(path) : NULL;
    if (copy == NULL) {
        reply_error(&c, 400, "request has no valid path");
        return;
    }
    const char *q = uri != NULL ? evhttp_uri_get_query(uri) : NULL;
    if (!split_path(&c, copy))
        reply_error(&c, 404, "unknown endpoint: %s %s", c.method, c.path);
    else if (q != NULL && evhttp_parse_query_str(q, &c.query) != 0)
        reply_error(&c, 400, "the query string does not decode");
    else
        route(&c);
    if (c.streaming && c.conn != NULL)
        evtimer_del(c.conn->deadline); /* a stream is idle between events */
    evhttp_clear_headers(&c.query);
    for (int i = 0; i < c.nseg; i++)
        free(c.seg[i]);
    free(copy);
}

/* ---- server ---- */

int zbc_api_parse_listen(char *host, size_t host_cap, uint16_t *port,
                         const char *text, struct zbc_err *err)
{
    const char *colon = strrchr(text, ':');
    if (colon == NULL || colon == text || colon[1] == '\0')
        return zbc_fail(err, "listen address '%s' must be HOST:PORT", text);
    const char *h = text;
    size_t hlen = (size_t)(colon - text);
    if (h[0] == '[' && hlen >= 2 && h[hlen - 1] == ']') {
        h++;
        hlen -= 2;
    }
    if (hlen == 0 || hlen >= host_cap)
        return zbc_fail(err, "host in listen address '%s' is empty or too long",
                        text);
    uint64_t v = 0;
    for (const char *p = colon + 1; *p != '\0'; p++) {
        if (!isdigit((unsigned char)*p) || (v = v * 10 + (uint64_t)(*p - '0')) >
                                               65535)
            return zbc_fail(err, "port in listen address '%s' is not a number "
                            "from 0 to 65535", text);
    }
    memcpy(host, h, hlen);
    host[hlen] = '\0';
    *port = (uint16_t)v;
    return 1;
}

int zbc_api_start(struct zbc_api **out, struct event_base *base,
                  struct zbc_chain *chain, const struct zbc_api_config *cfg,
                  struct zbc_err *err)
{
    struct zbc_api *a = calloc(1, sizeof *a);
    if (a == NULL)
        return zbc_fail(err, "out of memory starting the API");
    a->chain = chain;
    a->cfg = *cfg;
    if (a->cfg.max_connections == 0)
        a->cfg.max_connections = ZBC_API_MAX_CONNECTIONS;
    if (a->cfg.request_timeout_s == 0)
        a->cfg.request_timeout_s = ZBC_API_REQUEST_TIMEOUT_S;
    if (a->cfg.sse_max_streams == 0)
        a->cfg.sse_max_streams = ZBC_SSE_MAX_STREAMS;
    if (a->cfg.sse_max_per_client == 0)
        a->cfg.sse_max_per_client = ZBC_SSE_MAX_PER_CLIENT;
    snprintf(a->version, sizeof a->version, "%s",
             cfg->version != NULL ? cfg->version : "");
    if (cfg->admin_token != NULL &&
        strlen(cfg->admin_token) == ZBC_API_TOKEN_HEX) {
        memcpy(a->token, cfg->admin_token, ZBC_API_TOKEN_HEX + 1);
        a->has_token = true;
    }
    a->http = evhttp_new(base);
    if (a->http == NULL) {
        free(a);
        return zbc_fail(err, "cannot create the HTTP server");
    }
    evhttp_set_max_body_size(a->http, (ev_ssize_t)ZBC_API_MAX_BODY);
    /* Read (and drop) an oversized body before answering 413, so the
     * client sees the answer instead of a reset connection. */
    evhttp_set_flags(a->http, EVHTTP_SERVER_LINGERING_CLOSE);
    evhttp_set_max_headers_size(a->http, API_MAX_HEADERS);
    /* Per read/write: the whole-request deadline is on_deadline's. */
    evhttp_set_timeout(a->http, (int)a->cfg.request_timeout_s);
    /* Every method evhttp parses reaches on_request, which closes the
     * connection after CONNECT and TRACE. */
    evhttp_set_allowed_methods(a->http, 0xffff);
    evhttp_set_gencb(a->http, on_request, a);
    evhttp_set_bevcb(a->http, on_accepted, a);
    a->adopt = event_new(base, -1, 0, on_adopt, a);
    a->backoff = evtimer_new(base, on_backoff_end, a);
    a->flush = event_new(base, -1, 0, on_flush, a);
    a->pend_tail = &a->pend_head;
    if (a->adopt == NULL || a->backoff == NULL || a->flush == NULL ||
        !zbc_sse_start(&a->sse, base, zbc_chain_store(chain),
                       a->cfg.sse_max_streams, a->cfg.sse_max_per_client,
                       err)) {
        bool oom = a->adopt == NULL || a->backoff == NULL || a->flush == NULL;
        if (a->flush != NULL)
            event_free(a->flush);
        if (a->adopt != NULL)
            event_free(a->adopt);
        if (a->backoff != NULL)
            event_free(a->backoff);
        evhttp_free(a->http);
        free(a);
        return oom ? zbc_fail(err, "out of memory starting the API") : 0;
    }
    const char *host = cfg->host != NULL ? cfg->host : "127.0.0.1";
    struct evhttp_bound_socket *bs =
        evhttp_bind_socket_with_handle(a->http, host, cfg->port);
    if (bs == NULL) {
        zbc_sse_stop(a->sse);
        evhttp_free(a->http);
        event_free(a->adopt);
        event_free(a->backoff);
        event_free(a->flush);
        free(a);
        return zbc_fail(err, "cannot listen on %s:%u (address in use or not "
                        "local?)", host, cfg->port);
    }
    a->listener = evhttp_bound_socket_get_listener(bs);
    a->listening = true;
    evconnlistener_set_error_cb(a->listener, on_accept_error);
    a->next_api = all_apis;
    all_apis = a;
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    evutil_socket_t fd = evhttp_bound_socket_get_fd(bs);
    a->port = cfg->port;
    if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0) {
        if (ss.ss_family == AF_INET)
            a->port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
        else if (ss.ss_family == AF_INET6)
            a->port = ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
    }
    zbc_log_info("api: listening on http://%s:%u", host, a->port);
    *out = a;
    return 1;
}

uint16_t zbc_api_port(const struct zbc_api *a)
{
    return a->port;
}

const struct zbc_sse *zbc_api_sse(const struct zbc_api *a)
{
    return a->sse;
}

size_t zbc_api_connections(const struct zbc_api *a)
{
    return a->n_conns;
}

bool zbc_api_accepting(const struct zbc_api *a)
{
    return a->listening;
}

void zbc_api_stop(struct zbc_api *a)
{
    if (a == NULL)
        return;
    for (struct zbc_api **p = &all_apis; *p != NULL; p = &(*p)->next_api) {
        if (*p == a) {
            *p = a->next_api;
            break;
        }
    }
    /* the waiting submissions are answered before their connections go */
    flush_submissions(a);
    event_free(a->flush);
    zbc_sse_stop(a->sse);
    a->sse = NULL;
    a->listener = NULL; /* evhttp_free frees it */
    evhttp_free(a->http); /* closes every connection: on_conn_close */
    /* accepted connections evhttp had not yet set up */
    while (a->conns != NULL) {
        struct conn *k = a->conns;
        a->conns = k->next;
        event_free(k->deadline);
        free(k);
    }
    event_free(a->adopt);
    event_free(a->backoff);
    sodium_memzero(a->token, sizeof a->token);
    free(a);
}
