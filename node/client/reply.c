#include "node/client/reply.h"

#include <inttypes.h>
#include <string.h>

#include "crypto/bytes.h"
#include "crypto/hex.h"

const char *zbc_reply_type_name(const json_t *v)
{
    switch (v != NULL ? json_typeof(v) : JSON_NULL) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a real number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
    }
    return "unknown";
}

/* The field, or NULL with the "has no" error. */
static json_t *field(const json_t *o, const char *key, const char *what,
                     struct zbc_err *err)
{
    json_t *v = json_is_object(o) ? json_object_get(o, key) : NULL;
    if (v == NULL)
        zbc_fail(err, "%s has no \"%s\"", what, key);
    return v;
}

static int wrong_type(const json_t *v, const char *key, const char *want,
                      const char *what, struct zbc_err *err)
{
    return zbc_fail(err, "%s: \"%s\" must be %s, not %s", what, key, want,
                    zbc_reply_type_name(v));
}


int zbc_reply_u64(const json_t *o, const char *key, uint64_t min, uint64_t max,
                  const char *what, uint64_t *out, struct zbc_err *err)
{
    json_t *v = field(o, key, what, err);
    if (v == NULL)
        return 0;
    uint64_t n;
    if (json_is_integer(v)) {
        json_int_t i = json_integer_value(v);
        if (i < 0)
            return zbc_fail(err, "%s: \"%s\" %lld is negative", what, key,
                            (long long)i);
        n = (uint64_t)i;
    } else if (json_is_string(v)) {
        struct zbc_err perr;
        if (!zbc_parse_u64(json_string_value(v), 0, UINT64_MAX, &n, key, &perr))
            return zbc_fail(err, "%s: \"%s\" is a string that is not a "
                            "decimal number", what, key);
    } else {
        return wrong_type(v, key, "a whole number", what, err);
    }
    if (n < min || n > max)
        return zbc_fail(err, "%s: \"%s\" %" PRIu64 " is not in %" PRIu64
                        "..%" PRIu64, what, key, n, min, max);
    *out = n;
    return 1;
}

int zbc_reply_bool(const json_t *o, const char *key, const char *what,
                   bool *out, struct zbc_err *err)
{
    json_t *v = field(o, key, what, err);
    if (v == NULL)
        return 0;
    if (!json_is_boolean(v))
        return wrong_type(v, key, "a boolean", what, err);
    *out = json_is_true(v);
    return 1;
}

int zbc_reply_hex(const json_t *o, const char *key, size_t n, const char *what,
                  uint8_t *out, struct zbc_err *err)
{
    const char *s;
    if (!zbc_reply_str(o, key, what, &s, err))
        return 0;
    if (strlen(s) != 2 * n || !zbc_hex_decode_exact(out, n, s))
        return zbc_fail(err, "%s: \"%s\" must be %zu bytes as %zu hex "
                        "characters", what, key, n, 2 * n);
    return 1;
}

/* A field whose JSON type is t (named want). */
static int typed(const json_t *o, const char *key, json_type t, const char *want,
                 const char *what, json_t **out, struct zbc_err *err)
{
    json_t *v = field(o, key, what, err);
    if (v == NULL)
        return 0;
    if (json_typeof(v) != t)
        return wrong_type(v, key, want, what, err);
    *out = v;
    return 1;
}

int zbc_reply_array(const json_t *o, const char *key, const char *what,
                    json_t **out, struct zbc_err *err)
{
    return typed(o, key, JSON_ARRAY, "an array", what, out, err);
}

int zbc_reply_object(const json_t *o, const char *key, const char *what,
                     json_t **out, struct zbc_err *err)
{
    return typed(o, key, JSON_OBJECT, "an object", what, out, err);
}

int zbc_reply_str(const json_t *o, const char *key, const char *what,
                  const char **out, struct zbc_err *err)
{
    json_t *v = NULL;
    if (!typed(o, key, JSON_STRING, "a string", what, &v, err))
        return 0;
    *out = json_string_value(v);
    return 1;
}

bool zbc_reply_absent(const json_t *o, const char *key)
{
    json_t *v = json_is_object(o) ? json_object_get(o, key) : NULL;
    return v == NULL || json_is_null(v);
}
