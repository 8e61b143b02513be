/* libFuzzer target: the genesis JSON parser and the canonical-bytes
 * decoder.  Input: [mode u8] then bytes.
 *   mode even: JSON text; if accepted, its canonical bytes must decode to
 *              the same genesis (same hash, same bytes again).
 *   mode odd:  canonical bytes; if accepted, encode must give them back. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "consensus/genesis.h"

static void check_round_trip(const struct zbc_genesis *g, const uint8_t *orig,
                             size_t orig_len)
{
    uint8_t *bytes;
    size_t len;
    struct zbc_err err;
    if (!zbc_genesis_encode(g, &bytes, &len, &err))
        abort();
    if (orig != NULL && (len != orig_len || memcmp(bytes, orig, len) != 0))
        abort();
    struct zbc_genesis d;
    if (!zbc_genesis_decode(&d, bytes, len, &err))
        abort();
    if (memcmp(d.hash, g->hash, 32) != 0 || d.total_supply != g->total_supply)
        abort();
    zbc_genesis_free(&d);
    free(bytes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    struct zbc_genesis g;
    struct zbc_err err;
    if ((data[0] & 1) == 0) {
        if (zbc_genesis_parse_json(&g, (const char *)data + 1, size - 1,
                                   &err)) {
            check_round_trip(&g, NULL, 0);
            zbc_genesis_free(&g);
        }
    } else {
        if (zbc_genesis_decode(&g, data + 1, size - 1, &err)) {
            check_round_trip(&g, data + 1, size - 1);
            zbc_genesis_free(&g);
        }
    }
    return 0;
}
