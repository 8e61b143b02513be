/* The app list index (node/zbcd/app_index.h, docs/api.md §10 "Index"):
 * every page and filter of zbc_chain_app_list equals a full scan of the
 * APPS table, on a chain that creates, joins and resigns apps, after a
 * reorg that undoes some of them, after a rebuild of the index from the
 * table, and a corrupted index is refused with a message naming it; the
 * index kept block by block (only the keys an app's change moves are
 * rewritten) is byte for byte the one a rebuild makes. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_reorg_fixture.h"
#include "disk_full.h"

#include "apps/app.h"
#include "consensus/tx_body.h"
#include "crypto/bytes.h"
#include "crypto/hash.h"
#include "node/zbcd/app_index.h"
#include "node/zbcd/chain_apps.h"
#include "node/zbcd/chain_internal.h"
#include "node/zbcd/store.h"

/* Signs a transaction of `type` with body b from seed; returns its app id
 * (the first 8 bytes of its hash, LE) and submits it to c. */
static uint64_t send_tx(struct zbc_chain *c, const struct net *n,
                        const uint8_t seed[32], const struct zbc_tx_body *b)
{
    uint8_t body[256], raw[1024], hash[32], got[32];
    size_t blen = 0, len = 0;
    struct zbc_err err = {{0}};
    if (!zbc_tx_body_write(body, sizeof body, &blen, b, &err)) {
        fprintf(stderr, "body: %s\n", err.msg);
        exit(2);
    }
    struct zbc_tx tx;
    memset(&tx, 0, sizeof tx);
    tx.type = b->type;
    tx.version = ZBC_TX_VERSION;
    tx.timestamp = (int64_t)(FX_GENESIS_TIME / 1000) + 1;
    zbc_addr_empty(&tx.recipient);
    tx.fee = FEE;
    tx.body = body;
    tx.body_len = (uint32_t)blen;
    if (!zbc_tx_sign_ed25519(raw, sizeof raw, &len, &tx, seed, n->g.hash,
                             &err)) {
        fprintf(stderr, "sign: %s\n", err.msg);
        exit(2);
    }
    zbc_sha3_256(hash, raw, len);
    bool dup = false;
    if (!zbc_chain_submit(c, raw, len, FX_GENESIS_TIME + 500, got, &dup,
                          &err)) {
        fprintf(stderr, "submit: %s\n", err.msg);
        exit(2);
    }
    return zbc_get_le64(hash);
}

static uint64_t create(struct zbc_chain *c, const struct net *n,
                       const uint8_t seed[32], uint8_t type)
{
    struct zbc_tx_body b = {.type = ZBC_TX_APP_CREATE};
    b.u.create.app_type = type;
    static uint64_t stake = 5000; /* distinct bodies: distinct ids */
    b.u.create.stake = stake++;
    b.u.create.seats = 2;
    return send_tx(c, n, seed, &b);
}

static void app_ref(struct zbc_chain *c, const struct net *n,
                    const uint8_t seed[32], enum zbc_tx_type type,
                    uint64_t id)
{
    struct zbc_tx_body b = {.type = type};
    b.u.ref.app_id = id;
    send_tx(c, n, seed, &b);
}

/* ---- the reference: the full scan the list did before the index ---- */

struct ref_key {
    uint32_t created;
    uint64_t id;
};

struct ref_ctx {
    const struct zbc_app_filter *f;
    struct zbc_app a;
    struct ref_key k[64];
    size_t n;
};

static int ref_one(void *arg, const uint8_t *key, size_t klen,
                   const uint8_t *val, size_t vlen, struct zbc_err *err)
{
    struct ref_ctx *r = arg;
    (void)klen;
    if (!zbc_app_decode(&r->a, val, vlen, err))
        return 0;
    r->a.id = zbc_get_le64(key);
    if (zbc_app_filter_match(r->f, &r->a) && r->n < 64)
        r->k[r->n++] = (struct ref_key){r->a.created, r->a.id};
    return 1;
}

static int ref_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct zbc_kv kv;
    zbc_store_txn_kv(t, &kv);
    return kv.ops->each(kv.ctx, ZBC_TABLE_APPS, ref_one, arg, err);
}

