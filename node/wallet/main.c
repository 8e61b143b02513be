/* zbc: the command-line wallet.  Parses options (anywhere), dispatches to a
 * command, prints one result (JSON with --json) and exits with the code of
 * the ZooBC CLI contract (docs/wallet.md). */
#include <stdio.h>
#include <string.h>

#include "node/wallet/cmds.h"
#include "node/wallet/out.h"

static const char usage[] =
    "usage: zbc <command> [arguments] [options]\n"
    "\n"
    "keys (wallet directory --wallet DIR, ZBC_WALLET, default ~/.zbc):\n"
    "  key new [--name N]                 create a key (encrypted with a passphrase)\n"
    "  key import <seed-hex> [--name N]   import a 32-byte Ed25519 seed\n"
    "  key list                           every key with its address\n"
    "  key show [NAME]                    every text form of a key's address\n"
    "  key derive <seed-hex>              addresses of a seed (nothing stored)\n"
    "  address <public-key-hex|address>   every text form and the typed bytes\n"
    "\n"
    "node (--api URL, ZBC_API, default " ZBC_DEFAULT_API "):\n"
    "  balance [ADDRESS|NAME]\n"
    "  send [SEED|-] <recipient> <amount> [--fee F] [--message M] [--from NAME] [--wait]\n"
    "       [--force]                   amount 0 or the burn address (refused without it)\n"
    "  app create GAME [--stake A] [--seats N] [--params k=v|HEX] [--opponent ZBC_...]\n"
    "             [--board CELLS]           (battleship: fleet kept in the wallet)\n"
    "  app join|resign|claim-timeout <app-id>\n"
    "  app move <app-id> NOTATION...        e2e4, 11x18, d3, fire B7, reveal, roll, hold,\n"
    "                                       commit rock / reveal (rps), commit (battleship)\n"
    "  app show <app-id>                    board, seats, pot, clock, history, result\n"
    "  app watch <app-id> [--auto-reveal]   follow the game live\n"
    "  app list [--open] [--game G] [--status S]\n"
    "  bet dice under|over PCT | coin heads|tails | roulette KIND [N] | limbo X\n"
    "      --stake A [--client-seed S]      solo bets against the apps fund\n"
    "  verify <app-id>                      recompute rolls, draws, bets and payouts\n"
    "  bot --games G1,G2 [--max-stake A] [--max-games N] [--level 0-5] [--move-ms MS]\n"
    "                                       play the key's seats (zbc bot --help)\n"
    "  raw: app create [SEED|-] <type> <stake> <seats> [--params-hex H]\n"
    "       app join|resign|claim [SEED|-] <app-id>   app move SEED|- <app-id> <move-hex>\n"
    "  tx status <hash> [--wait]          tx show <hash>\n"
    "  tx prepare --from-address <0x...|1...> send <recipient> <amount> [--out FILE]\n"
    "  tx submit --prepared FILE|HEX --signature HEX [--wait]\n"
    "\n"
    "amounts: atomic units (150000000) or ZBC with a decimal point or suffix (1.5ZBC)\n"
    "options: --json --offline --genesis HEX|v1 --timestamp S --fee F --timeout S\n"
    "         --wait (until final) --wait=included (until in a block)\n"
    "         --wait-timeout S --passphrase-file F --escrow-approver A --escrow-commission N\n"
    "         --escrow-timeout S --escrow-instruction T --stake-token N\n"
    "environment: ZBC_API ZBC_TIMEOUT ZOOBC_GENESIS_HASH ZBC_KEY ZBC_WALLET ZBC_PASSPHRASE\n"
    "exit codes: 0 ok, 1 internal, 2 usage, 3 node_unreachable, 4 insufficient_balance,\n"
    "            5 fee_too_low, 6 rejected, 7 not_found, 8 timeout, 9 node_busy,\n"
    "            10 verify_failed\n";

static int is_app_tx(const char *s)
{
    return strcmp(s, "create") == 0 || strcmp(s, "join") == 0 || strcmp(s, "move") == 0 ||
           strcmp(s, "resign") == 0 || strcmp(s, "claim") == 0;
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
    if (strcmp(cmd, "app") == 0) {
        if (zbc_cmd_app_handles(o, argc, argv))
            return zbc_cmd_app(o, argc, argv, result, f);
        if (argc < 1 || !is_app_tx(argv[0]))
            return zbc_wfail(f, ZBC_EXIT_USAGE,
                             "usage: zbc app create|join|move|resign|claim ... (see zbc --help)");
        return zbc_cmd_transact(o, argc, argv, result, f);
    }
    if (strcmp(cmd, "tx") == 0)
        return zbc_cmd_tx(o, argc, argv, result, f);
    if (strcmp(cmd, "bet") == 0)
        return zbc_cmd_bet(o, argc, argv, result, f);
    if (strcmp(cmd, "verify") == 0)
        return zbc_cmd_verify(o, argc, argv, result, f);
    return zbc_wfail(f, ZBC_EXIT_USAGE, "unknown command '%s' (see zbc --help)", cmd);
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
    if (o.help || (o.npos > 0 && strcmp(o.pos[0], "help") == 0)) {
        fputs(usage, o.json ? stderr : stdout);
        if (o.json)
            return zbc_out_success(1, json_object());
        return 0;
    }
    if (o.npos == 0) {
        fputs(usage, stderr);
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
