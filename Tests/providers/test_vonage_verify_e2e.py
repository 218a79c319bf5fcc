"""Silent authentication through Vonage Verify v2, end to end: a non-dev `tacit serve`
whose silent step goes to the Verify fake (its own process), the device opening Verify's
check URL from the cellular or the Wi-Fi address, Tacit checking the device's code with
Verify, and Verify's signed silent-auth events at `/v1/callbacks/vonage`. SMS goes to the
fake Twilio. Nothing secret reaches a log line, an event or an export."""
import json
import re

import pytest

from cellular import WIFI, open_check_url
from conftest import AUTH_TOKEN, assert_start_refused, http, twilio_env
from vonage_verify_support import APPLICATION_ID, BASE, SIGNATURE_SECRET, verify_env, verify_tacit, vonage_verify  # noqa: F401


def start(tacit, number):
    status, body, _ = tacit.call("POST", "/v1/verifications", {"phone_number": number, "brand": "Acme",
                                                                "workflow": [{"channel": "silent_auth"}, {"channel": "sms"}]})
    assert status == 202, body
    return body


def state(tacit, request_id):
    return tacit.call("GET", f"/v1/verifications/{request_id}")[1]


def steps(tacit, request_id):
    return [s["status"] for s in state(tacit, request_id)["workflow"]]


def labels(tacit, request_id):
    return [(e["label"], e["data"].get("provider")) for e in tacit.events(request_id)]


def callback_url(tacit):
    return tacit.url + "/v1/callbacks/vonage"


def assert_nothing_secret(tacit, request_id, *extra):
    export = tacit.call("GET", f"/v1/verifications/{request_id}/timeline")[1]
    text = json.dumps(tacit.events(request_id)) + json.dumps(export) + tacit.log()
    for value in (SIGNATURE_SECRET, AUTH_TOKEN, *extra):
        assert value not in text
    assert "BEGIN PRIVATE KEY" not in text
    assert not re.search(r"\+?4474001235\d\d", text), "a full phone number reached an event, an export or the log"


def test_a_match_completes_with_nothing_typed(verify_tacit, vonage_verify):
    started = start(verify_tacit, BASE + "42")
    request_id = started["provider_request_id"]
    assert started["check_url"] == f"{vonage_verify.url}/v2/verify/{request_id}/silent-auth/redirect"
    status, end = open_check_url(started["check_url"])
    # The device's integrity check: the answer names Vonage's id, which the start response gave it.
    assert status == 200 and end["request_id"] == request_id
    status, body, _ = verify_tacit.call("POST", f"/v1/verifications/{started['request_id']}/check", {"code": end["code"]})
    assert (status, body["status"]) == (200, "completed"), body
    check = [r for r in vonage_verify.requests() if r["path"] == f"/v2/verify/{request_id}"][-1]
    assert json.loads(check["body"]) == {"code": end["code"]}
    hops = labels(verify_tacit, started["request_id"])
    for hop in ("silent_auth:coverage_checked", "provider:challenge_issued", "silent_auth:provider_verdict"):
        assert (hop, "vonage") in hops
    tokens = [r["headers"]["authorization"].removeprefix("Bearer ") for r in vonage_verify.requests()]
    assert_nothing_secret(verify_tacit, started["request_id"], end["code"], *tokens)


def test_a_forged_code_is_an_invalid_code_not_a_sim_mismatch_and_moves_on_to_sms(verify_tacit, vonage_verify, fake):
    started = start(verify_tacit, BASE + "40")
    open_check_url(started["check_url"])
    status, body, _ = verify_tacit.call("POST", f"/v1/verifications/{started['request_id']}/check", {"code": "tampered1"})
    assert (status, body["type"]) == (400, "invalid-code") and body["attempts_remaining"] >= 1, body
    assert [r for r in vonage_verify.requests() if r["path"] == f"/v2/verify/{started['provider_request_id']}"]
    # Verify allows one attempt at a silent code: the step is spent, not rejected, and SMS follows.
    assert steps(verify_tacit, started["request_id"]) == ["failed", "active"]
    events = verify_tacit.events(started["request_id"])
    assert any(e["channel"] == "silent_auth" and e["data"].get("reason") == "too_many_attempts" for e in events)
    verdict = next(e for e in events if e["label"] == "silent_auth:provider_verdict")
    assert verdict["data"]["result"] == "wrong_code" and "SIM" not in verdict["note"].replace("not a verdict on the SIM", "")
    assert not any(e["label"] == "silent_auth:sim_match" for e in events)
    assert any(r["form"]["To"] == BASE + "40" for r in fake.requests())


def test_a_sim_that_does_not_match_is_reported_by_callback_and_moves_on_to_sms(verify_tacit, vonage_verify):
    started = start(verify_tacit, BASE + "41")
    status, body = open_check_url(started["check_url"])
    assert status == 412 and body["detail"] == "Device MSISDN does not match."
    answer = vonage_verify.callback(callback_url(verify_tacit), started["provider_request_id"], "user_rejected")
    assert answer["status"] == 204, answer
    assert steps(verify_tacit, started["request_id"]) == ["rejected", "active"]
    assert ("provider:silent_status", "vonage") in labels(verify_tacit, started["request_id"])
    assert_nothing_secret(verify_tacit, started["request_id"], answer["token"])


