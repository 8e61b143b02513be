/* zbc's help texts, --version and "did you mean" (docs/wallet.md "Help"). */
#include "node/wallet/help.h"

#include <stdlib.h>
#include <string.h>

#include "apps/engine.h"
#include "node/wallet/opts.h"
#include "node/wallet/textbuf.h"

#ifndef ZBC_VERSION
#define ZBC_VERSION "unknown"
#endif

const char *zbc_version_text(void)
{
    return "zbc " ZBC_VERSION " (wallet of the ZooBC-compatible game chain)";
}

/* ---- suggestions ---- */

#define WORD_MAX 64

size_t zbc_edit_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > WORD_MAX)
        n = WORD_MAX;
    if (m > WORD_MAX)
        m = WORD_MAX;
    /* optimal string alignment: rows i-2, i-1 and i */
    size_t r0[WORD_MAX + 1], r1[WORD_MAX + 1], r2[WORD_MAX + 1];
    size_t *pp = r0, *prev = r1, *cur = r2;
    for (size_t j = 0; j <= m; j++)
        prev[j] = j;
    for (size_t i = 1; i <= n; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t best = prev[j - 1] + (a[i - 1] != b[j - 1]);
            if (prev[j] + 1 < best)
                best = prev[j] + 1;
            if (cur[j - 1] + 1 < best)
                best = cur[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                pp[j - 2] + 1 < best)
                best = pp[j - 2] + 1;
            cur[j] = best;
        }
        size_t *t = pp;
        pp = prev;
        prev = cur;
        cur = t;
    }
    return prev[m];
}

const char *zbc_suggest(const char *w, const char *const *words, size_t n)
{
    size_t wl = strlen(w);
    if (wl == 0)
        return NULL;
    const char *best = NULL, *prefix = NULL;
    size_t best_d = (size_t)-1, nprefix = 0;
    for (size_t i = 0; i < n; i++) {
        size_t d = zbc_edit_distance(w, words[i]);
        if (d < best_d) {
            best_d = d;
            best = words[i];
        }
        if (strncmp(words[i], w, wl) == 0) {
            prefix = words[i];
            nprefix++;
        }
    }
    size_t limit = wl <= 4 ? 1 : 2;
    if (best != NULL && best_d <= limit)
        return best;
    return nprefix == 1 ? prefix : NULL;
}

void zbc_suggest_text(char *out, size_t cap, const char *w, const char *const *words, size_t n)
{
    const char *s = zbc_suggest(w, words, n);
    if (s != NULL)
        snprintf(out, cap, " (did you mean %s?)", s);
    else if (cap > 0)
        out[0] = '\0';
}

int zbc_fail_unknown(struct zbc_wfail *f, const char *what, const char *w,
                     const char *const *words, size_t n)
{
    char hint[128], list[1024];
    zbc_suggest_text(hint, sizeof hint, w, words, n);
    size_t len = 0;
    list[0] = '\0';
    for (size_t i = 0; i < n && len < sizeof list; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "", words[i]);
    return zbc_wfail(f, ZBC_EXIT_USAGE, "unknown %s '%s'%s; %ss: %s", what, w, hint, what, list);
}

/* ---- games ---- */

/* The notation example and params words of every game.  The engines have
 * no example text of their own (apps/engine.h); this table is the
 * wallet's, and tests/wallet/test_help.c checks that every registered
 * engine has a row and that each params example (its first word) is
 * accepted by the engine. */
static const struct {
    const char *game, *example, *params;
} GAMES[] = {
    {"tictactoe", "5 (cells 1-9 as on a keypad; b2 also works)", NULL},
    {"chess", "e2e4, e7e8q (from-square, to-square)", NULL},
    {"connect4", "4 (the column, 1-7)", NULL},
    {"checkers", "11-15, 11x18x25 (squares 1-32; x for captures)", NULL},
    {"reversi", "d3", NULL},
    {"gomoku", "h8 (a1-o15)", NULL},
    {"battleship", "commit (joiner), fire B7, reveal, reveal fire C3", NULL},
    {"dots", "h 0 0, v 1 2 (line, row, column)", "width=5,height=3 or size=5x3 (2-8; default 4x4)"},
    {"rps", "commit rock, reveal", "rounds=3 (rounds to win, 1-5, default 1)"},
    {"lines", "c3 g7 (from, to)", "rounds=30 (1-100, default 30)"},
    {"ludo", "order 2013 (token order)", NULL},
    {"mines", "reveal C3 (columns A-E, rows 1-5), cashout",
     "mines=3 (1-24, default 3), seed=TEXT (client seed, up to 14 characters)"},
    {"tower", "climb 2 (the column, 1-4), cashout",
     "difficulty=easy (easy, medium, hard, expert, master), seed=TEXT"},
    {"hilo", "deal, then higher, lower, skip, cashout", "seed=TEXT (client seed)"},
    {"blackjack", "deal, then hit, stand, double, split", "seed=TEXT (client seed)"},
    {"pig", "roll, hold", NULL},
    {"race", "roll", NULL},
    {"monopoly", "roll, roll buy", NULL},
};

