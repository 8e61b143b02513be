"""Integration-test framework (Python standard library only).

Modelled on Bitcoin Core's functional tests: a test is a subclass of
ZbcTest with run_test(); the framework gives it a temporary directory, free
loopback ports, real zbcd processes started from --build, a wrapper around
the zbc wallet (always with --json), and raw API helpers.  Teardown stops
every node and FAILS the test on a crash, a non-zero exit, a sanitizer
report, or a log line with "ERROR" or "FATAL" that the test did not
declare expected (expect_log).

    class T(ZbcTest):
        def run_test(self):
            alice = self.wallet_key("alice")
            node = self.start_chain(balances=[(alice, 10 * ZBC)])
            ...
    if __name__ == "__main__":
        T().main()
"""
import argparse
import errno
import fcntl
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import genesis as genesis_mod  # noqa: E402

ZBC = 100_000_000
PASSPHRASE = "integration-test-passphrase"
# Genesis block time of an automine chain (start_chain(automine=True)): a block
# is never earlier than its parent + block_time_ms, and admin/mine may run at
# most 10 s ahead of the clock, so 5 ms lets one call mine up to 2000 blocks.
AUTOMINE_BLOCK_MS = 5

# Log lines that mean a node misbehaved, whatever the test expected.
SANITIZER_RE = re.compile(r"AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|"
                          r"runtime error:|Segmentation fault|core dumped|Assertion .* failed")
ERROR_RE = re.compile(r"\b(ERROR|FATAL)\b")


class TestFailure(Exception):
    pass


# Ports for zbcd come from below the kernel's ephemeral range (32768 and up
# by default), so no outgoing connection of a test running beside this one
# can take one as its source port between our check and zbcd's bind: that
# race failed tests run in parallel with "Address already in use".  Tests
# running at once share the range through a lock file per port, held for
# the life of the test process.
PORT_RANGE = (20000, 32000)
_PORT_LOCKS = {}


