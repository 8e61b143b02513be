#include "node/zbcd/log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static enum zbc_log_level log_level = ZBC_LOG_INFO;
static FILE *log_file;
static bool log_stderr = true;

int zbc_log_level_parse(enum zbc_log_level *out, const char *text,
                        struct zbc_err *err)
{
    static const struct {
        const char *name;
        enum zbc_log_level level;
    } names[] = {
        {"debug", ZBC_LOG_DEBUG},
        {"info", ZBC_LOG_INFO},
        {"warn", ZBC_LOG_WARN},
        {"error", ZBC_LOG_ERROR},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(text, names[i].name) == 0) {
            *out = names[i].level;
            return 1;
        }
    }
    return zbc_fail(err, "log level '%s' is not one of debug, info, warn, error",
                    text);
}

const char *zbc_log_level_name(enum zbc_log_level level)
{
    switch (level) {
    case ZBC_LOG_DEBUG:
        return "DEBUG";
    case ZBC_LOG_INFO:
        return "INFO";
    case ZBC_LOG_WARN:
        return "WARN";
    case ZBC_LOG_ERROR:
        return "ERROR";
    }
    return "?";
}

void zbc_log_set_level(enum zbc_log_level level)
{
    log_level = level;
}

enum zbc_log_level zbc_log_get_level(void)
{
    return log_level;
}

int zbc_log_open_file(const char *path, struct zbc_err *err)
{
    zbc_log_close_file();
    if (path == NULL)
        return 1;
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0)
        return zbc_fail(err, "cannot open log file %s: %s", path,
                        strerror(errno));
    log_file = fdopen(fd, "a");
    if (log_file == NULL) {
        close(fd);
        return zbc_fail(err, "cannot open log file %s: %s", path,
                        strerror(errno));
    }
    setvbuf(log_file, NULL, _IOLBF, 0);
    return 1;
}

void zbc_log_close_file(void)
{
    if (log_file != NULL) {
        fclose(log_file);
        log_file = NULL;
    }
}

void zbc_log_to_stderr(bool on)
{
    log_stderr = on;
}

void zbc_log(enum zbc_log_level level, const char *fmt, ...)
{
    if (level < log_level)
        return;
    struct timeval tv;
    gettimeofday(&tv, NULL);
    struct tm tm;
    gmtime_r(&tv.tv_sec, &tm);
    char line[1024];
    int n = snprintf(line, sizeof line,
                     "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ %-5s ",
                     tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                     tm.tm_min, tm.tm_sec, (int)(tv.tv_usec / 1000),
                     zbc_log_level_name(level));
    if (n < 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    va_end(ap);
    /* One event, one line: a newline inside a message (e.g. from a peer's
     * text) would let it forge log lines. */
    for (char *p = line; *p != '\0'; p++) {
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    }
    if (log_stderr)
        fprintf(stderr, "%s\n", line);
    if (log_file != NULL)
        fprintf(log_file, "%s\n", line);
}
