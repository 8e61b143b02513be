#!/usr/bin/env python3
"""Batch submission (docs/api.md §3 "Batches"), raw HTTP against an
--automine node:

- bad input refused for the whole batch, nothing admitted: an empty array
  (400), 1001 elements (413), malformed JSON (400), a body over 4 MiB (413);
- nested garbage: each element gets its own 400 naming what was wrong;
- a mix of good and bad in one array: one answer per element in order;
  the good ones 202 with their hashes (a repeat inside the batch: 202
  duplicate), the bad ones (wrong signature, overspend, fee too low, bad
  hex, not an object) with exactly the status and text a single submission
  of the same body gets; the good ones are confirmed (automine) and the
  balances moved by exactly their amounts and fees, nothing else;
- single submissions arriving together on 11 connections (good, bad, a
  repeat), admitted together: each answered as when alone;
- 30 clients that reset their connection right after the request: the
  node answers the next one;
- zbc-load --batch 0, 1001 or x: a usage error naming the option;
- zbc-load --batch 25 against the node: every accepted transaction
  included and the counts add up.
"""
import json
import os
import socket
import struct
import subprocess
import time

from framework import ZBC, ZbcTest, TestFailure, assert_equal, assert_true

SEED_A = "11" * 32
SEED_B = "22" * 32
FEE = 2000000
SENDERS = 40


