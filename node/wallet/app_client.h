/* What the wallet's app commands share (docs/wallet.md "Apps"): reading
 * an app and blocks from the node, the caller's account and seat, the
 * engine state of an app, sending an app transaction through the same
 * path as `zbc app create|join|move|...` with raw arguments, and the
 * secret files of commit-reveal games. */
#ifndef ZBC_WALLET_APP_CLIENT_H
#define ZBC_WALLET_APP_CLIENT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "apps/engine.h"
#include "crypto/address.h"
#include "node/client/fail.h"
#include "node/wallet/opts.h"

/* GET /api/v1/apps/<id> (id as typed: decimal).  Unknown app: exit 7. */
ZBC_WUR int zbc_app_fetch(json_t **app, const struct zbc_opts *o,
                          const char *id, struct zbc_wfail *f);
/* The shape of an app summary (docs/api.md §10; an entry of GET
 * /api/v1/apps) or, with full, of GET /api/v1/apps/<id>: "id" a decimal
 * string (equal to id when id is not NULL), "type" 0..255, "game" and
 * "status" (open, active, finished, abandoned) strings, "seats" 1..255,
 * "seated" 0..seats, "stake", "moves" and "created" whole numbers,
 * "players" an array of objects with "seat" < seats and an "address"
 * string; full adds "state_hex" a string, "history" an array and
 * "result" null or an object. */
ZBC_WUR int zbc_app_check_view(const json_t *app, const char *id, bool full,
                               struct zbc_err *err);

/* The further fields `zbc verify` reads from a full app view (checked by
 * zbc_app_check_view already): "params_hex" a string, "joined" null or a
 * height; every history entry an object with "kind" a string, "seq" and
 * "height" (0..2^32-1); an app_move entry with "seat" 0..255, "move_hex"
 * and "tx_hash" strings, "rolls_hex" a string and "roll_bytes_used" a
 * whole number when present; an app_activate entry with "seat" null or
 * 0..255; a bet_settle entry with "u" and "value" 0..2^32-1, "win" a
 * boolean and "amount"; a "result" object with "ending" a string, "rake",
 * "winner" null or 0..255, and "payouts" an array of objects with "seat"
 * null (the fund's escrow) or 0..255, "amount" and "reason" a string. */
ZBC_WUR int zbc_app_check_verify(const json_t *app, struct zbc_err *err);

/* node/info "block_time_ms" (docs/api.md §2), 0 when the node does not
 * answer, says nothing usable or runs automine (its blocks do not come
 * with time): the clock is then shown in blocks only. */
uint64_t zbc_app_block_time_ms(const struct zbc_opts *o);
/* The same, and node/info "open_deadline" in *open_deadline (0 when the
 * node does not say; docs/protocol-apps.md §5: an Open app expires at
 * created + open_deadline). */
uint64_t zbc_app_chain_times(const struct zbc_opts *o, uint64_t *open_deadline);

/* Waits (up to --wait-timeout) until app id's history holds an entry of
 * one of kinds (NULL-terminated; with tx_hash when not NULL): a pending
 * dice move applied or discarded, a bet settled.  *app the app view then,
 * *entry inside it.  Exit 8 on time. */
ZBC_WUR int zbc_app_wait_entry(json_t **app, const json_t **entry, const struct zbc_opts *o,
                               const char *id, const char *const *kinds, const char *tx_hash,
                               struct zbc_wfail *f);

/* GET /api/v1/blocks/<height> "seed" (32 bytes). */
ZBC_WUR int zbc_app_block_seed(uint8_t seed[32], const struct zbc_opts *o,
                               uint32_t height, struct zbc_wfail *f);

/* The account that signs: --from NAME, ZBC_KEY, else the wallet's
 * default key (the same choice as the raw transaction commands). */
ZBC_WUR int zbc_app_caller(struct zbc_addr *a, char text[ZBC_ADDR_TEXT_MAX],
                           const struct zbc_opts *o, struct zbc_wfail *f);
/* The caller's seat in the app view, or -1. */
int zbc_app_seat_in(const json_t *app, const char *addr_text);

/* The engine and decoded state of an app view (state_hex); fails (exit
 * rejected) for a solo bet or an app that has not started. */
ZBC_WUR int zbc_app_state(const struct zbc_engine **e,
                          struct zbc_game_state *st, const json_t *app,
                          struct zbc_wfail *f);

/* Signs and submits one app transaction exactly as `zbc app CMD ARGS...`
 * does (cmd: create, join, move, resign, claim), with params_hex for
 * create.  *result as that command prints it, plus "app_id". */
ZBC_WUR int zbc_app_send(json_t **result, const struct zbc_opts *o,
                         const char *cmd, int argc, const char *const *argv,
                         const char *params_hex, struct zbc_wfail *f);

/* The app id of a CreateApp transaction hash (hex): first 8 bytes LE. */
uint64_t zbc_app_id_of_hash(const uint8_t hash[32]);

/* Secret file <wallet>/apps/<app id>-<owner address>.json (mode 0600,
 * directory 0700): a JSON object the game's commands define.  Keyed by
 * the owner too, so one wallet can hold both seats of a game. */
ZBC_WUR int zbc_app_secret_save(const struct zbc_opts *o, uint64_t app_id,
                                const char *owner, json_t *secret,
                                struct zbc_wfail *f);
/* 0: the file cannot be read or is not a JSON object (f says why).
 * 1: *found says whether there is a file; *secret is its object when
 * found, else NULL. */
ZBC_WUR int zbc_app_secret_load(const struct zbc_opts *o, uint64_t app_id,
                                const char *owner, json_t **secret,
                                bool *found, struct zbc_wfail *f);

/* Parses a decimal u64 (app ids). */
ZBC_WUR int zbc_app_parse_id(uint64_t *id, const char *text);

#endif
