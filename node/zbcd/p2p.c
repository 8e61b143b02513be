#include "node/zbcd/p2p.h"

#include <arpa/inet.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/listener.h>
#include <event2/util.h>
#include <malloc.h>
#include <netinet/in.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "consensus/apply.h"
#include "consensus/fork_choice.h"
#include "crypto/bytes.h"
#include "crypto/hash.h"
#include "crypto/hex.h"
#include "node/zbcd/api.h"
#include "node/zbcd/finality.h"
#include "node/zbcd/log.h"
#include "node/zbcd/p2p_wire.h"
#include "node/zbcd/producer_loop.h"
#include "node/zbcd/seen_set.h"
#include "node/zbcd/tx_fetch.h"

#define TICK_MS 250u
/* Log lines a peer can cause: at most RL_BURST per RL_WINDOW_MS in each
 * category, then one line saying how many were left out. */
#define RL_WINDOW_MS 10000u
#define RL_BURST 20u
#define ZBC_P2P_TRIM_BYTES ((size_t)1 << 20)
/* A sync answer is applied in slices of about this long, with a return
 * to the event loop between them, in one ledger batch committed when the
 * answer is applied, or after ZBC_P2P_SYNC_COMMIT_MS when other peers'
 * answers keep it open (docs/p2p.md §5) */
#define ZBC_P2P_SYNC_SLICE_MS 50u
#define ZBC_P2P_SYNC_COMMIT_MS 2000u
/* One peer's frames are handled until about this long has passed, then
 * the rest waits for the event loop's next turn (docs/p2p.md §6 "Loop
 * turns"): a run of transaction answers (30 - 140 ms each under load)
 * no longer holds back this node's producer slot or another peer's
 * block. */
#define ZBC_P2P_READ_SLICE_MS 20u

struct slot;

struct peer;
static void rx_free(struct peer *pe);

/* A received message waiting in its peer's receive queue. */
struct rx_item {
    zbc_p2p_msg *m;
    size_t len;        /* its frame's bytes */
    uint64_t begun_ms; /* the frame began to arrive */
    struct rx_item *next;
};

/* A peer's vote-set requests (docs/p2p.md §13): the ones it sends us
 * (a token bucket) and ours to it (one at a time). */
struct vs_state {
    uint32_t tokens;          /* GetVoteSets answers it may get now */
    uint64_t refill_ms;       /* 0: the bucket is not started (full) */
    bool pending;             /* our GetVoteSets waits for its answer */
    uint32_t from, count;     /* ... and the range it asked */
    uint32_t next_from;       /* continue there (0: above the final block) */
    uint64_t next_ms;         /* not before (pacing, retry) */
};

struct peer {
    struct zbc_p2p *p;
    struct bufferevent *bev;
    char addr[300];           /* for logs: "host:port" */
    uint32_t ip;              /* remote IPv4, network order; 0: unknown */
    struct slot *slot;        /* outbound: the configured peer; else NULL */
    bool connected;
    bool sent_hello;          /* our Hello is out: the rest goes sealed */
    bool got_hello;           /* its Hello came: every later frame sealed */
    bool handshaken;          /* its Auth proved node_key */
    bool validator;           /* node_key is a genesis validator's */
    const char *doomed;       /* set: dropped at the next tick (why) */
    uint8_t node_key[32];     /* claimed in Hello; believed after Auth */
    uint8_t kx_pk[32], kx_sk[32]; /* this side's fresh key for this link */
    uint8_t peer_kx[32];
    uint8_t rx_key[32], tx_key[32];
    uint64_t rx_n, tx_n;      /* sealed frames opened / sealed */
    uint32_t hello_height;    /* Hello's claim, acted on after Auth */
    uint8_t hello_tip[32];
    uint32_t height;          /* last announced */
    uint8_t tip[32];
    bool tip_unknown;         /* announced tip not known here (sync) */
    uint8_t failed_tip[32];   /* a claimed tip a sync did not deliver */
    /* that claim, delivered by no block, waiting for the peer's next tip
     * (sync_round_over, undelivered_judge) */
    bool undeliv_pending;
    uint8_t undeliv_tip[32];
    uint32_t undeliv_height;
    uint64_t undeliv_by_ms;
    int score;
    bool sync_pending;
    uint64_t sync_sent_ms;
    uint32_t sync_count;
    uint32_t sync_given;      /* blocks this sync round gave (any that
                               * were not invalid: new, known, or not
                               * stored for a local reason) */
    uint32_t requests_out;    /* GetBlocks sent minus Blocks received */
    uint64_t opened_ms;       /* connection start: handshake deadline */
    uint64_t last_rx_ms;      /* last complete frame */
    uint64_t partial_ms;      /* a frame begun at; 0: none */
    uint64_t frame_begun_ms;  /* the frame being handled was begun at */
    /* the receive queue (rx_fill): decoded messages waiting to be
     * handled, blocks first; rxq_bytes counts their frames */
    struct rx_item *rxb_head, *rxb_tail, *rxo_head, *rxo_tail;
    size_t rxq_bytes;
    bool rx_bad_set, rx_bad_first; /* a frame that did not open, after
                                    * the queued ones */
    char rx_bad[ZBC_ERR_MAX + 32];
    uint64_t next_ping_ms;
    uint32_t gb_tokens;       /* GetBlocks answers it may get now */
    uint64_t gb_refill_ms;
    Zbc__P2p__GetBlocks *deferred; /* a GetBlocks waiting for a token */
    zbc_p2p_msg *deferred_msg;     /* ... and the envelope holding it */
    /* transaction gossip (docs/p2p.md §4), set up at the handshake */
    uint64_t id;              /* its name in p->txf, never 0 */
    struct zbc_seen *known;   /* tx hashes it has: announced or sent by
                               * it, or announced to it */
    uint8_t (*inv_out)[32];   /* announcements waiting for the timer */
    size_t n_inv;
    uint64_t inv_sent_ms;     /* when the last TxInv went out */
    uint8_t (*ask_out)[32];   /* requests being gathered into a GetTxs */
    size_t n_ask;
    uint8_t (*later)[32];     /* its announcements not asked yet (it or
                               * the table at the limit), FIFO ring */
    uint32_t later_head, later_n;
    struct zbc_seen *offered; /* tx hashes announced to it, not yet sent
                               * to it: what its GetTxs may get */
    struct zbc_seen *sent;    /* tx hashes sent to it */
    struct zbc_seen *asked;    /* tx hashes ever asked from it */
    uint32_t unoffered;       /* hashes it asked that were not offered */
    uint32_t repeated;        /* ... that were sent to it already */
    uint32_t inflight;        /* hashes in p->txf asked from it */
    uint32_t undelivered;     /* ... it left out of its answers, and
                               * this node did not know the grace time
                               * after (judge_omitted) */
    int undelivered_points;   /* score owed for them (on_gossip) */
    struct omitted {          /* hashes it left out, judged at `due`: */
        uint8_t h[32];        /* ring of ZBC_P2P_PEER_OMITTED, allocated */
        uint64_t due;         /* at its first omission */
    } *omit;
    uint32_t omit_head, omit_n;
    uint64_t delivered;       /* transactions asked from it that it sent */
    uint32_t n_sent;          /* transactions sent to it (GetTxs answers):
                               * as many repeats are free */
    uint64_t txreq_ms[ZBC_P2P_TX_REQS_PEER]; /* unanswered GetTxs, FIFO: */
    uint32_t txreq_count[ZBC_P2P_TX_REQS_PEER]; /* sent at, hashes asked */
    uint32_t txreq_head, txreq_n;
    uint32_t txreq_sent;      /* GetTxs sent: the next one's number */
    uint64_t txs_progress_ms; /* its last Txs answer, or the last stall
                               * scored */
    struct vs_state vs;       /* vote-set requests, both ways (§13) */
    /* a Blocks answer being applied slice by slice (sync_slice); reading
     * from the peer waits until it is done */
    zbc_p2p_msg *batch;            /* NULL: none */
    struct event *batch_ev;
    size_t batch_next;             /* its next block */
    bool batch_expected, batch_have_last;
    uint32_t batch_before, batch_fresh;
    uint8_t batch_last[32];
    struct peer *next;
};

/* A pooled transaction to announce again at `due` unless included
 * (docs/p2p.md §4 "Re-announce"). */
struct reann {
    uint8_t h[32];
    uint64_t due;
    uint32_t times;           /* re-announcements done */
};

struct slot {
    char host[256];
    uint16_t port;
    struct peer *peer;        /* current connection, NULL when none */
    uint64_t next_try_ms;
    uint32_t backoff_ms;
    bool is_self;             /* dialled ourselves: never again */
};

/* What this node remembers of a node key or an IPv4 address: its
 * misbehaviour score (decaying) and its ban (docs/p2p.md §6). */
struct rep {
    uint8_t id[32];           /* node key, or the address in id[0..4) */
    bool is_addr;
    bool used;
    int score;
    uint32_t bans;            /* bans so far: each next one is twice as long */
    uint64_t until_ms;        /* banned until */
    uint64_t seen_ms;         /* last change: decay and eviction */
};

struct ratelimit {
    uint64_t window_ms;
    uint32_t lines;
    uint32_t dropped;
};

struct zbc_p2p {
    struct event_base *base;
    struct zbc_chain *chain;
    const struct zbc_node_key *key;
    struct zbc_finality *fin; /* NULL: votes are not taken */
    uint64_t (*now_ms)(void);
    struct evconnlistener *listener;
    uint16_t listen_port;
    struct slot *slots;
    size_t n_slots;
    struct peer *peers;       /* newest first */
    size_t n_peers;
    struct zbc_p2p_bans *bans; /* ZBC_P2P_REP_MAX keys and addresses */
    struct zbc_seen *seen;    /* recently seen tx/block hashes */
    struct zbc_txf *txf;      /* transaction requests in flight */
    struct reann *reann;      /* ring of ZBC_P2P_REANNOUNCE_TRACK, due
                               * times in order */
    uint32_t reann_head, reann_n;
    struct event *gossip;     /* every ZBC_P2P_INV_MS: announcements */
    uint64_t next_peer_id;
    uint64_t next_expire_ms, next_stats_ms;
    struct zbc_p2p_gossip_stats stats;
    uint64_t stats_logged;    /* stats.all_msgs when last logged */
    struct event *tick;
    uint64_t started_ms;
    uint64_t alone_since_ms;  /* no proven peer since; 0: has peers */
    uint64_t behind_since_ms; /* not synced (a sync or a claim) since, or
                               * since the last best-chain block a sync
                               * gave; 0: synced */
    bool sole_validator;      /* the genesis names this node alone */
    size_t max_output, output_cap, input_cap; /* zbc_p2p_config */
    struct ratelimit rl_peer, rl_conn;
    struct event *accept_backoff; /* ends a pause of the listener */
    uint64_t batch_since_ms;  /* the open ledger batch began (sync_slice) */
    bool in_slice;            /* sync_slice is applying blocks */
    bool accept_paused;
    struct zbc_log_limit log_accept;
};

/* ---- small helpers ---- */

static void hex16(char out[17], const uint8_t *b)
{
    char full[65];
    zbc_hex_encode(full, b, 32);
    memcpy(out, full, 16);
    out[16] = '\0';
}

