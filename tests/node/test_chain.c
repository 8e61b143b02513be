/* Chain facade: open a fresh ledger from genesis, produce blocks, submit
 * transactions, restart, refuse another chain's ledger or a damaged
 * state, apply a produced block on a second node. */
#include <lmdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "chain_fixture.h"
#include "consensus/events.h"
#include "crypto/bytes.h"
#include "node/zbcd/chain.h"
#include "node/zbcd/log.h"
#include "testlib.h"

#define FEE 10000

static struct zbc_chain *open_chain(struct fixture *f,
                                    const struct zbc_node_key *key)
{
    struct zbc_chain *c = NULL;
    struct zbc_err err = {{0}};
    struct zbc_chain_config cfg = {.ledger_dir = f->ledger,
                                   .genesis = &f->g,
                                   .key = key};
    if (!zbc_chain_open(&c, &cfg, &err)) {
        fprintf(stderr, "chain open: %s\n", err.msg);
        return NULL;
    }
    return c;
}

static uint64_t balance_of(struct zbc_chain *c, const struct zbc_addr *a)
{
    struct zbc_account acc = {0};
    struct zbc_err err = {{0}};
    bool found;
    int ok = zbc_chain_account(c, a, &acc, &found, &err);
    return ok && found ? acc.balance : (uint64_t)-1;
}

