/* P2P networking over libevent (docs/p2p.md): a listener, outbound
 * connections to configured peers (reconnected with backoff), the
 * authenticated handshake (a plaintext Hello with a fresh X25519 key each
 * way, then a sealed Auth signing both sides' fresh keys with the node
 * key; every later frame sealed with the crypto_kx session keys), gossip
 * of transactions and blocks with a seen-hash cache, batch sync with block
 * locators, misbehaviour scores and bans by proven node key and by
 * address, slot limits, timeouts and memory caps.
 *
 * Wire format: node/zbcd/p2p_wire.h.  Chain effects: node/zbcd/chain.h
 * (zbc_chain_submit, zbc_chain_receive_block); the chain's listener tells
 * this layer what to gossip; zbc_chain_set_net_status tells the producer
 * whether to wait.  Single-threaded, on the daemon's event loop; the
 * clock is the config's now_ms. */
#ifndef ZBC_NODE_P2P_H
#define ZBC_NODE_P2P_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <event2/event.h>

#include "crypto/err.h"
#include "node/zbcd/chain.h"
#include "node/zbcd/datadir.h"

/* Slots (docs/p2p.md §6).  Outbound: one per --peer, always kept. */
#define ZBC_P2P_MAX_INBOUND 32u          /* proven inbound peers */
#define ZBC_P2P_MAX_INBOUND_UNKNOWN 8u   /* ... of them with a key that is
                                          * not a genesis validator's */
#define ZBC_P2P_MAX_PENDING 16u          /* inbound, handshake not done */
#define ZBC_P2P_MAX_PENDING_PER_ADDR 4u  /* ... from one IPv4 address */
#define ZBC_P2P_MAX_PER_KEY 2u           /* connections of one proven key */
/* Timeouts. */
#define ZBC_P2P_HANDSHAKE_MS 5000u       /* connect to proven Auth */
#define ZBC_P2P_IDLE_MS 20000u           /* no complete frame from a peer */
#define ZBC_P2P_FRAME_MS 20000u          /* a frame begun and not finished */
#define ZBC_P2P_PING_MS 2000u            /* tip announcement interval */
#define ZBC_P2P_SYNC_TIMEOUT_MS 10000u   /* GetBlocks unanswered: scored */
#define ZBC_P2P_SYNC_HOLD_MS 3000u       /* production waits for a sync at
                                          * most this long without a new
                                          * best-chain block */
#define ZBC_P2P_STARTUP_GRACE_MS 3000u   /* wait for configured peers */
#define ZBC_P2P_ALONE_MS 10000u          /* no peers: wait, then produce */
#define ZBC_P2P_RETRY_MIN_MS 500u        /* outbound reconnect backoff */
#define ZBC_P2P_RETRY_MAX_MS 8000u
#define ZBC_P2P_RELAY_AGE_MS 60000u  /* older blocks are history: not relayed */
#define ZBC_P2P_SEEN_CACHE 65536u     /* tx and block hashes (~3.1 MiB) */
/* Transaction gossip by announcement and request (docs/p2p.md §4). */
#define ZBC_P2P_INV_MS 50u               /* announcements wait this long at
                                          * most (or for a full TxInv) */
#define ZBC_P2P_TX_REQUEST_MS 2000u      /* a requested hash not delivered:
                                          * the next announcer is asked */