def test_a_check_that_timed_out_at_vonage_moves_on_to_sms(verify_tacit, vonage_verify):
    started = start(verify_tacit, BASE + "44")
    answer = vonage_verify.callback(callback_url(verify_tacit), started["provider_request_id"], "expired")
    assert answer["status"] == 204, answer
    assert steps(verify_tacit, started["request_id"]) == ["failed", "active"]


def test_no_coverage_starts_on_sms(verify_tacit, fake):
    started = start(verify_tacit, BASE + "98")
    assert "check_url" not in started and started["channel"] == "sms"
    coverage = [e for e in verify_tacit.events(started["request_id"]) if e["label"] == "silent_auth:coverage_checked"]
    assert coverage and coverage[0]["data"] == {"provider": "vonage", "covered": False}
    assert any(r["form"]["To"] == BASE + "98" for r in fake.requests())


def test_an_outage_at_the_start_moves_on_to_sms(verify_tacit, vonage_verify):
    vonage_verify.fail(500, "Internal error")
    started = start(verify_tacit, BASE + "46")
    assert started["channel"] == "sms"
    failed = [e for e in verify_tacit.events(started["request_id"]) if e["label"] == "provider:failed"]
    assert failed[0]["data"]["reason"] == "unavailable" and failed[0]["data"]["provider"] == "vonage"


def test_wifi_is_refused_by_the_provider_and_its_failure_moves_on(verify_tacit, vonage_verify):
    started = start(verify_tacit, BASE + "48")
    status, body = open_check_url(started["check_url"], source=WIFI)
    assert status == 412 and body["detail"] == "IP Address does not resolve to a cellular device."
    assert vonage_verify.callback(callback_url(verify_tacit), started["provider_request_id"], "failed")["status"] == 204
    assert steps(verify_tacit, started["request_id"]) == ["failed", "active"]


def test_a_check_url_opens_once_and_a_spent_code_is_refused(verify_tacit):
    started = start(verify_tacit, BASE + "50")
    _, end = open_check_url(started["check_url"])
    assert open_check_url(started["check_url"])[0] == 409
    path = f"/v1/verifications/{started['request_id']}/check"
    assert verify_tacit.call("POST", path, {"code": end["code"]})[0] == 200
    status, body, _ = verify_tacit.call("POST", path, {"code": end["code"]})
    assert status == 409, body


def test_a_forged_callback_a_replayed_one_and_one_for_another_flow_are_refused(verify_tacit, vonage_verify):
    mine, other = start(verify_tacit, BASE + "52"), start(verify_tacit, BASE + "54")
    url = callback_url(verify_tacit)
    forged = vonage_verify.callback(url, mine["provider_request_id"], "failed", forge=True)
    assert forged["status"] == 401 and json.loads(forged["body"])["type"].endswith("invalid-signature")
    # Genuinely signed, but it names this flow's client_ref with the other flow's Verify request.
    client_ref = next(json.loads(r["body"])["client_ref"] for r in vonage_verify.requests()
                      if r["path"] == "/v2/verify" and json.loads(r["body"])["workflow"][0]["to"] == (BASE + "52")[1:])
    crossed = vonage_verify.callback(url, other["provider_request_id"], "failed", client_ref=client_ref)
    assert crossed["status"] == 409 and json.loads(crossed["body"])["type"].endswith("callback-check-mismatch")
    assert steps(verify_tacit, mine["request_id"]) == steps(verify_tacit, other["request_id"]) == ["active", "unused"]
    progress = vonage_verify.callback(url, mine["provider_request_id"], "action_pending")
    assert progress["status"] == 204 and steps(verify_tacit, mine["request_id"]) == ["active", "unused"]
    status, body, _ = http("POST", url, progress["sent"].encode(), {"Content-Type": "application/json",
                                                                     "Authorization": "Bearer " + progress["token"]})
    assert (status, body["type"]) == (409, "replayed-callback")
    for request in (mine, other):
        verify_tacit.call("DELETE", f"/v1/verifications/{request['request_id']}")


@pytest.mark.parametrize("settings,setting", [
    ({"TACIT_VONAGE_APPLICATION_ID": APPLICATION_ID}, "TACIT_VONAGE_PRIVATE_KEY_FILE"),
    ({"TACIT_VONAGE_APPLICATION_ID": APPLICATION_ID, "TACIT_VONAGE_PRIVATE_KEY_FILE": "/nonexistent/app.key"},
     "TACIT_VONAGE_PRIVATE_KEY_FILE"),
    ({"TACIT_VONAGE_APPLICATION_ID": "not an id!"}, "TACIT_VONAGE_APPLICATION_ID"),
])
def test_start_up_refuses_a_bad_verify_setting(binary, tmp_path, settings, setting):
    env = twilio_env("http://127.0.0.1:9") | {"TACIT_SECRET": "provider-tests-secret"} | settings
    assert_start_refused(binary, tmp_path, env, setting, [AUTH_TOKEN])


def test_start_up_refuses_a_bad_verify_url_naming_it(binary, tmp_path, vonage_verify):
    env = twilio_env("http://127.0.0.1:9") | {"TACIT_SECRET": "provider-tests-secret"} | verify_env(vonage_verify) | {
        "TACIT_VONAGE_API_URL": "ftp://x"}
    assert_start_refused(binary, tmp_path, env, "TACIT_VONAGE_API_URL", [AUTH_TOKEN, SIGNATURE_SECRET, vonage_verify.private_key])
