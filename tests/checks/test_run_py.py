#!/usr/bin/env python3
"""Tests of tests/integration/run.py's scheduling (docs/architecture.md,
"tests/"): test files run several at once, a test marked serial runs with
nothing beside it but a test marked early (started first), the output keeps its "ok   name (Ns)" / "FAIL name (...)"
lines with the failing test's tail and ends with "N passed, N failed", and
the exit status says whether anything failed.

Each fake test file records when it started and ended; the assertions are
on those intervals, not on wall time, so a loaded machine cannot make this
pass or fail by chance.

    [ZBC_RUN_PY=PATH] python3 tests/checks/test_run_py.py
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
# the runner under test: $ZBC_RUN_PY (set by tests/meson.build), else this tree's
RUN = os.environ.get("ZBC_RUN_PY") or os.path.join(HERE, "..", "integration", "run.py")

# Records [start, end] in DIR/spans/NAME, sleeping between them until every
# other parallel test has started too (or 20 s pass): the pool must overlap.
FAKE = '''import os, sys, time
name = os.path.basename(__file__)[:-3]
spans = os.path.join(os.path.dirname(os.path.abspath(__file__)), "spans")
start = time.time()
with open(os.path.join(spans, name + ".start"), "w") as f:
    f.write(repr(start))
%(body)s
with open(os.path.join(spans, name + ".end"), "w") as f:
    f.write(repr(time.time()))
%(exit)s
'''
WAIT_FOR_OTHERS = '''deadline = time.time() + 20
while time.time() < deadline:
    if all(os.path.exists(os.path.join(spans, o + ".start")) for o in %r):
        break
    time.sleep(0.05)
time.sleep(0.3)'''


class RunPy(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="zbc-runpy-")
        self.tests = os.path.join(self.tmp, "tests")
        self.build = os.path.join(self.tmp, "build")
        os.makedirs(os.path.join(self.tests, "spans"))
        os.makedirs(self.build)
        pool = ["test_pool_a", "test_pool_b", "test_pool_fail"]
        for name in pool:
            others = [o for o in pool if o != name]
            self.write(name, WAIT_FOR_OTHERS % (others,),
                       "print('the tail of a failure'); sys.exit(3)" if name.endswith("fail") else "")
        self.write("test_serial_x", "# run.py: serial\ntime.sleep(0.5)", "")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def write(self, name, body, exit_code):
        with open(os.path.join(self.tests, name + ".py"), "w") as f:
            f.write(FAKE % {"body": body, "exit": exit_code})

    def span(self, name):
        with open(os.path.join(self.tests, "spans", name + ".start")) as f:
            start = float(f.read())
        with open(os.path.join(self.tests, "spans", name + ".end")) as f:
            end = float(f.read())
        return start, end

    def run_py(self, *args):
        p = subprocess.run([sys.executable, RUN, "--build", self.build, "--tests-dir", self.tests,
                            "--timeout", "60"] + list(args),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
        return p.returncode, p.stdout.decode("utf-8", "replace")

    def test_parallel_pool_and_serial_alone(self):
        rc, out = self.run_py("--jobs", "4")  # room for the serial one too
        self.assertEqual(rc, 1, out)
        lines = out.rstrip("\n").split("\n")
        self.assertEqual(lines[-1], "3 passed, 1 failed", out)
        for name in ("test_pool_a", "test_pool_b", "test_serial_x"):
            self.assertRegex(out, r"(?m)^ok   %s \(\d+\.\ds\)$" % name)
        self.assertRegex(out, r"(?m)^FAIL test_pool_fail \(exit code 3, \d+\.\ds\)$")
        self.assertRegex(out, r"(?m)^     \| the tail of a failure$")
        spans = {n: self.span(n) for n in ("test_pool_a", "test_pool_b", "test_pool_fail", "test_serial_x")}
        # the pool overlapped: every pooled test started before any ended
        pool = [spans[n] for n in ("test_pool_a", "test_pool_b", "test_pool_fail")]
        self.assertLess(max(s for s, _ in pool), min(e for _, e in pool), spans)
        # the serial test overlapped none of them
        s0, e0 = spans["test_serial_x"]
        for s, e in pool:
            self.assertTrue(e0 <= s or e <= s0, spans)
        self.assertTrue(os.path.isfile(os.path.join(self.build, "integration-logs", "test_pool_fail.log")))

    def test_early_beside_serial(self):
        # an early test starts with the serial one and runs beside it
        self.write("test_early_e", "# run.py: early\n" + WAIT_FOR_OTHERS % (["test_serial_x"],), "")
        rc, out = self.run_py("--jobs", "4")
        self.assertEqual(out.rstrip("\n").split("\n")[-1], "4 passed, 1 failed", out)
        self.assertRegex(out, r"(?m)^ok   test_early_e \(\d+\.\ds\)$")
        se, ee = self.span("test_early_e")
        s0, e0 = self.span("test_serial_x")
        # overlapped (the early one waits until the serial one started)
        self.assertLess(se, e0, (se, e0))
        self.assertLess(s0, ee, (s0, ee))
        # the serial test still overlapped no pooled test
        for n in ("test_pool_a", "test_pool_b", "test_pool_fail"):
            s, e = self.span(n)
            self.assertTrue(e0 <= s or e <= s0, (n, s, e, s0, e0))

    def test_one_job_runs_one_at_a_time(self):
        self.write("test_one_a", "time.sleep(0.3)", "")
        self.write("test_one_b", "time.sleep(0.3)", "")
        rc, out = self.run_py("--jobs", "1", "-k", "one_")
        self.assertEqual(rc, 0, out)
        self.assertEqual(out.rstrip("\n").split("\n")[-1], "2 passed, 0 failed", out)
        (s1, e1), (s2, e2) = self.span("test_one_a"), self.span("test_one_b")
        self.assertTrue(e1 <= s2 or e2 <= s1, ((s1, e1), (s2, e2)))
        self.assertFalse(re.search(r"(?m)^FAIL", out), out)


if __name__ == "__main__":
    unittest.main(verbosity=1)
