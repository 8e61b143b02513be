/* Submit payload <-> transaction bytes (tx_payload.h). */
#include "consensus/tx_payload.h"

#include <stdlib.h>
#include <string.h>

#include "crypto/hex.h"

/* ---- building ---- */

static json_t *hex_json(const uint8_t *p, size_t n)
{
    char *s = malloc(2 * n + 1);
    json_t *j;
    if (s == NULL)
        return NULL;
    zbc_hex_encode(s, p, n);
    j = json_string(s);
    free(s);
    return j;
}

/* ZooBC accounts as the bare key, others as full typed bytes, none as "".
 * A type whose typed bytes are 32 long (Cardano, 13) would read back as a
 * bare ZooBC key, so it has no payload form. */
static int addr_json(json_t **out, const struct zbc_addr *a, const char *key,
                     struct zbc_err *err)
{
    uint8_t buf[ZBC_ADDR_BYTES_MAX];
    size_t n;
    if (a->type == ZBC_ACCT_EMPTY) {
        *out = json_string("");
        return 1;
    }
    if (a->type == ZBC_ACCT_ZBC) {
        *out = hex_json(a->payload, a->len);
        return 1;
    }
    n = zbc_addr_write(buf, a);
    if (n == 32)
        return zbc_fail(err, "%s of account type %u has no payload form "
                        "(its 32 typed bytes would read as a ZooBC key)", key, a->type);
    *out = hex_json(buf, n);
    return 1;
}

static int set(json_t *obj, const char *key, json_t *val, struct zbc_err *err)
{
    if (val == NULL || json_object_set_new(obj, key, val) != 0)
        return zbc_fail(err, "cannot build the payload field %s (out of memory)", key);
    return 1;
}

static int escrow_json(json_t **out, const struct zbc_escrow *e,
                       struct zbc_err *err)
{
    uint8_t buf[ZBC_ADDR_BYTES_MAX];
    json_t *o;
    if (e->multi_party != 0)
        return zbc_fail(err, "a multi-party escrow has no submit payload form");
    o = json_object();
    if (o == NULL)
        return zbc_fail(err, "cannot build the escrow object (out of memory)");
    size_t an = zbc_addr_write(buf, &e->approver);
    if (an == 32) {
        zbc_fail(err, "escrow approver of account type %u has no payload form "
                 "(its 32 typed bytes would read as a ZooBC key)", e->approver.type);
        goto fail;
    }
    if (!set(o, "approver_address", hex_json(buf, an), err) ||
        !set(o, "commission", json_integer(e->commission), err) ||
        !set(o, "timeout", json_integer(e->timeout), err))
        goto fail;
    if (e->instruction_len > 0) {
        json_t *s = json_stringn((const char *)e->instruction, e->instruction_len);
        if (s == NULL) {
            zbc_fail(err, "escrow instruction is not valid UTF-8");
            goto fail;
        }
        if (!set(o, "instruction", s, err))
            goto fail;
    }
    *out = o;
    return 1;
fail:
    json_decref(o);
    return 0;
}

int zbc_tx_payload_build(json_t **out, const struct zbc_tx *tx,
                         struct zbc_err *err)
{
    json_t *o = json_object(), *esc = NULL, *sender = NULL, *recipient = NULL;
    if (o == NULL)
        return zbc_fail(err, "cannot build the payload (out of memory)");
    if (tx->sig == NULL && tx->sig_len > 0) {
        zbc_fail(err, "transaction has no signature bytes");
        goto fail;
    }
    if (!addr_json(&sender, &tx->sender, "sender", err) ||
        !set(o, "sender_account_address", sender, err) ||
        !addr_json(&recipient, &tx->recipient, "recipient", err) ||
        !set(o, "recipient_account_address", recipient, err) ||
        !set(o, "version", json_integer(tx->version), err) ||
        !set(o, "timestamp", json_integer(tx->timestamp), err) ||
        !set(o, "transaction_type", json_integer(tx->type), err) ||
        !set(o, "fee", json_integer(tx->fee), err) ||
        !set(o, "transaction_body_bytes", hex_json(tx->body, tx->body_len), err) ||
        !set(o, "signature", hex_json(tx->sig, tx->sig_len), err))
        goto fail;
    if (tx->message_len > 0 &&
        !set(o, "message_hex", hex_json(tx->message, tx->message_len), err))
        goto fail;
    if (tx->has_escrow) {
        if (!escrow_json(&esc, &tx->escrow, err) || !set(o, "escrow", esc, err))
            goto fail;
    }
    *out = o;
    return 1;
fail:
    json_decref(o);
    return 0;
}

