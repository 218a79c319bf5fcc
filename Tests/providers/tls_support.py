"""Fixtures for tests of `tacit serve --tls-cert … --tls-key …`: a self-signed certificate
for 127.0.0.1 made with the `openssl` command, a non-dev server over HTTPS with Twilio aimed
at the fake, and REQUESTS_CA_BUNDLE pointing at the certificate, which is how an official
SDK built on `requests` (Vonage's, Twilio's) is made to trust it."""
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass

import pytest

from conftest import Tacit


@dataclass
class TLSFiles:
    directory: str
    cert: str
    key: str


def make_tls_files():
    """A fresh self-signed certificate and key for 127.0.0.1, ::1 and localhost."""
    directory = tempfile.mkdtemp(prefix="tacit-tls-")
    cert, key = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost"],
                   check=True, capture_output=True, timeout=30)
    return TLSFiles(directory, cert, key)


@pytest.fixture(scope="session")
def tls_files():
    files = make_tls_files()
    yield files
    shutil.rmtree(files.directory, ignore_errors=True)


@pytest.fixture(scope="session")
def tacit_tls(binary, fake, tls_files):
    """A non-dev `tacit serve` over HTTPS (its `url` starts with https://), Twilio at the fake;
    its `call`, `start` and `events` trust the certificate."""
    server = Tacit(binary, fake.url, serve_args=("--tls-cert", tls_files.cert, "--tls-key", tls_files.key), scheme="https",
                   cafile=tls_files.cert)
    yield server
    server.stop()


@pytest.fixture
def trust_tacit_tls(monkeypatch, tls_files):
    """Trusts the server's certificate for this test, through the variable `requests` reads."""
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", tls_files.cert)
    return tls_files.cert
