#!/usr/bin/env python3
"""The perturbation soak (docs/soak.md): 4 validators, a mixed workload,
and randomized faults -- kill -9, SIGSTOP/SIGCONT, clean restarts, network
partitions, clock skew, a full disk -- for --minutes; then the network
heals and the run must end with every node on one chain (0 state-root
divergences), no transaction once reported final lost, no final block
undone, and zbc-audit clean on every data directory (signatures, state
roots and the money invariant at every height).

    tests/tools/soak.py --build build [--minutes 30] [--seed S]
                        [--faults kill,stop,restart,partition,clock,disk]
                        [--rate TX_PER_S] [--keep]

scripts/soak runs it; tests/integration/test_soak.py runs it for 3 minutes.
Exit 0 only if everything held; the seed to replay is printed first and
last; on failure the logs and data directories are kept."""
import argparse
import collections
import math
import os
import random
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
sys.path.insert(0, HERE)

import framework  # noqa: E402
from framework import (ZBC, Node, TestFailure, ZbcTest, genesis_mod, run_audit,  # noqa: E402
                       wait_until)
from soak_env import Netns, SmallDisk  # noqa: E402
from soak_load import Load, Tracker  # noqa: E402

KINDS = ("kill", "stop", "restart", "partition", "clock", "disk")
N_NODES = 4
N_ACCOUNTS = 6
P2P_PORT = 9555
FAULTS_PER_30_MIN = 100
MIN_FAULTS = 10
SETTLE_S = 120

# Log lines a node writes at ERROR on purpose under these faults (anything
# else at ERROR/FATAL fails the soak, as in the integration framework):
# a full disk is the node's own failure to store (docs/node.md §7).
EXPECTED_ERRORS = [
    r"No space left on device",
    r"not stored: .*(No space left|Input/output error)",
    r"reorg: cannot switch back: .*(No space left|Input/output error)",
]


class SoakNode(Node):
    """A zbcd, inside network namespace ns at addr when namespaces are
    used, else on loopback; env_extra (the clock offset) goes to its
    environment."""

    def __init__(self, test, index, ns=None, addr="127.0.0.1"):
        super().__init__(test, index)
        self.ns, self.addr = ns, addr
        if ns is not None:
            self.p2p_port = P2P_PORT
        self.state = "down"  # up, frozen, down
        self.clock_offset_ms = 0
        self.disk = None

    @property
    def api_url(self):
        return "http://%s:%d" % (self.addr, self.api_port)

    def start(self, genesis_path, extra=()):
        self.genesis_path = genesis_path
        cmd = [] if self.ns is None else ["ip", "netns", "exec", self.ns]
        cmd += [self.test.zbcd, "run", "--datadir", self.datadir, "--genesis", genesis_path,
                "--api", "%s:%d" % (self.addr, self.api_port)] + list(extra)
        env = dict(os.environ)
        env.setdefault("ASAN_OPTIONS", "detect_leaks=1")
        env.pop("ZBCD_CLOCK_OFFSET_MS", None)
        if self.clock_offset_ms:
            env["ZBCD_CLOCK_OFFSET_MS"] = str(self.clock_offset_ms)
        self.log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT, env=env)
        self.wait_for_api()
        self.state = "up"


