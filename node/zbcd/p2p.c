#include "node/zbcd/p2p.h"

#include <arpa/inet.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/listener.h>
#include <event2/util.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "consensus/apply.h"
#include "consensus/fork_choice.h"
#include "crypto/hash.h"
#include "crypto/hex.h"
#include "node/zbcd/api.h"
#include "node/zbcd/finality.h"
#include "node/zbcd/log.h"
#include "node/zbcd/p2p_wire.h"
#include "node/zbcd/producer_loop.h"

#define TICK_MS 250u

struct slot;

struct peer {
    struct zbc_p2p *p;
    struct bufferevent *bev;
    char addr[300];           /* for logs: "host:port" */
    struct slot *slot;        /* outbound: the configured peer; else NULL */
    bool connected;
    bool handshaken;
    const char *doomed;       /* set: dropped at the next tick (why) */
    uint8_t node_key[32];
    uint32_t height;          /* last announced */
    uint8_t tip[32];
    bool tip_unknown;         /* announced tip not known here (sync) */
    int score;
    bool sync_pending;
    uint64_t sync_sent_ms;
    uint32_t sync_count;
    uint32_t requests_out;    /* GetBlocks sent minus Blocks received */
    uint64_t next_ping_ms;
    struct peer *next;
};

struct slot {
    char host[256];
    uint16_t port;
    struct peer *peer;        /* current connection, NULL when none */
    uint64_t next_try_ms;
    uint32_t backoff_ms;
    bool is_self;             /* dialled ourselves: never again */
};

struct ban {
    uint8_t key[32];
    uint64_t until_ms;
};

struct zbc_p2p {
    struct event_base *base;
    struct zbc_chain *chain;
    struct zbc_finality *fin; /* NULL: votes are not taken */
    uint64_t (*now_ms)(void);
    struct evconnlistener *listener;
    uint16_t listen_port;
    struct slot *slots;
    size_t n_slots;
    struct peer *peers;
    size_t n_peers;
    struct ban bans[ZBC_P2P_MAX_PEERS];
    size_t n_bans;
    uint8_t (*seen)[32];      /* ring of recently seen tx/block hashes */
    size_t seen_next, seen_count;
    struct event *tick;
    uint64_t started_ms;
};

/* ---- small helpers ---- */

static void hex16(char out[17], const uint8_t *b)
{
    char full[65];
    zbc_hex_encode(full, b, 32);
    memcpy(out, full, 16);
    out[16] = '\0';
}

static bool seen_has(const struct zbc_p2p *p, const uint8_t h[32])
{
    for (size_t i = 0; i < p->seen_count; i++) {
        if (memcmp(p->seen[i], h, 32) == 0)
            return true;
    }
    return false;
}

static void seen_add(struct zbc_p2p *p, const uint8_t h[32])
{
    if (seen_has(p, h))
        return;
    memcpy(p->seen[p->seen_next], h, 32);
    p->seen_next = (p->seen_next + 1) % ZBC_P2P_SEEN_CACHE;
    if (p->seen_count < ZBC_P2P_SEEN_CACHE)
        p->seen_count++;
}

static void seen_forget(struct zbc_p2p *p, const uint8_t h[32])
{
    for (size_t i = 0; i < p->seen_count; i++) {
        if (memcmp(p->seen[i], h, 32) == 0)
            memset(p->seen[i], 0, 32);
    }
}

static bool is_banned(struct zbc_p2p *p, const uint8_t key[32], uint64_t now)
{
    for (size_t i = 0; i < p->n_bans; i++) {
        if (memcmp(p->bans[i].key, key, 32) == 0 && now < p->bans[i].until_ms)
            return true;
    }
    return false;
}

static void ban(struct zbc_p2p *p, const uint8_t key[32], uint64_t now)
{
    size_t i;
    for (i = 0; i < p->n_bans; i++) {
        if (memcmp(p->bans[i].key, key, 32) == 0 ||
            now >= p->bans[i].until_ms)
            break; /* the same key again, or an expired entry to reuse */
    }
    if (i == ZBC_P2P_MAX_PEERS)
        i = 0; /* full: replace the first */
    if (i == p->n_bans)
        p->n_bans++;
    memcpy(p->bans[i].key, key, 32);
    p->bans[i].until_ms = now + ZBC_P2P_BAN_MS;
}

/* ---- peers ---- */

static void update_status(struct zbc_p2p *p);

static void peer_free(struct peer *pe)
{
    struct zbc_p2p *p = pe->p;
    struct peer **pp = &p->peers;
    while (*pp != NULL && *pp != pe)
        pp = &(*pp)->next;
    if (*pp == pe) {
        *pp = pe->next;
        p->n_peers--;
    }
    if (pe->slot != NULL) {
        struct slot *s = pe->slot;
        s->peer = NULL;
        uint64_t now = p->now_ms();
        if (s->backoff_ms == 0)
            s->backoff_ms = ZBC_P2P_RETRY_MIN_MS;
        s->next_try_ms = now + s->backoff_ms;
        if (s->backoff_ms < ZBC_P2P_RETRY_MAX_MS)
            s->backoff_ms *= 2;
        if (s->backoff_ms > ZBC_P2P_RETRY_MAX_MS)
            s->backoff_ms = ZBC_P2P_RETRY_MAX_MS;
        if (pe->handshaken && is_banned(p, pe->node_key, now)) {
            uint64_t until = now + ZBC_P2P_BAN_MS;
            if (s->next_try_ms < until)
                s->next_try_ms = until;
        }
    }
    if (pe->bev != NULL)
        bufferevent_free(pe->bev);
    bool was = pe->handshaken;
    free(pe);
    if (was)
        update_status(p);
}

