#include "consensus/genesis.h"

#include <jansson.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/bytes.h"
#include "crypto/hash.h"
#include "crypto/hex.h"

#define GENESIS_MAGIC "ZBC-GENESIS"
#define GENESIS_MAGIC_LEN 11

/* ---- shared checks ---- */

struct range {
    const char *name;
    uint64_t lo, hi;
};

static const struct range r_block_time = {"block_time_ms", 1, 3600000};
static const struct range r_smith_delay = {"smith_delay_ms", 1, 3600000};
static const struct range r_move_deadline = {"move_deadline", 3, 1000000};
static const struct range r_rake = {"rake_bps", 0, 10000};
static const struct range r_open_deadline = {"open_deadline", 1, 1000000};
static const struct range r_block_bytes = {"max_block_bytes", 1024,
                                           ZBC_BLOCK_TX_BYTES_LIMIT};

static int in_range(const struct range *r, uint64_t v, struct zbc_err *err)
{
    if (v < r->lo || v > r->hi)
        return zbc_fail(err, "genesis %s %llu is out of range %llu..%llu",
                        r->name, (unsigned long long)v,
                        (unsigned long long)r->lo, (unsigned long long)r->hi);
    return 1;
}

static int check_name(const char *name, size_t len, struct zbc_err *err)
{
    if (len == 0 || len > ZBC_CHAIN_NAME_MAX)
        return zbc_fail(err, "genesis chain_name must have 1..%d characters",
                        ZBC_CHAIN_NAME_MAX);
    for (size_t i = 0; i < len; i++)
        if (name[i] < 0x20 || name[i] > 0x7e)
            return zbc_fail(err, "genesis chain_name must be printable ASCII");
    return 1;
}

static int addr_cmp(const struct zbc_addr *a, const struct zbc_addr *b)
{
    uint8_t x[ZBC_ADDR_BYTES_MAX], y[ZBC_ADDR_BYTES_MAX];
    size_t xl = zbc_addr_write(x, a), yl = zbc_addr_write(y, b);
    int c = memcmp(x, y, xl < yl ? xl : yl);
    if (c != 0)
        return c;
    return (xl > yl) - (xl < yl);
}

static int cmp_key(const void *a, const void *b)
{
    return memcmp(a, b, 32);
}

static int cmp_balance(const void *a, const void *b)
{
    return addr_cmp(&((const struct zbc_genesis_balance *)a)->addr,
                    &((const struct zbc_genesis_balance *)b)->addr);
}

static int check_account(const struct zbc_addr *a, const char *what,
                         struct zbc_err *err)
{
    if (!zbc_addr_type_supported(a->type))
        return zbc_fail(err, "genesis %s has account type %u, which cannot "
                             "hold a balance here", what, a->type);
    return 1;
}

/* Sorts validators and balances, refuses repeats, sums the supply and
 * computes the hash.  `sorted_input`: the lists must already be strictly
 * ascending (canonical bytes). */
