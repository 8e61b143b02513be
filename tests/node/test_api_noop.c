/* A no-op in a block seen through the API: this node's producer leaves
 * no-ops out, but a block from another producer may carry one
 * (docs/protocol-apps.md section 1, "Valid, applicable, no-op").
 * Blocks are made by hand with the consensus apps fixture (a JoinApp of an
 * unknown app), applied by the node's chain, and the transaction status
 * must say applied false with the reason. */
#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "consensus/apps_fixture.h"
#include "node/zbcd/api.h"
#include "node/zbcd/chain.h"
#include "node/zbcd/log.h"
#include "testlib.h"

static struct fx f;
static struct event_base *base;
static struct zbc_chain *chain;
static struct zbc_api *api;
static char dir[64], ledger[96];

/* The queued transactions as the next block: state root from a trial run
 * on a copy of the fixture state, applied to the fixture, then given to
 * the node as bytes. */
static void next_block(void)
{
    struct zbc_err err = {{0}};
    uint64_t ts = f.tip.timestamp_ms + 1000;
    struct zbc_block b;
    uint8_t zero[32] = {0}, root[32];
    fx_hand_block(&b, ax_refs, &f, &f.val, ax_n, ts, zero);
    struct zbc_mem_kv *trial = zbc_mem_kv_clone(f.m);
    struct zbc_state t;
    struct zbc_events tev = {0};
    CHECK(zbc_state_open(&t, zbc_mem_kv(trial), &err));
    zbc_state_begin(&t);
    CHECK(zbc_apps_begin_block(&t, &f.g, b.header.height, b.header.seed, &tev,
                               &err));
    for (uint32_t i = 0; i < ax_n; i++) {
        struct zbc_checked_tx ct;
        CHECK(zbc_tx_check_stateless(&ct, &f.g, ax_refs[i].bytes,
                                     ax_refs[i].len, &err) &&
              zbc_tx_apply(&t, &f.g, &ct, i, b.header.height, ts, f.val.pk,
                           &tev, &err));
    }
    CHECK(zbc_ledger_set_height(&t, b.header.height, &err));
    zbc_state_root(&t, root);
    zbc_state_close(&t);
    zbc_mem_kv_free(trial);
    zbc_events_free(&tev);
    memcpy(b.header.state_root, root, 32);
    zbc_block_sign(&b.header, f.val.sk);
    uint8_t *bytes = NULL;
    size_t len = 0;
    CHECK(zbc_block_encode(&b, &bytes, &len, &err));
    struct zbc_block_info info;
    int ok = zbc_chain_apply_block(chain, bytes, len, ts, &info, &err);
    CHECK(ok);
    if (!ok)
        fprintf(stderr, "  node apply: %s\n", err.msg);
    struct zbc_undo u;
    struct zbc_events ev = {0};
    CHECK(zbc_block_validate_apply(&f.s, &f.g, &f.tip, &b, ts, &u, &ev, &err));
    zbc_parent_from_header(&f.tip, &b.header);
    zbc_undo_free(&u);
    zbc_events_free(&ev);
    free(bytes);
    ax_n = 0;
}

struct response {
    int status;
    json_t *json;
};

static void on_response(struct evhttp_request *req, void *arg)
{
    struct response *r = arg;
    r->status = req != NULL ? evhttp_request_get_response_code(req) : -1;
    if (req != NULL) {
        struct evbuffer *in = evhttp_request_get_input_buffer(req);
        size_t n = evbuffer_get_length(in);
        char *body = malloc(n + 1);
        evbuffer_remove(in, body, n);
        body[n] = '\0';
        r->json = json_loads(body, 0, NULL);
        free(body);
    }
    event_base_loopexit(base, NULL);
}

static void get(struct response *r, const char *path)
{
    memset(r, 0, sizeof *r);
    struct evhttp_connection *conn = evhttp_connection_base_new(
        base, NULL, "127.0.0.1", zbc_api_port(api));
    struct evhttp_request *req = evhttp_request_new(on_response, r);
    evhttp_add_header(evhttp_request_get_output_headers(req), "Host", "x");
    evhttp_make_request(conn, req, EVHTTP_REQ_GET, path);
    event_base_dispatch(base);
    evhttp_connection_free(conn);
}

static void test_noop_status(void)
{
    uint64_t before = fx_balance(&f, &f.a.addr);
    ax_create(&f, &f.a, 1, 100, 2, NULL, 0, NULL, FX_FEE);
    uint8_t create_hash[32], join_hash[32];
    ax_hash(create_hash, 0);
    next_block();
    ax_ref(&f, &f.a, ZBC_TX_APP_JOIN, 424242);
    ax_hash(join_hash, 0);
    next_block();
    /* the no-op cost nothing: only the create's stake and fee are gone */
    CHECK_EQ_INT((long long)fx_balance(&f, &f.a.addr),
                 (long long)(before - 100 - FX_FEE));

    char path[128], hex[65];
    struct response r;
    zbc_hex_encode(hex, join_hash, 32);
    snprintf(path, sizeof path, "/api/v1/transactions/%s/status", hex);
    get(&r, path);
    CHECK_EQ_INT(r.status, 200);
    CHECK_EQ_STR(json_string_value(json_object_get(r.json, "status")),
                 "confirmed");
    CHECK_EQ_INT(json_integer_value(json_object_get(r.json, "block_height")), 2);
    CHECK(json_is_false(json_object_get(r.json, "applied")));
    const char *why =
        json_string_value(json_object_get(r.json, "noop_reason"));
    CHECK(why != NULL && strstr(why, "unknown app 424242") != NULL);
    json_decref(r.json);
    snprintf(path, sizeof path, "/api/v1/transactions/%s", hex);
    get(&r, path);
    CHECK(json_is_false(json_object_get(r.json, "applied")));
    CHECK(json_is_string(json_object_get(r.json, "noop_reason")));
    json_decref(r.json);

    zbc_hex_encode(hex, create_hash, 32);
    snprintf(path, sizeof path, "/api/v1/transactions/%s/status", hex);
    get(&r, path);
    CHECK(json_is_true(json_object_get(r.json, "applied")));
    CHECK(json_object_get(r.json, "noop_reason") == NULL);
    json_decref(r.json);
}

int main(void)
{
    zbc_log_to_stderr(false);
    fx_init(&f);
    strcpy(dir, "/tmp/zbc_test_noop_XXXXXX");
    if (mkdtemp(dir) == NULL)
        return 2;
    snprintf(ledger, sizeof ledger, "%s/ledger", dir);
    mkdir(ledger, 0700);
    struct zbc_err err = {{0}};
    struct zbc_chain_config cfg = {.ledger_dir = ledger, .genesis = &f.g};
    if (!zbc_chain_open(&chain, &cfg, &err)) {
        fprintf(stderr, "chain open: %s\n", err.msg);
        return 2;
    }
    base = event_base_new();
    struct zbc_api_config acfg = {.host = "127.0.0.1", .version = "t"};
    if (!zbc_api_start(&api, base, chain, &acfg, &err)) {
        fprintf(stderr, "api start: %s\n", err.msg);
        return 2;
    }
    TEST_RUN(test_noop_status);
    zbc_api_stop(api);
    event_base_free(base);
    zbc_chain_close(chain);
    fx_free(&f);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "cleanup failed\n");
    return test_summary("node_api_noop");
}
