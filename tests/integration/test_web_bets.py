#!/usr/bin/env python3
"""Bets, solo games and crash rounds in the browser client (docs/web.md "Bets and solo games"),
headless Chromium against an automine devnet:

- five solo bets placed from the wallet page's "Place a bet" form (dice,
  plinko, keno, wheel, baccarat) and four by the wallet (coin, roulette,
  limbo, blitz): each app page draws the bet's parameters, the block whose
  seed decides it and what was rolled, an element whose data-value is the
  node's bet_settle value; the payout words on the page are the wallet's
  (`zbc app show`), and the page's CreateApp bytes equal
  `zbc bet … --offline` for the same fields, fee and timestamp;
- a mines and a blackjack game started on the wallet page and played by
  clicking the board (tiles, cash out / deal, stand) to settlement; the
  pending draw shows as waiting; the page's result words are the wallet's;
  a tower and a hilo game started by the wallet show their boards;
- a crash round opened by the wallet: the page shows the entries' targets,
  the page enters it (its AppMove bytes equal `zbc crash join --offline`),
  and once settled the crash point equals the node's and every entry reads
  as `zbc crash show` says it;
- app views a hostile node could send (fields of the wrong type, a
  billion tower columns, params out of range) are refused by the board
  modules with a sentence naming the field (the app page then shows it
  beside the engine's text board), never a script error;
- any SEVERE console entry fails; screenshots bet-<kind>.png and
  board-<game>.png in BUILD/web-artefacts/."""
from framework import assert_equal, assert_true, wait_until
from webtest import FEE, PAGE_S, BrowserTest

SEED = "8c3d6f5e2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d"
PP = "bets in the page"
PAGE_BETS = [("dice", "under 49.5"), ("plinko", "8 low"), ("keno", "3,17,40"), ("wheel", "10 medium"),
             ("baccarat", "banker")]
WALLET_BETS = [("coin", "heads"), ("roulette", "straight 17"), ("limbo", "2"), ("blitz", "4")]


RENDER_JS = """
const done = arguments[arguments.length - 1];
import('/js/boards/index.js').then((m) => {
  const svg = m.boardFor(arguments[0], null);
  const p = svg && svg.querySelector('[data-field=pending]');
  done(p ? p.textContent : null);
}).catch((e) => done(String(e)));
"""

HOSTILE_JS = """
const done = arguments[arguments.length - 1];
import('/js/boards/index.js').then((m) => done(arguments[0].map((app) => {
  try {
    const svg = m.boardFor(app, null);
    return 'drawn: ' + (svg ? svg.textContent.slice(0, 60) : 'nothing');
  } catch (e) { return 'refused: ' + e.message; }
}))).catch((e) => done(String(e)));
"""
# app views a hostile node could send, and what the board module says
HOSTILE = [
    ({"game": "mines", "view": {"mines": 3, "revealed": 5}}, "refused: the view's revealed tiles is not a list"),
    ({"game": "mines", "view": {"mines": 99, "revealed": []}}, "refused: the view's mine count must be 1-24, not 99"),
    ({"game": "tower", "view": {"columns": 1000000000, "picks": []}},
     "refused: the view's column count must be 2-4, not 1000000000"),
    ({"game": "blackjack", "view": {"hands": [{"cards": "K"}]}}, "refused: the view's hand cards is not a list"),
    ({"game": "hilo", "view": {"cards": [None, 5], "won": 0}}, "drawn: "),
    ({"game": "crash", "crash": {"entries": "all"}}, "refused: the view's crash entries is not a list"),
    ({"game": "plinko", "type": 23, "params_hex": "ff0003616263"},
     "refused: the plinko params are out of range (ff0003616263)"),
    ({"game": "keno", "type": 24, "params_hex": "zz"}, "drawn: the params do not read as a bet"),
    ({"game": "dice", "type": 16, "params_hex": "0001000161",
      "history": [{"kind": "bet_settle", "value": "a lot", "win": True, "amount": 5}]}, "drawn: dice under 0.01"),
]


