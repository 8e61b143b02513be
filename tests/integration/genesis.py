"""Writes genesis files for tests and for scripts/devnet (one generator for both).

The format is the chain's (consensus/genesis.h, docs/protocol-chain.md): a
JSON object with chain_name, genesis_time (ms), block_time_ms,
smith_delay_ms, validators (node public keys, hex), fund_account,
fund_balance, balances [{address, amount}], min_fee_base,
min_fee_per_byte, move_deadline, rake_bps, open_deadline.

Usable as a module (make_genesis / write_genesis) or from the shell:

    python3 tests/integration/genesis.py --out G.json --validator HEX \
        --fund ZBC_... [--balance ADDR=UNITS ...] [--block-time-ms 1000]
        [--move-deadline BLOCKS] [--rake-bps BPS]
"""
import argparse
import json
import sys
import time

ZBC = 100_000_000

DEFAULTS = {
    "chain_name": "zbc-devnet",
    "block_time_ms": 1000,
    "smith_delay_ms": 1000,
    "fund_balance": 1_000_000 * ZBC,
    "min_fee_base": 100_000,
    "min_fee_per_byte": 1_000,
    "move_deadline": 240,
    "rake_bps": 100,
    "open_deadline": 5760,
}


def make_genesis(validators, fund_account, balances, genesis_time_ms=None, **over):
    """validators: list of node public keys (hex); balances: list of
    (address text, units); returns the genesis object."""
    g = dict(DEFAULTS)
    g.update(over)
    if genesis_time_ms is None:
        genesis_time_ms = int(time.time() * 1000)
    g["genesis_time"] = int(genesis_time_ms)
    g["validators"] = list(validators)
    g["fund_account"] = fund_account
    g["balances"] = [{"address": a, "amount": int(n)} for a, n in balances]
    return g


def write_genesis(path, genesis):
    with open(path, "w") as f:
        json.dump(genesis, f, indent=2, sort_keys=True)
        f.write("\n")


def main():
    ap = argparse.ArgumentParser(description="write a genesis file")
    ap.add_argument("--out", required=True)
    ap.add_argument("--validator", action="append", required=True, help="node public key hex")
    ap.add_argument("--fund", required=True, help="apps fund account address")
    ap.add_argument("--fund-balance", type=int, default=DEFAULTS["fund_balance"])
    ap.add_argument("--balance", action="append", default=[], help="ADDRESS=UNITS")
    ap.add_argument("--block-time-ms", type=int, default=DEFAULTS["block_time_ms"])
    ap.add_argument("--smith-delay-ms", type=int, default=DEFAULTS["smith_delay_ms"],
                    help="how long after rank k's slot rank k+1 may publish")
    ap.add_argument("--move-deadline", type=int, help="blocks (default %d)" % DEFAULTS["move_deadline"])
    ap.add_argument("--rake-bps", type=int, help="basis points (default %d)" % DEFAULTS["rake_bps"])
    ap.add_argument("--chain-name", default=DEFAULTS["chain_name"])
    ap.add_argument("--open-deadline", type=int, default=DEFAULTS["open_deadline"],
                    help="blocks after which an Open app nobody filled expires")
    a = ap.parse_args()
    if a.smith_delay_ms < 1 or a.block_time_ms < 1:
        ap.error("--block-time-ms and --smith-delay-ms take milliseconds of 1 or more")
    bal = []
    for b in a.balance:
        addr, _, n = b.partition("=")
        bal.append((addr, int(n)))
    g = make_genesis(a.validator, a.fund, bal, fund_balance=a.fund_balance,
                     block_time_ms=a.block_time_ms, smith_delay_ms=a.smith_delay_ms,
                     chain_name=a.chain_name,
                     open_deadline=a.open_deadline)
    for k in ("move_deadline", "rake_bps"):
        if getattr(a, k) is not None:
            g[k] = getattr(a, k)
    write_genesis(a.out, g)
    return 0


if __name__ == "__main__":
    sys.exit(main())
