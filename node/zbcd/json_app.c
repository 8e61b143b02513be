#include "node/zbcd/json_app.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/crash.h"
#include "apps/engine.h"
#include "apps/fair.h"
#include "consensus/events.h"
#include "crypto/bytes.h"
#include "node/zbcd/json_util.h"

#define TEXT_CAP (64 * 1024) /* to_json / render output */
#define ZBC_APP_LEGAL_MAX 512 /* legal moves listed in one answer */

static const struct {
    uint8_t type;
    const char *name;
} solo_names[] = {
    {ZBC_BET_DICE, "dice"},
    {ZBC_BET_COIN, "coin"},
    {ZBC_BET_ROULETTE, "roulette"},
    {ZBC_BET_LIMBO, "limbo"},
    {ZBC_BET_PLINKO, "plinko"},
    {ZBC_BET_KENO, "keno"},
    {ZBC_BET_WHEEL, "wheel"},
    {ZBC_BET_BACCARAT, "baccarat"},
    {ZBC_BET_BLITZ, "blitz"},
    {ZBC_CRASH_TYPE, "crash"},
};

const char *zbc_app_game_name(uint8_t type)
{
    const struct zbc_engine *e = zbc_engine_by_type(type);
    if (e != NULL)
        return e->name;
    for (size_t i = 0; i < sizeof solo_names / sizeof solo_names[0]; i++)
        if (solo_names[i].type == type)
            return solo_names[i].name;
    return NULL;
}

uint8_t zbc_app_type_by_name(const char *name)
{
    const struct zbc_engine *e = zbc_engine_by_name(name);
    if (e != NULL)
        return e->type;
    for (size_t i = 0; i < sizeof solo_names / sizeof solo_names[0]; i++)
        if (strcmp(solo_names[i].name, name) == 0)
            return solo_names[i].type;
    return 0;
}

static json_t *id_text(uint64_t id)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%" PRIu64, id);
    return json_string(buf);
}

static json_t *seat_or_null(unsigned seat, unsigned seats)
{
    return seat < seats ? json_integer(seat) : json_null();
}

static json_t *seat_addr(const struct zbc_app *a, unsigned seat)
{
    return seat < a->n_seated ? zbc_json_addr_text(&a->seat[seat])
                              : json_null();
}

static int players(json_t *o, const struct zbc_app *a, struct zbc_err *err)
{
    json_t *arr = json_array();
    if (!zbc_json_set(o, "players", arr, err))
        return 0;
    for (unsigned i = 0; i < a->n_seated; i++) {
        uint8_t typed[ZBC_ADDR_BYTES_MAX];
        size_t tlen = zbc_addr_write(typed, &a->seat[i]);
        json_t *p = json_object();
        if (p == NULL || json_array_append_new(arr, p) != 0)
            return zbc_fail(err, "out of memory listing players");
        if (!zbc_json_set(p, "seat", json_integer(i), err) ||
            !zbc_json_set(p, "address", zbc_json_addr_text(&a->seat[i]),
                          err) ||
            !zbc_json_set(p, "account_address", zbc_json_hex(typed, tlen),
                          err))
            return 0;
    }
    return 1;
}

