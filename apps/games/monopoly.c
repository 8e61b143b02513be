/* Monopoly-lite (type 35): 2-4 seats, a 24-square board of fixed prices,
 * rents and taxes (the table is in docs/games.md, section "Monopoly-lite
 * (type 35)").  Dice game: a
 * move (flags u8, bit 0 = buy the square landed on if possible) rolls two
 * dice from the move's roll stream.  Every seat starts with the params'
 * cash (named param cash=N, 1-10000; no params = 1500) and collects 200 on passing or landing on GO.  A seat that cannot pay a rent
 * or a tax is out: its cash goes to the creditor (the bank for taxes) and
 * its properties return to the bank.  The last seat standing wins; after
 * 100 moves each, the richest (cash + price of properties owned) wins and
 * an equal richest is a draw. */
#include <stdio.h>
#include <string.h>

#include "apps/engine.h"
#include "apps/notation.h"
#include "crypto/bytes.h"

/* The descriptor at the end of this file (the shared steps take it). */
extern const struct zbc_engine zbc_engine_monopoly;

#define SQUARES 24
#define START_CASH 1500u /* with no params */
#define CASH_MIN 1u
#define CASH_MAX 10000u
#define GO_SALARY 200u
#define ROUNDS 100
#define NONE 0xff
#define FLAG_BUY 0x01

enum square_kind { SQ_GO, SQ_PROPERTY, SQ_STATION, SQ_TAX, SQ_REST };

struct square {
    enum square_kind kind;
    const char *name;
    uint16_t price; /* property/station price, or the tax amount */
    uint16_t rent;  /* base rent (property) or rent per station owned */
    uint8_t group;  /* colour group of a property (pairs), 0 otherwise */
};

/* The board.  Keep the table in docs/games.md, section "Monopoly-lite
 * (type 35)", in step with this one. */
static const struct square BOARD[SQUARES] = {
    {SQ_GO, "GO", 0, 0, 0},
    {SQ_PROPERTY, "Brown Lane", 60, 15, 1},
    {SQ_PROPERTY, "Brown Road", 60, 15, 1},
    {SQ_TAX, "Income Tax", 100, 0, 0},
    {SQ_PROPERTY, "Azure Street", 100, 25, 2},
    {SQ_PROPERTY, "Azure Avenue", 120, 30, 2},
    {SQ_REST, "Park", 0, 0, 0},
    {SQ_PROPERTY, "Pink Place", 140, 35, 3},
    {SQ_PROPERTY, "Pink Parade", 160, 40, 3},
    {SQ_STATION, "North Station", 200, 50, 0},
    {SQ_PROPERTY, "Orange Row", 180, 45, 4},
    {SQ_PROPERTY, "Orange Walk", 200, 50, 4},
    {SQ_REST, "Plaza", 0, 0, 0},
    {SQ_PROPERTY, "Red Court", 220, 55, 5},
    {SQ_PROPERTY, "Red Square", 240, 60, 5},
    {SQ_STATION, "East Station", 200, 50, 0},
    {SQ_PROPERTY, "Yellow Hill", 260, 65, 6},
    {SQ_PROPERTY, "Yellow Rise", 280, 70, 6},
    {SQ_REST, "Garden", 0, 0, 0},
    {SQ_PROPERTY, "Green Gate", 300, 75, 7},
    {SQ_PROPERTY, "Green Way", 320, 80, 7},
    {SQ_TAX, "Luxury Tax", 150, 0, 0},
    {SQ_PROPERTY, "Blue Quay", 350, 90, 8},
    {SQ_PROPERTY, "Blue Crown", 400, 100, 8},
};

struct mono_state {
    uint8_t seats;
    uint8_t first;
    uint8_t to_move; /* NONE when over */
    uint8_t out_mask;
    uint8_t last_seat, last_d1, last_d2; /* NONE, 0, 0 before the first move */
    uint32_t cash[ZBC_SEATS_MAX];
    uint8_t pos[ZBC_SEATS_MAX];
    uint8_t moves_made[ZBC_SEATS_MAX];
    uint8_t owner[SQUARES]; /* seat, or NONE for the bank */
};

