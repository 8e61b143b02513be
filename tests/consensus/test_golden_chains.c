/* Golden chains: real chains recorded from a running devnet (the apps
 * integration tests: every game, the app lifecycle with resigns, timeouts
 * and discarded moves, solo bets, tic-tac-toe), replayed block by block
 * through the consensus code.  Each block must pass precheck and apply
 * (its header's state root covers accounts, apps and app history), and the
 * events of every block (no-op reasons included, which the state root does
 * not cover) must hash to the recorded value.  A refactor that changes any
 * consensus byte or consensus-visible sentence fails here.
 *
 * tests/vectors/chains/<name>/: genesis.json, blocks.hex (one block's
 * bytes per line, heights 1..n, docs/protocol-chain.md §2.2) and
 * expected.txt (block count, tip hash, state root, SHA3-256 over every
 * block's encoded events in order, docs/protocol-chain.md §5.4).  The
 * chains are recorded by one command, scripts/record-golden (it runs the
 * four source integration tests with ZBC_RECORD_CHAIN, tests/integration/
 * framework.py, then this test with ZBC_GOLDEN_PRINT=1, which prints
 * "<name> <key> <value>" lines instead of comparing); the current ones by
 * the consensus code of commit ceb5efa (app record version 2, genesis
 * version 2). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "consensus/apply.h"
#include "consensus/block.h"
#include "consensus/events.h"
#include "consensus/genesis.h"
#include "node/client/genesis_file.h"
#include "consensus/ledger.h"
#include "consensus/mem_kv.h"
#include "consensus/state.h"
#include "crypto/hash.h"
#include "crypto/hex.h"
#include "testlib.h"

#define CHAINS ZBC_VECTORS_DIR "/chains"

static int read_expected(const char *path, char tip[65], char root[65],
                         char events[65], unsigned *blocks)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 0;
    char key[32], val[80];
    int n = 0;
    while (fscanf(f, "%31s %79s", key, val) == 2) {
        if (strcmp(key, "blocks") == 0) {
            char *end;
            unsigned long v = strtoul(val, &end, 10);
            if (*end == '\0' && v > 0 && v < 1000000)
                *blocks = (unsigned)v, n++;
            continue;
        }
        if (strlen(val) != 64)
            continue;
        if (strcmp(key, "tip") == 0)
            memcpy(tip, val, 65), n++;
        else if (strcmp(key, "state_root") == 0)
            memcpy(root, val, 65), n++;
        else if (strcmp(key, "events_sha3") == 0)
            memcpy(events, val, 65), n++;
    }
    fclose(f);
    return n == 4;
}

static void replay_chain(const char *name)
{
    char path[512];
    struct zbc_err err;
    struct zbc_genesis g;
    snprintf(path, sizeof path, "%s/%s/genesis.json", CHAINS, name);
    CHECK(zbc_genesis_load_file(&g, path, &err));

    struct zbc_mem_kv *mem = zbc_mem_kv_new();
    struct zbc_state st;
    CHECK(mem != NULL);
    CHECK(zbc_state_open(&st, zbc_mem_kv(mem), &err));
    CHECK(zbc_ledger_init_genesis(&st, &g, &err));
    struct zbc_parent parent;
    zbc_parent_genesis(&parent, &g);

    snprintf(path, sizeof path, "%s/%s/blocks.hex", CHAINS, name);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (f == NULL)
        return;
    struct zbc_sha3 events_hash;
    zbc_sha3_init(&events_hash);
    size_t cap = 1 << 24;
    char *line = malloc(cap);
    uint8_t *raw = malloc(cap / 2);
    unsigned height = 0;
    uint8_t tip[32] = {0};
    while (line != NULL && raw != NULL && fgets(line, (int)cap, f) != NULL) {
        size_t n = strcspn(line, "\r\n");
        line[n] = '\0';
        if (n == 0)
            continue;
        height++;
        size_t len;
        struct zbc_block b;
        struct zbc_checked_block cb;
        struct zbc_undo undo;
        struct zbc_events ev;
        uint8_t *enc = NULL;
        size_t enc_len = 0;
        int ok = zbc_hex_decode(raw, cap / 2, &len, line, n) &&
                 zbc_block_decode(&b, raw, len, &err);
        CHECK(ok);
        if (!ok) {
            fprintf(stderr, "%s block %u: %s\n", name, height, err.msg);
            break;
        }
        /* local clock far past every timestamp: the recorded blocks are old */
        ok = zbc_block_precheck(&cb, &g, &parent, &b, b.header.timestamp_ms,
                                &err) &&
             zbc_block_apply(&st, &g, &parent, &cb, &undo, &ev, &err);
        CHECK(ok);
        if (!ok) {
            fprintf(stderr, "%s block %u: %s\n", name, height, err.msg);
            zbc_block_free(&b);
            break;
        }
        CHECK(zbc_events_encode(&ev, &enc, &enc_len, &err));
        zbc_sha3_update(&events_hash, enc, enc_len);
        free(enc);
        memcpy(tip, cb.hash, 32);
        zbc_parent_from_header(&parent, &b.header);
        zbc_events_free(&ev);
        zbc_undo_free(&undo);
        zbc_checked_block_free(&cb);
        zbc_block_free(&b);
    }
    fclose(f);
    free(line);
    free(raw);
    bool print = getenv("ZBC_GOLDEN_PRINT") != NULL;
    char want_tip[65], want_root[65], want_ev[65];
    unsigned want_blocks = 0;
    snprintf(path, sizeof path, "%s/%s/expected.txt", CHAINS, name);
    CHECK(print || read_expected(path, want_tip, want_root, want_ev,
                                 &want_blocks));
    if (!print)
        CHECK_EQ_INT(height, want_blocks);

    uint8_t root[32], eh[32];
    char tip_hex[65], root_hex[65], ev_hex[65];
    zbc_state_root(&st, root);
    zbc_sha3_final(&events_hash, eh);
    zbc_hex_encode(tip_hex, tip, 32);
    zbc_hex_encode(root_hex, root, 32);
    zbc_hex_encode(ev_hex, eh, 32);
    if (print) {
        printf("%s blocks %u\n%s tip %s\n%s state_root %s\n%s events_sha3 "
               "%s\n", name, height, name, tip_hex, name, root_hex, name,
               ev_hex);
    } else {
        CHECK_EQ_STR(tip_hex, want_tip);
        CHECK_EQ_STR(root_hex, want_root);
        CHECK_EQ_STR(ev_hex, want_ev);
    }
    zbc_state_close(&st);
    zbc_mem_kv_free(mem);
    zbc_genesis_free(&g);
}

static void test_games(void) { replay_chain("games"); }
static void test_lifecycle(void) { replay_chain("lifecycle"); }
static void test_dice_bets(void) { replay_chain("dice_bets"); }
static void test_tictactoe(void) { replay_chain("tictactoe"); }

int main(void)
{
    TEST_RUN(test_games);
    TEST_RUN(test_lifecycle);
    TEST_RUN(test_dice_bets);
    TEST_RUN(test_tictactoe);
    return test_summary("consensus_golden_chains");
}