static int finish(struct zbc_genesis *g, bool sorted_input, struct zbc_err *err)
{
    char text[ZBC_ADDR_TEXT_MAX];
    if (g->n_validators == 0)
        return zbc_fail(err, "genesis needs at least one validator");
    for (uint32_t i = 0; i < g->n_validators; i++)
        if (crypto_core_ed25519_is_valid_point(g->validators[i]) != 1)
            return zbc_fail(err, "genesis validator %u is not a valid Ed25519 "
                                 "public key", i);
    if (!sorted_input)
        qsort(g->validators, g->n_validators, 32, cmp_key);
    for (uint32_t i = 1; i < g->n_validators; i++) {
        int c = memcmp(g->validators[i - 1], g->validators[i], 32);
        if (c == 0) {
            zbc_addr_zbc_text(text, g->validators[i], "ZNK");
            return zbc_fail(err, "genesis validator %s is listed twice", text);
        }
        if (c > 0)
            return zbc_fail(err, "genesis validators are not in ascending order");
    }
    if (!sorted_input && g->n_balances > 1)
        qsort(g->balances, g->n_balances, sizeof g->balances[0], cmp_balance);
    uint64_t supply = g->fund_balance;
    for (uint32_t i = 0; i < g->n_balances; i++) {
        const struct zbc_genesis_balance *b = &g->balances[i];
        if (!check_account(&b->addr, "balance address", err))
            return 0;
        if (i > 0) {
            int c = addr_cmp(&g->balances[i - 1].addr, &b->addr);
            if (c == 0) {
                zbc_addr_to_text(text, &b->addr);
                return zbc_fail(err, "genesis balance for %s is listed twice",
                                text);
            }
            if (c > 0)
                return zbc_fail(err,
                                "genesis balances are not in ascending order");
        }
        if (zbc_addr_equal(&b->addr, &g->fund_account)) {
            zbc_addr_to_text(text, &b->addr);
            return zbc_fail(err, "genesis balance for %s repeats the fund "
                                 "account (use fund_balance)", text);
        }
        if (supply > UINT64_MAX - b->amount)
            return zbc_fail(err, "genesis total supply overflows u64");
        supply += b->amount;
    }
    if (!check_account(&g->fund_account, "fund_account", err))
        return 0;
    g->total_supply = supply;
    uint8_t *bytes;
    size_t len;
    if (!zbc_genesis_encode(g, &bytes, &len, err))
        return 0;
    zbc_sha3_256(g->hash, bytes, len);
    free(bytes);
    return 1;
}

void zbc_genesis_free(struct zbc_genesis *g)
{
    free(g->balances);
    memset(g, 0, sizeof *g);
}

bool zbc_genesis_is_validator(const struct zbc_genesis *g, const uint8_t pk[32])
{
    for (uint32_t i = 0; i < g->n_validators; i++)
        if (memcmp(g->validators[i], pk, 32) == 0)
            return true;
    return false;
}

/* ---- JSON ---- */

static int json_u64(uint64_t *out, const json_t *v, const char *name,
                    bool allow_string, struct zbc_err *err)
{
    if (json_is_integer(v)) {
        json_int_t i = json_integer_value(v);
        if (i < 0)
            return zbc_fail(err, "genesis %s must not be negative", name);
        *out = (uint64_t)i;
        return 1;
    }
    if (allow_string && json_is_string(v)) {
        const char *s = json_string_value(v);
        size_t n = json_string_length(v);
        /* 1..20 digits, leading zeros allowed (docs/protocol-chain.md
         * §1.1): skipped before the strict parser, which refuses them */
        if (n == 0 || n > 20 || strspn(s, "0123456789") != n)
            return zbc_fail(err, "genesis %s must be a decimal amount", name);
        size_t z = 0;
        while (z + 1 < n && s[z] == '0')
            z++;
        struct zbc_err perr;
        if (!zbc_parse_u64n(s + z, n - z, 0, UINT64_MAX, out, name, &perr))
            return zbc_fail(err, "genesis %s overflows u64", name);
        return 1;
    }
    return zbc_fail(err, "genesis %s must be %s", name,
                    allow_string ? "an integer or a decimal string"
                                 : "an integer");
}

static int json_u32_in(uint32_t *out, const json_t *v, const struct range *r,
                       struct zbc_err *err)
{
    uint64_t x = 0; /* set by json_u64 on success; gcc -O3 cannot see it */
    if (!json_u64(&x, v, r->name, false, err) || !in_range(r, x, err))
        return 0;
    *out = (uint32_t)x;
    return 1;
}

static int json_addr(struct zbc_addr *a, const json_t *v, const char *what,
                     struct zbc_err *err)
{
    if (!json_is_string(v))
        return zbc_fail(err, "genesis %s must be an address string", what);
    if (strlen(json_string_value(v)) != json_string_length(v))
        return zbc_fail(err, "genesis %s contains a NUL character", what);
    if (!zbc_addr_parse_text(a, json_string_value(v), err))
        return zbc_fail_prefix(err, "genesis %s", what);
    return 1;
}

