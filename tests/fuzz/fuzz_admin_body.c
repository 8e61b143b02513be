/* libFuzzer target: arbitrary bytes as a POST /api/v1/admin/mine body,
 * through the decoder the API uses (zbc_api_mine_body).  Invariants: no
 * crash, no leak; an accepted body names 1..1000 blocks, and every
 * refusal is one sentence. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "node/zbcd/api.h"
#include "node/zbcd/producer_loop.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint32_t n = 0;
    struct zbc_err err;
    memset(&err, 0, sizeof err);
    if (zbc_api_mine_body(&n, (const char *)data, size, &err)) {
        if (n < 1 || n > ZBC_PRODUCER_MINE_MAX)
            abort();
    } else if (err.msg[0] == '\0') {
        abort(); /* a refusal always says why */
    }
    return 0;
}