_Static_assert(sizeof(struct mono_state) <= ZBC_GAME_STATE_MAX,
               "monopoly state fits the engine buffer");

static const struct mono_state *cst(const struct zbc_game_state *g)
{
    return (const struct mono_state *)g->b;
}

static int check_params(uint8_t seats, const uint8_t *params, size_t len,
                        struct zbc_err *err)
{
    if (!zbc_engine_check_seats(&zbc_engine_monopoly, seats, err))
        return 0;
    if (len == 0)
        return 1;
    if (len != 2)
        return zbc_fail(err, "monopoly params are the starting cash u16 LE (2 bytes) "
                        "or empty, got %zu bytes", len);
    unsigned cash = zbc_get_le16(params);
    if (cash < CASH_MIN || cash > CASH_MAX)
        return zbc_fail(err, "monopoly starting cash %u out of range %u-%u", cash, CASH_MIN,
                        CASH_MAX);
    return 1;
}

/* Named param cash=N (docs/games.md "Monopoly-lite (type 35)", Params). */
static int params_word(const char *key, const char *value, uint8_t *out, size_t *len,
                       struct zbc_err *err)
{
    if (strcmp(key, "cash") != 0)
        return zbc_fail(err, "no param '%.24s' (the param is cash=N, %u-%u)", key, CASH_MIN,
                        CASH_MAX);
    uint64_t v;
    if (!zbc_parse_u64(value, CASH_MIN, CASH_MAX, &v, "cash", err))
        return 0;
    zbc_put_le16(out, (uint16_t)v);
    *len = 2;
    return 1;
}

static int params_text(const uint8_t *params, size_t len, char *out, size_t cap)
{
    /* only a value cash=N reads back; other bytes print as hex */
    if (len != 2 || zbc_get_le16(params) < CASH_MIN || zbc_get_le16(params) > CASH_MAX)
        return 0;
    int n = snprintf(out, cap, "cash=%u", (unsigned)zbc_get_le16(params));
    return n > 0 && (size_t)n < cap;
}

static bool active(const struct mono_state *s, unsigned seat)
{
    return !(s->out_mask >> seat & 1);
}

static unsigned active_count(const struct mono_state *s)
{
    unsigned n = 0;
    for (unsigned i = 0; i < s->seats; i++)
        n += active(s, i);
    return n;
}

static uint8_t next_seat(const struct mono_state *s, unsigned seat)
{
    if (active_count(s) <= 1)
        return NONE;
    for (unsigned k = 1; k <= s->seats; k++) {
        unsigned t = (seat + k) % s->seats;
        if (active(s, t) && s->moves_made[t] < ROUNDS)
            return (uint8_t)t;
    }
    return NONE;
}

static int init(struct zbc_game_state *g, uint8_t seats, const uint8_t *params,
                size_t len, uint8_t first, struct zbc_roll *rolls,
                struct zbc_err *err)
{
    if (!check_params(seats, params, len, err))
        return 0;
    if (first >= seats)
        return zbc_fail(err, "first seat %u out of range for %u seats", first, seats);
    struct mono_state s;
    memset(&s, 0, sizeof s);
    s.seats = seats;
    s.first = first;
    s.to_move = first;
    s.last_seat = NONE;
    uint32_t cash = len == 2 ? zbc_get_le16(params) : START_CASH;
    for (unsigned i = 0; i < seats; i++)
        s.cash[i] = cash;
    memset(s.owner, NONE, sizeof s.owner);
    memset(g->b, 0, sizeof(struct mono_state));
    memcpy(g->b, &s, sizeof s);
    return 1;
}

static int turn(const struct zbc_game_state *g)
{
    const struct mono_state *s = cst(g);
    return s->to_move == NONE ? ZBC_NOBODY : s->to_move;
}

