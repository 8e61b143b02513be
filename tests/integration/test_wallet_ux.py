#!/usr/bin/env python3
"""The wallet people enjoy (docs/wallet.md): per-command help and
--version, typos answered with a suggestion, wallet key names wherever an
address goes, the balance of an unfunded key is 0, amounts in ZBC in text
and atomic units in JSON (errors included), `app list --mine/--player`,
`zbc history` paged over 25 transfers, `tx status` of a transaction the
node dropped from its pool, and the refusal of a second pooled move.

History (GET /api/v1/accounts/<address>/history), the dropped status and
the one-move-per-app refusal are the node's side (docs/api.md)."""
import json
import re
import time

from framework import ZBC, ZbcTest, assert_equal, assert_true, wait_until

FEE = 2_000_000


class WalletUx(ZbcTest):
    def text(self, *args, expect=0, node=None):
        """zbc without --json: (exit code, stdout, stderr)."""
        r = self.zbc(*args, node=node, json_out=False, expect=expect)
        return r

    def help_texts(self):
        """Help of every command on stdout with exit 0; --version; typos."""
        cases = [
            (["help"], "exit codes"),
            (["--help"], "zbc help COMMAND"),
            (["help", "app"], "app claim-timeout"),
            (["app", "--help"], "withdraw your stake"),
            (["app", "help"], "app claim-timeout"),
            (["app", "create", "--help"], "games (seats; params; notation"),
            (["app", "create", "chess", "--help"], "e2e4"),
            (["app", "create", "help"], "monopoly"),
            (["app", "move", "--help"], "--wait"),
            (["app", "list", "--help"], "--mine"),
            (["bet", "--help"], "roulette"),
            (["bet", "dice", "--help"], "dice under|over PCT"),
            (["send", "--help"], "wallet key name"),
            (["balance", "--help"], "never held funds has balance 0"),
            (["history", "--help"], "--cursor"),
            (["key", "--help"], "key derive"),
            (["key", "new", "--help"], "zbc key new"),
            (["tx", "--help"], "dropped"),
            (["tx", "status", "--help"], "dropped"),
            (["verify", "--help"], "zbc verify"),
            (["address", "--help"], "zbc address"),
            (["help", "help"], "zbc help"),
        ]
        for args, want in cases:
            r = self.text(*args, node=False)
            assert_true(want in r.stdout, "zbc %s prints %r:\n%s" % (" ".join(args), want, r.stdout))
            assert_equal(r.stderr, "", "zbc %s: nothing on stderr" % " ".join(args))
        # the game list is the engine registry: seats, params, examples, bets
        g = self.text("app", "create", "--help", node=False).stdout
        for game, seats in (("tictactoe", "2 seats"), ("dots", "2-4 seats"), ("chess", "2 seats")):
            line = [l for l in g.splitlines() if l.strip().startswith(game + " ")]
            assert_true(line and seats in line[0], "%s with %s in:\n%s" % (game, seats, g))
        for word in ("size=5x3", "rounds=", "fire B7", "order 2013", "roll buy", "limbo"):
            assert_true(word in g, "app create --help has %r" % word)
        # with --json: one object holding the text
        r = self.zbc("app", "create", "--help", node=False)
        assert_true("monopoly" in r["help"], "--json help")
        # --version
        r = self.text("--version", node=False)
        assert_true(r.stdout.startswith("zbc ") and r.code == 0, "--version: %r" % r)
        assert_true(self.zbc("--version", node=False)["version"], "--version --json")

        # typos: a suggestion and the real list, usage (exit 2)
        typos = [
            (["app", "create", "chesss"], "unknown game 'chesss' (did you mean chess?)"),
            (["app", "create", "chesss", "--stake", "1"], "did you mean chess?"),
            (["app", "lst"], "unknown app command 'lst' (did you mean list?)"),
            (["app", "lst"], "create, join, move, show, list, watch, resign, claim-timeout"),
            (["blance"], "unknown command 'blance' (did you mean balance?)"),
            (["histroy"], "did you mean history?"),
            (["tx", "stauts", "00"], "did you mean status?"),
            (["key", "lsit"], "did you mean list?"),
            (["help", "ap"], "did you mean app?"),
            (["app", "create", "dice"], "dice is a solo bet"),
            (["bet", "dcie", "under", "50", "--stake", "1"], "unknown bet 'dcie' (did you mean dice?)"),
            (["balance", "--jsn"], "unknown option '--jsn' (did you mean --json?)"),
            (["app", "list", "--game", "tictactoo"], "did you mean tictactoe?"),
            (["app", "list", "--status", "opne"], "did you mean open?"),
        ]
        for args, want in typos:
            r = self.zbc(*args, node=False, expect=2)
            assert_true(want in r["error"] and want in r.stderr,
                        "zbc %s says %r: %r" % (" ".join(args), want, r["error"]))
            assert_true("takes 3 arguments" not in r["error"], "no raw-form usage: %r" % r["error"])

    def run_test(self):
        self.help_texts()

        alice = self.wallet_key("alice")
        bob = self.wallet_key("bob")
        carol = self.wallet_key("carol")  # never funded
        node = self.start_chain(balances=[(alice, 1000 * ZBC), (bob, 1000 * ZBC)],
                                block_time_ms=3000)

        # --- names and balances ---
        r = self.zbc("balance", "carol")
        assert_equal((r["balance"], r["balance_zbc"], r["address"], r["name"]),
                     (0, "0 ZBC", carol, "carol"), "unfunded key: balance 0")
        r = self.text("balance", "carol")
        assert_true("0 ZBC" in r.stdout and "not found" not in r.stdout.lower(),
                    "unfunded balance text: %r" % r.stdout)
        r = self.text("balance", "alice")
        assert_true("1000 ZBC" in r.stdout and "alice" in r.stdout, "balance text %r" % r.stdout)
        r = self.zbc("balance", "alice")
        assert_equal((r["balance"], r["balance_zbc"]), (1000 * ZBC, "1000 ZBC"),
                     "units and ZBC text in JSON")
        r = self.zbc("balance", "dave", expect=2)
        assert_true("'dave' is neither an address nor a key name" in r["error"],
                    "unknown name: %r" % r["error"])
        r = self.zbc("balance", "alce", expect=2)
        assert_true("did you mean alice?" in r["error"], "name suggestion: %r" % r["error"])
        # a key named like another account's address is ambiguous
        eth = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045"
        self.zbc("key", "import", "11" * 32, "--name", eth)
        r = self.zbc("balance", eth, expect=2)
        assert_true("ambiguous" in r["error"], "address and key name: %r" % r["error"])

        # send to a name; the amount in ZBC; units in JSON
        r = self.zbc("send", "carol", "1.98ZBC", "--from", "alice", "--fee", FEE, "--wait")
        assert_equal(r["recipient_account_address"], carol, "send to the name carol")
        assert_equal((r["amount"], r["amount_zbc"], r["fee_zbc"]), (198_000_000, "1.98 ZBC",
                     "0.02 ZBC"), "send: units and ZBC text")
        sent = r["transaction_hash"]
        assert_equal(self.zbc("balance", "carol")["balance"], 198_000_000, "carol got 1.98 ZBC")
        assert_equal(self.zbc("balance", carol)["balance_zbc"], "1.98 ZBC", "1.98 ZBC")

        # insufficient balance in ZBC: the node's units become ZBC text
        r = self.zbc("send", "alice", "2.05ZBC", "--from", "carol", "--fee", FEE, expect=4)
        assert_true("insufficient balance" in r["error"] and "1.98 ZBC held" in r["error"],
                    "error in ZBC: %r" % r["error"])
        assert_true("ZBC needed" in r.stderr, "stderr in ZBC: %r" % r.stderr)
        assert_true("198000000" in json.dumps(r["api_response"]), "units kept in api_response")

        # --- --opponent by name; app list --mine / --player ---
        c = self.zbc("app", "create", "tictactoe", "--stake", "1ZBC", "--opponent", "bob",
                     "--from", "alice", "--fee", FEE, "--wait")
        app_id = c["app_id"]
        assert_true(isinstance(app_id, str) and app_id.isdigit(), "app id a string: %r" % c.json)
        assert_equal(c["stake_zbc"], "1 ZBC", "create: stake in ZBC")
        st, a = node.get("/api/v1/apps/%s" % app_id)
        assert_equal(a["opponent"], bob, "--opponent bob reserved the seat for bob")
        r = self.zbc("app", "create", "tictactoe", "--opponent", "bobb", "--from", "alice",
                     expect=2)
        assert_true("--opponent 'bobb'" in r["error"] and "did you mean bob?" in r["error"],
                    "unknown opponent name: %r" % r["error"])
        self.zbc("app", "join", app_id, "--from", "bob", "--fee", FEE, "--wait")
        mine = self.zbc("app", "list", "--mine", "--from", "bob")
        assert_equal([x["id"] for x in mine["apps"]], [app_id], "bob's apps")
        assert_equal(mine["apps"][0]["stake_zbc"], "1 ZBC", "list: stake in ZBC")
        assert_equal(mine["player"], bob, "list: the player")
        r = self.zbc("app", "list", "--player", "carol")
        assert_equal(r["apps"], [], "carol holds no seat")
        r = self.zbc("app", "list", "--player", "alice")
        assert_equal([x["id"] for x in r["apps"]], [app_id], "--player alice")
        t = self.text("app", "list", "--mine", "--from", "alice").stdout
        assert_true(app_id in t and "tictactoe" in t and "1 ZBC" in t, "list text: %r" % t)
        assert_true("alice (you)" in t and "bob" in t, "players by name: %r" % t)
        t = self.text("app", "list", "--player", "carol").stdout
        assert_true("no apps" in t, "empty list text: %r" % t)
        t = self.text("app", "list", "--player", "alice", "--status", "finished", "--game",
                      "chess").stdout
        assert_equal(t.strip(), "no finished chess apps of alice", "empty list names its filters")
        self.zbc("app", "list", "--mine", "--player", "bob", expect=2)

        # --- the second move of a seat while its first waits in the pool ---
        a = wait_until(lambda: (lambda v: v if v["clock"] is not None else None)(
            node.get("/api/v1/apps/%s" % app_id)[1]), 30, "first seat drawn")
        names = {p["seat"]: ("alice" if p["address"] == alice else "bob") for p in a["players"]}
        mover = names[a["clock"]]
        first = self.zbc("app", "move", app_id, "5", "--from", mover, "--fee", FEE)
        second = self.zbc("app", "move", app_id, "1", "--from", mover, "--fee", FEE, expect=6)
        if "already waiting in the mempool" in second["error"]:
            assert_true("use --wait, or wait for the first move to be in a block" in second["error"],
                        "the hint: %r" % second["error"])
        else:
            # the first move made it into a block before the second was sent
            assert_equal(self.tx_status(first["transaction_hash"])[1].get("status"), "confirmed",
                         "second move refused for another reason: %r" % second["error"])
            assert_true("turn" in second["error"], "not your turn: %r" % second["error"])
        self.wait_confirmed(first["transaction_hash"])
        # app show --json prints the app once, ids as strings
        r = self.zbc("app", "show", app_id)
        assert_true("api_response" not in r.json and r["id"] == app_id, "app printed once")

        # --- history paging over 25 transfers ---
        for i in range(25):
            self.zbc("send", "carol", str(1000 + i), "--from", "bob", "--fee", FEE)
        wait_until(lambda: self.balance(carol) == 198_000_000 + sum(1000 + i for i in range(25)),
                   90, "25 transfers in blocks")
        pages, cursor, seen = 0, None, []
        while True:
            args = ["history", "carol", "--limit", "10"] + (["--cursor", cursor] if cursor else [])
            r = self.zbc(*args)
            assert_equal(r["address"], carol, "history address")
            assert_true(len(r["entries"]) <= 10, "page size")
            seen += r["entries"]
            pages += 1
            cursor = r["next_cursor"]
            if cursor is None:
                break
            assert_true(isinstance(cursor, str), "next_cursor a string")
            assert_true(pages < 10, "paging ends")
        transfers = [e for e in seen if e["kind"] == "transfer"]
        assert_equal(len(transfers), 26, "25 transfers from bob and 1 from alice")
        assert_true(pages >= 3, "at least 3 pages of 10")
        heights = [e["height"] for e in seen]
        assert_equal(heights, sorted(heights, reverse=True), "newest first")
        assert_equal(transfers[-1]["amount"], 198_000_000, "the oldest: alice's 1.98 ZBC")
        assert_equal(transfers[-1]["amount_zbc"], "1.98 ZBC", "amount text in JSON")
        r = self.zbc("history", "carol", "--all")
        assert_equal(len(r["entries"]), len(seen), "--all gets every page")
        assert_equal(r["next_cursor"], None, "--all: no cursor left")
        t = self.text("history", "carol", "--limit", "3").stdout
        assert_true(re.search(r"received 0\.000010\d\d ZBC from bob", t), "history text: %r" % t)
        assert_true("more: zbc history carol --cursor " in t, "next page hint: %r" % t)
        # the app events of bob, in words, ids as strings in JSON
        r = self.zbc("history", "bob", "--all")
        kinds = [e["kind"] for e in r["entries"]]
        assert_true("app_join" in kinds, "bob's app join in his history: %r" % kinds)
        join = [e for e in r["entries"] if e["kind"] == "app_join"][0]
        assert_equal(join["ref"], app_id, "app id as a string in history JSON")
        t = self.text("history", "bob", "--all").stdout
        assert_true(("you joined app %s as seat" % app_id) in t, "join in words: %r" % t)
        r = self.zbc("history", "--from", "carol", "nobody-here", expect=2)
        self.zbc("history", "carol", "--limit", "0", expect=2)
        self.zbc("history", "carol", "--cursor", "a b", expect=2)
        stranger = self.zbc("key", "derive", "22" * 32, node=False)["address"]
        r = self.zbc("history", stranger)
        assert_equal((r["entries"], r["next_cursor"]), ([], None), "unknown account: empty")

        # amounts a person reads: send's text, tx show's ZBC fields
        t = self.text("send", "carol", "0.5ZBC", "--from", "alice", "--fee", FEE).stdout
        assert_true(t.startswith("sent 0.5 ZBC to carol (%s), fee 0.02 ZBC\n" % carol),
                    "send text: %r" % t)
        r = self.zbc("tx", "show", sent)
        assert_equal((r["amount_zbc"], r["fee_zbc"]), ("1.98 ZBC", "0.02 ZBC"), "tx show in ZBC")

        # --- a transaction dropped from the pool: tx status says why ---
        # a timestamp 3598 s old is admitted now but too old for the next block
        # (3 s away); a race with the block schedule is retried
        tx = None
        for attempt in range(4):
            h = node.height()
            wait_until(lambda: node.height() > h, 30, "a fresh block")
            old = int(time.time()) - 3600 + 2
            r = self.zbc("send", "alice", str(7 + attempt), "--from", "bob", "--fee", FEE,
                         "--timestamp", old, expect=None)
            if r.code != 0:
                continue
            wait_until(lambda: self.tx_status(r["transaction_hash"])[1].get("status")
                       in ("dropped", "confirmed"), 30, "the stale transaction leaves the pool")
            if self.tx_status(r["transaction_hash"])[1].get("status") == "dropped":
                tx = r["transaction_hash"]
                break
        assert_true(tx is not None, "no stale transaction was dropped in 4 attempts")
        r = self.zbc("tx", "status", tx, expect=6)
        assert_true(r["error"].startswith("dropped: ") and "before the block time" in r["error"],
                    "dropped reason: %r" % r["error"])
        assert_equal(r["api_response"]["status"], "dropped", "the node's status kept")
        t = self.text("tx", "status", tx, expect=6)
        assert_true("dropped: " in t.stderr, "dropped on stderr: %r" % t.stderr)


if __name__ == "__main__":
    WalletUx().main()
