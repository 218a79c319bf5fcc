"""The Vonage Verify v2 face driven by Vonage's own Python SDK (vonage 4.9.1), unmodified:
aimed at a real `tacit serve --dev --tls-cert …` on loopback through `HttpClientOptions.api_host`
(the SDK speaks https only, research §2.3), trusting the self-signed certificate through
REQUESTS_CA_BUNDLE. Whole flows run on the virtual operator's +990 numbers: the check_url is
opened over the cellular path (from 127.0.0.2) or over Wi-Fi (127.0.0.1), codes are read from
the dev handset inbox, and the callbacks land on a local listener and are decoded with PyJWT
and the application's signature secret."""
import json
import re
import ssl
import subprocess
import threading
import urllib.parse
from http.client import HTTPSConnection
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import jwt
import pytest
from vonage import Auth, HttpClientOptions, Vonage
from vonage_http_client.errors import AuthenticationError, HttpRequestError, NotFoundError
from vonage_verify import EmailChannel, SilentAuthChannel, SmsChannel, VerifyRequest, VoiceChannel

from conftest import Tacit, http

SIGNATURE_SECRET = "vonage-face-signature-secret-" + "9f" * 8


class CallbackListener:
    """A local status URL: records each callback's Authorization header and JSON body."""

    def __init__(self):
        self.received = []
        self.arrived = threading.Condition()
        listener = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with listener.arrived:
                    listener.received.append((self.headers.get("Authorization", ""), body))
                    listener.arrived.notify_all()
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/vonage/status"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait_for(self, predicate, timeout=10):
        """The first decoded callback body `predicate` accepts, checking each one's JWT."""
        with self.arrived:
            found = self.arrived.wait_for(lambda: self._find(predicate), timeout=timeout)
            assert found, [body for _, body in self.received]
            return found

    def _find(self, predicate):
        for authorization, raw in self.received:
            body = json.loads(raw)
            if predicate(body):
                scheme, _, token = authorization.partition(" ")
                assert scheme == "Bearer"
                claims = jwt.decode(token, SIGNATURE_SECRET, algorithms=["HS256"])
                return body, claims, raw
        return None


@pytest.fixture(scope="module")
def listener():
    listener = CallbackListener()
    yield listener
    listener.server.shutdown()


@pytest.fixture(scope="module")
def face(binary, fake, tls_files, listener, tmp_path_factory):
    """A dev-mode server over HTTPS and one application with Vonage credentials, its public key,
    callback URL and signature secret, made and set with the `tacit apps` commands."""
    keys = tmp_path_factory.mktemp("vonage-face-keys")
    private, public = str(keys / "app.key"), str(keys / "app.pub")
    subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", private], check=True,
                   capture_output=True, timeout=60)
    subprocess.run(["openssl", "pkey", "-in", private, "-pubout", "-out", public], check=True, capture_output=True, timeout=30)
    server = Tacit(binary, fake.url, {"TACIT_WEBHOOK_ALLOW_PRIVATE": "1"},
                   serve_args=("--dev", "--tls-cert", tls_files.cert, "--tls-key", tls_files.key), scheme="https", cafile=tls_files.cert)
    created = subprocess.run([binary, "apps", "create", "--name", "Acme", "--vonage-public-key", public, "--json", "--db", server.db],
                             env=server.env, capture_output=True, text=True, timeout=30, check=True)
    app = json.loads(created.stdout)
    subprocess.run([binary, "apps", "set", app["id"], "--vonage-callback-url", listener.url,
                    "--vonage-signature-secret", SIGNATURE_SECRET, "--db", server.db],
                   env=server.env, capture_output=True, text=True, timeout=30, check=True)
    server.app = app
    server.private_key = open(private).read()
    server.host = server.url.removeprefix("https://")
    yield server
    server.stop()


def sdk(face, auth=None):
    auth = auth or Auth(application_id=face.app["vonage"]["application_id"], private_key=face.private_key)
    return Vonage(auth, HttpClientOptions(api_host=face.host, max_retries=0)).verify


@pytest.fixture
def verify(face, trust_tacit_tls):
    return sdk(face)


