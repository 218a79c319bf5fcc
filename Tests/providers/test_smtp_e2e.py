"""Email codes through a real SMTP server on loopback (aiosmtpd) with STARTTLS and AUTH
required: its answers become provider hops, a 4xx is tried again, a 5xx fails the step
over to the next one, and the message carries its headers, a localized subject and both
parts. Tacit trusts the server's self-signed certificate through TACIT_SMTP_CA_FILE."""
import email
import email.policy
import shutil
import ssl
import threading

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult

from conftest import Tacit, free_port
from tls_support import make_tls_files

USERNAME = "tacit-mailer"
PASSWORD = "smtp-pass-" + "9f3k" * 4


class Mailbox:
    """The server's side: a script of answers to DATA (250 once it runs out), and every
    message it accepted."""

    def __init__(self):
        self.lock = threading.Lock()
        self.answers = []
        self.messages = []
        self.logins = []

    def script(self, *answers):
        with self.lock:
            self.answers = list(answers)

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            answer = self.answers.pop(0) if self.answers else "250 2.0.0 OK"
            if answer.startswith("250"):
                self.messages.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.content,
                                      session.ssl is not None))
        return answer

    def authenticate(self, server, session, envelope, mechanism, auth_data):
        ok = auth_data.login == USERNAME.encode() and auth_data.password == PASSWORD.encode()
        with self.lock:
            self.logins.append(ok)
        return AuthResult(success=ok)


@pytest.fixture(scope="module")
def smtp():
    files = make_tls_files()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(files.cert, files.key)
    mailbox = Mailbox()
    controller = Controller(mailbox, hostname="127.0.0.1", port=free_port(), tls_context=context,
                            require_starttls=True, auth_required=True, auth_require_tls=True,
                            authenticator=mailbox.authenticate)
    controller.start()
    yield mailbox, controller.port, files.cert
    controller.stop()
    shutil.rmtree(files.directory, ignore_errors=True)


@pytest.fixture(scope="module")
def mailer(binary, fake, smtp):
    _, port, cert = smtp
    server = Tacit(binary, fake.url, extra_env={
        "TACIT_SMTP_URL": f"smtp://127.0.0.1:{port}", "TACIT_SMTP_USERNAME": USERNAME,
        "TACIT_SMTP_PASSWORD": PASSWORD, "TACIT_SMTP_FROM": "codes@tacit.test", "TACIT_SMTP_CA_FILE": cert,
    })
    yield server
    server.stop()


NUMBERS = iter(range(10, 99))


def start(mailer, locale="de", to="person@example.com"):
    # A number of its own for each start: one verification at a time per number.
    status, body, _ = mailer.call("POST", "/v1/verifications", {
        "phone_number": f"+49151234567{next(NUMBERS)}", "brand": "Acme", "locale": locale,
        "workflow": [{"channel": "email", "to": to}, {"channel": "sms"}]})
    assert status == 202, body
    return body["request_id"]


def parsed(content):
    return email.message_from_bytes(content, policy=email.policy.default)


def test_email_code_goes_through_starttls_and_auth_with_its_headers(smtp, mailer):
    mailbox, _, _ = smtp
    mailbox.messages.clear()
    request_id = start(mailer)
    assert len(mailbox.messages) == 1
    sender, recipients, content, over_tls = mailbox.messages[0]
    assert over_tls, "the message went in clear"
    assert sender == "codes@tacit.test" and recipients == ["person@example.com"]
    message = parsed(content)
    assert message["Subject"] == "Ihr Acme-Code"
    assert "=?UTF-8?" in content.decode("ascii").split("\r\n\r\n")[0] or message["Subject"].isascii()
    assert message["Auto-Submitted"] == "auto-generated"
    assert message["Message-ID"].endswith("@tacit.test>") and message["Date"]
    assert message.get_content_type() == "multipart/alternative"
    parts = {part.get_content_type(): part.get_content() for part in message.iter_parts()}
    assert set(parts) == {"text/plain", "text/html"}
    assert "Geben Sie ihn an niemanden weiter" in parts["text/plain"]
    code = "".join(ch for ch in parts["text/plain"].split("lautet")[1] if ch.isdigit())
    assert f"<strong>{code}</strong>" in parts["text/html"]
    events = mailer.events(request_id)
    accepted = [e for e in events if e["label"] == "provider:accepted"]
    assert accepted and accepted[0]["data"]["provider"] == "smtp"
    sent = next(e for e in events if e["label"] == "email:code_sent")
    assert sent["data"]["email"] == "p•••••@example.com"
    status, state, _ = mailer.call("POST", f"/v1/verifications/{request_id}/check", {"code": code})
    assert status == 200 and state["status"] == "completed", state


def test_a_4xx_is_tried_again_and_the_250_after_it_delivers(smtp, mailer):
    mailbox, _, _ = smtp
    mailbox.messages.clear()
    mailbox.script("451 4.3.0 Try again later")
    request_id = start(mailer, locale="ja")
    assert len(mailbox.messages) == 1
    assert parsed(mailbox.messages[0][2])["Subject"] == "Acmeの確認コード"
    labels = [(e["label"], e["data"].get("error_code")) for e in mailer.events(request_id) if e["source"] == "provider"]
    assert labels[:2] == [("provider:failed_over", 451), ("provider:accepted", None)], labels


def test_a_5xx_fails_the_email_step_over_to_the_next(smtp, mailer, fake):
    mailbox, _, _ = smtp
    mailbox.messages.clear()
    mailbox.script("550 5.1.1 No such mailbox")
    request_id = start(mailer)
    assert mailbox.messages == []
    events = mailer.events(request_id)
    refused = [e for e in events if e["label"] == "provider:refused"]
    assert refused and refused[0]["data"]["error_code"] == 550
    labels = [e["label"] for e in events]
    assert "sms:code_sent" in labels, labels
    assert any(r["path"].endswith("/Messages.json") for r in fake.requests())


def test_a_malformed_address_is_refused_with_422(mailer):
    for address in ["no-at-sign", "two@@example.com", "person@localhost", "a" * 250 + "@example.com"]:
        status, body, _ = mailer.call("POST", "/v1/verifications", {
            "phone_number": "+4915123456789", "workflow": [{"channel": "email", "to": address}]})
        assert status == 422, (address, body)
        assert any(p["name"] == "workflow[0].to" for p in body["invalid_parameters"]), body


def test_no_password_address_or_code_in_the_log(smtp, mailer):
    mailbox, _, _ = smtp
    start(mailer)
    log = mailer.log()
    assert PASSWORD not in log
    assert "person@example.com" not in log
    assert all(mailbox.logins)
