/* The human view of an app (zbc app show / watch): header, seats, money,
 * clock, the engine's board, the last history entries, the result. */
#ifndef ZBC_WALLET_APP_VIEW_H
#define ZBC_WALLET_APP_VIEW_H

#include <jansson.h>
#include <stdint.h>

struct zbc_names;

/* malloc'ed text of the app view (GET /api/v1/apps/<id>); me = the
 * caller's address text ("" when unknown), marked "(you)"; names (NULL:
 * none) puts the wallet's key name after each seat it holds; the params
 * in the game's words ("params: cash=1"); an optional "expires_at" (set by
 * the caller from node/info open_deadline) gives an Open app's expiry
 * line; block_time_ms
 * (GET /api/v1/node/info, 0 when unknown) turns the clock's blocks into
 * time.  Amounts in ZBC, the result in words, dice as faces
 * (node/wallet/result_text.h).  NULL when out of memory. */
char *zbc_app_view_text(const json_t *app, const char *me, uint64_t block_time_ms,
                        const struct zbc_names *names);

/* The clock line of an app with a clock holder: "to move: seat 1 (you),
 * deadline block 264 (in 16 blocks, ≈ 16 s)[, timeout claimable]"; -1
 * (out "") when nobody holds the clock or cap is too small. */
int zbc_app_clock_line(const json_t *app, const char *me, uint64_t block_time_ms, char *out,
                       size_t cap);

#endif
