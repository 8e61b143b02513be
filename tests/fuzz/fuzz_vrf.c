/* libFuzzer target: ECVRF verify on arbitrary (pk, pi, alpha).  The input
 * is mode byte | pk (32) | pi (80) | alpha.  Mode bit 0 XORs pk and pi
 * onto RFC 9381 vector 1 so mutations stay near a valid proof.  Verify must
 * never crash; a proof it accepts must verify again to the same beta and
 * proof_to_hash must give that beta too. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/ecvrf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(cond)                                                         \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "fuzz_vrf: %s failed at line %d\n", #cond,        \
                    __LINE__);                                                \
            abort();                                                          \
        }                                                                     \
    } while (0)

/* RFC 9381 B.3 example 16 (alpha = 0x72) */
static const uint8_t vec_pk[32] = {
    0x3d, 0x40, 0x17, 0xc3, 0xe8, 0x43, 0x89, 0x5a, 0x92, 0xb7, 0x0a,
    0xa7, 0x4d, 0x1b, 0x7e, 0xbc, 0x9c, 0x98, 0x2c, 0xcf, 0x2e, 0xc4,
    0x96, 0x8c, 0xc0, 0xcd, 0x55, 0xf1, 0x2a, 0xf4, 0x66, 0x0c};
static const uint8_t vec_pi[80] = {
    0xf3, 0x14, 0x1c, 0xd3, 0x82, 0xdc, 0x42, 0x90, 0x9d, 0x19, 0xec, 0x51,
    0x10, 0x46, 0x9e, 0x4f, 0xea, 0xe1, 0x83, 0x00, 0xe9, 0x4f, 0x30, 0x45,
    0x90, 0xab, 0xdc, 0xed, 0x48, 0xae, 0xd5, 0x93, 0x3b, 0xf0, 0x86, 0x4a,
    0x62, 0x55, 0x8b, 0x3e, 0xd7, 0xf2, 0xfe, 0xa4, 0x5c, 0x92, 0xa4, 0x65,
    0x30, 0x1b, 0x3b, 0xbf, 0x5e, 0x3e, 0x54, 0xdd, 0xf2, 0xd9, 0x35, 0xbe,
    0x3b, 0x67, 0x92, 0x6d, 0xa3, 0xef, 0x39, 0x22, 0x6b, 0xbc, 0x35, 0x5b,
    0xdc, 0x98, 0x50, 0x11, 0x2c, 0x8f, 0x4b, 0x02};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t pk[32] = {0}, pi[80] = {0}, beta[64], beta2[64], beta3[64];
    struct zbc_err err = {{0}};
    const uint8_t *alpha;
    size_t alpha_len, take;
    if (size < 1)
        return 0;
    int near = data[0] & 1;
    data++;
    size--;
    take = size < 32 ? size : 32;
    memcpy(pk, data, take);
    data += take;
    size -= take;
    take = size < 80 ? size : 80;
    memcpy(pi, data, take);
    data += take;
    size -= take;
    alpha = data;
    alpha_len = size;
    if (near) {
        for (int i = 0; i < 32; i++)
            pk[i] ^= vec_pk[i];
        for (int i = 0; i < 80; i++)
            pi[i] ^= vec_pi[i];
    }
    if (zbc_vrf_proof_to_hash(beta3, pi, &err) == 0)
        REQUIRE(err.msg[0] != '\0');
    err.msg[0] = '\0';
    if (!zbc_vrf_verify(beta, pk, pi, alpha, alpha_len, &err)) {
        REQUIRE(err.msg[0] != '\0');
        return 0;
    }
    REQUIRE(zbc_vrf_verify(beta2, pk, pi, alpha, alpha_len, &err));
    REQUIRE(memcmp(beta, beta2, 64) == 0);
    REQUIRE(zbc_vrf_proof_to_hash(beta3, pi, &err));
    REQUIRE(memcmp(beta, beta3, 64) == 0);
    return 0;
}
