#include "node/wallet/out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/hex.h"
#include "node/wallet/amount.h"

static void print_value(const char *key, json_t *v, int indent);

/* Text that may come from the node goes to a terminal: control bytes
 * (escape sequences) print as '?', except newline and tab. */
static void put_text(FILE *fp, const char *s)
{
    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        fputc((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f ? '?' : c, fp);
    }
}

static void print_object(json_t *obj, int indent)
{
    const char *k;
    json_t *v;
    json_object_foreach(obj, k, v) {
        if (k[0] == '_')
            continue;
        print_value(k, v, indent);
    }
}

static void print_value(const char *key, json_t *v, int indent)
{
    printf("%*s", indent, "");
    if (key != NULL)
        printf("%s: ", key);
    if (json_is_object(v)) {
        printf("\n");
        print_object(v, indent + 2);
        return;
    }
    if (json_is_array(v)) {
        printf("\n");
        size_t i;
        json_t *e;
        json_array_foreach(v, i, e) {
            if (json_is_object(e)) {
                printf("%*s-\n", indent + 2, "");
                print_object(e, indent + 4);
            } else {
                print_value(NULL, e, indent + 2);
            }
        }
        return;
    }
    if (json_is_string(v)) {
        put_text(stdout, json_string_value(v));
        putchar('\n');
        return;
    }
    char *s = json_dumps(v, JSON_ENCODE_ANY);
    printf("%s\n", s != NULL ? s : "?");
    free(s);
}

/* u64 ids are strings in the wallet's JSON (docs/wallet.md "Output"): a
 * JSON integer under "app_id", "id" or "ref" becomes its decimal text,
 * everywhere except inside "api_response" (the node's reply verbatim) and
 * "payload" (the exact POST /api/v1/transactions object, docs/api.md §3). */
void zbc_out_ids_as_strings(json_t *v)
{
    if (json_is_array(v)) {
        size_t i;
        json_t *e;
        json_array_foreach(v, i, e) {
            zbc_out_ids_as_strings(e);
        }
        return;
    }
    if (!json_is_object(v))
        return;
    const char *k;
    json_t *e;
    json_object_foreach(v, k, e) {
        if (strcmp(k, "api_response") == 0 || strcmp(k, "payload") == 0)
            continue;
        if (json_is_integer(e) && (strcmp(k, "app_id") == 0 || strcmp(k, "id") == 0 ||
                                   strcmp(k, "ref") == 0)) {
            char t[24];
            snprintf(t, sizeof t, "%" JSON_INTEGER_FORMAT, json_integer_value(e));
            json_object_set_new(v, k, json_string(t));
        } else {
            zbc_out_ids_as_strings(e);
        }
    }
}

int zbc_out_success(int json, json_t *obj)
{
    if (json) {
        zbc_out_ids_as_strings(obj);
        json_object_del(obj, "_text");
        json_object_set_new(obj, "success", json_true());
        char *s = json_dumps(obj, JSON_INDENT(2) | JSON_SORT_KEYS);
        if (s != NULL)
            printf("%s\n", s);
        free(s);
    } else {
        const char *text = json_string_value(json_object_get(obj, "_text"));
        if (text != NULL)
            put_text(stdout, text);
        else
            print_object(obj, 0);
    }
    fflush(stdout);
    json_decref(obj);
    return 0;
}

/* A JSON string of text that may not be valid UTF-8 (a node's plain-text
 * reply): bytes outside printable ASCII become '?'. */
static json_t *lenient_string(const char *text)
{
    json_t *j = json_string(text);
    if (j != NULL)
        return j;
    char buf[ZBC_ERR_MAX];
    size_t i = 0;
    for (; text[i] != '\0' && i + 1 < sizeof buf; i++)
        buf[i] = (text[i] >= 0x20 && text[i] < 0x7f) ? text[i] : '?';
    buf[i] = '\0';
    return json_string(buf);
}

int zbc_out_fail(int json, struct zbc_wfail *f)
{
    int code = f->code == ZBC_EXIT_OK ? ZBC_EXIT_INTERNAL : f->code;
    /* a person reads amounts in ZBC (the node's units stay in api_response) */
    char human[ZBC_ERR_MAX];
    zbc_amount_humanize(human, sizeof human, f->err.msg);
    snprintf(f->err.msg, sizeof f->err.msg, "%s", human);
    /* the sentence may quote the node: no control bytes (the reply stays
     * verbatim, JSON-escaped, in api_response) */
    for (char *p = f->err.msg; *p != '\0'; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
    fputs("zbc: error: ", stderr);
    fputs(f->err.msg, stderr);
    fputc('\n', stderr);
    if (json) {
        json_t *o = json_object();
        json_object_set_new(o, "success", json_false());
        json_object_set_new(o, "error", lenient_string(f->err.msg));
        json_object_set_new(o, "exit_code", json_integer(code));
        json_object_set_new(o, "error_class", json_string(zbc_exit_class((enum zbc_exit)code)));
        if (f->http_code != 0)
            json_object_set_new(o, "http_code", json_integer(f->http_code));
        if (f->api_response != NULL)
            json_object_set(o, "api_response", f->api_response);
        char *s = json_dumps(o, JSON_INDENT(2) | JSON_SORT_KEYS);
        if (s != NULL)
            printf("%s\n", s);
        free(s);
        json_decref(o);
        fflush(stdout);
    }
    return code;
}
