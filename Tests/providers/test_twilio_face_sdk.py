"""The Twilio Verify v2 face with Twilio's own SDK (twilio 9.13.0), unmodified: the SDK's
verify domain is aimed at a dev `tacit serve --tls-cert …` on loopback (research §3.8),
which it trusts through REQUESTS_CA_BUNDLE, with the credentials `tacit apps create` prints.
Codes come from the dev handset inbox of `+990` numbers or an address's dev mailbox; the SNA check URL
is opened from 127.0.0.2, the virtual operator's cellular range."""
import concurrent.futures
import json
import re
import subprocess

import pytest
import requests
from requests.adapters import HTTPAdapter
from twilio.base.exceptions import TwilioRestException
from twilio.rest import Client

from conftest import Tacit

NUMBER = "+99012345672"
SILENT = "+99012345670"


@pytest.fixture(scope="module")
def face(binary, fake, tls_files):
    """A dev server over HTTPS. Dev mode runs the virtual operator and the handset inbox."""
    server = Tacit(binary, fake.url, serve_args=("--dev", "--tls-cert", tls_files.cert, "--tls-key", tls_files.key),
                   scheme="https", cafile=tls_files.cert)
    yield server
    server.stop()


def create_app(face, name):
    made = subprocess.run([face.binary, "apps", "create", "--name", name, "--json", "--db", face.db],
                          env=face.env, capture_output=True, text=True, timeout=30, check=True)
    return json.loads(made.stdout)["twilio"]


@pytest.fixture(scope="module")
def credentials(face):
    return create_app(face, "sdk-shop")


def sdk(face, credentials, token=None):
    client = Client(credentials["account_sid"], token or credentials["auth_token"])
    client.verify.base_url = face.url
    return client.verify.v2.services(credentials["service_sid"])


@pytest.fixture
def service(face, credentials, trust_tacit_tls):
    return sdk(face, credentials)


def inbox_code(face, number):
    reply = requests.get(f"{face.url}/v1/dev/handsets/{number.replace('+', '%2B')}/inbox", timeout=10)
    assert reply.status_code == 200, reply.text
    body = reply.json()["messages"][-1]["body"]
    return re.search(r"\d{4,10}", body).group(0)


def test_sms_flow_with_the_inbox_code_approves(face, service):
    verification = service.verifications.create(to=NUMBER, channel="sms")
    assert re.fullmatch(r"VE[0-9a-f]{32}", verification.sid)
    assert verification.status == "pending" and verification.channel == "sms" and verification.to == NUMBER
    assert len(verification.send_code_attempts) == 1
    check = service.verification_checks.create(to=NUMBER, code=inbox_code(face, NUMBER))
    assert check.status == "approved" and check.valid is True and check.sid == verification.sid
    fetched = service.verifications(verification.sid).fetch()
    assert fetched.status == "approved"
    assert fetched.date_created is not None and not isinstance(fetched.date_created, str), "the SDK parses Twilio's dates"


def test_five_checks_answered_then_60202(face, service):
    verification = service.verifications.create(to=NUMBER, channel="sms")
    right = inbox_code(face, NUMBER)
    wrong = "000000" if right != "000000" else "111111"
    for _ in range(4):
        assert service.verification_checks.create(to=NUMBER, code=wrong).status == "pending"
    fifth = service.verification_checks.create(to=NUMBER, code=wrong)
    assert fifth.status == "max_attempts_reached" and fifth.valid is False
    assert service.verifications(verification.sid).fetch().status == "max_attempts_reached"
    with pytest.raises(TwilioRestException) as late:
        service.verification_checks.create(verification_sid=verification.sid, code=right)
    assert late.value.code == 60202


def test_cancel_then_the_sid_is_gone_for_checks(face, service):
    verification = service.verifications.create(to=NUMBER, channel="call")
    assert service.verifications(verification.sid).update(status="canceled").status == "canceled"
    with pytest.raises(TwilioRestException) as raised:
        service.verification_checks.create(to=NUMBER, code="123456")
    assert raised.value.status == 404 and raised.value.code == 20404