/* A log line a peer can cause, rate-limited per category. */
__attribute__((format(printf, 4, 5))) static void
plog(struct zbc_p2p *p, struct ratelimit *r, enum zbc_log_level level,
     const char *fmt, ...)
{
    if (level < zbc_log_get_level())
        return;
    uint64_t now = p->now_ms();
    if (now >= r->window_ms + RL_WINDOW_MS) {
        if (r->dropped > 0)
            zbc_log_warn("p2p: %u similar log lines left out in %u s",
                         r->dropped, RL_WINDOW_MS / 1000);
        r->window_ms = now;
        r->lines = 0;
        r->dropped = 0;
    }
    if (r->lines >= RL_BURST) {
        r->dropped++;
        return;
    }
    r->lines++;
    char line[ZBC_ERR_MAX + 400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    zbc_log(level, "%s", line);
}

/* ---- reputation: scores and bans by key and by address ---- */

struct zbc_p2p_bans {
    struct rep *e;
    size_t cap;
};

struct zbc_p2p_bans *zbc_p2p_bans_new(size_t cap)
{
    struct zbc_p2p_bans *b = calloc(1, sizeof *b);
    if (b == NULL)
        return NULL;
    b->e = calloc(cap > 0 ? cap : 1, sizeof *b->e);
    if (b->e == NULL) {
        free(b);
        return NULL;
    }
    b->cap = cap > 0 ? cap : 1;
    return b;
}

void zbc_p2p_bans_free(struct zbc_p2p_bans *b)
{
    if (b == NULL)
        return;
    free(b->e);
    free(b);
}

static void rep_id_addr(uint8_t id[32], uint32_t ip)
{
    memset(id, 0, 32);
    memcpy(id, &ip, 4);
}

static void rep_decay(struct rep *r, uint64_t now)
{
    if (now > r->seen_ms) {
        uint64_t d = (now - r->seen_ms) / ZBC_P2P_SCORE_DECAY_MS;
        r->score = d >= (uint64_t)r->score ? 0 : r->score - (int)d;
        r->seen_ms += d * ZBC_P2P_SCORE_DECAY_MS;
    }
}

static struct rep *rep_find(struct zbc_p2p_bans *b, bool is_addr,
                            const uint8_t id[32], uint64_t now)
{
    for (size_t i = 0; i < b->cap; i++) {
        struct rep *r = &b->e[i];
        if (r->used && r->is_addr == is_addr && memcmp(r->id, id, 32) == 0) {
            rep_decay(r, now);
            return r;
        }
    }
    return NULL;
}

/* The entry for id, made when missing.  A full table gives up the entry
 * that matters least: one not banned with the oldest activity, or when
 * every entry is banned, the ban that ends first. */
static struct rep *rep_get(struct zbc_p2p_bans *b, bool is_addr,
                           const uint8_t id[32], uint64_t now)
{
    struct rep *r = rep_find(b, is_addr, id, now);
    if (r != NULL)
        return r;
    struct rep *free_e = NULL, *idle = NULL, *ending = NULL;
    for (size_t i = 0; i < b->cap && free_e == NULL; i++) {
        struct rep *e = &b->e[i];
        if (!e->used) {
            free_e = e;
        } else if (e->until_ms <= now) {
            if (idle == NULL || e->seen_ms < idle->seen_ms)
                idle = e;
        } else if (ending == NULL || e->until_ms < ending->until_ms) {
            ending = e;
        }
    }
    r = free_e != NULL ? free_e : idle != NULL ? idle : ending;
    memset(r, 0, sizeof *r);
    r->used = true;
    r->is_addr = is_addr;
    memcpy(r->id, id, 32);
    r->seen_ms = now;
    return r;
}

uint64_t zbc_p2p_bans_until(struct zbc_p2p_bans *b, bool is_addr,
                            const uint8_t id[32], uint64_t now)
{
    struct rep *r = rep_find(b, is_addr, id, now);
    return r != NULL && now < r->until_ms ? r->until_ms : 0;
}

static uint64_t ban_length(uint32_t bans)
{
    uint64_t ms = ZBC_P2P_BAN_MS;
    for (uint32_t i = 1; i < bans && ms < ZBC_P2P_BAN_MAX_MS; i++)
        ms *= 2;
    return ms < ZBC_P2P_BAN_MAX_MS ? ms : ZBC_P2P_BAN_MAX_MS;
}

static bool rep_add(struct rep *r, int score, bool force, uint64_t now)
{
    r->score += score;
    r->seen_ms = now;
    if ((r->score < ZBC_P2P_BAN_SCORE && !force) || now < r->until_ms)
        return false;
    r->bans++;
    r->until_ms = now + ban_length(r->bans);
    r->score = 0;
    return true;
}

bool zbc_p2p_bans_add(struct zbc_p2p_bans *b, bool is_addr,
                      const uint8_t id[32], int score, bool force,
                      uint64_t now)
{
    return rep_add(rep_get(b, is_addr, id, now), score, force, now);
}

static bool key_is_validator(const struct zbc_p2p *p, const uint8_t key[32])
{
    return zbc_genesis_is_validator(zbc_chain_genesis(p->chain), key);
}

/* ---- the ledger batch of sync answers (sync_slice) ---- */

static uint64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

enum batch_state { BATCH_NONE, BATCH_IN, BATCH_LOST };

/* Before a slice: resume the open batch or begin one.  BATCH_LOST: a
 * commit of the open batch failed meanwhile (the chain went back to the
 * ledger's tip); BATCH_NONE: the blocks are stored one by one. */
static enum batch_state batch_enter(struct zbc_p2p *p, const char *addr)
{
    struct zbc_err err = {{0}};
    if (zbc_chain_in_batch(p->chain)) {
        if (zbc_chain_batch_resume(p->chain, &err))
            return BATCH_IN;
        zbc_log_ratelimited("p2p-not-stored", ZBC_LOG_PERIOD_MS,
                            ZBC_LOG_ERROR, "p2p: block from %s not stored: "
                            "%s", addr, err.msg);
        return BATCH_LOST;
    }
    if (zbc_chain_batch_begin(p->chain, &err)) {
        p->batch_since_ms = mono_ms();
        return BATCH_IN;
    }
    zbc_log_ratelimited("p2p-batch", ZBC_LOG_PERIOD_MS, ZBC_LOG_WARN,
                        "p2p: sync blocks from %s stored one by one: %s", addr,
                        err.msg);
    return BATCH_NONE;
}

/* After a slice: the batch is committed when `commit` (its answer is
 * applied) or when it is older than ZBC_P2P_SYNC_COMMIT_MS, else paused
 * for the event loop.  False: the commit failed (the chain went back to
 * the ledger's tip). */
static bool batch_leave(struct zbc_p2p *p, bool commit, const char *addr)
{
    if (!zbc_chain_in_batch(p->chain))
        return true;
    if (!commit && mono_ms() - p->batch_since_ms < ZBC_P2P_SYNC_COMMIT_MS) {
        zbc_chain_batch_pause(p->chain);
        return true;
    }
    struct zbc_err err = {{0}};
    if (zbc_chain_batch_end(p->chain, &err))
        return true;
    zbc_log_ratelimited("p2p-not-stored", ZBC_LOG_PERIOD_MS, ZBC_LOG_ERROR,
                        "p2p: block from %s not stored: %s", addr, err.msg);
    return false;
}

/* ---- peers ---- */

/* A GetBlocks of ours is out, or its answer is being applied. */
static bool syncing(const struct peer *pe)
{
    return pe->sync_pending || pe->batch != NULL;
}

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
        uint64_t until = pe->handshaken ? zbc_p2p_bans_until(
                                              p->bans, false, pe->node_key, now)
                                        : 0;
        if (s->next_try_ms < until)
            s->next_try_ms = until;
    }
    /* a peer that held megabytes: give them back to the system, not
     * only to the heap (libevent buffers come in many small chains) */
    bool big = false;
    if (pe->bev != NULL) {
        /* libevent frees the bufferevent later (finalizers): drop the
         * buffered bytes now */
        struct evbuffer *in = bufferevent_get_input(pe->bev);
        struct evbuffer *out = bufferevent_get_output(pe->bev);
        big = evbuffer_get_length(in) + evbuffer_get_length(out) >
              ZBC_P2P_TRIM_BYTES;
        evbuffer_drain(in, evbuffer_get_length(in));
        evbuffer_drain(out, evbuffer_get_length(out));
        bufferevent_free(pe->bev);
    }
    zbc_p2p_msg_free(pe->deferred_msg);
    rx_free(pe);
    if (pe->id != 0)
        zbc_txf_peer_gone(p->txf, pe->id);
    zbc_seen_free(pe->known);
    zbc_seen_free(pe->offered);
    zbc_seen_free(pe->sent);
    zbc_seen_free(pe->asked);
    free(pe->inv_out);
    free(pe->ask_out);
    free(pe->omit);
    if (pe->batch_ev != NULL)
        event_free(pe->batch_ev);
    if (pe->batch != NULL && !p->in_slice)
        batch_leave(p, true, pe->addr); /* what it gave is applied */
    zbc_p2p_msg_free(pe->batch);
    free(pe->later);
    if (big)
        malloc_trim(0);
    bool was = pe->handshaken;
    sodium_memzero(pe, sizeof *pe);
    free(pe);
    if (was)
        update_status(p);
}

static void peer_drop(struct peer *pe, const char *why)
{
    struct zbc_p2p *p = pe->p;
    if (pe->handshaken)
        plog(p, &p->rl_peer, ZBC_LOG_INFO, "p2p: peer %s disconnected: %s",
             pe->addr, why);
    else
        zbc_log_debug("p2p: connection %s closed: %s", pe->addr, why);
    peer_free(pe);
}

/* Adds to the connection's score and to the score kept across
 * connections by its proven key or, before the proof, by its address; at
 * the threshold that key or address is banned and the connection
 * dropped.  Returns false when the peer is gone. */
static bool misbehave(struct peer *pe, int score, const char *what)
{
    struct zbc_p2p *p = pe->p;
    uint64_t now = p->now_ms();
    pe->score += score;
    plog(p, &p->rl_peer, ZBC_LOG_WARN,
         "p2p: peer %s misbehaved (+%d, score %d): %s", pe->addr, score,
         pe->score, what);
    bool gone = pe->score >= ZBC_P2P_BAN_SCORE;
    if (pe->handshaken) {
        struct rep *r = rep_get(p->bans, false, pe->node_key, now);
        if (rep_add(r, score, gone, now)) {
            char k[17];
            hex16(k, pe->node_key);
            plog(p, &p->rl_peer, ZBC_LOG_WARN,
                 "p2p: banning node %s... for %llu s", k,
                 (unsigned long long)((r->until_ms - now) / 1000));
        }
        gone = gone || now < r->until_ms;
    }
    if (!pe->handshaken && pe->ip != 0) {
        /* unproven: the address takes the blame, no key does */
        uint8_t id[32];
        rep_id_addr(id, pe->ip);
        struct rep *r = rep_get(p->bans, true, id, now);
        if (rep_add(r, score, false, now))
            plog(p, &p->rl_peer, ZBC_LOG_WARN,
                 "p2p: banning address of %s for %llu s (keys that are not "
                 "validators' are refused from it)", pe->addr,
                 (unsigned long long)((r->until_ms - now) / 1000));
    }
    if (!gone)
        return true;
    peer_drop(pe, "banned");
    return false;
}

static size_t out_len(const struct peer *pe)
{
    return evbuffer_get_length(bufferevent_get_output(pe->bev));
}

static size_t in_len(const struct peer *pe)
{
    return evbuffer_get_length(bufferevent_get_input(pe->bev)) +
           pe->rxq_bytes;
}

/* The global caps (docs/p2p.md §6): when all send queues, or all partial
 * input, pass their cap, the peer holding most is dropped. */
static void check_caps(struct zbc_p2p *p)
{
    for (;;) {
        size_t tot_out = 0, tot_in = 0, max_out = 0, max_in = 0;
        struct peer *big_out = NULL, *big_in = NULL;
        for (struct peer *pe = p->peers; pe != NULL; pe = pe->next) {
            if (pe->doomed != NULL)
                continue;
            size_t o = out_len(pe), i = in_len(pe);
            tot_out += o;
            tot_in += i;
            if (o > max_out) {
                max_out = o;
                big_out = pe;
            }
            if (i > max_in) {
                max_in = i;
                big_in = pe;
            }
        }
        if (tot_out > p->output_cap && big_out != NULL)
            big_out->doomed = "the send queues of all peers are full; it "
                              "holds the most";
        else if (tot_in > p->input_cap && big_in != NULL)
            big_in->doomed = "the unfinished frames of all peers pass their "
                             "cap; it holds the most";
        else
            return;
    }
}

static void count_sent(struct zbc_p2p *p, const zbc_p2p_msg *m, size_t len)
{
    p->stats.all_msgs++;
    p->stats.all_bytes += len;
    switch (m->msg_case) {
    case ZBC__P2P__ENVELOPE__MSG_TX:
    case ZBC__P2P__ENVELOPE__MSG_TX_INV:
    case ZBC__P2P__ENVELOPE__MSG_GET_TXS:
    case ZBC__P2P__ENVELOPE__MSG_TXS:
        p->stats.tx_msgs++;
        p->stats.tx_bytes += len;
        break;
    default:
        break;
    }
}

static bool send_msg(struct peer *pe, const zbc_p2p_msg *m)
{
    uint8_t *buf = NULL;
    size_t len = 0;
    struct zbc_err err = {{0}};
    if (pe->doomed != NULL)
        return false;
    /* Only Hello goes out plain; everything after it is sealed. */
    bool sealed = m->msg_case != ZBC__P2P__ENVELOPE__MSG_HELLO;
    if (sealed && !pe->got_hello) {
        zbc_log_error("p2p: %s not sent to %s: no session key yet",
                      zbc_p2p_msg_name(m), pe->addr);
        return true;
    }
    int ok = sealed ? zbc_p2p_seal(m, pe->tx_key, pe->tx_n, &buf, &len, &err)
                    : zbc_p2p_encode(m, &buf, &len, &err);
    if (!ok) {
        zbc_log_warn("p2p: %s not sent to %s: %s", zbc_p2p_msg_name(m),
                     pe->addr, err.msg);
        return true;
    }
    if (sealed)
        pe->tx_n++;
    /* Never freed here: a send can happen while another callback of the
     * same peer is on the stack (gossip from inside its own message). */
    count_sent(pe->p, m, len);
    if (out_len(pe) + len > pe->p->max_output)
        pe->doomed = "it does not read what is sent to it";
    else if (bufferevent_write(pe->bev, buf, len) != 0)
        pe->doomed = "write failed";
    free(buf);
    if (pe->doomed == NULL)
        check_caps(pe->p);
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
    uint8_t tip[32];
    Zbc__P2p__Hello h = ZBC__P2P__HELLO__INIT;
    h.protocol_version = ZBC_P2P_PROTOCOL_VERSION;
    h.genesis_hash.data = (uint8_t *)zbc_chain_genesis(p->chain)->hash;
    h.genesis_hash.len = 32;
    h.node_key.data = (uint8_t *)p->key->pk;
    h.node_key.len = 32;
    tip_fields(p, &h.height, tip);
    h.tip_hash.data = tip;
    h.tip_hash.len = 32;
    h.listen_port = p->listen_port;
    h.kx_key.data = pe->kx_pk;
    h.kx_key.len = 32;
    zbc_p2p_msg m = ZBC__P2P__ENVELOPE__INIT;
    m.msg_case = ZBC__P2P__ENVELOPE__MSG_HELLO;
    m.hello = &h;
    pe->sent_hello = true;
    return send_msg(pe, &m);
}

