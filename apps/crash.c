/* Crash rounds: params, entries, returns, crash point (apps/crash.h). */
#include "apps/crash.h"

#include <inttypes.h>
#include <string.h>

#include "crypto/bytes.h"

int zbc_crash_parse(struct zbc_crash_params *p, const uint8_t *params,
                    size_t len, struct zbc_err *err)
{
    memset(p, 0, sizeof *p);
    if (len < 7)
        return zbc_fail(err, "crash params: need window u16, target u32 and "
                             "the client seed length, got %zu bytes", len);
    p->window = zbc_get_le16(params);
    p->target = zbc_get_le32(params + 2);
    if (p->window < 1 || p->window > ZBC_CRASH_WINDOW_MAX)
        return zbc_fail(err, "crash params: window of %u blocks, must be "
                             "1-%d", p->window, ZBC_CRASH_WINDOW_MAX);
    if (p->target != 0 && p->target < ZBC_CRASH_TARGET_MIN)
        return zbc_fail(err, "crash params: target %" PRIu32 " below the "
                             "minimum 101 (1.01x); 0 opens the round without "
                             "an entry", p->target);
    size_t n = params[6];
    if (n > ZBC_CLIENT_SEED_MAX)
        return zbc_fail(err, "crash params: client seed is %zu bytes, at "
                             "most %d allowed", n, ZBC_CLIENT_SEED_MAX);
    if (len - 7 != n)
        return zbc_fail(err, "crash params: client seed length says %zu "
                             "bytes but %zu follow", n, len - 7);
    for (size_t i = 0; i < n; i++)
        if (params[7 + i] < 0x20 || params[7 + i] > 0x7e)
            return zbc_fail(err, "crash params: client seed must be "
                                 "printable ASCII (byte %zu is 0x%02x)",
                            i, params[7 + i]);
    memcpy(p->client_seed, params + 7, n);
    p->client_seed[n] = '\0';
    p->client_seed_len = (uint8_t)n;
    return 1;
}

int zbc_crash_check_stake(const struct zbc_crash_params *p, uint64_t stake,
                          struct zbc_err *err)
{
    uint64_t r;
    if (p->target == 0 && stake != 0)
        return zbc_fail(err, "the creator's stake of %" PRIu64 " needs a "
                             "target in the params (>= 101)", stake);
    if (p->target != 0 && stake == 0)
        return zbc_fail(err, "the creator's target %" PRIu32 " needs a "
                             "stake (target 0 opens the round without an "
                             "entry)", p->target);
    return p->target == 0 || zbc_crash_max_return(stake, p->target, &r, err);
}

int zbc_crash_check_create(uint8_t seats, const uint8_t *params, size_t len,
                           bool has_opponent, struct zbc_err *err)
{
    struct zbc_crash_params p;
    if (seats != 1)
        return zbc_fail(err, "a crash round (type %d) needs seats = 1, got "
                             "%u", ZBC_CRASH_TYPE, seats);
    if (has_opponent)
        return zbc_fail(err, "a crash round takes no opponent");
    if (!zbc_crash_parse(&p, params, len, err))
        return zbc_fail_prefix(err, "CreateApp params");
    return 1;
}

size_t zbc_crash_encode(const struct zbc_crash_params *p, uint8_t *out,
                        size_t cap)
{
    size_t n = p->client_seed_len;
    if (cap < 7 + n)
        return 0;
    zbc_put_le16(out, p->window);
    zbc_put_le32(out + 2, p->target);
    out[6] = (uint8_t)n;
    memcpy(out + 7, p->client_seed, n);
    return 7 + n;
}

int zbc_crash_parse_entry(const uint8_t *move, size_t len, uint64_t *stake,
                          uint32_t *target, struct zbc_err *err)
{
    if (len != ZBC_CRASH_ENTRY_BYTES)
        return zbc_fail(err, "crash entry: %zu bytes, must be 12 (stake u64, "
                             "target u32)", len);
    *stake = zbc_get_le64(move);
    *target = zbc_get_le32(move + 8);
    if (*stake == 0)
        return zbc_fail(err, "crash entry: stake 0, must be at least 1");
    if (*target < ZBC_CRASH_TARGET_MIN)
        return zbc_fail(err, "crash entry: target %" PRIu32 " below the "
                             "minimum 101 (1.01x)", *target);
    uint64_t r;
    return zbc_crash_max_return(*stake, *target, &r, err);
}

void zbc_crash_encode_entry(uint8_t out[ZBC_CRASH_ENTRY_BYTES], uint64_t stake,
                            uint32_t target)
{
    zbc_put_le64(out, stake);
    zbc_put_le32(out + 8, target);
}

int zbc_crash_max_return(uint64_t stake, uint32_t target, uint64_t *out,
                         struct zbc_err *err)
{
    unsigned __int128 r = (unsigned __int128)stake * target / 100;
    if (r > UINT64_MAX)
        return zbc_fail(err, "return of stake %" PRIu64 " at %" PRIu32
                             " hundredths overflows u64", stake, target);
    *out = (uint64_t)r;
    return 1;
}

uint32_t zbc_crash_point(const char *server_seed, const char *client_seed,
                         uint64_t app_id, uint32_t *u0)
{
    struct zbc_fair_stream s;
    zbc_fair_stream_init(&s, server_seed, client_seed, app_id);
    *u0 = zbc_fair_stream_u32(&s, 0);
    return zbc_fair_crash(&s);
}
