#include "node/wallet/amount.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

int zbc_amount_parse(uint64_t *out, const char *text, struct zbc_err *err)
{
    size_t n = strlen(text);
    int zbc = 0;
    if (n >= 3 && strcasecmp(text + n - 3, "zbc") == 0) {
        zbc = 1;
        n -= 3;
        while (n > 0 && text[n - 1] == ' ')
            n--;
    }
    if (n == 0)
        return zbc_fail(err, "amount '%s' has no number", text);
    uint64_t whole = 0, frac = 0;
    size_t i = 0, ndig = 0, nfrac = 0;
    for (; i < n && isdigit((unsigned char)text[i]); i++, ndig++) {
        uint64_t d = (uint64_t)(text[i] - '0');
        if (whole > (UINT64_MAX - d) / 10)
            return zbc_fail(err, "amount '%s' is too large", text);
        whole = whole * 10 + d;
    }
    if (i < n && text[i] == '.') {
        zbc = 1;
        for (i++; i < n && isdigit((unsigned char)text[i]); i++, nfrac++) {
            if (nfrac == 8)
                return zbc_fail(err, "amount '%s' has more than 8 decimals (1 unit = 0.00000001 ZBC)", text);
            frac = frac * 10 + (uint64_t)(text[i] - '0');
        }
    }
    if (i != n || ndig + nfrac == 0)
        return zbc_fail(err, "amount '%s' is not a number (use atomic units, or e.g. 1.5ZBC)", text);
    if (!zbc) {
        *out = whole;
        return 1;
    }
    for (; nfrac < 8; nfrac++)
        frac *= 10;
    if (whole > (UINT64_MAX - frac) / ZBC_UNITS_PER_ZBC)
        return zbc_fail(err, "amount '%s' is too large", text);
    *out = whole * ZBC_UNITS_PER_ZBC + frac;
    return 1;
}

void zbc_amount_format(char *out, uint64_t units)
{
    uint64_t whole = units / ZBC_UNITS_PER_ZBC, frac = units % ZBC_UNITS_PER_ZBC;
    if (frac == 0) {
        snprintf(out, 32, "%" PRIu64 " ZBC", whole);
        return;
    }
    char f[9];
    snprintf(f, sizeof f, "%08" PRIu64, frac);
    size_t k = 8;
    while (k > 0 && f[k - 1] == '0')
        f[--k] = '\0';
    snprintf(out, 32, "%" PRIu64 ".%s ZBC", whole, f);
}

/* Whether text at p starts with word. */
static int starts(const char *p, const char *word)
{
    return strncmp(p, word, strlen(word)) == 0;
}

void zbc_amount_humanize(char *out, size_t cap, const char *text)
{
    if (cap == 0)
        return;
    out[0] = '\0';
    int money = strstr(text, "insufficient balance") != NULL ||
                strstr(text, "insufficient spendable") != NULL;
    int fee = strstr(text, "fee too low") != NULL;
    size_t o = 0;
    const char *p = text;
    while (*p != '\0' && o + 1 < cap) {
        int boundary = p == text || !isalnum((unsigned char)p[-1]);
        if (boundary && isdigit((unsigned char)*p)) {
            const char *q = p;
            uint64_t v = 0;
            int overflow = 0;
            while (isdigit((unsigned char)*q)) {
                uint64_t d = (uint64_t)(*q - '0');
                if (v > (UINT64_MAX - d) / 10)
                    overflow = 1;
                v = v * 10 + d;
                q++;
            }
            int amount = !overflow && !isalnum((unsigned char)*q) && *q != '.' &&
                         ((money && (starts(q, " held") || starts(q, " needed") ||
                                     starts(q, " pending") ||
                                     (p - text >= 5 && starts(p - 5, "plus "))) ) ||
                          (fee && (starts(q, " < minimum") ||
                                   (p - text >= 8 && starts(p - 8, "minimum ")))));
            if (amount) {
                char z[32];
                zbc_amount_format(z, v);
                int n = snprintf(out + o, cap - o, "%s", z);
                if (n < 0 || (size_t)n >= cap - o) {
                    out[o] = '\0';
                    return;
                }
                o += (size_t)n;
                p = q;
                continue;
            }
            while (p < q && o + 1 < cap)
                out[o++] = *p++;
            continue;
        }
        out[o++] = *p++;
    }
    out[o] = '\0';
}