static int json_node_key(uint8_t pk[32], const json_t *v, uint32_t i,
                         struct zbc_err *err)
{
    if (!json_is_string(v))
        return zbc_fail(err, "genesis validator %u must be a string", i);
    const char *s = json_string_value(v);
    size_t n = json_string_length(v);
    if (strlen(s) != n)
        return zbc_fail(err, "genesis validator %u contains a NUL character", i);
    if (n == 64 && strspn(s, "0123456789abcdefABCDEF") == 64) {
        if (!zbc_hex_decode_exact(pk, 32, s))
            return zbc_fail(err, "genesis validator %u is not 64 hex digits", i);
    } else if (n == 64 || strspn(s, "0123456789abcdefABCDEF") == n) {
        return zbc_fail(err, "genesis validator %u is not 64 hex digits", i);
    } else {
        char prefix[4] = {0};
        if (!zbc_addr_zbc_parse(pk, prefix, s, err))
            return zbc_fail_prefix(err, "genesis validator %u", i);
        if (strcmp(prefix, "ZNK") != 0)
            return zbc_fail(err, "genesis validator %u must be a ZNK_ node key "
                                 "or 64 hex digits, not a %s_ address", i,
                            prefix);
    }
    /* A key off the curve or of small order could never prove a seed
     * (RFC 9381 validate_key) and would stall its slots. */
    if (crypto_core_ed25519_is_valid_point(pk) != 1)
        return zbc_fail(err, "genesis validator %u is not a valid Ed25519 "
                             "public key", i);
    return 1;
}

static int json_validators(struct zbc_genesis *g, const json_t *v,
                           struct zbc_err *err)
{
    if (!json_is_array(v))
        return zbc_fail(err, "genesis validators must be an array");
    size_t n = json_array_size(v);
    if (n == 0 || n > ZBC_VALIDATORS_MAX)
        return zbc_fail(err, "genesis needs 1..%d validators, not %zu",
                        ZBC_VALIDATORS_MAX, n);
    for (size_t i = 0; i < n; i++)
        if (!json_node_key(g->validators[i], json_array_get(v, i), (uint32_t)i,
                           err))
            return 0;
    g->n_validators = (uint32_t)n;
    return 1;
}

static int json_balances(struct zbc_genesis *g, const json_t *v,
                         struct zbc_err *err)
{
    if (!json_is_array(v))
        return zbc_fail(err, "genesis balances must be an array");
    size_t n = json_array_size(v);
    if (n > ZBC_GENESIS_BALANCES_MAX)
        return zbc_fail(err, "genesis has %zu balances, more than %d", n,
                        ZBC_GENESIS_BALANCES_MAX);
    g->balances = calloc(n > 0 ? n : 1, sizeof *g->balances);
    if (g->balances == NULL)
        return zbc_fail(err, "out of memory reading genesis balances");
    for (size_t i = 0; i < n; i++) {
        const json_t *e = json_array_get(v, i);
        if (!json_is_object(e))
            return zbc_fail(err, "genesis balance %zu must be an object", i);
        const char *k;
        const json_t *x;
        bool have_addr = false, have_amount = false;
        json_object_foreach((json_t *)e, k, x) {
            if (strcmp(k, "address") == 0) {
                if (!json_addr(&g->balances[i].addr, x, "balance address", err))
                    return zbc_fail_prefix(err, "balance %zu", i);
                have_addr = true;
            } else if (strcmp(k, "amount") == 0) {
                if (!json_u64(&g->balances[i].amount, x, "balance amount", true,
                              err))
                    return zbc_fail_prefix(err, "balance %zu", i);
                have_amount = true;
            } else {
                return zbc_fail(err, "genesis balance %zu has unknown key "
                                     "\"%s\"", i, k);
            }
        }
        if (!have_addr || !have_amount)
            return zbc_fail(err, "genesis balance %zu needs address and amount",
                            i);
    }
    g->n_balances = (uint32_t)n;
    return 1;
}

enum gkey {
    K_NAME, K_TIME, K_BLOCK_TIME, K_SMITH, K_VALIDATORS, K_FUND, K_FUND_BAL,
    K_BALANCES, K_FEE_BASE, K_FEE_BYTE, K_DEADLINE, K_RAKE, K_BLOCK_BYTES,
    K_OPEN_DEADLINE, K_COUNT
};

