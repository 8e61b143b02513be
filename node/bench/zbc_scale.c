/* zbc-scale: builds a large data directory the way a node would
 * (docs/benchmarks.md "Memory at scale", "Sync").
 *
 *   zbc-scale --dir DIR [--accounts N] [--apps M] [--creators K]
 *             [--per-block P | --blocks B]
 *
 * Creates DIR as `zbcd init` does (node key, API token, ledger), writes a
 * one-validator genesis for that key (its own funded "bank" account) to
 * DIR/genesis.json, and then grows the chain through the node's own chain
 * code (node/zbcd/chain.h): every transaction is signed with the
 * consensus/tx.h builder, admitted by zbc_chain_submit and put in a block
 * by zbc_chain_produce, exactly what a producing zbcd does, so
 * `zbc-audit replay DIR` checks the result.  The chain carries:
 *
 *   - a first block funding K creators and one "few" creator;
 *   - N SendZBC from the bank, one to each of N new accounts;
 *   - M CreateApp of a 2-seat tic-tac-toe with a stake, from the K
 *     creators in turn (each ends with about M/K open apps), and 3 from
 *     the "few" creator;
 *
 * at most P transactions per block (default 10000), or spread evenly over
 * B blocks (--blocks, empty blocks when there are fewer transactions
 * than blocks).  Block timestamps are one block time apart from a genesis
 * ten days in the past, so a zbcd started on DIR has its tip behind the
 * clock like any node that was down.
 *
 * Prints the generation time and writes DIR/scale.txt ("key value" lines:
 * accounts, apps, blocks, height, player_many, player_few, seconds,
 * deep_cursor: the created height and id of the app halfway down the list) for
 * scripts/bench scale.  Exit status 1 when a step fails. */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "consensus/genesis.h"
#include "consensus/tx.h"
#include "consensus/tx_body.h"
#include "crypto/bytes.h"
#include "crypto/hash.h"
#include "crypto/hex.h"
#include "crypto/sig.h"
#include "node/zbcd/chain.h"
#include "node/zbcd/datadir.h"
#include "node/zbcd/log.h"

#define BLOCK_MS 1000u
#define FEE 1000
#define STAKE 1000u
#define FEW_APPS 3u
#define TX_MAX 512
#define SIGN_THREADS 2

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *what, const struct zbc_err *err)
{
    fprintf(stderr, "zbc-scale: %s%s%s\n", what, err != NULL ? ": " : "",
            err != NULL ? err->msg : "");
    exit(1);
}

static void usage(void)
{
    fprintf(stderr,
            "usage: zbc-scale --dir DIR [--accounts N] [--apps M] "
            "[--creators K] [--per-block P | --blocks B]\n");
    exit(2);
}

static uint64_t num_arg(const char *name, const char *v, uint64_t max)
{
    uint64_t x = 0;
    struct zbc_err err = {{0}};
    if (v == NULL) {
        fprintf(stderr, "zbc-scale: %s needs a value\n", name);
        exit(2);
    }
    if (!zbc_parse_u64(v, 0, max, &x, name, &err)) {
        fprintf(stderr, "zbc-scale: %s\n", err.msg);
        exit(2);
    }
    return x;
}

struct key {
    uint8_t seed[32], pk[32], sk[64];
    struct zbc_addr addr;
};

static void make_key(struct key *k, const char *tag, uint64_t i)
{
    uint8_t in[40];
    size_t n = strlen(tag);
    memcpy(in, tag, n);
    zbc_put_le64(in + n, i);
    zbc_sha3_256(k->seed, in, n + 8);
    zbc_ed25519_keypair(k->pk, k->sk, k->seed);
    zbc_addr_from_ed25519(&k->addr, k->pk);
}

/* ---- the transaction stream ---- */

enum item_kind { FUND, SEND, CREATE };

struct plan {
    uint64_t accounts, apps, creators;
    struct key bank, few;
    struct key *creator;      /* creators */
    uint64_t *created;        /* apps created so far per creator */
    uint8_t genesis_hash[32];
};

/* The transaction number j of the stream: creators funded, then accounts,
 * then apps (the few creator's first). */
struct item {
    enum item_kind kind;
    uint64_t n; /* account or app number */
};

static uint64_t stream_len(const struct plan *p)
{
    return p->creators + 1 + p->accounts + p->apps + FEW_APPS;
}

