/* libFuzzer target: transaction bytes (zbc_tx_parse).  When parse
 * succeeds, re-serializing the parsed fields must reproduce the input
 * exactly; the body parser, the stateless validity checks and the submit
 * payload (build, then parse back to the same bytes) must not crash, and
 * every failure must name its reason. */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "consensus/tx.h"
#include "consensus/tx_body.h"
#include "consensus/tx_payload.h"
#include "consensus/tx_valid.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(cond)                                                         \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "fuzz_tx: %s failed at line %d\n", #cond,         \
                    __LINE__);                                                \
            abort();                                                          \
        }                                                                     \
    } while (0)

static const uint8_t genesis[32] = {0xcf, 0x30, 0xb4, 0xa8};

static void check_payload(const struct zbc_tx *tx, const uint8_t *data,
                          size_t size)
{
    json_t *p = NULL;
    struct zbc_err err = {{0}};
    uint8_t *back = NULL;
    size_t n = 0;
    if (!zbc_tx_payload_build(&p, tx, &err)) {
        /* only a multi-party escrow, a non-UTF-8 instruction, or an
         * account whose typed bytes are 32 long (type 13) */
        REQUIRE(err.msg[0] != '\0');
        REQUIRE(tx->has_escrow || tx->sender.len == 28 || tx->recipient.len == 28);
        return;
    }
    REQUIRE(zbc_tx_payload_parse(&back, &n, p, &err));
    REQUIRE(n == size && memcmp(back, data, size) == 0);
    free(back);
    json_decref(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct zbc_tx tx;
    struct zbc_err err = {{0}};
    uint8_t *out;
    size_t n = 0;

    if (!zbc_tx_parse(&tx, data, size, &err)) {
        REQUIRE(err.msg[0] != '\0');
        return 0;
    }
    REQUIRE(tx.raw == data && tx.raw_len == size);
    REQUIRE(tx.unsigned_len + tx.sig_len == size);
    out = malloc(size ? size : 1);
    REQUIRE(out != NULL);
    REQUIRE(zbc_tx_write(out, size, &n, &tx, &err));
    REQUIRE(n == size && memcmp(out, data, size) == 0);
    free(out);

    struct zbc_tx_body body;
    if (zbc_tx_body_parse(&body, tx.type, tx.body, tx.body_len, &err)) {
        uint8_t b[ZBC_TX_BODY_MAX];
        size_t m = 0;
        REQUIRE(zbc_tx_body_write(b, sizeof b, &m, &body, &err));
        REQUIRE(m == tx.body_len && memcmp(b, tx.body, m) == 0);
    } else {
        REQUIRE(err.msg[0] != '\0');
    }
    err.msg[0] = '\0';
    if (!zbc_tx_valid(&tx, genesis, 0, 0, NULL, &err))
        REQUIRE(err.msg[0] != '\0');
    check_payload(&tx, data, size);
    return 0;
}
