#!/usr/bin/env python3
"""Games whose moves carry secrets, played from the page against the wallet
(docs/web.md §8) in headless Chromium on an automine devnet.

- Rock-paper-scissors: alice (the wallet) creates, the page joins with the
  app page's button; the page commits by clicking rock, the wallet commits
  scissors, and the page reveals by itself once both committed.  Every
  request the page makes is recorded (fetch, EventSource, XHR, beacons,
  web sockets): before the reveal none carries the salt, the commit move on
  chain is exactly 00 ‖ SHA3-256(choice ‖ salt) of the secret the page
  stored, the reveal exactly 01 ‖ choice ‖ salt; localStorage holds the
  secret only sealed.  The page wins 1.98 ZBC and both hands show.
- Battleship: alice creates with a known fleet, the page joins, places a
  random fleet (the Random button), moves its 2-cell ship by clicks and
  turns it (or sees the turn refused in words), commits it with its
  button: the stored fleet is the one placed, the
  commit on chain is 03 ‖ the commitment of the stored fleet and salts, and
  the page's fleet grid shows exactly the stored ship cells.  A reload
  and an unlock keep the fleet.  With its record removed the page says
  "this browser has no fleet for app N…" and offers the wallet's secret
  file: bad JSON, another game's file, a bad is_ship or salts, and a file
  that is not the committed fleet are refused with their reasons; the
  wallet's file brings the fleet back; an altered record is refused.  Then alice fires at the page's water and
  the page clicks alice's ship cells; each page shot carries the reveal of
  alice's last shot (tag 2, its salt and nothing else), alice's 17th-hit
  reveal goes alone, and the page sends the final open (3301 bytes) by
  itself.  Before the open no request carries the salt of a cell alice did
  not shoot.  The page wins; its shots grid shows alice's whole fleet hit.
- The battleship module's move builder: a fleet of touching ships is the
  fleet (3201 bytes); 16 cells, a wrong split, a cell off the grid, a
  reveal with nothing pending and an unknown word are refused in words;
  once the board is on chain a second commit is refused (its secret kept:
  the open from it is 3301 bytes).
- Every SEVERE console entry fails the test.  Screenshots:
  BUILD/web-artefacts/board-rps.png (the end), board-rps-committed.png
  (the page's sealed choice), board-battleship.png.

"SKIP: no chromium" only when chromium, chromedriver or selenium is missing."""
import hashlib
import json
import time

from framework import ZBC, TestFailure, assert_equal, assert_true, wait_until
from webtest import FEE, PAGE_S, BrowserTest

SEED = "6a" * 32
PP = "secret passphrase"
BIG_FEE = 5_000_000  # a 3.2 kB commitment
FLEET_A = ["A1", "A2", "A3", "A4", "A5", "C1", "C2", "C3", "C4", "E1", "E2", "E3", "G1", "G2", "G3",
           "I1", "I2"]
RECORD_JS = """
if (!window.__rec) {
  window.__rec = [];
  const rec = (x) => window.__rec.push(String(x));
  const f = window.fetch;
  window.fetch = function (u, o) { rec('fetch ' + u + ' ' + (o && o.body ? o.body : '')); return f.apply(this, arguments); };
  const ES = window.EventSource;
  window.EventSource = function (u, c) { rec('es ' + u); return new ES(u, c); };
  const xo = XMLHttpRequest.prototype.open, xs = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (m, u) { rec('xhr ' + u); return xo.apply(this, arguments); };
  XMLHttpRequest.prototype.send = function (b) { rec('xhr-body ' + (b || '')); return xs.apply(this, arguments); };
  if (navigator.sendBeacon) { const sb = navigator.sendBeacon.bind(navigator);
    navigator.sendBeacon = (u, b) => { rec('beacon ' + u + ' ' + (b || '')); return sb(u, b); }; }
  const WS = window.WebSocket;
  window.WebSocket = function (u, p) { rec('ws ' + u); return new WS(u, p); };
}
"""
MOVE_FOR_JS = """
const done = arguments[arguments.length - 1];
const [addr, cases] = arguments;
import('/js/boards/battleship.js').then(async (m) => {
  const app = {id: 'rules-test', game: 'battleship', view: {}, history: [], params_hex: ''};
  const out = [];
  for (const n of cases) {
    if (n === 'committed') {  // seat 1's commitment now on chain: no second commit may replace its secret
      const first = await m.moveFor(app, cases[0], {address: addr, seat: 1});
      app.history = [{kind: 'app_move', seat: 1, move_hex: [...first].map((b) => b.toString(16).padStart(2, '0')).join('')}];
      continue;
    }
    try { out.push({len: (await m.moveFor(app, n, {address: addr, seat: 1})).length}); }
    catch (e) { out.push({error: e.message}); }
  }
  localStorage.removeItem('zbc.secret.v1.rules-test.' + addr);
  done(out);
}).catch((e) => done([{error: String(e)}]));
"""
SECRET_JS = """
const done = arguments[arguments.length - 1];
import('/js/secrets.js').then((m) => done(m.load(arguments[0], arguments[1])))
  .catch((e) => done({error: String(e)}));
"""


