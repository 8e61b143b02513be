/* Battleship in the wallet (docs/wallet.md "Battleship"). */
#include "node/wallet/battleship_flow.h"

#include <inttypes.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/hex.h"
#include "node/wallet/app_client.h"

#define NC ZBC_BATTLESHIP_CELLS
#define SL ZBC_BATTLESHIP_SALT_LEN

/* ---- the secret board ---- */

int zbc_bs_secret_parse(struct zbc_bs_secret *s, const json_t *secret)
{
    const char *ships = json_string_value(json_object_get(secret, "is_ship"));
    const char *salts = json_string_value(json_object_get(secret, "salts"));
    if (ships == NULL || salts == NULL || strlen(ships) != 2 * NC || strlen(salts) != 2 * NC * SL ||
        !zbc_hex_decode_exact(s->is_ship, NC, ships) ||
        !zbc_hex_decode_exact(&s->salts[0][0], NC * SL, salts))
        return 0;
    for (size_t c = 0; c < NC; c++)
        if (s->is_ship[c] > 1)
            return 0;
    return 1;
}

int zbc_bs_secret_load(struct zbc_bs_secret *s, bool *found, const struct zbc_opts *o,
                       uint64_t id, const char *me, struct zbc_wfail *f)
{
    json_t *secret;
    if (!zbc_app_secret_load(o, id, me, &secret, found, f))
        return 0;
    if (!*found)
        return 1;
    int ok = zbc_bs_secret_parse(s, secret);
    json_decref(secret);
    if (!ok)
        return zbc_wfail(f, ZBC_EXIT_INTERNAL,
                         "the wallet's secret file of app %" PRIu64 " is not a battleship board", id);
    return 1;
}

/* ---- drawing ---- */

static char own_char(uint8_t ship, int known)
{
    switch (known) {
    case ZBC_BATTLESHIP_PENDING:
        return '?';
    case ZBC_BATTLESHIP_SHIP:
        return 'X';
    case ZBC_BATTLESHIP_WATER:
        return 'o';
    default:
        return ship ? '#' : '.';
    }
}

void zbc_bs_fleet_text(char *out, size_t cap, const uint8_t is_ship[NC], const uint8_t *known)
{
    size_t n = 0;
    unsigned count = 0, hit = 0;
#define PUT(...)                                                                    \
    do {                                                                            \
        if (n < cap)                                                                \
            n += (size_t)snprintf(out + n, cap - n, __VA_ARGS__);                   \
    } while (0)
    for (size_t c = 0; c < NC; c++) {
        count += is_ship[c];
        hit += known != NULL && is_ship[c] && known[c] == ZBC_BATTLESHIP_SHIP;
    }
    PUT("%u ship cells:", count);
    for (uint8_t c = 0; c < NC; c++) {
        char name[4];
        if (is_ship[c] && zbc_battleship_format_cell(c, name))
            PUT(" %s", name);
    }
    if (known != NULL)
        PUT(" (%u hit)", hit);
    PUT("\n   1 2 3 4 5 6 7 8 9 10\n");
    for (int r = 0; r < 10; r++) {
        PUT("%c ", 'A' + r);
        for (int c = 0; c < 10; c++)
            PUT(" %c", own_char(is_ship[r * 10 + c], known != NULL ? known[r * 10 + c] : -1));
        PUT("\n");
    }
    PUT("(# ship, X ship hit, o water shot at, ? shot awaiting your reveal, . water)\n");
#undef PUT
    if (cap > 0 && n >= cap)
        out[cap - 1] = '\0';
}

