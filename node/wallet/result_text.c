/* Result, roll, bet and clock words (docs/wallet.md "Playing"). */
#include "node/wallet/result_text.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "apps/engine.h"
#include "apps/fair.h"
#include "apps/fair_pay.h"
#include "apps/notation.h"
#include "crypto/hex.h"
#include "node/wallet/amount.h"
#include "node/client/bet_pictures.h"

#define SEATS_MAX 255

static const char *str(const json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

/* A seat field: 0..254, else -1 (null, absent, not a number). */
static int seat_of(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    if (!json_is_integer(v) || json_integer_value(v) < 0 ||
        json_integer_value(v) >= SEATS_MAX)
        return -1;
    return (int)json_integer_value(v);
}

static uint64_t amount_of(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_integer(v) && json_integer_value(v) > 0 ? (uint64_t)json_integer_value(v) : 0;
}

/* An array of seats: n seats into out (in the array's order, bad entries
 * skipped). */
static int seat_list(const json_t *arr, int *out, int cap)
{
    int n = 0;
    size_t i;
    const json_t *v;
    json_array_foreach(arr, i, v) {
        if (json_is_integer(v) && json_integer_value(v) >= 0 &&
            json_integer_value(v) < SEATS_MAX && n < cap)
            out[n++] = (int)json_integer_value(v);
    }
    return n;
}

/* "seat 1", "seats 1 and 2", "seats 0, 1 and 3". */
static void seats_words(struct zbc_text *t, const int *s, int n)
{
    zbc_text_printf(t, "seat%s ", n > 1 ? "s" : "");
    for (int i = 0; i < n; i++)
        zbc_text_printf(t, "%s%d", i == 0 ? "" : i == n - 1 ? " and " : ", ", s[i]);
}

/* What seat s was paid: the result's "paid" entry, else the sum of its
 * "payouts" (a node before app record version 2). */
static uint64_t paid_to(const json_t *r, int s)
{
    uint64_t sum = 0;
    size_t i;
    const json_t *p;
    if (json_is_array(json_object_get(r, "paid"))) {
        json_array_foreach(json_object_get(r, "paid"), i, p) {
            if (seat_of(p, "seat") == s)
                return amount_of(p, "amount");
        }
        return 0;
    }
    json_array_foreach(json_object_get(r, "payouts"), i, p) {
        if (seat_of(p, "seat") == s)
            sum += amount_of(p, "amount");
    }
    return sum;
}

static const char *address_of(const json_t *app, int s)
{
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(app, "players"), i, p) {
        if (seat_of(p, "seat") == s)
            return str(p, "address");
    }
    return NULL;
}

/* The facts of a result, from (I1) fields or the old ones. */
struct facts {
    const char *outcome;
    int resigned, timed_out;
    int winners[SEATS_MAX], nwinners;
    int out[SEATS_MAX], nout;
};

static void read_facts(const json_t *app, const json_t *r, struct facts *f)
{
    f->outcome = str(r, "outcome");
    f->resigned = f->timed_out = -1;
    f->nwinners = f->nout = 0;
    if (f->outcome != NULL) {
        f->resigned = seat_of(r, "resigned");
        f->timed_out = seat_of(r, "timed_out");
        f->nwinners = seat_list(json_object_get(r, "winners"), f->winners, SEATS_MAX);
        if (f->nwinners == 0 && seat_of(r, "winner") >= 0)
            f->winners[f->nwinners++] = seat_of(r, "winner");
        f->nout = seat_list(json_object_get(r, "out"), f->out, SEATS_MAX);
        return;
    }
    /* Before "outcome": "ending" and a "winner" that is the seat that
     * resigned or timed out for those endings (docs/api.md §10, as it was). */
    f->outcome = str(r, "ending") != NULL ? str(r, "ending") : "unknown";
    int w = seat_of(r, "winner");
    if (strcmp(f->outcome, "win") == 0) {
        if (w >= 0)
            f->winners[f->nwinners++] = w;
        return;
    }
    if (strcmp(f->outcome, "resign") == 0)
        f->resigned = w;
    else if (strcmp(f->outcome, "timeout") == 0)
        f->timed_out = w;
    else
        return;
    /* the winners: every other seat the payouts paid */
    int seats = (int)json_integer_value(json_object_get(app, "seats"));
    for (int s = 0; s < seats && s < SEATS_MAX; s++)
        if (s != w && paid_to(r, s) > 0)
            f->winners[f->nwinners++] = s;
}

