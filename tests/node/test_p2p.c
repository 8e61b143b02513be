/* The P2P layer (node/zbcd/p2p.h) against raw test connections on loopback:
 * the node's Hello, refusals at the handshake (protocol version, other
 * genesis, its own key, a banned key), GetBlocks answers, transaction
 * gossip, and the misbehaviour scores of docs/p2p.md §6 up to a ban. */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "chain_fixture.h"
#include "crypto/hash.h"
#include "node/zbcd/chain.h"
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
};

static struct event_base *g_base;

static void pump(int ms)
{
    struct timespec ts = {0, 2000000};
    for (int i = 0; i < ms / 2; i++) {
        event_base_loop(g_base, EVLOOP_NONBLOCK);
        nanosleep(&ts, NULL);
    }
}

static struct conn *conn_open(uint16_t port)
{
    struct conn *c = calloc(1, sizeof *c);
    c->fd = socket(AF_INET, SOCK_STREAM, 0);
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
    pump(20);
    return c;
}

static void conn_close(struct conn *c)
{
    close(c->fd);
    free(c);
    pump(20);
}

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
    pump(20);
}

static void send_msg(struct conn *c, const zbc_p2p_msg *m)
{
    uint8_t *b = NULL;
    size_t len = 0;
    struct zbc_err err = {{0}};
    if (!zbc_p2p_encode(m, &b, &len, &err)) {
        fprintf(stderr, "encode: %s\n", err.msg);
        exit(2);
    }
    send_raw(c, b, len);
    free(b);
}

/* Next message of kind `want` within ms (others are skipped); NULL when
 * none came or the node closed the connection (c->closed). */
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
            if (zbc_p2p_frame_check(c->buf, c->n, &len, &err) !=
                ZBC_P2P_FRAME_READY)
                break;
            zbc_p2p_msg *m = NULL;
            int ok = zbc_p2p_decode(&m, c->buf + 4, len, &err);
            memmove(c->buf, c->buf + 4 + len, c->n - 4 - len);
            c->n -= 4 + len;
            if (ok && (int)m->msg_case == want)
                return m;
            zbc_p2p_msg_free(m);
        }
        if (c->closed)
            return NULL;
    }
    return NULL;
}

static bool closed_within(struct conn *c, int ms)
{
    zbc_p2p_msg *m = recv_kind(c, -1, ms);
    zbc_p2p_msg_free(m);
    return c->closed;
}

static void send_hello(struct conn *c, uint32_t version, const uint8_t g[32],
                       const uint8_t key[32])
{
    uint8_t tip[32];
    memcpy(tip, g, 32);
    Zbc__P2p__Hello h = ZBC__P2P__HELLO__INIT;
    h.protocol_version = version;
    h.genesis_hash = (ProtobufCBinaryData){32, (uint8_t *)g};
    h.node_key = (ProtobufCBinaryData){32, (uint8_t *)key};
    h.tip_hash = (ProtobufCBinaryData){32, tip};
    zbc_p2p_msg m = ZBC__P2P__ENVELOPE__INIT;
    m.msg_case = ZBC__P2P__ENVELOPE__MSG_HELLO;
    m.hello = &h;
    send_msg(c, &m);
}

static zbc_p2p_msg *get_blocks(struct conn *c, const uint8_t (*loc)[32],
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
    return recv_kind(c, ZBC__P2P__ENVELOPE__MSG_BLOCKS, 2000);
}