/* ---- parsing ---- */

static int get_int(json_int_t *v, const json_t *o, const char *key,
                   json_int_t lo, json_int_t hi, struct zbc_err *err)
{
    const json_t *j = json_object_get(o, key);
    if (j == NULL)
        return zbc_fail(err, "payload has no \"%s\"", key);
    if (!json_is_integer(j))
        return zbc_fail(err, "payload \"%s\" must be an integer", key);
    *v = json_integer_value(j);
    if (*v < lo || *v > hi)
        return zbc_fail(err, "payload \"%s\" = %lld is out of range", key,
                        (long long)*v);
    return 1;
}

static int get_str(const char **s, size_t *n, const json_t *o, const char *key,
                   struct zbc_err *err)
{
    const json_t *j = json_object_get(o, key);
    if (j == NULL)
        return zbc_fail(err, "payload has no \"%s\"", key);
    if (!json_is_string(j))
        return zbc_fail(err, "payload \"%s\" must be a string", key);
    *s = json_string_value(j);
    *n = json_string_length(j);
    return 1;
}

/* Hex of any length up to ZBC_TX_MAX_BYTES into a new buffer. */
static int get_hex(uint8_t **out, size_t *outlen, const char *hex, size_t n,
                   const char *key, struct zbc_err *err)
{
    size_t cap = n / 2 + 1;
    uint8_t *b;
    if (n / 2 > ZBC_TX_MAX_BYTES)
        return zbc_fail(err, "payload \"%s\" is longer than a transaction may be", key);
    b = malloc(cap);
    if (b == NULL)
        return zbc_fail(err, "out of memory decoding \"%s\"", key);
    if (!zbc_hex_decode(b, cap, outlen, hex, n)) {
        free(b);
        return zbc_fail(err, "payload \"%s\" is not valid hex", key);
    }
    *out = b;
    return 1;
}

/* 64 hex characters = a bare ZooBC key; otherwise full typed bytes. */
static int get_addr(struct zbc_addr *a, const char *hex, size_t n,
                    const char *key, int allow_empty, struct zbc_err *err)
{
    uint8_t buf[ZBC_ADDR_BYTES_MAX];
    size_t len, used;
    if (n == 0) {
        if (!allow_empty)
            return zbc_fail(err, "payload \"%s\" is empty", key);
        zbc_addr_empty(a);
        return 1;
    }
    if (n > 2 * sizeof buf || !zbc_hex_decode(buf, sizeof buf, &len, hex, n))
        return zbc_fail(err, "payload \"%s\" is not a hex account address", key);
    if (len == 32) {
        zbc_addr_from_ed25519(a, buf);
        return 1;
    }
    if (!zbc_addr_read(a, buf, len, &used, err))
        return zbc_fail_prefix(err, "payload \"%s\"", key);
    if (used != len)
        return zbc_fail(err, "payload \"%s\" has %zu bytes after the account address",
                        key, len - used);
    return 1;
}

struct bufs {
    uint8_t *body, *sig, *msg;
};

static int parse_escrow(struct zbc_escrow *e, const json_t *o,
                        struct zbc_err *err)
{
    const char *s = NULL;
    size_t n = 0;
    json_int_t v = 0;
    const json_t *instr;
    if (!json_is_object(o))
        return zbc_fail(err, "payload \"escrow\" must be an object");
    memset(e, 0, sizeof *e);
    if (!get_str(&s, &n, o, "approver_address", err) ||
        !get_addr(&e->approver, s, n, "escrow.approver_address", 0, err))
        return 0;
    if (!get_int(&v, o, "commission", INT64_MIN, INT64_MAX, err))
        return 0;
    e->commission = v;
    if (!get_int(&v, o, "timeout", INT64_MIN, INT64_MAX, err))
        return 0;
    e->timeout = v;
    instr = json_object_get(o, "instruction");
    if (instr != NULL) {
        if (!json_is_string(instr))
            return zbc_fail(err, "payload \"escrow.instruction\" must be a string");
        if (json_string_length(instr) > ZBC_TX_MAX_BYTES)
            return zbc_fail(err, "payload \"escrow.instruction\" is too long");
        e->instruction = (const uint8_t *)json_string_value(instr);
        e->instruction_len = (uint32_t)json_string_length(instr);
    }
    return 1;
}

