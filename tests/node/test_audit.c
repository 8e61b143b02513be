/* zbc-audit's replay and divergence reporting (node/audit/): a three-block
 * chain built by the consensus code is served by an in-memory source; the
 * clean chain audits clean, and each tampering (a block re-signed with
 * another state root, a stored event, a missing block, another genesis)
 * is reported at its height with expected vs found.  Also the genesis
 * file zbc-audit picks: --genesis, else DIR/genesis.json of --datadir,
 * else an error naming both. */
#include "testlib.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "consensus/chain_fixture.h"
#include "consensus/events.h"
#include "consensus/ledger.h"
#include "node/audit/cli.h"
#include "node/audit/replay.h"
#include "node/audit/report.h"
#include "node/audit/source.h"
#include "node/zbcd/json_util.h"

#define N_BLOCKS 3

struct mem_block {
    uint8_t *bytes;
    size_t len;
    uint8_t *ev;
    size_t ev_len;
};

struct chain {
    struct fx f;
    struct mem_block b[N_BLOCKS + 1]; /* 1..N_BLOCKS */
    uint8_t root[N_BLOCKS + 1][32];   /* header state roots */
    uint8_t tip_hash[32];
};

/* The source the replay reads: this test's chain. */
struct fake {
    struct chain *c;
    uint32_t claim_height;
    uint8_t genesis[32];
};

static int f_tip(void *ctx, struct zbc_audit_tip *t, struct zbc_err *err)
{
    struct fake *k = ctx;
    (void)err;
    memset(t, 0, sizeof *t);
    t->has_genesis = true;
    memcpy(t->genesis_hash, k->genesis, 32);
    t->height = k->claim_height;
    memcpy(t->hash, k->c->tip_hash, 32);
    return 1;
}

static int f_block(void *ctx, uint32_t h, struct zbc_audit_block *out,
                   bool *found, struct zbc_err *err)
{
    struct fake *k = ctx;
    (void)err;
    memset(out, 0, sizeof *out);
    *found = h >= 1 && h <= N_BLOCKS;
    if (!*found)
        return 1;
    struct mem_block *m = &k->c->b[h];
    out->bytes = malloc(m->len);
    memcpy(out->bytes, m->bytes, m->len);
    out->len = m->len;
    out->events_raw = malloc(m->ev_len);
    memcpy(out->events_raw, m->ev, m->ev_len);
    out->events_len = m->ev_len;
    out->has_events_raw = true;
    return 1;
}

static int f_final(void *ctx, const struct zbc_audit_final *fin,
                   struct zbc_audit_report *r, struct zbc_err *err)
{
    (void)ctx;
    (void)fin;
    (void)r;
    (void)err;
    return 1;
}

static void f_close(void *ctx)
{
    (void)ctx;
}

/* The same source fetched one block at a time and in parallel. */
static const struct zbc_audit_source_ops fake_ops = {
    f_tip, f_block, NULL, f_final, f_close, false,
};
static const struct zbc_audit_source_ops fake_ops_parallel = {
    f_tip, f_block, NULL, f_final, f_close, true,
};
static bool parallel;
static const struct zbc_audit_hooks *run_hooks; /* run()'s, NULL: none */

