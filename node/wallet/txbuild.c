#include "node/wallet/txbuild.h"

#include <errno.h>
#include <sodium.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "consensus/tx_payload.h"
#include "crypto/bytes.h"
#include "crypto/hash.h"
#include "crypto/hex.h"
#include "crypto/sig.h"
#include "node/wallet/amount.h"
#include "node/wallet/names.h"
#include "node/wallet/out.h"

static int parse_u64(uint64_t *out, const char *what, const char *s, uint64_t max,
                     struct zbc_wfail *f)
{
    struct zbc_err err;
    if (!zbc_parse_u64(s, 0, max, out, what, &err))
        return zbc_wfail_err(f, ZBC_EXIT_USAGE, &err, NULL);
    return 1;
}

static int parse_hex_into(uint8_t *out, size_t cap, size_t *len, const char *what,
                          const char *hex, struct zbc_wfail *f)
{
    if (!zbc_hex_decode(out, cap, len, hex, strlen(hex)))
        return zbc_wfail(f, ZBC_EXIT_USAGE, "%s is not valid hex of at most %zu bytes", what, cap);
    return 1;
}

/* An address or a wallet key name (docs/wallet.md "Names"). */
static int parse_recipient(struct zbc_addr *a, const char *what, const char *text,
                           const struct zbc_opts *o, struct zbc_wfail *f)
{
    return zbc_name_resolve(a, NULL, o, text, what, f);
}

int zbc_wtx_arg_count(const char *cmd)
{
    if (strcmp(cmd, "send") == 0 || strcmp(cmd, "move") == 0)
        return 2;
    if (strcmp(cmd, "create") == 0)
        return 3;
    if (strcmp(cmd, "join") == 0 || strcmp(cmd, "resign") == 0 || strcmp(cmd, "claim") == 0)
        return 1;
    return -1;
}

int zbc_wtx_is_burn(const struct zbc_addr *a)
{
    static const uint8_t zero[32];
    return a->type == ZBC_ACCT_ZBC && a->len == 32 && memcmp(a->payload, zero, 32) == 0;
}

int zbc_wtx_check_send(const struct zbc_addr *recipient, uint64_t amount, int force,
                       struct zbc_wfail *f)
{
    if (force)
        return 1;
    if (amount == 0)
        return zbc_wfail(f, ZBC_EXIT_USAGE,
                         "amount 0 moves nothing but still pays the fee; add --force to send it "
                         "anyway");
    if (zbc_wtx_is_burn(recipient))
        return zbc_wfail(f, ZBC_EXIT_USAGE,
                         "the recipient is the burn address (the all-zero public key): nobody can "
                         "ever spend what is sent there; add --force to burn the amount");
    return 1;
}

