#!/usr/bin/env python3
"""The dice games' boards in headless Chromium (docs/web.md §4, §6): ludo,
pig, race (snakes and ladders) and monopoly-lite against a real zbcd
(automine devnet: one validator, blocks on request; a pending dice move is
rolled by the next block, which automine makes at once).

- for each game, moves made by the wallet (alice and bob): the page's SVG
  has every token on the square the engine's view says (data-square,
  data-piece = the seat; ludo's tokens by number too), the dice of the last
  roll (data-die), monopoly's owners and cash; a screenshot
  board-<game>.png each;
- a board drawn with a pending move says which block rolls it;
- a race created on the page's wallet form and played from the page (the
  page clicks "roll" on its turns, alice moves with the wallet) to
  settlement, the result in words with the payout and the rake;
- keep-alive: on its turn the page's "Keep alive" sends the empty AppMove
  and the deadline the page shows moves on;
- the wallet form's seats and params: a 3-seat ludo and a monopoly with
  cash=500 created on the page are byte for byte the wallet's
  `zbc app create ... --offline` transactions (same timestamp and fee);
  refused params show their sentence and send nothing;
- the page plays from its seat (the wallet from the others): a ludo token
  click, monopoly's "roll & buy", pig's roll and hold; every move it sent
  is read back from the app's history in the chain's notation;
- every console message at SEVERE fails the test.

"SKIP: no chromium" as in test_web_explorer.py."""
from framework import ZBC, TestFailure, assert_equal, assert_true, wait_until
from webtest import FEE, PAGE_S, BrowserTest

SEED = "7d" * 32
PP = "dice on the page"
WALLET_MOVE = {"pig": "roll", "race": "roll", "ludo": "order 0123", "monopoly": "roll buy"}
MAX_RACE_MOVES = 400  # a race ends with probability 1; this only bounds a broken one


