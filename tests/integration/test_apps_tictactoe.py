#!/usr/bin/env python3
"""Tic-tac-toe between two wallets on a real zbcd: a win with exact pot,
rake and payout balances; a draw refunds both stakes; the app API (list,
show, history with notation, result); the app's SSE stream delivers its
events; `zbc verify` replays the game; refusals surface with their exit
codes (a move out of turn, a move on a taken square, an unknown app)."""
import json
import socket
import threading

from framework import ZBC, ZbcTest, assert_equal, assert_true, wait_until

FEE = 2_000_000
STAKE = 10 * ZBC


class SseReader(threading.Thread):
    """Reads GET /api/v1/apps/<id>/events?from_height=0 into a list."""

    def __init__(self, port, path):
        super().__init__(daemon=True)
        self.port, self.path = port, path
        self.events = []
        self.header = b""
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=60)
        self.sock.sendall(("GET %s HTTP/1.0\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n"
                           % path).encode())

    def run(self):
        buf = b""
        try:
            while True:
                d = self.sock.recv(4096)
                if not d:
                    return
                buf += d
                while b"\n\n" in buf:
                    msg, buf = buf.split(b"\n\n", 1)
                    if msg.startswith(b"HTTP/"):
                        self.header = msg
                        continue
                    fields = {}
                    for line in msg.decode().split("\n"):
                        if line.startswith(":") or ":" not in line:
                            continue
                        k, v = line.split(":", 1)
                        fields[k] = v.strip()
                    if "data" in fields:
                        self.events.append(fields)
        except OSError:
            return

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


