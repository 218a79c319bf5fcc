"""Holds the fake Vonage Messages and Voice APIs and Tacit to Vonage's real wire format with
Vonage's own SDK (vonage 4.9.1: vonage-messages, vonage-voice, vonage-jwt): the SDK's request
for the same WhatsApp template or call is the ground truth Tacit's is compared with, both
JWTs verify at the fake with PyJWT against the application's public key, and the SDK parses
every answer the fake gives. The SDK speaks https only (research §2.3)."""
import json

import jwt
import pytest
from vonage import Auth, HttpClientOptions, Vonage
from vonage_http_client.errors import AuthenticationError, HttpRequestError, RateLimitedError, ServerError
from vonage_messages import WhatsappTemplate, WhatsappTemplateResource, WhatsappTemplateSettings, WhatsappText
from vonage_voice import CreateCallRequest, Phone, Talk, ToPhone

from conftest import Tacit
from vonage_support import APPLICATION_ID, TEMPLATE, VOICE_FROM, WHATSAPP_FROM, vonage_application_env

UK = "+447400123490"


@pytest.fixture(scope="module")
def vonage_app(binary, fake, vonage_fake):
    server = Tacit(binary, fake.url, vonage_application_env(vonage_fake)
                   | {"TACIT_ROUTE_WHATSAPP": "vonage", "TACIT_ROUTE_VOICE": "vonage"})
    yield server
    server.stop()


def client(vonage_fake, monkeypatch, key_file=None):
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", vonage_fake.ca)
    key = open(key_file or vonage_fake.key_file).read()
    return Vonage(Auth(application_id=APPLICATION_ID, private_key=key),
                  HttpClientOptions(api_host=vonage_fake.tls_host, max_retries=0))


@pytest.fixture
def sdk(vonage_fake, monkeypatch):
    return client(vonage_fake, monkeypatch)


def keys(value):
    """The JSON's field names, nested: what must match whatever the values."""
    if isinstance(value, dict):
        return {name: keys(item) for name, item in value.items()}
    if isinstance(value, list):
        return [keys(item) for item in value]
    return None


def shape(request):
    scheme, _, token = request["headers"]["authorization"].partition(" ")
    return {
        "method": request["method"],
        "path": request["path"],
        "content_type": request["headers"]["content-type"].split(";")[0],
        "auth": scheme,
        "claims": sorted(jwt.decode(token, options={"verify_signature": False})),
        "jwt_verified": request["jwt_verified"],
        "fields": keys(request["json"]),
    }


def tacit_request(server, vonage_fake, channel, locale="en-gb"):
    vonage_fake.reset()
    status, body, _ = server.call("POST", "/v1/verifications", {
        "phone_number": UK, "workflow": [{"channel": channel}], "locale": locale, "brand": "Acme"})
    assert status == 202, body
    assert server.call("DELETE", f"/v1/verifications/{body['request_id']}")[0] == 204
    requests = vonage_fake.requests()
    assert len(requests) == 1, requests
    return requests[0]


def test_tacit_sends_a_whatsapp_authentication_template_as_the_sdk_does(vonage_app, vonage_fake, sdk):
    ours = tacit_request(vonage_app, vonage_fake, "whatsapp")
    sent = ours["json"]
    assert (sent["message_type"], sent["template"]["name"], sent["whatsapp"]) == (
        "template", TEMPLATE, {"policy": "deterministic", "locale": "en_GB"})
    assert sent["template"]["parameters"][0].isdigit()
    vonage_fake.reset()
    sdk.messages.send(WhatsappTemplate(
        to=sent["to"], from_=sent["from"], client_ref=sent["client_ref"], webhook_url=sent["webhook_url"],
        template=WhatsappTemplateResource(name=sent["template"]["name"], parameters=sent["template"]["parameters"]),
        whatsapp=WhatsappTemplateSettings(locale=sent["whatsapp"]["locale"], policy="deterministic")))
    theirs = vonage_fake.requests()[0]
    assert shape(ours) == shape(theirs)
    assert ours["json"] == theirs["json"]
    assert shape(ours)["auth"] == "Bearer" and shape(ours)["jwt_verified"]
    assert shape(ours)["claims"] == ["application_id", "exp", "iat", "jti"]


