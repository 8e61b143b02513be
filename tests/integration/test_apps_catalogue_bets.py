#!/usr/bin/env python3
"""The five catalogue solo bets (plinko 23, keno 24, wheel 25, baccarat 26, blitz 27) on a
real zbcd: each is created with the wallet's raw CreateApp form, settled by block N+1, and
its outcome is recomputed here independently: the event by tests/tools/fair_catalogue.py
(written from docs/games.md, not from the C code), the multipliers from the tables'
derivation (tests/tools/fair_tables.py) and the closed forms of docs/games.md "Payout
tables".  The bettor's and the fund's balances move by exactly that amount; `zbc verify`
and `zbc-audit` agree, and `zbc-engine fair` prints the same event."""
import json
import os
import subprocess
import sys

from framework import (ZBC, ZbcTest, assert_equal, assert_true, audit_datadir_clean, run_audit,
                       wait_until)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
import fair_catalogue as fc  # noqa: E402
import fair_tables as ft  # noqa: E402

FEE = 2_000_000
BACCARAT = {0: 20051, 1: 19513, 2: 103745}  # docs/games.md "Payout tables"


def wheel_multiplier(n, risk, i):
    p, b = i % 10, n // 10
    if risk == 0:
        return 15000 if p == 0 else 0 if p in (4, 9) else 12000
    if risk == 1:
        if i == n - 1:
            return 9000 * b + 20000
        return 0 if p % 2 == 0 else 15000 if p in (1, 5) else 20000
    return 9900 * n if i == n - 1 else 0


def blitz_multiplier(k):
    num, den = 9900, 1
    for i in range(k):
        num, den = num * 52, den * (52 - i)
    return num // den


def expected(game, fields, server, client, nonce, stake):
    """(event, value, multiplier) of a bet, from the Python implementations."""
    s = fc.Stream(server, client, nonce)
    if game == "plinko":
        rows, risk = fields
        ev = fc.plinko(s, rows)
        value = ev["slot"] | sum(d << (8 + i) for i, d in enumerate(ev["path"]))
        return ev, value, ft.plinko(rows, risk)[ev["slot"]]
    if game == "keno":
        risk, picks = fields[0], fields[2:]
        ev = fc.keno(s, picks)
        return ev, ev["hits"], ft.keno(len(picks), risk)[ev["hits"]]
    if game == "wheel":
        n, risk = fields
        ev = fc.wheel(s, n)
        return ev, ev["segment"], wheel_multiplier(n, risk, ev["segment"])
    if game == "baccarat":
        side = fields[0]
        ev = fc.baccarat(s)
        value = (ev["player_total"] | ev["banker_total"] << 8 | int(ev["player_drew"]) << 16 |
                 int(ev["banker_drew"]) << 17)
        won = ["player", "banker", "tie"].index(ev["winner"])
        m = BACCARAT[side] if won == side else 10000 if won == 2 else 0
        return ev, value, m
    if game == "blitz":
        k = fields[0]
        ev = fc.blitz(s, k)
        return ev, len(set(ev["cards"])), blitz_multiplier(k) if ev["all_differ"] else 0
    raise AssertionError(game)


def engine_args(game, f):
    """zbc-engine fair options of a bet's params fields."""
    if game in ("plinko", "wheel"):
        return ["--rows" if game == "plinko" else "--segments", str(f[0]), "--risk", str(f[1])]
    if game == "keno":
        return ["--risk", str(f[0]), "--picks", ",".join(str(q) for q in f[2:])]
    return ["--side" if game == "baccarat" else "--cards", str(f[0])]


CASES = [
    ("plinko", 23, [16, 2], "bet.plinko.high"),
    ("plinko", 23, [8, 0], "bet.plinko.low"),
    ("keno", 24, [0, 10, 1, 4, 8, 12, 16, 20, 24, 28, 32, 36], "bet.keno.ten"),
    ("keno", 24, [1, 1, 17], "bet.keno.one"),
    ("wheel", 25, [50, 1], "bet.wheel"),
    ("baccarat", 26, [0], "bet.baccarat.player"),
    ("baccarat", 26, [2], "bet.baccarat.tie"),
    ("blitz", 27, [8], "bet.blitz"),
]