const char *zbc_help_game_example(const char *game)
{
    for (size_t i = 0; i < sizeof GAMES / sizeof GAMES[0]; i++)
        if (strcmp(GAMES[i].game, game) == 0)
            return GAMES[i].example;
    return NULL;
}

static const char *game_params(const char *game)
{
    for (size_t i = 0; i < sizeof GAMES / sizeof GAMES[0]; i++)
        if (strcmp(GAMES[i].game, game) == 0)
            return GAMES[i].params;
    return NULL;
}

char *zbc_help_games(void)
{
    struct zbc_textbuf b = {0};
    zbc_textbuf_add(&b,
        "usage: zbc app create GAME [--stake AMOUNT] [--seats N] [--params k=v|HEX]\n"
        "                           [--opponent ADDRESS|NAME] [--board CELLS]\n"
        "\n"
        "Creates an Open app (CreateApp, type 24) and takes seat 0; it starts when every seat\n"
        "is filled (zbc app join ID).  --stake is what each seat puts in (default 0, any amount\n"
        "syntax: 1.5ZBC), --seats defaults to the game's minimum, --opponent reserves the\n"
        "other seat for one account.  Nobody joins: the app expires after the chain's\n"
        "open_deadline blocks and the stakes come back; `zbc app resign ID` withdraws your\n"
        "stake from an Open app at once.  Prints app_id.\n"
        "\n"
        "games (seats; params; notation for zbc app move ID ...):\n");
    for (const struct zbc_engine *const *e = zbc_engines(); *e != NULL; e++) {
        const char *ex = zbc_help_game_example((*e)->name);
        const char *pw = game_params((*e)->name);
        if ((*e)->min_seats == (*e)->max_seats)
            zbc_textbuf_add(&b, "  %-11s %u seats", (*e)->name, (*e)->min_seats);
        else
            zbc_textbuf_add(&b, "  %-11s %u-%u seats", (*e)->name, (*e)->min_seats, (*e)->max_seats);
        zbc_textbuf_add(&b, "%s%s%s\n", (*e)->dice ? ", dice" : "", pw != NULL ? "; --params " : "",
            pw != NULL ? pw : "");
        zbc_textbuf_add(&b, "              moves: %s\n", ex != NULL ? ex : "see docs/games.md");
    }
    zbc_textbuf_add(&b,
        "\n"
        "solo bets against the apps fund (zbc bet --help):\n"
        "  dice under|over PCT   coin heads|tails   roulette KIND [N]   limbo X\n"
        "\n"
        "examples:\n"
        "  zbc app create chess --stake 1ZBC --opponent bob\n"
        "  zbc app create dots --seats 3 --params size=5x3 --stake 0.5ZBC\n"
        "  zbc app create battleship --stake 2ZBC      (a random fleet, kept in the wallet)\n"
        "raw form: zbc app create [SEED|-] TYPE STAKE SEATS [--params-hex H]\n");
    return zbc_textbuf_take(&b);
}

/* ---- help texts ---- */

