/* Steps every game shares (engine.h): the seat count, the entry checks of
 * a move, and CreateApp params text <-> bytes (docs/games.md, "What every
 * engine provides"). */
#include "apps/engine.h"

#include <stdio.h>
#include <string.h>

#include "crypto/bytes.h"
#include "crypto/hex.h"

int zbc_engine_move_entry(const struct zbc_engine *e, int turn, uint8_t seat,
                          size_t len, struct zbc_err *err)
{
    if (turn == ZBC_NOBODY)
        return zbc_fail(err, "the game is over");
    if (turn != (int)seat)
        return zbc_fail(err, "not your turn: seat %d is to move", turn);
    if (len == 0)
        return zbc_fail(err, "empty %s move", e->name);
    return 1;
}

int zbc_engine_param_u8(const char *key, const char *value, uint8_t *out,
                        struct zbc_err *err)
{
    uint64_t v;
    if (!zbc_parse_u64(value, 0, 255, &v, key, err))
        return 0;
    *out = (uint8_t)v;
    return 1;
}

/* One "key=value" word (modified in place). */
static int named_word(const struct zbc_engine *e, char *word, uint8_t *out,
                      size_t *len, struct zbc_err *err)
{
    char *eq = strchr(word, '=');
    if (eq == NULL || eq == word)
        return zbc_fail(err, "param '%.40s' is not key=value", word);
    *eq = '\0';
    return e->params_word(word, eq + 1, out, len, err);
}

int zbc_engine_params_from_text(const struct zbc_engine *e, const char *text,
                                uint8_t *out, size_t cap, size_t *len,
                                struct zbc_err *err)
{
    *len = 0;
    if (text == NULL || text[0] == '\0')
        return 1;
    if (strchr(text, '=') == NULL) {
        if (!zbc_hex_decode(out, cap, len, text, strlen(text)))
            return zbc_fail(err, "params '%.40s' are neither hex (at most %zu "
                            "bytes) nor key=value words", text, cap);
        return 1;
    }
    if (e->params_word == NULL)
        return zbc_fail(err, "%s has no named params (give them as hex)",
                        e->name);
    if (cap < ZBC_NAMED_PARAMS_MAX)
        return zbc_fail(err, "params buffer of %zu bytes is too small", cap);
    char buf[256];
    size_t n = strlen(text);
    if (n >= sizeof buf)
        return zbc_fail(err, "params text is %zu characters, at most %zu",
                        n, sizeof buf - 1);
    memcpy(buf, text, n + 1);
    memset(out, 0, ZBC_NAMED_PARAMS_MAX);
    for (char *save = NULL, *w = strtok_r(buf, ", ", &save); w != NULL;
         w = strtok_r(NULL, ", ", &save))
        if (!named_word(e, w, out, len, err))
            return 0;
    return 1;
}

int zbc_engine_params_to_text(const struct zbc_engine *e,
                              const uint8_t *params, size_t len, char *out,
                              size_t cap)
{
    if (cap == 0)
        return 0;
    out[0] = '\0';
    if (len == 0)
        return 1;
    if (e->params_text != NULL && e->params_text(params, len, out, cap))
        return 1;
    if (cap < 2 * len + 1)
        return 0;
    zbc_hex_encode(out, params, len);
    return 1;
}

int zbc_engine_rounds_word(const char *key, const char *value, uint8_t *out,
                           size_t *len, struct zbc_err *err)
{
    if (strcmp(key, "rounds") != 0)
        return zbc_fail(err, "no param '%.24s' (the param is rounds=N)", key);
    if (!zbc_engine_param_u8(key, value, &out[0], err))
        return 0;
    *len = 1;
    return 1;
}

int zbc_engine_rounds_text(const uint8_t *params, size_t len, char *out,
                           size_t cap)
{
    if (len != 1)
        return 0;
    int n = snprintf(out, cap, "rounds=%u", params[0]);
    return n > 0 && (size_t)n < cap;
}

int zbc_engine_check_seats(const struct zbc_engine *e, uint8_t seats,
                           struct zbc_err *err)
{
    if (seats < e->min_seats || seats > e->max_seats)
        return zbc_fail(err, "%s takes %u to %u seats, not %u", e->name,
                        e->min_seats, e->max_seats, seats);
    return 1;
}
