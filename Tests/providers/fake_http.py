"""What every local provider fake's HTTP handler shares: JSON answers, the body read by its
length, a record of each API request, and the control routes under `/_fake/` the tests
drive (`GET /_fake/<listing>` for what the fake kept, `POST /_fake/reset`, `/_fake/fail`,
`/_fake/callback`). A provider's handler names its content type, its not-found body, its
listings and its API route; its fake object holds `lock`, `requests`, `failures` and
`reset()`."""
import ipaddress
import json
import os
import ssl
import subprocess
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer



def cellular(address):
    """Whether a client's source address is one the tests bind as the cellular path
    (127.0.0.2 to 127.0.0.254): what a carrier's redirect answers a match to."""
    ip = ipaddress.ip_address(address)
    return ipaddress.ip_address("127.0.0.2") <= ip <= ipaddress.ip_address("127.0.0.254")


def tls_server(directory, handler, name):
    """A listener for `handler` with a self-signed certificate for 127.0.0.1, made in
    `directory` as NAME-cert.pem and NAME-key.pem: how a fake answers an official SDK,
    which speaks only https. Returns the server and the certificate's path."""
    cert, key = os.path.join(directory, name + "-cert.pem"), os.path.join(directory, name + "-key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    return server, cert


def serve(handler, port, tls_dir=None, name="fake"):
    """Serves `handler` on 127.0.0.1:`port` (0: any), and with `tls_dir` also over https
    (`tls_server`), printing the lines the tests read: `listening on http://…`, then
    `tls on https://… ca CERT`. Runs until interrupted."""
    ThreadingHTTPServer.daemon_threads = True
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    if tls_dir:
        tls, cert = tls_server(tls_dir, handler, name)
        threading.Thread(target=tls.serve_forever, daemon=True).start()
        print(f"tls on https://127.0.0.1:{tls.server_address[1]} ca {cert}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


class FakeState:
    """What a fake keeps between requests, under one lock: every API request, the failures
    the tests queued, and whatever else the provider's fake names in `kept` (name → list
    or dict), all emptied by `reset()`."""
    kept = {}

    def __init__(self):
        self.lock = threading.Lock()
        self.requests = []
        self.failures = []
        for name, make in self.kept.items():
            setattr(self, name, make())

    def reset(self):
        with self.lock:
            self.requests.clear()
            self.failures.clear()
            for name in self.kept:
                getattr(self, name).clear()

    def next_failure(self, resource=None):
        """The oldest queued failure for `resource` (or for any), spent once."""
        with self.lock:
            for failure in self.failures:
                if failure.get("resource") in (None, resource) and failure.get("times", 1) > 0:
                    failure["times"] = failure.get("times", 1) - 1
                    if failure["times"] == 0:
                        self.failures.remove(failure)
                    return failure
        return None


class FakeHandler(BaseHTTPRequestHandler):
    fake = None
    protocol_version = "HTTP/1.1"
    # An answer goes out as two writes (headers, then body): on a kept-alive connection Nagle
    # holds the body until the client's delayed ACK, about 40 ms, and a fake must answer at once.
    disable_nagle_algorithm = True
    content_type = "application/json"
    not_found = {}
    # `GET /_fake/<name>` answers the fake's attribute of that name.
    listings = ("requests",)

    def log_message(self, *args):
        pass

    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", self.content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def do_GET(self):
        name = self.path[len("/_fake/"):] if self.path.startswith("/_fake/") else None
        if name in self.listings:
            with self.fake.lock:
                return self.answer(200, list(getattr(self.fake, name)))
        self.answer(404, self.not_found)

    def do_POST(self):
        raw = self.read_body()
        if self.path.startswith("/_fake/"):
            return self.control(self.path[len("/_fake/"):], json.loads(raw or b"{}"))
        self.api(raw)

    def api(self, raw):
        """The provider's own routes: a subclass answers them."""
        self.answer(404, self.not_found)

    def record(self, raw):
        """Keeps an API request for the tests and returns its form fields."""
        form = dict(urllib.parse.parse_qsl(raw.decode(), keep_blank_values=True))
        with self.fake.lock:
            self.fake.requests.append({"method": "POST", "path": self.path, "form": form, "raw": raw.decode(),
                                       "headers": {k.lower(): v for k, v in self.headers.items()}})
        return form

    def control(self, action, body):
        if action == "reset":
            self.fake.reset()
            return self.answer(200, {})
        if action == "fail":
            with self.fake.lock:
                self.fake.failures.append(dict(body))
            return self.answer(200, {})
        if action == "callback":
            return self.answer(200, self.callback(body))
        self.answer(404, {})

    def callback(self, body):
        """Sends a provider's signed callback: a subclass knows how."""
        return {"status": None, "error": "this fake sends no callbacks"}