static void peer_drop(struct peer *pe, const char *why)
{
    if (pe->handshaken)
        zbc_log_info("p2p: peer %s disconnected: %s", pe->addr, why);
    else
        zbc_log_debug("p2p: connection %s closed: %s", pe->addr, why);
    peer_free(pe);
}

/* Adds to the peer's score; at the threshold the node key is banned and
 * the connection dropped.  Returns false when the peer is gone. */
static bool misbehave(struct peer *pe, int score, const char *what)
{
    pe->score += score;
    zbc_log_warn("p2p: peer %s misbehaved (+%d, score %d): %s", pe->addr,
                 score, pe->score, what);
    if (pe->score < ZBC_P2P_BAN_SCORE)
        return true;
    struct zbc_p2p *p = pe->p;
    if (pe->handshaken) {
        char k[17];
        hex16(k, pe->node_key);
        zbc_log_warn("p2p: banning node %s... for %u s", k,
                     ZBC_P2P_BAN_MS / 1000);
        ban(p, pe->node_key, p->now_ms());
    }
    peer_drop(pe, "banned");
    return false;
}

static bool send_msg(struct peer *pe, const zbc_p2p_msg *m)
{
    uint8_t *buf = NULL;
    size_t len = 0;
    struct zbc_err err = {{0}};
    if (!zbc_p2p_encode(m, &buf, &len, &err)) {
        zbc_log_warn("p2p: %s not sent to %s: %s", zbc_p2p_msg_name(m),
                     pe->addr, err.msg);
        return true;
    }
    /* Never freed here: a send can happen while another callback of the
     * same peer is on the stack (gossip from inside its own message). */
    struct evbuffer *out = bufferevent_get_output(pe->bev);
    if (pe->doomed == NULL && evbuffer_get_length(out) > ZBC_P2P_MAX_OUTPUT)
        pe->doomed = "it does not read what is sent to it";
    if (pe->doomed == NULL && bufferevent_write(pe->bev, buf, len) != 0)
        pe->doomed = "write failed";
    free(buf);
    return pe->doomed == NULL;
}

static void tip_fields(struct zbc_p2p *p, uint32_t *height, uint8_t tip[32])
{
    const struct zbc_parent *t = zbc_chain_tip(p->chain);
    *height = t->height;
    memcpy(tip, t->hash, 32);
}

static bool send_hello(struct peer *pe)
{
    struct zbc_p2p *p = pe->p;
    uint8_t tip[32], key[32] = {0};
    const uint8_t *pk = zbc_chain_node_key(p->chain);
    if (pk != NULL)
        memcpy(key, pk, 32);
    Zbc__P2p__Hello h = ZBC__P2P__HELLO__INIT;
    h.protocol_version = ZBC_P2P_PROTOCOL_VERSION;
    h.genesis_hash.data = (uint8_t *)zbc_chain_genesis(p->chain)->hash;
    h.genesis_hash.len = 32;
    h.node_key.data = key;
    h.node_key.len = 32;
    tip_fields(p, &h.height, tip);
    h.tip_hash.data = tip;
    h.tip_hash.len = 32;
    h.listen_port = p->listen_port;
    zbc_p2p_msg m = ZBC__P2P__ENVELOPE__INIT;
    m.msg_case = ZBC__P2P__ENVELOPE__MSG_HELLO;
    m.hello = &h;
    return send_msg(pe, &m);
}

static bool send_ping(struct peer *pe, bool pong, uint64_t nonce)
{
    uint8_t tip[32];
    Zbc__P2p__Ping ping = ZBC__P2P__PING__INIT;
    Zbc__P2p__Pong pg = ZBC__P2P__PONG__INIT;
    zbc_p2p_msg m = ZBC__P2P__ENVELOPE__INIT;
    if (pong) {
        tip_fields(pe->p, &pg.height, tip);
        pg.nonce = nonce;
        pg.tip_hash = (ProtobufCBinaryData){32, tip};
        m.msg_case = ZBC__P2P__ENVELOPE__MSG_PONG;
        m.pong = &pg;
    } else {
        tip_fields(pe->p, &ping.height, tip);
        ping.nonce = nonce;
        ping.tip_hash = (ProtobufCBinaryData){32, tip};
        m.msg_case = ZBC__P2P__ENVELOPE__MSG_PING;
        m.ping = &ping;
    }
    return send_msg(pe, &m);
}

/* Asks the peer for best-chain blocks after what we share.  `first`, when
 * not NULL, goes in front of the locator: the last block of the previous
 * batch, so a long side branch is fetched batch after batch. */
