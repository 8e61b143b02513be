#include "apps/fair.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "apps/fair_pay.h"
#include "crypto/bytes.h"
#include "crypto/hash.h"
#include "crypto/hex.h"

bool zbc_bet_is_solo(uint8_t app_type)
{
    return (app_type >= ZBC_BET_DICE && app_type <= ZBC_BET_ROULETTE) ||
           (app_type >= ZBC_BET_LIMBO && app_type <= ZBC_BET_BLITZ);
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

/* keno: risk u8 ‖ n u8 (1..10) ‖ n squares u8 (1..40, strictly ascending) */
static int parse_keno(struct zbc_bet *bet, const uint8_t *params, size_t len,
                      struct zbc_err *err)
{
    if (len < 2)
        return zbc_fail(err, "keno params: need risk u8 and picks count u8");
    bet->risk = params[0];
    bet->n_picks = params[1];
    if (bet->risk >= ZBC_KENO_RISKS)
        return zbc_fail(err, "keno params: risk %u, must be 0 (classic) or 1 (high)", bet->risk);
    if (bet->n_picks < 1 || bet->n_picks > ZBC_KENO_PICKS_MAX)
        return zbc_fail(err, "keno params: %u picks, must be 1-%d", bet->n_picks,
                        ZBC_KENO_PICKS_MAX);
    if (len < 2u + bet->n_picks)
        return zbc_fail(err, "keno params: %u picks announced but %zu bytes follow",
                        bet->n_picks, len - 2);
    for (uint32_t i = 0; i < bet->n_picks; i++) {
        uint8_t q = params[2 + i];
        if (q < 1 || q > ZBC_KENO_SQUARES)
            return zbc_fail(err, "keno params: square %u out of range 1-%d", q,
                            ZBC_KENO_SQUARES);
        if (i > 0 && q <= bet->picks[i - 1])
            return zbc_fail(err, "keno params: squares must be distinct and in ascending order (%u after %u)",
                            q, bet->picks[i - 1]);
        bet->picks[i] = q;
    }
    bet->game = ZBC_BET_KENO;
    return parse_client_seed(bet, params + 2 + bet->n_picks, len - 2 - bet->n_picks, err);
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
    case ZBC_BET_PLINKO:
        if (len < 2)
            return zbc_fail(err, "plinko params: need rows u8 and risk u8");
        bet->rows = params[0];
        bet->risk = params[1];
        if (bet->rows < ZBC_PLINKO_ROWS_MIN || bet->rows > ZBC_PLINKO_ROWS_MAX)
            return zbc_fail(err, "plinko params: %u rows, must be %d-%d", bet->rows,
                            ZBC_PLINKO_ROWS_MIN, ZBC_PLINKO_ROWS_MAX);
        if (bet->risk >= ZBC_PLINKO_RISKS)
            return zbc_fail(err, "plinko params: risk %u, must be 0 (low), 1 (medium) or 2 (high)",
                            bet->risk);
        bet->game = ZBC_BET_PLINKO;
        return parse_client_seed(bet, params + 2, len - 2, err);
    case ZBC_BET_KENO:
        return parse_keno(bet, params, len, err);
    case ZBC_BET_WHEEL:
        if (len < 2)
            return zbc_fail(err, "wheel params: need segments u8 and risk u8");
        bet->segments = params[0];
        bet->risk = params[1];
        if (!zbc_wheel_segments_ok(bet->segments))
            return zbc_fail(err, "wheel params: %u segments, must be 10, 20, 30, 40 or 50",
                            bet->segments);
        if (bet->risk >= ZBC_WHEEL_RISKS)
            return zbc_fail(err, "wheel params: risk %u, must be 0 (low), 1 (medium) or 2 (high)",
                            bet->risk);
        bet->game = ZBC_BET_WHEEL;
        return parse_client_seed(bet, params + 2, len - 2, err);
    case ZBC_BET_BACCARAT:
        if (len < 1)
            return zbc_fail(err, "baccarat params: need side u8");
        if (params[0] > ZBC_BACCARAT_TIE)
            return zbc_fail(err, "baccarat params: side must be 0 (player), 1 (banker) or 2 (tie), not %u",
                            params[0]);
        bet->side = params[0];
        bet->game = ZBC_BET_BACCARAT;
        return parse_client_seed(bet, params + 1, len - 1, err);
    case ZBC_BET_BLITZ:
        if (len < 1)
            return zbc_fail(err, "blitz params: need cards u8");
        if (params[0] < ZBC_BLITZ_CARDS_MIN || params[0] > ZBC_BLITZ_CARDS_MAX)
            return zbc_fail(err, "blitz params: %u cards, must be %d-%d", params[0],
                            ZBC_BLITZ_CARDS_MIN, ZBC_BLITZ_CARDS_MAX);
        bet->cards = params[0];
        bet->game = ZBC_BET_BLITZ;
        return parse_client_seed(bet, params + 1, len - 1, err);
    default:
        return zbc_fail(err, "app type %u is not a solo bet", app_type);
    }
}

