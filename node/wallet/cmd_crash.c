/* zbc crash create [--blocks N] [--stake A --target X] | join ID --stake A
 * --target X | show ID: crash rounds (type 36, docs/games.md "Crash",
 * docs/protocol-apps.md §12, docs/wallet.md "Crash"). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/crash.h"
#include "crypto/bytes.h"
#include "crypto/hex.h"
#include "node/wallet/amount.h"
#include "node/wallet/app_client.h"
#include "node/wallet/cmds.h"
#include "node/wallet/help.h"
#include "node/wallet/textbuf.h"

#define CRASH_WINDOW_DEFAULT 10

static const char crash_usage[] =
    "usage: zbc crash create [--blocks N] [--stake AMOUNT --target MULTIPLIER] "
    "[--client-seed S] | zbc crash join ID --stake AMOUNT --target MULTIPLIER | "
    "zbc crash show ID";

/* "2.5x", "2.5", "10x" -> hundredths >= 101. */
static int target_parse(uint32_t *out, const char *text, struct zbc_wfail *f)
{
    char buf[32];
    size_t n = strlen(text);
    uint64_t v;
    if (n > 0 && n < sizeof buf && (text[n - 1] == 'x' || text[n - 1] == 'X'))
        n--;
    if (n == 0 || n >= sizeof buf)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "--target must be a multiplier such as 2.5x, "
                         "not '%s'", text);
    memcpy(buf, text, n);
    buf[n] = '\0';
    if (!zbc_hundredths_parse(&v, buf) || v < ZBC_CRASH_TARGET_MIN || v > UINT32_MAX)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "--target must be a multiplier of at least 1.01x "
                         "with at most two decimals, not '%s'", text);
    *out = (uint32_t)v;
    return 1;
}

static int stake_target(const struct zbc_opts *o, uint64_t *stake, uint32_t *target,
                        struct zbc_wfail *f)
{
    struct zbc_err err;
    if (o->stake == NULL || o->target == NULL)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "an entry needs --stake AMOUNT and --target "
                         "MULTIPLIER (e.g. --target 2.5x)");
    if (!zbc_amount_parse(stake, o->stake, &err))
        return zbc_wfail_err(f, ZBC_EXIT_USAGE, &err, "--stake");
    if (*stake == 0)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "--stake must be more than 0");
    if (!target_parse(target, o->target, f))
        return 0;
    uint64_t r;
    if (!zbc_crash_max_return(*stake, *target, &r, &err))
        return zbc_wfail_err(f, ZBC_EXIT_USAGE, &err, "entry");
    return 1;
}

static void mult_text(char out[24], uint64_t hundredths)
{
    snprintf(out, 24, "%" PRIu64 ".%02" PRIu64 "x", hundredths / 100, hundredths % 100);
}

static uint64_t u64_of(const json_t *v)
{
    if (json_is_integer(v))
        return (uint64_t)json_integer_value(v);
    if (json_is_string(v))
        return strtoull(json_string_value(v), NULL, 10);
    return 0;
}