int zbc_json_app_summary(json_t **out, const struct zbc_app *a, uint32_t tip,
                         struct zbc_err *err)
{
    json_t *o = json_object();
    if (o == NULL)
        return zbc_fail(err, "out of memory building an app");
    const char *game = zbc_app_game_name(a->type);
    bool clocked = a->clock != ZBC_APP_NO_CLOCK && a->clock < a->seats;
    bool has_deadline = a->deadline != 0 && a->status == ZBC_APP_ACTIVE;
    uint64_t left = has_deadline && a->deadline > tip ? a->deadline - tip : 0;
    int ok =
        zbc_json_set(o, "id", id_text(a->id), err) &&
        zbc_json_set(o, "type", json_integer(a->type), err) &&
        zbc_json_set(o, "game", game ? json_string(game) : json_null(), err) &&
        zbc_json_set(o, "solo", json_boolean(zbc_bet_is_solo(a->type)),
                     err) &&
        zbc_json_set(o, "status",
                     json_string(zbc_app_status_name(a->status)), err) &&
        zbc_json_set(o, "seats", json_integer(a->seats), err) &&
        zbc_json_set(o, "seated", json_integer(a->n_seated), err) &&
        players(o, a, err) &&
        zbc_json_set(o, "opponent",
                     a->has_opponent ? zbc_json_addr_text(&a->opponent)
                                     : json_null(),
                     err) &&
        zbc_json_set(o, "stake", zbc_json_u64(a->stake), err) &&
        zbc_json_set(o, "pot", zbc_json_u64(a->pot), err) &&
        zbc_json_set(o, "escrow", zbc_json_u64(a->escrow), err) &&
        zbc_json_set(o, "params_hex", zbc_json_hex(a->params, a->params_len),
                     err) &&
        zbc_json_set(o, "created", json_integer(a->created), err) &&
        zbc_json_set(o, "joined",
                     a->joined ? json_integer(a->joined) : json_null(), err) &&
        zbc_json_set(o, "moves", json_integer(a->moves), err) &&
        zbc_json_set(o, "first_turn_pending", json_boolean(a->first_pending),
                     err) &&
        zbc_json_set(o, "clock", clocked ? json_integer(a->clock) : json_null(),
                     err) &&
        zbc_json_set(o, "clock_address",
                     clocked ? seat_addr(a, a->clock) : json_null(), err) &&
        zbc_json_set(o, "deadline",
                     has_deadline ? zbc_json_u64(a->deadline) : json_null(),
                     err) &&
        zbc_json_set(o, "blocks_left",
                     has_deadline ? zbc_json_u64(left) : json_null(), err) &&
        /* a claim in the next block (height tip + 1) needs tip >= deadline */
        zbc_json_set(o, "timeout_claimable",
                     json_boolean(has_deadline && clocked &&
                                  tip >= a->deadline),
                     err) &&
        zbc_json_set(o, "has_pending", json_boolean(a->has_pending), err) &&
        zbc_json_set(o, "ending", json_string(zbc_app_end_name(a->end)),
                     err) &&
        zbc_json_set(o, "outcome",
                     a->end == ZBC_END_NONE
                         ? json_null()
                         : json_string(zbc_app_end_name(a->end)),
                     err) &&
        zbc_json_set(o, "ended", a->ended ? json_integer(a->ended)
                                          : json_null(), err) &&
        zbc_json_set(o, "height", json_integer(tip), err);
    if (!ok) {
        json_decref(o);
        return 0;
    }
    *out = o;
    return 1;
}

/* ---- the engine's views ---- */

/* legal_moves: the notation of every move the seat to move can make that
 * needs no private data (engine gen_moves; at most ZBC_APP_LEGAL_MAX
 * listed, legal_moves_total counts all). */
static int legal_moves(json_t *o, const struct zbc_engine *e,
                       const struct zbc_game_state *st, struct zbc_err *err)
{
    json_t *arr = json_array();
    if (!zbc_json_set(o, "legal_moves", arr, err))
        return 0;
    struct zbc_move *mv = malloc(ZBC_MOVES_MAX * sizeof *mv);
    if (mv == NULL)
        return zbc_fail(err, "out of memory listing legal moves");
    size_t n = e->turn(st) >= 0 ? e->gen_moves(st, mv, ZBC_MOVES_MAX) : 0;
    int ok = 1;
    for (size_t i = 0; ok && i < n && i < ZBC_APP_LEGAL_MAX; i++) {
        char text[256];
        if (!e->format_move(st, mv[i].b, mv[i].len, text, sizeof text))
            continue;
        if (json_array_append_new(arr, json_string(text)) != 0)
            ok = zbc_fail(err, "out of memory listing legal moves");
    }
    free(mv);
    return ok && zbc_json_set(o, "legal_moves_total",
                              json_integer((json_int_t)n), err);
}

/* state_hex, view (the engine's JSON object), board (text), turn,
 * legal_moves. */
