#!/usr/bin/env python3
"""Runs every tests/integration/test_*.py against a build directory.

    python3 tests/integration/run.py --build build [--timeout S] [-k NAME]

Each test file runs as its own process (python3 test_x.py --build DIR) with
a per-test timeout; prints "ok   name (Ns)" or "FAIL name" with the tail of
its output, and ends with exactly one line "N passed, N failed".  Exits
non-zero when any test failed.
"""
import argparse
import os
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True, help="meson build directory with node/zbcd/zbcd and node/wallet/zbc")
    ap.add_argument("--timeout", type=int, default=int(os.environ.get("ZBC_TEST_TIMEOUT", "300")),
                    help="seconds per test file (default 300)")
    ap.add_argument("-k", dest="only", action="append", default=[],
                    help="run only tests whose name contains this (repeatable)")
    args = ap.parse_args()
    build = os.path.abspath(args.build)

    tests = sorted(f for f in os.listdir(HERE) if f.startswith("test_") and f.endswith(".py"))
    if args.only:
        tests = [t for t in tests if any(k in t for k in args.only)]
    passed = failed = 0
    for t in tests:
        name = t[:-3]
        start = time.monotonic()
        # Own session, so a timed-out test is killed with every node it started.
        p = subprocess.Popen([sys.executable, os.path.join(HERE, t), "--build", build],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             cwd=HERE, start_new_session=True)
        try:
            outb, _ = p.communicate(timeout=args.timeout)
            ok = p.returncode == 0
            why = "" if ok else "exit code %d" % p.returncode
        except subprocess.TimeoutExpired:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            outb, _ = p.communicate()
            ok = False
            why = "timed out after %d s" % args.timeout
        out = outb.decode("utf-8", "replace")
        took = time.monotonic() - start
        if ok:
            passed += 1
            print("ok   %s (%.1fs)" % (name, took), flush=True)
        else:
            failed += 1
            print("FAIL %s (%s, %.1fs)" % (name, why, took), flush=True)
            for line in out.splitlines()[-60:]:
                print("     | " + line)
            sys.stdout.flush()
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