static void test_fresh_open_and_produce(void)
{
    bool found;
    struct fixture f;
    fx_setup(&f);
    struct zbc_chain *c = open_chain(&f, &f.key);
    CHECK(c != NULL);
    if (c == NULL)
        return;
    struct zbc_err err = {{0}};
    CHECK_EQ_INT(zbc_chain_tip(c)->height, 0);
    CHECK_EQ_MEM(zbc_chain_tip(c)->hash, f.g.hash, 32);
    CHECK_EQ_INT(balance_of(c, &f.alice), FX_ALICE_BALANCE);
    CHECK_EQ_INT(balance_of(c, &f.bob), 1000);
    struct zbc_addr nobody;
    uint8_t nobody_seed[32];
    fx_account(&nobody, nobody_seed, 0x77);
    struct zbc_account acc;
    CHECK(zbc_chain_account(c, &nobody, &acc, &found, &err) && !found);

    struct zbc_slot slot;
    CHECK(zbc_chain_next_slot(c, &slot, &err));
    CHECK(slot.is_validator);
    CHECK_EQ_INT(slot.height, 1);
    CHECK_EQ_INT(slot.rank, 0);
    CHECK_EQ_INT(slot.earliest_ms, FX_GENESIS_TIME + FX_BLOCK_TIME);

    /* too early: refused, nothing stored */
    struct zbc_block_info info;
    CHECK(!zbc_chain_produce(c, slot.earliest_ms - 1, &info, &err));
    CHECK_EQ_INT(zbc_chain_tip(c)->height, 0);
    uint8_t *bytes = NULL;
    size_t len = 0;
    CHECK(zbc_chain_block(c, 1, &bytes, &len, &found, &err) && !found);

    /* an empty block */
    CHECK(zbc_chain_produce(c, slot.earliest_ms, &info, &err));
    CHECK_EQ_INT(info.height, 1);
    CHECK_EQ_INT(info.n_tx, 0);
    CHECK_EQ_INT(zbc_chain_tip(c)->height, 1);
    CHECK_EQ_MEM(zbc_chain_tip(c)->hash, info.hash, 32);
    CHECK(zbc_chain_block(c, 1, &bytes, &len, &found, &err) && found);
    struct zbc_block b;
    CHECK(zbc_block_decode(&b, bytes, len, &err));
    uint8_t h[32];
    zbc_block_hash(h, &b.header);
    CHECK_EQ_MEM(h, info.hash, 32);
    CHECK_EQ_MEM(b.header.prev_hash, f.g.hash, 32);
    zbc_block_free(&b);
    free(bytes);

    /* a transfer through the mempool into block 2 */
    uint64_t now = slot.earliest_ms + FX_BLOCK_TIME;
    int64_t ts = (int64_t)(now / 1000);
    uint8_t tx[512];
    size_t n = fx_send(tx, sizeof tx, &f, f.alice_seed, &f.bob, 12345, FEE,
                       ts);
    uint8_t txh[32];
    bool dup = true;
    CHECK(zbc_chain_submit(c, tx, n, now, txh, &dup, &err));
    CHECK(!dup);
    CHECK(zbc_chain_submit(c, tx, n, now, txh, &dup, &err));
    CHECK(dup);
    CHECK_EQ_INT(zbc_chain_mempool_count(c), 1);

    struct zbc_tx_lookup lk;
    CHECK(zbc_chain_find_tx(c, txh, &lk, &err));
    CHECK_EQ_INT(lk.status, ZBC_TX_STATUS_MEMPOOL);
    CHECK_EQ_INT(lk.len, n);
    CHECK_EQ_INT(lk.pool_size, 1);
    zbc_tx_lookup_free(&lk);
    /* the status alone: the same answers, no bytes */
    struct zbc_tx_lookup st;
    CHECK(zbc_chain_tx_status(c, txh, &st, &err));
    CHECK_EQ_INT(st.status, ZBC_TX_STATUS_MEMPOOL);
    CHECK_EQ_INT(st.position, 0);
    CHECK_EQ_INT(st.pool_size, 1);
    CHECK(st.raw == NULL && st.len == 0);

    /* rejections carry the ZooBC classification texts */
    uint8_t bad[512];
    size_t bn = fx_send(bad, sizeof bad, &f, f.bob_seed, &f.alice, 5000, FEE,
                        ts);
    uint8_t bh[32];
    err.msg[0] = '\0';
    CHECK(!zbc_chain_submit(c, bad, bn, now, bh, &dup, &err));
    CHECK(strstr(err.msg, "insufficient balance") != NULL);
    bn = fx_send(bad, sizeof bad, &f, f.alice_seed, &f.bob, 1, 1, ts);
    err.msg[0] = '\0';
    CHECK(!zbc_chain_submit(c, bad, bn, now, bh, &dup, &err));
    CHECK(strstr(err.msg, "fee too low") != NULL);
    err.msg[0] = '\0';
    CHECK(!zbc_chain_submit(c, bad, 10, now, bh, &dup, &err));
    CHECK(err.msg[0] != '\0');

    CHECK(zbc_chain_produce(c, now, &info, &err));
    CHECK_EQ_INT(info.height, 2);
    CHECK_EQ_INT(info.n_tx, 1);
    CHECK_EQ_INT(zbc_chain_mempool_count(c), 0);
    CHECK_EQ_INT(balance_of(c, &f.bob), 1000 + 12345);
    CHECK_EQ_INT(balance_of(c, &f.alice), FX_ALICE_BALANCE - 12345 - FEE);
    /* the fee went to the producer's account */
    struct zbc_addr prod;
    zbc_addr_from_ed25519(&prod, f.key.pk);
    CHECK_EQ_INT(balance_of(c, &prod), FEE);

    CHECK(zbc_chain_find_tx(c, txh, &lk, &err));
    CHECK_EQ_INT(lk.status, ZBC_TX_STATUS_CONFIRMED);
    CHECK_EQ_INT(lk.height, 2);
    CHECK_EQ_INT(lk.index, 0);
    CHECK_EQ_INT(lk.len, n);
    CHECK(lk.raw != NULL && memcmp(lk.raw, tx, n) == 0);
    zbc_tx_lookup_free(&lk);
    CHECK(zbc_chain_find_tx(c, bh, &lk, &err));
    CHECK_EQ_INT(lk.status, ZBC_TX_STATUS_NOT_FOUND);
    CHECK(zbc_chain_tx_status(c, txh, &st, &err));
    CHECK_EQ_INT(st.status, ZBC_TX_STATUS_CONFIRMED);
    CHECK_EQ_INT(st.height, 2);
    CHECK_EQ_INT(st.index, 0);
    CHECK(st.raw == NULL && st.len == 0);
    CHECK(zbc_chain_tx_status(c, bh, &st, &err));
    CHECK_EQ_INT(st.status, ZBC_TX_STATUS_NOT_FOUND);

    /* the included transaction cannot come back */
    err.msg[0] = '\0';
    CHECK(!zbc_chain_submit(c, tx, n, now, txh, &dup, &err));
    CHECK(err.msg[0] != '\0');

    struct zbc_events ev = {0};
    CHECK(zbc_chain_events(c, 2, &ev, &found, &err) && found);
    int transfers = 0;
    for (size_t i = 0; i < ev.n; i++) {
        if (ev.e[i].kind == ZBC_EVENT_TRANSFER) {
            transfers++;
            CHECK_EQ_INT(ev.e[i].amount, 12345);
            CHECK(zbc_addr_equal(&ev.e[i].b, &f.bob));
        }
    }
    CHECK_EQ_INT(transfers, 1);
    zbc_events_free(&ev);
    CHECK(zbc_chain_events(c, 3, &ev, &found, &err) && !found);

    uint8_t root[32];
    zbc_chain_tip_state_root(c, root);
    zbc_chain_close(c);

    /* restart: same tip, same root, same balances, empty pool */
    c = open_chain(&f, &f.key);
    CHECK(c != NULL);
    if (c != NULL) {
        uint8_t root2[32];
        CHECK_EQ_INT(zbc_chain_tip(c)->height, 2);
        CHECK_EQ_MEM(zbc_chain_tip(c)->hash, info.hash, 32);
        zbc_chain_tip_state_root(c, root2);
        CHECK_EQ_MEM(root, root2, 32);
        CHECK_EQ_INT(balance_of(c, &f.bob), 1000 + 12345);
        CHECK_EQ_INT(zbc_chain_mempool_count(c), 0);
        CHECK(zbc_chain_produce(c, now + FX_BLOCK_TIME, &info, &err));
        CHECK_EQ_INT(info.height, 3);
        zbc_chain_close(c);
    }
    fx_teardown(&f);
}

