/* Params of the multi-step solo games (apps/games/solo.h). */
#include "apps/games/solo.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "apps/engine.h"
#include "apps/fair_pay.h"

int zbc_solo_params(const uint8_t *params, size_t len, uint8_t f,
                    struct zbc_solo_params *p, struct zbc_err *err)
{
    memset(p, 0, sizeof *p);
    if (len == 0)
        return 1;
    if (f > ZBC_SOLO_FIELDS_MAX || len < f)
        return zbc_fail(err, "params of %zu bytes: want none, the %u field "
                             "byte%s, or those and a client seed", len, f,
                        f == 1 ? "" : "s");
    p->n_fields = f;
    memcpy(p->field, params, f);
    if (len == f)
        return 1;
    size_t n = params[f];
    p->has_seed_byte = 1;
    if (n > ZBC_ROLL_CLIENT_MAX)
        return zbc_fail(err, "client seed is %zu bytes, at most %d allowed",
                        n, ZBC_ROLL_CLIENT_MAX);
    if (len != (size_t)f + 1 + n)
        return zbc_fail(err, "client seed length says %zu bytes but %zu "
                             "follow", n, len - f - 1);
    for (size_t i = 0; i < n; i++) {
        uint8_t c = params[f + 1 + i];
        if (c < 0x20 || c > 0x7e)
            return zbc_fail(err, "client seed must be printable ASCII (byte "
                                 "%zu is 0x%02x)", i, c);
    }
    memcpy(p->seed, params + f + 1, n);
    p->seed[n] = '\0';
    p->seed_len = (uint8_t)n;
    return 1;
}

int zbc_solo_seed_word(const char *key, const char *value, uint8_t *out,
                       uint8_t f, size_t *len, const char *fields_hint,
                       struct zbc_err *err)
{
    if (strcmp(key, "seed") != 0)
        return zbc_fail(err, "no param '%.24s' (the params are %s and "
                             "seed=TEXT)", key, fields_hint);
    size_t n = strlen(value), room = ZBC_NAMED_PARAMS_MAX - (size_t)f - 1;
    if (n > room)
        return zbc_fail(err, "seed=%.20s... is %zu characters: at most %zu "
                             "as a word (give longer seeds as hex params)",
                        value, n, room);
    for (size_t i = 0; i < n; i++)
        if (value[i] < 0x21 || value[i] > 0x7e)
            return zbc_fail(err, "seed must be printable ASCII");
    out[f] = (uint8_t)n;
    memcpy(out + f + 1, value, n);
    *len = (size_t)f + 1 + n;
    return 1;
}

int zbc_solo_params_text(const struct zbc_solo_params *p, const char *key,
                         char *out, size_t cap)
{
    if (p->n_fields != 1 || !p->has_seed_byte ||
        p->seed_len > ZBC_NAMED_PARAMS_MAX - 2)
        return 0;
    for (size_t i = 0; i < p->seed_len; i++)
        if (p->seed[i] == ' ' || p->seed[i] == ',')
            return 0; /* words are split there */
    int n = p->seed_len == 0
                ? snprintf(out, cap, "%s=%u", key, p->field[0])
                : snprintf(out, cap, "%s=%u,seed=%s", key, p->field[0],
                           p->seed);
    return n > 0 && (size_t)n < cap;
}

int zbc_solo_seed_text(const uint8_t *params, size_t len, char *out,
                       size_t cap)
{
    struct zbc_solo_params p;
    struct zbc_err err;
    if (!zbc_solo_params(params, len, 0, &p, &err) || !p.has_seed_byte ||
        p.seed_len == 0 || p.seed_len > ZBC_NAMED_PARAMS_MAX - 1 ||
        strpbrk(p.seed, " ,") != NULL)
        return 0;
    int n = snprintf(out, cap, "seed=%s", p.seed);
    return n > 0 && (size_t)n < cap;
}

static void client_seed(const uint8_t *params, size_t len, uint8_t f,
                        char out[ZBC_ROLL_CLIENT_MAX + 1])
{
    struct zbc_solo_params p;
    struct zbc_err err;
    out[0] = '\0';
    if (zbc_solo_params(params, len, f, &p, &err))
        memcpy(out, p.seed, (size_t)p.seed_len + 1);
}

void zbc_solo_client_seed_0(const uint8_t *params, size_t len,
                            char out[ZBC_ROLL_CLIENT_MAX + 1])
{
    client_seed(params, len, 0, out);
}

void zbc_solo_client_seed_1(const uint8_t *params, size_t len,
                            char out[ZBC_ROLL_CLIENT_MAX + 1])
{
    client_seed(params, len, 1, out);
}

