/* The finality view after a sync batch whose commit failed
 * (node/zbcd/chain.h zbc_chain_batch_end / _resume, the finality hook's
 * on_lost; docs/node.md "Disk full"): the blocks the batch applied in
 * memory are not in the ledger, the chain's tip goes back to the ledger's,
 * and so do the final and justified blocks the view had derived from the
 * batch's vote sets.  node/info (tip height, finalized_height, synced,
 * sync_reason) is asked over HTTP too.
 *
 * Found by the soak (seed 3119797553): a node whose disk filled during a
 * sync reported final a block its ledger did not hold.
 *
 * The failure is a real one, made without any hook in the library: a file
 * size limit of 0 bytes (RLIMIT_FSIZE, SIGXFSZ ignored) makes every write
 * of the process to a file fail with EFBIG, as a full disk fails it with
 * ENOSPC; LMDB writes the data pages of a commit before its meta page, so
 * the commit fails and the ledger keeps its last commit.
 *
 *   - the commit at the batch's end fails: tip, final and justified are
 *     the ledger's again (not above its tip), the ledger's own records
 *     agree, the failure is reported (sync_reason); the same after a
 *     restart; a later batch that commits finalises again;
 *   - a batch paused between two slices loses its writes when a write
 *     from elsewhere (a gossiped block) cannot commit them: the same at
 *     zbc_chain_batch_resume. */
#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <jansson.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "chain_fixture.h"
#include "consensus/block.h"
#include "consensus/vote.h"
#include "node/zbcd/api.h"
#include "node/zbcd/chain.h"
#include "node/zbcd/finality.h"
#include "node/zbcd/log.h"
#include "node/zbcd/store.h"
#include "testlib.h"
#include "disk_full.h"

#define N_SOURCE 9

static uint64_t clock_ms = FX_GENESIS_TIME;

static uint64_t test_clock(void)
{
    return clock_ms;
}

struct node {
    char dir[192];    /* the data directory (voter file) */
    char ledger[224]; /* its ledger */
    const struct zbc_node_key *key;
    struct zbc_chain *c;
    struct zbc_finality *fin;
};

static int node_open(struct node *n, const struct zbc_genesis *g)
{
    struct zbc_err err = {{0}};
    struct zbc_chain_config cfg = {.ledger_dir = n->ledger, .genesis = g,
                                   .key = n->key};
    n->c = NULL;
    n->fin = NULL;
    if (!zbc_chain_open(&n->c, &cfg, &err)) {
        fprintf(stderr, "chain open %s: %s\n", n->ledger, err.msg);
        return 0;
    }
    struct zbc_finality_config fc = {.chain = n->c, .key = n->key,
                                     .datadir = n->dir, .now_ms = test_clock};
    if (!zbc_finality_open(&n->fin, &fc, &err)) {
        fprintf(stderr, "finality open %s: %s\n", n->dir, err.msg);
        zbc_chain_close(n->c);
        n->c = NULL;
        return 0;
    }
    return 1;
}

static void node_close(struct node *n)
{
    if (n->fin != NULL)
        zbc_finality_close(n->fin);
    if (n->c != NULL)
        zbc_chain_close(n->c);
    n->fin = NULL;
    n->c = NULL;
}

/* ---- what node/info and the ledger say ---- */

struct figures {
    uint32_t tip;
    uint8_t tip_hash[32];
    uint32_t chain_final; /* node/info finalized_height */
    struct zbc_checkpoint final, justified; /* the view's */
    bool failing; /* node/info sync_reason "the ledger cannot store..." */
};

static void figures(struct node *n, struct figures *f)
{
    memset(f, 0, sizeof *f);
    f->tip = zbc_chain_tip(n->c)->height;
    memcpy(f->tip_hash, zbc_chain_tip(n->c)->hash, 32);
    f->chain_final = zbc_chain_final_height(n->c);
    f->final = *zbc_finality_final(n->fin);
    f->justified = *zbc_finality_justified(n->fin);
    f->failing = zbc_store_write_failure(zbc_chain_store(n->c)) != NULL;
}

