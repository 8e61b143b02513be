/* zbc tx status|show <hash>; zbc tx prepare --from-address A <send|create|
 * join|move|resign|claim> ...; zbc tx submit --prepared FILE|HEX
 * --signature HEX. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "crypto/hex.h"
#include "crypto/sig.h"
#include "node/client/reply.h"
#include "node/wallet/amount.h"
#include "node/wallet/client.h"
#include "node/wallet/cmds.h"
#include "node/wallet/help.h"
#include "node/wallet/out.h"
#include "node/wallet/submit.h"
#include "node/wallet/txbuild.h"

static int check_hash(const char *h, struct zbc_wfail *f)
{
    uint8_t b[32];
    if (h == NULL || strlen(h) != 64 || !zbc_hex_decode_exact(b, 32, h))
        return zbc_wfail(f, ZBC_EXIT_USAGE, "a transaction hash is 64 hex characters");
    return 1;
}

static int tx_get(const struct zbc_opts *o, const char *hash, int status, json_t **result,
                  struct zbc_wfail *f)
{
    if (!check_hash(hash, f))
        return 0;
    char path[160];
    snprintf(path, sizeof path, "/api/v1/transactions/%s%s", hash, status ? "/status" : "");
    struct zbc_client api = {o->api, o->timeout_s, 0};
    json_t *reply;
    if (!zbc_client_call(&api, path, NULL, &reply, f))
        return 0;
    bool confirmed;
    uint32_t height;
    struct zbc_err err;
    if (!zbc_client_check_tx(reply, hash, &confirmed, &height, &err))
        return zbc_client_bad_reply(f, reply, &err);
    const char *why;
    uint32_t at;
    if (zbc_client_tx_dropped(reply, &why, &at))
        return zbc_client_fail_dropped(f, reply, hash);
    if (status && o->wait && !confirmed) {
        json_decref(reply);
        if (!zbc_wait_confirmed(&reply, hash, o, f))
            return 0;
    }
    /* amounts a person reads also in ZBC (the units stay) */
    static const char *const money[] = {"amount", "fee", "stake"};
    for (size_t i = 0; i < sizeof money / sizeof money[0]; i++) {
        uint64_t v;
        char key[16], zs[32];
        if (json_object_get(reply, money[i]) == NULL ||
            !zbc_reply_u64(reply, money[i], 0, UINT64_MAX, "tx", &v, &err))
            continue;
        zbc_amount_format(zs, v);
        snprintf(key, sizeof key, "%s_zbc", money[i]);
        json_object_set_new(reply, key, json_string(zs));
    }
    *result = reply;
    return 1;
}

static const char *instructions =
    "Sign the 32-byte digest with the sender's key: an Ethereum account signs it with "
    "personal_sign / signMessage(getBytes(digest)) (EIP-191); a Bitcoin account signs the "
    "64-character lower-case hex of the digest with signmessage (compressed key). Then run: "
    "zbc tx submit --prepared <this file or the unsigned_bytes hex> --signature <65-byte hex>";

