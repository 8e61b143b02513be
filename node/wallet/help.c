/* zbc's help texts, --version and "did you mean" (docs/wallet.md "Help"). */
#include "node/wallet/help.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "apps/engine.h"
#include "apps/fair_events.h"
#include "apps/fair_pay.h"
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
    {"chess", "e4, Nf3, exd5, e8=Q (SAN) or e2e4, e7e8q (from, to); no castling", NULL},
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
    {"monopoly", "roll, roll buy", "cash=300 (start cash 1-10000, default 1500)"},
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
            zbc_textbuf_add(&b, "  %-11s %u seat%s", (*e)->name, (*e)->min_seats,
                            (*e)->min_seats == 1 ? "" : "s");
        else
            zbc_textbuf_add(&b, "  %-11s %u-%u seats", (*e)->name, (*e)->min_seats, (*e)->max_seats);
        zbc_textbuf_add(&b, "%s%s%s\n",
                        (*e)->solo != NULL ? ", against the apps fund"
                        : (*e)->dice       ? ", dice"
                                           : "",
                        pw != NULL ? "; --params " : "",
            pw != NULL ? pw : "");
        zbc_textbuf_add(&b, "              moves: %s\n", ex != NULL ? ex : "see docs/games.md");
    }
    zbc_textbuf_add(&b,
        "\n"
        "solo bets against the apps fund (zbc bet --help):\n"
        "  dice under|over PCT   coin heads|tails   roulette KIND [N]   limbo X\n"
        "  plinko ROWS RISK   keno N1,N2,...   wheel SEGMENTS RISK   baccarat SIDE   blitz K\n"
        "\n"
        "examples:\n"
        "  zbc app create chess --stake 1ZBC --opponent bob\n"
        "  zbc app create dots --seats 3 --params size=5x3 --stake 0.5ZBC\n"
        "  zbc app create battleship --stake 2ZBC      (a random fleet, kept in the wallet)\n"
        "raw form: zbc app create [SEED|-] TYPE STAKE SEATS [--params-hex H]\n");
    return zbc_textbuf_take(&b);
}

/* ---- bets ---- */

/* Every solo bet: its words, what they mean, and an example (docs/wallet.md "Bets").
 * The maximum multiplier is computed from the payout tables (bet_max). */
static const struct {
    const char *game, *words, *params, *example;
} BETS[] = {
    {"dice", "under|over PCT", "PCT 0.01-99.99 (two decimals): the roll 0.00-100.00 is under "
     "or over it", "zbc bet dice under 49.5 --stake 1ZBC --wait"},
    {"coin", "heads|tails", "the side", "zbc bet coin tails --stake 1ZBC"},
    {"roulette", "KIND [N]", "red, black, odd, even, low, high; straight N (0-36), dozen N, "
     "column N (1-3)", "zbc bet roulette straight 17 --stake 0.1ZBC"},
    {"limbo", "X", "a target multiplier of at least 1.01: wins when the result reaches it",
     "zbc bet limbo 2.5 --stake 1ZBC"},
    {"plinko", "ROWS low|medium|high", "rows 8-16 and the risk table; the ball falls left or "
     "right at each row and lands in a slot 0-ROWS", "zbc bet plinko 12 medium --stake 1ZBC "
     "--wait"},
    {"keno", "N1,N2,... [--risk classic|high]", "1-10 different squares of 1-40 (commas, no "
     "spaces); 10 squares are drawn; pays by the hits (default risk classic)",
     "zbc bet keno 3,17,22,40 --risk high --stake 1ZBC"},
    {"wheel", "SEGMENTS low|medium|high", "10, 20, 30, 40 or 50 segments and the risk table; "
     "the pointer stops on one segment", "zbc bet wheel 20 high --stake 1ZBC"},
    {"baccarat", "player|banker|tie", "the side; standard third-card rules; player and banker "
     "bets get the stake back on a tie", "zbc bet baccarat banker --stake 1ZBC"},
    {"blitz", "K", "2-16 cards from a full deck each time: wins when all K differ",
     "zbc bet blitz 5 --stake 1ZBC"},
};
#define N_BETS (sizeof BETS / sizeof BETS[0])

