#!/usr/bin/env python3
"""Tests of scripts/check-layers itself (docs/architecture.md, "tests/").

Writes a minimal clean source tree into a temporary directory (with decoys
the check must not mistake for violations: a clock call in a comment, a
forbidden name inside a string, a member call ->read(), a local function
event_init, JSON helpers get_int and get_uint, an 8-bit read_u8, data.mdb
in a comment), asserts the check passes on it, then plants one violation of each kind in a fresh copy and
asserts the check fails naming that file, line and rule.  Then the same on
a copy of this repository's sources: each planted violation is the one new
report, whatever the tree already holds.

    [ZBC_CHECK_LAYERS=PATH] python3 tests/checks/test_check_layers.py
"""
import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import importlib.machinery
import importlib.util

HERE = os.path.dirname(os.path.abspath(__file__))
# the check under test: $ZBC_CHECK_LAYERS (set by tests/meson.build), else this tree's
CHECK = os.environ.get("ZBC_CHECK_LAYERS") or os.path.join(HERE, "..", "..", "scripts", "check-layers")

CLEAN = {
    "meson.build": "project('fixture', 'c')\nsubdir('node')\n",
    "node/meson.build": "subdir('wallet')\nsubdir('audit')\n",
    "node/wallet/meson.build": "wallet_src = files('client.c')\n",
    "node/audit/meson.build": "audit_src = files('replay.c')\n",
    "crypto/bytes.h": (
        "/* The one byte codec (docs/crypto.md). */\n"
        "#include <stdint.h>\n"
        "static inline void zbc_put_le32(uint8_t *p, uint32_t v)\n"
        "{\n    p[0] = (uint8_t)v;\n}\n"
        "static inline uint32_t zbc_get_le32(const uint8_t *p)\n"
        "{\n    return p[0];\n}\n"),
    "crypto/keyfile.c": (
        "/* Key files (docs/protocol-tx.md section 7): crypto may touch files. */\n"
        "#include <stdio.h>\n#include \"crypto/bytes.h\"\n"
        "int zbc_keyfile_write(const char *path)\n"
        "{\n    FILE *f = fopen(path, \"wb\");\n    return f != NULL;\n}\n"),
    "apps/app.h": "/* The app record (docs/protocol-apps.md). */\n#include \"crypto/bytes.h\"\n",
    "apps/app.c": (
        "/* Pure: never calls time() or rand(); see docs/games.md. */\n"
        "#include \"apps/app.h\"\n"
        "struct io { int (*read)(void *); };\n"
        "static int get_int(int *v, const char *key)\n{\n    return *v + (key != 0);\n}\n"
        "static int get_uint(unsigned *v, const char *key)\n{\n    return (int)*v + (key != 0);\n}\n"
        "static int read_u8(const char *p)\n{\n    return p[0];\n}\n"
        "int zbc_app_step(struct io *io, int *v)\n"
        "{\n    const char *msg = \"time(NULL) and socket( in a string\";\n"
        "    return io->read(v) + get_int(v, msg);\n}\n"),
    "apps/games/board.c": (
        "/* A board table (docs/games.md#board). */\n"
        "struct square { int price; };\n"
        "static const struct square BOARD[2] = {\n    {1}, {2},\n};\n"
        "static int bd_check_move(int m)\n{\n    return BOARD[m].price;\n}\n"
        "static int bd_apply_move(int m,\n"
        "                         int (*cb)(int))\n{\n    return cb(m);\n}\n"),
    "consensus/tx.h": "/* Transactions (docs/protocol-tx.md). */\n#include \"apps/app.h\"\n",
    "consensus/tx.c": (
        "/* Envelope (docs/protocol-tx.md#1-envelope); the ledger lives in data.mdb. */\n"
        "#include <string.h>\n#include \"consensus/tx.h\"\n#include \"crypto/bytes.h\"\n"
        "static void event_init(int *e)\n{\n    *e = 0;\n}\n"
        "int zbc_tx_parse(const unsigned char *p, int *e)\n"
        "{\n    event_init(e);\n    return (int)zbc_get_le32(p);\n}\n"),
    "node/zbcd/api.h": "/* The API (docs/api.md). */\n#include \"consensus/tx.h\"\n",
    "node/zbcd/zbcd.c": (
        "#include <time.h>\n#include <sys/socket.h>\n#include \"node/zbcd/api.h\"\n"
        "long now(void)\n{\n    return (long)time(NULL) + socket(0, 0, 0);\n}\n"),
    "node/engine/cli.c": (
        "#include <string.h>\n#include \"apps/app.h\"\n"
        "struct zbc_engine { const char *name; };\n"
        "int pick(const struct zbc_engine *x)\n{\n    return strcmp(x->name, \"dots\");\n}\n"),
    "node/wallet/client.c": "/* docs/wallet.md */\nint zbc_wallet_client(void)\n{\n    return 0;\n}\n",
    "node/audit/replay.c": "int zbc_audit_replay(void)\n{\n    return 0;\n}\n",
    "tests/integration/test_x.py": (
        '"""End to end (docs/games.md)."""\n'
        "# the ledger file is data.mdb; docs/api.md says how to submit\n"
        "print('SPEC is fine in a plain string')\n"),
    "tests/vectors/zoobc/README.md": "Vectors.\n",
    "tests/consensus/test_tx.c": (
        "/* Vectors (tests/vectors/zoobc/README.md; docs/protocol-tx.md). */\n"
        "int main(void)\n{\n    return 0;\n}\n"),
    "docs/crypto.md": "# Crypto\n", "docs/games.md": "# Games\n", "docs/api.md": "# API\n",
    "docs/protocol-tx.md": "# Tx\n", "docs/protocol-apps.md": "# Apps\n", "docs/wallet.md": "# W\n",
    "docs/protocol.md": (
        "# Protocol\n\n## 4. Rule index\n\n### 4.1 Transactions\n\n"
        "| rule | § | implemented by |\n|---|---|---|\n"
        "| envelope | [tx §1](protocol-tx.md#1-envelope) | `consensus/tx.c:zbc_tx_parse` |\n"
        "| key file | [tx §7](protocol-tx.md) | `crypto/keyfile.c:zbc_keyfile_write` |\n"
        "| board | [games](games.md) | `apps/games/board.c:BOARD` (a table) |\n\n"
        "### 4.9 Game engines\n\n"
        "| type | game | check_move | apply_move |\n|---|---|---|---|\n"
        "| 9 | board | `apps/games/board.c:bd_check_move` | `bd_apply_move` |\n\n"
        "## 5. Next section\n\n| not | the index |\n|---|---|\n| `consensus/tx.c:nowhere` | x |\n"),
}

