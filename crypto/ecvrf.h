/* ECVRF-EDWARDS25519-SHA512-TAI (RFC 9381, suite_string 0x03).
 *
 * The verifiable random function behind block seeds (docs/protocol-tx.md §6): a producer
 * proves with its Ed25519 key; anyone verifies with the public key and gets
 * the same 64-byte output.  Built on libsodium's point and scalar
 * operations.  Keys are the usual Ed25519 ones: the secret is the 32-byte
 * RFC 8032 seed, the public key its 32-byte encoding.
 *
 * Verification follows RFC 9381 §5.3 with validate_key on: a public key of
 * small order (8*Y = identity) is refused, proofs are decoded per §5.4.4
 * (Gamma must be a canonical curve point, s < L).
 *
 * KEY REUSE WARNING: the VRF secret scalar and nonce prefix are those of
 * Ed25519 with the same seed, and the nonce is SHA-512(prefix || H_string)
 * exactly as Ed25519's is SHA-512(prefix || message).  If the key ever
 * Ed25519-signs a 32-byte message equal to H_string (H = encode_to_curve(
 * pk, alpha), public, computable before the proof is made), both use the
 * same nonce and (s - S) / (c - k) mod L is the secret scalar.  So a key
 * used here must only ever Ed25519-sign tagged digests H("ZBC-..." || ...)
 * (block signing, messages, transactions do), never bytes a peer chose
 * (e.g. a raw handshake challenge). */
#ifndef ZBC_ECVRF_H
#define ZBC_ECVRF_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"

#define ZBC_VRF_PK_LEN 32
#define ZBC_VRF_SEED_LEN 32
#define ZBC_VRF_PROOF_LEN 80 /* Gamma 32 || c 16 || s 32 */
#define ZBC_VRF_OUTPUT_LEN 64

/* pk = the Ed25519 public key of the 32-byte seed. */
void zbc_vrf_public_key(uint8_t pk[ZBC_VRF_PK_LEN],
                        const uint8_t seed[ZBC_VRF_SEED_LEN]);

/* pi = ECVRF_prove(seed, alpha).  Deterministic.  Fails only if
 * hash-to-curve finds no point in 256 tries (never in practice). */
ZBC_WUR int zbc_vrf_prove(uint8_t pi[ZBC_VRF_PROOF_LEN],
                          const uint8_t seed[ZBC_VRF_SEED_LEN],
                          const uint8_t *alpha, size_t alpha_len,
                          struct zbc_err *err);

/* Verifies pi by pk over alpha; on success writes beta (the VRF output). */
ZBC_WUR int zbc_vrf_verify(uint8_t beta[ZBC_VRF_OUTPUT_LEN],
                           const uint8_t pk[ZBC_VRF_PK_LEN],
                           const uint8_t pi[ZBC_VRF_PROOF_LEN],
                           const uint8_t *alpha, size_t alpha_len,
                           struct zbc_err *err);

/* beta = ECVRF_proof_to_hash(pi).  Fails when pi does not decode.  Does
 * NOT verify pi: use only on a proof already verified (or one's own). */
ZBC_WUR int zbc_vrf_proof_to_hash(uint8_t beta[ZBC_VRF_OUTPUT_LEN],
                                  const uint8_t pi[ZBC_VRF_PROOF_LEN],
                                  struct zbc_err *err);

#endif
