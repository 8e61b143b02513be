#!/usr/bin/env python3
"""Clients that distrust the node (docs/wallet.md "HTTP", "Node replies";
docs/audit.md "Peer source"): a hostile "node" on loopback (Python
http.server) answers the wallet and zbc-audit with

  (a) Content-Length: 2 GiB, then as many bytes as it can push,
  (b) an endless chunked body,
  (c) {} to tx status and to balance,
  (d) fields of the wrong JSON type,
  (e) a reply that never ends: one byte at a time, past the deadline,
  (f) an endless header line,
  (g) zbc-audit only: a good node/info, then an endless chunked block,
  (h) an error text with terminal escape sequences.

Each client must exit non-zero with a clear message, within a bounded
time, with a bounded peak RSS (ru_maxrss of the child from wait4; Linux
carries the forking Python's RSS, ~25 MB, over the exec, so the figure is
an upper bound of the client's own peak)."""
import http.server
import json
import os
import signal
import subprocess
import tempfile
import threading
import time

from framework import SANITIZER_RE, ZbcTest, TestFailure, assert_equal, assert_true
import genesis as genesis_mod

ADDR = "ZBC_L2HLFDOM_VKKKTEXX_C2P2M6LG_EB6ZNKSV_356SJUWW_5QPVHDE7_EFJA3PEX"
HASH = "8a2c0fe3b33b5f3c1dbd2b5c5a3e3c9f2a7d5e6b4c3d2e1f0a9b8c7d6e5f4a3b"
# Peak RSS allowed to a client facing a hostile node: the reply cap is
# 16 MiB (node/client/http.h ZBC_HTTP_REPLY_MAX), 64 MiB for one block
# (ZBC_HTTP_BLOCK_REPLY_MAX, held once in (g)); the buffer, its copy and the
# parse stay below this.  Without the caps these attacks took 4-8 GB.
RSS_LIMIT_KB = 160 * 1024
# How long the server side of one attack may run at most (it stops by itself).
ATTACK_S = 40
CHUNK = b"[" * 65536


class Hostile(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    mode = "empty"  # set by the test before each run
    genesis_hash = "00" * 32  # what node/info claims

    def log_message(self, *a):
        pass

    def do_GET(self):
        self.attack()

    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        if 0 < n <= 1 << 20:
            self.rfile.read(n)
        self.attack()

    def head(self, extra):
        self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" +
                         extra + b"\r\n")
        self.wfile.flush()

    def json(self, obj):
        body = json.dumps(obj).encode()
        self.head(b"Content-Length: %d\r\nConnection: close\r\n" % len(body))
        self.wfile.write(body)
        self.wfile.flush()

    def attack(self):
        end = time.monotonic() + ATTACK_S
        m = Hostile.mode
        try:
            if m == "huge":        # (a)
                self.head(b"Content-Length: 2147483648\r\n")
                while time.monotonic() < end:
                    self.wfile.write(CHUNK)
            elif m == "chunked":   # (b)
                self.head(b"Transfer-Encoding: chunked\r\n")
                frame = b"%x\r\n" % len(CHUNK) + CHUNK + b"\r\n"
                while time.monotonic() < end:
                    self.wfile.write(frame)
            elif m == "empty":     # (c)
                self.json({})
            elif m == "types":     # (d)
                if "/status" in self.path or "/transactions/" in self.path:
                    self.json({"transaction_hash": 5, "status": True})
                elif "/accounts/" in self.path:
                    self.json({"balance": "lots", "spendable_balance": []})
                else:
                    self.json({"height": "tall", "genesis_hash": 7})
            elif m == "header":    # (f)
                self.wfile.write(b"HTTP/1.1 200 OK\r\nX-Endless: ")
                while time.monotonic() < end:
                    self.wfile.write(CHUNK)
            elif m == "blockbomb":  # (g)
                if "/node/info" in self.path:
                    self.json({"height": 1, "genesis_hash": Hostile.genesis_hash,
                               "tip_hash": "00" * 32})
                else:
                    self.head(b"Transfer-Encoding: chunked\r\n")
                    frame = b"%x\r\n" % len(CHUNK) + CHUNK + b"\r\n"
                    while time.monotonic() < end:
                        self.wfile.write(frame)
            elif m == "escape":    # (h)
                body = json.dumps({"error": "boom \x1b[2J\x1b]0;owned\x07"}).encode()
                self.wfile.write(b"HTTP/1.1 400 Bad\r\nContent-Type: application/json\r\n"
                                 b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body)
                                 + body)
            elif m == "drip":      # (e)
                self.head(b"Content-Length: 100000\r\n")
                self.wfile.write(b'{"balance": ')
                self.wfile.flush()
                while time.monotonic() < end:
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    time.sleep(0.2)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client hung up: what it should do
        self.close_connection = True