static void test_other_chain_refused(void)
{
    struct fixture f;
    fx_setup(&f);
    struct zbc_chain *c = open_chain(&f, &f.key);
    CHECK(c != NULL);
    zbc_chain_close(c);

    char json[2048];
    struct zbc_genesis other;
    struct zbc_err err = {{0}};
    fx_genesis_json(json, sizeof json, &f, "another-chain");
    CHECK(zbc_genesis_parse_json(&other, json, strlen(json), &err));
    struct zbc_chain_config cfg = {.ledger_dir = f.ledger, .genesis = &other};
    c = NULL;
    CHECK(!zbc_chain_open(&c, &cfg, &err));
    CHECK(strstr(err.msg, "the ledger belongs to another chain (genesis ") !=
          NULL);
    CHECK(strstr(err.msg, "use its own genesis file") != NULL);
    zbc_genesis_free(&other);
    fx_teardown(&f);
}

static void test_no_key_never_produces(void)
{
    struct fixture f;
    fx_setup(&f);
    struct zbc_chain *c = open_chain(&f, NULL);
    CHECK(c != NULL);
    if (c == NULL)
        return;
    struct zbc_slot slot;
    struct zbc_err err = {{0}};
    CHECK(zbc_chain_next_slot(c, &slot, &err));
    CHECK(!slot.is_validator);
    struct zbc_block_info info;
    CHECK(!zbc_chain_produce(c, FX_GENESIS_TIME + 5000, &info, &err));
    CHECK(strstr(err.msg, "no key") != NULL);
    zbc_chain_close(c);
    fx_teardown(&f);
}

/* Node A produces; node B (same genesis, no key) applies A's blocks and
 * reaches the same tip and state root.  A bad block leaves B unchanged. */
