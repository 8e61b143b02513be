/* The transaction envelope: parse, build, digests (docs/protocol-tx.md). */
#include "consensus/tx.h"

#include <string.h>

#include <sodium.h>

#include "crypto/bytes.h"
#include "crypto/hash.h"
#include "crypto/sig.h"

/* The envelope is read with the codec's cursor (crypto/bytes.h), field
 * by field: each field's failure is reported at once, as
 * "truncated transaction: <field> needs N bytes, M left". */
static int take(struct zbc_rd *c, const uint8_t **out, size_t n,
                const char *what, struct zbc_err *err)
{
    *out = zbc_rd_take(c, n, what);
    return zbc_rd_ok(c) ? 1 : zbc_rd_err(c, err, "truncated transaction");
}

static int take_u32(struct zbc_rd *c, uint32_t *v, const char *what,
                    struct zbc_err *err)
{
    *v = zbc_rd_le32(c, what);
    return zbc_rd_ok(c) ? 1 : zbc_rd_err(c, err, "truncated transaction");
}

static int take_i64(struct zbc_rd *c, int64_t *v, const char *what,
                    struct zbc_err *err)
{
    *v = (int64_t)zbc_rd_le64(c, what);
    return zbc_rd_ok(c) ? 1 : zbc_rd_err(c, err, "truncated transaction");
}

/* A u32 length then that many bytes. */
static int take_blob(struct zbc_rd *c, const uint8_t **out, uint32_t *len,
                     const char *what, struct zbc_err *err)
{
    uint32_t n;
    if (!take_u32(c, &n, what, err))
        return 0;
    if (n > c->left)
        return zbc_fail(err, "%s length %u exceeds the %zu bytes left", what,
                        n, c->left);
    *len = n;
    return take(c, out, n, what, err);
}

static int take_addr(struct zbc_rd *c, struct zbc_addr *a, const char *what,
                     struct zbc_err *err)
{
    size_t used;
    if (!zbc_addr_read(a, c->p, c->left, &used, err))
        return zbc_fail_prefix(err, "%s", what);
    (void)zbc_rd_take(c, used, what);
    return 1;
}

/* docs/protocol-tx.md §1: absent = the empty address 02000000. */
static int take_escrow(struct zbc_rd *c, bool *has, struct zbc_escrow *e,
                       struct zbc_err *err)
{
    struct zbc_addr approver;
    const uint8_t *p;
    if (!take_addr(c, &approver, "escrow", err))
        return 0;
    if (approver.type == ZBC_ACCT_EMPTY) {
        *has = false;
        memset(e, 0, sizeof *e);
        return 1;
    }
    *has = true;
    memset(e, 0, sizeof *e);
    e->approver = approver;
    if (!take_i64(c, &e->commission, "escrow commission", err) ||
        !take_i64(c, &e->timeout, "escrow timeout", err) ||
        !take_blob(c, &e->instruction, &e->instruction_len,
                   "escrow instruction", err) ||
        !take(c, &p, 1, "escrow multi_party flag", err))
        return 0;
    e->multi_party = p[0];
    if (e->multi_party > 1)
        return zbc_fail(err, "escrow multi_party flag is %u, must be 0 or 1",
                        e->multi_party);
    if (e->multi_party == 1 &&
        (!take_blob(c, &e->cosigner_sig, &e->cosigner_sig_len,
                    "escrow co-signer signature", err) ||
         !take_i64(c, &e->request_id, "escrow request id", err)))
        return 0;
    return 1;
}

int zbc_tx_parse(struct zbc_tx *out, const uint8_t *buf, size_t len,
                 struct zbc_err *err)
{
    struct zbc_tx tx;
    struct zbc_rd c;
    const uint8_t *p;
    size_t sig_len;
    int rest;

