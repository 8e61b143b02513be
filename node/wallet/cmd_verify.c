/* zbc verify APP: recomputes an app's outcome from chain data (block
 * seeds, move transaction hashes, the recorded moves) with the same pure
 * code the chain runs (apps/app.h, apps/fair.h, the engines), and compares
 * it with what the node reports.  Exit 10 (verify_failed) on a mismatch.
 *
 *   solo bet: server_seed = hex of seed(N+1), the first float, the
 *             outcome and the return, the payout;
 *   crash:    every entry's stake and target from its transaction bytes,
 *             server_seed = hex of seed(close+1), u and the crash point,
 *             each entry's return and the fund's share (docs/games.md "Crash");
 *   game:     the first-seat draw (seed(J+2)), the start position and
 *             every dice roll (seed of the applying block, move tx hash),
 *             a full engine replay of the recorded moves compared with the
 *             node's state, the result, the rake and every payout;
 *   multi-step solo game (mines): the escrow of the maximum return, every
 *             step replayed on the float stream of the seed of the block
 *             that resolved it (client seed of the params, nonce = the
 *             app id), the node's state, and the settlement: floor(stake
 *             x value / 10000) to the player, the rest to the fund. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/app.h"
#include "apps/crash.h"
#include "apps/fair.h"
#include "consensus/events.h"
#include "crypto/bytes.h"
#include "crypto/hex.h"
#include "node/wallet/amount.h"
#include "node/wallet/app_client.h"
#include "node/client/bet_pictures.h"
#include "node/wallet/client.h"
#include "node/wallet/cmds.h"

struct vctx {
    const struct zbc_opts *o;
    json_t *app;
    json_t *checks;   /* list of what was checked */
    json_t *event;    /* a catalogue bet's event as data (bet_pictures.h), or NULL */
    char mismatch[512];
};