static void test_apply_on_second_node(void)
{
    bool found;
    struct fixture f;
    fx_setup(&f);
    struct zbc_chain *a = open_chain(&f, &f.key);
    CHECK(a != NULL);
    if (a == NULL)
        return;
    struct zbc_err err = {{0}};
    struct zbc_block_info info;
    uint64_t t1 = FX_GENESIS_TIME + FX_BLOCK_TIME;
    uint8_t tx[512];
    size_t n = fx_send(tx, sizeof tx, &f, f.alice_seed, &f.bob, 777, FEE,
                       (int64_t)(t1 / 1000));
    uint8_t txh[32];
    bool dup;
    CHECK(zbc_chain_submit(a, tx, n, t1, txh, &dup, &err));
    CHECK(zbc_chain_produce(a, t1, &info, &err));
    CHECK(zbc_chain_produce(a, t1 + FX_BLOCK_TIME, &info, &err));
    uint8_t *b1 = NULL, *b2 = NULL;
    size_t l1 = 0, l2 = 0;
    CHECK(zbc_chain_block(a, 1, &b1, &l1, &found, &err) && found);
    CHECK(zbc_chain_block(a, 2, &b2, &l2, &found, &err) && found);
    uint8_t root_a[32];
    zbc_chain_tip_state_root(a, root_a);
    zbc_chain_close(a);

    /* second node in its own directory */
    struct fixture f2 = f;
    snprintf(f2.ledger, sizeof f2.ledger, "%s/ledger-b", f.base);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", f2.ledger);
    CHECK_EQ_INT(system(cmd), 0);
    struct zbc_chain *b = open_chain(&f2, NULL);
    CHECK(b != NULL);
    if (b != NULL && b1 != NULL && b2 != NULL) {
        uint64_t now = t1 + 5 * FX_BLOCK_TIME;
        /* block 2 before block 1: wrong parent, refused, nothing stored */
        err.msg[0] = '\0';
        CHECK(!zbc_chain_apply_block(b, b2, l2, now, &info, &err));
        CHECK(err.msg[0] != '\0');
        CHECK_EQ_INT(zbc_chain_tip(b)->height, 0);
        /* a corrupted block 1 (flipped state root byte) is refused */
        uint8_t *bad = malloc(l1);
        memcpy(bad, b1, l1);
        bad[ZBC_BLOCK_HEADER_UNSIGNED_LEN - 40] ^= 1;
        err.msg[0] = '\0';
        CHECK(!zbc_chain_apply_block(b, bad, l1, now, &info, &err));
        CHECK(err.msg[0] != '\0');
        free(bad);
        uint8_t *none = NULL;
        size_t nl = 0;
        CHECK(zbc_chain_block(b, 1, &none, &nl, &found, &err) && !found);
        CHECK_EQ_INT(balance_of(b, &f.bob), 1000);

        CHECK(zbc_chain_apply_block(b, b1, l1, now, &info, &err));
        CHECK_EQ_INT(info.height, 1);
        CHECK(zbc_chain_apply_block(b, b2, l2, now, &info, &err));
        CHECK_EQ_INT(info.height, 2);
        uint8_t root_b[32];
        zbc_chain_tip_state_root(b, root_b);
        CHECK_EQ_MEM(root_a, root_b, 32);
        CHECK_EQ_INT(balance_of(b, &f.bob), 1000 + 777);
        struct zbc_tx_lookup lk;
        CHECK(zbc_chain_find_tx(b, txh, &lk, &err));
        CHECK_EQ_INT(lk.status, ZBC_TX_STATUS_CONFIRMED);
        CHECK_EQ_INT(lk.height, 1);
        zbc_tx_lookup_free(&lk);
    }
    zbc_chain_close(b);
    free(b1);
    free(b2);
    fx_teardown(&f);
}