class Soak(ZbcTest):
    def __init__(self, minutes=30.0, seed=None, faults=None, rate=None, disk_mb=128):
        super().__init__()
        self.minutes = minutes
        self.seed = seed if seed is not None else int.from_bytes(os.urandom(4), "big")
        self.want_kinds = list(faults or KINDS)
        self.rate = rate if rate is not None else 10.0
        self.disk_mb = disk_mb
        self.target = max(MIN_FAULTS, math.ceil(FAULTS_PER_30_MIN * minutes / 30.0))
        self.fault_counts = collections.Counter()
        self.fault_log = []
        self.skipped = {}  # kind -> reason
        self.problems = []  # failures found while running
        self.plock = threading.Lock()
        self.node_lock = threading.Lock()
        self.netns = None
        self.disks = []
        self.failed = False
        for pat in EXPECTED_ERRORS:
            self.expect_log(pat)

    # ---- shared with the workload ----
    def problem(self, what):
        with self.plock:
            self.problems.append(what)
        self.log("PROBLEM: " + what)

    def sanitizer_hit(self, text):
        return framework.SANITIZER_RE.search(text) is not None

    def up_nodes(self):
        with self.node_lock:
            return [n for n in self.nodes if n.state == "up"]

    def pick_up_node(self, x):
        up = self.up_nodes()
        return up[int(x * len(up)) % len(up)] if up else None

    def set_state(self, node, state):
        with self.node_lock:
            node.state = state

    # ---- setup ----
    def plan_kinds(self):
        for k in self.want_kinds:
            if k not in KINDS:
                raise TestFailure("unknown fault kind %r (kinds: %s)" % (k, ",".join(KINDS)))
        if "partition" in self.want_kinds:
            why = Netns.unavailable()
            if why:
                self.skipped["partition"] = why
        if "disk" in self.want_kinds:
            why = SmallDisk.unavailable(self.tmpdir)
            if why:
                self.skipped["disk"] = why
        for k, why in self.skipped.items():
            self.log("SKIPPED fault kind %s: %s" % (k, why))
        self.kinds = [k for k in self.want_kinds if k not in self.skipped]
        if not self.kinds:
            raise TestFailure("no fault kind can run here (%s)" % self.skipped)

    def make_nodes(self):
        if "partition" in self.kinds:
            self.netns = Netns(N_NODES)
            self.netns.setup()
        for k in range(N_NODES):
            if self.netns is not None:
                n = SoakNode(self, k, self.netns.namespaces[k], self.netns.addrs[k])
            else:
                n = SoakNode(self, k)
            if "disk" in self.kinds:
                n.disk = SmallDisk(os.path.join(self.tmpdir, "disk%d" % k), self.disk_mb)
                n.disk.mount()
                self.disks.append(n.disk)
                n.datadir = os.path.join(n.disk.path, "node%d" % k)
            self.nodes.append(n)

    def make_accounts(self):
        rng = random.Random(self.seed ^ 0x5eed)
        self.accounts = []
        for k in range(N_ACCOUNTS + 1):
            seed = "%064x" % rng.getrandbits(256)
            r = self.zbc("key", "derive", seed, node=False)
            self.accounts.append(("user%d" % k, seed, r["address"]))
        self.fund = self.accounts.pop()  # the apps fund: pays bets' wins

    def start_all(self):
        keys = [n.init() for n in self.nodes]
        balances = [(a, 100_000 * ZBC) for _, _, a in self.accounts]
        g = genesis_mod.make_genesis(keys, self.fund[2], balances, block_time_ms=1000,
                                     smith_delay_ms=1000)
        self.genesis = g
        self.genesis_path = os.path.join(self.tmpdir, "genesis.json")
        genesis_mod.write_genesis(self.genesis_path, g)
        for n in self.nodes:
            n.run_args = ["--p2p", "%s:%d" % (n.addr, n.p2p_port)]
            for o in self.nodes:
                if o is not n:
                    n.run_args += ["--peer", "%s:%d" % (o.addr, o.p2p_port)]
        for n in self.nodes:
            n.start(self.genesis_path, n.run_args)
        self.genesis_hash = self.nodes[0].info()["genesis_hash"]
        framework.wait_converged(self.nodes, min_height=2, timeout=60)

    # ---- faults ----
    def hold(self, rng, slot):
        """How long a fault lasts: a share of the fault's time slot,
        2..10 s."""
        return max(2.0, min(10.0, rng.uniform(0.15, 0.45) * slot))

    def restart(self, node, offset_ms=None):
        if offset_ms is not None:
            node.clock_offset_ms = offset_ms
        node.start(self.genesis_path, node.run_args)

    def stop_clean(self, node, how):
        """SIGTERM or POST /api/v1/admin/stop; the exit must be 0."""
        self.set_state(node, "down")
        if how == "admin":
            token = open(os.path.join(node.datadir, "api.token")).read().strip()
            st, j = node.request("POST", "/api/v1/admin/stop", "{}", {"X-ZBC-Token": token})
            if st != 200:
                raise TestFailure("admin/stop of node %d answered %d %r" % (node.index, st, j))
            try:
                rc = node.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                raise TestFailure("node %d did not stop within 30 s of admin/stop" % node.index)
            node.proc = None
            node.log.close()
            node.check_log()
            if rc != 0:
                raise TestFailure("node %d exited %d after admin/stop; log tail:\n%s"
                                  % (node.index, rc, node.read_log()[-3000:]))
        else:
            node.stop()

    def tips_seen(self):
        """height:tip-prefix of every node, and how many tips differ."""
        out = []
        for n in self.nodes:
            try:
                j = n.info()
                out.append("%s:%s" % (j["height"], j["tip_hash"][:6]))
            except (OSError, TestFailure, KeyError):
                out.append("?")
        return "%s, %d distinct" % (" ".join(out), len(set(x.split(":")[-1] for x in out)))

    def fault(self, kind, rng, slot):
        """Applies one fault, holds it, heals it; returns its description."""
        victim = self.nodes[rng.randrange(N_NODES)]
        hold = self.hold(rng, slot)
        if kind == "kill":
            self.set_state(victim, "down")
            framework.kill_node(victim)
            time.sleep(min(hold, 3.0))
            self.restart(victim)
            return "kill -9 node %d, restarted %.1f s later" % (victim.index, min(hold, 3.0))
        if kind == "stop":
            self.set_state(victim, "frozen")
            victim.proc.send_signal(signal.SIGSTOP)
            time.sleep(hold)
            victim.proc.send_signal(signal.SIGCONT)
            self.set_state(victim, "up")
            return "SIGSTOP node %d for %.1f s" % (victim.index, hold)
        if kind == "restart":
            how = "admin" if rng.random() < 0.5 else "sigterm"
            self.stop_clean(victim, how)
            time.sleep(min(hold, 2.0))
            self.restart(victim)
            return "clean restart (%s) of node %d" % (how, victim.index)
        if kind == "partition":
            if rng.random() < 0.5:
                side_a = [victim.index]
            else:
                side_a = sorted(rng.sample(range(N_NODES), 2))
            side_b = [k for k in range(N_NODES) if k not in side_a]
            self.netns.partition(side_a, side_b)
            time.sleep(hold)
            seen = self.tips_seen()
            self.netns.heal()
            return "partition %s | %s for %.1f s (tips at its end: %s)" % (
                side_a, side_b, hold, seen)
        if kind == "clock":
            off = rng.choice((-1, 1)) * rng.randrange(1500, 5001)
            self.stop_clean(victim, "sigterm")
            self.restart(victim, off)
            time.sleep(hold)
            self.stop_clean(victim, "sigterm")
            self.restart(victim, 0)
            return "clock of node %d off by %+d ms for %.1f s" % (victim.index, off, hold)
        if kind == "disk":
            return self.disk_full(victim, hold)
        raise TestFailure("unknown fault kind %s" % kind)

    def disk_full(self, node, hold):
        """Fills the node's tmpfs; the node must go on (refusing to store)
        or stop with an error exit, never crash; frees it and restarts a
        node that stopped."""
        filled = node.disk.fill()
        time.sleep(hold)
        rc = node.proc.poll()
        said = ""
        if rc is None:
            try:
                st, info = node.get("/api/v1/node/info")
                said = "synced=%s %s" % (info.get("synced"), info.get("sync_reason", ""))
            except OSError as e:
                said = "API: %s" % e
        node.disk.free()
        if rc is not None:
            self.set_state(node, "down")
            node.proc = None
            node.log.close()
            node.check_log()
            if rc < 0 or rc >= 128:
                raise TestFailure("node %d crashed on a full disk (exit %d); log tail:\n%s"
                                  % (node.index, rc, node.read_log()[-3000:]))
            self.restart(node)
            return ("disk of node %d full (%d MiB ballast) for %.1f s: it stopped with exit "
                    "%d, restarted" % (node.index, filled >> 20, hold, rc))
        return ("disk of node %d full (%d MiB ballast) for %.1f s: it ran on (%s)"
                % (node.index, filled >> 20, hold, said.strip()))

    def run_faults(self, t_end):
        rng = random.Random(self.seed)
        slot = self.minutes * 60.0 * 0.9 / self.target
        seq = []
        t0 = time.monotonic()
        k = 0
        while True:
            at = t0 + k * slot + rng.uniform(0, 0.3 * slot)
            if at >= t_end:
                break
            if not seq:
                seq = list(self.kinds)
                rng.shuffle(seq)
            kind = seq.pop()
            delay = at - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            started = time.monotonic()
            what = self.fault(kind, rng, slot)
            self.fault_counts[kind] += 1
            self.fault_log.append((round(started - t0, 1), kind, what))
            self.log("fault %d (%s) at +%.0f s: %s" % (k + 1, kind, started - t0, what))
            for n in self.nodes:  # a node that died by itself is a failure
                if n.proc is not None and n.proc.poll() is not None:
                    raise TestFailure("node %d exited by itself (exit %d) after fault %d; log "
                                      "tail:\n%s" % (n.index, n.proc.returncode, k + 1,
                                                     n.read_log()[-3000:]))
            k += 1
        left = t_end - time.monotonic()
        if left > 0:
            time.sleep(left)

    # ---- the end checks ----
    def chain_of(self, node, top):
        """{height: (hash, state_root, [tx hashes])} of node, 1..top."""
        out = {}
        for h in range(1, top + 1):
            st, b = node.get("/api/v1/blocks/%d" % h)
            if st != 200:
                raise TestFailure("node %d: GET /blocks/%d answered %d" % (node.index, h, st))
            out[h] = (b["hash"], b["state_root"], b.get("transactions") or [])
        return out

    def settle(self):
        """Load stopped, every fault healed: the nodes must agree on one
        tip, then finality must pass the last transactions."""
        top = max(n.height() for n in self.nodes)
        h, tip, root = framework.wait_converged(self.nodes, min_height=top + 1, timeout=SETTLE_S)
        self.log("converged at height %d (tip %s, state root %s)" % (h, tip[:16], root[:16]))
        wait_until(lambda: min(int(n.info()["finalized_height"]) for n in self.nodes) >= top,
                   SETTLE_S, "finalized_height >= %d on every node" % top, interval=0.5)
        for _ in range(3):
            self.tracker.sweep(min_age=0.0)
        self.unfinished = collections.Counter()
        for tx in list(self.tracker.pending):
            st, j = self.nodes[0].get("/api/v1/transactions/%s/status" % tx)
            s = j.get("status") if isinstance(j, dict) else None
            if s == "confirmed":
                s = "confirmed above height %d, not final yet" % top
            self.unfinished[s or "HTTP %d" % st] += 1
        return h

    def check_chains(self):
        top = min(n.height() for n in self.nodes)
        chains = [self.chain_of(n, top) for n in self.nodes]
        divergent = [h for h in range(1, top + 1)
                     if len(set((c[h][0], c[h][1]) for c in chains)) != 1]
        for h in divergent[:5]:
            self.log("DIVERGENCE at height %d: %s" % (
                h, ", ".join("node %d %s/%s" % (k, c[h][0][:12], c[h][1][:12])
                             for k, c in enumerate(chains))))
        # every block seen final during the run is still there
        undone = [(fh, bh, k) for fh, (bh, k) in sorted(self.tracker.final_blocks.items())
                  if fh <= top and any(c[fh][0] != bh for c in chains)]
        undone += [(fh, a, b) for fh, a, b in self.tracker.final_conflicts]
        # every transaction seen final is in every node's chain at its height
        lost = []
        for tx, (bh, k, kind) in sorted(self.tracker.final.items()):
            for i, c in enumerate(chains):
                if bh > top or tx not in c[bh][2]:
                    lost.append((tx, bh, k, i, kind))
        return top, divergent, undone, lost

    def audits(self):
        out = []
        for n in self.nodes:
            j = run_audit(self, "replay", "--datadir", n.datadir, "--genesis",
                          self.genesis_path, expect=None, timeout=600)
            money = sum(1 for d in j.get("divergences", []) if d.get("what") == "money")
            out.append((n.index, j.get("heights_checked"), j.get("source_height"),
                        bool(j.get("complete")), int(j.get("divergence_count", -1)), money,
                        j.get("divergences", [])[:3]))
        return out

    # ---- the run ----
    def soak(self):
        self.log("soak: seed %d (replay: scripts/soak --seed %d --minutes %g%s)"
                 % (self.seed, self.seed, self.minutes,
                    "" if self.want_kinds == list(KINDS) else
                    " --faults " + ",".join(self.want_kinds)))
        self.plan_kinds()
        self.make_nodes()
        self.make_accounts()
        self.start_all()
        self.log("4 validators up (%s); faults %s, at least %d in %g min; load %g tx/s"
                 % ("network namespaces" if self.netns else "loopback", ",".join(self.kinds),
                    self.target, self.minutes, self.rate))
        self.tracker = Tracker(self, random.Random(self.seed + 2))
        self.load = Load(self, random.Random(self.seed + 1), self.rate, self.accounts)
        self.tracker.start()
        self.load.start()
        t_end = time.monotonic() + self.minutes * 60.0
        try:
            self.run_faults(t_end)
        finally:
            self.load.stop()
        self.log("faults over; settling")
        self.settle()
        self.tracker.stop()
        top, divergent, undone, lost = self.check_chains()
        for n in self.nodes:
            self.set_state(n, "down")
            n.stop()
        audits = self.audits()
        self.report(top, divergent, undone, lost, audits)

    def report(self, top, divergent, undone, lost, audits):
        total = sum(self.fault_counts.values())
        tr, ld = self.tracker, self.load
        p = print
        p("==== soak report (seed %d) ====" % self.seed)
        p("faults: %d (target %d): %s" % (total, self.target, ", ".join(
            "%s %d" % (k, self.fault_counts[k]) for k in KINDS if k in self.kinds)))
        for k, why in self.skipped.items():
            p("fault kind %s SKIPPED: %s" % (k, why))
        p("workload: %s" % ", ".join("%s %d" % kv for kv in sorted(ld.counts.items())))
        if ld.refusals:
            p("refusals and failed calls: %s" % ", ".join(
                "%r %d" % kv for kv in ld.refusals.most_common(8)))
        p("transactions: %d seen final, %d dropped by a node, %d never included (pool lost), "
          "%d still not final%s" % (len(tr.final), len(tr.dropped), len(tr.never), len(tr.pending),
                                     "" if not tr.pending else " (%s)" % ", ".join(
                                         "%s %d" % kv for kv in sorted(self.unfinished.items()))))
        if self.disks:
            p("disk used per node at the end: %s" % ", ".join(
                "node %d %.1f MiB" % (n.index, n.disk.used_bytes() / 1048576.0)
                for n in self.nodes))
        p("chain: %d heights compared on %d nodes; state-root divergences: %d"
          % (top, len(self.nodes), len(divergent)))
        p("final blocks seen: %d, undone since: %d" % (len(tr.final_blocks), len(undone)))
        p("final transactions lost: %d" % len(lost))
        for x in lost[:10]:
            p("  LOST tx %s (final at height %d per node %d, %s): not at that height on node %d"
              % (x[0][:16], x[1], x[2], x[4], x[3]))
        for idx, hc, sh, complete, dc, money, ds in audits:
            p("zbc-audit node %d: heights %s/%s %s, divergences %d (money %d)%s"
              % (idx, hc, sh, "complete" if complete else "INCOMPLETE", dc, money,
                 (": %r" % ds) if ds else ""))
        failures = list(self.problems)
        if total < self.target:
            failures.append("only %d faults, the target is %d" % (total, self.target))
        if divergent:
            failures.append("%d state-root divergences" % len(divergent))
        if undone:
            failures.append("%d final blocks undone" % len(undone))
        if lost:
            failures.append("%d final transactions lost" % len(lost))
        if any(dc != 0 or not complete or hc != sh for _, hc, sh, complete, dc, _, _ in audits):
            failures.append("zbc-audit not clean")
        if not tr.final:
            failures.append("no transaction became final: the workload did not run")
        p("money invariant (zbc-audit, every height, every node): %s"
          % ("intact" if all(m == 0 and complete for _, _, _, complete, _, m, _ in audits)
             else "BROKEN"))
        for f in failures:
            p("FAILED: " + f)
        p("soak %s; replay with: scripts/soak --seed %d --minutes %g"
          % ("passed" if not failures else "FAILED", self.seed, self.minutes))
        if failures:
            raise TestFailure("; ".join(failures))

    # ---- lifecycle ----
    def teardown(self):
        if getattr(self, "load", None) is not None:
            self.load.stop()
        if getattr(self, "tracker", None) is not None:
            self.tracker.stop()
        for n in self.nodes:  # a frozen node cannot stop
            if n.proc is not None and n.proc.poll() is None:
                n.proc.send_signal(signal.SIGCONT)
        if self.netns is not None:
            self.netns.heal()
        ok = super().teardown() and not self.failed
        for d in self.disks:  # a failed run keeps the data directories
            d.unmount(keep_copy=None if ok else
                      os.path.join(self.tmpdir, "kept-" + os.path.basename(d.path)))
        if self.netns is not None:
            self.netns.teardown()
        if not ok:
            self.log("soak FAILED; replay with: scripts/soak --seed %d --minutes %g"
                     % (self.seed, self.minutes))
        return ok

    def run_test(self):
        self.failed = True  # until the checks pass
        self.soak()
        self.failed = False

    def execute(self, build, keep):
        """The integration framework's lifecycle (ZbcTest.main: a temporary
        directory, run_test, teardown, the directory kept on failure);
        exits with 0 only if everything held."""
        sys.argv = [sys.argv[0], "--build", build] + (["--keep"] if keep else [])
        self.main()