static const char *const gkey_names[K_COUNT] = {
    "chain_name", "genesis_time", "block_time_ms", "smith_delay_ms",
    "validators", "fund_account", "fund_balance", "balances", "min_fee_base",
    "min_fee_per_byte", "move_deadline", "rake_bps", "max_block_bytes",
    "open_deadline",
};

static int json_field(struct zbc_genesis *g, enum gkey k, const json_t *v,
                      struct zbc_err *err)
{
    switch (k) {
    case K_NAME:
        if (!json_is_string(v))
            return zbc_fail(err, "genesis chain_name must be a string");
        if (!check_name(json_string_value(v), json_string_length(v), err))
            return 0;
        memcpy(g->chain_name, json_string_value(v), json_string_length(v));
        g->chain_name[json_string_length(v)] = '\0';
        return 1;
    case K_TIME:
        return json_u64(&g->genesis_time_ms, v, "genesis_time", false, err);
    case K_BLOCK_TIME:
        return json_u32_in(&g->block_time_ms, v, &r_block_time, err);
    case K_SMITH:
        return json_u32_in(&g->smith_delay_ms, v, &r_smith_delay, err);
    case K_VALIDATORS:
        return json_validators(g, v, err);
    case K_FUND:
        return json_addr(&g->fund_account, v, "fund_account", err);
    case K_FUND_BAL:
        return json_u64(&g->fund_balance, v, "fund_balance", true, err);
    case K_BALANCES:
        return json_balances(g, v, err);
    case K_FEE_BASE:
        return json_u64(&g->min_fee_base, v, "min_fee_base", true, err);
    case K_FEE_BYTE:
        return json_u64(&g->min_fee_per_byte, v, "min_fee_per_byte", true, err);
    case K_DEADLINE:
        return json_u32_in(&g->move_deadline, v, &r_move_deadline, err);
    case K_RAKE:
        return json_u32_in(&g->rake_bps, v, &r_rake, err);
    case K_BLOCK_BYTES:
        return json_u32_in(&g->max_block_bytes, v, &r_block_bytes, err);
    case K_OPEN_DEADLINE:
        return json_u32_in(&g->open_deadline, v, &r_open_deadline, err);
    case K_COUNT:
        break;
    }
    return zbc_fail(err, "genesis key %d is not handled", (int)k);
}

static int parse_object(struct zbc_genesis *g, const json_t *root,
                        struct zbc_err *err)
{
    if (!json_is_object(root))
        return zbc_fail(err, "genesis must be a JSON object");
    g->block_time_ms = 15000;
    g->smith_delay_ms = 10000;
    g->move_deadline = 240;
    g->rake_bps = 100;
    g->max_block_bytes = ZBC_BLOCK_TX_BYTES_LIMIT;
    g->open_deadline = ZBC_OPEN_DEADLINE_DEFAULT;
    bool seen[K_COUNT] = {false};
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)root, key, v) {
        int k;
        for (k = 0; k < K_COUNT; k++)
            if (strcmp(key, gkey_names[k]) == 0)
                break;
        if (k == K_COUNT)
            return zbc_fail(err, "genesis has unknown key \"%.60s\"", key);
        if (!json_field(g, (enum gkey)k, v, err))
            return 0;
        seen[k] = true;
    }
    static const enum gkey required[] = {K_NAME, K_TIME, K_VALIDATORS, K_FUND,
                                         K_FUND_BAL};
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!seen[required[i]])
            return zbc_fail(err, "genesis is missing required key \"%s\"",
                            gkey_names[required[i]]);
    return finish(g, false, err);
}

int zbc_genesis_parse_json(struct zbc_genesis *g, const char *json, size_t len,
                           struct zbc_err *err)
{
    memset(g, 0, sizeof *g);
    json_error_t jerr;
    json_t *root = json_loadb(json, len, JSON_REJECT_DUPLICATES, &jerr);
    if (root == NULL)
        return zbc_fail(err, "genesis is not valid JSON (line %d: %.120s)",
                        jerr.line, jerr.text);
    int ok = parse_object(g, root, err);
    json_decref(root);
    if (!ok)
        zbc_genesis_free(g);
    return ok;
}