class BatchSubmit(ZbcTest):
    def offline(self, *args, seed=SEED_A, fee=FEE):
        """A signed transaction built by zbc --offline (JSON)."""
        return self.zbc(*([args[0], seed] + list(args[1:])), "--offline", "--genesis",
                        self.genesis_hash, "--timestamp", int(time.time()), "--fee", fee,
                        node=False).json

    def post(self, body, timeout=30):
        return self.node.request("POST", "/api/v1/transactions", body, timeout=timeout)

    def whole_refused(self, what, body, status, words):
        st, j = self.post(body)
        assert_equal(st, status, "%s: HTTP status (%r)" % (what, j))
        if status == 413 and not isinstance(j, dict):
            self.log("%-24s HTTP 413 from evhttp (body limit)" % what)
        else:
            assert_true(isinstance(j, dict) and j.get("success") is False
                        and j.get("code") == status and words in j.get("error", ""),
                        "%s: %r names %r" % (what, j, words))
            self.log("%-24s HTTP %d: %s" % (what, st, j["error"]))
        assert_equal(self.node.height(), self.h0, "%s: nothing admitted (no block)" % what)

    def run_test(self):
        alice = self.wallet_key("alice", SEED_A)
        bob = self.wallet_key("bob", SEED_B)
        out = subprocess.run([self.load_bin(), "accounts", "--senders", str(SENDERS),
                              "--seed", "bt"], stdout=subprocess.PIPE, check=True)
        senders = [(l.split("=")[0], int(l.split("=")[1])) for l in out.stdout.decode().split()]
        self.node = self.start_chain(balances=[(alice, 100 * ZBC), (bob, 100 * ZBC)] + senders,
                                     automine=True)
        self.genesis_hash = self.node.info()["genesis_hash"].lower()
        self.mine_to(1)
        self.h0 = self.node.height()

        # --- the whole batch refused ---
        self.whole_refused("empty array", "[]", 400, "empty batch")
        self.whole_refused("empty array, spaces", " \n [ ] ", 400, "empty batch")
        self.whole_refused("1001 elements", "[" + ",".join(["{}"] * 1001) + "]", 413,
                           "a batch of 1001 transactions exceeds the limit of 1000")
        self.whole_refused("malformed array", "[{\"transaction_bytes\": \"00\"},", 400,
                           "malformed JSON")
        self.whole_refused("over 4 MiB", "[" + " " * (4 * 1024 * 1024) + "{}]", 413, "limit")

        # --- nested garbage: one 400 per element ---
        st, j = self.post('[[[{"transaction_bytes": []}]], {"a": {"b": [null]}}, "x", 1e3, '
                          'null, {"transaction_bytes": [1]}]')
        assert_equal(st, 200, "garbage batch: %r" % j)
        assert_equal(len(j), 6, "one answer per element")
        for i, a in enumerate(j):
            assert_true(a.get("success") is False and a.get("code") == 400 and a.get("error"),
                        "garbage element %d: %r" % (i, a))
        assert_true("must be a JSON object" in j[0]["error"], "an array element: %r" % j[0])
        assert_true("transaction_bytes must be a hex string" in j[5]["error"], "%r" % j[5])
        assert_equal(self.node.height(), self.h0, "garbage admits nothing (no block)")

        # --- a mix of good and bad ---
        good = [self.offline("send", bob, "%dZBC" % (i + 1)) for i in range(4)]
        before_a, before_b = self.balance(alice), self.balance(bob)
        raw0 = good[0]["transaction_bytes"]
        sig_at = len(raw0) - 128
        flipped = raw0[:sig_at] + ("%02x" % (int(raw0[sig_at:sig_at + 2], 16) ^ 1)) \
            + raw0[sig_at + 2:]
        overspend = self.offline("send", alice, "500ZBC", seed=SEED_B)["transaction_bytes"]
        cheap = self.offline("send", bob, "7ZBC", fee=1)["transaction_bytes"]
        tb = lambda h: {"transaction_bytes": h}
        bad = [tb(flipped), tb(overspend), tb(cheap), tb("zz"), 42]
        batch = [tb(good[0]["transaction_bytes"]), bad[0], good[1]["payload"], bad[1],
                 tb(good[2]["transaction_bytes"]), bad[2], tb(good[0]["transaction_bytes"]),
                 bad[3], tb(good[3]["transaction_bytes"]), bad[4]]
        # what single submissions of the bad ones get (before the batch:
        # none of them is admitted, so the order does not matter)
        single = []
        for b in bad:
            st, a = self.post(json.dumps(b))
            if isinstance(b, int):  # a bare number is no body at all alone
                a = {"success": False, "code": 400, "error": "request body must be a JSON object"}
                st = 400
            assert_equal(a.get("code"), st, "single %r: code = status" % (b,))
            single.append(a)
        st, ans = self.post(json.dumps(batch))
        assert_equal(st, 200, "mixed batch: %r" % ans)
        assert_equal(len(ans), len(batch), "one answer per element")
        want_good = {0: 0, 2: 1, 4: 2, 8: 3}
        for i, a in enumerate(ans):
            if i in want_good:
                g = good[want_good[i]]
                assert_equal(a.get("code"), 202, "element %d: %r" % (i, a))
                assert_equal(a["transaction_hash"].lower(), g["transaction_hash"].lower(),
                             "element %d names its hash" % i)
                assert_equal(a["duplicate"], False, "element %d is new" % i)
            elif i == 6:
                assert_equal((a.get("code"), a.get("duplicate")), (202, True),
                             "the repeat inside the batch: %r" % a)
            else:
                k = [1, 3, 5, 7, 9].index(i)
                s = single[k]
                if k == 4:
                    assert_true(a["code"] == 400 and "must be a JSON object" in a["error"],
                                "element 9 (a number): %r" % a)
                else:
                    assert_equal((a.get("code"), a.get("error")), (s["code"], s["error"]),
                                 "element %d as a single submission" % i)
                self.log("element %d: HTTP %d %s" % (i, a["code"], a["error"]))
        assert_true("signature" in ans[1]["error"], "wrong signature named")
        assert_true("insufficient balance" in ans[3]["error"], "overspend named")
        assert_true("fee too low" in ans[5]["error"], "fee named")
        assert_true("hex" in ans[7]["error"], "bad hex named")
        for g in good:
            self.wait_confirmed(g["transaction_hash"])
        assert_equal(self.balance(bob) - before_b, 10 * ZBC, "bob got 1+2+3+4 ZBC")
        assert_equal(before_a - self.balance(alice), 10 * ZBC + 4 * FEE,
                     "alice paid 10 ZBC and four fees")

        # --- single submissions arriving together (admitted together, each
        # answered as if alone): all written on their own connections
        # before any answer is read ---
        more = [self.offline("send", bob, "%dZBC" % (i + 11)) for i in range(6)]
        bodies = [json.dumps(tb(m["transaction_bytes"])) for m in more] \
            + [json.dumps(b) for b in bad[:4]] + [json.dumps(tb(more[0]["transaction_bytes"]))]
        socks = []
        for b in bodies:
            s = socket.create_connection(("127.0.0.1", self.node.api_port), timeout=20)
            s.sendall(("POST /api/v1/transactions HTTP/1.1\r\nHost: x\r\n"
                       "Content-Type: application/json\r\nContent-Length: %d\r\n"
                       "Connection: close\r\n\r\n%s" % (len(b), b)).encode())
            socks.append(s)
        answers = []
        for s in socks:
            got = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                got += chunk
            s.close()
            head, _, body = got.decode().partition("\r\n\r\n")
            answers.append((int(head.split()[1]), json.loads(body)))
        for i, m in enumerate(more):
            st, a = answers[i]
            assert_equal(st, 202, "concurrent single %d: %r" % (i, a))
            assert_equal(a["transaction_hash"].lower(), m["transaction_hash"].lower(),
                         "concurrent single %d names its hash" % i)
        for k in range(4):
            st, a = answers[6 + k]
            # the same refusal; bob's balance in the overspend's text has
            # grown by the batch's 10 ZBC since
            want = single[k]["error"] if k != 1 else single[k]["error"].replace(
                "%d held" % (100 * ZBC), "%d held" % (110 * ZBC))
            assert_equal((st, a.get("code"), a.get("error")),
                         (single[k]["code"], single[k]["code"], want),
                         "concurrent bad single %d as alone" % k)
        st, a = answers[10]
        assert_true(st == 202 and a["transaction_hash"].lower()
                    == more[0]["transaction_hash"].lower(),
                    "the repeat among the concurrent singles: %r" % a)
        for m in more:
            self.wait_confirmed(m["transaction_hash"])
        assert_equal(self.balance(bob) - before_b, sum(range(11, 17)) * ZBC + 10 * ZBC,
                     "bob got the batch's 10 ZBC and the singles' 11..16 ZBC")

        # --- clients that leave before their answers (reset right after the
        # request, singles and a batch): the node answers the next one ---
        for k in range(30):
            b = json.dumps(tb(more[k % 6]["transaction_bytes"])) if k % 3 else \
                json.dumps([tb(more[0]["transaction_bytes"]), 7])
            s = socket.create_connection(("127.0.0.1", self.node.api_port), timeout=20)
            s.sendall(("POST /api/v1/transactions HTTP/1.1\r\nHost: x\r\n"
                       "Content-Length: %d\r\n\r\n%s" % (len(b), b)).encode())
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            s.close()
        st, a = self.post(json.dumps(tb(more[1]["transaction_bytes"])))
        # more[1] is in a block by now: the ordinary refusal
        assert_true(st == 400 and "already" in a.get("error", ""),
                    "the node answers after 30 clients left: %d %r" % (st, a))
        self.log("after 30 clients left: HTTP %d %s" % (st, a["error"]))

        # --- zbc-load --batch: bad values are usage errors naming the option ---
        for bad_n, want in (("0", "--batch: 0 is out of range 1-1000"),
                            ("1001", "--batch: 1001 is out of range 1-1000"),
                            ("x", "--batch: 'x' is not a decimal number")):
            p = subprocess.run([self.load_bin(), "run", "--node", self.node.api_url,
                                "--batch", bad_n], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, timeout=60)
            assert_equal(p.returncode, 2, "zbc-load --batch %s: exit status" % bad_n)
            assert_true(want in p.stderr.decode(), "zbc-load --batch %s: %r" % (bad_n, p.stderr))

        # --- zbc-load --batch ---
        out = subprocess.run([self.load_bin(), "run", "--node", self.node.api_url,
                              "--rate", "300", "--duration", "2", "--settle", "15",
                              "--batch", "25", "--senders", str(SENDERS), "--seed", "bt",
                              "--json", "--quiet"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, timeout=120)
        if out.returncode != 0:
            raise TestFailure("zbc-load --batch: %s" % out.stderr.decode())
        rep = json.loads(out.stdout)
        self.log("zbc-load --batch 25: offered %d accepted %d included %d refused %d failed %d"
                 % (rep["offered"], rep["accepted"], rep["included"], rep["refused"],
                    rep["failed"]))
        assert_equal(rep["batch"], 25, "the report names the batch size")
        assert_equal(rep["accepted"] + rep["refused"] + rep["failed"] + rep["unsent"]
                     + rep["never_answered"], rep["offered"], "counts add up")
        assert_true(rep["offered"] >= 500, "offered at 300 tx/s for 2 s")
        assert_equal(rep["failed"], 0, "no failed batch")
        assert_equal(rep["refused"], 0, "refusals: %r" % rep.get("refusals"))
        assert_equal(rep["accepted_not_included"], 0, "every accepted transaction included")
        assert_equal(rep["included"], rep["accepted"], "included = accepted")

    def load_bin(self):
        return os.path.join(os.path.abspath(self.args.build), "node", "bench", "zbc-load")


if __name__ == "__main__":
    BatchSubmit().main()
