#include "node/wallet/app_client.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

#include "crypto/bytes.h"
#include "crypto/hex.h"
#include "crypto/sig.h"
#include "node/client/http.h"
#include "node/client/reply.h"
#include "node/wallet/client.h"
#include "node/wallet/cmds.h"
#include "node/wallet/keystore.h"

int zbc_app_parse_id(uint64_t *id, const char *text)
{
    struct zbc_err err;
    return zbc_parse_u64(text, 0, UINT64_MAX, id, "app id", &err);
}

int zbc_app_check_view(const json_t *app, const char *id, bool full, struct zbc_err *err)
{
    static const char what[] = "the node's app view";
    const char *s;
    uint64_t v, seats;
    json_t *players, *p, *any;
    if (!zbc_reply_str(app, "id", what, &s, err))
        return 0;
    if (id != NULL && strcmp(s, id) != 0)
        return zbc_fail(err, "%s is about app %.24s, not %s", what, s, id);
    if (!zbc_reply_u64(app, "type", 0, 255, what, &v, err) ||
        !zbc_reply_str(app, "game", what, &s, err) ||
        !zbc_reply_str(app, "status", what, &s, err))
        return 0;
    if (strcmp(s, "open") != 0 && strcmp(s, "active") != 0 && strcmp(s, "finished") != 0 &&
        strcmp(s, "abandoned") != 0)
        return zbc_fail(err, "%s: \"status\" '%.20s' is not open, active, finished or abandoned",
                        what, s);
    if (!zbc_reply_u64(app, "seats", 1, 255, what, &seats, err) ||
        !zbc_reply_u64(app, "seated", 0, seats, what, &v, err) ||
        !zbc_reply_u64(app, "stake", 0, UINT64_MAX, what, &v, err) ||
        !zbc_reply_u64(app, "moves", 0, UINT64_MAX, what, &v, err) ||
        !zbc_reply_u64(app, "created", 0, UINT32_MAX, what, &v, err) ||
        !zbc_reply_array(app, "players", what, &players, err))
        return 0;
    size_t i;
    json_array_foreach(players, i, p) {
        if (!zbc_reply_u64(p, "seat", 0, seats - 1, "a player in the node's app view", &v, err) ||
            !zbc_reply_str(p, "address", "a player in the node's app view", &s, err))
            return 0;
    }
    if (!full)
        return 1;
    if (!zbc_reply_str(app, "state_hex", what, &s, err) ||
        !zbc_reply_array(app, "history", what, &any, err))
        return 0;
    if (!zbc_reply_absent(app, "result") && !zbc_reply_object(app, "result", what, &any, err))
        return 0;
    return 1;
}

/* A field that may be absent or null, else a whole number in [0, max]. */
static int opt_u64(const json_t *o, const char *key, uint64_t max, const char *what,
                   struct zbc_err *err)
{
    uint64_t v;
    return zbc_reply_absent(o, key) || zbc_reply_u64(o, key, 0, max, what, &v, err);
}

static int check_history_entry(const json_t *e, struct zbc_err *err)
{
    static const char what[] = "a history entry of the node's app view";
    const char *kind, *s;
    uint64_t v;
    bool b;
    if (!zbc_reply_str(e, "kind", what, &kind, err) ||
        !zbc_reply_u64(e, "seq", 0, UINT64_MAX, what, &v, err) ||
        !zbc_reply_u64(e, "height", 0, UINT32_MAX, what, &v, err))
        return 0;
    if (strcmp(kind, "app_move") == 0) {
        /* a move the node played at a solo game's clock has no transaction
         * (docs/protocol-apps.md §13) */
        const char *why = json_string_value(json_object_get(e, "reason"));
        bool clock = why != NULL && strcmp(why, "clock") == 0 &&
                     zbc_reply_absent(e, "tx_hash");
        return zbc_reply_u64(e, "seat", 0, 255, what, &v, err) &&
               zbc_reply_str(e, "move_hex", what, &s, err) &&
               (clock || zbc_reply_str(e, "tx_hash", what, &s, err)) &&
               (zbc_reply_absent(e, "rolls_hex") || zbc_reply_str(e, "rolls_hex", what, &s, err)) &&
               opt_u64(e, "roll_bytes_used", UINT64_MAX, what, err);
    }
    if (strcmp(kind, "app_activate") == 0)
        return opt_u64(e, "seat", 255, what, err);
    if (strcmp(kind, "bet_settle") == 0)
        return zbc_reply_u64(e, "u", 0, UINT32_MAX, what, &v, err) &&
               zbc_reply_u64(e, "value", 0, UINT32_MAX, what, &v, err) &&
               zbc_reply_bool(e, "win", what, &b, err) &&
               zbc_reply_u64(e, "amount", 0, UINT64_MAX, what, &v, err);
    return 1;
}

