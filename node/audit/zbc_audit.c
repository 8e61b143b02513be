/* zbc-audit: replays a chain from genesis with no trust in any node and
 * reports every divergence (docs/audit.md). */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "consensus/genesis.h"
#include "crypto/bytes.h"
#include "node/client/genesis_file.h"
#include "crypto/hex.h"
#include "node/audit/cli.h"
#include "node/audit/replay.h"
#include "node/audit/report.h"
#include "node/audit/source.h"
#include "node/zbcd/json_util.h"

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void usage(FILE *out)
{
    fputs("usage:\n"
          "  zbc-audit replay (--datadir DIR | --peer http://HOST:PORT)\n"
          "                   [--genesis FILE] [--json] [--timeout S]\n"
          "  zbc-audit app ID (--datadir DIR | --peer http://HOST:PORT)\n"
          "                   [--genesis FILE] [--json] [--timeout S]\n"
          "  zbc-audit --help | --version\n"
          "--genesis defaults to DIR/genesis.json (required with --peer).\n"
          "exit: 0 no divergence, 1 divergence(s), 2 usage, 3 could not "
          "audit, 4 app not found\n",
          out);
}

static int usage_error(const struct zbc_audit_opts *o, const char *msg)
{
    if (o != NULL && o->json) {
        json_t *j = json_pack("{s:b,s:s,s:i}", "success", 0, "error", msg,
                              "exit_code", ZBC_AUDIT_EXIT_USAGE);
        zbc_audit_print_json(j);
    } else {
        fprintf(stderr, "zbc-audit: %s\n", msg);
        usage(stderr);
    }
    return ZBC_AUDIT_EXIT_USAGE;
}

static int parse_opts(struct zbc_audit_opts *o, int argc, char **argv,
                      int first)
{
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--json") == 0) {
            o->json = true;
            continue;
        }
        if (strcmp(a, "--datadir") != 0 && strcmp(a, "--peer") != 0 &&
            strcmp(a, "--genesis") != 0 && strcmp(a, "--timeout") != 0) {
            snprintf(o->bad, sizeof o->bad, "unknown option %s", a);
            return 0;
        }
        if (v == NULL) {
            snprintf(o->bad, sizeof o->bad, "%s needs a value", a);
            return 0;
        }
        i++;
        if (strcmp(a, "--datadir") == 0)
            o->datadir = v;
        else if (strcmp(a, "--peer") == 0)
            o->peer = v;
        else if (strcmp(a, "--genesis") == 0)
            o->genesis = v;
        else {
            uint64_t t;
            struct zbc_err err;
            if (!zbc_parse_u64(v, 1, 3600, &t, "--timeout", &err)) {
                snprintf(o->bad, sizeof o->bad,
                         "--timeout must be 1..3600 seconds (%s)", err.msg);
                return 0;
            }
            o->timeout_s = (int)t;
        }
    }
    if ((o->datadir == NULL) == (o->peer == NULL)) {
        snprintf(o->bad, sizeof o->bad,
                 "give exactly one of --datadir DIR and --peer URL");
        return 0;
    }
    if (o->peer != NULL && o->genesis == NULL) {
        snprintf(o->bad, sizeof o->bad,
                 "--peer needs --genesis FILE: the chain's identity comes "
                 "from the auditor, not from the node");
        return 0;
    }
    return 1;
}

static const char *const checked_per_block =
    "block decodes; height; previous hash links to the parent; producer is "
    "a validator with the claimed rank (producer order from seed(h-1)); "
    "timestamp not before the rank's slot nor 10 s ahead of the auditor's "
    "clock; tx count and size; transactions root; VRF proof and seed; "
    "producer signature; every transaction's stateless rules and "
    "signature; every transaction and scheduled app step applied by the "
    "consensus code (fees, balances, moves, rolls, payouts); state root "
    "equals the header's; money invariant (balances + pots == supply)";

static int cmd_replay(const struct zbc_audit_opts *o)
{
    struct zbc_audit_source src;
    struct zbc_genesis g;
    struct zbc_err err;
    memset(&src, 0, sizeof src);
    if (!zbc_audit_open(&src, &g, o, &err))
        return zbc_audit_could_not(o, err.msg);
    struct zbc_audit_report rep;
    struct zbc_audit_replay rp;
    memset(&rep, 0, sizeof rep);
    double t0 = mono_s();
    int ran = zbc_audit_replay(&rp, &src, &g, wall_ms(), NULL, &rep, &err);
    double secs = mono_s() - t0;
    int code;
    if (!ran) {
        code = zbc_audit_could_not(o, err.msg);
    } else {
        code = zbc_audit_clean(&rep) ? ZBC_AUDIT_EXIT_OK
                                     : ZBC_AUDIT_EXIT_DIVERGENCE;
        zbc_audit_print_summary(o, &src, &g, &rp.stats, &rep, secs,
                                checked_per_block, code);
    }
    zbc_audit_replay_free(&rp);
    zbc_audit_report_free(&rep);
    zbc_audit_source_close(&src);
    zbc_genesis_free(&g);
    return code;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage_error(NULL, "missing command");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("zbc-audit 0.1.0\n");
        return 0;
    }
    struct zbc_audit_opts o;
    memset(&o, 0, sizeof o);
    o.timeout_s = 30;
    /* --json anywhere also shapes the usage errors found before it */
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--json") == 0)
            o.json = true;
    if (strcmp(argv[1], "replay") == 0) {
        if (!parse_opts(&o, argc, argv, 2))
            return usage_error(&o, o.bad);
        return cmd_replay(&o);
    }
    if (strcmp(argv[1], "app") == 0) {
        if (argc < 3)
            return usage_error(&o, "app needs an app ID");
        uint64_t id;
        struct zbc_err err;
        if (!zbc_parse_u64(argv[2], 0, UINT64_MAX, &id, "app ID", &err))
            return usage_error(&o, "the app ID must be a decimal number below 2^64");
        if (!parse_opts(&o, argc, argv, 3))
            return usage_error(&o, o.bad);
        return zbc_audit_cmd_app(&o, (uint64_t)id);
    }
    char msg[200];
    snprintf(msg, sizeof msg, "unknown command %.100s", argv[1]);
    return usage_error(&o, msg);
}
