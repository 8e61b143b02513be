#!/usr/bin/env python3
"""scripts/devnet against a temporary ZBC_DEVNET_DIR (docs/devnet.md).

1. help and usage errors: every sub-command and option listed; an unknown
   command or option, or a value out of range, exits 2 naming it and
   creates nothing.
2. up -n 2 with a small move deadline and another rake: the accounts banner
   (names, the wallet's addresses, genesis balances in ZBC), the nodes in
   order, the source line for a relative ZBC_DEVNET_DIR; the genesis holds
   the options and every node's directory a copy of it; 'source DIR/env'
   puts zbc, zbcd and zbc-audit of the build on PATH and sets ZBC_API;
   zbc-audit --datadir audits node 0 with no --genesis, and a directory
   with no genesis.json names both options; up again keeps the chain and
   says which option it did not apply; status lists node 0, node 1;
   mine without --automine is refused by the node; logs of a node that
   does not exist is a usage error.
3. down --clean, then up --automine: one validator, no block until asked,
   mine 5 gives height 5 at once, a transfer lands without a mine; the open
   deadline reaches the genesis (or, in a tree whose genesis.py lacks the
   option, up refuses it naming it).
4. down --clean stops every node and removes the directory; the node logs
   have no error line or crash report.
"""
import json
import os
import re
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from framework import (ERROR_RE, SANITIZER_RE, TestFailure, ZbcTest,  # noqa: E402
                       assert_equal, assert_true, wait_until)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEVNET = os.path.join(ROOT, "scripts", "devnet")
NAMES = ["alice", "bob", "carol", "dave", "apps-fund"]


