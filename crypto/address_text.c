/* Text forms of account addresses (address.h; docs/crypto.md). */
#include "crypto/address.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "crypto/base32.h"
#include "crypto/base58.h"
#include "crypto/hash.h"
#include "crypto/hex.h"
#include "crypto/keccak.h"

#define ZBC_BODY_CHARS 56 /* base32 of 35 bytes */
#define ZBC_SIGNIFICANT (3 + ZBC_BODY_CHARS)
#define TEXT_INPUT_MAX 256 /* longer input is refused before any decoding */

static const char *const type_names[] = {
    "ZooBC", "Bitcoin legacy", "empty", "Estonia eID", "Ethereum",
    "Bitcoin P2PKH", "Bitcoin P2SH", "Bitcoin P2WPKH", "Bitcoin P2WSH",
    "Bitcoin Taproot", "DataSet object", "Solana", "Polkadot", "Cardano",
    "Ripple", "Tron", "Tezos",
};

static const char *type_name(uint32_t type)
{
    return type < sizeof type_names / sizeof type_names[0] ? type_names[type]
                                                           : "unknown";
}

static int unsupported(struct zbc_err *err, uint32_t type, const char *form)
{
    return zbc_fail(err, "%s addresses (account type %u, %s) are not supported on this chain",
                    form, type, type_name(type));
}

/* ---- ZBC_ / ZNK_ ---- */

static void zbc_checksum(uint8_t out[3], const uint8_t pk[32], const char prefix[3])
{
    uint8_t buf[35];
    memcpy(buf, pk, 32);
    memcpy(buf + 32, prefix, 3);
    uint8_t h[32];
    zbc_sha3_256(h, buf, sizeof buf);
    memcpy(out, h, 3);
}

void zbc_addr_zbc_text(char *out, const uint8_t pk[32], const char *prefix)
{
    uint8_t raw[35];
    memcpy(raw, pk, 32);
    zbc_checksum(raw + 32, pk, prefix);
    char body[ZBC_BASE32_LEN(35) + 1];
    (void)zbc_base32_encode(body, raw, sizeof raw);
    size_t n = 0;
    memcpy(out, prefix, 3);
    n = 3;
    for (int g = 0; g < 7; g++) {
        out[n++] = '_';
        memcpy(out + n, body + g * 8, 8);
        n += 8;
    }
    out[n] = '\0';
}

static int is_separator(char c)
{
    return c == '_' || c == '-' || isspace((unsigned char)c);
}

/* Copies the significant characters of text, upper-cased, into sig (at
 * most cap); returns how many there are in all. */
static size_t significant_chars(char *sig, size_t cap, const char *text)
{
    size_t n = 0;
    for (const char *p = text; *p != '\0'; p++) {
        if (is_separator(*p))
            continue;
        if (n < cap)
            sig[n] = (char)toupper((unsigned char)*p);
        n++;
    }
    return n;
}

int zbc_addr_zbc_parse(uint8_t pk[32], char *prefix_out, const char *text,
                       struct zbc_err *err)
{
    char sig[ZBC_SIGNIFICANT];
    size_t n = significant_chars(sig, sizeof sig, text);
    if (n < 3)
        return zbc_fail(err, "ZBC address too short: no 3-letter prefix");
    for (int i = 0; i < 3; i++)
        if (sig[i] < 'A' || sig[i] > 'Z')
            return zbc_fail(err, "ZBC address prefix must be 3 letters");
    if (n != ZBC_SIGNIFICANT)
        return zbc_fail(err, "%.3s address body must be %d base32 characters, got %zu",
                        sig, ZBC_BODY_CHARS, n - 3);
    uint8_t raw[35];
    size_t rawlen;
    if (!zbc_base32_decode(raw, sizeof raw, &rawlen, sig + 3, ZBC_BODY_CHARS, err))
        return zbc_fail_prefix(err, "%.3s address", sig);
    uint8_t sum[3];
    zbc_checksum(sum, raw, sig);
    if (memcmp(sum, raw + 32, 3) != 0)
        return zbc_fail(err, "bad checksum in %.3s address", sig);
    memcpy(pk, raw, 32);
    if (prefix_out != NULL) {
        memcpy(prefix_out, sig, 3);
        prefix_out[3] = '\0';
    }
    return 1;
}

/* ---- Ethereum (EIP-55) ---- */

/* Mixed-case checksum: a letter is upper case when the matching nibble of
 * keccak256(lower-case hex) is 8 or more.  out needs 41 bytes. */
static void eip55(char out[41], const uint8_t addr[20])
{
    zbc_hex_encode(out, addr, 20);
    uint8_t h[32];
    zbc_keccak256(h, out, 40);
    for (int i = 0; i < 40; i++) {
        unsigned nib = (i % 2 == 0) ? h[i / 2] >> 4 : h[i / 2] & 15;
        if (out[i] >= 'a' && out[i] <= 'f' && nib >= 8)
            out[i] = (char)(out[i] - 'a' + 'A');
    }
}

