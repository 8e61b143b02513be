/* Amount syntax (docs/wallet.md "Amounts"). */
#include "node/wallet/amount.h"
#include "testlib.h"

static void test_units(void)
{
    uint64_t v;
    struct zbc_err err;
    CHECK(zbc_amount_parse(&v, "150000000", &err));
    CHECK_EQ_INT(v, 150000000);
    CHECK(zbc_amount_parse(&v, "0", &err));
    CHECK_EQ_INT(v, 0);
    CHECK(zbc_amount_parse(&v, "18446744073709551615", &err));
    CHECK(v == UINT64_MAX);
    CHECK(!zbc_amount_parse(&v, "18446744073709551616", &err));
    CHECK(strstr(err.msg, "too large") != NULL);
}

static void test_zbc(void)
{
    uint64_t v;
    struct zbc_err err;
    CHECK(zbc_amount_parse(&v, "1.5ZBC", &err));
    CHECK_EQ_INT(v, 150000000);
    CHECK(zbc_amount_parse(&v, "1.5", &err));
    CHECK_EQ_INT(v, 150000000);
    CHECK(zbc_amount_parse(&v, "2 zbc", &err));
    CHECK_EQ_INT(v, 200000000);
    CHECK(zbc_amount_parse(&v, "0.00000001ZBC", &err));
    CHECK_EQ_INT(v, 1);
    CHECK(zbc_amount_parse(&v, ".5", &err));
    CHECK_EQ_INT(v, 50000000);
    CHECK(zbc_amount_parse(&v, "3.", &err));
    CHECK_EQ_INT(v, 300000000);
    /* the largest whole number of ZBC that fits, and one more */
    CHECK(zbc_amount_parse(&v, "184467440737ZBC", &err));
    CHECK(v == 18446744073700000000ULL);
    CHECK(!zbc_amount_parse(&v, "184467440738ZBC", &err));
}

static void test_bad(void)
{
    uint64_t v = 7;
    struct zbc_err err;
    CHECK(!zbc_amount_parse(&v, "", &err));
    CHECK(!zbc_amount_parse(&v, "ZBC", &err));
    CHECK(!zbc_amount_parse(&v, ".", &err));
    CHECK(!zbc_amount_parse(&v, "-1", &err));
    CHECK(!zbc_amount_parse(&v, "1e8", &err));
    CHECK(!zbc_amount_parse(&v, "1.000000001", &err));
    CHECK(strstr(err.msg, "8 decimals") != NULL);
    CHECK(!zbc_amount_parse(&v, "1.2.3", &err));
    CHECK(!zbc_amount_parse(&v, " 1", &err));
    CHECK_EQ_INT(v, 7);
}

static void test_format(void)
{
    char s[32];
    zbc_amount_format(s, 150000000);
    CHECK_EQ_STR(s, "1.5 ZBC");
    zbc_amount_format(s, 100000000);
    CHECK_EQ_STR(s, "1 ZBC");
    zbc_amount_format(s, 1);
    CHECK_EQ_STR(s, "0.00000001 ZBC");
    zbc_amount_format(s, 0);
    CHECK_EQ_STR(s, "0 ZBC");
}

/* The node's sentences in ZBC (docs/wallet.md "Amounts"). */
static void test_humanize(void)
{
    char s[256];
    zbc_amount_humanize(s, sizeof s, "insufficient balance: 100000000 held, 205000000 needed");
    CHECK_EQ_STR(s, "insufficient balance: 1 ZBC held, 2.05 ZBC needed");
    zbc_amount_humanize(s, sizeof s, "insufficient balance: 5 held, 7 needed plus 3 pending");
    CHECK_EQ_STR(s, "insufficient balance: 0.00000005 ZBC held, 0.00000007 ZBC needed plus "
                    "0.00000003 ZBC pending");
    /* the app id stays a number */
    zbc_amount_humanize(s, sizeof s, "insufficient balance: 0 held, 105000000 needed for the "
                                     "fee and the stake of app 18446744073709551615");
    CHECK_EQ_STR(s, "insufficient balance: 0 ZBC held, 1.05 ZBC needed for the fee and the "
                    "stake of app 18446744073709551615");
    zbc_amount_humanize(s, sizeof s, "insufficient balance: 7 needed, 3 held");
    CHECK_EQ_STR(s, "insufficient balance: 0.00000007 ZBC needed, 0.00000003 ZBC held");
    zbc_amount_humanize(s, sizeof s, "fee too low: 1000 < minimum 100000");
    CHECK_EQ_STR(s, "fee too low: 0.00001 ZBC < minimum 0.001 ZBC");
    /* nothing about money: unchanged, numbers included */
    zbc_amount_humanize(s, sizeof s, "not your turn in app 5: seat 1 is to move, 3 held");
    CHECK_EQ_STR(s, "not your turn in app 5: seat 1 is to move, 3 held");
    /* a number too large for u64 stays as it was */
    zbc_amount_humanize(s, sizeof s, "insufficient balance: 99999999999999999999 held");
    CHECK_EQ_STR(s, "insufficient balance: 99999999999999999999 held");
    /* cut at cap, always terminated */
    char small[24];
    zbc_amount_humanize(small, sizeof small, "insufficient balance: 100000000 held");
    CHECK(strlen(small) < sizeof small);
    CHECK(strncmp(small, "insufficient balance: ", strlen(small)) == 0);
}

int main(void)
{
    TEST_RUN(test_humanize);
    TEST_RUN(test_units);
    TEST_RUN(test_zbc);
    TEST_RUN(test_bad);
    TEST_RUN(test_format);
    return test_summary("wallet_amount");
}