static int parse_fields(struct zbc_tx *tx, struct bufs *b, const json_t *o,
                        struct zbc_err *err)
{
    json_int_t v = 0;
    const char *s = NULL;
    size_t n = 0, len = 0;
    const json_t *j;

    memset(tx, 0, sizeof *tx);
    if (!get_int(&v, o, "version", 0, 255, err))
        return 0;
    tx->version = (uint8_t)v;
    if (!get_int(&v, o, "timestamp", INT64_MIN, INT64_MAX, err))
        return 0;
    tx->timestamp = v;
    if (!get_int(&v, o, "transaction_type", 0, UINT32_MAX, err))
        return 0;
    tx->type = (uint32_t)v;
    if (!get_int(&v, o, "fee", INT64_MIN, INT64_MAX, err))
        return 0;
    tx->fee = v;
    if (!get_str(&s, &n, o, "sender_account_address", err) ||
        !get_addr(&tx->sender, s, n, "sender_account_address", 0, err) ||
        !get_str(&s, &n, o, "recipient_account_address", err) ||
        !get_addr(&tx->recipient, s, n, "recipient_account_address", 1, err))
        return 0;
    if (!get_str(&s, &n, o, "transaction_body_bytes", err) ||
        !get_hex(&b->body, &len, s, n, "transaction_body_bytes", err))
        return 0;
    tx->body = b->body;
    tx->body_len = (uint32_t)len;
    if (!get_str(&s, &n, o, "signature", err) ||
        !get_hex(&b->sig, &len, s, n, "signature", err))
        return 0;
    if (len > ZBC_SIG_MAX)
        return zbc_fail(err, "payload \"signature\" of %zu bytes is longer than %u",
                        len, ZBC_SIG_MAX);
    tx->sig = b->sig;
    tx->sig_len = len;
    if (json_object_get(o, "message_hex") != NULL) {
        if (!get_str(&s, &n, o, "message_hex", err) ||
            !get_hex(&b->msg, &len, s, n, "message_hex", err))
            return 0;
        tx->message = b->msg;
        tx->message_len = (uint32_t)len;
    }
    j = json_object_get(o, "escrow");
    if (j != NULL && !json_is_null(j)) {
        if (!parse_escrow(&tx->escrow, j, err))
            return 0;
        tx->has_escrow = true;
    }
    return 1;
}

static int finish(uint8_t **bytes, size_t *len, uint8_t *buf, size_t n,
                  struct zbc_err *err)
{
    struct zbc_tx check;
    if (!zbc_tx_parse(&check, buf, n, err)) {
        free(buf);
        return zbc_fail_prefix(err, "payload does not make a well-formed transaction");
    }
    *bytes = buf;
    *len = n;
    return 1;
}

int zbc_tx_payload_parse(uint8_t **bytes, size_t *len, const json_t *payload,
                         struct zbc_err *err)
{
    struct zbc_tx tx;
    struct bufs b = {NULL, NULL, NULL};
    const json_t *raw;
    uint8_t *out = NULL;
    size_t n, cap;
    int ok = 0;

    if (!json_is_object(payload))
        return zbc_fail(err, "payload must be a JSON object");
    raw = json_object_get(payload, "transaction_bytes");
    if (raw != NULL) {
        if (!json_is_string(raw))
            return zbc_fail(err, "payload \"transaction_bytes\" must be a string");
        if (!get_hex(&out, &n, json_string_value(raw), json_string_length(raw),
                     "transaction_bytes", err))
            return 0;
        return finish(bytes, len, out, n, err);
    }
    if (!parse_fields(&tx, &b, payload, err) ||
        !zbc_tx_unsigned_size(&tx, &cap, err))
        goto out;
    cap += tx.sig_len;
    out = malloc(cap);
    if (out == NULL) {
        zbc_fail(err, "out of memory building the transaction");
        goto out;
    }
    if (!zbc_tx_write(out, cap, &n, &tx, err)) {
        free(out);
        goto out;
    }
    ok = finish(bytes, len, out, n, err);
out:
    free(b.body);
    free(b.sig);
    free(b.msg);
    return ok;
}
