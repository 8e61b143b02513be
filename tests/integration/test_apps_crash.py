#!/usr/bin/env python3
"""Crash rounds (type 36, docs/games.md "Crash", docs/protocol-apps.md §12) on a real zbcd with
--automine, played through the wallet: alice opens a round with her own entry, bob (twice) and
carol enter with `zbc crash join`; admin/mine takes the chain to close + 1, where the round
settles. The crash point is recomputed here from the block seed with a stock HMAC (floor(99 x
2^32 / (u + 256)) of docs/games.md) and printed by `zbc-engine fair crash`, every entry's
return and every balance (entrants and the apps fund) move by exactly that; `zbc crash show`
says it in words; `zbc verify`, `zbc-audit app` and a full datadir replay agree; entries after
the close (in the pool and after the settlement) and bad targets are refused with their
reasons."""
import hashlib
import hmac
import json
import os
import subprocess

import genesis as genesis_mod
from framework import (ZBC, ZbcTest, assert_equal, assert_true, audit_datadir_clean, run_audit,
                       wait_until)

FEE = 2_000_000
WINDOW = 8


class CrashRounds(ZbcTest):
    def token(self, node):
        with open(os.path.join(node.datadir, "api.token")) as f:
            return f.read().strip()

    def mine(self, node, blocks):
        st, j = node.request("POST", "/api/v1/admin/mine", '{"blocks": %d}' % blocks,
                             headers={"X-ZBC-Token": self.token(node)}, timeout=60)
        assert_equal(st, 200, "admin/mine %d: %r" % (blocks, j))

    def app(self, node, app_id):
        st, j = node.get("/api/v1/apps/%s" % app_id)
        assert_equal(st, 200, "GET app %s" % app_id)
        return j

    def run_test(self):
        names = ("alice", "bob", "carol")
        addr = {n: self.wallet_key(n) for n in names}
        node = self.add_node()
        key = node.init()
        fund = self.wallet_key("apps-fund")
        g = genesis_mod.make_genesis([key], fund, [(addr[n], 1000 * ZBC) for n in names])
        self.genesis = g
        self.genesis_path = os.path.join(self.tmpdir, "genesis.json")
        genesis_mod.write_genesis(self.genesis_path, g)
        node.start(self.genesis_path, extra=["--automine"])
        before = {n: self.balance(addr[n]) for n in names}
        fund0 = self.balance(fund)

        r = self.zbc("crash", "create", "--blocks", WINDOW, "--stake", "1ZBC", "--target",
                     "1.5x", "--client-seed", "round-1", "--from", "alice", "--fee", FEE,
                     "--wait")
        app_id = r["app_id"]
        created = r["block_height"]
        close = created + WINDOW
        self.log("round %s opened at %d, closes at %d" % (app_id, created, close))
        entries = [("alice", ZBC, 150)]
        for who, stake, target, text in (("bob", 2 * ZBC, 200, "2x"),
                                         ("carol", ZBC, 101, "1.01"),
                                         ("bob", ZBC // 10, 5000, "50x")):
            j = self.zbc("crash", "join", app_id, "--stake", "%d.%08d" % divmod(stake, ZBC),
                         "--target", text, "--from", who, "--fee", FEE, "--wait=included")
            assert_true(j["block_height"] <= close, "entry in the window")
            assert_equal(j["max_return"], stake * target // 100, "max return of %s" % who)
            entries.append((who, stake, target))
        a = self.app(node, app_id)
        assert_equal((a["game"], a["status"], a["crash"]["crash_point"]), ("crash", "active", None),
                     "open round")
        assert_equal([(e["stake"], e["target"]) for e in a["crash"]["entries"]],
                     [(s, t) for _, s, t in entries], "entries in the view")
        pot = sum(s * t // 100 for _, s, t in entries)
        assert_equal(a["pot"], pot, "the pot holds every maximum return")
        # bad targets are refused before they reach the node
        bad = self.zbc("crash", "join", app_id, "--stake", "1ZBC", "--target", "1.00x",
                       "--from", "carol", expect=2)
        assert_true("at least 1.01x" in bad.json["error"], "target 1.00x refused: %r" % bad)
        # at tip = close the next block would be close + 1: the pool refuses an entry
        self.mine(node, close - node.height())
        late = self.zbc("crash", "join", app_id, "--stake", "1ZBC", "--target", "2x",
                        "--from", "carol", "--fee", FEE, expect=6)
        assert_true("closed at height %d" % close in late.json["error"],
                    "entry after the close refused: %r" % late)
        # close + 1: the settlement block
        self.mine(node, 1)
        a = wait_until(lambda: (lambda a: a if a["status"] == "finished" else None)(
            self.app(node, app_id)), 30, "round settled")
        st, b = node.get("/api/v1/blocks/%d" % (close + 1))
        assert_equal(st, 200, "block close + 1")
        msg = ("round-1:%s:0" % app_id).encode()
        u = int.from_bytes(hmac.new(b["seed"].encode(), msg, hashlib.sha256).digest()[:4], "big")
        point = (99 << 32) // (u + 256)
        self.log("seed(%d) %s: u %d, crash point %d.%02dx" % (close + 1, b["seed"], u,
                                                              point // 100, point % 100))
        assert_equal((a["crash"]["crash_point"], a["crash"]["u"]), (point, u), "crash point")
        engine = os.path.join(os.path.dirname(self.zbc_bin), "..", "engine", "zbc-engine")
        p = subprocess.run([engine, "fair", "crash", "--server-seed", b["seed"], "--client-seed",
                            "round-1", "--nonce", app_id, "--json"], capture_output=True,
                           text=True, timeout=60)
        assert_equal(json.loads(p.stdout)["event"]["crash"], point, "zbc-engine fair crash")
        paid = {n: 0 for n in names}
        staked = {n: 0 for n in names}
        fees = {n: 0 for n in names}
        for i, (who, stake, target) in enumerate(entries):
            ret = stake * target // 100 if target <= point else 0
            e = a["crash"]["entries"][i]
            assert_equal((e["cashed_out"], e["returns"]), (target <= point, ret),
                         "entry %d of %s" % (i, who))
            paid[who] += ret
            staked[who] += stake
            fees[who] += FEE
        for n in names:
            assert_equal(self.balance(addr[n]), before[n] - fees[n] - staked[n] + paid[n],
                         "%s's balance" % n)
        assert_equal(self.balance(fund), fund0 + sum(staked.values()) - sum(paid.values()),
                     "the apps fund")
        settle = [h for h in a["history"] if h["kind"] == "bet_settle"]
        assert_equal((len(settle), {h["height"] for h in settle}), (4, {close + 1}),
                     "four settlements at close + 1")
        show = self.zbc("crash", "show", app_id, json_out=False)
        assert_true("crashed at %d.%02dx" % (point // 100, point % 100) in show.stdout,
                    "crash show: %s" % show.stdout)
        self.log(show.stdout)
        shown = self.zbc("app", "show", app_id, json_out=False)
        assert_true("crash" in shown.stdout and "app_end   bet" in shown.stdout,
                    "app show of a round: %s" % shown.stdout)
        self.log(shown.stdout)
        v = self.zbc("verify", app_id)
        assert_equal(v["verified"], True, "zbc verify")
        j = run_audit(self, "app", app_id, "--peer", node.api_url, "--genesis",
                      self.genesis_path)
        assert_equal((j["divergence_count"], j["status"]), (0, "finished"), "zbc-audit app")
        # after the settlement: refused with the reason
        late = self.zbc("crash", "join", app_id, "--stake", "1ZBC", "--target", "2x",
                        "--from", "carol", "--fee", FEE, expect=6)
        assert_true("crash round %s is settled" % app_id in late.json["error"],
                    "entry after the settlement refused: %r" % late)
        node.stop()
        audit_datadir_clean(self, node.datadir, self.genesis_path)


if __name__ == "__main__":
    CrashRounds().main()
