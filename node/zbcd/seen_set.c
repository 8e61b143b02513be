/* The gossip de-duplication set (seen_set.h). */
#include "node/zbcd/seen_set.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

struct zbc_seen {
    uint8_t (*ring)[32]; /* FIFO of hashes, next = the oldest when full */
    bool *live;          /* ring[i] is in the table */
    size_t cap, next, held;
    uint32_t *table;     /* ring index + 1; 0 = empty (linear probing) */
    size_t mask;         /* table size - 1 */
    uint8_t key[crypto_shorthash_KEYBYTES];
};

struct zbc_seen *zbc_seen_new(size_t cap)
{
    if (cap == 0)
        cap = 1;
    if (cap > UINT32_MAX / 4 || sodium_init() < 0)
        return NULL;
    size_t size = 4;
    while (size < 2 * cap)
        size *= 2;
    struct zbc_seen *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    s->ring = calloc(cap, sizeof *s->ring);
    s->live = calloc(cap, sizeof *s->live);
    s->table = calloc(size, sizeof *s->table);
    if (s->ring == NULL || s->live == NULL || s->table == NULL) {
        zbc_seen_free(s);
        return NULL;
    }
    s->cap = cap;
    s->mask = size - 1;
    crypto_shorthash_keygen(s->key);
    return s;
}

void zbc_seen_free(struct zbc_seen *s)
{
    if (s == NULL)
        return;
    free(s->ring);
    free(s->live);
    free(s->table);
    free(s);
}

static size_t home(const struct zbc_seen *s, const uint8_t h[32])
{
    uint8_t out[crypto_shorthash_BYTES];
    crypto_shorthash(out, h, 32, s->key);
    uint64_t v;
    memcpy(&v, out, sizeof v);
    return (size_t)v & s->mask;
}

/* The table slot holding h, or the empty slot where it would go. */
static size_t slot_of(const struct zbc_seen *s, const uint8_t h[32],
                      bool *found)
{
    size_t i = home(s, h);
    while (s->table[i] != 0) {
        if (memcmp(s->ring[s->table[i] - 1], h, 32) == 0) {
            *found = true;
            return i;
        }
        i = (i + 1) & s->mask;
    }
    *found = false;
    return i;
}

/* Empties table slot i, moving later entries of its probe run back so
 * every entry stays reachable from its home slot. */
static void table_del(struct zbc_seen *s, size_t i)
{
    size_t j = i;
    for (;;) {
        j = (j + 1) & s->mask;
        if (s->table[j] == 0)
            break;
        size_t k = home(s, s->ring[s->table[j] - 1]);
        /* the entry at j may move to i unless its home lies in (i, j] */
        bool stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
        if (!stays) {
            s->table[i] = s->table[j];
            i = j;
        }
    }
    s->table[i] = 0;
}

bool zbc_seen_has(const struct zbc_seen *s, const uint8_t h[32])
{
    bool found;
    (void)slot_of(s, h, &found);
    return found;
}

void zbc_seen_add(struct zbc_seen *s, const uint8_t h[32])
{
    bool found;
    (void)slot_of(s, h, &found);
    if (found)
        return;
    if (s->live[s->next]) { /* full: the oldest goes */
        size_t old = slot_of(s, s->ring[s->next], &found);
        table_del(s, old);
        s->live[s->next] = false;
        s->held--;
    }
    memcpy(s->ring[s->next], h, 32);
    s->live[s->next] = true;
    s->held++;
    size_t at = slot_of(s, h, &found); /* after the deletion: still free */
    s->table[at] = (uint32_t)(s->next + 1);
    s->next = (s->next + 1) % s->cap;
}

void zbc_seen_forget(struct zbc_seen *s, const uint8_t h[32])
{
    bool found;
    size_t i = slot_of(s, h, &found);
    if (!found)
        return;
    s->live[s->table[i] - 1] = false;
    s->held--;
    table_del(s, i);
}

size_t zbc_seen_count(const struct zbc_seen *s)
{
    return s->held;
}
