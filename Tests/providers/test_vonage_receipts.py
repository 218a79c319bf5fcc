"""SMS API delivery receipts, end to end: the fake sends them as Vonage does with signed
webhooks on, its signatures are checked by Vonage's own SDK (`Auth.check_signature`,
vonage 4.9.1), and a server set to an HMAC method takes a signed receipt and refuses a
forged, unsigned, stale or differently signed one with 401, changing nothing."""
import subprocess

import pytest
from vonage import Auth

from conftest import Tacit
from vonage_support import API_KEY, SIGNATURE_SECRET, vonage_env

# The fields of the SMS API's delivery receipt (its docs' DLR), and what signing adds.
RECEIPT_FIELDS = {"msisdn", "to", "network-code", "messageId", "price", "status", "scts", "err-code", "api-key",
                  "message-timestamp", "client-ref", "timestamp", "nonce", "sig"}


@pytest.fixture(scope="module")
def sha256_server(binary, fake, vonage_fake):
    server = Tacit(binary, fake.url, vonage_env(vonage_fake.url)
                   | {"TACIT_ROUTE_SMS": "vonage", "TACIT_VONAGE_SIGNATURE_METHOD": "sha256"})
    yield server
    server.stop()


@pytest.mark.parametrize("method,number", [("md5", "+447400123490"), ("sha1", "+447400123491"),
                                           ("sha256", "+447400123492"), ("sha512", "+447400123493")])
def test_the_fakes_receipt_verifies_with_vonages_own_signature_checker(sha256_server, vonage_fake, method, number):
    request_id = sha256_server.start(number, ["sms", "voice"])
    vonage_fake.callback(vonage_fake.message_ids()[-1], "delivered", method=method)
    vonage_fake.callback(vonage_fake.message_ids()[-1], "delivered", method=method, forge=True)
    signed, forged = vonage_fake.receipts()
    assert set(signed) == RECEIPT_FIELDS
    assert signed["client-ref"] == f"{request_id}:0"
    sdk = Auth(api_key=API_KEY, signature_secret=SIGNATURE_SECRET, signature_method=method)
    assert sdk.check_signature(dict(signed))
    assert not sdk.check_signature(dict(forged))
    assert sha256_server.call("DELETE", f"/v1/verifications/{request_id}")[0] == 204


@pytest.mark.parametrize("format,number", [("form", "+447400123494"), ("json", "+447400123495")])
def test_a_receipt_signed_by_the_accounts_method_fails_the_step_with_its_error_code(sha256_server, vonage_fake, format, number):
    request_id = sha256_server.start(number, ["sms", "voice"])
    message_id = vonage_fake.message_ids()[-1]
    before = sha256_server.events(request_id)
    for refused in ({"method": "md5hash"}, {"forge": True}, {"unsigned": True}, {"age": 3600}):
        options = {"method": "sha256", "format": format} | refused
        assert vonage_fake.callback(message_id, "failed", error_code=6, **options) == 401, refused
    assert sha256_server.events(request_id) == before
    assert vonage_fake.callback(message_id, "failed", error_code=6, method="sha256", format=format) == 204
    failed = [e for e in sha256_server.events(request_id) if e["label"] == "provider:failed"]
    assert [(e["data"]["status"], e["data"]["error_code"]) for e in failed] == [("failed", 6)]
    # The receipt's network-code (the fake's MCC and MNC) is on its event, kept as it is.
    assert [e["data"]["network"] for e in failed] == ["23410"]
    state = sha256_server.call("GET", f"/v1/verifications/{request_id}")[1]
    assert [s["status"] for s in state["workflow"]] == ["failed", "active"]
    assert sha256_server.call("DELETE", f"/v1/verifications/{request_id}")[0] == 204


def test_an_unknown_signature_method_stops_the_server_naming_the_setting_never_the_secret(binary, fake, vonage_fake, tmp_path):
    env = vonage_env(vonage_fake.url) | {"TACIT_SECRET": "x", "TACIT_VONAGE_SIGNATURE_METHOD": "md4"}
    result = subprocess.run([binary, "serve", "--port", "0", "--db", str(tmp_path / "t.db")], env=env,
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 2
    assert result.stderr.startswith("tacit: TACIT_VONAGE_SIGNATURE_METHOD:"), result.stderr
    assert SIGNATURE_SECRET not in result.stderr
    assert not (tmp_path / "t.db").exists()
