/* zbc history [ADDRESS|NAME] [--limit N] [--cursor C] [--all]: an
 * account's transactions and app events, newest first, from GET
 * /api/v1/accounts/<address>/history (docs/api.md, docs/wallet.md
 * "History"). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "apps/engine.h"
#include "apps/roll.h"
#include "crypto/bytes.h"
#include "crypto/hex.h"
#include "node/client/reply.h"
#include "node/wallet/amount.h"
#include "node/wallet/app_client.h"
#include "node/wallet/client.h"
#include "node/wallet/cmds.h"
#include "node/client/bet_pictures.h"
#include "node/wallet/history.h"
#include "node/wallet/names.h"
#include "node/wallet/textbuf.h"

#define HISTORY_ALL_MAX 10000  /* --all stops after this many entries */
#define HISTORY_PAGES_MAX 200  /* ... or this many pages */
#define CURSOR_MAX 128

static const char what[] = "the node's account history";

int zbc_history_check_entry(const json_t *e, struct zbc_err *err)
{
    const char *s;
    uint64_t v;
    if (!json_is_object(e))
        return zbc_fail(err, "%s: an entry is %s, not an object", what, zbc_reply_type_name(e));
    if (!zbc_reply_str(e, "kind", what, &s, err) ||
        !zbc_reply_u64(e, "height", 0, UINT32_MAX, what, &v, err) ||
        !zbc_reply_u64(e, "amount", 0, UINT64_MAX, what, &v, err) ||
        !zbc_reply_u64(e, "ref", 0, UINT64_MAX, what, &v, err))
        return 0;
    if (!zbc_reply_absent(e, "timestamp") &&
        !zbc_reply_u64(e, "timestamp", 0, INT64_MAX, what, &v, err))
        return 0;
    static const char *const strs[] = {"from", "to", "reason", "data", "tx_hash"};
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        if (!zbc_reply_absent(e, strs[i]) && !zbc_reply_str(e, strs[i], what, &s, err))
            return 0;
    if (!zbc_reply_absent(e, "seat") && !zbc_reply_u64(e, "seat", 0, 255, what, &v, err))
        return 0;
    return 1;
}

static uint64_t u64_of(const json_t *e, const char *key)
{
    uint64_t v = 0;
    struct zbc_err err;
    if (!zbc_reply_u64(e, key, 0, UINT64_MAX, what, &v, &err))
        return 0;
    return v;
}

static const char *str_of(const json_t *e, const char *key)
{
    const char *s = json_string_value(json_object_get(e, key));
    return s != NULL ? s : "";
}

/* An account as a person reads it: "you", a wallet name, or the address. */
static const char *who(const char *addr, const char *self, const struct zbc_names *nm)
{
    if (addr[0] == '\0')
        return "nobody";
    if (self != NULL && strcmp(addr, self) == 0)
        return "you";
    const char *n = nm != NULL ? zbc_names_find(nm, addr) : NULL;
    return n != NULL ? n : addr;
}

/* The die faces of an app_move's rolls (data = count u32 LE | bytes): the
 * d6 draws of apps/roll.h read back from the bytes. */
static void faces(char *out, size_t cap, const char *data_hex)
{
    uint8_t b[ZBC_ROLL_LITERAL_MAX];
    size_t n = 0;
    out[0] = '\0';
    size_t hl = strlen(data_hex);
    if (hl < 8 || hl / 2 > sizeof b || !zbc_hex_decode(b, sizeof b, &n, data_hex, hl) || n < 4)
        return;
    struct zbc_roll r;
    if (!zbc_roll_init_literal(&r, b + 4, n - 4))
        return;
    size_t len = 0;
    uint8_t d;
    while (len + 8 < cap && zbc_roll_d6(&r, &d))
        len += (size_t)snprintf(out + len, cap - len, "%s%u", len ? ", " : "", d);
}