def test_approve_without_a_code(face, service):
    verification = service.verifications.create(to=NUMBER, channel="whatsapp")
    approved = service.verifications(verification.sid).update(status="approved")
    assert approved.status == "approved" and approved.valid is True


def test_a_second_start_resends_and_a_concurrent_start_shares_the_sid(face, service):
    first = service.verifications.create(to=NUMBER, channel="sms")
    again = service.verifications.create(to=NUMBER, channel="call")
    assert again.sid == first.sid and [a["channel"] for a in again.send_code_attempts] == ["sms", "call"]
    service.verifications(first.sid).update(status="canceled")
    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        started = list(pool.map(lambda _: service.verifications.create(to=NUMBER, channel="sms"), range(3)))
    assert len({v.sid for v in started}) == 1, "one verification; the others sent again"
    fetched = service.verifications(started[0].sid).fetch()
    assert len(fetched.send_code_attempts) == 3
    # The three sends race: the inbox's order is their delivery's, not their codes' issue, so
    # the code in force is one of the last three, tried newest first (fewer than the five tries).
    reply = requests.get(f"{face.url}/v1/dev/handsets/{NUMBER.replace('+', '%2B')}/inbox", timeout=10)
    texts = [m["body"] for m in reply.json()["messages"] if m["channel"] == "sms"]
    codes = [re.search(r"\d{4,10}", text).group(0) for text in texts][-3:]
    statuses = []
    for code in reversed(codes):
        statuses.append(service.verification_checks.create(to=NUMBER, code=code).status)
        if statuses[-1] == "approved":
            break
    assert statuses[-1] == "approved", statuses


def mailbox_codes(face, address):
    reply = requests.get(f"{face.url}/v1/dev/mailboxes/{address}/inbox", timeout=10)
    assert reply.status_code == 200, reply.text
    return [re.findall(r"\d{4,10}", m["body"])[-1] for m in reply.json()["messages"]]


def test_email_flow_with_the_mailbox_code_approves(face, service):
    address = "sdk.person@example.com"
    verification = service.verifications.create(to=address, channel="email")
    assert re.fullmatch(r"VE[0-9a-f]{32}", verification.sid)
    assert verification.status == "pending" and verification.channel == "email" and verification.to == address
    assert [a["channel"] for a in verification.send_code_attempts] == ["email"]
    code = mailbox_codes(face, address)[-1]
    wrong = "000000" if code != "000000" else "111111"
    assert service.verification_checks.create(to=address, code=wrong).status == "pending"
    check = service.verification_checks.create(to=address, code=code)
    assert check.status == "approved" and check.valid is True and check.sid == verification.sid
    assert check.channel == "email" and check.to == address
    fetched = service.verifications(verification.sid).fetch()
    assert fetched.status == "approved" and fetched.to == address and fetched.channel == "email"


def test_a_second_email_start_resends_on_the_same_sid(face, service):
    address = "sdk.again@example.com"
    first = service.verifications.create(to=address, channel="email")
    again = service.verifications.create(to=address, channel="email")
    assert again.sid == first.sid and [a["channel"] for a in again.send_code_attempts] == ["email", "email"]
    codes = mailbox_codes(face, address)
    assert len(codes) == 2
    assert service.verification_checks.create(to=address, code=codes[-1]).status == "approved"


@pytest.mark.parametrize("to", ["not-an-address", "person@localhost", NUMBER])
def test_an_invalid_email_address_raises_twilios_60200_and_sends_nothing(face, service, to):
    inbox = f"{face.url}/v1/dev/handsets/{NUMBER.replace('+', '%2B')}/inbox"
    before = requests.get(inbox, timeout=10).json()["messages"]
    with pytest.raises(TwilioRestException) as raised:
        service.verifications.create(to=to, channel="email")
    assert raised.value.status == 400 and raised.value.code == 60200, raised.value
    assert raised.value.msg.endswith("Invalid parameter: To"), raised.value.msg
    assert requests.get(inbox, timeout=10).json()["messages"] == before


