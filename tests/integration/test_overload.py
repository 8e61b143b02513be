#!/usr/bin/env python3
"""Overload: a request refused whole (docs/api.md §3 "Overload"), against a
real node whose pool fills:

- one validator started with --no-produce (no block drains the pool); zbc-load
  fills the pool in batches of 100 (closed loop) to its bound and past it:
  every transaction is either accepted (as many as the pool then holds) or
  refused as `mempool full`; once the pool is full the batches are refused
  whole (zbc-load's `refused_whole.mempool_full`, every transaction of those
  batches counted as a `mempool full` refusal), the counts add up;
- raw HTTP, plain form, paying the minimum fee for its length (what the
  pool's cheapest pays): a batch is answered 503 as a whole, with
  Retry-After and a JSON body naming the reason, the fee that would get in
  and the pool's figures; its first sentence is the per-element one; a
  single submission likewise ("the transaction was refused whole");
- the remedy works: the same batch with one element re-signed at the
  `fee_needed` the 503 named is not refused whole (200, one answer per
  element): that element is admitted (it displaces the cheapest, the pool
  keeps its size), the others get the per-element `mempool is full`;
- a batch with one element already pooled: not refused whole, that element a
  duplicate (202); a body in the payload form: the ordinary answer;
- the wallet: `zbc send` to the full node exits 9 node_busy with the node's
  `mempool is full` sentence.
"""
import json
import os
import subprocess
import time
import urllib.error
import urllib.request

from framework import ZBC, ZbcTest, TestFailure, assert_equal, assert_true

SEED_A = "11" * 32
SEED_B = "22" * 32
SENDERS = 200