static bool request_blocks(struct peer *pe, const uint8_t *first)
{
    struct zbc_p2p *p = pe->p;
    uint8_t loc[ZBC_P2P_MAX_LOCATOR][32];
    ProtobufCBinaryData lv[ZBC_P2P_MAX_LOCATOR];
    struct zbc_err err = {{0}};
    size_t n = 0;
    if (first != NULL)
        memcpy(loc[n++], first, 32);
    size_t m = zbc_chain_locator(p->chain, loc + n, ZBC_P2P_MAX_LOCATOR - n,
                                 &err);
    if (m == 0) {
        zbc_log_error("p2p: cannot build a block locator: %s", err.msg);
        return true;
    }
    n += m;
    for (size_t i = 0; i < n; i++)
        lv[i] = (ProtobufCBinaryData){32, loc[i]};
    Zbc__P2p__GetBlocks gb = ZBC__P2P__GET_BLOCKS__INIT;
    gb.locator = lv;
    gb.n_locator = n;
    gb.count = ZBC_P2P_MAX_BATCH;
    zbc_p2p_msg msg = ZBC__P2P__ENVELOPE__INIT;
    msg.msg_case = ZBC__P2P__ENVELOPE__MSG_GET_BLOCKS;
    msg.get_blocks = &gb;
    pe->sync_pending = true;
    pe->sync_sent_ms = p->now_ms();
    pe->sync_count = gb.count;
    pe->requests_out++;
    zbc_log_debug("p2p: asking %s for blocks (our height %u)", pe->addr,
                  zbc_chain_tip(p->chain)->height);
    bool ok = send_msg(pe, &msg);
    if (ok)
        update_status(p);
    return ok;
}

/* A peer told us its tip: sync when we do not know it. */
static bool peer_tip(struct peer *pe, uint32_t height, const uint8_t tip[32])
{
    bool changed = memcmp(pe->tip, tip, 32) != 0;
    pe->height = height;
    memcpy(pe->tip, tip, 32);
    if (zbc_chain_knows_block(pe->p->chain, tip)) {
        pe->tip_unknown = false;
        update_status(pe->p);
        return true;
    }
    if (changed)
        pe->tip_unknown = true;
    update_status(pe->p);
    if (pe->tip_unknown && !pe->sync_pending)
        return request_blocks(pe, NULL);
    return true;
}

/* ---- gossip (the chain's listener) ---- */

static void broadcast(struct zbc_p2p *p, const zbc_p2p_msg *m)
{
    struct peer *pe = p->peers;
    while (pe != NULL) {
        struct peer *next = pe->next;
        if (pe->handshaken && pe->doomed == NULL)
            (void)send_msg(pe, m);
        pe = next;
    }
}

static void on_chain_tx(void *arg, const uint8_t *raw, size_t len,
                        const uint8_t hash[32])
{
    struct zbc_p2p *p = arg;
    seen_add(p, hash);
    Zbc__P2p__Tx tx = ZBC__P2P__TX__INIT;
    tx.raw = (ProtobufCBinaryData){len, (uint8_t *)raw};
    zbc_p2p_msg m = ZBC__P2P__ENVELOPE__INIT;
    m.msg_case = ZBC__P2P__ENVELOPE__MSG_TX;
    m.tx = &tx;
    broadcast(p, &m);
}

static void on_chain_block(void *arg, const uint8_t *bytes, size_t len,
                           const uint8_t hash[32], uint64_t timestamp_ms)
{
    struct zbc_p2p *p = arg;
    seen_add(p, hash);
    if (timestamp_ms + ZBC_P2P_RELAY_AGE_MS < p->now_ms())
        return; /* history being synced: whoever needs it syncs too */
    Zbc__P2p__Block b = ZBC__P2P__BLOCK__INIT;
    b.raw = (ProtobufCBinaryData){len, (uint8_t *)bytes};
    zbc_p2p_msg m = ZBC__P2P__ENVELOPE__INIT;
    m.msg_case = ZBC__P2P__ENVELOPE__MSG_BLOCK;
    m.block = &b;
    broadcast(p, &m);
}

/* A Votes message holding one vote (it points into v: keep v in place). */
struct one_vote {
    Zbc__P2p__Votes vs;
    ProtobufCBinaryData one;
    zbc_p2p_msg m;
};

static void one_vote_init(struct one_vote *v, const uint8_t vote[ZBC_VOTE_LEN])
{
    v->vs = (Zbc__P2p__Votes)ZBC__P2P__VOTES__INIT;
    v->one = (ProtobufCBinaryData){ZBC_VOTE_LEN, (uint8_t *)vote};
    v->vs.n_vote = 1;
    v->vs.vote = &v->one;
    v->m = (zbc_p2p_msg)ZBC__P2P__ENVELOPE__INIT;
    v->m.msg_case = ZBC__P2P__ENVELOPE__MSG_VOTES;
    v->m.votes = &v->vs;
}

/* One vote to one peer (the votes this node holds, for a new peer). */
static void send_vote_to(void *arg, const uint8_t vote[ZBC_VOTE_LEN])
{
    struct one_vote v;
    one_vote_init(&v, vote);
    (void)send_msg(arg, &v.m);
}

/* This node's own vote, or one to relay, to every peer. */
static void on_own_vote(void *arg, const uint8_t vote[ZBC_VOTE_LEN])
{
    struct one_vote v;
    one_vote_init(&v, vote);
    broadcast(arg, &v.m);
}

void zbc_p2p_set_finality(struct zbc_p2p *p, struct zbc_finality *f)
{
    p->fin = f;
    if (f != NULL)
        zbc_finality_set_gossip(f, on_own_vote, p);
}

/* ---- handling messages ---- */

/* Each new vote is relayed once (the finality view answers KNOWN after);
 * a vote that fails verification is the sender's misbehaviour. */
