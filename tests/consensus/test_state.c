/* State: mem kv, LtHash root (expected values computed independently by
 * tests/tools/state_root_ref.py from docs/protocol-chain.md §4.3), undo,
 * rollback, undo and event record bytes, ledger and money invariant. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "consensus/events.h"
#include "consensus/ledger.h"
#include "consensus/money.h"
#include "consensus/mem_kv.h"
#include "consensus/state.h"
#include "crypto/hex.h"
#include "testlib.h"

static void root_hex(struct zbc_state *s, char hex[65])
{
    uint8_t r[32];
    zbc_state_root(s, r);
    zbc_hex_encode(hex, r, 32);
}

static void test_known_roots(void)
{
    struct zbc_mem_kv *m = zbc_mem_kv_new();
    struct zbc_state s;
    struct zbc_err err;
    char hex[65];
    CHECK(zbc_state_open(&s, zbc_mem_kv(m), &err));
    root_hex(&s, hex);
    CHECK_EQ_STR(hex,
        "463c61ad03873aa9e82581205205acc3d3c8346c7037c43e4e241ee529f2dc27");
    CHECK(zbc_state_put(&s, ZBC_TABLE_ACCOUNTS, (const uint8_t *)"k1", 2,
                        (const uint8_t *)"v1", 2, &err));
    CHECK(zbc_state_put(&s, ZBC_TABLE_TXSEEN, (const uint8_t *)"k2", 2, NULL,
                        0, &err));
    root_hex(&s, hex);
    CHECK_EQ_STR(hex,
        "6c48169aaef707809ae5f7c91608ddcb5f800c9c60effb5b272f227d77d6a8b0");
    /* order independence: the same set written the other way round */
    struct zbc_mem_kv *m2 = zbc_mem_kv_new();
    struct zbc_state s2;
    CHECK(zbc_state_open(&s2, zbc_mem_kv(m2), &err));
    CHECK(zbc_state_put(&s2, ZBC_TABLE_TXSEEN, (const uint8_t *)"k2", 2, NULL,
                        0, &err));
    CHECK(zbc_state_put(&s2, ZBC_TABLE_ACCOUNTS, (const uint8_t *)"k1", 2,
                        (const uint8_t *)"xx", 2, &err));
    CHECK(zbc_state_put(&s2, ZBC_TABLE_ACCOUNTS, (const uint8_t *)"k1", 2,
                        (const uint8_t *)"v1", 2, &err));
    char hex2[65];
    root_hex(&s2, hex2);
    CHECK_EQ_STR(hex2, hex);
    CHECK(zbc_state_check_root(&s, &err));
    /* persisted accumulator reloads */
    CHECK(zbc_state_commit(&s, &err));
    struct zbc_state s3;
    CHECK(zbc_state_open(&s3, zbc_mem_kv(m), &err));
    root_hex(&s3, hex2);
    CHECK_EQ_STR(hex2, hex);
    CHECK(zbc_state_check_root(&s3, &err)); /* lthash key is outside */
    zbc_state_close(&s3);
    zbc_state_close(&s);
    zbc_state_close(&s2);
    zbc_mem_kv_free(m);
    zbc_mem_kv_free(m2);
}

/* The element of a digest is the ChaCha20 keystream it keys (counter 0,
 * nonce 0): the all-zero digest's element starts with RFC 8439's test
 * vector A.1 #1 (the all-zero key's first block), read as LE u16 lanes. */
static void test_element_is_chacha20(void)
{
    static const char *rfc =
        "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
        "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586";
    struct zbc_lthash_op op;
    memset(&op, 0, sizeof op);
    struct zbc_lthash h;
    zbc_lthash_zero(&h);
    zbc_lthash_apply(&h, &op, 1, NULL);
    uint8_t b[ZBC_LTHASH_BYTES];
    zbc_lthash_to_bytes(b, &h);
    char hex[129];
    zbc_hex_encode(hex, b, 64);
    CHECK_EQ_STR(hex, rfc);
    /* subtracting it again gives the empty accumulator back */
    op.sub = 1;
    zbc_lthash_apply(&h, &op, 1, NULL);
    zbc_lthash_to_bytes(b, &h);
    uint8_t z[ZBC_LTHASH_BYTES] = {0};
    CHECK(memcmp(b, z, sizeof z) == 0);
}

