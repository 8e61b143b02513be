#!/usr/bin/env python3
"""A damaged ledger or a full disk: a clear error, never a crash, never
silent data loss.
  - copies of a stopped node's data directory with data.mdb truncated (to
    a quarter, by one page, to zero bytes), both LMDB meta pages zeroed, a
    stored balance rewritten (`zbcd run --verify-state`: docs/node.md §3),
    the tip record pointing at no block: `zbcd run` exits 1 naming the
    damage (no SIGBUS, no start from genesis);
  - the untouched original still starts (with --verify-state) and a
    zbc-audit replay is clean;
  - disk full (a 2 MiB tmpfs, when this runs as root): a follower whose
    disk fills logs that it cannot store blocks, does not punish the
    producer, keeps its last committed block, restarts on the full disk,
    and catches up once space is freed; its ledger audits clean; `zbcd
    init` on the full disk fails with the reason and leaves no half
    initialised directory;
  - a read-only file system: start and init fail naming it; writable
    again, the node resumes from its tip."""
import json
import os
import re
import shutil
import subprocess

from framework import (ZBC, ZbcTest, fill_disk, assert_equal, assert_true, audit_datadir_clean,
                       run_audit, wait_converged, wait_until, zbcd_once, ledger_tamper)

FEE = 2_000_000


