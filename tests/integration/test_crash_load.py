#!/usr/bin/env python3
"""Crash under load (Bitcoin Core feature_dbcrash.py, CometBFT e2e kill):
three validators with 200 ms blocks, a stream of transfers and a stream of
app moves (tic-tac-toe and pig, played from their legal moves) sent to
whichever nodes are up; KILLS times a random node is killed with SIGKILL
at a random instant (blocks are produced and committed all the time, so
many kills land inside a build or a commit) and restarted.  Required:
  - after each kill the ledger opens (start-up checks: tip block, state
    accumulator rescan, state root) at a height no lower than the node
    reported just before the kill, unless it was mid-reorg;
  - every transfer some node reported confirmed before a kill is confirmed
    on every node at the end;
  - every node ends on the same tip hash and state root with the same
    balances, and a full zbc-audit replay of every data directory
    (signatures, rolls, moves, payouts, state roots, money invariant at
    every height) finds no divergence.
ZBC_CRASH_SEED fixes the random choices (the seed is logged)."""
import os
import random
import re
import threading
import time

from framework import (ZBC, TestFailure, ZbcTest, assert_equal, assert_true, audit_datadir_clean,
                       kill_node, start_network, started_tip, wait_converged, wait_until)

FEE = 2_000_000
KILLS = 20


