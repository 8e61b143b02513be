#!/usr/bin/env python3
"""The wallet without a node: keys and key files, address forms, the
usage errors of every command, exit codes and the JSON error shape."""
import json
import os
import socket
import stat
import subprocess
import threading

from framework import ZbcTest, TestFailure, assert_equal, assert_true

SEED = "51bae95d58f32304a5c9d894819989a4fb04da6115d9a43612a026e7a5dd5d96"
PK = "5e8eb28dccaa94a992f7169fa67966207d96aa55df7d24d2d6ec1f538c9f2152"
ADDR = "ZBC_L2HLFDOM_VKKKTEXX_C2P2M6LG_EB6ZNKSV_356SJUWW_5QPVHDE7_EFJA3PEX"
NODE_ADDR = "ZNK_L2HLFDOM_VKKKTEXX_C2P2M6LG_EB6ZNKSV_356SJUWW_5QPVHDE7_EFJH435X"
G = "cf30b4a8c165da3bc004b3a397b18c68986271b0395f9df0e984552fb455cf1d"


class WalletCli(ZbcTest):
    def usage(self, *args, env=None):
        r = self.zbc(*args, expect=2, node=False, env=env)
        assert_equal(r["error_class"], "usage", "class of %r" % (args,))
        assert_true(r["error"] and r.stderr.strip(), "error text for %r" % (args,))
        return r

    def run_test(self):
        z = lambda *a, **k: self.zbc(*a, node=False, **k)  # noqa: E731
        # --- keys ---
        r = z("key", "import", SEED, "--name", "vec")
        assert_equal((r["public_key"], r["address"], r["node_address"]), (PK, ADDR, NODE_ADDR),
                     "imported key forms (tests/vectors/zoobc/keys.json)")
        assert_equal(r["account_bytes"], "00000000" + PK, "typed bytes")
        for f in ("vec.key", "vec.pub"):
            mode = stat.S_IMODE(os.stat(os.path.join(self.wallet_dir, "keys", f)).st_mode)
            assert_equal(mode, 0o600, "mode of %s" % f)
        with open(os.path.join(self.wallet_dir, "keys", "vec.key"), "rb") as f:
            blob = f.read()
        assert_true(blob.startswith(b"ZBCKEY") and bytes.fromhex(SEED) not in blob,
                    "the key file is encrypted")
        new = z("key", "new", "--name", "fresh")
        assert_true(new["address"].startswith("ZBC_") and new["address"] != ADDR, "new key")
        lst = z("key", "list", env={"ZBC_PASSPHRASE": ""})["keys"]
        assert_equal([k["name"] for k in lst], ["fresh", "vec"], "key list (no passphrase needed)")
        assert_equal(z("key", "show", "vec")["address"], ADDR, "key show")
        self.usage("key", "show")  # two keys, none named default
        self.usage("key", "import", SEED, "--name", "vec")  # exists
        self.usage("key", "import", SEED[:-2], "--name", "short")
        self.usage("key", "import", SEED, "--name", "../evil")
        self.usage("key", "new", "--name", "x", env={"ZBC_PASSPHRASE": ""})
        self.usage("key", "frob")
        assert_equal(z("key", "derive", SEED)["node_address"], NODE_ADDR, "key derive")

        # --- the passphrase prompt on a terminal, without echo ---
        out = prompt_session(self, ["key", "new", "--name", "typed", "--json"],
                             ["typed-secret", "typed-secret"])
        assert_true('"success": true' in out and "typed-secret" not in out,
                    "prompted key new (passphrase not echoed):\n%s" % out)
        out = prompt_session(self, ["key", "new", "--name", "typo", "--json"], ["one", "two"])
        assert_true("differ" in out, "mismatched passphrases refused:\n%s" % out)
        out = prompt_session(self, ["send", ADDR, "1", "--from", "typed", "--offline",
                                    "--genesis", G, "--json"], ["typed-secret"])
        assert_true('"transaction_hash"' in out, "prompted signing:\n%s" % out)

        # --- signing with a wallet key, offline ---
        args = ["send", ADDR, "1ZBC", "--offline", "--genesis", G, "--timestamp", "1700000000"]
        a = z(*args, "--from", "vec")
        b = z(*args[:1] + [SEED] + args[1:])
        assert_equal(a["transaction_hash"], b["transaction_hash"], "wallet key == explicit seed")
        r = z(*args, "--from", "vec", env={"ZBC_PASSPHRASE": "wrong"}, expect=10)
        assert_equal(r["error_class"], "verify_failed", "wrong passphrase")
        pf = os.path.join(self.tmpdir, "pass")
        with open(pf, "w") as f:
            f.write("integration-test-passphrase\n")
        c = z(*args, "--from", "vec", "--passphrase-file", pf, env={"ZBC_PASSPHRASE": "wrong"})
        assert_equal(c["transaction_hash"], a["transaction_hash"], "--passphrase-file wins")
        self.usage(*args, "--from", "vec", "--passphrase-file", pf + ".missing")
        # no key at all offline, a malformed ZBC_KEY
        self.usage(*args)
        self.usage(*args[:1] + ["-"] + args[1:])
        self.usage(*args, env={"ZBC_KEY": "abc"})

        # --- a key file readable by group/others is warned about, still used ---
        keyfile = os.path.join(self.wallet_dir, "keys", "vec.key")
        os.chmod(keyfile, 0o644)
        r = z(*args, "--from", "vec")
        assert_equal(r["transaction_hash"], a["transaction_hash"], "a 0644 key still signs")
        assert_true("warning" in r.stderr and "chmod 600" in r.stderr and "644" in r.stderr,
                    "mode warning: %r" % r.stderr)
        os.chmod(keyfile, 0o600)
        r = z(*args, "--from", "vec")
        assert_true("warning" not in r.stderr, "no warning at 0600: %r" % r.stderr)

        # --- send refuses amount 0 and the burn address unless --force ---
        burn = "ZBC_AAAAAAAA_AAAAAAAA_AAAAAAAA_AAAAAAAA_AAAAAAAA_AAAAAAAA_AAAHKJF5"
        off = ["--offline", "--genesis", G]
        for to, amount, why in ((ADDR, "0", "amount 0"), (ADDR, "0ZBC", "amount 0"),
                                (burn, "1", "burn address"), (burn, "0", "amount 0")):
            r = self.usage("send", SEED, to, amount, *off)
            assert_true(why in r["error"] and "--force" in r["error"],
                        "send %s %s refused: %r" % (to, amount, r["error"]))
            r = z("send", SEED, to, amount, *off, "--force")
            assert_true(r["transaction_hash"], "send %s %s with --force" % (to, amount))
        r = self.usage("tx", "prepare", "--from-address", "0x" + "11" * 20, "send", burn, "1",
                       "--genesis", G)
        assert_true("burn address" in r["error"], "tx prepare send to the burn address")

        # --- usage errors of the transaction commands ---
        s = ["send", SEED]
        off = ["--offline", "--genesis", G]
        self.usage(*s, ADDR[:-1] + "A", "1", *off)          # bad checksum
        self.usage(*s, "0x1234", "1", *off)                 # not an address
        self.usage(*s, ADDR, "1.5.5", *off)
        self.usage(*s, ADDR, "-1", *off)
        self.usage(*s, ADDR, *off)                          # missing amount
        self.usage(*s, ADDR, "1", "--offline")              # no genesis
        self.usage(*s, ADDR, "1", "--offline", "--genesis", "abcd")
        self.usage(*s, ADDR, "1", *off, "--fee", "x")
        self.usage(*s, ADDR, "1", *off, "--timestamp", "soon")
        self.usage(*s, ADDR, "1", *off, "--message", "m" * 1025)
        self.usage(*s, ADDR, "1", *off, "--escrow-commission", "5")
        self.usage(*s, ADDR, "1", *off, "--escrow-approver", ADDR, "--escrow-timeout", "x")
        self.usage("app", "create", SEED, "1", "1ZBC", "2", "--opponent", "0x" + "11" * 20, *off)
        self.usage("app", "create", SEED, "300", "1ZBC", "2", *off)
        self.usage("app", "create", SEED, "1", "1ZBC", "2", "--params-hex", "zz", *off)
        self.usage("app", "move", SEED, "5", "0g", *off)
        self.usage("app", "join", SEED, "-5", *off)
        self.usage("app", "join", SEED, "18446744073709551616", *off)
        self.usage("app", "dance", SEED, "5", *off)
        self.usage("app")
        self.usage("tx")
        self.usage("tx", "status")
        self.usage("tx", "show", "abc")
        self.usage("tx", "prepare", "send", ADDR, "1", *off[1:])      # no --from-address
        self.usage("tx", "prepare", "--from-address", "nope", "send", ADDR, "1", *off[1:])
        self.usage("tx", "submit", "--prepared", "00")                 # no signature
        self.usage("tx", "submit", "--prepared", "zz", "--signature", "00")
        self.usage("tx", "submit", "--prepared", "0100", "--signature", "00", "--genesis", G)
        self.usage("balance", ADDR[:-1] + "A")
        self.usage("balance", "a", "b")
        self.usage("address")
        self.usage("address", "ZBC_TOOSHORT")
        self.usage("nonsense")
        self.usage("--bogus")
        self.usage("send", "--fee")
        self.usage("--api", "https://127.0.0.1:1", "balance", ADDR)
        self.usage("--api", "not a url", "balance", ADDR)
        self.usage(env={"ZBC_TIMEOUT": "0"}, *["balance", ADDR])
        r = self.zbc("--help", node=False, json_out=False)
        assert_true(r.code == 0 and "exit codes" in r.stdout, "--help")

        # app move with an empty move (keep-alive) builds
        r = z("app", "move", SEED, "5", "", *off, "--timestamp", "1700000105")
        assert_equal(r["body"], "05000000000000000000", "keep-alive body")

        # --- address forms ---
        r = z("address", PK)
        assert_equal(r["address"], ADDR, "hex key -> ZBC_")
        r = z("address", ADDR.lower().replace("_", "-"))
        assert_equal(r["public_key"], PK, "lower case and '-' separators")
        r = z("address", "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045")
        assert_equal((r["account_type"], r["account_bytes"]),
                     (4, "04000000d8da6bf26964af9d7eed9e03e53415d37aa96045"), "eth typed bytes")
        self.usage("address", "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96046")

        # --- the network side without a node ---
        r = z("balance", ADDR, "--api", "http://127.0.0.1:1", expect=3)
        assert_equal(r["error_class"], "node_unreachable", "refused")
        r = z("send", SEED, ADDR, "1", "--api", "http://127.0.0.1:1", expect=3)
        r = z("balance", ADDR, "--api", "http://no-such-host.invalid:1", expect=3)
        assert_true("resolve" in r["error"], "DNS failure message: %r" % r["error"])
        # a listener that never answers: timeout (8)
        srv = socket.socket()
        srv.bind(("127.0.0.1", 0))
        srv.listen(4)
        port = srv.getsockname()[1]
        r = z("balance", ADDR, "--api", "http://127.0.0.1:%d" % port, "--timeout", "1", expect=8)
        assert_equal(r["error_class"], "timeout", "silent node")
        srv.close()
        # an HTTP server answering 503, 400 fee too low, 404 and garbage
        for status, body, code in ((503, b'{"success":false,"error":"busy"}', 9),
                                   (400, b'{"success":false,"error":"fee too low: 1 < 2"}', 5),
                                   (400, b'{"success":false,"error":"insufficient balance"}', 4),
                                   (404, b'{"success":false,"error":"Not found"}', 7),
                                   (400, b'plain text error', 6),
                                   (400, b'{"error":"bad \\u001b[2J\\u001b]0;owned\\u0007 tx"}', 6),
                                   (200, b'not json', 1),
                                   (200, b'{}', 1),
                                   (200, b'{"balance":"lots"}', 1),
                                   (200, b'{"balance":[1]}', 1)):
            port, th = one_reply_server(status, body)
            r = z("balance", ADDR, "--api", "http://127.0.0.1:%d" % port, expect=code)
            th.join(5)
            if status != 200:
                assert_equal(r["http_code"], status, "http_code")
                assert_true("api_response" in r.json, "api_response kept")
                assert_true("\x1b" not in r["error"] and "\x1b" not in r.stderr,
                            "no control bytes reach the terminal: %r" % r.stderr)
            elif body.startswith(b"{"):
                assert_true("balance" in r["error"], "names the field: %r" % r["error"])
                assert_true("api_response" in r.json, "bad reply kept")

        # a never-funded account (404 "Account not found") has balance 0
        port, th = one_reply_server(404, b'{"success":false,"error":"Account not found"}')
        r = z("balance", ADDR, "--api", "http://127.0.0.1:%d" % port)
        th.join(5)
        assert_equal((r["balance"], r["balance_zbc"], r["funded"]), (0, "0 ZBC", False),
                     "unfunded balance")
        self.history_replies()

    def history_replies(self):
        """zbc history against a node serving canned pages: the text, the
        JSON (ids as strings, amounts also in ZBC), --all following the
        cursors, and hostile replies refused (exit 1) with the field named."""
        base = "/api/v1/accounts/%s/history" % ADDR
        e1 = {"kind": "transfer", "from": ADDR, "to": "ZBC_AAAAAAAA_AAAAAAAA_AAAAAAAA_AAAAAAAA_"
              "AAAAAAAA_AAAAAAAA_AAAHKJF5", "amount": 198000000, "ref": 0, "reason": "",
              "height": 9, "timestamp": 1764633600000, "tx_hash": "ab" * 32, "tx_index": 0}
        e2 = {"kind": "app_payout", "from": None, "to": ADDR, "amount": "150000000",
              "ref": 9223372036854775807, "reason": "win", "seat": 1, "height": 5,
              "timestamp": 1764633500000}
        page1 = {"address": ADDR, "entries": [e1], "count": 1, "next_cursor": "9-0", "height": 12}
        page2 = {"address": ADDR, "entries": [e2], "count": 1, "next_cursor": None, "height": 12}
        routes = {base + "?limit=100": page1, base + "?limit=100&cursor=9-0": page2,
                  base + "?limit=1": page1, base + "?limit=20&cursor=x%2By%2F%3D": page2}
        port, th = path_server(routes, 4)
        api = "http://127.0.0.1:%d" % port
        r = self.zbc("history", ADDR, "--all", "--api", api, node=False)
        assert_equal([e["kind"] for e in r["entries"]], ["transfer", "app_payout"], "--all pages")
        assert_equal(r["entries"][1]["ref"], "9223372036854775807", "app id as a string")
        assert_equal(r["entries"][0]["amount_zbc"], "1.98 ZBC", "amount text")
        assert_equal(r["next_cursor"], None, "last page")
        r = self.zbc("history", ADDR, "--limit", "1", "--api", api, node=False, json_out=False)
        assert_true("sent 1.98 ZBC to ZBC_AAAA" in r.stdout and "2025-12-02 00:00:00" in r.stdout,
                    "history text: %r" % r.stdout)
        assert_true("more: zbc history %s --cursor 9-0" % ADDR in r.stdout, "cursor hint")
        r = self.zbc("history", ADDR, "--cursor", "x+y/=", "--api", api, node=False)
        assert_equal(r["entries"][0]["kind"], "app_payout", "a cursor is percent-encoded")
        th.join(5)
        # hostile pages: a bad entry, a cursor that is not one, a cursor repeated forever
        loop = dict(page1, next_cursor="9-0")
        for routes, want in (
                ({base + "?limit=20": dict(page1, entries=[dict(e1, amount=-5)])}, "negative"),
                ({base + "?limit=20": dict(page1, entries=[{"kind": 5}])}, "\"kind\""),
                ({base + "?limit=20": dict(page1, next_cursor="../../x y")}, "next_cursor"),
                ({base + "?limit=20": dict(page1, entries=[e1] * 21)}, "more than the 20"),
                ({base + "?limit=100": loop, base + "?limit=100&cursor=9-0": loop},
                 "repeats the cursor")):
            port, th = path_server(routes, len(routes))
            args = ["history", ADDR, "--api", "http://127.0.0.1:%d" % port]
            if len(routes) > 1:
                args.append("--all")
            r = self.zbc(*args, node=False, expect=1)
            th.join(5)
            assert_true(want in r["error"], "hostile history %r: %r" % (want, r["error"]))
        # empty pages whose cursors run in a cycle: --all stops after 200 pages
        empty = dict(page1, entries=[])
        routes = {base + "?limit=100": dict(empty, next_cursor="a"),
                  base + "?limit=100&cursor=a": dict(empty, next_cursor="b"),
                  base + "?limit=100&cursor=b": dict(empty, next_cursor="a")}
        port, th = path_server(routes, 200)
        r = self.zbc("history", ADDR, "--all", "--api", "http://127.0.0.1:%d" % port, node=False)
        th.join(10)
        assert_equal((r["count"], r["next_cursor"] in ("a", "b")), (0, True), "cycle bounded")
        for bad in (["--limit", "0"], ["--limit", "101"], ["--cursor", "a b"], ["x", "y"]):
            self.usage("history", ADDR, *bad)


