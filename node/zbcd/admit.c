/* Transaction admission from the API (admit.h, docs/api.md §3). */
#include "node/zbcd/admit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "consensus/tx.h"
#include "crypto/hash.h"
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

/* ---- overload: a request refused whole ---- */

uint64_t zbc_admit_fee_needed(const struct zbc_admit_pool *p, size_t len)
{
    if (!p->has_cheapest || p->cheapest_len == 0)
        return UINT64_MAX;
    uint64_t cfee = p->cheapest_fee > 0 ? (uint64_t)p->cheapest_fee : 0;
    unsigned __int128 need =
        (unsigned __int128)cfee * len / p->cheapest_len + 1;
    unsigned __int128 floor =
        (unsigned __int128)p->min_fee_per_byte * len + p->min_fee_base;
    if (need < floor)
        need = floor;
    return need > INT64_MAX ? UINT64_MAX : (uint64_t)need;
}

static bool chain_pooled(void *arg, const uint8_t hash[32])
{
    return zbc_chain_mempool_tx(arg, hash, NULL, NULL);
}

static uint64_t chain_fee_needed(void *arg, size_t len)
{
    return zbc_chain_mempool_fee_needed(arg, len);
}

void zbc_admit_pool_of(struct zbc_admit_pool *p, struct zbc_chain *c,
                       uint64_t now_ms, bool slots)
{
    const struct zbc_genesis *g = zbc_chain_genesis(c);
    *p = (struct zbc_admit_pool){
        .count = zbc_chain_mempool_count(c),
        .bytes = zbc_chain_mempool_bytes(c),
        .min_fee_base = g->min_fee_base,
        .min_fee_per_byte = g->min_fee_per_byte,
        .block_cap = zbc_chain_block_cap(c),
        .block_time_ms = g->block_time_ms,
        .now_ms = now_ms,
        .late_ms = zbc_chain_block_budget_ms(c),
        .pooled = chain_pooled,
        .pooled_arg = c,
        .fee_needed = chain_fee_needed,
    };
    zbc_chain_mempool_gate(c, &p->room_txs, &p->room_bytes,
                           &p->has_cheapest, &p->cheapest_fee,
                           &p->cheapest_len);
    /* the slot only matters with the blocks' worth pooled; a validator that
     * is not synced waits anyway (docs/p2p.md §8) */
    struct zbc_net_status net;
    if (slots && p->count / ZBC_ADMIT_DUE_BLOCKS >= p->block_cap &&
        zbc_chain_synced(c, &net)) {
        struct zbc_slot slot;
        struct zbc_err err = {{0}};
        if (zbc_chain_next_slot(c, &slot, &err) && slot.is_validator) {
            p->producing = true;
            p->slot_height = slot.height;
            p->slot_ms = slot.earliest_ms;
        }
    }
}

static uint64_t need_for(const struct zbc_admit_pool *p, size_t len)
{
    return p->fee_needed != NULL ? p->fee_needed(p->pooled_arg, len)
                                 : zbc_admit_fee_needed(p, len);
}

static const char *skip_ws(const char *s, const char *end)
{
    while (s < end && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))
        s++;
    return s;
}

static bool take_lit(const char **s, const char *end, const char *lit)
{
    size_t n = strlen(lit);
    if ((size_t)(end - *s) < n || memcmp(*s, lit, n) != 0)
        return false;
    *s += n;
    return true;
}

static bool is_hex(char ch)
{
    return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') ||
           (ch >= 'A' && ch <= 'F');
}

/* The scan of one plain-form element at *s: its transaction would get
 * the per-element `mempool is full` refusal (pool unchanged).  Fills hash
 * and len.  False: not plain, does not parse, could get in. */
static bool scan_element(const struct zbc_admit_pool *p, const char **s,
                         const char *end, uint8_t hash[32], size_t *len)
{
    const char *q = skip_ws(*s, end);
    if (!take_lit(&q, end, "{"))
        return false;
    q = skip_ws(q, end);
    if (!take_lit(&q, end, "\"transaction_bytes\""))
        return false;
    q = skip_ws(q, end);
    if (!take_lit(&q, end, ":"))
        return false;
    q = skip_ws(q, end);
    if (!take_lit(&q, end, "\""))
        return false;
    const char *hex = q;
    while (q < end && is_hex(*q))
        q++;
    size_t hlen = (size_t)(q - hex);
    if (!take_lit(&q, end, "\""))
        return false;
    q = skip_ws(q, end);
    if (!take_lit(&q, end, "}"))
        return false;
    uint8_t raw[ZBC_ADMIT_SCAN_TX_MAX];
    size_t n = 0;
    if (hlen == 0 || hlen > 2 * sizeof raw ||
        !zbc_hex_decode(raw, sizeof raw, &n, hex, hlen))
        return false;
    struct zbc_tx tx;
    struct zbc_err e;
    if (!zbc_tx_parse(&tx, raw, n, &e))
        return false;
    /* the pool must be full for it (mempool.c: no room by count, or not
     * by bytes) and the fee below what displaces the cheapest */
    if (p->room_txs > 0 && n <= p->room_bytes)
        return false;
    if (n > p->bytes + p->room_bytes) /* larger than the whole pool */
        return false;
    uint64_t need = need_for(p, n);
    if (need == 0 || need == UINT64_MAX ||
        (tx.fee > 0 && (uint64_t)tx.fee >= need))
        return false;
    zbc_sha3_256(hash, raw, n); /* the transaction hash */
    *len = n;
    *s = q;
    return true;
}

