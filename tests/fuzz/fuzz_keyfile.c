/* libFuzzer target: wallet key files (crypto/keyfile.h, docs/protocol-tx.md
 * "Wallet key file").  A key file is read from disk and may be anything.
 * The first input byte picks the mode; the rest is split at the first 0x00
 * (or 0xff for mode 2) into a passphrase and a file image.
 *   mode 0: the image is opened as it is.  Its SHA-256 checksum almost
 *           never matches, so this walks the header checks (length, magic,
 *           version, kdf, limits) and must refuse cleanly.
 *   mode 1: the target forces the KDF limits to libsodium's minimum (so a
 *           run stays cheap: Argon2id at 8 KiB, one pass) and appends a
 *           correct checksum, reaching the MAC check: a forged box must be
 *           refused as a wrong passphrase, never opened.
 *   mode 2: seal the rest as a secret (at most the maximum) under the
 *           passphrase with minimum limits, then open: the secret must come
 *           back byte for byte, and any one flipped byte must be refused. */
#include <sodium.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/bytes.h"
#include "crypto/hash.h"
#include "crypto/keyfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ASSERT(c) do { if (!(c)) abort(); } while (0)

static const struct zbc_kdf_params cheap = {crypto_pwhash_OPSLIMIT_MIN,
                                            crypto_pwhash_MEMLIMIT_MIN};

static size_t split(const uint8_t *d, size_t n, uint8_t sep)
{
    const uint8_t *p = memchr(d, sep, n);
    return p ? (size_t)(p - d) : n;
}

/* An intact image (its checksum right) whose limits ask for more than the
 * minimum: opening it would run Argon2id at up to 1 GiB per input. */
static int derives_dearly(const uint8_t *img, size_t n)
{
    uint8_t sum[32];
    if (n < ZBC_KEYFILE_OVERHEAD)
        return 0;
    zbc_sha256(sum, img, n - 32);
    if (memcmp(sum, img + n - 32, 32) != 0)
        return 0;
    return zbc_get_le64(img + 8) > cheap.opslimit || zbc_get_le64(img + 16) > cheap.memlimit;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    if (!ready) {
        ASSERT(sodium_init() >= 0);
        ready = 1;
    }
    if (size < 1)
        return 0;
    uint8_t mode = data[0] % 3;
    data++;
    size--;
    size_t pl = split(data, size, mode == 2 ? 0xff : 0x00);
    const char *pass = (const char *)data;
    const uint8_t *rest = data + pl + (pl < size);
    size_t rest_len = size - pl - (pl < size);
    uint8_t secret[ZBC_KEYFILE_SECRET_MAX];
    size_t secret_len = 0;
    struct zbc_err err;

    if (mode == 0) {
        if (derives_dearly(rest, rest_len))
            return 0; /* an intact file with real limits: mode 1 covers it */
        if (zbc_keyfile_open(secret, sizeof secret, &secret_len, rest, rest_len, pass, pl, &err))
            ASSERT(secret_len <= sizeof secret);
        else
            ASSERT(err.msg[0] != '\0');
        return 0;
    }
    if (mode == 1) {
        if (rest_len < ZBC_KEYFILE_HEADER_LEN || rest_len > ZBC_KEYFILE_MAX - 32)
            return 0;
        uint8_t *img = malloc(rest_len + 32);
        ASSERT(img != NULL);
        memcpy(img, rest, rest_len);
        zbc_put_le64(img + 8, cheap.opslimit);
        zbc_put_le64(img + 16, cheap.memlimit);
        zbc_sha256(img + rest_len, img, rest_len);
        if (zbc_keyfile_open(secret, sizeof secret, &secret_len, img, rest_len + 32, pass, pl, &err))
            ASSERT(secret_len <= sizeof secret);
        else
            ASSERT(err.msg[0] != '\0');
        free(img);
        return 0;
    }
    if (rest_len > ZBC_KEYFILE_SECRET_MAX)
        rest_len = ZBC_KEYFILE_SECRET_MAX;
    uint8_t *file = NULL;
    size_t file_len = 0;
    if (!zbc_keyfile_seal(&file, &file_len, rest, rest_len, pass, pl, &cheap, &err)) {
        ASSERT(err.msg[0] != '\0');
        return 0;
    }
    ASSERT(file_len == ZBC_KEYFILE_OVERHEAD + rest_len);
    ASSERT(zbc_keyfile_open(secret, sizeof secret, &secret_len, file, file_len, pass, pl, &err));
    ASSERT(secret_len == rest_len && memcmp(secret, rest, rest_len) == 0);
    /* one flipped byte, chosen by the secret's length: refused */
    size_t at = (rest_len * 7919u + pl) % file_len;
    file[at] ^= 0x01;
    ASSERT(!zbc_keyfile_open(secret, sizeof secret, &secret_len, file, file_len, pass, pl, &err));
    free(file);
    return 0;
}
