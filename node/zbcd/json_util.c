#include "node/zbcd/json_util.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "consensus/producer.h"
#include "consensus/tx.h"
#include "consensus/tx_body.h"
#include "consensus/tx_payload.h"
#include "crypto/hex.h"

json_t *zbc_json_addr_text(const struct zbc_addr *a)
{
    if (a->type == ZBC_ACCT_EMPTY)
        return json_null();
    char text[ZBC_ADDR_TEXT_MAX];
    zbc_addr_to_text(text, a);
    return json_string(text);
}

int zbc_json_set(json_t *obj, const char *key, json_t *val,
                 struct zbc_err *err)
{
    if (val == NULL)
        return zbc_fail(err, "cannot build the JSON field %s (out of memory)",
                        key);
    if (json_object_set_new(obj, key, val) != 0)
        return zbc_fail(err, "cannot set the JSON field %s", key);
    return 1;
}

/* ---- submit body ---- */

static int submit_bytes_form(uint8_t **raw, size_t *len, const json_t *obj,
                             struct zbc_err *err)
{
    if (json_object_size(obj) != 1)
        return zbc_fail(err, "a body with transaction_bytes must have no "
                        "other field");
    const json_t *hex = json_object_get(obj, "transaction_bytes");
    if (!json_is_string(hex))
        return zbc_fail(err, "transaction_bytes must be a hex string");
    size_t hlen = json_string_length(hex);
    if (hlen == 0)
        return zbc_fail(err, "transaction_bytes is empty");
    if (hlen > 2 * (size_t)ZBC_TX_MAX_BYTES)
        return zbc_fail(err, "transaction_bytes is longer than %u bytes",
                        ZBC_TX_MAX_BYTES);
    uint8_t *buf = malloc(hlen / 2 + 1);
    if (buf == NULL)
        return zbc_fail(err, "out of memory decoding transaction_bytes");
    size_t n = 0;
    if (!zbc_hex_decode(buf, hlen / 2 + 1, &n, json_string_value(hex), hlen)) {
        free(buf);
        return zbc_fail(err, "transaction_bytes is not valid hex");
    }
    struct zbc_tx tx;
    if (!zbc_tx_parse(&tx, buf, n, err)) {
        free(buf);
        return zbc_fail_prefix(err, "transaction_bytes");
    }
    *raw = buf;
    *len = n;
    return 1;
}

int zbc_json_submit_body(uint8_t **raw, size_t *len, const char *body,
                         size_t body_len, struct zbc_err *err)
{
    if (body_len == 0)
        return zbc_fail(err, "request body is empty; send the transaction "
                        "as a JSON object");
    if (body_len > ZBC_API_MAX_BODY)
        return zbc_fail(err, "request body of %zu bytes exceeds the %zu byte "
                        "limit", body_len, ZBC_API_MAX_BODY);
    json_error_t jerr;
    json_t *obj = json_loadb(body, body_len, JSON_REJECT_DUPLICATES, &jerr);
    if (obj == NULL)
        return zbc_fail(err, "malformed JSON at line %d column %d: %s",
                        jerr.line, jerr.column, jerr.text);
    int ok = zbc_json_submit_value(raw, len, obj, err);
    json_decref(obj);
    return ok;
}

int zbc_json_submit_value(uint8_t **raw, size_t *len, const json_t *obj,
                          struct zbc_err *err)
{
    if (!json_is_object(obj))
        return zbc_fail(err, "request body must be a JSON object");
    if (json_object_get(obj, "transaction_bytes") != NULL)
        return submit_bytes_form(raw, len, obj, err);
    return zbc_tx_payload_parse(raw, len, obj, err);
}

/* ---- transaction view ---- */

static const char *tx_type_name(uint32_t type)
{
    switch (type) {
    case ZBC_TX_SEND:
        return "SendZBC";
    case ZBC_TX_APP_CREATE:
        return "CreateApp";
    case ZBC_TX_APP_JOIN:
        return "JoinApp";
    case ZBC_TX_APP_MOVE:
        return "AppMove";
    case ZBC_TX_APP_RESIGN:
        return "ResignApp";
    case ZBC_TX_APP_CLAIM:
        return "ClaimAppTimeout";
    }
    return "unknown";
}

