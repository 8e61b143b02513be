#include "node/wallet/textbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void zbc_textbuf_add(struct zbc_textbuf *b, const char *fmt, ...)
{
    if (b->oom)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = b->p != NULL ? vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap) : -2;
        va_end(ap);
        if (n == -1) {
            b->oom = 1;
            return;
        }
        if (n >= 0 && (size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            return;
        }
        size_t want = b->cap * 2 + (n > 0 ? (size_t)n : 0) + 256;
        char *g = realloc(b->p, want);
        if (g == NULL) {
            b->oom = 1;
            return;
        }
        if (b->p == NULL)
            g[0] = '\0';
        b->p = g;
        b->cap = want;
    }
}

char *zbc_textbuf_take(struct zbc_textbuf *b)
{
    char *p = b->p;
    if (b->oom) {
        free(p);
        p = NULL;
    } else if (p == NULL) {
        p = calloc(1, 1);
    }
    b->p = NULL;
    b->len = b->cap = 0;
    return p;
}
