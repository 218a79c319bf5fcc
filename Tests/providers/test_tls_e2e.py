"""`tacit serve --tls-cert … --tls-key …` end to end: HTTPS on loopback with a self-signed
certificate that `requests` trusts through REQUESTS_CA_BUNDLE, as an official SDK would;
plain HTTP to the same port is refused, and a bad TLS setting stops serve with exit 2."""
import subprocess

import pytest
import requests

from conftest import SECRET, free_port, twilio_env


def test_healthz_answers_over_https_with_the_certificate_trusted(tacit_tls, trust_tacit_tls):
    assert tacit_tls.url.startswith("https://127.0.0.1:")
    reply = requests.get(tacit_tls.url + "/healthz", timeout=10)
    assert reply.status_code == 200
    assert reply.json()["status"] == "ok"


def test_a_v1_start_over_https_sends_the_code_and_reads_back(tacit_tls, trust_tacit_tls, fake):
    headers = {"Authorization": f"Bearer {tacit_tls.key}"}
    started = requests.post(tacit_tls.url + "/v1/verifications", headers=headers, timeout=10,
                            json={"phone_number": "+447400123456", "workflow": [{"channel": "sms"}], "brand": "Acme"})
    assert started.status_code == 202, started.text
    request_id = started.json()["request_id"]
    assert any(r["form"].get("To") == "+447400123456" for r in fake.requests() if r["path"].endswith("Messages.json"))
    state = requests.get(f"{tacit_tls.url}/v1/verifications/{request_id}", headers=headers, timeout=10)
    assert state.status_code == 200
    assert state.json()["status"] == "pending"


def test_the_fixtures_own_calls_trust_the_certificate_too(tacit_tls):
    request_id = tacit_tls.start("+12015550123", ["sms"])
    assert "sms:code_sent" in [event["label"] for event in tacit_tls.events(request_id)]


def test_the_certificate_is_really_checked_without_the_bundle(tacit_tls, monkeypatch):
    monkeypatch.delenv("REQUESTS_CA_BUNDLE", raising=False)
    monkeypatch.delenv("CURL_CA_BUNDLE", raising=False)
    with pytest.raises(requests.exceptions.SSLError):
        requests.get(tacit_tls.url + "/healthz", timeout=10)


def test_plain_http_to_the_tls_port_gets_no_answer_and_https_still_works(tacit_tls, tls_files):
    plain = tacit_tls.url.replace("https://", "http://")
    with pytest.raises(requests.exceptions.ConnectionError):
        requests.get(plain + "/healthz", timeout=10)
    assert requests.get(tacit_tls.url + "/healthz", verify=tls_files.cert, timeout=10).status_code == 200


@pytest.mark.parametrize("flags, setting", [
    (lambda files: ["--tls-cert", files.cert], "--tls-key (TACIT_TLS_KEY)"),
    (lambda files: ["--tls-cert", files.key, "--tls-key", files.key], "--tls-cert (TACIT_TLS_CERT)"),
    (lambda files: ["--tls-cert", files.cert, "--tls-key", files.directory + "/absent.pem"], "--tls-key (TACIT_TLS_KEY)"),
])
def test_a_bad_tls_setting_stops_serve_with_exit_2_naming_it(binary, fake, tls_files, tmp_path, flags, setting):
    env = twilio_env(fake.url) | {"TACIT_SECRET": SECRET}
    run = subprocess.run([binary, "serve", "--port", str(free_port()), "--db", str(tmp_path / "t.db"), *flags(tls_files)],
                         env=env, capture_output=True, text=True, timeout=30)
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tacit: " + setting), run.stderr
    assert "BEGIN" not in run.stderr
    assert not (tmp_path / "t.db").exists()
