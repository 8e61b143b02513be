#include "apps/notation.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "crypto/bytes.h"

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int zbc_notation_parse_square(const char *text, unsigned width,
                              unsigned height, unsigned *cell,
                              struct zbc_err *err)
{
    if (width == 0 || width > ZBC_NOTATION_FILES || height == 0)
        return zbc_fail(err, "board size %ux%u cannot be named by letters",
                        width, height);
    char last = (char)('a' + width - 1);
    if (text == NULL || text[0] == '\0')
        return zbc_fail(err, "expected a square a1-%c%u, got nothing", last,
                        height);
    char f = text[0];
    if (f >= 'A' && f <= 'Z')
        f = (char)(f - 'A' + 'a');
    if (f < 'a' || f > last)
        return zbc_fail(err, "'%.24s' is not a square: file must be a-%c",
                        text, last);
    uint64_t rank;
    struct zbc_err sub;
    if (!zbc_parse_u64(text + 1, 1, height, &rank, "rank", &sub))
        return zbc_fail(err, "'%.24s' is not a square: rank must be 1-%u",
                        text, height);
    *cell = (unsigned)(rank - 1) * width + (unsigned)(f - 'a');
    return 1;
}

int zbc_notation_format_square(unsigned cell, unsigned width, char *out,
                               size_t cap)
{
    if (width == 0 || width > ZBC_NOTATION_FILES)
        return 0;
    int n = snprintf(out, cap, "%c%u", (char)('a' + cell % width),
                     cell / width + 1);
    return n > 0 && (size_t)n < cap;
}

int zbc_notation_tokens(struct zbc_tokens *out, const char *text,
                        struct zbc_err *err)
{
    out->count = 0;
    const char *p = text;
    for (;;) {
        while (*p != '\0' && is_space(*p))
            p++;
        if (*p == '\0')
            return 1;
        const char *start = p;
        while (*p != '\0' && !is_space(*p))
            p++;
        size_t n = (size_t)(p - start);
        if (out->count == ZBC_NOTATION_TOKENS)
            return zbc_fail(err, "too many words in '%.40s' (at most %d)",
                            text, ZBC_NOTATION_TOKENS);
        if (n >= ZBC_NOTATION_TOKEN_MAX)
            return zbc_fail(err, "word '%.24s...' is too long (at most %d "
                            "characters)", start, ZBC_NOTATION_TOKEN_MAX - 1);
        memcpy(out->tok[out->count], start, n);
        out->tok[out->count][n] = '\0';
        out->count++;
    }
}

void zbc_text_init(struct zbc_text *t, char *buf, size_t cap)
{
    t->buf = buf;
    t->cap = cap;
    t->len = 0;
    t->overflow = cap == 0;
    if (cap > 0)
        buf[0] = '\0';
}

void zbc_text_printf(struct zbc_text *t, const char *fmt, ...)
{
    if (t->overflow)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= t->cap - t->len) {
        t->overflow = true;
        t->buf[t->len] = '\0';
        return;
    }
    t->len += (size_t)n;
}

int zbc_text_result(const struct zbc_text *t)
{
    if (t->overflow || t->len > (size_t)__INT_MAX__)
        return -1;
    return (int)t->len;
}