static const char summary[] =
    "usage: zbc <command> [arguments] [options]      zbc help COMMAND, zbc COMMAND --help\n"
    "\n"
    "keys (wallet directory --wallet DIR, ZBC_WALLET, default ~/.zbc):\n"
    "  key new|import|list|show|derive    create, import and show keys\n"
    "  address <public-key-hex|address>   every text form and the typed bytes\n"
    "\n"
    "node (--api URL, ZBC_API, default " ZBC_DEFAULT_API "):\n"
    "  balance [ADDRESS|NAME]             balance in ZBC (0 for an account never funded)\n"
    "  send <recipient> <amount>          send ZBC to an address or a wallet key name\n"
    "  history [ADDRESS|NAME]             transactions and app events, newest first\n"
    "  app create|join|move|show|list|watch|resign|claim-timeout   games\n"
    "  bet dice|coin|roulette|limbo       solo bets against the apps fund\n"
    "  verify <app-id>                    recompute rolls, draws, bets and payouts\n"
    "  tx status|show|prepare|submit      transactions by hash; foreign signers\n"
    "  help [COMMAND [SUB]]               this text, or a command's\n"
    "\n"
    "amounts: atomic units (150000000) or ZBC with a decimal point or suffix (1.5ZBC)\n"
    "names: wherever an address goes, the name of a wallet key works too (send bob 1ZBC)\n"
    "options: --json --api URL --from NAME --wait (until final) --wait=included --fee F\n"
    "         --timeout S --wait-timeout S --offline --genesis HEX|v1 --timestamp S\n"
    "         --passphrase-file F --wallet DIR --message M --force --version\n"
    "         --escrow-approver A --escrow-commission N --escrow-timeout S\n"
    "         --escrow-instruction T --stake-token N --params-hex H (docs/wallet.md \"Options\")\n"
    "environment: ZBC_API ZBC_TIMEOUT ZOOBC_GENESIS_HASH ZBC_KEY ZBC_WALLET ZBC_PASSPHRASE\n"
    "exit codes: 0 ok, 1 internal, 2 usage, 3 node_unreachable, 4 insufficient_balance,\n"
    "            5 fee_too_low, 6 rejected, 7 not_found, 8 timeout, 9 node_busy,\n"
    "            10 verify_failed\n";

struct topic {
    const char *cmd, *sub; /* sub NULL: the command's own help */
    const char *text;
};

