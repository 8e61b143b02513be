#include "node/wallet/opts.h"

#include <errno.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/bytes.h"
#include "node/wallet/amount.h"
#include "node/wallet/help.h"

enum kind { FLAG, STR, INT };

struct spec {
    const char *name;
    enum kind kind;
    size_t off;      /* offset of the int flag or the const char * field */
};

#define F(field) offsetof(struct zbc_opts, field)

static const struct spec specs[] = {
    {"--json", FLAG, F(json)},
    {"--offline", FLAG, F(offline)},
    {"--wait", FLAG, F(wait)},
    {"--force", FLAG, F(force)},
    {"--help", FLAG, F(help)},
    {"-h", FLAG, F(help)},
    {"--api", STR, F(api)},
    {"--timeout", INT, F(timeout_s)},
    {"--timeout-seconds", INT, F(timeout_s)},
    {"--wait-timeout", INT, F(wait_s)},
    {"--genesis", STR, F(genesis)},
    {"--timestamp", STR, 0},
    {"--fee", STR, 0},
    {"--message", STR, F(message)},
    {"--from", STR, F(from)},
    {"--name", STR, F(name)},
    {"--wallet", STR, F(wallet_dir)},
    {"--passphrase-file", STR, F(passphrase_file)},
    {"--from-address", STR, F(from_address)},
    {"--prepared", STR, F(prepared)},
    {"--signature", STR, F(signature)},
    {"--out", STR, F(out_file)},
    {"--escrow-approver", STR, F(escrow_approver)},
    {"--escrow-commission", STR, F(escrow_commission)},
    {"--escrow-timeout", STR, F(escrow_timeout)},
    {"--escrow-instruction", STR, F(escrow_instruction)},
    {"--stake-token", STR, F(stake_token)},
    {"--params-hex", STR, F(params_hex)},
    {"--opponent", STR, F(opponent)},
    {"--stake", STR, F(stake)},
    {"--seats", STR, F(seats)},
    {"--params", STR, F(params)},
    {"--board", STR, F(board)},
    {"--client-seed", STR, F(client_seed)},
    {"--risk", STR, F(risk)},
    {"--target", STR, F(target)},
    {"--blocks", STR, F(blocks)},
    {"--game", STR, F(game)},
    {"--status", STR, F(status)},
    {"--open", FLAG, F(open_only)},
    {"--auto-reveal", FLAG, F(auto_reveal)},
    {"--version", FLAG, F(version)},
    {"--mine", FLAG, F(mine)},
    {"--player", STR, F(player)},
    {"--limit", STR, F(limit)},
    {"--cursor", STR, F(cursor)},
    {"--all", FLAG, F(all)},
};

static int parse_int(int *out, const char *opt, const char *v, struct zbc_wfail *f)
{
    uint64_t n;
    struct zbc_err err;
    if (!zbc_parse_u64(v, 1, 86400, &n, opt, &err))
        return zbc_wfail(f, ZBC_EXIT_USAGE, "%s needs a whole number of seconds from 1 to 86400, not '%s'",
                         opt, v);
    *out = (int)n;
    return 1;
}

static int apply(struct zbc_opts *o, const struct spec *s, const char *v,
                 struct zbc_wfail *f)
{
    char *base = (char *)o;
    switch (s->kind) {
    case FLAG:
        *(int *)(base + s->off) = 1;
        return 1;
    case INT:
        return parse_int((int *)(base + s->off), s->name, v, f);
    case STR:
        break;
    }
    if (strcmp(s->name, "--timestamp") == 0) {
        uint64_t t;
        struct zbc_err err;
        if (!zbc_parse_u64(v, 0, INT64_MAX, &t, "--timestamp", &err))
            return zbc_wfail(f, ZBC_EXIT_USAGE, "--timestamp needs Unix seconds, not '%s'", v);
        o->timestamp = (int64_t)t;
        o->have_timestamp = 1;
        return 1;
    }
    if (strcmp(s->name, "--fee") == 0) {
        struct zbc_err err;
        if (!zbc_amount_parse(&o->fee, v, &err))
            return zbc_wfail_err(f, ZBC_EXIT_USAGE, &err, "--fee");
        if (o->fee > INT64_MAX)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "--fee %s is above the largest fee (2^63-1 units)", v);
        o->have_fee = 1;
        return 1;
    }
    *(const char **)(base + s->off) = v;
    return 1;
}

