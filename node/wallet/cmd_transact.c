/* zbc send / zbc app create|join|move|resign|claim: build, sign, then print
 * (--offline) or submit (and with --wait, follow until confirmed). */
#include <sodium.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "crypto/hex.h"
#include "node/wallet/amount.h"
#include "node/wallet/client.h"
#include "node/wallet/cmds.h"
#include "node/wallet/keystore.h"
#include "node/wallet/out.h"
#include "node/wallet/submit.h"
#include "node/wallet/txbuild.h"

static int seed_from_hex(uint8_t seed[32], const char *hex, const char *what,
                         struct zbc_wfail *f)
{
    if (hex == NULL || strlen(hex) != 64 || !zbc_hex_decode_exact(seed, 32, hex))
        return zbc_wfail(f, ZBC_EXIT_USAGE, "%s must be a 32-byte seed as 64 hex characters", what);
    return 1;
}

/* The signing key: --from NAME, an explicit seed argument ("-" = ZBC_KEY),
 * ZBC_KEY, else the wallet's default key. */
static int signing_seed(uint8_t seed[32], const struct zbc_opts *o, const char *explicit_key,
                        struct zbc_wfail *f)
{
    if (o->from != NULL)
        return zbc_keystore_load(o, o->from, seed, f);
    if (explicit_key != NULL && strcmp(explicit_key, "-") != 0)
        return seed_from_hex(seed, explicit_key, "the key argument", f);
    if (o->env_key != NULL)
        return seed_from_hex(seed, o->env_key, "ZBC_KEY", f);
    if (explicit_key != NULL)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "the key argument is '-' but ZBC_KEY is not set");
    if (o->offline)
        return zbc_wfail(f, ZBC_EXIT_USAGE,
                         "--offline needs a key: a seed argument, ZBC_KEY, or --from NAME");
    return zbc_keystore_load(o, NULL, seed, f);
}

/* send's text for a person: "sent 1.5 ZBC to bob (ZBC_...), fee 0.05 ZBC"
 * before the pool/block line; JSON gains amount and amount_zbc. */
static void describe_send(json_t *r, const struct zbc_wtx *w, const char *typed)
{
    char amt[32], fee[32], to[ZBC_ADDR_TEXT_MAX];
    zbc_amount_format(amt, w->body.u.send.amount);
    zbc_amount_format(fee, (uint64_t)w->tx.fee);
    zbc_addr_to_text(to, &w->tx.recipient);
    json_object_set_new(r, "amount", json_integer((json_int_t)w->body.u.send.amount));
    json_object_set_new(r, "amount_zbc", json_string(amt));
    const char *rest = json_string_value(json_object_get(r, "_text"));
    struct zbc_addr a;
    struct zbc_err err;
    bool named = !zbc_addr_parse_text(&a, typed, &err); /* a wallet key name */
    char text[1024];
    snprintf(text, sizeof text, "sent %s to %s%s%s%s, fee %s\n%s", amt, named ? typed : to,
             named ? " (" : "", named ? to : "", named ? ")" : "", fee, rest != NULL ? rest : "");
    json_object_set_new(r, "_text", json_string(text));
}

int zbc_cmd_transact(const struct zbc_opts *o, int argc, const char *const *argv,
                     json_t **result, struct zbc_wfail *f)
{
    const char *cmd = argv[0];
    int need = zbc_wtx_arg_count(cmd);
    if (need < 0)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "unknown command '%s'", cmd);
    int rest = argc - 1;
    const char *const *args = argv + 1;
    const char *explicit_key = NULL;
    if (rest == need + 1) {
        explicit_key = args[0];
        args++;
        rest--;
    }
    struct zbc_wtx *w = calloc(1, sizeof *w);
    if (w == NULL)
        return zbc_wfail(f, ZBC_EXIT_INTERNAL, "out of memory");
    int ok = 0;
    uint8_t seed[32];
    struct zbc_chain_id chain;
    if (!zbc_wtx_from_args(w, cmd, rest, args, o, (int64_t)time(NULL), f))
        goto out;
    if (!signing_seed(seed, o, explicit_key, f))
        goto out;
    if (!zbc_chain_for(&chain, o, f))
        goto wipe;
    if (!zbc_wtx_sign(w, seed, &chain, f))
        goto wipe;
    if (o->offline) {
        ok = zbc_wtx_offline_json(result, w, f);
        goto wipe;
    }
    /* Two commands are two transactions: when this one's bytes equal one
     * the node already holds or included (the same command within one
     * second: timestamps are in seconds), it is signed again with the next
     * second.  --timestamp fixes the bytes: a duplicate is then reported. */
    w->retime = !o->have_timestamp;
    for (int tries = 0;; tries++) {
        ok = zbc_submit(result, w, o, f);
        if (ok || !w->retime || tries == 3 || strstr(f->err.msg, "duplicate transaction") == NULL)
            break;
        int64_t next = w->tx.timestamp + 1;
        while ((int64_t)time(NULL) < next)
            usleep(50 * 1000);
        zbc_wfail_clear(f);
        zbc_wtx_free(w);
        if (!zbc_wtx_from_args(w, cmd, rest, args, o, (int64_t)time(NULL), f) ||
            !zbc_wtx_sign(w, seed, &chain, f))
            goto wipe;
        w->retime = true;
    }
    if (ok && !o->offline && strcmp(cmd, "send") == 0)
        describe_send(*result, w, args[0]);
wipe:
    sodium_memzero(seed, sizeof seed);
out:
    zbc_wtx_free(w);
    free(w);
    return ok;
}