char *zbc_bs_show_own(const struct zbc_opts *o, const json_t *app, const char *me)
{
    const json_t *type = json_object_get(app, "type");
    const char *ids = json_string_value(json_object_get(app, "id"));
    uint64_t id;
    int seat = me[0] != '\0' ? zbc_app_seat_in(app, me) : -1;
    if (!json_is_integer(type) || json_integer_value(type) != zbc_engine_battleship.type ||
        ids == NULL || !zbc_app_parse_id(&id, ids) || seat < 0)
        return NULL;
    struct zbc_bs_secret *s = malloc(sizeof *s);
    struct zbc_game_state *st = malloc(sizeof *st);
    char *out = malloc(2048);
    struct zbc_wfail quiet = {0};
    bool found = false;
    if (s == NULL || st == NULL || out == NULL ||
        !zbc_bs_secret_load(s, &found, o, id, me, &quiet) || !found) {
        free(out);
        out = NULL;
        goto done;
    }
    const struct zbc_engine *e;
    uint8_t known[NC];
    bool have = zbc_app_state(&e, st, app, &quiet) && e == &zbc_engine_battleship &&
                zbc_battleship_board(st, (uint8_t)seat, known);
    int n = snprintf(out, 2048, "your board (seat %d, from the wallet's secret file): ", seat);
    zbc_bs_fleet_text(out + n, 2048 - (size_t)n, s->is_ship, have ? known : NULL);
done:
    zbc_wfail_clear(&quiet);
    if (s != NULL)
        sodium_memzero(s, sizeof *s);
    free(s);
    free(st);
    return out;
}

/* ---- moves ---- */

/* Whether revealing `cell` (the shot at `seat`'s board) ends `seat`'s turn
 * by itself (the 17th hit on its board, or the end): then no shot can go
 * with it.  True when it cannot be told (out of memory): a lone reveal is
 * always legal. */
static bool reveal_ends_turn(const struct zbc_game_state *st, uint8_t seat,
                             const struct zbc_bs_secret *s, int cell)
{
    struct zbc_game_state *copy = malloc(sizeof *copy);
    if (copy == NULL)
        return true;
    uint8_t m[2 + SL];
    struct zbc_err err;
    m[0] = ZBC_BATTLESHIP_REVEAL;
    m[1] = s->is_ship[cell];
    memcpy(m + 2, s->salts[cell], SL);
    memcpy(copy, st, sizeof *copy);
    const struct zbc_engine *e = &zbc_engine_battleship;
    bool ends = e->apply_move(copy, seat, m, sizeof m, NULL, &err) && e->turn(copy) != seat;
    sodium_memzero(m, sizeof m);
    free(copy);
    return ends;
}

/* "reveal ship|water SALT" of the pending cell, and a note naming it. */
static void reveal_words(char *text, size_t cap, const struct zbc_bs_secret *s, int cell)
{
    char salt[2 * SL + 1];
    zbc_hex_encode(salt, s->salts[cell], SL);
    snprintf(text, cap, "reveal %s %s", s->is_ship[cell] ? "ship" : "water", salt);
    sodium_memzero(salt, sizeof salt);
}

static int load_board(struct zbc_bs_secret *s, const struct zbc_opts *o, uint64_t id,
                      const char *me, struct zbc_wfail *f)
{
    bool found;
    if (!zbc_bs_secret_load(s, &found, o, id, me, f))
        return 0;
    if (!found)
        return zbc_wfail(f, ZBC_EXIT_NOT_FOUND,
                         "no battleship board of app %" PRIu64 " in this wallet", id);
    return 1;
}

void zbc_bs_commit_note(char *note, size_t cap, const json_t *secret)
{
    struct zbc_bs_secret s;
    note[0] = '\0';
    if (!zbc_bs_secret_parse(&s, secret))
        return;
    int n = snprintf(note, cap,
                     "commits its board (100 cell hashes; the board and its salts are kept in the "
                     "wallet's secret file). Your board: ");
    if (n > 0 && (size_t)n < cap)
        zbc_bs_fleet_text(note + n, cap - (size_t)n, s.is_ship, NULL);
    sodium_memzero(&s, sizeof s);
}