int zbc_app_check_verify(const json_t *app, struct zbc_err *err)
{
    static const char what[] = "the node's app view";
    const char *s;
    uint64_t v;
    json_t *hist, *e, *r, *payouts;
    size_t i;
    if (!zbc_reply_str(app, "params_hex", what, &s, err) ||
        !opt_u64(app, "joined", UINT32_MAX, what, err) ||
        !zbc_reply_array(app, "history", what, &hist, err))
        return 0;
    json_array_foreach(hist, i, e) {
        if (!check_history_entry(e, err))
            return 0;
    }
    if (zbc_reply_absent(app, "result"))
        return 1;
    static const char rwhat[] = "the result in the node's app view";
    if (!zbc_reply_object(app, "result", what, &r, err) ||
        !zbc_reply_str(r, "ending", rwhat, &s, err) ||
        !zbc_reply_u64(r, "rake", 0, UINT64_MAX, rwhat, &v, err) ||
        !opt_u64(r, "winner", 255, rwhat, err) ||
        !zbc_reply_array(r, "payouts", rwhat, &payouts, err))
        return 0;
    json_array_foreach(payouts, i, e) {
        if (!opt_u64(e, "seat", 255, "a payout in the node's app view", err) ||
            !zbc_reply_u64(e, "amount", 0, UINT64_MAX, "a payout in the node's app view", &v,
                           err) ||
            !zbc_reply_str(e, "reason", "a payout in the node's app view", &s, err))
            return 0;
    }
    return 1;
}

int zbc_app_fetch(json_t **app, const struct zbc_opts *o, const char *id,
                  struct zbc_wfail *f)
{
    uint64_t v;
    if (!zbc_app_parse_id(&v, id))
        return zbc_wfail(f, ZBC_EXIT_USAGE, "app id '%s' must be a decimal number", id);
    char path[64], canon[24];
    snprintf(path, sizeof path, "/api/v1/apps/%" PRIu64, v);
    snprintf(canon, sizeof canon, "%" PRIu64, v);
    struct zbc_client api = {o->api, o->timeout_s, 0};
    if (!zbc_client_call(&api, path, NULL, app, f))
        return 0;
    struct zbc_err err;
    if (!zbc_app_check_view(*app, canon, true, &err)) {
        json_t *bad = *app;
        *app = NULL;
        return zbc_client_bad_reply(f, bad, &err);
    }
    return 1;
}

uint64_t zbc_app_block_time_ms(const struct zbc_opts *o)
{
    return zbc_app_chain_times(o, NULL);
}

uint64_t zbc_app_chain_times(const struct zbc_opts *o, uint64_t *open_deadline)
{
    struct zbc_client api = {o->api, o->timeout_s, 0};
    struct zbc_wfail quiet = {0};
    json_t *info = NULL;
    uint64_t ms = 0;
    struct zbc_err err;
    bool answered = zbc_client_call(&api, "/api/v1/node/info", NULL, &info, &quiet);
    if (answered &&
        !zbc_reply_u64(info, "block_time_ms", 1, 86400000, "the node's info", &ms, &err))
        ms = 0;
    if (open_deadline != NULL &&
        (!answered || !zbc_reply_u64(info, "open_deadline", 1, 1000000, "the node's info",
                                     open_deadline, &err)))
        *open_deadline = 0;
    /* automine: blocks come with transactions, not with time */
    if (json_is_true(json_object_get(info, "automine")))
        ms = 0;
    json_decref(info);
    zbc_wfail_clear(&quiet);
    return ms;
}

static const json_t *find_entry(const json_t *app, const char *const *kinds, const char *tx_hash)
{
    size_t i;
    const json_t *e;
    json_array_foreach(json_object_get(app, "history"), i, e) {
        const char *k = json_string_value(json_object_get(e, "kind"));
        const char *h = json_string_value(json_object_get(e, "tx_hash"));
        if (k == NULL || (tx_hash != NULL && (h == NULL || strcasecmp(h, tx_hash) != 0)))
            continue;
        for (const char *const *want = kinds; *want != NULL; want++)
            if (strcmp(k, *want) == 0)
                return e;
    }
    return NULL;
}