static int tx_prepare(const struct zbc_opts *o, int argc, const char *const *argv,
                      json_t **result, struct zbc_wfail *f)
{
    if (o->from_address == NULL)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "tx prepare needs --from-address <0x...|1...|ZBC_...>");
    if (argc < 1)
        return zbc_wfail(f, ZBC_EXIT_USAGE,
                         "usage: zbc tx prepare --from-address A send RECIPIENT AMOUNT [--fee F]");
    const char *cmd = argv[0];
    if (strcmp(cmd, "app") == 0 && argc >= 2) {
        argv++;
        argc--;
        cmd = argv[0];
    }
    struct zbc_wtx *w = calloc(1, sizeof *w);
    if (w == NULL)
        return zbc_wfail(f, ZBC_EXIT_INTERNAL, "out of memory");
    int ok = 0;
    struct zbc_err err;
    struct zbc_chain_id chain;
    if (!zbc_wtx_from_args(w, cmd, argc - 1, argv + 1, o, (int64_t)time(NULL), f))
        goto out;
    if (!zbc_addr_parse_text(&w->tx.sender, o->from_address, &err)) {
        zbc_wfail(f, ZBC_EXIT_USAGE, "--from-address '%s' is not a valid address: %s",
                  o->from_address, err.msg);
        goto out;
    }
    if (!zbc_chain_for(&chain, o, f) || !zbc_wtx_prepare(w, &chain, f))
        goto out;
    json_t *r = json_object();
    char sender[ZBC_ADDR_TEXT_MAX];
    zbc_addr_to_text(sender, &w->tx.sender);
    json_object_set_new(r, "sender", json_string(sender));
    json_object_set_new(r, "transaction_type", json_integer(w->tx.type));
    json_object_set_new(r, "fee", json_integer(w->tx.fee));
    char fee[32];
    zbc_amount_format(fee, (uint64_t)w->tx.fee);
    json_object_set_new(r, "fee_zbc", json_string(fee));
    json_object_set_new(r, "timestamp", json_integer(w->tx.timestamp));
    json_object_set_new(r, "signing_version", json_integer(chain.signing_version));
    if (chain.signing_version == 2)
        json_object_set_new(r, "genesis_hash", zbc_json_hex(chain.genesis, 32));
    json_object_set_new(r, "unsigned_bytes", zbc_json_hex(w->bytes, w->unsigned_len));
    json_object_set_new(r, "digest", zbc_json_hex(w->digest, 32));
    json_object_set_new(r, "instructions", json_string(instructions));
    if (o->out_file != NULL) {
        FILE *fp = fopen(o->out_file, "w");
        if (fp == NULL || json_dumpf(r, fp, JSON_INDENT(2) | JSON_SORT_KEYS) != 0 ||
            fputc('\n', fp) == EOF) {
            if (fp != NULL)
                fclose(fp);
            json_decref(r);
            zbc_wfail(f, ZBC_EXIT_USAGE, "cannot write %s: %s", o->out_file, strerror(errno));
            goto out;
        }
        if (fclose(fp) != 0) {
            json_decref(r);
            zbc_wfail(f, ZBC_EXIT_USAGE, "cannot write %s: %s", o->out_file, strerror(errno));
            goto out;
        }
        json_object_set_new(r, "file", json_string(o->out_file));
    }
    *result = r;
    ok = 1;
out:
    zbc_wtx_free(w);
    free(w);
    return ok;
}

/* Reads --prepared: a file written by tx prepare (JSON), a file holding
 * the hex, or the hex itself.  *prepared gets the JSON object when there
 * was one. */
static int load_prepared(uint8_t **bytes, size_t *len, json_t **prepared, const char *arg,
                         struct zbc_wfail *f)
{
    *prepared = NULL;
    char *text = NULL;
    FILE *fp = fopen(arg, "r");
    if (fp != NULL) {
        json_error_t jerr;
        json_t *j = json_loadf(fp, 0, &jerr);
        if (j == NULL) {
            rewind(fp);
            text = calloc(1, 2 * ZBC_TX_MAX_BYTES + 2);
            size_t n = text != NULL ? fread(text, 1, 2 * ZBC_TX_MAX_BYTES + 1, fp) : 0;
            if (text != NULL)
                text[n] = '\0';
        } else if (!json_is_string(json_object_get(j, "unsigned_bytes"))) {
            json_decref(j);
            fclose(fp);
            return zbc_wfail(f, ZBC_EXIT_USAGE, "%s has no \"unsigned_bytes\" (write it with zbc tx prepare --out)", arg);
        } else {
            *prepared = j;
            text = strdup(json_string_value(json_object_get(j, "unsigned_bytes")));
        }
        fclose(fp);
    } else {
        text = strdup(arg);
    }
    if (text == NULL)
        return zbc_wfail(f, ZBC_EXIT_INTERNAL, "out of memory");
    size_t n = strlen(text);
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == ' ' || text[n - 1] == '\r'))
        text[--n] = '\0';
    *bytes = malloc(n / 2 + 1);
    if (*bytes == NULL || n == 0 || !zbc_hex_decode(*bytes, n / 2 + 1, len, text, n)) {
        free(text);
        free(*bytes);
        *bytes = NULL;
        json_decref(*prepared);
        *prepared = NULL;
        return zbc_wfail(f, ZBC_EXIT_USAGE,
                         "--prepared must be a file from zbc tx prepare or the unsigned bytes as hex");
    }
    free(text);
    return 1;
}

