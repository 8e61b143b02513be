#include "node/client/json.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "crypto/hex.h"

json_t *zbc_json_u64(uint64_t v)
{
    if (v <= (uint64_t)INT64_MAX)
        return json_integer((json_int_t)v);
    char buf[24];
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    return json_string(buf);
}

static json_t *hex_string(const uint8_t *p, size_t n, int upper)
{
    char *s = malloc(2 * n + 1);
    if (s == NULL)
        return NULL;
    zbc_hex_encode(s, p, n);
    if (upper)
        for (size_t i = 0; i < 2 * n; i++)
            s[i] = (char)toupper((unsigned char)s[i]);
    json_t *j = json_string(s);
    free(s);
    return j;
}

json_t *zbc_json_hex(const uint8_t *p, size_t n)
{
    return hex_string(p, n, 0);
}

json_t *zbc_json_hex_upper(const uint8_t *p, size_t n)
{
    return hex_string(p, n, 1);
}
