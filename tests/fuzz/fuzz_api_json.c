/* libFuzzer target: arbitrary bytes as a POST /api/v1/transactions body,
 * through the same decoder the API uses (zbc_json_submit_body) and, when
 * it yields transaction bytes, the transaction view the API would serve.
 * Invariants: no crash, no leak; a decoded body always parses as a
 * transaction. */
#include <stdint.h>
#include <stdlib.h>

#include <jansson.h>

#include "consensus/tx.h"
#include "node/zbcd/json_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *raw = NULL;
    size_t len = 0;
    struct zbc_err err;
    if (!zbc_json_submit_body(&raw, &len, (const char *)data, size, &err))
        return 0;
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
    free(raw);
    return 0;
}
