#!/usr/bin/env python3
"""Battleship through the real wallet and node, to the final open
(docs/games.md "Final open", docs/wallet.md "Battleship").

1. An honest game: alice creates with --board, bob joins (`app join` says he
   is seat 1 and must commit) and commits with --board; the commit prints the
   board, never a byte count.  Every turn is ONE transaction: `fire C3`
   while a reveal is due sends reveal-and-fire.  Both run `app watch
   --auto-reveal`: bob's watcher sends his last reveal (the 17th hit: the
   whole turn) and alice's sends the final open; alice is paid pot - rake.
   `app show` draws alice's own fleet; `verify` replays the open.
2. A short fleet: carol commits a hand-built 16-ship board through raw
   params (hashes computed here) and plays raw reveals; she sinks bob's fleet
   first, a dishonest open is refused naming the cell, her honest open shows
   16 ship cells and bob takes the pot."""
import hashlib
import json
import os
import signal
import subprocess

from framework import PASSPHRASE, ZBC, ZbcTest, assert_equal, assert_true, wait_until

FEE = 2_000_000
BIG_FEE = 5_000_000  # a commitment or an open is 3.3 kB
STAKE = 2 * ZBC
RAKE = 2 * STAKE * 100 // 10000
MOVE_DEADLINE = 100  # blocks: the watchers' lone reveals (3 blocks left) never come first

# alice / carol: A1-A5, C1-C4, E1-E3, G1-G3, I1-I2; bob: A10-E10, A8-D8, J1-J3, H5-H7, F2-G2
FLEET_A = ["A1", "A2", "A3", "A4", "A5", "C1", "C2", "C3", "C4", "E1", "E2", "E3", "G1", "G2", "G3",
           "I1", "I2"]
FLEET_B = ["A10", "B10", "C10", "D10", "E10", "A8", "B8", "C8", "D8", "J1", "J2", "J3", "H5", "H6",
           "H7", "F2", "G2"]


def cell(name):
    return (ord(name[0]) - ord("A")) * 10 + int(name[1:]) - 1