static void same_figures(const struct figures *a, const struct figures *b)
{
    CHECK_EQ_INT(a->tip, b->tip);
    CHECK_EQ_MEM(a->tip_hash, b->tip_hash, 32);
    CHECK_EQ_INT(a->chain_final, b->chain_final);
    CHECK_EQ_INT(a->final.height, b->final.height);
    CHECK_EQ_MEM(a->final.hash, b->final.hash, 32);
    CHECK_EQ_INT(a->justified.height, b->justified.height);
    CHECK_EQ_MEM(a->justified.hash, b->justified.hash, 32);
}

struct ledger_view {
    struct zbc_store_meta meta;
    bool has_final, has_justified;
    struct zbc_checkpoint final, justified;
    /* the best-chain blocks at the final and justified heights */
    struct zbc_checkpoint at_final, at_justified;
    int final_held, justified_held;
};

static int ledger_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct ledger_view *l = arg;
    uint8_t prev[32];
    if (!zbc_store_txn_meta(t, &l->meta, err) ||
        !zbc_store_txn_checkpoint(t, "final", &l->final.height, l->final.hash,
                                  &l->has_final, err) ||
        !zbc_store_txn_checkpoint(t, "justified", &l->justified.height,
                                  l->justified.hash, &l->has_justified, err))
        return 0;
    struct zbc_err e = {{0}};
    l->final_held = l->final.height == 0 ||
                    zbc_finality_block_id(t, l->final.height, &l->at_final,
                                          prev, &e);
    l->justified_held = l->justified.height == 0 ||
                        zbc_finality_block_id(t, l->justified.height,
                                              &l->at_justified, prev, &e);
    return 1;
}

/* Whatever the node reports is held by its ledger: the tip is the
 * ledger's, the final and justified blocks are not above it and are the
 * ledger's blocks at their heights, and the ledger's records name them. */
static void consistent(struct node *n, const struct zbc_genesis *g)
{
    struct figures f;
    figures(n, &f);
    struct ledger_view l;
    memset(&l, 0, sizeof l);
    struct zbc_err err = {{0}};
    CHECK(zbc_store_read(zbc_chain_store(n->c), ledger_fn, &l, &err));
    CHECK(l.meta.has_tip);
    CHECK_EQ_INT(f.tip, l.meta.tip_height);
    CHECK_EQ_MEM(f.tip_hash, l.meta.tip_hash, 32);
    CHECK(f.final.height <= f.tip);
    CHECK(f.justified.height <= f.tip);
    CHECK(f.chain_final <= f.tip);
    CHECK_EQ_INT(f.chain_final, f.final.height);
    CHECK(f.justified.height >= f.final.height);
    /* the ledger's records: the view's blocks */
    CHECK(l.has_final);
    CHECK_EQ_INT(l.final.height, f.final.height);
    CHECK_EQ_MEM(l.final.hash, f.final.hash, 32);
    CHECK(l.has_justified);
    CHECK_EQ_INT(l.justified.height, f.justified.height);
    CHECK_EQ_MEM(l.justified.hash, f.justified.hash, 32);
    /* and the ledger holds them on its best chain */
    CHECK(l.final_held);
    CHECK(l.justified_held);
    if (f.final.height > 0 && l.final_held)
        CHECK_EQ_MEM(l.at_final.hash, f.final.hash, 32);
    if (f.justified.height > 0 && l.justified_held)
        CHECK_EQ_MEM(l.at_justified.hash, f.justified.hash, 32);
    if (f.final.height == 0)
        CHECK_EQ_MEM(f.final.hash, g->hash, 32);
}

/* node/info as the HTTP API answers it (a real evhttp server on
 * 127.0.0.1, driven by libevent's client in the same loop). */
struct info {
    int status;
    long long height, finalized;
    bool synced;
    char reason[ZBC_ERR_MAX + 64];
};

struct info_call {
    struct event_base *base;
    struct info *out;
};

static void on_info(struct evhttp_request *req, void *arg)
{
    struct info_call *ic = arg;
    struct info *i = ic->out;
    i->status = req != NULL ? evhttp_request_get_response_code(req) : -1;
    if (req != NULL && i->status == 200) {
        struct evbuffer *in = evhttp_request_get_input_buffer(req);
        size_t n = evbuffer_get_length(in);
        char *body = malloc(n + 1);
        if (body != NULL) {
            evbuffer_remove(in, body, n);
            body[n] = '\0';
            json_t *o = json_loads(body, 0, NULL);
            i->height = json_integer_value(json_object_get(o, "height"));
            i->finalized =
                json_integer_value(json_object_get(o, "finalized_height"));
            i->synced = json_is_true(json_object_get(o, "synced"));
            const char *r = json_string_value(json_object_get(o,
                                                              "sync_reason"));
            snprintf(i->reason, sizeof i->reason, "%s", r ? r : "(none)");
            json_decref(o);
            free(body);
        }
    }
    event_base_loopexit(ic->base, NULL);
}