static bool send_auth(struct peer *pe)
{
    struct zbc_p2p *p = pe->p;
    uint8_t digest[32], sig[64];
    zbc_p2p_auth_digest(digest, zbc_chain_genesis(p->chain)->hash,
                        p->key->pk, pe->kx_pk, pe->node_key, pe->peer_kx);
    crypto_sign_detached(sig, NULL, digest, 32, p->key->sk);
    Zbc__P2p__Auth a = ZBC__P2P__AUTH__INIT;
    a.signature = (ProtobufCBinaryData){64, sig};
    zbc_p2p_msg m = ZBC__P2P__ENVELOPE__INIT;
    m.msg_case = ZBC__P2P__ENVELOPE__MSG_AUTH;
    m.auth = &a;
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
    else
        pe->sync_given = 0; /* a new round */
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

/* A proven peer told us its tip: sync when we do not know it.  A tip it
 * claimed before and a sync did not deliver is not asked for again. */
static bool undelivered_judge(struct peer *pe, const uint8_t tip[32]);
static bool peer_tip(struct peer *pe, uint32_t height, const uint8_t tip[32])
{
    if (!undelivered_judge(pe, tip))
        return false;
    bool changed = memcmp(pe->tip, tip, 32) != 0;
    pe->height = height;
    memcpy(pe->tip, tip, 32);
    if (zbc_chain_knows_block(pe->p->chain, tip) ||
        memcmp(tip, pe->failed_tip, 32) == 0) {
        pe->tip_unknown = false;
        update_status(pe->p);
        return true;
    }
    if (changed)
        pe->tip_unknown = true;
    update_status(pe->p);
    if (pe->tip_unknown && !syncing(pe))
        return request_blocks(pe, NULL);
    return true;
}

/* ---- transaction gossip by announcement and request (docs/p2p.md §4) ---- */

static void log_stats(struct zbc_p2p *p)
{
    const struct zbc_p2p_gossip_stats *s = &p->stats;
    double n = s->txs_admitted > 0 ? (double)s->txs_admitted : 1.0;
    p->stats_logged = s->all_msgs;
    zbc_log_info("p2p: gossip since start: %llu transactions admitted; sent "
                 "%llu tx frames and %llu tx bytes (%.2f frames, %.0f bytes "
                 "per transaction; %llu hashes announced, %llu asked, %llu "
                 "transactions sent), %llu frames and %llu bytes in all; "
                 "%llu asked hashes not delivered (%llu left out but known "
                 "here later: not scored), %llu unasked transactions "
                 "received; %llu announcements past a full later-ring, %llu "
                 "asked hashes not announced to the asker; %llu "
                 "re-announced, %llu not tracked for it",
                 (unsigned long long)s->txs_admitted,
                 (unsigned long long)s->tx_msgs,
                 (unsigned long long)s->tx_bytes, (double)s->tx_msgs / n,
                 (double)s->tx_bytes / n, (unsigned long long)s->inv_hashes,
                 (unsigned long long)s->asked_hashes,
                 (unsigned long long)s->sent_txs,
                 (unsigned long long)s->all_msgs,
                 (unsigned long long)s->all_bytes,
                 (unsigned long long)s->undelivered,
                 (unsigned long long)s->excused,
                 (unsigned long long)s->unasked,
                 (unsigned long long)s->later_dropped,
                 (unsigned long long)s->unoffered,
                 (unsigned long long)s->reannounced,
                 (unsigned long long)s->reannounce_dropped);
}

void zbc_p2p_gossip_stats(const struct zbc_p2p *p,
                          struct zbc_p2p_gossip_stats *out)
{
    *out = p->stats;
}

/* Sets up a proven peer's gossip state; false when out of memory. */
static bool gossip_peer_init(struct peer *pe)
{
    pe->id = ++pe->p->next_peer_id;
    pe->known = zbc_seen_new(ZBC_P2P_PEER_KNOWN);
    pe->inv_out = malloc(ZBC_P2P_MAX_TX_HASHES * sizeof *pe->inv_out);
    pe->ask_out = malloc(ZBC_P2P_MAX_TX_HASHES * sizeof *pe->ask_out);
    pe->later = malloc(ZBC_P2P_TX_LATER_PEER * sizeof *pe->later);
    pe->offered = zbc_seen_new(ZBC_P2P_PEER_OFFERED);
    pe->sent = zbc_seen_new(ZBC_P2P_PEER_SENT);
    pe->asked = zbc_seen_new(ZBC_P2P_PEER_ASKED);
    return pe->known != NULL && pe->inv_out != NULL && pe->ask_out != NULL &&
           pe->later != NULL && pe->offered != NULL && pe->sent != NULL &&
           pe->asked != NULL;
}

static struct peer *peer_by_id(struct zbc_p2p *p, uint64_t id)
{
    for (struct peer *pe = p->peers; pe != NULL && id != 0; pe = pe->next)
        if (pe->id == id)
            return pe->doomed == NULL ? pe : NULL;
    return NULL;
}

/* One in-flight hash less for the peer it was asked from. */
static void inflight_down(struct zbc_p2p *p, uint64_t id)
{
    struct peer *pe = peer_by_id(p, id);
    if (pe != NULL && pe->inflight > 0)
        pe->inflight--;
}

/* A TxInv or GetTxs of the n hashes in hs. */
static bool send_hashes(struct peer *pe, bool inv, uint8_t (*hs)[32],
                        size_t n)
{
    ProtobufCBinaryData *v = malloc(n * sizeof *v);
    if (v == NULL)
        return true;
    struct zbc_p2p_hashes b;
    zbc_p2p_hashes_msg(&b, inv, v, (const uint8_t (*)[32])hs, n);
    if (inv)
        pe->p->stats.inv_hashes += n;
    else
        pe->p->stats.asked_hashes += n;
    bool alive = send_msg(pe, &b.m);
    free(v);
    return alive;
}

static void flush_inv(struct peer *pe, uint64_t now)
{
    if (pe->n_inv == 0)
        return;
    pe->inv_sent_ms = now;
    (void)send_hashes(pe, true, pe->inv_out, pe->n_inv);
    pe->n_inv = 0;
}

/* Sends the gathered requests as one GetTxs; its answer is awaited. */
static void flush_ask(struct peer *pe)
{
    if (pe->n_ask == 0)
        return;
    uint32_t tail = (pe->txreq_head + pe->txreq_n) % ZBC_P2P_TX_REQS_PEER;
    pe->txreq_ms[tail] = pe->p->now_ms();
    pe->txreq_count[tail] = (uint32_t)pe->n_ask;
    pe->txreq_n++;
    pe->txreq_sent++;
    (void)send_hashes(pe, false, pe->ask_out, pe->n_ask);
    pe->n_ask = 0;
}

/* Whether h may be asked from pe now: a proven peer below its in-flight
 * limit with room for one more unanswered GetTxs. */
static bool may_ask(const struct peer *pe)
{
    return pe->handshaken && pe->doomed == NULL && pe->ask_out != NULL &&
           pe->inflight < ZBC_P2P_TX_INFLIGHT_PEER &&
           pe->txreq_n < ZBC_P2P_TX_REQS_PEER;
}

_Static_assert(ZBC_P2P_ASK_BATCH >= 1 &&
                   ZBC_P2P_ASK_BATCH <= ZBC_P2P_MAX_TX_HASHES,
               "a GetTxs holds 1 to ZBC_P2P_MAX_TX_HASHES hashes");

static void queue_ask(struct peer *pe, const uint8_t h[32])
{
    zbc_seen_add(pe->asked, h);
    pe->inflight++;
    memcpy(pe->ask_out[pe->n_ask++], h, 32);
    if (pe->n_ask == ZBC_P2P_ASK_BATCH)
        flush_ask(pe);
}

/* Whether this node has transaction h (recently seen, or pooled). */
static bool have_tx(struct zbc_p2p *p, const uint8_t h[32])
{
    return zbc_seen_has(p->seen, h) ||
           zbc_chain_mempool_tx(p->chain, h, NULL, NULL);
}

/* The peer's kept announcements, oldest first, while it and the table
 * have room: asked (or the peer remembered as the next announcer); the
 * ones this node got meanwhile are dropped. */
static void ask_later(struct peer *pe, uint64_t now)
{
    struct zbc_p2p *p = pe->p;
    while (pe->later_n > 0 && may_ask(pe)) {
        const uint8_t *h = pe->later[pe->later_head];
        if (!have_tx(p, h)) {
            enum zbc_txf_ann r = zbc_txf_announced(p->txf, h, pe->id, true,
                                                   pe->txreq_sent, now);
            if (r == ZBC_TXF_LATER)
                break; /* the table is full: kept */
            if (r == ZBC_TXF_ASK)
                queue_ask(pe, h);
        }
        pe->later_head = (pe->later_head + 1) % ZBC_P2P_TX_LATER_PEER;
        pe->later_n--;
    }
    flush_ask(pe);
}

/* Announces h to pe (unless force, only when pe is not known to have
 * it): at once when no TxInv went to it in the last ZBC_P2P_INV_MS (a
 * quiet link adds no delay), else with the others at the next gossip
 * tick, or when the batch is full.  Its GetTxs may then get h once. */
static void announce(struct peer *pe, const uint8_t h[32], bool force,
                     uint64_t now)
{
    if (!pe->handshaken || pe->doomed != NULL || pe->inv_out == NULL ||
        (!force && zbc_seen_has(pe->known, h)))
        return;
    zbc_seen_add(pe->known, h);
    zbc_seen_add(pe->offered, h);
    memcpy(pe->inv_out[pe->n_inv++], h, 32);
    if (pe->n_inv == ZBC_P2P_MAX_TX_HASHES ||
        now >= pe->inv_sent_ms + ZBC_P2P_INV_MS)
        flush_inv(pe, now);
}

/* Tracks h for re-announcement at due; a full ring forgets its oldest. */
static void reann_push(struct zbc_p2p *p, const uint8_t h[32], uint64_t due,
                       uint32_t times)
{
    if (p->reann_n == ZBC_P2P_REANNOUNCE_TRACK) {
        p->reann_head = (p->reann_head + 1) % ZBC_P2P_REANNOUNCE_TRACK;
        p->reann_n--;
        p->stats.reannounce_dropped++;
    }
    struct reann *r =
        &p->reann[(p->reann_head + p->reann_n++) % ZBC_P2P_REANNOUNCE_TRACK];
    memcpy(r->h, h, 32);
    r->due = due;
    r->times = times;
}

/* Transactions still pooled ZBC_P2P_REANNOUNCE_MS after their admission
 * (or their last re-announcement) are announced again to every peer, even
 * one told before: it may have left the announcement aside at its limits,
 * and any producer must be able to include them.  At most
 * ZBC_P2P_REANNOUNCE_TIMES times each, ZBC_P2P_REANNOUNCE_BATCH per pass;
 * a peer that has one ignores the hash. */
static void reannounce(struct zbc_p2p *p, uint64_t now)
{
    uint32_t n = 0;
    while (p->reann_n > 0 && n < ZBC_P2P_REANNOUNCE_BATCH) {
        struct reann r = p->reann[p->reann_head];
        if (r.due > now)
            break;
        p->reann_head = (p->reann_head + 1) % ZBC_P2P_REANNOUNCE_TRACK;
        p->reann_n--;
        if (!zbc_chain_mempool_tx(p->chain, r.h, NULL, NULL))
            continue; /* included, or dropped from the pool */
        n++;
        p->stats.reannounced++;
        for (struct peer *pe = p->peers; pe != NULL; pe = pe->next)
            announce(pe, r.h, true, now);
        if (r.times + 1 < ZBC_P2P_REANNOUNCE_TIMES)
            reann_push(p, r.h, now + ZBC_P2P_REANNOUNCE_MS, r.times + 1);
    }
}

/* A transaction newly admitted here (the API, a peer, a reorg): announced
 * to every proven peer not known to have it, and tracked to be announced
 * again while it stays pooled (reannounce). */
static void on_chain_tx(void *arg, const uint8_t *raw, size_t len,
                        const uint8_t hash[32])
{
    (void)raw;
    (void)len;
    struct zbc_p2p *p = arg;
    zbc_seen_add(p->seen, hash);
    p->stats.txs_admitted++;
    uint64_t asked, now = p->now_ms();
    zbc_txf_done(p->txf, hash, &asked);
    inflight_down(p, asked);
    for (struct peer *pe = p->peers; pe != NULL; pe = pe->next)
        announce(pe, hash, false, now);
    reann_push(p, hash, now + ZBC_P2P_REANNOUNCE_MS, 0);
}

/* Whether this node knows transaction h: pooled, recently seen, in the
 * chain, or admitted here and dropped since (a ledger error counts as
 * known: no peer is blamed for a local failure). */
static bool known_here(struct zbc_p2p *p, const uint8_t h[32], uint64_t now)
{
    if (have_tx(p, h))
        return true;
    struct zbc_mempool_drop d;
    if (zbc_chain_dropped(p->chain, h, now, &d))
        return true;
    /* its status only: reading the block a confirmed one is in (all of
     * it, decoded) cost an overloaded node a tenth of its CPU here */
    struct zbc_tx_lookup l;
    struct zbc_err err = {{0}};
    if (!zbc_chain_tx_status(p->chain, h, &l, &err))
        return true;
    return l.status != ZBC_TX_STATUS_NOT_FOUND;
}

/* One hash the peer left out, judged: held against it (a point per
 * ZBC_P2P_UNDELIVERED_PER_POINT) only if this node still does not know
 * the transaction.  An honest peer leaves out what left its pool between
 * its announcement and the request, which a block brings here soon; a
 * peer announcing what it never had leaves out what nobody knows. */
static void judge_one(struct zbc_p2p *p, struct peer *pe, const uint8_t h[32],
                      uint64_t now)
{
    if (known_here(p, h, now)) {
        p->stats.excused++;
        return;
    }
    /* ... beyond a share of what it delivered: an overloaded honest peer
     * also leaves out transactions its full pool evicted or a block of
     * a branch this node has not seen included */
    pe->undelivered++;
    uint64_t free_n = (uint64_t)ZBC_P2P_OMIT_FREE_PER_DELIVERED *
                          pe->delivered + ZBC_P2P_OMIT_FREE;
    if (pe->undelivered > free_n &&
        (pe->undelivered - free_n) % ZBC_P2P_UNDELIVERED_PER_POINT == 0)
        pe->undelivered_points++;
}

/* The left-out hashes whose grace time is over (all of them: `all`). */
static void judge_omitted(struct zbc_p2p *p, struct peer *pe, uint64_t now,
                          bool all)
{
    while (pe->omit_n > 0 && (all || pe->omit[pe->omit_head].due <= now)) {
        judge_one(p, pe, pe->omit[pe->omit_head].h, now);
        pe->omit_head = (pe->omit_head + 1) % ZBC_P2P_PEER_OMITTED;
        pe->omit_n--;
    }
}

/* A request that did not bring the transaction: not in time (asked from
 * the next announcer; slowness is the GetTxs time-out's to score), or
 * left out of a small answer (omitted: judged after ZBC_P2P_OMIT_GRACE_MS,
 * judge_omitted). */
static void on_request_expired(void *arg, const uint8_t h[32], uint64_t id,
                               bool omitted)
{
    struct zbc_p2p *p = arg;
    p->stats.undelivered++;
    struct peer *pe = peer_by_id(p, id);
    if (pe == NULL)
        return;
    if (pe->inflight > 0)
        pe->inflight--;
    if (!omitted)
        return;
    uint64_t now = p->now_ms();
    if (pe->omit == NULL) {
        pe->omit = malloc(ZBC_P2P_PEER_OMITTED * sizeof *pe->omit);
        if (pe->omit == NULL) { /* no room to wait: judged now */
            judge_one(p, pe, h, now);
            return;
        }
    }
    if (pe->omit_n == ZBC_P2P_PEER_OMITTED) { /* full: the oldest now */
        judge_one(p, pe, pe->omit[pe->omit_head].h, now);
        pe->omit_head = (pe->omit_head + 1) % ZBC_P2P_PEER_OMITTED;
        pe->omit_n--;
    }
    struct omitted *o =
        &pe->omit[(pe->omit_head + pe->omit_n) % ZBC_P2P_PEER_OMITTED];
    memcpy(o->h, h, 32);
    o->due = now + ZBC_P2P_OMIT_GRACE_MS;
    pe->omit_n++;
}

static bool on_request_ask(void *arg, const uint8_t h[32], uint64_t id,
                           uint32_t *seq)
{
    struct peer *pe = peer_by_id(arg, id);
    if (pe == NULL || !may_ask(pe))
        return false;
    *seq = pe->txreq_sent;
    queue_ask(pe, h);
    return true;
}

/* The gossip timer: announcements out, overdue requests to the next
 * announcer, unanswered GetTxs and undelivered hashes scored. */
static void on_gossip(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct zbc_p2p *p = arg;
    uint64_t now = p->now_ms();
    for (struct peer *pe = p->peers; pe != NULL; pe = pe->next)
        if (pe->handshaken && pe->doomed == NULL)
            flush_inv(pe, now);
    if (now < p->next_expire_ms)
        return;
    p->next_expire_ms = now + TICK_MS;
    struct zbc_txf_cb cb = {on_request_expired, on_request_ask, p};
    zbc_txf_expire(p->txf, now, &cb);
    reannounce(p, now);
    struct peer *pe = p->peers;
    while (pe != NULL) {
        struct peer *next = pe->next;
        if (!pe->handshaken || pe->doomed != NULL)
            goto next;
        flush_ask(pe);
        judge_omitted(p, pe, now, false);
        if (pe->undelivered_points > 0) {
            char what2[120];
            snprintf(what2, sizeof what2, "%u announced transactions it left "
                     "out of its answers", pe->undelivered);
            int pts = pe->undelivered_points;
            pe->undelivered_points = 0;
            if (!misbehave(pe, pts, what2))
                goto next;
        }
        /* a stall is a whole time-out without progress: since the
         * oldest unanswered request, its last answer, or the last score
         * (each request's own age would score again at every answer of a
         * peer that answers in order but late) */
        uint64_t since = pe->txreq_n > 0 ? pe->txreq_ms[pe->txreq_head] : 0;
        if (pe->txs_progress_ms > since)
            since = pe->txs_progress_ms;
        if (pe->txreq_n > 0 && now >= since + ZBC_P2P_TXS_TIMEOUT_MS) {
            pe->txs_progress_ms = now; /* scored once per period */
            char what2[96];
            snprintf(what2, sizeof what2, "it did not answer get_txs in %u s",
                     ZBC_P2P_TXS_TIMEOUT_MS / 1000);
            if (!misbehave(pe, ZBC_P2P_SCORE_TX_STALL, what2))
                goto next;
        }
        ask_later(pe, now);
    next:
        pe = next;
    }
    if (now >= p->next_stats_ms) {
        p->next_stats_ms = now + ZBC_P2P_STATS_LOG_MS;
        if (p->stats.all_msgs != p->stats_logged)
            log_stats(p);
    }
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

/* Writes the peer's send queue to its socket now, without waiting, as
 * much as the socket takes (the bufferevent writes the rest at the
 * loop's next turn).  The bufferevent keeps its output's start frozen
 * between its own writes: bufferevent_sock.c unfreezes it the same way
 * around its write. */
static void flush_now(struct peer *pe)
{
    struct evbuffer *out = bufferevent_get_output(pe->bev);
    evutil_socket_t fd = bufferevent_getfd(pe->bev);
    if (fd < 0 || evbuffer_get_length(out) == 0)
        return;
    evbuffer_unfreeze(out, 1);
    (void)evbuffer_write(out, fd); /* an error: the bufferevent's to find */
    evbuffer_freeze(out, 1);
}

static void on_chain_block(void *arg, const uint8_t *bytes, size_t len,
                           const uint8_t hash[32], uint64_t timestamp_ms)
{
    struct zbc_p2p *p = arg;
    zbc_seen_add(p->seen, hash);
    if (timestamp_ms + ZBC_P2P_RELAY_AGE_MS < p->now_ms())
        return; /* history being synced: whoever needs it syncs too */
    Zbc__P2p__Block b = ZBC__P2P__BLOCK__INIT;
    b.raw = (ProtobufCBinaryData){len, (uint8_t *)bytes};
    zbc_p2p_msg m = ZBC__P2P__ENVELOPE__INIT;
    m.msg_case = ZBC__P2P__ENVELOPE__MSG_BLOCK;
    m.block = &b;
    broadcast(p, &m);
    /* onto the wire now, not at the loop's next turn: the next-ranked
     * validator's slot is one smith delay away (docs/p2p.md §4) */
    for (struct peer *q = p->peers; q != NULL; q = q->next)
        if (q->handshaken && q->doomed == NULL && q->bev != NULL)
            flush_now(q);
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

/* ---- the handshake (docs/p2p.md §3) ---- */

static bool refuse(struct peer *pe, const char *why)
{
    struct zbc_p2p *p = pe->p;
    plog(p, &p->rl_peer, ZBC_LOG_WARN, "p2p: refused peer %s: %s", pe->addr,
         why);
    peer_drop(pe, why);
    return false;
}

/* The peer's Hello: checked, remembered, not believed.  The answer is
 * this side's Auth, the first sealed frame. */
static bool on_hello(struct peer *pe, const Zbc__P2p__Hello *h)
{
    struct zbc_p2p *p = pe->p;
    if (h->protocol_version != ZBC_P2P_PROTOCOL_VERSION) {
        char why[96];
        snprintf(why, sizeof why, "protocol version %u, this node speaks %u",
                 h->protocol_version, ZBC_P2P_PROTOCOL_VERSION);
        return refuse(pe, why);
    }
    const uint8_t *ours = zbc_chain_genesis(p->chain)->hash;
    if (memcmp(h->genesis_hash.data, ours, 32) != 0) {
        char theirs[17], mine[17], why[96];
        hex16(theirs, h->genesis_hash.data);
        hex16(mine, ours);
        snprintf(why, sizeof why, "it is on another chain (genesis %s..., "
                 "ours %s...)", theirs, mine);
        return refuse(pe, why);
    }
    struct zbc_err err = {{0}};
    memcpy(pe->peer_kx, h->kx_key.data, 32);
    if (!zbc_p2p_session_keys(pe->rx_key, pe->tx_key, pe->kx_pk, pe->kx_sk,
                              pe->peer_kx, pe->slot != NULL, &err)) {
        misbehave(pe, ZBC_P2P_SCORE_MALFORMED, err.msg);
        return false;
    }
    memcpy(pe->node_key, h->node_key.data, 32);
    pe->hello_height = h->height;
    memcpy(pe->hello_tip, h->tip_hash.data, 32);
    pe->got_hello = true;
    /* the frames after Hello are sealed, up to 4 MiB */
    bufferevent_setwatermark(pe->bev, EV_READ, 0, 4 + ZBC_P2P_MAX_FRAME);
    if (!pe->sent_hello && !send_hello(pe))
        return false; /* its Hello came before our connect event */
    return send_auth(pe);
}

static size_t count_peers(const struct zbc_p2p *p, bool inbound,
                          bool unknown_only, const uint8_t *key)
{
    size_t n = 0;
    for (const struct peer *b = p->peers; b != NULL; b = b->next) {
        if (!b->handshaken || b->doomed != NULL)
            continue;
        if (key != NULL) {
            n += memcmp(b->node_key, key, 32) == 0;
            continue;
        }
        if ((b->slot == NULL) == inbound && !(unknown_only && b->validator))
            n++;
    }
    return n;
}

/* Room for a proven inbound peer (docs/p2p.md §6): a validator's key
 * always gets one (an unknown-key peer gives its slot up); other keys
 * share ZBC_P2P_MAX_INBOUND_UNKNOWN slots. */
static bool inbound_room(struct peer *pe)
{
    struct zbc_p2p *p = pe->p;
    size_t all = count_peers(p, true, false, NULL);
    size_t unknown = count_peers(p, true, true, NULL);
    if (!pe->validator)
        return unknown < ZBC_P2P_MAX_INBOUND_UNKNOWN &&
               all < ZBC_P2P_MAX_INBOUND;
    if (all < ZBC_P2P_MAX_INBOUND)
        return true;
    for (struct peer *b = p->peers; b != NULL; b = b->next) {
        if (b->handshaken && b->doomed == NULL && b->slot == NULL &&
            !b->validator) {
            b->doomed = "its slot went to a validator";
            return true;
        }
    }
    return false;
}

/* The peer's Auth: its signature over our fresh key proves node_key. */
static bool on_auth(struct peer *pe, const Zbc__P2p__Auth *a)
{
    struct zbc_p2p *p = pe->p;
    if (pe->handshaken)
        return misbehave(pe, ZBC_P2P_SCORE_PROTOCOL, "a second auth");
    uint8_t digest[32];
    zbc_p2p_auth_digest(digest, zbc_chain_genesis(p->chain)->hash,
                        pe->node_key, pe->peer_kx, p->key->pk, pe->kx_pk);
    if (crypto_sign_verify_detached(a->signature.data, digest, 32,
                                    pe->node_key) != 0) {
        char k[17], what[96];
        hex16(k, pe->node_key);
        snprintf(what, sizeof what, "its auth does not prove node key "
                 "%s... (wrong signature)", k);
        misbehave(pe, ZBC_P2P_SCORE_MALFORMED, what);
        return false;
    }
    if (memcmp(pe->node_key, p->key->pk, 32) == 0) {
        if (pe->slot != NULL)
            pe->slot->is_self = true;
        zbc_log_info("p2p: %s is this node itself; not dialling it again",
                     pe->addr);
        peer_drop(pe, "connected to itself");
        return false;
    }
    uint64_t now = p->now_ms();
    pe->validator = key_is_validator(p, pe->node_key);
    if (zbc_p2p_bans_until(p->bans, false, pe->node_key, now) != 0)
        return refuse(pe, "its node key is banned");
    uint8_t aid[32];
    rep_id_addr(aid, pe->ip);
    if (pe->ip != 0 && !pe->validator &&
        zbc_p2p_bans_until(p->bans, true, aid, now) != 0)
        return refuse(pe, "its address is banned");
    if (count_peers(p, false, false, pe->node_key) >= ZBC_P2P_MAX_PER_KEY)
        return refuse(pe, "its node key is connected already");
    if (pe->slot == NULL && !inbound_room(pe))
        return refuse(pe, pe->validator ? "no inbound slot left"
                                        : "no inbound slot left for a key "
                                          "that is not a validator's");
    if (!gossip_peer_init(pe))
        return refuse(pe, "out of memory for its gossip state");
    pe->handshaken = true;
    /* a proven peer's frames (blocks of hundreds of KiB) are written in
     * larger steps than libevent's 16 KiB; reading is rx_pull's (libevent
     * reads at most 4 - 16 KiB per event whatever the read limit says) */
    (void)bufferevent_set_max_single_read(pe->bev, ZBC_P2P_IO_STEP);
    (void)bufferevent_set_max_single_write(pe->bev, ZBC_P2P_IO_STEP);
    pe->next_ping_ms = now + ZBC_P2P_PING_MS;
    pe->gb_tokens = ZBC_P2P_GETBLOCKS_BURST;
    pe->gb_refill_ms = now;
    if (pe->slot != NULL)
        pe->slot->backoff_ms = 0;
    char k[17];
    hex16(k, pe->node_key);
    plog(p, &p->rl_peer, ZBC_LOG_INFO,
         "p2p: peer %s connected: node %s...%s height %u", pe->addr, k,
         pe->validator ? " (validator)" : "", pe->hello_height);
    if (p->fin != NULL)
        zbc_finality_each_vote(p->fin, send_vote_to, pe);
    return peer_tip(pe, pe->hello_height, pe->hello_tip);
}

/* Gossip de-duplication of a peer's transaction: true the first time
 * hash is offered (now marked seen), false after. */
static bool first_offer(struct zbc_p2p *p, const uint8_t hash[32])
{
    if (zbc_seen_has(p->seen, hash))
        return false;
    zbc_seen_add(p->seen, hash);
    return true;
}

/* The pooling of a frame's checked transactions items[from, to) (the
 * valid ones: one read snapshot of the tip for all); a stateful refusal is
 * not the peer's fault. */
static void pool_txs(struct peer *pe, struct zbc_submit *items, size_t from,
                     size_t to)
{
    if (to <= from)
        return;
    zbc_chain_submit_batch(pe->p->chain, items + from, to - from,
                           pe->p->now_ms());
    for (size_t i = from; i < to; i++)
        if (items[i].ok != 1)
            zbc_log_debug("p2p: transaction from %s not pooled: %s",
                          pe->addr, items[i].err.msg);
}

/* A peer's transactions to take (de-duplicated by first_offer), in frame
 * order: checked stateless through the signature cache, all together on
 * the verify pool's threads (zbc_chain_check_batch), then taken in order:
 * the valid ones offered to the mempool, an invalid one scored, the valid
 * ones before it pooled first; the result is the one-by-one result.  When the score drops the peer, the rest are not pooled
 * and leave the seen set (a later announcement of them is fetched).
 * Returns false when the peer is gone. */
static bool take_txs(struct peer *pe, struct zbc_submit *items, size_t n)
{
    struct zbc_p2p *p = pe->p;
    zbc_chain_check_batch(p->chain, items, n);
    size_t from = 0;
    for (size_t i = 0; i < n; i++) {
        if (items[i].ok == 1)
            continue;
        pool_txs(pe, items, from, i);
        from = i + 1;
        char what[ZBC_ERR_MAX + 32];
        snprintf(what, sizeof what, "invalid transaction: %s",
                 items[i].err.msg);
        if (!misbehave(pe, ZBC_P2P_SCORE_BAD_TX, what)) {
            for (size_t k = i + 1; k < n; k++)
                zbc_seen_forget(p->seen, items[k].hash);
            return false;
        }
    }
    pool_txs(pe, items, from, n);
    return true;
}

/* A transaction from a peer (Tx, or an entry of Txs when out of memory
 * for the frame's list) with its hash, SHA3-256(raw), computed by the
 * caller: a batch of one. */
static bool take_tx(struct peer *pe, const uint8_t *raw, size_t len,
                    const uint8_t hash[32])
{
    if (!first_offer(pe->p, hash))
        return true;
    struct zbc_submit it = {.raw = raw, .len = len, .hashed = true};
    memcpy(it.hash, hash, 32);
    return take_txs(pe, &it, 1);
}

/* A single transaction (kept for compatibility: this node announces). */
static bool on_tx(struct peer *pe, const Zbc__P2p__Tx *m)
{
    uint8_t hash[32];
    zbc_sha3_256(hash, m->raw.data, m->raw.len);
    zbc_seen_add(pe->known, hash);
    uint64_t asked;
    zbc_txf_done(pe->p->txf, hash, &asked);
    inflight_down(pe->p, asked);
    return take_tx(pe, m->raw.data, m->raw.len, hash);
}

/* Announced hashes: the ones this node does not have are asked from this
 * peer unless in flight from another (then it is the next to ask); past
 * the in-flight limits they are kept in the peer's ring of
 * ZBC_P2P_TX_LATER_PEER (a full ring drops the newest) and asked when room
 * frees (ask_later). */
static bool on_tx_inv(struct peer *pe, const Zbc__P2p__TxInv *m)
{
    struct zbc_p2p *p = pe->p;
    uint64_t now = p->now_ms();
    for (size_t i = 0; i < m->n_hash; i++) {
        const uint8_t *h = m->hash[i].data;
        zbc_seen_add(pe->known, h);
        if (have_tx(p, h))
            continue;
        switch (zbc_txf_announced(p->txf, h, pe->id, may_ask(pe),
                                  pe->txreq_sent, now)) {
        case ZBC_TXF_ASK:
            queue_ask(pe, h);
            break;
        case ZBC_TXF_LATER:
            if (pe->later_n < ZBC_P2P_TX_LATER_PEER) {
                uint32_t tail =
                    (pe->later_head + pe->later_n++) % ZBC_P2P_TX_LATER_PEER;
                memcpy(pe->later[tail], h, 32);
            } else {
                p->stats.later_dropped++;
            }
            break;
        case ZBC_TXF_WAIT:
        case ZBC_TXF_SKIP:
            break;
        }
    }
    flush_ask(pe);
    return pe->doomed == NULL;
}

/* Answers GetTxs with the pooled ones announced to this peer and not sent
 * to it since (each announcement gets the bytes out once: no
 * amplification), within the message limit; always one Txs per GetTxs,
 * possibly empty.  Other hashes are left out: one sent to it already (a
 * repeat: an honest peer never asks again what it got) costs a point per
 * ZBC_P2P_REPEAT_PER_POINT, any other (never announced to it, or so long
 * ago that the set forgot: an honest peer's late request) a point per
 * ZBC_P2P_UNOFFERED_PER_POINT. */
static bool on_get_txs(struct peer *pe, const Zbc__P2p__GetTxs *g)
{
    struct zbc_p2p *p = pe->p;
    ProtobufCBinaryData *v = malloc(g->n_hash * sizeof *v);
    if (v == NULL)
        return true;
    size_t n = 0, bytes = 64;
    uint32_t unoffered = 0, repeated = 0;
    for (size_t i = 0; i < g->n_hash; i++) {
        const uint8_t *h = g->hash[i].data, *raw;
        size_t len;
        zbc_seen_add(pe->known, h);
        if (!zbc_seen_has(pe->offered, h)) {
            if (zbc_seen_has(pe->sent, h))
                repeated++;
            else
                unoffered++;
            continue;
        }
        if (!zbc_chain_mempool_tx(p->chain, h, &raw, &len))
            continue;
        if (bytes + len + 8 > ZBC_P2P_MAX_MESSAGE)
            break;
        bytes += len + 8; /* tag and length of the entry: < 8 bytes */
        zbc_seen_forget(pe->offered, h);
        zbc_seen_add(pe->sent, h);
        pe->n_sent++;
        v[n++] = (ProtobufCBinaryData){len, (uint8_t *)raw};
    }
    /* scored first: a peer this bans gets no answer.  Repeats are free up
     * to the number of transactions sent to it: an honest peer whose
     * request timed out (this node was slow) asks once more for what the
     * late answer brought */
    p->stats.unoffered += unoffered + repeated;
    uint32_t ex0 = pe->repeated > pe->n_sent ? pe->repeated - pe->n_sent : 0;
    uint32_t ex1 = pe->repeated + repeated > pe->n_sent
                       ? pe->repeated + repeated - pe->n_sent
                       : 0;
    int pts = (int)((pe->unoffered + unoffered) / ZBC_P2P_UNOFFERED_PER_POINT -
                    pe->unoffered / ZBC_P2P_UNOFFERED_PER_POINT);
    if (ex1 / ZBC_P2P_REPEAT_PER_POINT > ex0 / ZBC_P2P_REPEAT_PER_POINT)
        pts += (int)(ex1 / ZBC_P2P_REPEAT_PER_POINT -
                     ex0 / ZBC_P2P_REPEAT_PER_POINT);
    pe->unoffered += unoffered;
    pe->repeated += repeated;
    if (pts > 0) {
        char what[136];
        snprintf(what, sizeof what, "it asked for %u transactions not "
                 "announced to it and %u again", pe->unoffered, pe->repeated);
        if (!misbehave(pe, pts, what)) {
            free(v);
            return false;
        }
    }
    struct zbc_p2p_txs t;
    zbc_p2p_txs_msg(&t, v, n);
    p->stats.sent_txs += n;
    bool alive = send_msg(pe, &t.m);
    free(v);
    return alive;
}

/* The answer to our oldest unanswered GetTxs.  Entries asked from this
 * peer are taken; ones this node has already are dropped; ones
 * this node asked this peer for once are taken too (an honest answer that
 * came after the request moved to another announcer, or after this node's
 * full pool refused the same transaction from someone else: late, not
 * hostile); any other is a transaction nobody asked for: dropped
 * unchecked, and scored. */
static bool on_txs(struct peer *pe, const Zbc__P2p__Txs *t)
{
    struct zbc_p2p *p = pe->p;
    if (pe->txreq_n == 0)
        return misbehave(pe, ZBC_P2P_SCORE_PROTOCOL,
                         "txs nobody asked for");
    uint32_t seq = pe->txreq_sent - pe->txreq_n;
    uint32_t count = pe->txreq_count[pe->txreq_head];
    pe->txs_progress_ms = p->now_ms();
    pe->txreq_head = (pe->txreq_head + 1) % ZBC_P2P_TX_REQS_PEER;
    pe->txreq_n--;
    size_t unasked = 0, bytes = 0, n_take = 0;
    /* n_raw <= ZBC_P2P_MAX_TXS (p2p_wire.c); out of memory: one by one */
    struct zbc_submit *take =
        t->n_raw > 0 ? calloc(t->n_raw, sizeof *take) : NULL;
    for (size_t i = 0; i < t->n_raw; i++) {
        uint8_t hash[32];
        uint64_t asked;
        bool wanted = false;
        bytes += t->raw[i].len;
        zbc_sha3_256(hash, t->raw[i].data, t->raw[i].len);
        if (zbc_txf_received(p->txf, hash, pe->id, &asked)) {
            pe->delivered++;
            zbc_seen_add(pe->known, hash);
            inflight_down(p, asked);
            wanted = true;
        } else if (have_tx(p, hash)) {
            continue;
        } else if (zbc_seen_has(pe->asked, hash)) {
            /* asked once, late: still welcome, checked as any other */
            zbc_seen_add(pe->known, hash);
            wanted = true;
        } else {
            unasked++;
        }
        if (!wanted)
            continue;
        if (take == NULL) {
            if (!take_tx(pe, t->raw[i].data, t->raw[i].len, hash)) {
                free(take);
                return false;
            }
            continue;
        }
        if (!first_offer(p, hash))
            continue; /* a hash twice in the frame is taken once */
        struct zbc_submit *it = &take[n_take++];
        it->raw = t->raw[i].data;
        it->len = t->raw[i].len;
        it->hashed = true;
        memcpy(it->hash, hash, 32);
    }
    bool alive = take == NULL || take_txs(pe, take, n_take);
    free(take);
    if (!alive)
        return false;
    /* hashes left out: asked from the next announcer at the next pass;
     * held against the peer unless its answer was large (an honest
     * answer stops before the message limit) */
    if (t->n_raw < count)
        (void)zbc_txf_answered(p->txf, pe->id, seq,
                               bytes < ZBC_P2P_MAX_MESSAGE / 2);
    p->stats.unasked += unasked;
    if (unasked == 0)
        return true;
    char what[96];
    snprintf(what, sizeof what, "txs with %zu transaction(s) it was not "
             "asked for", unasked);
    return misbehave(pe, ZBC_P2P_SCORE_UNASKED_TX, what);
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
    if (zbc_seen_has(p->seen, hash) &&
        zbc_chain_knows_block(p->chain, hash)) {
        r->kind = ZBC_RECV_DUPLICATE;
        return true;
    }
    zbc_seen_add(p->seen, hash);
    uint32_t old = zbc_chain_tip(p->chain)->height;
    uint64_t t0 = p->now_ms();
    if (!zbc_chain_receive_block(p->chain, raw->data, raw->len, t0,
                                 pe->node_key, r, &err)) {
        zbc_seen_forget(p->seen, hash);
        if (r->kind == ZBC_RECV_LOCAL_ERROR) {
            /* one line per condition, not one per block (a full disk) */
            zbc_log_ratelimited("p2p-not-stored", ZBC_LOG_PERIOD_MS,
                                ZBC_LOG_ERROR,
                                "p2p: block from %s not stored: %s", pe->addr,
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
        if (r->undone == 0 && r->applied == 1) {
            /* when its frame's first bytes were read, when it was taken
             * up and when it was applied, in ms after the block's
             * timestamp (docs/node.md §6, node/bench/devnet_blocks.py) */
            uint64_t ts = zbc_get_le64(raw->data + 8); /* header, §2 */
            uint64_t t1 = p->now_ms();
            zbc_log_info("block accepted height=%u hash=%s... from %s "
                         "(frame begun %+lld ms, taken %+lld ms, applied "
                         "%+lld ms after its timestamp)",
                         r->height, h, pe->addr,
                         (long long)(pe->frame_begun_ms - ts),
                         (long long)(t0 - ts), (long long)(t1 - ts));
        } else
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
        zbc_seen_forget(p->seen, hash);
        plog(p, &p->rl_peer, ZBC_LOG_INFO, "p2p: block %u from %s is more "
             "than 10 s ahead of the local clock: dropped", r->height,
             pe->addr);
        break;
    case ZBC_RECV_TOO_DEEP:
        plog(p, &p->rl_peer, ZBC_LOG_WARN, "p2p: block %u from %s forks below "
             "this node's final block (or more than %u blocks below the "
             "tip): dropped", r->height,
             pe->addr, ZBC_REORG_MAX_DEPTH);
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
    if (r.kind == ZBC_RECV_ORPHAN && !syncing(pe))
        return request_blocks(pe, NULL);
    return true;
}

static bool answer_get_blocks(struct peer *pe, const Zbc__P2p__GetBlocks *g)
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
        bool found;
        if (!zbc_chain_block(p->chain, h, &b, &len, &found, &err) || !found) {
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

/* Answers the waiting GetBlocks when the peer has a token and has read the
 * previous answer (docs/p2p.md §6): one answer in its queue at a time. */
static bool serve_deferred(struct peer *pe, uint64_t now)
{
    if (pe->deferred == NULL)
        return true;
    while (pe->gb_tokens < ZBC_P2P_GETBLOCKS_BURST &&
           now >= pe->gb_refill_ms + ZBC_P2P_GETBLOCKS_REFILL_MS) {
        pe->gb_tokens++;
        pe->gb_refill_ms += ZBC_P2P_GETBLOCKS_REFILL_MS;
    }
    if (pe->gb_tokens == ZBC_P2P_GETBLOCKS_BURST)
        pe->gb_refill_ms = now;
    if (pe->gb_tokens == 0 || out_len(pe) > ZBC_P2P_BATCH_BYTES)
        return true;
    pe->gb_tokens--;
    zbc_p2p_msg *m = pe->deferred_msg;
    pe->deferred = NULL;
    pe->deferred_msg = NULL;
    bool alive = answer_get_blocks(pe, m->get_blocks);
    zbc_p2p_msg_free(m);
    return alive;
}

/* Takes ownership of m (a GetBlocks envelope). */
static bool on_get_blocks(struct peer *pe, zbc_p2p_msg *m)
{
    if (pe->deferred != NULL) {
        zbc_p2p_msg_free(m);
        return misbehave(pe, ZBC_P2P_SCORE_FLOOD,
                         "get_blocks while its last one is not answered");
    }
    pe->deferred = m->get_blocks;
    pe->deferred_msg = m;
    return serve_deferred(pe, pe->p->now_ms());
}

/* The claim a sync round left undelivered is scored now. */
static bool undelivered_score(struct peer *pe)
{
    char t[17], what[120];
    pe->undeliv_pending = false;
    hex16(t, pe->undeliv_tip);
    snprintf(what, sizeof what, "it announced tip %s... at height %u and did "
             "not deliver it", t, pe->undeliv_height);
    return misbehave(pe, ZBC_P2P_SCORE_UNDELIVERED, what);
}

/* The peer's next tip after a claim it did not deliver: a block we know
 * excuses it — it answered from the branch it had moved to, which we
 * hold (an honest peer that reorged away from the claim between the
 * announcement and our GetBlocks) — anything else scores the claim. */
static bool undelivered_judge(struct peer *pe, const uint8_t tip[32])
{
    if (!pe->undeliv_pending)
        return true;
    if (memcmp(tip, pe->undeliv_tip, 32) != 0 &&
        zbc_chain_knows_block(pe->p->chain, tip)) {
        pe->undeliv_pending = false;
        zbc_log_debug("p2p: %s moved from its undelivered tip to one we "
                      "know: not scored", pe->addr);
        return true;
    }
    return undelivered_score(pe);
}

/* A sync round with this peer is over: a claimed tip it did not deliver,
 * with no block at all in the whole round, is scored at its next tip
 * announcement (undelivered_judge) or ZBC_P2P_UNDELIVERED_GRACE_MS later;
 * either way it is not asked for again (docs/p2p.md §5).  A round whose
 * blocks this node could not store (a full disk) is not the peer's
 * fault. */
static bool sync_round_over(struct peer *pe)
{
    struct zbc_p2p *p = pe->p;
    bool alive = true;
    if (pe->tip_unknown && !zbc_chain_knows_block(p->chain, pe->tip)) {
        memcpy(pe->failed_tip, pe->tip, 32);
        if (pe->sync_given == 0) {
            /* one claim waits at a time: an older one is judged now */
            if (pe->undeliv_pending)
                alive = undelivered_score(pe);
            if (alive) {
                pe->undeliv_pending = true;
                memcpy(pe->undeliv_tip, pe->tip, 32);
                pe->undeliv_height = pe->height;
                pe->undeliv_by_ms = p->now_ms() + ZBC_P2P_UNDELIVERED_GRACE_MS;
            }
        } else {
            zbc_log_debug("p2p: %s's tip is still unknown after a sync (a "
                          "final fork, or it moved on)", pe->addr);
        }
    }
    if (alive) {
        pe->tip_unknown = false; /* asked again when it announces a new tip */
        update_status(p);
    }
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

/* Applies blocks of the pending answer, each then its vote set, until it
 * ends or the slice's time is up.  False: the peer is gone (pe freed). */
static bool apply_slice(struct peer *pe)
{
    struct zbc_p2p *p = pe->p;
    const Zbc__P2p__Blocks *b = pe->batch->blocks;
    uint64_t t0 = mono_ms();
    uint32_t n_fresh = 0;
    while (pe->batch_next < b->n_raw) {
        size_t i = pe->batch_next++;
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
            memcpy(pe->batch_last, r.hash, 32);
            pe->batch_have_last = true;
        }
        if (mono_ms() - t0 >= ZBC_P2P_SYNC_SLICE_MS)
            break;
    }
    pe->batch_fresh += n_fresh;
    pe->last_rx_ms = p->now_ms(); /* its answer is being read: not idle */
    if (n_fresh > 0 && p->behind_since_ms != 0)
        p->behind_since_ms = p->now_ms(); /* progress: keep waiting */
    return true;
}

/* The answer is applied: the next GetBlocks or the end of the round, and
 * reading from the peer again. */
static bool sync_batch_done(struct peer *pe)
{
    struct zbc_p2p *p = pe->p;
    size_t n = pe->batch->blocks->n_raw;
    zbc_p2p_msg_free(pe->batch);
    pe->batch = NULL;
    pe->sync_given += (uint32_t)n;
    uint32_t after = zbc_chain_tip(p->chain)->height;
    if (pe->batch_fresh > 0)
        zbc_log_info("p2p: sync batch from %s: %zu blocks, %u new, height %u "
                     "-> %u", pe->addr, n, pe->batch_fresh, pe->batch_before,
                     after);
    if (!pe->batch_expected)
        return true;
    if (n >= pe->sync_count && pe->batch_have_last)
        return request_blocks(pe, pe->batch_last); /* more to come */
    zbc_log_debug("p2p: sync with %s done at height %u", pe->addr, after);
    return sync_round_over(pe);
}

/* ---- vote-set requests (docs/p2p.md §13) ----
 * A node whose final block lags its tip asks a peer that is ahead for the
 * stored vote sets above its final block: a node that holds blocks it
 * never saw justified gets their votes from no sync answer, and a peer's
 * handshake brings only the votes of its last 64 blocks
 * (docs/protocol-chain.md §8.7, §8.10). */

#define VS_LAG 8u               /* tip - final above this: lagging */
#define VS_BURST 4u             /* GetVoteSets answers a peer gets at once */
#define VS_REFILL_MS 250u       /* ... then one per this long */
#define VS_RETRY_MS 10000u      /* after an answer that brought nothing */

static bool vs_send(struct peer *pe, uint32_t from, uint32_t count)
{
    Zbc__P2p__GetVoteSets g = ZBC__P2P__GET_VOTE_SETS__INIT;
    g.from_height = from;
    g.count = count;
    zbc_p2p_msg m = ZBC__P2P__ENVELOPE__INIT;
    m.msg_case = ZBC__P2P__ENVELOPE__MSG_GET_VOTE_SETS;
    m.get_vote_sets = &g;
    pe->vs.pending = true;
    pe->vs.from = from;
    pe->vs.count = count;
    zbc_log_debug("p2p: asking %s for the vote sets of blocks %u..%u",
                  pe->addr, from, from + count - 1);
    return send_msg(pe, &m);
}

/* Called every tick for a proven peer: asks it for the next range when
 * this node's final block lags its tip and the peer holds blocks above
 * it.  A peer that leaves a request unanswered is not asked again until
 * it answers (not scored: the sets are only a help, and the other peers
 * are asked too; a late answer is still taken). */
static bool vs_tick(struct peer *pe, uint64_t now)
{
    struct zbc_p2p *p = pe->p;
    if (p->fin == NULL || pe->vs.pending)
        return true;
    uint32_t final = zbc_chain_final_height(p->chain);
    uint32_t tip = zbc_chain_tip(p->chain)->height;
    if (now < pe->vs.next_ms || tip <= final + VS_LAG ||
        pe->height <= final + VS_LAG)
        return true;
    uint32_t from = pe->vs.next_from > final ? pe->vs.next_from : final + 1;
    if (from > tip || from > pe->height) {
        pe->vs.next_from = 0; /* the whole range was asked: start again */
        pe->vs.next_ms = now + VS_RETRY_MS;
        return true;
    }
    uint32_t count = tip - from + 1;
    if (count > ZBC_P2P_MAX_VOTE_SETS)
        count = ZBC_P2P_MAX_VOTE_SETS;
    return vs_send(pe, from, count);
}

/* A GetVoteSets: the stored sets of our best chain in the range (heights
 * past our tip have none), one answer per token (VS_BURST, then one per
 * VS_REFILL_MS); a request without a token is scored and not answered. */
static bool on_get_vote_sets(struct peer *pe, const Zbc__P2p__GetVoteSets *g)
{
    struct zbc_p2p *p = pe->p;
    uint64_t now = p->now_ms();
    if (pe->vs.refill_ms == 0) {
        pe->vs.tokens = VS_BURST;
        pe->vs.refill_ms = now;
    }
    while (pe->vs.tokens < VS_BURST && now >= pe->vs.refill_ms + VS_REFILL_MS) {
        pe->vs.tokens++;
        pe->vs.refill_ms += VS_REFILL_MS;
    }
    if (pe->vs.tokens == VS_BURST)
        pe->vs.refill_ms = now;
    if (pe->vs.tokens == 0)
        return misbehave(pe, ZBC_P2P_SCORE_FLOOD,
                         "get_vote_sets faster than 4 a second");
    pe->vs.tokens--;
    ProtobufCBinaryData sets[ZBC_P2P_MAX_VOTE_SETS];
    size_t n = 0;
    uint32_t tip = zbc_chain_tip(p->chain)->height;
    for (uint32_t k = 0; k < g->count && p->fin != NULL; k++) {
        uint64_t h = (uint64_t)g->from_height + k; /* no wrap at 2^32 - 1 */
        if (h > tip)
            break;
        zbc_finality_stored_set(p->fin, (uint32_t)h, &sets[n].data,
                                &sets[n].len);
        if (sets[n].data != NULL)
            n++;
    }
    Zbc__P2p__VoteSets vs = ZBC__P2P__VOTE_SETS__INIT;
    vs.vote_set = sets;
    vs.n_vote_set = n;
    zbc_p2p_msg m = ZBC__P2P__ENVELOPE__INIT;
    m.msg_case = ZBC__P2P__ENVELOPE__MSG_VOTE_SETS;
    m.vote_sets = &vs;
    bool alive = send_msg(pe, &m);
    for (size_t i = 0; i < n; i++)
        free(sets[i].data);
    return alive;
}

/* The answer to our GetVoteSets: every set in the asked range, checked
 * exactly as the sets of a sync answer are; an unasked or oversized
 * answer, a set outside the range or one that does not verify is the
 * peer's misbehaviour.  Progress (a new vote) continues with the next
 * range, paced by the answering side's refill; none waits VS_RETRY_MS. */
static bool on_vote_sets(struct peer *pe, const Zbc__P2p__VoteSets *v)
{
    struct zbc_p2p *p = pe->p;
    char what[ZBC_ERR_MAX + 64];
    if (!pe->vs.pending)
        return misbehave(pe, ZBC_P2P_SCORE_PROTOCOL,
                         "vote_sets nobody asked for");
    pe->vs.pending = false;
    if (v->n_vote_set > pe->vs.count) {
        snprintf(what, sizeof what, "vote_sets with %zu sets for %u asked",
                 v->n_vote_set, pe->vs.count);
        return misbehave(pe, ZBC_P2P_SCORE_PROTOCOL, what);
    }
    bool progress = false;
    uint32_t top = 0;
    for (size_t i = 0; i < v->n_vote_set && p->fin != NULL; i++) {
        const ProtobufCBinaryData *b = &v->vote_set[i];
        uint32_t h = zbc_get_le32(b->data + 1); /* decoder: >= 38 bytes */
        if (h < pe->vs.from || h - pe->vs.from >= pe->vs.count) {
            snprintf(what, sizeof what, "vote set for block %u outside the "
                     "%u..%u asked", h, pe->vs.from,
                     pe->vs.from + pe->vs.count - 1);
            return misbehave(pe, ZBC_P2P_SCORE_PROTOCOL, what);
        }
        struct zbc_err err = {{0}};
        enum zbc_vote_rx rx = zbc_finality_receive_set(p->fin, b->data,
                                                       b->len, &err);
        if (rx == ZBC_VOTE_RX_BAD) {
            snprintf(what, sizeof what, "bad vote set: %s", err.msg);
            return misbehave(pe, ZBC_P2P_SCORE_BAD_VOTE, what);
        }
        progress |= rx == ZBC_VOTE_RX_NEW;
        if (h > top)
            top = h;
    }
    uint64_t now = p->now_ms();
    if (progress) {
        zbc_log_info("p2p: vote sets from %s: %zu sets of blocks %u..%u, "
                     "final block now %u", pe->addr, v->n_vote_set,
                     pe->vs.from, pe->vs.from + pe->vs.count - 1,
                     zbc_chain_final_height(p->chain));
        pe->vs.next_from = top + 1;
        pe->vs.next_ms = now + VS_REFILL_MS;
    } else {
        pe->vs.next_from = 0;
        pe->vs.next_ms = now + VS_RETRY_MS;
    }
    return true;
}

/* One slice of a sync answer, inside the ledger batch (node/zbcd/chain.h
 * zbc_chain_batch_begin: the answer's blocks and their vote sets reach
 * the disk in one commit), then back to the event loop (the API answers
 * in between), and the next slice from there. */
static void sync_slice(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct peer *pe = arg;
    struct zbc_p2p *p = pe->p;
    enum batch_state st = batch_enter(p, pe->addr);
    bool alive = true, lost = st == BATCH_LOST;
    if (!lost) {
        p->in_slice = true;
        alive = apply_slice(pe); /* false: pe is freed */
        p->in_slice = false;
    }
    if (!alive) {
        (void)batch_leave(p, true, "a dropped peer");
        return;
    }
    bool done = pe->batch_next >= pe->batch->blocks->n_raw;
    if (st == BATCH_IN && !batch_leave(p, done, pe->addr))
        lost = true;
    if (lost) {
        /* the chain went back to the ledger's tip: the rest of this
         * answer would not connect; the next round asks again */
        pe->batch_next = pe->batch->blocks->n_raw;
        pe->batch_have_last = false;
        if (zbc_chain_in_batch(p->chain))
            (void)batch_leave(p, true, pe->addr);
    } else if (!done) {
        const struct timeval now = {0, 0}; /* after the loop polled */
        evtimer_add(pe->batch_ev, &now);
        return;
    }
    if (!sync_batch_done(pe))
        return;
    bufferevent_enable(pe->bev, EV_READ);
    /* frames that came meanwhile wait in the input buffer */
    bufferevent_trigger(pe->bev, EV_READ,
                        BEV_TRIG_IGNORE_WATERMARKS | BEV_TRIG_DEFER_CALLBACKS);
}

/* Takes ownership of m (a Blocks answer): applied in slices from the
 * event loop, reading from the peer paused meanwhile. */
static bool on_blocks(struct peer *pe, zbc_p2p_msg *m)
{
    struct zbc_p2p *p = pe->p;
    if (pe->requests_out == 0) {
        zbc_p2p_msg_free(m);
        return misbehave(pe, ZBC_P2P_SCORE_PROTOCOL, "blocks nobody asked for");
    }
    pe->requests_out--;
    /* an answer after the timeout is still taken, but starts nothing */
    pe->batch_expected = pe->sync_pending && pe->requests_out == 0;
    pe->sync_pending = pe->requests_out > 0;
    if (pe->batch_ev == NULL)
        pe->batch_ev = evtimer_new(p->base, sync_slice, pe);
    if (pe->batch_ev == NULL) {
        zbc_p2p_msg_free(m);
        zbc_log_error("p2p: out of memory for a sync answer from %s",
                      pe->addr);
        return true;
    }
    pe->batch = m;
    pe->batch_next = 0;
    pe->batch_have_last = false;
    pe->batch_fresh = 0;
    pe->batch_before = zbc_chain_tip(p->chain)->height;
    bufferevent_disable(pe->bev, EV_READ);
    const struct timeval now = {0, 0};
    evtimer_add(pe->batch_ev, &now);
    return true;
}

/* Takes ownership of m. */
static bool handle(struct peer *pe, zbc_p2p_msg *m)
{
    bool alive;
    if (!pe->handshaken && m->msg_case != ZBC__P2P__ENVELOPE__MSG_AUTH) {
        alive = misbehave(pe, ZBC_P2P_SCORE_MALFORMED,
                          "a message before the handshake");
        zbc_p2p_msg_free(m);
        return alive;
    }
    switch (m->msg_case) {
    case ZBC__P2P__ENVELOPE__MSG_GET_BLOCKS:
        return on_get_blocks(pe, m);
    case ZBC__P2P__ENVELOPE__MSG_BLOCKS:
        return on_blocks(pe, m);
    case ZBC__P2P__ENVELOPE__MSG_AUTH:
        alive = on_auth(pe, m->auth);
        break;
    case ZBC__P2P__ENVELOPE__MSG_HELLO:
        alive = misbehave(pe, ZBC_P2P_SCORE_PROTOCOL, "a second hello");
        break;
    case ZBC__P2P__ENVELOPE__MSG_TX:
        alive = on_tx(pe, m->tx);
        break;
    case ZBC__P2P__ENVELOPE__MSG_BLOCK:
        alive = on_block(pe, m->block);
        break;
    case ZBC__P2P__ENVELOPE__MSG_PING:
        alive = send_ping(pe, true, m->ping->nonce) &&
                peer_tip(pe, m->ping->height, m->ping->tip_hash.data);
        break;
    case ZBC__P2P__ENVELOPE__MSG_PONG:
        alive = peer_tip(pe, m->pong->height, m->pong->tip_hash.data);
        break;
    case ZBC__P2P__ENVELOPE__MSG_VOTES:
        alive = on_votes(pe, m->votes);
        break;
    case ZBC__P2P__ENVELOPE__MSG_TX_INV:
        alive = on_tx_inv(pe, m->tx_inv);
        break;
    case ZBC__P2P__ENVELOPE__MSG_GET_TXS:
        alive = on_get_txs(pe, m->get_txs);
        break;
    case ZBC__P2P__ENVELOPE__MSG_TXS:
        alive = on_txs(pe, m->txs);
        break;
    case ZBC__P2P__ENVELOPE__MSG_GET_VOTE_SETS:
        alive = on_get_vote_sets(pe, m->get_vote_sets);
        break;
    case ZBC__P2P__ENVELOPE__MSG_VOTE_SETS:
        alive = on_vote_sets(pe, m->vote_sets);
        break;
    case ZBC__P2P__ENVELOPE__MSG__NOT_SET:
    case _ZBC__P2P__ENVELOPE__MSG__CASE_IS_INT_SIZE:
    default:
        alive = misbehave(pe, ZBC_P2P_SCORE_MALFORMED, "a message of no kind");
        break;
    }
    zbc_p2p_msg_free(m);
    return alive;
}

/* ---- libevent callbacks ---- */

/* Every complete frame in the peer's input buffer, opened and decoded
 * into its receive queue (blocks in one FIFO, everything else in
 * another), while the queue holds less than ZBC_P2P_RXQ_BYTES.  Opening
 * and decoding is cheap beside handling, so a block behind a run of
 * transaction answers is found at once (docs/p2p.md §6 "Loop turns").
 * The plain Hello is handled here, before the frames it gives the keys
 * for.  A frame that does not open or decode stops the filling: the
 * frames before it are still handled, then the peer is scored
 * (rx_bad).  Returns false when the peer is gone. */
static bool rx_fill(struct peer *pe)
{
    struct zbc_p2p *p = pe->p;
    struct evbuffer *in = bufferevent_get_input(pe->bev);
    while (pe->doomed == NULL && !pe->rx_bad_set &&
           pe->rxq_bytes < ZBC_P2P_RXQ_BYTES) {
        size_t avail = evbuffer_get_length(in);
        if (avail == 0) {
            pe->partial_ms = 0;
            break;
        }
        if (pe->partial_ms == 0)
            pe->partial_ms = p->now_ms();
        uint8_t *head = evbuffer_pullup(in, avail < 4 ? (ssize_t)avail : 4);
        uint32_t n = 0;
        struct zbc_err err = {{0}};
        uint32_t max = pe->got_hello ? ZBC_P2P_MAX_FRAME : ZBC_P2P_MAX_HELLO;
        enum zbc_p2p_frame f = zbc_p2p_frame_check(head, avail, max, &n, &err);
        if (f == ZBC_P2P_FRAME_NEED_MORE)
            break;
        if (f == ZBC_P2P_FRAME_BAD) {
            snprintf(pe->rx_bad, sizeof pe->rx_bad, "%s", err.msg);
            pe->rx_bad_set = true;
            pe->rx_bad_first = false; /* unreadable: dropped */
            break;
        }
        uint8_t *frame = evbuffer_pullup(in, (ssize_t)n + 4);
        zbc_p2p_msg *m = NULL;
        bool first = !pe->got_hello;
        int ok = first ? zbc_p2p_decode(&m, frame + 4, n, &err)
                       : zbc_p2p_open(&m, pe->rx_key, pe->rx_n, frame,
                                      (size_t)n + 4, &err);
        evbuffer_drain(in, (size_t)n + 4);
        uint64_t begun = pe->partial_ms;
        pe->partial_ms = 0;
        pe->last_rx_ms = p->now_ms();
        if (!first)
            pe->rx_n++;
        if (!ok) {
            snprintf(pe->rx_bad, sizeof pe->rx_bad, "malformed message: %s",
                     err.msg);
            pe->rx_bad_set = true;
            pe->rx_bad_first = first;
            break;
        }
        if (first) {
            bool hello = m->msg_case == ZBC__P2P__ENVELOPE__MSG_HELLO;
            bool alive = hello ? on_hello(pe, m->hello)
                               : misbehave(pe, ZBC_P2P_SCORE_MALFORMED,
                                           "a message before the handshake");
            zbc_p2p_msg_free(m);
            if (!alive)
                return false;
            continue;
        }
        struct rx_item *it = malloc(sizeof *it);
        if (it == NULL) {
            zbc_p2p_msg_free(m);
            peer_drop(pe, "out of memory for its messages");
            return false;
        }
        *it = (struct rx_item){m, (size_t)n + 4, begun, NULL};
        /* before the handshake everything keeps its order: the Auth
         * first */
        bool block = pe->handshaken &&
                     m->msg_case == ZBC__P2P__ENVELOPE__MSG_BLOCK;
        struct rx_item **tail = block ? &pe->rxb_tail : &pe->rxo_tail;
        struct rx_item **head_p = block ? &pe->rxb_head : &pe->rxo_head;
        if (*tail != NULL)
            (*tail)->next = it;
        else
            *head_p = it;
        *tail = it;
        pe->rxq_bytes += it->len;
    }
    return true;
}

/* The next message to handle: the oldest block, else (unless
 * blocks_only) the oldest other one.  NULL: none. */
static struct rx_item *rx_pop(struct peer *pe, bool blocks_only)
{
    struct rx_item **head = pe->rxb_head != NULL || blocks_only
                                ? &pe->rxb_head
                                : &pe->rxo_head;
    struct rx_item **tail = head == &pe->rxb_head ? &pe->rxb_tail
                                                  : &pe->rxo_tail;
    struct rx_item *it = *head;
    if (it == NULL)
        return NULL;
    *head = it->next;
    if (*head == NULL)
        *tail = NULL;
    pe->rxq_bytes -= it->len;
    return it;
}


static void rx_free(struct peer *pe)
{
    struct rx_item *it;
    while ((it = rx_pop(pe, false)) != NULL) {
        zbc_p2p_msg_free(it->m);
        free(it);
    }
}

/* Reads everything the peer's socket holds now, without waiting, into
 * its input buffer, up to the read watermark (one frame of the largest
 * size).  libevent 2.1 reads at most 4 - 16 KiB per read event whatever
 * bufferevent_set_max_single_read says (evbuffer_read caps each read at
 * EVBUFFER_MAX_READ): a 700-KB block took some fifty turns of a busy
 * event loop to arrive, hundreds of milliseconds (docs/p2p.md §6 "Loop
 * turns").  The bufferevent's own next read finds the rest, or nothing
 * (EAGAIN), or the end of the stream. */
static void rx_pull(struct peer *pe)
{
    struct evbuffer *in = bufferevent_get_input(pe->bev);
    evutil_socket_t fd = bufferevent_getfd(pe->bev);
    size_t high = 4 + ZBC_P2P_MAX_FRAME;
    while (fd >= 0) {
        size_t have = evbuffer_get_length(in);
        if (have >= high)
            return;
        size_t want = high - have;
        if (want > ZBC_P2P_IO_STEP)
            want = ZBC_P2P_IO_STEP;
        /* the bufferevent keeps its input's end frozen between its own
         * reads (bufferevent_sock.c does the same around its read) */
        evbuffer_unfreeze(in, 0);
        int got = evbuffer_read(in, fd, (int)want);
        evbuffer_freeze(in, 0);
        if (got <= 0)
            return; /* nothing now, the end, or an error: libevent's */
    }
}

unsigned zbc_p2p_take_blocks(struct zbc_p2p *p)
{
    unsigned n = 0;
    struct peer *next;
    for (struct peer *pe = p->peers; pe != NULL; pe = next) {
        next = pe->next;
        if (!pe->handshaken || pe->doomed != NULL || pe->batch != NULL ||
            pe->bev == NULL)
            continue;
        rx_pull(pe);
        if (!rx_fill(pe))
            continue; /* gone */
        bool alive = true;
        struct rx_item *it;
        while (alive && pe->doomed == NULL && pe->batch == NULL &&
               (it = rx_pop(pe, true)) != NULL) {
            zbc_p2p_msg *m = it->m;
            pe->frame_begun_ms = it->begun_ms;
            free(it);
            n++;
            alive = handle(pe, m);
        }
        if (!alive)
            continue;
        /* the rest (and a bad frame's verdict) at the loop's next turn:
         * libevent calls on_read only for bytes it reads itself */
        if (pe->doomed == NULL &&
            (pe->rxo_head != NULL || pe->rx_bad_set ||
             evbuffer_get_length(bufferevent_get_input(pe->bev)) > 0))
            bufferevent_trigger(pe->bev, EV_READ,
                                BEV_TRIG_IGNORE_WATERMARKS |
                                    BEV_TRIG_DEFER_CALLBACKS);
    }
    if (n > 0)
        check_caps(p);
    return n;
}

static void on_read(struct bufferevent *bev, void *arg)
{
    struct peer *pe = arg;
    struct zbc_p2p *p = pe->p;
    uint64_t slice_end = mono_ms() + ZBC_P2P_READ_SLICE_MS;
    if (pe->handshaken)
        rx_pull(pe);
    for (;;) {
        if (pe->doomed != NULL)
            return;
        if (!rx_fill(pe))
            return;
        if (pe->batch != NULL)
            break; /* a sync answer first (sync_slice) */
        struct rx_item *it = rx_pop(pe, false);
        if (it == NULL) {
            if (pe->rx_bad_set) {
                /* a sealed stream that does not open cannot be read on
                 * (a bad plain Hello is scored and read past) */
                pe->rx_bad_set = false;
                if (misbehave(pe, ZBC_P2P_SCORE_MALFORMED, pe->rx_bad) &&
                    !pe->rx_bad_first)
                    peer_drop(pe, "unreadable stream");
                return;
            }
            break;
        }
        zbc_p2p_msg *m = it->m;
        pe->frame_begun_ms = it->begun_ms;
        free(it);
        if (!handle(pe, m))
            return;
        if (mono_ms() >= slice_end && pe->batch == NULL) {
            /* the rest after the loop's other work (its timers: this
             * node's producer slot; other peers' blocks) */
            if (!rx_fill(pe))
                return;
            if (pe->rxb_head != NULL || pe->rxo_head != NULL ||
                pe->rx_bad_set)
                bufferevent_trigger(bev, EV_READ,
                                    BEV_TRIG_IGNORE_WATERMARKS |
                                        BEV_TRIG_DEFER_CALLBACKS);
            break;
        }
    }
    check_caps(p);
}

static void on_event(struct bufferevent *bev, short what, void *arg)
{
    (void)bev;
    struct peer *pe = arg;
    if (what & BEV_EVENT_CONNECTED) {
        pe->connected = true;
        zbc_log_debug("p2p: connected to %s", pe->addr);
        if (!pe->sent_hello)
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
                             const char *addr, uint32_t ip)
{
    struct peer *pe = calloc(1, sizeof *pe);
    if (pe == NULL)
        return NULL;
    pe->p = p;
    pe->ip = ip;
    snprintf(pe->addr, sizeof pe->addr, "%s", addr);
    pe->bev = bufferevent_socket_new(p->base, fd, BEV_OPT_CLOSE_ON_FREE);
    if (pe->bev == NULL) {
        free(pe);
        return NULL;
    }
    crypto_kx_keypair(pe->kx_pk, pe->kx_sk);
    pe->opened_ms = p->now_ms();
    pe->last_rx_ms = pe->opened_ms;
    bufferevent_setcb(pe->bev, on_read, NULL, on_event, pe);
    /* before its Hello a peer sends one small frame */
    bufferevent_setwatermark(pe->bev, EV_READ, 0, 4 + ZBC_P2P_MAX_HELLO);
    bufferevent_enable(pe->bev, EV_READ | EV_WRITE);
    pe->next = p->peers;
    p->peers = pe;
    p->n_peers++;
    return pe;
}

/* The oldest inbound connection without a proven handshake, from ip (or
 * from anywhere when ip is 0), and how many there are. */
static struct peer *oldest_pending(struct zbc_p2p *p, uint32_t ip,
                                   size_t *count)
{
    struct peer *old = NULL;
    *count = 0;
    for (struct peer *pe = p->peers; pe != NULL; pe = pe->next) {
        if (pe->handshaken || pe->slot != NULL || pe->doomed != NULL ||
            (ip != 0 && pe->ip != ip))
            continue;
        (*count)++;
        old = pe; /* the list is newest first */
    }
    return old;
}

static void on_accept_backoff_end(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    struct zbc_p2p *p = arg;
    p->accept_paused = false;
    if (p->listener != NULL)
        evconnlistener_enable(p->listener);
}

/* accept() failed with something other than "try again" (out of file
 * descriptors, memory, ...): libevent would retry at once and spin, so the
 * listener pauses for ZBC_P2P_ACCEPT_BACKOFF_MS; one log line per
 * ZBC_LOG_PERIOD_MS (docs/p2p.md §9). */
static void on_accept_error(struct evconnlistener *l, void *arg)
{
    struct zbc_p2p *p = arg;
    int e = EVUTIL_SOCKET_ERROR();
    evconnlistener_disable(l);
    p->accept_paused = true;
    zbc_log_limited(&p->log_accept, ZBC_LOG_PERIOD_MS, ZBC_LOG_WARN,
                    "p2p: cannot accept a connection: %s; accepting paused "
                    "for %u ms", strerror(e), ZBC_P2P_ACCEPT_BACKOFF_MS);
    struct timeval tv = {ZBC_P2P_ACCEPT_BACKOFF_MS / 1000,
                         (ZBC_P2P_ACCEPT_BACKOFF_MS % 1000) * 1000};
    evtimer_add(p->accept_backoff, &tv);
}

bool zbc_p2p_accepting(const struct zbc_p2p *p)
{
    return p->listener != NULL && !p->accept_paused;
}

static void on_accept(struct evconnlistener *l, evutil_socket_t fd,
                      struct sockaddr *sa, int socklen, void *arg)
{
    (void)l;
    (void)socklen;
    struct zbc_p2p *p = arg;
    char addr[64] = "?";
    uint32_t ip = 0;
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
        char text[INET_ADDRSTRLEN];
        evutil_inet_ntop(AF_INET, &in->sin_addr, text, sizeof text);
        snprintf(addr, sizeof addr, "%s:%u", text, ntohs(in->sin_port));
        ip = in->sin_addr.s_addr;
    }
    /* Unproven connections never block anything for long: past the limits
     * the oldest one gives way (docs/p2p.md §6). */
    size_t n = 0;
    struct peer *old = oldest_pending(p, ip, &n);
    if (old != NULL && n >= ZBC_P2P_MAX_PENDING_PER_ADDR) {
        plog(p, &p->rl_conn, ZBC_LOG_WARN, "p2p: closing %s: more than %u "
             "connections without a handshake from its address", old->addr,
             ZBC_P2P_MAX_PENDING_PER_ADDR);
        peer_drop(old, "too many unproven connections from its address");
    }
    old = oldest_pending(p, 0, &n);
    if (old != NULL && n >= ZBC_P2P_MAX_PENDING) {
        plog(p, &p->rl_conn, ZBC_LOG_WARN, "p2p: closing %s: more than %u "
             "connections without a handshake", old->addr,
             ZBC_P2P_MAX_PENDING);
        peer_drop(old, "too many unproven connections");
    }
    struct peer *pe = peer_new(p, fd, addr, ip);
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
    struct evutil_addrinfo hints, *ai = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    char port[8];
    snprintf(port, sizeof port, "%u", s->port);
    if (evutil_getaddrinfo(s->host, port, &hints, &ai) != 0 || ai == NULL) {
        plog(p, &p->rl_conn, ZBC_LOG_WARN, "p2p: cannot resolve peer %s",
             addr);
        s->next_try_ms = p->now_ms() + ZBC_P2P_RETRY_MAX_MS;
        return;
    }
    uint32_t ip = ((const struct sockaddr_in *)ai->ai_addr)->sin_addr.s_addr;
    struct peer *pe = peer_new(p, -1, addr, ip);
    if (pe == NULL) {
        evutil_freeaddrinfo(ai);
        return;
    }
    pe->slot = s;
    s->peer = pe;
    int rc = bufferevent_socket_connect(pe->bev, ai->ai_addr,
                                        (int)ai->ai_addrlen);
    evutil_freeaddrinfo(ai);
    if (rc != 0)
        peer_free(pe);
}

static void update_status(struct zbc_p2p *p)
{
    struct zbc_net_status s;
    zbc_p2p_status(p, &s);
    zbc_chain_set_net_status(p->chain, &s);
}

/* Timeouts of one connection (docs/p2p.md §6); false when it is gone. */
static bool check_timeouts(struct peer *pe, uint64_t now)
{
    if (!pe->handshaken && now >= pe->opened_ms + ZBC_P2P_HANDSHAKE_MS) {
        peer_drop(pe, "no handshake in time");
        return false;
    }
    if (pe->partial_ms != 0 && now >= pe->partial_ms + ZBC_P2P_FRAME_MS) {
        peer_drop(pe, "a frame stalled half-way");
        return false;
    }
    if (pe->handshaken && now >= pe->last_rx_ms + ZBC_P2P_IDLE_MS) {
        peer_drop(pe, "silent for too long");
        return false;
    }
    if (pe->handshaken && pe->sync_pending &&
        now >= pe->sync_sent_ms + ZBC_P2P_SYNC_TIMEOUT_MS) {
        pe->sync_pending = false;
        char what[96];
        snprintf(what, sizeof what, "it did not answer get_blocks in %u s",
                 ZBC_P2P_SYNC_TIMEOUT_MS / 1000);
        if (misbehave(pe, ZBC_P2P_SCORE_STALL, what))
            peer_drop(pe, "it claims a tip it does not deliver");
        return false;
    }
    return true;
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
        if (!check_timeouts(pe, now))
            goto next;
        if (pe->undeliv_pending && now >= pe->undeliv_by_ms &&
            !undelivered_score(pe))
            goto next;
        if (pe->handshaken) {
            if (!serve_deferred(pe, now))
                goto next;
            if (now >= pe->next_ping_ms) {
                pe->next_ping_ms = now + ZBC_P2P_PING_MS;
                if (!send_ping(pe, false, now))
                    goto next;
            }
            if (pe->tip_unknown && zbc_chain_knows_block(p->chain, pe->tip))
                pe->tip_unknown = false;
            if (pe->tip_unknown && !syncing(pe) && !request_blocks(pe, NULL))
                goto next;
            (void)vs_tick(pe, now);
        }
    next:
        pe = next;
    }
    check_caps(p);
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

/* Why the node is not synced, NULL when it is (docs/p2p.md §8). */
static const char REASON_GRACE[] = "waiting for the configured peers";
static const char REASON_ALONE[] = "no peers";

static const char *not_synced(const struct zbc_p2p *p, uint32_t peers,
                              uint64_t now)
{
    /* Right after start, give the configured peers a moment to say where
     * they are before producing on what may be a stale tip. */
    if (now < p->started_ms + ZBC_P2P_STARTUP_GRACE_MS) {
        for (size_t i = 0; i < p->n_slots; i++) {
            const struct slot *s = &p->slots[i];
            if (!s->is_self && (s->peer == NULL || !s->peer->handshaken))
                return REASON_GRACE;
        }
    }
    if (peers == 0 && !p->sole_validator)
        return REASON_ALONE;
    uint32_t height = zbc_chain_tip(p->chain)->height;
    for (const struct peer *a = p->peers; a != NULL; a = a->next) {
        if (!a->handshaken)
            continue;
        if (syncing(a))
            return "syncing";
        if (a->tip_unknown && a->height >= height)
            return "a peer announced a tip not known here";
    }
    return NULL;
}

void zbc_p2p_status(struct zbc_p2p *p, struct zbc_net_status *out)
{
    uint64_t now = p->now_ms();
    uint32_t peers = zbc_p2p_peer_count(p);
    if (peers > 0)
        p->alone_since_ms = 0;
    else if (p->alone_since_ms == 0)
        p->alone_since_ms = now;
    const char *why = not_synced(p, peers, now);
    out->peers = peers;
    out->synced = why == NULL;
    out->reason = why != NULL ? why : "";
    if (why == NULL) {
        p->behind_since_ms = 0;
        out->may_produce = true;
    } else if (why == REASON_GRACE) {
        out->may_produce = false;
    } else if (why == REASON_ALONE) {
        out->may_produce = now >= p->alone_since_ms + ZBC_P2P_ALONE_MS;
    } else {
        if (p->behind_since_ms == 0)
            p->behind_since_ms = now;
        out->may_produce = now >= p->behind_since_ms + ZBC_P2P_SYNC_HOLD_MS;
    }
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
    p->key = cfg->key;
    p->max_output = cfg->max_output ? cfg->max_output : ZBC_P2P_MAX_OUTPUT;
    p->output_cap = cfg->output_cap ? cfg->output_cap : ZBC_P2P_OUTPUT_CAP;
    p->input_cap = cfg->input_cap ? cfg->input_cap : ZBC_P2P_INPUT_CAP;
    if (p->key == NULL) {
        free(p);
        return zbc_fail(err, "P2P needs the node key (it proves it to peers)");
    }
    const struct zbc_genesis *g = zbc_chain_genesis(c);
    p->sole_validator = g->n_validators == 1 &&
                        zbc_genesis_is_validator(g, p->key->pk);
    p->seen = zbc_seen_new(ZBC_P2P_SEEN_CACHE);
    p->txf = zbc_txf_new(ZBC_P2P_TX_INFLIGHT, ZBC_P2P_TX_REQUEST_MS);
    p->reann = calloc(ZBC_P2P_REANNOUNCE_TRACK, sizeof *p->reann);
    p->next_stats_ms = p->started_ms + ZBC_P2P_STATS_LOG_MS;
    p->bans = zbc_p2p_bans_new(ZBC_P2P_REP_MAX);
    p->slots = calloc(cfg->n_peers > 0 ? cfg->n_peers : 1, sizeof *p->slots);
    if (p->seen == NULL || p->txf == NULL || p->reann == NULL ||
        p->slots == NULL || p->bans == NULL) {
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
        p->accept_backoff = evtimer_new(base, on_accept_backoff_end, p);
        if (p->accept_backoff == NULL) {
            zbc_p2p_stop(p);
            return zbc_fail(err, "out of memory starting the P2P listener");
        }
        evconnlistener_set_error_cb(p->listener, on_accept_error);
        struct sockaddr_in bound;
        socklen_t blen = sizeof bound;
        if (getsockname(evconnlistener_get_fd(p->listener),
                        (struct sockaddr *)&bound, &blen) == 0)
            port = ntohs(bound.sin_port);
        p->listen_port = port;
        zbc_log_info("p2p: listening on %s:%u", host, port);
    }
    p->tick = event_new(base, -1, EV_PERSIST, on_tick, p);
    p->gossip = event_new(base, -1, EV_PERSIST, on_gossip, p);
    struct timeval tv = {0, TICK_MS * 1000};
    struct timeval gtv = {0, ZBC_P2P_INV_MS * 1000};
    if (p->tick == NULL || event_add(p->tick, &tv) != 0 ||
        p->gossip == NULL || event_add(p->gossip, &gtv) != 0) {
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
    (void)batch_leave(p, true, "the stopping node");
    struct zbc_net_status none = {0, true, true, ""};
    zbc_chain_set_net_status(p->chain, &none);
    if (p->tick != NULL)
        event_free(p->tick);
    if (p->gossip != NULL)
        event_free(p->gossip);
    if (p->stats.all_msgs != p->stats_logged)
        log_stats(p);
    if (p->accept_backoff != NULL)
        event_free(p->accept_backoff);
    if (p->listener != NULL)
        evconnlistener_free(p->listener);
    free(p->slots);
    zbc_seen_free(p->seen);
    zbc_txf_free(p->txf);
    free(p->reann);
    zbc_p2p_bans_free(p->bans);
    free(p);
}
