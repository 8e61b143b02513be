"""The soak's workload and its finality tracker (docs/soak.md §2, §4).

Load: a modest mixed stream through the wallet CLI (`zbc … --json` with
ZBC_KEY, so no key file and no passphrase derivation): transfers between
the soak's accounts, dice bets, and a couple of two-seat games (tic-tac-toe,
connect four) created with a designated opponent, joined, and played to
their end with moves picked from the API's legal_moves.  Each submission
goes to a node that is up at that moment (not frozen, not stopped); a
refusal or a node that dies under the call is counted, never retried in a
loop.

Tracker: asks the nodes for the status of every accepted transaction
until it is final (`"final": true`, docs/api.md §4-5), dropped, or too old;
and samples each node's finalized_height with the block hash there.  What
it saw final is what the end checks hold the chain to."""
import collections
import concurrent.futures
import json
import subprocess
import threading
import time

GAMES = ("tictactoe", "connect4")
MAX_GAMES = 2
GAME_STAKE = "0.1ZBC"
BET_STAKE = "0.01ZBC"


class Background:
    """A loop (run) on its own thread until stop()."""
    thread = None

    def start(self):
        self.thread = threading.Thread(target=self.run, name=type(self).__name__, daemon=True)
        self.thread.start()

    def stop(self):
        self.stop_ev.set()
        if self.thread is not None:
            self.thread.join()


class Load(Background):
    def __init__(self, soak, rng, rate, accounts):
        self.soak = soak
        self.rng = rng
        self.rate = rate
        self.accounts = accounts  # [(name, seed hex, ZBC_ address)]
        self.by_address = {a: s for _, s, a in accounts}
        self.stop_ev = threading.Event()
        self.lock = threading.Lock()
        self.games = {}  # app_id -> dict
        self.counts = collections.Counter()  # what was attempted / accepted
        self.refusals = collections.Counter()  # the node's reason (first words)
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=3)
        self.inflight = 0

    # ---- the wallet ----
    def zbc(self, seed, node, *args):
        """One wallet call; returns (exit code, JSON object or None)."""
        cmd = [self.soak.zbc_bin] + [str(a) for a in args] + [
            "--json", "--api", node.api_url, "--wallet", self.soak.wallet_dir,
            "--genesis", self.soak.genesis_hash, "--timeout", "5"]
        env = self.soak.wallet_env({"ZBC_KEY": seed})
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                               timeout=30)
        except subprocess.TimeoutExpired:
            return -1, None
        try:
            j = json.loads(p.stdout)
        except ValueError:
            j = None
        if self.soak.sanitizer_hit(p.stderr.decode("utf-8", "replace")):
            self.soak.problem("zbc %s reported a sanitizer error: %s"
                              % (" ".join(map(str, args)), p.stderr.decode()[-2000:]))
        return p.returncode, j

    def submit(self, kind, seed, *args):
        """A wallet call that sends one transaction; registers its hash
        with the tracker.  Returns the JSON answer or None."""
        node = self.soak.pick_up_node(self.rng_local())
        if node is None:
            self.count(kind + ": no node up")
            return None
        code, j = self.zbc(seed, node, *args)
        if code == 0 and isinstance(j, dict) and j.get("transaction_hash"):
            self.count(kind + ": accepted")
            self.soak.tracker.add(j["transaction_hash"], kind)
            return j
        self.count(kind + ": not accepted")
        why = (j or {}).get("error") if isinstance(j, dict) else None
        why = " ".join(str(why or "exit %d" % code).split())
        with self.lock:
            self.refusals[kind + ": " + why[:140]] += 1
        return None

    def count(self, what):
        with self.lock:
            self.counts[what] += 1

    def rng_local(self):
        with self.lock:
            return self.rng.random()

    # ---- actions ----
    def transfer(self, a, b, amount):
        _, seed, _ = self.accounts[a]
        self.submit("transfer", seed, "send", self.accounts[b][2], amount)

    def bet(self, a):
        _, seed, _ = self.accounts[a]
        self.submit("bet", seed, "bet", "dice", "under", "49.5", "--stake", BET_STAKE)

    def create_game(self, a, b, game):
        _, seed, _ = self.accounts[a]
        j = self.submit("app create", seed, "app", "create", game, "--stake", GAME_STAKE,
                        "--opponent", self.accounts[b][2])
        if j is not None and j.get("app_id"):
            with self.lock:
                self.games[str(j["app_id"])] = {"game": game, "creator": a, "opponent": b,
                                                "t": time.monotonic(), "busy": False,
                                                "sent_at": None, "sent_moves": None}
            self.count("games created")

    def game_step(self, app_id):
        g = self.games[app_id]
        try:
            node = self.soak.pick_up_node(self.rng_local())
            if node is None:
                return
            try:
                st, a = node.get("/api/v1/apps/%s" % app_id)
            except OSError:
                return
            now = time.monotonic()
            if st == 404:
                # not in a block yet, or its CreateApp was lost with a
                # restarted node's mempool: given up after a minute
                if now - g["t"] > 60:
                    self.forget(app_id, "games never created")
                return
            if st != 200 or not isinstance(a, dict):
                return
            if a["status"] in ("finished", "abandoned"):
                self.forget(app_id, "games " + a["status"])
                return
            if now - g["t"] > 600:
                self.forget(app_id, "games left after 10 minutes")
                return
            # one transaction per app state: sent again only when the
            # state is unchanged 8 s later (the transaction was lost)
            state = (a["status"], a.get("moves"), a.get("seated"))
            if g["sent_moves"] == state and now - g["sent_at"] < 8:
                return
            if a["status"] == "open":
                _, seed, _ = self.accounts[g["opponent"]]
                if self.submit("app join", seed, "app", "join", app_id) is not None:
                    g["sent_moves"], g["sent_at"] = state, now
                return
            seed = self.by_address.get(a.get("clock_address") or "")
            moves = a.get("legal_moves") or []
            if seed is None or not moves or a.get("has_pending"):
                return
            with self.lock:
                move = moves[int(self.rng.random() * len(moves))]
            if self.submit("app move", seed, "app", "move", app_id, move) is not None:
                g["sent_moves"], g["sent_at"] = state, now
        finally:
            g["busy"] = False

    def forget(self, app_id, why):
        with self.lock:
            self.games.pop(app_id, None)
        self.count(why)

    # ---- the loop ----
    def pick_action(self):
        """Chooses the next action with the load's random stream; returns
        a callable or None."""
        r = self.rng
        n = len(self.accounts)
        x = r.random()
        if x < 0.55:
            a = r.randrange(n)
            b = (a + 1 + r.randrange(n - 1)) % n
            amount = r.randrange(1000, 1_000_000)
            return lambda: self.transfer(a, b, amount)
        if x < 0.70:
            a = r.randrange(n)
            return lambda: self.bet(a)
        idle = [k for k, g in sorted(self.games.items()) if not g["busy"]]
        if len(self.games) < MAX_GAMES:
            a = r.randrange(n)
            b = (a + 1 + r.randrange(n - 1)) % n
            game = GAMES[r.randrange(len(GAMES))]
            return lambda: self.create_game(a, b, game)
        if not idle:
            return None
        app_id = idle[r.randrange(len(idle))]
        self.games[app_id]["busy"] = True
        return lambda: self.game_step(app_id)

    def done(self, _fut):
        with self.lock:
            self.inflight -= 1

    def run(self):
        period = 1.0 / self.rate
        nxt = time.monotonic()
        while not self.stop_ev.is_set():
            nxt += period
            with self.lock:
                act = self.pick_action() if self.inflight < 6 else None
                if act is not None:
                    self.inflight += 1
                else:
                    self.counts["skipped (wallet calls still running)"] += 1
            if act is not None:
                fut = self.pool.submit(self.guarded, act)
                fut.add_done_callback(self.done)
            delay = nxt - time.monotonic()
            if delay > 0:
                self.stop_ev.wait(delay)
            else:
                nxt = time.monotonic()

    def guarded(self, act):
        try:
            act()
        except Exception as e:  # a bug in the soak itself: reported, not hidden
            self.soak.problem("workload action failed: %r" % e)

    def stop(self):
        Background.stop(self)
        self.pool.shutdown(wait=True)


