#!/usr/bin/env python3
"""Derives the payout tables of apps/fair_pay.c (docs/games.md, "Payout tables"):

    python3 tests/tools/fair_tables.py              # prints the C tables
    python3 tests/tools/fair_tables.py --markdown   # the tables of docs/games.md
    python3 tests/tools/fair_tables.py --check ROOT # the C tables of ROOT/apps equal these,
                                                    # and blackjack's exact RTP is 99 %

Multipliers are in ten-thousandths of the stake.  Each table has a shape (below), is
scaled so its RTP is 99 % (keno: tiers that would pay more than the table's cap pay the
cap and the others are scaled up), rounded to hundredths, and then one tier (plinko: the middle
slot(s); keno: the lowest paying hit count) is set to the largest ten-thousandth that keeps
the exact RTP at most 99 %; tests/apps/test_fair_pay.c recomputes every exact RTP.
Python standard library only; exact rational arithmetic (fractions)."""
import os
import re
import sys
from fractions import Fraction as F
from functools import lru_cache
from math import comb

PLINKO_RATIO = {0: F(122, 100), 1: F(135, 100), 2: F(150, 100)}   # low, medium, high
KENO_RATIO = {0: 4, 1: 10}                                          # classic, high
KENO_CAP = {0: 1000, 1: 10000}  # the largest multiplier of a keno table


