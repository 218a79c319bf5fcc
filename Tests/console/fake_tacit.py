"""A stand-in for `tacit serve --dev`, just enough of SPEC §2-§4 to drive the
console's live paths before the real server exists. It is not the contract:
test_live_flow.py runs against whatever TACIT_URL points at. Run it with
`python fake_tacit.py` (prints its URL) and then TACIT_URL=... pytest."""
import functools
import http.server
import json
import pathlib
import re
import secrets
import threading
from datetime import datetime, timezone

CONSOLE_DIR = pathlib.Path(__file__).resolve().parents[2] / "Sources" / "TacitServer" / "Console"
CHANNELS = ["silent_auth", "sms", "voice"]


def now():
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def mask(number):
    return number[:3] + "•••••" + number[-4:]


class Verification:
    def __init__(self, number):
        self.id = secrets.token_hex(8)
        self.number = number
        self.status = "pending"
        self.steps = [{"channel": c, "status": "unused"} for c in CHANNELS]
        self.events = []
        self.code = None
        self.attempts = 5
        self.token = secrets.token_hex(8)
        self.changed = threading.Condition()

    def emit(self, source, channel, label, outcome, note, data=None):
        with self.changed:
            self.events.append({"seq": len(self.events) + 1, "at": now(), "request_id": self.id, "source": source,
                                "channel": channel, "label": label, "outcome": outcome, "note": note, "data": data or {}})
            self.changed.notify_all()

    def step(self, channel):
        return next(s for s in self.steps if s["channel"] == channel)

    @property
    def active(self):
        return next((s for s in self.steps if s["status"] == "active"), None)

    def state(self, base):
        body = {"request_id": self.id, "status": self.status, "channel": self.active and self.active["channel"],
                "client_token": self.token, "expires_at": now(), "workflow": self.steps, "risk": {"sim_swapped": False}}
        if self.active and self.active["channel"] == "silent_auth":
            body["check_url"] = f"{base}/operator/check/{self.token}"
        return body

    def start(self, channel, inboxes):
        self.step(channel)["status"] = "active"
        self.emit("server", channel, f"{channel}:started", "info", f"{channel} step started.")
        if channel == "silent_auth":
            self.emit("server", channel, "silent_auth:check_url_issued", "info", "Tacit issued a check link.")
        else:
            self.code = f"{secrets.randbelow(10**6):06d}"
            inboxes.setdefault(self.number, []).append(
                {"channel": channel, "body": f"Your Tacit Demo code is {self.code}", "at": now()})
            self.emit("provider", channel, f"{channel}:code_sent", "success", f"A code was sent by {channel}.")

    def advance(self, failed_status, inboxes):
        current = self.active
        current["status"] = failed_status
        self.emit("server", current["channel"], f"{current['channel']}:{failed_status}", "failure", "Step ended.")
        later = [s for s in self.steps if s["status"] == "unused"]
        if later:
            self.start(later[0]["channel"], inboxes)
        else:
            self.finish("expired")

    def finish(self, status):
        self.status = status
        self.emit("server", None, f"verification:{status}", "success" if status == "completed" else "failure", f"Verification {status}.")
        self.emit("server", None, "verification:summary", "info", "Summary.", {"workflow": self.steps})