/* ---- canonical bytes ---- */

static void w_addr(struct zbc_wr *w, const struct zbc_addr *a)
{
    uint8_t b[ZBC_ADDR_BYTES_MAX];
    zbc_wr_bytes(w, b, zbc_addr_write(b, a));
}

static void write_canonical(struct zbc_wr *w, const struct zbc_genesis *g)
{
    size_t nl = strlen(g->chain_name);
    zbc_wr_bytes(w, GENESIS_MAGIC, GENESIS_MAGIC_LEN);
    zbc_wr_u8(w, (uint8_t)ZBC_GENESIS_VERSION);
    zbc_wr_u8(w, (uint8_t)nl);
    zbc_wr_bytes(w, g->chain_name, nl);
    zbc_wr_le64(w, g->genesis_time_ms);
    zbc_wr_le32(w, g->block_time_ms);
    zbc_wr_le32(w, g->smith_delay_ms);
    zbc_wr_le64(w, g->min_fee_base);
    zbc_wr_le64(w, g->min_fee_per_byte);
    zbc_wr_le32(w, g->move_deadline);
    zbc_wr_le32(w, g->rake_bps);
    zbc_wr_le32(w, g->max_block_bytes);
    zbc_wr_le32(w, g->open_deadline);
    zbc_wr_le32(w, g->n_validators);
    for (uint32_t i = 0; i < g->n_validators; i++)
        zbc_wr_bytes(w, g->validators[i], 32);
    w_addr(w, &g->fund_account);
    zbc_wr_le64(w, g->fund_balance);
    zbc_wr_le32(w, g->n_balances);
    for (uint32_t i = 0; i < g->n_balances; i++) {
        w_addr(w, &g->balances[i].addr);
        zbc_wr_le64(w, g->balances[i].amount);
    }
    zbc_wr_le64(w, g->total_supply);
}

int zbc_genesis_encode(const struct zbc_genesis *g, uint8_t **out, size_t *len,
                       struct zbc_err *err)
{
    struct zbc_wr w;
    zbc_wr_init(&w, NULL, 0);
    write_canonical(&w, g);
    size_t n = w.len;
    uint8_t *buf = malloc(n > 0 ? n : 1);
    if (buf == NULL)
        return zbc_fail(err, "out of memory encoding the genesis");
    zbc_wr_init(&w, buf, n);
    write_canonical(&w, g); /* the same n bytes: write_canonical is pure */
    *out = buf;
    *len = n;
    return 1;
}

static int r_addr(struct zbc_rd *r, struct zbc_addr *a, const char *what,
                  struct zbc_err *err)
{
    size_t used;
    if (!zbc_rd_ok(r))
        return zbc_fail(err, "genesis bytes are truncated before %s", what);
    if (!zbc_addr_read(a, r->p, r->left, &used, err))
        return zbc_fail_prefix(err, "genesis bytes %s", what);
    (void)zbc_rd_take(r, used, what);
    return 1;
}