void zbc_history_line(char *out, size_t cap, const json_t *e, const char *self,
                      const struct zbc_names *nm, const char *game)
{
    char when[40] = "";
    uint64_t ms = u64_of(e, "timestamp");
    if (ms > 0) {
        time_t t = (time_t)(ms / 1000);
        struct tm tm;
        if (gmtime_r(&t, &tm) != NULL)
            strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
    }
    const char *kind = str_of(e, "kind");
    const char *from = who(str_of(e, "from"), self, nm);
    const char *to = who(str_of(e, "to"), self, nm);
    const char *reason = str_of(e, "reason");
    uint64_t ref = u64_of(e, "ref");
    char amt[32], seat[16] = "";
    zbc_amount_format(amt, u64_of(e, "amount"));
    json_t *sj = json_object_get(e, "seat");
    if (json_is_integer(sj))
        snprintf(seat, sizeof seat, "seat %lld", (long long)json_integer_value(sj));
    char text[512];
    bool me_a = strcmp(from, "you") == 0, me_b = strcmp(to, "you") == 0;
    if (strcmp(kind, "transfer") == 0) {
        if (me_a && !me_b)
            snprintf(text, sizeof text, "sent %s to %s", amt, to);
        else if (me_b && !me_a)
            snprintf(text, sizeof text, "received %s from %s", amt, from);
        else
            snprintf(text, sizeof text, "%s sent %s to %s", from, amt, to);
    } else if (strcmp(kind, "fee") == 0) {
        if (me_a)
            snprintf(text, sizeof text, "paid a fee of %s", amt);
        else
            snprintf(text, sizeof text, "earned a fee of %s from %s (block producer)", amt, from);
    } else if (strcmp(kind, "noop") == 0) {
        snprintf(text, sizeof text, "transaction %.16s… in the block without effect: %s",
                 str_of(e, "tx_hash"), reason);
    } else if (strcmp(kind, "app_create") == 0) {
        snprintf(text, sizeof text, "%s created app %" PRIu64 ", stake %s", from, ref, amt);
    } else if (strcmp(kind, "app_join") == 0) {
        snprintf(text, sizeof text, "%s joined app %" PRIu64 " as %s, stake %s", from, ref, seat,
                 amt);
    } else if (strcmp(kind, "app_leave") == 0) {
        snprintf(text, sizeof text, "%s left app %" PRIu64 " (%s), refund %s", from, ref, seat,
                 amt);
    } else if (strcmp(kind, "app_activate") == 0) {
        /* amount is a deadline height here, not money */
        snprintf(text, sizeof text, "app %" PRIu64 " started, %s to move (deadline block %" PRIu64
                 ")", ref, seat[0] ? seat : "nobody", u64_of(e, "amount"));
    } else if (strcmp(kind, "app_move") == 0) {
        char f[160] = "";
        const struct zbc_engine *eng = game != NULL ? zbc_engine_by_name(game) : NULL;
        const char *data = str_of(e, "data");
        if (eng != NULL && eng->dice && !eng->start_rolls)
            faces(f, sizeof f, data);
        int n = snprintf(text, sizeof text, "%s moved in app %" PRIu64 " (%s)", from, ref, seat);
        if (f[0] != '\0' && n > 0 && (size_t)n < sizeof text)
            snprintf(text + n, sizeof text - (size_t)n, ", rolled %s", f);
        else if (strlen(data) > 8 && n > 0 && (size_t)n < sizeof text)
            snprintf(text + n, sizeof text - (size_t)n, ", drew %zu random bytes",
                     strlen(data) / 2 - 4);
    } else if (strcmp(kind, "app_pending") == 0) {
        snprintf(text, sizeof text, "%s sent a dice move in app %" PRIu64 " (%s): rolled by the "
                 "next block", from, ref, seat);
    } else if (strcmp(kind, "app_discard") == 0) {
        snprintf(text, sizeof text, "app %" PRIu64 ": the pending move was dropped: %s", ref,
                 reason);
    } else if (strcmp(kind, "app_keepalive") == 0) {
        snprintf(text, sizeof text, "%s kept the clock of app %" PRIu64 " alive (deadline block %"
                 PRIu64 ")", from, ref, u64_of(e, "amount"));
    } else if (strcmp(kind, "app_claim") == 0) {
        snprintf(text, sizeof text, "%s claimed a timeout in app %" PRIu64 " (%s)", from, ref,
                 seat);
    } else if (strcmp(kind, "app_resign") == 0) {
        snprintf(text, sizeof text, "%s resigned app %" PRIu64 " (%s)", from, ref, seat);
    } else if (strcmp(kind, "app_payout") == 0) {
        if (me_b)
            snprintf(text, sizeof text, "%s %s from app %" PRIu64 " (%s%s%s)",
                     strcmp(reason, "win") == 0 ? "won" : "received", amt, ref, reason,
                     seat[0] ? ", " : "", seat);
        else
            snprintf(text, sizeof text, "app %" PRIu64 " paid %s to %s (%s%s%s)", ref, amt, to,
                     reason, seat[0] ? ", " : "", seat);
    } else if (strcmp(kind, "app_rake") == 0) {
        snprintf(text, sizeof text, "app %" PRIu64 " paid a rake of %s", ref, amt);
    } else if (strcmp(kind, "app_end") == 0) {
        snprintf(text, sizeof text, "app %" PRIu64 " ended: %s%s%s", ref,
                 reason[0] ? reason : "finished", seat[0] ? ", winner " : "", seat);
    } else if (strcmp(kind, "bet_settle") == 0) {
        uint8_t d[9];
        size_t dn = 0;
        const char *data = str_of(e, "data");
        char vw[64]; /* a catalogue bet's value in words (bet_pictures.h) */
        bool ok = zbc_hex_decode(d, sizeof d, &dn, data, strlen(data)) && dn == 9;
        if (ok && zbc_bet_value_words(game, zbc_get_le32(d + 4), vw, sizeof vw) >= 0)
            snprintf(text, sizeof text, "%s bet %" PRIu64 " settled: %s, %s, returned %s", game,
                     ref, d[8] ? "win" : "loss", vw, amt);
        else if (ok)
            snprintf(text, sizeof text, "bet %" PRIu64 " settled: %s, value %" PRIu32
                     ", returned %s", ref, d[8] ? "win" : "loss", zbc_get_le32(d + 4), amt);
        else
            snprintf(text, sizeof text, "bet %" PRIu64 " settled, returned %s", ref, amt);
    } else if (strcmp(kind, "app_escrow") == 0) {
        snprintf(text, sizeof text, "the apps fund put %s into the pot of app %" PRIu64, amt,
                 ref);
    } else {
        snprintf(text, sizeof text, "%s: %s -> %s, %s, ref %" PRIu64 "%s%s", kind, from, to, amt,
                 ref, reason[0] ? ": " : "", reason);
    }
    snprintf(out, cap, "%7" PRIu64 "  %s  %s", u64_of(e, "height"), when[0] ? when : "-", text);
}

