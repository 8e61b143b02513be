/* The app record and pure lifecycle rules (app.h, docs/protocol-apps.md). */
#include "apps/app.h"

#include <string.h>

#include "apps/crash.h"
#include "crypto/bytes.h"
#include "crypto/hash.h"

/* ---- record bytes ----
 *   version u8 | type u8 | status u8 | seats u8 | n_seated u8 | flags u8 |
 *   clock u8 | stake u64 | pot u64 | escrow u64 | created u32 | joined u32 |
 *   deadline u64 | moves u32 | history_n u32 | end u8 | winner u8 |
 *   loser u8 | ended u32 | rake u64 | seats x paid u64 |
 *   [opponent 36 when flags bit 1] | n_seated x typed address |
 *   params_len u16 | params | state_len u16 | state |
 *   [pending_seat u8 | pending_hash 32 | pending_len u16 | pending_move
 *    when flags bit 2]
 * flags: bit 0 first_pending, bit 1 has_opponent, bit 2 has_pending. */

#define FLAG_FIRST_PENDING 1u
#define FLAG_OPPONENT 2u
#define FLAG_PENDING 4u

#define FIXED_LEN (7 + 8 + 8 + 8 + 4 + 4 + 8 + 4 + 4 + 1 + 1 + 1 + 4 + 8)

size_t zbc_app_encode(const struct zbc_app *a, uint8_t *out, size_t cap)
{
    if (cap < ZBC_APP_RECORD_MAX)
        return 0;
    size_t p = 0;
    out[p++] = ZBC_APP_VERSION;
    out[p++] = a->type;
    out[p++] = a->status;
    out[p++] = a->seats;
    out[p++] = a->n_seated;
    out[p++] = (uint8_t)((a->first_pending ? FLAG_FIRST_PENDING : 0) |
                         (a->has_opponent ? FLAG_OPPONENT : 0) |
                         (a->has_pending ? FLAG_PENDING : 0));
    out[p++] = a->clock;
    zbc_put_le64(out + p, a->stake), p += 8;
    zbc_put_le64(out + p, a->pot), p += 8;
    zbc_put_le64(out + p, a->escrow), p += 8;
    zbc_put_le32(out + p, a->created), p += 4;
    zbc_put_le32(out + p, a->joined), p += 4;
    zbc_put_le64(out + p, a->deadline), p += 8;
    zbc_put_le32(out + p, a->moves), p += 4;
    zbc_put_le32(out + p, a->history_n), p += 4;
    out[p++] = a->end;
    out[p++] = a->winner;
    out[p++] = a->loser;
    zbc_put_le32(out + p, a->ended), p += 4;
    zbc_put_le64(out + p, a->rake), p += 8;
    for (unsigned i = 0; i < a->seats && i < ZBC_SEATS_MAX; i++)
        zbc_put_le64(out + p, a->paid[i]), p += 8;
    if (a->has_opponent)
        p += zbc_addr_write(out + p, &a->opponent);
    for (unsigned i = 0; i < a->n_seated; i++)
        p += zbc_addr_write(out + p, &a->seat[i]);
    zbc_put_le16(out + p, a->params_len), p += 2;
    memcpy(out + p, a->params, a->params_len);
    p += a->params_len;
    zbc_put_le16(out + p, a->state_len), p += 2;
    memcpy(out + p, a->state, a->state_len);
    p += a->state_len;
    if (a->has_pending) {
        out[p++] = a->pending_seat;
        memcpy(out + p, a->pending_hash, 32);
        p += 32;
        zbc_put_le16(out + p, a->pending_len), p += 2;
        memcpy(out + p, a->pending_move, a->pending_len);
        p += a->pending_len;
    }
    return p;
}

/* Reads n bytes at the cursor or fails. */
static const uint8_t *take(const uint8_t **p, size_t *rem, size_t n)
{
    if (*rem < n)
        return NULL;
    const uint8_t *r = *p;
    *p += n;
    *rem -= n;
    return r;
}