def _ephemeral_low():
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def free_port():
    lo, hi = PORT_RANGE
    hi = min(hi, _ephemeral_low() - 1)
    lockdir = os.path.join(tempfile.gettempdir(), "zbc-test-ports")
    os.makedirs(lockdir, exist_ok=True)
    for _ in range(2000):
        port = random.randint(lo, hi)
        if port in _PORT_LOCKS:
            continue
        fd = os.open(os.path.join(lockdir, str(port)), os.O_CREAT | os.O_RDWR, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            os.close(fd)
            continue
        finally:
            s.close()
        _PORT_LOCKS[port] = fd
        return port
    raise TestFailure("no free port in %d..%d" % (lo, hi))


def assert_equal(a, b, what=""):
    if a != b:
        raise TestFailure("%s: %r != %r" % (what or "not equal", a, b))


def assert_true(c, what):
    if not c:
        raise TestFailure(what)


def wait_until(pred, timeout=30.0, what="condition", interval=0.2):
    end = time.monotonic() + timeout
    while True:
        v = pred()
        if v:
            return v
        if time.monotonic() > end:
            raise TestFailure("timed out after %.0f s waiting for %s" % (timeout, what))
        time.sleep(interval)


class ZbcResult:
    def __init__(self, args, code, stdout, stderr):
        self.args, self.code, self.stdout, self.stderr = args, code, stdout, stderr
        self.json = None
        try:
            self.json = json.loads(stdout)
        except ValueError:
            pass

    def __getitem__(self, k):
        return self.json[k]

    def __repr__(self):
        return "zbc %s -> exit %d\nstdout: %s\nstderr: %s" % (
            " ".join(self.args), self.code, self.stdout, self.stderr)


class Node:
    """One zbcd process with its own data directory and API port."""

    def __init__(self, test, index):
        self.test = test
        self.index = index
        self.datadir = os.path.join(test.tmpdir, "node%d" % index)
        self.api_port = free_port()
        self.p2p_port = free_port()
        self.proc = None
        self.log_path = os.path.join(test.tmpdir, "node%d.log" % index)
        self.node_key = None
        self.logs_checked = 0  # bytes of the log already checked

    @property
    def api_url(self):
        return "http://127.0.0.1:%d" % self.api_port

    def init(self):
        """zbcd init: creates the data directory and node key; returns the
        node public key (hex)."""
        if not os.access(self.test.zbcd, os.X_OK):
            raise TestFailure("binary %s is missing: build first (scripts/build)" % self.test.zbcd)
        p = subprocess.run([self.test.zbcd, "init", "--datadir", self.datadir],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        out = p.stdout.decode() + p.stderr.decode()
        if p.returncode != 0:
            raise TestFailure("zbcd init failed (exit %d): %s" % (p.returncode, out))
        # node.key holds the seed as 64 hex (node/zbcd/datadir.h); the wallet
        # derives the public key.
        with open(os.path.join(self.datadir, "node.key")) as f:
            seed = f.read().strip()
        r = self.test.zbc("key", "derive", seed, node=False)
        self.node_key = r["public_key"]
        return self.node_key

    def start(self, genesis_path, extra=()):
        self.genesis_path = genesis_path
        cmd = [self.test.zbcd, "run", "--datadir", self.datadir, "--genesis", genesis_path,
               "--api", "127.0.0.1:%d" % self.api_port] + list(extra)
        self.log = open(self.log_path, "ab")
        env = dict(os.environ)
        env.setdefault("ASAN_OPTIONS", "detect_leaks=1")
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT, env=env)
        self.wait_for_api()

    def wait_for_api(self, timeout=30):
        def up():
            if self.proc.poll() is not None:
                raise TestFailure("zbcd exited with %d while starting; log:\n%s"
                                  % (self.proc.returncode, self.read_log()[-3000:]))
            try:
                st, _ = self.get("/api/v1/node/info")
                return st == 200
            except OSError:
                return False
        wait_until(up, timeout, "zbcd API on port %d" % self.api_port)

    def read_log(self):
        try:
            with open(self.log_path, "rb") as f:
                return f.read().decode("utf-8", "replace")
        except OSError:
            return ""

    def request(self, method, path, body=None, headers=None, timeout=10):
        data = body if body is None or isinstance(body, bytes) else body.encode()
        req = urllib.request.Request(self.api_url + path, data=data, method=method)
        req.add_header("Accept", "application/json")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        for k, v in (headers or {}).items():
            req.add_header(k, v)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                raw = r.read()
                status = r.status
        except urllib.error.HTTPError as e:
            raw = e.read()
            status = e.code
        try:
            return status, json.loads(raw)
        except ValueError:
            return status, raw.decode("utf-8", "replace")

    def get(self, path):
        return self.request("GET", path)

    def post(self, path, body):
        return self.request("POST", path, body)

    def info(self):
        st, j = self.get("/api/v1/node/info")
        assert_equal(st, 200, "GET /api/v1/node/info status")
        return j

    def height(self):
        return int(self.info()["height"])

    def wait_for_height(self, h, timeout=60):
        return wait_until(lambda: self.height() >= h, timeout, "height %d on node %d" % (h, self.index))

    def stop(self, expect_code=0):
        """SIGTERM and wait; the exit status must be expect_code."""
        if self.proc is None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise TestFailure("zbcd node %d did not stop within 30 s of SIGTERM" % self.index)
        finally:
            self.proc = None
            self.log.close()
        self.check_log()
        if rc != expect_code:
            raise TestFailure("zbcd node %d exited with %d after SIGTERM (want %d); log tail:\n%s"
                              % (self.index, rc, expect_code, self.read_log()[-3000:]))

    def check_log(self):
        text = self.read_log()
        for line in text.splitlines():
            if SANITIZER_RE.search(line):
                raise TestFailure("node %d log has a sanitizer/crash report: %s\n%s"
                                  % (self.index, line, text[-4000:]))
            if ERROR_RE.search(line) and not any(r.search(line) for r in self.test.expected_logs):
                raise TestFailure("node %d log has an unexpected error line: %s" % (self.index, line))


class ZbcTest:
    """Base class: override run_test()."""

    def __init__(self):
        self.nodes = []
        self.expected_logs = []
        self.tmpdir = None

    # ---- helpers for tests ----
    def expect_log(self, pattern):
        """Declare an ERROR/FATAL log line pattern this test provokes on purpose."""
        self.expected_logs.append(re.compile(pattern))

    def log(self, msg):
        print("[%s] %s" % (time.strftime("%H:%M:%S"), msg), flush=True)

    @property
    def wallet_dir(self):
        return os.path.join(self.tmpdir, "wallet")

    def zbc(self, *args, expect=0, node=None, env=None, stdin=None, json_out=True, timeout=120):
        """Runs the wallet with --json (and --api of node, --wallet of this
        test); the exit code must equal expect (None: any).  Checks that
        stdout is exactly one JSON object whose "success" matches the code."""
        if node is False:
            node = None
        elif node is None:
            node = self.nodes[0] if self.nodes else None
        cmd = [self.zbc_bin] + [str(a) for a in args]
        if json_out:
            cmd.append("--json")
        if node is not None and "--api" not in args:
            cmd += ["--api", node.api_url]
        if "--wallet" not in args:
            cmd += ["--wallet", self.wallet_dir]
        e = self.wallet_env(env)
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=e,
                           input=stdin, timeout=timeout)
        r = ZbcResult([str(a) for a in args], p.returncode, p.stdout.decode("utf-8", "replace"),
                      p.stderr.decode("utf-8", "replace"))
        if SANITIZER_RE.search(r.stderr):
            raise TestFailure("zbc reported a sanitizer error:\n%r" % r)
        if json_out:
            if not isinstance(r.json, dict):
                raise TestFailure("zbc did not print exactly one JSON object:\n%r" % r)
            if r.json.get("success") is not (r.code == 0):
                raise TestFailure("zbc 'success' disagrees with its exit code:\n%r" % r)
            if r.code != 0 and r.json.get("exit_code") != r.code:
                raise TestFailure("zbc exit_code field disagrees with its exit code:\n%r" % r)
        if expect is not None and r.code != expect:
            raise TestFailure("expected exit %d:\n%r" % (expect, r))
        return r

    def wallet_env(self, env=None):
        """The environment zbc runs with: none of the caller's ZBC_*
        settings, the test passphrase, a small key derivation; env on top."""
        e = dict(os.environ)
        for k in ("ZBC_API", "ZBC_KEY", "ZBC_TIMEOUT", "ZOOBC_GENESIS_HASH", "ZBC_WALLET"):
            e.pop(k, None)
        e["ZBC_PASSPHRASE"] = PASSPHRASE
        # 64 MiB Argon2id instead of 256 MiB: the machine is small and shared
        e.setdefault("ZBC_WALLET_KDF", "interactive")
        e.update(env or {})
        return e

    def wallet_key(self, name, seed=None):
        """Creates (or imports) a wallet key; returns its ZBC_ address."""
        if seed is None:
            r = self.zbc("key", "new", "--name", name)
        else:
            r = self.zbc("key", "import", seed, "--name", name)
        return r["address"]

    def add_node(self):
        n = Node(self, len(self.nodes))
        self.nodes.append(n)
        return n

    def start_chain(self, balances, fund_account=None, n=1, automine=False, run_args=(),
                    **genesis_over):
        """Creates n nodes, writes a genesis funding `balances` (list of
        (address, units)) and the apps fund, starts the nodes; returns node 0.
        automine=True: one validator run with `zbcd run --automine`
        (docs/node.md "Automine"), a block as soon as a transaction or app
        work waits and none otherwise, on a 5-ms block time unless
        genesis_over names one; self.mine(n) produces blocks on request.
        run_args: more `zbcd run` flags for every node."""
        if automine:
            if n != 1:
                raise TestFailure("automine needs exactly one validator (docs/node.md), not %d" % n)
            genesis_over.setdefault("block_time_ms", AUTOMINE_BLOCK_MS)
            genesis_over.setdefault("smith_delay_ms", genesis_over["block_time_ms"])
        nodes = [self.add_node() for _ in range(n)]
        keys = [nd.init() for nd in nodes]
        if fund_account is None:
            fund_account = self.wallet_key("apps-fund")
        g = genesis_mod.make_genesis(keys, fund_account, balances, **genesis_over)
        self.genesis = g
        self.genesis_path = os.path.join(self.tmpdir, "genesis.json")
        genesis_mod.write_genesis(self.genesis_path, g)
        for nd in nodes:
            nd.start(self.genesis_path, (["--automine"] if automine else []) + list(run_args))
        return nodes[0]

    def api_token(self, node=None):
        """The admin token zbcd wrote into its data directory (docs/api.md §9)."""
        with open(os.path.join((node or self.nodes[0]).datadir, "api.token")) as f:
            return f.read().strip()

    def mine(self, n, node=None):
        """POST /api/v1/admin/mine {"blocks": n} on an --automine node
        (docs/api.md §9): n blocks at once, empty ones when nothing waits.
        Returns the height after them."""
        node = node or self.nodes[0]
        before = node.height()
        st, j = node.request("POST", "/api/v1/admin/mine", json.dumps({"blocks": int(n)}),
                             headers={"X-ZBC-Token": self.api_token(node)}, timeout=120)
        assert_equal(st, 200, "admin/mine %d: %r" % (n, j))
        h = node.height()
        assert_true(h >= before + n, "admin/mine %d: height %d -> %d" % (n, before, h))
        return h

    def mine_to(self, h, node=None):
        """Mines until the tip is at least h (nothing when it already is)."""
        node = node or self.nodes[0]
        cur = node.height()
        return self.mine(h - cur, node) if h > cur else cur

    def balance(self, address, node=None):
        node = node or self.nodes[0]
        st, j = node.get("/api/v1/accounts/" + address)
        if st == 404:
            return 0
        assert_equal(st, 200, "GET account %s: %r" % (address, j))
        return int(j["balance"])

    def tx_status(self, tx_hash, node=None):
        node = node or self.nodes[0]
        st, j = node.get("/api/v1/transactions/%s/status" % tx_hash)
        return st, j

    def app(self, app_id, node=None):
        """GET /api/v1/apps/<id> (must answer 200)."""
        st, j = (node or self.nodes[0]).get("/api/v1/apps/%s" % app_id)
        assert_equal(st, 200, "GET app %s" % app_id)
        return j

    def app_ready(self, app_id, timeout=30):
        """The app once a seat holds the clock with no dice move pending
        (first seat drawn), or once it is finished."""
        return wait_until(lambda: (lambda a: a if a["status"] == "finished" or
                                   (a["clock"] is not None and not a["has_pending"]) else None)(
            self.app(app_id)), timeout, "app %s ready" % app_id)

    def wait_confirmed(self, tx_hash, node=None, timeout=60):
        def done():
            st, j = self.tx_status(tx_hash, node)
            return j if st == 200 and isinstance(j, dict) and j.get("status") == "confirmed" else None
        return wait_until(done, timeout, "transaction %s confirmed" % tx_hash)

    # ---- lifecycle ----
    def run_test(self):
        raise NotImplementedError

    def main(self):
        ap = argparse.ArgumentParser()
        ap.add_argument("--build", required=True)
        ap.add_argument("--keep", action="store_true", help="keep the temp dir")
        self.args = ap.parse_args()
        build = os.path.abspath(self.args.build)
        self.zbcd = os.path.join(build, "node", "zbcd", "zbcd")
        self.zbc_bin = os.path.join(build, "node", "wallet", "zbc")
        self.tmpdir = tempfile.mkdtemp(prefix="zbc-it-")
        name = type(self).__name__
        ok = False
        try:
            if not os.access(self.zbc_bin, os.X_OK):
                raise TestFailure("binary %s is missing: build first (scripts/build)" % self.zbc_bin)
            self.log("%s: tmpdir %s" % (name, self.tmpdir))
            self.run_test()
            ok = True
        except TestFailure as e:
            self.log("FAILED: %s" % e)
        except Exception:
            self.log("FAILED with an exception:\n" + traceback.format_exc())
        finally:
            ok = self.teardown() and ok
        if ok and not self.args.keep:
            shutil.rmtree(self.tmpdir, ignore_errors=True)
        elif not ok:
            self.log("kept %s for inspection" % self.tmpdir)
        self.log("%s: %s" % (name, "passed" if ok else "FAILED"))
        sys.exit(0 if ok else 1)

    def record_chain(self):
        """ZBC_RECORD_CHAIN=DIR: dumps node 0's chain as a golden chain
        (tests/vectors/chains/<name>/, read by tests/consensus/
        test_golden_chains.c): genesis.json, blocks.hex (one block's bytes
        per line, heights 1..tip) and expected.txt with the block count,
        the tip hash and the tip's state root as the node reports them
        (scripts/record-golden adds events_sha3 from a replay)."""
        out = os.environ.get("ZBC_RECORD_CHAIN")
        if not out or not self.nodes or self.nodes[0].proc is None:
            return
        node = self.nodes[0]
        os.makedirs(out, exist_ok=True)
        shutil.copyfile(self.genesis_path, os.path.join(out, "genesis.json"))
        tip = node.height()
        lines, last = [], None
        for h in range(1, tip + 1):
            st, j = node.get("/api/v1/blocks/%d" % h)
            if st != 200:
                raise TestFailure("recording: block %d: HTTP %d" % (h, st))
            lines.append(j["block_bytes"])
            last = j
        with open(os.path.join(out, "blocks.hex"), "w") as f:
            f.write("".join(x + "\n" for x in lines))
        with open(os.path.join(out, "expected.txt"), "w") as f:
            f.write("blocks %d\n" % tip)
            if last is not None:
                f.write("tip %s\nstate_root %s\n" % (last["hash"], last["state_root"]))
        self.log("recorded %d blocks into %s" % (tip, out))

    def teardown(self):
        ok = True
        try:
            self.record_chain()
        except Exception as e:  # a failed recording fails the test
            self.log("teardown: recording the chain failed: %s" % e)
            ok = False
        for n in self.nodes:
            if n.proc is None:
                try:
                    n.check_log()
                except TestFailure as e:
                    self.log("teardown: %s" % e)
                    ok = False
                continue
            if n.proc.poll() is not None:
                self.log("teardown: node %d had died (exit %d); log tail:\n%s"
                         % (n.index, n.proc.returncode, n.read_log()[-3000:]))
                n.proc = None
                ok = False
                continue
            try:
                n.stop()
            except TestFailure as e:
                self.log("teardown: %s" % e)
                ok = False
        return ok