static int body_fields(json_t *o, const struct zbc_tx *tx, struct zbc_err *err)
{
    struct zbc_tx_body b;
    struct zbc_err ignored;
    /* A body that does not decode (the transaction would be invalid and
     * never reach the chain) simply shows no decoded fields. */
    if (!zbc_tx_body_parse(&b, tx->type, tx->body, tx->body_len, &ignored))
        return 1;
    switch (b.type) {
    case ZBC_TX_SEND:
        return zbc_json_set(o, "amount", zbc_json_u64(b.u.send.amount), err);
    case ZBC_TX_APP_CREATE: {
        const struct zbc_body_app_create *c = &b.u.create;
        return zbc_json_set(o, "app_type", json_integer(c->app_type), err) &&
               zbc_json_set(o, "stake_token", zbc_json_u64(c->stake_token),
                            err) &&
               zbc_json_set(o, "stake", zbc_json_u64(c->stake), err) &&
               zbc_json_set(o, "seats", json_integer(c->seats), err) &&
               zbc_json_set(o, "params_hex",
                            zbc_json_hex(c->params, c->params_len), err) &&
               zbc_json_set(o, "opponent",
                            c->has_opponent ? zbc_json_addr_text(&c->opponent)
                                            : json_null(),
                            err);
    }
    case ZBC_TX_APP_JOIN:
    case ZBC_TX_APP_RESIGN:
    case ZBC_TX_APP_CLAIM:
        return zbc_json_set(o, "app_id", zbc_json_u64(b.u.ref.app_id), err);
    case ZBC_TX_APP_MOVE:
        return zbc_json_set(o, "app_id", zbc_json_u64(b.u.move.app_id), err) &&
               zbc_json_set(o, "move_hex",
                            zbc_json_hex(b.u.move.move, b.u.move.move_len),
                            err);
    }
    return 1;
}

int zbc_json_tx(json_t **out, const uint8_t *raw, size_t len,
                struct zbc_err *err)
{
    struct zbc_tx tx;
    if (!zbc_tx_parse(&tx, raw, len, err))
        return 0;
    json_t *o = NULL;
    if (!zbc_tx_payload_build(&o, &tx, err))
        return 0;
    uint8_t hash[32];
    char id[24];
    zbc_tx_hash(hash, &tx);
    snprintf(id, sizeof id, "%" PRIu64, zbc_tx_id_from_hash(hash));
    /* The payload omits message_hex and escrow when absent; the view
     * always has them so readers need not test for the key. */
    int ok = zbc_json_set(o, "transaction_hash", zbc_json_hex(hash, 32), err) &&
             zbc_json_set(o, "transaction_id", json_string(id), err) &&
             zbc_json_set(o, "transaction_type_name",
                          json_string(tx_type_name(tx.type)), err) &&
             zbc_json_set(o, "transaction_bytes", zbc_json_hex(raw, len),
                          err) &&
             zbc_json_set(o, "sender", zbc_json_addr_text(&tx.sender), err) &&
             zbc_json_set(o, "recipient", zbc_json_addr_text(&tx.recipient),
                          err) &&
             (json_object_get(o, "message_hex") != NULL ||
              zbc_json_set(o, "message_hex", json_string(""), err)) &&
             (json_object_get(o, "escrow") != NULL ||
              zbc_json_set(o, "escrow", json_null(), err)) &&
             body_fields(o, &tx, err);
    if (!ok) {
        json_decref(o);
        return 0;
    }
    *out = o;
    return 1;
}

/* ---- events and blocks ---- */

/* An app_end event read for people (docs/api.md §11): outcome from the
 * reason, winner = the seat (the one seat that took the pot), the loser
 * (data byte 0) as resigned / timed_out. */
static int app_end_fields(json_t *o, const struct zbc_event *e,
                          struct zbc_err *err)
{
    static const char *const same[] = {"win", "resign", "timeout",
                                       "abandoned", "expired", "cashout",
                                       "bust"};
    const char *outcome = "draw"; /* "draw" or an engine's start failure */
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++)
        if (strcmp(e->reason, same[i]) == 0)
            outcome = same[i];
    if (strcmp(e->reason, "clock") == 0) /* a solo game settled by its clock */
        outcome = "cashout";
    if (strncmp(e->reason, "bet ", 4) == 0 ||
        strncmp(e->reason, "crash at ", 9) == 0) /* a crash round's bets */
        outcome = "bet";
    uint8_t loser = e->data_len >= 1 ? e->data[0] : ZBC_EVENT_NO_SEAT;
    json_t *l = loser == ZBC_EVENT_NO_SEAT ? NULL : json_integer(loser);
    bool resign = strcmp(outcome, "resign") == 0;
    bool timeout = strcmp(outcome, "timeout") == 0;
    int ok = zbc_json_set(o, "outcome", json_string(outcome), err) &&
             zbc_json_set(o, "winner",
                          e->seat == ZBC_EVENT_NO_SEAT ? json_null()
                                                       : json_integer(e->seat),
                          err) &&
             zbc_json_set(o, "resigned",
                          resign && l != NULL ? json_incref(l) : json_null(),
                          err) &&
             zbc_json_set(o, "timed_out",
                          timeout && l != NULL ? json_incref(l) : json_null(),
                          err);
    json_decref(l);
    return ok;
}

