/* Command-line options of zbc.  Options may appear anywhere; an unknown
 * option is a usage error; command-line values win over the environment
 * (ZBC_API, ZBC_TIMEOUT, ZOOBC_GENESIS_HASH, ZBC_KEY, ZBC_WALLET,
 * ZBC_PASSPHRASE). */
#ifndef ZBC_WALLET_OPTS_H
#define ZBC_WALLET_OPTS_H

#include <stdint.h>

#include "node/client/fail.h"

#define ZBC_DEFAULT_API "http://localhost:8080"
#define ZBC_DEFAULT_TIMEOUT 20
#define ZBC_DEFAULT_FEE 5000000ULL
#define ZBC_DEFAULT_WAIT 120
#define ZBC_MAX_POSITIONAL 16

struct zbc_opts {
    int json, offline, wait, help;
    int wait_included;            /* --wait=included: in a block is enough */
    const char *api;
    int timeout_s;
    int wait_s;
    const char *genesis;          /* hex or "v1"; NULL: ask the node */
    int have_timestamp;
    int64_t timestamp;
    int have_fee;
    uint64_t fee;
    const char *message;
    const char *from;             /* wallet key name */
    const char *name;             /* key new/import */
    const char *wallet_dir;
    const char *passphrase_file;
    const char *passphrase_env;
    const char *env_key;          /* ZBC_KEY */
    const char *from_address;     /* tx prepare */
    const char *prepared;         /* tx submit */
    const char *signature;        /* tx submit */
    const char *out_file;         /* tx prepare --out */
    const char *escrow_approver;
    const char *escrow_commission;
    const char *escrow_timeout;
    const char *escrow_instruction;
    const char *stake_token;      /* app create */
    const char *params_hex;       /* app create */
    const char *opponent;         /* app create */
    const char *stake;            /* app create GAME, bet */
    const char *seats;            /* app create GAME */
    const char *params;           /* app create GAME: k=v words or hex */
    const char *board;            /* app create battleship: ship cells */
    const char *client_seed;      /* bet, crash */
    const char *risk;             /* bet keno --risk classic|high */
    const char *target;           /* crash join/create: 2.5x */
    const char *blocks;           /* crash create: entry window */
    const char *game;             /* app list */
    const char *status;           /* app list */
    int open_only;                /* app list --open */
    int auto_reveal;              /* app watch */
    int force;                    /* send: amount 0, burn address */
    int version;                  /* --version */
    int mine;                     /* app list --mine */
    const char *player;           /* app list --player ADDRESS|NAME */
    const char *limit;            /* history --limit N */
    const char *cursor;           /* history --cursor C */
    int all;                      /* history --all */
    int npos;
    const char *pos[ZBC_MAX_POSITIONAL];
};

/* Parses argv[1..argc) into o; on failure f holds a usage error (o->json
 * is still set when --json appeared anywhere). */
ZBC_WUR int zbc_opts_parse(struct zbc_opts *o, int argc, char **argv,
                           struct zbc_wfail *f);

#endif