# ---- multi-node helpers (P2P; docs/p2p.md) ----

def p2p_args(node, peers):
    """zbcd run flags: listen on node's P2P port, dial every node in peers."""
    args = ["--p2p", "127.0.0.1:%d" % node.p2p_port]
    for p in peers:
        args += ["--peer", "127.0.0.1:%d" % p.p2p_port]
    return args


def start_network(test, n, balances, fund_account=None, extra=None, **genesis_over):
    """n validators on loopback, fully meshed (node i dials nodes 0..i-1);
    returns the nodes.  Node i's zbcd flags are kept in node.run_args so a
    test can restart it the same way (node.start(test.genesis_path, node.run_args))."""
    nodes = [test.add_node() for _ in range(n)]
    keys = [nd.init() for nd in nodes]
    if fund_account is None:
        fund_account = test.wallet_key("apps-fund")
    g = genesis_mod.make_genesis(keys, fund_account, balances, **genesis_over)
    test.genesis = g
    test.genesis_path = os.path.join(test.tmpdir, "genesis.json")
    genesis_mod.write_genesis(test.genesis_path, g)
    for i, nd in enumerate(nodes):
        nd.run_args = p2p_args(nd, nodes[:i]) + list((extra or {}).get(i, []))
        nd.start(test.genesis_path, nd.run_args)
    return nodes


