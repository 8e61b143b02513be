#include "crypto/bytes.h"

int zbc_rd_err(const struct zbc_rd *r, struct zbc_err *err,
               const char *prefix)
{
    if (r->what != NULL && r->need > 0)
        return zbc_fail(err, "%s: %s needs %zu bytes, %zu left", prefix,
                        r->what, r->need, r->had);
    if (r->what != NULL)
        return zbc_fail(err, "%s: bad %s", prefix, r->what);
    if (r->left > 0)
        return zbc_fail(err, "%s: %zu trailing bytes", prefix, r->left);
    return zbc_fail(err, "%s: no error", prefix);
}

int zbc_parse_u64n(const char *s, size_t n, uint64_t min, uint64_t max,
                   uint64_t *out, const char *what, struct zbc_err *err)
{
    if (s == NULL || n == 0)
        return zbc_fail(err, "%s: expected a number, got nothing", what);
    if (n > 1 && s[0] == '0')
        return zbc_fail(err, "%s: '%.*s' has a leading zero", what,
                        (int)(n > 24 ? 24 : n), s);
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return zbc_fail(err, "%s: '%.*s' is not a decimal number", what,
                            (int)(n > 24 ? 24 : n), s);
        uint64_t d = (uint64_t)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return zbc_fail(err, "%s: '%.*s' is too large", what,
                            (int)(n > 24 ? 24 : n), s);
        v = v * 10 + d;
    }
    if (v < min || v > max)
        return zbc_fail(err, "%s: %llu is out of range %llu-%llu", what,
                        (unsigned long long)v, (unsigned long long)min,
                        (unsigned long long)max);
    *out = v;
    return 1;
}

int zbc_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out,
                  const char *what, struct zbc_err *err)
{
    return zbc_parse_u64n(s, s != NULL ? strlen(s) : 0, min, max, out, what,
                          err);
}
