"""The Vonage Verify v2 silent tests' fixtures: the Verify fake as its own process (plain
HTTP for Tacit, TLS for Vonage's SDK), checking application JWTs with the public half of a
key pair made here, and a non-dev `tacit serve` whose silent step goes to it, with SMS
through the fake Twilio."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import pytest

from conftest import HERE, Tacit, http

APPLICATION_ID = "6a1f0d2c-3b4e-4f5a-8c9d-0e1f2a3b4c5d"
SIGNATURE_SECRET = "verify-signature-" + "5d" * 8
BASE = "+4474001235"


class FakeVerify:
    def __init__(self):
        self.directory = tempfile.mkdtemp(prefix="fake-verify-")
        self.key_file, public = os.path.join(self.directory, "app.key"), os.path.join(self.directory, "app.pub")
        subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", self.key_file],
                       check=True, capture_output=True)
        subprocess.run(["openssl", "pkey", "-in", self.key_file, "-pubout", "-out", public], check=True, capture_output=True)
        self.private_key = open(self.key_file).read()
        self.process = subprocess.Popen(
            [sys.executable, str(HERE / "fake_vonage_verify.py"), "--application-id", APPLICATION_ID, "--public-key", public,
             "--signature-secret", SIGNATURE_SECRET, "--tls-dir", self.directory], stdout=subprocess.PIPE, text=True)
        plain, tls = self.process.stdout.readline(), self.process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+", plain), re.search(r"https://(127\.0\.0\.1:\d+) ca (\S+)", tls)
        if not all(found):
            self.process.kill()
            raise RuntimeError(f"the Verify fake did not start: {plain!r} {tls!r}")
        self.url = found[0].group(0)
        self.tls_host, self.ca = found[1].group(1), found[1].group(2)

    def requests(self):
        return http("GET", self.url + "/_fake/requests")[1]

    def reset(self):
        http("POST", self.url + "/_fake/reset", {})

    def fail(self, http_status, title="Error", times=1):
        http("POST", self.url + "/_fake/fail", {"http": http_status, "title": title, "times": times})

    def callback(self, url, request_id, status, **options):
        """Has the fake send the request's signed silent-auth event to `url`; answers what Tacit said."""
        return http("POST", self.url + "/_fake/callback", {"url": url, "request_id": request_id, "status": status} | options)[1]

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=5)
        shutil.rmtree(self.directory, ignore_errors=True)


def verify_env(fake):
    return {"TACIT_VONAGE_APPLICATION_ID": APPLICATION_ID, "TACIT_VONAGE_PRIVATE_KEY_FILE": fake.key_file,
            "TACIT_VONAGE_API_URL": fake.url, "TACIT_VONAGE_SIGNATURE_SECRET": SIGNATURE_SECRET,
            "TACIT_ROUTE_SILENT_AUTH": "vonage"}


@pytest.fixture(scope="module")
def vonage_verify():
    fake = FakeVerify()
    yield fake
    fake.stop()


@pytest.fixture(scope="module")
def verify_tacit(binary, fake, vonage_verify):
    server = Tacit(binary, fake.url, verify_env(vonage_verify))
    yield server
    server.stop()