static void node_info(struct node *n, struct info *out)
{
    memset(out, 0, sizeof *out);
    out->status = -1;
    struct zbc_err err = {{0}};
    struct event_base *base = event_base_new();
    struct zbc_api *api = NULL;
    struct zbc_api_config acfg = {.host = "127.0.0.1", .port = 0,
                                  .version = "zbcd/test",
                                  .now_ms = test_clock};
    CHECK(base != NULL && zbc_api_start(&api, base, n->c, &acfg, &err));
    if (api == NULL) {
        if (base != NULL)
            event_base_free(base);
        return;
    }
    struct info_call ic = {base, out};
    struct evhttp_connection *conn = evhttp_connection_base_new(
        base, NULL, "127.0.0.1", zbc_api_port(api));
    struct evhttp_request *req = evhttp_request_new(on_info, &ic);
    evhttp_add_header(evhttp_request_get_output_headers(req), "Host",
                      "127.0.0.1");
    evhttp_make_request(conn, req, EVHTTP_REQ_GET, "/api/v1/node/info");
    event_base_dispatch(base);
    evhttp_connection_free(conn);
    zbc_api_stop(api);
    event_base_free(base);
    CHECK_EQ_INT(out->status, 200);
}

/* node/info says what the figures say: the tip, the final block, and
 * whether the ledger failed */
static void info_agrees(struct node *n, const struct figures *f)
{
    struct info i;
    node_info(n, &i);
    CHECK_EQ_INT(i.height, f->tip);
    CHECK_EQ_INT(i.finalized, f->final.height);
    if (f->failing) {
        CHECK(!i.synced);
        CHECK(strstr(i.reason, "the ledger cannot store blocks: ledger "
                               "commit failed") != NULL);
    } else {
        CHECK(i.synced);
        CHECK_EQ_STR(i.reason, "");
    }
}

/* ---- the source and the sync ---- */

/* A one-validator chain where every block is final as soon as it is
 * voted: each block has its vote set, as a sync answer carries it. */
static void make_source(struct node *s)
{
    for (int i = 0; i < N_SOURCE; i++) {
        struct zbc_slot slot;
        struct zbc_block_info info;
        struct zbc_err err = {{0}};
        CHECK(zbc_chain_next_slot(s->c, &slot, &err));
        clock_ms = slot.earliest_ms;
        CHECK(zbc_chain_produce(s->c, clock_ms, &info, &err));
    }
    CHECK_EQ_INT(zbc_chain_tip(s->c)->height, N_SOURCE);
    CHECK_EQ_INT(zbc_finality_final(s->fin)->height, N_SOURCE);
    clock_ms += 10 * FX_BLOCK_TIME;
}

/* The block at height of the source, then its vote set, as apply_slice
 * (node/zbcd/p2p.c) gives them; 1 when the block extended the chain. */
static int give(struct node *to, struct node *from, uint32_t height)
{
    uint8_t *bytes = NULL, *set = NULL;
    size_t len = 0, slen = 0;
    bool found = false;
    struct zbc_err err = {{0}};
    struct zbc_recv_result r;
    memset(&r, 0, sizeof r);
    CHECK(zbc_chain_block(from->c, height, &bytes, &len, &found, &err) &&
          found);
    if (bytes == NULL)
        return 0;
    int ok = zbc_chain_receive_block(to->c, bytes, len, clock_ms, NULL, &r,
                                     &err);
    free(bytes);
    if (!ok || r.kind != ZBC_RECV_EXTENDED)
        return 0;
    zbc_finality_stored_set(from->fin, height, &set, &slen);
    CHECK(set != NULL);
    if (set != NULL)
        CHECK_EQ_INT(zbc_finality_receive_set(to->fin, set, slen, &err),
                     ZBC_VOTE_RX_NEW);
    free(set);
    return 1;
}

