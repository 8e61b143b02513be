/* zbc-load's pure parts (load_stats.h, docs/load.md). */
#include "node/bench/load_stats.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/bytes.h"

void zbc_load_sched_init(struct zbc_load_sched *s, double rate, double start,
                         uint64_t total)
{
    s->rate = rate;
    s->start = start;
    s->total = total;
    s->issued = 0;
}

double zbc_load_sched_due_at(const struct zbc_load_sched *s, uint64_t k)
{
    return s->start + (double)k / s->rate;
}

uint64_t zbc_load_sched_take(struct zbc_load_sched *s, double now)
{
    if (now < s->start || s->issued >= s->total)
        return 0;
    /* sends 0 .. floor((now - start) * rate) are due; the epsilon keeps a
     * send due exactly now from slipping by a rounding error
     * ((10.1 - 10.0) * 100 is 9.9999…) */
    double due_d = floor((now - s->start) * s->rate + 1e-6) + 1.0;
    uint64_t due = due_d >= (double)s->total ? s->total : (uint64_t)due_d;
    if (due <= s->issued)
        return 0;
    uint64_t n = due - s->issued;
    s->issued = due;
    return n;
}

double zbc_load_warmup_s(double dur)
{
    double w = dur / 10;
    return w < ZBC_LOAD_WARMUP_MIN_S ? ZBC_LOAD_WARMUP_MIN_S : w;
}