static int engine_views(json_t *o, const struct zbc_app *a,
                        struct zbc_game_state *st, bool *have_state,
                        struct zbc_err *err)
{
    const struct zbc_engine *e = zbc_app_engine(a);
    *have_state = false;
    if (!zbc_json_set(o, "state_hex", zbc_json_hex(a->state, a->state_len),
                      err))
        return 0;
    if (e == NULL || a->state_len == 0)
        return zbc_json_set(o, "view", json_null(), err) &&
               zbc_json_set(o, "board", json_null(), err) &&
               zbc_json_set(o, "turn", json_null(), err) &&
               zbc_json_set(o, "legal_moves", json_array(), err) &&
               zbc_json_set(o, "legal_moves_total", json_integer(0), err);
    struct zbc_err derr;
    if (!e->decode(st, a->state, a->state_len, &derr))
        return zbc_fail(err, "stored state of app %" PRIu64 " does not "
                        "decode: %s", a->id, derr.msg);
    *have_state = true;
    char *buf = malloc(TEXT_CAP);
    if (buf == NULL)
        return zbc_fail(err, "out of memory rendering app %" PRIu64, a->id);
    json_t *view = NULL;
    if (e->to_json(st, buf, TEXT_CAP) >= 0)
        view = json_loads(buf, JSON_REJECT_DUPLICATES, NULL);
    int ok = zbc_json_set(o, "view", view != NULL ? view : json_null(), err);
    if (ok && e->render(st, buf, TEXT_CAP) >= 0)
        ok = zbc_json_set(o, "board", json_string(buf), err);
    else if (ok)
        ok = zbc_json_set(o, "board", json_null(), err);
    free(buf);
    int turn = e->turn(st);
    return ok && zbc_json_set(o, "turn", turn >= 0 ? json_integer(turn)
                                                   : json_null(), err) &&
           legal_moves(o, e, st, err);
}

/* Notation of move bytes, or JSON null when the engine cannot write them
 * (secret moves, or no state to read the board size from). */
static json_t *notation(const struct zbc_app *a,
                        const struct zbc_game_state *st, const uint8_t *move,
                        size_t len)
{
    const struct zbc_engine *e = zbc_app_engine(a);
    char text[256];
    if (e == NULL || len == 0 || !e->format_move(st, move, len, text,
                                                 sizeof text))
        return json_null();
    return json_string(text);
}

static int pending(json_t *o, const struct zbc_app *a,
                   const struct zbc_game_state *st, uint32_t tip,
                   struct zbc_err *err)
{
    if (!a->has_pending)
        return zbc_json_set(o, "pending", json_null(), err);
    json_t *p = json_object();
    return zbc_json_set(o, "pending", p, err) &&
           zbc_json_set(p, "seat", json_integer(a->pending_seat), err) &&
           zbc_json_set(p, "address", seat_addr(a, a->pending_seat), err) &&
           zbc_json_set(p, "tx_hash", zbc_json_hex(a->pending_hash, 32),
                        err) &&
           zbc_json_set(p, "move_hex",
                        zbc_json_hex(a->pending_move, a->pending_len), err) &&
           zbc_json_set(p, "notation",
                        notation(a, st, a->pending_move, a->pending_len),
                        err) &&
           zbc_json_set(p, "applies_at", json_integer((json_int_t)tip + 1),
                        err);
}

/* Extra fields of a history entry: the rolls a move used and where they
 * come from (roll stream H("ZBC-DICE" || seed(roll_seed_height) ||
 * roll_tag || counter u32 LE): the move's tx hash, or the app id as 8 LE
 * bytes for a start position), a bet's outcome. */
static int entry_data(json_t *j, const struct zbc_app_history *h,
                      struct zbc_err *err)
{
    const struct zbc_event *ev = &h->ev;
    if ((ev->kind == ZBC_EVENT_APP_MOVE || ev->kind == ZBC_EVENT_APP_ACTIVATE) &&
        ev->data_len >= 4) {
        uint8_t tag[8];
        zbc_put_le64(tag, ev->ref);
        return zbc_json_set(j, "roll_bytes_used",
                            json_integer(zbc_get_le32(ev->data)), err) &&
               zbc_json_set(j, "rolls_hex",
                            zbc_json_hex(ev->data + 4, ev->data_len - 4u),
                            err) &&
               zbc_json_set(j, "roll_seed_height", json_integer(h->height),
                            err) &&
               zbc_json_set(j, "roll_tag",
                            ev->kind == ZBC_EVENT_APP_MOVE
                                ? zbc_json_hex(ev->tx_hash, 32)
                                : zbc_json_hex(tag, 8),
                            err);
    }
    /* a bet: u, value, win; a crash entry (15 bytes): value = the crash
     * point, then the entry index and target */
    if (ev->kind == ZBC_EVENT_BET_SETTLE &&
        (ev->data_len == 9 || ev->data_len == 15) &&
        (!zbc_json_set(j, "u", json_integer(zbc_get_le32(ev->data)), err) ||
         !zbc_json_set(j, "value", json_integer(zbc_get_le32(ev->data + 4)),
                       err) ||
         !zbc_json_set(j, "win", json_boolean(ev->data[8] != 0), err)))
        return 0;
    if (ev->kind == ZBC_EVENT_BET_SETTLE && ev->data_len == 15)
        return zbc_json_set(j, "entry",
                            json_integer(zbc_get_le16(ev->data + 9)), err) &&
               zbc_json_set(j, "target",
                            json_integer(zbc_get_le32(ev->data + 11)), err);
    return 1;
}

