/* Logging: level names, filtering, one line per event in the log file. */
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

static void test_file_lines(void)
{
    char path[] = "/tmp/zbc_test_log_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    struct zbc_err err = {{0}};
    zbc_log_to_stderr(false);
    CHECK(zbc_log_open_file(path, &err));
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

int main(void)
{
    TEST_RUN(test_levels);
    TEST_RUN(test_file_lines);
    return test_summary("node_log");
}