def test_bad_credentials_raise_20003(face, credentials, trust_tacit_tls):
    with pytest.raises(TwilioRestException) as raised:
        sdk(face, credentials, token="0" * 32).verifications.create(to=NUMBER, channel="sms")
    assert raised.value.status == 401 and raised.value.code == 20003


def test_another_applications_credential_sees_an_unknown_sid(face, service, credentials, trust_tacit_tls):
    verification = service.verifications.create(to=NUMBER, channel="sms")
    other = sdk(face, create_app(face, "sdk-other"))
    for call in (lambda: other.verifications(verification.sid).fetch(),
                 lambda: other.verifications(verification.sid).update(status="canceled"),
                 lambda: other.verification_checks.create(verification_sid=verification.sid, code="123456")):
        with pytest.raises(TwilioRestException) as raised:
            call()
        assert raised.value.status == 404 and raised.value.code == 20404
    assert service.verifications(verification.sid).fetch().status == "pending"
    service.verifications(verification.sid).update(status="canceled")


@pytest.mark.parametrize("arguments, code", [
    ({"to": "not-a-number", "channel": "sms"}, 60200),
    ({"to": NUMBER, "channel": "pigeon"}, 60200),
    ({"to": NUMBER, "channel": "sms", "custom_code": "123456"}, 60204),
])
def test_bad_input_raises_400_with_twilios_code(face, service, arguments, code):
    with pytest.raises(TwilioRestException) as raised:
        service.verifications.create(**arguments)
    assert raised.value.status == 400 and raised.value.code == code


class CellularAdapter(HTTPAdapter):
    """Connections that leave from 127.0.0.2: the virtual operator's cellular path."""

    def init_poolmanager(self, *args, **kwargs):
        kwargs["source_address"] = ("127.0.0.2", 0)
        super().init_poolmanager(*args, **kwargs)


def test_sna_for_the_virtual_operator_number_approves_after_the_cellular_open(face, service):
    verification = service.verifications.create(to=SILENT, channel="sna")
    url = verification.sna["url"]
    assert url.startswith(face.url)
    with pytest.raises(TwilioRestException) as early:
        service.verification_checks.create(to=SILENT)
    assert early.value.code == 60519
    device = requests.Session()
    device.mount("https://", CellularAdapter())
    opened = device.post(url, timeout=10)
    assert opened.status_code == 200, opened.text
    assert "code" not in opened.json()
    check = service.verification_checks.create(to=SILENT)
    assert check.status == "approved" and check.channel == "sna"


def test_a_number_pending_through_v1_is_never_shown_with_its_v1_id(face, trust_tacit_tls):
    """One face, one id form: a verification /v1 started is not the Twilio face's to show, so
    the SDK's start for its number raises 60212 (429) naming no id, and a check by To is 404."""
    made = subprocess.run([face.binary, "apps", "create", "--name", "sdk-mixed", "--json", "--db", face.db],
                          env=face.env, capture_output=True, text=True, timeout=30, check=True)
    app = json.loads(made.stdout)
    number = "+99012345678"
    started = requests.post(f"{face.url}/v1/verifications", timeout=10,
                            headers={"Authorization": f"Bearer {app['api_key']}"},
                            json={"phone_number": number, "workflow": [{"channel": "sms"}]})
    assert started.status_code == 202, started.text
    v1_id = started.json()["request_id"]
    service = sdk(face, app["twilio"])
    with pytest.raises(TwilioRestException) as refused:
        service.verifications.create(to=number, channel="sms")
    assert refused.value.status == 429 and refused.value.code == 60212
    assert v1_id not in str(refused.value.msg)
    with pytest.raises(TwilioRestException) as unknown:
        service.verification_checks.create(to=number, code="123456")
    assert unknown.value.status == 404 and unknown.value.code == 20404
    other = service.verifications.create(to="+99012345676", channel="sms")
    assert re.fullmatch(r"VE[0-9a-f]{32}", other.sid)
