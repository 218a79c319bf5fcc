"""SSE push latency: N subscribers on one verification; the driver posts device
events one at a time and each subscriber notes when each arrives. Latency is
arrival time minus the event's `at` (stamped by the server just before its commit,
so the figure slightly overstates the true commit-to-arrival time)."""
import asyncio, json, sys, time, urllib.request
from datetime import datetime

URL, SUBSCRIBERS, EVENTS = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
HOST, PORT = URL.split("//")[1].split(":")[0], int(URL.rsplit(":", 1)[1])


def call(method, path, body=None, token=None):
    request = urllib.request.Request(URL + path, method=method, data=json.dumps(body).encode() if body else None)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read() or b"{}")


async def subscribe(request_id, latencies, ready, done):
    reader, writer = await asyncio.open_connection(HOST, PORT)
    writer.write(f"GET /v1/verifications/{request_id}/events HTTP/1.1\r\nHost: {HOST}\r\n"
                 "Accept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    buffer, counted = b"", False
    while True:
        chunk = await reader.read(65536)
        now = time.time()
        if not chunk:
            break
        buffer += chunk
        for line in buffer.split(b"\n")[:-1]:
            text = line.decode(errors="replace")
            # Chunked framing lines (sizes, blanks) are skipped: only data lines matter.
            start = text.find("data: ")
            if start < 0:
                continue
            event = json.loads(text[start + 6:])
            if not counted:
                counted = True
                ready.release()
            if event["label"].startswith("device:bench"):
                at = datetime.fromisoformat(event["at"].replace("Z", "+00:00")).timestamp()
                latencies.append((now - at) * 1000)
            if event["label"] == "verification:summary":
                writer.close()
                done.release()
                return
        buffer = buffer.split(b"\n")[-1]


async def main():
    created = call("POST", "/v1/verifications", {"phone_number": "+99012345640", "workflow": [{"channel": "sms"}],
                                                 "channel_timeout": 900})
    request_id, token = created["request_id"], created["client_token"]
    latencies, ready, done = [], asyncio.Semaphore(0), asyncio.Semaphore(0)
    tasks = [asyncio.create_task(subscribe(request_id, latencies, ready, done)) for _ in range(SUBSCRIBERS)]
    for _ in range(SUBSCRIBERS):
        await ready.acquire()
    loop = asyncio.get_running_loop()
    for index in range(EVENTS):
        await loop.run_in_executor(None, call, "POST", f"/v1/verifications/{request_id}/events",
                                   {"label": "device:bench", "data": {"index": index % 100}}, token)
        await asyncio.sleep(0.02)
    await loop.run_in_executor(None, call, "DELETE", f"/v1/verifications/{request_id}")
    await asyncio.gather(*tasks)
    latencies.sort()
    pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))]
    print(f"subscribers={SUBSCRIBERS} events={EVENTS} deliveries={len(latencies)} (expected {SUBSCRIBERS * EVENTS})")
    print(f"push latency ms: p50={pick(0.5):.1f} p90={pick(0.9):.1f} p99={pick(0.99):.1f} max={latencies[-1]:.1f}")
    ok = pick(0.5) <= 10 and pick(0.99) <= 100 and len(latencies) == SUBSCRIBERS * EVENTS
    print("PASS" if ok else "FAIL")
    sys.exit(0 if ok else 1)

asyncio.run(main())