static uint32_t worth(const struct mono_state *s, unsigned seat)
{
    uint32_t w = s->cash[seat];
    for (unsigned q = 0; q < SQUARES; q++)
        if (s->owner[q] == seat)
            w += BOARD[q].price;
    return w;
}

static void result(const struct zbc_game_state *g, struct zbc_result *out)
{
    const struct mono_state *s = cst(g);
    memset(out, 0, sizeof *out);
    out->out_mask = s->out_mask;
    if (s->to_move != NONE) {
        out->kind = ZBC_RESULT_ONGOING;
        return;
    }
    uint32_t best = 0;
    unsigned nbest = 0, who = 0;
    for (unsigned i = 0; i < s->seats; i++) {
        if (!active(s, i))
            continue;
        uint32_t w = worth(s, i);
        if (nbest == 0 || w > best) {
            best = w;
            nbest = 1;
            who = i;
        } else if (w == best) {
            nbest++;
        }
    }
    if (nbest == 1) {
        out->kind = ZBC_RESULT_WIN;
        out->winner = (uint8_t)who;
    } else {
        out->kind = ZBC_RESULT_DRAW;
    }
}

static int check_move(const struct zbc_game_state *g, uint8_t seat,
                      const uint8_t *mv, size_t len, struct zbc_err *err)
{
    if (!zbc_engine_move_entry(&zbc_engine_monopoly, turn(g), seat, len, err))
        return 0;
    if (len != 1)
        return zbc_fail(err, "a monopoly move is one flags byte, got %zu bytes", len);
    if (mv[0] & ~FLAG_BUY)
        return zbc_fail(err, "unknown move flags 0x%02x (only bit 0, buy, is defined)", mv[0]);
    return 1;
}

/* Rent owed on square q (owned by someone). */
static uint32_t rent_for(const struct mono_state *s, unsigned q)
{
    const struct square *sq = &BOARD[q];
    uint8_t owner = s->owner[q];
    if (sq->kind == SQ_STATION) {
        uint32_t n = 0;
        for (unsigned i = 0; i < SQUARES; i++)
            n += BOARD[i].kind == SQ_STATION && s->owner[i] == owner;
        return sq->rent * n;
    }
    for (unsigned i = 0; i < SQUARES; i++)
        if (BOARD[i].kind == SQ_PROPERTY && BOARD[i].group == sq->group &&
            s->owner[i] != owner)
            return sq->rent;
    return 2u * sq->rent; /* the whole colour group: double rent */
}

/* Seat pays `amount` to `creditor` (NONE = bank) or goes out. */
static void pay(struct mono_state *s, unsigned seat, uint32_t amount, uint8_t creditor)
{
    uint32_t paid = amount <= s->cash[seat] ? amount : s->cash[seat];
    s->cash[seat] -= paid;
    if (creditor != NONE)
        s->cash[creditor] += paid;
    if (paid < amount) {
        s->out_mask |= (uint8_t)(1u << seat);
        for (unsigned q = 0; q < SQUARES; q++)
            if (s->owner[q] == seat)
                s->owner[q] = NONE;
    }
}

