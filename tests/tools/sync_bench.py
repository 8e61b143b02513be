#!/usr/bin/env python3
"""The measurement of `scripts/bench sync` (docs/benchmarks.md "Sync"): on a
chain made by tests/tools/make_chain.py, side by side in the same run,

  replay  `zbc-audit replay --datadir COPY` (the chain re-validated and
          applied in memory, docs/audit.md)
  sync    the full node (`zbcd run --no-produce` on a copy of the data
          directory, P2P on loopback) and a fresh node (`zbcd init`, the
          full node as its only `--peer`); timed from the fresh node's start
          until its tip is the full node's tip

and prints blocks/s of each, the ratio sync/replay (target >= 0.7, issue 11
item 4) and the CPU each process used in % of one core.  Runs alternate
replay and sync so a change of the machine's load hits both.

    python3 tests/tools/sync_bench.py --build DIR --chain CACHE_DIR [--runs 3]
        [--where disk|ram] [--timeout S]

--where: where the copies live: `disk` (next to the chain, the default) or
`ram` (/dev/shm), which takes the fsync of each LMDB commit out of the
figure.  Exit 1 when a process fails or a sync does not finish in
--timeout seconds (default 1200); the figures are printed either way.
"""
import argparse
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HZ = os.sysconf("SC_CLK_TCK")


class Fail(Exception):
    pass


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def info(port, timeout=10):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        c.request("GET", "/api/v1/node/info")
        r = c.getresponse()
        body = r.read()
        if r.status != 200:
            raise Fail("node/info on port %d: %d" % (port, r.status))
        return json.loads(body)
    finally:
        c.close()