/* A cursor is opaque text the node made (docs/api.md): 1 to CURSOR_MAX
 * printable ASCII characters without blanks; it is percent-encoded into
 * the URL. */
static bool cursor_ok(const char *c)
{
    size_t n = strlen(c);
    if (n == 0 || n > CURSOR_MAX)
        return false;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)c[i] <= 0x20 || (unsigned char)c[i] >= 0x7f)
            return false;
    return true;
}

/* out (3 * CURSOR_MAX + 1) gets c with every byte outside A-Z a-z 0-9
 * - _ . ~ as %XX. */
static void url_escape(char *out, const char *c)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t o = 0;
    for (; *c != '\0'; c++) {
        unsigned char ch = (unsigned char)*c;
        if ((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
            ch == '-' || ch == '_' || ch == '.' || ch == '~') {
            out[o++] = (char)ch;
        } else {
            out[o++] = '%';
            out[o++] = hex[ch >> 4];
            out[o++] = hex[ch & 15];
        }
    }
    out[o] = '\0';
}

/* app id -> game of the account's apps (one list call), for dice faces and the words of
 * a catalogue bet's value. */
static json_t *games_of(const struct zbc_opts *o, const char *addr)
{
    json_t *map = json_object();
    char path[200];
    snprintf(path, sizeof path, "/api/v1/apps?seat=%s&limit=100", addr);
    struct zbc_client api = {o->api, o->timeout_s, 0};
    json_t *reply;
    struct zbc_wfail quiet = {0};
    if (!zbc_client_call(&api, path, NULL, &reply, &quiet)) {
        zbc_wfail_clear(&quiet);
        return map;
    }
    json_t *apps = json_object_get(reply, "apps"), *a;
    size_t i;
    json_array_foreach(apps, i, a) {
        const char *id = json_string_value(json_object_get(a, "id"));
        const char *g = json_string_value(json_object_get(a, "game"));
        if (id != NULL && g != NULL)
            json_object_set_new(map, id, json_string(g));
    }
    json_decref(reply);
    return map;
}