    if (len > ZBC_TX_MAX_BYTES)
        return zbc_fail(err, "transaction is %zu bytes, more than the %u allowed",
                        len, ZBC_TX_MAX_BYTES);
    memset(&tx, 0, sizeof tx);
    zbc_rd_init(&c, buf, len);
    if (!take_u32(&c, &tx.type, "transaction type", err) ||
        !take(&c, &p, 1, "version", err))
        return 0;
    tx.version = p[0];
    if (!take_i64(&c, &tx.timestamp, "timestamp", err) ||
        !take_addr(&c, &tx.sender, "sender", err) ||
        !take_addr(&c, &tx.recipient, "recipient", err) ||
        !take_i64(&c, &tx.fee, "fee", err) ||
        !take_blob(&c, &tx.body, &tx.body_len, "body", err) ||
        !take_escrow(&c, &tx.has_escrow, &tx.escrow, err) ||
        !take_blob(&c, &tx.message, &tx.message_len, "message", err))
        return 0;
    tx.unsigned_len = len - c.left;
    if (!zbc_sig_len_for_type(tx.sender.type, &sig_len, &rest))
        return zbc_fail(err, "no signature format is known for sender account type %u",
                        tx.sender.type);
    if (rest) {
        if (c.left == 0)
            return zbc_fail(err, "truncated transaction: the signature is missing");
        if (c.left > ZBC_SIG_MAX)
            return zbc_fail(err, "signature of %zu bytes is longer than %u",
                            c.left, ZBC_SIG_MAX);
        sig_len = c.left;
    }
    if (!take(&c, &tx.sig, sig_len, "signature", err))
        return 0;
    if (c.left != 0)
        return zbc_fail(err, "%zu trailing bytes after the signature", c.left);
    tx.sig_len = sig_len;
    tx.raw = buf;
    tx.raw_len = len;
    *out = tx;
    return 1;
}

/* ---- building ---- */

static size_t addr_size(const struct zbc_addr *a)
{
    return 4 + (size_t)a->len;
}

static int check_addr(const struct zbc_addr *a, const char *what,
                      struct zbc_err *err)
{
    size_t plen;
    if (!zbc_addr_payload_len(a->type, &plen) || plen != a->len)
        return zbc_fail(err, "%s: account type %u with a %u-byte payload is not a valid address",
                        what, a->type, a->len);
    return 1;
}

int zbc_tx_unsigned_size(const struct zbc_tx *tx, size_t *size,
                         struct zbc_err *err)
{
    size_t n;
    if (!check_addr(&tx->sender, "sender", err) ||
        !check_addr(&tx->recipient, "recipient", err))
        return 0;
    /* every piece is bounded by u32 lengths, so the sum fits a size_t */
    n = 4 + 1 + 8 + addr_size(&tx->sender) + addr_size(&tx->recipient) + 8 +
        4 + tx->body_len;
    if (tx->has_escrow) {
        const struct zbc_escrow *e = &tx->escrow;
        if (!check_addr(&e->approver, "escrow approver", err))
            return 0;
        if (e->approver.type == ZBC_ACCT_EMPTY)
            return zbc_fail(err, "escrow approver must not be the empty address");
        if (e->multi_party > 1)
            return zbc_fail(err, "escrow multi_party flag is %u, must be 0 or 1",
                            e->multi_party);
        n += addr_size(&e->approver) + 8 + 8 + 4 + e->instruction_len + 1;
        if (e->multi_party == 1)
            n += 4 + (size_t)e->cosigner_sig_len + 8;
    } else {
        n += 4;
    }
    n += 4 + (size_t)tx->message_len;
    if (n > ZBC_TX_MAX_BYTES)
        return zbc_fail(err, "transaction is %zu bytes, more than the %u allowed",
                        n, ZBC_TX_MAX_BYTES);
    *size = n;
    return 1;
}

static void put_addr(struct zbc_wr *w, const struct zbc_addr *a)
{
    uint8_t b[ZBC_ADDR_BYTES_MAX];
    zbc_wr_bytes(w, b, zbc_addr_write(b, a));
}