/* Overwrites one entry of an LMDB database of the ledger (closed). */
static void ledger_put(const char *ledger, const char *db, const void *key,
                       size_t klen, const void *val, size_t vlen)
{
    MDB_env *env;
    MDB_txn *txn;
    MDB_dbi dbi;
    CHECK_EQ_INT(mdb_env_create(&env), 0);
    CHECK_EQ_INT(mdb_env_set_maxdbs(env, 16), 0);
    CHECK_EQ_INT(mdb_env_open(env, ledger, 0, 0600), 0);
    CHECK_EQ_INT(mdb_txn_begin(env, NULL, 0, &txn), 0);
    CHECK_EQ_INT(mdb_dbi_open(txn, db, 0, &dbi), 0);
    MDB_val k = {klen, (void *)key}, v = {vlen, (void *)val};
    CHECK_EQ_INT(mdb_put(txn, dbi, &k, &v, 0), 0);
    CHECK_EQ_INT(mdb_txn_commit(txn), 0);
    mdb_env_close(env);
}

/* The O(1) start-up checks (docs/node.md §3) without --verify-state: the
 * persisted accumulator must give the tip's root, the supply must be the
 * genesis supply. */
static void test_cheap_start_checks_refuse(void)
{
    for (int what = 0; what < 2; what++) {
        struct fixture f;
        fx_setup(&f);
        struct zbc_chain *c = open_chain(&f, &f.key);
        CHECK(c != NULL);
        if (c == NULL)
            return;
        struct zbc_block_info info;
        struct zbc_err err = {{0}};
        CHECK(zbc_chain_produce(c, FX_GENESIS_TIME + FX_BLOCK_TIME, &info,
                                &err));
        zbc_chain_close(c);
        if (what == 0) {
            uint8_t acc[ZBC_LTHASH_BYTES] = {1}; /* another accumulator */
            ledger_put(f.ledger, "s_meta", ZBC_META_KEY_LTHASH,
                       strlen(ZBC_META_KEY_LTHASH), acc, sizeof acc);
        } else {
            uint8_t sup[8];
            zbc_put_le64(sup, f.g.total_supply + 1);
            ledger_put(f.ledger, "s_meta", "supply", 6, sup, 8);
        }
        c = NULL;
        struct zbc_chain_config cfg = {.ledger_dir = f.ledger,
                                       .genesis = &f.g};
        CHECK(!zbc_chain_open(&c, &cfg, &err));
        CHECK(strstr(err.msg, "refusing to start") != NULL);
        if (what == 0)
            CHECK(strstr(err.msg, "does not equal the state root") != NULL);
        else
            CHECK(strstr(err.msg, "is not the genesis supply") != NULL);
        fx_teardown(&f);
    }
}

/* Change one account record behind the node's back: a restart with
 * --verify-state refuses; without it the O(1) checks cannot see it (the
 * accumulator and the root still agree) and the node opens
 * (docs/node.md §3, the decision). */
static void test_damaged_state_refused(void)
{
    struct fixture f;
    fx_setup(&f);
    struct zbc_chain *c = open_chain(&f, &f.key);
    CHECK(c != NULL);
    if (c == NULL)
        return;
    struct zbc_block_info info;
    struct zbc_err err = {{0}};
    CHECK(zbc_chain_produce(c, FX_GENESIS_TIME + FX_BLOCK_TIME, &info, &err));
    zbc_chain_close(c);

    MDB_env *env;
    MDB_txn *txn;
    MDB_dbi dbi;
    CHECK_EQ_INT(mdb_env_create(&env), 0);
    CHECK_EQ_INT(mdb_env_set_maxdbs(env, 16), 0);
    CHECK_EQ_INT(mdb_env_open(env, f.ledger, 0, 0600), 0);
    CHECK_EQ_INT(mdb_txn_begin(env, NULL, 0, &txn), 0);
    CHECK_EQ_INT(mdb_dbi_open(txn, "s_accounts", 0, &dbi), 0);
    uint8_t key[ZBC_ADDR_BYTES_MAX];
    size_t klen = zbc_addr_write(key, &f.bob);
    MDB_val k = {klen, key}, v;
    CHECK_EQ_INT(mdb_get(txn, dbi, &k, &v), 0);
    uint8_t rec[64];
    memcpy(rec, v.mv_data, v.mv_size);
    rec[1] ^= 0x01; /* one more unit for bob */
    MDB_val nv = {v.mv_size, rec};
    CHECK_EQ_INT(mdb_put(txn, dbi, &k, &nv, 0), 0);
    CHECK_EQ_INT(mdb_txn_commit(txn), 0);
    mdb_env_close(env);

    c = NULL;
    err.msg[0] = '\0';
    struct zbc_chain_config cfg = {.ledger_dir = f.ledger, .genesis = &f.g,
                                   .verify_state = true};
    CHECK(!zbc_chain_open(&c, &cfg, &err));
    CHECK(strstr(err.msg, "refusing to start") != NULL);
    CHECK(strstr(err.msg, "damaged") != NULL);
    cfg.verify_state = false;
    CHECK(zbc_chain_open(&c, &cfg, &err));
    zbc_chain_close(c);
    fx_teardown(&f);
}