static int history(json_t *o, const struct zbc_app_snapshot *s,
                   const struct zbc_game_state *st, struct zbc_err *err)
{
    json_t *arr = json_array();
    if (!zbc_json_set(o, "history", arr, err) ||
        !zbc_json_set(o, "history_first", json_integer(s->history_first),
                      err) ||
        !zbc_json_set(o, "history_total", json_integer(s->app.history_n),
                      err))
        return 0;
    for (size_t i = 0; i < s->n_hist; i++) {
        const struct zbc_app_history *h = &s->hist[i];
        json_t *j;
        if (!zbc_json_event(&j, &h->ev, err))
            return 0;
        if (json_array_append_new(arr, j) != 0)
            return zbc_fail(err, "out of memory listing the history");
        if (!zbc_json_set(j, "seq", json_integer((json_int_t)(s->history_first + i)),
                          err) ||
            !zbc_json_set(j, "height", json_integer(h->height), err) ||
            !zbc_json_set(j, "move_hex", zbc_json_hex(h->move, h->move_len),
                          err) ||
            !zbc_json_set(j, "notation", notation(&s->app, st, h->move,
                                                  h->move_len), err) ||
            !entry_data(j, h, err))
            return 0;
    }
    return 1;
}

/* "seat 1", "seats 1 and 2", "seats 0, 1 and 3" for the seats in mask. */
static void seats_text(char *out, size_t cap, uint8_t mask)
{
    unsigned n = (unsigned)__builtin_popcount(mask), k = 0;
    size_t p = (size_t)snprintf(out, cap, "%s", n == 1 ? "seat" : "seats");
    for (unsigned i = 0; i < ZBC_SEATS_MAX && p < cap; i++) {
        if (!(mask >> i & 1))
            continue;
        const char *sep = k == 0 ? " " : k + 1 == n ? " and " : ", ";
        p += (size_t)snprintf(out + p, cap - p, "%s%u", sep, i);
        k++;
    }
}

/* The result's one sentence (docs/api.md §10). */
static void reason_text(char *out, size_t cap, const struct zbc_app *a,
                        uint8_t winners, uint8_t out_mask)
{
    char who[64], outs[64];
    seats_text(who, sizeof who, winners);
    seats_text(outs, sizeof outs, out_mask);
    const char *share = __builtin_popcount(winners) == 1 ? "takes the pot"
                                                         : "share the pot";
    switch ((enum zbc_app_end)a->end) {
    case ZBC_END_WIN:
        snprintf(out, cap, "seat %u won; it takes the pot", a->winner);
        return;
    case ZBC_END_DRAW:
        snprintf(out, cap, "a draw; every seat gets its stake back");
        return;
    case ZBC_END_RESIGN:
    case ZBC_END_TIMEOUT:
        snprintf(out, cap, "seat %u %s; %s %s%s%s%s", a->loser,
                 a->end == ZBC_END_RESIGN ? "resigned" : "timed out", who,
                 share, out_mask ? " (" : "", out_mask ? outs : "",
                 out_mask ? " out of play)" : "");
        return;
    case ZBC_END_BET:
        snprintf(out, cap, "the bet %s", a->winner == 0 ? "won" : "lost");
        return;
    case ZBC_END_ABANDONED:
        snprintf(out, cap, "every seat left before the game started");
        return;
    case ZBC_END_EXPIRED:
        snprintf(out, cap, "nobody filled the seats before the open "
                           "deadline; every stake went back");
        return;
    case ZBC_END_CASHOUT:
        snprintf(out, cap, "the player was paid %llu; the rest went back to "
                           "the apps fund", (unsigned long long)a->paid[0]);
        return;
    case ZBC_END_BUST:
        snprintf(out, cap, "the player lost the stake; the pot went back to "
                           "the apps fund");
        return;
    case ZBC_END_NONE:
        break;
    }
    snprintf(out, cap, "not ended");
}

