/* Logging: level names, filtering, one line per event in the log file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "node/zbcd/datadir.h"
#include "node/zbcd/log.h"
#include "testlib.h"

static void test_levels(void)
{
    enum zbc_log_level l = ZBC_LOG_ERROR;
    struct zbc_err err = {{0}};
    CHECK(zbc_log_level_parse(&l, "debug", &err));
    CHECK_EQ_INT(l, ZBC_LOG_DEBUG);
    CHECK(zbc_log_level_parse(&l, "warn", &err));
    CHECK_EQ_INT(l, ZBC_LOG_WARN);
    CHECK(!zbc_log_level_parse(&l, "verbose", &err));
    CHECK_EQ_STR(err.msg, "log level 'verbose' is not one of debug, info, "
                          "warn, error");
}

/* Sends the log (only) to a new temporary file named in path (a
 * mkstemp template). */
static void log_to_temp(char *path)
{
    struct zbc_err err = {{0}};
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    zbc_log_to_stderr(false);
    CHECK(zbc_log_open_file(path, &err));
}

static void test_file_lines(void)
{
    char path[] = "/tmp/zbc_test_log_XXXXXX";
    struct zbc_err err = {{0}};
    log_to_temp(path);
    zbc_log_set_level(ZBC_LOG_INFO);
    zbc_log_debug("hidden %d", 1);
    zbc_log_info("block produced height=%d", 5);
    zbc_log_error("two\nlines");
    zbc_log_close_file();
    char *text = NULL;
    size_t len = 0;
    CHECK(zbc_read_file(path, 4096, &text, &len, &err));
    CHECK(strstr(text, "hidden") == NULL);
    CHECK(strstr(text, " INFO  block produced height=5\n") != NULL);
    CHECK(strstr(text, " ERROR two lines\n") != NULL);
    /* exactly two lines, each starting with an ISO-8601 UTC time */
    int lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    CHECK_EQ_INT(lines, 2);
    CHECK(len > 24 && text[4] == '-' && text[10] == 'T' && text[23] == 'Z');
    free(text);
    unlink(path);
    CHECK(!zbc_log_open_file("/nonexistent/dir/log", &err));
    CHECK(strstr(err.msg, "cannot open log file /nonexistent/dir/log") != NULL);
}

static uint64_t fake_now;

static uint64_t fake_clock(void)
{
    return fake_now;
}

static int count_lines(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, needle)) != NULL; p++)
        n++;
    return n;
}

/* A repeated warning is logged once per period; the dropped repeats are
 * counted and reported with the next line of the same key. */
static void test_ratelimited(void)
{
    char path[] = "/tmp/zbc_test_log_XXXXXX";
    struct zbc_err err = {{0}};
    zbc_log_set_level(ZBC_LOG_INFO);
    zbc_log_set_clock(fake_clock);
    log_to_temp(path);
    fake_now = 1000;
    CHECK(zbc_log_ratelimited("t:accept", 5000, ZBC_LOG_WARN, "accept: %s",
                              "Too many open files"));
    for (int i = 0; i < 1000; i++) {
        fake_now += 4;
        CHECK(!zbc_log_ratelimited("t:accept", 5000, ZBC_LOG_WARN,
                                   "accept: %s", "Too many open files"));
    }
    /* another key is limited on its own */
    CHECK(zbc_log_ratelimited("t:other", 5000, ZBC_LOG_ERROR, "other"));
    fake_now = 1000 + 5000;
    CHECK(zbc_log_ratelimited("t:accept", 5000, ZBC_LOG_WARN, "accept: %s",
                              "Too many open files"));
    fake_now += 5000;
    CHECK(zbc_log_ratelimited("t:accept", 5000, ZBC_LOG_WARN, "accept: %s",
                              "Too many open files"));
    /* a caller-owned limiter */
    struct zbc_log_limit l = {0};
    CHECK(zbc_log_limited(&l, 100, ZBC_LOG_WARN, "mine %d", 1));
    CHECK(!zbc_log_limited(&l, 100, ZBC_LOG_WARN, "mine %d", 2));
    fake_now += 100;
    CHECK(zbc_log_limited(&l, 100, ZBC_LOG_WARN, "mine %d", 3));
    /* below the level: nothing written, and not counted as suppressed */
    CHECK(zbc_log_ratelimited("t:debug", 5000, ZBC_LOG_DEBUG, "quiet"));
    zbc_log_close_file();
    zbc_log_set_clock(NULL);
    char *text = NULL;
    size_t len = 0;
    CHECK(zbc_read_file(path, 1 << 20, &text, &len, &err));
    CHECK_EQ_INT(count_lines(text, "WARN  accept: Too many open files"), 3);
    CHECK(strstr(text, "accept: Too many open files (1000 similar messages "
                       "suppressed)\n") != NULL);
    CHECK(strstr(text, "ERROR other\n") != NULL);
    CHECK(strstr(text, "mine 1\n") != NULL);
    CHECK(strstr(text, "mine 2") == NULL);
    CHECK(strstr(text, "mine 3 (1 similar messages suppressed)\n") != NULL);
    CHECK(strstr(text, "quiet") == NULL);
    int lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    CHECK_EQ_INT(lines, 6);
    free(text);
    unlink(path);
}

