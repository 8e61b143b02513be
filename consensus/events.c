/* Event list bytes (docs/protocol-chain.md "Events"):
 *   version u8 (=1) | count u32 | count x event
 *   event = kind u8 | tx_index u32 | tx_hash 32 | a (typed address) |
 *           b (typed address) | amount u64 | ref u64 | reason_len u8 |
 *           reason (ASCII, no NUL) [ | seat u8 | data_len u8 | data ]
 *   the bracketed tail is present exactly for the app kinds (>= 4). */
#include "consensus/events.h"

#include <stdlib.h>
#include <string.h>

#include "crypto/bytes.h"

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
    case ZBC_EVENT_APP_CREATE:
        return "app_create";
    case ZBC_EVENT_APP_JOIN:
        return "app_join";
    case ZBC_EVENT_APP_LEAVE:
        return "app_leave";
    case ZBC_EVENT_APP_ACTIVATE:
        return "app_activate";
    case ZBC_EVENT_APP_MOVE:
        return "app_move";
    case ZBC_EVENT_APP_PENDING:
        return "app_pending";
    case ZBC_EVENT_APP_DISCARD:
        return "app_discard";
    case ZBC_EVENT_APP_KEEPALIVE:
        return "app_keepalive";
    case ZBC_EVENT_APP_CLAIM:
        return "app_claim";
    case ZBC_EVENT_APP_RESIGN:
        return "app_resign";
    case ZBC_EVENT_APP_PAYOUT:
        return "app_payout";
    case ZBC_EVENT_APP_RAKE:
        return "app_rake";
    case ZBC_EVENT_APP_END:
        return "app_end";
    case ZBC_EVENT_BET_SETTLE:
        return "bet_settle";
    case ZBC_EVENT_APP_ESCROW:
        return "app_escrow";
    }
    return "unknown";
}

static bool kind_known(unsigned k)
{
    return k >= ZBC_EVENT_TRANSFER && k <= ZBC_EVENT_APP_ESCROW;
}

static bool kind_has_tail(unsigned k)
{
    return k >= ZBC_EVENT_APP_CREATE;
}

static size_t reason_len(const struct zbc_event *e)
{
    return strnlen(e->reason, ZBC_EVENT_REASON_MAX - 1);
}

size_t zbc_event_encode_one(const struct zbc_event *e, uint8_t *b,
                            size_t cap)
{
    size_t rl = reason_len(e);
    uint8_t addr[ZBC_ADDR_BYTES_MAX];
    struct zbc_wr w;
    zbc_wr_init(&w, b, cap);
    zbc_wr_u8(&w, (uint8_t)e->kind);
    zbc_wr_le32(&w, e->tx_index);
    zbc_wr_bytes(&w, e->tx_hash, 32);
    zbc_wr_bytes(&w, addr, zbc_addr_write(addr, &e->a));
    zbc_wr_bytes(&w, addr, zbc_addr_write(addr, &e->b));
    zbc_wr_le64(&w, e->amount);
    zbc_wr_le64(&w, e->ref);
    zbc_wr_u8(&w, (uint8_t)rl);
    zbc_wr_bytes(&w, e->reason, rl);
    if (kind_has_tail(e->kind)) {
        zbc_wr_u8(&w, e->seat);
        zbc_wr_u8(&w, e->data_len);
        zbc_wr_bytes(&w, e->data, e->data_len);
    }
    return zbc_wr_ok(&w) ? w.len : 0;
}

int zbc_events_encode(const struct zbc_events *ev, uint8_t **out, size_t *len,
                      struct zbc_err *err)
{
    if (ev->n > UINT32_MAX)
        return zbc_fail(err, "too many events in one block");
    uint8_t one[ZBC_EVENT_BYTES_MAX];
    size_t total = 5;
    for (size_t i = 0; i < ev->n; i++)
        total += zbc_event_encode_one(&ev->e[i], one, sizeof one);
    uint8_t *b = malloc(total);
    if (b == NULL)
        return zbc_fail(err, "out of memory encoding events");
    size_t p = 0;
    b[p++] = ZBC_EVENTS_VERSION;
    zbc_put_le32(b + p, (uint32_t)ev->n);
    p += 4;
    for (size_t i = 0; i < ev->n; i++)
        p += zbc_event_encode_one(&ev->e[i], b + p, total - p);
    *out = b;
    *len = total;
    return 1;
}

