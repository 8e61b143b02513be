#!/usr/bin/env python3
"""Perturbations (CometBFT test/e2e) on three validators with 200 ms
blocks and transfers flowing:
  - pauses: SIGSTOP a random node for 0.2..2.5 s, SIGCONT, several times;
  - a node restarted on another --api port: the new port answers, the old
    one is closed, the node syncs back;
  - one data directory, two zbcd: a second `zbcd run` on a running node's
    directory exits 1 ("another zbcd is running"), also after the lock
    files were deleted under the running node, and two started at the same
    instant on one fresh directory leave exactly one running;
then every node reaches the same tip hash and state root, every confirmed
transfer is confirmed everywhere, and each data directory audits clean."""
import os
import random
import shutil
import signal
import subprocess
import time
import urllib.request

from framework import (ZBC, TestFailure, ZbcTest, assert_equal, assert_true, audit_datadir_clean,
                       free_port, start_network, wait_converged, wait_until, zbcd_once)

FEE = 2_000_000


class Perturb(ZbcTest):
    def send(self, nodes, k):
        nd = nodes[k % len(nodes)]
        r = self.zbc("send", "--from", "alice", self.bob, str(1000 + k), "--fee", FEE, node=nd)
        self.sent.append(r["transaction_hash"])

    def second_run_refused(self, datadir, what):
        self.log(what)
        rc, out = zbcd_once(self, ["run", "--datadir", datadir, "--genesis", self.genesis_path,
                                   "--api", "127.0.0.1:%d" % free_port(), "--no-produce"], timeout=15)
        assert_equal(rc, 1, "%s: exit code of a second zbcd (output %s)" % (what, out[-600:]))
        assert_true("another zbcd is running" in out, "%s: the refusal says why: %s" % (what, out[-600:]))

    def twins(self):
        """Two zbcd started at one instant on one fresh data directory."""
        d = os.path.join(self.tmpdir, "twin")
        rc, out = zbcd_once(self, ["init", "--datadir", d])
        assert_equal(rc, 0, "init of the twin directory: %s" % out)
        procs = []
        for _ in range(2):
            procs.append(subprocess.Popen(
                [self.zbcd, "run", "--datadir", d, "--genesis", self.genesis_path,
                 "--api", "127.0.0.1:%d" % free_port(), "--no-produce"],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT))
        time.sleep(2)
        alive = [p for p in procs if p.poll() is None]
        for p in alive:
            p.send_signal(signal.SIGTERM)
        outs = [p.communicate(timeout=30)[0].decode("utf-8", "replace") for p in procs]
        assert_equal(len(alive), 1, "zbcd processes running on one directory: %s" % outs)
        refused = [o for p, o in zip(procs, outs) if p not in alive]
        assert_true("another zbcd is running" in refused[0], "the twin's refusal: %s" % refused[0])
        assert_equal(alive[0].returncode, 0, "the running twin's exit code")
        audit_datadir_clean(self, d, self.genesis_path)

    def run_test(self):
        rng = random.Random(int(os.environ.get("ZBC_PERTURB_SEED", "7")))
        alice = self.wallet_key("alice")
        self.bob = self.wallet_key("bob")
        nodes = start_network(self, 3, [(alice, 1000 * ZBC)], block_time_ms=200, smith_delay_ms=300)
        wait_converged(nodes, min_height=3, timeout=30)
        self.sent = []

        # pauses
        for k in range(5):
            victim = nodes[rng.randrange(3)]
            others = [n for n in nodes if n is not victim]
            victim.proc.send_signal(signal.SIGSTOP)
            self.send(others, k)
            time.sleep(rng.uniform(0.2, 2.5))
            victim.proc.send_signal(signal.SIGCONT)
        h, _, _ = wait_converged(nodes, min_height=nodes[0].height() + 2, timeout=30)
        self.log("after 5 pauses: converged at height %d" % h)

        # another API port
        n1 = nodes[1]
        old = n1.api_port
        n1.stop()
        n1.api_port = free_port()
        n1.start(self.genesis_path, n1.run_args)
        try:
            urllib.request.urlopen("http://127.0.0.1:%d/api/v1/node/info" % old, timeout=2)
            raise TestFailure("the old API port %d still answers" % old)
        except OSError:
            pass
        self.send(nodes, 10)
        wait_converged(nodes, min_height=nodes[0].height() + 2, timeout=30)

        # one data directory, two zbcd
        self.second_run_refused(nodes[0].datadir, "a second zbcd on a running node's directory")
        # lock files deleted under the running node (the old zbcd.lock,
        # LMDB's lock.mdb): still one zbcd, and the running one goes on
        for lock in (os.path.join(nodes[0].datadir, "zbcd.lock"),
                     os.path.join(nodes[0].datadir, "ledger", "lock.mdb")):
            if os.path.exists(lock):
                os.unlink(lock)
        self.second_run_refused(nodes[0].datadir, "a second zbcd after the lock files were deleted")
        self.twins()
        self.send(nodes, 11)

        # everything confirmed everywhere, one state
        for t in self.sent:
            self.wait_confirmed(t, nodes[0], timeout=30)
        h, tip, root = wait_converged(nodes, min_height=nodes[0].height() + 1, timeout=30)
        for nd in nodes:
            for t in self.sent:
                st, j = self.tx_status(t, nd)
                assert_equal(j.get("status"), "confirmed", "tx %s on node %d" % (t[:16], nd.index))
        bals = [self.balance(self.bob, nd) for nd in nodes]
        assert_equal(len(set(bals)), 1, "bob's balance on the three nodes %r" % bals)
        self.log("%d transfers confirmed everywhere; converged at %d" % (len(self.sent), h))
        for nd in nodes:
            nd.stop()
        for nd in nodes:
            audit_datadir_clean(self, nd.datadir, self.genesis_path)
        shutil.rmtree(os.path.join(self.tmpdir, "twin"), ignore_errors=True)


if __name__ == "__main__":
    Perturb().main()
