/* libFuzzer target: the P2P handshake's key agreement and the sealed
 * channel it opens (node/zbcd/p2p_wire.h, docs/p2p.md §3).  A peer picks
 * its Hello's kx key freely, so:
 *   input = peer_kx (32) | flags (1) | frames…
 * - the peer's kx key exactly as sent: zbc_p2p_session_keys either refuses
 *   it with a sentence (a low-order or otherwise unusable X25519 point) or
 *   gives keys; every frame after it is opened under those keys at nonces
 *   0, 1, … and a forged frame must be refused with nothing left behind;
 * - the same 32 bytes as the seed of an honest peer's kx key pair: both
 *   sides' keys must agree (one side's tx is the other's rx, either side
 *   dialling), every frame that decodes as an envelope sealed by one side
 *   opens on the other at the same nonce and at no other, and the Auth
 *   digest changes with each of its fields. */
#include <sodium.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "node/zbcd/p2p_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ASSERT(c) do { if (!(c)) abort(); } while (0)

static uint8_t my_pk[32], my_sk[32];

static void ready(void)
{
    static int done;
    if (done)
        return;
    ASSERT(sodium_init() >= 0);
    uint8_t seed[32];
    memset(seed, 0x42, sizeof seed);
    ASSERT(crypto_kx_seed_keypair(my_pk, my_sk, seed) == 0);
    done = 1;
}

/* Opens every frame of the rest of the input under key, nonce 0, 1, ... */
static void open_frames(const uint8_t *d, size_t n, const uint8_t key[32])
{
    size_t off = 0;
    for (uint64_t nonce = 0; off < n; nonce++) {
        struct zbc_err err;
        uint32_t len = 0;
        if (zbc_p2p_frame_check(d + off, n - off, ZBC_P2P_MAX_FRAME, &len, &err) !=
            ZBC_P2P_FRAME_READY)
            return;
        zbc_p2p_msg *m = NULL;
        if (zbc_p2p_open(&m, key, nonce, d + off, 4 + (size_t)len, &err))
            zbc_p2p_msg_free(m); /* only if the fuzzer found the key's tag */
        else
            ASSERT(m == NULL && err.msg[0] != '\0');
        off += 4 + (size_t)len;
    }
}

/* Two honest sides, one with the fuzzer's seed: keys agree, sealed
 * envelopes cross at the right nonce only. */
static void honest(const uint8_t seed[32], int dialler, const uint8_t *d, size_t n)
{
    struct zbc_err err;
    uint8_t pk[32], sk[32], a_rx[32], a_tx[32], b_rx[32], b_tx[32];
    ASSERT(crypto_kx_seed_keypair(pk, sk, seed) == 0);
    ASSERT(zbc_p2p_session_keys(a_rx, a_tx, my_pk, my_sk, pk, dialler, &err));
    ASSERT(zbc_p2p_session_keys(b_rx, b_tx, pk, sk, my_pk, !dialler, &err));
    ASSERT(memcmp(a_tx, b_rx, 32) == 0 && memcmp(a_rx, b_tx, 32) == 0);
    ASSERT(memcmp(a_tx, a_rx, 32) != 0);

    size_t off = 0;
    for (uint64_t nonce = 0; off < n; nonce++) {
        uint32_t len = 0;
        if (zbc_p2p_frame_check(d + off, n - off, ZBC_P2P_MAX_FRAME, &len, &err) !=
            ZBC_P2P_FRAME_READY)
            break;
        zbc_p2p_msg *m = NULL;
        if (zbc_p2p_decode(&m, d + off + 4, len, &err)) {
            uint8_t *enc = NULL;
            size_t elen = 0;
            ASSERT(zbc_p2p_seal(m, a_tx, nonce, &enc, &elen, &err));
            zbc_p2p_msg *got = NULL;
            ASSERT(zbc_p2p_open(&got, b_rx, nonce, enc, elen, &err));
            ASSERT(got->msg_case == m->msg_case);
            zbc_p2p_msg_free(got);
            got = NULL;
            ASSERT(!zbc_p2p_open(&got, b_rx, nonce + 1, enc, elen, &err) && got == NULL);
            ASSERT(!zbc_p2p_open(&got, b_tx, nonce, enc, elen, &err) &&
                   got == NULL); /* the other direction's key never opens it */
            free(enc);
            zbc_p2p_msg_free(m);
        } else {
            ASSERT(m == NULL);
        }
        off += 4 + (size_t)len;
    }

    /* the Auth digest binds each field */
    uint8_t g[32], base[32], other[32];
    memset(g, 0x11, sizeof g);
    zbc_p2p_auth_digest(base, g, seed, pk, my_pk, my_pk);
    zbc_p2p_auth_digest(other, g, seed, pk, my_pk, pk);
    ASSERT(memcmp(pk, my_pk, 32) == 0 || memcmp(base, other, 32) != 0);
    zbc_p2p_auth_digest(other, g, my_pk, pk, seed, my_pk);
    ASSERT(memcmp(seed, my_pk, 32) == 0 || memcmp(base, other, 32) != 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ready();
    if (size < 33)
        return 0;
    const uint8_t *peer_kx = data;
    int dialler = data[32] & 1;
    const uint8_t *rest = data + 33;
    size_t n = size - 33;
    struct zbc_err err;
    uint8_t rx[32], tx[32];
    if (zbc_p2p_session_keys(rx, tx, my_pk, my_sk, peer_kx, dialler, &err))
        open_frames(rest, n, rx);
    else
        ASSERT(err.msg[0] != '\0');
    honest(peer_kx, dialler, rest, n);
    return 0;
}
