#!/usr/bin/env python3
"""App lifecycle through the wallet on a real zbcd (genesis move_deadline
6): resign while Open refunds the stake; resign while Active splits pot -
rake to the other seat; a timeout claim before the deadline is refused with
its reason, at deadline + 1 it pays; battleship: the wallet places and
commits both fleets, shots are answered by `zbc app watch --auto-reveal`
and by an explicit `reveal fire`; rock-paper-scissors commit/reveal from
the wallet's secret file; every refusal surfaces with its exit code."""
import os
import signal
import subprocess

from framework import PASSPHRASE, ZBC, ZbcTest, assert_equal, assert_true, wait_until

FEE = 2_000_000
DEADLINE = 6
BIG_FEE = 5_000_000  # battleship commitments are 3.2 kB


class Lifecycle(ZbcTest):
    def app(self, app_id):
        st, j = self.nodes[0].get("/api/v1/apps/%s" % app_id)
        assert_equal(st, 200, "GET app %s" % app_id)
        return j

    def started(self, app_id):
        return wait_until(lambda: (lambda a: a if a["clock"] is not None else None)(self.app(app_id)),
                          30, "app %s has a clock holder" % app_id)

    def names(self, a):
        return {p["seat"]: self.who[p["address"]] for p in a["players"]}

    def game(self, game, creator, joiner, stake="2ZBC", wait_start=True):
        r = self.zbc("app", "create", game, "--stake", stake, "--from", creator, "--fee", FEE, "--wait")
        app_id = r["app_id"]
        self.zbc("app", "join", app_id, "--from", joiner, "--fee", FEE, "--wait")
        return app_id, (self.started(app_id) if wait_start else self.app(app_id))

    def watcher(self, app_id, name):
        env = dict(os.environ)
        for k in ("ZBC_API", "ZBC_KEY", "ZBC_TIMEOUT", "ZOOBC_GENESIS_HASH", "ZBC_WALLET"):
            env.pop(k, None)
        env["ZBC_PASSPHRASE"] = PASSPHRASE
        env["ZBC_WALLET_KDF"] = "interactive"
        log = open(os.path.join(self.tmpdir, "watch-%s.log" % name), "wb")
        return subprocess.Popen([self.zbc_bin, "app", "watch", app_id, "--auto-reveal", "--from", name,
                                 "--fee", str(FEE), "--api", self.nodes[0].api_url, "--wallet",
                                 self.wallet_dir], stdout=log, stderr=subprocess.STDOUT, env=env)

    def reveal_due(self, app_id):
        """The watcher reveals alone when 3 blocks are left before the
        deadline (docs/wallet.md "Battleship"): those blocks are mined."""
        self.mine_to(self.app(app_id)["deadline"] - 3)

    def resigns(self, alice, bob):
        fund = self.genesis["fund_account"]
        # Open: the creator leaves, stake refunded, abandoned
        b0 = self.balance(alice)
        r = self.zbc("app", "create", "chess", "--stake", "3ZBC", "--from", "alice", "--fee", FEE, "--wait")
        app_id = r["app_id"]
        self.zbc("app", "resign", app_id, "--from", "alice", "--fee", FEE, "--wait")
        a = self.app(app_id)
        assert_equal((a["status"], a["pot"], a["seated"]), ("abandoned", 0, 0), "abandoned")
        assert_equal(self.balance(alice), b0 - 2 * FEE, "open resign refunds the stake")
        r = self.zbc("app", "join", app_id, "--from", "bob", "--fee", FEE, expect=6)
        assert_true("abandoned" in r.stderr, "join abandoned: %r" % r)
        # Active: pot - rake to the other seat
        app_id, a = self.game("connect4", "alice", "bob", stake="4ZBC")
        ba, bb, bf = self.balance(alice), self.balance(bob), self.balance(fund)
        self.zbc("app", "resign", app_id, "--from", "alice", "--fee", FEE, "--wait")
        a = self.app(app_id)
        rake = 8 * ZBC * 100 // 10000
        res = a["result"]
        assert_equal((a["status"], res["outcome"], res["winner_address"], res["resigned_address"]),
                     ("finished", "resign", bob, alice),
                     "active resign: the other seat is the winner, the resigner named as such")
        assert_equal(self.balance(alice), ba - FEE, "resigner pays the fee only")
        assert_equal(self.balance(bob), bb + 8 * ZBC - rake, "the other seat gets pot - rake")
        assert_equal(self.balance(self.genesis["fund_account"]), bf + rake, "rake")
        self.zbc("verify", app_id)
        w = self.zbc("app", "watch", app_id)  # a finished app: one view, then done
        assert_equal((w["status"], w["app"]["ending"]), ("finished", "resign"), "watch of a finished app")
        # a direct challenge: only the designated opponent may join
        r = self.zbc("app", "create", "reversi", "--stake", "1ZBC", "--opponent", bob, "--from", "alice",
                     "--fee", FEE, "--wait")
        duel = r["app_id"]
        assert_equal(self.app(duel)["opponent"], bob, "designated opponent in the view")
        r = self.zbc("app", "join", duel, "--from", "carol", "--fee", FEE, expect=6)
        assert_true("designated" in r.stderr, "reserved: %r" % r)
        self.zbc("app", "join", duel, "--from", "bob", "--fee", FEE, "--wait")
        assert_equal(self.app(duel)["status"], "active", "the opponent joined")
        mine = self.zbc("app", "create", "chess", "--stake", "1ZBC", "--from", "carol", "--fee", FEE,
                        "--wait")["app_id"]
        assert_equal([x["id"] for x in self.zbc("app", "list", "--open")["apps"]], [mine], "list --open")
        assert_equal(self.zbc("app", "list", "--open", "--game", "gomoku")["apps"], [], "no open gomoku")
        # refusals: join a full app, join twice, unknown app, move in a finished app
        app2, a = self.game("gomoku", "bob", "alice", wait_start=False)
        r = self.zbc("app", "join", app2, "--from", "carol", "--fee", FEE, expect=6)
        assert_true("is full" in r.stderr, "full: %r" % r)
        r = self.zbc("app", "join", "99999", "--from", "carol", "--fee", FEE, expect=7)
        assert_true("unknown app" in r.stderr, "unknown app: %r" % r)
        r = self.zbc("app", "move", app_id, "4", "--from", "bob", "--fee", FEE, expect=6)
        assert_true("finished" in r.stderr, "finished: %r" % r)
        r = self.zbc("app", "create", "chess", "--stake", "5000ZBC", "--from", "carol", "--fee", FEE,
                     expect=4)
        assert_true("insufficient balance" in r.stderr, "insufficient: %r" % r)
        self.started(app2)
        self.zbc("app", "move", app2, "z99", "--from", "bob", expect=2)  # notation the engine rejects
        self.zbc("app", "move", app2, "h8", "--from", "carol", expect=6)  # not seated
        # wallet-side usage errors (exit 2), before anything is sent
        for args in (("app", "move", app2, "x" * 9000), ("app", "create", "tictactoe", "--seats", "3"),
                     ("app", "create", "tictactoe", "--stake", "lots"),
                     ("app", "create", "dots", "--params", "depth=3"),
                     ("app", "create", "battleship", "--board", "A1,A2"),
                     ("app", "show", "abc"), ("app", "watch"), ("verify", "abc"), ("app", "list", "x"),
                     ("app", "list", "--game", "poker"), ("app", "claim-timeout")):
            self.zbc(*args, "--from", "bob", expect=2)
        self.zbc("verify", "424242", expect=7)

    def timeout(self, alice, bob):
        app_id, a = self.game("tictactoe", "alice", "bob")
        names = self.names(a)
        holder, other = a["clock"], 1 - a["clock"]
        r = self.zbc("app", "claim-timeout", app_id, "--from", names[other], "--fee", FEE, expect=6)
        assert_true("deadline not passed" in r.stderr, "early claim reason: %r" % r)
        r = self.zbc("app", "claim-timeout", app_id, "--from", names[holder], "--fee", FEE, expect=6)
        assert_true("holds the clock" in r.stderr, "holder claim reason: %r" % r)
        # the clock holder's empty move pushes the deadline move_deadline blocks ahead
        r = self.zbc("app", "move", app_id, "keep-alive", "--from", names[holder], "--fee", FEE, "--wait")
        a = self.app(app_id)
        assert_equal(a["deadline"], r["block_height"] + DEADLINE, "keep-alive deadline")
        assert_equal(a["history"][-1]["kind"], "app_keepalive", "keep-alive in the history")
        deadline = a["deadline"]
        self.mine_to(deadline)  # automine: the deadline's blocks on request
        a = self.app(app_id)
        assert_equal(a["timeout_claimable"], True, "claimable at the deadline")
        addr = {n: a for a, n in self.who.items()}
        before = self.balance(addr[names[other]])
        r = self.zbc("app", "claim-timeout", app_id, "--from", names[other], "--fee", FEE, "--wait")
        assert_true(r["block_height"] >= deadline + 1, "claim included after the deadline")
        a = self.app(app_id)
        rake = 4 * ZBC * 100 // 10000
        res = a["result"]
        assert_equal((a["status"], res["outcome"], res["winner"], res["timed_out"]),
                     ("finished", "timeout", other, holder),
                     "timeout: the claimer wins, the clock holder timed out")
        assert_equal(self.balance(addr[names[other]]), before - FEE + 4 * ZBC - rake, "claimer paid")
        self.zbc("verify", app_id)

    def battleship(self, alice, bob):
        # a 3357-byte CreateApp needs more than FEE: fee_too_low (5) with the minimum in the text
        r = self.zbc("app", "create", "battleship", "--stake", "1ZBC", "--from", "alice", "--fee", FEE,
                     expect=5)
        assert_true("fee too low" in r.stderr, "fee too low: %r" % r)
        r = self.zbc("app", "create", "battleship", "--stake", "1ZBC", "--from", "alice", "--fee",
                     BIG_FEE, "--wait")
        app_id = r["app_id"]
        secret = os.path.join(self.wallet_dir, "apps", "%s-%s.json" % (app_id, alice))
        assert_true(os.path.exists(secret), "creator's board kept in the wallet")
        mode = os.stat(secret).st_mode & 0o777
        assert_equal(mode, 0o600, "secret file mode")
        self.zbc("app", "join", app_id, "--from", "bob", "--fee", FEE, "--wait")
        a = self.app(app_id)
        assert_equal((a["status"], a["clock"], a["first_turn_pending"]), ("active", 1, False),
                     "the joiner holds the clock at once")
        self.zbc("app", "move", app_id, "commit", "--from", "bob", "--fee", BIG_FEE, "--wait")
        w = self.watcher(app_id, "bob")
        try:
            self.zbc("app", "move", app_id, "fire", "A1", "--from", "alice", "--fee", FEE, "--wait")
            self.reveal_due(app_id)
            a = wait_until(lambda: (lambda a: a if a["clock"] == 1 and a["moves"] >= 3 else None)(
                self.app(app_id)), 30, "bob's auto-reveal of A1")
            self.zbc("app", "move", app_id, "fire", "J10", "--from", "bob", "--fee", FEE, "--wait")
            self.zbc("app", "move", app_id, "reveal", "fire", "C3", "--from", "alice", "--fee", FEE,
                     "--wait")
            self.reveal_due(app_id)
            a = wait_until(lambda: (lambda a: a if a["moves"] >= 6 else None)(self.app(app_id)), 30,
                           "bob's auto-reveal of C3")
        finally:
            w.send_signal(signal.SIGTERM)
            w.wait(timeout=10)
        notes = [h["notation"] for h in a["history"] if h["kind"] == "app_move"]
        self.log("battleship moves: %s" % [n if n is None or len(n) < 40 else n[:20] + "..." for n in notes])
        assert_equal(len(notes), 6, "commit, fire, reveal, fire, reveal+fire, reveal")
        assert_equal(a["status"], "active", "battleship still running")
        self.zbc("verify", app_id)

    def rps(self, alice, bob):
        app_id, a = self.game("rps", "alice", "bob", stake="1ZBC")
        names = self.names(a)
        for _ in range(2):
            a = self.started(app_id)
            s = a["clock"]
            self.zbc("app", "move", app_id, "commit", "rock" if names[s] == "alice" else "scissors",
                     "--from", names[s], "--fee", FEE, "--wait")
        for _ in range(2):
            a = self.started(app_id)
            self.zbc("app", "move", app_id, "reveal", "--from", names[a["clock"]], "--fee", FEE, "--wait")
        a = self.app(app_id)
        assert_equal((a["status"], a["ending"], a["result"]["winner_address"]), ("finished", "win", alice),
                     "rock beats scissors")
        self.zbc("verify", app_id)

    def run_test(self):
        alice = self.wallet_key("alice")
        bob = self.wallet_key("bob")
        carol = self.wallet_key("carol")
        self.who = {alice: "alice", bob: "bob", carol: "carol"}
        self.start_chain(balances=[(alice, 1000 * ZBC), (bob, 1000 * ZBC), (carol, 1000 * ZBC)],
                         automine=True, move_deadline=DEADLINE)
        self.resigns(alice, bob)
        self.timeout(alice, bob)
        self.rps(alice, bob)
        self.battleship(alice, bob)


if __name__ == "__main__":
    Lifecycle().main()
