/* P2P wire format (docs/p2p.md): every message is a u32 little-endian
 * length, 1 .. ZBC_P2P_MAX_MESSAGE, then that many bytes of a protobuf
 * Envelope (proto/p2p.proto).  Decoding checks the protobuf encoding AND
 * the field rules the .proto cannot express (32-byte hashes, list sizes),
 * so the rest of the node never sees a malformed message.  Pure: no I/O. */
#ifndef ZBC_NODE_P2P_WIRE_H
#define ZBC_NODE_P2P_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"
#include "p2p.pb-c.h"

#define ZBC_P2P_PROTOCOL_VERSION 1u
#define ZBC_P2P_MAX_MESSAGE (4u << 20)  /* 4 MiB, SPEC §7 */
#define ZBC_P2P_MAX_LOCATOR 64u
#define ZBC_P2P_MAX_BATCH 128u          /* blocks per GetBlocks answer */
#define ZBC_P2P_MAX_VOTES 256u          /* votes per Votes message */
#define ZBC_P2P_BATCH_BYTES (3u << 20)  /* an answer stops below this */

typedef Zbc__P2p__Envelope zbc_p2p_msg;

enum zbc_p2p_frame {
    ZBC_P2P_FRAME_NEED_MORE = 0, /* fewer bytes buffered than the frame */
    ZBC_P2P_FRAME_READY,         /* *msg_len bytes follow the prefix */
    ZBC_P2P_FRAME_BAD,           /* length 0 or above the limit (err) */
};

/* Looks at the first bytes buffered on a connection. */
enum zbc_p2p_frame zbc_p2p_frame_check(const uint8_t *buf, size_t avail,
                                       uint32_t *msg_len,
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

/* Name of a message kind for logs ("hello", "tx", ...). */
const char *zbc_p2p_msg_name(const zbc_p2p_msg *m);

#endif
