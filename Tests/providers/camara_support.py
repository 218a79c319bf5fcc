"""Fixtures for the CAMARA tests: the fake operator (fake_camara.py) as its own process,
checking client assertions with the public halves of an RSA and a P-256 key pair made here with openssl; a
non-dev `tacit serve` with CAMARA aimed at it (SMS through the fake Twilio); and a device
that follows a check URL's redirects from a source address of its choice, keeping cookies
as a browser would: 127.0.0.2 is on the operator's cellular range, 127.0.0.1 is Wi-Fi."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
from http.client import HTTPConnection

import pytest

from conftest import HERE, Tacit, http

CLIENT_ID = "tacit-camara-client"
CELLULAR, WIFI = "127.0.0.2", "127.0.0.1"


class FakeCamara:
    def __init__(self):
        self.directory = tempfile.mkdtemp(prefix="fake-camara-")
        self.key_file, public = os.path.join(self.directory, "client.key"), os.path.join(self.directory, "client.pub")
        subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", self.key_file],
                       check=True, capture_output=True)
        # A P-256 key as well, registered beside the RSA one, for ES256 assertions.
        self.ec_key_file, ec_public = os.path.join(self.directory, "client-ec.key"), os.path.join(self.directory, "client-ec.pub")
        subprocess.run(["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", self.ec_key_file],
                       check=True, capture_output=True)
        for private, public_half in ((self.key_file, public), (self.ec_key_file, ec_public)):
            subprocess.run(["openssl", "pkey", "-in", private, "-pubout", "-out", public_half], check=True, capture_output=True)
        self.process = subprocess.Popen([sys.executable, str(HERE / "fake_camara.py"), "--client-id", CLIENT_ID,
                                         "--public-key", public, "--public-key", ec_public], stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:\d+", line)
        if not match:
            self.process.kill()
            raise RuntimeError(f"the fake did not start: {line!r}")
        self.url = match.group(0)

    def control(self, action, body=None):
        assert http("POST", f"{self.url}/_fake/{action}", body or {})[0] == 200

    def reset(self):
        self.control("reset")

    def requests(self, path=None):
        return [r for r in http("GET", self.url + "/_fake/requests")[1] if path is None or r["path"] == path]

    def issued(self):
        return http("GET", self.url + "/_fake/issued")[1]

    def env(self):
        return {"TACIT_CAMARA_ISSUER": self.url, "TACIT_CAMARA_CLIENT_ID": CLIENT_ID,
                "TACIT_CAMARA_PRIVATE_KEY_FILE": self.key_file, "TACIT_CAMARA_API_URL": self.url + "/api"}

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=5)
        shutil.rmtree(self.directory, ignore_errors=True)


class Device:
    """A phone's HTTP client: follows redirects (at most 10) from `source`, with cookies per host."""

    def __init__(self, source):
        self.source, self.cookies = source, {}

    def get(self, url):
        parts = urllib.parse.urlsplit(url)
        connection = HTTPConnection(parts.hostname, parts.port, timeout=10, source_address=(self.source, 0))
        jar = self.cookies.setdefault(parts.netloc, {})
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in jar.items())} if jar else {}
        connection.request("GET", parts.path + ("?" + parts.query if parts.query else ""), headers=headers)
        reply = connection.getresponse()
        body = reply.read()
        connection.close()
        for cookie in reply.headers.get_all("Set-Cookie") or []:
            name, _, rest = cookie.partition("=")
            jar[name.strip()] = rest.split(";")[0]
        return reply.status, reply.headers, body

    def follow(self, url, stop=None):
        """Every hop as (url, status, headers, body); `stop(url)` true ends the chain before that URL is opened."""
        hops = []
        for _ in range(10):
            if stop and stop(url):
                break
            status, headers, body = self.get(url)
            hops.append((url, status, headers, body))
            if status not in (301, 302, 303, 307, 308) or not headers.get("Location"):
                break
            url = urllib.parse.urljoin(url, headers["Location"])
        return hops, url


def camara_server(binary, twilio, camara, extra_env=None):
    server = Tacit(binary, twilio.url, camara.env() | (extra_env or {}))
    camara.control("register", {"redirect_uri": server.url + "/v1/silent/callback"})
    return server


@pytest.fixture(scope="session")
def camara_fake():
    fake = FakeCamara()
    yield fake
    fake.stop()


@pytest.fixture(scope="session")
def camara_tacit(binary, fake, camara_fake):
    server = camara_server(binary, fake, camara_fake)
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def clean_camara_fake(request):
    if "camara_fake" in request.fixturenames:
        request.getfixturevalue("camara_fake").reset()