static void checked(struct vctx *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void checked(struct vctx *v, const char *fmt, ...)
{
    char buf[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    json_array_append_new(v->checks, json_string(buf));
}

static int mismatch(struct vctx *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int mismatch(struct vctx *v, const char *fmt, ...)
{
    if (v->mismatch[0] == '\0') {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(v->mismatch, sizeof v->mismatch, fmt, ap);
        va_end(ap);
    }
    return 1; /* keep going: the first mismatch is reported */
}

static long long num(const json_t *o, const char *k)
{
    return json_integer_value(json_object_get(o, k));
}

static const char *str(const json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s != NULL ? s : "";
}

static int hex_bytes(uint8_t *out, size_t cap, size_t *len, const char *hex)
{
    return zbc_hex_decode(out, cap, len, hex, strlen(hex));
}

/* The first history entry of a kind, or NULL. */
static const json_t *entry(const json_t *app, const char *kind)
{
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(app, "history"), i, e)
        if (strcmp(str(e, "kind"), kind) == 0)
            return e;
    return NULL;
}

/* ---- solo bets ---- */

static void bet_step(void *ctx, const char *line)
{
    checked(ctx, "%s", line);
}

static int verify_bet(struct vctx *v, uint64_t id, struct zbc_wfail *f)
{
    const json_t *app = v->app;
    uint8_t params[256], seed[32];
    size_t plen;
    struct zbc_bet bet;
    struct zbc_bet_outcome out;
    struct zbc_err err;
    if (!hex_bytes(params, sizeof params, &plen, str(app, "params_hex")) ||
        !zbc_bet_parse(&bet, (uint8_t)num(app, "type"), params, plen, &err))
        return zbc_wfail(f, ZBC_EXIT_VERIFY_FAILED, "the bet's params do not parse");
    const json_t *settle = entry(app, "bet_settle");
    if (settle == NULL)
        return zbc_wfail(f, ZBC_EXIT_REJECTED, "bet %" PRIu64 " is not settled yet (wait a block)", id);
    uint32_t h = (uint32_t)num(app, "created") + 1;
    if ((uint32_t)num(settle, "height") != h)
        mismatch(v, "the bet was settled at block %lld, not N+1 = %u", num(settle, "height"), h);
    if (!zbc_app_block_seed(seed, v->o, h, f))
        return 0;
    char server[65];
    zbc_fair_server_seed(server, seed);
    uint32_t u = zbc_fair_u32(server, bet.client_seed, id, 0);
    uint64_t stake = (uint64_t)num(app, "stake");
    if (!zbc_bet_resolve(&bet, stake, server, id, &out, &err))
        return zbc_wfail_err(f, ZBC_EXIT_VERIFY_FAILED, &err, "outcome");
    checked(v, "server seed = seed(%u) = %s", h, server);
    checked(v, "HMAC_SHA256(server_seed, \"%s:%" PRIu64 ":0\") first float u = %u", bet.client_seed,
            id, u);
    if ((uint32_t)num(settle, "u") != u)
        mismatch(v, "the node's float u = %lld, recomputed %u", num(settle, "u"), u);
    if ((uint32_t)num(settle, "value") != out.value)
        mismatch(v, "the node's outcome value = %lld, recomputed %u", num(settle, "value"), out.value);
    if (json_is_true(json_object_get(settle, "win")) != out.win)
        mismatch(v, "the node says %s, recomputed %s",
                 json_is_true(json_object_get(settle, "win")) ? "win" : "loss",
                 out.win ? "win" : "loss");
    if ((uint64_t)num(settle, "amount") != out.returns)
        mismatch(v, "the node returned %lld, recomputed %" PRIu64, num(settle, "amount"), out.returns);
    if (zbc_bet_is_catalogue(bet.game)) {
        /* every step of the event from its floats (docs/wallet.md "Bets") */
        bool utf8 = zbc_term_utf8();
        char words[512];
        zbc_bet_steps(&bet, &out, stake, server, id, utf8, bet_step, v);
        if (zbc_bet_event_words(&bet, &out, utf8, words, sizeof words) >= 0)
            checked(v, "event: %s", words);
        v->event = zbc_bet_event_json(&bet, &out);
    }
    checked(v, "outcome value %u: %s, returns %" PRIu64, out.value, out.win ? "win" : "loss",
            out.returns);
    uint64_t paid = 0;
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(json_object_get(app, "result"), "payouts"), i, p)
        if (strcmp(str(p, "reason"), "bet") == 0)
            paid += (uint64_t)num(p, "amount");
    if (paid != out.returns)
        mismatch(v, "the bettor was paid %" PRIu64 ", the outcome returns %" PRIu64, paid, out.returns);
    return 1;
}

/* ---- crash rounds ---- */

static uint64_t u64_field(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_string(v) ? strtoull(json_string_value(v), NULL, 10)
                             : (uint64_t)json_integer_value(v);
}

/* Entry i from the chain's bytes: the AppMove's move, or the creator's
 * CreateApp stake and params target for an entry without move bytes. */
static int crash_entry_bytes(struct vctx *v, const json_t *join,
                             const struct zbc_crash_params *p, uint64_t *stake,
                             uint32_t *target)
{
    uint8_t move[64];
    size_t mlen;
    struct zbc_err err;
    if (!hex_bytes(move, sizeof move, &mlen, str(join, "move_hex")))
        return 0;
    if (mlen == 0) {
        *stake = (uint64_t)num(v->app, "stake");
        *target = p->target;
        return *stake > 0 && *target >= ZBC_CRASH_TARGET_MIN;
    }
    return zbc_crash_parse_entry(move, mlen, stake, target, &err);
}

static int verify_crash(struct vctx *v, uint64_t id, struct zbc_wfail *f)
{
    const json_t *app = v->app, *c = json_object_get(app, "crash");
    uint8_t params[256], seed[32];
    size_t plen;
    struct zbc_crash_params p;
    struct zbc_err err;
    if (!json_is_object(c) || !hex_bytes(params, sizeof params, &plen, str(app, "params_hex")) ||
        !zbc_crash_parse(&p, params, plen, &err))
        return zbc_wfail(f, ZBC_EXIT_VERIFY_FAILED, "the crash round's params do not parse");
    uint64_t close = (uint64_t)num(app, "created") + p.window;
    if (u64_field(c, "close") != close)
        mismatch(v, "the node closes the round at %" PRIu64 ", created + window = %" PRIu64,
                 u64_field(c, "close"), close);
    if (!json_is_integer(json_object_get(c, "crash_point")))
        return zbc_wfail(f, ZBC_EXIT_REJECTED, "crash round %" PRIu64 " is not settled yet "
                         "(it settles at block %" PRIu64 ")", id, close + 1);
    if (!zbc_app_block_seed(seed, v->o, (uint32_t)(close + 1), f))
        return 0;
    char server[65];
    zbc_fair_server_seed(server, seed);
    uint32_t u, point = zbc_crash_point(server, p.client_seed, id, &u);
    checked(v, "server seed = seed(%" PRIu64 ") = %s", close + 1, server);
    checked(v, "HMAC_SHA256(server_seed, \"%s:%" PRIu64 ":0\") first float u = %u; crash point "
            "floor(99 x 2^32 / (u + 256)) = %u (%u.%02ux)", p.client_seed, id, u, point,
            point / 100, point % 100);
    if ((uint32_t)num(c, "u") != u || (uint32_t)num(c, "crash_point") != point)
        mismatch(v, "the node's u = %lld and crash point %lld, recomputed %u and %u",
                 num(c, "u"), num(c, "crash_point"), u, point);
    const json_t *entries = json_object_get(c, "entries");
    size_t i, n = 0;
    json_t *h;
    uint64_t pot = 0, paid = 0;
    json_array_foreach(json_object_get(app, "history"), i, h) {
        if (strcmp(str(h, "kind"), "app_join") != 0)
            continue;
        uint64_t stake, ret;
        uint32_t target;
        const json_t *e = json_array_get(entries, n);
        if (!crash_entry_bytes(v, h, &p, &stake, &target) ||
            !zbc_crash_max_return(stake, target, &ret, &err)) {
            mismatch(v, "entry %zu's transaction bytes are not an entry", n);
            n++;
            continue;
        }
        pot += ret;
        uint64_t want = target <= point ? ret : 0;
        paid += want;
        if (e == NULL || u64_field(e, "stake") != stake ||
            (uint32_t)num(e, "target") != target || u64_field(e, "returns") != want ||
            json_is_true(json_object_get(e, "cashed_out")) != (target <= point))
            mismatch(v, "entry %zu (%" PRIu64 " at %u): the node's view differs from the rule's "
                     "return %" PRIu64, n, stake, target, want);
        else
            checked(v, "entry %zu: %" PRIu64 " at %u.%02ux -> %s, returns %" PRIu64, n, stake,
                    target / 100, target % 100, want ? "cashed out" : "crashed", want);
        n++;
    }
    if (n != json_array_size(entries))
        mismatch(v, "the history holds %zu entries, the node's view %zu", n,
                 json_array_size(entries));
    uint64_t crash_paid = 0, fund = 0;
    json_t *po;
    json_array_foreach(json_object_get(json_object_get(app, "result"), "payouts"), i, po) {
        if (strcmp(str(po, "reason"), "crash") == 0)
            crash_paid += (uint64_t)num(po, "amount");
        if (strcmp(str(po, "reason"), "escrow") == 0)
            fund += (uint64_t)num(po, "amount");
    }
    if (crash_paid != paid || fund != pot - paid)
        mismatch(v, "payouts: the node paid %" PRIu64 " to entries and %" PRIu64 " back to the "
                 "fund; the rule gives %" PRIu64 " and %" PRIu64, crash_paid, fund, paid,
                 pot - paid);
    else
        checked(v, "%zu entries: %" PRIu64 " paid to entries, %" PRIu64 " of the pot of %" PRIu64
                " back to the fund", n, paid, pot - paid, pot);
    return 1;
}

/* ---- games ---- */

/* Replays the engine over the recorded moves; compares state and rolls. */
static int replay(struct vctx *v, const struct zbc_engine *e, uint64_t id, uint8_t seats,
                  struct zbc_game_state *st, struct zbc_result *res, struct zbc_wfail *f)
{
    const json_t *app = v->app;
    struct zbc_err err;
    uint8_t params[ZBC_APP_PARAMS_MAX], seed[32];
    size_t plen;
    if (!hex_bytes(params, sizeof params, &plen, str(app, "params_hex")))
        return zbc_wfail(f, ZBC_EXIT_VERIFY_FAILED, "the app's params are not hex");
    const json_t *act = entry(app, "app_activate");
    uint8_t first = 0;
    struct zbc_roll start, *startp = NULL;
    if (e->draws_first) {
        if (act == NULL)
            return zbc_wfail(f, ZBC_EXIT_REJECTED, "app %" PRIu64 " has not drawn its first seat yet",
                             id);
        uint32_t h = (uint32_t)num(act, "height");
        if (h != (uint32_t)num(app, "joined") + 2)
            mismatch(v, "the first seat was drawn at block %u, not J+2 = %lld", h,
                     num(app, "joined") + 2);
        if (!zbc_app_block_seed(seed, v->o, h, f))
            return 0;
        first = zbc_app_first_seat(seed, id, seats);
        checked(v, "first seat = LE64(H(\"ZBC-TURN\" || seed(%u) || id)) mod %u = %u", h, seats, first);
        if (e->start_rolls) {
            uint8_t tag[8];
            zbc_put_le64(tag, id);
            zbc_roll_init(&start, seed, tag, 8);
            startp = &start;
        }
    }
    if (!e->init(st, seats, params, plen, first, startp, &err))
        return zbc_wfail_err(f, ZBC_EXIT_VERIFY_FAILED, &err, "start position");
    if (act != NULL && e->draws_first && num(act, "seat") != e->turn(st))
        mismatch(v, "the node gave the first turn to seat %lld, the draw says seat %d",
                 num(act, "seat"), e->turn(st));
    size_t i, moves = 0, rolled = 0;
    json_t *h;
    uint8_t *move = malloc(ZBC_MOVE_WIRE_MAX);
    if (move == NULL)
        return zbc_wfail(f, ZBC_EXIT_INTERNAL, "out of memory");
    json_array_foreach(json_object_get(app, "history"), i, h) {
        if (strcmp(str(h, "kind"), "app_move") != 0)
            continue;
        size_t len;
        uint8_t hash[32];
        int seat = (int)num(h, "seat");
        if (!hex_bytes(move, ZBC_MOVE_WIRE_MAX, &len, str(h, "move_hex")) || len == 0) {
            free(move);
            return zbc_wfail(f, ZBC_EXIT_VERIFY_FAILED, "history entry %lld has no move bytes",
                             num(h, "seq"));
        }
        struct zbc_roll r;
        if (e->solo != NULL) {
            /* the float stream of the block that resolved the step */
            char client[ZBC_ROLL_CLIENT_MAX + 1];
            if (!zbc_app_block_seed(seed, v->o, (uint32_t)num(h, "height"), f)) {
                free(move);
                return 0;
            }
            e->solo->client_seed(params, plen, client);
            zbc_roll_init_fair(&r, seed, client, id);
        } else if (e->dice) {
            if (strlen(str(h, "tx_hash")) != 64 || !zbc_hex_decode_exact(hash, 32, str(h, "tx_hash")) ||
                !zbc_app_block_seed(seed, v->o, (uint32_t)num(h, "height"), f)) {
                free(move);
                return f->code != ZBC_EXIT_OK ? 0
                                              : zbc_wfail(f, ZBC_EXIT_VERIFY_FAILED,
                                                          "a dice move has no transaction hash");
            }
            zbc_roll_init(&r, seed, hash, 32);
        }
        if (!e->apply_move(st, (uint8_t)seat, move, len, e->dice ? &r : NULL, &err)) {
            mismatch(v, "recorded move #%lld by seat %d is illegal on the replayed board: %s",
                     num(h, "seq"), seat, err.msg);
            break;
        }
        moves++;
        if (e->dice && e->solo == NULL) {
            /* the rolls the node recorded are the first bytes of the stream */
            uint8_t rec[ZBC_EVENT_DATA_MAX], again;
            size_t rlen;
            struct zbc_roll r2;
            zbc_roll_init(&r2, seed, hash, 32);
            if (!hex_bytes(rec, sizeof rec, &rlen, str(h, "rolls_hex")))
                rlen = 0;
            if ((uint64_t)num(h, "roll_bytes_used") != r.used)
                mismatch(v, "move #%lld used %" PRIu64 " roll bytes on replay, the node says %lld",
                         num(h, "seq"), r.used, num(h, "roll_bytes_used"));
            for (size_t k = 0; k < rlen; k++)
                if (!zbc_roll_byte(&r2, &again) || again != rec[k]) {
                    mismatch(v, "roll byte %zu of move #%lld differs from H(\"ZBC-DICE\" || "
                             "seed(%lld) || tx hash || counter)", k, num(h, "seq"), num(h, "height"));
                    break;
                }
            rolled++;
        }
    }
    free(move);
    if (e->solo != NULL)
        checked(v, "replayed %zu steps, each drawing step on the float stream of the seed of the "
                "block that resolved it (client seed of the params, nonce %" PRIu64 ")", moves, id);
    else
        checked(v, "replayed %zu moves (%zu with dice rolls from block seeds and move hashes)",
                moves, rolled);
    uint8_t *enc = malloc(ZBC_GAME_STATE_MAX);
    char *hex = malloc(2 * ZBC_GAME_STATE_MAX + 1);
    size_t n = enc != NULL ? e->encode(st, enc, ZBC_GAME_STATE_MAX) : 0;
    if (n > 0 && hex != NULL) {
        zbc_hex_encode(hex, enc, n);
        if (strcmp(hex, str(app, "state_hex")) != 0)
            mismatch(v, "the replayed state differs from the node's state");
        else
            checked(v, "replayed state equals the node's state (%zu bytes)", n);
    }
    free(enc);
    free(hex);
    e->result(st, res);
    return 1;
}

/* A seat field of the node's result: the seat, or -1 when null. */
static int seat_field(const json_t *r, const char *k)
{
    return json_is_integer(json_object_get(r, k)) ? (int)num(r, k) : -1;
}

/* Compares what the node paid each seat (payout events and the result's
 * paid list) with want[]. */
static void compare_paid(struct vctx *v, const json_t *r, uint8_t seats, const uint64_t *want,
                         const bool *paid, const char *outcome)
{
    uint64_t got[ZBC_SEATS_MAX] = {0}, listed[ZBC_SEATS_MAX] = {0};
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(r, "payouts"), i, p) {
        int s = (int)num(p, "seat");
        if (s >= 0 && s < seats && json_is_integer(json_object_get(p, "seat")))
            got[s] += (uint64_t)num(p, "amount");
    }
    json_array_foreach(json_object_get(r, "paid"), i, p) {
        int s = (int)num(p, "seat");
        if (s >= 0 && s < seats && json_is_integer(json_object_get(p, "seat")))
            listed[s] = (uint64_t)num(p, "amount");
    }
    for (unsigned s = 0; s < seats; s++) {
        if (got[s] != want[s])
            mismatch(v, "seat %u was paid %" PRIu64 ", the %s rule gives %" PRIu64, s, got[s],
                     outcome, want[s]);
        else if (listed[s] != want[s])
            mismatch(v, "the node's result lists %" PRIu64 " paid to seat %u, the %s rule gives %"
                     PRIu64, listed[s], s, outcome, want[s]);
        else if (paid[s]) {
            char zs[32];
            zbc_amount_format(zs, want[s]);
            checked(v, "seat %u paid %s (%s)", s, zs, outcome); /* exact: 8 decimals */
        }
    }
}

