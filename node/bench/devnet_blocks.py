#!/usr/bin/env python3
"""Where a devnet point's blocks spent their time, from the nodes' logs
(scripts/bench devnet, docs/load.md §5):

  devnet_blocks.py DIR [--table]

DIR holds node0.log, node1.log, ... (zbcd INFO logs).  For every
'block produced' line: the block's height, size, the pool left after it,
and how late the line came after the block's timestamp (the slot: building,
applying and storing, plus any wait of the event loop before the producer's
timer ran); for every 'block accepted' line at another node: how long after
the block's timestamp its frame's first bytes were read there (when the line
carries it, docs/node.md §6) and it was applied there.  Prints one summary line (the
table of produced blocks with --table).  Lines that do not match are
ignored; a log that cannot be read is skipped."""
import glob
import os
import re
import sys
from datetime import datetime, timezone

PROD = re.compile(r"(\S+) INFO\s+block produced height=(\d+) hash=(\w+) txs=(\d+) "
                  r"rank=(\d+) timestamp=(\d+) mempool=(\d+)(?: cap=(\d+) build_ms=(\d+))?(?: commit_ms=\d+)?(?: loop_ms=\d+)?(?: cut=(\w+))?")
ACC = re.compile(r"(\S+) INFO\s+block accepted height=(\d+) hash=(\w+)\.\.\. from \S+"
                 r"(?: \(frame begun ([+-]\d+) ms)?")


def log_ms(stamp):
    try:
        t = datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.%fZ")
    except ValueError:
        return None
    return t.replace(tzinfo=timezone.utc).timestamp() * 1000


def pct(v, p):
    if not v:
        return 0
    v = sorted(v)
    return v[min(len(v) - 1, int(p / 100.0 * len(v)))]


def start_late(d, prod):
    """How late each produced block (with or without transactions) began
    after its rank's slot: its timestamp (the time it was begun) less
    parent timestamp + block_time_ms + rank x smith_delay_ms, the parent
    taken as the lowest-ranked block produced at the height below (the one
    fork choice keeps).  The timestamps read as "the slot" above are the
    blocks' own, so a block begun late reads on time there.  Empty without
    DIR/genesis.json."""
    try:
        import json
        g = json.load(open(os.path.join(d, "genesis.json")))
        bt, sd = int(g["block_time_ms"]), int(g["smith_delay_ms"])
    except (OSError, ValueError, KeyError, TypeError):
        return []
    by_h = {}
    for r in prod.values():
        by_h.setdefault(r[1], []).append(r)
    out = []
    for h, rs in by_h.items():
        below = by_h.get(h - 1)
        if not below:
            continue
        parent = min(below, key=lambda r: r[6])
        out.extend(r[2] - (parent[2] + bt + r[6] * sd) for r in rs)
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: devnet_blocks.py DIR [--table]")
    d = sys.argv[1]
    prod = {}  # hash prefix -> (node, height, ts, log_ms, txs, pool, rank)
    acc = {}   # hash prefix -> [log_ms at other nodes]
    begun = []  # ms after the timestamp the frame's first bytes were read
    for f in sorted(glob.glob(os.path.join(d, "node*.log"))):
        node = os.path.basename(f)[4:-4]
        try:
            lines = open(f, errors="replace").readlines()
        except OSError:
            continue
        for line in lines:
            m = PROD.match(line)
            if m:
                t = log_ms(m.group(1))
                if t is not None:
                    prod[m.group(3)[:16]] = (node, int(m.group(2)), int(m.group(6)), t,
                                             int(m.group(4)), int(m.group(7)), int(m.group(5)),
                                             int(m.group(8) or 0), int(m.group(9) or 0),
                                             m.group(10))
                continue
            m = ACC.match(line)
            if m:
                t = log_ms(m.group(1))
                if t is not None:
                    acc.setdefault(m.group(3)[:16], []).append(t)
                if m.group(4) is not None:
                    begun.append(int(m.group(4)))
    rows = sorted((r for r in prod.values() if r[4] > 0), key=lambda r: r[1])
    late = [r[3] - r[2] for r in rows]
    started = start_late(d, prod)
    applied = [t - r[2] for h, r in prod.items() if r[4] > 0 for t in acc.get(h, [])]
    heights = {}
    for r in rows:
        heights[r[1]] = heights.get(r[1], 0) + 1
    multi = sum(1 for n in heights.values() if n > 1)
    print("      blocks: %d with transactions at %d heights (%d heights with more than one), "
          "rank > 0: %d; produced p50 %.0f p90 %.0f max %.0f ms after the slot; applied at "
          "peers p50 %.0f p90 %.0f ms after it%s; txs p50 %d max %d, pool after p50 %d max %d%s"
          % (len(rows), len(heights), multi, sum(1 for r in rows if r[6] > 0),
             pct(late, 50), pct(late, 90), max(late) if late else 0, pct(applied, 50),
             pct(applied, 90),
             (" (first bytes read p50 %.0f p90 %.0f)" % (pct(begun, 50), pct(begun, 90))
              if begun else ""),
             pct([r[4] for r in rows], 50),
             max([r[4] for r in rows]) if rows else 0, pct([r[5] for r in rows], 50),
             max([r[5] for r in rows]) if rows else 0,
             ("; started p50 %.0f p90 %.0f max %.0f ms after its rank's slot"
              % (pct(started, 50), pct(started, 90), max(started)) if started else "") +
             ("; cap min %d p50 %d, build p50 %d max %d ms%s"
              % (min(r[7] for r in rows), pct([r[7] for r in rows], 50),
                 pct([r[8] for r in rows], 50), max(r[8] for r in rows),
                 (", %d ended by the budget" % sum(1 for r in rows if r[9] == "yes")
                  if any(r[9] is not None for r in rows) else ""))
              if rows and rows[0][7] else "")))
    if "--table" in sys.argv[2:]:
        print("height node rank   txs   cap build_ms pool_after late_ms  applied at peers (ms after the slot)")
        for h, r in sorted(prod.items(), key=lambda kv: kv[1][1]):
            if r[4] > 0:
                print("%6d %4s %4d %5d %5d %8d %10d %7.0f  %s" % (
                    r[1], r[0], r[6], r[4], r[7], r[8], r[5], r[3] - r[2],
                    " ".join("%.0f" % (t - r[2]) for t in acc.get(h, []))))


if __name__ == "__main__":
    main()