static void build_chain(struct chain *c)
{
    memset(c, 0, sizeof *c);
    fx_init(&c->f);
    struct zbc_err err;
    for (uint32_t h = 1; h <= N_BLOCKS; h++) {
        uint8_t tx[512];
        struct zbc_tx_ref ref = {tx, 0};
        size_t n = 0;
        if (h < N_BLOCKS) /* the last block is empty */
            n = fx_send(tx, &c->f, &c->f.a, &c->f.b.addr, 1000 * h, FX_FEE,
                        fx_now_s(&c->f));
        ref.len = (uint32_t)n;
        struct zbc_block b;
        struct zbc_undo u;
        struct zbc_events ev;
        if (!zbc_block_build(&b, &c->f.s, &c->f.g, &c->f.tip, &ref,
                             n > 0 ? 1 : 0, c->f.tip.timestamp_ms + 1000,
                             c->f.val.sk, &u, &ev, &err)) {
            fprintf(stderr, "build: %s\n", err.msg);
            exit(2);
        }
        if (!zbc_block_encode(&b, &c->b[h].bytes, &c->b[h].len, &err) ||
            !zbc_events_encode(&ev, &c->b[h].ev, &c->b[h].ev_len, &err)) {
            fprintf(stderr, "encode: %s\n", err.msg);
            exit(2);
        }
        memcpy(c->root[h], b.header.state_root, 32);
        zbc_block_hash(c->tip_hash, &b.header);
        zbc_parent_from_header(&c->f.tip, &b.header);
        zbc_block_free(&b);
        zbc_undo_free(&u);
        zbc_events_free(&ev);
    }
}

static void free_chain(struct chain *c)
{
    for (int h = 1; h <= N_BLOCKS; h++) {
        free(c->b[h].bytes);
        free(c->b[h].ev);
    }
    fx_free(&c->f);
}

static int run(struct chain *c, uint32_t claim, const uint8_t *genesis,
               struct zbc_audit_report *r, struct zbc_audit_stats *st)
{
    struct fake k = {c, claim, {0}};
    memcpy(k.genesis, genesis != NULL ? genesis : c->f.g.hash, 32);
    struct zbc_audit_source src = {parallel ? &fake_ops_parallel : &fake_ops,
                                   &k, "test"};
    struct zbc_audit_replay rp;
    struct zbc_err err;
    memset(r, 0, sizeof *r);
    int ok = zbc_audit_replay(&rp, &src, &c->f.g, FX_T0 + 3600000, run_hooks,
                              r, &err);
    if (!ok)
        fprintf(stderr, "replay: %s\n", err.msg);
    *st = rp.stats;
    st->app_ids = NULL;
    zbc_audit_replay_free(&rp);
    return ok;
}

static void test_clean(void)
{
    struct chain c;
    build_chain(&c);
    struct zbc_audit_report r;
    struct zbc_audit_stats st;
    CHECK(run(&c, N_BLOCKS, NULL, &r, &st));
    CHECK(zbc_audit_clean(&r));
    CHECK_EQ_INT(st.checked, N_BLOCKS);
    CHECK(st.complete);
    CHECK_EQ_INT(st.txs, N_BLOCKS - 1);
    CHECK_EQ_INT(st.events_compared, N_BLOCKS);
    zbc_audit_report_free(&r);
    free_chain(&c);
}

/* Block 2 re-signed by the producer with another state root: everything
 * else verifies; the replay computes the real root. */
static void test_state_root(void)
{
    struct chain c;
    build_chain(&c);
    struct zbc_block b;
    struct zbc_err err;
    CHECK(zbc_block_decode(&b, c.b[2].bytes, c.b[2].len, &err));
    b.header.state_root[0] ^= 0x80;
    zbc_block_sign(&b.header, c.f.val.sk);
    uint8_t *bytes;
    size_t len;
    CHECK(zbc_block_encode(&b, &bytes, &len, &err));
    char want[65], found[65];
    zbc_hex_encode(want, c.root[2], 32);
    zbc_hex_encode(found, b.header.state_root, 32);
    zbc_block_free(&b);
    free(c.b[2].bytes);
    c.b[2].bytes = bytes;
    c.b[2].len = len;
    struct zbc_audit_report r;
    struct zbc_audit_stats st;
    CHECK(run(&c, N_BLOCKS, NULL, &r, &st));
    CHECK_EQ_INT(r.total, 1);
    if (r.n == 1) {
        CHECK_EQ_INT(r.d[0].height, 2);
        CHECK_EQ_STR(zbc_audit_what_name(r.d[0].what), "state_root");
        CHECK_EQ_STR(r.d[0].expected, want);
        CHECK_EQ_STR(r.d[0].found, found);
    }
    CHECK_EQ_INT(st.checked, 1);
    CHECK(!st.complete);
    zbc_audit_report_free(&r);
    free_chain(&c);
}

