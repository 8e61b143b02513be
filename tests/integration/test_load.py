#!/usr/bin/env python3
"""zbc-load against real nodes (docs/load.md):

- a 1-validator chain (0.5-s blocks) whose genesis funds the senders
  `zbc-load accounts` prints; `zbc-load run` offers the mixed workload
  (transfers, dice bets, tic-tac-toe and connect-4 creates, their joins and
  moves) at 40 tx/s for 5 s, open loop; the report's counts add up
  (offered = accepted + refused + failed + unsent + unanswered), every
  accepted transaction is included, and they match the chain: the blocks
  the report followed hold exactly the included transactions (nothing else
  sends on this chain), one by one through GET /api/v1/transactions/<hash>
  for the transfers' total, and the node's CPU and RSS are reported;
- the closed loop (8 in flight) with the text report;
- no settling time: the accepted transactions not yet in a followed block
  are looked up at the node (pooled or confirmed, never dropped or unknown);
- a hostile second "node" that answers garbage, half a header, or closes the
  connection: zbc-load does not crash, counts each send to it as failed
  with the reason, and the real node's transactions are all included;
- bad input: a bad URL, rate, duration, workload or option is a usage error
  (exit 2) naming what was wrong; a node that is not there is exit 1.
"""
import json
import os
import socket
import subprocess
import threading

from framework import ZBC, ZbcTest, TestFailure, assert_equal, assert_true

SENDERS = 40


def on_ram_fs(path):
    """Whether path lies on tmpfs or ramfs (/proc/mounts, the longest mount
    point that contains it): their writes are not counted as storage."""
    path = os.path.realpath(path)
    best, fstype = "", ""
    with open("/proc/mounts") as f:
        for line in f:
            parts = line.split()
            if len(parts) < 3:
                continue
            mnt = parts[1].replace("\\040", " ")
            if (path == mnt or path.startswith(mnt.rstrip("/") + "/")) and len(mnt) > len(best):
                best, fstype = mnt, parts[2]
    return fstype in ("tmpfs", "ramfs")


class GarbageServer:
    """Accepts connections; answers each by turns with bytes that are not
    HTTP, a 200 without a body the client can use, a truncated header, or
    a close without a word."""

    def __init__(self):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.n = 0
        self.stop = False
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        answers = [
            b"\x00\xffgarbage that is no HTTP at all\r\n\r\n",
            b"HTTP/1.1 202 Accepted\r\nContent-Length: 7\r\n\r\nnotjson",
            b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n",
            b"",
            b"HTTP/1.1 400 Bad\r\nContent-Length: 4\r\n\r\n[1,2",
        ]
        while not self.stop:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            try:
                c.settimeout(2)
                try:
                    c.recv(65536)
                except OSError:
                    pass
                a = answers[self.n % len(answers)]
                self.n += 1
                if a:
                    c.sendall(a)
            except OSError:
                pass
            finally:
                c.close()

    def close(self):
        self.stop = True
        self.sock.close()