def cell(n):
    return (ord(n[0]) - ord("A")) * 10 + int(n[1:]) - 1


def name(c):
    return "%s%d" % (chr(ord("A") + c // 10), c % 10 + 1)


def sha3(b):
    return hashlib.sha3_256(b).digest()


class WebSecrets(BrowserTest):
    def run_test(self):
        webdriver = self.start_web()
        if webdriver is None:
            return
        self.page_addr = self.wallet_key("page", seed=SEED)  # for its address and funding only
        node = self.automine_node(balances=[(self.page_addr, 100 * ZBC)])
        d = self.browser()
        self.requests = []
        try:
            t0 = time.monotonic()
            assert_equal(self.import_key(d, node, SEED, PP), self.page_addr, "the page's key")
            self.record(d)
            self.rps(d, node)
            self.log("rps: %.1f s" % (time.monotonic() - t0))
            t1 = time.monotonic()
            self.battleship(d, node)
            self.log("battleship: %.1f s" % (time.monotonic() - t1))
            self.console_errors(d, "the games")
        finally:
            d.quit()

    # -- the page's requests ------------------------------------------------

    def record(self, d):
        d.execute_script(RECORD_JS)

    def recorded(self, d):
        """Every request recorded since the last call (and the page's load
        before the recorder: GETs of the page's own files and node reads)."""
        got = d.execute_script("const r = window.__rec || []; window.__rec = []; return r;")
        self.requests += got
        return self.requests

    def assert_not_sent(self, d, secret_hexes, what):
        for r in self.recorded(d):
            low = r.lower()
            for s in secret_hexes:
                if s in low:
                    raise TestFailure("%s: a request carried a secret: %r" % (what, r[:200]))

    def secret(self, d, app_id):
        s = d.execute_async_script(SECRET_JS, self.page_addr, app_id)
        if not isinstance(s, dict) or "error" in s:
            raise TestFailure("the page's secret for app %s: %r" % (app_id, s))
        return s

    def sealed(self, d, app_id, secret_hexes):
        raw = d.execute_script("return localStorage.getItem(arguments[0])",
                               "zbc.secret.v1.%s.%s" % (app_id, self.page_addr))
        assert_true(raw is not None, "localStorage holds the secret of app %s" % app_id)
        for s in secret_hexes:
            assert_true(s not in raw.lower(), "the stored secret is sealed (%s… not in clear)" % s[:8])

    def moves(self, app_id):
        return [h for h in self.app(app_id)["history"] if h["kind"] == "app_move"]

    def click_when(self, d, css, what):
        """Clicks the element at css once it is there (a redraw between
        finding and clicking retries: the click did not happen)."""
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

    def wait_moves(self, d, app_id, n, what):
        try:
            return wait_until(lambda: (lambda a: a if a["moves"] > n else None)(self.app(app_id)), PAGE_S, what)
        except TestFailure:
            said = d.execute_script("const e = document.querySelector('[data-status=app-action]');"
                                    "return e ? e.textContent : null")
            raise TestFailure("%s not on chain; the page's action says %r" % (what, said))

    def join(self, d, node, app_id):
        d.get(node.api_url + "/#/app/" + app_id)
        self.wait_view(d, "app", "Join for 1 ZBC", "the join button")
        self.record(d)
        self.click(d, "#app-join", "the join button")
        return self.app_ready(app_id)

    def settled(self, d, app_id, seat):
        a = wait_until(lambda: (lambda a: a if a["status"] == "finished" else None)(self.app(app_id)),
                       PAGE_S, "app %s settled" % app_id)
        assert_equal(a["result"]["winner"], seat, "the page's seat won")
        want = "seat %d (%s) won 1.98 ZBC (rake 0.02 ZBC)" % (seat, self.page_addr)
        wait_until(lambda: self.text(d, "[data-field=result]") == want, PAGE_S, "the result: %r" % want)
        return a

    # -- rock-paper-scissors ------------------------------------------------

    def rps(self, d, node):
        r = self.zbc("app", "create", "rps", "--stake", "1ZBC", "--from", "alice", "--fee", FEE, "--wait")
        app_id = str(r["app_id"])
        a = self.join(d, node, app_id)
        me = [p["seat"] for p in a["players"] if p["address"] == self.page_addr][0]
        salt = None
        for _ in range(4):  # commit, commit, reveal, reveal
            a = self.app(app_id)
            if a["status"] == "finished":
                break
            n, v = a["moves"], a["view"]
            if a["turn"] != me:
                self.zbc("app", "move", app_id, "commit" if v["phase"] == "commit" else "reveal",
                         *(["scissors"] if v["phase"] == "commit" else []), "--from", "alice", "--fee", FEE, "--wait")
            elif v["phase"] == "commit":
                self.click_when(d, "svg.board.rps rect.playable[data-square=rock]", "the rock button")
                self.wait_moves(d, app_id, n, "the page's commit")
                sec = self.secret(d, app_id)
                assert_equal(sec["choice"], 1, "the stored choice is rock")
                salt = sec["salt"]
                commit = [m for m in self.moves(app_id) if m["seat"] == me][-1]["move_hex"]
                assert_equal(commit, "00" + sha3(b"\x01" + bytes.fromhex(salt)).hex(),
                             "the commit carries SHA3(choice ‖ salt) of the stored secret")
                self.sealed(d, app_id, [salt])
                wait_until(lambda: self.q(d, "svg.board.rps [data-square=seat%d][data-piece=committed]" % me),
                           PAGE_S, "the page's hand shows its commitment")
                self.shot(d, "board-rps-committed")
            else:
                # the page reveals by itself: nothing to click
                self.wait_moves(d, app_id, n, "the page's automatic reveal")
                reveal = [m for m in self.moves(app_id) if m["seat"] == me][-1]["move_hex"]
                assert_equal(reveal, "0101" + salt, "the reveal is 01 ‖ rock ‖ salt")
        a = self.settled(d, app_id, me)
        sent = [r for r in self.recorded(d) if salt in r.lower()]
        # the page reveals at once, so "before" is checked after: only the reveal ever carried the salt
        assert_equal(len(sent), 1, "exactly one request carried the salt: %r" % [x[:80] for x in sent])
        assert_true(("0101" + salt) in sent[0].lower(), "that request is the reveal: %r" % sent[0][:200])
        want = {me: "rock", 1 - me: "scissors"}
        for seat, choice in want.items():
            wait_until(lambda: self.q(d, "svg.board.rps [data-square=seat%d][data-piece=%s]" % (seat, choice)),
                       PAGE_S, "seat %d's hand shows %s" % (seat, choice))
        self.shot(d, "board-rps")
        self.console_errors(d, "rps")
        self.log("rps app %s: the page (seat %d) committed, revealed by itself and won" % (app_id, me))

    # -- battleship ---------------------------------------------------------

    def squares(self, d, css):
        """The data-square of every element at css, read in one script (a
        redraw cannot come between two reads)."""
        return sorted(d.execute_script("return [...document.querySelectorAll(arguments[0])]"
                                       ".map((e) => e.getAttribute('data-square'))", css))

    def fleet_squares(self, d):
        return self.squares(d, "svg.board.battleship [data-board=fleet] [data-piece=ship]")

    def fleet_rules(self, d):
        """The page's battleship moves from notation: a fleet of touching
        ships is the fleet; hostile notation is refused naming what is wrong."""
        touching = "A1,A2,A3,A4,A5,A6,A7,A8,A9,B1,B2,B3,B4,B5,B6,B7,B8"  # 5+4 in row A, 3+3+2 in row B
        cases = [("commit " + touching, {"len": 3201}),
                 ("commit " + touching.rsplit(",", 1)[0], {"error": "a fleet is 17 distinct cells, got 16"}),
                 ("commit A1,A2,A3,A4,A5,C1,C2,C3,C4,E1,E2,E3,G1,G2,G3,I1,J10",  # a 2-ship split in two
                  {"error": "the cells are not the fleet of ships of 5, 4, 3, 3 and 2 cells"}),
                 ("fire B7", {"len": 2}),
                 ("fire K1", {"error": "'K1' is not a battleship cell (A1 to J10)"}),
                 ("fire A0", {"error": "'A0' is not a battleship cell (A1 to J10)"}),
                 ("reveal", {"error": "nothing to reveal"}),
                 ("launch B7", {"error": "'launch B7' is not a battleship move the page sends (commit CELLS, "
                                "fire B7, reveal, open)"}),
                 ("committed", None),
                 ("commit " + touching, {"error": "seat 1 already committed its board in app rules-test"}),
                 ("open", {"len": 3301})]
        got = d.execute_async_script(MOVE_FOR_JS, self.page_addr, [c for c, _ in cases])
        cases = [c for c in cases if c[0] != "committed"]
        assert_equal(len(got), len(cases), "answers: %r" % got)
        for (n, want), g in zip(cases, got):
            assert_equal(g, want, "the page's battleship move %r" % n[:40])

    def battleship(self, d, node):
        self.fleet_rules(d)
        r = self.zbc("app", "create", "battleship", "--stake", "1ZBC", "--board", ",".join(FLEET_A),
                     "--from", "alice", "--fee", BIG_FEE, "--wait")
        app_id = str(r["app_id"])
        self.join(d, node, app_id)
        self.click_when(d, "#bs-random", "the Random fleet button")
        placed = self.place(d)
        self.click_when(d, "#bs-commit", "the Commit button")
        self.wait_moves(d, app_id, 0, "the page's commitment")
        sec = self.secret(d, app_id)
        ships = [c for c in range(100) if sec["is_ship"][2 * c:2 * c + 2] == "01"]
        salts = [sec["salts"][64 * c:64 * c + 64] for c in range(100)]
        assert_equal(sorted(ships), placed, "the stored fleet is the one placed")
        commitment = b"".join(sha3(bytes([1 if c in ships else 0]) + bytes.fromhex(salts[c])) for c in range(100))
        assert_equal(self.moves(app_id)[0]["move_hex"], "03" + commitment.hex(),
                     "the commit move is 03 ‖ the commitment of the stored fleet")
        self.sealed(d, app_id, salts[:3])
        want = sorted(name(c) for c in ships)
        wait_until(lambda: self.fleet_squares(d) == want, PAGE_S,
                   "the fleet grid shows the stored fleet %s (shows %s)" % (want, self.fleet_squares(d)))
        # a reload locks the key; unlocking gives the fleet back
        self.recorded(d)
        d.refresh()
        wait_until(lambda: self.q(d, "svg.board.battleship") and not self.q(d, "[data-field=you]"), PAGE_S,
                   "the app page, locked by the reload")
        assert_equal(self.fleet_squares(d), [], "a locked page draws no fleet")
        d.get(node.api_url + "/#/wallet")
        self.wait_view(d, "wallet", "Unlock", "the locked wallet page")
        self.submit(d, "key-unlock", {"passphrase": PP})
        self.wait_view(d, "wallet", "Start a game", "unlocked")
        d.get(node.api_url + "/#/app/" + app_id)
        self.wait_view(d, "app", "your fleet (seat 1)", "the app page after the reload")
        self.record(d)
        wait_until(lambda: self.fleet_squares(d) == want, PAGE_S, "the fleet after a reload and unlock")

        self.lost_and_imported(d, node, app_id, sec, want)

        water = [name(c) for c in range(100) if c not in ships]
        shot = set()  # the cells of the page's board alice shot at
        for i, target in enumerate(FLEET_A):
            n = self.app(app_id)["moves"]
            self.zbc("app", "move", app_id, "fire", water[i], "--from", "alice", "--fee", FEE, "--wait")
            shot.add(cell(water[i]))
            self.assert_not_sent(d, [salts[c] for c in range(100) if c not in shot], "during play")
            css = "svg.board.battleship [data-board=shots] rect.cell.playable[data-square=%s]" % target
            self.click_when(d, css, "the page's shot at %s" % target)
            self.wait_moves(d, app_id, n + 1, "the page's shot at %s" % target)
            m = self.moves(app_id)[-1]["move_hex"]
            assert_equal(m, "0200" + salts[cell(water[i])] + "%02x" % cell(target),
                         "the page's move reveals %s as water and fires at %s" % (water[i], target))
        # alice's 17th-hit reveal is her whole turn; then the page opens by itself
        n = self.app(app_id)["moves"]
        self.zbc("app", "move", app_id, "reveal", "--from", "alice", "--fee", FEE, "--wait")
        a = self.settled(d, app_id, 1)
        open_hex = "04" + "".join(("01" if c in ships else "00") + salts[c] for c in range(100))
        assert_equal(self.moves(app_id)[-1]["move_hex"], open_hex,
                     "the final open: 04 and every cell with its salt (3301 bytes)")
        # the page sent it by itself at once: the only request with an unshot cell's salt is the open
        unshot = [salts[c] for c in range(100) if c not in shot]
        carried = [r for r in self.recorded(d) if any(x in r.lower() for x in unshot)]
        assert_equal(len(carried), 1, "one request carried unshot cells' salts: %r" % [x[:80] for x in carried])
        assert_true(open_hex in carried[0].lower(), "that request is the open: %r" % carried[0][:200])
        assert_equal(a["view"]["end"], "sunk", "the page opened the standard fleet")
        wait_until(lambda: self.squares(d, "svg.board.battleship [data-board=shots] [data-piece=ship]") ==
                   sorted(FLEET_A), PAGE_S, "the shots grid shows alice's fleet")
        assert_equal(self.fleet_squares(d), want, "the page's fleet at the end")
        self.shot(d, "board-battleship")
        self.log("battleship app %s: the page committed a random fleet, shot alice's, opened and won" % app_id)


    def placement(self, d):
        """{ship index: [cells]} of the fleet being placed."""
        got = d.execute_script("return [...document.querySelectorAll('svg.board.battleship [data-board=fleet] "
                               "[data-piece=ship]')].map((e) => [e.getAttribute('data-ship'), "
                               "e.getAttribute('data-square')])")
        out = {}
        for i, sq in got:
            out.setdefault(int(i), []).append(cell(sq))
        return {i: sorted(c) for i, c in out.items()}

    def click_fleet(self, d, c):
        self.click_when(d, "svg.board.battleship [data-board=fleet] rect.cell[data-square=%s]" % name(c),
                        "a click on %s of the fleet being placed" % name(c))

    def place(self, d):
        """Moves the 2-cell ship (select it, click water) and turns it
        (click it again), checking each step; returns the fleet's cells."""
        ships = wait_until(lambda: (lambda p: p if len(p) == 5 else None)(self.placement(d)), PAGE_S,
                           "the fleet to place")
        assert_equal(sorted(len(v) for v in ships.values()), [2, 3, 3, 4, 5], "a random fleet's ships")
        two = [i for i, v in ships.items() if len(v) == 2][0]
        others = {c for i, v in ships.items() if i != two for c in v}
        vertical = ships[two][1] - ships[two][0] == 10

        def run(start, vert):
            cells = [start, start + (10 if vert else 1)]
            ok = cells[1] < 100 and (vert or start % 10 < 9)
            return cells if ok and not (set(cells) & others) else None
        dest = [c for c in range(100) if c not in ships[two] and c not in others and run(c, vertical)
                and not set(run(c, vertical)) & set(ships[two])][0]
        self.click_fleet(d, ships[two][0])   # selects it
        self.click_fleet(d, dest)            # moves it
        want = dict(ships)
        want[two] = run(dest, vertical)
        wait_until(lambda: self.placement(d) == want, PAGE_S, "the ship moved to %s" % name(dest))
        self.click_fleet(d, dest)            # turns it
        turned = run(dest, not vertical)
        if turned:
            want[two] = turned
            wait_until(lambda: self.placement(d) == want, PAGE_S, "the ship turned at %s" % name(dest))
        else:
            wait_until(lambda: "cannot turn" in (self.text(d, "[data-field=fleet-note]") or ""), PAGE_S,
                       "the turn refused in words")
            assert_equal(self.placement(d), want, "a refused turn leaves the fleet")
        self.log("placed: the 2-cell ship moved to %s%s" % (name(dest), ", turned" if turned else ""))
        return sorted(c for v in want.values() for c in v)

    def app_page(self, d, node, app_id):
        """Draws the app page again (a route change and back)."""
        d.get(node.api_url + "/#/")
        self.wait_view(d, "", "Latest blocks", "the home page")
        d.get(node.api_url + "/#/app/" + app_id)
        wait_until(lambda: self.q(d, "#view[data-route=app] svg.board.battleship"), PAGE_S, "the app page")

    def lost_text(self, d):
        return d.execute_script("const e = document.querySelector('[data-field=secret-lost]');"
                                "return e ? e.textContent : null")

    def try_import(self, d, text, expect):
        area = self.q(d, "p.secret-import textarea")[0]
        d.execute_script("arguments[0].value = arguments[1]", area, text)
        self.q(d, "#secret-import")[0].click()
        if expect is None:
            return
        wait_until(lambda: d.execute_script("const e = document.querySelector('p.secret-import .form-status');"
                                            "return e && e.textContent === arguments[0]", expect),
                   PAGE_S, "the import refused with %r" % expect)

    def lost_and_imported(self, d, node, app_id, sec, want):
        """Without its record the page says the fleet is lost and offers
        the wallet's secret file; hostile files are refused with their
        reason, the right one (the wallet's format) brings the fleet back;
        an altered record is refused."""
        slot = "zbc.secret.v1.%s.%s" % (app_id, self.page_addr)
        raw = d.execute_script("return localStorage.getItem(arguments[0])", slot)
        d.execute_script("localStorage.removeItem(arguments[0])", slot)
        self.app_page(d, node, app_id)
        want_lost = ("this browser has no fleet for app %s: the secrets stay where they were made (the wallet's "
                     "secret file, or another browser); without them this seat cannot reveal and will lose on "
                     "time" % app_id)
        wait_until(lambda: self.lost_text(d) == want_lost, PAGE_S, "the lost-fleet sentence (%r)" % self.lost_text(d))
        assert_equal(self.fleet_squares(d), [], "no fleet drawn without its secret")
        other = dict(sec, salts="11" * 3200)
        for text, expect in [
                ("{not json", "the wallet's secret file is JSON: paste the whole file"),
                ('{"game": "rps", "choice": 1, "salt": "%s"}' % ("ab" * 32), "that file holds rps secrets, this app is battleship"),
                ('{"game": "chess"}', "no secrets are kept for the game 'chess' (battleship and rps only)"),
                ('{"game": "battleship", "is_ship": "%s", "salts": "%s"}' % ("02" * 100, sec["salts"]),
                 "a battleship secret's is_ship is 100 bytes of 00 or 01 in hex (200 characters)"),
                ('{"game": "battleship", "is_ship": "%s", "salts": "%s"}' % (sec["is_ship"], "00" * 10),
                 "a battleship secret's salts are 3200 bytes in hex (6400 characters)"),
                (json.dumps(other), "that file is not the fleet seat 1 committed in app %s" % app_id)]:
            self.try_import(d, text, expect)
        assert_true(d.execute_script("return localStorage.getItem(arguments[0])", slot) is None,
                    "a refused file stores nothing")
        # the wallet's secret file, as `zbc` writes it (docs/wallet.md "Secret files")
        self.try_import(d, json.dumps({"game": "battleship", "is_ship": sec["is_ship"], "salts": sec["salts"]}), None)
        wait_until(lambda: self.fleet_squares(d) == want, PAGE_S, "the imported fleet drawn")
        assert_equal(self.secret(d, app_id), sec, "the imported secret")
        # an altered record does not open
        rec = json.loads(raw)
        rec["box"] = ("0" if rec["box"][0] != "0" else "1") + rec["box"][1:]
        d.execute_script("localStorage.setItem(arguments[0], arguments[1])", slot, json.dumps(rec))
        self.app_page(d, node, app_id)
        want_bad = "the secrets stored for app %s do not open with this key (altered, or another key's)" % app_id
        wait_until(lambda: self.lost_text(d) == want_bad, PAGE_S, "the altered record refused (%r)" % self.lost_text(d))
        d.execute_script("localStorage.setItem(arguments[0], arguments[1])", slot, raw)
        self.app_page(d, node, app_id)
        wait_until(lambda: self.fleet_squares(d) == want, PAGE_S, "the fleet back")
        self.record(d)


if __name__ == "__main__":
    WebSecrets().main()
