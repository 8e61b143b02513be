#include "node/wallet/client.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "crypto/hex.h"
#include "node/wallet/amount.h"
#include "node/client/http.h"
#include "node/client/reply.h"

static int contains_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *p = hay; *p != '\0'; p++) {
        size_t i = 0;
        while (i < n && p[i] != '\0' &&
               tolower((unsigned char)p[i]) == (unsigned char)needle[i])
            i++;
        if (i == n)
            return 1;
    }
    return 0;
}

enum zbc_exit zbc_client_classify(int status, const char *text)
{
    if (status >= 500)
        return ZBC_EXIT_NODE_BUSY;
    if (text == NULL)
        text = "";
    if (contains_ci(text, "fee too low"))
        return ZBC_EXIT_FEE_TOO_LOW;
    if (contains_ci(text, "insufficient balance") ||
        contains_ci(text, "insufficient spendable") ||
        contains_ci(text, "account does not exist"))
        return ZBC_EXIT_INSUFFICIENT_BALANCE;
    if (contains_ci(text, "not found") || contains_ci(text, "unknown token") ||
        contains_ci(text, "unknown or expired token") || contains_ci(text, "unknown app"))
        return ZBC_EXIT_NOT_FOUND;
    return ZBC_EXIT_REJECTED;
}

int zbc_client_call(const struct zbc_client *api, const char *path, const char *body,
                 json_t **out, struct zbc_wfail *f)
{
    struct zbc_http_reply r;
    *out = NULL;
    size_t cap = api->max_reply != 0 ? api->max_reply : ZBC_HTTP_REPLY_MAX;
    if (!zbc_http_request(&r, api->url, path, body, api->timeout_s, cap, f))
        return 0;
    json_error_t jerr;
    json_t *j = json_loadb(r.body, r.len, 0, &jerr);
    if (r.status >= 200 && r.status < 300) {
        if (!json_is_object(j)) {
            json_decref(j);
            zbc_http_reply_free(&r);
            return zbc_wfail(f, ZBC_EXIT_INTERNAL,
                             "the node answered %s with HTTP %d but the body is not a JSON object",
                             path, r.status);
        }
        *out = j;
        zbc_http_reply_free(&r);
        return 1;
    }
    const char *text = r.body;
    if (json_is_object(j) && json_is_string(json_object_get(j, "error")))
        text = json_string_value(json_object_get(j, "error"));
    zbc_wfail(f, zbc_client_classify(r.status, text), "the node refused %s (HTTP %d): %.150s",
              path, r.status, text);
    f->http_code = r.status;
    json_decref(f->api_response);
    if (j == NULL)
        j = json_stringn(r.body, r.len);
    f->api_response = j != NULL ? j : json_string("(the reply is not valid UTF-8)");
    zbc_http_reply_free(&r);
    return 0;
}

int zbc_client_bad_reply(struct zbc_wfail *f, json_t *reply, const struct zbc_err *err)
{
    json_decref(f->api_response);
    f->api_response = reply;
    f->http_code = 200;
    return zbc_wfail(f, ZBC_EXIT_INTERNAL, "%s", err->msg);
}

int zbc_client_genesis(const struct zbc_client *api, uint8_t genesis[32],
                    int *signing_version, struct zbc_wfail *f)
{
    json_t *info;
    if (!zbc_client_call(api, "/api/v1/node/info", NULL, &info, f))
        return 0;
    static const char what[] = "the node's reply to GET /api/v1/node/info";
    struct zbc_err err;
    uint64_t v = 1; /* a ZooBC node that does not say signs version 1 */
    if (!zbc_reply_absent(info, "signing_version") &&
        !zbc_reply_u64(info, "signing_version", 1, 2, what, &v, &err))
        return zbc_client_bad_reply(f, info, &err);
    *signing_version = (int)v;
    memset(genesis, 0, 32);
    if (v == 2 && !zbc_reply_hex(info, "genesis_hash", 32, what, genesis, &err))
        return zbc_client_bad_reply(f, info, &err);
    json_decref(info);
    return 1;
}

int zbc_client_check_tx(const json_t *reply, const char *hash_hex, bool *confirmed,
                        uint32_t *height, struct zbc_err *err)
{
    static const char what[] = "the node's transaction reply";
    const char *h, *status;
    if (!zbc_reply_str(reply, "transaction_hash", what, &h, err) ||
        !zbc_reply_str(reply, "status", what, &status, err))
        return 0;
    if (strlen(h) != strlen(hash_hex) || strncasecmp(h, hash_hex, strlen(h)) != 0)
        return zbc_fail(err, "%s is about transaction %.70s, not %s", what, h, hash_hex);
    *height = 0;
    *confirmed = strcmp(status, "confirmed") == 0;
    if (!*confirmed) {
        if (strcmp(status, "dropped") == 0) {
            /* evicted from the pool (docs/api.md §5): why, and when */
            const char *why;
            uint64_t at;
            if (!zbc_reply_str(reply, "reason", what, &why, err))
                return 0;
            if (!zbc_reply_absent(reply, "dropped_at") &&
                !zbc_reply_u64(reply, "dropped_at", 0, UINT32_MAX, what, &at, err))
                return 0;
            return 1;
        }
        if (strcmp(status, "mempool") != 0)
            return zbc_fail(err, "%s: \"status\" '%.40s' is not mempool, confirmed or dropped",
                            what, status);
        return 1;
    }
    uint64_t bh;
    if (!zbc_reply_u64(reply, "block_height", 1, UINT32_MAX, what, &bh, err))
        return 0;
    *height = (uint32_t)bh;
    bool applied = true;
    const char *why;
    if (!zbc_reply_absent(reply, "applied") &&
        !zbc_reply_bool(reply, "applied", what, &applied, err))
        return 0;
    if (!applied && !zbc_reply_str(reply, "noop_reason", what, &why, err))
        return 0;
    return 1;
}

int zbc_client_check_balance(const json_t *reply, uint64_t *balance, struct zbc_err *err)
{
    static const char what[] = "the node's account reply";
    uint64_t sp;
    if (!zbc_reply_u64(reply, "balance", 0, UINT64_MAX, what, balance, err))
        return 0;
    if (!zbc_reply_absent(reply, "spendable_balance") &&
        !zbc_reply_u64(reply, "spendable_balance", 0, UINT64_MAX, what, &sp, err))
        return 0;
    return 1;
}

bool zbc_client_tx_dropped(const json_t *reply, const char **reason, uint32_t *at)
{
    const char *st = json_string_value(json_object_get(reply, "status"));
    if (st == NULL || strcmp(st, "dropped") != 0)
        return false;
    const char *why = json_string_value(json_object_get(reply, "reason"));
    *reason = why != NULL ? why : "no reason given";
    json_t *h = json_object_get(reply, "dropped_at");
    *at = json_is_integer(h) ? (uint32_t)json_integer_value(h) : 0;
    return true;
}

int zbc_client_fail_dropped(struct zbc_wfail *f, json_t *reply, const char *hash)
{
    const char *why;
    uint32_t at;
    if (!zbc_client_tx_dropped(reply, &why, &at))
        why = "no reason given", at = 0;
    char human[ZBC_ERR_MAX], when[48] = "";
    zbc_amount_humanize(human, sizeof human, why);
    if (at > 0)
        snprintf(when, sizeof when, " at block %u", at);
    enum zbc_exit code = zbc_client_classify(400, why);
    zbc_wfail(f, code,
              "dropped: %s (transaction %.64s left the node's pool%s and will not be applied; "
              "send it again if you still want it)", human, hash, when);
    f->api_response = reply;
    f->http_code = 200;
    return 0;
}
