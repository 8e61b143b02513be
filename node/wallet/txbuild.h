/* Building and signing one transaction in the wallet, and the fields zbc
 * prints about it (docs/wallet.md "Output").  The envelope, bodies, digests and
 * payload come from consensus/ (tx.h, tx_body.h, tx_payload.h); this file
 * only puts them together. */
#ifndef ZBC_WALLET_TXBUILD_H
#define ZBC_WALLET_TXBUILD_H

#include <jansson.h>
#include <stdint.h>

#include "consensus/tx.h"
#include "consensus/tx_body.h"
#include "node/client/fail.h"
#include "node/wallet/opts.h"

/* Which chain a signature is for. */
struct zbc_chain_id {
    int signing_version;   /* 1 (bare digest) or 2 (bound to genesis) */
    uint8_t genesis[32];   /* meaningful when signing_version == 2 */
};

/* A built transaction: envelope fields plus its bytes once signed. */
struct zbc_wtx {
    struct zbc_tx tx;                 /* fields; body/message point below */
    struct zbc_tx_body body;
    uint8_t body_bytes[ZBC_TX_BODY_MAX];
    uint8_t message[ZBC_TX_MESSAGE_MAX];
    uint8_t instruction[256];
    uint8_t params[65535];            /* CreateApp params (u16 length) */
    uint8_t move[65535];              /* AppMove move bytes (u16 length) */
    uint8_t *bytes;                   /* owned: unsigned || signature */
    size_t len;
    size_t unsigned_len;
    uint8_t digest[32];
    uint8_t hash[32];
    struct zbc_chain_id chain;
    bool retime; /* the wallet chose the timestamp: zbc_submit refuses an
                  * identical pooled copy, and the caller sends it again a
                  * second later (docs/wallet.md "Sending") */
};

/* Fills w->tx from the command's positionals (after the key, if any):
 *   send RECIPIENT AMOUNT
 *   app create APP_TYPE STAKE SEATS   [--stake-token N --params-hex H --opponent A]
 *   app join|resign|claim APP_ID
 *   app move APP_ID MOVE_HEX
 * cmd is "send" or "create"/"join"/"move"/"resign"/"claim"; the envelope
 * options (--fee, --timestamp, --message, --escrow-*) come from o.
 * sender is set by the caller (or by signing). */
ZBC_WUR int zbc_wtx_from_args(struct zbc_wtx *w, const char *cmd, int argc,
                              const char *const *argv, const struct zbc_opts *o,
                              int64_t now, struct zbc_wfail *f);

/* Number of positional arguments cmd takes (without a key). */
int zbc_wtx_arg_count(const char *cmd);

/* Signs as the ZooBC account of seed for the chain; sets bytes, digest,
 * hash. */
ZBC_WUR int zbc_wtx_sign(struct zbc_wtx *w, const uint8_t seed[32],
                         const struct zbc_chain_id *chain, struct zbc_wfail *f);

/* Writes the unsigned bytes (for a foreign sender, already set in w->tx)
 * and the digest, without a signature. */
ZBC_WUR int zbc_wtx_prepare(struct zbc_wtx *w, const struct zbc_chain_id *chain,
                            struct zbc_wfail *f);

/* Appends a signature to prepared unsigned bytes, parses the result and
 * computes the hash. */
ZBC_WUR int zbc_wtx_attach(struct zbc_wtx *w, const uint8_t *unsigned_bytes,
                           size_t unsigned_len, const uint8_t *sig,
                           size_t sig_len, const struct zbc_chain_id *chain,
                           struct zbc_wfail *f);

/* The JSON object POST /api/v1/transactions takes (docs/api.md §3). */
ZBC_WUR int zbc_wtx_payload(json_t **out, const struct zbc_wtx *w,
                            struct zbc_wfail *f);

/* The --offline object of docs/wallet.md "Output" (without "success"). */
ZBC_WUR int zbc_wtx_offline_json(json_t **out, const struct zbc_wtx *w,
                                 struct zbc_wfail *f);

void zbc_wtx_free(struct zbc_wtx *w);

/* Parses --genesis text: 64 hex (version 2) or "v1". */
ZBC_WUR int zbc_chain_id_parse(struct zbc_chain_id *c, const char *text,
                               struct zbc_wfail *f);

/* Whether a is the burn address (docs/wallet.md "Sending"): the ZooBC
 * account with the all-zero public key, a small-order point libsodium
 * refuses as a signer, so nobody can ever spend from it. */
int zbc_wtx_is_burn(const struct zbc_addr *a);

/* zbc send's guard: amount 0 or the burn address is a usage error
 * naming the reason, unless force (--force). */
ZBC_WUR int zbc_wtx_check_send(const struct zbc_addr *recipient, uint64_t amount, int force,
                               struct zbc_wfail *f);

#endif
