/* zbc-load: a load generator for a devnet (docs/load.md).
 *
 *   zbc-load run --node URL [--node URL …] [options]   offer a workload
 *   zbc-load accounts --senders N [--seed TEXT]          genesis balances
 *   zbc-load verify-rate [--seconds S] [--threads N]     all-core Ed25519
 *   zbc-load page-rate [--mib N]                         fresh-page cost
 *
 * `run` pre-signs the workload (transfers, dice bets, tic-tac-toe and
 * connect-4 creates; the games' joins pre-signed too, their moves signed
 * when the chain says whose turn it is), offers it over persistent HTTP/1.1
 * keep-alive connections to every node's POST /api/v1/transactions, open
 * loop (at a fixed rate whether or not answers came back) or closed loop
 * (N in flight), follows the first node's chain block by block to match
 * the transactions, and reports offered, accepted, refused (by class),
 * failed, included, inclusion latency, branch switches and each node's CPU
 * and RSS, as text or JSON.  Everything a node answers is treated as
 * hostile: a garbage answer or a closed connection is counted as a failed
 * send, never trusted. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <jansson.h>

#include "apps/engine.h"
#include "consensus/tx.h"
#include "consensus/tx_valid.h"
#include "crypto/bytes.h"
#include "crypto/hex.h"
#include "crypto/sig.h"
#include "node/bench/load_stats.h"
#include "node/bench/load_work.h"

#define NODES_MAX 16
#define CONNS_MAX 64          /* --conns */
#define INFLIGHT_MAX 16       /* --inflight */
/* connections per node: --conns x --inflight (a node takes 256 at most,
 * docs/api.md §8) */
#define NODE_CONNS_MAX 128
#define ANSWER_MAX (64 * 1024)        /* a submit answer */
#define BLOCK_ANSWER_MAX (64u << 20)  /* a block view */
#define APP_POLLS_PER_BLOCK 256
#define EXAMPLE_MAX 160

static void usage(FILE *f)
{
    fputs(
"usage: zbc-load run --node URL [--node URL ...] [options]\n"
"       zbc-load accounts --senders N [--seed TEXT]\n"
"       zbc-load verify-rate [--seconds S] [--threads N]\n"
"       zbc-load page-rate [--mib N]\n"
"\n"
"run: pre-signs a workload and offers it to every node's\n"
"POST /api/v1/transactions over persistent HTTP/1.1 connections, follows\n"
"the first node's chain and reports what became of each transaction\n"
"(docs/load.md).  The senders must be funded: 'zbc-load accounts' prints\n"
"their genesis balances for tests/integration/genesis.py --balance.\n"
"  --node URL         http://HOST:PORT of a node's API; repeat for each node\n"
"                     (sends go round-robin; the first node's chain is followed)\n"
"  --rate R           open loop: sends per second, 0.1..1000000 (default 100)\n"
"  --closed N         closed loop instead: keep N sends in flight (1..100000),\n"
"                     each answer starts the next (--rate is then ignored)\n"
"  --duration S       seconds of sending, 0.1..86400 (default 10)\n"
"  --count N          closed loop: pre-signed transactions (default 20000)\n"
"  --settle S         seconds to follow the chain after sending, until every\n"
"                     accepted transaction is in a block (default 15)\n"
"  --workload W       transfers (default) or mixed: SEND,BET,GAME percent,\n"
"                     e.g. mixed=60,20,20 (mixed alone: 60,20,20)\n"
"  --senders N        sender accounts, 2..100000 (default 1000)\n"
"  --seed TEXT        names the senders (default zbc-load; the same as for\n"
"                     'zbc-load accounts')\n"
"  --conns N          connections per node, 1..64 (default 8)\n"
"  --inflight N       requests in flight per connection, 1..16 (default 1),\n"
"                     each on a keep-alive connection of its own (libevent's\n"
"                     client does not pipeline): --conns x N connections\n"
"                     per node, at most 128\n"
"  --batch N          pre-signed transactions per request, 1..1000 (default\n"
"                     1: one body each); N > 1 sends JSON arrays, a batch\n"
"                     leaving when N are due or 10 ms after its first\n"
"  --backlog N        open loop: most sends queued on one connection before\n"
"                     a due send is counted unsent (default 64)\n"
"  --timeout S        seconds for one answer, 1..300 (default 30)\n"
"  --pid PID          the process of the node given at the same position\n"
"                     (repeat in --node order): its CPU, RSS and storage\n"
"                     writes (/proc/PID/io write_bytes) are reported\n"
"  --log FILE         the log of the node at the same position: its new\n"
"                     'reorg:' lines are counted as branch switches\n"
"  --json             one JSON object instead of text\n"
"  --quiet            no progress lines on stderr\n"
"accounts: one line per sender, ADDRESS=UNITS (1000 ZBC each).\n"
"verify-rate: Ed25519 verifications per second on all cores (or --threads),\n"
"  for S seconds (default 2), the same check zbcd runs per transaction.\n"
"page-rate: what touching fresh memory costs here, in us a page: --mib N\n"
"  MiB (default 512, 16..1048576, at most half the machine's memory) mapped\n"
"  anonymous without huge pages and written a byte a page, then the same\n"
"  again at once.  Where the first is much the higher, freed memory went\n"
"  back to a virtual machine's host, and every page the nodes' page cache\n"
"  grows into costs that (docs/load.md §5).\n"
"Exit status: 0 done (the report says what happened), 1 a run that could\n"
"not start (node unreachable, different chains), 2 a usage error.\n",
        f);
}

static double mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

__attribute__((format(printf, 1, 2), noreturn))
static void die_usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "zbc-load: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (zbc-load --help lists the options)\n");
    va_end(ap);
    exit(2);
}

/* ---------------------------------------------------------------- state */

/* Reasons of a whole-request refusal (the answer's "reason"). */
enum { WHOLE_FULL, WHOLE_BUSY, WHOLE_OTHER, WHOLE_REASONS };
static const char *const whole_names[WHOLE_REASONS] = {
    "mempool_full", "block_due", "other"};

enum tx_state {
    TX_UNSENT = 0, TX_INFLIGHT, TX_ACCEPTED, TX_REFUSED, TX_FAILED, TX_SKIPPED
};

struct rec {
    double t_send;       /* wall seconds when handed to the connection */
    double t_due;        /* wall seconds when it was due */
    double t_answer;     /* wall seconds when the node answered */
    uint32_t inc_height; /* 0: not in the followed chain */
    uint8_t state;       /* enum tx_state */
    uint8_t node;
};

struct conn {
    struct evhttp_connection *c;
    unsigned queued; /* requests handed to it and not answered */
};

struct node {
    const char *url;
    char host[256];
    uint16_t port;
    struct conn conns[NODE_CONNS_MAX];
    unsigned rr;
    struct evhttp_connection *info_conn;
    /* the games' app reads, of the games played at this node */
    struct evhttp_connection *apps_conn;
    bool info_pending;
    uint32_t height;
    uint64_t mempool_size;
    bool info_ok;
    uint64_t info_failures;
    char info_error[EXAMPLE_MAX];
    long pid;
    const char *log;
    long log_off0;
    double cpu0, cpu1; /* seconds of CPU */
    long rss_kb, rss_max_kb;
    bool proc_ok;
    /* bytes the node sent to storage (/proc/PID/io write_bytes): at the
     * start of the sending, its middle and its end */
    uint64_t wr0, wr_mid, wr1;
    bool io_ok, io_mid;
    uint64_t sent, accepted, refused, failed;
    uint64_t log_reorgs;
    /* node/info "forks".branch_switches: at the first answer and the last */
    bool has_switches;
    uint64_t switches0, switches;
};

struct game {
    uint32_t create;    /* tx index of the create */
    uint32_t join;      /* tx index of the join */
    uint32_t move;      /* tx index of the last move sent, UINT32_MAX none */
    uint32_t joined_at; /* height of the join, 0 not yet */
    uint8_t type;
    bool done, polling;
};

/* A block of the followed chain. */
struct followed {
    uint8_t hash[32];
    double ts;     /* its timestamp, seconds */
    uint32_t ours; /* our transactions in it */
    uint32_t all;  /* every transaction in it */
};

struct req_ctx {
    struct run *r;
    uint32_t idx;
    uint32_t n;     /* transactions idx .. idx + n - 1; a batch when > 1 */
    bool batch;     /* sent as a JSON array (--batch > 1) */
    uint8_t node;
    uint16_t conn;
    enum evhttp_request_error error;
    bool has_error;
};

struct run {
    struct event_base *base;
    struct node nodes[NODES_MAX];
    unsigned n_nodes, conns_per_node, backlog, closed, timeout_s, batch;
    /* --inflight: requests in flight per connection slot, each on a
     * keep-alive connection of its own; n_conns = conns x that */
    unsigned per_conn, n_conns;
    /* open loop with --batch: due sends not yet handed to a connection */
    uint32_t pend_start, pend_n;
    double pend_since;
    double rate, duration, settle;
    uint64_t count;
    struct zbc_load_mix mix;
    bool mixed, json, quiet;
    const char *seed;
    uint32_t n_keys;
    struct zbc_load_key *keys;
    struct zbc_load_chain chain;
    int64_t ts;

    struct zbc_load_tx *txs;
    struct rec *recs;
    uint32_t n_txs, cap_txs, n_workload; /* the pre-signed part: [0, n_workload) */
    uint32_t next_send;                   /* next pre-signed index to send */
    uint32_t *ht;                         /* hash -> index + 1 */
    uint32_t ht_mask;

    struct game *games;
    uint32_t n_games;
    uint32_t poll_next; /* game_on_block's first game to poll */

    struct zbc_load_sched sched;
    double t_start, t_end, wall_start, wall_end, wall_end_planned;
    double self_cpu0;
    bool sending, stopping;
    uint64_t offered, late, unsent, inflight;
    uint64_t accepted, duplicates, refused, failed;
    uint64_t refusals[ZBC_LOAD_REF_COUNT];
    /* requests refused whole (a batch's non-200 answer, or a single
     * submission's 503 with a "reason"): requests and transactions by
     * the answer's "reason" (docs/api.md §3 "Overload") */
    uint64_t whole_req[WHOLE_REASONS], whole_txs[WHOLE_REASONS];
    char refusal_example[ZBC_LOAD_REF_COUNT][EXAMPLE_MAX];
    uint64_t fail_conn, fail_timeout, fail_answer;
    char fail_example[EXAMPLE_MAX];

    /* the followed chain (node 0) */
    uint32_t h_base;  /* tip when the run started: blocks above it are followed */
    uint32_t h_next;  /* next height to fetch */
    bool rewinding;
    bool block_pending;
    struct followed *blk; /* by height - h_base */
    uint32_t h_cap;
    uint64_t switches, switch_depth_max, block_fetch_failures;
    uint64_t included;
    unsigned apps_pending;
    struct event *tick, *follow_tick;
    /* the status of accepted transactions not in the followed chain */
    uint64_t lost_checked, lost_pooled, lost_dropped, lost_confirmed,
        lost_unknown, lost_unanswered;
    unsigned lost_pending;
    char dropped_example[EXAMPLE_MAX];
    uint64_t bad_blocks;
    char block_error[EXAMPLE_MAX];
};

static struct run R;

static void set_example(char *dst, const char *src)
{
    if (dst[0] == 0 && src != NULL) {
        snprintf(dst, EXAMPLE_MAX, "%s", src);
        for (char *p = dst; *p; p++)
            if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
                *p = '?';
    }
}