/* Blocks from..to in one batch, committed. */
static void sync_batch(struct node *to, struct node *from, uint32_t a,
                       uint32_t b)
{
    struct zbc_err err = {{0}};
    CHECK(zbc_chain_batch_begin(to->c, &err));
    for (uint32_t h = a; h <= b; h++)
        CHECK(give(to, from, h));
    CHECK(zbc_chain_batch_end(to->c, &err));
}

struct two {
    struct fixture f;
    struct node s, r;
};

static void two_setup(struct two *t)
{
    fx_setup(&t->f);
    memset(&t->s, 0, sizeof t->s);
    memset(&t->r, 0, sizeof t->r);
    snprintf(t->s.dir, sizeof t->s.dir, "%s", t->f.datadir);
    snprintf(t->s.ledger, sizeof t->s.ledger, "%s", t->f.ledger);
    t->s.key = &t->f.key;
    /* the node under test: an observer with its own data directory */
    snprintf(t->r.dir, sizeof t->r.dir, "%s/r", t->f.base);
    snprintf(t->r.ledger, sizeof t->r.ledger, "%s/ledger", t->r.dir);
    mkdir(t->r.dir, 0700);
    mkdir(t->r.ledger, 0700);
    if (!node_open(&t->s, &t->f.g) || !node_open(&t->r, &t->f.g)) {
        fprintf(stderr, "cannot open the nodes\n");
        exit(2);
    }
    make_source(&t->s);
}

static void two_teardown(struct two *t)
{
    node_close(&t->r);
    node_close(&t->s);
    fx_teardown(&t->f);
}

static void reopen(struct two *t)
{
    node_close(&t->r);
    CHECK(node_open(&t->r, &t->f.g));
    if (t->r.c == NULL)
        exit(2);
}

/* The batch of blocks 4..9 (their vote sets make them final in memory)
 * whose commit fails at its end. */
static void test_commit_fails_at_end(void)
{
    struct two t;
    two_setup(&t);
    struct node *r = &t.r;
    struct zbc_err err = {{0}};

    sync_batch(r, &t.s, 1, 3);
    struct figures before;
    figures(r, &before);
    CHECK_EQ_INT(before.tip, 3);
    CHECK(before.final.height >= 2);
    CHECK(!before.failing);
    consistent(r, &t.f.g);
    info_agrees(r, &before);

    CHECK(zbc_chain_batch_begin(r->c, &err));
    for (uint32_t h = 4; h <= N_SOURCE; h++)
        CHECK(give(r, &t.s, h));
    /* in memory the batch moved the tip and finality */
    CHECK_EQ_INT(zbc_chain_tip(r->c)->height, N_SOURCE);
    CHECK(zbc_finality_final(r->fin)->height > before.tip);
    CHECK(zbc_chain_final_height(r->c) > before.tip);

    disk_full();
    int ok = zbc_chain_batch_end(r->c, &err);
    disk_freed();
    CHECK(!ok);
    CHECK(strstr(err.msg, "ledger commit failed") != NULL);

    /* back to the ledger's: tip, final, justified, node/info */
    struct figures after;
    figures(r, &after);
    same_figures(&before, &after);
    CHECK(after.failing); /* node/info: synced false, sync_reason says why */
    consistent(r, &t.f.g);
    info_agrees(r, &after);

    /* restarted on the same data directory: the same figures (the failure
     * is not remembered: the restarted ledger has not failed yet) */
    reopen(&t);
    figures(r, &after);
    same_figures(&before, &after);
    CHECK(!after.failing);
    consistent(r, &t.f.g);
    info_agrees(r, &after);

    /* the disk has room again: the next sync finalises again */
    sync_batch(r, &t.s, 4, N_SOURCE);
    figures(r, &after);
    CHECK_EQ_INT(after.tip, N_SOURCE);
    CHECK_EQ_MEM(after.tip_hash, zbc_chain_tip(t.s.c)->hash, 32);
    CHECK(after.final.height > before.final.height);
    CHECK(!after.failing);
    consistent(r, &t.f.g);
    info_agrees(r, &after);
    struct figures again;
    reopen(&t);
    figures(r, &again);
    same_figures(&after, &again);
    consistent(r, &t.f.g);
    info_agrees(r, &again);
    two_teardown(&t);
}

/* The same failure without a restart in between: the node applies the
 * blocks again in the same process (the view rebuilt by on_lost follows
 * them) and finalises them. */
