/* The P2P layer (node/zbcd/p2p.h) against raw test connections on loopback:
 * the node's Hello and Auth, refusals at the handshake (protocol version,
 * other genesis, a wrong signature, a replayed challenge, its own key, a
 * banned key), GetBlocks answers, transaction gossip, the misbehaviour
 * scores of docs/p2p.md §6 up to a ban, timeouts and slot limits; and the
 * ban table under churn; and that a transaction's signature is verified
 * once per node whichever way it arrives (this program is linked with
 * -Wl,--wrap=zbc_sig_verify, tests/node/meson.build, to count them). */
#include <stdatomic.h>
#include <errno.h>
#include <sodium.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "chain_fixture.h"
#include "crypto/hash.h"
#include "node/zbcd/chain.h"
#include "node/zbcd/datadir.h"
#include "node/zbcd/log.h"
#include "node/zbcd/p2p.h"
#include "node/zbcd/p2p_wire.h"
#include "testlib.h"

static uint64_t g_now;
static uint64_t test_clock(void)
{
    return g_now;
}

struct conn {
    int fd;
    uint8_t buf[1 << 20];
    size_t n;
    bool closed;
    bool got_hello;           /* the node's Hello read: frames sealed */
    Zbc__P2p__Hello *hello;   /* the node's Hello */
    zbc_p2p_msg *hello_msg;
    uint8_t kx_pk[32], kx_sk[32];
    uint8_t rx[32], tx[32];
    uint64_t rx_n, tx_n;
    uint8_t last_auth[64];    /* the signature this side sent */
};

/* Every transaction signature verification in this program (the verify
 * pool's threads count too). */
static atomic_uint g_verifies;
int __real_zbc_sig_verify(const struct zbc_addr *sender,
                          const uint8_t digest[32], const uint8_t *sig,
                          size_t sig_len, struct zbc_err *err);
int __wrap_zbc_sig_verify(const struct zbc_addr *sender,
                          const uint8_t digest[32], const uint8_t *sig,
                          size_t sig_len, struct zbc_err *err);
int __wrap_zbc_sig_verify(const struct zbc_addr *sender,
                          const uint8_t digest[32], const uint8_t *sig,
                          size_t sig_len, struct zbc_err *err)
{
    g_verifies++;
    return __real_zbc_sig_verify(sender, digest, sig, sig_len, err);
}

static struct event_base *g_base;
static int g_rcvbuf; /* > 0: SO_RCVBUF of the next test connections */

/* Lets every ban and score of the test so far run out (no connection may
 * be open: it would be idle that long). */
static void forgive(void)
{
    g_now += ZBC_P2P_BAN_MAX_MS;
}

static void pump(int ms)
{
    struct timespec ts = {0, 2000000};
    for (int i = 0; i < ms / 2; i++) {
        event_base_loop(g_base, EVLOOP_NONBLOCK);
        nanosleep(&ts, NULL);
    }
}

static int g_send_pump = 20; /* ms the node runs after each send */

static void send_raw(struct conn *c, const uint8_t *b, size_t len)
{
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(c->fd, b + off, len - off);
        if (w < 0 && errno == EAGAIN) {
            pump(4);
            continue;
        }
        if (w <= 0)
            return;
        off += (size_t)w;
    }
    pump(g_send_pump);
}

/* Plain before the node's Hello was read and for Hello itself; sealed
 * after. */
static void send_msg(struct conn *c, const zbc_p2p_msg *m)
{
    uint8_t *b = NULL;
    size_t len = 0;
    struct zbc_err err = {{0}};
    int ok = m->msg_case == ZBC__P2P__ENVELOPE__MSG_HELLO || !c->got_hello
                 ? zbc_p2p_encode(m, &b, &len, &err)
                 : zbc_p2p_seal(m, c->tx, c->tx_n++, &b, &len, &err);
    if (!ok) {
        fprintf(stderr, "encode: %s\n", err.msg);
        exit(2);
    }
    send_raw(c, b, len);
    free(b);
}

/* Next message of kind `want` within ms (others are skipped); NULL when
 * none came or the node closed the connection (c->closed).  The node's
 * first frame is its plaintext Hello, kept in c->hello. */
static zbc_p2p_msg *recv_kind(struct conn *c, int want, int ms)
{
    for (int t = 0; t < ms; t += 4) {
        pump(4);
        for (;;) {
            ssize_t r = read(c->fd, c->buf + c->n, sizeof c->buf - c->n);
            if (r > 0) {
                c->n += (size_t)r;
                continue;
            }
            if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
                c->closed = true;
            break;
        }
        for (;;) {
            uint32_t len = 0;
            struct zbc_err err = {{0}};
            if (zbc_p2p_frame_check(c->buf, c->n, ZBC_P2P_MAX_FRAME, &len,
                                    &err) != ZBC_P2P_FRAME_READY)
                break;
            zbc_p2p_msg *m = NULL;
            int ok = c->got_hello ? zbc_p2p_open(&m, c->rx, c->rx_n++, c->buf,
                                                 4 + len, &err)
                                  : zbc_p2p_decode(&m, c->buf + 4, len, &err);
            memmove(c->buf, c->buf + 4 + len, c->n - 4 - len);
            c->n -= 4 + len;
            if (ok && !c->got_hello &&
                m->msg_case == ZBC__P2P__ENVELOPE__MSG_HELLO) {
                c->got_hello = true;
                c->hello_msg = m;
                c->hello = m->hello;
                if (!zbc_p2p_session_keys(c->rx, c->tx, c->kx_pk, c->kx_sk,
                                          m->hello->kx_key.data, 1, &err))
                    fprintf(stderr, "session keys: %s\n", err.msg);
                if (want == ZBC__P2P__ENVELOPE__MSG_HELLO)
                    return NULL; /* kept in c->hello */
                continue;
            }
            if (ok && (int)m->msg_case == want)
                return m;
            zbc_p2p_msg_free(m);
        }
        if (c->closed)
            return NULL;
    }
    return NULL;
}

/* A raw connection; the node's Hello is read into c->hello. */
static struct conn *conn_open(uint16_t port)
{
    struct conn *c = calloc(1, sizeof *c);
    crypto_kx_keypair(c->kx_pk, c->kx_sk);
    c->fd = socket(AF_INET, SOCK_STREAM, 0);
    if (g_rcvbuf > 0) /* before connect: it sets the TCP window */
        setsockopt(c->fd, SOL_SOCKET, SO_RCVBUF, &g_rcvbuf, sizeof g_rcvbuf);
    struct sockaddr_in sin;
    memset(&sin, 0, sizeof sin);
    sin.sin_family = AF_INET;
    sin.sin_port = htons(port);
    sin.sin_addr.s_addr = htonl(0x7f000001);
    if (connect(c->fd, (struct sockaddr *)&sin, sizeof sin) != 0) {
        perror("connect");
        exit(2);
    }
    fcntl(c->fd, F_SETFL, O_NONBLOCK);
    (void)recv_kind(c, ZBC__P2P__ENVELOPE__MSG_HELLO, 2000);
    return c;
}

static void conn_close(struct conn *c)
{
    close(c->fd);
    zbc_p2p_msg_free(c->hello_msg);
    free(c);
    pump(20);
}

static bool closed_within(struct conn *c, int ms)
{
    zbc_p2p_msg *m = recv_kind(c, -1, ms);
    zbc_p2p_msg_free(m);
    return c->closed;
}

/* Our Hello claiming `key` and a tip at a height, with kx (NULL: this
 * connection's own). */
static void send_hello_tip(struct conn *c, uint32_t version,
                           const uint8_t g[32], const uint8_t key[32],
                           const uint8_t *kx, uint32_t height,
                           const uint8_t tip[32])
{
    Zbc__P2p__Hello h = ZBC__P2P__HELLO__INIT;
    h.protocol_version = version;
    h.genesis_hash = (ProtobufCBinaryData){32, (uint8_t *)g};
    h.node_key = (ProtobufCBinaryData){32, (uint8_t *)key};
    h.height = height;
    h.tip_hash = (ProtobufCBinaryData){32, (uint8_t *)tip};
    h.kx_key = (ProtobufCBinaryData){32, (uint8_t *)(kx ? kx : c->kx_pk)};
    zbc_p2p_msg m = ZBC__P2P__ENVELOPE__INIT;
    m.msg_case = ZBC__P2P__ENVELOPE__MSG_HELLO;
    m.hello = &h;
    send_msg(c, &m);
}

/* The same at height 0 (tip = the genesis). */
static void send_hello(struct conn *c, uint32_t version, const uint8_t g[32],
                       const uint8_t key[32], const uint8_t *kx)
{
    send_hello_tip(c, version, g, key, kx, 0, g);
}

static void send_auth_sig(struct conn *c, const uint8_t sig[64])
{
    Zbc__P2p__Auth a = ZBC__P2P__AUTH__INIT;
    a.signature = (ProtobufCBinaryData){64, (uint8_t *)sig};
    zbc_p2p_msg m = ZBC__P2P__ENVELOPE__INIT;
    m.msg_case = ZBC__P2P__ENVELOPE__MSG_AUTH;
    m.auth = &a;
    send_msg(c, &m);
}

/* Auth claiming `key`, signed with sk (the wrong one for a forgery). */
static void send_auth(struct conn *c, const uint8_t g[32],
                      const uint8_t key[32], const uint8_t sk[64])
{
    uint8_t digest[32];
    if (c->hello == NULL)
        return;
    zbc_p2p_auth_digest(digest, g, key, c->kx_pk, c->hello->node_key.data,
                        c->hello->kx_key.data);
    crypto_sign_detached(c->last_auth, NULL, digest, 32, sk);
    send_auth_sig(c, c->last_auth);
}

struct id {
    uint8_t pk[32], sk[64];
};

static void id_make(struct id *k, uint8_t fill)
{
    uint8_t seed[32];
    memset(seed, fill, 32);
    crypto_sign_seed_keypair(k->pk, k->sk, seed);
}

/* A whole, honest handshake as k. */
static struct conn *peer_open(uint16_t port, const uint8_t g[32],
                              const struct id *k)
{
    struct conn *c = conn_open(port);
    send_hello(c, ZBC_P2P_PROTOCOL_VERSION, g, k->pk, NULL);
    send_auth(c, g, k->pk, k->sk);
    return c;
}

