#!/usr/bin/env python3
"""Runs every tests/integration/test_*.py against a build directory.

    python3 tests/integration/run.py --build build [--jobs N] [--timeout S] [-k NAME]

Each test file runs as its own process (python3 test_x.py --build DIR) in
its own session, with a per-test timeout.  Independent test files run in
parallel, up to --jobs at a time (default: $ZBC_TEST_JOBS, else three per
CPU: the tests spend most of their time waiting for blocks); each picks its own free ports and its own temporary
directory (framework.py).  A test that is heavy or timing-sensitive runs
alone, with nothing else of this run beside it: it is listed in SERIAL below
or carries the line "# run.py: serial" in its first 40 lines.  A long test
that mostly waits carries "# run.py: early" instead: it starts before the
serial tests and runs beside them (the soak: 4 nodes at a few transactions
a second for 3 minutes, which would otherwise bound the parallel part on
its own), the one exception to "alone".  Serial tests run first, one by
one; then the others, the longest first: the durations of
a fresh-clone run committed in tests/integration/expected-times.json (a
fresh clone has none of its own; refresh it from a run's
BUILD/integration-times.json when tests change much), overridden by this
build's previous run, kept in BUILD/integration-times.json.

Prints "ok   name (Ns)" or "FAIL name (why, Ns)" with the tail of its output
as each test ends, keeps each test's whole output in
BUILD/integration-logs/name.log, and ends with exactly one line
"N passed, N failed".  Exits non-zero when any test failed.
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# Tests that must run alone (docs/architecture.md, "tests/"): their deadlines
# assume the CPU is not shared with other tests' nodes.
#   crash_load      three 200 ms validators under a stream of transfers and
#                   moves, killed at random, with confirmation deadlines;
#   crash_init      strace kills at every system call; two inits race inside
#                   a 1.5 s window that strace holds open;
#   crash_diskfull_reorg
#                   must catch up well within the 60 s a ban would last;
#   multinode_netns a partition and its healing between two namespaces.
SERIAL = {
    "test_crash_load",
    "test_crash_init",
    "test_crash_diskfull_reorg",
    "test_multinode_netns",
}
SERIAL_MARK = "# run.py: serial"
EARLY_MARK = "# run.py: early"
TAIL = 60


def default_jobs():
    env = os.environ.get("ZBC_TEST_JOBS")
    if env:
        return max(1, int(env))
    # Measured on 2 CPUs (docs/architecture.md, "tests/"): the whole suite
    # took 494 s one at a time, 274 s with 2 at once, 193 s with 4, 181 s
    # with 6 (the longest test then bounds the parallel part), and used
    # about 10% of the CPU throughout.
    return max(2, 3 * (os.cpu_count() or 1))


def has_mark(name, tests_dir, mark):
    try:
        with open(os.path.join(tests_dir, name + ".py"), encoding="utf-8", errors="replace") as f:
            for _ in range(40):
                line = f.readline()
                if not line:
                    break
                if line.strip() == mark:
                    return True
    except OSError:
        pass
    return False


def is_serial(name, tests_dir):
    return name in SERIAL or has_mark(name, tests_dir, SERIAL_MARK)


def is_early(name, tests_dir):
    return not is_serial(name, tests_dir) and has_mark(name, tests_dir, EARLY_MARK)


class Runner:
    def __init__(self, tests_dir, build, timeout, log_dir):
        self.tests_dir = tests_dir
        self.build = build
        self.timeout = timeout
        self.log_dir = log_dir
        self.lock = threading.Lock()
        self.passed = 0
        self.failed = 0
        self.times = {}
        self.procs = set()

    def run_one(self, name):
        start = time.monotonic()
        # Own session, so a timed-out test is killed with every node it started.
        p = subprocess.Popen([sys.executable, os.path.join(self.tests_dir, name + ".py"),
                              "--build", self.build],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, cwd=self.tests_dir, start_new_session=True)
        with self.lock:
            self.procs.add(p)
        try:
            outb, _ = p.communicate(timeout=self.timeout)
            ok = p.returncode == 0
            why = "" if ok else "exit code %d" % p.returncode
        except subprocess.TimeoutExpired:
            kill_group(p)
            outb, _ = p.communicate()
            ok = False
            why = "timed out after %d s" % self.timeout
        finally:
            with self.lock:
                self.procs.discard(p)
        took = time.monotonic() - start
        out = outb.decode("utf-8", "replace")
        log = os.path.join(self.log_dir, name + ".log")
        try:
            with open(log, "w") as f:
                f.write(out)
        except OSError:
            log = None
        with self.lock:
            self.times[name] = round(took, 1)
            if ok:
                self.passed += 1
                print("ok   %s (%.1fs)" % (name, took), flush=True)
            else:
                self.failed += 1
                print("FAIL %s (%s, %.1fs)" % (name, why, took), flush=True)
                for line in out.splitlines()[-TAIL:]:
                    print("     | " + line)
                if log:
                    print("     (whole output: %s)" % log)
                sys.stdout.flush()

    def run_pool(self, names, jobs):
        todo = list(names)
        todo_lock = threading.Lock()

        def worker():
            while True:
                with todo_lock:
                    if not todo:
                        return
                    name = todo.pop(0)
                self.run_one(name)

        threads = [threading.Thread(target=worker, daemon=True) for _ in range(min(jobs, len(todo)))]
        for t in threads:
            t.start()
        for t in threads:
            while t.is_alive():
                t.join(0.5)

    def kill_all(self):
        with self.lock:
            procs = list(self.procs)
        for p in procs:
            kill_group(p)


def kill_group(p):
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True, help="meson build directory with node/zbcd/zbcd and node/wallet/zbc")
    ap.add_argument("--timeout", type=int, default=int(os.environ.get("ZBC_TEST_TIMEOUT", "300")),
                    help="seconds per test file (default 300)")
    ap.add_argument("-j", "--jobs", type=int, default=default_jobs(),
                    help="test files run at once (default $ZBC_TEST_JOBS, else 3 per CPU: %(default)s)")
    ap.add_argument("-k", dest="only", action="append", default=[],
                    help="run only tests whose name contains this (repeatable)")
    ap.add_argument("--tests-dir", default=HERE,
                    help="where the test_*.py files are (default: beside run.py; "
                         "tests/checks/test_run_py.py points it elsewhere)")
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")

    tests_dir = os.path.abspath(args.tests_dir)
    tests = sorted(f[:-3] for f in os.listdir(tests_dir) if f.startswith("test_") and f.endswith(".py"))
    if args.only:
        tests = [t for t in tests if any(k in t for k in args.only)]

    log_dir = os.path.join(build, "integration-logs")
    os.makedirs(log_dir, exist_ok=True)
    times_path = os.path.join(build, "integration-times.json")
    prev = {}
    # the committed durations of a fresh-clone run first (a fresh clone has no
    # times of its own), then this build's own from its last run
    for path in (os.path.join(tests_dir, "expected-times.json"), times_path):
        try:
            with open(path) as f:
                prev.update({k: float(v) for k, v in json.load(f).items()})
        except (OSError, ValueError, AttributeError, TypeError):
            pass

    serial = [t for t in tests if is_serial(t, tests_dir)]
    early = [t for t in tests if is_early(t, tests_dir)]
    pooled = [t for t in tests if t not in serial and t not in early]
    # Longest first (unknown durations count as long), so the pool ends together.
    pooled.sort(key=lambda t: -prev.get(t, 1e9))

    r = Runner(tests_dir, build, args.timeout, log_dir)
    try:
        beside = [threading.Thread(target=r.run_one, args=(t,), daemon=True) for t in early]
        for t in beside:
            t.start()
        for t in serial:
            r.run_one(t)
        # the early ones still running count against the pool's jobs
        r.run_pool(pooled, max(1, args.jobs - sum(t.is_alive() for t in beside)))
        for t in beside:
            while t.is_alive():
                t.join(0.5)
    except KeyboardInterrupt:
        r.kill_all()
        raise
    prev.update(r.times)
    try:
        with open(times_path + ".tmp", "w") as f:
            json.dump(prev, f, indent=1, sort_keys=True)
        os.replace(times_path + ".tmp", times_path)
    except OSError:
        pass
    print("%d passed, %d failed" % (r.passed, r.failed))
    return 0 if r.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
