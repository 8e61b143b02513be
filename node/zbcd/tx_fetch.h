/* Transaction requests in flight (docs/p2p.md §4 "Transaction gossip"):
 * which peer was asked for an announced transaction hash (GetTxs), until
 * when, and which other peers announced it too, so that a hash is asked
 * from one peer at a time and, when that peer does not deliver in time,
 * from the next one that announced it.
 *
 * At most `cap` hashes are tracked: a full table takes no new hash
 * (ZBC_TXF_LATER: the caller keeps the announcement in its own bounded
 * queue; nothing is evicted), so memory is fixed at creation whatever
 * peers announce.  Each hash remembers at most
 * ZBC_TXF_ALTS other announcers.  Peers are named by a non-zero id the
 * caller chooses.  Look-up, insertion and removal are O(1) (the index is
 * the gossip de-duplication set's, seen_set.h); the timeout pass is a scan
 * of the table.  Pure: no I/O, the clock is the caller's. */
#ifndef ZBC_TX_FETCH_H
#define ZBC_TX_FETCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ZBC_TXF_ALTS 3u

struct zbc_txf;

/* cap > 0; NULL on allocation failure. */
struct zbc_txf *zbc_txf_new(size_t cap, uint64_t timeout_ms);
void zbc_txf_free(struct zbc_txf *t);

enum zbc_txf_ann {
    ZBC_TXF_ASK,  /* new: ask `peer` now (in flight from it until
                   * now + timeout) */
    ZBC_TXF_WAIT, /* in flight from another peer: `peer` is remembered as
                   * an announcer to ask next */
    ZBC_TXF_SKIP, /* not tracked: the announcer list is full, or peer
                   * announced it already */
    ZBC_TXF_LATER, /* not tracked now: the table is full, or may_ask is
                    * false and nobody is asked yet; the caller may keep
                    * the announcement and offer it again when there is
                    * room (docs/p2p.md §4) */
};

/* `peer` announced h (the caller does not have h).  may_ask: peer is below
 * its own in-flight limit; seq: the number of the peer's request h goes
 * into when asked (see zbc_txf_answered). */
enum zbc_txf_ann zbc_txf_announced(struct zbc_txf *t, const uint8_t h[32],
                                   uint64_t peer, bool may_ask, uint32_t seq,
                                   uint64_t now);

/* A transaction with hash h arrived from peer.  True when h was asked
 * from peer (now, or before its last time-out: a late answer still
 * counts); the entry is then removed and *asked gets the peer it was in
 * flight from at the end (its in-flight count goes down). */
bool zbc_txf_received(struct zbc_txf *t, const uint8_t h[32], uint64_t peer,
                      uint64_t *asked);

/* h arrived some other way (a block, the API, another peer): the entry,
 * if any, is removed; *asked as above, 0 when there was none. */
void zbc_txf_done(struct zbc_txf *t, const uint8_t h[32], uint64_t *asked);

/* Peer answered its request number seq (and every earlier one): the
 * hashes still in flight from it with that number or an earlier one were
 * left out of its answers.  They are overdue at the next pass; blame:
 * marked omitted (the caller holds it against the peer).  Returns how
 * many. */
size_t zbc_txf_answered(struct zbc_txf *t, uint64_t peer, uint32_t seq,
                        bool blame);

/* The timeout pass.  For each hash whose request is overdue (or whose
 * asked peer is gone, or that was left out of an answer):
 * expired(arg, h, peer, omitted) is called for the peer that did not
 * deliver (omitted: it answered without it, rather than not in time),
 * then ask(arg, h, alt, &seq) for the remembered announcers in order
 * until one returns true (the caller asked it, in its request number seq:
 * in flight from it until now + timeout); when none does, the hash is
 * forgotten. */
struct zbc_txf_cb {
    void (*expired)(void *arg, const uint8_t h[32], uint64_t peer,
                    bool omitted);
    bool (*ask)(void *arg, const uint8_t h[32], uint64_t peer,
                uint32_t *seq);
    void *arg;
};
void zbc_txf_expire(struct zbc_txf *t, uint64_t now,
                    const struct zbc_txf_cb *cb);

/* Peer is gone: the hashes asked from it are overdue at the next pass,
 * and it is no longer an announcer. */
void zbc_txf_peer_gone(struct zbc_txf *t, uint64_t peer);

/* Hashes tracked. */
size_t zbc_txf_count(const struct zbc_txf *t);

#endif