/* ----------------------------------------------------------- hash table */

static uint64_t hkey(const uint8_t h[32])
{
    return zbc_get_le64(h);
}

static int ht_grow(struct run *r);

static int ht_put(struct run *r, uint32_t idx)
{
    if ((uint64_t)(r->n_txs) * 2 > r->ht_mask && !ht_grow(r))
        return 0;
    uint32_t i = (uint32_t)hkey(r->txs[idx].hash) & r->ht_mask;
    while (r->ht[i] != 0)
        i = (i + 1) & r->ht_mask;
    r->ht[i] = idx + 1;
    return 1;
}

static int ht_grow(struct run *r)
{
    uint32_t size = (r->ht_mask + 1) * 2;
    uint32_t *n = calloc(size, sizeof *n);
    if (n == NULL)
        return 0;
    uint32_t *old = r->ht;
    uint32_t old_size = r->ht_mask + 1;
    r->ht = n;
    r->ht_mask = size - 1;
    for (uint32_t i = 0; i < old_size; i++)
        if (old[i] != 0) {
            uint32_t j = (uint32_t)hkey(r->txs[old[i] - 1].hash) & r->ht_mask;
            while (r->ht[j] != 0)
                j = (j + 1) & r->ht_mask;
            r->ht[j] = old[i];
        }
    free(old);
    return 1;
}

static bool ht_find(const struct run *r, const uint8_t h[32], uint32_t *idx)
{
    uint32_t i = (uint32_t)hkey(h) & r->ht_mask;
    while (r->ht[i] != 0) {
        if (memcmp(r->txs[r->ht[i] - 1].hash, h, 32) == 0) {
            *idx = r->ht[i] - 1;
            return true;
        }
        i = (i + 1) & r->ht_mask;
    }
    return false;
}

/* Appends a signed transaction; returns its index or UINT32_MAX. */
static uint32_t add_tx(struct run *r, struct zbc_load_tx *t)
{
    if (r->n_txs == r->cap_txs) {
        uint32_t cap = r->cap_txs ? r->cap_txs * 2 : 1024;
        struct zbc_load_tx *nt = realloc(r->txs, cap * sizeof *nt);
        if (nt == NULL)
            return UINT32_MAX;
        r->txs = nt;
        struct rec *nr = realloc(r->recs, cap * sizeof *nr);
        if (nr == NULL)
            return UINT32_MAX;
        r->recs = nr;
        r->cap_txs = cap;
    }
    uint32_t idx = r->n_txs++;
    r->txs[idx] = *t;
    memset(&r->recs[idx], 0, sizeof r->recs[idx]);
    if (!ht_put(r, idx)) {
        r->n_txs--;
        return UINT32_MAX;
    }
    return idx;
}

/* ------------------------------------------------------ HTTP: one answer */

static bool read_body(struct evhttp_request *req, char **out, size_t *len,
                      size_t max)
{
    struct evbuffer *b = evhttp_request_get_input_buffer(req);
    size_t n = b != NULL ? evbuffer_get_length(b) : 0;
    if (n > max)
        return false;
    char *s = malloc(n + 1);
    if (s == NULL)
        return false;
    if (n > 0)
        evbuffer_copyout(b, s, n);
    s[n] = 0;
    *out = s;
    *len = n;
    return true;
}

static const char *req_error_text(enum evhttp_request_error e)
{
    switch (e) {
    case EVREQ_HTTP_TIMEOUT: return "no answer within the timeout";
    case EVREQ_HTTP_EOF: return "the node closed the connection";
    case EVREQ_HTTP_INVALID_HEADER: return "the answer is not valid HTTP";
    case EVREQ_HTTP_BUFFER_ERROR: return "connection error";
    case EVREQ_HTTP_REQUEST_CANCEL: return "request cancelled";
    case EVREQ_HTTP_DATA_TOO_LONG: return "the answer is too long";
    }
    return "connection error";
}

static void on_req_error(enum evhttp_request_error e, void *arg)
{
    struct req_ctx *x = arg;
    x->error = e;
    x->has_error = true;
}

static struct evhttp_request *new_request(void (*cb)(struct evhttp_request *,
                                                     void *),
                                          struct req_ctx *x, const char *host)
{
    struct evhttp_request *req = evhttp_request_new(cb, x);
    if (req == NULL)
        return NULL;
    evhttp_request_set_error_cb(req, on_req_error);
    struct evkeyvalq *h = evhttp_request_get_output_headers(req);
    evhttp_add_header(h, "Host", host);
    evhttp_add_header(h, "Connection", "keep-alive");
    return req;
}

static struct evhttp_connection *new_conn(struct run *r, struct node *n)
{
    struct evhttp_connection *c =
        evhttp_connection_base_new(r->base, NULL, n->host, n->port);
    if (c != NULL) {
        evhttp_connection_set_timeout(c, (int)r->timeout_s);
        evhttp_connection_set_retries(c, 0);
        evhttp_connection_set_max_body_size(c, BLOCK_ANSWER_MAX);
    }
    return c;
}

/* -------------------------------------------------------------- sending */

static void send_next_closed(struct run *r);
static bool proc_sample(struct node *n, double *cpu_s, long *rss_kb);
static bool io_sample(const struct node *n, uint64_t *write_bytes);

/* The end of the sending time: the nodes' CPU is measured over it. */
static void stop_sending(struct run *r)
{
    if (!r->sending)
        return;
    r->sending = false;
    r->wall_end = wall_now();
    for (unsigned i = 0; i < r->n_nodes; i++) {
        struct node *n = &r->nodes[i];
        long rss;
        if (n->proc_ok)
            n->proc_ok = proc_sample(n, &n->cpu1, &rss);
        if (n->io_ok)
            n->io_ok = io_sample(n, &n->wr1);
    }
}

static void count_failure(struct run *r, struct node *n, const char *why,
                          bool timeout, bool answer)
{
    r->failed++;
    n->failed++;
    if (timeout)
        r->fail_timeout++;
    else if (answer)
        r->fail_answer++;
    else
        r->fail_conn++;
    set_example(r->fail_example, why);
}

static void refuse(struct run *r, struct node *n, struct rec *rec, int code,
                   const char *e)
{
    enum zbc_load_refusal c = zbc_load_refusal_class(code, e);
    rec->state = TX_REFUSED;
    r->refused++;
    n->refused++;
    r->refusals[c]++;
    set_example(r->refusal_example[c], e);
}

/* The answer j (code: its HTTP status, or a batch element's "code") to
 * transaction idx; body: the raw answer for an example. */
static void note_answer(struct run *r, struct node *n, uint32_t idx, int code,
                        const json_t *j, const char *body)
{
    struct rec *rec = &r->recs[idx];
    rec->t_answer = wall_now();
    if (code == 202) {
        const char *th = json_is_object(j)
            ? json_string_value(json_object_get(j, "transaction_hash"))
            : NULL;
        char want[65];
        zbc_hex_encode(want, r->txs[idx].hash, 32);
        if (th == NULL || strcasecmp(th, want) != 0) {
            rec->state = TX_FAILED;
            count_failure(r, n, "a 202 answer that does not name the "
                          "transaction's hash", false, true);
        } else {
            rec->state = TX_ACCEPTED;
            r->accepted++;
            n->accepted++;
            if (json_is_true(json_object_get(j, "duplicate")))
                r->duplicates++;
        }
        return;
    }
    const char *e = json_is_object(j)
        ? json_string_value(json_object_get(j, "error")) : NULL;
    if (e == NULL) {
        char why[EXAMPLE_MAX];
        snprintf(why, sizeof why, "HTTP %d without a JSON error: %.80s", code,
                 body);
        rec->state = TX_FAILED;
        count_failure(r, n, why, false, true);
    } else {
        refuse(r, n, rec, code, e);
    }
}

/* A batch's answer: 200 with one element per transaction, each with its
 * code; a refusal of the whole batch (its JSON error) refuses each. */
static void note_batch_answer(struct run *r, struct node *n,
                              const struct req_ctx *x, int code,
                              const json_t *j, const char *body)
{
    bool shaped = code == 200 && json_is_array(j) &&
                  json_array_size(j) == x->n;
    for (uint32_t i = 0; i < x->n; i++) {
        struct rec *rec = &r->recs[x->idx + i];
        if (shaped) {
            const json_t *el = json_array_get(j, i);
            json_int_t ec = json_integer_value(json_object_get(el, "code"));
            if (ec < 100 || ec > 599) {
                rec->state = TX_FAILED;
                count_failure(r, n, "a batch answer's element without a "
                              "status code", false, true);
            } else {
                note_answer(r, n, x->idx + i, (int)ec, el, body);
            }
        } else if (code != 200) {
            note_answer(r, n, x->idx + i, code, j, body);
        } else {
            rec->state = TX_FAILED;
            count_failure(r, n, "a batch answer that is not an array of one "
                          "answer per transaction", false, true);
        }
    }
}

static void on_submit(struct evhttp_request *req, void *arg)
{
    struct req_ctx *x = arg;
    struct run *r = x->r;
    struct node *n = &r->nodes[x->node];
    if (n->conns[x->conn].queued > 0)
        n->conns[x->conn].queued--;
    r->inflight -= x->n;
    int code = req != NULL ? evhttp_request_get_response_code(req) : 0;
    char *body = NULL;
    size_t len = 0;
    size_t cap = ANSWER_MAX + (x->batch ? (size_t)x->n * 512 : 0);
    if (code == 0) {
        for (uint32_t i = 0; i < x->n; i++) {
            r->recs[x->idx + i].state = TX_FAILED;
            count_failure(r, n,
                          x->has_error ? req_error_text(x->error)
                                       : "connection error",
                          x->has_error && x->error == EVREQ_HTTP_TIMEOUT,
                          false);
        }
    } else if (!read_body(req, &body, &len, cap)) {
        for (uint32_t i = 0; i < x->n; i++) {
            r->recs[x->idx + i].state = TX_FAILED;
            count_failure(r, n, "the answer is too long for its transactions",
                          false, true);
        }
    } else {
        json_error_t je;
        json_t *j = json_loadb(body, len, 0, &je);
        const char *why = json_is_object(j)
            ? json_string_value(json_object_get(j, "reason")) : NULL;
        if ((x->batch && code != 200) || (code == 503 && why != NULL)) {
            int w = why == NULL ? WHOLE_OTHER
                    : strcmp(why, "mempool_full") == 0 ? WHOLE_FULL
                    : strcmp(why, "block_due") == 0 ? WHOLE_BUSY
                    : WHOLE_OTHER;
            r->whole_req[w]++;
            r->whole_txs[w] += x->n;
        }
        if (x->batch)
            note_batch_answer(r, n, x, code, j, body);
        else
            note_answer(r, n, x->idx, code, j, body);
        json_decref(j);
    }
    free(body);
    free(x);
    if (r->closed != 0)
        send_next_closed(r);
}

/* The request body: one transaction's, or a batch's JSON array. */
static bool add_body(struct run *r, struct evbuffer *out, uint32_t idx,
                     uint32_t n, bool batch)
{
    if (batch && evbuffer_add(out, "[", 1) != 0)
        return false;
    for (uint32_t i = 0; i < n; i++) {
        struct zbc_load_tx *t = &r->txs[idx + i];
        char *hex = malloc(2 * (size_t)t->len + 1);
        if (hex == NULL)
            return false;
        zbc_hex_encode(hex, t->bytes, t->len);
        int rc = evbuffer_add_printf(out, "%s{\"transaction_bytes\":\"%s\"}",
                                     i > 0 ? "," : "", hex);
        free(hex);
        if (rc < 0)
            return false;
    }
    return !batch || evbuffer_add(out, "]", 1) == 0;
}