static void test_every_change_moves_root(void)
{
    struct zbc_mem_kv *m = zbc_mem_kv_new();
    struct zbc_state s;
    struct zbc_err err;
    CHECK(zbc_state_open(&s, zbc_mem_kv(m), &err));
    CHECK(zbc_state_put(&s, ZBC_TABLE_ACCOUNTS, (const uint8_t *)"a", 1,
                        (const uint8_t *)"1", 1, &err));
    CHECK(zbc_state_commit(&s, &err));
    struct zbc_mem_kv *before = zbc_mem_kv_clone(m);
    char r0[65], r[65];
    root_hex(&s, r0);
    zbc_state_begin(&s);
    /* value change, table change, key change, new key, delete */
    CHECK(zbc_state_put(&s, ZBC_TABLE_ACCOUNTS, (const uint8_t *)"a", 1,
                        (const uint8_t *)"2", 1, &err));
    root_hex(&s, r);
    CHECK(strcmp(r, r0) != 0);
    CHECK(zbc_state_del(&s, ZBC_TABLE_ACCOUNTS, (const uint8_t *)"a", 1, &err));
    CHECK(zbc_state_put(&s, ZBC_TABLE_META, (const uint8_t *)"a", 1,
                        (const uint8_t *)"1", 1, &err));
    root_hex(&s, r);
    CHECK(strcmp(r, r0) != 0);
    CHECK(zbc_state_del(&s, ZBC_TABLE_META, (const uint8_t *)"a", 1, &err));
    CHECK(zbc_state_put(&s, ZBC_TABLE_ACCOUNTS, (const uint8_t *)"b", 1,
                        (const uint8_t *)"1", 1, &err));
    root_hex(&s, r);
    CHECK(strcmp(r, r0) != 0);
    CHECK(zbc_state_del(&s, ZBC_TABLE_ACCOUNTS, (const uint8_t *)"b", 1, &err));
    CHECK(zbc_state_del(&s, ZBC_TABLE_ACCOUNTS, (const uint8_t *)"zz", 2,
                        &err)); /* absent: no-op */
    root_hex(&s, r);
    CHECK(strcmp(r, r0) != 0); /* "a" is gone */
    CHECK(zbc_state_put(&s, ZBC_TABLE_ACCOUNTS, (const uint8_t *)"a", 1,
                        (const uint8_t *)"1", 1, &err));
    root_hex(&s, r);
    CHECK_EQ_STR(r, r0); /* same set, same root */

    /* rollback_to and a serialized undo restore exactly */
    size_t mark = zbc_state_mark(&s);
    CHECK(zbc_state_put(&s, ZBC_TABLE_TXSEEN, (const uint8_t *)"t", 1,
                        (const uint8_t *)"x", 1, &err));
    CHECK(zbc_state_rollback_to(&s, mark, &err));
    CHECK(!zbc_state_rollback_to(&s, mark + 5, &err));
    CHECK_EQ_INT(zbc_mem_kv_count(m, ZBC_TABLE_TXSEEN), 0);
    CHECK(zbc_state_put(&s, ZBC_TABLE_APPS, (const uint8_t *)"p", 1,
                        (const uint8_t *)"pot", 3, &err));
    CHECK(zbc_state_put(&s, ZBC_TABLE_ACCOUNTS, (const uint8_t *)"a", 1,
                        (const uint8_t *)"9", 1, &err));
    CHECK(zbc_state_commit(&s, &err));
    struct zbc_undo u;
    zbc_state_take_undo(&s, &u);
    uint8_t *bytes;
    size_t len;
    CHECK(zbc_undo_encode(&u, &bytes, &len, &err));
    struct zbc_undo d;
    CHECK(zbc_undo_decode(&d, bytes, len, &err));
    CHECK_EQ_INT(d.n, u.n);
    for (size_t n = 0; n < len; n++) {
        struct zbc_undo t;
        CHECK(!zbc_undo_decode(&t, bytes, n, &err));
        CHECK(t.e == NULL);
    }
    uint8_t *longer = malloc(len + 1);
    memcpy(longer, bytes, len);
    longer[len] = 0;
    struct zbc_undo t;
    CHECK(!zbc_undo_decode(&t, longer, len + 1, &err));
    memcpy(longer, bytes, len);
    longer[0] = 9;
    CHECK(!zbc_undo_decode(&t, longer, len, &err));
    CHECK(strstr(err.msg, "version") != NULL);
    memcpy(longer, bytes, len);
    longer[5] = ZBC_TABLE_COUNT; /* first entry's table */
    CHECK(!zbc_undo_decode(&t, longer, len, &err));
    memcpy(longer, bytes, len);
    longer[6] = 0; /* key length 0 */
    CHECK(!zbc_undo_decode(&t, longer, len, &err));
    free(longer);
    {
        /* an entry for the accumulator's own META key: restoring it would
         * put the bookkeeping entry into the root, so it never decodes */
        const uint8_t lt[] = {1, 1, 0, 0, 0, ZBC_TABLE_META, 6, 'l', 't',
                              'h', 'a', 's', 'h', 0};
        CHECK(!zbc_undo_decode(&t, lt, sizeof lt, &err));
        CHECK(strstr(err.msg, "reserved") != NULL);
        const uint8_t ok[] = {1, 1, 0, 0, 0, ZBC_TABLE_META, 6, 'h', 'e',
                              'i', 'g', 'h', 't', 0};
        CHECK(zbc_undo_decode(&t, ok, sizeof ok, &err));
        zbc_undo_free(&t);
    }
    free(bytes);
    zbc_undo_free(&u);

    CHECK(zbc_state_undo_block(&s, &d, &err));
    zbc_undo_free(&d);
    root_hex(&s, r);
    CHECK_EQ_STR(r, r0);
    CHECK(zbc_mem_kv_equal(m, before)); /* incl. the persisted accumulator */
    CHECK(zbc_state_check_root(&s, &err));

    /* argument checks */
    CHECK(!zbc_state_put(&s, ZBC_TABLE_META, (const uint8_t *)"lthash", 6,
                         (const uint8_t *)"x", 1, &err));
    CHECK(strstr(err.msg, "reserved") != NULL);
    CHECK(!zbc_state_del(&s, ZBC_TABLE_META, (const uint8_t *)"lthash", 6,
                         &err));
    CHECK(!zbc_state_put(&s, ZBC_TABLE_COUNT, (const uint8_t *)"a", 1,
                         (const uint8_t *)"x", 1, &err));
    uint8_t bigkey[ZBC_KV_KEY_MAX + 1] = {0};
    CHECK(!zbc_state_put(&s, ZBC_TABLE_META, bigkey, sizeof bigkey,
                         (const uint8_t *)"x", 1, &err));
    CHECK(!zbc_state_put(&s, ZBC_TABLE_META, bigkey, 0,
                         (const uint8_t *)"x", 1, &err));
    uint8_t *bigval = calloc(1, ZBC_KV_VAL_MAX + 1);
    CHECK(!zbc_state_put(&s, ZBC_TABLE_META, bigkey, 1, bigval,
                         ZBC_KV_VAL_MAX + 1, &err));
    free(bigval);
    uint8_t small[1];
    size_t vlen;
    bool found;
    CHECK(!zbc_state_get(&s, ZBC_TABLE_APPS, (const uint8_t *)"p", 1, small,
                         0, &vlen, &found, &err) ||
          !found); /* "p" was undone: absent */
    CHECK(zbc_state_put(&s, ZBC_TABLE_APPS, (const uint8_t *)"p", 1,
                        (const uint8_t *)"pot", 3, &err));
    CHECK(!zbc_state_get(&s, ZBC_TABLE_APPS, (const uint8_t *)"p", 1, small,
                         sizeof small, &vlen, &found, &err));
    /* a tampered accumulator is caught by the full scan */
    s.acc.lane[3]++;
    CHECK(!zbc_state_check_root(&s, &err));
    CHECK(strstr(err.msg, "does not match") != NULL);
    zbc_state_close(&s);
    zbc_mem_kv_free(before);
    zbc_mem_kv_free(m);
}

