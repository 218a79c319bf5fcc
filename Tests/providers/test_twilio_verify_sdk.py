"""Holds the Verify SNA fake and Tacit to Twilio's wire format with Twilio's own SDK (twilio
9.13.0): the SDK's create and check for an SNA verification are the ground truth Tacit's
are compared with, and the SDK parses every answer the fake gives."""
import base64
import re

import pytest
from twilio.base.exceptions import TwilioRestException
from twilio.rest import Client

from cellular import open_check_url
from conftest import ACCOUNT_SID, AUTH_TOKEN
from silent_support import BASE, SERVICE_SID, truid, twilio_gb, verify  # noqa: F401


def sdk(verify):
    client = Client(ACCOUNT_SID, AUTH_TOKEN)
    # The Verify domain's base URL is a plain attribute (research §3.8): aim it at the fake.
    client.verify.base_url = verify.url
    return client.verify.v2.services(SERVICE_SID)


def shape(request):
    scheme, _, credentials = request["headers"]["authorization"].partition(" ")
    return {"method": request["method"], "path": request["path"], "content_type": request["headers"]["content-type"].split(";")[0],
            "auth": (scheme, base64.b64decode(credentials).decode()), "form": request["form"]}


def test_tacit_creates_and_checks_an_sna_verification_as_the_sdk_does(twilio_gb, verify):
    number = BASE + "42"
    started = twilio_gb.call("POST", "/v1/verifications", {"phone_number": number, "workflow": [{"channel": "silent_auth"}, {"channel": "sms"}]})[1]
    open_check_url(started["check_url"])
    assert twilio_gb.call("POST", f"/v1/verifications/{started['request_id']}/check", {})[0] == 200
    ours = [shape(r) for r in verify.listing("requests") if r["form"].get("To") == number]
    assert [r["path"].rsplit("/", 1)[1] for r in ours] == ["Verifications", "VerificationCheck"]

    service = sdk(verify)
    created = service.verifications.create(to=number, channel="sna")
    open_check_url(created.sna["url"])
    checked = service.verification_checks.create(to=number)
    theirs = [shape(r) for r in verify.listing("requests") if r["form"].get("To") == number][2:]
    assert ours == theirs
    assert ours[0]["auth"] == ("Basic", f"{ACCOUNT_SID}:{AUTH_TOKEN}")
    assert re.fullmatch(r"VE[0-9a-f]{32}", created.sid) and created.channel == "sna" and created.status == "pending"
    assert checked.status == "approved" and checked.sna_attempts_error_codes == []


def test_the_sdk_parses_a_pending_check_and_the_fakes_errors(verify):
    service = sdk(verify)
    number = BASE + "43"
    service.verifications.create(to=number, channel="sna")
    # The device never opened the SNA URL: Twilio has no result yet.
    pending = service.verification_checks.create(to=number)
    assert pending.status == "pending" and pending.sna_attempts_error_codes[0]["code"] == 60519
    with pytest.raises(TwilioRestException) as refused:
        service.verifications.create(to=BASE + "98", channel="sna")
    assert (refused.value.status, refused.value.code) == (400, 60540)
    with pytest.raises(TwilioRestException) as unknown:
        service.verification_checks.create(to=BASE + "44")
    assert (unknown.value.status, unknown.value.code) == (404, 20404)
