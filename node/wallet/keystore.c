#include "node/wallet/keystore.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crypto/address.h"
#include "crypto/hex.h"
#include "crypto/keyfile.h"
#include "crypto/sig.h"
#include "node/wallet/out.h"
#include "node/wallet/passphrase.h"

int zbc_keystore_dir(char out[ZBC_WALLET_PATH_MAX], const struct zbc_opts *o,
                     struct zbc_wfail *f)
{
    int n;
    if (o->wallet_dir != NULL) {
        n = snprintf(out, ZBC_WALLET_PATH_MAX, "%s", o->wallet_dir);
    } else {
        const char *home = getenv("HOME");
        if (home == NULL || home[0] == '\0')
            return zbc_wfail(f, ZBC_EXIT_USAGE, "HOME is not set: give --wallet DIR or ZBC_WALLET");
        n = snprintf(out, ZBC_WALLET_PATH_MAX, "%s/.zbc", home);
    }
    if (n <= 0 || n >= ZBC_WALLET_PATH_MAX - 200)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "the wallet directory path is too long");
    return 1;
}

static int valid_name(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > ZBC_KEY_NAME_MAX || name[0] == '.')
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-'))
            return 0;
    }
    return 1;
}

static int key_path(char out[ZBC_WALLET_PATH_MAX], const struct zbc_opts *o, const char *name,
                    const char *ext, struct zbc_wfail *f)
{
    char dir[ZBC_WALLET_PATH_MAX];
    if (!valid_name(name))
        return zbc_wfail(f, ZBC_EXIT_USAGE,
                         "key name '%s' must be 1-64 characters of A-Z a-z 0-9 . _ - (not starting with '.')",
                         name);
    if (!zbc_keystore_dir(dir, o, f))
        return 0;
    snprintf(out, ZBC_WALLET_PATH_MAX, "%s/keys/%s%s", dir, name, ext);
    return 1;
}

static int make_dirs(const struct zbc_opts *o, struct zbc_wfail *f)
{
    char dir[ZBC_WALLET_PATH_MAX], keys[ZBC_WALLET_PATH_MAX];
    if (!zbc_keystore_dir(dir, o, f))
        return 0;
    snprintf(keys, sizeof keys, "%s/keys", dir);
    if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "cannot create the wallet directory %s: %s", dir,
                         strerror(errno));
    if (mkdir(keys, 0700) != 0 && errno != EEXIST)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "cannot create %s: %s", keys, strerror(errno));
    return 1;
}

/* ZBC_WALLET_KDF=interactive selects libsodium's interactive Argon2id
 * limits (64 MiB) instead of the moderate default (256 MiB): for tests and
 * the devnet's throw-away demo keys. */
static void kdf_params(struct zbc_kdf_params *p)
{
    zbc_keyfile_default_params(p);
    const char *k = getenv("ZBC_WALLET_KDF");
    if (k != NULL && strcmp(k, "interactive") == 0) {
        p->opslimit = crypto_pwhash_OPSLIMIT_INTERACTIVE;
        p->memlimit = crypto_pwhash_MEMLIMIT_INTERACTIVE;
    }
}

int zbc_keystore_save(const struct zbc_opts *o, const char *name, const uint8_t seed[32],
                      const char *passphrase, char path[ZBC_WALLET_PATH_MAX],
                      struct zbc_wfail *f)
{
    char pub[ZBC_WALLET_PATH_MAX];
    struct zbc_err err;
    if (!key_path(path, o, name, ".key", f) || !key_path(pub, o, name, ".pub", f))
        return 0;
    if (!make_dirs(o, f))
        return 0;
    if (access(path, F_OK) == 0)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "the wallet already has a key named '%s' (%s)", name,
                         path);
    uint8_t pk[32], sk[64];
    zbc_ed25519_keypair(pk, sk, seed);
    sodium_memzero(sk, sizeof sk);
    struct zbc_kdf_params p;
    kdf_params(&p);
    if (!zbc_keyfile_write(path, seed, 32, passphrase, strlen(passphrase), &p, false, &err))
        return zbc_wfail_err(f, ZBC_EXIT_USAGE, &err, "cannot write the key file");
    char line[66];
    zbc_hex_encode(line, pk, 32);
    line[64] = '\n';
    int fd = open(pub, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || write(fd, line, 65) != 65 || close(fd) != 0)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "cannot write %s: %s", pub, strerror(errno));
    return 1;
}

