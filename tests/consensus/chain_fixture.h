/* A one-validator test chain for the apply and mempool tests: keys from
 * fixed seeds, a genesis, transaction and block builders. */
#ifndef ZBC_TEST_CHAIN_FIXTURE_H
#define ZBC_TEST_CHAIN_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "consensus/apply.h"
#include "consensus/block.h"
#include "consensus/genesis.h"
#include "consensus/ledger.h"
#include "consensus/mem_kv.h"
#include "consensus/producer.h"
#include "consensus/seed.h"
#include "consensus/state.h"
#include "consensus/tx.h"
#include "crypto/bytes.h"
#include "crypto/hex.h"
#include "crypto/sig.h"

#define FX_T0 1700000000000ULL /* genesis time, ms */
#define FX_FEE_BASE 100
#define FX_FEE_PER_BYTE 1
#define FX_FEE 1000 /* comfortably above the minimum for a SendZBC */

struct fx_key {
    uint8_t seed[32], pk[32], sk[64];
    struct zbc_addr addr;
};

struct fx {
    struct fx_key val, other_val, a, b, c, fund;
    struct zbc_genesis g;
    struct zbc_mem_kv *m;
    struct zbc_state s;
    struct zbc_parent tip;
};

static inline void fx_key(struct fx_key *k, uint8_t fill)
{
    memset(k->seed, fill, 32);
    zbc_ed25519_keypair(k->pk, k->sk, k->seed);
    zbc_addr_from_ed25519(&k->addr, k->pk);
}

/* max_block_bytes 0 = default */
static inline void fx_init_with(struct fx *f, unsigned max_block_bytes)
{
    memset(f, 0, sizeof *f);
    fx_key(&f->val, 0x11);
    fx_key(&f->other_val, 0x12);
    fx_key(&f->a, 0x22);
    fx_key(&f->b, 0x33);
    fx_key(&f->c, 0x44);
    fx_key(&f->fund, 0x55);
    char vhex[65], ahex[65], bhex[65], fhex[65], extra[64] = "";
    zbc_hex_encode(vhex, f->val.pk, 32);
    zbc_hex_encode(ahex, f->a.pk, 32);
    zbc_hex_encode(bhex, f->b.pk, 32);
    zbc_hex_encode(fhex, f->fund.pk, 32);
    if (max_block_bytes)
        snprintf(extra, sizeof extra, ",\"max_block_bytes\":%u",
                 max_block_bytes);
    char json[2048];
    snprintf(json, sizeof json,
             "{\"chain_name\":\"fixture\",\"genesis_time\":%llu,"
             "\"block_time_ms\":1000,\"smith_delay_ms\":1000,"
             "\"validators\":[\"%s\"],\"fund_account\":\"%s\","
             "\"fund_balance\":100000000,"
             "\"balances\":[{\"address\":\"%s\",\"amount\":1000000},"
             "{\"address\":\"%s\",\"amount\":500}],"
             "\"min_fee_base\":%d,\"min_fee_per_byte\":%d%s}",
             (unsigned long long)FX_T0, vhex, fhex, ahex, bhex, FX_FEE_BASE,
             FX_FEE_PER_BYTE, extra);
    struct zbc_err err;
    if (!zbc_genesis_parse_json(&f->g, json, strlen(json), &err)) {
        fprintf(stderr, "fixture genesis: %s\n", err.msg);
        exit(2);
    }
    f->m = zbc_mem_kv_new();
    if (!zbc_state_open(&f->s, zbc_mem_kv(f->m), &err) ||
        !zbc_ledger_init_genesis(&f->s, &f->g, &err)) {
        fprintf(stderr, "fixture state: %s\n", err.msg);
        exit(2);
    }
    zbc_parent_genesis(&f->tip, &f->g);
}

static inline void fx_init(struct fx *f)
{
    fx_init_with(f, 0);
}

static inline void fx_free(struct fx *f)
{
    zbc_state_close(&f->s);
    zbc_mem_kv_free(f->m);
    zbc_genesis_free(&f->g);
}

/* Signs a transaction of `type` with body bytes; returns its length. */
static inline size_t fx_tx(uint8_t *out, size_t cap, const struct fx_key *from,
                           uint32_t type, const struct zbc_addr *to,
                           const uint8_t *body, uint32_t body_len, int64_t fee,
                           int64_t ts_s, const uint8_t genesis_hash[32])
{
    struct zbc_tx tx;
    memset(&tx, 0, sizeof tx);
    tx.type = type;
    tx.version = 1;
    tx.timestamp = ts_s;
    if (to != NULL)
        tx.recipient = *to;
    else
        zbc_addr_empty(&tx.recipient);
    tx.fee = fee;
    tx.body = body;
    tx.body_len = body_len;
    size_t n;
    struct zbc_err err;
    if (!zbc_tx_sign_ed25519(out, cap, &n, &tx, from->seed, genesis_hash,
                             &err)) {
        fprintf(stderr, "fixture tx: %s\n", err.msg);
        exit(2);
    }
    return n;
}

static inline size_t fx_send(uint8_t *out, const struct fx *f,
                             const struct fx_key *from,
                             const struct zbc_addr *to, uint64_t amount,
                             int64_t fee, int64_t ts_s)
{
    uint8_t body[8];
    zbc_put_le64(body, amount);
    return fx_tx(out, 512, from, ZBC_TX_SEND, to, body, 8, fee, ts_s, f->g.hash);
}

/* Unix seconds of the next block's default time. */
static inline int64_t fx_now_s(const struct fx *f)
{
    return (int64_t)((f->tip.timestamp_ms + 1000) / 1000);
}

/* A block by hand (no state needed): correct height, prev, rank, seed,
 * tx root, given state root, signed by k. */
static inline void fx_hand_block(struct zbc_block *b, struct zbc_tx_ref *refs,
                                 const struct fx *f, const struct fx_key *k,
                                 uint32_t n, uint64_t ts,
                                 const uint8_t state_root[32])
{
    memset(b, 0, sizeof *b);
    struct zbc_block_header *h = &b->header;
    struct zbc_err err;
    h->version = 1;
    h->height = f->tip.height + 1;
    h->timestamp_ms = ts;
    memcpy(h->prev_hash, f->tip.hash, 32);
    memcpy(h->producer, k->pk, 32);
    uint32_t rank = 0;
    if (!zbc_producer_rank(&rank, &f->g, &f->tip, k->pk, &err))
        rank = 0;
    h->rank = rank;
    if (!zbc_seed_prove(h->vrf_proof, h->seed, k->sk, f->tip.seed, h->height,
                        &err)) {
        fprintf(stderr, "fixture seed: %s\n", err.msg);
        exit(2);
    }
    uint8_t(*hs)[32] = malloc((n ? n : 1) * 32);
    size_t total = 0;
    for (uint32_t i = 0; i < n; i++) {
        zbc_tx_ref_hash(hs[i], &refs[i]);
        total += refs[i].len;
    }
    zbc_tx_root(h->tx_root, (const uint8_t(*)[32])hs, n);
    free(hs);
    memcpy(h->state_root, state_root, 32);
    h->tx_count = n;
    b->n_tx = n;
    b->txs = refs;
    b->tx_bytes = total;
    zbc_block_sign(h, k->sk);
}

static inline uint64_t fx_balance(struct fx *f, const struct zbc_addr *a)
{
    uint64_t v = 0;
    struct zbc_err err;
    if (!zbc_ledger_balance(&f->s, a, &v, &err)) {
        fprintf(stderr, "fixture balance: %s\n", err.msg);
        exit(2);
    }
    return v;
}

#endif
