/* Shared by the node tests: a temporary data directory with a node key, a
 * one-validator genesis funding two test accounts, and signed SendZBC
 * transactions.  Header-only (static functions) so each test program
 * stays one file. */
#ifndef ZBC_TEST_CHAIN_FIXTURE_H
#define ZBC_TEST_CHAIN_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "consensus/genesis.h"
#include "consensus/tx.h"
#include "crypto/address.h"
#include "crypto/hex.h"
#include "crypto/sig.h"
#include "node/zbcd/datadir.h"

#define FX_GENESIS_TIME 1700000000000ull /* ms */
#define FX_BLOCK_TIME 1000u
#define FX_ALICE_BALANCE 1000000000ull
#define FX_FEE_BASE 1000u
#define FX_FEE_PER_BYTE 10u

struct fixture {
    char base[64];
    char datadir[128];
    char ledger[160];
    struct zbc_node_key key;
    struct zbc_genesis g;
    uint8_t alice_seed[32], bob_seed[32];
    struct zbc_addr alice, bob;
};

static void fx_account(struct zbc_addr *a, uint8_t seed[32], uint8_t fill)
{
    uint8_t pk[32], sk[64];
    memset(seed, fill, 32);
    zbc_ed25519_keypair(pk, sk, seed);
    zbc_addr_from_ed25519(a, pk);
}

/* chain_name lets a test make a second, different chain. */
static void fx_genesis_json(char *out, size_t cap, const struct fixture *f,
                            const char *chain_name)
{
    char vhex[65], alice[ZBC_ADDR_TEXT_MAX], bob[ZBC_ADDR_TEXT_MAX],
        fund[ZBC_ADDR_TEXT_MAX];
    uint8_t fund_pk[32];
    memset(fund_pk, 0xF0, sizeof fund_pk);
    zbc_hex_encode(vhex, f->key.pk, 32);
    zbc_addr_to_text(alice, &f->alice);
    zbc_addr_to_text(bob, &f->bob);
    zbc_addr_zbc_text(fund, fund_pk, "ZBC");
    snprintf(out, cap,
             "{\"chain_name\":\"%s\",\"genesis_time\":%llu,"
             "\"block_time_ms\":%u,\"smith_delay_ms\":1000,"
             "\"validators\":[\"%s\"],\"fund_account\":\"%s\","
             "\"fund_balance\":5000000000,"
             "\"balances\":[{\"address\":\"%s\",\"amount\":%llu},"
             "{\"address\":\"%s\",\"amount\":1000}],"
             "\"min_fee_base\":%u,\"min_fee_per_byte\":%u}",
             chain_name, (unsigned long long)FX_GENESIS_TIME, FX_BLOCK_TIME,
             vhex, fund, alice, (unsigned long long)FX_ALICE_BALANCE, bob,
             FX_FEE_BASE, FX_FEE_PER_BYTE);
}

static void fx_setup(struct fixture *f)
{
    memset(f, 0, sizeof *f);
    strcpy(f->base, "/tmp/zbc_test_node_XXXXXX");
    if (mkdtemp(f->base) == NULL) {
        perror("mkdtemp");
        exit(2);
    }
    snprintf(f->datadir, sizeof f->datadir, "%s/d", f->base);
    snprintf(f->ledger, sizeof f->ledger, "%s/ledger", f->datadir);
    struct zbc_err err = {{0}};
    if (!zbc_datadir_init(f->datadir, NULL, &f->key, &err)) {
        fprintf(stderr, "datadir init: %s\n", err.msg);
        exit(2);
    }
    fx_account(&f->alice, f->alice_seed, 0xA1);
    fx_account(&f->bob, f->bob_seed, 0xB0);
    char json[2048];
    fx_genesis_json(json, sizeof json, f, "node-test");
    if (!zbc_genesis_parse_json(&f->g, json, strlen(json), &err)) {
        fprintf(stderr, "genesis: %s\n", err.msg);
        exit(2);
    }
}

static void fx_teardown(struct fixture *f)
{
    zbc_genesis_free(&f->g);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->base);
    if (system(cmd) != 0)
        fprintf(stderr, "cleanup of %s failed\n", f->base);
}

/* A signed SendZBC from seed to `to`; returns the byte count in out. */
__attribute__((unused)) static size_t fx_send(uint8_t *out, size_t cap, const struct fixture *f,
                      const uint8_t seed[32], const struct zbc_addr *to,
                      uint64_t amount, int64_t fee, int64_t timestamp_s)
{
    uint8_t body[8];
    for (int i = 0; i < 8; i++)
        body[i] = (uint8_t)(amount >> (8 * i));
    struct zbc_tx tx;
    memset(&tx, 0, sizeof tx);
    tx.type = ZBC_TX_SEND;
    tx.version = ZBC_TX_VERSION;
    tx.timestamp = timestamp_s;
    tx.recipient = *to;
    tx.fee = fee;
    tx.body = body;
    tx.body_len = sizeof body;
    size_t n = 0;
    struct zbc_err err = {{0}};
    if (!zbc_tx_sign_ed25519(out, cap, &n, &tx, seed, f->g.hash, &err)) {
        fprintf(stderr, "sign: %s\n", err.msg);
        exit(2);
    }
    return n;
}

#endif
