/* Keccak-256: Keccak-f[1600] sponge, rate 136 bytes (1088 bits), capacity
 * 512 bits, padding pad10*1 with domain byte 0x01.  The permutation follows
 * the Keccak reference (theta, rho, pi, chi, iota; 24 rounds). */
#include "crypto/keccak.h"

#include <string.h>

#include "crypto/bytes.h"

#define KECCAK256_RATE 136

static const uint64_t round_consts[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL,
    0x8000000080008000ULL, 0x000000000000808bULL, 0x0000000080000001ULL,
    0x8000000080008081ULL, 0x8000000000008009ULL, 0x000000000000008aULL,
    0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL,
    0x8000000000008003ULL, 0x8000000000008002ULL, 0x8000000000000080ULL,
    0x000000000000800aULL, 0x800000008000000aULL, 0x8000000080008081ULL,
    0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

/* rho rotation offsets and pi lane order, walking the lanes from (1,0). */
static const unsigned rho_offsets[24] = {
    1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14,
    27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44,
};
static const unsigned pi_lanes[24] = {
    10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4,
    15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1,
};

static uint64_t rotl64(uint64_t x, unsigned n)
{
    return (x << n) | (x >> (64 - n));
}

static void keccak_f1600(uint64_t st[25])
{
    for (int round = 0; round < 24; round++) {
        uint64_t bc[5];
        /* theta */
        for (int i = 0; i < 5; i++)
            bc[i] = st[i] ^ st[i + 5] ^ st[i + 10] ^ st[i + 15] ^ st[i + 20];
        for (int i = 0; i < 5; i++) {
            uint64_t t = bc[(i + 4) % 5] ^ rotl64(bc[(i + 1) % 5], 1);
            for (int j = 0; j < 25; j += 5)
                st[j + i] ^= t;
        }
        /* rho and pi */
        uint64_t t = st[1];
        for (int i = 0; i < 24; i++) {
            unsigned j = pi_lanes[i];
            uint64_t next = st[j];
            st[j] = rotl64(t, rho_offsets[i]);
            t = next;
        }
        /* chi */
        for (int j = 0; j < 25; j += 5) {
            for (int i = 0; i < 5; i++)
                bc[i] = st[j + i];
            for (int i = 0; i < 5; i++)
                st[j + i] ^= (~bc[(i + 1) % 5]) & bc[(i + 2) % 5];
        }
        /* iota */
        st[0] ^= round_consts[round];
    }
}

/* XORs one rate-sized block into the state, lanes little-endian. */
static void absorb_block(uint64_t st[25], const uint8_t block[KECCAK256_RATE])
{
    for (int i = 0; i < KECCAK256_RATE / 8; i++)
        st[i] ^= zbc_get_le64(block + i * 8);
    keccak_f1600(st);
}

void zbc_keccak256(uint8_t out[32], const void *data, size_t len)
{
    uint64_t st[25] = {0};
    const uint8_t *p = data;

    while (len >= KECCAK256_RATE) {
        absorb_block(st, p);
        p += KECCAK256_RATE;
        len -= KECCAK256_RATE;
    }
    uint8_t last[KECCAK256_RATE] = {0};
    if (len > 0)
        memcpy(last, p, len);
    last[len] ^= 0x01;                  /* Keccak domain/padding start */
    last[KECCAK256_RATE - 1] ^= 0x80;   /* padding end */
    absorb_block(st, last);

    for (int i = 0; i < 4; i++)
        zbc_put_le64(out + i * 8, st[i]);
}