static struct item item_at(const struct plan *p, uint64_t j)
{
    if (j < p->creators + 1)
        return (struct item){FUND, j};
    j -= p->creators + 1;
    if (j < p->accounts)
        return (struct item){SEND, j};
    return (struct item){CREATE, j - p->accounts};
}

struct signed_tx {
    uint8_t raw[TX_MAX];
    size_t len;
};

static void sign(const struct plan *p, const struct key *from,
                 enum zbc_tx_type type, const struct zbc_addr *to,
                 const struct zbc_tx_body *b, int64_t ts,
                 struct signed_tx *out)
{
    uint8_t body[128];
    size_t blen = 0;
    struct zbc_err err = {{0}};
    if (!zbc_tx_body_write(body, sizeof body, &blen, b, &err))
        die("transaction body", &err);
    struct zbc_tx tx;
    memset(&tx, 0, sizeof tx);
    tx.type = type;
    tx.version = ZBC_TX_VERSION;
    tx.timestamp = ts;
    if (to != NULL)
        tx.recipient = *to;
    else
        zbc_addr_empty(&tx.recipient);
    tx.fee = FEE;
    tx.body = body;
    tx.body_len = (uint32_t)blen;
    if (!zbc_tx_sign_ed25519(out->raw, sizeof out->raw, &out->len, &tx,
                             from->seed, p->genesis_hash, &err))
        die("signing", &err);
}

/* Item j as a signed transaction with timestamp ts (seconds). */
static void make_tx(const struct plan *p, uint64_t j, int64_t ts,
                    struct signed_tx *out)
{
    struct item it = item_at(p, j);
    struct zbc_tx_body b;
    memset(&b, 0, sizeof b);
    if (it.kind == FUND || it.kind == SEND) {
        struct key to;
        if (it.kind == FUND)
            to = it.n < p->creators ? p->creator[it.n] : p->few;
        else
            make_key(&to, "scale-account", it.n); /* nobody signs for it */
        b.type = ZBC_TX_SEND;
        /* creators: their apps' stakes and fees; accounts: 1 ZBC-unit
         * million each, varied so no two are alike */
        b.u.send.amount = it.kind == FUND
                              ? (p->apps / (p->creators ? p->creators : 1) +
                                 FEW_APPS + 10) * (STAKE * 2 + FEE * 2)
                              : 1000000u + it.n % 1000u;
        sign(p, &p->bank, ZBC_TX_SEND, &to.addr, &b, ts, out);
        return;
    }
    /* app k: the few creator's FEW_APPS first, then creators in turn; the
     * stake varies with the creator's count so the bodies differ */
    uint64_t k = it.n;
    const struct key *from;
    uint64_t seq;
    if (k < FEW_APPS) {
        from = &p->few;
        seq = k;
    } else {
        k -= FEW_APPS;
        from = &p->creator[k % p->creators];
        seq = k / p->creators;
    }
    b.type = ZBC_TX_APP_CREATE;
    b.u.create.app_type = 1; /* tic-tac-toe */
    b.u.create.stake = STAKE + seq;
    b.u.create.seats = 2;
    sign(p, from, ZBC_TX_APP_CREATE, NULL, &b, ts, out);
}

struct sign_job {
    const struct plan *p;
    uint64_t first;
    size_t n, stride, offset;
    int64_t ts;
    struct signed_tx *out;
};

static void *sign_run(void *arg)
{
    struct sign_job *j = arg;
    for (size_t i = j->offset; i < j->n; i += j->stride)
        make_tx(j->p, j->first + i, j->ts, &j->out[i]);
    return NULL;
}

/* Items first .. first+n-1 signed on SIGN_THREADS threads. */
static void sign_batch(const struct plan *p, uint64_t first, size_t n,
                       int64_t ts, struct signed_tx *out)
{
    pthread_t th[SIGN_THREADS];
    struct sign_job jobs[SIGN_THREADS];
    for (int t = 0; t < SIGN_THREADS; t++) {
        jobs[t] = (struct sign_job){p, first, n, SIGN_THREADS, (size_t)t, ts,
                                    out};
        if (pthread_create(&th[t], NULL, sign_run, &jobs[t]) != 0)
            die("cannot start a signing thread", NULL);
    }
    for (int t = 0; t < SIGN_THREADS; t++)
        pthread_join(th[t], NULL);
}