static const struct topic TOPICS[] = {
    {"key", NULL,
     "usage: zbc key new|import|list|show|derive ...\n"
     "  key new [--name N]                 create a random key, encrypted with a passphrase\n"
     "  key import <seed-hex> [--name N]   store an existing 32-byte Ed25519 seed (64 hex)\n"
     "  key list                           every key: name, address, public key, file\n"
     "  key show [NAME]                    every text form of one key's address\n"
     "  key derive <seed-hex>              the addresses of a seed, storing nothing\n"
     "The default name is 'default'; a key name works wherever an address goes.\n"
     "example: zbc key new --name bob\n"},
    {"key", "new",
     "usage: zbc key new [--name N] [--passphrase-file F]\n"
     "Creates a random key in DIR/keys/N.key (encrypted, mode 0600) and prints its forms.\n"
     "example: zbc key new --name alice\n"},
    {"key", "import",
     "usage: zbc key import <seed-hex> [--name N] [--passphrase-file F]\n"
     "Stores a 32-byte Ed25519 seed (64 hex characters) encrypted under a passphrase.\n"
     "example: zbc key import 51bae95d...5d96 --name vec\n"},
    {"key", "list",
     "usage: zbc key list\n"
     "Every key of the wallet directory with its address; needs no passphrase.\n"},
    {"key", "show",
     "usage: zbc key show [NAME]\n"
     "ZBC_ address, ZNK_ node address, public key hex and typed bytes of one key (default:\n"
     "the key named 'default', or the only key).\n"},
    {"key", "derive",
     "usage: zbc key derive <seed-hex>\n"
     "The address forms of a seed; nothing is stored.\n"},
    {"address", NULL,
     "usage: zbc address <public-key-hex|address>\n"
     "Every text form and the typed bytes of an address (ZBC_, 0x Ethereum, 1 Bitcoin);\n"
     "a bad checksum is a usage error.\n"
     "example: zbc address ZBC_L2HLFDOM_VKKKTEXX_C2P2M6LG_EB6ZNKSV_356SJUWW_5QPVHDE7_EFJA3PEX\n"},
    {"balance", NULL,
     "usage: zbc balance [ADDRESS|NAME]\n"
     "The balance in ZBC (and atomic units) of an address or wallet key (default: the\n"
     "wallet's default key).  An account that never held funds has balance 0.\n"
     "example: zbc balance bob\n"},
    {"send", NULL,
     "usage: zbc send [SEED|-] <recipient> <amount> [--fee F] [--message M] [--from NAME]\n"
     "                [--wait] [--force]\n"
     "Sends ZBC (SendZBC, type 1).  recipient: an address or a wallet key name; amount in\n"
     "atomic units or ZBC (1.5ZBC).  Amount 0 and the burn address need --force.\n"
     "examples: zbc send bob 1.5ZBC --wait\n"
     "          zbc send ZBC_... 250000000 --from alice\n"},
    {"history", NULL,
     "usage: zbc history [ADDRESS|NAME] [--limit N] [--cursor C] [--all]\n"
     "An account's transfers, fees and app events, newest first, one line each, amounts in\n"
     "ZBC (default: the wallet's default key).  --limit 1-100 per page (default 20);\n"
     "the last line names the cursor of the next page; --all follows every page.\n"
     "example: zbc history bob --limit 5\n"},
    {"app", NULL,
     "usage: zbc app <sub-command> ...\n"
     "  app create GAME [--stake A] [--seats N] [--params P] [--opponent ADDRESS|NAME]\n"
     "                                     open a game (zbc app create --help lists them)\n"
     "  app join <app-id>                  take the next seat (pays the stake)\n"
     "  app move <app-id> NOTATION...      play (e2e4, fire B7, roll ...)\n"
     "  app show <app-id>                  board, seats, pot, clock, history, result\n"
     "  app list [--mine|--player NAME] [--open] [--game G] [--status S]\n"
     "  app watch <app-id> [--auto-reveal] follow a game live\n"
     "  app pgn <app-id> [--out FILE]      a chess game as PGN (moves in SAN)\n"
     "  app resign <app-id>                give up (on an Open app: withdraw your stake)\n"
     "  app claim-timeout <app-id>         win when the seat to move let its clock run out\n"
     "raw forms: app create [SEED|-] TYPE STAKE SEATS, app join|resign|claim [SEED|-] ID,\n"
     "           app move SEED|- ID MOVE-HEX\n"
     "An Open app nobody fills expires after the chain's open_deadline blocks; every stake\n"
     "is refunded.\n"},
    {"app", "join",
     "usage: zbc app join [SEED|-] <app-id> [--wait]\n"
     "Takes the next free seat of an Open app (JoinApp, type 25), paying its stake.\n"
     "example: zbc app join 1234567890123 --wait\n"},
    {"app", "move",
     "usage: zbc app move <app-id> NOTATION... [--wait]\n"
     "Plays a move in the game's notation for your seat (zbc app create --help lists each\n"
     "game's).  One move of yours per app can wait in the node's pool: send the next one\n"
     "after the first is in a block (--wait does that).  `keep-alive` pushes your clock.\n"
     "raw: zbc app move SEED|- <app-id> <move-hex>\n"
     "example: zbc app move 1234567890123 e2e4 --wait\n"},
    {"app", "show",
     "usage: zbc app show <app-id>\n"
     "The game's header (status, stake, pot, seats), whose move and the clock, the board,\n"
     "the last moves and the result with every payout.\n"},
    {"app", "list",
     "usage: zbc app list [--mine | --player ADDRESS|NAME] [--open] [--game G] [--status S]\n"
     "Apps newest first (at most 100): id, game, state, seats and players (wallet names\n"
     "where known), stake in ZBC and the result.  --mine: the apps where the signing key\n"
     "(--from, ZBC_KEY or the default key) holds a seat; --player: where that account does.\n"
     "example: zbc app list --mine\n"},
    {"app", "watch",
     "usage: zbc app watch <app-id> [--auto-reveal]\n"
     "Redraws the game after every event until it ends; --auto-reveal answers battleship\n"
     "shots from the wallet's secret file.\n"},
    {"app", "pgn",
     "usage: zbc app pgn <app-id> [--out FILE]\n"
     "A chess game as PGN: tags (chain, date, seats' addresses, result), the moves in SAN\n"
     "replayed from the app's history, the result in words.  --out writes it to FILE.\n"
     "example: zbc app pgn 1234567890123 --out game.pgn\n"},
    {"app", "resign",
     "usage: zbc app resign [SEED|-] <app-id>\n"
     "Gives up (ResignApp, type 27): the other seats share the pot.  On an Open app it\n"
     "withdraws your seat and refunds your stake.\n"},
    {"app", "claim-timeout",
     "usage: zbc app claim-timeout <app-id>\n"
     "Claims the pot when the seat to move let its deadline pass (ClaimAppTimeout, 28).\n"},
    {"app", "claim",
     "usage: zbc app claim [SEED|-] <app-id>\n"
     "The raw form of claim-timeout (ClaimAppTimeout, type 28).\n"},
    {"bet", NULL,
     "usage: zbc bet dice under|over PCT | coin heads|tails | roulette KIND [N] | limbo X\n"
     "               --stake AMOUNT [--client-seed S] [--wait]\n"
     "A solo bet against the apps fund (CreateApp with one seat), settled by the next block\n"
     "from its seed and your client seed (zbc verify ID recomputes it).\n"
     "  dice under|over PCT     PCT 0.01-99.99 (two decimals)\n"
     "  coin heads|tails\n"
     "  roulette red|black|odd|even|low|high, straight N (0-36), dozen N, column N (1-3)\n"
     "  limbo X                 a multiplier of at least 1.01\n"
     "examples: zbc bet dice under 49.5 --stake 1ZBC --wait\n"
     "          zbc bet roulette straight 17 --stake 0.1ZBC\n"},
    {"verify", NULL,
     "usage: zbc verify <app-id>\n"
     "Recomputes an app's draws, rolls, bet and payouts from chain data; exit 10 on a\n"
     "mismatch.\n"},
    {"tx", NULL,
     "usage: zbc tx status|show|prepare|submit ...\n"
     "  tx status <hash> [--wait]    mempool, confirmed (block, final) or dropped (why)\n"
     "  tx show <hash>               the transaction as the node has it\n"
     "  tx prepare --from-address A send|app ... [--out FILE]   bytes for a foreign signer\n"
     "  tx submit --prepared FILE|HEX --signature HEX [--wait]\n"},
    {"tx", "status",
     "usage: zbc tx status <hash> [--wait]\n"
     "Where a transaction is: in the node's pool, confirmed in a block (final or not), or\n"
     "dropped from the pool with the reason (exit 6 rejected).\n"},
    {"tx", "show",
     "usage: zbc tx show <hash>\n"},
    {"tx", "prepare",
     "usage: zbc tx prepare --from-address <0x...|1...|ZBC_...> send <recipient> <amount>\n"
     "                      [--out FILE]      (also: app create|join|move|resign|claim ...)\n"
     "The unsigned bytes and the digest for an Ethereum or Bitcoin account to sign.\n"},
    {"tx", "submit",
     "usage: zbc tx submit --prepared FILE|HEX --signature HEX [--wait]\n"
     "Attaches the signature, checks it locally and submits.\n"},
    {"help", NULL,
     "usage: zbc help [COMMAND [SUB-COMMAND]]   (or zbc COMMAND [SUB] --help)\n"},
};