/* Fills names with the sorted key names (NAME of keys/NAME.key). */
static int list_names(const struct zbc_opts *o, char ***names, size_t *count,
                      struct zbc_wfail *f)
{
    char dir[ZBC_WALLET_PATH_MAX], keys[ZBC_WALLET_PATH_MAX];
    *names = NULL;
    *count = 0;
    if (!zbc_keystore_dir(dir, o, f))
        return 0;
    snprintf(keys, sizeof keys, "%s/keys", dir);
    DIR *d = opendir(keys);
    if (d == NULL)
        return 1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n <= 4 || strcmp(e->d_name + n - 4, ".key") != 0 || e->d_name[0] == '.')
            continue;
        char **grown = realloc(*names, (*count + 1) * sizeof **names);
        if (grown == NULL)
            break;
        *names = grown;
        (*names)[*count] = strndup(e->d_name, n - 4);
        if ((*names)[*count] != NULL)
            (*count)++;
    }
    closedir(d);
    for (size_t i = 1; i < *count; i++)
        for (size_t j = i; j > 0 && strcmp((*names)[j - 1], (*names)[j]) > 0; j--) {
            char *t = (*names)[j];
            (*names)[j] = (*names)[j - 1];
            (*names)[j - 1] = t;
        }
    return 1;
}

static void free_names(char **names, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(names[i]);
    free(names);
}

/* name NULL: the only key, or "default". */
static int resolve(char out[ZBC_KEY_NAME_MAX + 1], const struct zbc_opts *o, const char *name,
                   struct zbc_wfail *f)
{
    if (name != NULL) {
        if (!valid_name(name))
            return zbc_wfail(f, ZBC_EXIT_USAGE, "'%s' is not a key name", name);
        snprintf(out, ZBC_KEY_NAME_MAX + 1, "%s", name);
        return 1;
    }
    char **names;
    size_t count;
    if (!list_names(o, &names, &count, f))
        return 0;
    int ok = 1;
    int have_default = 0;
    for (size_t i = 0; i < count; i++)
        if (strcmp(names[i], "default") == 0)
            have_default = 1;
    if (have_default)
        snprintf(out, ZBC_KEY_NAME_MAX + 1, "default");
    else if (count == 1)
        snprintf(out, ZBC_KEY_NAME_MAX + 1, "%s", names[0]);
    else if (count == 0)
        ok = zbc_wfail(f, ZBC_EXIT_USAGE, "the wallet has no key: create one with zbc key new");
    else
        ok = zbc_wfail(f, ZBC_EXIT_USAGE,
                       "the wallet has %zu keys and none is named 'default': choose one with --from NAME",
                       count);
    free_names(names, count);
    return ok;
}

int zbc_keystore_pubkey(const struct zbc_opts *o, const char *name, uint8_t pk[32],
                        char *name_out, struct zbc_wfail *f)
{
    char n[ZBC_KEY_NAME_MAX + 1], path[ZBC_WALLET_PATH_MAX];
    if (!resolve(n, o, name, f) || !key_path(path, o, n, ".pub", f))
        return 0;
    char line[80] = "";
    FILE *fp = fopen(path, "r");
    if (fp == NULL)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "the wallet has no key named '%s'", n);
    char *got = fgets(line, sizeof line, fp);
    fclose(fp);
    if (got != NULL && strlen(line) >= 64)
        line[64] = '\0';
    if (got == NULL || strlen(line) != 64 || !zbc_hex_decode_exact(pk, 32, line))
        return zbc_wfail(f, ZBC_EXIT_INTERNAL, "%s does not hold a public key", path);
    if (name_out != NULL)
        snprintf(name_out, ZBC_KEY_NAME_MAX + 1, "%s", n);
    return 1;
}