static int read_addr(struct zbc_addr *a, const uint8_t **p, size_t *rem,
                     const char *what, struct zbc_err *err)
{
    size_t used;
    if (!zbc_addr_read(a, *p, *rem, &used, err))
        return zbc_fail_prefix(err, "app record %s", what);
    *p += used;
    *rem -= used;
    return 1;
}

/* The outcome fields agree with the status and with each other
 * (docs/protocol-apps.md §7). */
static int check_outcome(const struct zbc_app *a, struct zbc_err *err)
{
    const uint8_t none = ZBC_APP_NO_SEAT;
    bool ended = a->status == ZBC_APP_FINISHED ||
                 a->status == ZBC_APP_ABANDONED;
    unsigned __int128 sum = a->rake;
    if (a->end > ZBC_END_BUST)
        return zbc_fail(err, "app record ending %u is unknown", a->end);
    if (a->winner != none && a->winner >= a->n_seated)
        return zbc_fail(err, "app record winner seat %u is out of range",
                        a->winner);
    if (a->loser != none && a->loser >= a->n_seated)
        return zbc_fail(err, "app record loser seat %u is out of range",
                        a->loser);
    for (unsigned i = 0; i < a->seats; i++) {
        if (i >= a->n_seated && a->paid[i] != 0)
            return zbc_fail(err, "app record pays empty seat %u", i);
        sum += a->paid[i];
    }
    if (sum > UINT64_MAX)
        return zbc_fail(err, "app record payouts overflow u64");
    if (!ended) {
        if (a->end != ZBC_END_NONE || a->winner != none ||
            a->loser != none || a->ended != 0 || sum != 0)
            return zbc_fail(err, "app record of a %s app carries an outcome",
                            zbc_app_status_name(a->status));
        return 1;
    }
    if (a->pot != 0)
        return zbc_fail(err, "app record of an ended app holds a pot of %llu",
                        (unsigned long long)a->pot);
    bool abandoned = a->end == ZBC_END_ABANDONED || a->end == ZBC_END_EXPIRED;
    if (a->end == ZBC_END_NONE ||
        abandoned != (a->status == ZBC_APP_ABANDONED))
        return zbc_fail(err, "app record ending %s does not fit status %s",
                        zbc_app_end_name(a->end),
                        zbc_app_status_name(a->status));
    bool loses = a->end == ZBC_END_RESIGN || a->end == ZBC_END_TIMEOUT;
    if (loses != (a->loser != none))
        return zbc_fail(err, "app record loser seat %u does not fit ending "
                             "%s", a->loser, zbc_app_end_name(a->end));
    if (a->winner != none &&
        (a->end == ZBC_END_DRAW || abandoned || a->winner == a->loser))
        return zbc_fail(err, "app record winner seat %u does not fit ending "
                             "%s", a->winner, zbc_app_end_name(a->end));
    if (a->end == ZBC_END_WIN && a->winner == none)
        return zbc_fail(err, "app record of a win names no winner");
    bool solo = a->end == ZBC_END_CASHOUT || a->end == ZBC_END_BUST;
    const struct zbc_engine *e = zbc_engine_by_type(a->type);
    if (solo != (e != NULL && e->solo != NULL))
        return zbc_fail(err, "app record ending %s does not fit app type %u",
                        zbc_app_end_name(a->end), a->type);
    if (a->end == ZBC_END_BUST && (a->winner != none || a->paid[0] != 0))
        return zbc_fail(err, "app record of a bust names a winner or pays");
    if ((a->end == ZBC_END_DRAW || abandoned || solo) && a->rake != 0)
        return zbc_fail(err, "app record ending %s takes no rake",
                        zbc_app_end_name(a->end));
    return 1;
}

