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

#endif
