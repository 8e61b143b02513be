/* libFuzzer target: P2P framing and envelope decoding (node/zbcd/p2p_wire.h).
 * The input is a byte stream as a peer would send it: frames are cut off
 * one by one; each decoded message must re-encode to a frame that decodes
 * again to the same kind, and a refused one must leave nothing behind. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "node/zbcd/p2p_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t off = 0;
    while (off < size) {
        struct zbc_err err;
        uint32_t n = 0;
        enum zbc_p2p_frame f = zbc_p2p_frame_check(data + off, size - off, &n,
                                                   &err);
        if (f != ZBC_P2P_FRAME_READY)
            break;
        if (n > size - off - 4)
            abort();
        zbc_p2p_msg *m = NULL;
        if (zbc_p2p_decode(&m, data + off + 4, n, &err)) {
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
            zbc_p2p_msg_free(m);
        } else if (m != NULL) {
            abort();
        }
        off += 4 + (size_t)n;
    }
    return 0;
}
