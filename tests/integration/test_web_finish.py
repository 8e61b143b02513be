#!/usr/bin/env python3
"""The last gaps of the browser client (docs/web.md §4, §7, §8) in headless
Chromium against an automine zbcd:

- battleship created on the wallet page: "Start a game" shows the fleet
  placement, Create stores the secret sealed under the new app id before
  posting and sends the commitment as the params; the CreateApp is byte for
  byte `zbc app create battleship --params <the commitment of the stored
  is_ship and salts> --offline` (same timestamp and fee), the commitment
  is recomputed here with hashlib; bob joins and commits with the wallet,
  the page (seat 0) fires at bob's fleet, revealing bob's shots with its
  own, and sends the final open by itself; it wins;
- the action status survives a redraw: the answer to the page's first shot
  is held back while the shot's own block lands (the event redraws the
  page): the redrawn page still says "move fire …", then the answer shows
  in the status line drawn last, with the block;
- a keno and a baccarat bet placed on the page and a blitz bet by the
  wallet: the bet's page draws the keno squares and the cards recomputed
  from the seed of the settling block, equal to `zbc-engine fair`'s, and
  says they agree with the node; a node summary doctored in the page says
  it disagrees;
- dots and lines with three seats: created on the page's form (3 seats),
  joined by alice and bob, moves by each seat (the page's by a click): the
  boards equal the views (every seat's lines board, the dots lines);
- every console message at SEVERE fails the test.

"SKIP: no chromium" as in test_web_explorer.py."""
import hashlib
import json
import os
import subprocess
import time

from framework import ZBC, TestFailure, assert_equal, assert_true, wait_until
from webtest import FEE, PAGE_S, BrowserTest

SEED = "5e" * 32
PP = "finish the page"
BIG_FEE = 5_000_000  # a 3.2 kB commitment
FLEET_B = ["A1", "A2", "A3", "A4", "A5", "C1", "C2", "C3", "C4", "E1", "E2", "E3", "G1", "G2", "G3",
           "I1", "I2"]

SECRET_JS = """
const done = arguments[arguments.length - 1];
import('/js/secrets.js').then((m) => done(m.load(arguments[0], arguments[1])))
  .catch((e) => done({error: String(e)}));
"""
# Holds back the answer to the page's next POST of a transaction until
# window.__release() is called; records the status line shown when it was
# sent and whether that element was still in the page when it was released.
HOLD_JS = """
const f = window.__origFetch || window.fetch;
window.__origFetch = f;
window.__held = null;
window.fetch = async function (u, o) {
  const r = await f.apply(this, arguments);
  if (String(u).endsWith('/api/v1/transactions') && o && o.method === 'POST' && window.__held === null) {
    const el = document.querySelector('[data-status=app-action]');
    window.__held = el;
    await new Promise((res) => { window.__release = res; });
    window.__detached = !document.contains(el);
    window.fetch = f;
  }
  return r;
};
"""
DOCTORED_JS = """
const done = arguments[arguments.length - 1];
const [id] = arguments;
Promise.all([import('/js/api.js'), import('/js/boards/index.js')]).then(async ([api, m]) => {
  const app = await api.get('apps/' + id);
  const settle = app.history.filter((e) => e.kind === 'bet_settle').pop();
  settle.value += 1;  // one hit more than the seed gives
  const svg = m.boardFor(app, null);
  document.body.append(svg);
  const line = svg.querySelector('[data-field=bet-recomputed]');
  const t0 = Date.now();
  while (!line.dataset.agrees && Date.now() - t0 < 10000) await new Promise((r) => setTimeout(r, 50));
  svg.remove();
  done({agrees: line.dataset.agrees, text: line.textContent});
}).catch((e) => done({error: String(e)}));
"""


def cell(n):
    return (ord(n[0]) - ord("A")) * 10 + int(n[1:]) - 1


