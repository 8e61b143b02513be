#!/usr/bin/env python3
"""Generates fair.json: solo-bet outcomes computed the way the casino
industry publishes its provably-fair verifier (floats from HMAC-SHA256,
float = sum(byte_i / 256^(i+1))), independently of the C code, with
Python's standard library only.  Run: python3 gen_fair.py > fair.json"""
import hashlib
import hmac
import json

RED = {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}


def floats(server_seed, client_seed, nonce, count):
    out, cursor = [], 0
    while len(out) < count:
        msg = f"{client_seed}:{nonce}:{cursor}".encode()
        block = hmac.new(server_seed.encode(), msg, hashlib.sha256).digest()
        for i in range(0, 32, 4):
            b = block[i:i + 4]
            out.append(sum(b[j] / 256 ** (j + 1) for j in range(4)))
        cursor += 1
    return out[:count]


def dice(f, stake, direction, target):
    roll = int(f * 10001)  # published: Math.floor(float * 10001)
    win = roll < target if direction == 0 else roll > target
    w = target if direction == 0 else 10000 - target
    return roll, win, (stake * 99 * 10001) // (100 * w) if win else 0


def coin(f, stake, side):
    v = 0 if f < 0.5 else 1
    return v, v == side, stake * 198 // 100 if v == side else 0


def roulette(f, stake, kind, number):
    p = int(f * 37)
    wins = {
        0: p == number, 1: p in RED, 2: p != 0 and p not in RED,
        3: p != 0 and p % 2 == 1, 4: p != 0 and p % 2 == 0,
        5: 1 <= p <= 18, 6: 19 <= p <= 36,
        7: p != 0 and (p - 1) // 12 + 1 == number,
        8: p != 0 and (p - 1) % 3 + 1 == number,
    }[kind]
    mult = 36 if kind == 0 else 3 if kind in (7, 8) else 2
    return p, wins, stake * mult if wins else 0


def limbo(f, stake, target):
    # result = floor(99 * 2^32 / (u + 256)) hundredths, u = f * 2^32;
    # computed here from the float with exact rationals.
    from fractions import Fraction
    u = Fraction(f) * 2 ** 32
    result = int(Fraction(99 * 2 ** 32) / (u + 256))
    win = result >= target
    return result, win, stake * target // 100 if win else 0


def main():
    vectors = []
    server_seeds = [
        hashlib.sha3_256(bytes([i])).hexdigest() for i in range(6)
    ]
    client_seeds = ["", "lucky", "player-seed-42", "x" * 64]
    n = 0
    for ss in server_seeds:
        for cs in client_seeds:
            for nonce in (0, 1, 7, 123456789, 18446744073709551615):
                n += 1
                f = floats(ss, cs, nonce, 9)
                stake = 100000000 + n * 7919
                u = int(f[0] * 2 ** 32)
                games = []
                d, t = n % 2, 1 + (n * 977) % 9999
                games.append({"game": 16, "params": {"direction": d, "target": t},
                              **dict(zip(("value", "win", "returns"), dice(f[0], stake, d, t)))})
                s = n % 2
                games.append({"game": 17, "params": {"side": s},
                              **dict(zip(("value", "win", "returns"), coin(f[0], stake, s)))})
                k = n % 9
                num = (n % 37) if k == 0 else (1 + n % 3) if k in (7, 8) else 0
                games.append({"game": 18, "params": {"kind": k, "number": num},
                              **dict(zip(("value", "win", "returns"), roulette(f[0], stake, k, num)))})
                lt = 101 + (n * 131) % 1000
                games.append({"game": 22, "params": {"target": lt},
                              **dict(zip(("value", "win", "returns"), limbo(f[0], stake, lt)))})
                vectors.append({
                    "server_seed": ss, "client_seed": cs, "nonce": str(nonce),
                    "stake": stake, "u": [int(x * 2 ** 32) for x in f], "games": games,
                })
    print(json.dumps({"description": __doc__, "vectors": vectors}, indent=1))


if __name__ == "__main__":
    main()