class TicTacToe(ZbcTest):
    def app(self, app_id):
        st, j = self.nodes[0].get("/api/v1/apps/%s" % app_id)
        assert_equal(st, 200, "GET app %s: %r" % (app_id, j))
        return j

    def started(self, app_id):
        return wait_until(lambda: (lambda a: a if a["clock"] is not None else None)(self.app(app_id)),
                          30, "app %s first seat drawn" % app_id)

    def open_game(self, creator, joiner):
        r = self.zbc("app", "create", "tictactoe", "--stake", "10ZBC", "--from", creator,
                     "--fee", FEE, "--wait")
        app_id = r["app_id"]
        self.log("app %s created by %s at block %d" % (app_id, creator, r["block_height"]))
        a = self.app(app_id)
        assert_equal((a["status"], a["game"], a["type"], a["seated"], a["pot"]),
                     ("open", "tictactoe", 1, 1, STAKE), "open app")
        j = self.zbc("app", "join", app_id, "--from", joiner, "--fee", FEE, "--wait")
        a = self.app(app_id)
        assert_equal((a["status"], a["seated"], a["pot"], a["first_turn_pending"], a["joined"]),
                     ("active", 2, 2 * STAKE, True, j["block_height"]), "after the join")
        # first turn pending: a move is refused with the reason
        m = self.zbc("app", "move", app_id, "5", "--from", creator, "--fee", FEE, expect=6)
        assert_true("first turn" in m.stderr or "first" in json.dumps(m.json), "first-turn refusal %r" % m)
        a = self.started(app_id)
        assert_equal(a["history"][-1]["kind"], "app_activate", "activation in the history")
        assert_equal(a["history"][-1]["height"], a["joined"] + 2, "first seat drawn at J+2")
        return app_id, a

    def play(self, app_id, names, cells):
        """names[seat] = wallet key name; cells played in order by whoever
        holds the clock."""
        for cell in cells:
            a = self.app(app_id)
            seat = a["clock"]
            self.zbc("app", "move", app_id, cell, "--from", names[seat], "--fee", FEE, "--wait")
        return self.app(app_id)

    def run_test(self):
        alice = self.wallet_key("alice")
        bob = self.wallet_key("bob")
        node = self.start_chain(balances=[(alice, 1000 * ZBC), (bob, 1000 * ZBC)])
        fund = self.genesis["fund_account"]
        fund0 = self.balance(fund)

        # unknown app: 404 "unknown app", wallet exit 7
        st, j = node.get("/api/v1/apps/12345")
        assert_equal((st, j["success"], j["error"]), (404, False, "unknown app"), "unknown app")
        self.zbc("app", "show", "12345", expect=7)

        app_id, a = self.open_game("alice", "bob")
        sse = SseReader(node.api_port, "/api/v1/apps/%s/events?from_height=0" % app_id)
        sse.start()
        names = {}
        for p in a["players"]:
            names[p["seat"]] = "alice" if p["address"] == alice else "bob"
        x = a["clock"]
        o = 1 - x
        # out of turn: rejected (exit 6) with the engine's reason
        r = self.zbc("app", "move", app_id, "1", "--from", names[o], "--fee", FEE, expect=6)
        assert_true("turn" in r.stderr, "out-of-turn reason: %r" % r)
        before = {alice: self.balance(alice), bob: self.balance(bob)}
        # X: 1, O: 4, X: 2, O: 5, X: 3 -> X wins on the top row
        self.zbc("app", "move", app_id, "1", "--from", names[x], "--fee", FEE, "--wait")
        r = self.zbc("app", "move", app_id, "1", "--from", names[o], "--fee", FEE, expect=6)
        assert_true("taken" in r.stderr, "taken square reason: %r" % r)
        a = self.play(app_id, names, ["4", "2", "5", "3"])
        assert_equal((a["status"], a["ending"]), ("finished", "win"), "game over")
        res = a["result"]
        pot = 2 * STAKE
        rake = pot * 100 // 10000
        assert_equal((res["winner"], res["rake"]), (x, rake), "winner and rake")
        winner_addr = alice if names[x] == "alice" else bob
        loser_addr = bob if winner_addr == alice else alice
        assert_equal(res["winner_address"], winner_addr, "winner address")
        assert_equal([(p["address"], p["amount"]) for p in res["payouts"]], [(winner_addr, pot - rake)],
                     "payouts")
        assert_equal(a["pot"], 0, "pot emptied")
        # winner moved 2 more times after `before` (3 X moves total, one already counted? no: before
        # was taken before X's first move) -> X paid 3 fees, O paid 2 fees
        assert_equal(self.balance(winner_addr), before[winner_addr] - 3 * FEE + pot - rake,
                     "winner balance")
        assert_equal(self.balance(loser_addr), before[loser_addr] - 2 * FEE, "loser balance")
        assert_equal(self.balance(fund), fund0 + rake, "rake to the apps fund")
        moves = [h for h in a["history"] if h["kind"] == "app_move"]
        assert_equal([h["notation"] for h in moves], ["1", "4", "2", "5", "3"], "history notation")
        assert_equal([h["move_hex"] for h in moves], ["00", "03", "01", "04", "02"], "history bytes")
        assert_true(all(len(h["tx_hash"]) == 64 for h in moves), "move tx hashes")
        assert_true(isinstance(a["view"], dict) and "X" in a["board"], "view and board")
        v = self.zbc("verify", app_id)
        assert_equal(v["verified"], True, "zbc verify")
        show = self.zbc("app", "show", app_id, json_out=False)
        assert_true("result: seat %d (%s) won " % (x, winner_addr) in show.stdout,
                    "show text:\n" + show.stdout)

        # the stream delivered this app's events, in order, with resumable ids
        wait_until(lambda: any(e.get("event") == "app_end" for e in sse.events), 15, "app_end on the stream")
        sse.close()
        kinds = [e["event"] for e in sse.events]
        assert_equal(kinds[0], "app_create", "first streamed event")
        assert_true(kinds.count("app_move") == 5 and "app_payout" in kinds and "app_rake" in kinds,
                    "streamed kinds %r" % kinds)
        assert_true(b"text/event-stream" in sse.header, "content type %r" % sse.header)
        for e in sse.events:
            d = json.loads(e["data"])
            assert_equal(int(d["ref"]), int(app_id), "event ref (a string above 2^63-1)")
            assert_equal(e["id"], "%d-%d" % (d["height"], d["index"]), "event id")

        # a draw refunds both stakes, no rake
        app2, a = self.open_game("bob", "alice")
        names = {}
        for p in a["players"]:
            names[p["seat"]] = "alice" if p["address"] == alice else "bob"
        before = {alice: self.balance(alice), bob: self.balance(bob)}
        fund1 = self.balance(fund)
        # X 1, O 2, X 3, O 5, X 4, O 6, X 8, O 7, X 9: no line
        a = self.play(app2, names, ["1", "2", "3", "5", "4", "6", "8", "7", "9"])
        assert_equal((a["status"], a["ending"], a["result"]["rake"]), ("finished", "draw", 0), "draw")
        xs = names[a["history"][[h["kind"] for h in a["history"]].index("app_activate")]["seat"]]
        x_addr = alice if xs == "alice" else bob
        o_addr = bob if x_addr == alice else alice
        assert_equal(self.balance(x_addr), before[x_addr] - 5 * FEE + STAKE, "X refunded")
        assert_equal(self.balance(o_addr), before[o_addr] - 4 * FEE + STAKE, "O refunded")
        assert_equal(self.balance(fund), fund1, "no rake on a draw")
        self.zbc("verify", app2)

        # lists: newest first, filters, paging
        lst = self.zbc("app", "list", "--game", "tictactoe")
        assert_equal([x["id"] for x in lst["apps"]], [app2, app_id], "list newest first")
        st, j = node.get("/api/v1/apps?status=finished&limit=1")
        assert_equal((st, len(j["apps"]), j["apps"][0]["id"]), (200, 1, app2), "page 1")
        st, j2 = node.get("/api/v1/apps?status=finished&limit=1&cursor=" + j["next_cursor"])
        assert_equal(([x["id"] for x in j2["apps"]], j2["next_cursor"]), ([app_id], None), "page 2")
        st, j = node.get("/api/v1/apps?seat=%s&status=open" % alice)
        assert_equal((st, j["apps"]), (200, []), "no open apps of alice")
        st, j = node.get("/api/v1/apps?status=bogus")
        assert_equal(st, 400, "bad status filter")


if __name__ == "__main__":
    TicTacToe().main()
