/* Data directory: init, node key and token files (mode 0600), refusals. */
#include <sodium.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crypto/hex.h"
#include "node/zbcd/datadir.h"
#include "node/zbcd/log.h"
#include "testlib.h"

static char base[64];
static char dir[128];

static void fresh(void)
{
    strcpy(base, "/tmp/zbc_test_datadir_XXXXXX");
    if (mkdtemp(base) == NULL)
        exit(2);
    /* a nested path: init creates the parents */
    snprintf(dir, sizeof dir, "%s/a/b", base);
}

static void cleanup(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
    if (system(cmd) != 0)
        fprintf(stderr, "cleanup failed\n");
}

static unsigned mode_of(const char *name)
{
    char p[256];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", dir, name);
    if (stat(p, &st) != 0)
        return 01000;
    return (unsigned)(st.st_mode & 0777);
}

static void test_init_and_load(void)
{
    fresh();
    char gpath[128];
    snprintf(gpath, sizeof gpath, "%s/g.json", base);
    FILE *f = fopen(gpath, "w");
    fputs("{\"chain_name\":\"t\"}", f);
    fclose(f);

    struct zbc_node_key k1, k2;
    struct zbc_err err = {{0}};
    CHECK(zbc_datadir_init(dir, gpath, &k1, &err));
    CHECK_EQ_INT(mode_of("node.key"), 0600);
    CHECK_EQ_INT(mode_of("api.token"), 0600);
    CHECK_EQ_INT(mode_of(""), 0700);
    CHECK(mode_of("ledger") != 01000);

    char *g = NULL;
    size_t glen = 0;
    char p[256];
    snprintf(p, sizeof p, "%s/genesis.json", dir);
    CHECK(zbc_read_file(p, 1024, &g, &glen, &err));
    CHECK_EQ_STR(g, "{\"chain_name\":\"t\"}");
    free(g);

    CHECK(zbc_datadir_load_key(dir, &k2, &err));
    CHECK_EQ_MEM(k1.seed, k2.seed, 32);
    CHECK_EQ_MEM(k1.pk, k2.pk, 32);
    /* the public key is the Ed25519 key of the seed (independent check:
     * sign with libsodium and verify against pk) */
    uint8_t sig[64];
    crypto_sign_detached(sig, NULL, (const uint8_t *)"m", 1, k2.sk);
    CHECK_EQ_INT(crypto_sign_verify_detached(sig, (const uint8_t *)"m", 1,
                                             k1.pk),
                 0);

    char tok[ZBC_API_TOKEN_HEX + 1];
    CHECK(zbc_datadir_load_token(dir, tok, &err));
    CHECK_EQ_INT(strlen(tok), 64);

    /* a second init refuses and keeps the key */
    struct zbc_node_key k3;
    err.msg[0] = '\0';
    CHECK(!zbc_datadir_init(dir, NULL, &k3, &err));
    CHECK(strstr(err.msg, "is already initialised") != NULL);
    CHECK(zbc_datadir_load_key(dir, &k2, &err));
    CHECK_EQ_MEM(k1.seed, k2.seed, 32);
    cleanup();
}

static void test_key_file_errors(void)
{
    fresh();
    struct zbc_node_key k;
    struct zbc_err err = {{0}};
    CHECK(!zbc_datadir_load_key(dir, &k, &err));
    CHECK(strstr(err.msg, "run `zbcd init` first") != NULL);

    CHECK(zbc_datadir_init(dir, NULL, &k, &err));
    char p[256];
    snprintf(p, sizeof p, "%s/node.key", dir);
    CHECK_EQ_INT(chmod(p, 0644), 0);
    err.msg[0] = '\0';
    CHECK(!zbc_datadir_load_key(dir, &k, &err));
    CHECK(strstr(err.msg, "readable by other users (mode 644)") != NULL);

    /* wrong length, then not hex */
    CHECK(zbc_write_file(p, "abcd\n", 5, 0600, &err));
    err.msg[0] = '\0';
    CHECK(!zbc_datadir_load_key(dir, &k, &err));
    CHECK(strstr(err.msg, "must hold 64 hex characters, found 4") != NULL);
    char bad[66];
    memset(bad, 'z', 64);
    bad[64] = '\n';
    CHECK(zbc_write_file(p, bad, 65, 0600, &err));
    err.msg[0] = '\0';
    CHECK(!zbc_datadir_load_key(dir, &k, &err));
    CHECK(strstr(err.msg, "is not 64 hex characters") != NULL);

    /* genesis file that does not exist */
    char d2[160];
    snprintf(d2, sizeof d2, "%s/other", base);
    err.msg[0] = '\0';
    CHECK(!zbc_datadir_init(d2, "/nonexistent/genesis.json", &k, &err));
    CHECK(strstr(err.msg, "cannot open /nonexistent/genesis.json") != NULL);
    cleanup();
}

