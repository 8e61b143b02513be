/* The node's HTTP API as the wallet uses it (docs/api.md), and the
 * classification of a node's error reply into an exit code (docs/wallet.md
 * "Exit codes"). */
#ifndef ZBC_WALLET_CLIENT_H
#define ZBC_WALLET_CLIENT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "node/client/fail.h"

struct zbc_client {
    const char *url;   /* base URL */
    int timeout_s;     /* deadline of each call (the whole exchange) */
    size_t max_reply;  /* cap on a reply body; 0: ZBC_HTTP_REPLY_MAX */
};

/* Exit code for a node reply with this HTTP status and error text (the
 * "error" field, or the whole body when it is not JSON), per docs/wallet.md
 * "Exit codes":
 * 5xx node_busy; "fee too low"; "insufficient balance" / "insufficient
 * spendable" / "account does not exist"; "not found" / "unknown token" /
 * "unknown or expired token" / "unknown app"; any other status rejected. */
enum zbc_exit zbc_client_classify(int status, const char *text);

/* GET (body NULL) or POST (body a JSON text) path.  On a 2xx reply *out
 * gets the parsed JSON object and 1 is returned.  Otherwise 0: f carries
 * the exit code, the node's error sentence, http_code and the reply
 * verbatim in api_response (a JSON value, or a string when the body was not
 * JSON). */
ZBC_WUR int zbc_client_call(const struct zbc_client *api, const char *path,
                         const char *body, json_t **out, struct zbc_wfail *f);

/* GET /api/v1/node/info: the chain's genesis hash (32 bytes) and signing
 * version (1 or 2).  A version-2 node without a 32-byte genesis hash is an
 * error. */
ZBC_WUR int zbc_client_genesis(const struct zbc_client *api, uint8_t genesis[32],
                            int *signing_version, struct zbc_wfail *f);

/* A 2xx reply of the wrong shape: f gets exit internal ("a node reply
 * that makes no sense", docs/wallet.md "Exit codes") with err's sentence,
 * http_code 200 and the reply (owned from here on) as api_response.
 * Returns 0. */
int zbc_client_bad_reply(struct zbc_wfail *f, json_t *reply,
                         const struct zbc_err *err);

/* The shape of GET /api/v1/transactions/<hash>[/status] (docs/api.md §4,
 * §5): "transaction_hash" equal to hash_hex (either case), "status"
 * "mempool", "confirmed" or "dropped" (with a "reason" string and
 * "dropped_at" a height when present; *confirmed false); when confirmed, "block_height" in
 * 1..2^32-1 and, when present, "applied" a boolean (false: a no-op with a
 * string "noop_reason").  *confirmed and *height (0 in the mempool) are
 * set. */
ZBC_WUR int zbc_client_check_tx(const json_t *reply, const char *hash_hex,
                                bool *confirmed, uint32_t *height,
                                struct zbc_err *err);

/* Whether a checked transaction reply is "status": "dropped" (the node
 * evicted it from its pool: expired, replaced, invalid after a block,
 * pool full); *reason borrows the reply, *at is "dropped_at" (0 when
 * absent). */
bool zbc_client_tx_dropped(const json_t *reply, const char **reason, uint32_t *at);

/* f gets "dropped: REASON (transaction H left the node's pool at block N
 * and will not be applied; ...)" with the class of the reason's text
 * (zbc_client_classify: e.g. insufficient balance 4, else rejected 6)
 * and the reply (owned from here on) as api_response.  Returns 0. */
int zbc_client_fail_dropped(struct zbc_wfail *f, json_t *reply, const char *hash);

/* The shape of GET /api/v1/accounts/<address> (docs/api.md §6):
 * "balance" a u64 (integer or decimal string), "spendable_balance" a u64
 * when present. */
ZBC_WUR int zbc_client_check_balance(const json_t *reply, uint64_t *balance,
                                     struct zbc_err *err);

#endif
