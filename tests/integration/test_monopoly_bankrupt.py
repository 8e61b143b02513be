#!/usr/bin/env python3
"""A bankrupt monopoly seat through the real wallet and node
(docs/protocol-apps.md §2 "ResignApp, Active, by a seat out of play", §3
"Seats out of play"; docs/games.md "Monopoly-lite (type 35)", Params):

- `zbc app create monopoly --seats 3 --params cash=1` on an automine chain
  (`zbcd run --automine`), every seat playing `roll buy` until one seat
  cannot pay a rent or tax.  The dice decide when: a game that has no
  bankrupt seat after MOVES_PER_GAME moves is left and a new one started,
  at most GAMES games, then the test fails saying so (a game of cash=1
  has a bankrupt seat within 60 moves about 5 times in 6);
- the bankrupt seat's `zbc app resign` only leaves play: it pays its fee,
  the app stays active with the whole pot, nobody is paid, the event
  reads "out of play: left", and the next move is still played;
- its `zbc app claim-timeout` is refused with the node's reason, also
  after the deadline;
- the timeout claimed by the other seat in play against the clock holder
  pays the whole pot less the rake to the claimer alone (stake 1 ZBC:
  2.97 ZBC), the bankrupt seat nothing; `zbc verify` replays it.
"""
import json
import os
import time

import genesis as genesis_mod
from framework import ZBC, ZbcTest, assert_equal, assert_true, wait_until

FEE = 2000000
STAKE = 1 * ZBC
DEADLINE = 20
MOVES_PER_GAME = 60
GAMES = 6
NAMES = ["alice", "bob", "carol"]


