#include "apps/roll.h"

#include <string.h>

#include "apps/fair.h"
#include "crypto/bytes.h"
#include "crypto/hash.h"
#include "crypto/hex.h"

static const char DICE_TAG[] = "ZBC-DICE";

void zbc_roll_init(struct zbc_roll *r, const uint8_t seed[32],
                   const uint8_t *tag, size_t tag_len)
{
    memset(r, 0, sizeof *r);
    memcpy(r->seed, seed, 32);
    if (tag_len > sizeof r->tag)
        tag_len = sizeof r->tag;
    memcpy(r->tag, tag, tag_len);
    r->tag_len = tag_len;
    r->pos = sizeof r->block; /* derive on first use */
}

int zbc_roll_init_literal(struct zbc_roll *r, const uint8_t *bytes, size_t len)
{
    memset(r, 0, sizeof *r);
    if (len > sizeof r->lit)
        return 0;
    r->literal = true;
    if (len > 0)
        memcpy(r->lit, bytes, len);
    r->lit_len = len;
    return 1;
}

static void derive_block(struct zbc_roll *r)
{
    uint8_t ctr[4];
    zbc_put_le32(ctr, r->counter);
    struct zbc_sha3 h;
    zbc_sha3_init(&h);
    zbc_sha3_update(&h, DICE_TAG, sizeof DICE_TAG - 1);
    zbc_sha3_update(&h, r->seed, 32);
    zbc_sha3_update(&h, r->tag, r->tag_len);
    zbc_sha3_update(&h, ctr, 4);
    zbc_sha3_final(&h, r->block);
    r->counter++;
    r->pos = 0;
}

int zbc_roll_byte(struct zbc_roll *r, uint8_t *out)
{
    if (r->literal) {
        if (r->pos >= r->lit_len)
            return 0;
        *out = r->lit[r->pos++];
    } else {
        if (r->pos >= sizeof r->block) {
            if (r->counter == UINT32_MAX)
                return 0;
            derive_block(r);
        }
        *out = r->block[r->pos++];
    }
    r->used++;
    return 1;
}

int zbc_roll_uniform(struct zbc_roll *r, uint32_t n, uint32_t *out)
{
    if (n == 0)
        return 0;
    if (n <= 256) {
        uint32_t limit = 256 - (256 % n);
        for (;;) {
            uint8_t b;
            if (!zbc_roll_byte(r, &b))
                return 0;
            if (b < limit) {
                *out = b % n;
                return 1;
            }
        }
    }
    uint64_t limit = (1ull << 32) - ((1ull << 32) % n);
    for (;;) {
        uint8_t b[4];
        for (int i = 0; i < 4; i++)
            if (!zbc_roll_byte(r, &b[i]))
                return 0;
        uint32_t v = zbc_get_le32(b);
        if (v < limit) {
            *out = v % n;
            return 1;
        }
    }
}

int zbc_roll_d6(struct zbc_roll *r, uint8_t *out)
{
    uint32_t v;
    if (!zbc_roll_uniform(r, 6, &v))
        return 0;
    *out = (uint8_t)(v + 1);
    return 1;
}

void zbc_roll_init_fair(struct zbc_roll *r, const uint8_t seed[32],
                        const char *client_seed, uint64_t nonce)
{
    zbc_roll_init(r, seed, (const uint8_t *)"", 0);
    r->fair = true;
    zbc_fair_server_seed(r->fair_server, seed);
    size_t n = strlen(client_seed);
    if (n > ZBC_ROLL_CLIENT_MAX)
        n = ZBC_ROLL_CLIENT_MAX;
    memcpy(r->fair_client, client_seed, n);
    r->fair_client[n] = '\0';
    r->fair_nonce = nonce;
    zbc_fair_stream_init(&r->fs, r->fair_server, r->fair_client, nonce);
}

struct zbc_fair_stream *zbc_roll_fair(struct zbc_roll *r)
{
    if (r->literal)
        return NULL;
    if (!r->fair) {
        /* a hash stream's float view: hex(seed), hex(tag), nonce 0 */
        r->fair = true;
        zbc_fair_server_seed(r->fair_server, r->seed);
        zbc_hex_encode(r->fair_client, r->tag, r->tag_len);
        r->fair_nonce = 0;
        zbc_fair_stream_init(&r->fs, r->fair_server, r->fair_client, 0);
    }
    /* the strings live in r: point at them again (r may have been copied) */
    r->fs.server_seed = r->fair_server;
    r->fs.client_seed = r->fair_client;
    return &r->fs;
}
