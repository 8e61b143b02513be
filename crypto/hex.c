#include "crypto/hex.h"

#include <string.h>

void zbc_hex_encode(char *out, const uint8_t *in, size_t len)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < len; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[2 * len] = '\0';
}

static int nibble(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int zbc_hex_decode(uint8_t *out, size_t cap, size_t *outlen, const char *hex,
                   size_t hexlen)
{
    if (hexlen % 2 != 0 || hexlen / 2 > cap)
        return 0;
    for (size_t i = 0; i < hexlen / 2; i++) {
        int hi = nibble(hex[2 * i]), lo = nibble(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return 0;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    *outlen = hexlen / 2;
    return 1;
}

int zbc_hex_decode_exact(uint8_t *out, size_t len, const char *hex)
{
    size_t n;
    if (hex == NULL || strlen(hex) != 2 * len)
        return 0;
    return zbc_hex_decode(out, len, &n, hex, 2 * len) && n == len;
}
