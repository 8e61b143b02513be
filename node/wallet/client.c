#include "node/wallet/client.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/hex.h"
#include "node/client/http.h"

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
    if (!zbc_http_request(&r, api->url, path, body, api->timeout_s, f))
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

int zbc_client_genesis(const struct zbc_client *api, uint8_t genesis[32],
                    int *signing_version, struct zbc_wfail *f)
{
    json_t *info;
    if (!zbc_client_call(api, "/api/v1/node/info", NULL, &info, f))
        return 0;
    json_t *v = json_object_get(info, "signing_version");
    *signing_version = json_is_integer(v) ? (int)json_integer_value(v) : 1;
    if (*signing_version != 1 && *signing_version != 2) {
        json_decref(info);
        return zbc_wfail(f, ZBC_EXIT_INTERNAL, "the node reports signing_version %d, which this wallet does not know",
                         *signing_version);
    }
    memset(genesis, 0, 32);
    if (*signing_version == 2) {
        const char *g = json_string_value(json_object_get(info, "genesis_hash"));
        if (g == NULL || strlen(g) != 64 || !zbc_hex_decode_exact(genesis, 32, g)) {
            json_decref(info);
            return zbc_wfail(f, ZBC_EXIT_INTERNAL,
                             "the node reports signing_version 2 without a 32-byte genesis_hash");
        }
    }
    json_decref(info);
    return 1;
}
