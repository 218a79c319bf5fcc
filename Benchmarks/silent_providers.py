#!/usr/bin/env python3
"""The silent-provider issue's figures: server time per silent flow through each adapter
against its fake (tru.ID SubscriberCheck, Twilio Verify SNA, CAMARA Number Verification,
Vonage Verify v2 silent authentication), each fake its own process on loopback answering at
once, and flows/s against the virtual operator for two builds side by side, flow by flow in turns.

A flow is sequential: start a silent-only verification, open its check URL as the phone
does (from 127.0.0.2, the cellular address, following every redirect with the cookies a
browser keeps), then check with what the last hop answered. The app's and the device's
connections are kept alive, one per host and source address.

Server time per flow is the sum of the latencies of the flow's requests to Tacit, each
timed from just before the request is written to just after its answer is read. Left out:
the device's requests to the fake operator, and the client's own work between requests.
Left in: the calls Tacit itself makes to the fake while it answers (the tru.ID, Twilio and
Vonage creates and checks, CAMARA's token and verify), which the fake answers without delay;
their count per flow is printed beside the figure.

    Benchmarks/silent_providers.py [--flows N] [--rounds N] [--against BINARY] [ADAPTER …]

`Benchmarks/run silent-providers` runs it on the release build; BENCH_AGAINST names the
other build (`Benchmarks/alternate REV` leaves REV's at .build/alternate-REV/.build/release/tacit).

One more adapter is one more entry in ADAPTERS (silent_adapters.py): its fakes, its
settings, its numbers and what its check sends. Targets: server time p99 <= 50 ms per
adapter; flows/s against the virtual operator within 10 % of the build given with
--against (default: no comparison)."""
import argparse
import json
import os
import statistics
import sys
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from benchlib import BINARY, report  # noqa: E402
from silent_adapters import ADAPTERS, CELLULAR, Timed  # noqa: E402


def flow(adapter, server, app, number):
    """One flow; returns (time in Tacit's requests, time in the fake's, total) in seconds."""
    begin = time.perf_counter()
    body = json.dumps({"phone_number": number, "workflow": [{"channel": "silent_auth"}]})
    status, data, _, spent = app.request("POST", server.url + "/v1/verifications", body)
    if status != 202:
        raise RuntimeError(f"{adapter.name}: the start answered {status}: {data[:200]!r}")
    started = json.loads(data)
    inside, outside = spent, 0.0
    device, target = Timed(CELLULAR), started["check_url"]
    for _ in range(10):
        status, data, location, spent = device.request("GET", target)
        if target.startswith(server.url):
            inside += spent
        else:
            outside += spent
        if status not in (301, 302, 303, 307, 308) or not location:
            break
        target = urllib.parse.urljoin(target, location)
    check = json.dumps(adapter.check_body(status, data))
    status, data, _, spent = app.request("POST", f"{server.url}/v1/verifications/{started['request_id']}/check", check)
    if status != 200 or json.loads(data).get("status") != "completed":
        raise RuntimeError(f"{adapter.name}: the check answered {status}: {data[:200]!r}")
    return inside + spent, outside, time.perf_counter() - begin


def run(adapter, binary, flows, first):
    """`flows` sequential flows on a fresh server, after 50 unmeasured ones; per-flow figures."""
    server = adapter.server(binary)
    try:
        app = Timed("127.0.0.1")
        for index in range(first, first + 50):
            flow(adapter, server, app, adapter.number(index))
        begin = time.perf_counter()
        figures = [flow(adapter, server, app, adapter.number(first + 50 + index)) for index in range(flows)]
        return figures, flows / (time.perf_counter() - begin)
    finally:
        server.stop()
        server.remove()


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))]


def adapters_figures(names, binary, flows):
    rows = []
    for name in names:
        adapter = ADAPTERS[name]
        adapter.start()
        try:
            figures, rate = run(adapter, binary, flows, 0)
        finally:
            adapter.stop()
        inside = [1000 * f[0] for f in figures]
        outside = [1000 * f[1] for f in figures]
        print(f"  {name}: {len(figures)} flows, {rate:,.0f} flows/s; server time p50 {percentile(inside, 0.5):.1f} ms, "
              f"p99 {percentile(inside, 0.99):.1f} ms (with {adapter.outbound} calls of its own to the fake); "
              f"device at the fake p50 {percentile(outside, 0.5):.1f} ms", flush=True)
        p99 = percentile(inside, 0.99)
        rows.append((f"{name} server time p99", f"{p99:.1f} ms", "<= 50 ms", p99 <= 50))
    return rows


def compare(against, binary, flows, rounds):
    """Flows/s against the virtual operator of two builds running side by side, their flows
    taken in turns one by one, so that a spell in which the shared machine runs slower falls
    on both builds alike. Each round starts both servers afresh; the median ratio of the rounds."""
    ratios = []
    adapter = ADAPTERS["virtual"]
    for round_number in range(1, rounds + 1):
        servers = {}
        try:
            for label, path in (("A", against), ("B", binary)):
                servers[label] = adapter.server(path)
            clients = {label: Timed("127.0.0.1") for label in servers}
            first = {label: 1000000 * round_number + 500000 * index for index, label in enumerate(servers)}
            for index in range(50):
                for label, server in servers.items():
                    flow(adapter, server, clients[label], adapter.number(first[label] + index))
            spent = {label: 0.0 for label in servers}
            for index in range(50, 50 + flows):
                # A before B, then B before A, so neither always follows the other's flow.
                for label, server in sorted(servers.items(), reverse=index % 2 == 1):
                    spent[label] += flow(adapter, server, clients[label], adapter.number(first[label] + index))[2]
        finally:
            for server in servers.values():
                server.stop()
                server.remove()
        rates = {label: flows / seconds for label, seconds in spent.items()}
        ratios.append(rates["B"] / rates["A"])
        print(f"  round {round_number}: A {rates['A']:,.0f}, B {rates['B']:,.0f} virtual-operator flows/s, "
              f"B over A {ratios[-1]:.2f}", flush=True)
    ratio = statistics.median(ratios)
    return [("virtual flows/s, B over A", f"{ratio:.2f} (median of {rounds})", ">= 0.90", ratio >= 0.9)]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("adapters", nargs="*", default=[name for name in ADAPTERS if name != "virtual"])
    parser.add_argument("--flows", type=int, default=int(os.environ.get("BENCH_FLOWS", "500")))
    parser.add_argument("--rounds", type=int, default=int(os.environ.get("BENCH_ROUNDS", "5")))
    parser.add_argument("--binary", default=BINARY)
    parser.add_argument("--against", default=os.environ.get("BENCH_AGAINST"),
                        help="a second build's tacit binary (also BENCH_AGAINST), for the virtual operator's flows/s in turns")
    args = parser.parse_args()
    unknown = [name for name in args.adapters if name not in ADAPTERS]
    if unknown:
        parser.error(f"unknown adapter {unknown[0]}; known: {', '.join(ADAPTERS)}")
    print(f"Silent providers ({args.flows} sequential flows each, fakes answering at once):")
    rows = adapters_figures(args.adapters, args.binary, args.flows)
    if args.against:
        print(f"Virtual operator, A = {args.against}, B = {args.binary}:")
        rows += compare(args.against, args.binary, args.flows, args.rounds)
    return report(rows)


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
