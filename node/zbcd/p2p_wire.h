/* P2P wire format (docs/p2p.md §1-§3): every message is a u32
 * little-endian length, then that many bytes.  The first frame each way is
 * a plaintext protobuf Envelope holding Hello (length 1 ..
 * ZBC_P2P_MAX_HELLO); every later frame is sealed: ChaCha20-Poly1305-IETF
 * of the Envelope under the direction's session key (crypto_kx over the
 * two Hellos' kx_key), nonce = the frame's index in that direction (u64
 * LE, then 4 zero bytes), the 4 length bytes as associated data; length
 * 17 .. ZBC_P2P_MAX_MESSAGE + 16.  Decoding checks the protobuf encoding
 * AND the field rules the .proto cannot express (32-byte hashes, list
 * sizes), so the rest of the node never sees a malformed message.  Pure:
 * no I/O, no clock (the ephemeral key pair comes from the caller). */
#ifndef ZBC_NODE_P2P_WIRE_H
#define ZBC_NODE_P2P_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"
#include "p2p.pb-c.h"

#define ZBC_P2P_PROTOCOL_VERSION 3u
#define ZBC_P2P_MAX_MESSAGE (4u << 20)  /* 4 MiB of envelope, docs/p2p.md §1 */
#define ZBC_P2P_MAX_HELLO 1024u         /* the plaintext first frame */
#define ZBC_P2P_SEAL_TAG 16u            /* Poly1305 tag per sealed frame */
#define ZBC_P2P_MAX_FRAME (ZBC_P2P_MAX_MESSAGE + ZBC_P2P_SEAL_TAG)
#define ZBC_P2P_AUTH_TAG "ZBC-P2P-AUTH" /* handshake domain, docs/p2p.md §3 */
#define ZBC_P2P_MAX_LOCATOR 64u
#define ZBC_P2P_MAX_BATCH 128u          /* blocks per GetBlocks answer */
#define ZBC_P2P_MAX_VOTES 256u          /* votes per Votes message */
#define ZBC_P2P_BATCH_BYTES (3u << 20)  /* an answer stops below this */
#define ZBC_P2P_MAX_TX_HASHES 4096u     /* hashes per TxInv / GetTxs */
#define ZBC_P2P_MAX_TXS 4096u           /* transactions per Txs */
#define ZBC_P2P_MAX_VOTE_SETS 64u       /* vote sets per GetVoteSets */

typedef Zbc__P2p__Envelope zbc_p2p_msg;

enum zbc_p2p_frame {
    ZBC_P2P_FRAME_NEED_MORE = 0, /* fewer bytes buffered than the frame */
    ZBC_P2P_FRAME_READY,         /* *msg_len bytes follow the prefix */
    ZBC_P2P_FRAME_BAD,           /* length 0 or above the limit (err) */
};

/* Looks at the first bytes buffered on a connection; a length of 0 or
 * above max (ZBC_P2P_MAX_HELLO before the peer's Hello,
 * ZBC_P2P_MAX_FRAME after it) is BAD. */
enum zbc_p2p_frame zbc_p2p_frame_check(const uint8_t *buf, size_t avail,
                                       uint32_t max, uint32_t *msg_len,
                                       struct zbc_err *err);

/* Decodes one Envelope (the bytes after the prefix) and checks its field
 * rules.  *out is freed with zbc_p2p_msg_free; nothing is left on
 * failure. */
ZBC_WUR int zbc_p2p_decode(zbc_p2p_msg **out, const uint8_t *buf, size_t len,
                           struct zbc_err *err);
void zbc_p2p_msg_free(zbc_p2p_msg *m);

/* Prefix || packed envelope in one malloc'ed buffer. */
ZBC_WUR int zbc_p2p_encode(const zbc_p2p_msg *m, uint8_t **out, size_t *len,
                           struct zbc_err *err);

/* ---- the handshake and sealed frames (docs/p2p.md §3) ---- */

/* The digest a node key signs in Auth:
 *   H(ZBC_P2P_AUTH_TAG || genesis || signer_key || signer_kx ||
 *     receiver_key || receiver_kx)
 * (H = SHA3-256; every field 32 bytes).  The tag keeps a handshake
 * signature from ever being a block signature (H("ZBC-BLOCK" || ...)). */
void zbc_p2p_auth_digest(uint8_t out[32], const uint8_t genesis[32],
                         const uint8_t signer_key[32],
                         const uint8_t signer_kx[32],
                         const uint8_t receiver_key[32],
                         const uint8_t receiver_kx[32]);

/* The two session keys of a connection from the two Hellos' kx keys:
 * crypto_kx with the dialling side as client.  rx opens what the peer
 * sends, tx seals what this side sends.  Fails when peer_kx is not a
 * usable X25519 key. */
ZBC_WUR int zbc_p2p_session_keys(uint8_t rx[32], uint8_t tx[32],
                                 const uint8_t my_kx_pk[32],
                                 const uint8_t my_kx_sk[32],
                                 const uint8_t peer_kx[32], int dialler,
                                 struct zbc_err *err);

/* A sealed frame: prefix || ChaCha20-Poly1305(key, nonce, envelope). */
ZBC_WUR int zbc_p2p_seal(const zbc_p2p_msg *m, const uint8_t key[32],
                         uint64_t nonce, uint8_t **out, size_t *len,
                         struct zbc_err *err);

/* Opens and decodes one sealed frame: `frame` is the whole frame (prefix
 * included, as zbc_p2p_frame_check measured it). */
ZBC_WUR int zbc_p2p_open(zbc_p2p_msg **out, const uint8_t key[32],
                         uint64_t nonce, const uint8_t *frame, size_t len,
                         struct zbc_err *err);

/* A TxInv (inv) or GetTxs envelope of the n hashes hs, in *b (which must
 * stay in place while it is sent): v, n entries of the caller's, is made
 * to point into hs. */
struct zbc_p2p_hashes {
    Zbc__P2p__TxInv inv;
    Zbc__P2p__GetTxs get;
    zbc_p2p_msg m;
};
void zbc_p2p_hashes_msg(struct zbc_p2p_hashes *b, int inv,
                        ProtobufCBinaryData *v, const uint8_t (*hs)[32],
                        size_t n);

/* A Txs envelope of the n transactions v (the caller's), in *b. */
struct zbc_p2p_txs {
    Zbc__P2p__Txs txs;
    zbc_p2p_msg m;
};
void zbc_p2p_txs_msg(struct zbc_p2p_txs *b, ProtobufCBinaryData *v,
                     size_t n);

/* Name of a message kind for logs ("hello", "tx", ...). */
const char *zbc_p2p_msg_name(const zbc_p2p_msg *m);

#endif
