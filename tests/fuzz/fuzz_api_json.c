/* libFuzzer target: arbitrary bytes as a POST /api/v1/transactions body,
 * through the same decoders the API uses: a batch (a JSON array,
 * zbc_admit_batch_decode, docs/api.md §3 "Batches") when the body starts
 * one, else a single body (zbc_json_submit_body); when a body or element
 * yields transaction bytes, the transaction view the API would serve.
 * Invariants: no crash, no leak; decoded bytes always parse as a
 * transaction; a decoded batch has 1 to ZBC_API_MAX_BATCH elements, each
 * with bytes or an error; a refused batch is 400 or 413 with a reason. */
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
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
