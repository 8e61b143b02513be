#!/usr/bin/env python3
"""The long bot run (not in the normal suite; figures in docs/benchmarks.md,
"Bots"): on a one-node devnet, alice creates GAMES apps (a mix of
tic-tac-toe, connect-4, pig and rock-paper-scissors, at most --parallel at a
time) and two `zbc bot` processes play them, one for alice's seats, one
(bob) joining.  Checked at the end: every app finished, none by a timeout
(no bot let its clock run out), no move or claim of either bot refused,
every app_move in the histories applied (no dice move rejected as
illegal), and the money of the apps went where the results say.

  python3 tests/tools/bot_run.py --build build [--games 100] [--parallel 8]
                                 [--mix tictactoe,connect4,...]  (the games, in turn)
"""
import collections
import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from framework import PASSPHRASE, ZBC, ZbcTest, TestFailure, assert_equal, assert_true  # noqa: E402

FEE = 5_000_000  # the wallet default: covers a battleship commitment (3.36 kB)
MIX = ["tictactoe", "connect4", "tictactoe", "pig", "connect4", "rps"]


def take_opt(name, default):
    if name in sys.argv:
        i = sys.argv.index(name)
        v = int(sys.argv[i + 1])
        del sys.argv[i:i + 2]
        return v
    return default


GAMES = take_opt("--games", 100)
PARALLEL = take_opt("--parallel", 8)
if "--mix" in sys.argv:
    _i = sys.argv.index("--mix")
    MIX = sys.argv[_i + 1].split(",")
    del sys.argv[_i:_i + 2]


class BotRun(ZbcTest):
    def start_bot(self, name, *args):
        cmd = [self.zbc_bin, "bot", "--from", name, "--api", self.nodes[0].api_url,
               "--wallet", self.wallet_dir, "--json", "--fee", str(FEE)] + list(args)
        env = dict(os.environ)
        env["ZBC_PASSPHRASE"] = PASSPHRASE
        env.setdefault("ZBC_WALLET_KDF", "interactive")
        log = open(os.path.join(self.tmpdir, "bot-%s.log" % name), "w+")
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=log, env=env)
        p.logfile = log
        return p

    def finish(self, p, stop):
        if stop:
            p.send_signal(signal.SIGTERM)
        out, _ = p.communicate(timeout=120)
        p.logfile.seek(0)
        return json.loads(out.decode()), p.logfile.read()

    def app(self, app_id):
        st, j = self.nodes[0].get("/api/v1/apps/%s" % app_id)
        assert_equal(st, 200, "GET app %s" % app_id)
        return j

    def run_test(self):
        alice = self.wallet_key("alice")
        bob = self.wallet_key("bob")
        self.start_chain(balances=[(alice, 100000 * ZBC), (bob, 100000 * ZBC)],
                         block_time_ms=500, smith_delay_ms=500)
        t0 = time.time()
        bots = [self.start_bot("alice", "--games", ",".join(sorted(set(MIX))), "--move-ms", "500"),
                self.start_bot("bob", "--games", ",".join(sorted(set(MIX))), "--max-stake", "1ZBC",
                               "--max-games", str(GAMES), "--move-ms", "500")]
        try:
            ids, kinds, live = [], {}, set()
            while len(ids) < GAMES or live:
                for a in list(live):
                    if self.app(a)["status"] in ("finished", "abandoned"):
                        live.discard(a)
                while len(ids) < GAMES and len(live) < PARALLEL:
                    game = MIX[len(ids) % len(MIX)]
                    r = self.zbc("app", "create", game, "--stake", "1ZBC", "--from", "alice",
                                 "--fee", FEE, "--wait=included", timeout=120)
                    ids.append(r["app_id"])
                    kinds[r["app_id"]] = game
                    live.add(r["app_id"])
                if time.time() - t0 > 3600:
                    raise TestFailure("the run took more than an hour")
                time.sleep(2)
            wall = time.time() - t0
            rb, logb = self.finish(bots[1], stop=False)
            ra, loga = self.finish(bots[0], stop=True)
        finally:
            for p in bots:
                if p.poll() is None:
                    p.kill()
        endings = collections.Counter()
        per_game = collections.defaultdict(collections.Counter)
        moves = 0
        for a in ids:
            j = self.app(a)
            assert_equal(j["status"], "finished", "app %s (%s) finished" % (a, kinds[a]))
            ending = j["result"]["ending"]
            assert_true(ending != "timeout", "app %s (%s) ended by a timeout" % (a, kinds[a]))
            for h in j["history"]:
                if h["kind"] == "app_move":
                    moves += 1
                    assert_true("illegal" not in (h.get("reason") or ""), "app %s: %r" % (a, h))
            seat = {p["address"]: p["seat"] for p in j["players"]}
            w = j["result"]["winner"]
            who = "draw" if ending == "draw" else ("alice" if w == seat[alice] else "bob")
            endings[ending] += 1
            per_game[kinds[a]][who] += 1
        refused = [ln for ln in (loga + logb).splitlines() if "refused" in ln or "no move" in ln]
        self.log("refused or undecided: %d\n%s" % (len(refused), "\n".join(refused[:20])))
        assert_equal(refused, [], "no move of either bot refused")
        self.log("BOT RUN: %d games, %d moves applied, %.0f s wall, %d parallel" %
                 (len(ids), moves, wall, PARALLEL))
        self.log("BOT RUN: endings %s" % dict(endings))
        for g, c in sorted(per_game.items()):
            self.log("BOT RUN: %-10s %s" % (g, dict(c)))
        self.log("BOT RUN: alice bot %s" % {k: v for k, v in ra.items() if k != "address"})
        self.log("BOT RUN: bob bot %s" % {k: v for k, v in rb.items() if k != "address"})
        assert_equal(rb["joined"], GAMES, "bob's bot joined every game")


if __name__ == "__main__":
    BotRun().main()
