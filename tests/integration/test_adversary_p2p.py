#!/usr/bin/env python3
"""One outsider, no validator key, against three validators (docs/p2p.md §3,
§5, §6, §8).  Each attack is a short phase; after each the honest
validators must still be connected to each other and producing, the
attacked node's RSS (/proc/PID/status VmRSS) must stay under a bound and
its log must not grow past a bound:
  - halt: a proven peer claims height 2^32-1 and a random tip, never
    answers get_blocks: production goes on within the bounded hold, the
    peer is scored and dropped;
  - eclipse: 70 idle TCP connections to node 0 while node 1 restarts:
    node 1 gets node 0 back, node 0 keeps its validator peers;
  - impersonation: Hellos under validator 1's key with a forged Auth and
    malformed frames: refused, validator 1 never banned;
  - unread answers: proven peers that ask for blocks and never read;
  - partial frames: frames announced at 4 MiB and stalled, before and
    after the handshake.
The attacker speaks the real handshake with libsodium through ctypes (the
library zbcd links) and hashlib's SHA3-256."""
import ctypes
import ctypes.util
import hashlib
import os
import socket
import time

from framework import (TestFailure, ZbcTest, assert_true, kill_node, start_network,
                       wait_converged, wait_until)
from test_multinode_peers import closed_by_peer, frame

PROTOCOL_VERSION = 3
RSS_GROWTH_MB = 200   # the attacked node's RSS may grow at most this much
LOG_GROWTH = 400_000  # bytes of log one attack phase may add


def load_sodium():
    name = ctypes.util.find_library("sodium")
    if name is None:
        raise TestFailure("libsodium is not installed (scripts/deps)")
    lib = ctypes.CDLL(name)
    if lib.sodium_init() < 0:
        raise TestFailure("sodium_init failed")
    return lib


SODIUM = None


def sodium():
    global SODIUM
    if SODIUM is None:
        SODIUM = load_sodium()
    return SODIUM


# ---- protobuf, by hand (proto/p2p.proto) ----

def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field_bytes(num, data):
    return varint(num << 3 | 2) + varint(len(data)) + data


def field_varint(num, value):
    return varint(num << 3) + varint(value)


def hello(genesis, node_key, height, tip, kx_key, version=PROTOCOL_VERSION):
    h = (field_varint(1, version) + field_bytes(2, genesis) + field_bytes(3, node_key) +
         field_varint(4, height) + field_bytes(5, tip) + field_bytes(7, kx_key))
    return field_bytes(1, h)


def auth(signature):
    return field_bytes(8, field_bytes(1, signature))


def get_blocks(locator, count=128):
    g = b"".join(field_bytes(1, h) for h in locator) + field_varint(2, count)
    return field_bytes(4, g)


def parse_fields(buf):
    """{field number: [values]} of one protobuf message (bytes or ints)."""
    out, i = {}, 0
    while i < len(buf):
        key, i = read_varint(buf, i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, i = read_varint(buf, i)
        elif wt == 2:
            n, i = read_varint(buf, i)
            v, i = buf[i:i + n], i + n
        else:
            raise TestFailure("unexpected wire type %d" % wt)
        out.setdefault(num, []).append(v)
    return out


def read_varint(buf, i):
    n, shift = 0, 0
    while True:
        b = buf[i]
        i += 1
        n |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return n, i


# ---- the attacker's side of the handshake ----

class Attacker:
    """A TCP connection that speaks docs/p2p.md §3 with its own key (or
    claims another's)."""

    def __init__(self, port, src="127.0.0.1", seed=None):
        s = sodium()
        self.sock = connect(port, src)
        self.pk = ctypes.create_string_buffer(32)
        self.sk = ctypes.create_string_buffer(64)
        s.crypto_sign_seed_keypair(self.pk, self.sk, seed or os.urandom(32))
        self.kx_pk = ctypes.create_string_buffer(32)
        self.kx_sk = ctypes.create_string_buffer(32)
        s.crypto_kx_keypair(self.kx_pk, self.kx_sk)
        self.buf = b""
        self.tx_n = 0
        self.peer_hello = None

    def read_frame(self):
        while True:
            if len(self.buf) >= 4:
                n = int.from_bytes(self.buf[:4], "little")
                if len(self.buf) >= 4 + n:
                    f, self.buf = self.buf[:4 + n], self.buf[4 + n:]
                    return f
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("closed")
            self.buf += data

    def handshake(self, genesis, height=0, tip=None, claim=None, forge=False):
        """Reads the node's Hello, sends ours and our Auth.  claim: a node
        key to claim instead of ours (then the Auth is signed with ours:
        a forgery)."""
        f = self.read_frame()
        env = parse_fields(f[4:])
        h = parse_fields(env[1][0])
        self.peer_key, self.peer_kx = h[3][0], h[7][0]
        key = claim or self.pk.raw
        self.sock.sendall(frame(hello(genesis, key, height, tip or genesis, self.kx_pk.raw)))
        s = sodium()
        self.rx = ctypes.create_string_buffer(32)
        self.tx = ctypes.create_string_buffer(32)
        if s.crypto_kx_client_session_keys(self.rx, self.tx, self.kx_pk, self.kx_sk,
                                           self.peer_kx) != 0:
            raise TestFailure("the node's kx key is not usable")
        digest = hashlib.sha3_256(b"ZBC-P2P-AUTH" + genesis + key + self.kx_pk.raw +
                                  self.peer_key + self.peer_kx).digest()
        sig = ctypes.create_string_buffer(64)
        s.crypto_sign_detached(sig, None, digest, ctypes.c_ulonglong(32), self.sk)
        self.send_sealed(auth(sig.raw if not forge else bytes(64)))

    def seal(self, payload):
        s = sodium()
        out = ctypes.create_string_buffer(len(payload) + 16)
        clen = ctypes.c_ulonglong(0)
        ad = (len(payload) + 16).to_bytes(4, "little")
        npub = self.tx_n.to_bytes(8, "little") + bytes(4)
        s.crypto_aead_chacha20poly1305_ietf_encrypt(out, ctypes.byref(clen), payload,
                                                    ctypes.c_ulonglong(len(payload)), ad,
                                                    ctypes.c_ulonglong(4), None, npub, self.tx)
        self.tx_n += 1
        return ad + out.raw

    def send_sealed(self, payload):
        self.sock.sendall(self.seal(payload))

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def connect(port, src):
    """A connection to 127.0.0.1:port from src (any 127.x.y.z is this
    machine: each attack phase comes from its own addresses, so an address
    banned in one phase does not hide the next)."""
    return socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(src, 0))