/* A tiny map that must grow during genesis and block writes: every write
 * function runs again from the start and the result is the same chain as
 * with a large map. */
static void test_map_growth_during_blocks(void)
{
    struct fixture f;
    fx_setup(&f);
    struct zbc_err err = {{0}};
    struct zbc_chain *small = NULL;
    struct zbc_chain_config cfg = {.ledger_dir = f.ledger,
                                   .genesis = &f.g,
                                   .key = &f.key,
                                   .store = {128 * 1024, 16 * 1024}};
    CHECK(zbc_chain_open(&small, &cfg, &err));
    if (small == NULL) {
        fprintf(stderr, "open: %s\n", err.msg);
        fx_teardown(&f);
        return;
    }
    /* the reference: same blocks on a normal map in another directory */
    struct fixture f2 = f;
    snprintf(f2.ledger, sizeof f2.ledger, "%s/ledger-ref", f.base);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", f2.ledger);
    CHECK_EQ_INT(system(cmd), 0);
    struct zbc_chain *ref = open_chain(&f2, &f.key);
    CHECK(ref != NULL);
    uint64_t t = FX_GENESIS_TIME + FX_BLOCK_TIME;
    for (int i = 0; i < 12 && ref != NULL; i++, t += FX_BLOCK_TIME) {
        for (int k = 0; k < 20; k++) {
            uint8_t tx[512], h[32];
            bool dup;
            size_t n = fx_send(tx, sizeof tx, &f, f.alice_seed, &f.bob,
                               (uint64_t)(1 + k + 100 * i), FEE,
                               (int64_t)(t / 1000));
            CHECK(zbc_chain_submit(small, tx, n, t, h, &dup, &err));
            CHECK(zbc_chain_submit(ref, tx, n, t, h, &dup, &err));
        }
        struct zbc_block_info a, b;
        CHECK(zbc_chain_produce(small, t, &a, &err));
        CHECK(zbc_chain_produce(ref, t, &b, &err));
        CHECK_EQ_INT(a.n_tx, 20);
        CHECK_EQ_MEM(a.hash, b.hash, 32);
    }
    uint8_t r1[32], r2[32];
    zbc_chain_tip_state_root(small, r1);
    if (ref != NULL)
        zbc_chain_tip_state_root(ref, r2);
    CHECK_EQ_MEM(r1, r2, 32);
    CHECK_EQ_INT(balance_of(small, &f.bob), balance_of(ref, &f.bob));
    zbc_chain_close(small);
    zbc_chain_close(ref);
    /* the ledger really outgrew the initial map */
    char dbpath[256];
    struct stat st;
    snprintf(dbpath, sizeof dbpath, "%s/data.mdb", f.ledger);
    CHECK(stat(dbpath, &st) == 0 && st.st_size > 128 * 1024);
    /* it reopens and verifies */
    small = NULL;
    CHECK(zbc_chain_open(&small, &cfg, &err));
    if (small != NULL)
        CHECK_EQ_INT(zbc_chain_tip(small)->height, 12);
    zbc_chain_close(small);
    fx_teardown(&f);
}

/* The build budget (chain.h): with a 1-ms budget and the first guess of
 * the cost per transaction a block takes ZBC_CHAIN_BUILD_MIN_TXS, the
 * rest waits; the default budget (a quarter of the 1-s block time) takes
 * them all. */