static int body_from_args(struct zbc_wtx *w, const char *cmd, const char *const *argv,
                          const struct zbc_opts *o, struct zbc_wfail *f)
{
    struct zbc_tx_body *b = &w->body;
    struct zbc_err err;
    uint64_t v;
    if (strcmp(cmd, "send") == 0) {
        w->tx.type = ZBC_TX_SEND;
        b->type = ZBC_TX_SEND;
        if (!parse_recipient(&w->tx.recipient, "recipient", argv[0], o, f))
            return 0;
        if (!zbc_amount_parse(&b->u.send.amount, argv[1], &err))
            return zbc_wfail_err(f, ZBC_EXIT_USAGE, &err, NULL);
        return zbc_wtx_check_send(&w->tx.recipient, b->u.send.amount, o->force, f);
    }
    if (strcmp(cmd, "create") == 0) {
        struct zbc_body_app_create *c = &b->u.create;
        w->tx.type = ZBC_TX_APP_CREATE;
        b->type = ZBC_TX_APP_CREATE;
        if (!parse_u64(&v, "app type", argv[0], 255, f))
            return 0;
        c->app_type = (uint8_t)v;
        if (!zbc_amount_parse(&c->stake, argv[1], &err))
            return zbc_wfail_err(f, ZBC_EXIT_USAGE, &err, "stake");
        if (!parse_u64(&v, "seats", argv[2], 255, f))
            return 0;
        c->seats = (uint8_t)v;
        c->stake_token = 0;
        if (o->stake_token != NULL && !parse_u64(&c->stake_token, "--stake-token",
                                                 o->stake_token, UINT64_MAX, f))
            return 0;
        size_t plen = 0;
        if (o->params_hex != NULL &&
            !parse_hex_into(w->params, sizeof w->params, &plen, "--params-hex", o->params_hex, f))
            return 0;
        c->params = w->params;
        c->params_len = (uint16_t)plen;
        if (o->opponent != NULL && o->opponent[0] != '\0') {
            if (!parse_recipient(&c->opponent, "--opponent", o->opponent, o, f))
                return 0;
            if (c->opponent.type != ZBC_ACCT_ZBC)
                return zbc_wfail(f, ZBC_EXIT_USAGE, "--opponent must be a ZooBC account (ZBC_...)");
            c->has_opponent = true;
        }
        return 1;
    }
    uint64_t app_id;
    if (!parse_u64(&app_id, "app id", argv[0], UINT64_MAX, f))
        return 0;
    if (strcmp(cmd, "move") == 0) {
        w->tx.type = ZBC_TX_APP_MOVE;
        b->type = ZBC_TX_APP_MOVE;
        b->u.move.app_id = app_id;
        size_t mlen = 0;
        if (!parse_hex_into(w->move, sizeof w->move, &mlen, "move", argv[1], f))
            return 0;
        b->u.move.move = w->move;
        b->u.move.move_len = (uint16_t)mlen;
        return 1;
    }
    if (strcmp(cmd, "join") == 0) {
        w->tx.type = ZBC_TX_APP_JOIN;
        b->type = ZBC_TX_APP_JOIN;
    } else if (strcmp(cmd, "resign") == 0) {
        w->tx.type = ZBC_TX_APP_RESIGN;
        b->type = ZBC_TX_APP_RESIGN;
    } else if (strcmp(cmd, "claim") == 0) {
        w->tx.type = ZBC_TX_APP_CLAIM;
        b->type = ZBC_TX_APP_CLAIM;
    } else {
        return zbc_wfail(f, ZBC_EXIT_USAGE, "unknown transaction command '%s'", cmd);
    }
    b->u.ref.app_id = app_id;
    return 1;
}

static int escrow_from_opts(struct zbc_wtx *w, const struct zbc_opts *o, struct zbc_wfail *f)
{
    if (o->escrow_approver == NULL && o->escrow_commission == NULL &&
        o->escrow_timeout == NULL && o->escrow_instruction == NULL)
        return 1;
    if (o->escrow_approver == NULL)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "an escrow needs --escrow-approver");
    struct zbc_escrow *e = &w->tx.escrow;
    memset(e, 0, sizeof *e);
    if (!parse_recipient(&e->approver, "--escrow-approver", o->escrow_approver, o, f))
        return 0;
    uint64_t v = 0;
    if (o->escrow_commission != NULL &&
        !parse_u64(&v, "--escrow-commission", o->escrow_commission, INT64_MAX, f))
        return 0;
    e->commission = (int64_t)v;
    v = 0;
    if (o->escrow_timeout != NULL &&
        !parse_u64(&v, "--escrow-timeout", o->escrow_timeout, INT64_MAX, f))
        return 0;
    e->timeout = (int64_t)v;
    const char *ins = o->escrow_instruction != NULL ? o->escrow_instruction : "";
    size_t n = strlen(ins);
    if (n > sizeof w->instruction)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "--escrow-instruction is longer than %zu bytes",
                         sizeof w->instruction);
    memcpy(w->instruction, ins, n);
    e->instruction = w->instruction;
    e->instruction_len = (uint32_t)n;
    e->multi_party = 0;
    w->tx.has_escrow = true;
    return 1;
}

