#!/usr/bin/env python3
# run.py: early
"""The perturbation soak's 3-minute version (docs/soak.md): the same code
as scripts/soak (tests/tools/soak.py) on 4 validators with a light mixed
workload and at least 10 faults of every kind this machine allows (kill -9,
SIGSTOP/SIGCONT, clean restarts, partitions in network namespaces, clock
skew, a full disk; a kind that cannot run here is SKIPPED with its reason
by the soak).  It passes only with 0 state-root divergences, no final
transaction or block lost, and zbc-audit clean on every data directory.

First, the test-only clock offset the clock-skew fault uses
(ZBCD_CLOCK_OFFSET_MS, docs/node.md §5): a bad value is a usage error
naming the variable, and a dev-mode node's block timestamps move by the
offset.  ZBC_SOAK_SEED=S replays a seed."""
import json
import os
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))

from framework import TestFailure, assert_equal, assert_true, free_port, genesis_mod  # noqa: E402
from soak import Soak  # noqa: E402

MINUTES = 3
RATE = 4.0  # wallet calls per second: modest, other tests run beside it
# Every kind, the full disk included (it once left a stored vote set naming
# a block a reorg undid: docs/soak.md §7, fixed in node/zbcd/finality.c).
KINDS = ("kill", "stop", "restart", "partition", "clock", "disk")


class SoakTest(Soak):
    def zbcd_env(self, offset, args, timeout=15):
        env = dict(os.environ, ZBCD_CLOCK_OFFSET_MS=offset)
        return subprocess.run([self.zbcd] + args, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, env=env, timeout=timeout)

    def mined_timestamp(self, datadir, genesis, offset):
        """Starts a dev-mode node with the offset, mines one block on a
        fresh copy of the chain; returns (wall ms before, block ts, wall ms
        after)."""
        port = free_port()
        log = open(os.path.join(self.tmpdir, "clock%s.log" % offset), "ab")
        env = dict(os.environ, ZBCD_CLOCK_OFFSET_MS=offset)
        p = subprocess.Popen([self.zbcd, "run", "--datadir", datadir, "--genesis", genesis,
                              "--api", "127.0.0.1:%d" % port, "--automine", "--no-web"],
                             stdout=log, stderr=subprocess.STDOUT, env=env)
        url = "http://127.0.0.1:%d/api/v1" % port
        try:
            end = time.monotonic() + 30
            while True:
                try:
                    before = json.load(urllib.request.urlopen(url + "/node/info", timeout=2))
                    break
                except OSError:
                    if p.poll() is not None or time.monotonic() > end:
                        raise TestFailure("the clock-offset node did not start")
                    time.sleep(0.1)
            token = open(os.path.join(datadir, "api.token")).read().strip()
            t0 = int(time.time() * 1000)
            req = urllib.request.Request(url + "/admin/mine", data=b'{"blocks": 1}',
                                         method="POST", headers={"X-ZBC-Token": token,
                                                                 "Content-Type": "application/json"})
            urllib.request.urlopen(req, timeout=10).read()
            t1 = int(time.time() * 1000)
            h = int(before["height"]) + 1
            b = json.load(urllib.request.urlopen(url + "/blocks/%d" % h, timeout=5))
            return t0, int(b["timestamp"]), t1
        finally:
            p.terminate()
            rc = p.wait(timeout=30)
            log.close()
            assert_equal(rc, 0, "exit code of the clock-offset node")

    def clock_offset_checks(self):
        d = os.path.join(self.tmpdir, "clock")
        p = subprocess.run([self.zbcd, "init", "--datadir", d], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=30)
        assert_equal(p.returncode, 0, "zbcd init for the clock check")
        for bad in ("abc", "-700000", "600001", "1e3", "+5", "-", "99999999999999999999999"):
            r = self.zbcd_env(bad, ["run", "--datadir", d, "--api", "127.0.0.1:%d" % free_port()])
            out = r.stdout.decode("utf-8", "replace")
            assert_equal(r.returncode, 2, "ZBCD_CLOCK_OFFSET_MS=%r: exit code (%s)" % (bad, out))
            assert_true("ZBCD_CLOCK_OFFSET_MS" in out, "the refusal of %r names the variable: %s"
                        % (bad, out))
        key = json.loads(subprocess.run([self.zbcd, "show-key", "--datadir", d],
                                        stdout=subprocess.PIPE, timeout=30).stdout)
        g = genesis_mod.make_genesis([key["node_public_key"]], key["producer_account"], [],
                                     genesis_time_ms=int(time.time() * 1000) - 120_000)
        gpath = os.path.join(self.tmpdir, "clock-genesis.json")
        genesis_mod.write_genesis(gpath, g)
        # behind first: a block 5 s ahead would hold the next one back
        t0, ts, t1 = self.mined_timestamp(d, gpath, "-5000")
        self.log("clock -5000 ms: mined at %d, wall clock %d..%d" % (ts, t0, t1))
        assert_true(t0 - 5000 <= ts <= t1 - 5000,
                    "a block mined with the clock 5 s behind is stamped %d, wall %d..%d"
                    % (ts, t0, t1))
        t0, ts, t1 = self.mined_timestamp(d, gpath, "5000")
        self.log("clock +5000 ms: mined at %d, wall clock %d..%d" % (ts, t0, t1))
        assert_true(t0 + 5000 <= ts <= t1 + 5000,
                    "a block mined with the clock 5 s ahead is stamped %d, wall %d..%d"
                    % (ts, t0, t1))
        logs = open(os.path.join(self.tmpdir, "clock5000.log")).read()
        assert_true("test clock offset ZBCD_CLOCK_OFFSET_MS=5000 ms" in logs,
                    "the node logs its clock offset at start")

    def soak(self):
        self.clock_offset_checks()
        super().soak()


if __name__ == "__main__":
    seed = os.environ.get("ZBC_SOAK_SEED")
    SoakTest(minutes=MINUTES, seed=int(seed) if seed else None, faults=KINDS, rate=RATE).main()
