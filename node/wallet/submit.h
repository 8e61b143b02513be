/* Submitting a signed transaction and following it (docs/api.md §3, §5). */
#ifndef ZBC_WALLET_SUBMIT_H
#define ZBC_WALLET_SUBMIT_H

#include <jansson.h>

#include "node/client/fail.h"
#include "node/wallet/opts.h"
#include "node/wallet/txbuild.h"

/* POSTs the payload; checks the node's transaction_hash equals ours;
 * result: transaction_hash, transaction_type, sender_account_address,
 * recipient_account_address, fee, timestamp, api_response (and with
 * o->wait: status "confirmed" and block_height, or a timeout failure). */
ZBC_WUR int zbc_submit(json_t **result, const struct zbc_wtx *w,
                       const struct zbc_opts *o, struct zbc_wfail *f);

/* Polls GET /api/v1/transactions/<hash>/status until "confirmed" and
 * "final" (docs/protocol-chain.md §8.9; only "confirmed" with
 * o->wait_included, or a no-op inclusion) or o->wait_s seconds pass
 * (timeout).  *status_out gets the last reply. */
ZBC_WUR int zbc_wait_confirmed(json_t **status_out, const char *hash_hex,
                               const struct zbc_opts *o, struct zbc_wfail *f);

/* The chain to sign for: --genesis, else GET /api/v1/node/info (offline:
 * --genesis is required). */
ZBC_WUR int zbc_chain_for(struct zbc_chain_id *c, const struct zbc_opts *o,
                          struct zbc_wfail *f);

#endif
