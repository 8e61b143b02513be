#include "crypto/base58.h"

#include <string.h>

#include "crypto/hash.h"

static const char alphabet[] =
    "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

#define BASE58_BYTES_MAX 90 /* 90 bytes need at most 123 characters */

int zbc_base58_encode(char *out, size_t cap, const uint8_t *in, size_t len)
{
    if (len > BASE58_BYTES_MAX)
        return 0;
    size_t zeros = 0;
    while (zeros < len && in[zeros] == 0)
        zeros++;
    /* Base-58 digits, most significant first, of the bytes after the
     * leading zeros: log(256)/log(58) < 1.38. */
    uint8_t digits[BASE58_BYTES_MAX * 138 / 100 + 1];
    size_t ndig = 0;
    for (size_t i = zeros; i < len; i++) {
        unsigned carry = in[i];
        for (size_t j = 0; j < ndig; j++) {
            carry += (unsigned)digits[j] << 8;
            digits[j] = (uint8_t)(carry % 58);
            carry /= 58;
        }
        while (carry > 0) {
            digits[ndig++] = (uint8_t)(carry % 58);
            carry /= 58;
        }
    }
    if (zeros + ndig + 1 > cap)
        return 0;
    size_t n = 0;
    for (size_t i = 0; i < zeros; i++)
        out[n++] = '1';
    for (size_t j = ndig; j > 0; j--)
        out[n++] = alphabet[digits[j - 1]];
    out[n] = '\0';
    return 1;
}

static int value_of(char c)
{
    const char *p = c == '\0' ? NULL : strchr(alphabet, c);
    return p == NULL ? -1 : (int)(p - alphabet);
}

int zbc_base58_decode(uint8_t *out, size_t cap, size_t *outlen,
                      const char *text, size_t textlen, struct zbc_err *err)
{
    if (textlen > ZBC_BASE58_TEXT_MAX)
        return zbc_fail(err, "base58 text longer than %d characters", ZBC_BASE58_TEXT_MAX);
    size_t zeros = 0;
    while (zeros < textlen && text[zeros] == '1')
        zeros++;
    /* Little-endian bytes of the number; log(58)/log(256) < 0.733. */
    uint8_t num[ZBC_BASE58_TEXT_MAX * 733 / 1000 + 1];
    size_t nbytes = 0;
    for (size_t i = zeros; i < textlen; i++) {
        int v = value_of(text[i]);
        if (v < 0)
            return zbc_fail(err, "character '%c' is not base58", text[i]);
        unsigned carry = (unsigned)v;
        for (size_t j = 0; j < nbytes; j++) {
            carry += (unsigned)num[j] * 58;
            num[j] = (uint8_t)carry;
            carry >>= 8;
        }
        while (carry > 0) {
            num[nbytes++] = (uint8_t)carry;
            carry >>= 8;
        }
    }
    if (zeros + nbytes > cap)
        return zbc_fail(err, "base58 text decodes to %zu bytes, more than %zu",
                        zeros + nbytes, cap);
    memset(out, 0, zeros);
    for (size_t j = 0; j < nbytes; j++)
        out[zeros + j] = num[nbytes - 1 - j];
    *outlen = zeros + nbytes;
    return 1;
}

int zbc_base58check_encode(char *out, size_t cap, const uint8_t *payload,
                           size_t len)
{
    uint8_t buf[BASE58_BYTES_MAX];
    if (len + 4 > sizeof buf)
        return 0;
    memcpy(buf, payload, len);
    uint8_t h[32];
    zbc_sha256d(h, payload, len);
    memcpy(buf + len, h, 4);
    return zbc_base58_encode(out, cap, buf, len + 4);
}

int zbc_base58check_decode(uint8_t *out, size_t cap, size_t *outlen,
                           const char *text, size_t textlen,
                           struct zbc_err *err)
{
    uint8_t buf[ZBC_BASE58_TEXT_MAX];
    size_t n;
    if (!zbc_base58_decode(buf, sizeof buf, &n, text, textlen, err))
        return 0;
    if (n < 5)
        return zbc_fail(err, "base58check text too short (%zu bytes, need a version and a 4-byte checksum)", n);
    uint8_t h[32];
    zbc_sha256d(h, buf, n - 4);
    if (memcmp(h, buf + n - 4, 4) != 0)
        return zbc_fail(err, "bad base58check checksum");
    if (n - 4 > cap)
        return zbc_fail(err, "base58check payload of %zu bytes is more than %zu", n - 4, cap);
    memcpy(out, buf, n - 4);
    *outlen = n - 4;
    return 1;
}