static void test_fail_then_retry_in_process(void)
{
    struct two t;
    two_setup(&t);
    struct node *r = &t.r;
    struct zbc_err err = {{0}};
    sync_batch(r, &t.s, 1, 3);
    struct figures before, after;
    figures(r, &before);

    CHECK(zbc_chain_batch_begin(r->c, &err));
    for (uint32_t h = 4; h <= N_SOURCE; h++)
        CHECK(give(r, &t.s, h));
    disk_full();
    int ok = zbc_chain_batch_end(r->c, &err);
    disk_freed();
    CHECK(!ok);
    figures(r, &after);
    same_figures(&before, &after);
    consistent(r, &t.f.g);

    sync_batch(r, &t.s, 4, N_SOURCE);
    figures(r, &after);
    CHECK_EQ_INT(after.tip, N_SOURCE);
    CHECK(after.final.height > before.tip);
    CHECK(!after.failing);
    consistent(r, &t.f.g);
    struct figures again;
    reopen(&t);
    figures(r, &again);
    same_figures(&after, &again);
    two_teardown(&t);
}

/* Paused between two slices, a gossiped block (outside the batch) first
 * commits the batch so far: that commit fails, the block is not stored,
 * and the batch learns it at its resume. */
static void test_paused_batch_lost(void)
{
    struct two t;
    two_setup(&t);
    struct node *r = &t.r;
    struct zbc_err err = {{0}};
    sync_batch(r, &t.s, 1, 3);
    struct figures before, after;
    figures(r, &before);

    CHECK(zbc_chain_batch_begin(r->c, &err));
    for (uint32_t h = 4; h <= 7; h++)
        CHECK(give(r, &t.s, h));
    zbc_chain_batch_pause(r->c);
    CHECK(zbc_finality_final(r->fin)->height > before.tip);

    disk_full();
    CHECK(!give(r, &t.s, 8)); /* gossiped, outside the batch */
    disk_freed();
    /* before the batch's resume, the chain is already back at the
     * ledger's tip: a block locator (asked by any peer's sync round in
     * between) reads only blocks the ledger holds (the soak's disk-full
     * fault found "block 41 of the best chain is missing" here) */
    uint8_t loc[ZBC_CHAIN_LOCATOR_MAX][32];
    CHECK(zbc_chain_locator(r->c, loc, ZBC_CHAIN_LOCATOR_MAX, &err) > 0);
    CHECK_EQ_INT(zbc_chain_tip(r->c)->height, before.tip);
    uint8_t *stored = NULL, tip_hash[32];
    size_t stored_len = 0;
    bool found = false;
    struct zbc_block_header tip_hdr;
    CHECK(zbc_chain_block(r->c, before.tip, &stored, &stored_len, &found,
                          &err) &&
          found);
    CHECK(zbc_block_header_decode(&tip_hdr, stored, ZBC_BLOCK_HEADER_LEN,
                                  &err));
    free(stored);
    zbc_block_hash(tip_hash, &tip_hdr);
    CHECK(memcmp(loc[0], tip_hash, 32) == 0);
    CHECK(memcmp(zbc_chain_tip(r->c)->hash, tip_hash, 32) == 0);
    CHECK(zbc_chain_in_batch(r->c)); /* until its owner hears of it */
    CHECK(!zbc_chain_batch_resume(r->c, &err));
    CHECK(strstr(err.msg, "ledger commit failed") != NULL);
    CHECK(!zbc_chain_in_batch(r->c));

    figures(r, &after);
    same_figures(&before, &after);
    CHECK(after.failing);
    consistent(r, &t.f.g);
    info_agrees(r, &after);
    reopen(&t);
    figures(r, &after);
    same_figures(&before, &after);
    consistent(r, &t.f.g);

    sync_batch(r, &t.s, 4, N_SOURCE);
    figures(r, &after);
    CHECK_EQ_INT(after.tip, N_SOURCE);
    CHECK(after.final.height > before.tip);
    CHECK(!after.failing);
    consistent(r, &t.f.g);
    two_teardown(&t);
}

int main(void)
{
    zbc_log_to_stderr(false);
    /* a write past the file size limit fails with EFBIG instead of
     * killing the process */
    signal(SIGXFSZ, SIG_IGN);
    TEST_RUN(test_commit_fails_at_end);
    TEST_RUN(test_fail_then_retry_in_process);
    TEST_RUN(test_paused_batch_lost);
    return test_summary("node_finality_lost");
}
