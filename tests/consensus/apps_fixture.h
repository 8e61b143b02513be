/* Apps through blocks: transaction builders for the five app types and a
 * block helper that applies hand-made blocks (so no-ops can be included),
 * checks the money invariant and that the block's undo record restores
 * the exact previous state. */
#ifndef ZBC_TEST_APPS_FIXTURE_H
#define ZBC_TEST_APPS_FIXTURE_H

#include "chain_fixture.h"
#include "consensus/apps_apply.h"
#include "consensus/money.h"
#include "crypto/bytes.h"
#include "crypto/hash.h"
#include "testlib.h"

#ifndef AX_SLOTS
#define AX_SLOTS 16 /* transactions a block may queue; a test may set more */
#endif
#define AX_TX_MAX 4600

static uint8_t ax_buf[AX_SLOTS][AX_TX_MAX];
static struct zbc_tx_ref ax_refs[AX_SLOTS];
static uint32_t ax_n;

/* Appends a signed transaction to the next block; returns its slot.  The
 * timestamp goes back one second per slot so equal bodies differ. */
static inline uint32_t ax_tx(struct fx *f, const struct fx_key *k,
                             uint32_t type, const uint8_t *body, uint32_t len,
                             int64_t fee)
{
    uint32_t i = ax_n++;
    if (i >= AX_SLOTS) {
        fprintf(stderr, "apps fixture: too many transactions\n");
        exit(2);
    }
    ax_refs[i].bytes = ax_buf[i];
    ax_refs[i].len = (uint32_t)fx_tx(ax_buf[i], AX_TX_MAX, k, type, NULL, body,
                                     len, fee, fx_now_s(f) - (int64_t)i,
                                     f->g.hash);
    return i;
}

static inline void ax_hash(uint8_t h[32], uint32_t slot)
{
    zbc_tx_ref_hash(h, &ax_refs[slot]);
}

/* CreateApp; returns the app id (= the transaction id). */
static inline uint64_t ax_create(struct fx *f, const struct fx_key *k,
                                 uint8_t type, uint64_t stake, uint8_t seats,
                                 const uint8_t *params, uint16_t plen,
                                 const struct zbc_addr *opponent, int64_t fee)
{
    static uint8_t body[20 + 4096 + 36];
    body[0] = type;
    zbc_put_le64(body + 1, 0);
    zbc_put_le64(body + 9, stake);
    body[17] = seats;
    zbc_put_le16(body + 18, plen);
    if (plen)
        memcpy(body + 20, params, plen);
    uint32_t len = 20u + plen;
    if (opponent != NULL)
        len += (uint32_t)zbc_addr_write(body + len, opponent);
    uint32_t slot = ax_tx(f, k, ZBC_TX_APP_CREATE, body, len, fee);
    uint8_t h[32];
    ax_hash(h, slot);
    return zbc_get_le64(h);
}

static inline uint32_t ax_ref(struct fx *f, const struct fx_key *k,
                              uint32_t type, uint64_t id)
{
    uint8_t body[8];
    zbc_put_le64(body, id);
    return ax_tx(f, k, type, body, 8, FX_FEE);
}

static inline uint32_t ax_move(struct fx *f, const struct fx_key *k,
                               uint64_t id, const uint8_t *move, uint16_t len)
{
    static uint8_t body[10 + 4200];
    zbc_put_le64(body, id);
    zbc_put_le16(body + 8, len);
    if (len)
        memcpy(body + 10, move, len);
    return ax_tx(f, k, ZBC_TX_APP_MOVE, body, 10u + len,
                 len > 1000 ? 6000 : FX_FEE);
}

static inline uint32_t ax_move1(struct fx *f, const struct fx_key *k,
                                uint64_t id, uint8_t m)
{
    return ax_move(f, k, id, &m, 1);
}

/* Undo check: rolling the block back on a copy of the state gives back
 * `pre` exactly (every entry and the accumulator). */