/* A consensus bug played by the hook: 5 units credited to b out of
 * nowhere right after block `at` applied. */
struct mint {
    struct chain *c;
    uint32_t at;
};

static void mint_after(void *arg, uint32_t height, struct zbc_state *st)
{
    struct mint *m = arg;
    struct zbc_err err;
    if (height == m->at)
        CHECK(zbc_ledger_credit(st, &m->c->f.b.addr, 5, &err));
}

static void on_block_none(void *arg, uint32_t height,
                          const struct zbc_block *b,
                          const struct zbc_checked_block *cb,
                          const struct zbc_events *ev)
{
    (void)arg, (void)height, (void)b, (void)cb, (void)ev;
}

/* The money invariant is kept as a running total (docs/audit.md §2 step
 * 7): money created at height 2 is named at height 2, with the exact
 * sums, not only by the scan at the end; height 1 is clean; block 3 then
 * no longer applies on that state (its root, or the debug build's own
 * invariant check) and the replay stops there. */
static void test_money_created_named_at_its_height(void)
{
    struct chain c;
    build_chain(&c);
    uint64_t supply = c.f.g.total_supply;
    CHECK_EQ_INT(supply, 101000500); /* fund + the fixture's balances */
    struct mint m = {&c, 2};
    struct zbc_audit_hooks hooks = {.on_block = on_block_none,
                                    .on_applied = mint_after, .arg = &m};
    run_hooks = &hooks;
    struct zbc_audit_report r;
    struct zbc_audit_stats st;
    CHECK(run(&c, N_BLOCKS, NULL, &r, &st));
    run_hooks = NULL;
    CHECK_EQ_INT(r.total, 2);
    if (r.n == 2) {
        CHECK_EQ_INT(r.d[0].height, 2);
        CHECK_EQ_STR(zbc_audit_what_name(r.d[0].what), "money");
        CHECK_EQ_STR(r.d[0].detail,
                     "money invariant fails after the block: money "
                     "invariant broken: balances sum to 101000505 and app "
                     "pots to 0, supply is 101000500");
        CHECK_EQ_INT(r.d[1].height, 3);
    }
    CHECK_EQ_INT(st.checked, 2);
    CHECK(!st.complete);
    zbc_audit_report_free(&r);
    free_chain(&c);
}

/* A stored event record with another amount: reported with both events;
 * the replay goes on. */
static void test_events(void)
{
    struct chain c;
    build_chain(&c);
    struct zbc_events ev;
    struct zbc_err err;
    memset(&ev, 0, sizeof ev);
    CHECK(zbc_events_decode(&ev, c.b[1].ev, c.b[1].ev_len, &err));
    CHECK(ev.n >= 2);
    uint64_t amount = ev.e[1].amount;
    ev.e[1].amount += 7;
    free(c.b[1].ev);
    CHECK(zbc_events_encode(&ev, &c.b[1].ev, &c.b[1].ev_len, &err));
    zbc_events_free(&ev);
    struct zbc_audit_report r;
    struct zbc_audit_stats st;
    CHECK(run(&c, N_BLOCKS, NULL, &r, &st));
    CHECK_EQ_INT(r.total, 1);
    if (r.n == 1) {
        char want[40], got[40];
        snprintf(want, sizeof want, "\"amount\":%llu",
                 (unsigned long long)amount);
        snprintf(got, sizeof got, "\"amount\":%llu",
                 (unsigned long long)amount + 7);
        CHECK_EQ_INT(r.d[0].height, 1);
        CHECK_EQ_STR(zbc_audit_what_name(r.d[0].what), "events");
        CHECK(strstr(r.d[0].detail, "event 1") != NULL);
        CHECK(strstr(r.d[0].expected, want) != NULL);
        CHECK(strstr(r.d[0].found, got) != NULL);
    }
    CHECK(st.complete);
    zbc_audit_report_free(&r);
    free_chain(&c);
}

