"""The silent-provider tests' fixtures: the fakes of tru.ID and Twilio Verify SNA, each its
own process, and non-dev `tacit serve`s routed across them."""
import re
import subprocess
import sys

import pytest

from conftest import ACCOUNT_SID, AUTH_TOKEN, HERE, Tacit, http

CLIENT_ID = "truid-client-" + "4f" * 4
CLIENT_SECRET = "truid-secret-" + "9c2e" * 6
SERVICE_SID = "VA" + "3b" * 16
BASE = "+4474001234"


class Fake:
    def __init__(self, script, *arguments):
        self.process = subprocess.Popen([sys.executable, str(HERE / script), *arguments], stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:\d+", line)
        if not match:
            self.process.kill()
            raise RuntimeError(f"{script} did not start: {line!r}")
        self.url = match.group(0)

    def listing(self, name):
        return http("GET", self.url + "/_fake/" + name)[1]

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=5)


@pytest.fixture(scope="module")
def truid():
    fake = Fake("fake_truid.py", "--client-id", CLIENT_ID, "--client-secret", CLIENT_SECRET)
    yield fake
    fake.stop()


@pytest.fixture(scope="module")
def verify():
    fake = Fake("fake_twilio_verify.py", "--account-sid", ACCOUNT_SID, "--auth-token", AUTH_TOKEN, "--service-sid", SERVICE_SID)
    yield fake
    fake.stop()


def silent_env(truid, verify, **routes):
    return {"TACIT_TRUID_CLIENT_ID": CLIENT_ID, "TACIT_TRUID_CLIENT_SECRET": CLIENT_SECRET, "TACIT_TRUID_URL": truid.url,
            "TACIT_TWILIO_VERIFY_SERVICE_SID": SERVICE_SID, "TACIT_TWILIO_VERIFY_URL": verify.url} | routes


@pytest.fixture(scope="module")
def routed(binary, fake, truid, verify):
    """tru.ID first, then Twilio SNA, for every country."""
    server = Tacit(binary, fake.url, silent_env(truid, verify, TACIT_ROUTE_SILENT_AUTH="truid,twilio"))
    yield server
    server.stop()


@pytest.fixture(scope="module")
def twilio_gb(binary, fake, truid, verify):
    """Without a route, tru.ID would come second; the GB route names Twilio SNA alone."""
    server = Tacit(binary, fake.url, silent_env(truid, verify, TACIT_ROUTE_SILENT_AUTH_GB="twilio"))
    yield server
    server.stop()


