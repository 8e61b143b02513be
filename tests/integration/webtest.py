"""Shared pieces of the browser tests (docs/web.md §5): Debian's chromium and
chromium-driver driven by python3-selenium against a real zbcd.

A test subclasses BrowserTest and calls self.start_web(): it returns None
after printing "SKIP: no chromium (...)" when chromium, chromedriver or
selenium is missing, else the webdriver module.  Then self.automine_node()
starts a one-validator automine devnet with alice and bob funded, and
self.browser() opens a headless Chromium session (quit it in a finally).
Every SEVERE console entry fails the test through console_errors(); a
screenshot goes to BUILD/web-artefacts/NAME.png (shot())."""
import os
import sys
import time

from framework import ZBC, ZbcTest, TestFailure, assert_equal, wait_until

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FEE = 2000000
PAGE_S = 15  # what one page may take to show on the shared 2-core machine


def load_selenium():
    """Debian's python3-selenium lives in the system's dist-packages, which
    another Python (pyenv) does not search."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        sys.path.append("/usr/lib/python3/dist-packages")
        try:
            import selenium  # noqa: F401
        except ImportError:
            return None
    from selenium import webdriver
    return webdriver


class BrowserTest(ZbcTest):
    def start_web(self):
        """The webdriver module, or None after printing the SKIP line."""
        webdriver = load_selenium()
        missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not os.access(p, os.X_OK)]
        if webdriver is None or missing:
            print("SKIP: no chromium (%s missing; scripts/deps installs chromium, chromium-driver "
                  "and python3-selenium)" % ", ".join(missing or ["selenium"]))
            return None
        self.webdriver = webdriver
        self.artefacts = os.path.join(os.path.abspath(self.args.build), "web-artefacts")
        os.makedirs(self.artefacts, exist_ok=True)
        return webdriver

    def automine_node(self, balances=None, extra=()):
        """One validator with --automine (5-ms blocks, blocks on request);
        the wallet keys alice and bob (addresses in self.alice, self.bob)
        hold 1000 ZBC each, plus `balances` [(address, amount)].  Returns
        the node; three blocks are mined."""
        alice = self.alice = self.wallet_key("alice")
        bob = self.bob = self.wallet_key("bob")
        node = self.start_chain([(alice, 1000 * ZBC), (bob, 1000 * ZBC)] + list(balances or []),
                                automine=True, run_args=extra)
        self.mine(node, 3)
        return node

    def token(self, node):
        return self.api_token(node)

    def mine(self, node, n):
        ZbcTest.mine(self, n, node)  # framework.py: admin/mine, the height checked

    def browser(self, webdriver=None):
        webdriver = webdriver or self.webdriver
        from selenium.webdriver.chrome.service import Service
        opts = webdriver.ChromeOptions()
        opts.binary_location = CHROMIUM
        for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                  "--window-size=1280,1000", "--no-first-run", "--disable-extensions"):
            opts.add_argument(a)
        opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        svc = Service(executable_path=CHROMEDRIVER,
                      log_path=os.path.join(self.tmpdir, "chromedriver-%d.log" % id(opts)))
        return webdriver.Chrome(service=svc, options=opts)

    def console_errors(self, d, where):
        """Fails on any SEVERE console entry since the last call."""
        bad = [e for e in d.get_log("browser") if e.get("level") == "SEVERE"]
        # Chromium fails a request in flight when the host's interfaces
        # change (another test's network namespaces): the machine's doing,
        # not the page's; the page retries its polls.
        moved = [e for e in bad if "net::ERR_NETWORK_CHANGED" in e["message"]]
        if moved:
            self.log("ignored %d request(s) failed by a change of the host's network: %s"
                     % (len(moved), moved[0]["message"]))
            bad = [e for e in bad if e not in moved]
        if bad:
            raise TestFailure("console errors on %s:\n%s" % (where, "\n".join(e["message"] for e in bad)))

    def shot(self, d, name):
        path = os.path.join(self.artefacts, name + ".png")
        d.save_screenshot(path)
        self.log("screenshot %s" % path)

    def q(self, d, css):
        return d.find_elements("css selector", css)

    def text(self, d, css):
        """The first match's text, None when there is none.  A view that
        re-renders (the explorer's block list on each new block) can replace
        the element between the look-up and the read: then it is looked up
        again (the CI's fresh clone of 07ab7fe failed test_web_explorer
        with StaleElementReferenceException here)."""
        from selenium.common.exceptions import StaleElementReferenceException
        for _ in range(20):
            els = self.q(d, css)
            if not els:
                return None
            try:
                return els[0].text
            except StaleElementReferenceException:
                time.sleep(0.05)
        return None

    def stale(self, el):
        """True once el has left the page (a redraw replaced it)."""
        from selenium.common.exceptions import StaleElementReferenceException
        try:
            el.is_enabled()
            return False
        except StaleElementReferenceException:
            return True

    def click(self, d, css, what, timeout=PAGE_S):
        """Waits for an element matching css and clicks it.  The board is
        redrawn on each event of the app's stream, so an element found can
        be replaced before the click lands: then it is found again."""
        from selenium.common.exceptions import StaleElementReferenceException
        deadline = time.monotonic() + timeout
        while True:
            wait_until(lambda: self.q(d, css), max(0.1, deadline - time.monotonic()), what, interval=0.05)
            try:
                self.q(d, css)[0].click()
                return
            except (StaleElementReferenceException, IndexError):
                if time.monotonic() > deadline:
                    raise TestFailure("%s: the element kept being redrawn (%s)" % (what, css))

    def pieces(self, d, css):
        """{data-square: data-piece} of the elements matching css, read in
        one script: the board is redrawn on each event of the app's stream,
        and element handles read one by one can go stale between reads."""
        return d.execute_script("""
            const out = {};
            for (const el of document.querySelectorAll(arguments[0]))
              out[el.getAttribute('data-square')] = el.getAttribute('data-piece');
            return out;""", css)

    def wait_view(self, d, route, contains, what):
        """Waits until #view shows route and its text contains `contains`."""
        def shown():
            v = self.q(d, "#view")
            if not v or v[0].get_attribute("data-route") != route:
                return None
            t = v[0].text
            return t if contains in t else None
        return wait_until(shown, PAGE_S, what, interval=0.1)

    def submit(self, d, form, values):
        for name, value in values.items():
            el = self.q(d, "#%s [name=%s]" % (form, name))[0]
            el.clear()
            el.send_keys(value)
        self.q(d, "#%s button" % form)[0].click()

    def status(self, d, form):
        return self.text(d, "[data-status=%s]" % form) or ""

    def import_key(self, d, node, seed, pp):
        """Imports seed on d's wallet page (forgetting any key stored
        there); returns the page's address.  Fund the account first, so
        its wallet page finds it (an unfunded account is a 404)."""
        d.get(node.api_url + "/#/wallet")
        v = self.wait_view(d, "wallet", "Wallet", "the wallet page")
        if "Lock" in v:
            self.q(d, "#key-lock button")[0].click()
            self.wait_view(d, "wallet", "Forget this key", "locked")
        if "Forget this key" in self.q(d, "#view")[0].text:
            self.submit(d, "key-forget", {"confirm": "FORGET"})
            self.wait_view(d, "wallet", "Import a seed", "forgotten")
        self.submit(d, "key-import", {"seed": seed, "passphrase": pp, "again": pp})
        self.wait_view(d, "wallet", "Start a game", "the key imported")
        return self.text(d, "[data-field=wallet-address]")

    def browser_game(self, d, d2, node, drivers, game, moves, click):
        """d starts `game` for 1 ZBC on its wallet page, d2 joins with the
        app page's button, then the seat to move clicks each move; both
        pages end showing the result in words.  Returns the app."""
        from selenium.webdriver.support.ui import Select
        d.get(node.api_url + "/#/wallet")
        self.wait_view(d, "wallet", "Start a game", "the wallet page")
        Select(self.q(d, "#app-create select[name=game]")[0]).select_by_value(game)
        self.submit(d, "app-create", {"stake": "1"})
        app_id = wait_until(lambda: self.q(d, "[data-status=app-create]")[0].get_attribute("data-app"),
                            PAGE_S, "the game created: %s" % self.status(d, "app-create"))
        # the page names the app once the node admitted its CreateApp: 404 until a block has it
        wait_until(lambda: (lambda st, j: st == 200 and j["status"] == "open")(
            *node.get("/api/v1/apps/%s" % app_id)), PAGE_S, "app %s on chain" % app_id)
        assert_equal(self.app(app_id)["game"], game, "the game created")
        d.get(node.api_url + "/#/app/" + app_id)
        self.wait_view(d, "app", "you hold seat 0", "the creator's app page")
        d2.get(node.api_url + "/#/app/" + app_id)
        self.wait_view(d2, "app", "Join for 1 ZBC", "the join button")
        self.click(d2, "#app-join", "the join button")
        self.app_ready(app_id)
        for move in moves:
            a = self.app(app_id)
            mover = drivers[a["players"][a["turn"]]["address"]]
            click(mover, move)
            n = a["moves"]
            wait_until(lambda: self.app(app_id)["moves"] > n, PAGE_S,
                       "%s %s on chain (%s)" % (game, move, self.status(mover, "app-action")))
        a = self.app(app_id)
        assert_equal(a["status"], "finished", "the %s game settled" % game)
        winner = a["result"]["winner"]
        want = "seat %d (%s) won 1.98 ZBC (rake 0.02 ZBC)" % (winner, a["players"][winner]["address"])
        for drv in (d, d2):
            wait_until(lambda: self.text(drv, "[data-field=result]") == want, PAGE_S,
                       "the result in words: %r" % want)
        self.log("%s played to settlement in two browsers: %s" % (game, want))
        return a
