#!/usr/bin/env python3
"""zbc-audit end to end: a node makes transfers; the auditor replays its
data directory (node running, then stopped) and its HTTP API from genesis
and finds no divergence; then copies of the data directory are tampered
with (one stored account balance, one byte of one stored block, one
stored event record) and zbc-audit must exit 1 naming the height and the
kind of divergence.  A genesis file of another chain is refused too."""
import hashlib
import hmac
import http.server
import json
import os
import shutil
import struct
import subprocess
import threading
import time
import urllib.request

from framework import SANITIZER_RE, ZBC, TestFailure, ZbcTest, assert_equal, assert_true, ledger_tamper

FEE = 2000000
SEEDS = {"alice": "11" * 32, "bob": "22" * 32}


def app_id(tx_hash):
    return int.from_bytes(bytes.fromhex(tx_hash)[:8], "little")


class LyingProxy:
    """Forwards GETs to a node, rewriting answers: `edit(path, obj)` may
    change the decoded JSON before it is served."""

    def __init__(self, target, edit):
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                try:
                    with urllib.request.urlopen(target + self.path, timeout=10) as r:
                        status, body = r.status, r.read()
                except urllib.error.HTTPError as e:
                    status, body = e.code, e.read()
                try:
                    obj = json.loads(body)
                    edit(self.path, obj)
                    body = json.dumps(obj).encode()
                except ValueError:
                    pass
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        outer.edited = False

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class Audit(ZbcTest):
    def audit(self, *args, expect=0):
        exe = os.path.join(os.path.abspath(self.args.build), "node", "audit", "zbc-audit")
        p = subprocess.run([exe] + [str(a) for a in args] + ["--json"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        out = p.stdout.decode()
        if SANITIZER_RE.search(p.stderr.decode("utf-8", "replace")):
            raise TestFailure("zbc-audit reported a sanitizer error:\n%s" % p.stderr.decode())
        try:
            j = json.loads(out)
        except ValueError:
            raise TestFailure("zbc-audit did not print one JSON object (exit %d):\n%s\n%s"
                              % (p.returncode, out, p.stderr.decode()))
        if p.returncode != expect:
            raise TestFailure("zbc-audit %s: exit %d, want %d:\n%s"
                              % (" ".join(map(str, args)), p.returncode, expect, out))
        assert_equal(j.get("exit_code"), p.returncode, "exit_code field")
        assert_equal(j.get("success"), p.returncode == 0, "success field")
        return j

    def tamper(self, ledger, *args):
        return ledger_tamper(self, ledger, *args)

    def copy_datadir(self, node, name):
        dst = os.path.join(self.tmpdir, name)
        shutil.copytree(node.datadir, dst)
        return dst

    def expect_divergence(self, j, height, what):
        divs = j["divergences"]
        assert_true(len(divs) >= 1, "no divergence reported")
        hit = [d for d in divs if d["height"] == height and d["what"] == what]
        assert_true(hit, "no %s divergence at height %d in %r" % (what, height, divs))
        return hit[0]

    def seed(self, node, h):
        """seed(h) as served (kept: the later checks run on a stopped node)."""
        if not hasattr(self, "seeds"):
            self.seeds = {}
        if h not in self.seeds:
            st, b = node.get("/api/v1/blocks/%d" % h)
            assert_equal(st, 200, "block %d" % h)
            self.seeds[h] = bytes.fromhex(b["seed"])
        return self.seeds[h]

    def app_tx(self, node, who, ttype, body):
        """Signs an app transaction with txgen (not the wallet's app
        commands) and waits until a block includes it; returns (hash,
        height)."""
        exe = os.path.join(os.path.abspath(self.args.build), "tests", "tools", "txgen")
        gh = node.info()["genesis_hash"].lower()
        p = subprocess.run([exe, SEEDS[who], gh, str(ttype), str(int(time.time())), str(FEE),
                            body.hex()], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=30)
        if p.returncode != 0:
            raise TestFailure("txgen failed: %s" % p.stderr.decode())
        st, j = node.post("/api/v1/transactions",
                          json.dumps({"transaction_bytes": p.stdout.decode().strip()}))
        assert_equal(st, 202, "app transaction admitted: %r" % (j,))
        done = self.wait_confirmed(j["transaction_hash"], node)
        return j["transaction_hash"], done["block_height"]

    def create(self, node, who, game, seats, params=b""):
        body = struct.pack("<BQQBH", game, 0, ZBC, seats, len(params)) + params
        tx, h = self.app_tx(node, who, 24, body)
        return app_id(tx), h

    def move(self, node, who, app, mv):
        return self.app_tx(node, who, 26, struct.pack("<QH", app, len(mv)) + mv)

    def play_apps(self, node):
        """A tic-tac-toe game won by the first seat, a pig game with one
        dice roll then a resignation, and a coin-flip bet."""
        ttt, _ = self.create(node, "alice", 1, 2)
        _, jh = self.app_tx(node, "bob", 25, struct.pack("<Q", ttt))
        node.wait_for_height(jh + 2)
        # the first seat, computed here from the served seed (docs/protocol-apps.md §5)
        d = hashlib.sha3_256(b"ZBC-TURN" + self.seed(node, jh + 2) + ttt.to_bytes(8, "little"))
        first = int.from_bytes(d.digest()[:8], "little") % 2
        x, o = ["alice", "bob"][first], ["alice", "bob"][1 - first]
        self.ttt_first = first
        for who, cell in [(x, 0), (o, 3), (x, 1), (o, 4), (x, 2)]:
            self.move(node, who, ttt, bytes([cell]))

        pig, _ = self.create(node, "bob", 33, 2)
        _, jh = self.app_tx(node, "alice", 25, struct.pack("<Q", pig))
        node.wait_for_height(jh + 2)
        d = hashlib.sha3_256(b"ZBC-TURN" + self.seed(node, jh + 2) + pig.to_bytes(8, "little"))
        first = int.from_bytes(d.digest()[:8], "little") % 2
        self.pig_roll = self.move(node, ["bob", "alice"][first], pig, b"\x00")
        node.wait_for_height(self.pig_roll[1] + 1)
        self.app_tx(node, "alice", 27, struct.pack("<Q", pig))

        # lines: the start position is drawn from the roll stream at J + 2
        self.lines, _ = self.create(node, "alice", 10, 2, bytes([3]))
        self.lines_j = self.app_tx(node, "bob", 25, struct.pack("<Q", self.lines))[1]
        node.wait_for_height(self.lines_j + 2)
        self.seed(node, self.lines_j + 2)

        params = bytes([1, 5]) + b"audit"  # tails, client seed "audit"
        bet, self.bet_height = self.create(node, "alice", 17, 1, params)
        self.mine_to(self.bet_height + 2)  # settled at N + 1 (app work), N + 2 on request
        return ttt, pig, bet

    def lying_peer(self, node, h, ttt):
        """A peer that serves a wrong event amount at height h and a wrong
        pot/history for app ttt is caught at that height."""
        gen = self.genesis_path

        def edit(path, obj):
            if path == "/api/v1/blocks/%d" % h:
                obj["events"][0]["amount"] += 1
            if path == "/api/v1/apps/%d" % ttt and "history" in obj:
                obj["history"][-2]["amount"] += 1  # the winner's payout
        proxy = LyingProxy(node.api_url, edit)
        try:
            j = self.audit("replay", "--peer", proxy.url, "--genesis", gen, expect=1)
            div = self.expect_divergence(j, h, "events")
            assert_true("served event 0" in div["detail"], "names the event: %r" % div)
            assert_true(j["complete"], "a served-event divergence does not stop the replay")
            st, _ = node.get("/api/v1/apps/%d" % ttt)
            j = self.audit("app", ttt, "--peer", proxy.url, "--genesis", gen, expect=1)
            if st == 200:
                hit = [d for d in j["divergences"] if d["what"] == "app"]
                assert_true(hit and "history entry" in hit[0]["detail"],
                            "the served app history divergence: %r" % j["divergences"])
            else:
                assert_true("does not serve" in j["node_view"], "node_view: %r" % j["node_view"])
        finally:
            proxy.close()

        # a peer without raw blocks cannot be audited; one with bad bytes diverges
        def strip(path, obj):
            if path.startswith("/api/v1/blocks/"):
                obj.pop("block_bytes", None)
        proxy = LyingProxy(node.api_url, strip)
        try:
            j = self.audit("replay", "--peer", proxy.url, "--genesis", gen, expect=3)
            assert_true("block_bytes" in j["error"], "names block_bytes: %r" % j)
        finally:
            proxy.close()

        def garble(path, obj):
            if path == "/api/v1/blocks/%d" % h:
                obj["block_bytes"] = obj["block_bytes"][:-2]
        proxy = LyingProxy(node.api_url, garble)
        try:
            j = self.audit("replay", "--peer", proxy.url, "--genesis", gen, expect=1)
            self.expect_divergence(j, h, "block_decode")
            assert_equal(j["heights_checked"], h - 1, "stops before the undecodable block")
        finally:
            proxy.close()

    def check_app_histories(self, node, ttt, pig, bet, src):
        gen = self.genesis_path
        j = self.audit("app", ttt, *src, "--genesis", gen)
        assert_equal((j["status"], j["end"], j["game"]), ("finished", "win", "tictactoe"),
                     "tic-tac-toe replayed to a win")
        kinds = [e["kind"] for e in j["history"]]
        assert_equal(kinds, ["create", "join", "activate", "move", "move", "move", "move",
                             "move", "rake", "payout", "end"], "tic-tac-toe history")
        act = j["history"][2]
        assert_equal(act["first"], self.ttt_first, "first seat as computed by the test")
        pay = j["history"][9]
        assert_equal(pay["amount"], 2 * ZBC - 2 * ZBC // 100, "pot minus 1 % rake")
        j = self.audit("app", pig, *src, "--genesis", gen)
        kinds = [e["kind"] for e in j["history"]]
        assert_true("pending" in kinds and "resign" in kinds and j["end"] == "resign",
                    "pig history: %r" % kinds)
        mv = [e for e in j["history"] if e["kind"] == "move"][0]
        tx, n = self.pig_roll
        assert_equal(mv["height"], n + 1, "the dice move applies in the next block")
        want = hashlib.sha3_256(b"ZBC-DICE" + self.seed(node, n + 1) + bytes.fromhex(tx) +
                                (0).to_bytes(4, "little")).digest()
        assert_equal(mv["roll_bytes"], want[:mv["roll_bytes_used"]].hex(),
                     "roll bytes computed by the test")
        j = self.audit("app", self.lines, *src, "--genesis", gen)
        st = [e for e in j["history"] if e["kind"] == "start"]
        assert_equal(len(st), 1, "lines start position line")
        seed = self.seed(node, self.lines_j + 2)
        stream = b"".join(hashlib.sha3_256(b"ZBC-DICE" + seed + self.lines.to_bytes(8, "little") +
                                           c.to_bytes(4, "little")).digest() for c in range(8))
        n = st[0]["roll_bytes_used"]
        assert_true(n > 0, "lines drew its start position")
        assert_equal(st[0]["roll_bytes"], stream[:min(n, 255)].hex(),
                     "start roll bytes computed by the test")
        j = self.audit("app", bet, *src, "--genesis", gen)
        b = [e for e in j["history"] if e["kind"] == "bet"][0]
        server = self.seed(node, self.bet_height + 1).hex()
        mac = hmac.new(server.encode(), ("audit:%d:0" % bet).encode(), hashlib.sha256).digest()
        assert_equal((b["server_seed"], b["u"]), (server, int.from_bytes(mac[:4], "big")),
                     "provably-fair float computed by the test")
        assert_equal(b["win"], b["u"] >= 2 ** 31, "tails wins when u >= 2^31")

    def run_test(self):
        alice = self.wallet_key("alice", SEEDS["alice"])
        bob = self.wallet_key("bob", SEEDS["bob"])
        # automine: a block per transaction, the draws at J + 2 and the dice
        # moves as app work; the empty blocks the test wants are mined
        node = self.start_chain(balances=[(alice, 1000 * ZBC), (bob, 1000 * ZBC)], automine=True)
        gen = self.genesis_path
        heights, hashes = [], []
        for i in range(3):
            r = self.zbc("send", "--from", "alice", bob, str(1 + i) + "ZBC", "--fee", FEE, "--wait")
            heights.append(r["block_height"])
            hashes.append(r["transaction_hash"])
        r = self.zbc("send", "--from", "bob", alice, "0.5ZBC", "--fee", FEE, "--wait")
        heights.append(r["block_height"])
        self.mine_to(max(heights) + 2)
        ttt, pig, bet = self.play_apps(node)

        # 1. the running node: over HTTP and its data directory (LMDB readers)
        j = self.audit("replay", "--peer", node.api_url, "--genesis", gen)
        assert_true(j["complete"] and j["heights_checked"] >= max(heights),
                    "peer audit incomplete: %r" % j)
        assert_equal(j["transactions"] - j["app_transactions"], 4,
                     "transfers replayed over HTTP")
        assert_equal(j["divergence_count"], 0, "peer divergences")
        assert_true(j["events_compared_heights"] == j["heights_checked"],
                    "served events compared at every height")
        self.lying_peer(node, heights[0], ttt)
        j = self.audit("replay", "--datadir", node.datadir, "--genesis", gen)
        assert_true(j["apps_created"] == 4 and j["app_transactions"] >= 10,
                    "apps replayed from the running node's datadir: %r" % j)
        self.check_app_histories(node, ttt, pig, bet, ["--peer", node.api_url])

        # 2. the stopped node, its first transfer more than 127 blocks deep
        # (ZBC_TXSEEN_SLICES - 1)
        # and one transfer in its last block (case 3c)
        self.mine_to(heights[0] + 136)
        recent = self.zbc("send", "--from", "alice", bob, "1ZBC", "--fee", FEE, "--wait")
        node.stop()
        j = self.audit("replay", "--datadir", node.datadir, "--genesis", gen)
        tip = j["heights_checked"]
        assert_true(j["complete"] and tip == j["source_height"], "datadir audit complete")
        assert_equal(j["events_compared_heights"], tip, "stored events compared at every height")
        assert_equal(j["undo_compared_heights"], tip, "stored undo records compared")
        self.log("clean audit of %d blocks in %.3f s" % (tip, j["seconds"]))
        self.check_app_histories(node, ttt, pig, bet, ["--datadir", node.datadir])
        self.audit("app", "123", "--datadir", node.datadir, "--genesis", gen, expect=4)

        # 3. a stored balance rewritten: the replay is fine, the stored state is not
        d = self.copy_datadir(node, "tamper-balance")
        ledger = os.path.join(d, "ledger")
        # bob's typed address bytes: type 0 LE + public key
        key = self.zbc("address", bob, node=False)["account_bytes"]
        old = self.tamper(ledger, "get", "s_accounts", key)
        assert_equal(len(old), 18, "account record is 9 bytes")
        bal = int.from_bytes(bytes.fromhex(old[2:]), "little")
        new = "01" + (bal + 1).to_bytes(8, "little").hex()
        self.tamper(ledger, "put", "s_accounts", key, new)
        j = self.audit("replay", "--datadir", d, "--genesis", gen, expect=1)
        div = self.expect_divergence(j, tip, "stored_state")
        assert_true(bob in div["detail"], "divergence names bob's account: %r" % div)
        assert_equal(div["expected"], "balance %d" % bal, "replayed balance")
        assert_equal(div["found"], "balance %d" % (bal + 1), "stored balance")

        # 3b. a stored app record (its last byte): named by the replay and
        # by the app command
        d = self.copy_datadir(node, "tamper-app")
        ledger = os.path.join(d, "ledger")
        key = ttt.to_bytes(8, "little").hex()
        rec = bytearray(bytes.fromhex(self.tamper(ledger, "get", "s_apps", key)))
        rec[-1] ^= 0x01
        self.tamper(ledger, "put", "s_apps", key, rec.hex())
        j = self.audit("replay", "--datadir", d, "--genesis", gen, expect=1)
        div = self.expect_divergence(j, tip, "stored_state")
        assert_true(("app %d" % ttt) in div["detail"], "names the app: %r" % div)
        j = self.audit("app", ttt, "--datadir", d, "--genesis", gen, expect=1)
        self.expect_divergence(j, tip, "stored_state")

        # 3c. TXSEEN (docs/node.md §3 "TXSEEN write-back"): a zbcd writes an
        # entry within 127 blocks, so one of the last block may be absent
        # (a killed node takes it again from the block when it opens);
        # an older one may not
        assert_equal(recent["block_height"], tip, "the recent transfer is in the last block")
        d = self.copy_datadir(node, "txseen-recent")
        ledger = os.path.join(d, "ledger")
        self.tamper(ledger, "del", "s_txseen", recent["transaction_hash"])
        j = self.audit("replay", "--datadir", d, "--genesis", gen)
        assert_equal(j["divergence_count"], 0, "a recent TXSEEN entry may be absent")
        d = self.copy_datadir(node, "txseen-old")
        ledger = os.path.join(d, "ledger")
        assert_equal(self.tamper(ledger, "get", "s_txseen", hashes[0]),
                     heights[0].to_bytes(4, "little").hex(), "TXSEEN holds the inclusion height")
        self.tamper(ledger, "del", "s_txseen", hashes[0])
        j = self.audit("replay", "--datadir", d, "--genesis", gen, expect=1)
        div = self.expect_divergence(j, tip, "stored_state")
        assert_equal(div["found"], "absent", "the old entry is missing: %r" % div)

        # 4. one byte of a stored block (the last byte of its last transaction)
        h = heights[1]
        d = self.copy_datadir(node, "tamper-block")
        ledger = os.path.join(d, "ledger")
        hk = h.to_bytes(4, "big").hex()
        blk = bytearray(bytes.fromhex(self.tamper(ledger, "get", "blocks", hk)))
        blk[-1] ^= 0x01
        self.tamper(ledger, "put", "blocks", hk, blk.hex())
        j = self.audit("replay", "--datadir", d, "--genesis", gen, expect=1)
        self.expect_divergence(j, h, "block_invalid")
        assert_equal(j["heights_checked"], h - 1, "the replay stops before the bad block")
        assert_true(not j["complete"], "an audit stopped early is not complete")

        # 5. a stored event record (the fee event's amount of the first transfer)
        h = heights[0]
        d = self.copy_datadir(node, "tamper-events")
        ledger = os.path.join(d, "ledger")
        hk = h.to_bytes(4, "big").hex()
        ev = bytearray(bytes.fromhex(self.tamper(ledger, "get", "events", hk)))
        # version u8 | count u32 | kind u8 | tx_index u32 | tx_hash 32 |
        # a (4 + 32) | b (4 + 32) | amount u64: the first event's amount
        off = 1 + 4 + 1 + 4 + 32 + 36 + 36
        assert_equal(int.from_bytes(ev[off:off + 8], "little"), FEE, "first event is the fee")
        ev[off] ^= 0x01
        self.tamper(ledger, "put", "events", hk, ev.hex())
        j = self.audit("replay", "--datadir", d, "--genesis", gen, expect=1)
        div = self.expect_divergence(j, h, "events")
        assert_true('"amount":%d' % FEE in div["expected"].replace(" ", ""),
                    "expected event carries the fee: %r" % div)
        assert_true(j["complete"], "an event divergence does not stop the replay")

        # 5b. a block's transaction list (docs/node.md §3 "Transaction
        # positions"): one hash changed, then the list gone
        h = heights[0]
        d = self.copy_datadir(node, "tamper-list")
        ledger = os.path.join(d, "ledger")
        hk = h.to_bytes(4, "big").hex()
        lst = bytearray(bytes.fromhex(self.tamper(ledger, "get", "block_txs", hk)))
        assert_true(len(lst) % 32 == 0 and hashes[0] in lst.hex(),
                    "the list of block %d holds the first transfer" % h)
        lst[0] ^= 0x01
        self.tamper(ledger, "put", "block_txs", hk, lst.hex())
        j = self.audit("replay", "--datadir", d, "--genesis", gen, expect=1)
        div = self.expect_divergence(j, h, "index")
        assert_true("transaction list of block %d" % h in div["detail"], "named: %r" % div)
        self.tamper(ledger, "del", "block_txs", hk)
        j = self.audit("replay", "--datadir", d, "--genesis", gen, expect=1)
        div = self.expect_divergence(j, h, "index")
        assert_equal(div["found"], "absent", "the list is missing: %r" % div)

        # 6. another chain's genesis file
        g2 = dict(self.genesis)
        g2["chain_name"] = "another-chain"
        other = os.path.join(self.tmpdir, "other-genesis.json")
        with open(other, "w") as f:
            json.dump(g2, f)
        j = self.audit("replay", "--datadir", node.datadir, "--genesis", other, expect=1)
        self.expect_divergence(j, 0, "genesis")

        # 7. usage and unreadable sources
        self.audit("replay", "--datadir", node.datadir, "--peer", node.api_url, expect=2)
        self.audit("replay", "--peer", node.api_url, expect=2)
        self.audit("replay", "--datadir", os.path.join(self.tmpdir, "nowhere"),
                   "--genesis", gen, expect=3)
        self.audit("replay", "--datadir", node.datadir, "--genesis", gen, "--bogus", expect=2)
        self.audit("replay", "--datadir", node.datadir, "--genesis", gen, "--timeout", "0",
                   expect=2)
        self.audit("app", "12x", "--datadir", node.datadir, "--genesis", gen, expect=2)
        self.audit("replay", "--datadir", node.datadir, "--genesis",
                   os.path.join(self.tmpdir, "missing.json"), expect=3)


if __name__ == "__main__":
    Audit().main()