/* One page: GET .../history?limit=&cursor=; checks the reply. */
static int page(json_t **reply, const struct zbc_opts *o, const char *addr, uint64_t limit,
                const char *cursor, struct zbc_wfail *f)
{
    char path[600], esc[3 * CURSOR_MAX + 1];
    int n = snprintf(path, sizeof path, "/api/v1/accounts/%s/history?limit=%" PRIu64, addr,
                     limit);
    if (cursor != NULL) {
        url_escape(esc, cursor);
        snprintf(path + n, sizeof path - (size_t)n, "&cursor=%s", esc);
    }
    struct zbc_client api = {o->api, o->timeout_s, 0};
    if (!zbc_client_call(&api, path, NULL, reply, f))
        return 0;
    json_t *entries, *e;
    struct zbc_err err;
    size_t i;
    if (!zbc_reply_array(*reply, "entries", what, &entries, &err))
        return zbc_client_bad_reply(f, *reply, &err);
    if (json_array_size(entries) > limit) {
        zbc_fail(&err, "%s has %zu entries, more than the %" PRIu64 " asked for", what,
                 json_array_size(entries), limit);
        return zbc_client_bad_reply(f, *reply, &err);
    }
    json_array_foreach(entries, i, e) {
        if (!zbc_history_check_entry(e, &err))
            return zbc_client_bad_reply(f, *reply, &err);
    }
    const char *next;
    if (!zbc_reply_absent(*reply, "next_cursor") &&
        (!zbc_reply_str(*reply, "next_cursor", what, &next, &err) ||
         (!cursor_ok(next) &&
          !zbc_fail(&err, "%s: \"next_cursor\" is not a cursor (1 to %d printable "
                    "characters without blanks)", what, CURSOR_MAX))))
        return zbc_client_bad_reply(f, *reply, &err);
    return 1;
}

