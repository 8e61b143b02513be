/* What zbc prints.  With --json: exactly one JSON object on stdout with
 * "success"; without: the same fields as "key: value" text.  Diagnostics
 * go to stderr. */
#ifndef ZBC_WALLET_OUT_H
#define ZBC_WALLET_OUT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "node/client/fail.h"
#include "node/client/json.h"

/* Prints a result (adds "success": true); steals obj.  Returns 0.  A
 * "_text" string member, when present, is the whole human output (and is
 * left out of the JSON); otherwise the fields print as "key: value". */
int zbc_out_success(int json, json_t *obj);

/* u64 ids as strings (docs/wallet.md "Output"): integers under
 * "app_id", "id" and "ref" become decimal text, except inside
 * "api_response" and "payload" (wire objects kept as they are).  zbc_out_success does it to every --json result. */
void zbc_out_ids_as_strings(json_t *v);

/* Prints a failure: stderr always, and the JSON error object on stdout
 * with --json.  Returns the exit code. */
int zbc_out_fail(int json, struct zbc_wfail *f);


#endif
