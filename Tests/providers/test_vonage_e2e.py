"""End to end over real HTTP: a non-dev `tacit serve` with an API key, Twilio and Vonage
aimed at their fakes, the code read from what the fakes received. Here failover between
two real providers runs over the wire: Twilio answering 500 hands the SMS to Vonage in
the same step."""
import re

import pytest

from conftest import Tacit, assert_start_refused, twilio_env
from vonage_support import API_KEY, API_SECRET, FROM, SIGNATURE_SECRET, both_providers, vonage_env


@pytest.fixture(scope="module")
def vonage_only(binary, fake, vonage_fake):
    server = both_providers(binary, fake, vonage_fake, route="vonage")
    yield server
    server.stop()


def last_sms(vonage_fake):
    requests = vonage_fake.requests()
    assert requests, "Vonage received no SMS"
    return requests[-1]


def sms_code(request):
    return re.findall(r"\d+", request["form"]["text"])[-1]


def check(server, request_id, code):
    status, body, _ = server.call("POST", f"/v1/verifications/{request_id}/check", {"code": code})
    assert status == 200, body
    return body["status"]


def hops(server, request_id):
    return [e for e in server.events(request_id) if e["source"] == "provider"]


def test_an_sms_code_sent_through_vonage_checks_to_completed(vonage_only, vonage_fake):
    number = "+447400123480"
    request_id = vonage_only.start(number, ["sms"])
    sent = last_sms(vonage_fake)
    assert (sent["form"]["to"], sent["form"]["from"]) == (number[1:], FROM)
    assert sent["form"]["client-ref"] == f"{request_id}:0"
    assert sent["form"]["callback"] == f"{vonage_only.url}/v1/callbacks/vonage"
    assert "Acme" in sent["form"]["text"]
    assert check(vonage_only, request_id, sms_code(sent)) == "completed"
    accepted = next(e for e in hops(vonage_only, request_id) if e["label"] == "provider:accepted")
    assert accepted["data"]["provider"] == "vonage"
    # The id is kept whole on the timeline, leading digit and all, so a receipt matches it.
    assert accepted["data"]["message_id"] == vonage_fake.message_ids()[-1]


def test_twilio_answering_500_hands_the_code_to_vonage_in_the_same_step(routed, fake, vonage_fake):
    fake.fail(500, 20500, "Internal Server Error", resource="Messages")
    request_id = routed.start("+447400123481", ["sms", "voice"])
    assert len([r for r in fake.requests() if r["path"].endswith("Messages.json")]) == 1
    state = routed.call("GET", f"/v1/verifications/{request_id}")[1]
    assert [s["status"] for s in state["workflow"]] == ["active", "unused"]
    timeline = hops(routed, request_id)
    assert [(e["label"], e["data"]["provider"]) for e in timeline] == [("provider:failed_over", "twilio"),
                                                                       ("provider:accepted", "vonage")]
    assert timeline[0]["data"]["next_provider"] == "vonage"
    assert timeline[0]["data"]["reason"] == "provider_error"
    assert check(routed, request_id, sms_code(last_sms(vonage_fake))) == "completed"


def test_a_vonage_permanent_error_fails_the_step_with_its_reason(vonage_only, vonage_fake):
    vonage_fake.fail(status="7")
    request_id = vonage_only.start("+447400123482", ["sms", "voice"])
    state = vonage_only.call("GET", f"/v1/verifications/{request_id}")[1]
    assert [s["status"] for s in state["workflow"]] == ["failed", "active"]
    refused = next(e for e in hops(vonage_only, request_id) if e["label"] == "provider:refused")
    assert (refused["data"]["provider"], refused["data"]["error_code"], refused["data"]["reason"]) == ("vonage", 7, "number_blocked")
    ended = [e for e in vonage_only.events(request_id) if e.get("channel") == "sms" and e["source"] == "server"
             and "reason" in e["data"]]
    assert ended[-1]["data"]["reason"] == "number_blocked"
    assert vonage_only.call("DELETE", f"/v1/verifications/{request_id}")[0] == 204


