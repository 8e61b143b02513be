#include "node/zbcd/p2p_wire.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "consensus/block.h"
#include "crypto/bytes.h"
#include "crypto/hash.h"
#include "consensus/vote.h"

enum zbc_p2p_frame zbc_p2p_frame_check(const uint8_t *buf, size_t avail,
                                       uint32_t max, uint32_t *msg_len,
                                       struct zbc_err *err)
{
    if (avail < 4)
        return ZBC_P2P_FRAME_NEED_MORE;
    uint32_t n = zbc_get_le32(buf);
    if (n == 0) {
        zbc_fail(err, "message length is 0");
        return ZBC_P2P_FRAME_BAD;
    }
    if (n > max) {
        zbc_fail(err, "message length %u is above the %u-byte limit", n, max);
        return ZBC_P2P_FRAME_BAD;
    }
    *msg_len = n;
    return avail - 4 >= n ? ZBC_P2P_FRAME_READY : ZBC_P2P_FRAME_NEED_MORE;
}

static int check_hash(const ProtobufCBinaryData *b, const char *what,
                      struct zbc_err *err)
{
    if (b->len != 32)
        return zbc_fail(err, "%s is %zu bytes, not 32", what, b->len);
    return 1;
}

static int check_block_bytes(const ProtobufCBinaryData *b,
                             struct zbc_err *err)
{
    if (b->len < ZBC_BLOCK_HEADER_LEN)
        return zbc_fail(err, "block is %zu bytes, shorter than a header",
                        b->len);
    return 1;
}

/* The message the envelope carries, as protobuf-c's base. */
static const ProtobufCMessage *inner(const zbc_p2p_msg *m)
{
    switch (m->msg_case) {
    case ZBC__P2P__ENVELOPE__MSG_HELLO: return &m->hello->base;
    case ZBC__P2P__ENVELOPE__MSG_TX: return &m->tx->base;
    case ZBC__P2P__ENVELOPE__MSG_BLOCK: return &m->block->base;
    case ZBC__P2P__ENVELOPE__MSG_GET_BLOCKS: return &m->get_blocks->base;
    case ZBC__P2P__ENVELOPE__MSG_BLOCKS: return &m->blocks->base;
    case ZBC__P2P__ENVELOPE__MSG_PING: return &m->ping->base;
    case ZBC__P2P__ENVELOPE__MSG_PONG: return &m->pong->base;
    case ZBC__P2P__ENVELOPE__MSG_AUTH: return &m->auth->base;
    case ZBC__P2P__ENVELOPE__MSG_VOTES: return &m->votes->base;
    case ZBC__P2P__ENVELOPE__MSG_TX_INV: return &m->tx_inv->base;
    case ZBC__P2P__ENVELOPE__MSG_GET_TXS: return &m->get_txs->base;
    case ZBC__P2P__ENVELOPE__MSG_TXS: return &m->txs->base;
    case ZBC__P2P__ENVELOPE__MSG_GET_VOTE_SETS:
        return &m->get_vote_sets->base;
    case ZBC__P2P__ENVELOPE__MSG_VOTE_SETS: return &m->vote_sets->base;
    default: return NULL;
    }
}

/* TxInv and GetTxs: 1..ZBC_P2P_MAX_TX_HASHES hashes of 32 bytes. */
static int check_tx_hashes(size_t n, const ProtobufCBinaryData *h,
                           const char *what, struct zbc_err *err)
{
    if (n == 0 || n > ZBC_P2P_MAX_TX_HASHES)
        return zbc_fail(err, "%s has %zu hashes, not 1..%u", what, n,
                        ZBC_P2P_MAX_TX_HASHES);
    for (size_t i = 0; i < n; i++)
        if (h[i].len != 32)
            return zbc_fail(err, "%s hash %zu is %zu bytes, not 32", what, i,
                            h[i].len);
    return 1;
}