/* ---- the data directory ---- */

static void write_genesis(const char *dir, struct plan *p,
                          const struct zbc_node_key *key, uint64_t genesis_ms,
                          struct zbc_genesis *g)
{
    char vhex[65], bank[ZBC_ADDR_TEXT_MAX], fund[ZBC_ADDR_TEXT_MAX];
    char path[600];
    struct key fk;
    make_key(&fk, "scale-apps-fund", 0);
    zbc_hex_encode(vhex, key->pk, 32);
    zbc_addr_to_text(bank, &p->bank.addr);
    zbc_addr_to_text(fund, &fk.addr);
    char json[2048];
    snprintf(json, sizeof json,
             "{\"chain_name\":\"scale\",\"genesis_time\":%" PRIu64 ","
             "\"block_time_ms\":%u,\"smith_delay_ms\":1000,"
             "\"validators\":[\"%s\"],\"fund_account\":\"%s\","
             "\"fund_balance\":1000000000,"
             "\"balances\":[{\"address\":\"%s\","
             "\"amount\":4000000000000000000}],"
             "\"min_fee_base\":100,\"min_fee_per_byte\":1}\n",
             genesis_ms, BLOCK_MS, vhex, fund, bank);
    struct zbc_err err = {{0}};
    if (!zbc_genesis_parse_json(g, json, strlen(json), &err))
        die("genesis", &err);
    memcpy(p->genesis_hash, g->hash, 32);
    snprintf(path, sizeof path, "%s/%s", dir, ZBC_DATADIR_GENESIS);
    FILE *f = fopen(path, "w");
    if (f == NULL || fputs(json, f) == EOF || fclose(f) != 0)
        die("cannot write genesis.json", NULL);
}

