/* libFuzzer target: arbitrary bytes as a POST /api/v1/transactions body,
 * through the same decoders the API uses: a batch (a JSON array,
 * zbc_admit_batch_decode, docs/api.md §3 "Batches") when the body starts
 * one, else a single body (zbc_json_submit_body); when a body or element
 * yields transaction bytes, the transaction view the API would serve.
 * Invariants: no crash, no leak; decoded bytes always parse as a
 * transaction; a decoded batch has 1 to ZBC_API_MAX_BATCH elements, each
 * with bytes or an error; a refused batch is 400 or 413 with a reason.
 * The overload gate (zbc_admit_gate, docs/api.md §3 "Overload") sees every
 * body against a full pool that refuses every fee below 2^40 per byte: a
 * body it refuses whole is one the decoders take whole, element for
 * element (it never refuses what would be answered otherwise). */
#include <stdint.h>
#include <stdlib.h>

#include <jansson.h>

#include "consensus/tx.h"
#include "node/zbcd/admit.h"
#include "node/zbcd/json_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_decoded(const uint8_t *raw, size_t len)
{
    struct zbc_err err;
    struct zbc_tx tx;
    if (!zbc_tx_parse(&tx, raw, len, &err))
        abort(); /* the decoder promised parseable bytes */
    /* The view may refuse what has no JSON form (an escrow instruction
     * that is not UTF-8); it must not crash or leak either way. */
    json_t *view = NULL;
    if (zbc_json_tx(&view, raw, len, &err)) {
        char *text = json_dumps(view, JSON_COMPACT);
        free(text);
        json_decref(view);
    }
}

static void batch(const char *body, size_t size)
{
    struct zbc_admit_batch b;
    struct zbc_err err = {{0}};
    int status = 0;
    if (!zbc_admit_batch_decode(&b, NULL, body, size, &status, &err)) {
        if ((status != 400 && status != 413) || err.msg[0] == '\0')
            abort();
        return;
    }
    if (b.n == 0 || b.n > ZBC_API_MAX_BATCH)
        abort();
    for (size_t i = 0; i < b.n; i++) {
        const struct zbc_submit *it = &b.items[i];
        if (it->raw != NULL) {
            check_decoded(it->raw, it->len);
            continue;
        }
        if (b.decode_err[i].msg[0] == '\0')
            abort(); /* an element without bytes names why */
        int st = 0;
        json_t *o = zbc_admit_answer(it, &b.decode_err[i], true, &st);
        if (st != 400)
            abort();
        json_decref(o);
    }
    zbc_admit_batch_free(&b);
}

static bool never_pooled(void *arg, const uint8_t hash[32])
{
    (void)arg;
    (void)hash;
    return false;
}

static void gate(const char *body, size_t size)
{
    struct zbc_admit_pool p = {
        .count = 1, .bytes = (size_t)1 << 30, .has_cheapest = true,
        .cheapest_fee = (int64_t)1 << 40, .cheapest_len = 1,
        .block_cap = 100, .block_time_ms = 1000, .pooled = never_pooled,
    };
    struct zbc_admit_refusal r;
    if (!zbc_admit_gate(&p, body, size, &r))
        return;
    if (r.reason != ZBC_ADMIT_MEMPOOL_FULL || r.n_txs == 0 ||
        r.n_txs > ZBC_API_MAX_BATCH)
        abort();
    json_t *o = zbc_admit_refusal_json(&p, &r);
    if (o == NULL)
        abort();
    json_decref(o);
    struct zbc_err err;
    if (zbc_admit_is_batch(body, size)) {
        struct zbc_admit_batch b;
        int status = 0;
        if (!r.batch || !zbc_admit_batch_decode(&b, NULL, body, size, &status,
                                                &err))
            abort(); /* refused whole what the decoder refuses */
        if (b.n != r.n_txs)
            abort();
        for (size_t i = 0; i < b.n; i++)
            if (b.items[i].raw == NULL)
                abort(); /* an element that gets its own 400 */
        zbc_admit_batch_free(&b);
        return;
    }
    uint8_t *raw = NULL;
    size_t len = 0;
    if (r.batch || r.n_txs != 1 ||
        !zbc_json_submit_body(&raw, &len, body, size, &err))
        abort();
    free(raw);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gate((const char *)data, size);
    if (zbc_admit_is_batch((const char *)data, size)) {
        batch((const char *)data, size);
        return 0;
    }
    uint8_t *raw = NULL;
    size_t len = 0;
    struct zbc_err err;
    if (!zbc_json_submit_body(&raw, &len, (const char *)data, size, &err))
        return 0;
    check_decoded(raw, len);
    free(raw);
    return 0;
}