static bool on_votes(struct peer *pe, const Zbc__P2p__Votes *m)
{
    struct zbc_p2p *p = pe->p;
    if (p->fin == NULL)
        return true;
    for (size_t i = 0; i < m->n_vote; i++) {
        struct zbc_err err = {{0}};
        switch (zbc_finality_receive(p->fin, m->vote[i].data, m->vote[i].len,
                                     &err)) {
        case ZBC_VOTE_RX_NEW:
            on_own_vote(p, m->vote[i].data);
            break;
        case ZBC_VOTE_RX_BAD: {
            char what[ZBC_ERR_MAX + 16];
            snprintf(what, sizeof what, "bad vote: %s", err.msg);
            if (!misbehave(pe, ZBC_P2P_SCORE_BAD_VOTE, what))
                return false;
            break;
        }
        case ZBC_VOTE_RX_KNOWN:
        case ZBC_VOTE_RX_IGNORED:
            break;
        }
    }
    return true;
}

static bool on_hello(struct peer *pe, const Zbc__P2p__Hello *h)
{
    struct zbc_p2p *p = pe->p;
    if (pe->handshaken)
        return misbehave(pe, ZBC_P2P_SCORE_PROTOCOL, "a second hello");
    if (h->protocol_version != ZBC_P2P_PROTOCOL_VERSION) {
        zbc_log_warn("p2p: refused peer %s: protocol version %u, this node "
                     "speaks %u", pe->addr, h->protocol_version,
                     ZBC_P2P_PROTOCOL_VERSION);
        peer_drop(pe, "wrong protocol version");
        return false;
    }
    const uint8_t *ours = zbc_chain_genesis(p->chain)->hash;
    if (memcmp(h->genesis_hash.data, ours, 32) != 0) {
        char theirs[17], mine[17];
        hex16(theirs, h->genesis_hash.data);
        hex16(mine, ours);
        zbc_log_warn("p2p: refused peer %s: it is on another chain (genesis "
                     "%s..., ours %s...)", pe->addr, theirs, mine);
        peer_drop(pe, "another genesis");
        return false;
    }
    const uint8_t *pk = zbc_chain_node_key(p->chain);
    if (pk != NULL && memcmp(h->node_key.data, pk, 32) == 0) {
        if (pe->slot != NULL)
            pe->slot->is_self = true;
        zbc_log_info("p2p: %s is this node itself; not dialling it again",
                     pe->addr);
        peer_drop(pe, "connected to itself");
        return false;
    }
    uint64_t now = p->now_ms();
    if (is_banned(p, h->node_key.data, now)) {
        peer_drop(pe, "its node key is banned");
        return false;
    }
    memcpy(pe->node_key, h->node_key.data, 32);
    pe->handshaken = true;
    pe->next_ping_ms = now + ZBC_P2P_PING_MS;
    if (pe->slot != NULL)
        pe->slot->backoff_ms = 0;
    char k[17];
    hex16(k, pe->node_key);
    zbc_log_info("p2p: peer %s connected: node %s... height %u", pe->addr, k,
                 h->height);
    if (p->fin != NULL)
        zbc_finality_each_vote(p->fin, send_vote_to, pe);
    return peer_tip(pe, h->height, h->tip_hash.data);
}

static bool on_tx(struct peer *pe, const Zbc__P2p__Tx *m)
{
    struct zbc_p2p *p = pe->p;
    uint8_t hash[32];
    zbc_sha3_256(hash, m->raw.data, m->raw.len);
    if (seen_has(p, hash))
        return true;
    seen_add(p, hash);
    struct zbc_err err = {{0}};
    struct zbc_checked_tx ct;
    if (!zbc_tx_check_stateless(&ct, zbc_chain_genesis(p->chain), m->raw.data,
                                m->raw.len, &err)) {
        char what[ZBC_ERR_MAX + 32];
        snprintf(what, sizeof what, "invalid transaction: %s", err.msg);
        return misbehave(pe, ZBC_P2P_SCORE_BAD_TX, what);
    }
    bool dup = false;
    if (!zbc_chain_submit(p->chain, m->raw.data, m->raw.len, p->now_ms(),
                          hash, &dup, &err))
        zbc_log_debug("p2p: transaction from %s not pooled: %s", pe->addr,
                      err.msg);
    return true;
}

/* One block from a peer (gossip or a sync batch).  *fresh: it was new
 * and valid.  Returns false when the peer is gone. */
