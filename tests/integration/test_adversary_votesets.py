#!/usr/bin/env python3
"""Hostile GetVoteSets / VoteSets frames (docs/p2p.md §13) against a real
zbcd, from an outsider speaking the real handshake (test_adversary_p2p's
Attacker), each case under a fresh key from its own loopback address.

The node is validator 0 of a two-validator genesis whose validator 1 never
runs: it produces and votes alone, nothing is ever justified, so its final
block (the genesis) lags its tip and it asks any peer that claims its tip
for vote sets.
  - answers: GetVoteSets{1, 5} gives the stored sets of blocks 1..5, in
    order; a range past the tip, and one at 2^32-1 (no overflow), give an
    empty answer; more than 4 requests at once are scored (a token bucket);
  - malformed requests (count 0, count 65, from height 0): dropped (100);
  - VoteSets nobody asked for: scored 50;
  - answers to the node's own request: a garbage set, a set outside the
    asked range, more sets than asked: each scored 50 with its reason.
After all of it the node is still producing."""
import os
import time

from framework import ZbcTest, assert_equal, assert_true, wait_until
import genesis as genesis_mod
from test_adversary_p2p import Attacker, field_bytes, field_varint, parse_fields, sodium
from test_multinode_peers import closed_by_peer

import ctypes


def get_vote_sets(from_height, count):
    return field_bytes(13, field_varint(1, from_height) + field_varint(2, count))


def vote_sets(sets):
    return field_bytes(14, b"".join(field_bytes(1, s) for s in sets))


def fake_set(height, count=0, length=38):
    """Vote-set bytes (docs/protocol-chain.md §8.3) for height with a
    count byte that does not match the length: decodes as a frame, fails
    as a set."""
    b = bytes([1]) + height.to_bytes(4, "little") + bytes(32) + bytes([count])
    return (b + bytes(max(0, length - len(b))))[:length]


class Peer(Attacker):
    """Attacker that also opens the node's sealed frames."""

    rx_n = 0

    def open_frame(self, f):
        s = sodium()
        n = len(f) - 4
        out = ctypes.create_string_buffer(n)
        mlen = ctypes.c_ulonglong(0)
        npub = self.rx_n.to_bytes(8, "little") + bytes(4)
        if s.crypto_aead_chacha20poly1305_ietf_decrypt(
                out, ctypes.byref(mlen), None, f[4:], ctypes.c_ulonglong(n), f[:4],
                ctypes.c_ulonglong(4), npub, self.rx) != 0:
            raise AssertionError("a sealed frame from the node does not open")
        self.rx_n += 1
        return out.raw[:mlen.value]

    def wait_for(self, field, timeout=10):
        """The first envelope of kind `field` the node sends (others are
        skipped): its inner message's fields."""
        self.sock.settimeout(timeout)
        end = time.time() + timeout
        while time.time() < end:
            env = parse_fields(self.open_frame(self.read_frame()))
            if field in env:
                return parse_fields(env[field][0])
        raise AssertionError("no message %d from the node in %d s" % (field, timeout))


