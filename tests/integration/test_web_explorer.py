#!/usr/bin/env python3
"""The browser client's explorer in headless Chromium (docs/web.md §5):
Debian's chromium and chromium-driver driven by python3-selenium against a
real zbcd (automine devnet: one validator, 5-ms blocks, blocks mined on
request).

- the home page lists the latest blocks and the head; mining two blocks
  updates both without a reload;
- a transfer's page says "applied", with its amount in ZBC, sender and
  recipient; the block page lists it; search by height, by block hash, by
  transaction hash, by address and by app id each lands on its page;
- the account page shows the balance in ZBC and the transfer in its
  history; the apps list filters by game and state, the app page shows its
  players;
- the page's transaction signing (node/web/js/tx.js: @noble SHA3 and
  Ed25519) reproduces every vector of tests/vectors/zoobc of the types it
  builds (SendZBC, CreateApp, JoinApp, AppMove, ResignApp, ClaimAppTimeout)
  byte for byte (unsigned bytes, digest, signature, hash; escrow vectors
  aside: the page builds none), equals the wallet's `zbc send --offline` bytes for a live
  transfer, and that transfer, posted by the page, is applied;
- a tic-tac-toe game: the app page draws the board as SVG, one mark per
  square with data-square/data-piece as the engine's view says, the empty
  squares highlighted as legal moves; a move made by the wallet appears on
  the open page from the app's event stream, with no reload;
- the wallet page: a seed imported with a passphrase is stored encrypted
  (localStorage holds no seed bytes), a reload locks it, a wrong
  passphrase is refused with its sentence, the right one unlocks it, and a
  transfer signed and sent from the page at the minimum fee is applied;
  a key created in the page shows its seed once and its address;
- two browser sessions play tic-tac-toe and chess (the fool's mate) to
  settlement from the page: one creates the game on its wallet page, the
  other joins with the app page's button, each moves by clicking the SVG
  board when it is its turn (transactions signed in the page); both pages
  then show the result in words with the payout and the rake, and the
  chess board has its 32 pieces on the right squares;
- every console message at SEVERE (a JavaScript error, a failed request)
  fails the test; a screenshot of each page is saved under
  BUILD/web-artefacts/.

"SKIP: no chromium" only when /usr/bin/chromium or chromedriver or
selenium is missing (scripts/deps installs them)."""
import json
import os
import time

from framework import ZBC, assert_equal, assert_true, wait_until
from webtest import FEE, PAGE_S, BrowserTest

VECTORS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "vectors", "zoobc")
SEED = "51bae95d58f32304a5c9d894819989a4fb04da6115d9a43612a026e7a5dd5d96"
SEED2 = "0f" * 32
SIGN_JS = """
const done = arguments[arguments.length - 1];
const args = arguments[0];
import('/js/tx.js').then((m) => done(args.map((v) => {
  try { return m.signTx(v); } catch (e) { return {error: String(e)}; }
}))).catch((e) => done({error: String(e)}));
"""
POST_JS = """
const done = arguments[arguments.length - 1];
fetch('/api/v1/transactions', {method: 'POST', headers: {'Content-Type': 'application/json'},
  body: JSON.stringify({transaction_bytes: arguments[0]})})
  .then((r) => r.json().then((j) => done([r.status, j])))
  .catch((e) => done([0, String(e)]));
"""