static int apply_move(struct zbc_game_state *g, uint8_t seat, const uint8_t *mv,
                      size_t len, struct zbc_roll *rolls, struct zbc_err *err)
{
    if (!check_move(g, seat, mv, len, err))
        return 0;
    if (rolls == NULL)
        return zbc_fail(err, "monopoly moves need a roll stream");
    struct mono_state s = *cst(g);
    uint8_t d1, d2;
    if (!zbc_roll_d6(rolls, &d1) || !zbc_roll_d6(rolls, &d2))
        return zbc_fail(err, "roll stream exhausted");
    unsigned to = s.pos[seat] + d1 + d2;
    if (to >= SQUARES) {
        to -= SQUARES;
        s.cash[seat] += GO_SALARY; /* passing or landing on GO */
    }
    s.pos[seat] = (uint8_t)to;
    const struct square *sq = &BOARD[to];
    switch (sq->kind) {
    case SQ_PROPERTY:
    case SQ_STATION:
        if (s.owner[to] == NONE) {
            if ((mv[0] & FLAG_BUY) && s.cash[seat] >= sq->price) {
                s.cash[seat] -= sq->price;
                s.owner[to] = seat;
            }
        } else if (s.owner[to] != seat) {
            pay(&s, seat, rent_for(&s, to), s.owner[to]);
        }
        break;
    case SQ_TAX:
        pay(&s, seat, sq->price, NONE);
        break;
    case SQ_GO:
    case SQ_REST:
        break;
    }
    s.moves_made[seat]++;
    s.last_seat = seat;
    s.last_d1 = d1;
    s.last_d2 = d2;
    s.to_move = next_seat(&s, seat);
    memcpy(g->b, &s, sizeof s);
    return 1;
}

static size_t gen_moves(const struct zbc_game_state *g, struct zbc_move *out,
                        size_t cap)
{
    const struct mono_state *s = cst(g);
    size_t n = 0;
    if (s->to_move == NONE)
        return 0;
    for (uint8_t f = 0; f <= FLAG_BUY && n < cap; f++) {
        out[n].len = 1;
        out[n].b[0] = f;
        n++;
    }
    return n;
}

/* Canonical bytes: seats, first, to_move, out_mask, last_seat, last_d1,
 * last_d2, then per seat cash u32 LE, pos u8, moves_made u8, then the 24
 * owner bytes. */
static size_t encode(const struct zbc_game_state *g, uint8_t *out, size_t cap)
{
    const struct mono_state *s = cst(g);
    size_t need = 7 + (size_t)s->seats * 6 + SQUARES;
    if (cap < need)
        return 0;
    size_t p = 0;
    out[p++] = s->seats;
    out[p++] = s->first;
    out[p++] = s->to_move;
    out[p++] = s->out_mask;
    out[p++] = s->last_seat;
    out[p++] = s->last_d1;
    out[p++] = s->last_d2;
    for (unsigned i = 0; i < s->seats; i++) {
        zbc_put_le32(out + p, s->cash[i]);
        p += 4;
        out[p++] = s->pos[i];
        out[p++] = s->moves_made[i];
    }
    memcpy(out + p, s->owner, SQUARES);
    return p + SQUARES;
}

