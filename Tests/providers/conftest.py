"""Fixtures for the provider tests: the fake Twilio as its own process, and a real,
non-dev `tacit serve` (the binary at TACIT_BIN) with an API key and Twilio aimed at
the fake. Everything listens on 127.0.0.1."""
import json
import os
import pathlib
import re
import socket
import ssl
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

import pytest

HERE = pathlib.Path(__file__).resolve().parent
ACCOUNT_SID = "AC" + "5a" * 16
AUTH_TOKEN = "tok" + "7e1f" * 7 + "q"
FROM = "+15005550006"
SECRET = "provider-tests-secret"


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def http(method, url, body=None, headers=None, cafile=None):
    """One request; returns (status, parsed JSON or text, headers). `cafile` is trusted for https."""
    data = json.dumps(body).encode() if isinstance(body, (dict, list)) else body
    request = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    if isinstance(body, (dict, list)):
        request.add_header("Content-Type", "application/json")
    context = ssl.create_default_context(cafile=cafile) if cafile else None
    try:
        with urllib.request.urlopen(request, timeout=10, context=context) as reply:
            status, raw, reply_headers = reply.status, reply.read(), reply.headers
    except urllib.error.HTTPError as error:
        status, raw, reply_headers = error.code, error.read(), error.headers
    try:
        return status, json.loads(raw or b"null"), reply_headers
    except ValueError:
        return status, raw.decode(errors="replace"), reply_headers


class FakeTwilio:
    """The fake's process and its control routes."""

    def __init__(self):
        self.process = subprocess.Popen(
            [sys.executable, str(HERE / "fake_twilio.py"), "--account-sid", ACCOUNT_SID, "--auth-token", AUTH_TOKEN],
            stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:\d+", line)
        if not match:
            self.process.kill()
            raise RuntimeError(f"the fake did not start: {line!r}")
        self.url = match.group(0)

    def requests(self):
        return http("GET", self.url + "/_fake/requests")[1]

    def reset(self):
        http("POST", self.url + "/_fake/reset", {})

    def fail(self, status, code, message="Error", times=1, resource=None):
        http("POST", self.url + "/_fake/fail", {"status": status, "code": code, "message": message, "times": times,
                                                 "resource": resource})

    def callback(self, sid, status, error_code=None, forge=False):
        return http("POST", self.url + "/_fake/callback",
                    {"sid": sid, "status": status, "error_code": error_code, "forge": forge})[1]["status"]

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=5)


class Tacit:
    """A non-dev `tacit serve` on a port of its own, with one API key."""

    def __init__(self, binary, fake_url, extra_env=None, serve_args=(), scheme="http", cafile=None, port=None):
        self.binary = binary
        self.cafile = cafile
        self.workdir = tempfile.mkdtemp(prefix="tacit-providers-")
        self.db = os.path.join(self.workdir, "tacit.db")
        port = port or free_port()
        self.url = f"{scheme}://127.0.0.1:{port}"
        self.env = twilio_env(fake_url) | {
            "TACIT_SECRET": SECRET, "TACIT_PUBLIC_URL": self.url, "TACIT_RATE_SENDS_PER_NUMBER": "1000/60",
            # A start answers once the fake has its message, so a test reads it right after.
            "TACIT_SEND_WAIT_MS": "5000",
            "TACIT_RATE_VERIFICATIONS_PER_NUMBER": "1000/60",
        } | (extra_env or {})
        created = subprocess.run([binary, "keys", "create", "--name", "provider-tests", "--db", self.db],
                                 env=self.env, capture_output=True, text=True, timeout=30, check=True)
        self.key = next(line for line in created.stdout.splitlines() if line.startswith("tk_"))
        self.stderr_path = os.path.join(self.workdir, "serve.stderr")
        self.stderr = open(self.stderr_path, "w+")
        self.process = subprocess.Popen([binary, "serve", "--port", str(port), "--db", self.db, *serve_args],
                                        env=self.env, stdout=subprocess.PIPE, stderr=self.stderr, text=True)
        for line in self.process.stdout:
            if "listening on" in line:
                break
        else:
            raise RuntimeError("tacit serve exited before listening: " + self.log())

    def call(self, method, path, body=None):
        return http(method, self.url + path, body, {"Authorization": f"Bearer {self.key}"}, cafile=self.cafile)

    def start(self, number, channels):
        status, body, _ = self.call("POST", "/v1/verifications",
                                    {"phone_number": number, "workflow": [{"channel": c} for c in channels], "brand": "Acme"})
        assert status == 202, body
        return body["request_id"]

    def events(self, request_id):
        return self.call("GET", f"/v1/verifications/{request_id}/events")[1]["events"]

    def log(self):
        if not self.stderr.closed:
            self.stderr.flush()
        return pathlib.Path(self.stderr_path).read_text()

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)
        self.stderr.close()


def twilio_env(fake_url):
    return {"PATH": os.environ.get("PATH", ""), "TACIT_TWILIO_ACCOUNT_SID": ACCOUNT_SID,
            "TACIT_TWILIO_AUTH_TOKEN": AUTH_TOKEN, "TACIT_TWILIO_FROM": FROM, "TACIT_TWILIO_API_URL": fake_url}


def assert_start_refused(binary, tmp_path, settings, setting, secrets, by="environment"):
    """`tacit serve` with `settings` (as variables, or as a --config file) exits 2 with one
    line naming `setting` and none of `secrets`, before it creates the database."""
    arguments = [binary, "serve", "--port", "0", "--db", str(tmp_path / "t.db")]
    env = settings
    if by == "config":
        config = tmp_path / "tacit.conf"
        config.write_text("".join(f"{name}={value}\n" for name, value in settings.items() if name.startswith("TACIT_")))
        arguments += ["--config", str(config)]
        env = {"PATH": settings["PATH"]}
    result = subprocess.run(arguments, env=env, capture_output=True, text=True, timeout=30)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and setting in lines[0], result.stderr
    for value in secrets:
        assert value not in result.stderr
    assert not (tmp_path / "t.db").exists(), "the checks run before the database is created"


@pytest.fixture(scope="session")
def binary():
    path = os.environ.get("TACIT_BIN")
    if not path:
        pytest.skip("TACIT_BIN is not set: no tacit binary to test")
    return path


@pytest.fixture(scope="session")
def fake():
    fake = FakeTwilio()
    yield fake
    fake.stop()


@pytest.fixture(scope="session")
def tacit(binary, fake):
    server = Tacit(binary, fake.url)
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def clean_fake(request):
    if "fake" in request.fixturenames:
        request.getfixturevalue("fake").reset()


# The Vonage fixtures live beside their fake; importing them here shares them with every test file.
from vonage_support import clean_vonage_fake, routed, vonage_fake  # noqa: E402,F401
from smpp_support import clean_smsc, smpp_tacit, smsc  # noqa: E402,F401
# Likewise the TLS fixtures: a certificate for 127.0.0.1 and a `tacit serve` over HTTPS.
from tls_support import tacit_tls, tls_files, trust_tacit_tls  # noqa: E402,F401
# And the CAMARA operator's: its fake, a `tacit serve` aimed at it, and the device.
from camara_support import camara_fake, camara_tacit, clean_camara_fake  # noqa: E402,F401