/* The largest multiplier a game's bet can have, in ten-thousandths (0: limbo, whose
 * target is the player's, bounded by the apps fund's 1 % rule). */
static uint64_t bet_max(const char *game)
{
    uint64_t m = 0;
    if (strcmp(game, "dice") == 0)
        return 99ull * 10001 * ZBC_FAIR_ONE / 100; /* under 0.01 */
    if (strcmp(game, "coin") == 0)
        return 198ull * ZBC_FAIR_ONE / 100;
    if (strcmp(game, "roulette") == 0)
        return 36ull * ZBC_FAIR_ONE;
    if (strcmp(game, "plinko") == 0)
        for (uint32_t r = ZBC_PLINKO_ROWS_MIN; r <= ZBC_PLINKO_ROWS_MAX; r++)
            for (uint32_t k = 0; k < ZBC_PLINKO_RISKS; k++)
                for (uint32_t s = 0; s <= r; s++)
                    if (zbc_plinko_multiplier(r, k, s) > m)
                        m = zbc_plinko_multiplier(r, k, s);
    if (strcmp(game, "keno") == 0)
        for (uint32_t k = 0; k < ZBC_KENO_RISKS; k++)
            for (uint32_t p = 1; p <= ZBC_KENO_PICKS_MAX; p++)
                for (uint32_t h = 0; h <= p; h++)
                    if (zbc_keno_multiplier(k, p, h) > m)
                        m = zbc_keno_multiplier(k, p, h);
    if (strcmp(game, "wheel") == 0)
        for (uint32_t n = 10; n <= 50; n += 10)
            for (uint32_t k = 0; k < ZBC_WHEEL_RISKS; k++)
                for (uint32_t s = 0; s < n; s++)
                    if (zbc_wheel_multiplier(n, k, s) > m)
                        m = zbc_wheel_multiplier(n, k, s);
    if (strcmp(game, "baccarat") == 0)
        for (uint32_t s = 0; s < 3; s++)
            if (zbc_baccarat_multiplier(s) > m)
                m = zbc_baccarat_multiplier(s);
    if (strcmp(game, "blitz") == 0)
        for (uint32_t k = ZBC_BLITZ_CARDS_MIN; k <= ZBC_BLITZ_CARDS_MAX; k++)
            if (zbc_blitz_multiplier(k) > m)
                m = zbc_blitz_multiplier(k);
    return m;
}

static void bet_max_text(char out[32], const char *game)
{
    uint64_t m = bet_max(game);
    if (m == 0)
        snprintf(out, 32, "the target");
    else if (m % 100 == 0)
        snprintf(out, 32, "%" PRIu64 ".%02" PRIu64 "x", m / ZBC_FAIR_ONE,
                 m % ZBC_FAIR_ONE / 100);
    else
        snprintf(out, 32, "%" PRIu64 ".%04" PRIu64 "x", m / ZBC_FAIR_ONE, m % ZBC_FAIR_ONE);
}

