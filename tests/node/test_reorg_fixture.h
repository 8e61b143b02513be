/* Shared by the reorg tests: a two-validator genesis (keys k1, k2) on a
 * temporary directory, chains on their own ledgers, produce / submit /
 * hand over blocks.  Header-only (static functions). */
#ifndef ZBC_TEST_REORG_FIXTURE_H
#define ZBC_TEST_REORG_FIXTURE_H

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* the fixture's one-validator setup is not used here */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "chain_fixture.h"
#pragma GCC diagnostic pop
#include "consensus/apply.h"
#include "consensus/fork_choice.h"
#include "consensus/producer.h"
#include "node/zbcd/chain.h"
#include "testlib.h"

#define FEE 10000

struct net {
    char base[64];
    struct zbc_node_key k1, k2;
    struct zbc_genesis g;
    uint8_t alice_seed[32], bob_seed[32];
    struct zbc_addr alice, bob;
    int n_dirs;
};

__attribute__((unused)) static void load_key(struct net *n, const char *name, struct zbc_node_key *k)
{
    char dir[128];
    struct zbc_err err = {{0}};
    snprintf(dir, sizeof dir, "%s/%s", n->base, name);
    if (!zbc_datadir_init(dir, NULL, k, &err)) {
        fprintf(stderr, "datadir init: %s\n", err.msg);
        exit(2);
    }
}

__attribute__((unused)) static void net_setup(struct net *n)
{
    memset(n, 0, sizeof *n);
    strcpy(n->base, "/tmp/zbc_test_reorg_XXXXXX");
    if (mkdtemp(n->base) == NULL) {
        perror("mkdtemp");
        exit(2);
    }
    load_key(n, "k1", &n->k1);
    load_key(n, "k2", &n->k2);
    fx_account(&n->alice, n->alice_seed, 0xA1);
    fx_account(&n->bob, n->bob_seed, 0xB0);
    char v1[65], v2[65], alice[ZBC_ADDR_TEXT_MAX], bob[ZBC_ADDR_TEXT_MAX],
        fund[ZBC_ADDR_TEXT_MAX], json[2048];
    uint8_t fund_pk[32];
    memset(fund_pk, 0xF0, sizeof fund_pk);
    zbc_hex_encode(v1, n->k1.pk, 32);
    zbc_hex_encode(v2, n->k2.pk, 32);
    zbc_addr_to_text(alice, &n->alice);
    zbc_addr_to_text(bob, &n->bob);
    zbc_addr_zbc_text(fund, fund_pk, "ZBC");
    snprintf(json, sizeof json,
             "{\"chain_name\":\"reorg-test\",\"genesis_time\":%llu,"
             "\"block_time_ms\":1000,\"smith_delay_ms\":1000,"
             "\"validators\":[\"%s\",\"%s\"],\"fund_account\":\"%s\","
             "\"fund_balance\":5000000000,"
             "\"balances\":[{\"address\":\"%s\",\"amount\":1000000000},"
             "{\"address\":\"%s\",\"amount\":1000}],"
             "\"min_fee_base\":1000,\"min_fee_per_byte\":10}",
             (unsigned long long)FX_GENESIS_TIME, v1, v2, fund, alice, bob);
    struct zbc_err err = {{0}};
    if (!zbc_genesis_parse_json(&n->g, json, strlen(json), &err)) {
        fprintf(stderr, "genesis: %s\n", err.msg);
        exit(2);
    }
}

__attribute__((unused)) static void net_teardown(struct net *n)
{
    zbc_genesis_free(&n->g);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", n->base);
    if (system(cmd) != 0)
        fprintf(stderr, "cleanup of %s failed\n", n->base);
}

/* A chain on its own ledger <base>/<name> with cfg's other settings
 * (orphan limits, block budget); key NULL: an observer. */
__attribute__((unused)) static struct zbc_chain *
open_node_cfg(struct net *n, const char *name, const struct zbc_node_key *key,
              struct zbc_chain_config cfg)
{
    char dir[160];
    snprintf(dir, sizeof dir, "%s/%s", n->base, name);
    mkdir(dir, 0700);
    struct zbc_chain *c = NULL;
    struct zbc_err err = {{0}};
    cfg.ledger_dir = dir;
    cfg.genesis = &n->g;
    cfg.key = key;
    if (!zbc_chain_open(&c, &cfg, &err)) {
        fprintf(stderr, "chain open %s: %s\n", name, err.msg);
        exit(2);
    }
    return c;
}

