#!/usr/bin/env python3
"""The grid games' SVG boards in headless Chromium (docs/web.md §6):
connect-4, checkers, reversi, gomoku, dots and boxes and lines, and chess
drawn from black's side for the player holding black.  One automine node.

For each of the six games: alice creates it with the wallet, the page's key
(imported both into the wallet, as "page", and into the browser's wallet
page) joins with the wallet; then the seats move in turn, the seat of the
page's key by clicking the board in the browser (the game's click path:
one click, or chess/lines from → to, or a checkers multi-jump one click per
landing square), the other by `zbc app move`, until at least two moves of
each kind are on chain.  After each move the page (following the app's
event stream, no reload) must show exactly the view's pieces on their
squares (data-square/data-piece, counted), the legal squares of the seat to
move highlighted as the node's legal_moves say, and the last move marked.
Then the page's moveBytes(notation) equals the move bytes of every move in
the history (the wallet's and the page's).  A screenshot board-<game>.png
per game goes to BUILD/web-artefacts/.

Chess: the board of an app the page's key holds no seat in has white at
the bottom (a1 under the bottom-left corner); the browser then imports the
key holding black, whose board has black at the bottom (the square under
the bottom-right corner is a8, under the top-left h1), and black's two
moves of the fool's mate are clicked on the flipped board.

Any SEVERE console entry fails the test.  "SKIP: no chromium" only when
chromium, chromedriver or selenium is missing."""
import json
import time

from framework import TestFailure, assert_equal, assert_true, wait_until
from webtest import FEE, PAGE_S, BrowserTest

SEED = "3a" * 32
SEED2 = "5c" * 32
PP = "grid games in a browser"
GAMES = ["connect4", "checkers", "reversi", "gomoku", "dots", "lines"]
# checkers: each line has a multi-jump by the colour named, found with
# zbc-engine play (checked legal move by move by the node itself)
CHECKERS = {"black": ["12-16", "23-18", "8-12", "22-17", "10-14", "17x10", "6x15x22"],
            "white": ["11-16", "21-17", "10-15", "23-19", "16x23", "26x19x10"]}
MULTI_CLICK = {"checkers", "lines", "chess"}
# hostile views and notations: every board still draws (an <svg>, no
# exception), every bad notation is refused with a sentence naming it
HOSTILE_JS = """
const done = arguments[arguments.length - 1];
const [games, views, bad] = arguments[0];
import('/js/boards/index.js').then((m) => {
  const out = {drawn: [], refused: []};
  for (const game of games) {
    for (const view of views) {
      for (const legal of [[1, null, {}, 'zz', '99x1', 'h 9 9', 'a1 z9', 'e2e9'], 'x']) {
        try {
          const svg = m.boardFor({game, view, legal_moves: legal, legal_moves_total: 'x', players: {}}, () => {});
          out.drawn.push(svg instanceof SVGElement ? 'svg' : game + ': ' + String(svg));
        } catch (e) { out.drawn.push(game + ': threw ' + e.message); }
      }
    }
    for (const n of bad) {
      try { m.moveBytes(game, n); out.refused.push(game + ' ' + JSON.stringify(n) + ' accepted'); }
      catch (e) { out.refused.push(e.message); }
    }
  }
  done(out);
}).catch((e) => done({error: String(e)}));
"""
HEX_JS = """
const done = arguments[arguments.length - 1];
import('/js/boards/index.js').then((m) => done(arguments[0].map(([g, n]) => {
  try { return Array.from(m.moveBytes(g, n), (b) => b.toString(16).padStart(2, '0')).join(''); }
  catch (e) { return 'error: ' + e.message; }
}))).catch((e) => done('error: ' + e));
"""


def css_str(v):
    return '"%s"' % v.replace("\\", "\\\\").replace('"', '\\"')