/* The source claims one block more than it has; then another genesis. */
static void test_missing_and_genesis(void)
{
    struct chain c;
    build_chain(&c);
    struct zbc_audit_report r;
    struct zbc_audit_stats st;
    CHECK(run(&c, N_BLOCKS + 1, NULL, &r, &st));
    CHECK_EQ_INT(r.total, 1);
    if (r.n == 1) {
        CHECK_EQ_INT(r.d[0].height, N_BLOCKS + 1);
        CHECK_EQ_STR(zbc_audit_what_name(r.d[0].what), "block_missing");
    }
    CHECK_EQ_INT(st.checked, N_BLOCKS);
    CHECK(!st.complete);
    zbc_audit_report_free(&r);

    uint8_t other[32];
    memcpy(other, c.f.g.hash, 32);
    other[31] ^= 1;
    CHECK(run(&c, N_BLOCKS, other, &r, &st));
    CHECK_EQ_INT(r.total, 1);
    if (r.n == 1) {
        CHECK_EQ_INT(r.d[0].height, 0);
        CHECK_EQ_STR(zbc_audit_what_name(r.d[0].what), "genesis");
    }
    CHECK_EQ_INT(st.checked, 0);
    zbc_audit_report_free(&r);
    free_chain(&c);
}

/* Served (JSON) events: equal when rendered alike, one field changed is
 * a divergence naming the index. */
static void test_events_json(void)
{
    struct zbc_events ev;
    struct zbc_event e;
    struct zbc_err err;
    memset(&ev, 0, sizeof ev);
    memset(&e, 0, sizeof e);
    e.kind = ZBC_EVENT_TRANSFER;
    zbc_addr_empty(&e.a);
    zbc_addr_empty(&e.b);
    e.amount = 5;
    CHECK(zbc_events_push(&ev, &e, &err));
    e.kind = ZBC_EVENT_FEE;
    e.amount = 9;
    CHECK(zbc_events_push(&ev, &e, &err));
    json_t *served = json_array();
    for (size_t i = 0; i < ev.n; i++) {
        json_t *j;
        CHECK(zbc_json_event(&j, &ev.e[i], &err));
        json_array_append_new(served, j);
    }
    struct zbc_audit_report r;
    memset(&r, 0, sizeof r);
    CHECK(zbc_audit_compare_events_json(7, &ev, served, &r, &err));
    CHECK(zbc_audit_clean(&r));
    json_object_set_new(json_array_get(served, 1), "amount", json_integer(10));
    CHECK(zbc_audit_compare_events_json(7, &ev, served, &r, &err));
    CHECK_EQ_INT(r.total, 1);
    if (r.n == 1) {
        CHECK_EQ_INT(r.d[0].height, 7);
        CHECK(strstr(r.d[0].detail, "served event 1") != NULL);
        CHECK(strstr(r.d[0].found, "10") != NULL);
    }
    zbc_audit_report_free(&r);
    /* one event fewer served */
    json_array_remove(served, 1);
    CHECK(zbc_audit_compare_events_json(7, &ev, served, &r, &err));
    CHECK_EQ_INT(r.total, 1);
    if (r.n == 1)
        CHECK_EQ_STR(r.d[0].found, "(no event)");
    zbc_audit_report_free(&r);
    /* a stored record that does not decode */
    uint8_t junk[3] = {1, 9, 9};
    CHECK(zbc_audit_compare_events_raw(4, &ev, junk, sizeof junk, &r, &err));
    CHECK_EQ_INT(r.total, 1);
    if (r.n == 1)
        CHECK(strstr(r.d[0].detail, "does not decode") != NULL);
    zbc_audit_report_free(&r);
    json_decref(served);
    zbc_events_free(&ev);
}

/* The report keeps ZBC_AUDIT_KEEP_MAX divergences and counts the rest;
 * its JSON carries every kept one. */