static int decode_fields(struct zbc_genesis *g, struct zbc_rd *r,
                         struct zbc_err *err)
{
    const uint8_t *magic = zbc_rd_take(r, GENESIS_MAGIC_LEN, "magic");
    if (magic == NULL || memcmp(magic, GENESIS_MAGIC, GENESIS_MAGIC_LEN) != 0)
        return zbc_fail(err, "genesis bytes do not start with \"%s\"",
                        GENESIS_MAGIC);
    uint64_t version = zbc_rd_u8(r, "version");
    if (zbc_rd_ok(r) && version != ZBC_GENESIS_VERSION)
        return zbc_fail(err, "genesis bytes version %llu is not %d",
                        (unsigned long long)version, ZBC_GENESIS_VERSION);
    size_t nl = zbc_rd_u8(r, "chain name length");
    const uint8_t *name = zbc_rd_take(r, nl, "chain name");
    if (name == NULL)
        return zbc_fail(err, "genesis bytes are truncated (chain name)");
    if (!check_name((const char *)name, nl, err))
        return 0;
    memcpy(g->chain_name, name, nl);
    g->chain_name[nl] = '\0';
    g->genesis_time_ms = zbc_rd_le64(r, "genesis time");
    g->block_time_ms = zbc_rd_le32(r, "block time");
    g->smith_delay_ms = zbc_rd_le32(r, "smith delay");
    g->min_fee_base = zbc_rd_le64(r, "min fee base");
    g->min_fee_per_byte = zbc_rd_le64(r, "min fee per byte");
    g->move_deadline = zbc_rd_le32(r, "move deadline");
    g->rake_bps = zbc_rd_le32(r, "rake");
    g->max_block_bytes = zbc_rd_le32(r, "max block bytes");
    g->open_deadline = zbc_rd_le32(r, "open deadline");
    uint64_t nv = zbc_rd_le32(r, "validator count");
    if (!zbc_rd_ok(r))
        return zbc_fail(err, "genesis bytes are truncated (parameters)");
    if (!in_range(&r_block_time, g->block_time_ms, err) ||
        !in_range(&r_smith_delay, g->smith_delay_ms, err) ||
        !in_range(&r_move_deadline, g->move_deadline, err) ||
        !in_range(&r_rake, g->rake_bps, err) ||
        !in_range(&r_block_bytes, g->max_block_bytes, err) ||
        !in_range(&r_open_deadline, g->open_deadline, err))
        return 0;
    if (nv == 0 || nv > ZBC_VALIDATORS_MAX)
        return zbc_fail(err, "genesis bytes list %llu validators, not 1..%d",
                        (unsigned long long)nv, ZBC_VALIDATORS_MAX);
    for (uint64_t i = 0; i < nv; i++) {
        const uint8_t *k = zbc_rd_take(r, 32, "validator");
        if (k == NULL)
            return zbc_fail(err, "genesis bytes are truncated (validators)");
        memcpy(g->validators[i], k, 32);
    }
    g->n_validators = (uint32_t)nv;
    if (!r_addr(r, &g->fund_account, "fund account", err))
        return 0;
    g->fund_balance = zbc_rd_le64(r, "fund balance");
    uint64_t nb = zbc_rd_le32(r, "balance count");
    if (!zbc_rd_ok(r))
        return zbc_fail(err, "genesis bytes are truncated (fund)");
    if (nb > ZBC_GENESIS_BALANCES_MAX || nb > r->left / 12)
        return zbc_fail(err, "genesis bytes list %llu balances in %zu bytes",
                        (unsigned long long)nb, r->left);
    g->balances = calloc(nb > 0 ? nb : 1, sizeof *g->balances);
    if (g->balances == NULL)
        return zbc_fail(err, "out of memory decoding genesis balances");
    for (uint64_t i = 0; i < nb; i++) {
        if (!r_addr(r, &g->balances[i].addr, "balance address", err))
            return 0;
        g->balances[i].amount = zbc_rd_le64(r, "balance amount");
        if (!zbc_rd_ok(r))
            return zbc_fail(err, "genesis bytes are truncated (balances)");
    }
    g->n_balances = (uint32_t)nb;
    uint64_t supply = zbc_rd_le64(r, "supply");
    if (!zbc_rd_ok(r))
        return zbc_fail(err, "genesis bytes are truncated (supply)");
    if (r->left != 0)
        return zbc_fail(err, "genesis bytes have %zu trailing bytes", r->left);
    if (!finish(g, true, err))
        return 0;
    if (supply != g->total_supply)
        return zbc_fail(err, "genesis bytes record supply %llu but the "
                             "balances sum to %llu",
                        (unsigned long long)supply,
                        (unsigned long long)g->total_supply);
    return 1;
}

int zbc_genesis_decode(struct zbc_genesis *g, const uint8_t *buf, size_t len,
                       struct zbc_err *err)
{
    memset(g, 0, sizeof *g);
    struct zbc_rd r;
    zbc_rd_init(&r, buf, len);
    if (!decode_fields(g, &r, err)) {
        zbc_genesis_free(g);
        return 0;
    }
    return 1;
}
