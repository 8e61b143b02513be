/* zbc history (docs/wallet.md "History"): the text line of one entry of
 * GET /api/v1/accounts/<address>/history, pure so it can be unit-tested. */
#ifndef ZBC_WALLET_HISTORY_H
#define ZBC_WALLET_HISTORY_H

#include <jansson.h>
#include <stddef.h>

#include "node/wallet/names.h"

/* The shape of one entry (docs/api.md): "kind" a string, "height" a
 * block height, "timestamp" ms (optional), "amount" and "ref" u64,
 * "from"/"to" a string or null, "seat" null or 0..255, "reason" and
 * "data" (hex) strings when present.  1, or 0 with err naming the field. */
ZBC_WUR int zbc_history_check_entry(const json_t *e, struct zbc_err *err);

/* One line (no newline) for a person: height, UTC time, and the event in
 * words with amounts in ZBC, seen from `self` (the account's ZBC_ text);
 * other accounts by their wallet name when nm knows them.  game (may be
 * NULL) is the app's game name when known: a dice game's app_move shows
 * the die faces its rolls gave.  The entry must have passed
 * zbc_history_check_entry. */
void zbc_history_line(char *out, size_t cap, const json_t *e, const char *self,
                      const struct zbc_names *nm, const char *game);

#endif