/* More keys than slots: the least recently used key is forgotten, the
 * others keep their state. */
static void test_ratelimited_slots(void)
{
    zbc_log_to_stderr(false);
    zbc_log_set_level(ZBC_LOG_DEBUG);
    zbc_log_set_clock(fake_clock);
    fake_now = 50000;
    CHECK(zbc_log_ratelimited("t:keep", 60000, ZBC_LOG_DEBUG, "x"));
    char key[32];
    for (int i = 0; i < ZBC_LOG_LIMIT_SLOTS + 10; i++) {
        snprintf(key, sizeof key, "t:k%d", i);
        CHECK(zbc_log_ratelimited(key, 60000, ZBC_LOG_DEBUG, "x"));
        CHECK(!zbc_log_ratelimited("t:keep", 60000, ZBC_LOG_DEBUG, "x"));
    }
    zbc_log_set_clock(NULL);
    zbc_log_set_level(ZBC_LOG_INFO);
}

/* A line below the level costs nothing and leaves the limiter alone: the
 * repeats are not counted, and once the level lets the line through it is
 * logged at once, without a "suppressed" count. */
static void test_below_level_untouched(void)
{
    char path[] = "/tmp/zbc_test_log_XXXXXX";
    struct zbc_err err = {{0}};
    zbc_log_set_clock(fake_clock);
    log_to_temp(path);
    zbc_log_set_level(ZBC_LOG_WARN);
    fake_now = 900000;
    struct zbc_log_limit l = {0};
    for (int i = 0; i < 5; i++) {
        CHECK(zbc_log_ratelimited("t:off", 5000, ZBC_LOG_INFO, "off %d", i));
        CHECK(zbc_log_limited(&l, 5000, ZBC_LOG_INFO, "mine off %d", i));
    }
    CHECK(!l.used);
    CHECK_EQ_INT(l.suppressed, 0);
    zbc_log_set_level(ZBC_LOG_INFO);
    CHECK(zbc_log_ratelimited("t:off", 5000, ZBC_LOG_INFO, "on %d", 5));
    CHECK(zbc_log_limited(&l, 5000, ZBC_LOG_INFO, "mine on %d", 5));
    zbc_log_close_file();
    zbc_log_set_clock(NULL);
    char *text = NULL;
    size_t len = 0;
    CHECK(zbc_read_file(path, 1 << 20, &text, &len, &err));
    CHECK(text != NULL && strstr(text, "off") == NULL);
    CHECK(text != NULL && strstr(text, "INFO  on 5\n") != NULL);
    CHECK(text != NULL && strstr(text, "INFO  mine on 5\n") != NULL);
    free(text);
    unlink(path);
}

int main(void)
{
    TEST_RUN(test_levels);
    TEST_RUN(test_file_lines);
    TEST_RUN(test_ratelimited);
    TEST_RUN(test_ratelimited_slots);
    TEST_RUN(test_below_level_untouched);
    return test_summary("node_log");
}