class Handler(http.server.SimpleHTTPRequestHandler):
    verifications = {}
    inboxes = {}
    lock = threading.Lock()

    def log_message(self, *args):
        pass

    def send_json(self, status, body, content_type="application/json"):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def problem(self, status, slug, detail, **extra):
        self.send_json(status, dict(type=slug, title=slug, status=status, detail=detail, **extra), "application/problem+json")

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return json.loads(self.rfile.read(length) or b"{}")

    def base(self):
        return f"http://{self.headers['Host']}"

    def do_GET(self):
        self.sse = None
        with self.lock:
            self.route("GET")
        if self.sse:
            self.stream(*self.sse)

    def do_POST(self):
        with self.lock:
            self.route("POST")

    def do_DELETE(self):
        with self.lock:
            self.route("DELETE")

    def route(self, method):
        path = self.path.split("?")[0]
        m = re.fullmatch(r"/v1/verifications(?:/(\w+)(?:/(\w+))?)?", path)
        h = re.fullmatch(r"/v1/dev/handsets/(%2B\d+|\+\d+)/(inbox|silent-check)", path)
        if m:
            return self.verification_route(method, m.group(1), m.group(2))
        if h:
            return self.handset_route(h.group(1).replace("%2B", "+"), h.group(2))
        if method == "GET":
            return super().do_GET()
        self.problem(404, "not-found", "No such route.")

    def verification_route(self, method, vid, action):
        if vid is None:
            return self.create(self.body())
        v = self.verifications.get(vid)
        if v is None:
            return self.problem(404, "not-found", "No such verification.")
        if action == "events":
            return self.events(v)
        if method == "GET" and action == "timeline":
            return self.send_json(200, {"request_id": v.id, "summary": {"status": v.status, "workflow": v.steps},
                                        "stages": [], "events": v.events})
        if method == "GET":
            return self.send_json(200, v.state(self.base()))
        if method == "DELETE":
            v.finish("cancelled")
            self.send_response(204)
            return self.end_headers()
        if v.status != "pending":
            return self.problem(409, "not-pending", "This verification is over.")
        if action == "next":
            if not [s for s in v.steps if s["status"] == "unused"]:
                return self.problem(409, "no-next-channel", "There is no channel left to try.")
            v.advance("failed", self.inboxes)
            return self.send_json(200, v.state(self.base()))
        return self.check(v, self.body().get("code", ""))

    def create(self, body):
        number = body.get("phone_number", "")
        if not re.fullmatch(r"\+\d{8,15}", number):
            return self.problem(422, "invalid-phone-number", "That isn't a valid phone number.",
                                invalid_parameters=[{"name": "phone_number", "reason": "not E.164"}])
        if any(v.number == number and v.status == "pending" for v in self.verifications.values()):
            return self.problem(409, "concurrent-verification", "A verification for this number is already pending.")
        v = Verification(number)
        self.verifications[v.id] = v
        v.emit("server", None, "verification:started", "info", f"Verification started for {mask(number)}.")
        v.start("silent_auth", self.inboxes)
        self.send_json(202, v.state(self.base()))

    def check(self, v, code):
        if code != v.code:
            v.attempts -= 1
            v.emit("server", v.active["channel"], f"{v.active['channel']}:code_checked", "failure", "Wrong code.")
            return self.problem(400, "invalid-code", "That code is not right.", attempts_remaining=v.attempts)
        channel = v.active["channel"]
        v.step(channel)["status"] = "completed"
        v.emit("server", channel, f"{channel}:completed", "success", "The code matched.")
        v.finish("completed")
        self.send_json(200, {"request_id": v.id, "status": "completed"})

    def handset_route(self, number, action):
        if action == "inbox":
            return self.send_json(200, {"messages": self.inboxes.get(number, [])})
        body = self.body()
        v = self.verifications.get(body.get("request_id"))
        if body.get("path") == "wifi":
            return self.send_json(200, {"result": "client_error", "name": "device_not_cellular",
                                        "message": "The phone is not on a cellular connection."})
        if v is None or not v.active or v.active["channel"] != "silent_auth":
            return self.send_json(200, {"result": "failed", "reason": "notAccepted"})
        v.emit("operator", "silent_auth", "silent_auth:check_url_fetched", "info", "The operator got the request.")
        if int(number[-1]) % 2 == 0:
            v.step("silent_auth")["status"] = "completed"
            v.emit("server", "silent_auth", "silent_auth:completed", "success", "Silent auth succeeded.")
            v.finish("completed")
        else:
            v.advance("rejected", self.inboxes)
        self.send_json(200, {"result": "submitted"})

    def events(self, v):
        if "text/event-stream" not in (self.headers.get("Accept") or ""):
            after = int((re.search(r"after=(\d+)", self.path) or [0, 0])[1])
            return self.send_json(200, {"events": [e for e in v.events if e["seq"] > after]})
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        self.sse = (v, int(self.headers.get("Last-Event-ID") or 0))

    def stream(self, v, sent):
        try:
            while True:
                with v.changed:
                    v.changed.wait_for(lambda: len(v.events) > sent, timeout=15)
                    batch = v.events[sent:]
                for e in batch:
                    self.wfile.write(f"id: {e['seq']}\ndata: {json.dumps(e)}\n\n".encode())
                    sent = e["seq"]
                self.wfile.write(b": heartbeat\n\n")
                self.wfile.flush()
                if batch and batch[-1]["label"] == "verification:summary":
                    break
        except OSError:
            pass


def serve(port=0):
    handler = functools.partial(Handler, directory=str(CONSOLE_DIR))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


if __name__ == "__main__":
    s = serve()
    print(f"http://127.0.0.1:{s.server_address[1]}", flush=True)
    threading.Event().wait()