def plinko(rows, risk):
    total = 2 ** rows
    r = PLINKO_RATIO[risk]
    shape = [r ** abs(2 * s - rows) for s in range(rows + 1)]
    ev = sum(comb(rows, s) * w for s, w in enumerate(shape)) / total
    c = F(99, 100) / ev
    mult = [round(c * w * 100) * 100 for w in shape]
    mid = [rows // 2] if rows % 2 == 0 else [rows // 2, rows // 2 + 1]
    rest = sum(comb(rows, s) * m for s, m in enumerate(mult) if s not in mid)
    weight = sum(comb(rows, s) for s in mid)
    m = (9900 * total - rest) // weight
    for s in mid:
        mult[s] = m
    return mult


def keno_threshold(picks, risk):
    if risk == 0:
        return (picks + 1) // 2
    return max(1, picks - picks // 3)


def keno(picks, risk):
    total = comb(40, 10)
    p = [comb(picks, h) * comb(40 - picks, 10 - h) for h in range(picks + 1)]
    t = keno_threshold(picks, risk)
    shape = [0 if h < t else F(KENO_RATIO[risk]) ** (h - t) for h in range(picks + 1)]
    capped = set()
    while True:  # scale the shape; tiers above the cap pay the cap
        fixed = sum(p[h] * KENO_CAP[risk] for h in capped)
        ev = sum(p[h] * shape[h] for h in range(picks + 1) if h not in capped)
        c = (F(99, 100) * total - fixed) / ev
        over = {h for h in range(picks + 1) if h not in capped and c * shape[h] > KENO_CAP[risk]}
        if not over:
            break
        capped |= over
    mult = [KENO_CAP[risk] * 10000 if h in capped else round(c * w * 100) * 100
            for h, w in enumerate(shape)]
    rest = sum(p[h] * mult[h] for h in range(picks + 1) if h != t)
    mult[t] = (9900 * total - rest) // p[t]
    return mult


def bac_value(rank):  # rank 0 = "2" ... 8 = "10", 9 J, 10 Q, 11 K, 12 A
    return 1 if rank == 12 else 0 if rank >= 8 else rank + 2


def baccarat_counts():
    """Weights of player win, banker win and tie over 13^6 equally likely rank draws."""
    win = {"player": 0, "banker": 0, "tie": 0}
    for p1 in range(13):
        for b1 in range(13):
            for p2 in range(13):
                for b2 in range(13):
                    p = (bac_value(p1) + bac_value(p2)) % 10
                    b = (bac_value(b1) + bac_value(b2)) % 10
                    outcomes = []  # (p, b, weight out of 13^2)
                    if p >= 8 or b >= 8:
                        outcomes.append((p, b, 169))
                    elif p <= 5:
                        for p3 in range(13):
                            t = bac_value(p3)
                            pp = (p + t) % 10
                            draw = (b <= 2 or (b == 3 and t != 8) or (b == 4 and 2 <= t <= 7)
                                    or (b == 5 and 4 <= t <= 7) or (b == 6 and 6 <= t <= 7))
                            if draw:
                                for b3 in range(13):
                                    outcomes.append((pp, (b + bac_value(b3)) % 10, 1))
                            else:
                                outcomes.append((pp, b, 13))
                    elif b <= 5:
                        for b3 in range(13):
                            outcomes.append((p, (b + bac_value(b3)) % 10, 13))
                    else:
                        outcomes.append((p, b, 169))
                    for pp, bb, w in outcomes:
                        win["player" if pp > bb else "banker" if bb > pp else "tie"] += w
    return win


# ---- blackjack: infinite deck (cards drawn with replacement, as the event function draws
# them), dealer stands on soft 17, no hole card before the player stands (a dealer
# blackjack takes every stake of the round, doubles and splits included, and pushes a
# player blackjack), double on any first two cards and after a split, one split of two
# cards of the same rank (split aces take one card each), no surrender or insurance.
THIRTEENTH = F(1, 13)
BJ_VALUES = [2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 11]  # by rank, ace 11


def add(total, soft, v):
    """(total, soft) after a card of value v (ace = 11): soft = an ace counted as 11."""
    total += v
    soft = soft + (1 if v == 11 else 0)
    while total > 21 and soft:
        total -= 10
        soft -= 1
    return total, soft


@lru_cache(maxsize=None)
def dealer_from(total, soft):
    """Final distribution of the dealer from (total, soft) after two cards; stands on 17+
    (soft 17 included)."""
    if total > 21:
        return {"bust": F(1)}
    if total >= 17:
        return {total: F(1)}
    out = {}
    for v in BJ_VALUES:
        for k, p in dealer_from(*add(total, soft, v)).items():
            out[k] = out.get(k, 0) + p * THIRTEENTH
    return out


def dealer(up):
    out = {}
    t0, s0 = add(0, 0, up)
    for v in BJ_VALUES:
        t, s = add(t0, s0, v)
        dist = {"bj": F(1)} if t == 21 else dealer_from(t, s)
        for k, p in dist.items():
            out[k] = out.get(k, 0) + p * THIRTEENTH
    return out


def ev_hand(up, natural_return):
    """Expected net result of one round per unit of initial stake, optimal play."""
    D = dealer(up)

    def stand(t):
        if t > 21:
            return F(-1)
        r = F(0)
        for k, p in D.items():
            if k == "bj":
                r -= p
            elif k == "bust" or k < t:
                r += p
            elif k > t:
                r -= p
        return r

    @lru_cache(maxsize=None)
    def best(t, s):
        if t > 21:
            return F(-1)
        return max(stand(t), hit(t, s))

    def hit(t, s):
        return sum(best(*add(t, s, v)) for v in BJ_VALUES) * THIRTEENTH

    def double(t, s):
        return 2 * sum(stand(add(t, s, v)[0]) for v in BJ_VALUES) * THIRTEENTH

    total = F(0)
    for a in range(13):
        for b in range(13):
            va, vb = BJ_VALUES[a], BJ_VALUES[b]
            t, s = add(*add(0, 0, va), vb)
            if t == 21:  # natural: paid unless the dealer has one too (push)
                e = (1 - D.get("bj", 0)) * (natural_return - 1)
            else:
                e = max(best(t, s), double(t, s))
                if a == b:  # split once
                    if va == 11:  # aces: one card each
                        one = sum(stand(add(11, 1, v)[0]) for v in BJ_VALUES) * THIRTEENTH
                    else:
                        one = sum(max(best(*add(va, 0, v)), double(*add(va, 0, v)))
                                  for v in BJ_VALUES) * THIRTEENTH
                    e = max(e, 2 * one)
            total += e
    return total / 169


def blackjack_rtp(natural_return):
    """Exact RTP per unit of initial stake under the rules of docs/games.md (optimal play)."""
    return 1 + sum(ev_hand(BJ_VALUES[u], natural_return) for u in range(13)) * THIRTEENTH



def blackjack_natural():
    """The natural's return (ten-thousandths) that brings the RTP closest to 99 % from below:
    the RTP is linear in it."""
    r_hi, r_lo = blackjack_rtp(F(5, 2)), blackjack_rtp(F(2))
    m = F(5, 2) + (F(99, 100) - r_hi) * (F(5, 2) - 2) / (r_hi - r_lo)
    return int(m * 10000)


# (name, C dimensions, risks, sizes (rows or picks), multipliers(size, risk))
TABLES = [("plinko", "[3][9][17]", range(3), range(8, 17), plinko),
          ("keno", "[2][10][11]", range(2), range(1, 11), keno)]


def c_row(mults):
    return "{" + ", ".join(str(m) for m in mults) + "}"


def check(root):
    """The C tables equal the derivation, and blackjack's natural gives 99 % ± 0.01 %."""
    failures = 0
    with open(os.path.join(root, "apps", "fair_pay.c"), encoding="utf-8") as f:
        c_src = f.read()
    with open(os.path.join(root, "apps", "fair_pay.h"), encoding="utf-8") as f:
        h_src = f.read()
    for name, _, risks, sizes, fn in TABLES:
        for risk in risks:
            for x in sizes:
                if c_row(fn(x, risk)) not in c_src:
                    print(f"FAIL {name} {x} risk {risk}: {c_row(fn(x, risk))} not in apps/fair_pay.c")
                    failures += 1
    m = re.search(r"#define ZBC_BLACKJACK_NATURAL (\d+)u", h_src)
    natural = int(m.group(1)) if m else 0
    rtp = blackjack_rtp(F(natural, 10000))
    print(f"blackjack: natural returns {natural / 10000}x, exact RTP {float(rtp) * 100:.5f} %; "
          f"with 3:2 (2.5x) {float(blackjack_rtp(F(5, 2))) * 100:.5f} %")
    if abs(rtp - F(99, 100)) > F(1, 10000):
        print("FAIL blackjack RTP")
        failures += 1
    if natural != blackjack_natural():
        print(f"FAIL blackjack natural {natural}, derivation says {blackjack_natural()}")
        failures += 1
    print("fair_tables:", "ok" if failures == 0 else f"{failures} failed")
    return 1 if failures else 0


def main():
    print("/* generated by tests/tools/fair_tables.py */")
    for name, decl, risks, sizes, fn in TABLES:
        print(f"static const uint32_t {name.upper()}{decl} = {{")
        for risk in risks:
            print("    {")
            for x in sizes:
                print("        " + c_row(fn(x, risk)) + ",")
            print("    },")
        print("};")
    w = baccarat_counts()
    total = 13 ** 6
    assert sum(w.values()) == total
    print(f"/* baccarat weights of 13^6: player {w['player']}, banker {w['banker']}, tie {w['tie']} */")
    mp = (9900 * total - 10000 * w["tie"]) // w["player"]
    mb = (9900 * total - 10000 * w["tie"]) // w["banker"]
    mt = 9900 * total // w["tie"]
    print(f"static const uint32_t BACCARAT[3] = {{{mp}, {mb}, {mt}}};")


def x(m):
    return f"{m // 10000}.{m % 10000:04d}".rstrip("0").rstrip(".") if m % 100 else f"{m // 10000}.{m % 10000 // 100:02d}"


def rtp_text(num, den):
    return f"{F(num, den) * 100:.6f}".rstrip("0") if False else f"{float(F(num, den) * 100):.5f} %"


def markdown():
    for risk, name in enumerate(["low", "medium", "high"]):
        print(f"Plinko, {name} risk (slot 0 … R; symmetric, so slots 0 … R/2 are listed):\n")
        print("| rows | multipliers from the edge slot to the middle | exact RTP |")
        print("|---|---|---|")
        for rows in range(8, 17):
            m = plinko(rows, risk)
            rtp = sum(comb(rows, s) * v for s, v in enumerate(m))
            print(f"| {rows} | " + " · ".join(x(v) for v in m[:rows // 2 + 1]) +
                  f" | {rtp_text(rtp, 10000 * 2 ** rows)} |")
        print()
    for risk, name in enumerate(["classic", "high"]):
        print(f"Keno, {name} risk (multiplier by hits 0 … picks; 0 = nothing back):\n")
        print("| picks | by hits 0, 1, 2, … | exact RTP |")
        print("|---|---|---|")
        for n in range(1, 11):
            m = keno(n, risk)
            rtp = sum(comb(n, h) * comb(40 - n, 10 - h) * v for h, v in enumerate(m))
            print(f"| {n} | " + " · ".join(x(v) for v in m) +
                  f" | {rtp_text(rtp, 10000 * comb(40, 10))} |")
        print()
    w = baccarat_counts()
    total = 13 ** 6
    print("Baccarat:", w, total)


if __name__ == "__main__":
    if sys.argv[1:] == ["--markdown"]:
        markdown()
    elif sys.argv[1:2] == ["--check"]:
        sys.exit(check(sys.argv[2] if len(sys.argv) > 2 else "."))
    else:
        main()
