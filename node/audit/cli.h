/* zbc-audit's command-line plumbing shared by its commands (cli.c; used
 * by zbc_audit.c and app.c, and calling neither). */
#ifndef ZBC_AUDIT_CLI_H
#define ZBC_AUDIT_CLI_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "apps/engine.h"
#include "consensus/genesis.h"
#include "node/audit/replay.h"
#include "node/audit/report.h"
#include "node/audit/source.h"

/* Exit codes (docs/audit.md "Exit codes"). */
enum zbc_audit_exit {
    ZBC_AUDIT_EXIT_OK = 0,         /* everything checked, no divergence */
    ZBC_AUDIT_EXIT_DIVERGENCE = 1, /* at least one divergence */
    ZBC_AUDIT_EXIT_USAGE = 2,      /* bad command line */
    ZBC_AUDIT_EXIT_CANNOT = 3,     /* source or genesis unreadable */
    ZBC_AUDIT_EXIT_NOT_FOUND = 4,  /* app: no such app on the chain */
};

struct zbc_audit_opts {
    const char *datadir;
    const char *peer;
    const char *genesis;
    bool json;
    int timeout_s;
    char bad[200];
};

/* The genesis file to load: --genesis, else DIR/genesis.json of
 * --datadir when it exists (zbcd init --genesis copies it there); fails
 * naming both options when neither is there (docs/audit.md §1). */
ZBC_WUR int zbc_audit_genesis_path(const struct zbc_audit_opts *o, char *out,
                                   size_t cap, struct zbc_err *err);
/* Loads the genesis (zbc_audit_genesis_path) and opens the source. */
ZBC_WUR int zbc_audit_open(struct zbc_audit_source *src, struct zbc_genesis *g,
                           const struct zbc_audit_opts *o,
                           struct zbc_err *err);
/* Prints "could not audit" and returns ZBC_AUDIT_EXIT_CANNOT. */
int zbc_audit_could_not(const struct zbc_audit_opts *o, const char *msg);
/* Prints and frees j. */
void zbc_audit_print_json(json_t *j);
void zbc_audit_print_summary(const struct zbc_audit_opts *o,
                             const struct zbc_audit_source *src,
                             const struct zbc_genesis *g,
                             const struct zbc_audit_stats *st,
                             const struct zbc_audit_report *rep, double secs,
                             const char *checks, int code);

/* zbc-audit app ID (app.c). */
int zbc_audit_cmd_app(const struct zbc_audit_opts *o, uint64_t id);

/* What each seat is paid at an app's ending by the rules
 * (docs/protocol-apps.md §3), as the auditor recomputes it: reason = the
 * app_end reason; loser = its data byte; seated = seats taken at the end;
 * out_mask = the seats out of play on the auditor's own board; win_seat
 * = the winner of a "win"; net = what was paid in minus the rule's rake.
 * Fills want[] and *winner (the one seat that took the pot, else 0xff);
 * false for endings without a per-seat rule (abandoned, bets). */
bool zbc_audit_app_payouts(const char *reason, uint8_t loser, unsigned seats,
                           unsigned seated, uint64_t stake, uint8_t out_mask,
                           uint8_t win_seat, uint64_t net,
                           uint64_t want[ZBC_SEATS_MAX], uint8_t *winner);

#endif