static void test_block_budget(void)
{
    for (int budget = 0; budget < 2; budget++) {
        struct fixture f;
        fx_setup(&f);
        struct zbc_chain *c = NULL;
        struct zbc_err err = {{0}};
        struct zbc_chain_config cfg = {.ledger_dir = f.ledger,
                                       .genesis = &f.g, .key = &f.key,
                                       .block_budget_ms = budget ? 1 : 0};
        CHECK(zbc_chain_open(&c, &cfg, &err));
        if (c == NULL) {
            fx_teardown(&f);
            return;
        }
        /* the fixture's genesis has one validator: half its 1-s pace by
         * default (a quarter with more validators) */
        CHECK_EQ_INT(f.g.n_validators, 1);
        CHECK_EQ_INT(zbc_chain_block_budget_ms(c), budget ? 1 : 500);
        struct zbc_slot slot;
        CHECK(zbc_chain_next_slot(c, &slot, &err));
        uint64_t now = slot.earliest_ms;
        int64_t ts = (int64_t)(now / 1000);
        for (int i = 0; i < 200; i++) {
            uint8_t tx[512], h[32];
            bool dup;
            size_t n = fx_send(tx, sizeof tx, &f, f.alice_seed, &f.bob,
                               (uint64_t)(i + 1), FEE, ts);
            CHECK(zbc_chain_submit(c, tx, n, now, h, &dup, &err) && !dup);
        }
        struct zbc_block_info info;
        CHECK(zbc_chain_produce(c, now, &info, &err));
        if (budget) {
            CHECK_EQ_INT(info.n_tx, ZBC_CHAIN_BUILD_MIN_TXS);
            CHECK_EQ_INT(zbc_chain_mempool_count(c),
                         200 - ZBC_CHAIN_BUILD_MIN_TXS);
            /* the rest follows in the next blocks, none lost */
            size_t total = info.n_tx;
            for (int b = 0; b < 8 && zbc_chain_mempool_count(c) > 0; b++) {
                CHECK(zbc_chain_next_slot(c, &slot, &err));
                CHECK(zbc_chain_produce(c, slot.earliest_ms, &info, &err));
                CHECK(info.n_tx >= 1);
                total += info.n_tx;
            }
            CHECK_EQ_INT(total, 200);
        } else {
            CHECK_EQ_INT(info.n_tx, 200);
        }
        CHECK_EQ_INT(zbc_chain_mempool_count(c), 0);
        CHECK_EQ_INT(balance_of(c, &f.bob), 1000 + 200 * 201 / 2);
        zbc_chain_close(c);
        fx_teardown(&f);
    }
}

/* zbc_chain_submit_batch gives exactly zbc_chain_submit's results, item by
 * item, with invalid transactions among valid ones (a bad signature, a
 * repeat, an overspend, a fee too low, garbage, a changed amount), and
 * with a mempool too small for the batch (the refusals past its room name
 * the same fee); both chains then build the same block. */
