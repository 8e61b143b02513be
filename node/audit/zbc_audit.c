/* zbc-audit: replays a chain from genesis with no trust in any node and
 * reports every divergence (SPEC §0 "Auditors", §8; docs/audit.md). */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "consensus/genesis.h"
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

int zbc_audit_could_not(const struct zbc_audit_opts *o, const char *msg)
{
    if (o->json) {
        json_t *j = json_pack("{s:b,s:s,s:i}", "success", 0, "error", msg,
                              "exit_code", ZBC_AUDIT_EXIT_CANNOT);
        zbc_audit_print_json(j);
    } else {
        fprintf(stderr, "zbc-audit: could not audit: %s\n", msg);
    }
    return ZBC_AUDIT_EXIT_CANNOT;
}

void zbc_audit_print_json(json_t *j)
{
    if (j == NULL) {
        fputs("{\"success\":false,\"error\":\"out of memory\"}\n", stdout);
        return;
    }
    char *s = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    if (s != NULL)
        printf("%s\n", s);
    free(s);
    json_decref(j);
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
            char *end;
            long t = strtol(v, &end, 10);
            if (*end != '\0' || t < 1 || t > 3600) {
                snprintf(o->bad, sizeof o->bad,
                         "--timeout must be 1..3600 seconds");
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

int zbc_audit_open(struct zbc_audit_source *src, struct zbc_genesis *g,
                   const struct zbc_audit_opts *o, struct zbc_err *err)
{
    char gpath[4096];
    const char *gp = o->genesis;
    if (gp == NULL) {
        snprintf(gpath, sizeof gpath, "%s/genesis.json", o->datadir);
        gp = gpath;
    }
    if (!zbc_genesis_load_file(g, gp, err))
        return zbc_fail_prefix(err, "genesis %s", gp);
    int ok = o->datadir != NULL
                 ? zbc_audit_open_datadir(src, o->datadir, err)
                 : zbc_audit_open_peer(src, o->peer, o->timeout_s, err);
    if (!ok)
        zbc_genesis_free(g);
    return ok;
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

void zbc_audit_print_summary(const struct zbc_audit_opts *o,
                             const struct zbc_audit_source *src,
                             const struct zbc_genesis *g,
                             const struct zbc_audit_stats *st,
                             const struct zbc_audit_report *rep, double secs,
                             const char *checks, int code)
{
    char gh[65];
    zbc_hex_encode(gh, g->hash, 32);
    const char *end = src->ops->check_indexes != NULL
                          ? "ledger tip record; every stored state table "
                            "entry equals the replay; stored events, undo "
                            "records, block-hash and transaction indexes at "
                            "every height"
                          : "served tip hash and state root; served events "
                            "at every height";
    if (o->json) {
        json_t *j = json_pack(
            "{s:b,s:i,s:s,s:s,s:s,s:I,s:I,s:b,s:I,s:I,s:I,s:I,s:I,s:I,s:f,"
            "s:s,s:s,s:I,s:o}",
            "success", code == ZBC_AUDIT_EXIT_OK, "exit_code", code,
            "source", src->name, "chain_name", g->chain_name, "genesis_hash",
            gh, "source_height", (json_int_t)st->source_height,
            "heights_checked", (json_int_t)st->checked, "complete",
            st->complete, "transactions", (json_int_t)st->txs,
            "app_transactions", (json_int_t)st->app_txs, "apps_created",
            (json_int_t)st->apps_created, "events", (json_int_t)st->events,
            "events_compared_heights", (json_int_t)st->events_compared,
            "undo_compared_heights", (json_int_t)st->undo_compared, "seconds",
            secs, "checked_per_block", checks, "checked_at_end", end,
            "divergence_count", (json_int_t)rep->total, "divergences",
            zbc_audit_divergences_json(rep));
        json_t *ids = json_array();
        for (uint64_t i = 0; st->app_ids != NULL && i < st->apps_created; i++)
            json_array_append_new(ids, zbc_json_u64(st->app_ids[i]));
        json_object_set_new(j, "app_ids", ids);
        zbc_audit_print_json(j);
        return;
    }
    printf("zbc-audit: %s, chain %s, genesis %s\n", src->name,
           g->chain_name, gh);
    printf("heights checked: 1..%u of %u (%s)\n", st->checked,
           st->source_height,
           st->complete ? "complete" : "STOPPED: later heights not checked");
    printf("transactions: %llu (app transactions %llu, apps created %llu)\n",
           (unsigned long long)st->txs, (unsigned long long)st->app_txs,
           (unsigned long long)st->apps_created);
    if (st->app_ids != NULL && st->apps_created > 0) {
        printf("apps (zbc-audit app ID shows one):");
        for (uint64_t i = 0; i < st->apps_created && i < 20; i++)
            printf(" %llu", (unsigned long long)st->app_ids[i]);
        printf("%s\n", st->apps_created > 20 ? " ..." : "");
    }
    printf("events: %llu replayed; the source's events compared at %u "
           "heights, undo records at %u\n",
           (unsigned long long)st->events, st->events_compared,
           st->undo_compared);
    printf("checked per block: %s\n", checks);
    if (st->complete)
        printf("checked at the end: %s\n", end);
    printf("time: %.3f s\n", secs);
    zbc_audit_print_divergences(stdout, rep);
    if (code == ZBC_AUDIT_EXIT_OK)
        printf("result: OK, no divergence\n");
    else
        printf("result: %zu DIVERGENCE(S)\n", rep->total);
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
        char *end;
        errno = 0;
        unsigned long long id = strtoull(argv[2], &end, 10);
        if (argv[2][0] < '0' || argv[2][0] > '9' || *end != '\0' ||
            errno == ERANGE)
            return usage_error(&o, "the app ID must be a decimal number below 2^64");
        if (!parse_opts(&o, argc, argv, 3))
            return usage_error(&o, o.bad);
        return zbc_audit_cmd_app(&o, (uint64_t)id);
    }
    char msg[200];
    snprintf(msg, sizeof msg, "unknown command %.100s", argv[1]);
    return usage_error(&o, msg);
}
