#!/usr/bin/env python3
"""Independent vectors for the provably-fair catalogue's event functions.

Written from the text of docs/games.md "Provably-fair catalogue: event functions"
(the product specification's section 6b), NOT from the C code in apps/fair_events.c,
with the Python standard library only.  Writes tests/vectors/fair_catalogue.json:

    python3 tests/tools/fair_catalogue.py [OUT.json]

Every case names the game, its parameters, the seeds and nonce, the floats used (as u32)
and the event a stock verifier of the catalogue prints.  tests/apps/test_fair_events.c
checks each one against the C event functions and tests/apps/engine_cli_test.py against
`zbc-engine fair GAME`."""
import hashlib
import hmac
import json
import sys

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS_BLACKJACK = "\u2666\u2665\u2660\u2663"  # diamonds hearts spades clubs
SUITS_BACCARAT = "\u2660\u2665\u2666\u2663"   # spades hearts diamonds clubs
SUITS_BLITZ = "\u2660\u2665\u2663\u2666"      # spades hearts clubs diamonds
TOWER = {  # difficulty: (columns, safe count)
    "easy": (4, 3), "medium": (3, 2), "hard": (2, 1), "expert": (3, 1), "master": (4, 1),
}
TOWER_ROWS = 9


class Stream:
    """float k = bytes 4(k mod 8) .. 4(k mod 8)+3 of
    HMAC_SHA256(key = server_seed, msg = client_seed ":" nonce ":" floor(k/8)),
    read big-endian."""

    def __init__(self, server, client, nonce):
        self.server, self.client, self.nonce = server, client, nonce
        self.used = []

    def u(self, k):
        msg = f"{self.client}:{self.nonce}:{k // 8}".encode()
        digest = hmac.new(self.server.encode(), msg, hashlib.sha256).digest()
        off = 4 * (k % 8)
        v = int.from_bytes(digest[off:off + 4], "big")
        while len(self.used) <= k:
            self.used.append(None)
        self.used[k] = v
        return v


def floor_n(u, n):
    return (u * n) >> 32


def ceil_n(u, n):
    return (u * n + 2**32 - 1) >> 32


def push_past(values):
    drawn = []
    for v in values:
        x = v
        j = 0
        while j <= x:
            if j in drawn:
                x += 1
            j += 1
        drawn.append(x)
    return drawn