class CrashUnderLoad(ZbcTest):
    def live_node(self):
        with self.lock:
            up = [n for n in self.nodes if self.up[n.index]]
        return self.rng_thread.choice(up) if up else None

    def transfers(self):
        """Sends small transfers from alice to bob/carol to random live nodes."""
        k = 0
        while not self.stop_load.is_set():
            nd = self.live_node()
            if nd is None:
                time.sleep(0.05)
                continue
            k += 1
            to = self.bob if k % 2 else self.carol
            r = self.zbc("send", "--from", "alice", to, str(1000 + k), "--fee", FEE,
                         node=nd, expect=None, timeout=30)
            if r.code == 0:
                with self.lock:
                    self.sent.append(r["transaction_hash"])
            time.sleep(0.02)

    def apps(self):
        """Plays tic-tac-toe and pig games between dave and erin from their
        legal moves; every failure (a node killed under the wallet) is
        retried from the state a live node reports."""
        games = ["tictactoe", "pig"]
        g = 0
        while not self.stop_load.is_set():
            game = games[g % 2]
            g += 1
            nd = self.live_node()
            if nd is None:
                time.sleep(0.1)
                continue
            r = self.zbc("app", "create", game, "--stake", "1ZBC", "--from", "dave", "--fee", FEE,
                         "--wait", "--wait-timeout", "10", node=nd, expect=None, timeout=30)
            if r.code != 0:
                continue
            app_id = r["app_id"]
            with self.lock:
                self.apps_made.append(app_id)
            moves = 0
            for _ in range(60):
                if self.stop_load.is_set() or moves >= 10:
                    break
                nd = self.live_node()
                if nd is None:
                    time.sleep(0.1)
                    continue
                try:
                    st, a = nd.get("/api/v1/apps/%s" % app_id)
                except OSError:
                    continue
                if st != 200:
                    time.sleep(0.2)
                    continue
                if a["status"] == "finished":
                    break
                if a["seated"] < 2:
                    self.zbc("app", "join", app_id, "--from", "erin", "--fee", FEE, "--wait",
                             "--wait-timeout", "10", node=nd, expect=None, timeout=30)
                    continue
                if a["clock"] is None or a.get("has_pending") or not a.get("legal_moves"):
                    time.sleep(0.2)
                    continue
                who = {p["seat"]: ("dave" if p["address"] == self.dave else "erin")
                       for p in a["players"]}
                move = self.rng_thread.choice(a["legal_moves"]).split()
                r = self.zbc("app", "move", app_id, *move, "--from", who[a["clock"]], "--fee", FEE,
                             "--wait", "--wait-timeout", "10", node=nd, expect=None, timeout=30)
                if r.code == 0:
                    moves += 1
                    with self.lock:
                        self.moves_made += 1

    def confirmed_on(self, node, hashes):
        out = set()
        for t in hashes:
            st, j = self.tx_status(t, node)
            if st == 200 and isinstance(j, dict) and j.get("status") == "confirmed":
                out.add(t)
        return out

    def run_test(self):
        seed = int(os.environ.get("ZBC_CRASH_SEED", str(int(time.time()))))
        self.log("seed %d (ZBC_CRASH_SEED to repeat)" % seed)
        rng = random.Random(seed)
        self.rng_thread = random.Random(seed + 1)
        self.alice = self.wallet_key("alice")
        self.bob = self.wallet_key("bob")
        self.carol = self.wallet_key("carol")
        self.dave = self.wallet_key("dave")
        self.erin = self.wallet_key("erin")
        accounts = [self.alice, self.bob, self.carol, self.dave, self.erin]
        nodes = start_network(self, 3, [(a, 1000 * ZBC) for a in accounts],
                              block_time_ms=200, smith_delay_ms=300)
        wait_converged(nodes, min_height=2, timeout=30)
        self.lock = threading.Lock()
        self.up = {n.index: True for n in nodes}
        self.sent, self.apps_made, self.moves_made = [], [], 0
        self.stop_load = threading.Event()
        threads = [threading.Thread(target=self.transfers, daemon=True),
                   threading.Thread(target=self.apps, daemon=True)]
        for t in threads:
            t.start()

        must_confirm = set()
        reopened = []
        try:
            for k in range(KILLS):
                victim = nodes[rng.randrange(3)]
                time.sleep(rng.uniform(0.3, 2.0))
                with self.lock:
                    recent = self.sent[-25:]
                # the log mark first: a reorg between it and the info call
                # (a same-height switch right after producing) must count
                log_mark = len(victim.read_log())
                pre = victim.info()
                must_confirm |= self.confirmed_on(victim, recent)
                # the kill lands 0..250 ms after the last answer: anywhere
                # in a 200 ms block cycle, commit included
                time.sleep(rng.uniform(0, 0.25))
                with self.lock:
                    self.up[victim.index] = False
                kill_node(victim)
                time.sleep(rng.uniform(0, 1.0))
                victim.start(self.genesis_path, victim.run_args)
                with self.lock:
                    self.up[victim.index] = True
                h, tip = started_tip(victim)
                reorging = re.search(r"reorg:|chain switched", victim.read_log()[log_mark:])
                reopened.append(h)
                if h < int(pre["height"]) and not reorging:
                    raise TestFailure("kill %d: node %d reopened at height %d, below the height %d "
                                      "it reported before the kill" % (k, victim.index, h,
                                                                       int(pre["height"])))
                if h == int(pre["height"]) and not reorging:
                    assert_equal(tip, pre["tip_hash"], "kill %d: tip of node %d after the restart"
                                 % (k, victim.index))
                self.log("kill %d: node %d at height %s -> reopened at %d" % (k, victim.index,
                                                                              pre["height"], h))
        finally:
            self.stop_load.set()
            for t in threads:
                t.join(timeout=60)

        with self.lock:
            sent = list(self.sent)
        self.log("%d transfers sent, %d apps created, %d moves made, %d transfers confirmed "
                 "before a kill" % (len(sent), len(self.apps_made), self.moves_made,
                                    len(must_confirm)))
        assert_true(len(must_confirm) >= 10, "too few transfers confirmed under load: %d"
                    % len(must_confirm))
        assert_true(self.moves_made >= 5, "too few app moves under load: %d" % self.moves_made)
        # every node at one tip; every pre-kill confirmation still there
        top = max(n.height() for n in nodes)
        h, tip, root = wait_converged(nodes, min_height=top + 2, timeout=60)
        self.log("converged at height %d tip %s root %s" % (h, tip[:16], root[:16]))
        for nd in nodes:
            lost = must_confirm - self.confirmed_on(nd, must_confirm)
            assert_true(not lost, "node %d lost %d confirmed transfer(s): %s"
                        % (nd.index, len(lost), sorted(lost)[:3]))
        for a in accounts:
            bals = [self.balance(a, nd) for nd in nodes]
            assert_equal(len(set(bals)), 1, "balances of %s on the three nodes %r" % (a, bals))
        # the ledgers themselves, offline: a full replay of every data directory
        for nd in nodes:
            nd.stop()
        for nd in nodes:
            got = audit_datadir_clean(self, nd.datadir, self.genesis_path)
            assert_true(got >= h, "node %d audited to %d < %d" % (nd.index, got, h))
        self.log("audited every data directory to height >= %d" % h)


if __name__ == "__main__":
    CrashUnderLoad().main()