/* Hands transactions idx .. idx + n - 1 to a connection of node ni, as one
 * request (a batch when --batch > 1); false when none can take them. */
static bool send_txs(struct run *r, uint32_t idx, uint32_t n_tx, unsigned ni,
                     bool open_loop)
{
    struct node *n = &r->nodes[ni];
    unsigned best = 0;
    for (unsigned i = 0; i < r->n_conns; i++) {
        unsigned c = (n->rr + i) % r->n_conns;
        if (n->conns[c].queued < n->conns[best].queued || i == 0)
            best = c;
        if (n->conns[c].queued == 0) {
            best = c;
            break;
        }
    }
    n->rr = (best + 1) % r->n_conns;
    struct conn *c = &n->conns[best];
    if (open_loop && c->queued >= r->backlog)
        return false;
    if (open_loop && c->queued > 0)
        r->late += n_tx;
    struct req_ctx *x = calloc(1, sizeof *x);
    if (x == NULL)
        return false;
    x->r = r;
    x->idx = idx;
    x->n = n_tx;
    x->batch = r->batch > 1;
    x->node = (uint8_t)ni;
    x->conn = (uint16_t)best;
    struct evhttp_request *req = new_request(on_submit, x, n->host);
    if (req == NULL) {
        free(x);
        return false;
    }
    if (!add_body(r, evhttp_request_get_output_buffer(req), idx, n_tx,
                  x->batch)) {
        evhttp_request_free(req);
        free(x);
        return false;
    }
    evhttp_add_header(evhttp_request_get_output_headers(req), "Content-Type",
                      "application/json");
    double now = wall_now();
    for (uint32_t i = 0; i < n_tx; i++) {
        r->recs[idx + i].state = TX_INFLIGHT;
        r->recs[idx + i].node = (uint8_t)ni;
        r->recs[idx + i].t_send = now;
    }
    if (evhttp_make_request(c->c, req, EVHTTP_REQ_POST,
                            "/api/v1/transactions") != 0) {
        /* libevent freed the request */
        free(x);
        for (uint32_t i = 0; i < n_tx; i++) {
            r->recs[idx + i].state = TX_FAILED;
            count_failure(r, n, "could not start the request", false, false);
        }
        return true;
    }
    c->queued++;
    r->inflight += n_tx;
    n->sent += n_tx;
    return true;
}

static bool send_tx(struct run *r, uint32_t idx, unsigned ni, bool open_loop)
{
    return send_txs(r, idx, 1, ni, open_loop);
}

static unsigned next_node(struct run *r)
{
    static unsigned rr;
    return rr++ % r->n_nodes;
}

static void send_next_closed(struct run *r)
{
    while (r->sending && r->inflight < r->closed &&
           r->next_send < r->n_workload) {
        if (mono_now() >= r->t_end) {
            stop_sending(r);
            break;
        }
        uint32_t idx = r->next_send;
        uint64_t n = r->batch;
        if (n > r->closed - r->inflight)
            n = r->closed - r->inflight;
        if (n > r->n_workload - idx)
            n = r->n_workload - idx;
        r->next_send += (uint32_t)n;
        r->offered += n;
        double now = wall_now();
        for (uint32_t i = 0; i < n; i++)
            r->recs[idx + i].t_due = now;
        if (!send_txs(r, idx, (uint32_t)n, next_node(r), false))
            for (uint32_t i = 0; i < n; i++) {
                r->recs[idx + i].state = TX_FAILED;
                count_failure(r, &r->nodes[0], "out of memory building a "
                              "request", false, false);
            }
    }
}

/* Open loop with --batch: hands the pending due sends to a node as one
 * batch; those no connection takes are unsent. */
static void flush_pending(struct run *r)
{
    if (r->pend_n == 0)
        return;
    if (!send_txs(r, r->pend_start, r->pend_n, next_node(r), true))
        for (uint32_t i = 0; i < r->pend_n; i++) {
            r->recs[r->pend_start + i].state = TX_SKIPPED;
            r->unsent++;
        }
    r->pend_n = 0;
}

static void on_tick(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct run *r = arg;
    if (!r->sending)
        return;
    double now = mono_now();
    if (r->closed != 0) {
        if (now >= r->t_end || r->next_send >= r->n_workload)
            stop_sending(r);
        else
            send_next_closed(r);
        return;
    }
    uint64_t due = zbc_load_sched_take(&r->sched, now);
    double wall = wall_now();
    for (uint64_t i = 0; i < due; i++) {
        uint32_t idx = r->next_send++;
        r->offered++;
        r->recs[idx].t_due = wall;
        if (r->batch > 1) {
            if (r->pend_n == 0) {
                r->pend_start = idx;
                r->pend_since = now;
            }
            if (++r->pend_n == r->batch)
                flush_pending(r);
        } else if (!send_tx(r, idx, next_node(r), true)) {
            r->recs[idx].state = TX_SKIPPED;
            r->unsent++;
        }
    }
    bool last = r->sched.issued >= r->sched.total || now >= r->t_end;
    if (r->pend_n > 0 && (last || now - r->pend_since >= 0.010))
        flush_pending(r);
    if (last)
        stop_sending(r);
}

/* ------------------------------------------------------ /proc of a node */

static double self_cpu(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* Reads /proc/PID/NAME of node n into buf (at most cap - 1 bytes, then a
 * NUL); the bytes read, or -1 when there is no pid or no such file. */
static long read_proc(const struct node *n, const char *name, char *buf,
                      size_t cap)
{
    if (n->pid <= 0)
        return -1;
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/%s", n->pid, name);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    size_t got = fread(buf, 1, cap - 1, f);
    fclose(f);
    buf[got] = 0;
    return (long)got;
}

static bool proc_sample(struct node *n, double *cpu_s, long *rss_kb)
{
    char buf[1024];
    if (read_proc(n, "stat", buf, sizeof buf) < 0)
        return false;
    /* fields after the ")" of comm: state is field 3, utime 14, stime 15,
     * rss 24 (pages) */
    char *p = strrchr(buf, ')');
    if (p == NULL)
        return false;
    unsigned long long utime = 0, stime = 0;
    long rss = 0;
    if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu "
               "%*d %*d %*d %*d %*d %*d %*u %*u %ld", &utime, &stime,
               &rss) != 3)
        return false;
    long tck = sysconf(_SC_CLK_TCK);
    *cpu_s = (double)(utime + stime) / (double)(tck > 0 ? tck : 100);
    *rss_kb = rss * (sysconf(_SC_PAGESIZE) / 1024);
    return true;
}

/* write_bytes of /proc/PID/io: what the node caused to be sent to storage
 * (its ledger's pages, its logs), counted when a folio is dirtied; not its
 * sockets' writes (docs/load.md §4). */
static bool io_sample(const struct node *n, uint64_t *write_bytes)
{
    char buf[1024];
    long got = read_proc(n, "io", buf, sizeof buf);
    return got >= 0 &&
           zbc_load_parse_write_bytes(buf, (size_t)got, write_bytes) == 1;
}

static long file_size(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n;
}

static uint64_t count_reorgs(const char *path, long from)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 0;
    if (from > 0)
        fseek(f, from, SEEK_SET);
    char line[4096];
    uint64_t n = 0;
    while (fgets(line, sizeof line, f) != NULL)
        if (strstr(line, " reorg: height ") != NULL)
            n++;
    fclose(f);
    return n;
}

/* --------------------------------------------------- following the chain */

static void fetch_block(struct run *r);
static void game_on_block(struct run *r, uint32_t height);

static bool grow_heights(struct run *r, uint32_t need)
{
    if (need < r->h_cap)
        return true;
    uint32_t cap = r->h_cap ? r->h_cap * 2 : 1024;
    while (cap <= need)
        cap *= 2;
    struct followed *a = realloc(r->blk, cap * sizeof *a);
    if (a == NULL)
        return false;
    r->blk = a;
    memset(&a[r->h_cap], 0, (cap - r->h_cap) * sizeof *a);
    r->h_cap = cap;
    return true;
}

/* Forgets the followed blocks above height `keep` (a branch switch). */
static void unfollow_above(struct run *r, uint32_t keep)
{
    for (uint32_t i = 0; i < r->n_txs; i++)
        if (r->recs[i].inc_height > keep) {
            r->recs[i].inc_height = 0;
            r->included--;
        }
    for (uint32_t h = keep + 1; h - r->h_base < r->h_cap; h++)
        memset(&r->blk[h - r->h_base], 0, sizeof r->blk[0]);
}

static void block_failed(struct run *r, const char *why)
{
    r->block_fetch_failures++;
    set_example(r->block_error, why);
}

static void on_block(struct evhttp_request *req, void *arg)
{
    struct req_ctx *x = arg;
    struct run *r = x->r;
    uint32_t h = x->idx;
    r->block_pending = false;
    int code = req != NULL ? evhttp_request_get_response_code(req) : 0;
    char *body = NULL;
    size_t len = 0;
    json_t *j = NULL;
    if (code == 0) {
        block_failed(r, x->has_error ? req_error_text(x->error)
                                     : "connection error");
        goto out;
    }
    if (code == 404)
        goto out; /* not there yet (the tip moved back) */
    if (code != 200 || !read_body(req, &body, &len, BLOCK_ANSWER_MAX)) {
        block_failed(r, "GET /api/v1/blocks/<height> did not answer 200");
        goto out;
    }
    json_error_t je;
    j = json_loadb(body, len, 0, &je);
    const char *bh = json_string_value(json_object_get(j, "block_hash"));
    const char *ph =
        json_string_value(json_object_get(j, "previous_block_hash"));
    json_t *ts = json_object_get(j, "timestamp");
    json_t *list = json_object_get(j, "transactions");
    uint8_t hash[32], prev[32];
    if (!json_is_object(j) || bh == NULL || ph == NULL ||
        !json_is_integer(ts) || !json_is_array(list) ||
        json_integer_value(json_object_get(j, "height")) != (json_int_t)h ||
        !zbc_hex_decode_exact(hash, 32, bh) ||
        !zbc_hex_decode_exact(prev, 32, ph)) {
        r->bad_blocks++;
        block_failed(r, "a block view without a height, block_hash, "
                        "previous_block_hash, timestamp or transactions");
        goto out;
    }
    if (!grow_heights(r, h - r->h_base + 1)) {
        block_failed(r, "out of memory");
        goto out;
    }
    uint32_t k = h - r->h_base;
    if (r->rewinding) {
        if (memcmp(r->blk[k].hash, hash, 32) == 0 || h == r->h_base + 1) {
            /* the branches meet here (or at the start): follow from above */
            bool same = memcmp(r->blk[k].hash, hash, 32) == 0;
            unfollow_above(r, same ? h : h - 1);
            r->rewinding = false;
            r->h_next = same ? h + 1 : h;
        } else {
            r->h_next = h - 1;
        }
        goto out;
    }
    if (h > r->h_base + 1 && memcmp(r->blk[k - 1].hash, prev, 32) != 0) {
        /* the node is on another branch than the one followed */
        r->switches++;
        r->rewinding = true;
        r->h_next = h - 1;
        goto out;
    }
    memcpy(r->blk[k].hash, hash, 32);
    r->blk[k].ts = (double)json_integer_value(ts) / 1000.0;
    r->blk[k].all = (uint32_t)json_array_size(list);
    uint32_t ours = 0;
    for (size_t i = 0; i < json_array_size(list); i++) {
        const char *th = json_string_value(json_array_get(list, i));
        uint8_t t[32];
        uint32_t idx;
        if (th == NULL || !zbc_hex_decode_exact(t, 32, th))
            continue;
        if (!ht_find(r, t, &idx) || r->recs[idx].inc_height != 0)
            continue;
        r->recs[idx].inc_height = h;
        r->included++;
        ours++;
    }
    r->blk[k].ours = ours;
    r->h_next = h + 1;
    game_on_block(r, h);
out:
    json_decref(j);
    free(body);
    free(x);
    fetch_block(r);
}

