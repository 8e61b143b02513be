#include "node/wallet/submit.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "crypto/hex.h"
#include "node/client/reply.h"
#include "node/wallet/amount.h"
#include "node/wallet/client.h"
#include "node/wallet/out.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int zbc_wait_confirmed(json_t **status_out, const char *hash_hex, const struct zbc_opts *o,
                       struct zbc_wfail *f)
{
    struct zbc_client api = {o->api, o->timeout_s, 0};
    char path[128];
    snprintf(path, sizeof path, "/api/v1/transactions/%s/status", hash_hex);
    double end = now_s() + o->wait_s;
    char last[96] = "unknown";
    *status_out = NULL;
    for (;;) {
        json_t *st = NULL;
        struct zbc_wfail pf = {0};
        if (zbc_client_call(&api, path, NULL, &st, &pf)) {
            bool confirmed;
            uint32_t height;
            struct zbc_err err;
            if (!zbc_client_check_tx(st, hash_hex, &confirmed, &height, &err))
                return zbc_client_bad_reply(f, st, &err);
            const char *why;
            uint32_t at;
            if (zbc_client_tx_dropped(st, &why, &at))
                return zbc_client_fail_dropped(f, st, hash_hex);
            json_t *fin = json_object_get(st, "final");
            json_t *applied = json_object_get(st, "applied");
            if (confirmed && ((fin != NULL && !json_is_boolean(fin)) ||
                              (applied != NULL && !json_is_boolean(applied)))) {
                zbc_fail(&err, "the node's transaction reply has a \"%s\" that is "
                         "not a boolean", fin != NULL && !json_is_boolean(fin) ? "final" : "applied");
                return zbc_client_bad_reply(f, st, &err);
            }
            /* final (docs/protocol-chain.md §8.9) unless --wait=included; a
             * no-op inclusion is the answer at once */
            if (confirmed && (o->wait_included || json_is_true(fin) || json_is_false(applied))) {
                *status_out = st;
                return 1;
            }
            if (confirmed)
                snprintf(last, sizeof last, "in block %u with %lld confirmations, not final",
                         height,
                         (long long)json_integer_value(json_object_get(st, "confirmations")));
            else
                snprintf(last, sizeof last, "mempool");
            json_decref(st);
        } else if (pf.code != ZBC_EXIT_NOT_FOUND) {
            /* unreachable, busy, timeout: that is the answer */
            *f = pf;
            return 0;
        } else {
            snprintf(last, sizeof last, "not_found");
            zbc_wfail_clear(&pf);
        }
        if (now_s() > end)
            return zbc_wfail(f, ZBC_EXIT_TIMEOUT,
                             "transaction %s was not %s within %d s (last status: %s)",
                             hash_hex, o->wait_included ? "confirmed" : "final", o->wait_s,
                             last);
        struct timespec ts = {0, 300 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

int zbc_submit(json_t **result, const struct zbc_wtx *w, const struct zbc_opts *o,
               struct zbc_wfail *f)
{
    json_t *payload;
    if (!zbc_wtx_payload(&payload, w, f))
        return 0;
    char *body = json_dumps(payload, JSON_COMPACT | JSON_SORT_KEYS);
    if (body == NULL) {
        json_decref(payload);
        return zbc_wfail(f, ZBC_EXIT_INTERNAL, "cannot encode the payload");
    }
    struct zbc_client api = {o->api, o->timeout_s, 0};
    json_t *reply;
    int ok = zbc_client_call(&api, "/api/v1/transactions", body, &reply, f);
    free(body);
    if (!ok) {
        json_decref(payload);
        /* one app transaction per sender and app waits in the pool
         * (docs/wallet.md "Apps"): say what to do */
        const char *waiting = strstr(f->err.msg, "already waiting in the mempool");
        const char *app = strstr(f->err.msg, "for app ");
        if (waiting != NULL) {
            /* the node's sentence names the pooled tx's hash, which with
             * the hint would not fit: keep the app, drop the hash */
            char id[24] = "";
            if (app != NULL && app < waiting)
                snprintf(id, sizeof id, "%.*s", (int)strspn(app + 8, "0123456789"), app + 8);
            snprintf(f->err.msg, sizeof f->err.msg,
                     "a transaction of yours for app %s is already waiting in the mempool "
                     "(use --wait, or wait for the first move to be in a block)",
                     id[0] != '\0' ? id : "?");
        }
        return 0;
    }
    char hash[65];
    zbc_hex_encode(hash, w->hash, 32);
    const char *theirs;
    struct zbc_err err;
    if (!zbc_reply_str(reply, "transaction_hash", "the node's reply to POST /api/v1/transactions",
                       &theirs, &err)) {
        json_decref(payload);
        return zbc_client_bad_reply(f, reply, &err);
    }
    if (w->retime && json_is_true(json_object_get(reply, "duplicate")) &&
        strcasecmp(theirs, hash) == 0) {
        /* the same command in the same second: the caller retimes it */
        json_decref(reply);
        json_decref(payload);
        return zbc_wfail(f, ZBC_EXIT_REJECTED,
                         "duplicate transaction: the node's pool already holds %s", hash);
    }
    if (strcasecmp(theirs, hash) != 0) {
        json_decref(payload);
        f->api_response = reply;
        f->http_code = 200;
        return zbc_wfail(f, ZBC_EXIT_INTERNAL,
                         "the node accepted the transaction under hash %s but this wallet computed %s",
                         theirs, hash);
    }
    json_t *r = json_object();
    json_object_set_new(r, "transaction_hash", json_string(hash));
    json_object_set_new(r, "transaction_type", json_integer(w->tx.type));
    /* addresses in their text form (ZBC_...), not the payload's bytes */
    char sender[ZBC_ADDR_TEXT_MAX], recipient[ZBC_ADDR_TEXT_MAX];
    zbc_addr_to_text(sender, &w->tx.sender);
    json_object_set_new(r, "sender_account_address", json_string(sender));
    if (w->tx.recipient.type == ZBC_ACCT_EMPTY) {
        json_object_set_new(r, "recipient_account_address", json_null());
    } else {
        zbc_addr_to_text(recipient, &w->tx.recipient);
        json_object_set_new(r, "recipient_account_address", json_string(recipient));
    }
    json_object_set_new(r, "fee", json_integer(w->tx.fee));
    char fee[32];
    zbc_amount_format(fee, (uint64_t)w->tx.fee);
    json_object_set_new(r, "fee_zbc", json_string(fee));
    json_object_set_new(r, "timestamp", json_integer(w->tx.timestamp));
    json_object_set_new(r, "api_response", reply);
    json_decref(payload);
    if (o->wait) {
        json_t *st;
        if (!zbc_wait_confirmed(&st, hash, o, f)) {
            json_decref(r);
            return 0;
        }
        json_object_set(r, "status", json_object_get(st, "status"));
        json_object_set(r, "block_height", json_object_get(st, "block_height"));
        if (json_is_false(json_object_get(st, "applied"))) {
            /* in a block, but as a no-op: no effect, no fee (docs/api.md §5) */
            const char *why = json_string_value(json_object_get(st, "noop_reason"));
            long long h = (long long)json_integer_value(json_object_get(st, "block_height"));
            json_decref(r);
            f->api_response = st;
            return zbc_wfail(f, zbc_client_classify(400, why != NULL ? why : ""),
                             "transaction %s was included in block %lld as a no-op (no effect, "
                             "no fee): %s", hash, h, why != NULL ? why : "no reason given");
        }
        json_object_set(r, "applied", json_object_get(st, "applied"));
        json_object_set(r, "final", json_object_get(st, "final"));
        json_decref(st);
    }
    char text[256];
    json_t *bh = json_object_get(r, "block_height");
    if (json_is_integer(bh))
        snprintf(text, sizeof text, "transaction %s in block %lld, %s\n", hash,
                 (long long)json_integer_value(bh),
                 json_is_true(json_object_get(r, "final"))
                     ? "final (no reorganisation can undo it)"
                     : "not final yet (zbc tx status shows when it is)");
    else
        snprintf(text, sizeof text,
                 "transaction %s accepted into the node's pool (zbc tx status %s)\n", hash, hash);
    json_object_set_new(r, "_text", json_string(text));
    *result = r;
    return 1;
}

int zbc_chain_for(struct zbc_chain_id *c, const struct zbc_opts *o, struct zbc_wfail *f)
{
    if (o->genesis != NULL)
        return zbc_chain_id_parse(c, o->genesis, f);
    if (o->offline)
        return zbc_wfail(f, ZBC_EXIT_USAGE,
                         "--offline needs --genesis <hex|v1> (or ZOOBC_GENESIS_HASH)");
    struct zbc_client api = {o->api, o->timeout_s, 0};
    memset(c, 0, sizeof *c);
    return zbc_client_genesis(&api, c->genesis, &c->signing_version, f);
}
