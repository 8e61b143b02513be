/* P2P networking over libevent (docs/p2p.md): a listener, outbound
 * connections to configured peers (reconnected with backoff), the
 * handshake (protocol version and genesis hash), gossip of transactions
 * and blocks with a seen-hash cache, batch sync with block locators, and
 * misbehaviour scores with temporary bans by node key.
 *
 * Wire format: node/zbcd/p2p_wire.h.  Chain effects: node/zbcd/chain.h
 * (zbc_chain_submit, zbc_chain_receive_block); the chain's listener tells
 * this layer what to gossip.  Single-threaded, on the daemon's event
 * loop; the clock is the config's now_ms. */
#ifndef ZBC_NODE_P2P_H
#define ZBC_NODE_P2P_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <event2/event.h>

#include "crypto/err.h"
#include "node/zbcd/chain.h"

#define ZBC_P2P_MAX_PEERS 64u
#define ZBC_P2P_BAN_SCORE 100        /* misbehaviour score that bans */
#define ZBC_P2P_BAN_MS 60000u        /* how long a ban lasts */
#define ZBC_P2P_PING_MS 2000u        /* tip announcement interval */
#define ZBC_P2P_SYNC_TIMEOUT_MS 10000u
#define ZBC_P2P_STARTUP_GRACE_MS 3000u /* wait for configured peers */
#define ZBC_P2P_RETRY_MIN_MS 500u    /* outbound reconnect backoff */
#define ZBC_P2P_RETRY_MAX_MS 8000u
#define ZBC_P2P_RELAY_AGE_MS 60000u  /* older blocks are history: not relayed */
#define ZBC_P2P_SEEN_CACHE 8192u
#define ZBC_P2P_MAX_OUTPUT ((size_t)32 << 20) /* slower peers are dropped */

/* Scores (docs/p2p.md "Misbehaviour"). */
#define ZBC_P2P_SCORE_MALFORMED 100  /* bad frame, bad protobuf, bad fields */
#define ZBC_P2P_SCORE_BAD_BLOCK 100  /* a block that fails validation */
#define ZBC_P2P_SCORE_BAD_TX 20      /* a transaction invalid in itself */
#define ZBC_P2P_SCORE_BAD_VOTE 50     /* a vote that fails verification */
#define ZBC_P2P_SCORE_PROTOCOL 50    /* a message before the handshake ... */

struct zbc_p2p;

struct zbc_p2p_config {
    const char *listen;          /* "HOST:PORT" or NULL: no listener */
    const char *const *peers;    /* "HOST:PORT" each, dialled and redialled */
    size_t n_peers;
    uint64_t (*now_ms)(void);    /* NULL: zbc_wall_clock_ms */
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
/* True when no sync is in flight and no peer announced a tip this node
 * does not know at a height >= its own, and (for the first
 * ZBC_P2P_STARTUP_GRACE_MS) every configured peer has completed a
 * handshake: the producer waits otherwise. */
bool zbc_p2p_synced(const struct zbc_p2p *p);

#endif
