#!/usr/bin/env python3
"""Writes a reproducible chain into a data directory, once, for the sync
benchmark (`scripts/bench sync`, docs/benchmarks.md "Sync").

    python3 tests/tools/make_chain.py --zbcd build-release/node/zbcd/zbcd \
        [--blocks 20000] [--transfers 3] [--games 2] [--cache DIR] [--check]

Chain shape: one validator (the generator's node, `zbcd run --automine`,
block_time_ms 1), every block holding `--transfers` SendZBC transfers
between 64 funded accounts plus, from `--games` tic-tac-toe tables played
side by side, one game transaction per table per block (CreateApp, JoinApp,
then the moves; a table starts a new game when its game ends with a win).
Every transaction is built and signed here (Ed25519 over the v2 digest,
docs/protocol-tx.md §1-§3), submitted to POST /api/v1/transactions, and
the block is made with POST /api/v1/admin/mine {"blocks": 1}
(docs/api.md §9).  The same parameters always give the same shape (block
count, transactions per block, games); the bytes differ from one
generation to the next (timestamps).

The result is cached in DIR/b<blocks>-t<transfers>-g<games>-v2/ (default
DIR: build-release/sync-chain): `node/` (the validator's data directory,
its genesis.json included), `genesis.json` and `chain.json` (the
parameters and counts).  A complete cache is reused; an incomplete one is
removed and made again.  The path of the cache is the last line printed.

Checks (always; `--check` adds the block-by-block count): every submission
is accepted, every table's games end in a win (GET /api/v1/apps/ID), the
tip is at --blocks, and with --check the transactions of every block
(GET /api/v1/blocks/H) add up to the number submitted.  Any failure exits
1 naming what was wrong.
"""
import argparse
import base64
import hashlib
import http.client
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
import genesis as genesis_mod  # noqa: E402

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # noqa: E402

VERSION = 2                 # bump when the chain or its ledger format changes: old caches are not reused
                            # (2: the ledger schema 2 of docs/node.md, ChaCha20 state roots)
ZBC = 100_000_000
FEE = 2_000_000             # above min_fee_base + per byte x length for every tx made here
SENDERS = 64
NO_ADDR = struct.pack("<I", 2)   # typed empty address (type 2)
T_SEND, T_CREATE, T_JOIN, T_MOVE = 1, 24, 25, 26
TICTACTOE = 1
STAKE = ZBC


class Fail(Exception):
    pass


def h(b):
    return hashlib.sha3_256(b).digest()


class Key:
    def __init__(self, name):
        self.seed = h(b"make_chain " + name.encode())
        self.sk = Ed25519PrivateKey.from_private_bytes(self.seed)
        self.pk = self.sk.public_key().public_bytes_raw()
        self.typed = struct.pack("<I", 0) + self.pk

    def address(self):
        """ZBC_ text form (docs/crypto.md §3.1)."""
        raw = self.pk + h(self.pk + b"ZBC")[:3]
        body = base64.b32encode(raw).decode().rstrip("=")
        return "ZBC_" + "_".join(body[i:i + 8] for i in range(0, 56, 8))


def tx_bytes(key, gh, ttype, body, recipient=NO_ADDR):
    """Unsigned bytes || Ed25519 signature over H("ZBC-TX" || gh || unsigned)."""
    unsigned = (struct.pack("<IBq", ttype, 1, int(time.time())) + key.typed + recipient
                + struct.pack("<qI", FEE, len(body)) + body + NO_ADDR + struct.pack("<I", 0))
    full = unsigned + key.sk.sign(h(b"ZBC-TX" + gh + unsigned))
    return full, struct.unpack("<Q", h(full)[:8])[0]


class Api:
    def __init__(self, port, token):
        self.port, self.token = port, token
        self.conn = None

    def call(self, method, path, body=None, admin=False):
        headers = {"Content-Type": "application/json"}
        if admin:
            headers["X-ZBC-Token"] = self.token
        data = None if body is None else json.dumps(body)
        for attempt in (0, 1):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
            try:
                self.conn.request(method, path, data, headers)
                r = self.conn.getresponse()
                raw = r.read()
                break
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = None
                if attempt:
                    raise
        try:
            return r.status, json.loads(raw)
        except ValueError:
            raise Fail("%s %s: answer is not JSON: %r" % (method, path, raw[:200]))

    def ok(self, method, path, body=None, admin=False):
        st, j = self.call(method, path, body, admin)
        if st not in (200, 202):
            raise Fail("%s %s %s: %d %s" % (method, path, json.dumps(body)[:120] if body else "",
                                           st, j.get("error", j)))
        return j

    def submit(self, raw):
        self.ok("POST", "/api/v1/transactions", {"transaction_bytes": raw.hex()})