def TILE(t):
    """Tile t's name, A1 = 0 … E5 = 24 (docs/games.md "Mines")."""
    return "ABCDE"[t % 5] + str(t // 5 + 1)


class WebBets(BrowserTest):
    def try_app(self, app_id):
        st, j = self.nodes[0].get("/api/v1/apps/%s" % app_id)
        return j if st == 200 else None

    def until(self, node, app_id, pred, what):
        """The app once pred(app) holds, mining a block per try (a pending draw
        is decided by the next block)."""
        def step():
            a = self.try_app(app_id)
            if a is not None and pred(a):
                return a
            self.mine(node, 1)
            return None
        return wait_until(step, PAGE_S * 2, what, interval=0.2)

    def tx_of(self, tx_hash):
        st, t = self.nodes[0].get("/api/v1/transactions/%s" % tx_hash)
        assert_equal(st, 200, "the page's transaction %s" % tx_hash)
        return t

    def same_bytes(self, tx_hash, *wallet_args):
        """The page's transaction equals the wallet's --offline one for the
        same fields, fee and timestamp."""
        t = self.tx_of(tx_hash)
        w = self.zbc(*wallet_args, "--from", "page", "--offline", "--genesis", self.gh, "--fee", t["fee"],
                     "--timestamp", t["timestamp"], node=False)
        assert_equal(w["transaction_bytes"], t["transaction_bytes"],
                     "the page's bytes = zbc %s --offline" % " ".join(map(str, wallet_args)))

    def attrs(self, d, css, name):
        """Every match's attribute, read in one script (the board is redrawn
        by the event stream: an element found earlier may be stale)."""
        return d.execute_script("return [...document.querySelectorAll(arguments[0])]"
                                ".map((e) => e.getAttribute(arguments[1]));", css, name)

    def words(self, d, css):
        return d.execute_script("const e = document.querySelector(arguments[0]); return e ? e.textContent : null;",
                                css)

    def click(self, d, css, what):
        """Clicks the first element matching css once it is there (the board
        is redrawn by the app's event stream; a stale element is retried)."""
        def go():
            els = self.q(d, css)
            if not els:
                return False
            try:
                els[0].click()
                return True
            except Exception:  # stale after a redraw: find it again
                return False
        wait_until(go, PAGE_S, what, interval=0.2)

    def open_app(self, d, node, app_id, contains):
        d.get(node.api_url + "/#/app/" + app_id)
        return self.wait_view(d, "app", contains, "app %s page" % app_id)

    def wallet_words(self, app_id):
        return self.zbc("app", "show", app_id, json_out=False).stdout

    def check_bet_page(self, d, node, kind, app_id):
        a = self.until(node, app_id, lambda a: a["status"] == "finished", "%s bet %s settled" % (kind, app_id))
        settle = [e for e in a["history"] if e["kind"] == "bet_settle"][-1]
        self.open_app(d, node, app_id, "decided by the seed of block %d" % (a["created"] + 1))
        value = wait_until(lambda: (self.attrs(d, "[data-piece=outcome]", "data-value") or [None])[0],
                           PAGE_S, "the %s outcome drawn" % kind)
        assert_equal(int(value), settle["value"], "%s: the page's rolled value = the node's" % kind)
        words = self.words(d, "[data-field=result]")
        wallet = self.wallet_words(app_id)
        assert_true(words and words in wallet, "%s: the page's words %r are the wallet's:\n%s" % (kind, words, wallet))
        assert_equal(self.words(d, "[data-field=bet-words]"), words, "%s: the board's words" % kind)
        self.console_errors(d, "the %s bet page" % kind)
        self.shot(d, "bet-" + kind)
        self.log("%s bet %s: value %d, %s" % (kind, app_id, settle["value"], words))

    def created(self, d, form, before, what):
        """The (app id, transaction hash) a form's status links, once it is
        not one of `before` (the page keeps the last one shown)."""
        css = "[data-status=%s]" % form
        app_id = wait_until(lambda: (lambda a: a if a and a not in before else None)(
            (self.attrs(d, css, "data-app") or [None])[0]), PAGE_S, "%s sent: %s" % (what, self.status(d, form)))
        return app_id, self.attrs(d, css, "data-tx")[0]

    def page_bets(self, d, node):
        from selenium.webdriver.support.ui import Select
        ids = {}
        for kind, words in PAGE_BETS:
            d.get(node.api_url + "/#/wallet")
            self.wait_view(d, "wallet", "Place a bet", "the wallet page")
            Select(self.q(d, "#bet-place select[name=game]")[0]).select_by_value(kind)
            cs = "web-" + kind
            self.submit(d, "bet-place", {"words": words, "stake": "1", "seed": cs})
            app_id, tx = self.created(d, "bet-place", ids.values(), kind)
            self.same_bytes(tx, "bet", kind, *words.split(), "--stake", "1ZBC", "--client-seed", cs)
            ids[kind] = app_id
        # a refused bet names its field, and sends nothing
        Select(self.q(d, "#bet-place select[name=game]")[0]).select_by_value("plinko")
        self.submit(d, "bet-place", {"words": "7 low", "stake": "1", "seed": ""})
        wait_until(lambda: "plinko rows must be 8-16, not '7'" in self.status(d, "bet-place"), PAGE_S,
                   "the bad plinko bet refused: %r" % self.status(d, "bet-place"))
        return ids

    def solo(self, d, node, game, field):
        from selenium.webdriver.support.ui import Select
        d.get(node.api_url + "/#/wallet")
        self.wait_view(d, "wallet", "Play a solo game", "the wallet page")
        Select(self.q(d, "#solo-create select[name=game]")[0]).select_by_value(game)
        self.submit(d, "solo-create", {"field": field, "stake": "1", "seed": "web"})
        app_id, tx = self.created(d, "solo-create", self.solo_ids, game)
        self.solo_ids.append(app_id)
        params = ("mines=%s,seed=web" % field) if field else "seed=web"
        self.same_bytes(tx, "app", "create", game, "--stake", "1ZBC", "--params", params)
        self.until(node, app_id, lambda a: a["status"] == "active", "%s %s active" % (game, app_id))
        self.open_app(d, node, app_id, "your move")
        return app_id

    def play_move(self, d, node, app_id, css, what):
        before = self.app(app_id)
        n = before["moves"]
        self.click(d, css, what)
        a = wait_until(lambda: (lambda a: a if a["moves"] > n or a["has_pending"] else None)(self.app(app_id)),
                       PAGE_S, "%s sent (%s)" % (what, self.status(d, "app-action")))
        if not a["has_pending"]:
            # automine decides a draw in the next block at once, usually before
            # anyone sees it wait: the view it answered while waiting is the one
            # before plus `pending` as docs/api.md §10 has it (applies_at = the
            # tip + 1), built from the move's own history entry
            m = [e for e in a["history"] if e["kind"] == "app_move"]
            m = m[-1] if m else None
            if m is None or m["notation"] in ("cashout",):
                return self.until(node, app_id, lambda a: a["moves"] > n and not a["has_pending"],
                                  "%s decided" % what)
            a = dict(before, has_pending=True, pending={
                "seat": 0, "address": self.page_addr, "tx_hash": m["tx_hash"], "move_hex": m["move_hex"],
                "notation": m["notation"], "applies_at": m["height"] + 1})
        drawn = d.execute_async_script(RENDER_JS, a)
        want = "waiting: %s is decided in block %d" % (a["pending"]["notation"], a["pending"]["applies_at"])
        assert_equal(drawn, want, "the pending draw drawn as waiting")
        self.pending_seen += 1
        return self.until(node, app_id, lambda a: a["moves"] > n and not a["has_pending"], "%s decided" % what)

    def settled_words(self, d, app_id, game):
        a = self.app(app_id)
        assert_equal(a["status"], "finished", "the %s game settled" % game)
        wallet = self.wallet_words(app_id)
        words = wait_until(lambda: self.words(d, "[data-field=result]"), PAGE_S, "the %s result" % game)
        assert_true(words in wallet, "%s: the page's words %r are the wallet's:\n%s" % (game, words, wallet))
        self.log("%s %s played from the page: %s" % (game, app_id, words))
        return a

    def mines(self, d, node):
        app_id = self.solo(d, node, "mines", "3")
        for _ in range(3):
            a = self.play_move(d, node, app_id, "svg.mines rect.playable[data-square]:not([data-square=cashout])",
                               "a mines tile")
            revealed = a["view"]["revealed"]
            want = sorted(["safe " + TILE(t) for t in revealed] +
                          (["hit " + TILE(a["view"]["hit"])] if a["view"]["hit"] is not None else []) +
                          ["mine " + TILE(t) for t in (a["view"]["mines_at"] or []) if t != a["view"]["hit"]])
            wait_until(lambda: sorted(p + " " + s for p, s in zip(self.attrs(d, "svg.mines [data-piece]", "data-piece"),
                                                                  self.attrs(d, "svg.mines [data-piece]", "data-square")))
                       == want, PAGE_S, "the tiles drawn as the view says %r" % a["view"])
            if a["status"] == "finished":
                break
            if len(revealed) >= 2:
                self.play_move(d, node, app_id, "svg.mines rect.playable[data-square=cashout]", "cash out")
                break
        self.shot(d, "board-mines")
        self.settled_words(d, app_id, "mines")
        self.console_errors(d, "the mines game")

    def blackjack(self, d, node):
        app_id = self.solo(d, node, "blackjack", "")
        a = self.play_move(d, node, app_id, "svg.blackjack rect.playable[data-square=deal]", "deal")
        cards = sum(len(hd["cards"]) for hd in a["view"]["hands"]) + len(a["view"]["dealer"]["cards"])
        wait_until(lambda: len(self.attrs(d, "svg.blackjack g.card", "data-piece")) == cards, PAGE_S,
                   "the cards dealt drawn")
        if a["status"] != "finished":
            self.play_move(d, node, app_id, "svg.blackjack rect.playable[data-square=stand]", "stand")
        a = self.app(app_id)
        names = [hd for hd in a["view"]["dealer"]["cards"]]
        wait_until(lambda: self.attrs(d, "svg.blackjack g.card", "data-piece")[:len(names)] == names,
                   PAGE_S, "the dealer's cards %r drawn" % names)
        self.shot(d, "board-blackjack")
        self.settled_words(d, app_id, "blackjack")
        self.console_errors(d, "the blackjack game")

    def crash(self, d, node):
        r = self.zbc("crash", "create", "--blocks", "4", "--stake", "1ZBC", "--target", "2x", "--from", "alice")
        app_id = r["app_id"]
        self.until(node, app_id, lambda a: a["crash"] and a["crash"]["open"], "the crash round open")
        self.open_app(d, node, app_id, "Enter this round")
        wait_until(lambda: self.attrs(d, "svg.crash [data-piece=entry]", "data-value") == ["200"],
                   PAGE_S, "alice's entry at 2x drawn")
        self.submit(d, "crash-join", {"stake": "1", "target": "1.5x"})
        # the entry's block re-renders the page (its event stream): the entry is read from the node
        entry = self.until(node, app_id, lambda a: [m for m in a["history"] if m["kind"] == "app_join" and
                                                     m["from"] == self.page_addr], "the page's entry on chain")
        tx = [m for m in entry["history"] if m["kind"] == "app_join" and m["from"] == self.page_addr][0]["tx_hash"]
        self.same_bytes(tx, "crash", "join", app_id, "--stake", "1ZBC", "--target", "1.5x")
        a = self.until(node, app_id, lambda a: a["status"] == "finished", "the crash round settled")
        point = a["crash"]["crash_point"]
        got = wait_until(lambda: (self.attrs(d, "svg.crash [data-piece=outcome]", "data-value") or [None])[0],
                         PAGE_S, "the crash point drawn")
        assert_equal(int(got), point, "the page's crash point = the node's")
        show = self.zbc("crash", "show", app_id, json_out=False).stdout
        lines = d.execute_script("return [...document.querySelectorAll('[data-field=crash-entry]')]"
                                 ".map((e) => e.textContent);")
        assert_equal(len(lines), 2, "two entries drawn")
        for line in lines:
            assert_true(line in show, "the entry %r reads as zbc crash show:\n%s" % (line, show))
        assert_true(self.words(d, "[data-field=crash-state]") in show, "crash point words")
        self.shot(d, "board-crash")
        self.console_errors(d, "the crash round")
        self.log("crash round %s: crashed at %d hundredths, %s" % (app_id, point, lines))

    def wallet_solo_boards(self, d, node):
        for game, first, css in (("tower", "climb 2", "svg.tower rect[data-square]"),
                                 ("hilo", "deal", "svg.hilo g.card")):
            r = self.zbc("app", "create", game, "--stake", "1ZBC", "--from", "alice")
            self.until(node, r["app_id"], lambda a: a["status"] == "active", "%s active" % game)
            self.zbc("app", "move", r["app_id"], first, "--from", "alice")
            a = self.until(node, r["app_id"], lambda a: a["moves"] >= 1 and not a["has_pending"], "%s moved" % game)
            self.open_app(d, node, r["app_id"], "Board")
            if game == "tower":
                want = len(a["view"]["picks"]) + (1 if a["view"]["hit"] is not None else 0)
                wait_until(lambda: len(self.attrs(d, "svg.tower [data-piece=climbed], svg.tower [data-piece=hit]",
                                                  "data-piece")) == want,
                           PAGE_S, "the tower's row drawn as %r" % a["view"])
            else:
                want = [c["card"] for c in a["view"]["cards"]]
                wait_until(lambda: self.attrs(d, css, "data-piece") == want, PAGE_S,
                           "the hilo cards %r drawn" % want)
            self.shot(d, "board-" + game)
            self.console_errors(d, "the %s board" % game)

    def hostile_views(self, d):
        got = d.execute_async_script(HOSTILE_JS, [a for a, _ in HOSTILE])
        for (app, want), g in zip(HOSTILE, got):
            assert_true(isinstance(g, str) and g.startswith(want), "hostile %r: %r, want %r" % (app, g, want))
        self.console_errors(d, "hostile views")
        self.log("%d hostile app views: refused with their sentence or drawn without them" % len(HOSTILE))

    def run_test(self):
        webdriver = self.start_web()
        if webdriver is None:
            return
        node = self.automine_node()
        self.gh = node.info()["genesis_hash"].lower()
        page_addr = self.page_addr = self.wallet_key("page", SEED)
        self.solo_ids = []
        self.pending_seen = 0
        self.zbc("send", "--from", "alice", page_addr, "100ZBC", "--fee", FEE, "--wait")
        d = self.browser()
        try:
            assert_equal(self.import_key(d, node, SEED, PP), page_addr, "the page's key")
            self.hostile_views(d)
            ids = self.page_bets(d, node)
            for kind, words in WALLET_BETS:
                r = self.zbc("bet", kind, *words.split(), "--stake", "1ZBC", "--from", "alice")
                ids[kind] = r["app_id"]
            for kind, _ in PAGE_BETS + WALLET_BETS:
                self.check_bet_page(d, node, kind, ids[kind])
            self.mines(d, node)
            self.blackjack(d, node)
            self.wallet_solo_boards(d, node)
            self.crash(d, node)
            assert_true(self.pending_seen > 0, "a pending draw was seen and drawn")
        finally:
            d.quit()


if __name__ == "__main__":
    WebBets().main()