int zbc_cmd_history(const struct zbc_opts *o, int argc, const char *const *argv,
                    json_t **result, struct zbc_wfail *f)
{
    if (argc > 1)
        return zbc_wfail(f, ZBC_EXIT_USAGE,
                         "usage: zbc history [ADDRESS|NAME] [--limit N] [--cursor C] [--all]");
    uint64_t limit = 20;
    struct zbc_err err;
    if (o->limit != NULL && !zbc_parse_u64(o->limit, 1, 100, &limit, "--limit", &err))
        return zbc_wfail(f, ZBC_EXIT_USAGE, "--limit takes 1 to 100 entries, not '%s'", o->limit);
    if (o->cursor != NULL && !cursor_ok(o->cursor))
        return zbc_wfail(f, ZBC_EXIT_USAGE,
                         "--cursor '%s' is not a cursor: give the next_cursor a previous page "
                         "printed", o->cursor);
    struct zbc_addr a;
    char name[ZBC_KEY_NAME_MAX + 1] = "";
    if (argc == 1) {
        if (!zbc_name_resolve(&a, name, o, argv[0], "account", f))
            return 0;
    } else {
        uint8_t pk[32];
        if (!zbc_keystore_pubkey(o, NULL, pk, name, f))
            return 0;
        zbc_addr_from_ed25519(&a, pk);
    }
    char addr[ZBC_ADDR_TEXT_MAX];
    zbc_addr_to_text(addr, &a);

    json_t *all = json_array(), *last = NULL;
    char cursor[CURSOR_MAX + 1] = "";
    if (o->cursor != NULL)
        snprintf(cursor, sizeof cursor, "%s", o->cursor);
    bool truncated = false;
    size_t pages = 0;
    for (;;) {
        json_t *reply;
        if (!page(&reply, o, addr, o->all ? 100 : limit, cursor[0] ? cursor : NULL, f)) {
            json_decref(all);
            json_decref(last);
            return 0;
        }
        json_array_extend(all, json_object_get(reply, "entries"));
        json_decref(last);
        last = reply;
        const char *next = json_string_value(json_object_get(reply, "next_cursor"));
        if (!o->all || next == NULL)
            break;
        if (strcmp(next, cursor) == 0) {
            zbc_fail(&err, "%s repeats the cursor %s: it would never end", what, next);
            json_decref(all);
            return zbc_client_bad_reply(f, last, &err);
        }
        /* bounded whatever the node does (empty pages, cursors in a cycle) */
        if (json_array_size(all) >= HISTORY_ALL_MAX || ++pages >= HISTORY_PAGES_MAX) {
            truncated = true;
            break;
        }
        snprintf(cursor, sizeof cursor, "%s", next);
    }

    struct zbc_names nm;
    zbc_names_load(&nm, o);
    json_t *games = NULL;
    size_t i;
    json_t *e;
    json_array_foreach(all, i, e) {
        const char *k = str_of(e, "kind");
        if (((strcmp(k, "app_move") == 0 && strlen(str_of(e, "data")) > 8) ||
             strcmp(k, "bet_settle") == 0) && games == NULL)
            games = games_of(o, addr);
    }
    struct zbc_textbuf tb = {0};
    zbc_textbuf_add(&tb, "history of %s%s%s%s, newest first\n", name[0] ? name : addr,
                    name[0] ? " (" : "", name[0] ? addr : "", name[0] ? ")" : "");
    if (json_array_size(all) == 0)
        zbc_textbuf_add(&tb, "  no transactions or app events\n");
    json_array_foreach(all, i, e) {
        char idbuf[24], line[600];
        snprintf(idbuf, sizeof idbuf, "%" PRIu64, u64_of(e, "ref"));
        const char *game = games != NULL ? json_string_value(json_object_get(games, idbuf)) : NULL;
        zbc_history_line(line, sizeof line, e, addr, &nm, game);
        zbc_textbuf_add(&tb, "%s\n", line);
        /* JSON: u64 ids as strings, amounts also in ZBC text, the line */
        char amt[32];
        zbc_amount_format(amt, u64_of(e, "amount"));
        if (strncmp(str_of(e, "kind"), "app_", 4) == 0 || strcmp(str_of(e, "kind"), "bet_settle") == 0)
            json_object_set_new(e, "ref", json_string(idbuf));
        if (strcmp(str_of(e, "kind"), "app_activate") != 0 &&
            strcmp(str_of(e, "kind"), "app_keepalive") != 0 &&
            strcmp(str_of(e, "kind"), "app_move") != 0)
            json_object_set_new(e, "amount_zbc", json_string(amt));
        json_object_set_new(e, "text", json_string(line));
    }
    const char *next = json_string_value(json_object_get(last, "next_cursor"));
    if (next != NULL && (!o->all || truncated))
        zbc_textbuf_add(&tb, "more: zbc history %s --cursor %s%s\n", name[0] ? name : addr,
                        next, truncated ? " (--all stops after 10000 entries or 200 pages)" : "");
    char *text = zbc_textbuf_take(&tb);
    zbc_names_free(&nm);
    json_decref(games);

    json_t *r = json_object();
    json_object_set_new(r, "address", json_string(addr));
    if (name[0] != '\0')
        json_object_set_new(r, "name", json_string(name));
    json_object_set_new(r, "entries", all);
    json_object_set_new(r, "count", json_integer((json_int_t)json_array_size(all)));
    json_object_set_new(r, "next_cursor", next != NULL ? json_string(next) : json_null());
    json_object_set(r, "height", json_object_get(last, "height"));
    if (text != NULL)
        json_object_set_new(r, "_text", json_string(text));
    free(text);
    json_decref(last);
    *result = r;
    return 1;
}