static int all_hex(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!isxdigit((unsigned char)s[i]))
            return 0;
    return 1;
}

static int parse_eth(struct zbc_addr *a, const char *hex, size_t len,
                     struct zbc_err *err)
{
    if (len != 40 || !all_hex(hex, len))
        return zbc_fail(err, "Ethereum address must be 0x followed by 40 hex digits");
    uint8_t addr[20];
    if (!zbc_hex_decode_exact(addr, 20, hex))
        return zbc_fail(err, "Ethereum address must be 0x followed by 40 hex digits");
    int upper = 0, lower = 0;
    for (size_t i = 0; i < len; i++) {
        upper |= hex[i] >= 'A' && hex[i] <= 'F';
        lower |= hex[i] >= 'a' && hex[i] <= 'f';
    }
    if (upper && lower) {
        char want[41];
        eip55(want, addr);
        if (memcmp(want, hex, 40) != 0)
            return zbc_fail(err, "bad EIP-55 checksum (letter case) in Ethereum address");
    }
    memset(a, 0, sizeof *a);
    a->type = ZBC_ACCT_ETH;
    a->len = 20;
    memcpy(a->payload, addr, 20);
    return 1;
}

/* ---- hex forms ---- */

static int parse_typed_hex(struct zbc_addr *a, const char *hex, size_t len,
                           struct zbc_err *err)
{
    uint8_t buf[ZBC_ADDR_BYTES_MAX];
    size_t n, used;
    struct zbc_addr tmp;
    if (!zbc_hex_decode(buf, sizeof buf, &n, hex, len))
        return zbc_fail(err, "bad typed address hex");
    if (!zbc_addr_read(&tmp, buf, n, &used, err))
        return 0;
    if (used != n)
        return zbc_fail(err, "typed address hex has %zu bytes, account type %u takes %zu",
                        n, tmp.type, used);
    if (!zbc_addr_type_supported(tmp.type))
        return unsupported(err, tmp.type, "typed");
    *a = tmp;
    return 1;
}

/* ---- base58 forms ---- */

static int has_prefix_ci(const char *s, size_t len, const char *p)
{
    size_t pl = strlen(p);
    return len >= pl && strncasecmp(s, p, pl) == 0;
}

static int parse_base58(struct zbc_addr *a, const char *s, size_t len,
                        struct zbc_err *err)
{
    uint8_t buf[ZBC_BASE58_TEXT_MAX];
    size_t n;
    struct zbc_err ignored;
    if (!zbc_base58_decode(buf, sizeof buf, &n, s, len, &ignored))
        return zbc_fail(err, "not a ZBC, Bitcoin or Ethereum address");
    if (n == 25) {
        uint8_t h[32];
        zbc_sha256d(h, buf, 21);
        int sum_ok = memcmp(h, buf + 21, 4) == 0;
        if (sum_ok && buf[0] == 0x00) {
            memset(a, 0, sizeof *a);
            a->type = ZBC_ACCT_BTC_P2PKH;
            a->len = 20;
            memcpy(a->payload, buf + 1, 20);
            return 1;
        }
        if (sum_ok && buf[0] == 0x05)
            return unsupported(err, 6, "Bitcoin P2SH");
        if (sum_ok && buf[0] == 0x41)
            return unsupported(err, 15, "Tron");
        if (s[0] == 'r')
            return unsupported(err, 14, "Ripple");
        if (!sum_ok && (s[0] == '1' || s[0] == '3'))
            return zbc_fail(err, "bad checksum in Bitcoin address");
    }
    if (n == 32 && len >= 32 && len <= 44)
        return unsupported(err, 11, "Solana");
    if ((s[0] == '1' || s[0] == '3') && len >= 26 && len <= 35 && n != 25)
        return zbc_fail(err, "Bitcoin address must decode to 25 bytes, got %zu", n);
    if (s[0] == 'r' && len >= 25 && len <= 35)
        return unsupported(err, 14, "Ripple");
    if (n == 35 || n == 36)
        return unsupported(err, 12, "Polkadot (SS58)");
    return zbc_fail(err, "not a ZBC, Bitcoin or Ethereum address");
}

/* bech32 "hrp1" + witness version character + program: v1 ('p') is
 * Taproot, v0 ('q') P2WPKH (42 characters on mainnet) or P2WSH. */