static inline void ax_check_undo(struct fx *f, struct zbc_mem_kv *pre,
                                 const struct zbc_undo *u)
{
    struct zbc_mem_kv *post = zbc_mem_kv_clone(f->m);
    struct zbc_state st;
    struct zbc_err err;
    CHECK(zbc_state_open(&st, zbc_mem_kv(post), &err));
    CHECK(zbc_state_undo_block(&st, u, &err));
    CHECK(zbc_mem_kv_equal(post, pre));
    uint8_t r1[32], r2[32];
    zbc_state_root(&st, r1);
    zbc_state_close(&st);
    struct zbc_state ps;
    CHECK(zbc_state_open(&ps, zbc_mem_kv(pre), &err));
    zbc_state_root(&ps, r2);
    zbc_state_close(&ps);
    CHECK_EQ_MEM(r1, r2, 32);
    zbc_mem_kv_free(post);
}

/* Applies the queued transactions as the next block (hand-made, so no-ops
 * are included), then clears the queue.  *ev gets the events (caller
 * frees).  Returns 1 when the block applied. */
static inline int ax_block(struct fx *f, struct zbc_events *ev)
{
    struct zbc_err err = {{0}};
    uint64_t ts = f->tip.timestamp_ms + 1000;
    struct zbc_block b;
    uint8_t zero[32] = {0}, root[32];
    fx_hand_block(&b, ax_refs, f, &f->val, ax_n, ts, zero);
    /* the state root, from a trial run on a copy */
    struct zbc_mem_kv *trial = zbc_mem_kv_clone(f->m);
    struct zbc_state t;
    struct zbc_events tev = {0};
    CHECK(zbc_state_open(&t, zbc_mem_kv(trial), &err));
    zbc_state_begin(&t);
    CHECK(zbc_apps_begin_block(&t, &f->g, b.header.height, b.header.seed,
                               &tev, &err));
    for (uint32_t i = 0; i < ax_n; i++) {
        struct zbc_checked_tx ct;
        if (!zbc_tx_check_stateless(&ct, &f->g, ax_refs[i].bytes,
                                    ax_refs[i].len, &err) ||
            !zbc_tx_apply(&t, &f->g, &ct, i, b.header.height, ts,
                          f->val.pk, &tev, &err))
            fprintf(stderr, "  trial tx %u: %s\n", i, err.msg);
    }
    CHECK(zbc_ledger_set_height(&t, b.header.height, &err));
    zbc_state_root(&t, root);
    zbc_state_close(&t);
    zbc_mem_kv_free(trial);
    zbc_events_free(&tev);
    memcpy(b.header.state_root, root, 32);
    zbc_block_sign(&b.header, f->val.sk);

    struct zbc_mem_kv *pre = zbc_mem_kv_clone(f->m);
    struct zbc_undo u;
    int ok = zbc_block_validate_apply(&f->s, &f->g, &f->tip, &b, ts, &u, ev,
                                      &err);
    CHECK(ok);
    if (!ok) {
        fprintf(stderr, "  block: %s\n", err.msg);
    } else {
        zbc_parent_from_header(&f->tip, &b.header);
        CHECK(zbc_money_check(&f->s, &err));
        ax_check_undo(f, pre, &u);
    }
    zbc_undo_free(&u);
    zbc_mem_kv_free(pre);
    ax_n = 0;
    return ok;
}

/* Builds the next block with the producer path from the queued
 * candidates (no-ops are left out); returns the count included. */
static inline uint32_t ax_build(struct fx *f, struct zbc_events *ev)
{
    struct zbc_err err = {{0}};
    struct zbc_block b;
    struct zbc_undo u;
    struct zbc_mem_kv *pre = zbc_mem_kv_clone(f->m);
    uint32_t n = 0;
    int ok = zbc_block_build(&b, &f->s, &f->g, &f->tip, ax_refs, ax_n,
                             f->tip.timestamp_ms + 1000, f->val.sk, &u, ev,
                             &err);
    CHECK(ok);
    if (ok) {
        n = b.n_tx;
        zbc_parent_from_header(&f->tip, &b.header);
        CHECK(zbc_money_check(&f->s, &err));
        ax_check_undo(f, pre, &u);
        zbc_block_free(&b);
        zbc_undo_free(&u);
    } else {
        fprintf(stderr, "  build: %s\n", err.msg);
    }
    zbc_mem_kv_free(pre);
    ax_n = 0;
    return n;
}

/* A second node: its own copy of the state at the fixture's start. */
struct ax_mirror {
    struct zbc_mem_kv *m;
    struct zbc_state s;
    struct zbc_parent tip;
};

