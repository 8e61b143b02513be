/* Transaction bodies (tx_body.h, docs/protocol-tx.md §3). */
#include "consensus/tx_body.h"

#include <string.h>

#include "crypto/bytes.h"

bool zbc_tx_type_known(uint32_t type)
{
    return type == ZBC_TX_SEND || (type >= ZBC_TX_APP_CREATE && type <= ZBC_TX_APP_CLAIM);
}

static const char *type_name(enum zbc_tx_type t)
{
    switch (t) {
    case ZBC_TX_SEND: return "SendZBC";
    case ZBC_TX_APP_CREATE: return "CreateApp";
    case ZBC_TX_APP_JOIN: return "JoinApp";
    case ZBC_TX_APP_MOVE: return "AppMove";
    case ZBC_TX_APP_RESIGN: return "ResignApp";
    case ZBC_TX_APP_CLAIM: return "ClaimAppTimeout";
    }
    return "?";
}

static int exact(const char *name, size_t len, size_t want, struct zbc_err *err)
{
    if (len != want)
        return zbc_fail(err, "%s body must be %zu bytes, got %zu", name, want, len);
    return 1;
}

static int parse_create(struct zbc_body_app_create *c, const uint8_t *b,
                        size_t len, struct zbc_err *err)
{
    const size_t head = 1 + 8 + 8 + 1 + 2;
    size_t used, rest;
    if (len < head)
        return zbc_fail(err, "CreateApp body must be at least %zu bytes, got %zu",
                        head, len);
    memset(c, 0, sizeof *c);
    c->app_type = b[0];
    c->stake_token = zbc_get_le64(b + 1);
    c->stake = zbc_get_le64(b + 9);
    c->seats = b[17];
    c->params_len = zbc_get_le16(b + 18);
    if (len - head < c->params_len)
        return zbc_fail(err, "CreateApp params length %u exceeds the %zu bytes left",
                        c->params_len, len - head);
    c->params = b + head;
    rest = len - head - c->params_len;
    if (rest == 0)
        return 1;
    if (rest != ZBC_APP_OPPONENT_LEN)
        return zbc_fail(err, "CreateApp body has %zu bytes after the params; only a %d-byte opponent address may follow",
                        rest, ZBC_APP_OPPONENT_LEN);
    if (!zbc_addr_read(&c->opponent, b + head + c->params_len, rest, &used, err))
        return zbc_fail_prefix(err, "CreateApp opponent");
    if (c->opponent.type != ZBC_ACCT_ZBC || used != rest)
        return zbc_fail(err, "CreateApp opponent must be a ZooBC (type 0) account, got type %u",
                        c->opponent.type);
    c->has_opponent = true;
    return 1;
}

int zbc_tx_body_parse(struct zbc_tx_body *body, uint32_t type,
                      const uint8_t *buf, size_t len, struct zbc_err *err)
{
    struct zbc_tx_body b;
    if (!zbc_tx_type_known(type))
        return zbc_fail(err, "unknown transaction type %u", type);
    memset(&b, 0, sizeof b);
    b.type = (enum zbc_tx_type)type;
    switch (b.type) {
    case ZBC_TX_SEND:
        if (!exact(type_name(b.type), len, 8, err))
            return 0;
        b.u.send.amount = zbc_get_le64(buf);
        break;
    case ZBC_TX_APP_CREATE:
        if (!parse_create(&b.u.create, buf, len, err))
            return 0;
        break;
    case ZBC_TX_APP_JOIN:
    case ZBC_TX_APP_RESIGN:
    case ZBC_TX_APP_CLAIM:
        if (!exact(type_name(b.type), len, 8, err))
            return 0;
        b.u.ref.app_id = zbc_get_le64(buf);
        break;
    case ZBC_TX_APP_MOVE:
        if (len < 10)
            return zbc_fail(err, "AppMove body must be at least 10 bytes, got %zu", len);
        b.u.move.app_id = zbc_get_le64(buf);
        b.u.move.move_len = zbc_get_le16(buf + 8);
        if (len - 10 != b.u.move.move_len)
            return zbc_fail(err, "AppMove move length %u does not match the %zu bytes that follow",
                            b.u.move.move_len, len - 10);
        b.u.move.move = buf + 10;
        break;
    }
    *body = b;
    return 1;
}

size_t zbc_tx_body_size(const struct zbc_tx_body *b)
{
    switch (b->type) {
    case ZBC_TX_SEND:
    case ZBC_TX_APP_JOIN:
    case ZBC_TX_APP_RESIGN:
    case ZBC_TX_APP_CLAIM:
        return 8;
    case ZBC_TX_APP_CREATE:
        return 20 + (size_t)b->u.create.params_len +
               (b->u.create.has_opponent ? ZBC_APP_OPPONENT_LEN : 0);
    case ZBC_TX_APP_MOVE:
        return 10 + (size_t)b->u.move.move_len;
    }
    return 0;
}

int zbc_tx_body_write(uint8_t *out, size_t cap, size_t *written,
                      const struct zbc_tx_body *b, struct zbc_err *err)
{
    size_t n = zbc_tx_body_size(b);
    if (n == 0)
        return zbc_fail(err, "unknown transaction type %u", (unsigned)b->type);
    if (cap < n)
        return zbc_fail(err, "output buffer of %zu bytes is too small for a %zu-byte body",
                        cap, n);
    switch (b->type) {
    case ZBC_TX_SEND:
        zbc_put_le64(out, b->u.send.amount);
        break;
    case ZBC_TX_APP_JOIN:
    case ZBC_TX_APP_RESIGN:
    case ZBC_TX_APP_CLAIM:
        zbc_put_le64(out, b->u.ref.app_id);
        break;
    case ZBC_TX_APP_CREATE: {
        const struct zbc_body_app_create *c = &b->u.create;
        if (c->has_opponent &&
            (c->opponent.type != ZBC_ACCT_ZBC || c->opponent.len != 32))
            return zbc_fail(err, "CreateApp opponent must be a ZooBC (type 0) account, got type %u",
                            c->opponent.type);
        out[0] = c->app_type;
        zbc_put_le64(out + 1, c->stake_token);
        zbc_put_le64(out + 9, c->stake);
        out[17] = c->seats;
        zbc_put_le16(out + 18, c->params_len);
        if (c->params_len)
            memcpy(out + 20, c->params, c->params_len);
        if (c->has_opponent)
            (void)zbc_addr_write(out + 20 + c->params_len, &c->opponent);
        break;
    }
    case ZBC_TX_APP_MOVE:
        zbc_put_le64(out, b->u.move.app_id);
        zbc_put_le16(out + 8, b->u.move.move_len);
        if (b->u.move.move_len)
            memcpy(out + 10, b->u.move.move, b->u.move.move_len);
        break;
    }
    *written = n;
    return 1;
}
