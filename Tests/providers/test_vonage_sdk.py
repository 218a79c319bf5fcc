"""Holds the fake Vonage SMS API and Tacit to Vonage's real wire format with Vonage's own
SDK (vonage 4.9.1, vonage-sms): the SDK's request for an SMS is the ground truth Tacit's
request for the same SMS is compared with, and the SDK must parse every answer the fake
gives. The SDK speaks https only (research §2.3), so it reaches the fake's TLS listener."""
import base64
import os

import pytest
from vonage import Auth, HttpClientOptions, Vonage
from vonage_http_client.errors import ServerError
from vonage_sms import SmsError, SmsMessage

from vonage_support import API_KEY, API_SECRET, FROM

UK = "+447400123470"


@pytest.fixture
def sdk(vonage_fake, monkeypatch):
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", vonage_fake.ca)
    options = HttpClientOptions(rest_host=vonage_fake.tls_host, max_retries=0)
    return Vonage(Auth(api_key=API_KEY, api_secret=API_SECRET), options)


def shape(request):
    """What must match between Tacit and the SDK: method, path, content type, auth scheme
    and credentials, and the form's field names."""
    scheme, _, credentials = request["headers"].get("authorization", "").partition(" ")
    return {
        "method": request["method"],
        "path": request["path"],
        "content_type": request["headers"]["content-type"].split(";")[0],
        "auth": (scheme, base64.b64decode(credentials).decode()),
        "fields": sorted(request["form"]),
    }


def tacit_request(routed, vonage_fake, number, locale="en"):
    vonage_fake.reset()
    status, body, _ = routed.call("POST", "/v1/verifications", {
        "phone_number": number, "workflow": [{"channel": "sms"}], "locale": locale, "brand": "Acme"})
    assert status == 202, body
    request_id = body["request_id"]
    assert routed.call("DELETE", f"/v1/verifications/{request_id}")[0] == 204
    requests = vonage_fake.requests()
    assert len(requests) == 1, requests
    return request_id, requests[0]


def sdk_send(sdk, form):
    return sdk.sms.send(SmsMessage(to=form["to"], from_=form["from"], text=form["text"], client_ref=form["client-ref"],
                                   callback=form["callback"], type=form.get("type")))


@pytest.mark.parametrize("locale,unicode", [("en", False), ("es", True)])
def test_tacit_sends_an_sms_as_the_sdk_does(routed, fake, vonage_fake, sdk, locale, unicode):
    fake.fail(500, 20500, "Internal Server Error", times=1, resource="Messages")
    ours = tacit_request(routed, vonage_fake, UK, locale)[1]
    assert ("type" in ours["form"]) == unicode, ours["form"]["text"]
    vonage_fake.reset()
    sdk_send(sdk, ours["form"])
    theirs = vonage_fake.requests()[0]
    assert shape(ours) == shape(theirs)
    assert ours["form"] == theirs["form"]
    assert shape(ours)["auth"] == ("Basic", f"{API_KEY}:{API_SECRET}")
    assert API_SECRET not in ours["raw"]


def test_a_text_outside_gsm_goes_as_unicode_as_the_sdk_sends_it(vonage_fake, sdk):
    response = sdk.sms.send(SmsMessage(to=UK[1:], from_=FROM, text="Ваш код 123456", type="unicode"))
    assert response.messages[0].status == "0"
    assert vonage_fake.requests()[0]["form"]["type"] == "unicode"


def test_the_sdk_parses_the_fakes_accepted_answer(vonage_fake, sdk):
    response = sdk.sms.send(SmsMessage(to=UK[1:], from_=FROM, text="Your Acme code is 123456.", client_ref="vf_x:0"))
    assert response.message_count == "1"
    message = response.messages[0]
    assert (message.status, message.to, message.client_ref) == ("0", UK[1:], "vf_x:0")
    assert message.message_id and message.remaining_balance and message.message_price and message.network


@pytest.mark.parametrize("status", ["1", "5", "6", "7", "29", "33"])
def test_the_sdk_reads_the_fakes_status_codes_as_sms_errors(vonage_fake, sdk, status):
    vonage_fake.fail(status=status)
    with pytest.raises(SmsError) as raised:
        sdk.sms.send(SmsMessage(to=UK[1:], from_=FROM, text="hello"))
    assert f"failed with error code {status}: " in str(raised.value)


def test_the_sdk_reads_the_fakes_500_as_a_server_error_and_bad_credentials_as_status_4(vonage_fake, sdk, monkeypatch):
    vonage_fake.fail(http_status=500)
    with pytest.raises(ServerError):
        sdk.sms.send(SmsMessage(to=UK[1:], from_=FROM, text="hello"))
    wrong = Vonage(Auth(api_key=API_KEY, api_secret="not-the-secret"),
                   HttpClientOptions(rest_host=vonage_fake.tls_host, max_retries=0))
    with pytest.raises(SmsError) as denied:
        wrong.sms.send(SmsMessage(to=UK[1:], from_=FROM, text="hello"))
    assert "failed with error code 4: " in str(denied.value)
    assert os.environ["REQUESTS_CA_BUNDLE"] == vonage_fake.ca
