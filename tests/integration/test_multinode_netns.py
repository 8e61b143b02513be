#!/usr/bin/env python3
"""Two validators as two hosts (docs/p2p.md §1): each zbcd runs in its own network
namespace with its own address, joined by a bridge, with explicit --p2p /
--peer addresses.  They converge; the bridge stops forwarding between them
(a partition: each side goes on alone, as rank 0 or rank 1 of every
height); forwarding comes back: they reorganise onto one chain, same tip
and state root.

Needs root and `ip netns`; prints SKIP and exits 0 without them."""
import os
import subprocess
import time

from framework import (Node, TestFailure, ZbcTest, assert_true, genesis_mod, wait_converged)

P2P_PORT = 9555


def run(cmd, check=True):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and p.returncode != 0:
        raise TestFailure("%s: %s" % (" ".join(cmd), p.stderr.decode().strip()))
    return p.returncode == 0


def ip(*args, check=True):
    return run(["ip"] + list(args), check)


class NsNode(Node):
    """A zbcd inside network namespace ns at address addr."""

    def __init__(self, test, index, ns, addr):
        super().__init__(test, index)
        self.ns, self.addr = ns, addr

    @property
    def api_url(self):
        return "http://%s:%d" % (self.addr, self.api_port)

    def start(self, genesis_path, extra=()):
        self.genesis_path = genesis_path
        cmd = ["ip", "netns", "exec", self.ns, self.test.zbcd, "run", "--datadir", self.datadir,
               "--genesis", genesis_path, "--api", "%s:%d" % (self.addr, self.api_port)]
        cmd += list(extra)
        self.log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT)
        self.wait_for_api()


class NetNs(ZbcTest):
    def run_test(self):
        if os.geteuid() != 0 or not ip("netns", "list", check=False):
            print("SKIP: needs root and ip netns")
            return
        tag = "%d" % (os.getpid() % 100000)
        net = "10.%d.%d" % (200 + os.getpid() % 50, os.getpid() % 250)
        self.bridge = "zbr" + tag
        self.namespaces = []
        self.links = []
        ip("link", "add", "name", self.bridge, "type", "bridge")
        ip("addr", "add", net + ".254/24", "dev", self.bridge)
        ip("link", "set", self.bridge, "up")
        nodes = []
        for k in range(2):
            ns, host_end, ns_end = "zbc%sn%d" % (tag, k), "zv%sa%d" % (tag, k), "zv%sb%d" % (tag, k)
            ip("netns", "add", ns)
            self.namespaces.append(ns)
            ip("link", "add", host_end, "type", "veth", "peer", "name", ns_end)
            self.links.append(host_end)
            ip("link", "set", ns_end, "netns", ns)
            ip("link", "set", host_end, "master", self.bridge)
            ip("link", "set", host_end, "up")
            ip("netns", "exec", ns, "ip", "addr", "add", "%s.%d/24" % (net, k + 1), "dev", ns_end)
            ip("netns", "exec", ns, "ip", "link", "set", ns_end, "up")
            ip("netns", "exec", ns, "ip", "link", "set", "lo", "up")
            n = NsNode(self, k, ns, "%s.%d" % (net, k + 1))
            self.nodes.append(n)
            nodes.append(n)
        keys = [n.init() for n in nodes]
        alice = self.wallet_key("alice")
        g = genesis_mod.make_genesis(keys, alice, [], block_time_ms=300, smith_delay_ms=300)
        self.genesis_path = os.path.join(self.tmpdir, "genesis.json")
        genesis_mod.write_genesis(self.genesis_path, g)
        for k, n in enumerate(nodes):
            other = nodes[1 - k]
            n.start(self.genesis_path, ["--p2p", "%s:%d" % (n.addr, P2P_PORT),
                                        "--peer", "%s:%d" % (other.addr, P2P_PORT)])
        h, tip, _ = wait_converged(nodes, min_height=4, timeout=30)
        self.log("two hosts converged at height %d" % h)
        assert_true(all(n.info()["peer_count"] == 1 for n in nodes), "each node has its peer")

        # partition: the bridge stops forwarding between the two nodes'
        # ports (both still reach the host, so the test can watch them)
        for link in self.links:
            run(["bridge", "link", "set", "dev", link, "isolated", "on"])
        h0 = [n.height() for n in nodes]
        time.sleep(4)
        h1 = [n.height() for n in nodes]
        self.log("during the partition: heights %r -> %r" % (h0, h1))
        assert_true(all(b >= a + 3 for a, b in zip(h0, h1)),
                    "both sides should keep producing while cut off: %r -> %r" % (h0, h1))
        tips = [n.info()["tip_hash"] for n in nodes]
        assert_true(tips[0] != tips[1], "the partition should fork the chain")

        for link in self.links:
            run(["bridge", "link", "set", "dev", link, "isolated", "off"])
        h, tip, _ = wait_converged(nodes, min_height=max(h1) + 1, timeout=40)
        self.log("healed: converged at height %d" % h)
        logs = nodes[0].read_log() + nodes[1].read_log()
        assert_true("chain switched" in logs or "reorg:" in logs,
                    "one side should have reorganised onto the other's branch")
        forks = [n.info()["forks"] for n in nodes]
        self.log("node/info forks: %r" % forks)
        assert_true(sum(f["branch_switches"] for f in forks) >= 1 and
                    max(f["deepest_switch"] for f in forks) >= 1,
                    "node/info counts the switch: %r" % forks)

    def teardown(self):
        ok = super().teardown()
        for ns in getattr(self, "namespaces", []):
            ip("netns", "del", ns, check=False)
        for link in getattr(self, "links", []):
            ip("link", "del", link, check=False)
        if getattr(self, "bridge", None):
            ip("link", "del", self.bridge, check=False)
        return ok


if __name__ == "__main__":
    NetNs().main()
