/* zbc history's lines (docs/wallet.md "History"): one entry of GET
 * /api/v1/accounts/<address>/history in words, amounts in ZBC, names the
 * wallet knows, dice faces; and the entry shape check. */
#include "node/wallet/history.h"
#include "testlib.h"

#define ME "ZBC_L2HLFDOM_VKKKTEXX_C2P2M6LG_EB6ZNKSV_356SJUWW_5QPVHDE7_EFJA3PEX"
#define BOB "ZBC_AAAAAAAA_AAAAAAAA_AAAAAAAA_AAAAAAAA_AAAAAAAA_AAAAAAAA_AAAHKJF5"
#define EVE "ZBC_EEEEEEEE_AAAAAAAA_AAAAAAAA_AAAAAAAA_AAAAAAAA_AAAAAAAA_AAAAAAAA"

static json_t *js(const char *text)
{
    json_error_t e;
    json_t *j = json_loads(text, 0, &e);
    if (j == NULL)
        fprintf(stderr, "bad test JSON %s: %s\n", text, e.text);
    return j;
}

static void line_of(char *out, size_t cap, const char *entry, const char *game)
{
    struct zbc_name_entry e[1];
    snprintf(e[0].name, sizeof e[0].name, "bob");
    snprintf(e[0].addr, sizeof e[0].addr, "%s", BOB);
    struct zbc_names nm = {1, e};
    json_t *j = js(entry);
    struct zbc_err err;
    CHECK(j != NULL && zbc_history_check_entry(j, &err));
    out[0] = '\0';
    if (j != NULL)
        zbc_history_line(out, cap, j, ME, &nm, game);
    json_decref(j);
}

