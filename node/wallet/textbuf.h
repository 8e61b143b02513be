/* A growing text buffer for the wallet's multi-line outputs (lists,
 * histories, help): appends never overflow, whatever the node sent. */
#ifndef ZBC_WALLET_TEXTBUF_H
#define ZBC_WALLET_TEXTBUF_H

#include <stddef.h>

struct zbc_textbuf {
    char *p;     /* NUL-terminated when not NULL */
    size_t len, cap;
    int oom;     /* an allocation failed: p holds what fitted before */
};

/* printf-style append; grows p (starts from {0}). */
void zbc_textbuf_add(struct zbc_textbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The text (malloc'ed, the caller frees it), or NULL after an allocation
 * failure (the buffer is freed either way). */
char *zbc_textbuf_take(struct zbc_textbuf *b);

#endif
