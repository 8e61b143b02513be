/* Transaction admission from the API (docs/api.md §3): the answer to one
 * submission, and batches — a POST /api/v1/transactions body that is a
 * JSON array of submit bodies, decoded on the verify pool's threads and
 * admitted with zbc_chain_submit_batch, one result per element in order.
 * Pure of libevent: the fuzz target for API bodies drives the decoder. */
#ifndef ZBC_ADMIT_H
#define ZBC_ADMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "crypto/err.h"
#include "node/zbcd/chain.h"
#include "node/zbcd/verify_pool.h"

/* Most transactions in one batch (more: 413). */
#define ZBC_API_MAX_BATCH 1000

/* Whether body (after JSON whitespace) starts a JSON array: the batch
 * form.  Anything else is the single form. */
bool zbc_admit_is_batch(const char *body, size_t len);

/* A decoded batch: items[i].raw is the decoded element i (NULL when it did
 * not decode: decode_err[i] says why). */
struct zbc_admit_batch {
    size_t n;
    struct zbc_submit *items;
    struct zbc_err *decode_err;
};

/* Decodes a batch body: a JSON array of 1 to ZBC_API_MAX_BATCH elements,
 * each decoded as zbc_json_submit_body decodes a single body (on pool's
 * threads; pool may be NULL: this thread).  An element that does not
 * decode gets its own error; the whole body fails only when it is not
 * such an array: *status 400 (malformed JSON, not an array, empty) or 413
 * (too many elements), err naming what was wrong.  zbc_admit_batch_free
 * after success. */
ZBC_WUR int zbc_admit_batch_decode(struct zbc_admit_batch *b,
                                   struct zbc_verify_pool *pool,
                                   const char *body, size_t len, int *status,
                                   struct zbc_err *err);
void zbc_admit_batch_free(struct zbc_admit_batch *b);

/* The HTTP status of a refused transaction from its error text: 503
 * mempool full, 404 an unknown account or app, else 400. */
int zbc_admit_status(const char *msg);

/* The answer to one submission (new reference, NULL when out of memory):
 * accepted, {"status": "success", "duplicate", "message",
 * "transaction_hash"}; refused, {"success": false, "error", "code"}, by
 * it->err, or by decode_err (not NULL: the body did not decode, 400).
 * with_code adds "code": 202 to an accepted one (a batch's element).
 * *status receives its HTTP status. */
json_t *zbc_admit_answer(const struct zbc_submit *it,
                         const struct zbc_err *decode_err, bool with_code,
                         int *status);

/* ---- Overload: a request refused whole (docs/api.md §3 "Overload") ----
 *
 * Before a submission's body is JSON-decoded or any signature checked,
 * the API asks zbc_admit_gate whether to refuse the whole request (a
 * single submission or a batch) with 503 and Retry-After:
 *   - "block_due": this node is a synced validator producing at its slots
 *     (not --automine), its next block is due within ZBC_ADMIT_DUE_MS or
 *     overdue by at most the build budget, and the pool already holds
 *     ZBC_ADMIT_DUE_BLOCKS blocks at the cap (what arrives would wait for
 *     the block after next anyway): the block comes first, whatever the
 *     fee;
 *   - "mempool_full": the body is in the plain form (a {"transaction_bytes":
 *     "HEX"} object, or a JSON array of 1..ZBC_API_MAX_BATCH of them, JSON
 *     whitespace allowed, nothing else), every element's transaction
 *     parses, none is already pooled, and the pool has no room for any of
 *     them that one paying more per byte than its cheapest would not need:
 *     each element would get the per-element `mempool is full` refusal.
 *     A body in another form, or with one element that could get in,
 *     goes the ordinary way (and gets the ordinary answers). */

/* How long before its slot a validator refuses work (block_due), and the
 * blocks' worth it must already pool: with two, the next block and the one
 * after it are full without what it refuses, so refusing costs no
 * inclusion; with one, a node at capacity would refuse what the block
 * after next needed. */