#define ZBC_P2P_TX_INFLIGHT 32768u       /* hashes requested, all peers */
#define ZBC_P2P_TX_INFLIGHT_PEER 8192u   /* ... from one peer */
#define ZBC_P2P_TX_REQS_PEER 128u        /* GetTxs unanswered, one peer */
#define ZBC_P2P_ASK_BATCH 256u           /* hashes per GetTxs this node
                                          * sends: the Txs answering one is
                                          * checked in one go, ~15 ms under
                                          * load (4,096 took ~250 ms and
                                          * held the producer's slot) */
#define ZBC_P2P_TXS_TIMEOUT_MS 30000u    /* GetTxs unanswered: scored
                                          * (10 s until 2026-12-02: it
                                          * banned overloaded validators) */
#define ZBC_P2P_PEER_KNOWN 8192u         /* per peer: tx hashes it has */
#define ZBC_P2P_TX_LATER_PEER 4096u      /* per peer: announcements kept
                                          * while it or the table is at its
                                          * limit, asked when room frees */
#define ZBC_P2P_PEER_OFFERED 16384u      /* per peer: tx hashes announced
                                          * to it and not yet sent to it;
                                          * GetTxs gets only these */
#define ZBC_P2P_REANNOUNCE_MS 10000u     /* a pooled transaction not
                                          * included this long after its
                                          * admission: announced again to
                                          * every peer ... */
#define ZBC_P2P_REANNOUNCE_TIMES 6u      /* ... at most this many times */
#define ZBC_P2P_REANNOUNCE_TRACK 32768u  /* transactions tracked for it
                                          * (the oldest go first) */
#define ZBC_P2P_REANNOUNCE_BATCH 1024u   /* re-announced per gossip pass */
#define ZBC_P2P_PEER_ASKED 16384u        /* per peer: tx hashes asked from
                                          * it (an answer's transaction
                                          * asked once is never unasked,
                                          * however late) */
#define ZBC_P2P_PEER_SENT 8192u          /* per peer: tx hashes sent to it
                                          * (a GetTxs asking one again is
                                          * a repeat) */
#define ZBC_P2P_REPEAT_PER_POINT 16u     /* GetTxs hashes sent to the peer
                                          * already: 1 point per this many */
#define ZBC_P2P_UNOFFERED_PER_POINT 256u /* GetTxs hashes not announced to
                                          * it (or so long ago that the
                                          * set forgot): 1 point per this
                                          * many */
#define ZBC_P2P_UNDELIVERED_PER_POINT 16u /* announced, asked, left out
                                           * of its answer and unknown
                                           * here the grace time after:
                                           * 1 point per this many */
#define ZBC_P2P_OMIT_GRACE_MS 5000u       /* ... that grace time */
#define ZBC_P2P_OMIT_FREE 1024u           /* ... and past this many */
#define ZBC_P2P_OMIT_FREE_PER_DELIVERED 4u /* ... plus this many per
                                            * transaction it delivered */
#define ZBC_P2P_PEER_OMITTED 8192u        /* per peer: left-out hashes
                                           * waiting for it (more: the
                                           * oldest is judged at once) */
/* Bytes read from / written to a handshaken peer's socket in one step of
 * the event loop (libevent's default: 16 KiB). */
#define ZBC_P2P_IO_STEP ((size_t)1 << 20)
/* A peer's frames opened and decoded ahead of their handling (its
 * receive queue, blocks first): filled while it holds less than this. */
#define ZBC_P2P_RXQ_BYTES ((size_t)4 << 20)
/* Memory caps. */
#define ZBC_P2P_MAX_OUTPUT ((size_t)8 << 20)   /* one peer's send queue */
/* accept() failing (out of descriptors): accepting pauses this long */
#define ZBC_P2P_ACCEPT_BACKOFF_MS 1000u
#define ZBC_P2P_OUTPUT_CAP ((size_t)64 << 20)  /* all send queues */
#define ZBC_P2P_INPUT_CAP ((size_t)64 << 20)   /* all partial frames */
#define ZBC_P2P_GETBLOCKS_BURST 8u     /* answers a peer gets at once */
#define ZBC_P2P_GETBLOCKS_REFILL_MS 100u /* ... then one per this long */
/* Scores and bans. */
#define ZBC_P2P_BAN_SCORE 100        /* misbehaviour score that bans */
#define ZBC_P2P_BAN_MS 60000u        /* first ban; each next one doubles */
#define ZBC_P2P_BAN_MAX_MS 86400000u /* longest ban */
#define ZBC_P2P_SCORE_DECAY_MS 6000u /* a score loses 1 point per this long */
#define ZBC_P2P_REP_MAX 4096u        /* remembered keys and addresses */
#define ZBC_P2P_SCORE_MALFORMED 100  /* bad frame, bad protobuf, bad fields */
#define ZBC_P2P_SCORE_BAD_BLOCK 100  /* a block that fails validation */
#define ZBC_P2P_SCORE_BAD_TX 20      /* a transaction invalid in itself */
#define ZBC_P2P_SCORE_PROTOCOL 50    /* a second hello, blocks not asked */
#define ZBC_P2P_SCORE_STALL 60       /* GetBlocks unanswered in time */
#define ZBC_P2P_SCORE_UNDELIVERED 20 /* a claimed tip the sync never gave */
/* ... scored at the peer's next tip announcement unless that names a block
 * we know (it reorged away from the claim), or after this long without one */
#define ZBC_P2P_UNDELIVERED_GRACE_MS (2u * ZBC_P2P_PING_MS + 1000u)
#define ZBC_P2P_SCORE_FLOOD 10       /* get_blocks while one is waiting */
#define ZBC_P2P_SCORE_BAD_VOTE 50    /* a vote that fails verification */
#define ZBC_P2P_SCORE_UNASKED_TX 10  /* a Txs answer with a transaction
                                      * that was not asked for */
#define ZBC_P2P_SCORE_TX_STALL 20    /* GetTxs unanswered in time */

struct zbc_p2p;

struct zbc_p2p_config {
    const char *listen;          /* "HOST:PORT" or NULL: no listener */
    const char *const *peers;    /* "HOST:PORT" each, dialled and redialled */
    size_t n_peers;
    const struct zbc_node_key *key; /* required: proves this node's key */
    uint64_t (*now_ms)(void);    /* NULL: zbc_wall_clock_ms */
    /* Memory caps in bytes, 0: the defaults ZBC_P2P_MAX_OUTPUT,
     * ZBC_P2P_OUTPUT_CAP, ZBC_P2P_INPUT_CAP (tests pass small ones). */
    size_t max_output, output_cap, input_cap;
};

ZBC_WUR int zbc_p2p_start(struct zbc_p2p **out, struct event_base *base,
                          struct zbc_chain *c,
                          const struct zbc_p2p_config *cfg,
                          struct zbc_err *err);
void zbc_p2p_stop(struct zbc_p2p *p);

/* Votes (docs/protocol-chain.md §8.7): received ones go to f, which gives
 * this node's own votes and the ones to relay back for every peer. */
struct zbc_finality;
void zbc_p2p_set_finality(struct zbc_p2p *p, struct zbc_finality *f);

/* The port the listener is bound to (the real one when --p2p gave port
 * 0); 0 without a listener. */
uint16_t zbc_p2p_listen_port(const struct zbc_p2p *p);
/* Peers past the handshake (distinct node keys). */
uint32_t zbc_p2p_peer_count(const struct zbc_p2p *p);
/* Whether the listener accepts now (false during an accept back-off). */
bool zbc_p2p_accepting(const struct zbc_p2p *p);
/* The node's network status (docs/p2p.md §8), also given to the chain
 * (zbc_chain_set_net_status) on every change and tick. */
void zbc_p2p_status(struct zbc_p2p *p, struct zbc_net_status *out);

/* Blocks that reached this node and wait unread in its peers' sockets or
 * receive queues, taken in now (docs/p2p.md §8 "Blocks in hand before a
 * slot"): each peer's socket is read without waiting, its frames are
 * opened and decoded, and its queued Block messages are handled.  The
 * producer calls it before it builds a block, so a block that arrived
 * while the event loop was busy is applied before this node publishes a
 * competitor to it.  Returns the number of Block messages handled. */
unsigned zbc_p2p_take_blocks(struct zbc_p2p *p);

/* Transaction gossip counters since start (docs/p2p.md §4), also logged
 * every ZBC_P2P_STATS_LOG_MS while they change and at stop. */
#define ZBC_P2P_STATS_LOG_MS 30000u
struct zbc_p2p_gossip_stats {
    uint64_t txs_admitted;   /* transactions newly admitted here (any source) */
    uint64_t tx_msgs, tx_bytes; /* sent: Tx, TxInv, GetTxs, Txs frames */
    uint64_t inv_hashes, asked_hashes, sent_txs; /* entries sent */
    uint64_t all_msgs, all_bytes; /* sent: every frame */
    uint64_t unasked, undelivered; /* peers' Txs entries not asked for,
                                    * requested hashes not delivered */
    uint64_t excused;        /* hashes a peer left out that this node knew
                              * the grace time after: not scored */
    uint64_t later_dropped;  /* announcements past a peer's full ring of
                              * ZBC_P2P_TX_LATER_PEER: ignored */
    uint64_t unoffered;      /* peers' GetTxs hashes not announced to them
                              * or sent already: left out */
    uint64_t reannounced;    /* pooled transactions announced again */
    uint64_t reannounce_dropped; /* admitted past a full re-announcement
                                  * ring: the oldest tracked one forgotten */
};
void zbc_p2p_gossip_stats(const struct zbc_p2p *p,
                          struct zbc_p2p_gossip_stats *out);

/* The ban table (docs/p2p.md §6): a misbehaviour score per node key and
 * per IPv4 address (id[0..4) in network order, the rest zero), losing one
 * point per ZBC_P2P_SCORE_DECAY_MS; at ZBC_P2P_BAN_SCORE the id is banned
 * for ZBC_P2P_BAN_MS, twice as long at each next ban (at most
 * ZBC_P2P_BAN_MAX_MS).  At most cap ids: a full table forgets the least
 * recently active id that is not banned, and only when every id is banned,
 * the ban that ends first. */
struct zbc_p2p_bans;
struct zbc_p2p_bans *zbc_p2p_bans_new(size_t cap);
void zbc_p2p_bans_free(struct zbc_p2p_bans *b);
/* Adds score (force: ban now whatever the score); true when it banned. */
bool zbc_p2p_bans_add(struct zbc_p2p_bans *b, bool is_addr,
                      const uint8_t id[32], int score, bool force,
                      uint64_t now);
/* When the id's ban ends; 0 when it is not banned. */
uint64_t zbc_p2p_bans_until(struct zbc_p2p_bans *b, bool is_addr,
                            const uint8_t id[32], uint64_t now);

#endif