int zbc_wtx_from_args(struct zbc_wtx *w, const char *cmd, int argc,
                      const char *const *argv, const struct zbc_opts *o, int64_t now,
                      struct zbc_wfail *f)
{
    memset(w, 0, sizeof *w);
    int need = zbc_wtx_arg_count(cmd);
    if (need < 0)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "unknown transaction command '%s'", cmd);
    if (argc != need)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "%s takes %d argument%s, got %d (see zbc --help)",
                         cmd, need, need == 1 ? "" : "s", argc);
    w->tx.version = ZBC_TX_VERSION;
    w->tx.timestamp = o->have_timestamp ? o->timestamp : now;
    w->tx.fee = (int64_t)o->fee;
    zbc_addr_empty(&w->tx.recipient);
    if (!body_from_args(w, cmd, argv, o, f))
        return 0;
    size_t blen;
    struct zbc_err err;
    if (!zbc_tx_body_write(w->body_bytes, sizeof w->body_bytes, &blen, &w->body, &err))
        return zbc_wfail_err(f, ZBC_EXIT_USAGE, &err, "cannot encode the body");
    w->tx.body = w->body_bytes;
    w->tx.body_len = (uint32_t)blen;
    if (o->message != NULL) {
        size_t n = strlen(o->message);
        if (n > ZBC_TX_MESSAGE_MAX)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "--message is %zu bytes; the limit is %d", n,
                             ZBC_TX_MESSAGE_MAX);
        memcpy(w->message, o->message, n);
        w->tx.message = w->message;
        w->tx.message_len = (uint32_t)n;
    }
    return escrow_from_opts(w, o, f);
}

static void digest_for(uint8_t out[32], const struct zbc_chain_id *c, const uint8_t *u,
                       size_t n)
{
    if (c->signing_version == 2)
        zbc_tx_digest_v2(out, c->genesis, u, n);
    else
        zbc_tx_digest_v1(out, u, n);
}

/* Parses w->bytes into w->tx (pointers into w->bytes) and hashes them. */
static int finish(struct zbc_wtx *w, struct zbc_wfail *f)
{
    struct zbc_err err;
    struct zbc_tx parsed;
    if (!zbc_tx_parse(&parsed, w->bytes, w->len, &err))
        return zbc_wfail_err(f, ZBC_EXIT_USAGE, &err, "the transaction does not parse");
    w->tx = parsed;
    w->unsigned_len = parsed.unsigned_len;
    digest_for(w->digest, &w->chain, w->bytes, w->unsigned_len);
    zbc_tx_hash(w->hash, &w->tx);
    return 1;
}

int zbc_wtx_sign(struct zbc_wtx *w, const uint8_t seed[32], const struct zbc_chain_id *chain,
                 struct zbc_wfail *f)
{
    struct zbc_err err;
    size_t size;
    w->chain = *chain;
    uint8_t pk[32], sk[64];
    zbc_ed25519_keypair(pk, sk, seed);
    sodium_memzero(sk, sizeof sk); /* only the public key is needed here */
    zbc_addr_from_ed25519(&w->tx.sender, pk);
    if (!zbc_tx_unsigned_size(&w->tx, &size, &err))
        return zbc_wfail_err(f, ZBC_EXIT_USAGE, &err, "cannot encode the transaction");
    size_t cap = size + ZBC_ED25519_SIG_LEN;
    free(w->bytes);
    w->bytes = malloc(cap);
    if (w->bytes == NULL)
        return zbc_wfail(f, ZBC_EXIT_INTERNAL, "out of memory");
    if (!zbc_tx_sign_ed25519(w->bytes, cap, &w->len, &w->tx, seed,
                             chain->signing_version == 2 ? chain->genesis : NULL, &err))
        return zbc_wfail_err(f, ZBC_EXIT_INTERNAL, &err, "signing failed");
    return finish(w, f);
}

int zbc_wtx_prepare(struct zbc_wtx *w, const struct zbc_chain_id *chain, struct zbc_wfail *f)
{
    struct zbc_err err;
    size_t size;
    w->chain = *chain;
    if (!zbc_tx_unsigned_size(&w->tx, &size, &err))
        return zbc_wfail_err(f, ZBC_EXIT_USAGE, &err, "cannot encode the transaction");
    free(w->bytes);
    w->bytes = malloc(size);
    if (w->bytes == NULL)
        return zbc_wfail(f, ZBC_EXIT_INTERNAL, "out of memory");
    if (!zbc_tx_write_unsigned(w->bytes, size, &w->unsigned_len, &w->tx, &err))
        return zbc_wfail_err(f, ZBC_EXIT_INTERNAL, &err, "cannot encode the transaction");
    w->len = w->unsigned_len;
    digest_for(w->digest, chain, w->bytes, w->unsigned_len);
    return 1;
}

