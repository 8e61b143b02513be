/* Event list bytes (docs/protocol-chain.md "Events"):
 *   version u8 (=1) | count u32 | count x event
 *   event = kind u8 | tx_index u32 | tx_hash 32 | a (typed address) |
 *           b (typed address) | amount u64 | ref u64 | reason_len u8 |
 *           reason (ASCII, no NUL) */
#include "consensus/events.h"

#include <stdlib.h>
#include <string.h>

int zbc_events_push(struct zbc_events *ev, const struct zbc_event *e,
                    struct zbc_err *err)
{
    if (ev->n == ev->cap) {
        size_t ncap = ev->cap ? ev->cap * 2 : 16;
        struct zbc_event *ne = realloc(ev->e, ncap * sizeof *ne);
        if (ne == NULL)
            return zbc_fail(err, "out of memory recording an event");
        ev->e = ne;
        ev->cap = ncap;
    }
    ev->e[ev->n++] = *e;
    return 1;
}

void zbc_events_truncate(struct zbc_events *ev, size_t n)
{
    if (n < ev->n)
        ev->n = n;
}

void zbc_events_free(struct zbc_events *ev)
{
    free(ev->e);
    memset(ev, 0, sizeof *ev);
}

const char *zbc_event_kind_name(enum zbc_event_kind k)
{
    switch (k) {
    case ZBC_EVENT_TRANSFER:
        return "transfer";
    case ZBC_EVENT_FEE:
        return "fee";
    case ZBC_EVENT_NOOP:
        return "noop";
    }
    return "unknown";
}

static bool kind_known(unsigned k)
{
    return k == ZBC_EVENT_TRANSFER || k == ZBC_EVENT_FEE || k == ZBC_EVENT_NOOP;
}

static void put_uint(uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_uint(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static size_t reason_len(const struct zbc_event *e)
{
    return strnlen(e->reason, ZBC_EVENT_REASON_MAX - 1);
}

int zbc_events_encode(const struct zbc_events *ev, uint8_t **out, size_t *len,
                      struct zbc_err *err)
{
    if (ev->n > UINT32_MAX)
        return zbc_fail(err, "too many events in one block");
    size_t total = 5;
    for (size_t i = 0; i < ev->n; i++)
        total += 1 + 4 + 32 + (4 + (size_t)ev->e[i].a.len) +
                 (4 + (size_t)ev->e[i].b.len) + 8 + 8 + 1 +
                 reason_len(&ev->e[i]);
    uint8_t *b = malloc(total);
    if (b == NULL)
        return zbc_fail(err, "out of memory encoding events");
    size_t p = 0;
    b[p++] = ZBC_EVENTS_VERSION;
    put_uint(b + p, ev->n, 4);
    p += 4;
    for (size_t i = 0; i < ev->n; i++) {
        const struct zbc_event *e = &ev->e[i];
        b[p++] = (uint8_t)e->kind;
        put_uint(b + p, e->tx_index, 4);
        p += 4;
        memcpy(b + p, e->tx_hash, 32);
        p += 32;
        p += zbc_addr_write(b + p, &e->a);
        p += zbc_addr_write(b + p, &e->b);
        put_uint(b + p, e->amount, 8);
        p += 8;
        put_uint(b + p, e->ref, 8);
        p += 8;
        size_t rl = reason_len(e);
        b[p++] = (uint8_t)rl;
        memcpy(b + p, e->reason, rl);
        p += rl;
    }
    *out = b;
    *len = total;
    return 1;
}

static int decode_list(struct zbc_events *ev, const uint8_t *buf, size_t len,
                       struct zbc_err *err)
{
    if (len < 5)
        return zbc_fail(err, "event list is truncated (header)");
    if (buf[0] != ZBC_EVENTS_VERSION)
        return zbc_fail(err, "event list version %u is not %u", buf[0],
                        ZBC_EVENTS_VERSION);
    uint32_t count = (uint32_t)get_uint(buf + 1, 4);
    const uint8_t *p = buf + 5;
    size_t rem = len - 5;
    /* an event takes at least 1+4+32+4+4+8+8+1 = 62 bytes */
    if (count > rem / 62)
        return zbc_fail(err, "event list claims %u events in %zu bytes", count,
                        rem);
    for (uint32_t i = 0; i < count; i++) {
        struct zbc_event e;
        memset(&e, 0, sizeof e);
        size_t used;
        if (rem < 37)
            return zbc_fail(err, "event %u is truncated", i);
        if (!kind_known(p[0]))
            return zbc_fail(err, "event %u has unknown kind %u", i, p[0]);
        e.kind = (enum zbc_event_kind)p[0];
        e.tx_index = (uint32_t)get_uint(p + 1, 4);
        memcpy(e.tx_hash, p + 5, 32);
        p += 37;
        rem -= 37;
        if (!zbc_addr_read(&e.a, p, rem, &used, err))
            return zbc_fail_prefix(err, "event %u address a", i);
        p += used;
        rem -= used;
        if (!zbc_addr_read(&e.b, p, rem, &used, err))
            return zbc_fail_prefix(err, "event %u address b", i);
        p += used;
        rem -= used;
        if (rem < 17)
            return zbc_fail(err, "event %u is truncated (amounts)", i);
        e.amount = get_uint(p, 8);
        e.ref = get_uint(p + 8, 8);
        size_t rl = p[16];
        p += 17;
        rem -= 17;
        if (rl > ZBC_EVENT_REASON_MAX - 1 || rl > rem)
            return zbc_fail(err, "event %u reason of %zu bytes does not fit", i,
                            rl);
        for (size_t k = 0; k < rl; k++)
            if (p[k] == 0)
                return zbc_fail(err, "event %u reason contains a NUL byte", i);
        memcpy(e.reason, p, rl);
        e.reason[rl] = '\0';
        p += rl;
        rem -= rl;
        if (!zbc_events_push(ev, &e, err))
            return 0;
    }
    if (rem != 0)
        return zbc_fail(err, "event list has %zu trailing bytes", rem);
    return 1;
}

int zbc_events_decode(struct zbc_events *ev, const uint8_t *buf, size_t len,
                      struct zbc_err *err)
{
    memset(ev, 0, sizeof *ev);
    if (!decode_list(ev, buf, len, err)) {
        zbc_events_free(ev);
        return 0;
    }
    return 1;
}
