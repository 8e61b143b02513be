#!/usr/bin/env python3
"""A transaction is not stranded in the one mempool it reached (docs/p2p.md
§4 "Re-announce"): node A (not a validator) takes a transfer while its only
peer, validator B, is down, so the announcement at admission reaches nobody.
B comes up (--automine: a block as soon as its pool holds a transaction) and
A connects to it.  Nothing announces A's pool on a new connection; 10 s
(ZBC_P2P_REANNOUNCE_MS) after the admission A announces the still-pooled
transfer again to every peer, B asks for it, pools it and includes it, and A
sees it confirmed.  Before re-announcement it stayed in A's pool for good."""
import os
import time

import genesis as genesis_mod
from framework import (AUTOMINE_BLOCK_MS, ZBC, ZbcTest, assert_equal, assert_true, free_port,
                       wait_until)

REANNOUNCE_S = 10       # ZBC_P2P_REANNOUNCE_MS
FEE = "2000000"


class TxReannounce(ZbcTest):
    def run_test(self):
        alice = self.wallet_key("alice")
        bob = self.wallet_key("bob")
        b, a = self.add_node(), self.add_node()
        key_b = b.init()
        a.init()
        g = genesis_mod.make_genesis([key_b], self.wallet_key("apps-fund"), [(alice, 100 * ZBC)],
                                     block_time_ms=AUTOMINE_BLOCK_MS,
                                     smith_delay_ms=AUTOMINE_BLOCK_MS)
        self.genesis = g
        self.genesis_path = os.path.join(self.tmpdir, "genesis.json")
        genesis_mod.write_genesis(self.genesis_path, g)
        port_a, port_b = free_port(), free_port()
        # A dials B, which is not up yet (A redials with back-off)
        a.start(self.genesis_path, ["--p2p", "127.0.0.1:%d" % port_a,
                                    "--peer", "127.0.0.1:%d" % port_b])
        r = self.zbc("send", "--from", "alice", bob, "1ZBC", "--fee", FEE, node=a)
        tx = r["transaction_hash"]
        t0 = time.monotonic()
        assert_equal(a.info()["mempool_size"], 1, "the transfer waits in A's pool")
        b.start(self.genesis_path, ["--automine", "--p2p", "127.0.0.1:%d" % port_b])

        wait_until(lambda: b.info().get("peer_count", 0) >= 1, 20, "A connected to B")
        self.log("A connected to B after %.1f s" % (time.monotonic() - t0))
        assert_equal(b.info()["mempool_size"], 0, "B got the transfer at the connection")

        def confirmed(node):
            def f():
                st, j = node.get("/api/v1/transactions/%s/status" % tx)
                return j if st == 200 and j.get("status") == "confirmed" else None
            return f
        j = wait_until(confirmed(b), REANNOUNCE_S + 20, "the transfer included by B", interval=0.2)
        took = time.monotonic() - t0
        self.log("B included the transfer in block %d, %.1f s after A took it"
                 % (j["block_height"], took))
        assert_true(took >= REANNOUNCE_S - 1,
                    "included after %.1f s: before the re-announcement (%d s)?" % (took, REANNOUNCE_S))
        wait_until(confirmed(a), 20, "A sees the transfer confirmed")


if __name__ == "__main__":
    TxReannounce().main()