def inbox_code(face, number):
    status, body, _ = http("GET", f"{face.url}/v1/dev/handsets/%2B{number}/inbox", cafile=face.cafile)
    assert status == 200, body
    text = body["messages"][-1]["body"]
    # A voice call speaks the code twice, digit by digit: its first half is the code.
    digits = re.findall(r"\d", text)
    return "".join(digits[:len(digits) // 2] if body["messages"][-1]["channel"] == "voice" else digits)


def open_check_url(face, url, source):
    """Follows the check_url's redirects from `source` as a device does, carrying the cookie
    a hop sets; returns the last status and JSON body."""
    context = ssl.create_default_context(cafile=face.cafile)
    cookie = None
    for _ in range(10):
        parts = urllib.parse.urlsplit(url)
        connection = HTTPSConnection(parts.hostname, parts.port, context=context, source_address=(source, 0), timeout=10)
        connection.request("GET", parts.path + ("?" + parts.query if parts.query else ""), headers={"Cookie": cookie} if cookie else {})
        reply = connection.getresponse()
        body = reply.read()
        cookie = (reply.getheader("Set-Cookie") or "").split(";")[0] or cookie
        connection.close()
        if 300 <= reply.status < 400:
            url = urllib.parse.urljoin(url, reply.getheader("Location"))
            continue
        return reply.status, json.loads(body or b"null")
    raise AssertionError("too many redirects")


def test_silent_success_over_the_cellular_path_ends_in_the_request_id_and_a_code_that_completes(face, verify, listener):
    started = verify.start_verification(VerifyRequest(brand="Acme", workflow=[SilentAuthChannel(to="99012345670"),
                                                                              SmsChannel(to="99012345670")], client_ref="sdk1"))
    assert started.check_url.startswith(f"{face.url}/v2/verify/{started.request_id}/silent-auth/redirect")
    status, answer = open_check_url(face, started.check_url, "127.0.0.2")
    assert status == 200, answer
    assert answer["request_id"] == started.request_id
    checked = verify.check_code(started.request_id, answer["code"])
    assert (checked.request_id, checked.status) == (started.request_id, "completed")
    summary, claims, raw = listener.wait_for(lambda b: b.get("type") == "summary" and b["request_id"] == started.request_id)
    assert summary["status"] == "completed" and summary["client_ref"] == "sdk1"
    assert [step["status"] for step in summary["workflow"]] == ["completed", "unused"]
    assert "99012345670" not in raw.decode() and answer["code"] not in raw.decode()
    assert "iat" in claims
    event, _, _ = listener.wait_for(lambda b: b.get("type") == "event" and b["request_id"] == started.request_id)
    assert (event["channel"], event["status"]) == ("silent_auth", "completed")
    status, body, _ = face.call("GET", f"/v1/verifications/{started.request_id}")
    assert status == 404, "the Tacit API key belongs to another application"


def test_wifi_fails_the_silent_step_and_the_sms_code_from_the_inbox_completes(face, verify):
    started = verify.start_verification(VerifyRequest(brand="Acme", workflow=[SilentAuthChannel(to="99012345672"),
                                                                              SmsChannel(to="99012345672")]))
    status, answer = open_check_url(face, started.check_url, "127.0.0.1")
    assert status >= 400, answer
    assert verify.check_code(started.request_id, inbox_code(face, "99012345672")).status == "completed"


def test_a_rejected_silent_check_sends_the_event_callback_and_falls_back_to_sms(face, verify, listener):
    started = verify.start_verification(VerifyRequest(brand="Acme", workflow=[SilentAuthChannel(to="99012345671"),
                                                                              SmsChannel(to="99012345671")]))
    status, _ = open_check_url(face, started.check_url, "127.0.0.2")
    assert status == 403
    event, _, _ = listener.wait_for(lambda b: b.get("type") == "event" and b["request_id"] == started.request_id)
    assert (event["channel"], event["status"]) == ("silent_auth", "user_rejected")
    assert verify.check_code(started.request_id, inbox_code(face, "99012345671")).status == "completed"


def test_wrong_codes_answer_400_until_vonages_third_ends_the_workflow_with_410(face, verify):
    started = verify.start_verification(VerifyRequest(brand="Acme", workflow=[SmsChannel(to="99012345674")]))
    right = inbox_code(face, "99012345674")
    wrong = "1111" if right != "1111" else "2222"
    for expected in (400, 400, 410):
        with pytest.raises(HttpRequestError) as raised:
            verify.check_code(started.request_id, wrong)
        assert raised.value.response.status_code == expected
        assert raised.value.response.headers["Content-Type"] == "application/problem+json"
    with pytest.raises(HttpRequestError) as raised:
        verify.check_code(started.request_id, right)
    assert raised.value.response.status_code == 410


def test_a_concurrent_start_is_409_naming_the_request_in_flight(face, verify):
    first = verify.start_verification(VerifyRequest(brand="Acme", workflow=[SmsChannel(to="99012345676")]))
    with pytest.raises(HttpRequestError) as raised:
        verify.start_verification(VerifyRequest(brand="Acme", workflow=[VoiceChannel(to="99012345676")]))
    assert raised.value.response.status_code == 409
    assert raised.value.response.json()["request_id"] == first.request_id


def test_next_workflow_moves_to_voice_and_then_has_nothing_left(face, verify):
    started = verify.start_verification(VerifyRequest(brand="Acme", workflow=[SmsChannel(to="99012345678"), VoiceChannel(to="99012345678")]))
    assert verify.trigger_next_workflow(started.request_id) is None
    status, body, _ = http("GET", f"{face.url}/v1/dev/handsets/%2B99012345678/inbox", cafile=face.cafile)
    assert [message["channel"] for message in body["messages"]][-1] == "voice"
    with pytest.raises(HttpRequestError) as raised:
        verify.trigger_next_workflow(started.request_id)
    assert raised.value.response.status_code == 409
    assert verify.check_code(started.request_id, inbox_code(face, "99012345678")).status == "completed"


def test_an_email_step_beside_an_sms_step_lands_in_the_dev_mailbox_and_its_code_completes(face, verify):
    started = verify.start_verification(VerifyRequest(
        brand="Acme", locale="fr-fr",
        workflow=[SmsChannel(to="99012345688"), EmailChannel(to="person@example.com", from_="codes@shop.example")]))
    assert re.fullmatch(r"[0-9a-f-]{36}", started.request_id)
    assert verify.trigger_next_workflow(started.request_id) is None
    status, body, _ = http("GET", f"{face.url}/v1/dev/mailboxes/person@example.com/inbox", cafile=face.cafile)
    assert status == 200, body
    mail = body["messages"][-1]
    assert mail["channel"] == "email" and "Acme" in mail["subject"], mail
    code = re.findall(r"\d{4,10}", mail["body"])[-1]
    assert verify.check_code(started.request_id, code).status == "completed"


def test_an_email_channel_alone_verifies_the_address_and_its_code_completes(face, verify):
    # Vonage Verify v2 runs a workflow of an email channel alone; the SDK sends it as it is.
    started = verify.start_verification(VerifyRequest(brand="Acme", workflow=[EmailChannel(to="alone@example.com")]))
    assert re.fullmatch(r"[0-9a-f-]{36}", started.request_id)
    status, body, _ = http("GET", f"{face.url}/v1/dev/mailboxes/alone@example.com/inbox", cafile=face.cafile)
    assert status == 200, body
    mail = body["messages"][-1]
    assert mail["channel"] == "email" and "Acme" in mail["subject"], mail
    code = re.findall(r"\d{4,10}", mail["body"])[-1]
    assert verify.check_code(started.request_id, code).status == "completed"


def test_a_cancel_within_the_first_30_seconds_is_409_and_the_request_goes_on(face, verify):
    # Vonage: "Cancellation is only possible 30 seconds after the start". The cancel that
    # follows the window is a Swift test, on the test clock.
    started = verify.start_verification(VerifyRequest(brand="Acme", workflow=[SmsChannel(to="99012345680")]))
    with pytest.raises(HttpRequestError) as raised:
        verify.cancel_verification(started.request_id)
    assert raised.value.response.status_code == 409
    assert raised.value.response.headers["Content-Type"] == "application/problem+json"
    assert "30 seconds" in raised.value.response.json()["detail"]
    assert verify.check_code(started.request_id, inbox_code(face, "99012345680")).status == "completed"
    with pytest.raises(NotFoundError):
        verify.check_code(started.request_id, "1234")


def test_basic_credentials_work_and_bad_ones_are_401(face, trust_tacit_tls, tmp_path):
    vonage = face.app["vonage"]
    basic = sdk(face, Auth(api_key=vonage["api_key"], api_secret=vonage["api_secret"]))
    started = basic.start_verification(VerifyRequest(brand="Acme", workflow=[SmsChannel(to="99012345682")]))
    assert basic.check_code(started.request_id, inbox_code(face, "99012345682")).status == "completed"
    with pytest.raises(AuthenticationError):
        sdk(face, Auth(api_key=vonage["api_key"], api_secret="not-the-secret")).start_verification(
            VerifyRequest(brand="Acme", workflow=[SmsChannel(to="99012345682")]))
    other = str(tmp_path / "other.key")
    subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", other], check=True,
                   capture_output=True, timeout=60)
    with pytest.raises(AuthenticationError):
        sdk(face, Auth(application_id=vonage["application_id"], private_key=open(other).read())).start_verification(
            VerifyRequest(brand="Acme", workflow=[SmsChannel(to="99012345682")]))


@pytest.mark.parametrize("request_body, field", [
    (VerifyRequest(brand="Acme/Shop", workflow=[SmsChannel(to="99012345684")]), "brand"),
    (VerifyRequest(brand="Acme", workflow=[EmailChannel(to="someone@localhost")]), "workflow[0].to"),
    (VerifyRequest(brand="Acme", workflow=[SmsChannel(to="99012345684"), EmailChannel(to="someone@localhost")]),
     "workflow[1].to"),
    (VerifyRequest(brand="Acme", workflow=[SmsChannel(to="99012345684"), VoiceChannel(to="99012345686")]), "workflow[1].to"),
])
def test_bad_input_is_422_naming_the_field(face, verify, request_body, field):
    with pytest.raises(HttpRequestError) as raised:
        verify.start_verification(request_body)
    assert raised.value.response.status_code == 422
    problem = raised.value.response.json()
    assert problem["title"] == "Invalid params"
    assert field in [item["name"] for item in problem["invalid_parameters"]]
