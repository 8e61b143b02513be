#!/usr/bin/env python3
"""Dice and solo bets on a real zbcd, recomputed independently in Python:
pig moves are stored pending in their block N and applied by block N+1
with dice from H("ZBC-DICE" || seed(N+1) || move tx hash || counter) (SHA3
from hashlib, rejection sampling as docs/games.md "The roll stream"); a solo bet of each kind is
settled by block N+1 with the HMAC-SHA256 float of docs/games.md "Solo bets" and pays
exactly what the formula says; `zbc verify` agrees, and exits 10 when the
node's answer is doctored (served through a lying proxy)."""
import hashlib
import hmac
import json

from doctor_proxy import DoctorProxy
from framework import ZBC, ZbcTest, assert_equal, assert_true, wait_until

FEE = 2_000_000


def dice_stream(seed, tag, n):
    out = b""
    counter = 0
    while len(out) < n:
        out += hashlib.sha3_256(b"ZBC-DICE" + seed + tag + counter.to_bytes(4, "little")).digest()
        counter += 1
    return out[:n]


def first_d6(stream):
    for b in stream:
        if b < 252:
            return b % 6 + 1
    raise AssertionError("no die in stream")


def bet_outcome(game, params, stake, u):
    """docs/games.md "Solo bets" in exact integers: (value, win, returns)."""
    if game == "dice":
        roll = (u * 10001) >> 32
        over, target = params
        win = roll > target if over else roll < target
        w = 10000 - target if over else target
        return roll, win, (stake * 99 * 10001 // (100 * w)) if win else 0
    if game == "coin":
        side = 0 if u < 2 ** 31 else 1
        win = side == params
        return side, win, stake * 198 // 100 if win else 0
    if game == "roulette":
        pocket = (u * 37) >> 32
        red = {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}
        win = pocket != 0 and pocket in red
        return pocket, win, stake * 2 if win else 0
    if game == "limbo":
        result = 99 * 2 ** 32 // (u + 256)
        win = result >= params
        return result, win, stake * params // 100 if win else 0
    raise AssertionError(game)


class DiceBets(ZbcTest):
    def seed(self, height):
        st, b = self.nodes[0].get("/api/v1/blocks/%d" % height)
        assert_equal(st, 200, "block %d" % height)
        return bytes.fromhex(b["seed"])

    def pig(self, alice, bob):
        r = self.zbc("app", "create", "pig", "--stake", "5ZBC", "--from", "alice", "--fee", FEE, "--wait")
        app_id = r["app_id"]
        self.zbc("app", "join", app_id, "--from", "bob", "--fee", FEE, "--wait")
        a = wait_until(lambda: (lambda a: a if a["clock"] is not None else None)(self.app(app_id)),
                       30, "pig first seat")
        names = {p["seat"]: ("alice" if p["address"] == alice else "bob") for p in a["players"]}
        checked = 0
        for _ in range(5):
            a = wait_until(lambda: (lambda a: a if a["clock"] is not None else None)(self.app(app_id)),
                           30, "pig clock")
            seat = a["clock"]
            view = a["view"]
            move = "hold" if view["turn_total"] >= 8 else "roll"
            r = self.zbc("app", "move", app_id, move, "--from", names[seat], "--fee", FEE, "--wait")
            n, tx = r["block_height"], r["transaction_hash"]
            try:
                a = wait_until(lambda: (lambda a: a if not a["has_pending"] and
                                        any(h["kind"] == "app_move" and h["tx_hash"] == tx
                                            for h in a["history"]) else None)(self.app(app_id)),
                               30, "pending move applied")
            except Exception:
                self.log("app: %s" % json.dumps(self.app(app_id)["history"][-4:]))
                raise
            pend = [h for h in a["history"] if h["kind"] == "app_pending" and h["tx_hash"] == tx]
            done = [h for h in a["history"] if h["kind"] == "app_move" and h["tx_hash"] == tx]
            assert_equal((len(pend), pend[0]["height"]), (1, n), "stored pending in its block")
            assert_equal(done[0]["height"], n + 1, "applied by the next block")
            if move == "roll":
                stream = dice_stream(self.seed(n + 1), bytes.fromhex(tx), 64)
                used = done[0]["roll_bytes_used"]
                assert_equal((done[0]["roll_seed_height"], done[0]["roll_tag"]), (n + 1, tx),
                             "roll derivation fields")
                assert_equal(done[0]["rolls_hex"], stream[:used].hex(), "roll bytes = H(ZBC-DICE...)")
                die = first_d6(stream)
                # moves are sequential here: the view's last move is this roll
                last = a["view"]["last"]
                assert_equal((last["seat"], last["move"], last["die"]), (seat, "roll", die),
                             "die recomputed in Python")
                checked += 1
                self.log("pig roll by seat %d: die %d (block %d)" % (seat, die, n + 1))
            if a["status"] == "finished":
                break
        assert_true(checked >= 1, "at least one roll checked")
        self.zbc("verify", app_id)

    def bets(self, carol):
        cases = [
            ("dice", ["dice", "under", "50"], (0, 5000)),
            ("coin", ["coin", "heads"], 0),
            ("roulette", ["roulette", "red"], None),
            ("limbo", ["limbo", "2"], 200),
        ]
        fund = self.genesis["fund_account"]
        for game, words, params in cases:
            before, fund0 = self.balance(carol), self.balance(fund)
            r = self.zbc("bet", *words, "--stake", "1ZBC", "--client-seed", "seed-" + game,
                         "--from", "carol", "--fee", FEE, "--wait")
            app_id, n = r["app_id"], r["block_height"]
            a = wait_until(lambda: (lambda a: a if a["status"] == "finished" else None)(self.app(app_id)),
                           30, "bet settled")
            settle = [h for h in a["history"] if h["kind"] == "bet_settle"][0]
            assert_equal(settle["height"], n + 1, "settled by block N+1")
            server = self.seed(n + 1).hex()
            msg = ("seed-%s:%s:0" % (game, app_id)).encode()
            u = int.from_bytes(hmac.new(server.encode(), msg, hashlib.sha256).digest()[:4], "big")
            value, win, returns = bet_outcome(game, params, ZBC, u)
            assert_equal((settle["u"], settle["value"], settle["win"], settle["amount"]),
                         (u, value, win, returns), "%s outcome" % game)
            assert_equal(self.balance(carol), before - FEE - ZBC + returns, "%s balance" % game)
            assert_equal(self.balance(fund), fund0 + ZBC - returns, "%s fund" % game)
            v = self.zbc("verify", app_id)
            assert_equal(v["verified"], True, "verify %s" % game)
            self.log("%s: u=%d value=%d %s returns %d" % (game, u, value, "win" if win else "loss", returns))
        return app_id

    def run_test(self):
        alice = self.wallet_key("alice")
        bob = self.wallet_key("bob")
        carol = self.wallet_key("carol")
        node = self.start_chain(balances=[(alice, 1000 * ZBC), (bob, 1000 * ZBC), (carol, 1000 * ZBC)])
        self.pig(alice, bob)
        last_bet = self.bets(carol)
        # bad bet words: usage (2); a bet above 1 % of the fund: rejected (6)
        self.zbc("bet", "dice", "sideways", "50", "--stake", "1ZBC", "--from", "carol", expect=2)
        self.zbc("bet", "coin", "heads", "--from", "carol", expect=2)
        r = self.zbc("bet", "coin", "heads", "--stake", "9000ZBC", "--from", "carol", "--fee", FEE,
                     expect=None)
        assert_true(r.code in (4, 6), "oversized bet refused: %r" % r)
        # a doctored answer does not verify: exit 10
        def flip_u(app):
            for h in app.get("history", []):
                if h["kind"] == "bet_settle":
                    h["u"] ^= 1
        with DoctorProxy(node.api_url, flip_u) as url:
            r = self.zbc("verify", last_bet, "--api", url, expect=10)
            assert_equal(r["error_class"], "verify_failed", "verify class")


if __name__ == "__main__":
    DiceBets().main()