/* Every refusal of the undo record decoder, with its sentence
 * (docs/protocol-chain.md §4.2). */
static void test_undo_refusals(void)
{
    static const struct {
        uint8_t b[16];
        size_t n;
        const char *want;
    } cases[] = {
        {{0}, 0, "undo record is truncated (header)"},
        {{1, 0, 0, 0}, 4, "undo record is truncated (header)"},
        {{2, 0, 0, 0, 0}, 5, "undo record version 2 is not 1"},
        {{1, 1, 0, 0, 0}, 5, "undo record claims 1 entries in 0 bytes"},
        {{1, 1, 0, 0, 0, 7, 1, 'k', 0}, 9, "undo entry 0 names table 7"},
        {{1, 1, 0, 0, 0, 1, 0, 'k', 0}, 9, "undo entry 0 has key length 0"},
        {{1, 1, 0, 0, 0, 1, 65, 'k', 0}, 9, "undo entry 0 has key length 65"},
        {{1, 1, 0, 0, 0, 1, 3, 'k', 'e'}, 9,
         "undo entry 0 is truncated (key)"},
        {{1, 1, 0, 0, 0, 1, 1, 'k', 2}, 9, "undo entry 0 has presence flag 2"},
        {{1, 1, 0, 0, 0, 1, 1, 'k', 1, 9, 0, 0}, 12,
         "undo entry 0 is truncated (length)"},
        {{1, 1, 0, 0, 0, 1, 1, 'k', 1, 2, 0, 0, 0, 'v'}, 14,
         "undo entry 0 value of 2 bytes does not fit"},
        {{1, 2, 0, 0, 0, 1, 1, 'k', 1, 1, 0, 0, 0, 'v'}, 14,
         "undo entry 1 is truncated"},
        {{1, 1, 0, 0, 0, 1, 1, 'k', 1, 1, 0, 0, 0, 'v', 7}, 15,
         "undo record has 1 trailing bytes"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct zbc_undo u;
        struct zbc_err err = {{0}};
        CHECK(!zbc_undo_decode(&u, cases[i].b, cases[i].n, &err));
        CHECK(u.e == NULL && u.n == 0);
        CHECK_EQ_STR(err.msg, cases[i].want);
    }
    /* the last case without its trailing byte decodes */
    struct zbc_undo u;
    struct zbc_err err = {{0}};
    CHECK(zbc_undo_decode(&u, cases[12].b, 14, &err));
    CHECK(u.n == 1 && u.e[0].table == 1 && u.e[0].klen == 1 &&
          u.e[0].key[0] == 'k' && u.e[0].had && u.e[0].vlen == 1 &&
          u.e[0].val[0] == 'v');
    zbc_undo_free(&u);
}

static void test_ledger(void)
{
    struct zbc_mem_kv *m = zbc_mem_kv_new();
    struct zbc_state s;
    struct zbc_err err;
    CHECK(zbc_state_open(&s, zbc_mem_kv(m), &err));
    struct zbc_genesis g;
    memset(&g, 0, sizeof g);
    struct zbc_genesis_balance bal[2];
    uint8_t k1[32], k2[32], k3[32];
    memset(k1, 1, 32);
    memset(k2, 2, 32);
    memset(k3, 3, 32);
    zbc_addr_from_ed25519(&bal[0].addr, k1);
    bal[0].amount = 100;
    zbc_addr_from_ed25519(&bal[1].addr, k2);
    bal[1].amount = 50;
    g.balances = bal;
    g.n_balances = 2;
    zbc_addr_from_ed25519(&g.fund_account, k3);
    g.fund_balance = 1000;
    g.total_supply = 1150;
    uint32_t h;
    CHECK(!zbc_ledger_height(&s, &h, &err));
    CHECK(strstr(err.msg, "not initialised") != NULL);
    CHECK(!zbc_money_check(&s, &err));
    CHECK(zbc_ledger_init_genesis(&s, &g, &err));
    CHECK(!zbc_ledger_init_genesis(&s, &g, &err));
    CHECK(strstr(err.msg, "already initialised") != NULL);
    CHECK(zbc_ledger_height(&s, &h, &err));
    CHECK_EQ_INT(h, 0);
    uint64_t v;
    CHECK(zbc_ledger_supply(&s, &v, &err));
    CHECK_EQ_INT(v, 1150);
    CHECK(zbc_ledger_balance(&s, &g.fund_account, &v, &err));
    CHECK_EQ_INT(v, 1000);
    CHECK(zbc_money_check(&s, &err));
    CHECK(zbc_state_check_root(&s, &err));

    CHECK(zbc_ledger_debit(&s, &bal[0].addr, 30, &err));
    CHECK(!zbc_money_check(&s, &err));
    CHECK(strstr(err.msg, "money invariant broken") != NULL);
    CHECK(zbc_ledger_credit(&s, &bal[1].addr, 30, &err));
    CHECK(zbc_money_check(&s, &err));
    CHECK(!zbc_ledger_debit(&s, &bal[0].addr, 71, &err));
    CHECK(strstr(err.msg, "insufficient balance") != NULL);
    CHECK(zbc_ledger_credit(&s, &bal[0].addr, UINT64_MAX - 70, &err));
    CHECK(!zbc_ledger_credit(&s, &bal[0].addr, 1, &err));
    CHECK(strstr(err.msg, "overflow") != NULL);
    CHECK(!zbc_money_check(&s, &err)); /* sum overflows */
    CHECK(zbc_ledger_debit(&s, &bal[0].addr, UINT64_MAX - 70, &err));
    struct zbc_addr empty;
    zbc_addr_empty(&empty);
    CHECK(!zbc_ledger_credit(&s, &empty, 1, &err));
    CHECK(strstr(err.msg, "cannot hold") != NULL);

    uint8_t hash[32];
    memset(hash, 7, 32);
    bool seen;
    CHECK(zbc_ledger_tx_seen(&s, hash, &seen, &h, &err));
    CHECK(!seen);
    CHECK(zbc_ledger_mark_tx(&s, hash, 0x01020304, &err));
    CHECK(zbc_ledger_tx_seen(&s, hash, &seen, &h, &err));
    CHECK(seen);
    CHECK_EQ_INT(h, 0x01020304);

    /* a corrupt app record (pots are summed from them) fails the check */
    CHECK(zbc_state_put(&s, ZBC_TABLE_APPS, (const uint8_t *)"x", 1,
                        (const uint8_t *)"y", 1, &err));
    CHECK(!zbc_money_check(&s, &err));
    CHECK(strstr(err.msg, "money invariant") != NULL);
    CHECK(zbc_state_del(&s, ZBC_TABLE_APPS, (const uint8_t *)"x", 1, &err));
    CHECK(zbc_money_check(&s, &err));
    /* a corrupt account record is reported */
    uint8_t key[ZBC_ADDR_BYTES_MAX];
    size_t klen = zbc_addr_write(key, &bal[1].addr);
    CHECK(zbc_state_put(&s, ZBC_TABLE_ACCOUNTS, key, klen,
                        (const uint8_t *)"\x02xxxxxxxx", 9, &err));
    CHECK(!zbc_ledger_balance(&s, &bal[1].addr, &v, &err));
    CHECK(strstr(err.msg, "corrupt") != NULL);
    zbc_state_close(&s);
    zbc_mem_kv_free(m);
}

/* An event of `kind` with empty addresses (type 2), reason length rl and
 * reason bytes `reason`, then `tail` raw bytes; returns the length. */
static size_t event_bytes(uint8_t *b, uint8_t kind, uint8_t rl,
                          const char *reason, const uint8_t *tail,
                          size_t tail_n)
{
    size_t n = 0;
    memset(b, 0, 37);
    b[0] = kind;
    n = 37;
    const uint8_t empty[4] = {2, 0, 0, 0};
    memcpy(b + n, empty, 4);
    memcpy(b + n + 4, empty, 4);
    n += 8;
    memset(b + n, 0, 16);
    n += 16;
    b[n++] = rl;
    size_t have = strlen(reason);
    memcpy(b + n, reason, have);
    n += have;
    memcpy(b + n, tail, tail_n);
    return n + tail_n;
}

/* Every refusal of the event decoders, with its sentence
 * (docs/protocol-chain.md §5.4). */
static void test_event_refusals(void)
{
    uint8_t b[400];
    struct zbc_event e;
    struct zbc_err err = {{0}};
    size_t used, n;
    static const uint8_t no_tail[1];
    static const uint8_t tail_ok[] = {1, 2, 0xaa, 0xbb};
    static const uint8_t tail_short[] = {1, 3, 0xaa, 0xbb};

    n = event_bytes(b, ZBC_EVENT_TRANSFER, 2, "ok", no_tail, 0);
    CHECK(zbc_event_decode_one(&e, b, n, &used, &err));
    CHECK(used == n && strcmp(e.reason, "ok") == 0);
    CHECK(!zbc_event_decode_one(&e, b, 36, &used, &err));
    CHECK_EQ_STR(err.msg, "event is truncated");
    b[0] = 0;
    CHECK(!zbc_event_decode_one(&e, b, n, &used, &err));
    CHECK_EQ_STR(err.msg, "event has unknown kind 0");
    b[0] = 99;
    CHECK(!zbc_event_decode_one(&e, b, n, &used, &err));
    CHECK_EQ_STR(err.msg, "event has unknown kind 99");
    b[0] = ZBC_EVENT_TRANSFER;
    CHECK(!zbc_event_decode_one(&e, b, 39, &used, &err));
    CHECK(strncmp(err.msg, "event address a: ", 17) == 0);
    CHECK(!zbc_event_decode_one(&e, b, 43, &used, &err));
    CHECK(strncmp(err.msg, "event address b: ", 17) == 0);
    CHECK(!zbc_event_decode_one(&e, b, 45 + 16, &used, &err));
    CHECK_EQ_STR(err.msg, "event is truncated (amounts)");
    n = event_bytes(b, ZBC_EVENT_TRANSFER, 3, "ab", no_tail, 0);
    CHECK(!zbc_event_decode_one(&e, b, n, &used, &err));
    CHECK_EQ_STR(err.msg, "event reason of 3 bytes does not fit");
    char long_reason[ZBC_EVENT_REASON_MAX + 1];
    memset(long_reason, 'x', ZBC_EVENT_REASON_MAX);
    long_reason[ZBC_EVENT_REASON_MAX] = '\0';
    n = event_bytes(b, ZBC_EVENT_TRANSFER, ZBC_EVENT_REASON_MAX, long_reason,
                    no_tail, 0);
    CHECK(!zbc_event_decode_one(&e, b, n, &used, &err));
    CHECK_EQ_STR(err.msg, "event reason of 200 bytes does not fit");
    n = event_bytes(b, ZBC_EVENT_TRANSFER, 3, "abc", no_tail, 0);
    b[n - 2] = 0;
    CHECK(!zbc_event_decode_one(&e, b, n, &used, &err));
    CHECK_EQ_STR(err.msg, "event reason contains a NUL byte");
    n = event_bytes(b, ZBC_EVENT_APP_CREATE, 0, "", tail_ok, sizeof tail_ok);
    CHECK(zbc_event_decode_one(&e, b, n, &used, &err));
    CHECK(used == n && e.seat == 1 && e.data_len == 2 && e.data[1] == 0xbb);
    CHECK(!zbc_event_decode_one(&e, b, n - 3, &used, &err));
    CHECK_EQ_STR(err.msg, "event is truncated (seat and data)");
    n = event_bytes(b, ZBC_EVENT_APP_CREATE, 0, "", tail_short,
                    sizeof tail_short);
    CHECK(!zbc_event_decode_one(&e, b, n, &used, &err));
    CHECK_EQ_STR(err.msg, "event is truncated (seat and data)");

    /* lists: version u8 | count u32 | events */
    struct zbc_events ev;
    uint8_t list[100] = {1, 1, 0, 0, 0};
    size_t one = event_bytes(list + 5, ZBC_EVENT_TRANSFER, 0, "", no_tail, 0);
    CHECK(zbc_events_decode(&ev, list, 5 + one, &err));
    CHECK(ev.n == 1);
    zbc_events_free(&ev);
    CHECK(!zbc_events_decode(&ev, list, 4, &err));
    CHECK_EQ_STR(err.msg, "event list is truncated (header)");
    CHECK(!zbc_events_decode(&ev, list, 5 + one - 1, &err));
    CHECK_EQ_STR(err.msg, "event list claims 1 events in 61 bytes");
    CHECK(!zbc_events_decode(&ev, list, 5 + one + 1, &err));
    CHECK_EQ_STR(err.msg, "event list has 1 trailing bytes");
    list[5] = 0;
    CHECK(!zbc_events_decode(&ev, list, 5 + one, &err));
    CHECK_EQ_STR(err.msg, "event 0: event has unknown kind 0");
    list[0] = 2;
    CHECK(!zbc_events_decode(&ev, list, 5 + one, &err));
    CHECK_EQ_STR(err.msg, "event list version 2 is not 1");
}

static void test_events(void)
{
    struct zbc_events ev = {0}, d;
    struct zbc_err err;
    struct zbc_event e;
    memset(&e, 0, sizeof e);
    e.kind = ZBC_EVENT_TRANSFER;
    e.tx_index = 3;
    memset(e.tx_hash, 0xee, 32);
    uint8_t k[32];
    memset(k, 9, 32);
    zbc_addr_from_ed25519(&e.a, k);
    zbc_addr_empty(&e.b);
    e.amount = 12345;
    strcpy(e.reason, "because");
    CHECK(zbc_events_push(&ev, &e, &err));
    e.kind = ZBC_EVENT_NOOP;
    e.reason[0] = '\0';
    e.tx_index = ZBC_EVENT_NO_TX;
    CHECK(zbc_events_push(&ev, &e, &err));
    uint8_t *bytes;
    size_t len;
    CHECK(zbc_events_encode(&ev, &bytes, &len, &err));
    CHECK_EQ_INT(len, 5 + (1 + 4 + 32 + 36 + 4 + 8 + 8 + 1 + 7) +
                          (1 + 4 + 32 + 36 + 4 + 8 + 8 + 1));
    CHECK(zbc_events_decode(&d, bytes, len, &err));
    CHECK_EQ_INT(d.n, 2);
    CHECK_EQ_INT(d.e[0].kind, ZBC_EVENT_TRANSFER);
    CHECK_EQ_INT(d.e[0].amount, 12345);
    CHECK_EQ_STR(d.e[0].reason, "because");
    CHECK(zbc_addr_equal(&d.e[0].a, &e.a));
    CHECK_EQ_INT(d.e[1].tx_index, ZBC_EVENT_NO_TX);
    CHECK_EQ_STR(zbc_event_kind_name(d.e[1].kind), "noop");
    zbc_events_free(&d);
    for (size_t n = 0; n < len; n++) {
        CHECK(!zbc_events_decode(&d, bytes, n, &err));
        CHECK(d.e == NULL);
    }
    uint8_t *longer = malloc(len + 1);
    memcpy(longer, bytes, len);
    longer[len] = 0;
    CHECK(!zbc_events_decode(&d, longer, len + 1, &err));
    memcpy(longer, bytes, len);
    longer[5] = 99;
    CHECK(!zbc_events_decode(&d, longer, len, &err));
    CHECK(strstr(err.msg, "unknown kind") != NULL);
    memcpy(longer, bytes, len);
    longer[0] = 2;
    CHECK(!zbc_events_decode(&d, longer, len, &err));
    memcpy(longer, bytes, len);
    longer[5 + 1 + 4 + 32 + 36 + 4 + 16 + 1] = 0; /* NUL inside reason */
    CHECK(!zbc_events_decode(&d, longer, len, &err));
    CHECK(strstr(err.msg, "NUL") != NULL);
    free(longer);
    free(bytes);
    zbc_events_free(&ev);
}

/* The accumulator folded once per key (consensus/state.h): random puts,
 * deletes, roots taken mid-way, rollbacks to marks before and after them,
 * whole-block undos and commits; after every step the accumulator equals
 * a full scan of the state, and the roots of two states that reached the
 * same entries by different histories are equal. */
static void lazy_fold_with(const struct zbc_lthash_accel *accel)
{
    struct zbc_mem_kv *m = zbc_mem_kv_new();
    struct zbc_state s;
    struct zbc_err err;
    CHECK(zbc_state_open(&s, zbc_mem_kv(m), &err));
    zbc_state_set_accel(&s, accel);
    uint64_t x = 0x9E3779B97F4A7C15ull;
    size_t bad = 0;
    struct zbc_undo blocks[4];
    size_t n_blocks = 0;
    /* a fifth under the sanitizers: a full scan after every step */
    for (int step = 0; step < test_scaled(4000); step++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        uint8_t key[2] = {'k', (uint8_t)(x % 23)};
        uint8_t val[3] = {(uint8_t)(x >> 8), (uint8_t)(x >> 16),
                          (uint8_t)(x >> 24)};
        enum zbc_table t = (enum zbc_table)((x >> 32) % 3);
        unsigned op = (unsigned)((x >> 40) % 20);
        int ok = 1;
        if (op < 10) {
            ok = zbc_state_put(&s, t, key, sizeof key, val, 1 + (x >> 50) % 3,
                               &err);
        } else if (op < 13) {
            ok = zbc_state_del(&s, t, key, sizeof key, &err);
        } else if (op < 15) {
            uint8_t r[32];
            zbc_state_root(&s, r); /* folds */
        } else if (op < 17) {
            size_t n = zbc_state_mark(&s);
            ok = zbc_state_rollback_to(&s, n > 0 ? (size_t)(x >> 20) % n : 0,
                                       &err);
        } else if (op < 19) {
            /* a block ends: its undo kept for later */
            ok = zbc_state_commit(&s, &err);
            if (n_blocks < 4)
                zbc_state_take_undo(&s, &blocks[n_blocks++]);
            else
                zbc_state_begin(&s);
        } else if (n_blocks > 0) {
            /* the undo of the latest block, with unfolded writes after it
             * rolled back first as the node does (a reorg starts from a
             * committed tip) */
            ok = zbc_state_rollback_to(&s, 0, &err) &&
                 zbc_state_undo_block(&s, &blocks[--n_blocks], &err);
            zbc_undo_free(&blocks[n_blocks]);
            zbc_state_begin(&s);
        }
        CHECK(ok);
        if (!zbc_state_check_root(&s, &err))
            bad++;
    }
    CHECK_EQ_INT(bad, 0);
    while (n_blocks > 0)
        zbc_undo_free(&blocks[--n_blocks]);
    /* same entries, another history: the same root byte for byte */
    struct zbc_mem_kv *m2 = zbc_mem_kv_new();
    struct zbc_state s2;
    CHECK(zbc_state_open(&s2, zbc_mem_kv(m2), &err));
    for (int t = 0; t < 3; t++)
        for (int k = 0; k < 23; k++) {
            uint8_t key[2] = {'k', (uint8_t)k}, val[ZBC_KV_VAL_MAX > 8 ? 8 : 1];
            size_t vlen;
            bool found;
            CHECK(zbc_state_get(&s, (enum zbc_table)t, key, 2, val,
                                sizeof val, &vlen, &found, &err));
            if (found)
                CHECK(zbc_state_put(&s2, (enum zbc_table)t, key, 2, val, vlen,
                                    &err));
        }
    char a[65], b[65];
    root_hex(&s, a);
    root_hex(&s2, b);
    CHECK_EQ_STR(a, b);
    zbc_state_close(&s2);
    zbc_mem_kv_free(m2);
    zbc_state_close(&s);
    zbc_mem_kv_free(m);
}

/* Runners for zbc_lthash_apply: the slices backwards on this thread, and
 * on two threads at once. */
static void run_backwards(void *pool, size_t n, void (*fn)(void *, size_t),
                          void *ctx)
{
    (void)pool;
    for (size_t i = n; i > 0; i--)
        fn(ctx, i - 1);
}

struct two {
    size_t n;
    void (*fn)(void *, size_t);
    void *ctx;
};

static void *odd_half(void *arg)
{
    struct two *t = arg;
    for (size_t i = 1; i < t->n; i += 2)
        t->fn(t->ctx, i);
    return NULL;
}

static void run_two_threads(void *pool, size_t n, void (*fn)(void *, size_t),
                            void *ctx)
{
    (void)pool;
    struct two t = {n, fn, ctx};
    pthread_t th;
    bool started = pthread_create(&th, NULL, odd_half, &t) == 0;
    for (size_t i = 0; i < n; i += 2)
        fn(ctx, i);
    if (started)
        pthread_join(th, NULL);
    else
        odd_half(&t);
}

/* The same random history with the accumulator's updates gathered and
 * applied through zbc_lthash_apply: no help, a cache so small that it
 * evicts all the time, and a larger one on two threads; every step's
 * accumulator equals a full scan's (consensus/state_root.h). */
static void test_lazy_fold(void)
{
    lazy_fold_with(NULL);
    struct zbc_lthash_cache *tiny = zbc_lthash_cache_new(2);
    struct zbc_lthash_cache *big = zbc_lthash_cache_new(256);
    CHECK(tiny != NULL && big != NULL);
    struct zbc_lthash_accel a1 = {tiny, run_backwards, NULL};
    struct zbc_lthash_accel a2 = {big, run_two_threads, NULL};
    struct zbc_lthash_accel a3 = {NULL, run_two_threads, NULL};
    lazy_fold_with(&a1);
    lazy_fold_with(&a2);
    lazy_fold_with(&a3);
    uint64_t hits, misses;
    zbc_lthash_cache_stats(big, &hits, &misses);
    CHECK(hits > 0 && misses > 0);
    zbc_lthash_cache_free(tiny);
    zbc_lthash_cache_free(big);
}

/* zbc_lthash_apply over many ops equals one add/sub at a time, with and
 * without a cache and threads. */
static void test_lthash_apply(void)
{
    enum { N = 3000 };
    struct zbc_lthash_op *ops = calloc(N, sizeof *ops);
    CHECK(ops != NULL);
    struct zbc_lthash want, got;
    zbc_lthash_zero(&want);
    for (size_t i = 0; i < N; i++) {
        uint8_t key[4] = {'a', (uint8_t)(i % 97), (uint8_t)(i / 97), 1};
        uint8_t val[5] = {(uint8_t)i, (uint8_t)(i >> 8), 7, 7, 7};
        bool sub = i % 3 == 1;
        if (sub)
            zbc_lthash_sub(&want, 1, key, sizeof key, val, sizeof val);
        else
            zbc_lthash_add(&want, 1, key, sizeof key, val, sizeof val);
        zbc_lthash_digest(ops[i].digest, 1, key, sizeof key, val, sizeof val);
        ops[i].sub = sub;
        ops[i].keep = i % 2 == 0;
    }
    struct zbc_lthash_cache *c = zbc_lthash_cache_new(512);
    CHECK(c != NULL);
    struct zbc_lthash_accel variants[] = {
        {NULL, NULL, NULL}, {c, NULL, NULL}, {c, run_two_threads, NULL},
        {NULL, run_backwards, NULL}, {c, run_backwards, NULL}};
    for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
        zbc_lthash_zero(&got);
        zbc_lthash_apply(&got, ops, N, &variants[v]);
        CHECK(memcmp(&got, &want, sizeof got) == 0);
    }
    zbc_lthash_zero(&got);
    zbc_lthash_apply(&got, ops, N, NULL);
    CHECK(memcmp(&got, &want, sizeof got) == 0);
    uint64_t hits, misses;
    zbc_lthash_cache_stats(c, &hits, &misses);
    CHECK(hits > 0); /* the kept elements of the earlier passes */
    zbc_lthash_cache_free(c);
    free(ops);
}

int main(void)
{
    TEST_RUN(test_known_roots);
    TEST_RUN(test_element_is_chacha20);
    TEST_RUN(test_every_change_moves_root);
    TEST_RUN(test_undo_refusals);
    TEST_RUN(test_ledger);
    TEST_RUN(test_events);
    TEST_RUN(test_event_refusals);
    TEST_RUN(test_lazy_fold);
    TEST_RUN(test_lthash_apply);
    return test_summary("consensus_state");
}
