"""Fixtures for the Vonage provider tests: the fake Vonage SMS, Messages and Voice APIs as
their own process (plain HTTP for Tacit, TLS for Vonage's SDK, which speaks https only),
checking application JWTs with the public half of a key pair made here with openssl, and a
non-dev `tacit serve` with both Twilio and Vonage aimed at their fakes."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import pytest

from conftest import HERE, Tacit, http

API_KEY = "f1e2d3c4"
API_SECRET = "VonSecret" + "8b" * 6
SIGNATURE_SECRET = "vonage-signature-" + "c3" * 8
FROM = "AcmeCo"
APPLICATION_ID = "5f0e8c3a-7b1d-4c2e-9f6a-3d8b2e1c4a70"
WHATSAPP_FROM = "447700900010"
VOICE_FROM = "447700900020"
TEMPLATE = "acme_auth:verify_code"


class FakeVonage:
    """The fake's process and its control routes."""

    def __init__(self):
        self.tls_dir = tempfile.mkdtemp(prefix="fake-vonage-")
        # The Vonage application's key pair: Tacit signs with the private half, the fake checks with the public.
        self.key_file, self.public_key_file = os.path.join(self.tls_dir, "app.key"), os.path.join(self.tls_dir, "app.pub")
        subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", self.key_file],
                       check=True, capture_output=True)
        subprocess.run(["openssl", "pkey", "-in", self.key_file, "-pubout", "-out", self.public_key_file], check=True, capture_output=True)
        self.process = subprocess.Popen(
            [sys.executable, str(HERE / "fake_vonage.py"), "--api-key", API_KEY, "--api-secret", API_SECRET,
             "--signature-secret", SIGNATURE_SECRET, "--tls-dir", self.tls_dir, "--public-key", self.public_key_file,
             "--application-id", APPLICATION_ID], stdout=subprocess.PIPE, text=True)
        plain, tls = self.process.stdout.readline(), self.process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+", plain), re.search(r"https://(127\.0\.0\.1:\d+) ca (\S+)", tls)
        if not all(found):
            self.process.kill()
            raise RuntimeError(f"the fake did not start: {plain!r} {tls!r}")
        self.url = found[0].group(0)
        self.tls_host, self.ca = found[1].group(1), found[1].group(2)

    def requests(self):
        return http("GET", self.url + "/_fake/requests")[1]

    def message_ids(self):
        return http("GET", self.url + "/_fake/messages")[1]

    def reset(self):
        http("POST", self.url + "/_fake/reset", {})

    def fail(self, http_status=None, status=None, times=1):
        http("POST", self.url + "/_fake/fail", {"http": http_status, "status": status, "times": times})

    def callback(self, message_id, status, error_code=None, forge=False, **options):
        """Has the fake send the message's delivery receipt; `options` are the fake's
        `unsigned`, `method`, `format` and `age`. Answers the status Tacit gave."""
        return http("POST", self.url + "/_fake/callback",
                    {"message_id": message_id, "status": status, "error_code": error_code, "forge": forge}
                    | options)[1]["status"]

    def receipts(self):
        return http("GET", self.url + "/_fake/receipts")[1]

    def whatsapp_ids(self):
        return http("GET", self.url + "/_fake/whatsapp")[1]

    def call_ids(self):
        return http("GET", self.url + "/_fake/calls")[1]

    def callbacks(self):
        return http("GET", self.url + "/_fake/callbacks")[1]

    def fail_api(self, resource, http_status, code=None, title="Error", times=1):
        """The next `times` requests to /v1/<resource> ("messages" or "calls") get that problem."""
        http("POST", self.url + "/_fake/fail", {"resource": resource, "http": http_status, "code": code, "title": title,
                                                "times": times})

    def status(self, status, message_uuid=None, call_uuid=None, forge=False, error_code=None):
        """Has the fake send a WhatsApp message's signed status, or a call's signed event. Answers Tacit's status."""
        body = {"message_uuid": message_uuid} if message_uuid else {"call_uuid": call_uuid}
        return http("POST", self.url + "/_fake/callback", body | {"status": status, "forge": forge,
                                                                  "error_code": error_code})[1]["status"]

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=5)
        shutil.rmtree(self.tls_dir, ignore_errors=True)


def vonage_env(fake_url):
    return {"TACIT_VONAGE_API_KEY": API_KEY, "TACIT_VONAGE_API_SECRET": API_SECRET, "TACIT_VONAGE_FROM": FROM,
            "TACIT_VONAGE_REST_URL": fake_url, "TACIT_VONAGE_SIGNATURE_SECRET": SIGNATURE_SECRET}


def vonage_application_env(fake, template=True):
    """The Vonage application's settings: WhatsApp (with the authentication template) and voice."""
    env = {"TACIT_VONAGE_APPLICATION_ID": APPLICATION_ID, "TACIT_VONAGE_PRIVATE_KEY_FILE": fake.key_file,
           "TACIT_VONAGE_API_URL": fake.url, "TACIT_VONAGE_WHATSAPP_FROM": "+" + WHATSAPP_FROM,
           "TACIT_VONAGE_VOICE_FROM": VOICE_FROM, "TACIT_VONAGE_SIGNATURE_SECRET": SIGNATURE_SECRET}
    return env | ({"TACIT_VONAGE_WHATSAPP_TEMPLATE": TEMPLATE} if template else {})


def both_providers(binary, fake, vonage_fake, route="twilio,vonage"):
    """A server routing SMS through Twilio, then Vonage."""
    return Tacit(binary, fake.url, vonage_env(vonage_fake.url) | {"TACIT_ROUTE_SMS": route})


@pytest.fixture(scope="session")
def vonage_fake():
    fake = FakeVonage()
    yield fake
    fake.stop()


@pytest.fixture(scope="session")
def routed(binary, fake, vonage_fake):
    server = both_providers(binary, fake, vonage_fake)
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def clean_vonage_fake(request):
    if "vonage_fake" in request.fixturenames:
        request.getfixturevalue("vonage_fake").reset()
