#!/usr/bin/env python3
"""The wallet's catalogue bets on an automine devnet (docs/wallet.md "Bets"):
`zbc bet plinko|keno|wheel|baccarat|blitz ... --wait` places each bet, the next block
settles it at once, and the wallet prints the outcome it recomputed from that block's
seed.  Each printed line ("bet ID settled in block N: path R L ..., slot 9 (0-16):
1.66x: win, paid 1.66 ZBC") and each picture line is compared with the words built
here from the independent Python implementation (tests/tools/fair_catalogue.py, the
multipliers of tests/integration/test_apps_catalogue_bets.py); balances move by exactly
the returns; `zbc history` names each bet's game and value; `zbc app show --json` and `zbc verify --json` carry the same event as data;
`zbc verify` and `zbc-audit app` print every step; ASCII suits without a UTF-8 locale;
a node whose settlement differs from the seed's is called out by app show and verify;
bad words refused with their sentence, before anything is sent."""
import http.server
import os
import re
import sys
import threading

import genesis as genesis_mod
from framework import ZBC, ZbcTest, assert_equal, assert_true, run_audit
from test_apps_catalogue_bets import expected
from doctor_proxy import DoctorProxy

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
import fair_catalogue as fc  # noqa: E402

FEE = 2_000_000
UTF8 = {"LANG": "C.UTF-8", "LC_ALL": "", "LC_CTYPE": ""}
ASCII = {"LANG": "C", "LC_ALL": "", "LC_CTYPE": ""}
SIDES = ["player", "banker", "tie"]

# (words after `zbc bet`, params fields as test_apps_catalogue_bets.expected takes them)
CASES = [
    (["plinko", "16", "high"], "plinko", [16, 2]),
    (["keno", "40,3,22,17", "--risk", "high"], "keno", [1, 4, 3, 17, 22, 40]),
    (["wheel", "20", "medium"], "wheel", [20, 1]),
    (["baccarat", "banker"], "baccarat", [1]),
    (["blitz", "5"], "blitz", [5]),
]