char *zbc_help_bets(const char *game)
{
    struct zbc_textbuf b = {0};
    char mx[32];
    for (size_t i = 0; game != NULL && i < N_BETS; i++)
        if (strcmp(BETS[i].game, game) == 0) {
            bet_max_text(mx, BETS[i].game);
            zbc_textbuf_add(&b,
                "usage: zbc bet %s %s --stake AMOUNT [--client-seed S] [--wait]\n"
                "%s.\nmaximum multiplier: %s (stake included)\nexample: %s\n"
                "Settled by the next block from its seed, your client seed and the bet id;\n"
                "zbc verify ID recomputes it (docs/games.md).\n",
                BETS[i].game, BETS[i].words, BETS[i].params, mx, BETS[i].example);
            return zbc_textbuf_take(&b);
        }
    zbc_textbuf_add(&b,
        "usage: zbc bet GAME ... --stake AMOUNT [--client-seed S] [--wait]\n"
        "A solo bet against the apps fund (CreateApp with one seat), settled by the next block\n"
        "from its seed and your client seed (default: 16 random hex characters); --wait\n"
        "prints the outcome recomputed from that seed, in words and pictures.  A bet whose\n"
        "maximum return exceeds 1 %% of the apps fund is refused.  zbc bet GAME --help.\n"
        "\n"
        "game      words                             max multiplier\n");
    for (size_t i = 0; i < N_BETS; i++) {
        bet_max_text(mx, BETS[i].game);
        zbc_textbuf_add(&b, "  %-8s %-33s %s\n", BETS[i].game, BETS[i].words, mx);
    }
    zbc_textbuf_add(&b, "\nexamples:\n");
    for (size_t i = 0; i < N_BETS; i++)
        zbc_textbuf_add(&b, "  %s\n", BETS[i].example);
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
    "  app create|join|move|show|list|watch|pgn|resign|claim-timeout\n"
    "                                     games (zbc app --help)\n"
    "  bet GAME ...                       solo bets: dice coin roulette limbo plinko\n"
    "                                     keno wheel baccarat blitz\n"
    "  crash create|join|show             shared crash rounds against the apps fund\n"
    "  verify <app-id>                    recompute rolls, draws, bets and payouts\n"
    "  bot --games G1,G2 [--max-stake A]  a machine opponent playing the key's seats\n"
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
    {"crash", NULL,
     "usage: zbc crash create [--blocks N] [--stake AMOUNT --target X] [--client-seed S]\n"
     "       zbc crash join <app-id> --stake AMOUNT --target X [--wait]\n"
     "       zbc crash show <app-id>\n"
     "A crash round (CreateApp type 36) takes entries for N blocks (default 10, 1-1000);\n"
     "each entry is a stake and a cash-out target (X a multiplier of at least 1.01, e.g.\n"
     "2.5x). The seed of the block after the close gives one crash point; every entry whose\n"
     "target is at most the point is paid stake x target, the others lose their stake.\n"
     "--wait on join waits for the settlement, --wait=included for the block (zbc verify ID\n"
     "recomputes the round).\n"
     "examples: zbc crash create --blocks 20\n"
     "          zbc crash join 1234 --stake 1ZBC --target 2.5x --wait\n"},
    {"verify", NULL,
     "usage: zbc verify <app-id>\n"
     "Recomputes an app's draws, rolls, bet and payouts from chain data; exit 10 on a\n"
     "mismatch.\n"},
    {"bot", NULL,
     "usage: zbc bot --games G1,G2 [--from NAME] [--max-stake A] [--max-games N]\n"
     "               [--level L] [--move-ms MS]\n"
     "A machine opponent: joins open apps of the games named (and challenges naming the\n"
     "key) up to --max-stake, plays every turn with the search at --level 0 (random) to 5\n"
     "(strongest) within --move-ms, claims timeouts; stops on Ctrl-C.  It signs without\n"
     "asking: give --passphrase-file, ZBC_PASSPHRASE or ZBC_KEY.\n"
     "example: zbc bot --games tictactoe,connect4 --from dave --max-stake 1ZBC\n"},
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

static const char *const COMMANDS[] = {"key", "address", "balance", "send", "history", "app",
                                       "bet", "crash",   "verify",  "bot",  "tx", "help"};

int zbc_help_print(FILE *fp, int n, const char *const *topic, struct zbc_wfail *f)
{
    if (n == 0) {
        fputs(summary, fp);
        return 1;
    }
    if (strcmp(topic[0], "bet") == 0) {
        const char *games[N_BETS];
        for (size_t i = 0; i < N_BETS; i++)
            games[i] = BETS[i].game;
        /* zbc bet GAME ... --help: the game's text; the words past it are its arguments */
        if (n >= 2) {
            bool known = false;
            for (size_t i = 0; i < N_BETS; i++)
                known = known || strcmp(games[i], topic[1]) == 0;
            if (!known)
                return zbc_fail_unknown(f, "bet", topic[1], games, N_BETS);
        }
        char *t = zbc_help_bets(n >= 2 ? topic[1] : NULL);
        if (t == NULL)
            return zbc_wfail(f, ZBC_EXIT_INTERNAL, "out of memory");
        fputs(t, fp);
        free(t);
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
    /* arguments past a sub-command share their command's text */
    if (n >= 2) {
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