static int newest_first(const void *x, const void *y)
{
    const struct ref_key *a = x, *b = y;
    if (a->created != b->created)
        return a->created > b->created ? -1 : 1;
    return a->id > b->id ? -1 : a->id < b->id;
}

/* The ids the reference lists for f, newest first. */
static size_t reference(struct zbc_chain *c, const struct zbc_app_filter *f,
                        uint64_t *ids)
{
    struct ref_ctx *r = calloc(1, sizeof *r);
    struct zbc_err err = {{0}};
    r->f = f;
    if (!zbc_store_read(zbc_chain_store(c), ref_fn, r, &err)) {
        fprintf(stderr, "reference scan: %s\n", err.msg);
        exit(2);
    }
    qsort(r->k, r->n, sizeof r->k[0], newest_first);
    size_t n = r->n;
    for (size_t i = 0; i < n; i++)
        ids[i] = r->k[i].id;
    free(r);
    return n;
}

/* Every page of f at `limit`, following next cursors, equals the
 * reference; returns the number of apps listed. */
static size_t same_pages(struct zbc_chain *c, struct zbc_app_filter f,
                         size_t limit)
{
    uint64_t want[64];
    size_t n_want = reference(c, &f, want), got = 0;
    for (int guard = 0; guard < 100; guard++) {
        struct zbc_app_list l;
        struct zbc_err err = {{0}};
        if (!zbc_chain_app_list(c, &f, limit, &l, &err)) {
            fprintf(stderr, "list: %s\n", err.msg);
            CHECK(0);
            return got;
        }
        for (size_t i = 0; i < l.n; i++, got++)
            CHECK(got < n_want && l.apps[i].id == want[got]);
        bool more = l.more;
        CHECK_EQ_INT(more, got < n_want);
        if (l.n > 0) {
            f.has_before = true;
            f.before_height = l.apps[l.n - 1].created;
            f.before_id = l.apps[l.n - 1].id;
        }
        zbc_app_list_free(&l);
        if (!more)
            break;
    }
    CHECK_EQ_INT(got, n_want);
    return got;
}

/* Every filter combination at page sizes 1 and 100; returns how many apps
 * the unfiltered list has. */
static size_t check_lists(struct zbc_chain *c, const struct net *n)
{
    static const int statuses[] = {-1, ZBC_APP_OPEN, ZBC_APP_ACTIVE,
                                   ZBC_APP_FINISHED, ZBC_APP_ABANDONED};
    static const int types[] = {-1, 1, 3, 7};
    const struct zbc_addr *players[] = {NULL, &n->alice, &n->bob};
    size_t all = 0;
    for (size_t s = 0; s < sizeof statuses / sizeof *statuses; s++)
        for (size_t ty = 0; ty < sizeof types / sizeof *types; ty++)
            for (size_t p = 0; p < 3; p++) {
                struct zbc_app_filter f = {0};
                f.has_status = statuses[s] >= 0;
                f.status = (uint8_t)(statuses[s] >= 0 ? statuses[s] : 0);
                f.has_type = types[ty] >= 0;
                f.type = (uint8_t)(types[ty] >= 0 ? types[ty] : 0);
                f.has_seat = players[p] != NULL;
                if (players[p] != NULL)
                    f.seat = *players[p];
                size_t k = same_pages(c, f, 1);
                CHECK_EQ_INT(same_pages(c, f, 100), k);
                if (s == 0 && ty == 0 && p == 0)
                    all = k;
            }
    return all;
}

/* The ids of the unfiltered list (up to 16). */
static size_t listed(struct zbc_chain *c, uint64_t *ids)
{
    struct zbc_app_filter f = {0};
    struct zbc_app_list l;
    struct zbc_err err = {{0}};
    if (!zbc_chain_app_list(c, &f, 16, &l, &err))
        return 0;
    size_t n = l.n;
    for (size_t i = 0; i < n; i++)
        ids[i] = l.apps[i].id;
    zbc_app_list_free(&l);
    return n;
}

