/* Growth of the index buffers (node/zbcd/tx_index.c, history.c,
 * app_index.c): an array of entries and an open-addressing table of their
 * positions + 1, kept at twice the entries or more. */
#ifndef ZBC_NODE_BUF_GROW_H
#define ZBC_NODE_BUF_GROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"

/* Makes *arr (elements of size sz, *cap of them) hold `need`, doubling
 * from `first`, and the table *slot (*slots, a power of two) 2 * need or
 * more, doubling from `first_slots`.  *rehash is set when the table was
 * replaced by an empty one: the caller places its entries again.  0 when
 * out of memory (what: the entries, for the message), nothing changed
 * then but what had grown. */
ZBC_WUR int zbc_buf_grow(void **arr, size_t sz, size_t *cap, size_t first,
                         uint32_t **slot, size_t *slots, size_t first_slots,
                         size_t need, bool *rehash, const char *what,
                         struct zbc_err *err);

#endif
