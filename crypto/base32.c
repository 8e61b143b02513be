#include "crypto/base32.h"

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

size_t zbc_base32_encode(char *out, const uint8_t *in, size_t len)
{
    size_t n = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < len; i++) {
        acc = (acc << 8) | in[i];
        bits += 8;
        while (bits >= 5) {
            bits -= 5;
            out[n++] = alphabet[(acc >> bits) & 31];
        }
    }
    if (bits > 0)
        out[n++] = alphabet[(acc << (5 - bits)) & 31];
    out[n] = '\0';
    return n;
}

static int value_of(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a';
    if (c >= '2' && c <= '7')
        return c - '2' + 26;
    return -1;
}

int zbc_base32_decode(uint8_t *out, size_t cap, size_t *outlen,
                      const char *text, size_t textlen, struct zbc_err *err)
{
    size_t rem = textlen % 8;
    if (rem == 1 || rem == 3 || rem == 6)
        return zbc_fail(err, "base32 text of %zu characters encodes no whole number of bytes",
                        textlen);
    size_t need = textlen * 5 / 8;
    if (need > cap)
        return zbc_fail(err, "base32 text decodes to %zu bytes, more than %zu", need, cap);
    size_t n = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < textlen; i++) {
        int v = value_of(text[i]);
        if (v < 0)
            return zbc_fail(err, "character '%c' is not base32 (A-Z, 2-7)", text[i]);
        acc = (acc << 5) | (uint32_t)v;
        bits += 5;
        if (bits >= 8) {
            bits -= 8;
            out[n++] = (uint8_t)(acc >> bits);
        }
    }
    if ((acc & ((1u << bits) - 1)) != 0)
        return zbc_fail(err, "base32 text has non-zero unused trailing bits");
    *outlen = n;
    return 1;
}