def run_bounded(cmd, limit_s):
    """Runs cmd; returns (exit code, stdout, stderr, seconds, peak RSS KiB
    from wait4).  Kills it past limit_s (a failure of the test)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, stdout=out, stderr=err)
        while True:
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid != 0:
                break
            if time.monotonic() - t0 > limit_s:
                os.kill(p.pid, signal.SIGKILL)
                os.wait4(p.pid, 0)
                p.returncode = -9
                raise TestFailure("%s still running after %d s" % (" ".join(cmd), limit_s))
            time.sleep(0.05)
        p.returncode = os.waitstatus_to_exitcode(status)
        secs = time.monotonic() - t0
        out.seek(0)
        err.seek(0)
        errs = err.read().decode("utf-8", "replace")
        if SANITIZER_RE.search(errs):
            raise TestFailure("%s reported a sanitizer error:\n%s" % (cmd[0], errs))
        return p.returncode, out.read().decode("utf-8", "replace"), errs, secs, ru.ru_maxrss


class HostileNode(ZbcTest):
    def wallet(self, mode, *args, timeout=20, limit_s=60):
        Hostile.mode = mode
        cmd = [self.zbc_bin, *args, "--json", "--api", self.url, "--timeout", str(timeout),
               "--wallet", self.wallet_dir]
        code, out, err, secs, rss = run_bounded(cmd, limit_s)
        self.log("zbc %s [%s]: exit %d in %.1f s, peak RSS %d KiB" %
                 (" ".join(args[:2]), mode, code, secs, rss))
        try:
            j = json.loads(out)
        except ValueError:
            raise TestFailure("zbc did not print one JSON object (exit %d):\n%s\n%s"
                              % (code, out, err))
        assert_true(code != 0 and j.get("success") is False and j.get("exit_code") == code,
                    "zbc %s against a %s node fails: %r" % (args, mode, j))
        assert_true(rss < RSS_LIMIT_KB, "zbc peak RSS %d KiB < %d KiB" % (rss, RSS_LIMIT_KB))
        assert_true("\x1b" not in err, "no escape byte on stderr: %r" % err)
        return code, j["error"], secs

    def audit(self, mode, limit_s=60, expect=3):
        Hostile.mode = mode
        exe = os.path.join(os.path.abspath(self.args.build), "node", "audit", "zbc-audit")
        cmd = [exe, "replay", "--peer", self.url, "--genesis", self.genesis_path, "--json",
               "--timeout", "20"]
        code, out, err, secs, rss = run_bounded(cmd, limit_s)
        self.log("zbc-audit [%s]: exit %d in %.1f s, peak RSS %d KiB" % (mode, code, secs, rss))
        try:
            j = json.loads(out)
        except ValueError:
            raise TestFailure("zbc-audit did not print one JSON object (exit %d):\n%s\n%s"
                              % (code, out, err))
        assert_equal(code, expect, "zbc-audit against a %s peer (%r)" % (mode, j))
        assert_true(rss < RSS_LIMIT_KB, "zbc-audit peak RSS %d KiB < %d KiB" % (rss, RSS_LIMIT_KB))
        assert_true("\x1b" not in err, "no escape byte on stderr: %r" % err)
        return j if expect != 3 else j.get("error", ""), secs

    def run_test(self):
        srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hostile)
        srv.daemon_threads = True
        th = threading.Thread(target=srv.serve_forever, daemon=True)
        th.start()
        self.url = "http://127.0.0.1:%d" % srv.server_address[1]
        self.genesis_path = os.path.join(self.tmpdir, "genesis.json")
        genesis_mod.write_genesis(self.genesis_path, genesis_mod.make_genesis(
            ["5e8eb28dccaa94a992f7169fa67966207d96aa55df7d24d2d6ec1f538c9f2152"], ADDR, []))
        try:
            self.attacks()
        finally:
            srv.shutdown()
            srv.server_close()

    def attacks(self):
        # (a) Content-Length 2 GiB: refused before any of the body is read
        code, msg, secs = self.wallet("huge", "balance", ADDR)
        assert_equal(code, 3, "2 GiB reply: node_unreachable")
        assert_true("announced a reply of 2147483648 bytes" in msg and "limit" in msg,
                    "names the announced size and the limit: %r" % msg)
        assert_true(secs < 15, "refused at once, not after the deadline (%.1f s)" % secs)
        msg, secs = self.audit("huge")
        assert_true("2147483648" in msg and "limit" in msg, "zbc-audit names it: %r" % msg)
        assert_true(secs < 15, "zbc-audit refused at once (%.1f s)" % secs)

        # (b) an endless chunked body: cut off at the cap
        code, msg, secs = self.wallet("chunked", "tx", "status", HASH)
        assert_equal(code, 3, "endless chunked reply: node_unreachable")
        assert_true("longer than the 16777216-byte limit" in msg, "names the limit: %r" % msg)
        assert_true(secs < 15, "cut off at the cap, not the deadline (%.1f s)" % secs)
        msg, secs = self.audit("chunked")
        assert_true("16777216-byte limit" in msg, "zbc-audit names the limit: %r" % msg)
        assert_true(secs < 15, "zbc-audit cut off at the cap (%.1f s)" % secs)

        # (c) {} is an error naming the missing field, never a success
        code, msg, _ = self.wallet("empty", "tx", "status", HASH)
        assert_equal(code, 1, "{} to tx status: internal (a reply that makes no sense)")
        assert_true('has no "transaction_hash"' in msg, "names the field: %r" % msg)
        code, msg, _ = self.wallet("empty", "tx", "show", HASH)
        assert_equal(code, 1, "{} to tx show")
        code, msg, _ = self.wallet("empty", "balance", ADDR)
        assert_equal(code, 1, "{} to balance")
        assert_true('has no "balance"' in msg, "names the field: %r" % msg)
        code, msg, _ = self.wallet("empty", "app", "show", "7")
        assert_equal(code, 1, "{} to app show")
        assert_true('has no "id"' in msg, "names the field: %r" % msg)
        code, msg, _ = self.wallet("empty", "send", "11" * 32, ADDR, "1")
        assert_equal(code, 1, "{} to node/info before a send")
        msg, _ = self.audit("empty")
        assert_true('has no "height"' in msg, "zbc-audit names the field: %r" % msg)

        # (d) wrong types
        code, msg, _ = self.wallet("types", "tx", "status", HASH)
        assert_equal(code, 1, "wrong types to tx status")
        assert_true('"transaction_hash" must be a string, not an integer' in msg, msg)
        code, msg, _ = self.wallet("types", "balance", ADDR)
        assert_equal(code, 1, "wrong types to balance")
        assert_true('"balance"' in msg and "not a decimal number" in msg, msg)
        msg, _ = self.audit("types")
        assert_true('"height"' in msg and "not a decimal number" in msg, msg)

        # (f) an endless header line: cut off at 64 KiB
        code, msg, secs = self.wallet("header", "balance", ADDR)
        assert_equal(code, 3, "endless header: node_unreachable")
        assert_true("headers longer than 65536 bytes" in msg, "says so: %r" % msg)
        assert_true(secs < 15, "cut off at once (%.1f s)" % secs)

        # (g) a block reply past the 64 MiB block cap (a peer with the right
        # genesis: first learn its hash from the genesis divergence)
        j, _ = self.audit("blockbomb", expect=1)
        Hostile.genesis_hash = j["divergences"][0]["expected"]
        msg, secs = self.audit("blockbomb")
        assert_true("/api/v1/blocks/1" in msg and "67108864-byte limit" in msg,
                    "zbc-audit names the block cap: %r" % msg)
        assert_true(secs < 20, "cut off at the cap (%.1f s)" % secs)

        # (h) escape sequences in the node's words never reach the terminal
        code, msg, _ = self.wallet("escape", "balance", ADDR)
        assert_true("boom" in msg and "\x1b" not in msg and "\x07" not in msg, repr(msg))
        msg, _ = self.audit("escape")
        assert_true("boom" in msg and "\x1b" not in msg and "\x07" not in msg, repr(msg))

        # (e) a reply that never ends: the deadline covers the whole exchange
        code, msg, secs = self.wallet("drip", "balance", ADDR, timeout=3)
        assert_equal(code, 8, "a dripping reply: timeout")
        assert_true("did not finish its reply within 3 s" in msg, "says so: %r" % msg)
        assert_true(2.5 <= secs < 15, "ended by the 3 s deadline (%.1f s)" % secs)


if __name__ == "__main__":
    HostileNode().main()
