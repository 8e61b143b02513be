/* The gossip de-duplication set and its hash index (seen_set.h). */
#include "node/zbcd/seen_set.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

/* ---- the index ---- */

int zbc_hidx_init(struct zbc_hidx *x, size_t cap, const uint8_t *keys,
                  size_t stride)
{
    memset(x, 0, sizeof *x);
    if (cap == 0 || cap > UINT32_MAX / 4 || sodium_init() < 0)
        return 0;
    size_t size = 4;
    while (size < 2 * cap)
        size *= 2;
    x->table = calloc(size, sizeof *x->table);
    if (x->table == NULL)
        return 0;
    x->mask = size - 1;
    x->keys = keys;
    x->stride = stride;
    crypto_shorthash_keygen(x->key);
    return 1;
}

void zbc_hidx_free(struct zbc_hidx *x)
{
    free(x->table);
    x->table = NULL;
}

static const uint8_t *key_at(const struct zbc_hidx *x, uint32_t pos)
{
    return x->keys + (size_t)pos * x->stride;
}

/* The key's SipHash-2-4 under the index's key, 32 bits of it: the home
 * slot is its low bits (the table has at most 2^31 slots). */
static uint32_t tag_of(const struct zbc_hidx *x, const uint8_t h[32])
{
    uint8_t out[crypto_shorthash_BYTES];
    crypto_shorthash(out, h, 32, x->key);
    uint32_t v;
    memcpy(&v, out, sizeof v);
    return v;
}

static uint32_t slot_pos(uint64_t e) { return (uint32_t)e; }
static uint32_t slot_tag(uint64_t e) { return (uint32_t)(e >> 32); }

/* The table slot holding h, or the empty slot where it would go; *tag
 * receives h's tag. */
static size_t slot_of(const struct zbc_hidx *x, const uint8_t h[32],
                      uint32_t *tag, bool *found)
{
    *tag = tag_of(x, h);
    size_t i = *tag & x->mask;
    while (x->table[i] != 0) {
        /* the stored tag first: a key is read only when it matches */
        if (slot_tag(x->table[i]) == *tag &&
            memcmp(key_at(x, slot_pos(x->table[i]) - 1), h, 32) == 0) {
            *found = true;
            return i;
        }
        i = (i + 1) & x->mask;
    }
    *found = false;
    return i;
}

/* Empties table slot i, moving later entries of its probe run back so
 * every entry stays reachable from its home slot. */
static void table_del(struct zbc_hidx *x, size_t i)
{
    size_t j = i;
    for (;;) {
        j = (j + 1) & x->mask;
        if (x->table[j] == 0)
            break;
        size_t k = slot_tag(x->table[j]) & x->mask;
        /* the entry at j may move to i unless its home lies in (i, j] */
        bool stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
        if (!stays) {
            x->table[i] = x->table[j];
            i = j;
        }
    }
    x->table[i] = 0;
}

size_t zbc_hidx_find(const struct zbc_hidx *x, const uint8_t h[32])
{
    bool found;
    uint32_t tag;
    size_t i = slot_of(x, h, &tag, &found);
    return found ? slot_pos(x->table[i]) - 1 : SIZE_MAX;
}

void zbc_hidx_insert(struct zbc_hidx *x, size_t pos)
{
    bool found;
    uint32_t tag;
    size_t i = slot_of(x, key_at(x, (uint32_t)pos), &tag, &found);
    if (!found)
        x->table[i] = (uint64_t)tag << 32 | (uint32_t)(pos + 1);
}

void zbc_hidx_remove(struct zbc_hidx *x, const uint8_t h[32])
{
    bool found;
    uint32_t tag;
    size_t i = slot_of(x, h, &tag, &found);
    if (found)
        table_del(x, i);
}

/* ---- the set ---- */

struct zbc_seen {
    uint8_t (*ring)[32]; /* FIFO of hashes, next = the oldest when full */
    bool *live;          /* ring[i] is in the index */
    size_t cap, next, held;
    struct zbc_hidx idx;
};

struct zbc_seen *zbc_seen_new(size_t cap)
{
    if (cap == 0)
        cap = 1;
    struct zbc_seen *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    s->ring = calloc(cap, sizeof *s->ring);
    s->live = calloc(cap, sizeof *s->live);
    if (s->ring == NULL || s->live == NULL ||
        !zbc_hidx_init(&s->idx, cap, &s->ring[0][0], 32)) {
        zbc_seen_free(s);
        return NULL;
    }
    s->cap = cap;
    return s;
}

void zbc_seen_free(struct zbc_seen *s)
{
    if (s == NULL)
        return;
    zbc_hidx_free(&s->idx);
    free(s->ring);
    free(s->live);
    free(s);
}

bool zbc_seen_has(const struct zbc_seen *s, const uint8_t h[32])
{
    return zbc_hidx_find(&s->idx, h) != SIZE_MAX;
}

void zbc_seen_add(struct zbc_seen *s, const uint8_t h[32])
{
    if (zbc_seen_has(s, h))
        return;
    if (s->live[s->next]) { /* full: the oldest goes */
        zbc_hidx_remove(&s->idx, s->ring[s->next]);
        s->live[s->next] = false;
        s->held--;
    }
    memcpy(s->ring[s->next], h, 32);
    s->live[s->next] = true;
    s->held++;
    zbc_hidx_insert(&s->idx, s->next);
    s->next = (s->next + 1) % s->cap;
}

void zbc_seen_forget(struct zbc_seen *s, const uint8_t h[32])
{
    size_t pos = zbc_hidx_find(&s->idx, h);
    if (pos == SIZE_MAX)
        return;
    s->live[pos] = false;
    s->held--;
    zbc_hidx_remove(&s->idx, h);
}

size_t zbc_seen_count(const struct zbc_seen *s)
{
    return s->held;
}
