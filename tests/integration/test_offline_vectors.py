#!/usr/bin/env python3
"""(d) `zbc --offline` reproduces every send-zbc vector of
tests/vectors/zoobc/transactions.json and every send-zbc and app-* vector of
transactions-all.json: body, unsigned bytes, digest, signature, transaction
bytes, hash, signing version, genesis hash and the submit payload."""
import json
import os

from framework import ZbcTest, TestFailure, assert_equal

VECTORS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "vectors", "zoobc")

APP_COMMANDS = {"app-create": "create", "app-join": "join", "app-move": "move",
                "app-resign": "resign", "app-claim": "claim"}


def command_line(v):
    """The zbc arguments that build vector v."""
    p = v["params"]
    cmd = v["command"]
    if cmd == "send-zbc":
        args = ["send", v["key"], p["recipient"], p["amount"]]
    elif cmd == "app-create":
        args = ["app", "create", v["key"], p["app_type"], p["stake_amount"], p["seats"],
                "--stake-token", p["stake_token"]]
        if p.get("params_hex"):
            args += ["--params-hex", p["params_hex"]]
        if p.get("opponent_hex"):
            args += ["--opponent", p["opponent_hex"]]
    elif cmd == "app-move":
        args = ["app", "move", v["key"], p["app_id"], p["move_hex"]]
    else:
        args = ["app", APP_COMMANDS[cmd], v["key"], p["app_id"]]
    args += ["--offline", "--fee", str(v["fee"]), "--timestamp", str(v["timestamp"]),
             "--genesis", v["genesis"]]
    if v.get("message") is not None:
        args += ["--message", v["message"]]
    e = v.get("escrow")
    if e is not None:
        args += ["--escrow-approver", e["approver"], "--escrow-commission", str(e["commission"]),
                 "--escrow-timeout", str(e["timeout"]), "--escrow-instruction", e["instruction"]]
    return args


class OfflineVectors(ZbcTest):
    def run_test(self):
        vectors = []
        for fname in ("transactions.json", "transactions-all.json"):
            with open(os.path.join(VECTORS, fname)) as f:
                for v in json.load(f)["vectors"]:
                    if v["command"] == "send-zbc" or v["command"] in APP_COMMANDS:
                        vectors.append((fname, v))
        # every app transaction type and the whole send-zbc core set
        names = {v["name"] for _, v in vectors}
        for want in ("send-zbc/plain", "send-zbc/escrow", "send-zbc/signing-v1",
                     "send-zbc/eth-recipient", "app-create/example", "app-move/example",
                     "app-join/example", "app-resign/example", "app-claim/example"):
            if want not in names:
                raise TestFailure("vector %s is missing from the files" % want)
        bad = []
        for fname, v in vectors:
            r = self.zbc(*command_line(v), expect=None)
            if r.code != 0:
                bad.append("%s/%s: exit %d: %s" % (fname, v["name"], r.code, r.stderr.strip()))
                continue
            exp = v["expected"]
            for k in ("body", "unsigned_bytes", "digest", "signature", "transaction_bytes",
                      "transaction_hash", "signing_version", "payload"):
                if r[k] != exp[k]:
                    bad.append("%s/%s: %s\n  got  %r\n  want %r" % (fname, v["name"], k, r[k], exp[k]))
            if exp["signing_version"] == 2:
                if r.json.get("genesis_hash") != v["genesis"]:
                    bad.append("%s: genesis_hash %r" % (v["name"], r.json.get("genesis_hash")))
            elif "genesis_hash" in r.json:
                bad.append("%s: genesis_hash printed for signing version 1" % v["name"])
            for k, want in (("fee", v["fee"]), ("timestamp", v["timestamp"]),
                            ("transaction_type", v["type"]), ("offline", True),
                            ("sender_account_address", exp["payload"]["sender_account_address"]),
                            ("recipient_account_address", exp["payload"]["recipient_account_address"])):
                if r.json.get(k) != want:
                    bad.append("%s: %s = %r, want %r" % (v["name"], k, r.json.get(k), want))
            if v.get("message") is not None and r.json.get("message") != v["message"]:
                bad.append("%s: message %r" % (v["name"], r.json.get("message")))
        self.log("checked %d vectors" % len(vectors))
        if bad:
            raise TestFailure("%d mismatches:\n%s" % (len(bad), "\n".join(bad)))
        # the same without --json: human text, exit 0, the hash on a line
        r = self.zbc(*command_line(vectors[0][1]), json_out=False)
        assert_equal(r.code, 0, "human output exit code")
        if vectors[0][1]["expected"]["transaction_hash"] not in r.stdout:
            raise TestFailure("human output lacks the transaction hash:\n%s" % r.stdout)
        # --offline without a genesis is a usage error, and ZOOBC_GENESIS_HASH supplies one
        v = vectors[0][1]
        args = [a for a in command_line(v)]
        i = args.index("--genesis")
        del args[i:i + 2]
        r = self.zbc(*args, expect=2)
        r = self.zbc(*args, env={"ZOOBC_GENESIS_HASH": v["genesis"]})
        assert_equal(r["transaction_hash"], v["expected"]["transaction_hash"], "hash via env genesis")
        # ZBC_KEY supplies the key ("-" or omitted)
        args2 = list(args)
        args2[1] = "-"
        r = self.zbc(*args2, env={"ZOOBC_GENESIS_HASH": v["genesis"], "ZBC_KEY": v["key"]})
        assert_equal(r["transaction_hash"], v["expected"]["transaction_hash"], "hash via ZBC_KEY")
        del args2[1]
        r = self.zbc(*args2, env={"ZOOBC_GENESIS_HASH": v["genesis"], "ZBC_KEY": v["key"]})
        assert_equal(r["transaction_hash"], v["expected"]["transaction_hash"], "hash via ZBC_KEY")


if __name__ == "__main__":
    OfflineVectors().main()
