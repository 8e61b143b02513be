#include "consensus/seed.h"

#include <string.h>

#include "crypto/bytes.h"
#include "crypto/ecvrf.h"
#include "crypto/hash.h"

#define SEED_TAG "ZBC-SEED"
#define SEED0_TAG "ZBC-SEED0"

void zbc_seed_genesis(uint8_t seed0[32], const uint8_t genesis_hash[32])
{
    uint8_t b[9 + 32];
    memcpy(b, SEED0_TAG, 9);
    memcpy(b + 9, genesis_hash, 32);
    zbc_sha3_256(seed0, b, sizeof b);
}

void zbc_seed_alpha(uint8_t alpha[ZBC_SEED_ALPHA_LEN],
                    const uint8_t prev_seed[32], uint32_t height)
{
    memcpy(alpha, SEED_TAG, 8);
    memcpy(alpha + 8, prev_seed, 32);
    zbc_put_le32(alpha + 40, height);
}

int zbc_seed_prove(uint8_t proof[80], uint8_t seed[32], const uint8_t sk[64],
                   const uint8_t prev_seed[32], uint32_t height,
                   struct zbc_err *err)
{
    uint8_t alpha[ZBC_SEED_ALPHA_LEN], beta[ZBC_VRF_OUTPUT_LEN];
    zbc_seed_alpha(alpha, prev_seed, height);
    if (!zbc_vrf_prove(proof, sk, alpha, sizeof alpha, err) ||
        !zbc_vrf_proof_to_hash(beta, proof, err))
        return zbc_fail_prefix(err, "seed proof for height %u", height);
    memcpy(seed, beta, 32);
    return 1;
}

int zbc_seed_verify(uint8_t seed[32], const uint8_t pk[32],
                    const uint8_t proof[80], const uint8_t prev_seed[32],
                    uint32_t height, struct zbc_err *err)
{
    uint8_t alpha[ZBC_SEED_ALPHA_LEN], beta[ZBC_VRF_OUTPUT_LEN];
    zbc_seed_alpha(alpha, prev_seed, height);
    if (!zbc_vrf_verify(beta, pk, proof, alpha, sizeof alpha, err))
        return zbc_fail(err, "block VRF proof does not verify");
    memcpy(seed, beta, 32);
    return 1;
}