# (name, file, text appended to it, rule, line of that text the report must name,
#  or None for an edit of docs/protocol.md made by DOC_PLANTS)
PLANTS = [
    ("crypto includes apps", "crypto/keyfile.c", '#include "apps/app.h"\n', "layer-include", 1),
    ("crypto includes consensus", "crypto/bytes.h", '#include "consensus/tx.h"\n', "layer-include", 1),
    ("crypto includes node", "crypto/keyfile.c", '#include "node/zbcd/api.h"\n', "layer-include", 1),
    ("apps includes consensus", "apps/app.c", '#include "consensus/tx.h"\n', "layer-include", 1),
    ("apps includes node", "apps/app.h", '#  include "node/zbcd/api.h"\n', "layer-include", 1),
    ("apps includes proto", "apps/app.c", '#include "p2p.pb-c.h"\n', "layer-include", 1),
    ("consensus includes node", "consensus/tx.c", '#include "node/zbcd/api.h"\n', "layer-include", 1),
    ("consensus includes node relatively", "consensus/tx.c", '#include "../node/zbcd/api.h"\n',
     "layer-include", 1),
    ("consensus includes proto", "consensus/tx.h", '#include "proto/p2p.pb-c.h"\n', "layer-include", 1),
    ("consensus includes protobuf-c", "consensus/tx.h", "#include <protobuf-c/protobuf-c.h>\n",
     "layer-include", 1),
    ("apps includes sockets", "apps/app.c", "#include <sys/socket.h>\n", "layer-include", 1),
    ("consensus includes libevent", "consensus/tx.c", "#include <event2/event.h>\n", "layer-include", 1),
    ("consensus includes lmdb", "consensus/tx.c", "#include <lmdb.h>\n", "layer-include", 1),
] + [
    ("%s in %s" % (call.split("(")[0], f), f, "int planted(void)\n{\n    return (int)%s;\n}\n" % call,
     "impure-call", line)
    for f, line in (("apps/app.c", 3), ("consensus/tx.c", 3))
    for call in ("time(0)", "clock_gettime(0, 0)", "gettimeofday(0, 0)", "rand()", "random()",
                 "srand(1)", "arc4random()", "randombytes_buf(0, 1)", "randombytes_random()",
                 "getrandom(0, 0, 0)", "socket(0, 0, 0)", "connect(0, 0, 0)", "fopen(\"x\", \"r\")",
                 "open(\"x\", 0)", "getenv(\"HOME\")", "RAND_bytes(0, 1)", "mdb_env_open(0, 0, 0, 0)",
                 "evhttp_new(0)", "system(\"ls\")")
] + [
    ("time with a space", "apps/games/board.c", "long t(void)\n{\n    return (long)time (0);\n}\n",
     "impure-call", 3),
    ("rule index names a missing function", "docs/protocol.md",
     None, "rule-index", None),
    ("rule index names a missing file", "docs/protocol.md", None, "rule-index", None),
    ("rule index bare name missing", "docs/protocol.md", None, "rule-index", None),
    ("SPEC section in crypto", "crypto/bytes.h", "/* as SPEC §3 says */\n", "spec-cite", 1),
    ("SPEC.md in node", "node/zbcd/zbcd.c", "// see ../shared/SPEC.md\n", "spec-cite", 1),
    ("reference/zoobc in consensus", "consensus/tx.c", "/* reference/zoobc/signing.md §2 */\n",
     "spec-cite", 1),
    ("bare signing.md in a test", "tests/consensus/test_tx.c", "/* offsets as in\n * signing.md §3 */\n",
     "spec-cite", 2),
    ("bare api.md in node", "node/wallet/client.c", "/* (api.md §2) */\n", "spec-cite", 1),
    ("missing docs page", "apps/app.h", "/* docs/nowhere.md */\n", "spec-cite", 1),
    ("SPEC in a Python comment", "tests/integration/test_x.py", "# the float of SPEC §6\n", "spec-cite", 1),
    ("SPEC in a Python docstring", "tests/integration/test_x.py",
     'def f():\n    """Rejection sampling as SPEC §4."""\n', "spec-cite", 2),
    ("SPEC in a meson comment", "node/audit/meson.build", "# per SPEC §7\n", "spec-cite", 1),
    ("strcmp(e->name in node", "node/engine/cli.c",
     "int is_dots(const struct zbc_engine *e)\n{\n    return strcmp(e->name, \"dots\") == 0;\n}\n",
     "name-strcmp", 3),
    ("strcmp(e->name in tests", "tests/consensus/test_tx.c",
     "struct e { const char *name; };\nint f(struct e *e)\n{\n    return strcmp(e->name, \"x\");\n}\n",
     "name-strcmp", 4),
    ("../wallet/ in meson", "node/audit/meson.build", "audit_src += files('../wallet/client.c')\n",
     "meson-wallet", 1),
    ("static le32 helper", "node/zbcd/zbcd.c",
     "static uint32_t le32(const uint8_t *p)\n{\n    return p[0];\n}\n", "byte-helper", 1),
    ("static inline put_u32 helper", "consensus/tx.c",
     "static inline void put_u32(unsigned char *p, unsigned v)\n{\n    p[0] = (unsigned char)v;\n}\n",
     "byte-helper", 1),
    ("static get_uint helper", "apps/app.c",
     "static unsigned long get_uint(const unsigned char *p, int n)\n{\n    return p[n];\n}\n",
     "byte-helper", 1),
    ("static rd_le64 helper in a test fixture", "tests/consensus/test_tx.c",
     "static unsigned long rd_le64(const unsigned char *p)\n{\n    return p[0];\n}\n", "byte-helper", 1),
]

