#include "node/wallet/app_view.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include "apps/engine.h"
#include "crypto/hex.h"
#include "node/wallet/amount.h"
#include "node/wallet/names.h"
#include "node/wallet/result_text.h"

struct buf {
    char *p;
    size_t len, cap;
};

static void put(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (b->p == NULL || n < 0)
        return;
    if (b->len + (size_t)n + 1 > b->cap) {
        size_t cap = (b->len + (size_t)n + 1) * 2;
        char *p = realloc(b->p, cap);
        if (p == NULL) {
            free(b->p);
            b->p = NULL;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

static const char *str(const json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s != NULL ? s : "-";
}

static long long num(const json_t *o, const char *k)
{
    return json_integer_value(json_object_get(o, k));
}

static void put_zbc(struct buf *b, long long units)
{
    char amt[32];
    zbc_amount_format(amt, units > 0 ? (uint64_t)units : 0);
    put(b, "%s", amt);
}

/* A move's notation for a person: a hex word of 24 characters or more (a
 * battleship salt or commitment) is cut to its first 8 and "…"; the full
 * notation stays in --json and the API. */
static void put_notation(struct buf *b, const char *s)
{
    while (*s != '\0') {
        size_t sp = strspn(s, " "), w = strcspn(s + sp, " ");
        const char *word = s + sp;
        bool hex = w >= 24 && strspn(word, "0123456789abcdefABCDEF") >= w;
        if (hex)
            put(b, "%.*s%.8s\xe2\x80\xa6", (int)sp, s, word); /* … */
        else
            put(b, "%.*s", (int)(sp + w), s);
        s = word + w;
    }
}

static void history(struct buf *b, const json_t *app)
{
    bool d6 = zbc_app_rolls_d6(app);
    const json_t *h = json_object_get(app, "history");
    size_t n = json_array_size(h), from = n > 12 ? n - 12 : 0;
    if (n == 0)
        return;
    put(b, "history%s:\n", from > 0 ? " (last 12)" : "");
    for (size_t i = from; i < n; i++) {
        const json_t *e = json_array_get(h, i);
        const json_t *seat = json_object_get(e, "seat");
        char words[256];
        put(b, "  #%-4lld h%-6lld %-9s", num(e, "seq"), num(e, "height"), str(e, "kind"));
        if (strcmp(str(e, "kind"), "app_end") == 0) {
            /* its seat is the record's winner field: never shown bare */
            zbc_end_event_text(e, words, sizeof words);
            put(b, " %s\n", words);
            continue;
        }
        if (json_is_integer(seat))
            put(b, " seat %lld", json_integer_value(seat));
        if (json_is_string(json_object_get(e, "notation"))) {
            put(b, " ");
            put_notation(b, str(e, "notation"));
        }
        /* the event's amount is a deadline height for these kinds
         * (docs/protocol-apps.md, Events) */
        const char *k = str(e, "kind");
        bool is_deadline = strcmp(k, "app_activate") == 0 || strcmp(k, "app_keepalive") == 0 ||
                           strcmp(k, "app_claim") == 0;
        bool told = false; /* the bet's words already say win or loss */
        if (strcmp(k, "bet_settle") == 0 && zbc_bet_text(app, words, sizeof words) >= 0) {
            put(b, " %s", words);
            told = true;
        } else if (num(e, "amount") != 0 && strcmp(k, "app_move") != 0) {
            if (is_deadline) {
                put(b, " deadline %lld", num(e, "amount"));
            } else {
                put(b, " ");
                put_zbc(b, num(e, "amount"));
            }
        }
        if (zbc_roll_text(e, d6, words, sizeof words) >= 0)
            put(b, ": %s", words);
        if (!told && str(e, "reason")[0] != '\0' && strcmp(str(e, "reason"), "-") != 0)
            put(b, " (%s)", str(e, "reason"));
        put(b, "\n");
    }
}

int zbc_app_clock_line(const json_t *app, const char *me, uint64_t block_time_ms, char *out,
                       size_t cap)
{
    const json_t *clock = json_object_get(app, "clock");
    if (cap > 0)
        out[0] = '\0';
    if (!json_is_integer(clock) || !json_is_integer(json_object_get(app, "deadline")))
        return -1;
    char ct[128];
    if (zbc_clock_text((uint64_t)num(app, "deadline"), (uint64_t)num(app, "height"),
                       block_time_ms, ct, sizeof ct) < 0)
        ct[0] = '\0';
    const char *ca = str(app, "clock_address");
    int n = snprintf(out, cap, "to move: seat %lld%s, %s%s", json_integer_value(clock),
                     me[0] != '\0' && strcmp(ca, me) == 0 ? " (you)" : "", ct,
                     json_is_true(json_object_get(app, "timeout_claimable"))
                         ? ", timeout claimable" : "");
    return n >= 0 && (size_t)n < cap ? n : -1;
}

/* "params: cash=1": the game's words for the app's params (apps/engine.h
 * zbc_engine_params_to_text), else short hex, else their size; nothing
 * without params or for a commitment (battleship: its own view says it). */
static void put_params(struct buf *b, const json_t *app)
{
    const char *hex = json_string_value(json_object_get(app, "params_hex"));
    if (hex == NULL || hex[0] == '\0')
        return;
    const struct zbc_engine *e = zbc_engine_by_name(str(app, "game"));
    if (e != NULL && e->secret_params)
        return;
    uint8_t p[256];
    size_t len, n = strlen(hex);
    char words[600];
    if (e != NULL && zbc_hex_decode(p, sizeof p, &len, hex, n) &&
        zbc_engine_params_to_text(e, p, len, words, sizeof words) && strlen(words) <= 64)
        put(b, "params: %s\n", words);
    else if (n <= 64)
        put(b, "params: %s (hex)\n", hex);
    else
        put(b, "params: %zu bytes (--json shows them)\n", n / 2);
}

char *zbc_app_view_text(const json_t *app, const char *me, uint64_t block_time_ms,
                        const struct zbc_names *names)
{
    struct buf b = {malloc(1024), 0, 1024};
    if (b.p == NULL)
        return NULL;
    b.p[0] = '\0';
    put(&b, "app %s: %s, %s, stake ", str(app, "id"), str(app, "game"), str(app, "status"));
    put_zbc(&b, num(app, "stake"));
    put(&b, ", pot ");
    put_zbc(&b, num(app, "pot"));
    if (num(app, "escrow") != 0) {
        put(&b, " (escrow ");
        put_zbc(&b, num(app, "escrow"));
        put(&b, ")");
    }
    put(&b, ", seats %lld/%lld, height %lld\n", num(app, "seated"), num(app, "seats"),
        num(app, "height"));
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(app, "players"), i, p) {
        const char *a = str(p, "address");
        const char *name = names != NULL ? zbc_names_find(names, a) : NULL;
        put(&b, "  seat %lld  %s%s%s%s\n", num(p, "seat"), a, name != NULL ? "  " : "",
            name != NULL ? name : "", me[0] != '\0' && strcmp(a, me) == 0 ? "  (you)" : "");
    }
    put_params(&b, app);
    const json_t *exp = json_object_get(app, "expires_at");
    if (json_is_integer(exp) && strcmp(str(app, "status"), "open") == 0) {
        long long h = json_integer_value(exp), left = h - num(app, "height");
        put(&b, "open: expires at block %lld (in %lld block%s) unless every seat is taken; "
            "then every stake comes back\n", h, left, left == 1 ? "" : "s");
    }
    const json_t *clock = json_object_get(app, "clock");
    if (json_is_true(json_object_get(app, "first_turn_pending")))
        put(&b, "first turn pending: the first seat is drawn at block %lld\n",
            num(app, "joined") + 2);
    else if (json_is_integer(clock)) {
        char line[256];
        if (zbc_app_clock_line(app, me, block_time_ms, line, sizeof line) >= 0)
            put(&b, "%s\n", line);
    }
    const json_t *pend = json_object_get(app, "pending");
    if (json_is_object(pend))
        put(&b, "pending: seat %lld %s (applied at block %lld)\n", num(pend, "seat"),
            json_is_string(json_object_get(pend, "notation")) ? str(pend, "notation") : "move",
            num(pend, "applies_at"));
    if (json_is_string(json_object_get(app, "board")))
        put(&b, "\n%s\n", str(app, "board"));
    history(&b, app);
    const json_t *r = json_object_get(app, "result");
    if (json_is_object(r)) {
        char words[512];
        if (zbc_result_text(app, words, sizeof words) < 0)
            snprintf(words, sizeof words, "%s", str(r, "ending"));
        put(&b, "result: %s, at block %lld\n", words, num(r, "ended"));
        json_array_foreach(json_object_get(r, "payouts"), i, p) {
            put(&b, "  paid ");
            put_zbc(&b, num(p, "amount"));
            const char *name = names != NULL ? zbc_names_find(names, str(p, "address")) : NULL;
            put(&b, " to %s%s%s (%s)\n", str(p, "address"), name != NULL ? " " : "",
                name != NULL ? name : "", str(p, "reason"));
        }
    }
    return b.p;
}
