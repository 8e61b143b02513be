/* zbc: the command-line wallet.  Parses options (anywhere), dispatches to a
 * command, prints one result (JSON with --json) and exits with the code of
 * the ZooBC CLI contract (docs/wallet.md). */
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include "node/wallet/cmds.h"
#include "node/wallet/help.h"
#include "node/wallet/out.h"

static int is_app_tx(const char *s)
{
    return strcmp(s, "create") == 0 || strcmp(s, "join") == 0 || strcmp(s, "move") == 0 ||
           strcmp(s, "resign") == 0 || strcmp(s, "claim") == 0;
}

static const char *const APP_SUBS[] = {"create", "join",   "move",          "show",  "list",
                                       "watch",  "resign", "claim-timeout", "claim", "pgn"};
static const char *const COMMANDS[] = {"key", "address", "balance", "send", "history", "app",
                                       "bet", "crash",   "verify",  "bot",  "tx", "help"};

static int app_dispatch(const struct zbc_opts *o, int argc, const char *const *argv,
                        json_t **result, struct zbc_wfail *f)
{
    if (argc < 1)
        return zbc_wfail(f, ZBC_EXIT_USAGE,
                         "usage: zbc app create|join|move|show|list|watch|pgn|resign|claim-timeout "
                         "... (zbc app --help)");
    bool known = false;
    for (size_t i = 0; i < sizeof APP_SUBS / sizeof APP_SUBS[0]; i++)
        known = known || strcmp(argv[0], APP_SUBS[i]) == 0;
    if (!known)
        return zbc_fail_unknown(f, "app command", argv[0], APP_SUBS,
                                sizeof APP_SUBS / sizeof APP_SUBS[0]);
    if (zbc_cmd_app_handles(o, argc, argv))
        return zbc_cmd_app(o, argc, argv, result, f);
    if (!is_app_tx(argv[0]))
        return zbc_wfail(f, ZBC_EXIT_USAGE, "usage: zbc app %s ... (zbc app %s --help)", argv[0],
                         argv[0]);
    return zbc_cmd_transact(o, argc, argv, result, f);
}

static int dispatch(const struct zbc_opts *o, json_t **result, struct zbc_wfail *f)
{
    const char *cmd = o->pos[0];
    int argc = o->npos - 1;
    const char *const *argv = o->pos + 1;
    if (strcmp(cmd, "address") == 0)
        return zbc_cmd_address(o, argc, argv, result, f);
    if (strcmp(cmd, "key") == 0)
        return zbc_cmd_key(o, argc, argv, result, f);
    if (strcmp(cmd, "balance") == 0)
        return zbc_cmd_balance(o, argc, argv, result, f);
    if (strcmp(cmd, "send") == 0)
        return zbc_cmd_transact(o, o->npos, o->pos, result, f);
    if (strcmp(cmd, "history") == 0)
        return zbc_cmd_history(o, argc, argv, result, f);
    if (strcmp(cmd, "app") == 0)
        return app_dispatch(o, argc, argv, result, f);
    if (strcmp(cmd, "tx") == 0)
        return zbc_cmd_tx(o, argc, argv, result, f);
    if (strcmp(cmd, "bet") == 0) /* unknown games: zbc_bet_args, with did-you-mean */
        return zbc_cmd_bet(o, argc, argv, result, f);
    if (strcmp(cmd, "crash") == 0)
        return zbc_cmd_crash(o, argc, argv, result, f);
    if (strcmp(cmd, "verify") == 0)
        return zbc_cmd_verify(o, argc, argv, result, f);
    return zbc_fail_unknown(f, "command", cmd, COMMANDS, sizeof COMMANDS / sizeof COMMANDS[0]);
}

/* The help topic of the line, if it asks for help: `zbc help [CMD [SUB]]`,
 * `--help` anywhere (the positionals are the topic), or `help` as the
 * last word after a command (`zbc app help`, `zbc app create help`). */
static bool help_topic(const struct zbc_opts *o, int *n, const char *const **topic)
{
    if (o->npos > 0 && strcmp(o->pos[0], "help") == 0) {
        *n = o->npos - 1;
        *topic = o->pos + 1;
        return true;
    }
    *topic = o->pos;
    if (o->help) {
        *n = o->npos;
        return true;
    }
    if ((o->npos == 2 && strcmp(o->pos[1], "help") == 0) ||
        (o->npos == 3 && strcmp(o->pos[2], "help") == 0 &&
         (strcmp(o->pos[0], "app") == 0 || strcmp(o->pos[0], "tx") == 0 ||
          strcmp(o->pos[0], "key") == 0))) {
        *n = o->npos - 1;
        return true;
    }
    return false;
}

/* Help goes to stdout (exit 0); with --json as {"help": TEXT}. */
static int print_help(const struct zbc_opts *o, int n, const char *const *topic)
{
    struct zbc_wfail f = {0};
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (mem == NULL) {
        zbc_wfail(&f, ZBC_EXIT_INTERNAL, "out of memory");
        return zbc_out_fail(o->json, &f);
    }
    int ok = zbc_help_print(mem, n, topic, &f);
    fclose(mem);
    if (!ok) {
        free(text);
        return zbc_out_fail(o->json, &f);
    }
    json_t *r = json_object();
    json_object_set_new(r, "help", json_string(text));
    json_object_set_new(r, "_text", json_string(text));
    free(text);
    return zbc_out_success(o->json, r);
}

int main(int argc, char **argv)
{
    struct zbc_opts o;
    struct zbc_wfail f = {0};
    int bot_code;
    if (zbc_bot_command(argc, argv, &bot_code))
        return bot_code;
    if (!zbc_opts_parse(&o, argc, argv, &f))
        return zbc_out_fail(o.json, &f);
    if (o.version) {
        json_t *r = json_object();
        json_object_set_new(r, "version", json_string(ZBC_VERSION));
        char line[160];
        snprintf(line, sizeof line, "%s\n", zbc_version_text());
        json_object_set_new(r, "_text", json_string(line));
        return zbc_out_success(o.json, r);
    }
    int n;
    const char *const *topic;
    if (help_topic(&o, &n, &topic))
        return print_help(&o, n, topic);
    if (o.npos == 0) {
        struct zbc_wfail quiet = {0};
        if (!zbc_help_print(stderr, 0, NULL, &quiet))
            zbc_wfail_clear(&quiet);
        zbc_wfail(&f, ZBC_EXIT_USAGE, "no command given");
        return zbc_out_fail(o.json, &f);
    }
    json_t *result = NULL;
    if (!dispatch(&o, &result, &f)) {
        int code = zbc_out_fail(o.json, &f);
        zbc_wfail_clear(&f);
        return code;
    }
    return zbc_out_success(o.json, result);
}
