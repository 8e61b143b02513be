/* Transaction requests in flight (tx_fetch.h). */
#include "node/zbcd/tx_fetch.h"

#include <stdlib.h>
#include <string.h>

#include "node/zbcd/seen_set.h"

struct entry {
    uint8_t h[32];            /* first: the index reads keys here */
    uint64_t peer;            /* asked from; 0: the entry is free */
    uint64_t prev;            /* asked before the last time-out */
    uint64_t deadline;
    uint64_t alt[ZBC_TXF_ALTS];
    uint32_t n_alt;
    uint32_t seq;             /* the asked peer's request number */
    bool answered;            /* that request was answered without it */
    bool omitted;             /* ... and the peer is to blame */
    uint32_t next_free;       /* free list: index + 1, 0 = end */
};

struct zbc_txf {
    struct entry *e;
    size_t cap, count;
    uint32_t free_head;       /* index + 1 of the first free entry */
    uint64_t timeout_ms;
    struct zbc_hidx idx;
};

struct zbc_txf *zbc_txf_new(size_t cap, uint64_t timeout_ms)
{
    if (cap == 0 || cap > UINT32_MAX / 4)
        return NULL;
    struct zbc_txf *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->e = calloc(cap, sizeof *t->e);
    if (t->e == NULL ||
        !zbc_hidx_init(&t->idx, cap, t->e[0].h, sizeof *t->e)) {
        zbc_txf_free(t);
        return NULL;
    }
    for (size_t i = 0; i < cap; i++)
        t->e[i].next_free = i + 1 < cap ? (uint32_t)(i + 2) : 0;
    t->free_head = 1;
    t->cap = cap;
    t->timeout_ms = timeout_ms;
    return t;
}

void zbc_txf_free(struct zbc_txf *t)
{
    if (t == NULL)
        return;
    zbc_hidx_free(&t->idx);
    free(t->e);
    free(t);
}

static struct entry *find(const struct zbc_txf *t, const uint8_t h[32])
{
    size_t pos = zbc_hidx_find(&t->idx, h);
    return pos == SIZE_MAX ? NULL : &t->e[pos];
}

static void drop(struct zbc_txf *t, struct entry *e)
{
    zbc_hidx_remove(&t->idx, e->h);
    uint32_t i = (uint32_t)(e - t->e);
    memset(e, 0, sizeof *e);
    e->next_free = t->free_head;
    t->free_head = i + 1;
    t->count--;
}

enum zbc_txf_ann zbc_txf_announced(struct zbc_txf *t, const uint8_t h[32],
                                   uint64_t peer, bool may_ask, uint32_t seq,
                                   uint64_t now)
{
    struct entry *e = find(t, h);
    if (e != NULL) {
        if (e->peer == peer || e->n_alt >= ZBC_TXF_ALTS)
            return ZBC_TXF_SKIP;
        for (uint32_t i = 0; i < e->n_alt; i++)
            if (e->alt[i] == peer)
                return ZBC_TXF_SKIP;
        e->alt[e->n_alt++] = peer;
        return ZBC_TXF_WAIT;
    }
    if (!may_ask || t->free_head == 0)
        return ZBC_TXF_LATER;
    uint32_t i = t->free_head - 1;
    e = &t->e[i];
    t->free_head = e->next_free;
    memset(e, 0, sizeof *e);
    memcpy(e->h, h, 32);
    e->peer = peer;
    e->seq = seq;
    e->deadline = now + t->timeout_ms;
    zbc_hidx_insert(&t->idx, i);
    t->count++;
    return ZBC_TXF_ASK;
}

bool zbc_txf_received(struct zbc_txf *t, const uint8_t h[32], uint64_t peer,
                      uint64_t *asked)
{
    *asked = 0;
    struct entry *e = find(t, h);
    if (e == NULL || (e->peer != peer && e->prev != peer))
        return false;
    *asked = e->peer;
    drop(t, e);
    return true;
}

void zbc_txf_done(struct zbc_txf *t, const uint8_t h[32], uint64_t *asked)
{
    *asked = 0;
    struct entry *e = find(t, h);
    if (e == NULL)
        return;
    *asked = e->peer;
    drop(t, e);
}

size_t zbc_txf_answered(struct zbc_txf *t, uint64_t peer, uint32_t seq,
                        bool blame)
{
    size_t n = 0;
    for (size_t i = 0; i < t->cap; i++) {
        struct entry *e = &t->e[i];
        /* seq numbers wrap: "at or before" within half the range */
        if (e->peer != peer || e->answered || (int32_t)(e->seq - seq) > 0)
            continue;
        e->answered = true;
        e->omitted = blame;
        e->deadline = 0;
        n++;
    }
    return n;
}

void zbc_txf_expire(struct zbc_txf *t, uint64_t now,
                    const struct zbc_txf_cb *cb)
{
    for (size_t i = 0; i < t->cap && t->count > 0; i++) {
        struct entry *e = &t->e[i];
        if (e->peer == 0 || now < e->deadline)
            continue;
        uint64_t old = e->peer;
        uint8_t h[32];
        memcpy(h, e->h, 32);
        cb->expired(cb->arg, h, old, e->omitted);
        bool asked = false;
        uint32_t k = 0, seq = 0;
        while (k < e->n_alt && !asked)
            asked = cb->ask(cb->arg, h, e->alt[k++], &seq);
        if (!asked) {
            drop(t, e);
            continue;
        }
        e->prev = old;
        e->peer = e->alt[k - 1];
        e->seq = seq;
        e->answered = false;
        e->omitted = false;
        e->deadline = now + t->timeout_ms;
        memmove(e->alt, e->alt + k, (e->n_alt - k) * sizeof e->alt[0]);
        e->n_alt -= k;
    }
}

void zbc_txf_peer_gone(struct zbc_txf *t, uint64_t peer)
{
    for (size_t i = 0; i < t->cap; i++) {
        struct entry *e = &t->e[i];
        if (e->peer == 0)
            continue;
        if (e->peer == peer)
            e->deadline = 0;
        if (e->prev == peer)
            e->prev = 0;
        uint32_t k = 0;
        for (uint32_t j = 0; j < e->n_alt; j++)
            if (e->alt[j] != peer)
                e->alt[k++] = e->alt[j];
        e->n_alt = k;
    }
}

size_t zbc_txf_count(const struct zbc_txf *t)
{
    return t->count;
}
