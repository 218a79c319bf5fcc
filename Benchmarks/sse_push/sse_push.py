"""SSE push latency: N subscribers on one verification; a driver process posts device
events one at a time and each subscriber notes when each arrives.

Latency is arrival time minus the event's `at`. `at` is stamped by the server just
before the transaction that stores the event (and is truncated to the millisecond),
so the figure slightly overstates the true commit-to-arrival time. Arrival is the
moment `recv` returned the bytes that completed the event's line: one epoll loop only
reads and timestamps, and all parsing waits until the run is over, so handling one
subscriber's bytes never delays another's timestamp. Server and client share the clock.

Usage: sse_push.py URL SUBSCRIBERS EVENTS"""
import json, multiprocessing, selectors, socket, struct, sys, time, urllib.request
from datetime import datetime

URL, SUBSCRIBERS, EVENTS = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
HOST, PORT = URL.split("//")[1].split(":")[0], int(URL.rsplit(":", 1)[1])
GAP_SECONDS = 0.02
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)


def call(method, path, body=None, token=None):
    request = urllib.request.Request(URL + path, method=method, data=json.dumps(body).encode() if body else None)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read() or b"{}")


def drive(request_id, token, events):
    """Runs in its own process, so posting never holds the readers' interpreter."""
    for index in range(events):
        call("POST", f"/v1/verifications/{request_id}/events",
             {"label": "device:bench", "data": {"index": index % 100}}, token)
        time.sleep(GAP_SECONDS)
    call("DELETE", f"/v1/verifications/{request_id}")


class Subscriber:
    SUMMARY = b'"label":"verification:summary"'

    def __init__(self, request_id):
        self.sock = socket.create_connection((HOST, PORT))
        self.sock.sendall(f"GET /v1/verifications/{request_id}/events HTTP/1.1\r\nHost: {HOST}\r\n"
                          "Accept: text/event-stream\r\n\r\n".encode())
        self.sock.setblocking(False)
        # The kernel stamps when the bytes reached this socket: shown beside the read
        # time, it separates the server's share of the latency from this client's.
        self.sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        self.chunks, self.tail, self.ready, self.done = [], b"", False, False

    def read(self):
        """One non-blocking read; False when nothing was there."""
        try:
            chunk, ancillary, _, _ = self.sock.recvmsg(65536, 64)
        except BlockingIOError:
            return False
        arrived = time.time()
        kernel = arrived
        for level, kind, data in ancillary:
            if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and len(data) >= 16:
                seconds, nanoseconds = struct.unpack("qq", data[:16])
                kernel = seconds + nanoseconds / 1e9
        self.received(chunk, arrived, kernel)
        return True

    def received(self, chunk, arrived, kernel):
        """Keeps the bytes with their arrival times; only cheap byte searches happen here."""
        self.chunks.append((arrived, kernel, chunk))
        seen = self.tail + chunk
        self.ready = self.ready or b"data: " in seen
        self.done = not chunk or self.SUMMARY in seen
        self.tail = seen[-64:]

    def latencies(self, kernel_time=False):
        """Every line completed by a chunk arrived when that chunk did."""
        buffer, found = b"", []
        for read_time, kernel, chunk in self.chunks:
            arrived = kernel if kernel_time else read_time
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                # Chunked framing lines (sizes, blanks) are skipped: only data lines matter.
                start = line.find(b"data: ")
                if start < 0:
                    continue
                event = json.loads(line[start + 6:])
                if event["label"].startswith("device:bench"):
                    at = datetime.fromisoformat(event["at"].replace("Z", "+00:00")).timestamp()
                    found.append((arrived - at) * 1000)
        return found


def measure(count, events, number):
    """Push latencies (ms) of `events` events to `count` subscribers of one new verification."""
    created = call("POST", "/v1/verifications", {"phone_number": number, "workflow": [{"channel": "sms"}],
                                                 "channel_timeout": 900})
    request_id, token = created["request_id"], created["client_token"]
    selector = selectors.EpollSelector()
    subscribers = [Subscriber(request_id) for _ in range(count)]
    for subscriber in subscribers:
        selector.register(subscriber.sock, selectors.EVENT_READ, subscriber)
    driver, open_count = None, count
    while open_count:
        ready = selector.select(timeout=30)
        if not ready:
            raise SystemExit("no event for 30 s")
        for key, _ in ready:
            subscriber = key.data
            if subscriber.read() and subscriber.done:
                selector.unregister(subscriber.sock)
                subscriber.sock.close()
                open_count -= 1
        if driver is None and all(s.ready for s in subscribers):
            driver = multiprocessing.Process(target=drive, args=(request_id, token, events))
            driver.start()
    driver.join()
    return (sorted(latency for subscriber in subscribers for latency in subscriber.latencies()),
            sorted(latency for subscriber in subscribers for latency in subscriber.latencies(kernel_time=True)))


def percentile(values, q):
    return values[min(len(values) - 1, int(q * len(values)))]


def report(name, latencies):
    print(f"  {name}: deliveries={len(latencies)} push latency ms: p50={percentile(latencies, 0.5):.1f} "
          f"p90={percentile(latencies, 0.9):.1f} p99={percentile(latencies, 0.99):.1f} max={latencies[-1]:.1f}")


def main():
    # Baseline in the same run: one subscriber, so the fixed cost of a push is visible.
    single, single_kernel = measure(1, EVENTS, "+99012345642")
    latencies, kernel = measure(SUBSCRIBERS, EVENTS, "+99012345640")
    print(f"subscribers={SUBSCRIBERS} events={EVENTS} (expected deliveries {SUBSCRIBERS * EVENTS})")
    print("arrival = when the client's read returned (the target's measure):")
    report("baseline, 1 subscriber", single)
    report(f"{SUBSCRIBERS} subscribers", latencies)
    print("arrival = when the kernel received the bytes on the client's socket (server's share):")
    report("baseline, 1 subscriber", single_kernel)
    report(f"{SUBSCRIBERS} subscribers", kernel)
    ok = percentile(latencies, 0.5) <= 10 and percentile(latencies, 0.99) <= 100 and len(latencies) == SUBSCRIBERS * EVENTS
    print("PASS" if ok else "FAIL")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