class Load(ZbcTest):
    def load_bin(self):
        return os.path.join(os.path.abspath(self.args.build), "node", "bench", "zbc-load")

    def load(self, *args, expect=0, timeout=120):
        p = subprocess.run([self.load_bin()] + [str(a) for a in args],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        out, err = p.stdout.decode(), p.stderr.decode()
        if p.returncode != expect:
            raise TestFailure("zbc-load %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s"
                              % (" ".join(map(str, args)), p.returncode, expect, out, err))
        return out, err

    def chain_txs(self, node, lo, hi):
        txs = []
        for h in range(lo, hi + 1):
            st, b = node.get("/api/v1/blocks/%d" % h)
            assert_equal(st, 200, "block %d" % h)
            txs += b["transactions"]
        return txs

    def check_counts(self, rep, what):
        parts = (rep["accepted"] + rep["refused"] + rep["failed"] + rep["unsent"]
                 + rep["never_answered"])
        assert_equal(parts, rep["offered"], "%s: accepted + refused + failed + unsent + "
                     "unanswered = offered" % what)
        kinds = rep["kinds"]
        assert_equal(sum(k["offered"] for k in kinds.values()), rep["offered"],
                     "%s: offered by kind add up" % what)
        assert_equal(sum(k["included"] for k in kinds.values()), rep["included"],
                     "%s: included by kind add up" % what)

    def run_test(self):
        out, _ = self.load("accounts", "--senders", SENDERS, "--seed", "it")
        lines = out.split()
        assert_equal(len(lines), SENDERS, "one line per sender")
        balances = [(l.split("=")[0], int(l.split("=")[1])) for l in lines]
        assert_equal(balances[0][1], 1000 * ZBC, "each sender has 1000 ZBC")
        node = self.start_chain(balances, block_time_ms=500, smith_delay_ms=500)

        self.bad_input(node)

        # the mixed workload, open loop
        h0 = node.height()
        out, err = self.load("run", "--node", node.api_url, "--rate", 40, "--duration", 5,
                             "--settle", 12, "--senders", SENDERS, "--seed", "it",
                             "--workload", "mixed", "--pid", node.proc.pid,
                             "--log", node.log_path, "--json", "--quiet")
        rep = json.loads(out)
        self.log("mixed: offered %d accepted %d refused %d included %d; p99 %.2f s, %d blocks"
                 % (rep["offered"], rep["accepted"], rep["refused"], rep["included"],
                    rep["latency"]["p99_s"], rep["chain"]["blocks"]))
        self.check_counts(rep, "mixed")
        assert_true(rep["kinds"]["transfer"]["offered"] >= 100, "transfers offered")
        assert_true(rep["kinds"]["bet"]["included"] > 0, "bets included")
        assert_true(rep["kinds"]["create"]["included"] > 0, "creates included")
        assert_true(rep["kinds"]["join"]["included"] > 0, "joins included")
        assert_true(rep["kinds"]["move"]["included"] > 0, "moves included")
        assert_equal(rep["failed"], 0, "failed sends to a healthy node")
        assert_equal(rep["unsent"], 0, "unsent at 40 tx/s")
        assert_equal(rep["refused"], 0, "refusals: %r" % rep["refusals"])
        assert_equal(rep["accepted_not_included"], 0, "every accepted transaction included")
        assert_equal(rep["included"], rep["accepted"], "included = accepted")
        assert_true(rep["chain"]["from_height"] >= h0, "followed from the tip at the start")
        assert_equal(self.chain_txs(node, h0 + 1, rep["chain"]["from_height"]), [],
                     "nothing before zbc-load started")
        txs = self.chain_txs(node, rep["chain"]["from_height"] + 1, rep["chain"]["to_height"])
        assert_equal(len(txs), rep["included"], "the followed blocks hold the included txs")
        assert_equal(rep["chain"]["transactions"], len(txs), "chain transactions counted")
        assert_equal(rep["chain"]["branch_switches"], 0, "no switch on one validator")
        pn = rep["per_node"][0]
        assert_equal(pn["reorgs_logged"], 0, "no reorg logged")
        assert_true(pn["rss_kb"] > 1000 and pn["cpu_pct"] >= 0, "the node's CPU and RSS")
        # its storage writes (/proc/PID/io write_bytes): the halves add up,
        # and a node that stored blocks on a disk file system wrote some
        wr = pn["disk_write_bytes"]
        assert_equal(pn["disk_write_bytes_first_half"] + pn["disk_write_bytes_second_half"], wr,
                     "the halves of the node's storage writes add up")
        if not on_ram_fs(node.datadir):
            assert_true(wr > 0, "a node storing blocks wrote to storage: %r" % pn)
        lat = rep["latency"]
        assert_true(1 <= lat["p50_blocks"] <= lat["p99_blocks"] <= lat["max_blocks"],
                    "latency in blocks ordered and at least 1: %r" % lat)
        assert_true(0 <= lat["p50_s"] <= lat["p99_s"] <= lat["max_s"],
                    "latency in seconds: %r" % lat)
        for name, k in rep["kinds"].items():
            # each kind's p99 lies within the whole distribution
            assert_true(1 <= k["p99_blocks"] <= lat["max_blocks"],
                        "%s: p99 %r blocks within 1..max %r" % (name, k["p99_blocks"],
                                                               lat["max_blocks"]))
        # the transfers' amounts, read back from the chain
        amount = 0
        for t in txs:
            st, v = node.get("/api/v1/transactions/%s" % t)
            assert_equal(st, 200, "tx %s" % t)
            assert_equal(v["status"], "confirmed", "tx %s" % t)
            if v["transaction_type"] == 1:
                amount += v["amount"]
        assert_true(amount > 0, "transfers carry amounts")

        # the closed loop, text report
        out, _ = self.load("run", "--node", node.api_url, "--closed", 8, "--count", 150,
                           "--duration", 3, "--settle", 10, "--senders", SENDERS,
                           "--seed", "it", "--quiet")
        self.log("closed loop report:\n" + out)
        assert_true("closed loop" in out and "included" in out, "text report")
        acc = int(out.split("accepted")[1].split()[0])
        assert_true(acc > 0, "closed loop accepted")
        assert_true("accepted but not included: 0" in out, "every accepted included")

        # no settling: what is not in a followed block yet is asked for by
        # its status at the node (pooled, or confirmed after the follower stopped)
        out, _ = self.load("run", "--node", node.api_url, "--rate", 100, "--duration", 1,
                           "--settle", 0, "--senders", SENDERS, "--seed", "it", "--json",
                           "--quiet")
        rep = json.loads(out)
        ns = rep["not_included_status"]
        self.log("no settle: %d accepted, %d not included: %r"
                 % (rep["accepted"], rep["accepted_not_included"], ns))
        self.check_counts(rep, "no settle")
        assert_equal(ns["checked"], min(rep["accepted_not_included"], 200), "all checked")
        assert_equal(ns["mempool"] + ns["confirmed"], ns["checked"],
                     "each one pooled or confirmed, none dropped or unknown")

        # a hostile second node
        g = GarbageServer()
        try:
            h1 = node.height()
            out, err = self.load("run", "--node", node.api_url, "--node",
                                 "http://127.0.0.1:%d" % g.port, "--rate", 30,
                                 "--duration", 2, "--settle", 8, "--senders", SENDERS,
                                 "--seed", "it", "--conns", 2, "--timeout", 3, "--json")
        finally:
            g.close()
        rep = json.loads(out)
        self.log("hostile: %r failures %r" % (rep["per_node"][1], rep["failures"]))
        assert_true("sending to it anyway" in err, "warned about the bad node: %s" % err)
        self.check_counts(rep, "hostile")
        bad = rep["per_node"][1]
        assert_true(bad["sent"] >= 25, "about half the sends went to the bad node")
        assert_equal(bad["failed"] + bad["refused"], bad["sent"],
                     "every send to the bad node failed or was refused")
        assert_equal(bad["accepted"], 0, "nothing accepted by the bad node")
        assert_true(bad["info_failures"] > 0, "node/info failures counted")
        assert_equal(rep["failed"], bad["failed"], "failures only at the bad node")
        f = rep["failures"]
        assert_true(f["bad_answer"] > 0 and f["connection"] > 0,
                    "bad answers and connection failures both seen: %r" % f)
        assert_equal(rep["accepted_not_included"], 0, "the real node's txs all included")
        assert_equal(rep["included"], rep["per_node"][0]["accepted"], "included")
        assert_true(node.height() > h1, "the chain went on")

    def bad_input(self, node):
        url = node.api_url
        cases = [
            (["run", "--node", "ftp://x:1"], "must start with http://"),
            (["run", "--node", "http://127.0.0.1"], "needs a host and a port"),
            (["run", "--node", "http://127.0.0.1:99999"], "port"),
            (["run", "--node", url, "--rate", "fast"], "--rate needs a number"),
            (["run", "--node", url, "--rate", "0"], "--rate must be from 0.1"),
            (["run", "--node", url, "--duration", "-3"], "--duration needs a number"),
            (["run", "--node", url, "--workload", "mixed=50,50,50"], "adding up to 100"),
            (["run", "--node", url, "--workload", "chess"], "--workload must be"),
            (["run", "--node", url, "--pid", "1", "--pid", "2"], "one --pid per --node"),
            (["run", "--node", url, "--frobnicate", "1"], "unknown option '--frobnicate'"),
            (["run"], "at least one --node"),
            (["accounts", "--senders", "1"], "--senders"),
            (["verify-rate", "--seconds", "x"], "--seconds needs a number"),
            (["page-rate", "--mib", "x"], "--mib: 'x' is not a decimal number"),
            (["page-rate", "--mib", "8"], "--mib: 8 is out of range"),
            (["page-rate", "--pages"], "unknown option '--pages'"),
            (["page-rate", "--mib", "1048576"], "more than half of this machine's memory"),
            (["fly"], "unknown command 'fly'"),
        ]
        for args, want in cases:
            _, err = self.load(*args, expect=2)
            assert_true(want in err, "zbc-load %s: %r not in %r" % (args, want, err))
        out, _ = self.load("--help")
        for opt in ("--node", "--rate", "--closed", "--duration", "--workload", "--pid",
                    "--log", "--json", "accounts", "verify-rate", "page-rate", "--mib"):
            assert_true(opt in out, "--help names %s" % opt)
        out, _ = self.load("page-rate", "--mib", "16")
        f = out.split()
        assert_true(len(f) == 6 and f[0] == "fresh_page_us" and f[2] == "again_us" and
                    float(f[1]) > 0 and float(f[3]) > 0 and f[5] == "16",
                    "zbc-load page-rate: %r" % out)
        dead = socket.socket()
        dead.bind(("127.0.0.1", 0))
        port = dead.getsockname()[1]
        dead.close()
        _, err = self.load("run", "--node", "http://127.0.0.1:%d" % port, expect=1)
        assert_true("cannot read http://127.0.0.1:%d/api/v1/node/info" % port in err,
                    "an absent node: %s" % err)


if __name__ == "__main__":
    Load().main()