class WebExplorer(BrowserTest):
    def search(self, d, text, route, contains):
        box = self.q(d, "#search-input")[0]
        box.clear()
        box.send_keys(text)
        self.q(d, "#search button")[0].click()
        return self.wait_view(d, route, contains, "search %r -> %s" % (text, route))

    def run_test(self):
        webdriver = self.start_web()
        if webdriver is None:
            return
        node = self.automine_node()
        alice, bob = self.alice, self.bob
        r = self.zbc("send", "--from", "alice", bob, "1.5ZBC", "--fee", FEE, "--wait")
        tx = r["transaction_hash"]
        st = self.wait_confirmed(tx)
        tx_height = st["block_height"]
        r = self.zbc("app", "create", "tictactoe", "--stake", "2ZBC", "--from", "alice", "--fee", FEE,
                     "--wait")
        app_id = str(r["app_id"])
        tip = node.height()
        self.log("chain: transfer in block %d, app %s, tip %d" % (tx_height, app_id, tip))

        d = self.browser()
        try:
            self.explore(d, node, tx, tx_height, app_id, alice, bob)
        finally:
            d.quit()

    def explore(self, d, node, tx, tx_height, app_id, alice, bob):
        t0 = time.monotonic()
        d.get(node.api_url + "/")
        tip = node.height()
        self.wait_view(d, "", "Latest blocks", "the home page")
        wait_until(lambda: self.text(d, "#head-height") == str(tip), PAGE_S, "the head's height")
        first = self.text(d, "#view tbody tr td")
        assert_equal(first, str(tip), "the newest block heads the list")
        rows = self.q(d, "#view tbody tr")
        assert_equal(len(rows), min(tip, 15), "latest blocks listed")
        self.log("home page in %.2f s" % (time.monotonic() - t0))
        self.console_errors(d, "the home page")
        self.shot(d, "explorer-home")

        # live: two more blocks show up without a reload
        marker = d.execute_script("window.__noReload = 1; return window.__noReload;")
        assert_equal(marker, 1, "page marker set")
        self.mine(node, 2)
        wait_until(lambda: self.text(d, "#head-height") == str(tip + 2), PAGE_S, "the head follows the chain")
        wait_until(lambda: self.text(d, "#view tbody tr td") == str(tip + 2), PAGE_S,
                   "the block list follows the chain")
        assert_equal(d.execute_script("return window.__noReload;"), 1, "no reload happened")
        self.console_errors(d, "the live update")

        # the transfer
        d.get(node.api_url + "/#/tx/" + tx)
        t = self.wait_view(d, "tx", "applied", "the transaction page")
        assert_equal(self.text(d, "[data-field=applied]"), "applied", "the transfer applied")
        for want in ("SendZBC", "1.5 ZBC", "0.02 ZBC", alice, bob, "block %d" % tx_height):
            assert_true(want in t, "the transaction page shows %r:\n%s" % (want, t))
        self.shot(d, "explorer-transaction")
        self.console_errors(d, "the transaction page")

        # search: height, block hash, transaction hash, address, app id
        info = node.info()
        _, blk = node.get("/api/v1/blocks/%d" % tx_height)
        t = self.search(d, str(tx_height), "block", "Block %d" % tx_height)
        assert_equal(len(self.q(d, '#view a[href="#/tx/%s"]' % tx)), 1, "the block links the transfer")
        assert_true("%s sent 1.5 ZBC to %s" % (alice, bob) in t, "the transfer event in words:\n%s" % t)
        self.shot(d, "explorer-block")
        self.search(d, blk["hash"], "block", "Block %d" % tx_height)
        self.search(d, tx.upper(), "tx", "applied")
        t = self.search(d, bob, "account", "History")
        _, acct = node.get("/api/v1/accounts/" + bob)
        assert_equal(acct["balance"], 1000 * ZBC + 150000000, "bob's balance")
        assert_equal(self.text(d, "[data-field=balance]"), "1001.5 ZBC", "bob's balance in ZBC")
        assert_true("%s sent 1.5 ZBC to %s" % (alice, bob) in t, "bob's history has the transfer:\n%s" % t)
        self.shot(d, "explorer-account")
        t = self.search(d, "app " + app_id, "app", "App %s: tictactoe" % app_id)
        assert_true(alice in t and "open" in t, "the app's players and state:\n%s" % t)
        t = self.search(d, app_id, "app", "App %s" % app_id)
        assert_true(info["height"] < int(app_id), "an app id above the tip is an app")
        self.console_errors(d, "the searches")

        # the apps list and its filters
        d.get(node.api_url + "/#/apps?type=tictactoe")
        t = self.wait_view(d, "apps", app_id, "the apps list")
        self.shot(d, "explorer-apps")
        d.get(node.api_url + "/#/apps?status=finished")
        self.wait_view(d, "apps", "no app matches", "the finished filter")
        d.get(node.api_url + "/#/apps")
        self.wait_view(d, "apps", app_id, "the unfiltered list")
        sel = self.q(d, "#app-filters select[name=status]")[0]
        from selenium.webdriver.support.ui import Select
        Select(sel).select_by_value("open")
        who = self.q(d, "#app-filters input[name=player]")[0]
        who.send_keys(alice)
        self.q(d, "#app-filters button")[0].click()
        wait_until(lambda: "status=open" in d.current_url and "player=" in d.current_url, PAGE_S,
                   "the filter form sets the route")
        self.wait_view(d, "apps", app_id, "alice's open apps")
        d.get(node.api_url + "/#/apps?player=" + bob)
        self.wait_view(d, "apps", "no app matches", "bob has no app")
        # a refusal from the node is shown as its sentence, not a crash
        d.get(node.api_url + "/#/apps?type=nosuchgame")
        self.wait_view(d, "apps", "type must be a known app type code or game name",
                       "the node's refusal in the page")
        bad = [e for e in d.get_log("browser") if e.get("level") == "SEVERE"]
        assert_true(len(bad) == 1 and "400" in bad[0]["message"],
                    "the refused request is the one console error: %r" % bad)
        self.console_errors(d, "the apps pages")
        self.log("explorer checked in %.1f s" % (time.monotonic() - t0))
        self.signing(d, node, bob)
        self.wallet_page(d, node, bob)
        self.board(d, node, app_id, {alice: "alice", bob: "bob"})
        self.play_in_browsers(d, node, alice)

    def wallet_page(self, d, node, bob):
        pp = "correct horse battery"
        d.get(node.api_url + "/#/wallet")
        self.wait_view(d, "wallet", "Import a seed", "the wallet page without a key")
        self.submit(d, "key-import", {"seed": SEED, "passphrase": pp, "again": pp + "x"})
        wait_until(lambda: "the two passphrases differ" in self.status(d, "key-import"), PAGE_S,
                   "differing passphrases refused")
        self.submit(d, "key-import", {"seed": SEED, "passphrase": pp, "again": pp})
        self.wait_view(d, "wallet", "Send ZBC", "the key imported and unlocked")
        address = self.text(d, "[data-field=wallet-address]")
        stored = d.execute_script("return localStorage.getItem('zbc.key.v1');")
        assert_true(SEED not in stored and address in stored, "the stored record has no seed: %s" % stored)
        d.refresh()
        self.wait_view(d, "wallet", "Unlock", "a reload locks the key")
        self.submit(d, "key-unlock", {"passphrase": "not the passphrase"})
        wait_until(lambda: "wrong passphrase for the key stored in this browser" in self.status(d, "key-unlock"),
                   PAGE_S, "a wrong passphrase refused")
        self.submit(d, "key-unlock", {"passphrase": pp})
        self.wait_view(d, "wallet", "Send ZBC", "unlocked")
        before = self.balance(bob)
        self.submit(d, "send", {"to": bob, "amount": "1.25", "message": "sent from the page"})
        tx = wait_until(lambda: self.q(d, "[data-status=send]")[0].get_attribute("data-tx"), PAGE_S,
                        "the page's transfer sent: %s" % self.status(d, "send"))
        st = self.wait_confirmed(tx)
        assert_equal(st.get("applied"), True, "the page's transfer applied")
        assert_equal(self.balance(bob), before + 125000000, "bob got 1.25 ZBC")
        _, t = node.get("/api/v1/transactions/" + tx)
        info = node.info()
        n = len(t["transaction_bytes"]) // 2
        assert_equal(t["fee"], info["min_fee_base"] + info["min_fee_per_byte"] * n, "the minimum fee")
        assert_equal(t["message_hex"], "sent from the page".encode().hex(), "the message")
        self.shot(d, "wallet-sent")
        # forget it, then create a new key in the page
        self.q(d, "#key-lock button")[0].click()
        self.wait_view(d, "wallet", "Forget this key", "locked")
        self.submit(d, "key-forget", {"confirm": "FORGET"})
        self.wait_view(d, "wallet", "Create a key", "the key forgotten")
        self.submit(d, "key-new", {"passphrase": "short", "again": "short"})
        wait_until(lambda: "the passphrase needs at least 8 characters" in self.status(d, "key-new"),
                   PAGE_S, "a short passphrase refused")
        self.submit(d, "key-new", {"passphrase": pp, "again": pp})
        self.wait_view(d, "wallet", "Send ZBC", "a new key")
        seed = self.text(d, "[data-field=new-seed] code")
        assert_true(seed is not None and len(seed) == 64, "the new seed shown once: %r" % seed)
        r = self.zbc("key", "derive", seed, node=False)
        assert_equal(self.text(d, "[data-field=wallet-address]"), r["address"], "the new key's address")
        assert_equal(self.text(d, "[data-field=wallet-balance]"), "0 ZBC", "an unfunded key's balance")
        # the node has no record of an unfunded account: its 404 is the one console error
        bad = [e for e in d.get_log("browser") if e.get("level") == "SEVERE"]
        assert_true(len(bad) == 1 and "/api/v1/accounts/%s" % r["address"] in bad[0]["message"]
                    and "404" in bad[0]["message"], "the unknown account's 404 is the one console error: %r" % bad)
        self.q(d, "#key-lock button")[0].click()
        self.wait_view(d, "wallet", "Forget this key", "the new key locked")
        self.submit(d, "key-forget", {"confirm": "FORGET"})
        self.wait_view(d, "wallet", "Import a seed", "the new key forgotten")

    def play_in_browsers(self, d, node, alice):
        pp = "two players, two browsers"
        a_addr = self.import_key(d, node, SEED, pp)
        d2 = self.browser()
        try:
            # funded first, so its wallet page finds an account (no 404)
            self.zbc("send", "--from", "alice", self.zbc("key", "derive", SEED2, node=False)["address"],
                     "5ZBC", "--fee", FEE, "--wait")
            b_addr = self.import_key(d2, node, SEED2, pp)
            drivers = {a_addr: d, b_addr: d2}
            # tic-tac-toe: X takes the top row
            a = self.browser_game(d, d2, node, drivers, "tictactoe", ["1", "4", "2", "5", "3"], self.click_cell)
            x_seat = a["view"]["x_seat"]
            assert_equal((a["result"]["outcome"], a["result"]["winner"]), ("win", x_seat), "X won")
            for drv in (d, d2):
                assert_equal(self.marks(drv), self.want_marks(a), "the final board")
            hist = self.wait_view(d, "app", "History", "the app page's history")
            assert_true("app %s" % a["id"] in hist, "the history names app %s exactly:\n%s" % (a["id"], hist))
            self.shot(d, "play-tictactoe-seat0")
            self.shot(d2, "play-tictactoe-seat1")
            # chess: the fool's mate, each move two clicks (from, then to)
            a = self.browser_game(d, d2, node, drivers, "chess", ["f2f3", "e7e5", "g2g4", "d8h4"],
                                  self.click_chess)
            assert_equal((a["result"]["outcome"], a["result"]["winner"]), ("win", a["view"]["black_seat"]),
                         "black mated white")
            for drv in (d, d2):
                pieces = self.pieces(drv, "svg.chess text[data-piece]")
                assert_equal(len(pieces), 32, "32 pieces on the board")
                for sq, p in (("h4", "q"), ("f3", "P"), ("g4", "P"), ("e5", "p"), ("e1", "K"), ("d8", None)):
                    assert_equal(pieces.get(sq), p, "the piece on %s after the fool's mate" % sq)
            self.shot(d, "play-chess-seat0")
            self.shot(d2, "play-chess-seat1")
            self.console_errors(d2, "the second player's session")
        finally:
            d2.quit()
        self.console_errors(d, "the first player's session")

    def click_cell(self, drv, move):
        n = int(move)
        sel = "svg.tictactoe rect.playable[data-square=%s]" % ("abc"[(n - 1) % 3] + str((n - 1) // 3 + 1))
        self.click(drv, sel, "%s playable for the mover" % sel)

    def click_chess(self, drv, move):
        """Two clicks, from then to.  The board is redrawn on each event of
        the app's stream, and a late one can land between the clicks: the
        selection must survive it (grid.js picker; before, the redraw
        cleared it and this test clicked the pair again).  click() finds a
        square again when a redraw replaced it (the CI's fresh clone of
        b17ae58 failed with StaleElementReferenceException)."""
        src = "svg.chess rect.playable[data-square=%s]" % move[:2]
        dst = "svg.chess rect.target[data-square=%s]" % move[2:4]
        self.click(drv, src, "%s playable for the mover" % move[:2])
        self.click(drv, dst, "%s a target after selecting %s" % (move[2:4], move[:2]))

    def marks(self, d):
        """{square: piece} of the SVG board on the page."""
        return self.pieces(d, "svg.tictactoe g[data-piece]")

    def want_marks(self, app):
        out = {}
        for r, row in enumerate(app["view"]["rows"]):
            for c, ch in enumerate(row):
                if ch != ".":
                    out["abc"[c] + str(r + 1)] = ch
        return out

    def mover(self, app, names):
        seat = app["turn"]
        return names[app["players"][seat]["address"]]

    def board(self, d, node, app_id, names):
        self.zbc("app", "join", app_id, "--from", "bob", "--fee", FEE, "--wait")
        a = self.app_ready(app_id)
        for cell in ("5", "1"):
            self.zbc("app", "move", app_id, cell, "--from", self.mover(a, names), "--fee", FEE, "--wait")
            a = self.app(app_id)
        d.get(node.api_url + "/#/app/" + app_id)
        self.wait_view(d, "app", "Board", "the app page with its board")
        # the clock in blocks; no time on an automine node (blocks on demand)
        dl = self.text(d, "[data-field=deadline]")
        assert_true(dl is not None and dl.startswith("block %d (in " % a["deadline"]) and "\u2248" not in dl,
                    "the deadline in blocks only on an automine node: %r" % dl)
        wait_until(lambda: self.marks(d) == self.want_marks(a), PAGE_S,
                   "the SVG marks %r" % self.want_marks(a))
        assert_equal(len(self.want_marks(a)), 2, "two marks on the board")
        legal = sorted(r.get_attribute("data-square") for r in self.q(d, "svg.tictactoe rect.legal"))
        want = sorted("abc"[(int(m) - 1) % 3] + str((int(m) - 1) // 3 + 1) for m in a["legal_moves"])
        assert_equal((legal, len(legal)), (want, 7), "the legal squares highlighted")
        d.execute_script("window.__noReload = 2;")
        self.zbc("app", "move", app_id, "9", "--from", self.mover(a, names), "--fee", FEE, "--wait")
        a = self.app(app_id)
        assert_equal(len(self.want_marks(a)), 3, "three marks after the wallet's move")
        wait_until(lambda: self.marks(d) == self.want_marks(a), PAGE_S,
                   "the page follows the move from the event stream: %r" % self.want_marks(a))
        assert_equal(d.execute_script("return window.__noReload;"), 2, "no reload happened")
        assert_equal(self.marks(d).get("c3"), a["view"]["rows"][2][2], "the new mark on c3")
        self.shot(d, "board-tictactoe")
        self.console_errors(d, "the tic-tac-toe board")

    def vectors(self):
        """The vectors of the types the page builds (SendZBC and the app
        transactions, 24-28) as the page takes them (amounts and fees as
        decimal strings: JSON numbers past 2^53 would lose digits)."""
        out = []
        for name in ("transactions.json", "transactions-all.json"):
            with open(os.path.join(VECTORS, name)) as f:
                for v in json.load(f)["vectors"]:
                    if v["type"] not in (1, 24, 25, 26, 27, 28) or v["escrow"] is not None:
                        continue
                    out.append(({"seedHex": v["key"], "genesisHex": v["genesis"], "type": v["type"],
                                 "params": {k: str(x) for k, x in v["params"].items()},
                                 "fee": str(v["fee"]), "timestamp": str(v["timestamp"]),
                                 "message": v["message"] or "",
                                 "version": v["expected"]["signing_version"]}, v))
        return out

    def send_args(self, gh, bob, ts, message=""):
        return {"seedHex": SEED, "genesisHex": gh, "type": 1, "fee": str(FEE), "timestamp": str(ts),
                "message": message, "params": {"recipient": bob, "amount": "225000000"}}

    def signing(self, d, node, bob):
        d.set_script_timeout(PAGE_S)
        # u64 values above 2^53 (most app ids) stay exact in the page
        got = d.execute_async_script("""
            const done = arguments[arguments.length - 1];
            import('/js/api.js').then((m) => done(m.parseJson(
              '{"ref": 3998569870547333483, "small": 42, "neg": -9007199254740993, "x": 1.5, "s": "7"}')))
              .catch((e) => done({error: String(e)}));""")
        assert_equal(got, {"ref": "3998569870547333483", "small": 42, "neg": "-9007199254740993", "x": 1.5, "s": "7"},
                     "the page's JSON keeps integers above 2^53 exact")
        # an app's clock in blocks and time, in the wallet's words (zbc_clock_text)
        got = d.execute_async_script("""
            const done = arguments[arguments.length - 1];
            import('/js/words.js').then((w) => done([w.clockText(120, 108, 1000), w.clockText(120, 108, 0),
              w.clockText(109, 108, 1000), w.clockText(5, 5, 1000), w.clockText(5, 8, 1000),
              w.clockText(20000, 10, 1000), w.duration(12000000), w.duration(200000000)]))
              .catch((e) => done({error: String(e)}));""")
        assert_equal(got, ["block 120 (in 12 blocks, \u2248 12 s)", "block 120 (in 12 blocks)",
                           "block 109 (in 1 block, \u2248 1 s)", "block 5 (reached)",
                           "block 5 (passed 3 blocks ago)", "block 20000 (in 19990 blocks, \u2248 5 h 33 min)",
                           "3 h 20 min", "2 d 8 h"], "the page's clock words")
        cases = self.vectors()
        assert_equal(sorted(set(c["type"] for c, _ in cases)), [1, 24, 25, 26, 27, 28], "vector types")
        assert_true(len(cases) >= 15, "vectors found: %d" % len(cases))
        got = d.execute_async_script(SIGN_JS, [c for c, _ in cases])
        assert_true(isinstance(got, list), "the page's signer: %r" % got)
        for (c, v), r in zip(cases, got):
            e = v["expected"]
            for k in ("unsigned_bytes", "digest", "signature", "transaction_bytes", "transaction_hash"):
                assert_equal(r.get(k), e[k], "%s: the page's %s" % (v["name"], k))
        self.log("the page reproduced %d vectors (SendZBC and app transactions) byte for byte" % len(cases))
        # a live transfer: the wallet's bytes, then the page's for the same fields
        gh = node.info()["genesis_hash"].lower()
        w = self.zbc("send", SEED, bob, "2.25ZBC", "--offline", "--genesis", gh, "--fee", FEE,
                     "--message", "from the page", node=False)
        raw = bytes.fromhex(w["transaction_bytes"])
        ts = int.from_bytes(raw[5:13], "little", signed=True)
        page = d.execute_async_script(SIGN_JS, [self.send_args(gh, bob, ts, "from the page")])[0]
        assert_equal(page.get("transaction_bytes"), w["transaction_bytes"], "the page's bytes = the wallet's")
        assert_equal(page.get("transaction_hash"), w["transaction_hash"], "the page's hash = the wallet's")
        # the sender is not funded: the node refuses it with its sentence, at 400
        st, j = d.execute_async_script(POST_JS, page["transaction_bytes"])
        assert_equal(st, 400, "an unfunded sender's transfer: %r" % j)
        assert_true("insufficient balance" in j.get("error", ""), "the refusal: %r" % j)
        bad = [e for e in d.get_log("browser") if e.get("level") == "SEVERE"]
        assert_true(len(bad) == 1 and "400" in bad[0]["message"],
                    "the refused POST is the one console error: %r" % bad)
        self.zbc("send", "--from", "alice", page["sender"], "10ZBC", "--fee", FEE, "--wait")
        w = self.zbc("send", SEED, bob, "2.25ZBC", "--offline", "--genesis", gh, "--fee", FEE, node=False)
        raw = bytes.fromhex(w["transaction_bytes"])
        ts = int.from_bytes(raw[5:13], "little", signed=True)
        page = d.execute_async_script(SIGN_JS, [self.send_args(gh, bob, ts)])[0]
        assert_equal(page.get("transaction_bytes"), w["transaction_bytes"], "the page's bytes = the wallet's")
        st, j = d.execute_async_script(POST_JS, page["transaction_bytes"])
        assert_equal((st, j.get("transaction_hash")), (202, page["transaction_hash"]), "the page's POST: %r" % j)
        self.wait_confirmed(page["transaction_hash"])
        d.get(node.api_url + "/#/tx/" + page["transaction_hash"])
        self.wait_view(d, "tx", "applied", "the page's own transfer, applied")
        self.console_errors(d, "the signing checks")


if __name__ == "__main__":
    WebExplorer().main()