class Table:
    """One tic-tac-toe table: two players, games one after the other; one
    transaction per block while a game runs."""

    def __init__(self, n):
        self.a, self.b = Key("table %d a" % n), Key("table %d b" % n)
        self.state, self.app, self.sent_at, self.moves, self.x = "create", None, 0, 0, None
        self.games = 0

    def step(self, api, gh, height):
        """The table's transaction for the next block (height + 1), or None."""
        if self.state == "check":
            return None
        if self.state == "create":
            # the stake differs from game to game: the same bytes in the same second
            # would be a duplicate of the previous game's CreateApp
            body = struct.pack("<BQQBH", TICTACTOE, 0, STAKE + self.games, 2, 0)
            raw, self.app = tx_bytes(self.a, gh, T_CREATE, body)
            self.state, self.sent_at = "join", height
            return raw
        if self.state == "join":
            if api.call("GET", "/api/v1/apps/%d" % self.app)[0] != 200:
                if height - self.sent_at > 20:
                    raise Fail("app %d: its CreateApp is not in by %d" % (self.app, height))
                return None
            raw, _ = tx_bytes(self.b, gh, T_JOIN, struct.pack("<Q", self.app))
            self.state, self.sent_at = "draw", height
            return raw
        # A pooled transaction can wait a few blocks (an automine block made between the
        # submission and the mine call, docs/node.md §5), so what the chain has is
        # asked, not assumed: the next game transaction goes after the last is in.
        app = api.ok("GET", "/api/v1/apps/%d" % self.app)
        if height - self.sent_at > 20:
            raise Fail("app %d: its transaction of block %d is not in by %d: %r"
                       % (self.app, self.sent_at + 1, height, app))
        if self.state == "draw":
            if app.get("joined") is None or app.get("turn") not in (0, 1):
                return None                   # the first seat is drawn at joined + 2
            self.x, self.moves, self.state = app["turn"], 0, "play"
        elif app.get("moves") != self.moves:
            return None
        # X plays cells 0, 2, 4, 6 and O 1, 3, 5: X wins on the diagonal 2-4-6 at move 7
        seat = self.x if self.moves % 2 == 0 else 1 - self.x
        body = struct.pack("<QH", self.app, 1) + bytes([self.moves])
        raw, _ = tx_bytes(self.a if seat == 0 else self.b, gh, T_MOVE, body)
        self.moves += 1
        self.sent_at = height
        if self.moves == 7:
            self.state = "check"
        return raw

    def check(self, api, height):
        """After the block of the seventh move: the game ended with X's win."""
        if self.state != "check":
            return
        app = api.ok("GET", "/api/v1/apps/%d" % self.app)
        if app.get("moves") != 7:
            if height - self.sent_at > 20:
                raise Fail("app %d: its seventh move is not in by %d: %r" % (self.app, height, app))
            return                            # the seventh move is not in yet
        res = app.get("result") or {}
        if res.get("outcome") != "win" or res.get("winner") != self.x:
            raise Fail("app %d: expected a win of seat %d after 7 moves, got status %r "
                       "result %r" % (self.app, self.x, app.get("status"), res))
        self.games += 1
        self.state = "create"


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def generate(a, out):
    # made on a RAM file system when there is one (an fsync'ed LMDB commit per block
    # costs ~13 ms on the bench machine's disk, 20,000 of them 4 minutes), then moved
    # to the cache
    work = a.work or (os.path.dirname(out) if not os.path.isdir("/dev/shm") else "/dev/shm")
    tmp = os.path.join(work, os.path.basename(out) + ".part.%d" % os.getpid())
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    try:
        return make(a, out, tmp)
    except BaseException:
        try:
            with open(os.path.join(tmp, "node.log")) as f:
                tail = f.readlines()[-5:]
            sys.stderr.write("make_chain: the node's last log lines:\n" + "".join(tail))
        except OSError:
            pass
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def make(a, out, tmp):
    node_dir = os.path.join(tmp, "node")
    r = subprocess.run([a.zbcd, "init", "--datadir", node_dir], capture_output=True, text=True)
    if r.returncode != 0:
        raise Fail("zbcd init: %s" % r.stderr.strip())
    node_key = json.loads(r.stdout)["node_public_key"]
    senders = [Key("sender %d" % i) for i in range(SENDERS)]
    tables = [Table(i) for i in range(a.games)]
    fund = Key("apps fund")
    bal = [(k.address(), 1_000_000 * ZBC) for k in senders]
    bal += [(k.address(), 1_000_000 * ZBC) for t in tables for k in (t.a, t.b)]
    g = genesis_mod.make_genesis([node_key], fund.address(), bal, block_time_ms=1,
                                 smith_delay_ms=1, chain_name="zbc-sync-bench")
    gpath = os.path.join(tmp, "genesis.json")
    genesis_mod.write_genesis(gpath, g)
    shutil.copy(gpath, os.path.join(node_dir, "genesis.json"))
    port = free_port()
    log = open(os.path.join(tmp, "node.log"), "w")
    proc = subprocess.Popen([a.zbcd, "run", "--datadir", node_dir, "--genesis", gpath,
                             "--api", "127.0.0.1:%d" % port, "--automine"],
                            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        with open(os.path.join(node_dir, "api.token")) as f:
            api = Api(port, f.read().strip())
        info = None
        for _ in range(300):
            try:
                info = api.ok("GET", "/api/v1/node/info")
                break
            except (OSError, http.client.HTTPException):
                if proc.poll() is not None:
                    raise Fail("zbcd exited with %d (log: %s)" % (proc.returncode, log.name))
                time.sleep(0.1)
        if info is None:
            raise Fail("zbcd did not answer in 30 s (log: %s)" % log.name)
        gh = bytes.fromhex(info["genesis_hash"])
        height, submitted, sends, t0 = info["height"], 0, 0, time.monotonic()
        # a block's transactions are submitted side by side, each thread on its own
        # keep-alive connection: on a loaded machine the round trips, not the node, set
        # the pace
        local = threading.local()

        def submit(raw):
            if not hasattr(local, "api"):
                local.api = Api(port, api.token)
            local.api.submit(raw)
        pool = ThreadPoolExecutor(max_workers=4)
        while height < a.blocks:
            batch = []
            for _ in range(a.transfers):
                s = senders[sends % SENDERS]
                r_ = senders[(sends * 7 + 1) % SENDERS]
                raw, _ = tx_bytes(s, gh, T_SEND, struct.pack("<Q", 1000 + sends), r_.typed)
                batch.append(raw)
                sends += 1
            for t in tables:
                raw = t.step(api, gh, height)
                if raw is not None:
                    batch.append(raw)
            for f in [pool.submit(submit, raw) for raw in batch]:
                f.result()
            submitted += len(batch)
            j = api.ok("POST", "/api/v1/admin/mine", {"blocks": 1}, admin=True)
            height = j["height"]
            for t in tables:
                t.check(api, height)
            if height % 1000 == 0:
                print("make_chain: %d blocks, %d transactions, %.0f s"
                      % (height, submitted, time.monotonic() - t0), flush=True)
        # automine makes blocks of its own too (a transaction pooled between a submission
        # and the mine call, a first-seat draw due: docs/node.md §5): wait until it has
        # nothing left to do, so the tip stays where it is
        info = api.ok("GET", "/api/v1/node/info")
        for _ in range(100):
            time.sleep(0.3)
            again = api.ok("GET", "/api/v1/node/info")
            if again["height"] == info["height"] and again["mempool_size"] == 0:
                break
            info = again
        if not a.blocks <= info["height"] <= a.blocks + 20:
            raise Fail("the tip is at %d, not %d" % (info["height"], a.blocks))
        if a.check:
            total = 0
            for hh in range(1, info["height"] + 1):
                total += len(api.ok("GET", "/api/v1/blocks/%d" % hh)["transactions"])
            if total != submitted:
                raise Fail("the blocks hold %d transactions, %d were submitted" % (total, submitted))
        games = sum(t.games for t in tables)
        if a.games and games == 0:
            raise Fail("no game finished")
        meta = {"version": VERSION, "blocks": info["height"], "transfers_per_block": a.transfers,
                "tables": a.games, "transactions": submitted, "transfers": sends,
                "games_won": games, "tip": info["tip_hash"], "genesis_hash": info["genesis_hash"],
                "seconds": round(time.monotonic() - t0, 1)}
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
    if proc.returncode != 0:
        raise Fail("zbcd exited with %d at the end (log: %s)" % (proc.returncode, log.name))
    with open(log.name) as f:
        stopped = [ln for ln in f if "zbcd stopped at height " in ln]
    if not stopped or int(stopped[-1].split("height ")[1].split()[0]) != meta["blocks"]:
        raise Fail("the node stopped at another height than %d: %r"
                   % (meta["blocks"], stopped[-1:]))
    with open(os.path.join(tmp, "chain.json"), "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")
    shutil.move(tmp, out)
    return meta


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--zbcd", required=True, help="the zbcd binary")
    ap.add_argument("--blocks", type=int, default=20000)
    ap.add_argument("--transfers", type=int, default=3, help="SendZBC per block")
    ap.add_argument("--games", type=int, default=2, help="tic-tac-toe tables played side by side")
    ap.add_argument("--cache", default="build-release/sync-chain")
    ap.add_argument("--work", help="where to make the chain before moving it to the cache "
                    "(default /dev/shm when it exists)")
    ap.add_argument("--check", action="store_true",
                    help="also count every block's transactions against the submissions")
    a = ap.parse_args()
    if not 1 <= a.blocks <= 1_000_000 or not 0 <= a.transfers <= 1000 or not 0 <= a.games <= 16:
        ap.error("--blocks 1..1000000, --transfers 0..1000, --games 0..16")
    out = os.path.abspath(os.path.join(a.cache, "b%d-t%d-g%d-v%d" % (a.blocks, a.transfers,
                                                                      a.games, VERSION)))
    meta_path = os.path.join(out, "chain.json")
    if os.path.exists(meta_path):
        with open(meta_path) as f:
            meta = json.load(f)
        print("make_chain: cached: %s" % json.dumps(meta))
    else:
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        try:
            meta = generate(a, out)
        except (Fail, OSError) as e:
            print("make_chain: %s" % e, file=sys.stderr)
            return 1
        print("make_chain: made: %s" % json.dumps(meta))
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