int zbc_end_event_text(const json_t *entry, char *out, size_t cap)
{
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    const char *outcome = str(entry, "outcome");
    if (outcome == NULL) {
        const char *reason = str(entry, "reason");
        zbc_text_printf(&t, "%s", reason != NULL && reason[0] != '\0' ? reason : "ended");
    } else {
        zbc_text_printf(&t, "%s", outcome);
        const char *sep = ": ";
        if (seat_of(entry, "resigned") >= 0) {
            zbc_text_printf(&t, "%sseat %d resigned", sep, seat_of(entry, "resigned"));
            sep = ", ";
        }
        if (seat_of(entry, "timed_out") >= 0) {
            zbc_text_printf(&t, "%sseat %d timed out", sep, seat_of(entry, "timed_out"));
            sep = ", ";
        }
        if (seat_of(entry, "winner") >= 0)
            zbc_text_printf(&t, "%sseat %d won", sep, seat_of(entry, "winner"));
    }
    int n = zbc_text_result(&t);
    if (n < 0 && cap > 0)
        out[0] = '\0';
    return n;
}

int zbc_result_winner(const json_t *app)
{
    const json_t *r = json_object_get(app, "result");
    if (!json_is_object(r))
        return -1;
    struct facts f;
    read_facts(app, r, &f);
    if (strcmp(f.outcome, "bet") == 0 || strcmp(f.outcome, "draw") == 0 || f.nwinners != 1)
        return -1;
    return f.winners[0];
}

int zbc_result_text(const json_t *app, char *out, size_t cap)
{
    const json_t *r = json_object_get(app, "result");
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    if (!json_is_object(r)) {
        if (cap > 0)
            out[0] = '\0';
        return -1;
    }
    struct facts f;
    read_facts(app, r, &f);
    char amt[32], cause[64] = "";
    uint64_t rake = amount_of(r, "rake");
    if (f.resigned >= 0)
        snprintf(cause, sizeof cause, "seat %d resigned", f.resigned);
    else if (f.timed_out >= 0)
        snprintf(cause, sizeof cause, "seat %d timed out", f.timed_out);
    if (strcmp(f.outcome, "bet") == 0) {
        if (zbc_bet_text(app, out, cap) < 0)
            zbc_text_printf(&t, "bet settled");
        return (int)strlen(out);
    }
    if (strcmp(f.outcome, "cashout") == 0 || strcmp(f.outcome, "bust") == 0) {
        /* a multi-step solo game (docs/protocol-apps.md §13): the engine's
         * multiplier from its view, the amounts from the result, the
         * clock from the history's app_end reason */
        const char *mult = str(json_object_get(app, "view"), "multiplier");
        uint64_t stake = amount_of(app, "stake"), got = paid_to(r, 0);
        bool clock = false;
        size_t i;
        json_t *h;
        json_array_foreach(json_object_get(app, "history"), i, h)
            if (strcmp(str(h, "kind") ? str(h, "kind") : "", "app_end") == 0)
                clock = strcmp(str(h, "reason") ? str(h, "reason") : "", "clock") == 0;
        char st[32], diff[32];
        zbc_amount_format(st, stake);
        zbc_amount_format(amt, got);
        zbc_amount_format(diff, got >= stake ? got - stake : stake - got);
        if (strcmp(f.outcome, "bust") == 0)
            zbc_text_printf(&t, "bust: the stake of %s went to the apps fund", st);
        else
            zbc_text_printf(&t, "%s %sx: paid %s for a stake of %s (%s %s)",
                            clock ? "settled by the clock at"
                            : strcmp(str(json_object_get(app, "view"), "status")
                                         ? str(json_object_get(app, "view"), "status")
                                         : "",
                                     "cashout") == 0
                                ? "cashed out at"
                                : "returned",
                            mult != NULL ? mult : "?", amt, st,
                            got >= stake ? "won" : "lost", diff);
        goto done;
    }
    if (strcmp(f.outcome, "draw") == 0) {
        zbc_text_printf(&t, "draw: stakes returned");
    } else if (strcmp(f.outcome, "expired") == 0) {
        zbc_text_printf(&t, "expired: not every seat was filled in time, stakes refunded");
    } else if (strcmp(f.outcome, "abandoned") == 0) {
        zbc_text_printf(&t, "abandoned: %s%sstakes refunded", cause, cause[0] ? ", " : "");
    } else if (f.nwinners == 1) {
        const char *a = address_of(app, f.winners[0]);
        zbc_amount_format(amt, paid_to(r, f.winners[0]));
        zbc_text_printf(&t, "seat %d%s%s%s won %s", f.winners[0], a ? " (" : "", a ? a : "",
                        a ? ")" : "", amt);
        if (cause[0] != '\0')
            zbc_text_printf(&t, ": %s", cause);
    } else if (f.nwinners > 1) {
        uint64_t sum = 0;
        for (int i = 0; i < f.nwinners; i++)
            sum += paid_to(r, f.winners[i]);
        zbc_amount_format(amt, sum);
        seats_words(&t, f.winners, f.nwinners);
        zbc_text_printf(&t, " share %s", amt);
        if (cause[0] != '\0')
            zbc_text_printf(&t, ": %s", cause);
    } else {
        zbc_text_printf(&t, "%s: %s%sno seat was paid", f.outcome, cause, cause[0] ? ", " : "");
    }
    if (f.nout > 0) {
        zbc_text_printf(&t, "; out of play: ");
        seats_words(&t, f.out, f.nout);
    }
    if (rake > 0) {
        zbc_amount_format(amt, rake);
        zbc_text_printf(&t, " (rake %s)", amt);
    }
done:;
    int n = zbc_text_result(&t);
    if (n < 0 && cap > 0)
        out[0] = '\0';
    return n;
}

