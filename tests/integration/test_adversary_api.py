#!/usr/bin/env python3
"""An outsider cannot exhaust the HTTP API or the node behind it
(docs/api.md §8, docs/node.md "Limits").  Loopback only; every attack is
bounded in count and time.

1. Descriptor exhaustion: the running node's RLIMIT_NOFILE is lowered to 64
   (prlimit), below its default connection cap, and 300 connections are
   opened and held.  accept() then fails with "Too many open files": the
   node must back off (CPU not spinning: utime+stime over 4 s well under
   one core), log a bounded number of lines, keep producing blocks, and
   answer the API again once the attacker lets go.
2. Connection cap (--api-max-connections 16): 40 held connections; the
   node accepts 16 and no more, says so once, keeps producing, and answers
   again after the release.
3. Event streams: 8 per client address (the 9th is 429 with the reason, at
   INFO), another address still gets one.
4. Slowloris: connections sending one byte every 3 s are closed by the
   30 s whole-request deadline (not kept open by the trickle)."""
import os
import re
import resource
import socket
import time

from framework import ZBC, ZbcTest, assert_equal, assert_true, wait_until

NOFILE = 64
HOLD = 300
CAP = 16
DEADLINE_S = 30


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    # fields[11], fields[12]: utime, stime (after pid and comm)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def produced_heights(text):
    return [int(h) for h in re.findall(r"block produced height=(\d+)", text)]


def open_conns(port, n, src="127.0.0.1"):
    socks = []
    for _ in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind((src, 0))
        s.setblocking(False)
        try:
            s.connect(("127.0.0.1", port))
        except BlockingIOError:
            pass
        socks.append(s)
    return socks


def close_all(socks):
    for s in socks:
        s.close()


def api_up(node, timeout=2):
    try:
        st, _ = node.request("GET", "/api/v1/node/info", timeout=timeout)
        return st == 200
    except OSError:
        return False


class AdversaryApi(ZbcTest):
    def held_attack(self, node, socks_wanted, what):
        """Holds socks_wanted connections for 4 s; returns the log written
        meanwhile.  Checks CPU, block production and the log's size."""
        log0 = len(node.read_log())
        h0 = max(produced_heights(node.read_log()) or [0])
        socks = open_conns(node.api_port, socks_wanted)
        try:
            time.sleep(0.5)
            c0, t0 = cpu_seconds(node.proc.pid), time.monotonic()
            time.sleep(4)
            c1, t1 = cpu_seconds(node.proc.pid), time.monotonic()
            share = (c1 - c0) / (t1 - t0)
            self.log("%s: node CPU %.0f %% of one core while attacked" % (what, 100 * share))
            assert_true(share < 0.5, "%s: the node spins (%.0f %% CPU)" % (what, 100 * share))
            assert_true(not api_up(node, timeout=1.5),
                        "%s: the API still answered a new client" % what)
            text = node.read_log()[log0:]
            assert_true(len(text) < 20000, "%s: %d bytes of log in 4.5 s" % (what, len(text)))
            heights = produced_heights(text)
            assert_true(heights and max(heights) >= h0 + 4,
                        "%s: blocks produced while attacked: %r" % (what, heights))
        finally:
            close_all(socks)
        wait_until(lambda: api_up(node), 15, "%s: the API to answer after the release" % what)
        return text

    def run_test(self):
        alice = self.wallet_key("alice")
        node = self.start_chain(balances=[(alice, 10 * ZBC)], block_time_ms=500)
        node.wait_for_height(1)

        # 1. descriptors run out before the connection cap is reached
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        assert_true(soft >= HOLD + 64, "the test needs %d descriptors (has %d)" % (HOLD + 64, soft))
        # with no descriptor left the validator cannot persist its finality
        # voter state, so it must not vote (docs/node.md "finality-voter"):
        # one rate-limited ERROR, and finality resumes after the attack
        self.expect_log(r"finality: vote for block \d+ not sent: cannot write .*Too many open files")
        resource.prlimit(node.proc.pid, resource.RLIMIT_NOFILE, (NOFILE, NOFILE))
        text = self.held_attack(node, HOLD, "fd exhaustion")
        lines = text.count("cannot accept a connection: Too many open files")
        assert_true(1 <= lines <= 2, "accept failures logged %d times in 4.5 s" % lines)
        node.stop()

        # 2. the connection cap
        node.start(self.genesis_path, ["--api-max-connections", str(CAP)])
        text = self.held_attack(node, 40, "connection cap")
        assert_true("%d connections open (the limit)" % CAP in text,
                    "the cap is not logged:\n%s" % text[-2000:])
        assert_true("Too many open files" not in text, "accept failed under the cap")

        # 3. event streams per client address
        path = "/api/v1/accounts/%s/events" % alice
        req = ("GET %s HTTP/1.1\r\nHost: x\r\n\r\n" % path).encode()
        streams = open_conns(node.api_port, 8) + open_conns(node.api_port, 1)
        other = open_conns(node.api_port, 1, src="127.0.0.2")
        try:
            time.sleep(0.3)
            for s in streams + other:
                s.setblocking(True)
                s.settimeout(5)
                s.sendall(req)
            heads = [s.recv(4096).decode("latin-1") for s in streams + other]
            ok = sum(h.startswith("HTTP/1.1 200") for h in heads)
            assert_equal(ok, 9, "streams opened (8 from 127.0.0.1, 1 from 127.0.0.2): %r"
                         % [h[:12] for h in heads])
            refused = [h for h in heads if h.startswith("HTTP/1.1 429")]
            assert_equal(len(refused), 1, "streams refused")
            assert_true("too many event streams from 127.0.0.1 (8 open" in refused[0],
                        "the refusal names the client and the limit: %r" % refused[0])
        finally:
            close_all(streams + other)
        wait_until(lambda: "from 127.0.0.1 -> 429" in node.read_log(), 5, "the refusal's log line")
        line = [l for l in node.read_log().splitlines() if "-> 429" in l][0]
        assert_true(" INFO " in line, "a refused stream is logged at INFO: %s" % line)

        # 4. slowloris: a byte every 3 s never completes a request
        slow = open_conns(node.api_port, 3)
        t0 = time.monotonic()
        closed_at = [None] * len(slow)
        try:
            time.sleep(0.2)
            for s in slow:
                s.setblocking(True)
                s.settimeout(0.05)
            trickle = b"GET /api/v1/node/info HTTP/1.1\r\nX-Slow: " + b"a" * 100
            i = 0
            while time.monotonic() - t0 < DEADLINE_S + 10 and None in closed_at:
                for k, s in enumerate(slow):
                    if closed_at[k] is not None:
                        continue
                    try:
                        s.send(trickle[i:i + 1])
                        if s.recv(1) == b"":
                            closed_at[k] = time.monotonic() - t0
                    except socket.timeout:
                        pass
                    except OSError:
                        closed_at[k] = time.monotonic() - t0
                i += 1
                time.sleep(3)
        finally:
            close_all(slow)
        self.log("slowloris connections closed after %r s" % closed_at)
        for t in closed_at:
            assert_true(t is not None and DEADLINE_S - 1 <= t <= DEADLINE_S + 5,
                        "a slow connection closed after %r s, not at the %d s deadline"
                        % (t, DEADLINE_S))
        assert_true(api_up(node), "the API answers after the slow connections")


if __name__ == "__main__":
    AdversaryApi().main()
