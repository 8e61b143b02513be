/* Minimal unit-test support.  A test program is a main() that calls
 * TEST_RUN(fn) for each case and returns test_summary(). Every CHECK that
 * fails prints file:line and the expression and marks the case failed;
 * the program exits non-zero if any check failed.
 *
 * ZBC_VECTORS_DIR (set by meson) points at tests/vectors. */
#ifndef ZBC_TESTLIB_H
#define ZBC_TESTLIB_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Sanitizer builds (ASan+UBSan: build-fuzz/, scripts/build fuzz) run 3-10x
 * slower, and the suite runs their unit tests beside the gcc build's.  There
 * loops whose length only buys more of the same — random playouts, perft
 * counts the gcc build checks whole — run a fifth of it (test_scaled); every
 * code path they reach is still reached, under the sanitizers, and the gcc
 * build still runs each loop whole (scripts/test, docs/architecture.md
 * "tests/"). */
#if defined(__SANITIZE_ADDRESS__)
#define ZBC_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ZBC_TEST_SANITIZED 1
#endif
#endif
#ifndef ZBC_TEST_SANITIZED
#define ZBC_TEST_SANITIZED 0
#endif
#define ZBC_TEST_SANITIZED_DIV 5

static inline int test_scaled(int n)
{
    if (!ZBC_TEST_SANITIZED)
        return n;
    return n / ZBC_TEST_SANITIZED_DIV > 0 ? n / ZBC_TEST_SANITIZED_DIV : 1;
}

static int test_failures;
static int test_checks;
static int test_cases;
static int test_cases_failed;

#define CHECK(cond)                                                           \
    do {                                                                      \
        test_checks++;                                                        \
        if (!(cond)) {                                                        \
            test_failures++;                                                  \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__,  \
                    #cond);                                                   \
        }                                                                     \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                    \
    do {                                                                      \
        long long _a = (long long)(a), _b = (long long)(b);                   \
        test_checks++;                                                        \
        if (_a != _b) {                                                       \
            test_failures++;                                                  \
            fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n",         \
                    __FILE__, __LINE__, #a, #b, _a, _b);                      \
        }                                                                     \
    } while (0)

#define CHECK_EQ_STR(a, b)                                                    \
    do {                                                                      \
        const char *_a = (a), *_b = (b);                                      \
        test_checks++;                                                        \
        if (_a == NULL || _b == NULL || strcmp(_a, _b) != 0) {                \
            test_failures++;                                                  \
            fprintf(stderr, "%s:%d: %s == %s failed:\n  got:  %s\n  want: %s\n", \
                    __FILE__, __LINE__, #a, #b, _a ? _a : "(null)",           \
                    _b ? _b : "(null)");                                      \
        }                                                                     \
    } while (0)

#define CHECK_EQ_MEM(a, b, n)                                                 \
    do {                                                                      \
        test_checks++;                                                        \
        if (memcmp((a), (b), (n)) != 0) {                                     \
            test_failures++;                                                  \
            fprintf(stderr, "%s:%d: %s == %s (%zu bytes) failed\n", __FILE__, \
                    __LINE__, #a, #b, (size_t)(n));                           \
        }                                                                     \
    } while (0)

/* ZBC_TEST_TIMES=1 in the environment: each case's wall time on stderr. */
#define TEST_RUN(fn)                                                          \
    do {                                                                      \
        int _before = test_failures;                                          \
        struct timespec _t0, _t1;                                             \
        clock_gettime(CLOCK_MONOTONIC, &_t0);                                 \
        test_cases++;                                                         \
        fn();                                                                 \
        if (test_failures != _before) {                                       \
            test_cases_failed++;                                              \
            fprintf(stderr, "FAIL %s\n", #fn);                                \
        }                                                                     \
        clock_gettime(CLOCK_MONOTONIC, &_t1);                                 \
        if (getenv("ZBC_TEST_TIMES") != NULL)                                 \
            fprintf(stderr, "time %s %.3f s\n", #fn,                         \
                    (double)(_t1.tv_sec - _t0.tv_sec) +                       \
                        (double)(_t1.tv_nsec - _t0.tv_nsec) / 1e9);           \
    } while (0)

static inline int test_summary(const char *name)
{
    printf("%s: %d cases, %d failed, %d checks\n", name, test_cases,
           test_cases_failed, test_checks);
    return test_failures == 0 ? 0 : 1;
}

/* Reads a whole file (for JSON vectors); aborts the test on failure. */
static inline char *test_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf == NULL || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    buf[n] = '\0';
    fclose(f);
    return buf;
}

#endif
