#!/usr/bin/env python3
"""A node killed (SIGKILL) while it syncs (docs/p2p.md §5: the blocks of a
sync answer are applied in slices, one ledger commit per slice):

- an --automine validator makes a chain of BLOCKS blocks (transfers in some
  of them); a fresh node syncs it from the validator over P2P;
- the fresh node is killed with SIGKILL KILLS times at different heights
  while it syncs, each time restarted on its data directory: it must open
  (the start-up checks: tip block, state accumulator, state root), at a
  height at most one sync answer (128 blocks) below the last one it
  reported before the kill (an answer is committed when it is applied;
  node/info shows its blocks as they are applied), and go on syncing;
- at the end it has the validator's tip hash and state root, and a full
  zbc-audit replay of its data directory finds no divergence;
- while it syncs, node/info answers: the slowest answer is logged (no
  timed assertion; docs/benchmarks.md "Sync" measures it).
"""
import os
import shutil
import tempfile
import time

import genesis as genesis_mod

from framework import (TestFailure, ZbcTest, assert_true, audit_datadir_clean, kill_node, p2p_args,
                       started_tip, wait_converged, wait_until)

BLOCKS = 4000
ANSWER = 128  # blocks per sync answer (docs/p2p.md §5)
KILLS = 3
FEE = 2_000_000


class SyncCrash(ZbcTest):
    def make_chain(self):
        """The validator's data directory in RAM (/dev/shm, as
        tests/tools/make_chain.py): thousands of blocks in seconds; the
        fresh node, the one under test, keeps its ledger on disk."""
        self.shm = tempfile.mkdtemp(prefix="zbc-sync-crash-", dir="/dev/shm")
        alice = self.wallet_key("alice")
        bob = self.wallet_key("bob")
        prod = self.add_node()
        prod.datadir = os.path.join(self.shm, "node0")
        key = prod.init()
        g = genesis_mod.make_genesis([key], self.wallet_key("apps-fund"), [(alice, 10**15)],
                                     block_time_ms=1, smith_delay_ms=1)
        self.genesis_path = os.path.join(self.tmpdir, "genesis.json")
        genesis_mod.write_genesis(self.genesis_path, g)
        prod.run_args = ["--automine"] + p2p_args(prod, [])
        prod.start(self.genesis_path, prod.run_args)
        for k in range(20):
            self.zbc("send", "--from", "alice", bob, str(1000 + k), "--fee", FEE, node=prod)
            self.mine(1, prod)
        while prod.height() < BLOCKS:
            self.mine(min(500, BLOCKS - prod.height()), prod)
        return prod

    def teardown(self):
        ok = super().teardown()
        if getattr(self, "shm", None):
            shutil.rmtree(self.shm, ignore_errors=True)
        return ok

    def poll(self, node, until):
        """node/info every 20 ms until until(height) holds; returns the last
        height and the slowest answer (s)."""
        slowest, h = 0.0, 0
        deadline = time.time() + 120
        while time.time() < deadline:
            t0 = time.time()
            h = int(node.info()["height"])
            slowest = max(slowest, time.time() - t0)
            if until(h):
                return h, slowest
            time.sleep(0.02)
        raise TestFailure("node %d stuck at height %d" % (node.index, h))

    def run_test(self):
        prod = self.make_chain()
        target = prod.height()
        fresh = self.add_node()
        fresh.init()
        fresh.run_args = p2p_args(fresh, [prod])
        fresh.start(self.genesis_path, fresh.run_args)
        slowest = 0.0
        for i in range(KILLS):
            # kill somewhere past a fraction of the chain, mid-sync
            at = target * (i + 1) // (KILLS + 1)
            h, s = self.poll(fresh, lambda hh, at=at: hh >= at)
            slowest = max(slowest, s)
            assert_true(h < target, "kill %d: the sync was over (height %d of %d) before "
                        "the kill: make the chain longer" % (i, h, target))
            kill_node(fresh)
            fresh.start(self.genesis_path, fresh.run_args)
            start_h, _ = started_tip(fresh)
            assert_true(start_h > h - ANSWER, "kill %d: restarted at height %d, more than "
                        "one answer below the %d it reported before the kill" % (i, start_h, h))
            self.log("kill %d at reported height %d; restarted at %d" % (i, h, start_h))
        h, s = self.poll(fresh, lambda hh: hh >= target)
        slowest = max(slowest, s)
        wait_converged([prod, fresh], target, timeout=60)
        assert_true("p2p: sync batch from" in fresh.read_log(), "no sync batch logged")
        self.log("synced %d blocks through %d kills; slowest node/info during the sync "
                 "%.3f s" % (target, KILLS, slowest))
        fresh.stop()
        prod.stop()
        audited = audit_datadir_clean(self, fresh.datadir, self.genesis_path)
        assert_true(audited >= target, "audited %d of %d heights" % (audited, target))


if __name__ == "__main__":
    SyncCrash().main()
