/* Wallet key files (keyfile.h). */
#include "crypto/keyfile.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "crypto/bytes.h"
#include "crypto/declassify.h"
#include "crypto/hash.h"

static const uint8_t magic[6] = {'Z', 'B', 'C', 'K', 'E', 'Y'};
#define KF_VERSION 1
#define KF_KDF_ARGON2ID13 1
#define SALT_LEN 16
#define NONCE_LEN crypto_secretbox_NONCEBYTES
#define MAC_LEN crypto_secretbox_MACBYTES
/* opslimit x memlimit of crypto_pwhash_*_SENSITIVE: the most work a key
 * file may ask for */
#define KDF_WORK_MAX ((uint64_t)crypto_pwhash_OPSLIMIT_SENSITIVE * \
                      (uint64_t)crypto_pwhash_MEMLIMIT_SENSITIVE)

void zbc_keyfile_default_params(struct zbc_kdf_params *p)
{
    p->opslimit = crypto_pwhash_OPSLIMIT_MODERATE;
    p->memlimit = crypto_pwhash_MEMLIMIT_MODERATE;
}

static int check_params(uint64_t ops, uint64_t mem, struct zbc_err *err)
{
    if (ops < crypto_pwhash_OPSLIMIT_MIN || ops > crypto_pwhash_OPSLIMIT_MAX)
        return zbc_fail(err, "Argon2id opslimit %llu is outside %llu..%llu",
                        (unsigned long long)ops,
                        (unsigned long long)crypto_pwhash_OPSLIMIT_MIN,
                        (unsigned long long)crypto_pwhash_OPSLIMIT_MAX);
    if (mem < crypto_pwhash_MEMLIMIT_MIN || mem > crypto_pwhash_MEMLIMIT_SENSITIVE)
        return zbc_fail(err, "Argon2id memlimit %llu is outside %llu..%llu bytes",
                        (unsigned long long)mem,
                        (unsigned long long)crypto_pwhash_MEMLIMIT_MIN,
                        (unsigned long long)crypto_pwhash_MEMLIMIT_SENSITIVE);
    /* Argon2id time grows with opslimit x memlimit, and opslimit alone may
     * be 2^32 - 1: a file (whose checksum anyone can recompute) may ask
     * for at most the work of libsodium's SENSITIVE profile, 4 passes over
     * 1 GiB.  mem >= MEMLIMIT_MIN > 0 here. */
    if (ops > KDF_WORK_MAX / mem)
        return zbc_fail(err, "Argon2id opslimit %llu with memlimit %llu bytes is more work than %llu passes over %llu bytes",
                        (unsigned long long)ops, (unsigned long long)mem,
                        (unsigned long long)crypto_pwhash_OPSLIMIT_SENSITIVE,
                        (unsigned long long)crypto_pwhash_MEMLIMIT_SENSITIVE);
    return 1;
}

/* libsodium leaves secrets in the stack frames of calls that have
 * returned: crypto_secretbox_open_detached never wipes its block0 (the
 * first 32 plaintext bytes, a whole seed) and Argon2id leaves the derived
 * key.  Called right after them, this overwrites the stack they used
 * (well within 16 KiB). */
__attribute__((noinline)) static void wipe_stack_below(void)
{
    uint8_t area[16384];
    sodium_memzero(area, sizeof area);
}

static int derive(uint8_t key[32], const char *pass, size_t pass_len,
                  const uint8_t salt[SALT_LEN], uint64_t ops, uint64_t mem,
                  struct zbc_err *err)
{
    int bad = crypto_pwhash(key, 32, pass, pass_len, salt, ops, (size_t)mem,
                            crypto_pwhash_ALG_ARGON2ID13);
    wipe_stack_below();
    if (bad != 0)
        return zbc_fail(err, "Argon2id key derivation failed (out of memory for %llu bytes?)",
                        (unsigned long long)mem);
    return 1;
}

/* The secretbox step on its own, apart from Argon2id, so that tests/ctime
 * can check it for constant time with the key and the secret marked
 * secret (Argon2id is data-dependent by design, docs/crypto.md). */
static void box_seal(uint8_t *c, const uint8_t *m, size_t len,
                     const uint8_t nonce[NONCE_LEN], const uint8_t key[32])
{
    crypto_secretbox_easy(c, m, len, nonce, key);
    wipe_stack_below();
}