static bool take_block(struct peer *pe, const ProtobufCBinaryData *raw,
                       bool quiet, bool *fresh, struct zbc_recv_result *r)
{
    struct zbc_p2p *p = pe->p;
    struct zbc_err err = {{0}};
    *fresh = false;
    uint8_t hash[32];
    zbc_sha3_256(hash, raw->data, ZBC_BLOCK_HEADER_LEN);
    memset(r, 0, sizeof *r);
    memcpy(r->hash, hash, 32);
    if (seen_has(p, hash) && zbc_chain_knows_block(p->chain, hash)) {
        r->kind = ZBC_RECV_DUPLICATE;
        return true;
    }
    seen_add(p, hash);
    uint32_t old = zbc_chain_tip(p->chain)->height;
    if (!zbc_chain_receive_block(p->chain, raw->data, raw->len, p->now_ms(),
                                 r, &err)) {
        seen_forget(p, hash);
        if (r->kind == ZBC_RECV_LOCAL_ERROR) {
            zbc_log_error("p2p: block from %s not stored: %s", pe->addr,
                          err.msg);
            return true;
        }
        char what[ZBC_ERR_MAX + 32];
        snprintf(what, sizeof what, "invalid block: %s", err.msg);
        return misbehave(pe, ZBC_P2P_SCORE_BAD_BLOCK, what);
    }
    char h[17];
    hex16(h, r->hash);
    switch (r->kind) {
    case ZBC_RECV_EXTENDED:
        *fresh = true;
        if (r->undone == 0 && r->applied == 1 && quiet)
            break;
        if (r->undone == 0 && r->applied == 1)
            zbc_log_info("block accepted height=%u hash=%s... from %s",
                         r->height, h, pe->addr);
        else
            zbc_log_info("chain switched: height %u -> %u (undid %u, "
                         "applied %u) via block %s... from %s", old,
                         zbc_chain_tip(p->chain)->height, r->undone,
                         r->applied, h, pe->addr);
        break;
    case ZBC_RECV_SIDE:
        *fresh = true;
        if (!quiet)
            zbc_log_info("side block height=%u hash=%s... from %s kept (lighter "
                     "branch)", r->height, h, pe->addr);
        break;
    case ZBC_RECV_DUPLICATE:
        break;
    case ZBC_RECV_ORPHAN:
        zbc_log_debug("p2p: block %u from %s has an unknown parent", r->height,
                      pe->addr);
        break;
    case ZBC_RECV_FUTURE:
        seen_forget(p, hash);
        zbc_log_info("p2p: block %u from %s is more than 10 s ahead of the "
                     "local clock: dropped", r->height, pe->addr);
        break;
    case ZBC_RECV_TOO_DEEP:
        zbc_log_warn("p2p: block %u from %s forks more than %u blocks below "
                     "the tip: final here, dropped", r->height, pe->addr,
                     ZBC_REORG_MAX_DEPTH);
        break;
    case ZBC_RECV_INVALID:
    case ZBC_RECV_LOCAL_ERROR:
        break;
    }
    return true;
}

static bool on_block(struct peer *pe, const Zbc__P2p__Block *m)
{
    bool fresh;
    struct zbc_recv_result r;
    if (!take_block(pe, &m->raw, false, &fresh, &r))
        return false;
    if (r.kind == ZBC_RECV_ORPHAN && !pe->sync_pending)
        return request_blocks(pe, NULL);
    return true;
}

static bool on_get_blocks(struct peer *pe, const Zbc__P2p__GetBlocks *g)
{
    struct zbc_p2p *p = pe->p;
    struct zbc_err err = {{0}};
    uint8_t (*loc)[32] = malloc(g->n_locator * 32);
    if (loc == NULL)
        return true;
    for (size_t i = 0; i < g->n_locator; i++)
        memcpy(loc[i], g->locator[i].data, 32);
    uint32_t from = 0;
    int ok = zbc_chain_locate(p->chain, (const uint8_t (*)[32])loc,
                              g->n_locator, &from, &err);
    free(loc);
    if (!ok) {
        zbc_log_error("p2p: cannot answer %s's get_blocks: %s", pe->addr,
                      err.msg);
        return true;
    }
    uint32_t tip = zbc_chain_tip(p->chain)->height;
    ProtobufCBinaryData *raws = calloc(g->count, sizeof *raws);
    ProtobufCBinaryData *sets = calloc(g->count, sizeof *sets);
    if (raws == NULL || sets == NULL) {
        free(raws);
        free(sets);
        return true;
    }
    size_t n = 0, bytes = 0;
    for (uint32_t h = from + 1; h <= tip && n < g->count; h++) {
        uint8_t *b = NULL;
        size_t len = 0;
        if (zbc_chain_block(p->chain, h, &b, &len, &err) != ZBC_KV_FOUND) {
            zbc_log_error("p2p: cannot read block %u: %s", h, err.msg);
            break;
        }
        if (n > 0 && bytes + len > ZBC_P2P_BATCH_BYTES) {
            free(b);
            break;
        }
        if (p->fin != NULL)
            zbc_finality_stored_set(p->fin, h, &sets[n].data, &sets[n].len);
        raws[n++] = (ProtobufCBinaryData){len, b};
        bytes += len;
    }
    Zbc__P2p__Blocks bl = ZBC__P2P__BLOCKS__INIT;
    bl.raw = raws;
    bl.n_raw = n;
    bl.vote_set = sets;
    bl.n_vote_set = p->fin != NULL ? n : 0;
    zbc_p2p_msg m = ZBC__P2P__ENVELOPE__INIT;
    m.msg_case = ZBC__P2P__ENVELOPE__MSG_BLOCKS;
    m.blocks = &bl;
    bool alive = send_msg(pe, &m);
    for (size_t i = 0; i < n; i++) {
        free(raws[i].data);
        free(sets[i].data);
    }
    free(raws);
    free(sets);
    return alive;
}

/* The vote set a sync answer carries with its i-th block. */
static bool take_vote_set(struct peer *pe, const Zbc__P2p__Blocks *b,
                          size_t i)
{
    struct zbc_p2p *p = pe->p;
    if (p->fin == NULL || i >= b->n_vote_set || b->vote_set[i].len == 0)
        return true;
    struct zbc_err err = {{0}};
    if (zbc_finality_receive_set(p->fin, b->vote_set[i].data,
                                 b->vote_set[i].len, &err) !=
        ZBC_VOTE_RX_BAD)
        return true;
    char what[ZBC_ERR_MAX + 16];
    snprintf(what, sizeof what, "bad vote set: %s", err.msg);
    return misbehave(pe, ZBC_P2P_SCORE_BAD_VOTE, what);
}

