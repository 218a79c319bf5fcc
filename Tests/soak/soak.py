#!/usr/bin/env python3
"""Kill-9 soak: runs `tacit serve --dev` with a webhook sink, drives load (starts, checks
with codes from the handset inbox, wrong codes, skips, cancels), kills the server with
SIGKILL at random points, restarts it on the same SQLite file, and at the end checks
every invariant against the server's answers, the database and the webhooks received.
For the first kills (half, ten at most) the handset inbox answers late (TACIT_DEV_INBOX_LATENCY_MS),
so kills land between a send's commit and the provider's answer: every send queued at
such a kill must be delivered exactly once after the restart.

    soak.py --kills 200           (make soak)
    soak.py --kills 20            (make test)
"""
import argparse, json, os, random, re, signal, subprocess, sys, tempfile, threading, time
import urllib.error, urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from database import SQLiteDatabase  # noqa: E402
from ledger import check, queued_sends, settled, unsettled  # noqa: E402

# Long enough that most kills in the slow half find a send in flight, short enough that a
# start still answers well within the client's timeout.
SLOW_INBOX_MS = "300"
from sink import SECRETS, Sink  # noqa: E402


class Server:
    def __init__(self, binary, db, sink_url):
        self.binary, self.db, self.process, self.url = binary, db, None, None
        self.log = db + ".log"
        self.env = dict(os.environ, TACIT_WEBHOOK_URL=sink_url, TACIT_WEBHOOK_SECRETS=" ".join(SECRETS),
                        TACIT_WEBHOOK_ALLOW_PRIVATE="1")

    def start(self, slow=False):
        env = dict(self.env, TACIT_DEV_INBOX_LATENCY_MS=SLOW_INBOX_MS) if slow else self.env
        with open(self.log, "a") as log:
            self.process = subprocess.Popen([self.binary, "serve", "--dev", "--port", "0", "--db", self.db],
                                            stdout=subprocess.PIPE, stderr=log, env=env, text=True)
        for line in self.process.stdout:
            match = re.search(r"listening on (http://\S+)", line)
            if match:
                self.url = match.group(1)
                threading.Thread(target=self.process.stdout.read, daemon=True).start()
                return
        raise SystemExit("the server did not start")

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self.url = None

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=30)


def call(base, method, path, body=None, headers=None):
    if base is None:
        return None, None
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers=dict({"Content-Type": "application/json"} if data else {}, **(headers or {})))
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, parsed(response.read())
    except urllib.error.HTTPError as error:
        return error.code, parsed(error.read())
    except Exception:
        return None, None


def parsed(raw):
    """The JSON answer, or None: a proxy in front (soak_ha.py) answers its own errors in HTML."""
    try:
        return json.loads(raw) if raw else None
    except ValueError:
        return None


class Load:
    """Client-side record of what the server acknowledged. The two-instance soak's load
    (soak_ha.py) is this one, calling through HAProxy, retrying and reading both inboxes."""
    # Each step's timeout: the shortest Vonage allows, so timers fire often in a short run.
    channel_timeout = 15

    def __init__(self, server, seed):
        self.server, self.random = server, random.Random(seed)
        self.lock = threading.Lock()
        self.started = {}      # request_id -> number
        self.completions = {}  # request_id -> 200 answers to a check
        self.five_hundreds = []
        # (request_id, step) of sends queued when the server was killed; the load leaves
        # those verifications alone, so each such step must end with its code sent once.
        self.in_flight = set()
        self.touched = set()   # request_ids the load did more to than start

    def request(self, method, path, body=None):
        return call(self.server.url, method, path, body)

    def start(self, body):
        return self.request("POST", "/v1/verifications", body)

    def messages(self, number):
        _, inbox = self.request("GET", "/v1/dev/handsets/%2B" + number[1:] + "/inbox")
        return (inbox or {}).get("messages", [])

    def new_number(self):
        return "+9901" + "".join(self.random.choice("0123456789") for _ in range(6)) + self.random.choice("02468")

    def step(self):
        with self.lock:
            held = {request_id for request_id, _ in self.in_flight}
            ids = [(i, n) for i, n in self.started.items() if i not in held]
        roll = self.random.random()
        if roll < 0.4 or not ids:
            number = self.new_number()
            workflow = self.random.choice([[{"channel": "sms"}], [{"channel": "sms"}, {"channel": "voice"}]])
            status, body = self.start({"phone_number": number, "workflow": workflow, "channel_timeout": self.channel_timeout})
            if status == 202:
                with self.lock:
                    self.started[body["request_id"]] = number
            self.note(status)
            return
        request_id, number = self.random.choice(ids)
        with self.lock:
            self.touched.add(request_id)
        if roll < 0.75:
            codes = re.findall(r"\d{6}", " ".join(m["body"] for m in self.messages(number)))
            code = codes[-1] if codes and self.random.random() < 0.8 else "000000"
            status, _ = self.request("POST", f"/v1/verifications/{request_id}/check", {"code": code})
            if status == 200:
                with self.lock:
                    self.completions[request_id] = self.completions.get(request_id, 0) + 1
        elif roll < 0.85:
            status, _ = self.request("POST", f"/v1/verifications/{request_id}/next")
        else:
            status, _ = self.request("DELETE", f"/v1/verifications/{request_id}")
        self.note(status)

    def note(self, status):
        if status is not None and status >= 500 and status != 503:
            self.five_hundreds.append(status)


def wait_until(predicate, timeout, what, explain=lambda: ""):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return
        time.sleep(0.25)
    raise SystemExit(f"soak: timed out waiting for {what}\n{explain()}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--binary", default=os.environ.get("TACIT_BIN", ".build/debug/tacit"))
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    sink = Sink()
    threading.Thread(target=sink.serve_forever, daemon=True).start()
    workdir = tempfile.mkdtemp(prefix="tacit-soak-")
    path = os.path.join(workdir, "soak.db")
    db = SQLiteDatabase(path)
    server = Server(arguments.binary, path, f"http://127.0.0.1:{sink.server_address[1]}/hooks")
    load = Load(server, arguments.seed)
    print(f"soak: seed {arguments.seed}", flush=True)
    stop = threading.Event()

    def drive():
        while not stop.is_set():
            load.step()
    # A send held at a kill is taken again when the dead server's lease (10 s) runs out:
    # by then the slow kills are over, so it is not killed in flight a second time.
    slow_kills = min(arguments.kills // 2, 10)
    server.start(slow=slow_kills > 0)
    workers = [threading.Thread(target=drive, daemon=True) for _ in range(4)]
    for worker in workers:
        worker.start()
    for kill in range(arguments.kills):
        time.sleep(rng.uniform(0.05, 0.4))
        if kill < slow_kills:
            with load.lock:
                load.in_flight |= queued_sends(db)
        server.kill()
        server.start(slow=kill + 1 < slow_kills)
    stop.set()
    for worker in workers:
        worker.join()

    # Every timer is due within two channel timeouts; then the outbox must drain.
    try:
        wait_until(lambda: settled(db), 120, "pending verifications to end and webhooks to drain", lambda: unsettled(db, server))
    finally:
        server.stop()
    failures, total = check(load, sink, db)
    print(f"soak: seed {arguments.seed}, {arguments.kills} kills, {total} verifications, "
          f"{len(load.completions)} completed by code, {len(sink.received)} webhooks received, "
          f"{len(load.in_flight)} sends in flight at a kill")
    for failure in failures[:20]:
        print("FAIL:", failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
