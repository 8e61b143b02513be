/* The zbc commands.  Each fills *result (printed by out.c) and returns 1,
 * or returns 0 with f set. */
#ifndef ZBC_WALLET_CMDS_H
#define ZBC_WALLET_CMDS_H

#include <jansson.h>
#include <stdbool.h>

#include "crypto/address.h"
#include "node/client/fail.h"
#include "node/wallet/opts.h"

typedef int (*zbc_cmd_fn)(const struct zbc_opts *o, int argc, const char *const *argv,
                          json_t **result, struct zbc_wfail *f);

int zbc_cmd_address(const struct zbc_opts *o, int argc, const char *const *argv,
                    json_t **result, struct zbc_wfail *f);
int zbc_cmd_key(const struct zbc_opts *o, int argc, const char *const *argv,
                json_t **result, struct zbc_wfail *f);
int zbc_cmd_balance(const struct zbc_opts *o, int argc, const char *const *argv,
                    json_t **result, struct zbc_wfail *f);
/* send and app create|join|move|resign|claim (argv[0] is the command). */
int zbc_cmd_transact(const struct zbc_opts *o, int argc, const char *const *argv,
                     json_t **result, struct zbc_wfail *f);
/* zbc history [ADDRESS|NAME] [--limit N] [--cursor C] [--all]
 * (cmd_history.c) */
int zbc_cmd_history(const struct zbc_opts *o, int argc, const char *const *argv,
                    json_t **result, struct zbc_wfail *f);
/* tx status|show|prepare|submit */
int zbc_cmd_tx(const struct zbc_opts *o, int argc, const char *const *argv,
               json_t **result, struct zbc_wfail *f);

/* zbc app create GAME | move ID NOTATION | show | list | watch |
 * claim-timeout (cmd_app.c); handles() says whether argv (after "app") is
 * one of these rather than a raw transaction form. */
bool zbc_cmd_app_handles(const struct zbc_opts *o, int argc, const char *const *argv);
int zbc_cmd_app(const struct zbc_opts *o, int argc, const char *const *argv,
                json_t **result, struct zbc_wfail *f);
/* zbc app watch ID [--auto-reveal] (app_watch.c) */
int zbc_app_watch(const struct zbc_opts *o, int argc, const char *const *argv,
                  json_t **result, struct zbc_wfail *f);
/* zbc app pgn ID [--out FILE] (cmd_pgn.c) */
int zbc_cmd_app_pgn(const struct zbc_opts *o, int argc, const char *const *argv,
                    json_t **result, struct zbc_wfail *f);
/* zbc bet dice|coin|roulette|limbo ... --stake X (cmd_bet.c) */
int zbc_cmd_bet(const struct zbc_opts *o, int argc, const char *const *argv,
                json_t **result, struct zbc_wfail *f);
/* "49.5" -> 4950: at most two decimals, in hundredths (cmd_bet.c). */
int zbc_hundredths_parse(uint64_t *out, const char *text);
/* --client-seed S (at most 64 characters), else 16 random hex characters
 * (cmd_bet.c); out needs 65 bytes. */
int zbc_client_seed_pick(char *out, uint8_t *len, const struct zbc_opts *o,
                         struct zbc_wfail *f);
/* zbc crash create|join|show (cmd_crash.c) */
int zbc_cmd_crash(const struct zbc_opts *o, int argc, const char *const *argv,
                  json_t **result, struct zbc_wfail *f);
/* zbc verify APP (cmd_verify.c) */
int zbc_cmd_verify(const struct zbc_opts *o, int argc, const char *const *argv,
                   json_t **result, struct zbc_wfail *f);

/* zbc bot ... (cmd_bot.c): false when argv is not a bot command; else it
 * parses its own options and the wallet's, runs until done or a signal,
 * prints its summary and sets *code to the exit code. */
bool zbc_bot_command(int argc, char **argv, int *code);

/* Every text form of a typed address (shared by address and key show). */
json_t *zbc_addr_forms_json(const struct zbc_addr *a);

#endif