def name(c):
    return "%s%d" % (chr(ord("A") + c // 10), c % 10 + 1)


def water(fleet):
    ships = {cell(c) for c in fleet}
    return [name(c) for c in range(100) if c not in ships]


class HandBoard:
    """A board built here, as a cheater would: is_ship per cell, salts."""

    def __init__(self, ships):
        self.ship = [0] * 100
        for c in ships:
            self.ship[cell(c)] = 1
        self.salt = [hashlib.sha256(b"carol-salt-%d" % i).digest() for i in range(100)]

    def commitment(self):
        return b"".join(hashlib.sha3_256(bytes([self.ship[i]]) + self.salt[i]).digest()
                        for i in range(100)).hex()

    def reveal(self, c):
        return ["reveal", "ship" if self.ship[cell(c)] else "water", self.salt[cell(c)].hex()]

    def open_hex(self):
        return b"".join(bytes([self.ship[i]]) + self.salt[i] for i in range(100)).hex()


class BattleshipFlow(ZbcTest):
    def app(self, app_id):
        st, j = self.nodes[0].get("/api/v1/apps/%s" % app_id)
        assert_equal(st, 200, "GET app %s" % app_id)
        return j

    def move(self, app_id, who, *words, fee=FEE, expect=0, json_out=True):
        return self.zbc("app", "move", app_id, *words, "--from", who, "--fee", fee, "--wait",
                        expect=expect, json_out=json_out)

    def watcher(self, app_id, who):
        env = dict(os.environ)
        for k in ("ZBC_API", "ZBC_KEY", "ZBC_TIMEOUT", "ZOOBC_GENESIS_HASH", "ZBC_WALLET"):
            env.pop(k, None)
        env["ZBC_PASSPHRASE"] = PASSPHRASE
        env["ZBC_WALLET_KDF"] = "interactive"
        out = open(os.path.join(self.tmpdir, "watch-%s.json" % who), "wb")
        err = open(os.path.join(self.tmpdir, "watch-%s.err" % who), "wb")
        return subprocess.Popen([self.zbc_bin, "app", "watch", app_id, "--auto-reveal", "--json",
                                 "--from", who, "--fee", str(BIG_FEE), "--api", self.nodes[0].api_url,
                                 "--wallet", self.wallet_dir], stdout=out, stderr=err, env=env)

    def watched(self, proc, who):
        code = proc.wait(timeout=60)
        with open(os.path.join(self.tmpdir, "watch-%s.err" % who)) as fh:
            err = fh.read()
        assert_equal(code, 0, "%s's watcher exit (stderr %r)" % (who, err))
        with open(os.path.join(self.tmpdir, "watch-%s.json" % who)) as fh:
            return json.load(fh)

    def app_moves(self, app_id):
        return [h for h in self.app(app_id)["history"] if h["kind"] == "app_move"]

    def honest(self, alice, bob):
        r = self.zbc("app", "create", "battleship", "--stake", STAKE, "--board", ",".join(FLEET_A),
                     "--from", "alice", "--fee", BIG_FEE, "--wait", json_out=False)
        assert_true("your board, committed in the params: 17 ship cells: A1 A2 A3 A4 A5 C1" in r.stdout
                    and "\nA  # # # # # . . . . .\n" in r.stdout and "bytes" not in r.stdout,
                    "create prints the committed board: %r" % r)
        app_id = [ln.split()[1] for ln in r.stdout.splitlines() if ln.startswith("app ")][0]
        j = self.zbc("app", "join", app_id, "--from", "bob", "--fee", FEE, "--wait")
        assert_equal(j["seat"], 1, "join: the seat taken")
        assert_true(j["next"].startswith("you are seat 1: your board is committed by your first move "
                                         "`zbc app move %s commit`" % app_id) and
                    "then seat 0 fires" in j["next"], "join says what comes next: %r" % j["next"])
        r = self.move(app_id, "bob", "commit", "--board", ",".join(FLEET_B), fee=BIG_FEE,
                      json_out=False)
        assert_true("seat 1 commits its board" in r.stdout and "17 ship cells: A8 A10 B8 B10" in r.stdout
                    and "bytes" not in r.stdout, "the commit prints what it committed: %r" % r)
        r = self.move(app_id, "alice", "open", expect=6)
        assert_true("no open is due from you" in r.stderr, "open before 17 hits: %r" % r)
        wa, wb = self.watcher(app_id, "alice"), self.watcher(app_id, "bob")
        try:
            misses = water(FLEET_A)
            self.move(app_id, "alice", "fire", FLEET_B[0])
            for i in range(16):
                r = self.move(app_id, "bob", "fire", misses[i])  # carries the reveal of FLEET_B[i]
                assert_equal(r["note"], "reveals %s (ship: hit) and fires at %s in one move"
                             % (FLEET_B[i], misses[i]), "bob's combined move")
                r = self.move(app_id, "alice", "fire", FLEET_B[i + 1])
                assert_true(r["note"].startswith("reveals %s (water: miss)" % misses[i]), repr(r))
            # bob's 17th-hit reveal is the whole turn (his watcher), then alice's open (hers)
            a = wait_until(lambda: (lambda a: a if a["status"] == "finished" else None)(self.app(app_id)),
                           60, "the final reveal and open by the watchers")
        finally:
            if self.app(app_id)["status"] != "finished":
                for w in (wa, wb):
                    w.send_signal(signal.SIGTERM)
        ja, jb = self.watched(wa, "alice"), self.watched(wb, "bob")
        assert_equal((ja["opens_sent"], ja["reveals_sent"]), (1, 0), "alice's watcher sent the open")
        assert_equal((jb["opens_sent"], jb["reveals_sent"]), (0, 1), "bob's watcher sent his last reveal")
        moves = self.app_moves(app_id)
        # one transaction per turn: commit, 17 shots by alice (16 carrying a reveal), 16 by bob
        # (each carrying a reveal), bob's last reveal, alice's open
        assert_equal(len(moves), 1 + 17 + 16 + 1 + 1, "moves on chain")
        assert_equal(moves[-1]["move_hex"][:2], "04", "the last move is the open")
        assert_equal(len(moves[-1]["move_hex"]), 2 * 3301, "the open's size")
        assert_equal((a["result"]["winner"], a["pot"]), (0, 0), "alice won")
        paid = [p for p in a["result"]["payouts"] if p["seat"] == 0]
        assert_equal([p["amount"] for p in paid], [2 * STAKE - RAKE], "alice paid pot - rake")
        assert_true("seat 0 hit 17 ship cells and opened the standard fleet: seat 0 wins" in a["board"],
                    "the board says how it ended: %r" % a["board"][-200:])
        r = self.zbc("app", "show", app_id, "--from", "alice", json_out=False)
        assert_true("your board (seat 0, from the wallet's secret file): 17 ship cells: A1 A2" in r.stdout
                    and " (0 hit)\n" in r.stdout, "app show draws alice's fleet: %r" % r.stdout[-900:])
        r = self.zbc("app", "show", app_id, "--from", "bob", json_out=False)
        assert_true(" (17 hit)\n" in r.stdout and "\nA  . . . . . . . X . X\n" in r.stdout,
                    "app show draws bob's sunk fleet: %r" % r.stdout[-900:])
        self.zbc("verify", app_id)

    def short_fleet(self, bob, carol):
        short = FLEET_A[:-1]  # 16 ship cells: I2 left out
        hb = HandBoard(short)
        r = self.zbc("app", "create", "battleship", "--stake", STAKE, "--params", hb.commitment(),
                     "--from", "carol", "--fee", BIG_FEE, "--wait")
        app_id = r["app_id"]
        self.zbc("app", "join", app_id, "--from", "bob", "--fee", FEE, "--wait")
        self.move(app_id, "bob", "commit", "--board", ",".join(FLEET_B), fee=BIG_FEE)
        cb, bb = self.balance(carol), self.balance(bob)
        misses = water(FLEET_B)
        # carol fires at bob's ships; bob at carol's water (her 16 ships are never hit)
        carol_water = water(short)
        self.move(app_id, "carol", "fire", FLEET_B[0])
        for i in range(16):
            self.move(app_id, "bob", "fire", carol_water[i])
            self.move(app_id, "carol", *hb.reveal(carol_water[i]), "fire", FLEET_B[i + 1])
        # the 17th hit on bob's board: the reveal is the whole turn, the shot is not sent
        r = self.move(app_id, "bob", "fire", misses[0])
        assert_equal(r["note"], "reveals %s (ship: hit), which ends your turn (the 17th hit on your "
                     "board): the shot at %s is not sent" % (FLEET_B[16], misses[0]), "bob's last reveal")
        assert_equal(len(r["move_hex"]), 2 * 34, "a reveal alone")
        a = self.app(app_id)
        assert_equal((a["status"], a["clock"]), ("active", 0), "carol must open")
        # a dishonest open (I2 claimed a ship) is refused naming the cell
        bad = HandBoard(FLEET_A)
        bad.salt = hb.salt
        r = self.move(app_id, "carol", "open", bad.open_hex(), fee=BIG_FEE, expect=6)
        assert_true("the opening of I2 as ship does not match the commitment" in r.stderr, repr(r))
        self.move(app_id, "carol", "open", hb.open_hex(), fee=BIG_FEE)
        a = self.app(app_id)
        assert_equal((a["status"], a["result"]["winner"]), ("finished", 1), "the short fleet loses")
        assert_true("seat 0 hit 17 ship cells but opened a board of 16 ship cells, not the fleet of 17: "
                    "seat 1 wins" in a["board"], "the reason: %r" % a["board"][-200:])
        assert_equal(self.balance(bob), bb - 17 * FEE + 2 * STAKE - RAKE, "bob takes the pot")
        assert_equal(self.balance(carol), cb - 17 * FEE - BIG_FEE, "carol pays her fees only")
        self.zbc("verify", app_id)

    def run_test(self):
        alice = self.wallet_key("alice")
        bob = self.wallet_key("bob")
        carol = self.wallet_key("carol")
        self.start_chain(balances=[(alice, 1000 * ZBC), (bob, 1000 * ZBC), (carol, 1000 * ZBC)],
                         automine=True, move_deadline=MOVE_DEADLINE)
        self.honest(alice, bob)
        self.short_fleet(bob, carol)


if __name__ == "__main__":
    BattleshipFlow().main()
