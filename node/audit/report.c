#include "node/audit/report.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *zbc_audit_what_name(enum zbc_audit_what w)
{
    switch (w) {
    case ZBC_AUDIT_GENESIS:
        return "genesis";
    case ZBC_AUDIT_BLOCK_MISSING:
        return "block_missing";
    case ZBC_AUDIT_BLOCK_DECODE:
        return "block_decode";
    case ZBC_AUDIT_HEIGHT:
        return "height";
    case ZBC_AUDIT_HASH_CHAIN:
        return "hash_chain";
    case ZBC_AUDIT_BLOCK_INVALID:
        return "block_invalid";
    case ZBC_AUDIT_STATE_ROOT:
        return "state_root";
    case ZBC_AUDIT_MONEY:
        return "money";
    case ZBC_AUDIT_EVENTS:
        return "events";
    case ZBC_AUDIT_UNDO:
        return "undo";
    case ZBC_AUDIT_INDEX:
        return "index";
    case ZBC_AUDIT_TIP:
        return "tip";
    case ZBC_AUDIT_STORED_STATE:
        return "stored_state";
    case ZBC_AUDIT_APP:
        return "app";
    case ZBC_AUDIT_VOTES:
        return "votes";
    case ZBC_AUDIT_WHAT_COUNT:
        return "?";
    }
    return "?";
}

void zbc_audit_text_clean(char *s)
{
    for (; s != NULL && *s != '\0'; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            *s = '?';
}

/* A copy with control bytes as '?' (the texts quote the source). */
static char *dup_or_empty(const char *s)
{
    char *d = strdup(s != NULL ? s : "");
    zbc_audit_text_clean(d);
    return d;
}

void zbc_audit_add(struct zbc_audit_report *r, uint32_t height,
                   enum zbc_audit_what what, const char *expected,
                   const char *found, const char *fmt, ...)
{
    r->total++;
    if (r->n >= ZBC_AUDIT_KEEP_MAX)
        return;
    if (r->n == r->cap) {
        size_t cap = r->cap == 0 ? 16 : 2 * r->cap;
        struct zbc_audit_div *d = realloc(r->d, cap * sizeof *d);
        if (d == NULL) {
            r->oom = true;
            return;
        }
        r->d = d;
        r->cap = cap;
    }
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    struct zbc_audit_div *d = &r->d[r->n];
    d->height = height;
    d->what = what;
    d->detail = dup_or_empty(buf);
    d->expected = dup_or_empty(expected);
    d->found = dup_or_empty(found);
    if (d->detail == NULL || d->expected == NULL || d->found == NULL) {
        free(d->detail);
        free(d->expected);
        free(d->found);
        r->oom = true;
        return;
    }
    r->n++;
}

bool zbc_audit_clean(const struct zbc_audit_report *r)
{
    return r->total == 0 && !r->oom;
}

void zbc_audit_report_free(struct zbc_audit_report *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->d[i].detail);
        free(r->d[i].expected);
        free(r->d[i].found);
    }
    free(r->d);
    memset(r, 0, sizeof *r);
}

void zbc_audit_print_divergences(FILE *out, const struct zbc_audit_report *r)
{
    for (size_t i = 0; i < r->n; i++) {
        const struct zbc_audit_div *d = &r->d[i];
        fprintf(out, "DIVERGENCE height %u: %s: %s\n", d->height,
                zbc_audit_what_name(d->what), d->detail);
        if (d->expected[0] != '\0' || d->found[0] != '\0') {
            fprintf(out, "  expected (replay): %s\n", d->expected);
            fprintf(out, "  found (source):    %s\n", d->found);
        }
    }
    if (r->total > r->n)
        fprintf(out, "... and %zu more divergence(s) not shown\n",
                r->total - r->n);
}

json_t *zbc_audit_divergences_json(const struct zbc_audit_report *r)
{
    json_t *a = json_array();
    if (a == NULL)
        return NULL;
    for (size_t i = 0; i < r->n; i++) {
        const struct zbc_audit_div *d = &r->d[i];
        json_t *o = json_pack("{s:I,s:s,s:s,s:s,s:s}", "height",
                              (json_int_t)d->height, "what",
                              zbc_audit_what_name(d->what), "detail",
                              d->detail, "expected", d->expected, "found",
                              d->found);
        if (o == NULL || json_array_append_new(a, o) != 0) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}