class Overload(ZbcTest):
    def load_bin(self):
        return os.path.join(os.path.abspath(self.args.build), "node", "bench", "zbc-load")

    def post_raw(self, body):
        """POST /api/v1/transactions: (status, headers, parsed JSON)."""
        req = urllib.request.Request(self.node.api_url + "/api/v1/transactions",
                                     data=body.encode(), method="POST")
        req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, dict(r.headers), json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, dict(e.headers), json.loads(e.read())

    def offline(self, to, amount, fee, seed=SEED_A):
        return self.zbc("send", seed, to, amount, "--offline", "--genesis", self.genesis_hash,
                        "--timestamp", int(time.time()), "--fee", fee, node=False).json

    def min_fee(self, to, amount, seed=SEED_A):
        """The genesis minimum fee for this transfer's length."""
        probe = self.offline(to, amount, 10 ** 9, seed)
        n = len(probe["transaction_bytes"]) // 2
        return self.info["min_fee_base"] + self.info["min_fee_per_byte"] * n, n

    def whole_503(self, what, st, hdr, j, n, single=False):
        assert_equal(st, 503, "%s: status (%r)" % (what, j))
        assert_equal(hdr.get("Retry-After"), "1", "%s: Retry-After (%r)" % (what, hdr))
        assert_true(isinstance(j, dict), "%s: one JSON object, not one per element: %r"
                    % (what, j))
        assert_equal(j.get("success"), False, "%s: success" % what)
        assert_equal(j.get("code"), 503, "%s: code" % what)
        assert_equal(j.get("reason"), "mempool_full", "%s: reason" % what)
        assert_equal(j.get("transactions"), n, "%s: transactions" % what)
        assert_equal(j.get("retry_after"), 1, "%s: retry_after" % what)
        for k in ("fee_needed", "fee_needed_bytes", "cheapest_fee", "cheapest_bytes",
                  "mempool_size", "mempool_bytes"):
            assert_true(isinstance(j.get(k), int) and j[k] > 0, "%s: %s in %r" % (what, k, j))
        want = ("mempool is full (%d transactions, %d bytes): a fee of at least %d for these %d "
                "bytes displaces its cheapest; " % (j["mempool_size"], j["mempool_bytes"],
                                                     j["fee_needed"], j["fee_needed_bytes"]))
        assert_true(j["error"].startswith(want), "%s: the per-element sentence first: %r"
                    % (what, j["error"]))
        tail = "the transaction was refused whole" if single else \
            "the batch of %d transactions was refused whole" % n
        assert_true(tail in j["error"], "%s: %r names %r" % (what, j["error"], tail))
        self.log("%-22s HTTP 503 Retry-After %s: %s" % (what, hdr["Retry-After"], j["error"]))

    def run_test(self):
        alice = self.wallet_key("alice", SEED_A)
        bob = self.wallet_key("bob", SEED_B)
        out = subprocess.run([self.load_bin(), "accounts", "--senders", str(SENDERS),
                              "--seed", "ov"], stdout=subprocess.PIPE, check=True)
        senders = [(l.split("=")[0], int(l.split("=")[1])) for l in out.stdout.decode().split()]
        self.node = self.start_chain(balances=[(alice, 100 * ZBC), (bob, 100 * ZBC)] + senders,
                                     # the multi-validator budget (250 ms): a pool
                                     # bound of 4 blocks at the first guess of
                                     # 100 us a transaction, 10,000 < 14,000 (a
                                     # lone validator's default is twice that)
                                     run_args=["--no-produce", "--block-budget-ms", "250"])
        self.info = self.node.info()
        self.genesis_hash = self.info["genesis_hash"].lower()
        # past the first slot and its build budget: with no block, the node
        # has no other slot, so no `block_due` refusal (docs/api.md §3)
        slot_s = (self.info["genesis_time"] + self.info["block_time_ms"]) / 1000.0
        wait = slot_s + 0.5 - time.time()
        if wait > 0:
            time.sleep(wait)

        # --- zbc-load fills the pool past its bound, batches of 100 ---
        out = subprocess.run([self.load_bin(), "run", "--node", self.node.api_url,
                              "--closed", "1000", "--batch", "100", "--count", "14000",
                              "--duration", "120", "--settle", "0", "--senders", str(SENDERS),
                              "--seed", "ov", "--json", "--quiet"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, timeout=300)
        if out.returncode != 0:
            raise TestFailure("zbc-load: %s" % out.stderr.decode())
        rep = json.loads(out.stdout)
        pooled = self.node.info()["mempool_size"]
        whole = rep["refused_whole"]
        self.log("zbc-load: offered %d accepted %d refused %d failed %d; pool %d; refused "
                 "whole %r" % (rep["offered"], rep["accepted"], rep["refused"], rep["failed"],
                               pooled, whole))
        assert_equal(rep["accepted"] + rep["refused"] + rep["failed"] + rep["unsent"]
                     + rep["never_answered"], rep["offered"], "counts add up")
        assert_equal(rep["offered"], 14000, "every pre-signed transaction offered")
        assert_equal(rep["failed"], 0, "no failure: %r" % rep["failures"])
        assert_equal(rep["accepted"], pooled, "accepted = what the pool holds (no block)")
        assert_true(pooled < 14000, "the pool filled (its bound is below 14000): %d" % pooled)
        assert_equal(list(rep["refusals"]), ["mempool full"],
                     "every refusal is mempool full: %r" % rep["refusals"])
        assert_equal(rep["refusals"]["mempool full"]["count"], rep["refused"], "refusals")
        assert_true(whole["mempool_full"]["requests"] >= 10,
                    "batches refused whole once the pool was full: %r" % whole)
        assert_equal(whole["mempool_full"]["transactions"],
                     100 * whole["mempool_full"]["requests"],
                     "every transaction of a batch refused whole counted")
        assert_true(whole["mempool_full"]["transactions"] <= rep["refused"],
                    "refused whole within the refusals")
        assert_equal(whole["block_due"]["requests"] + whole["other"]["requests"], 0,
                     "no other whole refusal: %r" % whole)

        # --- raw HTTP: a plain-form batch at the pool's cheapest fee ---
        fee, n = self.min_fee(bob, "1ZBC")
        txs = [self.offline(bob, "%dZBC" % (i + 1), fee) for i in range(5)]
        tb = lambda t: {"transaction_bytes": t["transaction_bytes"]}
        st, hdr, j = self.post_raw(json.dumps([tb(t) for t in txs]))
        self.whole_503("plain batch of 5", st, hdr, j, 5)
        assert_equal(j["cheapest_bytes"], n, "the pool's cheapest has this transfer's length "
                     "(zbc-load pays the minimum fee for its length, as this one)")
        fee_needed = j["fee_needed"]
        assert_equal(fee_needed, j["cheapest_fee"] + 1, "one more than the cheapest's fee")
        st, hdr, j = self.post_raw(" \n" + json.dumps(tb(txs[0]), indent=1) + "\n")
        self.whole_503("plain single", st, hdr, j, 1, single=True)
        assert_equal(self.node.info()["mempool_size"], pooled, "nothing admitted")

        # --- the remedy: one element paying fee_needed gets in ---
        rich = self.offline(bob, "3ZBC", fee_needed)
        batch = [tb(txs[0]), tb(rich), tb(txs[2])]
        st, hdr, ans = self.post_raw(json.dumps(batch))
        assert_equal(st, 200, "a batch one element of which could get in: %r" % ans)
        assert_equal(len(ans), 3, "one answer per element")
        assert_equal(ans[1].get("code"), 202, "the one paying fee_needed: %r" % ans[1])
        for i in (0, 2):
            assert_equal(ans[i].get("code"), 503, "element %d: %r" % (i, ans[i]))
            assert_true("mempool is full" in ans[i]["error"], "element %d: %r" % (i, ans[i]))
        assert_equal(self.node.info()["mempool_size"], pooled, "it displaced the cheapest")
        self.log("one element at fee %d: 200, answers %r" % (fee_needed,
                                                             [a["code"] for a in ans]))

        # --- one element already pooled: a duplicate, the ordinary way ---
        st, hdr, ans = self.post_raw(json.dumps([tb(txs[1]), tb(rich)]))
        assert_equal(st, 200, "a batch with a pooled element: %r" % ans)
        assert_equal([a.get("code") for a in ans], [503, 202], "answers %r" % ans)
        assert_equal(ans[1].get("duplicate"), True, "the pooled one: %r" % ans[1])
        # --- the payload form: the ordinary answer ---
        st, hdr, ans = self.post_raw(json.dumps(txs[3]["payload"]))
        assert_equal(st, 503, "payload form: %r" % ans)
        assert_true("reason" not in ans and "mempool is full" in ans["error"],
                    "the ordinary per-element refusal: %r" % ans)

        # --- the wallet: exit 9 node_busy, the node's sentence ---
        r = self.zbc("send", SEED_A, bob, "4ZBC", "--fee", fee, expect=9)
        assert_true("mempool is full" in r["error"], "wallet error: %r" % r["error"])
        self.log("wallet: exit 9, %s" % r["error"])


if __name__ == "__main__":
    Overload().main()
