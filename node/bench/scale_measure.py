#!/usr/bin/env python3
"""Times a zbcd on data directories made by zbc-scale (scripts/bench scale;
docs/benchmarks.md "Memory at scale").

    scale_measure.py --zbcd PATH [--zbcd-before PATH] --dir NAME=DIR ...
    scale_measure.py --zbc-audit PATH --dir NAME=DIR ...

For each directory (the first is the baseline): starts `zbcd run --no-produce
--no-web` on it with no peers, waits for the API, reads VmRSS and VmHWM from
/proc/PID/status (and its split: RssAnon, the process's own memory, and
RssFile, pages of the LMDB map it touched), times each request below (median of REPS calls on one
persistent connection, after one warm-up call), reads the RSS again, stops
the node, then times one more start with `--verify-state` (the full state
rescan, docs/node.md §3) and its RSS, and prints every figure with its ratio
to the baseline's.  The
data directory's zbc-scale summary (scale.txt) names the players.  With
--zbcd-before, the same requests are timed with that binary too (a zbcd
from before the app index), on the directory's ledger as it is.

Requests: GET /api/v1/apps (first page), a deep page (the cursor of the app
halfway down the list, from scale.txt), status=open, type=tictactoe, player= a creator with many apps and
one with few, and GET /api/v1/accounts/<a creator>.  Standard library only.
"""
import argparse
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

REPS = 15


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def status_kb(pid):
    out = {}
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("VmRSS", "VmHWM", "RssAnon", "RssFile"):
                out[k] = int(v.split()[0])
    return out


def read_summary(d):
    out = {}
    with open(os.path.join(d, "scale.txt")) as f:
        for line in f:
            k, _, v = line.strip().partition(" ")
            out[k] = v
    return out


class Node:
    def __init__(self, zbcd, d, log, extra=()):
        self.port = free_port()
        self.log = log
        t0 = time.perf_counter()
        self.proc = subprocess.Popen(
            [zbcd, "run", "--datadir", d, "--api", "127.0.0.1:%d" % self.port,
             "--no-produce", "--no-web", "--log-level", "info", *extra],
            stdout=log, stderr=subprocess.STDOUT)
        deadline = time.time() + 600
        while True:
            if self.proc.poll() is not None:
                raise SystemExit("zbcd exited with %d while starting on %s"
                                 % (self.proc.returncode, d))
            try:
                c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                c.request("GET", "/api/v1/node/info")
                r = c.getresponse()
                r.read()
                c.close()
                if r.status == 200:
                    break
            except OSError:
                pass
            if time.time() > deadline:
                raise SystemExit("zbcd on %s did not answer in 600 s" % d)
            time.sleep(0.05)
        self.start_s = time.perf_counter() - t0
        self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)

    def get(self, path):
        self.conn.request("GET", path)
        r = self.conn.getresponse()
        body = r.read()
        if r.status != 200:
            raise SystemExit("GET %s: %d %s" % (path, r.status, body[:200]))
        return json.loads(body)

    def time(self, path):
        self.get(path)  # warm-up: the pages it touches are then cached
        ts = []
        for _ in range(REPS):
            t0 = time.perf_counter()
            j = self.get(path)
            ts.append((time.perf_counter() - t0) * 1000)
        return statistics.median(ts), j

    def stop(self):
        self.conn.close()
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def requests_for(summary):
    many, few = summary["player_many"], summary["player_few"]
    return [
        ("apps first page", "/api/v1/apps?limit=20"),
        ("apps deep page (cursor)", "/api/v1/apps?limit=20&cursor=%s" % summary["deep_cursor"]),
        ("apps status=open", "/api/v1/apps?status=open&limit=20"),
        ("apps type=tictactoe", "/api/v1/apps?type=tictactoe&limit=20"),
        ("apps player (many apps)", "/api/v1/apps?player=%s&limit=20" % many),
        ("apps player (3 apps)", "/api/v1/apps?player=%s&limit=20" % few),
        ("apps status+type+player", "/api/v1/apps?status=open&type=1&player=%s&limit=100" % many),
        ("account", "/api/v1/accounts/%s" % many),
    ]


