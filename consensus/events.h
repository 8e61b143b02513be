/* Per-block events produced by apply (docs/protocol-chain.md "Events";
 * app kinds in docs/protocol-apps.md "Events"):
 * what happened, in order, so the node can store and stream it.  The
 * serialized list is what the node stores per block. */
#ifndef ZBC_EVENTS_H
#define ZBC_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/address.h"
#include "crypto/err.h"

#define ZBC_EVENTS_VERSION 1
#define ZBC_EVENT_REASON_MAX 200
#define ZBC_EVENT_DATA_MAX 255
#define ZBC_EVENT_NO_SEAT 0xff
#define ZBC_EVENT_NO_TX 0xffffffffu /* block-level event */

enum zbc_event_kind {
    ZBC_EVENT_TRANSFER = 1, /* a -> b amount (SendZBC) */
    ZBC_EVENT_FEE = 2,      /* a paid amount to b (the producer) */
    ZBC_EVENT_NOOP = 3,     /* tx included without effect; reason; no fee */
    /* Apps (docs/protocol-apps.md "Events"); ref = app id throughout. */
    ZBC_EVENT_APP_CREATE = 4,   /* a = creator, amount = stake */
    ZBC_EVENT_APP_JOIN = 5,     /* a = joiner, seat, amount = stake */
    ZBC_EVENT_APP_LEAVE = 6,    /* a = leaver (Open), seat, amount = refund */
    ZBC_EVENT_APP_ACTIVATE = 7, /* seat = first seat drawn (or clock holder);
                                   amount = deadline */
    ZBC_EVENT_APP_MOVE = 8,     /* a = mover, seat, amount = new deadline,
                                   data = rolls used (count u32 | bytes) */
    ZBC_EVENT_APP_PENDING = 9,  /* a = mover, seat: dice move stored */
    ZBC_EVENT_APP_DISCARD = 10, /* pending move dropped; reason */
    ZBC_EVENT_APP_KEEPALIVE = 11, /* a = holder, seat, amount = deadline */
    ZBC_EVENT_APP_CLAIM = 12,   /* a = claimer, seat */
    ZBC_EVENT_APP_RESIGN = 13,  /* a = resigner, seat */
    ZBC_EVENT_APP_PAYOUT = 14,  /* b = paid account, seat, amount; reason =
                                   win/draw/resign/timeout/bet/escrow */
    ZBC_EVENT_APP_RAKE = 15,    /* b = apps fund, amount */
    ZBC_EVENT_APP_END = 16,     /* seat = winner or NO_SEAT; reason = how */
    ZBC_EVENT_BET_SETTLE = 17,  /* a = bettor, amount = returns, data =
                                   u u32 LE | value u32 LE | win u8 */
    ZBC_EVENT_APP_ESCROW = 18,  /* a = apps fund, amount moved into the pot */
};

struct zbc_event {
    enum zbc_event_kind kind;
    uint32_t tx_index;      /* position in the block or ZBC_EVENT_NO_TX */
    uint8_t tx_hash[32];    /* zero for block-level events */
    struct zbc_addr a, b;   /* empty address when unused */
    uint64_t amount;
    uint64_t ref;           /* app id for app events; 0 otherwise */
    char reason[ZBC_EVENT_REASON_MAX]; /* NUL-terminated, "" when none */
    /* App kinds (>= 4) only; encoded after reason for those kinds. */
    uint8_t seat;           /* seat concerned or ZBC_EVENT_NO_SEAT */
    uint8_t data_len;
    uint8_t data[ZBC_EVENT_DATA_MAX];
};

struct zbc_events {
    size_t n, cap;
    struct zbc_event *e;
};

ZBC_WUR int zbc_events_push(struct zbc_events *ev, const struct zbc_event *e,
                            struct zbc_err *err);
void zbc_events_truncate(struct zbc_events *ev, size_t n);
void zbc_events_free(struct zbc_events *ev);
const char *zbc_event_kind_name(enum zbc_event_kind k);

/* Serialized list: *out malloc'ed.  decode leaves ev empty on failure. */
ZBC_WUR int zbc_events_encode(const struct zbc_events *ev, uint8_t **out,
                              size_t *len, struct zbc_err *err);
ZBC_WUR int zbc_events_decode(struct zbc_events *ev, const uint8_t *buf,
                              size_t len, struct zbc_err *err);

/* One event's bytes (as inside the list; the app history stores these).
 * encode_one returns the length written (cap >= ZBC_EVENT_BYTES_MAX).
 * decode_one reads one event from buf and sets *used. */
#define ZBC_EVENT_BYTES_MAX \
    (1 + 4 + 32 + 2 * (4 + 32) + 8 + 8 + 1 + ZBC_EVENT_REASON_MAX + 1 + 1 + \
     ZBC_EVENT_DATA_MAX)
size_t zbc_event_encode_one(const struct zbc_event *e, uint8_t *out,
                            size_t cap);
ZBC_WUR int zbc_event_decode_one(struct zbc_event *e, const uint8_t *buf,
                                 size_t len, size_t *used,
                                 struct zbc_err *err);

#endif
