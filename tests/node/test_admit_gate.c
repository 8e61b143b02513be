/* The whole-request refusal under overload (node/zbcd/admit.h
 * zbc_admit_gate, docs/api.md §3 "Overload"): on a full pool a plain-form
 * request is refused whole exactly when every element would get the
 * per-element `mempool is full` refusal, with that refusal's fee; any
 * element that could get in (a better fee), a duplicate, or a body in
 * another form goes the ordinary way; a validator with two blocks' worth
 * pooled refuses everything in the last ZBC_ADMIT_DUE_MS before its slot. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chain_fixture.h"
#include "consensus/tx_payload.h"
#include "crypto/hex.h"
#include "node/zbcd/admit.h"
#include "node/zbcd/chain.h"
#include "node/zbcd/log.h"
#include "testlib.h"

#define FEE 5000
#define POOL 8
#define N 20

static struct fixture f;
static struct zbc_chain *chain;
static uint64_t now;
static int64_t ts;

static void open_chain(size_t max_txs)
{
    fx_setup(&f);
    struct zbc_err err = {{0}};
    struct zbc_chain_config cfg = {.ledger_dir = f.ledger, .genesis = &f.g,
                                   .key = &f.key, .mempool_max_txs = max_txs};
    CHECK(zbc_chain_open(&chain, &cfg, &err));
    struct zbc_slot slot;
    CHECK(zbc_chain_next_slot(chain, &slot, &err));
    now = slot.earliest_ms;
    ts = (int64_t)(now / 1000);
}

static void close_chain(void)
{
    zbc_chain_close(chain);
    chain = NULL;
    fx_teardown(&f);
}

/* body: a JSON array (batch) or one object of {"transaction_bytes": hex}. */
static char *plain_body(uint8_t txs[][512], const size_t *lens, size_t n,
                        bool batch, const char *sep)
{
    size_t cap = 64;
    for (size_t i = 0; i < n; i++)
        cap += 2 * lens[i] + 64;
    char *s = malloc(cap), *p = s;
    if (batch)
        p += sprintf(p, "[%s", sep);
    for (size_t i = 0; i < n; i++) {
        p += sprintf(p, "%s{%s\"transaction_bytes\"%s:%s\"", i > 0 ? "," : "",
                     sep, sep, sep);
        zbc_hex_encode(p, txs[i], lens[i]);
        p += 2 * lens[i];
        p += sprintf(p, "\"%s}%s", sep, sep);
    }
    if (batch)
        p += sprintf(p, "]%s", sep);
    return s;
}

static void fill_pool(void)
{
    for (int i = 0; i < POOL; i++) {
        uint8_t tx[512], h[32];
        bool dup;
        struct zbc_err e = {{0}};
        size_t n = fx_send(tx, sizeof tx, &f, f.alice_seed, &f.bob,
                           (uint64_t)(1000 + i), FEE, ts);
        CHECK(zbc_chain_submit(chain, tx, n, now, h, &dup, &e));
    }
    CHECK_EQ_INT(zbc_chain_mempool_count(chain), POOL);
}

static int gate(const char *body, struct zbc_admit_refusal *r)
{
    struct zbc_admit_pool p;
    zbc_admit_pool_of(&p, chain, now, true);
    return zbc_admit_gate(&p, body, strlen(body), r);
}

static uint8_t txs[N][512];
static size_t lens[N];

static void make_txs(int64_t fee)
{
    for (int i = 0; i < N; i++)
        lens[i] = fx_send(txs[i], sizeof txs[i], &f,
                          i % 2 ? f.bob_seed : f.alice_seed,
                          i % 2 ? &f.alice : &f.bob, (uint64_t)(1 + i), fee,
                          ts);
}

/* A full pool: the batch is refused whole, and each of its transactions
 * submitted the ordinary way gets `mempool is full` with that fee. */
