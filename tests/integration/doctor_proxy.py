"""A lying node for the verification tests: an HTTP proxy in front of a real
zbcd that forwards every GET (the API, the event streams and the web page's
files, with their headers) and doctors one answer, the app object of
`GET /api/v1/apps/<id>`, with a test's edit.

    with DoctorProxy(node.api_url, edit) as url:   # edit(app_json) changes it in place
        zbc("verify", app_id, "--api", url, expect=10)

Used by test_apps_results.py, test_apps_dice_bets.py (`zbc verify` exits 10)
and test_web_verify.py (the page shows the failed check)."""
import http.client
import http.server
import json
import re
import threading
import urllib.error
import urllib.request

APP_PATH = re.compile(r"^/api/v1/apps/\d+$")
HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "date", "server"}
PASSED_ON = ("Accept", "If-None-Match", "Last-Event-ID", "Cache-Control")


class _Handler(http.server.BaseHTTPRequestHandler):
    node_url = None
    edit = None

    def do_GET(self):
        try:
            self.forward()
        except (OSError, http.client.HTTPException):
            pass  # the browser left, or the node or the proxy is stopping: nothing to answer

    def forward(self):
        req = urllib.request.Request(self.node_url + self.path,
                                     headers={k: self.headers[k] for k in PASSED_ON if self.headers[k]})
        stream = self.path.split("?")[0].endswith("/events")
        try:
            r = urllib.request.urlopen(req, timeout=3600 if stream else 10)
        except urllib.error.HTTPError as e:
            r = e
        with r:
            status = r.status if hasattr(r, "status") else r.code
            headers = [(k, v) for k, v in r.headers.items() if k.lower() not in HOP]
            if stream and status == 200:
                self.send_response(status)
                for k, v in headers:
                    self.send_header(k, v)
                self.end_headers()
                while True:
                    chunk = r.read1(65536)
                    if not chunk:
                        return
                    self.wfile.write(chunk)
                    self.wfile.flush()
            body = r.read()
        if status == 200 and APP_PATH.match(self.path.split("?")[0]):
            j = json.loads(body)
            type(self).edit(j)
            body = json.dumps(j).encode()
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a):
        pass


class DoctorProxy:
    """Context manager: serves on 127.0.0.1 (a free port) until the block
    ends; `edit(app)` doctors each app object the proxy passes on."""

    def __init__(self, node_url, edit):
        self.handler = type("Doctor", (_Handler,), {"node_url": node_url, "edit": staticmethod(edit)})
        self.server = None

    def __enter__(self):
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), self.handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return "http://127.0.0.1:%d" % self.server.server_address[1]

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
        return False