static bool has_id(const uint64_t *ids, size_t n, uint64_t id)
{
    for (size_t i = 0; i < n; i++)
        if (ids[i] == id)
            return true;
    return false;
}

/* The whole index (keys and values, in order) as one byte string. */
struct dump {
    uint8_t *b;
    size_t len, cap;
};

static int dump_entry(void *arg, const uint8_t *key, size_t klen,
                      const uint8_t *val, size_t vlen, bool *stop,
                      struct zbc_err *err)
{
    struct dump *d = arg;
    (void)stop;
    (void)err;
    size_t need = d->len + 2 + klen + vlen;
    if (need > d->cap) {
        d->cap = 2 * need;
        d->b = realloc(d->b, d->cap);
        if (d->b == NULL)
            exit(2);
    }
    d->b[d->len++] = (uint8_t)klen;
    memcpy(d->b + d->len, key, klen);
    d->len += klen;
    d->b[d->len++] = (uint8_t)vlen;
    memcpy(d->b + d->len, val, vlen);
    d->len += vlen;
    return 1;
}

static int dump_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    uint8_t top[64];
    memset(top, 0xff, sizeof top);
    return zbc_store_txn_scan_back(t, ZBC_STORE_DB_APP_INDEX, NULL, 0, top,
                                   sizeof top, dump_entry, arg, err);
}

static int drop_index(struct zbc_store_txn *t, void *arg, struct zbc_err *err);

/* The index kept block by block is byte for byte the one a rebuild from
 * the APPS table makes: no key left behind by an app whose status or
 * players changed, none missing (after it, c holds the rebuilt index). */
static void index_is_rebuild(struct zbc_chain *c)
{
    struct dump kept = {0}, built = {0};
    struct zbc_err err = {{0}};
    bool rebuilt = false;
    uint64_t apps = 0;
    CHECK(zbc_chain_index_flush(c, &err)); /* the held changes written */
    CHECK_EQ_INT(zbc_chain_index_held(c), 0);
    CHECK(zbc_store_read(zbc_chain_store(c), dump_fn, &kept, &err));
    CHECK(zbc_store_write(zbc_chain_store(c), drop_index, NULL, &err));
    CHECK(zbc_app_index_ensure(zbc_chain_store(c), &rebuilt, &apps, &err));
    CHECK(rebuilt);
    CHECK(zbc_store_read(zbc_chain_store(c), dump_fn, &built, &err));
    CHECK(kept.len > 0);
    CHECK_EQ_INT(kept.len, built.len);
    CHECK(kept.len == built.len && memcmp(kept.b, built.b, kept.len) == 0);
    free(kept.b);
    free(built.b);
}

