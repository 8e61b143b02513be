/* zbc-audit source: a peer's HTTP API (docs/api.md).  The tip and the
 * chain identity come from GET /api/v1/node/info, each block from GET
 * /api/v1/blocks/<height>: its "block_bytes" (the encoded block) is what
 * the replay checks; its "events" are the node's claim, compared with
 * the replay's events rendered the same way (node/zbcd/json_util.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/hex.h"
#include "node/audit/source.h"
#include "node/client/http.h"
#include "node/client/reply.h"

struct peer {
    char url[256];
    int timeout_s;
};

/* GET path with a reply of at most max_body bytes; *out is the JSON
 * object of a 200 answer; *found false for a 404. */
static int peer_get(struct peer *p, const char *path, size_t max_body,
                    json_t **out, bool *found, struct zbc_err *err)
{
    *found = false;
    struct zbc_http_reply rep;
    struct zbc_wfail f;
    memset(&f, 0, sizeof f);
    if (!zbc_http_request(&rep, p->url, path, NULL, p->timeout_s, max_body,
                          &f)) {
        zbc_fail(err, "GET %s%s failed: %s", p->url, path, f.err.msg);
        zbc_wfail_clear(&f);
        return 0;
    }
    zbc_wfail_clear(&f);
    if (rep.status == 404) {
        zbc_http_reply_free(&rep);
        return 1;
    }
    json_error_t je;
    json_t *j = json_loadb(rep.body, rep.len, 0, &je);
    int status = rep.status;
    zbc_http_reply_free(&rep);
    if (status != 200) {
        json_t *e = j != NULL ? json_object_get(j, "error") : NULL;
        zbc_fail(err, "GET %s%s answered HTTP %d%s%s", p->url, path, status,
                 json_is_string(e) ? ": " : "",
                 json_is_string(e) ? json_string_value(e) : "");
        json_decref(j);
        return 0;
    }
    if (!json_is_object(j)) {
        json_decref(j);
        zbc_fail(err, "GET %s%s did not answer a JSON object", p->url, path);
        return 0;
    }
    *out = j;
    *found = true;
    return 1;
}

static int peer_tip(void *ctx, struct zbc_audit_tip *t, struct zbc_err *err)
{
    struct peer *p = ctx;
    memset(t, 0, sizeof *t);
    json_t *j = NULL;
    bool found;
    if (!peer_get(p, "/api/v1/node/info", ZBC_HTTP_REPLY_MAX, &j, &found,
                  err))
        return 0;
    if (!found)
        return zbc_fail(err, "the peer has no /api/v1/node/info");
    static const char what[] = "the peer's node/info";
    uint64_t h = 0;
    int ok = zbc_reply_u64(j, "height", 0, UINT32_MAX, what, &h, err);
    t->height = (uint32_t)h;
    ok = ok && zbc_reply_hex(j, "genesis_hash", 32, what, t->genesis_hash, err);
    t->has_genesis = ok;
    if (ok && t->height > 0)
        ok = zbc_reply_hex(j, "tip_hash", 32, what, t->hash, err);
    if (ok && !zbc_reply_absent(j, "state_root")) {
        ok = zbc_reply_hex(j, "state_root", 32, what, t->state_root, err);
        t->has_state_root = ok;
    }
    json_decref(j);
    return ok;
}

static int peer_block(void *ctx, uint32_t height, struct zbc_audit_block *out,
                      bool *found, struct zbc_err *err)
{
    struct peer *p = ctx;
    memset(out, 0, sizeof *out);
    char path[64];
    snprintf(path, sizeof path, "/api/v1/blocks/%u", height);
    json_t *j = NULL;
    if (!peer_get(p, path, ZBC_HTTP_BLOCK_REPLY_MAX, &j, found, err))
        return 0;
    if (!*found)
        return 1;
    *found = false; /* until the reply is read */
    json_t *raw = json_object_get(j, "block_bytes");
    if (raw == NULL) {
        json_decref(j);
        zbc_fail(err, "GET %s has no block_bytes: this node's API does not "
                 "serve raw blocks, so it cannot be audited over HTTP", path);
        return 0;
    }
    char what[96];
    snprintf(what, sizeof what, "the peer's reply to GET %s", path);
    const char *hex;
    json_t *ev;
    if (!zbc_reply_str(j, "block_bytes", what, &hex, err) ||
        !zbc_reply_array(j, "events", what, &ev, err)) {
        json_decref(j);
        return 0;
    }
    size_t n = json_string_length(raw) / 2;
    out->bytes = malloc(n > 0 ? n : 1);
    if (out->bytes == NULL) {
        json_decref(j);
        zbc_fail(err, "out of memory reading block %u", height);
        return 0;
    }
    /* bytes that are not hex are the peer's fault: an empty block here
     * is reported by the replay as a block that does not decode */
    if (!zbc_hex_decode(out->bytes, n, &out->len, hex, json_string_length(raw)))
        out->len = 0;
    out->events_json = json_incref(ev);
    json_decref(j);
    *found = true;
    return 1;
}

static void peer_close(void *ctx)
{
    free(ctx);
}

static const struct zbc_audit_source_ops peer_ops = {
    .tip = peer_tip,
    .block = peer_block,
    .check_indexes = NULL,
    /* the served tip and state root are compared by the replay itself
     * (struct zbc_audit_tip); a peer serves no state tables */
    .check_final = NULL,
    .close = peer_close,
    .parallel_block = true,
};

int zbc_audit_open_peer(struct zbc_audit_source *src, const char *url,
                        int timeout_s, struct zbc_err *err)
{
    if (strncmp(url, "http://", 7) != 0)
        return zbc_fail(err, "--peer needs an http://HOST:PORT URL, not '%s'",
                        url);
    struct peer *p = calloc(1, sizeof *p);
    if (p == NULL)
        return zbc_fail(err, "out of memory");
    if (snprintf(p->url, sizeof p->url, "%s", url) >= (int)sizeof p->url) {
        free(p);
        return zbc_fail(err, "the peer URL is longer than %zu characters",
                        sizeof p->url - 1);
    }
    p->timeout_s = timeout_s;
    src->ops = &peer_ops;
    src->ctx = p;
    snprintf(src->name, sizeof src->name, "peer %s", url);
    return 1;
}

void zbc_audit_block_free(struct zbc_audit_block *b)
{
    free(b->bytes);
    free(b->events_raw);
    free(b->undo_raw);
    json_decref(b->events_json);
    memset(b, 0, sizeof *b);
}

void zbc_audit_source_close(struct zbc_audit_source *src)
{
    if (src->ops != NULL)
        src->ops->close(src->ctx);
    src->ops = NULL;
    src->ctx = NULL;
}