class CatalogueBets(ZbcTest):
    def app(self, app_id):
        st, j = self.nodes[0].get("/api/v1/apps/%s" % app_id)
        assert_equal(st, 200, "GET app %s" % app_id)
        return j

    def seed_hex(self, height):
        st, b = self.nodes[0].get("/api/v1/blocks/%d" % height)
        assert_equal(st, 200, "block %d" % height)
        return b["seed"]

    def run_test(self):
        carol = self.wallet_key("carol")
        self.start_chain(balances=[(carol, 1000 * ZBC)], automine=True)  # N+1 mined as work
        fund = self.genesis["fund_account"]
        engine = os.path.join(os.path.dirname(self.zbc_bin), "..", "engine", "zbc-engine")
        paid_back = 0
        for game, code, fields, client in CASES:
            params = bytes(fields) + bytes([len(client)]) + client.encode()
            before, fund0 = self.balance(carol), self.balance(fund)
            r = self.zbc("app", "create", code, "1ZBC", 1, "--params-hex", params.hex(),
                         "--from", "carol", "--fee", FEE, "--wait")
            # the app id is the CreateApp's id: its hash's first 8 bytes, little-endian
            app_id = str(int.from_bytes(bytes.fromhex(r["transaction_hash"])[:8], "little"))
            n = r["block_height"]
            a = wait_until(lambda: (lambda a: a if a["status"] == "finished" else None)(self.app(app_id)),
                           30, "%s bet settled" % game)
            settle = [h for h in a["history"] if h["kind"] == "bet_settle"][0]
            assert_equal(settle["height"], n + 1, "settled by block N+1")
            server = self.seed_hex(n + 1)
            ev, value, mult = expected(game, fields, server, client, int(app_id), ZBC)
            returns = ZBC * mult // 10000
            u = fc.Stream(server, client, int(app_id)).u(0)
            assert_equal((settle["u"], settle["value"], settle["win"], settle["amount"]),
                         (u, value, returns > ZBC, returns), "%s outcome" % game)
            assert_equal(self.balance(carol), before - FEE - ZBC + returns, "%s balance" % game)
            assert_equal(self.balance(fund), fund0 + ZBC - returns, "%s fund" % game)
            v = self.zbc("verify", app_id)
            assert_equal(v["verified"], True, "verify %s" % game)
            j = run_audit(self, "app", app_id, "--peer", self.nodes[0].api_url, "--genesis",
                          self.genesis_path)
            assert_equal((j["divergence_count"], j["status"]), (0, "finished"),
                         "zbc-audit app %s" % game)
            args = engine_args(game, fields)
            p = subprocess.run([engine, "fair", game, "--server-seed", server, "--client-seed",
                                client, "--nonce", app_id, "--json", *args],
                               capture_output=True, text=True, timeout=60)
            j = json.loads(p.stdout)
            assert_equal((j["event"], j["returns"]), (ev, returns), "zbc-engine fair %s" % game)
            paid_back += returns
            self.log("%s (app %s): %s -> %d.%04dx, returns %d" % (game, app_id, json.dumps(ev),
                                                                   mult // 10000, mult % 10000,
                                                                   returns))
        assert_true(paid_back > 0, "at least one bet returned something")
        # bad params are refused before they reach a block
        r = self.zbc("app", "create", 24, "1ZBC", 1, "--params-hex", "00020505" + "00",
                     "--from", "carol", "--fee", FEE, expect=None)
        assert_true(r.code != 0 and "ascending" in (r.stdout + r.stderr),
                    "keno with a repeated square refused: %r" % r)
        # the whole chain replays: every settlement recomputed by zbc-audit
        self.nodes[0].stop()
        audit_datadir_clean(self, self.nodes[0].datadir, self.genesis_path)


if __name__ == "__main__":
    CatalogueBets().main()
