/* libFuzzer target: block decoding.  Any input either fails cleanly or
 * decodes to a block whose encoding is exactly the input; the header
 * alone round-trips too, and the tx root of the decoded transactions is
 * computable.  Decoding does not verify signatures, so everything that
 * parses is exercised. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "consensus/block.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct zbc_block b;
    struct zbc_err err;
    if (!zbc_block_decode(&b, data, size, &err))
        return 0;
    uint8_t *enc;
    size_t len;
    if (!zbc_block_encode(&b, &enc, &len, &err))
        abort();
    if (len != size || memcmp(enc, data, size) != 0)
        abort();
    free(enc);
    uint8_t hb[ZBC_BLOCK_HEADER_LEN];
    zbc_block_header_encode(hb, &b.header);
    if (memcmp(hb, data, ZBC_BLOCK_HEADER_LEN) != 0)
        abort();
    uint8_t(*hashes)[32] = malloc((b.n_tx ? b.n_tx : 1) * 32);
    if (hashes == NULL)
        abort();
    for (uint32_t i = 0; i < b.n_tx; i++)
        zbc_tx_ref_hash(hashes[i], &b.txs[i]);
    uint8_t root[32];
    zbc_tx_root(root, (const uint8_t(*)[32])hashes, b.n_tx);
    free(hashes);
    zbc_block_free(&b);
    return 0;
}