DOC_PLANTS = {
    "rule index names a missing function": ("`consensus/tx.c:zbc_tx_parse`", "`consensus/tx.c:zbc_tx_gone`"),
    "rule index names a missing file": ("`crypto/keyfile.c:zbc_keyfile_write`",
                                        "`crypto/nofile.c:zbc_keyfile_write`"),
    "rule index bare name missing": ("`bd_apply_move`", "`bd_undo_move`"),
}


def write_tree(root):
    for rel, text in CLEAN.items():
        p = os.path.join(root, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(text)


def run_check(root):
    """The check as a program: exit status and output."""
    p = subprocess.run([sys.executable, CHECK, "--root", root],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
    return p.returncode, p.stdout.decode("utf-8", "replace")


_module = None


def run_check_inprocess(root):
    """The check's main() loaded from the same file, without a new Python
    for each of the many planted trees."""
    global _module
    if _module is None:
        loader = importlib.machinery.SourceFileLoader("check_layers", CHECK)
        spec = importlib.util.spec_from_loader("check_layers", loader)
        _module = importlib.util.module_from_spec(spec)
        loader.exec_module(_module)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = _module.main(["--root", root])
    return rc, buf.getvalue()


class CheckLayers(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="zbc-check-")
        self.root = os.path.join(self.tmp, "clean")
        write_tree(self.root)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_clean_tree_passes(self):
        rc, out = run_check(self.root)
        self.assertEqual(rc, 0, "the clean fixture must pass:\n" + out)
        self.assertIn("check-layers: clean", out)

    def test_program_exits_1_on_a_violation(self):
        with open(os.path.join(self.root, "apps", "app.c"), "a") as f:
            f.write("long t(void)\n{\n    return (long)time(0);\n}\n")
        rc, out = run_check(self.root)
        self.assertEqual(rc, 1, out)
        line = CLEAN["apps/app.c"].count("\n") + 3
        self.assertRegex(out, r"(?m)^apps/app\.c:%d: impure-call: time\(\) in apps/" % line)

    def test_each_planted_violation_fails(self):
        for name, rel, text, rule, line in PLANTS:
            with self.subTest(name):
                root = os.path.join(self.tmp, "plant")
                shutil.rmtree(root, ignore_errors=True)
                shutil.copytree(self.root, root)
                path = os.path.join(root, rel)
                if text is None:
                    old, new = DOC_PLANTS[name]
                    with open(path) as f:
                        doc = f.read()
                    self.assertIn(old, doc)
                    with open(path, "w") as f:
                        f.write(doc.replace(old, new))
                else:
                    with open(path) as f:
                        before = f.read().count("\n")
                    with open(path, "a") as f:
                        f.write(text)
                    line += before
                rc, out = run_check_inprocess(root)
                self.assertEqual(rc, 1, "%s: the check must fail:\n%s" % (name, out))
                want = "%s:%s: %s: " % (rel, line, rule) if line else "%s:" % rel
                hits = [ln for ln in out.splitlines() if ln.startswith(want) and (": %s: " % rule) in ln]
                self.assertTrue(hits, "%s: no line starting %r in:\n%s" % (name, want, out))
                self.assertIn("check-layers: 1 violation", out,
                              "%s: exactly the planted violation:\n%s" % (name, out))


REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
# The same kinds planted at the end of real files of this repository: the
# check must report exactly one more violation, the planted one, whatever
# the tree already holds.
REAL_PLANTS = [
    ("crypto/hash.c", '#include "apps/app.h"\n', "layer-include"),
    ("apps/app.c", '#include "consensus/tx.h"\n', "layer-include"),
    ("consensus/block.c", '#include "node/zbcd/store.h"\n', "layer-include"),
    ("apps/app.c", "long zbc_planted(void)\n{\n    return (long)time(0);\n}\n", "impure-call"),
    ("consensus/state.c", "int zbc_planted(void)\n{\n    return rand();\n}\n", "impure-call"),
    ("crypto/hash.c", "/* as SPEC §1 says */\n", "spec-cite"),
    ("node/zbcd/api.c", "int zbc_planted(const struct zbc_engine *e)\n{\n"
     "    return strcmp(e->name, \"chess\");\n}\n", "name-strcmp"),
    ("node/audit/meson.build", "planted = files('../wallet/keystore.c')\n", "meson-wallet"),
    ("node/zbcd/chain.c", "static uint32_t planted_le32(const uint8_t *p)\n{\n    return p[0];\n}\n",
     "byte-helper"),
]


class CheckLayersOnThisTree(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="zbc-check-tree-")
        cls.root = os.path.join(cls.tmp, "tree")
        os.makedirs(cls.root)
        ignore = shutil.ignore_patterns("node_modules", "corpus", "__pycache__", "*.mdb")
        for top in ("crypto", "apps", "consensus", "node", "proto", "tests", "docs"):
            if os.path.isdir(os.path.join(REPO, top)):
                shutil.copytree(os.path.join(REPO, top), os.path.join(cls.root, top), ignore=ignore)
        shutil.copy(os.path.join(REPO, "meson.build"), cls.root)
        cls.before = cls.violations(cls.root)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    @staticmethod
    def violations(root):
        rc, out = run_check_inprocess(root)
        return rc, set(ln for ln in out.splitlines() if not ln.startswith("check-layers:"))

    def test_each_planted_violation_is_the_one_new_report(self):
        for rel, text, rule in REAL_PLANTS:
            with self.subTest(rel=rel, rule=rule):
                path = os.path.join(self.root, rel)
                self.assertTrue(os.path.isfile(path), "%s is gone: update REAL_PLANTS" % rel)
                with open(path) as f:
                    orig = f.read()
                try:
                    with open(path, "a") as f:
                        f.write(text)
                    rc, after = self.violations(self.root)
                finally:
                    with open(path, "w") as f:
                        f.write(orig)
                new = after - self.before[1]
                self.assertEqual(rc, 1)
                self.assertEqual(len(new), 1, "%s: new reports %r" % (rel, new))
                self.assertRegex(new.pop(), r"^%s:\d+: %s: " % (re.escape(rel), rule))
        self.assertEqual(self.violations(self.root), self.before)


if __name__ == "__main__":
    unittest.main(verbosity=1)
