#!/usr/bin/env python3
"""The app list index through a reorg (docs/api.md §10 "Index").

Two validators A and B run apart (B starts first, so its branch is the
heavier); on each branch alice opens apps, bob joins some, one is resigned.
A then dials B and switches to B's branch, undoing its own blocks (its apps'
index keys must go, and come back at their new heights when B's chain
includes the returned transactions).  Once the two agree, both are
restarted without producing, and on each the list pages and every filter
combination (status, type, player, at page sizes 1 and 100, following
next_cursor) must equal the answer computed from GET /api/v1/apps/<id> of
every app either branch ever made — what the full scan of the APPS table
answered before the index.  A's ledger then audits clean."""
import itertools
import os
import re

from framework import (ZBC, ZbcTest, assert_equal, assert_true, audit_datadir_clean,
                       wait_converged, wait_until)
import genesis as genesis_mod

FEE = "0.01ZBC"
STATUSES = [None, "open", "active", "finished", "abandoned"]
TYPES = [None, "tictactoe", "connect4"]
TYPE_CODE = {"tictactoe": 1, "connect4": 3}


class AppsIndex(ZbcTest):
    def make_apps(self, node, games, join, resign):
        """Opens one app per game on node; bob joins the ones in join,
        alice resigns (leaves) the ones in resign; returns the ids."""
        ids = []
        for i, game in enumerate(games):
            r = self.zbc("app", "create", game, "--stake", "%dZBC" % (i + 1), "--from", "alice",
                         "--fee", FEE, "--wait=included", node=node)
            ids.append(r["app_id"])
        for i in join:
            self.zbc("app", "join", ids[i], "--from", "bob", "--fee", FEE, "--wait=included", node=node)
        for i in resign:
            self.zbc("app", "resign", ids[i], "--from", "alice", "--fee", FEE, "--wait=included", node=node)
        return ids

    def reference(self, node, ids):
        """Every app of ids that node knows, as the list shows them."""
        out = []
        for app_id in ids:
            st, j = node.get("/api/v1/apps/%s" % app_id)
            if st == 404:
                continue
            assert_equal(st, 200, "GET app %s" % app_id)
            out.append(j)
        out.sort(key=lambda a: (a["created"], int(a["id"])), reverse=True)
        return out

    def pages(self, node, query, limit):
        """Every id the list gives for query at limit, following cursors."""
        got, cursor = [], None
        for _ in range(200):
            q = dict(query, limit=limit)
            if cursor:
                q["cursor"] = cursor
            path = "/api/v1/apps?" + "&".join("%s=%s" % kv for kv in sorted(q.items()))
            st, j = node.get(path)
            assert_equal(st, 200, "GET %s: %r" % (path, j))
            got += [a["id"] for a in j["apps"]]
            assert_equal(j["count"], len(j["apps"]), "count of %s" % path)
            cursor = j["next_cursor"]
            if cursor is None:
                return got
            assert_equal(len(j["apps"]), limit, "a page with a next_cursor is full: %s" % path)
        raise AssertionError("more than 200 pages")

    def check_lists(self, node, ids, players):
        ref = self.reference(node, ids)
        n = 0
        for status, game, player in itertools.product(STATUSES, TYPES, [None] + players):
            want = [a["id"] for a in ref
                    if (status is None or a["status"] == status)
                    and (game is None or a["type"] == TYPE_CODE[game])
                    and (player is None or player in [p["address"] for p in a["players"]])]
            q = {}
            if status:
                q["status"] = status
            if game:
                q["type"] = game
            if player:
                q["player"] = player
            for limit in (1, 100):
                assert_equal(self.pages(node, q, limit), want,
                             "list %r at limit %d on node %d" % (q, limit, node.index))
            n += 1
        return ref, n

    def run_test(self):
        alice = self.wallet_key("alice")
        bob = self.wallet_key("bob")
        a, b = self.add_node(), self.add_node()
        keys = [a.init(), b.init()]
        g = genesis_mod.make_genesis(keys, self.wallet_key("apps-fund"),
                                     [(alice, 1000 * ZBC), (bob, 1000 * ZBC)],
                                     block_time_ms=200, smith_delay_ms=300)
        self.genesis = g
        self.genesis_path = os.path.join(self.tmpdir, "genesis.json")
        genesis_mod.write_genesis(self.genesis_path, g)
        b.run_args = ["--p2p", "127.0.0.1:%d" % b.p2p_port]
        b.start(self.genesis_path, b.run_args)
        b.wait_for_height(15, timeout=60)
        a.start(self.genesis_path, [])

        # A's branch: four apps, two joined, one of them resigned; B's: three
        ids_a = self.make_apps(a, ["tictactoe", "connect4", "tictactoe", "connect4"],
                               join=[0, 1], resign=[1])
        ids_b = self.make_apps(b, ["connect4", "tictactoe", "tictactoe"], join=[2], resign=[])
        ids = ids_a + ids_b
        ref_a, _ = self.check_lists(a, ids, [alice, bob])
        assert_equal(sorted(x["id"] for x in ref_a), sorted(ids_a), "A's branch holds A's apps")
        before = {x["id"]: x["created"] for x in ref_a}
        assert_true(b.height() > a.height(), "B's branch is the longer (B %d, A %d)"
                    % (b.height(), a.height()))

        # A joins B: its blocks are undone
        a.stop()
        a.start(self.genesis_path, ["--peer", "127.0.0.1:%d" % b.p2p_port])
        wait_until(lambda: re.search(r"reorg|switched", a.read_log()), 60,
                   "A to switch to B's branch")
        wait_converged([a, b], min_height=b.height(), timeout=60)

        # the returned transactions may go back in: wait until both pools are
        # empty and the nodes agree, then freeze both
        def settled():
            infos = [n.info() for n in (a, b)]
            return all(int(i["mempool_size"]) == 0 for i in infos)
        wait_until(settled, 60, "both mempools to empty", interval=0.5)
        h, tip, root = wait_converged([a, b], timeout=30)
        for n in (a, b):
            n.stop()
        for n in (a, b):
            n.start(self.genesis_path, ["--no-produce"])
        for n in (a, b):
            ref, combos = self.check_lists(n, ids, [alice, bob])
        ref_b = self.reference(b, ids)
        assert_equal([x["id"] for x in self.reference(a, ids)], [x["id"] for x in ref_b],
                     "A and B list the same apps")
        moved = [x["id"] for x in ref_b if x["id"] in before and x["created"] != before[x["id"]]]
        gone = [i for i in ids_a if i not in [x["id"] for x in ref_b]]
        self.log("after the reorg at height %d: %d apps, %d filter combinations x 2 page sizes "
                 "equal the per-app answers on both nodes; %d of A's apps re-included at another "
                 "height, %d gone" % (a.height(), len(ref_b), combos, len(moved), len(gone)))
        assert_true(len(moved) + len(gone) > 0, "the reorg changed A's apps")
        for n in (a, b):
            n.stop()
        audit_datadir_clean(self, a.datadir, self.genesis_path)


if __name__ == "__main__":
    AppsIndex().main()