static void test_submit_batch_as_serial(void)
{
    for (int small = 0; small < 2; small++) {
        struct fixture f;
        fx_setup(&f);
        struct zbc_err err = {{0}};
        struct zbc_chain_config cfg = {.ledger_dir = f.ledger,
                                       .genesis = &f.g, .key = &f.key,
                                       .mempool_max_txs = small ? 25 : 0};
        struct zbc_chain *serial = NULL, *batch = NULL;
        CHECK(zbc_chain_open(&serial, &cfg, &err));
        struct fixture f2 = f;
        snprintf(f2.ledger, sizeof f2.ledger, "%s/ledger-batch", f.base);
        char cmd[256];
        snprintf(cmd, sizeof cmd, "mkdir -p '%s'", f2.ledger);
        CHECK_EQ_INT(system(cmd), 0);
        cfg.ledger_dir = f2.ledger;
        CHECK(zbc_chain_open(&batch, &cfg, &err));
        if (serial == NULL || batch == NULL) {
            zbc_chain_close(serial);
            zbc_chain_close(batch);
            fx_teardown(&f);
            return;
        }
        struct zbc_slot slot;
        CHECK(zbc_chain_next_slot(serial, &slot, &err));
        uint64_t now = slot.earliest_ms;
        int64_t ts = (int64_t)(now / 1000);
        enum { N = 48 };
        static uint8_t txs[N][512];
        size_t lens[N];
        for (int i = 0; i < N; i++)
            lens[i] = fx_send(txs[i], sizeof txs[i], &f, f.alice_seed, &f.bob,
                              (uint64_t)(i + 1), FEE + (i % 3), ts);
        txs[5][lens[5] - 1] ^= 1;                       /* bad signature */
        memcpy(txs[9], txs[3], lens[3]);                /* a repeat */
        lens[9] = lens[3];
        lens[14] = fx_send(txs[14], 512, &f, f.bob_seed, &f.alice, 5000, FEE,
                           ts);                         /* overspend */
        lens[20] = fx_send(txs[20], 512, &f, f.alice_seed, &f.bob, 7, 1,
                           ts);                         /* fee too low */
        memset(txs[27], 0xEE, 10);                      /* garbage */
        lens[27] = 10;
        txs[33][lens[33] - 80] ^= 0x40;                 /* changed field */
        struct zbc_submit items[N];
        memset(items, 0, sizeof items);
        for (int i = 0; i < N; i++) {
            items[i].raw = txs[i];
            items[i].len = lens[i];
        }
        zbc_chain_submit_batch(batch, items, N, now);
        int refused = 0;
        for (int i = 0; i < N; i++) {
            uint8_t h[32] = {0};
            bool dup = false;
            struct zbc_err e = {{0}};
            int ok = zbc_chain_submit(serial, txs[i], lens[i], now, h, &dup,
                                      &e);
            CHECK_EQ_INT(items[i].ok, ok);
            CHECK_EQ_INT(items[i].duplicate, dup);
            CHECK_EQ_MEM(items[i].hash, h, 32);
            CHECK_EQ_STR(items[i].err.msg, ok ? "" : e.msg);
            refused += !ok;
        }
        /* the invalid ones, and with the small pool those past its room */
        CHECK(items[5].ok == 0 && items[14].ok == 0 && items[20].ok == 0 &&
              items[27].ok == 0 && items[33].ok == 0 && items[9].duplicate);
        /* refused: the invalid ones, and with the small pool those past
         * its room that do not outbid its cheapest */
        int full = 0, invalid = 0;
        for (int i = 0; i < N; i++) {
            bool is_full = strstr(items[i].err.msg, "mempool is full") != NULL;
            full += is_full;
            invalid += !items[i].ok && !is_full;
        }
        CHECK_EQ_INT(refused, full + invalid);
        CHECK(small ? full > 0 && invalid >= 4 : full == 0 && invalid == 5);
        CHECK_EQ_INT(zbc_chain_mempool_count(batch),
                     zbc_chain_mempool_count(serial));
        struct zbc_block_info a, b;
        CHECK(zbc_chain_produce(serial, now, &a, &err));
        CHECK(zbc_chain_produce(batch, now, &b, &err));
        CHECK_EQ_INT(a.n_tx, b.n_tx);
        CHECK_EQ_MEM(a.hash, b.hash, 32);
        zbc_chain_close(serial);
        zbc_chain_close(batch);
        fx_teardown(&f);
    }
}

int main(void)
{
    zbc_log_to_stderr(false);
    TEST_RUN(test_fresh_open_and_produce);
    TEST_RUN(test_other_chain_refused);
    TEST_RUN(test_no_key_never_produces);
    TEST_RUN(test_apply_on_second_node);
    TEST_RUN(test_damaged_state_refused);
    TEST_RUN(test_cheap_start_checks_refuse);
    TEST_RUN(test_map_growth_during_blocks);
    TEST_RUN(test_block_budget);
    TEST_RUN(test_submit_batch_as_serial);
    return test_summary("node_chain");
}
