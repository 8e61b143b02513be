/* Test helper for tests/integration/test_audit.py (not installed): signs
 * one transaction with a known Ed25519 seed, so the audit test can play
 * apps without depending on the wallet's command line.
 *
 *   txgen SEEDHEX GENESISHEX TYPE TIMESTAMP FEE BODYHEX [RECIPIENT_TYPED_HEX]
 *
 * Prints the transaction bytes (unsigned || signature) as hex. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "consensus/tx.h"
#include "crypto/hex.h"

int main(int argc, char **argv)
{
    if (argc != 7 && argc != 8) {
        fprintf(stderr, "usage: txgen SEEDHEX GENESISHEX TYPE TIMESTAMP FEE "
                        "BODYHEX [RECIPIENT_TYPED_HEX]\n");
        return 2;
    }
    uint8_t seed[32], gh[32], body[8192], rec[64], out[16384];
    size_t body_len = 0, rec_len = 0, n = 0;
    struct zbc_err err;
    if (!zbc_hex_decode_exact(seed, 32, argv[1]) ||
        !zbc_hex_decode_exact(gh, 32, argv[2]) ||
        !zbc_hex_decode(body, sizeof body, &body_len, argv[6],
                        strlen(argv[6])) ||
        (argc == 8 &&
         !zbc_hex_decode(rec, sizeof rec, &rec_len, argv[7], strlen(argv[7])))) {
        fprintf(stderr, "txgen: bad hex argument\n");
        return 2;
    }
    struct zbc_tx tx;
    memset(&tx, 0, sizeof tx);
    tx.type = (uint32_t)strtoul(argv[3], NULL, 10);
    tx.version = ZBC_TX_VERSION;
    tx.timestamp = strtoll(argv[4], NULL, 10);
    tx.fee = strtoll(argv[5], NULL, 10);
    tx.body = body;
    tx.body_len = (uint32_t)body_len;
    zbc_addr_empty(&tx.recipient);
    size_t used;
    if (argc == 8 && !zbc_addr_read(&tx.recipient, rec, rec_len, &used, &err)) {
        fprintf(stderr, "txgen: recipient: %s\n", err.msg);
        return 2;
    }
    if (!zbc_tx_sign_ed25519(out, sizeof out, &n, &tx, seed, gh, &err)) {
        fprintf(stderr, "txgen: %s\n", err.msg);
        return 1;
    }
    char *hx = malloc(2 * n + 1);
    if (hx == NULL)
        return 1;
    zbc_hex_encode(hx, out, n);
    printf("%s\n", hx);
    free(hx);
    return 0;
}