def card_name(index, suits):
    return RANKS[index // 4] + suits[index % 4]


def plinko(s, rows):
    dirs = [floor_n(s.u(i), 2) for i in range(rows)]
    return {"path": dirs, "slot": sum(dirs)}


def keno(s, picks):
    squares = push_past([ceil_n(s.u(i), 40 - i) for i in range(10)])
    return {"squares": squares, "hits": len(set(squares) & set(picks))}


def mines(s, tiles, count):
    return {"mines": push_past([floor_n(s.u(i), tiles - i) for i in range(count)])}


def tower(s, difficulty):
    cols, safe = TOWER[difficulty]
    rows = []
    for r in range(TOWER_ROWS):
        values = list(range(cols))
        taken = []
        for j in range(safe):
            p = floor_n(s.u(r * safe + j), cols - j)
            taken.append(values.pop(p))
        rows.append(taken)
    return {"rows": rows}


def wheel(s, segments):
    return {"segment": floor_n(s.u(0), segments)}


def cards(s, count, suits):
    idx = [floor_n(s.u(k), 52) for k in range(count)]
    return {"cards": idx, "names": [card_name(i, suits) for i in idx]}


def bac_value(index):
    rank = index // 4  # 0 = "2" ... 8 = "10", 9 J, 10 Q, 11 K, 12 A
    if rank == 12:
        return 1
    if rank >= 8:
        return 0
    return rank + 2


def baccarat(s):
    card = [floor_n(s.u(k), 52) for k in range(4)]
    player = [card[0], card[2]]
    banker = [card[1], card[3]]

    def total(hand):
        return sum(bac_value(c) for c in hand) % 10

    p, b = total(player), total(banker)
    player_drew = banker_drew = False
    if p < 8 and b < 8:
        third = None
        if p <= 5:
            third = floor_n(s.u(4), 52)
            player.append(third)
            player_drew = True
        if third is None:
            draw = b <= 5
        else:
            t = bac_value(third)
            draw = (b <= 2 or (b == 3 and t != 8) or (b == 4 and 2 <= t <= 7) or
                    (b == 5 and 4 <= t <= 7) or (b == 6 and 6 <= t <= 7))
        if draw:
            banker.append(floor_n(s.u(5 if player_drew else 4), 52))
            banker_drew = True
    p, b = total(player), total(banker)
    return {"player": player, "banker": banker,
            "player_names": [card_name(c, SUITS_BACCARAT) for c in player],
            "banker_names": [card_name(c, SUITS_BACCARAT) for c in banker],
            "player_total": p, "banker_total": b,
            "player_drew": player_drew, "banker_drew": banker_drew,
            "winner": "player" if p > b else "banker" if b > p else "tie"}


def blitz(s, k):
    idx = [floor_n(s.u(i), 52) for i in range(k)]
    return {"cards": idx, "names": [card_name(i, SUITS_BLITZ) for i in idx],
            "all_differ": len(set(idx)) == k}


def crash(s):
    return {"crash": (99 * 2**32) // (s.u(0) + 256)}


SERVERS = [hashlib.sha256(f"zbc fair catalogue {i}".encode()).hexdigest() for i in range(3)]
CLIENTS = ["", "hello", "lucky-7 client seed, 64 chars at most: ABCDEFGHIJKLMNOPQRSTUVW"]


def seeds():
    for si, server in enumerate(SERVERS):
        for ci, client in enumerate(CLIENTS):
            yield server, client, 1 + 1000 * si + 17 * ci


def case(game, params, server, client, nonce, fn):
    s = Stream(server, client, nonce)
    event = fn(s)
    return {"game": game, "params": params, "server_seed": server, "client_seed": client,
            "nonce": nonce, "floats_u32": s.used, "event": event}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "tests/vectors/fair_catalogue.json"
    cases = []
    for server, client, nonce in seeds():
        for rows in (8, 12, 16):
            cases.append(case("plinko", {"rows": rows}, server, client, nonce,
                              lambda s, r=rows: plinko(s, r)))
        for picks in ([7], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [3, 9, 14, 20, 22, 27, 31, 35, 38, 40]):
            cases.append(case("keno", {"picks": picks}, server, client, nonce,
                              lambda s, p=picks: keno(s, p)))
        for m in (1, 3, 24):
            cases.append(case("mines", {"mines": m}, server, client, nonce,
                              lambda s, m=m: mines(s, 25, m)))
        for d in TOWER:
            cases.append(case("tower", {"difficulty": d}, server, client, nonce,
                              lambda s, d=d: tower(s, d)))
        for n in (10, 50):
            cases.append(case("wheel", {"segments": n}, server, client, nonce,
                              lambda s, n=n: wheel(s, n)))
        for g, suits in (("blackjack", SUITS_BLACKJACK), ("hilo", SUITS_BLACKJACK)):
            cases.append(case(g, {"cards": 12}, server, client, nonce,
                              lambda s, suits=suits: cards(s, 12, suits)))
        cases.append(case("baccarat", {}, server, client, nonce, baccarat))
        for k in (2, 8):
            cases.append(case("blitz", {"cards": k}, server, client, nonce,
                              lambda s, k=k: blitz(s, k)))
        cases.append(case("crash", {}, server, client, nonce, crash))
    # mines with fewer tiles (a reveal after k safe tiles uses T = 25 - k)
    for tiles, m in ((24, 1), (10, 9), (2, 1)):
        cases.append(case("mines", {"mines": m, "tiles": tiles}, SERVERS[0], "hello", 7,
                          lambda s, t=tiles, m=m: mines(s, t, m)))
    # baccarat: every third-card path (naturals, player stands, player draws,
    # banker draws and stands after each) from the first nonces that show it
    wanted = {(False, False), (False, True), (True, False), (True, True)}
    seen = set()
    nonce = 0
    while seen != wanted or nonce < 40:
        c = case("baccarat", {}, SERVERS[1], "baccarat", nonce, baccarat)
        key = (c["event"]["player_drew"], c["event"]["banker_drew"])
        if key not in seen or nonce < 40:
            seen.add(key)
            cases.append(c)
        nonce += 1
    # a blitz with a repeated card, and the longest blitz hand
    nonce = 0
    while True:
        c = case("blitz", {"cards": 8}, SERVERS[2], "blitz", nonce, lambda s: blitz(s, 8))
        if not c["event"]["all_differ"]:
            cases.append(c)
            break
        nonce += 1
    cases.append(case("blitz", {"cards": 16}, SERVERS[2], "blitz", 5, lambda s: blitz(s, 16)))
    # every plinko row count once
    for rows in range(8, 17):
        cases.append(case("plinko", {"rows": rows}, SERVERS[2], "rows", rows,
                          lambda s, r=rows: plinko(s, r)))
    for n in (20, 30, 40):
        cases.append(case("wheel", {"segments": n}, SERVERS[2], "wheel", n,
                          lambda s, n=n: wheel(s, n)))
    doc = {"about": "provably-fair catalogue event vectors (tests/tools/fair_catalogue.py, "
                    "written from docs/games.md, not from the C code)",
           "cases": cases}
    with open(out, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"{out}: {len(cases)} cases")


if __name__ == "__main__":
    main()