size_t zbc_bet_encode(const struct zbc_bet *bet, uint8_t *out, size_t cap)
{
    size_t n = 0;
    if (cap < 3 + ZBC_KENO_DRAWN + (size_t)bet->client_seed_len)
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
    case ZBC_BET_PLINKO:
        out[n++] = bet->rows;
        out[n++] = bet->risk;
        break;
    case ZBC_BET_KENO:
        out[n++] = bet->risk;
        out[n++] = bet->n_picks;
        for (uint32_t i = 0; i < bet->n_picks && i < ZBC_KENO_DRAWN; i++)
            out[n++] = bet->picks[i];
        break;
    case ZBC_BET_WHEEL:
        out[n++] = bet->segments;
        out[n++] = bet->risk;
        break;
    case ZBC_BET_BACCARAT:
        out[n++] = bet->side;
        break;
    case ZBC_BET_BLITZ:
        out[n++] = bet->cards;
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

/* returns = floor(stake × multiplier / 10000); a win is a profit. */
static int catalogue_returns(uint64_t stake, struct zbc_bet_outcome *out,
                             struct zbc_err *err)
{
    if (!mul_div(stake, out->multiplier, ZBC_FAIR_ONE, &out->returns, err))
        return 0;
    out->win = out->returns > stake;
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

/* The largest multiplier a catalogue bet can pay (ten-thousandths). */
static uint32_t catalogue_max(const struct zbc_bet *bet)
{
    uint32_t m = 0;
    switch (bet->game) {
    case ZBC_BET_PLINKO: /* the edge slots pay the most */
        return zbc_plinko_multiplier(bet->rows, bet->risk, 0);
    case ZBC_BET_KENO:
        for (uint32_t h = 0; h <= bet->n_picks; h++)
            if (zbc_keno_multiplier(bet->risk, bet->n_picks, h) > m)
                m = zbc_keno_multiplier(bet->risk, bet->n_picks, h);
        return m;
    case ZBC_BET_WHEEL:
        for (uint32_t i = 0; i < bet->segments; i++)
            if (zbc_wheel_multiplier(bet->segments, bet->risk, i) > m)
                m = zbc_wheel_multiplier(bet->segments, bet->risk, i);
        return m;
    case ZBC_BET_BACCARAT:
        return zbc_baccarat_multiplier(bet->side);
    case ZBC_BET_BLITZ:
        return zbc_blitz_multiplier(bet->cards);
    default:
        return 0;
    }
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
    case ZBC_BET_PLINKO:
    case ZBC_BET_KENO:
    case ZBC_BET_WHEEL:
    case ZBC_BET_BACCARAT:
    case ZBC_BET_BLITZ:
        return mul_div(stake, catalogue_max(bet), ZBC_FAIR_ONE, out, err);
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
    case ZBC_BET_WHEEL:
        out->value = zbc_fair_floor(u, bet->segments);
        out->multiplier = zbc_wheel_multiplier(bet->segments, bet->risk, out->value);
        return catalogue_returns(stake, out, err);
    case ZBC_BET_PLINKO:
    case ZBC_BET_KENO:
    case ZBC_BET_BACCARAT:
    case ZBC_BET_BLITZ:
        return zbc_fail(err, "this game's outcome needs the whole float stream, not the first float");
    }
    if (!out->win)
        return 1;
    return zbc_bet_max_return(bet, stake, &out->returns, err);
}

bool zbc_bet_first_float_only(enum zbc_bet_game game)
{
    return game == ZBC_BET_DICE || game == ZBC_BET_COIN || game == ZBC_BET_ROULETTE ||
           game == ZBC_BET_LIMBO || game == ZBC_BET_WHEEL;
}

static uint32_t keno_hits(const struct zbc_bet *bet, const uint8_t *squares)
{
    uint32_t hits = 0;
    for (uint32_t i = 0; i < ZBC_KENO_DRAWN; i++)
        for (uint32_t j = 0; j < bet->n_picks; j++)
            hits += squares[i] == bet->picks[j];
    return hits;
}

static uint32_t baccarat_returns(uint32_t side, const struct zbc_baccarat_hand *h)
{
    enum zbc_baccarat_side w = zbc_baccarat_winner(h);
    if (w == side)
        return zbc_baccarat_multiplier(side);
    /* a tie gives player and banker bets their stake back */
    return w == ZBC_BACCARAT_TIE ? ZBC_FAIR_ONE : 0;
}

int zbc_bet_resolve(const struct zbc_bet *bet, uint64_t stake, const char *server_seed,
                    uint64_t nonce, struct zbc_bet_outcome *out, struct zbc_err *err)
{
    struct zbc_fair_stream s;
    zbc_fair_stream_init(&s, server_seed, bet->client_seed, nonce);
    uint32_t u = zbc_fair_stream_u32(&s, 0);
    if (zbc_bet_first_float_only(bet->game))
        return zbc_bet_outcome(bet, stake, u, out, err);
    memset(out, 0, sizeof *out);
    out->u = u;
    uint32_t slot;
    bool differ;
    switch (bet->game) {
    case ZBC_BET_PLINKO:
        if (!zbc_fair_plinko(&s, bet->rows, out->path, &slot, err))
            return 0;
        out->value = slot;
        for (uint32_t i = 0; i < bet->rows; i++)
            out->value |= (uint32_t)out->path[i] << (8 + i);
        out->multiplier = zbc_plinko_multiplier(bet->rows, bet->risk, slot);
        break;
    case ZBC_BET_KENO:
        if (bet->n_picks < 1 || bet->n_picks > ZBC_KENO_PICKS_MAX)
            return zbc_fail(err, "keno: %u picks, must be 1-%d", bet->n_picks,
                            ZBC_KENO_PICKS_MAX);
        zbc_fair_keno(&s, out->squares);
        out->value = keno_hits(bet, out->squares);
        out->multiplier = zbc_keno_multiplier(bet->risk, bet->n_picks, out->value);
        break;
    case ZBC_BET_BACCARAT:
        zbc_fair_baccarat(&s, &out->hand);
        out->value = out->hand.player_total | (uint32_t)out->hand.banker_total << 8 |
                     (uint32_t)(out->hand.n_player == 3) << 16 |
                     (uint32_t)(out->hand.n_banker == 3) << 17;
        out->multiplier = baccarat_returns(bet->side, &out->hand);
        break;
    case ZBC_BET_BLITZ:
        if (!zbc_fair_blitz(&s, bet->cards, out->cards, &differ, err))
            return 0;
        out->value = 0;
        for (uint32_t i = 0; i < bet->cards; i++) {
            bool again = false;
            for (uint32_t j = 0; j < i; j++)
                again = again || out->cards[j] == out->cards[i];
            out->value += !again;
        }
        out->multiplier = differ ? zbc_blitz_multiplier(bet->cards) : 0;
        break;
    default:
        return zbc_fail(err, "not a solo bet");
    }
    return catalogue_returns(stake, out, err);
}