/* 1 when the MAC verifies (m then holds the len plaintext bytes), else 0. */
static int box_open(uint8_t *m, const uint8_t *c, size_t len,
                    const uint8_t nonce[NONCE_LEN], const uint8_t key[32])
{
    int bad = crypto_secretbox_open_easy(m, c, MAC_LEN + len, nonce, key);
    wipe_stack_below();
    /* whether the MAC verified is what open reports: public */
    zbc_declassify(&bad, sizeof bad);
    return bad == 0;
}

int zbc_keyfile_seal(uint8_t **out, size_t *out_len, const uint8_t *secret,
                     size_t secret_len, const char *pass, size_t pass_len,
                     const struct zbc_kdf_params *params, struct zbc_err *err)
{
    uint8_t key[32], *f, *p;
    size_t n = ZBC_KEYFILE_OVERHEAD + secret_len;
    if (secret_len == 0 || secret_len > ZBC_KEYFILE_SECRET_MAX)
        return zbc_fail(err, "secret of %zu bytes cannot be stored (1..%d)",
                        secret_len, ZBC_KEYFILE_SECRET_MAX);
    if (!check_params(params->opslimit, params->memlimit, err))
        return 0;
    f = malloc(n);
    if (f == NULL)
        return zbc_fail(err, "out of memory sealing the key file");
    p = f;
    memcpy(p, magic, 6);
    p += 6;
    *p++ = KF_VERSION;
    *p++ = KF_KDF_ARGON2ID13;
    zbc_put_le64(p, params->opslimit);
    p += 8;
    zbc_put_le64(p, params->memlimit);
    p += 8;
    randombytes_buf(p, SALT_LEN);
    const uint8_t *salt = p;
    p += SALT_LEN;
    randombytes_buf(p, NONCE_LEN);
    const uint8_t *nonce = p;
    p += NONCE_LEN;
    zbc_put_le32(p, (uint32_t)secret_len); /* <= ZBC_KEYFILE_SECRET_MAX */
    p += 4;
    if (!derive(key, pass, pass_len, salt, params->opslimit, params->memlimit, err)) {
        sodium_memzero(key, sizeof key);
        free(f);
        return 0;
    }
    box_seal(p, secret, secret_len, nonce, key);
    sodium_memzero(key, sizeof key);
    p += MAC_LEN + secret_len;
    zbc_sha256(p, f, (size_t)(p - f));
    *out = f;
    *out_len = n;
    return 1;
}

int zbc_keyfile_open(uint8_t *secret, size_t cap, size_t *secret_len,
                     const uint8_t *file, size_t file_len, const char *pass,
                     size_t pass_len, struct zbc_err *err)
{
    uint8_t key[32], sum[32];
    uint64_t ops, mem;
    uint32_t slen;
    const uint8_t *salt, *nonce, *ct;
    if (file_len < 8 || memcmp(file, magic, 6) != 0)
        return zbc_fail(err, "not a ZBC key file (bad magic)");
    if (file[6] != KF_VERSION)
        return zbc_fail(err, "key file version %u is not supported (only %d)",
                        file[6], KF_VERSION);
    if (file[7] != KF_KDF_ARGON2ID13)
        return zbc_fail(err, "key file uses unknown key derivation %u", file[7]);
    if (file_len < ZBC_KEYFILE_OVERHEAD)
        return zbc_fail(err, "key file is truncated (%zu bytes, at least %d needed)",
                        file_len, ZBC_KEYFILE_OVERHEAD);
    ops = zbc_get_le64(file + 8);
    mem = zbc_get_le64(file + 16);
    salt = file + 24;
    nonce = salt + SALT_LEN;
    slen = zbc_get_le32(nonce + NONCE_LEN);
    ct = file + ZBC_KEYFILE_HEADER_LEN;
    if (slen == 0 || slen > ZBC_KEYFILE_SECRET_MAX)
        return zbc_fail(err, "key file is corrupt (secret length %u)", slen);
    if (file_len != ZBC_KEYFILE_OVERHEAD + (size_t)slen)
        return zbc_fail(err, "key file is %s (%zu bytes, %zu expected)",
                        file_len < ZBC_KEYFILE_OVERHEAD + (size_t)slen ? "truncated" : "corrupt",
                        file_len, ZBC_KEYFILE_OVERHEAD + (size_t)slen);
    zbc_sha256(sum, file, file_len - 32);
    if (sodium_memcmp(sum, file + file_len - 32, 32) != 0)
        return zbc_fail(err, "key file is corrupt (checksum mismatch)");
    if (!check_params(ops, mem, err))
        return zbc_fail_prefix(err, "key file");
    if (cap < slen)
        return zbc_fail(err, "secret of %u bytes does not fit the %zu-byte buffer",
                        slen, cap);
    if (!derive(key, pass, pass_len, salt, ops, mem, err)) {
        sodium_memzero(key, sizeof key);
        return 0;
    }
    int opened = box_open(secret, ct, slen, nonce, key);
    sodium_memzero(key, sizeof key);
    if (!opened) {
        sodium_memzero(secret, slen);
        return zbc_fail(err, "wrong passphrase for this key file");
    }
    *secret_len = slen;
    return 1;
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return 0;
        p += w;
        n -= (size_t)w;
    }
    return 1;
}