#define ZBC_ADMIT_DUE_MS 100u
#define ZBC_ADMIT_DUE_BLOCKS 2u
/* The longest decoded element the plain-form scan looks at (longer: the
 * ordinary way). */
#define ZBC_ADMIT_SCAN_TX_MAX 4096u

enum zbc_admit_reason {
    ZBC_ADMIT_OPEN = 0,      /* not refused */
    ZBC_ADMIT_MEMPOOL_FULL,  /* "mempool_full" */
    ZBC_ADMIT_BLOCK_DUE,     /* "block_due" */
};

/* What the gate knows of the node (node/zbcd/api.c fills it from the
 * chain at the request). */
struct zbc_admit_pool {
    size_t count, bytes;          /* pooled transactions and bytes */
    size_t room_txs, room_bytes;  /* zbc_mempool_room */
    bool has_cheapest;            /* the pool is not empty */
    int64_t cheapest_fee;         /* its cheapest transaction's fee ... */
    size_t cheapest_len;          /* ... and length */
    uint64_t min_fee_base, min_fee_per_byte; /* the genesis minimum */
    size_t block_cap;             /* transactions the next block takes */
    bool producing;               /* a synced validator: slot_* are set */
    uint32_t slot_height;         /* its next block */
    uint64_t slot_ms, now_ms;     /* when it is due, and now */
    uint32_t late_ms;             /* how long past slot_ms it still counts
                                   * as due (the build budget: a node that
                                   * does not produce then, paused or
                                   * --no-produce, is not refusing for it) */
    uint32_t block_time_ms;
    /* whether the pool holds the transaction with this hash */
    bool (*pooled)(void *arg, const uint8_t hash[32]);
    void *pooled_arg;
    /* the fee a transaction of len bytes needs to get in (0: room;
     * UINT64_MAX: none can), exactly as the pool's own refusal computes it
     * (zbc_mempool_fee_needed; arg: pooled_arg); NULL: the estimate from
     * the cheapest (zbc_admit_fee_needed) */
    uint64_t (*fee_needed)(void *arg, size_t len);
};

/* Fills p from the chain at now_ms (pooled: zbc_chain_mempool_tx; the
 * slot only when slots is set — the node produces at its slots, not on
 * request — and the pool holds ZBC_ADMIT_DUE_BLOCKS blocks' worth). */
void zbc_admit_pool_of(struct zbc_admit_pool *p, struct zbc_chain *c,
                       uint64_t now_ms, bool slots);

/* A request refused whole. */
struct zbc_admit_refusal {
    enum zbc_admit_reason reason;
    size_t n_txs;          /* elements seen (mempool_full; 0 block_due) */
    bool batch;            /* the body was an array */
    uint64_t fee_needed;   /* mempool_full: the least fee that displaces
                            * the cheapest for fee_bytes bytes */
    size_t fee_bytes;      /* the request's longest element */
    unsigned retry_after_s;
    char msg[512];         /* the error text (contains "mempool is full"
                            * or "node busy") */
};

/* The least fee of a transaction of len bytes that a full pool whose
 * cheapest pays cheapest_fee for cheapest_len bytes admits when only that
 * one must make room (more per byte, at least the genesis minimum);
 * UINT64_MAX when no fee can.  The pool's own figure (p->fee_needed) is
 * higher when more must go. */
uint64_t zbc_admit_fee_needed(const struct zbc_admit_pool *p, size_t len);

/* 1: refuse the request whole (*r says why and how to answer); 0: admit
 * it the ordinary way.  body/len: the request body as received. */
int zbc_admit_gate(const struct zbc_admit_pool *p, const char *body,
                   size_t len, struct zbc_admit_refusal *r);

/* The 503 body of a refusal (new reference, NULL when out of memory):
 * {"success": false, "error", "code": 503, "reason", "retry_after",
 * "mempool_size", "mempool_bytes", and for mempool_full "fee_needed",
 * "fee_needed_bytes", "cheapest_fee", "cheapest_bytes", "transactions"}. */
json_t *zbc_admit_refusal_json(const struct zbc_admit_pool *p,
                               const struct zbc_admit_refusal *r);

#endif