static void send_get_blocks(struct conn *c, const uint8_t (*loc)[32],
                            size_t n, uint32_t count)
{
    ProtobufCBinaryData lv[8];
    for (size_t i = 0; i < n; i++)
        lv[i] = (ProtobufCBinaryData){32, (uint8_t *)loc[i]};
    Zbc__P2p__GetBlocks gb = ZBC__P2P__GET_BLOCKS__INIT;
    gb.locator = lv;
    gb.n_locator = n;
    gb.count = count;
    zbc_p2p_msg m = ZBC__P2P__ENVELOPE__INIT;
    m.msg_case = ZBC__P2P__ENVELOPE__MSG_GET_BLOCKS;
    m.get_blocks = &gb;
    send_msg(c, &m);
}

/* GetBlocks and its answer (NULL: none in 2 s). */
static zbc_p2p_msg *get_blocks(struct conn *c, const uint8_t (*loc)[32],
                               size_t n, uint32_t count)
{
    send_get_blocks(c, loc, n, count);
    return recv_kind(c, ZBC__P2P__ENVELOPE__MSG_BLOCKS, 2000);
}

/* A TxInv (inv) or GetTxs of n hashes. */
static void send_tx_hashes(struct conn *c, bool inv, const uint8_t (*hs)[32],
                           size_t n)
{
    ProtobufCBinaryData *v = calloc(n > 0 ? n : 1, sizeof *v);
    struct zbc_p2p_hashes b;
    zbc_p2p_hashes_msg(&b, inv, v, hs, n);
    send_msg(c, &b.m);
    free(v);
}

/* GetTxs and its Txs answer (NULL: none in 2 s). */
static zbc_p2p_msg *get_txs(struct conn *c, const uint8_t (*hs)[32],
                            size_t n)
{
    send_tx_hashes(c, false, hs, n);
    return recv_kind(c, ZBC__P2P__ENVELOPE__MSG_TXS, 2000);
}

/* A Txs message of n transactions. */
static void send_txs(struct conn *c, const uint8_t *const *raw,
                     const size_t *len, size_t n)
{
    ProtobufCBinaryData v[8];
    for (size_t i = 0; i < n && i < 8; i++)
        v[i] = (ProtobufCBinaryData){len[i], (uint8_t *)raw[i]};
    struct zbc_p2p_txs t;
    zbc_p2p_txs_msg(&t, v, n);
    send_msg(c, &t.m);
}

/* A fresh one-validator chain in a fixture directory (NULL on failure,
 * the fixture then removed). */
static struct zbc_chain *open_chain(struct fixture *f)
{
    fx_setup(f);
    struct zbc_chain *chain = NULL;
    struct zbc_err err = {{0}};
    struct zbc_chain_config cfg = {.ledger_dir = f->ledger, .genesis = &f->g,
                                   .key = &f->key};
    CHECK(zbc_chain_open(&chain, &cfg, &err));
    if (chain == NULL)
        fx_teardown(f);
    return chain;
}

/* A one-validator chain at its first slot with P2P listening on a free
 * port (NULL on failure). */
static struct zbc_p2p *node_start(struct fixture *f, struct zbc_chain **chain)
{
    struct zbc_err err = {{0}};
    *chain = open_chain(f);
    if (*chain == NULL)
        return NULL;
    struct zbc_slot slot;
    CHECK(zbc_chain_next_slot(*chain, &slot, &err));
    g_now = slot.earliest_ms;
    g_base = event_base_new();
    struct zbc_p2p *p = NULL;
    struct zbc_p2p_config pcfg = {.listen = "127.0.0.1:0", .key = &f->key,
                                  .now_ms = test_clock};
    CHECK(zbc_p2p_start(&p, g_base, *chain, &pcfg, &err));
    return p;
}

/* m: a Ping announcing tip at height (pg holds it). */
static void ping_of(zbc_p2p_msg *m, Zbc__P2p__Ping *pg, uint32_t height,
                    const uint8_t tip[32])
{
    zbc__p2p__ping__init(pg);
    pg->height = height;
    pg->tip_hash = (ProtobufCBinaryData){32, (uint8_t *)tip};
    zbc__p2p__envelope__init(m);
    m->msg_case = ZBC__P2P__ENVELOPE__MSG_PING;
    m->ping = pg;
}

/* The peer is asked for blocks and answers with none. */
static void answer_nothing(struct conn *c)
{
    zbc_p2p_msg *m = recv_kind(c, ZBC__P2P__ENVELOPE__MSG_GET_BLOCKS, 1000);
    CHECK(m != NULL);
    zbc_p2p_msg_free(m);
    Zbc__P2p__Blocks none = ZBC__P2P__BLOCKS__INIT;
    zbc_p2p_msg nm = ZBC__P2P__ENVELOPE__INIT;
    nm.msg_case = ZBC__P2P__ENVELOPE__MSG_BLOCKS;
    nm.blocks = &none;
    send_msg(c, &nm);
}

/* The peer announces a tip (claim: a Ping), is asked for it, and answers
 * with no block. */
static void claim_undelivered(struct conn *c, const zbc_p2p_msg *claim)
{
    send_msg(c, claim);
    answer_nothing(c);
}

