#!/usr/bin/env python3
"""Issue 2's figures: create and check throughput against /healthz measured in the same
run, create latency at half its peak rate, and 100,000 pending verifications through a
kill -9 and restart."""
import http.client
import json
import os
import re
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import Server, metric, report, wrk, wrk_at_rate  # noqa: E402

SECONDS = int(os.environ.get("BENCH_SECONDS", "5"))
PENDING = int(os.environ.get("BENCH_PENDING", "100000"))


def keepalive_calls(hostport, calls):
    """Runs (method, path, body) calls over one keep-alive connection; returns JSON replies."""
    host, port = hostport.rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    replies = []
    for method, path, body in calls:
        connection.request(method, path, body=json.dumps(body) if body is not None else None,
                           headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        replies.append((response.status, json.loads(response.read() or b"{}")))
    connection.close()
    return replies


def prepare_checks(server, count, path):
    """Creates `count` sms verifications and writes "id code" lines read from the inbox."""
    def worker(slot, lines):
        numbers = [f"+9907{slot}{n:07d}" for n in range(count // 2)]
        created = keepalive_calls(server.hostport, [("POST", "/v1/verifications", {"phone_number": n, "workflow": [{"channel": "sms"}], "channel_timeout": 900}) for n in numbers])
        inboxes = keepalive_calls(server.hostport, [("GET", "/v1/dev/handsets/%2B" + n[1:] + "/inbox", None) for n in numbers])
        for (status, body), (_, inbox) in zip(created, inboxes):
            if status == 202:
                code = re.search(r"\b(\d{6})\b", inbox["messages"][-1]["body"]).group(1)
                lines.append(f"{body['request_id']} {code}")
    lines_a, lines_b = [], []
    threads = [threading.Thread(target=worker, args=(1, lines_a)), threading.Thread(target=worker, args=(2, lines_b))]
    [t.start() for t in threads]
    [t.join() for t in threads]
    with open(path, "w") as out:
        out.write("\n".join(lines_a + lines_b) + "\n")
    return len(lines_a) + len(lines_b)


def checks_completed(server):
    text = urllib.request.urlopen(server.url + "/metrics", timeout=10).read().decode()
    pattern = r'tacit_http_requests_total\{method="POST",route="/v1/verifications/:id/check",status="200"\} (\d+)'
    found = re.search(pattern, text)
    return int(found.group(1)) if found else 0


def check_rate(server, checks_file, prepared, completed=None):
    """Right-code checks per second while prepared verifications last.

    Only checks that completed a verification count, read from /metrics every 0.1 s
    while wrk runs. The window starts at the last sample before the first completion
    (wrk's own start-up is left out) and ends at the first sample past 98 % of the
    prepared verifications, so a run that uses them all up before its end still
    reports the rate it ran at, not the total spread over the whole run. `completed`
    counts them instead of `server`'s /metrics (several instances behind one address)."""
    completed = completed or (lambda: checks_completed(server))
    samples, done = [], threading.Event()

    def sample():
        while not done.is_set():
            samples.append((time.monotonic(), completed()))
            time.sleep(0.1)

    before = completed()
    sampler = threading.Thread(target=sample)
    sampler.start()
    try:
        result = wrk(server.url, seconds=SECONDS, script="check.lua", env={"TACIT_CHECKS": checks_file, "TACIT_THREADS": "2"})
    finally:
        done.set()
        sampler.join()
    samples.append((time.monotonic(), completed()))
    start = max((i for i, (_, count) in enumerate(samples) if count == before), default=0)
    end = next((i for i, (_, count) in enumerate(samples) if count - before >= 0.98 * prepared), len(samples) - 1)
    (t0, c0), (t1, c1) = samples[start], samples[max(end, start + 1)]
    result["rps"] = (c1 - c0) / (t1 - t0)
    result["window"] = t1 - t0
    result["completed"] = samples[-1][1] - before
    return result


def throughput(rows):
    server = Server().start()
    try:
        wrk(server.url, "/healthz", seconds=1)
        health = wrk(server.url, "/healthz", seconds=SECONDS)
        create = wrk(server.url, seconds=SECONDS, script="create_sms.lua", env={"TACIT_NUMBER_BASE": "0"})
        paced = wrk_at_rate(server.url, create["rps"] / 2, SECONDS, "create_sms.lua", {"TACIT_NUMBER_BASE": "50000000"},
                            trial_base=70000000)
        checks_file = os.path.join(server.dir, "checks.txt")
        prepared = prepare_checks(server, int(min(40000, max(2000, health["rps"] * 0.5 * SECONDS))), checks_file)
        check = check_rate(server, checks_file, prepared)
    finally:
        server.stop()
        server.remove()
    base = health["rps"]
    print(f"GET /healthz (baseline): {base:,.0f} req/s, p99 {health.get('p99', 0):.2f} ms")
    rows += [
        ("create rate / healthz", f"{create['rps']:,.0f} req/s = {create['rps'] / base:.0%}", ">= 25%", create["rps"] / base >= 0.25 and create["non2xx"] == 0),
        ("create p99 at half rate", f"{paced['rps']:,.0f} req/s, p99 {paced.get('p99', 0):.1f} ms", "<= 25 ms", paced.get("p99", 1e9) <= 25),
        ("check rate / healthz", f"{check['rps']:,.0f} req/s = {check['rps'] / base:.0%}", ">= 40%", check["rps"] / base >= 0.40),
    ]
    print(f"  checks: {check['completed']:,} of {prepared:,} prepared verifications completed; "
          f"the rate is over the {check['window']:.1f} s they lasted")


def pending_and_restart(rows):
    server = Server(extra=[]).start()
    try:
        batch = 0
        started = time.monotonic()
        while (metric(server.url, "tacit_verifications_pending") or 0) < PENDING and time.monotonic() - started < 240:
            wrk(server.url, seconds=5, script="create_sms.lua", env={"TACIT_NUMBER_BASE": str(batch * 10_000_000), "TACIT_TIMEOUT": "900"})
            batch += 1
        pending = metric(server.url, "tacit_verifications_pending")
        rss = server.rss_mb()
        # A last batch with the shortest timeout, to be overdue when the server comes back.
        overdue = wrk(server.url, seconds=2, connections=8, script="create_sms.lua", env={"TACIT_NUMBER_BASE": "900000000", "TACIT_TIMEOUT": "15"})
        total = metric(server.url, "tacit_verifications_pending")
        server.kill9()
        time.sleep(16)
        again = Server(db=server.db).start()
        ready = again.ready_seconds
        fire_seconds = None
        while time.monotonic() - again.started < 30:
            if (metric(again.url, "tacit_verifications_pending") or 0) <= pending:
                fire_seconds = time.monotonic() - again.started
                break
            time.sleep(0.05)
        again.stop()
        again.remove()
    finally:
        server.stop()
        server.remove()
    rows += [
        (f"RSS with {pending:,.0f} pending", f"{rss:,.0f} MB", "<= 400 MB", rss <= 400 and pending >= PENDING),
        ("/readyz after kill -9", f"{ready:.2f} s ({total:,.0f} pending)", "<= 2 s", ready <= 2),
        (f"{total - pending:,.0f} overdue timers fired", f"{fire_seconds or 99:.2f} s after restart", "<= 5 s", fire_seconds is not None and fire_seconds <= 5),
    ]


def main():
    rows = []
    if os.environ.get("BENCH_SKIP_THROUGHPUT") != "1":
        throughput(rows)
    if os.environ.get("BENCH_SKIP_PENDING") != "1":
        pending_and_restart(rows)
    print("Issue 2 (server core):")
    return report(rows)


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