int main(int argc, char **argv)
{
    const char *dir = NULL;
    struct plan p;
    memset(&p, 0, sizeof p);
    p.accounts = 1000000;
    p.apps = 100000;
    p.creators = 100;
    uint64_t per_block = 10000, blocks = 0;
    /* every option takes a value: two arguments a step */
    for (int i = 1; i < argc; i += 2) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--dir") == 0 && v != NULL)
            dir = v;
        else if (strcmp(a, "--accounts") == 0)
            p.accounts = num_arg(a, v, 100000000);
        else if (strcmp(a, "--apps") == 0)
            p.apps = num_arg(a, v, 100000000);
        else if (strcmp(a, "--creators") == 0)
            p.creators = num_arg(a, v, 100000);
        else if (strcmp(a, "--per-block") == 0)
            per_block = num_arg(a, v, 100000);
        else if (strcmp(a, "--blocks") == 0)
            blocks = num_arg(a, v, 10000000);
        else
            usage();
    }
    if (dir == NULL || p.creators == 0 || per_block == 0)
        usage();
    zbc_log_set_level(ZBC_LOG_WARN);

    double t0 = now_s();
    struct zbc_node_key key;
    struct zbc_err err = {{0}};
    if (!zbc_datadir_init(dir, NULL, &key, &err))
        die("data directory", &err);
    make_key(&p.bank, "scale-bank", 0);
    make_key(&p.few, "scale-few", 0);
    p.creator = calloc(p.creators, sizeof *p.creator);
    if (p.creator == NULL)
        die("out of memory", NULL);
    for (uint64_t i = 0; i < p.creators; i++)
        make_key(&p.creator[i], "scale-creator", i);
    uint64_t total = stream_len(&p);
    /* the funding block first, then the rest P per block or over B */
    uint64_t rest = total - (p.creators + 1);
    if (blocks > 1)
        per_block = (rest + blocks - 2) / (blocks - 1);
    if (per_block == 0)
        per_block = 1;
    uint64_t n_blocks = blocks > 1 ? blocks
                                   : 1 + (rest + per_block - 1) / per_block;
    uint64_t wall_ms = (uint64_t)time(NULL) * 1000u;
    uint64_t genesis_ms = wall_ms - 10ull * 86400u * 1000u;
    if (n_blocks * BLOCK_MS >= 10ull * 86400u * 1000u)
        die("too many blocks for a genesis ten days back", NULL);
    struct zbc_genesis g;
    write_genesis(dir, &p, &key, genesis_ms, &g);

    char ledger[600];
    snprintf(ledger, sizeof ledger, "%s/ledger", dir);
    size_t batch_max = per_block > p.creators + 1 ? per_block : p.creators + 1;
    struct zbc_chain_config cfg = {.ledger_dir = ledger, .genesis = &g,
                                   .key = &key,
                                   .mempool_max_txs = 2 * batch_max + 16,
                                   .mempool_max_bytes = (size_t)1 << 30,
                                   /* full blocks of P whatever they take
                                    * to build: the node's per-block build
                                    * budget (docs/p2p.md §8) would leave
                                    * most of each batch in the mempool */
                                   .block_budget_ms = 3600u * 1000u};
    struct zbc_chain *c;
    if (!zbc_chain_open(&c, &cfg, &err))
        die("chain", &err);
    struct signed_tx *txs = calloc(batch_max, sizeof *txs);
    if (txs == NULL)
        die("out of memory", NULL);

    /* the app halfway down the list: its (created, id) is the cursor of a
     * deep page */
    uint64_t deep_item = total - (p.apps + FEW_APPS) / 2 - 1, deep_id = 0;
    uint32_t deep_height = 0;
    bool deep_seen = false;
    uint64_t next = 0, produced = 0;
    double t_sign = 0, t_submit = 0, t_produce = 0;
    while (produced < n_blocks || next < total ||
           zbc_chain_mempool_count(c) > 0) {
        struct zbc_slot slot;
        if (!zbc_chain_next_slot(c, &slot, &err))
            die("next slot", &err);
        uint64_t block_ms = slot.earliest_ms;
        size_t n = next == 0 ? (size_t)(p.creators + 1) : (size_t)per_block;
        if (n > total - next)
            n = (size_t)(total - next);
        double t = now_s();
        sign_batch(&p, next, n, (int64_t)(block_ms / 1000), txs);
        t_sign += now_s() - t;
        t = now_s();
        for (size_t i = 0; i < n; i++) {
            uint8_t h[32];
            bool dup;
            if (!zbc_chain_submit(c, txs[i].raw, txs[i].len, block_ms, h,
                                  &dup, &err)) {
                fprintf(stderr, "zbc-scale: transaction %" PRIu64 "\n",
                        next + i);
                die("submit", &err);
            }
            if (next + i == deep_item) {
                deep_id = zbc_get_le64(h); /* the app id is the tx id */
                deep_seen = true;
            }
        }
        next += n;
        t_submit += now_s() - t;
        t = now_s();
        struct zbc_block_info info;
        if (!zbc_chain_produce(c, block_ms, &info, &err))
            die("produce", &err);
        t_produce += now_s() - t;
        produced++;
        if (deep_seen && deep_height == 0)
            deep_height = info.height;
        if (produced % 100 == 0 || (next == total && n > 0))
            fprintf(stderr, "zbc-scale: block %u, %" PRIu64 "/%" PRIu64
                    " transactions, %.0f s\n", info.height, next, total,
                    now_s() - t0);
    }
    uint32_t height = zbc_chain_tip(c)->height;
    zbc_chain_close(c);
    double secs = now_s() - t0;

    char few[ZBC_ADDR_TEXT_MAX], many[ZBC_ADDR_TEXT_MAX], path[700];
    zbc_addr_to_text(few, &p.few.addr);
    zbc_addr_to_text(many, &p.creator[0].addr);
    snprintf(path, sizeof path, "%s/scale.txt", dir);
    FILE *f = fopen(path, "w");
    if (f == NULL)
        die("cannot write scale.txt", NULL);
    fprintf(f, "accounts %" PRIu64 "\napps %" PRIu64 "\nblocks %" PRIu64
            "\nheight %u\nplayer_many %s\nplayer_few %s\nseconds %.1f\n"
            "deep_cursor %u-%" PRIu64 "\n",
            p.accounts, p.apps + FEW_APPS, produced, height, many, few, secs,
            deep_height, deep_id);
    if (fclose(f) != 0)
        die("cannot write scale.txt", NULL);
    printf("generated %s: %" PRIu64 " accounts, %" PRIu64 " apps, %u blocks "
           "in %.1f s (sign %.1f s on %d threads, submit %.1f s, "
           "produce %.1f s)\n",
           dir, p.accounts, p.apps + FEW_APPS, height, secs, t_sign,
           SIGN_THREADS, t_submit, t_produce);
    free(txs);
    free(p.creator);
    zbc_genesis_free(&g);
    return 0;
}
