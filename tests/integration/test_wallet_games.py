#!/usr/bin/env python3
"""Playing from the wallet on a real zbcd (docs/wallet.md "Playing"): a pig
roll with --wait prints the die the node's roll bytes give (recomputed here
from rolls_hex: bytes >= 252 rejected, face b % 6 + 1), `app show` prints
faces and the clock in blocks and time, a resign reads "seat W (...) won X
ZBC: seat R resigned" and never names the seat that resigned as winner; a
3-seat timeout reads "seats A and B share 5.94 ZBC: seat C timed out (rake
0.06 ZBC)" (move_deadline 12 blocks); a
dice bet with --wait prints its value and payout as the node settled them;
chess played in SAN (O-O refused: no castling), `app watch` says "your move"
once on the watcher's turn, and `app pgn` writes the game."""
import re
import subprocess
import threading

from framework import ZBC, ZbcTest, assert_equal, assert_true, wait_until

FEE = 2_000_000


def zbc_text(units):
    """The wallet's amount text (node/wallet/amount.c): "1.98 ZBC", "2 ZBC"."""
    whole, frac = divmod(units, ZBC)
    if frac == 0:
        return "%d ZBC" % whole
    return "%d.%s ZBC" % (whole, ("%08d" % frac).rstrip("0"))


def first_d6(hexbytes, used):
    faces = [b % 6 + 1 for b in bytes.fromhex(hexbytes)[:used] if b < 252]
    return faces