int zbc_json_event(json_t **out, const struct zbc_event *e,
                   struct zbc_err *err)
{
    json_t *o = json_object();
    if (o == NULL)
        return zbc_fail(err, "out of memory building an event");
    bool block_level = e->tx_index == ZBC_EVENT_NO_TX;
    /* a block-level event may still name a transaction (a pending dice
     * move applied at the start of the next block) */
    static const uint8_t zero[32];
    bool no_hash = block_level && memcmp(e->tx_hash, zero, 32) == 0;
    int ok =
        zbc_json_set(o, "kind", json_string(zbc_event_kind_name(e->kind)),
                     err) &&
        zbc_json_set(o, "tx_index",
                     block_level ? json_null() : json_integer(e->tx_index),
                     err) &&
        zbc_json_set(o, "tx_hash",
                     no_hash ? json_null() : zbc_json_hex(e->tx_hash, 32),
                     err) &&
        zbc_json_set(o, "from", zbc_json_addr_text(&e->a), err) &&
        zbc_json_set(o, "to", zbc_json_addr_text(&e->b), err) &&
        zbc_json_set(o, "amount", zbc_json_u64(e->amount), err) &&
        zbc_json_set(o, "ref", zbc_json_u64(e->ref), err) &&
        zbc_json_set(o, "reason", json_string(e->reason), err);
    /* App kinds carry a seat and data bytes (consensus/events.h). */
    if (ok && e->kind >= ZBC_EVENT_APP_CREATE)
        ok = zbc_json_set(o, "seat",
                          e->seat == ZBC_EVENT_NO_SEAT ? json_null()
                                                       : json_integer(e->seat),
                          err) &&
             zbc_json_set(o, "data", zbc_json_hex(e->data, e->data_len), err);
    if (ok && e->kind == ZBC_EVENT_APP_END)
        ok = app_end_fields(o, e, err);
    if (!ok) {
        json_decref(o);
        return 0;
    }
    *out = o;
    return 1;
}

static int block_lists(json_t *o, const struct zbc_block *b,
                       const struct zbc_events *ev, struct zbc_err *err)
{
    json_t *txs = json_array();
    if (!zbc_json_set(o, "transactions", txs, err))
        return 0;
    for (uint32_t i = 0; i < b->n_tx; i++) {
        uint8_t h[32];
        zbc_tx_ref_hash(h, &b->txs[i]);
        json_t *hj = zbc_json_hex(h, 32);
        if (hj == NULL || json_array_append_new(txs, hj) != 0)
            return zbc_fail(err, "out of memory listing transactions");
    }
    if (ev == NULL)
        return 1; /* asked without events: no "events" key */
    json_t *evs = json_array();
    if (!zbc_json_set(o, "events", evs, err))
        return 0;
    for (size_t i = 0; i < ev->n; i++) {
        json_t *ej;
        if (!zbc_json_event(&ej, &ev->e[i], err))
            return 0;
        if (json_array_append_new(evs, ej) != 0)
            return zbc_fail(err, "out of memory listing events");
    }
    return 1;
}

/* The encoded block (header || body), so a client such as zbc-audit
 * --peer can verify it without trusting this node's decoded fields. */
static int block_bytes(json_t *o, const struct zbc_block *b,
                       struct zbc_err *err)
{
    uint8_t *raw;
    size_t len;
    if (!zbc_block_encode(b, &raw, &len, err))
        return 0;
    json_t *j = zbc_json_hex(raw, len);
    free(raw);
    return zbc_json_set(o, "block_bytes", j, err);
}

int zbc_json_block(json_t **out, const struct zbc_block *b,
                   const struct zbc_events *ev, struct zbc_err *err)
{
    const struct zbc_block_header *h = &b->header;
    uint8_t hash[32];
    char znk[ZBC_ADDR_TEXT_MAX];
    zbc_block_hash(hash, h);
    zbc_addr_zbc_text(znk, h->producer, "ZNK");
    json_t *o = json_object();
    if (o == NULL)
        return zbc_fail(err, "out of memory building a block");
    int ok =
        zbc_json_set(o, "height", json_integer(h->height), err) &&
        zbc_json_set(o, "block_hash", zbc_json_hex(hash, 32), err) &&
        zbc_json_set(o, "hash", zbc_json_hex(hash, 32), err) &&
        zbc_json_set(o, "version", json_integer(h->version), err) &&
        zbc_json_set(o, "timestamp", zbc_json_u64(h->timestamp_ms), err) &&
        zbc_json_set(o, "previous_block_hash", zbc_json_hex(h->prev_hash, 32),
                     err) &&
        zbc_json_set(o, "producer", zbc_json_hex(h->producer, 32), err) &&
        zbc_json_set(o, "producer_address", json_string(znk), err) &&
        zbc_json_set(o, "rank", json_integer(h->rank), err) &&
        zbc_json_set(o, "weight", zbc_json_u64(zbc_block_weight(h->rank)),
                     err) &&
        zbc_json_set(o, "seed", zbc_json_hex(h->seed, 32), err) &&
        zbc_json_set(o, "vrf_proof",
                     zbc_json_hex(h->vrf_proof, ZBC_VRF_PROOF_LEN), err) &&
        zbc_json_set(o, "transactions_root", zbc_json_hex(h->tx_root, 32),
                     err) &&
        zbc_json_set(o, "state_root", zbc_json_hex(h->state_root, 32), err) &&
        zbc_json_set(o, "tx_count", json_integer(h->tx_count), err) &&
        zbc_json_set(o, "signature",
                     zbc_json_hex(h->signature, ZBC_BLOCK_SIG_LEN), err) &&
        block_lists(o, b, ev, err) && block_bytes(o, b, err);
    if (!ok) {
        json_decref(o);
        return 0;
    }
    *out = o;
    return 1;
}