bool zbc_app_rolls_d6(const json_t *app)
{
    json_int_t type = json_integer_value(json_object_get(app, "type"));
    const struct zbc_engine *e =
        type > 0 && type < 256 ? zbc_engine_by_type((uint8_t)type) : NULL;
    return e != NULL && e->dice && !e->start_rolls;
}

int zbc_roll_text(const json_t *entry, bool d6, char *out, size_t cap)
{
    const char *hex = str(entry, "rolls_hex");
    const json_t *used_j = json_object_get(entry, "roll_bytes_used");
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    if (cap > 0)
        out[0] = '\0';
    if (hex == NULL || !json_is_integer(used_j) || json_integer_value(used_j) <= 0)
        return -1;
    uint64_t used = (uint64_t)json_integer_value(used_j);
    if (!d6) {
        zbc_text_printf(&t, "drew %" PRIu64 " random byte%s", used, used == 1 ? "" : "s");
        return zbc_text_result(&t);
    }
    uint8_t bytes[256];
    size_t n = 0, hl = strlen(hex);
    if (hl % 2 != 0 || hl / 2 > sizeof bytes || !zbc_hex_decode(bytes, sizeof bytes, &n, hex, hl))
        return -1;
    int faces[256], nf = 0;
    for (size_t i = 0; i < n && i < used; i++)
        if (bytes[i] < 252)
            faces[nf++] = bytes[i] % 6 + 1;
    if (nf == 0)
        return -1;
    zbc_text_printf(&t, "rolled ");
    for (int i = 0; i < nf; i++)
        zbc_text_printf(&t, "%s%d", i == 0 ? "" : i == nf - 1 ? " and " : ", ", faces[i]);
    if (used > n)
        zbc_text_printf(&t, " (and more: %" PRIu64 " bytes used)", used);
    int k = zbc_text_result(&t);
    if (k < 0 && cap > 0)
        out[0] = '\0';
    return k;
}

static const char *const ROULETTE_KIND[] = {"straight", "red",  "black", "odd",   "even",
                                            "low",      "high", "dozen", "column"};