static void fetch_block(struct run *r)
{
    struct node *n0 = &r->nodes[0];
    if (r->stopping || r->block_pending || r->h_next > n0->height || r->h_next <= r->h_base)
        return;
    struct req_ctx *x = calloc(1, sizeof *x);
    if (x == NULL)
        return;
    x->r = r;
    x->idx = r->h_next;
    struct evhttp_request *req = new_request(on_block, x, n0->host);
    if (req == NULL) {
        free(x);
        return;
    }
    char path[64];
    /* no events: the hashes are all it reads, and a block of transfers
     * with its events is ten times the bytes to build and parse */
    snprintf(path, sizeof path, "/api/v1/blocks/%" PRIu32 "?events=false",
             r->h_next);
    r->block_pending = true;
    if (evhttp_make_request(n0->info_conn, req, EVHTTP_REQ_GET, path) != 0) {
        r->block_pending = false;
        free(x);
    }
}

static void on_info(struct evhttp_request *req, void *arg)
{
    struct req_ctx *x = arg;
    struct run *r = x->r;
    struct node *n = &r->nodes[x->node];
    n->info_pending = false;
    int code = req != NULL ? evhttp_request_get_response_code(req) : 0;
    char *body = NULL;
    size_t len = 0;
    json_t *j = NULL;
    if (code != 200 || !read_body(req, &body, &len, ANSWER_MAX)) {
        n->info_failures++;
        set_example(n->info_error,
                    code == 0 ? (x->has_error ? req_error_text(x->error)
                                              : "connection error")
                              : "node/info did not answer 200");
        goto out;
    }
    json_error_t je;
    j = json_loadb(body, len, 0, &je);
    json_t *h = json_object_get(j, "height");
    if (!json_is_integer(h) || json_integer_value(h) < 0 ||
        json_integer_value(h) > UINT32_MAX) {
        n->info_failures++;
        set_example(n->info_error, "node/info without a height");
        goto out;
    }
    n->height = (uint32_t)json_integer_value(h);
    json_t *sw = json_object_get(json_object_get(j, "forks"), "branch_switches");
    if (json_is_integer(sw) && json_integer_value(sw) >= 0) {
        n->switches = (uint64_t)json_integer_value(sw);
        if (!n->has_switches)
            n->switches0 = n->switches;
        n->has_switches = true;
    }
    json_t *mp = json_object_get(j, "mempool_size");
    n->mempool_size = json_is_integer(mp) ? (uint64_t)json_integer_value(mp)
                                          : 0;
    n->info_ok = true;
out:
    json_decref(j);
    free(body);
    bool first = x->node == 0;
    free(x);
    if (first)
        fetch_block(r);
}

static void poll_info(struct run *r, unsigned ni)
{
    struct node *n = &r->nodes[ni];
    if (n->info_pending)
        return;
    struct req_ctx *x = calloc(1, sizeof *x);
    if (x == NULL)
        return;
    x->r = r;
    x->node = (uint8_t)ni;
    struct evhttp_request *req = new_request(on_info, x, n->host);
    if (req == NULL) {
        free(x);
        return;
    }
    n->info_pending = true;
    if (evhttp_make_request(n->info_conn, req, EVHTTP_REQ_GET,
                            "/api/v1/node/info") != 0) {
        n->info_pending = false;
        free(x);
    }
}

static void on_follow_tick(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct run *r = arg;
    for (unsigned i = 0; i < r->n_nodes; i++) {
        poll_info(r, i);
        struct node *n = &r->nodes[i];
        double cpu;
        long rss;
        if (proc_sample(n, &cpu, &rss)) {
            n->rss_kb = rss;
            if (rss > n->rss_max_kb)
                n->rss_max_kb = rss;
        }
        if (n->io_ok && !n->io_mid && r->sending &&
            mono_now() >= r->t_start + r->duration / 2)
            n->io_mid = io_sample(n, &n->wr_mid);
    }
    double now = mono_now();
    double end = r->wall_end > 0 ? r->t_end - (r->wall_end_planned - r->wall_end)
                                 : r->t_end;
    bool all_in = r->included >= r->accepted && r->inflight == 0;
    /* the chain followed up to node 0's tip, or 30 s more to get there */
    bool caught_up = r->h_next > r->nodes[0].height || !r->nodes[0].info_ok;
    if (!r->sending && !r->stopping &&
        ((now >= end + r->settle && (caught_up || now >= end + r->settle + 30)) ||
         (all_in && now >= end + 1.0))) {
        r->stopping = true;
        event_base_loopexit(r->base, NULL);
    }
}

/* ---------------------------------------------------------------- games */

static void on_app(struct evhttp_request *req, void *arg)
{
    struct req_ctx *x = arg;
    struct run *r = x->r;
    struct game *g = &r->games[x->idx];
    g->polling = false;
    if (r->apps_pending > 0)
        r->apps_pending--;
    int code = req != NULL ? evhttp_request_get_response_code(req) : 0;
    char *body = NULL;
    size_t len = 0;
    json_t *j = NULL;
    if (code != 200 || !read_body(req, &body, &len, BLOCK_ANSWER_MAX))
        goto out;
    json_error_t je;
    j = json_loadb(body, len, 0, &je);
    const char *status = json_string_value(json_object_get(j, "status"));
    if (status == NULL)
        goto out;
    if (strcmp(status, "active") != 0) {
        if (strcmp(status, "open") != 0)
            g->done = true;
        goto out;
    }
    if (!r->sending)
        goto out; /* no new moves after the sending time */
    json_t *turn = json_object_get(j, "turn");
    const char *state_hex = json_string_value(json_object_get(j, "state_hex"));
    if (!json_is_integer(turn) || state_hex == NULL)
        goto out; /* first turn not drawn yet */
    json_int_t seat = json_integer_value(turn);
    if (seat != 0 && seat != 1)
        goto out;
    const struct zbc_engine *e = zbc_engine_by_type(g->type);
    if (e == NULL)
        goto out;
    static struct zbc_game_state st;
    static uint8_t sb[ZBC_GAME_STATE_MAX];
    static struct zbc_move moves[ZBC_MOVES_MAX];
    size_t sl;
    struct zbc_err err;
    if (!zbc_hex_decode(sb, sizeof sb, &sl, state_hex, strlen(state_hex)) ||
        !e->decode(&st, sb, sl, &err) || e->turn(&st) != (int)seat)
        goto out;
    size_t nm = e->gen_moves(&st, moves, ZBC_MOVES_MAX);
    if (nm == 0)
        goto out;
    json_t *mc = json_object_get(j, "moves");
    uint64_t played = json_is_integer(mc) ? (uint64_t)json_integer_value(mc)
                                          : 0;
    const struct zbc_move *m =
        &moves[(r->txs[g->create].app_id + played) % nm];
    /* seat 0 is the creator, seat 1 the joiner */
    uint32_t sender = seat == 0 ? r->txs[g->create].sender
                                : r->txs[g->join].sender;
    struct zbc_load_tx t;
    if (!zbc_load_move(&t, &r->chain, &r->keys[sender], sender,
                       r->txs[g->create].app_id, m->b, m->len,
                       (int64_t)wall_now(), &err))
        goto out;
    uint32_t idx = add_tx(r, &t);
    if (idx == UINT32_MAX) {
        zbc_load_tx_free(&t);
        goto out;
    }
    g->move = idx;
    r->offered++;
    r->recs[idx].t_due = wall_now();
    send_tx(r, idx, x->idx % r->n_nodes, false); /* a game's node */
out:
    json_decref(j);
    free(body);
    free(x);
}

static void poll_app(struct run *r, uint32_t gi)
{
    struct game *g = &r->games[gi];
    struct req_ctx *x = calloc(1, sizeof *x);
    if (x == NULL)
        return;
    x->r = r;
    x->idx = gi;
    /* the game's node: its transactions go there, and a player reads the
     * node it plays at (until 2026-12-05 every read went to node 0,
     * which then did ~5 % more work than the others) */
    struct node *n = &r->nodes[gi % r->n_nodes];
    struct evhttp_request *req = new_request(on_app, x, n->host);
    if (req == NULL) {
        free(x);
        return;
    }
    char path[64];
    snprintf(path, sizeof path, "/api/v1/apps/%" PRIu64,
             r->txs[g->create].app_id);
    g->polling = true;
    r->apps_pending++;
    if (evhttp_make_request(n->apps_conn, req, EVHTTP_REQ_GET, path) != 0) {
        g->polling = false;
        r->apps_pending--;
        free(x);
    }
}

/* After block `height` is followed: joins for games created, moves for
 * games whose last move (or join) is in a block. */
static void game_on_block(struct run *r, uint32_t height)
{
    unsigned polls = 0;
    if (r->stopping || r->n_games == 0)
        return;
    /* every game's join when its create is in; the polls round-robin
     * from where the last block's stopped (until 2026-12-03 the scan
     * stopped at the 256th poll: the games after the first polled ones
     * never got their joins or moves sent) */
    uint32_t first = r->poll_next % r->n_games;
    for (uint32_t k = 0; k < r->n_games; k++) {
        uint32_t gi = (first + k) % r->n_games;
        struct game *g = &r->games[gi];
        if (g->done || g->polling)
            continue;
        struct rec *c = &r->recs[g->create];
        struct rec *jn = &r->recs[g->join];
        if (c->inc_height == 0)
            continue;
        if (jn->state == TX_UNSENT) {
            if (!r->sending)
                continue;
            r->offered++;
            jn->t_due = wall_now();
            send_tx(r, g->join, gi % r->n_nodes, false); /* the game's node */
            continue;
        }
        if (jn->inc_height == 0) {
            if (jn->state == TX_REFUSED || jn->state == TX_FAILED)
                g->done = true;
            continue;
        }
        /* the first turn is drawn at joined + 2 */
        if (height < jn->inc_height + 2)
            continue;
        if (g->move != UINT32_MAX) {
            struct rec *m = &r->recs[g->move];
            if (m->inc_height == 0 && (m->state == TX_ACCEPTED ||
                                       m->state == TX_INFLIGHT))
                continue; /* the last move waits for its block */
        }
        if (polls >= APP_POLLS_PER_BLOCK)
            continue; /* next block, from here */
        if (++polls == APP_POLLS_PER_BLOCK)
            r->poll_next = gi + 1;
        poll_app(r, gi);
    }
}

/* ----------------------------- the end: what became of the missing ones */

#define LOST_CHECK_MAX 200

