#!/usr/bin/env python3
"""A full disk in the middle of a reorg is the node's own fault, not its
peers' (needs root for a 2 MiB tmpfs; skipped with a message otherwise).
Two validators A and B run apart (B starts first, so its branch is the
heavier); a follower F on the small disk follows A; F's disk is filled; F
restarts dialling both A and B, so it must switch to B's branch and cannot
store it.  Required: F blames no peer (no "misbehaved", no ban), keeps a
consistent committed tip (the start-up checks pass on every restart), and
once space is freed it reaches the same tip as A and B well within the
60 s a ban would last; its ledger then audits clean."""
import os
import re
import subprocess
import time

from framework import (ZBC, ZbcTest, fill_disk, assert_true, audit_datadir_clean, wait_converged, wait_until)
import genesis as genesis_mod


class DiskFullReorg(ZbcTest):
    def run_test(self):
        self.expect_log(r"not stored: .*(No space left|Input/output error)")
        self.expect_log(r"reorg: cannot switch back: .*(No space left|Input/output error)")
        self.expect_log(r"ledger: cannot store: .*No space left on device")
        alice = self.wallet_key("alice")
        a, b = self.add_node(), self.add_node()
        keys = [a.init(), b.init()]
        g = genesis_mod.make_genesis(keys, self.wallet_key("fund"), [(alice, 1000 * ZBC)],
                                     block_time_ms=200, smith_delay_ms=300)
        self.genesis_path = os.path.join(self.tmpdir, "genesis.json")
        genesis_mod.write_genesis(self.genesis_path, g)
        b.run_args = ["--p2p", "127.0.0.1:%d" % b.p2p_port]
        b.start(self.genesis_path, b.run_args)
        b.wait_for_height(12, timeout=30)
        a.run_args = ["--p2p", "127.0.0.1:%d" % a.p2p_port]
        a.start(self.genesis_path, a.run_args)

        mnt = os.path.join(self.tmpdir, "small-disk")
        os.mkdir(mnt)
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mnt],
                          stderr=subprocess.DEVNULL).returncode != 0:
            self.log("cannot mount a tmpfs (not root?): test skipped")
            return
        try:
            f = self.add_node()
            f.datadir = os.path.join(mnt, "follower")
            f.init()
            f.run_args = ["--peer", "127.0.0.1:%d" % a.p2p_port]
            f.start(self.genesis_path, f.run_args)
            wait_converged([a, f], min_height=3, timeout=30)
            filler = os.path.join(mnt, "filler")
            fill_disk(filler)
            wait_until(lambda: re.search(r"not stored: ", f.read_log()), 90,
                       "the follower to report its full disk")
            f.stop()
            f.run_args += ["--peer", "127.0.0.1:%d" % b.p2p_port]
            f.start(self.genesis_path, f.run_args)
            wait_until(lambda: "peer 127.0.0.1:%d connected" % b.p2p_port in f.read_log(), 15,
                       "the follower to reach B")
            time.sleep(3)
            self.log("full disk: A %d, B %d, F %d" % (a.height(), b.height(), f.height()))
            os.unlink(filler)
            h, tip, root = wait_converged([a, b, f], min_height=b.height(), timeout=25)
            log = f.read_log()
            assert_true("misbehaved" not in log and "banning" not in log,
                        "the follower blamed a peer for its full disk: %s"
                        % [ln for ln in log.splitlines() if "misbehaved" in ln][:2])
            self.log("space freed: converged at height %d" % h)
            f.stop()
            audit_datadir_clean(self, f.datadir, self.genesis_path)
        finally:
            if len(self.nodes) > 2 and self.nodes[2].proc is not None:
                self.nodes[2].stop()
            subprocess.run(["umount", "-l", mnt])


if __name__ == "__main__":
    DiskFullReorg().main()
