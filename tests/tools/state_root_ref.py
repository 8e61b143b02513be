#!/usr/bin/env python3
"""An independent reference of the state root (docs/protocol-chain.md §4.3),
Python standard library only: SHA3-256 from hashlib, ChaCha20 written out
from RFC 8439 §2.3 and checked against its test vectors (§2.3.2, A.1) here.

tests/consensus/test_state.c pins the roots this prints; re-derive them
after any change to §4.3:

    python3 tests/tools/state_root_ref.py

prints the empty state's root and the root of the state
{ACCOUNTS "k1" -> "v1", TXSEEN "k2" -> ""} (table numbers from
consensus/state.h), then the element vector's first lanes of that first
entry.
"""
import hashlib
import struct
import sys

LANES = 1024
TABLE_ACCOUNTS = 1
TABLE_TXSEEN = 2


def _rotl(v, n):
    return ((v << n) & 0xFFFFFFFF) | (v >> (32 - n))


def _quarter(s, a, b, c, d):
    s[a] = (s[a] + s[b]) & 0xFFFFFFFF
    s[d] = _rotl(s[d] ^ s[a], 16)
    s[c] = (s[c] + s[d]) & 0xFFFFFFFF
    s[b] = _rotl(s[b] ^ s[c], 12)
    s[a] = (s[a] + s[b]) & 0xFFFFFFFF
    s[d] = _rotl(s[d] ^ s[a], 8)
    s[c] = (s[c] + s[d]) & 0xFFFFFFFF
    s[b] = _rotl(s[b] ^ s[c], 7)


def chacha20_block(key, counter, nonce):
    """RFC 8439 §2.3: one 64-byte block."""
    init = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574]
    init += list(struct.unpack("<8I", key))
    init += [counter]
    init += list(struct.unpack("<3I", nonce))
    s = list(init)
    for _ in range(10):
        _quarter(s, 0, 4, 8, 12)
        _quarter(s, 1, 5, 9, 13)
        _quarter(s, 2, 6, 10, 14)
        _quarter(s, 3, 7, 11, 15)
        _quarter(s, 0, 5, 10, 15)
        _quarter(s, 1, 6, 11, 12)
        _quarter(s, 2, 7, 8, 13)
        _quarter(s, 3, 4, 9, 14)
    return struct.pack("<16I", *((s[i] + init[i]) & 0xFFFFFFFF
                                 for i in range(16)))


def chacha20_stream(key, nbytes, counter=0, nonce=bytes(12)):
    out = b""
    while len(out) < nbytes:
        out += chacha20_block(key, counter, nonce)
        counter += 1
    return out[:nbytes]


def _self_test():
    # RFC 8439 §2.3.2
    key = bytes(range(32))
    nonce = bytes.fromhex("000000090000004a00000000")
    want = ("10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
            "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e")
    assert chacha20_block(key, 1, nonce).hex() == want, "RFC 8439 2.3.2"
    # RFC 8439 A.1, test vector #1: the all-zero key, counter 0, nonce 0
    want = ("76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
            "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586")
    assert chacha20_block(bytes(32), 0, bytes(12)).hex() == want, "RFC A.1 #1"


def digest(table, key, value):
    return hashlib.sha3_256(bytes([table, len(key)]) + key +
                            struct.pack("<I", len(value)) + value).digest()


def element(table, key, value):
    stream = chacha20_stream(digest(table, key, value), 2 * LANES)
    return struct.unpack("<%dH" % LANES, stream)


def root(entries):
    acc = [0] * LANES
    for table, key, value in entries:
        e = element(table, key, value)
        acc = [(a + b) & 0xFFFF for a, b in zip(acc, e)]
    return hashlib.sha3_256(struct.pack("<%dH" % LANES, *acc)).hexdigest()


def main():
    _self_test()
    print("empty   ", root([]))
    print("k1,k2   ", root([(TABLE_ACCOUNTS, b"k1", b"v1"),
                            (TABLE_TXSEEN, b"k2", b"")]))
    print("e(k1) lanes 0..3", element(TABLE_ACCOUNTS, b"k1", b"v1")[:4])
    return 0


if __name__ == "__main__":
    sys.exit(main())
