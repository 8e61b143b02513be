/* Wallet key files: round trip, the documented byte layout (decrypted here
 * with libsodium directly), wrong passphrase, truncation and corruption,
 * atomic 0600 writes.  Argon2id runs with the minimum limits to stay fast. */
#define _GNU_SOURCE /* memmem */
#include <dirent.h>
#include <sodium.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crypto/bytes.h"
#include "crypto/keyfile.h"
#include "testlib.h"

static const struct zbc_kdf_params fast = {crypto_pwhash_OPSLIMIT_MIN,
                                           crypto_pwhash_MEMLIMIT_MIN};
static const uint8_t seed[32] = {
    0x51, 0xba, 0xe9, 0x5d, 0x58, 0xf3, 0x23, 0x04, 0xa5, 0xc9, 0xd8,
    0x94, 0x81, 0x99, 0x89, 0xa4, 0xfb, 0x04, 0xda, 0x61, 0x15, 0xd9,
    0xa4, 0x36, 0x12, 0xa0, 0x26, 0xe7, 0xa5, 0xdd, 0x5d, 0x96};

static void test_round_trip(void)
{
    uint8_t *img = NULL, out[64];
    size_t n = 0, m = 0;
    struct zbc_err err;
    CHECK(zbc_keyfile_seal(&img, &n, seed, 32, "pw", 2, &fast, &err));
    CHECK_EQ_INT(n, ZBC_KEYFILE_OVERHEAD + 32);
    CHECK(zbc_keyfile_open(out, sizeof out, &m, img, n, "pw", 2, &err));
    CHECK_EQ_INT(m, 32);
    CHECK_EQ_MEM(out, seed, 32);
    /* the ciphertext does not contain the seed */
    CHECK(memmem(img, n, seed, 32) == NULL);
    free(img);
}

/* The layout of docs/protocol-tx.md, read with libsodium alone. */
static void test_documented_layout(void)
{
    uint8_t *img = NULL, key[32], out[32], sum[32];
    size_t n = 0;
    struct zbc_err err;
    CHECK(zbc_keyfile_seal(&img, &n, seed, 32, "correct horse", 13, &fast, &err));
    CHECK(memcmp(img, "ZBCKEY", 6) == 0);
    CHECK_EQ_INT(img[6], 1);
    CHECK_EQ_INT(img[7], 1);
    uint64_t ops = zbc_get_le64(img + 8), mem = zbc_get_le64(img + 16);
    CHECK(ops == crypto_pwhash_OPSLIMIT_MIN);
    CHECK(mem == crypto_pwhash_MEMLIMIT_MIN);
    CHECK_EQ_INT(zbc_get_le32(img + 64), 32);
    CHECK(crypto_pwhash(key, 32, "correct horse", 13, img + 24, ops, (size_t)mem,
                        crypto_pwhash_ALG_ARGON2ID13) == 0);
    CHECK(crypto_secretbox_open_easy(out, img + 68, 48, img + 40, key) == 0);
    CHECK_EQ_MEM(out, seed, 32);
    crypto_hash_sha256(sum, img, n - 32);
    CHECK_EQ_MEM(sum, img + n - 32, 32);
    /* salt and nonce are fresh each time */
    uint8_t *img2 = NULL;
    size_t n2;
    CHECK(zbc_keyfile_seal(&img2, &n2, seed, 32, "correct horse", 13, &fast, &err));
    CHECK(memcmp(img + 24, img2 + 24, 40) != 0);
    free(img);
    free(img2);
}

static void test_wrong_passphrase(void)
{
    uint8_t *img = NULL, out[32];
    size_t n = 0, m;
    struct zbc_err err;
    CHECK(zbc_keyfile_seal(&img, &n, seed, 32, "right", 5, &fast, &err));
    CHECK(!zbc_keyfile_open(out, sizeof out, &m, img, n, "wrong", 5, &err));
    CHECK_EQ_STR(err.msg, "wrong passphrase for this key file");
    CHECK(!zbc_keyfile_open(out, sizeof out, &m, img, n, "", 0, &err));
    CHECK_EQ_STR(err.msg, "wrong passphrase for this key file");
    free(img);
}

