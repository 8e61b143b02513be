/* A damaged ledger file is refused at open with a clear message, never a
 * crash: data.mdb truncated below its last page (LMDB would map the missing
 * pages and die of SIGBUS on the first read), both meta pages zeroed, and a
 * ledger directory that cannot be written. */
#include <fcntl.h>
#include <lmdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "node/zbcd/log.h"
#include "node/zbcd/store.h"
#include "testlib.h"

static char tmpdir[64];

static void data_path(char *p, size_t cap, const char *name)
{
    snprintf(p, cap, "%s/%s", tmpdir, name);
}

static void fresh_dir(void)
{
    strcpy(tmpdir, "/tmp/zbc_test_store_crash_XXXXXX");
    if (mkdtemp(tmpdir) == NULL) {
        perror("mkdtemp");
        exit(2);
    }
}

static void remove_dir(void)
{
    char p[128];
    data_path(p, sizeof p, "data.mdb");
    unlink(p);
    data_path(p, sizeof p, "lock.mdb");
    unlink(p);
    rmdir(tmpdir);
}

struct blk {
    uint32_t height;
    uint8_t body[3000];
};

static int put_block_fn(struct zbc_store_txn *t, void *arg,
                        struct zbc_err *err)
{
    struct blk *b = arg;
    uint8_t hash[32];
    memset(hash, 0, sizeof hash);
    memcpy(hash, &b->height, sizeof b->height);
    return zbc_store_put_block(t, b->height, hash, b->body, sizeof b->body,
                               err);
}

/* A ledger of `n` blocks of 3000 bytes (a few hundred KiB on disk). */
static void write_ledger(uint32_t n)
{
    struct zbc_store *s = NULL;
    struct zbc_err err = {{0}};
    CHECK(zbc_store_open(&s, tmpdir, NULL, &err));
    if (s == NULL)
        exit(2);
    static struct blk b;
    for (uint32_t h = 1; h <= n; h++) {
        b.height = h;
        memset(b.body, (int)h, sizeof b.body);
        CHECK(zbc_store_write(s, put_block_fn, &b, &err));
    }
    zbc_store_close(s);
}

static off_t file_size(const char *name)
{
    char p[128];
    struct stat st;
    data_path(p, sizeof p, name);
    if (stat(p, &st) != 0)
        return -1;
    return st.st_size;
}

static void truncate_data(off_t size)
{
    char p[128];
    data_path(p, sizeof p, "data.mdb");
    CHECK(truncate(p, size) == 0);
}

static void test_truncated(void)
{
    fresh_dir();
    write_ledger(100);
    off_t full = file_size("data.mdb");
    CHECK(full > 200 * 1024);
    /* every cut below the last page is refused, whatever it hits */
    off_t cuts[] = {full - 1, full - 4096, full / 2, full / 4, 3 * 4096};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        truncate_data(cuts[i]);
        struct zbc_store *s = NULL;
        struct zbc_err err = {{0}};
        CHECK(!zbc_store_open(&s, tmpdir, NULL, &err));
        CHECK(s == NULL);
        CHECK(strstr(err.msg, "truncated") != NULL);
        CHECK(strstr(err.msg, "data.mdb") != NULL);
    }
    remove_dir();
}

static void test_intact_reopens(void)
{
    fresh_dir();
    write_ledger(30);
    struct zbc_store *s = NULL;
    struct zbc_err err = {{0}};
    CHECK(zbc_store_open(&s, tmpdir, NULL, &err));
    struct zbc_store_meta m;
    CHECK(zbc_store_get_meta(s, &m, &err));
    CHECK(m.has_tip);
    CHECK_EQ_INT(m.tip_height, 30);
    zbc_store_close(s);
    remove_dir();
}

static void test_meta_pages_zeroed(void)
{
    fresh_dir();
    write_ledger(5);
    char p[128];
    data_path(p, sizeof p, "data.mdb");
    int fd = open(p, O_WRONLY);
    CHECK(fd >= 0);
    static uint8_t zero[8192];
    CHECK(pwrite(fd, zero, sizeof zero, 0) == (ssize_t)sizeof zero);
    close(fd);
    struct zbc_store *s = NULL;
    struct zbc_err err = {{0}};
    CHECK(!zbc_store_open(&s, tmpdir, NULL, &err));
    CHECK(strstr(err.msg, "cannot open the ledger") != NULL);
    remove_dir();
}

int main(void)
{
    zbc_log_set_level(ZBC_LOG_ERROR);
    TEST_RUN(test_intact_reopens);
    TEST_RUN(test_truncated);
    TEST_RUN(test_meta_pages_zeroed);
    return test_summary("node_store_crash");
}
