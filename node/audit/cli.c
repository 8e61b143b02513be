/* zbc-audit's plumbing shared by its commands (cli.h): opening the
 * genesis and the source, printing a result.  The commands (zbc_audit.c's
 * replay, app.c's app) call into this file; it calls neither. */
#include "node/audit/cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crypto/hex.h"
#include "node/client/genesis_file.h"
#include "node/client/json.h"

int zbc_audit_could_not(const struct zbc_audit_opts *o, const char *msg)
{
    char clean[512]; /* the message may quote the source */
    snprintf(clean, sizeof clean, "%s", msg);
    zbc_audit_text_clean(clean);
    if (o->json) {
        json_t *j = json_pack("{s:b,s:s,s:i}", "success", 0, "error", clean,
                              "exit_code", ZBC_AUDIT_EXIT_CANNOT);
        zbc_audit_print_json(j);
    } else {
        fprintf(stderr, "zbc-audit: could not audit: %s\n", clean);
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

int zbc_audit_genesis_path(const struct zbc_audit_opts *o, char *out,
                           size_t cap, struct zbc_err *err)
{
    int n;
    if (o->genesis != NULL)
        n = snprintf(out, cap, "%s", o->genesis);
    else if (o->datadir != NULL)
        n = snprintf(out, cap, "%s/genesis.json", o->datadir);
    else
        return zbc_fail(err, "no genesis: give --genesis FILE");
    if (n < 0 || (size_t)n >= cap)
        return zbc_fail(err, "the genesis path is longer than %zu bytes",
                        cap - 1);
    if (o->genesis == NULL && access(out, F_OK) != 0)
        return zbc_fail(err,
                        "no genesis: give --genesis FILE, or put the chain's "
                        "genesis.json in the --datadir (zbcd init --genesis "
                        "copies it there): %s: %s",
                        out, strerror(errno));
    return 1;
}

int zbc_audit_open(struct zbc_audit_source *src, struct zbc_genesis *g,
                   const struct zbc_audit_opts *o, struct zbc_err *err)
{
    char gp[4096];
    if (!zbc_audit_genesis_path(o, gp, sizeof gp, err))
        return 0;
    if (!zbc_genesis_load_file(g, gp, err))
        return zbc_fail_prefix(err, "genesis %s", gp);
    int ok = o->datadir != NULL
                 ? zbc_audit_open_datadir(src, o->datadir, err)
                 : zbc_audit_open_peer(src, o->peer, o->timeout_s, err);
    if (!ok)
        zbc_genesis_free(g);
    return ok;
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