/* ... with lim NULL: the default orphan budgets. */
__attribute__((unused)) static struct zbc_chain *
open_node_limited(struct net *n, const char *name,
                  const struct zbc_node_key *key,
                  const struct zbc_orphan_limits *lim)
{
    struct zbc_chain_config cfg = {0};
    if (lim != NULL)
        cfg.orphans = *lim;
    return open_node_cfg(n, name, key, cfg);
}

__attribute__((unused)) static struct zbc_chain *open_node(struct net *n, const char *name,
                                   const struct zbc_node_key *key)
{
    return open_node_limited(n, name, key, NULL);
}

/* Produces the next block at this key's earliest time + extra_ms. */
__attribute__((unused)) static int produce(struct zbc_chain *c, uint64_t extra_ms)
{
    struct zbc_slot slot;
    struct zbc_block_info info;
    struct zbc_err err = {{0}};
    if (!zbc_chain_next_slot(c, &slot, &err) || !slot.is_validator)
        return 0;
    if (!zbc_chain_produce(c, slot.earliest_ms + extra_ms, &info, &err)) {
        fprintf(stderr, "produce: %s\n", err.msg);
        return 0;
    }
    return 1;
}

__attribute__((unused)) static int submit(struct zbc_chain *c, struct net *n, uint64_t amount,
                  uint8_t hash[32])
{
    struct fixture f; /* fx_send needs the genesis hash only */
    memset(&f, 0, sizeof f);
    memcpy(f.g.hash, n->g.hash, 32);
    uint8_t raw[512];
    size_t len = fx_send(raw, sizeof raw, &f, n->alice_seed, &n->bob, amount,
                         FEE, (int64_t)(FX_GENESIS_TIME / 1000) + 1);
    bool dup;
    struct zbc_err err = {{0}};
    if (!zbc_chain_submit(c, raw, len, FX_GENESIS_TIME + 500, hash, &dup,
                          &err)) {
        fprintf(stderr, "submit: %s\n", err.msg);
        return 0;
    }
    return 1;
}

/* count blocks on c, each with one transfer of first_amount + k (its hash
 * in tx[k]); 0 when a submit or a block failed. */
__attribute__((unused)) static int produce_transfers(struct zbc_chain *c, struct net *n,
                                                     uint64_t first_amount,
                                                     uint8_t (*tx)[32], int count)
{
    for (int k = 0; k < count; k++)
        if (!submit(c, n, first_amount + (uint64_t)k, tx[k]) || !produce(c, 0))
            return 0;
    return 1;
}

/* Far enough after every block here that no block is "in the future". */
#define LATE_MS (FX_GENESIS_TIME + 100000000ull)

__attribute__((unused)) static enum zbc_recv_kind give(struct zbc_chain *dst, struct zbc_chain *src,
                               uint32_t height, struct zbc_recv_result *out)
{
    uint8_t *bytes = NULL;
    size_t len = 0;
    struct zbc_err err = {{0}};
    struct zbc_recv_result r;
    bool found;
    if (!zbc_chain_block(src, height, &bytes, &len, &found, &err) || !found) {
        fprintf(stderr, "no block %u: %s\n", height, err.msg);
        exit(2);
    }
    /* the receiver's clock: just after the sender's tip */
    uint64_t now = zbc_chain_tip(src)->timestamp_ms + 1000;
    if (!zbc_chain_receive_block(dst, bytes, len, now, NULL, &r, &err) &&
        r.kind != ZBC_RECV_INVALID)
        fprintf(stderr, "receive: %s\n", err.msg);
    free(bytes);
    if (out != NULL)
        *out = r;
    return r.kind;
}

__attribute__((unused)) static void state_root(struct zbc_chain *c, uint8_t root[32])
{
    zbc_chain_tip_state_root(c, root);
}

__attribute__((unused)) static enum zbc_tx_status tx_status(struct zbc_chain *c, const uint8_t h[32])
{
    struct zbc_tx_lookup l;
    struct zbc_err err = {{0}};
    if (!zbc_chain_find_tx(c, h, &l, &err))
        return ZBC_TX_STATUS_NOT_FOUND;
    enum zbc_tx_status s = l.status;
    zbc_tx_lookup_free(&l);
    return s;
}

#endif
