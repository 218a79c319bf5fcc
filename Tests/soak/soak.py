#!/usr/bin/env python3
"""Kill-9 soak: runs `tacit serve --dev` with a webhook sink, drives load (starts, checks
with codes from the handset inbox, wrong codes, skips, cancels), kills the server with
SIGKILL at random points, restarts it on the same SQLite file, and at the end checks
every invariant against the server's answers, the database and the webhooks received.

    soak.py --kills 200           (make soak)
    soak.py --kills 20            (make test)
"""
import argparse, json, os, random, re, signal, sqlite3, subprocess, sys, tempfile, threading, time
import urllib.error, urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sink import SECRETS, Sink  # noqa: E402

TERMINAL = {"completed", "failed", "expired", "cancelled"}


class Server:
    def __init__(self, binary, db, sink_url):
        self.binary, self.db, self.process, self.url = binary, db, None, None
        self.log = db + ".log"
        self.env = dict(os.environ, TACIT_WEBHOOK_URL=sink_url, TACIT_WEBHOOK_SECRETS=" ".join(SECRETS),
                        TACIT_WEBHOOK_ALLOW_PRIVATE="1")

    def start(self):
        with open(self.log, "a") as log:
            self.process = subprocess.Popen([self.binary, "serve", "--dev", "--port", "0", "--db", self.db],
                                            stdout=subprocess.PIPE, stderr=log, env=self.env, text=True)
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


def call(base, method, path, body=None):
    if base is None:
        return None, None
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            raw = response.read()
            return response.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as error:
        raw = error.read()
        return error.code, (json.loads(raw) if raw else None)
    except Exception:
        return None, None


class Load:
    """Client-side record of what the server acknowledged."""
    def __init__(self, server, seed):
        self.server, self.random = server, random.Random(seed)
        self.lock = threading.Lock()
        self.started = {}      # request_id -> number
        self.completions = {}  # request_id -> 200 answers to a check
        self.five_hundreds = []

    def step(self):
        base = self.server.url
        with self.lock:
            ids = list(self.started.items())
        roll = self.random.random()
        if roll < 0.4 or not ids:
            number = "+9901" + "".join(self.random.choice("0123456789") for _ in range(6)) + self.random.choice("02468")
            workflow = self.random.choice([[{"channel": "sms"}], [{"channel": "sms"}, {"channel": "voice"}]])
            status, body = call(base, "POST", "/v1/verifications",
                                {"phone_number": number, "workflow": workflow, "channel_timeout": 15})
            if status == 202:
                with self.lock:
                    self.started[body["request_id"]] = number
            self.note(status)
            return
        request_id, number = self.random.choice(ids)
        if roll < 0.75:
            status, inbox = call(base, "GET", "/v1/dev/handsets/%2B" + number[1:] + "/inbox")
            codes = re.findall(r"\d{6}", " ".join(m["body"] for m in (inbox or {}).get("messages", [])))
            code = codes[-1] if codes and self.random.random() < 0.8 else "000000"
            status, _ = call(base, "POST", f"/v1/verifications/{request_id}/check", {"code": code})
            if status == 200:
                with self.lock:
                    self.completions[request_id] = self.completions.get(request_id, 0) + 1
        elif roll < 0.85:
            status, _ = call(base, "POST", f"/v1/verifications/{request_id}/next")
        else:
            status, _ = call(base, "DELETE", f"/v1/verifications/{request_id}")
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


def unsettled(db, server):
    """What is still pending or owed, for a soak that times out: enough to tell a stuck
    timer from a webhook backing off or a server that is no longer running."""
    now = time.time()
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
        pending = c.execute("SELECT id, deadline, last_seq FROM verifications WHERE status = 'pending' ORDER BY deadline LIMIT 5").fetchall()
        owed = c.execute("SELECT request_id, type, attempts, next_attempt_at FROM webhook_outbox "
                         "WHERE state = 'pending' ORDER BY next_attempt_at LIMIT 5").fetchall()
    with open(server.log, errors="replace") as log:
        tail = log.readlines()[-10:]
    lines = [f"  server running: {server.process.poll() is None}; the end of its log:"] + ["    " + t.rstrip() for t in tail]
    lines += [f"  pending {i}: deadline {'none' if d is None else f'{d - now:+.1f} s'}, last_seq {s}" for i, d, s in pending]
    lines += [f"  owed {r} {t}: {a} attempts, next {n - now:+.1f} s" for r, t, a, n in owed]
    return "\n".join(lines)