int zbc_app_decode(struct zbc_app *a, const uint8_t *in, size_t len,
                   struct zbc_err *err)
{
    const uint8_t *p = in, *f;
    size_t rem = len;
    memset(a, 0, sizeof *a);
    if ((f = take(&p, &rem, FIXED_LEN)) == NULL)
        return zbc_fail(err, "app record is truncated (%zu bytes)", len);
    if (f[0] != ZBC_APP_VERSION)
        return zbc_fail(err, "app record version %u is not %d", f[0],
                        ZBC_APP_VERSION);
    a->type = f[1];
    a->status = f[2];
    a->seats = f[3];
    a->n_seated = f[4];
    uint8_t flags = f[5];
    a->clock = f[6];
    if (a->status > ZBC_APP_ABANDONED)
        return zbc_fail(err, "app record status %u is unknown", a->status);
    if (a->seats < 1 || a->seats > ZBC_SEATS_MAX || a->n_seated > a->seats)
        return zbc_fail(err, "app record seats %u/%u are out of range",
                        a->n_seated, a->seats);
    if (flags & ~(FLAG_FIRST_PENDING | FLAG_OPPONENT | FLAG_PENDING))
        return zbc_fail(err, "app record flags 0x%02x are unknown", flags);
    if (a->clock != ZBC_APP_NO_CLOCK && a->clock >= a->seats)
        return zbc_fail(err, "app record clock seat %u is out of range",
                        a->clock);
    a->first_pending = flags & FLAG_FIRST_PENDING;
    a->has_opponent = flags & FLAG_OPPONENT;
    a->has_pending = flags & FLAG_PENDING;
    a->stake = zbc_get_le64(f + 7);
    a->pot = zbc_get_le64(f + 15);
    a->escrow = zbc_get_le64(f + 23);
    a->created = zbc_get_le32(f + 31);
    a->joined = zbc_get_le32(f + 35);
    a->deadline = zbc_get_le64(f + 39);
    a->moves = zbc_get_le32(f + 47);
    a->history_n = zbc_get_le32(f + 51);
    a->end = f[55];
    a->winner = f[56];
    a->loser = f[57];
    a->ended = zbc_get_le32(f + 58);
    a->rake = zbc_get_le64(f + 62);
    if (a->escrow > a->pot)
        return zbc_fail(err, "app record escrow exceeds its pot");
    if ((f = take(&p, &rem, 8u * a->seats)) == NULL)
        return zbc_fail(err, "app record is truncated (paid amounts)");
    for (unsigned i = 0; i < a->seats; i++)
        a->paid[i] = zbc_get_le64(f + 8 * i);
    if (!check_outcome(a, err))
        return 0;
    if (a->has_opponent && !read_addr(&a->opponent, &p, &rem, "opponent", err))
        return 0;
    for (unsigned i = 0; i < a->n_seated; i++)
        if (!read_addr(&a->seat[i], &p, &rem, "seat", err))
            return 0;
    if ((f = take(&p, &rem, 2)) == NULL)
        return zbc_fail(err, "app record is truncated (params length)");
    a->params_len = zbc_get_le16(f);
    if (a->params_len > ZBC_APP_PARAMS_MAX ||
        (f = take(&p, &rem, a->params_len)) == NULL)
        return zbc_fail(err, "app record params of %u bytes do not fit",
                        a->params_len);
    memcpy(a->params, f, a->params_len);
    if ((f = take(&p, &rem, 2)) == NULL)
        return zbc_fail(err, "app record is truncated (state length)");
    a->state_len = zbc_get_le16(f);
    if (a->state_len > ZBC_GAME_STATE_MAX ||
        (f = take(&p, &rem, a->state_len)) == NULL)
        return zbc_fail(err, "app record state of %u bytes does not fit",
                        a->state_len);
    memcpy(a->state, f, a->state_len);
    if (a->has_pending) {
        if ((f = take(&p, &rem, 35)) == NULL)
            return zbc_fail(err, "app record is truncated (pending move)");
        a->pending_seat = f[0];
        memcpy(a->pending_hash, f + 1, 32);
        a->pending_len = zbc_get_le16(f + 33);
        if (a->pending_seat >= a->seats || a->pending_len > ZBC_MOVE_WIRE_MAX ||
            (f = take(&p, &rem, a->pending_len)) == NULL)
            return zbc_fail(err, "app record pending move does not fit");
        memcpy(a->pending_move, f, a->pending_len);
    }
    if (rem != 0)
        return zbc_fail(err, "app record has %zu trailing bytes", rem);
    return 1;
}

