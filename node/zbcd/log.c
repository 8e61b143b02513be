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

static void log_v(enum zbc_log_level level, const char *suffix,
                  const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

static void log_v(enum zbc_log_level level, const char *suffix,
                  const char *fmt, va_list ap)
{
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
    vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    if (suffix != NULL) {
        size_t used = strlen(line);
        snprintf(line + used, sizeof line - used, "%s", suffix);
    }
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

void zbc_log(enum zbc_log_level level, const char *fmt, ...)
{
    if (level < log_level)
        return;
    va_list ap;
    va_start(ap, fmt);
    log_v(level, NULL, fmt, ap);
    va_end(ap);
}

/* ---- rate-limited lines ---- */

static uint64_t (*limit_clock)(void);

void zbc_log_set_clock(uint64_t (*now_ms)(void))
{
    limit_clock = now_ms;
}

static uint64_t limit_now_ms(void)
{
    if (limit_clock != NULL)
        return limit_clock();
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static bool limited_v(struct zbc_log_limit *l, uint32_t period_ms,
                      enum zbc_log_level level, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

static bool limited_v(struct zbc_log_limit *l, uint32_t period_ms,
                      enum zbc_log_level level, const char *fmt, va_list ap)
{
    uint64_t now = limit_now_ms();
    if (l->used && now - l->last_ms < period_ms) {
        l->suppressed++;
        return false;
    }
    char suffix[64] = "";
    if (l->suppressed > 0)
        snprintf(suffix, sizeof suffix, " (%llu similar messages suppressed)",
                 (unsigned long long)l->suppressed);
    l->used = true;
    l->last_ms = now;
    l->suppressed = 0;
    if (level >= log_level)
        log_v(level, suffix[0] != '\0' ? suffix : NULL, fmt, ap);
    return true;
}

bool zbc_log_limited(struct zbc_log_limit *l, uint32_t period_ms,
                     enum zbc_log_level level, const char *fmt, ...)
{
    if (level < log_level)
        return true; /* off: no clock, no formatting, no state */
    va_list ap;
    va_start(ap, fmt);
    bool r = limited_v(l, period_ms, level, fmt, ap);
    va_end(ap);
    return r;
}

static struct {
    char key[ZBC_LOG_KEY_MAX];
    struct zbc_log_limit l;
    uint64_t touched; /* use counter, for least-recently-used eviction */
} slots[ZBC_LOG_LIMIT_SLOTS];
static uint64_t slot_clock;

static struct zbc_log_limit *slot_for(const char *key)
{
    size_t victim = 0;
    for (size_t i = 0; i < ZBC_LOG_LIMIT_SLOTS; i++) {
        if (slots[i].key[0] != '\0' &&
            strncmp(slots[i].key, key, ZBC_LOG_KEY_MAX - 1) == 0) {
            slots[i].touched = ++slot_clock;
            return &slots[i].l;
        }
        if (slots[i].touched < slots[victim].touched)
            victim = i;
    }
    snprintf(slots[victim].key, sizeof slots[victim].key, "%s", key);
    memset(&slots[victim].l, 0, sizeof slots[victim].l);
    slots[victim].touched = ++slot_clock;
    return &slots[victim].l;
}

bool zbc_log_ratelimited(const char *key, uint32_t period_ms,
                         enum zbc_log_level level, const char *fmt, ...)
{
    if (level < log_level)
        return true; /* off: no key look-up, clock or formatting */
    va_list ap;
    va_start(ap, fmt);
    bool r = limited_v(slot_for(key[0] != '\0' ? key : "-"), period_ms, level,
                       fmt, ap);
    va_end(ap);
    return r;
}