int zbc_solo_field1(const uint8_t *params, size_t len, uint8_t def,
                    uint8_t *field, struct zbc_err *err)
{
    struct zbc_solo_params p;
    if (!zbc_solo_params(params, len, 1, &p, err))
        return 0;
    *field = p.n_fields ? p.field[0] : def;
    return 1;
}

int zbc_solo_turn(uint8_t status)
{
    return status == ZBC_SOLO_PLAYING ? 0 : ZBC_NOBODY;
}

void zbc_solo_result(uint8_t status, struct zbc_result *out)
{
    memset(out, 0, sizeof *out);
    if (status == ZBC_SOLO_PLAYING)
        out->kind = ZBC_RESULT_ONGOING;
    else if (status == ZBC_SOLO_BUST)
        out->kind = ZBC_RESULT_DRAW;
    else
        out->kind = ZBC_RESULT_WIN; /* winner 0 */
}

const char *zbc_solo_status_word(uint8_t status)
{
    static const char *const W[] = {"playing", "bust", "cashout", "cleared"};
    return status <= ZBC_SOLO_TOP ? W[status] : "unknown";
}

void zbc_solo_bits_json(struct zbc_text *tb, uint32_t mask, unsigned n)
{
    bool first = true;
    zbc_text_printf(tb, "[");
    for (unsigned i = 0; i < n; i++)
        if (mask >> i & 1) {
            zbc_text_printf(tb, "%s%u", first ? "" : ",", i);
            first = false;
        }
    zbc_text_printf(tb, "]");
}

void zbc_solo_mult(char out[32], uint64_t value)
{
    snprintf(out, 32, "%llu.%04llu", (unsigned long long)(value / ZBC_FAIR_ONE),
             (unsigned long long)(value % ZBC_FAIR_ONE));
}

void zbc_solo_json_tail(struct zbc_text *tb, uint64_t value, bool playing)
{
    char m[32];
    zbc_solo_mult(m, value);
    zbc_text_printf(tb, "\"multiplier\":\"%s\",\"turn\":%s}", m,
                    playing ? "0" : "null");
}

void zbc_solo_status_line(struct zbc_text *tb, uint8_t status, uint64_t value,
                          const char *bust)
{
    char m[32];
    zbc_solo_mult(m, value);
    if (status == ZBC_SOLO_PLAYING)
        zbc_text_printf(tb, "cash-out value %sx\n", m);
    else if (status == ZBC_SOLO_BUST)
        zbc_text_printf(tb, "%s\n", bust);
    else
        zbc_text_printf(tb, "%s at %sx\n",
                        status == ZBC_SOLO_TOP ? "cleared" : "cashed out", m);
}

int zbc_solo_parse_word(const char *text, const char *const *words,
                        uint8_t first, uint8_t last, uint8_t *move, size_t cap,
                        size_t *len, const char *game, const char *list,
                        struct zbc_err *err)
{
    struct zbc_tokens tk;
    if (cap < 1)
        return zbc_fail(err, "move buffer too small");
    if (!zbc_notation_tokens(&tk, text, err))
        return 0;
    for (unsigned m = first; tk.count == 1 && m <= last; m++)
        if (strcmp(tk.tok[0], words[m]) == 0) {
            move[0] = (uint8_t)m;
            *len = 1;
            return 1;
        }
    return zbc_fail(err, "%s moves are %s, not \"%.40s\"", game, list, text);
}

int zbc_solo_format_word(const uint8_t *move, size_t len,
                         const char *const *words, uint8_t first, uint8_t last,
                         char *out, size_t cap)
{
    if (len != 1 || move[0] < first || move[0] > last)
        return 0;
    int n = snprintf(out, cap, "%s", words[move[0]]);
    return n > 0 && (size_t)n < cap;
}

size_t zbc_solo_gen_bytes(const struct zbc_engine *e,
                          const struct zbc_game_state *st, uint8_t first,
                          uint8_t last, struct zbc_move *out, size_t cap)
{
    size_t n = 0;
    struct zbc_err err;
    for (unsigned m = first; m <= last && n < cap; m++) {
        uint8_t b = (uint8_t)m;
        if (e->check_move(st, 0, &b, 1, &err)) {
            out[n].len = 1;
            out[n].b[0] = b;
            n++;
        }
    }
    return n;
}

int zbc_solo_seed_only_word(const char *game, const char *key,
                            const char *value, uint8_t *out, size_t *len,
                            struct zbc_err *err)
{
    if (strcmp(key, "seed") != 0)
        return zbc_fail(err, "no param '%.24s' (%s's one param is seed=TEXT)",
                        key, game);
    return zbc_solo_seed_word(key, value, out, 0, len, "seed=TEXT", err);
}
