#!/usr/bin/env python3
"""Interrupt at every step (Bitcoin Core feature_dbcrash.py, done exactly):
strace kills zbcd with SIGKILL on the Nth call of one system call, for
every call that writes the data directory, in turn:
  - `zbcd init`: every mkdir, open, write, fchmod, fsync, rename, link and
    unlink.  After each kill the directory is either initialised whole
    (show-key works, the key and token are 64 hex characters, mode 0600) or
    not at all (a second init succeeds); never half.  Two inits racing on
    one directory: one succeeds with the key that is on disk, the other is
    refused ("already initialised").
  - `zbcd run` on a fresh data directory: the lock, the LMDB files, the
    genesis transaction, the ledger marker, and the commits of the first
    blocks (every page write, data sync and meta-page write).  After each
    kill a normal start opens the ledger (tip block, state rescan, state
    root), at a height no lower than the last block the killed process
    logged as produced, and a zbc-audit replay of the directory is clean.
Needs strace (the test says so and fails without it)."""
import os
import re
import shutil
import subprocess
import time

from framework import (TestFailure, ZbcTest, assert_equal, assert_true, audit_datadir_clean,
                       free_port, started_tip, wait_until, zbcd_once)

INIT_CALLS = ["mkdir", "openat", "write", "fchmod", "fsync", "rename", "link", "unlink"]
RUN_CALLS = ["openat", "flock", "ftruncate", "pwrite64", "writev", "fdatasync", "write", "fchmod",
             "fsync", "rename"]
BLOCKS = 3  # commits covered by the run cases


