#!/usr/bin/env python3
"""How far each throughput target sits from the floor of Tacit's stack.

`tacit-floor` (Benchmarks/Floor) answers the benchmarked requests on the same HTTP layer
with only the durable writes the contract asks of them, into Tacit's schema through
Tacit's SQLite writer: no gate, parsing, hashing, state machine, event rendering, pushes
or timers. Its rates are reported against `tacit serve`'s own /healthz measured in the
same run, with the same clients the issue benchmarks use (wrk for creates and checks,
the silent benchmark's Python clients for flows). A target above its floor can't be met
by making Tacit's own work cheaper; it would take a cheaper HTTP layer or store."""
import importlib.machinery
import importlib.util
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402
from benchlib import Server, wrk  # noqa: E402
import core  # noqa: E402

SECONDS = int(os.environ.get("BENCH_SECONDS", "5"))
FLOOR_BINARY = os.environ.get("TACIT_FLOOR_BIN", os.path.join(benchlib.ROOT, ".build", "release", "tacit-floor"))


def silent_module():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "silent_flow")
    loader = importlib.machinery.SourceFileLoader("silent_flow", path)
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader("silent_flow", loader))
    loader.exec_module(module)
    return module


def port_of(server):
    return int(server.url.rsplit(":", 1)[1])


def main():
    silent = silent_module()
    tacit = Server().start()
    try:
        wrk(tacit.url, "/healthz", seconds=1)
        health = wrk(tacit.url, "/healthz", seconds=SECONDS)["rps"]
        python_health = len(silent.run_for("healthz", port_of(tacit), SECONDS, 4)[0]) / SECONDS
    finally:
        tacit.stop()
        tacit.remove()
    tacit_binary, benchlib.BINARY = benchlib.BINARY, FLOOR_BINARY
    floor = Server().start()
    try:
        create = wrk(floor.url, seconds=SECONDS, script="create_sms.lua", env={"TACIT_NUMBER_BASE": "0"})
        checks_file = os.path.join(floor.dir, "checks.txt")
        prepared = core.prepare_checks(floor, int(min(40000, max(2000, health * 0.5 * SECONDS))), checks_file)
        check = core.check_rate(floor, checks_file, prepared)
        _, flows, errors, _ = silent.run_for("flow", port_of(floor), SECONDS, 4)
    finally:
        floor.stop()
        floor.remove()
        benchlib.BINARY = tacit_binary
    flow_rate = len(flows) / SECONDS
    print(f"tacit serve GET /healthz (baseline): {health:,.0f} req/s with wrk, {python_health:,.0f} req/s with the silent benchmark's clients")
    rows = [
        ("create (sms): 2 writes", create["rps"], health, 0.25, create["non2xx"]),
        ("check: 1 write", check["rps"], health, 0.40, 0),
        ("silent flow: 5 requests, 4 writes", flow_rate, python_health, 0.10, errors),
    ]
    # Both runs keep every core busy (server and clients share them), so machine time per
    # request is cores / rate: what the target allows, less what the floor already takes,
    # is what is left for everything Tacit does beyond the floor.
    cores = os.cpu_count() or 1
    print(f"{'floor of':36} {'rate':>10} {'of healthz':>10} {'target':>7}  machine time per request")
    for name, rate, base, target, failures in rows:
        allowed, taken = 1e6 * cores / (target * base), 1e6 * cores / rate
        left = f"{allowed - taken:,.0f} µs left for Tacit's own work" if allowed > taken else f"the floor alone is {taken - allowed:,.0f} µs over"
        failed = f" ({failures} failed requests)" if failures else ""
        print(f"{name:36} {rate:>8,.0f}/s {rate / base:>10.1%} {target:>7.0%}  target allows {allowed:,.0f} µs, floor takes {taken:,.0f}: {left}{failed}")
    return 0 if all(failures == 0 for *_, failures in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