static void on_status(struct evhttp_request *req, void *arg)
{
    struct req_ctx *x = arg;
    struct run *r = x->r;
    int code = req != NULL ? evhttp_request_get_response_code(req) : 0;
    char *body = NULL;
    size_t len = 0;
    json_t *j = NULL;
    const char *st = NULL;
    if (code != 0 && read_body(req, &body, &len, ANSWER_MAX)) {
        json_error_t je;
        j = json_loadb(body, len, 0, &je);
        st = json_string_value(json_object_get(j, "status"));
    }
    if (st == NULL)
        r->lost_unanswered++;
    else if (strcmp(st, "mempool") == 0)
        r->lost_pooled++;
    else if (strcmp(st, "confirmed") == 0)
        r->lost_confirmed++;
    else if (strcmp(st, "dropped") == 0) {
        r->lost_dropped++;
        set_example(r->dropped_example,
                    json_string_value(json_object_get(j, "reason")));
    } else if (strcmp(st, "not_found") == 0)
        r->lost_unknown++;
    else
        r->lost_unanswered++;
    json_decref(j);
    free(body);
    free(x);
    if (--r->lost_pending == 0)
        event_base_loopexit(r->base, NULL);
}

/* Asks the node each accepted transaction went to for the status of (up to
 * LOST_CHECK_MAX of) those the followed chain does not hold
 * (docs/api.md §5): still pooled, confirmed there, dropped with a reason,
 * or unknown to it. */
static void check_lost(struct run *r)
{
    event_del(r->tick);
    event_del(r->follow_tick);
    /* the answers still coming (each request has its timeout); no new
     * block is fetched once stopping */
    while (r->inflight > 0 || r->block_pending || r->apps_pending > 0)
        event_base_loop(r->base, EVLOOP_ONCE);
    for (uint32_t i = 0; i < r->n_txs && r->lost_checked < LOST_CHECK_MAX;
         i++) {
        struct rec *c = &r->recs[i];
        if (c->state != TX_ACCEPTED || c->inc_height != 0)
            continue;
        struct node *n = &r->nodes[c->node];
        struct req_ctx *x = calloc(1, sizeof *x);
        if (x == NULL)
            break;
        x->r = r;
        x->idx = i;
        struct evhttp_request *req = new_request(on_status, x, n->host);
        if (req == NULL) {
            free(x);
            break;
        }
        char path[128], hex[65];
        zbc_hex_encode(hex, r->txs[i].hash, 32);
        snprintf(path, sizeof path, "/api/v1/transactions/%s/status", hex);
        if (evhttp_make_request(n->info_conn, req, EVHTTP_REQ_GET, path) !=
            0) {
            free(x);
            break;
        }
        r->lost_checked++;
        r->lost_pending++;
    }
    while (r->lost_pending > 0)
        event_base_dispatch(r->base);
}

/* -------------------------------------------------------- start: info */

struct sync_get {
    bool done;
    int code;
    char *body;
    size_t len;
    char error[EXAMPLE_MAX];
    struct event_base *base;
};

static void on_sync_get(struct evhttp_request *req, void *arg)
{
    struct sync_get *s = arg;
    s->done = true;
    s->code = req != NULL ? evhttp_request_get_response_code(req) : 0;
    if (s->code != 0 && !read_body(req, &s->body, &s->len, ANSWER_MAX))
        s->code = -1;
    event_base_loopexit(s->base, NULL);
}

static json_t *get_info(struct run *r, struct node *n, char *why, size_t cap)
{
    struct evhttp_connection *c = new_conn(r, n);
    struct sync_get s = { .base = r->base };
    struct evhttp_request *req = c ? evhttp_request_new(on_sync_get, &s) : NULL;
    if (req == NULL) {
        snprintf(why, cap, "out of memory");
        if (c)
            evhttp_connection_free(c);
        return NULL;
    }
    evhttp_add_header(evhttp_request_get_output_headers(req), "Host",
                      n->host);
    if (evhttp_make_request(c, req, EVHTTP_REQ_GET, "/api/v1/node/info") !=
        0) {
        snprintf(why, cap, "could not send the request");
        evhttp_connection_free(c);
        return NULL;
    }
    while (!s.done)
        event_base_dispatch(r->base);
    evhttp_connection_free(c);
    json_t *j = NULL;
    if (s.code == 0)
        snprintf(why, cap, "no answer (connection refused, closed or "
                 "timed out)");
    else if (s.code != 200)
        snprintf(why, cap, "HTTP %d", s.code);
    else {
        json_error_t je;
        j = json_loadb(s.body, s.len, 0, &je);
        if (!json_is_object(j)) {
            snprintf(why, cap, "the answer is not a JSON object");
            json_decref(j);
            j = NULL;
        }
    }
    free(s.body);
    return j;
}

static uint64_t u64_field(json_t *j, const char *k, bool *ok)
{
    json_t *v = json_object_get(j, k);
    if (!json_is_integer(v) || json_integer_value(v) < 0) {
        *ok = false;
        return 0;
    }
    return (uint64_t)json_integer_value(v);
}

/* ----------------------------------------------------------------- report */

/* The highest followed height whose block timestamp is <= t (h_base when
 * none): the tip when a transaction was sent. */
static uint32_t tip_at(const struct run *r, double t)
{
    uint32_t lo = r->h_base, top = r->h_next > 0 ? r->h_next - 1 : 0;
    for (uint32_t h = r->h_base + 1; h <= top; h++) {
        if (r->blk[h - r->h_base].ts <= t)
            lo = h;
        else
            break;
    }
    return lo;
}