int zbc_bet_text(const json_t *app, char *out, size_t cap)
{
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    if (cap > 0)
        out[0] = '\0';
    const json_t *settle = NULL, *e;
    size_t i;
    json_array_foreach(json_object_get(app, "history"), i, e) {
        const char *k = str(e, "kind");
        if (k != NULL && strcmp(k, "bet_settle") == 0)
            settle = e;
    }
    const json_t *type = json_object_get(app, "type");
    const char *phex = str(app, "params_hex");
    const json_t *value_j = json_object_get(settle, "value");
    if (settle == NULL || !json_is_integer(type) || phex == NULL || !json_is_integer(value_j) ||
        json_integer_value(value_j) < 0 || json_integer_value(value_j) > UINT32_MAX)
        return -1;
    uint8_t params[128];
    size_t plen = 0, hl = strlen(phex);
    struct zbc_bet bet;
    struct zbc_err err;
    json_int_t ty = json_integer_value(type);
    if (ty < 0 || ty > 255 || hl / 2 > sizeof params ||
        !zbc_hex_decode(params, sizeof params, &plen, phex, hl) ||
        !zbc_bet_parse(&bet, (uint8_t)ty, params, plen, &err))
        return -1;
    uint32_t v = (uint32_t)json_integer_value(value_j);
    char m[24];
    switch (bet.game) {
    case ZBC_BET_DICE:
        zbc_text_printf(&t, "rolled %u.%02u (%s %u.%02u)", v / 100, v % 100,
                        bet.direction ? "over" : "under", bet.target16 / 100u,
                        bet.target16 % 100u);
        break;
    case ZBC_BET_COIN:
        zbc_text_printf(&t, "flipped %s (%s)", v ? "tails" : "heads",
                        bet.direction ? "tails" : "heads");
        break;
    case ZBC_BET_ROULETTE:
        zbc_text_printf(&t, "pocket %u%s (%s", v,
                        v == 0 ? " green" : zbc_roulette_is_red(v) ? " red" : " black",
                        bet.kind < 9 ? ROULETTE_KIND[bet.kind] : "?");
        if (bet.kind == ZBC_ROULETTE_STRAIGHT || bet.kind == ZBC_ROULETTE_DOZEN ||
            bet.kind == ZBC_ROULETTE_COLUMN)
            zbc_text_printf(&t, " %u", bet.number);
        zbc_text_printf(&t, ")");
        break;
    case ZBC_BET_LIMBO:
        zbc_text_printf(&t, "result %u.%02ux (target %u.%02ux)", v / 100, v % 100,
                        bet.target32 / 100, bet.target32 % 100);
        break;
    case ZBC_BET_PLINKO:
        /* the node's summary value: slot | path << 8 (docs/games.md, bet_settle) */
        zbc_text_printf(&t, "path ");
        for (unsigned r = 0; r < bet.rows && r < 24; r++)
            zbc_text_printf(&t, "%c", (v >> (8 + r)) & 1u ? 'R' : 'L');
        zbc_multiplier_text(m, zbc_plinko_multiplier(bet.rows, bet.risk, v & 0xffu));
        zbc_text_printf(&t, ", slot %u (0-%u): %s", v & 0xffu, bet.rows, m);
        break;
    case ZBC_BET_KENO:
        zbc_multiplier_text(m, zbc_keno_multiplier(bet.risk, bet.n_picks, v));
        zbc_text_printf(&t, "%u hits of %u picks: %s", v, bet.n_picks, m);
        break;
    case ZBC_BET_WHEEL:
        zbc_multiplier_text(m, zbc_wheel_multiplier(bet.segments, bet.risk, v));
        zbc_text_printf(&t, "segment %u of %u: %s", v, bet.segments, m);
        break;
    case ZBC_BET_BACCARAT: {
        unsigned pt = v & 0xffu, bt = (v >> 8) & 0xffu;
        zbc_text_printf(&t, "player %u, banker %u: %s (bet on %s)", pt, bt,
                        pt > bt ? "player wins" : bt > pt ? "banker wins" : "tie",
                        bet.side == 0 ? "player" : bet.side == 1 ? "banker" : "tie");
        break;
    }
    case ZBC_BET_BLITZ:
        zbc_text_printf(&t, "%u different cards of %u", v, bet.cards);
        break;
    }
    uint64_t back = amount_of(settle, "amount");
    if (json_is_true(json_object_get(settle, "win"))) {
        char amt[32];
        zbc_amount_format(amt, back);
        zbc_text_printf(&t, ": win, paid %s", amt);
    } else if (back > 0) {
        char amt[32];
        zbc_amount_format(amt, back);
        zbc_text_printf(&t, ": no profit, returned %s", amt);
    } else {
        zbc_text_printf(&t, ": loss");
    }
    int n = zbc_text_result(&t);
    if (n < 0 && cap > 0)
        out[0] = '\0';
    return n;
}

void zbc_duration_text(uint64_t ms, char out[32])
{
    uint64_t s = (ms + 500) / 1000;
    if (s < 60)
        snprintf(out, 32, "%" PRIu64 " s", s);
    else if (s < 3600)
        snprintf(out, 32, "%" PRIu64 " min", (s + 30) / 60);
    else if (s < 86400) {
        uint64_t m = (s + 30) / 60;
        snprintf(out, 32, "%" PRIu64 " h %" PRIu64 " min", m / 60, m % 60);
    } else {
        uint64_t h = (s + 1800) / 3600;
        snprintf(out, 32, "%" PRIu64 " d %" PRIu64 " h", h / 24, h % 24);
    }
}

int zbc_clock_text(uint64_t deadline, uint64_t tip, uint64_t block_time_ms, char *out, size_t cap)
{
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    zbc_text_printf(&t, "deadline block %" PRIu64, deadline);
    if (deadline > tip) {
        uint64_t left = deadline - tip;
        zbc_text_printf(&t, " (in %" PRIu64 " block%s", left, left == 1 ? "" : "s");
        if (block_time_ms > 0 && left <= UINT64_MAX / block_time_ms) {
            char d[32];
            zbc_duration_text(left * block_time_ms, d);
            zbc_text_printf(&t, ", \xe2\x89\x88 %s", d); /* ≈ */
        }
        zbc_text_printf(&t, ")");
    } else if (deadline == tip) {
        zbc_text_printf(&t, " (reached)");
    } else {
        uint64_t ago = tip - deadline;
        zbc_text_printf(&t, " (passed %" PRIu64 " block%s ago)", ago, ago == 1 ? "" : "s");
    }
    int n = zbc_text_result(&t);
    if (n < 0 && cap > 0)
        out[0] = '\0';
    return n;
}
