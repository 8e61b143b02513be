#!/usr/bin/env python3
"""Dev mode and the players' node features (docs/node.md §5, docs/api.md §3,
§5, §9, §10, §12), through real zbcd processes and the wallet:

- `zbcd run --automine`: no block while nothing waits; a transfer lands at
  once in block 1; a join's first-seat draw (J + 2) is produced without a
  transaction; refused (exit 2) when the node is not the only validator;
- `POST /api/v1/admin/mine {"blocks": N}`: 50 blocks at once; 403 without
  the token; 400 without --automine, for bad bodies, and past the 10-s
  clock limit of a slow genesis;
- `GET /api/v1/accounts/<address>/history`: 25 transfers paged by 10, newest
  first, to the end; an app's events; an unknown account; bad parameters;
  a restart keeps the index without rebuilding it (the rebuild of a ledger
  without it: tests/node/test_history.c);
- the second-move trap: a second AppMove from the same seat while the first
  is pooled is refused with the reason;
- dropped transactions: of two joins racing for the last seat the loser is
  `dropped` with the block's height and the rule's text;
- `GET /api/v1/apps?player=`;
- admin/mine refused on an API bound to 0.0.0.0.
"""
import json
import os
import re
import time

import genesis as genesis_mod
from framework import ZBC, ZbcTest, assert_equal, assert_true, wait_until, zbcd_once

FEE = 2000000
STAKE = 10 * ZBC
MINE_REFUSAL = "mining on request needs zbcd run --automine"
TOKEN_REFUSAL = ("admin calls need the token from the data directory's api.token "
                 "(header X-ZBC-Token)")
BODY = 'the body must be {"blocks": N} with N from 1 to 1000'