static void test_p2p_node(void)
{
    struct fixture f;
    fx_setup(&f);
    struct zbc_chain *chain = NULL;
    struct zbc_err err = {{0}};
    struct zbc_chain_config cfg = {.ledger_dir = f.ledger, .genesis = &f.g,
                                   .key = &f.key};
    CHECK(zbc_chain_open(&chain, &cfg, &err));
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
                                  .now_ms = test_clock};
    CHECK(zbc_p2p_start(&p, g_base, chain, &pcfg, &err));
    if (p == NULL)
        return;
    uint16_t port = zbc_p2p_listen_port(p);
    CHECK(port != 0);
    const uint8_t *gh = f.g.hash;
    uint8_t k1[32], k2[32], other_g[32];
    memset(k1, 0x51, 32);
    memset(k2, 0x52, 32);
    memset(other_g, 0x99, 32);

    /* the node's hello */
    struct conn *a = conn_open(port);
    zbc_p2p_msg *m = recv_kind(a, ZBC__P2P__ENVELOPE__MSG_HELLO, 2000);
    CHECK(m != NULL);
    if (m != NULL) {
        CHECK_EQ_INT(m->hello->protocol_version, 1);
        CHECK_EQ_MEM(m->hello->genesis_hash.data, gh, 32);
        CHECK_EQ_MEM(m->hello->node_key.data, f.key.pk, 32);
        CHECK_EQ_INT(m->hello->height, 3);
        CHECK_EQ_MEM(m->hello->tip_hash.data, zbc_chain_tip(chain)->hash, 32);
        CHECK_EQ_INT(m->hello->listen_port, port);
    }
    zbc_p2p_msg_free(m);
    /* wrong protocol version */
    send_hello(a, 2, gh, k1);
    CHECK(closed_within(a, 1000));
    conn_close(a);
    /* another genesis */
    a = conn_open(port);
    send_hello(a, 1, other_g, k1);
    CHECK(closed_within(a, 1000));
    conn_close(a);
    /* the node's own key */
    a = conn_open(port);
    send_hello(a, 1, gh, f.key.pk);
    CHECK(closed_within(a, 1000));
    conn_close(a);
    CHECK_EQ_INT(zbc_p2p_peer_count(p), 0);

    /* a good peer: blocks on request */
    a = conn_open(port);
    send_hello(a, 1, gh, k1);
    CHECK(!closed_within(a, 100));
    CHECK_EQ_INT(zbc_p2p_peer_count(p), 1);
    CHECK_EQ_INT(zbc_chain_peer_count(chain), 1);
    uint8_t loc[2][32];
    memcpy(loc[0], gh, 32);
    m = get_blocks(a, (const uint8_t (*)[32])loc, 1, 2);
    CHECK(m != NULL && m->blocks->n_raw == 2);
    for (uint32_t h = 1; m != NULL && h <= m->blocks->n_raw; h++) {
        uint8_t *b = NULL;
        size_t len = 0;
        CHECK_EQ_INT(zbc_chain_block(chain, h, &b, &len, &err), ZBC_KV_FOUND);
        CHECK_EQ_INT(m->blocks->raw[h - 1].len, len);
        if (m->blocks->raw[h - 1].len == len)
            CHECK_EQ_MEM(m->blocks->raw[h - 1].data, b, len);
        if (h == 2)
            zbc_sha3_256(loc[0], b, ZBC_BLOCK_HEADER_LEN);
        free(b);
    }
    zbc_p2p_msg_free(m);
    /* from block 2 on: only block 3 is left */
    memcpy(loc[1], gh, 32);
    m = get_blocks(a, (const uint8_t (*)[32])loc, 2, 128);
    CHECK(m != NULL && m->blocks->n_raw == 1);
    zbc_p2p_msg_free(m);

    /* a transaction admitted here is gossiped */
    uint8_t tx[512], th[32];
    size_t tn = fx_send(tx, sizeof tx, &f, f.alice_seed, &f.bob, 5, 10000,
                        (int64_t)(g_now / 1000));
    bool dup;
    CHECK(zbc_chain_submit(chain, tx, tn, g_now, th, &dup, &err));
    m = recv_kind(a, ZBC__P2P__ENVELOPE__MSG_TX, 2000);
    CHECK(m != NULL && m->tx->raw.len == tn &&
          memcmp(m->tx->raw.data, tx, tn) == 0);
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
    send_hello(a, 1, gh, k1);
    CHECK(closed_within(a, 1000));
    conn_close(a);
    CHECK_EQ_INT(zbc_p2p_peer_count(p), 0);
    /* the banned key is refused; another key is welcome */
    a = conn_open(port);
    send_hello(a, 1, gh, k1);
    CHECK(closed_within(a, 1000));
    conn_close(a);
    a = conn_open(port);
    send_hello(a, 1, gh, k2);
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

    /* framing violations before any hello */
    a = conn_open(port);
    const uint8_t over[4] = {1, 0, 0x40, 0};
    send_raw(a, over, sizeof over);
    CHECK(closed_within(a, 1000));
    conn_close(a);
    a = conn_open(port);
    Zbc__P2p__Ping ping = ZBC__P2P__PING__INIT;
    ping.tip_hash = (ProtobufCBinaryData){32, (uint8_t *)gh};
    zbc_p2p_msg pm = ZBC__P2P__ENVELOPE__INIT;
    pm.msg_case = ZBC__P2P__ENVELOPE__MSG_PING;
    pm.ping = &ping;
    send_msg(a, &pm);
    CHECK(closed_within(a, 1000));
    conn_close(a);

    CHECK_EQ_INT(zbc_chain_tip(chain)->height, 3);
    zbc_p2p_stop(p);
    event_base_free(g_base);
    zbc_chain_close(chain);
    fx_teardown(&f);
}

int main(void)
{
    zbc_log_set_level(ZBC_LOG_ERROR);
    TEST_RUN(test_p2p_node);
    return test_summary("node_p2p");
}
