/* zbc-engine: the game engines alone, for tests and client writers
 * (docs/zbc-engine.md).  Uses only apps/. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "crypto/hex.h"
#include "node/engine/cli.h"
#include "node/engine/perft.h"

static const char USAGE[] =
    "usage: zbc-engine COMMAND [--json] ...\n"
    "  list                                   games, type codes, seats\n"
    "  perft GAME DEPTH [--fen FEN | --state HEX] [--params P] [--time]\n"
    "  play GAME [--seats N] [--params HEX|k=v,...] [--first S]\n"
    "       [--rolls HEX] MOVE...             apply moves in notation\n"
    "  render GAME --state HEX                decode and print a state\n"
    "  fair GAME --server-seed S --client-seed C --nonce N [--stake UNITS]\n"
    "       [--direction under|over] [--target T] [--side heads|tails]\n"
    "       [--kind K] [--number N]           a solo bet (dice, coin,\n"
    "                                         roulette, limbo) or the event\n"
    "       [--rows R] [--risk R] [--segments N] [--cards K] [--picks 1,2,..]\n"
    "       [--mines M] [--tiles T] [--difficulty D]  of a catalogue game\n"
    "                                         (plinko, keno, wheel, baccarat,\n"
    "                                         blitz, mines, tower, blackjack,\n"
    "                                         hilo, crash)\n"
    "exit: 0 ok, 1 illegal move or refused input, 2 usage\n";

int cmd_list(struct cli *c)
{
    json_t *arr = json_array();
    for (const struct zbc_engine *const *e = zbc_engines(); *e != NULL; e++) {
        if (c->json)
            json_array_append_new(
                arr, json_pack("{s:i, s:s, s:i, s:i, s:b}", "type",
                               (*e)->type, "name", (*e)->name, "min_seats",
                               (*e)->min_seats, "max_seats", (*e)->max_seats,
                               "dice", (*e)->dice || (*e)->start_rolls));
        else
            printf("%3u  %-10s  seats %u-%u%s\n", (*e)->type, (*e)->name,
                   (*e)->min_seats, (*e)->max_seats,
                   (*e)->dice || (*e)->start_rolls ? "  dice" : "");
    }
    if (c->json)
        cli_print_json(arr);
    else
        json_decref(arr);
    return CLI_OK;
}

/* Decodes --state HEX into st.  Returns CLI_OK or the exit code of the
 * error it printed. */
static int decode_state(struct cli *c, const struct zbc_engine *e,
                        struct zbc_game_state *st)
{
    static uint8_t bytes[ZBC_GAME_STATE_MAX];
    size_t n;
    struct zbc_err err;
    if (!zbc_hex_decode(bytes, sizeof bytes, &n, c->state, strlen(c->state)))
        return cli_error(c, CLI_USAGE, "--state is not hex of at most %d "
                         "bytes", ZBC_GAME_STATE_MAX);
    if (!e->decode(st, bytes, n, &err))
        return cli_error(c, CLI_REFUSED, "bad %s state: %s", e->name, err.msg);
    return CLI_OK;
}

/* The perft root: --state, --fen (chess) or the start position.  Returns
 * CLI_OK or the exit code of the error it printed. */
static int perft_start(struct cli *c, const struct zbc_engine *e,
                       struct zbc_game_state *st)
{
    if (c->state != NULL && c->fen != NULL)
        return cli_error(c, CLI_USAGE, "give --state or --fen, not both");
    if (c->state != NULL)
        return decode_state(c, e, st);
    if (c->fen == NULL) {
        struct zbc_roll none;
        return cli_start(c, e, st, &none);
    }
    if (e->from_text == NULL)
        return cli_error(c, CLI_USAGE,
                         "--fen: %s has no position notation",
                         e->name);
    struct zbc_err err;
    if (!e->from_text(st, c->fen, &err))
        return cli_error(c, CLI_REFUSED, "bad FEN: %s", err.msg);
    return CLI_OK;
}