static json_t *seat_list(uint8_t mask)
{
    json_t *arr = json_array();
    for (unsigned i = 0; arr != NULL && i < ZBC_SEATS_MAX; i++)
        if (mask >> i & 1)
            json_array_append_new(arr, json_integer(i));
    return arr;
}

/* Seats paid as winners: the win's winner, a resign / timeout's
 * receivers, a won bet's bettor (never a draw's refunds). */
static uint8_t winner_seats(const struct zbc_app *a, uint8_t out)
{
    switch ((enum zbc_app_end)a->end) {
    case ZBC_END_WIN:
    case ZBC_END_BET:
    case ZBC_END_CASHOUT:
        return a->winner < a->n_seated ? (uint8_t)(1u << a->winner) : 0;
    case ZBC_END_RESIGN:
    case ZBC_END_TIMEOUT:
        return zbc_app_split_seats(a->n_seated, a->loser, out);
    default:
        return 0;
    }
}

/* result: null until the app ended; then the outcome record of
 * docs/api.md §10 (outcome, winner, winners, resigned, timed_out, out,
 * rake, paid, reason) and the payout events. */
static int result(json_t *o, const struct zbc_app_snapshot *s,
                  struct zbc_err *err)
{
    const struct zbc_app *a = &s->app;
    if (a->end == ZBC_END_NONE)
        return zbc_json_set(o, "result", json_null(), err);
    json_t *r = json_object();
    json_t *pay = json_array();
    json_t *paid = json_array();
    uint8_t out = 0;
    struct zbc_err why;
    if (!zbc_app_out_mask(a, &out, &why))
        out = 0; /* the state is checked by the engine views */
    uint8_t winners = winner_seats(a, out);
    bool winner = a->winner < a->n_seated;
    bool resigned = a->end == ZBC_END_RESIGN && a->loser < a->n_seated;
    bool timed_out = a->end == ZBC_END_TIMEOUT && a->loser < a->n_seated;
    char reason[256];
    reason_text(reason, sizeof reason, a, winners, out);
    const char *outcome = zbc_app_end_name(a->end);
    if (!zbc_json_set(o, "result", r, err) ||
        !zbc_json_set(r, "outcome", json_string(outcome), err) ||
        !zbc_json_set(r, "ending", json_string(outcome), err) ||
        !zbc_json_set(r, "winner", winner ? json_integer(a->winner)
                                          : json_null(), err) ||
        !zbc_json_set(r, "winner_address",
                      winner ? seat_addr(a, a->winner) : json_null(), err) ||
        !zbc_json_set(r, "winners", seat_list(winners), err) ||
        !zbc_json_set(r, "resigned", resigned ? json_integer(a->loser)
                                              : json_null(), err) ||
        !zbc_json_set(r, "resigned_address",
                      resigned ? seat_addr(a, a->loser) : json_null(), err) ||
        !zbc_json_set(r, "timed_out", timed_out ? json_integer(a->loser)
                                                : json_null(), err) ||
        !zbc_json_set(r, "timed_out_address",
                      timed_out ? seat_addr(a, a->loser) : json_null(), err) ||
        !zbc_json_set(r, "out", seat_list(out), err) ||
        !zbc_json_set(r, "rake", zbc_json_u64(a->rake), err) ||
        !zbc_json_set(r, "ended", json_integer(a->ended), err) ||
        !zbc_json_set(r, "reason", json_string(reason), err) ||
        !zbc_json_set(r, "paid", paid, err) ||
        !zbc_json_set(r, "payouts", pay, err))
        return 0;
    for (unsigned i = 0; i < a->n_seated; i++) {
        json_t *p = json_object();
        if (p == NULL || json_array_append_new(paid, p) != 0)
            return zbc_fail(err, "out of memory listing what was paid");
        if (!zbc_json_set(p, "seat", json_integer(i), err) ||
            !zbc_json_set(p, "address", seat_addr(a, i), err) ||
            !zbc_json_set(p, "amount", zbc_json_u64(a->paid[i]), err))
            return 0;
    }
    for (size_t i = 0; i < s->n_hist; i++) {
        const struct zbc_event *ev = &s->hist[i].ev;
        if (ev->kind != ZBC_EVENT_APP_PAYOUT)
            continue;
        json_t *p = json_object();
        if (p == NULL || json_array_append_new(pay, p) != 0)
            return zbc_fail(err, "out of memory listing payouts");
        if (!zbc_json_set(p, "seat", seat_or_null(ev->seat, a->seats), err) ||
            !zbc_json_set(p, "address", zbc_json_addr_text(&ev->b), err) ||
            !zbc_json_set(p, "amount", zbc_json_u64(ev->amount), err) ||
            !zbc_json_set(p, "reason", json_string(ev->reason), err) ||
            !zbc_json_set(p, "height", json_integer(s->hist[i].height), err))
            return 0;
    }
    return 1;
}

