#!/usr/bin/env python3
"""The messaging issue's figures: creates/s with the dev inbox, with the Twilio fake
answering at once, and with it answering after 300 ms, in one run. A slow provider must
cut creates/s by at most 20 % against the fast one and keep create p99 at half load
<= 50 ms: the send is off the request path. Every send is counted afterwards, so a run
whose messages never reached the provider can't pass."""
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import ROOT, Server, report, wrk, wrk_at_rate  # noqa: E402

SECONDS = int(os.environ.get("BENCH_SECONDS", "5"))
ACCOUNT_SID = "AC" + "be" * 16
AUTH_TOKEN = "bench" + "0a1b" * 6 + "xyz"
FAKE = os.path.join(ROOT, "Tests", "providers", "fake_twilio.py")
PYTHON = os.environ.get("BENCH_PYTHON", sys.executable)


class FakeTwilio:
    """Tests/providers/fake_twilio.py as its own process, answering after `delay_ms`."""

    def __init__(self, delay_ms):
        self.process = subprocess.Popen(
            [PYTHON, FAKE, "--account-sid", ACCOUNT_SID, "--auth-token", AUTH_TOKEN, "--delay-ms", str(delay_ms)],
            stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:\d+", line)
        if not match:
            self.process.kill()
            raise RuntimeError(f"the fake did not start: {line!r}")
        self.url = match.group(0)

    def messages(self):
        """How many Messages.json requests the fake took, and to how many numbers."""
        with urllib.request.urlopen(self.url + "/_fake/requests", timeout=30) as reply:
            records = json.load(reply)
        numbers = [r["form"].get("To") for r in records if r["path"].endswith("/Messages.json")]
        return len(numbers), len(set(numbers))

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def accepted_sends(server):
    text = urllib.request.urlopen(server.url + "/metrics", timeout=10).read().decode()
    found = re.search(r'tacit_messages_total\{channel="sms",result="accepted"\} (\d+)', text)
    return int(found.group(1)) if found else 0


def started(server):
    text = urllib.request.urlopen(server.url + "/metrics", timeout=10).read().decode()
    found = re.search(r"^tacit_verifications_started_total (\d+)", text, re.M)
    return int(found.group(1)) if found else 0


def recovered(server):
    """Sends the worker took from the store rather than from memory: behind a full worker, past their lease."""
    text = urllib.request.urlopen(server.url + "/metrics", timeout=10).read().decode()
    found = re.search(r"^tacit_sends_recovered_total (\d+)", text, re.M)
    return int(found.group(1)) if found else 0


def measure(label, script, fake=None):
    """Peak creates/s, then p99 at half that rate, on a fresh server; then waits (up to
    30 s) for every started verification's message to be accepted by its sender."""
    saved = dict(os.environ)
    extra = []
    if fake:
        # Status callbacks go to TACIT_PUBLIC_URL, which is also what the server prints.
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        extra = ["--port", str(port)]
        os.environ.update({"TACIT_TWILIO_ACCOUNT_SID": ACCOUNT_SID, "TACIT_TWILIO_AUTH_TOKEN": AUTH_TOKEN,
                           "TACIT_TWILIO_FROM": "+15005550006", "TACIT_TWILIO_API_URL": fake.url,
                           "TACIT_PUBLIC_URL": f"http://127.0.0.1:{port}"})
    server = Server(extra=extra)
    try:
        server.start()
        os.environ.clear()
        os.environ.update(saved)
        wrk(server.url, "/healthz", seconds=1)
        peak = wrk(server.url, seconds=SECONDS, script=script, env={"TACIT_NUMBER_BASE": "0"})
        paced = wrk_at_rate(server.url, peak["rps"] / 2, SECONDS, script, {"TACIT_NUMBER_BASE": "12000"}, trial_base=20000)
        # Requests wrk left in flight may still start verifications: wait until the count holds.
        total, deadline = -1, time.monotonic() + 30
        while total != started(server) and time.monotonic() < deadline:
            total = started(server)
            time.sleep(0.5)
        while accepted_sends(server) < total and time.monotonic() < deadline:
            time.sleep(0.1)
        sent = accepted_sends(server)
        late = recovered(server)
        requests, numbers = fake.messages() if fake else (sent, sent)
    finally:
        os.environ.clear()
        os.environ.update(saved)
        server.stop()
        server.remove()
    print(f"  {label}: {peak['rps']:,.0f} creates/s (non-2xx {peak['non2xx']}); at half rate "
          f"{paced['rps']:,.0f}/s p99 {paced.get('p99', 0):.1f} ms; {sent:,} of {total:,} messages accepted, "
          f"{requests - numbers} sent twice, {late:,} recovered from the store")
    return {"rps": peak["rps"], "non2xx": peak["non2xx"] + paced["non2xx"], "p99": paced.get("p99", 1e9),
            "all_sent": total > 0 and sent == total and requests == numbers == total}


def main():
    inbox = measure("dev inbox", "create_sms.lua")
    fast_fake, slow_fake = FakeTwilio(0), FakeTwilio(300)
    try:
        fast = measure("Twilio fake at once", "create_uk.lua", fast_fake)
        slow = measure("Twilio fake after 300 ms", "create_uk.lua", slow_fake)
    finally:
        fast_fake.stop()
        slow_fake.stop()
    rows = [
        ("fast Twilio creates / inbox", f"{fast['rps']:,.0f} req/s = {fast['rps'] / max(inbox['rps'], 1):.0%}", "(reported)", True),
        ("slow Twilio creates / fast", f"{slow['rps']:,.0f} req/s = {slow['rps'] / max(fast['rps'], 1):.0%}", ">= 80%",
         slow["rps"] >= 0.8 * fast["rps"] and slow["non2xx"] == 0),
        ("slow Twilio create p99 at half rate", f"{slow['p99']:.1f} ms", "<= 50 ms", slow["p99"] <= 50),
        ("every message sent, and once", "yes" if all(r["all_sent"] for r in (inbox, fast, slow)) else "no", "all",
         all(r["all_sent"] for r in (inbox, fast, slow))),
    ]
    print("Messaging (creates with a slow provider):")
    return report(rows)


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