def test_tacit_places_a_call_with_an_ncco_talk_as_the_sdk_does(vonage_app, vonage_fake, sdk):
    ours = tacit_request(vonage_app, vonage_fake, "voice", locale="fr-fr")
    sent = ours["json"]
    talk = sent["ncco"][0]
    assert (talk["action"], talk["language"]) == ("talk", "fr-FR")
    assert sent["event_url"][0].startswith(vonage_app.url + "/v1/callbacks/vonage?ref=")
    vonage_fake.reset()
    sdk.voice.create_call(CreateCallRequest(
        to=[ToPhone(number=sent["to"][0]["number"])], from_=Phone(number=sent["from"]["number"]),
        ncco=[Talk(text=talk["text"], language=talk["language"])], event_url=sent["event_url"]))
    theirs = vonage_fake.requests()[0]
    assert shape(ours) == shape(theirs)
    assert ours["json"] == theirs["json"]


def test_the_sdk_parses_the_fakes_accepted_message_and_call(vonage_fake, sdk):
    sent = sdk.messages.send(WhatsappText(to=UK[1:], from_=WHATSAPP_FROM, text="Your Acme code is 123456."))
    assert sent.message_uuid in vonage_fake.whatsapp_ids()
    call = sdk.voice.create_call(CreateCallRequest(to=[ToPhone(number=UK[1:])], from_=Phone(number=VOICE_FROM),
                                                   ncco=[Talk(text="1, 2, 3")]))
    assert call.uuid in vonage_fake.call_ids()
    assert (call.status, call.direction) == ("started", "outbound") and call.conversation_uuid.startswith("CON-")


@pytest.mark.parametrize("status,code,error", [(422, 1050, HttpRequestError), (429, 1000, RateLimitedError),
                                               (500, 1030, ServerError)])
def test_the_sdk_reads_the_fakes_problems_as_its_errors(vonage_fake, sdk, status, code, error):
    vonage_fake.fail_api("messages", status, code)
    with pytest.raises(error) as raised:
        sdk.messages.send(WhatsappText(to=UK[1:], from_=WHATSAPP_FROM, text="hello"))
    assert raised.value.response.headers["content-type"] == "application/json"
    assert json.loads(raised.value.response.text)["type"].endswith(f"#{code}")
    vonage_fake.fail_api("calls", status, code)
    with pytest.raises(error):
        sdk.voice.create_call(CreateCallRequest(to=[ToPhone(number=UK[1:])], from_=Phone(number=VOICE_FROM), ncco=[Talk(text="1")]))


def test_a_token_from_another_key_is_refused_as_unauthorised(vonage_fake, monkeypatch, tmp_path):
    import subprocess
    other = tmp_path / "other.key"
    subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", str(other)],
                   check=True, capture_output=True)
    with pytest.raises(AuthenticationError):
        client(vonage_fake, monkeypatch, str(other)).messages.send(WhatsappText(to=UK[1:], from_=WHATSAPP_FROM, text="hello"))
    assert vonage_fake.requests()[-1]["jwt_verified"] is False


def test_the_fakes_signed_callbacks_verify_with_the_sdks_verifier(vonage_app, vonage_fake, sdk):
    from vonage_jwt.verify_jwt import verify_signature

    from vonage_support import SIGNATURE_SECRET

    sent = sdk.messages.send(WhatsappText(to=UK[1:], from_=WHATSAPP_FROM, text="hello",
                                          webhook_url=vonage_app.url + "/v1/callbacks/vonage"))
    vonage_fake.status("delivered", message_uuid=sent.message_uuid)
    vonage_fake.status("read", message_uuid=sent.message_uuid, forge=True)
    genuine, forged = [c["authorization"].split(" ", 1)[1] for c in vonage_fake.callbacks()]
    assert verify_signature(genuine, SIGNATURE_SECRET)
    assert not verify_signature(forged, SIGNATURE_SECRET)