/* GetVoteSets and VoteSets (docs/p2p.md §13). */
static int check_get_vote_sets(const Zbc__P2p__GetVoteSets *g,
                               struct zbc_err *err)
{
    if (g->from_height == 0)
        return zbc_fail(err, "get_vote_sets from height 0 (the genesis has "
                             "no votes)");
    if (g->count == 0 || g->count > ZBC_P2P_MAX_VOTE_SETS)
        return zbc_fail(err, "get_vote_sets count %u is not 1..%u", g->count,
                        ZBC_P2P_MAX_VOTE_SETS);
    return 1;
}

static int check_vote_sets(const Zbc__P2p__VoteSets *v, struct zbc_err *err)
{
    if (v->n_vote_set > ZBC_P2P_MAX_VOTE_SETS)
        return zbc_fail(err, "vote_sets message has %zu sets, more than %u",
                        v->n_vote_set, ZBC_P2P_MAX_VOTE_SETS);
    for (size_t i = 0; i < v->n_vote_set; i++)
        if (v->vote_set[i].len < ZBC_VOTE_SET_HEADER_LEN ||
            v->vote_set[i].len > ZBC_VOTE_SET_MAX_LEN)
            return zbc_fail(err, "vote set %zu is %zu bytes, not %d..%d", i,
                            v->vote_set[i].len, ZBC_VOTE_SET_HEADER_LEN,
                            ZBC_VOTE_SET_MAX_LEN);
    return 1;
}