static void test_p2p_node(void)
{
    struct fixture f;
    struct zbc_err err = {{0}};
    struct zbc_chain *chain = open_chain(&f);
    if (chain == NULL)
        return;
    for (int i = 0; i < 3; i++) {
        struct zbc_slot slot;
        struct zbc_block_info info;
        CHECK(zbc_chain_next_slot(chain, &slot, &err));
        g_now = slot.earliest_ms;
        CHECK(zbc_chain_produce(chain, g_now, &info, &err));
    }
    g_now += 1000;
    g_base = event_base_new();
    struct zbc_p2p *p = NULL;
    struct zbc_p2p_config pcfg = {.listen = "127.0.0.1:0",
                                  .key = &f.key, .now_ms = test_clock,
                                  .max_output = 64 << 10};
    CHECK(zbc_p2p_start(&p, g_base, chain, &pcfg, &err));
    if (p == NULL)
        return;
    uint16_t port = zbc_p2p_listen_port(p);
    CHECK(port != 0);
    const uint8_t *gh = f.g.hash;
    struct id k1, k2, k3;
    id_make(&k1, 0x51);
    id_make(&k2, 0x52);
    id_make(&k3, 0x53);
    uint8_t other_g[32];
    memset(other_g, 0x99, 32);

    /* the node's hello: version 3, a fresh kx key per connection */
    struct conn *a = conn_open(port);
    struct conn *b = conn_open(port);
    CHECK(a->hello != NULL && b->hello != NULL);
    if (a->hello != NULL && b->hello != NULL) {
        const Zbc__P2p__Hello *h = a->hello;
        CHECK_EQ_INT(h->protocol_version, 3);
        CHECK_EQ_MEM(h->genesis_hash.data, gh, 32);
        CHECK_EQ_MEM(h->node_key.data, f.key.pk, 32);
        CHECK_EQ_INT(h->height, 3);
        CHECK_EQ_MEM(h->tip_hash.data, zbc_chain_tip(chain)->hash, 32);
        CHECK_EQ_INT(h->listen_port, port);
        CHECK_EQ_INT(h->kx_key.len, 32);
        CHECK(memcmp(h->kx_key.data, b->hello->kx_key.data, 32) != 0);
    }
    conn_close(b);
    /* wrong protocol version */
    send_hello(a, 1, gh, k1.pk, NULL);
    CHECK(closed_within(a, 1000));
    conn_close(a);
    /* another genesis */
    a = conn_open(port);
    send_hello(a, ZBC_P2P_PROTOCOL_VERSION, other_g, k1.pk, NULL);
    CHECK(closed_within(a, 1000));
    conn_close(a);

    /* the node proves its key: its Auth verifies against its Hello */
    a = conn_open(port);
    send_hello(a, ZBC_P2P_PROTOCOL_VERSION, gh, k1.pk, NULL);
    zbc_p2p_msg *m = recv_kind(a, ZBC__P2P__ENVELOPE__MSG_AUTH, 2000);
    CHECK(m != NULL);
    if (m != NULL && a->hello != NULL) {
        uint8_t digest[32];
        zbc_p2p_auth_digest(digest, gh, f.key.pk, a->hello->kx_key.data,
                            k1.pk, a->kx_pk);
        CHECK(crypto_sign_verify_detached(m->auth->signature.data, digest, 32,
                                          f.key.pk) == 0);
    }
    zbc_p2p_msg_free(m);
    /* nothing is believed before our proof: not a peer yet */
    CHECK_EQ_INT(zbc_p2p_peer_count(p), 0);
    /* a wrong signature (k2 signs for k1's claim): refused, k1 not hurt,
     * the address is to blame: other keys that are not validators' are
     * refused from it until its ban ends */
    send_auth(a, gh, k1.pk, k2.sk);
    CHECK(closed_within(a, 1000));
    conn_close(a);
    CHECK_EQ_INT(zbc_p2p_peer_count(p), 0);
    a = peer_open(port, gh, &k3);
    CHECK(closed_within(a, 1000));
    conn_close(a);
    forgive();
    /* the node's own key, claimed by someone else: refused */
    a = conn_open(port);
    send_hello(a, ZBC_P2P_PROTOCOL_VERSION, gh, f.key.pk, NULL);
    send_auth(a, gh, f.key.pk, k1.sk);
    CHECK(closed_within(a, 1000));
    conn_close(a);
    forgive();
    /* impersonation: a malformed message under k1's claimed key before
     * its proof costs k1 nothing */
    a = conn_open(port);
    send_hello(a, ZBC_P2P_PROTOCOL_VERSION, gh, k1.pk, NULL);
    const uint8_t junk_frame[] = {2, 0, 0, 0, 0x12, 0x7f};
    send_raw(a, junk_frame, sizeof junk_frame);
    CHECK(closed_within(a, 1000));
    conn_close(a);
    forgive();

    /* a good peer k1 (proven): blocks on request */
    a = peer_open(port, gh, &k1);
    CHECK(!closed_within(a, 100));
    CHECK_EQ_INT(zbc_p2p_peer_count(p), 1);
    CHECK_EQ_INT(zbc_chain_peer_count(chain), 1);
    uint8_t replay_kx[32], replay_sig[64];
    memcpy(replay_kx, a->kx_pk, 32);
    memcpy(replay_sig, a->last_auth, 64);
    uint8_t loc[2][32];
    memcpy(loc[0], gh, 32);
    m = get_blocks(a, (const uint8_t (*)[32])loc, 1, 2);
    CHECK(m != NULL && m->blocks->n_raw == 2);
    for (uint32_t h = 1; m != NULL && h <= m->blocks->n_raw; h++) {
        uint8_t *blk = NULL;
        size_t len = 0;
        bool found;
        CHECK(zbc_chain_block(chain, h, &blk, &len, &found, &err) && found);
        CHECK_EQ_INT(m->blocks->raw[h - 1].len, len);
        if (m->blocks->raw[h - 1].len == len)
            CHECK_EQ_MEM(m->blocks->raw[h - 1].data, blk, len);
        if (h == 2)
            zbc_sha3_256(loc[0], blk, ZBC_BLOCK_HEADER_LEN);
        free(blk);
    }
    zbc_p2p_msg_free(m);
    /* from block 2 on: only block 3 is left */
    memcpy(loc[1], gh, 32);
    m = get_blocks(a, (const uint8_t (*)[32])loc, 2, 128);
    CHECK(m != NULL && m->blocks->n_raw == 1);
    zbc_p2p_msg_free(m);


    /* a transaction admitted here is announced, and sent when asked */
    uint8_t tx[512], th[32];
    size_t tn = fx_send(tx, sizeof tx, &f, f.alice_seed, &f.bob, 5, 10000,
                        (int64_t)(g_now / 1000));
    bool dup;
    CHECK(zbc_chain_submit(chain, tx, tn, g_now, th, &dup, &err));
    m = recv_kind(a, ZBC__P2P__ENVELOPE__MSG_TX_INV, 2000);
    CHECK(m != NULL && m->tx_inv->n_hash == 1 &&
          memcmp(m->tx_inv->hash[0].data, th, 32) == 0);
    zbc_p2p_msg_free(m);
    m = get_txs(a, (const uint8_t (*)[32])th, 1);
    CHECK(m != NULL && m->txs->n_raw == 1 && m->txs->raw[0].len == tn &&
          memcmp(m->txs->raw[0].data, tx, tn) == 0);
    zbc_p2p_msg_free(m);

    /* misbehaviour adds up: bad tx +20, unasked blocks +50, second hello
     * +50 -> banned */
    tx[tn - 1] ^= 1;
    Zbc__P2p__Tx t = ZBC__P2P__TX__INIT;
    t.raw = (ProtobufCBinaryData){tn, tx};
    zbc_p2p_msg tm = ZBC__P2P__ENVELOPE__INIT;
    tm.msg_case = ZBC__P2P__ENVELOPE__MSG_TX;
    tm.tx = &t;
    send_msg(a, &tm);
    CHECK(!closed_within(a, 100));
    CHECK_EQ_INT(zbc_chain_mempool_count(chain), 1);
    Zbc__P2p__Blocks bl = ZBC__P2P__BLOCKS__INIT;
    zbc_p2p_msg bm = ZBC__P2P__ENVELOPE__INIT;
    bm.msg_case = ZBC__P2P__ENVELOPE__MSG_BLOCKS;
    bm.blocks = &bl;
    send_msg(a, &bm);
    CHECK(!closed_within(a, 100));
    send_hello(a, ZBC_P2P_PROTOCOL_VERSION, gh, k1.pk, NULL);
    CHECK(closed_within(a, 1000));
    conn_close(a);
    CHECK_EQ_INT(zbc_p2p_peer_count(p), 0);
    /* the banned key is refused even with a good proof; another key is
     * welcome */
    a = peer_open(port, gh, &k1);
    CHECK(closed_within(a, 1000));
    conn_close(a);
    a = peer_open(port, gh, &k2);
    CHECK(!closed_within(a, 100));
    CHECK_EQ_INT(zbc_p2p_peer_count(p), 1);
    /* an invalid block: banned at once */
    uint8_t junk[400];
    memset(junk, 0x5a, sizeof junk);
    Zbc__P2p__Block blk = ZBC__P2P__BLOCK__INIT;
    blk.raw = (ProtobufCBinaryData){sizeof junk, junk};
    zbc_p2p_msg km = ZBC__P2P__ENVELOPE__INIT;
    km.msg_case = ZBC__P2P__ENVELOPE__MSG_BLOCK;
    km.block = &blk;
    send_msg(a, &km);
    CHECK(closed_within(a, 1000));
    conn_close(a);

    /* a tampered sealed frame: the stream cannot be read on */
    a = peer_open(port, gh, &k3);
    CHECK(!closed_within(a, 100));
    CHECK_EQ_INT(zbc_p2p_peer_count(p), 1);
    {
        Zbc__P2p__Ping pg = ZBC__P2P__PING__INIT;
        pg.tip_hash = (ProtobufCBinaryData){32, (uint8_t *)gh};
        zbc_p2p_msg pm2 = ZBC__P2P__ENVELOPE__INIT;
        pm2.msg_case = ZBC__P2P__ENVELOPE__MSG_PING;
        pm2.ping = &pg;
        uint8_t *sb = NULL;
        size_t sl = 0;
        CHECK(zbc_p2p_seal(&pm2, a->tx, a->tx_n++, &sb, &sl, &err));
        if (sb != NULL) {
            sb[sl - 1] ^= 1;
            send_raw(a, sb, sl);
            free(sb);
        }
    }
    CHECK(closed_within(a, 1000));
    conn_close(a);

    /* a replayed challenge: k1's recorded Hello (same kx key) and Auth on
     * a new connection do not prove k1, the node's kx key is new */
    b = conn_open(port);
    send_hello(b, ZBC_P2P_PROTOCOL_VERSION, gh, k1.pk, replay_kx);
    send_auth_sig(b, replay_sig);
    CHECK(closed_within(b, 1000));
    conn_close(b);
    CHECK_EQ_INT(zbc_p2p_peer_count(p), 0);

    /* framing violations before any hello: more than 1 KiB, a ping */
    a = conn_open(port);
    const uint8_t over[4] = {1, 4, 0, 0};
    send_raw(a, over, sizeof over);
    CHECK(closed_within(a, 1000));
    conn_close(a);
    a = conn_open(port);
    Zbc__P2p__Ping ping = ZBC__P2P__PING__INIT;
    ping.tip_hash = (ProtobufCBinaryData){32, (uint8_t *)gh};
    zbc_p2p_msg pm = ZBC__P2P__ENVELOPE__INIT;
    pm.msg_case = ZBC__P2P__ENVELOPE__MSG_PING;
    pm.ping = &ping;
    a->got_hello = false; /* send it plain */
    send_msg(a, &pm);
    CHECK(closed_within(a, 1000));
    conn_close(a);

    forgive();
    /* timeouts: a connection that never proves itself is closed after
     * the handshake timeout; a half frame after the frame timeout */
    a = conn_open(port);
    g_now += ZBC_P2P_HANDSHAKE_MS;
    CHECK(closed_within(a, 1000));
    conn_close(a);
    struct id k4;
    id_make(&k4, 0x54);
    a = peer_open(port, gh, &k4);
    CHECK(!closed_within(a, 100));
    const uint8_t half[6] = {100, 0, 0, 0, 1, 2};
    send_raw(a, half, sizeof half);
    g_now += ZBC_P2P_FRAME_MS / 2;
    CHECK(!closed_within(a, 400));
    g_now += ZBC_P2P_FRAME_MS / 2;
    CHECK(closed_within(a, 1000));
    conn_close(a);

    /* unproven connections from one address: past the limit the oldest
     * gives way, so they never hold a slot for long */
    struct conn *pend[ZBC_P2P_MAX_PENDING_PER_ADDR + 1];
    for (size_t i = 0; i <= ZBC_P2P_MAX_PENDING_PER_ADDR; i++)
        pend[i] = conn_open(port);
    CHECK(closed_within(pend[0], 500));
    CHECK(!closed_within(pend[ZBC_P2P_MAX_PENDING_PER_ADDR], 100));
    for (size_t i = 0; i <= ZBC_P2P_MAX_PENDING_PER_ADDR; i++)
        conn_close(pend[i]);

    /* keys that are not validators' share ZBC_P2P_MAX_INBOUND_UNKNOWN
     * inbound slots */
    struct conn *pool[ZBC_P2P_MAX_INBOUND_UNKNOWN + 1];
    for (size_t i = 0; i <= ZBC_P2P_MAX_INBOUND_UNKNOWN; i++) {
        struct id ki;
        id_make(&ki, (uint8_t)(0x60 + i));
        pool[i] = peer_open(port, gh, &ki);
    }
    CHECK_EQ_INT(zbc_p2p_peer_count(p), ZBC_P2P_MAX_INBOUND_UNKNOWN);
    CHECK(closed_within(pool[ZBC_P2P_MAX_INBOUND_UNKNOWN], 500));
    for (size_t i = 0; i <= ZBC_P2P_MAX_INBOUND_UNKNOWN; i++)
        conn_close(pool[i]);

    /* a peer that does not read: dropped when its send queue passes its
     * cap (64 KiB here); 40 000 pings make 2.4 MB of pongs */
    {
        struct id k7;
        id_make(&k7, 0x57);
        g_rcvbuf = 4096;
        a = peer_open(port, gh, &k7);
        g_rcvbuf = 0;
        CHECK(!closed_within(a, 100));
        Zbc__P2p__Ping pg = ZBC__P2P__PING__INIT;
        pg.tip_hash = (ProtobufCBinaryData){32, (uint8_t *)gh};
        zbc_p2p_msg pm2 = ZBC__P2P__ENVELOPE__INIT;
        pm2.msg_case = ZBC__P2P__ENVELOPE__MSG_PING;
        pm2.ping = &pg;
        size_t cap = 40000 * 80, used = 0;
        uint8_t *many = malloc(cap);
        for (int i = 0; i < 40000 && many != NULL; i++) {
            uint8_t *sb = NULL;
            size_t sl = 0;
            pg.nonce = (uint64_t)i;
            if (!zbc_p2p_seal(&pm2, a->tx, a->tx_n++, &sb, &sl, &err))
                break;
            memcpy(many + used, sb, sl);
            used += sl;
            free(sb);
        }
        if (many != NULL)
            send_raw(a, many, used);
        free(many);
        /* without reading a byte: the node drops it at its next tick
         * (with a 64 MiB cap it would still be a peer here) */
        pump(600);
        CHECK_EQ_INT(zbc_p2p_peer_count(p), 0);
        conn_close(a);
    }

    /* GetBlocks answers are throttled: ZBC_P2P_GETBLOCKS_BURST at once,
     * then one per ZBC_P2P_GETBLOCKS_REFILL_MS; one request may wait, a
     * second one while it waits is scored */
    {
        struct id k6;
        id_make(&k6, 0x56);
        a = peer_open(port, gh, &k6);
        CHECK(!closed_within(a, 100));
        uint8_t g0[1][32];
        memcpy(g0[0], gh, 32);
        for (uint32_t i = 0; i < ZBC_P2P_GETBLOCKS_BURST; i++) {
            m = get_blocks(a, (const uint8_t (*)[32])g0, 1, 1);
            CHECK(m != NULL);
            zbc_p2p_msg_free(m);
        }
        m = get_blocks(a, (const uint8_t (*)[32])g0, 1, 1);
        CHECK(m == NULL); /* waits for a token: the test clock stands */
        g_now += ZBC_P2P_GETBLOCKS_REFILL_MS;
        m = recv_kind(a, ZBC__P2P__ENVELOPE__MSG_BLOCKS, 1000);
        CHECK(m != NULL); /* answered at the next tick */
        zbc_p2p_msg_free(m);
        /* one waits, ten more score 10 each */
        for (int i = 0; i < 11; i++)
            send_get_blocks(a, (const uint8_t (*)[32])g0, 1, 1);
        CHECK(closed_within(a, 1000));
        conn_close(a);
    }

    /* a claim answered with nothing: scored (20, the peer stays), and the
     * same tip announced again is not asked for again */
    {
        struct id k8;
        id_make(&k8, 0x58);
        a = conn_open(port);
        uint8_t fake_tip[32];
        memset(fake_tip, 0xe7, 32);
        send_hello_tip(a, ZBC_P2P_PROTOCOL_VERSION, gh, k8.pk, NULL, 9, fake_tip);
        send_auth(a, gh, k8.pk, k8.sk);
        answer_nothing(a);
        CHECK(!closed_within(a, 100));
        struct zbc_net_status st;
        CHECK(zbc_chain_synced(chain, &st)); /* the claim is dropped */
        Zbc__P2p__Ping again;
        zbc_p2p_msg pm3;
        ping_of(&pm3, &again, 9, fake_tip);
        send_msg(a, &pm3);
        m = recv_kind(a, ZBC__P2P__ENVELOPE__MSG_GET_BLOCKS, 600);
        CHECK(m == NULL);
        zbc_p2p_msg_free(m);
        CHECK(zbc_chain_synced(chain, &st));
        /* five such claims: 5 x 20 bans the key */
        for (int i = 0; i < 4 && !a->closed; i++) {
            fake_tip[0] = (uint8_t)i;
            claim_undelivered(a, &pm3);
        }
        /* the fifth is judged at the peer's next tip, or without one
         * ZBC_P2P_UNDELIVERED_GRACE_MS later */
        CHECK(!closed_within(a, 300));
        g_now += ZBC_P2P_UNDELIVERED_GRACE_MS;
        CHECK(closed_within(a, 1000));
        conn_close(a);
    }

    /* an honest peer that reorged away from the tip it announced answers
     * from the branch it moved to, which we hold, with nothing: its next
     * tip is one we know, and the claim is not scored (six such rounds
     * would be 120 points: a ban) */
    {
        struct id k9;
        id_make(&k9, 0x59);
        forgive();
        a = peer_open(port, gh, &k9);
        CHECK(!closed_within(a, 100));
        uint8_t moved_tip[32];
        memset(moved_tip, 0xd4, 32);
        Zbc__P2p__Ping claim, back;
        zbc_p2p_msg cm, bm2;
        ping_of(&cm, &claim, 3, moved_tip);
        ping_of(&bm2, &back, 0, gh);
        for (int i = 0; i < 6 && !a->closed; i++) {
            moved_tip[0] = (uint8_t)i;
            claim_undelivered(a, &cm);
            send_msg(a, &bm2); /* its tip now: the genesis, known here */
        }
        g_now += ZBC_P2P_UNDELIVERED_GRACE_MS;
        CHECK(!closed_within(a, 1000));
        conn_close(a);
    }

    /* halt: a proven peer claims a tip far ahead and never answers.  The
     * producer waits ZBC_P2P_SYNC_HOLD_MS at most; at
     * ZBC_P2P_SYNC_TIMEOUT_MS the peer is scored and dropped; a second
     * time its key is banned */
    struct id k5;
    id_make(&k5, 0x55);
    for (int round = 0; round < 2; round++) {
        struct zbc_net_status st;
        a = conn_open(port);
        uint8_t fake_tip[32];
        memset(fake_tip, 0xf0 + round, 32);
        send_hello_tip(a, ZBC_P2P_PROTOCOL_VERSION, gh, k5.pk, NULL, UINT32_MAX, fake_tip);
        send_auth(a, gh, k5.pk, k5.sk);
        m = recv_kind(a, ZBC__P2P__ENVELOPE__MSG_GET_BLOCKS, 1000);
        CHECK(m != NULL);
        zbc_p2p_msg_free(m);
        CHECK(!zbc_chain_synced(chain, &st));
        CHECK_EQ_STR(st.reason, "syncing");
        CHECK(!st.may_produce);
        g_now += ZBC_P2P_SYNC_HOLD_MS;
        pump(600); /* a tick (every 250 ms) recomputes the status */
        CHECK(!zbc_chain_synced(chain, &st));
        CHECK(st.may_produce); /* the hold is over, the claim is not */
        g_now += ZBC_P2P_SYNC_TIMEOUT_MS - ZBC_P2P_SYNC_HOLD_MS;
        CHECK(closed_within(a, 1000));
        conn_close(a);
        CHECK(zbc_chain_synced(chain, &st));
        CHECK(st.may_produce);
    }
    a = peer_open(port, gh, &k5);
    CHECK(closed_within(a, 1000)); /* banned after the second stall */
    conn_close(a);

    CHECK_EQ_INT(zbc_chain_tip(chain)->height, 3);
    zbc_p2p_stop(p);
    event_base_free(g_base);
    zbc_chain_close(chain);
    fx_teardown(&f);
}

