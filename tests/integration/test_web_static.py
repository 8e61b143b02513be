#!/usr/bin/env python3
"""zbcd serves the browser client's files at / on its API port
(docs/web.md §2), and nothing outside its folder, over raw sockets:

- the default folder of a zbcd in the build tree is the source tree's
  node/web: / is index.html, the page's modules and style sheet have their
  content types, an ETag, Cache-Control no-cache, nosniff; If-None-Match
  gives 304; HEAD has the headers; POST is 405 with Allow;
- /api/v1/ stays the API (a JSON 404 for an unknown endpoint);
- hostile paths: `/../`, `/%2e%2e/`, encoded slashes and backslashes, NUL
  and control bytes, `.`, hidden names, a directory, absolute-form
  request targets, a 5 000-byte and a 200 000-byte path: 400/404 (or the
  HTTP layer's refusal), never a byte of a file outside the folder;
- `--web DIR` over a folder with symbolic links out of it (a file, a
  directory), a link inside it, a FIFO, a file over the size cap: none
  served, and the node keeps answering (the FIFO does not block it);
- `--no-web`: / is the API's JSON 404; `--web` on a missing folder: exit 1
  with the reason; `--web` with `--no-web`: exit 2."""
import os
import socket

from framework import ZBC, ZbcTest, assert_equal, assert_true, zbcd_once

SECRET = "TOP-SECRET-MARKER-outside-the-web-folder"


