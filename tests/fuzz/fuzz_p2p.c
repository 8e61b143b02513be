/* libFuzzer target: P2P framing, envelope decoding and sealed frames
 * (node/zbcd/p2p_wire.h, docs/p2p.md §1-§3).  The input is a byte stream
 * as a peer would send it: the first frame is held to the plaintext Hello
 * limit, later ones to the sealed-frame limit; frames are cut off one by
 * one.  Each frame is decoded as a plain envelope (every message kind,
 * Auth included) and opened as a sealed frame under a fixed session key
 * (the tag almost never matches: the refusal must leave nothing behind).
 * A decoded message must re-encode, plain and sealed, to a frame that
 * decodes or opens again to the same kind, and hold the field rules the
 * decoder promises for the transaction gossip messages (TxInv, GetTxs,
 * Txs: docs/p2p.md §4) and the vote-set messages (docs/p2p.md §13): the
 * rest of the node relies on them without checking again. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "consensus/vote.h"
#include "node/zbcd/p2p_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint8_t key[32] = {0x5a, 0x17, 0x03};

static void round_trip(const zbc_p2p_msg *m, uint64_t nonce)
{
    struct zbc_err err;
    uint8_t *enc = NULL;
    size_t len = 0;
    if (!zbc_p2p_encode(m, &enc, &len, &err))
        abort();
    zbc_p2p_msg *m2 = NULL;
    if (!zbc_p2p_decode(&m2, enc + 4, len - 4, &err) ||
        m2->msg_case != m->msg_case)
        abort();
    zbc_p2p_msg_free(m2);
    free(enc);
    if (!zbc_p2p_seal(m, key, nonce, &enc, &len, &err))
        abort();
    m2 = NULL;
    if (!zbc_p2p_open(&m2, key, nonce, enc, len, &err) ||
        m2->msg_case != m->msg_case)
        abort();
    zbc_p2p_msg_free(m2);
    m2 = NULL;
    if (zbc_p2p_open(&m2, key, nonce + 1, enc, len, &err) || m2 != NULL)
        abort(); /* another nonce: a replay never opens */
    free(enc);
}

/* What the decoder promises p2p.c about the transaction gossip kinds. */
static void check_tx_gossip(const zbc_p2p_msg *m)
{
    const ProtobufCBinaryData *v = NULL;
    size_t n = 0;
    if (m->msg_case == ZBC__P2P__ENVELOPE__MSG_TX_INV) {
        v = m->tx_inv->hash;
        n = m->tx_inv->n_hash;
    } else if (m->msg_case == ZBC__P2P__ENVELOPE__MSG_GET_TXS) {
        v = m->get_txs->hash;
        n = m->get_txs->n_hash;
    } else if (m->msg_case == ZBC__P2P__ENVELOPE__MSG_TXS) {
        if (m->txs->n_raw > ZBC_P2P_MAX_TXS)
            abort();
        for (size_t i = 0; i < m->txs->n_raw; i++)
            if (m->txs->raw[i].len == 0)
                abort();
        return;
    } else {
        return;
    }
    if (n == 0 || n > ZBC_P2P_MAX_TX_HASHES)
        abort();
    for (size_t i = 0; i < n; i++)
        if (v[i].len != 32)
            abort();
}

/* GetVoteSets: from >= 1, count 1..64; VoteSets: at most 64 sets of
 * 38..8486 bytes (p2p.c reads a set's height at bytes 1..4 unchecked). */
static void check_vote_set_rules(const zbc_p2p_msg *m)
{
    if (m->msg_case == ZBC__P2P__ENVELOPE__MSG_GET_VOTE_SETS) {
        const Zbc__P2p__GetVoteSets *g = m->get_vote_sets;
        if (g->from_height == 0 || g->count == 0 ||
            g->count > ZBC_P2P_MAX_VOTE_SETS)
            abort();
    }
    if (m->msg_case == ZBC__P2P__ENVELOPE__MSG_VOTE_SETS) {
        const Zbc__P2p__VoteSets *v = m->vote_sets;
        if (v->n_vote_set > ZBC_P2P_MAX_VOTE_SETS)
            abort();
        for (size_t i = 0; i < v->n_vote_set; i++)
            if (v->vote_set[i].len < ZBC_VOTE_SET_HEADER_LEN ||
                v->vote_set[i].len > ZBC_VOTE_SET_MAX_LEN)
                abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t off = 0;
    uint64_t nonce = 0;
    while (off < size) {
        struct zbc_err err;
        uint32_t n = 0;
        uint32_t max = off == 0 ? ZBC_P2P_MAX_HELLO : ZBC_P2P_MAX_FRAME;
        enum zbc_p2p_frame f = zbc_p2p_frame_check(data + off, size - off,
                                                   max, &n, &err);
        if (f != ZBC_P2P_FRAME_READY)
            break;
        if (n > size - off - 4 || n > max)
            abort();
        zbc_p2p_msg *m = NULL;
        if (zbc_p2p_decode(&m, data + off + 4, n, &err)) {
            check_tx_gossip(m);
            check_vote_set_rules(m);
            round_trip(m, nonce);
            zbc_p2p_msg_free(m);
        } else if (m != NULL) {
            abort();
        }
        m = NULL;
        if (zbc_p2p_open(&m, key, nonce, data + off, 4 + (size_t)n, &err)) {
            check_tx_gossip(m);
            check_vote_set_rules(m);
            zbc_p2p_msg_free(m);
        }
        else if (m != NULL)
            abort();
        nonce++;
        off += 4 + (size_t)n;
    }
    return 0;
}
