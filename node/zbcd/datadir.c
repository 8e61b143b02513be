#include "node/zbcd/datadir.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crypto/hex.h"

#define KEY_FILE ZBC_DATADIR_KEY
#define TOKEN_FILE ZBC_DATADIR_TOKEN
#define GENESIS_FILE ZBC_DATADIR_GENESIS
#define LEDGER_DIR ZBC_DATADIR_LEDGER
#define GENESIS_FILE_MAX (16u << 20)

int zbc_datadir_path(char *out, size_t cap, const char *dir, const char *name,
                     struct zbc_err *err)
{
    int n = snprintf(out, cap, "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= cap)
        return zbc_fail(err, "path %s/%s is too long", dir, name);
    return 1;
}

static int mkdir_p(const char *dir, struct zbc_err *err)
{
    char path[ZBC_DATADIR_PATH_MAX];
    size_t n = strlen(dir);
    if (n == 0 || n >= sizeof path)
        return zbc_fail(err, "data directory path '%s' is empty or too long",
                        dir);
    memcpy(path, dir, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (path[i] != '/' && path[i] != '\0')
            continue;
        char c = path[i];
        path[i] = '\0';
        if (mkdir(path, 0700) != 0 && errno != EEXIST)
            return zbc_fail(err, "cannot create directory %s: %s", path,
                            strerror(errno));
        path[i] = c;
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return zbc_fail(err, "%s is not a directory", dir);
    return 1;
}

int zbc_read_file(const char *path, size_t max, char **out, size_t *len,
                  struct zbc_err *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return zbc_fail(err, "cannot open %s: %s", path, strerror(errno));
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    if (buf == NULL) {
        close(fd);
        return zbc_fail(err, "out of memory reading %s", path);
    }
    for (;;) {
        if (n > max) {
            free(buf);
            close(fd);
            return zbc_fail(err, "%s is larger than %zu bytes", path, max);
        }
        if (n == cap) {
            /* one byte beyond max tells "exactly max" from "too large" */
            cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
            char *nb = realloc(buf, cap + 1);
            if (nb == NULL) {
                free(buf);
                close(fd);
                return zbc_fail(err, "out of memory reading %s", path);
            }
            buf = nb;
        }
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            free(buf);
            close(fd);
            return zbc_fail(err, "cannot read %s: %s", path, strerror(errno));
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return 1;
}

/* Writes PATH.tmp (exclusive: PATH.PID.tmp), syncs it and puts it in
 * place: renamed over PATH, or (exclusive) linked as PATH only if PATH does
 * not exist yet, so of two processes creating PATH at once one fails. */
static int write_file_as(const char *path, const void *data, size_t len,
                         unsigned mode, bool exclusive, struct zbc_err *err)
{
    char tmp[ZBC_DATADIR_PATH_MAX];
    int n = exclusive ? snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path,
                                 (long)getpid())
                      : snprintf(tmp, sizeof tmp, "%s.tmp", path);
    if (n < 0 || (size_t)n >= sizeof tmp)
        return zbc_fail(err, "path %s is too long", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
    if (fd < 0)
        return zbc_fail(err, "cannot create %s: %s", tmp, strerror(errno));
    const uint8_t *p = data;
    size_t left = len;
    while (left > 0) {
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0) {
            int e = errno;
            close(fd);
            unlink(tmp);
            return zbc_fail(err, "cannot write %s: %s", tmp, strerror(e));
        }
        p += w;
        left -= (size_t)w;
    }
    /* The umask may have narrowed the mode; a key file must be exactly it. */
    if (fchmod(fd, mode) != 0 || fsync(fd) != 0) {
        int e = errno;
        close(fd);
        unlink(tmp);
        return zbc_fail(err, "cannot finish %s: %s", tmp, strerror(e));
    }
    close(fd);
    if (exclusive) {
        int rc = link(tmp, path), e = errno;
        unlink(tmp);
        if (rc != 0)
            return zbc_fail(err, "cannot create %s: %s", path, strerror(e));
        return 1;
    }
    if (rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        return zbc_fail(err, "cannot rename %s to %s: %s", tmp, path,
                        strerror(e));
    }
    return 1;
}

int zbc_write_file(const char *path, const void *data, size_t len,
                   unsigned mode, struct zbc_err *err)
{
    return write_file_as(path, data, len, mode, false, err);
}

static int write_secret_hex(const char *dir, const char *name,
                            const uint8_t bytes[32], bool exclusive,
                            struct zbc_err *err)
{
    char path[ZBC_DATADIR_PATH_MAX];
    char line[66];
    if (!zbc_datadir_path(path, sizeof path, dir, name, err))
        return 0;
    zbc_hex_encode(line, bytes, 32);
    line[64] = '\n';
    line[65] = '\0';
    int ok = write_file_as(path, line, 65, 0600, exclusive, err);
    sodium_memzero(line, sizeof line);
    return ok;
}

/* Reads a 0600 file holding 64 hex characters and an optional newline. */
static int read_secret_hex(const char *dir, const char *name, char hex[65],
                           struct zbc_err *err)
{
    char path[ZBC_DATADIR_PATH_MAX];
    if (!zbc_datadir_path(path, sizeof path, dir, name, err))
        return 0;
    struct stat st;
    if (stat(path, &st) != 0)
        return zbc_fail(err, "cannot read %s: %s (run `zbcd init` first)",
                        path, strerror(errno));
    if ((st.st_mode & 077) != 0)
        return zbc_fail(err, "%s is readable by other users (mode %03o); "
                        "chmod 600 it", path, (unsigned)(st.st_mode & 0777));
    char *buf;
    size_t len;
    if (!zbc_read_file(path, 256, &buf, &len, err))
        return 0;
    while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r' ||
                       buf[len - 1] == ' '))
        len--;
    int ok = 1;
    if (len != 64)
        ok = zbc_fail(err, "%s must hold 64 hex characters, found %zu", path,
                      len);
    else
        memcpy(hex, buf, 64);
    hex[64] = '\0';
    sodium_memzero(buf, len);
    free(buf);
    return ok;
}