static void test_truncated_and_corrupt(void)
{
    uint8_t *img = NULL, out[32];
    size_t n = 0, m;
    struct zbc_err err;
    CHECK(zbc_keyfile_seal(&img, &n, seed, 32, "pw", 2, &fast, &err));
    int rejected = 0, said_passphrase = 0;
    for (size_t len = 0; len < n; len++) {
        uint8_t *c = malloc(len ? len : 1);
        memcpy(c, img, len);
        if (!zbc_keyfile_open(out, sizeof out, &m, c, len, "pw", 2, &err)) {
            rejected++;
            if (strstr(err.msg, "passphrase"))
                said_passphrase++;
        }
        free(c);
    }
    CHECK_EQ_INT(rejected, n);
    CHECK_EQ_INT(said_passphrase, 0);
    CHECK(!zbc_keyfile_open(out, sizeof out, &m, img, n - 1, "pw", 2, &err));
    CHECK(strstr(err.msg, "truncated") != NULL);
    /* every single flipped bit is caught, never reported as a passphrase */
    rejected = said_passphrase = 0;
    for (size_t bit = 0; bit < n * 8; bit++) {
        img[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        if (!zbc_keyfile_open(out, sizeof out, &m, img, n, "pw", 2, &err)) {
            rejected++;
            if (strstr(err.msg, "passphrase"))
                said_passphrase++;
        }
        img[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    }
    CHECK_EQ_INT(rejected, n * 8);
    CHECK_EQ_INT(said_passphrase, 0);
    /* specific messages */
    img[0] ^= 1;
    CHECK(!zbc_keyfile_open(out, sizeof out, &m, img, n, "pw", 2, &err));
    CHECK_EQ_STR(err.msg, "not a ZBC key file (bad magic)");
    img[0] ^= 1;
    img[6] = 2;
    CHECK(!zbc_keyfile_open(out, sizeof out, &m, img, n, "pw", 2, &err));
    CHECK(strstr(err.msg, "version 2") != NULL);
    img[6] = 1;
    img[7] = 9;
    CHECK(!zbc_keyfile_open(out, sizeof out, &m, img, n, "pw", 2, &err));
    CHECK(strstr(err.msg, "unknown key derivation") != NULL);
    img[7] = 1;
    img[80] ^= 0x40;
    CHECK(!zbc_keyfile_open(out, sizeof out, &m, img, n, "pw", 2, &err));
    CHECK_EQ_STR(err.msg, "key file is corrupt (checksum mismatch)");
    img[80] ^= 0x40;
    /* appended bytes */
    uint8_t *longer = malloc(n + 1);
    memcpy(longer, img, n);
    longer[n] = 0;
    CHECK(!zbc_keyfile_open(out, sizeof out, &m, longer, n + 1, "pw", 2, &err));
    CHECK(strstr(err.msg, "corrupt") != NULL);
    free(longer);
    /* too small an output buffer */
    CHECK(!zbc_keyfile_open(out, 31, &m, img, n, "pw", 2, &err));
    CHECK(strstr(err.msg, "does not fit") != NULL);
    CHECK(zbc_keyfile_open(out, sizeof out, &m, img, n, "pw", 2, &err));
    free(img);
}

/* A file whose checksum was recomputed after raising memlimit past the cap
 * is refused before any derivation runs. */
static void test_limits_in_file(void)
{
    uint8_t *img = NULL, out[32];
    size_t n = 0, m;
    struct zbc_err err;
    CHECK(zbc_keyfile_seal(&img, &n, seed, 32, "pw", 2, &fast, &err));
    uint64_t big = (uint64_t)crypto_pwhash_MEMLIMIT_SENSITIVE + 1;
    zbc_put_le64(img + 16, big);
    crypto_hash_sha256(img + n - 32, img, n - 32);
    CHECK(!zbc_keyfile_open(out, sizeof out, &m, img, n, "pw", 2, &err));
    CHECK(strstr(err.msg, "memlimit") != NULL);
    free(img);
}

/* opslimit is a u64 in the file and libsodium takes up to 2^32 - 1 passes:
 * a file edited to ask for that (checksum recomputed, it is unkeyed) would
 * keep the wallet deriving for days.  The file may ask for at most the
 * work of libsodium's SENSITIVE profile (opslimit x memlimit <= 4 passes
 * over 1 GiB) and is refused before any derivation runs.  The alarm turns
 * a runaway derivation into a failure instead of a hang. */
static void test_work_limit_in_file(void)
{
    uint8_t *img = NULL, out[32];
    size_t n = 0, m;
    struct zbc_err err;
    CHECK(zbc_keyfile_seal(&img, &n, seed, 32, "pw", 2, &fast, &err));
    uint64_t ops = crypto_pwhash_OPSLIMIT_MAX;
    zbc_put_le64(img + 8, ops);
    crypto_hash_sha256(img + n - 32, img, n - 32);
    alarm(30);
    CHECK(!zbc_keyfile_open(out, sizeof out, &m, img, n, "pw", 2, &err));
    alarm(0);
    CHECK(strstr(err.msg, "opslimit") != NULL);
    free(img);
    /* the same bound when sealing: with the smallest memlimit, one pass
     * more than SENSITIVE's work is refused; with 1 GiB, a fifth pass */
    struct zbc_kdf_params p = fast;
    uint64_t work = (uint64_t)crypto_pwhash_OPSLIMIT_SENSITIVE *
                    crypto_pwhash_MEMLIMIT_SENSITIVE;
    p.opslimit = work / crypto_pwhash_MEMLIMIT_MIN + 1;
    img = NULL;
    CHECK(!zbc_keyfile_seal(&img, &n, seed, 32, "pw", 2, &p, &err));
    CHECK(strstr(err.msg, "opslimit") != NULL);
    p.opslimit = crypto_pwhash_OPSLIMIT_SENSITIVE + 1;
    p.memlimit = crypto_pwhash_MEMLIMIT_SENSITIVE;
    CHECK(!zbc_keyfile_seal(&img, &n, seed, 32, "pw", 2, &p, &err));
    CHECK(strstr(err.msg, "opslimit") != NULL);
    CHECK(img == NULL);
}

/* Secrets must not stay behind in dead stack frames after seal and open.
 * libsodium leaves some there itself: crypto_secretbox_open_detached never
 * wipes block0, which holds the first 32 plaintext bytes (a whole seed),
 * and Argon2id leaves its output behind.  The stack region below the
 * caller is copied right after each call (from a frame at the same depth)
 * and searched for the seed and the derived key.  Under ASan's fake stacks
 * the snapshot holds nothing, which is a pass. */
#define SNAP 32768
static uint8_t snap[SNAP];
static uint8_t *res_img;
static size_t res_n;

__attribute__((noinline)) static void clear_stack(void)
{
    uint8_t area[2 * SNAP];
    sodium_memzero(area, sizeof area);
}

__attribute__((noinline, no_sanitize_address)) static void snapshot(void)
{
    const volatile uint8_t *top = __builtin_frame_address(0);
    for (size_t i = 0; i < SNAP; i++)
        snap[i] = top[-(ptrdiff_t)SNAP + (ptrdiff_t)i];
}

__attribute__((noinline)) static int res_seal(void)
{
    struct zbc_err err;
    return zbc_keyfile_seal(&res_img, &res_n, seed, 32, "pw", 2, &fast, &err);
}

/* Calls nothing else after open: a first call through the PLT would run
 * the dynamic linker's lazy binding, which saves the vector registers
 * (where libsodium's key material may still sit) onto the stack. */
static uint8_t res_out[32];
static size_t res_m;

__attribute__((noinline)) static int res_open(void)
{
    struct zbc_err err;
    return zbc_keyfile_open(res_out, sizeof res_out, &res_m, res_img, res_n,
                            "pw", 2, &err);
}

static void test_no_secret_left_on_stack(void)
{
    uint8_t key[32];
    clear_stack();
    CHECK(res_seal());
    snapshot();
    CHECK(crypto_pwhash(key, 32, "pw", 2, res_img + 24, fast.opslimit,
                        (size_t)fast.memlimit, crypto_pwhash_ALG_ARGON2ID13) == 0);
    CHECK(memmem(snap, sizeof snap, seed, 32) == NULL);
    CHECK(memmem(snap, sizeof snap, key, 32) == NULL);
    clear_stack();
    int opened = res_open();
    snapshot();
    CHECK(opened);
    CHECK_EQ_INT(res_m, 32);
    CHECK_EQ_MEM(res_out, seed, 32);
    CHECK(memmem(snap, sizeof snap, seed, 32) == NULL);
    CHECK(memmem(snap, sizeof snap, key, 32) == NULL);
    sodium_memzero(key, sizeof key);
    free(res_img);
}

static void test_bad_seal_arguments(void)
{
    uint8_t *img = NULL, big[ZBC_KEYFILE_SECRET_MAX + 1] = {0};
    size_t n;
    struct zbc_err err;
    struct zbc_kdf_params p = fast;
    CHECK(!zbc_keyfile_seal(&img, &n, seed, 0, "pw", 2, &fast, &err));
    CHECK(!zbc_keyfile_seal(&img, &n, big, sizeof big, "pw", 2, &fast, &err));
    CHECK(strstr(err.msg, "cannot be stored") != NULL);
    p.opslimit = 0;
    CHECK(!zbc_keyfile_seal(&img, &n, seed, 32, "pw", 2, &p, &err));
    CHECK(strstr(err.msg, "opslimit") != NULL);
    p = fast;
    p.memlimit = 1024;
    CHECK(!zbc_keyfile_seal(&img, &n, seed, 32, "pw", 2, &p, &err));
    CHECK(strstr(err.msg, "memlimit") != NULL);
    CHECK(img == NULL);
    struct zbc_kdf_params d;
    zbc_keyfile_default_params(&d);
    CHECK(d.opslimit == crypto_pwhash_OPSLIMIT_MODERATE);
    CHECK(d.memlimit == crypto_pwhash_MEMLIMIT_MODERATE);
}

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.')
            n++;
    closedir(d);
    return n;
}

static void test_files(void)
{
    char dir[] = "/tmp/zbc_keyfile_XXXXXX", path[128];
    uint8_t out[32], other[32];
    size_t m;
    struct zbc_err err;
    struct stat st;
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/wallet.key", dir);
    mode_t old = umask(0);
    CHECK(zbc_keyfile_write(path, seed, 32, "pw", 2, &fast, false, &err));
    umask(old);
    CHECK(stat(path, &st) == 0);
    CHECK_EQ_INT(st.st_mode & 0777, 0600);
    CHECK_EQ_INT(st.st_size, ZBC_KEYFILE_OVERHEAD + 32);
    CHECK(zbc_keyfile_read(path, out, sizeof out, &m, "pw", 2, &err));
    CHECK_EQ_MEM(out, seed, 32);
    CHECK(!zbc_keyfile_read(path, out, sizeof out, &m, "px", 2, &err));
    CHECK(strstr(err.msg, "wrong passphrase") != NULL);
    /* no clobbering without overwrite; the old file stays intact */
    memset(other, 7, sizeof other);
    CHECK(!zbc_keyfile_write(path, other, 32, "pw", 2, &fast, false, &err));
    CHECK(strstr(err.msg, "already exists") != NULL);
    CHECK(zbc_keyfile_read(path, out, sizeof out, &m, "pw", 2, &err));
    CHECK_EQ_MEM(out, seed, 32);
    CHECK(zbc_keyfile_write(path, other, 32, "pw2", 3, &fast, true, &err));
    CHECK(zbc_keyfile_read(path, out, sizeof out, &m, "pw2", 3, &err));
    CHECK_EQ_MEM(out, other, 32);
    CHECK(stat(path, &st) == 0);
    CHECK_EQ_INT(st.st_mode & 0777, 0600);
    /* no temporary files left behind */
    CHECK_EQ_INT(count_entries(dir), 1);
    /* truncated file on disk */
    CHECK(truncate(path, 50) == 0);
    CHECK(!zbc_keyfile_read(path, out, sizeof out, &m, "pw2", 3, &err));
    CHECK(strstr(err.msg, "truncated") != NULL);
    unlink(path);
    CHECK(!zbc_keyfile_read(path, out, sizeof out, &m, "pw2", 3, &err));
    CHECK(strstr(err.msg, "cannot open") != NULL);
    /* a directory that does not exist */
    snprintf(path, sizeof path, "%s/missing/wallet.key", dir);
    CHECK(!zbc_keyfile_write(path, seed, 32, "pw", 2, &fast, false, &err));
    CHECK(strstr(err.msg, "temporary file") != NULL);
    rmdir(dir);
}

int main(void)
{
    if (sodium_init() < 0)
        return 1;
    TEST_RUN(test_round_trip);
    TEST_RUN(test_documented_layout);
    TEST_RUN(test_wrong_passphrase);
    TEST_RUN(test_truncated_and_corrupt);
    TEST_RUN(test_limits_in_file);
    TEST_RUN(test_work_limit_in_file);
    TEST_RUN(test_no_secret_left_on_stack);
    TEST_RUN(test_bad_seal_arguments);
    TEST_RUN(test_files);
    return test_summary("crypto_keyfile");
}