static void test_lock(void)
{
    fresh();
    struct zbc_node_key k;
    struct zbc_err err = {{0}};
    CHECK(zbc_datadir_init(dir, NULL, &k, &err));
    int fd1 = -1, fd2 = -1;
    CHECK(zbc_datadir_lock(dir, &fd1, &err));
    err.msg[0] = '\0';
    CHECK(!zbc_datadir_lock(dir, &fd2, &err));
    CHECK(strstr(err.msg, "another zbcd is running") != NULL);
    close(fd1);
    CHECK(zbc_datadir_lock(dir, &fd2, &err));
    close(fd2);
    cleanup();
}

static void test_read_file_limit(void)
{
    fresh();
    char p[160];
    snprintf(p, sizeof p, "%s/big", base);
    static char big[10000];
    memset(big, 'x', sizeof big);
    struct zbc_err err = {{0}};
    CHECK(zbc_write_file(p, big, sizeof big, 0644, &err));
    char *out = NULL;
    size_t len = 0;
    CHECK(!zbc_read_file(p, 5000, &out, &len, &err));
    CHECK(strstr(err.msg, "is larger than 5000 bytes") != NULL);
    CHECK(zbc_read_file(p, 10000, &out, &len, &err));
    CHECK_EQ_INT(len, 10000);
    free(out);
    char small[8];
    CHECK(!zbc_datadir_path(small, sizeof small, "/long/dir", "x", &err));
    CHECK(strstr(err.msg, "is too long") != NULL);
    cleanup();
}

/* A data directory open to group or others gets a warning naming its
 * mode; the 0700 one init creates gets none; a group-readable key file is
 * refused like a world-readable one. */
static void test_mode_warnings(void)
{
    fresh();
    struct zbc_node_key k;
    struct zbc_err err = {{0}};
    CHECK(zbc_datadir_init(dir, NULL, &k, &err));
    char msg[512] = "";
    CHECK(!zbc_datadir_mode_warning(dir, msg, sizeof msg));
    CHECK_EQ_INT(chmod(dir, 0755), 0);
    CHECK(zbc_datadir_mode_warning(dir, msg, sizeof msg));
    CHECK(strstr(msg, "is accessible by other users (mode 755); chmod 700 "
                      "it") != NULL);
    CHECK_EQ_INT(chmod(dir, 0710), 0);
    CHECK(zbc_datadir_mode_warning(dir, msg, sizeof msg));
    CHECK(strstr(msg, "(mode 710)") != NULL);
    CHECK_EQ_INT(chmod(dir, 0700), 0);
    char p[256];
    snprintf(p, sizeof p, "%s/node.key", dir);
    CHECK_EQ_INT(chmod(p, 0640), 0);
    CHECK(!zbc_datadir_load_key(dir, &k, &err));
    CHECK(strstr(err.msg, "readable by other users (mode 640)") != NULL);
    char gone[200];
    snprintf(gone, sizeof gone, "%s/nope", dir);
    CHECK(zbc_datadir_mode_warning(gone, msg, sizeof msg));
    CHECK(strstr(msg, "cannot examine data directory") != NULL);
    cleanup();
}

int main(void)
{
    zbc_log_to_stderr(false);
    TEST_RUN(test_init_and_load);
    TEST_RUN(test_key_file_errors);
    TEST_RUN(test_lock);
    TEST_RUN(test_read_file_limit);
    TEST_RUN(test_mode_warnings);
    return test_summary("node_datadir");
}
