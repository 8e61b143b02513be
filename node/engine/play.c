/* zbc-engine play: apply moves in notation, seat by seat as turn() says. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/hex.h"
#include "node/engine/cli.h"

static json_t *state_hex(const struct zbc_engine *e,
                         const struct zbc_game_state *st)
{
    static uint8_t bytes[ZBC_GAME_STATE_MAX];
    static char hex[2 * ZBC_GAME_STATE_MAX + 1];
    size_t n = e->encode(st, bytes, sizeof bytes);
    zbc_hex_encode(hex, bytes, n);
    return json_string(hex);
}

int cmd_play(struct cli *c)
{
    static struct zbc_game_state st;
    struct zbc_roll rolls;
    struct zbc_err err;
    if (c->npos < 1)
        return cli_error(c, CLI_USAGE, "play needs GAME [MOVE...]");
    const struct zbc_engine *e = cli_game(c, c->pos[0]);
    if (e == NULL || !cli_rolls(c, &rolls))
        return CLI_USAGE;
    int rc = cli_start(c, e, &st, &rolls);
    if (rc != CLI_OK)
        return rc;
    json_t *moves = json_array();
    for (int i = 1; i < c->npos; i++) {
        const char *text = c->pos[i];
        uint8_t mv[ZBC_MOVE_WIRE_MAX];
        size_t len;
        int seat = e->turn(&st);
        int ok = 1;
        if (seat == ZBC_NOBODY) {
            snprintf(err.msg, sizeof err.msg, "the game is over");
            ok = 0;
        }
        if (ok)
            ok = e->parse_move(&st, (uint8_t)seat, text, mv, sizeof mv, &len,
                               &err) &&
                 e->apply_move(&st, (uint8_t)seat, mv, len,
                               e->dice ? &rolls : NULL, &err);
        if (!ok) {
            json_decref(moves);
            return cli_error(c, CLI_REFUSED, "illegal move %d '%s' by seat "
                             "%d: %s", i, text, seat, err.msg);
        }
        json_array_append_new(moves, json_string(text));
    }
    int turn = e->turn(&st);
    if (c->json) {
        cli_print_json(json_pack(
            "{s:s, s:o, s:o, s:o, s:o, s:o}", "game", e->name, "moves", moves,
            "turn", turn == ZBC_NOBODY ? json_null() : json_integer(turn),
            "result", cli_result_json(e, &st), "board",
            cli_state_json(e, &st), "state", state_hex(e, &st)));
        return CLI_OK;
    }
    json_decref(moves);
    if (!cli_print_render(e, &st))
        return cli_error(c, CLI_REFUSED, "%s could not render", e->name);
    /* The interface's own view, the same for every game. */
    struct zbc_result r;
    e->result(&st, &r);
    if (turn == ZBC_NOBODY)
        printf("turn: nobody\n");
    else
        printf("turn: seat %d\n", turn);
    switch (r.kind) {
    case ZBC_RESULT_ONGOING:
        printf("result: ongoing");
        break;
    case ZBC_RESULT_WIN:
        printf("result: seat %u wins", r.winner);
        break;
    case ZBC_RESULT_DRAW:
        printf("result: draw");
        break;
    }
    if (r.out_mask != 0)
        printf(" (out mask 0x%x)", r.out_mask);
    printf("\n");
    json_t *hex = state_hex(e, &st);
    printf("state: %s\n", json_string_value(hex));
    json_decref(hex);
    return CLI_OK;
}