def check(load, sink, db):
    failures = []
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    statuses = dict(connection.execute("SELECT id, status FROM verifications"))
    events = {}
    for request_id, seq, body in connection.execute("SELECT request_id, seq, body FROM events ORDER BY request_id, seq"):
        events.setdefault(request_id, []).append((seq, json.loads(body)))
    lost = [i for i in load.started if i not in statuses]
    if lost:
        failures.append(f"{len(lost)} acknowledged verifications are missing")
    for request_id, count in load.completions.items():
        if count > 1:
            failures.append(f"{request_id} was completed {count} times")
        if statuses.get(request_id) != "completed":
            failures.append(f"{request_id} answered 200 to a check but is {statuses.get(request_id)}")
    delivered = {(r, t) for _, t, r in sink.received}
    for request_id, status in statuses.items():
        seqs = [seq for seq, _ in events.get(request_id, [])]
        if seqs != list(range(1, len(seqs) + 1)):
            failures.append(f"{request_id}: seq not gap-free")
        if status not in TERMINAL:
            failures.append(f"{request_id}: still {status} after its timers were due")
            continue
        # After the first summary only webhook delivery results may follow, each one
        # followed by the summary again, so the summary is always the last event.
        timeline = [e for _, e in events.get(request_id, [])]
        labels = [e["label"] for e in timeline]
        first = labels.index("verification:summary") if "verification:summary" in labels else None
        after = timeline[first + 1:] if first is not None else []
        if first is None or labels[-1] != "verification:summary" or any(
                e["source"] != "webhook" and e["label"] != "verification:summary" for e in after):
            failures.append(f"{request_id}: summary is not the last event, or something but a webhook follows it")
        if (request_id, "verification." + status) not in delivered:
            failures.append(f"{request_id}: verification.{status} webhook never delivered")
    if sink.bad:
        failures.append(f"{len(sink.bad)} webhooks failed signature verification: {sink.bad[0]}")
    if load.five_hundreds:
        failures.append(f"{len(load.five_hundreds)} answers were 5xx")
    return failures, len(statuses)


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
    db = os.path.join(workdir, "soak.db")
    server = Server(arguments.binary, db, f"http://127.0.0.1:{sink.server_address[1]}/hooks")
    load = Load(server, arguments.seed)
    print(f"soak: seed {arguments.seed}", flush=True)
    stop = threading.Event()

    def drive():
        while not stop.is_set():
            load.step()
    server.start()
    workers = [threading.Thread(target=drive, daemon=True) for _ in range(4)]
    for worker in workers:
        worker.start()
    for kill in range(arguments.kills):
        time.sleep(rng.uniform(0.05, 0.4))
        server.kill()
        server.start()
    stop.set()
    for worker in workers:
        worker.join()

    # Every timer is due within two channel timeouts; then the outbox must drain.
    def settled():
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
            pending = c.execute("SELECT COUNT(*) FROM verifications WHERE status = 'pending'").fetchone()[0]
            owed = c.execute("SELECT COUNT(*) FROM webhook_outbox WHERE state = 'pending'").fetchone()[0]
        return pending == 0 and owed == 0
    try:
        wait_until(settled, 120, "pending verifications to end and webhooks to drain", lambda: unsettled(db, server))
    finally:
        server.stop()
    failures, total = check(load, sink, db)
    print(f"soak: seed {arguments.seed}, {arguments.kills} kills, {total} verifications, "
          f"{len(load.completions)} completed by code, {len(sink.received)} webhooks received")
    for failure in failures[:20]:
        print("FAIL:", failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
