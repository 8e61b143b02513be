#!/usr/bin/env python3
"""(c) Foreign accounts signed by stock wallet libraries: the genesis funds an
Ethereum address and a Bitcoin P2PKH address of keys that JavaScript
generates (tests/interop, npm packages ethers and bitcoinjs-message);
`zbc tx prepare` prints the digest, ethers signMessage(getBytes(digest))
and bitcoinjs-message sign(hexdigest, key, compressed) sign it, `zbc tx
submit --signature` sends it, and the balances move."""
import json
import os
import shutil
import subprocess

from framework import ZBC, ZbcTest, TestFailure, assert_equal, wait_until

INTEROP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "interop")
FEE = 3000000


def run_node(*args):
    p = subprocess.run(["node"] + list(args), cwd=INTEROP, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=120)
    if p.returncode != 0:
        raise TestFailure("node %s failed: %s" % (" ".join(args), p.stderr.decode()))
    return p.stdout.decode().strip()


class Interop(ZbcTest):
    def npm_install(self):
        if shutil.which("node") is None or shutil.which("npm") is None:
            raise TestFailure("node and npm are required for the interop test "
                              "(Debian: apt-get install nodejs npm); they are not installed")
        if os.path.isdir(os.path.join(INTEROP, "node_modules", "ethers")) and \
                os.path.isdir(os.path.join(INTEROP, "node_modules", "bitcoinjs-message")):
            return
        self.log("npm install in tests/interop")
        p = subprocess.run(["npm", "install", "--no-audit", "--no-fund"], cwd=INTEROP,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
        if p.returncode != 0:
            raise TestFailure("npm install failed in tests/interop:\n%s" % p.stdout.decode()[-3000:])

    def transfer(self, kind, key, recipient, amount):
        prep = os.path.join(self.tmpdir, "prepared-%s.json" % kind)
        r = self.zbc("tx", "prepare", "--from-address", key["address"], "send", recipient, amount,
                     "--fee", FEE, "--out", prep)
        assert_equal(len(r["digest"]), 64, "digest length")
        with open(prep) as f:
            assert_equal(json.load(f)["digest"], r["digest"], "digest in the prepared file")
        sig = run_node("sign.js", kind, key["privkey"], r["digest"])
        assert_equal(len(sig), 130, "%s signature length" % kind)
        # a signature over another digest is refused before anything is sent
        bad = run_node("sign.js", kind, key["privkey"], "00" * 32)
        self.zbc("tx", "submit", "--prepared", prep, "--signature", bad, expect=10)
        # the prepared file, or the bare unsigned bytes (the node then names the chain)
        prepared = prep if kind == "eth" else r["unsigned_bytes"]
        s = self.zbc("tx", "submit", "--prepared", prepared, "--signature", sig, "--wait")
        self.log("%s transfer %s in block %s" % (kind, s["transaction_hash"], s["block_height"]))
        return s

    def run_test(self):
        self.npm_install()
        keys = json.loads(run_node("keys.js"))
        eth, btc = keys["eth"], keys["btc"]
        # the wallet reads both addresses as the chain's types 4 and 5
        assert_equal(self.zbc("address", eth["address"], node=False)["account_type"], 4, "eth type")
        a = self.zbc("address", btc["address"], node=False)
        assert_equal((a["account_type"], a["address"]), (5, btc["address"]), "btc type and text")
        bob = self.wallet_key("bob")
        self.start_chain(balances=[(eth["address"], 50 * ZBC), (btc["address"], 50 * ZBC),
                                   (bob, 1 * ZBC)])
        self.transfer("eth", eth, bob, "7ZBC")
        self.transfer("btc", btc, bob, "3ZBC")
        want = {eth["address"]: 43 * ZBC - FEE, btc["address"]: 47 * ZBC - FEE, bob: 11 * ZBC}
        wait_until(lambda: all(self.balance(k) == v for k, v in want.items()), 30,
                   "balances after both foreign transfers")
        for k, v in want.items():
            assert_equal(self.zbc("balance", k)["balance"], v, "zbc balance %s" % k)


if __name__ == "__main__":
    Interop().main()
