"""Holds the Verify v2 fake and Tacit to Vonage's wire format with Vonage's own SDK (vonage
4.9.1, vonage-verify 2.2.0): the SDK's silent start and code check are the ground truth
Tacit's are compared with, and the SDK parses every answer the fake gives."""
import json

import jwt
import pytest
from vonage import Auth, HttpClientOptions, Vonage
from vonage_http_client.errors import HttpRequestError, NotFoundError, RateLimitedError
from vonage_verify import SilentAuthChannel, VerifyRequest

from cellular import open_check_url
from vonage_verify_support import APPLICATION_ID, BASE, verify_tacit, vonage_verify  # noqa: F401


@pytest.fixture
def sdk(monkeypatch, vonage_verify):
    # The SDK speaks https only (research §2.3): the fake's TLS listener, its certificate trusted.
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", vonage_verify.ca)
    client = Vonage(Auth(application_id=APPLICATION_ID, private_key=vonage_verify.private_key),
                    HttpClientOptions(api_host=vonage_verify.tls_host))
    return client.verify


def shape(request):
    scheme, _, token = request["headers"]["authorization"].partition(" ")
    claims = jwt.decode(token, options={"verify_signature": False})
    return {"method": request["method"], "path": request["path"].split("/", 4)[:3] + (["{id}"] if request["path"].count("/") > 2 else []),
            "content_type": request["headers"]["content-type"], "auth": scheme, "alg": jwt.get_unverified_header(token)["alg"],
            "claims": sorted(claims), "application_id": claims["application_id"], "body": json.loads(request["body"])}


def plain(fake, url):
    """The fake builds its check URL from the listener it was asked on: the SDK's is on TLS."""
    return url.replace("https://" + fake.tls_host, fake.url)


def test_tacit_starts_and_checks_a_silent_request_as_the_sdk_does(verify_tacit, vonage_verify, sdk):
    number = BASE + "42"
    started = verify_tacit.call("POST", "/v1/verifications", {"phone_number": number, "workflow": [{"channel": "silent_auth"}, {"channel": "sms"}]})[1]
    _, end = open_check_url(started["check_url"])
    assert verify_tacit.call("POST", f"/v1/verifications/{started['request_id']}/check", {"code": end["code"]})[0] == 200
    ours = [shape(r) for r in vonage_verify.requests()]
    vonage_verify.reset()

    response = sdk.start_verification(VerifyRequest(brand="Tacit", workflow=[SilentAuthChannel(to=number[1:])]))
    _, device = open_check_url(plain(vonage_verify, response.check_url))
    checked = sdk.check_code(response.request_id, device["code"])
    theirs = [shape(r) for r in vonage_verify.requests()]

    assert [(r["method"], r["path"]) for r in ours] == [(r["method"], r["path"]) for r in theirs] == \
        [("POST", ["", "v2", "verify"]), ("POST", ["", "v2", "verify", "{id}"])]
    for mine, sdks in zip(ours, theirs):
        assert {k: mine[k] for k in ("content_type", "auth", "alg", "claims", "application_id")} == \
            {k: sdks[k] for k in ("content_type", "auth", "alg", "claims", "application_id")}
    # The SDK does not model coverage_check (research §2.2), which Tacit sets; Tacit adds its client_ref.
    start = dict(ours[0]["body"])
    assert set(start.pop("client_ref")) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    assert start["workflow"] == [theirs[0]["body"]["workflow"][0] | {"coverage_check": True}]
    assert {k: v for k, v in start.items() if k != "workflow"} == {k: v for k, v in theirs[0]["body"].items() if k != "workflow"}
    assert set(ours[1]["body"]) == set(theirs[1]["body"]) == {"code"}
    assert checked.status == "completed" and checked.request_id == response.request_id


def test_the_sdk_parses_every_answer_the_fake_gives(vonage_verify, sdk):
    number = BASE + "44"
    first = sdk.start_verification(VerifyRequest(brand="Acme", workflow=[SilentAuthChannel(to=number[1:])]))
    assert first.check_url.endswith(f"/v2/verify/{first.request_id}/silent-auth/redirect")
    with pytest.raises(HttpRequestError) as concurrent:
        sdk.start_verification(VerifyRequest(brand="Acme", workflow=[SilentAuthChannel(to=number[1:])]))
    assert concurrent.value.response.status_code == 409
    assert concurrent.value.response.json()["request_id"] == first.request_id

    for status in (422, 429):
        vonage_verify.fail(status)
        with pytest.raises(RateLimitedError if status == 429 else HttpRequestError) as refused:
            sdk.start_verification(VerifyRequest(brand="Acme", workflow=[SilentAuthChannel(to=BASE[1:] + "46")]))
        assert refused.value.response.status_code == status

    open_check_url(plain(vonage_verify, first.check_url))
    with pytest.raises(HttpRequestError) as wrong:
        sdk.check_code(first.request_id, "wrong1")
    assert wrong.value.response.status_code == 400 and wrong.value.response.json()["title"] == "Invalid Code"
    with pytest.raises(HttpRequestError) as spent:
        sdk.check_code(first.request_id, "wrong2")
    assert spent.value.response.status_code == 410
    with pytest.raises(NotFoundError) as unknown:
        sdk.check_code("5b7c1c2e-0000-4000-8000-000000000000", "abcd12")
    assert unknown.value.response.status_code == 404