def cpu_s(pid):
    """utime + stime of a live process, seconds (/proc/PID/stat)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / HZ


def schedstat(pid):
    """(on-CPU s, waiting-for-a-CPU s) of the main thread (/proc/PID/schedstat)."""
    with open("/proc/%d/schedstat" % pid) as f:
        run, wait = f.read().split()[:2]
    return int(run) / 1e9, int(wait) / 1e9


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def stop(proc):
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def wait_api(proc, port, log):
    for _ in range(600):
        if proc.poll() is not None:
            raise Fail("zbcd exited with %d (log: %s)" % (proc.returncode, log))
        try:
            return info(port)
        except (OSError, http.client.HTTPException):
            time.sleep(0.05)
    raise Fail("zbcd did not answer in 30 s (log: %s)" % log)


def replay(a, chain, work):
    d = os.path.join(work, "replay")
    shutil.copytree(os.path.join(chain, "node"), d)
    t0 = time.monotonic()
    r = subprocess.run([os.path.join(a.build, "node/audit/zbc-audit"), "replay", "--datadir", d,
                        "--json"], capture_output=True, text=True)
    wall = time.monotonic() - t0
    shutil.rmtree(d)
    if r.returncode != 0:
        raise Fail("zbc-audit replay exited with %d: %s %s" % (r.returncode, r.stdout[-500:],
                                                             r.stderr[-500:]))
    j = json.loads(r.stdout)
    return wall, j


def sync(a, chain, work, tip_height):
    full_dir = os.path.join(work, "full")
    fresh_dir = os.path.join(work, "fresh")
    shutil.copytree(os.path.join(chain, "node"), full_dir)
    gpath = os.path.join(chain, "genesis.json")
    zbcd = os.path.join(a.build, "node/zbcd/zbcd")
    r = subprocess.run([zbcd, "init", "--datadir", fresh_dir, "--genesis", gpath],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise Fail("zbcd init: %s" % r.stderr.strip())
    p2p, api_full, api_fresh = free_port(), free_port(), free_port()
    procs = []
    try:
        flog = os.path.join(work, "full.log")
        full = subprocess.Popen([zbcd, "run", "--datadir", full_dir, "--genesis", gpath,
                                 "--api", "127.0.0.1:%d" % api_full, "--no-web",
                                 "--p2p", "127.0.0.1:%d" % p2p, "--no-produce",
                                 "--log-level", a.log_level],
                                stdout=open(flog, "w"), stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL)
        procs.append(full)
        fi = wait_api(full, api_full, flog)
        if fi["height"] != tip_height:
            raise Fail("the full node is at %d, the chain at %d" % (fi["height"], tip_height))
        full_cpu0 = cpu_s(full.pid)
        nlog = os.path.join(work, "fresh.log")
        t0 = time.monotonic()
        fresh = subprocess.Popen([zbcd, "run", "--datadir", fresh_dir, "--genesis", gpath,
                                  "--api", "127.0.0.1:%d" % api_fresh, "--no-web",
                                  "--peer", "127.0.0.1:%d" % p2p, "--log-level", a.log_level],
                                 stdout=open(nlog, "w"), stderr=subprocess.STDOUT,
                                 stdin=subprocess.DEVNULL)
        procs.append(fresh)
        wait_api(fresh, api_fresh, nlog)
        t_first, fresh_cpu, sched, stall = None, 0.0, (0.0, 0.0), 0.0
        while True:
            if fresh.poll() is not None:
                raise Fail("the fresh node exited with %d (log: %s)" % (fresh.returncode, nlog))
            # the node answers its API between the ~50-ms slices of a sync answer it
            # applies (docs/p2p.md §5): a slow answer is measured (api_max), not an error;
            # the tip it reports at the end is committed (the last answer's commit comes
            # before the loop answers again)
            t_ask = time.monotonic()
            try:
                j = info(api_fresh, timeout=max(1, a.timeout - (t_ask - t0)))
            except (OSError, http.client.HTTPException) as e:
                raise Fail("node/info of the fresh node: %s" % e)
            now = time.monotonic()
            stall = max(stall, now - t_ask)
            if t_first is None and j["height"] > 0:
                t_first = now
            if j["height"] >= tip_height:
                if j["tip_hash"] != fi["tip_hash"]:
                    raise Fail("the fresh node's tip at %d is %s, the full node's %s"
                               % (j["height"], j["tip_hash"], fi["tip_hash"]))
                fresh_cpu = cpu_s(fresh.pid)
                sched = schedstat(fresh.pid)
                break
            if now - t0 > a.timeout:
                raise Fail("the fresh node reached %d of %d blocks in %d s (log: %s)"
                           % (j["height"], tip_height, a.timeout, nlog))
            time.sleep(0.05)
        wall = now - t0
        full_cpu = cpu_s(full.pid) - full_cpu0
        return wall, fresh_cpu, full_cpu, sched, stall
    finally:
        for p in procs:
            stop(p)
        if not a.keep:
            shutil.rmtree(full_dir, ignore_errors=True)
            shutil.rmtree(fresh_dir, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--chain", required=True, help="a make_chain.py cache directory")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--where", choices=("disk", "ram"), default="disk")
    ap.add_argument("--timeout", type=int, default=1200)
    ap.add_argument("--keep", action="store_true", help="keep the copies and the nodes' logs")
    ap.add_argument("--log-level", default="info", choices=("debug", "info", "warn", "error"))
    a = ap.parse_args()
    with open(os.path.join(a.chain, "chain.json")) as f:
        meta = json.load(f)
    n = meta["blocks"]
    root = "/dev/shm" if a.where == "ram" else os.path.dirname(os.path.abspath(a.chain))
    print("chain: %d blocks, %d transactions (%d transfers, %d tic-tac-toe games won), "
          "%s" % (n, meta["transactions"], meta["transfers"], meta["games_won"], a.chain))
    print("copies on %s (%s)" % (a.where, root))
    print("wall: blocks/s over the elapsed time; cpu: blocks per CPU second (replay: zbc-audit's"
          " threads; sync: the fresh and the full node's); fresh loop run/wait: the fresh node's"
          " event-loop thread on a CPU / runnable but waiting for one, in % of the sync's wall"
          " time (the rest it was blocked: fsync, network, sleeps); api_max: the fresh node's"
          " slowest node/info answer during the sync, s")
    print("%-4s %8s %8s %7s %8s %8s %8s %7s %7s %6s %6s %6s %6s %7s  %s" % (
        "run", "replay_s", "replay/s", "r_cpu%", "cpu_b/s", "sync_s", "sync/s", "fresh%",
        "full%", "cpu_b/s", "ratio", "cpu_r", "run/wait", "api_max", "load before"))
    ratios, cratios, failed = [], [], False
    for i in range(a.runs):
        work = tempfile.mkdtemp(prefix="zbc-sync-bench.", dir=root)
        try:
            ld = loadavg()
            t_r0 = os.times()
            rwall, _ = replay(a, a.chain, work)
            t_r1 = os.times()
            rcpu = (t_r1.children_user - t_r0.children_user
                    + t_r1.children_system - t_r0.children_system)
            swall, fresh_cpu, full_cpu, sched, stall = sync(a, a.chain, work, n)
        except Fail as e:
            print("run %d: %s" % (i + 1, e), file=sys.stderr)
            failed = True
            continue
        finally:
            if a.keep:
                print("kept: %s" % work)
            else:
                shutil.rmtree(work, ignore_errors=True)
        ratio = (n / swall) / (n / rwall)
        scpu = fresh_cpu + full_cpu
        cratio = (n / scpu) / (n / rcpu) if scpu > 0 and rcpu > 0 else 0.0
        ratios.append(ratio)
        cratios.append(cratio)
        print("%-4d %8.1f %8.0f %7.0f %8.0f %8.1f %8.0f %7.0f %7.0f %6.0f %6.3f %6.3f %3.0f/%-3.0f"
              " %7.2f  %s"
              % (i + 1, rwall, n / rwall, 100 * rcpu / rwall, n / rcpu if rcpu else 0,
                 swall, n / swall, 100 * fresh_cpu / swall, 100 * full_cpu / swall,
                 n / scpu if scpu else 0, ratio, cratio, 100 * sched[0] / swall,
                 100 * sched[1] / swall, stall, ld), flush=True)
    if ratios:
        ratios.sort()
        cratios.sort()
        print("ratio sync/replay, wall: median %.3f (min %.3f, max %.3f, %d runs; target >= 0.7)"
              % (ratios[len(ratios) // 2], ratios[0], ratios[-1], len(ratios)))
        print("ratio sync/replay, per CPU second: median %.3f (min %.3f, max %.3f)"
              % (cratios[len(cratios) // 2], cratios[0], cratios[-1]))
    print("load after: %s" % loadavg())
    return 1 if failed or not ratios else 0


if __name__ == "__main__":
    sys.exit(main())