static int unsupported_bech32(struct zbc_err *err, const char *t, size_t len)
{
    const char *sep = memchr(t, '1', len);
    char ver = sep != NULL && sep + 1 < t + len ? (char)tolower((unsigned char)sep[1]) : 0;
    if (ver == 'p')
        return unsupported(err, 9, "Bitcoin Taproot (bech32m)");
    if (ver == 'q' && (size_t)(t + len - sep) <= 40)
        return unsupported(err, 7, "Bitcoin SegWit (bech32)");
    return unsupported(err, 8, "Bitcoin SegWit (bech32)");
}

/* ---- dispatch ---- */

static int is_zbc_like(const char *t, size_t len)
{
    if (len >= 4 && is_separator(t[3]))
        return 1;
    char sig[ZBC_SIGNIFICANT];
    size_t n = significant_chars(sig, sizeof sig, t);
    /* a known prefix and about the right length: report what is wrong
     * with it as a ZBC address */
    return n >= ZBC_SIGNIFICANT - 9 && n <= ZBC_SIGNIFICANT + 9 &&
           (memcmp(sig, "ZBC", 3) == 0 || memcmp(sig, "ZNK", 3) == 0 ||
            memcmp(sig, "ZBS", 3) == 0);
}

int zbc_addr_parse_text(struct zbc_addr *a, const char *text,
                        struct zbc_err *err)
{
    size_t full = strnlen(text, TEXT_INPUT_MAX + 1);
    if (full > TEXT_INPUT_MAX)
        return zbc_fail(err, "address text longer than %d characters", TEXT_INPUT_MAX);
    /* Trim surrounding whitespace (a pasted line). */
    const char *t = text;
    size_t len = full;
    while (len > 0 && isspace((unsigned char)t[0])) {
        t++;
        len--;
    }
    while (len > 0 && isspace((unsigned char)t[len - 1]))
        len--;
    if (len == 0)
        return zbc_fail(err, "empty address");
    char buf[TEXT_INPUT_MAX + 1];
    memcpy(buf, t, len);
    buf[len] = '\0';
    t = buf;

    if (t[0] == '0' && (t[1] == 'x' || t[1] == 'X'))
        return parse_eth(a, t + 2, len - 2, err);

    if (all_hex(t, len)) {
        if (len == 64) {
            uint8_t pk[32];
            if (!zbc_hex_decode_exact(pk, 32, t))
                return zbc_fail(err, "bad hex in ZooBC public key");
            zbc_addr_from_ed25519(a, pk);
            return 1;
        }
        if (len == 72 || len == 48)
            return parse_typed_hex(a, t, len, err);
        if (len == 40)
            return zbc_fail(err, "40 hex digits without 0x: write an Ethereum address as 0x followed by 40 hex digits");
    }

    if (is_zbc_like(t, len)) {
        char sig[3];
        if (significant_chars(sig, sizeof sig, t) >= 3 &&
            memcmp(sig, "ZBC", 3) != 0 && memcmp(sig, "ZNK", 3) != 0 &&
            memcmp(sig, "ZBS", 3) != 0)
            return zbc_fail(err, "unknown address prefix '%.3s' (want ZBC or ZNK)", sig);
        uint8_t pk[32];
        char prefix[4];
        if (!zbc_addr_zbc_parse(pk, prefix, t, err))
            return 0;
        if (strcmp(prefix, "ZBS") == 0)
            return unsupported(err, 10, "ZooBC dataset object (ZBS_)");
        zbc_addr_from_ed25519(a, pk);
        return 1;
    }

    if (has_prefix_ci(t, len, "bc1") || has_prefix_ci(t, len, "tb1") ||
        has_prefix_ci(t, len, "bcrt1"))
        return unsupported_bech32(err, t, len);
    if (has_prefix_ci(t, len, "addr1"))
        return unsupported(err, 13, "Cardano");
    if (has_prefix_ci(t, len, "tz1"))
        return unsupported(err, 16, "Tezos");

    return parse_base58(a, t, len, err);
}

void zbc_addr_to_text(char *out, const struct zbc_addr *a)
{
    if (a->type == ZBC_ACCT_ZBC && a->len == 32) {
        zbc_addr_zbc_text(out, a->payload, "ZBC");
        return;
    }
    if (a->type == ZBC_ACCT_ETH && a->len == 20) {
        out[0] = '0';
        out[1] = 'x';
        eip55(out + 2, a->payload);
        return;
    }
    if (a->type == ZBC_ACCT_BTC_P2PKH && a->len == 20) {
        uint8_t v[21];
        v[0] = 0x00;
        memcpy(v + 1, a->payload, 20);
        if (zbc_base58check_encode(out, ZBC_ADDR_TEXT_MAX, v, sizeof v))
            return;
    }
    /* Every other type, the legacy Bitcoin type 1 included (its "1…" form
     * would read back as type 5, another account): the typed bytes in hex. */
    uint8_t bytes[ZBC_ADDR_BYTES_MAX];
    size_t n = zbc_addr_write(bytes, a);
    zbc_hex_encode(out, bytes, n);
}