def kill_node(node):
    """SIGKILL (a crash): no clean shutdown, the log is still checked."""
    node.proc.kill()
    node.proc.wait()
    node.proc = None
    node.log.close()
    node.check_log()


def tips(nodes):
    """(height, tip_hash, state_root) of each node."""
    out = []
    for nd in nodes:
        j = nd.info()
        out.append((int(j["height"]), j["tip_hash"], j["state_root"]))
    return out


def wait_converged(nodes, min_height=0, timeout=60):
    """Every node at the same tip hash and state root, at least min_height."""
    def same():
        t = tips(nodes)
        if len(set((h, tip, root) for h, tip, root in t)) == 1 and t[0][0] >= min_height:
            return t[0]
        return None
    try:
        return wait_until(same, timeout, "nodes to converge at height >= %d" % min_height,
                          interval=0.3)
    except TestFailure:
        raise TestFailure("nodes did not converge: %r" % tips(nodes))


# ---- crash and perturbation helpers (tests/integration/test_crash*.py, test_perturb*.py) ----

def run_audit(test, *args, expect=0, timeout=120):
    """zbc-audit ARGS --json from --build; the exit code must equal expect
    (None: any); returns the parsed JSON report."""
    exe = os.path.join(os.path.abspath(test.args.build), "node", "audit", "zbc-audit")
    p = subprocess.run([exe] + [str(a) for a in args] + ["--json"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    out, errs = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    if SANITIZER_RE.search(errs):
        raise TestFailure("zbc-audit reported a sanitizer error:\n%s" % errs)
    try:
        j = json.loads(out)
    except ValueError:
        raise TestFailure("zbc-audit did not print one JSON object (exit %d):\n%s\n%s"
                          % (p.returncode, out, errs))
    if expect is not None and p.returncode != expect:
        raise TestFailure("zbc-audit %s: exit %d, want %d:\n%s"
                          % (" ".join(map(str, args)), p.returncode, expect, out))
    return j


def ledger_tamper(test, ledger, *args):
    """tests/tools/ledger_tamper LEDGER get DB KEYHEX | put DB KEYHEX VALHEX | del DB KEYHEX;
    returns its output (the value read, hex)."""
    exe = os.path.join(os.path.abspath(test.args.build), "tests", "tools", "ledger_tamper")
    p = subprocess.run([exe, ledger] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=30)
    if p.returncode != 0:
        raise TestFailure("ledger_tamper %s failed: %s" % (args, p.stderr.decode()))
    return p.stdout.decode().strip()


def audit_datadir_clean(test, datadir, genesis_path):
    """A full zbc-audit replay of a stopped node's data directory: no
    divergence (signatures, rolls, state roots, money invariant at every
    height), every height checked; returns the height audited."""
    j = run_audit(test, "replay", "--datadir", datadir, "--genesis", genesis_path)
    assert_true(j["complete"] and j["heights_checked"] == j["source_height"],
                "audit of %s incomplete: %r" % (datadir, j))
    assert_equal(j["divergence_count"], 0, "divergences in %s" % datadir)
    return j["heights_checked"]


def started_tip(node):
    """(height, tip hash) of the node's last 'zbcd ... started:' log line:
    what its ledger held when it opened, before any sync."""
    m = re.findall(r"zbcd \S+ started: .* height=(\d+) tip=([0-9a-f]{64})", node.read_log())
    if not m:
        raise TestFailure("node %d logged no start line" % node.index)
    return int(m[-1][0]), m[-1][1]


def fill_disk(path, leave=24 * 1024):
    """Fills the filesystem holding the new file `path` until about `leave`
    bytes are free.  Nodes on that filesystem write meanwhile (blocks, logs),
    so the room read before writing may be gone by the write: it writes in
    pieces, each no more than the room then, and when the disk refuses one
    (ENOSPC, the disk full already) it gives `leave` back."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        chunk = b"\0" * 65536
        while True:
            st = os.statvfs(os.path.dirname(path))
            room = st.f_bavail * st.f_frsize - leave
            if room <= 0:
                return
            try:
                os.write(fd, chunk[:min(len(chunk), room)])
            except OSError as e:
                if e.errno != errno.ENOSPC:
                    raise
                os.ftruncate(fd, max(0, os.fstat(fd).st_size - leave))
                return
    finally:
        os.close(fd)


def zbcd_once(test, args, timeout=30):
    """Runs `zbcd ARGS` to its end (a start expected to fail, an init);
    returns (exit code, stdout + stderr).  A crash (killed by a signal,
    a sanitizer report) fails the test: a damaged data directory must give
    an error, never a crash."""
    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1")
    try:
        p = subprocess.run([test.zbcd] + list(args), stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=timeout, env=env)
    except subprocess.TimeoutExpired as e:
        raise TestFailure("zbcd %s still ran after %d s (it should have exited):\n%s"
                          % (" ".join(args), timeout, (e.output or b"").decode("utf-8", "replace")[-3000:]))
    out = p.stdout.decode("utf-8", "replace")
    if p.returncode < 0 or p.returncode >= 128 or SANITIZER_RE.search(out):
        raise TestFailure("zbcd %s crashed (exit %d):\n%s" % (" ".join(args), p.returncode, out[-3000:]))
    return p.returncode, out