int zbc_tx_write_unsigned(uint8_t *out, size_t cap, size_t *written,
                          const struct zbc_tx *tx, struct zbc_err *err)
{
    size_t n;
    struct zbc_wr w;
    if (!zbc_tx_unsigned_size(tx, &n, err))
        return 0;
    if (cap < n)
        return zbc_fail(err, "output buffer of %zu bytes is too small for %zu",
                        cap, n);
    zbc_wr_init(&w, out, cap);
    zbc_wr_le32(&w, tx->type);
    zbc_wr_u8(&w, tx->version);
    zbc_wr_le64(&w, (uint64_t)tx->timestamp);
    put_addr(&w, &tx->sender);
    put_addr(&w, &tx->recipient);
    zbc_wr_le64(&w, (uint64_t)tx->fee);
    zbc_wr_le32(&w, tx->body_len);
    zbc_wr_bytes(&w, tx->body, tx->body_len);
    if (tx->has_escrow) {
        const struct zbc_escrow *e = &tx->escrow;
        put_addr(&w, &e->approver);
        zbc_wr_le64(&w, (uint64_t)e->commission);
        zbc_wr_le64(&w, (uint64_t)e->timeout);
        zbc_wr_le32(&w, e->instruction_len);
        zbc_wr_bytes(&w, e->instruction, e->instruction_len);
        zbc_wr_u8(&w, e->multi_party);
        if (e->multi_party == 1) {
            zbc_wr_le32(&w, e->cosigner_sig_len);
            zbc_wr_bytes(&w, e->cosigner_sig, e->cosigner_sig_len);
            zbc_wr_le64(&w, (uint64_t)e->request_id);
        }
    } else {
        struct zbc_addr empty;
        zbc_addr_empty(&empty);
        put_addr(&w, &empty);
    }
    zbc_wr_le32(&w, tx->message_len);
    zbc_wr_bytes(&w, tx->message, tx->message_len);
    *written = n;
    return 1;
}

int zbc_tx_write(uint8_t *out, size_t cap, size_t *written,
                 const struct zbc_tx *tx, struct zbc_err *err)
{
    size_t n;
    if (tx->sig_len > ZBC_SIG_MAX)
        return zbc_fail(err, "signature of %zu bytes is longer than %u",
                        tx->sig_len, ZBC_SIG_MAX);
    if (!zbc_tx_write_unsigned(out, cap, &n, tx, err))
        return 0;
    if (cap - n < tx->sig_len)
        return zbc_fail(err, "output buffer of %zu bytes is too small for %zu",
                        cap, n + tx->sig_len);
    if (tx->sig_len)
        memcpy(out + n, tx->sig, tx->sig_len);
    *written = n + tx->sig_len;
    return 1;
}

int zbc_tx_sign_ed25519(uint8_t *out, size_t cap, size_t *written,
                        struct zbc_tx *tx, const uint8_t seed[32],
                        const uint8_t *genesis_hash, struct zbc_err *err)
{
    uint8_t pk[32], sk[64], digest[32];
    size_t n;
    zbc_ed25519_keypair(pk, sk, seed);
    zbc_addr_from_ed25519(&tx->sender, pk);
    tx->sig = NULL;
    tx->sig_len = 0;
    if (!zbc_tx_write_unsigned(out, cap, &n, tx, err))
        goto fail;
    if (cap - n < ZBC_ED25519_SIG_LEN) {
        zbc_fail(err, "output buffer of %zu bytes is too small for %zu", cap,
                 n + ZBC_ED25519_SIG_LEN);
        goto fail;
    }
    if (genesis_hash)
        zbc_tx_digest_v2(digest, genesis_hash, out, n);
    else
        zbc_tx_digest_v1(digest, out, n);
    zbc_ed25519_sign(out + n, sk, digest, sizeof digest);
    sodium_memzero(sk, sizeof sk); /* memset here is a dead store */
    *written = n + ZBC_ED25519_SIG_LEN;
    return 1;
fail:
    sodium_memzero(sk, sizeof sk); /* memset here is a dead store */
    return 0;
}

/* ---- digests ---- */

void zbc_tx_digest_v2(uint8_t out[32], const uint8_t genesis_hash[32],
                      const uint8_t *unsigned_bytes, size_t len)
{
    struct zbc_sha3 h;
    zbc_sha3_init(&h);
    zbc_sha3_update(&h, ZBC_TX_SIGNING_TAG, strlen(ZBC_TX_SIGNING_TAG));
    zbc_sha3_update(&h, genesis_hash, 32);
    zbc_sha3_update(&h, unsigned_bytes, len);
    zbc_sha3_final(&h, out);
}

void zbc_tx_digest_v1(uint8_t out[32], const uint8_t *unsigned_bytes,
                      size_t len)
{
    zbc_sha3_256(out, unsigned_bytes, len);
}

void zbc_tx_signing_digest(uint8_t out[32], const struct zbc_tx *tx,
                           const uint8_t genesis_hash[32])
{
    zbc_tx_digest_v2(out, genesis_hash, tx->raw, tx->unsigned_len);
}

void zbc_tx_hash(uint8_t out[32], const struct zbc_tx *tx)
{
    zbc_sha3_256(out, tx->raw, tx->raw_len);
}

uint64_t zbc_tx_id_from_hash(const uint8_t hash[32])
{
    return zbc_get_le64(hash);
}
