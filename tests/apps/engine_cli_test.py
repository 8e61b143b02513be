#!/usr/bin/env python3
"""End-to-end test of the zbc-engine tool.

Usage: python3 tests/apps/engine_cli_test.py BUILD_DIR/node/engine/zbc-engine

Expected values come from published perft tables and from an independent
HMAC-SHA256 computation here (Python standard library only)."""
import hashlib
import hmac
import json
import os
import subprocess
import sys

ZBC = sys.argv[1] if len(sys.argv) > 1 else "build/node/engine/zbc-engine"
failures = 0


def run(*args):
    p = subprocess.run([ZBC, *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", what)


def js(*args):
    rc, out, err = run(*args, "--json")
    check(rc == 0, f"{args}: exit {rc} {out} {err}")
    return json.loads(out)


def test_list():
    games = {g["name"]: g for g in js("list")}
    for name, code in [("tictactoe", 1), ("connect4", 3), ("reversi", 5),
                       ("gomoku", 6), ("dots", 8)]:
        check(games.get(name, {}).get("type") == code, f"list {name}")
    check(games["dots"]["max_seats"] == 4, "dots seats")
    rc, out, _ = run("list")
    check(rc == 0 and "  5  reversi     seats 2-2" in out, "list text")


def test_perft():
    want = [4, 12, 56, 244, 1396, 8200, 55092, 390216]
    check(js("perft", "reversi", "8")["counts"] == want, "reversi perft 8")
    # through a forced pass (after white's h1 black cannot move); counts
    # from an independent Python implementation, a pass being one ply
    pos = js("play", "reversi", *"e6 d6 c4 d3 c7 b5 d2 e2 f2 f1 b3 d7 d8 g2 "
             "h2 h3 a6".split())["state"]
    check(js("perft", "reversi", "5", "--state", pos)["counts"] ==
          [3, 8, 20, 64, 326], "reversi perft through a pass")
    ttt = [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]
    rc, out, _ = run("perft", "tictactoe", "9")
    check(rc == 0 and out.split("\n")[:9] ==
          [f"{i + 1} {n}" for i, n in enumerate(ttt)], "tictactoe perft text")
    games = {g["name"] for g in js("list")}
    if "chess" in games:
        check(js("perft", "chess", "3")["counts"] == [20, 400, 8902],
              "chess perft 3")
        kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1"
        rc, _, _ = run("perft", "chess", "1", "--fen", kiwipete)
        check(rc == 0, "chess --fen")
    rc, _, err = run("perft", "reversi", "0")
    check(rc == 2 and "DEPTH" in err, "perft depth 0 is usage")
    rc, _, _ = run("perft", "reversi", "2", "--fen", "8/8/8/8/8/8/8/8 w - -")
    check(rc == 2, "--fen for reversi is usage")
    rc, _, err = run("perft", "nosuchgame", "2")
    check(rc == 2 and "unknown game" in err, "unknown game")


def test_play_render():
    rc, out, _ = run("play", "tictactoe", "5", "1", "a3", "c3", "3")
    check(rc == 0 and "result: seat 0 (X) wins" in out, "play text")
    check("\nturn: nobody\nresult: seat 0 wins\nstate: 0002000100010001000202\n"
          in out, "play status lines")
    j = js("play", "tictactoe", "--first", "1", "5", "1", "a3", "c3", "3")
    check(j["result"] == {"kind": "win", "winner": 1, "out_mask": 0},
          "play result json")
    check(j["turn"] is None and j["board"]["rows"] == ["O.X", ".X.", "X.O"],
          "play board json")
    r = js("render", "tictactoe", "--state", j["state"])
    check(r["board"] == j["board"], "render --state round trip")
    rc, out, err = run("play", "tictactoe", "5", "5")
    check(rc == 1 and "illegal move 2 '5' by seat 1: illegal move: square 5 "
          "is taken by X" in err, f"illegal move exit 1: {err}")
    rc, out, _ = run("play", "tictactoe", "5", "1", "a3", "c3", "3", "2",
                     "--json")
    check(rc == 1 and json.loads(out)["error"].endswith("the game is over"),
          "move after the end")
    rc, _, _ = run("play", "tictactoe", "--bogus")
    check(rc == 2, "unknown option is usage")
    j = js("play", "dots", "--seats", "3", "--params", "width=2,height=3",
           "h 0 0", "v 0 0", "h 1 0", "v 0 1")
    check(j["board"]["width"] == 2 and j["board"]["height"] == 3, "dots k=v")
    check(j["board"]["scores"] == [1, 0, 0] and j["turn"] == 0,
          "dots box grants another move")
    j2 = js("play", "dots", "--seats", "3", "--params", "0203",
            "h 0 0", "v 0 0", "h 1 0", "v 0 1")
    check(j2["state"] == j["state"], "dots hex params equal k=v params")
    j3 = js("play", "dots", "--seats", "3", "--params", "size=2x3",
            "h 0 0", "v 0 0", "h 1 0", "v 0 1")
    check(j3["state"] == j["state"], "dots size=WxH equals width=,height=")
    # usage errors in the start options exit 2, as the JSON error says
    for args in (("--params", "depth=3"), ("--params", "width=300"),
                 ("--params", "zz"), ("--seats", "9"), ("--first", "5")):
        rc, out, _ = run("play", "dots", *args, "--json")
        check(rc == 2 and json.loads(out)["exit"] == 2,
              f"play dots {args}: exit {rc} {out}")
    rc, _, err = run("play", "chess", "--params", "rounds=3")
    check(rc == 2 and "chess has no named params" in err, f"chess k=v: {err}")
    rc, _, err = run("perft", "reversi", "2", "--params", "depth=1")
    check(rc == 2, f"perft usage error in --params: exit {rc}")
    rc, _, err = run("play", "tictactoe", "--params", "00")
    check(rc == 1 and "takes no params" in err, f"refused params exit 1: {err}")
    j = js("play", "reversi", "e6", "f4", "e3", "f6", "g5", "d6", "e7", "f5",
           "c5")
    check(j["result"]["kind"] == "win" and j["board"]["discs"] ==
          {"black": 13, "white": 0}, "reversi nine-move wipeout")
    j = js("play", "connect4", "1", "2", "1", "2", "1", "2", "1")
    check(j["result"]["winner"] == 0, "connect4 vertical")
    rc, _, err = run("render", "reversi", "--state", "00")
    check(rc == 1 and "reversi state is 66 bytes" in err, "bad state refused")
    rc, _, _ = run("render", "reversi", "--state", "zz")
    check(rc == 2, "non-hex state is usage")


def hmac_u32(server, client, nonce, i):
    block = hmac.new(server.encode(), f"{client}:{nonce}:{i // 8}".encode(),
                     hashlib.sha256).digest()
    k = (i % 8) * 4
    return int.from_bytes(block[k:k + 4], "big")


def test_fair():
    server = "5c6f2d3e" * 8
    j = js("fair", "dice", "--server-seed", server, "--client-seed", "lucky",
           "--nonce", "42", "--direction", "over", "--target", "5000",
           "--stake", "1000")
    want = [hmac_u32(server, "lucky", 42, i) for i in range(4)]
    check(j["floats_u32"] == want, "fair floats")
    roll = (want[0] * 10001) >> 32
    check(j["value"] == roll, "dice roll")
    win = roll > 5000
    check(j["win"] == win, "dice win")
    check(j["returns"] == (1000 * 99 * 10001 // (100 * 5000) if win else 0),
          "dice returns")
    j = js("fair", "roulette", "--server-seed", server, "--client-seed",
           "lucky", "--nonce", "42", "--kind", "straight", "--number", "7")
    check(j["value"] == (want[0] * 37) >> 32, "roulette pocket")
    rc, _, _ = run("fair", "dice", "--server-seed", server, "--client-seed",
                   "x", "--nonce", "1", "--direction", "over", "--target",
                   "10000")
    check(rc != 0, "dice target 10000 refused")
    rc, _, _ = run("fair", "chess", "--server-seed", "a", "--client-seed",
                   "b", "--nonce", "1")
    check(rc == 2, "fair on a board game is usage")


def catalogue_args(game, params):
    args = []
    if game == "plinko":
        args = ["--rows", str(params["rows"])]
    elif game == "keno":
        args = ["--picks", ",".join(str(p) for p in params["picks"])]
    elif game == "mines":
        args = ["--mines", str(params["mines"])]
        if "tiles" in params:
            args += ["--tiles", str(params["tiles"])]
    elif game == "tower":
        args = ["--difficulty", params["difficulty"]]
    elif game == "wheel":
        args = ["--segments", str(params["segments"])]
    elif game in ("blackjack", "hilo", "blitz"):
        args = ["--cards", str(params["cards"])]
    return args


def test_fair_catalogue():
    """Every case of the independent Python vectors (tests/tools/fair_catalogue.py)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "vectors",
                        "fair_catalogue.json")
    with open(path, encoding="utf-8") as f:
        cases = json.load(f)["cases"]
    check(len(cases) >= 200, "catalogue vectors present")
    for i, c in enumerate(cases):
        j = js("fair", c["game"], "--server-seed", c["server_seed"], "--client-seed",
               c["client_seed"], "--nonce", str(c["nonce"]),
               *catalogue_args(c["game"], c["params"]))
        check(j.get("event") == c["event"], f"catalogue case {i} ({c['game']}) event")
        check(j.get("floats_u32") == c["floats_u32"], f"catalogue case {i} floats")
    # text: the plinko path and the mines grid
    c = next(c for c in cases if c["game"] == "mines" and c["params"] == {"mines": 3})
    rc, out, _ = run("fair", "mines", "--mines", "3", "--server-seed", c["server_seed"],
                     "--client-seed", c["client_seed"], "--nonce", str(c["nonce"]))
    grid = [line for line in out.split("\n") if line.startswith(" ") and len(line) == 10]
    stars = {r * 5 + k for r, line in enumerate(grid) for k in range(5)
             if line[2 * k + 1] == "*"}
    check(rc == 0 and len(grid) == 5 and stars == set(c["event"]["mines"]), "mines grid")
    # a bet: returns = floor(stake x multiplier / 10000)
    j = js("fair", "wheel", "--segments", "10", "--risk", "high", "--server-seed", "s",
           "--client-seed", "c", "--nonce", "3", "--stake", "1000")
    seg = (hmac_u32("s", "c", 3, 0) * 10) >> 32
    check(j["event"]["segment"] == seg and j["returns"] == (9900 if seg == 9 else 0),
          "wheel high returns")
    # bad input: exit 2 with a sentence, never a crash
    for args in (["plinko", "--rows", "7"], ["plinko"], ["keno", "--picks", "0"],
                 ["keno", "--picks", "1,2,"], ["keno", "--picks", "1,1"],
                 ["keno", "--picks", ",".join(str(k) for k in range(1, 12))],
                 ["wheel", "--segments", "15"], ["tower", "--difficulty", "legend"],
                 ["mines", "--mines", "26"], ["mines"], ["blitz", "--cards", "17"],
                 ["baccarat", "--side", "dealer"], ["hilo", "--cards", "65"],
                 ["crash", "--nonce", "x"], ["poker"]):
        full = ["fair", args[0], "--server-seed", "s", "--client-seed", "c"]
        full += [] if "--nonce" in args else ["--nonce", "1"]
        rc, out, err = run(*full, *args[1:])
        check(rc in (1, 2) and err.strip() != "", f"fair {' '.join(args)} refused: {rc} {err}")


for t in [test_list, test_perft, test_play_render, test_fair, test_fair_catalogue]:
    t()
print("engine_cli_test:", "ok" if failures == 0 else f"{failures} failed")
sys.exit(1 if failures else 0)
