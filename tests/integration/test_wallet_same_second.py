#!/usr/bin/env python3
"""Two commands are two transactions (docs/wallet.md, "Sending"): on an
automine chain (`zbcd run --automine`) the same command twice within one
second made identical bytes (timestamps are in seconds), and the second was
refused as a duplicate (`already included`) or silently merged with the
first (an identical pooled copy is accepted once).  The wallet now signs
the second again with the next second:

- a pig seat's `roll --wait` right after its own roll lands (3 times);
- two `send bob 1ZBC` within a second without --wait move 2 ZBC;
- node/info says `automine`, and `app show` gives the clock in blocks only;
- with `--timestamp` the bytes are fixed: the second identical send is
  refused as a duplicate (exit 6) and only one moves money.
"""
import os
import time

import genesis as genesis_mod
from framework import ZBC, ZbcTest, assert_equal, assert_true, wait_until

FEE = 2000000


class SameSecond(ZbcTest):
    def run_test(self):
        alice = self.wallet_key("alice")
        bob = self.wallet_key("bob")
        fund = self.wallet_key("apps-fund")
        node = self.add_node()
        key = node.init()
        g = genesis_mod.make_genesis([key], fund, [(alice, 100 * ZBC), (bob, 100 * ZBC)],
                                     block_time_ms=5, smith_delay_ms=5)
        path = os.path.join(self.tmpdir, "genesis.json")
        genesis_mod.write_genesis(path, g)
        node.start(path, extra=["--automine"])

        # a pig seat keeps the turn after a roll of 2-6: roll again at once
        r = self.zbc("app", "create", "pig", "--from", "alice", "--fee", FEE, "--wait")
        app_id = r["app_id"]
        self.zbc("app", "join", app_id, "--from", "bob", "--fee", FEE, "--wait")
        a = self.app_ready(app_id)
        who = {p["seat"]: p["address"] for p in a["players"]}
        names = {s: ("alice" if addr == alice else "bob") for s, addr in who.items()}
        # the seat to move rolls at once, again and again: at least 6 rolls
        # and 3 of them right after the same seat's previous roll
        rolls, again, last = 0, 0, None
        while (rolls < 6 or again < 3) and rolls < 60:
            a = self.app_ready(app_id)
            if a["status"] != "active":
                break
            seat = a["clock"]
            again += seat == last
            last = seat
            self.zbc("app", "move", app_id, "roll", "--from", names[seat], "--fee", FEE, "--wait")
            rolls += 1
        moves = [h for h in self.app(app_id)["history"] if h["kind"] == "app_move"]
        self.log("%d rolls, %d right after the same seat's" % (rolls, again))
        assert_true(again >= 3, "3 rolls right after the same seat's (the dice gave %d in %d)" %
                    (again, rolls))
        assert_equal(len(moves), rolls, "every roll --wait landed (none refused as a duplicate)")

        # automine: blocks come with work, so the clock is in blocks only (it
        # read "in 238 blocks, ≈ 0 s")
        assert_equal(node.info()["automine"], True, "node/info automine")
        show = self.zbc("app", "show", app_id, json_out=False).stdout
        clock = [l for l in show.splitlines() if "deadline block" in l]
        assert_true(len(clock) == 1 and "blocks)" in clock[0] and "\u2248" not in clock[0],
                    "clock line in blocks only: %r" % clock)

        # two sends in one second, no --wait
        b0 = self.balance(bob)
        h1 = self.zbc("send", "bob", "1ZBC", "--from", "alice", "--fee", FEE)["transaction_hash"]
        h2 = self.zbc("send", "bob", "1ZBC", "--from", "alice", "--fee", FEE)["transaction_hash"]
        assert_true(h1 != h2, "two sends are two transactions")
        self.wait_confirmed(h1)
        self.wait_confirmed(h2)
        assert_equal(self.balance(bob), b0 + 2 * ZBC, "both sends moved money")

        # a fixed --timestamp fixes the bytes: the second is a duplicate
        b0 = self.balance(bob)
        ts = str(int(time.time()) - 30)  # no other send of this test has it
        r = self.zbc("send", "bob", "1ZBC", "--from", "alice", "--fee", FEE, "--timestamp", ts,
                     "--wait")
        r2 = self.zbc("send", "bob", "1ZBC", "--from", "alice", "--fee", FEE, "--timestamp", ts,
                      expect=6)
        assert_true("duplicate transaction: already included" in r2["error"], "refusal: %r" % r2)
        assert_equal(self.balance(bob), b0 + 1 * ZBC, "one send with a fixed timestamp")


if __name__ == "__main__":
    SameSecond().main()