int cmd_perft(struct cli *c)
{
    uint64_t depth, count[ZBC_PERFT_DEPTH_MAX + 1];
    struct zbc_game_state *st = malloc(sizeof *st);
    struct zbc_err err;
    struct timespec t0, t1;
    int rc = CLI_OK;
    if (st == NULL)
        return cli_error(c, CLI_REFUSED, "out of memory");
    if (c->npos != 2) {
        free(st);
        return cli_error(c, CLI_USAGE, "perft needs GAME DEPTH");
    }
    const struct zbc_engine *e = cli_game(c, c->pos[0]);
    if (e == NULL ||
        !cli_u64(c, "DEPTH", c->pos[1], 1, ZBC_PERFT_DEPTH_MAX, &depth)) {
        free(st);
        return CLI_USAGE;
    }
    rc = perft_start(c, e, st);
    if (rc != CLI_OK) {
        free(st);
        return rc;
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (!zbc_perft(e, st, (unsigned)depth, count, &err)) {
        free(st);
        return cli_error(c, CLI_REFUSED, "perft: %s", err.msg);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    uint64_t ns = (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000u +
                  (uint64_t)t1.tv_nsec - (uint64_t)t0.tv_nsec;
    uint64_t nodes = 0;
    for (unsigned d = 1; d <= depth; d++)
        nodes += count[d];
    uint64_t us = ns / 1000, nps = us > 0 ? nodes * 1000000u / us : 0;
    if (c->json) {
        json_t *counts = json_array();
        for (unsigned d = 1; d <= depth; d++)
            json_array_append_new(counts, json_integer((json_int_t)count[d]));
        json_t *o = json_pack("{s:s, s:i, s:o}", "game", e->name, "depth",
                              (int)depth, "counts", counts);
        if (c->time) {
            json_object_set_new(o, "nodes", json_integer((json_int_t)nodes));
            json_object_set_new(o, "ns", json_integer((json_int_t)ns));
            json_object_set_new(o, "nodes_per_second",
                                json_integer((json_int_t)nps));
        }
        cli_print_json(o);
    } else {
        for (unsigned d = 1; d <= depth; d++)
            printf("%u %llu\n", d, (unsigned long long)count[d]);
        if (c->time)
            printf("nodes %llu ns %llu nodes/s %llu\n",
                   (unsigned long long)nodes, (unsigned long long)ns,
                   (unsigned long long)nps);
    }
    free(st);
    return rc;
}

int cmd_render(struct cli *c)
{
    static struct zbc_game_state st;
    if (c->npos != 1 || c->state == NULL)
        return cli_error(c, CLI_USAGE, "render needs GAME --state HEX");
    const struct zbc_engine *e = cli_game(c, c->pos[0]);
    if (e == NULL)
        return CLI_USAGE;
    int rc = decode_state(c, e, &st);
    if (rc != CLI_OK)
        return rc;
    if (c->json) {
        int turn = e->turn(&st);
        cli_print_json(json_pack(
            "{s:s, s:o, s:o, s:o}", "game", e->name, "turn",
            turn == ZBC_NOBODY ? json_null() : json_integer(turn), "result",
            cli_result_json(e, &st), "board", cli_state_json(e, &st)));
        return CLI_OK;
    }
    if (!cli_print_render(e, &st))
        return cli_error(c, CLI_REFUSED, "%s could not render", e->name);
    return CLI_OK;
}

int main(int argc, char **argv)
{
    struct cli c;
    if (argc < 2 || strcmp(argv[1], "--help") == 0 ||
        strcmp(argv[1], "help") == 0) {
        fputs(USAGE, argc < 2 ? stderr : stdout);
        return argc < 2 ? CLI_USAGE : CLI_OK;
    }
    if (!cli_parse(&c, argc - 2, argv + 2))
        return CLI_USAGE;
    if (strcmp(argv[1], "list") == 0)
        return cmd_list(&c);
    if (strcmp(argv[1], "perft") == 0)
        return cmd_perft(&c);
    if (strcmp(argv[1], "play") == 0)
        return cmd_play(&c);
    if (strcmp(argv[1], "render") == 0)
        return cmd_render(&c);
    if (strcmp(argv[1], "fair") == 0)
        return cmd_fair(&c);
    cli_error(&c, CLI_USAGE, "unknown command '%s'", argv[1]);
    fputs(USAGE, stderr);
    return CLI_USAGE;
}