static int decode(struct zbc_game_state *g, const uint8_t *in, size_t len,
                  struct zbc_err *err)
{
    struct mono_state s;
    memset(&s, 0, sizeof s);
    if (len < 7)
        return zbc_fail(err, "monopoly state: truncated header");
    s.seats = in[0];
    s.first = in[1];
    s.to_move = in[2];
    s.out_mask = in[3];
    s.last_seat = in[4];
    s.last_d1 = in[5];
    s.last_d2 = in[6];
    if (s.seats < 2 || s.seats > 4)
        return zbc_fail(err, "monopoly state: bad seat count %u", s.seats);
    if (len != 7 + (size_t)s.seats * 6 + SQUARES)
        return zbc_fail(err, "monopoly state: %zu bytes, expected %zu", len,
                        7 + (size_t)s.seats * 6 + SQUARES);
    if (s.first >= s.seats || (s.out_mask >> s.seats) != 0)
        return zbc_fail(err, "monopoly state: bad first seat or out mask");
    if (active_count(&s) == 0)
        return zbc_fail(err, "monopoly state: every seat is out");
    size_t p = 7;
    unsigned total = 0;
    for (unsigned i = 0; i < s.seats; i++) {
        s.cash[i] = zbc_get_le32(in + p);
        p += 4;
        s.pos[i] = in[p++];
        s.moves_made[i] = in[p++];
        if (s.pos[i] >= SQUARES || s.moves_made[i] > ROUNDS)
            return zbc_fail(err, "monopoly state: seat %u position or move count out of range", i);
        /* cash can only grow by salaries and rents: far below 2^31 */
        if (s.cash[i] > 0x7fffffffu)
            return zbc_fail(err, "monopoly state: seat %u cash out of range", i);
        if (!active(&s, i) && s.cash[i] != 0)
            return zbc_fail(err, "monopoly state: seat %u is out but holds cash", i);
        total += s.moves_made[i];
    }
    memcpy(s.owner, in + p, SQUARES);
    for (unsigned q = 0; q < SQUARES; q++) {
        if (s.owner[q] == NONE)
            continue;
        if ((BOARD[q].kind != SQ_PROPERTY && BOARD[q].kind != SQ_STATION) ||
            s.owner[q] >= s.seats || !active(&s, s.owner[q]))
            return zbc_fail(err, "monopoly state: bad owner of square %u", q);
    }
    if (total == 0) {
        if (s.last_seat != NONE || s.last_d1 != 0 || s.last_d2 != 0 || s.out_mask != 0 ||
            s.to_move != s.first)
            return zbc_fail(err, "monopoly state: inconsistent start");
    } else {
        if (s.last_seat >= s.seats || s.last_d1 < 1 || s.last_d1 > 6 || s.last_d2 < 1 ||
            s.last_d2 > 6 || s.moves_made[s.last_seat] == 0)
            return zbc_fail(err, "monopoly state: bad last move");
        if (s.to_move != next_seat(&s, s.last_seat))
            return zbc_fail(err, "monopoly state: seat to move disagrees with the turn order");
    }
    memset(g->b, 0, sizeof(struct mono_state));
    memcpy(g->b, &s, sizeof s);
    return 1;
}

static const char *kind_name(enum square_kind k)
{
    switch (k) {
    case SQ_GO:
        return "go";
    case SQ_PROPERTY:
        return "property";
    case SQ_STATION:
        return "station";
    case SQ_TAX:
        return "tax";
    case SQ_REST:
        return "rest";
    }
    return "?";
}

static int to_json(const struct zbc_game_state *g, char *out, size_t cap)
{
    const struct mono_state *s = cst(g);
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    zbc_text_printf(&t, "{\"game\":\"monopoly\",\"seats\":%u,\"first\":%u,", s->seats, s->first);
    if (s->to_move == NONE)
        zbc_text_printf(&t, "\"to_move\":null,");
    else
        zbc_text_printf(&t, "\"to_move\":%u,", s->to_move);
    zbc_text_printf(&t, "\"players\":[");
    for (unsigned i = 0; i < s->seats; i++)
        zbc_text_printf(&t, "%s{\"seat\":%u,\"cash\":%u,\"worth\":%u,\"position\":%u,"
                        "\"moves_made\":%u,\"out\":%s}",
                        i ? "," : "", i, s->cash[i], worth(s, i), s->pos[i],
                        s->moves_made[i], active(s, i) ? "false" : "true");
    zbc_text_printf(&t, "],\"squares\":[");
    for (unsigned q = 0; q < SQUARES; q++) {
        zbc_text_printf(&t, "%s{\"index\":%u,\"name\":\"%s\",\"kind\":\"%s\",\"price\":%u,"
                        "\"rent\":%u,\"group\":%u,\"owner\":",
                        q ? "," : "", q, BOARD[q].name, kind_name(BOARD[q].kind),
                        BOARD[q].price, BOARD[q].rent, BOARD[q].group);
        if (s->owner[q] == NONE)
            zbc_text_printf(&t, "null}");
        else
            zbc_text_printf(&t, "%u}", s->owner[q]);
    }
    zbc_text_printf(&t, "],\"last_roll\":");
    if (s->last_seat == NONE)
        zbc_text_printf(&t, "null}");
    else
        zbc_text_printf(&t, "{\"seat\":%u,\"dice\":[%u,%u]}}", s->last_seat, s->last_d1,
                        s->last_d2);
    return zbc_text_result(&t);
}