/* Index maintenance through apply and a reorg's undo. */
static void test_apply_and_reorg(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    struct zbc_chain *b = open_node(&n, "b", &n.k2);
    struct zbc_chain *c = open_node(&n, "c", NULL);

    /* branch B (2 blocks): alice funds bob and opens x, bob joins it */
    uint8_t txh[32];
    CHECK(submit(b, &n, 1000000, txh));
    uint64_t x = create(b, &n, n.alice_seed, 1);
    CHECK(produce(b, 0));
    app_ref(b, &n, n.bob_seed, ZBC_TX_APP_JOIN, x);
    CHECK(produce(b, 0));
    /* branch A (4 blocks): alice opens y and z, bob joins y, alice resigns
     * y, then opens w */
    CHECK(submit(a, &n, 1000001, txh));
    uint64_t y = create(a, &n, n.alice_seed, 1);
    uint64_t z = create(a, &n, n.alice_seed, 3);
    CHECK(produce(a, 0));
    app_ref(a, &n, n.bob_seed, ZBC_TX_APP_JOIN, y);
    CHECK(produce(a, 0));
    app_ref(a, &n, n.alice_seed, ZBC_TX_APP_RESIGN, y);
    CHECK(produce(a, 0));
    uint64_t w = create(a, &n, n.bob_seed, 3);
    CHECK(produce(a, 0));
    CHECK_EQ_INT(zbc_chain_tip(a)->height, 4);
    CHECK_EQ_INT(check_lists(a, &n), 3);
    index_is_rebuild(a);

    /* c follows B: x is active with bob seated */
    CHECK_EQ_INT(give(c, b, 1, NULL), ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(check_lists(c, &n), 1);
    CHECK_EQ_INT(give(c, b, 2, NULL), ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(check_lists(c, &n), 1);
    struct zbc_app_filter bob_active = {.has_status = true,
                                        .status = ZBC_APP_ACTIVE,
                                        .has_seat = true, .seat = n.bob};
    CHECK_EQ_INT(same_pages(c, bob_active, 100), 1);
    index_is_rebuild(c);

    /* then reorgs onto A: x is gone from every list, y z w are in */
    for (uint32_t h = 1; h <= 4; h++)
        give(c, a, h, NULL);
    CHECK_EQ_MEM(zbc_chain_tip(c)->hash, zbc_chain_tip(a)->hash, 32);
    CHECK_EQ_INT(check_lists(c, &n), 3);
    uint64_t ids[16];
    size_t k = listed(c, ids);
    CHECK_EQ_INT(k, 3);
    CHECK(!has_id(ids, k, x));
    CHECK(has_id(ids, k, y) && has_id(ids, k, z) && has_id(ids, k, w));
    CHECK_EQ_INT(same_pages(c, bob_active, 100), 0);
    index_is_rebuild(c);

    /* reopening keeps the index (its marker is the tip) */
    zbc_chain_close(c);
    c = open_node(&n, "c", NULL);
    bool rebuilt = true;
    uint64_t apps = 9;
    struct zbc_err err = {{0}};
    CHECK(zbc_app_index_ensure(zbc_chain_store(c), &rebuilt, &apps, &err));
    CHECK(!rebuilt);
    CHECK_EQ_INT(apps, 0);
    CHECK_EQ_INT(check_lists(c, &n), 3);

    zbc_chain_close(a);
    zbc_chain_close(b);
    zbc_chain_close(c);
    net_teardown(&n);
}

/* A block that changes an app but none of its listed fields (here the
 * draw of the first seat) holds nothing for the index; one that changes
 * its players does. */
static void test_unchanged_not_held(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    struct zbc_err err = {{0}};
    uint8_t txh[32];
    CHECK(submit(a, &n, 1000000, txh));
    uint64_t x = create(a, &n, n.alice_seed, 1);
    CHECK(produce(a, 0));
    CHECK_EQ_INT(zbc_chain_index_apps_held(a), 1); /* created */
    CHECK(zbc_chain_index_flush(a, &err));
    CHECK_EQ_INT(zbc_chain_index_apps_held(a), 0);
    app_ref(a, &n, n.bob_seed, ZBC_TX_APP_JOIN, x);
    CHECK(produce(a, 0));
    CHECK_EQ_INT(zbc_chain_index_apps_held(a), 1); /* bob seated, active */
    CHECK(zbc_chain_index_flush(a, &err));
    struct zbc_app_snapshot s;
    bool found;
    CHECK(zbc_chain_app_get(zbc_chain_store(a), x, &s, &found, &err));
    CHECK(found && s.app.status == ZBC_APP_ACTIVE && s.app.first_pending);
    zbc_app_snapshot_free(&s);
    bool drawn = false;
    for (int i = 0; i < 12 && !drawn; i++) {
        CHECK(produce(a, 0));
        CHECK(zbc_chain_app_get(zbc_chain_store(a), x, &s, &found, &err));
        CHECK(found && s.app.status == ZBC_APP_ACTIVE);
        drawn = !s.app.first_pending;
        zbc_app_snapshot_free(&s);
        CHECK_EQ_INT(zbc_chain_index_apps_held(a), 0);
    }
    CHECK(drawn); /* the record did change */
    CHECK_EQ_INT(check_lists(a, &n), 1);
    index_is_rebuild(a);
    zbc_chain_close(a);
    net_teardown(&n);
}

static int marker_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    uint8_t *v = NULL;
    size_t len = 0;
    int ok = zbc_store_txn_get(t, ZBC_STORE_DB_META, ZBC_APP_INDEX_MARKER,
                               strlen(ZBC_APP_INDEX_MARKER), &v, &len, arg,
                               err);
    free(v);
    return ok;
}

/* Whether the ledger holds the app index's marker. */
static bool has_marker(struct zbc_chain *c)
{
    bool has = false;
    struct zbc_err err = {{0}};
    CHECK(zbc_store_read(zbc_chain_store(c), marker_fn, &has, &err));
    return has;
}

/* With 9 blocks held, a cycle writes one part a block: during it every
 * list answers as the APPS table says (the held apps in their held form,
 * some of their keys written, some not), the ledger has no marker, and
 * an app changed during the cycle stays held after it; at its end the
 * marker is back and the index is the one a rebuild makes. */
static void test_cycle_in_parts(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain_config cfg = {.index_flush_blocks = 9};
    struct zbc_chain *a = open_node_cfg(&n, "a", &n.k1, cfg);
    uint8_t txh[32];
    CHECK(submit(a, &n, 1000000, txh));
    uint64_t x = create(a, &n, n.alice_seed, 1);
    uint64_t y = create(a, &n, n.alice_seed, 3);
    CHECK(produce(a, 0));
    zbc_chain_index_maintain(a);
    size_t apps = 2;
    unsigned parts_seen = 0;
    bool held_after = false;
    for (uint32_t h = 2; h <= 21; h++) {
        if (h == 3)
            app_ref(a, &n, n.bob_seed, ZBC_TX_APP_JOIN, x);
        if (h == 12) { /* inside the first cycle (frozen at 9) */
            create(a, &n, n.bob_seed, 3);
            app_ref(a, &n, n.alice_seed, ZBC_TX_APP_RESIGN, y);
            apps++;
        }
        CHECK(produce(a, 0));
        zbc_chain_index_maintain(a);
        CHECK_EQ_INT(check_lists(a, &n), apps);
        if (a->ix_cycle != NULL) {
            unsigned done = zbc_app_index_cycle_done(a->ix_cycle);
            CHECK(done >= 1 && done < ZBC_APP_INDEX_PARTS);
            CHECK(!has_marker(a));
            if (done > parts_seen)
                parts_seen = done;
        } else if (h >= 9) {
            CHECK(has_marker(a));
        }
        if (h == 17) { /* the first cycle done: the apps of block 12 stay */
            CHECK(a->ix_cycle == NULL);
            CHECK_EQ_INT(a->ix_app_floor, 9);
            CHECK_EQ_INT(zbc_chain_index_apps_held(a), 2);
            held_after = true;
        }
    }
    CHECK(held_after);
    CHECK_EQ_INT(parts_seen, ZBC_APP_INDEX_PARTS - 1);
    CHECK(a->ix_cycle != NULL); /* the second, frozen at 18 */
    index_is_rebuild(a);        /* its rest written with everything */
    CHECK(has_marker(a));
    zbc_chain_close(a);
    net_teardown(&n);
}

/* kill -9 inside a cycle: the next open finds no marker and rebuilds the
 * index from the APPS table. */
static void test_cycle_crash(void)
{
    struct net n;
    net_setup(&n);
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        struct zbc_chain_config cfg = {.index_flush_blocks = 9};
        struct zbc_chain *a = open_node_cfg(&n, "a", &n.k1, cfg);
        uint8_t txh[32];
        int ok = submit(a, &n, 1000000, txh);
        uint64_t x = create(a, &n, n.alice_seed, 1);
        ok = ok && produce(a, 0);
        for (uint32_t h = 2; ok && h <= 13; h++) {
            if (h == 10)
                app_ref(a, &n, n.bob_seed, ZBC_TX_APP_JOIN, x);
            ok = produce(a, 0);
            zbc_chain_index_maintain(a);
        }
        /* frozen at 9, parts 1 to 5 written */
        ok = ok && a->ix_cycle != NULL &&
             zbc_app_index_cycle_done(a->ix_cycle) == 5 && !has_marker(a);
        _exit(ok ? 0 : 1);
    }
    int status = 0;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    CHECK_EQ_INT(zbc_chain_tip(a)->height, 13);
    CHECK(has_marker(a));
    CHECK_EQ_INT(check_lists(a, &n), 1);
    struct zbc_app_filter bob_active = {.has_status = true,
                                        .status = ZBC_APP_ACTIVE,
                                        .has_seat = true, .seat = n.bob};
    CHECK_EQ_INT(same_pages(a, bob_active, 100), 1);
    index_is_rebuild(a);
    zbc_chain_close(a);
    net_teardown(&n);
}

