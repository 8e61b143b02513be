#!/usr/bin/env python3
"""App results through the wallet on a real zbcd (docs/protocol-apps.md §3,
docs/api.md §10): a 3-seat pig game settled by a timeout claim and a 4-seat
pig game settled by a resign, each with the exact amounts paid, the loser
named as such and never as the winner (result, list summary, app_end
event), `zbc verify` agreeing and refusing a doctored amount or winner; an
Open app nobody fills expires after open_deadline blocks with every stake
refunded and no rake.  A bankrupt monopoly seat's resign cannot be reached
by real play in a test's time (1500 cash each, rents of at most 200): it is
pinned at chain level (tests/consensus/test_apps_results.c:test_out_seats)."""
from doctor_proxy import DoctorProxy
from framework import ZBC, ZbcTest, assert_equal, assert_true, wait_until

FEE = 2_000_000
DEADLINE = 4       # move_deadline: claims four blocks after the last move
OPEN_DEADLINE = 8  # an Open app expires 8 blocks after its creation


class AppResults(ZbcTest):
    def started(self, app_id):
        return wait_until(lambda: (lambda a: a if a["clock"] is not None and not a["has_pending"]
                                   else None)(self.app(app_id)), 30, "app %s clock" % app_id)

    def seated_game(self, seats, stake):
        names = ["alice", "bob", "carol", "dave"][:seats]
        r = self.zbc("app", "create", "pig", "--seats", str(seats), "--stake", stake,
                     "--from", names[0], "--fee", FEE, "--wait")
        app_id = r["app_id"]
        for n in names[1:]:
            self.zbc("app", "join", app_id, "--from", n, "--fee", FEE, "--wait")
        a = self.started(app_id)
        seat_name = {p["seat"]: self.who[p["address"]] for p in a["players"]}
        return app_id, a, seat_name

    def end_event(self, a):
        ends = [h for h in a["history"] if h["kind"] == "app_end"]
        assert_equal(len(ends), 1, "one app_end event")
        return ends[0]

    def verify_refuses(self, app_id, edit, what):
        def doctor(app):
            if isinstance(app.get("result"), dict):
                edit(app["result"])
        with DoctorProxy(self.nodes[0].api_url, doctor) as url:
            r = self.zbc("verify", app_id, "--api", url, expect=10)
            assert_equal(r["error_class"], "verify_failed", "verify refuses %s" % what)

    def three_seat_timeout(self):
        fund = self.genesis["fund_account"]
        app_id, a, names = self.seated_game(3, "3ZBC")
        # the first mover rolls once (a dice move: stored, rolled at the next block)
        holder = a["clock"]
        self.zbc("app", "move", app_id, "roll", "--from", names[holder], "--fee", FEE, "--wait")
        a = self.started(app_id)
        holder = a["clock"]
        claimer = (holder + 1) % 3
        self.nodes[0].wait_for_height(a["deadline"])
        before = {s: self.balance(self.addr[names[s]]) for s in range(3)}
        f0 = self.balance(fund)
        self.zbc("app", "claim-timeout", app_id, "--from", names[claimer], "--fee", FEE, "--wait")
        a = self.app(app_id)
        res = a["result"]
        # pot 9 ZBC, rake 1 % = 0.09 ZBC, 8.91 ZBC shared by the two other seats
        rake = 9 * ZBC // 100
        share = (9 * ZBC - rake) // 2
        others = sorted(s for s in range(3) if s != holder)
        assert_equal((res["outcome"], res["ending"], res["timed_out"], res["resigned"], res["winner"],
                      res["winner_address"], res["winners"], res["rake"]),
                     ("timeout", "timeout", holder, None, None, None, others, rake),
                     "3-seat timeout result")
        assert_equal(res["timed_out_address"], self.addr[names[holder]], "timed-out address")
        assert_equal([(p["seat"], p["amount"]) for p in res["paid"]],
                     [(s, 0 if s == holder else share) for s in range(3)], "paid per seat")
        assert_true("timed out" in res["reason"] and "share the pot" in res["reason"],
                    "reason: %r" % res["reason"])
        for s in range(3):
            want = before[s] + (0 if s == holder else share) - (FEE if s == claimer else 0)
            assert_equal(self.balance(self.addr[names[s]]), want, "balance of seat %d" % s)
        assert_equal(self.balance(fund), f0 + rake, "rake to the fund")
        ev = self.end_event(a)
        assert_equal((ev["outcome"], ev["winner"], ev["timed_out"], ev["resigned"]),
                     ("timeout", None, holder, None), "app_end event view")
        st, lst = self.nodes[0].get("/api/v1/apps?limit=100")
        assert_equal(st, 200, "GET /api/v1/apps")
        summary = [x for x in lst["apps"] if str(x["id"]) == str(app_id)]
        assert_equal(summary[0]["outcome"], "timeout", "list summary outcome")
        v = self.zbc("verify", app_id)
        assert_equal(v["verified"], True, "verify 3-seat timeout")

        def more(r):
            r["paid"][others[0]]["amount"] += 1
        self.verify_refuses(app_id, more, "a doctored paid amount")

        def loser_wins(r):
            r["winner"] = holder
        self.verify_refuses(app_id, loser_wins, "the loser named winner")

    def four_seat_resign(self):
        app_id, a, names = self.seated_game(4, "1ZBC")
        # every seat moves once: roll, or hold after a roll that kept the turn
        for _ in range(4):
            a = self.started(app_id)
            mover = a["clock"]
            move = "hold" if "hold" in a.get("legal_moves", []) else "roll"
            self.zbc("app", "move", app_id, move, "--from", names[mover], "--fee", FEE, "--wait")
        a = self.started(app_id)
        quitter = (a["clock"] + 1) % 4  # resigning does not need the clock
        before = {s: self.balance(self.addr[names[s]]) for s in range(4)}
        self.zbc("app", "resign", app_id, "--from", names[quitter], "--fee", FEE, "--wait")
        a = self.app(app_id)
        res = a["result"]
        # pot 4 ZBC, rake 0.04 ZBC, 3.96 ZBC = 3 x 1.32 ZBC
        rake = 4 * ZBC // 100
        share = (4 * ZBC - rake) // 3
        others = [s for s in range(4) if s != quitter]
        assert_equal((res["outcome"], res["resigned"], res["timed_out"], res["winner"], res["winners"],
                      res["rake"], res["out"]),
                     ("resign", quitter, None, None, others, rake, []), "4-seat resign result")
        assert_equal(res["resigned_address"], self.addr[names[quitter]], "resigned address")
        assert_equal([p["amount"] for p in res["paid"]],
                     [0 if s == quitter else share for s in range(4)], "paid per seat")
        for s in range(4):
            want = before[s] + (0 if s == quitter else share) - (FEE if s == quitter else 0)
            assert_equal(self.balance(self.addr[names[s]]), want, "balance of seat %d" % s)
        ev = self.end_event(a)
        assert_equal((ev["outcome"], ev["winner"], ev["resigned"]), ("resign", None, quitter),
                     "app_end event view")
        assert_equal(self.zbc("verify", app_id)["verified"], True, "verify 4-seat resign")

    def expiry(self):
        b0 = {n: self.balance(self.addr[n]) for n in ("alice", "bob")}
        r = self.zbc("app", "create", "pig", "--seats", "3", "--stake", "2ZBC", "--from", "alice",
                     "--fee", FEE, "--wait")
        app_id, created = r["app_id"], r["block_height"]
        self.zbc("app", "join", app_id, "--from", "bob", "--fee", FEE, "--wait")
        self.nodes[0].wait_for_height(created + OPEN_DEADLINE)
        a = wait_until(lambda: (lambda a: a if a["status"] == "abandoned" else None)(self.app(app_id)),
                       30, "the open app expires")
        res = a["result"]
        assert_equal((a["ended"], a["pot"], res["outcome"], res["winner"], res["winners"], res["rake"]),
                     (created + OPEN_DEADLINE, 0, "expired", None, [], 0), "expired result")
        assert_equal([p["amount"] for p in res["paid"]], [2 * ZBC, 2 * ZBC], "every stake back")
        assert_equal([(p["reason"], p["amount"]) for p in res["payouts"]],
                     [("expired", 2 * ZBC), ("expired", 2 * ZBC)], "expiry payouts")
        assert_equal(self.balance(self.addr["alice"]), b0["alice"] - FEE, "creator: fee only")
        assert_equal(self.balance(self.addr["bob"]), b0["bob"] - FEE, "joiner: fee only")
        assert_equal(self.end_event(a)["outcome"], "expired", "app_end event view")
        r = self.zbc("app", "join", app_id, "--from", "carol", "--fee", FEE, expect=6)
        assert_true("expired at height %d" % (created + OPEN_DEADLINE) in r.stderr,
                    "joining an expired app: %r" % r)
        assert_equal(self.zbc("verify", app_id)["verified"], True, "verify an expiry")

    def run_test(self):
        names = ["alice", "bob", "carol", "dave"]
        self.addr = {n: self.wallet_key(n) for n in names}
        self.who = {a: n for n, a in self.addr.items()}
        self.start_chain(balances=[(self.addr[n], 100 * ZBC) for n in names],
                         move_deadline=DEADLINE, open_deadline=OPEN_DEADLINE)
        info = self.nodes[0].info()
        assert_equal(info["open_deadline"], OPEN_DEADLINE, "node/info shows open_deadline")
        self.expiry()
        self.three_seat_timeout()
        self.four_seat_resign()


if __name__ == "__main__":
    AppResults().main()