double zbc_load_steady_rate(const double *ts, const uint32_t *ours, size_t n,
                            double from, double to, double *span)
{
    *span = 0;
    size_t a = n, b = n;
    for (size_t i = 0; i < n; i++) {
        if (ts[i] < from || ts[i] > to)
            continue;
        if (a == n)
            a = i;
        b = i;
    }
    if (a == n || b == a || !(ts[b] > ts[a]))
        return 0;
    uint64_t sum = 0;
    for (size_t i = a + 1; i <= b; i++)
        sum += ours[i];
    *span = ts[b] - ts[a];
    return (double)sum / *span;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void zbc_load_sort(double *v, size_t n)
{
    if (n > 1)
        qsort(v, n, sizeof *v, cmp_double);
}

double zbc_load_percentile(const double *sorted, size_t n, double p)
{
    if (n == 0)
        return 0;
    if (p <= 0)
        return sorted[0];
    if (p >= 100)
        return sorted[n - 1];
    /* nearest rank: ceil(p / 100 * n), 1-based */
    double r = ceil(p / 100.0 * (double)n - 1e-9);
    size_t rank = r < 1 ? 1 : (size_t)r;
    if (rank > n)
        rank = n;
    return sorted[rank - 1];
}

static bool has(const char *text, const char *what)
{
    return text != NULL && strstr(text, what) != NULL;
}

enum zbc_load_refusal zbc_load_refusal_class(int status, const char *text)
{
    if (has(text, "node busy"))
        return ZBC_LOAD_REF_BUSY;
    if (status == 503 || has(text, "mempool is full"))
        return ZBC_LOAD_REF_MEMPOOL_FULL;
    if (has(text, "fee too low"))
        return ZBC_LOAD_REF_FEE;
    if (has(text, "insufficient balance"))
        return ZBC_LOAD_REF_BALANCE;
    if (has(text, "is already waiting in the mempool"))
        return ZBC_LOAD_REF_APP_WAITING;
    if (status == 404 || has(text, "not found") || has(text, "unknown app"))
        return ZBC_LOAD_REF_NOT_FOUND;
    if (has(text, "timestamp"))
        return ZBC_LOAD_REF_TIME;
    if (has(text, "already included") || has(text, "already in") ||
        has(text, "duplicate"))
        return ZBC_LOAD_REF_SEEN;
    if (has(text, "app ") || has(text, "not your turn") || has(text, "seat"))
        return ZBC_LOAD_REF_APP_RULE;
    return ZBC_LOAD_REF_OTHER;
}

const char *zbc_load_refusal_name(enum zbc_load_refusal c)
{
    static const char *const names[ZBC_LOAD_REF_COUNT] = {
        "mempool full", "node busy", "fee too low", "insufficient balance", "not found",
        "timestamp window", "already seen", "app action waiting",
        "app rule", "other",
    };
    return (unsigned)c < ZBC_LOAD_REF_COUNT ? names[c] : "other";
}

ZBC_WUR int zbc_load_parse_url(const char *text, char *host, uint16_t *port,
                               struct zbc_err *err)
{
    static const char scheme[] = "http://";
    if (text == NULL || strncmp(text, scheme, sizeof scheme - 1) != 0)
        return zbc_fail(err, "node URL '%.60s' must start with http:// "
                        "(e.g. http://127.0.0.1:8080)", text ? text : "");
    const char *h = text + sizeof scheme - 1;
    const char *colon = strrchr(h, ':');
    if (colon == NULL || colon == h)
        return zbc_fail(err, "node URL '%.60s' needs a host and a port "
                        "(http://HOST:PORT)", text);
    size_t hlen = (size_t)(colon - h);
    if (hlen > 255)
        return zbc_fail(err, "node URL '%.60s…': the host is longer than "
                        "255 characters", text);
    for (size_t i = 0; i < hlen; i++) {
        char c = h[i];
        if (c == '/' || c == '@' || c == ' ' || c == '\t' || c == '?' ||
            c == '#' || (unsigned char)c < 0x21 || (unsigned char)c > 0x7e)
            return zbc_fail(err, "node URL '%.60s': the host must not "
                            "contain '%c' (http://HOST:PORT, no path)",
                            text, c < 0x21 || c > 0x7e ? '?' : c);
    }
    const char *p = colon + 1;
    size_t plen = strlen(p);
    if (plen > 0 && p[plen - 1] == '/')
        plen--;
    uint64_t v;
    struct zbc_err e2;
    if (!zbc_parse_u64n(p, plen, 1, 65535, &v, "port", &e2))
        return zbc_fail(err, "node URL '%.60s': %s", text, e2.msg);
    memcpy(host, h, hlen);
    host[hlen] = 0;
    *port = (uint16_t)v;
    return 1;
}

ZBC_WUR int zbc_load_parse_number(const char *text, double min, double max,
                                  double *out, const char *what,
                                  struct zbc_err *err)
{
    if (text == NULL || *text == 0)
        return zbc_fail(err, "%s needs a number from %g to %g, got nothing",
                        what, min, max);
    size_t n = strlen(text);
    int dots = 0, digits = 0;
    for (size_t i = 0; i < n; i++) {
        if (text[i] == '.')
            dots++;
        else if (text[i] >= '0' && text[i] <= '9')
            digits++;
        else
            return zbc_fail(err, "%s needs a number from %g to %g (digits "
                            "and at most one '.'), not '%.40s'", what, min,
                            max, text);
    }
    if (dots > 1 || digits == 0 || n > 20)
        return zbc_fail(err, "%s needs a number from %g to %g, not '%.40s'",
                        what, min, max, text);
    double v = strtod(text, NULL);
    if (!(v >= min && v <= max))
        return zbc_fail(err, "%s must be from %g to %g, not %.40s", what, min,
                        max, text);
    *out = v;
    return 1;
}

int zbc_load_parse_write_bytes(const char *text, size_t len, uint64_t *out)
{
    static const char field[] = "write_bytes:";
    const size_t flen = sizeof field - 1;
    size_t i = 0;
    while (i < len) {
        size_t end = i;
        while (end < len && text[end] != '\n')
            end++;
        if (end - i > flen && memcmp(text + i, field, flen) == 0) {
            size_t j = i + flen;
            while (j < end && text[j] == ' ')
                j++;
            uint64_t v = 0;
            size_t digits = 0;
            for (; j < end && text[j] >= '0' && text[j] <= '9'; j++) {
                unsigned d = (unsigned)(text[j] - '0');
                digits++;
                if (v > (UINT64_MAX - d) / 10)
                    return 0;
                v = v * 10 + d;
            }
            if (digits == 0 || j != end)
                return 0;
            *out = v;
            return 1;
        }
        i = end + 1;
    }
    return 0;
}