static void test_report_limits(void)
{
    struct zbc_audit_report r;
    memset(&r, 0, sizeof r);
    CHECK(zbc_audit_clean(&r));
    for (int i = 0; i < ZBC_AUDIT_KEEP_MAX + 5; i++)
        zbc_audit_add(&r, (uint32_t)i, ZBC_AUDIT_MONEY, "a", "b", "n %d", i);
    CHECK(!zbc_audit_clean(&r));
    CHECK_EQ_INT(r.n, ZBC_AUDIT_KEEP_MAX);
    CHECK_EQ_INT(r.total, ZBC_AUDIT_KEEP_MAX + 5);
    json_t *j = zbc_audit_divergences_json(&r);
    CHECK_EQ_INT(json_array_size(j), ZBC_AUDIT_KEEP_MAX);
    json_t *last = json_array_get(j, ZBC_AUDIT_KEEP_MAX - 1);
    CHECK_EQ_STR(json_string_value(json_object_get(last, "what")), "money");
    CHECK_EQ_STR(json_string_value(json_object_get(last, "detail")), "n 999");
    CHECK_EQ_INT(json_integer_value(json_object_get(last, "height")), 999);
    json_decref(j);
    for (int w = 0; w < ZBC_AUDIT_WHAT_COUNT; w++)
        CHECK(strcmp(zbc_audit_what_name((enum zbc_audit_what)w), "?") != 0);
    zbc_audit_report_free(&r);
    CHECK(zbc_audit_clean(&r));
}

/* The auditor's per-seat payout rule (node/audit/app.c,
 * docs/protocol-apps.md §3): exact amounts for 2, 3 and 4 seats, seats
 * out of play, the loser never the winner; a payout that differs by one
 * unit is what the audit reports. */
static void test_app_payout_rule(void)
{
    static const struct {
        const char *reason;
        uint8_t loser, seats, seated;
        uint64_t stake;
        uint8_t out, win_seat;
        uint64_t net, want[ZBC_SEATS_MAX];
        uint8_t winner;
    } cases[] = {
        /* win, 2 seats of 1000, rake 20 */
        {"win", 0xff, 2, 2, 1000, 0, 1, 1980, {0, 1980}, 1},
        /* timeout of seat 1 of 2: the other seat takes the pot, winner */
        {"timeout", 1, 2, 2, 1000, 0, 0xff, 1980, {1980, 0}, 0},
        /* resign by seat 1 of 3 (stake 1001, rake 30): shared */
        {"resign", 1, 3, 3, 1001, 0, 0xff, 2973, {1487, 0, 1486}, 0xff},
        /* the same with seat 2 bankrupt: seat 0 alone, the winner */
        {"resign", 1, 3, 3, 1001, 0x4, 0xff, 2973, {2973, 0, 0}, 0},
        /* timeout of seat 0 of 4 (stake 1001, rake 40), seat 3 out */
        {"timeout", 0, 4, 4, 1001, 0x8, 0xff, 3964, {0, 1982, 1982, 0}, 0xff},
        /* timeout of seat 2 of 4, nobody out: 1322 + 1321 + 1321 */
        {"timeout", 2, 4, 4, 1001, 0, 0xff, 3964, {1322, 1321, 0, 1321},
         0xff},
        /* every other seat out: every seat but the loser */
        {"resign", 0, 3, 3, 1000, 0x6, 0xff, 2970, {0, 1485, 1485}, 0xff},
        /* draw with 4 seats; expiry of 2 seated of 3: stakes back */
        {"draw", 0xff, 4, 4, 1234, 0, 0xff, 4936, {1234, 1234, 1234, 1234},
         0xff},
        {"expired", 0xff, 3, 2, 700, 0, 0xff, 1400, {700, 700, 0}, 0xff},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t want[ZBC_SEATS_MAX];
        uint8_t winner;
        CHECK(zbc_audit_app_payouts(cases[i].reason, cases[i].loser,
                                    cases[i].seats, cases[i].seated,
                                    cases[i].stake, cases[i].out,
                                    cases[i].win_seat, cases[i].net, want,
                                    &winner));
        CHECK_EQ_MEM(want, cases[i].want, sizeof want);
        CHECK_EQ_INT(winner, cases[i].winner);
    }
    /* no per-seat rule: abandoned, bets */
    uint64_t want[ZBC_SEATS_MAX];
    uint8_t winner;
    CHECK(!zbc_audit_app_payouts("abandoned", 0xff, 2, 0, 5, 0, 0xff, 0, want,
                                 &winner));
    CHECK(!zbc_audit_app_payouts("bet won", 0xff, 1, 1, 5, 0, 0xff, 10, want,
                                 &winner));
}