static void test_full_as_elements_would(void)
{
    open_chain(POOL);
    fill_pool();
    make_txs(FEE);
    char *body = plain_body(txs, lens, N, true, "");
    struct zbc_admit_refusal r;
    CHECK_EQ_INT(gate(body, &r), 1);
    CHECK_EQ_INT(r.reason, ZBC_ADMIT_MEMPOOL_FULL);
    CHECK_EQ_INT(r.n_txs, N);
    CHECK(r.batch);
    CHECK_EQ_INT(r.retry_after_s, 1);
    size_t longest = 0;
    for (int i = 0; i < N; i++)
        if (lens[i] > longest)
            longest = lens[i];
    CHECK_EQ_INT(r.fee_bytes, longest);
    size_t pool_bytes = zbc_chain_mempool_bytes(chain);
    /* the ordinary way: every element refused, the pool unchanged */
    struct zbc_submit items[N];
    memset(items, 0, sizeof items);
    for (int i = 0; i < N; i++) {
        items[i].raw = txs[i];
        items[i].len = lens[i];
    }
    zbc_chain_submit_batch(chain, items, N, now);
    for (int i = 0; i < N; i++) {
        CHECK_EQ_INT(items[i].ok, 0);
        CHECK(strstr(items[i].err.msg, "mempool is full") != NULL);
        if (lens[i] == longest) { /* the same sentence, the same fee */
            CHECK(strncmp(r.msg, items[i].err.msg,
                          strlen(items[i].err.msg)) == 0);
            if (strncmp(r.msg, items[i].err.msg, strlen(items[i].err.msg)))
                fprintf(stderr, "  gate: %s\n  element: %s\n", r.msg,
                        items[i].err.msg);
        }
    }
    CHECK_EQ_INT(zbc_chain_mempool_count(chain), POOL);
    CHECK_EQ_INT(zbc_chain_mempool_bytes(chain), pool_bytes);
    /* the answer's body */
    struct zbc_admit_pool p;
    zbc_admit_pool_of(&p, chain, now, true);
    json_t *o = zbc_admit_refusal_json(&p, &r);
    CHECK(o != NULL);
    CHECK(json_is_false(json_object_get(o, "success")));
    CHECK_EQ_INT(json_integer_value(json_object_get(o, "code")), 503);
    CHECK_EQ_STR(json_string_value(json_object_get(o, "reason")),
                 "mempool_full");
    CHECK_EQ_INT(json_integer_value(json_object_get(o, "fee_needed")),
                 (json_int_t)r.fee_needed);
    CHECK_EQ_INT(json_integer_value(json_object_get(o, "fee_needed_bytes")),
                 (json_int_t)longest);
    CHECK_EQ_INT(json_integer_value(json_object_get(o, "cheapest_fee")), FEE);
    CHECK_EQ_INT(json_integer_value(json_object_get(o, "transactions")), N);
    CHECK_EQ_INT(json_integer_value(json_object_get(o, "mempool_size")),
                 POOL);
    CHECK_EQ_INT(json_integer_value(json_object_get(o, "retry_after")), 1);
    CHECK_EQ_STR(json_string_value(json_object_get(o, "error")), r.msg);
    json_decref(o);
    free(body);
    /* JSON whitespace anywhere it may be: still the plain form */
    body = plain_body(txs, lens, N, true, " \n\t\r");
    CHECK_EQ_INT(gate(body, &r), 1);
    free(body);
    /* a single submission: the same refusal, the element's own sentence */
    body = plain_body(txs, lens, 1, false, " ");
    CHECK_EQ_INT(gate(body, &r), 1);
    CHECK(!r.batch);
    CHECK_EQ_INT(r.n_txs, 1);
    CHECK(strncmp(r.msg, items[0].err.msg, strlen(items[0].err.msg)) == 0);
    CHECK(strstr(r.msg, "the transaction was refused whole") != NULL);
    free(body);
    close_chain();
}