/* Decoded with the codec's read cursor; each failure keeps its own
 * sentence (docs/protocol-chain.md §5.4). */
int zbc_event_decode_one(struct zbc_event *e, const uint8_t *p, size_t len,
                         size_t *used_out, struct zbc_err *err)
{
    struct zbc_rd r;
    size_t used;
    memset(e, 0, sizeof *e);
    e->seat = ZBC_EVENT_NO_SEAT;
    zbc_rd_init(&r, p, len);
    uint8_t kind = zbc_rd_u8(&r, "kind");
    e->tx_index = zbc_rd_le32(&r, "tx index");
    zbc_rd_copy(&r, e->tx_hash, 32, "tx hash");
    if (!zbc_rd_ok(&r))
        return zbc_fail(err, "event is truncated");
    if (!kind_known(kind))
        return zbc_fail(err, "event has unknown kind %u", kind);
    e->kind = (enum zbc_event_kind)kind;
    if (!zbc_addr_read(&e->a, r.p, r.left, &used, err))
        return zbc_fail_prefix(err, "event address a");
    (void)zbc_rd_take(&r, used, "address a");
    if (!zbc_addr_read(&e->b, r.p, r.left, &used, err))
        return zbc_fail_prefix(err, "event address b");
    (void)zbc_rd_take(&r, used, "address b");
    e->amount = zbc_rd_le64(&r, "amount");
    e->ref = zbc_rd_le64(&r, "ref");
    size_t rl = zbc_rd_u8(&r, "reason length");
    if (!zbc_rd_ok(&r))
        return zbc_fail(err, "event is truncated (amounts)");
    if (rl > ZBC_EVENT_REASON_MAX - 1 || rl > r.left)
        return zbc_fail(err, "event reason of %zu bytes does not fit", rl);
    const uint8_t *reason = zbc_rd_take(&r, rl, "reason");
    if (memchr(reason, 0, rl) != NULL)
        return zbc_fail(err, "event reason contains a NUL byte");
    memcpy(e->reason, reason, rl);
    e->reason[rl] = '\0';
    if (kind_has_tail(e->kind)) {
        uint8_t seat = zbc_rd_u8(&r, "seat");
        uint8_t data_len = zbc_rd_u8(&r, "data length");
        if (!zbc_rd_ok(&r) || data_len > r.left)
            return zbc_fail(err, "event is truncated (seat and data)");
        e->seat = seat;
        e->data_len = data_len;
        zbc_rd_copy(&r, e->data, data_len, "data");
    }
    *used_out = len - r.left;
    return 1;
}

static int decode_list(struct zbc_events *ev, const uint8_t *buf, size_t len,
                       struct zbc_err *err)
{
    struct zbc_rd r;
    zbc_rd_init(&r, buf, len);
    uint8_t version = zbc_rd_u8(&r, "version");
    uint32_t count = zbc_rd_le32(&r, "event count");
    if (!zbc_rd_ok(&r))
        return zbc_fail(err, "event list is truncated (header)");
    if (version != ZBC_EVENTS_VERSION)
        return zbc_fail(err, "event list version %u is not %u", version,
                        ZBC_EVENTS_VERSION);
    /* an event takes at least 1+4+32+4+4+8+8+1 = 62 bytes */
    if (count > r.left / 62)
        return zbc_fail(err, "event list claims %u events in %zu bytes", count,
                        r.left);
    for (uint32_t i = 0; i < count; i++) {
        struct zbc_event e;
        size_t used;
        if (!zbc_event_decode_one(&e, r.p, r.left, &used, err))
            return zbc_fail_prefix(err, "event %u", i);
        (void)zbc_rd_take(&r, used, "event");
        if (!zbc_events_push(ev, &e, err))
            return 0;
    }
    if (r.left != 0)
        return zbc_fail(err, "event list has %zu trailing bytes", r.left);
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