class CrashInit(ZbcTest):
    def strace(self, calls, inject, args, timeout):
        """zbcd ARGS under strace; returns (exit code, output, trace lines)."""
        trace = os.path.join(self.tmpdir, "trace")
        cmd = ["strace", "-f", "-qq", "-s", "96", "-o", trace, "-e", "trace=" + ",".join(calls)]
        if inject:
            cmd += ["-e", "inject=%s:signal=SIGKILL:when=%d" % inject]
        env = dict(os.environ)
        env["ASAN_OPTIONS"] = "detect_leaks=0"  # LeakSanitizer cannot run under ptrace
        p = subprocess.Popen(cmd + [self.zbcd] + args, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, start_new_session=True, env=env)
        try:
            out, _ = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, 9)
            out, _ = p.communicate()
        with open(trace, errors="replace") as f:
            lines = f.read().splitlines()
        return p.returncode, out.decode("utf-8", "replace"), lines

    @staticmethod
    def steps(lines, calls, relevant):
        """(call, n) for every relevant line: n counts that call's lines."""
        seen, out = {}, []
        for ln in lines:
            m = re.match(r"\d+\s+(\w+)\(", ln)
            if not m or m.group(1) not in calls:
                continue
            c = m.group(1)
            seen[c] = seen.get(c, 0) + 1
            if relevant(ln):
                out.append((c, seen[c]))
        return out

    def check_init(self, d, what):
        key = os.path.join(d, "node.key")
        if not os.path.exists(key):
            rc, out = zbcd_once(self, ["init", "--datadir", d])
            assert_equal(rc, 0, "%s: a second init (%s)" % (what, out))
            return "resumed"
        rc, out = zbcd_once(self, ["show-key", "--datadir", d])
        assert_equal(rc, 0, "%s: show-key of a directory with a key (%s)" % (what, out))
        for name in ("node.key", "api.token"):
            p = os.path.join(d, name)
            assert_true(os.path.exists(p), "%s: node.key without %s" % (what, name))
            with open(p) as f:
                assert_true(re.fullmatch(r"[0-9a-f]{64}\n", f.read()), "%s: %s damaged" % (what, name))
            assert_equal(os.stat(p).st_mode & 0o777, 0o600, "%s: mode of %s" % (what, name))
        return "complete"

    def init_steps(self):
        ref = os.path.join(self.tmpdir, "init-ref")
        rc, out, lines = self.strace(INIT_CALLS, None, ["init", "--datadir", ref], 30)
        assert_equal(rc, 0, "traced init: %s" % out)
        steps = self.steps(lines, INIT_CALLS,
                           lambda ln: "init-" in ln or re.match(r"\d+\s+(write|fchmod|fsync)\([3-9]", ln))
        assert_true(len(steps) >= 10, "too few init steps traced: %r" % steps)
        kinds = {}
        for k, (call, n) in enumerate(steps):
            d = os.path.join(self.tmpdir, "init-%d" % k)
            rc, out, _ = self.strace(INIT_CALLS, (call, n), ["init", "--datadir", d], 30)
            if rc == 0:
                raise TestFailure("init was not killed at %s #%d" % (call, n))
            r = self.check_init(d, "init killed at %s #%d" % (call, n))
            kinds[r] = kinds.get(r, 0) + 1
        self.log("init killed at %d steps: %r" % (len(steps), kinds))
        assert_true(kinds.get("resumed", 0) > 0 and kinds.get("complete", 0) > 0,
                    "kills landed only on one side of the key write: %r" % kinds)

    def init_race(self):
        """Two `zbcd init` on one directory: the first is held (strace
        delay) after its "already initialised?" check, the second runs
        whole meanwhile.  Exactly one may succeed, and the key it printed
        must be the key on disk (else an operator puts a key in the genesis
        that no node has)."""
        d = os.path.join(self.tmpdir, "race")
        env = dict(os.environ)
        env["ASAN_OPTIONS"] = "detect_leaks=0"
        # access #1 is the loader's; #2 is init's "is there a node.key?"
        first = subprocess.Popen(["strace", "-f", "-qq", "-o", "/dev/null", "-e", "trace=access",
                                  "-e", "inject=access:delay_exit=1500000:when=2",
                                  self.zbcd, "init", "--datadir", d],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        wait_until(lambda: os.path.isdir(d), 10, "the first init to create the directory")
        time.sleep(0.3)
        rc2, out2 = zbcd_once(self, ["init", "--datadir", d])
        out1, err1 = first.communicate(timeout=30)
        results = [(first.returncode, out1.decode() + err1.decode()), (rc2, out2)]
        rc, shown = zbcd_once(self, ["show-key", "--datadir", d])
        assert_equal(rc, 0, "show-key after the race: %s" % shown)
        on_disk = re.search(r'"node_public_key":"([0-9a-f]{64})"', shown).group(1)
        ok = [out for code, out in results if code == 0]
        assert_equal(len(ok), 1, "inits that succeeded on one directory: %r" % results)
        assert_true(on_disk in ok[0], "the successful init printed a key that is not on disk: %r"
                    % results)
        refused = [out for code, out in results if code != 0][0]
        assert_true("already initialised" in refused, "the other init's error: %s" % refused)
        self.log("two concurrent inits: one succeeded with the key on disk, one refused")

    def run_args(self, d, port):
        return ["run", "--datadir", d, "--genesis", self.genesis_path,
                "--api", "127.0.0.1:%d" % port]

    def run_steps(self, template):
        ref = os.path.join(self.tmpdir, "run-ref")
        shutil.copytree(template, ref)
        # the reference run stops itself at the third block's log line
        rc, out, lines = self.strace(RUN_CALLS, None, self.run_args(ref, free_port()), 3 + BLOCKS)
        last = next((i for i, ln in enumerate(lines)
                     if "block produced height=%d " % BLOCKS in ln), None)
        if last is None:
            raise TestFailure("the traced reference run produced no block %d:\n%s" % (BLOCKS, out[-2000:]))
        steps = self.steps(lines[:last], RUN_CALLS,
                           lambda ln: ("run-ref" in ln or re.match(
                               r"\d+\s+(pwrite64|writev|fdatasync|ftruncate|flock|fsync|fchmod|write)\([3-9]",
                               ln)) and "openat(AT_FDCWD, \"/" not in ln.replace(self.tmpdir, "@"))
        assert_true(len(steps) >= 12, "too few run steps traced: %r" % steps)
        self.expect_log(r"startup: |cannot open the chain: ")
        node = self.add_node()
        for k, (call, n) in enumerate(steps):
            d = os.path.join(self.tmpdir, "run-%d" % k)
            shutil.copytree(template, d)
            rc, out, _ = self.strace(RUN_CALLS, (call, n), self.run_args(d, free_port()), 3 + BLOCKS)
            produced = [int(h) for h in re.findall(r"block produced height=(\d+)", out)]
            # a normal start on what the kill left
            node.datadir = d
            node.log_path = os.path.join(self.tmpdir, "run-%d.log" % k)
            node.start(self.genesis_path)
            h, _ = started_tip(node)
            node.stop()
            if produced and h < max(produced):
                raise TestFailure("killed at %s #%d after logging block %d, the ledger reopened at %d"
                                  % (call, n, max(produced), h))
            audit_datadir_clean(self, d, self.genesis_path)
            self.log("run killed at %s #%d: %d block(s) logged, reopened at height %d"
                     % (call, n, len(produced), h))
        self.log("run killed at %d steps, every ledger reopened and audited clean" % len(steps))

    def run_test(self):
        if shutil.which("strace") is None:
            raise TestFailure("strace is not installed (apt-get install strace)")
        self.init_steps()
        self.init_race()
        # a validator's data directory, initialised, never run
        alice = self.wallet_key("alice")
        node = self.start_chain(balances=[(alice, 10 ** 10)], block_time_ms=200, smith_delay_ms=300)
        node.stop()
        template = os.path.join(self.tmpdir, "template")
        os.mkdir(template, 0o700)
        for name in ("node.key", "api.token"):
            shutil.copy2(os.path.join(node.datadir, name), template)
        os.mkdir(os.path.join(template, "ledger"), 0o700)
        self.run_steps(template)


if __name__ == "__main__":
    CrashInit().main()