/* The ban table under churn (node/zbcd/p2p.h zbc_p2p_bans_*). */
static void test_bans_churn(void)
{
    struct zbc_p2p_bans *b = zbc_p2p_bans_new(64);
    uint8_t bad[32], id[32];
    memset(bad, 0xbb, 32);
    uint64_t now = 1000000;
    /* scores add up to a ban; a ban does not end early */
    CHECK(!zbc_p2p_bans_add(b, false, bad, 60, false, now));
    CHECK_EQ_INT(zbc_p2p_bans_until(b, false, bad, now), 0);
    CHECK(zbc_p2p_bans_add(b, false, bad, 50, false, now));
    CHECK_EQ_INT(zbc_p2p_bans_until(b, false, bad, now),
                 now + ZBC_P2P_BAN_MS);
    /* a key and an address with the same bytes are different ids */
    CHECK_EQ_INT(zbc_p2p_bans_until(b, true, bad, now), 0);
    /* 10 000 other ids that only score do not push the ban out */
    for (uint32_t i = 0; i < 10000; i++) {
        memset(id, 0, 32);
        memcpy(id, &i, 4);
        (void)zbc_p2p_bans_add(b, false, id, 10, false, now + 1);
    }
    CHECK(zbc_p2p_bans_until(b, false, bad, now + 2) != 0);
    /* the second ban lasts twice as long and outlives 63 fresh bans */
    now += ZBC_P2P_BAN_MS;
    CHECK_EQ_INT(zbc_p2p_bans_until(b, false, bad, now), 0);
    CHECK(zbc_p2p_bans_add(b, false, bad, 100, false, now));
    CHECK_EQ_INT(zbc_p2p_bans_until(b, false, bad, now),
                 now + 2 * ZBC_P2P_BAN_MS);
    for (uint32_t i = 0; i < 200; i++) {
        memset(id, 0x11, 32);
        memcpy(id, &i, 4);
        CHECK(zbc_p2p_bans_add(b, false, id, 0, true, now + 1));
    }
    CHECK_EQ_INT(zbc_p2p_bans_until(b, false, bad, now + 1),
                 now + 2 * ZBC_P2P_BAN_MS);
    /* every entry banned: the ban that ends first went, the newest stay */
    memset(id, 0x11, 32);
    uint32_t last = 199;
    memcpy(id, &last, 4);
    CHECK(zbc_p2p_bans_until(b, false, id, now + 1) != 0);
    /* scores decay: one point per ZBC_P2P_SCORE_DECAY_MS */
    uint8_t slow[32];
    memset(slow, 0x5e, 32);
    CHECK(!zbc_p2p_bans_add(b, true, slow, 90, false, now));
    CHECK(!zbc_p2p_bans_add(b, true, slow, 10,
                            false, now + 10 * ZBC_P2P_SCORE_DECAY_MS));
    CHECK(zbc_p2p_bans_add(b, true, slow, 10, false,
                           now + 10 * ZBC_P2P_SCORE_DECAY_MS));
    zbc_p2p_bans_free(b);
}

/* accept() failing on the P2P port (here: out of file descriptors, by a
 * lowered RLIMIT_NOFILE) pauses the listener instead of spinning, with one
 * log line; accepting resumes by itself after ZBC_P2P_ACCEPT_BACKOFF_MS. */
