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

One more adapter is one more entry in ADAPTERS: its fakes, its settings, its numbers and
what its check sends. Targets: server time p99 <= 50 ms per adapter; flows/s against the
virtual operator within 10 % of the build given with --against (default: no comparison)."""
import argparse
import http.client
import json
import os
import statistics
import sys
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "Tests", "providers"))
from benchlib import BINARY, Server, report  # noqa: E402
import conftest  # noqa: E402  (first: it imports the support modules that import it)
import camara_support  # noqa: E402
import silent_support  # noqa: E402
import vonage_verify_support  # noqa: E402

CELLULAR = "127.0.0.2"

# One address starting hundreds of verifications a second would meet the per-address limit.
LIMITS = ("--rate-requests-per-key", "100000000/60", "--rate-verifications-per-ip", "100000000/3600")


class Timed:
    """Keep-alive connections per (source, host), each request timed; cookies per host."""

    def __init__(self, source, headers=None):
        self.source, self.headers, self.connections, self.cookies = source, headers or {}, {}, {}

    def request(self, method, url, body=None):
        parts = urllib.parse.urlsplit(url)
        connection = self.connections.get(parts.netloc)
        if connection is None:
            connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10, source_address=(self.source, 0))
            self.connections[parts.netloc] = connection
        headers = dict(self.headers)
        jar = self.cookies.setdefault(parts.netloc, {})
        if jar:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in jar.items())
        if body is not None:
            headers["Content-Type"] = "application/json"
        begin = time.perf_counter()
        connection.request(method, parts.path + ("?" + parts.query if parts.query else ""), body=body, headers=headers)
        reply = connection.getresponse()
        data = reply.read()
        spent = time.perf_counter() - begin
        if reply.getheader("Connection", "").lower() == "close":
            connection.close()
            del self.connections[parts.netloc]
        for cookie in reply.headers.get_all("Set-Cookie") or []:
            name, _, rest = cookie.partition("=")
            jar[name.strip()] = rest.split(";")[0]
        return reply.status, data, reply.getheader("Location"), spent


class Adapter:
    """One silent provider: the fakes it needs, the server's settings for it, a number the
    fake completes, and the check's body from the device's last answer."""
    name = ""
    outbound = 0  # Tacit's own calls to the fake per flow, for the printed note.

    def start(self):
        pass

    def env(self):
        """The server's settings for this provider (variables, as `tacit serve` reads them)."""
        return {}

    def server(self, binary):
        """`tacit serve --dev` with the provider's settings: dev keeps the virtual operator for
        +990 numbers and routes every other number to the configured providers. Its port is
        chosen first, since the public URL (CAMARA's redirect URI) must name it."""
        port = conftest.free_port()
        saved = dict(os.environ)
        os.environ.update(self.env() | {"TACIT_PUBLIC_URL": f"http://127.0.0.1:{port}"})
        try:
            return Server(binary=binary, extra=["--port", str(port), *LIMITS]).start()
        finally:
            os.environ.clear()
            os.environ.update(saved)

    def number(self, index):
        """A distinct UK mobile per index, spread as Benchmarks/lua/create_uk.lua spreads them
        (one per 100-block, 25 per 10,000-block) so the sequential-number guard lets every
        start through; ending in 02, which the tru.ID and Twilio fakes answer as a match with
        no SIM change, and Verify's as a SIM that holds the number (an even last digit)."""
        return "+4474%d%03d%02d02" % (1 + (index // 25000) % 9, index % 1000, (index // 1000) % 25)

    def check_body(self, status, data):
        return {"code": json.loads(data)["code"]}

    def stop(self):
        pass


class TruID(Adapter):
    name, outbound = "truid", 2  # the check's create and its PATCH; the token is kept

    def start(self):
        self.fake = silent_support.Fake("fake_truid.py", "--client-id", silent_support.CLIENT_ID,
                                        "--client-secret", silent_support.CLIENT_SECRET)

    def env(self):
        return {"TACIT_TRUID_CLIENT_ID": silent_support.CLIENT_ID, "TACIT_TRUID_CLIENT_SECRET": silent_support.CLIENT_SECRET,
                "TACIT_TRUID_URL": self.fake.url, "TACIT_ROUTE_SILENT_AUTH": "truid"}

    def stop(self):
        self.fake.stop()


class TwilioSNA(Adapter):
    name, outbound = "twilio", 2  # the SNA verification's create and its VerificationCheck

    def start(self):
        self.fake = silent_support.Fake("fake_twilio_verify.py", "--account-sid", conftest.ACCOUNT_SID,
                                        "--auth-token", conftest.AUTH_TOKEN, "--service-sid", silent_support.SERVICE_SID)

    def env(self):
        return conftest.twilio_env("http://127.0.0.1:9") | {
            "TACIT_TWILIO_VERIFY_SERVICE_SID": silent_support.SERVICE_SID, "TACIT_TWILIO_VERIFY_URL": self.fake.url,
            "TACIT_ROUTE_SILENT_AUTH": "twilio"}

    def check_body(self, status, data):
        return {}

    def stop(self):
        self.fake.stop()


class CAMARA(Adapter):
    name, outbound = "camara", 2  # the code's redemption at /token and the verify call

    def start(self):
        self.fake = camara_support.FakeCamara()

    def env(self):
        return self.fake.env() | {"TACIT_ROUTE_SILENT_AUTH": "camara"}

    def server(self, binary):
        server = super().server(binary)
        self.fake.control("register", {"redirect_uri": server.url + "/v1/silent/callback"})
        return server

    def stop(self):
        self.fake.stop()


class VonageVerify(Adapter):
    """Verify v2's silent authentication: the check URL is Verify's own, so the device's every
    hop is at the fake, which ends with Vonage's `{request_id, code}`; the code goes back
    through Tacit's check, which Tacit redeems at Verify. The application's JWT is signed
    inside Tacit for each call and costs no request."""
    name, outbound = "vonage", 2  # the silent request's POST /v2/verify and the code's POST /v2/verify/{id}

    def start(self):
        self.fake = vonage_verify_support.FakeVerify()

    def env(self):
        return vonage_verify_support.verify_env(self.fake)

    def check_body(self, status, data):
        # As the e2e test reads it: anything but Verify's 200 with a code is a failed flow, named.
        if status != 200:
            raise RuntimeError(f"vonage: the device's last hop answered {status}: {data[:200]!r}")
        return super().check_body(status, data)

    def stop(self):
        self.fake.stop()


class Virtual(Adapter):
    """The virtual operator inside `tacit serve --dev`: every hop is Tacit's own."""
    name = "virtual"

    def number(self, index):
        return "+990%07d0" % (index % 10000000)


ADAPTERS = {adapter.name: adapter for adapter in (TruID(), TwilioSNA(), CAMARA(), VonageVerify(), Virtual())}


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