/* A solo bet's parameters as words. */
static int bet_fields(json_t *o, const struct zbc_app *a, struct zbc_err *err)
{
    if (!zbc_bet_is_solo(a->type))
        return zbc_json_set(o, "bet", json_null(), err);
    struct zbc_bet bet;
    struct zbc_err perr;
    json_t *b = json_object();
    if (!zbc_json_set(o, "bet", b, err))
        return 0;
    if (!zbc_bet_parse(&bet, a->type, a->params, a->params_len, &perr))
        return zbc_fail(err, "stored bet %" PRIu64 " has bad params: %s",
                        a->id, perr.msg);
    int ok = zbc_json_set(b, "client_seed", json_string(bet.client_seed),
                          err) &&
             zbc_json_set(b, "nonce", id_text(a->id), err) &&
             zbc_json_set(b, "seed_height",
                          json_integer((json_int_t)a->created + 1), err);
    switch (bet.game) {
    case ZBC_BET_DICE:
        return ok &&
               zbc_json_set(b, "direction",
                            json_string(bet.direction ? "over" : "under"),
                            err) &&
               zbc_json_set(b, "target", json_integer(bet.target16), err);
    case ZBC_BET_COIN:
        return ok && zbc_json_set(b, "side",
                                  json_string(bet.direction ? "tails"
                                                            : "heads"),
                                  err);
    case ZBC_BET_ROULETTE:
        return ok && zbc_json_set(b, "kind", json_integer(bet.kind), err) &&
               zbc_json_set(b, "number", json_integer(bet.number), err);
    case ZBC_BET_LIMBO:
        return ok && zbc_json_set(b, "target", json_integer(bet.target32),
                                  err);
    case ZBC_BET_PLINKO:
        return ok && zbc_json_set(b, "rows", json_integer(bet.rows), err) &&
               zbc_json_set(b, "risk", json_integer(bet.risk), err);
    case ZBC_BET_KENO: {
        if (!ok)
            return 0;
        json_t *picks = json_array();
        for (uint32_t i = 0; i < bet.n_picks; i++)
            json_array_append_new(picks, json_integer(bet.picks[i]));
        return zbc_json_set(b, "picks", picks, err) &&
               zbc_json_set(b, "risk", json_integer(bet.risk), err);
    }
    case ZBC_BET_WHEEL:
        return ok &&
               zbc_json_set(b, "segments", json_integer(bet.segments), err) &&
               zbc_json_set(b, "risk", json_integer(bet.risk), err);
    case ZBC_BET_BACCARAT:
        return ok && zbc_json_set(b, "side", json_integer(bet.side), err);
    case ZBC_BET_BLITZ:
        return ok && zbc_json_set(b, "cards", json_integer(bet.cards), err);
    }
    return ok;
}

/* A crash round (docs/games.md "Crash"): its window and seed, the crash
 * point once settled and every entry, read from the history (app_join
 * data = index u16 | target u32 | return u64; bet_settle data = u u32 |
 * point u32 | win u8 | index u16 | target u32). */