static void test_accept_backoff(void)
{
    struct fixture f;
    struct zbc_err err = {{0}};
    struct zbc_chain *chain = open_chain(&f);
    if (chain == NULL)
        return;
    char logpath[] = "/tmp/zbc_test_p2p_log_XXXXXX";
    int lfd = mkstemp(logpath);
    CHECK(lfd >= 0);
    close(lfd);
    CHECK(zbc_log_open_file(logpath, &err));
    zbc_log_set_level(ZBC_LOG_WARN);
    g_base = event_base_new();
    struct zbc_p2p *p = NULL;
    struct zbc_p2p_config pcfg = {.listen = "127.0.0.1:0", .key = &f.key,
                                  .now_ms = test_clock};
    CHECK(zbc_p2p_start(&p, g_base, chain, &pcfg, &err));
    if (p == NULL)
        return;
    uint16_t port = zbc_p2p_listen_port(p);
    CHECK(zbc_p2p_accepting(p));
    struct rlimit old;
    CHECK(getrlimit(RLIMIT_NOFILE, &old) == 0);
    int lowest = dup(0);
    CHECK(lowest >= 0);
    close(lowest);
    /* room for the client sockets, none for the node's accept() */
    struct rlimit low = {(rlim_t)lowest + 2, old.rlim_max};
    CHECK(setrlimit(RLIMIT_NOFILE, &low) == 0);
    int fds[2] = {-1, -1};
    struct sockaddr_in sin = {.sin_family = AF_INET,
                              .sin_port = htons(port),
                              .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    for (int i = 0; i < 2; i++) {
        fds[i] = socket(AF_INET, SOCK_STREAM, 0);
        if (fds[i] >= 0 &&
            connect(fds[i], (struct sockaddr *)&sin, sizeof sin) != 0) {
            close(fds[i]);
            fds[i] = -1;
        }
    }
    CHECK(fds[0] >= 0);
    pump(500); /* would spin (and log thousands of lines) without it */
    CHECK(!zbc_p2p_accepting(p));
    CHECK(setrlimit(RLIMIT_NOFILE, &old) == 0);
    zbc_log_close_file();
    char *text = NULL;
    size_t len = 0;
    CHECK(zbc_read_file(logpath, 1 << 20, &text, &len, &err));
    int lines = 0;
    for (const char *q = text;
         q != NULL && (q = strstr(q, "p2p: cannot accept a connection: Too "
                                     "many open files")) != NULL;
         q++)
        lines++;
    CHECK_EQ_INT(lines, 1);
    free(text);
    unlink(logpath);
    pump((int)ZBC_P2P_ACCEPT_BACKOFF_MS + 300);
    CHECK(zbc_p2p_accepting(p));
    for (int i = 0; i < 2; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    zbc_log_set_level(ZBC_LOG_ERROR);
    zbc_p2p_stop(p);
    event_base_free(g_base);
    zbc_chain_close(chain);
    fx_teardown(&f);
}

/* The hashes of GetTxs messages received on c within ms, appended to hs
 * (cap); returns how many messages. */
static size_t g_ask_largest; /* hashes in the largest GetTxs recv_asks saw */

static size_t recv_asks(struct conn *c, uint8_t (*hs)[32], size_t cap,
                        size_t *n, int ms)
{
    size_t msgs = 0;
    zbc_p2p_msg *m;
    while ((m = recv_kind(c, ZBC__P2P__ENVELOPE__MSG_GET_TXS, ms)) != NULL) {
        msgs++;
        if (m->get_txs->n_hash > g_ask_largest)
            g_ask_largest = m->get_txs->n_hash;
        for (size_t i = 0; i < m->get_txs->n_hash && *n < cap; i++)
            memcpy(hs[(*n)++], m->get_txs->hash[i].data, 32);
        zbc_p2p_msg_free(m);
    }
    return msgs;
}

/* Transaction gossip by announcement and request (docs/p2p.md §4): one
 * request per hash, the next announcer asked after a time-out, answers
 * from the mempool, and the hostile cases: transactions not asked for,
 * answers nobody asked for, a flood of announcements never delivered
 * (bounded in flight, then banned), an oversized TxInv, GetTxs never
 * answered. */
static void test_tx_gossip(void)
{
    struct fixture f;
    struct zbc_chain *chain;
    struct zbc_p2p *p = node_start(&f, &chain);
    if (p == NULL)
        return;
    uint16_t port = zbc_p2p_listen_port(p);
    const uint8_t *gh = f.g.hash;
    struct id ka, kb;
    id_make(&ka, 0x71);
    id_make(&kb, 0x72);
    struct conn *a = peer_open(port, gh, &ka);
    struct conn *b = peer_open(port, gh, &kb);
    CHECK(!closed_within(a, 50) && !closed_within(b, 50));
    struct id kf;
    id_make(&kf, 0x76);
    struct conn *d = peer_open(port, gh, &kf); /* only listens */
    CHECK(!closed_within(d, 50));
    int64_t ts = (int64_t)(g_now / 1000);
    uint8_t tx[5][512], h[5][32];
    size_t tn[5];
    for (int i = 0; i < 5; i++) {
        tn[i] = fx_send(tx[i], sizeof tx[i], &f, f.alice_seed, &f.bob,
                        (uint64_t)(i + 1), 10000, ts);
        zbc_sha3_256(h[i], tx[i], tn[i]);
    }
    const uint8_t *raw[1];
    size_t len[1];

    /* A and B announce tx0: asked from A only; A's answer pools it, and
     * neither is told of it again */
    uint8_t asks[16][32];
    size_t n_ask = 0;
    send_tx_hashes(a, true, (const uint8_t (*)[32])h[0], 1);
    send_tx_hashes(b, true, (const uint8_t (*)[32])h[0], 1);
    CHECK_EQ_INT(recv_asks(a, asks, 16, &n_ask, 200), 1);
    CHECK(n_ask == 1 && memcmp(asks[0], h[0], 32) == 0);
    n_ask = 0;
    CHECK_EQ_INT(recv_asks(b, asks, 16, &n_ask, 100), 0);
    raw[0] = tx[0];
    len[0] = tn[0];
    send_txs(a, raw, len, 1);
    pump(20);
    CHECK_EQ_INT(zbc_chain_mempool_count(chain), 1);
    zbc_p2p_msg *m = recv_kind(b, ZBC__P2P__ENVELOPE__MSG_TX_INV, 200);
    CHECK(m == NULL);
    zbc_p2p_msg_free(m);
    /* a hash this node has is not asked for */
    send_tx_hashes(b, true, (const uint8_t (*)[32])h[0], 1);
    CHECK_EQ_INT(recv_asks(b, asks, 16, &n_ask, 100), 0);

    /* A and B announce tx1; A answers without it (not held): at the next
     * gossip pass (not ZBC_P2P_TX_REQUEST_MS later) B is asked, and its
     * answer pools it */
    send_tx_hashes(a, true, (const uint8_t (*)[32])h[1], 1);
    send_tx_hashes(b, true, (const uint8_t (*)[32])h[1], 1);
    CHECK_EQ_INT(recv_asks(a, asks, 16, &n_ask, 200), 1);
    g_now += 250; /* the pass after the first request */
    pump(100);
    send_txs(a, raw, len, 0);
    CHECK_EQ_INT(recv_asks(b, asks, 16, &n_ask, 200), 0);
    g_now += 250;
    n_ask = 0;
    CHECK_EQ_INT(recv_asks(b, asks, 16, &n_ask, 400), 1);
    CHECK(n_ask == 1 && memcmp(asks[0], h[1], 32) == 0);
    raw[0] = tx[1];
    len[0] = tn[1];
    send_txs(b, raw, len, 1);
    pump(20);
    CHECK_EQ_INT(zbc_chain_mempool_count(chain), 2);

    /* GetTxs: only transactions announced to the asking peer, each once
     * per announcement; the rest left out.  A sent tx0 (never announced
     * to it): left out.  D was told of tx0: it gets it, once. */
    m = recv_kind(d, ZBC__P2P__ENVELOPE__MSG_TX_INV, 200);
    CHECK(m != NULL && m->tx_inv->n_hash == 1 &&
          memcmp(m->tx_inv->hash[0].data, h[0], 32) == 0);
    zbc_p2p_msg_free(m);
    uint8_t two[2][32];
    memcpy(two[0], h[4], 32);
    memcpy(two[1], h[0], 32);
    m = get_txs(a, (const uint8_t (*)[32])two, 2);
    CHECK(m != NULL && m->txs->n_raw == 0);
    zbc_p2p_msg_free(m);
    m = get_txs(d, (const uint8_t (*)[32])two, 2);
    CHECK(m != NULL && m->txs->n_raw == 1 && m->txs->raw[0].len == tn[0] &&
          memcmp(m->txs->raw[0].data, tx[0], tn[0]) == 0);
    zbc_p2p_msg_free(m);
    m = get_txs(d, (const uint8_t (*)[32])two, 2);
    CHECK(m != NULL && m->txs->n_raw == 0);
    zbc_p2p_msg_free(m);
    /* hashes never announced to it, in bulk: answered empty, a point per
     * ZBC_P2P_UNOFFERED_PER_POINT (4096: 16 points, the peer stays); asking
     * again for what it got: a point per ZBC_P2P_REPEAT_PER_POINT (15 more
     * copies of tx0 make the first; 4096 copies are 256 points: banned,
     * not answered) */
    {
        uint8_t (*same)[32] = malloc(ZBC_P2P_MAX_TX_HASHES * 32);
        randombytes_buf(same, ZBC_P2P_MAX_TX_HASHES * 32);
        m = get_txs(d, (const uint8_t (*)[32])same, ZBC_P2P_MAX_TX_HASHES);
        CHECK(m != NULL && m->txs->n_raw == 0);
        zbc_p2p_msg_free(m);
        CHECK(!closed_within(d, 50));
        for (size_t i = 0; i < ZBC_P2P_MAX_TX_HASHES; i++)
            memcpy(same[i], h[0], 32);
        m = get_txs(d, (const uint8_t (*)[32])same,
                    ZBC_P2P_REPEAT_PER_POINT - 1);
        CHECK(m != NULL && m->txs->n_raw == 0);
        zbc_p2p_msg_free(m);
        CHECK(!closed_within(d, 50));
        send_tx_hashes(d, false, (const uint8_t (*)[32])same,
                       ZBC_P2P_MAX_TX_HASHES);
        CHECK(closed_within(d, 1000));
        free(same);
    }

    /* a transaction whose hash was not asked for: dropped unchecked,
     * scored 10, the peer stays */
    send_tx_hashes(a, true, (const uint8_t (*)[32])h[2], 1);
    n_ask = 0;
    CHECK_EQ_INT(recv_asks(a, asks, 16, &n_ask, 200), 1);
    raw[0] = tx[3];
    len[0] = tn[3];
    send_txs(a, raw, len, 1);
    CHECK(!closed_within(a, 100));
    CHECK_EQ_INT(zbc_chain_mempool_count(chain), 2);
    /* Txs with no GetTxs waiting: +50, twice: banned */
    send_txs(a, raw, len, 0);
    CHECK(!closed_within(a, 100));
    send_txs(a, raw, len, 0);
    CHECK(closed_within(a, 1000));
    conn_close(a);

    /* a flood of announcements never delivered: at most
     * ZBC_P2P_TX_INFLIGHT_PEER are asked for; answered without them, the
     * peer owes a point per ZBC_P2P_UNDELIVERED_PER_POINT: banned at the
     * next pass */
    {
        struct id kc;
        id_make(&kc, 0x73);
        struct conn *c = peer_open(port, gh, &kc);
        CHECK(!closed_within(c, 50));
        size_t total = 3 * ZBC_P2P_MAX_TX_HASHES;
        uint8_t (*fake)[32] = malloc(total * 32);
        uint8_t (*got)[32] = malloc(total * 32);
        randombytes_buf(fake, total * 32);
        for (int i = 0; i < 3; i++)
            send_tx_hashes(c, true,
                           (const uint8_t (*)[32])fake +
                               (size_t)i * ZBC_P2P_MAX_TX_HASHES,
                           ZBC_P2P_MAX_TX_HASHES);
        size_t n_got = 0;
        g_ask_largest = 0;
        size_t msgs = recv_asks(c, got, total, &n_got, 600);
        CHECK_EQ_INT(n_got, ZBC_P2P_TX_INFLIGHT_PEER);
        /* asked in GetTxs of ZBC_P2P_ASK_BATCH, not of the TxInv's 4,096:
         * the answer to one is checked in one go on the loop thread */
        CHECK_EQ_INT(g_ask_largest, ZBC_P2P_ASK_BATCH);
        CHECK_EQ_INT(msgs, ZBC_P2P_TX_INFLIGHT_PEER / ZBC_P2P_ASK_BATCH);
        for (size_t i = 0; i < msgs; i++)
            send_txs(c, raw, len, 0);
        /* left out: judged ZBC_P2P_OMIT_GRACE_MS later, unknown here */
        g_now += 250;
        CHECK(!closed_within(c, 400));
        g_now += ZBC_P2P_OMIT_GRACE_MS;
        CHECK(closed_within(c, 1000));
        conn_close(c);
        /* a TxInv of more than ZBC_P2P_MAX_TX_HASHES: malformed, banned */
        struct id kd;
        id_make(&kd, 0x74);
        c = peer_open(port, gh, &kd);
        CHECK(!closed_within(c, 50));
        send_tx_hashes(c, true, (const uint8_t (*)[32])fake,
                       ZBC_P2P_MAX_TX_HASHES + 1);
        CHECK(closed_within(c, 1000));
        conn_close(c);
        free(fake);
        free(got);
    }

    /* GetTxs never answered: its hash times out without blame (a slow
     * peer), the request scores +20 per ZBC_P2P_TXS_TIMEOUT_MS (30 s), banned in
     * the end (pings keep it from being idle) */
    {
        struct id ke;
        id_make(&ke, 0x75);
        struct conn *e = peer_open(port, gh, &ke);
        CHECK(!closed_within(e, 50));
        send_tx_hashes(e, true, (const uint8_t (*)[32])h[4], 1);
        n_ask = 0;
        CHECK_EQ_INT(recv_asks(e, asks, 16, &n_ask, 200), 1);
        Zbc__P2p__Ping pg = ZBC__P2P__PING__INIT;
        pg.tip_hash = (ProtobufCBinaryData){32, (uint8_t *)gh};
        zbc_p2p_msg pm = ZBC__P2P__ENVELOPE__INIT;
        pm.msg_case = ZBC__P2P__ENVELOPE__MSG_PING;
        pm.ping = &pg;
        int periods = 0;
        while (periods < 10 && !e->closed) {
            g_now += ZBC_P2P_TXS_TIMEOUT_MS;
            send_msg(e, &pm);
            periods++;
            (void)closed_within(e, 400);
        }
        CHECK(e->closed);
        CHECK(periods >= 5);
        conn_close(e);
    }
    conn_close(b);
    conn_close(d);
    zbc_p2p_stop(p);
    event_base_free(g_base);
    zbc_chain_close(chain);
    fx_teardown(&f);
}

/* How many times needle occurs in the file at path. */
static size_t count_in_file(const char *path, const char *needle)
{
    char *text;
    size_t len, n = 0;
    struct zbc_err err = {{0}};
    if (!zbc_read_file(path, 1 << 22, &text, &len, &err))
        return 0;
    for (const char *q = text; (q = strstr(q, needle)) != NULL; q++)
        n++;
    free(text);
    return n;
}

/* A peer that answers GetTxs in order but late is scored once per
 * ZBC_P2P_TXS_TIMEOUT_MS without an answer, not once per late request:
 * the time-out ran from each request's own sending, so once the oldest
 * was answered the next one, as old, scored at the next pass (a starved
 * validator answering 10 s behind was scored +20 per answer and banned
 * within seconds, docs/benchmarks.md "Devnet load"). */
static void test_tx_stall_progress(void)
{
    struct fixture f;
    struct zbc_chain *chain;
    struct zbc_p2p *p = node_start(&f, &chain);
    if (p == NULL)
        return;
    char logpath[] = "/tmp/zbc_test_p2p_stall_XXXXXX";
    int lfd = mkstemp(logpath);
    CHECK(lfd >= 0);
    close(lfd);
    struct zbc_err err = {{0}};
    CHECK(zbc_log_open_file(logpath, &err));
    zbc_log_set_level(ZBC_LOG_WARN);
    uint16_t port = zbc_p2p_listen_port(p);
    struct id ke;
    id_make(&ke, 0x7a);
    struct conn *e = peer_open(port, f.g.hash, &ke);
    CHECK(!closed_within(e, 50));
    uint8_t fake[2][32], asks[4][32];
    randombytes_buf(fake, sizeof fake);
    size_t n_ask = 0;
    send_tx_hashes(e, true, (const uint8_t (*)[32])fake[0], 1);
    CHECK_EQ_INT(recv_asks(e, asks, 4, &n_ask, 300), 1);
    g_now += 1000;
    send_tx_hashes(e, true, (const uint8_t (*)[32])fake[1], 1);
    CHECK_EQ_INT(recv_asks(e, asks, 4, &n_ask, 300), 1);
    CHECK_EQ_INT(n_ask, 2);
    const char *stall = "did not answer get_txs";
    /* pings keep it from being idle */
    Zbc__P2p__Ping pg = ZBC__P2P__PING__INIT;
    pg.tip_hash = (ProtobufCBinaryData){32, (uint8_t *)f.g.hash};
    zbc_p2p_msg pm = ZBC__P2P__ENVELOPE__INIT;
    pm.msg_case = ZBC__P2P__ENVELOPE__MSG_PING;
    pm.ping = &pg;
    /* the first answered just inside the time-out ... */
    for (int k = 0; k < 3; k++) { /* in steps shorter than idleness */
        g_now += (ZBC_P2P_TXS_TIMEOUT_MS - 1500) / 3;
        send_msg(e, &pm);
        (void)closed_within(e, 50);
    }
    send_txs(e, NULL, NULL, 0);
    (void)closed_within(e, 400);
    CHECK_EQ_INT(count_in_file(logpath, stall), 0);
    /* ... the second is past it counted from its own sending, 2 s after
     * an answer: not a stall */
    g_now += 2000;
    send_msg(e, &pm);
    (void)closed_within(e, 600);
    CHECK_EQ_INT(count_in_file(logpath, stall), 0);
    /* a whole time-out without an answer: scored, once */
    for (int k = 0; k < 3; k++) {
        g_now += ZBC_P2P_TXS_TIMEOUT_MS / 3 + 100;
        send_msg(e, &pm);
        (void)closed_within(e, 300);
    }
    CHECK_EQ_INT(count_in_file(logpath, stall), 1);
    send_msg(e, &pm);
    (void)closed_within(e, 600);
    CHECK_EQ_INT(count_in_file(logpath, stall), 1);
    CHECK(!e->closed);
    conn_close(e);
    zbc_log_close_file();
    zbc_log_set_level(ZBC_LOG_ERROR);
    unlink(logpath);
    zbc_p2p_stop(p);
    event_base_free(g_base);
    zbc_chain_close(chain);
    fx_teardown(&f);
}

/* Announcements that come while the peer is at its in-flight limits are
 * kept (per peer, bounded) and asked for when room frees: a transaction
 * announced over a saturated link still arrives (docs/p2p.md §4). */
static void test_tx_gossip_later(void)
{
    struct fixture f;
    struct zbc_chain *chain;
    struct zbc_p2p *p = node_start(&f, &chain);
    if (p == NULL)
        return;
    uint16_t port = zbc_p2p_listen_port(p);
    struct id kc;
    id_make(&kc, 0x77);
    struct conn *c = peer_open(port, f.g.hash, &kc);
    CHECK(!closed_within(c, 50));
    struct id kd;
    id_make(&kd, 0x78);
    struct conn *d = peer_open(port, f.g.hash, &kd); /* only listens */
    CHECK(!closed_within(d, 50));
    uint8_t tx[512], h[32];
    size_t tn = fx_send(tx, sizeof tx, &f, f.alice_seed, &f.bob, 1, 10000,
                        (int64_t)(g_now / 1000));
    zbc_sha3_256(h, tx, tn);

    /* ZBC_P2P_TX_REQS_PEER announcements of one hash each: as many GetTxs
     * unanswered, the peer's limit */
    size_t nreq = ZBC_P2P_TX_REQS_PEER;
    uint8_t (*fake)[32] = malloc(nreq * 32);
    uint8_t (*got)[32] = malloc((nreq + 1) * 32);
    randombytes_buf(fake, nreq * 32);
    g_send_pump = 0;
    for (size_t i = 0; i < nreq; i++)
        send_tx_hashes(c, true, (const uint8_t (*)[32])fake + i, 1);
    g_send_pump = 20;
    size_t n_got = 0;
    CHECK_EQ_INT(recv_asks(c, got, nreq + 1, &n_got, 300), nreq);
    CHECK_EQ_INT(n_got, nreq);
    /* the real one now: not asked while the peer is at its limit */
    send_tx_hashes(c, true, (const uint8_t (*)[32])h, 1);
    n_got = 0;
    CHECK_EQ_INT(recv_asks(c, got, nreq + 1, &n_got, 100), 0);
    /* the fakes answered without them (a small score, no ban): at the
     * next pass room is free and the remembered announcement is asked */
    const uint8_t *raw[1] = {tx};
    size_t len[1] = {tn};
    g_send_pump = 0;
    for (size_t i = 0; i < nreq; i++)
        send_txs(c, raw, len, 0);
    g_send_pump = 20;
    pump(50);
    g_now += 250;
    n_got = 0;
    CHECK_EQ_INT(recv_asks(c, got, nreq + 1, &n_got, 400), 1);
    CHECK(n_got == 1 && memcmp(got[0], h, 32) == 0);
    send_txs(c, raw, len, 1);
    pump(20);
    CHECK_EQ_INT(zbc_chain_mempool_count(chain), 1);
    CHECK(!closed_within(c, 50));

    /* re-announcement: D was told of it at admission (and takes it); not
     * included ZBC_P2P_REANNOUNCE_MS later, it is announced again to every
     * peer, C that sent it too (it may have left an announcement aside at
     * its limits), and D may take it again; ZBC_P2P_REANNOUNCE_TIMES
     * times, then no more */
    zbc_p2p_msg *m = recv_kind(d, ZBC__P2P__ENVELOPE__MSG_TX_INV, 200);
    CHECK(m != NULL && m->tx_inv->n_hash == 1 &&
          memcmp(m->tx_inv->hash[0].data, h, 32) == 0);
    zbc_p2p_msg_free(m);
    m = get_txs(d, (const uint8_t (*)[32])h, 1);
    CHECK(m != NULL && m->txs->n_raw == 1);
    zbc_p2p_msg_free(m);
    g_now += ZBC_P2P_REANNOUNCE_MS - 300;
    CHECK(recv_kind(d, ZBC__P2P__ENVELOPE__MSG_TX_INV, 300) == NULL);
    Zbc__P2p__Ping pg = ZBC__P2P__PING__INIT;
    pg.tip_hash = (ProtobufCBinaryData){32, (uint8_t *)f.g.hash};
    zbc_p2p_msg pm = ZBC__P2P__ENVELOPE__INIT;
    pm.msg_case = ZBC__P2P__ENVELOPE__MSG_PING;
    pm.ping = &pg;
    unsigned again = 0;
    for (unsigned i = 0; i < ZBC_P2P_REANNOUNCE_TIMES + 1; i++) {
        g_now += i == 0 ? 300 : ZBC_P2P_REANNOUNCE_MS;
        send_msg(c, &pm); /* not idle */
        send_msg(d, &pm);
        m = recv_kind(d, ZBC__P2P__ENVELOPE__MSG_TX_INV, 400);
        if (m != NULL && m->tx_inv->n_hash == 1 &&
            memcmp(m->tx_inv->hash[0].data, h, 32) == 0)
            again++;
        bool was = m != NULL;
        zbc_p2p_msg_free(m);
        if (i == 0) {
            CHECK(was);
            m = recv_kind(c, ZBC__P2P__ENVELOPE__MSG_TX_INV, 200);
            CHECK(m != NULL && m->tx_inv->n_hash == 1 &&
                  memcmp(m->tx_inv->hash[0].data, h, 32) == 0);
            zbc_p2p_msg_free(m);
            m = get_txs(d, (const uint8_t (*)[32])h, 1);
            CHECK(m != NULL && m->txs->n_raw == 1);
            zbc_p2p_msg_free(m);
        }
    }
    CHECK_EQ_INT(again, ZBC_P2P_REANNOUNCE_TIMES);
    CHECK(!closed_within(c, 20) && !closed_within(d, 20));
    conn_close(c);
    conn_close(d);

    /* the whole table full (ZBC_P2P_TX_INFLIGHT hashes from 4 peers): a
     * fifth peer's announcement is kept, and asked at the pass after one
     * of them answers without its hashes (that one is banned for them) */
    {
        enum { NFL = ZBC_P2P_TX_INFLIGHT / ZBC_P2P_TX_INFLIGHT_PEER };
        struct conn *fl[NFL];
        uint8_t (*junk)[32] = malloc((size_t)ZBC_P2P_TX_INFLIGHT * 32);
        uint8_t (*asked)[32] = malloc((size_t)ZBC_P2P_TX_INFLIGHT_PEER * 32);
        randombytes_buf(junk, (size_t)ZBC_P2P_TX_INFLIGHT * 32);
        size_t fl_msgs[NFL];
        for (int i = 0; i < NFL; i++) {
            struct id ki;
            id_make(&ki, (uint8_t)(0x80 + i));
            fl[i] = peer_open(port, f.g.hash, &ki);
            CHECK(!closed_within(fl[i], 50));
            for (size_t k = 0; k < ZBC_P2P_TX_INFLIGHT_PEER;
                 k += ZBC_P2P_MAX_TX_HASHES)
                send_tx_hashes(fl[i], true,
                               (const uint8_t (*)[32])junk +
                                   (size_t)i * ZBC_P2P_TX_INFLIGHT_PEER + k,
                               ZBC_P2P_MAX_TX_HASHES);
            n_got = 0;
            fl_msgs[i] = recv_asks(fl[i], asked, ZBC_P2P_TX_INFLIGHT_PEER,
                                   &n_got, 300);
            CHECK_EQ_INT(n_got, ZBC_P2P_TX_INFLIGHT_PEER);
        }
        uint8_t tx2[512], h2[32];
        size_t tn2 = fx_send(tx2, sizeof tx2, &f, f.alice_seed, &f.bob, 2,
                             10000, (int64_t)(g_now / 1000));
        zbc_sha3_256(h2, tx2, tn2);
        struct id ke;
        id_make(&ke, 0x79);
        struct conn *e = peer_open(port, f.g.hash, &ke);
        CHECK(!closed_within(e, 50));
        send_tx_hashes(e, true, (const uint8_t (*)[32])h2, 1);
        n_got = 0;
        CHECK_EQ_INT(recv_asks(e, got, nreq + 1, &n_got, 100), 0);
        for (size_t k = 0; k < fl_msgs[0]; k++)
            send_txs(fl[0], raw, len, 0);
        g_now += 250;
        CHECK(!closed_within(fl[0], 400));
        g_now += ZBC_P2P_OMIT_GRACE_MS;
        CHECK(closed_within(fl[0], 1000));
        n_got = 0;
        CHECK_EQ_INT(recv_asks(e, got, nreq + 1, &n_got, 400), 1);
        CHECK(n_got == 1 && memcmp(got[0], h2, 32) == 0);
        raw[0] = tx2;
        len[0] = tn2;
        send_txs(e, raw, len, 1);
        pump(20);
        CHECK_EQ_INT(zbc_chain_mempool_count(chain), 2);
        for (int i = 0; i < NFL; i++)
            conn_close(fl[i]);
        conn_close(e);
        free(junk);
        free(asked);
    }
    free(fake);
    free(got);
    zbc_p2p_stop(p);
    event_base_free(g_base);
    zbc_chain_close(chain);
    fx_teardown(&f);
}

/* One signature verification per transaction per node: API submission,
 * a peer's gossip, mempool admission, block build, a peer's block and a
 * re-submission of an included transaction share the node's cache. */
/* Another node of f's chain, without a key, in f.base/ledger2 (NULL on
 * failure, said on stderr). */
static struct zbc_chain *second_chain(struct fixture *f)
{
    char ledger2[200];
    snprintf(ledger2, sizeof ledger2, "%s/ledger2", f->base);
    CHECK(mkdir(ledger2, 0700) == 0);
    struct zbc_chain *c = NULL;
    struct zbc_err err = {{0}};
    struct zbc_chain_config cfg2 = {.ledger_dir = ledger2, .genesis = &f->g};
    CHECK(zbc_chain_open(&c, &cfg2, &err));
    if (c == NULL)
        fprintf(stderr, "second chain: %s\n", err.msg);
    return c;
}

static void test_one_verify(void)
{
    struct fixture f;
    struct zbc_err err = {{0}};
    struct zbc_chain *chain;
    struct zbc_p2p *p = node_start(&f, &chain);
    if (p == NULL)
        return;
    struct id k1;
    id_make(&k1, 0x61);
    struct conn *a = peer_open(zbc_p2p_listen_port(p), f.g.hash, &k1);
    CHECK(!closed_within(a, 100));
    int64_t ts = (int64_t)(g_now / 1000);
    uint8_t tx1[512], tx2[512], bad[512], th[32];
    size_t n1 = fx_send(tx1, sizeof tx1, &f, f.alice_seed, &f.bob, 1, 10000,
                        ts);
    size_t n2 = fx_send(tx2, sizeof tx2, &f, f.alice_seed, &f.bob, 2, 10000,
                        ts);
    size_t nb = fx_send(bad, sizeof bad, &f, f.alice_seed, &f.bob, 3, 10000,
                        ts);
    bad[nb - 1] ^= 1;
    bool dup;

    /* the API: verified once, a second submission is a duplicate */
    g_verifies = 0;
    CHECK(zbc_chain_submit(chain, tx1, n1, g_now, th, &dup, &err) && !dup);
    CHECK_EQ_INT(g_verifies, 1);
    CHECK(zbc_chain_submit(chain, tx1, n1, g_now, th, &dup, &err) && dup);
    CHECK_EQ_INT(g_verifies, 1);

    /* a peer's gossip: the stateless check and the mempool admission
     * share one verification */
    Zbc__P2p__Tx t = ZBC__P2P__TX__INIT;
    zbc_p2p_msg tm = ZBC__P2P__ENVELOPE__INIT;
    tm.msg_case = ZBC__P2P__ENVELOPE__MSG_TX;
    tm.tx = &t;
    t.raw = (ProtobufCBinaryData){n2, tx2};
    send_msg(a, &tm);
    pump(40);
    CHECK_EQ_INT(zbc_chain_mempool_count(chain), 2);
    CHECK_EQ_INT(g_verifies, 2);
    /* the same again from the peer, and through the API */
    send_msg(a, &tm);
    pump(40);
    CHECK(zbc_chain_submit(chain, tx2, n2, g_now, th, &dup, &err) && dup);
    CHECK_EQ_INT(g_verifies, 2);
    /* a forged signature: verified (and refused) once */
    t.raw = (ProtobufCBinaryData){nb, bad};
    send_msg(a, &tm);
    pump(40);
    CHECK_EQ_INT(g_verifies, 3);
    CHECK_EQ_INT(zbc_chain_mempool_count(chain), 2);

    /* the block build takes both from the cache */
    struct zbc_block_info info;
    CHECK(zbc_chain_produce(chain, g_now, &info, &err));
    CHECK_EQ_INT(g_verifies, 3);
    CHECK_EQ_INT(zbc_chain_mempool_count(chain), 0);

    /* another node of the chain gets the block: each transaction is
     * verified once there, and not again when it is offered afterwards */
    uint8_t *blk = NULL;
    size_t blen = 0;
    bool found = false;
    CHECK(zbc_chain_block(chain, 1, &blk, &blen, &found, &err) && found);
    struct zbc_chain *other = second_chain(&f);
    if (other != NULL && found) {
        g_verifies = 0;
        CHECK(zbc_chain_apply_block(other, blk, blen, g_now, &info, &err));
        CHECK_EQ_INT(g_verifies, 2);
        CHECK(!zbc_chain_submit(other, tx1, n1, g_now, th, &dup, &err));
        CHECK(strstr(err.msg, "already included") != NULL);
        CHECK(zbc_chain_check_tx(other, tx2, n2, &err));
        CHECK_EQ_INT(g_verifies, 2);
        /* the cache vouches for exact bytes only */
        CHECK(!zbc_chain_check_tx(other, bad, nb, &err));
        CHECK_EQ_INT(g_verifies, 3);
    }
    zbc_chain_close(other);
    free(blk);
    conn_close(a);
    zbc_p2p_stop(p);
    event_base_free(g_base);
    zbc_chain_close(chain);
    fx_teardown(&f);
}

/* docs/p2p.md §4 "A Txs is taken as a batch": the transactions of a Txs
 * answer are checked together on the verify pool, each verified once, and
 * taken in frame order: the valid ones pooled, an invalid one scored.  When
 * a score bans the peer, the valid ones after the invalid one are not
 * pooled, and the next announcer's copy is fetched (and not verified
 * again). */
static void test_txs_batch(void)
{
    struct fixture f;
    struct zbc_chain *chain;
    struct zbc_p2p *p = node_start(&f, &chain);
    if (p == NULL)
        return;
    /* peers A, B, C */
    struct conn *pc[3];
    for (int i = 0; i < 3; i++) {
        struct id k;
        id_make(&k, (uint8_t)(0x81 + i));
        pc[i] = peer_open(zbc_p2p_listen_port(p), f.g.hash, &k);
        CHECK(!closed_within(pc[i], 50));
    }
    struct conn *a = pc[0], *b = pc[1], *c = pc[2];
    int64_t ts = (int64_t)(g_now / 1000);
    enum { N = 9 };
    uint8_t tx[N][512], h[N][32];
    size_t tn[N];
    const uint8_t *raw[N];
    /* 1 and 3 - 7: forged signatures */
    for (int i = 0; i < N; i++) {
        tn[i] = fx_send(tx[i], sizeof tx[i], &f, f.alice_seed, &f.bob,
                        (uint64_t)(i + 1), 10000, ts);
        if (i == 1 || (i >= 3 && i <= 7))
            tx[i][tn[i] - 1] ^= 1;
        zbc_sha3_256(h[i], tx[i], tn[i]);
        raw[i] = tx[i];
    }
    uint8_t asks[16][32];
    size_t n_ask = 0;
    g_verifies = 0;

    /* A: valid, forged, valid -> both valid ones pooled, A scored +20 */
    send_tx_hashes(a, true, (const uint8_t (*)[32])h[0], 3);
    CHECK(recv_asks(a, asks, 16, &n_ask, 200) >= 1);
    CHECK_EQ_INT(n_ask, 3);
    send_txs(a, raw, tn, 3);
    pump(40);
    CHECK_EQ_INT(g_verifies, 3);
    CHECK_EQ_INT(zbc_chain_mempool_count(chain), 2);
    CHECK(zbc_chain_mempool_tx(chain, h[0], NULL, NULL) &&
          zbc_chain_mempool_tx(chain, h[2], NULL, NULL));
    CHECK(!closed_within(a, 50));

    /* B: five forged (+100: banned at the fifth), then a valid one: not
     * pooled from B */
    n_ask = 0;
    send_tx_hashes(b, true, (const uint8_t (*)[32])h[3], 6);
    CHECK(recv_asks(b, asks, 16, &n_ask, 200) >= 1);
    CHECK_EQ_INT(n_ask, 6);
    send_txs(b, raw + 3, tn + 3, 6);
    CHECK(closed_within(b, 1000));
    CHECK_EQ_INT(g_verifies, 9);
    CHECK_EQ_INT(zbc_chain_mempool_count(chain), 2);
    CHECK(!zbc_chain_mempool_tx(chain, h[8], NULL, NULL));

    /* C announces that valid one: asked from C, pooled, verified once */
    n_ask = 0;
    send_tx_hashes(c, true, (const uint8_t (*)[32])h[8], 1);
    CHECK(recv_asks(c, asks, 16, &n_ask, 200) >= 1);
    CHECK(n_ask == 1 && memcmp(asks[0], h[8], 32) == 0);
    send_txs(c, raw + 8, tn + 8, 1);
    pump(40);
    CHECK_EQ_INT(zbc_chain_mempool_count(chain), 3);
    CHECK(zbc_chain_mempool_tx(chain, h[8], NULL, NULL));
    CHECK_EQ_INT(g_verifies, 9);

    for (int i = 0; i < 3; i++)
        conn_close(pc[i]);
    zbc_p2p_stop(p);
    event_base_free(g_base);
    zbc_chain_close(chain);
    fx_teardown(&f);
}

/* m sealed for the node as c's next frame, appended to *buf. */
static void seal_append(struct conn *c, const zbc_p2p_msg *m, uint8_t **buf,
                        size_t *len)
{
    uint8_t *b = NULL;
    size_t n = 0;
    struct zbc_err err = {{0}};
    if (!zbc_p2p_seal(m, c->tx, c->tx_n++, &b, &n, &err)) {
        fprintf(stderr, "seal: %s\n", err.msg);
        exit(2);
    }
    uint8_t *nb = realloc(*buf, *len + n);
    if (nb == NULL)
        exit(2);
    memcpy(nb + *len, b, n);
    *buf = nb;
    *len += n;
    free(b);
}

/* Block n of chain (the caller frees it), produced at its slot with
 * `count` transfers from alice, so its frame is larger than libevent
 * reads from a socket at once (4 - 16 KiB). */
static uint8_t *big_block(struct zbc_chain *chain, struct fixture *f,
                          uint32_t n, unsigned count, size_t *len)
{
    struct zbc_err err = {{0}};
    struct zbc_slot slot;
    CHECK(zbc_chain_next_slot(chain, &slot, &err));
    g_now = slot.earliest_ms;
    for (unsigned i = 0; i < count; i++) {
        uint8_t tx[512], th[32];
        bool dup;
        size_t tn = fx_send(tx, sizeof tx, f, f->alice_seed, &f->bob,
                            n * 100000u + i + 1, 10000,
                            (int64_t)(g_now / 1000));
        CHECK(zbc_chain_submit(chain, tx, tn, g_now, th, &dup, &err) && !dup);
    }
    struct zbc_block_info info;
    CHECK(zbc_chain_produce(chain, g_now, &info, &err));
    CHECK_EQ_INT(info.height, n);
    CHECK_EQ_INT(info.n_tx, count);
    uint8_t *blk = NULL;
    bool found = false;
    CHECK(zbc_chain_block(chain, n, &blk, len, &found, &err) && found);
    return blk;
}

/* docs/p2p.md §6 "Loop turns" and §8 "Blocks in hand before a slot": a
 * block is handled ahead of the frames its peer sent before it, and read
 * whole in one turn of the loop however many socket reads its frame
 * takes; the producer's intake (zbc_p2p_take_blocks) finds a block the
 * event loop has not read yet. */
static void test_block_first(void)
{
    struct fixture f;
    struct zbc_err err = {{0}};
    struct zbc_chain *chain = open_chain(&f); /* the producer */
    if (chain == NULL)
        return;
    size_t l1 = 0, l2 = 0;
    uint8_t *b1 = big_block(chain, &f, 1, 200, &l1);
    uint8_t *b2 = big_block(chain, &f, 2, 200, &l2);
    CHECK(l1 > 32768 && l2 > 32768);
    /* the node under test: the same chain at its genesis */
    struct zbc_chain *node = second_chain(&f);
    g_base = event_base_new();
    struct zbc_p2p *p = NULL;
    struct zbc_p2p_config pcfg = {.listen = "127.0.0.1:0", .key = &f.key,
                                  .now_ms = test_clock};
    if (node != NULL)
        CHECK(zbc_p2p_start(&p, g_base, node, &pcfg, &err));
    if (p == NULL || b1 == NULL || b2 == NULL) {
        fprintf(stderr, "test_block_first: %s\n", err.msg);
        goto out;
    }
    struct id k1;
    id_make(&k1, 0x71);
    struct conn *a = peer_open(zbc_p2p_listen_port(p), f.g.hash, &k1);
    CHECK(!closed_within(a, 100));

    /* 30 pings, then block 1, in one write: the block is applied first,
     * so every answer already names height 1 */
    uint8_t *buf = NULL;
    size_t len = 0;
    Zbc__P2p__Ping pg;
    zbc_p2p_msg pm;
    ping_of(&pm, &pg, 0, f.g.hash);
    for (int i = 0; i < 30; i++)
        seal_append(a, &pm, &buf, &len);
    Zbc__P2p__Block bk = ZBC__P2P__BLOCK__INIT;
    bk.raw = (ProtobufCBinaryData){l1, b1};
    zbc_p2p_msg bm = ZBC__P2P__ENVELOPE__INIT;
    bm.msg_case = ZBC__P2P__ENVELOPE__MSG_BLOCK;
    bm.block = &bk;
    seal_append(a, &bm, &buf, &len);
    send_raw(a, buf, len);
    int pongs = 0, at1 = 0;
    for (int i = 0; i < 30; i++) {
        zbc_p2p_msg *m = recv_kind(a, ZBC__P2P__ENVELOPE__MSG_PONG, 1000);
        if (m == NULL)
            break;
        pongs++;
        at1 += m->pong->height == 1;
        zbc_p2p_msg_free(m);
    }
    CHECK_EQ_INT(pongs, 30);
    CHECK_EQ_INT(at1, 30);
    CHECK_EQ_INT(zbc_chain_tip(node)->height, 1);

    /* block 2 written while the event loop does not run: the producer's
     * intake reads all of it from the socket and applies it */
    free(buf);
    buf = NULL;
    len = 0;
    bk.raw = (ProtobufCBinaryData){l2, b2};
    seal_append(a, &bm, &buf, &len);
    int was = g_send_pump;
    g_send_pump = 0;
    send_raw(a, buf, len);
    g_send_pump = was;
    CHECK_EQ_INT(zbc_chain_tip(node)->height, 1);
    CHECK_EQ_INT(zbc_p2p_take_blocks(p), 1);
    CHECK_EQ_INT(zbc_chain_tip(node)->height, 2);
    CHECK_EQ_INT(zbc_p2p_take_blocks(p), 0);
    /* the stream reads on from there */
    send_msg(a, &pm);
    zbc_p2p_msg *m = recv_kind(a, ZBC__P2P__ENVELOPE__MSG_PONG, 1000);
    CHECK(m != NULL && m->pong->height == 2);
    zbc_p2p_msg_free(m);
    CHECK(!closed_within(a, 50));
    free(buf);
    conn_close(a);
out:
    zbc_p2p_stop(p);
    if (g_base != NULL)
        event_base_free(g_base);
    zbc_chain_close(node);
    free(b1);
    free(b2);
    zbc_chain_close(chain);
    fx_teardown(&f);
}

int main(void)
{
    /* a write to a connection the node closed fails (EPIPE) instead of
     * ending the program: the checks after it tell what went wrong */
    signal(SIGPIPE, SIG_IGN);
    zbc_log_set_level(ZBC_LOG_ERROR);
    TEST_RUN(test_p2p_node);
    TEST_RUN(test_bans_churn);
    TEST_RUN(test_accept_backoff);
    TEST_RUN(test_one_verify);
    TEST_RUN(test_tx_gossip);
    TEST_RUN(test_txs_batch);
    TEST_RUN(test_tx_stall_progress);
    TEST_RUN(test_tx_gossip_later);
    TEST_RUN(test_block_first);
    return test_summary("node_p2p");
}
