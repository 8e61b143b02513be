/* Option parsing: anywhere on the line, unknown = usage, env defaults,
 * command line wins. */
#include <stdlib.h>

#include "node/wallet/opts.h"
#include "testlib.h"

static int parse(struct zbc_opts *o, struct zbc_wfail *f, int n, const char **args)
{
    char *argv[32];
    argv[0] = (char *)"zbc";
    for (int i = 0; i < n; i++)
        argv[i + 1] = (char *)args[i];
    return zbc_opts_parse(o, n + 1, argv, f);
}

static void test_anywhere(void)
{
    struct zbc_opts o;
    struct zbc_wfail f = {0};
    const char *a[] = {"--json", "send", "--fee", "7", "R", "--message=hi", "1.5ZBC", "--wait"};
    CHECK(parse(&o, &f, 8, a));
    CHECK_EQ_INT(o.json, 1);
    CHECK_EQ_INT(o.wait, 1);
    CHECK_EQ_INT(o.fee, 7);
    CHECK_EQ_STR(o.message, "hi");
    CHECK_EQ_INT(o.npos, 3);
    CHECK_EQ_STR(o.pos[0], "send");
    CHECK_EQ_STR(o.pos[1], "R");
    CHECK_EQ_STR(o.pos[2], "1.5ZBC");
}

static void test_errors(void)
{
    struct zbc_opts o;
    struct zbc_wfail f = {0};
    const char *a[] = {"send", "--bogus", "--json"};
    CHECK(!parse(&o, &f, 3, a));
    CHECK_EQ_INT(f.code, ZBC_EXIT_USAGE);
    CHECK(strstr(f.err.msg, "--bogus") != NULL);
    CHECK_EQ_INT(o.json, 1); /* the error is still printed as JSON */
    const char *b[] = {"send", "--fee"};
    CHECK(!parse(&o, &f, 2, b));
    CHECK(strstr(f.err.msg, "needs a value") != NULL);
    const char *c[] = {"--timeout", "0"};
    CHECK(!parse(&o, &f, 2, c));
    const char *d[] = {"--fee", "abc"};
    CHECK(!parse(&o, &f, 2, d));
    const char *e[] = {"--timestamp", "-5"};
    CHECK(!parse(&o, &f, 2, e));
    const char *g[] = {"--json=1"};
    CHECK(!parse(&o, &f, 1, g));
    const char *h[] = {"-x"};
    CHECK(!parse(&o, &f, 1, h));
}

/* --wait waits for final, --wait=included for a block (docs/wallet.md). */
static void test_wait_forms(void)
{
    struct zbc_opts o;
    struct zbc_wfail f = {0};
    const char *a[] = {"--wait"};
    CHECK(parse(&o, &f, 1, a));
    CHECK_EQ_INT(o.wait, 1);
    CHECK_EQ_INT(o.wait_included, 0);
    const char *b[] = {"--wait=included"};
    CHECK(parse(&o, &f, 1, b));
    CHECK_EQ_INT(o.wait, 1);
    CHECK_EQ_INT(o.wait_included, 1);
    const char *c[] = {"--wait=final"};
    CHECK(parse(&o, &f, 1, c));
    CHECK_EQ_INT(o.wait, 1);
    CHECK_EQ_INT(o.wait_included, 0);
    const char *d[] = {"--wait=soon"};
    CHECK(!parse(&o, &f, 1, d));
    CHECK_EQ_INT(f.code, ZBC_EXIT_USAGE);
    CHECK_EQ_STR(f.err.msg, "--wait takes 'final' or 'included', not 'soon'");
    const char *e[] = {"--wait="};
    CHECK(!parse(&o, &f, 1, e));
    CHECK_EQ_STR(f.err.msg, "--wait takes 'final' or 'included', not ''");
}

static void test_env(void)
{
    struct zbc_opts o;
    struct zbc_wfail f = {0};
    setenv("ZBC_API", "http://env:1", 1);
    setenv("ZBC_TIMEOUT", "3", 1);
    setenv("ZOOBC_GENESIS_HASH", "v1", 1);
    const char *a[] = {"balance"};
    CHECK(parse(&o, &f, 1, a));
    CHECK_EQ_STR(o.api, "http://env:1");
    CHECK_EQ_INT(o.timeout_s, 3);
    CHECK_EQ_STR(o.genesis, "v1");
    const char *b[] = {"balance", "--api", "http://cli:2", "--timeout", "9"};
    CHECK(parse(&o, &f, 5, b));
    CHECK_EQ_STR(o.api, "http://cli:2");
    CHECK_EQ_INT(o.timeout_s, 9);
    setenv("ZBC_TIMEOUT", "soon", 1);
    CHECK(!parse(&o, &f, 1, a));
    CHECK_EQ_INT(f.code, ZBC_EXIT_USAGE);
    unsetenv("ZBC_API");
    unsetenv("ZBC_TIMEOUT");
    unsetenv("ZOOBC_GENESIS_HASH");
    CHECK(parse(&o, &f, 1, a));
    CHECK_EQ_STR(o.api, ZBC_DEFAULT_API);
    CHECK_EQ_INT(o.timeout_s, ZBC_DEFAULT_TIMEOUT);
    CHECK(o.genesis == NULL);
    CHECK_EQ_INT(o.fee, ZBC_DEFAULT_FEE);
}

static void test_dash(void)
{
    struct zbc_opts o;
    struct zbc_wfail f = {0};
    const char *a[] = {"send", "-", "R", "--", "--json"};
    CHECK(parse(&o, &f, 5, a));
    CHECK_EQ_INT(o.npos, 4);
    CHECK_EQ_STR(o.pos[1], "-");
    CHECK_EQ_STR(o.pos[3], "--json");
    CHECK_EQ_INT(o.json, 0);
}

int main(void)
{
    TEST_RUN(test_anywhere);
    TEST_RUN(test_errors);
    TEST_RUN(test_wait_forms);
    TEST_RUN(test_env);
    TEST_RUN(test_dash);
    return test_summary("wallet_opts");
}