static int fsync_dir_of(const char *path)
{
    char *copy = strdup(path);
    int ok = 0;
    if (copy == NULL)
        return 0;
    int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        ok = fsync(fd) == 0;
        close(fd);
    }
    free(copy);
    return ok;
}

int zbc_keyfile_write(const char *path, const uint8_t *secret,
                      size_t secret_len, const char *pass, size_t pass_len,
                      const struct zbc_kdf_params *params, bool overwrite,
                      struct zbc_err *err)
{
    uint8_t *img = NULL;
    size_t n;
    char *tmp;
    int fd, ok = 0;
    size_t plen = strlen(path);
    if (!zbc_keyfile_seal(&img, &n, secret, secret_len, pass, pass_len, params, err))
        return 0;
    tmp = malloc(plen + 16);
    if (tmp == NULL) {
        free(img);
        return zbc_fail(err, "out of memory writing %s", path);
    }
    snprintf(tmp, plen + 16, "%s.tmp.XXXXXX", path);
    fd = mkstemp(tmp); /* created with mode 0600 */
    if (fd < 0) {
        zbc_fail(err, "cannot create a temporary file next to %s: %s", path,
                 strerror(errno));
        goto out;
    }
    if (fchmod(fd, 0600) != 0 || !write_all(fd, img, n) || fsync(fd) != 0) {
        zbc_fail(err, "cannot write %s: %s", tmp, strerror(errno));
        close(fd);
        unlink(tmp);
        goto out;
    }
    if (close(fd) != 0) {
        zbc_fail(err, "cannot write %s: %s", tmp, strerror(errno));
        unlink(tmp);
        goto out;
    }
    if (overwrite) {
        if (rename(tmp, path) != 0) {
            zbc_fail(err, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
            unlink(tmp);
            goto out;
        }
    } else {
        /* link() fails with EEXIST instead of replacing: no clobbering */
        if (link(tmp, path) != 0) {
            if (errno == EEXIST)
                zbc_fail(err, "key file %s already exists", path);
            else
                zbc_fail(err, "cannot create %s: %s", path, strerror(errno));
            unlink(tmp);
            goto out;
        }
        unlink(tmp);
    }
    if (!fsync_dir_of(path)) {
        zbc_fail(err, "cannot fsync the directory of %s: %s", path, strerror(errno));
        goto out;
    }
    ok = 1;
out:
    sodium_memzero(img, n);
    free(img);
    free(tmp);
    return ok;
}

int zbc_keyfile_read(const char *path, uint8_t *secret, size_t cap,
                     size_t *secret_len, const char *pass, size_t pass_len,
                     struct zbc_err *err)
{
    uint8_t buf[ZBC_KEYFILE_MAX + 1];
    size_t n = 0;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return zbc_fail(err, "cannot open key file %s: %s", path, strerror(errno));
    while (n < sizeof buf) {
        ssize_t r = read(fd, buf + n, sizeof buf - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int e = errno;
            close(fd);
            return zbc_fail(err, "cannot read key file %s: %s", path, strerror(e));
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    if (n > ZBC_KEYFILE_MAX)
        return zbc_fail(err, "key file %s is larger than %d bytes", path, ZBC_KEYFILE_MAX);
    int ok = zbc_keyfile_open(secret, cap, secret_len, buf, n, pass, pass_len, err);
    sodium_memzero(buf, sizeof buf);
    if (!ok)
        return zbc_fail_prefix(err, "%s", path);
    return 1;
}