class WebDice(BrowserTest):
    def run_test(self):
        if self.start_web() is None:
            return
        self.carol = self.wallet_key("carol")
        self.page_addr = self.zbc("key", "derive", SEED, node=False)["address"]
        node = self.automine_node(balances=[(self.carol, 1000 * ZBC), (self.page_addr, 1000 * ZBC)])
        self.names = {self.alice: "alice", self.bob: "bob", self.carol: "carol"}
        d = self.browser()
        try:
            assert_equal(self.import_key(d, node, SEED, PP), self.page_addr, "the page's key")
            for game in ("pig", "race", "ludo", "monopoly"):
                self.wallet_game(d, node, game)
            self.pending_line(d)
            self.forms(d, node)
            self.race_from_page(d, node)
        finally:
            d.quit()

    # --- what the page shows -------------------------------------------------

    def board_shot(self, d, name):
        """A screenshot with the board scrolled into view."""
        d.execute_script("const b = document.querySelector('svg.board'); "
                         "if (b) window.scrollTo(0, b.getBoundingClientRect().top + window.scrollY - 90);")
        self.shot(d, name)

    def attrs(self, d, css, *names):
        """[[attribute, ...] of each element matching css], read in one
        script: the board is redrawn on each event of the app's stream, so
        elements found one call earlier may be gone."""
        return d.execute_script(
            "return Array.from(document.querySelectorAll(arguments[0]), "
            "(e) => arguments[1].map((n) => e.getAttribute(n)));", css, list(names))

    def pieces(self, d, game):
        """The tokens of the page's board: sorted (seat, token, square)."""
        return sorted((p, t or "", sq) for p, t, sq in
                      self.attrs(d, "svg.board.%s [data-piece]" % game, "data-piece", "data-token", "data-square"))

    def dice(self, d, game):
        return [x for (x,) in self.attrs(d, "svg.board.%s [data-die]" % game, "data-die")]

    def want_pieces(self, a):
        v, game = a["view"], a["game"]
        if game == "pig":
            return sorted((str(s), "", str(x)) for s, x in enumerate(v["scores"]))
        if game == "race":
            return sorted((str(s), "", str(x)) for s, x in enumerate(v["positions"]))
        if game == "monopoly":
            return sorted((str(p["seat"]), "", str(p["position"])) for p in v["players"] if not p["out"])
        out = []
        for s, tokens in enumerate(v["progress"]):
            for t, p in enumerate(tokens):
                sq = ("yard" if p == 0 else "done" if p >= 57 else "home%d" % (p - 51) if p >= 52
                      else str(v["squares"][s][t]))
                out.append((str(s), str(t), sq))
        return sorted(out)

    def want_dice(self, a):
        v = a["view"]
        if a["game"] == "monopoly":
            return [str(x) for x in v["last_roll"]["dice"]] if v["last_roll"] else []
        last = v.get("last")
        return [str(last["die"])] if last and last.get("die") else []

    def board_equals_view(self, d, a, what):
        want = (self.want_pieces(a), self.want_dice(a))
        wait_until(lambda: (self.pieces(d, a["game"]), self.dice(d, a["game"])) == want, PAGE_S,
                   "%s: the page's tokens and dice = the view's %r (page: %r)"
                   % (what, want, (self.pieces(d, a["game"]), self.dice(d, a["game"]))))
        if a["game"] == "monopoly":
            owners = {str(q["index"]): str(q["owner"]) for q in a["view"]["squares"] if q["owner"] is not None}
            page = dict(self.attrs(d, "svg.board.monopoly rect[data-owner]", "data-square", "data-owner"))
            assert_equal(page, owners, "monopoly: the owners on the page")
            cash = {str(p["seat"]): str(p["cash"]) for p in a["view"]["players"]}
            page = dict(self.attrs(d, "svg.board.monopoly [data-cash-of]", "data-cash-of", "data-cash"))
            assert_equal(page, cash, "monopoly: the cash on the page")

    # --- the wallet's moves, the page's board ----------------------------------

    def mover(self, a):
        return self.names[a["players"][a["turn"]]["address"]]

    def wallet_game(self, d, node, game):
        r = self.zbc("app", "create", game, "--stake", "1ZBC", "--from", "alice", "--fee", FEE, "--wait")
        app_id = r["app_id"]
        self.zbc("app", "join", app_id, "--from", "bob", "--fee", FEE, "--wait")
        a = self.app_ready(app_id)
        d.get(node.api_url + "/#/app/" + app_id)
        self.wait_view(d, "app", "Board", "the %s page with its board" % game)
        self.board_equals_view(d, a, "%s before any move" % game)
        for _ in range(3):
            if a["status"] == "finished":
                break
            a = self.wallet_move(app_id, a, self.mover(a), WALLET_MOVE[game])
        assert_true(self.want_dice(a), "%s: a roll was made" % game)
        self.board_equals_view(d, a, "%s after the wallet's moves (from the event stream)" % game)
        if a["status"] == "active":
            legal = sorted(m for (m,) in self.attrs(d, "svg.board.%s .choice.legal" % game, "data-move"))
            want = sorted(a["legal_moves"]) if game != "ludo" else sorted(
                "order %d%s" % (t, "".join(str(x) for x in range(4) if x != t)) for t in range(4))
            assert_equal(legal, want, "%s: the choices offered are the legal moves" % game)
            assert_equal(self.q(d, "svg.board.%s .playable" % game), [], "%s: nothing playable for a page "
                         "that holds no seat" % game)
        self.board_shot(d, "board-" + game)
        self.console_errors(d, "the %s board" % game)

    def moved(self, app_id, n, d=None):
        """The app once its move n + 1 is applied (a dice move is rolled by the
        next block) and a seat holds the clock again, or once it finished."""
        return wait_until(lambda: (lambda x: x if x["status"] == "finished" or (
            x["moves"] > n and not x["has_pending"] and x["clock"] is not None) else None)(self.app(app_id)),
            PAGE_S, "move %d of app %s on chain%s" % (n + 1, app_id, "" if d is None else
                                                      " (page: %s)" % self.status_text(d)))

    def wallet_move(self, app_id, a, who, notation):
        """The wallet's move (no --wait: the app's answer says when it is
        applied, sooner than the wallet's 300-ms polls)."""
        self.zbc("app", "move", app_id, *notation.split(), "--from", who, "--fee", FEE)
        return self.moved(app_id, a["moves"])

    def js_text(self, d, css):
        """The text of the first element matching css ('' for none), read in
        the page: the app page is redrawn on each event of its stream."""
        return d.execute_script("const e = document.querySelector(arguments[0]); "
                                "return e ? e.textContent : '';", css)

    def status_text(self, d):
        return self.js_text(d, "[data-status=app-action]")

    def pending_line(self, d):
        """A board drawn while a dice move waits names the block that rolls it
        (automine rolls it at once, so the board module is drawn here with
        the app answer's pending field as the node gives it)."""
        js = """
        const done = arguments[arguments.length - 1];
        import('/js/boards/index.js').then((m) => {
          const app = {game: 'race', legal_moves: [], pending: {seat: 1, notation: 'roll', applies_at: 57}};
          const svg = m.boardFor({...app, view: {game: 'race', seats: 2, end: 49, jumps: [],
            positions: [3, 0], turn: null, last: null}});
          const p = svg.querySelector('[data-field=pending]');
          done(p ? p.textContent : null);
        }).catch((e) => done(String(e)));
        """
        assert_equal(d.execute_async_script(js), "seat 1 played roll: waiting for the roll of block 57",
                     "the pending roll's line")

    # --- the wallet page's form: seats, params, bytes ------------------------

    def create_on_page(self, d, node, game, seats, params=None, stake="1"):
        from selenium.webdriver.support.ui import Select
        d.get(node.api_url + "/#/wallet")
        self.wait_view(d, "wallet", "Start a game", "the wallet page")
        Select(self.q(d, "#app-create select[name=game]")[0]).select_by_value(game)
        Select(self.q(d, "#app-create select[name=seats]")[0]).select_by_value(str(seats))
        values = {"stake": stake}
        if params is not None:
            values["params"] = params
        self.submit(d, "app-create", values)
        return wait_until(lambda: (lambda s: (s.get_attribute("data-app"), s.get_attribute("data-tx"))
                                   if s.get_attribute("data-app") else None)(
            self.q(d, "[data-status=app-create]")[0]), PAGE_S,
            "the %s created: %s" % (game, self.status(d, "app-create")))

    def same_bytes_as_wallet(self, node, tx_hash, args):
        self.wait_confirmed(tx_hash)
        st, t = node.get("/api/v1/transactions/%s" % tx_hash)
        assert_equal(st, 200, "GET the page's CreateApp")
        raw = bytes.fromhex(t["transaction_bytes"])
        ts = int.from_bytes(raw[5:13], "little", signed=True)
        fee = t["fee"]
        st, info = node.get("/api/v1/node/info")
        w = self.zbc("app", "create", *args, "--offline", "--genesis", info["genesis_hash"], "--timestamp", ts,
                     "--fee", fee, node=False, env={"ZBC_KEY": SEED})
        assert_equal(t["transaction_bytes"], w["transaction_bytes"],
                     "the page's CreateApp = zbc app create %s --offline" % " ".join(args))

    def forms(self, d, node):
        # seats: only the game's range is offered
        from selenium.webdriver.support.ui import Select
        d.get(node.api_url + "/#/wallet")
        self.wait_view(d, "wallet", "Start a game", "the wallet page")
        for game, want in (("tictactoe", ["2"]), ("ludo", ["2", "3", "4"]), ("monopoly", ["2", "3", "4"])):
            Select(self.q(d, "#app-create select[name=game]")[0]).select_by_value(game)
            got = [o.get_attribute("value") for o in self.q(d, "#app-create select[name=seats] option")]
            assert_equal(got, want, "the seats offered for %s" % game)
            shown = self.q(d, "#app-create input[name=params]")[0].is_displayed()
            assert_equal(shown, game == "monopoly", "a params field for %s" % game)
        # hostile params: a sentence, nothing sent
        for text, why in (("cash=0", "cash: 0 is out of range 1-10000"), ("cash=07", "leading zero"),
                          ("rounds=3", "no param 'rounds'"), ("cash", "neither hex nor key=value"),
                          ("=5", "is not key=value")):
            Select(self.q(d, "#app-create select[name=game]")[0]).select_by_value("monopoly")
            self.submit(d, "app-create", {"stake": "1", "params": text})
            wait_until(lambda: why in self.status(d, "app-create"), PAGE_S,
                       "params %r refused with %r: %r" % (text, why, self.status(d, "app-create")))
            assert_true(not self.q(d, "[data-status=app-create]")[0].get_attribute("data-app"),
                        "nothing created for params %r" % text)
        # a 3-seat ludo from the page, joined by the wallet's alice and bob
        app_id, tx_hash = self.create_on_page(d, node, "ludo", 3)
        self.same_bytes_as_wallet(node, tx_hash, ["ludo", "--seats", "3", "--stake", "1ZBC"])
        a = self.app(app_id)
        assert_equal((a["game"], a["seats"], a["stake"], a["params_hex"]), ("ludo", 3, ZBC, ""), "the 3-seat ludo")
        for who in ("alice", "bob"):
            self.zbc("app", "join", app_id, "--from", who, "--fee", FEE, "--wait")
        a = self.app_ready(app_id)
        d.get(node.api_url + "/#/app/" + app_id)
        self.wait_view(d, "app", "Board", "the 3-seat ludo page")
        self.board_equals_view(d, a, "the 3-seat ludo")
        assert_equal(len(self.pieces(d, "ludo")), 12, "twelve ludo tokens for three seats")
        self.board_shot(d, "board-ludo-3-seats")
        seat = [p["seat"] for p in a["players"] if p["address"] == self.page_addr][0]
        self.page_plays(d, node, app_id, "ludo", [
            ("order 2013", "svg.board.ludo circle.playable[data-piece='%d'][data-token='2']" % seat),
            ("order 3012", None)])
        # monopoly with cash=500 from the page: its params are the wallet's bytes
        app_id, tx_hash = self.create_on_page(d, node, "monopoly", 2, params="cash=500")
        self.same_bytes_as_wallet(node, tx_hash, ["monopoly", "--seats", "2", "--params", "cash=500",
                                                  "--stake", "1ZBC"])
        assert_equal(self.app(app_id)["params_hex"], "f401", "cash=500 as u16 LE")
        self.zbc("app", "join", app_id, "--from", "bob", "--fee", FEE, "--wait")
        assert_equal([p["cash"] for p in self.app_ready(app_id)["view"]["players"]], [500, 500],
                     "monopoly starts every seat with cash=500")
        self.page_plays(d, node, app_id, "monopoly", [("roll buy", None), ("roll", None)])
        # pig from the page: a roll, and a hold once there is a turn total
        app_id, _ = self.create_on_page(d, node, "pig", 2)
        self.zbc("app", "join", app_id, "--from", "bob", "--fee", FEE, "--wait")
        self.page_plays(d, node, app_id, "pig", [("roll", None), ("hold", None)])
        self.console_errors(d, "the create-game form")

    def wallet_notation(self, game, a):
        """The other seats' move in page_plays.  Pig holds once it has a turn
        total: rolling only, the wallet's seat reached 100 in one turn now and
        then and ended the game before the page had made its moves (a
        clean-clone run of 2026-12-06: `pig: the page made its moves:
        [('hold', None)] != []`)."""
        if game == "pig" and "hold" in a["legal_moves"]:
            return "hold"
        return WALLET_MOVE[game]

    def page_plays(self, d, node, app_id, game, wanted):
        """The page makes the moves `wanted` [(notation, css or None)] by
        clicks on its turns, in order (when the next is not legal yet, e.g.
        pig's hold with no turn total, it clicks the game's plain move); the
        other seats move with the wallet.  Each move the page sent is read
        back from the app's history as the chain formats its bytes (the
        engine's format_move): the page's moveBytes are the engine's."""
        a = self.app_ready(app_id)
        d.get(node.api_url + "/#/app/" + app_id)
        self.wait_view(d, "app", "Board", "the %s page" % game)
        me = [p["seat"] for p in a["players"] if p["address"] == self.page_addr][0]
        wanted = list(wanted)
        for _ in range(60):
            if not wanted or a["status"] == "finished":
                break
            if a["turn"] != me:
                a = self.wallet_move(app_id, a, self.mover(a), self.wallet_notation(game, a))
                continue
            notation, css = wanted[0] if wanted[0][0] in a["legal_moves"] else (WALLET_MOVE[game], None)
            if notation == wanted[0][0]:
                wanted.pop(0)
            self.click_move(d, game, notation, css)
            a = self.moved(app_id, a["moves"], d)
            mine = [e for e in a["history"] if e["kind"] == "app_move" and e.get("seat") == me]
            assert_equal(mine[-1]["notation"], notation, "%s: the page's move as the chain reads it" % game)
            self.board_equals_view(d, a, "%s after the page's %s" % (game, notation))
        assert_equal(wanted, [], "%s: the page made its moves" % game)
        self.console_errors(d, "%s played from the page" % game)
        return a

    # --- a race played from the page, keep-alive ------------------------------

    def click_move(self, d, game, notation, css=None):
        """Clicks the board's playable choice (or css); the board is redrawn
        on each event of the app's stream, so a click that meets a replaced
        element is tried again."""
        sel = css or "svg.board.%s .playable[data-move='%s']" % (game, notation)
        for _ in range(5):
            wait_until(lambda: self.q(d, sel), PAGE_S, "%s playable for the page" % notation)
            try:
                self.q(d, sel)[0].click()
                return
            except Exception:  # noqa: BLE001 (a stale element: the board was redrawn)
                self.log("the board was redrawn under the click of %s; again" % notation)
        raise TestFailure("could not click %s" % notation)

    def keep_alive(self, d, node, app_id):
        """Five idle blocks, then the page's Keep alive: the deadline moves
        from the last move's height + move_deadline to the keep-alive's."""
        a = self.app(app_id)
        before, moves = a["deadline"], a["moves"]
        self.mine(node, 5)
        self.click_move(d, "race", "keep-alive", "#app-keepalive")
        a = wait_until(lambda: (lambda x: x if x["deadline"] > before else None)(self.app(app_id)), PAGE_S,
                       "the keep-alive in a block: %s" % self.status_text(d))
        assert_equal((a["moves"], a["clock_address"]), (moves, self.page_addr),
                     "no move counted, still the page's turn")
        self.wait_view(d, "app", "block %d (" % a["deadline"], "the new deadline %d on the page" % a["deadline"])
        kept = [e for e in a["history"] if e["kind"] == "app_keepalive"]
        assert_equal([e["amount"] for e in kept], [a["deadline"]], "the keep-alive in the history, its new deadline")
        assert_true(a["deadline"] >= before + 5, "the deadline moved past the idle blocks: %d -> %d"
                    % (before, a["deadline"]))
        self.log("keep-alive from the page: deadline %d -> %d" % (before, a["deadline"]))

    def race_from_page(self, d, node):
        app_id, _ = self.create_on_page(d, node, "race", 2)
        self.zbc("app", "join", app_id, "--from", "alice", "--fee", FEE, "--wait")
        a = self.app_ready(app_id)
        d.get(node.api_url + "/#/app/" + app_id)
        self.wait_view(d, "app", "Board", "the creator's race page")
        kept, clicks = False, 0
        for _ in range(MAX_RACE_MOVES):
            if a["status"] == "finished":
                break
            if a["players"][a["turn"]]["address"] != self.page_addr:
                a = self.wallet_move(app_id, a, "alice", "roll")
                continue
            if not kept:
                self.keep_alive(d, node, app_id)
                kept = True
            self.click_move(d, "race", "roll")
            clicks += 1
            a = self.moved(app_id, a["moves"], d)
        assert_equal(a["status"], "finished", "the race settled")
        assert_true(kept and clicks > 0, "the page rolled (%d clicks) and kept the game alive" % clicks)
        winner = a["result"]["winner"]
        want = "seat %d (%s) won 1.98 ZBC (rake 0.02 ZBC)" % (winner, a["players"][winner]["address"])
        wait_until(lambda: self.js_text(d, "[data-field=result]") == want, PAGE_S, "the result in words: %r" % want)
        self.board_equals_view(d, a, "the finished race")
        assert_equal(a["view"]["positions"][winner], 49, "the winner on 49")
        assert_equal(self.attrs(d, "svg.board.race .choice", "data-move"), [], "no move offered once it is over")
        self.board_shot(d, "play-race")
        self.log("race played to settlement from the page: %d moves, %d clicked on the page; %s"
                 % (a["moves"], clicks, want))
        self.console_errors(d, "the race played from the page")


if __name__ == "__main__":
    WebDice().main()