static void test_lines(void)
{
    char l[600];
    /* 1764633600000 ms = 2025-12-02 00:00:00 UTC */
    line_of(l, sizeof l, "{\"kind\":\"transfer\",\"from\":\"" ME "\",\"to\":\"" BOB "\","
            "\"amount\":198000000,\"ref\":0,\"reason\":\"\",\"height\":42,"
            "\"timestamp\":1764633600000}", NULL);
    CHECK_EQ_STR(l, "     42  2025-12-02 00:00:00  sent 1.98 ZBC to bob");
    line_of(l, sizeof l, "{\"kind\":\"transfer\",\"from\":\"" EVE "\",\"to\":\"" ME "\","
            "\"amount\":\"100000000\",\"ref\":0,\"height\":7}", NULL);
    CHECK_EQ_STR(l, "      7  -  received 1 ZBC from " EVE);
    line_of(l, sizeof l, "{\"kind\":\"fee\",\"from\":\"" ME "\",\"to\":\"" EVE "\","
            "\"amount\":5000000,\"ref\":0,\"height\":7}", NULL);
    CHECK_EQ_STR(l, "      7  -  paid a fee of 0.05 ZBC");
    line_of(l, sizeof l, "{\"kind\":\"app_payout\",\"from\":null,\"to\":\"" ME "\","
            "\"amount\":198000000,\"ref\":\"9223372036854775809\",\"reason\":\"win\","
            "\"seat\":1,\"height\":50}", NULL);
    CHECK_EQ_STR(l, "     50  -  won 1.98 ZBC from app 9223372036854775809 (win, seat 1)");
    line_of(l, sizeof l, "{\"kind\":\"app_payout\",\"from\":null,\"to\":\"" BOB "\","
            "\"amount\":100000000,\"ref\":5,\"reason\":\"draw\",\"seat\":0,\"height\":50}",
            NULL);
    CHECK_EQ_STR(l, "     50  -  app 5 paid 1 ZBC to bob (draw, seat 0)");
    line_of(l, sizeof l, "{\"kind\":\"app_join\",\"from\":\"" ME "\",\"to\":null,"
            "\"amount\":100000000,\"ref\":5,\"seat\":1,\"height\":9}", NULL);
    CHECK_EQ_STR(l, "      9  -  you joined app 5 as seat 1, stake 1 ZBC");
    line_of(l, sizeof l, "{\"kind\":\"app_resign\",\"from\":\"" BOB "\",\"amount\":0,\"ref\":5,"
            "\"seat\":0,\"height\":11}", NULL);
    CHECK_EQ_STR(l, "     11  -  bob resigned app 5 (seat 0)");
    line_of(l, sizeof l, "{\"kind\":\"app_activate\",\"amount\":70,\"ref\":5,\"seat\":0,"
            "\"height\":10}", NULL);
    CHECK_EQ_STR(l, "     10  -  app 5 started, seat 0 to move (deadline block 70)");
    /* dice faces: count 3 | 02 ff 05: 02 -> 3, ff rejected (>= 252), 05 -> 6 */
    line_of(l, sizeof l, "{\"kind\":\"app_move\",\"from\":\"" ME "\",\"amount\":80,\"ref\":5,"
            "\"seat\":0,\"data\":\"0300000002ff05\",\"height\":12}", "pig");
    CHECK_EQ_STR(l, "     12  -  you moved in app 5 (seat 0), rolled 3, 6");
    /* lines draws uniform values, not dice: no faces */
    line_of(l, sizeof l, "{\"kind\":\"app_move\",\"from\":\"" ME "\",\"amount\":80,\"ref\":5,"
            "\"seat\":0,\"data\":\"0300000002ff05\",\"height\":12}", "lines");
    CHECK_EQ_STR(l, "     12  -  you moved in app 5 (seat 0), drew 3 random bytes");
    /* bet_settle: u | value 4950 | win */
    line_of(l, sizeof l, "{\"kind\":\"bet_settle\",\"from\":\"" ME "\",\"amount\":200000000,"
            "\"ref\":8,\"data\":\"010000005613000001\",\"height\":13}", NULL);
    CHECK_EQ_STR(l, "     13  -  bet 8 settled: win, value 4950, returned 2 ZBC");
    /* a catalogue bet, its game known from the account's apps: the value in words */
    line_of(l, sizeof l, "{\"kind\":\"bet_settle\",\"from\":\"" ME "\",\"amount\":33000000,"
            "\"ref\":9,\"data\":\"0100000007a1000000\",\"height\":14}", "plinko");
    CHECK_EQ_STR(l, "     14  -  plinko bet 9 settled: loss, slot 7, returned 0.33 ZBC");
    line_of(l, sizeof l, "{\"kind\":\"bet_settle\",\"from\":\"" ME "\",\"amount\":0,"
            "\"ref\":10,\"data\":\"010000000709030000\",\"height\":15}", "baccarat");
    CHECK_EQ_STR(l, "     15  -  baccarat bet 10 settled: loss, player 7, banker 9, returned 0 "
                    "ZBC");
    line_of(l, sizeof l, "{\"kind\":\"app_end\",\"amount\":0,\"ref\":5,\"seat\":1,"
            "\"reason\":\"resign\",\"height\":11}", NULL);
    CHECK_EQ_STR(l, "     11  -  app 5 ended: resign, winner seat 1");
    /* a kind this wallet does not know still prints */
    line_of(l, sizeof l, "{\"kind\":\"mystery\",\"from\":\"" BOB "\",\"to\":null,\"amount\":1,"
            "\"ref\":0,\"height\":1}", NULL);
    CHECK_EQ_STR(l, "      1  -  mystery: bob -> nobody, 0.00000001 ZBC, ref 0");
}

static void test_bad_entries(void)
{
    static const char *const bad[][2] = {
        {"[]", "not an object"},
        {"{}", "has no \"kind\""},
        {"{\"kind\":1}", "\"kind\" must be a string"},
        {"{\"kind\":\"fee\",\"height\":4294967296,\"amount\":1,\"ref\":0}", "height"},
        {"{\"kind\":\"fee\",\"height\":1,\"amount\":-1,\"ref\":0}", "negative"},
        {"{\"kind\":\"fee\",\"height\":1,\"amount\":1}", "has no \"ref\""},
        {"{\"kind\":\"fee\",\"height\":1,\"amount\":1,\"ref\":0,\"from\":7}", "\"from\""},
        {"{\"kind\":\"fee\",\"height\":1,\"amount\":1,\"ref\":0,\"seat\":256}", "\"seat\""},
        {"{\"kind\":\"fee\",\"height\":1,\"amount\":1,\"ref\":0,\"timestamp\":\"x\"}",
         "timestamp"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        json_t *j = js(bad[i][0]);
        struct zbc_err err;
        CHECK(j != NULL && !zbc_history_check_entry(j, &err));
        CHECK(strstr(err.msg, bad[i][1]) != NULL);
        if (strstr(err.msg, bad[i][1]) == NULL)
            fprintf(stderr, "%s: %s\n", bad[i][0], err.msg);
        json_decref(j);
    }
}

int main(void)
{
    TEST_RUN(test_lines);
    TEST_RUN(test_bad_entries);
    return test_summary("wallet_history");
}
