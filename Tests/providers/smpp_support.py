"""Fixtures for the SMPP tests: the real SMSC (smsc_peer.py, an smpp34 server behind a
relay) as its own process, a non-dev `tacit serve` with TACIT_ROUTE_SMS=smpp aimed at it
(Twilio stays configured for voice, the next step), and a wait on the timeline's SSE
stream for an event that a receipt produces after its answer."""
import json
import re
import subprocess
import sys
import urllib.request

import pytest

from conftest import HERE, Tacit, http

SYSTEM_ID = "tacit-otp"
PASSWORD = "Sm9pw7x"
SYSTEM_TYPE = "OTP"
SOURCE = "Acme"


class SMSCPeer:
    """The SMSC's process and its control routes."""

    def __init__(self):
        self.process = subprocess.Popen([sys.executable, str(HERE / "smsc_peer.py")], stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"smpp 127\.0\.0\.1:(\d+) control (http://127\.0\.0\.1:\d+)", line)
        if not match:
            self.process.kill()
            raise RuntimeError(f"the SMSC did not start: {line!r}")
        self.port, self.url = int(match.group(1)), match.group(2)

    def listing(self, name):
        return http("GET", f"{self.url}/_fake/{name}")[1]

    def submits(self, destination=None):
        return [s for s in self.listing("submits") if destination in (None, s["destination"])]

    def control(self, name, body=None):
        return http("POST", f"{self.url}/_fake/{name}", body or {})[1]

    def receipt(self, message_id, stat, number, err="000"):
        return self.control("receipt", {"message_id": message_id, "stat": stat, "err": err, "from": number.lstrip("+")})["status"]

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=5)


def smpp_env(smsc, **extra):
    return {"TACIT_SMPP_HOST": "127.0.0.1", "TACIT_SMPP_PORT": str(smsc.port), "TACIT_SMPP_SYSTEM_ID": SYSTEM_ID,
            "TACIT_SMPP_PASSWORD": PASSWORD, "TACIT_SMPP_SYSTEM_TYPE": SYSTEM_TYPE, "TACIT_SMPP_SOURCE_ADDR": SOURCE,
            "TACIT_ROUTE_SMS": "smpp", "TACIT_ROUTE_VOICE": "twilio"} | extra


def wait_for_label(tacit, request_id, label, timeout=10):
    """The first timeline event with `label`, read from the live SSE stream (which replays
    what is already there first), so a receipt handled after its answer is waited for, not polled."""
    request = urllib.request.Request(f"{tacit.url}/v1/verifications/{request_id}/events",
                                     headers={"Authorization": f"Bearer {tacit.key}", "Accept": "text/event-stream"})
    with urllib.request.urlopen(request, timeout=timeout) as stream:
        for raw in stream:
            line = raw.decode().strip()
            if line.startswith("data:"):
                event = json.loads(line[5:])
                if event.get("label") == label:
                    return event
    raise AssertionError(f"no {label} event")


@pytest.fixture(scope="session")
def smsc():
    peer = SMSCPeer()
    yield peer
    peer.stop()


@pytest.fixture(scope="session")
def smpp_tacit(binary, fake, smsc):
    server = Tacit(binary, fake.url, smpp_env(smsc))
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def clean_smsc(request):
    if "smsc" in request.fixturenames:
        request.getfixturevalue("smsc").control("reset")