static int render(const struct zbc_game_state *g, char *out, size_t cap)
{
    const struct mono_state *s = cst(g);
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    for (unsigned q = 0; q < SQUARES; q++) {
        zbc_text_printf(&t, "%2u %-14s", q, BOARD[q].name);
        if (BOARD[q].kind == SQ_PROPERTY || BOARD[q].kind == SQ_STATION) {
            zbc_text_printf(&t, " %4u rent %3u", BOARD[q].price, BOARD[q].rent);
            if (s->owner[q] != NONE)
                zbc_text_printf(&t, " owner %u", s->owner[q]);
            else
                zbc_text_printf(&t, "        ");
        } else if (BOARD[q].kind == SQ_TAX) {
            zbc_text_printf(&t, " tax %3u              ", BOARD[q].price);
        } else {
            zbc_text_printf(&t, "                         ");
        }
        for (unsigned i = 0; i < s->seats; i++)
            if (active(s, i) && s->pos[i] == q)
                zbc_text_printf(&t, " [%u]", i);
        zbc_text_printf(&t, "\n");
    }
    for (unsigned i = 0; i < s->seats; i++)
        zbc_text_printf(&t, "seat %u: cash %u, worth %u, moves %u/%d%s%s\n", i, s->cash[i],
                        worth(s, i), s->moves_made[i], ROUNDS, active(s, i) ? "" : ", out",
                        s->to_move == i ? "  <- to move" : "");
    if (s->last_seat != NONE)
        zbc_text_printf(&t, "last roll: seat %u rolled %u+%u\n", s->last_seat, s->last_d1,
                        s->last_d2);
    if (s->to_move == NONE) {
        struct zbc_result res;
        result(g, &res);
        if (res.kind == ZBC_RESULT_WIN)
            zbc_text_printf(&t, "game over: seat %u wins\n", res.winner);
        else
            zbc_text_printf(&t, "game over: draw\n");
    }
    return zbc_text_result(&t);
}

static int parse_move(const struct zbc_game_state *g, uint8_t seat,
                      const char *text, uint8_t *mv, size_t cap, size_t *len,
                      struct zbc_err *err)
{
    struct zbc_tokens tk;
    if (!zbc_notation_tokens(&tk, text, err))
        return 0;
    if (cap < 1)
        return zbc_fail(err, "move buffer too small");
    if (tk.count == 1 && strcmp(tk.tok[0], "roll") == 0) {
        mv[0] = 0;
    } else if (tk.count == 2 && strcmp(tk.tok[0], "roll") == 0 &&
               strcmp(tk.tok[1], "buy") == 0) {
        mv[0] = FLAG_BUY;
    } else {
        return zbc_fail(err, "a monopoly move is \"roll\" or \"roll buy\"");
    }
    *len = 1;
    return 1;
}

static int format_move(const struct zbc_game_state *g, const uint8_t *mv,
                       size_t len, char *out, size_t cap)
{
    if (len != 1 || (mv[0] & ~FLAG_BUY))
        return 0;
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    zbc_text_printf(&t, "%s", mv[0] & FLAG_BUY ? "roll buy" : "roll");
    return zbc_text_result(&t) >= 0;
}

const struct zbc_engine zbc_engine_monopoly = {
    .state_size = sizeof(struct mono_state),
    .type = 35,
    .name = "monopoly",
    .min_seats = 2,
    .max_seats = 4,
    .dice = true,
    .draws_first = true,
    .start_rolls = false,
    .secret_moves = false,
    .check_params = check_params,
    .init = init,
    .turn = turn,
    .result = result,
    .check_move = check_move,
    .apply_move = apply_move,
    .gen_moves = gen_moves,
    .encode = encode,
    .decode = decode,
    .to_json = to_json,
    .render = render,
    .parse_move = parse_move,
    .format_move = format_move,
    .params_word = params_word,
    .params_text = params_text,
};