/* A sync batch whose commit fails inside a cycle (the disk full:
 * disk_full.h): the ledger holds parts 1 - 5 of it and no marker, the
 * chain's tip goes back to the ledger's, and the index is rebuilt from
 * the APPS table (chain.c index_reload, app_gone) - at the next read,
 * since the rebuild's own write fails too while the disk is full. */
static void test_cycle_lost_batch(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain_config cfg = {.index_flush_blocks = 9};
    struct zbc_chain *a = open_node_cfg(&n, "a", &n.k1, cfg);
    struct zbc_chain *obs = open_node_cfg(&n, "obs", NULL, cfg);
    uint8_t txh[32];
    CHECK(submit(a, &n, 1000000, txh));
    uint64_t x = create(a, &n, n.alice_seed, 1);
    CHECK(produce(a, 0));
    for (uint32_t h = 2; h <= 16; h++) {
        if (h == 10)
            app_ref(a, &n, n.bob_seed, ZBC_TX_APP_JOIN, x);
        if (h == 15)
            create(a, &n, n.bob_seed, 3);
        CHECK(produce(a, 0));
    }
    for (uint32_t h = 1; h <= 13; h++) {
        CHECK(give(obs, a, h, NULL) == ZBC_RECV_EXTENDED);
        zbc_chain_index_maintain(obs);
    }
    /* frozen at 9, parts 1 to 5 written */
    CHECK(obs->ix_cycle != NULL &&
          zbc_app_index_cycle_done(obs->ix_cycle) == 5);
    CHECK(!has_marker(obs));
    struct zbc_err err = {{0}};
    disk_full();
    CHECK(zbc_chain_batch_begin(obs, &err));
    for (uint32_t h = 14; h <= 16; h++)
        CHECK(give(obs, a, h, NULL) == ZBC_RECV_EXTENDED);
    CHECK_EQ_INT(zbc_chain_tip(obs)->height, 16);
    CHECK(!zbc_chain_batch_end(obs, &err));
    disk_freed();
    CHECK_EQ_INT(zbc_chain_tip(obs)->height, 13);
    CHECK(zbc_chain_index_ready(obs, &err));
    CHECK(obs->ix_cycle == NULL);
    CHECK(has_marker(obs));
    CHECK_EQ_INT(check_lists(obs, &n), 1);
    struct zbc_app_filter bob_active = {.has_status = true,
                                        .status = ZBC_APP_ACTIVE,
                                        .has_seat = true, .seat = n.bob};
    CHECK_EQ_INT(same_pages(obs, bob_active, 100), 1);
    index_is_rebuild(obs);
    /* the same blocks again, with room */
    for (uint32_t h = 14; h <= 16; h++) {
        CHECK(give(obs, a, h, NULL) == ZBC_RECV_EXTENDED);
        zbc_chain_index_maintain(obs);
    }
    CHECK_EQ_INT(check_lists(obs, &n), 2);
    index_is_rebuild(obs);
    zbc_chain_close(a);
    zbc_chain_close(obs);
    net_teardown(&n);
}