static int check_fields(const zbc_p2p_msg *m, struct zbc_err *err)
{
    /* fields this version does not know (protobuf-c keeps them, even
     * malformed ones such as field number 0) are refused: what a node
     * acts on is exactly what it decoded (docs/p2p.md §2) */
    const ProtobufCMessage *in = inner(m);
    if (m->base.n_unknown_fields > 0 ||
        (in != NULL && in->n_unknown_fields > 0))
        return zbc_fail(err, "message has %u unknown field(s)",
                        m->base.n_unknown_fields +
                            (in != NULL ? in->n_unknown_fields : 0));
    switch (m->msg_case) {
    case ZBC__P2P__ENVELOPE__MSG__NOT_SET:
        return zbc_fail(err, "message has no known kind");
    case ZBC__P2P__ENVELOPE__MSG_HELLO:
        return check_hash(&m->hello->genesis_hash, "hello genesis hash",
                          err) &&
               check_hash(&m->hello->node_key, "hello node key", err) &&
               check_hash(&m->hello->tip_hash, "hello tip hash", err) &&
               check_hash(&m->hello->kx_key, "hello kx key", err) &&
               (m->hello->listen_port <= 65535 ||
                zbc_fail(err, "hello listen port %u is not a port",
                         m->hello->listen_port));
    case ZBC__P2P__ENVELOPE__MSG_AUTH:
        if (m->auth->signature.len != 64)
            return zbc_fail(err, "auth signature is %zu bytes, not 64",
                            m->auth->signature.len);
        return 1;
    case ZBC__P2P__ENVELOPE__MSG_TX:
        if (m->tx->raw.len == 0)
            return zbc_fail(err, "tx message is empty");
        return 1;
    case ZBC__P2P__ENVELOPE__MSG_BLOCK:
        return check_block_bytes(&m->block->raw, err);
    case ZBC__P2P__ENVELOPE__MSG_GET_BLOCKS: {
        const Zbc__P2p__GetBlocks *g = m->get_blocks;
        if (g->n_locator == 0 || g->n_locator > ZBC_P2P_MAX_LOCATOR)
            return zbc_fail(err, "get_blocks has %zu locator hashes, not "
                            "1..%u", g->n_locator, ZBC_P2P_MAX_LOCATOR);
        for (size_t i = 0; i < g->n_locator; i++) {
            if (!check_hash(&g->locator[i], "locator hash", err))
                return 0;
        }
        if (g->count == 0 || g->count > ZBC_P2P_MAX_BATCH)
            return zbc_fail(err, "get_blocks count %u is not 1..%u",
                            g->count, ZBC_P2P_MAX_BATCH);
        return 1;
    }
    case ZBC__P2P__ENVELOPE__MSG_BLOCKS:
        if (m->blocks->n_raw > ZBC_P2P_MAX_BATCH)
            return zbc_fail(err, "blocks message has %zu blocks, more than "
                            "%u", m->blocks->n_raw, ZBC_P2P_MAX_BATCH);
        for (size_t i = 0; i < m->blocks->n_raw; i++) {
            if (!check_block_bytes(&m->blocks->raw[i], err))
                return 0;
        }
        if (m->blocks->n_vote_set > m->blocks->n_raw)
            return zbc_fail(err, "blocks message has %zu vote sets for %zu "
                            "blocks", m->blocks->n_vote_set,
                            m->blocks->n_raw);
        for (size_t i = 0; i < m->blocks->n_vote_set; i++)
            if (m->blocks->vote_set[i].len > ZBC_VOTE_SET_MAX_LEN)
                return zbc_fail(err, "vote set %zu is %zu bytes, more than "
                                "%d", i, m->blocks->vote_set[i].len,
                                ZBC_VOTE_SET_MAX_LEN);
        return 1;
    case ZBC__P2P__ENVELOPE__MSG_PING:
        return check_hash(&m->ping->tip_hash, "ping tip hash", err);
    case ZBC__P2P__ENVELOPE__MSG_PONG:
        return check_hash(&m->pong->tip_hash, "pong tip hash", err);
    case ZBC__P2P__ENVELOPE__MSG_VOTES:
        if (m->votes->n_vote == 0 || m->votes->n_vote > ZBC_P2P_MAX_VOTES)
            return zbc_fail(err, "votes message has %zu votes, not 1..%u",
                            m->votes->n_vote, ZBC_P2P_MAX_VOTES);
        for (size_t i = 0; i < m->votes->n_vote; i++)
            if (m->votes->vote[i].len != ZBC_VOTE_LEN)
                return zbc_fail(err, "vote %zu is %zu bytes, not %d", i,
                                m->votes->vote[i].len, ZBC_VOTE_LEN);
        return 1;
    case ZBC__P2P__ENVELOPE__MSG_TX_INV:
        return check_tx_hashes(m->tx_inv->n_hash, m->tx_inv->hash, "tx_inv",
                               err);
    case ZBC__P2P__ENVELOPE__MSG_GET_TXS:
        return check_tx_hashes(m->get_txs->n_hash, m->get_txs->hash,
                               "get_txs", err);
    case ZBC__P2P__ENVELOPE__MSG_TXS:
        if (m->txs->n_raw > ZBC_P2P_MAX_TXS)
            return zbc_fail(err, "txs message has %zu transactions, more "
                            "than %u", m->txs->n_raw, ZBC_P2P_MAX_TXS);
        for (size_t i = 0; i < m->txs->n_raw; i++)
            if (m->txs->raw[i].len == 0)
                return zbc_fail(err, "txs message: transaction %zu is empty",
                                i);
        return 1;
    case ZBC__P2P__ENVELOPE__MSG_GET_VOTE_SETS:
        return check_get_vote_sets(m->get_vote_sets, err);
    case ZBC__P2P__ENVELOPE__MSG_VOTE_SETS:
        return check_vote_sets(m->vote_sets, err);
    case _ZBC__P2P__ENVELOPE__MSG__CASE_IS_INT_SIZE:
        break;
    }
    return zbc_fail(err, "message has no known kind");
}

int zbc_p2p_decode(zbc_p2p_msg **out, const uint8_t *buf, size_t len,
                   struct zbc_err *err)
{
    *out = NULL;
    zbc_p2p_msg *m = zbc__p2p__envelope__unpack(NULL, len, buf);
    if (m == NULL)
        return zbc_fail(err, "message is not a valid protobuf envelope");
    if (!check_fields(m, err)) {
        zbc__p2p__envelope__free_unpacked(m, NULL);
        return 0;
    }
    *out = m;
    return 1;
}

void zbc_p2p_msg_free(zbc_p2p_msg *m)
{
    if (m != NULL)
        zbc__p2p__envelope__free_unpacked(m, NULL);
}