class Tracker(Background):
    """Follows accepted transactions to finality; samples final blocks."""

    def __init__(self, soak, rng):
        self.soak = soak
        self.rng = rng
        self.lock = threading.Lock()
        self.pending = {}  # hash -> {"t", "kind", "last"}
        self.final = {}  # hash -> (block height, node index, kind)
        self.dropped = {}  # hash -> reason
        self.never = {}  # hash -> kind: not in any block 3 minutes on
        self.final_blocks = {}  # height -> (hash, node index) seen final
        self.final_conflicts = []
        self.stop_ev = threading.Event()

    def add(self, tx_hash, kind):
        with self.lock:
            self.pending[tx_hash] = {"t": time.monotonic(), "kind": kind, "last": 0.0}

    def check_one(self, tx_hash, node):
        try:
            st, j = node.get("/api/v1/transactions/%s/status" % tx_hash)
        except OSError:
            return
        now = time.monotonic()
        with self.lock:
            p = self.pending.get(tx_hash)
            if p is None:
                return
            p["last"] = now
            if not isinstance(j, dict):
                return
            s = j.get("status")
            if st == 200 and s == "confirmed" and j.get("final") is True:
                self.final[tx_hash] = (int(j["block_height"]), node.index, p["kind"])
                del self.pending[tx_hash]
            elif st == 200 and s == "dropped":
                self.dropped[tx_hash] = j.get("reason", "")
                del self.pending[tx_hash]
            elif s in ("not_found", "mempool") and now - p["t"] > 180:
                # a restarted node forgets its pool (docs/api.md §5): a
                # transaction only a killed node held is never included
                self.never[tx_hash] = p["kind"]
                del self.pending[tx_hash]

    def sample_final_block(self, node):
        try:
            st, info = node.get("/api/v1/node/info")
            if st != 200:
                return
            fh = int(info.get("finalized_height") or 0)
            if fh <= 0:
                return
            st, b = node.get("/api/v1/blocks/%d" % fh)
        except OSError:
            return
        if st != 200 or not isinstance(b, dict):
            return
        with self.lock:
            seen = self.final_blocks.get(fh)
            if seen is None:
                self.final_blocks[fh] = (b["hash"], node.index)
            elif seen[0] != b["hash"]:
                self.final_conflicts.append((fh, seen, (b["hash"], node.index)))

    def sweep(self, limit=None, min_age=3.0):
        now = time.monotonic()
        with self.lock:
            due = [h for h, p in self.pending.items()
                   if now - p["t"] > 2.0 and now - p["last"] >= min_age]
        if limit is not None:
            due = due[:limit]
        for h in due:
            node = self.soak.pick_up_node(self.rng.random())
            if node is None:
                return
            self.check_one(h, node)

    def run(self):
        k = 0
        while not self.stop_ev.is_set():
            self.sweep(limit=40)
            if k % 4 == 0:
                for node in self.soak.up_nodes():
                    self.sample_final_block(node)
            k += 1
            self.stop_ev.wait(1.0)
