#include "apps/fair.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "crypto/bytes.h"
#include "crypto/hash.h"
#include "crypto/hex.h"

bool zbc_bet_is_solo(uint8_t app_type)
{
    return app_type == ZBC_BET_DICE || app_type == ZBC_BET_COIN ||
           app_type == ZBC_BET_ROULETTE || app_type == ZBC_BET_LIMBO;
}

static int parse_client_seed(struct zbc_bet *bet, const uint8_t *p, size_t len,
                             struct zbc_err *err)
{
    if (len < 1)
        return zbc_fail(err, "bet params: missing client seed length");
    size_t n = p[0];
    if (n > ZBC_CLIENT_SEED_MAX)
        return zbc_fail(err, "bet params: client seed is %zu bytes, at most %d allowed",
                        n, ZBC_CLIENT_SEED_MAX);
    if (len - 1 != n)
        return zbc_fail(err, "bet params: client seed length says %zu bytes but %zu follow",
                        n, len - 1);
    for (size_t i = 0; i < n; i++)
        if (p[1 + i] < 0x20 || p[1 + i] > 0x7e)
            return zbc_fail(err, "bet params: client seed must be printable ASCII (byte %zu is 0x%02x)",
                            i, p[1 + i]);
    memcpy(bet->client_seed, p + 1, n);
    bet->client_seed[n] = '\0';
    bet->client_seed_len = (uint8_t)n;
    return 1;
}

int zbc_bet_parse(struct zbc_bet *bet, uint8_t app_type, const uint8_t *params,
                  size_t len, struct zbc_err *err)
{
    memset(bet, 0, sizeof *bet);
    switch (app_type) {
    case ZBC_BET_DICE:
        if (len < 3)
            return zbc_fail(err, "dice params: need direction u8 and target u16");
        if (params[0] > 1)
            return zbc_fail(err, "dice params: direction must be 0 (under) or 1 (over), not %u",
                            params[0]);
        bet->direction = params[0];
        bet->target16 = zbc_get_le16(params + 1);
        if (bet->target16 < 1 || bet->target16 > 9999)
            return zbc_fail(err, "dice params: target %u out of range 1-9999 (hundredths)",
                            bet->target16);
        bet->game = ZBC_BET_DICE;
        return parse_client_seed(bet, params + 3, len - 3, err);
    case ZBC_BET_COIN:
        if (len < 1)
            return zbc_fail(err, "coin flip params: need side u8");
        if (params[0] > 1)
            return zbc_fail(err, "coin flip params: side must be 0 (heads) or 1 (tails), not %u",
                            params[0]);
        bet->direction = params[0];
        bet->game = ZBC_BET_COIN;
        return parse_client_seed(bet, params + 1, len - 1, err);
    case ZBC_BET_ROULETTE:
        if (len < 2)
            return zbc_fail(err, "roulette params: need kind u8 and number u8");
        bet->kind = params[0];
        bet->number = params[1];
        if (bet->kind > ZBC_ROULETTE_COLUMN)
            return zbc_fail(err, "roulette params: unknown bet kind %u (0-8)", bet->kind);
        if (bet->kind == ZBC_ROULETTE_STRAIGHT && bet->number > 36)
            return zbc_fail(err, "roulette params: straight number %u out of range 0-36",
                            bet->number);
        if ((bet->kind == ZBC_ROULETTE_DOZEN || bet->kind == ZBC_ROULETTE_COLUMN) &&
            (bet->number < 1 || bet->number > 3))
            return zbc_fail(err, "roulette params: dozen/column number %u out of range 1-3",
                            bet->number);
        if (bet->kind != ZBC_ROULETTE_STRAIGHT && bet->kind != ZBC_ROULETTE_DOZEN &&
            bet->kind != ZBC_ROULETTE_COLUMN && bet->number != 0)
            return zbc_fail(err, "roulette params: number must be 0 for this bet kind");
        bet->game = ZBC_BET_ROULETTE;
        return parse_client_seed(bet, params + 2, len - 2, err);
    case ZBC_BET_LIMBO:
        if (len < 4)
            return zbc_fail(err, "limbo params: need target u32");
        bet->target32 = zbc_get_le32(params);
        if (bet->target32 < 101)
            return zbc_fail(err, "limbo params: target %" PRIu32 " below the minimum 101 (1.01x)",
                            bet->target32);
        bet->game = ZBC_BET_LIMBO;
        return parse_client_seed(bet, params + 4, len - 4, err);
    default:
        return zbc_fail(err, "app type %u is not a solo bet", app_type);
    }
}

size_t zbc_bet_encode(const struct zbc_bet *bet, uint8_t *out, size_t cap)
{
    size_t n = 0;
    if (cap < 6 + (size_t)bet->client_seed_len)
        return 0;
    switch (bet->game) {
    case ZBC_BET_DICE:
        out[n++] = bet->direction;
        zbc_put_le16(out + n, bet->target16);
        n += 2;
        break;
    case ZBC_BET_COIN:
        out[n++] = bet->direction;
        break;
    case ZBC_BET_ROULETTE:
        out[n++] = bet->kind;
        out[n++] = bet->number;
        break;
    case ZBC_BET_LIMBO:
        zbc_put_le32(out + n, bet->target32);
        n += 4;
        break;
    }
    out[n++] = bet->client_seed_len;
    memcpy(out + n, bet->client_seed, bet->client_seed_len);
    return n + bet->client_seed_len;
}

