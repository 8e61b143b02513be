/* zbc-load's workload (load_work.h, docs/load.md "Workload"). */
#include "node/bench/load_work.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/fair.h"
#include "crypto/bytes.h"
#include "crypto/hash.h"
#include "crypto/sig.h"

const char *zbc_load_kind_name(enum zbc_load_kind k)
{
    static const char *const names[ZBC_LOAD_KINDS] = {
        "transfer", "bet", "create", "join", "move",
    };
    return (unsigned)k < ZBC_LOAD_KINDS ? names[k] : "?";
}

void zbc_load_key_derive(struct zbc_load_key *k, const char *seed,
                         uint32_t index)
{
    static const char tag[] = "zbc-load sender";
    struct zbc_sha3 h;
    uint8_t idx[4], s32[32];
    zbc_put_le32(idx, index);
    zbc_sha3_init(&h);
    zbc_sha3_update(&h, tag, sizeof tag); /* with its NUL */
    zbc_sha3_update(&h, seed, strlen(seed) + 1);
    zbc_sha3_update(&h, idx, sizeof idx);
    zbc_sha3_final(&h, s32);
    zbc_ed25519_keypair(k->pk, k->sk, s32);
    zbc_addr_from_ed25519(&k->addr, k->pk);
}

ZBC_WUR int zbc_load_sign(struct zbc_load_tx *out,
                          const struct zbc_load_chain *c,
                          const struct zbc_load_key *k, uint32_t sender,
                          const struct zbc_addr *recipient,
                          const struct zbc_tx_body *body,
                          const uint8_t *message, uint32_t message_len,
                          int64_t ts, struct zbc_err *err)
{
    uint8_t body_bytes[256];
    size_t body_len;
    if (!zbc_tx_body_write(body_bytes, sizeof body_bytes, &body_len, body,
                           err))
        return 0;
    struct zbc_tx tx;
    memset(&tx, 0, sizeof tx);
    tx.type = (uint32_t)body->type;
    tx.version = ZBC_TX_VERSION;
    tx.timestamp = ts;
    tx.sender = k->addr;
    if (recipient != NULL)
        tx.recipient = *recipient;
    else
        zbc_addr_empty(&tx.recipient);
    tx.body = body_bytes;
    tx.body_len = (uint32_t)body_len;
    tx.message = message;
    tx.message_len = message_len;
    size_t ulen;
    if (!zbc_tx_unsigned_size(&tx, &ulen, err))
        return 0;
    /* the fee field has a fixed width: the size does not depend on it */
    size_t total = ulen + 64;
    uint64_t fee = c->fee_base + c->fee_per_byte * (uint64_t)total;
    tx.fee = (int64_t)fee;
    uint8_t *buf = malloc(total);
    if (buf == NULL)
        return zbc_fail(err, "out of memory signing a transaction");
    size_t w;
    if (!zbc_tx_write_unsigned(buf, total, &w, &tx, err) || w != ulen) {
        free(buf);
        return w != ulen ? zbc_fail(err, "unsigned size changed") : 0;
    }
    uint8_t digest[32];
    zbc_tx_digest_v2(digest, c->genesis, buf, ulen);
    zbc_ed25519_sign(buf + ulen, k->sk, digest, sizeof digest);
    out->bytes = buf;
    out->len = (uint32_t)total;
    zbc_sha3_256(out->hash, buf, total); /* H(unsigned || sig): zbc_tx_hash */
    out->sender = sender;
    out->app_id = 0;
    out->kind = ZBC_LOAD_SEND;
    return 1;
}

enum zbc_load_kind zbc_load_kind_of(const struct zbc_load_mix *mix,
                                    uint64_t k)
{
    /* spread each kind over the 100 slots: slot = (k * 37) % 100 visits
     * every slot once per 100 consecutive k (37 is prime to 100) */
    unsigned slot = (unsigned)((k * 37u) % 100u);
    if (slot < mix->send)
        return ZBC_LOAD_SEND;
    if (slot < mix->send + mix->bet)
        return ZBC_LOAD_BET;
    return ZBC_LOAD_CREATE;
}