static int drop_index(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    (void)arg;
    return zbc_store_txn_clear(t, ZBC_STORE_DB_APP_INDEX, err) &&
           zbc_store_txn_del(t, ZBC_STORE_DB_META, "app_index_tip", 13, err);
}

/* A key naming an app that does not exist, in the unfiltered range. */
static int bogus_key(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    (void)arg;
    uint8_t k[13] = {0};
    zbc_put_be32(k + 1, 0x7fffffffu);
    zbc_put_be64(k + 5, 42);
    return zbc_store_txn_put(t, ZBC_STORE_DB_APP_INDEX, k, sizeof k, k, 0,
                             err);
}

/* A reverse entry that does not decode (app id in arg). */
static int bad_reverse(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    uint8_t k[9];
    k[0] = 0xff;
    zbc_put_be64(k + 1, *(const uint64_t *)arg);
    return zbc_store_txn_put(t, ZBC_STORE_DB_APP_INDEX, k, sizeof k, "\x01",
                             1, err);
}

/* A ledger from before the index (no marker, no keys) is indexed on open
 * with the same answers; a stale marker too; a bad key is refused. */
static void test_rebuild_and_bad_index(void)
{
    struct net n;
    net_setup(&n);
    struct zbc_chain *a = open_node(&n, "a", &n.k1);
    uint8_t txh[32];
    CHECK(submit(a, &n, 1000000, txh));
    CHECK(produce(a, 0));
    uint64_t y = create(a, &n, n.alice_seed, 1);
    create(a, &n, n.bob_seed, 3);
    CHECK(produce(a, 0));
    app_ref(a, &n, n.bob_seed, ZBC_TX_APP_JOIN, y);
    CHECK(produce(a, 0));
    CHECK_EQ_INT(check_lists(a, &n), 2);

    struct zbc_err err = {{0}};
    CHECK(zbc_chain_index_flush(a, &err)); /* nothing held in memory */
    CHECK(zbc_store_write(zbc_chain_store(a), drop_index, NULL, &err));
    uint64_t ids[16];
    CHECK_EQ_INT(listed(a, ids), 0); /* really gone */
    zbc_chain_close(a);
    a = open_node(&n, "a", &n.k1); /* the open rebuilds it */
    CHECK_EQ_INT(check_lists(a, &n), 2);

    /* directly: a missing marker is rebuilt once, counting the apps */
    bool rebuilt = false;
    uint64_t apps = 0;
    CHECK(zbc_store_write(zbc_chain_store(a), drop_index, NULL, &err));
    CHECK(zbc_app_index_ensure(zbc_chain_store(a), &rebuilt, &apps, &err));
    CHECK(rebuilt);
    CHECK_EQ_INT(apps, 2);
    CHECK(zbc_app_index_ensure(zbc_chain_store(a), &rebuilt, &apps, &err));
    CHECK(!rebuilt);
    CHECK_EQ_INT(check_lists(a, &n), 2);

    /* the chain grows on the rebuilt index */
    create(a, &n, n.alice_seed, 1);
    CHECK(produce(a, 0));
    CHECK_EQ_INT(check_lists(a, &n), 3);
    index_is_rebuild(a);

    /* a damaged reverse entry of an app the next block touches: the block
     * still applies and the index is rebuilt in the flush's transaction */
    CHECK(zbc_store_write(zbc_chain_store(a), bad_reverse, &y, &err));
    app_ref(a, &n, n.alice_seed, ZBC_TX_APP_RESIGN, y);
    CHECK(produce(a, 0));
    CHECK(zbc_chain_index_flush(a, &err));
    CHECK_EQ_INT(check_lists(a, &n), 3);
    struct zbc_app_filter fin = {.has_status = true,
                                 .status = ZBC_APP_FINISHED};
    CHECK_EQ_INT(same_pages(a, fin, 100), 1);

    /* an entry naming no app: the list fails saying so, nothing crashes */
    CHECK(zbc_store_write(zbc_chain_store(a), bogus_key, NULL, &err));
    struct zbc_app_filter f = {0};
    struct zbc_app_list l;
    CHECK(!zbc_chain_app_list(a, &f, 10, &l, &err));
    CHECK(strstr(err.msg, "the app index names app 42, which does not exist")
          != NULL);
    CHECK_EQ_INT(l.n, 0);
    zbc_chain_close(a);
    net_teardown(&n);
}

int main(void)
{
    signal(SIGXFSZ, SIG_IGN);
    TEST_RUN(test_apply_and_reorg);
    TEST_RUN(test_rebuild_and_bad_index);
    TEST_RUN(test_unchanged_not_held);
    TEST_RUN(test_cycle_in_parts);
    TEST_RUN(test_cycle_crash);
    TEST_RUN(test_cycle_lost_batch);
    return test_summary("node_app_index");
}
