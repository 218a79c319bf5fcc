"""What every local provider fake's HTTP handler shares: JSON answers, the body read by its
length, a record of each API request, and the control routes under `/_fake/` the tests
drive (`GET /_fake/<listing>` for what the fake kept, `POST /_fake/reset`, `/_fake/fail`,
`/_fake/callback`). A provider's handler names its content type, its not-found body, its
listings and its API route; its fake object holds `lock`, `requests`, `failures` and
`reset()`."""
import json
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler


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
