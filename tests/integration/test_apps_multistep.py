#!/usr/bin/env python3
"""Multi-step solo games against the apps fund on a real zbcd with --automine
(docs/protocol-apps.md §13, docs/games.md "Mines (type 28)", "Tower (type 29)", "Hilo (type 30)", "Blackjack (type 31)"), played
through the wallet:

- mines: `zbc app create mines --params mines=3,seed=...`, then `zbc app move ID reveal C3`
  until a bust or three safe tiles and `cashout`; every reveal is pending in its block and
  resolved by the next block's seed, recomputed here independently with
  tests/tools/fair_catalogue.py (written from docs/games.md, not from the C code): the mine
  event over the hidden tiles; the escrow of the maximum return (2277x) and the exact
  balances of the player and the fund; the result in words;
- tower (medium): `climb 2` until a bust or two rows, then `cashout`, each row recomputed
  from the resolving block's seed (row r of the tower event);
- hilo: `deal`, guesses and `cashout`, each card recomputed as card k of the card event
  of the block that drew it, the value chained as docs/games.md says;
- blackjack: `deal` and `double` (the second stake leaves the balance with the move), each
  card recomputed as card k of the card event of the block that drew it;
- a game left alone is settled by the node at the start of block deadline + 1 at its
  cash-out value (the stake back before any reveal), without a claim;
- a dealt blackjack game left alone is stood by the node at deadline + 1;
- the 1 % rule refuses a game whose maximum return exceeds 1 % of the fund;
- `zbc verify` and `zbc-audit app` recompute every step; a full `zbc-audit replay` of the
  stopped node finds no divergence (state roots and the money invariant at every height).
"""
import json
import os
import sys

from framework import (ZBC, ZbcTest, assert_equal, assert_true, audit_datadir_clean, run_audit,
                       wait_until)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
import fair_catalogue as fc  # noqa: E402

FEE = 2_000_000
MD = 6  # move_deadline in blocks
MAX3 = 22770000  # mines=3: 0.99 x C(25, 3) = 2277x, in ten-thousandths


def mines_multiplier(m, k):
    """9900 x C(25, k) / C(25 - m, k), floored (docs/games.md "Payout tables")."""
    from math import comb
    return 9900 * comb(25, k) // comb(25 - m, k)


