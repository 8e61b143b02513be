/* Per-block events produced by apply (docs/protocol-chain.md "Events"):
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
#define ZBC_EVENT_NO_TX 0xffffffffu /* block-level event */

enum zbc_event_kind {
    ZBC_EVENT_TRANSFER = 1, /* a -> b amount (SendZBC) */
    ZBC_EVENT_FEE = 2,      /* a paid amount to b (the producer) */
    ZBC_EVENT_NOOP = 3,     /* tx included without effect; reason; no fee */
};

struct zbc_event {
    enum zbc_event_kind kind;
    uint32_t tx_index;      /* position in the block or ZBC_EVENT_NO_TX */
    uint8_t tx_hash[32];    /* zero for block-level events */
    struct zbc_addr a, b;   /* empty address when unused */
    uint64_t amount;
    uint64_t ref;           /* app id (later issues); 0 now */
    char reason[ZBC_EVENT_REASON_MAX]; /* NUL-terminated, "" when none */
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

#endif