/* Anything that could get in, or another form, goes the ordinary way. */
static void test_full_passes_what_could_get_in(void)
{
    open_chain(POOL);
    fill_pool();
    make_txs(FEE);
    struct zbc_admit_refusal r;
    /* one element paying more per byte than the cheapest: it displaces */
    uint8_t keep[512];
    size_t keep_len = lens[7];
    memcpy(keep, txs[7], keep_len);
    lens[7] = fx_send(txs[7], sizeof txs[7], &f, f.bob_seed, &f.alice, 8,
                      FEE + 1, ts);
    char *body = plain_body(txs, lens, N, true, "");
    CHECK_EQ_INT(gate(body, &r), 0);
    free(body);
    memcpy(txs[7], keep, keep_len);
    lens[7] = keep_len;
    /* one element already pooled: a duplicate (202), not a refusal */
    lens[3] = fx_send(txs[3], sizeof txs[3], &f, f.alice_seed, &f.bob, 1000,
                      FEE, ts);
    body = plain_body(txs, lens, N, true, "");
    CHECK_EQ_INT(gate(body, &r), 0);
    free(body);
    make_txs(FEE);
    /* the same body refused, then bodies that differ from the plain form
     * or do not parse: the ordinary way gives their answers */
    body = plain_body(txs, lens, 3, true, "");
    CHECK_EQ_INT(gate(body, &r), 1);
    size_t bl = strlen(body);
    char *bad = malloc(bl + 64);
    const char *tails[] = {"x", ",", "]", "[]"};
    for (size_t t = 0; t < sizeof tails / sizeof *tails; t++) {
        snprintf(bad, bl + 64, "%s%s", body, tails[t]);
        CHECK_EQ_INT(gate(bad, &r), 0);
    }
    CHECK_EQ_INT(gate("[]", &r), 0);
    CHECK_EQ_INT(gate("", &r), 0);
    CHECK_EQ_INT(gate("[{\"transaction_bytes\":\"\"}]", &r), 0);
    CHECK_EQ_INT(gate("[{\"transaction_bytes\":\"0g\"}]", &r), 0);
    CHECK_EQ_INT(gate("{\"transaction_bytes\":\"00\"}", &r), 0);
    /* every prefix, and every byte changed, never crashes; only the whole
     * body (or one with a changed hex digit that still parses) refuses */
    for (size_t cut = 0; cut < bl; cut++) {
        memcpy(bad, body, cut);
        bad[cut] = '\0';
        CHECK_EQ_INT(gate(bad, &r), 0);
    }
    for (size_t i = 0; i < bl; i += 7) {
        strcpy(bad, body);
        bad[i] = bad[i] == '"' ? 'x' : '"';
        (void)gate(bad, &r);
    }
    free(bad);
    free(body);
    /* an extra field */
    char hex[1100], one[1300];
    zbc_hex_encode(hex, txs[0], lens[0]);
    snprintf(one, sizeof one,
             "[{\"transaction_bytes\":\"%s\",\"fee\":1}]", hex);
    CHECK_EQ_INT(gate(one, &r), 0);
    /* the payload form */
    struct zbc_tx tx;
    struct zbc_err err = {{0}};
    CHECK(zbc_tx_parse(&tx, txs[0], lens[0], &err));
    json_t *payload = NULL;
    CHECK(zbc_tx_payload_build(&payload, &tx, &err));
    char *pj = json_dumps(payload, JSON_COMPACT);
    CHECK_EQ_INT(gate(pj, &r), 0);
    free(pj);
    json_decref(payload);
    /* more elements than a batch may hold: the ordinary 413 */
    size_t cap = (ZBC_API_MAX_BATCH + 1) * (2 * lens[0] + 32) + 8;
    char *big = malloc(cap), *q = big;
    *q++ = '[';
    for (int i = 0; i <= ZBC_API_MAX_BATCH; i++)
        q += sprintf(q, "%s{\"transaction_bytes\":\"%s\"}", i ? "," : "", hex);
    strcpy(q, "]");
    CHECK_EQ_INT(gate(big, &r), 0);
    big[strlen(big) - 1] = '\0';
    q = strrchr(big, ',');
    strcpy(q, "]");
    CHECK_EQ_INT(gate(big, &r), 1); /* 1000 of one transaction */
    CHECK_EQ_INT(r.n_txs, ZBC_API_MAX_BATCH);
    free(big);
    close_chain();
}

/* A transfer with a message of mlen bytes (longer than fx_send's). */
static size_t send_with_message(uint8_t *out, size_t cap, uint64_t amount,
                                int64_t fee, size_t mlen)
{
    uint8_t body[8], msg[64];
    for (int i = 0; i < 8; i++)
        body[i] = (uint8_t)(amount >> (8 * i));
    memset(msg, 'm', sizeof msg);
    struct zbc_tx tx;
    memset(&tx, 0, sizeof tx);
    tx.type = ZBC_TX_SEND;
    tx.version = ZBC_TX_VERSION;
    tx.timestamp = ts;
    tx.recipient = f.bob;
    tx.fee = fee;
    tx.body = body;
    tx.body_len = sizeof body;
    tx.message = msg;
    tx.message_len = mlen;
    size_t n = 0;
    struct zbc_err err = {{0}};
    CHECK(zbc_tx_sign_ed25519(out, cap, &n, &tx, f.alice_seed, f.g.hash,
                              &err));
    return n;
}

