/* Block seeds (docs/protocol-chain.md §3.1).
 *
 *   seed(0)   = H("ZBC-SEED0" || genesis_hash)
 *   alpha(h)  = "ZBC-SEED" || seed(h-1) || height_u32 LE     (44 bytes)
 *   pi_h      = ECVRF_prove(producer secret, alpha(h))      (RFC 9381,
 *               ECVRF-EDWARDS25519-SHA512-TAI, 80 bytes)
 *   seed(h)   = first 32 bytes of ECVRF_proof_to_hash(pi_h) (beta, 64)
 *
 * The VRF secret is the 32-byte Ed25519 seed of the node key (the first
 * half of libsodium's 64-byte secret key), so the VRF public key is the
 * node key itself. */
#ifndef ZBC_SEED_H
#define ZBC_SEED_H

#include <stdint.h>

#include "crypto/err.h"

#define ZBC_SEED_ALPHA_LEN 44

void zbc_seed_genesis(uint8_t seed0[32], const uint8_t genesis_hash[32]);
void zbc_seed_alpha(uint8_t alpha[ZBC_SEED_ALPHA_LEN],
                    const uint8_t prev_seed[32], uint32_t height);
/* Producer side: proof and seed for `height` (sk = libsodium 64 bytes). */
ZBC_WUR int zbc_seed_prove(uint8_t proof[80], uint8_t seed[32],
                           const uint8_t sk[64], const uint8_t prev_seed[32],
                           uint32_t height, struct zbc_err *err);
/* Verifier side: checks the proof under pk and derives the seed. */
ZBC_WUR int zbc_seed_verify(uint8_t seed[32], const uint8_t pk[32],
                            const uint8_t proof[80],
                            const uint8_t prev_seed[32], uint32_t height,
                            struct zbc_err *err);

#endif
