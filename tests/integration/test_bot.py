#!/usr/bin/env python3
"""zbc bot on a real zbcd (docs/wallet.md "Bot"):
- bad options are usage errors (exit 2) naming the option;
- a bot (bob) joins a tic-tac-toe app alice creates through the wallet,
  answers every turn while alice plays from the app's legal moves, never
  loses, and exits by itself once its one game (--max-games 1) is settled;
  an app above --max-stake is left alone;
- connect-4 and pig bot against bot: carol creates two challenges naming
  dave, dave's bot (told only tic-tac-toe) joins them because they name him,
  carol's bot plays her seats (pig rolls come within a second of each
  other: no transaction is sent twice); the game is settled, every move in its history came from
  the engines' legal moves (the node applied each one), SIGTERM stops
  carol's bot cleanly with its summary;
- against a hostile node (wrong shapes, a state that does not decode, an
  impossible stake, a bad cursor, every transaction refused) the bot logs
  each reply, never sends the same transaction twice and stops cleanly on
  SIGTERM."""
import http.server
import json
import os
import signal
import subprocess
import threading
import time

from framework import PASSPHRASE, ZBC, ZbcTest, assert_equal, assert_true, wait_until

FEE = 2_000_000


class BotTest(ZbcTest):
    def app(self, app_id):
        st, j = self.nodes[0].get("/api/v1/apps/%s" % app_id)
        assert_equal(st, 200, "GET app %s: %r" % (app_id, j))
        return j

    def start_bot(self, name, *args):
        cmd = [self.zbc_bin, "bot", "--from", name, "--api", self.nodes[0].api_url,
               "--wallet", self.wallet_dir, "--json", "--fee", str(FEE)] + list(args)
        env = dict(os.environ)
        for k in ("ZBC_API", "ZBC_KEY", "ZBC_WALLET"):
            env.pop(k, None)
        env["ZBC_PASSPHRASE"] = PASSPHRASE
        env.setdefault("ZBC_WALLET_KDF", "interactive")
        log = open(os.path.join(self.tmpdir, "bot-%s.log" % name), "w+")
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=log, env=env)
        p.logfile = log
        self.bots.append(p)
        return p

    def bot_result(self, p, timeout):
        out, _ = p.communicate(timeout=timeout)
        p.logfile.seek(0)
        log = p.logfile.read()
        self.log("bot log:\n" + log)
        r = json.loads(out.decode())
        return r, log

    def run_test(self):
        self.bots = []
        try:
            self.body()
        finally:
            for p in self.bots:
                if p.poll() is None:
                    p.kill()
                    p.wait()

    def hostile_node(self, bob):
        """A fake node whose replies are wrong in shape or content: the bot
        logs each, keeps polling and stops cleanly on SIGTERM."""
        summary = {"id": "77", "type": 1, "game": "tictactoe", "status": "active", "seats": 2,
                   "seated": 2, "stake": 0, "moves": 0, "created": 1, "clock": 1,
                   "players": [{"seat": 0, "address": "ZBC_X"}, {"seat": 1, "address": bob}]}
        full = dict(summary, state_hex="zz", history=[], result=None)
        # app 76: bob (X, seat 1) has one legal move, 9; the fake node refuses every
        # transaction and its tip jumps 10 blocks a poll, so the bot sends that move
        # again and again: never the same transaction twice (the timestamp is in
        # seconds)
        one_move = dict(summary, id="76", moves=8)
        one_full = dict(one_move, state_hex="01" + "010201010202020100" + "06", history=[],
                        result=None)
        posts, height = [], [5]
        hostile_open = [{"apps": "not a list"},
                        {"apps": [{"id": 5}]},
                        {"apps": [dict(summary, id="78", status="open", stake="-5")]},
                        {"apps": [dict(summary, id="79", status="open", seated=1,
                                       stake=2 ** 64, players=[])]}]
        seen, opens = [], []

        class H(http.server.BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                data = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                posts.append(data)
                body = json.dumps({"success": False, "error": "fake node refuses"}).encode()
                self.send_response(400)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                seen.append(self.path)
                if self.path.startswith("/api/v1/apps?seat="):
                    height[0] += 10
                    body = {"apps": [summary, one_move], "height": height[0],
                            "next_cursor": "x y"}
                elif self.path == "/api/v1/apps/76":
                    body = one_full
                elif self.path == "/api/v1/node/info":
                    body = {"signing_version": 1, "height": height[0]}
                elif self.path.startswith("/api/v1/apps?status=open"):
                    opens.append(1)
                    body = hostile_open[len(opens) % len(hostile_open)]
                elif self.path == "/api/v1/apps/77":
                    body = full
                else:
                    body = "not json {"
                data = (body if isinstance(body, str) else json.dumps(body)).encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        try:
            cmd = [self.zbc_bin, "bot", "--games", "tictactoe", "--from", "bob", "--json",
                   "--api", "http://127.0.0.1:%d" % srv.server_address[1], "--wallet",
                   self.wallet_dir, "--timeout", "5"]
            env = dict(os.environ, ZBC_PASSPHRASE=PASSPHRASE, ZBC_WALLET_KDF="interactive")
            log = open(os.path.join(self.tmpdir, "bot-hostile.log"), "w+")
            p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=log, env=env)
            p.logfile = log
            self.bots.append(p)
            wait_until(lambda: len(opens) >= 8 and len(posts) >= 4, 60,
                       "the bot polls the hostile node and sends its move again")
            p.send_signal(signal.SIGTERM)
            r, text = self.bot_result(p, 60)
        finally:
            srv.shutdown()
        assert_equal((p.returncode, r["success"], r["joined"], r["moves_sent"]), (0, True, 0, 0),
                     "the bot survived the hostile node: %r" % r)
        assert_true("app 77: cannot read its state" in text, "bad state_hex logged")
        assert_true("node: the node's app list" in text, "bad list logged")
        assert_true("skipping an app summary" in text, "bad summary logged")
        assert_true(len(posts) >= 4, "the bot sent its move again: %d" % len(posts))
        assert_equal(len(set(posts)), len(posts), "never the same transaction twice")
        assert_true("app 76 (tictactoe): move 9 refused: " in text, "refusal logged")

    def body(self):
        alice = self.wallet_key("alice")
        bob = self.wallet_key("bob")
        carol = self.wallet_key("carol")
        dave = self.wallet_key("dave")
        self.hostile_node(bob)
        # automine: a block as soon as a move or a first-seat draw waits
        node = self.start_chain(balances=[(a, 1000 * ZBC) for a in (alice, bob, carol, dave)],
                                automine=True)

        # bad options
        for args, word in ((["bot"], "--games"), (["bot", "--games", "nope"], "nope"),
                           (["bot", "--games", "chess", "--level", "6"], "--level"),
                           (["bot", "--games", "chess", "--move-ms", "x"], "--move-ms"),
                           (["bot", "--games", "chess", "--max-stake", "-1"], "--max-stake"),
                           (["bot", "--games", "chess", "extra"], "no arguments")):
            r = self.zbc(*args, "--from", "bob", expect=2)
            assert_true(word in r.json["error"], "usage error names %s: %r" % (word, r))

        # ---- tic-tac-toe: bob's bot against alice through the wallet ----
        app_id = self.zbc("app", "create", "tictactoe", "--stake", "1ZBC", "--from", "alice",
                          "--fee", FEE, "--wait")["app_id"]
        # newer, so listed first: the bot sees it before it has joined its one game
        big = self.zbc("app", "create", "tictactoe", "--stake", "5ZBC", "--from", "alice",
                       "--fee", FEE, "--wait")["app_id"]
        bot = self.start_bot("bob", "--games", "tictactoe", "--max-stake", "1ZBC",
                             "--max-games", "1", "--move-ms", "300")
        a = wait_until(lambda: (lambda a: a if a["clock"] is not None else None)(self.app(app_id)),
                       60, "the bot joined and the first seat was drawn")
        seat_of = {p["address"]: p["seat"] for p in a["players"]}
        assert_equal(sorted(seat_of), sorted([alice, bob]), "seats")
        mine = seat_of[alice]
        while a["status"] == "active":
            if a["clock"] == mine:
                # alice plays the first legal move (a weak but legal player)
                move = a["legal_moves"][0]
                self.zbc("app", "move", app_id, move, "--from", "alice", "--fee", FEE,
                         "--wait=included")
            time.sleep(0.3)
            a = self.app(app_id)
        r, log = self.bot_result(bot, 120)
        assert_equal(bot.returncode, 0, "bot exit")
        assert_equal((r["success"], r["joined"], r["lost"]), (True, 1, 0), "bot summary %r" % r)
        res = a["result"]
        assert_true(res["ending"] in ("win", "draw"), "ending %r" % res)
        if res["ending"] == "win":
            assert_equal(res["winner"], seat_of[bob], "the bot won")
        assert_true("plays" in log and "joining" in log, "one line per decision")
        assert_true("stake 5 ZBC is above --max-stake" in log, "the 5 ZBC app left alone")
        assert_equal(self.app(big)["status"], "open", "the app above --max-stake is still open")

        # ---- connect-4: bot against bot, a challenge naming dave ----
        # and pig at the same time: rolls follow each other within a second
        # (the same move bytes again: the bot must not send a transaction
        # identical to one it sent before)
        c4 = self.zbc("app", "create", "connect4", "--stake", "1ZBC", "--opponent", dave,
                      "--from", "carol", "--fee", FEE, "--wait")["app_id"]
        pig = self.zbc("app", "create", "pig", "--stake", "1ZBC", "--opponent", dave,
                       "--from", "carol", "--fee", FEE, "--wait")["app_id"]
        carol_bot = self.start_bot("carol", "--games", "connect4", "--max-games", "1",
                                   "--move-ms", "300", "--level", "4")
        dave_bot = self.start_bot("dave", "--games", "tictactoe", "--max-stake", "1ZBC",
                                  "--max-games", "2", "--move-ms", "300")
        for app_id, what in ((c4, "connect-4"), (pig, "pig")):
            a = wait_until(lambda: (lambda a: a if a["status"] not in ("active", "open")
                                    else None)(self.app(app_id)), 300, what + " settled")
            assert_equal(a["status"], "finished", what + " finished")
            if app_id == c4:
                moves = [h for h in a["history"] if h["kind"] == "app_move"]
                assert_true(len(moves) >= 7, "at least 7 discs: %d" % len(moves))
                assert_true(all(h["notation"] in list("1234567") for h in moves), "column moves")
        r, log = self.bot_result(dave_bot, 120)
        assert_equal((dave_bot.returncode, r["joined"]), (0, 2), "dave's bot %r" % r)
        assert_true("a challenge naming us" in log, "joined as the designated opponent")
        refused = [ln for ln in log.splitlines() if "refused" in ln]
        assert_equal(refused, [], "no move of dave's bot refused")
        time.sleep(1.5)
        carol_bot.send_signal(signal.SIGTERM)
        r, log = self.bot_result(carol_bot, 60)
        assert_equal(carol_bot.returncode, 0, "carol's bot stops cleanly on SIGTERM")
        assert_true("stopping (signal)" in log, "signal logged")
        assert_equal(r["won"] + r["lost"] + r["drawn"], 2, "carol's bot saw its games end: %r" % r)
        refused = [ln for ln in log.splitlines() if "refused" in ln]
        assert_equal(refused, [], "no move of carol's bot refused")
        node.get("/api/v1/node/info")


if __name__ == "__main__":
    BotTest().main()