void zbc_fair_block(uint8_t out[32], const char *server_seed,
                    const char *client_seed, uint64_t nonce, uint32_t round)
{
    char msg[ZBC_CLIENT_SEED_MAX + 48];
    int n = snprintf(msg, sizeof msg, "%s:%" PRIu64 ":%" PRIu32, client_seed,
                     nonce, round);
    zbc_hmac_sha256(out, server_seed, strlen(server_seed), msg, (size_t)n);
}

uint32_t zbc_fair_u32(const char *server_seed, const char *client_seed,
                      uint64_t nonce, uint32_t index)
{
    uint8_t block[32];
    zbc_fair_block(block, server_seed, client_seed, nonce, index / 8);
    const uint8_t *b = block + 4 * (index % 8);
    return zbc_get_be32(b);
}

void zbc_fair_server_seed(char out[65], const uint8_t seed[32])
{
    zbc_hex_encode(out, seed, 32);
}

bool zbc_roulette_is_red(uint32_t pocket)
{
    static const uint8_t red[] = {1,  3,  5,  7,  9,  12, 14, 16, 18,
                                  19, 21, 23, 25, 27, 30, 32, 34, 36};
    for (size_t i = 0; i < sizeof red; i++)
        if (red[i] == pocket)
            return true;
    return false;
}

/* floor(stake * num / den) without overflow; fails when it exceeds u64. */
static int mul_div(uint64_t stake, uint64_t num, uint64_t den, uint64_t *out,
                   struct zbc_err *err)
{
    unsigned __int128 v = (unsigned __int128)stake * num / den;
    if (v > UINT64_MAX)
        return zbc_fail(err, "bet return overflows 64 bits");
    *out = (uint64_t)v;
    return 1;
}

static uint32_t dice_winning_rolls(const struct zbc_bet *bet)
{
    return bet->direction == 0 ? bet->target16 : 10000u - bet->target16;
}

/* Return multiple of a roulette bet (returns = stake * m on a win). */
static uint32_t roulette_multiple(uint8_t kind)
{
    switch ((enum zbc_roulette_kind)kind) {
    case ZBC_ROULETTE_STRAIGHT:
        return 36;
    case ZBC_ROULETTE_DOZEN:
    case ZBC_ROULETTE_COLUMN:
        return 3;
    case ZBC_ROULETTE_RED:
    case ZBC_ROULETTE_BLACK:
    case ZBC_ROULETTE_ODD:
    case ZBC_ROULETTE_EVEN:
    case ZBC_ROULETTE_LOW:
    case ZBC_ROULETTE_HIGH:
        return 2;
    }
    return 0;
}

static bool roulette_wins(uint8_t kind, uint8_t number, uint32_t p)
{
    switch ((enum zbc_roulette_kind)kind) {
    case ZBC_ROULETTE_STRAIGHT:
        return p == number;
    case ZBC_ROULETTE_RED:
        return p != 0 && zbc_roulette_is_red(p);
    case ZBC_ROULETTE_BLACK:
        return p != 0 && !zbc_roulette_is_red(p);
    case ZBC_ROULETTE_ODD:
        return p != 0 && p % 2 == 1;
    case ZBC_ROULETTE_EVEN:
        return p != 0 && p % 2 == 0;
    case ZBC_ROULETTE_LOW:
        return p >= 1 && p <= 18;
    case ZBC_ROULETTE_HIGH:
        return p >= 19 && p <= 36;
    case ZBC_ROULETTE_DOZEN:
        return p != 0 && (p - 1) / 12 + 1 == number;
    case ZBC_ROULETTE_COLUMN:
        return p != 0 && (p - 1) % 3 + 1 == number;
    }
    return false;
}

int zbc_bet_max_return(const struct zbc_bet *bet, uint64_t stake, uint64_t *out,
                       struct zbc_err *err)
{
    switch (bet->game) {
    case ZBC_BET_DICE:
        return mul_div(stake, 99ull * 10001ull, 100ull * dice_winning_rolls(bet),
                       out, err);
    case ZBC_BET_COIN:
        return mul_div(stake, 198, 100, out, err);
    case ZBC_BET_ROULETTE:
        return mul_div(stake, roulette_multiple(bet->kind), 1, out, err);
    case ZBC_BET_LIMBO:
        return mul_div(stake, bet->target32, 100, out, err);
    }
    return zbc_fail(err, "not a solo bet");
}

int zbc_bet_outcome(const struct zbc_bet *bet, uint64_t stake, uint32_t u,
                    struct zbc_bet_outcome *out, struct zbc_err *err)
{
    memset(out, 0, sizeof *out);
    out->u = u;
    switch (bet->game) {
    case ZBC_BET_DICE:
        out->value = (uint32_t)(((uint64_t)u * 10001u) >> 32);
        out->win = bet->direction == 0 ? out->value < bet->target16
                                       : out->value > bet->target16;
        break;
    case ZBC_BET_COIN:
        out->value = u < (1u << 31) ? 0 : 1;
        out->win = out->value == bet->direction;
        break;
    case ZBC_BET_ROULETTE:
        out->value = (uint32_t)(((uint64_t)u * 37u) >> 32);
        out->win = roulette_wins(bet->kind, bet->number, out->value);
        break;
    case ZBC_BET_LIMBO:
        out->value = (uint32_t)((99ull << 32) / ((uint64_t)u + 256u));
        out->win = out->value >= bet->target32;
        break;
    }
    if (!out->win)
        return 1;
    return zbc_bet_max_return(bet, stake, &out->returns, err);
}