class CrashLedger(ZbcTest):
    def copy(self, node, name):
        d = os.path.join(self.tmpdir, name)
        shutil.copytree(node.datadir, d)
        return d

    def refused(self, datadir, want, what, extra=()):
        rc, out = zbcd_once(self, ["run", "--datadir", datadir, "--genesis", self.genesis_path,
                                   "--api", "127.0.0.1:0", "--no-produce", *extra])
        assert_equal(rc, 1, "%s: exit code of zbcd run (output %s)" % (what, out[-800:]))
        assert_true(want in out, "%s: the error does not say %r:\n%s" % (what, want, out[-1500:]))
        assert_true("started" not in out and "ledger initialised" not in out,
                    "%s: the node started anyway:\n%s" % (what, out[-1500:]))
        self.log("%s: refused: %s" % (what, [ln for ln in out.splitlines() if "ERROR" in ln][-1]))

    def tamper(self, ledger, *args):
        return ledger_tamper(self, ledger, *args)

    def damaged_copies(self, node, bob):
        data = lambda d: os.path.join(d, "ledger", "data.mdb")  # noqa: E731
        full = os.path.getsize(data(node.datadir))
        for name, size in (("quarter", full // 4), ("one-page-short", full - 4096)):
            d = self.copy(node, "trunc-" + name)
            os.truncate(data(d), size)
            self.refused(d, "is truncated", "data.mdb truncated to %d of %d bytes" % (size, full))
            # the auditor's read-only open refuses it too (exit 3, could not
            # audit) instead of dying of SIGBUS
            j = run_audit(self, "replay", "--datadir", d, "--genesis", self.genesis_path, expect=3)
            assert_true("is truncated" in json.dumps(j),
                        "zbc-audit on a truncated ledger does not say so: %s" % j)
        d = self.copy(node, "trunc-zero")
        os.truncate(data(d), 0)
        self.refused(d, "is missing or empty", "data.mdb truncated to 0 bytes")
        d = self.copy(node, "ledger-deleted")
        shutil.rmtree(os.path.join(d, "ledger"))
        self.refused(d, "is missing or empty", "the ledger directory deleted")
        d = self.copy(node, "meta-zeroed")
        with open(data(d), "r+b") as f:
            f.write(b"\0" * 8192)
        self.refused(d, "cannot open the ledger", "both meta pages zeroed")
        d = self.copy(node, "balance")
        key = self.zbc("address", bob, node=False)["account_bytes"]
        old = self.tamper(os.path.join(d, "ledger"), "get", "s_accounts", key)
        bal = int.from_bytes(bytes.fromhex(old[2:]), "little")
        self.tamper(os.path.join(d, "ledger"), "put", "s_accounts", key,
                    old[:2] + (bal + 1).to_bytes(8, "little").hex())
        # the full rescan is --verify-state's (docs/node.md §3): the O(1)
        # start-up checks cannot see one rewritten entry
        self.refused(d, "ledger state is damaged", "a stored balance rewritten",
                     ["--verify-state"])
        d = self.copy(node, "tip")
        self.tamper(os.path.join(d, "ledger"), "put", "meta", b"tip".hex(),
                    (10 ** 6).to_bytes(4, "little").hex() + "ab" * 32)
        self.refused(d, "cannot open the chain", "the tip record names no block")

    def disk_full(self, producer):
        mnt = os.path.join(self.tmpdir, "small-disk")
        os.mkdir(mnt)
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mnt],
                          stderr=subprocess.DEVNULL).returncode != 0:
            self.log("disk full: cannot mount a tmpfs (not root?): part skipped")
            return
        try:
            self.disk_full_on(producer, mnt)
        finally:
            for n in self.nodes[1:]:
                if n.proc is not None:
                    n.stop()
            subprocess.run(["umount", "-l", mnt])

    def disk_full_on(self, producer, mnt):
        f = self.add_node()
        f.datadir = os.path.join(mnt, "follower")
        f.init()
        f.run_args = ["--peer", "127.0.0.1:%d" % producer.p2p_port]
        f.start(self.genesis_path, f.run_args)
        wait_converged([producer, f], timeout=30)
        filler = os.path.join(mnt, "filler")
        fill_disk(filler)
        # a full tmpfs fails an LMDB commit with ENOSPC or EIO (as in
        # test_crash_diskfull_reorg), depending on which write meets it first
        self.expect_log(r"block from \S+ not stored: .*(No space left on device|Input/output error)")
        self.expect_log(r"zbcd init: .*No space left on device|cannot .*No space left on device")
        wait_until(lambda: re.search(r"not stored: .*(No space left|Input/output error)",
                                     f.read_log()), 90,
                   "the follower to report its full disk")
        stuck = f.height()
        producer.wait_for_height(stuck + 5, timeout=30)
        assert_equal(f.height(), stuck, "the follower's height while its disk is full")
        # node/info says why it is not synced; the ledger's ERROR is one line
        # for the whole condition, not one per block it could not store
        info = f.info()
        assert_true(info["synced"] is False and
                    "the ledger cannot store blocks: " in info["sync_reason"] and
                    "No space left on device" in info["sync_reason"],
                    "node/info while the disk is full: synced=%r reason=%r"
                    % (info["synced"], info.get("sync_reason")))
        assert_equal(f.read_log().count("ledger: cannot store: "), 1,
                     "ERROR lines for one full-disk condition")
        # init on the full disk: an error, no key, so a later init can succeed
        bad = os.path.join(mnt, "new")
        rc, out = zbcd_once(self, ["init", "--datadir", bad])
        assert_equal(rc, 1, "zbcd init on a full disk (%s)" % out)
        assert_true("No space left on device" in out, "init names the full disk: %s" % out)
        assert_true(not os.path.exists(os.path.join(bad, "node.key")),
                    "a failed init left a node.key")
        # restart on the full disk: the last committed block is there
        f.stop()
        f.start(self.genesis_path, f.run_args)
        assert_true(f.height() >= stuck, "the follower reopened below %d" % stuck)
        os.unlink(filler)
        wait_converged([producer, f], min_height=producer.height(), timeout=20)
        info = f.info()
        assert_true(info["synced"] is True and info["sync_reason"] == "",
                    "node/info once space is free: %r %r" % (info["synced"], info["sync_reason"]))
        log = f.read_log()
        assert_true("misbehaved" not in producer.read_log() + log and "banning" not in log,
                    "a full disk was blamed on a peer")
        self.log("disk full at height %d; caught up after space was freed" % stuck)
        f.stop()
        audit_datadir_clean(self, f.datadir, self.genesis_path)

    def read_only(self, node):
        """The data directory on a read-only file system (a read-only bind
        mount; Linux refuses to remount it while the node writes there):
        start and init fail naming it; writable again, the node resumes
        from its tip."""
        mnt = node.datadir
        h0 = node.height()
        node.stop()
        if subprocess.run(["mount", "--bind", mnt, mnt], stderr=subprocess.DEVNULL).returncode != 0:
            self.log("read-only: cannot bind-mount (not root?): part skipped")
            return
        try:
            subprocess.run(["mount", "-o", "remount,ro,bind", mnt], check=True)
            self.refused(node.datadir, "Read-only file system", "a start on a read-only file system")
            rc, out = zbcd_once(self, ["init", "--datadir", os.path.join(mnt, "new")])
            assert_true(rc == 1 and "Read-only file system" in out,
                        "init on a read-only file system: %s" % out)
        finally:
            subprocess.run(["umount", "-l", mnt])
        node.start(self.genesis_path, node.run_args)
        assert_true(node.height() >= h0, "the node reopened below %d" % h0)
        node.wait_for_height(h0 + 3, timeout=20)
        self.log("read-only data directory refused; resumed from %d when writable" % h0)

    def run_test(self):
        alice = self.wallet_key("alice")
        bob = self.wallet_key("bob")
        node = self.start_chain(balances=[(alice, 100 * ZBC)], block_time_ms=200,
                                smith_delay_ms=300)
        self.zbc("send", "--from", "alice", bob, "1ZBC", "--fee", FEE, "--wait")
        node.wait_for_height(8)
        node.stop()
        self.expect_log(r"startup: |cannot open the chain: ")
        self.damaged_copies(node, bob)
        # the original, untouched, is whole
        audit_datadir_clean(self, node.datadir, self.genesis_path)
        node.run_args = ["--p2p", "127.0.0.1:%d" % node.p2p_port]
        # and passes the full state rescan (docs/node.md §3)
        node.start(self.genesis_path, node.run_args + ["--verify-state"])
        assert_true("ledger: state verified by a full rescan in "
                    in node.read_log(), "a --verify-state start does not log its rescan")
        self.disk_full(node)
        self.read_only(node)


if __name__ == "__main__":
    CrashLedger().main()