static void refuse_full(const struct zbc_admit_pool *p, size_t n,
                        size_t longest, bool batch,
                        struct zbc_admit_refusal *r)
{
    r->reason = ZBC_ADMIT_MEMPOOL_FULL;
    r->n_txs = n;
    r->batch = batch;
    r->fee_bytes = longest;
    r->fee_needed = need_for(p, longest);
    /* the per-element refusal's sentence first (mempool.c room_for) */
    int k = snprintf(r->msg, sizeof r->msg,
                     "mempool is full (%zu transactions, %zu bytes): a fee "
                     "of at least %llu for these %zu bytes displaces its "
                     "cheapest", p->count, p->bytes,
                     (unsigned long long)r->fee_needed, longest);
    char what[64];
    if (batch)
        snprintf(what, sizeof what, "the batch of %zu transaction%s was", n,
                 n == 1 ? "" : "s");
    else
        snprintf(what, sizeof what, "the transaction was");
    if (k > 0 && (size_t)k < sizeof r->msg)
        snprintf(r->msg + k, sizeof r->msg - (size_t)k,
                 "; %s refused whole, none admitted (more per byte than its "
                 "cheapest's %lld for %zu bytes, at least the minimum fee; "
                 "retry after %u s or with that fee)",
                 what, (long long)p->cheapest_fee, p->cheapest_len,
                 r->retry_after_s);
}

int zbc_admit_gate(const struct zbc_admit_pool *p, const char *body,
                   size_t len, struct zbc_admit_refusal *r)
{
    memset(r, 0, sizeof *r);
    unsigned retry = (p->block_time_ms + 999) / 1000;
    r->retry_after_s = retry > 0 ? retry : 1;
    if (p->producing && p->block_cap > 0 &&
        p->count / ZBC_ADMIT_DUE_BLOCKS >= p->block_cap &&
        p->now_ms + ZBC_ADMIT_DUE_MS >= p->slot_ms &&
        p->now_ms <= p->slot_ms + p->late_ms) {
        r->reason = ZBC_ADMIT_BLOCK_DUE;
        r->batch = zbc_admit_is_batch(body, len);
        long long in = (long long)p->slot_ms - (long long)p->now_ms;
        char when[64];
        if (in > 0)
            snprintf(when, sizeof when, "due in %lld ms", in);
        else
            snprintf(when, sizeof when, "due now");
        snprintf(r->msg, sizeof r->msg,
                 "node busy: its block at height %u is %s and the mempool "
                 "already holds %u blocks' worth (%zu transactions, a block "
                 "takes %zu): the request was refused whole, none admitted; "
                 "retry after %u s",
                 p->slot_height, when, ZBC_ADMIT_DUE_BLOCKS, p->count,
                 p->block_cap,
                 r->retry_after_s);
        return 1;
    }
    /* mempool_full: only a pool that refuses something, and only bodies
     * whose every element it would refuse */
    if (!p->has_cheapest ||
        (p->room_txs > 0 && p->room_bytes >= ZBC_ADMIT_SCAN_TX_MAX) ||
        len > ZBC_API_MAX_BODY)
        return 0;
    const char *s = skip_ws(body, body + len), *end = body + len;
    bool batch = s < end && *s == '[';
    size_t n = 0, longest = 0;
    uint8_t(*hashes)[32] = NULL;
    uint8_t one[32];
    int refused = 0;
    if (batch) {
        s++;
        hashes = malloc(ZBC_API_MAX_BATCH * sizeof *hashes);
        if (hashes == NULL)
            return 0;
        for (;;) {
            size_t l;
            if (n == ZBC_API_MAX_BATCH ||
                !scan_element(p, &s, end, hashes[n], &l))
                goto done;
            n++;
            if (l > longest)
                longest = l;
            s = skip_ws(s, end);
            if (s < end && *s == ',') {
                s++;
                continue;
            }
            if (s < end && *s == ']') {
                s++;
                break;
            }
            goto done;
        }
    } else {
        if (!scan_element(p, &s, end, one, &longest))
            return 0;
        n = 1;
    }
    if (skip_ws(s, end) != end)
        goto done;
    /* an element already pooled is a duplicate (202), not a refusal */
    for (size_t i = 0; i < n; i++)
        if (p->pooled != NULL &&
            p->pooled(p->pooled_arg, batch ? hashes[i] : one))
            goto done;
    refuse_full(p, n, longest, batch, r);
    refused = 1;
done:
    free(hashes);
    return refused;
}

json_t *zbc_admit_refusal_json(const struct zbc_admit_pool *p,
                               const struct zbc_admit_refusal *r)
{
    json_t *o = json_pack(
        "{s:b, s:s, s:i, s:s, s:i, s:I, s:I}", "success", 0, "error",
        r->msg, "code", 503, "reason",
        r->reason == ZBC_ADMIT_BLOCK_DUE ? "block_due" : "mempool_full",
        "retry_after", (int)r->retry_after_s, "mempool_size",
        (json_int_t)p->count, "mempool_bytes", (json_int_t)p->bytes);
    if (o == NULL || r->reason != ZBC_ADMIT_MEMPOOL_FULL)
        return o;
    if (json_object_set_new(o, "fee_needed",
                            json_integer((json_int_t)r->fee_needed)) != 0 ||
        json_object_set_new(o, "fee_needed_bytes",
                            json_integer((json_int_t)r->fee_bytes)) != 0 ||
        json_object_set_new(o, "cheapest_fee",
                            json_integer((json_int_t)p->cheapest_fee)) != 0 ||
        json_object_set_new(o, "cheapest_bytes",
                            json_integer((json_int_t)p->cheapest_len)) != 0 ||
        json_object_set_new(o, "transactions",
                            json_integer((json_int_t)r->n_txs)) != 0) {
        json_decref(o);
        return NULL;
    }
    return o;
}