/* ---- stateless validity ---- */

int zbc_app_check_create(uint8_t type, uint64_t stake_token, uint8_t seats,
                         const uint8_t *params, size_t params_len,
                         bool has_opponent, struct zbc_err *err)
{
    if (stake_token != 0)
        return zbc_fail(err, "CreateApp stake_token must be 0 (only ZBC "
                             "stakes), got %llu",
                        (unsigned long long)stake_token);
    if (params_len > ZBC_APP_PARAMS_MAX)
        return zbc_fail(err, "CreateApp params of %zu bytes exceed the %d "
                             "allowed", params_len, ZBC_APP_PARAMS_MAX);
    if (zbc_bet_is_solo(type)) {
        struct zbc_bet bet;
        if (seats != 1)
            return zbc_fail(err, "solo bet type %u needs seats = 1, got %u",
                            type, seats);
        if (has_opponent)
            return zbc_fail(err, "a solo bet takes no opponent");
        if (!zbc_bet_parse(&bet, type, params, params_len, err))
            return zbc_fail_prefix(err, "CreateApp params");
        return 1;
    }
    if (type == ZBC_CRASH_TYPE)
        return zbc_crash_check_create(seats, params, params_len,
                                      has_opponent, err);
    const struct zbc_engine *e = zbc_engine_by_type(type);
    if (e == NULL)
        return zbc_fail(err, "unknown app type %u", type);
    if (!zbc_engine_check_seats(e, seats, err))
        return 0;
    if (has_opponent && seats != 2)
        return zbc_fail(err, "a designated opponent needs seats = 2, not %u",
                        seats);
    if (!e->check_params(seats, params, params_len, err))
        return zbc_fail_prefix(err, "CreateApp params");
    return 1;
}

/* ---- pure rules ---- */

uint8_t zbc_app_first_seat(const uint8_t seed[32], uint64_t app_id,
                           uint8_t seats)
{
    uint8_t buf[8 + 32 + 8], h[32];
    memcpy(buf, "ZBC-TURN", 8);
    memcpy(buf + 8, seed, 32);
    zbc_put_le64(buf + 40, app_id);
    zbc_sha3_256(h, buf, sizeof buf);
    return (uint8_t)(zbc_get_le64(h) % (seats ? seats : 1));
}

uint64_t zbc_app_rake(uint64_t pot, uint32_t rake_bps)
{
    return (uint64_t)((unsigned __int128)pot * rake_bps / 10000u);
}

void zbc_app_split(uint64_t amount, unsigned k, uint64_t *each,
                   uint64_t *extra)
{
    if (k == 0)
        k = 1;
    *each = amount / k;
    *extra = amount % k;
}

uint8_t zbc_app_split_seats(uint8_t n_seated, uint8_t loser, uint8_t out)
{
    uint8_t all = 0;
    for (unsigned i = 0; i < n_seated && i < ZBC_SEATS_MAX; i++)
        if (i != loser)
            all |= (uint8_t)(1u << i);
    uint8_t in_play = (uint8_t)(all & ~out);
    return in_play != 0 ? in_play : all;
}

int zbc_app_seat_of(const struct zbc_app *a, const struct zbc_addr *addr)
{
    for (unsigned i = 0; i < a->n_seated; i++)
        if (zbc_addr_equal(&a->seat[i], addr))
            return (int)i;
    return -1;
}

const struct zbc_engine *zbc_app_engine(const struct zbc_app *a)
{
    if (zbc_bet_is_solo(a->type))
        return NULL;
    return zbc_engine_by_type(a->type);
}

/* Decodes the stored engine state (16 KiB on the stack). */
static int load(const struct zbc_app *a, const struct zbc_engine **e,
                struct zbc_game_state *st, struct zbc_err *err)
{
    *e = zbc_app_engine(a);
    if (*e == NULL)
        return zbc_fail(err, "app type %u has no game engine", a->type);
    if (a->state_len == 0)
        return zbc_fail(err, "app %llu has not started",
                        (unsigned long long)a->id);
    if (!(*e)->decode(st, a->state, a->state_len, err))
        return zbc_fail_prefix(err, "app %llu engine state",
                               (unsigned long long)a->id);
    return 1;
}

