#include "node/zbcd/buf_grow.h"

#include <stdlib.h>

int zbc_buf_grow(void **arr, size_t sz, size_t *cap, size_t first,
                 uint32_t **slot, size_t *slots, size_t first_slots,
                 size_t need, bool *rehash, const char *what,
                 struct zbc_err *err)
{
    *rehash = false;
    if (need > UINT32_MAX / 4)
        return zbc_fail(err, "a buffer of %zu %s is too large", need, what);
    if (need > *cap) {
        size_t c = *cap ? *cap : first;
        while (c < need)
            c *= 2;
        void *a = realloc(*arr, c * sz);
        if (a == NULL)
            return zbc_fail(err, "out of memory holding %zu %s", need, what);
        *arr = a;
        *cap = c;
    }
    if (2 * need > *slots) {
        size_t n = *slots ? *slots : first_slots;
        while (n < 2 * need)
            n *= 2;
        uint32_t *s = calloc(n, sizeof *s);
        if (s == NULL)
            return zbc_fail(err, "out of memory holding %zu %s", need, what);
        free(*slot);
        *slot = s;
        *slots = n;
        *rehash = true;
    }
    return 1;
}