class AdversaryVoteSets(ZbcTest):
    def start_node(self):
        node = self.add_node()
        key = node.init()
        self.v1_seed = os.urandom(32)
        pk = ctypes.create_string_buffer(32)
        sk = ctypes.create_string_buffer(64)
        sodium().crypto_sign_seed_keypair(pk, sk, self.v1_seed)
        g = genesis_mod.make_genesis([key, pk.raw.hex()], self.wallet_key("fund"), [],
                                     block_time_ms=300, smith_delay_ms=200)
        path = os.path.join(self.tmpdir, "genesis.json")
        genesis_mod.write_genesis(path, g)
        node.start(path, ["--p2p", "127.0.0.1:%d" % node.p2p_port])
        return node

    def peer(self, node, k, claim_tip):
        """A fresh key from 127.0.6.k, claiming node's tip (so the node
        asks it for vote sets) or the genesis (so it does not)."""
        a = Peer(node.p2p_port, "127.0.6.%d" % k)
        info = node.info()
        if claim_tip:
            a.handshake(self.genesis, height=int(info["height"]),
                        tip=bytes.fromhex(info["tip_hash"]))
        else:
            a.handshake(self.genesis)
        return a

    def misbehaved(self, node, reason, timeout=10):
        wait_until(lambda: reason in node.read_log(), timeout, "the node to log %r" % reason)
        line = [ln for ln in node.read_log().splitlines() if reason in ln][-1]
        self.log(line)
        return line

    def run_test(self):
        node = self.start_node()
        self.genesis = bytes.fromhex(node.info()["genesis_hash"])
        # alone it waits 10 s for peers, then produces
        wait_until(lambda: node.height() >= 12, 60, "blocks from the lone validator")
        assert_equal(int(node.info()["finalized_height"]), 0, "nothing is final")

        # ---- answers ----
        a = self.peer(node, 1, claim_tip=False)
        a.send_sealed(get_vote_sets(1, 5))
        vs = a.wait_for(14)
        sets = vs.get(1, [])
        heights = [int.from_bytes(s[1:5], "little") for s in sets]
        assert_equal(heights, [1, 2, 3, 4, 5], "heights of the sets of blocks 1..5")
        for h, s in zip(heights, sets):
            st, blk = node.get("/api/v1/blocks/%d" % h)
            assert_equal(st, 200, "GET block %d" % h)
            assert_equal(s[5:37].hex(), blk["hash"], "the set of block %d names it" % h)
        top = node.height()
        a.send_sealed(get_vote_sets(top - 2, 64))
        got = [int.from_bytes(s[1:5], "little") for s in a.wait_for(14).get(1, [])]
        assert_true(len(got) >= 3 and got == list(range(top - 2, top - 2 + len(got)))
                    and got[-1] <= node.height(), "sets of the last blocks up to the tip "
                    "only (asked from %d): %r" % (top - 2, got))
        a.send_sealed(get_vote_sets(node.height() + 100, 64))
        assert_equal(a.wait_for(14).get(1, []), [], "sets past the tip")
        a.send_sealed(get_vote_sets(2**32 - 1, 64))
        assert_equal(a.wait_for(14).get(1, []), [], "sets at 2^32-1")
        time.sleep(1.1)  # the bucket is full again
        for _ in range(8):
            a.send_sealed(get_vote_sets(1, 64))
        self.misbehaved(node, "get_vote_sets faster than 4 a second")
        a.close()

        # ---- malformed requests: dropped ----
        for k, (frm, count, reason) in enumerate([
                (1, 0, "get_vote_sets count 0 is not 1..64"),
                (1, 65, "get_vote_sets count 65 is not 1..64"),
                (0, 5, "get_vote_sets from height 0")]):
            a = self.peer(node, 10 + k, claim_tip=False)
            a.send_sealed(get_vote_sets(frm, count))
            assert_true(closed_by_peer(a.sock, 10), "%s: not dropped" % reason)
            self.misbehaved(node, reason)
            a.close()
        # the node logs at most 20 lines a peer can cause per 10 s
        # (docs/p2p.md §6): a new window for the next reasons
        time.sleep(10.5)
        a = self.peer(node, 20, claim_tip=False)
        a.send_sealed(vote_sets([fake_set(1, length=37)]))
        assert_true(closed_by_peer(a.sock, 10), "a 37-byte set: not dropped")
        self.misbehaved(node, "vote set 0 is 37 bytes, not 38..8486")
        a.close()
        a = self.peer(node, 21, claim_tip=False)
        a.send_sealed(vote_sets([fake_set(1)] * 65))
        assert_true(closed_by_peer(a.sock, 10), "65 sets: not dropped")
        self.misbehaved(node, "vote_sets message has 65 sets, more than 64")
        a.close()

        # ---- unasked answers ----
        a = self.peer(node, 30, claim_tip=False)
        a.send_sealed(vote_sets([fake_set(1)]))
        self.misbehaved(node, "vote_sets nobody asked for")
        a.close()

        # ---- answers to the node's own request ----
        time.sleep(10.5)
        cases = [
            (lambda frm, cnt: [fake_set(frm)], "bad vote set: "),
            (lambda frm, cnt: [fake_set(frm + cnt + 5)], "outside the"),
            (lambda frm, cnt: [fake_set(frm)] * (cnt + 1), "sets for"),
        ]
        for k, (make, reason) in enumerate(cases):
            a = self.peer(node, 40 + k, claim_tip=True)
            g = a.wait_for(13)
            frm, cnt = g[1][0], g[2][0]
            self.log("the node asked for %d sets from block %d" % (cnt, frm))
            assert_true(frm == 1 and 9 <= cnt <= 64, "the request starts above the final "
                        "block (0) and covers the tip: %d, %d" % (frm, cnt))
            a.send_sealed(vote_sets(make(frm, cnt)))
            line = self.misbehaved(node, reason)
            assert_true("+50" in line, "scored 50: %s" % line)
            a.close()

        # the node is fine: still producing, nothing final (no votes came)
        h = node.height()
        wait_until(lambda: node.height() >= h + 3, 20, "blocks after the attacks")
        assert_equal(int(node.info()["finalized_height"]), 0, "nothing final")


if __name__ == "__main__":
    AdversaryVoteSets().main()