int zbc_app_wait_entry(json_t **app, const json_t **entry, const struct zbc_opts *o,
                       const char *id, const char *const *kinds, const char *tx_hash,
                       struct zbc_wfail *f)
{
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        if (!zbc_app_fetch(app, o, id, f))
            return 0;
        *entry = find_entry(*app, kinds, tx_hash);
        if (*entry != NULL)
            return 1;
        json_decref(*app);
        *app = NULL;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - t0.tv_sec >= o->wait_s)
            return zbc_wfail(f, ZBC_EXIT_TIMEOUT, "app %s has no %s%s%s within %d s", id, kinds[0],
                             tx_hash != NULL ? " of transaction " : "",
                             tx_hash != NULL ? tx_hash : "", o->wait_s);
        struct timespec ts = {0, 300 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

int zbc_app_block_seed(uint8_t seed[32], const struct zbc_opts *o, uint32_t height,
                       struct zbc_wfail *f)
{
    char path[64];
    snprintf(path, sizeof path, "/api/v1/blocks/%u", height);
    struct zbc_client api = {o->api, o->timeout_s, ZBC_HTTP_BLOCK_REPLY_MAX};
    json_t *b;
    if (!zbc_client_call(&api, path, NULL, &b, f))
        return 0;
    char what[64];
    struct zbc_err err;
    snprintf(what, sizeof what, "the node's block %u", height);
    if (!zbc_reply_hex(b, "seed", 32, what, seed, &err))
        return zbc_client_bad_reply(f, b, &err);
    json_decref(b);
    return 1;
}

int zbc_app_caller(struct zbc_addr *a, char text[ZBC_ADDR_TEXT_MAX], const struct zbc_opts *o,
                   struct zbc_wfail *f)
{
    uint8_t pk[32];
    char name[ZBC_KEY_NAME_MAX + 1];
    if (o->from == NULL && o->env_key != NULL) {
        uint8_t seed[32], sk[64];
        if (strlen(o->env_key) != 64 || !zbc_hex_decode_exact(seed, 32, o->env_key))
            return zbc_wfail(f, ZBC_EXIT_USAGE, "ZBC_KEY must be a 32-byte seed as 64 hex characters");
        zbc_ed25519_keypair(pk, sk, seed);
        memset(sk, 0, sizeof sk);
        memset(seed, 0, sizeof seed);
    } else if (!zbc_keystore_pubkey(o, o->from, pk, name, f)) {
        return 0;
    }
    zbc_addr_from_ed25519(a, pk);
    zbc_addr_to_text(text, a);
    return 1;
}

int zbc_app_seat_in(const json_t *app, const char *addr_text)
{
    json_t *players = json_object_get(app, "players");
    size_t i;
    json_t *p;
    json_array_foreach(players, i, p) {
        const char *a = json_string_value(json_object_get(p, "address"));
        if (a != NULL && strcmp(a, addr_text) == 0)
            return (int)json_integer_value(json_object_get(p, "seat"));
    }
    return -1;
}

int zbc_app_state(const struct zbc_engine **e, struct zbc_game_state *st, const json_t *app,
                  struct zbc_wfail *f)
{
    int type = (int)json_integer_value(json_object_get(app, "type"));
    *e = type > 0 && type < 256 ? zbc_engine_by_type((uint8_t)type) : NULL;
    if (*e == NULL)
        return zbc_wfail(f, ZBC_EXIT_REJECTED, "app type %d is not a game with moves", type);
    const char *hex = json_string_value(json_object_get(app, "state_hex"));
    size_t hl = hex != NULL ? strlen(hex) : 0;
    if (hl == 0)
        return zbc_wfail(f, ZBC_EXIT_REJECTED,
                         "the game has not started yet (waiting for players or the first-turn draw)");
    uint8_t *bytes = malloc(hl / 2 + 1);
    size_t n = 0;
    struct zbc_err err;
    int ok = bytes != NULL && zbc_hex_decode(bytes, hl / 2 + 1, &n, hex, hl) &&
             (*e)->decode(st, bytes, n, &err);
    free(bytes);
    if (!ok)
        return zbc_wfail(f, ZBC_EXIT_INTERNAL, "the node's state_hex of this app does not decode");
    return 1;
}

uint64_t zbc_app_id_of_hash(const uint8_t hash[32])
{
    return zbc_get_le64(hash);
}

int zbc_app_send(json_t **result, const struct zbc_opts *o, const char *cmd, int argc,
                 const char *const *argv, const char *params_hex, struct zbc_wfail *f)
{
    const char *args[8];
    if (argc > 6)
        return zbc_wfail(f, ZBC_EXIT_INTERNAL, "too many transaction arguments");
    args[0] = cmd;
    for (int i = 0; i < argc; i++)
        args[i + 1] = argv[i];
    struct zbc_opts o2 = *o;
    o2.params_hex = params_hex;
    if (!zbc_cmd_transact(&o2, argc + 1, args, result, f))
        return 0;
    const char *h = json_string_value(json_object_get(*result, "transaction_hash"));
    uint8_t hash[32];
    if (strcmp(cmd, "create") == 0 && h != NULL && zbc_hex_decode_exact(hash, 32, h)) {
        char id[24];
        snprintf(id, sizeof id, "%" PRIu64, zbc_app_id_of_hash(hash));
        json_object_set_new(*result, "app_id", json_string(id));
    }
    return 1;
}

/* ---- secret files ---- */

static int secret_path(char *out, size_t cap, const struct zbc_opts *o, uint64_t id,
                       const char *owner, int make_dir, struct zbc_wfail *f)
{
    char dir[ZBC_WALLET_PATH_MAX];
    if (!zbc_keystore_dir(dir, o, f))
        return 0;
    if (make_dir && mkdir(dir, 0700) != 0 && errno != EEXIST)
        return zbc_wfail(f, ZBC_EXIT_INTERNAL, "cannot create the wallet directory %s: %s", dir,
                         strerror(errno));
    int n = snprintf(out, cap, "%s/apps", dir);
    if (n < 0 || (size_t)n >= cap)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "the wallet directory path is too long");
    if (make_dir && mkdir(out, 0700) != 0 && errno != EEXIST)
        return zbc_wfail(f, ZBC_EXIT_INTERNAL, "cannot create %s: %s", out, strerror(errno));
    n = snprintf(out, cap, "%s/apps/%" PRIu64 "-%s.json", dir, id, owner);
    if (n < 0 || (size_t)n >= cap)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "the wallet directory path is too long");
    return 1;
}