/* Expected payouts from the outcome (docs/protocol-apps.md §3): a win
 * pays pot - rake to the winner; a draw every stake back; a resign or a
 * timeout splits pot - rake among every seat but the loser and the seats
 * out of play on the replayed board (zbc_app_split_seats), the remainder
 * to the first of them; the winner is the one receiving seat, never the
 * loser. */
static int verify_payouts(struct vctx *v, uint8_t seats, uint64_t rake_bps,
                          const struct zbc_result *res, struct zbc_wfail *f)
{
    (void)f;
    const json_t *r = json_object_get(v->app, "result");
    if (!json_is_object(r)) {
        if (res->kind != ZBC_RESULT_ONGOING)
            mismatch(v, "the replayed game is over but the node shows no result");
        checked(v, "the game is still running: no payouts yet");
        return 1;
    }
    const char *ending = json_is_string(json_object_get(r, "outcome")) ? str(r, "outcome")
                                                                        : str(r, "ending");
    int winner = seat_field(r, "winner");
    int loser = strcmp(ending, "resign") == 0    ? seat_field(r, "resigned")
                : strcmp(ending, "timeout") == 0 ? seat_field(r, "timed_out")
                                                 : -1;
    if (res->kind == ZBC_RESULT_WIN && (strcmp(ending, "win") != 0 || winner != res->winner))
        mismatch(v, "the replay ends in a win of seat %u, the node says %s (seat %d)", res->winner,
                 ending, winner);
    if (res->kind == ZBC_RESULT_DRAW && strcmp(ending, "draw") != 0)
        mismatch(v, "the replay ends in a draw, the node says %s", ending);
    if (res->kind == ZBC_RESULT_ONGOING &&
        (strcmp(ending, "win") == 0 || strcmp(ending, "draw") == 0))
        mismatch(v, "the node says %s but the replayed game is not over", ending);
    uint64_t stake = (uint64_t)num(v->app, "stake"), pot = stake * seats;
    uint64_t want[ZBC_SEATS_MAX] = {0}, rake = 0;
    bool paid[ZBC_SEATS_MAX] = {false};
    if (strcmp(ending, "draw") == 0) {
        for (unsigned i = 0; i < seats; i++) {
            want[i] = stake;
            paid[i] = true;
        }
    } else {
        rake = zbc_app_rake(pot, (uint32_t)rake_bps);
        if (strcmp(ending, "win") == 0 && winner >= 0 && winner < seats) {
            want[winner] = pot - rake;
            paid[winner] = true;
        } else if (loser >= 0 && loser < seats) {
            uint8_t out = (uint8_t)(res->out_mask & ((1u << seats) - 1));
            uint8_t recv = zbc_app_split_seats(seats, (uint8_t)loser, out);
            unsigned k = (unsigned)__builtin_popcount(recv);
            uint64_t each, extra;
            zbc_app_split(pot - rake, k, &each, &extra);
            bool first = true;
            int one = -1;
            for (unsigned i = 0; i < seats; i++) {
                if (!(recv >> i & 1))
                    continue;
                want[i] = each + (first ? extra : 0);
                paid[i] = true;
                first = false;
                one = k == 1 ? (int)i : -1;
            }
            if (winner != one)
                mismatch(v, "the node names seat %d the winner of a %s by seat %d; the rule "
                         "gives %d (-1: shared)", winner, ending, loser, one);
            else
                checked(v, "seat %d %s; %s (seats out of play: 0x%x)", loser,
                        strcmp(ending, "resign") == 0 ? "resigned" : "timed out",
                        one >= 0 ? "the one other seat in play took the pot"
                                 : "the seats in play share the pot",
                        out);
        } else {
            mismatch(v, "the node's %s result names no seat that resigned or timed out", ending);
        }
    }
    if ((uint64_t)num(r, "rake") != rake)
        mismatch(v, "rake: the node took %lld, the rule gives %" PRIu64, num(r, "rake"), rake);
    compare_paid(v, r, seats, want, paid, ending);
    char rz[32];
    zbc_amount_format(rz, rake);
    checked(v, "rake %s = floor(pot %" PRIu64 " x %" PRIu64 " bps / 10000)", rz, pot, rake_bps);
    return 1;
}