def path_server(routes, count):
    """Answers count GET requests, each with routes[path] (200, JSON) or
    404 for a path it does not know."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    port = srv.getsockname()[1]

    def serve():
        for _ in range(count):
            srv.settimeout(20)
            try:
                c, _ = srv.accept()
            except OSError:
                break
            c.settimeout(5)
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = c.recv(4096)
                if not chunk:
                    break
                data += chunk
            path = data.split(b" ")[1].decode() if data.count(b" ") >= 2 else ""
            if path in routes:
                status, body = 200, json.dumps(routes[path]).encode()
            else:
                status, body = 404, b'{"success":false,"error":"unknown endpoint: ' + \
                    path.encode() + b'"}'
            c.sendall(b"HTTP/1.1 %d X\r\nContent-Type: application/json\r\nContent-Length: %d"
                      b"\r\nConnection: close\r\n\r\n" % (status, len(body)) + body)
            c.close()
        srv.close()
    th = threading.Thread(target=serve, daemon=True)
    th.start()
    return port, th


def prompt_session(test, args, answers):
    """Runs zbc on a pseudo-terminal with no ZBC_PASSPHRASE, typing answers
    at each prompt; returns everything the terminal showed."""
    import pty
    import select
    env = dict(os.environ, ZBC_WALLET=test.wallet_dir, ZBC_WALLET_KDF="interactive")
    env.pop("ZBC_PASSPHRASE", None)
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(test.zbc_bin, [test.zbc_bin] + args, env)
    out = b""
    pending = list(answers)
    while True:
        r, _, _ = select.select([fd], [], [], 30)
        if not r:
            os.kill(pid, 9)
            raise TestFailure("zbc %s hung on the terminal:\n%s" % (args, out.decode()))
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
        # answer each prompt once, when it has shown
        while pending and out.count(b"passphrase:") > len(answers) - len(pending):
            os.write(fd, pending.pop(0).encode() + b"\n")
    os.waitpid(pid, 0)
    os.close(fd)
    return out.decode("utf-8", "replace")


def one_reply_server(status, body):
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    port = srv.getsockname()[1]

    def serve():
        c, _ = srv.accept()
        c.settimeout(5)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = c.recv(4096)
            if not chunk:
                break
            data += chunk
        c.sendall(b"HTTP/1.1 %d X\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
                  b"Connection: close\r\n\r\n" % (status, len(body)) + body)
        c.close()
        srv.close()
    th = threading.Thread(target=serve, daemon=True)
    th.start()
    return port, th


if __name__ == "__main__":
    WalletCli().main()