def test_a_signed_receipt_lands_on_the_timeline_and_a_forged_one_is_refused(vonage_only, vonage_fake):
    request_id = vonage_only.start("+447400123483", ["sms", "voice"])
    message_id = vonage_fake.message_ids()[-1]
    before = vonage_only.events(request_id)
    assert vonage_fake.callback(message_id, "rejected", error_code=1320, forge=True) == 401
    assert vonage_only.events(request_id) == before
    assert vonage_fake.callback(message_id, "delivered") == 204
    delivered = [e for e in vonage_only.events(request_id) if e["label"] == "provider:delivered"]
    assert [(e["source"], e["data"]["provider"], e["data"]["status"]) for e in delivered] == [("provider", "vonage", "delivered")]
    state = vonage_only.call("GET", f"/v1/verifications/{request_id}")[1]
    assert state["workflow"][0]["status"] == "active"
    assert vonage_only.call("DELETE", f"/v1/verifications/{request_id}")[0] == 204


def test_an_undeliverable_receipt_fails_the_sms_step_over_to_voice_at_once(vonage_only, fake, vonage_fake):
    request_id = vonage_only.start("+447400123484", ["sms", "voice"])
    assert vonage_fake.callback(vonage_fake.message_ids()[-1], "undeliverable") == 204
    state = vonage_only.call("GET", f"/v1/verifications/{request_id}")[1]
    assert [s["status"] for s in state["workflow"]] == ["failed", "active"]
    assert "provider:failed" in [e["label"] for e in vonage_only.events(request_id)]
    assert vonage_only.call("DELETE", f"/v1/verifications/{request_id}")[0] == 204


@pytest.mark.parametrize("change,setting", [
    ({"TACIT_VONAGE_API_KEY": ""}, "TACIT_VONAGE_API_KEY"),
    ({"TACIT_VONAGE_API_SECRET": ""}, "TACIT_VONAGE_API_SECRET"),
    ({"TACIT_VONAGE_FROM": ""}, "TACIT_VONAGE_FROM"),
    ({"TACIT_VONAGE_REST_URL": "not a url"}, "TACIT_VONAGE_REST_URL"),
    ({"TACIT_ROUTE_VOICE": "vonage"}, "TACIT_ROUTE_VOICE"),
])
def test_vonage_start_up_checks_exit_2_naming_the_setting_never_its_value(binary, fake, vonage_fake, tmp_path, change, setting):
    env = twilio_env(fake.url) | vonage_env(vonage_fake.url) | {"TACIT_SECRET": "x"} | change
    assert_start_refused(binary, tmp_path, env, setting, (API_KEY, API_SECRET, SIGNATURE_SECRET, vonage_fake.url))


def test_no_code_full_number_or_api_secret_in_the_servers_log_timeline_or_export(binary, fake, vonage_fake):
    number = "+447400123485"
    server = both_providers(binary, fake, vonage_fake)
    try:
        fake.fail(500, 20500, "Internal Server Error", resource="Messages")
        request_id = server.start(number, ["sms", "voice"])
        first = sms_code(last_sms(vonage_fake))
        assert vonage_fake.callback(vonage_fake.message_ids()[-1], "undeliverable") == 204
        calls = [r for r in fake.requests() if r["path"].endswith("Calls.json")]
        second = re.search(r"code is: ([\d, ]+)\.", calls[-1]["form"]["Twiml"]).group(1).replace(", ", "")
        wrong = "000000" if second != "000000" else "111111"
        assert server.call("POST", f"/v1/verifications/{request_id}/check", {"code": wrong})[0] == 400
        assert check(server, request_id, second) == "completed"
        timeline = str(server.events(request_id))
        export = str(server.call("GET", f"/v1/verifications/{request_id}/timeline")[1])
    finally:
        server.stop()
    log = server.log()
    for where, text in (("log", log), ("timeline", timeline), ("export", export)):
        for secret in (first, second, number, number[1:], API_SECRET, SIGNATURE_SECRET):
            assert secret not in text, f"{secret!r} in the {where}"