static int crash_fields(json_t *o, const struct zbc_app_snapshot *s,
                        struct zbc_err *err)
{
    const struct zbc_app *a = &s->app;
    if (a->type != ZBC_CRASH_TYPE)
        return zbc_json_set(o, "crash", json_null(), err);
    struct zbc_crash_params p;
    struct zbc_err perr;
    if (!zbc_crash_parse(&p, a->params, a->params_len, &perr))
        return zbc_fail(err, "stored crash round %" PRIu64 " has bad params: "
                             "%s", a->id, perr.msg);
    json_t *c = json_object(), *entries = json_array();
    if (!zbc_json_set(o, "crash", c, err) ||
        !zbc_json_set(c, "entries", entries, err))
        return 0;
    bool settled = false;
    uint32_t point = 0, u = 0;
    for (size_t i = 0; i < s->n_hist; i++) {
        const struct zbc_app_history *h = &s->hist[i];
        const struct zbc_event *ev = &h->ev;
        if (ev->kind == ZBC_EVENT_APP_JOIN && ev->data_len == 14) {
            json_t *e = json_object();
            if (json_array_append_new(entries, e) != 0)
                return zbc_fail(err, "out of memory listing crash entries");
            uint32_t target = zbc_get_le32(ev->data + 2);
            if (!zbc_json_set(e, "index",
                              json_integer(zbc_get_le16(ev->data)), err) ||
                !zbc_json_set(e, "address", zbc_json_addr_text(&ev->a),
                              err) ||
                !zbc_json_set(e, "stake", zbc_json_u64(ev->amount), err) ||
                !zbc_json_set(e, "target", json_integer(target), err) ||
                !zbc_json_set(e, "max_return",
                              zbc_json_u64(zbc_get_le64(ev->data + 6)),
                              err) ||
                !zbc_json_set(e, "height", json_integer(h->height), err) ||
                !zbc_json_set(e, "cashed_out", json_null(), err) ||
                !zbc_json_set(e, "returns", json_null(), err))
                return 0;
        }
        if (ev->kind == ZBC_EVENT_BET_SETTLE && ev->data_len == 15) {
            settled = true;
            u = zbc_get_le32(ev->data);
            point = zbc_get_le32(ev->data + 4);
            json_t *e = json_array_get(entries, zbc_get_le16(ev->data + 9));
            if (e != NULL &&
                (!zbc_json_set(e, "cashed_out",
                               json_boolean(ev->data[8] != 0), err) ||
                 !zbc_json_set(e, "returns", zbc_json_u64(ev->amount), err)))
                return 0;
        }
    }
    return zbc_json_set(c, "window", json_integer(p.window), err) &&
           zbc_json_set(c, "close", zbc_json_u64(a->deadline), err) &&
           zbc_json_set(c, "seed_height", zbc_json_u64(a->deadline + 1),
                        err) &&
           zbc_json_set(c, "open", json_boolean(a->status == ZBC_APP_ACTIVE &&
                                                s->tip < a->deadline), err) &&
           zbc_json_set(c, "client_seed", json_string(p.client_seed), err) &&
           zbc_json_set(c, "nonce", id_text(a->id), err) &&
           zbc_json_set(c, "crash_point",
                        settled ? json_integer(point) : json_null(), err) &&
           zbc_json_set(c, "u", settled ? json_integer(u) : json_null(), err);
}

int zbc_json_app(json_t **out, const struct zbc_app_snapshot *s,
                 struct zbc_err *err)
{
    json_t *o;
    if (!zbc_json_app_summary(&o, &s->app, s->tip, err))
        return 0;
    struct zbc_game_state *st = malloc(sizeof *st);
    bool have = false;
    int ok = st != NULL;
    if (!ok)
        zbc_fail(err, "out of memory building app %" PRIu64, s->app.id);
    ok = ok && engine_views(o, &s->app, st, &have, err);
    const struct zbc_game_state *stp = have ? st : NULL;
    ok = ok && pending(o, &s->app, stp, s->tip, err) &&
         history(o, s, stp, err) && result(o, s, err) &&
         bet_fields(o, &s->app, err) && crash_fields(o, s, err);
    free(st);
    if (!ok) {
        json_decref(o);
        return 0;
    }
    *out = o;
    return 1;
}