static bool on_blocks(struct peer *pe, const Zbc__P2p__Blocks *b)
{
    struct zbc_p2p *p = pe->p;
    if (pe->requests_out == 0)
        return misbehave(pe, ZBC_P2P_SCORE_PROTOCOL, "blocks nobody asked for");
    pe->requests_out--;
    /* an answer after the timeout is still taken, but starts nothing */
    bool expected = pe->sync_pending && pe->requests_out == 0;
    pe->sync_pending = pe->requests_out > 0;
    uint8_t last[32];
    bool have_last = false;
    uint32_t before = zbc_chain_tip(p->chain)->height, n_fresh = 0;
    for (size_t i = 0; i < b->n_raw; i++) {
        bool fresh;
        struct zbc_recv_result r;
        if (!take_block(pe, &b->raw[i], true, &fresh, &r))
            return false;
        n_fresh += fresh;
        if (!take_vote_set(pe, b, i))
            return false;
        if (r.kind == ZBC_RECV_EXTENDED || r.kind == ZBC_RECV_SIDE ||
            (r.kind == ZBC_RECV_DUPLICATE &&
             zbc_chain_knows_block(p->chain, r.hash))) {
            memcpy(last, r.hash, 32);
            have_last = true;
        }
    }
    if (n_fresh > 0)
        zbc_log_info("p2p: sync batch from %s: %zu blocks, %u new, height %u "
                     "-> %u", pe->addr, b->n_raw, n_fresh, before,
                     zbc_chain_tip(p->chain)->height);
    if (!expected)
        return true;
    if (b->n_raw >= pe->sync_count && have_last)
        return request_blocks(pe, last); /* a full batch: more to come */
    zbc_log_debug("p2p: sync with %s done at height %u", pe->addr,
                  zbc_chain_tip(p->chain)->height);
    if (!zbc_chain_knows_block(p->chain, pe->tip))
        zbc_log_debug("p2p: %s's tip is still unknown after a sync (a final "
                      "fork, or it moved on)", pe->addr);
    pe->tip_unknown = false; /* asked again when it announces a new tip */
    update_status(p);
    return true;
}

static bool handle(struct peer *pe, const zbc_p2p_msg *m)
{
    if (!pe->handshaken && m->msg_case != ZBC__P2P__ENVELOPE__MSG_HELLO)
        return misbehave(pe, ZBC_P2P_SCORE_MALFORMED,
                         "a message before the handshake");
    switch (m->msg_case) {
    case ZBC__P2P__ENVELOPE__MSG_HELLO:
        return on_hello(pe, m->hello);
    case ZBC__P2P__ENVELOPE__MSG_TX:
        return on_tx(pe, m->tx);
    case ZBC__P2P__ENVELOPE__MSG_BLOCK:
        return on_block(pe, m->block);
    case ZBC__P2P__ENVELOPE__MSG_GET_BLOCKS:
        return on_get_blocks(pe, m->get_blocks);
    case ZBC__P2P__ENVELOPE__MSG_BLOCKS:
        return on_blocks(pe, m->blocks);
    case ZBC__P2P__ENVELOPE__MSG_PING:
        return send_ping(pe, true, m->ping->nonce) &&
               peer_tip(pe, m->ping->height, m->ping->tip_hash.data);
    case ZBC__P2P__ENVELOPE__MSG_PONG:
        return peer_tip(pe, m->pong->height, m->pong->tip_hash.data);
    case ZBC__P2P__ENVELOPE__MSG_VOTES:
        return on_votes(pe, m->votes);
    case ZBC__P2P__ENVELOPE__MSG__NOT_SET:
    case _ZBC__P2P__ENVELOPE__MSG__CASE_IS_INT_SIZE:
        break;
    }
    return misbehave(pe, ZBC_P2P_SCORE_MALFORMED, "a message of no kind");
}

/* ---- libevent callbacks ---- */

static void on_read(struct bufferevent *bev, void *arg)
{
    struct peer *pe = arg;
    struct evbuffer *in = bufferevent_get_input(bev);
    for (;;) {
        if (pe->doomed != NULL)
            return;
        size_t avail = evbuffer_get_length(in);
        uint8_t *head = evbuffer_pullup(in, avail < 4 ? (ssize_t)avail : 4);
        uint32_t n = 0;
        struct zbc_err err = {{0}};
        enum zbc_p2p_frame f = zbc_p2p_frame_check(head, avail, &n, &err);
        if (f == ZBC_P2P_FRAME_NEED_MORE)
            return;
        if (f == ZBC_P2P_FRAME_BAD) {
            if (misbehave(pe, ZBC_P2P_SCORE_MALFORMED, err.msg))
                peer_drop(pe, "unreadable stream");
            return;
        }
        uint8_t *frame = evbuffer_pullup(in, (ssize_t)n + 4);
        zbc_p2p_msg *m = NULL;
        int ok = zbc_p2p_decode(&m, frame + 4, n, &err);
        evbuffer_drain(in, (size_t)n + 4);
        if (!ok) {
            char what[ZBC_ERR_MAX + 32];
            snprintf(what, sizeof what, "malformed message: %s", err.msg);
            if (!misbehave(pe, ZBC_P2P_SCORE_MALFORMED, what))
                return;
            continue;
        }
        bool alive = handle(pe, m);
        zbc_p2p_msg_free(m);
        if (!alive)
            return;
    }
}