static const char *const COMMANDS[] = {"key",  "address", "balance", "send", "history", "app",
                                       "bet",  "verify",  "tx",      "help"};

int zbc_help_print(FILE *fp, int n, const char *const *topic, struct zbc_wfail *f)
{
    if (n == 0) {
        fputs(summary, fp);
        return 1;
    }
    const struct topic *cmd = NULL;
    for (size_t i = 0; i < sizeof TOPICS / sizeof TOPICS[0]; i++)
        if (TOPICS[i].sub == NULL && strcmp(TOPICS[i].cmd, topic[0]) == 0)
            cmd = &TOPICS[i];
    if (cmd == NULL)
        return zbc_fail_unknown(f, "command", topic[0], COMMANDS,
                                sizeof COMMANDS / sizeof COMMANDS[0]);
    if (n >= 2 && strcmp(topic[0], "app") == 0 && strcmp(topic[1], "create") == 0) {
        char *g = zbc_help_games();
        if (g == NULL)
            return zbc_wfail(f, ZBC_EXIT_INTERNAL, "out of memory");
        fputs(g, fp);
        free(g);
        return 1;
    }
    /* bet's kinds and arguments past a sub-command share their command's text */
    if (n >= 2 && strcmp(topic[0], "bet") != 0) {
        const char *subs[16];
        size_t ns = 0;
        for (size_t i = 0; i < sizeof TOPICS / sizeof TOPICS[0]; i++)
            if (TOPICS[i].sub != NULL && strcmp(TOPICS[i].cmd, topic[0]) == 0) {
                if (strcmp(TOPICS[i].sub, topic[1]) == 0) {
                    fputs(TOPICS[i].text, fp);
                    return 1;
                }
                if (ns < 16)
                    subs[ns++] = TOPICS[i].sub;
            }
        if (ns > 0) {
            char what[32];
            snprintf(what, sizeof what, "%s command", topic[0]);
            if (strcmp(topic[0], "app") == 0 && ns < 16)
                subs[ns++] = "create";
            return zbc_fail_unknown(f, what, topic[1], subs, ns);
        }
    }
    fputs(cmd->text, fp);
    return 1;
}