static inline void ax_mirror_init(struct ax_mirror *mi, struct fx *f)
{
    struct zbc_err err;
    mi->m = zbc_mem_kv_clone(f->m);
    CHECK(zbc_state_open(&mi->s, zbc_mem_kv(mi->m), &err));
    mi->tip = f->tip;
}

static inline void ax_mirror_free(struct ax_mirror *mi)
{
    zbc_state_close(&mi->s);
    zbc_mem_kv_free(mi->m);
}

/* Builds the next block from the queued candidates on f and applies it on
 * the mirror: both must accept it and end with equal stores.  Returns the
 * number of transactions included; *ev gets the builder's events. */
static inline uint32_t ax_build_replay(struct fx *f, struct ax_mirror *mi,
                                       struct zbc_events *ev)
{
    struct zbc_err err = {{0}};
    struct zbc_block b;
    struct zbc_undo u, u2;
    struct zbc_events ev2 = {0};
    uint32_t n = 0;
    int ok = zbc_block_build(&b, &f->s, &f->g, &f->tip, ax_refs, ax_n,
                             f->tip.timestamp_ms + 1000, f->val.sk, &u, ev,
                             &err);
    CHECK(ok);
    if (!ok) {
        fprintf(stderr, "  build: %s\n", err.msg);
        ax_n = 0;
        return 0;
    }
    /* through the wire format, as a peer receives it */
    uint8_t *raw;
    size_t rlen;
    struct zbc_block got;
    CHECK(zbc_block_encode(&b, &raw, &rlen, &err));
    CHECK(zbc_block_decode(&got, raw, rlen, &err));
    int ok2 = zbc_block_validate_apply(&mi->s, &f->g, &mi->tip, &got,
                                       b.header.timestamp_ms, &u2, &ev2, &err);
    CHECK(ok2);
    if (!ok2)
        fprintf(stderr, "  replay of block %u: %s\n", b.header.height,
                err.msg);
    else
        zbc_parent_from_header(&mi->tip, &got.header);
    CHECK(zbc_mem_kv_equal(f->m, mi->m));
    CHECK_EQ_INT(ev->n, ev2.n);
    uint8_t *e1, *e2;
    size_t l1, l2;
    CHECK(zbc_events_encode(ev, &e1, &l1, &err));
    CHECK(zbc_events_encode(&ev2, &e2, &l2, &err));
    CHECK(l1 == l2 && memcmp(e1, e2, l1) == 0);
    free(e1);
    free(e2);
    uint8_t *ub1, *ub2;
    size_t ul1, ul2;
    CHECK(zbc_undo_encode(&u, &ub1, &ul1, &err));
    CHECK(zbc_undo_encode(&u2, &ub2, &ul2, &err));
    CHECK(ul1 == ul2 && memcmp(ub1, ub2, ul1) == 0);
    free(ub1);
    free(ub2);
    CHECK(zbc_money_check(&f->s, &err));
    CHECK(zbc_state_check_root(&f->s, &err));
    n = b.n_tx;
    zbc_parent_from_header(&f->tip, &b.header);
    zbc_block_free(&got);
    free(raw);
    zbc_block_free(&b);
    zbc_undo_free(&u);
    zbc_undo_free(&u2);
    zbc_events_free(&ev2);
    ax_n = 0;
    return n;
}

/* Empty blocks until the tip is at `height`. */
static inline void ax_until(struct fx *f, uint32_t height)
{
    while (f->tip.height < height) {
        struct zbc_events ev = {0};
        ax_n = 0;
        (void)ax_build(f, &ev);
        zbc_events_free(&ev);
    }
}

/* The nth (0-based) event of a kind, or NULL. */
static inline const struct zbc_event *ax_ev(const struct zbc_events *ev,
                                            enum zbc_event_kind kind,
                                            unsigned nth)
{
    for (size_t i = 0; i < ev->n; i++)
        if (ev->e[i].kind == kind && nth-- == 0)
            return &ev->e[i];
    return NULL;
}

static inline size_t ax_count(const struct zbc_events *ev,
                              enum zbc_event_kind kind)
{
    size_t n = 0;
    for (size_t i = 0; i < ev->n; i++)
        n += ev->e[i].kind == kind;
    return n;
}