/* An app that never started: expired (every seated stake back, no rake)
 * or abandoned (every seat left; the refunds were app_leave events). */
static int verify_unstarted(struct vctx *v, uint8_t seats, const json_t *r)
{
    const char *outcome = str(r, "outcome");
    uint64_t stake = (uint64_t)num(v->app, "stake"), want[ZBC_SEATS_MAX] = {0};
    bool paid[ZBC_SEATS_MAX] = {false};
    unsigned seated = (unsigned)num(v->app, "seated");
    if (strcmp(outcome, "expired") == 0)
        for (unsigned i = 0; i < seated && i < seats; i++) {
            want[i] = stake;
            paid[i] = true;
        }
    if (num(r, "rake") != 0)
        mismatch(v, "rake: the node took %lld from an app that never started", num(r, "rake"));
    if (seat_field(r, "winner") >= 0)
        mismatch(v, "the node names a winner of an app that never started");
    compare_paid(v, r, seats, want, paid, outcome);
    checked(v, "%s before the start: %u stake(s) of %" PRIu64 " back, no rake", outcome,
            strcmp(outcome, "expired") == 0 ? seated : 0, stake);
    return 1;
}

/* A multi-step solo game (docs/protocol-apps.md §13): the escrow at
 * creation and the settlement at the replayed value. */