class WalletGames(ZbcTest):
    def open(self, game):
        app_id = self.zbc("app", "create", game, "--stake", "2ZBC", "--from", "alice", "--fee",
                          FEE, "--wait")["app_id"]
        self.zbc("app", "join", app_id, "--from", "bob", "--fee", FEE, "--wait")
        a = self.app_ready(app_id)
        names = {p["seat"]: self.who[p["address"]] for p in a["players"]}
        return app_id, a, names

    def pig(self):
        app_id, a, names = self.open("pig")
        seat = a["clock"]
        # a roll with --wait, as text: "applied in block N: rolled F"
        r = self.zbc("app", "move", app_id, "roll", "--from", names[seat], "--fee", FEE, "--wait",
                     json_out=False)
        self.log("roll --wait:\n" + r.stdout)
        m = re.search(r"applied in block (\d+): rolled (\d)\n", r.stdout)
        assert_true(m is not None, "roll --wait prints the die: %r" % r)
        a = self.app(app_id)
        done = [h for h in a["history"] if h["kind"] == "app_move"]
        assert_equal(int(m.group(1)), done[-1]["height"], "the block that applied the roll")
        faces = first_d6(done[-1]["rolls_hex"], done[-1]["roll_bytes_used"])
        assert_equal([int(m.group(2))], faces, "die = the node's roll bytes as a d6")
        assert_equal(a["view"]["last"]["die"], faces[0], "the engine's die")
        # the same with --json: roll_text and the app once
        a = self.app_ready(app_id)
        seat = a["clock"]
        r = self.zbc("app", "move", app_id, "roll", "--from", names[seat], "--fee", FEE, "--wait")
        a2 = r["app"]
        mv = [h for h in a2["history"] if h["kind"] == "app_move"][-1]
        assert_equal(r["roll_text"], "rolled %d" % first_d6(mv["rolls_hex"],
                                                            mv["roll_bytes_used"])[0],
                     "roll_text")
        assert_equal(r["applied_height"], mv["height"], "applied_height")
        assert_true(isinstance(r["app_id"], str), "app id as a string")
        assert_equal(r["from"], [p["address"] for p in a2["players"] if p["seat"] == seat][0],
                     "the mover's address in text form")
        # app show: faces, not raw bytes; the clock in blocks and time
        a = self.app_ready(app_id)
        show = self.zbc("app", "show", app_id, "--from", "alice", json_out=False)
        self.log("app show:\n" + show.stdout)
        assert_true(re.search(r"app_move\s+seat \d roll: rolled \d", show.stdout) is not None,
                    "history shows faces: %s" % show.stdout)
        assert_true(re.search(r"rolls [0-9a-f]+", show.stdout) is None,
                    "no raw roll bytes: %s" % show.stdout)
        if a["status"] == "active":
            # 1-s blocks: "(in N blocks, ≈ N s)", or reached/passed on a slow machine
            m = re.search(r"to move: seat (\d)( \(you\))?, deadline block (\d+) \((in (\d+) "
                          r"blocks?, ≈ (\d+) s|reached|passed \d+ blocks? ago)\)", show.stdout)
            assert_true(m is not None, "clock text: %s" % show.stdout)
            assert_equal(int(m.group(1)), a["clock"], "clock seat")
            assert_equal(int(m.group(3)), a["deadline"], "deadline block")
            assert_equal(m.group(2) is not None, names[a["clock"]] == "alice", "(you) on the clock")
            if m.group(5) is not None:
                assert_equal(m.group(5), m.group(6), "blocks of 1 s")
        # --json prints the app object once
        j = self.zbc("app", "show", app_id)
        assert_equal(j["id"], app_id, "app show --json is the app object")
        assert_true("api_response" not in j.json, "the app is printed once: %r" % list(j.json))
        if a["status"] != "active":
            return
        # seat R resigns: the other seat is the winner, by name and in words
        a = self.app_ready(app_id)
        resigner = a["clock"]
        self.zbc("app", "resign", app_id, "--from", names[resigner], "--fee", FEE, "--wait")
        a = wait_until(lambda: (lambda a: a if a["status"] == "finished" else None)(
            self.app(app_id)), 30, "resign settles")
        winner = 1 - resigner
        waddr = [p["address"] for p in a["players"] if p["seat"] == winner][0]
        pot, rake = 2 * 2 * ZBC, 2 * 2 * ZBC * 100 // 10000
        show = self.zbc("app", "show", app_id, json_out=False)
        self.log("after the resign:\n" + show.stdout)
        want = "result: seat %d (%s) won %s: seat %d resigned (rake %s)" % (
            winner, waddr, zbc_text(pot - rake), resigner, zbc_text(rake))
        assert_true(want in show.stdout, "resign result text %r in:\n%s" % (want, show.stdout))
        assert_true("seat %d (" % resigner not in show.stdout.split("result:")[1].split("won")[0],
                    "the seat that resigned is never the winner")
        r = a["result"]
        if "outcome" in r:  # app record version 2 (docs/api.md §10)
            assert_equal((r["outcome"], r["winner"], r["resigned"]), ("resign", winner, resigner),
                         "result names the resigner under its own name")

    def timeout3(self):
        """Three seats, the clock holder lets the deadline pass, another seat
        claims: the two others share pot - rake, named, the holder timed out."""
        app_id = self.zbc("app", "create", "pig", "--stake", "2ZBC", "--seats", "3", "--from",
                          "alice", "--fee", FEE, "--wait")["app_id"]
        for who in ("bob", "carol"):
            self.zbc("app", "join", app_id, "--from", who, "--fee", FEE, "--wait")
        a = self.app_ready(app_id)
        names = {p["seat"]: self.who[p["address"]] for p in a["players"]}
        holder = a["clock"]
        wait_until(lambda: self.app(app_id)["timeout_claimable"], 60, "deadline passed")
        show = self.zbc("app", "show", app_id, json_out=False)
        assert_true(re.search(r"to move: seat %d, deadline block %d \((reached|passed \d+ blocks? "
                              r"ago)\), timeout claimable\n" % (holder, a["deadline"]),
                              show.stdout) is not None, "claimable clock text:\n" + show.stdout)
        self.zbc("app", "claim-timeout", app_id, "--from", names[(holder + 1) % 3], "--fee", FEE,
                 "--wait")
        a = wait_until(lambda: (lambda a: a if a["status"] == "finished" else None)(
            self.app(app_id)), 30, "timeout settles")
        others = [s for s in range(3) if s != holder]
        # pot 6 ZBC, rake 1 % = 0.06, 5.94 split between two seats: 2.97 each
        assert_equal(sorted((p["seat"], p["amount"]) for p in a["result"]["payouts"]
                            if p["seat"] is not None),
                     [(others[0], 297_000_000), (others[1], 297_000_000)], "timeout split")
        show = self.zbc("app", "show", app_id, json_out=False)
        self.log("3-seat timeout:\n" + show.stdout)
        want = "result: seats %d and %d share 5.94 ZBC: seat %d timed out (rake 0.06 ZBC)" % (
            others[0], others[1], holder)
        assert_true(want in show.stdout, "timeout result text %r in:\n%s" % (want, show.stdout))

    def bet(self):
        r = self.zbc("bet", "dice", "under", "49.5", "--stake", "1ZBC", "--client-seed", "wg",
                     "--from", "carol", "--fee", FEE, "--wait", json_out=False)
        m = re.search(r"bet (\d+) settled in block (\d+): rolled (\d+)\.(\d\d) \(under 49\.50\): "
                      r"(win, paid ([0-9.]+ ZBC)|loss)\n", r.stdout)
        self.log("bet --wait: " + r.stdout)
        assert_true(m is not None, "bet --wait prints the outcome: %r" % r)
        app_id = m.group(1)
        a = self.app(app_id)
        settle = [h for h in a["history"] if h["kind"] == "bet_settle"][0]
        assert_equal(int(m.group(2)), settle["height"], "settlement block")
        assert_equal(int(m.group(3)) * 100 + int(m.group(4)), settle["value"], "rolled value")
        assert_equal(m.group(5).startswith("win"), settle["win"], "win or loss")
        if settle["win"]:
            assert_equal(m.group(6), zbc_text(settle["amount"]), "payout")
        show = self.zbc("app", "show", app_id, json_out=False)
        assert_true("result: " + m.group(0).split(": ", 1)[1].rstrip("\n") in show.stdout,
                    "app show of a bet reads the same: %s" % show.stdout)
        j = self.zbc("bet", "coin", "heads", "--stake", "1ZBC", "--from", "carol", "--fee", FEE,
                     "--wait")
        assert_true(isinstance(j["app_id"], str) and j["settled_height"] > j["block_height"],
                    "bet --wait --json: %r" % j.json)
        assert_true(j["outcome_text"].startswith("flipped "), "coin words: %r" % j.json)
        assert_equal(j["from"], self.carol, "the bettor's address in text form")

    def chess(self):
        app_id, a, names = self.open("chess")
        white = a["clock"]
        r = self.zbc("app", "move", app_id, "O-O", "--from", names[white], "--fee", FEE, expect=2)
        assert_true("no castling" in r["error"], "O-O refused: %r" % r.json)
        for san in ["f3", "e5", "g4"]:
            a = self.app_ready(app_id)
            self.zbc("app", "move", app_id, san, "--from", names[a["clock"]], "--fee", FEE, "--wait")
        a = self.app_ready(app_id)
        black = a["clock"]
        assert_equal(black, 1 - white, "black to move")
        # watch as black: "your move" once, no bell when stdout is not a terminal
        w = subprocess.Popen([self.zbc_bin, "app", "watch", app_id, "--from", names[black],
                              "--api", self.nodes[0].api_url, "--wallet", self.wallet_dir],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env=self.wallet_env())
        lines = []
        reader = threading.Thread(target=lambda: lines.extend(iter(w.stdout.readline, b"")),
                                  daemon=True)
        reader.start()
        try:
            wait_until(lambda: any(l == b"your move\n" for l in lines), 30, "watch: your move")
            self.zbc("app", "move", app_id, "Qh4#", "--from", names[black], "--fee", FEE, "--wait")
            w.wait(timeout=60)
            reader.join(timeout=10)
            err = w.stderr.read()
        finally:
            if w.poll() is None:
                w.kill()
        out = b"".join(lines)
        out = out.decode()
        assert_equal(w.returncode, 0, "watch ends with the game: %s" % err.decode())
        assert_equal(out.count("your move\n"), 1, "your move once: %s" % out)
        assert_true("\a" not in out, "no bell without a terminal")
        assert_true(re.search(r"block \d+: the app ended: win(: seat %d won)?\n" % black, out)
                    is not None, "the stream's app_end in words: %s" % out)
        a = self.app(app_id)
        assert_equal([h["notation"] for h in a["history"] if h["kind"] == "app_move"],
                     ["f2f3", "e7e5", "g2g4", "d8h4"], "history keeps coordinates")
        assert_equal(a["result"]["winner"], black, "black mates")
        # PGN
        pgn = self.zbc("app", "pgn", app_id, json_out=False).stdout
        self.log("watch:\n" + out + "PGN:\n" + pgn)
        addr = {p["seat"]: p["address"] for p in a["players"]}
        for tag in ['[Event "ZooBC chess app %s"]' % app_id, '[Site "zbc-devnet"]',
                    '[Round "-"]', '[White "%s"]' % addr[white], '[Black "%s"]' % addr[black],
                    '[Result "0-1"]', '[ZBCApp "%s"]' % app_id]:
            assert_true(tag + "\n" in pgn, "PGN tag %s in:\n%s" % (tag, pgn))
        assert_true(re.search(r'\[Date "\d{4}\.\d\d\.\d\d"\]', pgn) is not None, "PGN date")
        assert_true('[Termination "normal"]\n' in pgn, "PGN termination")
        assert_true(pgn.endswith("\n\n1. f3 e5 2. g4 Qh4# {seat %d (%s) won 3.96 ZBC (rake 0.04 "
                                 "ZBC)} 0-1\n" % (black, addr[black])), "PGN moves:\n%s" % pgn)
        j = self.zbc("app", "pgn", app_id)
        assert_equal((j["result"], j["white"], j["pgn"]), ("0-1", addr[white], pgn), "pgn --json")
        # not chess, not a number
        r = self.zbc("app", "pgn", self.pig_id, expect=2)
        assert_true("not chess" in r["error"], "pgn of pig: %r" % r.json)
        self.zbc("app", "pgn", "12x", expect=2)

    def run_test(self):
        alice = self.wallet_key("alice")
        bob = self.wallet_key("bob")
        carol = self.carol = self.wallet_key("carol")
        self.who = {alice: "alice", bob: "bob", carol: "carol"}
        # moves within 12 blocks (12 s): a timeout test that waits seconds, not minutes
        self.start_chain(balances=[(alice, 1000 * ZBC), (bob, 1000 * ZBC), (carol, 1000 * ZBC)],
                         move_deadline=12)
        self.pig_id = None
        self.pig()
        self.pig_id = [a["id"] for a in self.nodes[0].get("/api/v1/apps?type=pig")[1]["apps"]][0]
        self.bet()
        self.chess()
        self.timeout3()


if __name__ == "__main__":
    WalletGames().main()