def parse_args(argv=None):
    ap = argparse.ArgumentParser(
        prog="scripts/soak",
        description="the perturbation soak (docs/soak.md): 4 validators, a mixed workload and "
                    "randomized faults, then the end checks; exit 0 only if every check held")
    ap.add_argument("--build", required=True,
                    help="build directory (scripts/soak builds ./build and passes it when not given)")
    ap.add_argument("--minutes", type=float, default=30.0, help="length of the faulty part (default 30)")
    ap.add_argument("--seed", type=int, default=None, help="replay this seed's schedule")
    ap.add_argument("--faults", default=",".join(KINDS),
                    help="comma-separated kinds from: " + ",".join(KINDS))
    ap.add_argument("--rate", type=float, default=10.0, help="workload, wallet calls per second")
    ap.add_argument("--disk-mb", type=int, default=128, help="each node's tmpfs, MiB")
    ap.add_argument("--keep", action="store_true", help="keep the temp dir on success too")
    a = ap.parse_args(argv)
    if a.minutes <= 0 or a.rate <= 0 or a.disk_mb < 16:
        ap.error("--minutes and --rate must be positive, --disk-mb at least 16")
    kinds = [k.strip() for k in a.faults.split(",") if k.strip()]
    bad = [k for k in kinds if k not in KINDS]
    if bad or not kinds:
        ap.error("--faults: unknown kind(s) %s; kinds: %s" % (",".join(bad) or "(none)",
                                                            ",".join(KINDS)))
    return a, kinds


def main(argv=None):
    a, kinds = parse_args(argv)
    s = Soak(minutes=a.minutes, seed=a.seed, faults=kinds, rate=a.rate, disk_mb=a.disk_mb)
    s.execute(a.build, a.keep)


if __name__ == "__main__":
    main()