static int tx_submit(const struct zbc_opts *o, int argc, json_t **result, struct zbc_wfail *f)
{
    if (argc != 0 || o->prepared == NULL || o->signature == NULL)
        return zbc_wfail(f, ZBC_EXIT_USAGE,
                         "usage: zbc tx submit --prepared FILE|HEX --signature HEX");
    uint8_t sig[ZBC_SIG_MAX];
    size_t sig_len;
    const char *sh = o->signature;
    if (strncmp(sh, "0x", 2) == 0)
        sh += 2;
    struct zbc_err err;
    if (!zbc_hex_decode(sig, sizeof sig, &sig_len, sh, strlen(sh)) || sig_len == 0)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "--signature must be hex of at most %d bytes",
                         ZBC_SIG_MAX);
    uint8_t *ub = NULL;
    size_t ulen = 0;
    json_t *prep;
    if (!load_prepared(&ub, &ulen, &prep, o->prepared, f))
        return 0;
    struct zbc_chain_id chain;
    int ok = 0;
    struct zbc_wtx *w = NULL;
    const char *g = prep != NULL ? json_string_value(json_object_get(prep, "genesis_hash")) : NULL;
    json_t *sv = prep != NULL ? json_object_get(prep, "signing_version") : NULL;
    if (o->genesis != NULL || (prep == NULL)) {
        if (!zbc_chain_for(&chain, o, f))
            goto out;
    } else if (json_integer_value(sv) == 1) {
        memset(&chain, 0, sizeof chain);
        chain.signing_version = 1;
    } else if (g == NULL || !zbc_chain_id_parse(&chain, g, f)) {
        zbc_wfail(f, ZBC_EXIT_USAGE, "%s has no valid genesis_hash", o->prepared);
        goto out;
    }
    w = calloc(1, sizeof *w);
    if (w == NULL) {
        zbc_wfail(f, ZBC_EXIT_INTERNAL, "out of memory");
        goto out;
    }
    if (!zbc_wtx_attach(w, ub, ulen, sig, sig_len, &chain, f))
        goto out;
    if (!zbc_sig_verify(&w->tx.sender, w->digest, w->tx.sig, w->tx.sig_len, &err)) {
        zbc_wfail(f, ZBC_EXIT_VERIFY_FAILED,
                  "the signature does not verify for this sender and digest: %s", err.msg);
        goto out;
    }
    ok = zbc_submit(result, w, o, f);
out:
    if (w != NULL)
        zbc_wtx_free(w);
    free(w);
    free(ub);
    json_decref(prep);
    return ok;
}

int zbc_cmd_tx(const struct zbc_opts *o, int argc, const char *const *argv, json_t **result,
               struct zbc_wfail *f)
{
    if (argc < 1)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "usage: zbc tx status|show|prepare|submit ...");
    const char *sub = argv[0];
    if (strcmp(sub, "status") == 0 || strcmp(sub, "show") == 0) {
        if (argc != 2)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "usage: zbc tx %s <hash>", sub);
        return tx_get(o, argv[1], strcmp(sub, "status") == 0, result, f);
    }
    if (strcmp(sub, "prepare") == 0)
        return tx_prepare(o, argc - 1, argv + 1, result, f);
    if (strcmp(sub, "submit") == 0)
        return tx_submit(o, argc - 1, result, f);
    static const char *const subs[] = {"status", "show", "prepare", "submit"};
    return zbc_fail_unknown(f, "tx command", sub, subs, 4);
}