static int verify_solo(struct vctx *v, const struct zbc_engine *e,
                       const struct zbc_game_state *st)
{
    uint8_t params[ZBC_APP_PARAMS_MAX];
    size_t plen;
    uint64_t stake = (uint64_t)num(v->app, "stake");
    if (!hex_bytes(params, sizeof params, &plen, str(v->app, "params_hex")))
        return mismatch(v, "the app's params are not hex");
    uint64_t max = e->solo->max_multiplier(params, plen);
    unsigned __int128 r = (unsigned __int128)stake * max / 10000u;
    uint64_t want_escrow = r > stake ? (uint64_t)r - stake : 0;
    const json_t *esc = entry(v->app, "app_escrow");
    if (esc == NULL || (uint64_t)num(esc, "amount") != want_escrow)
        mismatch(v, "the escrow from the apps fund is %lld, the maximum return gives %" PRIu64,
                 esc != NULL ? num(esc, "amount") : -1, want_escrow);
    else
        checked(v, "escrow %" PRIu64 " = floor(%" PRIu64 " x %" PRIu64 " / 10000) - stake",
                want_escrow, stake, max);
    const json_t *res = json_object_get(v->app, "result");
    uint64_t value = e->solo->value(st);
    if (!json_is_object(res)) {
        if (e->turn(st) == ZBC_NOBODY)
            mismatch(v, "the replayed game is over but the node shows no result");
        checked(v, "the game goes on: cash-out value %" PRIu64 ".%04" PRIu64 "x",
                value / 10000, value % 10000);
        return 1;
    }
    uint64_t ret = (uint64_t)((unsigned __int128)stake * value / 10000u);
    const char *want = ret > 0 ? "cashout" : "bust";
    if (strcmp(str(res, "outcome"), want) != 0)
        mismatch(v, "the node says %s, the replay gives %s", str(res, "outcome"), want);
    if (num(res, "rake") != 0)
        mismatch(v, "rake: the node took %lld from a solo game", num(res, "rake"));
    int winner = seat_field(res, "winner");
    if (winner != (ret > stake ? 0 : -1))
        mismatch(v, "the node names winner %d; returning %" PRIu64 " of a stake of %" PRIu64
                 " gives %d", winner, ret, stake, ret > stake ? 0 : -1);
    uint64_t w[ZBC_SEATS_MAX] = {ret};
    bool paid[ZBC_SEATS_MAX] = {true};
    compare_paid(v, res, 1, w, paid, want);
    checked(v, "settled at %" PRIu64 ".%04" PRIu64 "x: floor(%" PRIu64 " x %" PRIu64
            " / 10000) = %" PRIu64 " to the player, the rest to the apps fund",
            value / 10000, value % 10000, stake, value, ret);
    return 1;
}