def raw_get(port, target, method="GET", headers=(), timeout=10):
    """Sends one request line as given (no normalisation) and returns
    (status or None when the connection closed without an answer,
    headers dict lower-cased, body bytes)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        req = "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" % (method, target)
        for k, v in headers:
            req += "%s: %s\r\n" % (k, v)
        s.sendall(req.encode("latin-1") + b"\r\n")
        data = b""
        while True:
            try:
                chunk = s.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            data += chunk
    finally:
        s.close()
    if not data.startswith(b"HTTP/1."):
        return None, {}, data
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    hdrs = {}
    for line in lines[1:]:
        k, _, v = line.partition(":")
        hdrs[k.strip().lower()] = v.strip()
    return status, hdrs, body


class WebStatic(ZbcTest):
    def served(self, port, target, ctype, marker):
        st, hd, body = raw_get(port, target)
        assert_equal(st, 200, "GET %s" % target)
        assert_equal(hd.get("content-type"), ctype, "Content-Type of %s" % target)
        assert_true(marker.encode() in body, "%s holds %r" % (target, marker))
        assert_equal(hd.get("cache-control"), "no-cache", "Cache-Control of %s" % target)
        assert_equal(hd.get("x-content-type-options"), "nosniff", "nosniff on %s" % target)
        assert_true(hd.get("etag", "").startswith('"'), "ETag of %s: %r" % (target, hd))
        assert_equal(int(hd.get("content-length", -1)), len(body), "Content-Length of %s" % target)
        return hd

    def default_folder(self, node):
        port = node.api_port
        hd = self.served(port, "/", "text/html; charset=utf-8", '<script type="module"')
        assert_true("default-src 'self'" in hd.get("content-security-policy", ""),
                    "a Content-Security-Policy on the page: %r" % hd)
        self.served(port, "/index.html", "text/html; charset=utf-8", "<title>")
        self.served(port, "/js/main.js", "text/javascript; charset=utf-8", "import")
        self.served(port, "/css/style.css", "text/css; charset=utf-8", "{")
        self.served(port, "/favicon.svg", "image/svg+xml", "<svg")
        etag = hd["etag"]
        st, hd2, body = raw_get(port, "/", headers=[("If-None-Match", etag)])
        assert_equal((st, body), (304, b""), "If-None-Match with the current ETag")
        st, hd2, body = raw_get(port, "/", headers=[("If-None-Match", '"0-0-0"')])
        assert_equal(st, 200, "If-None-Match with another ETag")
        st, hd2, body = raw_get(port, "/js/main.js", method="HEAD")
        assert_equal((st, hd2.get("content-type"), body), (200, "text/javascript; charset=utf-8", b""),
                     "HEAD of a module")
        st, hd2, body = raw_get(port, "/", method="POST", headers=[("Content-Length", "0")])
        assert_equal((st, hd2.get("allow")), (405, "GET, HEAD"), "POST /")
        # the API is untouched
        st, hd2, body = raw_get(port, "/api/v1/nothing")
        assert_equal((st, hd2.get("content-type")), (404, "application/json"), "unknown endpoint")
        assert_true(b"unknown endpoint: GET /api/v1/nothing" in body, "the API's sentence: %r" % body)
        st, hd2, body = raw_get(port, "/api/v1/node/info")
        assert_equal(st, 200, "node/info beside the web client")

    def hostile(self, port, extra=()):
        cases = [
            ("/../../../../etc/passwd", (400,)),
            ("/%2e%2e/%2e%2e/%2e%2e/etc/passwd", (400,)),
            ("/%2E%2E/x.js", (400,)),
            ("/..%2f..%2f..%2fetc%2fpasswd", (400,)),
            ("/%2e%2e%2f%2e%2e%2fetc%2fpasswd", (400,)),
            ("/js%2fmain.js", (400,)),
            ("/..%5c..%5cetc%5cpasswd", (400,)),
            ("/..\\..\\etc\\passwd", (400,)),
            ("/index.html%00.js", (400,)),
            ("/a%0d%0aSet-Cookie:x.js", (400,)),
            ("/./index.html", (400,)),
            ("/js/../../secret.txt", (400,)),
            ("//etc/passwd", (404,)),
            ("/js/", (404,)),
            ("/js", (404,)),
            ("/.git/config", (404,)),
            ("/node_modules/.package-lock.json", (404,)),
            ("/%", (400,)),
            ("/%zz.js", (400,)),
            ("http://127.0.0.1/../../etc/passwd", (400,)),
            ("/" + "a" * 5000 + ".js", (400,)),
            ("/" + "a/" * 40 + "x.js", (400,)),
        ] + list(extra)
        for target, want in cases:
            st, hd, body = raw_get(port, target)
            assert_true(st in want, "GET %r: status %r (want %r): %r" % (target[:80], st, want, body[:200]))
            assert_true(b"root:" not in body and SECRET.encode() not in body,
                        "GET %r leaked a file outside the folder" % target[:80])
        # a path far over the limits: refused by the HTTP layer or by us
        st, hd, body = raw_get(port, "/" + "%2e%2e/" * 30000 + "etc/passwd")
        assert_true(st is None or 400 <= st < 500, "a 200 000-byte path: %r" % st)
        assert_true(b"root:" not in body, "the huge path leaked /etc/passwd")

    def own_folder(self, node):
        base = os.path.join(self.tmpdir, "webroot")
        web = os.path.join(base, "web")
        os.makedirs(os.path.join(web, "js"))
        os.makedirs(os.path.join(web, "dir.css"))
        with open(os.path.join(base, "secret.txt"), "w") as f:
            f.write(SECRET)
        files = {"index.html": "<html>own</html>", "js/a.js": "export const a = 1;",
                 "a.json": "{}", "p.png": "\x89PNG", "f.woff2": "wOF2", "t.txt": "text",
                 "s.svg": "<svg/>"}
        for name, text in files.items():
            with open(os.path.join(web, name), "w") as f:
                f.write(text)
        os.symlink(os.path.join(base, "secret.txt"), os.path.join(web, "out.txt"))
        os.symlink("..", os.path.join(web, "up"))
        os.symlink("/etc", os.path.join(web, "etc"))
        os.symlink("index.html", os.path.join(web, "in.html"))
        os.mkfifo(os.path.join(web, "fifo.txt"))
        with open(os.path.join(web, "big.png"), "wb") as f:
            f.truncate(16 * 1024 * 1024 + 1)
        node.stop()
        node.start(self.genesis_path, extra=["--web", web])
        port = node.api_port
        types = {"index.html": "text/html; charset=utf-8", "js/a.js": "text/javascript; charset=utf-8",
                 "a.json": "application/json", "p.png": "image/png", "f.woff2": "font/woff2",
                 "t.txt": "text/plain; charset=utf-8", "s.svg": "image/svg+xml"}
        for name, ctype in types.items():
            self.served(port, "/" + name, ctype, files[name][:3])
        self.hostile(port, extra=[
            ("/out.txt", (404,)), ("/up/secret.txt", (404,)), ("/etc/passwd", (404,)),
            ("/up/web/index.html", (404,)), ("/in.html", (404,)), ("/fifo.txt", (404,)),
            ("/dir.css", (404,)), ("/secret.txt", (404,))])
        st, hd, body = raw_get(port, "/big.png")
        assert_equal(st, 500, "a file over the 16 MiB cap")
        assert_true(b"big.png is larger than" in body, "the cap's sentence: %r" % body)
        self.expect_log(r"web: GET /big.png -> 500: big.png is larger than")
        st, _ = node.get("/api/v1/node/info")
        assert_equal(st, 200, "the node still answers after the FIFO and the links")

    def options(self, node):
        node.stop()
        node.start(self.genesis_path, extra=["--no-web"])
        st, hd, body = raw_get(node.api_port, "/")
        assert_equal((st, hd.get("content-type")), (404, "application/json"), "--no-web: /")
        assert_true(b"unknown endpoint: GET /" in body, "--no-web answer: %r" % body)
        node.stop()
        missing = os.path.join(self.tmpdir, "no-such-folder")
        code, out = zbcd_once(self, ["run", "--datadir", node.datadir, "--genesis", self.genesis_path,
                                     "--api", "127.0.0.1:0", "--web", missing])
        assert_equal(code, 1, "--web on a missing folder: %s" % out)
        assert_true("cannot open the web folder %s: No such file or directory" % missing in out,
                    "the reason: %s" % out)
        code, out = zbcd_once(self, ["run", "--datadir", node.datadir, "--web", missing, "--no-web"])
        assert_equal(code, 2, "--web with --no-web: %s" % out)
        assert_true("--web DIR and --no-web contradict each other" in out, out)

    def run_test(self):
        alice = self.wallet_key("alice")
        node = self.start_chain([(alice, 10 * ZBC)])
        self.default_folder(node)
        self.hostile(node.api_port)
        self.own_folder(node)
        self.options(node)


if __name__ == "__main__":
    WebStatic().main()