static int crash_create(const struct zbc_opts *o, json_t **result, struct zbc_wfail *f)
{
    struct zbc_crash_params p = {.window = CRASH_WINDOW_DEFAULT};
    uint64_t stake = 0, blocks;
    struct zbc_err err;
    if (o->blocks != NULL) {
        if (!zbc_parse_u64(o->blocks, 1, ZBC_CRASH_WINDOW_MAX, &blocks, "--blocks", &err))
            return zbc_wfail(f, ZBC_EXIT_USAGE, "--blocks must be 1-%d, not '%s'",
                             ZBC_CRASH_WINDOW_MAX, o->blocks);
        p.window = (uint16_t)blocks;
    }
    if ((o->stake != NULL || o->target != NULL) && !stake_target(o, &stake, &p.target, f))
        return 0;
    if (!zbc_client_seed_pick(p.client_seed, &p.client_seed_len, o, f))
        return 0;
    uint8_t params[80];
    size_t plen = zbc_crash_encode(&p, params, sizeof params);
    struct zbc_crash_params check;
    if (plen == 0 || !zbc_crash_parse(&check, params, plen, &err))
        return zbc_wfail_err(f, ZBC_EXIT_USAGE, &err, "crash round");
    char phex[2 * sizeof params + 1], type[8], st[24];
    zbc_hex_encode(phex, params, plen);
    snprintf(type, sizeof type, "%d", ZBC_CRASH_TYPE);
    snprintf(st, sizeof st, "%" PRIu64, stake);
    const char *args[] = {type, st, "1"};
    if (!zbc_app_send(result, o, "create", 3, args, phex, f))
        return 0;
    const char *id = json_string_value(json_object_get(*result, "app_id"));
    json_object_set_new(*result, "game", json_string("crash"));
    json_object_set_new(*result, "window", json_integer(p.window));
    json_object_set_new(*result, "client_seed", json_string(p.client_seed));
    char text[512], entry[96] = "";
    if (stake > 0) {
        char s[32], t[24];
        zbc_amount_format(s, stake);
        mult_text(t, p.target);
        snprintf(entry, sizeof entry, ", your entry %s at %s", s, t);
    }
    snprintf(text, sizeof text,
             "crash round %s opened for %u blocks%s, client seed %s\n"
             "enter: zbc crash join %s --stake AMOUNT --target 2x; then: zbc crash show %s\n",
             id ? id : "?", p.window, entry, p.client_seed, id ? id : "?", id ? id : "?");
    json_object_set_new(*result, "_text", json_string(text));
    return 1;
}

/* The round in words from the API view's "crash" object. */
static int crash_text(const json_t *app, const char *id, char **out, struct zbc_wfail *f)
{
    const json_t *c = json_object_get(app, "crash");
    if (!json_is_object(c))
        return zbc_wfail(f, ZBC_EXIT_USAGE, "app %s is not a crash round", id);
    struct zbc_textbuf b = {0};
    const json_t *pt = json_object_get(c, "crash_point");
    const json_t *entries = json_object_get(c, "entries");
    char m[24];
    zbc_textbuf_add(&b, "crash round %s: entries until block %" PRIu64 ", seed of block %"
                    PRIu64 ", client seed %s\n", id, u64_of(json_object_get(c, "close")),
                    u64_of(json_object_get(c, "seed_height")),
                    json_string_value(json_object_get(c, "client_seed")) ?: "?");
    if (json_is_integer(pt)) {
        mult_text(m, (uint64_t)json_integer_value(pt));
        zbc_textbuf_add(&b, "crashed at %s\n", m);
    } else {
        zbc_textbuf_add(&b, "%s\n", json_is_true(json_object_get(c, "open"))
                                        ? "open: taking entries"
                                        : "closed: settles at the start of the seed block");
    }
    size_t i;
    const json_t *e;
    json_array_foreach(entries, i, e) {
        char s[32], r[32];
        zbc_amount_format(s, u64_of(json_object_get(e, "stake")));
        mult_text(m, u64_of(json_object_get(e, "target")));
        const json_t *co = json_object_get(e, "cashed_out");
        const char *addr = json_string_value(json_object_get(e, "address"));
        if (json_is_boolean(co)) {
            zbc_amount_format(r, u64_of(json_object_get(e, "returns")));
            zbc_textbuf_add(&b, "  #%zu %s: %s at %s — %s %s\n", i, addr ? addr : "?", s, m,
                            json_is_true(co) ? "cashed out, paid" : "crashed, lost",
                            json_is_true(co) ? r : s);
        } else {
            zbc_textbuf_add(&b, "  #%zu %s: %s at %s\n", i, addr ? addr : "?", s, m);
        }
    }
    if (json_array_size(entries) == 0)
        zbc_textbuf_add(&b, "  no entries\n");
    *out = zbc_textbuf_take(&b);
    if (*out == NULL)
        return zbc_wfail(f, ZBC_EXIT_INTERNAL, "out of memory");
    return 1;
}