class MonopolyBankrupt(ZbcTest):
    def mine(self, n):
        with open(os.path.join(self.node.datadir, "api.token")) as f:
            token = f.read().strip()
        st, j = self.node.request("POST", "/api/v1/admin/mine", json.dumps({"blocks": n}),
                                  headers={"X-ZBC-Token": token}, timeout=60)
        assert_equal((st, j.get("mined")), (200, n), "admin/mine %d: %r" % (n, j))

    def players(self, a):
        """{seat: the state's player object (cash, out, ...)}."""
        return {p["seat"]: p for p in a["view"]["players"]}

    def balances(self):
        b = {n: self.balance(self.addr[n]) for n in NAMES}
        b["fund"] = self.balance(self.genesis["fund_account"])
        return b

    def new_game(self):
        r = self.zbc("app", "create", "monopoly", "--seats", "3", "--stake", "1ZBC",
                     "--params", "cash=1", "--from", "alice", "--fee", FEE, "--wait")
        app_id = r["app_id"]
        # an Open app says when it expires (genesis open_deadline 5760)
        show = self.zbc("app", "show", app_id, json_out=False).stdout
        want = "open: expires at block %d (in " % (r["block_height"] + 5760)
        assert_true(want in show and "params: cash=1" in show, "open app show: %r" % show)
        j = self.zbc("app", "join", app_id, "--from", "bob", "--fee", FEE, "--wait",
                     json_out=False).stdout
        assert_true("you are seat 1 of 3: the game starts when 1 more seat is taken" in j,
                    "join text: %r" % j)
        self.zbc("app", "join", app_id, "--from", "carol", "--fee", FEE, "--wait")
        a = self.app_ready(app_id)
        assert_equal(a["params_hex"], "0100", "cash=1 as u16 LE")
        assert_equal([p["cash"] for p in a["view"]["players"]], [1, 1, 1],
                     "every seat starts with the cash param")
        seat_name = {p["seat"]: self.who[p["address"]] for p in a["players"]}
        return app_id, seat_name

    def play_until_bankrupt(self):
        """Plays `roll buy` for the seat to move until a seat is out;
        returns (app id, seat names, the app, the bankrupt seat)."""
        for game in range(GAMES):
            app_id, names = self.new_game()
            for moves in range(MOVES_PER_GAME):
                a = self.app_ready(app_id)
                out = [s for s, p in self.players(a).items() if p["out"]]
                if out:
                    self.log("game %d (app %s): seat %d bankrupt after %d moves" %
                             (game + 1, app_id, out[0], moves))
                    assert_equal(len(out), 1, "one seat out")
                    assert_equal(a["status"], "active", "the game goes on after a bankruptcy")
                    return app_id, names, a, out[0]
                assert_equal(a["status"], "active", "no end before a bankruptcy: %r" % a["result"])
                self.zbc("app", "move", app_id, "roll buy", "--from", names[a["clock"]],
                         "--fee", FEE, "--wait")
            self.log("game %d (app %s): nobody bankrupt after %d moves; a new game" %
                     (game + 1, app_id, MOVES_PER_GAME))
        raise AssertionError("no monopoly seat went bankrupt in %d games of %d moves (cash=1)" %
                             (GAMES, MOVES_PER_GAME))

    def run_test(self):
        self.addr = {n: self.wallet_key(n) for n in NAMES}
        self.who = {a: n for n, a in self.addr.items()}
        fund = self.wallet_key("apps-fund")
        node = self.node = self.add_node()
        key = node.init()
        g = genesis_mod.make_genesis([key], fund, [(self.addr[n], 100 * ZBC) for n in NAMES],
                                     block_time_ms=5, smith_delay_ms=5, move_deadline=DEADLINE)
        self.genesis = g
        path = os.path.join(self.tmpdir, "genesis.json")
        genesis_mod.write_genesis(path, g)
        node.start(path, extra=["--automine"])

        # bad params are refused before anything is sent
        r = self.zbc("app", "create", "monopoly", "--seats", "3", "--params", "cash=0",
                     "--from", "alice", "--fee", FEE, expect=None)
        assert_true(r.code != 0 and "cash" in r.json.get("error", ""), "cash=0 refused: %r" % r)

        app_id, names, a, bust = self.play_until_bankrupt()
        pot = a["pot"]
        assert_equal(pot, 3 * STAKE, "the pot before the bankrupt seat leaves")

        # the bankrupt seat's resign only leaves play
        before = self.balances()
        r = self.zbc("app", "resign", app_id, "--from", names[bust], "--fee", FEE, "--wait",
                     json_out=False)
        assert_true("you left play in app %s: your seat was already out of play, so no money "
                    "moves and the game goes on" % app_id in r.stdout, "resign text: %r" % r)
        a = self.app_ready(app_id)
        assert_equal((a["status"], a["pot"], a["result"]), ("active", pot, None),
                     "after the bankrupt seat's resign: still active, the whole pot, no result")
        left = [h for h in a["history"] if h["kind"] == "app_resign"]
        assert_equal(len(left), 1, "one app_resign event")
        assert_equal((left[0]["seat"], left[0]["reason"]), (bust, "out of play: left"),
                     "the resign event")
        assert_equal([h for h in a["history"] if h["kind"] in ("app_payout", "app_rake", "app_end")],
                     [], "no payout, no rake, no end")
        after = self.balances()
        want = dict(before)
        want[names[bust]] -= FEE
        assert_equal(after, want, "balances: the bankrupt seat paid its fee, nothing else moved")

        # the game goes on: the seat to move plays once more
        moves = a["moves"]
        self.zbc("app", "move", app_id, "roll buy", "--from", names[a["clock"]], "--fee", FEE,
                 "--wait")
        a = self.app_ready(app_id)
        assert_equal(a["moves"], moves + 1, "a move after the bankrupt seat left")
        if a["status"] == "finished":
            # that move put the second seat out: the last one standing won
            self.log("the move after the resign ended the game; checking its win")
            res = a["result"]
            assert_equal(res["outcome"], "win", "last seat standing")
            assert_true(res["winner"] != bust, "the bankrupt seat is not the winner")
            assert_equal([p["amount"] for p in res["paid"] if p["seat"] != res["winner"]], [0, 0],
                         "only the winner is paid")
            assert_equal(self.zbc("verify", app_id)["verified"], True, "verify")
            return

        # its timeout claim is refused with the reason, also after the deadline
        holder = a["clock"]
        claimer = [s for s in range(3) if s not in (bust, holder)][0]
        self.mine(a["deadline"] + 1 - node.height())
        want_reason = "seat %d is out of app %s: it cannot claim a timeout" % (bust, app_id)
        r = self.zbc("app", "claim-timeout", app_id, "--from", names[bust], "--fee", FEE,
                     expect=None)
        assert_true(r.code != 0 and want_reason in r.json.get("error", ""),
                    "the bankrupt seat's claim refused with the reason: %r" % r)
        text = self.zbc("app", "claim-timeout", app_id, "--from", names[bust], "--fee", FEE,
                        expect=r.code, json_out=False)
        assert_true(want_reason in text.stderr, "the refusal in text: %r" % text)
        assert_equal(self.app(app_id)["status"], "active", "a refused claim changes nothing")

        # the final split excludes the bankrupt seat: pot 3 ZBC, rake 1 % = 0.03 ZBC,
        # 2.97 ZBC to the one other seat in play
        before = self.balances()
        self.zbc("app", "claim-timeout", app_id, "--from", names[claimer], "--fee", FEE, "--wait")
        a = self.app(app_id)
        res = a["result"]
        rake = 3 * STAKE // 100
        assert_equal(rake, 3000000, "rake")
        assert_equal((a["status"], a["pot"], res["outcome"], res["timed_out"], res["winner"],
                      res["winners"], res["out"], res["rake"]),
                     ("finished", 0, "timeout", holder, claimer, [claimer], [bust], rake),
                     "result of the timeout with a bankrupt seat")
        assert_equal([(p["seat"], p["amount"]) for p in res["paid"]],
                     sorted([(bust, 0), (holder, 0), (claimer, 297000000)]), "paid per seat")
        after = self.balances()
        want = dict(before)
        want[names[claimer]] += 297000000 - FEE
        want["fund"] += rake
        assert_equal(after, want, "balances after the split")
        show = self.zbc("app", "show", app_id, json_out=False)
        self.log("zbc app show:\n" + show.stdout)
        assert_true("2.97 ZBC" in show.stdout, "app show names the amount in ZBC: %r" % show.stdout)
        assert_equal(self.zbc("verify", app_id)["verified"], True, "verify the bankrupt game")


if __name__ == "__main__":
    MonopolyBankrupt().main()
