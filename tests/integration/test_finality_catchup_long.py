#!/usr/bin/env python3
"""test_finality_catchup.py with a long outage: node 3 stays down until the
others have finalised 80 blocks past its tip, more than the 64 blocks a
peer's handshake brings votes for (docs/soak.md §7, docs/protocol-chain.md
§8.7).  Only a request for a range of stored vote sets (GetVoteSets,
docs/p2p.md §13) brings the sets of the blocks it already held: without
it node 3's finalized_height stayed at its old value for good.  Fast
blocks (300 ms) keep it short."""
from framework import assert_true
from test_finality_catchup import FinalityCatchup


class FinalityCatchupLong(FinalityCatchup):
    MARGIN = 80
    BLOCK_MS, SMITH_MS = 300, 200

    def run_test(self):
        super().run_test()
        # it was the request that did it, not a handshake's votes
        log = open(self.nodes[3].log_path, "rb").read().decode("utf-8", "replace")
        lines = [ln for ln in log.splitlines() if "p2p: vote sets from" in ln]
        self.log("node 3: %s" % (lines[:3],))
        assert_true(lines, "node 3 logs the vote sets a GetVoteSets brought")


if __name__ == "__main__":
    FinalityCatchupLong().main()