class DevMode(ZbcTest):
    def token(self, node):
        with open(os.path.join(node.datadir, "api.token")) as f:
            return f.read().strip()

    def mine(self, node, body, token=True):
        headers = {"X-ZBC-Token": self.token(node)} if token else {}
        if not isinstance(body, (str, bytes)):
            body = json.dumps(body)
        return node.request("POST", "/api/v1/admin/mine", body, headers=headers, timeout=60)

    def chain(self, balances, block_time_ms, extra=()):
        """A node alone on its own genesis (its key the only validator)."""
        node = self.add_node()
        key = node.init()
        g = genesis_mod.make_genesis([key], self.fund, balances, block_time_ms=block_time_ms,
                                     smith_delay_ms=block_time_ms)
        path = os.path.join(self.tmpdir, "genesis%d.json" % node.index)
        genesis_mod.write_genesis(path, g)
        node.start(path, extra=list(extra))
        node.genesis_file = path
        return node

    def submit_raw(self, node, hexbytes):
        return node.post("/api/v1/transactions", json.dumps({"transaction_bytes": hexbytes}))

    def offline(self, node, *args):
        """Builds and signs without submitting; returns (bytes hex, hash)."""
        gh = node.info()["genesis_hash"]
        r = self.zbc(*args, "--offline", "--genesis", gh, "--fee", FEE, node=False)
        return r["transaction_bytes"], r["transaction_hash"]

    def after_next_block(self, node):
        h = node.height()
        wait_until(lambda: node.height() > h, 30, "a new block on node %d" % node.index)
        return node.height()

    def app(self, node, app_id):
        st, j = node.get("/api/v1/apps/%s" % app_id)
        assert_equal(st, 200, "GET app %s: %r" % (app_id, j))
        return j

    # ---- automine ----

    def automine(self, node, alice, bob):
        time.sleep(1.5)
        assert_equal(node.height(), 0, "no block while nothing waits (automine)")
        r = self.zbc("send", "--from", "alice", bob, "1ZBC", "--fee", FEE, node=node)
        t0 = time.monotonic()
        tx = r["transaction_hash"]

        def landed():
            st, j = node.get("/api/v1/transactions/%s/status" % tx)
            return j if st == 200 and j.get("status") == "confirmed" else None
        j = wait_until(landed, 10, "the transfer in a block", interval=0.02)
        took = time.monotonic() - t0
        self.log("automine: the transfer landed in block %d after %.3f s" % (j["block_height"], took))
        assert_equal(j["block_height"], 1, "the transfer's block (no block before it)")
        assert_true(took < 1.0, "automine took %.3f s for the transfer (want < 1 s)" % took)
        assert_equal(j["final"], True, "final at once with one validator")
        time.sleep(0.5)
        assert_equal(node.height(), 1, "no empty block after it")

    def refuse_automine(self, node):
        other = self.add_node()
        other.init()
        code, out = zbcd_once(self, ["run", "--datadir", other.datadir, "--genesis",
                                     node.genesis_file, "--api", "127.0.0.1:0", "--automine"])
        assert_equal(code, 2, "--automine on a node that is not the only validator: %s" % out)
        assert_true("--automine needs this node's key to be the genesis' only validator" in out
                    and "not among" in out, "refusal sentence: %s" % out)
        code, out = zbcd_once(self, ["run", "--datadir", other.datadir, "--automine",
                                     "--no-produce"])
        assert_equal(code, 2, "--automine with --no-produce: %s" % out)
        for bad, words in (("0", "--block-budget-ms: 0 is out of range 1-60000"),
                           ("abc", "--block-budget-ms: 'abc' is not a decimal number"),
                           ("60001", "--block-budget-ms: 60001 is out of range 1-60000")):
            code, out = zbcd_once(self, ["run", "--datadir", other.datadir,
                                         "--block-budget-ms", bad])
            assert_equal(code, 2, "--block-budget-ms %s: %s" % (bad, out))
            assert_true(words in out, "--block-budget-ms %s: %s" % (bad, out))

    # ---- admin/mine ----

    def mining(self, node):
        h = node.height()
        st, j = self.mine(node, {"blocks": 50}, token=False)
        assert_equal((st, j.get("error")), (403, TOKEN_REFUSAL), "mine without the token")
        st, j = node.request("POST", "/api/v1/admin/mine", "{}",
                             headers={"X-ZBC-Token": "0" * 64})
        assert_equal((st, j.get("error")), (403, TOKEN_REFUSAL), "mine with a wrong token")
        st, j = node.get("/api/v1/admin/mine")
        assert_equal(st, 405, "GET admin/mine")
        bad = [
            ("", "request body is empty; " + BODY),
            ("{", None),
            ("[]", "request body must be a JSON object; " + BODY),
            ({}, "blocks is missing; " + BODY),
            ({"blocks": 0}, "blocks must be an integer from 1 to 1000"),
            ({"blocks": 1001}, "blocks must be an integer from 1 to 1000"),
            ({"blocks": -3}, "blocks must be an integer from 1 to 1000"),
            ({"blocks": "5"}, "blocks must be an integer from 1 to 1000"),
            ({"blocks": 1.5}, "blocks must be an integer from 1 to 1000"),
            ({"blocks": 2, "height": 9}, "unknown field 'height'; " + BODY),
            ('{"blocks": 1, "blocks": 2}', None),
        ]
        for body, want in bad:
            st, j = self.mine(node, body)
            assert_equal(st, 400, "mine body %r: %r" % (body, j))
            if want is None:
                assert_true(j["error"].startswith("malformed JSON"), "mine body %r: %r" % (body, j))
            else:
                assert_equal(j["error"], want, "mine body %r" % (body,))
        assert_equal(node.height(), h, "no block from refused requests")
        t0 = time.monotonic()
        st, j = self.mine(node, {"blocks": 50})
        self.log("admin/mine 50 blocks: %.2f s" % (time.monotonic() - t0))
        assert_equal(st, 200, "mine 50: %r" % j)
        assert_equal((j["success"], j["mined"], j["height"]), (True, 50, h + 50), "mine 50 answer")
        assert_equal(node.height(), h + 50, "height after mining 50")
        st, blk = node.get("/api/v1/blocks/%d" % (h + 50))
        assert_equal((st, blk["tx_count"]), (200, 0), "a mined block is empty when nothing waits")

    def mining_limits(self, slow):
        st, j = self.mine(slow, {"blocks": 3})
        assert_equal((st, j.get("error")), (400, MINE_REFUSAL), "mine without --automine")
        assert_equal(slow.info()["automine"], False, "node/info automine without --automine")
        slow.stop()
        # an API on every address: admin/mine refuses even from loopback
        slow.start(slow.genesis_file, extra=["--automine", "--api", "0.0.0.0:%d" % slow.api_port])
        st, j = self.mine(slow, {"blocks": 1})
        assert_equal((st, j.get("error")), (403, "admin/mine answers only on a loopback API address, "
                                                 "and this API listens on 0.0.0.0"), "mine off loopback")
        slow.stop()
        slow.start(slow.genesis_file, extra=["--automine"])
        h = slow.height()
        st, j = self.mine(slow, {"blocks": 50})
        assert_equal(st, 400, "50 blocks of 3 s: %r" % j)
        m = re.fullmatch(r"50 blocks of block_time_ms 3000 would run more than 10 s ahead of the "
                         r"clock, which no node accepts; mine at most (\d+) now, or use a genesis with a "
                         r"smaller block_time_ms", j["error"])
        # 4 when the tip is 3 s old or more (at the clock, +3, +6, +9 s), else 3
        assert_true(m is not None and m.group(1) in ("3", "4"), "the limit sentence: %r" % j)
        assert_equal(slow.height(), h, "nothing mined past the limit")
        st, j = self.mine(slow, {"blocks": 2})
        assert_equal((st, j.get("mined")), (200, 2), "2 blocks of 3 s fit: %r" % j)

    # ---- history ----

    def history(self, node, alice, bob):
        base = self.page(node, bob)["count"]  # the automine transfer
        for i in range(1, 26):
            self.zbc("send", "--from", "alice", bob, str(1000 + i), "--fee", FEE, node=node)
        wait_until(lambda: self.page(node, bob, limit=100)["count"] == 25 + base, 60,
                   "25 transfers in bob's history")
        seen, cursor, pages = [], None, 0
        while True:
            p = self.page(node, bob, limit=10, cursor=cursor)
            pages += 1
            assert_equal(p["address"], bob, "history address")
            assert_true(p["count"] == len(p["entries"]) <= 10, "page size %d" % p["count"])
            seen += p["entries"]
            cursor = p["next_cursor"]
            if cursor is None:
                break
            assert_equal(p["count"], 10, "a page with a next_cursor is full")
        assert_equal(pages, 3, "26 entries in pages of 10")
        amounts = [e["amount"] for e in seen if e["kind"] == "transfer"]
        assert_equal(amounts[:25], [1000 + i for i in range(25, 0, -1)], "newest first")
        keys = [(e["height"], e["index"]) for e in seen]
        assert_equal(keys, sorted(keys, reverse=True), "ordered by block and event, newest first")
        e = seen[0]
        for k in ("kind", "from", "to", "amount", "ref", "reason", "tx_hash", "tx_index", "height",
                  "timestamp"):
            assert_true(k in e, "history entry field %s: %r" % (k, e))
        assert_equal((e["from"], e["to"]), (alice, bob), "transfer parties")
        st, blk = node.get("/api/v1/blocks/%d" % e["height"])
        assert_equal(e["timestamp"], blk["timestamp"], "entry timestamp = block timestamp")
        assert_equal(e["tx_hash"], blk["transactions"][e["tx_index"]], "entry tx hash")
        a = self.page(node, alice, limit=4)
        assert_true({"transfer", "fee"} <= {x["kind"] for x in a["entries"]}, "alice pays fees: %r" % a)
        # an unknown account: empty, not 404
        nobody = self.wallet_key("nobody")
        p = self.page(node, nobody)
        assert_equal((p["entries"], p["count"], p["next_cursor"]), ([], 0, None), "unknown account")
        # bad parameters
        path = "/api/v1/accounts/%s/history" % bob
        for q, want in [("?limit=0", "limit must be from 1 to 100"),
                        ("?limit=101", "limit must be from 1 to 100"),
                        ("?limit=ten", "limit must be from 1 to 100"),
                        ("?limit=", "limit must be from 1 to 100"),
                        ("?cursor=abc", "cursor must be the next_cursor of a previous answer (<height>-<index>)"),
                        ("?cursor=5", "cursor must be the next_cursor of a previous answer (<height>-<index>)"),
                        ("?cursor=-1", "cursor must be the next_cursor of a previous answer (<height>-<index>)"),
                        ("?cursor=3-99999999999", "cursor must be the next_cursor of a previous answer (<height>-<index>)")]:
            st, j = node.get(path + q)
            assert_equal((st, j.get("error")), (400, want), "history %s" % q)
        st, j = node.get("/api/v1/accounts/ZBC_NOPE/history")
        assert_true(st == 400 and j["error"].startswith("invalid account address"), "bad address %r" % j)
        return seen

    def page(self, node, addr, limit=None, cursor=None):
        q = []
        if limit is not None:
            q.append("limit=%d" % limit)
        if cursor is not None:
            q.append("cursor=" + cursor)
        st, j = node.get("/api/v1/accounts/%s/history%s" % (addr, "?" + "&".join(q) if q else ""))
        assert_equal(st, 200, "history of %s: %r" % (addr, j))
        return j

    def app_history(self, node, alice, bob):
        r = self.zbc("app", "create", "tictactoe", "--stake", "10ZBC", "--from", "alice", "--fee", FEE,
                     "--wait", node=node)
        app_id = r["app_id"]
        j = self.zbc("app", "join", app_id, "--from", "bob", "--fee", FEE, "--wait", node=node)
        # the first-seat draw at J + 2 is produced without any transaction
        a = wait_until(lambda: (lambda x: x if x["clock"] is not None else None)(self.app(node, app_id)),
                       10, "first seat drawn by automine")
        assert_equal(a["history"][-1]["height"], j["block_height"] + 2, "drawn at J+2")
        kinds = [(e["kind"], str(e["ref"])) for e in self.page(node, alice, limit=20)["entries"]]
        assert_true(("app_create", str(app_id)) in kinds, "alice's history has the app: %r" % kinds)
        kinds = [(e["kind"], str(e["ref"])) for e in self.page(node, bob, limit=20)["entries"]]
        assert_true(("app_join", str(app_id)) in kinds, "bob's history has the join: %r" % kinds)
        for q in ("player", "seat"):
            st, j = node.get("/api/v1/apps?%s=%s" % (q, bob))
            assert_equal(st, 200, "apps?%s=" % q)
            assert_equal([x["id"] for x in j["apps"]], [str(app_id)], "apps?%s= of bob" % q)
        st, j = node.get("/api/v1/apps?player=%s&seat=%s" % (bob, bob))
        assert_equal((st, j.get("error")), (400, "seat and player are the same filter; give one"),
                     "seat and player together")
        st, j = node.get("/api/v1/apps?player=nobody")
        assert_true(st == 400 and j["error"].startswith("invalid player address"), "bad player %r" % j)

    # ---- the second move, dropped transactions (a node with 3-s blocks) ----

    def second_move(self, slow):
        r = self.zbc("app", "create", "tictactoe", "--stake", "10ZBC", "--from", "alice", "--fee", FEE,
                     "--wait=included", node=slow)
        app_id = r["app_id"]
        self.zbc("app", "join", app_id, "--from", "bob", "--fee", FEE, "--wait=included", node=slow)
        a = wait_until(lambda: (lambda x: x if x["clock"] is not None else None)(self.app(slow, app_id)),
                       30, "first seat drawn")
        mover = {p["seat"]: p["address"] for p in a["players"]}[a["clock"]]
        name = "alice" if mover == self.alice else "bob"
        m1, h1 = self.offline(slow, "app", "move", app_id, "00", "--from", name)
        m2, h2 = self.offline(slow, "app", "move", app_id, "01", "--from", name)
        self.after_next_block(slow)
        st, j = self.submit_raw(slow, m1)
        assert_equal(st, 202, "first move: %r" % j)
        st, j = self.submit_raw(slow, m2)
        want = ("a transaction of yours for app %s is already waiting in the mempool (tx %s): "
                "send the next one after it is in a block" % (app_id, h1))
        assert_equal((st, j.get("error")), (400, want), "the second move while the first is pooled")
        self.wait_confirmed(h1, node=slow)
        st, j = slow.get("/api/v1/transactions/%s/status" % h2)
        assert_equal((st, j.get("status")), (404, "not_found"), "the refused move was never pooled")

    def dropped(self, slow):
        r = self.zbc("app", "create", "tictactoe", "--stake", "10ZBC", "--from", "alice", "--fee", FEE,
                     "--wait=included", node=slow)
        app_id = r["app_id"]
        jb, hb = self.offline(slow, "app", "join", app_id, "--from", "bob")
        jc, hc = self.offline(slow, "app", "join", app_id, "--from", "carol")
        self.after_next_block(slow)
        for raw in (jb, jc):
            st, j = self.submit_raw(slow, raw)
            assert_equal(st, 202, "join: %r" % j)
        h = self.after_next_block(slow)
        sb = slow.get("/api/v1/transactions/%s/status" % hb)[1]
        sc = slow.get("/api/v1/transactions/%s/status" % hc)[1]
        won, lost = (sb, sc) if sb["status"] == "confirmed" else (sc, sb)
        assert_equal(won["status"], "confirmed", "one join in the block: %r %r" % (sb, sc))
        assert_equal(lost["status"], "dropped", "the other join dropped: %r" % lost)
        at = won["block_height"]
        assert_equal(lost["dropped_at"], at, "dropped at the block that filled the app")
        assert_true(lost["reason"].startswith("invalid after block %d: " % at) and "is full" in lost["reason"],
                    "drop reason %r" % lost["reason"])
        assert_equal(lost["description"], "dropped from the mempool: " + lost["reason"], "description")
        assert_true(h >= at, "height")

    def run_test(self):
        self.alice = alice = self.wallet_key("alice")
        bob = self.wallet_key("bob")
        self.carol = carol = self.wallet_key("carol")
        self.fund = self.wallet_key("apps-fund")
        balances = [(alice, 1000 * ZBC), (bob, 1000 * ZBC), (carol, 1000 * ZBC)]
        node = self.chain(balances, 5, extra=["--automine"])
        self.automine(node, alice, bob)
        self.refuse_automine(node)
        self.mining(node)
        self.history(node, alice, bob)
        self.app_history(node, alice, bob)
        # the index survives a restart complete (no rebuild: its marker is the tip)
        node.stop()
        node.start(node.genesis_file, extra=["--automine"])
        assert_true("account history index built" not in node.read_log(), "no rebuild needed")
        assert_equal(self.page(node, bob, limit=100)["count"] >= 27, True, "history after restart")

        slow = self.chain(balances, 3000)
        self.second_move(slow)
        self.dropped(slow)
        self.mining_limits(slow)


if __name__ == "__main__":
    DevMode().main()