ZBC_WUR int zbc_load_gen(struct zbc_load_tx *out, struct zbc_load_tx *join,
                         uint64_t k, const struct zbc_load_mix *mix,
                         const struct zbc_load_key *keys, uint32_t n_keys,
                         const struct zbc_load_chain *c, int64_t ts,
                         struct zbc_err *err)
{
    if (n_keys < 2)
        return zbc_fail(err, "the workload needs at least 2 senders");
    uint32_t s = (uint32_t)(k % n_keys);
    uint32_t next = (uint32_t)((k + 1) % n_keys);
    enum zbc_load_kind kind = zbc_load_kind_of(mix, k);
    struct zbc_tx_body body;
    memset(&body, 0, sizeof body);
    if (join != NULL)
        join->bytes = NULL;
    if (kind == ZBC_LOAD_SEND) {
        body.type = ZBC_TX_SEND;
        body.u.send.amount = 1 + k / n_keys;
        if (!zbc_load_sign(out, c, &keys[s], s, &keys[next].addr, &body,
                           NULL, 0, ts, err))
            return 0;
        out->kind = ZBC_LOAD_SEND;
        return 1;
    }
    uint8_t params[96];
    uint8_t msg[8];
    zbc_put_le64(msg, k);
    body.type = ZBC_TX_APP_CREATE;
    body.u.create.stake_token = 0;
    body.u.create.stake = ZBC_LOAD_STAKE;
    if (kind == ZBC_LOAD_BET) {
        struct zbc_bet bet;
        memset(&bet, 0, sizeof bet);
        bet.game = ZBC_BET_DICE;
        bet.direction = (uint8_t)(k & 1);
        bet.target16 = 5000;
        int n = snprintf(bet.client_seed, sizeof bet.client_seed,
                         "zbc-load %llu", (unsigned long long)k);
        bet.client_seed_len = (uint8_t)n;
        size_t plen = zbc_bet_encode(&bet, params, sizeof params);
        if (plen == 0)
            return zbc_fail(err, "dice bet params do not fit");
        body.u.create.app_type = ZBC_BET_DICE;
        body.u.create.seats = 1;
        body.u.create.params = params;
        body.u.create.params_len = (uint16_t)plen;
        if (!zbc_load_sign(out, c, &keys[s], s, NULL, &body, NULL, 0, ts,
                           err))
            return 0;
        out->kind = ZBC_LOAD_BET;
        out->app_id = zbc_tx_id_from_hash(out->hash);
        return 1;
    }
    /* a game: tic-tac-toe (type 1) or connect-4 (type 3), no params */
    body.u.create.app_type = (k / 100) % 2 == 0 ? 1 : 3;
    body.u.create.seats = 2;
    body.u.create.params = NULL;
    body.u.create.params_len = 0;
    if (!zbc_load_sign(out, c, &keys[s], s, NULL, &body, msg, sizeof msg, ts,
                       err))
        return 0;
    out->kind = ZBC_LOAD_CREATE;
    out->app_id = zbc_tx_id_from_hash(out->hash);
    if (join != NULL) {
        struct zbc_tx_body jb;
        memset(&jb, 0, sizeof jb);
        jb.type = ZBC_TX_APP_JOIN;
        jb.u.ref.app_id = out->app_id;
        if (!zbc_load_sign(join, c, &keys[next], next, NULL, &jb, NULL, 0,
                           ts, err)) {
            zbc_load_tx_free(out);
            return 0;
        }
        join->kind = ZBC_LOAD_JOIN;
        join->app_id = out->app_id;
    }
    return 1;
}

ZBC_WUR int zbc_load_move(struct zbc_load_tx *out,
                          const struct zbc_load_chain *c,
                          const struct zbc_load_key *k, uint32_t sender,
                          uint64_t app_id, const uint8_t *move, uint16_t len,
                          int64_t ts, struct zbc_err *err)
{
    struct zbc_tx_body body;
    memset(&body, 0, sizeof body);
    body.type = ZBC_TX_APP_MOVE;
    body.u.move.app_id = app_id;
    body.u.move.move = move;
    body.u.move.move_len = len;
    if (!zbc_load_sign(out, c, k, sender, NULL, &body, NULL, 0, ts, err))
        return 0;
    out->kind = ZBC_LOAD_MOVE;
    out->app_id = app_id;
    return 1;
}

void zbc_load_tx_free(struct zbc_load_tx *t)
{
    free(t->bytes);
    t->bytes = NULL;
}