/* The transaction in `slot` was a no-op whose reason contains `want`. */
#define AX_NOOP(ev, slot, want)                                              \
    do {                                                                     \
        const struct zbc_event *_e = NULL;                                   \
        for (size_t _i = 0; _i < (ev)->n; _i++)                              \
            if ((ev)->e[_i].tx_index == (slot))                              \
                _e = &(ev)->e[_i];                                           \
        CHECK(_e != NULL && _e->kind == ZBC_EVENT_NOOP);                     \
        if (_e != NULL && strstr(_e->reason, (want)) == NULL) {              \
            test_failures++;                                                 \
            fprintf(stderr, "%s:%d: no-op reason \"%s\" lacks \"%s\"\n",     \
                    __FILE__, __LINE__, _e->reason, (want));                 \
        }                                                                    \
    } while (0)

/* The key of seat `seat` in a two-seat app a created and b joined. */
static inline const struct fx_key *ax_seat_key(struct fx *f, uint8_t seat)
{
    return seat == 0 ? &f->a : &f->b;
}

static inline void ax_app(struct fx *f, uint64_t id, struct zbc_app *a)
{
    bool found = false;
    struct zbc_err err;
    CHECK(zbc_apps_get(&f->s, id, a, &found, &err));
    CHECK(found);
}

/* Funds b and c from a (block 1). */
static inline void ax_fund(struct fx *f)
{
    struct zbc_events ev = {0};
    ax_refs[0].bytes = ax_buf[0];
    ax_refs[0].len = (uint32_t)fx_send(ax_buf[0], f, &f->a, &f->b.addr,
                                       200000, FX_FEE, fx_now_s(f));
    ax_refs[1].bytes = ax_buf[1];
    ax_refs[1].len = (uint32_t)fx_send(ax_buf[1], f, &f->a, &f->c.addr,
                                       200000, FX_FEE, fx_now_s(f));
    ax_n = 2;
    CHECK(ax_block(f, &ev));
    zbc_events_free(&ev);
}

/* First seat by the formula, computed here with SHA3 directly. */
static inline uint8_t ax_first(const uint8_t seed[32], uint64_t id,
                               uint8_t seats)
{
    uint8_t buf[48], h[32];
    memcpy(buf, "ZBC-TURN", 8);
    memcpy(buf + 8, seed, 32);
    zbc_put_le64(buf + 40, id);
    zbc_sha3_256(h, buf, 48);
    return (uint8_t)(zbc_get_le64(h) % seats);
}

/* A two-seat app of `type` created by a and joined by b, run until its
 * first seat is drawn (J + 2); returns its id, *first = that seat. */
static inline uint64_t ax_two_seat_started(struct fx *f, uint8_t type,
                                           uint64_t stake, uint8_t *first)
{
    struct zbc_events ev = {0};
    uint64_t id = ax_create(f, &f->a, type, stake, 2, NULL, 0, NULL, FX_FEE);
    CHECK(ax_block(f, &ev));
    zbc_events_free(&ev);
    ax_ref(f, &f->b, ZBC_TX_APP_JOIN, id);
    CHECK(ax_block(f, &ev));
    zbc_events_free(&ev);
    ax_until(f, f->tip.height + 2);
    *first = ax_first(f->tip.seed, id, 2);
    return id;
}

/* An Ethereum-account transaction (secp256k1 personal_sign). */
static inline uint32_t eth_tx(struct fx *f, const uint8_t sk[32], uint32_t type,
                       const uint8_t *body, uint32_t len)
{
    struct zbc_tx tx;
    struct zbc_err err;
    memset(&tx, 0, sizeof tx);
    tx.type = type;
    tx.version = 1;
    tx.timestamp = fx_now_s(f) - (int64_t)ax_n;
    CHECK(zbc_eth_address(&tx.sender, sk));
    zbc_addr_empty(&tx.recipient);
    tx.fee = FX_FEE;
    tx.body = body;
    tx.body_len = len;
    uint32_t i = ax_n++;
    size_t n;
    uint8_t digest[32];
    CHECK(zbc_tx_write_unsigned(ax_buf[i], AX_TX_MAX, &n, &tx, &err));
    zbc_tx_digest_v2(digest, f->g.hash, ax_buf[i], n);
    CHECK(zbc_eth_sign(ax_buf[i] + n, sk, digest));
    ax_refs[i].bytes = ax_buf[i];
    ax_refs[i].len = (uint32_t)(n + 65);
    return i;
}

#endif
