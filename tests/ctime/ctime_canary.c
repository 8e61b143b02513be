/* The constant-time check must be able to fail: this program branches on
 * a byte marked secret and indexes a table with another, so valgrind run
 * as the ctime suite runs it (same options, same suppressions) must
 * exit with --error-exitcode (42); tests/ctime/meson.build checks that. */
#include <stdio.h>
#include <valgrind/memcheck.h>

static const unsigned char table[256] = {1, 2, 3};

int main(void)
{
    if (!RUNNING_ON_VALGRIND) {
        fprintf(stderr, "ctime_canary must run under valgrind\n");
        return 1;
    }
    volatile unsigned char secret[2] = {1, 2};
    VALGRIND_MAKE_MEM_UNDEFINED((void *)secret, sizeof secret);
    unsigned char a = secret[0], b = secret[1];
    int r = 0;
    if (a == 1) /* secret-dependent branch */
        r = puts("secret byte is 1");
    r += table[b]; /* secret-dependent memory index */
    VALGRIND_MAKE_MEM_DEFINED(&r, sizeof r);
    printf("canary %d\n", r);
    return 0;
}