static void on_event(struct bufferevent *bev, short what, void *arg)
{
    (void)bev;
    struct peer *pe = arg;
    if (what & BEV_EVENT_CONNECTED) {
        pe->connected = true;
        zbc_log_debug("p2p: connected to %s", pe->addr);
        (void)send_hello(pe);
        return;
    }
    if (what & BEV_EVENT_EOF)
        peer_drop(pe, "closed by the peer");
    else if (what & (BEV_EVENT_ERROR | BEV_EVENT_TIMEOUT))
        peer_drop(pe, evutil_socket_error_to_string(
                          EVUTIL_SOCKET_ERROR()));
}

static struct peer *peer_new(struct zbc_p2p *p, evutil_socket_t fd,
                             const char *addr)
{
    struct peer *pe = calloc(1, sizeof *pe);
    if (pe == NULL)
        return NULL;
    pe->p = p;
    snprintf(pe->addr, sizeof pe->addr, "%s", addr);
    pe->bev = bufferevent_socket_new(p->base, fd, BEV_OPT_CLOSE_ON_FREE);
    if (pe->bev == NULL) {
        free(pe);
        return NULL;
    }
    bufferevent_setcb(pe->bev, on_read, NULL, on_event, pe);
    bufferevent_enable(pe->bev, EV_READ | EV_WRITE);
    pe->next = p->peers;
    p->peers = pe;
    p->n_peers++;
    return pe;
}

static void on_accept(struct evconnlistener *l, evutil_socket_t fd,
                      struct sockaddr *sa, int socklen, void *arg)
{
    (void)l;
    (void)socklen;
    struct zbc_p2p *p = arg;
    char addr[64] = "?";
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
        char ip[INET_ADDRSTRLEN];
        evutil_inet_ntop(AF_INET, &in->sin_addr, ip, sizeof ip);
        snprintf(addr, sizeof addr, "%s:%u", ip, ntohs(in->sin_port));
    }
    if (p->n_peers >= ZBC_P2P_MAX_PEERS) {
        zbc_log_warn("p2p: refused connection from %s: %u peers already",
                     addr, ZBC_P2P_MAX_PEERS);
        evutil_closesocket(fd);
        return;
    }
    struct peer *pe = peer_new(p, fd, addr);
    if (pe == NULL) {
        evutil_closesocket(fd);
        return;
    }
    pe->connected = true;
    (void)send_hello(pe);
}

static void dial(struct zbc_p2p *p, struct slot *s)
{
    char addr[300];
    snprintf(addr, sizeof addr, "%s:%u", s->host, s->port);
    struct peer *pe = peer_new(p, -1, addr);
    if (pe == NULL)
        return;
    pe->slot = s;
    s->peer = pe;
    struct evutil_addrinfo hints, *ai = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    char port[8];
    snprintf(port, sizeof port, "%u", s->port);
    if (evutil_getaddrinfo(s->host, port, &hints, &ai) != 0 || ai == NULL) {
        zbc_log_warn("p2p: cannot resolve peer %s", addr);
        peer_free(pe);
        return;
    }
    int rc = bufferevent_socket_connect(pe->bev, ai->ai_addr,
                                        (int)ai->ai_addrlen);
    evutil_freeaddrinfo(ai);
    if (rc != 0)
        peer_free(pe);
}

static void update_status(struct zbc_p2p *p)
{
    zbc_chain_set_net_status(p->chain, zbc_p2p_peer_count(p),
                             zbc_p2p_synced(p));
}

static void on_tick(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct zbc_p2p *p = arg;
    uint64_t now = p->now_ms();
    for (size_t i = 0; i < p->n_slots; i++) {
        struct slot *s = &p->slots[i];
        if (s->peer == NULL && !s->is_self && now >= s->next_try_ms)
            dial(p, s);
    }
    struct peer *pe = p->peers;
    while (pe != NULL) {
        struct peer *next = pe->next;
        if (pe->doomed != NULL) {
            peer_drop(pe, pe->doomed);
            goto next;
        }
        if (pe->handshaken) {
            if (pe->sync_pending &&
                now > pe->sync_sent_ms + ZBC_P2P_SYNC_TIMEOUT_MS) {
                zbc_log_warn("p2p: peer %s did not answer get_blocks in %u s",
                             pe->addr, ZBC_P2P_SYNC_TIMEOUT_MS / 1000);
                pe->sync_pending = false;
            }
            if (now >= pe->next_ping_ms) {
                pe->next_ping_ms = now + ZBC_P2P_PING_MS;
                if (!send_ping(pe, false, now))
                    goto next;
            }
            if (pe->tip_unknown && zbc_chain_knows_block(p->chain, pe->tip))
                pe->tip_unknown = false;
            if (pe->tip_unknown && !pe->sync_pending)
                (void)request_blocks(pe, NULL);
        }
    next:
        pe = next;
    }
    update_status(p);
}

/* ---- public ---- */

uint16_t zbc_p2p_listen_port(const struct zbc_p2p *p)
{
    return p->listen_port;
}

uint32_t zbc_p2p_peer_count(const struct zbc_p2p *p)
{
    uint32_t n = 0;
    for (const struct peer *a = p->peers; a != NULL; a = a->next) {
        if (!a->handshaken)
            continue;
        bool first = true;
        for (const struct peer *b = p->peers; b != a; b = b->next) {
            if (b->handshaken && memcmp(a->node_key, b->node_key, 32) == 0)
                first = false;
        }
        n += first;
    }
    return n;
}