static int crash_show(const struct zbc_opts *o, const char *id, json_t **result,
                      struct zbc_wfail *f)
{
    json_t *app;
    if (!zbc_app_fetch(&app, o, id, f))
        return 0;
    char *text;
    if (!crash_text(app, id, &text, f)) {
        json_decref(app);
        return 0;
    }
    *result = json_object();
    json_object_set_new(*result, "app_id", json_string(id));
    json_object_set(*result, "crash", json_object_get(app, "crash"));
    json_object_set(*result, "status", json_object_get(app, "status"));
    json_object_set_new(*result, "_text", json_string(text));
    free(text);
    json_decref(app);
    return 1;
}

static int crash_join(const struct zbc_opts *o, const char *id, json_t **result,
                      struct zbc_wfail *f)
{
    uint64_t stake, app_id;
    uint32_t target;
    if (!zbc_app_parse_id(&app_id, id))
        return zbc_wfail(f, ZBC_EXIT_USAGE, "'%s' is not an app id", id);
    if (!stake_target(o, &stake, &target, f))
        return 0;
    uint8_t move[ZBC_CRASH_ENTRY_BYTES];
    char mhex[2 * ZBC_CRASH_ENTRY_BYTES + 1];
    zbc_crash_encode_entry(move, stake, target);
    zbc_hex_encode(mhex, move, sizeof move);
    const char *args[] = {id, mhex};
    if (!zbc_app_send(result, o, "move", 2, args, NULL, f))
        return 0;
    uint64_t r = 0;
    struct zbc_err err;
    if (zbc_crash_max_return(stake, target, &r, &err))
        json_object_set_new(*result, "max_return", json_integer((json_int_t)r));
    char text[320], s[32], m[24], rt[32];
    zbc_amount_format(s, stake);
    zbc_amount_format(rt, r);
    mult_text(m, target);
    snprintf(text, sizeof text, "entered crash round %s: %s at %s (pays %s if the crash point "
             "reaches %s)\nthen: zbc crash show %s\n", id, s, m, rt, m, id);
    json_object_set_new(*result, "_text", json_string(text));
    if (!o->wait || o->wait_included)
        return 1; /* --wait=included: in a block is enough */
    static const char *const kinds[] = {"bet_settle", NULL};
    json_t *app;
    const json_t *settle;
    if (!zbc_app_wait_entry(&app, &settle, o, id, kinds, NULL, f))
        return 0;
    char *words;
    int ok = crash_text(app, id, &words, f);
    if (ok) {
        struct zbc_textbuf b = {0};
        zbc_textbuf_add(&b, "%s%s", text, words);
        free(words);
        char *all = zbc_textbuf_take(&b);
        json_object_set_new(*result, "_text", json_string(all ? all : text));
        free(all);
        json_object_set(*result, "crash", json_object_get(app, "crash"));
    }
    json_decref(app);
    return ok;
}

int zbc_cmd_crash(const struct zbc_opts *o, int argc, const char *const *argv,
                  json_t **result, struct zbc_wfail *f)
{
    static const char *const subs[] = {"create", "join", "show"};
    if (argc < 1)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "%s", crash_usage);
    if (strcmp(argv[0], "create") == 0 && argc == 1)
        return crash_create(o, result, f);
    if (strcmp(argv[0], "join") == 0 && argc == 2)
        return crash_join(o, argv[1], result, f);
    if (strcmp(argv[0], "show") == 0 && argc == 2)
        return crash_show(o, argv[1], result, f);
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
        if (strcmp(argv[0], subs[i]) == 0)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "%s", crash_usage);
    return zbc_fail_unknown(f, "crash command", argv[0], subs, sizeof subs / sizeof subs[0]);
}
