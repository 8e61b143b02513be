/* Node replies -> exit codes (docs/wallet.md "Exit codes"). */
#include "node/wallet/client.h"
#include "testlib.h"

static void test_classes(void)
{
    CHECK_EQ_INT(zbc_client_classify(500, "fee too low"), ZBC_EXIT_NODE_BUSY);
    CHECK_EQ_INT(zbc_client_classify(503, ""), ZBC_EXIT_NODE_BUSY);
    CHECK_EQ_INT(zbc_client_classify(400, "Fee Too Low: 5 < 10"), ZBC_EXIT_FEE_TOO_LOW);
    CHECK_EQ_INT(zbc_client_classify(400, "insufficient balance for fee"), ZBC_EXIT_INSUFFICIENT_BALANCE);
    CHECK_EQ_INT(zbc_client_classify(400, "INSUFFICIENT SPENDABLE"), ZBC_EXIT_INSUFFICIENT_BALANCE);
    CHECK_EQ_INT(zbc_client_classify(400, "account does not exist"), ZBC_EXIT_INSUFFICIENT_BALANCE);
    CHECK_EQ_INT(zbc_client_classify(404, "Transaction not found"), ZBC_EXIT_NOT_FOUND);
    CHECK_EQ_INT(zbc_client_classify(400, "unknown app 7"), ZBC_EXIT_NOT_FOUND);
    CHECK_EQ_INT(zbc_client_classify(400, "unknown token"), ZBC_EXIT_NOT_FOUND);
    CHECK_EQ_INT(zbc_client_classify(400, "unknown or expired token"), ZBC_EXIT_NOT_FOUND);
    CHECK_EQ_INT(zbc_client_classify(400, "bad signature"), ZBC_EXIT_REJECTED);
    CHECK_EQ_INT(zbc_client_classify(409, NULL), ZBC_EXIT_REJECTED);
    /* first matching rule wins: fee before balance */
    CHECK_EQ_INT(zbc_client_classify(400, "fee too low and insufficient balance"), ZBC_EXIT_FEE_TOO_LOW);
}

static void test_names(void)
{
    CHECK_EQ_STR(zbc_exit_class(ZBC_EXIT_OK), "ok");
    CHECK_EQ_STR(zbc_exit_class(ZBC_EXIT_INTERNAL), "internal");
    CHECK_EQ_STR(zbc_exit_class(ZBC_EXIT_USAGE), "usage");
    CHECK_EQ_STR(zbc_exit_class(ZBC_EXIT_NODE_UNREACHABLE), "node_unreachable");
    CHECK_EQ_STR(zbc_exit_class(ZBC_EXIT_INSUFFICIENT_BALANCE), "insufficient_balance");
    CHECK_EQ_STR(zbc_exit_class(ZBC_EXIT_FEE_TOO_LOW), "fee_too_low");
    CHECK_EQ_STR(zbc_exit_class(ZBC_EXIT_REJECTED), "rejected");
    CHECK_EQ_STR(zbc_exit_class(ZBC_EXIT_NOT_FOUND), "not_found");
    CHECK_EQ_STR(zbc_exit_class(ZBC_EXIT_TIMEOUT), "timeout");
    CHECK_EQ_STR(zbc_exit_class(ZBC_EXIT_NODE_BUSY), "node_busy");
    CHECK_EQ_STR(zbc_exit_class(ZBC_EXIT_VERIFY_FAILED), "verify_failed");
    CHECK_EQ_INT(ZBC_EXIT_VERIFY_FAILED, 10);
    CHECK_EQ_INT(ZBC_EXIT_NODE_UNREACHABLE, 3);
}

int main(void)
{
    TEST_RUN(test_classes);
    TEST_RUN(test_names);
    return test_summary("wallet_classify");
}
