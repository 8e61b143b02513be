#!/usr/bin/env python3
"""Peers that must be refused (docs/p2p.md):
  - a node of another chain (other genesis) is refused at the handshake by
    both sides, with the reason logged, and never counted as a peer;
  - a raw connection that sends an oversized length prefix, garbage, or a
    message before its hello is dropped, and the network goes on."""
import os
import socket
import time

from framework import (ZbcTest, assert_equal, assert_true, genesis_mod, p2p_args,
                       start_network, wait_converged, wait_until)


def frame(payload):
    return len(payload).to_bytes(4, "little") + payload


def closed_by_peer(sock, timeout=10.0):
    """True when the node closes the connection within timeout."""
    sock.settimeout(timeout)
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except socket.timeout:
        return False


class Peers(ZbcTest):
    def run_test(self):
        alice = self.wallet_key("alice")
        nodes = start_network(self, 2, [(alice, 100 * 10**8)], block_time_ms=300,
                              smith_delay_ms=300)
        wait_converged(nodes, min_height=3, timeout=30)

        # a node of another chain dials node 0
        other = self.add_node()
        key = other.init()
        g = genesis_mod.make_genesis([key], alice, [], chain_name="another-chain",
                                     block_time_ms=300, smith_delay_ms=300)
        gpath = os.path.join(self.tmpdir, "other-genesis.json")
        genesis_mod.write_genesis(gpath, g)
        other.start(gpath, p2p_args(other, [nodes[0]]))
        wait_until(lambda: "it is on another chain" in nodes[0].read_log(), 20,
                   "node 0 to refuse the other chain's node")
        wait_until(lambda: "it is on another chain" in other.read_log(), 20,
                   "the other chain's node to refuse node 0")
        other.wait_for_height(3, timeout=20)
        assert_equal(nodes[0].info()["peer_count"], 1, "node 0 peer_count")
        assert_equal(other.info()["peer_count"], 0, "other chain's peer_count")
        other_tip = other.info()["tip_hash"]
        st, _ = nodes[0].get("/api/v1/blocks/%d" % 1)
        assert_true(nodes[0].info()["tip_hash"] != other_tip, "tips differ")
        other.stop()

        port = nodes[1].p2p_port
        # an oversized length prefix (4 MiB + 1; before a Hello only 1 KiB)
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall((4 * 1024 * 1024 + 1).to_bytes(4, "little"))
        assert_true(closed_by_peer(s), "oversized frame: connection not closed")
        s.close()
        # a well-framed garbage envelope
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(frame(b"\x12\x7f\x0a\x00"))
        assert_true(closed_by_peer(s), "garbage envelope: connection not closed")
        s.close()
        # a ping (Envelope field 6) before any hello
        s = socket.create_connection(("127.0.0.1", port))
        ping = b"\x08\x01\x10\x01\x1a\x20" + b"\x00" * 32
        s.sendall(frame(b"\x32" + bytes([len(ping)]) + ping))
        assert_true(closed_by_peer(s), "ping before hello: connection not closed")
        s.close()
        log = nodes[1].read_log()
        for why in ("above the 1024-byte limit", "malformed message",
                    "a message before the handshake"):
            assert_true(why in log, "node 1 did not log %r" % why)

        # the two validators still agree and move on
        h = nodes[0].height()
        wait_converged(nodes, min_height=h + 3, timeout=30)
        assert_equal(nodes[1].info()["peer_count"], 1, "node 1 peer_count")


if __name__ == "__main__":
    Peers().main()