int zbc_p2p_encode(const zbc_p2p_msg *m, uint8_t **out, size_t *len,
                   struct zbc_err *err)
{
    size_t n = zbc__p2p__envelope__get_packed_size(m);
    if (n == 0 || n > ZBC_P2P_MAX_MESSAGE)
        return zbc_fail(err, "message of %zu bytes does not fit the %u-byte "
                        "limit", n, ZBC_P2P_MAX_MESSAGE);
    uint8_t *buf = malloc(n + 4);
    if (buf == NULL)
        return zbc_fail(err, "out of memory encoding a %zu-byte message", n);
    zbc_put_le32(buf, (uint32_t)n);
    zbc__p2p__envelope__pack(m, buf + 4);
    *out = buf;
    *len = n + 4;
    return 1;
}

void zbc_p2p_auth_digest(uint8_t out[32], const uint8_t genesis[32],
                         const uint8_t signer_key[32],
                         const uint8_t signer_kx[32],
                         const uint8_t receiver_key[32],
                         const uint8_t receiver_kx[32])
{
    struct zbc_sha3 h;
    zbc_sha3_init(&h);
    zbc_sha3_update(&h, ZBC_P2P_AUTH_TAG, strlen(ZBC_P2P_AUTH_TAG));
    zbc_sha3_update(&h, genesis, 32);
    zbc_sha3_update(&h, signer_key, 32);
    zbc_sha3_update(&h, signer_kx, 32);
    zbc_sha3_update(&h, receiver_key, 32);
    zbc_sha3_update(&h, receiver_kx, 32);
    zbc_sha3_final(&h, out);
}

int zbc_p2p_session_keys(uint8_t rx[32], uint8_t tx[32],
                         const uint8_t my_kx_pk[32],
                         const uint8_t my_kx_sk[32],
                         const uint8_t peer_kx[32], int dialler,
                         struct zbc_err *err)
{
    int rc = dialler ? crypto_kx_client_session_keys(rx, tx, my_kx_pk,
                                                     my_kx_sk, peer_kx)
                     : crypto_kx_server_session_keys(rx, tx, my_kx_pk,
                                                     my_kx_sk, peer_kx);
    if (rc != 0)
        return zbc_fail(err, "the peer's kx key is not a usable X25519 key");
    return 1;
}

static void seal_nonce(uint8_t npub[12], uint64_t nonce)
{
    zbc_put_le64(npub, nonce);
    memset(npub + 8, 0, 4);
}

int zbc_p2p_seal(const zbc_p2p_msg *m, const uint8_t key[32], uint64_t nonce,
                 uint8_t **out, size_t *len, struct zbc_err *err)
{
    size_t n = zbc__p2p__envelope__get_packed_size(m);
    if (n == 0 || n > ZBC_P2P_MAX_MESSAGE)
        return zbc_fail(err, "message of %zu bytes does not fit the %u-byte "
                        "limit", n, ZBC_P2P_MAX_MESSAGE);
    size_t total = 4 + n + ZBC_P2P_SEAL_TAG;
    uint8_t *buf = malloc(total);
    if (buf == NULL)
        return zbc_fail(err, "out of memory sealing a %zu-byte message", n);
    zbc_put_le32(buf, (uint32_t)(n + ZBC_P2P_SEAL_TAG));
    zbc__p2p__envelope__pack(m, buf + 4);
    uint8_t npub[12];
    seal_nonce(npub, nonce);
    unsigned long long clen = 0;
    crypto_aead_chacha20poly1305_ietf_encrypt(buf + 4, &clen, buf + 4, n,
                                              buf, 4, NULL, npub, key);
    *out = buf;
    *len = total;
    return 1;
}