int zbc_keystore_load(const struct zbc_opts *o, const char *name, uint8_t seed[32],
                      struct zbc_wfail *f)
{
    char n[ZBC_KEY_NAME_MAX + 1], path[ZBC_WALLET_PATH_MAX];
    if (!resolve(n, o, name, f) || !key_path(path, o, n, ".key", f))
        return 0;
    if (access(path, F_OK) != 0)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "the wallet has no key named '%s'", n);
    /* docs/wallet.md "Key files": the file is 0600; wider is only warned
     * about (the seed is encrypted), since refusing would lock the owner
     * out of a key copied with the wrong mode */
    struct stat st;
    if (stat(path, &st) == 0 && (st.st_mode & 077) != 0)
        fprintf(stderr,
                "zbc: warning: key file %s is accessible by group or others (mode %03o); "
                "run chmod 600 %s\n", path, (unsigned)(st.st_mode & 0777), path);
    char pass[ZBC_PASSPHRASE_MAX];
    if (!zbc_passphrase_get(pass, o, 0, f))
        return 0;
    struct zbc_err err;
    size_t len;
    uint8_t secret[ZBC_KEYFILE_SECRET_MAX];
    int ok = zbc_keyfile_read(path, secret, sizeof secret, &len, pass, strlen(pass), &err);
    sodium_memzero(pass, sizeof pass);
    if (!ok)
        return zbc_wfail(f, ZBC_EXIT_VERIFY_FAILED, "cannot open key '%s': %s", n, err.msg);
    if (len != 32) {
        sodium_memzero(secret, sizeof secret);
        return zbc_wfail(f, ZBC_EXIT_INTERNAL, "key file %s holds %zu bytes, not a 32-byte seed",
                         path, len);
    }
    memcpy(seed, secret, 32);
    sodium_memzero(secret, sizeof secret);
    /* the clear public key must belong to this seed */
    uint8_t pk[32], pk2[32], sk[64];
    zbc_ed25519_keypair(pk, sk, seed);
    sodium_memzero(sk, sizeof sk);
    if (!zbc_keystore_pubkey(o, n, pk2, NULL, f))
        return 0;
    if (memcmp(pk, pk2, 32) != 0)
        return zbc_wfail(f, ZBC_EXIT_INTERNAL, "%s.pub does not match the key in %s", n, path);
    return 1;
}

int zbc_keystore_list(const struct zbc_opts *o, json_t **arr, struct zbc_wfail *f)
{
    char **names;
    size_t count;
    if (!list_names(o, &names, &count, f))
        return 0;
    json_t *a = json_array();
    for (size_t i = 0; i < count; i++) {
        uint8_t pk[32];
        char path[ZBC_WALLET_PATH_MAX];
        struct zbc_wfail pf = {0};
        json_t *k = json_object();
        json_object_set_new(k, "name", json_string(names[i]));
        if (zbc_keystore_pubkey(o, names[i], pk, NULL, &pf)) {
            char text[ZBC_ADDR_TEXT_MAX];
            struct zbc_addr ad;
            zbc_addr_from_ed25519(&ad, pk);
            zbc_addr_to_text(text, &ad);
            json_object_set_new(k, "address", json_string(text));
            json_object_set_new(k, "public_key", zbc_json_hex(pk, 32));
        } else {
            json_object_set_new(k, "error", json_string(pf.err.msg));
        }
        if (key_path(path, o, names[i], ".key", &pf))
            json_object_set_new(k, "file", json_string(path));
        json_array_append_new(a, k);
    }
    free_names(names, count);
    *arr = a;
    return 1;
}
