#!/usr/bin/env python3
"""Final confirmations (docs/protocol-chain.md §8): Casper FFG votes.
  - one validator: each block is final as soon as its validator votes for it
    (its vote is the whole set); a transfer reaches "final": true;
  - four validators: a transfer reaches "final": true on every node and
    finalized_height advances everywhere;
  - one of four stopped: blocks still become final (3 of 4);
  - two of four stopped: blocks are still produced but none becomes final;
    zbc send --wait times out saying the transfer is in a block but not final,
    --wait=included returns at inclusion;
  - the stopped validators restart: finality resumes;
  - a validator's voter file that does not decode stops zbcd run (voting from
    a forgotten lock could sign a slashable pair); restored, it runs on and
    its chain keeps finalising;
  - zbc-audit checks the stored vote sets and the "final" record: clean as
    stored, a divergence of kind "votes" after a signature byte or the final
    record is changed.
Block time 200 ms, smith delay 300 ms."""
import os
import subprocess
import time

from framework import (ZBC, ZbcTest, assert_equal, assert_true, audit_datadir_clean,
                       ledger_tamper, run_audit, start_network, wait_until)

FEE = 2000000


def finalized(nd):
    return int(nd.info()["finalized_height"])


class Finality(ZbcTest):
    def single(self):
        alice = self.wallet_key("alice")
        bob = self.wallet_key("bob")
        node = self.start_chain([(alice, 100 * ZBC)], block_time_ms=200, smith_delay_ms=300)
        node.wait_for_height(3, timeout=30)
        wait_until(lambda: finalized(node) >= 2, 30, "single validator finality")
        r = self.zbc("send", "--from", "alice", bob, "1ZBC", "--fee", FEE, "--wait", node=node)
        tx, h = r["transaction_hash"], r["block_height"]
        wait_until(lambda: self.tx_status(tx, node)[1].get("final") is True, 30,
                   "transfer final on the single validator")
        fh = finalized(node)
        tip = node.height()
        assert_true(fh >= h and fh < tip + 1, "finalized %d, tip %d" % (fh, tip))
        # final never passes the tip
        info = node.info()
        assert_true(int(info["finalized_height"]) < int(info["height"]) + 1,
                    "finalized_height at most the tip")
        node.stop()
        # a damaged voter file refuses to start, naming the file
        path = os.path.join(node.datadir, "finality-voter")
        with open(path, "rb") as fh:
            good = fh.read()
        assert_equal((len(good), good[0]), (41, 1), "voter file length and version")
        with open(path, "wb") as fh:
            fh.write(good[:40])
        p = subprocess.run([self.zbcd, "run", "--datadir", node.datadir, "--genesis",
                            node.genesis_path, "--api", "127.0.0.1:%d" % node.api_port],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
        out = p.stdout.decode("utf-8", "replace")
        assert_true(p.returncode != 0 and "finality-voter has 40 bytes, not 41" in out,
                    "zbcd run with a truncated voter file: exit %d, %s" % (p.returncode, out[-500:]))
        with open(path, "wb") as fh:
            fh.write(good)
        node.start(node.genesis_path)
        f_before = finalized(node)
        wait_until(lambda: finalized(node) >= f_before + 3, 30, "finality after the restart")
        node.stop()
        self.audit_votes(node)

    def tamper(self, ledger, *args):
        return ledger_tamper(self, ledger, *args)

    def audit_votes(self, node):
        audit_datadir_clean(self, node.datadir, node.genesis_path)
        ledger = os.path.join(node.datadir, "ledger")
        key = "%08x" % 3
        good = self.tamper(ledger, "get", "votes", key)
        assert_true(len(good) == 2 * (38 + 132), "vote set of block 3: %s" % good)
        bad = good[:-2] + ("00" if good[-2:] != "00" else "01")
        self.tamper(ledger, "put", "votes", key, bad)
        j = run_audit(self, "replay", "--datadir", node.datadir, "--genesis", node.genesis_path,
                      expect=None)
        kinds = [(d["height"], d["what"]) for d in j["divergences"]]
        assert_true((3, "votes") in kinds, "audit of a changed vote signature: %r" % kinds)
        self.tamper(ledger, "put", "votes", key, good)
        final = self.tamper(ledger, "get", "meta", "final".encode().hex())
        h = int.from_bytes(bytes.fromhex(final[:8]), "little")
        tip = node_height = int(run_audit(self, "replay", "--datadir", node.datadir, "--genesis",
                                          node.genesis_path)["source_height"])
        # a final record no stored vote set supports: the tip's height (or,
        # when the tip is final already, as with one validator, another hash)
        if h != tip:
            moved = (tip).to_bytes(4, "little").hex() + final[8:]
        else:
            moved = final[:-2] + ("00" if final[-2:] != "00" else "01")
        self.tamper(ledger, "put", "meta", "final".encode().hex(), moved)
        j = run_audit(self, "replay", "--datadir", node.datadir, "--genesis", node.genesis_path,
                      expect=None)
        kinds = [d["what"] for d in j["divergences"]]
        assert_true("votes" in kinds, "audit of a final record moved from %d to the tip %d: %r"
                    % (h, node_height, kinds))
        self.tamper(ledger, "put", "meta", "final".encode().hex(), final)
        audit_datadir_clean(self, node.datadir, node.genesis_path)

    def run_test(self):
        self.single()
        alice = self.wallet_key("alice2")
        bob = self.wallet_key("bob2")
        nodes = start_network(self, 4, [(alice, 1000 * ZBC), (bob, 10 * ZBC)],
                              fund_account=self.wallet_key("apps-fund2"),
                              block_time_ms=200, smith_delay_ms=300)
        nodes[0].wait_for_height(5, timeout=60)
        wait_until(lambda: all(finalized(nd) >= 3 for nd in nodes), 60,
                   "finality on all four nodes")
        r = self.zbc("send", "--from", "alice2", bob, "3ZBC", "--fee", FEE, "--wait",
                     node=nodes[1])
        tx, h = r["transaction_hash"], r["block_height"]
        assert_equal(r["final"], True, "zbc send --wait returns once final")
        for nd in nodes:
            wait_until(lambda nd=nd: self.tx_status(tx, nd)[1].get("final") is True, 60,
                       "transfer final on node %d" % nd.index)
            j = self.tx_status(tx, nd)[1]
            assert_equal(j.get("block_height"), h, "block of the transfer on node %d" % nd.index)

        # one of four stopped: 3 of 4 still finalise
        nodes[3].stop()
        f0 = finalized(nodes[0])
        wait_until(lambda: all(finalized(nd) >= f0 + 5 for nd in nodes[:3]), 60,
                   "finality with three of four validators")
        # two of four stopped: blocks come, finality stops
        nodes[2].stop()
        time.sleep(2)  # votes in flight land
        f1 = finalized(nodes[0])
        h1 = nodes[0].height()
        nodes[0].wait_for_height(h1 + 5, timeout=60)
        time.sleep(1)
        assert_equal(finalized(nodes[0]), f1, "finalized height with two of four stopped")
        assert_equal(finalized(nodes[1]), f1, "finalized height on node 1 with two of four stopped")
        # the wallet: --wait (final) times out naming the inclusion, --wait=included does not
        r = self.zbc("send", "--from", "alice2", bob, "1ZBC", "--fee", FEE, "--wait",
                     "--wait-timeout", "3", node=nodes[0], expect=8)
        assert_true("not final" in r["error"], "timeout message: %s" % r["error"])
        r = self.zbc("send", "--from", "alice2", bob, "2ZBC", "--fee", FEE, "--wait=included",
                     node=nodes[0])
        assert_equal((r["status"], r.json.get("final")), ("confirmed", False),
                     "--wait=included with finality stopped")
        assert_equal(finalized(nodes[0]), f1, "finalized height after the transfers")
        # restarted: finality resumes
        nodes[2].start(self.genesis_path, nodes[2].run_args)
        nodes[3].start(self.genesis_path, nodes[3].run_args)
        wait_until(lambda: finalized(nodes[0]) >= f1 + 3, 90, "finality after the restart")
        self.log("final heights: %r" % [finalized(nd) for nd in nodes])


if __name__ == "__main__":
    Finality().main()