int zbc_p2p_open(zbc_p2p_msg **out, const uint8_t key[32], uint64_t nonce,
                 const uint8_t *frame, size_t len, struct zbc_err *err)
{
    *out = NULL;
    if (len < 4 + ZBC_P2P_SEAL_TAG + 1 || zbc_get_le32(frame) != len - 4)
        return zbc_fail(err, "sealed frame of %zu bytes is too short", len);
    size_t n = len - 4 - ZBC_P2P_SEAL_TAG;
    uint8_t *plain = malloc(n);
    if (plain == NULL)
        return zbc_fail(err, "out of memory opening a %zu-byte frame", n);
    uint8_t npub[12];
    seal_nonce(npub, nonce);
    unsigned long long plen = 0;
    if (crypto_aead_chacha20poly1305_ietf_decrypt(
            plain, &plen, NULL, frame + 4, len - 4, frame, 4, npub, key) != 0) {
        free(plain);
        return zbc_fail(err, "sealed frame %llu does not open with the "
                        "session key (tampered, replayed or out of order)",
                        (unsigned long long)nonce);
    }
    int ok = zbc_p2p_decode(out, plain, (size_t)plen, err);
    free(plain);
    return ok;
}

void zbc_p2p_hashes_msg(struct zbc_p2p_hashes *b, int inv,
                        ProtobufCBinaryData *v, const uint8_t (*hs)[32],
                        size_t n)
{
    for (size_t i = 0; i < n; i++)
        v[i] = (ProtobufCBinaryData){32, (uint8_t *)hs[i]};
    b->inv = (Zbc__P2p__TxInv)ZBC__P2P__TX_INV__INIT;
    b->get = (Zbc__P2p__GetTxs)ZBC__P2P__GET_TXS__INIT;
    b->m = (zbc_p2p_msg)ZBC__P2P__ENVELOPE__INIT;
    if (inv) {
        b->inv.hash = v;
        b->inv.n_hash = n;
        b->m.msg_case = ZBC__P2P__ENVELOPE__MSG_TX_INV;
        b->m.tx_inv = &b->inv;
    } else {
        b->get.hash = v;
        b->get.n_hash = n;
        b->m.msg_case = ZBC__P2P__ENVELOPE__MSG_GET_TXS;
        b->m.get_txs = &b->get;
    }
}

void zbc_p2p_txs_msg(struct zbc_p2p_txs *b, ProtobufCBinaryData *v,
                     size_t n)
{
    b->txs = (Zbc__P2p__Txs)ZBC__P2P__TXS__INIT;
    b->txs.raw = v;
    b->txs.n_raw = n;
    b->m = (zbc_p2p_msg)ZBC__P2P__ENVELOPE__INIT;
    b->m.msg_case = ZBC__P2P__ENVELOPE__MSG_TXS;
    b->m.txs = &b->txs;
}

const char *zbc_p2p_msg_name(const zbc_p2p_msg *m)
{
    switch (m->msg_case) {
    case ZBC__P2P__ENVELOPE__MSG__NOT_SET:
        return "none";
    case ZBC__P2P__ENVELOPE__MSG_HELLO:
        return "hello";
    case ZBC__P2P__ENVELOPE__MSG_TX:
        return "tx";
    case ZBC__P2P__ENVELOPE__MSG_BLOCK:
        return "block";
    case ZBC__P2P__ENVELOPE__MSG_GET_BLOCKS:
        return "get_blocks";
    case ZBC__P2P__ENVELOPE__MSG_BLOCKS:
        return "blocks";
    case ZBC__P2P__ENVELOPE__MSG_PING:
        return "ping";
    case ZBC__P2P__ENVELOPE__MSG_PONG:
        return "pong";
    case ZBC__P2P__ENVELOPE__MSG_AUTH:
        return "auth";
    case ZBC__P2P__ENVELOPE__MSG_VOTES:
        return "votes";
    case ZBC__P2P__ENVELOPE__MSG_TX_INV:
        return "tx_inv";
    case ZBC__P2P__ENVELOPE__MSG_GET_TXS:
        return "get_txs";
    case ZBC__P2P__ENVELOPE__MSG_TXS:
        return "txs";
    case ZBC__P2P__ENVELOPE__MSG_GET_VOTE_SETS:
        return "get_vote_sets";
    case ZBC__P2P__ENVELOPE__MSG_VOTE_SETS:
        return "vote_sets";
    case _ZBC__P2P__ENVELOPE__MSG__CASE_IS_INT_SIZE:
        break;
    }
    return "unknown";
}