def measure(zbcd, d, logdir, tag):
    summary = read_summary(d)
    log = open(os.path.join(logdir, "%s.log" % tag), "ab")
    n = Node(zbcd, d, log)
    out = {"summary": summary, "start_s": n.start_s}
    out["rss_start"] = status_kb(n.proc.pid)
    out["times"] = {}
    out["counts"] = {}
    for name, path in requests_for(summary):
        ms, j = n.time(path)
        out["times"][name] = ms
        out["counts"][name] = j.get("count") if isinstance(j, dict) else None
    out["rss_after"] = status_kb(n.proc.pid)
    n.stop()
    # the start with the full state rescan (zbcd run --verify-state: every
    # start before docs/node.md's decision of 2026-12-02)
    v = Node(zbcd, d, log, ["--verify-state"])
    out["verify_start_s"] = v.start_s
    out["verify_rss_start"] = status_kb(v.proc.pid)
    v.stop()
    log.close()
    mdb = os.path.join(d, "ledger", "data.mdb")
    out["mdb_bytes"] = os.path.getsize(mdb)
    out["mdb_used"] = os.stat(mdb).st_blocks * 512
    return out


def ratio(a, b):
    return "%.2f" % (a / b) if b else "-"


def audit(zbc_audit, dirs):
    """zbc-audit replay --datadir on each directory: wall and CPU time,
    peak VmRSS (VmHWM) and peak RssAnon (the replay's own memory, sampled
    every 0.1 s; the rest of the RSS is the ledger map it read), each with
    its ratio to the baseline's; exits 1 unless every replay is clean."""
    res = []
    for name, d in dirs:
        t0 = time.perf_counter()
        c0 = os.times()
        p = subprocess.Popen([zbc_audit, "replay", "--datadir", d],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        peak_anon, hwm = 0, 0
        while p.poll() is None:
            try:
                st = status_kb(p.pid)
                peak_anon = max(peak_anon, st.get("RssAnon", 0))
                hwm = max(hwm, st.get("VmHWM", 0))
            except (OSError, ValueError):
                pass
            time.sleep(0.1)
        out = p.stdout.read().decode(errors="replace")
        c1 = os.times()
        wall = time.perf_counter() - t0
        cpu = (c1.children_user - c0.children_user) + (c1.children_system - c0.children_system)
        ok = p.returncode == 0 and "result: OK" in out
        res.append((name, {"wall": wall, "cpu": cpu, "hwm": hwm, "anon": peak_anon,
                           "ok": ok, "tail": out.strip().splitlines()[-1:]}))
        if not ok:
            print("zbc-audit replay %s: exit %d\n%s" % (name, p.returncode, out[-2000:]))
    names = [n for n, _ in res]
    print("%-28s" % "zbc-audit replay" + "".join("%14s" % n for n in names)
          + "".join("%14s" % ("ratio " + n) for n in names[1:]))

    def row(label, key, fmt, scale=1.0):
        vals = [r[key] / scale for _, r in res]
        print("%-28s" % label + "".join("%14s" % (fmt % v) for v in vals)
              + "".join("%14s" % ratio(v, vals[0]) for v in vals[1:]))

    row("wall time (s)", "wall", "%.1f")
    row("CPU time (s)", "cpu", "%.1f")
    row("peak VmRSS (MiB)", "hwm", "%.1f", 1024)
    row("peak RssAnon (MiB)", "anon", "%.1f", 1024)
    print("%-28s" % "result" + "".join("%14s" % ("OK" if r["ok"] else "FAILED") for _, r in res))
    return all(r["ok"] for _, r in res)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--zbcd")
    ap.add_argument("--zbcd-before")
    ap.add_argument("--zbc-audit", help="time zbc-audit replay on the directories instead")
    ap.add_argument("--dir", action="append", required=True, help="NAME=DIR, baseline first")
    a = ap.parse_args()
    dirs = [x.split("=", 1) for x in a.dir]
    if a.zbc_audit:
        sys.exit(0 if audit(a.zbc_audit, dirs) else 1)
    if not a.zbcd:
        ap.error("--zbcd PATH or --zbc-audit PATH is required")
    logdir = tempfile.mkdtemp(prefix="zbc_scale_logs_")
    res = []
    for name, d in dirs:
        r = measure(a.zbcd, d, logdir, name)
        if a.zbcd_before:
            r["before"] = measure(a.zbcd_before, d, logdir, name + "-before")
        res.append((name, r))
    base = res[0][1]
    names = [n for n, _ in res]
    print("sizes:")
    for name, r in res:
        s = r["summary"]
        print("  %-8s %s accounts, %s apps, height %s (generated in %s s)"
              % (name, s["accounts"], s["apps"], s["height"], s["seconds"]))
    print()
    hdr = "%-28s" % "figure" + "".join("%14s" % n for n in names) + "".join(
        "%14s" % ("ratio " + n) for n in names[1:])
    print(hdr)

    def row(label, vals, fmt):
        line = "%-28s" % label + "".join("%14s" % (fmt % v) for v in vals)
        line += "".join("%14s" % ratio(v, vals[0]) for v in vals[1:])
        print(line)

    row("start to API up (s)", [r["start_s"] for _, r in res], "%.2f")
    row("VmRSS after start (MiB)", [r["rss_start"]["VmRSS"] / 1024 for _, r in res], "%.1f")
    row("VmHWM after start (MiB)", [r["rss_start"]["VmHWM"] / 1024 for _, r in res], "%.1f")
    row("  of which RssAnon (MiB)", [r["rss_start"]["RssAnon"] / 1024 for _, r in res], "%.1f")
    row("  of which RssFile (MiB)", [r["rss_start"]["RssFile"] / 1024 for _, r in res], "%.1f")
    row("VmRSS after requests (MiB)", [r["rss_after"]["VmRSS"] / 1024 for _, r in res], "%.1f")
    row("  of which RssAnon (MiB)", [r["rss_after"]["RssAnon"] / 1024 for _, r in res], "%.1f")
    row("  of which RssFile (MiB)", [r["rss_after"]["RssFile"] / 1024 for _, r in res], "%.1f")
    row("VmHWM after requests (MiB)", [r["rss_after"]["VmHWM"] / 1024 for _, r in res], "%.1f")
    row("start, --verify-state (s)", [r["verify_start_s"] for _, r in res], "%.2f")
    row("  VmRSS after it (MiB)", [r["verify_rss_start"]["VmRSS"] / 1024 for _, r in res], "%.1f")
    row("  of which RssFile (MiB)", [r["verify_rss_start"]["RssFile"] / 1024 for _, r in res], "%.1f")
    print("%-28s" % "  --verify-state / plain" + "".join(
        "%14s" % ratio(r["verify_start_s"], r["start_s"]) for _, r in res))
    row("data.mdb size (MiB)", [r["mdb_bytes"] / 1048576 for _, r in res], "%.1f")
    row("data.mdb on disk (MiB)", [r["mdb_used"] / 1048576 for _, r in res], "%.1f")
    print("request times: median of %d, ms (count listed)" % REPS)
    for label in base["times"]:
        row(label, [r["times"][label] for _, r in res], "%.2f")
        print("%-28s" % "  listed" + "".join("%14s" % r["counts"][label] for _, r in res))
    if a.zbcd_before:
        print()
        print("the same on a zbcd before the app index (%s):" % a.zbcd_before)
        print("%-28s" % "figure" + "".join("%14s" % n for n in names)
              + "".join("%14s" % ("after/before " + n)[:13] for n in names))
        for label in base["times"]:
            b = [r["before"]["times"][label] for _, r in res]
            line = "%-28s" % label + "".join("%14.2f" % v for v in b)
            line += "".join("%14s" % ratio(r["times"][label], r["before"]["times"][label])
                            for _, r in res)
            print(line)
        row("before: VmRSS after (MiB)", [r["before"]["rss_after"]["VmRSS"] / 1024 for _, r in res], "%.1f")
        row("before: VmHWM after (MiB)", [r["before"]["rss_after"]["VmHWM"] / 1024 for _, r in res], "%.1f")
    print("node logs: %s" % logdir)


if __name__ == "__main__":
    main()