static int verify_game(struct vctx *v, uint64_t id, struct zbc_wfail *f)
{
    const struct zbc_engine *e = zbc_engine_by_type((uint8_t)num(v->app, "type"));
    uint8_t seats = (uint8_t)num(v->app, "seats");
    if (e == NULL || seats < 1 || seats > ZBC_SEATS_MAX)
        return zbc_wfail(f, ZBC_EXIT_VERIFY_FAILED, "app %" PRIu64 " has an unknown game", id);
    const json_t *r = json_object_get(v->app, "result");
    if (json_is_object(r) && json_is_string(json_object_get(r, "outcome")) &&
        (strcmp(str(r, "outcome"), "expired") == 0 || strcmp(str(r, "outcome"), "abandoned") == 0))
        return verify_unstarted(v, seats, r);
    if (strlen(str(v->app, "state_hex")) == 0)
        return zbc_wfail(f, ZBC_EXIT_REJECTED, "app %" PRIu64 " has not started yet", id);
    struct zbc_client api = {v->o->api, v->o->timeout_s, 0};
    json_t *info;
    if (!zbc_client_call(&api, "/api/v1/node/info", NULL, &info, f))
        return 0;
    uint64_t rake_bps = (uint64_t)num(info, "rake_bps");
    json_decref(info);
    struct zbc_game_state *st = malloc(sizeof *st);
    struct zbc_result res;
    if (st == NULL)
        return zbc_wfail(f, ZBC_EXIT_INTERNAL, "out of memory");
    int ok = replay(v, e, id, seats, st, &res, f) &&
             (e->solo != NULL ? verify_solo(v, e, st)
                              : verify_payouts(v, seats, rake_bps, &res, f));
    free(st);
    return ok;
}