def rss_mb(node):
    with open("/proc/%d/status" % node.proc.pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    raise TestFailure("no VmRSS for node %d" % node.index)


class AdversaryP2P(ZbcTest):
    def check_bounds(self, node, what):
        rss = rss_mb(node)
        grown = rss - self.base_rss
        self.log("%s: node %d RSS %.1f MB (+%.1f), log %d bytes" %
                 (what, node.index, rss, grown, os.path.getsize(node.log_path)))
        assert_true(grown < RSS_GROWTH_MB, "%s: node %d RSS grew %.1f MB" % (what, node.index, grown))
        size = os.path.getsize(node.log_path)
        assert_true(size - self.log_mark < LOG_GROWTH,
                    "%s: node %d log grew %d bytes" % (what, node.index, size - self.log_mark))
        self.log_mark = size

    def producing(self, nodes, what, blocks=3, timeout=25):
        h = max(nd.height() for nd in nodes)
        t0 = time.time()
        wait_until(lambda: min(nd.height() for nd in nodes) >= h + blocks, timeout,
                   "%s: every node %d blocks past %d" % (what, blocks, h))
        self.log("%s: %d blocks in %.1f s" % (what, blocks, time.time() - t0))

    def validators_connected(self, nodes, what):
        for nd in nodes:
            n = nd.info()["peer_count"]
            assert_true(n >= len(nodes) - 1, "%s: node %d has %d peers" % (what, nd.index, n))

    def run_test(self):
        alice = self.wallet_key("alice")
        nodes = start_network(self, 3, [(alice, 100 * 10**8)], block_time_ms=300,
                              smith_delay_ms=300)
        wait_converged(nodes, min_height=3, timeout=30)
        wait_until(lambda: all(nd.info()["peer_count"] == 2 for nd in nodes), 20,
                   "a full mesh")
        genesis = bytes.fromhex(nodes[0].info()["genesis_hash"])
        target = nodes[0]
        self.base_rss = rss_mb(target)
        self.log_mark = os.path.getsize(target.log_path)

        # ---- halt: claim 2^32-1 and a random tip, never answer ----
        halters = []
        for nd in nodes:
            a = Attacker(nd.p2p_port, "127.0.1.1")
            a.handshake(genesis, height=2**32 - 1, tip=os.urandom(32))
            halters.append(a)
        wait_until(lambda: any(nd.info()["sync_reason"] == "syncing" for nd in nodes), 10,
                   "the claim to start a sync")
        # production waits at most ZBC_P2P_SYNC_HOLD_MS (3 s) for it
        self.producing(nodes, "halt", blocks=3, timeout=15)
        wait_until(lambda: "did not answer get_blocks" in target.read_log(), 20,
                   "the halting peer to be scored")
        for a in halters:
            assert_true(closed_by_peer(a.sock, 5), "the halting peer was not dropped")
            a.close()
        self.validators_connected(nodes, "halt")
        self.check_bounds(target, "halt")

        # ---- eclipse: 70 idle sockets on node 0 while node 1 restarts ----
        srcs = ["127.0.2.%d" % (i + 1) for i in range(70)]
        idle = [connect(target.p2p_port, src) for src in srcs]
        kill_node(nodes[1])
        restart_mark = os.path.getsize(nodes[1].log_path)
        nodes[1].start(self.genesis_path, nodes[1].run_args)
        deadline = time.time() + 15
        reconnected = False
        while time.time() < deadline:
            # keep the flood up: replace every socket the node closed
            for i, s in enumerate(idle):
                s.setblocking(False)
                try:
                    if s.recv(65536) == b"":
                        raise ConnectionError
                except BlockingIOError:
                    continue
                except OSError:
                    pass
                s.close()
                idle[i] = connect(target.p2p_port, srcs[i])
            if nodes[1].info()["peer_count"] == 2 and target.info()["peer_count"] == 2:
                reconnected = True
                break
            time.sleep(0.2)
        assert_true(reconnected, "eclipse: node 1 did not get both peers back (%d, node 0 has %d)"
                    % (nodes[1].info()["peer_count"], target.info()["peer_count"]))
        self.producing(nodes, "eclipse", blocks=3)
        wait_converged(nodes, min_height=nodes[0].height(), timeout=20)
        # the restarted validator never built alone on its stale tip
        after = nodes[1].read_log()[restart_mark:]
        assert_true("producing while not synced" not in after,
                    "eclipse: the restarted node produced while not synced")
        for s in idle:
            s.close()
        self.check_bounds(target, "eclipse")

        # ---- impersonation: validator 1's key, a forged Auth, garbage ----
        v1 = bytes.fromhex(nodes[1].node_key)
        for k in range(20):
            for nd in (nodes[0], nodes[2]):
                a = Attacker(nd.p2p_port, "127.0.3.1")
                if k % 2 == 0:
                    a.handshake(genesis, claim=v1, forge=True)
                else:
                    f = a.read_frame()
                    a.sock.sendall(frame(hello(genesis, v1, 5, genesis, a.kx_pk.raw)))
                    a.sock.sendall(frame(b"\x12\x7f\x0a\x00" * 5))
                assert_true(closed_by_peer(a.sock, 5), "impersonation: not dropped")
                a.close()
        for nd in (nodes[0], nodes[2]):
            log = nd.read_log()
            assert_true("banning node %s" % nodes[1].node_key[:16] not in log,
                        "impersonation: node %d banned validator 1" % nd.index)
        self.validators_connected(nodes, "impersonation")
        self.producing(nodes, "impersonation", blocks=3)
        self.check_bounds(target, "impersonation")

        # ---- unread answers: ask for everything, never read ----
        readers = []
        for i in range(16):
            try:
                a = Attacker(target.p2p_port, "127.0.4.%d" % (i + 1))
                a.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                a.handshake(genesis)
                readers.append(a)
            except OSError:
                pass
        # 8 get the slots for keys that are not validators', 8 are refused
        wait_until(lambda: target.info()["peer_count"] == 10, 10,
                   "the unknown-key slots to fill (peer_count %d)" % target.info()["peer_count"])
        for rnd in range(40):
            for a in readers:
                try:
                    a.send_sealed(get_blocks([genesis]))
                except OSError:
                    pass
            time.sleep(0.05)
        self.producing(nodes, "unread answers", blocks=3)
        self.validators_connected(nodes, "unread answers")
        self.check_bounds(target, "unread answers")
        for a in readers:
            a.close()

        # ---- partial frames: announced at 4 MiB, stalled half-way ----
        raw = []
        for i in range(16):  # before any Hello: above 1 KiB is refused at once
            s = connect(target.p2p_port, "127.0.5.%d" % (i + 1))
            s.sendall((4 << 20).to_bytes(4, "little") + bytes(1000))
            raw.append(s)
        for s in raw:
            assert_true(closed_by_peer(s, 5), "an unproven 4-MiB frame was not refused")
            s.close()
        wait_until(lambda: target.info()["peer_count"] == 2, 30,
                   "the unread-answers peers to be gone")
        stalled = []
        for i in range(16):
            try:
                a = Attacker(target.p2p_port, "127.0.6.%d" % (i + 1))
                a.handshake(genesis)
                stalled.append(a)
            except OSError:
                pass
        wait_until(lambda: target.info()["peer_count"] == 10, 10,
                   "the stalling peers to be admitted")
        for a in stalled:
            try:
                a.sock.sendall(((4 << 20) + 16).to_bytes(4, "little") + bytes(3 << 20))
            except OSError:
                pass
        time.sleep(1)
        self.log("partial frames: %d connections, peer_count %d"
                 % (len(stalled), target.info()["peer_count"]))
        self.check_bounds(target, "partial frames (stalled)")
        self.producing(nodes, "partial frames", blocks=3)
        # dropped after ZBC_P2P_FRAME_MS (20 s) or the idle timeout
        for a in stalled:
            assert_true(closed_by_peer(a.sock, 30), "a stalled frame was not dropped")
            a.close()
        self.check_bounds(target, "partial frames (dropped)")
        # the buffers went back to the system (glibc's allocator; a
        # sanitizer's allocator keeps freed memory in quarantine)
        with open(self.zbcd, "rb") as f:
            sanitized = b"__asan_init" in f.read()
        if sanitized:
            self.log("partial frames: sanitized build, memory return not checked")
        else:
            wait_until(lambda: rss_mb(target) - self.base_rss < 16, 10,
                       "the stalled frames' memory to be returned (RSS %.1f MB)" % rss_mb(target))
        self.validators_connected(nodes, "partial frames")
        wait_converged(nodes, min_height=nodes[0].height(), timeout=20)


if __name__ == "__main__":
    AdversaryP2P().main()