int zbc_datadir_load_key(const char *dir, struct zbc_node_key *key,
                         struct zbc_err *err)
{
    char hex[65];
    if (!read_secret_hex(dir, KEY_FILE, hex, err))
        return 0;
    int ok = zbc_hex_decode_exact(key->seed, 32, hex);
    sodium_memzero(hex, sizeof hex);
    if (!ok)
        return zbc_fail(err, "%s/%s is not 64 hex characters", dir, KEY_FILE);
    crypto_sign_seed_keypair(key->pk, key->sk, key->seed);
    return 1;
}

bool zbc_datadir_mode_warning(const char *dir, char *msg, size_t cap)
{
    struct stat st;
    if (stat(dir, &st) != 0) {
        snprintf(msg, cap, "cannot examine data directory %s: %s", dir,
                 strerror(errno));
        return true;
    }
    if ((st.st_mode & 077) == 0)
        return false;
    snprintf(msg, cap, "data directory %s is accessible by other users "
             "(mode %03o); chmod 700 it", dir, (unsigned)(st.st_mode & 0777));
    return true;
}

int zbc_datadir_load_token(const char *dir, char token[ZBC_API_TOKEN_HEX + 1],
                           struct zbc_err *err)
{
    if (!read_secret_hex(dir, TOKEN_FILE, token, err))
        return 0;
    uint8_t b[32];
    if (!zbc_hex_decode_exact(b, 32, token))
        return zbc_fail(err, "%s/%s is not 64 hex characters", dir,
                        TOKEN_FILE);
    return 1;
}

int zbc_datadir_init(const char *dir, const char *genesis_path,
                     struct zbc_node_key *key, struct zbc_err *err)
{
    char path[ZBC_DATADIR_PATH_MAX];
    if (sodium_init() < 0)
        return zbc_fail(err, "libsodium failed to initialise");
    if (!mkdir_p(dir, err))
        return 0;
    if (!zbc_datadir_path(path, sizeof path, dir, KEY_FILE, err))
        return 0;
    if (access(path, F_OK) == 0)
        return zbc_fail(err, "data directory %s is already initialised (%s "
                        "exists)", dir, path);
    char *genesis = NULL;
    size_t genesis_len = 0;
    if (genesis_path != NULL &&
        !zbc_read_file(genesis_path, GENESIS_FILE_MAX, &genesis, &genesis_len,
                       err))
        return 0;

    uint8_t token[32];
    randombytes_buf(key->seed, sizeof key->seed);
    randombytes_buf(token, sizeof token);
    crypto_sign_seed_keypair(key->pk, key->sk, key->seed);
    int ok = write_secret_hex(dir, TOKEN_FILE, token, false, err) &&
             zbc_datadir_path(path, sizeof path, dir, LEDGER_DIR, err) &&
             mkdir_p(path, err);
    if (ok && genesis != NULL)
        ok = zbc_datadir_path(path, sizeof path, dir, GENESIS_FILE, err) &&
             zbc_write_file(path, genesis, genesis_len, 0644, err);
    /* The key goes last: its presence marks a complete init.  It never
     * replaces one that another init created meanwhile. */
    if (ok) {
        ok = write_secret_hex(dir, KEY_FILE, key->seed, true, err);
        if (!ok && zbc_datadir_path(path, sizeof path, dir, KEY_FILE, err) &&
            access(path, F_OK) == 0)
            zbc_fail(err, "data directory %s is already initialised (%s "
                     "exists)", dir, path);
    }
    sodium_memzero(token, sizeof token);
    free(genesis);
    return ok;
}

/* The lock is taken on the data directory itself: a lock file can be
 * deleted under a running node, and the next zbcd would then lock a new
 * file and open the same ledger beside it. */
int zbc_datadir_lock(const char *dir, int *fd, struct zbc_err *err)
{
    int f = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (f < 0)
        return zbc_fail(err, "cannot open %s: %s", dir, strerror(errno));
    if (flock(f, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        close(f);
        if (e == EWOULDBLOCK)
            return zbc_fail(err, "another zbcd is running on %s", dir);
        return zbc_fail(err, "cannot lock %s: %s", dir, strerror(e));
    }
    *fd = f;
    return 1;
}
