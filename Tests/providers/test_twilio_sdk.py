"""Holds the fake and Tacit to Twilio's real wire format with Twilio's own SDK (twilio
9.13.0): the SDK's request for a message is the ground truth Tacit's request for the
same message is compared with, and the SDK must parse every answer the fake gives."""
import base64
import re

import pytest
from twilio.base.exceptions import TwilioRestException
from twilio.rest import Client

from conftest import ACCOUNT_SID, AUTH_TOKEN, FROM

UK = "+447400123456"


def sdk(fake):
    client = Client(ACCOUNT_SID, AUTH_TOKEN)
    # The API domain's base URL is a plain attribute (research §3.8): aim it at the fake.
    client.api.base_url = fake.url
    return client


def shape(request):
    """What must match between Tacit and the SDK: method, path, content type, auth scheme
    and credentials, and the form's field names."""
    scheme, _, credentials = request["headers"]["authorization"].partition(" ")
    return {
        "method": request["method"],
        "path": request["path"],
        "content_type": request["headers"]["content-type"].split(";")[0],
        "auth": (scheme, base64.b64decode(credentials).decode()),
        "fields": sorted(request["form"]),
    }


def tacit_request(tacit, fake, number, channel):
    fake.reset()
    request_id = tacit.start(number, [channel])
    assert tacit.call("DELETE", f"/v1/verifications/{request_id}")[0] == 204
    requests = fake.requests()
    assert len(requests) == 1, requests
    return requests[0]


@pytest.mark.parametrize("channel", ["sms", "whatsapp"])
def test_tacit_sends_a_message_as_the_sdk_does(tacit, fake, channel):
    ours = tacit_request(tacit, fake, UK, channel)
    form = ours["form"]
    fake.reset()
    sdk(fake).messages.create(to=form["To"], from_=form["From"], body=form["Body"], status_callback=form["StatusCallback"])
    theirs = fake.requests()[0]
    assert shape(ours) == shape(theirs)
    assert ours["form"] == theirs["form"]
    assert shape(ours)["auth"] == ("Basic", f"{ACCOUNT_SID}:{AUTH_TOKEN}")


def test_tacit_places_a_call_as_the_sdk_does(tacit, fake):
    ours = tacit_request(tacit, fake, UK, "voice")
    form = ours["form"]
    assert form["Twiml"].startswith('<Response><Say language="en-US">')
    fake.reset()
    sdk(fake).calls.create(to=form["To"], from_=form["From"], twiml=form["Twiml"], status_callback=form["StatusCallback"])
    theirs = fake.requests()[0]
    assert shape(ours) == shape(theirs)
    assert ours["form"] == theirs["form"]


def test_the_sdk_parses_the_fakes_message_and_call_resources(fake):
    client = sdk(fake)
    message = client.messages.create(to=UK, from_=FROM, body="Your Acme code is 123456.",
                                     status_callback="http://127.0.0.1:9/cb")
    assert re.fullmatch(r"SM[0-9a-f]{32}", message.sid)
    assert (message.status, message.to, message.direction, message.account_sid) == ("queued", UK, "outbound-api", ACCOUNT_SID)
    assert message.date_created is not None
    call = client.calls.create(to=UK, from_=FROM, twiml="<Response><Say>1 2 3</Say></Response>")
    assert re.fullmatch(r"CA[0-9a-f]{32}", call.sid)
    assert call.status == "queued"


@pytest.mark.parametrize("status,code", [(500, 20500), (503, 20503), (429, 20429), (400, 21211)])
def test_the_sdk_reads_the_fakes_error_answers_as_twilio_rest_exceptions(fake, status, code):
    fake.fail(status, code, "An error on demand")
    with pytest.raises(TwilioRestException) as raised:
        sdk(fake).messages.create(to=UK, from_=FROM, body="hello")
    assert (raised.value.status, raised.value.code) == (status, code)


def test_the_sdk_reads_the_fakes_magic_number_and_authentication_errors(fake):
    with pytest.raises(TwilioRestException) as invalid:
        sdk(fake).messages.create(to="+15005550001", from_=FROM, body="hello")
    assert (invalid.value.status, invalid.value.code) == (400, 21211)
    wrong = Client(ACCOUNT_SID, "not-the-token")
    wrong.api.base_url = fake.url
    with pytest.raises(TwilioRestException) as denied:
        wrong.messages.create(to=UK, from_=FROM, body="hello")
    assert (denied.value.status, denied.value.code) == (401, 20003)


def test_the_fakes_callback_signature_is_the_one_the_sdks_validator_accepts():
    from twilio.request_validator import RequestValidator

    from fake_twilio import signature

    url = "http://127.0.0.1:8080/v1/callbacks/twilio?ref=vf_abc:0"
    params = {"MessageSid": "SM" + "0" * 32, "MessageStatus": "delivered", "To": UK, "ErrorCode": "30003"}
    validator = RequestValidator(AUTH_TOKEN)
    assert validator.validate(url, params, signature(AUTH_TOKEN, url, params))
    assert not validator.validate(url, params, signature("another-token", url, params))
