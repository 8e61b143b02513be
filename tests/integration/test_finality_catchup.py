#!/usr/bin/env python3
"""A validator that holds blocks it never saw justified catches up with
finality after a restart (found by the soak, docs/soak.md §7: seed
1140701691, node 3 stayed at finalized_height 298 for 25 minutes while the
others finalised past 1700, and again when restarted on a copy).

Four validators.  Nodes 1 and 2 are frozen (SIGSTOP): with two of four
voting nothing is justified, but nodes 0 and 3 keep producing, so node 3's
ledger holds blocks above its justified block.  Node 3 is killed (kill -9),
1 and 2 resume: 0, 1, 2 justify and finalise those blocks without node 3
and move their final block past them.  Node 3 restarts: it already holds
those blocks, so no sync answer brings their vote sets, and the new peers'
handshake votes (their views start at their final block) name sources it
never saw justified.  Required: node 3's finalized_height reaches the
others' within 30 s, as the network's does (docs/protocol-chain.md §8)."""
import signal

from framework import (ZBC, ZbcTest, assert_true, kill_node, start_network, wait_converged,
                       wait_until)


class FinalityCatchup(ZbcTest):
    # how far past node 3's tip the others finalise while it is down: 3 is
    # within the 64 blocks a peer's handshake covers; the long-outage test
    # (test_finality_catchup_long.py) goes past them
    MARGIN = 3
    BLOCK_MS, SMITH_MS = 500, 300

    def fin(self, n):
        return int(n.info()["finalized_height"])

    def run_test(self):
        alice = self.wallet_key("alice")
        nodes = start_network(self, 4, [(alice, 100 * ZBC)], block_time_ms=self.BLOCK_MS,
                              smith_delay_ms=self.SMITH_MS)
        wait_until(lambda: min(self.fin(n) for n in nodes) >= 3, 60, "finality on every node")
        n0, n1, n2, n3 = nodes
        for n in (n1, n2):
            n.proc.send_signal(signal.SIGSTOP)
        try:
            start = n3.height()
            wait_until(lambda: n3.height() >= start + 3 and n0.height() == n3.height(), 30,
                       "blocks on nodes 0 and 3 while 1 and 2 are frozen")
            f3, h3 = self.fin(n3), n3.height()
            self.log("node 3 holds height %d with finalized_height %d" % (h3, f3))
            assert_true(h3 >= f3 + 3, "node 3 should hold blocks above its final block")
            kill_node(n3)
        finally:
            for n in (n1, n2):
                n.proc.send_signal(signal.SIGCONT)
        wait_until(lambda: min(self.fin(n) for n in (n0, n1, n2)) >= h3 + self.MARGIN, 60,
                   "nodes 0, 1, 2 to finalise %d blocks past node 3's" % self.MARGIN)
        n3.start(self.genesis_path, n3.run_args)
        wait_converged(nodes, min_height=h3 + self.MARGIN + 1, timeout=60)
        target = min(self.fin(n) for n in (n0, n1, n2))
        try:
            wait_until(lambda: self.fin(n3) >= target, 30,
                       "node 3's finalized_height to reach %d" % target)
        finally:
            self.log("finalized_height: %r" % [self.fin(n) for n in nodes])


if __name__ == "__main__":
    FinalityCatchup().main()
