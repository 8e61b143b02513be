/* Transaction admission from the API (admit.h, docs/api.md §3). */
#include "node/zbcd/admit.h"

#include <stdlib.h>
#include <string.h>

#include "crypto/hex.h"
#include "node/zbcd/json_util.h"

bool zbc_admit_is_batch(const char *body, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        char ch = body[i];
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r')
            continue;
        return ch == '[';
    }
    return false;
}

struct decode_job {
    const json_t *arr;
    struct zbc_admit_batch *b;
};

static void decode_item(void *ctx, size_t i)
{
    struct decode_job *j = ctx;
    uint8_t *raw = NULL;
    size_t len = 0;
    if (zbc_json_submit_value(&raw, &len, json_array_get(j->arr, i),
                              &j->b->decode_err[i])) {
        j->b->items[i].raw = raw;
        j->b->items[i].len = len;
    }
}

int zbc_admit_batch_decode(struct zbc_admit_batch *b,
                           struct zbc_verify_pool *pool, const char *body,
                           size_t len, int *status, struct zbc_err *err)
{
    memset(b, 0, sizeof *b);
    *status = 400;
    if (len > ZBC_API_MAX_BODY) {
        *status = 413;
        return zbc_fail(err, "request body of %zu bytes exceeds the %zu byte "
                        "limit", len, ZBC_API_MAX_BODY);
    }
    json_error_t jerr;
    json_t *arr = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
    if (arr == NULL)
        return zbc_fail(err, "malformed JSON at line %d column %d: %s",
                        jerr.line, jerr.column, jerr.text);
    int ok = 0;
    size_t n = json_is_array(arr) ? json_array_size(arr) : 0;
    if (!json_is_array(arr)) {
        zbc_fail(err, "a batch must be a JSON array of transactions");
    } else if (n == 0) {
        zbc_fail(err, "empty batch: send 1 to %d transactions",
                 ZBC_API_MAX_BATCH);
    } else if (n > ZBC_API_MAX_BATCH) {
        *status = 413;
        zbc_fail(err, "a batch of %zu transactions exceeds the limit of %d",
                 n, ZBC_API_MAX_BATCH);
    } else {
        b->items = calloc(n, sizeof *b->items);
        b->decode_err = calloc(n, sizeof *b->decode_err);
        if (b->items == NULL || b->decode_err == NULL) {
            free(b->items);
            free(b->decode_err);
            b->items = NULL;
            b->decode_err = NULL;
            *status = 500;
            zbc_fail(err, "out of memory decoding a batch of %zu "
                     "transactions", n);
        } else {
            b->n = n;
            struct decode_job j = {arr, b};
            if (pool != NULL)
                zbc_verify_pool_run(pool, n, decode_item, &j);
            else
                for (size_t i = 0; i < n; i++)
                    decode_item(&j, i);
            ok = 1;
        }
    }
    json_decref(arr);
    return ok;
}

void zbc_admit_batch_free(struct zbc_admit_batch *b)
{
    for (size_t i = 0; b->items != NULL && i < b->n; i++)
        free((void *)b->items[i].raw);
    free(b->items);
    free(b->decode_err);
    memset(b, 0, sizeof *b);
}

int zbc_admit_status(const char *msg)
{
    if (strstr(msg, "mempool is full") != NULL)
        return 503;
    if (strstr(msg, "not found") != NULL || strstr(msg, "unknown app") != NULL)
        return 404;
    return 400;
}

json_t *zbc_admit_answer(const struct zbc_submit *it,
                         const struct zbc_err *decode_err, bool with_code,
                         int *status)
{
    if (decode_err != NULL || !it->ok) {
        const char *msg = decode_err != NULL ? decode_err->msg : it->err.msg;
        *status = decode_err != NULL ? 400 : zbc_admit_status(msg);
        return json_pack("{s:b, s:s, s:i}", "success", 0, "error", msg,
                         "code", *status);
    }
    char hex[65];
    zbc_hex_encode(hex, it->hash, 32);
    *status = 202;
    json_t *o = json_pack(
        "{s:s, s:b, s:s, s:s}", "status", "success", "duplicate",
        it->duplicate, "message",
        it->duplicate ? "Transaction already in the mempool"
                      : "Transaction submitted successfully",
        "transaction_hash", hex);
    if (o != NULL && with_code &&
        json_object_set_new(o, "code", json_integer(202)) != 0) {
        json_decref(o);
        return NULL;
    }
    return o;
}