static void report(struct run *r)
{
    double dur = r->wall_end - r->wall_start;
    if (dur <= 0)
        dur = 1e-9;
    uint64_t n_inc = 0;
    double *lat_s = malloc((r->n_txs + 1) * sizeof *lat_s);
    double *lat_b = malloc((r->n_txs + 1) * sizeof *lat_b);
    uint8_t *lat_k = malloc(r->n_txs + 1); /* lat_b's kinds */
    /* the seconds split at the answer: send -> 202 (the node's queue and
     * admission), 202 -> the including block's timestamp (the pools) */
    double *lat_a = malloc((r->n_txs + 1) * sizeof *lat_a);
    double *lat_p = malloc((r->n_txs + 1) * sizeof *lat_p);
    uint64_t by_kind_off[ZBC_LOAD_KINDS] = {0}, by_kind_acc[ZBC_LOAD_KINDS] = {0},
             by_kind_inc[ZBC_LOAD_KINDS] = {0};
    uint64_t pending = 0, in_window = 0, n_ans = 0;
    for (uint32_t i = 0; i < r->n_txs; i++) {
        struct rec *c = &r->recs[i];
        uint8_t k = r->txs[i].kind;
        if (c->state != TX_UNSENT)
            by_kind_off[k]++;
        if (c->state == TX_ACCEPTED)
            by_kind_acc[k]++;
        if (c->state == TX_ACCEPTED && c->inc_height == 0)
            pending++;
        if (c->inc_height == 0)
            continue;
        by_kind_inc[k]++;
        double bts = r->blk[c->inc_height - r->h_base].ts;
        if (bts >= r->wall_start && bts <= r->wall_end)
            in_window++;
        /* only what the node answered 202 (a request that timed out or
         * failed may still have been admitted and included: no answer
         * time to split at) */
        if (lat_a && lat_p && c->state == TX_ACCEPTED &&
            c->t_answer >= c->t_send) {
            double a = c->t_answer - c->t_send, q = bts - c->t_answer;
            lat_a[n_ans] = a;
            lat_p[n_ans] = q < 0 ? 0 : q;
            n_ans++;
        }
        if (lat_s && lat_b) {
            double s = bts - c->t_send;
            lat_s[n_inc] = s < 0 ? 0 : s;
            uint32_t h0 = tip_at(r, c->t_send);
            lat_b[n_inc] = (double)(c->inc_height - h0);
            if (lat_k != NULL)
                lat_k[n_inc] = k;
        }
        n_inc++;
    }
    /* each kind's p99 in blocks (joins and moves wait on their games) */
    double kind_p99b[ZBC_LOAD_KINDS] = {0};
    double *kb = lat_b && lat_k ? malloc((n_inc + 1) * sizeof *kb) : NULL;
    for (int k = 0; kb != NULL && k < ZBC_LOAD_KINDS; k++) {
        uint64_t m = 0;
        for (uint64_t i = 0; i < n_inc; i++)
            if (lat_k[i] == k)
                kb[m++] = lat_b[i];
        if (m == 0)
            continue;
        zbc_load_sort(kb, m);
        kind_p99b[k] = zbc_load_percentile(kb, m, 99);
    }
    free(kb);
    free(lat_k);
    double p50s = 0, p99s = 0, maxs = 0, p50b = 0, p99b = 0, maxb = 0;
    if (lat_s && lat_b && n_inc > 0) {
        zbc_load_sort(lat_s, n_inc);
        zbc_load_sort(lat_b, n_inc);
        p50s = zbc_load_percentile(lat_s, n_inc, 50);
        p99s = zbc_load_percentile(lat_s, n_inc, 99);
        maxs = lat_s[n_inc - 1];
        p50b = zbc_load_percentile(lat_b, n_inc, 50);
        p99b = zbc_load_percentile(lat_b, n_inc, 99);
        maxb = lat_b[n_inc - 1];
    }
    double p50a = 0, p99a = 0, p50p = 0, p99p = 0;
    if (lat_a && lat_p && n_ans > 0) {
        zbc_load_sort(lat_a, n_ans);
        zbc_load_sort(lat_p, n_ans);
        p50a = zbc_load_percentile(lat_a, n_ans, 50);
        p99a = zbc_load_percentile(lat_a, n_ans, 99);
        p50p = zbc_load_percentile(lat_p, n_ans, 50);
        p99p = zbc_load_percentile(lat_p, n_ans, 99);
    }
    free(lat_a);
    free(lat_p);
    free(lat_s);
    free(lat_b);
    uint32_t top = r->h_next > 0 ? r->h_next - 1 : 0;
    uint32_t blocks = top > r->h_base ? top - r->h_base : 0;
    /* the included rate once the pipeline is full (load_stats.h) */
    double warm = zbc_load_warmup_s(dur), steady_span = 0, steady = 0;
    {
        double *bts = malloc((blocks + 1) * sizeof *bts);
        uint32_t *bours = malloc((blocks + 1) * sizeof *bours);
        if (bts != NULL && bours != NULL) {
            for (uint32_t k = 0; k < blocks; k++) {
                bts[k] = r->blk[k + 1].ts;
                bours[k] = r->blk[k + 1].ours;
            }
            steady = zbc_load_steady_rate(bts, bours, blocks,
                                          r->wall_start + warm, r->wall_end,
                                          &steady_span);
        }
        free(bts);
        free(bours);
    }
    uint64_t max_block = 0, all_txs = 0;
    for (uint32_t h = r->h_base + 1; h <= top; h++) {
        uint32_t a = r->blk[h - r->h_base].all;
        all_txs += a;
        if (a > max_block)
            max_block = a;
    }
    for (unsigned i = 0; i < r->n_nodes; i++) {
        struct node *n = &r->nodes[i];
        if (n->log != NULL)
            n->log_reorgs = count_reorgs(n->log, n->log_off0);
    }
    uint64_t games_done = 0;
    for (uint32_t g = 0; g < r->n_games; g++)
        games_done += r->games[g].done;
    const char *mode = r->closed ? "closed" : "open";
    if (r->json) {
        json_t *o = json_object();
        json_object_set_new(o, "mode", json_string(mode));
        json_object_set_new(o, "workload", json_string(r->mixed ? "mixed" : "transfers"));
        json_object_set_new(o, "nodes", json_integer(r->n_nodes));
        json_object_set_new(o, "senders", json_integer(r->n_keys));
        json_object_set_new(o, "rate", json_real(r->closed ? 0 : r->rate));
        json_object_set_new(o, "batch", json_integer(r->batch));
        json_object_set_new(o, "inflight", json_integer(r->closed));
        json_object_set_new(o, "conns_per_node", json_integer(r->conns_per_node));
        json_object_set_new(o, "inflight_per_conn", json_integer(r->per_conn));
        json_object_set_new(o, "duration_s", json_real(dur));
        json_object_set_new(o, "offered", json_integer((json_int_t)r->offered));
        json_object_set_new(o, "offered_per_s", json_real((double)r->offered / dur));
        json_object_set_new(o, "sent", json_integer((json_int_t)(r->offered - r->unsent)));
        json_object_set_new(o, "late", json_integer((json_int_t)r->late));
        json_object_set_new(o, "unsent", json_integer((json_int_t)r->unsent));
        json_object_set_new(o, "accepted", json_integer((json_int_t)r->accepted));
        json_object_set_new(o, "accepted_per_s", json_real((double)r->accepted / dur));
        json_object_set_new(o, "duplicates", json_integer((json_int_t)r->duplicates));
        json_object_set_new(o, "refused", json_integer((json_int_t)r->refused));
        json_t *ref = json_object();
        for (int c = 0; c < ZBC_LOAD_REF_COUNT; c++)
            if (r->refusals[c] != 0) {
                json_t *e = json_object();
                json_object_set_new(e, "count", json_integer((json_int_t)r->refusals[c]));
                json_object_set_new(e, "example", json_string(r->refusal_example[c]));
                json_object_set_new(ref, zbc_load_refusal_name(c), e);
            }
        json_object_set_new(o, "refusals", ref);
        json_t *wh = json_object();
        for (int w = 0; w < WHOLE_REASONS; w++) {
            json_t *e = json_object();
            json_object_set_new(e, "requests", json_integer((json_int_t)r->whole_req[w]));
            json_object_set_new(e, "transactions", json_integer((json_int_t)r->whole_txs[w]));
            json_object_set_new(wh, whole_names[w], e);
        }
        json_object_set_new(o, "refused_whole", wh);
        json_object_set_new(o, "failed", json_integer((json_int_t)r->failed));
        json_t *fl = json_object();
        json_object_set_new(fl, "connection", json_integer((json_int_t)r->fail_conn));
        json_object_set_new(fl, "timeout", json_integer((json_int_t)r->fail_timeout));
        json_object_set_new(fl, "bad_answer", json_integer((json_int_t)r->fail_answer));
        json_object_set_new(fl, "example", json_string(r->fail_example));
        json_object_set_new(o, "failures", fl);
        json_object_set_new(o, "never_answered", json_integer((json_int_t)r->inflight));
        json_object_set_new(o, "included", json_integer((json_int_t)n_inc));
        json_object_set_new(o, "included_in_window", json_integer((json_int_t)in_window));
        json_object_set_new(o, "included_per_s", json_real((double)in_window / dur));
        json_object_set_new(o, "included_steady_per_s", json_real(steady));
        json_object_set_new(o, "steady_warmup_s", json_real(warm));
        json_object_set_new(o, "steady_span_s", json_real(steady_span));
        json_object_set_new(o, "accepted_not_included", json_integer((json_int_t)pending));
        json_t *lc = json_object();
        json_object_set_new(lc, "checked", json_integer((json_int_t)r->lost_checked));
        json_object_set_new(lc, "mempool", json_integer((json_int_t)r->lost_pooled));
        json_object_set_new(lc, "confirmed", json_integer((json_int_t)r->lost_confirmed));
        json_object_set_new(lc, "dropped", json_integer((json_int_t)r->lost_dropped));
        json_object_set_new(lc, "not_found", json_integer((json_int_t)r->lost_unknown));
        json_object_set_new(lc, "unanswered", json_integer((json_int_t)r->lost_unanswered));
        json_object_set_new(lc, "dropped_example", json_string(r->dropped_example));
        json_object_set_new(o, "not_included_status", lc);
        json_t *kinds = json_object();
        for (int k = 0; k < ZBC_LOAD_KINDS; k++) {
            json_t *e = json_object();
            json_object_set_new(e, "offered", json_integer((json_int_t)by_kind_off[k]));
            json_object_set_new(e, "accepted", json_integer((json_int_t)by_kind_acc[k]));
            json_object_set_new(e, "included", json_integer((json_int_t)by_kind_inc[k]));
            json_object_set_new(e, "p99_blocks", json_real(kind_p99b[k]));
            json_object_set_new(kinds, zbc_load_kind_name(k), e);
        }
        json_object_set_new(o, "kinds", kinds);
        json_object_set_new(o, "games", json_integer(r->n_games));
        json_object_set_new(o, "games_ended", json_integer((json_int_t)games_done));
        json_t *lat = json_object();
        json_object_set_new(lat, "p50_blocks", json_real(p50b));
        json_object_set_new(lat, "p99_blocks", json_real(p99b));
        json_object_set_new(lat, "max_blocks", json_real(maxb));
        json_object_set_new(lat, "p50_s", json_real(p50s));
        json_object_set_new(lat, "p99_s", json_real(p99s));
        json_object_set_new(lat, "max_s", json_real(maxs));
        json_object_set_new(lat, "answer_p50_s", json_real(p50a));
        json_object_set_new(lat, "answer_p99_s", json_real(p99a));
        json_object_set_new(lat, "pooled_p50_s", json_real(p50p));
        json_object_set_new(lat, "pooled_p99_s", json_real(p99p));
        json_object_set_new(o, "latency", lat);
        json_t *ch = json_object();
        json_object_set_new(ch, "from_height", json_integer(r->h_base));
        json_object_set_new(ch, "to_height", json_integer(top));
        json_object_set_new(ch, "blocks", json_integer(blocks));
        json_object_set_new(ch, "transactions", json_integer((json_int_t)all_txs));
        json_object_set_new(ch, "max_block_txs", json_integer((json_int_t)max_block));
        json_object_set_new(ch, "branch_switches", json_integer((json_int_t)r->switches));
        json_object_set_new(ch, "fetch_failures", json_integer((json_int_t)r->block_fetch_failures));
        json_object_set_new(ch, "fetch_error", json_string(r->block_error));
        json_object_set_new(o, "chain", ch);
        json_t *ns = json_array();
        for (unsigned i = 0; i < r->n_nodes; i++) {
            struct node *n = &r->nodes[i];
            json_t *e = json_object();
            json_object_set_new(e, "url", json_string(n->url));
            json_object_set_new(e, "sent", json_integer((json_int_t)n->sent));
            json_object_set_new(e, "accepted", json_integer((json_int_t)n->accepted));
            json_object_set_new(e, "refused", json_integer((json_int_t)n->refused));
            json_object_set_new(e, "failed", json_integer((json_int_t)n->failed));
            json_object_set_new(e, "height", json_integer(n->height));
            json_object_set_new(e, "info_failures", json_integer((json_int_t)n->info_failures));
            json_object_set_new(e, "info_error", json_string(n->info_error));
            if (n->log != NULL)
                json_object_set_new(e, "reorgs_logged", json_integer((json_int_t)n->log_reorgs));
            if (n->has_switches)
                json_object_set_new(e, "branch_switches",
                                    json_integer((json_int_t)(n->switches - n->switches0)));
            if (n->proc_ok) {
                json_object_set_new(e, "pid", json_integer(n->pid));
                json_object_set_new(e, "cpu_pct", json_real(100.0 * (n->cpu1 - n->cpu0) / dur));
                json_object_set_new(e, "rss_kb", json_integer(n->rss_kb));
                json_object_set_new(e, "rss_max_kb", json_integer(n->rss_max_kb));
            }
            if (n->io_ok && n->wr1 >= n->wr0) { /* else not the same process */
                json_object_set_new(e, "disk_write_bytes",
                                    json_integer((json_int_t)(n->wr1 - n->wr0)));
                if (n->io_mid && n->wr_mid >= n->wr0 && n->wr1 >= n->wr_mid) {
                    json_object_set_new(e, "disk_write_bytes_first_half",
                                        json_integer((json_int_t)(n->wr_mid - n->wr0)));
                    json_object_set_new(e, "disk_write_bytes_second_half",
                                        json_integer((json_int_t)(n->wr1 - n->wr_mid)));
                }
            }
            json_array_append_new(ns, e);
        }
        json_object_set_new(o, "per_node", ns);
        json_object_set_new(o, "load_cpu_pct",
                            json_real(100.0 * (self_cpu() - r->self_cpu0) /
                                      (mono_now() - r->t_start)));
        char *s = json_dumps(o, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
        if (s != NULL)
            puts(s);
        free(s);
        json_decref(o);
        return;
    }
    printf("zbc-load: %s loop, %s workload, %u node%s, %u senders\n", mode,
           r->mixed ? "mixed" : "transfers", r->n_nodes,
           r->n_nodes == 1 ? "" : "s", r->n_keys);
    if (r->closed)
        printf("  %u in flight for %.1f s\n", r->closed, dur);
    else
        printf("  %.1f tx/s for %.1f s\n", r->rate, dur);
    if (r->batch > 1)
        printf("  batches of up to %u transactions per request\n", r->batch);
    printf("offered    %9" PRIu64 "  %9.1f/s  (late %" PRIu64
           ": queued behind a busy connection; unsent %" PRIu64
           ": backlog full)\n", r->offered, (double)r->offered / dur,
           r->late, r->unsent);
    printf("accepted   %9" PRIu64 "  %9.1f/s  (duplicates %" PRIu64 ")\n",
           r->accepted, (double)r->accepted / dur, r->duplicates);
    printf("refused    %9" PRIu64 "\n", r->refused);
    for (int c = 0; c < ZBC_LOAD_REF_COUNT; c++)
        if (r->refusals[c] != 0)
            printf("  %-20s %9" PRIu64 "  e.g. \"%s\"\n",
                   zbc_load_refusal_name(c), r->refusals[c],
                   r->refusal_example[c]);
    uint64_t wr = 0, wt = 0;
    for (int w = 0; w < WHOLE_REASONS; w++) {
        wr += r->whole_req[w];
        wt += r->whole_txs[w];
    }
    if (wr > 0) {
        printf("  refused whole: %" PRIu64 " requests, %" PRIu64
               " transactions (", wr, wt);
        for (int w = 0; w < WHOLE_REASONS; w++)
            printf("%s%s %" PRIu64 "/%" PRIu64, w ? ", " : "",
                   whole_names[w], r->whole_req[w], r->whole_txs[w]);
        printf(")\n");
    }
    printf("failed     %9" PRIu64 "  (connection %" PRIu64 ", timeout %"
           PRIu64 ", bad answer %" PRIu64 ")%s%s%s\n", r->failed,
           r->fail_conn, r->fail_timeout, r->fail_answer,
           r->fail_example[0] ? "  e.g. \"" : "", r->fail_example,
           r->fail_example[0] ? "\"" : "");
    if (r->inflight)
        printf("unanswered %9" PRIu64 "  (still in flight at the end)\n",
               r->inflight);
    printf("included   %9" PRIu64 "  %9.1f/s  (%" PRIu64
           " in blocks stamped during the sending); accepted but not "
           "included: %" PRIu64 "\n", n_inc, (double)in_window / dur,
           in_window, pending);
    if (steady_span > 0)
        printf("  steady     %9.1f/s  (the blocks stamped from %.0f s after the "
               "start to its end, the first and last %.1f s apart)\n", steady,
               warm, steady_span);
    if (r->lost_checked > 0)
        printf("  status of %" PRIu64 " of them at the node they went to: "
               "mempool %" PRIu64 ", confirmed %" PRIu64 ", dropped %" PRIu64
               "%s%s%s, unknown %" PRIu64 ", no answer %" PRIu64 "\n",
               r->lost_checked, r->lost_pooled, r->lost_confirmed,
               r->lost_dropped, r->dropped_example[0] ? " (e.g. \"" : "",
               r->dropped_example, r->dropped_example[0] ? "\")" : "",
               r->lost_unknown, r->lost_unanswered);
    if (r->mixed) {
        printf("  by kind (offered/accepted/included, p99 blocks):");
        for (int k = 0; k < ZBC_LOAD_KINDS; k++)
            printf(" %s %" PRIu64 "/%" PRIu64 "/%" PRIu64 " %.0f",
                   zbc_load_kind_name(k), by_kind_off[k], by_kind_acc[k],
                   by_kind_inc[k], kind_p99b[k]);
        printf("; games %u, ended %" PRIu64 "\n", r->n_games, games_done);
    }
    printf("latency    blocks p50 %.0f p99 %.0f max %.0f; seconds p50 %.2f "
           "p99 %.2f max %.2f\n", p50b, p99b, maxb, p50s, p99s, maxs);
    printf("  of which: send to answer p50 %.2f p99 %.2f s; answer to block "
           "p50 %.2f p99 %.2f s\n", p50a, p99a, p50p, p99p);
    printf("chain      node 0 heights %u..%u: %u blocks, %" PRIu64
           " txs (max %" PRIu64 " in one), branch switches seen %" PRIu64
           "%s%s\n", r->h_base + 1, top, blocks, all_txs, max_block,
           r->switches, r->block_fetch_failures ? ", block fetch failures: "
                                                : "",
           r->block_fetch_failures ? r->block_error : "");
    printf("zbc-load   cpu %.0f%% of one core over the whole run\n",
           100.0 * (self_cpu() - r->self_cpu0) / (mono_now() - r->t_start));
    for (unsigned i = 0; i < r->n_nodes; i++) {
        struct node *n = &r->nodes[i];
        printf("node %-2u    %s height %u sent %" PRIu64 " accepted %" PRIu64
               " refused %" PRIu64 " failed %" PRIu64, i, n->url, n->height,
               n->sent, n->accepted, n->refused, n->failed);
        if (n->log != NULL)
            printf(" reorgs-logged %" PRIu64, n->log_reorgs);
        if (n->has_switches)
            printf(" switches %" PRIu64, n->switches - n->switches0);
        if (n->proc_ok)
            printf(" cpu %.0f%% rss %ld MiB (max %ld)",
                   100.0 * (n->cpu1 - n->cpu0) / dur, n->rss_kb / 1024,
                   n->rss_max_kb / 1024);
        if (n->io_ok && n->wr1 >= n->wr0)
            printf(" disk writes %.1f MiB/s", (double)(n->wr1 - n->wr0) /
                   1048576.0 / (dur > 0 ? dur : 1));
        if (n->info_failures)
            printf(" node/info failures %" PRIu64 " (%s)", n->info_failures,
                   n->info_error);
        printf("\n");
    }
}

/* ------------------------------------------------------------- commands */

static uint64_t num_opt(const char *opt, const char *v, uint64_t lo,
                        uint64_t hi)
{
    uint64_t out;
    struct zbc_err err;
    if (v == NULL)
        die_usage("%s needs a value%s", opt, "");
    if (!zbc_parse_u64(v, lo, hi, &out, opt, &err))
        die_usage("%s%s", err.msg, "");
    return out;
}

static double real_opt(const char *opt, const char *v, double lo, double hi)
{
    double out;
    struct zbc_err err;
    if (v == NULL)
        die_usage("%s needs a value%s", opt, "");
    if (!zbc_load_parse_number(v, lo, hi, &out, opt, &err))
        die_usage("%s%s", err.msg, "");
    return out;
}

static int cmd_accounts(int argc, char **argv)
{
    uint64_t n = 0;
    const char *seed = "zbc-load";
    for (int i = 0; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(argv[i], "--senders") == 0) {
            n = num_opt("--senders", v, 2, ZBC_LOAD_SENDERS_MAX);
            i++;
        } else if (strcmp(argv[i], "--seed") == 0) {
            if (v == NULL || *v == 0)
                die_usage("--seed needs a non-empty text%s%s", "", "");
            seed = v;
            i++;
        } else {
            die_usage("accounts: unknown option '%s'%s", argv[i], "");
        }
    }
    if (n == 0)
        die_usage("accounts needs --senders N%s%s", "", "");
    for (uint32_t i = 0; i < n; i++) {
        struct zbc_load_key k;
        char text[ZBC_ADDR_TEXT_MAX];
        zbc_load_key_derive(&k, seed, i);
        zbc_addr_zbc_text(text, k.pk, "ZBC");
        printf("%s=%llu\n", text, (unsigned long long)ZBC_LOAD_FUNDING);
    }
    return 0;
}