int zbc_wtx_attach(struct zbc_wtx *w, const uint8_t *unsigned_bytes, size_t unsigned_len,
                   const uint8_t *sig, size_t sig_len, const struct zbc_chain_id *chain,
                   struct zbc_wfail *f)
{
    memset(w, 0, sizeof *w);
    w->chain = *chain;
    w->bytes = malloc(unsigned_len + sig_len);
    if (w->bytes == NULL)
        return zbc_wfail(f, ZBC_EXIT_INTERNAL, "out of memory");
    memcpy(w->bytes, unsigned_bytes, unsigned_len);
    memcpy(w->bytes + unsigned_len, sig, sig_len);
    w->len = unsigned_len + sig_len;
    if (!finish(w, f))
        return 0;
    if (w->unsigned_len != unsigned_len)
        return zbc_wfail(f, ZBC_EXIT_USAGE,
                         "the prepared bytes and the signature do not make one transaction");
    return 1;
}

int zbc_wtx_payload(json_t **out, const struct zbc_wtx *w, struct zbc_wfail *f)
{
    struct zbc_err err;
    if (!zbc_tx_payload_build(out, &w->tx, &err))
        return zbc_wfail_err(f, ZBC_EXIT_INTERNAL, &err, "cannot build the submit payload");
    return 1;
}

int zbc_wtx_offline_json(json_t **out, const struct zbc_wtx *w, struct zbc_wfail *f)
{
    json_t *payload;
    if (!zbc_wtx_payload(&payload, w, f))
        return 0;
    json_t *o = json_object();
    json_object_set_new(o, "offline", json_true());
    json_object_set_new(o, "transaction_type", json_integer(w->tx.type));
    json_object_set(o, "sender_account_address", json_object_get(payload, "sender_account_address"));
    json_object_set(o, "recipient_account_address",
                    json_object_get(payload, "recipient_account_address"));
    json_object_set_new(o, "fee", json_integer(w->tx.fee));
    json_object_set_new(o, "timestamp", json_integer(w->tx.timestamp));
    json_object_set_new(o, "signing_version", json_integer(w->chain.signing_version));
    if (w->chain.signing_version == 2)
        json_object_set_new(o, "genesis_hash", zbc_json_hex(w->chain.genesis, 32));
    json_object_set_new(o, "body", zbc_json_hex(w->tx.body, w->tx.body_len));
    json_object_set_new(o, "unsigned_bytes", zbc_json_hex(w->bytes, w->unsigned_len));
    json_object_set_new(o, "digest", zbc_json_hex(w->digest, 32));
    json_object_set_new(o, "signature", zbc_json_hex(w->bytes + w->unsigned_len,
                                                     w->len - w->unsigned_len));
    json_object_set_new(o, "transaction_bytes", zbc_json_hex(w->bytes, w->len));
    json_object_set_new(o, "transaction_hash", zbc_json_hex(w->hash, 32));
    if (w->tx.message_len > 0) {
        json_t *m = json_stringn(w->tx.message == NULL ? "" : (const char *)w->tx.message,
                                 w->tx.message_len);
        json_object_set_new(o, "message", m != NULL ? m : json_null());
    }
    json_object_set_new(o, "payload", payload);
    *out = o;
    return 1;
}

void zbc_wtx_free(struct zbc_wtx *w)
{
    free(w->bytes);
    w->bytes = NULL;
}

int zbc_chain_id_parse(struct zbc_chain_id *c, const char *text, struct zbc_wfail *f)
{
    memset(c, 0, sizeof *c);
    if (strcmp(text, "v1") == 0 || strcmp(text, "V1") == 0) {
        c->signing_version = 1;
        return 1;
    }
    if (strlen(text) != 64 || !zbc_hex_decode_exact(c->genesis, 32, text))
        return zbc_wfail(f, ZBC_EXIT_USAGE, "--genesis must be 64 hex characters or v1, not '%s'",
                         text);
    c->signing_version = 2;
    return 1;
}
