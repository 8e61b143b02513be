#!/usr/bin/env python3
"""More games through the wallet's notation on a real zbcd, each checked by
`zbc verify` (first-seat draw, engine replay, dice from block seeds):
fool's mate in chess (black mates in two: win, rake and payout exact);
lines (a start position drawn from seed(J+2), dice) for one round each;
a few moves of race, ludo, monopoly and checkers chosen from the API's
legal_moves list."""
import hashlib

from framework import ZBC, ZbcTest, assert_equal, assert_true, wait_until

FEE = 2_000_000
STAKE = 2 * ZBC


class Games(ZbcTest):
    def app(self, app_id):
        st, j = self.nodes[0].get("/api/v1/apps/%s" % app_id)
        assert_equal(st, 200, "GET app %s" % app_id)
        return j

    def ready(self, app_id):
        """The app once someone holds the clock (no first-turn draw or
        dice move pending), or finished."""
        return wait_until(lambda: (lambda a: a if a["status"] == "finished" or
                                   (a["clock"] is not None and not a["has_pending"]) else None)(
            self.app(app_id)), 30, "app %s ready" % app_id)

    def open(self, game, params=None):
        args = ["app", "create", game, "--stake", "2ZBC", "--from", "alice", "--fee", FEE, "--wait"]
        if params:
            args += ["--params", params]
        app_id = self.zbc(*args)["app_id"]
        self.zbc("app", "join", app_id, "--from", "bob", "--fee", FEE, "--wait")
        a = self.ready(app_id)
        names = {p["seat"]: self.who[p["address"]] for p in a["players"]}
        return app_id, a, names

    def play_legal(self, app_id, names, n):
        for _ in range(n):
            a = self.ready(app_id)
            if a["status"] == "finished":
                break
            assert_true(a["legal_moves"], "legal moves listed: %r" % a.get("legal_moves"))
            move = a["legal_moves"][0].split()
            self.zbc("app", "move", app_id, *move, "--from", names[a["clock"]], "--fee", FEE, "--wait")
        return self.ready(app_id)

    def chess(self):
        app_id, a, names = self.open("chess")
        white = a["clock"]
        for mv in ["f2f3", "e7e5", "g2g4", "d8h4"]:
            a = self.ready(app_id)
            self.zbc("app", "move", app_id, mv, "--from", names[a["clock"]], "--fee", FEE, "--wait")
        a = self.ready(app_id)
        pot, rake = 2 * STAKE, 2 * STAKE * 100 // 10000
        assert_equal((a["status"], a["ending"], a["result"]["winner"]), ("finished", "win", 1 - white),
                     "fool's mate: black wins")
        assert_equal([p["amount"] for p in a["result"]["payouts"]], [pot - rake], "chess payout")
        assert_equal([h["notation"] for h in a["history"] if h["kind"] == "app_move"],
                     ["f2f3", "e7e5", "g2g4", "d8h4"], "chess notation")
        v = self.zbc("verify", app_id)
        assert_equal(v["verified"], True, "chess verify")

    def run_test(self):
        alice = self.wallet_key("alice")
        bob = self.wallet_key("bob")
        self.who = {alice: "alice", bob: "bob"}
        self.start_chain(balances=[(alice, 1000 * ZBC), (bob, 1000 * ZBC)], automine=True)
        self.chess()
        app_id, a, names = self.open("lines", "rounds=1")
        act = [h for h in a["history"] if h["kind"] == "app_activate"][0]
        assert_true(act["roll_bytes_used"] > 0, "lines start drawn from the roll stream")
        # recomputed here: H("ZBC-DICE" || seed(J+2) || app id LE8 || counter LE32)
        tag = int(app_id).to_bytes(8, "little")
        st, blk = self.nodes[0].get("/api/v1/blocks/%d" % (a["joined"] + 2))
        seed = bytes.fromhex(blk["seed"])
        stream = b"".join(hashlib.sha3_256(b"ZBC-DICE" + seed + tag + c.to_bytes(4, "little")).digest()
                          for c in range(8))
        assert_equal((act["roll_seed_height"], act["roll_tag"]), (a["joined"] + 2, tag.hex()),
                     "start roll derivation")
        assert_equal(act["rolls_hex"], stream[:len(act["rolls_hex"]) // 2].hex(), "start rolls")
        a = self.play_legal(app_id, names, 2)
        assert_equal(a["status"], "finished", "lines after one round each")
        self.zbc("verify", app_id)
        for game, moves in (("race", 4), ("ludo", 4), ("monopoly", 2), ("checkers", 2)):
            app_id, a, names = self.open(game)
            a = self.play_legal(app_id, names, moves)
            assert_true(a["moves"] >= 1, "%s moves applied" % game)
            v = self.zbc("verify", app_id)
            assert_equal(v["verified"], True, "%s verify" % game)
            self.log("%s: %d moves verified" % (game, a["moves"]))


if __name__ == "__main__":
    Games().main()