static const struct spec *find(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        if (strlen(specs[i].name) == len && strncmp(specs[i].name, name, len) == 0)
            return &specs[i];
    return NULL;
}

/* "unknown option '--jsn' (did you mean --json?)" */
static int unknown_option(struct zbc_wfail *f, const char *a, size_t nlen)
{
    char word[80], hint[128];
    const char *names[sizeof specs / sizeof specs[0]];
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        names[i] = specs[i].name;
    snprintf(word, sizeof word, "%.*s", (int)(nlen < 79 ? nlen : 79), a);
    zbc_suggest_text(hint, sizeof hint, word, names, sizeof specs / sizeof specs[0]);
    return zbc_wfail(f, ZBC_EXIT_USAGE, "unknown option '%s'%s (see zbc --help)", word, hint);
}

int zbc_opts_parse(struct zbc_opts *o, int argc, char **argv, struct zbc_wfail *f)
{
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--") == 0)
            break;
        else if (strcmp(argv[i], "--json") == 0)
            o->json = 1;

    const char *env;
    o->api = (env = getenv("ZBC_API")) != NULL && env[0] ? env : ZBC_DEFAULT_API;
    o->timeout_s = ZBC_DEFAULT_TIMEOUT;
    if ((env = getenv("ZBC_TIMEOUT")) != NULL && env[0] &&
        !parse_int(&o->timeout_s, "ZBC_TIMEOUT", env, f))
        return 0;
    o->wait_s = ZBC_DEFAULT_WAIT;
    o->genesis = (env = getenv("ZOOBC_GENESIS_HASH")) != NULL && env[0] ? env : NULL;
    o->env_key = (env = getenv("ZBC_KEY")) != NULL && env[0] ? env : NULL;
    o->wallet_dir = (env = getenv("ZBC_WALLET")) != NULL && env[0] ? env : NULL;
    o->passphrase_env = getenv("ZBC_PASSPHRASE");
    o->fee = ZBC_DEFAULT_FEE;

    int only_pos = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!only_pos && strcmp(a, "--") == 0) {
            only_pos = 1;
            continue;
        }
        if (!only_pos && a[0] == '-' && a[1] != '\0') {
            const char *eq = strchr(a, '=');
            size_t nlen = eq != NULL ? (size_t)(eq - a) : strlen(a);
            const struct spec *s = find(a, nlen);
            if (s == NULL)
                return unknown_option(f, a, nlen);
            const char *v = NULL;
            if (s->kind == FLAG && eq != NULL && s->off == F(wait)) {
                /* --wait=final (the default) or --wait=included */
                if (strcmp(eq + 1, "included") != 0 && strcmp(eq + 1, "final") != 0)
                    return zbc_wfail(f, ZBC_EXIT_USAGE,
                                     "--wait takes 'final' or 'included', not '%s'", eq + 1);
                o->wait_included = strcmp(eq + 1, "included") == 0;
            } else if (s->kind == FLAG) {
                if (eq != NULL)
                    return zbc_wfail(f, ZBC_EXIT_USAGE, "option %s takes no value", s->name);
            } else if (eq != NULL) {
                v = eq + 1;
            } else if (i + 1 < argc) {
                v = argv[++i];
            } else {
                return zbc_wfail(f, ZBC_EXIT_USAGE, "option %s needs a value", s->name);
            }
            if (!apply(o, s, v, f))
                return 0;
            continue;
        }
        if (o->npos == ZBC_MAX_POSITIONAL)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "too many arguments");
        o->pos[o->npos++] = a;
    }
    return 1;
}