class DevnetScript(ZbcTest):
    def devnet(self, *args, expect=0, timeout=180):
        env = dict(os.environ)
        env["ZBC_DEVNET_DIR"] = "dev"  # relative: the caller's directory (self.tmpdir)
        env["ZBC_BUILD_DIR"] = os.path.abspath(self.args.build)
        for k in ("ZBC_API", "ZBC_WALLET", "ZBC_PASSPHRASE", "ZBC_KEY"):
            env.pop(k, None)
        p = subprocess.run([DEVNET] + [str(a) for a in args], cwd=self.tmpdir, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        out, err = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
        self.log("scripts/devnet %s -> %d" % (" ".join(map(str, args)), p.returncode))
        if expect is not None and p.returncode != expect:
            raise TestFailure("scripts/devnet %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s"
                              % (" ".join(map(str, args)), p.returncode, expect, out, err))
        return out, err

    @property
    def dev(self):
        return os.path.join(self.tmpdir, "dev")

    def in_env(self, script):
        """Runs a bash snippet after 'source dev/env'; returns its stdout."""
        p = subprocess.run(["bash", "-c", "source dev/env && " + script], cwd=self.tmpdir,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120,
                           env={"PATH": "/usr/bin:/bin", "HOME": self.tmpdir})
        if p.returncode != 0:
            raise TestFailure("after source dev/env, %r failed: %s" % (script, p.stderr.decode()))
        return p.stdout.decode()

    def api(self, path):
        port = open(os.path.join(self.dev, "node0.api_port")).read().strip()
        with urllib.request.urlopen("http://127.0.0.1:%s%s" % (port, path), timeout=10) as r:
            return json.load(r)

    def run_test(self):
        self.usage_errors()
        self.two_nodes()
        self.automine()
        out, err = self.devnet("down", "--clean")
        assert_true(not os.path.exists(self.dev), "down --clean left %s" % self.dev)

    # ---- 1 ----
    def usage_errors(self):
        out, _ = self.devnet("help")
        for word in ["up", "down", "status", "mine", "logs", "demo", "games", "help", "-n N",
                     "--block-time S", "--move-deadline N", "--open-deadline N",
                     "--rake-bps N", "--automine", "--clean", "-f", "ZBC_DEVNET_DIR",
                     "ZBC_BUILD_DIR"]:
            assert_true(re.search(r"(^|[\s\[])%s([\s,\]]|$)" % re.escape(word), out, re.M),
                        "help does not list %r:\n%s" % (word, out))
        assert_equal(self.devnet("-h")[0], out, "-h prints the help")
        assert_equal(self.devnet("up", "--help")[0], out, "up --help prints the help")
        for args, words in [
                (["frob"], "unknown command 'frob'"),
                ([], "usage: scripts/devnet"),
                (["up", "--bogus"], "unknown option for up: --bogus"),
                (["up", "-n"], "-n needs a value"),
                (["up", "-n", "17"], "-n needs a whole number from 1 to 16, not '17'"),
                (["up", "--rake-bps", "10001"], "--rake-bps needs a whole number from 0 to 10000"),
                (["up", "--move-deadline", "2"], "--move-deadline needs a whole number from 3"),
                (["up", "--move-deadline", "-5"], "--move-deadline needs a whole number"),
                (["up", "--block-time", "0.0001"], "--block-time needs seconds with at most 3 decimals"),
                (["up", "--block-time", "0"], "--block-time must be from 0.001 to 3600 seconds"),
                (["up", "--automine", "-n", "2"], "--automine needs -n 1"),
                (["up", "--open-deadline", "0"], "--open-deadline needs a whole number from 1 to 1000000"),
                (["down", "--force"], "unknown option for down: --force"),
                (["status", "x"], "status takes no options: x"),
                (["mine", "0"], "mine needs a whole number from 1 to 1000, not '0'"),
                (["mine", "1001"], "from 1 to 1000, not '1001'"),
                (["mine", "1", "2"], "mine takes one number"),
                (["logs", "-x"], "unknown option for logs: -x"),
                (["games", "now"], "games takes no options: now"),
                (["demo", "-n", "x"], "-n needs a whole number from 1 to 16, not 'x'")]:
            _, err = self.devnet(*args, expect=2)
            assert_true(words in err, "scripts/devnet %s: stderr lacks %r:\n%s" % (args, words, err))
        assert_true(not os.path.exists(self.dev), "a usage error created %s" % self.dev)

    # ---- 2 ----
    def two_nodes(self):
        out, err = self.devnet("up", "-n", "2", "--move-deadline", "5", "--rake-bps", "250")
        g = json.load(open(os.path.join(self.dev, "genesis.json")))
        assert_equal(g["move_deadline"], 5, "genesis move_deadline")
        assert_equal(g["rake_bps"], 250, "genesis rake_bps")
        assert_equal(g["block_time_ms"], 1000, "genesis block_time_ms")
        assert_equal(len(g["validators"]), 2, "validators")
        for i in range(2):
            with open(os.path.join(self.dev, "node%d" % i, "genesis.json")) as f:
                assert_equal(json.load(f), g, "node%d/genesis.json is the genesis" % i)
        # the banner: every demo account with the wallet's address and balance
        addrs = json.loads(self.in_env("zbc key list --json"))
        addrs = {k["name"]: k["address"] for k in addrs["keys"]}
        for i, name in enumerate(NAMES):
            bal = "1000000 ZBC" if name == "apps-fund" else "1000 ZBC"
            line = "(%d) %-10s %s  %s" % (i, name, addrs[name], bal)
            assert_true(line in out, "banner lacks %r:\n%s" % (line, out))
        assert_true("rake 250 bps" in out and "move deadline 5 blocks" in out
                    and "2 validators" in out, "banner lacks the chain settings:\n" + out)
        node_lines = re.findall(r"^  node (\d+): running, pid \d+, API (http://127\.0\.0\.1:\d+)", out, re.M)
        assert_equal([n for n, _ in node_lines], ["0", "1"], "nodes in the banner, in order")
        assert_true("source dev/env " in out, "up prints the source line of ZBC_DEVNET_DIR:\n" + out)
        # the env file
        env = self.in_env("command -v zbc zbcd zbc-audit; echo $ZBC_API; echo $ZBC_DEVNET_DIR; "
                          "echo $ZBC_WALLET_KDF; zbc balance alice --json").split("\n")
        build = os.path.abspath(self.args.build)
        assert_equal(env[0:3], [os.path.join(build, "node", "wallet", "zbc"),
                                os.path.join(build, "node", "zbcd", "zbcd"),
                                os.path.join(build, "node", "audit", "zbc-audit")], "PATH of dev/env")
        assert_equal(env[3], node_lines[0][1], "ZBC_API of dev/env is node 0")
        assert_equal(env[4], self.dev, "ZBC_DEVNET_DIR of dev/env (absolute)")
        assert_equal(env[5], "interactive", "ZBC_WALLET_KDF of dev/env")
        assert_equal(json.loads("\n".join(env[6:]))["balance"], 1000 * 100_000_000,
                     "zbc balance alice through dev/env")
        # zbc-audit on the env's PATH, --datadir without --genesis
        wait_until(lambda: self.api("/api/v1/node/info")["height"] >= 2, 60, "height 2")
        rep = json.loads(self.in_env("zbc-audit replay --datadir dev/node0 --json"))
        assert_true(rep["success"] and rep["complete"] and rep["heights_checked"] >= 2
                    and rep["divergence_count"] == 0, "zbc-audit --datadir dev/node0: %r" % rep)
        os.mkdir(os.path.join(self.tmpdir, "empty"))
        p = subprocess.run(["bash", "-c", "source dev/env && zbc-audit replay --datadir empty"],
                           cwd=self.tmpdir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        err = p.stderr.decode()
        assert_equal(p.returncode, 3, "zbc-audit on a directory without genesis.json: %s" % err)
        assert_true("give --genesis FILE" in err and "--datadir" in err and "empty/genesis.json" in err,
                    "the error names both options and the file: %s" % err)
        # up again: same chain, the option it could not apply named
        out, err = self.devnet("up", "--rake-bps", "7", "-n", "2")
        assert_true("not applied: --rake-bps 7 (the chain has 250)" in err, "up again: " + err)
        assert_true("-n 2" not in err.split("not applied:")[1], "-n 2 is the chain's: " + err)
        assert_equal(json.load(open(os.path.join(self.dev, "genesis.json"))), g, "genesis kept")
        # status: in order; then the balances
        out, _ = self.devnet("status")
        nodes = re.findall(r"^  node (\d+): running", out, re.M)
        assert_equal(nodes, ["0", "1"], "status lists the nodes in order")
        assert_true("(0) alice" in out and "apps-fund" in out, "status shows the accounts:\n" + out)
        # mine needs --automine (the node refuses; the script passes its sentence)
        _, err = self.devnet("mine", "2", expect=1)
        assert_true("mine needs a devnet started with --automine" in err and
                    "up --automine" in err, "mine without --automine: " + err)
        _, err = self.devnet("logs", "2", expect=2)
        assert_true("from 0 to 1, not '2'" in err, "logs 2 of 2 nodes: " + err)
        out, _ = self.devnet("logs", "1")
        assert_true("started" in out, "logs 1 shows node 1's log")
        self.check_logs(2)
        out, err = self.devnet("down")
        assert_true("node 0 stopped" in err and "node 1 stopped" in err, "down: " + err)
        out, _ = self.devnet("status", expect=1)
        assert_equal(re.findall(r"^  node (\d+): stopped", out, re.M), ["0", "1"], "status after down")

    # ---- 3 ----
    def automine(self):
        self.devnet("down", "--clean")
        has_open = "--open-deadline" in subprocess.run(
            [sys.executable, os.path.join(ROOT, "tests", "integration", "genesis.py"), "--help"],
            stdout=subprocess.PIPE).stdout.decode()
        if not has_open:
            # This tree's genesis has no open_deadline: up says so, creates nothing.
            _, err = self.devnet("up", "--automine", "--open-deadline", "4", expect=1)
            assert_true("genesis.py has no --open-deadline" in err, "--open-deadline refused: " + err)
            assert_true(not os.path.exists(os.path.join(self.dev, "genesis.json")),
                        "a refused --open-deadline wrote a genesis")
        extra = ["--open-deadline", "4"] if has_open else []
        out, err = self.devnet("up", "--automine", "--move-deadline", "3", *extra)
        up_out = out
        g = json.load(open(os.path.join(self.dev, "genesis.json")))
        assert_equal(len(g["validators"]), 1, "--automine: one validator")
        assert_equal(g["block_time_ms"], 1, "--automine: block time 0.001 s")
        assert_equal(g["move_deadline"], 3, "genesis move_deadline")
        if has_open:
            assert_equal(g["open_deadline"], 4, "genesis open_deadline")
        assert_true("automine on" in out and "scripts/devnet mine" in out, "banner: " + out)
        time.sleep(1.0)
        assert_equal(self.api("/api/v1/node/info")["height"], 0, "automine: no block without work")
        out, _ = self.devnet("mine", "5")
        assert_equal(out.strip(), "mined 5 block(s); height 5", "mine 5")
        assert_equal(self.api("/api/v1/node/info")["height"], 5, "height after mine 5")
        out, _ = self.devnet("mine")
        assert_equal(out.strip(), "mined 1 block(s); height 6", "mine (one block)")
        # the banner's example, as printed (names work where addresses go)
        assert_true("zbc send bob 1.5ZBC --from alice --wait " in up_out, "banner: " + up_out)
        r = json.loads(self.in_env("zbc send bob 1.5ZBC --from alice --wait=included --json"))
        assert_true(r["success"] and r["block_height"] == 7, "automine: the transfer in block 7: %r" % r)
        # the games demo on automine: balances and changes in ZBC, never raw units
        out, _ = self.devnet("games")
        assert_true(re.search(r"^  alice [-+][\d.]+ ZBC, bob [-+][\d.]+ ZBC \(stakes, fees, payout\), "
                              r"apps fund \+0\.1 ZBC rake$", out, re.M) is not None and
                    re.search(r"^  carol: [-+][\d.]+ ZBC \(stake, fee, return\)$", out, re.M) is not None
                    and "units" not in out, "games output in ZBC:\n" + out)
        out, _ = self.devnet("status")
        assert_true("automine on" in out and "1 validator," in out, "status: " + out)
        self.check_logs(1)

    def check_logs(self, n):
        for i in range(n):
            with open(os.path.join(self.dev, "node%d.log" % i), errors="replace") as f:
                for line in f:
                    if SANITIZER_RE.search(line) or ERROR_RE.search(line):
                        raise TestFailure("node %d log: %s" % (i, line.rstrip()))

    def teardown(self):
        ok = True
        if self.tmpdir and os.path.exists(os.path.join(self.tmpdir, "dev")):
            try:
                self.devnet("down", expect=None)
            except Exception as e:  # teardown reports, never raises
                self.log("teardown: scripts/devnet down: %s" % e)
                ok = False
        return ok


if __name__ == "__main__":
    DevnetScript().main()