def name(c):
    return "%s%d" % (chr(ord("A") + c // 10), c % 10 + 1)


class WebFinish(BrowserTest):
    def run_test(self):
        if self.start_web() is None:
            return
        self.page_addr = self.wallet_key("page", seed=SEED)
        node = self.automine_node(balances=[(self.page_addr, 100 * ZBC)])
        self.node = node
        self.engine = os.path.join(os.path.dirname(self.zbc_bin), "..", "engine", "zbc-engine")
        d = self.browser()
        try:
            assert_equal(self.import_key(d, node, SEED, PP), self.page_addr, "the page's key")
            t0 = time.monotonic()
            self.battleship(d, node)
            self.log("battleship created and played from the page: %.1f s" % (time.monotonic() - t0))
            t0 = time.monotonic()
            self.bets(d, node)
            self.log("keno, baccarat and blitz pictures: %.1f s" % (time.monotonic() - t0))
            t0 = time.monotonic()
            for game in ("dots", "lines"):
                self.three_seats(d, node, game)
            self.log("dots and lines with three seats: %.1f s" % (time.monotonic() - t0))
            self.console_errors(d, "the page")
        finally:
            d.quit()

    # -- helpers --------------------------------------------------------------

    def js(self, d, css, attr=None):
        """Text (or an attribute) of the first element at css, read in one
        script (the app page is redrawn on each event)."""
        return d.execute_script("const e = document.querySelector(arguments[0]); if (!e) return null;"
                                "return arguments[1] ? e.getAttribute(arguments[1]) : e.textContent;", css, attr)

    def squares(self, d, css):
        return sorted(d.execute_script("return [...document.querySelectorAll(arguments[0])]"
                                       ".map((e) => e.getAttribute('data-square'))", css))

    def moves(self, app_id):
        return [h for h in self.app(app_id)["history"] if h["kind"] == "app_move"]

    def wait_moves(self, d, app_id, n, what):
        try:
            return wait_until(lambda: (lambda a: a if a["moves"] > n else None)(self.app(app_id)), PAGE_S, what)
        except TestFailure:
            raise TestFailure("%s not on chain; the page's action says %r"
                              % (what, self.js(d, "[data-status=app-action]")))

    def click_when(self, d, css, what):
        from selenium.common.exceptions import StaleElementReferenceException

        def go():
            els = self.q(d, css)
            if not els:
                return None
            try:
                els[0].click()
                return True
            except StaleElementReferenceException:
                return None
        wait_until(go, PAGE_S, what, interval=0.1)

    def same_bytes_as_wallet(self, node, tx_hash, args):
        self.wait_confirmed(tx_hash)
        st, t = node.get("/api/v1/transactions/%s" % tx_hash)
        assert_equal(st, 200, "GET the page's CreateApp")
        raw = bytes.fromhex(t["transaction_bytes"])
        ts = int.from_bytes(raw[5:13], "little", signed=True)
        st, info = node.get("/api/v1/node/info")
        w = self.zbc("app", "create", *args, "--offline", "--genesis", info["genesis_hash"], "--timestamp", ts,
                     "--fee", t["fee"], node=False, env={"ZBC_KEY": SEED})
        assert_equal(t["transaction_bytes"], w["transaction_bytes"],
                     "the page's CreateApp = zbc app create %s --offline" % " ".join(a[:40] for a in args))

    def create_on_page(self, d, node, game, seats=2):
        from selenium.webdriver.support.ui import Select
        d.get(node.api_url + "/#/wallet")
        self.wait_view(d, "wallet", "Start a game", "the wallet page")
        Select(self.q(d, "#app-create select[name=game]")[0]).select_by_value(game)
        Select(self.q(d, "#app-create select[name=seats]")[0]).select_by_value(str(seats))

    def created(self, d, game):
        return wait_until(lambda: (lambda s: (s.get_attribute("data-app"), s.get_attribute("data-tx"))
                                   if s.get_attribute("data-app") else None)(
            self.q(d, "[data-status=app-create]")[0]), PAGE_S,
            "the %s created: %s" % (game, self.status(d, "app-create")))

    # -- battleship created on the page, played as seat 0 ----------------------

    def battleship(self, d, node):
        self.create_on_page(d, node, "battleship")
        picker = "[data-field=create-secret] svg.board.battleship [data-board=fleet] [data-piece=ship]"
        wait_until(lambda: len(self.squares(d, picker)) == 17, PAGE_S, "the fleet placement on the form")
        assert_equal(self.q(d, "[data-field=create-secret] [data-board=shots]"), [],
                     "the form shows the fleet grid only")
        assert_true(not self.q(d, "#app-create input[name=params]")[0].is_displayed(), "no params field for battleship")
        self.click_when(d, "[data-field=create-secret] #bs-random", "Random fleet")
        placed = self.squares(d, picker)
        assert_equal(len(placed), 17, "a random fleet of 17 cells")
        self.submit(d, "app-create", {"stake": "1"})
        app_id, tx = self.created(d, "battleship")
        sec = d.execute_async_script(SECRET_JS, self.page_addr, app_id)
        assert_true(isinstance(sec, dict) and "error" not in sec, "the page's secret for app %s: %r" % (app_id, sec))
        ships = [c for c in range(100) if sec["is_ship"][2 * c:2 * c + 2] == "01"]
        salts = [sec["salts"][64 * c:64 * c + 64] for c in range(100)]
        assert_equal(sorted(name(c) for c in ships), placed, "the stored fleet is the one placed on the form")
        commitment = b"".join(hashlib.sha3_256(bytes([1 if c in ships else 0]) + bytes.fromhex(salts[c])).digest()
                              for c in range(100)).hex()
        a = self.app_ready_open(app_id)
        assert_equal(a["params_hex"], commitment, "the params are the commitment of the stored fleet and salts")
        self.same_bytes_as_wallet(node, tx, ["battleship", "--stake", "1ZBC", "--params", commitment])
        raw = d.execute_script("return localStorage.getItem(arguments[0])",
                               "zbc.secret.v1.%s.%s" % (app_id, self.page_addr))
        assert_true(raw is not None and salts[0] not in raw.lower(), "the secret is stored sealed")

        self.zbc("app", "join", app_id, "--from", "bob", "--fee", FEE, "--wait")
        self.zbc("app", "move", app_id, "commit", "--board", ",".join(FLEET_B), "--from", "bob",
                 "--fee", BIG_FEE, "--wait")
        d.get(node.api_url + "/#/app/" + app_id)
        self.wait_view(d, "app", "your fleet (seat 0)", "the creator's app page")
        wait_until(lambda: self.squares(d, "svg.board.battleship [data-board=fleet] [data-piece=ship]") ==
                   placed, PAGE_S, "the page's fleet drawn from its secret")
        water = [name(c) for c in range(100) if c not in ships]
        for i, target in enumerate(FLEET_B):
            n = self.app(app_id)["moves"]
            css = "svg.board.battleship [data-board=shots] rect.cell.playable[data-square=%s]" % target
            if i == 0:
                self.held_shot(d, app_id, css, target, n)
            else:
                self.click_when(d, css, "the page's shot at %s" % target)
                self.wait_moves(d, app_id, n, "the page's shot at %s" % target)
            m = self.moves(app_id)[-1]["move_hex"]
            want = ("00" if i == 0 else "0200" + salts[cell(water[i - 1])]) + "%02x" % cell(target)
            assert_equal(m, want, "the page's move %d (%s)" % (i + 1, target))
            if i < len(FLEET_B) - 1:
                self.zbc("app", "move", app_id, "fire", water[i], "--from", "bob", "--fee", FEE, "--wait")
        # bob's 17th-hit reveal is his whole turn; the page then opens by itself
        self.zbc("app", "move", app_id, "reveal", "--from", "bob", "--fee", FEE, "--wait")
        a = wait_until(lambda: (lambda x: x if x["status"] == "finished" else None)(self.app(app_id)),
                       PAGE_S, "app %s settled (the page's open)" % app_id)
        open_hex = "04" + "".join(("01" if c in ships else "00") + salts[c] for c in range(100))
        assert_equal(self.moves(app_id)[-1]["move_hex"], open_hex, "the page's final open")
        assert_equal(a["result"]["winner"], 0, "the page's seat 0 won")
        assert_equal(a["view"]["end"], "sunk", "the page opened the standard fleet")
        want = "seat 0 (%s) won 1.98 ZBC (rake 0.02 ZBC)" % self.page_addr
        wait_until(lambda: self.js(d, "[data-field=result]") == want, PAGE_S, "the result: %r" % want)
        self.shot(d, "board-battleship-seat0")
        self.log("battleship app %s: created on the page (seat 0), played against the wallet, won" % app_id)

    def app_ready_open(self, app_id):
        return wait_until(lambda: (lambda st, j: j if st == 200 else None)(
            *self.node.get("/api/v1/apps/%s" % app_id)), PAGE_S, "app %s on chain" % app_id)

    def held_shot(self, d, app_id, css, target, n):
        """The first shot with its answer held back: the shot's block lands
        (its event redraws the page) before the page has the answer."""
        d.execute_script(HOLD_JS)
        self.click_when(d, css, "the page's shot at %s" % target)
        self.wait_moves(d, app_id, n, "the held shot at %s" % target)
        what = "move fire %s" % target
        # the block's event redraws the page: a new status line, still saying the move is out
        wait_until(lambda: d.execute_script(
            "const e = document.querySelector('[data-status=app-action]');"
            "return window.__held && e && e !== window.__held && !document.contains(window.__held);"),
            PAGE_S, "the page redrawn while the answer is held")
        assert_equal(self.js(d, "[data-status=app-action]"), what + "…",
                     "the redrawn page still shows the move that is out")
        d.execute_script("window.__release();")
        height = [h for h in self.app(app_id)["history"] if h["kind"] == "app_move"][-1]["height"]
        wait_until(lambda: (self.js(d, "[data-status=app-action]") or "").endswith(", in block %d" % height),
                   PAGE_S, "the answer in the status line drawn last (shows %r)"
                   % self.js(d, "[data-status=app-action]"))
        text = self.js(d, "[data-status=app-action]")
        assert_true(text.startswith(what + ": sent "), "the status names the move: %r" % text)
        assert_true(d.execute_script("return window.__detached"), "the answer came after the redraw")

    # -- keno, baccarat and blitz: the pictures recomputed in the page ---------

    def bets(self, d, node):
        from selenium.webdriver.support.ui import Select
        ids = {}
        for kind, words in (("keno", "3,17,40"), ("baccarat", "banker")):
            d.get(node.api_url + "/#/wallet")
            self.wait_view(d, "wallet", "Place a bet", "the wallet page")
            Select(self.q(d, "#bet-place select[name=game]")[0]).select_by_value(kind)
            self.submit(d, "bet-place", {"words": words, "stake": "1", "seed": "finish-" + kind})
            ids[kind] = wait_until(lambda: (lambda a: a if a and a not in ids.values() else None)(
                self.q(d, "[data-status=bet-place]")[0].get_attribute("data-app")), PAGE_S,
                "the %s bet placed: %s" % (kind, self.status(d, "bet-place")))
        r = self.zbc("bet", "blitz", "3", "--stake", "1ZBC", "--client-seed", "finish-blitz", "--from", "alice",
                     "--fee", FEE, "--wait")
        ids["blitz"] = str(r["app_id"])
        args = {"keno": ["--picks", "3,17,40", "--risk", "classic"], "baccarat": ["--side", "banker"],
                "blitz": ["--cards", "3"]}
        for kind, app_id in ids.items():
            a = wait_until(lambda: (lambda x: x if any(e["kind"] == "bet_settle" for e in x["history"]) else None)(
                self.app(app_id)), PAGE_S, "the %s bet settled" % kind)
            settle = [e for e in a["history"] if e["kind"] == "bet_settle"][-1]
            st, blk = node.get("/api/v1/blocks/%d" % settle["height"])
            p = subprocess.run([self.engine, "fair", kind, "--server-seed", blk["seed"], "--client-seed",
                                "finish-" + kind, "--nonce", str(app_id), "--stake", str(ZBC), *args[kind], "--json"],
                               capture_output=True, text=True, timeout=60)
            assert_equal(p.returncode, 0, "zbc-engine fair %s: %s" % (kind, p.stderr))
            ev = json.loads(p.stdout)["event"]
            d.get(node.api_url + "/#/app/" + app_id)
            self.wait_view(d, "app", "App %s: %s" % (app_id, kind), "the %s bet's page" % kind)
            line = "svg.board.bet [data-field=bet-recomputed]"
            wait_until(lambda: self.js(d, line, "data-agrees"), PAGE_S, "the %s picture recomputed" % kind)
            text = self.js(d, line)
            assert_equal(self.js(d, line, "data-agrees"), "true", "%s: the page agrees with the node: %r" % (kind, text))
            assert_true(text.startswith("recomputed in this page from the seed of block %d: " % settle["height"]),
                        "%s: labelled with the settling block: %r" % (kind, text))
            pic = "svg.board.bet [data-field=recomputed-picture]"
            if kind == "keno":
                got = d.execute_script("return [...document.querySelectorAll(arguments[0] + ' [data-piece=drawn]')]"
                                       ".map((e) => Number(e.getAttribute('data-square')))", pic)
                assert_equal(got, ev["squares"], "the keno squares drawn = zbc-engine fair's, in draw order")
                hits = len(set(ev["squares"]) & {3, 17, 40})
                assert_equal(settle["value"], hits, "the node's hits")
            else:
                got = d.execute_script("return [...document.querySelectorAll(arguments[0] + ' g.card')]"
                                       ".map((e) => [e.getAttribute('data-hand'), e.getAttribute('data-piece')])", pic)
                if kind == "baccarat":
                    want = [["player", c] for c in ev["player_names"]] + [["banker", c] for c in ev["banker_names"]]
                else:
                    want = [[None, c] for c in ev["names"]]
                assert_equal(got, want, "the %s cards drawn = zbc-engine fair's" % kind)
            self.shot(d, "bet-%s-recomputed" % kind)
            self.log("%s bet %s: %s" % (kind, app_id, text))
        got = d.execute_async_script(DOCTORED_JS, ids["keno"])
        assert_equal(got.get("agrees"), "false", "a doctored keno summary: %r" % got)
        assert_true("DISAGREES with the node" in got["text"], "said on the board: %r" % got)

    # -- dots and lines with three seats -------------------------------------

    def three_seats(self, d, node, game):
        self.create_on_page(d, node, game, seats=3)
        self.submit(d, "app-create", {"stake": "1"})
        app_id, tx = self.created(d, game)
        self.same_bytes_as_wallet(node, tx, [game, "--stake", "1ZBC", "--seats", "3"])
        for who in ("alice", "bob"):
            self.zbc("app", "join", app_id, "--from", who, "--fee", FEE, "--wait")
        a = self.app_ready(app_id)
        names = {self.alice: "alice", self.bob: "bob"}
        d.get(node.api_url + "/#/app/" + app_id)
        self.wait_view(d, "app", "App %s: %s" % (app_id, game), "the %s page" % game)
        self.wait_view(d, "app", "Board", "the %s board" % game)
        page_moved = False
        for _ in range(6):
            a = self.settled_turn(app_id)
            mover = a["players"][a["turn"]]["address"]
            n = a["moves"]
            move = sorted(a["legal_moves"])[0]
            if mover == self.page_addr:
                self.page_move(d, game, move)
                page_moved = True
            else:
                self.zbc("app", "move", app_id, *move.split(), "--from", names[mover], "--fee", FEE)
            self.wait_moves(d, app_id, n, "%s move %s" % (game, move))
            a = self.settled_turn(app_id)
            self.board_is_view(d, game, a)
        assert_true(page_moved, "the page moved in the 3-seat %s" % game)
        self.shot(d, "board-%s-3-seats" % game)
        self.log("%s app %s: three seats, six moves, the board equals the view" % (game, app_id))

    def settled_turn(self, app_id):
        return wait_until(lambda: (lambda x: x if not x["has_pending"] and x["turn"] is not None else None)(
            self.app(app_id)), PAGE_S, "app %s: a seat to move" % app_id)

    def page_move(self, d, game, move):
        if game == "dots":
            self.click_when(d, "svg.board.dots rect.slot.playable[data-square='%s']" % move, "the page's line %s" % move)
            return
        frm, to = move.split()
        self.click_when(d, "svg.board.lines g.to-move rect.playable[data-square=%s]" % frm, "the page's ball at %s" % frm)
        self.click_when(d, "svg.board.lines g.to-move rect.target[data-square=%s]" % to, "the page's target %s" % to)

    def board_is_view(self, d, game, a):
        v = a["view"]

        def seen():
            if game == "dots":
                got = self.squares(d, "svg.board.dots line[data-piece=line]")
                want = sorted(["h %d %d" % (r, c) for r, row in enumerate(v["h_lines"]) for c, x in enumerate(row)
                               if x == "1"] + ["v %d %d" % (r, c) for r, row in enumerate(v["v_lines"])
                                               for c, x in enumerate(row) if x == "1"])
                return got == want
            got = d.execute_script("""
                const out = {};
                for (const g of document.querySelectorAll('svg.board.lines g[data-seat]')) {
                  const balls = {};
                  for (const b of g.querySelectorAll('[data-piece]')) balls[b.getAttribute('data-square')] = b.getAttribute('data-piece');
                  out[g.getAttribute('data-seat')] = balls;
                }
                return out;""")
            want = {}
            for p in v["players"]:
                want[str(p["seat"])] = {"%s%d" % ("abcdefghi"[i % 9], i // 9 + 1): ch
                                        for i, ch in enumerate(p["board"]) if ch != "."}
            return got == want
        wait_until(seen, PAGE_S, "the %s board equals the view after move %d" % (game, a["moves"]))
        if game == "lines":
            # three boards side by side, none drawn over another
            boxes = d.execute_script("return [...document.querySelectorAll('svg.board.lines g[data-seat]')]"
                                     ".map((g) => { const b = g.getBBox(); return [b.x, b.y, b.width, b.height]; })")
            assert_equal(len(boxes), 3, "a lines board per seat")
            for i in range(3):
                for j in range(i + 1, 3):
                    x1, y1, w1, h1 = boxes[i]
                    x2, y2, w2, h2 = boxes[j]
                    assert_true(x1 + w1 <= x2 or x2 + w2 <= x1 or y1 + h1 <= y2 or y2 + h2 <= y1,
                                "the boards of seats %d and %d do not overlap: %r" % (i, j, boxes))


if __name__ == "__main__":
    WebFinish().main()