/* --genesis wins; without it DIR/genesis.json when it exists; neither:
 * an error naming both options and the path looked for. */
static void test_genesis_default(void)
{
    char dir[64], path[4096], want[128];
    strcpy(dir, "/tmp/zbc_test_audit_XXXXXX");
    if (mkdtemp(dir) == NULL)
        exit(2);
    struct zbc_err err = {{0}};
    struct zbc_audit_opts o;
    memset(&o, 0, sizeof o);
    o.datadir = dir;
    snprintf(want, sizeof want, "%s/genesis.json", dir);

    CHECK(!zbc_audit_genesis_path(&o, path, sizeof path, &err));
    CHECK(strstr(err.msg, "--genesis FILE") != NULL);
    CHECK(strstr(err.msg, "--datadir") != NULL);
    CHECK(strstr(err.msg, want) != NULL);
    /* zbc_audit_open stops at the same sentence, before the ledger */
    struct zbc_audit_source src;
    struct zbc_genesis g;
    memset(&src, 0, sizeof src);
    memset(&err, 0, sizeof err);
    CHECK(!zbc_audit_open(&src, &g, &o, &err));
    CHECK(strncmp(err.msg, "no genesis: give --genesis FILE", 31) == 0);

    o.genesis = "/elsewhere/g.json"; /* given: used as is, even if absent */
    CHECK(zbc_audit_genesis_path(&o, path, sizeof path, &err));
    CHECK_EQ_STR(path, "/elsewhere/g.json");
    o.genesis = NULL;

    FILE *f = fopen(want, "w");
    CHECK(f != NULL);
    if (f != NULL) {
        fputs("{\"chain_name\": 5}\n", f); /* hostile: parse error */
        fclose(f);
    }
    CHECK(zbc_audit_genesis_path(&o, path, sizeof path, &err));
    CHECK_EQ_STR(path, want);
    /* the default file is the one read: its parse error is reported */
    memset(&err, 0, sizeof err);
    CHECK(!zbc_audit_open(&src, &g, &o, &err));
    CHECK(strstr(err.msg, want) != NULL);
    CHECK(strstr(err.msg, "chain_name") != NULL);

    /* a path that does not fit the buffer is refused, not cut */
    char small[8];
    CHECK(!zbc_audit_genesis_path(&o, small, sizeof small, &err));

    o.datadir = NULL;
    CHECK(!zbc_audit_genesis_path(&o, path, sizeof path, &err));
    remove(want);
    rmdir(dir);
}

int main(void)
{
    TEST_RUN(test_app_payout_rule);
    TEST_RUN(test_clean);
    TEST_RUN(test_state_root);
    TEST_RUN(test_events);
    TEST_RUN(test_missing_and_genesis);
    parallel = true;
    TEST_RUN(test_clean);
    TEST_RUN(test_state_root);
    TEST_RUN(test_events);
    TEST_RUN(test_missing_and_genesis);
    parallel = false;
    TEST_RUN(test_events_json);
    TEST_RUN(test_money_created_named_at_its_height);
    TEST_RUN(test_report_limits);
    TEST_RUN(test_genesis_default);
    return test_summary("audit");
}