static int store(struct zbc_app *a, const struct zbc_engine *e,
                 const struct zbc_game_state *st, struct zbc_err *err)
{
    uint8_t buf[ZBC_GAME_STATE_MAX];
    size_t n = e->encode(st, buf, sizeof buf);
    if (n == 0 || n > UINT16_MAX)
        return zbc_fail(err, "app %llu engine state does not encode",
                        (unsigned long long)a->id);
    memcpy(a->state, buf, n);
    a->state_len = (uint16_t)n;
    return 1;
}

int zbc_app_start(struct zbc_app *a, uint8_t first, struct zbc_roll *rolls,
                  struct zbc_err *err)
{
    const struct zbc_engine *e = zbc_app_engine(a);
    struct zbc_game_state st;
    if (e == NULL)
        return zbc_fail(err, "app type %u has no game engine", a->type);
    if (!e->init(&st, a->seats, a->params, a->params_len, first,
                 e->start_rolls ? rolls : NULL, err))
        return zbc_fail_prefix(err, "app %llu start",
                               (unsigned long long)a->id);
    return store(a, e, &st, err);
}

int zbc_app_out_mask(const struct zbc_app *a, uint8_t *mask,
                     struct zbc_err *err)
{
    const struct zbc_engine *e;
    struct zbc_game_state st;
    struct zbc_result res;
    *mask = 0;
    if (a->state_len == 0)
        return 1;
    if (!load(a, &e, &st, err))
        return 0;
    e->result(&st, &res);
    *mask = (uint8_t)(res.out_mask & ((1u << a->seats) - 1));
    return 1;
}

int zbc_app_turn(const struct zbc_app *a, int *seat, struct zbc_err *err)
{
    const struct zbc_engine *e;
    struct zbc_game_state st;
    if (!load(a, &e, &st, err))
        return 0;
    *seat = e->turn(&st);
    return 1;
}

int zbc_app_check_move(const struct zbc_app *a, uint8_t seat,
                       const uint8_t *move, size_t len, struct zbc_err *err)
{
    const struct zbc_engine *e;
    struct zbc_game_state st;
    if (!load(a, &e, &st, err))
        return 0;
    return e->check_move(&st, seat, move, len, err);
}

int zbc_app_play(struct zbc_app *a, uint8_t seat, const uint8_t *move,
                 size_t len, struct zbc_roll *rolls, struct zbc_result *res,
                 int *next, struct zbc_err *err)
{
    const struct zbc_engine *e;
    struct zbc_game_state st;
    if (!load(a, &e, &st, err))
        return 0;
    if (!e->apply_move(&st, seat, move, len, e->dice ? rolls : NULL, err))
        return 0;
    if (!store(a, e, &st, err))
        return 0;
    e->result(&st, res);
    *next = e->turn(&st);
    return 1;
}

const char *zbc_app_status_name(enum zbc_app_status s)
{
    switch (s) {
    case ZBC_APP_OPEN:
        return "open";
    case ZBC_APP_ACTIVE:
        return "active";
    case ZBC_APP_FINISHED:
        return "finished";
    case ZBC_APP_ABANDONED:
        return "abandoned";
    }
    return "unknown";
}

const char *zbc_app_end_name(enum zbc_app_end e)
{
    switch (e) {
    case ZBC_END_NONE:
        return "none";
    case ZBC_END_WIN:
        return "win";
    case ZBC_END_DRAW:
        return "draw";
    case ZBC_END_RESIGN:
        return "resign";
    case ZBC_END_TIMEOUT:
        return "timeout";
    case ZBC_END_BET:
        return "bet";
    case ZBC_END_ABANDONED:
        return "abandoned";
    case ZBC_END_EXPIRED:
        return "expired";
    case ZBC_END_CASHOUT:
        return "cashout";
    case ZBC_END_BUST:
        return "bust";
    }
    return "unknown";
}