def mult_text(m):
    frac = "%04d" % (m % 10000)
    while len(frac) > 2 and frac.endswith("0"):
        frac = frac[:-1]
    return "%d.%sx" % (m // 10000, frac)


def zbc_text(units):
    whole, frac = divmod(units, ZBC)
    return "%d ZBC" % whole if frac == 0 else "%d.%s ZBC" % (whole, ("%08d" % frac).rstrip("0"))


def words(game, fields, ev, mult):
    """The wallet's one-line event (node/client/bet_pictures.h), from the Python event."""
    m = mult_text(mult)
    if game == "plinko":
        path = " ".join("R" if d else "L" for d in ev["path"])
        return "path %s, slot %d (0-%d): %s" % (path, ev["slot"], fields[0], m)
    if game == "keno":
        picks = fields[2:]
        hits = [q for q in picks if q in ev["squares"]]
        return "hits %s (%d of %d picks): %s" % (" ".join(map(str, hits)) or "none", len(hits),
                                                 len(picks), m)
    if game == "wheel":
        return "segment %d of %d: %s" % (ev["segment"], fields[0], m)
    if game == "baccarat":
        win = {"player": "player wins", "banker": "banker wins", "tie": "tie"}[ev["winner"]]
        return "player %s = %d, banker %s = %d: %s (bet on %s): %s" % (
            " ".join(ev["player_names"]), ev["player_total"], " ".join(ev["banker_names"]),
            ev["banker_total"], win, SIDES[fields[0]], m)
    if game == "blitz":
        return "%s: %d different of %d: %s" % (" ".join(ev["names"]), len(set(ev["cards"])),
                                               fields[0], m)
    raise AssertionError(game)


def result_words(stake, returns):
    if returns > stake:
        return ": win, paid " + zbc_text(returns)
    if returns > 0:
        return ": no profit, returned " + zbc_text(returns)
    return ": loss"


class WalletBets(ZbcTest):
    def automine_chain(self, balances):
        node = self.add_node()
        key = node.init()
        fund = self.wallet_key("apps-fund")
        g = genesis_mod.make_genesis([key], fund, balances, block_time_ms=1000,
                                     smith_delay_ms=1000)
        self.genesis = g
        self.genesis_path = os.path.join(self.tmpdir, "genesis.json")
        genesis_mod.write_genesis(self.genesis_path, g)
        node.start(self.genesis_path, extra=["--automine"])
        return node

    def seed_hex(self, height):
        st, b = self.nodes[0].get("/api/v1/blocks/%d" % height)
        assert_equal(st, 200, "block %d" % height)
        return b["seed"]

    def place(self, bet_words, client, env, stake="1ZBC"):
        """zbc bet ... --wait in text mode; returns (app id, N, the settled line, stdout)."""
        r = self.zbc("bet", *bet_words, "--stake", stake, "--client-seed", client, "--from",
                     "carol", "--fee", FEE, "--wait", json_out=False, env=env)
        m = re.search(r"^bet (\d+) placed: ", r.stdout, re.M)
        s = re.search(r"^bet (\d+) settled in block (\d+): (.*)$", r.stdout, re.M)
        assert_true(m is not None and s is not None and m.group(1) == s.group(1),
                    "zbc bet printed the bet and its settlement: %r" % r)
        return m.group(1), int(s.group(2)), s.group(3), r.stdout

    def one(self, bet_words, game, fields, carol, fund):
        client = "wallet." + game
        before, fund0 = self.balance(carol), self.balance(fund)
        app_id, settled, line, out = self.place(bet_words, client, UTF8)
        a = self.app(app_id)
        assert_equal(settled, a["created"] + 1, "%s settled in block N+1" % game)
        server = self.seed_hex(settled)
        ev, value, mult = expected(game, fields, server, client, int(app_id), ZBC)
        returns = ZBC * mult // 10000
        want = words(game, fields, ev, mult) + result_words(ZBC, returns)
        assert_equal(line, want, "%s: the printed outcome" % game)
        # the picture: its last line is the outcome again, from the same event
        if game == "plinko":
            picture = "  slot %d of 0-%d: %s (the edge slots pay " % (ev["slot"], fields[0],
                                                                    mult_text(mult))
        elif game == "keno":
            picture = "  drawn in order: %s\n" % " ".join(map(str, ev["squares"]))
        elif game == "wheel":
            picture = "  segment %d of %d: %s\n" % (ev["segment"], fields[0], mult_text(mult))
        elif game == "baccarat":
            picture = "  %s: %s\n" % ({"player": "player wins", "banker": "banker wins",
                                         "tie": "tie"}[ev["winner"]], mult_text(mult))
        else:
            picture = "  %s\n" % " ".join(ev["names"])
        assert_true(picture in out, "%s picture has %r:\n%s" % (game, picture, out))
        if game == "plinko":  # the ball's row: 16 pegs, the ball at the slot after 15 rows
            rows = [ln for ln in out.splitlines() if re.match(r"^ +[.o]( [.o])* +[LR]$", ln)]
            assert_equal(len(rows), 16, "plinko: one line per row")
            for i, ln in enumerate(rows):
                pegs = ln.split()[:-1]
                assert_equal((pegs.index("o"), ln[-1]), (sum(ev["path"][:i]),
                                                          "R" if ev["path"][i] else "L"),
                             "plinko row %d" % (i + 1))
        if game == "keno":
            for q in range(1, 41):
                picked, drawn = q in fields[2:], q in ev["squares"]
                cell = ("[%2d]" if picked and drawn else "(%2d)" if picked else
                        "*%2d*" if drawn else " %2d ") % q
                assert_true(cell in out, "keno board shows square %d as %r" % (q, cell))
        # exact money: the bettor and the apps fund
        assert_equal(self.balance(carol), before - FEE - ZBC + returns, "%s balance" % game)
        assert_equal(self.balance(fund), fund0 + ZBC - returns, "%s fund" % game)
        # zbc app show draws the same picture, from the seed
        shown = self.zbc("app", "show", app_id, json_out=False, env=UTF8).stdout
        assert_true("recomputed from the seed of block %d:\n" % settled in shown and
                    picture in shown, "app show %s has the picture:\n%s" % (game, shown))
        # JSON: the bet again, the event as data
        show = self.zbc("app", "show", app_id).json
        e = show["event"]
        assert_equal((e["multiplier"], e["multiplier_text"]), (mult, mult_text(mult)),
                     "%s event multiplier" % game)
        if game == "plinko":
            assert_equal((e["path"], e["slot"]), (ev["path"], ev["slot"]), "plinko event")
        elif game == "keno":
            assert_equal((e["squares"], e["hits"]),
                         (ev["squares"], [q for q in fields[2:] if q in ev["squares"]]),
                         "keno event")
        elif game == "wheel":
            assert_equal(e["segment"], ev["segment"], "wheel event")
        elif game == "baccarat":
            assert_equal((e["player"], e["banker"], e["player_cards"], e["banker_cards"],
                          e["player_total"], e["banker_total"], e["winner"]),
                         (ev["player"], ev["banker"], ev["player_names"], ev["banker_names"],
                          ev["player_total"], ev["banker_total"], ev["winner"]),
                         "baccarat event")
        else:
            assert_equal((e["cards"], e["names"], e["all_differ"]),
                         (ev["cards"], ev["names"], ev["all_differ"]), "blitz event")
        v = self.zbc("verify", app_id, env=UTF8).json
        assert_equal((v["verified"], v["event"]), (True, e), "verify %s: event" % game)
        checks = "\n".join(v["checks"])
        assert_true("event: " + words(game, fields, ev, mult) in checks,
                    "verify %s prints the event:\n%s" % (game, checks))
        assert_true("returns floor(%d x %d / 10000) = %d" % (ZBC, mult, returns) in checks,
                    "verify %s prints the payout step" % game)
        u = [fc.Stream(server, client, int(app_id)).u(k) for k in range(16)]
        step = {"plinko": lambda: "row 16: float 15 u = %d" % u[15],
                "keno": lambda: "draw 10: float 9 u = %d" % u[9],
                "wheel": lambda: "float 0 u = %d: segment floor(f x 20) = %d" % (u[0],
                                                                                ev["segment"]),
                "baccarat": lambda: "float 3 u = %d: card floor(f x 52) = %d" % (u[3],
                                                                                ev["banker"][1]),
                "blitz": lambda: "card 5: float 4 u = %d, floor(f x 52) = %d" % (u[4],
                                                                               ev["cards"][4]),
                }[game]()
        assert_true(step in checks, "verify %s step %r:\n%s" % (game, step, checks))
        j = run_audit(self, "app", app_id, "--peer", self.nodes[0].api_url, "--genesis",
                      self.genesis_path)
        assert_equal((j["divergence_count"], j["status"]), (0, "finished"), "audit %s" % game)
        audit_steps = [h["text"] for h in j["history"] if h["kind"] == "bet-step"]
        assert_true(step in "\n".join(audit_steps),
                    "zbc-audit app %s prints the step %r: %r" % (game, step, audit_steps))
        bet = [h for h in j["history"] if h["kind"] == "bet"][0]
        assert_equal(bet["event"], e, "zbc-audit app %s: the event as data" % game)
        self.log("%s (bet %s):\n%s" % (game, app_id, out))
        return app_id

    def json_and_ascii(self, carol):
        r = self.zbc("bet", "baccarat", "player", "--stake", "0.5ZBC", "--client-seed",
                     "wallet.json", "--from", "carol", "--fee", FEE, "--wait").json
        assert_true(isinstance(r["app_id"], str) and r["app_id"].isdigit(), "app_id a string")
        assert_equal((r["stake"], r["stake_zbc"]), (ZBC // 2, "0.5 ZBC"), "stake and stake_zbc")
        assert_equal((r["max_return"], r["max_return_zbc"]),
                     (ZBC // 2 * 20051 // 10000, zbc_text(ZBC // 2 * 20051 // 10000)),
                     "max_return of a player bet: 2.0051x")
        server = self.seed_hex(r["settled_height"])
        ev, value, mult = expected("baccarat", [0], server, "wallet.json", int(r["app_id"]),
                                   ZBC // 2)
        returns = ZBC // 2 * mult // 10000
        assert_equal((r["returns"], r["returns_zbc"], r["paid"], r["value"]),
                     (returns, zbc_text(returns), returns if returns > ZBC // 2 else 0, value),
                     "returns, paid and value")
        assert_equal((r["event"]["player"], r["event"]["banker"]), (ev["player"], ev["banker"]),
                     "--json event")
        # without a UTF-8 locale the suits are letters
        app_id, _, line, out = self.place(["blitz", "3"], "wallet.ascii", ASCII)
        server = self.seed_hex(self.app(app_id)["created"] + 1)
        ev = fc.blitz(fc.Stream(server, "wallet.ascii", int(app_id)), 3)
        letters = {"\u2660": "S", "\u2665": "H", "\u2663": "C", "\u2666": "D"}
        ascii_names = ["".join(letters.get(ch, ch) for ch in n) for n in ev["names"]]
        assert_true(line.startswith(" ".join(ascii_names) + ": "),
                    "ASCII suits: %r, want %r" % (line, ascii_names))
        assert_true(all(ord(ch) < 128 for ch in out), "no UTF-8 without a UTF-8 locale")

    def bad_words(self):
        cases = [
            (["plinko", "17", "low"], "plinko rows must be 8-16, not '17'"),
            (["plinko", "12", "hihg"], "unknown plinko risk 'hihg' (did you mean high?)"),
            (["keno", "3,12,12"], "keno square 12 is picked twice"),
            (["keno", "1,2,3,4,5,6,7,8,9,10,11"], "keno takes 1-10 picks, not 11"),
            (["keno", "3,41"], "keno square '41' is not a square 1-40"),
            (["keno", "3,4", "--risk", "medium"], "unknown keno risk 'medium'"),
            (["wheel", "15", "low"], "wheel segments must be 10, 20, 30, 40 or 50, not '15'"),
            (["baccarat", "bankr"], "unknown baccarat side 'bankr' (did you mean banker?)"),
            (["blitz", "17"], "blitz cards must be 2-16, not '17'"),
            (["plnko", "8", "low"], "unknown bet 'plnko' (did you mean plinko?)"),
            (["wheel", "10", "low", "--risk", "high"], "--risk is keno's"),
        ]
        for args, want in cases:
            r = self.zbc("bet", *args, "--stake", "1ZBC", "--from", "carol", expect=2)
            assert_true(want in r["error"], "zbc bet %s: %r, want %r" % (args, r["error"], want))
        # over 1 % of the fund (10000 ZBC): keno high with 10 picks pays 10000x at most
        r = self.zbc("bet", "keno", "1,2,3,4,5,6,7,8,9,10", "--risk", "high", "--stake",
                     "1.5ZBC", "--from", "carol", "--fee", FEE, expect=None)
        assert_true(r.code in (4, 6), "a keno bet above 1 %% of the fund refused: %r" % r)
        # help: every game with its maximum multiplier and an example
        h = self.zbc("bet", "--help", json_out=False).stdout
        for g in ("plinko", "keno", "wheel", "baccarat", "blitz"):
            assert_true(re.search(r"^  %s +.* +\d+\.\d+x$" % g, h, re.M), "bet help: %s" % g)
            assert_true("zbc bet %s " % g in h, "bet help: %s example" % g)

    def lying_node(self, app_id):
        """A node whose answer flips the settlement's float: app show says so, verify exits
        10."""
        def flip_u(app):
            for h in app.get("history", []):
                if h["kind"] == "bet_settle":
                    h["u"] ^= 1
        with DoctorProxy(self.nodes[0].api_url, flip_u) as api:
            out = self.zbc("app", "show", app_id, "--api", api, json_out=False).stdout
            assert_true("THE NODE'S SETTLEMENT DIFFERS" in out and "zbc verify %s" % app_id in out,
                        "app show through a lying node:\n%s" % out)
            r = self.zbc("verify", app_id, "--api", api, expect=10)
            assert_equal(r["error_class"], "verify_failed", "verify through a lying node")

    def run_test(self):
        carol = self.wallet_key("carol")
        self.automine_chain([(carol, 1000 * ZBC)])
        fund = self.genesis["fund_account"]
        placed = [(game, self.one(bet_words, game, fields, carol, fund))
                  for bet_words, game, fields in CASES]
        # zbc history: each settlement with its game and its value in words
        h = self.zbc("history", "carol", "--all", json_out=False).stdout
        for game, app_id in placed:
            assert_true("%s bet %s settled: " % (game, app_id) in h,
                        "history names the %s bet %s:\n%s" % (game, app_id, h))
        self.lying_node(placed[0][1])
        self.json_and_ascii(carol)
        self.bad_words()


if __name__ == "__main__":
    WalletBets().main()