bool zbc_p2p_synced(const struct zbc_p2p *p)
{
    /* Right after start, give the configured peers a moment to say where
     * they are before producing on what may be a stale tip. */
    if (p->now_ms() < p->started_ms + ZBC_P2P_STARTUP_GRACE_MS) {
        for (size_t i = 0; i < p->n_slots; i++) {
            const struct slot *s = &p->slots[i];
            if (!s->is_self && (s->peer == NULL || !s->peer->handshaken))
                return false;
        }
    }
    uint32_t height = zbc_chain_tip(p->chain)->height;
    for (const struct peer *a = p->peers; a != NULL; a = a->next) {
        if (!a->handshaken)
            continue;
        if (a->sync_pending)
            return false;
        if (a->tip_unknown && a->height >= height)
            return false;
    }
    return true;
}

int zbc_p2p_start(struct zbc_p2p **out, struct event_base *base,
                  struct zbc_chain *c, const struct zbc_p2p_config *cfg,
                  struct zbc_err *err)
{
    struct zbc_p2p *p = calloc(1, sizeof *p);
    if (p == NULL)
        return zbc_fail(err, "out of memory starting P2P");
    p->base = base;
    p->chain = c;
    p->now_ms = cfg->now_ms != NULL ? cfg->now_ms : zbc_wall_clock_ms;
    p->started_ms = p->now_ms();
    p->seen = calloc(ZBC_P2P_SEEN_CACHE, 32);
    p->slots = calloc(cfg->n_peers > 0 ? cfg->n_peers : 1, sizeof *p->slots);
    if (p->seen == NULL || p->slots == NULL) {
        zbc_p2p_stop(p);
        return zbc_fail(err, "out of memory starting P2P");
    }
    for (size_t i = 0; i < cfg->n_peers; i++) {
        struct slot *s = &p->slots[i];
        if (!zbc_api_parse_listen(s->host, sizeof s->host, &s->port,
                                  cfg->peers[i], err)) {
            zbc_p2p_stop(p);
            return zbc_fail_prefix(err, "--peer %s", cfg->peers[i]);
        }
        if (s->port == 0) {
            zbc_p2p_stop(p);
            return zbc_fail(err, "--peer %s: port 0 cannot be dialled",
                            cfg->peers[i]);
        }
    }
    p->n_slots = cfg->n_peers;
    if (cfg->listen != NULL) {
        char host[256];
        uint16_t port;
        if (!zbc_api_parse_listen(host, sizeof host, &port, cfg->listen,
                                  err)) {
            zbc_p2p_stop(p);
            return zbc_fail_prefix(err, "--p2p");
        }
        struct sockaddr_in sin;
        memset(&sin, 0, sizeof sin);
        sin.sin_family = AF_INET;
        sin.sin_port = htons(port);
        if (evutil_inet_pton(AF_INET, host, &sin.sin_addr) != 1) {
            struct evutil_addrinfo hints, *ai = NULL;
            memset(&hints, 0, sizeof hints);
            hints.ai_family = AF_INET;
            hints.ai_socktype = SOCK_STREAM;
            if (evutil_getaddrinfo(host, NULL, &hints, &ai) != 0 ||
                ai == NULL) {
                zbc_p2p_stop(p);
                return zbc_fail(err, "--p2p: cannot resolve host '%s'", host);
            }
            sin.sin_addr = ((struct sockaddr_in *)ai->ai_addr)->sin_addr;
            evutil_freeaddrinfo(ai);
        }
        p->listener = evconnlistener_new_bind(
            base, on_accept, p, LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE, -1,
            (struct sockaddr *)&sin, sizeof sin);
        if (p->listener == NULL) {
            zbc_p2p_stop(p);
            return zbc_fail(err, "cannot listen for peers on %s: %s",
                            cfg->listen,
                            evutil_socket_error_to_string(
                                EVUTIL_SOCKET_ERROR()));
        }
        struct sockaddr_in bound;
        socklen_t blen = sizeof bound;
        if (getsockname(evconnlistener_get_fd(p->listener),
                        (struct sockaddr *)&bound, &blen) == 0)
            port = ntohs(bound.sin_port);
        p->listen_port = port;
        zbc_log_info("p2p: listening on %s:%u", host, port);
    }
    p->tick = event_new(base, -1, EV_PERSIST, on_tick, p);
    struct timeval tv = {0, TICK_MS * 1000};
    if (p->tick == NULL || event_add(p->tick, &tv) != 0) {
        zbc_p2p_stop(p);
        return zbc_fail(err, "cannot start the P2P timer");
    }
    struct zbc_chain_listener l = {on_chain_tx, on_chain_block, p};
    zbc_chain_set_listener(c, &l);
    for (size_t i = 0; i < p->n_slots; i++)
        dial(p, &p->slots[i]);
    update_status(p);
    *out = p;
    return 1;
}

void zbc_p2p_stop(struct zbc_p2p *p)
{
    if (p == NULL)
        return;
    zbc_chain_set_listener(p->chain, NULL);
    while (p->peers != NULL) {
        struct peer *pe = p->peers;
        pe->handshaken = false; /* no status update while tearing down */
        peer_free(pe);
    }
    zbc_chain_set_net_status(p->chain, 0, true);
    if (p->tick != NULL)
        event_free(p->tick);
    if (p->listener != NULL)
        evconnlistener_free(p->listener);
    free(p->slots);
    free(p->seen);
    free(p);
}