struct vr_arg {
    double until;
    uint64_t done;
    const struct zbc_load_key *key;
    uint8_t digest[32], sig[64];
};

static void *vr_thread(void *p)
{
    struct vr_arg *a = p;
    uint64_t n = 0;
    while (mono_now() < a->until) {
        for (int i = 0; i < 64; i++) {
            struct zbc_err err;
            if (!zbc_sig_verify(&a->key->addr, a->digest, a->sig, 64, &err))
                return NULL;
        }
        n += 64;
    }
    a->done = n;
    return NULL;
}

static int cmd_verify_rate(int argc, char **argv)
{
    double secs = 2;
    long threads = sysconf(_SC_NPROCESSORS_ONLN);
    if (threads < 1)
        threads = 1;
    for (int i = 0; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(argv[i], "--seconds") == 0) {
            secs = real_opt("--seconds", v, 0.1, 600);
            i++;
        } else if (strcmp(argv[i], "--threads") == 0) {
            threads = (long)num_opt("--threads", v, 1, 256);
            i++;
        } else {
            die_usage("verify-rate: unknown option '%s'%s", argv[i], "");
        }
    }
    struct zbc_load_key key;
    zbc_load_key_derive(&key, "verify-rate", 0);
    struct vr_arg *a = calloc((size_t)threads, sizeof *a);
    pthread_t *t = calloc((size_t)threads, sizeof *t);
    if (a == NULL || t == NULL) {
        fprintf(stderr, "zbc-load: out of memory\n");
        return 1;
    }
    double t0 = mono_now();
    for (long i = 0; i < threads; i++) {
        a[i].until = t0 + secs;
        a[i].key = &key;
        memset(a[i].digest, (int)i, 32);
        zbc_ed25519_sign(a[i].sig, key.sk, a[i].digest, 32);
        if (pthread_create(&t[i], NULL, vr_thread, &a[i]) != 0) {
            fprintf(stderr, "zbc-load: cannot start a thread\n");
            return 1;
        }
    }
    uint64_t total = 0;
    for (long i = 0; i < threads; i++) {
        pthread_join(t[i], NULL);
        total += a[i].done;
    }
    double el = mono_now() - t0;
    printf("ed25519_verify_per_s %.0f threads %ld seconds %.2f\n",
           (double)total / el, threads, el);
    free(a);
    free(t);
    return 0;
}

/* One pass: maps `bytes` anonymous (no huge pages: a fault a page),
 * writes a byte a page, unmaps; us a page, or -1 when it cannot map. */
static double page_pass(size_t bytes)
{
    unsigned char *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return -1;
    (void)madvise(m, bytes, MADV_NOHUGEPAGE);
    double t0 = mono_now();
    for (size_t off = 0; off < bytes; off += 4096)
        ((volatile unsigned char *)m)[off] = 1;
    double el = mono_now() - t0;
    munmap(m, bytes);
    return el * 1e6 / (double)(bytes / 4096);
}

static int cmd_page_rate(int argc, char **argv)
{
    size_t mib = 512;
    for (int i = 0; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(argv[i], "--mib") == 0) {
            mib = (size_t)num_opt("--mib", v, 16, 1048576);
            i++;
        } else {
            die_usage("page-rate: unknown option '%s'%s", argv[i], "");
        }
    }
    /* two passes of it at once must not push the machine into its OOM
     * killer: at most half of the memory it has */
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    if (pages > 0 && psz > 0 &&
        (uint64_t)mib > (uint64_t)pages * (uint64_t)psz / 2 >> 20)
        die_usage("page-rate: --mib %zu is more than half of this machine's "
                  "memory%s", mib, "");
    double first = page_pass(mib << 20), again = page_pass(mib << 20);
    if (first < 0 || again < 0) {
        fprintf(stderr, "zbc-load: cannot map %zu MiB: %s\n", mib,
                strerror(errno));
        return 1;
    }
    printf("fresh_page_us %.2f again_us %.2f mib %zu\n", first, again, mib);
    return 0;
}

