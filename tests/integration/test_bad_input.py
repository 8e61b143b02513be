#!/usr/bin/env python3
"""(b) Bad input through the API and the wallet: every case is refused with a
clear error, the right exit code where the wallet is involved, and nothing
is applied (balances unchanged, the transaction unknown)."""
import json
import socket
import time

from framework import ZBC, ZbcTest, TestFailure, assert_equal, assert_true, wait_until

SEED_A = "11" * 32
SEED_B = "22" * 32
FEE = 2000000


class BadInput(ZbcTest):
    def offline(self, *args, seed=SEED_A, genesis=None, timestamp=None, fee=FEE):
        """A signed transaction built by zbc --offline (JSON)."""
        g = genesis or self.genesis_hash
        t = timestamp if timestamp is not None else int(time.time())
        return self.zbc(*([args[0], seed] + list(args[1:])), "--offline", "--genesis", g,
                        "--timestamp", t, "--fee", fee, node=False).json

    def post_bytes(self, hexbytes):
        return self.node.post("/api/v1/transactions", json.dumps({"transaction_bytes": hexbytes}))

    def refused(self, what, status, body, *words):
        """A 4xx with {"success": false, "error": text} naming the problem."""
        if not (400 <= status < 500):
            raise TestFailure("%s: want HTTP 4xx, got %d %r" % (what, status, body))
        if not isinstance(body, dict) or body.get("success") is not False or not body.get("error"):
            raise TestFailure("%s: want {success: false, error: ...}, got %r" % (what, body))
        err = body["error"].lower()
        if words and not any(w in err for w in words):
            raise TestFailure("%s: error %r names none of %r" % (what, body["error"], words))
        self.log("%-28s HTTP %d: %s" % (what, status, body["error"]))

    def unchanged(self, what):
        for a, v in self.start_balances.items():
            assert_equal(self.balance(a), v, "%s: balance of %s" % (what, a))

    def unknown(self, tx_hash, what):
        st, j = self.tx_status(tx_hash)
        if st != 404:
            raise TestFailure("%s: transaction %s should be unknown, got %d %r" % (what, tx_hash, st, j))

    def connect_closes(self):
        """CONNECT is no tunnel here: a JSON 405, then the node closes the
        connection (it used to keep it open)."""
        with socket.create_connection(("127.0.0.1", self.node.api_port), timeout=5) as s:
            s.sendall(b"CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n")
            got = b""
            while True:
                chunk = s.recv(4096)  # a timeout here: the node kept it open
                if not chunk:
                    break
                got += chunk
        text = got.decode("latin-1")
        assert_true(text.startswith("HTTP/1.1 405"), "CONNECT answer: %r" % text[:80])
        body = json.loads(text.split("\r\n\r\n", 1)[1])
        self.refused("CONNECT", 405, body, "connect is not supported")

    def run_test(self):
        self.alice = self.wallet_key("alice", SEED_A)
        self.bob = self.wallet_key("bob", SEED_B)
        self.node = self.start_chain(balances=[(self.alice, 100 * ZBC), (self.bob, 100 * ZBC)],
                                     automine=True)
        self.genesis_hash = self.node.info()["genesis_hash"].lower()
        self.start_balances = {self.alice: 100 * ZBC, self.bob: 100 * ZBC}
        self.mine_to(1)

        good = self.offline("send", self.bob, "1ZBC")
        raw = good["transaction_bytes"]

        # --- raw bytes through the API ---
        st, j = self.post_bytes(raw[:-2])
        self.refused("truncated bytes", st, j, "truncated", "short", "length", "parse", "malformed")
        st, j = self.post_bytes(raw + "00")
        self.refused("trailing bytes", st, j, "trailing", "extra", "after", "length", "parse")
        big = raw + "00" * (2 * 1024 * 1024)
        st, j = self.node.request("POST", "/api/v1/transactions",
                                  json.dumps({"transaction_bytes": big}), timeout=30)
        # More than 2 MiB of transaction is more than the API's 4 MiB body
        # limit as hex: evhttp itself answers 413 (with an HTML body).
        if st == 413 and not isinstance(j, dict):
            self.log("%-28s HTTP 413 from evhttp (body limit)" % "oversized bytes")
        else:
            self.refused("oversized bytes", st, j, "limit", "large", "size", "bytes")
        sig_at = len(raw) - 128
        flipped = raw[:sig_at] + ("%02x" % (int(raw[sig_at:sig_at + 2], 16) ^ 1)) + raw[sig_at + 2:]
        st, j = self.post_bytes(flipped)
        self.refused("wrong signature", st, j, "signature")
        other = self.offline("send", self.bob, "1ZBC", genesis="ab" * 32)
        st, j = self.post_bytes(other["transaction_bytes"])
        self.refused("wrong genesis", st, j, "signature")
        # the unsigned bytes start with the type: 99 is no type here
        st, j = self.post_bytes("63000000" + raw[8:])
        self.refused("unknown type", st, j, "type")
        esc = self.offline("send", self.bob, "1ZBC", "--escrow-approver", self.alice,
                           "--escrow-commission", "1", "--escrow-timeout", "2000000000")
        st, j = self.post_bytes(esc["transaction_bytes"])
        self.refused("escrow present", st, j, "escrow")
        old = self.offline("send", self.bob, "1ZBC", timestamp=int(time.time()) - 7200)
        st, j = self.post_bytes(old["transaction_bytes"])
        self.refused("timestamp too old", st, j, "timestamp")
        future = self.offline("send", self.bob, "1ZBC", timestamp=int(time.time()) + 600)
        st, j = self.post_bytes(future["transaction_bytes"])
        self.refused("timestamp in the future", st, j, "timestamp")
        st, j = self.node.post("/api/v1/transactions", "{not json")
        self.refused("malformed JSON", st, j, "json")
        st, j = self.node.post("/api/v1/transactions", json.dumps({"transaction_bytes": "zz"}))
        self.refused("malformed hex", st, j, "hex")
        bad_payload = dict(good["payload"])
        bad_payload["transaction_body_bytes"] = "00e1f5"
        st, j = self.node.post("/api/v1/transactions", json.dumps(bad_payload))
        self.refused("malformed payload body", st, j)
        st, j = self.node.get("/api/v1/transactions/xyz/status")
        assert_true(400 <= st < 500, "bad hash in a path: HTTP %d" % st)
        for t in (other, esc, old, future):
            self.unknown(t["transaction_hash"], "refused transaction")
        self.unknown(good["transaction_hash"], "never submitted")
        self.connect_closes()
        self.unchanged("after bad API input")

        # --- through the wallet, with exit codes ---
        r = self.zbc("send", "--from", "alice", self.bob, "1ZBC", "--fee", "1", expect=5)
        assert_equal(r["error_class"], "fee_too_low", "fee too low class")
        assert_equal(r.json.get("http_code", 0) // 100, 4, "fee too low http_code")
        r = self.zbc("send", "--from", "alice", self.bob, "5000ZBC", "--fee", FEE, expect=4)
        assert_equal(r["error_class"], "insufficient_balance", "insufficient balance class")
        r = self.zbc("send", "--from", "alice", "ZBC_L2HLFDOM_VKKKTEXX_C2P2M6LG_EB6ZNKSV_356SJUWW_5QPVHDE7_EFJA3PEA",
                     "1", expect=2)
        assert_true("checksum" in r["error"], "bad checksum message: %r" % r["error"])
        r = self.zbc("address", "ZBC_L2HLFDOM_VKKKTEXX_C2P2M6LG_EB6ZNKSV_356SJUWW_5QPVHDE7_EFJA3PEA", expect=2)
        assert_equal(r["error_class"], "usage", "address bad checksum class")
        self.zbc("send", "--from", "alice", self.bob, "1.000000001ZBC", expect=2)
        self.zbc("send", "--from", "alice", self.bob, expect=2)
        self.zbc("send", "--from", "alice", self.bob, "1", "--no-such-option", expect=2)
        self.zbc("frobnicate", expect=2)
        self.zbc("tx", "status", "ab" * 32, expect=7)
        self.zbc("tx", "status", "nothex", expect=2)
        self.zbc("send", "--from", "alice", self.bob, "1", env={"ZBC_PASSPHRASE": "wrong"}, expect=10)
        self.zbc("balance", "alice", "--api", "http://127.0.0.1:1", expect=3)
        r = self.zbc("send", "--from", "alice", self.bob, "1", "--timestamp", int(time.time()) - 7200,
                     "--fee", FEE, expect=6)
        assert_equal(r["error_class"], "rejected", "old timestamp class")
        self.unchanged("after bad wallet input")

        # --- duplicate: the same bytes again after inclusion ---
        st, j = self.post_bytes(raw)
        assert_true(st in (200, 202), "first submit: %d %r" % (st, j))
        self.wait_confirmed(good["transaction_hash"])
        st, j = self.post_bytes(raw)
        if st in (200, 202):
            raise TestFailure("a transaction already in a block was accepted again: %r" % j)
        self.refused("duplicate", st, j, "duplicate", "already")
        want = {self.alice: 99 * ZBC - FEE, self.bob: 101 * ZBC}
        wait_until(lambda: all(self.balance(a) == v for a, v in want.items()), 30,
                   "exactly one transfer applied")
        self.mine(2)  # two more blocks (with whatever the pool holds)
        for a, v in want.items():
            assert_equal(self.balance(a), v, "still exactly one transfer: %s" % a)


if __name__ == "__main__":
    BadInput().main()
