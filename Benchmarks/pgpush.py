"""SSE push latency across instances: a subscriber on one instance, device events written
one at a time through another. Latency is the event's arrival at the subscriber minus its
`at`, which the writing instance stamps just before the transaction that stores it (to the
millisecond; both instances and this client share the clock), so the figure slightly
overstates commit-to-arrival. An event that has not arrived TIMEOUT seconds after its
write was answered is a timeout: it counts, and no percentile hides it."""
import json
import socket
import threading
import time
import urllib.request
from datetime import datetime

GAP_SECONDS = 0.02
TIMEOUT = 1.0


def call(base, method, path, body=None, token=None):
    request = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body else None)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read() or b"{}")


class Subscriber(threading.Thread):
    """Reads one event stream on its own thread and notes when each device event's line
    arrived; parsing is cheap next to the 20 ms between events."""

    def __init__(self, base, request_id):
        super().__init__(daemon=True)
        host, port = base.split("//", 1)[1].rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)))
        self.sock.sendall(f"GET /v1/verifications/{request_id}/events HTTP/1.1\r\nHost: {host}\r\n"
                          "Accept: text/event-stream\r\n\r\n".encode())
        self.ready = threading.Event()
        self.arrivals = {}  # index -> (arrival, at)
        self.lock = threading.Lock()

    def run(self):
        buffer = b""
        while True:
            try:
                chunk = self.sock.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            arrived = time.time()
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                start = line.find(b"data: ")
                if start < 0:
                    continue
                self.ready.set()
                event = json.loads(line[start + 6:])
                if event["label"].startswith("device:bench"):
                    at = datetime.fromisoformat(event["at"].replace("Z", "+00:00")).timestamp()
                    with self.lock:
                        self.arrivals[event["data"]["index"]] = (arrived, at)

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


def measure(reader, writer, events, number):
    """Latencies (ms) of the events that arrived, and how many timed out, for a subscriber
    on `reader` while `writer` (another instance, or the same one for the baseline) writes."""
    created = call(writer, "POST", "/v1/verifications",
                   {"phone_number": number, "workflow": [{"channel": "sms"}], "channel_timeout": 900})
    request_id, token = created["request_id"], created["client_token"]
    subscriber = Subscriber(reader, request_id)
    subscriber.start()
    if not subscriber.ready.wait(10):
        raise RuntimeError("the event stream sent nothing in 10 s")
    answered = {}
    for index in range(events):
        call(writer, "POST", f"/v1/verifications/{request_id}/events",
             {"label": "device:bench", "data": {"index": index}}, token)
        answered[index] = time.time()
        time.sleep(GAP_SECONDS)
    deadline = answered[events - 1] + TIMEOUT
    while time.time() < deadline and len(subscriber.arrivals) < events:
        time.sleep(0.01)
    call(writer, "DELETE", f"/v1/verifications/{request_id}")
    subscriber.close()
    with subscriber.lock:
        arrivals = dict(subscriber.arrivals)
    latencies = sorted((arrived - at) * 1000 for index, (arrived, at) in arrivals.items()
                       if arrived - answered[index] <= TIMEOUT)
    return latencies, events - len(latencies)


def percentile(values, q):
    return values[min(len(values) - 1, int(q * len(values)))] if values else None


def describe(latencies, timeouts):
    if not latencies:
        return f"no event arrived, {timeouts} timeouts"
    return f"p50 {percentile(latencies, 0.5):.1f} ms, p99 {percentile(latencies, 0.99):.1f} ms, {timeouts} timeouts"