static int open_text(char *text, size_t cap, char *note, size_t note_cap,
                     const struct zbc_opts *o, uint64_t id, const char *me,
                     const struct zbc_game_state *st, uint8_t seat, struct zbc_wfail *f)
{
    if (!zbc_battleship_open_due(st, seat))
        return zbc_wfail(f, ZBC_EXIT_REJECTED,
                         "no open is due from you: a seat opens its board after its shots hit 17 "
                         "ship cells");
    struct zbc_bs_secret s;
    if (!load_board(&s, o, id, me, f))
        return 0;
    if (cap < 6 + 2 * (ZBC_BATTLESHIP_OPEN_LEN - 1))
        return zbc_wfail(f, ZBC_EXIT_INTERNAL, "move text buffer too small");
    size_t n = (size_t)snprintf(text, cap, "open ");
    for (size_t c = 0; c < NC; c++) {
        zbc_hex_encode(text + n, &s.is_ship[c], 1);
        zbc_hex_encode(text + n + 2, s.salts[c], SL);
        n += 2 + 2 * SL;
    }
    struct zbc_err err;
    if (zbc_battleship_check_fleet(s.is_ship, &err))
        snprintf(note, note_cap,
                 "opens its whole board (every cell and salt): the standard fleet, so seat %u "
                 "wins once it is in a block", (unsigned)seat);
    else
        snprintf(note, note_cap,
                 "opens its whole board (every cell and salt), which is not the standard fleet "
                 "(%s): once it is in a block seat %u wins the pot", err.msg,
                 (unsigned)(1 - seat));
    sodium_memzero(&s, sizeof s);
    return 1;
}

int zbc_bs_move_text(char *text, size_t cap, char *note, size_t note_cap,
                     const struct zbc_opts *o, uint64_t id, const char *me,
                     const struct zbc_game_state *st, uint8_t seat, int argc,
                     const char *const *argv, struct zbc_wfail *f)
{
    note[0] = '\0';
    const char *w0 = argv[0];
    if (argc == 1 && strcmp(w0, "open") == 0)
        return open_text(text, cap, note, note_cap, o, id, me, st, seat, f);
    bool reveal = strcmp(w0, "reveal") == 0 && (argc == 1 || argc == 3);
    bool fire = strcmp(w0, "fire") == 0 && argc == 2;
    int cell = zbc_battleship_pending_cell(st, seat);
    if (!reveal && !(fire && cell >= 0))
        return 1; /* the engine reads it (a plain shot, raw notation) */
    if (cell < 0)
        return zbc_wfail(f, ZBC_EXIT_REJECTED, "no shot at your board is waiting to be revealed");
    struct zbc_bs_secret s;
    if (!load_board(&s, o, id, me, f))
        return 0;
    char name[4] = "?";
    if (!zbc_battleship_format_cell((uint8_t)cell, name))
        return zbc_wfail(f, ZBC_EXIT_INTERNAL, "pending cell %d out of range", cell);
    reveal_words(text, cap, &s, cell);
    const char *target = fire ? argv[1] : argc == 3 ? argv[2] : NULL;
    if (target != NULL && reveal_ends_turn(st, seat, &s, cell)) {
        snprintf(note, note_cap,
                 "reveals %s (%s), which ends your turn (the 17th hit on your board): the shot at "
                 "%s is not sent", name, s.is_ship[cell] ? "ship: hit" : "water: miss", target);
    } else if (target != NULL) {
        size_t n = strlen(text);
        snprintf(text + n, cap - n, " %s %s", fire ? "fire" : argv[1], target);
        snprintf(note, note_cap, "reveals %s (%s) and fires at %s in one move", name,
                 s.is_ship[cell] ? "ship: hit" : "water: miss", target);
    } else {
        snprintf(note, note_cap, "reveals %s (%s)", name, s.is_ship[cell] ? "ship: hit" : "water: miss");
    }
    sodium_memzero(&s, sizeof s);
    return 1;
}

/* ---- app watch --auto-reveal ---- */