int zbc_app_secret_save(const struct zbc_opts *o, uint64_t app_id, const char *owner,
                        json_t *secret, struct zbc_wfail *f)
{
    char path[ZBC_WALLET_PATH_MAX + 64], tmp[ZBC_WALLET_PATH_MAX + 80];
    if (!secret_path(path, sizeof path, o, app_id, owner, 1, f))
        return 0;
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    char *text = json_dumps(secret, JSON_COMPACT | JSON_SORT_KEYS);
    if (text == NULL)
        return zbc_wfail(f, ZBC_EXIT_INTERNAL, "out of memory writing %s", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    size_t len = strlen(text);
    int ok = fd >= 0 && write(fd, text, len) == (ssize_t)len && fsync(fd) == 0;
    if (fd >= 0 && close(fd) != 0)
        ok = 0;
    free(text);
    if (!ok || rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        return zbc_wfail(f, ZBC_EXIT_INTERNAL, "cannot write the app secret file %s: %s", path,
                         strerror(e));
    }
    return 1;
}

int zbc_app_secret_load(const struct zbc_opts *o, uint64_t app_id, const char *owner,
                        json_t **secret, bool *found, struct zbc_wfail *f)
{
    char path[ZBC_WALLET_PATH_MAX + 64];
    *secret = NULL;
    *found = false;
    if (!secret_path(path, sizeof path, o, app_id, owner, 0, f))
        return 0;
    if (access(path, F_OK) != 0)
        return 1;
    *found = true;
    json_error_t jerr;
    *secret = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
    if (!json_is_object(*secret)) {
        json_decref(*secret);
        *secret = NULL;
        return zbc_wfail(f, ZBC_EXIT_INTERNAL, "app secret file %s is not a JSON object: %s", path,
                         jerr.text);
    }
    return 1;
}
