#!/usr/bin/env python3
"""Server CPU per request for two builds, run alternately (A, B, A, B, …) so that the
shared machine's noise falls on both alike. For each round and build: a fresh server,
/healthz, sms creates, then right-code checks, each under wrk; the server's own CPU time
(user + system from /proc) over each run is divided by the requests it answered.

    Benchmarks/alternate.py BINARY_A BINARY_B [ROUNDS]

`Benchmarks/alternate REV` builds REV beside the working tree and runs this."""
import os
import re
import statistics
import sys
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import Server, wrk  # noqa: E402
from core import prepare_checks  # noqa: E402

SECONDS = int(os.environ.get("BENCH_SECONDS", "2"))
CHECKS = int(os.environ.get("BENCH_CHECKS", "40000"))


def answered(server, route, status):
    """How many requests to `route` the server has answered with `status` (from /metrics)."""
    text = urllib.request.urlopen(server.url + "/metrics", timeout=10).read().decode()
    found = re.search(rf'tacit_http_requests_total\{{method="POST",route="{re.escape(route)}",status="{status}"\}} (\d+)', text)
    return int(found.group(1)) if found else 0


def counted(server, run, count):
    """Runs `run()` and returns (result, server CPU µs per counted request)."""
    before_cpu, before = server.cpu_seconds(), count()
    result = run()
    requests = count() - before
    return result, (server.cpu_seconds() - before_cpu) * 1e6 / max(requests, 1)


def measure(binary):
    server = Server(binary=binary).start()
    try:
        wrk(server.url, "/healthz", seconds=1)
        health = wrk(server.url, "/healthz", seconds=SECONDS)
        create_result, create_cpu = counted(
            server, lambda: wrk(server.url, seconds=SECONDS, script="create_sms.lua", env={"TACIT_NUMBER_BASE": "0"}),
            lambda: answered(server, "/v1/verifications", 202))
        checks_file = os.path.join(server.dir, "checks.txt")
        prepare_checks(server, CHECKS, checks_file)
        check_result, check_cpu = counted(
            server, lambda: wrk(server.url, seconds=SECONDS, script="check.lua",
                                env={"TACIT_CHECKS": checks_file, "TACIT_THREADS": "2"}),
            lambda: answered(server, "/v1/verifications/:id/check", 200))
    finally:
        server.stop()
        server.remove()
    return {"healthz": health["rps"], "create_rps": create_result["rps"], "create_cpu": create_cpu,
            "check_cpu": check_cpu}


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    a, b = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    figures = {a: [], b: []}
    for round_number in range(1, rounds + 1):
        for name, binary in (("A", a), ("B", b)):
            result = measure(binary)
            figures[binary].append(result)
            print(f"round {round_number} {name}: healthz {result['healthz']:,.0f} req/s, "
                  f"create {result['create_rps']:,.0f} req/s at {result['create_cpu']:.0f} µs CPU, "
                  f"check at {result['check_cpu']:.0f} µs CPU", flush=True)
    for key, label in (("create_cpu", "server CPU per create"), ("check_cpu", "server CPU per check")):
        before = statistics.median(r[key] for r in figures[a])
        after = statistics.median(r[key] for r in figures[b])
        print(f"{label}: A {' / '.join(f'{r[key]:.0f}' for r in figures[a])} µs, "
              f"B {' / '.join(f'{r[key]:.0f}' for r in figures[b])} µs; median B/A = {after / before:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