class MultiStep(ZbcTest):
    def mine(self, node, n):
        with open(os.path.join(node.datadir, "api.token")) as f:
            token = f.read().strip()
        st, j = node.request("POST", "/api/v1/admin/mine", json.dumps({"blocks": n}),
                             headers={"X-ZBC-Token": token}, timeout=60)
        assert_equal(st, 200, "admin/mine %d: %r" % (n, j))

    def seed_hex(self, height):
        st, b = self.nodes[0].get("/api/v1/blocks/%d" % height)
        assert_equal(st, 200, "block %d" % height)
        return b["seed"]

    def settled(self, app_id):
        return wait_until(lambda: (lambda a: a if a["status"] == "finished" else None)(
            self.app(app_id)), 30, "app %s finished" % app_id)

    def play_mines(self, carol, fund):
        before, fund0 = self.balance(carol), self.balance(fund)
        client = "lucky7"
        r = self.zbc("app", "create", "mines", "--stake", "1ZBC", "--params",
                     "mines=3,seed=" + client, "--from", "carol", "--fee", FEE, "--wait")
        app_id = r["app_id"]
        a = self.app(app_id)
        assert_equal((a["status"], a["clock"], int(a["pot"])), ("active", 0, ZBC * MAX3 // 10000),
                     "active at once, seat 0 on the clock, the maximum in the pot")
        esc = [h for h in a["history"] if h["kind"] == "app_escrow"][0]
        assert_equal(int(esc["amount"]), ZBC * MAX3 // 10000 - ZBC, "escrow = 2277 - 1 ZBC")
        revealed, fees, busted = [], 1, False
        for tile in (12, 0, 24):  # C3, A1, E5
            name = "ABCDE"[tile % 5] + str(tile // 5 + 1)
            r = self.zbc("app", "move", app_id, "reveal", name, "--from", "carol", "--fee", FEE,
                         "--wait")
            fees += 1
            a = wait_until(lambda: (lambda a: a if not a["has_pending"] else None)(
                self.app(app_id)), 30, "reveal %s resolved" % name)
            step = [h for h in a["history"] if h["kind"] == "app_move"][-1]
            pend = [h for h in a["history"] if h["kind"] == "app_pending"][-1]
            assert_equal(step["height"], pend["height"] + 1, "resolved by the next block")
            server = self.seed_hex(step["height"])
            hidden = [t for t in range(25) if t not in revealed]
            ev = fc.mines(fc.Stream(server, client, int(app_id)), len(hidden), 3)
            mines_at = sorted(hidden[i] for i in ev["mines"])
            if tile in mines_at:
                assert_equal(a["view"]["status"], "bust", "%s is a mine of seed(%d)" %
                             (name, step["height"]))
                assert_equal(sorted(a["view"]["mines_at"]), mines_at, "the losing draw")
                busted = True
                break
            revealed.append(tile)
            assert_equal(a["view"]["revealed"], sorted(revealed), "%s is safe" % name)
            want = mines_multiplier(3, len(revealed))
            assert_equal(a["view"]["multiplier"], "%d.%04d" % (want // 10000, want % 10000),
                         "cash-out value after %d reveals" % len(revealed))
        if not busted:
            r = self.zbc("app", "move", app_id, "cashout", "--from", "carol", "--fee", FEE,
                         "--wait")
            fees += 1
        a = self.settled(app_id)
        paid = 0 if busted else ZBC * mines_multiplier(3, len(revealed)) // 10000
        assert_equal(a["result"]["outcome"], "bust" if busted else "cashout", "outcome")
        assert_equal(self.balance(carol), before - fees * FEE - ZBC + paid, "player's balance")
        assert_equal(self.balance(fund), fund0 + ZBC - paid, "fund: the stake in, the return out")
        shown = self.zbc("app", "show", app_id, json_out=False).stdout
        self.log("app show:\n" + shown)
        assert_true(("bust: the stake of 1 ZBC went to the apps fund" in shown) if busted else
                    ("cashed out at " in shown or "returned " in shown), "the result in words: %r" % shown)
        assert_true("A B C D E" in shown, "the mines grid: %r" % shown)
        self.log("mines %s: %s after %d safe reveals, paid %d" %
                 (app_id, "bust" if busted else "cashout", len(revealed), paid))
        return app_id

    def play_tower(self, carol, fund):
        """tower, medium (3 columns, 2 safe): climb column 2 until a bust or two rows, then
        cash out; every row recomputed from the resolving block's seed."""
        before, fund0 = self.balance(carol), self.balance(fund)
        client = "tw"
        app_id = self.zbc("app", "create", "tower", "--stake", "1ZBC", "--params",
                          "difficulty=medium,seed=" + client, "--from", "carol", "--fee", FEE,
                          "--wait")["app_id"]
        rows, fees, busted = 0, 1, False
        while rows < 2:
            self.zbc("app", "move", app_id, "climb", "2", "--from", "carol", "--fee", FEE,
                     "--wait")
            fees += 1
            a = wait_until(lambda: (lambda a: a if not a["has_pending"] else None)(
                self.app(app_id)), 30, "climb resolved")
            step = [h for h in a["history"] if h["kind"] == "app_move"][-1]
            safe = fc.tower(fc.Stream(self.seed_hex(step["height"]), client, int(app_id)),
                            "medium")["rows"][rows]
            if 1 not in safe:
                assert_equal((a["view"]["status"], sorted(a["view"]["safe_columns"])),
                             ("bust", sorted(safe)), "row %d: column 2 is not safe" % (rows + 1))
                busted = True
                break
            rows += 1
            assert_equal(a["view"]["picks"], [1] * rows, "row %d climbed" % rows)
        if not busted:
            self.zbc("app", "move", app_id, "cashout", "--from", "carol", "--fee", FEE, "--wait")
            fees += 1
        a = self.settled(app_id)
        mult = 0 if busted else 9900 * 3 ** rows // 2 ** rows
        paid = ZBC * mult // 10000
        assert_equal(a["result"]["outcome"], "bust" if busted else "cashout", "tower outcome")
        assert_equal(self.balance(carol), before - fees * FEE - ZBC + paid, "player's balance")
        assert_equal(self.balance(fund), fund0 + ZBC - paid, "fund")
        self.log("tower %s: %s after %d rows, paid %d" %
                 (app_id, "bust" if busted else "cashout", rows, paid))
        return app_id

    def play_hilo(self, carol, fund):
        """hilo: deal, then up to two guesses (lower from 8 up, else higher) and a cash-out;
        card k recomputed as card k of the card event of the block that drew it."""
        before, fund0 = self.balance(carol), self.balance(fund)
        client = "hl"
        app_id = self.zbc("app", "create", "hilo", "--stake", "1ZBC", "--params",
                          "seed=" + client, "--from", "carol", "--fee", FEE,
                          "--wait")["app_id"]
        fees, value, won, busted, cards = 1, 10000, 0, False, []
        for word in ("deal", "guess", "guess"):
            if word == "guess":
                r = cards[-1] // 4
                word = "lower" if r >= 6 else "higher"
            self.zbc("app", "move", app_id, word, "--from", "carol", "--fee", FEE, "--wait")
            fees += 1
            a = wait_until(lambda: (lambda a: a if not a["has_pending"] else None)(
                self.app(app_id)), 30, "hilo %s resolved" % word)
            step = [h for h in a["history"] if h["kind"] == "app_move"][-1]
            k = len(cards)
            card = fc.floor_n(fc.Stream(self.seed_hex(step["height"]), client,
                                        int(app_id)).u(k), 52)
            assert_equal(a["view"]["cards"][k]["index"], card,
                         "card %d = card %d of seed(%d)" % (k, k, step["height"]))
            if word != "deal":
                frm, to = cards[-1] // 4, card // 4
                w = frm if word == "lower" else 12 - frm
                if not (to < frm if word == "lower" else to > frm):
                    assert_equal(a["view"]["status"], "bust", "the guess lost")
                    busted = True
                    cards.append(card)
                    break
                value = value * (9900 * 13 // w) // 10000
                won += 1
            cards.append(card)
        if not busted and won > 0:
            self.zbc("app", "move", app_id, "cashout", "--from", "carol", "--fee", FEE, "--wait")
            fees += 1
        if not busted and won == 0:  # no won guess: settled by the clock
            self.mine(self.nodes[0], int(self.app(app_id)["deadline"]) - self.nodes[0].height())
        a = self.settled(app_id)
        paid = 0 if busted else ZBC * value // 10000
        assert_equal(self.balance(carol), before - fees * FEE - ZBC + paid, "player's balance")
        assert_equal(self.balance(fund), fund0 + ZBC - paid, "fund")
        self.log("hilo %s: cards %r, %s, paid %d" % (app_id, cards, a["result"]["outcome"], paid))
        return app_id

    def play_blackjack(self, carol, fund):
        """blackjack: deal, double when the hand has two cards, else stand; every card
        recomputed as card k of the card event of the block that drew it; the doubled
        stake leaves the balance with the move."""
        before, fund0 = self.balance(carol), self.balance(fund)
        client = "bj"
        app_id = self.zbc("app", "create", "blackjack", "--stake", "1ZBC", "--params",
                          "seed=" + client, "--from", "carol", "--fee", FEE,
                          "--wait")["app_id"]
        fees, put = 1, ZBC
        for word in ("deal", "double"):
            a = self.app(app_id)
            if a["status"] != "active":
                break
            self.zbc("app", "move", app_id, word, "--from", "carol", "--fee", FEE, "--wait")
            fees += 1
            put += ZBC if word == "double" else 0
            a = wait_until(lambda: (lambda a: a if not a["has_pending"] else None)(
                self.app(app_id)), 30, "blackjack %s resolved" % word)
        a = self.settled(app_id)
        # every card from the block that drew it: the deal's three (four with a natural)
        # from the deal's block, the rest from the double's (its card, the dealer's)
        steps = [h["height"] for h in a["history"] if h["kind"] == "app_move"]
        state = bytes.fromhex(a["state_hex"])
        drawn = list(state[2 + state[0]:])
        for k, c in enumerate(drawn):
            height = steps[0] if k < 3 or len(steps) == 1 else steps[1]
            want = fc.floor_n(fc.Stream(self.seed_hex(height), client, int(app_id)).u(k), 52)
            assert_equal(c, want, "card %d = card %d of seed(%d)" % (k, k, height))
        paid = sum(int(p["amount"]) for p in a["result"]["payouts"] if p["reason"] == "cashout")
        assert_equal(self.balance(carol), before - fees * FEE - put + paid, "player's balance")
        assert_equal(self.balance(fund), fund0 + put - paid, "fund")
        self.log("blackjack %s: %s, paid %d\n%s" % (app_id, a["result"]["outcome"], paid,
                                                    a["board"]))
        return app_id

    def clock(self, carol, fund):
        node = self.nodes[0]
        before, fund0 = self.balance(carol), self.balance(fund)
        app_id = self.zbc("app", "create", "mines", "--stake", "1ZBC", "--from", "carol", "--fee",
                          FEE, "--wait")["app_id"]
        a = self.app(app_id)
        deadline = a["deadline"]
        self.mine(node, deadline - node.height())
        a = self.app(app_id)
        assert_equal(a["status"], "active", "still running at its deadline %d" % deadline)
        # automine produces deadline + 1 by itself: the settlement is scheduled there
        a = self.settled(app_id)
        claim = [h for h in a["history"] if h["kind"] == "app_claim"]
        assert_equal(len(claim), 1, "the node's own settlement")
        assert_equal((claim[0]["height"], claim[0]["reason"]), (deadline + 1, "clock"),
                     "settled at the start of deadline + 1")
        assert_equal(a["result"]["outcome"], "cashout", "the cash-out value")
        assert_equal(self.balance(carol), before - FEE, "the stake back, only the fee spent")
        assert_equal(self.balance(fund), fund0, "the escrow back to the fund")
        return app_id

    def blackjack_clock(self, carol, fund):
        """A dealt blackjack game left alone: the node stands it at deadline + 1 (an
        app_move with reason clock, the dealer drawing from that block's seed)."""
        node = self.nodes[0]
        before, fund0 = self.balance(carol), self.balance(fund)
        app_id = self.zbc("app", "create", "blackjack", "--stake", "1ZBC", "--from", "carol",
                          "--fee", FEE, "--wait")["app_id"]
        self.zbc("app", "move", app_id, "deal", "--from", "carol", "--fee", FEE, "--wait")
        a = wait_until(lambda: (lambda a: a if not a["has_pending"] else None)(
            self.app(app_id)), 30, "deal resolved")
        if a["status"] == "active":
            deadline = int(a["deadline"])
            self.mine(node, deadline - node.height())
            a = self.settled(app_id)
            clock = [h for h in a["history"] if h["kind"] == "app_move" and
                     h.get("reason") == "clock"]
            assert_true(len(clock) >= 1, "the node stood the hand: %r" % a["history"])
            assert_equal(clock[0]["height"], deadline + 1, "at deadline + 1")
        paid = sum(int(p["amount"]) for p in a["result"]["payouts"] if p["reason"] == "cashout")
        assert_equal(self.balance(carol), before - 2 * FEE - ZBC + paid, "player's balance")
        assert_equal(self.balance(fund), fund0 + ZBC - paid, "fund")
        self.log("blackjack by the clock %s: paid %d\n%s" % (app_id, paid, a["board"]))
        return app_id

    def run_test(self):
        carol = self.wallet_key("carol")
        node = self.start_chain(balances=[(carol, 1000 * ZBC)], move_deadline=MD,
                                fund_balance=300_000 * ZBC)
        node.stop()
        node.start(self.genesis_path, extra=["--automine"])
        fund = self.genesis["fund_account"]
        ids = [self.play_mines(carol, fund), self.play_tower(carol, fund),
               self.play_hilo(carol, fund), self.play_blackjack(carol, fund),
               self.clock(carol, fund), self.blackjack_clock(carol, fund)]
        # 1 % of 300,000 ZBC: mines=3 at 2 ZBC may return 4554 ZBC, over 3000
        r = self.zbc("app", "create", "mines", "--stake", "2ZBC", "--params", "mines=3",
                     "--from", "carol", "--fee", FEE, expect=None)
        assert_true(r.code != 0 and "exceeds 1% of the apps fund" in r.stdout + r.stderr,
                    "the 1 %% rule: %r" % r)
        for app_id in ids:
            v = self.zbc("verify", app_id)
            assert_equal(v["verified"], True, "zbc verify %s" % app_id)
            self.log("verify %s:\n  %s" % (app_id, "\n  ".join(v["checks"])))
            j = run_audit(self, "app", app_id, "--peer", node.api_url, "--genesis",
                          self.genesis_path)
            assert_equal((j["divergence_count"], j["status"]), (0, "finished"),
                         "zbc-audit app %s" % app_id)
        node.stop()
        audit_datadir_clean(self, node.datadir, self.genesis_path)


if __name__ == "__main__":
    MultiStep().main()
