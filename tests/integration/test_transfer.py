#!/usr/bin/env python3
"""(a) A transfer end to end: genesis funds two wallets, `zbc send --wait`
includes it, both balances and the producer's fee move exactly; the node
stops on SIGTERM, restarts with the same height, balances and transaction
status, and keeps producing."""
from framework import ZBC, ZbcTest, assert_equal, assert_true, wait_until

AMOUNT = 1250000000  # 12.5 ZBC
FEE = 2000000


class Transfer(ZbcTest):
    def run_test(self):
        alice = self.wallet_key("alice")
        bob = self.wallet_key("bob")
        node = self.start_chain(balances=[(alice, 1000 * ZBC), (bob, 1000 * ZBC)])
        producer = self.zbc("address", node.node_key, node=False)["address"]
        assert_equal(self.zbc("balance", "alice")["balance"], 1000 * ZBC, "alice at genesis")
        assert_equal(self.zbc("balance", bob)["balance"], 1000 * ZBC, "bob at genesis")
        fees_before = self.balance(producer)

        r = self.zbc("send", "--from", "alice", bob, "12.5ZBC", "--fee", FEE, "--wait",
                     "--message", "integration transfer")
        tx, height = r["transaction_hash"], r["block_height"]
        assert_equal(r["status"], "confirmed", "send --wait status")
        assert_equal(r["transaction_type"], 1, "type")
        assert_equal(r["fee"], FEE, "fee")
        assert_true(isinstance(height, int) and height >= 1, "block height %r" % height)
        self.log("tx %s in block %d" % (tx, height))

        want = {alice: 1000 * ZBC - AMOUNT - FEE, bob: 1000 * ZBC + AMOUNT}
        wait_until(lambda: all(self.balance(a) == v for a, v in want.items()), 30,
                   "balances after the transfer")
        assert_equal(self.zbc("balance", "alice")["balance"], want[alice], "zbc balance alice")
        assert_equal(self.zbc("balance", "bob")["balance"], want[bob], "zbc balance bob")
        # The producer earned exactly the fee; nobody else gained anything.
        wait_until(lambda: self.balance(producer) == fees_before + FEE, 30, "the producer's fee")

        st = self.zbc("tx", "status", tx)
        assert_equal(st["status"], "confirmed", "tx status")
        assert_equal(st["block_height"], height, "tx status height")
        show = self.zbc("tx", "show", tx)
        assert_equal(show["block_height"], height, "tx show height")
        st, blk = node.get("/api/v1/blocks/%d" % height)
        assert_equal(st, 200, "GET block %d" % height)

        # Stop (SIGTERM, clean exit), restart, nothing lost.
        h_before = node.height()
        node.stop()
        node.start(self.genesis_path)
        assert_true(node.height() >= h_before, "height after restart %d < %d" % (node.height(), h_before))
        for a, v in want.items():
            assert_equal(self.balance(a), v, "balance of %s after restart" % a)
        assert_equal(self.balance(producer), fees_before + FEE, "producer after restart")
        st = self.zbc("tx", "status", tx)
        assert_equal((st["status"], st["block_height"]), ("confirmed", height), "tx after restart")
        node.wait_for_height(h_before + 2, timeout=30)

        # and it still takes transactions
        r = self.zbc("send", "--from", "bob", alice, "1", "--fee", FEE, "--wait")
        assert_true(r["block_height"] > h_before, "a block after the restart")


if __name__ == "__main__":
    Transfer().main()