/* A pool full by bytes and a newcomer longer than its cheapest: two must
 * leave, so the fee to beat is the second cheapest's, not the cheapest's.
 * The whole refusal names the very fee the per-element refusal names. */
static void test_fee_when_two_must_go(void)
{
    uint8_t probe[512];
    size_t l = fx_send(probe, sizeof probe, &f, f.alice_seed, &f.bob, 1, FEE,
                       0);
    fx_setup(&f);
    struct zbc_err err = {{0}};
    struct zbc_chain_config cfg = {.ledger_dir = f.ledger, .genesis = &f.g,
                                   .key = &f.key, .mempool_max_bytes = 4 * l};
    CHECK(zbc_chain_open(&chain, &cfg, &err));
    struct zbc_slot slot;
    CHECK(zbc_chain_next_slot(chain, &slot, &err));
    now = slot.earliest_ms;
    ts = (int64_t)(now / 1000);
    for (int i = 0; i < 4; i++) { /* fees FEE+300, +200, +100, +0 */
        uint8_t tx[512], h[32];
        bool dup;
        struct zbc_err e = {{0}};
        size_t n = fx_send(tx, sizeof tx, &f, f.alice_seed, &f.bob,
                           (uint64_t)(100 + i), FEE + 100 * (3 - i), ts);
        CHECK_EQ_INT(n, l);
        CHECK(zbc_chain_submit(chain, tx, n, now, h, &dup, &e));
    }
    CHECK_EQ_INT(zbc_chain_mempool_bytes(chain), 4 * l);
    /* the newcomer: 40 bytes longer, paying more per byte than the
     * cheapest (FEE) but not than the second (FEE + 100) */
    uint8_t nc[600];
    size_t nl = send_with_message(nc, sizeof nc, 7, 0, 40);
    int64_t fee = (int64_t)((uint64_t)FEE * nl / l + 2);
    nl = send_with_message(nc, sizeof nc, 7, fee, 40);
    CHECK(nl > l);
    uint8_t h[32];
    bool dup;
    struct zbc_err e = {{0}};
    CHECK(!zbc_chain_submit(chain, nc, nl, now, h, &dup, &e));
    CHECK(strstr(e.msg, "mempool is full") != NULL);
    uint64_t want = (uint64_t)(FEE + 100) * nl / l + 1;
    char sentence[160];
    snprintf(sentence, sizeof sentence, "a fee of at least %llu for these "
             "%zu bytes", (unsigned long long)want, nl);
    CHECK(strstr(e.msg, sentence) != NULL);
    CHECK_EQ_INT(zbc_chain_mempool_fee_needed(chain, nl), want);
    CHECK_EQ_INT(zbc_chain_mempool_fee_needed(chain, l),
                 (uint64_t)FEE * l / l + 1);
    uint8_t nn[1][512];
    memcpy(nn[0], nc, nl);
    size_t nls[1] = {nl};
    char *body = plain_body(nn, nls, 1, false, "");
    struct zbc_admit_refusal r;
    CHECK_EQ_INT(gate(body, &r), 1);
    CHECK_EQ_INT(r.fee_needed, want);
    CHECK(strncmp(r.msg, e.msg, strlen(e.msg)) == 0);
    if (strncmp(r.msg, e.msg, strlen(e.msg)) != 0)
        fprintf(stderr, "  gate: %s\n  element: %s\n", r.msg, e.msg);
    free(body);
    /* paying that fee: the ordinary way (it gets in, two leave) */
    nl = send_with_message(nc, sizeof nc, 7, (int64_t)want, 40);
    memcpy(nn[0], nc, nl);
    body = plain_body(nn, nls, 1, false, "");
    CHECK_EQ_INT(gate(body, &r), 0);
    free(body);
    CHECK(zbc_chain_submit(chain, nc, nl, now, h, &dup, &e));
    CHECK_EQ_INT(zbc_chain_mempool_count(chain), 3);
    close_chain();
}