int zbc_cmd_verify(const struct zbc_opts *o, int argc, const char *const *argv, json_t **result,
                   struct zbc_wfail *f)
{
    if (argc != 1)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "usage: zbc verify APP-ID");
    uint64_t id;
    if (!zbc_app_parse_id(&id, argv[0]))
        return zbc_wfail(f, ZBC_EXIT_USAGE, "app id '%s' must be a decimal number", argv[0]);
    struct vctx v = {.o = o, .checks = json_array()};
    if (!zbc_app_fetch(&v.app, o, argv[0], f)) {
        json_decref(v.checks);
        return 0;
    }
    struct zbc_err err;
    if (!zbc_app_check_verify(v.app, &err)) {
        json_decref(v.checks);
        return zbc_client_bad_reply(f, v.app, &err);
    }
    uint8_t type = (uint8_t)num(v.app, "type");
    int ok = zbc_bet_is_solo(type)      ? verify_bet(&v, id, f)
             : type == ZBC_CRASH_TYPE ? verify_crash(&v, id, f)
                                      : verify_game(&v, id, f);
    json_decref(v.app);
    if (!ok) {
        json_decref(v.checks);
        json_decref(v.event);
        return 0;
    }
    if (v.mismatch[0] != '\0') {
        f->api_response = json_pack("{s:o}", "checks", v.checks);
        if (v.event != NULL)
            json_object_set_new(f->api_response, "event", v.event);
        return zbc_wfail(f, ZBC_EXIT_VERIFY_FAILED, "app %s does not verify: %s", argv[0],
                         v.mismatch);
    }
    size_t cap = 256 + 320 * json_array_size(v.checks), len = 0, i;
    char *text = malloc(cap);
    json_t *c;
    if (text != NULL) {
        len += (size_t)snprintf(text, cap, "app %s verified from chain data:\n", argv[0]);
        json_array_foreach(v.checks, i, c)
            len += (size_t)snprintf(text + len, cap - len, "  ok  %s\n", json_string_value(c));
    }
    json_t *r = json_pack("{s:s, s:b, s:o}", "app_id", argv[0], "verified", 1, "checks", v.checks);
    if (v.event != NULL)
        json_object_set_new(r, "event", v.event);
    if (text != NULL)
        json_object_set_new(r, "_text", json_string(text));
    free(text);
    *result = r;
    return 1;
}
