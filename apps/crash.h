/* Crash rounds (docs/games.md "Crash", docs/protocol-apps.md §12): the pure
 * rules — the bytes of a round's params and of an entry, each entry's
 * return and the crash point.  Exact integers; no I/O.
 *
 *   CreateApp params (type 36, seats 1, no opponent):
 *     window u16 LE (1..ZBC_CRASH_WINDOW_MAX) | target u32 LE |
 *     client_seed_len u8 | client_seed (printable ASCII, <= 64)
 *     target = the creator's own entry (hundredths, >= 101) with the
 *     CreateApp stake, or 0 with stake 0: the creator does not enter.
 *   Entry = AppMove move bytes: stake u64 LE | target u32 LE (12 bytes).
 *   return = floor(stake x target / 100) when target <= crash point, else 0.
 *   crash point (hundredths) = floor(99 x 2^32 / (u_0 + 256)) of the
 *     stream (server_seed = hex seed of block close + 1, client seed,
 *     nonce = app id): apps/fair_events.h zbc_fair_crash. */
#ifndef ZBC_CRASH_H
#define ZBC_CRASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "apps/fair.h"
#include "crypto/err.h"

#define ZBC_CRASH_TYPE 36
#define ZBC_CRASH_WINDOW_MAX 1000   /* blocks of a round's entry window */
#define ZBC_CRASH_ENTRIES_MAX 256   /* entries per round, the creator's too */
#define ZBC_CRASH_TARGET_MIN 101    /* 1.01x */
#define ZBC_CRASH_ENTRY_BYTES 12    /* stake u64 | target u32 */

struct zbc_crash_params {
    uint16_t window;   /* entries at heights created .. created + window */
    uint32_t target;   /* creator's entry target, 0 = no creator entry */
    uint8_t client_seed_len;
    char client_seed[ZBC_CLIENT_SEED_MAX + 1];
};

/* Parses and checks the params (target 0 or >= 101).  Whether the
 * CreateApp stake fits the target (stake 0 exactly when target is 0, the
 * return fits u64) is an applicability rule: zbc_crash_check_stake. */
ZBC_WUR int zbc_crash_parse(struct zbc_crash_params *p, const uint8_t *params,
                            size_t len, struct zbc_err *err);
/* The creator's stake against its target: 0 with the reason when they do
 * not fit (docs/protocol-apps.md §12). */
ZBC_WUR int zbc_crash_check_stake(const struct zbc_crash_params *p,
                                  uint64_t stake, struct zbc_err *err);
/* Stateless CreateApp rules of type 36 (zbc_app_check_create): seats 1, no
 * opponent, params accepted by zbc_crash_parse. */
ZBC_WUR int zbc_crash_check_create(uint8_t seats, const uint8_t *params,
                                   size_t len, bool has_opponent,
                                   struct zbc_err *err);
/* Writes the params; returns the length (cap >= 7 + 64), 0 when short. */
size_t zbc_crash_encode(const struct zbc_crash_params *p, uint8_t *out,
                        size_t cap);

/* An entry's move bytes: exactly 12, stake >= 1, target >= 101. */
ZBC_WUR int zbc_crash_parse_entry(const uint8_t *move, size_t len,
                                  uint64_t *stake, uint32_t *target,
                                  struct zbc_err *err);
void zbc_crash_encode_entry(uint8_t out[ZBC_CRASH_ENTRY_BYTES], uint64_t stake,
                            uint32_t target);

/* floor(stake x target / 100); 0 with err when it does not fit u64. */
ZBC_WUR int zbc_crash_max_return(uint64_t stake, uint32_t target,
                                 uint64_t *out, struct zbc_err *err);

/* The crash point in hundredths and u_0 of the round's stream. */
uint32_t zbc_crash_point(const char *server_seed, const char *client_seed,
                         uint64_t app_id, uint32_t *u0);

#endif