class WebBoardsTest(BrowserTest):
    def run_test(self):
        webdriver = self.start_web()
        if webdriver is None:
            return
        node = self.automine_node()
        self.page = self.wallet_key("page", SEED)
        self.page2 = self.wallet_key("page2", SEED2)
        for addr in (self.page, self.page2):
            self.zbc("send", "--from", "alice", addr, "50ZBC", "--fee", FEE, "--wait")
        self.names = {self.alice: "alice", self.page: "page", self.page2: "page2"}
        d = self.browser()
        try:
            assert_equal(self.import_key(d, node, SEED, PP), self.page, "the page's key is the wallet's 'page'")
            self.hostile(d)
            for game in GAMES:
                self.play(d, node, game)
            self.chess(d, node)
        finally:
            d.quit()

    def hostile(self, d):
        games = GAMES + ["chess"]
        views = [{}, {"rows": 5, "board": "x", "squares": 12, "players": [None, {"seat": 0, "board": "zz"}],
                      "width": 99, "height": -1, "last": {}, "last_move": 7},
                 {"rows": ["XXXXXXXXXXXXXXXXXXXXXXXXXX", None, 3], "board": [None, "QQQQQQQQQQQQ"],
                  "squares": "b" * 50, "players": [{"seat": 9, "board": "1" * 81}, {"seat": 0, "board": "8" * 81}],
                  "width": 2, "height": 2, "h_lines": "111", "v_lines": [1, "9"], "boxes": [None],
                  "last": "h 0 0", "last_move": {"seat": "x", "move": 5}, "to_move": "0", "black_seat": "1"}]
        bad = ["", "0", "8", "p1", "a16", "11x18-25", "1-2-3", "33-1", "h 9 9", "v 0", "a1 j1", "e2e9", " 1", "1\n"]
        got = d.execute_async_script(HOSTILE_JS, [games, views, bad])
        assert_equal(got.get("error"), None, "the board modules load")
        assert_equal(set(got["drawn"]), {"svg"}, "every board draws a hostile view")
        accepted = [r for r in got["refused"] if r.endswith(" accepted")]
        assert_equal(accepted, [], "bad notations refused")
        assert_true(all("'" in r or "not known" in r for r in got["refused"]),
                    "each refusal names the notation: %s" % got["refused"])
        self.console_errors(d, "hostile views")
        self.log("hostile views: %d boards drawn, %d notations refused" % (len(got["drawn"]), len(got["refused"])))

    # ---- one game ----
    def new_app(self, game, creator, joiner):
        r = self.zbc("app", "create", game, "--stake", "1ZBC", "--from", creator, "--fee", FEE, "--wait")
        app_id = str(r["app_id"])
        self.zbc("app", "join", app_id, "--from", joiner, "--fee", FEE, "--wait")
        a = self.app_ready(app_id)
        assert_equal((a["game"], a["status"]), (game, "active"), "app %s" % app_id)
        return app_id, a

    def play(self, d, node, game):
        t0 = time.monotonic()
        app_id, a = self.new_app(game, "alice", "page")
        page_seat = self.seat_of(a, self.page)
        d.get(node.api_url + "/#/app/" + app_id)
        self.wait_view(d, "app", "Board", "the %s app page" % game)
        self.same_board(d, game, a)
        d.execute_script("window.__noReload = 1;")
        script = None
        if game == "checkers":
            script = CHECKERS["black" if a["view"]["black_seat"] == page_seat else "white"]
        clicked = wallet = 0
        while (clicked < 2 or wallet < 2 or (script and a["moves"] < len(script))) and a["status"] == "active":
            move = script[a["moves"]] if script else self.pick(a)
            n = a["moves"]
            if a["turn"] == page_seat:
                wait_until(lambda: "your move" in (self.text(d, "[data-field=you]") or ""), PAGE_S,
                           "the page offers the %s move" % game)
                self.click_move(d, game, a, move)
                clicked += 1
                how = "clicked"
            else:
                self.zbc("app", "move", app_id, *move.split(), "--from", self.names[self.address_of(a, a["turn"])],
                         "--fee", FEE, "--wait")
                wallet += 1
                how = "wallet"
            a = wait_until(lambda: (lambda x: x if x["moves"] > n and not x["has_pending"] else None)(
                self.app(app_id)), PAGE_S, "%s move %s on chain (%s)" % (game, move, self.action(d)))
            notations = [h.get("notation") for h in a["history"] if h.get("move_hex")]
            assert_equal(notations[-1], move, "the %s move on chain (%s)" % (game, how))
            self.same_board(d, game, a)
        assert_true(clicked >= 2 and wallet >= 2, "%s: %d moves clicked, %d by the wallet" % (game, clicked, wallet))
        assert_equal(d.execute_script("return window.__noReload;"), 1, "no reload during the %s game" % game)
        self.move_bytes(d, game, a)
        self.shot(d, "board-" + game)
        self.console_errors(d, "the %s board" % game)
        self.log("%s: %d moves clicked, %d by the wallet, board checked after each (%.1f s)"
                 % (game, clicked, wallet, time.monotonic() - t0))

    def action(self, d):
        """The app page's action status line, read in one script (the page
        redraws on every event: an element found first may be gone)."""
        return d.execute_script("const e = document.querySelector('[data-status=app-action]');"
                                "return e ? e.textContent : '';")

    def pick(self, a):
        """The move the test plays: the middle of the legal list."""
        moves = a["legal_moves"]
        assert_true(moves, "legal moves listed")
        return moves[len(moves) // 2]

    def seat_of(self, a, address):
        return next(p["seat"] for p in a["players"] if p["address"] == address)

    def address_of(self, a, seat):
        return next(p["address"] for p in a["players"] if p["seat"] == seat)

    # ---- clicking ----
    def click_move(self, d, game, a, move):
        svg = "svg.board.%s" % game
        if game == "lines":
            svg += " g[data-seat=%s]" % css_str(str(a["turn"]))
        if game not in MULTI_CLICK:
            sq = self.landing(a, move) if game == "connect4" else move
            sel = "%s rect.playable[data-square=%s]" % (svg, css_str(sq))
            wait_until(lambda: self.q(d, sel), PAGE_S, "%s playable" % sel)
            self.q(d, sel)[0].click()
            return
        path = self.path(game, move)
        first = "%s rect.playable[data-square=%s]" % (svg, css_str(path[0]))
        wait_until(lambda: self.q(d, first), PAGE_S, "%s playable" % first)
        self.q(d, first)[0].click()
        for sq in path[1:]:
            sel = "%s rect.target[data-square=%s]" % (svg, css_str(sq))
            wait_until(lambda: self.q(d, sel), PAGE_S, "%s a target" % sel)
            # an event of the app's stream may redraw the page between two
            # clicks; the selection must survive it (grid.js picker): redraw
            # here on purpose and look for the target on the new board
            old = self.q(d, "svg.board")[0]
            d.execute_script("window.dispatchEvent(new HashChangeEvent('hashchange'))")
            wait_until(lambda: self.stale(old), PAGE_S, "the %s board redrawn between the clicks of %s" % (game, move))
            wait_until(lambda: self.q(d, sel), PAGE_S, "%s still a target after the redraw" % sel)
            self.q(d, sel)[0].click()

    def path(self, game, move):
        if game == "checkers":
            return move.replace("-", "x").split("x")
        if game == "chess":
            return [move[:2], move[2:4]]
        return move.split()

    def landing(self, a, col):
        """connect-4: the cell a disc dropped in column col lands on."""
        c = int(col) - 1
        rows = a["view"]["rows"]
        for rank in range(6):
            if rows[5 - rank][c] == ".":
                return "abcdefg"[c] + str(rank + 1)
        raise TestFailure("column %s is full" % col)

    # ---- what the page must show ----
    def sq(self, c, r):
        return "abcdefghijklmno"[c] + str(r + 1)

    def want(self, game, a):
        """({key: piece}, legal squares, last squares) the view says."""
        v = a["view"]
        legal = a["legal_moves"]
        pieces, last = {}, set()
        if game in ("connect4", "reversi", "gomoku"):
            chars = "BW" if game == "reversi" else "XO"
            rows = v["rows"]
            height = len(rows)
            for i, row in enumerate(rows):
                for c, ch in enumerate(row):
                    rank = i if game == "reversi" else height - 1 - i
                    if ch in chars:
                        pieces[self.sq(c, rank)] = ch
            if game == "connect4":
                legal = {self.landing(a, col) for col in legal}
                if v["last"]:
                    c = int(v["last"]) - 1
                    last = {self.sq(c, max(r for r in range(6) if rows[5 - r][c] != "."))}
            else:
                last = {v["last"]} if v["last"] else set()
        elif game == "checkers":
            for i, ch in enumerate(v["squares"]):
                if ch != ".":
                    pieces[str(i + 1)] = ch
            legal = {m.replace("-", "x").split("x")[0] for m in legal}
            last = set(v["last_move"].replace("-", "x").split("x")) if v["last_move"] else set()
        elif game == "dots":
            for r, row in enumerate(v["h_lines"]):
                pieces.update({"h %d %d" % (r, c): "line" for c, ch in enumerate(row) if ch == "1"})
            for r, row in enumerate(v["v_lines"]):
                pieces.update({"v %d %d" % (r, c): "line" for c, ch in enumerate(row) if ch == "1"})
            for r, row in enumerate(v["boxes"]):
                pieces.update({"box %d %d" % (r, c): ch for c, ch in enumerate(row) if ch != "."})
            last = {v["last"]} if v["last"] else set()
        elif game == "lines":
            for p in v["players"]:
                for cell, ch in enumerate(p["board"]):
                    if ch != ".":
                        pieces["%d %s" % (p["seat"], self.sq(cell % 9, cell // 9))] = ch
            if len(legal) < a["legal_moves_total"]:
                # the node lists 512 moves at most: the page finds the rest
                # itself; every move the engine counts must be one it finds
                board = next(p["board"] for p in v["players"] if p["seat"] == a["turn"])
                every = self.lines_moves(board)
                assert_equal(len(every), a["legal_moves_total"], "lines moves counted as the engine counts them")
                assert_true(set(legal) <= every, "the listed lines moves are among them")
                legal = every
            legal = {"%d %s" % (a["turn"], m.split()[0]) for m in legal}
            lm = v["last_move"]
            last = {"%d %s" % (lm["seat"], s) for s in lm["move"].split()} if lm else set()
        return pieces, set(legal), last

    def lines_moves(self, board):
        """Every lines move of a 9×9 board: a ball to an empty cell joined
        to it through empty up/down/left/right neighbours."""
        def nbrs(i):
            r, c = divmod(i, 9)
            return [j for ok, j in ((r > 0, i - 9), (r < 8, i + 9), (c > 0, i - 1), (c < 8, i + 1)) if ok]
        moves = set()
        for b in range(81):
            if board[b] == ".":
                continue
            seen, todo = set(), [j for j in nbrs(b) if board[j] == "."]
            while todo:
                j = todo.pop()
                if j not in seen:
                    seen.add(j)
                    todo += [k for k in nbrs(j) if board[k] == "."]
            moves |= {"%s %s" % (self.sq(b % 9, b // 9), self.sq(e % 9, e // 9)) for e in seen}
        return moves

    def shown(self, d, game):
        """What the page draws, keyed as want() keys it: pieces (with a
        count of the elements, to catch a doubled piece), rect.legal and
        rect.last squares."""
        return d.execute_script("""
            const svg = document.querySelector('svg.board.' + arguments[0]);
            if (!svg) return null;
            const key = (el) => { const g = el.closest('[data-seat]');
              return (g ? g.getAttribute('data-seat') + ' ' : '') + el.getAttribute('data-square'); };
            const els = Array.from(svg.querySelectorAll('[data-piece]'));
            const pieces = {};
            for (const el of els) pieces[key(el)] = el.getAttribute('data-piece');
            return {pieces, count: els.length,
                    legal: Array.from(svg.querySelectorAll('rect.legal')).map(key).sort(),
                    last: Array.from(svg.querySelectorAll('rect.last')).map(key).sort()};
        """, game)

    def same_board(self, d, game, a):
        pieces, legal, last = self.want(game, a)
        want = {"pieces": pieces, "count": len(pieces), "legal": sorted(legal), "last": sorted(last)}
        try:
            wait_until(lambda: self.shown(d, game) == want, PAGE_S, "the %s board" % game, interval=0.1)
        except TestFailure:
            raise TestFailure("the %s board after %d moves:\n page %s\n view %s"
                              % (game, a["moves"], json.dumps(self.shown(d, game), sort_keys=True),
                                 json.dumps(want, sort_keys=True)))
        # the compared sets are not trivially empty: every board has pieces
        # once a move is made, and the seat to move a legal square
        assert_true((len(pieces) > 0 or a["moves"] == 0) and (len(legal) > 0 or a["status"] != "active"),
                    "%s: pieces and legal squares to compare (%d, %d)" % (game, len(pieces), len(legal)))

    def move_bytes(self, d, game, a):
        moves = [(h["notation"], h["move_hex"]) for h in a["history"] if h.get("move_hex") and h.get("notation")]
        got = d.execute_async_script(HEX_JS, [[game, n] for n, _ in moves])
        assert_equal(got, [x for _, x in moves], "the page's %s move bytes for %s" % (game, [n for n, _ in moves]))

    # ---- chess from black's side ----
    def under(self, d, fx, fy):
        """data-square of the element under the point at fractions (fx,
        fy) of the chess board's box."""
        return d.execute_script("""
            const svg = document.querySelector('svg.board.chess');
            svg.scrollIntoView({block: 'center'});
            const r = svg.getBoundingClientRect();
            const el = document.elementFromPoint(r.left + r.width * arguments[0], r.top + r.height * arguments[1]);
            return el ? el.getAttribute('data-square') : null;""", fx, fy)

    def corners(self, d):
        return [self.under(d, fx, fy) for fx, fy in ((0.03, 0.97), (0.97, 0.97), (0.03, 0.03), (0.97, 0.03))]

    def chess(self, d, node):
        app_id, a = self.new_app("chess", "page", "page2")
        black = self.address_of(a, a["view"]["black_seat"])
        white = self.address_of(a, a["view"]["white_seat"])
        # the page's key holds no seat in a game of alice's: white at the bottom
        other, _ = self.new_app("chess", "alice", "page2")
        d.get(node.api_url + "/#/app/" + other)
        self.wait_view(d, "app", "Board", "a chess board the page's key holds no seat in")
        wait_until(lambda: self.q(d, "svg.board.chess[data-bottom=white]"), PAGE_S, "white at the bottom")
        assert_equal(self.corners(d), ["a1", "h1", "a8", "h8"], "the corners with white at the bottom")
        self.import_key(d, node, SEED if black == self.page else SEED2, PP)
        d.get(node.api_url + "/#/app/" + app_id)
        self.wait_view(d, "app", "Board", "the black player's chess board")
        wait_until(lambda: self.q(d, "svg.board.chess[data-bottom=black]"), PAGE_S, "black at the bottom")
        assert_equal(self.corners(d), ["h8", "a8", "h1", "a1"], "the corners with black at the bottom")
        clicked = 0
        for move in ("f2f3", "e7e5", "g2g4", "d8h4"):
            n = a["moves"]
            if self.address_of(a, a["turn"]) == black:
                wait_until(lambda: "your move" in (self.text(d, "[data-field=you]") or ""), PAGE_S,
                           "the page offers black's move")
                self.click_move(d, "chess", a, move)
                clicked += 1
            else:
                self.zbc("app", "move", app_id, move, "--from", self.names[white], "--fee", FEE, "--wait")
            a = wait_until(lambda: (lambda x: x if x["moves"] > n else None)(self.app(app_id)), PAGE_S,
                           "chess %s on chain (%s)" % (move, self.action(d)))
        assert_equal(clicked, 2, "black's two moves clicked on the flipped board")
        assert_equal((a["result"]["outcome"], a["result"]["winner"]), ("win", a["view"]["black_seat"]),
                     "black mated white")
        def pieces():
            return self.pieces(d, "svg.board.chess text[data-piece]")
        wait_until(lambda: pieces().get("h4") == "q", PAGE_S, "the black queen on h4")
        assert_equal(len(pieces()), 32, "32 pieces")
        # flipped: file h is the left column, rank 4 the fourth row from the top
        assert_equal(self.under(d, 0.5 / 8, 3.5 / 8), "h4", "the square drawn where h4 belongs")
        assert_equal(self.corners(d), ["h8", "a8", "h1", "a1"], "still flipped after the game")
        self.move_bytes(d, "chess", a)
        self.shot(d, "board-chess-black")
        self.console_errors(d, "the flipped chess board")


if __name__ == "__main__":
    WebBoardsTest().main()
