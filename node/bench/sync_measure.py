#!/usr/bin/env python3
"""Sync speed against replay, side by side (scripts/bench sync;
docs/benchmarks.md "Sync").

    sync_measure.py --build DIR --dir DATADIR

DATADIR is a chain made by zbc-scale (e.g. --blocks 20000).  Measures, one
after the other in the same run:

  replay  `zbc-audit replay --datadir DATADIR` (every block decoded,
          checked and applied by the consensus code from the stored blocks);
  sync    a fresh data directory (`zbcd init` with DATADIR's genesis) whose
          zbcd dials a `zbcd run --no-produce` serving DATADIR over loopback
          P2P, from its start until its API reports DATADIR's height.

Prints both times, blocks/s, and sync speed / replay speed (= replay time /
sync time; the issue's target is >= 0.7).  Standard library only.
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


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def info(port):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        c.request("GET", "/api/v1/node/info")
        r = c.getresponse()
        body = r.read()
        return json.loads(body) if r.status == 200 else None
    except (OSError, ValueError):
        return None
    finally:
        c.close()


def start(zbcd, d, port, extra, log):
    return subprocess.Popen([zbcd, "run", "--datadir", d, "--api", "127.0.0.1:%d" % port,
                             "--no-produce", "--no-web"] + extra,
                            stdout=log, stderr=subprocess.STDOUT)


def wait_api(proc, port, what, timeout=600):
    end = time.time() + timeout
    while time.time() < end:
        if proc.poll() is not None:
            raise SystemExit("%s exited with %d" % (what, proc.returncode))
        j = info(port)
        if j is not None:
            return j
        time.sleep(0.05)
    raise SystemExit("%s: no API after %d s" % (what, timeout))


def stop(proc):
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--dir", required=True)
    a = ap.parse_args()
    zbcd = os.path.join(a.build, "node", "zbcd", "zbcd")
    audit = os.path.join(a.build, "node", "audit", "zbc-audit")
    work = tempfile.mkdtemp(prefix="zbc_sync_")
    log = open(os.path.join(work, "nodes.log"), "ab")

    # the serving node: its height is the target
    sport, sp2p = free_port(), free_port()
    server = start(zbcd, a.dir, sport, ["--p2p", "127.0.0.1:%d" % sp2p], log)
    target = int(wait_api(server, sport, "the serving zbcd")["height"])
    stop(server)

    t0 = time.perf_counter()
    r = subprocess.run([audit, "replay", "--datadir", a.dir], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    t_replay = time.perf_counter() - t0
    out = r.stdout.decode("utf-8", "replace")
    if r.returncode != 0:
        raise SystemExit("zbc-audit replay failed (%d):\n%s" % (r.returncode, out[-2000:]))
    print("replay: %d blocks in %.1f s (%.0f blocks/s): %s"
          % (target, t_replay, target / t_replay, out.strip().splitlines()[-1]))

    fresh = os.path.join(work, "fresh")
    p = subprocess.run([zbcd, "init", "--datadir", fresh, "--genesis",
                        os.path.join(a.dir, "genesis.json")], stdout=log, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        raise SystemExit("zbcd init failed")
    server = start(zbcd, a.dir, sport, ["--p2p", "127.0.0.1:%d" % sp2p], log)
    wait_api(server, sport, "the serving zbcd")
    fport = free_port()
    t0 = time.perf_counter()
    follower = start(zbcd, fresh, fport, ["--peer", "127.0.0.1:%d" % sp2p], log)
    try:
        wait_api(follower, fport, "the syncing zbcd")
        last, last_t = 0, time.perf_counter()
        while True:
            j = info(fport)
            h = int(j["height"]) if j else last
            now = time.perf_counter()
            if h >= target:
                break
            if h != last:
                last, last_t = h, now
            elif now - last_t > 120:
                raise SystemExit("sync stalled at height %d of %d" % (h, target))
            if follower.poll() is not None:
                raise SystemExit("the syncing zbcd exited with %d" % follower.returncode)
            time.sleep(0.1)
        t_sync = time.perf_counter() - t0
    finally:
        stop(follower)
        stop(server)
        log.close()
    print("sync:   %d blocks in %.1f s (%.0f blocks/s), fresh zbcd from start to height %d"
          % (target, t_sync, target / t_sync, target))
    print("sync speed / replay speed: %.2f (target >= 0.70)" % (t_replay / t_sync))
    shutil.rmtree(fresh, ignore_errors=True)
    print("node logs: %s" % os.path.join(work, "nodes.log"))


if __name__ == "__main__":
    main()
