#!/usr/bin/env python3
"""zbc-audit end to end: a node makes transfers; the auditor replays its
data directory (node running, then stopped) and its HTTP API from genesis
and finds no divergence; then copies of the data directory are tampered
with (one stored account balance, one byte of one stored block, one
stored event record) and zbc-audit must exit 1 naming the height and the
kind of divergence.  A genesis file of another chain is refused too."""
import json
import os
import shutil
import subprocess

from framework import ZBC, TestFailure, ZbcTest, assert_equal, assert_true

FEE = 2000000


class Audit(ZbcTest):
    def audit(self, *args, expect=0):
        exe = os.path.join(os.path.abspath(self.args.build), "node", "audit", "zbc-audit")
        p = subprocess.run([exe] + [str(a) for a in args] + ["--json"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        out = p.stdout.decode()
        try:
            j = json.loads(out)
        except ValueError:
            raise TestFailure("zbc-audit did not print one JSON object (exit %d):\n%s\n%s"
                              % (p.returncode, out, p.stderr.decode()))
        if p.returncode != expect:
            raise TestFailure("zbc-audit %s: exit %d, want %d:\n%s"
                              % (" ".join(map(str, args)), p.returncode, expect, out))
        assert_equal(j.get("exit_code"), p.returncode, "exit_code field")
        assert_equal(j.get("success"), p.returncode == 0, "success field")
        return j

    def tamper(self, ledger, *args):
        exe = os.path.join(os.path.abspath(self.args.build), "node", "audit", "ledger_tamper")
        p = subprocess.run([exe, ledger] + list(args), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=30)
        if p.returncode != 0:
            raise TestFailure("ledger_tamper %s failed: %s" % (args, p.stderr.decode()))
        return p.stdout.decode().strip()

    def copy_datadir(self, node, name):
        dst = os.path.join(self.tmpdir, name)
        shutil.copytree(node.datadir, dst)
        return dst

    def expect_divergence(self, j, height, what):
        divs = j["divergences"]
        assert_true(len(divs) >= 1, "no divergence reported")
        hit = [d for d in divs if d["height"] == height and d["what"] == what]
        assert_true(hit, "no %s divergence at height %d in %r" % (what, height, divs))
        return hit[0]

    def run_test(self):
        alice = self.wallet_key("alice")
        bob = self.wallet_key("bob")
        node = self.start_chain(balances=[(alice, 1000 * ZBC), (bob, 1000 * ZBC)])
        gen = self.genesis_path
        heights = []
        for i in range(3):
            r = self.zbc("send", "--from", "alice", bob, str(1 + i) + "ZBC", "--fee", FEE, "--wait")
            heights.append(r["block_height"])
        r = self.zbc("send", "--from", "bob", alice, "0.5ZBC", "--fee", FEE, "--wait")
        heights.append(r["block_height"])
        node.wait_for_height(max(heights) + 2)

        # 1. the running node: over HTTP and its data directory (LMDB readers)
        j = self.audit("replay", "--peer", node.api_url, "--genesis", gen)
        assert_true(j["complete"] and j["heights_checked"] >= max(heights),
                    "peer audit incomplete: %r" % j)
        assert_equal(j["transactions"], 4, "transactions replayed over HTTP")
        assert_equal(j["divergence_count"], 0, "peer divergences")
        assert_true(j["events_compared_heights"] == j["heights_checked"],
                    "served events compared at every height")
        j = self.audit("replay", "--datadir", node.datadir, "--genesis", gen)
        assert_equal(j["transactions"], 4, "transactions replayed from the running node's datadir")

        # 2. the stopped node
        node.stop()
        j = self.audit("replay", "--datadir", node.datadir, "--genesis", gen)
        tip = j["heights_checked"]
        assert_true(j["complete"] and tip == j["source_height"], "datadir audit complete")
        assert_equal(j["events_compared_heights"], tip, "stored events compared at every height")
        assert_equal(j["undo_compared_heights"], tip, "stored undo records compared")
        self.log("clean audit of %d blocks in %.3f s" % (tip, j["seconds"]))

        # 3. a stored balance rewritten: the replay is fine, the stored state is not
        d = self.copy_datadir(node, "tamper-balance")
        ledger = os.path.join(d, "ledger")
        # bob's typed address bytes: type 0 LE + public key
        key = self.zbc("address", bob, node=False)["account_bytes"]
        old = self.tamper(ledger, "get", "s_accounts", key)
        assert_equal(len(old), 18, "account record is 9 bytes")
        bal = int.from_bytes(bytes.fromhex(old[2:]), "little")
        new = "01" + (bal + 1).to_bytes(8, "little").hex()
        self.tamper(ledger, "put", "s_accounts", key, new)
        j = self.audit("replay", "--datadir", d, "--genesis", gen, expect=1)
        div = self.expect_divergence(j, tip, "stored_state")
        assert_true(bob in div["detail"], "divergence names bob's account: %r" % div)
        assert_equal(div["expected"], "balance %d" % bal, "replayed balance")
        assert_equal(div["found"], "balance %d" % (bal + 1), "stored balance")

        # 4. one byte of a stored block (the last byte of its last transaction)
        h = heights[1]
        d = self.copy_datadir(node, "tamper-block")
        ledger = os.path.join(d, "ledger")
        hk = h.to_bytes(4, "big").hex()
        blk = bytearray(bytes.fromhex(self.tamper(ledger, "get", "blocks", hk)))
        blk[-1] ^= 0x01
        self.tamper(ledger, "put", "blocks", hk, blk.hex())
        j = self.audit("replay", "--datadir", d, "--genesis", gen, expect=1)
        self.expect_divergence(j, h, "block_invalid")
        assert_equal(j["heights_checked"], h - 1, "the replay stops before the bad block")
        assert_true(not j["complete"], "an audit stopped early is not complete")

        # 5. a stored event record (the fee event's amount of the first transfer)
        h = heights[0]
        d = self.copy_datadir(node, "tamper-events")
        ledger = os.path.join(d, "ledger")
        hk = h.to_bytes(4, "big").hex()
        ev = bytearray(bytes.fromhex(self.tamper(ledger, "get", "events", hk)))
        # version u8 | count u32 | kind u8 | tx_index u32 | tx_hash 32 |
        # a (4 + 32) | b (4 + 32) | amount u64: the first event's amount
        off = 1 + 4 + 1 + 4 + 32 + 36 + 36
        assert_equal(int.from_bytes(ev[off:off + 8], "little"), FEE, "first event is the fee")
        ev[off] ^= 0x01
        self.tamper(ledger, "put", "events", hk, ev.hex())
        j = self.audit("replay", "--datadir", d, "--genesis", gen, expect=1)
        div = self.expect_divergence(j, h, "events")
        assert_true('"amount":%d' % FEE in div["expected"].replace(" ", ""),
                    "expected event carries the fee: %r" % div)
        assert_true(j["complete"], "an event divergence does not stop the replay")

        # 6. another chain's genesis file
        g2 = dict(self.genesis)
        g2["chain_name"] = "another-chain"
        other = os.path.join(self.tmpdir, "other-genesis.json")
        with open(other, "w") as f:
            json.dump(g2, f)
        j = self.audit("replay", "--datadir", node.datadir, "--genesis", other, expect=1)
        self.expect_divergence(j, 0, "genesis")

        # 7. usage and unreadable sources
        self.audit("replay", "--datadir", node.datadir, "--peer", node.api_url, expect=2)
        self.audit("replay", "--peer", node.api_url, expect=2)
        self.audit("replay", "--datadir", os.path.join(self.tmpdir, "nowhere"),
                   "--genesis", gen, expect=3)


if __name__ == "__main__":
    Audit().main()
