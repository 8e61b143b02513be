/* zbc-engine command-line plumbing shared by its subcommands: parsed
 * options, game lookup, params and hex arguments, text/JSON output.
 * Exit codes: 0 ok, 1 illegal move or refused input, 2 usage. */
#ifndef ZBC_ENGINE_CLI_H
#define ZBC_ENGINE_CLI_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "apps/engine.h"

#define CLI_OK 0
#define CLI_REFUSED 1
#define CLI_USAGE 2
#define CLI_POSITIONAL_MAX 512
#define CLI_PARAMS_MAX 4096

struct cli {
    bool json;
    bool time;
    const char *fen, *params, *rolls, *state;
    const char *server_seed, *client_seed, *nonce, *stake;
    const char *direction, *target, *side, *kind, *number;
    const char *seats, *first;
    const char *rows, *risk, *segments, *cards, *picks, *mines, *tiles,
        *difficulty;
    int npos;
    const char *pos[CLI_POSITIONAL_MAX];
};

/* Parses argv (after the subcommand).  Returns 0 with a message printed
 * on an unknown option or a missing value. */
int cli_parse(struct cli *c, int argc, char **argv);

/* Prints an error (text to stderr, or {"error": ...} to stdout with
 * --json) and returns `code`. */
int cli_error(const struct cli *c, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Prints a JSON value compactly on stdout and frees it. */
void cli_print_json(json_t *v);

/* Game by name or decimal type code; prints the error itself. */
const struct zbc_engine *cli_game(const struct cli *c, const char *name);

/* Builds CreateApp params from --params with the engine's own reader
 * (zbc_engine_params_from_text: hex bytes, or the game's key=value
 * words).  Empty when --params is absent. */
int cli_params(const struct cli *c, const struct zbc_engine *e, uint8_t *out,
               size_t cap, size_t *len);

/* Decimal u64 argument in [min, max]. */
int cli_u64(const struct cli *c, const char *what, const char *text,
            uint64_t min, uint64_t max, uint64_t *out);

/* Starts a game from --seats (default min_seats), --params, --first
 * (default 0) and, for engines with start rolls, the roll stream.
 * Returns CLI_OK, or the exit code of the error it printed (CLI_USAGE for
 * a malformed option, CLI_REFUSED when the engine refuses the start). */
int cli_start(const struct cli *c, const struct zbc_engine *e,
              struct zbc_game_state *st, struct zbc_roll *rolls);

/* The roll stream from --rolls HEX (literal), or an empty literal one. */
int cli_rolls(const struct cli *c, struct zbc_roll *r);

/* Engine JSON view as a jansson value (NULL on an engine bug). */
json_t *cli_state_json(const struct zbc_engine *e,
                       const struct zbc_game_state *st);
/* {"kind": "ongoing"|"win"|"draw", "winner": n|null, "out_mask": n} */
json_t *cli_result_json(const struct zbc_engine *e,
                        const struct zbc_game_state *st);
/* Prints render() text; returns 0 on an engine bug. */
int cli_print_render(const struct zbc_engine *e,
                     const struct zbc_game_state *st);

int cmd_list(struct cli *c);
int cmd_perft(struct cli *c);
int cmd_play(struct cli *c);
int cmd_render(struct cli *c);
int cmd_fair(struct cli *c);

#endif