static int cmd_run(int argc, char **argv)
{
    struct run *r = &R;
    r->rate = 100;
    r->duration = 10;
    r->settle = 15;
    r->count = 20000;
    r->conns_per_node = 8;
    r->per_conn = 1;
    r->backlog = 64;
    r->batch = 1;
    r->timeout_s = 30;
    r->n_keys = 1000;
    r->seed = "zbc-load";
    r->mix = (struct zbc_load_mix){100, 0, 0};
    unsigned n_pids = 0, n_logs = 0;
    long pids[NODES_MAX] = {0};
    const char *logs[NODES_MAX] = {0};
    for (int i = 0; i < argc; i++) {
        const char *o = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(o, "--json") == 0) {
            r->json = true;
            continue;
        }
        if (strcmp(o, "--quiet") == 0) {
            r->quiet = true;
            continue;
        }
        i++;
        if (strcmp(o, "--node") == 0) {
            struct zbc_err err;
            if (v == NULL)
                die_usage("--node needs a URL (http://HOST:PORT)%s%s", "", "");
            if (r->n_nodes == NODES_MAX)
                die_usage("at most 16 --node%s%s", "", "");
            struct node *n = &r->nodes[r->n_nodes];
            if (!zbc_load_parse_url(v, n->host, &n->port, &err))
                die_usage("%s%s", err.msg, "");
            n->url = v;
            r->n_nodes++;
        } else if (strcmp(o, "--rate") == 0) {
            r->rate = real_opt(o, v, 0.1, 1000000);
        } else if (strcmp(o, "--closed") == 0) {
            r->closed = (unsigned)num_opt(o, v, 1, 100000);
        } else if (strcmp(o, "--duration") == 0) {
            r->duration = real_opt(o, v, 0.1, 86400);
        } else if (strcmp(o, "--count") == 0) {
            r->count = num_opt(o, v, 1, 100000000);
        } else if (strcmp(o, "--settle") == 0) {
            r->settle = real_opt(o, v, 0, 3600);
        } else if (strcmp(o, "--senders") == 0) {
            r->n_keys = (uint32_t)num_opt(o, v, 2, ZBC_LOAD_SENDERS_MAX);
        } else if (strcmp(o, "--seed") == 0) {
            if (v == NULL || *v == 0)
                die_usage("--seed needs a non-empty text%s%s", "", "");
            r->seed = v;
        } else if (strcmp(o, "--conns") == 0) {
            r->conns_per_node = (unsigned)num_opt(o, v, 1, CONNS_MAX);
        } else if (strcmp(o, "--inflight") == 0) {
            r->per_conn = (unsigned)num_opt(o, v, 1, INFLIGHT_MAX);
        } else if (strcmp(o, "--batch") == 0) {
            r->batch = (unsigned)num_opt(o, v, 1, 1000);
        } else if (strcmp(o, "--backlog") == 0) {
            r->backlog = (unsigned)num_opt(o, v, 1, 100000);
        } else if (strcmp(o, "--timeout") == 0) {
            r->timeout_s = (unsigned)num_opt(o, v, 1, 300);
        } else if (strcmp(o, "--pid") == 0) {
            if (n_pids == NODES_MAX)
                die_usage("at most 16 --pid%s%s", "", "");
            pids[n_pids++] = (long)num_opt(o, v, 1, 4194304);
        } else if (strcmp(o, "--log") == 0) {
            if (v == NULL)
                die_usage("--log needs a file%s%s", "", "");
            if (n_logs == NODES_MAX)
                die_usage("at most 16 --log%s%s", "", "");
            logs[n_logs++] = v;
        } else if (strcmp(o, "--workload") == 0) {
            if (v == NULL)
                die_usage("--workload needs transfers or mixed[=S,B,G]%s%s",
                          "", "");
            if (strcmp(v, "transfers") == 0) {
                r->mixed = false;
                r->mix = (struct zbc_load_mix){100, 0, 0};
            } else if (strcmp(v, "mixed") == 0) {
                r->mixed = true;
                r->mix = (struct zbc_load_mix){60, 20, 20};
            } else if (strncmp(v, "mixed=", 6) == 0) {
                unsigned s, b, g;
                char tail;
                if (sscanf(v + 6, "%3u,%3u,%3u%c", &s, &b, &g, &tail) != 3 ||
                    s + b + g != 100)
                    die_usage("--workload mixed=SEND,BET,GAME needs three "
                              "whole percentages adding up to 100, not "
                              "'%s'%s", v, "");
                r->mixed = true;
                r->mix = (struct zbc_load_mix){s, b, g};
            } else {
                die_usage("--workload must be transfers, mixed or "
                          "mixed=SEND,BET,GAME, not '%s'%s", v, "");
            }
        } else {
            die_usage("run: unknown option '%s'%s", o, "");
        }
    }
    if (r->n_nodes == 0)
        die_usage("run needs at least one --node URL%s%s", "", "");
    if (r->conns_per_node * r->per_conn > NODE_CONNS_MAX)
        die_usage("--conns %u x --inflight %u is more than %d connections "
                  "per node", r->conns_per_node, r->per_conn,
                  NODE_CONNS_MAX);
    r->n_conns = r->conns_per_node * r->per_conn;
    if (n_pids != 0 && n_pids != r->n_nodes)
        die_usage("give one --pid per --node, in the same order (%s%s)",
                  "or none", "");
    if (n_logs != 0 && n_logs != r->n_nodes)
        die_usage("give one --log per --node, in the same order (%s%s)",
                  "or none", "");
    for (unsigned i = 0; i < r->n_nodes; i++) {
        r->nodes[i].pid = pids[i];
        r->nodes[i].log = logs[i];
    }
    uint64_t total = r->closed ? r->count
                               : (uint64_t)ceil(r->rate * r->duration);
    if (total == 0)
        total = 1;
    if (total > 50000000)
        die_usage("the run would pre-sign more than 50 000 000 "
                  "transactions; lower --rate or --duration%s%s", "", "");
    signal(SIGPIPE, SIG_IGN);
    r->base = event_base_new();
    if (r->base == NULL) {
        fprintf(stderr, "zbc-load: cannot create the event loop\n");
        return 1;
    }
    /* the chain: every node must be on node 0's genesis */
    char why[EXAMPLE_MAX];
    json_t *info = get_info(r, &r->nodes[0], why, sizeof why);
    if (info == NULL) {
        fprintf(stderr, "zbc-load: cannot read %s/api/v1/node/info: %s\n",
                r->nodes[0].url, why);
        return 1;
    }
    bool ok = true;
    const char *gh = json_string_value(json_object_get(info, "genesis_hash"));
    r->chain.fee_base = u64_field(info, "min_fee_base", &ok);
    r->chain.fee_per_byte = u64_field(info, "min_fee_per_byte", &ok);
    uint64_t sv = u64_field(info, "signing_version", &ok);
    uint64_t h0 = u64_field(info, "height", &ok);
    if (!ok || gh == NULL || !zbc_hex_decode_exact(r->chain.genesis, 32, gh) ||
        sv != 2 || h0 > UINT32_MAX) {
        fprintf(stderr, "zbc-load: %s/api/v1/node/info lacks genesis_hash, "
                "min_fee_base, min_fee_per_byte, height or signing_version "
                "2\n", r->nodes[0].url);
        json_decref(info);
        return 1;
    }
    json_decref(info);
    r->h_base = (uint32_t)h0;
    r->h_next = r->h_base + 1;
    for (unsigned i = 1; i < r->n_nodes; i++) {
        json_t *j = get_info(r, &r->nodes[i], why, sizeof why);
        const char *g = j ? json_string_value(json_object_get(j, "genesis_hash"))
                          : NULL;
        uint8_t other[32];
        if (j == NULL && !r->quiet)
            fprintf(stderr, "zbc-load: warning: %s/api/v1/node/info: %s; "
                    "sending to it anyway (failures are counted)\n",
                    r->nodes[i].url, why);
        if (j != NULL && (g == NULL || !zbc_hex_decode_exact(other, 32, g) ||
                          memcmp(other, r->chain.genesis, 32) != 0)) {
            fprintf(stderr, "zbc-load: %s is on another chain than %s "
                    "(genesis_hash differs)\n", r->nodes[i].url,
                    r->nodes[0].url);
            json_decref(j);
            return 1;
        }
        json_decref(j);
    }
    /* the workload */
    double t_gen = mono_now();
    r->keys = calloc(r->n_keys, sizeof *r->keys);
    r->ht_mask = 1023;
    r->ht = calloc(r->ht_mask + 1, sizeof *r->ht);
    if (r->keys == NULL || r->ht == NULL) {
        fprintf(stderr, "zbc-load: out of memory\n");
        return 1;
    }
    for (uint32_t i = 0; i < r->n_keys; i++)
        zbc_load_key_derive(&r->keys[i], r->seed, i);
    r->ts = (int64_t)wall_now();
    struct zbc_load_tx *joins = NULL;
    uint32_t n_joins = 0;
    for (uint64_t k = 0; k < total; k++) {
        struct zbc_load_tx t, jn;
        struct zbc_err err;
        if (!zbc_load_gen(&t, &jn, k, &r->mix, r->keys, r->n_keys, &r->chain,
                          r->ts, &err)) {
            fprintf(stderr, "zbc-load: building transaction %" PRIu64
                    ": %s\n", k, err.msg);
            return 1;
        }
        uint32_t idx = add_tx(r, &t);
        if (idx == UINT32_MAX) {
            fprintf(stderr, "zbc-load: out of memory\n");
            return 1;
        }
        if (jn.bytes != NULL) {
            struct zbc_load_tx *nj = realloc(joins, (n_joins + 1) * sizeof *nj);
            if (nj == NULL) {
                fprintf(stderr, "zbc-load: out of memory\n");
                return 1;
            }
            joins = nj;
            joins[n_joins++] = jn;
        }
    }
    r->n_workload = r->n_txs;
    /* the joins go after the workload: sent when their create is in a block */
    r->games = calloc(n_joins + 1, sizeof *r->games);
    if (r->games == NULL) {
        fprintf(stderr, "zbc-load: out of memory\n");
        return 1;
    }
    uint32_t ji = 0;
    for (uint32_t i = 0; i < r->n_workload && ji < n_joins; i++) {
        if (r->txs[i].kind != ZBC_LOAD_CREATE)
            continue;
        uint32_t jidx = add_tx(r, &joins[ji++]);
        if (jidx == UINT32_MAX) {
            fprintf(stderr, "zbc-load: out of memory\n");
            return 1;
        }
        struct game *g = &r->games[r->n_games++];
        g->create = i;
        g->join = jidx;
        g->move = UINT32_MAX;
        /* the type is the create body's first byte: rebuild from k */
        struct zbc_tx tx;
        struct zbc_err err;
        if (zbc_tx_parse(&tx, r->txs[i].bytes, r->txs[i].len, &err) &&
            tx.body_len > 0)
            g->type = tx.body[0];
    }
    free(joins);
    if (!r->quiet)
        fprintf(stderr, "zbc-load: %u transactions signed for %u senders in "
                "%.1f s; sending to %u node%s\n", r->n_txs, r->n_keys,
                mono_now() - t_gen, r->n_nodes, r->n_nodes == 1 ? "" : "s");
    for (unsigned i = 0; i < r->n_nodes; i++) {
        struct node *n = &r->nodes[i];
        for (unsigned c = 0; c < r->n_conns; c++) {
            n->conns[c].c = new_conn(r, n);
            if (n->conns[c].c == NULL) {
                fprintf(stderr, "zbc-load: cannot create a connection\n");
                return 1;
            }
        }
        n->info_conn = new_conn(r, n);
        if (n->info_conn == NULL)
            return 1;
        if (n->log != NULL)
            n->log_off0 = file_size(n->log);
        long rss;
        n->proc_ok = proc_sample(n, &n->cpu0, &rss);
        n->io_ok = io_sample(n, &n->wr0);
        if (n->pid > 0 && !n->proc_ok && !r->quiet)
            fprintf(stderr, "zbc-load: warning: cannot read /proc/%ld/stat: "
                    "no CPU or RSS for node %u\n", n->pid, i);
    }
    for (unsigned i = 0; i < r->n_nodes; i++)
        if ((r->nodes[i].apps_conn = new_conn(r, &r->nodes[i])) == NULL)
            return 1;
    r->t_start = mono_now();
    r->t_end = r->t_start + r->duration;
    r->wall_start = wall_now();
    r->wall_end_planned = r->wall_start + r->duration;
    r->self_cpu0 = self_cpu();
    zbc_load_sched_init(&r->sched, r->rate, r->t_start, r->n_workload);
    r->sending = true;
    struct timeval one_ms = {0, 1000}, quarter = {0, 250000};
    r->tick = event_new(r->base, -1, EV_PERSIST, on_tick, r);
    r->follow_tick = event_new(r->base, -1, EV_PERSIST, on_follow_tick, r);
    if (r->tick == NULL || r->follow_tick == NULL)
        return 1;
    event_add(r->tick, &one_ms);
    event_add(r->follow_tick, &quarter);
    if (r->closed)
        send_next_closed(r);
    /* the sending phase ends in on_tick; wall_end is taken there through
     * the first follow tick after it */
    while (!r->stopping)
        event_base_dispatch(r->base);
    stop_sending(r); /* when the loop ended another way */
    check_lost(r);
    report(r);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 ||
        strcmp(cmd, "help") == 0) {
        usage(stdout);
        return 0;
    }
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        }
    if (strcmp(cmd, "run") == 0)
        return cmd_run(argc - 2, argv + 2);
    if (strcmp(cmd, "accounts") == 0)
        return cmd_accounts(argc - 2, argv + 2);
    if (strcmp(cmd, "verify-rate") == 0)
        return cmd_verify_rate(argc - 2, argv + 2);
    if (strcmp(cmd, "page-rate") == 0)
        return cmd_page_rate(argc - 2, argv + 2);
    fprintf(stderr, "zbc-load: unknown command '%s' (run, accounts, "
            "verify-rate, page-rate; zbc-load --help)\n", cmd);
    return 2;
}
