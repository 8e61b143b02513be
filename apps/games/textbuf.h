/* A bounded text writer for the to_json() and render() functions of the
 * battleship, rps, pig, race and ludo engines: appends printf-formatted
 * text to a caller's buffer and remembers whether it ever ran out of room,
 * so an engine writes its whole text and checks once at the end. */
#ifndef ZBC_GAMES_TEXTBUF_H
#define ZBC_GAMES_TEXTBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct zbc_textbuf {
    char *out;
    size_t cap;
    size_t len;
    bool full; /* some text did not fit */
};

static inline void zbc_tb_init(struct zbc_textbuf *tb, char *out, size_t cap)
{
    tb->out = out;
    tb->cap = cap;
    tb->len = 0;
    tb->full = cap == 0;
    if (cap > 0)
        out[0] = '\0';
}

static inline void zbc_tb_add(struct zbc_textbuf *tb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static inline void zbc_tb_add(struct zbc_textbuf *tb, const char *fmt, ...)
{
    if (tb->full)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tb->out + tb->len, tb->cap - tb->len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= tb->cap - tb->len) {
        tb->full = true;
        tb->out[tb->len] = '\0';
        return;
    }
    tb->len += (size_t)n;
}

/* The length written, or -1 when the text did not fit. */
static inline int zbc_tb_end(const struct zbc_textbuf *tb)
{
    if (tb->full || tb->len > (size_t)0x7fffffff)
        return -1;
    return (int)tb->len;
}

#endif