enum zbc_bs_auto zbc_bs_auto_step(const struct zbc_game_state *st, uint8_t seat,
                                  const struct zbc_bs_secret *s, long long blocks_left)
{
    if (zbc_battleship_open_due(st, seat))
        return ZBC_BS_AUTO_OPEN;
    int cell = zbc_battleship_pending_cell(st, seat);
    if (cell < 0)
        return ZBC_BS_AUTO_NONE;
    /* a reveal after which the turn is not ours (the 17th hit on our
     * board, or the end) is the whole turn: no shot can go with it */
    if (reveal_ends_turn(st, seat, s, cell) ||
        (blocks_left >= 0 && blocks_left <= ZBC_BS_REVEAL_MARGIN))
        return ZBC_BS_AUTO_REVEAL;
    return ZBC_BS_AUTO_WAIT;
}

/* ---- app join ---- */

int zbc_app_join(const struct zbc_opts *o, const char *id, json_t **result, struct zbc_wfail *f)
{
    json_t *before = NULL;
    struct zbc_wfail quiet = {0};
    /* the app before the join (for the seat it gives); its absence is the
     * node's to report, in the join's own refusal */
    if (!zbc_app_fetch(&before, o, id, &quiet))
        before = NULL;
    zbc_wfail_clear(&quiet);
    if (!zbc_app_send(result, o, "join", 1, &id, NULL, f)) {
        json_decref(before);
        return 0;
    }
    struct zbc_addr me;
    char me_text[ZBC_ADDR_TEXT_MAX];
    json_t *after = NULL;
    if (before == NULL || !zbc_app_caller(&me, me_text, o, &quiet)) {
        zbc_wfail_clear(&quiet);
        json_decref(before);
        return 1;
    }
    if (!zbc_app_fetch(&after, o, id, &quiet))
        after = NULL;
    zbc_wfail_clear(&quiet);
    int seat = after != NULL ? zbc_app_seat_in(after, me_text) : -1;
    bool in_block = seat >= 0;
    if (seat < 0)
        seat = (int)json_integer_value(json_object_get(before, "seated"));
    long long seats = json_integer_value(json_object_get(before, "seats"));
    const json_t *type = json_object_get(before, "type");
    const struct zbc_engine *e =
        json_is_integer(type) ? zbc_engine_by_type((uint8_t)json_integer_value(type)) : NULL;
    char next[512];
    if (e == &zbc_engine_battleship)
        snprintf(next, sizeof next,
                 "you are seat %d: your board is committed by your first move `zbc app move %s "
                 "commit` (a random fleet, or --board CELLS); then seat 0 fires. Your clock runs "
                 "from the block that carries this join", seat, id);
    else if (seat + 1 >= seats && e != NULL && e->draws_first)
        snprintf(next, sizeof next,
                 "you are seat %d of %lld, the last: the seat that moves first is drawn two blocks "
                 "after the block that carries this join; `zbc app watch %s` follows the game",
                 seat, seats, id);
    else if (seat + 1 >= seats)
        snprintf(next, sizeof next,
                 "you are seat %d of %lld, the last: the game starts in the block that carries "
                 "this join; `zbc app watch %s` follows it", seat, seats, id);
    else
        snprintf(next, sizeof next,
                 "you are seat %d of %lld: the game starts when %lld more seat%s taken", seat,
                 seats, seats - seat - 1, seats - seat - 1 == 1 ? " is" : "s are");
    const char *h = json_string_value(json_object_get(*result, "transaction_hash"));
    json_t *bh = json_object_get(*result, "block_height");
    char text[900];
    int n = snprintf(text, sizeof text, "app %s joined%s: %s\n", id,
                     in_block ? "" : " (once the join is in a block)", next);
    if (json_is_integer(bh))
        n += snprintf(text + n, sizeof text - (size_t)n, "block %lld\n", json_integer_value(bh));
    snprintf(text + n, sizeof text - (size_t)n, "tx %s\n", h != NULL ? h : "?");
    json_object_set_new(*result, "app_id", json_string(id));
    json_object_set_new(*result, "seat", json_integer(seat));
    json_object_set_new(*result, "next", json_string(next));
    json_object_set_new(*result, "_text", json_string(text));
    json_decref(before);
    json_decref(after);
    return 1;
}