/* A pool with room: nothing is refused whole. */
static void test_room_passes(void)
{
    open_chain(0);
    make_txs(FEE);
    char *body = plain_body(txs, lens, N, true, "");
    struct zbc_admit_refusal r;
    CHECK_EQ_INT(gate(body, &r), 0);
    free(body);
    close_chain();
}

/* block_due: a synced validator with two blocks' worth pooled refuses in
 * the last ZBC_ADMIT_DUE_MS before its slot and up to the build budget
 * after it, whatever the body. */
static void test_block_due(void)
{
    struct zbc_admit_pool p = {
        .count = 5000, .bytes = 5000 * 180, .room_txs = 1000,
        .room_bytes = 1 << 20, .block_cap = 2500, .producing = true,
        .slot_height = 77, .slot_ms = 1000000, .now_ms = 1000000 - 100,
        .late_ms = 250, .block_time_ms = 1000,
    };
    struct zbc_admit_refusal r;
    CHECK_EQ_INT(zbc_admit_gate(&p, "[1]", 3, &r), 1);
    CHECK_EQ_INT(r.reason, ZBC_ADMIT_BLOCK_DUE);
    CHECK(r.batch);
    CHECK(strstr(r.msg, "node busy: its block at height 77 is due in 100 ms")
          != NULL);
    CHECK_EQ_INT(r.retry_after_s, 1);
    json_t *o = zbc_admit_refusal_json(&p, &r);
    CHECK_EQ_STR(json_string_value(json_object_get(o, "reason")),
                 "block_due");
    CHECK_EQ_INT(json_integer_value(json_object_get(o, "code")), 503);
    CHECK(json_object_get(o, "fee_needed") == NULL);
    json_decref(o);
    p.now_ms = 1000000 + 250; /* overdue: refused for the build budget */
    CHECK_EQ_INT(zbc_admit_gate(&p, "{}", 2, &r), 1);
    CHECK(strstr(r.msg, "is due now") != NULL);
    p.now_ms = 1000000 + 251; /* later: the node is not producing it */
    CHECK_EQ_INT(zbc_admit_gate(&p, "{}", 2, &r), 0);
    p.now_ms = 1000000 - 101;
    CHECK_EQ_INT(zbc_admit_gate(&p, "{}", 2, &r), 0);
    p.now_ms = 1000000;
    p.count = 4999; /* less than two blocks' worth */
    CHECK_EQ_INT(zbc_admit_gate(&p, "{}", 2, &r), 0);
    p.count = 5000;
    p.producing = false; /* not a validator, or not synced */
    CHECK_EQ_INT(zbc_admit_gate(&p, "{}", 2, &r), 0);
    p.producing = true;
    p.block_time_ms = 2500;
    CHECK_EQ_INT(zbc_admit_gate(&p, "{}", 2, &r), 1);
    CHECK_EQ_INT(r.retry_after_s, 3);
}

/* The fee a full pool asks for, as mempool.c's room_for computes it. */
static void test_fee_needed(void)
{
    struct zbc_admit_pool p = {.has_cheapest = true, .cheapest_fee = 1000,
                               .cheapest_len = 100, .min_fee_base = 10,
                               .min_fee_per_byte = 1};
    CHECK_EQ_INT(zbc_admit_fee_needed(&p, 100), 1001);
    CHECK_EQ_INT(zbc_admit_fee_needed(&p, 150), 1501);
    CHECK_EQ_INT(zbc_admit_fee_needed(&p, 33), 331);
    p.cheapest_fee = 5; /* below the genesis minimum: the minimum */
    CHECK_EQ_INT(zbc_admit_fee_needed(&p, 100), 110);
    p.cheapest_fee = INT64_MAX;
    CHECK(zbc_admit_fee_needed(&p, 1000) == UINT64_MAX);
    p.has_cheapest = false;
    CHECK(zbc_admit_fee_needed(&p, 100) == UINT64_MAX);
}

int main(void)
{
    zbc_log_to_stderr(false);
    TEST_RUN(test_full_as_elements_would);
    TEST_RUN(test_full_passes_what_could_get_in);
    TEST_RUN(test_room_passes);
    TEST_RUN(test_fee_when_two_must_go);
    TEST_RUN(test_block_due);
    TEST_RUN(test_fee_needed);
    return test_summary("node_admit_gate");
}
